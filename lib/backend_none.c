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
 * ShiftRows moves row r by r columns: a different rotation per byte of a
 * lane, which SSE2 has no cheap instruction for.  So it is not done at all.
 * Write SR for ShiftRows, A for the true AES state and S for what the
 * planes hold.  We keep the invariant
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
 * 3. The S-box circuit
 *
 * S(x) = A(x^-1) + 0x63, with A the linear part of the AES affine map and
 * x^-1 the inverse in GF(2^8) (0 maps to 0).  The forward circuit is the
 * 113-gate straight-line program of J. Boyar and R. Peralta (32 AND and 81
 * XOR/XNOR gates; "Logic Minimization Techniques with Applications to
 * Cryptology", J. Cryptology 2013, and the NIST circuit complexity
 * project): a linear layer of 23 XORs, a non-linear middle of 60 gates that
 * inverts in a tower field, and a linear bottom layer of 30 XORs.  Its four
 * XNORs add the constant 0x63; here they are plain XORs and the constant is
 * folded into the round keys instead (see 4).
 *
 * For the inverse S-box, S^-1(y) = (A^-1 (y + 0x63))^-1.  The same middle
 * part is used, with two new linear layers: the top one computes the
 * middle's 22 input signals from A^-1 y rather than from x, the bottom one
 * returns A^-1 of the forward bottom layer's output, i.e. the plain field
 * inverse.  Both were composed from the forward layers and the matrix of
 * A^-1 and then reduced to straight-line programs of 23 and 30 XORs with
 * the Boyar-Peralta "smallest distance" heuristic, and checked against the
 * S-box on all 256 inputs.  The constant 0x63 is again taken from the
 * round keys.
 *
 * 4. Round keys
 *
 * setkey() runs the standard key expansion, with SubWord computed by the
 * same bitsliced circuit (no tables, no secret branches).  For each round
 * key it stores 16 bytes in the context: SR^-k(K_r) as above, XORed with
 * 0x63 in every byte for r >= 1.  That constant is what the forward
 * circuit leaves out: MixColumns maps the all-0x63 state to itself
 * ({02}+{03}+{01}+{01} = {01}), so S(x) + K = S'(x) + (K + 0x63) also holds
 * after MixColumns.  For decryption the inverse circuit wants its input
 * plus 0x63; that input is the ciphertext plus K_Nr, or InvMixColumns of
 * (state + K_r), and InvMixColumns also fixes the all-0x63 state
 * ({0e}+{0b}+{0d}+{09} = {01}).  So one set of stored keys serves both
 * directions, and K_0 stays as it is.
 *
 * The per-round bitsliced key (eight planes, each byte 0x00 or 0xff) is
 * derived on the fly from those 16 bytes with a shift, a mask and a
 * subtraction per plane.  No expanded key is written anywhere, so this
 * backend writes nothing to the caller's working space and declares 0.
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

const size_t aesecb__none_scratch_enc = 0;
const size_t aesecb__none_scratch_dec = 0;

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
 * bits above bit 0 are don't-care.
 */
INLINE void add_round_key1(v128 x[NPLANES], const uint8_t *rk)
{
	v16x8 k;
	unsigned i;

	memcpy(&k, rk, 16);
	UNROLL
	for (i = 0; i < NPLANES; i++)
		x[i] ^= (v128)(k >> i);
}

/* ------------------------------------------------------------------ */
/* SubBytes.                                                           */

/*
 * The non-linear middle part shared by both directions.  In: the 22
 * signals u7, y1..y21 made by a top layer.  Out: z0..z17, from which a
 * bottom layer makes the eight output bits.  Gate for gate the
 * Boyar-Peralta program (t2..t45, z0..z17).
 */
#define SBOX_MIDDLE                                                    \
	t2 = y12 & y15;  t3 = y3 & y6;    t4 = t3 ^ t2;                \
	t5 = y4 & u7;    t6 = t5 ^ t2;    t7 = y13 & y16;              \
	t8 = y5 & y1;    t9 = t8 ^ t7;    t10 = y2 & y7;               \
	t11 = t10 ^ t7;  t12 = y9 & y11;  t13 = y14 & y17;             \
	t14 = t13 ^ t12; t15 = y8 & y10;  t16 = t15 ^ t12;             \
	t17 = t4 ^ y20;  t18 = t6 ^ t16;  t19 = t9 ^ t14;              \
	t20 = t11 ^ t16; t21 = t17 ^ t14; t22 = t18 ^ y19;             \
	t23 = t19 ^ y21; t24 = t20 ^ y18; t25 = t21 ^ t22;             \
	t26 = t21 & t23; t27 = t24 ^ t26; t28 = t25 & t27;             \
	t29 = t28 ^ t22; t30 = t23 ^ t24; t31 = t22 ^ t26;             \
	t32 = t31 & t30; t33 = t32 ^ t24; t34 = t23 ^ t33;             \
	t35 = t27 ^ t33; t36 = t24 & t35; t37 = t36 ^ t34;             \
	t38 = t27 ^ t36; t39 = t29 & t38; t40 = t25 ^ t39;             \
	t41 = t40 ^ t37; t42 = t29 ^ t33; t43 = t29 ^ t40;             \
	t44 = t33 ^ t37; t45 = t42 ^ t41;                              \
	z0 = t44 & y15;  z1 = t37 & y6;   z2 = t33 & u7;               \
	z3 = t43 & y16;  z4 = t40 & y1;   z5 = t29 & y7;               \
	z6 = t42 & y11;  z7 = t45 & y17;  z8 = t41 & y10;              \
	z9 = t44 & y12;  z10 = t37 & y3;  z11 = t33 & y4;              \
	z12 = t43 & y13; z13 = t40 & y5;  z14 = t29 & y2;              \
	z15 = t42 & y9;  z16 = t45 & y14; z17 = t41 & y8

#define SBOX_VARS                                                      \
	v128 u7, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12,    \
	     y13, y14, y15, y16, y17, y18, y19, y20, y21;              \
	v128 t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14,  \
	     t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25,    \
	     t26, t27, t28, t29, t30, t31, t32, t33, t34, t35, t36,    \
	     t37, t38, t39, t40, t41, t42, t43, t44, t45;              \
	v128 z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11, z12,    \
	     z13, z14, z15, z16, z17

/*
 * x <- S(x) + 0x63 on every byte (the constant is in the round keys).
 * x[i] is bit i; the program's inputs U0..U7 are bits 7..0, and its
 * outputs S0..S7 likewise.
 */
INLINE void sub_bytes(v128 x[NPLANES])
{
	SBOX_VARS;
	v128 a0, a1;
	v128 c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14,
	     c16, c17, c18, c20, c21, c26, s3;

	/* top linear layer */
	y14 = x[4] ^ x[2];   y13 = x[7] ^ x[1];   y9 = x[7] ^ x[4];
	y8 = x[7] ^ x[2];    a0 = x[6] ^ x[5];    y1 = a0 ^ x[0];
	y4 = y1 ^ x[4];      y12 = y13 ^ y14;     y2 = y1 ^ x[7];
	y5 = y1 ^ x[1];      y3 = y5 ^ y8;        a1 = x[3] ^ y12;
	y15 = a1 ^ x[2];     y20 = a1 ^ x[6];     y6 = y15 ^ x[0];
	y10 = y15 ^ a0;      y11 = y20 ^ y9;      y7 = x[0] ^ y11;
	y17 = y10 ^ y11;     y19 = y10 ^ y8;      y16 = a0 ^ y11;
	y21 = y13 ^ y16;     y18 = x[7] ^ y16;    u7 = x[0];

	SBOX_MIDDLE;

	/* bottom linear layer */
	c1 = z15 ^ z16;      c2 = z10 ^ c1;       c3 = z9 ^ c2;
	c4 = z0 ^ z2;        c5 = z1 ^ z0;        c6 = z3 ^ z4;
	c7 = z12 ^ c4;       c8 = z7 ^ c6;        c9 = z8 ^ c7;
	c10 = c8 ^ c9;       c11 = c6 ^ c5;       c12 = z3 ^ z5;
	c13 = z13 ^ c1;      c14 = c4 ^ c12;      s3 = c3 ^ c11;
	c16 = z6 ^ c8;       c17 = z14 ^ c10;     c18 = c13 ^ c14;
	c20 = z15 ^ c16;     c21 = c2 ^ z11;      c26 = c17 ^ c20;
	x[7] = c3 ^ c16;     x[6] = s3 ^ c16;     x[5] = c26 ^ z17;
	x[4] = s3;           x[3] = c14 ^ s3;     x[2] = c21 ^ c17;
	x[1] = c10 ^ c18;    x[0] = z12 ^ c18;
}

/*
 * x <- S^-1(x + 0x63) on every byte (the constant is in the round keys):
 * the field inverse of A^-1 x.  New top and bottom layers, same middle.
 */
INLINE void inv_sub_bytes(v128 x[NPLANES])
{
	SBOX_VARS;
	v128 p0;
	v128 q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13,
	     q14, q15, q16, q17, q18, q19, q20, q21;

	/* top linear layer: the middle's inputs as functions of A^-1 x */
	y3 = x[4] ^ x[7];    y8 = x[6] ^ x[7];    y19 = x[0] ^ x[3];
	y6 = x[4] ^ y8;      y10 = y8 ^ y19;      y1 = x[4] ^ y19;
	y5 = x[4] ^ x[6];    y13 = x[1] ^ y1;     y14 = x[3] ^ y6;
	y2 = y5 ^ y13;       y9 = x[0] ^ y1;      y4 = y2 ^ y9;
	y18 = x[5] ^ y9;     y12 = y3 ^ y4;       y7 = x[5] ^ y4;
	y21 = x[1] ^ y7;     y16 = y1 ^ y7;       p0 = x[2] ^ x[7];
	y20 = y2 ^ p0;       u7 = x[5] ^ p0;      y15 = y6 ^ u7;
	y17 = y16 ^ y15;     y11 = y10 ^ y17;

	SBOX_MIDDLE;

	/* bottom linear layer: the plain field inverse */
	q0 = z6 ^ z15;       q1 = z12 ^ q0;       q2 = z13 ^ q1;
	q3 = z16 ^ q2;       q4 = z8 ^ q3;        q5 = z3 ^ q4;
	q6 = z4 ^ q5;        q7 = z1 ^ q6;        q8 = z2 ^ z10;
	q9 = z0 ^ q4;        q10 = z9 ^ z17;      q11 = q7 ^ q8;
	q12 = z14 ^ q11;     q13 = z7 ^ q6;       q15 = z11 ^ q10;
	q16 = z11 ^ q12;     q17 = z16 ^ q15;     q18 = z12 ^ q16;
	q19 = z9 ^ q8;
	x[7] = z5 ^ q5;      x[4] = z2 ^ q9;      x[1] = z8 ^ q13;
	q14 = x[7] ^ q9;     x[2] = q7 ^ q14;     x[0] = z15 ^ q15;
	x[5] = z13 ^ q16;    x[6] = q17 ^ q18;    q20 = x[1] ^ q17;
	q21 = q14 ^ q20;     x[3] = q19 ^ q21;
}

/* ------------------------------------------------------------------ */
/* MixColumns and InvMixColumns, in the fixsliced state of counter k.  */

/*
 * out[r] = 2 a[r] + 3 a[r+1] + a[r+2] + a[r+3]
 *        = 2 t[r] + a[r+1] + t[r+2]        with t[r] = a[r] + a[r+1],
 * where "r+j" is rot(., j, k).  Multiplying t by 2 renames planes and adds
 * t[7] (the bit shifted out) back in at bits 0, 1, 3 and 4 (0x11b).
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
 * InvMixColumns = MixColumns o P with P(a)[r] = a[r] + 4 (a[r] + a[r+2]).
 * Multiplying u by 4 = x^2: bits move up two places and bits 6 and 7 come
 * back reduced, x^8 = x^4+x^3+x+1 and x^9 = x^5+x^4+x^2+x.
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

static void encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out, size_t nblocks, void *scratch)
{
	const uint8_t *rk = ctx->priv_keys.b;
	unsigned rounds = ctx->priv_rounds;

	(void)scratch;
	if (nblocks == 1) {
		encrypt1(rk, rounds, in, out);
		return;
	}
	while (nblocks > 0) {
		size_t n = nblocks < PASS_BLOCKS ? nblocks : PASS_BLOCKS;

		encrypt8(rk, rounds, in, out, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
}

static void decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out, size_t nblocks, void *scratch)
{
	const uint8_t *rk = ctx->priv_keys.b;
	unsigned rounds = ctx->priv_rounds;

	(void)scratch;
	if (nblocks == 1) {
		decrypt1(rk, rounds, in, out);
		return;
	}
	while (nblocks > 0) {
		size_t n = nblocks < PASS_BLOCKS ? nblocks : PASS_BLOCKS;

		decrypt8(rk, rounds, in, out, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
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

static void setkey(aesecb_ctx *ctx, const uint8_t *key, size_t key_len)
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
			for (row = 0; row < 4; row++)
				ctx->priv_keys.b[16 * r + 4 * c + row] =
				    ek[16 * r + 4 * ((c - k * row) & 3) + row] ^ add;
	}
	aesecb_wipe(ek, sizeof ek);
	aesecb_wipe(tmp, sizeof tmp);
}

const struct aesecb_impl aesecb__impl_none = {
	NULL, setkey, encrypt_blocks, decrypt_blocks
};
