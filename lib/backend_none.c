/* SPDX-License-Identifier: MIT */
/*
 * backend_none.c - the portable backend: bitsliced, constant-time AES.
 *
 * This backend runs on every CPU.  It is plain C plus the GNU C vector
 * extensions (gcc and clang): a 128-bit vector type and constant lane
 * shuffles, which the compiler turns into SSE2 on x86-64, NEON on AArch64
 * and ordinary integer code where there is no vector unit.  There are no
 * tables, and no branch, loop bound or memory index depends on the key or
 * on the data: the only branches are on the block count and the number of
 * rounds.
 *
 * ------------------------------------------------------------------------
 * 1. Layout ("bitslicing")
 *
 * Eight blocks are processed together.  Their 8 x 16 bytes are spread over
 * eight 128-bit vectors x[0..7], the bit planes: x[i] holds bit i of every
 * byte of every block.  Inside a plane, using the AES state notation
 * s[row][col] (the input byte n is s[n % 4][n / 4]):
 *
 *     32-bit lane c          = column c          (c = 0..3)
 *     byte r of that lane    = row r             (r = 0..3; byte 0 is the
 *                                                 least significant one)
 *     bit b of that byte     = block b           (b = 0..7)
 *
 * This is exactly what loading block b into vector b and transposing the
 * 8 x 8 bit matrix of every byte position gives (transpose8() below): the
 * byte order of a block already puts column c in lane c.  Fewer than eight
 * blocks simply leave the spare bit positions zero.
 *
 * In this layout a whole AES operation on all 8 x 16 bytes is a handful of
 * vector operations:
 *   - SubBytes is a Boolean circuit evaluated on the eight planes (section 3);
 *   - moving every byte from column c+m to column c is a 32-bit lane
 *     shuffle (pshufd on x86);
 *   - moving every byte from row r+j to row r, inside each column, is a
 *     rotation of each 32-bit lane by 8*j bits;
 *   - multiplying every byte by {02} is a renaming of the planes plus four
 *     XORs (xtime: bit 7 folds back into bits 0, 1, 3 and 4).
 *
 * 2. ShiftRows, done lazily ("fixslicing")
 *
 * ShiftRows moves row r by r columns: each byte of a lane would have to
 * come from a different lane, which SSE2 has no cheap instruction for.
 * So it is not done at all.  Write SR for ShiftRows, A for the true AES
 * state and S for what the planes hold.  We keep the invariant
 *
 *     A = SR^k (S),  that is  A[r][c] = S[r][c + k*r]   (indices mod 4)
 *
 * where k is a small counter.  SubBytes and AddRoundKey act bytewise and
 * therefore commute with this renaming; skipping ShiftRows just turns k
 * into k + 1.  MixColumns mixes the four rows of a column:
 *
 *     A'[r][c] = 2 A[r][c] + 3 A[r+1][c] + A[r+2][c] + A[r+3][c]
 *
 * and substituting A = SR^k(S), A' = SR^k(S') gives
 *
 *     S'[r][c] = 2 S[r][c] + 3 S[r+1][c+k] + S[r+2][c+2k] + S[r+3][c+3k].
 *
 * So the only change is that "the byte j rows down" is also j*k columns to
 * the right: rot(x, j, k) below, a lane shuffle plus a lane rotation.  In
 * round r of encryption k = r mod 4 (four variants of MixColumns, chosen by
 * the round number, not by data).  After the last round k = Nr mod 4:
 * 0 for AES-192 (nothing to do), 2 for AES-128 and AES-256, where one
 * explicit SR^2 (swap columns c and c+2 in rows 1 and 3: one shuffle and a
 * masked swap) puts the bytes back.
 *
 * The round keys must be seen through the same renaming: round key r is
 * stored as SR^-k(K_r) with k = r mod 4 (setkey() does it once).
 *
 * Decryption walks the same path backwards.  It starts from the
 * ciphertext, undoes the final SR^2 first (SR^2 is its own inverse), and
 * then in step r (r = Nr-1 .. 1) is at k = r mod 4 again, so it uses the
 * very same stored round keys.  InvMixColumns uses the factorisation
 *
 *     InvMixColumns = MixColumns o P,  P(a)[r] = 5 a[r] + 4 a[r+2],
 *
 * which holds because ({03}X^3 + X^2 + X + {02}) * ({04}X^2 + {05}) =
 * {0b}X^3 + {0d}X^2 + {09}X + {0e}  mod X^4 + 1.  P costs one rotation and
 * a multiplication by {04} (two xtimes, six XORs) per round.
 *
 * 3. The S-box circuits
 *
 * S(x) = A(x^-1) + 0x63, where x^-1 is the inverse in GF(2^8) (0 maps to
 * 0) and A the linear part of the AES affine map.  The forward circuit is
 * the depth-16 straight-line program of J. Boyar and R. Peralta ("A
 * depth-16 circuit for the AES S-box", 2011): 128 gates (34 AND, 94
 * XOR/XNOR) in three parts, a top linear layer of 27 XORs that makes 22
 * signals from the input bits, a non-linear middle of 63 gates that
 * inverts in a tower-field representation and ends in 18 products, and a
 * bottom linear layer of 38 XORs.  (Their 113-gate circuit is smaller but
 * 27 gates deep; measured here the shallower one is faster, for one block
 * and in bulk.)  The bottom layer's four XNORs add the constant 0x63; here
 * they are plain XORs and the constant is folded into the round keys
 * (section 4).
 *
 * The inverse S-box, S^-1(y) = (A^-1 (y + 0x63))^-1, uses the same middle
 * part between two new linear layers: the top one makes the middle's 22
 * inputs from A^-1 y instead of from x, and the bottom one returns A^-1 of
 * what the forward bottom layer would, i.e. the plain field inverse.  They
 * were obtained by composing the forward layers with the matrix of A^-1
 * and reducing the results to short XOR programs (27 and 34 gates) with a
 * depth-bounded form of Boyar and Peralta's "smallest distance" heuristic:
 * 124 gates, 17 deep.  Both circuits were checked against the S-box on
 * all 256 inputs.
 *
 * 4. Round keys
 *
 * setkey() runs the standard key expansion, with SubWord computed by the
 * same bitsliced circuit (no tables, no secret branches).  For each round
 * key it stores 16 bytes in the context: SR^-k(K_r) as above, XORed with
 * 0x63 in every byte for r >= 1.  That constant is what the forward
 * circuit leaves out: MixColumns maps the all-0x63 state to itself
 * ({02}+{03}+{01}+{01} = {01}), so adding 0x63 after SubBytes or adding it
 * with the next round key gives the same state.  For decryption the
 * inverse circuit wants its input plus 0x63; that input is the ciphertext
 * plus K_Nr, or InvMixColumns of (state + K_r), and InvMixColumns also
 * fixes the all-0x63 state ({0e}+{0b}+{0d}+{09} = {01}).  So one set of
 * stored keys serves both directions, and K_0 stays as it is.
 *
 * The bitsliced form of a round key (eight planes, each byte 0x00 or 0xff)
 * is derived from those 16 bytes when it is needed, with a shift, a mask
 * and a subtraction per plane (add_round_key()).  K_0 and K_Nr, the same
 * for every block, are simply XORed into the blocks before and after the
 * bitsliced part.  No expanded key is written anywhere, so this backend
 * writes nothing to the caller's working space and declares 0 bytes.
 *
 * 5. Passes
 *
 * Blocks go through in passes of eight; a shorter last pass leaves the
 * spare bit positions zero.  A call for exactly one block (QUIC header
 * protection makes one per packet) takes a cheaper path that skips the
 * transposition and most of the key work, in a function of its own; see
 * "One block per pass".
 *
 * Where the one-block time goes (gcc 12, x86-64, measured): about 320
 * instructions per round, about four and a half per cycle; the S-box
 * circuit with its register copies is the larger part, MixColumns and
 * the round key the rest.  The planes are independent, so MixColumns of
 * the early S-box outputs overlaps the rest of the circuit.  A denser
 * layout was measured and not taken: the block as eight 16-bit planes
 * packed into one vector cuts the linear layer to a few dozen
 * instructions, but every round must then unpack the planes for the
 * circuit and pack them again, nothing overlaps, the circuit alone takes
 * about 55 cycles per round that way, and a one-block call came out no
 * faster.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "internal.h"

#if !defined(__GNUC__)
#error "backend_none.c needs the GNU C vector extensions (gcc or clang)"
#endif

/*
 * On 32-bit x86 without SSE, gcc notes that passing vectors by value would
 * change the ABI.  Every function taking or returning a vector here is
 * static and inlined, so there is no ABI to speak of.
 */
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/*
 * gcc does not schedule instructions before register allocation on x86 by
 * default.  Here that matters: with the pressure-aware scheduler the round
 * code interleaves MixColumns (limited by the shuffle and shift units)
 * with the S-box (limited by the logic units) far better: measured with
 * gcc 12 on x86-64, one block takes about 11% less time and bulk data
 * 8-13% less.  It changes no semantics and no instruction set; clang
 * schedules well on its own.
 */
#if !defined(__clang__)
#pragma GCC optimize("schedule-insns", "sched-pressure")
#endif

typedef uint32_t v128  __attribute__((vector_size(16)));  /* lane = column */
typedef uint16_t v16x8 __attribute__((vector_size(16)));
typedef uint8_t  v8x16 __attribute__((vector_size(16)));

/* Everything below is inlined into the block functions, so that the eight
 * planes stay in registers (or at worst in the function's own frame). */
#define INLINE static inline __attribute__((always_inline))
#define UNROLL _Pragma("GCC unroll 8")

#define NPLANES 8
#define PASS_BLOCKS 8     /* blocks per bitsliced pass */

static const uint8_t rows13_bytes[16] = {
	0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff,
	0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff,
};

INLINE v128 splat(uint32_t c)
{
	return (v128){ c, c, c, c };
}

INLINE v128 load16(const uint8_t *p)
{
	v128 v;

	memcpy(&v, p, 16);
	return v;
}

INLINE void store16(uint8_t *p, v128 v)
{
	memcpy(p, &v, 16);
}

/* ------------------------------------------------------------------ */
/* Moving bytes between rows and columns (section 1 of the comment).   */

/* Byte of column c+m to column c, in every row: a lane shuffle. */
INLINE v128 col_rot(v128 x, unsigned m)
{
	switch (m & 3) {
	case 1: return __builtin_shufflevector(x, x, 1, 2, 3, 0);
	case 2: return __builtin_shufflevector(x, x, 2, 3, 0, 1);
	case 3: return __builtin_shufflevector(x, x, 3, 0, 1, 2);
	default: return x;
	}
}

/*
 * Byte of row r+j to row r, in every column: rotate each 32-bit lane by
 * 8*j bits.  Row r is byte r of the lane in memory order; on a
 * little-endian machine that is bits 8r..8r+7, so the rotation is to the
 * right (and to the left on a big-endian one).  j = 2 swaps the two
 * 16-bit halves, which one 16-bit shuffle does in either byte order.
 */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ROW_DOWN(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#else
#define ROW_DOWN(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#endif

INLINE v128 row_rot(v128 x, unsigned j)
{
	switch (j & 3) {
	case 1: return ROW_DOWN(x, 8);
	case 2: return (v128)__builtin_shufflevector((v16x8)x, (v16x8)x,
	                                             1, 0, 3, 2, 5, 4, 7, 6);
	case 3: return ROW_DOWN(x, 24);
	default: return x;
	}
}

/* Result[r][c] = x[r+j][c+j*k]: "j rows down" in the fixsliced state. */
INLINE v128 rot(v128 x, unsigned j, unsigned k)
{
	return row_rot(col_rot(x, j * k), j);
}

/* ------------------------------------------------------------------ */
/* Bitslicing.                                                         */

/* Exchange the bits of a selected by (mask << n) with those of b selected
 * by mask. */
#define SWAPMOVE(a, b, mask, n) do {                                   \
		v128 t_ = (((a) >> (n)) ^ (b)) & (mask);               \
		(b) ^= t_;                                             \
		(a) ^= t_ << (n);                                      \
	} while (0)

/*
 * Transpose, for each of the 16 byte positions, the 8 x 8 bit matrix
 * "vector v, bit i": afterwards bit b of byte p in vector i is what bit i
 * of byte p in vector b was.  Three rounds of swapping off-diagonal
 * blocks (1x1, 2x2, 4x4 bits).  The masks keep every bit inside its byte,
 * so the 32-bit lane shifts never mix bytes.  A transpose undoes itself:
 * the same function turns blocks into planes and planes back into blocks.
 */
INLINE void transpose8(v128 x[NPLANES])
{
	const v128 m1 = splat(0x55555555u);
	const v128 m2 = splat(0x33333333u);
	const v128 m4 = splat(0x0f0f0f0fu);

	SWAPMOVE(x[0], x[1], m1, 1);
	SWAPMOVE(x[2], x[3], m1, 1);
	SWAPMOVE(x[4], x[5], m1, 1);
	SWAPMOVE(x[6], x[7], m1, 1);
	SWAPMOVE(x[0], x[2], m2, 2);
	SWAPMOVE(x[1], x[3], m2, 2);
	SWAPMOVE(x[4], x[6], m2, 2);
	SWAPMOVE(x[5], x[7], m2, 2);
	SWAPMOVE(x[0], x[4], m4, 4);
	SWAPMOVE(x[1], x[5], m4, 4);
	SWAPMOVE(x[2], x[6], m4, 4);
	SWAPMOVE(x[3], x[7], m4, 4);
}

/* ------------------------------------------------------------------ */
/* AddRoundKey.                                                        */

/*
 * rk is one stored round key (16 bytes, see section 4).  Plane i of the
 * bitsliced key has byte p = 0xff if bit i of rk[p] is set, else 0x00:
 * shift bit i down to bit 0 of its byte, keep it, and subtract from zero.
 * The shift works on 16-bit lanes (SSE2 has no byte shift); the mask
 * removes what crossed over from the neighbouring byte.
 */
INLINE void add_round_key(v128 x[NPLANES], const uint8_t *rk)
{
	v16x8 k;
	unsigned i;

	memcpy(&k, rk, 16);
	UNROLL
	for (i = 0; i < NPLANES; i++)
		x[i] ^= (v128)((v8x16){ 0 } - (v8x16)((k >> i) & 0x0101));
}

/*
 * The same for the one-block path (section 5): only bit 0 of every byte
 * matters there, so plane i of the key is just rk shifted down by i; the
 * bits above bit 0 are don't-care.  One shift per plane, each from the
 * last, and no copies.
 */
INLINE void add_round_key1(v128 x[NPLANES], const uint8_t *rk)
{
	v16x8 k;
	unsigned i;

	memcpy(&k, rk, 16);
	UNROLL
	for (i = 0; i < NPLANES; i++) {
		x[i] ^= (v128)k;
		k >>= 1;
	}
}

/* ------------------------------------------------------------------ */
/* SubBytes.                                                           */

/*
 * The non-linear middle part shared by both directions: from the 22
 * signals d, t1 .. t27 made by a top layer, an inversion in a tower field
 * whose results are the 18 products m46 .. m63; a bottom layer then makes
 * the eight output bits from those.  Gate for gate the middle of the
 * Boyar-Peralta depth-16 program (34 AND, 29 XOR).
 */
#define SBOX_MIDDLE                                                    \
	m1 = t13 & t6;   m2 = t23 & t8;   m3 = t14 ^ m1;              \
	m4 = t19 & d;    m5 = m4 ^ m1;    m6 = t3 & t16;              \
	m7 = t22 & t9;   m8 = t26 ^ m6;   m9 = t20 & t17;             \
	m10 = m9 ^ m6;   m11 = t1 & t15;  m12 = t4 & t27;             \
	m13 = m12 ^ m11; m14 = t2 & t10;  m15 = m14 ^ m11;            \
	m16 = m3 ^ m2;   m17 = m5 ^ t24;  m18 = m8 ^ m7;              \
	m19 = m10 ^ m15; m20 = m16 ^ m13; m21 = m17 ^ m15;            \
	m22 = m18 ^ m13; m23 = m19 ^ t25; m24 = m22 ^ m23;            \
	m25 = m22 & m20; m26 = m21 ^ m25; m27 = m20 ^ m21;            \
	m28 = m23 ^ m25; m29 = m28 & m27; m30 = m26 & m24;            \
	m31 = m20 & m23; m32 = m27 & m31; m33 = m27 ^ m25;            \
	m34 = m21 & m22; m35 = m24 & m34; m36 = m24 ^ m25;            \
	m37 = m21 ^ m29; m38 = m32 ^ m33; m39 = m23 ^ m30;            \
	m40 = m35 ^ m36; m41 = m38 ^ m40; m42 = m37 ^ m39;            \
	m43 = m37 ^ m38; m44 = m39 ^ m40; m45 = m42 ^ m41;            \
	m46 = m44 & t6;  m47 = m40 & t8;  m48 = m39 & d;              \
	m49 = m43 & t16; m50 = m38 & t9;  m51 = m37 & t17;            \
	m52 = m42 & t15; m53 = m45 & t27; m54 = m41 & t10;            \
	m55 = m44 & t13; m56 = m40 & t23; m57 = m39 & t19;            \
	m58 = m43 & t3;  m59 = m38 & t22; m60 = m37 & t20;            \
	m61 = m42 & t1;  m62 = m45 & t4;  m63 = m41 & t2

#define SBOX_VARS                                                      \
	v128 d, t1, t2, t3, t4, t6, t8, t9, t10, t13, t14, t15, t16,   \
	     t17, t19, t20, t22, t23, t24, t25, t26, t27;              \
	v128 m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13,   \
	     m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24,    \
	     m25, m26, m27, m28, m29, m30, m31, m32, m33, m34, m35,    \
	     m36, m37, m38, m39, m40, m41, m42, m43, m44, m45, m46,    \
	     m47, m48, m49, m50, m51, m52, m53, m54, m55, m56, m57,    \
	     m58, m59, m60, m61, m62, m63

/*
 * x <- S(x) + 0x63 on every byte (the constant is in the round keys).
 * x[i] is bit i; the program's inputs U0..U7 are bits 7..0, and its
 * outputs S0..S7 likewise.  128 gates, 16 deep.
 */
INLINE void sub_bytes(v128 x[NPLANES])
{
	SBOX_VARS;
	v128 t5, t7, t11, t12, t18, t21;
	v128 l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13,
	     l14, l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25,
	     l26, l27, l28, l29;

	/* top linear layer */
	t1 = x[7] ^ x[4];    t2 = x[7] ^ x[2];    t3 = x[7] ^ x[1];
	t4 = x[4] ^ x[2];    t5 = x[3] ^ x[1];    t6 = t1 ^ t5;
	t7 = x[6] ^ x[5];    t8 = x[0] ^ t6;      t9 = x[0] ^ t7;
	t10 = t6 ^ t7;       t11 = x[6] ^ x[2];   t12 = x[5] ^ x[2];
	t13 = t3 ^ t4;       t14 = t6 ^ t11;      t15 = t5 ^ t11;
	t16 = t5 ^ t12;      t17 = t9 ^ t16;      t18 = x[4] ^ x[0];
	t19 = t7 ^ t18;      t20 = t1 ^ t19;      t21 = x[1] ^ x[0];
	t22 = t7 ^ t21;      t23 = t2 ^ t22;      t24 = t2 ^ t10;
	t25 = t20 ^ t17;     t26 = t3 ^ t16;      t27 = t1 ^ t12;
	d = x[0];

	SBOX_MIDDLE;

	/* bottom linear layer */
	l0 = m61 ^ m62;      l1 = m50 ^ m56;      l2 = m46 ^ m48;
	l3 = m47 ^ m55;      l4 = m54 ^ m58;      l5 = m49 ^ m61;
	l6 = m62 ^ l5;       l7 = m46 ^ l3;       l8 = m51 ^ m59;
	l9 = m52 ^ m53;      l10 = m53 ^ l4;      l11 = m60 ^ l2;
	l12 = m48 ^ m51;     l13 = m50 ^ l0;      l14 = m52 ^ m61;
	l15 = m55 ^ l1;      l16 = m56 ^ l0;      l17 = m57 ^ l1;
	l18 = m58 ^ l8;      l19 = m63 ^ l4;      l20 = l0 ^ l1;
	l21 = l1 ^ l7;       l22 = l3 ^ l12;      l23 = l18 ^ l2;
	l24 = l15 ^ l9;      l25 = l6 ^ l10;      l26 = l7 ^ l9;
	l27 = l8 ^ l10;      l28 = l11 ^ l14;     l29 = l11 ^ l17;
	x[7] = l6 ^ l24;     x[6] = l16 ^ l26;    x[5] = l19 ^ l28;
	x[4] = l6 ^ l21;     x[3] = l20 ^ l22;    x[2] = l25 ^ l29;
	x[1] = l13 ^ l27;    x[0] = l6 ^ l23;
}

/*
 * x <- S^-1(x + 0x63) on every byte (the constant is in the round keys):
 * the field inverse of A^-1 x.  Own top and bottom layers around the same
 * middle; 124 gates, 17 deep.
 */
INLINE void inv_sub_bytes(v128 x[NPLANES])
{
	SBOX_VARS;
	v128 p0, p1, p2, p3, p4;
	v128 q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12,
	     q13, q14, q15, q16, q17, q18, q19, q20, q21, q22, q23,
	     q24, q25;

	/* top linear layer: the middle's inputs as functions of A^-1 x */
	t24 = x[0] ^ x[3];   t1 = x[3] ^ x[4];    t9 = x[0] ^ t1;
	t22 = x[4] ^ x[6];   t23 = x[4] ^ x[7];   t25 = x[5] ^ t1;
	t2 = x[6] ^ x[7];    t8 = x[4] ^ t2;      t10 = t24 ^ t2;
	t4 = t1 ^ t2;        p0 = x[0] ^ x[1];    t3 = t1 ^ p0;
	t20 = t22 ^ t3;      t19 = t22 ^ p0;      t17 = x[5] ^ t19;
	t13 = t2 ^ p0;       p1 = x[2] ^ x[5];    d = x[7] ^ p1;
	t6 = t22 ^ p1;       p2 = x[1] ^ x[2];    t27 = t1 ^ p2;
	t15 = t10 ^ t27;     t14 = t10 ^ p2;      p3 = x[1] ^ x[5];
	t26 = t19 ^ p3;      p4 = x[3] ^ x[6];    t16 = p3 ^ p4;

	SBOX_MIDDLE;

	/* bottom linear layer: the plain field inverse */
	q0 = m52 ^ m61;      q1 = m58 ^ q0;       q2 = m62 ^ q1;
	q3 = m54 ^ m59;      q4 = m50 ^ q2;       q5 = m48 ^ m56;
	q6 = m46 ^ q3;       q7 = m57 ^ m63;      q8 = m51 ^ q6;
	q9 = m49 ^ q3;       q10 = m53 ^ m54;     q11 = m50 ^ q5;
	q12 = m47 ^ m60;     q13 = q11 ^ q12;     q14 = q9 ^ q13;
	q15 = m47 ^ q8;      x[2] = q4 ^ q15;     q16 = m55 ^ q7;
	x[0] = m61 ^ q16;    q17 = m57 ^ q14;     q18 = m52 ^ x[0];
	x[6] = q17 ^ q18;    q19 = m59 ^ q2;      x[5] = q17 ^ q19;
	q20 = m48 ^ q6;      x[4] = q2 ^ q20;     q21 = q9 ^ q10;
	x[1] = q4 ^ q21;     q22 = m51 ^ q9;      x[7] = q2 ^ q22;
	q23 = q1 ^ q7;       q24 = q8 ^ q11;      q25 = q10 ^ q23;
	x[3] = q24 ^ q25;
}

/* ------------------------------------------------------------------ */
/* MixColumns and InvMixColumns, in the fixsliced state of counter k.  */

/*
 * With a the state and a[r+j] standing for rot(a, j, k):
 *
 *     out[r] = 2 a[r] + 3 a[r+1] + a[r+2] + a[r+3]
 *            = 2 t[r] + a[r+1] + t[r+2],    t[r] = a[r] + a[r+1],
 *
 * two rotations per plane.  Multiplying t by 2 moves plane i to plane i+1
 * and adds plane 7 (the bit shifted out) back in at bits 0, 1, 3 and 4,
 * since x^8 = x^4 + x^3 + x + 1.
 */
INLINE void mix_columns(v128 x[NPLANES], unsigned k)
{
	v128 a1[NPLANES], t[NPLANES], t2[NPLANES];
	unsigned i;

	UNROLL
	for (i = 0; i < NPLANES; i++) {
		a1[i] = rot(x[i], 1, k);
		t[i] = x[i] ^ a1[i];
		t2[i] = rot(t[i], 2, k);
	}
	x[0] = t[7] ^ a1[0] ^ t2[0];
	x[1] = t[0] ^ t[7] ^ a1[1] ^ t2[1];
	x[2] = t[1] ^ a1[2] ^ t2[2];
	x[3] = t[2] ^ t[7] ^ a1[3] ^ t2[3];
	x[4] = t[3] ^ t[7] ^ a1[4] ^ t2[4];
	x[5] = t[4] ^ a1[5] ^ t2[5];
	x[6] = t[5] ^ a1[6] ^ t2[6];
	x[7] = t[6] ^ a1[7] ^ t2[7];
}

/*
 * InvMixColumns = MixColumns o P with P(a)[r] = a[r] + 4 (a[r] + a[r+2])
 * (section 2).  Multiplying u by 4 = x^2 moves plane i to plane i+2, and
 * planes 6 and 7 come back reduced: x^8 = x^4 + x^3 + x + 1 and
 * x^9 = x^5 + x^4 + x^2 + x.
 */
INLINE void inv_mix_columns(v128 x[NPLANES], unsigned k)
{
	v128 u[NPLANES];
	unsigned i;

	UNROLL
	for (i = 0; i < NPLANES; i++)
		u[i] = x[i] ^ rot(x[i], 2, k);
	x[0] ^= u[6];
	x[1] ^= u[6] ^ u[7];
	x[2] ^= u[0] ^ u[7];
	x[3] ^= u[1] ^ u[6];
	x[4] ^= u[2] ^ u[6] ^ u[7];
	x[5] ^= u[3] ^ u[7];
	x[6] ^= u[4];
	x[7] ^= u[5];
	mix_columns(x, k);
}

/*
 * SR^2, which is its own inverse: rows 1 and 3 swap columns c and c+2,
 * rows 0 and 2 stay.  Brings the state from k = 2 to k = 0 and back.  It
 * moves whole bytes, so it works the same on a block as on a bit plane.
 */
INLINE v128 shift_rows2(v128 v)
{
	v128 rows13;

	memcpy(&rows13, rows13_bytes, 16);
	return v ^ ((v ^ col_rot(v, 2)) & rows13);
}

/* ------------------------------------------------------------------ */
/* Rounds.                                                             */

/*
 * The rounds between the first and the last AddRoundKey: rounds 1 ..
 * Nr-1 in full and the SubBytes of round Nr.  Round r runs MixColumns with
 * k = r mod 4; the switch picks one of four inlined variants.  one: the
 * one-block path (section 5), which adds round keys differently.
 */
INLINE void encrypt_rounds(v128 x[NPLANES], const uint8_t *rk,
                           unsigned rounds, int one)
{
	unsigned r;

	for (r = 1; r < rounds; r++) {
		sub_bytes(x);
		switch (r & 3) {
		case 0: mix_columns(x, 0); break;
		case 1: mix_columns(x, 1); break;
		case 2: mix_columns(x, 2); break;
		default: mix_columns(x, 3); break;
		}
		if (one)
			add_round_key1(x, rk + 16 * r);
		else
			add_round_key(x, rk + 16 * r);
	}
	sub_bytes(x);
}

/* The inverse, step by step from the end: InvSubBytes of round Nr, then
 * rounds Nr-1 .. 1 as InvSubBytes, AddRoundKey, InvMixColumns. */
INLINE void decrypt_rounds(v128 x[NPLANES], const uint8_t *rk,
                           unsigned rounds, int one)
{
	unsigned r;

	for (r = rounds - 1; r > 0; r--) {
		inv_sub_bytes(x);
		if (one)
			add_round_key1(x, rk + 16 * r);
		else
			add_round_key(x, rk + 16 * r);
		switch (r & 3) {
		case 0: inv_mix_columns(x, 0); break;
		case 1: inv_mix_columns(x, 1); break;
		case 2: inv_mix_columns(x, 2); break;
		default: inv_mix_columns(x, 3); break;
		}
	}
	inv_sub_bytes(x);
}

/* ------------------------------------------------------------------ */
/* Eight blocks per pass.                                              */

/*
 * The first and the last round key are the same for every block, so they
 * are added to the blocks before and after the transposition (one XOR per
 * block instead of building eight key planes), and the final SR^2 is done
 * on the blocks too.
 */
INLINE void encrypt8(const uint8_t *rk, unsigned rounds, const uint8_t *in,
                     uint8_t *out, size_t n)
{
	v128 x[NPLANES];
	v128 k0 = load16(rk), kl = load16(rk + 16 * rounds);
	unsigned b;

	UNROLL
	for (b = 0; b < PASS_BLOCKS; b++)
		x[b] = b < n ? load16(in + 16 * b) ^ k0 : splat(0);
	transpose8(x);
	encrypt_rounds(x, rk, rounds, 0);
	transpose8(x);
	UNROLL
	for (b = 0; b < PASS_BLOCKS; b++) {
		x[b] ^= kl;
		if (rounds % 4 == 2)          /* AES-128, AES-256: k = 2 */
			x[b] = shift_rows2(x[b]);
		if (b < n)
			store16(out + 16 * b, x[b]);
	}
}

INLINE void decrypt8(const uint8_t *rk, unsigned rounds, const uint8_t *in,
                     uint8_t *out, size_t n)
{
	v128 x[NPLANES];
	v128 k0 = load16(rk), kl = load16(rk + 16 * rounds);
	unsigned b;

	UNROLL
	for (b = 0; b < PASS_BLOCKS; b++) {
		x[b] = b < n ? load16(in + 16 * b) : splat(0);
		if (rounds % 4 == 2)
			x[b] = shift_rows2(x[b]);
		x[b] ^= kl;
	}
	transpose8(x);
	decrypt_rounds(x, rk, rounds, 0);
	transpose8(x);
	UNROLL
	for (b = 0; b < PASS_BLOCKS; b++)
		if (b < n)
			store16(out + 16 * b, x[b] ^ k0);
}

/* ------------------------------------------------------------------ */
/* One block per pass.                                                 */

/*
 * One block needs only one of the eight bit positions of each byte, and
 * because every operation above either works bit by bit or moves whole
 * bytes, bit 0 of every byte is a complete AES computation of its own,
 * whatever the other seven bits hold.  So plane i can simply be the block
 * shifted down by i bits (its bit 0 is then bit i of the byte), and going
 * back takes bit 0 of each plane.  The key planes are as cheap (see
 * add_round_key1).  This saves most of the transposition and key work,
 * which matters for single-block calls such as QUIC header protection.
 * These functions are inlined into encrypt_one() and decrypt_one().
 */
INLINE void to_planes1(v128 x[NPLANES], v128 b)
{
	unsigned i;

	UNROLL
	for (i = 0; i < NPLANES; i++)
		x[i] = (v128)((v16x8)b >> i);
}

INLINE v128 from_planes1(const v128 x[NPLANES])
{
	const v128 bit0 = splat(0x01010101u);
	v128 b = x[0] & bit0;
	unsigned i;

	UNROLL
	for (i = 1; i < NPLANES; i++)
		b |= (v128)((v16x8)(x[i] & bit0) << i);
	return b;
}

INLINE void encrypt1(const uint8_t *rk, unsigned rounds, const uint8_t *in,
                     uint8_t *out)
{
	v128 x[NPLANES];
	v128 b = load16(in) ^ load16(rk);

	to_planes1(x, b);
	encrypt_rounds(x, rk, rounds, 1);
	b = from_planes1(x) ^ load16(rk + 16 * rounds);
	if (rounds % 4 == 2)
		b = shift_rows2(b);
	store16(out, b);
}

INLINE void decrypt1(const uint8_t *rk, unsigned rounds, const uint8_t *in,
                     uint8_t *out)
{
	v128 x[NPLANES];
	v128 b = load16(in);

	if (rounds % 4 == 2)
		b = shift_rows2(b);
	to_planes1(x, b ^ load16(rk + 16 * rounds));
	decrypt_rounds(x, rk, rounds, 1);
	store16(out, from_planes1(x) ^ load16(rk));
}

/* ------------------------------------------------------------------ */
/* The block functions.                                                */

/*
 * The work is done in out-of-line functions whose frames hold whatever the
 * compiler spilled (bitsliced state, round-key planes: for AES-128 one
 * round key gives back the key).  The entry points then run burn_stack()
 * at the same stack depth, which overwrites that region.  BURN_BYTES is
 * generous against the frames measured with gcc 12 and clang 14 (at most
 * about 0.4 KiB on x86-64 and AArch64, 0.65 KiB on s390x, 5.6 KiB on
 * 32-bit x86 without SSE).
 */
#if UINTPTR_MAX > 0xffffffffu
#define BURN_BYTES 1024
#else
#define BURN_BYTES 8192
#endif

static __attribute__((noinline)) void burn_stack(void)
{
	unsigned char area[BURN_BYTES];

	aesecb_wipe(area, sizeof area);
}

static __attribute__((noinline)) void encrypt_work(const uint8_t *rk,
		unsigned rounds, const uint8_t *in, uint8_t *out, size_t nblocks)
{
	while (nblocks > 0) {
		size_t n = nblocks < PASS_BLOCKS ? nblocks : PASS_BLOCKS;

		encrypt8(rk, rounds, in, out, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
}

static __attribute__((noinline)) void decrypt_work(const uint8_t *rk,
		unsigned rounds, const uint8_t *in, uint8_t *out, size_t nblocks)
{
	while (nblocks > 0) {
		size_t n = nblocks < PASS_BLOCKS ? nblocks : PASS_BLOCKS;

		decrypt8(rk, rounds, in, out, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
}

/*
 * One block gets its own function: kept out of the pass loop, it has a
 * smaller frame and prologue, which is measurable at this size (about
 * 5% of a one-block call).
 */
static __attribute__((noinline)) void encrypt_one(const uint8_t *rk,
		unsigned rounds, const uint8_t *in, uint8_t *out)
{
	encrypt1(rk, rounds, in, out);
}

static __attribute__((noinline)) void decrypt_one(const uint8_t *rk,
		unsigned rounds, const uint8_t *in, uint8_t *out)
{
	decrypt1(rk, rounds, in, out);
}

static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t nblocks, void *scratch)
{
	(void)scratch;
	if (nblocks == 1)
		encrypt_one(ctx->priv_keys.b, ctx->priv_rounds, in, out);
	else
		encrypt_work(ctx->priv_keys.b, ctx->priv_rounds, in, out, nblocks);
	burn_stack();
	return AESECB_OK;
}

static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t nblocks, void *scratch)
{
	(void)scratch;
	if (nblocks == 1)
		decrypt_one(ctx->priv_keys.b, ctx->priv_rounds, in, out);
	else
		decrypt_work(ctx->priv_keys.b, ctx->priv_rounds, in, out, nblocks);
	burn_stack();
	return AESECB_OK;
}

/* ------------------------------------------------------------------ */
/* Key setup.                                                          */

/* w[0..3] <- S(w[0..3]) through the bitsliced circuit. */
static void sub_word(uint8_t w[4])
{
	uint8_t blk[16] = { 0 };
	v128 x[NPLANES];
	v128 b;

	memcpy(blk, w, 4);
	to_planes1(x, load16(blk));
	sub_bytes(x);
	b = from_planes1(x);
	store16(blk, b);
	w[0] = blk[0] ^ 0x63;
	w[1] = blk[1] ^ 0x63;
	w[2] = blk[2] ^ 0x63;
	w[3] = blk[3] ^ 0x63;
	aesecb_wipe(blk, sizeof blk);
	aesecb_wipe(x, sizeof x);
	aesecb_wipe(&b, sizeof b);
}

static __attribute__((noinline)) void expand_key(aesecb_ctx *ctx,
		const uint8_t *key, size_t key_len)
{
	/* the FIPS-197 expansion, as bytes: word i is ek[4i..4i+3] */
	uint8_t ek[16 * 15];
	uint8_t tmp[4];
	unsigned nk = (unsigned)key_len / 4;
	unsigned rounds = ctx->priv_rounds;
	unsigned nwords = 4 * (rounds + 1);
	unsigned i, r, c, row;
	uint8_t rcon = 1;

	memcpy(ek, key, key_len);
	for (i = nk; i < nwords; i++) {
		memcpy(tmp, ek + 4 * (i - 1), 4);
		if (i % nk == 0) {
			uint8_t t0 = tmp[0];

			tmp[0] = tmp[1];
			tmp[1] = tmp[2];
			tmp[2] = tmp[3];
			tmp[3] = t0;
			sub_word(tmp);
			tmp[0] ^= rcon;
			rcon = (uint8_t)((rcon << 1) ^ (0x1b * (rcon >> 7)));
		} else if (nk > 6 && i % nk == 4) {
			sub_word(tmp);
		}
		ek[4 * i + 0] = ek[4 * (i - nk) + 0] ^ tmp[0];
		ek[4 * i + 1] = ek[4 * (i - nk) + 1] ^ tmp[1];
		ek[4 * i + 2] = ek[4 * (i - nk) + 2] ^ tmp[2];
		ek[4 * i + 3] = ek[4 * (i - nk) + 3] ^ tmp[3];
	}

	/*
	 * Stored round key r: SR^-k(K_r) with k = r mod 4, i.e. byte
	 * (row, c) comes from (row, c - k*row); plus 0x63 for r >= 1.
	 */
	for (r = 0; r <= rounds; r++) {
		unsigned k = r & 3;
		uint8_t add = r == 0 ? 0 : 0x63;

		for (c = 0; c < 4; c++)
			for (row = 0; row < 4; row++) {
				unsigned from = 4 * ((c - k * row) & 3) + row;

				ctx->priv_keys.b[16 * r + 4 * c + row] =
				    ek[16 * r + from] ^ add;
			}
	}
	/* no stale round keys of a longer key used with this context before */
	aesecb_wipe(ctx->priv_keys.b + 16 * (rounds + 1),
	            sizeof ctx->priv_keys.b - 16 * (rounds + 1));
	aesecb_wipe(ek, sizeof ek);
	aesecb_wipe(tmp, sizeof tmp);
}

/*
 * The expansion's frames (sub_word's bitsliced planes, what the compiler
 * spilled) are overwritten afterwards, as after the block functions.
 */
static void setkey(aesecb_ctx *ctx, const uint8_t *key, size_t key_len)
{
	expand_key(ctx, key, key_len);
	burn_stack();
}

static const struct aesecb_impl impl = {
	.setkey = setkey,
	.encrypt = encrypt_blocks,
	.decrypt = decrypt_blocks,
};

/* Runs everywhere; writes no working space (see the top of this file). */
AESECB_BACKEND(none, "any", 0, 0, 0, &impl);
