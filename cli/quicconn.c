/* SPDX-License-Identifier: MIT */
/*
 * quicconn.c - the connections of a capture, found by connection ID.  See
 * quicconn.h.
 *
 * Connection IDs and addresses travel in the clear; the table branches on
 * them as a QUIC stack's does.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "keylog.h"
#include "quicconn.h"
#include "quicpp.h"
#include "siphash.h"

struct qc_entry {
	uint64_t hash;
	struct qc_conn *conn;       /* NULL: empty; &dead_conn: removed */
	uint8_t side, len;
	uint8_t id[QUIC_MAX_CID_LEN];
	struct qc_addr addr;        /* a zero-length ID's owner */
};

/* A connection's endpoints: client and server addresses. */
struct qc_path {
	uint64_t hash;
	struct qc_addr client, server;
	struct qc_conn *conn;       /* NULL: empty */
};

static struct qc_conn dead_conn;
#define DEAD (&dead_conn)

void qc_init(struct qc_table *t)
{
	memset(t, 0, sizeof *t);
}

void qc_free(struct qc_table *t, void (*free_keys)(struct pk_keys *))
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->conns[i]->initial != NULL && free_keys != NULL)
			free_keys(t->conns[i]->initial);
		free(t->conns[i]);
	}
	free(t->conns);
	free(t->slots);
	free(t->paths);
	qc_init(t);
}

struct qc_conn *qc_new(struct qc_table *t)
{
	struct qc_conn *c;
	int s, k;

	if (t->n == t->cap) {
		size_t cap = t->cap == 0 ? 64 : 2 * t->cap;
		struct qc_conn **p = realloc(t->conns, cap * sizeof *p);

		if (p == NULL)
			return NULL;
		t->conns = p;
		t->cap = cap;
	}
	c = calloc(1, sizeof *c);
	if (c == NULL)
		return NULL;
	c->index = t->n + 1;
	c->keylog = KEYLOG_NONE;
	for (s = 0; s < 2; s++)
		for (k = 0; k < QC_SPACES; k++)
			c->largest[s][k] = QUIC_PN_NONE;
	t->conns[t->n++] = c;
	return c;
}

/* ------------------------------------------------------------------ */
/* The index of connection IDs. */

/* An ID's key: its length and bytes, and for a zero-length one the
 * owner's address. */
static uint64_t hash_of(const uint8_t *id, size_t len,
                        const struct qc_addr *addr)
{
	uint8_t key[2 + QUIC_MAX_CID_LEN + QC_ADDR_MAX];
	size_t n = 0;

	key[n++] = (uint8_t)len;
	if (len != 0)
		memcpy(key + n, id, len);
	n += len;
	if (len == 0 && addr != NULL && addr->len != 0) {
		key[n++] = addr->len;
		memcpy(key + n, addr->bytes, addr->len);
		n += addr->len;
	}
	return cli_siphash24(cli_hash_key(), key, n);
}

static int same_addr(const struct qc_addr *a, const struct qc_addr *b)
{
	size_t la = a != NULL ? a->len : 0, lb = b != NULL ? b->len : 0;

	return la == lb && (la == 0 || memcmp(a->bytes, b->bytes, la) == 0);
}

static int same_key(const struct qc_entry *e, uint64_t h, const uint8_t *id,
                    size_t len, const struct qc_addr *addr)
{
	return e->hash == h && e->len == len &&
	       (len == 0 ? same_addr(&e->addr, addr)
	                 : memcmp(e->id, id, len) == 0);
}

/* Twice the slots, the removed entries dropped; 0 or QC_ENOMEM. */
static int grow(struct qc_table *t)
{
	size_t n = t->nslots == 0 ? 256 : 2 * t->nslots, i;
	struct qc_entry *s = calloc(n, sizeof *s);

	if (s == NULL)
		return QC_ENOMEM;
	for (i = 0; i < t->nslots; i++) {
		const struct qc_entry *e = &t->slots[i];
		size_t at;

		if (e->conn == NULL || e->conn == DEAD)
			continue;
		for (at = e->hash & (n - 1); s[at].conn != NULL;
		     at = (at + 1) & (n - 1))
			;
		s[at] = *e;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = n;
	t->dead = 0;
	return 0;
}

/* The entry of (id, conn, side), or NULL. */
static struct qc_entry *entry_of(const struct qc_table *t, uint64_t h,
                                 const uint8_t *id, size_t len,
                                 const struct qc_addr *addr,
                                 const struct qc_conn *c, int side)
{
	size_t at, mask = t->nslots - 1;

	if (t->nslots == 0)
		return NULL;
	for (at = h & mask; t->slots[at].conn != NULL; at = (at + 1) & mask) {
		struct qc_entry *e = &t->slots[at];

		if (e->conn == c && e->side == side &&
		    same_key(e, h, id, len, addr))
			return e;
	}
	return NULL;
}

static int put(struct qc_table *t, struct qc_conn *c, int side,
               const uint8_t *id, size_t len, const struct qc_addr *addr)
{
	uint64_t h = hash_of(id, len, addr);
	struct qc_entry *e;
	size_t at, mask;

	if (entry_of(t, h, id, len, addr, c, side) != NULL)
		return 0;
	if (4 * (t->used + t->dead + 1) > 3 * t->nslots && grow(t) != 0)
		return QC_ENOMEM;
	mask = t->nslots - 1;
	for (at = h & mask; t->slots[at].conn != NULL &&
	     t->slots[at].conn != DEAD; at = (at + 1) & mask)
		;
	e = &t->slots[at];
	if (e->conn == DEAD)
		t->dead--;
	memset(e, 0, sizeof *e);
	e->hash = h;
	e->conn = c;
	e->side = (uint8_t)side;
	e->len = (uint8_t)len;
	if (len != 0)
		memcpy(e->id, id, len);
	if (len == 0 && addr != NULL)
		e->addr = *addr;
	t->used++;
	t->lens[len]++;
	return 0;
}

static void drop(struct qc_table *t, struct qc_conn *c, int side,
                 const uint8_t *id, size_t len, const struct qc_addr *addr)
{
	struct qc_entry *e = entry_of(t, hash_of(id, len, addr), id, len, addr,
	                              c, side);

	if (e == NULL)
		return;
	e->conn = DEAD;
	t->used--;
	t->dead++;
	t->lens[len]--;
}

/* ------------------------------------------------------------------ */

/* The side's ID at i forgotten (the list keeps its order). */
static void forget(struct qc_table *t, struct qc_conn *c, int side, size_t i)
{
	struct qc_cid *l = c->cids[side];

	drop(t, c, side, l[i].id, l[i].len, &l[i].addr);
	memmove(l + i, l + i + 1, (c->ncids[side] - i - 1) * sizeof *l);
	c->ncids[side]--;
}

int qc_learn(struct qc_table *t, struct qc_conn *c, int side,
             const uint8_t *id, size_t len, uint64_t seq,
             const struct qc_addr *addr)
{
	struct qc_cid *l = c->cids[side];
	size_t i;

	if (len > QUIC_MAX_CID_LEN)
		return 0;
	for (i = 0; i < c->ncids[side]; i++)
		if (l[i].len == len && (len == 0 ? same_addr(&l[i].addr, addr) :
		                        memcmp(l[i].id, id, len) == 0))
			return 0;
	if (put(t, c, side, id, len, addr) != 0)
		return QC_ENOMEM;
	if (c->ncids[side] == QC_MAX_CIDS) {
		forget(t, c, side, 0);
		c->cids_forgotten++;
	}
	i = c->ncids[side]++;
	memset(&l[i], 0, sizeof l[i]);
	if (len != 0)
		memcpy(l[i].id, id, len);
	l[i].len = (uint8_t)len;
	l[i].seq = seq;
	if (len == 0 && addr != NULL)
		l[i].addr = *addr;
	return 0;
}

int qc_learn_odcid(struct qc_table *t, struct qc_conn *c, const uint8_t *id,
                   size_t len, const struct qc_addr *addr)
{
	if (len > QUIC_MAX_CID_LEN)
		return 0;
	if (put(t, c, QC_SERVER, id, len, addr) != 0)
		return QC_ENOMEM;
	if (len != 0)
		memcpy(c->odcid, id, len);
	c->odcid_len = len;
	c->have_odcid = 1;
	return 0;
}

void qc_retire_prior(struct qc_table *t, struct qc_conn *c, int side,
                     uint64_t retire_prior_to)
{
	size_t i = 0;

	while (i < c->ncids[side]) {
		if (c->cids[side][i].seq < retire_prior_to)
			forget(t, c, side, i);
		else
			i++;
	}
}

/* ------------------------------------------------------------------ */
/* Paths. */

static int same_addr_full(const struct qc_addr *a, const struct qc_addr *b)
{
	return a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0;
}

/* A path's key, the two endpoints in an order of their own (a packet
 * either way finds it). */
static uint64_t path_hash(const struct qc_addr *a, const struct qc_addr *b)
{
	uint8_t key[2 * (1 + QC_ADDR_MAX)];
	const struct qc_addr *lo = a, *hi = b;
	size_t n = 0;

	if (memcmp(a, b, sizeof *a) > 0) {
		lo = b;
		hi = a;
	}
	key[n++] = lo->len;
	memcpy(key + n, lo->bytes, lo->len);
	n += lo->len;
	key[n++] = hi->len;
	memcpy(key + n, hi->bytes, hi->len);
	n += hi->len;
	return cli_siphash24(cli_hash_key(), key, n);
}

static int paths_grow(struct qc_table *t)
{
	size_t n = t->npaths == 0 ? 64 : 2 * t->npaths, i;
	struct qc_path *p = calloc(n, sizeof *p);

	if (p == NULL)
		return QC_ENOMEM;
	for (i = 0; i < t->npaths; i++) {
		size_t at;

		if (t->paths[i].conn == NULL)
			continue;
		for (at = t->paths[i].hash & (n - 1); p[at].conn != NULL;
		     at = (at + 1) & (n - 1))
			;
		p[at] = t->paths[i];
	}
	free(t->paths);
	t->paths = p;
	t->npaths = n;
	return 0;
}

int qc_learn_path(struct qc_table *t, struct qc_conn *c,
                  const struct qc_addr *client, const struct qc_addr *server)
{
	uint64_t h;
	size_t at;

	if (client == NULL || server == NULL || client->len == 0 ||
	    server->len == 0 ||
	    (same_addr_full(&c->addr[QC_CLIENT], client) &&
	     same_addr_full(&c->addr[QC_SERVER], server)))
		return 0;
	c->addr[QC_CLIENT] = *client;
	c->addr[QC_SERVER] = *server;
	if (4 * (t->paths_used + 1) > 3 * t->npaths && paths_grow(t) != 0)
		return QC_ENOMEM;
	h = path_hash(client, server);
	for (at = h & (t->npaths - 1); t->paths[at].conn != NULL;
	     at = (at + 1) & (t->npaths - 1)) {
		struct qc_path *p = &t->paths[at];

		if (p->hash == h && same_addr_full(&p->client, client) &&
		    same_addr_full(&p->server, server)) {
			p->conn = c;             /* the latest connection */
			return 0;
		}
	}
	t->paths[at].hash = h;
	t->paths[at].client = *client;
	t->paths[at].server = *server;
	t->paths[at].conn = c;
	t->paths_used++;
	return 0;
}

struct qc_conn *qc_find_path(const struct qc_table *t,
                             const struct qc_addr *src,
                             const struct qc_addr *dst, int *dst_side)
{
	uint64_t h;
	size_t at;

	if (t->npaths == 0 || src == NULL || dst == NULL || src->len == 0 ||
	    dst->len == 0)
		return NULL;
	h = path_hash(src, dst);
	for (at = h & (t->npaths - 1); t->paths[at].conn != NULL;
	     at = (at + 1) & (t->npaths - 1)) {
		const struct qc_path *p = &t->paths[at];

		if (p->hash != h)
			continue;
		if (same_addr_full(&p->client, src) &&
		    same_addr_full(&p->server, dst)) {
			*dst_side = QC_SERVER;
			return p->conn;
		}
		if (same_addr_full(&p->client, dst) &&
		    same_addr_full(&p->server, src)) {
			*dst_side = QC_CLIENT;
			return p->conn;
		}
	}
	return NULL;
}

/* Add a match unless there (the most recently active first). */
static size_t add_match(struct qc_match *m, size_t n, size_t max,
                        struct qc_conn *c, int side, size_t len)
{
	size_t i, j;

	for (i = 0; i < n && i < max; i++)
		if (m[i].conn == c && m[i].side == side)
			return n;
	for (i = 0; i < n && i < max && (m[i].conn->last > c->last ||
	     (m[i].conn->last == c->last && m[i].conn->index > c->index)); i++)
		;
	if (i < max) {
		for (j = (n < max ? n : max - 1); j > i; j--)
			m[j] = m[j - 1];
		m[i].conn = c;
		m[i].side = side;
		m[i].cid_len = len;
	}
	return n + 1;
}

size_t qc_find(const struct qc_table *t, const uint8_t *id, size_t len,
               const struct qc_addr *addr, struct qc_match *m, size_t max)
{
	uint64_t h;
	size_t at, mask, n = 0;

	if (t->nslots == 0 || len > QUIC_MAX_CID_LEN || t->lens[len] == 0)
		return 0;
	h = hash_of(id, len, addr);
	mask = t->nslots - 1;
	for (at = h & mask; t->slots[at].conn != NULL; at = (at + 1) & mask) {
		const struct qc_entry *e = &t->slots[at];

		if (e->conn != DEAD && same_key(e, h, id, len, addr))
			n = add_match(m, n, max, e->conn, e->side, len);
	}
	return n;
}

size_t qc_find_short(const struct qc_table *t, const uint8_t *pkt, size_t len,
                     size_t dcid_len, const struct qc_addr *addr,
                     struct qc_match *m, size_t max)
{
	size_t l, n = 0;

	for (l = 0; l <= QUIC_MAX_CID_LEN && l + 1 < len; l++)
		if (dcid_len == QUIC_DCID_LEN_UNKNOWN || l == dcid_len)
			n += qc_find(t, pkt + 1, l, addr, m + (n < max ? n : max),
			             n < max ? max - n : 0);
	return n;
}
