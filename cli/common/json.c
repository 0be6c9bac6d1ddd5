/* SPDX-License-Identifier: MIT */
/*
 * json.c - the streaming JSON writer (see json.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"
#include "common/hex.h"
#include "common/json.h"
#include "common/msg.h"
#include "common/printable.h"

void cli_json_start(struct cli_json *j, FILE *f, int layout)
{
	memset(j, 0, offsetof(struct cli_json, buf));
	j->f = f;
	j->layout = layout;
}

/* The waiting text to the stream (a failed write shows in ferror(f) and
 * is reported by cli_json_finish()); what held hex is wiped. */
static void drain(struct cli_json *j)
{
	if (j->len != 0)
		fwrite(j->buf, 1, j->len, j->f);
	if (j->hex)
		aesecb_wipe(j->buf, j->len);
	j->hex = 0;
	j->len = 0;
}

static void put(struct cli_json *j, const void *src, size_t n)
{
	const char *s = src;

	while (n > 0) {
		size_t k = CLI_JSON_BUF - j->len;

		if (k == 0) {
			drain(j);
			k = CLI_JSON_BUF;
		}
		if (k > n)
			k = n;
		memcpy(j->buf + j->len, s, k);
		j->len += k;
		s += k;
		n -= k;
	}
}

static void put_char(struct cli_json *j, char c)
{
	if (j->len == CLI_JSON_BUF)
		drain(j);
	j->buf[j->len++] = c;
}

static void put_str(struct cli_json *j, const char *s)
{
	put(j, s, strlen(s));
}

/* Whether the 8 bytes at p need no escape (printable ASCII, neither '"'
 * nor '\'). */
static int plain8(const unsigned char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	if (x & CLI_LANES_HIGH)
		return 0;
	return ((~cli_lanes_ge(x, 0x20) | cli_lanes_ge(x, 0x7f) |
	         cli_lanes_eq(x, '"') | cli_lanes_eq(x, '\\')) &
	        CLI_LANES_HIGH) == 0;
}

/* s as a JSON string: the spans that need no escape copied whole, found
 * eight bytes a step. */
static void put_string(struct cli_json *j, const char *s)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *span = p;
	const unsigned char *end = p + strlen(s);
	uint32_t cp;
	size_t len;

	put_char(j, '"');
	while (p < end) {
		unsigned c = *p;
		char e[6];

		if (end - p >= 8 && plain8(p)) {
			p += 8;
			continue;
		}
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			p++;
			continue;
		}
		put(j, span, (size_t)(p - span));
		len = 1;
		if (c == '"' || c == '\\') {
			e[0] = '\\';
			e[1] = (char)c;
			put(j, e, 2);
		} else if (c < 0x20 || c == 0x7f) {
			memcpy(e, "\\u00", 4);
			e[4] = digits[c >> 4];
			e[5] = digits[c & 15];
			put(j, e, 6);
		} else if ((len = cli_utf8_char(p, &cp)) > 0) {
			put(j, p, len);
		} else {
			put_str(j, "\\ufffd");
			len = 1;
		}
		p += len;
		span = p;
	}
	put(j, span, (size_t)(p - span));
	put_char(j, '"');
}

/* A line break and the indentation of depth d. */
static void put_indent(struct cli_json *j, int d)
{
	static const char spaces[] = "                                ";
	size_t n = 2 * (size_t)d;

	put_char(j, '\n');
	for (; n > sizeof spaces - 1; n -= sizeof spaces - 1)
		put(j, spaces, sizeof spaces - 1);
	put(j, spaces, n);
}

/* Before a value (a container or not): the comma, the line break or
 * space, the member name.  An array below the top decides its layout at
 * its first element: one per line when the elements are containers. */
static void member(struct cli_json *j, const char *key, int container)
{
	int d = j->depth;

	if (d > 0) {
		if (j->n[d - 1] == 0 && j->close[d - 1] == ']' &&
		    j->layout == CLI_JSON_LISTING && d - 1 >= 2)
			j->wide[d - 1] = (unsigned char)container;
		if (j->n[d - 1]++ > 0)
			put_char(j, ',');
		if (j->wide[d - 1])
			put_indent(j, d);
		else if (j->n[d - 1] > 1)
			put_char(j, ' ');
	}
	if (key != NULL) {
		put_string(j, key);
		put(j, ": ", 2);
	}
}

static void open_container(struct cli_json *j, const char *key, int array)
{
	int d = j->depth;

	member(j, key, 1);
	if (d == CLI_JSON_DEPTH) {
		j->err = 1;
		return;
	}
	put_char(j, array ? '[' : '{');
	j->close[d] = array ? ']' : '}';
	/* the top, and the arrays in it, one member per line; the layout
	 * of deeper arrays waits for their first element */
	j->wide[d] = j->layout == CLI_JSON_PRETTY || d == 0 || (d == 1 && array);
	j->n[d] = 0;
	j->depth++;
}

void cli_json_object(struct cli_json *j, const char *key)
{
	open_container(j, key, 0);
}

void cli_json_array(struct cli_json *j, const char *key)
{
	open_container(j, key, 1);
}

void cli_json_end(struct cli_json *j)
{
	int d = j->depth - 1;

	if (d < 0) {
		j->err = 1;
		return;
	}
	if (j->wide[d] && j->n[d] > 0)
		put_indent(j, d);
	put_char(j, j->close[d]);
	j->depth = d;
}

void cli_json_string(struct cli_json *j, const char *key, const char *s)
{
	char *shown;

	member(j, key, 0);
	if (s == NULL) {
		put(j, "null", 4);
		return;
	}
	/* the one rule of what may be a key (printable.h), on every
	 * string value whatever its source; a string in which it can find
	 * nothing is written as it is */
	if (cli_show_unchanged(s)) {
		put_string(j, s);
		return;
	}
	shown = cli_show_alloc(s, CLI_SHOW_RAW);
	put_string(j, shown != NULL ? shown : CLI_NOT_SHOWN);
	free(shown);
}

void cli_json_uint(struct cli_json *j, const char *key, uint64_t v)
{
	char buf[24], *e = buf + sizeof buf, *q = e;

	member(j, key, 0);
	do {
		*--q = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	put(j, q, (size_t)(e - q));
}

void cli_json_int(struct cli_json *j, const char *key, long long v)
{
	char buf[24], *e = buf + sizeof buf, *q = e;
	/* the magnitude, LLONG_MIN included */
	unsigned long long m = v < 0 ? 0ull - (unsigned long long)v
	                             : (unsigned long long)v;

	member(j, key, 0);
	do {
		*--q = (char)('0' + m % 10);
		m /= 10;
	} while (m != 0);
	if (v < 0)
		*--q = '-';
	put(j, q, (size_t)(e - q));
}

void cli_json_bool(struct cli_json *j, const char *key, int v)
{
	member(j, key, 0);
	put_str(j, v ? "true" : "false");
}

void cli_json_null(struct cli_json *j, const char *key)
{
	member(j, key, 0);
	put(j, "null", 4);
}

void cli_json_real(struct cli_json *j, const char *key, const char *fmt,
                   double v, int have)
{
	char buf[512];
	int n;

	member(j, key, 0);
	n = have && isfinite(v) ? snprintf(buf, sizeof buf, fmt, v) : -1;
	if (n < 0 || (size_t)n >= sizeof buf)
		put(j, "null", 4);
	else
		put(j, buf, (size_t)n);
}

void cli_json_hex(struct cli_json *j, const char *key, const uint8_t *p,
                  size_t n, int upper)
{
	member(j, key, 0);
	put_char(j, '"');
	j->hex = 1;
	while (n > 0) {
		size_t k = (CLI_JSON_BUF - j->len) / 2;

		if (k == 0) {
			drain(j);
			j->hex = 1;
			continue;
		}
		if (k > n)
			k = n;
		cli_hex_encode(j->buf + j->len, p, k, upper);
		j->len += 2 * k;
		p += k;
		n -= k;
	}
	put_char(j, '"');
}

int cli_json_flush(struct cli_json *j)
{
	errno = 0;
	drain(j);
	if (fflush(j->f) != 0 || ferror(j->f)) {
		errno = cli_write_error();
		return -1;
	}
	return 0;
}

void cli_json_discard(struct cli_json *j)
{
	aesecb_wipe(j->buf, sizeof j->buf);
	j->len = 0;
	j->hex = 0;
}

int cli_json_finish(struct cli_json *j)
{
	if (j->depth != 0)
		j->err = 1;
	put_char(j, '\n');
	if (cli_json_flush(j) != 0)
		return -1;
	if (j->err) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int cli_json_finish_stdout(struct cli_json *j)
{
	if (cli_json_finish(j) == 0)
		return 0;
	cli_err("cannot write stdout: %s", strerror(errno));
	return EXIT_IO;
}
