/* SPDX-License-Identifier: MIT */
/*
 * check_lib.c - unit tests of libaesecb, run against every backend.
 *
 * Every test walks the whole backend table.  Backends this build or this CPU
 * cannot run are listed once, at start-up, as "SKIP: backend NAME: reason";
 * the backends that did run are listed too.  A skipped backend never counts
 * as a pass: the portable backend "none" must always run, and a test that
 * ran no backend at all fails.
 *
 * Random inputs come from a small fixed-seed generator, so a failure
 * reproduces; the seed is printed and can be changed with $AESECB_TEST_SEED.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "internal.h"

#define BS AESECB_BLOCK_SIZE

/*
 * Like ck_assert_msg(), but silent on success.  Check records every passing
 * assertion, which is slow in the inner loops that run them by the
 * thousand; failures are reported the same way.
 */
#define REQUIRE(expr, ...) \
	do { if (!(expr)) ck_abort_msg(__VA_ARGS__); } while (0)

static const size_t key_sizes[3] = { 16, 24, 32 };

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static uint64_t test_seed = UINT64_C(0x243f6a8885a308d3);

/* xorshift64*: small, fast and good enough for test data. */
struct prng {
	uint64_t s;
};

static void prng_init(struct prng *r, uint64_t salt)
{
	r->s = test_seed ^ (salt * UINT64_C(0x9e3779b97f4a7c15));
	if (r->s == 0)
		r->s = 1;
}

static uint64_t prng_next(struct prng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * UINT64_C(0x2545f4914f6cdd1d);
}

static void prng_fill(struct prng *r, uint8_t *p, size_t n)
{
	while (n > 0) {
		uint64_t v = prng_next(r);
		size_t k = n < 8 ? n : 8, i;

		for (i = 0; i < k; i++)
			p[i] = (uint8_t)(v >> (8 * i));
		p += k;
		n -= k;
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode hex (spaces ignored) into out; returns the byte count. */
static size_t unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int hi = -1;

	for (; *s != '\0'; s++) {
		int v;

		if (*s == ' ')
			continue;
		v = hexval((unsigned char)*s);
		REQUIRE(v >= 0, "bad hex digit in a test constant");
		if (hi < 0) {
			hi = v;
		} else {
			REQUIRE(n < cap, "test constant too long");
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	REQUIRE(hi < 0, "odd number of hex digits in a test constant");
	return n;
}

static const char *dir_name(int decrypt)
{
	return decrypt ? "decrypt" : "encrypt";
}

static int crypt_dir(const aesecb_ctx *ctx, int decrypt, const uint8_t *in,
                     uint8_t *out, size_t len)
{
	return decrypt ? aesecb_decrypt(ctx, in, out, len)
	               : aesecb_encrypt(ctx, in, out, len);
}

/* An encrypt or decrypt call that must succeed. */
static void crypt_ok(const aesecb_ctx *ctx, int decrypt, const uint8_t *in,
                     uint8_t *out, size_t len)
{
	int rc = crypt_dir(ctx, decrypt, in, out, len);

	REQUIRE(rc == AESECB_OK, "backend %s: %s of %zu bytes returned %d (%s)",
	  aesecb_backend_name(aesecb_ctx_backend(ctx)), dir_name(decrypt),
	  len, rc, aesecb_strerror(rc));
}

/* A position-dependent canary pattern: byte i of pattern 'tag'. */
static uint8_t pattern_byte(unsigned tag, size_t i)
{
	return (uint8_t)(tag + i * 151u + (i >> 8) * 7u);
}

static void fill_pattern(uint8_t *p, size_t n, unsigned tag)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = pattern_byte(tag, i);
}

/* Index of the first byte of p[from..n) that differs from the pattern (the
 * pattern counted from p[0]), or n. */
static size_t check_pattern_from(const uint8_t *p, size_t from, size_t n,
                                 unsigned tag)
{
	size_t i;

	for (i = from; i < n; i++)
		if (p[i] != pattern_byte(tag, i))
			return i;
	return n;
}

static size_t check_pattern(const uint8_t *p, size_t n, unsigned tag)
{
	return check_pattern_from(p, 0, n, tag);
}

static const aesecb_backend *none_backend(void)
{
	const aesecb_backend *be = aesecb_backend_find("none");

	REQUIRE(be != NULL, "backend 'none' is missing from the table");
	REQUIRE(aesecb_backend_available(be),
	        "backend 'none' must always be available (it is not)");
	return be;
}

/*
 * The backends this test can run, in table order.  'none' must be among
 * them; anything else that is missing was reported as skipped by main().
 */
#define MAX_BACKENDS 16

struct runlist {
	const aesecb_backend *be[MAX_BACKENDS];
	size_t n;
};

static void runnable(struct runlist *rl)
{
	size_t i, count = aesecb_backend_count();

	ck_assert_uint_le(count, MAX_BACKENDS);
	(void)none_backend();
	rl->n = 0;
	for (i = 0; i < count; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		ck_assert_ptr_nonnull(be);
		if (aesecb_backend_available(be))
			rl->be[rl->n++] = be;
	}
	REQUIRE(rl->n >= 1, "no backend ran");
}

static void init_ok(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                    const aesecb_backend *be)
{
	int rc = aesecb_init(ctx, key, key_len, be);

	REQUIRE(rc == AESECB_OK, "backend %s: aesecb_init(%zu-byte key) "
	        "returned %d (%s)", be != NULL ? aesecb_backend_name(be)
	        : "(default)", key_len, rc,
	        aesecb_strerror(rc));
	if (be != NULL)
		ck_assert_ptr_eq(aesecb_ctx_backend(ctx), be);
	else
		ck_assert_ptr_nonnull(aesecb_ctx_backend(ctx));
}

/* ------------------------------------------------------------------ */
/* 1. Known-answer vectors                                             */

static const char fips_pt[] = "00112233445566778899aabbccddeeff";
static const struct {
	const char *key, *ct;
} fips197[] = {
	{ "000102030405060708090a0b0c0d0e0f",
	  "69c4e0d86a7b0430d8cdb78070b4c55a" },
	{ "000102030405060708090a0b0c0d0e0f1011121314151617",
	  "dda97ca4864cdfe06eaf70a0ec0d7191" },
	{ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "8ea2b7ca516745bfeafc49904b496089" },
};

static const char sp_pt[] =
	"6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
	"30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710";
static const struct {
	const char *key, *ct;
} sp800_38a[] = {
	{ "2b7e151628aed2a6abf7158809cf4f3c",
	  "3ad77bb40d7a3660a89ecaf32466ef97 f5d3d58503b9699de785895a96fdbaaf"
	  "43b1cd7f598ece23881b00e3ed030688 7b0c785e27e8ad3f8223207104725dd4" },
	{ "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
	  "bd334f1d6e45f25ff712a214571fa5cc 974104846d0ad3ad7734ecb3ecee4eef"
	  "ef7afd2270e2e60adce0ba2face6444e 9a4b41ba738d6c72fb16691603c18e0e" },
	{ "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
	  "f3eed1bdb5d2a03c064b5a7e3db181f8 591ccb10d410ed26dc5ba74a31362870"
	  "b6ed21b99ca6f4f9f153e7b1beafed1d 23304b7a39f9f3ff067d8d8f9e24ecc7" },
};

/* RFC 9001 A.2, A.3 and RFC 9369 A.2, A.3 (header protection). */
static const struct {
	const char *hp_key, *sample, *mask, *block;
} quic_hp[] = {
	{ "9f50449e04a0e810283a1e9933adedd2", "d1b1c98dd7689fb8ec11d242b123dc9b",
	  "437b9aec36", "437b9aec36be423400cdd115d9db3241" },
	{ "c206b8d9b9f0f37644430b490eeaa314", "2cd0991cd25b0aac406a5816b6394100",
	  "2ec0d8356a", "2ec0d8356af53be647a841efa6c1ee97" },
	{ "45b95e15235d6f45a6b19cbcb0294ba9", "ffe67b6abcdb4298b485dd04de806071",
	  "94a0c95e80", "94a0c95e805ea4c0934b2f97a7cbc8fb" },
	{ "edf6d05c83121201b436e16877593c3a", "6f05d8a4398c47089698baeea26b91eb",
	  "4dd92e91ea", "4dd92e91ea87f179213f9c6ba83bb559" },
};

/* Check one vector (nblocks blocks) in both directions, out of place and
 * in place, and the blocks one at a time. */
static void check_kat(const aesecb_backend *be, const char *what,
                      const uint8_t *key, size_t key_len,
                      const uint8_t *pt, const uint8_t *ct, size_t len)
{
	aesecb_ctx ctx;
	uint8_t buf[4 * BS];
	size_t off;
	int decrypt;

	ck_assert_uint_le(len, sizeof buf);
	init_ok(&ctx, key, key_len, be);
	for (decrypt = 0; decrypt <= 1; decrypt++) {
		const uint8_t *src = decrypt ? ct : pt, *want = decrypt ? pt : ct;

		memset(buf, 0xee, sizeof buf);
		crypt_ok(&ctx, decrypt, src, buf, len);
		REQUIRE(memcmp(buf, want, len) == 0,
		        "backend %s: %s AES-%zu %s (%zu blocks) is wrong",
		        aesecb_backend_name(be), what, key_len * 8,
		        dir_name(decrypt), len / BS);
		memcpy(buf, src, len);
		crypt_ok(&ctx, decrypt, buf, buf, len);
		REQUIRE(memcmp(buf, want, len) == 0,
		        "backend %s: %s AES-%zu %s in place is wrong",
		        aesecb_backend_name(be), what, key_len * 8,
		        dir_name(decrypt));
		for (off = 0; off < len; off += BS) {
			crypt_ok(&ctx, decrypt, src + off, buf,
			                           BS);
			REQUIRE(memcmp(buf, want + off, BS) == 0,
			        "backend %s: %s AES-%zu %s, block %zu alone "
			        "is wrong", aesecb_backend_name(be), what,
			        key_len * 8, dir_name(decrypt), off / BS);
		}
	}
	aesecb_clear(&ctx);
}

START_TEST(test_vectors)
{
	struct runlist rl;
	size_t b, i;

	runnable(&rl);
	for (b = 0; b < rl.n; b++) {
		const aesecb_backend *be = rl.be[b];
		uint8_t key[32], pt[64], ct[64], mask[5], want[16];

		for (i = 0; i < 3; i++) {
			size_t kl = unhex(fips197[i].key, key, sizeof key);

			ck_assert_uint_eq(kl, key_sizes[i]);
			ck_assert_uint_eq(unhex(fips_pt, pt, sizeof pt), 16);
			ck_assert_uint_eq(unhex(fips197[i].ct, ct, sizeof ct), 16);
			check_kat(be, "FIPS-197 C", key, kl, pt, ct, 16);
		}
		for (i = 0; i < 3; i++) {
			size_t kl = unhex(sp800_38a[i].key, key, sizeof key);

			ck_assert_uint_eq(kl, key_sizes[i]);
			ck_assert_uint_eq(unhex(sp_pt, pt, sizeof pt), 64);
			ck_assert_uint_eq(unhex(sp800_38a[i].ct, ct, sizeof ct), 64);
			check_kat(be, "SP 800-38A F.1", key, kl, pt, ct, 64);
		}
		for (i = 0; i < sizeof quic_hp / sizeof quic_hp[0]; i++) {
			aesecb_ctx ctx;
			uint8_t sample[16], block[16], masks[4 * 5];
			uint8_t samples[4 * 16];
			size_t j;

			ck_assert_uint_eq(unhex(quic_hp[i].hp_key, key, sizeof key), 16);
			ck_assert_uint_eq(unhex(quic_hp[i].sample, sample,
			                        sizeof sample), 16);
			ck_assert_uint_eq(unhex(quic_hp[i].mask, want, sizeof want), 5);
			init_ok(&ctx, key, 16, be);
			memset(mask, 0, sizeof mask);
			aesecb_hp_mask(&ctx, sample, mask);
			REQUIRE(memcmp(mask, want, 5) == 0,
			        "backend %s: QUIC hp vector %zu: wrong mask",
			        aesecb_backend_name(be), i + 1);
			for (j = 0; j < 4; j++)
				memcpy(samples + 16 * j, sample, 16);
			ck_assert_int_eq(aesecb_hp_masks(&ctx, samples, masks, 4),
			                 AESECB_OK);
			for (j = 0; j < 4; j++)
				REQUIRE(memcmp(masks + 5 * j, want, 5) == 0,
				        "backend %s: QUIC hp vector %zu: "
				        "aesecb_hp_masks gives a wrong mask",
				        aesecb_backend_name(be), i + 1);
			ck_assert_uint_eq(unhex(quic_hp[i].block, want,
			                        sizeof want), 16);
			crypt_ok(&ctx, 0, sample, block, 16);
			REQUIRE(memcmp(block, want, 16) == 0,
			        "backend %s: QUIC hp vector %zu: wrong block",
			        aesecb_backend_name(be), i + 1);
			crypt_ok(&ctx, 1, want, block, 16);
			REQUIRE(memcmp(block, sample, 16) == 0,
			        "backend %s: QUIC hp vector %zu: decrypting "
			        "the block does not give the sample",
			        aesecb_backend_name(be), i + 1);
			aesecb_clear(&ctx);
		}
	}
}
END_TEST

/*
 * Byte order: a key, a block or a QUIC sample with one byte set, in each
 * position in turn, must give what 'none' gives, one block alone and in a
 * run of 15 (the bulk paths).  A backend whose loads, stores, key
 * schedule or mask store put bytes in the wrong place (a vector register's
 * element order is not the memory order on every target) fails here with
 * the position named.
 */
static void check_same(const aesecb_ctx *ctx, const aesecb_ctx *ref,
                       const uint8_t *in, size_t nblocks, const char *what,
                       size_t pos)
{
	uint8_t out[15 * BS], want[15 * BS], m[15 * 5], mref[15 * 5];
	int decrypt;

	for (decrypt = 0; decrypt <= 1; decrypt++) {
		crypt_ok(ref, decrypt, in, want, nblocks * BS);
		memset(out, 0, sizeof out);
		crypt_ok(ctx, decrypt, in, out, nblocks * BS);
		REQUIRE(memcmp(out, want, nblocks * BS) == 0,
		        "backend %s: AES-%u %s of %zu block(s) with %s byte %zu "
		        "set differs from none",
		        aesecb_backend_name(aesecb_ctx_backend(ctx)),
		        (unsigned)ctx->priv_key_len * 8, dir_name(decrypt),
		        nblocks, what, pos);
	}
	ck_assert_int_eq(aesecb_hp_masks(ref, in, mref, nblocks), AESECB_OK);
	memset(m, 0, sizeof m);
	ck_assert_int_eq(aesecb_hp_masks(ctx, in, m, nblocks), AESECB_OK);
	REQUIRE(memcmp(m, mref, nblocks * 5) == 0,
	        "backend %s: AES-%u masks of %zu sample(s) with %s byte %zu "
	        "set differ from none",
	        aesecb_backend_name(aesecb_ctx_backend(ctx)),
	        (unsigned)ctx->priv_key_len * 8, nblocks, what, pos);
}

START_TEST(test_byte_order)
{
	const aesecb_backend *none;
	struct runlist rl;
	size_t b, k, pos, i;

	runnable(&rl);
	none = none_backend();
	for (b = 0; b < rl.n; b++) {
		if (rl.be[b] == none)
			continue;
		for (k = 0; k < 3; k++) {
			size_t kl = key_sizes[k];
			uint8_t key[32], in[15 * BS];
			aesecb_ctx ctx, ref;

			/* one key byte set; blocks with distinct bytes */
			for (i = 0; i < sizeof in; i++)
				in[i] = (uint8_t)(i * 17u + 1u);
			for (pos = 0; pos < kl; pos++) {
				memset(key, 0, sizeof key);
				key[pos] = (uint8_t)(0x80u >> (pos % 8));
				init_ok(&ref, key, kl, none);
				init_ok(&ctx, key, kl, rl.be[b]);
				check_same(&ctx, &ref, in, 1, "key", pos);
				check_same(&ctx, &ref, in, 15, "key", pos);
				aesecb_clear(&ctx);
				aesecb_clear(&ref);
			}
			/* one input byte set, in every block of the run */
			for (i = 0; i < kl; i++)
				key[i] = (uint8_t)(0xa5u ^ (i * 29u));
			init_ok(&ref, key, kl, none);
			init_ok(&ctx, key, kl, rl.be[b]);
			for (pos = 0; pos < BS; pos++) {
				memset(in, 0, sizeof in);
				for (i = 0; i < 15; i++)
					in[i * BS + pos] = (uint8_t)(1u << (i % 8));
				check_same(&ctx, &ref, in, 1, "input", pos);
				check_same(&ctx, &ref, in, 15, "input", pos);
			}
			aesecb_clear(&ctx);
			aesecb_clear(&ref);
		}
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* 2. Keys, arguments and backend selection                            */

START_TEST(test_key_lengths)
{
	struct runlist rl;
	size_t b, kl;
	uint8_t key[40];

	runnable(&rl);
	for (kl = 0; kl < sizeof key; kl++)
		key[kl] = (uint8_t)(kl * 37 + 11);
	for (b = 0; b < rl.n; b++) {
		const aesecb_backend *be = rl.be[b];

		for (kl = 0; kl <= sizeof key; kl++) {
			aesecb_ctx ctx;
			int want = (kl == 16 || kl == 24 || kl == 32)
			           ? AESECB_OK : AESECB_EKEYLEN;
			int rc = aesecb_init(&ctx, key, kl, be);

			REQUIRE(rc == want, "backend %s: %zu-byte key: "
			        "aesecb_init returned %d, expected %d",
			        aesecb_backend_name(be), kl, rc, want);
			if (rc == AESECB_OK) {
				ck_assert_ptr_eq(aesecb_ctx_backend(&ctx), be);
				aesecb_clear(&ctx);
			}
		}
	}
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct runlist rl;
	size_t b, i;
	uint8_t key[32] = { 1, 2, 3 }, in[32] = { 0 }, out[32];
	aesecb_ctx ctx;
	/* Something that is not a backend descriptor from the table. */
	static const uint64_t fake_storage[16];
	const aesecb_backend *fake = (const aesecb_backend *)(const void *)
	                             fake_storage;

	runnable(&rl);
	for (b = 0; b < rl.n; b++) {
		const aesecb_backend *be = rl.be[b];

		ck_assert_int_eq(aesecb_init(NULL, key, 16, be), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_init(&ctx, NULL, 16, be), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_init(&ctx, NULL, 32, be), AESECB_EINVAL);

		init_ok(&ctx, key, 16, be);
		ck_assert_int_eq(aesecb_encrypt(NULL, in, out, 16), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_decrypt(NULL, in, out, 16), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_encrypt(&ctx, NULL, out, 16), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_encrypt(&ctx, in, NULL, 16), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_decrypt(&ctx, NULL, out, 16), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_decrypt(&ctx, in, NULL, 16), AESECB_EINVAL);
		/* nothing to do: no data is required */
		ck_assert_int_eq(aesecb_encrypt(&ctx, NULL, NULL, 0), AESECB_OK);
		ck_assert_int_eq(aesecb_decrypt(&ctx, NULL, NULL, 0), AESECB_OK);
		ck_assert_int_eq(aesecb_hp_masks(NULL, in, out, 1), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_masks(&ctx, NULL, out, 1), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_masks(&ctx, in, NULL, 1), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_masks(&ctx, NULL, NULL, 0), AESECB_OK);
		/* bad arguments: a status, and the mask left alone */
		memset(out, 0x5a, sizeof out);
		ck_assert_int_eq(aesecb_hp_mask(NULL, in, out), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_mask(&ctx, NULL, out), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_mask(&ctx, in, NULL), AESECB_EINVAL);
		for (i = 0; i < sizeof out; i++)
			ck_assert_uint_eq(out[i], 0x5a);
		ck_assert_int_eq(aesecb_hp_protect(NULL, out, 32, 4), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_unprotect(NULL, out, 32, 4), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_protect(&ctx, NULL, 32, 4), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_unprotect(&ctx, NULL, 32, 4), AESECB_EINVAL);
		/* the packet number cannot start at the first byte */
		ck_assert_int_eq(aesecb_hp_protect(&ctx, out, 32, 0), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_unprotect(&ctx, out, 32, 0), AESECB_EINVAL);
		for (i = 0; i < sizeof out; i++)
			ck_assert_uint_eq(out[i], 0x5a);

		/* A cleared context is no longer usable. */
		aesecb_clear(&ctx);
		ck_assert_ptr_null(aesecb_ctx_backend(&ctx));
		ck_assert_int_eq(aesecb_encrypt(&ctx, in, out, 16), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_decrypt(&ctx, in, out, 16), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_masks(&ctx, in, out, 1), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_mask(&ctx, in, out), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_protect(&ctx, out, 32, 4), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_hp_unprotect(&ctx, out, 32, 4), AESECB_EINVAL);
		for (i = 0; i < sizeof out; i++)
			ck_assert_uint_eq(out[i], 0x5a);
	}
	ck_assert_ptr_null(aesecb_ctx_backend(NULL));

	/* Unknown backend pointers. */
	ck_assert_int_eq(aesecb_init(&ctx, key, 16, fake), AESECB_EUNKNOWN);
	ck_assert_ptr_null(aesecb_backend_name(fake));
	ck_assert_ptr_null(aesecb_backend_arch(fake));
	ck_assert_ptr_null(aesecb_backend_requires(fake));
	ck_assert_int_eq(aesecb_backend_compiled(fake), 0);
	ck_assert_int_eq(aesecb_backend_available(fake), 0);
	ck_assert_uint_eq(aesecb_backend_scratch_written(fake, 0), 0);
	ck_assert_uint_eq(aesecb_backend_scratch_written(fake, 1), 0);
	ck_assert_ptr_nonnull(aesecb_backend_unavailable_reason(fake));
	ck_assert_ptr_null(aesecb_backend_name(NULL));
	ck_assert_int_eq(aesecb_backend_available(NULL), 0);
	ck_assert_ptr_nonnull(aesecb_backend_unavailable_reason(NULL));

	/* Backends in the table that cannot run here are refused. */
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (aesecb_backend_available(be))
			continue;
		REQUIRE(aesecb_init(&ctx, key, 16, be) == AESECB_EUNAVAILABLE,
		        "backend %s is unavailable but aesecb_init did not "
		        "say AESECB_EUNAVAILABLE", aesecb_backend_name(be));
	}
}
END_TEST

/* Set or unset $AESECB_BACKEND (Windows: _putenv_s, where an empty
 * value unsets the variable). */
static void set_env_backend(const char *v)
{
#ifdef _WIN32
	ck_assert_int_eq(_putenv_s("AESECB_BACKEND", v != NULL ? v : ""), 0);
#else
	if (v == NULL)
		ck_assert_int_eq(unsetenv("AESECB_BACKEND"), 0);
	else
		ck_assert_int_eq(setenv("AESECB_BACKEND", v, 1), 0);
#endif
}

START_TEST(test_default_backend)
{
	struct runlist rl;
	const char *orig = getenv("AESECB_BACKEND");
	char *saved = orig != NULL ? strdup(orig) : NULL;
	const aesecb_backend *def;
	uint8_t key[16] = { 9 };
	aesecb_ctx ctx;
	size_t b, i;

	ck_assert(orig == NULL || saved != NULL);
	runnable(&rl);

	/* Unset (and empty): the best available backend. */
	set_env_backend(NULL);
	def = aesecb_backend_default();
	ck_assert_ptr_nonnull(def);
	ck_assert(aesecb_backend_available(def));
	if (rl.n > 1)
		REQUIRE(def != none_backend(),
		        "a hardware backend is available but the default "
		        "is 'none'");
	init_ok(&ctx, key, sizeof key, NULL);
	ck_assert_ptr_eq(aesecb_ctx_backend(&ctx), def);
	set_env_backend("");
	ck_assert_ptr_eq(aesecb_backend_default(), def);

	/* Each runnable backend by name. */
	for (b = 0; b < rl.n; b++) {
		const char *name = aesecb_backend_name(rl.be[b]);

		set_env_backend(name);
		REQUIRE(aesecb_backend_default() == rl.be[b],
		        "AESECB_BACKEND=%s does not select it", name);
		init_ok(&ctx, key, sizeof key, NULL);
		ck_assert_ptr_eq(aesecb_ctx_backend(&ctx), rl.be[b]);
		/* an explicit backend wins over the environment */
		init_ok(&ctx, key, sizeof key, none_backend());
	}

	/* A name that does not exist. */
	set_env_backend("bogus");
	ck_assert_ptr_null(aesecb_backend_default());
	ck_assert_int_eq(aesecb_init(&ctx, key, sizeof key, NULL),
	                 AESECB_EUNKNOWN);
	init_ok(&ctx, key, sizeof key, none_backend());

	/* Known names that cannot run here. */
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (aesecb_backend_available(be))
			continue;
		set_env_backend(aesecb_backend_name(be));
		ck_assert_ptr_null(aesecb_backend_default());
		REQUIRE(aesecb_init(&ctx, key, sizeof key, NULL) ==
		        AESECB_EUNAVAILABLE, "AESECB_BACKEND=%s (unavailable)"
		        " did not give AESECB_EUNAVAILABLE",
		        aesecb_backend_name(be));
	}

	set_env_backend(saved);
	free(saved);
	aesecb_clear(&ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* 3. Lengths, sentinels, alignment, in place, partial blocks          */

static const size_t len_blocks[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	31, 32, 33, 64, 100, 257
};
#define N_LEN_BLOCKS (sizeof len_blocks / sizeof len_blocks[0])
#define MAX_TEST_BLOCKS 257
/* room for the data, up to 15 bytes of misalignment, and the guard */
#define GUARD (4 * BS)   /* checked after the output: a sentinel block and more */
#define BUF_BYTES (MAX_TEST_BLOCKS * BS + 16 + GUARD)

struct bufs {
	_Alignas(64) uint8_t in[BUF_BYTES];
	_Alignas(64) uint8_t out[BUF_BYTES];
	_Alignas(64) uint8_t want[BUF_BYTES];
	uint8_t pat_in[BUF_BYTES], pat_out[BUF_BYTES];
	int ready;
};

static struct bufs bufs;

/* The expected output, made one block per call with the same context. */
static void expect_blockwise(const aesecb_ctx *ctx, int decrypt,
                             const uint8_t *in, uint8_t *want, size_t nb)
{
	size_t i;

	for (i = 0; i < nb; i++)
		crypt_ok(ctx, decrypt, in + i * BS,
		                           want + i * BS, BS);
}

/*
 * One call: nb blocks from in+ioff to out+ooff (or in place at out+ooff),
 * checking the result, the bytes before the output and the guard after it
 * (the sentinel block and more), and that the input was left alone.
 */
static void one_call(const aesecb_ctx *ctx, int decrypt, size_t key_len,
                     size_t nb, size_t ioff, size_t ooff, int in_place,
                     const uint8_t *data)
{
	const char *name = aesecb_backend_name(aesecb_ctx_backend(ctx));
	uint8_t *dst = bufs.out + ooff;
	const uint8_t *src;
	size_t len = nb * BS, end = ooff + len;

	if (!bufs.ready) {
		fill_pattern(bufs.pat_in, BUF_BYTES, 0x71);
		fill_pattern(bufs.pat_out, BUF_BYTES, 0x3c);
		bufs.ready = 1;
	}
	memcpy(bufs.out, bufs.pat_out, end + GUARD);
	if (in_place) {
		memcpy(dst, data, len);
		src = dst;
	} else {
		memcpy(bufs.in, bufs.pat_in, ioff + len + GUARD);
		memcpy(bufs.in + ioff, data, len);
		src = bufs.in + ioff;
	}
	crypt_ok(ctx, decrypt, src, dst, len);
	REQUIRE(memcmp(dst, bufs.want, len) == 0,
	        "backend %s: AES-%zu %s of %zu blocks (in +%zu, out +%zu%s) "
	        "is wrong", name, key_len * 8, dir_name(decrypt), nb, ioff,
	        ooff, in_place ? ", in place" : "");
	REQUIRE(memcmp(bufs.out, bufs.pat_out, ooff) == 0,
	        "backend %s: AES-%zu %s of %zu blocks (out +%zu) wrote "
	        "before out", name, key_len * 8, dir_name(decrypt), nb,
	        ooff);
	REQUIRE(memcmp(bufs.out + end, bufs.pat_out + end, GUARD) == 0,
	        "backend %s: AES-%zu %s of %zu blocks (out +%zu%s) wrote "
	        "past the end of out (the sentinel block changed)", name,
	        key_len * 8, dir_name(decrypt), nb, ooff,
	        in_place ? ", in place" : "");
	if (!in_place)
		REQUIRE(memcmp(bufs.in, bufs.pat_in, ioff) == 0 &&
		        memcmp(bufs.in + ioff, data, len) == 0 &&
		        memcmp(bufs.in + ioff + len,
		               bufs.pat_in + ioff + len, GUARD) == 0,
		        "backend %s: %s of %zu blocks changed its input",
		        name, dir_name(decrypt), nb);
}

START_TEST(test_lengths)
{
	static uint8_t data[MAX_TEST_BLOCKS * BS];
	struct runlist rl;
	struct prng r;
	size_t b, k, l;
	int decrypt;

	runnable(&rl);
	prng_init(&r, 3);
	for (b = 0; b < rl.n; b++) {
		for (k = 0; k < 3; k++) {
			aesecb_ctx ctx;
			uint8_t key[32];

			prng_fill(&r, key, sizeof key);
			init_ok(&ctx, key, key_sizes[k], rl.be[b]);
			for (decrypt = 0; decrypt <= 1; decrypt++) {
				for (l = 0; l < N_LEN_BLOCKS; l++) {
					size_t nb = len_blocks[l], off;

					prng_fill(&r, data, nb * BS);
					expect_blockwise(&ctx, decrypt, data,
					                 bufs.want, nb);
					one_call(&ctx, decrypt, key_sizes[k], nb,
					         0, 0, 0, data);
					one_call(&ctx, decrypt, key_sizes[k], nb,
					         0, 0, 1, data);
					/* misaligned input and output, each
					 * on its own and together: every
					 * offset for AES-128 up to 33 blocks,
					 * a few otherwise */
					for (off = 1; off < 16; off++) {
						if ((k != 0 || nb > 33) &&
						    off != 1 && off != 8 &&
						    off != 15)
							continue;
						one_call(&ctx, decrypt,
						         key_sizes[k], nb, off,
						         0, 0, data);
						one_call(&ctx, decrypt,
						         key_sizes[k], nb, 0,
						         off, 0, data);
						one_call(&ctx, decrypt,
						         key_sizes[k], nb, off,
						         16 - off, 0, data);
						one_call(&ctx, decrypt,
						         key_sizes[k], nb, off,
						         off, 0, data);
						one_call(&ctx, decrypt,
						         key_sizes[k], nb, 0,
						         off, 1, data);
					}
				}
			}
			aesecb_clear(&ctx);
		}
	}
}
END_TEST

START_TEST(test_misaligned_all_pairs)
{
	static uint8_t data[17 * BS];
	static const size_t nbs[] = { 1, 2, 3, 8, 17 };
	struct runlist rl;
	struct prng r;
	size_t b, i, io, oo;
	int decrypt;

	runnable(&rl);
	prng_init(&r, 4);
	for (b = 0; b < rl.n; b++) {
		aesecb_ctx ctx;
		uint8_t key[16];

		prng_fill(&r, key, sizeof key);
		init_ok(&ctx, key, sizeof key, rl.be[b]);
		for (decrypt = 0; decrypt <= 1; decrypt++) {
			for (i = 0; i < sizeof nbs / sizeof nbs[0]; i++) {
				prng_fill(&r, data, nbs[i] * BS);
				expect_blockwise(&ctx, decrypt, data, bufs.want,
				                 nbs[i]);
				for (io = 0; io < 16; io++)
					for (oo = 0; oo < 16; oo++)
						one_call(&ctx, decrypt, 16, nbs[i],
						         io, oo, 0, data);
			}
		}
		aesecb_clear(&ctx);
	}
}
END_TEST

START_TEST(test_zero_and_partial)
{
	static const size_t bad_len[] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 31,
		33, 47, 63, 65, 255, 257, 1023, 4097
	};
	static uint8_t in[4160], out[4160], pin[4160], pout[4160];
	struct runlist rl;
	size_t b, i, k;
	int decrypt;

	runnable(&rl);
	fill_pattern(pin, sizeof pin, 1);
	fill_pattern(pout, sizeof pout, 2);
	memcpy(in, pin, sizeof in);
	memcpy(out, pout, sizeof out);
	for (b = 0; b < rl.n; b++) {
		const char *name = aesecb_backend_name(rl.be[b]);

		for (k = 0; k < 3; k++) {
			aesecb_ctx ctx;
			uint8_t key[32];

			fill_pattern(key, sizeof key, (unsigned)k);
			init_ok(&ctx, key, key_sizes[k], rl.be[b]);
			for (decrypt = 0; decrypt <= 1; decrypt++) {
				/* len 0: success, nothing touched */
				crypt_ok(&ctx, decrypt, in, out,
				                           0);
				crypt_ok(&ctx, decrypt, in, in,
				                           0);
				REQUIRE(memcmp(out, pout, sizeof out) == 0 &&
				        memcmp(in, pin, sizeof in) == 0,
				        "backend %s: %s of 0 bytes touched "
				        "memory", name, dir_name(decrypt));
				/* partial: refused, out untouched */
				for (i = 0; i < sizeof bad_len / sizeof bad_len[0];
				     i++) {
					size_t len = bad_len[i];
					int rc;

					ck_assert_uint_le(len, sizeof in);
					rc = crypt_dir(&ctx, decrypt, in, out, len);
					REQUIRE(rc == AESECB_EPARTIAL,
					        "backend %s: %s of %zu bytes "
					        "returned %d, not AESECB_EPARTIAL",
					        name, dir_name(decrypt), len, rc);
					REQUIRE(memcmp(out, pout, sizeof out) == 0,
					        "backend %s: "
					        "%s of %zu bytes (refused) wrote "
					        "to out", name, dir_name(decrypt),
					        len);
					rc = crypt_dir(&ctx, decrypt, in, in, len);
					ck_assert_int_eq(rc, AESECB_EPARTIAL);
					REQUIRE(memcmp(in, pin, sizeof in) == 0,
					        "backend %s: "
					        "in-place %s of %zu bytes "
					        "(refused) changed the buffer",
					        name, dir_name(decrypt), len);
				}
			}
			aesecb_clear(&ctx);
		}
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* 4. Round trips and agreement with the portable backend              */

START_TEST(test_roundtrip)
{
	static uint8_t pt[300 * BS], ct[300 * BS], back[300 * BS];
	struct runlist rl;
	struct prng r;
	size_t b, k, t;

	runnable(&rl);
	prng_init(&r, 5);
	for (b = 0; b < rl.n; b++) {
		for (k = 0; k < 3; k++) {
			for (t = 0; t < 8; t++) {
				aesecb_ctx ctx;
				uint8_t key[32];
				size_t nb = t == 0 ? 300 : 1 + prng_next(&r) % 70;

				prng_fill(&r, key, sizeof key);
				prng_fill(&r, pt, nb * BS);
				init_ok(&ctx, key, key_sizes[k], rl.be[b]);
				crypt_ok(&ctx, 0, pt, ct, nb * BS);
				REQUIRE(memcmp(ct, pt, nb * BS) != 0,
				        "backend %s: encryption is the "
				        "identity", aesecb_backend_name(rl.be[b]));
				crypt_ok(&ctx, 1, ct, back, nb * BS);
				REQUIRE(memcmp(back, pt, nb * BS) == 0,
				        "backend %s: AES-%zu decrypt(encrypt(x))"
				        " != x for %zu blocks (seed %016llx)",
				        aesecb_backend_name(rl.be[b]),
				        key_sizes[k] * 8, nb,
				        (unsigned long long)test_seed);
				/* and the other way round */
				crypt_ok(&ctx, 1, pt, ct, nb * BS);
				crypt_ok(&ctx, 0, ct, back, nb * BS);
				REQUIRE(memcmp(back, pt, nb * BS) == 0,
				        "backend %s: AES-%zu encrypt(decrypt(x))"
				        " != x for %zu blocks",
				        aesecb_backend_name(rl.be[b]),
				        key_sizes[k] * 8, nb);
				aesecb_clear(&ctx);
			}
		}
	}
}
END_TEST

START_TEST(test_differential)
{
	static uint8_t in[40 * BS], ref[40 * BS], out[40 * BS];
	const aesecb_backend *none;
	struct runlist rl;
	struct prng r;
	size_t b, k, t, nb;
	int decrypt;

	runnable(&rl);
	none = none_backend();
	prng_init(&r, 6);
	for (k = 0; k < 3; k++) {
		for (t = 0; t < 3; t++) {
			aesecb_ctx cref;
			uint8_t key[32];

			prng_fill(&r, key, sizeof key);
			init_ok(&cref, key, key_sizes[k], none);
			for (b = 0; b < rl.n; b++) {
				aesecb_ctx ctx;

				if (rl.be[b] == none)
					continue;
				init_ok(&ctx, key, key_sizes[k], rl.be[b]);
				for (decrypt = 0; decrypt <= 1; decrypt++) {
					for (nb = 0; nb <= 40; nb++) {
						size_t i;

						prng_fill(&r, in, nb * BS);
						crypt_ok(&cref,
						    decrypt, in, ref, nb * BS);
						memset(out, 0, sizeof out);
						crypt_ok(&ctx,
						    decrypt, in, out, nb * BS);
						for (i = 0; i < nb; i++)
							REQUIRE(memcmp(out + i * BS,
							    ref + i * BS, BS) == 0,
							    "backend %s differs from none:"
							    " AES-%zu %s of %zu blocks, "
							    "block %zu (key %zu, seed "
							    "%016llx)",
							    aesecb_backend_name(rl.be[b]),
							    key_sizes[k] * 8,
							    dir_name(decrypt), nb, i, t,
							    (unsigned long long)test_seed);
					}
				}
				aesecb_clear(&ctx);
			}
			aesecb_clear(&cref);
		}
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* 5. QUIC header-protection masks                                     */

START_TEST(test_hp_masks)
{
	static const size_t ns[] = {
		41, 63, 64, 65, 100, 127, 128, 129, 200
	};
	static uint8_t samples[200 * BS + 16], masks[200 * 5 + 64];
	static uint8_t single[200 * 5];
	struct runlist rl;
	struct prng r;
	size_t b, k, i, n;

	runnable(&rl);
	prng_init(&r, 7);
	for (b = 0; b < rl.n; b++) {
		const char *name = aesecb_backend_name(rl.be[b]);

		for (k = 0; k < 3; k++) {
			aesecb_ctx ctx;
			uint8_t key[32], mask_buf[5 + 2 * 16], block[16];

			prng_fill(&r, key, sizeof key);
			init_ok(&ctx, key, key_sizes[k], rl.be[b]);
			/* one mask: exactly 5 bytes written */
			for (i = 0; i < 8; i++) {
				uint8_t *sample = samples + i; /* misaligned too */

				prng_fill(&r, sample, 16);
				fill_pattern(mask_buf, sizeof mask_buf, 0xa7);
				ck_assert_int_eq(aesecb_hp_mask(&ctx, sample,
				                                mask_buf + 16),
				                 AESECB_OK);
				crypt_ok(&ctx, 0, sample, block,
				                                16);
				REQUIRE(memcmp(mask_buf + 16, block, 5) == 0,
				        "backend %s: AES-%zu hp mask is not the"
				        " first 5 bytes of the block", name,
				        key_sizes[k] * 8);
				REQUIRE(check_pattern(mask_buf, 16, 0xa7) == 16
				        && check_pattern_from(mask_buf, 21,
				           sizeof mask_buf, 0xa7) ==
				           sizeof mask_buf,
				        "backend %s: hp mask wrote outside "
				        "its 5 bytes", name);
			}
			/* many masks == as many single masks */
			for (n = 0; n <= 40 + sizeof ns / sizeof ns[0]; n++) {
				size_t cnt = n <= 40 ? n : ns[n - 41];
				size_t off = n % 16, bad;

				prng_fill(&r, samples + off, cnt * BS);
				for (i = 0; i < cnt; i++)
					ck_assert_int_eq(aesecb_hp_mask(&ctx,
					        samples + off + i * BS,
					        single + i * 5), AESECB_OK);
				fill_pattern(masks, sizeof masks, 0x19);
				ck_assert_int_eq(aesecb_hp_masks(&ctx, samples + off,
				                                 masks, cnt),
				                 AESECB_OK);
				REQUIRE(memcmp(masks, single, cnt * 5) == 0,
				        "backend %s: AES-%zu aesecb_hp_masks(%zu)"
				        " differs from single masks", name,
				        key_sizes[k] * 8, cnt);
				bad = check_pattern_from(masks, cnt * 5,
				                         sizeof masks, 0x19);
				REQUIRE(bad == sizeof masks, "backend %s: "
				        "aesecb_hp_masks(%zu) wrote past "
				        "masks + 5n", name, cnt);
			}
			aesecb_clear(&ctx);
		}
	}
}
END_TEST

/*
 * Whole packets: the Initial packets of RFC 9001 A.2 (client) and A.3
 * (server), protected and unprotected in place; then random packets of
 * both header forms and every packet-number length against a reference
 * built from the mask, and packets too short for the sample.
 */
static const struct {
	const char *hp_key, *plain, *prot, *sample;
	size_t pn_offset;
	int pn_len;
} rfc_packets[] = {
	{ "9f50449e04a0e810283a1e9933adedd2",
	  "c300000001088394c8f03e5157080000449e00000002",
	  "c000000001088394c8f03e5157080000449e7b9aec34",
	  "d1b1c98dd7689fb8ec11d242b123dc9b", 18, 4 },
	{ "c206b8d9b9f0f37644430b490eeaa314",
	  "c1000000010008f067a5502a4262b50040750001",
	  "cf000000010008f067a5502a4262b5004075c0d9",
	  "2cd0991cd25b0aac406a5816b6394100", 18, 2 },
};

static void hp_reference(const aesecb_ctx *ref, const uint8_t *plain,
                         uint8_t *prot, size_t len, size_t pn_offset)
{
	uint8_t block[16];
	size_t pn_len = (size_t)(plain[0] & 3) + 1, i;

	memcpy(prot, plain, len);
	crypt_ok(ref, 0, plain + pn_offset + 4, block, 16);
	prot[0] ^= block[0] & ((plain[0] & 0x80) ? 0x0f : 0x1f);
	for (i = 0; i < pn_len; i++)
		prot[pn_offset + i] ^= block[1 + i];
}

START_TEST(test_hp_packets)
{
	struct runlist rl;
	struct prng r;
	size_t b, i;

	runnable(&rl);
	prng_init(&r, 11);
	for (b = 0; b < rl.n; b++) {
		const char *name = aesecb_backend_name(rl.be[b]);
		aesecb_ctx ctx, ref;
		uint8_t key[32], plain[96], prot[96], pkt[96], want[96];

		for (i = 0; i < sizeof rfc_packets / sizeof rfc_packets[0]; i++) {
			/* header, payload bytes up to the sample (at
			 * pn_offset + 4), the sample, 3 more bytes */
			size_t so = rfc_packets[i].pn_offset + 4, len = so + 19;
			size_t hl = unhex(rfc_packets[i].plain, plain, sizeof plain);

			ck_assert_uint_eq(unhex(rfc_packets[i].hp_key, key, sizeof key), 16);
			ck_assert_uint_eq(unhex(rfc_packets[i].prot, prot, sizeof prot), hl);
			memset(plain + hl, 0xee, len - hl);
			ck_assert_uint_eq(unhex(rfc_packets[i].sample, plain + so, 16), 16);
			memcpy(prot + hl, plain + hl, len - hl);
			init_ok(&ctx, key, 16, rl.be[b]);
			memcpy(pkt, prot, len);
			REQUIRE(aesecb_hp_unprotect(&ctx, pkt, len,
			        rfc_packets[i].pn_offset) == rfc_packets[i].pn_len &&
			        memcmp(pkt, plain, len) == 0,
			        "backend %s: RFC 9001 packet %zu not unprotected",
			        name, i);
			REQUIRE(aesecb_hp_protect(&ctx, pkt, len,
			        rfc_packets[i].pn_offset) == AESECB_OK &&
			        memcmp(pkt, prot, len) == 0,
			        "backend %s: RFC 9001 packet %zu not protected",
			        name, i);
			aesecb_clear(&ctx);
		}

		init_ok(&ref, key, 16, none_backend());
		init_ok(&ctx, key, 16, rl.be[b]);
		for (i = 0; i < 2048; i++) {
			size_t pn_offset = 1 + i % 40, len, pl;
			int st;

			len = pn_offset + 20 + (i / 40) % 7;
			prng_fill(&r, plain, len);
			plain[0] = (uint8_t)i;  /* both forms, all pn lengths */
			pl = (size_t)(plain[0] & 3) + 1;
			hp_reference(&ref, plain, want, len, pn_offset);
			memcpy(pkt, plain, len);
			memset(pkt + len, 0x77, sizeof pkt - len);
			st = aesecb_hp_protect(&ctx, pkt, len, pn_offset);
			REQUIRE(st == AESECB_OK && memcmp(pkt, want, len) == 0,
			        "backend %s: protect(first byte %02x, pn_offset "
			        "%zu) wrong", name, plain[0], pn_offset);
			st = aesecb_hp_unprotect(&ctx, pkt, len, pn_offset);
			REQUIRE(st == (int)pl && memcmp(pkt, plain, len) == 0,
			        "backend %s: unprotect(first byte %02x, pn_offset "
			        "%zu) gave %d", name, plain[0], pn_offset, st);
			for (st = 0; (size_t)st < sizeof pkt - len; st++)
				REQUIRE(pkt[len + (size_t)st] == 0x77,
				        "backend %s: wrote past the packet", name);
			/* one byte short of the sample: untouched */
			memcpy(pkt, plain, len);
			ck_assert_int_eq(aesecb_hp_protect(&ctx, pkt,
			        pn_offset + 19, pn_offset), AESECB_ESHORT);
			ck_assert_int_eq(aesecb_hp_unprotect(&ctx, pkt,
			        pn_offset + 19, pn_offset), AESECB_ESHORT);
			ck_assert_int_eq(aesecb_hp_unprotect(&ctx, pkt,
			        (size_t)i % 20, pn_offset), AESECB_ESHORT);
			REQUIRE(memcmp(pkt, plain, len) == 0,
			        "backend %s: a short packet was changed", name);
		}
		ck_assert_int_eq(aesecb_hp_unprotect(&ctx, pkt, sizeof pkt,
		                 (size_t)-1), AESECB_ESHORT);
		aesecb_clear(&ctx);
		aesecb_clear(&ref);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* 6. Burned calls and register-only paths (lib/aesecb.c)              */

static const size_t record_nbs[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 32, 64, 100
};

/* Whether the library runs this backend's block and mask functions as
 * burned calls in this build (what it declares register-only, where the
 * build optimises, it calls directly). */
static int blocks_burned(const aesecb_backend *be)
{
	return (be->regs & AESECB_REGS(AESECB_REGS_BLOCKS)) == 0;
}

/*
 * Every backend's block and mask functions, called directly with a stack
 * record and without one (NULL, as on a direct path), give what the entry
 * points give; a function the library runs burned must record its frame,
 * or the burn would not reach it.  So must key setup, always burned, which
 * must give the context aesecb_init gives.  The record starts at the top
 * of the address space, not at a local of this frame: under
 * AddressSanitizer the test's locals may live on its "fake stack" on the
 * heap, which the library's record (of the real stack) is not ordered with.
 */
START_TEST(test_stack_record)
{
	static uint8_t in[100 * BS], out[100 * BS], want[100 * BS];
	struct runlist rl;
	struct prng r;
	size_t b, k, i;
	int fn;

	runnable(&rl);
	prng_init(&r, 8);
	for (b = 0; b < rl.n; b++) {
		const aesecb_backend *be = rl.be[b];
		const char *name = aesecb_backend_name(be);
		int burned = blocks_burned(be);

		ck_assert_ptr_nonnull(be->impl);
		for (k = 0; k < 3; k++) {
			aesecb_ctx ctx, set;
			uint8_t key[32];
			aesecb_stack rec;

			prng_fill(&r, key, sizeof key);
			init_ok(&ctx, key, key_sizes[k], be);

			memset(&set, 0, sizeof set);
			set.priv_backend = be;
			set.priv_rounds = ctx.priv_rounds;
			set.priv_key_len = ctx.priv_key_len;
			rec.low = UINTPTR_MAX;
			be->impl->setkey(&set, key, key_sizes[k], &rec);
			REQUIRE(rec.low != UINTPTR_MAX,
			        "backend %s: key setup records no stack frame",
			        name);
			REQUIRE(memcmp(&set.priv_keys, &ctx.priv_keys,
			               sizeof set.priv_keys) == 0,
			        "backend %s: key setup called directly gives "
			        "another schedule (AES-%zu)", name,
			        key_sizes[k] * 8);
			aesecb_clear(&set);

			for (fn = 0; fn < 3; fn++) {
				aesecb_blocks_fn *f = fn == 0 ? be->impl->encrypt
				                    : fn == 1 ? be->impl->decrypt
				                    : be->impl->masks;
				static const char *const what[3] = {
					"encrypt", "decrypt", "masks"
				};

				if (f == NULL)
					continue;
				for (i = 0; i < sizeof record_nbs /
				                sizeof record_nbs[0]; i++) {
					size_t nb = record_nbs[i];
					size_t olen = fn == 2 ? 5 * nb : nb * BS;

					prng_fill(&r, in, nb * BS);
					if (fn == 2)
						ck_assert_int_eq(aesecb_hp_masks(
						    &ctx, in, want, nb), AESECB_OK);
					else
						crypt_ok(&ctx, fn, in, want,
						         nb * BS);
					memset(out, 0, olen);
					ck_assert_int_eq(f(&ctx, in, out, nb,
					                   NULL), AESECB_OK);
					REQUIRE(memcmp(out, want, olen) == 0,
					        "backend %s: %s of %zu blocks "
					        "called directly gives another "
					        "result", name, what[fn], nb);
					memset(out, 0, olen);
					rec.low = UINTPTR_MAX;
					ck_assert_int_eq(f(&ctx, in, out, nb,
					                   &rec), AESECB_OK);
					REQUIRE(memcmp(out, want, olen) == 0,
					        "backend %s: %s of %zu blocks "
					        "with a stack record gives another "
					        "result", name, what[fn], nb);
					REQUIRE(!burned ||
					        rec.low != UINTPTR_MAX,
					        "backend %s: %s of %zu blocks "
					        "runs burned but records no stack "
					        "frame", name, what[fn], nb);
				}
			}
			aesecb_clear(&ctx);
		}
		printf("stack record: backend %s: %s\n", name,
		       burned ? "block and mask functions burned"
		              : "block and mask functions called directly");
	}
	fflush(stdout);
}
END_TEST

/*
 * No backend is lent a working space: aesecb_backend_scratch_written()
 * answers 0 for every backend and anything else.  The portable backend
 * declares no register-only path (its bitsliced code spills), nothing is
 * register-only in an unoptimised build, and aesecb_init records in the
 * context whether the block functions run burned.
 */
START_TEST(test_burn_declarations)
{
	size_t i;

	ck_assert_uint_eq(none_backend()->regs, 0);
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);
		const char *name = aesecb_backend_name(be);

		ck_assert_uint_eq(aesecb_backend_scratch_written(be, 0), 0);
		ck_assert_uint_eq(aesecb_backend_scratch_written(be, 1), 0);
#if !AESECB_REGISTERS
		REQUIRE(be->regs == 0, "backend %s declares register-only "
		        "paths in an unoptimised build", name);
#endif
		if (aesecb_backend_available(be)) {
			aesecb_ctx ctx;
			uint8_t key[16] = { 0 };

			init_ok(&ctx, key, sizeof key, be);
			REQUIRE(ctx.priv_burn == blocks_burned(be),
			        "backend %s: the context says its block "
			        "functions run %s", name,
			        ctx.priv_burn ? "burned" : "directly");
			aesecb_clear(&ctx);
		}
	}
}
END_TEST

START_TEST(test_clear)
{
	struct runlist rl;
	size_t b, k, i;

	runnable(&rl);
	for (b = 0; b < rl.n; b++) {
		for (k = 0; k < 3; k++) {
			aesecb_ctx ctx;
			const unsigned char *p = (const unsigned char *)&ctx;
			uint8_t key[32];
			size_t nonzero = 0;

			memset(key, 0xff, sizeof key);
			memset(&ctx, 0x77, sizeof ctx);
			init_ok(&ctx, key, key_sizes[k], rl.be[b]);
			for (i = 0; i < sizeof ctx.priv_keys; i++)
				nonzero += p[i] != 0;
			REQUIRE(nonzero > 0, "backend %s: no key schedule "
			        "in the context", aesecb_backend_name(rl.be[b]));
			aesecb_clear(&ctx);
			for (i = 0; i < sizeof ctx; i++)
				REQUIRE(p[i] == 0, "backend %s: byte %zu of "
				        "the context not zero after "
				        "aesecb_clear",
				        aesecb_backend_name(rl.be[b]), i);
		}
	}
	aesecb_clear(NULL); /* harmless */
}
END_TEST

/*
 * Re-keying: after init with a long key and then a short one, the context
 * is byte-for-byte what a fresh init with the short key gives (nothing of
 * the first key survives), and a failed init leaves a cleared context that
 * every call refuses.
 */
START_TEST(test_reinit)
{
	struct runlist rl;
	size_t b, k, j, i;

	runnable(&rl);
	for (b = 0; b < rl.n; b++) {
		const char *name = aesecb_backend_name(rl.be[b]);

		for (k = 0; k < 3; k++) {
			for (j = 0; j < 3; j++) {
				aesecb_ctx a, fresh;
				uint8_t k1[32], k2[32], blk[BS] = { 0 };
				const unsigned char *pa = (const unsigned char *)&a;

				memset(k1, 0xc5, sizeof k1);
				memset(k2, 0x3a, sizeof k2);
				memset(&a, 0x55, sizeof a);
				memset(&fresh, 0, sizeof fresh);
				init_ok(&a, k1, key_sizes[k], rl.be[b]);
				init_ok(&a, k2, key_sizes[j], rl.be[b]);
				init_ok(&fresh, k2, key_sizes[j], rl.be[b]);
				REQUIRE(memcmp(&a, &fresh, sizeof a) == 0,
				        "backend %s: init %zu-byte key after "
				        "%zu-byte key differs from a fresh init",
				        name, key_sizes[j], key_sizes[k]);

				/* a failed init clears the context */
				REQUIRE(aesecb_init(&a, k1, 17, rl.be[b]) ==
				        AESECB_EKEYLEN, "backend %s: bad length "
				        "accepted", name);
				for (i = 0; i < sizeof a; i++)
					REQUIRE(pa[i] == 0, "backend %s: byte %zu "
					        "left after a failed init", name, i);
				REQUIRE(aesecb_ctx_backend(&a) == NULL,
				        "backend %s: failed init has a backend",
				        name);
				REQUIRE(aesecb_encrypt(&a, blk, blk, BS) ==
				        AESECB_EINVAL, "backend %s: encrypt after "
				        "a failed init", name);
			}
		}
	}
}
END_TEST

/*
 * A context at any 8-byte aligned address: offsets 0, 8, ..., 56 from a
 * 64-aligned area.  Callers embed the context in their own structures,
 * copy it, or take memory from allocators that give 8 or 16 bytes, so no
 * backend may rely on the type's declared 64-byte alignment (no aligned
 * loads or stores of round keys).  aesecb_init writes the context at that
 * address; encrypt, decrypt (in place and not, every block-count path),
 * hp_mask and hp_masks must all match a context in aligned storage.
 *
 * This breaks the declared alignment of aesecb_ctx on purpose, which the
 * undefined-behaviour sanitizer's alignment check reports in the library
 * itself.  So this test case runs in its own program,
 * tests/check_lib_misaligned (this file built with
 * -DAESECB_TEST_MISALIGNED together with its own copy of the library,
 * both without that one check: see Makefile.am), and not in
 * tests/check_lib.
 */
START_TEST(test_ctx_alignment)
{
	static const size_t counts[] = { 1, 2, 3, 4, 7, 8, 12, 13, 17, 40 };
	enum { MAXB = 40, NMASK = 70 };
	static _Alignas(64) unsigned char area[sizeof(aesecb_ctx) + 64];
	static uint8_t in[MAXB * BS], want[MAXB * BS], got[MAXB * BS];
	static uint8_t samples[NMASK * BS], mwant[NMASK * 5], mgot[NMASK * 5];
	struct runlist rl;
	size_t b, k, off, c;

	runnable(&rl);
	for (b = 0; b < rl.n; b++) {
		const char *name = aesecb_backend_name(rl.be[b]);

		for (k = 0; k < 3; k++) {
			aesecb_ctx ref;
			uint8_t key[32], m1[5], m2[5];
			struct prng r;

			prng_init(&r, 0xa11 + k);
			prng_fill(&r, key, sizeof key);
			prng_fill(&r, in, sizeof in);
			prng_fill(&r, samples, sizeof samples);
			init_ok(&ref, key, key_sizes[k], rl.be[b]);
			crypt_ok(&ref, 0, in, want, sizeof in);
			aesecb_hp_mask(&ref, samples, m1);
			REQUIRE(aesecb_hp_masks(&ref, samples, mwant, NMASK)
			        == AESECB_OK, "backend %s: hp_masks failed",
			        name);
			for (off = 0; off < 64; off += 8) {
				aesecb_ctx *ctx = (aesecb_ctx *)(void *)
				                  (area + off);

				memset(area, 0x5a, sizeof area);
				init_ok(ctx, key, key_sizes[k], rl.be[b]);
				for (c = 0; c < sizeof counts / sizeof counts[0];
				     c++) {
					size_t len = counts[c] * BS;

					memset(got, 0, sizeof got);
					crypt_ok(ctx, 0, in, got, len);
					REQUIRE(memcmp(got, want, len) == 0,
					  "backend %s: AES-%zu, context at "
					  "offset %zu: wrong encryption of %zu "
					  "blocks", name, key_sizes[k] * 8,
					  off, counts[c]);
					crypt_ok(ctx, 1, got, got, len);
					REQUIRE(memcmp(got, in, len) == 0,
					  "backend %s: AES-%zu, context at "
					  "offset %zu: wrong in-place "
					  "decryption of %zu blocks", name,
					  key_sizes[k] * 8, off, counts[c]);
					crypt_ok(ctx, 0, got, got, len);
					REQUIRE(memcmp(got, want, len) == 0,
					  "backend %s: AES-%zu, context at "
					  "offset %zu: wrong in-place "
					  "encryption of %zu blocks", name,
					  key_sizes[k] * 8, off, counts[c]);
				}
				aesecb_hp_mask(ctx, samples, m2);
				REQUIRE(memcmp(m1, m2, 5) == 0,
				        "backend %s: AES-%zu, context at "
				        "offset %zu: wrong hp mask", name,
				        key_sizes[k] * 8, off);
				memset(mgot, 0, sizeof mgot);
				REQUIRE(aesecb_hp_masks(ctx, samples, mgot,
				        NMASK) == AESECB_OK,
				        "backend %s: hp_masks failed", name);
				REQUIRE(memcmp(mgot, mwant, sizeof mgot) == 0,
				        "backend %s: AES-%zu, context at "
				        "offset %zu: wrong hp masks", name,
				        key_sizes[k] * 8, off);
				aesecb_clear(ctx);
			}
			aesecb_clear(&ref);
		}
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* 7. One context shared by several threads                            */

#define N_THREADS 4
#define THREAD_BLOCKS 48

struct shared {
	const aesecb_ctx *ctx;
	const uint8_t *pt, *ct;  /* THREAD_BLOCKS blocks each */
	int failures;
	unsigned id;
};

static void *thread_main(void *arg)
{
	struct shared *s = arg;
	uint8_t buf[THREAD_BLOCKS * BS], mask[5];
	size_t iter, nb;

	for (iter = 0; iter < 40; iter++) {
		nb = 1 + (iter * 7 + s->id * 13) % THREAD_BLOCKS;
		if (aesecb_encrypt(s->ctx, s->pt, buf, nb * BS) != AESECB_OK ||
		    memcmp(buf, s->ct, nb * BS) != 0)
			s->failures++;
		if (aesecb_decrypt(s->ctx, s->ct, buf, nb * BS) != AESECB_OK ||
		    memcmp(buf, s->pt, nb * BS) != 0)
			s->failures++;
		aesecb_hp_mask(s->ctx, s->pt + (iter % THREAD_BLOCKS) * BS, mask);
		if (memcmp(mask, s->ct + (iter % THREAD_BLOCKS) * BS, 5) != 0)
			s->failures++;
	}
	return NULL;
}

START_TEST(test_threads)
{
	static uint8_t pt[THREAD_BLOCKS * BS], ct[THREAD_BLOCKS * BS];
	struct runlist rl;
	struct prng r;
	size_t b, k, t;

	runnable(&rl);
	prng_init(&r, 9);
	for (b = 0; b < rl.n; b++) {
		for (k = 0; k < 3; k++) {
			aesecb_ctx ctx;
			uint8_t key[32];
			pthread_t th[N_THREADS];
			struct shared sh[N_THREADS];

			prng_fill(&r, key, sizeof key);
			prng_fill(&r, pt, sizeof pt);
			init_ok(&ctx, key, key_sizes[k], rl.be[b]);
			expect_blockwise(&ctx, 0, pt, ct, THREAD_BLOCKS);
			for (t = 0; t < N_THREADS; t++) {
				sh[t].ctx = &ctx;
				sh[t].pt = pt;
				sh[t].ct = ct;
				sh[t].failures = 0;
				sh[t].id = (unsigned)t;
				ck_assert_int_eq(pthread_create(&th[t], NULL,
				                                thread_main, &sh[t]), 0);
			}
			for (t = 0; t < N_THREADS; t++)
				ck_assert_int_eq(pthread_join(th[t], NULL), 0);
			for (t = 0; t < N_THREADS; t++)
				REQUIRE(sh[t].failures == 0, "backend %s: "
				        "AES-%zu: thread %zu saw %d wrong "
				        "results", aesecb_backend_name(rl.be[b]),
				        key_sizes[k] * 8, t, sh[t].failures);
			aesecb_clear(&ctx);
		}
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* 8. Backend enumeration and strings                                  */

/* Is word a member of the space-separated list? */
static int listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ' '))
			return 1;
		p += n;
	}
	return 0;
}

/* The number of words in a space-separated list. */
static size_t count_words(const char *list)
{
	size_t n = 0;
	int in = 0;

	for (; *list != '\0'; list++) {
		n += !in && *list != ' ';
		in = *list != ' ';
	}
	return n;
}

/*
 * The table walked from the library's own count: every entry found by
 * its name and consistent in what it says of itself.  make check passes
 * configure's lists (ALL_BACKENDS: every backend, BUILT_BACKENDS: the
 * compiled ones), which the table must match exactly.
 */
START_TEST(test_enumeration)
{
	const char *all = getenv("ALL_BACKENDS");
	const char *built = getenv("BUILT_BACKENDS");
	size_t n = aesecb_backend_count(), i, j;

	ck_assert_uint_ge(n, 1);
	ck_assert_ptr_null(aesecb_backend_get(n));
	ck_assert_ptr_null(aesecb_backend_get((size_t)-1));
	ck_assert_ptr_null(aesecb_backend_find("bogus"));
	ck_assert_ptr_null(aesecb_backend_find(""));
	ck_assert_ptr_null(aesecb_backend_find("NONE"));
	ck_assert_ptr_null(aesecb_backend_find(NULL));
	ck_assert_ptr_null(aesecb_backend_name(NULL));
	ck_assert_ptr_null(aesecb_backend_requires(NULL));
	ck_assert_str_eq(aesecb_backend_unavailable_reason(NULL),
	                 "unknown backend");
	if (all != NULL && all[0] != '\0')
		REQUIRE(count_words(all) == n, "the library has %zu backends, "
		        "configure lists '%s'", n, all);
	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);
		const char *name = aesecb_backend_name(be), *arch, *req, *why;

		ck_assert_ptr_nonnull(be);
		ck_assert_ptr_nonnull(name);
		REQUIRE(name[0] != '\0' && strspn(name,
		        "abcdefghijklmnopqrstuvwxyz0123456789") == strlen(name),
		        "backend %zu: name '%s'", i, name);
		REQUIRE(aesecb_backend_find(name) == be,
		        "find(%s) is not entry %zu", name, i);
		for (j = 0; j < i; j++)
			REQUIRE(aesecb_backend_get(j) != be, "entry %zu repeats "
			        "entry %zu", i, j);
		arch = aesecb_backend_arch(be);
		ck_assert_ptr_nonnull(arch);
		REQUIRE(strcmp(arch, "any") == 0 ||
		        strcmp(arch, "x86_64") == 0 ||
		        strcmp(arch, "x86") == 0 ||
		        strcmp(arch, "aarch64") == 0 ||
		        strcmp(arch, "arm") == 0 ||
		        strcmp(arch, "ppc64") == 0,
		        "backend %s: arch '%s'", name, arch);
		req = aesecb_backend_requires(be);
		ck_assert_ptr_nonnull(req);
		REQUIRE(req[0] != '\0', "backend %s: empty requires", name);
		REQUIRE((be->needs == 0) == (strcmp(arch, "any") == 0),
		        "backend %s: arch %s but needs 0x%x", name, arch,
		        be->needs);
		why = aesecb_backend_unavailable_reason(be);
		if (aesecb_backend_available(be)) {
			REQUIRE(aesecb_backend_compiled(be),
			        "backend %s available but not compiled", name);
			ck_assert_ptr_null(why);
		} else {
			ck_assert_ptr_nonnull(why);
			REQUIRE(why[0] != '\0', "backend %s: empty reason",
			        name);
			if (!aesecb_backend_compiled(be))
				ck_assert_str_eq(why, "not built in");
			else
				REQUIRE(strncmp(why, "CPU lacks ", 10) == 0 ||
				        strncmp(why, "OS ", 3) == 0,
				        "backend %s: reason '%s'", name, why);
		}
		if (all != NULL && all[0] != '\0')
			REQUIRE(listed(all, name), "backend %s is not in "
			        "configure's list '%s'", name, all);
		if (built != NULL && built[0] != '\0')
			REQUIRE(listed(built, name) ==
			        aesecb_backend_compiled(be),
			        "backend %s: compiled=%d but BUILT_BACKENDS"
			        "='%s'", name, aesecb_backend_compiled(be),
			        built);
	}
	ck_assert_str_eq(aesecb_backend_arch(none_backend()), "any");
	ck_assert(aesecb_backend_compiled(none_backend()));
}
END_TEST

/*
 * aesecb_backend_resolve and aesecb_backend_env: every name in the table
 * resolves to its backend or to its reason; unknown names, NULL with and
 * without $AESECB_BACKEND.
 */
START_TEST(test_resolve)
{
	const char *orig = getenv("AESECB_BACKEND");
	char *saved = orig != NULL ? strdup(orig) : NULL;
	const aesecb_backend *be, *def;
	const char *why;
	size_t i;

	ck_assert(orig == NULL || saved != NULL);
	set_env_backend(NULL);
	ck_assert_ptr_null(aesecb_backend_env());
	set_env_backend("");
	ck_assert_ptr_null(aesecb_backend_env());
	be = NULL;
	why = "x";
	ck_assert_int_eq(aesecb_backend_resolve(NULL, &be, &why), AESECB_OK);
	ck_assert_ptr_null(why);
	def = be;
	ck_assert(aesecb_backend_available(def));
	ck_assert_ptr_eq(aesecb_backend_default(), def);
	/* no backend after def in the table is available */
	for (i = 0; i < aesecb_backend_count(); i++)
		if (aesecb_backend_get(i) == def)
			break;
	for (i++; i < aesecb_backend_count(); i++)
		REQUIRE(!aesecb_backend_available(aesecb_backend_get(i)),
		        "default %s, but %s comes later and is available",
		        aesecb_backend_name(def),
		        aesecb_backend_name(aesecb_backend_get(i)));

	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *t = aesecb_backend_get(i);
		const char *name = aesecb_backend_name(t);
		int want = aesecb_backend_available(t) ? AESECB_OK
		           : AESECB_EUNAVAILABLE;

		be = NULL;
		why = NULL;
		ck_assert_int_eq(aesecb_backend_resolve(name, &be, &why), want);
		ck_assert_ptr_eq(be, t);
		if (want == AESECB_OK)
			ck_assert_ptr_null(why);
		else
			ck_assert_str_eq(why,
			                 aesecb_backend_unavailable_reason(t));
		/* the same through the environment */
		set_env_backend(name);
		ck_assert_str_eq(aesecb_backend_env(), name);
		be = NULL;
		ck_assert_int_eq(aesecb_backend_resolve(NULL, &be, NULL), want);
		ck_assert_ptr_eq(be, t);
		/* a name given wins over the environment */
		ck_assert_int_eq(aesecb_backend_resolve("none", &be, NULL),
		                 AESECB_OK);
		ck_assert_ptr_eq(be, none_backend());
		ck_assert_ptr_eq(aesecb_backend_default(),
		                 want == AESECB_OK ? t : NULL);
		set_env_backend(NULL);
	}
	be = none_backend();
	why = NULL;
	ck_assert_int_eq(aesecb_backend_resolve("bogus", &be, &why),
	                 AESECB_EUNKNOWN);
	ck_assert_ptr_null(be);
	ck_assert_str_eq(why, "unknown backend");
	set_env_backend("bogus");
	ck_assert_str_eq(aesecb_backend_env(), "bogus");
	ck_assert_int_eq(aesecb_backend_resolve(NULL, NULL, NULL),
	                 AESECB_EUNKNOWN);
	ck_assert_ptr_null(aesecb_backend_default());
	set_env_backend(saved);
	free(saved);
}
END_TEST

/*
 * aesecb_ctx_new and aesecb_ctx_free: aligned as the type asks, the same
 * results as a context on the stack, failures leave NULL.
 */
START_TEST(test_ctx_heap)
{
	struct runlist rl;
	uint8_t key[32], in[4 * BS], a[4 * BS], b[4 * BS];
	struct prng r;
	size_t i, k;

	runnable(&rl);
	prng_init(&r, 0x4ea9);
	for (i = 0; i < rl.n; i++) {
		for (k = 0; k < 3; k++) {
			aesecb_ctx *h = NULL, st;

			prng_fill(&r, key, sizeof key);
			prng_fill(&r, in, sizeof in);
			ck_assert_int_eq(aesecb_ctx_new(&h, key, key_sizes[k],
			                                rl.be[i]), AESECB_OK);
			ck_assert_ptr_nonnull(h);
			ck_assert_uint_eq((uintptr_t)h % 64, 0);
			ck_assert_ptr_eq(aesecb_ctx_backend(h), rl.be[i]);
			init_ok(&st, key, key_sizes[k], rl.be[i]);
			ck_assert_int_eq(aesecb_encrypt(h, in, a, sizeof in), 0);
			ck_assert_int_eq(aesecb_encrypt(&st, in, b, sizeof in), 0);
			ck_assert_mem_eq(a, b, sizeof a);
			ck_assert_int_eq(aesecb_decrypt(h, a, b, sizeof a), 0);
			ck_assert_mem_eq(b, in, sizeof in);
			aesecb_ctx_free(h);
			aesecb_clear(&st);
		}
	}
	{
		aesecb_ctx *h = (aesecb_ctx *)&rl;   /* must become NULL */

		ck_assert_int_eq(aesecb_ctx_new(&h, key, 17, NULL),
		                 AESECB_EKEYLEN);
		ck_assert_ptr_null(h);
		h = (aesecb_ctx *)&rl;
		ck_assert_int_eq(aesecb_ctx_new(&h, NULL, 16, NULL),
		                 AESECB_EINVAL);
		ck_assert_ptr_null(h);
		ck_assert_int_eq(aesecb_ctx_new(NULL, key, 16, NULL),
		                 AESECB_EINVAL);
		aesecb_ctx_free(NULL);
	}
}
END_TEST

START_TEST(test_ctx_backend)
{
	struct runlist rl;
	uint8_t key[24] = { 0 };
	size_t b;

	runnable(&rl);
	for (b = 0; b < rl.n; b++) {
		aesecb_ctx ctx;

		memset(&ctx, 0, sizeof ctx);
		ck_assert_ptr_null(aesecb_ctx_backend(&ctx));
		init_ok(&ctx, key, sizeof key, rl.be[b]);
		ck_assert_ptr_eq(aesecb_ctx_backend(&ctx), rl.be[b]);
		aesecb_clear(&ctx);
	}
	ck_assert_uint_le(sizeof(aesecb_ctx), 1024);
	ck_assert_uint_eq(_Alignof(aesecb_ctx), 64);
}
END_TEST

START_TEST(test_strerror)
{
	static const int codes[] = {
		AESECB_OK, AESECB_EKEYLEN, AESECB_EPARTIAL, AESECB_EUNKNOWN,
		AESECB_EUNAVAILABLE, AESECB_EINVAL, AESECB_ESHORT,
		AESECB_ENOMEM
	};
	enum { NCODES = sizeof codes / sizeof codes[0] };
	static const int bogus[] = { 1, -8, -100, INT_MAX, INT_MIN };
	const char *msg[NCODES], *unknown;
	size_t i, j;

	for (i = 0; i < NCODES; i++) {
		msg[i] = aesecb_strerror(codes[i]);
		ck_assert_ptr_nonnull(msg[i]);
		REQUIRE(msg[i][0] != '\0', "empty message for %d",
		        codes[i]);
		for (j = 0; j < i; j++)
			REQUIRE(strcmp(msg[i], msg[j]) != 0,
			        "codes %d and %d share a message", codes[i],
			        codes[j]);
	}
	unknown = aesecb_strerror(bogus[0]);
	ck_assert_ptr_nonnull(unknown);
	for (i = 0; i < sizeof bogus / sizeof bogus[0]; i++) {
		ck_assert_ptr_nonnull(aesecb_strerror(bogus[i]));
		ck_assert_str_eq(aesecb_strerror(bogus[i]), unknown);
	}
	for (i = 0; i < NCODES; i++)
		ck_assert_str_ne(msg[i], unknown);
	ck_assert_ptr_nonnull(aesecb_version());
	REQUIRE(aesecb_version()[0] != '\0', "empty version");
#ifdef PACKAGE_VERSION
	ck_assert_str_eq(aesecb_version(), PACKAGE_VERSION);
#endif
}
END_TEST

/* ------------------------------------------------------------------ */

/* The tag of the test cases that break aesecb_ctx's declared alignment. */
#define MISALIGNED_TAG "misaligned"

static Suite *lib_suite(void)
{
	Suite *s = suite_create("libaesecb");
	TCase *tc;

#define ADD_TCASE(label, fn) do {                       \
		tc = tcase_create(label);               \
		tcase_set_timeout(tc, 600);             \
		tcase_add_test(tc, fn);                 \
		suite_add_tcase(s, tc);                 \
	} while (0)

	ADD_TCASE("vectors", test_vectors);
	ADD_TCASE("byte order", test_byte_order);
	ADD_TCASE("key lengths", test_key_lengths);
	ADD_TCASE("bad arguments", test_bad_arguments);
	ADD_TCASE("default backend", test_default_backend);
	ADD_TCASE("lengths", test_lengths);
	ADD_TCASE("misaligned pairs", test_misaligned_all_pairs);
	ADD_TCASE("zero and partial", test_zero_and_partial);
	ADD_TCASE("round trip", test_roundtrip);
	ADD_TCASE("differential", test_differential);
	ADD_TCASE("hp masks", test_hp_masks);
	ADD_TCASE("hp packets", test_hp_packets);
	ADD_TCASE("stack record", test_stack_record);
	ADD_TCASE("burn declarations", test_burn_declarations);
	ADD_TCASE("clear", test_clear);
	ADD_TCASE("re-init", test_reinit);
	ADD_TCASE("threads", test_threads);
	ADD_TCASE("enumeration", test_enumeration);
	ADD_TCASE("resolve", test_resolve);
	ADD_TCASE("heap contexts", test_ctx_heap);
	ADD_TCASE("context backend", test_ctx_backend);
	ADD_TCASE("strerror", test_strerror);
	/* run by tests/check_lib_misaligned only (see the test) */
	ADD_TCASE("context alignment", test_ctx_alignment);
	tcase_set_tags(tc, MISALIGNED_TAG);
#undef ADD_TCASE
	return s;
}

int main(void)
{
	const char *seed = getenv("AESECB_TEST_SEED");
	SRunner *sr;
	size_t i, ran = 0;
	int failed;

	if (seed != NULL && seed[0] != '\0')
		test_seed = strtoull(seed, NULL, 0);
	printf("seed: 0x%016llx (set AESECB_TEST_SEED to change)\n",
	       (unsigned long long)test_seed);
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (!aesecb_backend_available(be))
			printf("SKIP: backend %s: %s\n", aesecb_backend_name(be),
			       aesecb_backend_unavailable_reason(be));
	}
	printf("backends run:");
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (aesecb_backend_available(be)) {
			printf(" %s", aesecb_backend_name(be));
			ran++;
		}
	}
	printf("%s\n", ran == 0 ? " (none at all)" : "");
	fflush(stdout);

	sr = srunner_create(lib_suite());
#ifdef AESECB_TEST_MISALIGNED
	srunner_run_tagged(sr, NULL, NULL, MISALIGNED_TAG, NULL, CK_NORMAL);
#else
	srunner_run_tagged(sr, NULL, NULL, NULL, MISALIGNED_TAG, CK_NORMAL);
#endif
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (!aesecb_backend_available(aesecb_backend_find("none"))) {
		printf("FAIL: backend none did not run\n");
		failed++;
	}
	return failed == 0 && ran > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
