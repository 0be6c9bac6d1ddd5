/* SPDX-License-Identifier: MIT */
/*
 * quicconn.h - the QUIC connections of a capture, found by connection ID
 * as Wireshark finds them.
 *
 * A connection is made when its client's first Initial authenticates
 * (or, in a capture that starts late, when a packet authenticates with a
 * key-log secret no ClientHello claimed).  Its connection IDs are learnt
 * from the long headers (each side's SCID; the client's first DCID, which
 * keys the Initials) and from NEW_CONNECTION_ID frames, each with the side
 * that owns it: the one that receives the packets that carry it.  A table
 * under a keyed hash (siphash.h) finds a packet's connection from its DCID
 * in constant time, and a short header's DCID, whose length the packet
 * does not say, at each length a connection ID of the capture has.  A
 * zero-length connection ID tells connections apart only by the address
 * of its owner, when the datagram has one (a capture; a hex stream has
 * none, and then every connection with an empty ID is a match).
 *
 * A connection ID is kept for at most QC_MAX_SHARED connections: past
 * them, the least recently active one forgets it (counted).  Connection
 * IDs are random, so only a zero-length one without an address (a hex
 * stream) or a hostile input has more; the bound keeps the time a lookup
 * takes, and the keys a packet is tried with, within it.  The connections
 * of a zero-length ID without an address are a list of their own, most
 * recently active first (qc_touch moves a connection to its head), so
 * that a lookup gives them in that order at no cost of sorting.
 *
 * What a connection keeps does not grow with its packets: at most
 * QC_MAX_CIDS connection IDs a side (the oldest forgotten first, and
 * counted), the largest packet number of each number space of each side,
 * the first QF_HELLO_PREFIX bytes of each side's CRYPTO stream, counters
 * for the summary.  The table grows with the connections only.
 *
 * No printing, no exit.
 */
#ifndef AESECB_QUICCONN_H
#define AESECB_QUICCONN_H

#include <stddef.h>
#include <stdint.h>

#include "quic/quic.h"
#include "quic/quicframe.h"

#define QC_CLIENT 0
#define QC_SERVER 1
#define QC_MAX_CIDS 16          /* connection IDs kept of each side */
#define QC_MAX_SHARED 1024          /* connections that share an ID */

/* Packet-number spaces (RFC 9000 12.3). */
enum { QC_SPACE_INITIAL = 0, QC_SPACE_HANDSHAKE, QC_SPACE_APP, QC_SPACES };

/* An endpoint's address: IP address and port, as bytes (len 0: none). */
#define QC_ADDR_MAX 18
struct qc_addr {
	uint8_t len;
	uint8_t bytes[QC_ADDR_MAX];
};

struct qc_cid {
	uint8_t id[QUIC_MAX_CID_LEN];
	uint8_t len;
	uint64_t seq;
	struct qc_addr addr;        /* the owner's, for a zero-length ID */
};

/* Packets of each kind, for the summary. */
enum qc_count {
	QC_N_INITIAL = 0, QC_N_0RTT, QC_N_HANDSHAKE, QC_N_1RTT,
	QC_N_AUTHENTICATED, QC_N_FAILED, QC_N_SKIPPED, QC_N_NOT_CHECKED,
	QC_N_NO_PROTECTION, QC_NCOUNTS
};

struct pk_keys;

struct qc_conn {
	size_t index;               /* 1, 2, ... in the order first seen */
	uint32_t version;           /* of its long headers (0: none seen) */
	int have_odcid;             /* the DCID its Initial keys derive from:
	                               the client's first (or after a Retry,
	                               the Retry's SCID) */
	uint8_t odcid[QUIC_MAX_CID_LEN];
	size_t odcid_len;
	struct pk_keys *initial;    /* both sides' Initial keys, or NULL */
	/* the ClientHello's random: gathering (0), found (1), none (-1) */
	struct qf_hello hello;
	int hello_state;
	uint8_t random[QF_RANDOM_LEN];
	/* the ServerHello's cipher suite, the same way */
	struct qf_hello server_hello;
	int suite_state;
	unsigned suite;
	int retried;                /* a Retry to its client was seen: its
	                               next Initial has another DCID */
	size_t keylog;              /* its key-log connection, or KEYLOG_NONE */
	int keylog_by_trial;        /* found by trying (no ClientHello seen) */
	uint64_t largest[2][QC_SPACES];   /* per sending side; QUIC_PN_NONE */
	struct qc_cid cids[2][QC_MAX_CIDS];  /* each side's, by age */
	size_t ncids[2];
	unsigned long cids_forgotten;
	size_t key_len;             /* its packet keys' (16, 32), 0 unknown */
	unsigned long count[QC_NCOUNTS];
	uint64_t last;              /* when a packet of it last verified (the
	                               most recent is the first match) */
	/* each side's place in the list of zero-length IDs without an
	 * address (struct qc_table) */
	struct qc_anon {
		struct qc_anon *prev, *next;
		struct qc_conn *conn;
		int side, in;
	} anon[2];
	unsigned long missed_updates;     /* key updates not in the capture */
	struct qc_addr addr[2];     /* each side's, as last learnt */
};

/* A connection and the side that owns a connection ID of it. */
struct qc_match {
	struct qc_conn *conn;
	int side;
	size_t cid_len;
};

struct qc_entry;
struct qc_path;

struct qc_table {
	struct qc_conn **conns;
	size_t n, cap;
	struct qc_entry *slots;     /* open addressing, a power of two */
	size_t nslots, used, dead;
	unsigned long lens[QUIC_MAX_CID_LEN + 1];   /* IDs of each length */
	struct qc_path *paths;      /* client and server addresses (open
	                               addressing, a power of two) */
	size_t npaths, paths_used;
	/* zero-length IDs without an address: connection and side, the most
	 * recently active first */
	struct qc_anon *anon_head, *anon_tail;
	size_t anon_n;
};

#define QC_ENOMEM (-1)

void qc_init(struct qc_table *t);

/* Free everything; each connection's Initial keys through free_keys. */
void qc_free(struct qc_table *t, void (*free_keys)(struct pk_keys *));

/* A new connection (its index the count), or NULL when out of memory. */
struct qc_conn *qc_new(struct qc_table *t);

/*
 * Connection ID id[0..len) belongs to side of c, with sequence number seq
 * (0 for a long header's SCID; a zero-length ID with the owner's address,
 * or NULL).  Known already: nothing changes.  When the side has
 * QC_MAX_CIDS, its oldest is forgotten (c->cids_forgotten).  0 or
 * QC_ENOMEM.
 */
int qc_learn(struct qc_table *t, struct qc_conn *c, int side,
             const uint8_t *id, size_t len, uint64_t seq,
             const struct qc_addr *addr);

/* The client's first DCID (the key of Initial packets): a connection ID
 * of the server's side that is not counted among its QC_MAX_CIDS. */
int qc_learn_odcid(struct qc_table *t, struct qc_conn *c, const uint8_t *id,
                   size_t len, const struct qc_addr *addr);

/* A NEW_CONNECTION_ID's Retire Prior To: the side's IDs below it go. */
void qc_retire_prior(struct qc_table *t, struct qc_conn *c, int side,
                     uint64_t retire_prior_to);

/*
 * The client of c sends from client and the server from server (a
 * capture's addresses): a packet between them, whatever its DCID, is
 * found to be c's by qc_find_path.  0 or QC_ENOMEM.
 */
int qc_learn_path(struct qc_table *t, struct qc_conn *c,
                  const struct qc_addr *client, const struct qc_addr *server);

/* The most recent connection whose two endpoints are src and dst: NULL,
 * or it and *dst_side, the side dst is. */
struct qc_conn *qc_find_path(const struct qc_table *t,
                             const struct qc_addr *src,
                             const struct qc_addr *dst, int *dst_side);

/* A packet of c verified at time now (c->last): the first match among
 * the connections that share an ID. */
void qc_touch(struct qc_table *t, struct qc_conn *c, uint64_t now);

/*
 * The connections a DCID of exactly len bytes belongs to (the receiver's
 * address for a zero-length one), at most max into m, the most recently
 * active first.  Returns how many there are (it may exceed max).
 */
size_t qc_find(const struct qc_table *t, const uint8_t *id, size_t len,
               const struct qc_addr *addr, struct qc_match *m, size_t max);

/*
 * The same for a short header's DCID, which starts at pkt[1] and whose
 * length the packet does not say: at every length a connection ID of the
 * table has (dcid_len, when not QUIC_DCID_LEN_UNKNOWN, only).
 */
size_t qc_find_short(const struct qc_table *t, const uint8_t *pkt, size_t len,
                     size_t dcid_len, const struct qc_addr *addr,
                     struct qc_match *m, size_t max);

#endif
