/*
 * bench_none.c - speed of the portable backend "none".
 *
 * For AES-128, AES-192 and AES-256, encryption and decryption:
 *   bulk       aesecb_encrypt/aesecb_decrypt over a 16 KiB buffer, in place;
 *   one block  a 16-byte call on a context kept from aesecb_init, in place,
 *              so each call also waits for the previous one (latency).
 * Each figure is the best of many short timed runs (tens of
 * microseconds each) after a warm-up run: on a loaded machine most runs
 * are interrupted, but some are not, and the best of them keeps other
 * load out of the figure.  Times come from
 * clock_gettime(CLOCK_MONOTONIC); on x86 cycles are counted with the time
 * stamp counter, i.e. at the TSC rate, which is printed: a constant rate
 * that need not be the clock the core actually ran at.
 *
 * Not a test: built by 'make check' but run by hand.
 */
#define _POSIX_C_SOURCE 200809L

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "aesecb.h"

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_TSC 1
static uint64_t ticks(void)
{
	return __builtin_ia32_rdtsc();
}
#else
#define HAVE_TSC 0
static uint64_t ticks(void)
{
	return 0;
}
#endif

enum {
	BULK_BYTES = 16384,
	BULK_CALLS = 2,         /* calls per timed run */
	BULK_RUNS = 200,
	ONE_CALLS = 100,
	ONE_RUNS = 2000
};

typedef int crypt_fn(const aesecb_ctx *, const uint8_t *, uint8_t *, size_t);

struct sample {
	double ns;              /* per call */
	double tsc;             /* per call */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Best of RUNS timed runs of 'calls' calls of fn on len bytes in place. */
static struct sample best_of(crypt_fn *fn, const aesecb_ctx *ctx,
                             uint8_t *buf, size_t len, int calls, int runs)
{
	struct sample best = { 0, 0 };
	int run, i;

	for (i = 0; i < calls; i++)             /* warm-up */
		fn(ctx, buf, buf, len);
	for (run = 0; run < runs; run++) {
		double t0 = now_ns(), t;
		uint64_t c0 = ticks(), c;

		for (i = 0; i < calls; i++)
			fn(ctx, buf, buf, len);
		c = ticks() - c0;
		t = now_ns() - t0;
		if (run == 0 || t < best.ns * calls) {
			best.ns = t / calls;
			best.tsc = (double)c / calls;
		}
	}
	return best;
}

static double tsc_ghz(void)
{
	double t0, t;
	uint64_t c0;

	if (!HAVE_TSC)
		return 0;
	t0 = now_ns();
	c0 = ticks();
	do
		t = now_ns();
	while (t - t0 < 2e8);
	return (double)(ticks() - c0) / (t - t0);
}

int main(void)
{
	static uint8_t buf[BULK_BYTES];
	static const size_t key_lens[3] = { 16, 24, 32 };
	const aesecb_backend *be = aesecb_backend_find("none");
	uint8_t key[32];
	aesecb_ctx ctx;
	size_t i, k;
	double ghz;

	for (i = 0; i < sizeof key; i++)
		key[i] = (uint8_t)(7 * i + 1);
	for (i = 0; i < sizeof buf; i++)
		buf[i] = (uint8_t)i;

	printf("backend \"none\" (portable bitsliced), version %s\n",
	       aesecb_version());
	printf("bulk: %d calls of %d bytes in place, best of %d runs\n",
	       BULK_CALLS, BULK_BYTES, BULK_RUNS);
	printf("one block: %d chained 16-byte calls on one context, "
	       "best of %d runs\n", ONE_CALLS, ONE_RUNS);
	ghz = tsc_ghz();
	if (ghz > 0)
		printf("cycles are TSC cycles, TSC at %.3f GHz\n", ghz);
	else
		printf("no cycle counter here: times only\n");
	printf("\n%-8s %-24s %-24s %-12s %s\n", "", "bulk encrypt",
	       "bulk decrypt", "1 block enc", "1 block dec");

	for (k = 0; k < 3; k++) {
		struct sample enc, dec, enc1, dec1;
		char col[2][40];
		int rc;

		rc = aesecb_init(&ctx, key, key_lens[k], be);
		if (rc != AESECB_OK) {
			fprintf(stderr, "bench_none: aesecb_init: %s\n",
			        aesecb_strerror(rc));
			return 1;
		}
		enc = best_of(aesecb_encrypt, &ctx, buf, BULK_BYTES, BULK_CALLS,
		              BULK_RUNS);
		dec = best_of(aesecb_decrypt, &ctx, buf, BULK_BYTES, BULK_CALLS,
		              BULK_RUNS);
		enc1 = best_of(aesecb_encrypt, &ctx, buf, 16, ONE_CALLS,
		               ONE_RUNS);
		dec1 = best_of(aesecb_decrypt, &ctx, buf, 16, ONE_CALLS,
		               ONE_RUNS);
		aesecb_clear(&ctx);

		if (ghz > 0) {
			snprintf(col[0], sizeof col[0], "%6.2f c/B %7.3f ns/B",
			         enc.tsc / BULK_BYTES, enc.ns / BULK_BYTES);
			snprintf(col[1], sizeof col[1], "%6.2f c/B %7.3f ns/B",
			         dec.tsc / BULK_BYTES, dec.ns / BULK_BYTES);
		} else {
			snprintf(col[0], sizeof col[0], "%7.3f ns/B",
			         enc.ns / BULK_BYTES);
			snprintf(col[1], sizeof col[1], "%7.3f ns/B",
			         dec.ns / BULK_BYTES);
		}
		printf("AES-%-4u %-24s %-24s %7.1f ns   %7.1f ns\n",
		       (unsigned)(8 * key_lens[k]), col[0], col[1], enc1.ns,
		       dec1.ns);
	}
	aesecb_wipe(key, sizeof key);
	return 0;
}
