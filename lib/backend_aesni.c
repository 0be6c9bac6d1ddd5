/* SPDX-License-Identifier: MIT */
/*
 * backend_aesni.c - AES with the x86 AES-NI instructions on 128-bit xmm
 * registers.  One source for x86-64 and 32-bit x86.
 *
 * The instruction set is enabled per function with a target attribute, so
 * the rest of the library is built for the baseline CPU and this code only
 * runs once the library has found the CPU features its descriptor needs.
 *
 * Context layout (ctx->priv_keys; the context may be only 8-byte aligned):
 *
 *   bytes   0..239   encryption round keys  ek[0..Nr]   (16 bytes each)
 *   bytes 240..479   decryption round keys  dk[0..Nr]   (16 bytes each)
 *
 * with Nr = 10, 12 or 14 (unused slots of a shorter schedule stay zero).
 * Both schedules are computed once, in setkey; the block functions only
 * read them, and keep the states in registers: every path but key setup
 * is declared register-only (AESECB_REGS_*, lib/internal.h).
 *
 * Pipeline.  AESENC/AESDEC have a latency of several cycles (4 on recent
 * cores) but the CPU can start one or two of them every cycle, so a single
 * block leaves most of the AES units idle: keeping two units busy needs at
 * least latency x units = 8 independent blocks in flight.  The bulk loop
 * applies every round key to a whole group of blocks before moving on to
 * the next key, which gives the out-of-order core that many independent
 * dependency chains.  On x86-64 the group is 12 blocks: with exactly 8 the
 * units have no slack and lose a few percent at every hiccup, 12 reaches
 * the throughput bound (16 is no faster), and 12 states leave 4 of the 16
 * xmm registers for round keys (the others are memory operands).  32-bit
 * x86 has only 8 xmm registers, so there the group is 8 blocks with all
 * round keys as memory operands.  Remaining blocks are done as groups of
 * 8 (x86-64), 4, 2 and 1, never one at a time.  The one-block path is the
 * bare dependency chain: one load, XOR with the first round key, Nr-1 full
 * rounds, the last round, one store, with every round key taken straight
 * from the context as a memory operand.
 *
 * All rounds are written out (macros below) and the number of rounds is
 * turned into a compile-time constant by a switch at the entry point, so
 * the compiler emits straight-line code with the state kept in registers.
 *
 * Nothing here branches on, or indexes memory with, key or data bytes:
 * AES-NI performs the S-box in hardware in constant time, and the key
 * schedule below is straight-line code too.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "internal.h"

#if defined(AESECB_WITH_AESNI) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#include <string.h>

#include "aesni_keysched.h"

#define TARGET __attribute__((target("aes,sse2")))
#define INLINE static inline __attribute__((always_inline))

#define DEC_OFFSET 15   /* index of dk[0] in the context, in 16-byte units */

/* ------------------------------------------------------------------ */
/* Key schedule (lib/aesni_keysched.h)                                 */

/*
 * The context may sit at any 8-byte aligned address (a caller's structure
 * packed differently, or memory from an allocator that gives only 8), so
 * the schedule is built in aligned locals and stored with unaligned stores.
 * Key setup is a burned call (lib/aesecb.c): the locals, and whatever the
 * compiler spilled, are overwritten after it returns.
 */
TARGET static void setkey(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                          aesecb_stack *stk)
{
	uint8_t *dst = ctx->priv_keys.b;
	__m128i ek[15], dk[15];
	unsigned nr = ctx->priv_rounds, i;

	aesecb__stack_mark(stk);
	aesni_expand_keys(ek, key, key_len);
	aesni_inverse_keys(dk, ek, nr);
	for (i = 0; i <= nr; i++) {
		_mm_storeu_si128((__m128i *)(void *)(dst + 16 * i), ek[i]);
		_mm_storeu_si128((__m128i *)(void *)(dst + 16 * (DEC_OFFSET + i)),
		                 dk[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Block functions                                                     */

/* One round (op, key k) applied to 12, 8, 4, 2 or 1 states in b0..b11. */
#define R12(op, k) do { const __m128i k_ = (k); \
	b0 = op(b0, k_); b1 = op(b1, k_); b2 = op(b2, k_); b3 = op(b3, k_); \
	b4 = op(b4, k_); b5 = op(b5, k_); b6 = op(b6, k_); b7 = op(b7, k_); \
	b8 = op(b8, k_); b9 = op(b9, k_); \
	b10 = op(b10, k_); b11 = op(b11, k_); \
} while (0)
#if defined(__i386__)
/*
 * 32-bit x86: the 8 states take all 8 xmm registers, so the round keys
 * have to stay memory operands.  Left alone, the compiler loads each key
 * once into a register and spills states to the stack instead.  An empty
 * asm with a memory clobber after each use makes it read the key afresh
 * for every state, and each read folds into the AES instruction as its
 * memory operand: no register needed, no spill.
 */
#define REREAD __asm__ __volatile__("" : : : "memory")
#define R8(op, k) do { \
	b0 = op(b0, (k)); REREAD; b1 = op(b1, (k)); REREAD; \
	b2 = op(b2, (k)); REREAD; b3 = op(b3, (k)); REREAD; \
	b4 = op(b4, (k)); REREAD; b5 = op(b5, (k)); REREAD; \
	b6 = op(b6, (k)); REREAD; b7 = op(b7, (k)); \
} while (0)
#else
#define R8(op, k) do { const __m128i k_ = (k); \
	b0 = op(b0, k_); b1 = op(b1, k_); b2 = op(b2, k_); b3 = op(b3, k_); \
	b4 = op(b4, k_); b5 = op(b5, k_); b6 = op(b6, k_); b7 = op(b7, k_); \
} while (0)
#endif
#define R4(op, k) do { const __m128i k_ = (k); \
	b0 = op(b0, k_); b1 = op(b1, k_); b2 = op(b2, k_); b3 = op(b3, k_); \
} while (0)
#define R2(op, k) do { const __m128i k_ = (k); \
	b0 = op(b0, k_); b1 = op(b1, k_); \
} while (0)
#define R1(op, k) do { b0 = op(b0, (k)); } while (0)

/*
 * The whole cipher on the states of one group: whitening XOR, Nr-1 full
 * rounds, last round.  nr is a compile-time constant where this expands,
 * so the conditions vanish.  MID and LAST pick encryption or decryption.
 *
 * An unoptimised build removes no dead arm and shares no stack slot: each
 * AESENC of the written-out rounds, of every group size, key size and
 * direction, got slots of its own (107 KiB a block function, clang 14
 * -O0).  There the rounds are a loop over the round index, and the block
 * functions expand aes_blocks once, for the context's round count
 * (BY_ROUNDS).
 */
#ifndef __OPTIMIZE__
#define CIPHER_K(R, K) do { \
	unsigned r_; \
	R(_mm_xor_si128, K(0)); \
	for (r_ = 1; r_ < nr; r_++) \
		R(MID, K(r_)); \
	R(LAST, K(nr)); \
} while (0)
#define BY_ROUNDS(f, rounds, ...) f(__VA_ARGS__, (rounds))
#else
#define BY_ROUNDS(f, rounds, ...) do { \
	switch (rounds) { \
	case 10: f(__VA_ARGS__, 10); break; \
	case 12: f(__VA_ARGS__, 12); break; \
	default: f(__VA_ARGS__, 14); break; \
	} \
} while (0)
#define CIPHER_K(R, K) do { \
	R(_mm_xor_si128, K(0)); \
	R(MID, K(1)); R(MID, K(2)); R(MID, K(3)); R(MID, K(4)); \
	R(MID, K(5)); R(MID, K(6)); R(MID, K(7)); R(MID, K(8)); \
	R(MID, K(9)); \
	if (nr > 10) { R(MID, K(10)); R(MID, K(11)); } \
	if (nr > 12) { R(MID, K(12)); R(MID, K(13)); } \
	R(LAST, K(nr)); \
} while (0)
#endif
#define CIPHER(R) CIPHER_K(R, RK)

/*
 * Round key i of the schedule at rk, as an aligned memory operand: folded
 * into AESENC/AESDEC, which in their legacy-SSE form need a 16-byte
 * aligned operand.  The entry points guarantee that alignment: a context
 * that is not 16-byte aligned is first moved to an aligned copy
 * (via_aligned_copy).  Unaligned loads (MOVDQU + AESENC reg, reg) would
 * make that branch unnecessary, but measured 5-10% slower on independent
 * one-block calls (twice the instructions on the header-protection path),
 * and 32-bit x86 has no register to spare in its 8-block group for them.
 */
#define RK(i) (*(const __m128i *)(const void *)(rk + 16 * (i)))

#define MID(x, k)  (dec ? _mm_aesdec_si128((x), (k)) \
                        : _mm_aesenc_si128((x), (k)))
#define LAST(x, k) (dec ? _mm_aesdeclast_si128((x), (k)) \
                        : _mm_aesenclast_si128((x), (k)))

#define LD(i)  _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * (i)))
/*
 * Output: whole blocks, or (msk) the 5-byte QUIC masks, 5 bytes apart.
 * A mask is an 8-byte MOVQ store straight from the xmm register (a store
 * and nothing else) whose last 3 bytes spill into the next mask's place,
 * which that mask's own store, later in program order, overwrites.  The
 * last mask of each group is stored exactly (aesni_store_mask), so
 * nothing is written past masks + 5n.  aesni_store_mask for every mask
 * would move the bytes through a general register, a MOVQ on port 0,
 * which is one of the two ports that run AESENC: one uop beside the ten
 * AESENC of an AES-128 mask, which measured 5.5 cycles per mask against
 * 5.0 now (the AES throughput bound).  Each mask's bytes come from one
 * store, so a later 4- or 5-byte read of a mask is forwarded from the
 * store buffer.
 */
#define OUTB (msk ? 5 : 16)
#define ST(i, v) do { \
	if (msk) \
		_mm_storel_epi64((__m128i *)(void *)(out + 5 * (i)), (v)); \
	else \
		_mm_storeu_si128((__m128i *)(void *)(out + 16 * (i)), (v)); \
} while (0)
/* The last state of a group. */
#define ST_END(i, v) do { \
	if (msk) \
		aesni_store_mask(out + 5 * (i), (v)); \
	else \
		_mm_storeu_si128((__m128i *)(void *)(out + 16 * (i)), (v)); \
} while (0)

/*
 * rk: the schedule for this direction; nr, dec and msk are constants at
 * every call site (always inlined), giving nine specialised copies.
 */
INLINE TARGET void aes_blocks(const uint8_t *rk, const uint8_t *in,
                              uint8_t *out, size_t n, const unsigned nr,
                              const int dec, const int msk)
{
	__m128i b0, b1, b2, b3, b4, b5, b6, b7;

	if (n == 1) {
		/* the one-block (header protection) path */
		b0 = LD(0);
		CIPHER(R1);
		ST_END(0, b0);
		return;
	}
#if defined(__x86_64__)
	while (n >= 12) {
		__m128i b8, b9, b10, b11;

		b0 = LD(0); b1 = LD(1); b2 = LD(2);  b3 = LD(3);
		b4 = LD(4); b5 = LD(5); b6 = LD(6);  b7 = LD(7);
		b8 = LD(8); b9 = LD(9); b10 = LD(10); b11 = LD(11);
		CIPHER(R12);
		ST(0, b0); ST(1, b1); ST(2, b2);  ST(3, b3);
		ST(4, b4); ST(5, b5); ST(6, b6);  ST(7, b7);
		ST(8, b8); ST(9, b9); ST(10, b10); ST_END(11, b11);
		in += 192;
		out += 12 * OUTB;
		n -= 12;
	}
	if (n >= 8) {
#else
	while (n >= 8) {
#endif
		b0 = LD(0); b1 = LD(1); b2 = LD(2); b3 = LD(3);
		b4 = LD(4); b5 = LD(5); b6 = LD(6); b7 = LD(7);
		CIPHER(R8);
		ST(0, b0); ST(1, b1); ST(2, b2); ST(3, b3);
		ST(4, b4); ST(5, b5); ST(6, b6); ST_END(7, b7);
		in += 128;
		out += 8 * OUTB;
		n -= 8;
	}
	if (n & 4) {
		b0 = LD(0); b1 = LD(1); b2 = LD(2); b3 = LD(3);
		CIPHER(R4);
		ST(0, b0); ST(1, b1); ST(2, b2); ST_END(3, b3);
		in += 64;
		out += 4 * OUTB;
	}
	if (n & 2) {
		b0 = LD(0); b1 = LD(1);
		CIPHER(R2);
		ST(0, b0); ST_END(1, b1);
		in += 32;
		out += 2 * OUTB;
	}
	if (n & 1) {
		b0 = LD(0);
		CIPHER(R1);
		ST_END(0, b0);
	}
}

/*
 * Run fn on a 64-byte aligned copy of a context that is not 16-byte
 * aligned, then wipe the copy (it holds the round keys; on a path called
 * directly nothing else would).  This is a branch on the context's
 * address, which is no secret; a context in aligned storage (its declared
 * type, or malloc) never comes here, and the test and branch cost one
 * fused instruction on the hot path (the arguments come in the block
 * function's order, so nothing moves before the test).  In a burned call
 * (an unoptimised build) fn records its frame below this one, so the burn
 * covers the copy too: no record of its own here.
 */
static __attribute__((noinline)) int via_aligned_copy(
	const aesecb_ctx *ctx, const uint8_t *in, uint8_t *out, size_t n,
	aesecb_stack *stk, aesecb_blocks_fn *fn)
{
	aesecb_ctx copy;
	int rc;

	memcpy(&copy, (const void *)ctx, sizeof copy);
	rc = fn(&copy, in, out, n, stk);
	aesecb_wipe(&copy, sizeof copy);
	return rc;
}
#define ALIGN_CTX(fn) do { \
	if (((uintptr_t)(const void *)ctx & 15) != 0) \
		return via_aligned_copy(ctx, in, out, n, stk, fn); \
} while (0)

/* aes_blocks for the block functions' arguments (BY_ROUNDS above). */
#define BLOCKS(dec, msk, nr) aes_blocks(rk, in, out, n, nr, dec, msk)

/* stk: only an unoptimised build runs these burned (lib/internal.h). */
TARGET static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b;

	AESECB_MARK_UNOPTIMISED(stk);
	ALIGN_CTX(encrypt_blocks);
	BY_ROUNDS(BLOCKS, ctx->priv_rounds, 0, 0);
	return AESECB_OK;
}

TARGET static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * DEC_OFFSET;

	AESECB_MARK_UNOPTIMISED(stk);
	ALIGN_CTX(decrypt_blocks);
	BY_ROUNDS(BLOCKS, ctx->priv_rounds, 1, 0);
	return AESECB_OK;
}

/* QUIC masks: encryption with 5-byte stores straight from the registers
 * (a context that is not 16-byte aligned: on an aligned copy, as above). */
TARGET static int masks(const aesecb_ctx *ctx, const uint8_t *in,
                         uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b;

	AESECB_MARK_UNOPTIMISED(stk);
	ALIGN_CTX(masks);
	BY_ROUNDS(BLOCKS, ctx->priv_rounds, 0, 1);
	return AESECB_OK;
}

/*
 * One block or one mask per call: a function per direction and key size,
 * which aesecb_init stores in the context, so the entry points jump
 * straight to the AES instructions with no test of a block count or a
 * round count.  Two sets:
 *
 * - on a CPU with AVX (which the library detects together with AVX2:
 *   AESECB_CPU_AVX2), the VEX encoding of the same instructions, whose
 *   memory operands need no alignment: nothing at all is tested on the
 *   way, whatever the context's address.  A VEX instruction also leaves
 *   the upper halves of the ymm registers zero instead of merging into
 *   them, so the call costs nothing extra when the caller's own AVX code
 *   left them dirty.  A mask is stored with VMOVD and VPEXTRB, straight
 *   from the register (no uop on port 0, as in backend_vaes.c);
 * - otherwise the legacy encoding with the round keys as aligned memory
 *   operands, after the test of the context's alignment (a misaligned one
 *   goes to an aligned copy, as above).
 *
 * Measured on a Golden Cove core (independent one-block calls through
 * aesecb_encrypt, AES-128): 7.5 cycles a call with the VEX set, 8.0 with
 * the legacy one: the alignment test is a fused test and branch, which
 * takes port 0 or 6 from the ten AESENC on ports 0 and 1 of back-to-back
 * calls.
 */
#define VEX_TARGET __attribute__((target("aes,avx")))
/* Each starts a 64-byte block of code, as the entry points do (aesecb.c). */
#define ONE_ALIGN __attribute__((aligned(64)))

/* Round key i, read unaligned (folded into the VEX instruction). */
#define RKU(i) _mm_loadu_si128((const __m128i *)(const void *)(rk + 16 * (i)))

INLINE VEX_TARGET void one_vex(const uint8_t *rk, const uint8_t *in,
                               uint8_t *out, const unsigned nr,
                               const int dec, const int msk)
{
	__m128i b0 = LD(0);

	CIPHER_K(R1, RKU);
	if (msk) {
		_mm_storeu_si32(out, b0);
		out[4] = (uint8_t)_mm_extract_epi8(b0, 4);
	} else {
		_mm_storeu_si128((__m128i *)(void *)out, b0);
	}
}

#define ONE_VEX(name, nr, dec, msk)                                          \
VEX_TARGET ONE_ALIGN static int name(const aesecb_ctx *ctx,                 \
                                     const uint8_t *in,                     \
                                     uint8_t *out)                          \
{                                                                            \
	one_vex(ctx->priv_keys.b + (dec ? 16 * DEC_OFFSET : 0), in, out,    \
	        nr, dec, msk);                                               \
	return AESECB_OK;                                                    \
}

/* [vex][key size][ENC, DEC, MASK], below */
static aesecb_one_fn *const one_table[2][3][AESECB_ONE_N];

/*
 * The legacy function for key size ks and slot i on an aligned copy of a
 * misaligned context.  It is named by indices, not by its address: on
 * 32-bit x86, position-independent code would otherwise compute that
 * address (a call, to learn where the code is) on every call, aligned or
 * not.
 */
static __attribute__((noinline)) int one_via_aligned_copy(
	const aesecb_ctx *ctx, const uint8_t *in, uint8_t *out, unsigned ks,
	unsigned i)
{
	aesecb_ctx copy;
	int rc;

	memcpy(&copy, (const void *)ctx, sizeof copy);
	rc = one_table[0][ks][i](&copy, in, out);
	aesecb_wipe(&copy, sizeof copy);
	return rc;
}

#define ONE_SSE(name, nr, dec, msk)                                          \
TARGET ONE_ALIGN static int name(const aesecb_ctx *ctx, const uint8_t *in,  \
                                 uint8_t *out)                               \
{                                                                            \
	if (((uintptr_t)(const void *)ctx & 15) != 0)                        \
		return one_via_aligned_copy(ctx, in, out, (nr - 10) / 2,     \
		                            dec ? AESECB_ONE_DEC             \
		                            : msk ? AESECB_ONE_MASK          \
		                            : AESECB_ONE_ENC);               \
	aes_blocks(ctx->priv_keys.b + (dec ? 16 * DEC_OFFSET : 0), in, out, \
	           1, nr, dec, msk);                                         \
	return AESECB_OK;                                                    \
}

#define ONE_SET(ONE, p)                                                      \
	ONE(p##enc_128, 10, 0, 0) ONE(p##enc_192, 12, 0, 0)                   \
	ONE(p##enc_256, 14, 0, 0) ONE(p##dec_128, 10, 1, 0)                   \
	ONE(p##dec_192, 12, 1, 0) ONE(p##dec_256, 14, 1, 0)                   \
	ONE(p##mask_128, 10, 0, 1) ONE(p##mask_192, 12, 0, 1)                 \
	ONE(p##mask_256, 14, 0, 1)
ONE_SET(ONE_VEX, vex_)
ONE_SET(ONE_SSE, sse_)

static aesecb_one_fn *const one_table[2][3][AESECB_ONE_N] = {
	{ { sse_enc_128, sse_dec_128, sse_mask_128 },
	  { sse_enc_192, sse_dec_192, sse_mask_192 },
	  { sse_enc_256, sse_dec_256, sse_mask_256 } },
	{ { vex_enc_128, vex_dec_128, vex_mask_128 },
	  { vex_enc_192, vex_dec_192, vex_mask_192 },
	  { vex_enc_256, vex_dec_256, vex_mask_256 } },
};

static void one(unsigned rounds, aesecb_one_fn *fns[AESECB_ONE_N])
{
	int vex = (aesecb__cpu_features() & AESECB_CPU_AVX2) != 0;
	unsigned i;

	for (i = 0; i < AESECB_ONE_N; i++)
		fns[i] = one_table[vex][(rounds - 10) / 2][i];
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

AESECB_BACKEND(aesni, AESECB_REGS(AESECB_REGS_ONE | AESECB_REGS_BLOCKS), IMPL);
