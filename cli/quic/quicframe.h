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
 * The ClientHello's random, and the ServerHello's cipher suite, are
 * gathered from CRYPTO frames of any offsets, in any order, over any
 * number of packets: only the first QF_HELLO_PREFIX bytes of each side's
 * stream are kept (the handshake message's type and length, the legacy
 * version, the random, the session ID, the suite), so the memory of a
 * connection does not grow with its handshake.
 *
 * No printing, no exit, no allocation.
 */
#ifndef AESECB_QUICFRAME_H
#define AESECB_QUICFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "quic/quic.h"
#include "quic/quicpp.h"

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

/*@ // A reader over a payload of r->len readable bytes at r->ct, apart
    // from the reader, its next frame at r->pos within it.
    predicate qf_reader_ok(struct qf_reader *r) =
      \valid(r) && \valid_read(r->aead) && r->pos <= r->len &&
      \valid_read(r->ct + (0 .. r->len - 1)) &&
      \separated(r, r->ct + (0 .. r->len - 1));
*/

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
/* The start of a side's Initial CRYPTO stream: the ClientHello's random,
 * the ServerHello's cipher suite. */

/* Handshake type (1), length (3), legacy_version (2), random (32),
 * legacy_session_id (1 + up to 32), cipher_suite (2): the most kept. */
#define QF_HELLO_PREFIX 73
#define QF_RANDOM_LEN 32

/* TLS 1.3's cipher suites (RFC 8446 B.4) QUIC uses. */
#define QF_TLS_AES_128_GCM_SHA256       0x1301
#define QF_TLS_AES_256_GCM_SHA384       0x1302
#define QF_TLS_CHACHA20_POLY1305_SHA256 0x1303

struct qf_hello {
	uint8_t b[QF_HELLO_PREFIX];
	uint64_t have[2];            /* bit i: byte i is known */
};

/* The bytes of a CRYPTO frame that fall in the prefix. */
void qf_hello_add(struct qf_hello *h, struct qf_reader *r,
                  const struct qf_frame *f);

/*
 * A ClientHello's random: 1 and the random once its first 38 bytes are
 * in and are a ClientHello's (handshake type 1, legacy_version 0x0303),
 * -1 when they are in and are not, 0 while bytes are missing.
 */
int qf_hello_random(const struct qf_hello *h, uint8_t random[QF_RANDOM_LEN]);

/*
 * A ServerHello's cipher suite, the same way: 1 and *suite once the bytes
 * through it are in (type 2, legacy_version 0x0303; its position follows
 * the legacy_session_id, empty in QUIC), -1, or 0.
 */
int qf_hello_suite(const struct qf_hello *h, unsigned *suite);

#endif
