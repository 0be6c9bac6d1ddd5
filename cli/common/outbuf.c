/* SPDX-License-Identifier: MIT */
/*
 * outbuf.c - a report's text, written in large pieces.  See outbuf.h.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "common/msg.h"
#include "common/outbuf.h"

void ob_init(struct outbuf *o, FILE *f)
{
	memset(o, 0, sizeof *o);
	o->f = f;
}

void ob_free(struct outbuf *o)
{
	free(o->p);
	o->p = NULL;
	o->n = o->cap = 0;
}

/* Write what is waiting to f (not flushing f): 0 or -1. */
static int drain(struct outbuf *o)
{
	if (o->failed)
		return -1;
	errno = 0;
	if (o->n != 0 && fwrite(o->p, 1, o->n, o->f) != o->n) {
		o->failed = 1;
		o->err = cli_write_error();
		return -1;
	}
	o->n = 0;
	return 0;
}

/* Room for n more bytes: a pointer to them, or NULL (o->failed). */
static char *room(struct outbuf *o, size_t n)
{
	size_t cap;
	char *p;

	if (o->failed)
		return NULL;
	if (o->f != NULL && o->n + n > OUTBUF_CHUNK && o->n != 0 &&
	    drain(o) != 0)
		return NULL;
	if (o->n + n <= o->cap)
		return o->p + o->n;
	for (cap = o->cap ? o->cap : 4096; cap < o->n + n; cap *= 2)
		;
	if ((p = realloc(o->p, cap)) == NULL) {
		o->failed = 1;
		o->err = 0;
		return NULL;
	}
	o->p = p;
	o->cap = cap;
	return o->p + o->n;
}

void ob_mem(struct outbuf *o, const void *src, size_t n)
{
	char *p = room(o, n);

	if (p != NULL) {
		memcpy(p, src, n);
		o->n += n;
	}
}

void ob_str(struct outbuf *o, const char *s)
{
	ob_mem(o, s, strlen(s));
}

void ob_char(struct outbuf *o, char c)
{
	ob_mem(o, &c, 1);
}

void ob_uint(struct outbuf *o, uint64_t v)
{
	char buf[24], *e = buf + sizeof buf, *q = e;

	do {
		*--q = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	ob_mem(o, q, (size_t)(e - q));
}

void ob_hex(struct outbuf *o, const uint8_t *src, size_t n)
{
	char *p = room(o, 2 * n);

	if (p != NULL)
		o->n = (size_t)(cli_hex_encode(p, src, n, CLI_HEX_LOWER) - o->p);
}

void ob_label(struct outbuf *o, const char *label)
{
	ob_str(o, label);
	ob_mem(o, ": ", 2);
}

void ob_printf(struct outbuf *o, const char *fmt, ...)
{
	va_list ap;
	char buf[512];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof buf) {
		ob_mem(o, buf, (size_t)n);
		return;
	}
	{
		char *p = room(o, (size_t)n + 1);

		if (p == NULL)
			return;
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
		o->n += (size_t)n;
	}
}

int ob_flush(struct outbuf *o)
{
	if (o->f == NULL)
		return o->failed ? -1 : 0;
	if (drain(o) != 0)
		return -1;
	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f)) {
		o->failed = 1;
		o->err = cli_write_error();
		return -1;
	}
	return 0;
}
