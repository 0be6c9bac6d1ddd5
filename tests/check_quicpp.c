/* SPDX-License-Identifier: MIT */
/*
 * check_quicpp.c - unit tests for QUIC packet protection (cli/quic/quicpp.c):
 * packet-number recovery against RFC 9000 A.3's example and a plain
 * reference, the AEAD check on RFC 9001 A.2 (the client Initial sealed
 * here from the RFC's keys and checked against its header and sample),
 * RFC 9001 A.3 and RFC 9369 A.3 (the RFCs' whole server Initials), every
 * packet-number length, flipped bytes, a wrong nonce, and the key-update
 * secret of RFC 9001 A.5.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkutil.h"
#include "aesecb.h"
#include "quic/quic.h"
#include "quic/quicpp.h"

/* ------------------------------------------------------------------ */
/* Packet-number recovery. */

/* RFC 9000 A.3, written as the RFC's pseudocode reads. */
static uint64_t ref_decode(uint64_t largest, int have, uint64_t truncated,
                           unsigned bits)
{
	uint64_t expected = have ? largest + 1 : 0;
	uint64_t win = (uint64_t)1 << bits, hwin = win / 2, mask = win - 1;
	uint64_t cand = (expected & ~mask) | truncated;

	if (expected >= hwin && cand <= expected - hwin &&
	    cand < ((uint64_t)1 << 62) - win)
		return cand + win;
	if (cand > expected + hwin && cand >= win)
		return cand - win;
	return cand;
}

START_TEST(test_pn_decode_rfc)
{
	/* RFC 9000 A.3: largest 0xa82f30ea, 16 bits 0x9b32 */
	ck_assert_uint_eq(quic_pn_decode(0xa82f30eaULL, 0x9b32, 2),
	                  0xa82f9b32ULL);
	/* none known: the truncated number is the full one */
	ck_assert_uint_eq(quic_pn_decode(QUIC_PN_NONE, 0, 1), 0);
	ck_assert_uint_eq(quic_pn_decode(QUIC_PN_NONE, 0xff, 1), 0xff);
	ck_assert_uint_eq(quic_pn_decode(QUIC_PN_NONE, 0xfffffffe, 4),
	                  0xfffffffeULL);
	/* wrap forward and back */
	ck_assert_uint_eq(quic_pn_decode(200, 44, 1), 300);
	ck_assert_uint_eq(quic_pn_decode(300, 250, 1), 250);
	ck_assert_uint_eq(quic_pn_decode(255, 0, 1), 256);
	ck_assert_uint_eq(quic_pn_decode(0x10000, 0xffff, 2), 0xffff);
	/* near 2^62: no step up past the largest packet number */
	ck_assert_uint_eq(quic_pn_decode(((uint64_t)1 << 62) - 2, 0, 1),
	                  ref_decode(((uint64_t)1 << 62) - 2, 1, 0, 8));
}
END_TEST

START_TEST(test_pn_decode_reference)
{
	uint64_t x = 88172645463325252ULL;
	unsigned len, i;

	for (i = 0; i < 200000; i++) {
		uint64_t largest, truncated;
		int have;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		len = (unsigned)(x & 3) + 1;
		have = (x >> 2) % 8 != 0;
		/* largest: small, near a window edge, or anywhere below 2^62 */
		switch ((x >> 5) % 4) {
		case 0:
			largest = (x >> 8) % 1000;
			break;
		case 1:
			largest = ((x >> 8) % 64) << (8 * len);
			largest += (x >> 20) % 5;
			largest -= largest >= 2 ? 2 : 0;
			break;
		case 2:
			largest = ((uint64_t)1 << 62) - 1 - (x >> 8) % 600;
			break;
		default:
			largest = (x >> 2) & (((uint64_t)1 << 62) - 1);
			break;
		}
		truncated = (x >> 30) & ((((uint64_t)1) << (8 * len)) - 1);
		ck_assert_uint_eq(quic_pn_decode(have ? largest : QUIC_PN_NONE,
		                                 (uint32_t)truncated, len),
		                  ref_decode(largest, have, truncated, 8 * len));
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* The AEAD check. */

/* RFC 9001 A.1 and A.2 */
#define A2_DCID   "8394c8f03e515708"
#define A2_KEY    "1f369613dd76d5467730efcbe3b1a22d"
#define A2_IV     "fa044b2f42a3fd3b46fb255c"
#define A2_HP     "9f50449e04a0e810283a1e9933adedd2"
#define A2_HEADER "c300000001088394c8f03e5157080000449e00000002"
#define A2_PROTECTED_HEADER "c000000001088394c8f03e5157080000449e7b9aec34"
#define A2_SAMPLE "d1b1c98dd7689fb8ec11d242b123dc9b"
#define A2_MASK   "437b9aec36"
/* the first 16 bytes of the CRYPTO frame the RFC's payload starts with */
#define A2_PLAIN16 "060040f1010000ed0303ebf8fa56f129"

static uint8_t a2[1200];

/*
 * The client Initial of RFC 9001 A.2, sealed here with nettle from the
 * RFC's key, IV and mask: the payload is the RFC's first 16 bytes, then
 * PADDING (zeros) to 1162 bytes, so the header and the sample come out as
 * the RFC's, and the tag is this payload's.
 */
static void build_a2(void)
{
	struct gcm_aes128_ctx g;
	uint8_t key[16], iv[12], mask[5], plain[1162];
	size_t h = unhex(A2_HEADER, a2, sizeof a2), i;

	ck_assert_uint_eq(h, 22);
	unhex(A2_KEY, key, sizeof key);
	unhex(A2_IV, iv, sizeof iv);
	memset(plain, 0, sizeof plain);
	unhex(A2_PLAIN16, plain, sizeof plain);
	iv[11] ^= 2;   /* packet number 2 */
	gcm_aes128_set_key(&g, key);
	gcm_aes128_set_iv(&g, 12, iv);
	gcm_aes128_update(&g, h, a2);
	gcm_aes128_encrypt(&g, sizeof plain, a2 + h, plain);
	gcm_aes128_digest(&g, 16, a2 + h + sizeof plain);
	ck_assert_uint_eq(h + sizeof plain + 16, 1200);
	ck_assert_hex(a2 + 22, 16, A2_SAMPLE);
	unhex(A2_MASK, mask, sizeof mask);
	a2[0] ^= mask[0] & 0x0f;
	for (i = 0; i < 4; i++)
		a2[18 + i] ^= mask[1 + i];
	ck_assert_hex(a2, 22, A2_PROTECTED_HEADER);
}

/* Header protection removed with the hp key (hex), in place. */
static int unprotect(uint8_t *p, size_t len, size_t pn_offset, const char *hp)
{
	aesecb_ctx ctx;
	uint8_t k[32];
	size_t n = unhex(hp, k, sizeof k);
	int r;

	ck_assert_int_eq(aesecb_init(&ctx, k, n, NULL), AESECB_OK);
	r = aesecb_hp_unprotect(&ctx, p, len, pn_offset);
	aesecb_clear(&ctx);
	return r;
}

START_TEST(test_rfc9001_a2)
{
	struct quic_initial ik;
	struct quic_aead a;
	struct quic_pp_result r;
	uint8_t p[1200];

	build_a2();
	memcpy(p, a2, sizeof p);
	ck_assert_int_eq(unprotect(p, sizeof p, 18, A2_HP), 4);
	ck_assert_hex(p, 22, A2_HEADER);
	ck_assert_int_eq(quic_initial_keys(QUIC_VERSION_1, a2 + 6, 8, &ik),
	                 QUIC_OK);
	ck_assert_int_eq(quic_aead_init_keys(&a, &ik.client), QUIC_OK);
	ck_assert_int_eq(quic_pp_check(&a, p, sizeof p, 18, QUIC_PN_NONE, &r),
	                 QUIC_OK);
	ck_assert_int_eq(r.ok, 1);
	ck_assert_uint_eq(r.pn_len, 4);
	ck_assert_uint_eq(r.truncated, 2);
	ck_assert_uint_eq(r.pn, 2);
	/* a largest that moves the full number: the nonce is wrong */
	ck_assert_int_eq(quic_pp_check(&a, p, sizeof p, 18, 0x100000000ULL, &r),
	                 QUIC_OK);
	ck_assert_int_eq(r.ok, 0);
	ck_assert_uint_eq(r.pn, 0x100000002ULL);
	/* the server's keys do not open it */
	ck_assert_int_eq(quic_aead_init_keys(&a, &ik.server), QUIC_OK);
	ck_assert_int_eq(quic_pp_check(&a, p, sizeof p, 18, QUIC_PN_NONE, &r),
	                 QUIC_OK);
	ck_assert_int_eq(r.ok, 0);
	quic_aead_wipe(&a);
	quic_initial_wipe(&ik);
}
END_TEST

/* Any byte changed, in the header, the payload or the tag, fails. */
START_TEST(test_flipped_bytes)
{
	struct quic_initial ik;
	struct quic_aead a;
	struct quic_pp_result r;
	uint8_t p[1200];
	static const size_t at[] = { 0, 1, 5, 6, 13, 17, 18, 21, 22, 100,
	                             1183, 1184, 1199 };
	size_t i;

	build_a2();
	ck_assert_int_eq(quic_initial_keys(QUIC_VERSION_1, a2 + 6, 8, &ik),
	                 QUIC_OK);
	ck_assert_int_eq(quic_aead_init_keys(&a, &ik.client), QUIC_OK);
	for (i = 0; i < sizeof at / sizeof at[0]; i++) {
		memcpy(p, a2, sizeof p);
		unprotect(p, sizeof p, 18, A2_HP);
		p[at[i]] ^= 0x10;   /* not the packet-number length bits */
		ck_assert_int_eq(quic_pp_check(&a, p, sizeof p, 18,
		                               QUIC_PN_NONE, &r), QUIC_OK);
		ck_assert_msg(r.ok == 0, "byte %zu changed, still verified",
		              at[i]);
	}
	/* the packet-number length bits: another AAD, another tag */
	memcpy(p, a2, sizeof p);
	unprotect(p, sizeof p, 18, A2_HP);
	p[0] ^= 0x01;
	ck_assert_int_eq(quic_pp_check(&a, p, sizeof p, 18, QUIC_PN_NONE, &r),
	                 QUIC_OK);
	ck_assert_int_eq(r.ok, 0);
	ck_assert_uint_eq(r.pn_len, 3);
	quic_aead_wipe(&a);
	quic_initial_wipe(&ik);
}
END_TEST

/* RFC 9001 A.3 and RFC 9369 A.3: the RFCs' own server Initials. */
#define RFC9001_A3 \
	"cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a" \
	"5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3" \
	"dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84" \
	"022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4" \
	"2158407dd074ee"
#define RFC9369_A3 \
	"dc6b3343cf0008f067a5502a4262b5004075d92faaf16f05d8a4398c47089698" \
	"baeea26b91eb761d9b89237bbf87263017915358230035f7fd3945d88965cf17" \
	"f9af6e16886c61bfc703106fbaf3cb4cfa52382dd16a393e42757507698075b2" \
	"c984c707f0a0812d8cd5a6881eaf21ceda98f4bd23f6fe1a3e2c43edd9ce7ca8" \
	"4bed8521e2e140"

static void server_initial(uint32_t version, const char *hex)
{
	struct quic_initial ik;
	struct quic_aead a;
	struct quic_pp_result r;
	uint8_t p[135], dcid[8];
	size_t n = unhex(hex, p, sizeof p);
	char hp[33];

	ck_assert_uint_eq(n, 135);
	unhex(A2_DCID, dcid, sizeof dcid);
	ck_assert_int_eq(quic_initial_keys(version, dcid, 8, &ik), QUIC_OK);
	tohex(ik.server.hp, 16, hp);
	ck_assert_int_eq(unprotect(p, n, 18, hp), 2);
	ck_assert_int_eq(quic_aead_init_keys(&a, &ik.server), QUIC_OK);
	ck_assert_int_eq(quic_pp_check(&a, p, n, 18, QUIC_PN_NONE, &r), QUIC_OK);
	ck_assert_int_eq(r.ok, 1);
	ck_assert_uint_eq(r.pn_len, 2);
	ck_assert_uint_eq(r.pn, 1);
	/* with the largest far off, the full number and the nonce move */
	ck_assert_int_eq(quic_pp_check(&a, p, n, 18, 70000, &r), QUIC_OK);
	ck_assert_int_eq(r.ok, 0);
	ck_assert_uint_eq(r.pn, 65537);
	/* the client's key does not open it */
	ck_assert_int_eq(quic_aead_init_keys(&a, &ik.client), QUIC_OK);
	ck_assert_int_eq(quic_pp_check(&a, p, n, 18, QUIC_PN_NONE, &r), QUIC_OK);
	ck_assert_int_eq(r.ok, 0);
	quic_aead_wipe(&a);
	quic_initial_wipe(&ik);
}

START_TEST(test_rfc_server_initials)
{
	server_initial(QUIC_VERSION_1, RFC9001_A3);
	server_initial(QUIC_VERSION_2, RFC9369_A3);
}
END_TEST

/* A short-header packet sealed here with nettle (header protection not
 * involved): the l-byte number t in its header, the nonce made with the
 * full number pn (which a genuine packet ends in t); its length. */
static size_t seal(uint8_t *p, const uint8_t *key, size_t klen,
                   const uint8_t iv[12], uint32_t l, uint32_t t, uint64_t pn)
{
	uint8_t nonce[12], plain[300];
	size_t off = 9, h = off + l, i, plen = sizeof plain;

	memset(p, 0, h + plen + 16);
	p[0] = (uint8_t)(0x40 | (l - 1));
	for (i = 1; i < off; i++)
		p[i] = (uint8_t)(0xd0 + i);
	for (i = 0; i < l; i++)
		p[off + i] = (uint8_t)(t >> (8 * (l - 1 - i)));
	for (i = 0; i < plen; i++)
		plain[i] = (uint8_t)(i * 31);
	memcpy(nonce, iv, 12);
	for (i = 0; i < 8; i++)
		nonce[11 - i] ^= (uint8_t)(pn >> (8 * i));
	if (klen == 16) {
		struct gcm_aes128_ctx g;

		gcm_aes128_set_key(&g, key);
		gcm_aes128_set_iv(&g, 12, nonce);
		gcm_aes128_update(&g, h, p);
		gcm_aes128_encrypt(&g, plen, p + h, plain);
		gcm_aes128_digest(&g, 16, p + h + plen);
	} else {
		struct gcm_aes256_ctx g;

		gcm_aes256_set_key(&g, key);
		gcm_aes256_set_iv(&g, 12, nonce);
		gcm_aes256_update(&g, h, p);
		gcm_aes256_encrypt(&g, plen, p + h, plain);
		gcm_aes256_digest(&g, 16, p + h + plen);
	}
	return h + plen + 16;
}

static const uint8_t seal_key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
	13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
	30, 31, 32 };
static const uint8_t seal_iv[12] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5,
	0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab };

/* Every packet-number length, AES-128-GCM and AES-256-GCM. */
START_TEST(test_lengths_and_suites)
{
	size_t klen, n;
	uint32_t l;

	for (klen = 16; klen <= 32; klen += 16) {
		for (l = 1; l <= 4; l++) {
			struct quic_aead a;
			struct quic_pp_result r;
			uint8_t p[64 + 300];
			uint64_t pn = 0x12345678 & ((1ULL << (8 * l)) - 1);

			n = seal(p, seal_key, klen, seal_iv, l, (uint32_t)pn, pn);
			ck_assert_int_eq(quic_aead_init(&a, seal_key, klen,
			                                seal_iv), QUIC_OK);
			ck_assert_int_eq(quic_pp_check(&a, p, n, 9, QUIC_PN_NONE,
			                               &r), QUIC_OK);
			ck_assert_int_eq(r.ok, 1);
			ck_assert_uint_eq(r.pn_len, l);
			ck_assert_uint_eq(r.pn, pn);
			/* the other key length does not open it */
			ck_assert_int_eq(quic_aead_init(&a, seal_key, 48 - klen,
			                                seal_iv), QUIC_OK);
			ck_assert_int_eq(quic_pp_check(&a, p, n, 9, QUIC_PN_NONE,
			                               &r), QUIC_OK);
			ck_assert_int_eq(r.ok, 0);
			quic_aead_wipe(&a);
		}
	}
}
END_TEST

/*
 * No packet number known in the space (a capture that starts late): the
 * full number, which the truncated one does not give, found from the
 * tag, below 2^32 and ending in the truncated one; with a largest known,
 * the number it recovers.
 */
START_TEST(test_unknown_largest)
{
	static const struct {
		uint32_t l, t;
		uint64_t pn;
		int ok;
	} c[] = {
		{ 1, 0x45, 0x12345, 1 },
		{ 1, 0x00, 0x300, 1 },
		{ 2, 0x2345, 0x12345, 1 },
		{ 3, 0xabcdef, 0x12abcdef, 1 },
		{ 4, 0x12345678, 0x12345678, 1 },
		{ 1, 0xff, 0xffffffff, 1 },
		{ 1, 0x45, 0x100000045ULL, 0 },     /* 2^32 and more: not sought */
		{ 1, 0x46, 0x12345, 0 },            /* the nonce's number does not
		                                       end in the header's */
		{ 2, 0x2345, 0x1012345, 1 },
	};
	size_t i, klen, n;

	for (klen = 16; klen <= 32; klen += 16) {
		for (i = 0; i < sizeof c / sizeof c[0]; i++) {
			struct quic_aead a;
			struct quic_pp_result r;
			uint8_t p[64 + 300];

			n = seal(p, seal_key, klen, seal_iv, c[i].l, c[i].t,
			         c[i].pn);
			ck_assert_int_eq(quic_aead_init(&a, seal_key, klen,
			                                seal_iv), QUIC_OK);
			ck_assert_int_eq(quic_pp_check(&a, p, n, 9, QUIC_PN_NONE,
			                               &r), QUIC_OK);
			ck_assert_msg(r.ok == c[i].ok, "case %zu, key %zu: "
			              "verdict %d", i, klen, r.ok);
			ck_assert_uint_eq(r.truncated, c[i].t);
			ck_assert_uint_eq(r.pn, c[i].ok ? c[i].pn : c[i].t);
			/* a largest known near it: the number decoded (when
			 * the header's is the nonce's) */
			ck_assert_int_eq(quic_pp_check(&a, p, n, 9, c[i].pn - 3,
			                               &r), QUIC_OK);
			if (c[i].t == (c[i].pn & (0xffffffffu >>
			                          (32 - 8 * c[i].l)))) {
				ck_assert_int_eq(r.ok, 1);
				ck_assert_uint_eq(r.pn, c[i].pn);
			} else {
				ck_assert_int_eq(r.ok, 0);
			}
			/* another IV, and a tag changed: no number */
			p[n - 1] ^= 1;
			ck_assert_int_eq(quic_pp_check(&a, p, n, 9, QUIC_PN_NONE,
			                               &r), QUIC_OK);
			ck_assert_int_eq(r.ok, 0);
			p[n - 1] ^= 1;
			{
				uint8_t iv2[12];

				memcpy(iv2, seal_iv, 12);
				iv2[0] ^= 1;
				ck_assert_int_eq(quic_aead_init(&a, seal_key, klen,
				                                iv2), QUIC_OK);
				ck_assert_int_eq(quic_pp_check(&a, p, n, 9,
				                               QUIC_PN_NONE, &r),
				                 QUIC_OK);
				ck_assert_int_eq(r.ok, 0);
			}
			quic_aead_wipe(&a);
		}
	}
}
END_TEST

START_TEST(test_check_errors)
{
	struct quic_aead a;
	struct quic_pp_result r;
	uint8_t key[16] = { 0 }, iv[12] = { 0 }, p[40] = { 0x40 };

	ck_assert_int_eq(quic_aead_init(&a, key, 24, iv), QUIC_EINVAL);
	ck_assert_int_eq(quic_aead_init(&a, NULL, 16, iv), QUIC_EINVAL);
	ck_assert_int_eq(quic_aead_init(&a, key, 16, iv), QUIC_OK);
	/* the sample must fit */
	ck_assert_int_eq(quic_pp_check(&a, p, 20, 1, QUIC_PN_NONE, &r),
	                 QUIC_ESAMPLE);
	ck_assert_int_eq(quic_pp_check(&a, p, 21, 1, QUIC_PN_NONE, &r),
	                 QUIC_OK);
	ck_assert_int_eq(r.ok, 0);
	ck_assert_int_eq(quic_pp_check(&a, p, 10, 1, QUIC_PN_NONE, &r),
	                 QUIC_ESAMPLE);
	ck_assert_int_eq(quic_pp_check(&a, NULL, 40, 1, QUIC_PN_NONE, &r),
	                 QUIC_EINVAL);
	ck_assert_int_eq(quic_pp_check(&a, p, 40, 1, QUIC_PN_NONE, NULL),
	                 QUIC_EINVAL);
	quic_aead_wipe(&a);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Key updates. */

START_TEST(test_next_secret)
{
	uint8_t s[32], out[48], want[48];

	/* RFC 9001 A.5: "ku" of the ChaCha20 example's secret */
	unhex("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b",
	      s, sizeof s);
	ck_assert_int_eq(quic_pp_next_secret(QUIC_SHA256, QUIC_VERSION_1, s, 32,
	                                     out), QUIC_OK);
	ck_assert_hex(out, 32, "1223504755036d556342ee9361d253421a826c9e"
	                       "cdf3c7148684b36b714881f9");
	/* version 2: the "quicv2 ku" label */
	ck_assert_int_eq(quic_pp_next_secret(QUIC_SHA256, QUIC_VERSION_2, s, 32,
	                                     out), QUIC_OK);
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32, "quicv2 ku",
	                                        NULL, 0, want, 32), QUIC_OK);
	ck_assert_mem_eq(out, want, 32);
	/* SHA-384: 48 bytes */
	{
		uint8_t s48[48];

		memset(s48, 7, sizeof s48);
		ck_assert_int_eq(quic_pp_next_secret(QUIC_SHA384, QUIC_VERSION_1,
		                                     s48, 48, out), QUIC_OK);
		ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA384, s48, 48,
		                 "quic ku", NULL, 0, want, 48), QUIC_OK);
		ck_assert_mem_eq(out, want, 48);
		ck_assert_int_eq(quic_pp_next_secret(QUIC_SHA384, QUIC_VERSION_1,
		                                     s48, 32, out),
		                 QUIC_ESECRETLEN);
	}
	ck_assert_int_eq(quic_pp_next_secret(QUIC_SHA256, 0xff000020u, s, 32,
	                                     out), QUIC_EVERSION);
	/* the v2 draft: "quicv2 ku", and "quic ku" as its second variant */
	ck_assert_int_eq(quic_pp_next_secret(QUIC_SHA256, QUIC_VERSION_V2_DRAFT,
	                                     s, 32, out), QUIC_OK);
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32, "quicv2 ku",
	                                        NULL, 0, want, 32), QUIC_OK);
	ck_assert_mem_eq(out, want, 32);
	ck_assert_int_eq(quic_pp_next_secret_variant(QUIC_SHA256,
	                 QUIC_VERSION_V2_DRAFT, 1, s, 32, out), QUIC_OK);
	ck_assert_hex(out, 32, "1223504755036d556342ee9361d253421a826c9e"
	                       "cdf3c7148684b36b714881f9");
	ck_assert_int_eq(quic_pp_next_secret_variant(QUIC_SHA256, QUIC_VERSION_1,
	                                             1, s, 32, out),
	                 QUIC_EVERSION);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("quicpp");
	TCase *tc = tcase_create("pn");

	tcase_add_test(tc, test_pn_decode_rfc);
	tcase_add_test(tc, test_pn_decode_reference);
	suite_add_tcase(s, tc);
	tc = tcase_create("aead");
	tcase_add_test(tc, test_rfc9001_a2);
	tcase_add_test(tc, test_flipped_bytes);
	tcase_add_test(tc, test_rfc_server_initials);
	tcase_add_test(tc, test_lengths_and_suites);
	tcase_add_test(tc, test_unknown_largest);
	tcase_add_test(tc, test_check_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("ku");
	tcase_add_test(tc, test_next_secret);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)
