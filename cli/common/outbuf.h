/* SPDX-License-Identifier: MIT */
/*
 * outbuf.h - a report's text, built in a buffer of its own and written in
 * large pieces: hex through cli_hex_encode (constant time, eight digits a
 * step), numbers and words appended without stdio's formatting, so that a
 * capture of hundreds of thousands of packets costs little beyond the
 * work itself.
 *
 * With a stream (f), the text goes out whenever OUTBUF_CHUNK bytes are
 * waiting and when ob_flush() is called; without one it stays in memory
 * (a report that is printed whole or not at all).  A write that fails is
 * kept (ob.failed, its errno) and nothing more is written.
 */
#ifndef AESECB_OUTBUF_H
#define AESECB_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OUTBUF_CHUNK 65536

struct outbuf {
	FILE *f;                  /* where it goes, or NULL: memory */
	char *p;
	size_t n, cap;
	int failed;               /* a write failed, or memory ran out */
	int err;                  /* errno of the failure (0: memory) */
};

void ob_init(struct outbuf *o, FILE *f);

/* Free the buffer (the text is not secret: header bytes and packets as
 * unprotected, which the report prints). */
void ob_free(struct outbuf *o);

void ob_mem(struct outbuf *o, const void *p, size_t n);
void ob_str(struct outbuf *o, const char *s);
void ob_char(struct outbuf *o, char c);
void ob_uint(struct outbuf *o, uint64_t v);
void ob_hex(struct outbuf *o, const uint8_t *p, size_t n);
/* "label: " */
void ob_label(struct outbuf *o, const char *label);
/* printf, for the rare line that needs it. */
void ob_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Write what is waiting to f and flush f: 0, or -1 (o->failed). */
int ob_flush(struct outbuf *o);

#endif
