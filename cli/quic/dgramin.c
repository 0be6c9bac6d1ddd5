/* SPDX-License-Identifier: MIT */
/*
 * dgramin.c - datagrams read as hex text, one per line.  See dgramin.h.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aesecb.h"
#include "quic/dgramin.h"

/*@ // A reader between calls: pos of the have bytes of text in buf read;
    // the datagram buffer, cap bytes at d (none yet: NULL and 0), at
    // most DGRAMIN_MAX, apart from the reader, of which the decoder has
    // stored h.nout.
    predicate dgramin_ok(struct dgramin *r) =
      \valid(r) && r->pos <= r->have <= sizeof(r->buf) &&
      r->cap <= DGRAMIN_MAX && r->h.nout <= r->cap &&
      (r->d == \null ==> r->cap == 0) &&
      (r->d != \null ==>
        \valid(r->d + (0 .. r->cap - 1)) &&
        \separated(r, r->d + (0 .. r->cap - 1)));

    // The message of an error: size bytes at why, apart from the reader.
    predicate why_ok(struct dgramin *r, char *why, size_t size) =
      \valid(why + (0 .. size - 1)) && \separated(r, why + (0 .. size - 1));
*/

/* What vsnprintf writes at why: at most size bytes (the C library's
   promise: no part of the proof). */
/*@ requires \valid(why + (0 .. size - 1));
    assigns why[0 .. size - 1];
*/
static void say(char *why, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
}

/* The offset of the first c in s[0..n), or n if none (memchr: the C
   library's promise, no part of the proof). */
/*@ requires \valid_read(s + (0 .. n - 1));
    assigns \nothing;
    ensures \result <= n;
*/
static size_t find(const char *s, int c, size_t n)
{
	const char *p = memchr(s, c, n);

	return p != NULL ? (size_t)(p - s) : n;
}

/* read(2) into buf[0..size), again when a signal interrupts it: the
   bytes read, 0 at the end, or -1 with errno (the C library's promise,
   no part of the proof). */
/*@ requires \valid(buf + (0 .. size - 1)) && size <= SSIZE_MAX;
    assigns buf[0 .. size - 1], errno;
    ensures -1 <= \result <= size;
*/
static ssize_t read_text(int fd, char *buf, size_t size)
{
	ssize_t got;

	do
		got = read(fd, buf, size);
	while (got < 0 && errno == EINTR);
	return got;
}

void dgramin_init(struct dgramin *r, int fd)
{
	memset(r, 0, sizeof *r);
	r->fd = fd;
	r->line = 1;
	cli_hex_init(&r->h, CLI_HEX_SKIP_SPACE);
}

/*@ requires dgramin_ok(r) && \valid_read(head + (0 .. n - 1));
    requires \separated(r, head + (0 .. n - 1));
    assigns r->buf[0 .. sizeof(r->buf) - 1], r->have, r->pos;
    ensures dgramin_ok(r) && r->pos == 0;
*/
void dgramin_prime(struct dgramin *r, const uint8_t *head, size_t n)
{
	size_t i;

	if (n > sizeof r->buf)
		n = sizeof r->buf;
	/*@ loop invariant 0 <= i <= n;
	    loop assigns i, r->buf[0 .. n - 1];
	    loop variant n - i; */
	for (i = 0; i < n; i++)
		r->buf[i] = (char)head[i];
	r->have = n;
	r->pos = 0;
}

/*@ requires dgramin_ok(r);
    assigns r->buf[0 .. sizeof(r->buf) - 1], r->d, r->cap,
            r->d[0 .. r->cap - 1];
    ensures r->d == \null && r->cap == 0;
*/
void dgramin_free(struct dgramin *r)
{
	if (r->d != NULL) {
		aesecb_wipe(r->d, r->cap);
		free(r->d);
	}
	aesecb_wipe(r->buf, sizeof r->buf);
	r->d = NULL;
	r->cap = 0;
}

/* Double the buffer, up to DGRAMIN_MAX; 0, or -1 (full) or -2 (memory). */
/*@ requires dgramin_ok(r);
    assigns r->d, r->cap, r->d[0 .. r->cap - 1],
            \at(r->d, Post)[0 .. DGRAMIN_MAX - 1];
    ensures dgramin_ok(r) && r->h.nout == \old(r->h.nout);
    ensures \result == 0 || \result == -1 || \result == -2;
    ensures \result == 0 ==> r->cap > \old(r->cap);
    ensures \result != 0 ==> r->cap == \old(r->cap);
    ensures \result == -1 <==> \old(r->cap) >= DGRAMIN_MAX;
*/
static int grow(struct dgramin *r)
{
	size_t cap = r->cap == 0 ? 2048 : 2 * r->cap;
	uint8_t *d;

	if (r->cap >= DGRAMIN_MAX)
		return -1;
	if (cap > DGRAMIN_MAX)
		cap = DGRAMIN_MAX;
	d = malloc(cap);
	if (d == NULL)
		return -2;
	if (r->d != NULL) {
		memcpy(d, r->d, r->h.nout);
		aesecb_wipe(r->d, r->cap);
		free(r->d);
	}
	r->d = d;
	r->cap = cap;
	return 0;
}

/* Decode r->buf[at..at + n) of the current line. */
/*@ requires dgramin_ok(r) && why_ok(r, why, size);
    requires at + n <= sizeof(r->buf);
    // the datagram buffers: the old, the new and any between them
    // (WP 25 cannot name a block the call allocates and frees: any
    // uint8_t)
    assigns r->h, r->comment, r->dline, r->d, r->cap,
            { *q | uint8_t *q; \true },
            why[0 .. size - 1];
    ensures dgramin_ok(r) && why_ok(r, why, size);
    ensures \result == 0 || \result == DGRAMIN_EBAD ||
            \result == DGRAMIN_ENOMEM;
*/
static int feed(struct dgramin *r, size_t at, size_t n, char *why,
                size_t size)
{
	/*@ loop invariant dgramin_ok(r) && why_ok(r, why, size);
	    loop invariant at + n <= sizeof(r->buf);
	    loop assigns at, n, r->h, r->comment, r->dline, r->d, r->cap,
	                 { *q | uint8_t *q; \true },
	                 why[0 .. size - 1];
	    loop variant DGRAMIN_MAX - r->cap; */
	while (n != 0 && !r->comment) {
		const char *text = r->buf + at;
		size_t m = find(text, '#', n);
		unsigned long long before = r->h.chars;
		int st;
		size_t used;

		if (before > ULLONG_MAX - m) {
			/* the count of characters would wrap */
			r->dline = r->line;
			say(why, size, "a line longer than %llu characters",
			    ULLONG_MAX);
			return DGRAMIN_EBAD;
		}
		st = cli_hex_feed(&r->h, r->d, r->cap, text, m);
		used = (size_t)(r->h.chars - before);

		if (st == CLI_HEX_FULL) {
			int g = grow(r);

			if (g == -2) {
				say(why, size, "out of memory");
				return DGRAMIN_ENOMEM;
			}
			if (g == -1) {
				r->dline = r->line;
				say(why, size, "the datagram is longer than "
				         "%u bytes", DGRAMIN_MAX);
				return DGRAMIN_EBAD;
			}
			at += used;
			n -= used;
			continue;
		}
		if (st == CLI_HEX_BAD) {
			unsigned char c = (unsigned char)text[used];

			if (c > ' ' && c < 0x7f)
				say(why, size, "bad hex digit '%c' at column "
				         "%llu", c, r->h.chars + 1);
			else
				say(why, size, "bad hex digit '\\x%02x' at "
				         "column %llu", c, r->h.chars + 1);
			r->dline = r->line;
			return DGRAMIN_EBAD;
		}
		if (m < n)
			r->comment = 1;   /* at the '#' */
		break;
	}
	return 0;
}

/* The errors of dgramin_next, with their message. */
/*@ requires \valid(why + (0 .. size - 1));
    assigns why[0 .. size - 1];
    ensures \result == DGRAMIN_EIO;
*/
static int read_error(char *why, size_t size)
{
	say(why, size, "read error: %s", strerror(errno));
	return DGRAMIN_EIO;
}

/*@ requires \valid(why + (0 .. size - 1));
    assigns why[0 .. size - 1];
    ensures \result == DGRAMIN_EBAD;
*/
static int odd_digits(char *why, size_t size, unsigned long long digits)
{
	say(why, size, "odd number of hex digits (%llu)", digits);
	return DGRAMIN_EBAD;
}

/*@ requires dgramin_ok(r) && why_ok(r, why, size);
    requires \valid(d) && \valid(len);
    requires \separated(d, len, r, why + (0 .. size - 1));
    // (the datagram buffers: see feed)
    assigns *r, { *q | uint8_t *q; \true }, *d, *len, why[0 .. size - 1],
            errno;
    ensures dgramin_ok(r);
    ensures \result == DGRAMIN_OK || \result == DGRAMIN_EBAD ||
            \result == DGRAMIN_EIO || \result == DGRAMIN_ENOMEM;
    // the datagram: the first *len bytes of the reader's buffer
    ensures \result == DGRAMIN_OK && *d != \null ==>
            *d == r->d && *len <= r->cap;
    ensures \result == DGRAMIN_OK && *d == \null ==> *len == 0;
*/
int dgramin_next(struct dgramin *r, uint8_t **d, size_t *len, char *why,
                 size_t size)
{
	/* (no loop variant: a descriptor may never end) */
	/*@ loop invariant dgramin_ok(r) && why_ok(r, why, size);
	    loop assigns *r, { *q | uint8_t *q; \true }, why[0 .. size - 1],
	                 errno; */
	for (;;) {
		size_t avail, n;
		int st;

		if (r->pos == r->have) {
			ssize_t got;

			if (r->eof) {
				*d = NULL;
				*len = 0;
				return DGRAMIN_OK;
			}
			got = read_text(r->fd, r->buf, sizeof r->buf);
			if (got < 0)
				return read_error(why, size);
			r->pos = 0;
			r->have = (size_t)got;
			if (got == 0) {
				/* a last line without a newline */
				r->eof = 1;
				r->buf[0] = '\n';
				r->have = 1;
			}
		}
		avail = r->have - r->pos;
		n = find(r->buf + r->pos, '\n', avail);
		if (r->cap == 0 && grow(r) != 0) {
			say(why, size, "out of memory");
			return DGRAMIN_ENOMEM;
		}
		st = feed(r, r->pos, n, why, size);
		r->pos += n;
		/*@ assert dgramin_ok(r) && r->h.nout <= r->cap; */
		if (st != 0)
			return st;
		if (n == avail)
			continue;        /* the line goes on in the next read */
		r->pos++;            /* the newline */
		/*@ assert dgramin_ok(r); */
		{
			unsigned long long digits = r->h.digits;
			size_t bytes = r->h.nout;

			st = cli_hex_end(&r->h);
			cli_hex_init(&r->h, CLI_HEX_SKIP_SPACE);
			/*@ assert dgramin_ok(r) && bytes <= r->cap; */
			r->comment = 0;
			r->dline = r->line++;
			/*@ assert dgramin_ok(r) && bytes <= r->cap; */
			if (st == CLI_HEX_ODD)
				return odd_digits(why, size, digits);
			if (digits == 0)
				continue;
			*d = r->d;
			*len = bytes;
			return DGRAMIN_OK;
		}
	}
}
