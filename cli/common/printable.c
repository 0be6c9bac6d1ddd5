/* SPDX-License-Identifier: MIT */
/*
 * printable.c - strings made safe to print (see printable.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "common/printable.h"

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
 * What may be a key.  The string is read as units: a byte, or an escape
 * "\xHH" (either case) standing for the byte HH, as C, Python and this
 * tool's own escaping write one.  Two rules mark bytes to withhold:
 *
 * Hex: a run is a hex digit, then more digits and gaps of at most
 * RUN_GAP separator bytes (anything that is neither a letter nor a digit:
 * spaces, ':', '-', ',', braces, line breaks, the bytes of a UTF-8
 * no-break space), each gap followed by a digit; an 'x' or 'X' right
 * after a digit and before one ("0x2b, 0x7e, ...") separates too, and so
 * does the "\x" of an escape whose byte is not text.  Other letters end a
 * run, and so do quotes in a whole message line (CLI_SHOW_LINE), where
 * they stand around a user's string.  A run of CLI_HEX_RUN_MIN digits or
 * more is withheld.  Only the classes of the characters are looked at,
 * never the values of the digits.
 *
 * Raw bytes: the bytes decoded from the units are read as characters: a
 * printable ASCII byte, well-formed UTF-8 of a visible character, or a
 * tab, line feed, carriage return or ESC, is text; anything else (another
 * control, DEL, a C1 or invisible format character, a byte that is not
 * well-formed UTF-8) is "odd".  Odd characters that follow each other at
 * most RAW_SPAN - 1 characters apart form a cluster (a 16-byte key holds
 * them all); a cluster of RAW_MIN odd characters or more is withheld
 * together with the characters around it, up to RAW_SPAN in all, where
 * the rest of such a key would be.  A random 16-byte key has fewer than
 * two odd bytes about once in 10^5.
 */
#define RUN_GAP 16
#define RAW_SPAN 16
#define RAW_MIN 2
/* Strings up to this long are examined in the stack's memory, so that a
 * message is shown when memory has run out. */
#define SMALL 1024

enum { C_END, C_WORD, C_HEX, C_SEP, C_X };
enum { M_SHOWN, M_HEX, M_RAW };

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

/* The value of hex digit c (a C_HEX byte), without a branch on it. */
static unsigned hex_value(unsigned char c)
{
	uint32_t u = c;
	uint32_t dig = cli_ct_in_range(u, '0', '9');
	uint32_t low = cli_ct_in_range(u, 'a', 'f');

	return (unsigned)((dig & (u - '0')) | (low & (u - 'a' + 10)) |
	                  (~(dig | low) & (u - 'A' + 10)));
}

/* Whether s (n bytes) starts with an escape \xHH. */
static int is_escape(const unsigned char *s, size_t n)
{
	return n >= 4 && s[0] == '\\' && (s[1] | 0x20) == 'x' &&
	       run_class(s[2]) == C_HEX && run_class(s[3]) == C_HEX;
}

/* The memory find_withheld() works in: cls, val and odd of n + 1 bytes,
 * at of n + 1 offsets. */
struct scratch {
	unsigned char *cls, *val, *odd;
	size_t *at;
	unsigned char small[3 * (SMALL + 1)];
	size_t small_at[SMALL + 1];
	void *heap;
};

static int scratch_get(struct scratch *w, size_t n)
{
	unsigned char *b;

	w->heap = NULL;
	if (n <= SMALL) {
		b = w->small;
		w->at = w->small_at;
	} else {
		if (n >= SIZE_MAX / (3 + sizeof(size_t)) - 1)
			return -1;
		w->heap = malloc((n + 1) * (3 + sizeof(size_t)));
		if (w->heap == NULL)
			return -1;
		w->at = w->heap;
		b = (unsigned char *)(w->at + n + 1);
	}
	w->cls = b;
	w->val = b + n + 1;
	w->odd = b + 2 * (n + 1);
	return 0;
}

/* The character of decoded bytes at v (NUL-terminated): its length in
 * bytes, and whether it is odd. */
static size_t character(const unsigned char *v, int *odd)
{
	size_t len;

	*odd = 0;
	if ((v[0] >= 0x20 && v[0] < 0x7f) || v[0] == '\t' || v[0] == '\n' ||
	    v[0] == '\r' || v[0] == 0x1b)
		return 1;
	len = utf8_shown(v);
	if (len > 0)
		return len;
	*odd = 1;
	len = cli_utf8_char(v, &(uint32_t){ 0 });
	return len > 0 ? len : 1;
}

/* The marks of s (n bytes; s[n] is NUL): mark[i] is M_SHOWN, or the rule
 * that withholds byte i.  Returns 0, or -1 when out of memory. */
static int find_withheld(const unsigned char *s, size_t n, int how,
                         unsigned char *mark)
{
	struct scratch w;
	unsigned char *cls, *val, *odd;
	size_t *at;
	size_t m = 0, i, k;

	if (scratch_get(&w, n) < 0)
		return -1;
	cls = w.cls;
	val = w.val;
	odd = w.odd;
	at = w.at;
	memset(mark, M_SHOWN, n);

	/* units and the bytes they stand for */
	for (i = 0; i < n; m++) {
		at[m] = i;
		if (is_escape(s + i, n - i)) {
			val[m] = (unsigned char)(hex_value(s[i + 2]) << 4 |
			                         hex_value(s[i + 3]));
			i += 4;
		} else {
			val[m] = s[i++];
		}
	}
	at[m] = n;
	val[m] = 0;
	/* characters: odd[k] is 0 for the first unit of a text one, 1 for
	 * the first unit of an odd one, 2 and 3 for the units after */
	for (k = 0; k < m;) {
		int o;
		size_t len = character(val + k, &o);

		odd[k] = (unsigned char)o;
		if (len > m - k)
			len = m - k;
		for (i = 1; i < len; i++)
			odd[k + i] = (unsigned char)(2 + o);
		k += len;
	}

	/* the classes the hex rule reads: an escape of an odd byte is a
	 * separator and two digits, one of a text byte ends a run */
	for (k = 0; k < m; k++) {
		size_t a = at[k], b = at[k + 1];

		if (b - a == 1)
			cls[a] = (unsigned char)run_class(s[a]);
		else if (odd[k] == 1 || odd[k] == 3) {
			cls[a] = cls[a + 1] = C_SEP;
			cls[a + 2] = cls[a + 3] = C_HEX;
		} else {
			memset(cls + a, C_WORD, b - a);
		}
		if (how == CLI_SHOW_LINE && b - a == 1 &&
		    (s[a] == '\'' || s[a] == '"'))
			cls[a] = C_WORD;
	}
	cls[n] = C_END;

	/* hex runs */
	for (i = 0; i < n;) {
		size_t j, gap, end, digits = 0, start = i;

		if (cls[i] != C_HEX) {
			i++;
			continue;
		}
		end = i;
		while (cls[i] == C_HEX) {
			while (cls[i] == C_HEX) {
				i++;
				digits++;
			}
			end = i;
			for (j = i, gap = 0; gap < RUN_GAP; j++, gap++) {
				int c = cls[j];

				if (c != C_SEP && !(c == C_X && j == end &&
				                    cls[j + 1] == C_HEX))
					break;
			}
			if (gap == 0 || cls[j] != C_HEX)
				break;
			i = j;
		}
		if (digits >= CLI_HEX_RUN_MIN)
			memset(mark + start, M_HEX, end - start);
		i = end;
	}

	/* clusters of odd characters, counted in characters */
	for (k = 0; k < m;) {
		size_t first, last, count = 0, chars = 0, span = 0, ext, a, b;

		if (odd[k] != 1) {
			k++;
			continue;
		}
		first = last = k;
		for (; k < m && chars < RAW_SPAN; k++) {
			if (odd[k] >= 2)
				continue;
			if (odd[k] == 1) {
				last = k;
				count++;
				span += chars + 1;
				chars = 0;
			} else {
				chars++;
			}
		}
		k = last + 1;
		if (count < RAW_MIN)
			continue;
		/* span: characters from the first odd one to the last; the
		 * rest of a 16-byte key is within ext units either side */
		ext = span < RAW_SPAN ? RAW_SPAN - span : 0;
		a = first > ext ? first - ext : 0;
		b = last + 1 + ext;
		while (b < m && odd[b] >= 2)
			b++;
		if (b > m)
			b = m;
		for (i = at[a]; i < at[b]; i++)
			if (mark[i] == M_SHOWN)
				mark[i] = M_RAW;
	}
	free(w.heap);
	return 0;
}

/* Where shown text goes: a growing string, or a stream. */
struct out {
	char *p;
	size_t len, cap;
	FILE *f;
	int oom;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->f != NULL) {
		fwrite(s, 1, n, o->f);
		return;
	}
	if (o->oom)
		return;
	if (o->cap - o->len <= n) {
		size_t cap = o->cap ? o->cap : 64;
		char *p;

		while (cap - o->len <= n && cap <= SIZE_MAX / 2)
			cap *= 2;
		p = cap - o->len > n ? realloc(o->p, cap) : NULL;
		if (p == NULL) {
			o->oom = 1;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

/* s shown as how says, into o.  Returns 0, or -1 when out of memory
 * (nothing was written). */
static int show(const char *str, int how, struct out *o)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), i, len;
	int utf8 = how != CLI_SHOW_RAW && locale_utf8();
	unsigned char small[SMALL], *mark = n <= SMALL ? small : malloc(n);

	if (mark == NULL || find_withheld(s, n, how, mark) < 0) {
		if (mark != small)
			free(mark);
		return -1;
	}
	put(o, "", 0);
	for (i = 0; i < n; i += len) {
		char e[4];

		len = 1;
		if (mark[i] != M_SHOWN) {
			int m = mark[i];

			while (i + len < n && mark[i + len] != M_SHOWN)
				len++;
			if (m == M_HEX)
				put(o, CLI_WITHHELD, sizeof CLI_WITHHELD - 1);
			else
				put(o, CLI_WITHHELD_RAW,
				    sizeof CLI_WITHHELD_RAW - 1);
		} else if (how == CLI_SHOW_RAW ||
		           (s[i] >= 0x20 && s[i] < 0x7f &&
		            (s[i] != '\\' || how == CLI_SHOW_LINE))) {
			put(o, (const char *)s + i, 1);
		} else if (s[i] == '\\') {
			put(o, "\\\\", 2);
		} else if (utf8 && (len = utf8_shown(s + i)) > 0) {
			put(o, (const char *)s + i, len);
		} else {
			len = 1;
			e[0] = '\\';
			e[1] = 'x';
			e[2] = digits[s[i] >> 4];
			e[3] = digits[s[i] & 15];
			put(o, e, 4);
		}
	}
	if (mark != small)
		free(mark);
	return 0;
}

char *cli_show_alloc(const char *s, int how)
{
	struct out o = { NULL, 0, 0, NULL, 0 };

	if (show(s, how, &o) < 0 || o.oom) {
		free(o.p);
		return NULL;
	}
	return o.p;
}

int cli_show_to(FILE *f, const char *s, int how)
{
	struct out o = { NULL, 0, 0, f, 0 };

	return show(s, how, &o);
}

/* Where a withheld mark in shown text overlaps [cut, ...): the mark's
 * start, else cut. */
static size_t cut_before_mark(const char *t, size_t cut)
{
	static const char *const marks[] = { CLI_WITHHELD, CLI_WITHHELD_RAW };
	size_t k, best = cut;

	for (k = 0; k < 2; k++) {
		size_t ml = strlen(marks[k]), back;

		for (back = 1; back < ml && back <= cut; back++)
			if (strncmp(t + cut - back, marks[k], ml) == 0 &&
			    cut - back < best)
				best = cut - back;
	}
	return best;
}

const char *cli_printable(const char *s, char *buf, size_t size)
{
	char *t = cli_show_alloc(s, CLI_SHOW_ESCAPE);
	size_t n;

	if (t == NULL) {
		snprintf(buf, size, "%s", CLI_NOT_SHOWN);
		return buf;
	}
	n = strlen(t);
	if (n >= size) {
		n = cut_before_mark(t, size - 4);
		memcpy(t + n, "...", 4);
	}
	memcpy(buf, t, strlen(t) + 1);
	free(t);
	return buf;
}

/* The buffers of cli_safe(), used in turn. */
static char *slots[CLI_SAFE_SLOTS];
static unsigned next_slot;

const char *cli_safe(const char *s)
{
	int err = errno;
	unsigned k = next_slot++ % CLI_SAFE_SLOTS;

	free(slots[k]);
	slots[k] = cli_show_alloc(s != NULL ? s : "(null)", CLI_SHOW_ESCAPE);
	errno = err;
	return slots[k] != NULL ? slots[k] : CLI_NOT_SHOWN;
}
