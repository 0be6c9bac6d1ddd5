/* SPDX-License-Identifier: MIT */
/*
 * backend_none.c - the portable backend: bitsliced, constant-time AES.
 *
 * This backend runs on every CPU.  It is plain C plus the GNU C vector
 * extensions (gcc and clang): a 128-bit vector type and constant lane
 * shuffles, which the compiler turns into SSE2 on x86-64, NEON on AArch64
 * and ordinary integer code where there is no vector unit.  Runs of
 * blocks use those vectors, eight blocks at a time (sections 1 to 5); a
 * single block, the common call for QUIC header protection, is plain
 * 64-bit integer code (section 6).  There are no tables, and no branch,
 * loop bound or memory index depends on the key or on the data: the only
 * branches are on the block count and the number of rounds.
 *
 * ------------------------------------------------------------------------
 * 1. Layout of a pass of blocks ("bitslicing")
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
 * the right: rot(x, j, k) below, a lane shuffle plus a lane rotation (a
 * single rotation of a 64-bit word in the one-block layout).  In
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
 * 27 gates deep; measured here the shallower one is faster in bulk.)  The
 * bottom layer's four XNORs add the constant 0x63; here they are plain
 * XORs and the constant is folded into the round keys (section 4).
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
 * The one-block path, which runs out of registers rather than out of
 * execution units, takes smaller circuits (sub_bytes1(), inv_sub_bytes1()):
 * forward, the same top layer and middle followed by the 28-XOR bottom
 * layer of the 113-gate circuit, which ends in the same 18 products (118
 * gates, 19 deep); inverse, a 121-gate circuit (21 deep).
 *
 * 4. Round keys
 *
 * setkey() runs the standard key expansion, with SubWord computed by the
 * one-block circuit (no tables, no secret branches).  For each round key
 * it computes 16 bytes: SR^-k(K_r) as above, XORed with 0x63 in every
 * byte for r >= 1.  That constant is what the forward
 * circuit leaves out: MixColumns maps the all-0x63 state to itself
 * ({02}+{03}+{01}+{01} = {01}), so adding 0x63 after SubBytes or adding it
 * with the next round key gives the same state.  For decryption the
 * inverse circuit wants its input plus 0x63; that input is the ciphertext
 * plus K_Nr, or InvMixColumns of (state + K_r), and InvMixColumns also
 * fixes the all-0x63 state ({0e}+{0b}+{0d}+{09} = {01}).  So one set of
 * stored keys serves both directions, and K_0 stays as it is.
 *
 * K_0 and K_Nr, the same for every block of a pass, are stored as these
 * 16 bytes and XORed into the blocks before and after the bitsliced part.
 * The others, K_1 .. K_Nr-1, are stored in the form the one-block path
 * adds them in, eight 64-bit words each (section 6), little-endian: 32 +
 * 64 (Nr - 1) bytes in all, at most 864 of the context's 960.  A pass
 * derives its bitsliced form of such a key (eight planes, each byte 0x00
 * or 0xff) when it needs it, with a shuffle, an AND and a compare per
 * plane (add_round_key()).  No expanded key is written anywhere else.
 *
 * 5. Passes
 *
 * Blocks go through in passes of eight; a shorter last pass leaves the
 * spare bit positions zero.  A call for exactly one block takes the path
 * of section 6, in functions of its own, one per key size.
 *
 * 6. One block on eight 64-bit words
 *
 * One block is 16 bits per bit plane, and a 128-bit plane for it would be
 * mostly empty.  Here plane i is one 64-bit word, kept in a register:
 *
 *     bits 16c .. 16c+15    = column c       (four 16-bit lanes)
 *     bit 16c + 4q + r      = row r          (q = 0..3: four copies)
 *
 * that is, each lane holds its column's four bits four times over, in
 * row order.  SubBytes is a circuit on the eight words as before (the
 * copies go through it unchanged), and the fixsliced rotation of section
 * 2, rot(x, j, k)[r][c] = x[r+j][c+jk], is one rotation of the word,
 * ror64(x, 16jk + j): 16jk bits move column c+jk to column c and the
 * extra j bits move row r+j to row r, which the copies make right within
 * the lane except for its top j bits, which receive the next lane's
 * bottom.  So every MixColumns leaves three fewer good copy bits at the
 * top of each lane (InvMixColumns five), and every fourth MixColumns
 * (every second InvMixColumns) starts from fresh copies of the first,
 * still good, nibble (recopy1()).  On x86-64 a round is then about 240
 * instructions: 118 gates, 43 rotations and XORs of MixColumns, eight
 * round-key XORs, and the register copies and stack slots that sixteen
 * two-operand registers need; the 128-bit layout took about 320.
 *
 * Words and bytes are converted at the ends (to_words(), from_words()):
 * two 8 x 8 bit transposes and a shift and mask per word.  The round keys
 * are converted once, in setkey().
 *
 * Measured for this path and left out: the 113-gate forward circuit (27
 * deep: equal or slower), the 128-gate one (more instructions, slower),
 * vector versions of the conversions (half the instructions, but longer
 * chains at both ends of a call: slower), one round loop for all key
 * sizes (about 5% slower than the unrolled copies) and earlier, the
 * 128-bit layout with the block as eight 16-bit planes packed into one
 * vector (fewer instructions, but every round had to unpack and repack
 * the planes, so nothing overlapped and it was no faster).
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

/*
 * The one-block path (section 6) is scalar code on 64-bit words on
 * purpose; gcc's vectorizer would pack pairs of its words into SSE
 * registers, where the rotations it relies on cost three instructions
 * instead of one.  The bulk path uses explicit vector types and does not
 * depend on the vectorizer.
 */
#if !defined(__clang__)
#pragma GCC optimize("no-tree-vectorize")
#endif

/* (The prover reads this file without the vector types and the code
 * that uses them: see encrypt8() below.) */
#ifndef __FRAMAC__
typedef uint32_t v128  __attribute__((vector_size(16)));  /* lane = column */
typedef uint16_t v16x8 __attribute__((vector_size(16)));
typedef uint8_t  v8x16 __attribute__((vector_size(16)));
#endif

/* Everything below is inlined into the block functions, so that the eight
 * planes stay in registers (or at worst in the function's own frame). */
#define INLINE static inline __attribute__((always_inline))
#define UNROLL _Pragma("GCC unroll 8")

/*
 * The one-block round loops (section 6) are unrolled on 64-bit machines:
 * the compiler then schedules across round boundaries, about 5% of a
 * one-block call on x86-64, for about 60 KiB of code.  32-bit machines,
 * where each word is a pair of registers, keep the loop.
 */
#if UINTPTR_MAX > 0xffffffffu
#define UNROLL_ROUNDS _Pragma("GCC unroll 16")
#else
#define UNROLL_ROUNDS
#endif

#define NPLANES 8
#define PASS_BLOCKS 8     /* blocks per bitsliced pass */

/* The context (section 4): the first and the last round key as 16 bytes,
 * the others as eight 64-bit words each (section 6), little-endian. */
#define KEY_FIRST  0
#define KEY_LAST   16
#define KEY_WORDS(r) (32 + 64 * ((r) - 1))     /* round r, 1 <= r < Nr */
#define KEY_BYTES(nr) KEY_WORDS(nr)            /* all of them, Nr rounds */

/*@
  // the round keys of an Nr-round key as this backend stores them
  predicate none_keys(uint8_t *ks, integer nr) =
    aesecb_rounds(nr) && \valid_read(ks + (0 .. KEY_BYTES(nr) - 1));

  // n blocks from in to out under those keys; out apart from the keys
  predicate none_pass(uint8_t *ks, integer nr, uint8_t *in, uint8_t *out,
                      integer n) =
    none_keys(ks, nr) && aesecb_blocks_io(in, out, n) &&
    \separated(out + (0 .. 16 * n - 1), ks + (0 .. KEY_BYTES(nr) - 1));

  // the stack record such a pass gets: none, or one apart from the keys,
  // the input and the output
  predicate none_stk(aesecb_stack *stk, uint8_t *ks, integer nr,
                     uint8_t *out, integer n) =
    stk == \null ||
    \valid(stk) && \separated(stk, ks + (0 .. KEY_BYTES(nr) - 1),
                              out + (0 .. 16 * n - 1));
*/

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NONE_BIG_ENDIAN 1
#else
#define NONE_BIG_ENDIAN 0
#endif

/*
 * Little-endian 64-bit words, copied through the byte half of a union
 * rather than into the word itself: the same code (one load or store, and
 * a byte swap on a big-endian machine), and no object is reached through
 * a pointer to another type, which is what lets the prover check these
 * copies (HACKING.md, "Proofs").
 */
union word_bytes {
	uint64_t w;
	uint8_t b[8];
};

/*@ requires \valid_read(p + (0 .. 7));
    assigns \nothing; */
INLINE uint64_t load_le64(const uint8_t *p)
{
	union word_bytes u;

	memcpy(u.b, p, 8);
#if NONE_BIG_ENDIAN
	u.w = __builtin_bswap64(u.w);
#endif
	return u.w;
}

/*@ requires \valid(p + (0 .. 7));
    assigns p[0 .. 7]; */
INLINE void store_le64(uint8_t *p, uint64_t v)
{
	union word_bytes u;

#if NONE_BIG_ENDIAN
	v = __builtin_bswap64(v);
#endif
	u.w = v;
	memcpy(p, u.b, 8);
}

/*
 * The eight-block pass (sections 1 to 5) is written with the GNU C vector
 * types, which the prover does not read: it sees these two declarations
 * and their contracts instead of encrypt8() and decrypt8() below, and
 * proves the code that calls them against the contracts (HACKING.md,
 * "Proofs").  A pass of n blocks reads the round keys and its n input
 * blocks and writes its n output blocks, nothing else: it keeps its
 * state in the vectors and derives the round-key planes from the
 * context on the fly.
 */
/*@ requires 1 <= n <= PASS_BLOCKS && none_pass(ks, rounds, in, out, n);
    assigns out[0 .. 16 * n - 1]; */
INLINE void encrypt8(const uint8_t *ks, unsigned rounds, const uint8_t *in,
                     uint8_t *out, size_t n);

/*@ requires 1 <= n <= PASS_BLOCKS && none_pass(ks, rounds, in, out, n);
    assigns out[0 .. 16 * n - 1]; */
INLINE void decrypt8(const uint8_t *ks, unsigned rounds, const uint8_t *in,
                     uint8_t *out, size_t n);

#ifndef __FRAMAC__
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
#if NONE_BIG_ENDIAN
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
 * kw is round key r as eight 64-bit words (section 6): word i holds bit i
 * of every byte, the byte of row r and column c at bit 16c + r (and again
 * at 16c + r + 4, + 8, + 12).  Plane i of the bitsliced key has byte
 * 4c + r = 0xff if that bit is set, else 0x00.  Duplicating 16-bit lane c
 * into both halves of 32-bit lane c puts bits 0-7 of the lane into bytes
 * 0 and 2 of the column and bits 8-15 into bytes 1 and 3; row r is then
 * bit r of byte r (bits 0, 9, 2 and 11 of the lane), which one AND and
 * one byte compare turn into the mask.  The words are stored
 * little-endian, so the 16-bit elements are the lanes in order on either
 * byte order.
 */
INLINE void add_round_key(v128 x[NPLANES], const uint8_t *kw)
{
	const v8x16 bit = { 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8 };
	unsigned i;

	UNROLL
	for (i = 0; i < NPLANES; i += 2) {
		v16x8 w, lo, hi;

		memcpy(&w, kw + 8 * i, 16);
		lo = __builtin_shufflevector(w, w, 0, 0, 1, 1, 2, 2, 3, 3);
		hi = __builtin_shufflevector(w, w, 4, 4, 5, 5, 6, 6, 7, 7);
		x[i] ^= (v128)(((v8x16)lo & bit) == bit);
		x[i + 1] ^= (v128)(((v8x16)hi & bit) == bit);
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
 * k = r mod 4; the switch picks one of four inlined variants.
 */
INLINE void encrypt_rounds(v128 x[NPLANES], const uint8_t *ks,
                           unsigned rounds)
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
		add_round_key(x, ks + KEY_WORDS(r));
	}
	sub_bytes(x);
}

/* The inverse, step by step from the end: InvSubBytes of round Nr, then
 * rounds Nr-1 .. 1 as InvSubBytes, AddRoundKey, InvMixColumns. */
INLINE void decrypt_rounds(v128 x[NPLANES], const uint8_t *ks,
                           unsigned rounds)
{
	unsigned r;

	for (r = rounds - 1; r > 0; r--) {
		inv_sub_bytes(x);
		add_round_key(x, ks + KEY_WORDS(r));
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
INLINE void encrypt8(const uint8_t *ks, unsigned rounds, const uint8_t *in,
                     uint8_t *out, size_t n)
{
	v128 x[NPLANES];
	v128 k0 = load16(ks + KEY_FIRST), kl = load16(ks + KEY_LAST);
	unsigned b;

	UNROLL
	for (b = 0; b < PASS_BLOCKS; b++)
		x[b] = b < n ? load16(in + 16 * b) ^ k0 : splat(0);
	transpose8(x);
	encrypt_rounds(x, ks, rounds);
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

INLINE void decrypt8(const uint8_t *ks, unsigned rounds, const uint8_t *in,
                     uint8_t *out, size_t n)
{
	v128 x[NPLANES];
	v128 k0 = load16(ks + KEY_FIRST), kl = load16(ks + KEY_LAST);
	unsigned b;

	UNROLL
	for (b = 0; b < PASS_BLOCKS; b++) {
		x[b] = b < n ? load16(in + 16 * b) : splat(0);
		if (rounds % 4 == 2)
			x[b] = shift_rows2(x[b]);
		x[b] ^= kl;
	}
	transpose8(x);
	decrypt_rounds(x, ks, rounds);
	transpose8(x);
	UNROLL
	for (b = 0; b < PASS_BLOCKS; b++)
		if (b < n)
			store16(out + 16 * b, x[b] ^ k0);
}

#endif /* !__FRAMAC__: the eight-block pass */

/* ------------------------------------------------------------------ */
/* One block: the state as eight 64-bit words (section 6).             */

typedef uint64_t w64;

#define LANE_NIBBLE 0x000f000f000f000fu   /* bits 0-3 of each lane */

/* Rotate right by n bits, 0 < n < 64; compilers emit one instruction. */
/*@ requires 0 < n < 64;
    assigns \nothing; */
INLINE w64 ror64(w64 x, unsigned n)
{
	return (x >> n) | (x << (64 - n));
}

/* The 8 x 8 bit transpose of a word seen as 8 bytes: afterwards bit j of
 * byte i is what bit i of byte j was (three rounds of swapping
 * off-diagonal blocks, as in transpose8(), within the word). */
/*@ assigns \nothing; */
INLINE w64 transpose_word(w64 x)
{
	w64 t;

	t = (x ^ (x >> 7)) & 0x00aa00aa00aa00aau;
	x ^= t ^ (t << 7);
	t = (x ^ (x >> 14)) & 0x0000cccc0000ccccu;
	x ^= t ^ (t << 14);
	t = (x ^ (x >> 28)) & 0x00000000f0f0f0f0u;
	x ^= t ^ (t << 28);
	return x;
}

/*
 * The 16 bytes (a: bytes 0-7, b: bytes 8-15, little-endian) to the eight
 * words.  After the two transposes, byte i of a holds bit i of bytes 0-7
 * (columns 0 and 1: one nibble each, rows in bit order) and byte i of b
 * the same for columns 2 and 3.  Word i gets those four nibbles in its
 * four lanes, then three more copies of each lane's nibble.
 */
/*
 * v | v << 4 | v << 8 | v << 12 for a v with one nibble in each 16-bit
 * lane: the four copies.  Compilers see that such ORs of shifts never
 * overlap and may turn them into a multiplication by a constant (gcc 12
 * does, here and in the transposes).  On x86 and AArch64 that is fine
 * (MUL and IMUL are on Intel's list of data-operand-independent
 * instructions, MUL under Arm's DIT guarantee) and faster (one block:
 * 9 ns less on x86-64); elsewhere a multiplier's time may depend on its
 * operands (the early-terminating multipliers of some 32-bit cores), so
 * the empty asm keeps these shifts as shifts.  The generated code of
 * other targets should be checked for multiplications (objdump); s390x
 * and ppc64le have none on secret data with gcc 12.
 */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
#define KEEP_SHIFTS(v) ((void)0)
#else
#define KEEP_SHIFTS(v) __asm__("" : "+r"(v))
#endif

/*@ assigns \nothing; */
INLINE w64 four_copies(w64 v)
{
	v |= v << 4;
	KEEP_SHIFTS(v);
	return v | (v << 8);
}

/*@ requires \valid(x + (0 .. NPLANES - 1));
    assigns x[0 .. NPLANES - 1]; */
INLINE void to_words(w64 x[NPLANES], w64 a, w64 b)
{
	w64 lo, hi;
	unsigned i;

	a = transpose_word(a);
	b = transpose_word(b);
	lo = (a & 0xffffffffu) | (b << 32);         /* bytes 0-3 of a, of b */
	hi = (a >> 32) | (b & 0xffffffff00000000u); /* bytes 4-7 of a, of b */
	UNROLL
	/*@ loop invariant 0 <= i <= NPLANES;
	    loop assigns i, x[0 .. NPLANES - 1];
	    loop variant NPLANES - i; */
	for (i = 0; i < NPLANES; i++) {
		w64 v = ((i < 4 ? lo : hi) >> (8 * (i % 4))) &
		        0x000000ff000000ffu;

		v = (v | (v << 12)) & LANE_NIBBLE;
		x[i] = four_copies(v);
	}
}

/* The inverse, from the first copy (bits 0-3) of each lane. */
/*@ requires \valid_read(x + (0 .. NPLANES - 1)) && \valid(a) && \valid(b);
    requires \separated(a, b, x + (0 .. NPLANES - 1));
    assigns *a, *b; */
INLINE void from_words(const w64 x[NPLANES], w64 *a, w64 *b)
{
	w64 lo = 0, hi = 0, ra, rb;
	unsigned i;

	UNROLL
	/*@ loop invariant 0 <= i <= NPLANES;
	    loop assigns i, lo, hi;
	    loop variant NPLANES - i; */
	for (i = 0; i < NPLANES; i++) {
		w64 v = x[i] & LANE_NIBBLE;

		v = (v | (v >> 12)) & 0x000000ff000000ffu;
		if (i < 4)
			lo |= v << (8 * i);
		else
			hi |= v << (8 * (i - 4));
	}
	ra = (lo & 0xffffffffu) | (hi << 32);
	rb = (lo >> 32) | (hi & 0xffffffff00000000u);
	*a = transpose_word(ra);
	*b = transpose_word(rb);
}

/*
 * SubBytes on the words: x <- S(x) + 0x63 (the constant is in the round
 * keys, section 4).  118 gates (34 AND, 84 XOR), 19 deep: the top linear
 * layer and the non-linear middle of the depth-16 circuit (the one
 * sub_bytes() uses), then the 28-XOR bottom linear layer of the 113-gate
 * circuit of J. Boyar, P. Matthews and R. Peralta ("Logic minimization
 * techniques with applications to cryptology", J. Cryptology 26, 2013),
 * which ends in the same 18 products; its four XNORs are XORs here.
 * Checked against the S-box on all 256 inputs.  Inputs U0..U7 of those
 * programs are x7..x0, outputs S0..S7 are y7..y0.  The gates are in an
 * order chosen for x86-64's sixteen two-operand registers: few copies,
 * few values kept in memory, short chains through those that are.
 */
/*@ requires \valid(x + (0 .. NPLANES - 1));
    assigns x[0 .. NPLANES - 1]; */
INLINE void sub_bytes1(w64 x[NPLANES])
{
	w64 x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
	w64 x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
	w64 y0, y1, y2, y3, y4, y5, y6, y7;
	w64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14,
	    t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27,
	    t28, t29, t30, t31, t32, t33, t34, t35, t36, t37, t38, t39, t40,
	    t41, t42, t43, t44, t45, t46, t47, t48, t49, t50, t51, t52, t53,
	    t54, t55, t56, t57, t58, t59, t60, t61, t62, t63, t64, t65, t66,
	    t67, t68, t69, t70, t71, t72, t73, t74, t75, t76, t77, t78, t79,
	    t80, t81, t82, t83, t84, t85, t86, t87, t88, t89, t90, t91, t92,
	    t93, t94, t95, t96, t97, t98, t99, t100, t101, t102, t103, t104,
	    t105, t106, t107, t108, t109;

	t0 = x3 ^ x1;         t1 = x5 ^ x2;         t2 = x6 ^ x5;
	t3 = x6 ^ x2;         t4 = x7 ^ x2;         t5 = x4 ^ x2;
	t6 = x1 ^ x0;         t7 = t2 ^ t6;         t8 = x7 ^ x1;
	t9 = t0 ^ t1;         t10 = x7 ^ x4;        t11 = x4 ^ x0;
	t12 = t2 ^ t11;       t13 = t10 ^ t1;       t14 = t10 ^ t12;
	t15 = t8 & t9;        t16 = t8 ^ t5;        t17 = t8 ^ t9;
	t18 = t17 ^ t15;      t19 = t5 & t13;       t20 = t10 ^ t0;
	t21 = t0 ^ t3;        t22 = t20 ^ t3;       t23 = x0 ^ t2;
	t24 = t20 ^ t2;       t25 = t16 & t20;      t26 = t22 ^ t25;
	t27 = t7 & t23;       t28 = t18 ^ t27;      t29 = t4 ^ t7;
	t30 = t4 & t24;       t31 = x0 ^ t20;       t32 = t23 ^ t9;
	t33 = t10 & t21;      t34 = t19 ^ t33;      t35 = t30 ^ t33;
	t36 = t29 & t31;      t37 = t26 ^ t36;      t38 = t37 ^ t34;
	t39 = t28 ^ t34;      t40 = t14 & t32;      t41 = t40 ^ t15;
	t42 = t41 ^ t35;      t43 = t39 & t38;      t44 = t12 & x0;
	t45 = t44 ^ t25;      t46 = t4 ^ t24;       t47 = t45 ^ t46;
	t48 = t47 ^ t35;      t49 = t48 ^ t43;      t50 = t14 ^ t32;
	t51 = t42 ^ t50;      t52 = t39 ^ t51;      t53 = t48 & t39;
	t54 = t49 & t52;      t55 = t51 ^ t54;      t56 = t55 & x0;
	t57 = t52 & t53;      t58 = t52 ^ t43;      t59 = t57 ^ t58;
	t60 = t59 & t31;      t61 = t59 & t29;      t62 = t55 & t12;
	t63 = t51 ^ t43;      t64 = t38 & t51;      t65 = t38 ^ t48;
	t66 = t65 & t64;      t67 = t65 ^ t43;      t68 = t66 ^ t67;
	t69 = t63 & t65;      t70 = t48 ^ t69;      t71 = t68 & t23;
	t72 = t68 & t7;       t73 = t70 & t32;      t74 = t70 ^ t55;
	t75 = t74 & t10;      t76 = t70 & t14;      t77 = t55 ^ t59;
	t78 = t77 & t20;      t79 = t77 & t16;      t80 = t68 ^ t59;
	t81 = t70 ^ t68;      t82 = t81 & t8;       t83 = t81 & t9;
	t84 = t83 ^ t73;      t85 = t83 ^ t71;      t86 = t74 & t21;
	t87 = t60 ^ t78;      t88 = t78 ^ t56;      t89 = t88 ^ t84;
	t90 = t80 & t24;      t91 = t85 ^ t87;      t92 = t74 ^ t80;
	t93 = t80 & t4;       t94 = t82 ^ t88;      t95 = t90 ^ t94;
	t96 = t92 & t5;       t97 = t92 & t13;      t98 = t97 ^ t85;
	t99 = t98 ^ t95;      t100 = t86 ^ t98;     t101 = t76 ^ t99;
	t102 = t75 ^ t96;     t103 = t72 ^ t102;    t104 = t61 ^ t102;
	t105 = t103 ^ t89;    y0 = t82 ^ t105;      y1 = t99 ^ t105;
	t106 = t79 ^ t104;    t107 = t104 ^ t62;    y4 = t106 ^ t91;
	y7 = t106 ^ t100;     t108 = t75 ^ t100;    t109 = t101 ^ t108;
	y2 = t107 ^ t101;     y5 = t109 ^ t93;      y3 = t89 ^ y4;
	y6 = y4 ^ t100;
	x[0] = y0; x[1] = y1; x[2] = y2; x[3] = y3;
	x[4] = y4; x[5] = y5; x[6] = y6; x[7] = y7;
}

/*
 * x <- S^-1(x + 0x63): the 121-gate circuit (34 AND, 87 XOR, 21 deep)
 * listed by NIST's circuit complexity project, its XNORs (which add the
 * 0x63) as XORs; ordered like sub_bytes1().
 */
/*@ requires \valid(x + (0 .. NPLANES - 1));
    assigns x[0 .. NPLANES - 1]; */
INLINE void inv_sub_bytes1(w64 x[NPLANES])
{
	w64 x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
	w64 x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
	w64 y0, y1, y2, y3, y4, y5, y6, y7;
	w64 t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14,
	    t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27,
	    t28, t29, t30, t31, t32, t33, t34, t35, t36, t37, t38, t39, t40,
	    t41, t42, t43, t44, t45, t46, t47, t48, t49, t50, t51, t52, t53,
	    t54, t55, t56, t57, t58, t59, t60, t61, t62, t63, t64, t65, t66,
	    t67, t68, t69, t70, t71, t72, t73, t74, t75, t76, t77, t78, t79,
	    t80, t81, t82, t83, t84, t85, t86, t87, t88, t89, t90, t91, t92,
	    t93, t94, t95, t96, t97, t98, t99, t100, t101, t102, t103, t104,
	    t105, t106, t107, t108, t109, t110, t111, t112;

	t0 = x6 ^ x4;         t1 = x4 ^ x3;         t2 = x1 ^ x0;
	t3 = t0 ^ t2;         t4 = x0 ^ t1;         t5 = x7 ^ x4;
	t6 = t3 ^ t1;         t7 = x5 ^ t3;         t8 = x7 ^ x5;
	t9 = x2 ^ t8;         t10 = x7 ^ t0;        t11 = t9 ^ t7;
	t12 = t5 ^ t3;        t13 = t0 ^ t6;        t14 = t4 ^ t7;
	t15 = t10 ^ t9;       t16 = t3 ^ t6;        t17 = t12 & t15;
	t18 = t0 & t4;        t19 = t5 ^ t0;        t20 = t13 ^ t14;
	t21 = t13 & t14;      t22 = t20 ^ t21;      t23 = t22 ^ t18;
	t24 = t6 & t7;        t25 = t16 ^ t19;      t26 = t16 ^ t11;
	t27 = t24 ^ t21;      t28 = t26 ^ t17;      t29 = t3 & t9;
	t30 = t29 ^ t17;      t31 = t10 ^ t4;       t32 = t19 ^ t31;
	t33 = t30 ^ t32;      t34 = t11 ^ t31;      t35 = t25 & t34;
	t36 = t19 & t31;      t37 = t16 & t11;      t38 = t5 & t10;
	t39 = t28 ^ t38;      t40 = t36 ^ t37;      t41 = t35 ^ t37;
	t42 = t23 ^ t41;      t43 = t39 ^ t41;      t44 = t6 ^ t7;
	t45 = t27 ^ t40;      t46 = t45 ^ t44;      t47 = t33 ^ t40;
	t48 = t47 & t42;      t49 = t42 ^ t46;      t50 = t49 & t48;
	t51 = t42 & t43;      t52 = t47 ^ t51;      t53 = t52 & t49;
	t54 = t43 ^ t47;      t55 = t46 ^ t53;      t56 = t49 ^ t51;
	t57 = t43 & t46;      t58 = t50 ^ t56;      t59 = t58 & t10;
	t60 = t54 & t57;      t61 = t54 ^ t51;      t62 = t46 ^ t51;
	t63 = t62 & t54;      t64 = t47 ^ t63;      t65 = t60 ^ t61;
	t66 = t64 & t6;       t67 = t65 & t4;       t68 = t65 & t0;
	t69 = t65 ^ t58;      t70 = t64 ^ t65;      t71 = t70 & t13;
	t72 = t70 & t14;      t73 = t67 ^ t72;      t74 = t68 ^ t71;
	t75 = t69 & t19;      t76 = t58 & t5;       t77 = t66 ^ t71;
	t78 = t64 & t7;       t79 = t64 ^ t55;      t80 = t78 ^ t72;
	t81 = t55 ^ t58;      t82 = t79 & t11;      t83 = t69 & t31;
	t84 = t81 & t15;      t85 = t79 ^ t69;      t86 = t81 & t12;
	t87 = t79 & t16;      t88 = t85 & t25;      t89 = t85 & t34;
	t90 = t88 ^ t87;      t91 = t75 ^ t87;      t92 = t83 ^ t82;
	t93 = t89 ^ t82;      t94 = t55 & t3;       t95 = t55 & t9;
	t96 = t74 ^ t90;      t97 = t95 ^ t84;      t98 = t59 ^ t84;
	t99 = t73 ^ t93;      t100 = t98 ^ t93;     t101 = t97 ^ t92;
	t102 = t80 ^ t92;     t103 = t76 ^ t86;     t104 = t94 ^ t86;
	t105 = t103 ^ t90;    t106 = t77 ^ t91;     y0 = t104 ^ t91;
	t107 = t101 ^ y0;     y7 = t102 ^ t96;      t108 = t105 ^ t106;
	t109 = t100 ^ t105;   y4 = t101 ^ t96;      t110 = t100 ^ t99;
	y1 = t99 ^ t96;       t111 = t110 ^ t108;   y2 = y7 ^ t110;
	t112 = y2 ^ t107;     y3 = t109 ^ t112;     y5 = t111 ^ t107;
	y6 = y4 ^ t111;
	x[0] = y0; x[1] = y1; x[2] = y2; x[3] = y3;
	x[4] = y4; x[5] = y5; x[6] = y6; x[7] = y7;
}

/*
 * MixColumns on the words in the fixsliced state of counter k (section
 * 2): with rot(x, j, k) = ror64(x, 16jk + j) the formula of
 * mix_columns(), ordered so that each word is copied once.  Each
 * rotation loses the top bit(s) of every lane (section 6).  With kw, the
 * round key after it is added too, early, off the longest chain.
 */
/*@ requires \valid(x + (0 .. NPLANES - 1));
    requires kw == \null || \valid_read(kw + (0 .. 8 * NPLANES - 1));
    assigns x[0 .. NPLANES - 1]; */
INLINE void mix_columns1k(w64 x[NPLANES], unsigned k, const uint8_t *kw)
{
	w64 a[NPLANES];
	unsigned i;

	UNROLL
	/*@ loop invariant 0 <= i <= NPLANES;
	    loop assigns i, a[0 .. NPLANES - 1], x[0 .. NPLANES - 1];
	    loop variant NPLANES - i; */
	for (i = 0; i < NPLANES; i++) {
		a[i] = ror64(x[i], 16 * (k % 4) + 1);
		x[i] ^= a[i];                             /* t */
		if (kw)
			a[i] ^= load_le64(kw + 8 * i);
	}
	a[0] ^= x[7];
	a[1] ^= x[0] ^ x[7];
	a[2] ^= x[1];
	a[3] ^= x[2] ^ x[7];
	a[4] ^= x[3] ^ x[7];
	a[5] ^= x[4];
	a[6] ^= x[5];
	a[7] ^= x[6];
	UNROLL
	/*@ loop invariant 0 <= i <= NPLANES;
	    loop assigns i, x[0 .. NPLANES - 1];
	    loop variant NPLANES - i; */
	for (i = 0; i < NPLANES; i++)
		x[i] = a[i] ^ ror64(x[i], 16 * (2 * k % 4) + 2);
}

/*@ requires \valid(x + (0 .. NPLANES - 1));
    assigns x[0 .. NPLANES - 1]; */
INLINE void mix_columns1(w64 x[NPLANES], unsigned k)
{
	mix_columns1k(x, k, NULL);
}

/* InvMixColumns = MixColumns o P, as inv_mix_columns(). */
/*@ requires \valid(x + (0 .. NPLANES - 1));
    assigns x[0 .. NPLANES - 1]; */
INLINE void inv_mix_columns1(w64 x[NPLANES], unsigned k)
{
	w64 u[NPLANES];
	unsigned i;

	UNROLL
	/*@ loop invariant 0 <= i <= NPLANES;
	    loop assigns i, u[0 .. NPLANES - 1];
	    loop variant NPLANES - i; */
	for (i = 0; i < NPLANES; i++)
		u[i] = x[i] ^ ror64(x[i], 16 * (2 * k % 4) + 2);
	x[0] ^= u[6];
	x[1] ^= u[6] ^ u[7];
	x[2] ^= u[0] ^ u[7];
	x[3] ^= u[1] ^ u[6];
	x[4] ^= u[2] ^ u[6] ^ u[7];
	x[5] ^= u[3] ^ u[7];
	x[6] ^= u[4];
	x[7] ^= u[5];
	mix_columns1(x, k);
}

/* All four copies of each lane again from the first (bits 0-3). */
/*@ requires \valid(x + (0 .. NPLANES - 1));
    assigns x[0 .. NPLANES - 1]; */
INLINE void recopy1(w64 x[NPLANES])
{
	unsigned i;

	UNROLL
	/*@ loop invariant 0 <= i <= NPLANES;
	    loop assigns i, x[0 .. NPLANES - 1];
	    loop variant NPLANES - i; */
	for (i = 0; i < NPLANES; i++) {
		x[i] = four_copies(x[i] & LANE_NIBBLE);
	}
}

/*@ requires \valid(x + (0 .. NPLANES - 1));
    requires \valid_read(kw + (0 .. 8 * NPLANES - 1));
    assigns x[0 .. NPLANES - 1]; */
INLINE void add_round_key1(w64 x[NPLANES], const uint8_t *kw)
{
	unsigned i;

	UNROLL
	/*@ loop invariant 0 <= i <= NPLANES;
	    loop assigns i, x[0 .. NPLANES - 1];
	    loop variant NPLANES - i; */
	for (i = 0; i < NPLANES; i++)
		x[i] ^= load_le64(kw + 8 * i);
}

/* SR^2 on the block as two words: rows 1 and 3 (bytes 1, 3, 5, 7 of each
 * word) swap columns c and c + 2, i.e. the two words. */
#define SHIFT_ROWS2_WORDS(a, b) do {                                   \
		w64 t_ = ((a) ^ (b)) & 0xff00ff00ff00ff00u;            \
		(a) ^= t_;                                             \
		(b) ^= t_;                                             \
	} while (0)

/*
 * One block: rounds 1 .. Nr-1 as SubBytes, MixColumns with k = r mod 4
 * (the switch picks an inlined variant) and AddRoundKey; every fourth
 * MixColumns starts from fresh copies (each loses three bits of them).
 */
/*@ requires none_pass(ks, rounds, in, out, 1);
    assigns out[0 .. 15]; */
INLINE void encrypt1(const uint8_t *ks, unsigned rounds, const uint8_t *in,
                     uint8_t *out)
{
	w64 x[NPLANES];
	w64 a = load_le64(in) ^ load_le64(ks + KEY_FIRST);
	w64 b = load_le64(in + 8) ^ load_le64(ks + KEY_FIRST + 8);
	unsigned r;

	to_words(x, a, b);
	UNROLL_ROUNDS
	/*@ loop invariant 1 <= r <= rounds;
	    loop assigns r, x[0 .. NPLANES - 1];
	    loop variant rounds - r; */
	for (r = 1; r < rounds; r++) {
		sub_bytes1(x);
		if (r % 4 == 1 && r > 1)
			recopy1(x);
		switch (r & 3) {
		case 0: mix_columns1k(x, 0, ks + KEY_WORDS(r)); break;
		case 1: mix_columns1k(x, 1, ks + KEY_WORDS(r)); break;
		case 2: mix_columns1k(x, 2, ks + KEY_WORDS(r)); break;
		default: mix_columns1k(x, 3, ks + KEY_WORDS(r)); break;
		}
	}
	sub_bytes1(x);
	from_words(x, &a, &b);
	a ^= load_le64(ks + KEY_LAST);
	b ^= load_le64(ks + KEY_LAST + 8);
	if (rounds % 4 == 2)
		SHIFT_ROWS2_WORDS(a, b);
	store_le64(out, a);
	store_le64(out + 8, b);
}

/* InvMixColumns loses five bits of the copies: fresh ones every second. */
/*@ requires none_pass(ks, rounds, in, out, 1);
    assigns out[0 .. 15]; */
INLINE void decrypt1(const uint8_t *ks, unsigned rounds, const uint8_t *in,
                     uint8_t *out)
{
	w64 x[NPLANES];
	w64 a = load_le64(in), b = load_le64(in + 8);
	unsigned r;

	if (rounds % 4 == 2)
		SHIFT_ROWS2_WORDS(a, b);
	a ^= load_le64(ks + KEY_LAST);
	b ^= load_le64(ks + KEY_LAST + 8);
	to_words(x, a, b);
	UNROLL_ROUNDS
	/*@ loop invariant 0 <= r <= rounds - 1;
	    loop assigns r, x[0 .. NPLANES - 1];
	    loop variant r; */
	for (r = rounds - 1; r > 0; r--) {
		inv_sub_bytes1(x);
		add_round_key1(x, ks + KEY_WORDS(r));
		if ((rounds - r) % 2 == 1 && r != rounds - 1)
			recopy1(x);
		switch (r & 3) {
		case 0: inv_mix_columns1(x, 0); break;
		case 1: inv_mix_columns1(x, 1); break;
		case 2: inv_mix_columns1(x, 2); break;
		default: inv_mix_columns1(x, 3); break;
		}
	}
	inv_sub_bytes1(x);
	from_words(x, &a, &b);
	store_le64(out, a ^ load_le64(ks + KEY_FIRST));
	store_le64(out + 8, b ^ load_le64(ks + KEY_FIRST + 8));
}

/* ------------------------------------------------------------------ */
/* The block functions.                                                */

/*
 * The work is done in out-of-line functions whose frames hold whatever the
 * compiler spilled (bitsliced state, round-key planes: for AES-128 one
 * round key gives back the key), and the library burns the stack below
 * its calling frame afterwards (lib/aesecb.c, "Burned calls"): each of
 * these functions records its frame with aesecb__stack_mark(stk), and
 * everything it calls that may hold key-derived values is inlined
 * (INLINE: always_inline, so at -O0 too).
 */
/*@ requires none_pass(rk, rounds, in, out, nblocks);
    requires none_stk(stk, rk, rounds, out, nblocks);
    assigns out[0 .. 16 * nblocks - 1], stk->low; */
static __attribute__((noinline)) void encrypt_work(const uint8_t *rk,
		unsigned rounds, const uint8_t *in, uint8_t *out, size_t nblocks,
		aesecb_stack *stk)
{
	aesecb__stack_mark(stk);
	/*@ loop invariant 0 <= nblocks <= \at(nblocks, Pre);
	    loop invariant in == \at(in, Pre) + 16 * (\at(nblocks, Pre) - nblocks);
	    loop invariant out == \at(out, Pre) + 16 * (\at(nblocks, Pre) - nblocks);
	    loop assigns nblocks, in, out,
	                 \at(out, Pre)[0 .. 16 * \at(nblocks, Pre) - 1];
	    loop variant nblocks; */
	while (nblocks > 0) {
		size_t n = nblocks < PASS_BLOCKS ? nblocks : PASS_BLOCKS;

		encrypt8(rk, rounds, in, out, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
}

/*@ requires none_pass(rk, rounds, in, out, nblocks);
    requires none_stk(stk, rk, rounds, out, nblocks);
    assigns out[0 .. 16 * nblocks - 1], stk->low; */
static __attribute__((noinline)) void decrypt_work(const uint8_t *rk,
		unsigned rounds, const uint8_t *in, uint8_t *out, size_t nblocks,
		aesecb_stack *stk)
{
	aesecb__stack_mark(stk);
	/*@ loop invariant 0 <= nblocks <= \at(nblocks, Pre);
	    loop invariant in == \at(in, Pre) + 16 * (\at(nblocks, Pre) - nblocks);
	    loop invariant out == \at(out, Pre) + 16 * (\at(nblocks, Pre) - nblocks);
	    loop assigns nblocks, in, out,
	                 \at(out, Pre)[0 .. 16 * \at(nblocks, Pre) - 1];
	    loop variant nblocks; */
	while (nblocks > 0) {
		size_t n = nblocks < PASS_BLOCKS ? nblocks : PASS_BLOCKS;

		decrypt8(rk, rounds, in, out, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
}

/*
 * One block gets functions of its own, kept out of the pass loop (a
 * smaller frame and prologue), one per key size: with the number of
 * rounds a constant, UNROLL_ROUNDS can unroll the round loop.
 */
#define ONE_BLOCK_FUNCTION(name, body, nr)                             \
	static __attribute__((noinline)) void name(const uint8_t *rk, \
		const uint8_t *in, uint8_t *out, aesecb_stack *stk)    \
	{                                                              \
		aesecb__stack_mark(stk);                               \
		body(rk, nr, in, out);                                 \
	}
/*@ requires none_pass(rk, 10, in, out, 1) && none_stk(stk, rk, 10, out, 1);
    assigns out[0 .. 15], stk->low; */
ONE_BLOCK_FUNCTION(encrypt_one10, encrypt1, 10)
/*@ requires none_pass(rk, 12, in, out, 1) && none_stk(stk, rk, 12, out, 1);
    assigns out[0 .. 15], stk->low; */
ONE_BLOCK_FUNCTION(encrypt_one12, encrypt1, 12)
/*@ requires none_pass(rk, 14, in, out, 1) && none_stk(stk, rk, 14, out, 1);
    assigns out[0 .. 15], stk->low; */
ONE_BLOCK_FUNCTION(encrypt_one14, encrypt1, 14)
/*@ requires none_pass(rk, 10, in, out, 1) && none_stk(stk, rk, 10, out, 1);
    assigns out[0 .. 15], stk->low; */
ONE_BLOCK_FUNCTION(decrypt_one10, decrypt1, 10)
/*@ requires none_pass(rk, 12, in, out, 1) && none_stk(stk, rk, 12, out, 1);
    assigns out[0 .. 15], stk->low; */
ONE_BLOCK_FUNCTION(decrypt_one12, decrypt1, 12)
/*@ requires none_pass(rk, 14, in, out, 1) && none_stk(stk, rk, 14, out, 1);
    assigns out[0 .. 15], stk->low; */
ONE_BLOCK_FUNCTION(decrypt_one14, decrypt1, 14)

/*@ requires none_pass(rk, rounds, in, out, 1);
    requires none_stk(stk, rk, rounds, out, 1);
    assigns out[0 .. 15], stk->low; */
INLINE void encrypt_one(const uint8_t *rk, unsigned rounds, const uint8_t *in,
                        uint8_t *out, aesecb_stack *stk)
{
	switch (rounds) {
	case 10: encrypt_one10(rk, in, out, stk); break;
	case 12: encrypt_one12(rk, in, out, stk); break;
	default: encrypt_one14(rk, in, out, stk); break;
	}
}

/*@ requires none_pass(rk, rounds, in, out, 1);
    requires none_stk(stk, rk, rounds, out, 1);
    assigns out[0 .. 15], stk->low; */
INLINE void decrypt_one(const uint8_t *rk, unsigned rounds, const uint8_t *in,
                        uint8_t *out, aesecb_stack *stk)
{
	switch (rounds) {
	case 10: decrypt_one10(rk, in, out, stk); break;
	case 12: decrypt_one12(rk, in, out, stk); break;
	default: decrypt_one14(rk, in, out, stk); break;
	}
}

/* This frame holds the key schedule's address and the lengths only. */
/*@ requires aesecb_blocks_args(ctx, in, out, nblocks, stk);
    assigns out[0 .. 16 * nblocks - 1], stk->low;
    ensures \result == AESECB_OK; */
static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t nblocks, aesecb_stack *stk)
{
	if (nblocks == 1)
		encrypt_one(ctx->priv_keys.b, ctx->priv_rounds, in, out, stk);
	else
		encrypt_work(ctx->priv_keys.b, ctx->priv_rounds, in, out,
		             nblocks, stk);
	return AESECB_OK;
}

/*@ requires aesecb_blocks_args(ctx, in, out, nblocks, stk);
    assigns out[0 .. 16 * nblocks - 1], stk->low;
    ensures \result == AESECB_OK; */
static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out, size_t nblocks, aesecb_stack *stk)
{
	if (nblocks == 1)
		decrypt_one(ctx->priv_keys.b, ctx->priv_rounds, in, out, stk);
	else
		decrypt_work(ctx->priv_keys.b, ctx->priv_rounds, in, out,
		             nblocks, stk);
	return AESECB_OK;
}

/* ------------------------------------------------------------------ */
/* Key setup.                                                          */

/* w[0..3] <- S(w[0..3]) through the circuit of the one-block path. */
/*@ requires \valid(w + (0 .. 3));
    assigns w[0 .. 3]; */
INLINE void sub_word(uint8_t w[4])
{
	w64 x[NPLANES];
	w64 a = (w64)w[0] | (w64)w[1] << 8 | (w64)w[2] << 16 | (w64)w[3] << 24;
	w64 b = 0;

	to_words(x, a, b);
	sub_bytes1(x);
	from_words(x, &a, &b);
	w[0] = (uint8_t)(a ^ 0x63);
	w[1] = (uint8_t)((a >> 8) ^ 0x63);
	w[2] = (uint8_t)((a >> 16) ^ 0x63);
	w[3] = (uint8_t)((a >> 24) ^ 0x63);
}

/*
 * The expansion's temporaries (ek holds the whole schedule, sub_word's
 * planes, what the compiler spilled) are in this frame, which the burn
 * after key setup overwrites (lib/aesecb.c): no wipe of them here.
 */
/*@ requires aesecb_setkey_args(ctx, key, key_len, stk);
    assigns ctx->priv_keys.b[0 .. sizeof(ctx->priv_keys.b) - 1], stk->low; */
static __attribute__((noinline)) void expand_key(aesecb_ctx *ctx,
		const uint8_t *key, size_t key_len, aesecb_stack *stk)
{
	/* the FIPS-197 expansion, as bytes: word i is ek[4i..4i+3] */
	uint8_t ek[16 * 15];
	uint8_t rk[16];
	uint8_t tmp[4];
	w64 x[NPLANES];
	uint8_t *ks = ctx->priv_keys.b;
	unsigned nk = (unsigned)key_len / 4;
	unsigned rounds = ctx->priv_rounds;
	unsigned nwords = 4 * (rounds + 1);
	unsigned i, r, c, row;
	uint8_t rcon = 1;

	aesecb__stack_mark(stk);
	memcpy(ek, key, key_len);
	/*@ loop invariant nk <= i <= nwords;
	    loop assigns i, rcon, tmp[0 .. 3], ek[4 * nk .. sizeof(ek) - 1];
	    loop variant nwords - i; */
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
			rcon = (uint8_t)((rcon << 1) ^ (0x1bu * (rcon >> 7)));
		} else if (nk > 6 && i % nk == 4) {
			sub_word(tmp);
		}
		ek[4 * i + 0] = ek[4 * (i - nk) + 0] ^ tmp[0];
		ek[4 * i + 1] = ek[4 * (i - nk) + 1] ^ tmp[1];
		ek[4 * i + 2] = ek[4 * (i - nk) + 2] ^ tmp[2];
		ek[4 * i + 3] = ek[4 * (i - nk) + 3] ^ tmp[3];
	}

	/*
	 * Round key r as stored: SR^-k(K_r) with k = r mod 4, i.e. byte
	 * (row, c) comes from (row, c - k*row); plus 0x63 for r >= 1.  The
	 * first and the last as these 16 bytes, the others as words.
	 */
	/*@ loop invariant 0 <= r <= rounds + 1;
	    loop assigns r, c, row, i, rk[0 .. 15], x[0 .. NPLANES - 1],
	                 ks[0 .. KEY_BYTES(rounds) - 1];
	    loop variant rounds - r; */
	for (r = 0; r <= rounds; r++) {
		unsigned k = r & 3;
		uint8_t add = r == 0 ? 0 : 0x63;

		/*@ loop invariant 0 <= c <= 4;
		    loop assigns c, row, rk[0 .. 15];
		    loop variant 4 - c; */
		for (c = 0; c < 4; c++)
			/*@ loop invariant 0 <= row <= 4;
			    loop assigns row, rk[4 * c .. 4 * c + 3];
			    loop variant 4 - row; */
			for (row = 0; row < 4; row++) {
				unsigned from = 4 * ((c - k * row) % 4) + row;

				rk[4 * c + row] = ek[16 * r + from] ^ add;
			}
		if (r == 0) {
			memcpy(ks + KEY_FIRST, rk, 16);
		} else if (r == rounds) {
			memcpy(ks + KEY_LAST, rk, 16);
		} else {
			to_words(x, load_le64(rk), load_le64(rk + 8));
			/*@ loop invariant 0 <= i <= NPLANES;
			    loop assigns i, ks[KEY_WORDS(r) .. KEY_WORDS(r) + 8 * NPLANES - 1];
			    loop variant NPLANES - i; */
			for (i = 0; i < NPLANES; i++)
				store_le64(ks + KEY_WORDS(r) + 8 * i, x[i]);
		}
	}
	/* no stale round keys of a longer key used with this context before */
	aesecb_wipe(ks + KEY_WORDS(rounds), sizeof ctx->priv_keys.b -
	            KEY_WORDS(rounds));
}

/*@ requires aesecb_setkey_args(ctx, key, key_len, stk);
    assigns ctx->priv_keys.b[0 .. sizeof(ctx->priv_keys.b) - 1], stk->low; */
static void setkey(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                   aesecb_stack *stk)
{
	expand_key(ctx, key, key_len, stk);
}

static const struct aesecb_impl impl = {
	.setkey = setkey,
	.encrypt = encrypt_blocks,
	.decrypt = decrypt_blocks,
};

/* Runs everywhere; every path burned (bitsliced code spills). */
AESECB_BACKEND(none, 0, &impl);
