/* SPDX-License-Identifier: MIT */
/*
 * backend_armce.c - AES with the ARMv8 Cryptography Extensions (AArch64).
 *
 * AESE k:  state = SubBytes(ShiftRows(state ^ k))
 * AESMC:   state = MixColumns(state)
 * AESD k:  state = InvSubBytes(InvShiftRows(state ^ k))
 * AESIMC:  state = InvMixColumns(state)
 *
 * Encryption with round keys rk[0..nr]:
 *     for i in 0 .. nr-2:  s = AESMC(AESE(s, rk[i]))
 *     s = AESE(s, rk[nr-1]) ^ rk[nr]
 * Decryption uses the equivalent inverse cipher: dk[0] = rk[nr],
 * dk[i] = InvMixColumns(rk[nr-i]) for 0 < i < nr, dk[nr] = rk[0]; then the
 * same shape with AESD/AESIMC.  dk is computed once in setkey, so the block
 * functions only load keys, and keep keys and blocks in registers: they
 * are declared register-only (AESECB_REGS_BLOCKS, lib/internal.h).
 *
 * The key expansion needs SubWord without a table: AESE with a zero key on
 * a vector whose four columns all hold the word w gives SubBytes(w) in
 * every column (ShiftRows only moves bytes between equal columns).
 *
 * The target is set per function; the rest of the library is built for
 * the baseline architecture.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "internal.h"

#if defined(AESECB_WITH_ARMCE) && defined(__aarch64__)
#include <arm_neon.h>

#if defined(__clang__)
#define TARGET_CE __attribute__((target("aes")))
#else
#define TARGET_CE __attribute__((target("+crypto")))
#endif

/* Layout in ctx->priv_keys: 15 encryption, then 15 decryption keys. */
#define ENC_OFF 0
#define DEC_OFF 15

#define INLINE static inline __attribute__((always_inline))

INLINE uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

INLINE void store32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

TARGET_CE INLINE uint32_t sub_word(uint32_t w)
{
	uint8x16_t v = vreinterpretq_u8_u32(vdupq_n_u32(w));

	v = vaeseq_u8(v, vdupq_n_u8(0));
	return vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
}

/* A burned call (lib/aesecb.c): w and the compiler's spills are
 * overwritten after it returns; the helpers above are inlined. */
TARGET_CE
static void setkey(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                   aesecb_stack *stk)
{
	/* Words are little-endian loads of the key bytes, so byte 0 of the
	 * standard's word is the low byte here and RotWord is a rotate
	 * right by 8. */
	uint32_t w[60];
	size_t nk = key_len / 4, nr = ctx->priv_rounds, total = 4 * (nr + 1);
	size_t i;
	uint32_t rcon = 1;
	uint8_t *rk = ctx->priv_keys.b;

	aesecb__stack_mark(stk);
	for (i = 0; i < nk; i++)
		w[i] = load32(key + 4 * i);
	for (i = nk; i < total; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = sub_word((t >> 8) | (t << 24)) ^ rcon;
			/* xtime on the round constant (public data) */
			rcon = (rcon << 1) ^ (0x11b & -(rcon >> 7));
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (i = 0; i < total; i++)
		store32(rk + 16 * ENC_OFF + 4 * i, w[i]);

	/* Decryption keys for the equivalent inverse cipher. */
	memcpy(rk + 16 * DEC_OFF, rk + 16 * (ENC_OFF + nr), 16);
	for (i = 1; i < nr; i++) {
		uint8x16_t k = vld1q_u8(rk + 16 * (ENC_OFF + nr - i));
		vst1q_u8(rk + 16 * (DEC_OFF + i), vaesimcq_u8(k));
	}
	memcpy(rk + 16 * (DEC_OFF + nr), rk + 16 * ENC_OFF, 16);
}

/*
 * The block loops, written for a constant round count so that the compiler
 * unrolls them completely and keeps all round keys (up to 15) and eight
 * blocks in the 32 vector registers, with each AESE/AESMC pair adjacent.
 */
#define ROUND_E(s, k)  (s) = vaesmcq_u8(vaeseq_u8((s), (k)))
#define ROUND_D(s, k)  (s) = vaesimcq_u8(vaesdq_u8((s), (k)))
#define LAST_E(s, k, z) (s) = veorq_u8(vaeseq_u8((s), (k)), (z))
#define LAST_D(s, k, z) (s) = veorq_u8(vaesdq_u8((s), (k)), (z))
#define UNROLL _Pragma("GCC unroll 16")

#define CRYPT_NR(name, ROUND, LAST)                                         \
TARGET_CE __attribute__((always_inline))                                    \
static inline void name(const uint8_t *rk, const uint8_t *in,              \
                        uint8_t *out, size_t n, const unsigned nr)          \
{                                                                           \
	uint8x16_t k[15];                                                   \
	unsigned r;                                                         \
                                                                            \
	UNROLL for (r = 0; r <= nr; r++)                                    \
		k[r] = vld1q_u8(rk + 16 * r);                               \
	for (; n >= 8; n -= 8, in += 128, out += 128) {                     \
		uint8x16_t s0 = vld1q_u8(in), s1 = vld1q_u8(in + 16);       \
		uint8x16_t s2 = vld1q_u8(in + 32), s3 = vld1q_u8(in + 48);  \
		uint8x16_t s4 = vld1q_u8(in + 64), s5 = vld1q_u8(in + 80);  \
		uint8x16_t s6 = vld1q_u8(in + 96), s7 = vld1q_u8(in + 112); \
		UNROLL for (r = 0; r + 1 < nr; r++) {                       \
			ROUND(s0, k[r]); ROUND(s1, k[r]);                   \
			ROUND(s2, k[r]); ROUND(s3, k[r]);                   \
			ROUND(s4, k[r]); ROUND(s5, k[r]);                   \
			ROUND(s6, k[r]); ROUND(s7, k[r]);                   \
		}                                                           \
		LAST(s0, k[nr - 1], k[nr]); LAST(s1, k[nr - 1], k[nr]);     \
		LAST(s2, k[nr - 1], k[nr]); LAST(s3, k[nr - 1], k[nr]);     \
		LAST(s4, k[nr - 1], k[nr]); LAST(s5, k[nr - 1], k[nr]);     \
		LAST(s6, k[nr - 1], k[nr]); LAST(s7, k[nr - 1], k[nr]);     \
		vst1q_u8(out, s0); vst1q_u8(out + 16, s1);                  \
		vst1q_u8(out + 32, s2); vst1q_u8(out + 48, s3);             \
		vst1q_u8(out + 64, s4); vst1q_u8(out + 80, s5);             \
		vst1q_u8(out + 96, s6); vst1q_u8(out + 112, s7);            \
	}                                                                   \
	for (; n > 0; n--, in += 16, out += 16) {                           \
		uint8x16_t s = vld1q_u8(in);                                \
		UNROLL for (r = 0; r + 1 < nr; r++)                         \
			ROUND(s, k[r]);                                     \
		LAST(s, k[nr - 1], k[nr]);                                  \
		vst1q_u8(out, s);                                           \
	}                                                                   \
}

CRYPT_NR(encrypt_nr, ROUND_E, LAST_E)
CRYPT_NR(decrypt_nr, ROUND_D, LAST_D)

TARGET_CE
static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * ENC_OFF;

	AESECB_MARK_UNOPTIMISED(stk);
	switch (ctx->priv_rounds) {
	case 10: encrypt_nr(rk, in, out, n, 10); break;
	case 12: encrypt_nr(rk, in, out, n, 12); break;
	default: encrypt_nr(rk, in, out, n, 14); break;
	}
	return AESECB_OK;
}

TARGET_CE
static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * DEC_OFF;

	AESECB_MARK_UNOPTIMISED(stk);
	switch (ctx->priv_rounds) {
	case 10: decrypt_nr(rk, in, out, n, 10); break;
	case 12: decrypt_nr(rk, in, out, n, 12); break;
	default: decrypt_nr(rk, in, out, n, 14); break;
	}
	return AESECB_OK;
}

static const struct aesecb_impl impl = {
	.setkey = setkey,
	.encrypt = encrypt_blocks,
	.decrypt = decrypt_blocks,
};
#define IMPL (&impl)
#else
#define IMPL NULL
#endif

AESECB_BACKEND(armce, "aarch64", AESECB_CPU_ARM_ASIMD | AESECB_CPU_ARM_AES,
               AESECB_REGS(AESECB_REGS_ONE | AESECB_REGS_BLOCKS), IMPL);
