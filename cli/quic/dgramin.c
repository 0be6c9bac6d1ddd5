/* SPDX-License-Identifier: MIT */
/*
 * dgramin.c - datagrams read as hex text, one per line.  See dgramin.h.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aesecb.h"
#include "quic/dgramin.h"

void dgramin_init(struct dgramin *r, int fd)
{
	memset(r, 0, sizeof *r);
	r->fd = fd;
	r->line = 1;
	cli_hex_init(&r->h, CLI_HEX_SKIP_SPACE);
}

void dgramin_prime(struct dgramin *r, const uint8_t *head, size_t n)
{
	if (n > sizeof r->buf)
		n = sizeof r->buf;
	memcpy(r->buf, head, n);
	r->have = n;
	r->pos = 0;
}

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

/* Decode text[0..n) of the current line. */
static int feed(struct dgramin *r, const char *text, size_t n, char *why,
                size_t size)
{
	while (n != 0 && !r->comment) {
		const char *hash = memchr(text, '#', n);
		size_t m = hash != NULL ? (size_t)(hash - text) : n;
		unsigned long long before = r->h.chars;
		int st = cli_hex_feed(&r->h, r->d, r->cap, text, m);
		size_t used = (size_t)(r->h.chars - before);

		if (st == CLI_HEX_FULL) {
			int g = grow(r);

			if (g == -2) {
				snprintf(why, size, "out of memory");
				return DGRAMIN_ENOMEM;
			}
			if (g == -1) {
				r->dline = r->line;
				snprintf(why, size, "the datagram is longer than "
				         "%u bytes", DGRAMIN_MAX);
				return DGRAMIN_EBAD;
			}
			text += used;
			n -= used;
			continue;
		}
		if (st == CLI_HEX_BAD) {
			unsigned char c = (unsigned char)text[used];

			if (c > ' ' && c < 0x7f)
				snprintf(why, size, "bad hex digit '%c' at column "
				         "%llu", c, r->h.chars + 1);
			else
				snprintf(why, size, "bad hex digit '\\x%02x' at "
				         "column %llu", c, r->h.chars + 1);
			r->dline = r->line;
			return DGRAMIN_EBAD;
		}
		if (hash != NULL) {
			r->comment = 1;
			break;
		}
		break;
	}
	return 0;
}

int dgramin_next(struct dgramin *r, uint8_t **d, size_t *len, char *why,
                 size_t size)
{
	for (;;) {
		const char *nl;
		size_t n;
		int st;

		if (r->pos == r->have) {
			ssize_t got;

			if (r->eof) {
				*d = NULL;
				*len = 0;
				return DGRAMIN_OK;
			}
			got = read(r->fd, r->buf, sizeof r->buf);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0) {
				snprintf(why, size, "read error: %s",
				         strerror(errno));
				return DGRAMIN_EIO;
			}
			r->pos = 0;
			r->have = (size_t)got;
			if (got == 0) {
				/* a last line without a newline */
				r->eof = 1;
				r->buf[0] = '\n';
				r->have = 1;
			}
		}
		nl = memchr(r->buf + r->pos, '\n', r->have - r->pos);
		n = nl != NULL ? (size_t)(nl - (r->buf + r->pos))
		               : r->have - r->pos;
		if (r->cap == 0 && grow(r) != 0) {
			snprintf(why, size, "out of memory");
			return DGRAMIN_ENOMEM;
		}
		st = feed(r, r->buf + r->pos, n, why, size);
		r->pos += n;
		if (st != 0)
			return st;
		if (nl == NULL)
			continue;        /* the line goes on in the next read */
		r->pos++;            /* the newline */
		{
			unsigned long long digits = r->h.digits;
			size_t bytes = r->h.nout;

			st = cli_hex_end(&r->h);
			cli_hex_init(&r->h, CLI_HEX_SKIP_SPACE);
			r->comment = 0;
			r->dline = r->line++;
			if (st == CLI_HEX_ODD) {
				snprintf(why, size, "odd number of hex digits "
				         "(%llu)", digits);
				return DGRAMIN_EBAD;
			}
			if (digits == 0)
				continue;
			*d = r->d;
			*len = bytes;
			return DGRAMIN_OK;
		}
	}
}
