/* SPDX-License-Identifier: MIT */
/*
 * datagram.h - the QUIC packets of a UDP datagram.
 *
 * A datagram may hold several coalesced packets (RFC 9000 12.2): each long
 * header (Initial, 0-RTT, Handshake) ends where its Length field says; a
 * short header (1-RTT) has no length and runs to the end of the datagram;
 * Retry and Version Negotiation packets have no length either and take the
 * rest.  Zero bytes after the last packet are padding.  A packet of an
 * unknown version ends at its Length when it is laid out as version 1's
 * and what follows looks like a packet or padding (the parts after it may
 * then be the guess's mistake).
 *
 * Only the bytes that travel in the clear are read (the first byte's form
 * bit, versions, connection IDs, token and Length fields, the trailing
 * zeros); no printing, no exit, no allocation.
 */
#ifndef AESECB_DATAGRAM_H
#define AESECB_DATAGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "quic/quic.h"

enum dgram_kind {
	DGRAM_PACKET = 0,        /* a QUIC packet */
	DGRAM_PADDING            /* zero bytes to the end of the datagram */
};

/* One part of a datagram. */
struct dgram_part {
	enum dgram_kind kind;
	size_t offset;           /* where it starts in the datagram */
	size_t len;              /* its bytes */
	/* packets: the header as quic_parse_header() read it (short headers
	 * with the DCID length given, or unknown), pointers into the
	 * datagram, and the parse status */
	int status;              /* QUIC_OK, or why the header is not a
	                            protected packet's: QUIC_ENOPROTECTION
	                            (Retry, Version Negotiation),
	                            QUIC_EVERSION, QUIC_ETRUNCATED, ... */
	struct quic_header h;
	int guessed;             /* an unknown version's packet, ended at
	                            its Length by a guess (see above) */
};

/*
 * The part of the datagram d[0..len) that starts at offset pos (< len).
 * Returns 1 and fills *part when there is one, 0 at the end (pos == len).
 * A long header ends at its Length field when that was read (status
 * QUIC_OK, or QUIC_ESAMPLE: too short for its sample; for QUIC_EVERSION,
 * part->guessed); any other packet, and one whose header cannot be
 * parsed, runs to the end of the datagram.
 * short_dcid_len is passed to quic_parse_header() (QUIC_DCID_LEN_UNKNOWN:
 * a short header's status is QUIC_ENODCIDLEN, its extent known all the
 * same).  Zero bytes from pos to the end, after a first packet, are
 * padding; a datagram that starts with a zero byte is a (malformed)
 * short header.
 */
/*@ requires part == \null || \valid(part);
    requires d == \null || \valid_read(d + (0 .. len - 1));
    requires part == \null || \separated(part, d + (0 .. len - 1));
    assigns *part;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> part->offset == pos &&
                              0 < part->len <= len - pos;
    ensures \result == 1 && part->kind == DGRAM_PACKET &&
            part->status == QUIC_OK ==>
              part->len == part->h.packet_len &&
              part->h.sample_offset + QUIC_SAMPLE_LEN <= part->len;
*/
int dgram_next(const uint8_t *d, size_t len, size_t pos,
               size_t short_dcid_len, struct dgram_part *part);

#endif
