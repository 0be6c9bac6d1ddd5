/* SPDX-License-Identifier: MIT */
/*
 * hex.c - hex text to bytes and back, for keys, data, samples and vector
 * files (see hex.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/hex.h"

/*@ // The output of a decode: room bytes at out, apart from the state,
    // nout of them stored; or no output (out NULL: counted only).
    predicate hex_out(struct cli_hex *h, uint8_t *out, size_t room) =
      \valid(h) && h->nout <= room &&
      (out == \null ||
       (\valid(out + (0 .. room - 1)) &&
        \separated(h, out + (0 .. room - 1))));
*/

/*@ requires \valid(h);
    assigns *h;
    ensures h->flags == flags && h->hi == 0 && h->nout == 0;
    ensures h->digits == 0 && h->chars == 0;
    ensures h->line == 1 && h->col == 1;
*/
void cli_hex_init(struct cli_hex *h, unsigned flags)
{
	h->flags = flags;
	h->hi = 0;
	h->digits = 0;
	h->chars = 0;
	h->line = 1;
	h->col = 1;
	h->nout = 0;
}

/*
 * Eight characters at once, when all are hex digits: their four bytes
 * into *bytes (the first digit the high nibble of the first byte) and 1,
 * else 0.  SWAR in a 64-bit word, the first character in the low lane: a
 * lane's high bit is set, once it is below 0x80, when it is at least a
 * range's first character (x + 0x80 - lo) and at most its last
 * (hi + 0x80 - x); no lane borrows from the next.  A digit's value is its
 * low four bits, plus 9 for a letter (bit 6, either case).  The branch is
 * on whether the eight are digits (their class), never on their values.
 */
/*@ requires \valid_read(t + (0 .. 7)) && \valid(bytes);
    assigns *bytes;
    ensures \result == 0 || \result == 1;
*/
static int hex8(const char *t, uint32_t *bytes)
{
	const uint64_t lanes = UINT64_C(0x0101010101010101);
	const uint64_t high = 0x80 * lanes;
	uint64_t x = 0, dig, low, up, n;
	int i;

	/*@ loop invariant -1 <= i <= 7;
	    loop assigns i, x;
	    loop variant i + 1; */
	for (i = 7; i >= 0; i--)
		x = (x << 8) | (uint8_t)t[i];
	if (x & high)
		return 0;
#define IN_RANGE(lo, hi) \
	(((x | high) - (lo) * lanes) & (((hi) * lanes | high) - x) & high)
	dig = IN_RANGE('0', '9');
	low = IN_RANGE('a', 'f');
	up = IN_RANGE('A', 'F');
#undef IN_RANGE
	if ((dig | low | up) != high)
		return 0;
	n = (x & 0x0f * lanes) + ((x >> 6) & lanes) * 9;
	/* pairs of nibbles (lanes 2k, 2k + 1) into bytes, then together */
	n = ((n & UINT64_C(0x000f000f000f000f)) << 4) |
	    ((n >> 8) & UINT64_C(0x000f000f000f000f));
	n = (n | (n >> 8)) & UINT64_C(0x0000ffff0000ffff);
	n = (n | (n >> 16)) & UINT64_C(0x00000000ffffffff);
	*bytes = (uint32_t)n;
	return 1;
}

/* One character: CLI_HEX_OK, CLI_HEX_BAD or CLI_HEX_FULL. */
/*@ requires hex_out(h, out, room) && 0 <= c <= 255;
    requires h->chars < ULLONG_MAX;
    assigns h->hi, h->digits, h->chars, h->line, h->col, h->nout,
            out[h->nout .. room - 1];
    ensures hex_out(h, out, room) && \old(h->nout) <= h->nout;
    ensures \result == CLI_HEX_OK || \result == CLI_HEX_BAD ||
            \result == CLI_HEX_FULL;
    ensures \result == CLI_HEX_OK ==> h->chars == \old(h->chars) + 1;
    ensures \result != CLI_HEX_OK ==> h->chars == \old(h->chars);
*/
static int feed_one(struct cli_hex *h, uint8_t *out, size_t room, int c)
{
	int cls = cli_hexclass(c);
	unsigned long nl;

	if (cls == CLI_HEX_DIGIT) {
		uint32_t v = (uint32_t)cli_hexnibble(c);

		if (h->digits % 2 == 0)
			h->hi = v;
		else if (out != NULL && h->nout < room)
			out[h->nout++] = (uint8_t)((h->hi << 4) | v);
		else if (!(h->flags & CLI_HEX_COUNT))
			return CLI_HEX_FULL;  /* this digit is not taken */
		h->digits++;
	} else if (cls != CLI_HEX_SPACE || !(h->flags & CLI_HEX_SKIP_SPACE)) {
		return CLI_HEX_BAD;
	}
	h->chars++;
	/* line and column: no branch on the character, which may be a key
	 * digit */
	nl = cli_ct_in_range((uint32_t)c & 0xffu, '\n', '\n') & 1u;
	h->line += nl;
	h->col = (h->col & ~(0ul - nl)) + 1u;
	return CLI_HEX_OK;
}

/* Whether the next eight digits may be taken at once: at a byte's start,
 * with room for their four bytes (or counted only). */
/*@ requires \valid_read(h);
    assigns \nothing;
    ensures \result != 0 ==> h->digits % 2 == 0;
    ensures \result != 0 && out != \null ==> h->nout + 4 <= room;
*/
static int room_for8(const struct cli_hex *h, const uint8_t *out, size_t room)
{
	if (h->digits % 2 != 0)
		return 0;
	if (out == NULL)
		return (h->flags & CLI_HEX_COUNT) != 0;
	return h->nout <= room && room - h->nout >= 4;
}

/*@ requires hex_out(h, out, room);
    requires \valid_read(text + (0 .. len - 1));
    requires \separated(h, text + (0 .. len - 1));
    requires out != \null ==>
             \separated(out + (0 .. room - 1), text + (0 .. len - 1));
    // chars counts every character: it does not wrap
    requires h->chars + len <= ULLONG_MAX;
    assigns h->hi, h->digits, h->chars, h->line, h->col, h->nout,
            out[\old(h->nout) .. room - 1];
    ensures hex_out(h, out, room) && \old(h->nout) <= h->nout;
    ensures \result == CLI_HEX_OK || \result == CLI_HEX_BAD ||
            \result == CLI_HEX_FULL;
    // the characters taken: all, or up to the one it stopped at
    ensures \result == CLI_HEX_OK ==> h->chars == \old(h->chars) + len;
    ensures \result != CLI_HEX_OK ==>
            \old(h->chars) <= h->chars < \old(h->chars) + len;
*/
int cli_hex_feed(struct cli_hex *h, uint8_t *out, size_t room,
                 const char *text, size_t len)
{
	size_t i = 0;
	uint32_t b;
	int r;

	/*@ loop invariant 0 <= i <= len;
	    loop invariant hex_out(h, out, room);
	    loop invariant \at(h->nout, Pre) <= h->nout;
	    loop invariant h->chars == \at(h->chars, Pre) + i;
	    loop assigns i, b, r, h->hi, h->digits, h->chars, h->line, h->col,
	                 h->nout, out[\at(h->nout, Pre) .. room - 1];
	    loop variant len - i; */
	while (i < len) {
		if (len - i >= 8 && room_for8(h, out, room) &&
		    hex8(text + i, &b)) {
			if (out != NULL) {
				out[h->nout] = (uint8_t)b;
				out[h->nout + 1] = (uint8_t)(b >> 8);
				out[h->nout + 2] = (uint8_t)(b >> 16);
				out[h->nout + 3] = (uint8_t)(b >> 24);
				h->nout += 4;
			}
			h->digits += 8;
			h->chars += 8;
			h->col += 8;
			i += 8;
			continue;
		}
		if ((r = feed_one(h, out, room, (unsigned char)text[i])) !=
		    CLI_HEX_OK)
			return r;
		i++;
	}
	return CLI_HEX_OK;
}

/*@ requires \valid(h);
    assigns h->hi;
    ensures h->hi == 0;
    ensures \result == CLI_HEX_OK || \result == CLI_HEX_ODD;
*/
int cli_hex_end(struct cli_hex *h)
{
	h->hi = 0;
	return h->digits % 2 != 0 ? CLI_HEX_ODD : CLI_HEX_OK;
}

/*@ requires \valid(h) && \valid_read(text + (0 .. len - 1));
    requires out == \null || \valid(out + (0 .. room - 1));
    requires \separated(h, text + (0 .. len - 1));
    requires out != \null ==>
             \separated(h, out + (0 .. room - 1), text + (0 .. len - 1));
    assigns *h, out[0 .. room - 1];
    ensures h->nout <= room && h->hi == 0;
    ensures CLI_HEX_ODD <= \result <= CLI_HEX_OK;
*/
int cli_hex_decode(struct cli_hex *h, unsigned flags, uint8_t *out,
                   size_t room, const char *text, size_t len)
{
	int r;

	cli_hex_init(h, flags);
	r = cli_hex_feed(h, out, room, text, len);
	if (r == CLI_HEX_OK)
		return cli_hex_end(h);
	h->hi = 0;
	return r;
}

/* The hex digit for the low 4 bits of v; alpha is 'a' or 'A'. */
static inline char hexdigit(unsigned v, uint32_t alpha)
{
	uint32_t n = v & 15u;
	/* past 9, add the distance from '9' + 1 to the letters */
	uint32_t over = 0u - ((9u - n) >> 31);

	return (char)(n + '0' + (over & (alpha - '0' - 10u)));
}

/*
 * Four bytes as eight hex digits at once: each nibble in a byte lane of a
 * 64-bit word (the first digit in the low lane), then '0' added to every
 * lane and, to the lanes of 10 or more (their bit 7 set once 0x76 is
 * added), the distance from '9' + 1 to the letters.  No lane carries into
 * the next: they hold at most 15 until the last addition, which stays
 * below 0x80.
 */
static void hex4(char *dst, uint32_t v, uint64_t alpha_step)
{
	const uint64_t lanes = UINT64_C(0x0101010101010101);
	uint64_t w = v, x, over;

	w = (w | (w << 16)) & UINT64_C(0x0000ffff0000ffff);
	w = (w | (w << 8)) & UINT64_C(0x00ff00ff00ff00ff);
	x = ((w >> 4) & UINT64_C(0x000f000f000f000f)) |
	    ((w & UINT64_C(0x000f000f000f000f)) << 8);
	over = ((x + 0x76 * lanes) >> 7) & lanes;
	x += 0x30 * lanes + over * alpha_step;
	/* (written out: compilers merge the eight stores into one) */
	dst[0] = (char)x;
	dst[1] = (char)(x >> 8);
	dst[2] = (char)(x >> 16);
	dst[3] = (char)(x >> 24);
	dst[4] = (char)(x >> 32);
	dst[5] = (char)(x >> 40);
	dst[6] = (char)(x >> 48);
	dst[7] = (char)(x >> 56);
}

#if defined(__SSE2__)
/*
 * Sixteen bytes as 32 hex digits at once (SSE2, which every x86-64 has):
 * the high and the low nibbles interleaved into 32 byte lanes, '0' added
 * to each and, to the lanes above 9 (a compare's mask, no branch, no
 * table), the distance from '9' + 1 to the letters.
 */
static void hex16(char *dst, const uint8_t *src, __m128i step)
{
	const __m128i low4 = _mm_set1_epi8(0x0f);
	const __m128i nine = _mm_set1_epi8(9);
	const __m128i zero = _mm_set1_epi8('0');
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)src);
	__m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), low4);
	__m128i lo = _mm_and_si128(v, low4);
	__m128i a = _mm_unpacklo_epi8(hi, lo);
	__m128i b = _mm_unpackhi_epi8(hi, lo);

	a = _mm_add_epi8(_mm_add_epi8(a, zero),
	                 _mm_and_si128(_mm_cmpgt_epi8(a, nine), step));
	b = _mm_add_epi8(_mm_add_epi8(b, zero),
	                 _mm_and_si128(_mm_cmpgt_epi8(b, nine), step));
	_mm_storeu_si128((__m128i *)(void *)dst, a);
	_mm_storeu_si128((__m128i *)(void *)(dst + 16), b);
}
#endif

char *cli_hex_encode(char *dst, const uint8_t *src, size_t n, int upper)
{
	uint32_t alpha = upper ? 'A' : 'a';
	uint64_t step = alpha - '0' - 10u;
	size_t i = 0;

#if defined(__SSE2__)
	{
		const __m128i step16 = _mm_set1_epi8((char)step);

		for (; i + 16 <= n; i += 16, dst += 32)
			hex16(dst, src + i, step16);
	}
#endif
	for (; i + 4 <= n; i += 4, dst += 8)
		hex4(dst, (uint32_t)src[i] | (uint32_t)src[i + 1] << 8 |
		          (uint32_t)src[i + 2] << 16 | (uint32_t)src[i + 3] << 24,
		     step);
	for (; i < n; i++) {
		*dst++ = hexdigit((unsigned)src[i] >> 4, alpha);
		*dst++ = hexdigit(src[i], alpha);
	}
	return dst;
}
