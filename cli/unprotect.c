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

struct space_entry {              /* the largest packet number of a space */
	uint8_t dcid[QUIC_MAX_CID_LEN];
	size_t dcid_len;
	int space;
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
	memcpy(e->id, id, len);
	e->len = len;
	e->version = version;
	e->stamp = ++s->clock;
}

static uint64_t largest_of(struct up_state *s, const uint8_t *dcid,
                           size_t len, int space)
{
	struct space_entry *e;

	FIND(s->spaces, UP_MAX_SPACES, e, s->spaces[i_].space == space &&
	     same_id(s->spaces[i_].dcid, s->spaces[i_].dcid_len, dcid, len));
	return e != NULL ? e->largest : QUIC_PN_NONE;
}

static void note_pn(struct up_state *s, const uint8_t *dcid, size_t len,
                    int space, uint64_t pn)
{
	struct space_entry *e;
	int fresh;

	PICK(s->spaces, UP_MAX_SPACES, e, s->spaces[i_].space == space &&
	     same_id(s->spaces[i_].dcid, s->spaces[i_].dcid_len, dcid, len));
	fresh = e->stamp == 0;
	memcpy(e->dcid, dcid, len);
	e->dcid_len = len;
	e->space = space;
	if (fresh || pn > e->largest)
		e->largest = pn;
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
	memcpy(e->scid, scid, scid_len);
	e->scid_len = scid_len;
	memcpy(e->odcid, odcid, odcid_len);
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
	memcpy(e->dcid, dcid, len);
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
	memcpy(e->dcid, c->dcid, c->dcid_len);
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

/*
 * Try c on pkt[0..len) (a copy goes to s->scratch): header protection
 * removed with its hp key, then the tag checked with its packet key (and,
 * for 1-RTT secrets, the keys of the next and previous generations).
 */
static int try_cand(struct up_state *s, const struct cand *c,
                    const uint8_t *pkt, size_t len, size_t pn_offset,
                    int one_rtt, uint32_t version, uint64_t largest,
                    int check, struct trial *t)
{
	struct quic_keys keys;
	struct quic_aead aead;
	aesecb_ctx ctx;
	int st, n;

	memset(t, 0, sizeof *t);
	t->pn_known = largest != QUIC_PN_NONE;
	st = cand_keys(s, c, version, &keys);
	if (st != QUIC_OK)
		return st;
	st = aesecb_init(&ctx, keys.hp, c->source == UP_SRC_HP_KEY ?
	                 s->cfg.hp_key_len : keys.key_len, s->cfg.backend);
	if (st != AESECB_OK) {
		quic_keys_wipe(&keys);
		return QUIC_EINVAL;
	}
	memcpy(s->scratch, pkt, len);
	st = aesecb_hp_mask(&ctx, pkt + pn_offset + QUIC_SAMPLE_GAP, t->mask);
	n = st == AESECB_OK ? aesecb_hp_unprotect(&ctx, s->scratch, len,
	                                          pn_offset) : st;
	aesecb_clear(&ctx);
	if (n < 0) {
		quic_keys_wipe(&keys);
		return QUIC_ESAMPLE;
	}
	t->done = 1;
	t->r.pn_len = (uint32_t)n;
	/* without a check, the packet number as sent, recovered */
	{
		uint32_t tr = 0;
		int i;

		for (i = 0; i < n; i++)
			tr = (tr << 8) | s->scratch[pn_offset + (size_t)i];
		t->r.truncated = tr;
		t->r.pn = quic_pn_decode(largest, tr, (uint32_t)n);
	}
	t->key_phase = one_rtt ? (s->scratch[0] >> 2) & 1 : 0;
	if (!check || keys.key_len == 0) {
		quic_keys_wipe(&keys);
		return QUIC_OK;
	}

	if (!one_rtt || c->source == UP_SRC_INITIAL) {
		st = quic_aead_init_keys(&aead, &keys);
		if (st == QUIC_OK)
			st = quic_pp_check(&aead, s->scratch, len, pn_offset,
			                   largest, &t->r);
		t->ok = st == QUIC_OK && t->r.ok;
	} else {
		/* 1-RTT: the current generation, else the next and the
		 * previous, each only for a key phase other than the
		 * current one's */
		const uint8_t *base;
		size_t slen;
		enum quic_hash hash;
		struct ku_entry *ku = find_ku(s, c->source == UP_SRC_SECRET ?
		                              SECRET_OPTION : c->conn, c->label);
		uint32_t gen = ku != NULL ? ku->gen : 0;
		uint8_t next[QUIC_MAX_HASH_LEN];
		struct quic_pp_result r;
		int phase;

		base = cand_secret(s, c, &slen, &hash);
		st = gen_aead(s, c, gen, hash, version,
		              ku != NULL ? ku->cur : base, slen, &aead);
		if (st == QUIC_OK)
			st = quic_pp_check(&aead, s->scratch, len, pn_offset,
			                   largest, &t->r);
		t->ok = st == QUIC_OK && t->r.ok;
		t->generation = gen;
		phase = (s->scratch[0] >> 2) & 1;
		if (st == QUIC_OK && !t->ok) {
			const uint8_t *cur = ku != NULL ? ku->cur : base;

			if (ku != NULL && ku->have_next &&
			    ku->next_version == version)
				memcpy(next, ku->next, slen);
			else
				st = quic_pp_next_secret(hash, version, cur, slen,
				                         next);
			if (st == QUIC_OK)
				st = gen_aead(s, c, gen + 1, hash, version, next,
				              slen, &aead);
			if (st == QUIC_OK)
				st = quic_pp_check(&aead, s->scratch, len,
				                   pn_offset, largest, &r);
			if (st == QUIC_OK &&
			    (r.ok & (phase ^ (int)(gen & 1u))) != 0) {
				t->ok = 1;
				t->r = r;
				t->generation = gen + 1;
			}
		}
		if (st == QUIC_OK && !t->ok && ku != NULL && ku->have_prev) {
			st = gen_aead(s, c, gen - 1, hash, version, ku->prev,
			              slen, &aead);
			if (st == QUIC_OK)
				st = quic_pp_check(&aead, s->scratch, len,
				                   pn_offset, largest, &r);
			if (st == QUIC_OK &&
			    (r.ok & (phase ^ (int)(gen & 1u))) != 0) {
				t->ok = 1;
				t->r = r;
				t->generation = gen - 1;
			}
		}
		/* a generation that advanced is kept */
		if (t->ok && t->generation == gen + 1) {
			if (ku == NULL) {
				PICK(s->ku, UP_MAX_KU, ku, 0);
				ku->conn = c->source == UP_SRC_SECRET ?
				           SECRET_OPTION : c->conn;
				ku->label = c->label;
				memcpy(ku->cur, base, slen);
			}
			memcpy(ku->prev, ku->cur, slen);
			memcpy(ku->cur, next, slen);
			ku->have_prev = 1;
			ku->have_next = 0;
			ku->gen = gen + 1;
			ku->stamp = ++s->clock;
		} else if (ku != NULL) {
			if (!ku->have_next && st == QUIC_OK && !t->ok) {
				memcpy(ku->next, next, slen);
				ku->have_next = 1;
				ku->next_version = version;
			}
			ku->stamp = ++s->clock;
		}
		aesecb_wipe(next, sizeof next);
	}
	quic_aead_wipe(&aead);
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
	memcpy(c.dcid, dcid, len);
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

/* A short header's DCID lengths to try: --dcid-len, else those of the
 * connection IDs seen that the packet starts with, then every length of
 * those seen (each once, most recent first).  Returns the count. */
static size_t dcid_lens(const struct up_state *s, const uint8_t *pkt,
                        size_t len, size_t *lens, uint32_t *versions,
                        int *guessed)
{
	size_t n = 0, i, j, pass;

	*guessed = 0;
	if (s->cfg.dcid_len != QUIC_DCID_LEN_UNKNOWN) {
		lens[0] = s->cfg.dcid_len;
		versions[0] = s->cfg.version;
		return 1;
	}
	for (pass = 0; pass < 2; pass++) {
		/* most recent first: walk the stamps down */
		unsigned long below = (unsigned long)-1;

		for (;;) {
			const struct cid_entry *best = NULL;

			for (i = 0; i < UP_MAX_CIDS; i++) {
				const struct cid_entry *e = &s->cids[i];

				if (e->stamp == 0 || e->stamp >= below)
					continue;
				if (pass == 0 && (e->len > len - 1 ||
				    memcmp(pkt + 1, e->id, e->len) != 0))
					continue;
				if (best == NULL || e->stamp > best->stamp)
					best = e;
			}
			if (best == NULL)
				break;
			below = best->stamp;
			for (j = 0; j < n && lens[j] != best->len; j++)
				;
			if (j == n && n < QUIC_MAX_CID_LEN + 1) {
				lens[n] = best->len;
				versions[n] = s->cfg.version_given ? s->cfg.version
				                                   : best->version;
				if (pass == 1)
					*guessed = 1;
				n++;
			}
		}
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
	memcpy(p->key_dcid, c->dcid, c->dcid_len);
	p->key_dcid_len = c->dcid_len;
}

/*
 * One packet: the candidates of its type tried, the winner (or, for a
 * failure with a single candidate, that one) written back.
 */
static int do_packet(struct up_state *s, uint8_t *pkt, size_t len,
                     const struct quic_header *hdr, int truncated,
                     struct up_packet *p)
{
	struct cand *list = s->cands;
	const struct up_config *cfg = &s->cfg;
	size_t n = 0, i, lens[QUIC_MAX_CID_LEN + 1], nlens = 1, li;
	uint32_t versions[QUIC_MAX_CID_LEN + 1];
	enum keylog_label labels[2];
	size_t nlabels = labels_of(p->type, labels);
	int one_rtt = !hdr->long_header, guessed = 0, have_first = 0;
	int space = space_of(p->type), st, tried_32 = 0;
	struct trial t;
	struct cand first;
	size_t first_pn_offset = 0;
	struct trial first_t;

	memset(&first, 0, sizeof first);
	memset(&first_t, 0, sizeof first_t);
	if ((st = scratch_for(s, len)) != 0)
		return st;

	/* the candidates */
	if (p->type == QUIC_PT_INITIAL && cfg->initial) {
		initial_cands(s, hdr, &n);
	} else if (p->type != QUIC_PT_INITIAL && cfg->keylog != NULL) {
		struct cand c;
		const struct match_entry *m = NULL;

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
		if (m != NULL &&
		    (cfg->keylog->conns[m->conn].have & (1u << m->label))) {
			c.conn = m->conn;
			c.label = m->label;
			c.server = m->label == KEYLOG_SERVER_HANDSHAKE ||
			           m->label == KEYLOG_SERVER_TRAFFIC;
			add_cand(list, &n, s->cands_cap, &c);
		}
		for (i = 0; i < cfg->keylog->n; i++) {
			size_t k;

			for (k = 0; k < nlabels; k++) {
				if (!(cfg->keylog->conns[i].have &
				      (1u << labels[k])))
					continue;
				c.conn = i;
				c.label = labels[k];
				c.server = labels[k] == KEYLOG_SERVER_HANDSHAKE ||
				           labels[k] == KEYLOG_SERVER_TRAFFIC;
				add_cand(list, &n, s->cands_cap, &c);
			}
		}
		if (n == 0) {
			p->verdict = UP_SKIPPED;
			snprintf(p->why, sizeof p->why, "the key log has no %s "
			         "secrets", p->type == QUIC_PT_0RTT ? "0-RTT" :
			         p->type == QUIC_PT_HANDSHAKE ? "Handshake" :
			         "1-RTT");
			return 0;
		}
	} else if (cfg->have_secret) {
		memset(&list[0], 0, sizeof list[0]);
		list[0].source = UP_SRC_SECRET;
		list[0].server = -1;
		n = 1;
	} else if (cfg->have_hp_key) {
		memset(&list[0], 0, sizeof list[0]);
		list[0].source = UP_SRC_HP_KEY;
		list[0].server = -1;
		n = 1;
	} else {
		p->verdict = UP_SKIPPED;
		snprintf(p->why, sizeof p->why, "no %s keys given (%s)",
		         quic_packet_type_name(p->type),
		         p->type == QUIC_PT_INITIAL ? "--initial" :
		         "--keylog or --secret");
		return 0;
	}
	if (truncated && n > 1)
		n = 1;   /* without the payload nothing tells them apart */

	/* a short header: the DCID lengths */
	if (one_rtt) {
		if (cfg->have_pn_offset && p->index == 1) {
			lens[0] = cfg->pn_offset - 1;
			versions[0] = cfg->version;
		} else {
			/* with a bare hp key no tag tells a wrong guess */
			nlens = cfg->have_hp_key &&
			        cfg->dcid_len == QUIC_DCID_LEN_UNKNOWN ? 0 :
			        dcid_lens(s, pkt, len, lens, versions, &guessed);
			if (nlens == 0) {
				p->verdict = UP_INVALID;
				p->status = QUIC_ENODCIDLEN;
				snprintf(p->why, sizeof p->why, "the packet has a "
				         "short header: give --dcid-len N (the "
				         "length of its Destination Connection "
				         "ID)%s", cfg->have_pn_offset ? "" :
				         " or --pn-offset N");
				return 0;
			}
		}
	} else {
		versions[0] = hdr->version;
		lens[0] = hdr->dcid_len;
	}

	for (li = 0; li < nlens; li++) {
		size_t pn_offset = hdr->pn_offset, dlen = lens[li];
		uint32_t version = versions[li];
		uint64_t largest;

		if (one_rtt) {
			if (!(cfg->have_pn_offset && p->index == 1))
				pn_offset = 1 + dlen;
			if (dlen + 1 > len || len < pn_offset + QUIC_SAMPLE_GAP +
			    QUIC_SAMPLE_LEN)
				continue;
		}
		if (cfg->have_pn_offset && p->index == 1)
			pn_offset = cfg->pn_offset;
		largest = largest_of(s, one_rtt ? pkt + 1 : hdr->dcid, dlen,
		                     space);
		for (i = 0; i < n; i++) {
			size_t slen;
			enum quic_hash hash;

			if (list[i].source == UP_SRC_SECRET ||
			    list[i].source == UP_SRC_KEYLOG) {
				cand_secret(s, &list[i], &slen, &hash);
				if (slen == 32)
					tried_32 = 1;
			}
			st = try_cand(s, &list[i], pkt, len, pn_offset, one_rtt,
			              version, largest, !truncated, &t);
			p->candidates++;
			if (st != QUIC_OK || !t.done)
				continue;
			if (!have_first) {
				have_first = 1;
				first = list[i];
				first_t = t;
				first_pn_offset = pn_offset;
				memcpy(s->best, s->scratch, len);
			}
			if (truncated || list[i].source == UP_SRC_HP_KEY)
				break;
			if (!t.ok)
				continue;
			/* the winner */
			memcpy(pkt, s->scratch, len);
			take_trial(p, &t, &list[i], pn_offset);
			p->verdict = UP_AUTHENTICATED;
			if (one_rtt) {
				p->dcid = pkt + 1;
				p->dcid_len = dlen;
			}
			note_pn(s, p->dcid, p->dcid_len, space, t.r.pn);
			if (list[i].source == UP_SRC_KEYLOG)
				remember_match(s, p->dcid, p->dcid_len, space,
				               list[i].conn, list[i].label);
			if (list[i].source == UP_SRC_INITIAL && !list[i].server)
				remember_odcid(s, hdr->scid, hdr->scid_len,
				               list[i].dcid, list[i].dcid_len);
			aesecb_wipe(s->scratch, len);
			aesecb_wipe(s->best, len);
			return 0;
		}
	}

	if (!have_first) {
		p->verdict = UP_INVALID;
		p->status = QUIC_ESAMPLE;
		snprintf(p->why, sizeof p->why, "the packet is too short for its "
		         "header-protection sample");
		return 0;
	}
	if (truncated || first.source == UP_SRC_HP_KEY) {
		memcpy(pkt, s->best, len);
		take_trial(p, &first_t, &first, first_pn_offset);
		p->verdict = first.source == UP_SRC_HP_KEY ? UP_NO_PACKET_KEY
		                                           : UP_TRUNCATED;
		if (one_rtt)
			p->dcid_len = first_pn_offset - 1;
		aesecb_wipe(s->scratch, len);
		aesecb_wipe(s->best, len);
		return 0;
	}
	/* no tag verified */
	p->verdict = UP_FAILED;
	if (n == 1 && nlens == 1) {
		/* one key: what it made of the header, as the tool always
		 * showed it */
		memcpy(pkt, s->best, len);
		take_trial(p, &first_t, &first, first_pn_offset);
		if (one_rtt)
			p->dcid_len = first_pn_offset - 1;
	} else {
		p->source = first.source;
		p->pn_known = first_t.pn_known;
	}
	if (p->type == QUIC_PT_INITIAL && cfg->initial && !cfg->have_odcid)
		p->hints |= UP_HINT_ODCID;
	if (guessed)
		p->hints |= UP_HINT_DCIDLEN;
	if (!first_t.pn_known && p->type != QUIC_PT_INITIAL)
		p->hints |= UP_HINT_PN;
	if (tried_32 && p->type != QUIC_PT_INITIAL)
		p->hints |= UP_HINT_CHACHA;
	aesecb_wipe(s->scratch, len);
	aesecb_wipe(s->best, len);
	return 0;
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
	while (dgram_next(d, len, pos, s->cfg.dcid_len, &part)) {
		const struct quic_header *h = &part.h;
		int first = ++index == 1, truncated = 0, st = part.status;

		memset(&p, 0, sizeof p);
		p.kind = part.kind;
		p.index = index;
		p.offset = part.offset;
		p.len = part.len;
		p.bytes = d + part.offset;
		p.type = h->type;
		p.version = h->version;
		p.dcid = h->dcid;
		p.dcid_len = h->dcid_len;
		p.status = st;
		if (part.kind == DGRAM_PADDING) {
			p.verdict = UP_PADDING;
			p.type = QUIC_PT_NONE;
		} else if (st == QUIC_ENOPROTECTION) {
			p.verdict = UP_REFUSED;
			quic_header_error(h, st, p.why, sizeof p.why);
		} else {
			int ok = st == QUIC_OK ||
			         (st == QUIC_ENODCIDLEN && !h->long_header);

			if (first && s->cfg.have_pn_offset && !ok) {
				/*
				 * The packet number's offset given: the header
				 * is the user's to vouch for, and a prefix of
				 * the packet will do, so long as what the key
				 * source needs was read (the version; the type
				 * and DCID for Initial keys).
				 */
				if (st == QUIC_ELENGTH || st == QUIC_ESAMPLE ||
				    (!s->cfg.initial && st != QUIC_EVERSION) ||
				    (s->cfg.have_hp_key && st == QUIC_EVERSION)) {
					ok = 1;
					truncated = h->long_header;
					p.len = len - pos;
				}
			}
			/* the connection IDs short headers may carry: the
			 * SCID (the peer's DCID) and the DCID (the same
			 * packets' DCID in the same datagram, RFC 9000 12.2) */
			if (ok && h->long_header && st == QUIC_OK) {
				remember_cid(s, h->scid, h->scid_len, h->version);
				remember_cid(s, h->dcid, h->dcid_len, h->version);
			}
			if (!ok) {
				p.verdict = UP_INVALID;
				quic_header_error(h, st, p.why, sizeof p.why);
			} else if (first && s->cfg.have_pn_offset &&
			           (s->cfg.pn_offset == 0 ||
			            s->cfg.pn_offset >= p.len)) {
				p.verdict = UP_INVALID;
				snprintf(p.why, sizeof p.why, s->cfg.pn_offset == 0 ?
				         "--pn-offset 0: the packet number cannot "
				         "start at the first byte" : "--pn-offset "
				         "%zu is past the end of the packet (%zu "
				         "bytes)", s->cfg.pn_offset, p.len);
			} else if (first && s->cfg.have_pn_offset &&
			           p.len - s->cfg.pn_offset <
			           QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN) {
				p.verdict = UP_INVALID;
				snprintf(p.why, sizeof p.why, "packet too short for "
				         "its sample: the sample is bytes %zu to "
				         "%zu, so %zu bytes are needed; the packet "
				         "has %zu", s->cfg.pn_offset + 4,
				         s->cfg.pn_offset + 19,
				         s->cfg.pn_offset + 20, p.len);
			} else if (s->cfg.initial && h->long_header &&
			           p.type != QUIC_PT_INITIAL &&
			           s->cfg.keylog == NULL && !s->cfg.have_secret &&
			           first && s->cfg.have_pn_offset) {
				p.verdict = UP_INVALID;
				snprintf(p.why, sizeof p.why, "--initial: the packet "
				         "is a %s packet, not an Initial packet",
				         quic_packet_type_name(p.type));
			} else {
				rc = do_packet(s, d + pos, p.len, h, truncated, &p);
				if (rc != 0)
					return rc;
			}
		}
		rc = fn(arg, &p);
		if (rc != 0)
			return rc;
		pos += p.len;
	}
	return 0;
}
