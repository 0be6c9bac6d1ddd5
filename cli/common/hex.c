/* SPDX-License-Identifier: MIT */
/*
 * hex.c - hex text to bytes and back, for keys, data, samples and vector
 * files (see hex.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "common/hex.h"

void cli_hex_init(struct cli_hex *h, unsigned flags)
{
	memset(h, 0, sizeof *h);
	h->flags = flags;
	h->line = 1;
	h->col = 1;
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
static int hex8(const char *t, uint32_t *bytes)
{
	const uint64_t lanes = UINT64_C(0x0101010101010101);
	const uint64_t high = 0x80 * lanes;
	uint64_t x = 0, dig, low, up, n;
	int i;

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
static int room_for8(const struct cli_hex *h, const uint8_t *out, size_t room)
{
	if (h->digits % 2 != 0)
		return 0;
	if (out == NULL)
		return (h->flags & CLI_HEX_COUNT) != 0;
	return h->nout <= room && room - h->nout >= 4;
}

int cli_hex_feed(struct cli_hex *h, uint8_t *out, size_t room,
                 const char *text, size_t len)
{
	size_t i = 0;
	uint32_t b;
	int r;

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

int cli_hex_end(struct cli_hex *h)
{
	h->hi = 0;
	return h->digits % 2 != 0 ? CLI_HEX_ODD : CLI_HEX_OK;
}

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

char *cli_hex_encode(char *dst, const uint8_t *src, size_t n, int upper)
{
	uint32_t alpha = upper ? 'A' : 'a';
	uint64_t step = alpha - '0' - 10u;
	size_t i = 0;

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
