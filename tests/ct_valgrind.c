/* SPDX-License-Identifier: MIT */
/*
 * ct_valgrind.c - constant-time check of the library under valgrind.
 *
 * Memcheck tracks, bit by bit, which values are "defined".  This program
 * marks the key, the data and the QUIC samples undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED) before handing them to the library, so
 * every value derived from them is undefined too.  Memcheck then reports
 * any branch or conditional move that depends on such a value
 * ("Conditional jump or move depends on uninitialised value(s)") and any
 * memory address computed from one ("Use of uninitialised value of size
 * N"): exactly the secret-dependent branches and table indexes the library
 * must not have.  Outputs are marked defined again before this program
 * compares anything, so every error counted comes from the library.
 *
 *   ct_valgrind            key setup, encrypt and decrypt of 0..40 blocks
 *                          (in place and not), aesecb_hp_mask,
 *                          aesecb_hp_masks and aesecb_hp_protect/unprotect
 *                          on whole packets, on every available backend;
 *                          exit 0 only if memcheck counted no error
 *   ct_valgrind --table    the self-test: a table-based AES round run on
 *                          data marked the same way; memcheck must count
 *                          errors there (exit 0 if it did), which shows
 *                          the method catches table look-ups
 *
 * Both must run under valgrind (tests/ct-valgrind.sh does that).  Outside
 * valgrind the program says "ready" and exits 77; built without
 * <valgrind/memcheck.h>, or with AddressSanitizer (which valgrind cannot
 * run), it reports SKIP and exits 77.  The verdict is the change in memcheck's error count
 * around the checked calls (VALGRIND_COUNT_ERRORS), so errors valgrind
 * might report in the C library's start-up code (a static 32-bit build)
 * do not count; the script also runs valgrind with --error-exitcode.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"

#if defined(__SANITIZE_ADDRESS__)
#define BUILT_WITH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define BUILT_WITH_ASAN 1
#endif
#endif

#if defined(HAVE_VALGRIND_MEMCHECK_H) && !defined(BUILT_WITH_ASAN)
#include <valgrind/memcheck.h>

#define BS AESECB_BLOCK_SIZE
#define MAXBLOCKS 40
#define MAXMASKS 70

static const size_t key_sizes[3] = { 16, 24, 32 };

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("FAIL: " __VA_ARGS__); \
		printf("\n"); \
		failures++; \
	} \
} while (0)

/* xorshift64*, fixed seed: the inputs need not be secret, only marked. */
static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static void fill(uint8_t *p, size_t n)
{
	while (n-- > 0) {
		rng_state ^= rng_state >> 12;
		rng_state ^= rng_state << 25;
		rng_state ^= rng_state >> 27;
		*p++ = (uint8_t)((rng_state * UINT64_C(0x2545f4914f6cdd1d)) >> 56);
	}
}

#define SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define PUBLIC(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))

static unsigned long errors_now(void)
{
	return (unsigned long)VALGRIND_COUNT_ERRORS;
}

/* One direction, n blocks, out of place and in place: both results must
 * equal 'want' (from the portable backend; NULL: not known yet, then the
 * out-of-place result is stored there instead). */
static void crypt_both(const aesecb_ctx *ctx, const char *name, int decrypt,
                       const uint8_t *in, size_t n, uint8_t *want,
                       int have_want)
{
	static uint8_t src[MAXBLOCKS * BS], out[MAXBLOCKS * BS];
	size_t len = n * BS;
	int rc;

	memcpy(src, in, len);
	SECRET(src, len);
	rc = decrypt ? aesecb_decrypt(ctx, src, out, len)
	             : aesecb_encrypt(ctx, src, out, len);
	PUBLIC(out, len);
	CHECK(rc == AESECB_OK, "%s: %s of %zu blocks returned %d", name,
	      decrypt ? "decrypt" : "encrypt", n, rc);
	if (have_want)
		CHECK(memcmp(out, want, len) == 0, "%s: %s of %zu blocks "
		      "differs from backend none", name,
		      decrypt ? "decrypt" : "encrypt", n);
	else
		memcpy(want, out, len);

	memcpy(src, in, len);
	SECRET(src, len);
	rc = decrypt ? aesecb_decrypt(ctx, src, src, len)
	             : aesecb_encrypt(ctx, src, src, len);
	PUBLIC(src, len);
	CHECK(rc == AESECB_OK && memcmp(src, want, len) == 0,
	      "%s: in-place %s of %zu blocks is wrong", name,
	      decrypt ? "decrypt" : "encrypt", n);
}

/* Everything the library does with secrets, on one backend.  'ref' holds
 * backend none's results, filled in when be is none (it runs first). */
static struct {
	uint8_t ct[3][MAXBLOCKS + 1][MAXBLOCKS * BS];
	uint8_t masks[3][MAXMASKS * 5];
} ref;

static void run_backend(const aesecb_backend *be, int is_none)
{
	const char *name = aesecb_backend_name(be);
	static uint8_t pt[MAXBLOCKS * BS], back[MAXBLOCKS * BS];
	static uint8_t samples[MAXMASKS * BS], masks[MAXMASKS * 5];
	size_t k, n;

	for (k = 0; k < 3; k++) {
		uint8_t key[32], mask[5], sample[BS], block[BS];
		aesecb_ctx ctx;
		int rc;

		/* the same key and data for every backend */
		rng_state = UINT64_C(0x9e3779b97f4a7c15) + k;
		fill(key, sizeof key);
		fill(pt, sizeof pt);
		fill(samples, sizeof samples);

		SECRET(key, sizeof key);
		rc = aesecb_init(&ctx, key, key_sizes[k], be);
		CHECK(rc == AESECB_OK, "%s: aesecb_init returned %d", name, rc);
		if (rc != AESECB_OK)
			continue;

		for (n = 0; n <= MAXBLOCKS; n++) {
			crypt_both(&ctx, name, 0, pt, n, ref.ct[k][n], !is_none);
			crypt_both(&ctx, name, 1, ref.ct[k][n], n, back, 0);
			CHECK(memcmp(back, pt, n * BS) == 0,
			      "%s: AES-%zu decrypt(encrypt(x)) != x for %zu "
			      "blocks", name, key_sizes[k] * 8, n);
		}

		/* one header-protection mask */
		memcpy(sample, samples, BS);
		SECRET(sample, BS);
		aesecb_hp_mask(&ctx, sample, mask);
		PUBLIC(mask, sizeof mask);
		memcpy(block, samples, BS);
		SECRET(block, BS);
		rc = aesecb_encrypt(&ctx, block, block, BS);
		PUBLIC(block, BS);
		CHECK(rc == AESECB_OK && memcmp(mask, block, 5) == 0,
		      "%s: hp mask is not the first 5 bytes of the block", name);

		/* whole packets: every first byte (both header forms, every
		 * packet-number length), the packet secret, protected and
		 * unprotected in place */
		{
			uint8_t pkt[48], orig[48];
			unsigned fb;

			for (fb = 0; fb < 256; fb += 5) {
				int r1, r2;

				memcpy(pkt, samples, sizeof pkt);
				pkt[0] = (uint8_t)fb;
				memcpy(orig, pkt, sizeof pkt);
				SECRET(pkt, sizeof pkt);
				r1 = aesecb_hp_protect(&ctx, pkt, sizeof pkt, 9);
				r2 = aesecb_hp_unprotect(&ctx, pkt, sizeof pkt, 9);
				PUBLIC(pkt, sizeof pkt);
				PUBLIC(&r2, sizeof r2);
				CHECK(r1 == AESECB_OK && r2 == (int)(fb & 3) + 1 &&
				      memcmp(pkt, orig, sizeof pkt) == 0,
				      "%s: hp_protect/unprotect round trip "
				      "(first byte %02x)", name, fb);
			}
		}

		/* 0..MAXMASKS masks at once (past the library's batch of 64) */
		for (n = 0; n <= MAXMASKS; n += (n < 8 ? 1 : 31)) {
			SECRET(samples, n * BS);
			rc = aesecb_hp_masks(&ctx, samples, masks, n);
			PUBLIC(masks, n * 5);
			PUBLIC(samples, n * BS);
			CHECK(rc == AESECB_OK, "%s: hp_masks(%zu) returned %d",
			      name, n, rc);
			if (is_none && n == MAXMASKS)
				memcpy(ref.masks[k], masks, n * 5);
			else if (n == MAXMASKS)
				CHECK(memcmp(masks, ref.masks[k], n * 5) == 0,
				      "%s: hp masks differ from backend none",
				      name);
		}
		aesecb_clear(&ctx);
	}
}

static int check_library(void)
{
	const aesecb_backend *none = aesecb_backend_find("none");
	size_t i, ran = 0;
	unsigned long total = 0;

	if (none == NULL || !aesecb_backend_available(none)) {
		printf("FAIL: backend none is not available\n");
		return 1;
	}
	/* none first: its results are the reference */
	for (i = 0; i <= aesecb_backend_count(); i++) {
		const aesecb_backend *be = i == 0 ? none
		                           : aesecb_backend_get(i - 1);
		unsigned long before, errs;

		if (i > 0 && be == none)
			continue;
		if (!aesecb_backend_available(be)) {
			printf("SKIP: backend %s: %s\n", aesecb_backend_name(be),
			       aesecb_backend_unavailable_reason(be));
			continue;
		}
		before = errors_now();
		run_backend(be, be == none);
		errs = errors_now() - before;
		printf("%s: backend %s: %lu memcheck error%s in key setup, "
		       "encrypt, decrypt, hp_mask, hp_masks, hp_protect, "
		       "hp_unprotect\n",
		       errs == 0 ? "PASS" : "FAIL", aesecb_backend_name(be),
		       errs, errs == 1 ? "" : "s");
		total += errs;
		ran++;
	}
	printf("backends checked: %zu; memcheck errors: %lu; other "
	       "failures: %d\n", ran, total, failures);
	return total == 0 && failures == 0 && ran > 0 ? 0 : 1;
}

/* ------------------------------------------------------------------ */
/*
 * The self-test: what the library must never do.  An S-box table indexed
 * by key and data bytes, a branch on a data bit, the way textbook AES code
 * is written, and an early-exit comparison of the key with a guess.  Memcheck must
 * report the table look-ups and the comparison's branch (the compiler may
 * turn the doubling's branch into branch-free code).  (The table lives in this
 * test program only; the library has no S-box table.)
 */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t p = 0;
	int i;

	for (i = 0; i < 8; i++) {
		p ^= (uint8_t)(-(b & 1) & a);
		a = (uint8_t)((a << 1) ^ (-(a >> 7) & 0x1b));
		b >>= 1;
	}
	return p;
}

static uint8_t sbox[256];

static void make_sbox(void)
{
	unsigned x, y;

	for (x = 0; x < 256; x++) {
		uint8_t inv = 0, s;

		for (y = 1; y < 256 && x != 0; y++)
			if (gf_mul((uint8_t)x, (uint8_t)y) == 1)
				inv = (uint8_t)y;
		/* FIPS-197 affine map: b ^ rotl(b,1..4) ^ 0x63 */
		s = inv;
		for (y = 1; y <= 4; y++)
			s ^= (uint8_t)((inv << y) | (inv >> (8 - y)));
		sbox[x] = (uint8_t)(s ^ 0x63);
	}
}

/* doubling in GF(2^8) with a branch on the top bit (leaky on purpose) */
static uint8_t xtime_branchy(uint8_t v)
{
	if (v & 0x80)
		return (uint8_t)((v << 1) ^ 0x1b);
	return (uint8_t)(v << 1);
}

/* AddRoundKey + SubBytes by table + a MixColumns-like doubling: leaky */
static void leaky_round(uint8_t st[16], const uint8_t key[16])
{
	uint8_t t[16];
	int i;

	for (i = 0; i < 16; i++)
		t[i] = sbox[st[i] ^ key[i]];
	for (i = 0; i < 16; i++)
		st[i] = (uint8_t)(t[i] ^ xtime_branchy(t[(i + 5) & 15]));
}

/* an early-exit comparison, like memcmp: a branch on every byte (leaky;
 * the volatile count of bytes compared keeps the compiler from turning
 * the loop into branch-free code) */
static volatile unsigned bytes_compared;

static int leaky_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (a[i] != b[i])
			return 0;
		bytes_compared++;
	}
	return 1;
}

static int check_table(void)
{
	static const uint8_t zero[16];
	uint8_t key[16], st[16];
	unsigned long before, errs;
	int r, eq;

	make_sbox();
	if (sbox[0] != 0x63 || sbox[1] != 0x7c || sbox[0x53] != 0xed) {
		printf("FAIL: the self-test's S-box is wrong\n");
		return 1;
	}
	fill(key, sizeof key);
	fill(st, sizeof st);
	SECRET(key, sizeof key);
	SECRET(st, sizeof st);
	before = errors_now();
	for (r = 0; r < 4; r++)
		leaky_round(st, key);
	/* (the table look-ups gave defined values: memcheck takes a loaded
	 * value's state from the table, so compare the key itself) */
	eq = leaky_equal(key, zero, sizeof key);
	PUBLIC(&eq, sizeof eq);
	PUBLIC(st, sizeof st);
	errs = errors_now() - before;
	printf("table-based AES round (leaky on purpose): %lu memcheck "
	       "error%s (expected: at least one)\n", errs,
	       errs == 1 ? "" : "s");
	/* keep the result alive */
	printf("state byte: %02x, key all zero: %d\n", st[0], eq);
	return errs > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (!RUNNING_ON_VALGRIND) {
		/* tests/ct-valgrind.sh asks this first, outside valgrind */
		printf("ready: run this program under valgrind "
		       "(tests/ct-valgrind.sh does)\n");
		return 77;
	}
	if (argc > 1 && strcmp(argv[1], "--table") == 0)
		return check_table();
	if (argc > 1) {
		fprintf(stderr, "usage: ct_valgrind [--table]\n");
		return 2;
	}
	return check_library();
}

#else /* no <valgrind/memcheck.h>, or a sanitizer build */

int main(void)
{
#ifdef BUILT_WITH_ASAN
	printf("SKIP: built with a sanitizer, which valgrind cannot run\n");
#else
	printf("SKIP: built without <valgrind/memcheck.h> "
	       "(Debian package valgrind)\n");
#endif
	return 77;
}

#endif
