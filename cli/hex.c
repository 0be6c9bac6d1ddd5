/* SPDX-License-Identifier: MIT */
/*
 * hex.c - hex text to bytes and back, for keys, data, samples and vector
 * files (see hex.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "hex.h"

void cli_hex_init(struct cli_hex *h, unsigned flags)
{
	memset(h, 0, sizeof *h);
	h->flags = flags;
	h->line = 1;
	h->col = 1;
}

int cli_hex_feed(struct cli_hex *h, uint8_t *out, size_t room,
                 const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		int c = (unsigned char)text[i];
		int cls = cli_hexclass(c);

		if (cls == CLI_HEX_DIGIT) {
			uint32_t v = (uint32_t)cli_hexnibble(c);

			if (h->digits % 2 == 0) {
				h->hi = v;
			} else if (out != NULL && h->nout < room) {
				out[h->nout++] = (uint8_t)((h->hi << 4) | v);
			} else if (!(h->flags & CLI_HEX_COUNT)) {
				return CLI_HEX_FULL;  /* this digit is not taken */
			}
			h->digits++;
		} else if (cls != CLI_HEX_SPACE ||
		           !(h->flags & CLI_HEX_SKIP_SPACE)) {
			return CLI_HEX_BAD;
		}
		h->chars++;
		/* line and column: no branch on the character, which may
		 * be a key digit */
		{
			unsigned long nl = cli_ct_in_range((uint32_t)c & 0xffu,
			                                   '\n', '\n') & 1u;

			h->line += nl;
			h->col = (h->col & ~(0ul - nl)) + 1u;
		}
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
