/* SPDX-License-Identifier: MIT */
/*
 * cmd_bench.c - aesecb bench: measure (never assert) the speed of the
 * backends through the public API.
 *
 * Method (bench/timing.h): for each (workload, backend) pair, calibrate,
 * warm up, then BENCH_REPS timed repetitions; the fastest one during which
 * the process kept the CPU is reported (the median too, in JSON).  Every
 * output is folded into bench_sink so that no work can be dropped.
 * Nothing is pinned.
 *
 * Cycles: on x86 the cycle columns count time-stamp counter ticks, read
 * around each repetition (the TSC's rate is measured against
 * CLOCK_MONOTONIC and printed): the reference clock, not the core's.
 * Elsewhere they are nanoseconds times the core clock that
 * bench_core_ghz() estimates, and "-" when it cannot tell.  The header
 * says which clock the columns count.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/commands.h"
#include "timing.h"

/* ------------------------------------------------------------------ */
/* Machine description */

/* Does /proc/cpuinfo list this CPU flag? -1: cannot tell. */
static int cpu_flag(const char *flag)
{
	char line[4096];
	int found = -1;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		char *p;
		size_t n = strlen(flag);

		if (strncmp(line, "flags", 5) != 0)
			continue;
		found = 0;
		for (p = strstr(line, flag); p != NULL; p = strstr(p + 1, flag))
			if (p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n')) {
				found = 1;
				break;
			}
		break;
	}
	fclose(f);
	return found;
}

/* ------------------------------------------------------------------ */
/* Workloads */

enum kind { K_ECB, K_ECB1, K_ECB_CHAIN, K_HP, K_HP_CHAIN, K_HP_BATCH,
            K_HP_PROTECT, K_HP_UNPROTECT, K_INIT };

struct workload {
	char name[32];
	enum kind kind;
	int decrypt;
	size_t key_len;
	size_t bytes;        /* bytes per call (0: key setup) */
	unsigned per_call;   /* operations per call (masks in a batch) */
};

#define MAX_WORKLOADS 48
#define HP_BATCH 32
#define HP_PKT 48        /* a short-header packet: 1 + 8-byte DCID + ... */
#define HP_PN_OFFSET 9   /* ... then the packet number */
static struct workload workloads[MAX_WORKLOADS];
static size_t nworkloads;

static void add_workload(const char *name, enum kind kind, int decrypt,
                         size_t key_len, size_t bytes, unsigned per_call)
{
	struct workload *w = &workloads[nworkloads++];

	snprintf(w->name, sizeof w->name, "%s", name);
	w->kind = kind;
	w->decrypt = decrypt;
	w->key_len = key_len;
	w->bytes = bytes;
	w->per_call = per_call;
}

static void make_workloads(void)
{
	static const size_t keys[3] = { 16, 24, 32 };
	static const size_t sizes[3] = { 64, 1024, 16384 };
	char name[32];
	int k, d, s;

	nworkloads = 0;
	for (k = 0; k < 3; k++)
		for (d = 0; d < 2; d++) {
			const char *dir = d ? "dec" : "enc";
			int bits = (int)keys[k] * 8;

			snprintf(name, sizeof name, "ecb-%s-aes-%d/16", dir, bits);
			add_workload(name, K_ECB1, d, keys[k], 16, 1);
			snprintf(name, sizeof name, "ecb-%s-aes-%d/16-chain", dir, bits);
			add_workload(name, K_ECB_CHAIN, d, keys[k], 16, 1);
			for (s = 0; s < 3; s++) {
				snprintf(name, sizeof name, "ecb-%s-aes-%d/%zu", dir,
				         bits, sizes[s]);
				add_workload(name, K_ECB, d, keys[k], sizes[s], 1);
			}
		}
	for (k = 0; k < 3; k += 2) {
		int bits = (int)keys[k] * 8;

		snprintf(name, sizeof name, "quic-hp-aes-%d/16", bits);
		add_workload(name, K_HP, 0, keys[k], 16, 1);
		snprintf(name, sizeof name, "quic-hp-aes-%d/16-chain", bits);
		add_workload(name, K_HP_CHAIN, 0, keys[k], 16, 1);
		snprintf(name, sizeof name, "quic-hp-aes-%d/16x%d", bits, HP_BATCH);
		add_workload(name, K_HP_BATCH, 0, keys[k], 16 * HP_BATCH, HP_BATCH);
		snprintf(name, sizeof name, "quic-hp-aes-%d/protect", bits);
		add_workload(name, K_HP_PROTECT, 0, keys[k], HP_PKT, 1);
		snprintf(name, sizeof name, "quic-hp-aes-%d/unprotect", bits);
		add_workload(name, K_HP_UNPROTECT, 0, keys[k], HP_PKT, 1);
	}
	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof name, "init-aes-%d", (int)keys[k] * 8);
		add_workload(name, K_INIT, 0, keys[k], 0, 1);
	}
}

/* Select the workloads an argument names; returns how many matched. */
static size_t select_workloads(const char *arg, unsigned char *sel)
{
	size_t i, hits = 0, len = strlen(arg);

	if (strpbrk(arg, "*?[") != NULL) {
		for (i = 0; i < nworkloads; i++)
			if (fnmatch(arg, workloads[i].name, 0) == 0) {
				sel[i] = 1;
				hits++;
			}
		return hits;
	}
	for (i = 0; i < nworkloads; i++)
		if (strcmp(arg, workloads[i].name) == 0) {
			sel[i] = 1;
			return 1;
		}
	for (i = 0; i < nworkloads; i++)
		if (len > 0 && strncmp(arg, workloads[i].name, len) == 0) {
			sel[i] = 1;
			hits++;
		}
	return hits;
}

/* ------------------------------------------------------------------ */
/* The measured loops */

#define RING 64   /* distinct one-block inputs for the independent calls */

static _Alignas(64) uint8_t buf_in[16384];
static _Alignas(64) uint8_t buf_out[16384];
static _Alignas(64) uint8_t masks[RING * 5];
static _Alignas(64) uint8_t packets[RING * HP_PKT];

/* A fixed, public benchmark key (a counting pattern, not a secret). */
static const uint8_t bench_key[32] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f
};

struct job {
	aesecb_ctx ctx;
	const aesecb_backend *be;
	const struct workload *w;
	int status;          /* OR of the status codes returned */
};

typedef int crypt_fn(const aesecb_ctx *, const uint8_t *, uint8_t *, size_t);

static crypt_fn *job_fn(const struct job *j)
{
	return j->w->decrypt ? aesecb_decrypt : aesecb_encrypt;
}

static void run_ecb(void *arg, uint64_t n)
{
	struct job *j = arg;
	crypt_fn *fn = job_fn(j);
	size_t len = j->w->bytes;
	int st = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		st |= fn(&j->ctx, buf_in, buf_out, len);
	j->status |= st;
	bench_sink ^= buf_out[len - 1];
}

static void run_ecb1(void *arg, uint64_t n)
{
	struct job *j = arg;
	crypt_fn *fn = job_fn(j);
	int st = 0;
	uint64_t i;

	for (i = 0; i < n; i++) {
		size_t o = (size_t)(i % RING) * 16;

		st |= fn(&j->ctx, buf_in + o, buf_out + o, 16);
	}
	j->status |= st;
	bench_sink ^= buf_out[(size_t)((n - 1) % RING) * 16];
}

static void run_ecb_chain(void *arg, uint64_t n)
{
	struct job *j = arg;
	crypt_fn *fn = job_fn(j);
	int st = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		st |= fn(&j->ctx, buf_out, buf_out, 16);
	j->status |= st;
	bench_sink ^= buf_out[0];
}

static void run_hp(void *arg, uint64_t n)
{
	struct job *j = arg;
	uint64_t i;

	for (i = 0; i < n; i++) {
		size_t r = (size_t)(i % RING);

		aesecb_hp_mask(&j->ctx, buf_in + r * 16, masks + r * 5);
	}
	bench_sink ^= masks[(size_t)((n - 1) % RING) * 5];
}

static void run_hp_chain(void *arg, uint64_t n)
{
	struct job *j = arg;
	uint8_t mask[5];
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		aesecb_hp_mask(&j->ctx, buf_out, mask);
		for (k = 0; k < 5; k++)
			buf_out[k] ^= mask[k];
	}
	bench_sink ^= buf_out[0];
}

static void run_hp_batch(void *arg, uint64_t n)
{
	struct job *j = arg;
	int st = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		st |= aesecb_hp_masks(&j->ctx, buf_in, buf_out, HP_BATCH);
	j->status |= st;
	bench_sink ^= buf_out[5 * HP_BATCH - 1];
}

/* Whole packets in place, one call each, over RING packets: the cost of
 * aesecb_hp_protect/aesecb_hp_unprotect next to a bare mask. */
static void run_hp_packet(void *arg, uint64_t n)
{
	struct job *j = arg;
	int unprotect = j->w->kind == K_HP_UNPROTECT;
	int st = 0;
	uint64_t i;

	for (i = 0; i < n; i++) {
		uint8_t *p = packets + (size_t)(i % RING) * HP_PKT;

		st |= unprotect ? aesecb_hp_unprotect(&j->ctx, p, HP_PKT,
		                                      HP_PN_OFFSET)
		                : aesecb_hp_protect(&j->ctx, p, HP_PKT,
		                                    HP_PN_OFFSET);
	}
	j->status |= st < 0 ? st : 0;
	bench_sink ^= packets[(size_t)((n - 1) % RING) * HP_PKT];
}

static void run_init(void *arg, uint64_t n)
{
	struct job *j = arg;
	int st = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		st |= aesecb_init(&j->ctx, bench_key, j->w->key_len, j->be);
	j->status |= st;
}

static bench_fn *const runners[] = {
	[K_ECB] = run_ecb, [K_ECB1] = run_ecb1, [K_ECB_CHAIN] = run_ecb_chain,
	[K_HP] = run_hp, [K_HP_CHAIN] = run_hp_chain,
	[K_HP_BATCH] = run_hp_batch, [K_HP_PROTECT] = run_hp_packet,
	[K_HP_UNPROTECT] = run_hp_packet, [K_INIT] = run_init,
};

/* ------------------------------------------------------------------ */
/* Output */

struct clockinfo {
	int tsc;            /* cycles are TSC ticks */
	double tsc_ghz;     /* measured TSC rate */
	double core_ghz;    /* estimated core clock, 0: unknown */
	int descheduled;    /* the estimate never had the CPU to itself */
};

/* Whether the cycle columns have figures: TSC ticks, or core cycles
 * from a known clock. */
static int have_cycles(const struct clockinfo *ci)
{
	return ci->tsc || ci->core_ghz > 0;
}

/* The document's header, up to the opening of its results. */
static void json_header(struct cli_json *j, const char *cpu,
                        const struct clockinfo *ci, double target_ns,
                        const aesecb_backend *only)
{
	size_t i, n = aesecb_backend_count();

	cli_json_object(j, NULL);
	cli_json_string(j, "version", aesecb_version());
	cli_json_string(j, "cpu", cpu);
	cli_json_int(j, "logical_cpus", sysconf(_SC_NPROCESSORS_ONLN));
	cli_json_object(j, "cycles");
	cli_json_string(j, "source", ci->tsc ? "tsc" : ci->core_ghz > 0 ?
	                "core-clock-estimate" : NULL);
	cli_json_string(j, "counts", ci->tsc ? "TSC ticks" :
	                ci->core_ghz > 0 ? "core clock cycles" : NULL);
	cli_json_real(j, "tsc_ghz", "%.4f", ci->tsc_ghz, ci->tsc);
	cli_json_real(j, "core_ghz_estimate", "%.4f", ci->core_ghz,
	              ci->core_ghz > 0);
	cli_json_end(j);
	cli_json_object(j, "method");
	cli_json_int(j, "repetitions", BENCH_REPS);
	cli_json_real(j, "ns_per_repetition", "%.0f", target_ns / BENCH_REPS, 1);
	cli_json_string(j, "statistic", "min");
	cli_json_bool(j, "pinned", 0);
	cli_json_bool(j, "clock_estimate_descheduled", ci->descheduled);
	cli_json_end(j);
	cli_json_array(j, "backends");
	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);
		const char *why = aesecb_backend_unavailable_reason(be);

		if (only != NULL && be != only)
			continue;
		cli_json_object(j, NULL);
		cli_json_string(j, "name", aesecb_backend_name(be));
		cli_json_bool(j, "available", why == NULL);
		if (why != NULL) {
			cli_json_string(j, "reason", why);
			cli_json_string(j, "requires", aesecb_backend_requires(be));
		}
		cli_json_end(j);
	}
	cli_json_end(j);
	cli_json_array(j, "results");
}

/* What the cycle columns count, and the core clock. */
static void print_clocks(const struct clockinfo *ci)
{
	const char *dist = ci->descheduled ? " (disturbed by other processes)"
	                                   : "";
	int inv;

	if (!ci->tsc && ci->core_ghz > 0) {
		printf("cycles:   the cycle columns count core clock cycles: ns x "
		       "%.2f GHz, the core clock\n          estimated from two "
		       "chains of dependent instructions%s\n", ci->core_ghz,
		       dist);
		return;
	}
	if (!ci->tsc) {
		printf("cycles:   none (\"-\"): no cycle counter is read, and the "
		       "core clock is unknown\n          (two chains of "
		       "dependent instructions disagree)%s\n", dist);
		return;
	}
	inv = cpu_flag("constant_tsc");
	printf("cycles:   the cycle columns count TSC ticks (rdtsc), not core "
	       "clock cycles; the TSC\n          runs at %.3f GHz (measured "
	       "against CLOCK_MONOTONIC)%s\n", ci->tsc_ghz,
	       inv == 1 ? ", constant rate" :
	       inv == 0 ? ", rate may follow the core clock" : "");
	if (ci->core_ghz > 0)
		printf("          core clock estimated at %.2f GHz from dependent "
		       "multiplications and\n          additions%s: core "
		       "cycles ~ TSC ticks x %.2f\n", ci->core_ghz, dist,
		       ci->core_ghz / ci->tsc_ghz);
	else
		printf("          core clock unknown: dependent multiplications "
		       "and additions disagree%s\n", dist);
}

static void print_header(const char *cpu, const struct clockinfo *ci,
                         double target_ns, const aesecb_backend *const *run,
                         size_t nrun, const aesecb_backend *only)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i, n = aesecb_backend_count();

	printf("aesecb %s bench: measured speed (figures vary from run to run)\n",
	       aesecb_version());
	printf("cpu:      %s, %ld logical CPU%s\n", cpu, ncpu, ncpu == 1 ? "" : "s");
	print_clocks(ci);
	printf("method:   fastest of %d runs of ~%.0f ms each that kept the CPU, "
	       "after calibration\n          and warm-up; nothing pinned; "
	       "1 MB = 10^6 bytes\n", BENCH_REPS, target_ns / BENCH_REPS / 1e6);
	printf("backends:");
	for (i = 0; i < nrun; i++)
		printf(" %s", aesecb_backend_name(run[i]));
	putchar('\n');
	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);
		const char *why = aesecb_backend_unavailable_reason(be);

		if (why == NULL || (only != NULL && be != only))
			continue;
		printf("skipped:  %s (%s; needs %s)\n", aesecb_backend_name(be), why,
		       aesecb_backend_requires(be));
	}
	printf("\n%-25s %-7s %11s %11s %9s %10s\n", "workload", "backend",
	       "ns/op", "cycles/op", "cycles/B", "MB/s");
}

/* One figure's numbers, per operation. */
struct figure {
	double ns, ns_median, cycles, cycles_per_byte, mb_per_s;
	size_t bytes;
	int have_cycles;    /* else the cycle figures are not known */
};

static void figure_of(struct figure *f, const struct workload *w,
                      const struct bench_meas *m, const struct clockinfo *ci)
{
	f->ns = m->ns / w->per_call;
	f->ns_median = m->ns_median / w->per_call;
	f->cycles = ci->tsc ? m->ticks / w->per_call : f->ns * ci->core_ghz;
	f->have_cycles = have_cycles(ci);
	f->bytes = w->bytes / w->per_call;
	f->cycles_per_byte = f->bytes > 0 ? f->cycles / (double)f->bytes : 0;
	f->mb_per_s = f->bytes > 0 ? (double)f->bytes * 1e3 / f->ns : 0;
}

static void json_row(struct cli_json *j, const struct workload *w,
                     const aesecb_backend *be, const struct bench_meas *m,
                     const struct clockinfo *ci)
{
	struct figure f;

	figure_of(&f, w, m, ci);
	cli_json_object(j, NULL);
	cli_json_string(j, "workload", w->name);
	cli_json_string(j, "backend", aesecb_backend_name(be));
	cli_json_uint(j, "bytes_per_op", f.bytes);
	cli_json_uint(j, "ops_per_call", w->per_call);
	cli_json_uint(j, "calls_per_run", m->iters);
	cli_json_real(j, "ns_per_op", "%.4f", f.ns, 1);
	cli_json_real(j, "ns_per_op_median", "%.4f", f.ns_median, 1);
	cli_json_real(j, "cycles_per_op", "%.4f", f.cycles, f.have_cycles);
	cli_json_real(j, "cycles_per_byte", "%.5f", f.cycles_per_byte,
	              f.have_cycles && f.bytes > 0);
	cli_json_real(j, "mb_per_s", "%.2f", f.mb_per_s, f.bytes > 0);
	cli_json_bool(j, "descheduled", m->descheduled);
	cli_json_end(j);
}

static void print_row(const struct workload *w, const aesecb_backend *be,
                      const struct bench_meas *m, const struct clockinfo *ci)
{
	struct figure f;

	figure_of(&f, w, m, ci);
	printf("%-25s %-7s %11.2f ", w->name, aesecb_backend_name(be), f.ns);
	if (f.have_cycles)
		printf("%11.1f ", f.cycles);
	else
		printf("%11s ", "-");
	if (f.bytes > 0 && f.have_cycles)
		printf("%9.3f %10.1f", f.cycles_per_byte, f.mb_per_s);
	else if (f.bytes > 0)
		printf("%9s %10.1f", "-", f.mb_per_s);
	else
		printf("%9s %10s", "-", "-");
	printf("%s\n", m->descheduled ? " *" : "");
}

/* ------------------------------------------------------------------ */

static void help(FILE *f)
{
	fprintf(f,
	"Usage: aesecb bench [-b NAME|all] [--json] [--quick] [WORKLOAD ...]\n"
	"       aesecb bench --list\n"
	"Measure the speed of the backends.  Figures are measured, never checked.\n"
	"\n"
	"  -b, --backend NAME|all  one backend, or every available one (default: all;\n"
	"                          $AESECB_BACKEND is not consulted)\n"
	"      --json              machine-readable output (one JSON document)\n"
	"      --quick             ~20 ms per figure instead of ~0.2 s (rough figures)\n"
	"  -l, --list              list the workload names and exit\n"
	"  -h, --help              this help\n"
	"\n"
	"Workloads (default: all of them):\n"
	"  ecb-enc-aes-N/S, ecb-dec-aes-N/S   N = 128, 192 or 256; S = bytes per call:\n"
	"      16        one block per call, independent calls (throughput)\n"
	"      16-chain  one block per call, each output is the next input (latency)\n"
	"      64, 1024, 16384\n"
	"  quic-hp-aes-N/16, quic-hp-aes-N/16-chain   N = 128 or 256: one\n"
	"      aesecb_hp_mask call per sample (the chain feeds each mask back)\n"
	"  quic-hp-aes-N/16x32   32 samples per aesecb_hp_masks call, per mask\n"
	"  quic-hp-aes-N/protect, quic-hp-aes-N/unprotect   one\n"
	"      aesecb_hp_protect or aesecb_hp_unprotect call on a 48-byte\n"
	"      short-header packet, in place (compare with quic-hp-aes-N/16)\n"
	"  init-aes-N            key setup (aesecb_init), N = 128, 192 or 256\n"
	"A WORKLOAD argument is an exact name, a prefix (ecb-dec-aes-256 selects its\n"
	"five sizes) or a pattern with * ? [...] ('*/16-chain').\n"
	"Columns: ns/op, cycles/op, cycles/B and MB/s (10^6 bytes/s); for batched\n"
	"masks an operation is one mask.  A trailing '*' marks a figure for which\n"
	"every run lost the CPU to other processes.  Exit status: 0 ok, 2 usage or\n"
	"unknown workload, 3 backend unknown or unavailable, 4 output failed.\n");
}

struct bench_opts {
	struct cli_opts common;   /* -b (NULL or "all": every backend), -h */
	int json;
	int quick;
	int list;
};

enum { OPT_JSON = CLI_OPT_OWN, OPT_QUICK };

static const struct option longopts[] = {
	{ "backend", required_argument, NULL, 'b' },
	{ "json",    no_argument,       NULL, OPT_JSON },
	{ "quick",   no_argument,       NULL, OPT_QUICK },
	{ "list",    no_argument,       NULL, 'l' },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Options; the WORKLOAD operands are left at argv[optind..]. */
static int parse(struct bench_opts *o, int argc, char **argv)
{
	int c, rc = 0;

	optind = 1;
	while (rc == 0 && !o->common.help &&
	       (c = cli_getopt(argc, argv, ":b:lh", longopts)) != -1) {
		switch (c) {
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_QUICK:
			o->quick = 1;
			break;
		case 'l':
			o->list = 1;
			break;
		default:
			rc = cli_option(&o->common, c, optarg);
			break;
		}
	}
	return rc;
}

static int list_workloads(int json)
{
	struct cli_json j;
	size_t i;

	if (!json) {
		for (i = 0; i < nworkloads; i++)
			printf("%s\n", workloads[i].name);
		return cli_flush_stdout();
	}
	cli_json_start(&j, stdout, CLI_JSON_LISTING);
	cli_json_array(&j, NULL);
	for (i = 0; i < nworkloads; i++)
		cli_json_string(&j, NULL, workloads[i].name);
	cli_json_end(&j);
	return cli_json_finish_stdout(&j);
}

/* The workloads the operands name (all of them without operands). */
static int select_all(char **args, size_t nargs, unsigned char *sel)
{
	size_t i;

	memset(sel, nargs > 0 ? 0 : 1, MAX_WORKLOADS);
	for (i = 0; i < nargs; i++)
		if (select_workloads(args[i], sel) == 0) {
			cli_err("unknown workload '%s' (see 'aesecb bench --list')",
			        cli_safe(args[i]));
			return EXIT_USAGE;
		}
	return 0;
}

static void fill_buffers(void)
{
	size_t i;

	memset(buf_out, 0, sizeof buf_out);
	for (i = 0; i < sizeof buf_in; i++)
		buf_in[i] = (uint8_t)(i * 131 + 7);
	for (i = 0; i < sizeof packets; i++)   /* short headers (0x40 set) */
		packets[i] = i % HP_PKT == 0 ? 0x41 : (uint8_t)(i * 29 + 11);
}

/* One figure: workload w under backend be.  Returns 0 or an exit status
 * after the message. */
static int measure(const struct workload *w, const aesecb_backend *be,
                   double target_ns, struct bench_meas *m)
{
	struct job j;
	int st;

	j.be = be;
	j.w = w;
	j.status = 0;
	st = aesecb_init(&j.ctx, bench_key, w->key_len, be);
	if (st != AESECB_OK) {
		cli_err("%s: backend '%s' failed to start: %s", w->name,
		        aesecb_backend_name(be), aesecb_strerror(st));
		return cli_status_exit(st);
	}
	bench_measure(runners[w->kind], &j, target_ns, BENCH_REPS, m);
	aesecb_clear(&j.ctx);
	if (j.status != 0) {
		cli_err("%s: backend '%s' failed: %s", w->name,
		        aesecb_backend_name(be), aesecb_strerror(j.status));
		return EXIT_BACKEND;
	}
	return 0;
}

static void measure_clocks(struct clockinfo *ci, int quick)
{
	ci->tsc = BENCH_HAVE_TSC;
	ci->tsc_ghz = bench_tsc_ghz(quick ? 5000000 : 50000000);
	ci->core_ghz = bench_core_ghz(25e6, &ci->descheduled);
}

/* A run of the benchmark: what it measures and how it reports. */
struct session {
	int json;
	unsigned char sel[MAX_WORKLOADS];  /* workloads selected */
	struct cli_backends be;            /* measured: be.run; -b NAME:
	                                      be.only */
	struct clockinfo ci;
	double target_ns;                  /* per figure */
	struct cli_json j;
	int starred;                       /* a figure lost the CPU */
};

/* Every selected workload under every backend, a row each as it comes.
 * Returns 0 or an exit status after the message. */
static int measure_all(struct session *se)
{
	struct bench_meas m;
	size_t i, b;
	int rc = 0;

	fill_buffers();
	for (i = 0; i < nworkloads && rc == 0; i++)
		for (b = 0; b < se->be.nrun && se->sel[i] && rc == 0; b++) {
			rc = measure(&workloads[i], se->be.run[b], se->target_ns,
			             &m);
			if (rc != 0)
				break;
			se->starred |= m.descheduled;
			if (se->json)
				json_row(&se->j, &workloads[i], se->be.run[b], &m,
				         &se->ci);
			else
				print_row(&workloads[i], se->be.run[b], &m, &se->ci);
			rc = cli_flush_stdout();
		}
	return rc;
}

/* The end of the report: the JSON document is closed (whole even after a
 * failed measurement, unless writing failed), the text says what a '*'
 * means. */
static int end_report(struct session *se, int rc)
{
	int wr;

	if (se->json && rc != EXIT_IO) {
		cli_json_end(&se->j);
		cli_json_end(&se->j);
		wr = cli_json_finish_stdout(&se->j);
		return rc != 0 ? rc : wr;
	}
	if (se->json || !se->starred || rc != 0)
		return rc;
	printf("\n* every run of this figure lost the CPU to other processes: "
	       "ns is this process's\n  own CPU time and cycles are scaled to "
	       "match; figures from an idle machine\n  are more reliable\n");
	return cli_flush_stdout();
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts o;
	struct session se;
	char cpu[256];
	int rc;

	memset(&o, 0, sizeof o);
	memset(&se, 0, sizeof se);
	o.common.backend_all = 1;
	make_workloads();
	rc = parse(&o, argc, argv);
	if (rc != 0 || o.common.help)
		return rc != 0 ? rc : cli_help(help);
	if (o.list) {
		if (optind < argc) {
			cli_err("--list takes no workload arguments");
			return EXIT_USAGE;
		}
		return list_workloads(o.json);
	}
	se.json = o.json;
	rc = select_all(argv + optind, (size_t)(argc - optind), se.sel);
	if (rc == 0)
		rc = cli_backends_select(o.common.backend, &se.be);
	if (rc == 0) {
		se.target_ns = o.quick ? 20e6 : 200e6;
		measure_clocks(&se.ci, o.quick);
		bench_cpu_model(cpu, sizeof cpu);
		cli_json_start(&se.j, stdout, CLI_JSON_LISTING);
		if (se.json)
			json_header(&se.j, cpu, &se.ci, se.target_ns, se.be.only);
		else
			print_header(cpu, &se.ci, se.target_ns, se.be.run,
			             se.be.nrun, se.be.only);
		rc = cli_flush_stdout();
		if (rc == 0)
			rc = measure_all(&se);
		rc = end_report(&se, rc);
	}
	cli_backends_free(&se.be);
	return rc;
}
