/* SPDX-License-Identifier: MIT */
/*
 * aesni_keysched.h - the AES key schedule with AES-NI, shared by the aesni
 * and vaes backends (either may be built without the other).  Included by
 * those two files only; everything here is inlined into their setkey
 * functions, whose targets include "aes,sse2".
 */
#ifndef AESECB_AESNI_KEYSCHED_H
#define AESECB_AESNI_KEYSCHED_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define KS_INLINE static inline \
	__attribute__((always_inline, target("aes,sse2")))

/*
 * FIPS-197 expands the key into words w[i] of 32 bits, Nk = key_len / 4:
 *
 *   w[i] = w[i-Nk] ^ SubWord(RotWord(w[i-1])) ^ Rcon   if i % Nk == 0
 *   w[i] = w[i-Nk] ^ SubWord(w[i-1])                   if Nk == 8, i % 8 == 4
 *   w[i] = w[i-Nk] ^ w[i-1]                            otherwise
 *
 * Four consecutive words are handled at once in one xmm register.  For a
 * register A = (a0, a1, a2, a3) of the previous words w[i-Nk..i-Nk+3] and
 * the mixed-in word t, the new four words are
 *
 *   (a0^t, a0^a1^t, a0^a1^a2^t, a0^a1^a2^a3^t)
 *
 * i.e. the running (prefix) XOR of A with t added to every lane.  The
 * prefix XOR is two shift-and-XOR steps.
 *
 * AESKEYGENASSIST(X, rcon) yields, in its four dword lanes,
 *   SubWord(X[1]), RotWord(SubWord(X[1])) ^ rcon,
 *   SubWord(X[3]), RotWord(SubWord(X[3])) ^ rcon,
 * and since RotWord and SubWord commute, lane 1 or 3 is exactly the
 * "i % Nk == 0" term for X[1] or X[3] = w[i-1], and lane 2 is the extra
 * SubWord of AES-256.  A shuffle broadcasts the wanted lane to all four.
 * The instruction evaluates the S-box in hardware, so the schedule has no
 * table look-ups and no data-dependent branches.  Rcon must be an
 * immediate, hence the macros with the rounds written out.
 */

/* lane 'sel' of AESKEYGENASSIST(X, rcon), copied to all four lanes */
#define KGA(X, rcon, sel) \
	_mm_shuffle_epi32(_mm_aeskeygenassist_si128((X), (rcon)), (sel))

KS_INLINE __m128i prefix_xor(__m128i x)
{
	x = _mm_xor_si128(x, _mm_slli_si128(x, 4));
	return _mm_xor_si128(x, _mm_slli_si128(x, 8));
}

/* AES-128: A holds the previous round key; the word mixed in is built from
 * its last word (lane 3). */
#define NEXT128(A, rcon) \
	_mm_xor_si128(prefix_xor(A), KGA((A), (rcon), 0xff))

/* AES-256, first half: A is w[i-8..i-5], B is w[i-4..i-1]; the mixed-in
 * word comes from B's last word, w[i-1], rotated (lane 3). */
#define NEXT256A(A, B, rcon) \
	_mm_xor_si128(prefix_xor(A), KGA((B), (rcon), 0xff))
/* AES-256, second half: B is w[i-4..i-1], A the four words just made;
 * the mixed-in word is SubWord of A's last word, without rotation or Rcon
 * (lane 2). */
#define NEXT256B(B, A) \
	_mm_xor_si128(prefix_xor(B), KGA((A), 0, 0xaa))

/*
 * AES-192 (Nk = 6) makes six words per step, which do not line up with the
 * 4-word round keys.  A holds w[i-6..i-3] and the low half of B holds
 * w[i-2..i-1].  The new A is the prefix XOR of A plus the rotated,
 * substituted w[i-1] (B's lane 1) and Rcon; the new B continues the
 * running XOR: w[i+4] = w[i-2] ^ w[i+3], w[i+5] = w[i-1] ^ w[i+4], which
 * is B ^ (B << 32) plus the new A's last word broadcast.  B's upper half
 * carries junk that is never stored.
 */
#define STEP192(A, B, rcon) do { \
	__m128i t_ = KGA((B), (rcon), 0x55); \
	(A) = _mm_xor_si128(prefix_xor(A), t_); \
	(B) = _mm_xor_si128(_mm_xor_si128((B), _mm_slli_si128((B), 4)), \
	                    _mm_shuffle_epi32((A), 0xff)); \
} while (0)

/* 64-bit halves glued into one round key: (lo half of x, lo half of y)
 * and (hi half of x, lo half of y). */
#define LOLO(x, y) _mm_unpacklo_epi64((x), (y))
#define HILO(x, y) _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(x), \
                                                   _mm_castsi128_pd(y), 1))

/* ek[0..Nr] <- the encryption round keys. */
KS_INLINE void aesni_expand_keys(__m128i *ek, const uint8_t *key,
                                 size_t key_len)
{
	__m128i a, b;

	if (key_len == 16) {
		a = _mm_loadu_si128((const __m128i *)key);
		ek[0] = a;
		a = NEXT128(a, 0x01); ek[1] = a;
		a = NEXT128(a, 0x02); ek[2] = a;
		a = NEXT128(a, 0x04); ek[3] = a;
		a = NEXT128(a, 0x08); ek[4] = a;
		a = NEXT128(a, 0x10); ek[5] = a;
		a = NEXT128(a, 0x20); ek[6] = a;
		a = NEXT128(a, 0x40); ek[7] = a;
		a = NEXT128(a, 0x80); ek[8] = a;
		a = NEXT128(a, 0x1b); ek[9] = a;
		a = NEXT128(a, 0x36); ek[10] = a;
	} else if (key_len == 24) {
		/* Each pair of 6-word steps makes three round keys. */
		__m128i a1, b1;

		a = _mm_loadu_si128((const __m128i *)key);
		b = _mm_loadl_epi64((const __m128i *)(key + 16));
		ek[0] = a;
#define PAIR192(n, rc1, rc2) do { \
		a1 = a; b1 = b; \
		STEP192(a1, b1, rc1); \
		ek[n] = LOLO(b, a1); \
		a = a1; b = b1; \
		STEP192(a, b, rc2); \
		ek[n + 1] = HILO(a1, b1); \
		ek[n + 2] = a; \
} while (0)
		PAIR192(1, 0x01, 0x02);
		PAIR192(4, 0x04, 0x08);
		PAIR192(7, 0x10, 0x20);
		PAIR192(10, 0x40, 0x80);
#undef PAIR192
	} else {
		a = _mm_loadu_si128((const __m128i *)key);
		b = _mm_loadu_si128((const __m128i *)(key + 16));
		ek[0] = a;
		ek[1] = b;
		a = NEXT256A(a, b, 0x01); ek[2] = a;
		b = NEXT256B(b, a);       ek[3] = b;
		a = NEXT256A(a, b, 0x02); ek[4] = a;
		b = NEXT256B(b, a);       ek[5] = b;
		a = NEXT256A(a, b, 0x04); ek[6] = a;
		b = NEXT256B(b, a);       ek[7] = b;
		a = NEXT256A(a, b, 0x08); ek[8] = a;
		b = NEXT256B(b, a);       ek[9] = b;
		a = NEXT256A(a, b, 0x10); ek[10] = a;
		b = NEXT256B(b, a);       ek[11] = b;
		a = NEXT256A(a, b, 0x20); ek[12] = a;
		b = NEXT256B(b, a);       ek[13] = b;
		a = NEXT256A(a, b, 0x40); ek[14] = a;
	}
}

/*
 * Decryption uses the "equivalent inverse cipher" of FIPS-197 (5.3.5),
 * which is the order AESDEC works in: each AESDEC does InvShiftRows,
 * InvSubBytes, InvMixColumns and then XORs the round key.  In the plain
 * inverse cipher the round key is XORed before InvMixColumns; since
 * InvMixColumns is linear, InvMixColumns(s ^ k) = InvMixColumns(s) ^
 * InvMixColumns(k), so moving the XOR after it needs the round key run
 * through InvMixColumns too - which is what AESIMC computes.  The first
 * and last keys are used without MixColumns around them and stay as they
 * are.  Doing this once here keeps it out of every decryption.
 */
KS_INLINE void aesni_inverse_keys(__m128i *dk, const __m128i *ek, unsigned nr)
{
	unsigned i;

	dk[0] = ek[nr];
	for (i = 1; i < nr; i++)
		dk[i] = _mm_aesimc_si128(ek[nr - i]);
	dk[nr] = ek[0];
}

/*
 * Store the first 5 bytes of x at m (a QUIC header-protection mask),
 * straight from the register: one 4-byte and one 1-byte store.
 */
static inline __attribute__((always_inline, target("sse2")))
void aesni_store_mask(uint8_t *m, __m128i x)
{
#if defined(__x86_64__)
	uint64_t v = (uint64_t)_mm_cvtsi128_si64(x);
	uint32_t lo = (uint32_t)v;

	__builtin_memcpy(m, &lo, 4);
	m[4] = (uint8_t)(v >> 32);
#else
	uint32_t lo = (uint32_t)_mm_cvtsi128_si32(x);

	__builtin_memcpy(m, &lo, 4);
	m[4] = (uint8_t)_mm_cvtsi128_si32(_mm_srli_si128(x, 4));
#endif
}

#endif /* AESECB_AESNI_KEYSCHED_H */
