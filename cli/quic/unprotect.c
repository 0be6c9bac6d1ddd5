/* SPDX-License-Identifier: MIT */
/*
 * unprotect.c - hp-mask's packet engine.  See unprotect.h.
 *
 * Branches are taken on the header bytes in the clear (forms, versions,
 * connection IDs, lengths), on the key source, and on whether a tag
 * verified, which is the result; the bytes under header protection and the
 * keys are handled by pktkeys.c.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"
#include "quic/pktkeys.h"
#include "quic/quicframe.h"
#include "quic/quicpp.h"
#include "common/siphash.h"
#include "quic/unprotect.h"


/* One key to try on a packet. */
struct cand {
	enum up_source source;
	int side;                     /* the sender: QC_CLIENT, QC_SERVER, or
	                                 -1 when the key does not say */
	struct pk_keys *keys;
	struct qc_conn *conn;         /* the packet's connection, if known */
	size_t kl_conn;               /* UP_SRC_KEYLOG */
	enum keylog_label label;
	int fallback;                 /* a key-log secret no ClientHello
	                                 claimed: claimed if it verifies */
	enum up_dcid_from from;       /* UP_SRC_INITIAL */
	uint8_t dcid[QUIC_MAX_CID_LEN];
	size_t dcid_len;
};

/* A connection ID of no connection that the key-log secrets no ClientHello
 * claimed do not verify: not tried with them again (they only become
 * fewer).  An empty one is its owner's address's (a capture's; none in a
 * hex stream).  DEAD_SLOTS of them, a slot by hash, overwritten. */
#define DEAD_SLOTS 4096
struct dead_id {
	uint8_t used, len;
	uint8_t id[QUIC_MAX_CID_LEN];
	struct qc_addr addr;
};

/* Where a packet's packet number may be, and whose DCID that makes it. */
struct place {
	size_t pn_offset;
	const uint8_t *dcid;
	size_t dcid_len;
	uint32_t version;
	struct qc_conn *conn;         /* the DCID's connection, or NULL */
	int owner;                    /* the side that owns the DCID */
};

struct up_state {
	const aesecb_backend *be;
	const struct keylog *kl;
	/* the options the engine reads */
	int initial, server_only, have_odcid, version_given, have_pn_offset;
	uint8_t odcid[QUIC_MAX_CID_LEN];
	size_t odcid_len, dcid_len, pn_offset;
	uint32_t version;
	/* keys */
	int have_secret;
	enum quic_hash hash;
	uint8_t secret[QUIC_MAX_HASH_LEN];
	size_t secret_len;
	struct pk_keys *secret_keys[QUIC_NVERSIONS];
	struct pk_keys *hp_key;               /* -k */
	struct pk_keys *odcid_keys[QUIC_NVERSIONS];  /* [2] each */
	struct pk_keys *own;                  /* [2]: a first Initial's, */
	uint8_t own_dcid[QUIC_MAX_CID_LEN];   /* of this DCID */
	size_t own_dcid_len;
	struct pk_keys **kl_keys;             /* [kl->n * KEYLOG_NLABELS] */
	struct pk_cache cache;                /* their AEADs, made ready */
	unsigned kl_labels;                   /* labels some line has */
	/* key-log connections no ClientHello has claimed; of those, the
	 * sides a trial found (bit per side) and the connection it made */
	size_t *unclaimed, nunclaimed, *unclaimed_at;
	uint8_t *trial_sides;
	struct qc_conn **trial_conn;
	/* connection IDs of no connection that no key-log secret without a
	 * ClientHello verified (a cache: a slot is overwritten) */
	struct dead_id *dead;
	/* connections */
	struct qc_table conns;
	unsigned versions_seen;               /* bit per version index */
	uint32_t last_version;                /* of the last long header
	                                         that verified */
	uint64_t loose[QC_SPACES];            /* packets of no connection */
	uint64_t clock;                       /* packets verified */
	/* per packet */
	struct qc_match *matches;             /* of its connection IDs */
	size_t matches_cap;
	struct place *places;
	size_t places_cap;
	/* per datagram */
	const struct up_meta *meta;
	int hp_key_used;
	struct cand *cands;
	size_t cands_cap;
	struct up_packet *held;               /* one secret alone */
	size_t held_cap;
	uint8_t *orig;
	size_t orig_cap;
};

/* ------------------------------------------------------------------ */
/* Keys, made ready once. */

static struct pk_keys *keys_alloc(size_t n)
{
	size_t size = n * sizeof(struct pk_keys);
	struct pk_keys *k = aligned_alloc(_Alignof(struct pk_keys), size);

	if (k != NULL)
		memset(k, 0, size);
	return k;
}

static void keys_free(struct pk_keys *k, size_t n)
{
	size_t i;

	if (k == NULL)
		return;
	for (i = 0; i < n; i++)
		pk_wipe(&k[i]);
	free(k);
}

static void initial_free(struct pk_keys *k)
{
	keys_free(k, 2);
}

static int version_bit(uint32_t v)
{
	int i = quic_version_index(v);

	return i < 0 ? 0 : 1 << i;
}

/* The two sides' Initial keys of a DCID under version v, in *slot
 * (allocated, or made again for another version); NULL when the
 * version is unknown or memory is short. */
static struct pk_keys *initial_keys(struct up_state *s, struct pk_keys **slot,
                                    uint32_t v, const uint8_t *dcid,
                                    size_t len)
{
	if (*slot != NULL && (*slot)[0].ready && (*slot)[0].version == v)
		return *slot;
	if (*slot == NULL && (*slot = keys_alloc(2)) == NULL)
		return NULL;
	if (pk_from_initial(*slot, v, dcid, len, s->be, &s->cache) != QUIC_OK)
		return NULL;
	return *slot;
}

/* The Initial keys of a packet's own DCID (a client's first Initial). */
static struct pk_keys *own_keys(struct up_state *s, uint32_t v,
                                const uint8_t *dcid, size_t len)
{
	if (s->own[0].ready && s->own[0].version == v &&
	    s->own_dcid_len == len && memcmp(s->own_dcid, dcid, len) == 0)
		return s->own;
	if (pk_from_initial(s->own, v, dcid, len, s->be, &s->cache) !=
	    QUIC_OK)
		return NULL;
	memcpy(s->own_dcid, dcid, len);
	s->own_dcid_len = len;
	return s->own;
}

/* The keys of the one secret under version v. */
static struct pk_keys *secret_keys(struct up_state *s, uint32_t v)
{
	int i = quic_version_index(v);
	struct pk_keys **slot;

	if (i < 0)
		return NULL;
	slot = &s->secret_keys[i];
	if (*slot == NULL) {
		if ((*slot = keys_alloc(1)) == NULL ||
		    pk_from_secret(*slot, s->hash, v, s->secret, s->secret_len,
		                   1, s->be, &s->cache) != QUIC_OK)
			return NULL;
	}
	return *slot;
}

static int is_server_label(enum keylog_label l)
{
	return l == KEYLOG_SERVER_HANDSHAKE || l == KEYLOG_SERVER_TRAFFIC;
}

/* The keys of a key-log secret under version v (made again when another
 * version is asked for: a connection that changed version). */
static struct pk_keys *keylog_keys(struct up_state *s, size_t conn,
                                   enum keylog_label label, uint32_t v)
{
	const struct keylog_conn *c = &s->kl->conns[conn];
	struct pk_keys **slot = &s->kl_keys[conn * KEYLOG_NLABELS + label];

	if (*slot != NULL && (*slot)->version == v)
		return *slot;
	if (*slot == NULL && (*slot = keys_alloc(1)) == NULL)
		return NULL;
	if (pk_from_secret(*slot, c->secret_len == 48 ? QUIC_SHA384 :
	                   QUIC_SHA256, v, c->secret[label], c->secret_len,
	                   label == KEYLOG_CLIENT_TRAFFIC ||
	                   label == KEYLOG_SERVER_TRAFFIC, s->be, &s->cache) !=
	    QUIC_OK) {
		keys_free(*slot, 1);
		*slot = NULL;
	}
	return *slot;
}

/* The key-log connection conn is a ClientHello's (or both its sides were
 * found by trial): no longer tried on connections with no ClientHello. */
static void claim(struct up_state *s, size_t conn)
{
	size_t at = s->unclaimed_at[conn], last;

	if (at == KEYLOG_NONE)
		return;
	last = s->unclaimed[--s->nunclaimed];
	s->unclaimed[at] = last;
	s->unclaimed_at[last] = at;
	s->unclaimed_at[conn] = KEYLOG_NONE;
}

/* ------------------------------------------------------------------ */
/* State. */

static int setup_keylog(struct up_state *s, const struct keylog *kl)
{
	size_t i, k;

	s->kl = kl;
	s->kl_keys = calloc(kl->n * KEYLOG_NLABELS + 1, sizeof *s->kl_keys);
	s->unclaimed = calloc(kl->n + 1, sizeof *s->unclaimed);
	s->unclaimed_at = calloc(kl->n + 1, sizeof *s->unclaimed_at);
	s->trial_sides = calloc(kl->n + 1, sizeof *s->trial_sides);
	s->trial_conn = calloc(kl->n + 1, sizeof *s->trial_conn);
	if (s->kl_keys == NULL || s->unclaimed == NULL ||
	    s->unclaimed_at == NULL || s->trial_sides == NULL ||
	    s->trial_conn == NULL)
		return UP_ENOMEM;
	for (i = 0; i < kl->n; i++) {
		s->unclaimed[i] = i;
		s->unclaimed_at[i] = i;
		for (k = 0; k < KEYLOG_NLABELS; k++)
			if (kl->conns[i].have & (1u << k))
				s->kl_labels |= 1u << k;
	}
	s->nunclaimed = kl->n;
	return QUIC_OK;
}

int up_new(struct up_state **sp, const struct hp_conf *cfg,
           const struct keylog *kl, const aesecb_backend *be)
{
	struct up_state *s;
	int st = QUIC_OK;

	*sp = NULL;
	if ((s = calloc(1, sizeof *s)) == NULL)
		return UP_ENOMEM;
	if (pk_cache_init(&s->cache) != QUIC_OK) {
		free(s);
		return UP_ENOMEM;
	}
	s->be = be;
	s->initial = cfg->initial;
	s->server_only = cfg->server_only;
	s->have_odcid = cfg->have_odcid;
	memcpy(s->odcid, cfg->odcid, cfg->odcid_len);
	s->odcid_len = cfg->odcid_len;
	s->version = cfg->version;
	s->version_given = cfg->have_version;
	s->dcid_len = cfg->dcid_len;
	s->have_pn_offset = cfg->have_pn_offset;
	s->pn_offset = cfg->pn_offset;
	s->have_secret = cfg->secret.given;
	s->hash = cfg->hash;
	memcpy(s->secret, cfg->secret.bytes, cfg->secret.len);
	s->secret_len = cfg->secret.len;
	memset(s->loose, 0xff, sizeof s->loose);
	qc_init(&s->conns);
	if (cfg->common.key.given &&
	    ((s->hp_key = keys_alloc(1)) == NULL ||
	     (st = pk_from_hp(s->hp_key, cfg->common.key.bytes,
	                      cfg->common.key.len, be)) != QUIC_OK))
		st = st != QUIC_OK ? st : UP_ENOMEM;
	if (st == QUIC_OK && (s->own = keys_alloc(2)) == NULL)
		st = UP_ENOMEM;
	if (st == QUIC_OK &&
	    (s->dead = calloc(DEAD_SLOTS, sizeof *s->dead)) == NULL)
		st = UP_ENOMEM;
	if (st == QUIC_OK && kl != NULL && cfg->nkeylogs != 0)
		st = setup_keylog(s, kl);
	if (st != QUIC_OK) {
		up_free(s);
		return st;
	}
	*sp = s;
	return QUIC_OK;
}

void up_free(struct up_state *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < QUIC_NVERSIONS; i++) {
		keys_free(s->secret_keys[i], 1);
		keys_free(s->odcid_keys[i], 2);
	}
	keys_free(s->hp_key, 1);
	keys_free(s->own, 2);
	if (s->kl_keys != NULL)
		for (i = 0; i < s->kl->n * KEYLOG_NLABELS; i++)
			keys_free(s->kl_keys[i], 1);
	free(s->kl_keys);
	free(s->unclaimed);
	free(s->unclaimed_at);
	free(s->trial_sides);
	free(s->trial_conn);
	qc_free(&s->conns, initial_free);
	free(s->cands);
	free(s->dead);
	free(s->matches);
	free(s->places);
	free(s->held);
	pk_cache_free(&s->cache);
	if (s->orig != NULL) {
		aesecb_wipe(s->orig, s->orig_cap);
		free(s->orig);
	}
	aesecb_wipe(s, sizeof *s);
	free(s);
}

const struct qc_table *up_connections(const struct up_state *s)
{
	return &s->conns;
}

/* ------------------------------------------------------------------ */
/* Words. */

const char *up_verdict_name(enum up_verdict v)
{
	switch (v) {
	case UP_AUTHENTICATED:
		return "authenticated";
	case UP_FAILED:
		return "not authenticated";
	case UP_TRUNCATED:
		return "not checked (truncated)";
	case UP_NO_PACKET_KEY:
		return "not checked (no packet key with -k)";
	case UP_SKIPPED:
		return "skipped";
	case UP_PADDING:
		return "padding";
	case UP_NO_PROTECTION:
		return "no protection";
	case UP_PROTECTED:
		return "protected";
	case UP_INVALID:
	default:
		return "invalid";
	}
}

/* Append "; or " (unless first) and text to buf, within size. */
static void add_hint(char *buf, size_t size, const char *text)
{
	size_t n = strlen(buf);

	snprintf(buf + n, size - n, "%s%s", n != 0 ? "; or " : "", text);
}

char *up_hints_text(const struct up_packet *p, char *buf, size_t size)
{
	if (buf == NULL || size == 0)
		return buf;
	buf[0] = '\0';
	if (p->hints & UP_HINT_NOSECRETS)
		add_hint(buf, size, "its ClientHello's random is on no line of "
		         "the key log");
	if (p->hints & UP_HINT_NOCONN)
		add_hint(buf, size, "its DCID is of no connection seen, and no "
		         "key-log secret without a ClientHello verifies it");
	if (p->hints & UP_HINT_ODCID)
		add_hint(buf, size, "an Initial is keyed by the client's first "
		         "DCID: give --odcid");
	if (p->hints & UP_HINT_DCIDLEN)
		add_hint(buf, size, "the short header's DCID length is not the "
		         "one given");
	if (p->hints & UP_HINT_CHACHA)
		add_hint(buf, size, buf[0] == '\0' ?
		         "the key is not this packet's, or the connection uses "
		         "ChaCha20-Poly1305, whose header protection is not AES" :
		         "the connection uses ChaCha20-Poly1305, whose header "
		         "protection is not AES");
	return buf;
}

/* ------------------------------------------------------------------ */
/* Candidates. */

static int space_of(enum quic_packet_type t)
{
	return t == QUIC_PT_INITIAL ? QC_SPACE_INITIAL :
	       t == QUIC_PT_HANDSHAKE ? QC_SPACE_HANDSHAKE : QC_SPACE_APP;
}

/* The key-log label of a packet type sent by a side (-1: none). */
static int label_of(enum quic_packet_type t, int side)
{
	switch (t) {
	case QUIC_PT_HANDSHAKE:
		return side == QC_SERVER ? KEYLOG_SERVER_HANDSHAKE
		                         : KEYLOG_CLIENT_HANDSHAKE;
	case QUIC_PT_0RTT:
		return side == QC_CLIENT ? KEYLOG_CLIENT_EARLY : -1;
	case QUIC_PT_1RTT:
		return side == QC_SERVER ? KEYLOG_SERVER_TRAFFIC
		                         : KEYLOG_CLIENT_TRAFFIC;
	default:
		return -1;
	}
}

/* Room for n more candidates. */
static int cands_room(struct up_state *s, size_t have, size_t more)
{
	size_t cap = s->cands_cap;
	struct cand *c;

	if (have + more <= cap)
		return 0;
	while (cap < have + more)
		cap = cap == 0 ? 16 : 2 * cap;
	if ((c = realloc(s->cands, cap * sizeof *c)) == NULL)
		return UP_ENOMEM;
	s->cands = c;
	s->cands_cap = cap;
	return 0;
}

static int add_cand(struct up_state *s, size_t *n, const struct cand *c)
{
	if (c->keys == NULL)
		return 0;                 /* a key that cannot be made */
	if (cands_room(s, *n, 1) != 0)
		return UP_ENOMEM;
	s->cands[(*n)++] = *c;
	return 0;
}

static void initial_cand(struct cand *c, struct pk_keys *pair, int side,
                         enum up_dcid_from from, const uint8_t *dcid,
                         size_t len, struct qc_conn *conn)
{
	memset(c, 0, sizeof *c);
	c->source = UP_SRC_INITIAL;
	c->side = side;
	c->keys = pair != NULL ? &pair[side] : NULL;
	c->from = from;
	memcpy(c->dcid, dcid, len);
	c->dcid_len = len;
	c->conn = conn;
}

/*
 * The Initial keys to try on a packet at pl: --odcid's (the client's
 * unless --server, then the server's), its connection's for the side
 * that does not own the DCID, then its own DCID's, a client's first.
 */
static int initial_cands(struct up_state *s, const struct place *pl,
                         struct qc_conn *scid_conn, size_t *n)
{
	int vi = quic_version_index(pl->version), side, rc = 0;
	struct cand c;

	if (vi < 0)
		return 0;
	if (s->have_odcid) {
		struct pk_keys *k = initial_keys(s, &s->odcid_keys[vi],
		                                 pl->version, s->odcid,
		                                 s->odcid_len);

		for (side = s->server_only; side < 2 && rc == 0; side++) {
			initial_cand(&c, k, side, UP_DCID_OPTION, s->odcid,
			             s->odcid_len, pl->conn);
			rc = add_cand(s, n, &c);
		}
	}
	if (rc == 0 && pl->conn != NULL && pl->conn->have_odcid &&
	    !(s->server_only && pl->owner == QC_SERVER)) {
		struct qc_conn *cn = pl->conn;
		int own = pl->owner == QC_SERVER && cn->odcid_len == pl->dcid_len &&
		          memcmp(cn->odcid, pl->dcid, pl->dcid_len) == 0;

		initial_cand(&c, initial_keys(s, &cn->initial, pl->version,
		                              cn->odcid, cn->odcid_len),
		             1 - pl->owner, own ? UP_DCID_OWN : UP_DCID_REMEMBERED,
		             cn->odcid, cn->odcid_len, cn);
		rc = add_cand(s, n, &c);
	}
	if (rc == 0 && pl->conn == NULL && !s->server_only && scid_conn != NULL &&
	    scid_conn->have_odcid) {
		/* a client's later Initial to a server CID not seen: the
		 * connection of its SCID */
		initial_cand(&c, initial_keys(s, &scid_conn->initial, pl->version,
		                              scid_conn->odcid,
		                              scid_conn->odcid_len),
		             QC_CLIENT, UP_DCID_REMEMBERED, scid_conn->odcid,
		             scid_conn->odcid_len, scid_conn);
		rc = add_cand(s, n, &c);
	}
	if (rc == 0 && !s->server_only) {
		/* a client's first Initial: of a new connection, unless a
		 * Retry told the connection of its SCID to expect it */
		initial_cand(&c, own_keys(s, pl->version, pl->dcid,
		                          pl->dcid_len),
		             QC_CLIENT, UP_DCID_OWN, pl->dcid, pl->dcid_len,
		             pl->conn != NULL && pl->conn->retried ? pl->conn
		                                                   : NULL);
		rc = add_cand(s, n, &c);
	}
	return rc;
}

static void keylog_cand(struct up_state *s, struct cand *c, size_t kl_conn,
                        int label, uint32_t version, struct qc_conn *conn,
                        int fallback)
{
	memset(c, 0, sizeof *c);
	c->source = UP_SRC_KEYLOG;
	c->kl_conn = kl_conn;
	c->label = (enum keylog_label)label;
	c->side = is_server_label(c->label) ? QC_SERVER : QC_CLIENT;
	c->conn = conn;
	c->fallback = fallback;
	if (s->kl->conns[kl_conn].have & (1u << label))
		c->keys = keylog_keys(s, kl_conn, c->label, version);
}

/* The secrets no ClientHello claimed, of the packet's level, sent by side
 * (-1: either). */
static int fallback_cands(struct up_state *s, enum quic_packet_type type,
                          int side, uint32_t version, struct qc_conn *conn,
                          size_t *n)
{
	size_t i;
	int k, rc = 0;

	if (cands_room(s, *n, 2 * s->nunclaimed) != 0)
		return UP_ENOMEM;
	for (i = 0; i < s->nunclaimed && rc == 0; i++)
		for (k = QC_CLIENT; k <= QC_SERVER && rc == 0; k++) {
			int label = label_of(type, k);
			struct cand c;

			if (label < 0 || (side >= 0 && side != k) ||
			    (s->trial_sides[s->unclaimed[i]] & (1u << k)))
				continue;
			keylog_cand(s, &c, s->unclaimed[i], label, version, conn,
			            1);
			rc = add_cand(s, n, &c);
		}
	return rc;
}

/*
 * The keys to try on a packet other than an Initial (or an Initial with no
 * Initial keys given) at pl; *hints what tells why none may verify.
 */
static int other_cands(struct up_state *s, enum quic_packet_type type,
                       const struct place *pl, size_t *n, unsigned *hints)
{
	struct qc_conn *cn = pl->conn;
	int side = cn != NULL ? 1 - pl->owner : -1;
	struct cand c;

	memset(&c, 0, sizeof c);
	c.conn = cn;
	c.side = side;
	if (s->have_secret) {
		c.source = UP_SRC_SECRET;
		c.keys = secret_keys(s, pl->version);
		return add_cand(s, n, &c);
	}
	if (s->hp_key != NULL) {
		c.source = UP_SRC_HP_KEY;
		c.keys = s->hp_key;
		return add_cand(s, n, &c);
	}
	if (s->kl == NULL)
		return 0;
	if (cn != NULL && cn->keylog != KEYLOG_NONE) {
		int label = label_of(type, side);

		if (label < 0)
			return 0;
		keylog_cand(s, &c, cn->keylog, label, pl->version, cn, 0);
		return add_cand(s, n, &c);
	}
	if (cn != NULL && cn->hello_state == 1) {
		*hints |= UP_HINT_NOSECRETS;
		return 0;
	}
	if (cn == NULL)
		*hints |= UP_HINT_NOCONN;
	return fallback_cands(s, type, side, pl->version, cn, n);
}

/* ------------------------------------------------------------------ */
/* Places. */

/* The version of a short header: --quic-version, else its connection's,
 * else that of the last long header that verified. */
static uint32_t short_version(const struct up_state *s,
                              const struct qc_conn *c)
{
	if (s->version_given)
		return s->version;
	if (c != NULL && c->version != 0)
		return c->version;
	return s->last_version != 0 ? s->last_version : s->version;
}

static void set_place(struct place *pl, size_t pn_offset, const uint8_t *dcid,
                      size_t dcid_len, uint32_t version,
                      const struct qc_match *m)
{
	pl->pn_offset = pn_offset;
	pl->dcid = dcid;
	pl->dcid_len = dcid_len;
	pl->version = version;
	pl->conn = m != NULL ? m->conn : NULL;
	pl->owner = m != NULL ? m->side : QC_CLIENT;
}

/* Whether a connection ID tells its connection apart: one of some bytes,
 * or an empty one with its owner's address. */
static int tells_conn(size_t len, const struct qc_addr *addr)
{
	return len != 0 || (addr != NULL && addr->len != 0);
}

/* Room for n places and n matches: 0 or UP_ENOMEM. */
static int places_room(struct up_state *s, size_t n)
{
	if (n > s->places_cap) {
		struct place *p = realloc(s->places, n * sizeof *p);

		if (p == NULL)
			return UP_ENOMEM;
		s->places = p;
		s->places_cap = n;
	}
	if (n > s->matches_cap) {
		struct qc_match *m = realloc(s->matches, n * sizeof *m);

		if (m == NULL)
			return UP_ENOMEM;
		s->matches = m;
		s->matches_cap = n;
	}
	return 0;
}

/* Every match of a connection ID (*n of them), in s->matches. */
static int find_all(struct up_state *s, const uint8_t *id, size_t len,
                    int src, int short_header, const uint8_t *pkt,
                    size_t pkt_len, size_t *n)
{
	const struct qc_addr *a = s->meta == NULL ? NULL :
	                          src ? &s->meta->src : &s->meta->dst;
	size_t got;

	for (;;) {
		got = short_header ?
		      qc_find_short(&s->conns, pkt, pkt_len, s->dcid_len, a,
		                    s->matches, s->matches_cap) :
		      qc_find(&s->conns, id, len, a, s->matches,
		              s->matches_cap);
		if (got <= s->matches_cap)
			break;
		if (places_room(s, got) != 0)
			return UP_ENOMEM;
	}
	*n = got;
	return 0;
}

/* The connection of a datagram's endpoints (a capture's), as a match of
 * the side that receives it: 1, or 0 when there is none. */
static int by_path(const struct up_state *s, struct qc_match *m)
{
	int side;

	if (s->meta == NULL)
		return 0;
	m->conn = qc_find_path(&s->conns, &s->meta->src, &s->meta->dst, &side);
	m->side = side;
	m->cid_len = 0;
	return m->conn != NULL;
}

/*
 * The places of a short header at every DCID length from 0 to 20
 * (--dcid-len: that one) that the packet has room for, the lengths of the
 * connection IDs seen first: of connection m's (found by its endpoints),
 * or of no connection (m NULL).  The one sweep of DCID lengths.
 */
static void sweep_places(struct up_state *s, const uint8_t *pkt, size_t len,
                         const struct qc_match *m, size_t *np)
{
	size_t i, from = 0, to = QUIC_MAX_CID_LEN;
	uint32_t version = short_version(s, m != NULL ? m->conn : NULL);
	int pass;

	if (s->dcid_len != QUIC_DCID_LEN_UNKNOWN)
		from = to = s->dcid_len;
	*np = 0;
	for (pass = 0; pass < 2; pass++)
		for (i = from; i <= to && i + 1 <= len; i++)
			if ((s->conns.lens[i] != 0) == (pass == 0))
				set_place(&s->places[(*np)++], 1 + i, pkt + 1, i,
				          version, m);
}

/*
 * A long header: one place for each connection it belongs to: by its
 * SCID, the sender's (unique when not empty), else by its DCID, the
 * receiver's (a zero-length one may be any connection's without an
 * address to tell them apart); or one place of no connection.
 */
static int long_places(struct up_state *s, const struct quic_header *h,
                       size_t pn_offset, size_t *np)
{
	size_t n = 0, i;
	int by_scid = 0;

	if (places_room(s, 1) != 0)
		return UP_ENOMEM;
	/* a connection ID of some bytes tells the connection; an empty one
	 * only with an address, and less surely (a port used again) */
	if (h->scid != NULL && h->scid_len != 0) {
		if (find_all(s, h->scid, h->scid_len, 1, 0, NULL, 0, &n) != 0)
			return UP_ENOMEM;
		by_scid = n != 0;
	}
	if (n == 0 && h->dcid != NULL && h->dcid_len != 0 &&
	    find_all(s, h->dcid, h->dcid_len, 0, 0, NULL, 0, &n) != 0)
		return UP_ENOMEM;
	if (n == 0 && h->scid != NULL && h->scid_len == 0 &&
	    tells_conn(0, s->meta != NULL ? &s->meta->src : NULL)) {
		if (find_all(s, h->scid, 0, 1, 0, NULL, 0, &n) != 0)
			return UP_ENOMEM;
		by_scid = n != 0;
	}
	if (n == 0 && h->dcid != NULL && h->dcid_len == 0 &&
	    find_all(s, h->dcid, 0, 0, 0, NULL, 0, &n) != 0)
		return UP_ENOMEM;
	if (n == 0 && by_path(s, &s->matches[0]))
		n = 1;
	for (i = 0; i < n; i++) {
		if (by_scid)
			s->matches[i].side = 1 - s->matches[i].side;
		set_place(&s->places[i], pn_offset, h->dcid, h->dcid_len,
		          h->version, &s->matches[i]);
	}
	if (n == 0)
		set_place(&s->places[n++], pn_offset, h->dcid, h->dcid_len,
		          h->version, NULL);
	*np = n;
	return 0;
}

/*
 * A short header: at the length of each connection ID of a connection
 * that the packet starts with; when none (a packet of a connection whose
 * handshake was not seen) and a tag can tell, at every length from 0 to
 * 20 (--dcid-len: that one).  With --pn-offset (the first packet): there.
 */
static int short_places(struct up_state *s, const uint8_t *pkt, size_t len,
                        int given, int sweep, size_t *np)
{
	struct qc_match m;
	size_t n, i;

	*np = 0;
	if (places_room(s, QUIC_MAX_CID_LEN + 1) != 0)
		return UP_ENOMEM;
	if (given) {
		size_t l = s->pn_offset - 1;

		set_place(&s->places[0], s->pn_offset, pkt + 1,
		          l < QUIC_MAX_CID_LEN ? l : QUIC_MAX_CID_LEN,
		          short_version(s, NULL), NULL);
		*np = 1;
		return 0;
	}
	if (find_all(s, NULL, 0, 0, 1, pkt, len, &n) != 0)
		return UP_ENOMEM;
	for (i = 0; i < n; i++)
		set_place(&s->places[i], 1 + s->matches[i].cid_len, pkt + 1,
		          s->matches[i].cid_len,
		          short_version(s, s->matches[i].conn), &s->matches[i]);
	if (n != 0) {
		*np = n;
		return 0;
	}
	if (by_path(s, &m)) {
		/* a connection ID not seen, of a connection whose endpoints
		 * these are: at each length (those seen first) */
		sweep_places(s, pkt, len, &m, np);
		return 0;
	}
	if (s->dcid_len != QUIC_DCID_LEN_UNKNOWN || sweep)
		sweep_places(s, pkt, len, NULL, np);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Learning from a packet that verified. */

static int learn_cid(struct up_state *s, struct qc_conn *c, int side,
                     const uint8_t *id, size_t len, uint64_t seq, int src)
{
	const struct qc_addr *a = NULL;

	if (s->meta != NULL)
		a = src ? &s->meta->src : &s->meta->dst;
	return qc_learn(&s->conns, c, side, id, len, seq, a);
}

/* The key-log connection of a ClientHello's random, when its CRYPTO
 * frames are all in. */
static void take_hello(struct up_state *s, struct qc_conn *c)
{
	int st = qf_hello_random(&c->hello, c->random);
	size_t k;

	if (st == 0)
		return;
	c->hello_state = st;
	if (st < 0 || s->kl == NULL)
		return;
	k = keylog_find(s->kl, c->random);
	if (k != KEYLOG_NONE || c->keylog_by_trial) {
		c->keylog = k;
		c->keylog_by_trial = 0;
		if (k != KEYLOG_NONE)
			claim(s, k);
	}
}

/* The cipher suite of a ServerHello, when its CRYPTO frames are all in:
 * it tells a ChaCha20-Poly1305 connection, whose secrets are as long as
 * an AES-128 one's. */
static void take_server_hello(struct qc_conn *c)
{
	int st = qf_hello_suite(&c->server_hello, &c->suite);

	if (st != 0)
		c->suite_state = st;
}

/* The frames of a verified packet: each side's Initial CRYPTO data until
 * its hello tells what is needed (the client's random, the server's
 * suite), and the connection IDs a side issues. */
static int read_frames(struct up_state *s, struct pk_keys *k,
                       const struct up_packet *p, struct qc_conn *c,
                       int side)
{
	int initial = p->type == QUIC_PT_INITIAL;
	struct qf_hello *hello = !initial ? NULL :
	                         side == QC_CLIENT && c->hello_state == 0 ?
	                         &c->hello :
	                         side == QC_SERVER && c->suite_state == 0 ?
	                         &c->server_hello : NULL;
	int ids = p->type == QUIC_PT_1RTT || p->type == QUIC_PT_0RTT;
	const struct quic_aead *a;
	struct qf_reader r;
	struct qf_frame f;
	int rc = 0;

	if ((hello == NULL && !ids) || (a = pk_aead(k, p->generation)) == NULL)
		return 0;
	qf_init(&r, a, p->bytes, p->len, p->pn_offset + p->pn_len, p->pn);
	while (rc == 0 && qf_next(&r, &f)) {
		if (hello != NULL && f.type == QF_CRYPTO)
			qf_hello_add(hello, &r, &f);
		if (ids && f.type == QF_NEW_CONNECTION_ID) {
			rc = learn_cid(s, c, side, f.cid, f.cid_len, f.seq, 1);
			qc_retire_prior(&s->conns, c, side, f.retire_prior_to);
		}
	}
	qf_done(&r);
	if (hello == &c->hello)
		take_hello(s, c);
	else if (hello != NULL)
		take_server_hello(c);
	return rc == 0 ? 0 : UP_ENOMEM;
}

/*
 * The connection of a packet whose key verified: the one its DCID led
 * to; for a client's first Initial, the one its SCID belongs to when a
 * Retry to it was seen (the Retry changed the DCID; else the SCID's
 * connection is an earlier one, from the same port), or a new one; for a
 * key-log secret tried without a connection, a new one.
 */
static struct qc_conn *conn_of(struct up_state *s, const struct cand *c,
                               const struct quic_header *h, int *made)
{
	const struct qc_addr *src = s->meta != NULL ? &s->meta->src : NULL;
	struct qc_match m;
	struct qc_conn *cn;

	*made = 0;
	if (c->conn != NULL)
		return c->conn;
	if (c->source == UP_SRC_INITIAL && c->side == QC_CLIENT &&
	    h->long_header && tells_conn(h->scid_len, src) &&
	    qc_find(&s->conns, h->scid, h->scid_len, src, &m, 1) != 0 &&
	    m.side == QC_CLIENT && m.conn->retried) {
		m.conn->retried = 0;
		return m.conn;
	}
	if (c->source != UP_SRC_INITIAL && !c->fallback)
		return NULL;
	/* the other side of a key-log connection found by trial before */
	if (c->fallback && s->trial_conn[c->kl_conn] != NULL)
		return s->trial_conn[c->kl_conn];
	if ((cn = qc_new(&s->conns)) != NULL)
		*made = 1;
	return cn;
}

/* A connection made or changed by a packet: the DCID its Initial keys
 * derive from (--odcid; a client's first Initial's own, or after a Retry
 * the new one), its key-log connection (a trial's). */
static int adopt(struct up_state *s, struct qc_conn *cn, const struct cand *c,
                 const struct quic_header *h, int made)
{
	const uint8_t *d = NULL;
	size_t dl = 0;

	if (c->source == UP_SRC_INITIAL && c->from == UP_DCID_OPTION) {
		d = s->odcid;
		dl = s->odcid_len;
	} else if (c->source == UP_SRC_INITIAL && c->from == UP_DCID_OWN &&
	           c->side == QC_CLIENT) {
		d = h->dcid;
		dl = h->dcid_len;
		cn->retried = 0;
	}
	if (d != NULL && (made || !cn->have_odcid || cn->odcid_len != dl ||
	                  memcmp(cn->odcid, d, dl) != 0)) {
		if (qc_learn_odcid(&s->conns, cn, d, dl, s->meta != NULL ?
		                   &s->meta->dst : NULL) != 0)
			return UP_ENOMEM;
		if (cn->initial != NULL)
			pk_wipe(&cn->initial[0]);   /* made again when asked */
	}
	if (c->source == UP_SRC_KEYLOG && c->fallback) {
		cn->keylog = c->kl_conn;
		cn->keylog_by_trial = 1;
		s->trial_conn[c->kl_conn] = cn;
		s->trial_sides[c->kl_conn] |= (uint8_t)(1u << c->side);
		if (s->trial_sides[c->kl_conn] == 3)
			claim(s, c->kl_conn);
	}
	return 0;
}

/* The connection IDs a packet shows: a long header's SCID (the sender's)
 * and DCID (the receiver's), a short header's DCID at its length. */
static int learn_ids(struct up_state *s, struct qc_conn *cn, int side,
                     const struct quic_header *h, const struct place *pl)
{
	int rc = 0;

	if (side < 0)
		return 0;
	if (h->long_header) {
		rc = learn_cid(s, cn, side, h->scid, h->scid_len, 0, 1);
		/* (a client's Initials to its first DCID: that one is the
		 * Initial keys', not the server's) */
		if (rc == 0 && !(cn->have_odcid && cn->odcid_len == h->dcid_len &&
		                 memcmp(cn->odcid, h->dcid, h->dcid_len) == 0))
			rc = learn_cid(s, cn, 1 - side, h->dcid, h->dcid_len, 0,
			               0);
	} else {
		rc = learn_cid(s, cn, 1 - side, pl->dcid, pl->dcid_len, 0, 0);
	}
	return rc;
}

/* The counter of a packet type, or -1. */
static int type_counter(enum quic_packet_type t)
{
	switch (t) {
	case QUIC_PT_INITIAL:
		return QC_N_INITIAL;
	case QUIC_PT_0RTT:
		return QC_N_0RTT;
	case QUIC_PT_HANDSHAKE:
		return QC_N_HANDSHAKE;
	case QUIC_PT_1RTT:
		return QC_N_1RTT;
	default:
		return -1;
	}
}

/* The counter of a verdict, or -1. */
static int verdict_counter(enum up_verdict v)
{
	switch (v) {
	case UP_AUTHENTICATED:
		return QC_N_AUTHENTICATED;
	case UP_FAILED:
		return QC_N_FAILED;
	case UP_SKIPPED:
		return QC_N_SKIPPED;
	case UP_TRUNCATED:
	case UP_NO_PACKET_KEY:
		return QC_N_NOT_CHECKED;
	case UP_NO_PROTECTION:
		return QC_N_NO_PROTECTION;
	default:
		return -1;
	}
}

static void count(struct up_state *s, const struct up_packet *p)
{
	struct qc_conn *cn;
	int k;

	if (p->conn == 0)
		return;
	cn = s->conns.conns[p->conn - 1];
	if ((k = type_counter(p->type)) >= 0)
		cn->count[k]++;
	if ((k = verdict_counter(p->verdict)) >= 0)
		cn->count[k]++;
}

/* A packet that no key verified, of a connection all the same: the
 * first its DCID belongs to. */
static size_t conn_by_dcid(const struct up_state *s, const struct up_packet *p)
{
	const struct qc_addr *dst = s->meta != NULL ? &s->meta->dst : NULL;
	struct qc_match m;

	if (p->bytes == NULL || p->len == 0 || p->kind == DGRAM_PADDING)
		return 0;
	if (p->type == QUIC_PT_1RTT) {
		if (qc_find_short(&s->conns, p->bytes, p->len, s->dcid_len, dst,
		                  &m, 1) != 0)
			return m.conn->index;
	} else if (p->dcid != NULL &&
	           qc_find(&s->conns, p->dcid, p->dcid_len, dst, &m, 1) != 0) {
		return m.conn->index;
	}
	return 0;
}

/* The largest packet number of a space of no connection (the one secret,
 * a bare hp key). */
static void note_loose(struct up_state *s, const struct up_packet *p)
{
	uint64_t *l = &s->loose[space_of(p->type)];

	if (*l == QUIC_PN_NONE || p->pn > *l)
		*l = p->pn;
}

/* What the stream learns from a packet that verified with c at pl. */
static int learn(struct up_state *s, struct up_packet *p,
                 const struct quic_header *h, const struct cand *c,
                 const struct place *pl, const struct pk_result *r)
{
	int made, rc, side = c->side;
	struct qc_conn *cn = conn_of(s, c, h, &made);

	if (h->long_header) {
		s->versions_seen |= (unsigned)version_bit(h->version);
		s->last_version = h->version;
	}
	if (cn == NULL) {
		if (c->source == UP_SRC_INITIAL || c->fallback)
			return UP_ENOMEM;        /* a connection not made */
		note_loose(s, p);
		return 0;
	}
	if ((rc = adopt(s, cn, c, h, made)) != 0 ||
	    (rc = learn_ids(s, cn, side, h, pl)) != 0)
		return rc;
	if (h->long_header)
		cn->version = h->version;
	if (c->source != UP_SRC_INITIAL && c->keys->key_len != 0)
		cn->key_len = c->keys->key_len;
	cn->missed_updates += r->skipped;
	qc_touch(&s->conns, cn, ++s->clock);
	p->conn = cn->index;
	if (side < 0) {
		note_loose(s, p);
		return 0;
	}
	if (s->meta != NULL &&
	    qc_learn_path(&s->conns, cn, side == QC_CLIENT ? &s->meta->src
	                                                   : &s->meta->dst,
	                  side == QC_CLIENT ? &s->meta->dst
	                                    : &s->meta->src) != 0)
		return UP_ENOMEM;
	if (cn->largest[side][space_of(p->type)] == QUIC_PN_NONE ||
	    p->pn > cn->largest[side][space_of(p->type)])
		cn->largest[side][space_of(p->type)] = p->pn;
	return read_frames(s, c->keys, p, cn, side);
}

/* ------------------------------------------------------------------ */
/* One packet. */

/* The largest packet number of the space c and pl would put the packet
 * in. */
static uint64_t largest_for(const struct up_state *s, const struct cand *c,
                            enum quic_packet_type type)
{
	if (c->conn != NULL && c->side >= 0)
		return c->conn->largest[c->side][space_of(type)];
	if (c->source != UP_SRC_INITIAL && !c->fallback)
		return s->loose[space_of(type)];
	return QUIC_PN_NONE;
}

/* p takes a try's header fields and key. */
static void take(struct up_packet *p, const struct pk_result *r,
                 const struct cand *c, const struct place *pl,
                 uint64_t largest)
{
	p->pn_offset = pl->pn_offset;
	p->pn_len = r->pn_len;
	p->truncated_pn = r->truncated;
	p->pn = r->pn;
	p->pn_known = largest != QUIC_PN_NONE;
	p->key_phase = r->key_phase;
	p->generation = r->generation;
	p->missed_updates = r->skipped;
	p->source = c->source;
	p->keys = c->keys;
	p->server = c->side == QC_SERVER;
	p->keylog_conn = c->kl_conn;
	p->keylog_label = c->label;
	p->dcid_from = c->from;
	memcpy(p->key_dcid, c->dcid, c->dcid_len);
	p->key_dcid_len = c->dcid_len;
	if (p->type == QUIC_PT_1RTT) {
		p->dcid = pl->dcid;
		p->dcid_len = pl->dcid_len;
	}
	if (c->conn != NULL)
		p->conn = c->conn->index;
}

/* The connection a long header's SCID belongs to, on the client's side
 * (a client's later Initials). */
static struct qc_conn *scid_conn(const struct up_state *s,
                                 const struct quic_header *h)
{
	struct qc_match m;

	const struct qc_addr *src = s->meta != NULL ? &s->meta->src : NULL;

	if (!h->long_header || h->scid == NULL ||
	    !tells_conn(h->scid_len, src) ||
	    qc_find(&s->conns, h->scid, h->scid_len, src, &m, 1) == 0 ||
	    m.side != QC_CLIENT)
		return NULL;
	return m.conn;
}

/* The candidates of a place. */
static int cands_of(struct up_state *s, const struct up_packet *p,
                    const struct quic_header *h, const struct place *pl,
                    size_t *n, unsigned *hints)
{
	*n = 0;
	if (p->type == QUIC_PT_INITIAL && s->initial)
		return initial_cands(s, pl, scid_conn(s, h), n);
	return other_cands(s, p->type, pl, n, hints);
}

/* What a failure is likely to come from. */
static unsigned failure_hints(const struct up_state *s,
                              const struct up_packet *p, int any_conn,
                              int tried_32)
{
	unsigned h = 0;

	if (p->type == QUIC_PT_INITIAL && s->initial && !s->have_odcid &&
	    !any_conn)
		h |= UP_HINT_ODCID;
	if (p->type == QUIC_PT_1RTT && s->dcid_len != QUIC_DCID_LEN_UNKNOWN &&
	    !any_conn)
		h |= UP_HINT_DCIDLEN;
	if (tried_32 && p->type != QUIC_PT_INITIAL)
		h |= UP_HINT_CHACHA;
	return h;
}

/* A try's bookkeeping over the places and candidates of a packet. */
struct tries {
	size_t n;                 /* tries made */
	int many;                 /* one of many keys or places */
	int places;               /* more than one place */
	struct qc_conn *chacha;   /* a place's connection that is ChaCha20's */
	int chacha_first;         /* the first place's */
	int short_of_sample;      /* a key could not be tried: no sample */
	int any_conn, tried_32;
	int far;                  /* a key left untried in the first pass:
	                             the number it makes is far from the
	                             largest */
	unsigned near;            /* PK_NEAR: the first pass */
	int have_first;           /* a first try that removed protection */
	struct cand first_c;
	struct place first_pl;
};

/* One candidate at one place: 1 when it verified (p filled, the stream
 * told), 0 when not, or UP_ENOMEM. */
static int try_one(struct up_state *s, uint8_t *pkt, size_t len,
                   const struct quic_header *h, const struct place *pl,
                   const struct cand *c, int check, struct up_packet *p,
                   struct tries *t)
{
	uint64_t largest = largest_for(s, c, p->type);
	struct pk_result r;

	if (pk_try(c->keys, pkt, len, pl->pn_offset, largest,
	           (check ? PK_CHECK : 0) |
	           (p->type == QUIC_PT_1RTT ? PK_ONE_RTT : 0) |
	           (c->fallback || t->places ? 0 : PK_MEMO) |
	           (t->many ? PK_FILTER : 0) |
	           t->near, &r) != QUIC_OK) {
		t->short_of_sample = 1;
		return 0;
	}
	t->n++;
	p->candidates++;
	t->any_conn |= c->conn != NULL;
	t->far |= r.far;
	t->tried_32 |= c->keys->secret_len == 32;
	if (!t->have_first) {
		t->have_first = 1;
		t->first_c = *c;
		t->first_pl = *pl;
	}
	if (!check || c->keys->key_len == 0) {
		take(p, &r, c, pl, largest);
		p->verdict = c->source == UP_SRC_HP_KEY ? UP_NO_PACKET_KEY
		                                        : UP_TRUNCATED;
		if (c->conn == NULL)
			note_loose(s, p);
		return 1;
	}
	if (!r.ok)
		return 0;
	take(p, &r, c, pl, largest);
	p->verdict = UP_AUTHENTICATED;
	return learn(s, p, h, c, pl, &r) == 0 ? 1 : UP_ENOMEM;
}

/*
 * No key verified: the one key and place there were leave the header
 * they made (as the tool always showed a single key's result); else the
 * packet stays as received.
 */
static void failed(struct up_state *s, uint8_t *pkt, size_t len,
                   const struct tries *t, unsigned hints,
                   struct up_packet *p)
{
	struct pk_result r;

	p->verdict = UP_FAILED;
	p->hints = hints | failure_hints(s, p, t->any_conn, t->tried_32);
	if (!t->have_first)
		return;
	p->source = t->first_c.source;
	if (t->n == 1 &&
	    pk_try(t->first_c.keys, pkt, len, t->first_pl.pn_offset,
	           largest_for(s, &t->first_c, p->type),
	           p->type == QUIC_PT_1RTT ? PK_ONE_RTT : 0, &r) == QUIC_OK) {
		uint64_t largest = largest_for(s, &t->first_c, p->type);

		take(p, &r, &t->first_c, &t->first_pl, largest);
	}
}

/* A short header whose DCID length cannot be told (with -k, no tag can
 * tell a wrong guess). */
static int no_dcid_len(const struct up_state *s, struct up_packet *p)
{
	p->verdict = UP_INVALID;
	p->status = QUIC_ENODCIDLEN;
	snprintf(p->why, sizeof p->why, "the packet has a short header: give "
	         "--dcid-len N (the length of its Destination Connection ID)%s",
	         s->have_pn_offset ? "" : " or --pn-offset N");
	return 0;
}

/* Whether a connection's ServerHello chose ChaCha20-Poly1305. */
static int is_chacha(const struct qc_conn *c)
{
	return c != NULL && c->suite_state == 1 &&
	       c->suite == QF_TLS_CHACHA20_POLY1305_SHA256;
}

/*
 * The places of a packet that is of no connection seen: one for a long
 * header, every DCID length for a short one (--dcid-len: that one).
 */
static int fallback_places(struct up_state *s, const uint8_t *pkt,
                           size_t len, const struct quic_header *h,
                           size_t pn_offset, size_t *np)
{
	*np = 0;
	if (places_room(s, QUIC_MAX_CID_LEN + 1) != 0)
		return UP_ENOMEM;
	if (h->long_header) {
		set_place(&s->places[(*np)++], pn_offset, h->dcid, h->dcid_len,
		          h->version, NULL);
		return 0;
	}
	sweep_places(s, pkt, len, NULL, np);
	return 0;
}

/* One pass of try_places (t->near says which). */
static int try_pass(struct up_state *s, uint8_t *pkt, size_t len,
                    const struct quic_header *h, size_t np, int truncated,
                    int fallback, struct up_packet *p, struct tries *t,
                    unsigned *hints)
{
	size_t i, k, n;
	int rc;

	for (i = 0; i < np; i++) {
		struct place pl = s->places[i];

		n = 0;
		if (!fallback && is_chacha(pl.conn) &&
		    p->type != QUIC_PT_INITIAL) {
			if (t->chacha == NULL)
				t->chacha = pl.conn;
			t->chacha_first |= i == 0;
			continue;
		}
		rc = fallback ? fallback_cands(s, p->type, -1, pl.version, NULL,
		                               &n)
		              : cands_of(s, p, h, &pl, &n, hints);
		if (rc != 0)
			return rc;
		if (truncated && n > 1)
			n = 1;   /* without the payload nothing tells them apart */
		t->many = fallback || np > 1 || n > 1;
		/* (a sweep that fails at one of several places may have
		 * been at the wrong one: not remembered) */
		t->places = np > 1;
		for (k = 0; k < n; k++) {
			rc = try_one(s, pkt, len, h, &pl, &s->cands[k],
			             !truncated, p, t);
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

/*
 * Every candidate at each of the np places in s->places (only the
 * key-log secrets no ClientHello claimed when fallback) until a tag
 * verifies: 1 then (p filled), 0 when none did, or UP_ENOMEM.  A first
 * pass tries each with its near generations and, among many, only where
 * the packet number it makes is near the largest one (PK_NEAR), which is
 * where a genuine packet verifies; only when none does are they tried
 * again through the later generations a capture that starts late may
 * need (1-RTT), or where the first pass found a number far off, so that
 * a packet with many candidates (a zero-length connection ID in a hex
 * stream) pays that for none but the last resort.
 */
static int try_places(struct up_state *s, uint8_t *pkt, size_t len,
                      const struct quic_header *h, size_t np, int truncated,
                      int fallback, struct up_packet *p, struct tries *t,
                      unsigned *hints)
{
	struct tries before = *t;
	size_t tried = p->candidates;
	int rc;

	t->near = PK_NEAR;
	rc = try_pass(s, pkt, len, h, np, truncated, fallback, p, t, hints);
	if (rc != 0 || truncated || (p->type != QUIC_PT_1RTT && !t->far)) {
		t->near = 0;
		return rc;
	}
	*t = before;                  /* (counted once, in the second) */
	p->candidates = tried;
	t->near = 0;
	return try_pass(s, pkt, len, h, np, truncated, fallback, p, t, hints);
}

/* Whether the places found a connection, and every one of them was
 * found without its ClientHello (by a trial: a capture that starts
 * late). */
static int handshake_unseen(const struct place *pl, size_t np)
{
	size_t i;

	for (i = 0; i < np; i++)
		if (pl[i].conn == NULL || pl[i].conn->hello_state == 1)
			return 0;
	return np != 0;
}

/* The address that owns the connection IDs of a packet of no connection
 * (the receiver's), for an empty one; an empty address when none. */
static void dead_addr(const struct up_state *s, const struct place *pl,
                      struct qc_addr *a)
{
	memset(a, 0, sizeof *a);
	if (pl->dcid_len == 0 && s->meta != NULL)
		*a = s->meta->dst;
}

static struct dead_id *dead_slot(const struct up_state *s,
                                 const struct place *pl)
{
	uint8_t key[1 + QUIC_MAX_CID_LEN + 1 + QC_ADDR_MAX];
	struct qc_addr a;
	size_t n = 1;

	dead_addr(s, pl, &a);
	key[0] = (uint8_t)pl->dcid_len;
	if (pl->dcid_len != 0)
		memcpy(key + n, pl->dcid, pl->dcid_len);
	n += pl->dcid_len;
	key[n++] = a.len;
	memcpy(key + n, a.bytes, a.len);
	n += a.len;
	return &s->dead[cli_siphash24(cli_hash_key(), key, n) &
	                (DEAD_SLOTS - 1)];
}

static int is_dead(const struct up_state *s, const struct place *pl)
{
	const struct dead_id *d = dead_slot(s, pl);
	struct qc_addr a;

	dead_addr(s, pl, &a);
	return d->used && d->len == pl->dcid_len &&
	       (pl->dcid_len == 0 || memcmp(d->id, pl->dcid, pl->dcid_len) == 0) &&
	       d->addr.len == a.len && memcmp(d->addr.bytes, a.bytes, a.len) == 0;
}

/* The places of a packet of no connection, the dead ones left out; or,
 * once the secrets failed there, each made dead. */
static void drop_dead(struct up_state *s, size_t *np)
{
	size_t i, k = 0;

	for (i = 0; i < *np; i++)
		if (!is_dead(s, &s->places[i]))
			s->places[k++] = s->places[i];
	*np = k;
}

static void make_dead(struct up_state *s, size_t np)
{
	size_t i;

	for (i = 0; i < np; i++) {
		struct dead_id *d = dead_slot(s, &s->places[i]);

		d->used = 1;
		d->len = (uint8_t)s->places[i].dcid_len;
		if (d->len != 0)
			memcpy(d->id, s->places[i].dcid, d->len);
		dead_addr(s, &s->places[i], &d->addr);
	}
}

/* Whether a packet's keys are the key-log secrets no ClientHello claimed,
 * tried for want of a connection. */
static int by_trial(const struct up_state *s, const struct up_packet *p,
                    size_t np)
{
	return np != 0 && s->places[0].conn == NULL && s->kl != NULL &&
	       !s->have_secret && s->hp_key == NULL &&
	       !(p->type == QUIC_PT_INITIAL && s->initial);
}

/*
 * One packet of a datagram at pkt[0..len), its header h: every candidate
 * at every place until a tag verifies.  truncated: a prefix whose payload
 * cannot be checked.  A packet of a connection found without its
 * handshake whose keys do not verify it is tried, while key-log secrets
 * no ClientHello claimed are left, as a packet of no connection (in a
 * capture that starts late, the other side's connection ID, not seen yet,
 * may start like one of this side's, an empty one).
 */
static int do_packet(struct up_state *s, uint8_t *pkt, size_t len,
                     const struct quic_header *h, int truncated,
                     struct up_packet *p)
{
	struct tries t;
	size_t np;
	int given = s->have_pn_offset && p->index == 1, matched, trial;
	size_t dead;
	/* (matched: its connection is one whose handshake was not seen) */
	size_t pn_offset = given ? s->pn_offset : h->pn_offset;
	unsigned hints = 0;
	int rc;

	memset(&t, 0, sizeof t);
	rc = h->long_header ?
	     long_places(s, h, pn_offset, &np) :
	     short_places(s, pkt, len, given, !truncated && s->hp_key == NULL,
	                  &np);
	if (rc != 0)
		return rc;
	if (np == 0)
		return no_dcid_len(s, p);
	matched = handshake_unseen(s->places, np);
	trial = by_trial(s, p, np) && !truncated && !given;
	dead = np;
	if (trial)
		drop_dead(s, &np);
	dead -= np;
	rc = try_places(s, pkt, len, h, np, truncated, 0, p, &t, &hints);
	if (rc == 0 && trial)
		make_dead(s, np);
	if (rc == 0 && matched && !truncated && !given && s->nunclaimed != 0 &&
	    label_of(p->type, QC_CLIENT) >= 0 &&
	    (rc = fallback_places(s, pkt, len, h, pn_offset, &np)) == 0)
		rc = try_places(s, pkt, len, h, np, 0, 1, p, &t, &hints);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	/* a ChaCha20 connection's (when it is the only one, or the most
	 * recent of those its ID may be: a port used again) */
	if (t.chacha != NULL && (t.n == 0 || t.chacha_first)) {
		struct qc_conn *cn = t.chacha;

		qc_touch(&s->conns, cn, ++s->clock);
		p->verdict = UP_SKIPPED;
		p->conn = cn->index;
		snprintf(p->why, sizeof p->why, "its connection uses "
		         "ChaCha20-Poly1305 (its ServerHello says so), whose "
		         "header protection is not AES");
		return 0;
	}
	if (t.n == 0 && t.short_of_sample && dead == 0) {
		p->verdict = UP_INVALID;
		p->status = QUIC_ESAMPLE;
		snprintf(p->why, sizeof p->why, "the packet is too short for its "
		         "header-protection sample");
		return 0;
	}
	failed(s, pkt, len, &t, hints, p);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Parts of a datagram. */

/* Whether any key of the packet's type was given. */
static int has_keys(const struct up_state *s, const struct up_packet *p)
{
	if (p->type == QUIC_PT_INITIAL)
		return s->initial || s->have_secret || s->hp_key != NULL;
	if (s->have_secret || s->hp_key != NULL)
		return 1;
	if (s->kl == NULL)
		return 0;
	return (s->kl_labels & ((1u << label_of(p->type, QC_CLIENT)) |
	                        (label_of(p->type, QC_SERVER) < 0 ? 0 :
	                         1u << label_of(p->type, QC_SERVER)))) != 0;
}

/* No key of the packet's type was given: p skipped, with the reason. */
static void skipped(const struct up_state *s, struct up_packet *p)
{
	p->verdict = UP_SKIPPED;
	if (p->type != QUIC_PT_INITIAL && s->kl != NULL)
		snprintf(p->why, sizeof p->why, "the key log has no %s secrets",
		         quic_packet_type_name(p->type));
	else
		snprintf(p->why, sizeof p->why, "no %s keys given (%s)",
		         quic_packet_type_name(p->type),
		         p->type == QUIC_PT_INITIAL ? "--initial" :
		         "--keylog or --secret");
}

/*
 * Whether a packet whose header did not parse is taken all the same: the
 * first packet with --pn-offset, whose header the user vouches for, may
 * be a prefix, as long as what the key source needs was read (the
 * version; the type and DCID for Initial keys).  *truncated says whether
 * its payload may be cut short.
 */
static int vouched(const struct up_state *s, int st, int long_header,
                   int *truncated)
{
	if (st == QUIC_ELENGTH || st == QUIC_ESAMPLE ||
	    (!s->initial && st != QUIC_EVERSION) ||
	    (s->hp_key != NULL && st == QUIC_EVERSION)) {
		*truncated = long_header;
		return 1;
	}
	return 0;
}

/* The checks of --pn-offset on the first packet: 0, or p invalid. */
static int check_pn_offset(const struct up_state *s, struct up_packet *p,
                           int protect)
{
	size_t off = s->pn_offset;
	unsigned pnlen = (p->bytes[0] & 3u) + 1;

	if (off == 0)
		snprintf(p->why, sizeof p->why, "--pn-offset 0: the packet "
		         "number cannot start at the first byte");
	else if (off >= p->len)
		snprintf(p->why, sizeof p->why, "--pn-offset %zu is past the end "
		         "of the packet (%zu bytes)", off, p->len);
	else if (protect && pnlen > p->len - off)
		snprintf(p->why, sizeof p->why, "the packet number (%u bytes at "
		         "offset %zu) runs past the end of the packet (%zu "
		         "bytes)", pnlen, off, p->len);
	else if (p->len - off < QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN)
		snprintf(p->why, sizeof p->why, "packet too short for its sample: "
		         "the sample is bytes %zu to %zu, so %zu bytes are "
		         "needed; the packet has %zu", off + QUIC_SAMPLE_GAP,
		         off + QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN - 1,
		         off + QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN, p->len);
	else
		return 0;
	p->verdict = UP_INVALID;
	return -1;
}

/* Whether p would be unprotected with the bare hp key (-k). */
static int uses_hp_key(const struct up_state *s, const struct up_packet *p)
{
	if (s->hp_key == NULL)
		return 0;
	if (p->type == QUIC_PT_INITIAL)
		return !s->initial;
	return s->kl == NULL;
}

/* The fields of p from a part of the datagram. */
static void describe(const struct up_state *s, uint8_t *d,
                     const struct dgram_part *part, size_t index,
                     struct up_packet *p)
{
	const struct quic_header *h = &part->h;

	memset(p, 0, sizeof *p);
	p->meta = s->meta;
	p->kind = part->kind;
	p->index = index;
	p->offset = part->offset;
	p->len = part->len;
	p->bytes = d + part->offset;
	p->type = part->kind == DGRAM_PADDING ? QUIC_PT_NONE : h->type;
	p->version = h->version;
	p->dcid = h->dcid;
	p->dcid_len = h->dcid_len;
	p->status = part->status;
}

/*
 * What of a part can be told before any key: padding, no protection, an
 * unknown version, a header that cannot be read.  Returns 1 when p is
 * final, 0 when the packet is to be tried (*truncated: a prefix).
 */
static int classify(const struct up_state *s, const struct dgram_part *part,
                    size_t rest, int after_guess, int protect,
                    struct up_packet *p, int *truncated)
{
	const struct quic_header *h = &part->h;
	int st = part->status, given = p->index == 1 && s->have_pn_offset;
	int ok = st == QUIC_OK || (st == QUIC_ENODCIDLEN && !h->long_header);

	*truncated = 0;
	if (part->kind == DGRAM_PADDING) {
		p->verdict = UP_PADDING;
		return 1;
	}
	/* Retry and Version Negotiation, whole or cut short */
	if (st == QUIC_ENOPROTECTION || h->type == QUIC_PT_RETRY ||
	    h->type == QUIC_PT_VERSION_NEGOTIATION) {
		p->verdict = UP_NO_PROTECTION;
		p->len = rest;
		quic_header_error(h, QUIC_ENOPROTECTION, p->why, sizeof p->why);
		return 1;
	}
	if (!ok && given && vouched(s, st, h->long_header, truncated)) {
		p->len = rest;
		return given && check_pn_offset(s, p, protect) != 0;
	}
	if (st == QUIC_EVERSION || (!ok && after_guess)) {
		p->verdict = UP_SKIPPED;
		if (st == QUIC_EVERSION)
			quic_header_error(h, st, p->why, sizeof p->why);
		else
			snprintf(p->why, sizeof p->why, "it follows a packet of "
			         "an unknown version, which was taken to end at "
			         "its Length: this may not be a packet");
		return 1;
	}
	if (!ok) {
		p->verdict = UP_INVALID;
		quic_header_error(h, st, p->why, sizeof p->why);
		return 1;
	}
	return given && check_pn_offset(s, p, protect) != 0;
}

/* A Retry: the connection of its DCID (the client's) will see its
 * client's Initials keyed by another DCID. */
static void note_retry(struct up_state *s, const struct up_packet *p)
{
	struct qc_match m;

	if (p->dcid != NULL &&
	    qc_find(&s->conns, p->dcid, p->dcid_len, s->meta != NULL ?
	            &s->meta->dst : NULL, &m, 1) != 0)
		m.conn->retried = 1;
}

/* One part of a datagram (d + part->offset) into p. */
static int do_part(struct up_state *s, uint8_t *d, size_t len,
                   const struct dgram_part *part, size_t index,
                   int after_guess, struct up_packet *p)
{
	int truncated;

	describe(s, d, part, index, p);
	if (classify(s, part, len - part->offset, after_guess, 0, p,
	             &truncated)) {
		if (p->verdict == UP_NO_PROTECTION && p->type == QUIC_PT_RETRY)
			note_retry(s, p);
		return 0;
	}
	/* a bare hp key is one packet's, and nothing checks which: the
	 * first of the datagram it would apply to takes it */
	if (uses_hp_key(s, p)) {
		if (s->hp_key_used) {
			p->verdict = UP_SKIPPED;
			snprintf(p->why, sizeof p->why, "-k is the "
			         "header-protection key of one packet: it was "
			         "applied to an earlier packet of the datagram");
			return 0;
		}
		s->hp_key_used = 1;
	}
	if (!has_keys(s, p)) {
		skipped(s, p);
		return 0;
	}
	return do_packet(s, d + part->offset, p->len, &part->h, truncated, p);
}

/* Each part of a datagram, in order, counted for its connection and
 * handed to fn (or held back). */
static int each_part(struct up_state *s, uint8_t *d, size_t len,
                     int (*fn)(struct up_state *, const struct up_packet *,
                               void *), void *arg)
{
	struct dgram_part part;
	struct up_packet p;
	size_t pos = 0, index = 0;
	int rc, after_guess = 0;

	while (dgram_next(d, len, pos, s->dcid_len, &part)) {
		if ((rc = do_part(s, d, len, &part, ++index, after_guess,
		                  &p)) != 0)
			return rc;
		after_guess |= part.guessed;
		if (p.conn == 0 && p.verdict != UP_AUTHENTICATED)
			p.conn = conn_by_dcid(s, &p);
		count(s, &p);
		if ((rc = fn(s, &p, arg)) != 0)
			return rc;
		pos += p.len;
	}
	return 0;
}

struct direct {
	up_packet_fn *fn;
	void *arg;
};

static int pass_on(struct up_state *s, const struct up_packet *p, void *arg)
{
	const struct direct *d = arg;

	(void)s;
	return d->fn(d->arg, p);
}

static int hold(struct up_state *s, const struct up_packet *p, void *arg)
{
	size_t *n = arg;

	if (*n == s->held_cap) {
		size_t cap = s->held_cap ? 2 * s->held_cap : 8;
		struct up_packet *h = realloc(s->held, cap * sizeof *h);

		if (h == NULL)
			return UP_ENOMEM;
		s->held = h;
		s->held_cap = cap;
	}
	s->held[(*n)++] = *p;
	return 0;
}

/*
 * A traffic secret belongs to one encryption level.  Given alone (no
 * --initial, no key log), it is tried on every packet of a datagram, and
 * once it has verified one, the packets of other types that it did not
 * verify are not failures but skipped: their keys were not given (a
 * server's Initial coalesced with the Handshake packet whose secret the
 * user has).  That is known only once the whole datagram has been seen,
 * so its parts are held back, and those packets put back as received.
 */
static int one_level(const struct up_state *s)
{
	return s->have_secret && !s->initial && s->kl == NULL;
}

static int one_level_datagram(struct up_state *s, uint8_t *d, size_t len,
                              up_packet_fn *fn, void *arg)
{
	size_t n = 0, i;
	unsigned verified = 0;
	int rc;

	if (len > s->orig_cap) {
		uint8_t *o = realloc(s->orig, len);

		if (o == NULL)
			return UP_ENOMEM;
		s->orig = o;
		s->orig_cap = len;
	}
	memcpy(s->orig, d, len);
	if ((rc = each_part(s, d, len, hold, &n)) != 0)
		return rc;
	for (i = 0; i < n; i++)
		if (s->held[i].verdict == UP_AUTHENTICATED)
			verified |= 1u << s->held[i].type;
	for (i = 0; i < n && rc == 0; i++) {
		struct up_packet *q = &s->held[i];

		if (q->verdict == UP_FAILED && verified != 0 &&
		    !(verified & (1u << q->type))) {
			memcpy(d + q->offset, s->orig + q->offset, q->len);
			q->verdict = UP_SKIPPED;
			q->hints = 0;
			q->pn_len = 0;
			snprintf(q->why, sizeof q->why, "no %s keys given: the "
			         "secret is another level's (it verified another "
			         "packet of the datagram)",
			         quic_packet_type_name(q->type));
		}
		rc = fn(arg, q);
	}
	return rc;
}

int up_datagram(struct up_state *s, uint8_t *d, size_t len,
                const struct up_meta *meta, up_packet_fn *fn, void *arg)
{
	struct direct dir;

	if (s == NULL || d == NULL || fn == NULL)
		return QUIC_EINVAL;
	s->meta = meta;
	s->hp_key_used = 0;
	if (one_level(s))
		return one_level_datagram(s, d, len, fn, arg);
	dir.fn = fn;
	dir.arg = arg;
	return each_part(s, d, len, pass_on, &dir);
}

/* ------------------------------------------------------------------ */
/* --protect. */

/* The key the options name for a packet at pl. */
static struct pk_keys *protect_key(struct up_state *s, const struct place *pl,
                                   const struct up_packet *p)
{
	int vi = quic_version_index(pl->version);

	if (p->type == QUIC_PT_INITIAL && s->initial) {
		struct pk_keys *k = s->have_odcid ?
			initial_keys(s, &s->odcid_keys[vi < 0 ? 0 : vi],
			             pl->version, s->odcid, s->odcid_len) :
			own_keys(s, pl->version, pl->dcid, pl->dcid_len);

		return k != NULL ? &k[s->server_only] : NULL;
	}
	if (s->have_secret)
		return secret_keys(s, pl->version);
	return s->hp_key;
}

int up_protect(struct up_state *s, uint8_t *pkt, size_t len,
               struct up_packet *p)
{
	struct dgram_part part;
	struct pk_keys *k;
	uint32_t tr = 0;
	size_t np;
	int truncated, st;
	unsigned i;

	s->meta = NULL;
	if (!dgram_next(pkt, len, 0, s->dcid_len, &part))
		return QUIC_EINVAL;
	describe(s, pkt, &part, 1, p);
	if (classify(s, &part, len, 0, 1, p, &truncated))
		return 0;
	if (!has_keys(s, p) || (p->type != QUIC_PT_INITIAL && s->initial &&
	                        !s->have_secret && s->hp_key == NULL)) {
		skipped(s, p);
		return 0;
	}
	st = part.h.long_header ?
	     long_places(s, &part.h, s->have_pn_offset ? s->pn_offset
	                                               : part.h.pn_offset, &np) :
	     short_places(s, pkt, p->len, s->have_pn_offset, 0, &np);
	if (st != 0)
		return st;
	if (np == 0)
		return no_dcid_len(s, p);
	if ((k = protect_key(s, &s->places[0], p)) == NULL)
		return UP_ENOMEM;
	p->pn_offset = s->places[0].pn_offset;
	p->pn_len = (pkt[0] & 3u) + 1;
	for (i = 0; i < p->pn_len; i++)
		tr = (tr << 8) | pkt[p->pn_offset + i];
	p->truncated_pn = tr;
	p->pn = tr;
	p->keys = k;
	st = pk_protect(k, pkt, p->len, p->pn_offset);
	if (st != AESECB_OK) {
		p->verdict = UP_INVALID;
		snprintf(p->why, sizeof p->why, "%s", aesecb_strerror(st));
		return 0;
	}
	p->verdict = UP_PROTECTED;
	return 0;
}

int up_mask(const struct up_packet *p, uint8_t mask[5])
{
	if (p->keys == NULL || p->pn_len == 0)
		return -1;
	return pk_mask(p->keys, p->bytes, p->pn_offset, mask) == AESECB_OK ? 0
	                                                                 : -1;
}
