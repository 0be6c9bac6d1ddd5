/* SPDX-License-Identifier: MIT */
/*
 * pktkeys.c - the keys of one direction of one encryption level.  See
 * pktkeys.h.
 *
 * Branches are taken on the key source, on lengths, and on whether a tag
 * verified (the result).  The bytes under header protection (the first
 * byte's low bits, the packet number, the key phase) are combined with
 * masks only, and the keys go through libaesecb and nettle.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "quic/pktkeys.h"

#define PN_MAX 4

/* ------------------------------------------------------------------ */
/* The cache of AEADs. */

int pk_cache_init(struct pk_cache *c)
{
	size_t size = PK_CACHE_SLOTS * sizeof *c->slots;

	c->ids = 0;
	/* (a slot's AEAD holds a libaesecb context: 64-byte aligned) */
	c->slots = aligned_alloc(_Alignof(struct pk_slot), size);
	if (c->slots != NULL)
		memset(c->slots, 0, size);
	return c->slots != NULL ? QUIC_OK : QUIC_EINVAL;
}

void pk_cache_free(struct pk_cache *c)
{
	if (c->slots != NULL) {
		aesecb_wipe(c->slots, PK_CACHE_SLOTS * sizeof *c->slots);
		free(c->slots);
	}
	c->slots = NULL;
}

/* The AEAD of generation g of k, made in its slot unless it is there. */
static const struct quic_aead *aead_of(const struct pk_keys *k,
                                       struct pk_gen *g)
{
	struct pk_cache *c = k->cache;
	struct pk_slot *slot;

	if (g->id == 0)
		g->id = ++c->ids;
	slot = &c->slots[g->id % PK_CACHE_SLOTS];
	if (slot->id != g->id) {
		slot->id = 0;
		if (quic_aead_init(&slot->a, g->key, k->key_len, g->iv) !=
		    QUIC_OK)
			return NULL;
		slot->id = g->id;
	}
	return &slot->a;
}

/* ------------------------------------------------------------------ */

void pk_wipe(struct pk_keys *k)
{
	if (k == NULL)
		return;
	if (k->ahead != NULL) {
		aesecb_wipe(k->ahead, sizeof *k->ahead);
		free(k->ahead);
	}
	aesecb_clear(&k->hp);
	aesecb_wipe(k, sizeof *k);
}

/* The hp context of a key; QUIC_OK or QUIC_EINVAL. */
static int hp_init(struct pk_keys *k, const uint8_t *hp, size_t len,
                   const aesecb_backend *be)
{
	return aesecb_init(&k->hp, hp, len, be) == AESECB_OK ? QUIC_OK
	                                                     : QUIC_EINVAL;
}

int pk_from_secret(struct pk_keys *k, enum quic_hash hash, uint32_t version,
                   const uint8_t *secret, size_t len, int one_rtt,
                   const aesecb_backend *be, struct pk_cache *cache)
{
	struct quic_keys q;
	int st;

	pk_wipe(k);
	k->cache = cache;
	st = quic_traffic_keys(hash, version, secret, len, &q);
	if (st == QUIC_OK)
		st = hp_init(k, q.hp, q.key_len, be);
	if (st == QUIC_OK) {
		k->version = version;
		k->key_len = q.key_len;
		memcpy(k->cur.key, q.key, q.key_len);
		memcpy(k->cur.iv, q.iv, QUIC_IV_LEN);
		k->updates = one_rtt;
		k->hash = hash;
		k->secret_len = len;
		memcpy(k->secret, secret, len);
		k->ready = 1;
	} else {
		pk_wipe(k);
	}
	quic_keys_wipe(&q);
	return st;
}

int pk_from_initial(struct pk_keys k[2], uint32_t version, const uint8_t *dcid,
                    size_t dcid_len, const aesecb_backend *be,
                    struct pk_cache *cache)
{
	struct quic_initial ik;
	const struct quic_keys *side[2];
	int st, i;

	pk_wipe(&k[0]);
	pk_wipe(&k[1]);
	st = quic_initial_keys(version, dcid, dcid_len, &ik);
	side[0] = &ik.client;
	side[1] = &ik.server;
	for (i = 0; i < 2 && st == QUIC_OK; i++) {
		st = hp_init(&k[i], side[i]->hp, side[i]->key_len, be);
		k[i].cache = cache;
		k[i].version = version;
		k[i].key_len = side[i]->key_len;
		memcpy(k[i].cur.key, side[i]->key, side[i]->key_len);
		memcpy(k[i].cur.iv, side[i]->iv, QUIC_IV_LEN);
		k[i].ready = st == QUIC_OK;
	}
	if (st != QUIC_OK) {
		pk_wipe(&k[0]);
		pk_wipe(&k[1]);
	}
	quic_initial_wipe(&ik);
	return st;
}

int pk_from_hp(struct pk_keys *k, const uint8_t *hp, size_t len,
               const aesecb_backend *be)
{
	int st;

	pk_wipe(k);
	st = hp_init(k, hp, len, be);
	k->ready = st == QUIC_OK;
	return st;
}

/* ------------------------------------------------------------------ */
/* Generations. */

/* The secret and packet key after src under k's key update label. */
static int derive_next(const struct pk_keys *k, unsigned variant,
                       const uint8_t *src, uint8_t *secret,
                       struct pk_gen *g)
{
	struct quic_keys q;
	int st = quic_pp_next_secret_variant(k->hash, k->version, variant, src,
	                                     k->secret_len, secret);

	if (st == QUIC_OK)
		st = quic_traffic_keys(k->hash, k->version, secret,
		                       k->secret_len, &q);
	if (st == QUIC_OK) {
		memcpy(g->key, q.key, k->key_len);
		memcpy(g->iv, q.iv, QUIC_IV_LEN);
		g->id = 0;
	}
	quic_keys_wipe(&q);
	return st;
}

/* The tag checked with one generation's key: the verdict (1 or 0), or a
 * negative status. */
static int check_with(const struct pk_keys *k, struct pk_gen *g,
                      const uint8_t *pkt, size_t len, size_t pn_offset,
                      uint64_t largest, struct quic_pp_result *res)
{
	const struct quic_aead *a = aead_of(k, g);
	int st = a != NULL ? quic_pp_check(a, pkt, len, pn_offset, largest, res)
	                   : QUIC_EINVAL;

	return st == QUIC_OK ? res->ok : st;
}

/* Generation gen + steps verified: it becomes current, with before as the
 * previous one. */
static void advance(struct pk_keys *k, uint32_t steps, const uint8_t *secret,
                    const struct pk_gen *now, const struct pk_gen *before)
{
	k->prev = *before;
	k->have_prev = 1;
	k->cur = *now;
	memcpy(k->secret, secret, k->secret_len);
	k->gen += steps;
	k->have_next = 0;
	k->swept = 0;
}

/* All ones when the packet's key phase is generation gen's, else 0. */
static int phase_is(int phase, uint32_t gen)
{
	return 0 - (1 ^ (phase ^ (int)(gen & 1u)));
}

/*
 * Whether generation gen is tried on a packet of key phase phase: always,
 * but among many keys (PK_FILTER, where the reserved bits are a cut too)
 * only when its phase is the packet's, the tag of another being sure to
 * fail as a verdict.
 */
static int may_try(unsigned flags, int phase, uint32_t gen)
{
	return !(flags & PK_FILTER) || (phase_is(phase, gen) & 1);
}

/* The next generation's secret and key under a key update label: kept
 * for the label that worked, derived for the other. */
static int next_of(struct pk_keys *k, unsigned variant, uint8_t *secret,
                   struct pk_gen *g)
{
	int st;

	if (variant == k->ku_variant && k->have_next) {
		memcpy(secret, k->next_secret, k->secret_len);
		*g = k->next;
		return QUIC_OK;
	}
	st = derive_next(k, variant, k->secret, secret, g);
	if (st == QUIC_OK && variant == k->ku_variant) {
		memcpy(k->next_secret, secret, k->secret_len);
		k->next = *g;
		k->have_next = 1;
	}
	return st;
}

/*
 * The next generation, when the key phase bit says it is not the current
 * one: under the key update label that worked before, then under the
 * version's other one if it has two (the v2 draft).
 */
static int try_next(struct pk_keys *k, const uint8_t *pkt, size_t len,
                    size_t pn_offset, uint64_t largest, int phase,
                    unsigned flags, struct quic_pp_result *res)
{
	uint8_t secret[QUIC_MAX_HASH_LEN];
	struct pk_gen g;
	unsigned v;
	int st = 0;

	if (!may_try(flags, phase, k->gen + 1))
		return 0;
	for (v = 0; v < 2 && st == 0; v++) {
		unsigned variant = v == 0 ? k->ku_variant : 1 - k->ku_variant;

		if (quic_ku_label(k->version, variant) == NULL ||
		    next_of(k, variant, secret, &g) != QUIC_OK)
			continue;
		st = check_with(k, &g, pkt, len, pn_offset, largest, res);
		st = st < 0 ? st : st & phase_is(phase, k->gen + 1) & 1;
		if (st > 0) {
			k->ku_variant = variant;
			advance(k, 1, secret, &g, &k->cur);
		}
	}
	aesecb_wipe(secret, sizeof secret);
	aesecb_wipe(&g, sizeof g);
	return st;
}

/* The generations gen + 1 to gen + PK_MAX_SKIP + 1, in k->ahead: made
 * once for the generation reached.  0, or -1 (no memory, no label). */
static int make_ahead(struct pk_keys *k)
{
	struct pk_ahead *a = k->ahead;
	const uint8_t *from = k->secret;
	size_t j;

	if (a != NULL && a->base == k->gen + 1 && a->variant == k->ku_variant)
		return 0;
	if (a == NULL && (a = k->ahead = calloc(1, sizeof *a)) == NULL)
		return -1;
	a->base = 0;
	for (j = 0; j <= PK_MAX_SKIP; j++) {
		if (derive_next(k, k->ku_variant, from, a->secret[j],
		                &a->g[j]) != QUIC_OK)
			return -1;
		from = a->secret[j];
	}
	a->base = k->gen + 1;
	a->variant = k->ku_variant;
	return 0;
}

/*
 * The generations after the next one, up to PK_MAX_SKIP of them (with
 * memo, once per generation reached): the packet is of a generation whose
 * key updates the capture did not show.  Returns the verdict; *skipped
 * the updates missed.
 */
static int sweep(struct pk_keys *k, const uint8_t *pkt, size_t len,
                 size_t pn_offset, uint64_t largest, int phase,
                 unsigned flags, struct quic_pp_result *res,
                 uint32_t *skipped)
{
	uint32_t j;
	int st = 0;

	if (k->swept == k->gen + 1 || make_ahead(k) != 0)
		return 0;
	/* a->g[j - 1] is generation gen + j */
	for (j = 2; j <= PK_MAX_SKIP + 1 && st <= 0; j++) {
		struct pk_ahead *a = k->ahead;

		if (!may_try(flags, phase, k->gen + j))
			continue;
		st = check_with(k, &a->g[j - 1], pkt, len, pn_offset, largest,
		                res);
		st = st < 0 ? st : st & phase_is(phase, k->gen + j) & 1;
		if (st > 0) {
			*skipped = j - 1;
			advance(k, j, a->secret[j - 1], &a->g[j - 1],
			        &a->g[j - 2]);
		}
	}
	if (st <= 0 && (flags & PK_MEMO))
		k->swept = k->gen + 1;
	return st;
}

/* A 1-RTT packet through the generations (with PK_NEAR not past the
 * next); the verdict, r->generation. */
static int check_1rtt(struct pk_keys *k, const uint8_t *pkt, size_t len,
                      size_t pn_offset, uint64_t largest, int phase,
                      unsigned flags, struct quic_pp_result *res,
                      struct pk_result *r)
{
	int st;

	r->generation = k->gen;
	st = check_with(k, &k->cur, pkt, len, pn_offset, largest, res);
	if (st != 0 || !k->updates)
		return st;
	if ((st = try_next(k, pkt, len, pn_offset, largest, phase, flags,
	                   res)) != 0) {
		r->generation = k->gen;
		return st;
	}
	if (k->have_prev && k->gen > 0 && may_try(flags, phase, k->gen - 1)) {
		st = check_with(k, &k->prev, pkt, len, pn_offset, largest, res);
		st = st < 0 ? st : st & phase_is(phase, k->gen - 1) & 1;
		if (st != 0) {
			r->generation = k->gen - 1;
			return st;
		}
	}
	if (flags & PK_NEAR)
		return 0;
	st = sweep(k, pkt, len, pn_offset, largest, phase, flags, res,
	           &r->skipped);
	r->generation = k->gen;
	return st;
}

/* ------------------------------------------------------------------ */

/* Whether a packet number is within PK_WINDOW of the largest one seen
 * (or none is known). */
static int near_largest(uint64_t pn, uint64_t largest)
{
	if (largest == QUIC_PN_NONE)
		return 1;
	return pn > largest ? pn - largest <= PK_WINDOW
	                    : largest - pn <= PK_WINDOW;
}

int pk_try(struct pk_keys *k, uint8_t *pkt, size_t len, size_t pn_offset,
           uint64_t largest, unsigned flags, struct pk_result *r)
{
	int one_rtt = (flags & PK_ONE_RTT) != 0;
	uint8_t saved[1 + PN_MAX];
	struct quic_pp_result res;
	uint32_t tr = 0;
	int n, i, st;

	memset(r, 0, sizeof *r);
	if (pn_offset == 0 || pn_offset > len ||
	    len - pn_offset < QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN)
		return QUIC_ESAMPLE;
	saved[0] = pkt[0];
	memcpy(saved + 1, pkt + pn_offset, PN_MAX);
	n = aesecb_hp_unprotect(&k->hp, pkt, len, pn_offset);
	if (n < 0)
		return QUIC_ESAMPLE;
	for (i = 0; i < n; i++)
		tr = (tr << 8) | pkt[pn_offset + (size_t)i];
	r->done = 1;
	r->pn_len = (uint32_t)n;
	r->truncated = tr;
	r->pn = quic_pn_decode(largest, tr, (uint32_t)n);
	r->key_phase = one_rtt ? (pkt[0] >> 2) & 1 : 0;
	if (!(flags & PK_CHECK) || k->key_len == 0)
		return QUIC_OK;
	r->far = (flags & PK_FILTER) && (flags & PK_NEAR) &&
	         !near_largest(r->pn, largest);
	if ((flags & PK_FILTER) &&
	    ((pkt[0] & ((pkt[0] & 0x80u) ? 0x0cu : 0x18u)) != 0 || r->far)) {
		/* (the reserved bits are zero in every genuine packet, and
		 * its number is near the last ones: a branch on them tells
		 * nothing of a key) */
		pkt[0] = saved[0];
		memcpy(pkt + pn_offset, saved + 1, PN_MAX);
		return QUIC_OK;
	}
	if (one_rtt)
		st = check_1rtt(k, pkt, len, pn_offset, largest, r->key_phase,
		                flags, &res, r);
	else
		st = check_with(k, &k->cur, pkt, len, pn_offset, largest,
		                &res);
	r->ok = st > 0;
	if (r->ok) {
		r->pn = res.pn;
	} else {
		pkt[0] = saved[0];
		memcpy(pkt + pn_offset, saved + 1, PN_MAX);
	}
	aesecb_wipe(&res, sizeof res);
	return QUIC_OK;
}

const struct quic_aead *pk_aead(struct pk_keys *k, uint32_t generation)
{
	struct pk_gen *g = generation == k->gen ? &k->cur :
	                   k->have_prev && generation + 1 == k->gen ?
	                   &k->prev : NULL;

	if (g == NULL || k->key_len == 0 || k->cache == NULL)
		return NULL;
	return aead_of(k, g);
}

int pk_mask(const struct pk_keys *k, const uint8_t *pkt, size_t pn_offset,
            uint8_t mask[5])
{
	return aesecb_hp_mask(&k->hp, pkt + pn_offset + QUIC_SAMPLE_GAP, mask);
}

int pk_protect(const struct pk_keys *k, uint8_t *pkt, size_t len,
               size_t pn_offset)
{
	return aesecb_hp_protect(&k->hp, pkt, len, pn_offset);
}
