/* SPDX-License-Identifier: MIT */
/*
 * unprotect.h - removing QUIC header protection from the packets of UDP
 * datagrams and checking each packet's AEAD tag, with keys from the
 * options of "aesecb hp-mask --unprotect": Initial keys, a traffic
 * secret, a TLS key log, or a bare header-protection key.
 *
 * A datagram is split into its packets (datagram.h).  For each packet the
 * candidate keys of its type are tried in turn: header protection is
 * removed from a copy with the candidate's hp key (libaesecb), the packet
 * number is recovered from the largest one seen in its number space
 * (quicpp.h), and the AEAD tag is checked with the candidate's packet key.
 * The first candidate whose tag verifies is the packet's key: the
 * datagram's bytes of that packet are replaced by the copy, so that they
 * hold the packet with its header protection removed and its payload
 * still sealed (what --protect takes back).  Candidates:
 *   - Initial packets (with up_config.initial): the Initial keys of the
 *     packet's own DCID (the client's first Initial), of --odcid, and of
 *     the original DCIDs remembered from the client Initials of the same
 *     stream (a client's later Initials carry the server's CID, a server's
 *     Initials the client's: both are keyed by the client's first DCID),
 *     each for the client and the server side;
 *   - Handshake, 0-RTT, 1-RTT packets: the secrets of their level in the
 *     key log, both sides (a packet does not say who sent it), or the one
 *     traffic secret; 1-RTT packets also the next (and previous) key
 *     generation of a secret whose current one fails ("quic ku");
 *   - with a bare hp key (-k) every packet has only header protection
 *     removed: there is no packet key to check the payload with.
 * The state kept between datagrams (the largest packet number of each
 * number space of each side of a connection, known by the key that
 * verified its packets, or with a bare hp key by the DCID; the
 * connection IDs seen in long
 * headers, which tell a short header's DCID length, the original DCIDs,
 * the key that worked for a DCID, key generations) lives in tables of
 * fixed size, the least recently used entry replaced when one is full, so
 * that a stream of any length runs in flat memory.
 *
 * No printing and no exit: each part of a datagram is handed to a
 * callback.
 */
#ifndef AESECB_UNPROTECT_H
#define AESECB_UNPROTECT_H

#include <stddef.h>
#include <stdint.h>

#include "aesecb.h"
#include "datagram.h"
#include "keylog.h"
#include "quic.h"

/* Table sizes (entries). */
#define UP_MAX_CIDS    256   /* connection IDs seen in long headers */
#define UP_MAX_SPACES  1024  /* packet-number spaces */
#define UP_MAX_ODCIDS  64    /* original DCIDs of client Initials */
#define UP_MAX_MATCHES 256   /* the key that worked for a DCID */
#define UP_MAX_KU      1024  /* key generations of 1-RTT secrets */

/* Where the keys come from.  initial may stand with secret or keylog
 * (Initial packets from the one, the others from the other). */
struct up_config {
	const aesecb_backend *backend;   /* for the hp keys */
	int initial;                     /* Initial keys */
	int server_only;                 /* --server: only the server's */
	int have_odcid;
	uint8_t odcid[QUIC_MAX_CID_LEN];
	size_t odcid_len;
	int have_secret;                 /* one traffic secret */
	uint8_t secret[QUIC_MAX_HASH_LEN];
	size_t secret_len;
	enum quic_hash hash;
	const struct keylog *keylog;     /* a key log, or NULL */
	int have_hp_key;                 /* a bare hp key */
	uint8_t hp_key[QUIC_MAX_KEY_LEN];
	size_t hp_key_len;
	uint32_t version;                /* short headers, and secrets without
	                                    a long header: 1 or 2 */
	int version_given;               /* version was given: short headers
	                                    use it rather than what the
	                                    stream said of their connection */
	size_t dcid_len;                 /* short headers' DCID length, or
	                                    QUIC_DCID_LEN_UNKNOWN: learnt
	                                    from the long headers' SCIDs */
	/* the first packet of the datagram only: */
	int have_pn_offset;              /* the packet number's offset given */
	size_t pn_offset;
};

/* What became of one part of a datagram. */
enum up_verdict {
	UP_AUTHENTICATED = 0,  /* header protection removed, tag verified */
	UP_FAILED,             /* no candidate's tag verified */
	UP_TRUNCATED,          /* header protection removed; the payload is
	                          not all there (a prefix, --pn-offset) */
	UP_NO_PACKET_KEY,      /* header protection removed with a bare hp
	                          key: the payload not checked */
	UP_SKIPPED,            /* no keys of the packet's type were given */
	UP_PADDING,            /* zero bytes after the last packet */
	UP_REFUSED,            /* Retry or Version Negotiation: no header
	                          protection */
	UP_INVALID             /* the header cannot be parsed */
};

/* Which key a packet was unprotected with. */
enum up_source {
	UP_SRC_NONE = 0,
	UP_SRC_INITIAL,        /* Initial keys of key_dcid */
	UP_SRC_SECRET,         /* the traffic secret */
	UP_SRC_KEYLOG,         /* keylog_conn, keylog_label */
	UP_SRC_HP_KEY          /* the bare hp key */
};

/* Where an Initial key's DCID came from. */
enum up_dcid_from {
	UP_DCID_OWN = 0,       /* the packet's own DCID */
	UP_DCID_OPTION,        /* --odcid */
	UP_DCID_REMEMBERED     /* a client Initial earlier in the stream */
};

/* Reasons for a failure, for the message that names the likely causes. */
#define UP_HINT_ODCID   1u  /* an Initial tried without the client's first
                               DCID: give --odcid */
#define UP_HINT_CHACHA  2u  /* a 32-byte secret was tried: the connection
                               may use ChaCha20-Poly1305 */
#define UP_HINT_PN      4u  /* no packet number known in the space: the
                               truncated one was taken as the full one */
#define UP_HINT_DCIDLEN 8u  /* a short header's DCID length was guessed
                               from the connection IDs seen */

struct up_packet {
	enum up_verdict verdict;
	enum dgram_kind kind;
	size_t index;              /* 1, 2, ... within the datagram */
	size_t offset, len;        /* within the datagram */
	const uint8_t *bytes;      /* the packet in the datagram: with its
	                              header protection removed when verdict
	                              is AUTHENTICATED, TRUNCATED or
	                              NO_PACKET_KEY, else as received */
	enum quic_packet_type type;
	uint32_t version;          /* long headers; 0 for short ones */
	const uint8_t *dcid;       /* in bytes */
	size_t dcid_len;
	/* header protection removed: */
	size_t pn_offset;
	uint32_t pn_len;           /* 1 to 4 */
	uint32_t truncated_pn;     /* as sent */
	uint64_t pn;               /* the full packet number */
	int pn_known;              /* a largest packet number was known */
	uint8_t mask[5];
	int key_phase;             /* 1-RTT: the key phase bit */
	/* the key (AUTHENTICATED; for FAILED the first candidate's) */
	enum up_source source;
	int server;                /* the side that sent it: 1 server */
	size_t keylog_conn;        /* UP_SRC_KEYLOG: index in the key log */
	enum keylog_label keylog_label;
	uint32_t generation;       /* 1-RTT: key generation (0, 1, ...) */
	enum up_dcid_from dcid_from;  /* UP_SRC_INITIAL */
	uint8_t key_dcid[QUIC_MAX_CID_LEN];
	size_t key_dcid_len;
	size_t candidates;         /* keys tried */
	unsigned hints;            /* UP_HINT_*, for FAILED */
	/* UP_REFUSED, UP_INVALID, UP_SKIPPED: why, in words */
	int status;                /* the quic_status of the header parse */
	char why[240];
};

/* Called for each part of a datagram, in order.  A nonzero return stops
 * the datagram and is returned by up_datagram(). */
typedef int up_packet_fn(void *arg, const struct up_packet *p);

struct up_state;

/*
 * A new state for cfg (copied: the secrets and keys in it are the
 * state's, and cfg may be wiped after; the key log must outlive the
 * state).  Returns QUIC_OK, QUIC_EINVAL (no key source, or an unusable
 * combination) or QUIC_ENOMEM... as a negative status, with *s NULL on
 * failure.
 */
#define UP_ENOMEM (-100)
int up_new(struct up_state **s, const struct up_config *cfg);

/* Wipe and free; NULL is ignored. */
void up_free(struct up_state *s);

/*
 * The packets of the datagram d[0..len), in place: fn is called for each
 * part.  Returns 0, fn's nonzero return, or UP_ENOMEM.
 */
int up_datagram(struct up_state *s, uint8_t *d, size_t len,
                up_packet_fn *fn, void *arg);

/* The verdict in a few words ("authenticated", "not authenticated", ...). */
const char *up_verdict_name(enum up_verdict v);

/*
 * The likely causes of a failure, as one clause ("keyed by the client's
 * first DCID: give --odcid; or the connection uses ChaCha20-Poly1305,
 * whose header protection is not AES"), or "" when there is none to give.
 * Writes at most size bytes (terminated) and returns buf.
 */
char *up_hints_text(const struct up_packet *p, char *buf, size_t size);

#endif
