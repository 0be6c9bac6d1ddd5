/* SPDX-License-Identifier: MIT */
/*
 * dgramin.h - datagrams read as text, one hex datagram per line (what
 * "tshark -T fields -e udp.payload" writes), from a descriptor, in flat
 * memory: the text is read a block at a time and decoded as it comes,
 * into one buffer that grows to the longest datagram (at most
 * DGRAMIN_MAX bytes).  Whitespace inside a line is ignored, '#' starts a
 * comment that runs to the end of its line, and lines with no digits are
 * skipped.
 *
 * No printing and no exit: errors come back as a message and the line.
 */
#ifndef AESECB_DGRAMIN_H
#define AESECB_DGRAMIN_H

#include <stddef.h>
#include <stdint.h>

#include "common/hex.h"

/* Longest datagram accepted, in bytes (a UDP payload is at most 65,527). */
#define DGRAMIN_MAX (1u << 20)

struct dgramin {
	int fd;
	char buf[16384];
	size_t have, pos;          /* text in buf, and how far it is read */
	int eof;
	uint8_t *d;                /* the datagram being decoded */
	size_t cap;
	struct cli_hex h;
	int comment;               /* inside a '#' comment */
	unsigned long line;        /* the line being read, from 1 */
	unsigned long dline;       /* the line of the datagram (or error)
	                              dgramin_next() returned */
};

/* Results of dgramin_next(): 0 or negative. */
#define DGRAMIN_OK      0   /* a datagram (*d, *len, r->dline), or the
                               end of the text (*d NULL) */
#define DGRAMIN_EBAD  (-1)  /* a malformed line: why, r->dline */
#define DGRAMIN_EIO   (-2)  /* a read error: why (errno's text) */
#define DGRAMIN_ENOMEM (-3)

/* Read from fd (not closed by dgramin_free). */
void dgramin_init(struct dgramin *r, int fd);

/* The first n bytes of the text, already read from fd (to tell a capture
 * from hex): they come before the rest.  n is at most sizeof r->buf;
 * call before the first dgramin_next. */
void dgramin_prime(struct dgramin *r, const uint8_t *head, size_t n);

/*
 * The next datagram: DGRAMIN_OK with *d pointing into r (valid until the
 * next call) and *len its bytes, or with *d NULL at the end of the text;
 * or an error with a message in why.  A line that is not well formed (a
 * character that is neither a hex digit nor whitespace, an odd number of
 * digits, more than DGRAMIN_MAX bytes) is an error, after which the
 * reader is not used again.
 */
int dgramin_next(struct dgramin *r, uint8_t **d, size_t *len, char *why,
                 size_t size);

/* Wipe the buffers (datagrams may hold unprotected headers) and free. */
void dgramin_free(struct dgramin *r);

#endif
