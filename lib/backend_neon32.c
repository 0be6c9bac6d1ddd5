/* SPDX-License-Identifier: MIT */
/*
 * backend_neon32.c - constant-time AES with NEON permutes in AArch32 state
 * (32-bit ARM: armhf on Cortex-A7/A8/A9/A15 and the ARMv8 cores without
 * the AES instructions, e.g. the Raspberry Pi 2 and 3 running 32-bit).
 *
 * The cipher is that of the AArch64 backend (backend_neon.c, whose top
 * comment derives it): the S-box computed through GF(16) inversions,
 * each a nibble looked up in a 16-byte table held in a register, the
 * state kept in the representation T (decryption: R) between rounds, the
 * constants of the affine map folded into the round keys.  The tables
 * are the same (lib/neon_tables.h), and so are the key layouts of the
 * bulk path: 15 encryption keys, then 15 decryption keys.
 *
 * What differs is the machine:
 *  - the table look-up is VTBL.8, which looks up eight indices (a d
 *    register) in a table of up to four d registers; a 16-byte table is
 *    the two halves of a q register, so a look-up of the whole state is
 *    two VTBL, and an index of 16 or more gives 0, as TBL does;
 *  - there are 16 q registers, not 32.  An encryption round needs eight
 *    constants (the inversion's INV, CK and nibble mask, ShiftRows, the
 *    four output tables), a key, the state and four temporaries: one
 *    block is in flight, with every constant in a register for the whole
 *    call.  Decryption has eight output tables: with those, INV, CK and
 *    the mask resident there are five registers left, which hold the
 *    state and the temporaries; the InvShiftRows pattern and the round key
 *    are loaded (from the table and from the context) into a temporary
 *    when the round needs them.  Two blocks in flight would need about
 *    five registers more than there are, i.e. tables loaded again in every
 *    round; the rounds' own parallelism (two inversion chains, four to
 *    eight independent output look-ups) is what the processor overlaps.
 *
 * Every block function is one asm statement with its registers chosen by
 * hand (below), so that neither the compiler nor the optimisation level
 * (-O0 keeps every C variable on the stack) can put a state or a round
 * key on the stack: they are declared register-only (AESECB_REGS_ONE and
 * _BLOCKS).  The C around them handles pointers and counts.  Key setup
 * is C (the linear maps on bytes, with masks) around an asm S-box, a
 * burned call (lib/aesecb.c).
 *
 * A round, encrypting: 37 instructions, 20 of them VTBL, plus the loop's
 * two; decrypting: 50 (24 VTBL) plus two.  ROT1 (a rotation within each
 * column) is VSHR.U32 #8 and VSLI.32 #24, with no table; the rotation by
 * two rows is VREV32.16.
 *
 * Constant time: VTBL, VAND, VEOR, shifts and VREV, whose timing does not
 * depend on the values; the only indices that depend on data are VTBL's,
 * into tables in registers; loads and stores are at addresses made of the
 * context, the buffers, the table and public counts; the branches are on
 * the block and round counts.
 *
 * Targets: NEON is enabled per function, never for the file: gcc with
 * target("fpu=neon"), clang 14 with the LLVM features "neon", "vfp3",
 * "vfp3sp" and "d32" (see TARGET_NEON).  Little-endian only: tables and
 * keys are loaded with VLDM, which loads doublewords in memory order.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "internal.h"

#if defined(AESECB_WITH_NEON32) && defined(__arm__) && \
    !defined(__aarch64__) && !defined(__ARM_BIG_ENDIAN)

#include "neon_tables.h"

/*
 * gcc: NEON for this function only (it writes ".fpu neon" before it).
 * clang 14 takes LLVM feature names, and an armhf build (VFPv3-D16)
 * lists "-vfp3", "-vfp3sp" and "-d32" among its base features, which
 * would turn NEON off again after "neon": they are named too.  clang's
 * assembler checks inline asm against the function's features.
 */
#if defined(__clang__)
#define TARGET_NEON __attribute__((target("neon,vfp3,vfp3sp,d32")))
#else
#define TARGET_NEON __attribute__((target("fpu=neon")))
#endif

/* Layout in ctx->priv_keys: 15 encryption, then 15 decryption keys, as
 * backend_neon.c's first 30. */
#define ENC_OFF 0
#define DEC_OFF 15

#define L(s) s "\n\t"

/*
 * Registers (both directions):
 *   q0        the state between rounds
 *   q1 .. q4  temporaries
 *   q5        the nibble mask 0x0f
 *   q6, q7    INV and CK (the inversion's tables)
 * encryption:
 *   q8, q9    E_IN_LO, E_IN_HI (the input map T)
 *   q10       the round key
 *   q11       SR
 *   q12 - q15 E_S_P, E_S_Q, E_S2_P, E_S2_Q
 * decryption:
 *   q8 - q15  D_E_P, D_E_Q, D_B_P, D_B_Q, D_D_P, D_D_Q, D_9_P, D_9_Q
 * (INV, CK, E_IN_LO, E_IN_HI are tab[0..3], loaded with one VLDM; the
 * decryption tables are tab[20..27], another.)
 */

/* The inversion: from z = ShiftRows(state) in q1, io in q3 and jo in q4
 * (see backend_neon.c); q0 - q2 are free afterwards. */
#define INVERT                                                           \
	L("vand q0, q1, q5")                  /* lo */                   \
	L("vshr.u8 q1, q1, #4")               /* hi */                   \
	L("veor q2, q0, q1")                  /* j = lo ^ hi */          \
	L("vtbl.8 d2, {d14-d15}, d2")         /* ak = CK[hi] */          \
	L("vtbl.8 d3, {d14-d15}, d3")                                    \
	L("vtbl.8 d6, {d12-d13}, d0")         /* iak = INV[lo] ^ ak */   \
	L("vtbl.8 d7, {d12-d13}, d1")                                    \
	L("veor q3, q3, q1")                                             \
	L("vtbl.8 d8, {d12-d13}, d4")         /* jak = INV[j] ^ ak */    \
	L("vtbl.8 d9, {d12-d13}, d5")                                    \
	L("veor q4, q4, q1")                                             \
	L("vtbl.8 d6, {d12-d13}, d6")         /* io = INV[iak] ^ j */    \
	L("vtbl.8 d7, {d12-d13}, d7")                                    \
	L("veor q3, q3, q2")                                             \
	L("vtbl.8 d8, {d12-d13}, d8")         /* jo = INV[jak] ^ lo */   \
	L("vtbl.8 d9, {d12-d13}, d9")                                    \
	L("veor q4, q4, q0")

/* The last round's output: the table pair loaded from %[tl] into q0 and
 * q1, looked up with io and jo, plus the last key: the result in q0. */
#define LAST_OUT                                                         \
	L("vldmia %[tl], {d0-d3}")                                       \
	L("vtbl.8 d4, {d0-d1}, d6")                                      \
	L("vtbl.8 d5, {d0-d1}, d7")                                      \
	L("vtbl.8 d6, {d2-d3}, d8")                                      \
	L("vtbl.8 d7, {d2-d3}, d9")                                      \
	L("vld1.8 {d0-d1}, [%[k]]!")                                     \
	L("veor q2, q2, q3")                                             \
	L("veor q0, q0, q2")

/* The first key added to the input map of the block in q0 (tables in
 * q8/q9 for encryption; decryption loads its pair into q1/q2 first). */
#define FIRST(LO, HI)                                                    \
	L("vand q3, q0, q5")                                             \
	L("vshr.u8 q4, q0, #4")                                          \
	L("vtbl.8 d0, {" LO "}, d6")                                     \
	L("vtbl.8 d1, {" LO "}, d7")                                     \
	L("vtbl.8 d6, {" HI "}, d8")                                     \
	L("vtbl.8 d7, {" HI "}, d9")                                     \
	L("vld1.8 {d8-d9}, [%[k]]!")                                     \
	L("veor q0, q0, q3")                                             \
	L("veor q0, q0, q4")

/* ---------------------------------------------------------- encryption */

/* One full round on q0; the key of the round goes to q10 first. */
#define ENC_ROUND                                                        \
	L("vld1.8 {d20-d21}, [%[k]]!")                                   \
	L("vtbl.8 d2, {d0-d1}, d22")          /* ShiftRows */            \
	L("vtbl.8 d3, {d0-d1}, d23")                                     \
	INVERT                                                           \
	L("vtbl.8 d0, {d24-d25}, d6")         /* a = S_P[io] ^ S_Q[jo] */ \
	L("vtbl.8 d1, {d24-d25}, d7")                                    \
	L("vtbl.8 d2, {d26-d27}, d8")                                    \
	L("vtbl.8 d3, {d26-d27}, d9")                                    \
	L("veor q0, q0, q1")                                             \
	L("vtbl.8 d2, {d28-d29}, d6")         /* a2 = S2_P[io] ^ S2_Q[jo] */ \
	L("vtbl.8 d3, {d28-d29}, d7")                                    \
	L("vtbl.8 d4, {d30-d31}, d8")                                    \
	L("vtbl.8 d5, {d30-d31}, d9")                                    \
	L("veor q1, q1, q2")                                             \
	L("vrev32.16 q2, q0")                 /* ra = rot2(a) */         \
	L("veor q1, q1, q2")                  /* y = a2 ^ ra */          \
	L("veor q0, q0, q1")                  /* x = a ^ y */            \
	L("veor q1, q1, q10")                 /* y ^ key */              \
	L("vshr.u32 q2, q0, #8")              /* rot1(x) */              \
	L("vsli.32 q2, q0, #24")                                         \
	L("veor q0, q1, q2")

/*
 * n >= 1 blocks (or masks) from in to out (in == out allowed: a block is
 * loaded before it is stored); nr rounds; %[k] walks the keys from %[rk]
 * (and first the tables from %[tb]), %[c] counts the rounds; %[tl]:
 * E_LAST_P; %[osr], %[oes]: the offsets of SR and E_S_P in tab[].
 */
#define ENC_ASM(STORE)                                                   \
	L("vmov.i8 q5, #15")                                             \
	L("vldmia %[tb], {d12-d19}")          /* INV CK E_IN_LO E_IN_HI */ \
	L("add %[k], %[tb], %[osr]")                                \
	L("vld1.8 {d22-d23}, [%[k]]")                                    \
	L("add %[k], %[tb], %[oes]")                             \
	L("vldmia %[k], {d24-d31}")           /* S_P S_Q S2_P S2_Q */    \
	"1:\n\t"                                                         \
	L("vld1.8 {d0-d1}, [%[in]]!")                                    \
	L("mov %[k], %[rk]")                                             \
	FIRST("d16-d17", "d18-d19")                                      \
	L("sub %[c], %[nr], #1")                                         \
	"2:\n\t"                                                         \
	ENC_ROUND                                                        \
	L("subs %[c], %[c], #1")                                         \
	L("bne 2b")                                                      \
	L("vtbl.8 d2, {d0-d1}, d22")                                     \
	L("vtbl.8 d3, {d0-d1}, d23")                                     \
	INVERT                                                           \
	LAST_OUT                                                         \
	STORE                                                            \
	L("subs %[n], %[n], #1")                                         \
	L("bne 1b")

#define STORE_BLOCK L("vst1.8 {d0-d1}, [%[out]]!")
#define STORE_MASK L("vst1.32 {d0[0]}, [%[out]]!") L("vst1.8 {d0[4]}, [%[out]]!")

#define ENC_FN(name, STORE)                                                  \
	TARGET_NEON static void name(const uint8_t *rk, unsigned nr,         \
	                             const uint8_t *in, uint8_t *out, size_t n) \
	{                                                                    \
		const uint8_t *k, *tl = tab[E_LAST_P];                       \
		unsigned c;                                                  \
                                                                             \
		__asm__ __volatile__(ENC_ASM(STORE)                          \
			: [in] "+&r"(in), [out] "+&r"(out), [n] "+&r"(n),    \
			  [k] "=&r"(k), [c] "=&r"(c)                         \
			: [rk] "r"(rk), [nr] "r"(nr), [tb] "r"(tab[0]),      \
			  [tl] "r"(tl), [osr] "i"(16 * SR),                  \
			  [oes] "i"(16 * E_S_P)                              \
			: "memory", "cc", "q0", "q1", "q2", "q3", "q4", "q5", \
			  "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", \
			  "q14", "q15");                                     \
	}

ENC_FN(enc_run, STORE_BLOCK)
ENC_FN(mask_run, STORE_MASK)

/* ---------------------------------------------------------- decryption */

/* One full round on q0 (the equivalent inverse cipher, on R(state)). */
#define DEC_ROUND                                                        \
	L("vld1.8 {d2-d3}, [%[isr]]")                                    \
	L("vtbl.8 d2, {d0-d1}, d2")           /* InvShiftRows */         \
	L("vtbl.8 d3, {d0-d1}, d3")                                      \
	INVERT                                                           \
	L("vtbl.8 d0, {d28-d29}, d6")         /* n = 9_P[io] ^ 9_Q[jo] */ \
	L("vtbl.8 d1, {d28-d29}, d7")                                    \
	L("vtbl.8 d2, {d30-d31}, d8")                                    \
	L("vtbl.8 d3, {d30-d31}, d9")                                    \
	L("veor q0, q0, q1")                                             \
	L("vrev32.16 q0, q0")                 /* rot2(n) */              \
	L("vtbl.8 d2, {d20-d21}, d6")         /* ^ b = B_P[io] ^ B_Q[jo] */ \
	L("vtbl.8 d3, {d20-d21}, d7")                                    \
	L("veor q0, q0, q1")                                             \
	L("vtbl.8 d2, {d22-d23}, d8")                                    \
	L("vtbl.8 d3, {d22-d23}, d9")                                    \
	L("veor q0, q0, q1")                                             \
	L("vshr.u32 q1, q0, #8")              /* rot1(b ^ rot2(n)) */    \
	L("vsli.32 q1, q0, #24")                                         \
	L("vld1.8 {d0-d1}, [%[k]]!")          /* the round key */        \
	L("veor q1, q1, q0")                                             \
	L("vtbl.8 d0, {d24-d25}, d6")         /* d = D_P[io] ^ D_Q[jo] */ \
	L("vtbl.8 d1, {d24-d25}, d7")                                    \
	L("vtbl.8 d4, {d26-d27}, d8")                                    \
	L("vtbl.8 d5, {d26-d27}, d9")                                    \
	L("veor q0, q0, q2")                                             \
	L("vrev32.16 q0, q0")                 /* rot2(d) */              \
	L("veor q1, q1, q0")                                             \
	L("vtbl.8 d0, {d16-d17}, d6")         /* e = E_P[io] ^ E_Q[jo] */ \
	L("vtbl.8 d1, {d16-d17}, d7")                                    \
	L("vtbl.8 d4, {d18-d19}, d8")                                    \
	L("vtbl.8 d5, {d18-d19}, d9")                                    \
	L("veor q0, q0, q1")                                             \
	L("veor q0, q0, q2")

/* As ENC_ASM; %[isr]: ISR; %[tl]: D_LAST_P, which D_IN_LO and D_IN_HI
 * precede (tab[16], tab[17]: %[tl] - 32). */
#define DEC_ASM                                                          \
	L("vmov.i8 q5, #15")                                             \
	L("vldmia %[tb], {d12-d15}")          /* INV CK */               \
	L("add %[k], %[tb], %[ode]")                             \
	L("vldmia %[k], {d16-d31}")           /* D_E_P .. D_9_Q */       \
	"1:\n\t"                                                         \
	L("vld1.8 {d0-d1}, [%[in]]!")                                    \
	L("sub %[k], %[tl], #32")                                        \
	L("vldmia %[k], {d2-d5}")             /* D_IN_LO D_IN_HI */      \
	L("mov %[k], %[rk]")                                             \
	FIRST("d2-d3", "d4-d5")                                          \
	L("sub %[c], %[nr], #1")                                         \
	"2:\n\t"                                                         \
	DEC_ROUND                                                        \
	L("subs %[c], %[c], #1")                                         \
	L("bne 2b")                                                      \
	L("vld1.8 {d2-d3}, [%[isr]]")                                    \
	L("vtbl.8 d2, {d0-d1}, d2")                                      \
	L("vtbl.8 d3, {d0-d1}, d3")                                      \
	INVERT                                                           \
	LAST_OUT                                                         \
	STORE_BLOCK                                                      \
	L("subs %[n], %[n], #1")                                         \
	L("bne 1b")

TARGET_NEON static void dec_run(const uint8_t *rk, unsigned nr,
                                const uint8_t *in, uint8_t *out, size_t n)
{
	const uint8_t *k, *tl = tab[D_LAST_P];
	unsigned c;

	__asm__ __volatile__(DEC_ASM
		: [in] "+&r"(in), [out] "+&r"(out), [n] "+&r"(n),
		  [k] "=&r"(k), [c] "=&r"(c)
		: [rk] "r"(rk), [nr] "r"(nr), [tb] "r"(tab[0]), [tl] "r"(tl),
		  [isr] "r"(tab[ISR]), [ode] "i"(16 * D_E_P)
		: "memory", "cc", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7",
		  "q8", "q9", "q10", "q11", "q12", "q13", "q14", "q15");
}

/* ---------------------------------------------------------- entry points */

/* stk: only an unoptimised build runs these burned (lib/internal.h). */
static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t n, aesecb_stack *stk)
{
	AESECB_MARK_UNOPTIMISED(stk);
	enc_run(ctx->priv_keys.b + 16 * ENC_OFF, ctx->priv_rounds, in, out, n);
	return AESECB_OK;
}

static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t n, aesecb_stack *stk)
{
	AESECB_MARK_UNOPTIMISED(stk);
	dec_run(ctx->priv_keys.b + 16 * DEC_OFF, ctx->priv_rounds, in, out, n);
	return AESECB_OK;
}

static int masks(const aesecb_ctx *ctx, const uint8_t *samples,
                 uint8_t *out, size_t n, aesecb_stack *stk)
{
	AESECB_MARK_UNOPTIMISED(stk);
	mask_run(ctx->priv_keys.b + 16 * ENC_OFF, ctx->priv_rounds, samples,
	         out, n);
	return AESECB_OK;
}

/* One block or one mask: the same loops, entered for one block, called
 * directly by the one-block entry points (an optimised build). */
static int encrypt_one(const aesecb_ctx *ctx, const uint8_t *in,
                       uint8_t *out)
{
	enc_run(ctx->priv_keys.b + 16 * ENC_OFF, ctx->priv_rounds, in, out, 1);
	return AESECB_OK;
}

static int decrypt_one(const aesecb_ctx *ctx, const uint8_t *in,
                       uint8_t *out)
{
	dec_run(ctx->priv_keys.b + 16 * DEC_OFF, ctx->priv_rounds, in, out, 1);
	return AESECB_OK;
}

static int mask_one(const aesecb_ctx *ctx, const uint8_t *in, uint8_t *out)
{
	mask_run(ctx->priv_keys.b + 16 * ENC_OFF, ctx->priv_rounds, in, out, 1);
	return AESECB_OK;
}

static void one_fns(unsigned rounds, aesecb_one_fn *fns[AESECB_ONE_N])
{
	(void)rounds;
	fns[AESECB_ONE_ENC] = encrypt_one;
	fns[AESECB_ONE_DEC] = decrypt_one;
	fns[AESECB_ONE_MASK] = mask_one;
}

/* ---------------------------------------------------------- key setup */

#define INLINE static inline __attribute__((always_inline))

/* The AES S-box on the four bytes of w: the input map, the inversion and
 * the last round's tables (M * inverse), plus 0x63. */
TARGET_NEON INLINE uint32_t sub_word(uint32_t w)
{
	const uint8_t *tl = tab[E_LAST_P];

	__asm__ __volatile__(
		L("vmov.i8 q5, #15")
		L("vldmia %[tb], {d12-d19}")
		L("vdup.32 q0, %[w]")
		L("vand q1, q0, q5")
		L("vshr.u8 q2, q0, #4")
		L("vtbl.8 d6, {d16-d17}, d2")
		L("vtbl.8 d7, {d16-d17}, d3")
		L("vtbl.8 d8, {d18-d19}, d4")
		L("vtbl.8 d9, {d18-d19}, d5")
		L("veor q1, q3, q4")
		INVERT
		L("vldmia %[tl], {d0-d3}")
		L("vtbl.8 d4, {d0-d1}, d6")
		L("vtbl.8 d5, {d0-d1}, d7")
		L("vtbl.8 d6, {d2-d3}, d8")
		L("vtbl.8 d7, {d2-d3}, d9")
		L("veor q2, q2, q3")
		L("vmov.i8 q3, #0x63")
		L("veor q2, q2, q3")
		"vmov.32 %[w], d4[0]"
		: [w] "+&r"(w)
		: [tb] "r"(tab[0]), [tl] "r"(tl)
		: "memory", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8",
		  "q9");
	return w;
}

/*
 * A GF(2)-linear map of a byte given by its images of the two nibbles
 * (tables lo and hi, as the block functions use them): the XOR of the
 * images of its set bits, each selected by a mask, so that no index
 * depends on x.
 */
INLINE uint8_t lin_byte(uint8_t x, const uint8_t *lo, const uint8_t *hi)
{
	uint8_t r = 0;
	unsigned b;

	for (b = 0; b < 4; b++) {
		r ^= lo[1u << b] & (uint8_t)-((x >> b) & 1u);
		r ^= hi[1u << b] & (uint8_t)-((x >> (b + 4)) & 1u);
	}
	return r;
}

INLINE uint8_t xtime(uint8_t a)
{
	return (uint8_t)((a << 1) ^ (0x1bu & -(unsigned)(a >> 7)));
}

/* InvMixColumns of one round key, in place. */
INLINE void inv_mix_columns(uint8_t *k)
{
	unsigned c, r;

	for (c = 0; c < 4; c++) {
		uint8_t m9[4], m11[4], m13[4], m14[4];

		for (r = 0; r < 4; r++) {
			uint8_t a1 = k[4 * c + r], a2 = xtime(a1);
			uint8_t a4 = xtime(a2), a8 = xtime(a4);

			m9[r] = a8 ^ a1;
			m11[r] = a8 ^ a2 ^ a1;
			m13[r] = a8 ^ a4 ^ a1;
			m14[r] = a8 ^ a4 ^ a2;
		}
		for (r = 0; r < 4; r++)
			k[4 * c + r] = m14[r] ^ m11[(r + 1) % 4] ^
			               m13[(r + 2) % 4] ^ m9[(r + 3) % 4];
	}
}

/*
 * The FIPS-197 expansion into the encryption area of the context (words
 * little-endian: byte 0 of the standard's word is the low byte, RotWord a
 * rotate right by 8); the decryption keys from it; then the encryption
 * keys mapped in place.  Encryption: T(rk[0]), T(rk[r]) ^ T(0x63),
 * rk[nr] ^ 0x63; decryption: R(rk[nr]), R(InvMixColumns(rk[nr-i])),
 * rk[0], all but the last with R(M^-1 0x63) added (backend_neon.c).
 * A burned call: its frame (at -O0 every temporary of it is there; the
 * helpers above are inlined) is overwritten after it returns.
 */
TARGET_NEON static void setkey(aesecb_ctx *ctx, const uint8_t *key,
                               size_t key_len, aesecb_stack *stk)
{
	uint32_t *w = ctx->priv_keys.w + 4 * ENC_OFF;
	uint8_t *ek = ctx->priv_keys.b + 16 * ENC_OFF;
	uint8_t *dk = ctx->priv_keys.b + 16 * DEC_OFF;
	size_t nk = key_len / 4, nr = ctx->priv_rounds, total = 4 * (nr + 1);
	size_t i, j;
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
	for (i = 0; i <= nr; i++) {
		uint8_t *d = dk + 16 * i;

		memcpy(d, ek + 16 * (nr - i), 16);
		if (i == nr)
			break;
		if (i > 0)
			inv_mix_columns(d);
		for (j = 0; j < 16; j++)
			d[j] = lin_byte(d[j], tab[D_IN_LO], tab[D_IN_HI]) ^
			       DEC_CONST;
	}
	for (i = 0; i < nr; i++)
		for (j = 0; j < 16; j++)
			ek[16 * i + j] = lin_byte(ek[16 * i + j], tab[E_IN_LO],
			                          tab[E_IN_HI]) ^
			                 (i > 0 ? ENC_MID_CONST : 0);
	for (j = 0; j < 16; j++)
		ek[16 * nr + j] ^= ENC_LAST_CONST;
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

AESECB_BACKEND(neon32, "arm", AESECB_CPU_ARM_ASIMD,
               AESECB_REGS(AESECB_REGS_ONE | AESECB_REGS_BLOCKS), IMPL);
