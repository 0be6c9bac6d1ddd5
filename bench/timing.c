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

/*
 * The core clock, from two chains of dependent instructions whose latency
 * in core cycles is known and that no core shortens, 32 per step.  A
 * chain of additions of a constant is no such chain: recent cores (Intel
 * Golden Cove and later) fold those at rename, and 16 of them measured
 * 8 GHz on a 3 GHz core.  What they cannot fold is an operation on a
 * register whose value is unknown until it runs:
 *   x86     imul of a register by itself: 3 cycles on every x86-64 core
 *           of the last 15 years; and add of a register: 1 cycle;
 *   AArch64 add of a register and eor of a register, 1 cycle each;
 *   others  the same in C, one compiler barrier per operation.
 * Each chain gives a clock; the two must agree within 10%, else the
 * figure is unknown (0): a wrong clock is worse than none.
 */
#define CHAIN_STEP 32
#if defined(__x86_64__) || defined(__i386__)
#define CHAIN_A_OP "imul %0, %0\n\t"
#define CHAIN_A_CYCLES 3.0
#define CHAIN_B_OP "add %1, %0\n\t"
#elif defined(__aarch64__)
#define CHAIN_A_OP "add %0, %0, %1\n\t"
#define CHAIN_A_CYCLES 1.0
#define CHAIN_B_OP "eor %0, %0, %1\n\t"
#endif
#define CHAIN_B_CYCLES 1.0

#ifdef CHAIN_A_OP
#define OPS8(op) op op op op op op op op
#define OPS32(op) OPS8(op) OPS8(op) OPS8(op) OPS8(op)
static void chain_a(void *arg, uint64_t n)
{
	uintptr_t x = (uintptr_t)n | 1, y = (uintptr_t)arg;
	uint64_t i;

	for (i = 0; i < n; i++)
		__asm__ __volatile__(OPS32(CHAIN_A_OP) : "+r"(x) : "r"(y));
	bench_sink ^= x;
}

static void chain_b(void *arg, uint64_t n)
{
	uintptr_t x = (uintptr_t)n, y = (uintptr_t)arg;
	uint64_t i;

	for (i = 0; i < n; i++)
		__asm__ __volatile__(OPS32(CHAIN_B_OP) : "+r"(x) : "r"(y));
	bench_sink ^= x;
}
#else
#define C8(e) e e e e e e e e
#define C32(e) C8(e) C8(e) C8(e) C8(e)
#define CHAIN_A_CYCLES 1.0
static void chain_a(void *arg, uint64_t n)
{
	uintptr_t x = (uintptr_t)n, y = (uintptr_t)arg;
	uint64_t i;

	for (i = 0; i < n; i++) {
		C32(__asm__ __volatile__("" : "+r"(x)); x += y;)
	}
	bench_sink ^= x;
}

static void chain_b(void *arg, uint64_t n)
{
	uintptr_t x = (uintptr_t)n, y = (uintptr_t)arg;
	uint64_t i;

	for (i = 0; i < n; i++) {
		C32(__asm__ __volatile__("" : "+r"(x)); x ^= y;)
	}
	bench_sink ^= x;
}
#endif

double bench_core_ghz(double dur_ns, int *descheduled)
{
	struct bench_meas a, b;
	/* an operand the compiler and the core know nothing of */
	void *opaque = (void *)(uintptr_t)(bench_now_ns() | 1);
	double ga, gb;

	bench_measure(chain_a, opaque, dur_ns / 2, BENCH_MAX_REPS, &a);
	bench_measure(chain_b, opaque, dur_ns / 2, BENCH_MAX_REPS, &b);
	if (descheduled != NULL)
		*descheduled = a.descheduled || b.descheduled;
	ga = CHAIN_STEP * CHAIN_A_CYCLES / a.ns;
	gb = CHAIN_STEP * CHAIN_B_CYCLES / b.ns;
	if (!(ga > 0 && gb > 0) || ga > 1.1 * gb || gb > 1.1 * ga)
		return 0;
	return (ga + gb) / 2;
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
