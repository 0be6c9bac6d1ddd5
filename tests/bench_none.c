/* SPDX-License-Identifier: MIT */
/*
 * bench_none.c - speed of the portable backend "none".
 *
 * For AES-128, AES-192 and AES-256, encryption and decryption:
 *   bulk       aesecb_encrypt/aesecb_decrypt over a 16 KiB buffer, in place;
 *   one block  a 16-byte call on a context kept from aesecb_init, in place,
 *              so each call also waits for the previous one (latency).
 * Each figure comes from the timing core the other benchmarks use
 * (bench/timing.h): calibrated, warmed up, the fastest of several timed
 * runs that kept the CPU.  On x86 cycles are counted with the time stamp
 * counter, i.e. at the TSC rate, which is printed: a constant rate that
 * need not be the clock the core actually ran at.
 *
 * Not a test: built by 'make check' but run by hand.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "aesecb.h"
#include "timing.h"

enum {
	BULK_BYTES = 16384,
	RUNS = 15
};

#define TARGET_NS 150e6   /* work per figure */

typedef int crypt_fn(const aesecb_ctx *, const uint8_t *, uint8_t *, size_t);

/* One measured loop: calls of fn on len bytes of buf, in place. */
struct job {
	crypt_fn *fn;
	const aesecb_ctx *ctx;
	uint8_t *buf;
	size_t len;
};

static void run_job(void *arg, uint64_t n)
{
	struct job *j = arg;
	uint64_t i;

	for (i = 0; i < n; i++)
		j->fn(j->ctx, j->buf, j->buf, j->len);
	bench_sink ^= j->buf[0];
}

static struct bench_meas best_of(crypt_fn *fn, const aesecb_ctx *ctx,
                                 uint8_t *buf, size_t len)
{
	struct job j = { fn, ctx, buf, len };
	struct bench_meas m;

	bench_measure(run_job, &j, TARGET_NS, RUNS, &m);
	return m;
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
	printf("bulk: calls of %d bytes in place, best of %d runs\n",
	       BULK_BYTES, RUNS);
	printf("one block: chained 16-byte calls on one context, "
	       "best of %d runs\n", RUNS);
	ghz = bench_tsc_ghz(200000000u);
	if (ghz > 0)
		printf("cycles are TSC cycles, TSC at %.3f GHz\n", ghz);
	else
		printf("no cycle counter here: times only\n");
	printf("\n%-8s %-24s %-24s %-12s %s\n", "", "bulk encrypt",
	       "bulk decrypt", "1 block enc", "1 block dec");

	for (k = 0; k < 3; k++) {
		struct bench_meas enc, dec, enc1, dec1;
		char col[2][40];
		int rc;

		rc = aesecb_init(&ctx, key, key_lens[k], be);
		if (rc != AESECB_OK) {
			fprintf(stderr, "bench_none: aesecb_init: %s\n",
			        aesecb_strerror(rc));
			return 1;
		}
		enc = best_of(aesecb_encrypt, &ctx, buf, BULK_BYTES);
		dec = best_of(aesecb_decrypt, &ctx, buf, BULK_BYTES);
		enc1 = best_of(aesecb_encrypt, &ctx, buf, 16);
		dec1 = best_of(aesecb_decrypt, &ctx, buf, 16);
		aesecb_clear(&ctx);

		if (ghz > 0) {
			snprintf(col[0], sizeof col[0], "%6.2f c/B %7.3f ns/B",
			         enc.ticks / BULK_BYTES, enc.ns / BULK_BYTES);
			snprintf(col[1], sizeof col[1], "%6.2f c/B %7.3f ns/B",
			         dec.ticks / BULK_BYTES, dec.ns / BULK_BYTES);
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
