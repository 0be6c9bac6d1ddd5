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

/* How the character at p is shown: n bytes at *piece (p itself, or e);
 * *adv is how many bytes of p that covers. */
static size_t shown_as(const unsigned char *p, int utf8, char e[4],
                       const char **piece, size_t *adv)
{
	static const char digits[] = "0123456789abcdef";
	size_t n;

	*piece = (const char *)p;
	*adv = 1;
	if (*p >= 0x20 && *p < 0x7f && *p != '\\')
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

const char *cli_printable(const char *s, char *buf, size_t size)
{
	const unsigned char *p;
	const char *piece;
	int utf8 = locale_utf8();
	size_t o = 0, total = 0, n, adv, room;
	char e[4];

	for (p = (const unsigned char *)s; *p != '\0'; p += adv)
		total += shown_as(p, utf8, e, &piece, &adv);
	room = total < size ? size - 1 : size - 4;  /* else "..." ends it */
	for (p = (const unsigned char *)s; *p != '\0'; p += adv) {
		n = shown_as(p, utf8, e, &piece, &adv);
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

const char *cli_safe(const char *s)
{
	static char slots[CLI_SAFE_SLOTS][CLI_PRINTABLE_MAX];
	static unsigned next;
	char *buf = slots[next++ % CLI_SAFE_SLOTS];
	int err = errno;

	cli_printable(s != NULL ? s : "(null)", buf, CLI_PRINTABLE_MAX);
	errno = err;
	return buf;
}
