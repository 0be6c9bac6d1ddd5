/* SPDX-License-Identifier: MIT */
/*
 * backend_vaes.c - AES with VAES on 256-bit ymm registers (AVX2), x86-64.
 *
 * VAES applies one AES round to two independent 16-byte blocks held in the
 * two 128-bit halves of a ymm register, each half with its own round key.
 * ECB uses the same key for both, so every round key is stored twice side
 * by side ("pre-broadcast"), and a round is one VAESENC with a 32-byte
 * memory or register operand.
 *
 * The instruction set is enabled per function with a target attribute;
 * the rest of the library stays baseline x86-64 and this code only runs
 * once the library has found what its descriptor needs: VAES, AVX2 (with
 * the OS saving the ymm state) and AES-NI.
 *
 * Context layout (ctx->priv_keys, 64-byte aligned, 960 bytes exactly):
 *
 *   bytes   0..479   encryption round keys ek[0..Nr], 32 bytes each (k|k)
 *   bytes 480..959   decryption round keys dk[0..Nr], 32 bytes each (k|k)
 *
 * Single blocks use the low 16 bytes of each slot with the xmm (VEX
 * AES-NI) instructions.
 *
 * Pipeline.  The AES units start up to two rounds per cycle and each
 * takes several cycles (3 to 4 on recent cores), so at least 6 to 8
 * independent ymm registers must be in flight to keep them busy.  The
 * bulk loop keeps 12 ymm registers = 24 blocks in flight, applying each
 * round key to all 12 before the next one: with exactly 8 the units have
 * no slack and lose a few percent, 12 reaches the throughput bound, and
 * the remaining 4 of the 16 ymm registers hold round keys (the others are
 * memory operands).  The remaining 1..23 blocks are done as groups of 8,
 * 4, 2 and 1 ymm registers (16, 8, 4, 2 blocks) and a last single block in
 * an xmm register, never one block at a time; 32 to 39 blocks as two
 * groups of 16 rather than 24 and 8.  A group of 4 ymm (8 blocks, the
 * smallest QUIC batch) is bound by latency: its 4 VAESENC of a round take
 * 2 cycles to issue but 3 to finish, so one call's chain of 10 rounds is
 * ~30 cycles against 20 of issue; back-to-back calls overlap in the
 * out-of-order window (measured: 2.55 to 2.7 cycles per AES-128 mask,
 * against the bound of 2.5).
 * The one-block call is a bare xmm dependency chain with the round keys
 * as memory operands.  zmm registers would not help: on the Intel cores
 * with VAES a zmm VAESENC issues once per cycle, the same 4 blocks per
 * cycle as two ymm ones, with the same latency.
 * All rounds are written out and the round count is a compile-time
 * constant in each specialised copy (switch at the entry points), so the
 * compiler emits straight-line code with the state in registers.
 *
 * No branch or memory index depends on key or data bytes; the key
 * schedule is straight-line AESKEYGENASSIST code.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "internal.h"

#if defined(AESECB_WITH_VAES) && defined(__x86_64__)
#include <immintrin.h>

#include "aesni_keysched.h"

#define TARGET __attribute__((target("vaes,avx2,aes")))
#define INLINE static inline __attribute__((always_inline))

#define DEC_OFFSET 15   /* index of dk[0] in the context, in 32-byte units */

/* ------------------------------------------------------------------ */
/* Key schedule (lib/aesni_keysched.h), stored pre-broadcast            */

/* A burned call (lib/aesecb.c): k, d and the compiler's spills are
 * overwritten after it returns. */
TARGET static void setkey(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                          aesecb_stack *stk)
{
	__m256i *ek = (__m256i *)(void *)ctx->priv_keys.b;
	__m256i *dk = ek + DEC_OFFSET;
	__m128i k[15], d[15];
	unsigned nr = ctx->priv_rounds, i;

	aesecb__stack_mark(stk);
	aesni_expand_keys(k, key, key_len);
	aesni_inverse_keys(d, k, nr);
	for (i = 0; i <= nr; i++) {
		_mm256_storeu_si256(&ek[i], _mm256_broadcastsi128_si256(k[i]));
		_mm256_storeu_si256(&dk[i], _mm256_broadcastsi128_si256(d[i]));
	}
}

/* ------------------------------------------------------------------ */
/* Block functions                                                     */

/* The first 5 bytes of x at m, exactly: a 4-byte and a 1-byte store, both
 * straight from the vector register (no general register, no port-0
 * uop). */
INLINE TARGET void store_mask_exact(uint8_t *m, __m128i x)
{
	_mm_storeu_si32(m, x);
	m[4] = (uint8_t)_mm_extract_epi8(x, 4);
}

/* One round (op, key k) applied to 12, 8, 4, 2 or 1 ymm states y0..y11. */
#define Y12(op, k) do { const __m256i k_ = (k); \
	y0 = op(y0, k_); y1 = op(y1, k_); y2 = op(y2, k_); y3 = op(y3, k_); \
	y4 = op(y4, k_); y5 = op(y5, k_); y6 = op(y6, k_); y7 = op(y7, k_); \
	y8 = op(y8, k_); y9 = op(y9, k_); \
	y10 = op(y10, k_); y11 = op(y11, k_); \
} while (0)
#define Y8(op, k) do { const __m256i k_ = (k); \
	y0 = op(y0, k_); y1 = op(y1, k_); y2 = op(y2, k_); y3 = op(y3, k_); \
	y4 = op(y4, k_); y5 = op(y5, k_); y6 = op(y6, k_); y7 = op(y7, k_); \
} while (0)
#define Y4(op, k) do { const __m256i k_ = (k); \
	y0 = op(y0, k_); y1 = op(y1, k_); y2 = op(y2, k_); y3 = op(y3, k_); \
} while (0)
#define Y2(op, k) do { const __m256i k_ = (k); \
	y0 = op(y0, k_); y1 = op(y1, k_); \
} while (0)
#define Y1(op, k) do { y0 = op(y0, (k)); } while (0)

/* The whole cipher on one group; R picks the group width, the key
 * operand type follows from KEY(i).  nr is a constant where it expands. */
#ifndef __OPTIMIZE__
/* An unoptimised build keeps a stack slot for every value of every
 * expansion and removes no dead arm: the written-out rounds of every group
 * width, key size and direction took 518 KiB a block function (clang 14
 * -O0).  There the rounds are a loop over the round index, the groups
 * loops over arrays of states (bulk), and DISPATCH expands each function
 * once, for the context's round count. */
#define CIPHER(R, XOR, MID, LAST, KEY) do { \
	unsigned r_; \
	R(XOR, KEY(0)); \
	for (r_ = 1; r_ < nr; r_++) \
		R(MID, KEY(r_)); \
	R(LAST, KEY(nr)); \
} while (0)
#else
#define CIPHER(R, XOR, MID, LAST, KEY) do { \
	R(XOR, KEY(0)); \
	R(MID, KEY(1)); R(MID, KEY(2)); R(MID, KEY(3)); R(MID, KEY(4)); \
	R(MID, KEY(5)); R(MID, KEY(6)); R(MID, KEY(7)); R(MID, KEY(8)); \
	R(MID, KEY(9)); \
	if (nr > 10) { R(MID, KEY(10)); R(MID, KEY(11)); } \
	if (nr > 12) { R(MID, KEY(12)); R(MID, KEY(13)); } \
	R(LAST, KEY(nr)); \
} while (0)
#endif

#define YMID(x, k)  (dec ? _mm256_aesdec_epi128((x), (k)) \
                         : _mm256_aesenc_epi128((x), (k)))
#define YLAST(x, k) (dec ? _mm256_aesdeclast_epi128((x), (k)) \
                         : _mm256_aesenclast_epi128((x), (k)))
#define XMID(x, k)  (dec ? _mm_aesdec_si128((x), (k)) \
                         : _mm_aesenc_si128((x), (k)))
#define XLAST(x, k) (dec ? _mm_aesdeclast_si128((x), (k)) \
                         : _mm_aesenclast_si128((x), (k)))
/* Round keys are read with unaligned loads (folded into the AES
 * instructions' memory operands), so a context that is only 16-byte
 * aligned, as malloc gives, works too. */
#define YKEY(i) _mm256_loadu_si256(&rk[i])
#define XKEY(i) _mm_loadu_si128((const __m128i *)(const void *)&rk[i]) /* low half */
#define X1(op, k) do { x0 = op(x0, (k)); } while (0)

/* Load/store ymm i (blocks 2i and 2i+1) and the single block at 16*i. */
#define LDY(i) \
	_mm256_loadu_si256((const __m256i *)(const void *)(in + 32 * (i)))
/*
 * Output: whole blocks, or (msk) the 5-byte QUIC masks, 5 bytes apart.
 * A mask is an 8-byte store (VMOVQ from the vector register, a store and
 * nothing else) whose last 3 bytes spill into the next mask's place,
 * which that mask's own store, later in program order, overwrites.  The
 * last mask of every group is stored exactly (VMOVD and VPEXTRB to
 * memory), so nothing is written past masks + 5n and no branch is needed
 * to find the call's last mask.  Getting the bytes into a general
 * register instead (VMOVQ to a register, a shift, two stores) costs a
 * uop on port 0, one of the two ports that run VAESENC: two uops beside
 * the ten VAESENC of a ymm pair of AES-128 masks, which measured 3.4
 * cycles per mask against 2.5 now (the AES throughput bound).  Each
 * mask's bytes come from one store, so a later 4- or 5-byte read of a
 * mask is forwarded from the store buffer.
 */
#define OUTB (msk ? 5 : 16)
#define ST8(p, x) _mm_storel_epi64((__m128i *)(void *)(p), (x))
#define STY(i, v) do { \
	if (msk) { \
		ST8(out + 10 * (i), _mm256_castsi256_si128(v)); \
		ST8(out + 10 * (i) + 5, _mm256_extracti128_si256((v), 1)); \
	} else { \
		_mm256_storeu_si256((__m256i *)(void *)(out + 32 * (i)), (v)); \
	} \
} while (0)
/* The last ymm of a group: its second mask stored exactly. */
#define STY_END(i, v) do { \
	if (msk) { \
		ST8(out + 10 * (i), _mm256_castsi256_si128(v)); \
		store_mask_exact(out + 10 * (i) + 5, \
		                 _mm256_extracti128_si256((v), 1)); \
	} else { \
		_mm256_storeu_si256((__m256i *)(void *)(out + 32 * (i)), (v)); \
	} \
} while (0)
#define LDX(i) \
	_mm_loadu_si128((const __m128i *)(const void *)(in + 16 * (i)))
#define STX(i, v) do { \
	if (msk) \
		store_mask_exact(out + 5 * (i), (v)); \
	else \
		_mm_storeu_si128((__m128i *)(void *)(out + 16 * (i)), (v)); \
} while (0)

#define CIPHER_Y(R) CIPHER(R, _mm256_xor_si256, YMID, YLAST, YKEY)
#define CIPHER_X()  CIPHER(X1, _mm_xor_si128, XMID, XLAST, XKEY)

/* One block: kept apart so that it touches no ymm register (and needs no
 * VZEROUPPER). */
INLINE TARGET void one_block(const __m256i *rk, const uint8_t *in,
                             uint8_t *out, const unsigned nr, const int dec,
                             const int msk)
{
	__m128i x0 = LDX(0);

	CIPHER_X();
	STX(0, x0);
}

#ifndef __OPTIMIZE__
/*
 * Unoptimised: the same groups as below (12, 8, 4, 2 and 1 ymm), each a
 * loop over an array of states, so that every instruction of the cipher
 * is expanded once (see CIPHER above).
 */
INLINE TARGET void bulk(const __m256i *rk, const uint8_t *in, uint8_t *out,
                        size_t n, const unsigned nr, const int dec,
                        const int msk)
{
	__m256i y[12];
	size_t b, ny;
	unsigned r;

	while (n >= 2) {
		ny = n >= 24 && n - 32 >= 8 ? 12 : n >= 16 ? 8 : n >= 8 ? 4 :
		     n >= 4 ? 2 : 1;
		for (b = 0; b < ny; b++)
			y[b] = _mm256_xor_si256(LDY(b), YKEY(0));
		for (r = 1; r < nr; r++)
			for (b = 0; b < ny; b++)
				y[b] = YMID(y[b], YKEY(r));
		for (b = 0; b < ny; b++)
			y[b] = YLAST(y[b], YKEY(nr));
		for (b = 0; b + 1 < ny; b++)
			STY(b, y[b]);
		STY_END(ny - 1, y[ny - 1]);
		in += 32 * ny;
		out += 2 * ny * OUTB;
		n -= 2 * ny;
	}
	if (n & 1)
		one_block(rk, in, out, nr, dec, msk);
}
#else
INLINE TARGET void bulk(const __m256i *rk, const uint8_t *in, uint8_t *out,
                        size_t n, const unsigned nr, const int dec,
                        const int msk)
{
	__m256i y0, y1, y2, y3, y4, y5, y6, y7;

	while (n >= 24) {
		__m256i y8, y9, y10, y11;

		/* 32 to 39 blocks go as 16 + 16 (+ 1..7), not 24 + 8 (+ 1..7):
		 * a group of 8 blocks (4 ymm) is bound by latency, not by
		 * throughput.  (Tested here, inside the loop, so that calls of
		 * fewer than 24 blocks do not pay for it.) */
		if (n - 32 < 8)
			break;

		y0 = LDY(0); y1 = LDY(1); y2 = LDY(2);   y3 = LDY(3);
		y4 = LDY(4); y5 = LDY(5); y6 = LDY(6);   y7 = LDY(7);
		y8 = LDY(8); y9 = LDY(9); y10 = LDY(10); y11 = LDY(11);
		CIPHER_Y(Y12);
		STY(0, y0); STY(1, y1); STY(2, y2);   STY(3, y3);
		STY(4, y4); STY(5, y5); STY(6, y6);   STY(7, y7);
		STY(8, y8); STY(9, y9); STY(10, y10); STY_END(11, y11);
		in += 384;
		out += 24 * OUTB;
		n -= 24;
	}
	while (n >= 16) {
		y0 = LDY(0); y1 = LDY(1); y2 = LDY(2); y3 = LDY(3);
		y4 = LDY(4); y5 = LDY(5); y6 = LDY(6); y7 = LDY(7);
		CIPHER_Y(Y8);
		STY(0, y0); STY(1, y1); STY(2, y2); STY(3, y3);
		STY(4, y4); STY(5, y5); STY(6, y6); STY_END(7, y7);
		in += 256;
		out += 16 * OUTB;
		n -= 16;
	}
	if (n & 8) {
		y0 = LDY(0); y1 = LDY(1); y2 = LDY(2); y3 = LDY(3);
		CIPHER_Y(Y4);
		STY(0, y0); STY(1, y1); STY(2, y2); STY_END(3, y3);
		in += 128;
		out += 8 * OUTB;
	}
	if (n & 4) {
		y0 = LDY(0); y1 = LDY(1);
		CIPHER_Y(Y2);
		STY(0, y0); STY_END(1, y1);
		in += 64;
		out += 4 * OUTB;
	}
	if (n & 2) {
		y0 = LDY(0);
		CIPHER_Y(Y1);
		STY_END(0, y0);
		in += 32;
		out += 2 * OUTB;
	}
	if (n & 1)
		one_block(rk, in, out, nr, dec, msk);
}
#endif

#ifndef __OPTIMIZE__
#define DISPATCH(rk, dec, msk) do { \
	if (n == 1) \
		one_block(rk, in, out, ctx->priv_rounds, dec, msk); \
	else \
		bulk(rk, in, out, n, ctx->priv_rounds, dec, msk); \
} while (0)
#else
#define DISPATCH(rk, dec, msk) do { \
	if (n == 1) { \
		switch (ctx->priv_rounds) { \
		case 10: one_block(rk, in, out, 10, dec, msk); break; \
		case 12: one_block(rk, in, out, 12, dec, msk); break; \
		default: one_block(rk, in, out, 14, dec, msk); break; \
		} \
	} else { \
		switch (ctx->priv_rounds) { \
		case 10: bulk(rk, in, out, n, 10, dec, msk); break; \
		case 12: bulk(rk, in, out, n, 12, dec, msk); break; \
		default: bulk(rk, in, out, n, 14, dec, msk); break; \
		} \
	} \
} while (0)
#endif

/* stk: only an unoptimised build runs these burned (lib/internal.h). */
TARGET static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t n, aesecb_stack *stk)
{
	const __m256i *rk = (const __m256i *)(const void *)ctx->priv_keys.b;

	AESECB_MARK_UNOPTIMISED(stk);
	DISPATCH(rk, 0, 0);
	return AESECB_OK;
}

TARGET static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t n, aesecb_stack *stk)
{
	const __m256i *rk = (const __m256i *)(const void *)ctx->priv_keys.b
	                    + DEC_OFFSET;

	AESECB_MARK_UNOPTIMISED(stk);
	DISPATCH(rk, 1, 0);
	return AESECB_OK;
}

/* QUIC masks: encryption with 5-byte stores straight from the registers. */
TARGET static int masks(const aesecb_ctx *ctx, const uint8_t *in,
                         uint8_t *out, size_t n, aesecb_stack *stk)
{
	const __m256i *rk = (const __m256i *)(const void *)ctx->priv_keys.b;

	AESECB_MARK_UNOPTIMISED(stk);
	DISPATCH(rk, 0, 1);
	return AESECB_OK;
}

/*
 * One block or one mask per call: a function per direction and key size,
 * which aesecb_init stores in the context, so the entry points jump
 * straight to the AES instructions: no test of a block count or a round
 * count, and (VEX memory operands need no alignment) none of the
 * context's address.
 */
/* Each starts a 64-byte block of code, as the entry points do (aesecb.c). */
#define ONE_ALIGN __attribute__((aligned(64)))
#define ONE(name, nr, dec, msk)                                              \
TARGET ONE_ALIGN static int name(const aesecb_ctx *ctx, const uint8_t *in,  \
                                 uint8_t *out)                               \
{                                                                            \
	one_block((const __m256i *)(const void *)ctx->priv_keys.b +          \
	          (dec ? DEC_OFFSET : 0), in, out, nr, dec, msk);            \
	return AESECB_OK;                                                    \
}
ONE(enc_128, 10, 0, 0) ONE(enc_192, 12, 0, 0) ONE(enc_256, 14, 0, 0)
ONE(dec_128, 10, 1, 0) ONE(dec_192, 12, 1, 0) ONE(dec_256, 14, 1, 0)
ONE(mask_128, 10, 0, 1) ONE(mask_192, 12, 0, 1) ONE(mask_256, 14, 0, 1)

/* [key size][ENC, DEC, MASK] */
static aesecb_one_fn *const one_table[3][AESECB_ONE_N] = {
	{ enc_128, dec_128, mask_128 },
	{ enc_192, dec_192, mask_192 },
	{ enc_256, dec_256, mask_256 },
};

static void one(unsigned rounds, aesecb_one_fn *fns[AESECB_ONE_N])
{
	unsigned i;

	for (i = 0; i < AESECB_ONE_N; i++)
		fns[i] = one_table[(rounds - 10) / 2][i];
}

static const struct aesecb_impl impl = {
	.setkey = setkey,
	.encrypt = encrypt_blocks,
	.decrypt = decrypt_blocks,
	.masks = masks,
	.one = one,
};
#define IMPL (&impl)
#else
#define IMPL NULL
#endif

AESECB_BACKEND(vaes, AESECB_REGS(AESECB_REGS_ONE | AESECB_REGS_BLOCKS), IMPL);
