/* SPDX-License-Identifier: MIT */
/*
 * backend_neon.c - constant-time AES with Advanced SIMD permutes (AArch64
 * cores without the Crypto Extensions, e.g. Cortex-A53/A72 as found in
 * the Raspberry Pi 3 and 4).
 *
 * The S-box is computed, not looked up in memory: the only tables are
 * 16-byte constants held in vector registers, indexed a nibble at a time
 * with TBL (vqtbl1q_u8), which looks up all 16 bytes of a block at once
 * and whose timing does not depend on the indices.  The approach is the
 * vector-permute one of M. Hamburg (CHES 2009); the representation, the
 * formulas and the constants below were derived for this file.
 *
 * Field representation
 * --------------------
 * GF(2^8) (the AES field, x^8+x^4+x^3+x+1) is viewed as a quadratic
 * extension of GF(16) = GF(2)[z]/(z^4+z+1):
 *     GF(2^8) = GF(16)[Y] / (Y^2 + Y + L),   L = 8 (z^3), which has no root
 * in GF(16).  The embedding of GF(16) maps z to 0x5c (a root of z^4+z+1
 * in the AES field) and Y is 0xa2 (a root of Y^2 + Y + 0x5c^3).  Every
 * byte is x = u + v*Y with u, v in GF(16), and since the conjugate of Y
 * is Y + 1,
 *     N(x) = x * conj(x) = u^2 + u*v + L*v^2,   1/x = ((u+v) + v*Y) / N(x).
 * With s = sqrt(L) (= 10) and c = 1/s (= 12) put
 *     i = u,  j = s*v,  k = i + j,  so  N(x) = i^2 + c*i*j + j^2 = c*i*j + k^2,
 * and a short computation gives
 *     1/(1/i + c/k) + j = N / (k + c*i)
 *     1/(1/j + c/k) + i = N / (k + c*j)
 * The two right-hand sides are the inverses of two independent GF(16)-
 * linear combinations of the coordinates of 1/x, so one more inversion
 * of each, followed by any GF(2)-linear map, is a sum of two 16-entry
 * tables, one indexed by each left-hand side.  Every step on the left is
 * a one-nibble lookup (1/n or c/n) or an XOR.
 *
 * Zero is handled as the point at infinity: the tables for 1/n and c/n
 * give 0x10 ("infinity") at n = 0, an XOR with a nibble keeps bit 4 set,
 * and TBL returns 0 for any index of 16 or more, i.e. 1/infinity = 0.
 * (For x = 0 both terms of 1/i + c/k are infinity; their XOR is 0, whose
 * inverse is infinity again and the output tables give 0, as required.)
 * The generator checked all 256 inputs of every table combination below.
 *
 * A byte in the working representation holds k in its high nibble and i
 * in its low nibble; the map T from a standard byte to it is GF(2)-linear.
 * The whole state stays in this representation between rounds: round
 * keys are stored transformed, and the output tables of a round produce
 * the next round's representation directly.
 *
 * Encryption round (state Z = T(s), round key already added):
 *     Z = ShiftRows(Z)                      one TBL with a fixed permutation
 *     lo = Z & 15, hi = Z >> 4, j = lo ^ hi
 *     ak = CK[hi], iak = INV[lo] ^ ak, jak = INV[j] ^ ak
 *     io = INV[iak] ^ j, jo = INV[jak] ^ lo
 *     a  = S_P[io]  ^ S_Q[jo]               T(M * inverse)
 *     a2 = S2_P[io] ^ S2_Q[jo]              T(2 * M * inverse)
 *     MixColumns from a and a2 only by rotating bytes within columns:
 *       MC(a) = a2 ^ rot2(a) ^ rot1(a2 ^ a ^ rot2(a))
 *     (rot2 is REV32 on 16-bit halves, rot1 one TBL), then ^ round key.
 * M is the linear part of the S-box's affine map.  Its constant 0x63, and
 * the T(0x63) = 0x10 it becomes after MixColumns (which maps a state of
 * equal bytes to itself), are folded into the stored round keys, so the
 * tables are linear and TBL's zero for "infinity" is correct.  The last
 * round uses tables for M * inverse in the standard basis.
 *
 * Decryption works on R(s) = T(M^-1 s) (plus T(M^-1 0x63), in the keys),
 * so the S-box input is T(InvSubBytes input) as the inversion wants; the
 * output tables give R(e * inverse) for e = 14, 11, 13, 9 and
 *     InvMixColumns = t14 ^ rot2(t13) ^ rot1(t11 ^ rot2(t9)).
 * Round keys are those of the equivalent inverse cipher (InvMixColumns
 * applied in setkey), transformed with R.  Both key layouts are computed
 * once in setkey; the block functions write nothing but their output.
 *
 * Deriving the constants
 * ----------------------
 * All 22 tables come from the short program printed above them in
 * lib/neon_tables.h (it reproduces them exactly; lib/backend_neon32.c
 * uses them too).  It builds GF(2^8)
 * and GF(16) by carry-less multiplication, finds 0x5c and 0xa2 as above,
 * inverts (u, v) -> u + v*Y by tabulating it (T is linear),
 * and tabulates:
 *   INV[n] = 1/n, CK[n] = c/n in GF(16), both 0x10 at n = 0;
 *   X_P[n], X_Q[n] = f(contribution to 1/x of 1/n in the first or second
 *     position), for f = T*M, T*2*M, M (encryption), R*e (decryption),
 *     identity (last decryption round);
 *   IN_LO[n] = T(n), IN_HI[n] = T(n << 4) (and the same for R): the input
 *     transform is the XOR of two lookups, as T is linear.
 * A longer version of it also ran the formulas above, with TBL's zero
 * for indices >= 16, on every byte and compared the results with the
 * FIPS-197 S-box and inverse S-box (the unit tests and the NIST vectors
 * check the whole cipher again).
 *
 * Cost per round and block: 26 vector instructions encrypting (11 of
 * them TBL), 32 decrypting (15 TBL).  A round is a chain of about 14
 * dependent instructions (5 of them TBL), so the bulk loops interleave
 * blocks to give an in-order core (A53) independent work to pair and an
 * out-of-order one (A72) enough to fill both SIMD pipes (see encrypt_nr).
 *
 * One block (QUIC header protection; the blocks left over by the bulk
 * loops) has a path of its own, one_nr: ShiftRows is folded into the
 * state's byte order, the column rotations (conjugated, a TBL where
 * REV32 no longer fits) and the stored keys (a second set, 30..59 of the
 * context's blocks), which takes one TBL and one step from every round,
 * and the round key is added to the terms that are ready early, so that
 * the last rotation is one XOR from the next state.  A round is then 25
 * vector instructions encrypting, 31 decrypting, and 12 steps either way
 * (from 14); the function runs none of the bulk loops' set-up.  Under
 * qemu-aarch64, a one-block call (through aesecb_encrypt) executes 310
 * instructions for AES-128 and 415 for AES-256 (327 and 434 before),
 * decrypting 373 and 500 (378 and 513).  The inversion that makes the
 * ssse3 decryption a step shorter (w = N/j) would cost two instructions
 * a round more here, where the high nibble is a single USHR.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "internal.h"

#if defined(AESECB_WITH_NEON) && defined(__aarch64__)
#include <arm_neon.h>

/* Layout in ctx->priv_keys: 15 encryption, then 15 decryption keys, then
 * the same for the one-block path: key n permuted by InvShiftRows^n
 * (encryption) or ShiftRows^n (decryption), see "one block" below. */
#define ENC_OFF 0
#define DEC_OFF 15
#define ENC1_OFF 30
#define DEC1_OFF 45

#include "neon_tables.h"

#define AI __attribute__((always_inline))
#define TBL(t, i) vqtbl1q_u8((t), (i))
#define XOR(a, b) veorq_u8((a), (b))
#define LD(id) vld1q_u8(tab[id])

/*
 * The table base in a register: hidden from the optimiser, so that each
 * table below is one load from it (without, gcc forms every address anew
 * with ADRP, doubling the set-up of a one-block call).
 */
static inline AI const uint8_t *tab_base(void)
{
	const uint8_t *p = tab[0];

	__asm__("" : "+r"(p));
	return p;
}
#define LDB(b, id) vld1q_u8((b) + 16 * (id))

/* Rotate each column by two bytes: 16-bit halves of 32-bit lanes swap. */
static inline AI uint8x16_t rot2(uint8x16_t a)
{
	return vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(a)));
}

/* The constants of the inversion (every round, both directions). */
struct inv_k {
	uint8x16_t m, inv, ck;
};

static inline AI struct inv_k load_inv_k(const uint8_t *b)
{
	struct inv_k c = { vdupq_n_u8(0x0f), LDB(b, INV), LDB(b, CK) };

	return c;
}

/* From z = T(x), io and jo whose table lookups give 1/x (see above). */
static inline AI void invert(uint8x16_t z, const struct inv_k *c,
                             uint8x16_t *io, uint8x16_t *jo)
{
	uint8x16_t lo = vandq_u8(z, c->m), hi = vshrq_n_u8(z, 4);
	uint8x16_t j = XOR(lo, hi);
	uint8x16_t ak = TBL(c->ck, hi);
	uint8x16_t iak = XOR(TBL(c->inv, lo), ak);
	uint8x16_t jak = XOR(TBL(c->inv, j), ak);

	*io = XOR(TBL(c->inv, iak), j);
	*jo = XOR(TBL(c->inv, jak), lo);
}

/* A GF(2)-linear map of bytes given by its images of the two nibbles. */
static inline AI uint8x16_t lin(uint8x16_t x, uint8x16_t m, uint8x16_t tlo,
                                uint8x16_t thi)
{
	return XOR(TBL(tlo, vandq_u8(x, m)), TBL(thi, vshrq_n_u8(x, 4)));
}

/* ---------------------------------------------------------- encryption */

struct enc_k {
	struct inv_k i;
	uint8x16_t sr, rot1, sp, sq, s2p, s2q;
};

static inline AI struct enc_k load_enc_k(const uint8_t *b)
{
	struct enc_k c = {
		load_inv_k(b), LDB(b, SR), LDB(b, ROT1),
		LDB(b, E_S_P), LDB(b, E_S_Q), LDB(b, E_S2_P), LDB(b, E_S2_Q)
	};

	return c;
}

/* One full round on T(state ^ key): SubBytes, ShiftRows, MixColumns,
 * then the next (transformed) key. */
static inline AI uint8x16_t enc_round(uint8x16_t z, const struct enc_k *c,
                                      uint8x16_t k)
{
	uint8x16_t io, jo, a, a2, ra, t;

	z = TBL(z, c->sr);
	invert(z, &c->i, &io, &jo);
	a = XOR(TBL(c->sp, io), TBL(c->sq, jo));
	a2 = XOR(TBL(c->s2p, io), TBL(c->s2q, jo));
	ra = rot2(a);
	t = TBL(XOR(XOR(a2, a), ra), c->rot1);
	return XOR(XOR(a2, ra), XOR(t, k));
}

/* The last round: the result in the standard basis, with the last key. */
static inline AI uint8x16_t enc_last(uint8x16_t z, const struct enc_k *c,
                                     uint8x16_t lp, uint8x16_t lq,
                                     uint8x16_t k)
{
	uint8x16_t io, jo;

	z = TBL(z, c->sr);
	invert(z, &c->i, &io, &jo);
	return XOR(XOR(TBL(lp, io), TBL(lq, jo)), k);
}

/* ---------------------------------------------------------- decryption */

struct dec_k {
	struct inv_k i;
	uint8x16_t isr, rot1, ep, eq, bp, bq, dp, dq, np, nq;
};

static inline AI struct dec_k load_dec_k(const uint8_t *b)
{
	struct dec_k c = {
		load_inv_k(b), LDB(b, ISR), LDB(b, ROT1),
		LDB(b, D_E_P), LDB(b, D_E_Q), LDB(b, D_B_P), LDB(b, D_B_Q),
		LDB(b, D_D_P), LDB(b, D_D_Q), LDB(b, D_9_P), LDB(b, D_9_Q)
	};

	return c;
}

/* InvShiftRows, InvSubBytes, InvMixColumns, then the next key (equivalent
 * inverse cipher), all on R(state). */
static inline AI uint8x16_t dec_round(uint8x16_t z, const struct dec_k *c,
                                      uint8x16_t k)
{
	uint8x16_t io, jo, e, b, d, n, t;

	z = TBL(z, c->isr);
	invert(z, &c->i, &io, &jo);
	e = XOR(TBL(c->ep, io), TBL(c->eq, jo));
	b = XOR(TBL(c->bp, io), TBL(c->bq, jo));
	d = XOR(TBL(c->dp, io), TBL(c->dq, jo));
	n = XOR(TBL(c->np, io), TBL(c->nq, jo));
	t = TBL(XOR(b, rot2(n)), c->rot1);
	return XOR(XOR(e, rot2(d)), XOR(t, k));
}

static inline AI uint8x16_t dec_last(uint8x16_t z, const struct dec_k *c,
                                     uint8x16_t lp, uint8x16_t lq,
                                     uint8x16_t k)
{
	uint8x16_t io, jo;

	z = TBL(z, c->isr);
	invert(z, &c->i, &io, &jo);
	return XOR(XOR(TBL(lp, io), TBL(lq, jo)), k);
}

/* ---------------------------------------------------------- key setup */

/* The AES S-box on every byte, through the same inversion. */
static inline AI uint8x16_t sub_bytes(uint8x16_t x)
{
	struct inv_k c = load_inv_k(tab[0]);
	uint8x16_t io, jo;

	invert(lin(x, c.m, LD(E_IN_LO), LD(E_IN_HI)), &c, &io, &jo);
	return XOR(XOR(TBL(LD(E_LAST_P), io), TBL(LD(E_LAST_Q), jo)),
	           vdupq_n_u8(ENC_LAST_CONST));
}

static inline AI uint32_t sub_word(uint32_t w)
{
	uint8x16_t v = sub_bytes(vreinterpretq_u8_u32(vdupq_n_u32(w)));

	return vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
}

static inline AI uint8x16_t xtime(uint8x16_t a)
{
	uint8x16_t hi = vreinterpretq_u8_s8(
		vshrq_n_s8(vreinterpretq_s8_u8(a), 7));

	return XOR(vshlq_n_u8(a, 1), vandq_u8(hi, vdupq_n_u8(0x1b)));
}

/* InvMixColumns in the standard basis (for the decryption keys). */
static inline AI uint8x16_t inv_mix_columns(uint8x16_t a)
{
	uint8x16_t a2 = xtime(a), a4 = xtime(a2), a8 = xtime(a4);
	uint8x16_t e = XOR(XOR(a8, a4), a2), b = XOR(XOR(a8, a2), a);
	uint8x16_t d = XOR(XOR(a8, a4), a), n = XOR(a8, a);

	return XOR(XOR(e, rot2(d)), TBL(XOR(b, rot2(n)), LD(ROT1)));
}

static inline AI uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline AI void store32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* A burned call (lib/aesecb.c): w, std and the compiler's spills are
 * overwritten after it returns; the helpers above are inlined. */
static void setkey(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                   aesecb_stack *stk)
{
	/* Words are little-endian loads of the key bytes, so byte 0 of the
	 * standard's word is the low byte here and RotWord is a rotate
	 * right by 8. */
	uint32_t w[60];
	uint8_t std[15 * 16];
	size_t nk = key_len / 4, nr = ctx->priv_rounds, total = 4 * (nr + 1);
	size_t i;
	uint32_t rcon = 1;
	uint8_t *rk = ctx->priv_keys.b;
	uint8x16_t m = vdupq_n_u8(0x0f), k;

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
		store32(std + 4 * i, w[i]);

	/* Encryption: T(rk[0]), T(rk[r]) ^ T(0x63), rk[nr] ^ 0x63. */
	for (i = 0; i <= nr; i++) {
		k = vld1q_u8(std + 16 * i);
		if (i == nr)
			k = XOR(k, vdupq_n_u8(ENC_LAST_CONST));
		else
			k = lin(k, m, LD(E_IN_LO), LD(E_IN_HI));
		if (i > 0 && i < nr)
			k = XOR(k, vdupq_n_u8(ENC_MID_CONST));
		vst1q_u8(rk + 16 * (ENC_OFF + i), k);
	}
	/* Decryption: R(rk[nr]), R(InvMixColumns(rk[nr-i])), rk[0]; all but
	 * the last with R(M^-1 0x63) added. */
	for (i = 0; i <= nr; i++) {
		k = vld1q_u8(std + 16 * (nr - i));
		if (i < nr) {
			if (i > 0)
				k = inv_mix_columns(k);
			k = XOR(lin(k, m, LD(D_IN_LO), LD(D_IN_HI)),
			        vdupq_n_u8(DEC_CONST));
		}
		vst1q_u8(rk + 16 * (DEC_OFF + i), k);
	}
	/* One block: key n permuted by InvShiftRows^n (encryption) or
	 * ShiftRows^n (decryption), n = 1..nr, as the state is held there. */
	for (i = 0; i <= nr; i++) {
		uint8x16_t e = vld1q_u8(rk + 16 * (ENC_OFF + i));
		uint8x16_t d = vld1q_u8(rk + 16 * (DEC_OFF + i));
		size_t j;

		for (j = 0; j < i % 4; j++) {
			e = TBL(e, LD(ISR));
			d = TBL(d, LD(SR));
		}
		vst1q_u8(rk + 16 * (ENC1_OFF + i), e);
		vst1q_u8(rk + 16 * (DEC1_OFF + i), d);
	}
}

#define UNROLL _Pragma("GCC unroll 16")

/*
 * CALL(nr) for the context's round count: in an optimised build once per
 * count, a constant there, so that the round loops unroll; in an
 * unoptimised one once, with the count read at run time.  -O0 keeps a
 * stack slot for every value of every inlined expansion: the three
 * expansions of the bulk and one-block paths took 43 KiB of stack
 * (gcc 12 -O0), 83 KiB with clang 14.  There the block functions also
 * send the blocks left after the groups through encrypt_one and
 * decrypt_one, out of line, rather than expand the one-block path in
 * their own frames as well.
 */
#ifdef __OPTIMIZE__
#define BY_ROUNDS(rounds, CALL) do { \
	switch (rounds) { \
	case 10: CALL(10); break; \
	case 12: CALL(12); break; \
	default: CALL(14); break; \
	} \
} while (0)
#else
#define BY_ROUNDS(rounds, CALL) CALL(rounds)
#endif
/* the calls BY_ROUNDS makes, in the block functions below */
#define ONE_ENC(nr) one_nr(rk, in, out, nr, 0)
#define ONE_DEC(nr) one_nr(rk, in, out, nr, 1)
#define ENC_NR(nr) encrypt_nr(rk, rk1, in, out, n, nr)
#define DEC_NR(nr) decrypt_nr(rk, rk1, in, out, n, nr)

/* ---------------------------------------------------------- one block */

/*
 * One block is one chain of dependent instructions.  ShiftRows is not
 * done on its own there: after round n the state is held permuted by
 * ShiftRows^-n, each round's column rotations are conjugated by
 * ShiftRows^n (ROT1 by R1C1..R1C3; REV32 commutes with ShiftRows^2 and
 * is R2C1 in odd rounds), its key is stored permuted in setkey, and one
 * TBL by ShiftRows^(Nr mod 4) puts the bytes in place at the end (none
 * for AES-192).  Decryption does the same with InvShiftRows, whose
 * conjugations are those of ShiftRows^-n.  One TBL and one step fewer
 * per round than the bulk loops.
 */
/*
 * The compiler regroups chains of XORs as it likes; a value passed through
 * here is opaque to it.  The round key is added to the terms that are
 * ready early, so that the last rotation is one XOR from the next state
 * (gcc would add it after the rotation: two more steps a round).
 */
static inline AI uint8x16_t keep(uint8x16_t v)
{
	__asm__("" : "+w"(v));
	return v;
}

struct one_k {
	struct inv_k i;
	uint8x16_t r1[4], r2c1;
};

static inline AI uint8x16_t rot2n(uint8x16_t a, const struct one_k *c,
                                  const unsigned n)
{
	return n % 2 ? TBL(a, c->r2c1) : rot2(a);
}

/* Encryption round n (1..Nr-1) of one block on T(state ^ key). */
static inline AI uint8x16_t enc_round1(uint8x16_t z, const struct one_k *c,
                                       const uint8x16x4_t *t, uint8x16_t k,
                                       const unsigned n)
{
	uint8x16_t io, jo, a, a2, ra, x;

	invert(z, &c->i, &io, &jo);
	a = XOR(TBL(t->val[0], io), TBL(t->val[1], jo));
	a2 = XOR(TBL(t->val[2], io), TBL(t->val[3], jo));
	ra = rot2n(a, c, n);
	x = TBL(XOR(XOR(a2, a), ra), c->r1[n % 4]);
	return XOR(x, keep(XOR(XOR(a2, ra), k)));
}

/* Decryption round n; the rotations conjugated by ShiftRows^-n. */
static inline AI uint8x16_t dec_round1(uint8x16_t z, const struct one_k *c,
                                       const uint8x16x4_t *t,
                                       const uint8x16x4_t *u, uint8x16_t k,
                                       const unsigned n)
{
	uint8x16_t io, jo, e, b, d, m, x;

	invert(z, &c->i, &io, &jo);
	e = XOR(TBL(t->val[0], io), TBL(t->val[1], jo));
	b = XOR(TBL(t->val[2], io), TBL(t->val[3], jo));
	d = XOR(TBL(u->val[0], io), TBL(u->val[1], jo));
	m = XOR(TBL(u->val[2], io), TBL(u->val[3], jo));
	x = TBL(XOR(b, rot2n(m, c, n)), c->r1[(4 - n % 4) % 4]);
	return XOR(x, keep(XOR(XOR(e, rot2n(d, c, n)), k)));
}

/* One block; rk: the one-block keys. */
static inline AI void one_nr(const uint8_t *rk, const uint8_t *in,
                             uint8_t *out, const unsigned nr, const int dec)
{
	const uint8_t *b = tab_base();
	const struct one_k c = {
		load_inv_k(b),
		{ LDB(b, ROT1), LDB(b, R1C1), LDB(b, R1C2), LDB(b, R1C3) },
		LDB(b, R2C1)
	};
	uint8x16x4_t t, u;
	uint8x16_t s, io, jo;
	unsigned r;

	if (dec) {
		t.val[0] = LDB(b, D_E_P); t.val[1] = LDB(b, D_E_Q);
		t.val[2] = LDB(b, D_B_P); t.val[3] = LDB(b, D_B_Q);
		u.val[0] = LDB(b, D_D_P); u.val[1] = LDB(b, D_D_Q);
		u.val[2] = LDB(b, D_9_P); u.val[3] = LDB(b, D_9_Q);
		s = lin(vld1q_u8(in), c.i.m, LDB(b, D_IN_LO), LDB(b, D_IN_HI));
	} else {
		t.val[0] = LDB(b, E_S_P); t.val[1] = LDB(b, E_S_Q);
		t.val[2] = LDB(b, E_S2_P); t.val[3] = LDB(b, E_S2_Q);
		u = t;
		s = lin(vld1q_u8(in), c.i.m, LDB(b, E_IN_LO), LDB(b, E_IN_HI));
	}
#ifdef __OPTIMIZE__
	{
		/* the keys two at a time (LDP) */
		uint8x16_t k0 = vld1q_u8(rk), k1 = vld1q_u8(rk + 16);

		s = XOR(s, k0);
		UNROLL for (r = 1; r + 1 < nr; r += 2) {
			s = dec ? dec_round1(s, &c, &t, &u, k1, r)
			        : enc_round1(s, &c, &t, k1, r);
			k0 = vld1q_u8(rk + 16 * (r + 1));
			k1 = vld1q_u8(rk + 16 * (r + 2));
			s = dec ? dec_round1(s, &c, &t, &u, k0, r + 1)
			        : enc_round1(s, &c, &t, k0, r + 1);
		}
		s = dec ? dec_round1(s, &c, &t, &u, k1, r)   /* r == nr - 1 */
		        : enc_round1(s, &c, &t, k1, r);
	}
#else
	/* unoptimised: each round expanded once (see BY_ROUNDS) */
	s = XOR(s, vld1q_u8(rk));
	for (r = 1; r < nr; r++)
		s = dec ? dec_round1(s, &c, &t, &u, vld1q_u8(rk + 16 * r), r)
		        : enc_round1(s, &c, &t, vld1q_u8(rk + 16 * r), r);
#endif
	invert(s, &c.i, &io, &jo);
	s = dec ? XOR(TBL(LDB(b, D_LAST_P), io), TBL(LDB(b, D_LAST_Q), jo))
	        : XOR(TBL(LDB(b, E_LAST_P), io), TBL(LDB(b, E_LAST_Q), jo));
	s = XOR(s, vld1q_u8(rk + 16 * nr));
	if (nr % 4 != 0)
		s = TBL(s, LDB(b, SR2));
	vst1q_u8(out, s);
}

/* The one-block path on its own, so that it runs none of the set-up of
 * the bulk loops (their constants, the saving of v8-v15). */
__attribute__((noinline)) static int encrypt_one(const aesecb_ctx *ctx,
                                                 const uint8_t *in,
                                                 uint8_t *out,
                                                 aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * ENC1_OFF;

	aesecb__stack_mark(stk);
	BY_ROUNDS(ctx->priv_rounds, ONE_ENC);
	return AESECB_OK;
}

__attribute__((noinline)) static int decrypt_one(const aesecb_ctx *ctx,
                                                 const uint8_t *in,
                                                 uint8_t *out,
                                                 aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * DEC1_OFF;

	aesecb__stack_mark(stk);
	BY_ROUNDS(ctx->priv_rounds, ONE_DEC);
	return AESECB_OK;
}

/* ---------------------------------------------------------- block loops */

/*
 * Written for a constant round count so that the round loop unrolls.
 * Several blocks go through each round together, so that the chains of
 * dependent TBLs of different blocks overlap; the rest (fewer than four
 * or two) go one at a time through the one-block path.  Encryption takes
 * four (9 constants + 4 x ~5 temporaries fit in the 32 vector
 * registers); decryption, with 13 constants in its round, takes two:
 * with four, gcc spills to the stack and does more work per block.
 */
static inline AI void encrypt_nr(const uint8_t *rk, const uint8_t *rk1,
                                 const uint8_t *in, uint8_t *out, size_t n,
                                 const unsigned nr)
{
	const uint8_t *b = tab_base();
	const struct enc_k c = load_enc_k(b);
	const uint8x16_t inlo = LDB(b, E_IN_LO), inhi = LDB(b, E_IN_HI);
	const uint8x16_t lp = LDB(b, E_LAST_P), lq = LDB(b, E_LAST_Q);
	uint8x16_t k;
	unsigned r;

	for (; n >= 4; n -= 4, in += 64, out += 64) {
		uint8x16_t s0 = vld1q_u8(in), s1 = vld1q_u8(in + 16);
		uint8x16_t s2 = vld1q_u8(in + 32), s3 = vld1q_u8(in + 48);

		k = vld1q_u8(rk);
		s0 = XOR(lin(s0, c.i.m, inlo, inhi), k);
		s1 = XOR(lin(s1, c.i.m, inlo, inhi), k);
		s2 = XOR(lin(s2, c.i.m, inlo, inhi), k);
		s3 = XOR(lin(s3, c.i.m, inlo, inhi), k);
		UNROLL for (r = 1; r < nr; r++) {
			k = vld1q_u8(rk + 16 * r);
			s0 = enc_round(s0, &c, k);
			s1 = enc_round(s1, &c, k);
			s2 = enc_round(s2, &c, k);
			s3 = enc_round(s3, &c, k);
		}
		k = vld1q_u8(rk + 16 * nr);
		vst1q_u8(out, enc_last(s0, &c, lp, lq, k));
		vst1q_u8(out + 16, enc_last(s1, &c, lp, lq, k));
		vst1q_u8(out + 32, enc_last(s2, &c, lp, lq, k));
		vst1q_u8(out + 48, enc_last(s3, &c, lp, lq, k));
	}
#ifdef __OPTIMIZE__
	for (; n > 0; n--, in += 16, out += 16)
		one_nr(rk1, in, out, nr, 0);
#else
	(void)rk1;      /* the caller does the rest (see BY_ROUNDS) */
#endif
}

static inline AI void decrypt_nr(const uint8_t *rk, const uint8_t *rk1,
                                 const uint8_t *in, uint8_t *out, size_t n,
                                 const unsigned nr)
{
	const uint8_t *b = tab_base();
	const struct dec_k c = load_dec_k(b);
	const uint8x16_t inlo = LDB(b, D_IN_LO), inhi = LDB(b, D_IN_HI);
	const uint8x16_t lp = LDB(b, D_LAST_P), lq = LDB(b, D_LAST_Q);
	uint8x16_t k;
	unsigned r;

	for (; n >= 2; n -= 2, in += 32, out += 32) {
		uint8x16_t s0 = vld1q_u8(in), s1 = vld1q_u8(in + 16);

		k = vld1q_u8(rk);
		s0 = XOR(lin(s0, c.i.m, inlo, inhi), k);
		s1 = XOR(lin(s1, c.i.m, inlo, inhi), k);
		UNROLL for (r = 1; r < nr; r++) {
			k = vld1q_u8(rk + 16 * r);
			s0 = dec_round(s0, &c, k);
			s1 = dec_round(s1, &c, k);
		}
		k = vld1q_u8(rk + 16 * nr);
		vst1q_u8(out, dec_last(s0, &c, lp, lq, k));
		vst1q_u8(out + 16, dec_last(s1, &c, lp, lq, k));
	}
#ifdef __OPTIMIZE__
	for (; n > 0; n--, in += 16, out += 16)
		one_nr(rk1, in, out, nr, 1);
#else
	(void)rk1;      /* the caller does the rest (see BY_ROUNDS) */
#endif
}

/* Burned calls (lib/aesecb.c): these and the one-block functions record
 * their frames; everything else they call is inlined. */
static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * ENC_OFF;
	const uint8_t *rk1 = ctx->priv_keys.b + 16 * ENC1_OFF;

	if (n == 1)
		return encrypt_one(ctx, in, out, stk);
	aesecb__stack_mark(stk);
	BY_ROUNDS(ctx->priv_rounds, ENC_NR);
#ifndef __OPTIMIZE__
	{
		size_t i;

		for (i = n - n % 4; i < n; i++)
			encrypt_one(ctx, in + 16 * i, out + 16 * i, stk);
	}
#endif
	return AESECB_OK;
}

/* (burned, as above) */
static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t n, aesecb_stack *stk)
{
	const uint8_t *rk = ctx->priv_keys.b + 16 * DEC_OFF;
	const uint8_t *rk1 = ctx->priv_keys.b + 16 * DEC1_OFF;

	if (n == 1)
		return decrypt_one(ctx, in, out, stk);
	aesecb__stack_mark(stk);
	BY_ROUNDS(ctx->priv_rounds, DEC_NR);
#ifndef __OPTIMIZE__
	{
		size_t i;

		for (i = n - n % 2; i < n; i++)
			decrypt_one(ctx, in + 16 * i, out + 16 * i, stk);
	}
#endif
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

/*
 * Every path burned: decryption keeps 13 constants beside its states, and
 * gcc 12 at -Os spills 32 bytes of the one-block decryption's state (and
 * more with four blocks at any level), so no path can promise to keep the
 * key in registers whatever the flags.
 */
AESECB_BACKEND(neon, 0, IMPL);
