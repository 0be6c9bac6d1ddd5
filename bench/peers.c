/* SPDX-License-Identifier: MIT */
/*
 * peers.c - compare aesecb with OpenSSL, nettle, BearSSL and mbed TLS on
 * the same machine, in one run.  Built on request ('make bench/peers'),
 * never installed.
 *
 *   bench/peers [--quick] [--rounds N] [--ref NAME] [--only LIST]
 *               [--figure-ms MS] [--openssl-vpaes]
 *
 * For AES-128 and AES-256 with the key schedule kept: one block per call
 * (independent calls, and dependent calls where each output is the next
 * input), 16 KiB encrypt and decrypt, and the QUIC header-protection
 * shapes (one mask per call; 8, 32 and 64 masks per call; removing header
 * protection from a packet).  The peers make a mask as a 16-byte ECB call
 * and keep 5 bytes.
 *
 * BearSSL has no ECB interface.  Its one block is CBC encryption (or
 * decryption) of that block under a zero IV, which is exactly ECB; its
 * 16 KiB encryption is CTR and its 16 KiB decryption CBC, in place: the
 * same AES work per 16 bytes plus an XOR.  Its masks are one such
 * one-block call per sample.  The output says so.
 *
 * Rounds.  One figure (bench/timing.h: calibrate, warm up, keep the
 * fastest of 20 timed runs that kept the CPU) is taken for every
 * implementation and workload in each round, one implementation after the
 * other, the order rotated from round to round.  A figure's time is
 * divided by the reference implementation's time for the same workload in
 * the same round, and the tables show the median over the rounds of the
 * times and of these ratios, with their range: on a shared machine one
 * noisy round cannot decide a comparison.
 *
 * Before measuring, every implementation's one-block, mask and (where it
 * is ECB) bulk outputs are checked against aesecb's portable backend: a
 * peer driven wrongly is an error, not a figure.
 *
 * Cycles are TSC ticks on x86 (the TSC rate and an estimate of the core
 * clock are printed), otherwise ns times the estimated clock.  Every
 * implementation runs the same loops, instantiated per library so that
 * each call goes straight to that library, and every library is called
 * the way a program calls it: aesecb is linked as the shared libaesecb
 * where it is built (Makefile.am), like the peers, so its calls go through
 * the PLT as theirs do.  The header names the file each library's code
 * was found in.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdint.h>
#if defined(__GLIBC__) && defined(_GNU_SOURCE) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#include <dlfcn.h>           /* dladdr, in the C library since 2.34 */
#define HAVE_CODE_FILE 1
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aesecb.h"
#include "timing.h"

#ifdef HAVE_OPENSSL
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/aes.h>
#endif
#ifdef HAVE_NETTLE
#include <nettle/aes.h>
#include <nettle/version.h>
#endif
#ifdef HAVE_BEARSSL
#include <bearssl.h>
#if defined(__x86_64__) || defined(__i386__)
#define HAVE_BEARSSL_X86NI 1   /* BearSSL builds aes_x86ni on x86 only */
#endif
#endif
#ifdef HAVE_MBEDTLS
#include <mbedtls/aes.h>
#include <mbedtls/version.h>
#endif

/* ------------------------------------------------------------------ */
/* Workloads and the loop template */

#define HP_PKT 48          /* short header: 1 + 8-byte DCID, then the pn */
#define HP_PN_OFFSET 9

enum { W_BLK, W_CHAIN, W_ENC16K, W_DEC16K, W_HP1, W_HP8, W_HP32, W_HP64,
       W_HPUNP, NW };

static const char *const wname[NW] = {
	"block", "blk-chain", "16K-enc", "16K-dec", "hp-mask", "hp-x8",
	"hp-x32", "hp-x64", "hp-unprot"
};
static const char *const wdesc[NW] = {
	"one block per call, independent calls (64 different inputs)",
	"one block per call, each output is the next input (latency)",
	"16 KiB encryption per call (ECB; BearSSL: CTR)",
	"16 KiB decryption per call (ECB; BearSSL: CBC)",
	"one QUIC header-protection mask per call",
	"8 masks per batched call (figures per mask)",
	"32 masks per batched call (figures per mask)",
	"64 masks per batched call (figures per mask)",
	"header protection off a 48-byte short-header packet, in place",
};
static const size_t wbytes[NW] = { 16, 16, 16384, 16384, 16, 16, 16, 16,
                                   HP_PKT };
static const unsigned wper[NW] = { 1, 1, 1, 1, 1, 8, 32, 64, 1 };

#define RING 64
#define BIG 16384
#define MAXN 64            /* most masks per call */

static _Alignas(64) uint8_t in_buf[BIG];
static _Alignas(64) uint8_t out_buf[BIG];
static _Alignas(64) uint8_t mask_buf[RING * 5];
static _Alignas(64) uint8_t pkt_buf[RING * HP_PKT];

/* What the checks compare with: aesecb's portable backend on in_buf. */
#define CHECK_BLOCKS MAXN
static uint8_t want_ct[CHECK_BLOCKS * 16], want_mask[CHECK_BLOCKS * 5];

/*
 * The loops and the check for one implementation P with state type ST;
 * ENC and DEC (s, out, in, len) crypt len bytes, HP1 (s, sample, mask)
 * makes one mask, HPN (s, samples, masks, n) makes n (at most MAXN) and
 * HPUNP (s, packet) removes header protection.  ECB_BULK: ENC and DEC of
 * several blocks are ECB (and so can be checked as such).
 */
#define DEFINE_RUNNERS(P, ST, ENC, DEC, HP1, HPN, HPUNP, ECB_BULK)            \
static void P##_blk(void *arg, uint64_t n)                                    \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++) {                                             \
		size_t o_ = (size_t)(i % RING) * 16;                          \
		ENC(s, out_buf + o_, in_buf + o_, 16);                        \
	}                                                                     \
	bench_sink ^= out_buf[(size_t)((n - 1) % RING) * 16];                 \
}                                                                             \
static void P##_chain(void *arg, uint64_t n)                                  \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++)                                               \
		ENC(s, out_buf, out_buf, 16);                                 \
	bench_sink ^= out_buf[0];                                             \
}                                                                             \
static void P##_enc16k(void *arg, uint64_t n)                                 \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++)                                               \
		ENC(s, out_buf, in_buf, BIG);                                 \
	bench_sink ^= out_buf[BIG - 1];                                       \
}                                                                             \
static void P##_dec16k(void *arg, uint64_t n)                                 \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++)                                               \
		DEC(s, out_buf, in_buf, BIG);                                 \
	bench_sink ^= out_buf[BIG - 1];                                       \
}                                                                             \
static void P##_hp1(void *arg, uint64_t n)                                    \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++) {                                             \
		size_t r_ = (size_t)(i % RING);                               \
		HP1(s, in_buf + r_ * 16, mask_buf + r_ * 5);                  \
	}                                                                     \
	bench_sink ^= mask_buf[(size_t)((n - 1) % RING) * 5];                 \
}                                                                             \
static void P##_hp8(void *arg, uint64_t n)                                    \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++)                                               \
		HPN(s, in_buf, out_buf, 8);                                   \
	bench_sink ^= out_buf[5 * 8 - 1];                                     \
}                                                                             \
static void P##_hp32(void *arg, uint64_t n)                                   \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++)                                               \
		HPN(s, in_buf, out_buf, 32);                                  \
	bench_sink ^= out_buf[5 * 32 - 1];                                    \
}                                                                             \
static void P##_hp64(void *arg, uint64_t n)                                   \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++)                                               \
		HPN(s, in_buf, out_buf, 64);                                  \
	bench_sink ^= out_buf[5 * 64 - 1];                                    \
}                                                                             \
static void P##_hpunp(void *arg, uint64_t n)                                  \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++)                                               \
		HPUNP(s, pkt_buf + (size_t)(i % RING) * HP_PKT);              \
	bench_sink ^= pkt_buf[(size_t)((n - 1) % RING) * HP_PKT];             \
}                                                                             \
static bench_fn *const P##_runners[NW] = {                                    \
	P##_blk, P##_chain, P##_enc16k, P##_dec16k, P##_hp1, P##_hp8,         \
	P##_hp32, P##_hp64, P##_hpunp                                         \
};                                                                            \
static int P##_check(void *arg)                                               \
{                                                                             \
	ST *s = arg;                                                          \
	uint8_t cb_[CHECK_BLOCKS * 16], cm_[CHECK_BLOCKS * 5];                \
	int bad = 0;                                                          \
	ENC(s, cb_, in_buf, 16);                                              \
	bad |= memcmp(cb_, want_ct, 16) != 0;                                 \
	DEC(s, cb_, want_ct, 16);                                             \
	bad |= (memcmp(cb_, in_buf, 16) != 0) << 1;                           \
	HP1(s, in_buf, cm_);                                                  \
	bad |= (memcmp(cm_, want_mask, 5) != 0) << 2;                         \
	HPN(s, in_buf, cm_, CHECK_BLOCKS);                                    \
	bad |= (memcmp(cm_, want_mask, sizeof cm_) != 0) << 3;                \
	if (ECB_BULK) {                                                       \
		ENC(s, cb_, in_buf, sizeof cb_);                              \
		bad |= (memcmp(cb_, want_ct, sizeof cb_) != 0) << 4;          \
		DEC(s, cb_, want_ct, sizeof cb_);                             \
		bad |= (memcmp(cb_, in_buf, sizeof cb_) != 0) << 5;           \
	}                                                                     \
	return bad;                                                           \
}

/* Header protection removed from a short-header packet with a mask from
 * HP1: the 5 low bits of the first byte, then 1 to 4 packet-number bytes,
 * selected without a branch. */
#define HPUNP_VIA(HP1, s, pkt)                                                \
	do {                                                                  \
		uint8_t m_[5];                                                \
		unsigned l_, k_;                                              \
		HP1(s, (pkt) + HP_PN_OFFSET + 4, m_);                         \
		(pkt)[0] ^= (uint8_t)(m_[0] & 0x1f);                          \
		l_ = ((pkt)[0] & 3u) + 1;                                     \
		for (k_ = 0; k_ < 4; k_++)                                    \
			(pkt)[HP_PN_OFFSET + k_] ^= (uint8_t)(m_[1 + k_] &    \
			        (0u - ((k_ - l_) >> (sizeof(unsigned) * 8 - 1)))); \
	} while (0)

/* Masks from a plain ECB call: encrypt, then keep 5 bytes of each block. */
#define HP1_VIA(ENC, s, smp, msk)                                             \
	do {                                                                  \
		uint8_t b_[16];                                               \
		ENC(s, b_, smp, 16);                                          \
		memcpy(msk, b_, 5);                                           \
	} while (0)
#define HPN_VIA(ENC, s, smp, msk, n)                                          \
	do {                                                                  \
		uint8_t b_[MAXN * 16];                                        \
		size_t k_;                                                    \
		ENC(s, b_, smp, (size_t)(n) * 16);                            \
		for (k_ = 0; k_ < (size_t)(n); k_++)                          \
			memcpy((msk) + 5 * k_, b_ + 16 * k_, 5);              \
	} while (0)
/* Masks one call per sample (a library without ECB over many blocks). */
#define HPN_EACH(HP1, s, smp, msk, n)                                         \
	do {                                                                  \
		size_t k_;                                                    \
		for (k_ = 0; k_ < (size_t)(n); k_++)                          \
			HP1(s, (smp) + 16 * k_, (msk) + 5 * k_);              \
	} while (0)

/* ------------------------------------------------------------------ */
/* Implementations */

static const uint8_t key[32] = {   /* a public benchmark key */
	0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe,
	0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81,
	0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7,
	0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4
};

/* aesecb, through the public API */
struct aesecb_state {
	aesecb_ctx ctx;
};
#define AE_ENC(s, o, i, l)   aesecb_encrypt(&(s)->ctx, (i), (o), (l))
#define AE_DEC(s, o, i, l)   aesecb_decrypt(&(s)->ctx, (i), (o), (l))
#define AE_HP1(s, i, m)      aesecb_hp_mask(&(s)->ctx, (i), (m))
#define AE_HPN(s, i, m, n)   aesecb_hp_masks(&(s)->ctx, (i), (m), (n))
#define AE_HPUNP(s, p)       aesecb_hp_unprotect(&(s)->ctx, (p), HP_PKT, HP_PN_OFFSET)
DEFINE_RUNNERS(ae, struct aesecb_state, AE_ENC, AE_DEC, AE_HP1, AE_HPN,
               AE_HPUNP, 1)

#ifdef HAVE_OPENSSL
/* OpenSSL EVP, contexts kept, padding off */
struct evp_state {
	EVP_CIPHER_CTX *e, *d;
};
#define EVP_ENC(s, o, i, l)                                                   \
	do {                                                                  \
		int n_;                                                       \
		EVP_EncryptUpdate((s)->e, (o), &n_, (i), (int)(l));           \
	} while (0)
#define EVP_DEC(s, o, i, l)                                                   \
	do {                                                                  \
		int n_;                                                       \
		EVP_DecryptUpdate((s)->d, (o), &n_, (i), (int)(l));           \
	} while (0)
#define EVP_HP1(s, i, m)     HP1_VIA(EVP_ENC, s, i, m)
#define EVP_HPN(s, i, m, n)  HPN_VIA(EVP_ENC, s, i, m, n)
#define EVP_HPUNP(s, p)      HPUNP_VIA(EVP_HP1, s, p)
DEFINE_RUNNERS(evp, struct evp_state, EVP_ENC, EVP_DEC, EVP_HP1, EVP_HPN,
               EVP_HPUNP, 1)

static int evp_setup(struct evp_state *s, int bits)
{
	const EVP_CIPHER *c = bits == 128 ? EVP_aes_128_ecb() : EVP_aes_256_ecb();

	s->e = EVP_CIPHER_CTX_new();
	s->d = EVP_CIPHER_CTX_new();
	if (s->e == NULL || s->d == NULL ||
	    EVP_EncryptInit_ex(s->e, c, NULL, key, NULL) != 1 ||
	    EVP_DecryptInit_ex(s->d, c, NULL, key, NULL) != 1)
		return -1;
	EVP_CIPHER_CTX_set_padding(s->e, 0);
	EVP_CIPHER_CTX_set_padding(s->d, 0);
	return 0;
}

static void evp_done(struct evp_state *s)
{
	EVP_CIPHER_CTX_free(s->e);   /* cleanses the key schedule */
	EVP_CIPHER_CTX_free(s->d);
}

/* OpenSSL's low-level AES_encrypt: deprecated since 3.0, used while it
 * is still exported (the deprecation warning is silenced here only). */
#ifndef OPENSSL_NO_DEPRECATED_3_0
#define HAVE_OSSL_LOWLEVEL 1
struct ossl_aes_state {
	AES_KEY e, d;
};
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
static inline void ossl_enc(const struct ossl_aes_state *s, uint8_t *o,
                            const uint8_t *i, size_t l)
{
	size_t k;

	for (k = 0; k < l; k += 16)
		AES_encrypt(i + k, o + k, &s->e);
}

static inline void ossl_dec(const struct ossl_aes_state *s, uint8_t *o,
                            const uint8_t *i, size_t l)
{
	size_t k;

	for (k = 0; k < l; k += 16)
		AES_decrypt(i + k, o + k, &s->d);
}

static int ossl_setup(struct ossl_aes_state *s, int bits)
{
	return AES_set_encrypt_key(key, bits, &s->e) == 0 &&
	       AES_set_decrypt_key(key, bits, &s->d) == 0 ? 0 : -1;
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#define OS_ENC(s, o, i, l)   ossl_enc((s), (o), (i), (l))
#define OS_DEC(s, o, i, l)   ossl_dec((s), (o), (i), (l))
#define OS_HP1(s, i, m)      HP1_VIA(OS_ENC, s, i, m)
#define OS_HPN(s, i, m, n)   HPN_VIA(OS_ENC, s, i, m, n)
#define OS_HPUNP(s, p)       HPUNP_VIA(OS_HP1, s, p)
DEFINE_RUNNERS(ossl, struct ossl_aes_state, OS_ENC, OS_DEC, OS_HP1, OS_HPN,
               OS_HPUNP, 1)
#endif /* OPENSSL_NO_DEPRECATED_3_0 */

/*
 * Does OPENSSL_ia32cap hide AES-NI from OpenSSL?  "~MASK" clears the bits
 * of MASK from what the CPU reports, a plain value replaces it; AES-NI is
 * bit 57 of the first word (CPUID.1:ECX bit 25).  EVP's AES then runs
 * OpenSSL's vector-permute code (vpaes) where the CPU has SSSE3.
 */
#define OSSL_AESNI_BIT ((unsigned long long)1 << 57)
#define OSSL_NO_AESNI "~0x200000000000000"
static int ossl_aesni_masked(void)
{
	const char *v = getenv("OPENSSL_ia32cap");
	unsigned long long x;
	int inv;

	if (v == NULL || *v == '\0' || *v == ':')
		return 0;
	inv = *v == '~';
	x = strtoull(v + inv, NULL, 0);
	return inv ? (x & OSSL_AESNI_BIT) != 0 : (x & OSSL_AESNI_BIT) == 0;
}
#endif /* HAVE_OPENSSL */

#ifdef HAVE_NETTLE
/* nettle, key-size specific functions, contexts kept */
struct nettle128_state {
	struct aes128_ctx e, d;
};
struct nettle256_state {
	struct aes256_ctx e, d;
};
#define N128_ENC(s, o, i, l) aes128_encrypt(&(s)->e, (l), (o), (i))
#define N128_DEC(s, o, i, l) aes128_decrypt(&(s)->d, (l), (o), (i))
#define N128_HP1(s, i, m)    HP1_VIA(N128_ENC, s, i, m)
#define N128_HPN(s, i, m, n) HPN_VIA(N128_ENC, s, i, m, n)
#define N128_HPUNP(s, p)     HPUNP_VIA(N128_HP1, s, p)
DEFINE_RUNNERS(n128, struct nettle128_state, N128_ENC, N128_DEC, N128_HP1,
               N128_HPN, N128_HPUNP, 1)
#define N256_ENC(s, o, i, l) aes256_encrypt(&(s)->e, (l), (o), (i))
#define N256_DEC(s, o, i, l) aes256_decrypt(&(s)->d, (l), (o), (i))
#define N256_HP1(s, i, m)    HP1_VIA(N256_ENC, s, i, m)
#define N256_HPN(s, i, m, n) HPN_VIA(N256_ENC, s, i, m, n)
#define N256_HPUNP(s, p)     HPUNP_VIA(N256_HP1, s, p)
DEFINE_RUNNERS(n256, struct nettle256_state, N256_ENC, N256_DEC, N256_HP1,
               N256_HPN, N256_HPUNP, 1)
#endif

#ifdef HAVE_BEARSSL
/*
 * BearSSL: one block is CBC under a zero IV (exactly ECB), copied to the
 * output and run in place there; longer inputs are CTR (encryption) and
 * CBC (decryption), in place in the output buffer.
 */
#define BR_DEFINE(P, KIND)                                                    \
struct P##_state {                                                            \
	br_aes_##KIND##_cbcenc_keys ce;                                       \
	br_aes_##KIND##_cbcdec_keys cd;                                       \
	br_aes_##KIND##_ctr_keys ctr;                                         \
};                                                                            \
static inline void P##_enc(const struct P##_state *s, uint8_t *o,            \
                           const uint8_t *i, size_t l)                        \
{                                                                             \
	static const uint8_t nonce[12];                                       \
	uint8_t iv[16] = { 0 };                                               \
	if (l == 16) {                                                        \
		memmove(o, i, 16);                                            \
		br_aes_##KIND##_cbcenc_run(&s->ce, iv, o, 16);                \
	} else {                                                              \
		br_aes_##KIND##_ctr_run(&s->ctr, nonce, 0, o, l);             \
	}                                                                     \
}                                                                             \
static inline void P##_dec(const struct P##_state *s, uint8_t *o,            \
                           const uint8_t *i, size_t l)                        \
{                                                                             \
	uint8_t iv[16] = { 0 };                                               \
	if (l == 16)                                                          \
		memmove(o, i, 16);                                            \
	br_aes_##KIND##_cbcdec_run(&s->cd, iv, o, l);                         \
}                                                                             \
static void P##_setup(struct P##_state *s, int bits)                          \
{                                                                             \
	br_aes_##KIND##_cbcenc_init(&s->ce, key, (size_t)bits / 8);           \
	br_aes_##KIND##_cbcdec_init(&s->cd, key, (size_t)bits / 8);           \
	br_aes_##KIND##_ctr_init(&s->ctr, key, (size_t)bits / 8);             \
}
#define BR_RUNNERS(P)                                                         \
	DEFINE_RUNNERS(P, struct P##_state, P##_ENC, P##_DEC, P##_HP1,        \
	               P##_HPN, P##_HPUNP, 0)

BR_DEFINE(brct64, ct64)
#define brct64_ENC(s, o, i, l)   brct64_enc((s), (o), (i), (l))
#define brct64_DEC(s, o, i, l)   brct64_dec((s), (o), (i), (l))
#define brct64_HP1(s, i, m)      HP1_VIA(brct64_ENC, s, i, m)
#define brct64_HPN(s, i, m, n)   HPN_EACH(brct64_HP1, s, i, m, n)
#define brct64_HPUNP(s, p)       HPUNP_VIA(brct64_HP1, s, p)
BR_RUNNERS(brct64)

#ifdef HAVE_BEARSSL_X86NI
BR_DEFINE(brni, x86ni)
#define brni_ENC(s, o, i, l)     brni_enc((s), (o), (i), (l))
#define brni_DEC(s, o, i, l)     brni_dec((s), (o), (i), (l))
#define brni_HP1(s, i, m)        HP1_VIA(brni_ENC, s, i, m)
#define brni_HPN(s, i, m, n)     HPN_EACH(brni_HP1, s, i, m, n)
#define brni_HPUNP(s, p)         HPUNP_VIA(brni_HP1, s, p)
BR_RUNNERS(brni)
#endif
#endif /* HAVE_BEARSSL */

#ifdef HAVE_MBEDTLS
/* mbed TLS: its ECB call, one block per call, contexts kept */
struct mbed_state {
	mbedtls_aes_context e, d;
};
static inline void mbed_crypt(mbedtls_aes_context *c, int mode, uint8_t *o,
                              const uint8_t *i, size_t l)
{
	size_t k;

	for (k = 0; k < l; k += 16)
		mbedtls_aes_crypt_ecb(c, mode, i + k, o + k);
}
#define MB_ENC(s, o, i, l)   mbed_crypt(&(s)->e, MBEDTLS_AES_ENCRYPT, (o), (i), (l))
#define MB_DEC(s, o, i, l)   mbed_crypt(&(s)->d, MBEDTLS_AES_DECRYPT, (o), (i), (l))
#define MB_HP1(s, i, m)      HP1_VIA(MB_ENC, s, i, m)
#define MB_HPN(s, i, m, n)   HPN_VIA(MB_ENC, s, i, m, n)
#define MB_HPUNP(s, p)       HPUNP_VIA(MB_HP1, s, p)
DEFINE_RUNNERS(mbed, struct mbed_state, MB_ENC, MB_DEC, MB_HP1, MB_HPN,
               MB_HPUNP, 1)

static int mbed_setup(struct mbed_state *s, int bits)
{
	mbedtls_aes_init(&s->e);
	mbedtls_aes_init(&s->d);
	return mbedtls_aes_setkey_enc(&s->e, key, (unsigned)bits) == 0 &&
	       mbedtls_aes_setkey_dec(&s->d, key, (unsigned)bits) == 0 ? 0 : -1;
}

static void mbed_done(struct mbed_state *s)
{
	mbedtls_aes_free(&s->e);     /* zeroises the key schedule */
	mbedtls_aes_free(&s->d);
}
#endif

/* ------------------------------------------------------------------ */
/* The implementations of one key size */

#define MAX_IMPL 16
#define MAX_ROUNDS 99

struct impl {
	char name[40];
	bench_fn *const *run;
	int (*check)(void *state);
	void *state;
};

static struct impl impls[MAX_IMPL];
static int nimpl;

/* States, one of each kind, for the key size being measured. */
static struct aesecb_state ae_st[MAX_IMPL];
#ifdef HAVE_OPENSSL
static struct evp_state evp_st;
#ifdef HAVE_OSSL_LOWLEVEL
static struct ossl_aes_state ossl_st;
#endif
#endif
#ifdef HAVE_NETTLE
static struct nettle128_state n128_st;
static struct nettle256_state n256_st;
#endif
#ifdef HAVE_BEARSSL
static struct brct64_state brct64_st;
#ifdef HAVE_BEARSSL_X86NI
static struct brni_state brni_st;
#endif
#endif
#ifdef HAVE_MBEDTLS
static struct mbed_state mbed_st;
#endif

static const char *const *only;  /* --only: name prefixes (NULL: all) */
static int nonly;

static int wanted(const char *name)
{
	int k;

	if (only == NULL)
		return 1;
	for (k = 0; k < nonly; k++)
		if (strncmp(name, only[k], strlen(only[k])) == 0)
			return 1;
	return 0;
}

static void add(const char *name, bench_fn *const *run, int (*check)(void *),
                void *state)
{
	if (nimpl >= MAX_IMPL || !wanted(name))
		return;
	snprintf(impls[nimpl].name, sizeof impls[nimpl].name, "%s", name);
	impls[nimpl].run = run;
	impls[nimpl].check = check;
	impls[nimpl].state = state;
	nimpl++;
}

/* Set up every implementation for this key size; 0 or -1 (message
 * printed). */
static int setup_all(int bits)
{
	size_t b, na = 0;

	nimpl = 0;
	for (b = 0; b < aesecb_backend_count() && na < MAX_IMPL; b++) {
		const aesecb_backend *be = aesecb_backend_get(b);
		char name[40];

		if (!aesecb_backend_available(be))
			continue;
		snprintf(name, sizeof name, "aesecb %s", aesecb_backend_name(be));
		if (!wanted(name))
			continue;
		if (aesecb_init(&ae_st[na].ctx, key, (size_t)bits / 8, be) != AESECB_OK) {
			fprintf(stderr, "peers: aesecb %s: init failed\n",
			        aesecb_backend_name(be));
			return -1;
		}
		add(name, ae_runners, ae_check, &ae_st[na++]);
	}
#ifdef HAVE_OPENSSL
	if (evp_setup(&evp_st, bits) != 0) {
		fprintf(stderr, "peers: OpenSSL EVP setup failed\n");
		return -1;
	}
	add(ossl_aesni_masked() ? "openssl EVP no-AESNI" : "openssl EVP",
	    evp_runners, evp_check, &evp_st);
#ifdef HAVE_OSSL_LOWLEVEL
	if (ossl_setup(&ossl_st, bits) != 0) {
		fprintf(stderr, "peers: AES_set_encrypt_key failed\n");
		return -1;
	}
	add("openssl AES_encrypt", ossl_runners, ossl_check, &ossl_st);
#endif
#endif
#ifdef HAVE_NETTLE
	if (bits == 128) {
		nettle_aes128_set_encrypt_key(&n128_st.e, key);
		nettle_aes128_set_decrypt_key(&n128_st.d, key);
		add("nettle", n128_runners, n128_check, &n128_st);
	} else {
		nettle_aes256_set_encrypt_key(&n256_st.e, key);
		nettle_aes256_set_decrypt_key(&n256_st.d, key);
		add("nettle", n256_runners, n256_check, &n256_st);
	}
#endif
#ifdef HAVE_BEARSSL
	brct64_setup(&brct64_st, bits);
	add("bearssl ct64", brct64_runners, brct64_check, &brct64_st);
#ifdef HAVE_BEARSSL_X86NI
	if (br_aes_x86ni_cbcenc_get_vtable() != NULL) {
		brni_setup(&brni_st, bits);
		add("bearssl x86ni", brni_runners, brni_check, &brni_st);
	}
#endif
#endif
#ifdef HAVE_MBEDTLS
	if (mbed_setup(&mbed_st, bits) != 0) {
		fprintf(stderr, "peers: mbed TLS setup failed\n");
		return -1;
	}
	add("mbedtls", mbed_runners, mbed_check, &mbed_st);
#endif
	return 0;
}

static void done_all(void)
{
	int i;

	for (i = 0; i < MAX_IMPL; i++)
		aesecb_clear(&ae_st[i].ctx);
#ifdef HAVE_OPENSSL
	evp_done(&evp_st);
#ifdef HAVE_OSSL_LOWLEVEL
	aesecb_wipe(&ossl_st, sizeof ossl_st);
#endif
#endif
#ifdef HAVE_NETTLE
	aesecb_wipe(&n128_st, sizeof n128_st);
	aesecb_wipe(&n256_st, sizeof n256_st);
#endif
#ifdef HAVE_BEARSSL
	aesecb_wipe(&brct64_st, sizeof brct64_st);
#ifdef HAVE_BEARSSL_X86NI
	aesecb_wipe(&brni_st, sizeof brni_st);
#endif
#endif
#ifdef HAVE_MBEDTLS
	mbed_done(&mbed_st);
#endif
}

/* The expected outputs, from aesecb's portable backend; 0 or -1. */
static int make_expected(int bits)
{
	aesecb_ctx c;
	int rc;

	rc = aesecb_init(&c, key, (size_t)bits / 8, aesecb_backend_find("none"));
	if (rc == AESECB_OK)
		rc = aesecb_encrypt(&c, in_buf, want_ct, sizeof want_ct);
	if (rc == AESECB_OK)
		rc = aesecb_hp_masks(&c, in_buf, want_mask, CHECK_BLOCKS);
	aesecb_clear(&c);
	return rc == AESECB_OK ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* Rounds and the tables */

/* meas[(r * MAX_IMPL + i) * NW + w] */
static struct bench_meas *meas;

static const struct bench_meas *M(int r, int i, int w)
{
	return &meas[((size_t)r * MAX_IMPL + (size_t)i) * NW + (size_t)w];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of v[0..n) (sorted in place), and its range. */
static double median(double *v, int n, double *lo, double *hi)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	if (lo != NULL)
		*lo = v[0];
	if (hi != NULL)
		*hi = v[n - 1];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ns per operation of implementation i, workload w, round r */
static double per_op(int r, int i, int w)
{
	return M(r, i, w)->ns / wper[w];
}

static int starred;

/* kind 0: ns per operation; 1: cycles per byte; 2: ratio to ref */
static void print_table(int kind, int rounds, int ref, double core_ghz)
{
	double v[MAX_ROUNDS];
	int i, w, r;

	if (kind == 0)
		printf("  %-22s", "ns per operation");
	else if (kind == 1)
		printf("  %-22s", BENCH_HAVE_TSC ? "cycles/byte (TSC)"
		                                 : "cycles/byte (est.)");
	else
		printf("  %-22s", "time / reference");
	for (w = 0; w < NW; w++)
		printf(" %9s ", wname[w]);
	putchar('\n');
	for (i = 0; i < nimpl; i++) {
		printf("  %-22s", impls[i].name);
		for (w = 0; w < NW; w++) {
			char cell[32];
			int star = 0;

			for (r = 0; r < rounds; r++) {
				const struct bench_meas *m = M(r, i, w);

				star |= m->descheduled;
				if (kind == 0)
					v[r] = per_op(r, i, w);
				else if (kind == 1)
					v[r] = (BENCH_HAVE_TSC ? m->ticks : m->ns * core_ghz) /
					       wper[w] / (double)wbytes[w];
				else
					v[r] = per_op(r, i, w) / per_op(r, ref, w);
			}
			if (kind == 2 && i == ref) {
				snprintf(cell, sizeof cell, "%s", "ref ");
			} else {
				double med = median(v, rounds, NULL, NULL);

				/* ns: two decimals below 10 (a mask is ~1 ns) */
				snprintf(cell, sizeof cell,
				         kind == 0 ? (med < 10 ? "%.2f%s" : "%.1f%s")
				                   : kind == 1 ? "%.3f%s" : "%.2f%s",
				         med, kind < 2 && star ? "*" : " ");
				starred |= kind < 2 && star;
			}
			printf(" %10s", cell);
		}
		putchar('\n');
	}
}

/* Each ratio to the reference: median [range], then round by round. */
static void print_rounds(int rounds, int ref)
{
	double v[MAX_ROUNDS], s[MAX_ROUNDS], lo, hi, med;
	int i, w, r;

	printf("\n  time / %s, per round: median [lowest, highest]: round 1, 2, ...\n",
	       impls[ref].name);
	for (w = 0; w < NW; w++) {
		printf("  %s\n", wname[w]);
		for (i = 0; i < nimpl; i++) {
			if (i == ref)
				continue;
			for (r = 0; r < rounds; r++)
				s[r] = v[r] = per_op(r, i, w) / per_op(r, ref, w);
			med = median(s, rounds, &lo, &hi);
			printf("    %-22s %6.3g [%.3g, %.3g]:", impls[i].name, med, lo, hi);
			for (r = 0; r < rounds; r++)
				printf(" %.3g", v[r]);
			putchar('\n');
		}
	}
}

/* The file that holds a function's code: the last part of its shared
 * object's name, or "this program" (linked in statically). */
static const char *code_file(uintptr_t fn)
{
#ifdef HAVE_CODE_FILE
	Dl_info info, self;
	const char *slash;

	if (dladdr((void *)fn, &info) == 0 || info.dli_fname == NULL)
		return "?";
	if (dladdr((void *)(uintptr_t)code_file, &self) != 0 &&
	    self.dli_fbase == info.dli_fbase)
		return "this program";
	slash = strrchr(info.dli_fname, '/');
	return slash != NULL ? slash + 1 : info.dli_fname;
#else
	(void)fn;
	return "?";
#endif
}

static void usage(FILE *f, const char *argv0)
{
	fprintf(f,
	        "usage: %s [--quick] [--rounds N] [--ref NAME] [--only LIST]\n"
	        "       [--figure-ms MS] [--openssl-vpaes]\n"
	        "  --quick          shorter figures (~4 ms each instead of ~40)\n"
	        "  --rounds N       interleaved rounds, 1 to %d (default 5)\n"
	        "  --figure-ms MS   milliseconds of work per figure (1 to 10000)\n"
	        "  --ref NAME       implementation the ratios divide by (a row\n"
	        "                   name, e.g. 'aesecb ssse3'; default nettle,\n"
	        "                   else the first peer)\n"
	        "  --only LIST      comma-separated name prefixes of the rows to\n"
	        "                   measure, e.g. 'aesecb ssse3,openssl EVP'\n"
	        "  --openssl-vpaes  run again with OPENSSL_ia32cap=%s:\n"
	        "                   OpenSSL without AES-NI (its vpaes code)\n",
	        argv0, MAX_ROUNDS,
#ifdef HAVE_OPENSSL
	        OSSL_NO_AESNI
#else
	        "..."
#endif
	        );
}

static int parse_int(const char *opt, const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "peers: %s: not a number from %ld to %ld\n", opt,
		        lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Split a copy of --only's list (argv stays whole for --openssl-vpaes). */
static const char *only_list[MAX_IMPL];

static int parse_only(const char *arg)
{
	char *s = strdup(arg), *p;

	if (s == NULL) {
		fprintf(stderr, "peers: out of memory\n");
		return -1;
	}
	for (nonly = 0, p = strtok(s, ","); p != NULL; p = strtok(NULL, ",")) {
		if (nonly >= MAX_IMPL) {
			fprintf(stderr, "peers: --only: more than %d names\n", MAX_IMPL);
			return -1;
		}
		only_list[nonly++] = p;
	}
	if (nonly == 0) {
		fprintf(stderr, "peers: --only: no name given\n");
		return -1;
	}
	only = only_list;
	return 0;
}

int main(int argc, char **argv)
{
	static const int bits_list[2] = { 128, 256 };
	double target = 40e6, core_ghz, tghz = 0;
	const char *ref_name = NULL;
	char cpu[256], ident[128], date[64];
	time_t now = time(NULL);
	size_t b, i;
	int k, w, r, rounds = 5, vpaes = 0;
	long v;

	for (k = 1; k < argc; k++) {
		const char *a = argv[k];

		if (strcmp(a, "--quick") == 0) {
			target = 4e6;
		} else if (strcmp(a, "--rounds") == 0 && k + 1 < argc) {
			if (parse_int(a, argv[++k], 1, MAX_ROUNDS, &v) != 0)
				return 2;
			rounds = (int)v;
		} else if (strcmp(a, "--figure-ms") == 0 && k + 1 < argc) {
			if (parse_int(a, argv[++k], 1, 10000, &v) != 0)
				return 2;
			target = (double)v * 1e6;
		} else if (strcmp(a, "--ref") == 0 && k + 1 < argc) {
			ref_name = argv[++k];
		} else if (strcmp(a, "--only") == 0 && k + 1 < argc) {
			if (parse_only(argv[++k]) != 0)
				return 2;
		} else if (strcmp(a, "--openssl-vpaes") == 0) {
			vpaes = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout, argv[0]);
			return 0;
		} else {
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (vpaes) {
#ifdef HAVE_OPENSSL
		/* libcrypto reads OPENSSL_ia32cap once, when it is loaded */
		if (!ossl_aesni_masked()) {
			if (setenv("OPENSSL_ia32cap", OSSL_NO_AESNI, 1) != 0) {
				fprintf(stderr, "peers: --openssl-vpaes: setenv: %s\n",
				        strerror(errno));
				return 1;
			}
			execv("/proc/self/exe", argv);
			fprintf(stderr, "peers: --openssl-vpaes: cannot run "
			        "/proc/self/exe again: %s\n", strerror(errno));
			return 1;
		}
#else
		fprintf(stderr, "peers: --openssl-vpaes: OpenSSL not built in\n");
		return 2;
#endif
	}
	meas = calloc((size_t)rounds * MAX_IMPL * NW, sizeof *meas);
	if (meas == NULL) {
		fprintf(stderr, "peers: out of memory\n");
		return 1;
	}
	for (i = 0; i < sizeof in_buf; i++)
		in_buf[i] = (uint8_t)(i * 131 + 7);
	for (i = 0; i < sizeof pkt_buf; i++)   /* short headers (0x40 set) */
		pkt_buf[i] = i % HP_PKT == 0 ? 0x41 : (uint8_t)(i * 29 + 11);

	bench_cpu_model(cpu, sizeof cpu);
	bench_cpu_ident(ident, sizeof ident);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	core_ghz = bench_core_ghz(25e6, NULL);
	tghz = bench_tsc_ghz(50000000u);

	printf("aesecb %s peer comparison, %s\n", aesecb_version(), date);
	printf("machine: %s%s%s%s, %ld logical CPUs online\n", cpu,
	       *ident ? " (" : "", ident, *ident ? ")" : "",
	       sysconf(_SC_NPROCESSORS_ONLN));
#ifdef HAVE_OPENSSL
	printf("peers:   %s%s", OpenSSL_version(OPENSSL_VERSION),
	       ossl_aesni_masked() ? " with AES-NI masked by OPENSSL_ia32cap" : "");
#else
	printf("peers:   OpenSSL not built in");
#endif
#ifdef HAVE_NETTLE
	printf("; nettle %d.%d", nettle_version_major(), nettle_version_minor());
#else
	printf("; nettle not built in");
#endif
#ifdef HAVE_BEARSSL
	printf("; BearSSL");
#ifdef HAVE_BEARSSL_X86NI
	if (br_aes_x86ni_cbcenc_get_vtable() == NULL)
		printf(" (x86ni: not on this CPU)");
#endif
#else
	printf("; BearSSL not built in");
#endif
#ifdef HAVE_MBEDTLS
	{
		char mv[32] = MBEDTLS_VERSION_STRING;
#ifdef MBEDTLS_VERSION_C
		mbedtls_version_get_string(mv);
#endif
		printf("; mbed TLS %s\n", mv);
	}
#else
	printf("; mbed TLS not built in\n");
#endif
	printf("code:    aesecb in %s", code_file((uintptr_t)aesecb_encrypt));
#ifdef HAVE_OPENSSL
	printf(", OpenSSL in %s", code_file((uintptr_t)EVP_EncryptUpdate));
#endif
#ifdef HAVE_NETTLE
	printf(", nettle in %s", code_file((uintptr_t)nettle_aes128_encrypt));
#endif
#ifdef HAVE_BEARSSL
	printf(", BearSSL in %s", code_file((uintptr_t)br_aes_ct64_cbcenc_run));
#endif
#ifdef HAVE_MBEDTLS
	printf(", mbed TLS in %s", code_file((uintptr_t)mbedtls_aes_crypt_ecb));
#endif
	printf("\n");
	if (BENCH_HAVE_TSC)
		printf("cycles:  TSC ticks; TSC %.3f GHz (measured), core clock "
		       "estimated at %.2f GHz (core cycles ~ TSC x %.2f)\n",
		       tghz, core_ghz, core_ghz / tghz);
	else
		printf("cycles:  ns x %.2f GHz, the core clock estimated from "
		       "dependent additions\n", core_ghz);
	printf("method:  %d rounds; in each, every implementation is measured "
	       "once per workload,\n         in turn (the order rotated from "
	       "round to round); a figure is the fastest\n         of %d runs "
	       "of ~%.1f ms that kept the CPU, after calibration and warm-up;\n"
	       "         tables: medians over the rounds (ratios: of the "
	       "per-round ratios);\n         nothing pinned\n",
	       rounds, BENCH_REPS, target / BENCH_REPS / 1e6);
	printf("columns:\n");
	for (w = 0; w < NW; w++)
		printf("  %-10s %s\n", wname[w], wdesc[w]);
	printf("notes:   the peers make a mask with a 16-byte ECB call and keep "
	       "5 bytes;\n         hp-xN: one ECB call of N blocks (BearSSL, "
	       "mbed TLS: N one-block calls)\n");
#ifdef HAVE_BEARSSL
	printf("         BearSSL has no ECB: one block is CBC under a zero IV "
	       "(exactly ECB);\n         16K-enc is CTR, 16K-dec CBC (the same "
	       "AES work per block, plus an XOR)\n");
#endif
#ifdef HAVE_OPENSSL
	if (ossl_aesni_masked())
		printf("         OpenSSL runs without AES-NI (OPENSSL_ia32cap=%s): "
		       "EVP is its vpaes code\n", getenv("OPENSSL_ia32cap"));
#endif
	for (b = 0; b < aesecb_backend_count(); b++) {
		const aesecb_backend *be = aesecb_backend_get(b);
		const char *why = aesecb_backend_unavailable_reason(be);

		if (why != NULL)
			printf("skipped: aesecb %s (%s)\n", aesecb_backend_name(be), why);
	}
	fflush(stdout);

	for (k = 0; k < 2; k++) {
		int bits = bits_list[k], ref = -1, x;

		if (make_expected(bits) != 0) {
			fprintf(stderr, "peers: aesecb none: AES-%d failed\n", bits);
			return 1;
		}
		if (setup_all(bits) != 0)
			return 1;
		if (nimpl == 0) {
			fprintf(stderr, "peers: --only: no implementation matches\n");
			return 2;
		}
		for (x = 0; x < nimpl; x++) {
			int bad = impls[x].check(impls[x].state);

			if (bad != 0) {
				fprintf(stderr, "peers: %s: AES-%d gives wrong output "
				        "(check bits %#x)\n", impls[x].name, bits,
				        (unsigned)bad);
				return 1;
			}
		}
		for (x = 0; x < nimpl && ref < 0; x++)
			if (ref_name != NULL ? strcmp(impls[x].name, ref_name) == 0
			                     : strcmp(impls[x].name, "nettle") == 0)
				ref = x;
		for (x = 0; x < nimpl && ref < 0 && ref_name == NULL; x++)
			if (strncmp(impls[x].name, "aesecb ", 7) != 0)
				ref = x;
		if (ref < 0 && ref_name == NULL)
			ref = 0;
		if (ref < 0) {
			fprintf(stderr, "peers: --ref: no implementation named '%s'; "
			        "there are:", ref_name);
			for (x = 0; x < nimpl; x++)
				fprintf(stderr, "%s '%s'", x ? "," : "", impls[x].name);
			fputc('\n', stderr);
			return 2;
		}
		for (r = 0; r < rounds; r++)
			for (w = 0; w < NW; w++)
				for (x = 0; x < nimpl; x++) {
					int y = (x + r) % nimpl;

					bench_measure(impls[y].run[w], impls[y].state, target,
					              BENCH_REPS,
					              &meas[((size_t)r * MAX_IMPL + (size_t)y) * NW
					                    + (size_t)w]);
				}
		printf("\nAES-%d, medians of %d rounds; reference: %s\n", bits,
		       rounds, impls[ref].name);
		print_table(0, rounds, ref, core_ghz);
		print_table(1, rounds, ref, core_ghz);
		print_table(2, rounds, ref, core_ghz);
		print_rounds(rounds, ref);
		fflush(stdout);
		done_all();
	}
	if (starred)
		printf("\n* in some round every run lost the CPU to other processes: "
		       "CPU time used there,\n  cycles scaled to match\n");
	free(meas);
	return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
}
