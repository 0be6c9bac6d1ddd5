/* SPDX-License-Identifier: MIT */
/*
 * datagram.c - the QUIC packets of a UDP datagram.  See datagram.h.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "quic/datagram.h"

/* Whether d[0..n) are all zero (bytes outside any packet, in the clear). */
/*@ requires \valid_read(d + (0 .. n - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
*/
static int all_zero(const uint8_t *d, size_t n)
{
	uint8_t acc = 0;
	size_t i;

	/*@ loop invariant 0 <= i <= n;
	    loop assigns i, acc;
	    loop variant n - i; */
	for (i = 0; i < n; i++)
		acc |= d[i];
	return acc == 0;
}

/* Whether a packet of an unknown version, laid out as version 1's, ends
 * where its Length says: the bytes after it are padding, or start with
 * the fixed bit of a QUIC packet. */
/*@ requires end <= len && \valid_read(d + (0 .. len - 1));
    assigns \nothing;
*/
static int guess_holds(const uint8_t *d, size_t len, size_t end)
{
	return end == len || (d[end] & 0x40u) != 0 ||
	       all_zero(d + end, len - end);
}

int dgram_next(const uint8_t *d, size_t len, size_t pos,
               size_t short_dcid_len, struct dgram_part *part)
{
	const uint8_t *p = d + pos;
	size_t rest;

	if (part == NULL || d == NULL || pos >= len)
		return 0;
	//@ assert in_datagram: pos < len;
	*part = (struct dgram_part){ 0 };
	rest = len - pos;
	part->offset = pos;
	if (pos != 0 && all_zero(p, rest)) {
		part->kind = DGRAM_PADDING;
		part->len = rest;
		return 1;
	}
	part->kind = DGRAM_PACKET;
	part->status = quic_parse_header(p, rest, short_dcid_len, &part->h);
	/* a long header of known extent ends at its Length; anything else,
	 * parsed or not, runs to the end of the datagram */
	if ((part->status == QUIC_OK || part->status == QUIC_ESAMPLE) &&
	    part->h.long_header && part->h.packet_len != 0)
		part->len = part->h.packet_len;
	else if (part->status == QUIC_EVERSION && part->h.extent_guessed &&
	         guess_holds(d, len, pos + part->h.packet_len))
		part->len = part->h.packet_len;
	else
		part->len = rest;
	part->guessed = part->status == QUIC_EVERSION && part->len < rest;
	return 1;
}
