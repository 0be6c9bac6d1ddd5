/* SPDX-License-Identifier: MIT */
/*
 * printable.c - strings made safe to print (see printable.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "printable.h"

size_t cli_utf8_char(const unsigned char *p, uint32_t *cp)
{
	unsigned c = p[0];
	uint32_t v;
	size_t len, i;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	v = c & (0x7fu >> len);
	for (i = 1; i < len; i++) {
		unsigned lo = 0x80, hi = 0xbf;

		if (i == 1) {  /* no overlong forms, surrogates, > U+10FFFF */
			if (c == 0xe0)
				lo = 0xa0;
			else if (c == 0xed)
				hi = 0x9f;
			else if (c == 0xf0)
				lo = 0x90;
			else if (c == 0xf4)
				hi = 0x8f;
		}
		if (p[i] < lo || p[i] > hi)
			return 0;
		v = v << 6 | (p[i] & 0x3fu);
	}
	*cp = v;
	return len;
}

/* Whether the terminal (the locale the environment asks for) shows UTF-8:
 * read from LC_ALL, LC_CTYPE, LANG without changing this program's
 * locale. */
static int locale_utf8(void)
{
	static int known = -1;
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	size_t i;

	if (known >= 0)
		return known;
	known = 0;
	for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		const char *p;

		if (v == NULL || v[0] == '\0')
			continue;
		for (p = v; *p != '\0'; p++)
			if ((p[0] | 0x20) == 'u' && (p[1] | 0x20) == 't' &&
			    (p[2] | 0x20) == 'f' &&
			    (p[3] == '8' || (p[3] == '-' && p[4] == '8')))
				known = 1;
		break;
	}
	return known;
}

/* The length of a well-formed UTF-8 sequence at p that encodes a
 * character safe to show (not a C1 control, not an invisible format or
 * direction control, not a line or paragraph separator), else 0. */
static size_t utf8_shown(const unsigned char *p)
{
	uint32_t cp;
	size_t len = cli_utf8_char(p, &cp);

	if (len == 0 || cp < 0xa0 || cp == 0xad || cp == 0x61c ||
	    (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff ||
	    (cp >= 0xfff9 && cp <= 0xfffb))
		return 0;
	return len;
}

/*
 * Hex that may be a key.  A run is a hex digit, then more digits and
 * groups of at most RUN_GAP separator bytes (anything that is neither a
 * letter nor a digit: spaces, ':', '-', '_', line breaks, the bytes of a
 * UTF-8 no-break space), each group followed by a digit; an 'x' or 'X'
 * right after a digit and before one ("0x2b, 0x7e, ...") separates too.
 * Other letters end it.  Only the classes of the characters are looked
 * at, never the values of the digits.
 */
#define RUN_GAP 3

enum { C_END, C_WORD, C_HEX, C_SEP, C_X };

/* The class of byte c, with no branch on its value. */
static int run_class(unsigned char c)
{
	uint32_t u = c;
	uint32_t hex = cli_ct_in_range(u, '0', '9') |
	               cli_ct_in_range(u, 'a', 'f') |
	               cli_ct_in_range(u, 'A', 'F');
	uint32_t x = cli_ct_in_range(u, 'x', 'x') | cli_ct_in_range(u, 'X', 'X');
	uint32_t word = (cli_ct_in_range(u, 'g', 'z') |
	                 cli_ct_in_range(u, 'G', 'Z')) & ~x;
	uint32_t end = cli_ct_in_range(u, 0, 0);
	uint32_t sep = ~(hex | x | word | end);

	return (int)((hex & C_HEX) | (x & C_X) | (word & C_WORD) |
	             (sep & C_SEP));
}

size_t cli_hex_run(const char *s, size_t *digits)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, end = 0, n = 0;

	while (run_class(p[i]) == C_HEX) {
		size_t j, gap;

		while (run_class(p[i]) == C_HEX) {
			i++;
			n++;
		}
		end = i;
		for (j = i, gap = 0; gap < RUN_GAP; j++, gap++) {
			int c = run_class(p[j]);

			if (c != C_SEP && !(c == C_X && j == end &&
			                    run_class(p[j + 1]) == C_HEX))
				break;
		}
		if (gap == 0 || run_class(p[j]) != C_HEX)
			break;
		i = j;
	}
	if (digits != NULL)
		*digits = n;
	return end;
}

/* The length of the withheld run at p, or 0: not a run, or a short one
 * (*plain is then its end: no run starts inside it). */
static size_t withheld_at(const unsigned char *p, const unsigned char **plain)
{
	size_t digits, len;

	if (p < *plain || run_class(*p) != C_HEX)
		return 0;
	len = cli_hex_run((const char *)p, &digits);
	if (digits >= CLI_HEX_RUN_MIN)
		return len;
	*plain = p + len;
	return 0;
}

/* How the text at p is shown: n bytes at *piece (p itself, e, or the
 * withheld mark); *adv is how many bytes of p that covers.  With escape
 * 0, bytes are copied as they are (only runs are withheld). */
static size_t shown_as(const unsigned char *p, int utf8, int escape,
                       const unsigned char **plain, char e[4],
                       const char **piece, size_t *adv)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = withheld_at(p, plain);

	if (n > 0) {
		*piece = CLI_WITHHELD;
		*adv = n;
		return sizeof CLI_WITHHELD - 1;
	}
	*piece = (const char *)p;
	*adv = 1;
	if (!escape || (*p >= 0x20 && *p < 0x7f && *p != '\\'))
		return 1;
	if (utf8 && (n = utf8_shown(p)) > 0) {
		*adv = n;
		return n;
	}
	*piece = e;
	e[0] = '\\';
	if (*p == '\\') {
		e[1] = '\\';
		return 2;
	}
	e[1] = 'x';
	e[2] = digits[*p >> 4];
	e[3] = digits[*p & 15];
	return 4;
}

/* s as shown, into buf; cut short with "..." to fit size (a withheld
 * mark is never cut: it is left out whole). */
static const char *show(const char *s, char *buf, size_t size, int escape)
{
	const unsigned char *p, *plain;
	const char *piece;
	int utf8 = escape && locale_utf8();
	size_t o = 0, total = 0, n, adv, room;
	char e[4];

	plain = (const unsigned char *)s;
	for (p = plain; *p != '\0'; p += adv)
		total += shown_as(p, utf8, escape, &plain, e, &piece, &adv);
	room = total < size ? size - 1 : size - 4;  /* else "..." ends it */
	plain = (const unsigned char *)s;
	for (p = plain; *p != '\0'; p += adv) {
		n = shown_as(p, utf8, escape, &plain, e, &piece, &adv);
		if (o + n > room)
			break;
		memcpy(buf + o, piece, n);
		o += n;
	}
	if (total >= size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

const char *cli_printable(const char *s, char *buf, size_t size)
{
	return show(s, buf, size, 1);
}

/* The static buffers of cli_safe() and cli_withhold(), used in turn. */
static char *next_slot(void)
{
	static char slots[CLI_SAFE_SLOTS][CLI_PRINTABLE_MAX];
	static unsigned next;

	return slots[next++ % CLI_SAFE_SLOTS];
}

const char *cli_safe(const char *s)
{
	int err = errno;
	const char *r = show(s != NULL ? s : "(null)", next_slot(),
	                     CLI_PRINTABLE_MAX, 1);

	errno = err;
	return r;
}

const char *cli_withhold(const char *s)
{
	int err = errno;
	const char *r;

	if (s == NULL)
		return NULL;
	r = show(s, next_slot(), CLI_PRINTABLE_MAX, 0);
	errno = err;
	return r;
}
