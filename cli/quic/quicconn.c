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

#include "quic/keylog.h"
#include "quic/quicconn.h"
#include "quic/quicpp.h"
#include "common/siphash.h"

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

/* Whether an ID is a zero-length one without an address: the list's. */
static int is_anon(size_t len, const struct qc_addr *addr)
{
	return len == 0 && (addr == NULL || addr->len == 0);
}

static void anon_unlink(struct qc_table *t, struct qc_anon *a)
{
	if (a->prev != NULL)
		a->prev->next = a->next;
	else
		t->anon_head = a->next;
	if (a->next != NULL)
		a->next->prev = a->prev;
	else
		t->anon_tail = a->prev;
	a->prev = a->next = NULL;
}

static void anon_push(struct qc_table *t, struct qc_anon *a)
{
	a->prev = NULL;
	a->next = t->anon_head;
	if (t->anon_head != NULL)
		t->anon_head->prev = a;
	else
		t->anon_tail = a;
	t->anon_head = a;
}

/* The side's zero-length ID without an address forgotten (in the list and
 * in its connection's), and counted when it was pushed out. */
static void anon_drop(struct qc_table *t, struct qc_anon *a, int counted)
{
	struct qc_conn *c = a->conn;
	struct qc_cid *l = c->cids[a->side];
	size_t i;

	anon_unlink(t, a);
	a->in = 0;
	t->anon_n--;
	t->lens[0]--;
	if (!counted)
		return;
	c->cids_forgotten++;
	for (i = 0; i < c->ncids[a->side]; i++)
		if (l[i].len == 0 && l[i].addr.len == 0) {
			memmove(l + i, l + i + 1,
			        (c->ncids[a->side] - i - 1) * sizeof *l);
			c->ncids[a->side]--;
			break;
		}
}

/* c's side in the list, at its head (the least recently active one
 * pushed out past QC_MAX_SHARED). */
static void anon_put(struct qc_table *t, struct qc_conn *c, int side)
{
	struct qc_anon *a = &c->anon[side];

	if (a->in)
		return;
	if (t->anon_n >= QC_MAX_SHARED)
		anon_drop(t, t->anon_tail, 1);
	a->conn = c;
	a->side = side;
	a->in = 1;
	anon_push(t, a);
	t->anon_n++;
	t->lens[0]++;
}

void qc_touch(struct qc_table *t, struct qc_conn *c, uint64_t now)
{
	int side;

	c->last = now;
	for (side = 0; side < 2; side++)
		if (c->anon[side].in && t->anon_head != &c->anon[side]) {
			anon_unlink(t, &c->anon[side]);
			anon_push(t, &c->anon[side]);
		}
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

static void forget_entry(struct qc_table *t, struct qc_entry *e);

/*
 * Whether (id, c, side) is in the table already; when it is not and
 * QC_MAX_SHARED connections have the ID, the least recently active of
 * them forgets it.
 */
static int known_or_room(struct qc_table *t, uint64_t h, const uint8_t *id,
                         size_t len, const struct qc_addr *addr,
                         const struct qc_conn *c, int side)
{
	struct qc_entry *oldest = NULL;
	size_t at, mask = t->nslots - 1, n = 0;

	if (t->nslots == 0)
		return 0;
	for (at = h & mask; t->slots[at].conn != NULL; at = (at + 1) & mask) {
		struct qc_entry *e = &t->slots[at];

		if (e->conn == DEAD || !same_key(e, h, id, len, addr))
			continue;
		if (e->conn == c && e->side == side)
			return 1;
		n++;
		if (oldest == NULL || e->conn->last < oldest->conn->last ||
		    (e->conn->last == oldest->conn->last &&
		     e->conn->index < oldest->conn->index))
			oldest = e;
	}
	if (n >= QC_MAX_SHARED)
		forget_entry(t, oldest);
	return 0;
}

static int put(struct qc_table *t, struct qc_conn *c, int side,
               const uint8_t *id, size_t len, const struct qc_addr *addr)
{
	uint64_t h = hash_of(id, len, addr);
	struct qc_entry *e;
	size_t at, mask;

	if (is_anon(len, addr)) {
		anon_put(t, c, side);
		return 0;
	}
	if (known_or_room(t, h, id, len, addr, c, side))
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
	struct qc_entry *e;

	if (is_anon(len, addr)) {
		if (c->anon[side].in)
			anon_drop(t, &c->anon[side], 0);
		return;
	}
	e = entry_of(t, hash_of(id, len, addr), id, len, addr,
	                              c, side);

	if (e == NULL)
		return;
	e->conn = DEAD;
	t->used--;
	t->dead++;
	t->lens[len]--;
}

/* ------------------------------------------------------------------ */

/* An entry's ID forgotten by its connection (in its list of the side's
 * IDs, or its first DCID), and counted. */
static void forget_entry(struct qc_table *t, struct qc_entry *e)
{
	struct qc_conn *c = e->conn;
	struct qc_cid *l = c->cids[e->side];
	size_t i;

	c->cids_forgotten++;
	for (i = 0; i < c->ncids[e->side]; i++)
		if (l[i].len == e->len &&
		    (e->len == 0 ? same_addr(&l[i].addr, &e->addr)
		                 : memcmp(l[i].id, e->id, e->len) == 0)) {
			memmove(l + i, l + i + 1,
			        (c->ncids[e->side] - i - 1) * sizeof *l);
			c->ncids[e->side]--;
			break;
		}
	e->conn = DEAD;
	t->used--;
	t->dead++;
	t->lens[e->len]--;
}

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

/* Matches the most recently active first, then in the order first seen
 * (an ID some connections share: a hostile input). */
static int match_order(const void *pa, const void *pb)
{
	const struct qc_match *a = pa, *b = pb;

	if (a->conn->last != b->conn->last)
		return a->conn->last > b->conn->last ? -1 : 1;
	return a->conn->index < b->conn->index ? -1 :
	       a->conn->index > b->conn->index;
}

size_t qc_find(const struct qc_table *t, const uint8_t *id, size_t len,
               const struct qc_addr *addr, struct qc_match *m, size_t max)
{
	uint64_t h;
	size_t at, mask, n = 0;

	if (len > QUIC_MAX_CID_LEN || t->lens[len] == 0)
		return 0;
	if (is_anon(len, addr)) {
		const struct qc_anon *a;

		/* (the list is in the order wanted) */
		for (a = t->anon_head; a != NULL; a = a->next, n++)
			if (n < max) {
				m[n].conn = a->conn;
				m[n].side = a->side;
				m[n].cid_len = 0;
			}
		return n;
	}
	if (t->nslots == 0)
		return 0;
	h = hash_of(id, len, addr);
	mask = t->nslots - 1;
	for (at = h & mask; t->slots[at].conn != NULL; at = (at + 1) & mask) {
		const struct qc_entry *e = &t->slots[at];

		if (e->conn != DEAD && same_key(e, h, id, len, addr)) {
			if (n < max) {
				m[n].conn = e->conn;
				m[n].side = e->side;
				m[n].cid_len = len;
			}
			n++;
		}
	}
	if (n > 1 && n <= max)
		qsort(m, n, sizeof *m, match_order);
	return n;
}

size_t qc_find_short(const struct qc_table *t, const uint8_t *pkt, size_t len,
                     size_t dcid_len, const struct qc_addr *addr,
                     struct qc_match *m, size_t max)
{
	size_t i, l, n = 0;

	/* an ID of some bytes before an empty one, which any packet has */
	for (i = 1; i <= QUIC_MAX_CID_LEN + 1; i++) {
		l = i % (QUIC_MAX_CID_LEN + 1);
		if (l + 1 < len &&
		    (dcid_len == QUIC_DCID_LEN_UNKNOWN || l == dcid_len))
			n += qc_find(t, pkt + 1, l, addr, m + (n < max ? n : max),
			             n < max ? max - n : 0);
	}
	return n;
}
