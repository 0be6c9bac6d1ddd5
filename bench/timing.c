/* SPDX-License-Identifier: MIT */
/*
 * timing.c - the timing core of the speed measurements (see timing.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "timing.h"

volatile uint64_t bench_sink;

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bench_now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t bench_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

uint64_t bench_ticks(void)
{
#if BENCH_HAVE_TSC
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#else
	return 0;
#endif
}

void bench_measure(bench_fn *fn, void *arg, double target_ns, int reps,
                   struct bench_meas *m)
{
	double per_rep, t = 0, x, wall[BENCH_MAX_REPS], cpu[BENCH_MAX_REPS],
	       tk[BENCH_MAX_REPS];
	uint64_t n = 1, t0, p0, c0;
	int r, i, best = -1, least = 0;

	if (reps > BENCH_MAX_REPS)
		reps = BENCH_MAX_REPS;
	if (reps < 1)
		reps = 1;
	per_rep = target_ns / reps;
	for (;;) {                       /* calibrate (and warm up) */
		t0 = bench_now_ns();
		fn(arg, n);
		t = (double)(bench_now_ns() - t0);
		if (t >= per_rep / 8 || n >= (uint64_t)1 << 40)
			break;
		n *= 2;
	}
	if (t > 0 && per_rep > t)
		n = (uint64_t)((double)n * per_rep / t);
	fn(arg, n);                      /* one untimed repetition */
	for (r = 0; r < reps; r++) {
		p0 = bench_cpu_ns();
		t0 = bench_now_ns();
		c0 = bench_ticks();
		fn(arg, n);
		tk[r] = (double)(bench_ticks() - c0);
		wall[r] = (double)(bench_now_ns() - t0);
		cpu[r] = p0 != 0 ? (double)(bench_cpu_ns() - p0) : wall[r];
		if (cpu[r] >= 0.97 * wall[r] && (best < 0 || wall[r] < wall[best]))
			best = r;
		if (cpu[r] < cpu[least])
			least = r;
	}
	m->descheduled = best < 0;
	if (best >= 0) {
		m->ns = wall[best] / (double)n;
		m->ticks = tk[best] / (double)n;
	} else {
		m->ns = cpu[least] / (double)n;
		m->ticks = tk[least] * (cpu[least] / wall[least]) / (double)n;
	}
	m->iters = n;
	for (r = 1; r < reps; r++)       /* insertion sort for the median */
		for (i = r; i > 0 && wall[i - 1] > wall[i]; i--) {
			x = wall[i];
			wall[i] = wall[i - 1];
			wall[i - 1] = x;
		}
	m->ns_median = wall[reps / 2] / (double)n;
}

/* 16 dependent additions per step: about 16 core cycles on any CPU. */
#define ADD1  __asm__ __volatile__("" : "+r"(x)); x += 1;
#define ADD4  ADD1 ADD1 ADD1 ADD1
static void add_chain(void *arg, uint64_t n)
{
	uint64_t x = n, i;

	(void)arg;
	for (i = 0; i < n; i++) {
		ADD4 ADD4 ADD4 ADD4
	}
	bench_sink ^= x;
}

double bench_core_ghz(double dur_ns, int *descheduled)
{
	struct bench_meas m;

	bench_measure(add_chain, NULL, dur_ns, BENCH_MAX_REPS, &m);
	if (descheduled != NULL)
		*descheduled = m.descheduled;
	return 16.0 / m.ns;
}

double bench_tsc_ghz(uint64_t dur_ns)
{
	uint64_t t0, c0, t1;

	if (!BENCH_HAVE_TSC)
		return 0;
	t0 = bench_now_ns();
	c0 = bench_ticks();
	do
		t1 = bench_now_ns();
	while (t1 - t0 < dur_ns);
	return (double)(bench_ticks() - c0) / (double)(t1 - t0);
}

void bench_cpu_model(char *buf, size_t size)
{
	static const char *const keys[] = {
		"model name", "Model", "Hardware", "cpu model", "Processor"
	};
	char line[512];
	size_t best = sizeof keys / sizeof keys[0], k;
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, size, "unknown");
	if (f == NULL)
		return;
	while (best > 0 && fgets(line, sizeof line, f) != NULL) {
		char *colon = strchr(line, ':'), *end, *val;

		if (colon == NULL)
			continue;
		for (end = colon; end > line && (end[-1] == ' ' || end[-1] == '\t'); end--)
			;
		for (k = 0; k < best; k++)
			if (strlen(keys[k]) == (size_t)(end - line) &&
			    strncmp(line, keys[k], (size_t)(end - line)) == 0)
				break;
		if (k >= best)
			continue;
		for (val = colon + 1; *val == ' ' || *val == '\t'; val++)
			;
		val[strcspn(val, "\r\n")] = '\0';
		if (*val == '\0')
			continue;
		snprintf(buf, size, "%s", val);
		best = k;
	}
	fclose(f);
}

void bench_cpu_ident(char *buf, size_t size)
{
	static const char *const keys[3] = { "cpu family", "model", "stepping" };
	char line[512], val[3][32];
	int k, found = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, size, "%s", "");
	if (f == NULL)
		return;
	memset(val, 0, sizeof val);
	while (found != 7 && fgets(line, sizeof line, f) != NULL) {
		char *colon = strchr(line, ':'), *end, *v;

		if (line[0] == '\n')       /* the end of the first CPU */
			break;
		if (colon == NULL)
			continue;
		for (end = colon; end > line && (end[-1] == ' ' || end[-1] == '\t'); end--)
			;
		for (k = 0; k < 3; k++)
			if (strlen(keys[k]) == (size_t)(end - line) &&
			    strncmp(line, keys[k], (size_t)(end - line)) == 0)
				break;
		if (k == 3 || (found & 1 << k))
			continue;
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			;
		v[strcspn(v, "\r\n")] = '\0';
		snprintf(val[k], sizeof val[k], "%s", v);
		found |= 1 << k;
	}
	fclose(f);
	if (found & 3)
		snprintf(buf, size, "family %s, model %s%s%s",
		         (found & 1) ? val[0] : "?", (found & 2) ? val[1] : "?",
		         (found & 4) ? ", stepping " : "", val[2]);
}
