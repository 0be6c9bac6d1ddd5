/* SPDX-License-Identifier: MIT */
/*
 * backend_ssse3.c - constant-time AES for x86 CPUs without AES-NI, built on
 * the SSSE3 byte shuffle PSHUFB (the vector-permute method of M. Hamburg,
 * "Accelerating AES with Vector Permute Instructions", CHES 2009).  One
 * source for x86-64 and 32-bit x86.
 *
 * PSHUFB with a constant in the first operand and data in the second is a
 * 16-entry table look-up done on all 16 bytes at once, inside a register:
 * byte n of the result is table[idx[n] & 15], or 0 when bit 7 of idx[n] is
 * set.  Every non-linear and every byte-wise linear step of AES below is a
 * few such look-ups on 4-bit halves of the state bytes, and every byte
 * movement (ShiftRows, the column rotations of MixColumns) is a PSHUFB
 * with a constant index vector.  No memory address and no branch depends
 * on key or data.
 *
 * Representation.  GF(2^8) is built as a quadratic extension of
 * GF(16) = GF(2)[z]/(z^4 + z + 1): an element is k + i*t with k, i in
 * GF(16), stored as one byte (k in the low nibble, i in the high nibble),
 * and t a root of t^2 + a*t + a with a = 2 (= z); this polynomial has no
 * root in GF(16), so the field is GF(256).  The AES field
 * GF(2)[x]/(x^8 + x^4 + x^3 + x + 1) maps to it by x -> beta, where
 * beta = 0x1c is the first byte (counting up) that is a root of the AES
 * polynomial in the tower field; the map phi (bit j of the AES byte ->
 * beta^j) is GF(2)-linear, so it is two nibble look-ups and an XOR.
 *
 * Inversion.  The conjugate of t is t + a, so the norm of x = k + i*t is
 * N = x * conj(x) = k^2 + a*i*k + a*i^2 (in GF(16)), and
 * 1/x = conj(x)/N = ((k + a*i) + i*t) / N.  For any p, q in GF(16),
 *
 *     1/(1/p + a/q) + p + q = (q^2 + a*p*q + a*p^2) / (q + a*p),
 *
 * (put both terms over q + a*p).  With (p, q) = (i, k) the right side is
 * N/(k + a*i); with (p, q) = (i + k, k) it is N/((1 + a)*k + a*i), because
 * the norm form is unchanged when i is replaced by i + k.  So, with
 * j = i ^ k, inv() the GF(16) inverse and ak = a * inv(k):
 *
 *     u = inv(inv(i) ^ ak) ^ j     = N / (k + a*i)
 *     w = inv(inv(j) ^ ak) ^ i     = N / ((1 + a)*k + a*i)
 *
 * which is five look-ups (inv four times, a/k once) and XORs (invert_ki).
 * Both coordinates of 1/x are GF(16)-linear in 1/u and 1/w:
 *
 *     1/x = 1/u + t * ((1/a + 1/a^2)/u + (1/a^2)/w)
 *
 * so any GF(2)-linear function M of 1/x is T1[u] ^ T2[w] with two 16-byte
 * tables, T1[u] = M(phi^-1(1/u + t*(1/a + 1/a^2)/u)) and
 * T2[w] = M(phi^-1(t/(a^2*w))).  Zero has no inverse: the inv and a/k
 * tables hold 0x80 at index 0, a marker that survives XOR with a nibble
 * and makes the next PSHUFB yield 0.  Following it through every case
 * where i, k, j or an intermediate is 0 gives the right answer for all 256
 * inputs, 0 -> 0 included (0x80 ^ 0x80 = 0 at x = 0 leads to 0x80 again).
 *
 * A second form (the one-block decryption).  w needs inv(j), and j is one
 * XOR after i, which is itself one step after k (the high nibble takes a
 * shift and a mask): w is a step behind u.  With (p, q) = (i, k) and the
 * constant 1 in place of a, the same identity gives
 *
 *     w = inv(inv(i) ^ inv(k)) ^ (k ^ a*i)     = N / j
 *
 * from inv(i), which u reads too, and inv(k); j and x = k ^ a*i (a
 * look-up of a*i, the MULA table) are needed only for the last XOR.  u
 * and w are then both four steps from k and i, for one look-up and one
 * XOR more, and 1/x = 1/u + t * (1/u + 1/w) / (1 + a): the output tables
 * J_* hold T1[u] = M(phi^-1(1/u + t/((1 + a)*u))), T2[w] =
 * M(phi^-1(t/((1 + a)*w))).  The zero cases work as above (at j = 0,
 * inv(i) ^ inv(k) = 0 gives 0x80).
 *
 * Rounds.  The state is kept in the tower representation between rounds.
 * An encryption round reads u, w and produces, through the output tables,
 * phi(L(1/x)) and phi(2 * L(1/x)), L the linear part of the S-box affine
 * map (its constant 0x63 is folded into the round keys: MixColumns maps a
 * column of equal bytes c to itself).  MixColumns is then
 *     out = D ^ R1(D ^ A) ^ R2(A) ^ R3(A)
 * for A = S-box output, D = 2*A, Rn = rotate each column by n rows: that
 * is 2a0 + 3a1 + a2 + a3.  Decryption uses the equivalent inverse cipher
 * (InvMixColumns applied to the round keys); its state is phi applied to
 * the inverse affine map of the AES state, ready for inversion, and the
 * output tables give 9, 11, 13 and 14 times the inverse, combined as
 * (14A ^ R1(11A)) ^ R2(13A ^ R1(9A)).  The one-block path uses
 * X ^ R1(X) ^ R3(A) with X = D ^ R1(A) for encryption (the same sum, one
 * XOR fewer) and (14A ^ R1(11A)) ^ (R2(13A) ^ R3(9A)) for decryption
 * (four independent rotations, one step shallower).
 * ShiftRows is never done on its own: after n rounds the state is held
 * permuted by SR^-n, so round n uses the rotations conjugated by SR^n
 * (four variants each, SR^4 = 1), the round keys are stored permuted in
 * setkey, and one PSHUFB by SR^(Nr mod 4) after the last round (none for
 * AES-192) puts the bytes in place; decryption does the same with
 * InvShiftRows (ISR).  The last round's tables map straight
 * to the AES basis.
 *
 * Constants.  All 16-byte constants in tab[] below were generated by a
 * script that builds the two fields exactly as described (GF(16) modulo
 * z^4 + z + 1, a = 2, beta = 0x1c), fills each table by evaluating its
 * defining formula at the 16 indices, and checks the whole cipher,
 * modelled byte for byte with PSHUFB semantics, against a plain AES for
 * all key sizes in both directions.  They are facts of the fields; to
 * regenerate, evaluate the formulas above.  tools/ssse3-tables.py
 * evaluates them and checks every field table here against them (and
 * the w = N/j inversion on all 256 bytes).
 *
 * Context layout (ctx->priv_keys, read with unaligned loads):
 *
 *   blocks  0..Nr      encryption keys:  k0 (AES basis), then
 *                      phi(SR^-n(k_n) ^ 0x63..) for n = 1..Nr-1, then
 *                      SR^-Nr(k_Nr) ^ 0x63.. (AES basis)
 *   blocks 15..15+Nr   decryption keys:  k_Nr ^ 0x63.. (AES basis),
 *                      phi(L^-1(ISR^-n(InvMixColumns(k_Nr-n)))) ^ phi(0x05)
 *                      for n = 1..Nr-1, then ISR^-Nr(k_0)
 *
 * (0x05 = L^-1(0x63), the constant of the inverse affine map.)  The first
 * key is added in the AES basis: round 1 reads the tower nibbles k and i
 * of phi(x), or phi(L^-1(x) ^ 0x05) = phi(L^-1(x ^ 0x63)), straight from
 * nibble tables of x.  Everything is computed in setkey.
 *
 * Speed.  Bulk: four blocks side by side (x86-64) to keep the shuffle
 * units busy, two on 32-bit x86, where only 8 xmm registers exist; a
 * round is 12 PSHUFB for encryption, 16 for decryption, plus XORs, and
 * about 13 dependent steps.  One block (QUIC header protection, and the
 * last block of an odd count) is one dependency chain, and its speed is
 * set less by the chain's length than by how the processor schedules it:
 * see "The one-block path" below (asm rounds in the order of the chain;
 * encryption 13 steps and 26 vector instructions a round, decryption 11
 * and 34).  All rounds are written out for each key size (where the
 * compiler optimises; an unoptimised build loops: see unopt_enc).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "internal.h"

#if defined(AESECB_WITH_SSSE3) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>

#define TARGET __attribute__((target("ssse3")))
#define INLINE static inline __attribute__((always_inline))

#define DEC_OFFSET 15   /* first decryption key, in 16-byte blocks */

enum {
	INV, AK, ENC_IN_LO, ENC_IN_HI, ENC_S1, ENC_S2, ENC_D1, ENC_D2,
	ENC_O1, ENC_O2, DEC_IN_LO, DEC_IN_HI, DEC_M9_1, DEC_M9_2, DEC_M11_1,
	DEC_M11_2, DEC_M13_1, DEC_M13_2, DEC_M14_1, DEC_M14_2, DEC_O1, DEC_O2,
	ENC_K_LO, ENC_K_HI, ENC_I_LO, ENC_I_HI,
	DEC_K_LO, DEC_K_HI, DEC_I_LO, DEC_I_HI,
	MASK, MULA, J_M9_1, J_M9_2, J_M11_1, J_M11_2, J_M13_1, J_M13_2,
	J_M14_1, J_M14_2, J_O1, J_O2,
	ENC_R1 = J_O2 + 1, ENC_R3 = ENC_R1 + 4, DEC_R1 = ENC_R3 + 4,
	DEC_R2 = DEC_R1 + 4, SR_POW = DEC_R2 + 4, ISR_POW = SR_POW + 4,
	NTAB = ISR_POW + 4
};

static _Alignas(16) const uint8_t tab[NTAB][16] = {
	/* GF(16) inverse; a/k */
	[INV] = { 0x80, 0x01, 0x09, 0x0e, 0x0d, 0x0b, 0x07, 0x06, 0x0f, 0x02, 0x0c, 0x05, 0x0a, 0x04, 0x03, 0x08 },
	[AK] = { 0x80, 0x02, 0x01, 0x0f, 0x09, 0x05, 0x0e, 0x0c, 0x0d, 0x04, 0x0b, 0x0a, 0x07, 0x08, 0x06, 0x03 },
	/* phi of the low and high nibble */
	[ENC_IN_LO] = { 0x00, 0x01, 0x1c, 0x1d, 0x2d, 0x2c, 0x31, 0x30, 0x27, 0x26, 0x3b, 0x3a, 0x0a, 0x0b, 0x16, 0x17 },
	[ENC_IN_HI] = { 0x00, 0x86, 0xfd, 0x7b, 0x8e, 0x08, 0x73, 0xf5, 0x77, 0xf1, 0x8a, 0x0c, 0xf9, 0x7f, 0x04, 0x82 },
	/* T1, T2 of M = phi(L(y)), phi(2 L(y)), L(y) */
	[ENC_S1] = { 0x00, 0xc3, 0x4f, 0x0c, 0xfc, 0x7c, 0x43, 0x80, 0xcf, 0x33, 0x3f, 0x70, 0xbf, 0xb3, 0xf0, 0x8c },
	[ENC_S2] = { 0x00, 0xe6, 0x72, 0xb7, 0xe5, 0xc6, 0xc5, 0x23, 0x51, 0xb4, 0x03, 0x71, 0x20, 0x97, 0x52, 0x94 },
	[ENC_D1] = { 0x00, 0x7c, 0x20, 0xcf, 0x92, 0x01, 0xef, 0x93, 0xb3, 0x21, 0xee, 0xce, 0x7d, 0xb2, 0x5d, 0x5c },
	[ENC_D2] = { 0x00, 0xd1, 0xe5, 0xf7, 0xe6, 0x25, 0x12, 0xc3, 0x26, 0xc0, 0x37, 0xd2, 0xf4, 0x03, 0x11, 0x34 },
	[ENC_O1] = { 0x00, 0xcb, 0xd7, 0xb0, 0x21, 0x8d, 0x67, 0xac, 0x7b, 0x5a, 0xea, 0x3d, 0x46, 0xf6, 0x91, 0x1c },
	[ENC_O2] = { 0x00, 0x9f, 0x61, 0x16, 0xc2, 0x2a, 0x77, 0xe8, 0x89, 0x4b, 0x5d, 0x3c, 0xb5, 0xa3, 0xd4, 0xfe },
	/* phi(L^-1(nibble)), low and high */
	[DEC_IN_LO] = { 0x00, 0xb5, 0xdc, 0x69, 0xdb, 0x6e, 0x07, 0xb2, 0x14, 0xa1, 0xc8, 0x7d, 0xcf, 0x7a, 0x13, 0xa6 },
	[DEC_IN_HI] = { 0x00, 0xa7, 0xa8, 0x0f, 0xed, 0x4a, 0x45, 0xe2, 0xd1, 0x76, 0x79, 0xde, 0x3c, 0x9b, 0x94, 0x33 },
	/* T1, T2 of M = phi(L^-1(c y)) for c = 9, 11, 13, 14, then M = y */
	[DEC_M9_1] = { 0x00, 0x27, 0xbf, 0x47, 0xda, 0x05, 0xf8, 0xdf, 0x60, 0xba, 0xfd, 0x42, 0x22, 0x65, 0x9d, 0x98 },
	[DEC_M9_2] = { 0x00, 0x01, 0x8c, 0x2e, 0xa8, 0x0b, 0xa2, 0xa3, 0x2f, 0x87, 0xa9, 0x25, 0x0a, 0x24, 0x86, 0x8d },
	[DEC_M11_1] = { 0x00, 0xc2, 0x4d, 0xeb, 0xdd, 0xb9, 0xa6, 0x64, 0x29, 0xf4, 0x1f, 0x52, 0x7b, 0x90, 0x36, 0x8f },
	[DEC_M11_2] = { 0x00, 0xf8, 0x22, 0xfd, 0x42, 0x65, 0xdf, 0x27, 0x05, 0x47, 0xba, 0x98, 0x9d, 0x60, 0xbf, 0xda },
	[DEC_M13_1] = { 0x00, 0x7c, 0x1b, 0x3d, 0x15, 0x4f, 0x26, 0x5a, 0x41, 0x54, 0x69, 0x72, 0x33, 0x0e, 0x28, 0x67 },
	[DEC_M13_2] = { 0x00, 0x77, 0xb2, 0xb0, 0xb6, 0xc3, 0x02, 0x75, 0xc7, 0x71, 0xc1, 0x73, 0xb4, 0x04, 0x06, 0xc5 },
	[DEC_M14_1] = { 0x00, 0xeb, 0xa6, 0xb9, 0x7b, 0x8f, 0x1f, 0xf4, 0x52, 0x29, 0x90, 0x36, 0x64, 0xdd, 0xc2, 0x4d },
	[DEC_M14_2] = { 0x00, 0xfd, 0xdf, 0x65, 0x9d, 0xda, 0xba, 0x47, 0x98, 0x05, 0x60, 0xbf, 0x27, 0x42, 0xf8, 0x22 },
	[DEC_O1] = { 0x00, 0x3b, 0xe4, 0xc8, 0x03, 0x14, 0x2c, 0x17, 0xf3, 0xf0, 0x38, 0xdc, 0x2f, 0xe7, 0xcb, 0xdf },
	[DEC_O2] = { 0x00, 0x24, 0x91, 0x19, 0x23, 0x8f, 0x88, 0xac, 0x3d, 0x1e, 0x07, 0x96, 0xab, 0xb2, 0x3a, 0xb5 },
	/* the low (K) and high (I) nibble of phi, and of phi(L^-1), of the
	 * low and high nibble of an AES byte: the first round's k and i */
	[ENC_K_LO] = { 0x00, 0x01, 0x0c, 0x0d, 0x0d, 0x0c, 0x01, 0x00, 0x07, 0x06, 0x0b, 0x0a, 0x0a, 0x0b, 0x06, 0x07 },
	[ENC_K_HI] = { 0x00, 0x06, 0x0d, 0x0b, 0x0e, 0x08, 0x03, 0x05, 0x07, 0x01, 0x0a, 0x0c, 0x09, 0x0f, 0x04, 0x02 },
	[ENC_I_LO] = { 0x00, 0x00, 0x01, 0x01, 0x02, 0x02, 0x03, 0x03, 0x02, 0x02, 0x03, 0x03, 0x00, 0x00, 0x01, 0x01 },
	[ENC_I_HI] = { 0x00, 0x08, 0x0f, 0x07, 0x08, 0x00, 0x07, 0x0f, 0x07, 0x0f, 0x08, 0x00, 0x0f, 0x07, 0x00, 0x08 },
	[DEC_K_LO] = { 0x00, 0x05, 0x0c, 0x09, 0x0b, 0x0e, 0x07, 0x02, 0x04, 0x01, 0x08, 0x0d, 0x0f, 0x0a, 0x03, 0x06 },
	[DEC_K_HI] = { 0x00, 0x07, 0x08, 0x0f, 0x0d, 0x0a, 0x05, 0x02, 0x01, 0x06, 0x09, 0x0e, 0x0c, 0x0b, 0x04, 0x03 },
	[DEC_I_LO] = { 0x00, 0x0b, 0x0d, 0x06, 0x0d, 0x06, 0x00, 0x0b, 0x01, 0x0a, 0x0c, 0x07, 0x0c, 0x07, 0x01, 0x0a },
	[DEC_I_HI] = { 0x00, 0x0a, 0x0a, 0x00, 0x0e, 0x04, 0x04, 0x0e, 0x0d, 0x07, 0x07, 0x0d, 0x03, 0x09, 0x09, 0x03 },
	/* for the one-block decryption (see "The one-block path" above): the
	 * mask 0x0f; a*n in GF(16); T1, T2 of the maps of DEC_M9_1 ... DEC_O2
	 * for w = N/j */
	[MASK] = { 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f },
	[MULA] = { 0x00, 0x02, 0x04, 0x06, 0x08, 0x0a, 0x0c, 0x0e, 0x03, 0x01, 0x07, 0x05, 0x0b, 0x09, 0x0f, 0x0d },
	[J_M9_1] = { 0x00, 0x09, 0x1d, 0x4c, 0xd0, 0x88, 0x51, 0x58, 0x45, 0x95, 0xd9, 0xc4, 0x81, 0xcd, 0x9c, 0x14 },
	[J_M9_2] = { 0x00, 0xa8, 0x2f, 0x0a, 0x2e, 0xa3, 0x25, 0x8d, 0xa2, 0x8c, 0x86, 0xa9, 0x0b, 0x01, 0x24, 0x87 },
	[J_M11_1] = { 0x00, 0x3f, 0x92, 0x8e, 0x40, 0x63, 0x1c, 0x23, 0xb1, 0xf1, 0x7f, 0xed, 0x5c, 0xd2, 0xce, 0xad },
	[J_M11_2] = { 0x00, 0x42, 0x05, 0x9d, 0xfd, 0x27, 0x98, 0xda, 0xdf, 0x22, 0xbf, 0xba, 0x65, 0xf8, 0x60, 0x47 },
	[J_M13_1] = { 0x00, 0xcc, 0x19, 0xfe, 0xa1, 0x8a, 0xe7, 0x2b, 0x32, 0x93, 0x6d, 0x74, 0x46, 0xb8, 0x5f, 0xd5 },
	[J_M13_2] = { 0x00, 0xb6, 0xc7, 0xb4, 0xb0, 0x75, 0x73, 0xc5, 0x02, 0xb2, 0x06, 0xc1, 0xc3, 0x77, 0x04, 0x71 },
	[J_M14_1] = { 0x00, 0x8e, 0x1c, 0x63, 0x5c, 0xad, 0x7f, 0xf1, 0xed, 0xb1, 0xd2, 0xce, 0x23, 0x40, 0x3f, 0x92 },
	[J_M14_2] = { 0x00, 0x9d, 0x98, 0x27, 0x65, 0x47, 0xbf, 0x22, 0xba, 0xdf, 0xf8, 0x60, 0xda, 0xfd, 0x42, 0x05 },
	[J_O1] = { 0x00, 0x22, 0x6c, 0x47, 0xa8, 0xa1, 0x2b, 0x09, 0x65, 0xcd, 0x8a, 0xe6, 0x83, 0xc4, 0xef, 0x4e },
	[J_O2] = { 0x00, 0x23, 0x3d, 0xab, 0x19, 0xac, 0x96, 0xb5, 0x88, 0x91, 0x3a, 0x07, 0x8f, 0x24, 0xb2, 0x1e },
	/* column rotations by 1 and 3 rows, conjugated by SR^n, n = 0..3 */
	[ENC_R1 + 0] = { 0x01, 0x02, 0x03, 0x00, 0x05, 0x06, 0x07, 0x04, 0x09, 0x0a, 0x0b, 0x08, 0x0d, 0x0e, 0x0f, 0x0c },
	[ENC_R1 + 1] = { 0x05, 0x06, 0x07, 0x04, 0x09, 0x0a, 0x0b, 0x08, 0x0d, 0x0e, 0x0f, 0x0c, 0x01, 0x02, 0x03, 0x00 },
	[ENC_R1 + 2] = { 0x09, 0x0a, 0x0b, 0x08, 0x0d, 0x0e, 0x0f, 0x0c, 0x01, 0x02, 0x03, 0x00, 0x05, 0x06, 0x07, 0x04 },
	[ENC_R1 + 3] = { 0x0d, 0x0e, 0x0f, 0x0c, 0x01, 0x02, 0x03, 0x00, 0x05, 0x06, 0x07, 0x04, 0x09, 0x0a, 0x0b, 0x08 },
	[ENC_R3 + 0] = { 0x03, 0x00, 0x01, 0x02, 0x07, 0x04, 0x05, 0x06, 0x0b, 0x08, 0x09, 0x0a, 0x0f, 0x0c, 0x0d, 0x0e },
	[ENC_R3 + 1] = { 0x0f, 0x0c, 0x0d, 0x0e, 0x03, 0x00, 0x01, 0x02, 0x07, 0x04, 0x05, 0x06, 0x0b, 0x08, 0x09, 0x0a },
	[ENC_R3 + 2] = { 0x0b, 0x08, 0x09, 0x0a, 0x0f, 0x0c, 0x0d, 0x0e, 0x03, 0x00, 0x01, 0x02, 0x07, 0x04, 0x05, 0x06 },
	[ENC_R3 + 3] = { 0x07, 0x04, 0x05, 0x06, 0x0b, 0x08, 0x09, 0x0a, 0x0f, 0x0c, 0x0d, 0x0e, 0x03, 0x00, 0x01, 0x02 },
	/* column rotations by 1 and 2 rows, conjugated by ISR^n */
	[DEC_R1 + 0] = { 0x01, 0x02, 0x03, 0x00, 0x05, 0x06, 0x07, 0x04, 0x09, 0x0a, 0x0b, 0x08, 0x0d, 0x0e, 0x0f, 0x0c },
	[DEC_R1 + 1] = { 0x0d, 0x0e, 0x0f, 0x0c, 0x01, 0x02, 0x03, 0x00, 0x05, 0x06, 0x07, 0x04, 0x09, 0x0a, 0x0b, 0x08 },
	[DEC_R1 + 2] = { 0x09, 0x0a, 0x0b, 0x08, 0x0d, 0x0e, 0x0f, 0x0c, 0x01, 0x02, 0x03, 0x00, 0x05, 0x06, 0x07, 0x04 },
	[DEC_R1 + 3] = { 0x05, 0x06, 0x07, 0x04, 0x09, 0x0a, 0x0b, 0x08, 0x0d, 0x0e, 0x0f, 0x0c, 0x01, 0x02, 0x03, 0x00 },
	[DEC_R2 + 0] = { 0x02, 0x03, 0x00, 0x01, 0x06, 0x07, 0x04, 0x05, 0x0a, 0x0b, 0x08, 0x09, 0x0e, 0x0f, 0x0c, 0x0d },
	[DEC_R2 + 1] = { 0x0a, 0x0b, 0x08, 0x09, 0x0e, 0x0f, 0x0c, 0x0d, 0x02, 0x03, 0x00, 0x01, 0x06, 0x07, 0x04, 0x05 },
	[DEC_R2 + 2] = { 0x02, 0x03, 0x00, 0x01, 0x06, 0x07, 0x04, 0x05, 0x0a, 0x0b, 0x08, 0x09, 0x0e, 0x0f, 0x0c, 0x0d },
	[DEC_R2 + 3] = { 0x0a, 0x0b, 0x08, 0x09, 0x0e, 0x0f, 0x0c, 0x0d, 0x02, 0x03, 0x00, 0x01, 0x06, 0x07, 0x04, 0x05 },
	/* ShiftRows^n and InvShiftRows^n (= ShiftRows^-n) */
	[SR_POW + 0] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f },
	[SR_POW + 1] = { 0x00, 0x05, 0x0a, 0x0f, 0x04, 0x09, 0x0e, 0x03, 0x08, 0x0d, 0x02, 0x07, 0x0c, 0x01, 0x06, 0x0b },
	[SR_POW + 2] = { 0x00, 0x09, 0x02, 0x0b, 0x04, 0x0d, 0x06, 0x0f, 0x08, 0x01, 0x0a, 0x03, 0x0c, 0x05, 0x0e, 0x07 },
	[SR_POW + 3] = { 0x00, 0x0d, 0x0a, 0x07, 0x04, 0x01, 0x0e, 0x0b, 0x08, 0x05, 0x02, 0x0f, 0x0c, 0x09, 0x06, 0x03 },
	[ISR_POW + 0] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f },
	[ISR_POW + 1] = { 0x00, 0x0d, 0x0a, 0x07, 0x04, 0x01, 0x0e, 0x0b, 0x08, 0x05, 0x02, 0x0f, 0x0c, 0x09, 0x06, 0x03 },
	[ISR_POW + 2] = { 0x00, 0x09, 0x02, 0x0b, 0x04, 0x0d, 0x06, 0x0f, 0x08, 0x01, 0x0a, 0x03, 0x0c, 0x05, 0x0e, 0x07 },
	[ISR_POW + 3] = { 0x00, 0x05, 0x0a, 0x0f, 0x04, 0x09, 0x0e, 0x03, 0x08, 0x0d, 0x02, 0x07, 0x0c, 0x01, 0x06, 0x0b },
};

#define T(i)     _mm_load_si128((const __m128i *)(const void *)tab[(i)])
/* R2 conjugated by SR^n depends only on n mod 2 (see DEC_R2), and
 * SR^-n = ISR^n with -n = n (mod 2): one set serves both directions */
#define ENC_R2 DEC_R2
#define LUT(i, x) _mm_shuffle_epi8(T(i), (x))
#define XOR      _mm_xor_si128

/* ------------------------------------------------------------------ */
/* The shared core                                                     */

/* The indices u, w of the inverse of k + i*t. */
INLINE TARGET void invert_ki(__m128i k, __m128i i, __m128i *u, __m128i *w)
{
	__m128i ak = LUT(AK, k);
	__m128i j = XOR(i, k);
	__m128i p = XOR(LUT(INV, i), ak);
	__m128i q = XOR(LUT(INV, j), ak);

	*u = XOR(LUT(INV, p), j);
	*w = XOR(LUT(INV, q), i);
}

/* The same for a tower-field state. */
INLINE TARGET void invert(__m128i s, __m128i *u, __m128i *w)
{
	const __m128i m = _mm_set1_epi8(0x0f);

	invert_ki(_mm_and_si128(s, m),
	          _mm_and_si128(_mm_srli_epi16(s, 4), m), u, w);
}

/*
 * The same for AES bytes x, mapped by phi (enc) or phi(L^-1) (dec) on the
 * way: k and i come straight from nibble tables, which saves the first
 * round the split of a mapped state.
 */
INLINE TARGET void invert_aes(__m128i x, const int dec, __m128i *u,
                              __m128i *w)
{
	const __m128i m = _mm_set1_epi8(0x0f);
	__m128i lo = _mm_and_si128(x, m);
	__m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), m);

	if (dec)
		invert_ki(XOR(LUT(DEC_K_LO, lo), LUT(DEC_K_HI, hi)),
		          XOR(LUT(DEC_I_LO, lo), LUT(DEC_I_HI, hi)), u, w);
	else
		invert_ki(XOR(LUT(ENC_K_LO, lo), LUT(ENC_K_HI, hi)),
		          XOR(LUT(ENC_I_LO, lo), LUT(ENC_I_HI, hi)), u, w);
}

/* Round n reads AES bytes when n == 1, a tower-field state after. */
#define INVERT(s, n, dec, u, w) do { \
	if ((n) == 1) invert_aes((s), (dec), (u), (w)); \
	else invert((s), (u), (w)); \
} while (0)

/* A byte-wise linear map given by its tables on the two nibbles. */
INLINE TARGET __m128i bytemap(__m128i x, int lo, int hi)
{
	const __m128i m = _mm_set1_epi8(0x0f);

	return XOR(LUT(lo, _mm_and_si128(x, m)),
	           LUT(hi, _mm_and_si128(_mm_srli_epi16(x, 4), m)));
}

/* The AES S-box on every byte (AES basis in and out), for the schedule. */
INLINE TARGET __m128i sbox(__m128i x)
{
	__m128i u, w;

	invert_aes(x, 0, &u, &w);
	return XOR(XOR(LUT(ENC_O1, u), LUT(ENC_O2, w)), _mm_set1_epi8(0x63));
}

/* ------------------------------------------------------------------ */
/* Key schedule                                                        */

#define LDU(p)    _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))

INLINE TARGET uint32_t sub_word(uint32_t x)
{
	return (uint32_t)_mm_cvtsi128_si32(
		sbox(_mm_cvtsi32_si128((int)x)));
}

/* 2x in GF(2^8) on every byte, without branches */
INLINE TARGET __m128i xtime(__m128i x)
{
	__m128i hi = _mm_cmpgt_epi8(_mm_setzero_si128(), x);

	return XOR(_mm_add_epi8(x, x),
	           _mm_and_si128(hi, _mm_set1_epi8(0x1b)));
}

INLINE TARGET __m128i inv_mix_columns(__m128i a)
{
	__m128i a2 = xtime(a), a4 = xtime(a2), a8 = xtime(a4);
	__m128i a9 = XOR(a8, a), a11 = XOR(a9, a2), a13 = XOR(a9, a4);
	__m128i a14 = XOR(XOR(a8, a4), a2);

	return XOR(XOR(a14, _mm_shuffle_epi8(a11, T(ENC_R1))),
	           XOR(_mm_shuffle_epi8(a13, T(DEC_R2)),
	               _mm_shuffle_epi8(a9, T(ENC_R3))));
}

/*
 * Key setup is a burned call (lib/aesecb.c, "Burned calls"): this frame,
 * with the expanded words w and whatever the compiler spilled, is
 * overwritten after it returns; the helpers are inlined.
 */
static __attribute__((noinline)) TARGET void expand_key(aesecb_ctx *ctx,
		const uint8_t *key, size_t key_len, aesecb_stack *stk)
{
	uint32_t w[60];
	const unsigned nk = (unsigned)(key_len / 4);
	const unsigned nr = ctx->priv_rounds;
	const unsigned nw = 4 * (nr + 1);
	const __m128i c63 = _mm_set1_epi8(0x63);
	const __m128i c05 = _mm_set1_epi8(0x2c);   /* phi(0x05) */
	uint8_t *ek = ctx->priv_keys.b;
	uint8_t *dk = ek + 16 * DEC_OFFSET;
	uint8_t rcon = 1;
	unsigned i, n;

	aesecb__stack_mark(stk);
	/* FIPS-197 expansion; words little-endian (byte 0 = first byte) */
	for (i = 0; i < nk; i++)
		w[i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8 |
		       (uint32_t)key[4 * i + 2] << 16 |
		       (uint32_t)key[4 * i + 3] << 24;
	for (i = nk; i < nw; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = sub_word(t >> 8 | t << 24) ^ rcon;
			rcon = (uint8_t)(rcon << 1 ^ (rcon >> 7) * 0x1b);
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}

	/* encryption keys */
	for (n = 0; n <= nr; n++) {
		__m128i k = _mm_loadu_si128((const __m128i *)(const void *)(w + 4 * n));

		if (n > 0) {
			k = _mm_shuffle_epi8(k, T(ISR_POW + n % 4));
			k = XOR(k, c63);
		}
		if (n > 0 && n < nr)
			k = bytemap(k, ENC_IN_LO, ENC_IN_HI);
		STU(ek + 16 * n, k);
	}
	/* decryption keys (equivalent inverse cipher) */
	for (n = 0; n <= nr; n++) {
		__m128i k = _mm_loadu_si128((const __m128i *)(const void *)(w + 4 * (nr - n)));

		if (n > 0 && n < nr)
			k = inv_mix_columns(k);
		k = _mm_shuffle_epi8(k, T(SR_POW + n % 4));
		if (n == 0)
			k = XOR(k, c63);
		else if (n < nr)
			k = XOR(bytemap(k, DEC_IN_LO, DEC_IN_HI), c05);
		STU(dk + 16 * n, k);
	}
}

TARGET static void setkey(aesecb_ctx *ctx, const uint8_t *key,
                          size_t key_len, aesecb_stack *stk)
{
	expand_key(ctx, key, key_len, stk);
}

/* ------------------------------------------------------------------ */
/* Rounds                                                              */

/*
 * Encryption round n (1..Nr-1) on a tower-field state; rk: its key.
 * MixColumns as D ^ R1(F) ^ R2(A) ^ R3(A) with F = 3A = D ^ A: 12 PSHUFB,
 * 13 steps deep.
 */
INLINE TARGET __m128i enc_round(__m128i s, const uint8_t *rk, const int n)
{
	__m128i u, w, a, d, f;

	INVERT(s, n, 0, &u, &w);
	a = XOR(LUT(ENC_S1, u), LUT(ENC_S2, w));
	d = XOR(LUT(ENC_D1, u), LUT(ENC_D2, w));
	f = XOR(a, d);
	return XOR(XOR(_mm_shuffle_epi8(f, T(ENC_R1 + n % 4)),
	               XOR(d, LDU(rk))),
	           XOR(_mm_shuffle_epi8(a, T(ENC_R2 + n % 4)),
	               _mm_shuffle_epi8(a, T(ENC_R3 + n % 4))));
}

/*
 * Decryption round n (1..Nr-1).  InvMixColumns is 14A ^ R1(11A) ^
 * R2(13A) ^ R3(9A), grouped as (14A ^ R1(11A)) ^ R2(13A ^ R1(9A)) (three
 * rotations).
 */
INLINE TARGET __m128i dec_round(__m128i s, const uint8_t *rk, const int n)
{
	__m128i u, w, m9, m11, m13, m14;

	INVERT(s, n, 1, &u, &w);
	m9 = XOR(LUT(DEC_M9_1, u), LUT(DEC_M9_2, w));
	m11 = XOR(LUT(DEC_M11_1, u), LUT(DEC_M11_2, w));
	m13 = XOR(LUT(DEC_M13_1, u), LUT(DEC_M13_2, w));
	m14 = XOR(LUT(DEC_M14_1, u), LUT(DEC_M14_2, w));
	m14 = XOR(XOR(m14, LDU(rk)), _mm_shuffle_epi8(m11, T(DEC_R1 + n % 4)));
	m13 = XOR(m13, _mm_shuffle_epi8(m9, T(DEC_R1 + n % 4)));
	return XOR(m14, _mm_shuffle_epi8(m13, T(DEC_R2 + n % 4)));
}

/* First step: the first round key, in the AES basis. */
INLINE TARGET __m128i first(__m128i x, const uint8_t *rk)
{
	return XOR(x, LDU(rk));
}

/* Last round: tower-field state in, AES bytes out. */
INLINE TARGET __m128i last(__m128i s, const uint8_t *rk, const unsigned nr,
                           const int dec)
{
	__m128i u, w, o;

	invert(s, &u, &w);
	o = dec ? XOR(XOR(LUT(DEC_O1, u), LDU(rk)), LUT(DEC_O2, w))
	        : XOR(XOR(LUT(ENC_O1, u), LDU(rk)), LUT(ENC_O2, w));
	if (nr % 4 != 0)
		o = _mm_shuffle_epi8(o, T((dec ? ISR_POW : SR_POW) + nr % 4));
	return o;
}

/* ------------------------------------------------------------------ */
/* The one-block path                                                  */

/*
 * One block is a single chain of dependent instructions.  On the x86
 * cores measured (an Intel Xeon, family 6 model 167) its time is set by
 * how the out-of-order core schedules the round more than by the chain's
 * length: the scheduler runs the oldest ready instruction first, so work
 * off the chain that comes earlier in program order delays the chain, and
 * MOVDQA copies of tables kept in registers take the vector ports.  So:
 *
 *   - each round is one asm statement (the compiler keeps its order),
 *     written by tools/ssse3-rounds.py from the round's data-flow graph:
 *     the instructions in the order of the chain, the longer path first;
 *   - every look-up loads its table (a load port, off the chain) and
 *     PSHUFBs it; the keys are loaded with MOVDQU (the context may be
 *     misaligned).
 *
 * Encryption: invert_ki and MixColumns as X ^ R1(X) ^ R3(A) with
 * X = 2A ^ R1(A): 26 vector instructions (12 PSHUFB) and 13 steps a
 * round.  Shorter chains cost more instructions: the w = N/j inversion
 * (12 steps, 28) and the F = 3A tables on top (11 steps, 31) measured the
 * same or slower, some 16 cycles a round for every variant.  Decryption,
 * with four independent rotations, gains from the shorter chain: the
 * w = N/j inversion, 11 steps and 34 vector instructions (17 PSHUFB).
 */
/* BEGIN generated by tools/ssse3-rounds.py */
/* ENC_IN: encryption round 1 from the AES input; 50 instructions: 16 loads, 1 copies, 33 vector operations (16 PSHUFB); 4 scratch registers */
#define ENC_IN_OUT t1
#define ENC_IN \
	"movdqu (%[rk]), %[t0]\n\t" \
	"pxor %[t0], %[s]\n\t" \
	"movdqa %c[m](%[tb]), %[t0]\n\t" \
	"pandn %[s], %[t0]\n\t" \
	"psrlw $4, %[t0]\n\t" \
	"pand %c[m](%[tb]), %[s]\n\t" \
	"movdqa %c[klo](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"movdqa %c[khi](%[tb]), %[t2]\n\t" \
	"pshufb %[t0], %[t2]\n\t" \
	"pxor %[t2], %[t1]\n\t" \
	"movdqa %c[ilo](%[tb]), %[t2]\n\t" \
	"pshufb %[s], %[t2]\n\t" \
	"movdqa %c[ihi](%[tb]), %[s]\n\t" \
	"pshufb %[t0], %[s]\n\t" \
	"pxor %[s], %[t2]\n\t" \
	"movdqa %c[ak](%[tb]), %[s]\n\t" \
	"pshufb %[t1], %[s]\n\t" \
	"pxor %[t2], %[t1]\n\t" \
	"movdqa %c[inv](%[tb]), %[t0]\n\t" \
	"pshufb %[t2], %[t0]\n\t" \
	"movdqa %c[inv](%[tb]), %[t3]\n\t" \
	"pshufb %[t1], %[t3]\n\t" \
	"pxor %[s], %[t0]\n\t" \
	"pxor %[s], %[t3]\n\t" \
	"movdqa %c[inv](%[tb]), %[s]\n\t" \
	"pshufb %[t0], %[s]\n\t" \
	"movdqa %c[inv](%[tb]), %[t0]\n\t" \
	"pshufb %[t3], %[t0]\n\t" \
	"pxor %[t1], %[s]\n\t" \
	"pxor %[t2], %[t0]\n\t" \
	"movdqa %c[s1](%[tb]), %[t2]\n\t" \
	"pshufb %[s], %[t2]\n\t" \
	"movdqa %c[s2](%[tb]), %[t1]\n\t" \
	"pshufb %[t0], %[t1]\n\t" \
	"pxor %[t1], %[t2]\n\t" \
	"movdqa %c[d1](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"movdqa %c[d2](%[tb]), %[s]\n\t" \
	"pshufb %[t0], %[s]\n\t" \
	"pxor %[s], %[t1]\n\t" \
	"movdqa %[t2], %[s]\n\t" \
	"pshufb %c[r1](%[tb]), %[s]\n\t" \
	"pshufb %c[r3](%[tb]), %[t2]\n\t" \
	"movdqu 16(%[rk]), %[t0]\n\t" \
	"pxor %[t0], %[t2]\n\t" \
	"pxor %[s], %[t1]\n\t" \
	"pxor %[t1], %[t2]\n\t" \
	"pshufb %c[r1](%[tb]), %[t1]\n\t" \
	"pxor %[t2], %[t1]\n\t"

/* ENC_MID: encryption rounds 2 to Nr-1; 38 instructions: 11 loads, 1 copies, 26 vector operations (12 PSHUFB); 4 scratch registers */
#define ENC_MID_OUT s
#define ENC_MID \
	"movdqa %c[m](%[tb]), %[t0]\n\t" \
	"pandn %[s], %[t0]\n\t" \
	"psrlw $4, %[t0]\n\t" \
	"pand %c[m](%[tb]), %[s]\n\t" \
	"movdqa %c[ak](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"pxor %[t0], %[s]\n\t" \
	"movdqa %c[inv](%[tb]), %[t2]\n\t" \
	"pshufb %[t0], %[t2]\n\t" \
	"movdqa %c[inv](%[tb]), %[t3]\n\t" \
	"pshufb %[s], %[t3]\n\t" \
	"pxor %[t1], %[t2]\n\t" \
	"pxor %[t1], %[t3]\n\t" \
	"movdqa %c[inv](%[tb]), %[t1]\n\t" \
	"pshufb %[t2], %[t1]\n\t" \
	"movdqa %c[inv](%[tb]), %[t2]\n\t" \
	"pshufb %[t3], %[t2]\n\t" \
	"pxor %[s], %[t1]\n\t" \
	"pxor %[t0], %[t2]\n\t" \
	"movdqa %c[s1](%[tb]), %[t0]\n\t" \
	"pshufb %[t1], %[t0]\n\t" \
	"movdqa %c[s2](%[tb]), %[s]\n\t" \
	"pshufb %[t2], %[s]\n\t" \
	"pxor %[s], %[t0]\n\t" \
	"movdqa %c[d1](%[tb]), %[s]\n\t" \
	"pshufb %[t1], %[s]\n\t" \
	"movdqa %c[d2](%[tb]), %[t1]\n\t" \
	"pshufb %[t2], %[t1]\n\t" \
	"pxor %[t1], %[s]\n\t" \
	"movdqa %[t0], %[t1]\n\t" \
	"pshufb %c[r1](%[tb]), %[t1]\n\t" \
	"pshufb %c[r3](%[tb]), %[t0]\n\t" \
	"movdqu %c[ko](%[rk]), %[t2]\n\t" \
	"pxor %[t2], %[t0]\n\t" \
	"pxor %[t1], %[s]\n\t" \
	"pxor %[s], %[t0]\n\t" \
	"pshufb %c[r1](%[tb]), %[s]\n\t" \
	"pxor %[t0], %[s]\n\t"

/* ENC_LAST: the last encryption round, Nr = 10 or 14; 27 instructions: 9 loads, 0 copies, 18 vector operations (8 PSHUFB); 4 scratch registers */
#define ENC_LAST_OUT t0
#define ENC_LAST \
	"movdqa %c[m](%[tb]), %[t0]\n\t" \
	"pandn %[s], %[t0]\n\t" \
	"psrlw $4, %[t0]\n\t" \
	"pand %c[m](%[tb]), %[s]\n\t" \
	"movdqa %c[ak](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"pxor %[t0], %[s]\n\t" \
	"movdqa %c[inv](%[tb]), %[t2]\n\t" \
	"pshufb %[t0], %[t2]\n\t" \
	"movdqa %c[inv](%[tb]), %[t3]\n\t" \
	"pshufb %[s], %[t3]\n\t" \
	"pxor %[t1], %[t2]\n\t" \
	"pxor %[t1], %[t3]\n\t" \
	"movdqa %c[inv](%[tb]), %[t1]\n\t" \
	"pshufb %[t2], %[t1]\n\t" \
	"movdqa %c[inv](%[tb]), %[t2]\n\t" \
	"pshufb %[t3], %[t2]\n\t" \
	"pxor %[s], %[t1]\n\t" \
	"pxor %[t0], %[t2]\n\t" \
	"movdqa %c[o1](%[tb]), %[t0]\n\t" \
	"pshufb %[t1], %[t0]\n\t" \
	"movdqa %c[o2](%[tb]), %[t1]\n\t" \
	"pshufb %[t2], %[t1]\n\t" \
	"pxor %[t1], %[t0]\n\t" \
	"movdqu (%[rk]), %[t1]\n\t" \
	"pxor %[t1], %[t0]\n\t" \
	"pshufb (%[sr]), %[t0]\n\t"

/* ENC_LAST0: the last encryption round, Nr = 12; 26 instructions: 9 loads, 0 copies, 17 vector operations (7 PSHUFB); 4 scratch registers */
#define ENC_LAST0_OUT t0
#define ENC_LAST0 \
	"movdqa %c[m](%[tb]), %[t0]\n\t" \
	"pandn %[s], %[t0]\n\t" \
	"psrlw $4, %[t0]\n\t" \
	"pand %c[m](%[tb]), %[s]\n\t" \
	"movdqa %c[ak](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"pxor %[t0], %[s]\n\t" \
	"movdqa %c[inv](%[tb]), %[t2]\n\t" \
	"pshufb %[t0], %[t2]\n\t" \
	"movdqa %c[inv](%[tb]), %[t3]\n\t" \
	"pshufb %[s], %[t3]\n\t" \
	"pxor %[t1], %[t2]\n\t" \
	"pxor %[t1], %[t3]\n\t" \
	"movdqa %c[inv](%[tb]), %[t1]\n\t" \
	"pshufb %[t2], %[t1]\n\t" \
	"movdqa %c[inv](%[tb]), %[t2]\n\t" \
	"pshufb %[t3], %[t2]\n\t" \
	"pxor %[s], %[t1]\n\t" \
	"pxor %[t0], %[t2]\n\t" \
	"movdqa %c[o1](%[tb]), %[t0]\n\t" \
	"pshufb %[t1], %[t0]\n\t" \
	"movdqa %c[o2](%[tb]), %[t1]\n\t" \
	"pshufb %[t2], %[t1]\n\t" \
	"pxor %[t1], %[t0]\n\t" \
	"movdqu (%[rk]), %[t1]\n\t" \
	"pxor %[t1], %[t0]\n\t"

/* DEC_IN: decryption round 1 from the AES input; 62 instructions: 21 loads, 0 copies, 41 vector operations (21 PSHUFB); 5 scratch registers */
#define DEC_IN_OUT t4
#define DEC_IN \
	"movdqu (%[rk]), %[t0]\n\t" \
	"pxor %[t0], %[s]\n\t" \
	"movdqa %c[m](%[tb]), %[t0]\n\t" \
	"pandn %[s], %[t0]\n\t" \
	"psrlw $4, %[t0]\n\t" \
	"pand %c[m](%[tb]), %[s]\n\t" \
	"movdqa %c[klo](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"movdqa %c[khi](%[tb]), %[t2]\n\t" \
	"pshufb %[t0], %[t2]\n\t" \
	"pxor %[t2], %[t1]\n\t" \
	"movdqa %c[ilo](%[tb]), %[t2]\n\t" \
	"pshufb %[s], %[t2]\n\t" \
	"movdqa %c[ihi](%[tb]), %[s]\n\t" \
	"pshufb %[t0], %[s]\n\t" \
	"pxor %[s], %[t2]\n\t" \
	"movdqa %c[ak](%[tb]), %[s]\n\t" \
	"pshufb %[t1], %[s]\n\t" \
	"movdqa %c[inv](%[tb]), %[t0]\n\t" \
	"pshufb %[t1], %[t0]\n\t" \
	"movdqa %c[inv](%[tb]), %[t3]\n\t" \
	"pshufb %[t2], %[t3]\n\t" \
	"movdqa %c[mula](%[tb]), %[t4]\n\t" \
	"pshufb %[t2], %[t4]\n\t" \
	"pxor %[t3], %[s]\n\t" \
	"pxor %[t0], %[t3]\n\t" \
	"pxor %[t1], %[t4]\n\t" \
	"pxor %[t1], %[t2]\n\t" \
	"movdqa %c[inv](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"movdqa %c[inv](%[tb]), %[s]\n\t" \
	"pshufb %[t3], %[s]\n\t" \
	"pxor %[t2], %[t1]\n\t" \
	"pxor %[t4], %[s]\n\t" \
	"movdqa %c[e1](%[tb]), %[t4]\n\t" \
	"pshufb %[t1], %[t4]\n\t" \
	"movdqa %c[e2](%[tb]), %[t2]\n\t" \
	"pshufb %[s], %[t2]\n\t" \
	"pxor %[t2], %[t4]\n\t" \
	"movdqa %c[b1](%[tb]), %[t2]\n\t" \
	"pshufb %[t1], %[t2]\n\t" \
	"movdqa %c[b2](%[tb]), %[t3]\n\t" \
	"pshufb %[s], %[t3]\n\t" \
	"pxor %[t3], %[t2]\n\t" \
	"movdqa %c[dd1](%[tb]), %[t3]\n\t" \
	"pshufb %[t1], %[t3]\n\t" \
	"movdqa %c[dd2](%[tb]), %[t0]\n\t" \
	"pshufb %[s], %[t0]\n\t" \
	"pxor %[t0], %[t3]\n\t" \
	"movdqa %c[n1](%[tb]), %[t0]\n\t" \
	"pshufb %[t1], %[t0]\n\t" \
	"movdqa %c[n2](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"pxor %[t1], %[t0]\n\t" \
	"movdqu 16(%[rk]), %[t1]\n\t" \
	"pxor %[t1], %[t4]\n\t" \
	"pshufb %c[r1](%[tb]), %[t2]\n\t" \
	"pxor %[t2], %[t4]\n\t" \
	"pshufb %c[r2](%[tb]), %[t3]\n\t" \
	"pshufb %c[r3](%[tb]), %[t0]\n\t" \
	"pxor %[t0], %[t3]\n\t" \
	"pxor %[t3], %[t4]\n\t"

/* DEC_MID: decryption rounds 2 to Nr-1; 50 instructions: 16 loads, 0 copies, 34 vector operations (17 PSHUFB); 5 scratch registers */
#define DEC_MID_OUT t4
#define DEC_MID \
	"movdqa %c[m](%[tb]), %[t0]\n\t" \
	"pandn %[s], %[t0]\n\t" \
	"psrlw $4, %[t0]\n\t" \
	"pand %c[m](%[tb]), %[s]\n\t" \
	"movdqa %c[ak](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"movdqa %c[inv](%[tb]), %[t2]\n\t" \
	"pshufb %[s], %[t2]\n\t" \
	"movdqa %c[inv](%[tb]), %[t3]\n\t" \
	"pshufb %[t0], %[t3]\n\t" \
	"movdqa %c[mula](%[tb]), %[t4]\n\t" \
	"pshufb %[t0], %[t4]\n\t" \
	"pxor %[t3], %[t1]\n\t" \
	"pxor %[t2], %[t3]\n\t" \
	"pxor %[s], %[t4]\n\t" \
	"pxor %[s], %[t0]\n\t" \
	"movdqa %c[inv](%[tb]), %[s]\n\t" \
	"pshufb %[t1], %[s]\n\t" \
	"movdqa %c[inv](%[tb]), %[t1]\n\t" \
	"pshufb %[t3], %[t1]\n\t" \
	"pxor %[t0], %[s]\n\t" \
	"pxor %[t4], %[t1]\n\t" \
	"movdqa %c[e1](%[tb]), %[t4]\n\t" \
	"pshufb %[s], %[t4]\n\t" \
	"movdqa %c[e2](%[tb]), %[t0]\n\t" \
	"pshufb %[t1], %[t0]\n\t" \
	"pxor %[t0], %[t4]\n\t" \
	"movdqa %c[b1](%[tb]), %[t0]\n\t" \
	"pshufb %[s], %[t0]\n\t" \
	"movdqa %c[b2](%[tb]), %[t3]\n\t" \
	"pshufb %[t1], %[t3]\n\t" \
	"pxor %[t3], %[t0]\n\t" \
	"movdqa %c[dd1](%[tb]), %[t3]\n\t" \
	"pshufb %[s], %[t3]\n\t" \
	"movdqa %c[dd2](%[tb]), %[t2]\n\t" \
	"pshufb %[t1], %[t2]\n\t" \
	"pxor %[t2], %[t3]\n\t" \
	"movdqa %c[n1](%[tb]), %[t2]\n\t" \
	"pshufb %[s], %[t2]\n\t" \
	"movdqa %c[n2](%[tb]), %[s]\n\t" \
	"pshufb %[t1], %[s]\n\t" \
	"pxor %[s], %[t2]\n\t" \
	"movdqu %c[ko](%[rk]), %[s]\n\t" \
	"pxor %[s], %[t4]\n\t" \
	"pshufb %c[r1](%[tb]), %[t0]\n\t" \
	"pxor %[t0], %[t4]\n\t" \
	"pshufb %c[r2](%[tb]), %[t3]\n\t" \
	"pshufb %c[r3](%[tb]), %[t2]\n\t" \
	"pxor %[t2], %[t3]\n\t" \
	"pxor %[t3], %[t4]\n\t"

/* DEC_LAST: the last decryption round, Nr = 10 or 14; 30 instructions: 10 loads, 0 copies, 20 vector operations (9 PSHUFB); 5 scratch registers */
#define DEC_LAST_OUT t4
#define DEC_LAST \
	"movdqa %c[m](%[tb]), %[t0]\n\t" \
	"pandn %[s], %[t0]\n\t" \
	"psrlw $4, %[t0]\n\t" \
	"pand %c[m](%[tb]), %[s]\n\t" \
	"movdqa %c[ak](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"movdqa %c[inv](%[tb]), %[t2]\n\t" \
	"pshufb %[s], %[t2]\n\t" \
	"movdqa %c[inv](%[tb]), %[t3]\n\t" \
	"pshufb %[t0], %[t3]\n\t" \
	"movdqa %c[mula](%[tb]), %[t4]\n\t" \
	"pshufb %[t0], %[t4]\n\t" \
	"pxor %[t3], %[t1]\n\t" \
	"pxor %[t2], %[t3]\n\t" \
	"pxor %[s], %[t4]\n\t" \
	"pxor %[s], %[t0]\n\t" \
	"movdqa %c[inv](%[tb]), %[s]\n\t" \
	"pshufb %[t1], %[s]\n\t" \
	"movdqa %c[inv](%[tb]), %[t1]\n\t" \
	"pshufb %[t3], %[t1]\n\t" \
	"pxor %[t0], %[s]\n\t" \
	"pxor %[t4], %[t1]\n\t" \
	"movdqa %c[o1](%[tb]), %[t4]\n\t" \
	"pshufb %[s], %[t4]\n\t" \
	"movdqa %c[o2](%[tb]), %[s]\n\t" \
	"pshufb %[t1], %[s]\n\t" \
	"pxor %[s], %[t4]\n\t" \
	"movdqu (%[rk]), %[s]\n\t" \
	"pxor %[s], %[t4]\n\t" \
	"pshufb (%[sr]), %[t4]\n\t"

/* DEC_LAST0: the last decryption round, Nr = 12; 29 instructions: 10 loads, 0 copies, 19 vector operations (8 PSHUFB); 5 scratch registers */
#define DEC_LAST0_OUT t4
#define DEC_LAST0 \
	"movdqa %c[m](%[tb]), %[t0]\n\t" \
	"pandn %[s], %[t0]\n\t" \
	"psrlw $4, %[t0]\n\t" \
	"pand %c[m](%[tb]), %[s]\n\t" \
	"movdqa %c[ak](%[tb]), %[t1]\n\t" \
	"pshufb %[s], %[t1]\n\t" \
	"movdqa %c[inv](%[tb]), %[t2]\n\t" \
	"pshufb %[s], %[t2]\n\t" \
	"movdqa %c[inv](%[tb]), %[t3]\n\t" \
	"pshufb %[t0], %[t3]\n\t" \
	"movdqa %c[mula](%[tb]), %[t4]\n\t" \
	"pshufb %[t0], %[t4]\n\t" \
	"pxor %[t3], %[t1]\n\t" \
	"pxor %[t2], %[t3]\n\t" \
	"pxor %[s], %[t4]\n\t" \
	"pxor %[s], %[t0]\n\t" \
	"movdqa %c[inv](%[tb]), %[s]\n\t" \
	"pshufb %[t1], %[s]\n\t" \
	"movdqa %c[inv](%[tb]), %[t1]\n\t" \
	"pshufb %[t3], %[t1]\n\t" \
	"pxor %[t0], %[s]\n\t" \
	"pxor %[t4], %[t1]\n\t" \
	"movdqa %c[o1](%[tb]), %[t4]\n\t" \
	"pshufb %[s], %[t4]\n\t" \
	"movdqa %c[o2](%[tb]), %[s]\n\t" \
	"pshufb %[t1], %[s]\n\t" \
	"pxor %[s], %[t4]\n\t" \
	"movdqu (%[rk]), %[s]\n\t" \
	"pxor %[s], %[t4]\n\t"

/* END generated by tools/ssse3-rounds.py */

/*
 * Operands: the tables as offsets ("i") from %[tb], the keys as offsets
 * from %[rk]; the rounds are written out (ONE below), so every offset is
 * a constant at any optimisation level, and an asm needs at most three
 * address registers (on 32-bit x86 too).  "memory": the asm reads the
 * keys and tables through these addresses.
 */
#define TO(i) "i"(16 * (i))
#define SCRATCH [t0] "=&x"(t0), [t1] "=&x"(t1), [t2] "=&x"(t2), \
	[t3] "=&x"(t3), [t4] "=&x"(t4)
#define ENC_OPS(n) [tb] "r"(tab[0]), [m] TO(MASK), [ak] TO(AK), \
	[inv] TO(INV), [s1] TO(ENC_S1), [s2] TO(ENC_S2), [d1] TO(ENC_D1), \
	[d2] TO(ENC_D2), [r1] TO(ENC_R1 + (n) % 4), [r3] TO(ENC_R3 + (n) % 4)
#define DEC_OPS(n) [tb] "r"(tab[0]), [m] TO(MASK), [ak] TO(AK), \
	[inv] TO(INV), [mula] TO(MULA), [e1] TO(J_M14_1), [e2] TO(J_M14_2), \
	[b1] TO(J_M11_1), [b2] TO(J_M11_2), [dd1] TO(J_M13_1), \
	[dd2] TO(J_M13_2), [n1] TO(J_M9_1), [n2] TO(J_M9_2), \
	[r1] TO(DEC_R1 + (n) % 4), [r2] TO(DEC_R2 + (n) % 4), \
	[r3] TO(ENC_R3 + (4 - (n) % 4) % 4)
#define IN_OPS(d) [klo] TO(d ? DEC_K_LO : ENC_K_LO), \
	[khi] TO(d ? DEC_K_HI : ENC_K_HI), [ilo] TO(d ? DEC_I_LO : ENC_I_LO), \
	[ihi] TO(d ? DEC_I_HI : ENC_I_HI)
#define LAST_OPS(d) [tb] "r"(tab[0]), [m] TO(MASK), [ak] TO(AK), \
	[inv] TO(INV), [mula] TO(MULA), [o1] TO(d ? J_O1 : ENC_O1), \
	[o2] TO(d ? J_O2 : ENC_O2)

/* Round 1 from the AES input; rk: the first key. */
INLINE TARGET __m128i one_in(__m128i s, const uint8_t *rk, const int dec)
{
	__m128i t0, t1, t2, t3, t4;

	if (dec) {
		__asm__(DEC_IN : [s] "+x"(s), SCRATCH
		        : DEC_OPS(1), IN_OPS(1), [rk] "r"(rk) : "memory");
		return DEC_IN_OUT;
	}
	__asm__(ENC_IN : [s] "+x"(s), SCRATCH
	        : ENC_OPS(1), IN_OPS(0), [rk] "r"(rk) : "memory");
	return ENC_IN_OUT;
}

/* Round n, 2..Nr-1 (n a constant). */
#define ONE(n) do { \
	__m128i t0, t1, t2, t3, t4; \
	if (dec) { \
		__asm__(DEC_MID : [s] "+x"(s), SCRATCH \
		        : DEC_OPS(n), [rk] "r"(rk), [ko] TO(n) : "memory"); \
		s = DEC_MID_OUT; \
	} else { \
		__asm__(ENC_MID : [s] "+x"(s), SCRATCH \
		        : ENC_OPS(n), [rk] "r"(rk), [ko] TO(n) : "memory"); \
		s = ENC_MID_OUT; \
	} \
} while (0)

/* The last round (rk: its key), and the bytes put in order (for
 * Nr mod 4 != 0). */
INLINE TARGET __m128i one_last(__m128i s, const uint8_t *rk,
                               const unsigned nr, const int dec)
{
	__m128i t0, t1, t2, t3, t4;

	if (dec && nr % 4) {
		__asm__(DEC_LAST : [s] "+x"(s), SCRATCH
		        : LAST_OPS(1), [rk] "r"(rk),
		          [sr] "r"(tab[ISR_POW + nr % 4]) : "memory");
		return DEC_LAST_OUT;
	}
	if (dec) {
		__asm__(DEC_LAST0 : [s] "+x"(s), SCRATCH
		        : LAST_OPS(1), [rk] "r"(rk) : "memory");
		return DEC_LAST0_OUT;
	}
	if (nr % 4) {
		__asm__(ENC_LAST : [s] "+x"(s), SCRATCH
		        : LAST_OPS(0), [rk] "r"(rk),
		          [sr] "r"(tab[SR_POW + nr % 4]) : "memory");
		return ENC_LAST_OUT;
	}
	__asm__(ENC_LAST0 : [s] "+x"(s), SCRATCH
	        : LAST_OPS(0), [rk] "r"(rk) : "memory");
	return ENC_LAST0_OUT;
}

INLINE TARGET __m128i one_state(const uint8_t *rk, const uint8_t *in,
                                 const unsigned nr, const int dec)
{
	__m128i s = one_in(LDU(in), rk, dec);

	ONE(2); ONE(3); ONE(4); ONE(5); ONE(6); ONE(7); ONE(8); ONE(9);
	if (nr > 10) { ONE(10); ONE(11); }
	if (nr > 12) { ONE(12); ONE(13); }
	return one_last(s, rk + 16 * nr, nr, dec);
}

INLINE TARGET void one(const uint8_t *rk, const uint8_t *in, uint8_t *out,
                       const unsigned nr, const int dec)
{
	STU(out, one_state(rk, in, nr, dec));
}

/* ------------------------------------------------------------------ */
/* Block functions                                                     */

/* Apply f to the first NB states s0..s3 (NB a constant after inlining). */
#define EACH(f, ...) do { \
	s0 = f(s0, __VA_ARGS__); \
	if (NB > 1) s1 = f(s1, __VA_ARGS__); \
	if (NB > 2) s2 = f(s2, __VA_ARGS__); \
	if (NB > 3) s3 = f(s3, __VA_ARGS__); \
} while (0)

#define ROUND(n) do { \
	if (dec) EACH(dec_round, rk + 16 * (n), (n)); \
	else     EACH(enc_round, rk + 16 * (n), (n)); \
} while (0)

#ifndef __OPTIMIZE__
/*
 * An unoptimised build keeps a stack slot for every value of every inlined
 * expansion, and removes neither the arm of 'if (dec)' not taken nor a
 * round of the unrolled sequence: group() written out below took 634 KiB
 * of stack per bulk function (clang 14 -O0).  There the rounds run as a
 * loop over the round index, one direction per function, out of line:
 * one expansion of each round function.  The states are key-derived, so
 * the functions record their frames (lib/aesecb.c, "Burned calls").
 * The round index picks the rotation tables: no secret in the address.
 */
#define UNOPT_ROUNDS(name, round, dec)                                       \
	static __attribute__((noinline)) TARGET void name(__m128i *s,        \
		int nb, const uint8_t *rk, const unsigned nr,                \
		aesecb_stack *stk)                                           \
	{                                                                    \
		unsigned r;                                                  \
		int b;                                                       \
                                                                             \
		aesecb__stack_mark(stk);                                     \
		for (b = 0; b < nb; b++)                                     \
			s[b] = first(s[b], rk);                              \
		for (r = 1; r < nr; r++)                                     \
			for (b = 0; b < nb; b++)                             \
				s[b] = round(s[b], rk + 16 * r, (int)r);     \
		for (b = 0; b < nb; b++)                                     \
			s[b] = last(s[b], rk + 16 * nr, nr, dec);            \
	}
UNOPT_ROUNDS(unopt_enc, enc_round, 0)
UNOPT_ROUNDS(unopt_dec, dec_round, 1)
#endif

/*
 * NB blocks (1, 2 or 4) through the whole cipher.  nr, dec and NB are
 * constants at every call site, so each expansion is straight-line code
 * (where the compiler optimises: see above).
 */
INLINE TARGET void group(const uint8_t *rk, const uint8_t *in, uint8_t *out,
                         const unsigned nr, const int dec, const int NB,
                         aesecb_stack *stk)
{
#ifndef __OPTIMIZE__
	__m128i s[4];
	int b;

	for (b = 0; b < NB; b++)
		s[b] = LDU(in + 16 * b);
	(dec ? unopt_dec : unopt_enc)(s, NB, rk, nr, stk);
	for (b = 0; b < NB; b++)
		STU(out + 16 * b, s[b]);
#else
	__m128i s0, s1 = _mm_setzero_si128(), s2 = s1, s3 = s1;

	(void)stk;

	s0 = LDU(in);
	if (NB > 1) s1 = LDU(in + 16);
	if (NB > 2) s2 = LDU(in + 32);
	if (NB > 3) s3 = LDU(in + 48);
	EACH(first, rk);
	ROUND(1); ROUND(2); ROUND(3); ROUND(4); ROUND(5);
	ROUND(6); ROUND(7); ROUND(8); ROUND(9);
	if (nr > 10) { ROUND(10); ROUND(11); }
	if (nr > 12) { ROUND(12); ROUND(13); }
	EACH(last, rk + 16 * nr, nr, dec);
	STU(out, s0);
	if (NB > 1) STU(out + 16, s1);
	if (NB > 2) STU(out + 32, s2);
	if (NB > 3) STU(out + 48, s3);
#endif
}

#if defined(__x86_64__)
#define WIDE 4
#else
#define WIDE 2
#endif

/*
 * Two blocks or more run out of line (BULK below), so that what the
 * compiler spills of four states and the tables (x86-64 has 16 xmm
 * registers, 32-bit x86 eight) sits in that function's frame, which the
 * library burns once it has returned (lib/aesecb.c, "Burned calls"; the
 * function records its frame).  One block keeps everything in registers
 * in an optimised build: the one-block functions below are declared
 * register-only (AESECB_REGS_ONE) and called directly.
 */
INLINE TARGET void bulk(const uint8_t *rk, const uint8_t *in, uint8_t *out,
                        size_t n, const unsigned nr, const int dec,
                        aesecb_stack *stk)
{
	while (n >= WIDE) {
		group(rk, in, out, nr, dec, WIDE, stk);
		in += 16 * WIDE;
		out += 16 * WIDE;
		n -= WIDE;
	}
#if WIDE > 2
	if (n & 2) {
		group(rk, in, out, nr, dec, 2, stk);
		in += 32;
		out += 32;
	}
#endif
	if (n & 1)
		one(rk, in, out, nr, dec);
}

/* One out-of-line bulk function per direction and key size. */
#define BULK(name, nr, dec)                                                  \
	static __attribute__((noinline)) TARGET void name(const uint8_t *rk,  \
		const uint8_t *in, uint8_t *out, size_t n, aesecb_stack *stk) \
	{                                                                    \
		aesecb__stack_mark(stk);                                     \
		bulk(rk, in, out, n, nr, dec, stk);                          \
	}
BULK(bulk_enc10, 10, 0)
BULK(bulk_enc12, 12, 0)
BULK(bulk_enc14, 14, 0)
BULK(bulk_dec10, 10, 1)
BULK(bulk_dec12, 12, 1)
BULK(bulk_dec14, 14, 1)

INLINE TARGET void blocks(const uint8_t *rk, const uint8_t *in, uint8_t *out,
                          size_t n, const unsigned nr, const int dec,
                          aesecb_stack *stk)
{
	if (n == 1) {
		/* inlined here: this frame holds what it spills */
		aesecb__stack_mark(stk);
		switch (nr) {
		case 10: one(rk, in, out, 10, dec); break;
		case 12: one(rk, in, out, 12, dec); break;
		default: one(rk, in, out, 14, dec); break;
		}
		return;
	}
	switch (nr) {
	case 10: (dec ? bulk_dec10 : bulk_enc10)(rk, in, out, n, stk); break;
	case 12: (dec ? bulk_dec12 : bulk_enc12)(rk, in, out, n, stk); break;
	default: (dec ? bulk_dec14 : bulk_enc14)(rk, in, out, n, stk); break;
	}
}

TARGET static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t n, aesecb_stack *stk)
{
	blocks(ctx->priv_keys.b, in, out, n, ctx->priv_rounds, 0, stk);
	return AESECB_OK;
}

TARGET static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t n, aesecb_stack *stk)
{
	blocks(ctx->priv_keys.b + 16 * DEC_OFFSET, in, out, n,
	       ctx->priv_rounds, 1, stk);
	return AESECB_OK;
}

/*
 * One block or one mask per call: a function per direction and key size,
 * which aesecb_init stores in the context, so that the entry points jump
 * straight to the rounds (no test of the block count or the round
 * count).  A mask leaves the register as a 4-byte and a 1-byte store
 * (SSSE3 has no byte extract).
 */
#define ONE_FN(name, nr, dec)                                                \
	TARGET static int name(const aesecb_ctx *ctx, const uint8_t *in,     \
	                       uint8_t *out)                                 \
	{                                                                    \
		one(ctx->priv_keys.b + (dec ? 16 * DEC_OFFSET : 0), in, out, \
		    nr, dec);                                                \
		return AESECB_OK;                                            \
	}
#define MASK_FN(name, nr)                                                    \
	TARGET static int name(const aesecb_ctx *ctx, const uint8_t *in,     \
	                       uint8_t *out)                                 \
	{                                                                    \
		__m128i m = one_state(ctx->priv_keys.b, in, nr, 0);          \
		uint32_t w = (uint32_t)_mm_cvtsi128_si32(m);                 \
                                                                             \
		__builtin_memcpy(out, &w, 4);                                \
		out[4] = (uint8_t)_mm_cvtsi128_si32(_mm_srli_si128(m, 4));   \
		return AESECB_OK;                                            \
	}
ONE_FN(enc_128, 10, 0) ONE_FN(enc_192, 12, 0) ONE_FN(enc_256, 14, 0)
ONE_FN(dec_128, 10, 1) ONE_FN(dec_192, 12, 1) ONE_FN(dec_256, 14, 1)
MASK_FN(mask_128, 10) MASK_FN(mask_192, 12) MASK_FN(mask_256, 14)

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

static const struct aesecb_impl impl = {
	.setkey = setkey,
	.encrypt = encrypt_blocks,
	.decrypt = decrypt_blocks,
	.one = one_fns,
};
#define IMPL (&impl)
#else
#define IMPL NULL
#endif

/* The one-block functions keep the state in registers; the bulk ones spill. */
AESECB_BACKEND(ssse3, AESECB_REGS(AESECB_REGS_ONE), IMPL);
