/* SPDX-License-Identifier: MIT */
/*
 * unprotect.h - hp-mask's packet engine: the packets of UDP datagrams with
 * their header protection removed and their AEAD tags checked, connection
 * by connection, and a packet protected (--protect) through the same
 * header, placement and key code.
 *
 * A datagram is split into its packets (datagram.h).  Each packet's
 * connection is found by its DCID (quicconn.h), and with it the key to
 * try: the connection's Initial keys (the DCID of its client's first
 * Initial), or the key-log secrets of its client random, which the
 * ClientHello in its client's Initial CRYPTO frames gives (quicframe.h),
 * as Wireshark matches them; the side that sent the packet is the one
 * that does not own the DCID.  A try removes header protection with the
 * key's hp context (one AES call, libaesecb) and checks the tag
 * (pktkeys.h); the first key that verifies is the packet's, and what it
 * tells is learnt: its number space's largest packet number, the
 * connection's IDs (long headers, NEW_CONNECTION_ID frames), the
 * ClientHello's random.
 *
 * A packet found in no connection is tried against what may be its key
 * without a handshake to say so: a client's first Initial against the
 * Initial keys of its own DCID (and of --odcid); with a key log, the
 * secrets of its level that no ClientHello seen claims (a capture that
 * starts late), at each DCID length for a short header.  That costs up to
 * 2 x 21 x U tries for a packet (U such key-log connections), once per
 * connection ID: the one that verifies joins the packet's connection to
 * that key-log connection.  One traffic secret (--secret) or a bare hp key
 * (-k) is tried on every packet.
 *
 * Memory grows with the connections only (quicconn.h), and with the
 * key-log connections whose keys were made ready (pktkeys.h).
 *
 * No printing and no exit: each part of a datagram is handed to a
 * callback.
 */
#ifndef AESECB_UNPROTECT_H
#define AESECB_UNPROTECT_H

#include <stddef.h>
#include <stdint.h>

#include "aesecb.h"
#include "quic/datagram.h"
#include "quic/hpconf.h"
#include "quic/keylog.h"
#include "quic/quic.h"
#include "quic/quicconn.h"

struct pk_keys;

/* What a capture says of a datagram (nothing for hex input). */
struct up_meta {
	int have_frame;
	uint64_t frame;            /* its frame number, from 1 */
	int have_time;
	int64_t sec;               /* its time stamp */
	uint32_t nsec;
	struct qc_addr src, dst;   /* len 0: not known */
};

/* What became of one part of a datagram. */
enum up_verdict {
	UP_AUTHENTICATED = 0,  /* header protection removed, tag verified */
	UP_FAILED,             /* no key tried verified the tag */
	UP_TRUNCATED,          /* header protection removed; the payload is
	                          not all there (a prefix, --pn-offset) */
	UP_NO_PACKET_KEY,      /* header protection removed with a bare hp
	                          key: the payload not checked */
	UP_SKIPPED,            /* no keys of the packet's type or version */
	UP_PADDING,            /* zero bytes after the last packet */
	UP_NO_PROTECTION,      /* Retry or Version Negotiation */
	UP_INVALID,            /* the header cannot be parsed */
	UP_PROTECTED           /* --protect: header protection applied */
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
	UP_DCID_REMEMBERED     /* its connection's client's first DCID */
};

/* The likely causes of a failure. */
#define UP_HINT_ODCID     1u  /* an Initial of no connection seen: give
                                 --odcid */
#define UP_HINT_CHACHA    2u  /* a 32-byte secret was tried: the
                                 connection may use ChaCha20-Poly1305 */
#define UP_HINT_DCIDLEN   8u  /* a short header's DCID length was guessed */
#define UP_HINT_NOSECRETS 16u /* its ClientHello's random is on no line of
                                 the key logs */
#define UP_HINT_NOCONN    32u /* its DCID is of no connection seen, and no
                                 key-log secret without a ClientHello
                                 verifies it */

struct up_packet {
	enum up_verdict verdict;
	enum dgram_kind kind;
	const struct up_meta *meta;   /* the datagram's (may be NULL) */
	size_t index;              /* 1, 2, ... within the datagram */
	size_t offset, len;        /* within the datagram */
	const uint8_t *bytes;      /* the packet in the datagram: with its
	                              header protection removed when the
	                              verdict says so, else as received */
	enum quic_packet_type type;
	uint32_t version;          /* long headers; 0 for short ones */
	const uint8_t *dcid;       /* in bytes */
	size_t dcid_len;
	size_t conn;               /* its connection's index, 0: none */
	/* header protection removed (or applied): */
	size_t pn_offset;
	uint32_t pn_len;           /* 1 to 4 */
	uint32_t truncated_pn;     /* as sent */
	uint64_t pn;               /* the full packet number */
	int pn_known;              /* a largest packet number was known */
	int key_phase;             /* 1-RTT: the key phase bit */
	/* the key (AUTHENTICATED; for FAILED the one key given, if one) */
	enum up_source source;
	int server;                /* the side that sent it: 1 server */
	size_t keylog_conn;        /* UP_SRC_KEYLOG: index in the key log */
	enum keylog_label keylog_label;
	uint32_t generation;       /* 1-RTT: key generation (0, 1, ...) */
	uint32_t missed_updates;   /* key updates before it not seen */
	enum up_dcid_from dcid_from;  /* UP_SRC_INITIAL */
	uint8_t key_dcid[QUIC_MAX_CID_LEN];
	size_t key_dcid_len;
	const struct pk_keys *keys;   /* the key it names (valid during the
	                                 callback): up_mask() */
	size_t candidates;         /* tries */
	unsigned hints;            /* UP_HINT_*, for FAILED */
	/* UP_SKIPPED, UP_NO_PROTECTION, UP_INVALID: why, in words */
	int status;                /* the quic_status of the header parse */
	char why[240];
};

/* Called for each part of a datagram, in order.  A nonzero return stops
 * the datagram and is returned by up_datagram(). */
typedef int up_packet_fn(void *arg, const struct up_packet *p);

struct up_state;

#define UP_ENOMEM (-100)

/*
 * A new engine for cfg (its keys copied and derived: cfg may be wiped
 * after) and the key logs read into kl (NULL when none; kl must outlive
 * the engine).  Returns QUIC_OK or UP_ENOMEM, or QUIC_EINVAL when the
 * backend refuses a key (*s NULL on failure).  cfg passed hp_conf_check().
 */
int up_new(struct up_state **s, const struct hp_conf *cfg,
           const struct keylog *kl, const aesecb_backend *be);

/* Wipe and free; NULL is ignored. */
void up_free(struct up_state *s);

/*
 * The packets of the datagram d[0..len), in place: fn is called for each
 * part.  meta, when not NULL, is the capture's word on the datagram.
 * Returns 0, fn's nonzero return, or UP_ENOMEM.
 */
int up_datagram(struct up_state *s, uint8_t *d, size_t len,
                const struct up_meta *meta, up_packet_fn *fn, void *arg);

/*
 * --protect: header protection applied to the packet pkt[0..len), found
 * and keyed as up_datagram finds and keys one (the key the options name:
 * the client's Initial keys unless --server, of --odcid or the packet's
 * DCID; the secret; the hp key).  p says where and what (UP_PROTECTED),
 * or why not (UP_INVALID, UP_NO_PROTECTION, UP_SKIPPED).  0 or UP_ENOMEM.
 */
int up_protect(struct up_state *s, uint8_t *pkt, size_t len,
               struct up_packet *p);

/* The 5-byte mask of a packet p, during its callback (from its key, for
 * the report: the try itself runs AES once).  0, or -1 when p has none. */
int up_mask(const struct up_packet *p, uint8_t mask[5]);

/* The connections so far (for the summary). */
const struct qc_table *up_connections(const struct up_state *s);

/* The verdict in a few words ("authenticated", "not authenticated", ...). */
const char *up_verdict_name(enum up_verdict v);

/*
 * The likely causes of a failure, as one clause, or "" when there is none
 * to give.  Writes at most size bytes (terminated) and returns buf.
 */
char *up_hints_text(const struct up_packet *p, char *buf, size_t size);

#endif
