/* SPDX-License-Identifier: MIT */
/*
 * peers.c - compare aesecb with OpenSSL and nettle on the same machine, in
 * one run.  Built on request ('make bench/peers'), never installed.
 *
 *   bench/peers [--quick]
 *
 * For AES-128 and AES-256 with the key schedule kept: one block per call
 * (independent calls, and dependent calls where each output is the next
 * input), 16 KiB ECB encrypt and decrypt, and the two QUIC header
 * protection shapes (one mask per call; 32 masks per call).  The peers
 * make a mask as a 16-byte ECB call followed by taking 5 bytes.
 *
 * Method, shared with 'aesecb bench' (bench/timing.h): calibrate the
 * iteration count, warm up, then keep the fastest of 20 timed runs that
 * kept the CPU (~0.2 s of work per figure, ~20 ms with --quick); a '*'
 * marks figures for which every run lost the CPU to other processes.
 * Cycles are TSC ticks on x86 (the TSC rate and an estimate of the core
 * clock are printed), otherwise ns times the estimated clock.
 * Every implementation runs the same loops, instantiated per library so
 * that each call goes straight to that library.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
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

/* ------------------------------------------------------------------ */
/* Workloads and the loop template */

#define HP_PKT 48          /* short header: 1 + 8-byte DCID, then the pn */
#define HP_PN_OFFSET 9

enum { W_BLK, W_CHAIN, W_ENC16K, W_DEC16K, W_HP1, W_HP32, W_HPUNP, NW };

static const char *const wname[NW] = {
	"block", "blk-chain", "16K-enc", "16K-dec", "hp-mask", "hp-x32",
	"hp-unprot"
};
static const char *const wdesc[NW] = {
	"one block per call, independent calls (64 different inputs)",
	"one block per call, each output is the next input (latency)",
	"16 KiB ECB encryption per call",
	"16 KiB ECB decryption per call",
	"one QUIC header-protection mask per call",
	"32 masks per batched call (figures per mask)",
	"header protection off a 48-byte short-header packet, in place",
};
static const size_t wbytes[NW] = { 16, 16, 16384, 16384, 16, 16, HP_PKT };
static const unsigned wper[NW] = { 1, 1, 1, 1, 1, 32, 1 };

#define RING 64
#define BIG 16384

static _Alignas(64) uint8_t in_buf[BIG];
static _Alignas(64) uint8_t out_buf[BIG];
static _Alignas(64) uint8_t mask_buf[RING * 5];
static _Alignas(64) uint8_t pkt_buf[RING * HP_PKT];

/*
 * The six loops for one implementation P with state type ST; ENC and DEC
 * (s, out, in, len) crypt len bytes, HP1 (s, sample, mask) makes one mask
 * and HP32 (s, samples, masks) makes 32.
 */
#define DEFINE_RUNNERS(P, ST, ENC, DEC, HP1, HP32, HPUNP)                     \
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
static void P##_hp32(void *arg, uint64_t n)                                   \
{                                                                             \
	ST *s = arg;                                                          \
	uint64_t i;                                                           \
	for (i = 0; i < n; i++)                                               \
		HP32(s, in_buf, out_buf);                                     \
	bench_sink ^= out_buf[5 * 32 - 1];                                    \
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
	P##_blk, P##_chain, P##_enc16k, P##_dec16k, P##_hp1, P##_hp32,        \
	P##_hpunp                                                             \
};

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
#define HP32_VIA(ENC, s, smp, msk)                                            \
	do {                                                                  \
		uint8_t b_[32 * 16];                                          \
		int k_;                                                       \
		ENC(s, b_, smp, sizeof b_);                                   \
		for (k_ = 0; k_ < 32; k_++)                                   \
			memcpy((msk) + 5 * k_, b_ + 16 * k_, 5);              \
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
#define AE_HP32(s, i, m)     aesecb_hp_masks(&(s)->ctx, (i), (m), 32)
#define AE_HPUNP(s, p)       aesecb_hp_unprotect(&(s)->ctx, (p), HP_PKT, HP_PN_OFFSET)
DEFINE_RUNNERS(ae, struct aesecb_state, AE_ENC, AE_DEC, AE_HP1, AE_HP32,
               AE_HPUNP)

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
#define EVP_HP32(s, i, m)    HP32_VIA(EVP_ENC, s, i, m)
#define EVP_HPUNP(s, p)      HPUNP_VIA(EVP_HP1, s, p)
DEFINE_RUNNERS(evp, struct evp_state, EVP_ENC, EVP_DEC, EVP_HP1, EVP_HP32,
               EVP_HPUNP)

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
#define OS_HP32(s, i, m)     HP32_VIA(OS_ENC, s, i, m)
#define OS_HPUNP(s, p)       HPUNP_VIA(OS_HP1, s, p)
DEFINE_RUNNERS(ossl, struct ossl_aes_state, OS_ENC, OS_DEC, OS_HP1, OS_HP32,
               OS_HPUNP)
#endif /* OPENSSL_NO_DEPRECATED_3_0 */
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
#define N128_HP32(s, i, m)   HP32_VIA(N128_ENC, s, i, m)
#define N128_HPUNP(s, p)     HPUNP_VIA(N128_HP1, s, p)
DEFINE_RUNNERS(n128, struct nettle128_state, N128_ENC, N128_DEC, N128_HP1, N128_HP32,
               N128_HPUNP)
#define N256_ENC(s, o, i, l) aes256_encrypt(&(s)->e, (l), (o), (i))
#define N256_DEC(s, o, i, l) aes256_decrypt(&(s)->d, (l), (o), (i))
#define N256_HP1(s, i, m)    HP1_VIA(N256_ENC, s, i, m)
#define N256_HP32(s, i, m)   HP32_VIA(N256_ENC, s, i, m)
#define N256_HPUNP(s, p)     HPUNP_VIA(N256_HP1, s, p)
DEFINE_RUNNERS(n256, struct nettle256_state, N256_ENC, N256_DEC, N256_HP1, N256_HP32,
               N256_HPUNP)
#endif

/* ------------------------------------------------------------------ */

#define MAX_IMPL 12

struct row {
	char name[32];
	struct bench_meas m[NW];
};

static void measure_row(struct row *row, const char *name,
                        bench_fn *const *runners, void *state, double target)
{
	int w;

	snprintf(row->name, sizeof row->name, "%s", name);
	for (w = 0; w < NW; w++)
		bench_measure(runners[w], state, target, BENCH_REPS, &row->m[w]);
}

static int starred;

static void print_table(const struct row *rows, int nrows, int cpb,
                        double core_ghz)
{
	int r, w;

	printf("  %-22s", cpb ? (BENCH_HAVE_TSC ? "cycles/byte (TSC)" : "cycles/byte (est.)")
	                      : "ns per operation");
	for (w = 0; w < NW; w++)
		printf(" %9s ", wname[w]);
	putchar('\n');
	for (r = 0; r < nrows; r++) {
		printf("  %-22s", rows[r].name);
		for (w = 0; w < NW; w++) {
			const struct bench_meas *m = &rows[r].m[w];
			double ns = m->ns / wper[w];
			double cyc = BENCH_HAVE_TSC ? m->ticks / wper[w] : ns * core_ghz;
			char cell[32];

			snprintf(cell, sizeof cell, cpb ? "%.3f%s" : "%.1f%s",
			         cpb ? cyc / (double)wbytes[w] : ns,
			         m->descheduled ? "*" : " ");
			printf(" %10s", cell);
			starred |= m->descheduled;
		}
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	static const int bits_list[2] = { 128, 256 };
	struct row rows[MAX_IMPL];
	double target = 200e6, core_ghz, tghz = 0;
	char cpu[256], date[64];
	time_t now = time(NULL);
	size_t b, i;
	int k, nrows, w;

	if (argc == 2 && strcmp(argv[1], "--quick") == 0) {
		target = 20e6;
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
		return 2;
	}
	for (i = 0; i < sizeof in_buf; i++)
		in_buf[i] = (uint8_t)(i * 131 + 7);
	for (i = 0; i < sizeof pkt_buf; i++)   /* short headers (0x40 set) */
		pkt_buf[i] = i % HP_PKT == 0 ? 0x41 : (uint8_t)(i * 29 + 11);

	bench_cpu_model(cpu, sizeof cpu);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	core_ghz = bench_core_ghz(25e6, NULL);
	tghz = bench_tsc_ghz(50000000u);

	printf("aesecb %s peer comparison, %s\n", aesecb_version(), date);
	printf("machine: %s, %ld logical CPUs online\n", cpu,
	       sysconf(_SC_NPROCESSORS_ONLN));
#ifdef HAVE_OPENSSL
	printf("peers:   %s", OpenSSL_version(OPENSSL_VERSION));
#else
	printf("peers:   OpenSSL not built in");
#endif
#ifdef HAVE_NETTLE
	printf("; nettle %d.%d\n", nettle_version_major(), nettle_version_minor());
#else
	printf("; nettle not built in\n");
#endif
	if (BENCH_HAVE_TSC)
		printf("cycles:  TSC ticks; TSC %.3f GHz (measured), core clock "
		       "estimated at %.2f GHz (core cycles ~ TSC x %.2f)\n",
		       tghz, core_ghz, core_ghz / tghz);
	else
		printf("cycles:  ns x %.2f GHz, the core clock estimated from "
		       "dependent additions\n", core_ghz);
	printf("method:  fastest of %d runs of ~%.0f ms that kept the CPU, after "
	       "calibration and warm-up;\n         nothing pinned\n",
	       BENCH_REPS, target / BENCH_REPS / 1e6);
	printf("columns:\n");
	for (w = 0; w < NW; w++)
		printf("  %-10s %s\n", wname[w], wdesc[w]);
	for (b = 0; b < aesecb_backend_count(); b++) {
		const aesecb_backend *be = aesecb_backend_get(b);
		const char *why = aesecb_backend_unavailable_reason(be);

		if (why != NULL)
			printf("skipped: aesecb %s (%s)\n", aesecb_backend_name(be), why);
	}
	fflush(stdout);

	for (k = 0; k < 2; k++) {
		int bits = bits_list[k];
		char name[32];

		nrows = 0;
		for (b = 0; b < aesecb_backend_count() && nrows < MAX_IMPL; b++) {
			const aesecb_backend *be = aesecb_backend_get(b);
			struct aesecb_state st;

			if (!aesecb_backend_available(be))
				continue;
			if (aesecb_init(&st.ctx, key, (size_t)bits / 8, be) != AESECB_OK) {
				fprintf(stderr, "peers: aesecb %s: init failed\n",
				        aesecb_backend_name(be));
				return 1;
			}
			snprintf(name, sizeof name, "aesecb %s", aesecb_backend_name(be));
			measure_row(&rows[nrows++], name, ae_runners, &st, target);
			aesecb_clear(&st.ctx);
		}
#ifdef HAVE_OPENSSL
		{
			struct evp_state st;

			if (evp_setup(&st, bits) != 0) {
				fprintf(stderr, "peers: OpenSSL EVP setup failed\n");
				return 1;
			}
			measure_row(&rows[nrows++], "openssl EVP", evp_runners, &st,
			            target);
			evp_done(&st);
		}
#ifdef HAVE_OSSL_LOWLEVEL
		{
			struct ossl_aes_state st;

			if (ossl_setup(&st, bits) != 0) {
				fprintf(stderr, "peers: AES_set_encrypt_key failed\n");
				return 1;
			}
			measure_row(&rows[nrows++], "openssl AES_encrypt", ossl_runners,
			            &st, target);
			aesecb_wipe(&st, sizeof st);
		}
#endif
#endif
#ifdef HAVE_NETTLE
		if (bits == 128) {
			struct nettle128_state st;

			nettle_aes128_set_encrypt_key(&st.e, key);
			nettle_aes128_set_decrypt_key(&st.d, key);
			measure_row(&rows[nrows++], "nettle", n128_runners, &st, target);
			aesecb_wipe(&st, sizeof st);
		} else {
			struct nettle256_state st;

			nettle_aes256_set_encrypt_key(&st.e, key);
			nettle_aes256_set_decrypt_key(&st.d, key);
			measure_row(&rows[nrows++], "nettle", n256_runners, &st, target);
			aesecb_wipe(&st, sizeof st);
		}
#endif
		printf("\nAES-%d\n", bits);
		print_table(rows, nrows, 0, core_ghz);
		print_table(rows, nrows, 1, core_ghz);
		fflush(stdout);
	}
	if (starred)
		printf("\n* every run lost the CPU to other processes: CPU time shown, "
		       "cycles scaled to match\n");
	return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
}
