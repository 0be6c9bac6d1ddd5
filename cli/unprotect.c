/* SPDX-License-Identifier: MIT */
/*
 * unprotect.c - header protection removed and AEAD tags checked over the
 * packets of datagrams, with trial decryption.  See unprotect.h.
 *
 * Branches are taken on the header bytes in the clear (forms, versions,
 * connection IDs, lengths), on the key source, and on whether a tag
 * verified, which is the result.  The bytes under header protection (the
 * first byte's low bits, the packet number, the key phase) and the keys
 * are only combined with masks: a 1-RTT packet whose current key
 * generation fails is tried with the next and the previous generation
 * whatever its key phase, and the key phase is folded into the verdict.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"
#include "quicpp.h"
#include "unprotect.h"

#define MASK_LEN 5

/* Packet-number spaces (RFC 9000 12.3). */
enum { SPACE_INITIAL = 0, SPACE_HANDSHAKE, SPACE_APP };

struct cid_entry {                /* a connection ID seen in a long header */
	uint8_t id[QUIC_MAX_CID_LEN];
	size_t len;
	uint32_t version;
	unsigned long stamp;          /* 0: unused */
};

/*
 * A packet-number space (RFC 9000 12.3) of one side of one connection,
 * known by the key that verified its packets, which outlives the
 * connection IDs (a client's Initials change DCID, 1-RTT packets change
 * connection ID): the key log's connection and the side, the Initial
 * keys' DCID and side, or the one secret.  With a bare hp key, by the
 * packets' DCID.
 */
struct space_key {
	enum up_source source;
	size_t conn;
	int server;
	uint8_t id[QUIC_MAX_CID_LEN];
	size_t id_len;
	int space;
};

struct space_entry {              /* the largest packet number of a space */
	struct space_key key;
	uint64_t largest;
	unsigned long stamp;
};

struct odcid_entry {              /* a client's SCID and its first DCID */
	uint8_t scid[QUIC_MAX_CID_LEN];
	size_t scid_len;
	uint8_t odcid[QUIC_MAX_CID_LEN];
	size_t odcid_len;
	unsigned long stamp;
};

struct match_entry {              /* the key-log secret of a DCID's space */
	uint8_t dcid[QUIC_MAX_CID_LEN];
	size_t dcid_len;
	int space;
	size_t conn;
	enum keylog_label label;
	unsigned long stamp;
};

/* Places to try a short header at: a DCID length and a version each. */
#define MAX_PLACES (2 * (QUIC_MAX_CID_LEN + 1))

#define SECRET_OPTION ((size_t)-1)  /* ku_entry.conn of the one secret */

struct ku_entry {                 /* key generations of a 1-RTT secret */
	size_t conn;
	enum keylog_label label;
	uint32_t gen;                 /* current generation */
	uint8_t cur[QUIC_MAX_HASH_LEN], prev[QUIC_MAX_HASH_LEN];
	uint8_t next[QUIC_MAX_HASH_LEN];
	int have_prev, have_next;
	uint32_t next_version;        /* the version next was derived for */
	unsigned long stamp;
};

#define KEY_CACHE 64              /* derived keys kept */

struct key_entry {                /* the keys of a candidate's generation */
	enum up_source source;
	int server;
	size_t conn;
	enum keylog_label label;
	uint8_t dcid[QUIC_MAX_CID_LEN];
	size_t dcid_len;
	uint32_t version, gen;
	struct quic_keys keys;
	unsigned long stamp;
};

struct up_state {
	struct up_config cfg;
	unsigned long clock;
	struct cid_entry cids[UP_MAX_CIDS];
	struct space_entry spaces[UP_MAX_SPACES];
	struct odcid_entry odcids[UP_MAX_ODCIDS];
	struct match_entry matches[UP_MAX_MATCHES];
	struct ku_entry ku[UP_MAX_KU];
	struct key_entry keys[KEY_CACHE];
	uint8_t *scratch;             /* a packet's copy, then the winner's */
	uint8_t *best;
	size_t scratch_size;
	struct cand *cands;           /* room for every candidate */
	size_t cands_cap;
	int hp_key_used;              /* this datagram's packet for -k taken */
	/* one secret alone: a datagram's parts held back until all are
	 * known (one_level_datagram) */
	struct up_packet *held;
	size_t held_cap;
	uint8_t *orig;                /* the datagram as received */
	size_t orig_cap;
};

/* One key to try. */
struct cand {
	enum up_source source;
	int server;
	size_t conn;                  /* UP_SRC_KEYLOG */
	enum keylog_label label;
	enum up_dcid_from dcid_from;  /* UP_SRC_INITIAL */
	uint8_t dcid[QUIC_MAX_CID_LEN];
	size_t dcid_len;
};


/* ------------------------------------------------------------------ */
/* Tables (least recently used entry replaced). */

#define PICK(table, n, found, cond) do {                                \
		size_t i_, old_ = 0;                                    \
		(found) = NULL;                                         \
		for (i_ = 0; i_ < (n); i_++) {                          \
			if ((table)[i_].stamp != 0 && (cond)) {         \
				(found) = &(table)[i_];                 \
				break;                                  \
			}                                               \
			if ((table)[i_].stamp < (table)[old_].stamp)    \
				old_ = i_;                              \
		}                                                       \
		if ((found) == NULL) {                                  \
			(found) = &(table)[old_];                       \
			memset((found), 0, sizeof *(found));            \
		}                                                       \
	} while (0)

#define FIND(table, n, found, cond) do {                                \
		size_t i_;                                              \
		(found) = NULL;                                         \
		for (i_ = 0; i_ < (n) && (found) == NULL; i_++)         \
			if ((table)[i_].stamp != 0 && (cond))           \
				(found) = &(table)[i_];                 \
	} while (0)

static int same_id(const uint8_t *a, size_t alen, const uint8_t *b,
                   size_t blen)
{
	return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

/* A connection ID copied (src may be NULL when len is 0). */
static void copy_id(uint8_t *dst, const uint8_t *src, size_t len)
{
	if (len != 0)
		memcpy(dst, src, len);
}

static int space_of(enum quic_packet_type t)
{
	return t == QUIC_PT_INITIAL ? SPACE_INITIAL :
	       t == QUIC_PT_HANDSHAKE ? SPACE_HANDSHAKE : SPACE_APP;
}

static void remember_cid(struct up_state *s, const uint8_t *id, size_t len,
                         uint32_t version)
{
	struct cid_entry *e;

	if (len == 0)
		return;
	PICK(s->cids, UP_MAX_CIDS, e, same_id(s->cids[i_].id, s->cids[i_].len,
	                                       id, len));
	copy_id(e->id, id, len);
	e->len = len;
	e->version = version;
	e->stamp = ++s->clock;
}

static int same_space(const struct space_key *a, const struct space_key *b)
{
	return a->source == b->source && a->conn == b->conn &&
	       a->server == b->server && a->space == b->space &&
	       same_id(a->id, a->id_len, b->id, b->id_len);
}

static uint64_t largest_of(struct up_state *s, const struct space_key *k)
{
	struct space_entry *e;

	FIND(s->spaces, UP_MAX_SPACES, e, same_space(&s->spaces[i_].key, k));
	return e != NULL ? e->largest : QUIC_PN_NONE;
}

static void note_pn(struct up_state *s, const struct space_key *k,
                    uint64_t pn)
{
	struct space_entry *e;

	PICK(s->spaces, UP_MAX_SPACES, e, same_space(&s->spaces[i_].key, k));
	if (e->stamp == 0 || pn > e->largest)
		e->largest = pn;
	e->key = *k;
	e->stamp = ++s->clock;
}

static void remember_odcid(struct up_state *s, const uint8_t *scid,
                           size_t scid_len, const uint8_t *odcid,
                           size_t odcid_len)
{
	struct odcid_entry *e;

	PICK(s->odcids, UP_MAX_ODCIDS, e,
	     same_id(s->odcids[i_].scid, s->odcids[i_].scid_len, scid,
	             scid_len) &&
	     same_id(s->odcids[i_].odcid, s->odcids[i_].odcid_len, odcid,
	             odcid_len));
	copy_id(e->scid, scid, scid_len);
	e->scid_len = scid_len;
	copy_id(e->odcid, odcid, odcid_len);
	e->odcid_len = odcid_len;
	e->stamp = ++s->clock;
}

static void remember_match(struct up_state *s, const uint8_t *dcid,
                           size_t len, int space, size_t conn,
                           enum keylog_label label)
{
	struct match_entry *e;

	PICK(s->matches, UP_MAX_MATCHES, e, s->matches[i_].space == space &&
	     same_id(s->matches[i_].dcid, s->matches[i_].dcid_len, dcid, len));
	copy_id(e->dcid, dcid, len);
	e->dcid_len = len;
	e->space = space;
	e->conn = conn;
	e->label = label;
	e->stamp = ++s->clock;
}

static struct ku_entry *find_ku(struct up_state *s, size_t conn,
                                enum keylog_label label)
{
	struct ku_entry *e;

	FIND(s->ku, UP_MAX_KU, e, s->ku[i_].conn == conn &&
	     s->ku[i_].label == label);
	return e;
}

/* ------------------------------------------------------------------ */
/* Keys of a candidate. */

static int derive(const struct up_state *s, const struct cand *c,
                  uint32_t version, struct quic_keys *keys);

/* The base secret of a secret or key-log candidate, and its hash. */
static const uint8_t *cand_secret(const struct up_state *s,
                                  const struct cand *c, size_t *len,
                                  enum quic_hash *hash)
{
	if (c->source == UP_SRC_SECRET) {
		*len = s->cfg.secret_len;
		*hash = s->cfg.hash;
		return s->cfg.secret;
	}
	*len = s->cfg.keylog->conns[c->conn].secret_len;
	*hash = *len == 48 ? QUIC_SHA384 : QUIC_SHA256;
	return s->cfg.keylog->conns[c->conn].secret[c->label];
}

static int same_key(const struct key_entry *e, const struct cand *c,
                    uint32_t version, uint32_t gen)
{
	return e->source == c->source && e->server == c->server &&
	       e->conn == c->conn && e->label == c->label &&
	       e->version == version && e->gen == gen &&
	       same_id(e->dcid, e->dcid_len, c->dcid, c->dcid_len);
}

/* The cached keys of c's generation gen, or NULL. */
static const struct quic_keys *cached(struct up_state *s, const struct cand *c,
                                      uint32_t version, uint32_t gen)
{
	struct key_entry *e;

	FIND(s->keys, KEY_CACHE, e, same_key(&s->keys[i_], c, version, gen));
	if (e == NULL)
		return NULL;
	e->stamp = ++s->clock;
	return &e->keys;
}

static void cache(struct up_state *s, const struct cand *c, uint32_t version,
                  uint32_t gen, const struct quic_keys *k)
{
	struct key_entry *e;

	PICK(s->keys, KEY_CACHE, e, same_key(&s->keys[i_], c, version, gen));
	aesecb_wipe(&e->keys, sizeof e->keys);
	e->source = c->source;
	e->server = c->server;
	e->conn = c->conn;
	e->label = c->label;
	copy_id(e->dcid, c->dcid, c->dcid_len);
	e->dcid_len = c->dcid_len;
	e->version = version;
	e->gen = gen;
	e->keys = *k;
	e->stamp = ++s->clock;
}

/*
 * The hp key and the generation-0 packet keys of a candidate (derived
 * once, then from the cache).  For a bare hp key, keys->key_len is 0.
 * QUIC_OK or a quic_status.
 */
static int cand_keys(struct up_state *s, const struct cand *c,
                     uint32_t version, struct quic_keys *keys)
{
	const struct quic_keys *k;
	int st;

	if (c->source != UP_SRC_HP_KEY && (k = cached(s, c, version, 0)) != NULL) {
		*keys = *k;
		return QUIC_OK;
	}
	st = derive(s, c, version, keys);
	if (st == QUIC_OK && c->source != UP_SRC_HP_KEY)
		cache(s, c, version, 0, keys);
	return st;
}

static int derive(const struct up_state *s, const struct cand *c,
                  uint32_t version, struct quic_keys *keys)
{
	struct quic_initial ik;
	const uint8_t *secret;
	size_t len;
	enum quic_hash hash;
	int st;

	memset(keys, 0, sizeof *keys);
	switch (c->source) {
	case UP_SRC_INITIAL:
		st = quic_initial_keys(version, c->dcid, c->dcid_len, &ik);
		if (st == QUIC_OK)
			*keys = c->server ? ik.server : ik.client;
		quic_initial_wipe(&ik);
		return st;
	case UP_SRC_SECRET:
	case UP_SRC_KEYLOG:
		secret = cand_secret(s, c, &len, &hash);
		return quic_traffic_keys(hash, version, secret, len, keys);
	case UP_SRC_HP_KEY:
		memcpy(keys->hp, s->cfg.hp_key, s->cfg.hp_key_len);
		keys->key_len = 0;
		return QUIC_OK;
	case UP_SRC_NONE:
	default:
		return QUIC_EINVAL;
	}
}

/* ------------------------------------------------------------------ */
/* One candidate on one packet. */

/* What a trial found. */
struct trial {
	int done;                     /* header protection removed */
	int ok;                       /* the tag verified */
	struct quic_pp_result r;
	uint8_t mask[MASK_LEN];
	uint32_t generation;
	int key_phase;
	int pn_known;
};

/* The keys of generation gen of c, whose secret is secret: key and IV
 * into a (derived once, then from the cache). */
static int gen_aead(struct up_state *s, const struct cand *c, uint32_t gen,
                    enum quic_hash hash, uint32_t version,
                    const uint8_t *secret, size_t len, struct quic_aead *a)
{
	const struct quic_keys *ck = cached(s, c, version, gen);
	struct quic_keys k;
	int st;

	if (ck != NULL)
		return quic_aead_init_keys(a, ck);
	st = quic_traffic_keys(hash, version, secret, len, &k);
	if (st == QUIC_OK) {
		cache(s, c, version, gen, &k);
		st = quic_aead_init_keys(a, &k);
	}
	quic_keys_wipe(&k);
	return st;
}

/* Where a trial works: the packet, its copy in s->scratch, the place of
 * its packet number and what is known of its number space. */
struct where {
	const uint8_t *pkt;
	size_t len, pn_offset;
	const uint8_t *dcid;          /* in pkt */
	size_t dcid_len;
	uint32_t version;
	uint64_t largest;             /* of the space of the key tried */
	int one_rtt;
};

/* Header protection removed from a copy of the packet with keys->hp (the
 * bare hp key for UP_SRC_HP_KEY): the mask, the packet number as sent and
 * recovered, the key phase.  QUIC_OK, or QUIC_ESAMPLE/QUIC_EINVAL. */
static int remove_hp(struct up_state *s, const struct cand *c,
                     const struct quic_keys *keys, const struct where *w,
                     struct trial *t)
{
	aesecb_ctx ctx;
	uint32_t tr = 0;
	int st, n, i;

	st = aesecb_init(&ctx, keys->hp, c->source == UP_SRC_HP_KEY ?
	                 s->cfg.hp_key_len : keys->key_len, s->cfg.backend);
	if (st != AESECB_OK)
		return QUIC_EINVAL;
	memcpy(s->scratch, w->pkt, w->len);
	st = aesecb_hp_mask(&ctx, w->pkt + w->pn_offset + QUIC_SAMPLE_GAP,
	                    t->mask);
	n = st == AESECB_OK ? aesecb_hp_unprotect(&ctx, s->scratch, w->len,
	                                          w->pn_offset) : st;
	aesecb_clear(&ctx);
	if (n < 0)
		return QUIC_ESAMPLE;
	for (i = 0; i < n; i++)
		tr = (tr << 8) | s->scratch[w->pn_offset + (size_t)i];
	t->done = 1;
	t->r.pn_len = (uint32_t)n;
	t->r.truncated = tr;
	t->r.pn = quic_pn_decode(w->largest, tr, (uint32_t)n);
	t->key_phase = w->one_rtt ? (s->scratch[0] >> 2) & 1 : 0;
	return QUIC_OK;
}

/* The tag of the unprotected copy checked with generation gen of c,
 * whose secret is secret. */
static int check_gen(struct up_state *s, const struct cand *c, uint32_t gen,
                     const uint8_t *secret, const struct where *w,
                     struct quic_pp_result *r)
{
	struct quic_aead aead;
	enum quic_hash hash;
	size_t slen;
	int st;

	cand_secret(s, c, &slen, &hash);
	st = gen_aead(s, c, gen, hash, w->version, secret, slen, &aead);
	if (st == QUIC_OK)
		st = quic_pp_check(&aead, s->scratch, w->len, w->pn_offset,
		                   w->largest, r);
	quic_aead_wipe(&aead);
	return st;
}

/* A generation that verified after the current one: it becomes current. */
static void advance(struct up_state *s, const struct cand *c,
                    struct ku_entry *ku, const uint8_t *base,
                    const uint8_t *next, size_t slen, uint32_t gen)
{
	if (ku == NULL) {
		PICK(s->ku, UP_MAX_KU, ku, 0);
		ku->conn = c->source == UP_SRC_SECRET ? SECRET_OPTION : c->conn;
		ku->label = c->label;
		memcpy(ku->cur, base, slen);
	}
	memcpy(ku->prev, ku->cur, slen);
	memcpy(ku->cur, next, slen);
	ku->have_prev = 1;
	ku->have_next = 0;
	ku->gen = gen + 1;
	ku->stamp = ++s->clock;
}

/*
 * A 1-RTT secret: the current key generation, else the next and the
 * previous (RFC 9001 6), each verdict folded with "the key phase is not
 * the current generation's", so that nothing branches on the phase bit.
 */
static int check_1rtt(struct up_state *s, const struct cand *c,
                      const struct where *w, struct trial *t)
{
	struct ku_entry *ku = find_ku(s, c->source == UP_SRC_SECRET ?
	                              SECRET_OPTION : c->conn, c->label);
	uint32_t gen = ku != NULL ? ku->gen : 0;
	uint8_t next[QUIC_MAX_HASH_LEN];
	struct quic_pp_result r;
	enum quic_hash hash;
	size_t slen;
	const uint8_t *base = cand_secret(s, c, &slen, &hash);
	const uint8_t *cur = ku != NULL ? ku->cur : base;
	int st, other = (s->scratch[0] >> 2 & 1) ^ (int)(gen & 1u);

	t->generation = gen;
	st = check_gen(s, c, gen, cur, w, &t->r);
	t->ok = st == QUIC_OK && t->r.ok;
	if (st != QUIC_OK || t->ok)
		goto out;
	if (ku != NULL && ku->have_next && ku->next_version == w->version)
		memcpy(next, ku->next, slen);
	else if ((st = quic_pp_next_secret(hash, w->version, cur, slen,
	                                   next)) != QUIC_OK)
		goto out;
	if ((st = check_gen(s, c, gen + 1, next, w, &r)) == QUIC_OK &&
	    (r.ok & other) != 0) {
		t->ok = 1;
		t->r = r;
		t->generation = gen + 1;
		advance(s, c, ku, base, next, slen, gen);
		goto out;
	}
	if (ku != NULL && !ku->have_next) {
		memcpy(ku->next, next, slen);
		ku->have_next = 1;
		ku->next_version = w->version;
	}
	if (st == QUIC_OK && ku != NULL && ku->have_prev &&
	    (st = check_gen(s, c, gen - 1, ku->prev, w, &r)) == QUIC_OK &&
	    (r.ok & other) != 0) {
		t->ok = 1;
		t->r = r;
		t->generation = gen - 1;
	}
out:
	if (ku != NULL)
		ku->stamp = ++s->clock;
	aesecb_wipe(next, sizeof next);
	return st;
}

/*
 * Try c on the packet: header protection removed from a copy (in
 * s->scratch), then, when check is set and c has a packet key, the tag
 * checked (1-RTT secrets: with their key generations).
 */
static int try_cand(struct up_state *s, const struct cand *c,
                    const struct where *w, int check, struct trial *t)
{
	struct quic_keys keys;
	struct quic_aead aead;
	int st;

	memset(t, 0, sizeof *t);
	t->pn_known = w->largest != QUIC_PN_NONE;
	if ((st = cand_keys(s, c, w->version, &keys)) != QUIC_OK)
		return st;
	st = remove_hp(s, c, &keys, w, t);
	if (st == QUIC_OK && check && keys.key_len != 0) {
		if (w->one_rtt && c->source != UP_SRC_INITIAL) {
			st = check_1rtt(s, c, w, t);
		} else {
			st = quic_aead_init_keys(&aead, &keys);
			if (st == QUIC_OK)
				st = quic_pp_check(&aead, s->scratch, w->len,
				                   w->pn_offset, w->largest, &t->r);
			t->ok = st == QUIC_OK && t->r.ok;
			quic_aead_wipe(&aead);
		}
	}
	quic_keys_wipe(&keys);
	return st;
}

/* ------------------------------------------------------------------ */
/* Candidates. */

static int add_cand(struct cand *list, size_t *n, size_t cap,
                    const struct cand *c)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (list[i].source == c->source && list[i].server == c->server &&
		    list[i].conn == c->conn && list[i].label == c->label &&
		    same_id(list[i].dcid, list[i].dcid_len, c->dcid,
		            c->dcid_len))
			return 0;
	if (*n == cap)
		return -1;
	list[(*n)++] = *c;
	return 0;
}

static void add_initial(struct up_state *s, size_t *n,
                        enum up_dcid_from from, const uint8_t *dcid,
                        size_t len, int server)
{
	struct cand c;

	memset(&c, 0, sizeof c);
	c.source = UP_SRC_INITIAL;
	c.server = server;
	c.dcid_from = from;
	copy_id(c.dcid, dcid, len);
	c.dcid_len = len;
	add_cand(s->cands, n, s->cands_cap, &c);
}

/* The Initial keys to try on a packet with header h. */
static void initial_cands(struct up_state *s, const struct quic_header *h,
                          size_t *n)
{
	const struct up_config *cfg = &s->cfg;
	const struct odcid_entry *e;
	size_t i;

	/* first the one the options name: --odcid (the client's side unless
	 * --server), else the packet's own DCID */
	if (cfg->have_odcid) {
		if (!cfg->server_only)
			add_initial(s, n, UP_DCID_OPTION, cfg->odcid,
			            cfg->odcid_len, 0);
		add_initial(s, n, UP_DCID_OPTION, cfg->odcid, cfg->odcid_len, 1);
	}
	if (!cfg->server_only)
		add_initial(s, n, UP_DCID_OWN, h->dcid, h->dcid_len, 0);
	/* the original DCID of the client that has this SCID (its later
	 * Initials) or this DCID (the server's Initials to it) */
	for (i = 0; i < UP_MAX_ODCIDS; i++) {
		e = &s->odcids[i];
		if (e->stamp == 0)
			continue;
		if (same_id(e->scid, e->scid_len, h->scid, h->scid_len) &&
		    !cfg->server_only)
			add_initial(s, n, UP_DCID_REMEMBERED, e->odcid,
			            e->odcid_len, 0);
		if (same_id(e->scid, e->scid_len, h->dcid, h->dcid_len))
			add_initial(s, n, UP_DCID_REMEMBERED, e->odcid,
			            e->odcid_len, 1);
	}
	/* then every original DCID remembered */
	for (i = 0; i < UP_MAX_ODCIDS; i++) {
		e = &s->odcids[i];
		if (e->stamp == 0)
			continue;
		add_initial(s, n, UP_DCID_REMEMBERED, e->odcid, e->odcid_len,
		            1);
		if (!cfg->server_only)
			add_initial(s, n, UP_DCID_REMEMBERED, e->odcid,
			            e->odcid_len, 0);
	}
}

/* The labels of a packet type's level in a key log. */
static size_t labels_of(enum quic_packet_type t, enum keylog_label *l)
{
	switch (t) {
	case QUIC_PT_HANDSHAKE:
		l[0] = KEYLOG_CLIENT_HANDSHAKE;
		l[1] = KEYLOG_SERVER_HANDSHAKE;
		return 2;
	case QUIC_PT_0RTT:
		l[0] = KEYLOG_CLIENT_EARLY;
		return 1;
	case QUIC_PT_1RTT:
		l[0] = KEYLOG_CLIENT_TRAFFIC;
		l[1] = KEYLOG_SERVER_TRAFFIC;
		return 2;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------------ */
/* State. */

int up_new(struct up_state **sp, const struct up_config *cfg)
{
	struct up_state *s;

	if (sp == NULL)
		return QUIC_EINVAL;
	*sp = NULL;
	if (cfg == NULL ||
	    (!cfg->initial && !cfg->have_secret && cfg->keylog == NULL &&
	     !cfg->have_hp_key) ||
	    (cfg->have_hp_key && (cfg->initial || cfg->have_secret ||
	                          cfg->keylog != NULL)) ||
	    (cfg->have_secret && cfg->keylog != NULL) ||
	    (cfg->have_pn_offset && cfg->keylog != NULL) ||
	    (cfg->have_secret && cfg->secret_len != quic_hash_len(cfg->hash)) ||
	    (cfg->have_hp_key && cfg->hp_key_len != 16 &&
	     cfg->hp_key_len != 24 && cfg->hp_key_len != 32) ||
	    cfg->odcid_len > QUIC_MAX_CID_LEN ||
	    (cfg->server_only && !cfg->have_odcid) ||
	    !quic_version_known(cfg->version))
		return QUIC_EINVAL;
	s = calloc(1, sizeof *s);
	if (s == NULL)
		return UP_ENOMEM;
	s->cfg = *cfg;
	/* every candidate of a packet: the Initial keys (--odcid and own,
	 * and two per remembered DCID, on two passes), or two secrets per
	 * connection of the key log and the one that worked for the DCID */
	s->cands_cap = 3 + 4 * UP_MAX_ODCIDS +
	               (cfg->keylog != NULL ? 2 * cfg->keylog->n + 1 : 1);
	s->cands = calloc(s->cands_cap, sizeof *s->cands);
	if (s->cands == NULL) {
		free(s);
		return UP_ENOMEM;
	}
	*sp = s;
	return QUIC_OK;
}

void up_free(struct up_state *s)
{
	if (s == NULL)
		return;
	if (s->scratch != NULL) {
		aesecb_wipe(s->scratch, 2 * s->scratch_size);
		free(s->scratch);
	}
	free(s->cands);
	free(s->held);
	free(s->orig);
	aesecb_wipe(s, sizeof *s);
	free(s);
}

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
	case UP_REFUSED:
		return "refused";
	case UP_INVALID:
	default:
		return "invalid";
	}
}

/* Append "; or " (unless first) and text to buf, within size. */
static void add_hint(char *buf, size_t size, const char *text)
{
	size_t n = strlen(buf);
	const char *sep = n != 0 ? "; or " : "";

	snprintf(buf + n, size - n, "%s", sep);
	n += strlen(buf + n);
	snprintf(buf + n, size - n, "%s", text);
}

char *up_hints_text(const struct up_packet *p, char *buf, size_t size)
{
	if (buf == NULL || size == 0)
		return buf;
	buf[0] = '\0';
	if (p->hints & UP_HINT_ODCID)
		add_hint(buf, size, "an Initial is keyed by the client's first "
		         "DCID: give --odcid");
	if (p->hints & UP_HINT_DCIDLEN)
		add_hint(buf, size, "the short header's DCID length is not the "
		         "one guessed: give --dcid-len");
	if (p->hints & UP_HINT_PN)
		add_hint(buf, size, "no earlier packet number of this "
		         "connection is known and the truncated one was taken "
		         "as the full one");
	if (p->hints & UP_HINT_CHACHA)
		add_hint(buf, size, buf[0] == '\0' ?
		         "the key is not this packet's, or the connection uses "
		         "ChaCha20-Poly1305, whose header protection is not AES" :
		         "the connection uses ChaCha20-Poly1305, whose header "
		         "protection is not AES");
	return buf;
}

/* ------------------------------------------------------------------ */
/* Datagrams. */

/* Room for two copies of a packet of len bytes. */
static int scratch_for(struct up_state *s, size_t len)
{
	uint8_t *p;

	if (len <= s->scratch_size)
		return 0;
	p = malloc(2 * len);
	if (p == NULL)
		return UP_ENOMEM;
	if (s->scratch != NULL) {
		aesecb_wipe(s->scratch, 2 * s->scratch_size);
		free(s->scratch);
	}
	s->scratch = p;
	s->best = p + len;
	s->scratch_size = len;
	return 0;
}

/* The most recent first. */
static int by_stamp(const void *a, const void *b)
{
	unsigned long x = (*(const struct cid_entry *const *)a)->stamp;
	unsigned long y = (*(const struct cid_entry *const *)b)->stamp;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Adds (len, v) to the n places of lens and versions, unless there. */
static void add_len(size_t *lens, uint32_t *versions, size_t *n, size_t len,
                    uint32_t v)
{
	size_t j;

	for (j = 0; j < *n && (lens[j] != len || versions[j] != v); j++)
		;
	if (j == *n && *n < MAX_PLACES) {
		lens[*n] = len;
		versions[(*n)++] = v;
	}
}

/*
 * A short header's DCID lengths to try, each with the QUIC version of its
 * connection: --dcid-len, else those of the connection IDs seen (in long
 * headers, or in short headers that verified) that the packet starts
 * with, then every other (length, version) of those seen (*guessed then
 * set), each once, most recent first.  When the packet starts with none
 * of them and a tag can tell (sweep), every length from 0 to
 * QUIC_MAX_CID_LEN is tried too, and *guessed is clear again: the length
 * is not what can be wrong.  Returns the count (at most MAX_PLACES: 21
 * lengths under each of two versions).
 */
static size_t dcid_lens(const struct up_state *s, const uint8_t *pkt,
                        size_t len, int sweep, size_t *lens,
                        uint32_t *versions, int *guessed)
{
	const struct cid_entry *list[UP_MAX_CIDS];
	size_t n = 0, seen = 0, m, i;
	int pass;

	*guessed = 0;
	if (s->cfg.dcid_len != QUIC_DCID_LEN_UNKNOWN) {
		lens[0] = s->cfg.dcid_len;
		versions[0] = s->cfg.version;
		return 1;
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = m = 0; i < UP_MAX_CIDS; i++) {
			const struct cid_entry *e = &s->cids[i];
			int prefix = e->len <= len - 1 &&
			             memcmp(pkt + 1, e->id, e->len) == 0;

			if (e->stamp != 0 && prefix == (pass == 0))
				list[m++] = e;
		}
		qsort(list, m, sizeof list[0], by_stamp);
		for (i = 0; i < m; i++)
			add_len(lens, versions, &n, list[i]->len,
			        s->cfg.version_given ? s->cfg.version
			                             : list[i]->version);
		if (pass == 0)
			seen = n;
		else
			*guessed = n > seen;
	}
	if (seen == 0 && sweep) {
		for (i = 0; i <= QUIC_MAX_CID_LEN; i++)
			add_len(lens, versions, &n, i, s->cfg.version);
		*guessed = 0;
	}
	return n;
}

/* Fill the header fields of p from a trial. */
static void take_trial(struct up_packet *p, const struct trial *t,
                       const struct cand *c, size_t pn_offset)
{
	p->pn_offset = pn_offset;
	p->pn_len = t->r.pn_len;
	p->truncated_pn = t->r.truncated;
	p->pn = t->r.pn;
	p->pn_known = t->pn_known;
	memcpy(p->mask, t->mask, MASK_LEN);
	p->key_phase = t->key_phase;
	p->generation = t->generation;
	p->source = c->source;
	p->server = c->server;
	p->keylog_conn = c->conn;
	p->keylog_label = c->label;
	p->dcid_from = c->dcid_from;
	copy_id(p->key_dcid, c->dcid, c->dcid_len);
	p->key_dcid_len = c->dcid_len;
}

/* The length of a candidate's secret, or 0 (Initial keys, hp key). */
static size_t secret_len_of(const struct up_state *s, const struct cand *c)
{
	size_t len = 0;
	enum quic_hash hash;

	if (c->source == UP_SRC_SECRET || c->source == UP_SRC_KEYLOG)
		cand_secret(s, c, &len, &hash);
	return len;
}

static int is_server_label(enum keylog_label l)
{
	return l == KEYLOG_SERVER_HANDSHAKE || l == KEYLOG_SERVER_TRAFFIC;
}

/* The key-log secrets of the packet's level: on the first pass the one
 * that verified for its DCID before, on the second every other one of
 * every connection, both sides. */
static size_t keylog_cands(struct up_state *s, const struct quic_header *hdr,
                           const uint8_t *pkt, size_t len,
                           enum quic_packet_type type, int pass)
{
	const struct keylog *kl = s->cfg.keylog;
	const struct match_entry *m = NULL;
	enum keylog_label labels[2];
	size_t nlabels = labels_of(type, labels), n = 0, i, k;
	int space = space_of(type);
	struct cand c;

	memset(&c, 0, sizeof c);
	c.source = UP_SRC_KEYLOG;
	if (hdr->long_header)
		FIND(s->matches, UP_MAX_MATCHES, m,
		     s->matches[i_].space == space &&
		     same_id(s->matches[i_].dcid, s->matches[i_].dcid_len,
		             hdr->dcid, hdr->dcid_len));
	else
		FIND(s->matches, UP_MAX_MATCHES, m,
		     s->matches[i_].space == space &&
		     s->matches[i_].dcid_len < len &&
		     memcmp(pkt + 1, s->matches[i_].dcid,
		            s->matches[i_].dcid_len) == 0);
	if (m != NULL && !(kl->conns[m->conn].have & (1u << m->label)))
		m = NULL;
	if (pass == 0) {
		if (m == NULL)
			return 0;
		c.conn = m->conn;
		c.label = m->label;
		c.server = is_server_label(m->label);
		s->cands[0] = c;
		return 1;
	}
	/* one per connection and label: no duplicates to look for */
	for (i = 0; i < kl->n; i++)
		for (k = 0; k < nlabels && n < s->cands_cap; k++) {
			if (!(kl->conns[i].have & (1u << labels[k])) ||
			    (m != NULL && m->conn == i && m->label == labels[k]))
				continue;
			c.conn = i;
			c.label = labels[k];
			c.server = is_server_label(labels[k]);
			s->cands[n++] = c;
		}
	return n;
}

/* The keys to try on a packet on pass 0 or 1 (a key log's likely one
 * first, then the rest), in s->cands. */
static size_t packet_cands(struct up_state *s, const struct quic_header *hdr,
                           const uint8_t *pkt, size_t len,
                           const struct up_packet *p, int pass)
{
	const struct up_config *cfg = &s->cfg;
	size_t n = 0;

	if (p->type != QUIC_PT_INITIAL && cfg->keylog != NULL)
		return keylog_cands(s, hdr, pkt, len, p->type, pass);
	if (pass != 0)
		return 0;
	if (p->type == QUIC_PT_INITIAL && cfg->initial)
		initial_cands(s, hdr, &n);
	else if (cfg->have_secret || cfg->have_hp_key) {
		memset(&s->cands[0], 0, sizeof s->cands[0]);
		s->cands[0].source = cfg->have_secret ? UP_SRC_SECRET
		                                      : UP_SRC_HP_KEY;
		s->cands[0].server = -1;
		n = 1;
	}
	return n;
}

/* Whether any key of the packet's type was given. */
static int has_keys(const struct up_state *s, const struct up_packet *p)
{
	const struct keylog *kl = s->cfg.keylog;
	enum keylog_label labels[2];
	size_t nlabels, i, k;

	if (p->type == QUIC_PT_INITIAL)
		return s->cfg.initial || s->cfg.have_secret ||
		       s->cfg.have_hp_key;
	if (kl == NULL)
		return s->cfg.have_secret || s->cfg.have_hp_key;
	nlabels = labels_of(p->type, labels);
	for (i = 0; i < kl->n; i++)
		for (k = 0; k < nlabels; k++)
			if (kl->conns[i].have & (1u << labels[k]))
				return 1;
	return 0;
}

/* No key of the packet's type was given: p skipped, with the reason. */
static void skipped(const struct up_state *s, struct up_packet *p)
{
	p->verdict = UP_SKIPPED;
	if (p->type != QUIC_PT_INITIAL && s->cfg.keylog != NULL)
		snprintf(p->why, sizeof p->why, "the key log has no %s secrets",
		         quic_packet_type_name(p->type));
	else
		snprintf(p->why, sizeof p->why, "no %s keys given (%s)",
		         quic_packet_type_name(p->type),
		         p->type == QUIC_PT_INITIAL ? "--initial" :
		         "--keylog or --secret");
}

/* The places to try a packet at: one for a long header (or --pn-offset),
 * for a short header one per DCID length to try (every length when no
 * connection ID has been seen and the tag is checked); 0 (and p invalid)
 * when a short header's cannot be told. */
static size_t packet_places(struct up_state *s, const struct quic_header *hdr,
                            const uint8_t *pkt, size_t len, int checked,
                            struct up_packet *p, struct where *w,
                            int *guessed)
{
	const struct up_config *cfg = &s->cfg;
	size_t lens[MAX_PLACES], n = 1, i, k = 0;
	uint32_t versions[MAX_PLACES];
	int given = cfg->have_pn_offset && p->index == 1;

	*guessed = 0;
	lens[0] = hdr->dcid_len;
	versions[0] = hdr->version;
	if (!hdr->long_header && given) {
		lens[0] = cfg->pn_offset - 1;
		versions[0] = cfg->version;
	} else if (!hdr->long_header) {
		/* with a bare hp key no tag tells a wrong guess */
		n = cfg->have_hp_key && cfg->dcid_len == QUIC_DCID_LEN_UNKNOWN ?
		    0 : dcid_lens(s, pkt, len, checked, lens, versions, guessed);
		if (n == 0) {
			p->verdict = UP_INVALID;
			p->status = QUIC_ENODCIDLEN;
			snprintf(p->why, sizeof p->why, "the packet has a short "
			         "header: give --dcid-len N (the length of its "
			         "Destination Connection ID)%s",
			         cfg->have_pn_offset ? "" : " or --pn-offset N");
			return 0;
		}
	}
	for (i = 0; i < n; i++) {
		w[k].pkt = pkt;
		w[k].len = len;
		w[k].version = versions[i];
		w[k].one_rtt = !hdr->long_header;
		w[k].pn_offset = given ? cfg->pn_offset :
		                 hdr->long_header ? hdr->pn_offset : 1 + lens[i];
		if (w[k].pn_offset > len ||
		    len - w[k].pn_offset < QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN)
			continue;
		w[k].dcid = hdr->long_header ? hdr->dcid : pkt + 1;
		/* (with --pn-offset a short header's "DCID" may be longer
		 * than a connection ID: its first 20 bytes stand for it) */
		w[k].dcid_len = w[k].dcid == NULL ? 0 :
		                lens[i] < QUIC_MAX_CID_LEN ? lens[i] :
		                QUIC_MAX_CID_LEN;
		k++;
	}
	if (k == 0) {
		p->verdict = UP_INVALID;
		p->status = QUIC_ESAMPLE;
		snprintf(p->why, sizeof p->why, "the packet is too short for its "
		         "header-protection sample");
	}
	return k;
}

/* The packet-number space of the packet at w if c is its key. */
static void space_key_of(const struct cand *c, const struct up_packet *p,
                         const struct where *w, struct space_key *k)
{
	memset(k, 0, sizeof *k);
	k->source = c->source;
	k->space = space_of(p->type);
	switch (c->source) {
	case UP_SRC_KEYLOG:
		k->conn = c->conn;
		k->server = is_server_label(c->label);
		break;
	case UP_SRC_INITIAL:
		k->server = c->server;
		copy_id(k->id, c->dcid, c->dcid_len);
		k->id_len = c->dcid_len;
		break;
	case UP_SRC_SECRET:
		break;
	default:
		copy_id(k->id, w->dcid, w->dcid_len);
		k->id_len = w->dcid_len;
		break;
	}
}

/* What the stream learns from a packet that verified at w. */
static void learn(struct up_state *s, const struct up_packet *p,
                  const struct quic_header *hdr, const struct cand *c,
                  const struct where *w)
{
	int space = space_of(p->type);
	struct space_key k;

	space_key_of(c, p, w, &k);
	note_pn(s, &k, p->pn);
	if (c->source == UP_SRC_KEYLOG)
		remember_match(s, p->dcid, p->dcid_len, space, c->conn, c->label);
	if (c->source == UP_SRC_INITIAL && !c->server)
		remember_odcid(s, hdr->scid, hdr->scid_len, c->dcid, c->dcid_len);
	/* a short header's DCID, its length now known, for the packets of
	 * its connection that follow */
	if (w->one_rtt)
		remember_cid(s, p->dcid, p->dcid_len, w->version);
}

/* p takes the trial's header fields and key, and the packet the copy
 * (s->scratch or s->best) with its header protection removed. */
static void take(struct up_packet *p, uint8_t *pkt, const uint8_t *copy,
                 const struct trial *t, const struct cand *c,
                 const struct where *w)
{
	memcpy(pkt, copy, w->len);
	take_trial(p, t, c, w->pn_offset);
	if (w->one_rtt) {
		p->dcid = pkt + 1;
		p->dcid_len = w->dcid_len;
	}
}

/* The likely causes of a failure. */
static unsigned failure_hints(const struct up_state *s,
                              const struct up_packet *p, int guessed,
                              int pn_known, int tried_32)
{
	unsigned h = 0;

	if (p->type == QUIC_PT_INITIAL && s->cfg.initial && !s->cfg.have_odcid)
		h |= UP_HINT_ODCID;
	if (guessed)
		h |= UP_HINT_DCIDLEN;
	if (!pn_known && p->type != QUIC_PT_INITIAL)
		h |= UP_HINT_PN;
	if (tried_32 && p->type != QUIC_PT_INITIAL)
		h |= UP_HINT_CHACHA;
	return h;
}

/*
 * One packet: every candidate at every place until a tag verifies.  The
 * winner's copy is written back; without a check (a prefix, a bare hp
 * key), or for a failure with a single key and place, the first one's.
 */
static int do_packet(struct up_state *s, uint8_t *pkt, size_t len,
                     const struct quic_header *hdr, int truncated,
                     struct up_packet *p)
{
	struct where w[MAX_PLACES];
	struct trial t, first_t;
	struct cand first_c;
	size_t n, nw, i, k, first_w = 0, total = 0;
	int guessed, have_first = 0, tried_32 = 0, st, pass;

	if ((st = scratch_for(s, len)) != 0)
		return st;
	if (!has_keys(s, p)) {
		skipped(s, p);
		return 0;
	}
	if ((nw = packet_places(s, hdr, pkt, len, !truncated, p, w,
	                        &guessed)) == 0)
		return 0;
	for (pass = 0; pass < 2; pass++) {
		n = packet_cands(s, hdr, pkt, len, p, pass);
		if (truncated && n > 1)
			n = 1;   /* without the payload nothing tells them apart */
		total += n;
		for (k = 0; k < nw; k++) {
			for (i = 0; i < n; i++) {
				const struct cand *c = &s->cands[i];

				struct space_key sk;

				tried_32 |= secret_len_of(s, c) == 32;
				space_key_of(c, p, &w[k], &sk);
				w[k].largest = largest_of(s, &sk);
				st = try_cand(s, c, &w[k], !truncated, &t);
				p->candidates++;
				if (st != QUIC_OK || !t.done)
					continue;
				if (!have_first) {
					have_first = 1;
					first_t = t;
					first_w = k;
					first_c = *c;
					memcpy(s->best, s->scratch, len);
				}
				if (truncated || c->source == UP_SRC_HP_KEY)
					goto no_check;
				if (t.ok) {
					take(p, pkt, s->scratch, &t, c, &w[k]);
					p->verdict = UP_AUTHENTICATED;
					learn(s, p, hdr, c, &w[k]);
					goto out;
				}
			}
		}
	}
	if (!have_first) {
		p->verdict = UP_INVALID;
		p->status = QUIC_ESAMPLE;
		snprintf(p->why, sizeof p->why, "the packet is too short for its "
		         "header-protection sample");
		goto out;
	}
	/* no tag verified: with one key, what it made of the header, as the
	 * tool always showed it */
	p->verdict = UP_FAILED;
	if (total == 1 && nw == 1)
		take(p, pkt, s->best, &first_t, &first_c, &w[first_w]);
	else
		p->source = first_c.source;
	p->pn_known = first_t.pn_known;
	p->hints = failure_hints(s, p, guessed, first_t.pn_known, tried_32);
	goto out;
no_check:
	take(p, pkt, s->best, &first_t, &first_c, &w[first_w]);
	p->verdict = first_c.source == UP_SRC_HP_KEY ? UP_NO_PACKET_KEY
	                                             : UP_TRUNCATED;
out:
	aesecb_wipe(s->scratch, len);
	aesecb_wipe(s->best, len);
	return 0;
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
	    (!s->cfg.initial && st != QUIC_EVERSION) ||
	    (s->cfg.have_hp_key && st == QUIC_EVERSION)) {
		*truncated = long_header;
		return 1;
	}
	return 0;
}

/* The checks of --pn-offset on the first packet: 0, or p invalid. */
static int check_pn_offset(const struct up_state *s, struct up_packet *p)
{
	size_t off = s->cfg.pn_offset;

	if (off == 0)
		snprintf(p->why, sizeof p->why, "--pn-offset 0: the packet "
		         "number cannot start at the first byte");
	else if (off >= p->len)
		snprintf(p->why, sizeof p->why, "--pn-offset %zu is past the end "
		         "of the packet (%zu bytes)", off, p->len);
	else if (p->len - off < QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN)
		snprintf(p->why, sizeof p->why, "packet too short for its sample: "
		         "the sample is bytes %zu to %zu, so %zu bytes are "
		         "needed; the packet has %zu", off + QUIC_SAMPLE_GAP,
		         off + QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN - 1,
		         off + QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN, p->len);
	else if (s->cfg.initial && p->version != 0 &&
	         p->type != QUIC_PT_INITIAL && s->cfg.keylog == NULL &&
	         !s->cfg.have_secret)
		snprintf(p->why, sizeof p->why, "--initial: the packet is a %s "
		         "packet, not an Initial packet",
		         quic_packet_type_name(p->type));
	else
		return 0;
	p->verdict = UP_INVALID;
	return -1;
}

/* One part of a datagram (d + part->offset) into p. */
static int uses_hp_key(const struct up_state *s, const struct up_packet *p);

static int do_part(struct up_state *s, uint8_t *d, size_t len,
                   const struct dgram_part *part, size_t index,
                   struct up_packet *p)
{
	const struct quic_header *h = &part->h;
	int st = part->status, truncated = 0, given;
	int ok = st == QUIC_OK || (st == QUIC_ENODCIDLEN && !h->long_header);

	memset(p, 0, sizeof *p);
	p->kind = part->kind;
	p->index = index;
	p->offset = part->offset;
	p->len = part->len;
	p->bytes = d + part->offset;
	p->type = part->kind == DGRAM_PADDING ? QUIC_PT_NONE : h->type;
	p->version = h->version;
	p->dcid = h->dcid;
	p->dcid_len = h->dcid_len;
	p->status = st;
	if (part->kind == DGRAM_PADDING) {
		p->verdict = UP_PADDING;
		return 0;
	}
	/* Retry and Version Negotiation, whole or cut short: never
	 * unprotected, whatever the key source */
	if (st == QUIC_ENOPROTECTION || h->type == QUIC_PT_RETRY ||
	    h->type == QUIC_PT_VERSION_NEGOTIATION) {
		p->verdict = UP_REFUSED;
		p->len = len - part->offset;
		quic_header_error(h, QUIC_ENOPROTECTION, p->why, sizeof p->why);
		return 0;
	}
	given = index == 1 && s->cfg.have_pn_offset;
	if (!ok && given && vouched(s, st, h->long_header, &truncated)) {
		ok = 1;
		p->len = len - part->offset;
	}
	if (!ok) {
		p->verdict = UP_INVALID;
		quic_header_error(h, st, p->why, sizeof p->why);
		return 0;
	}
	/* the connection IDs short headers may carry: the SCID (the peer's
	 * DCID) and the DCID (coalesced packets share it, RFC 9000 12.2) */
	if (h->long_header && st == QUIC_OK) {
		remember_cid(s, h->scid, h->scid_len, h->version);
		remember_cid(s, h->dcid, h->dcid_len, h->version);
	}
	if (given && check_pn_offset(s, p) != 0)
		return 0;
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
	return do_packet(s, d + part->offset, p->len, h, truncated, p);
}

/* Whether p would be unprotected with the bare hp key (-k). */
static int uses_hp_key(const struct up_state *s, const struct up_packet *p)
{
	const struct up_config *cfg = &s->cfg;

	if (!cfg->have_hp_key)
		return 0;
	if (p->type == QUIC_PT_INITIAL)
		return !cfg->initial;
	return cfg->keylog == NULL;
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
	return s->cfg.have_secret && !s->cfg.initial && s->cfg.keylog == NULL;
}

static int hold(struct up_state *s, size_t n, const struct up_packet *p)
{
	if (n == s->held_cap) {
		size_t cap = s->held_cap ? 2 * s->held_cap : 8;
		struct up_packet *h = realloc(s->held, cap * sizeof *h);

		if (h == NULL)
			return UP_ENOMEM;
		s->held = h;
		s->held_cap = cap;
	}
	s->held[n] = *p;
	return 0;
}

static int one_level_datagram(struct up_state *s, uint8_t *d, size_t len,
                              up_packet_fn *fn, void *arg)
{
	struct dgram_part part;
	struct up_packet p;
	size_t pos = 0, n = 0, i;
	unsigned verified = 0;
	int rc = 0;

	if (len > s->orig_cap) {
		uint8_t *o = realloc(s->orig, len);

		if (o == NULL)
			return UP_ENOMEM;
		s->orig = o;
		s->orig_cap = len;
	}
	memcpy(s->orig, d, len);
	while (dgram_next(d, len, pos, s->cfg.dcid_len, &part)) {
		if ((rc = do_part(s, d, len, &part, n + 1, &p)) != 0 ||
		    (rc = hold(s, n, &p)) != 0)
			return rc;
		if (p.verdict == UP_AUTHENTICATED)
			verified |= 1u << p.type;
		n++;
		pos += p.len;
	}
	for (i = 0; i < n; i++) {
		struct up_packet *q = &s->held[i];

		if (q->verdict == UP_FAILED && verified != 0 &&
		    !(verified & (1u << q->type))) {
			memcpy(d + q->offset, s->orig + q->offset, q->len);
			q->verdict = UP_SKIPPED;
			q->hints = 0;
			snprintf(q->why, sizeof q->why, "no %s keys given: the "
			         "secret is another level's (it verified another "
			         "packet of the datagram)",
			         quic_packet_type_name(q->type));
		}
		if (rc == 0)
			rc = fn(arg, q);
	}
	return rc;
}

int up_datagram(struct up_state *s, uint8_t *d, size_t len,
                up_packet_fn *fn, void *arg)
{
	struct dgram_part part;
	struct up_packet p;
	size_t pos = 0, index = 0;
	int rc;

	if (s == NULL || d == NULL || fn == NULL)
		return QUIC_EINVAL;
	s->hp_key_used = 0;
	if (one_level(s))
		return one_level_datagram(s, d, len, fn, arg);
	while (dgram_next(d, len, pos, s->cfg.dcid_len, &part)) {
		if ((rc = do_part(s, d, len, &part, ++index, &p)) != 0 ||
		    (rc = fn(arg, &p)) != 0)
			return rc;
		pos += p.len;
	}
	return 0;
}
