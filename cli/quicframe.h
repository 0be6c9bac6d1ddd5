/* SPDX-License-Identifier: MIT */
/*
 * quicframe.h - the frames of a QUIC packet whose tag verified (RFC 9000
 * 12.4 and 19; DATAGRAM, RFC 9221), read for what the tool needs to follow
 * connections as Wireshark does: the client's CRYPTO frames of the
 * Initial level, which hold the ClientHello and its random (the key of
 * the connection's secrets in a key log), and NEW_CONNECTION_ID frames
 * (the connection IDs a 1-RTT packet may carry later).
 *
 * The payload is decrypted only where it is read (AES-CTR at GCM's
 * counter, a block at a time: quic_pp_keystream), so that a frame reader
 * that steps over STREAM data costs a few AES blocks a packet, not a
 * second decryption of the whole packet.  Frames are read in order up to
 * the first one of an unknown type or that runs past the end, where the
 * reader stops (the tag verified, so such a packet is the peer's choice,
 * not damage).
 *
 * The ClientHello's random is gathered from CRYPTO frames of any offsets,
 * in any order, over any number of packets: only the first
 * QF_HELLO_PREFIX bytes of the stream are kept (the handshake message's
 * type and length, the legacy version and the random), so the memory of a
 * connection does not grow with its ClientHello.
 *
 * No printing, no exit, no allocation.
 */
#ifndef AESECB_QUICFRAME_H
#define AESECB_QUICFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "quic.h"
#include "quicpp.h"

/* A verified packet's payload, decrypted on demand. */
struct qf_reader {
	const struct quic_aead *aead;
	uint8_t nonce[QUIC_IV_LEN];
	const uint8_t *ct;           /* the payload's ciphertext */
	size_t len;                  /* its bytes, without the tag */
	size_t pos;                  /* the next frame's offset */
	uint64_t block;              /* the block in buf (UINT64_MAX: none) */
	uint8_t buf[16];             /* its plaintext */
	int stopped;                 /* an unknown or malformed frame */
};

/* Frames the reader reports; every other known frame is stepped over. */
enum qf_type {
	QF_CRYPTO = 1,
	QF_NEW_CONNECTION_ID,
	QF_RETIRE_CONNECTION_ID,
	QF_HANDSHAKE_DONE
};

struct qf_frame {
	enum qf_type type;
	/* QF_CRYPTO: the stream offset, and where the data is in the payload
	 * (read it with qf_read) */
	uint64_t offset;
	size_t at, len;
	/* QF_NEW_CONNECTION_ID, QF_RETIRE_CONNECTION_ID */
	uint64_t seq, retire_prior_to;
	uint8_t cid[QUIC_MAX_CID_LEN];
	size_t cid_len;
};

/*
 * The payload of pkt[0..len): the packet number ends at hdr_len, the tag
 * takes the last 16 bytes; pn is the full packet number; a has the packet
 * key it verified with (kept by pointer: it must outlive the reader).
 */
void qf_init(struct qf_reader *r, const struct quic_aead *a,
             const uint8_t *pkt, size_t len, size_t hdr_len, uint64_t pn);

/* The next frame the reader reports: 1 and *f, or 0 at the end (or where
 * it stopped: r->stopped). */
int qf_next(struct qf_reader *r, struct qf_frame *f);

/* n bytes of the payload from offset at into out (within the payload). */
void qf_read(struct qf_reader *r, size_t at, uint8_t *out, size_t n);

/* Wipe the reader's plaintext. */
void qf_done(struct qf_reader *r);

/* ------------------------------------------------------------------ */
/* The ClientHello's random, from the client's Initial CRYPTO frames. */

/* Handshake type (1), length (3), legacy_version (2), random (32). */
#define QF_HELLO_PREFIX 38
#define QF_RANDOM_LEN 32

struct qf_hello {
	uint8_t b[QF_HELLO_PREFIX];
	uint64_t have;               /* bit i: byte i is known */
};

/* The bytes of a CRYPTO frame that fall in the prefix. */
void qf_hello_add(struct qf_hello *h, struct qf_reader *r,
                  const struct qf_frame *f);

/*
 * 1 and the random when the prefix is whole and is a ClientHello's
 * (handshake type 1, legacy_version 0x0303), -1 when it is whole and is
 * not, 0 while bytes are missing.
 */
int qf_hello_random(const struct qf_hello *h, uint8_t random[QF_RANDOM_LEN]);

#endif
