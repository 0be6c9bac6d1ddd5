/* SPDX-License-Identifier: MIT */
/*
 * json.c - the streaming JSON writer (see json.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
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
	memset(j, 0, sizeof *j);
	j->f = f;
	j->layout = layout;
}

/* s as a JSON string. */
static void put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t len;

	putc('"', f);
	for (; *p != '\0'; p += len) {
		len = 1;
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else if (*p < 0x80)
			putc(*p, f);
		else if ((len = cli_utf8_char(p, &cp)) > 0)
			fwrite(p, 1, len, f);
		else {
			fputs("\\ufffd", f);
			len = 1;
		}
	}
	putc('"', f);
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
			putc(',', j->f);
		if (j->wide[d - 1])
			fprintf(j->f, "\n%*s", 2 * d, "");
		else if (j->n[d - 1] > 1)
			putc(' ', j->f);
	}
	if (key != NULL) {
		put_string(j->f, key);
		fputs(": ", j->f);
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
	putc(array ? '[' : '{', j->f);
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
		fprintf(j->f, "\n%*s", 2 * d, "");
	putc(j->close[d], j->f);
	j->depth = d;
}

void cli_json_string(struct cli_json *j, const char *key, const char *s)
{
	char *shown;

	member(j, key, 0);
	if (s == NULL) {
		fputs("null", j->f);
		return;
	}
	/* the one rule of what may be a key (printable.h), on every
	 * string value whatever its source */
	shown = cli_show_alloc(s, CLI_SHOW_RAW);
	put_string(j->f, shown != NULL ? shown : CLI_NOT_SHOWN);
	free(shown);
}

void cli_json_uint(struct cli_json *j, const char *key, uint64_t v)
{
	member(j, key, 0);
	fprintf(j->f, "%" PRIu64, v);
}

void cli_json_int(struct cli_json *j, const char *key, long long v)
{
	member(j, key, 0);
	fprintf(j->f, "%lld", v);
}

void cli_json_bool(struct cli_json *j, const char *key, int v)
{
	member(j, key, 0);
	fputs(v ? "true" : "false", j->f);
}

void cli_json_null(struct cli_json *j, const char *key)
{
	member(j, key, 0);
	fputs("null", j->f);
}

void cli_json_real(struct cli_json *j, const char *key, const char *fmt,
                   double v, int have)
{
	member(j, key, 0);
	if (have && isfinite(v))
		fprintf(j->f, fmt, v);
	else
		fputs("null", j->f);
}

void cli_json_hex(struct cli_json *j, const char *key, const uint8_t *p,
                  size_t n, int upper)
{
	char buf[2 * 64];
	size_t k;

	member(j, key, 0);
	putc('"', j->f);
	for (; n > 0; p += k, n -= k) {
		k = n < 64 ? n : 64;
		fwrite(buf, 1, (size_t)(cli_hex_encode(buf, p, k, upper) - buf),
		       j->f);
	}
	putc('"', j->f);
	aesecb_wipe(buf, sizeof buf);
}

int cli_json_finish(struct cli_json *j)
{
	if (j->depth != 0)
		j->err = 1;
	errno = 0;
	putc('\n', j->f);
	if (fflush(j->f) != 0 || ferror(j->f)) {
		errno = cli_write_error();
		return -1;
	}
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
