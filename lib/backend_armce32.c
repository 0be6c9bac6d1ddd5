/* SPDX-License-Identifier: MIT */
/*
 * backend_armce32.c - AES with the ARMv8 Cryptography Extensions in
 * AArch32 state (32-bit ARM: armhf on Cortex-A53/A57/A72/A76 and later
 * cores that run 32-bit code, with the AES instructions).
 *
 * The instructions are those of the AArch64 backend (backend_armce.c):
 * AESE k: s = SubBytes(ShiftRows(s ^ k)), AESMC: s = MixColumns(s), AESD
 * and AESIMC their inverses; encryption runs AESE/AESMC pairs with the
 * round keys rk[0..nr], decryption the equivalent inverse cipher with
 * dk[0] = rk[nr], dk[i] = InvMixColumns(rk[nr-i]), dk[nr] = rk[0],
 * computed once in setkey.
 *
 * Sixteen vector registers
 * ------------------------
 * AArch32 has 16 quadword registers (q0-q15), half of AArch64's 32, and a
 * key schedule has up to 15 round keys, so the AArch64 shape (every key
 * and eight blocks in registers) does not fit: compiled from C, its
 * loops spill round keys to the stack.  Here every block function is one
 * asm statement whose registers are chosen by hand, so that no compiler
 * and no optimisation level (-O0 included) can put a round key or a
 * state on the stack; the C around it handles pointers and counts only.
 *
 *  - Runs of blocks: four blocks in flight (q0-q3).  The last eleven
 *    round keys, rk[nr-10] .. rk[nr], stay in q5-q15 for the whole call;
 *    the first nr-10 (none for AES-128, two for AES-192, four for AES-256)
 *    are loaded into q4 again for each group of four, one before its
 *    round: a load from the context, never a spill.  The blocks left over
 *    go one at a time through the same resident keys.
 *  - One block (and one mask): the keys are loaded with two or three
 *    VLDM (up to eight keys an instruction) into q8-q15 and q1-q3, and for
 *    AES-192 and AES-256 the last keys into q8.. again once their first
 *    keys are used: only caller-saved registers, so no VPUSH.
 *
 * Each AESE (AESD) is followed by its AESMC (AESIMC) on the same register,
 * the pair that Cortex-A53/A57/A72 fuse.  Loads and stores are VLD1.8 and
 * VST1.8 (any alignment), the keys VLDM (the context is 8-byte aligned,
 * VLDM needs 4).  A mask leaves the register as a 4-byte and a 1-byte
 * lane store; in runs, the first three of each four as an 8-byte store
 * whose extra bytes the next mask overwrites.
 *
 * Constant time: the AES instructions, VEOR, and loads and stores at
 * addresses made of the context, the buffers and public counts; the only
 * branches are on the block count.  The key expansion's SubWord is AESE
 * with a zero key on a vector whose four columns hold the word (ShiftRows
 * then moves bytes between equal columns only), as in backend_armce.c.
 *
 * Targets: the AES instructions are enabled per function, never for the
 * file: gcc with target("fpu=crypto-neon-fp-armv8"), clang 14 with the
 * LLVM features "aes" and "v8" plus the NEON ones (see TARGET_CE).
 * Little-endian only (VLDM loads a doubleword in memory order; armhf is
 * little-endian).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "internal.h"

#if defined(AESECB_WITH_ARMCE32) && defined(__arm__) && \
    !defined(__aarch64__) && !defined(__ARM_BIG_ENDIAN)

/*
 * gcc: the FPU of the ARMv8 crypto extensions, for this function only
 * (gcc then writes ".fpu crypto-neon-fp-armv8" before it).  clang 14:
 * its assembler checks inline asm against the function's own features,
 * and an armhf build (VFPv3-D16) lists "-vfp3", "-vfp3sp" and "-d32"
 * among its base features, which would turn NEON off again: they are
 * named here with NEON, and AES needs "v8" besides "aes" (a CPU with the
 * AES instructions implements ARMv8).
 */
#if defined(__clang__)
#define TARGET_CE __attribute__((target("neon,vfp3,vfp3sp,d32,aes,v8")))
#else
#define TARGET_CE __attribute__((target("fpu=crypto-neon-fp-armv8")))
#endif

/* Layout in ctx->priv_keys: 15 encryption, then 15 decryption keys. */
#define ENC_OFF 0
#define DEC_OFF 15

/* One line of asm. */
#define L(s) s "\n\t"

/* Registers an asm statement below may write. */
#define CLOBBER_LOW "q0", "q1", "q2", "q3"
#define CLOBBER_HIGH "q8", "q9", "q10", "q11", "q12", "q13", "q14", "q15"
#define CLOBBER_ALL CLOBBER_LOW, "q4", "q5", "q6", "q7", CLOBBER_HIGH

/* ------------------------------------------------------------------ */
/* Rounds, as asm text.  OP and MC: "aese.8"/"aesmc.8" (encryption) or
 * "aesd.8"/"aesimc.8" (decryption); K: the key register. */

#define R1(OP, MC, K) L(OP " q0, " K) L(MC " q0, q0")
#define R4(OP, MC, K)                                                  \
	L(OP " q0, " K) L(MC " q0, q0") L(OP " q1, " K) L(MC " q1, q1") \
	L(OP " q2, " K) L(MC " q2, q2") L(OP " q3, " K) L(MC " q3, q3")
/* the last round: AESE (AESD) with K, then the last key KL added */
#define F1(OP, K, KL) L(OP " q0, " K) L("veor q0, q0, " KL)
#define F4(OP, K, KL)                                                  \
	L(OP " q0, " K) L(OP " q1, " K) L(OP " q2, " K) L(OP " q3, " K) \
	L("veor q0, q0, " KL) L("veor q1, q1, " KL)                     \
	L("veor q2, q2, " KL) L("veor q3, q3, " KL)

/* ------------------------------------------------------------------ */
/* One block: keys rk[0..7] in q8-q15, rk[8..10] in q1-q3, and the rest
 * (AES-192: rk[11..12], AES-256: rk[11..14]) in q8.. once used. */

#define ONE_LOAD                                        \
	L("vld1.8 {d0-d1}, [%[in]]")                    \
	L("vldmia %[rk]!, {d16-d31}")                   \
	L("vldmia %[rk]!, {d2-d7}")

#define ONE_10(OP, MC)                                                  \
	ONE_LOAD                                                        \
	R1(OP, MC, "q8") R1(OP, MC, "q9") R1(OP, MC, "q10")             \
	R1(OP, MC, "q11") R1(OP, MC, "q12") R1(OP, MC, "q13")           \
	R1(OP, MC, "q14") R1(OP, MC, "q15") R1(OP, MC, "q1")            \
	F1(OP, "q2", "q3")

#define ONE_12(OP, MC)                                                  \
	ONE_LOAD                                                        \
	R1(OP, MC, "q8") R1(OP, MC, "q9")                               \
	L("vldmia %[rk], {d16-d19}")                                    \
	R1(OP, MC, "q10") R1(OP, MC, "q11") R1(OP, MC, "q12")           \
	R1(OP, MC, "q13") R1(OP, MC, "q14") R1(OP, MC, "q15")           \
	R1(OP, MC, "q1") R1(OP, MC, "q2") R1(OP, MC, "q3")              \
	F1(OP, "q8", "q9")

#define ONE_14(OP, MC)                                                  \
	ONE_LOAD                                                        \
	R1(OP, MC, "q8") R1(OP, MC, "q9") R1(OP, MC, "q10")             \
	R1(OP, MC, "q11")                                               \
	L("vldmia %[rk], {d16-d23}")                                    \
	R1(OP, MC, "q12") R1(OP, MC, "q13") R1(OP, MC, "q14")           \
	R1(OP, MC, "q15") R1(OP, MC, "q1") R1(OP, MC, "q2")             \
	R1(OP, MC, "q3") R1(OP, MC, "q8") R1(OP, MC, "q9")              \
	F1(OP, "q10", "q11")

#define STORE_BLOCK1 L("vst1.8 {d0-d1}, [%[out]]")
#define STORE_MASK1 L("vst1.32 {d0[0]}, [%[out]]!") L("vst1.8 {d0[4]}, [%[out]]")

/* A one-block function: one asm statement, nothing on the stack. */
#define ONE_FN(name, off, BODY, STORE)                                    \
	TARGET_CE static int name(const aesecb_ctx *ctx, const uint8_t *in, \
	                          uint8_t *out)                             \
	{                                                                   \
		const uint8_t *rk = ctx->priv_keys.b + 16 * (off);          \
                                                                            \
		__asm__ __volatile__(BODY STORE                             \
		                     : [rk] "+&r"(rk), [out] "+&r"(out)     \
		                     : [in] "r"(in)                         \
		                     : "memory", CLOBBER_LOW, CLOBBER_HIGH); \
		return AESECB_OK;                                           \
	}

ONE_FN(enc_128, ENC_OFF, ONE_10("aese.8", "aesmc.8"), STORE_BLOCK1)
ONE_FN(enc_192, ENC_OFF, ONE_12("aese.8", "aesmc.8"), STORE_BLOCK1)
ONE_FN(enc_256, ENC_OFF, ONE_14("aese.8", "aesmc.8"), STORE_BLOCK1)
ONE_FN(dec_128, DEC_OFF, ONE_10("aesd.8", "aesimc.8"), STORE_BLOCK1)
ONE_FN(dec_192, DEC_OFF, ONE_12("aesd.8", "aesimc.8"), STORE_BLOCK1)
ONE_FN(dec_256, DEC_OFF, ONE_14("aesd.8", "aesimc.8"), STORE_BLOCK1)
ONE_FN(mask_128, ENC_OFF, ONE_10("aese.8", "aesmc.8"), STORE_MASK1)
ONE_FN(mask_192, ENC_OFF, ONE_12("aese.8", "aesmc.8"), STORE_MASK1)
ONE_FN(mask_256, ENC_OFF, ONE_14("aese.8", "aesmc.8"), STORE_MASK1)

/* [key size][ENC, DEC, MASK] */
static aesecb_one_fn *const one_table[3][AESECB_ONE_N] = {
	{ enc_128, dec_128, mask_128 },
	{ enc_192, dec_192, mask_192 },
	{ enc_256, dec_256, mask_256 },
};

static void one_fns(unsigned rounds, aesecb_one_fn *fns[AESECB_ONE_N])
{
	unsigned i;

	for (i = 0; i < AESECB_ONE_N; i++)
		fns[i] = one_table[(rounds - 10) / 2][i];
}

/* ------------------------------------------------------------------ */
/* Runs of blocks: rk[nr-10 .. nr] resident in q5-q15, the first nr-10
 * keys reloaded into q4 for each group of four (EARLY4) or each single
 * block (EARLY1); %[ek] walks them. */

#define EARLY_KEY L("vld1.8 {d8-d9}, [%[ek]]!")
#define EARLY4_10(OP, MC)
#define EARLY1_10(OP, MC)
#define EARLY4_12(OP, MC)                                                  \
	L("mov %[ek], %[rk]") EARLY_KEY R4(OP, MC, "q4") EARLY_KEY         \
	R4(OP, MC, "q4")
#define EARLY1_12(OP, MC)                                                  \
	L("mov %[ek], %[rk]") EARLY_KEY R1(OP, MC, "q4") EARLY_KEY         \
	R1(OP, MC, "q4")
#define EARLY4_14(OP, MC)                                                  \
	EARLY4_12(OP, MC) EARLY_KEY R4(OP, MC, "q4") EARLY_KEY             \
	R4(OP, MC, "q4")
#define EARLY1_14(OP, MC)                                                  \
	EARLY1_12(OP, MC) EARLY_KEY R1(OP, MC, "q4") EARLY_KEY             \
	R1(OP, MC, "q4")

/* The nine full rounds on the resident keys, then the last round. */
#define LATE4(OP, MC)                                                      \
	R4(OP, MC, "q5") R4(OP, MC, "q6") R4(OP, MC, "q7") R4(OP, MC, "q8") \
	R4(OP, MC, "q9") R4(OP, MC, "q10") R4(OP, MC, "q11")               \
	R4(OP, MC, "q12") R4(OP, MC, "q13") F4(OP, "q14", "q15")
#define LATE1(OP, MC)                                                      \
	R1(OP, MC, "q5") R1(OP, MC, "q6") R1(OP, MC, "q7") R1(OP, MC, "q8") \
	R1(OP, MC, "q9") R1(OP, MC, "q10") R1(OP, MC, "q11")               \
	R1(OP, MC, "q12") R1(OP, MC, "q13") F1(OP, "q14", "q15")

#define STORE_BLOCK4 L("vst1.8 {d0-d3}, [%[out]]!") L("vst1.8 {d4-d7}, [%[out]]!")
#define STORE_BLOCK1N L("vst1.8 {d0-d1}, [%[out]]!")
/* %[five] holds 5: an 8-byte store, then out += 5 */
#define STORE_MASK4                                                     \
	L("vst1.8 {d0}, [%[out]], %[five]") L("vst1.8 {d2}, [%[out]], %[five]") \
	L("vst1.8 {d4}, [%[out]], %[five]")                             \
	L("vst1.32 {d6[0]}, [%[out]]!") L("vst1.8 {d6[4]}, [%[out]]!")
#define STORE_MASK1N L("vst1.32 {d0[0]}, [%[out]]!") L("vst1.8 {d0[4]}, [%[out]]!")

/*
 * n >= 1 blocks from in to out (in == out allowed: each group is loaded
 * before it is stored).  %[last] points at rk[nr-10].
 */
#define BULK_ASM(EARLY4, EARLY1, OP, MC, STORE4, STORE1)                  \
	L("vldmia %[last]!, {d10-d25}")                                  \
	L("vldmia %[last], {d26-d31}")                                   \
	L("subs %[n], %[n], #4")                                         \
	L("blo 2f")                                                      \
	"1:\n\t"                                                         \
	L("vld1.8 {d0-d3}, [%[in]]!")                                    \
	L("vld1.8 {d4-d7}, [%[in]]!")                                    \
	EARLY4(OP, MC) LATE4(OP, MC) STORE4                              \
	L("subs %[n], %[n], #4")                                         \
	L("bhs 1b")                                                      \
	"2:\n\t"                                                         \
	L("adds %[n], %[n], #4")                                         \
	L("beq 4f")                                                      \
	"3:\n\t"                                                         \
	L("vld1.8 {d0-d1}, [%[in]]!")                                    \
	EARLY1(OP, MC) LATE1(OP, MC) STORE1                              \
	L("subs %[n], %[n], #1")                                         \
	L("bne 3b")                                                      \
	"4:\n\t"

#define BULK_FN(name, nr, OP, MC, STORE4, STORE1)                           \
	TARGET_CE static void name(const uint8_t *rk, const uint8_t *in,     \
	                           uint8_t *out, size_t n)                   \
	{                                                                    \
		const uint8_t *last = rk + 16 * (nr - 10), *ek = rk;         \
		size_t five = 5;                                             \
                                                                             \
		__asm__ __volatile__(                                        \
			BULK_ASM(EARLY4_##nr, EARLY1_##nr, OP, MC, STORE4,   \
			         STORE1)                                     \
			: [in] "+&r"(in), [out] "+&r"(out), [n] "+&r"(n),    \
			  [last] "+&r"(last), [ek] "+&r"(ek)                 \
			: [rk] "r"(rk), [five] "r"(five)                     \
			: "memory", "cc", CLOBBER_ALL);                      \
	}

BULK_FN(enc_bulk10, 10, "aese.8", "aesmc.8", STORE_BLOCK4, STORE_BLOCK1N)
BULK_FN(enc_bulk12, 12, "aese.8", "aesmc.8", STORE_BLOCK4, STORE_BLOCK1N)
BULK_FN(enc_bulk14, 14, "aese.8", "aesmc.8", STORE_BLOCK4, STORE_BLOCK1N)
BULK_FN(dec_bulk10, 10, "aesd.8", "aesimc.8", STORE_BLOCK4, STORE_BLOCK1N)
BULK_FN(dec_bulk12, 12, "aesd.8", "aesimc.8", STORE_BLOCK4, STORE_BLOCK1N)
BULK_FN(dec_bulk14, 14, "aesd.8", "aesimc.8", STORE_BLOCK4, STORE_BLOCK1N)
BULK_FN(mask_bulk10, 10, "aese.8", "aesmc.8", STORE_MASK4, STORE_MASK1N)
BULK_FN(mask_bulk12, 12, "aese.8", "aesmc.8", STORE_MASK4, STORE_MASK1N)
BULK_FN(mask_bulk14, 14, "aese.8", "aesmc.8", STORE_MASK4, STORE_MASK1N)

/*
 * The block functions keep every key-derived value in registers at any
 * optimisation level (the asm above); they are declared register-only
 * (AESECB_REGS_BLOCKS), and in an unoptimised build, where the library
 * runs them burned anyway, they record their frame as the contract asks.
 */
static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * ENC_OFF;

	AESECB_MARK_UNOPTIMISED(stk);
	switch (ctx->priv_rounds) {
	case 10: enc_bulk10(rk, in, out, n); break;
	case 12: enc_bulk12(rk, in, out, n); break;
	default: enc_bulk14(rk, in, out, n); break;
	}
	return AESECB_OK;
}

static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * DEC_OFF;

	AESECB_MARK_UNOPTIMISED(stk);
	switch (ctx->priv_rounds) {
	case 10: dec_bulk10(rk, in, out, n); break;
	case 12: dec_bulk12(rk, in, out, n); break;
	default: dec_bulk14(rk, in, out, n); break;
	}
	return AESECB_OK;
}

static int masks(const aesecb_ctx *ctx, const uint8_t *samples,
                 uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * ENC_OFF;

	AESECB_MARK_UNOPTIMISED(stk);
	switch (ctx->priv_rounds) {
	case 10: mask_bulk10(rk, samples, out, n); break;
	case 12: mask_bulk12(rk, samples, out, n); break;
	default: mask_bulk14(rk, samples, out, n); break;
	}
	return AESECB_OK;
}

/* ------------------------------------------------------------------ */
/* Key setup */

#define INLINE static inline __attribute__((always_inline))

/* SubWord: AESE with a zero key on four copies of w. */
TARGET_CE INLINE uint32_t sub_word(uint32_t w)
{
	__asm__ __volatile__(L("vdup.32 q0, %[w]")
	                     L("vmov.i8 q1, #0")
	                     L("aese.8 q0, q1")
	                     "vmov.32 %[w], d0[0]"
	                     : [w] "+&r"(w) : : "q0", "q1");
	return w;
}

/* dst = InvMixColumns(src), 16 bytes, memory to memory. */
TARGET_CE INLINE void inv_mix_columns(const uint8_t *src, uint8_t *dst)
{
	__asm__ __volatile__(L("vld1.8 {d0-d1}, [%[s]]")
	                     L("aesimc.8 q0, q0")
	                     "vst1.8 {d0-d1}, [%[d]]"
	                     : : [s] "r"(src), [d] "r"(dst) : "memory", "q0");
}

/*
 * The FIPS-197 expansion into the context's words (little-endian: byte 0
 * of the standard's word is the low byte, RotWord a rotate right by 8),
 * then the decryption keys.  A burned call (lib/aesecb.c): what the
 * compiler keeps of the words on the stack (at -O0, every temporary) is
 * overwritten after it returns; the helpers above are inlined.
 */
TARGET_CE static void setkey(aesecb_ctx *ctx, const uint8_t *key,
                             size_t key_len, aesecb_stack *stk)
{
	uint32_t *w = ctx->priv_keys.w + 4 * ENC_OFF;
	uint8_t *rk = ctx->priv_keys.b;
	size_t nk = key_len / 4, nr = ctx->priv_rounds, total = 4 * (nr + 1);
	size_t i;
	uint32_t rcon = 1;

	aesecb__stack_mark(stk);
	memcpy(w, key, key_len);
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
	memcpy(rk + 16 * DEC_OFF, rk + 16 * (ENC_OFF + nr), 16);
	for (i = 1; i < nr; i++)
		inv_mix_columns(rk + 16 * (ENC_OFF + nr - i),
		                rk + 16 * (DEC_OFF + i));
	memcpy(rk + 16 * (DEC_OFF + nr), rk + 16 * ENC_OFF, 16);
}

static const struct aesecb_impl impl = {
	.setkey = setkey,
	.encrypt = encrypt_blocks,
	.decrypt = decrypt_blocks,
	.masks = masks,
	.one = one_fns,
};
#define IMPL (&impl)
#else
#define IMPL NULL
#endif

AESECB_BACKEND(armce32, "arm", AESECB_CPU_ARM_ASIMD | AESECB_CPU_ARM_AES,
               AESECB_REGS(AESECB_REGS_ONE | AESECB_REGS_BLOCKS), IMPL);
