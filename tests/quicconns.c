/* SPDX-License-Identifier: MIT */
/*
 * quicconns.c - many QUIC connections at once, interleaved, built with
 * OpenSSL (tests/quicseal.c), for the tests and measurements of "aesecb
 * hp-mask --unprotect" at size.
 *
 * Usage: quicconns N PREFIX [NAME=VALUE ...]
 *   seed=S        the pseudo-random stream (default 1)
 *   updates=K     key updates of each side (default 2)
 *   onertt=M      1-RTT packets of each side (default 2 * (K + 1))
 *   pad=B         client Initials padded to B bytes (default: none)
 *   payload=B     1-RTT payload bytes (default 24)
 *   from=S        only the datagrams of steps S on written (a capture that
 *                 starts late: S >= 3 is after every handshake; default 0)
 *   unlogged=K    connections i with i % K == 1 have no key-log lines
 *                 (their packets cannot authenticate; default: none)
 *
 * Each connection i: a client Initial whose CRYPTO frames carry the start
 * of a ClientHello (its random the key of the connection's key-log
 * lines), for odd i in two frames in reverse order and over two Initial
 * packets; the server's Initial (a ServerHello's start) coalesced with
 * its Handshake packet; the client's second Initial, Handshake and first
 * 1-RTT packet coalesced; then M 1-RTT packets each way, the key updated
 * K times by each side.  One connection in three has a client connection
 * ID of zero length (told apart by its address in a capture); one in
 * five uses SHA-384 secrets (AES-256-GCM).  Step by step, every
 * connection's packets of a step come before the next step's, so that
 * all N are open at once.
 *
 * Writes PREFIX.dgrams (hex datagrams, one per line: what tests/quic's
 * fixtures hold), PREFIX.keylog (the secrets), PREFIX.expect (each
 * packet: line, side, type, packet number, length, key phase), and
 * PREFIX.pcap (the same datagrams over Ethernet, IPv4 and UDP, each
 * connection's client at an address and port of its own).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quicseal.h"

struct conn {
	uint8_t odcid[8], ccid[8], scid[8], random[32];
	size_t ccid_len;
	const char *hash;
	struct qs_keys ci, si, ch, sh, c1, s1;   /* Initial, HS, 1-RTT */
	unsigned c1_gen, s1_gen;
	uint64_t cpn_app, spn_app;
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64: a fixed stream for a seed */
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void rnd_bytes(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

struct out {
	FILE *dg, *ex, *pc;
	unsigned long line;          /* lines of PREFIX.dgrams */
	uint8_t d[QS_MAXPKT];
	size_t dlen;
	char expect[4096];
	size_t elen;
	unsigned long frames;
	int quiet;                   /* a step before from=: not written */
};

static void pcap_u32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);         /* the writer's byte order: the magic
	                                number says which */
}

static void pcap_header(FILE *f)
{
	pcap_u32(f, 0xa1b2c3d4u);
	fputc(2, f), fputc(0, f), fputc(4, f), fputc(0, f);
	pcap_u32(f, 0);
	pcap_u32(f, 0);
	pcap_u32(f, 65535);
	pcap_u32(f, 1);              /* LINKTYPE_ETHERNET */
}

/* The datagram as a frame: Ethernet, IPv4 (checksum left 0), UDP. */
static void pcap_frame(struct out *o, unsigned conn, int from_server)
{
	uint8_t h[42];
	uint8_t cl[4] = { 10, (uint8_t)(conn >> 16), (uint8_t)(conn >> 8),
	                  (uint8_t)conn };
	uint8_t sv[4] = { 192, 0, 2, 1 };
	unsigned cport = 1024 + conn % 60000, sport = 443;
	size_t iplen = 20 + 8 + o->dlen;

	memset(h, 0, sizeof h);
	h[12] = 0x08;                /* IPv4 */
	h[14] = 0x45;
	h[16] = (uint8_t)(iplen >> 8);
	h[17] = (uint8_t)iplen;
	h[22] = 64;
	h[23] = 17;                  /* UDP */
	memcpy(h + 26, from_server ? sv : cl, 4);
	memcpy(h + 30, from_server ? cl : sv, 4);
	h[34] = (uint8_t)((from_server ? sport : cport) >> 8);
	h[35] = (uint8_t)(from_server ? sport : cport);
	h[36] = (uint8_t)((from_server ? cport : sport) >> 8);
	h[37] = (uint8_t)(from_server ? cport : sport);
	h[38] = (uint8_t)((8 + o->dlen) >> 8);
	h[39] = (uint8_t)(8 + o->dlen);
	o->frames++;
	pcap_u32(o->pc, (uint32_t)(1700000000u + o->frames / 1000));
	pcap_u32(o->pc, (uint32_t)(o->frames % 1000 * 1000));
	pcap_u32(o->pc, (uint32_t)(sizeof h + o->dlen));
	pcap_u32(o->pc, (uint32_t)(sizeof h + o->dlen));
	fwrite(h, sizeof h, 1, o->pc);
	fwrite(o->d, o->dlen, 1, o->pc);
}

static void flush(struct out *o, unsigned conn, int from_server)
{
	char *line, *e;

	if (o->quiet) {
		o->dlen = 0;
		o->elen = 0;
		o->expect[0] = '\0';
		return;
	}
	o->line++;
	qs_hex(o->dg, o->d, o->dlen);
	fputc('\n', o->dg);
	pcap_frame(o, conn, from_server);
	for (line = o->expect; *line != '\0'; line = e + 1) {
		e = strchr(line, '\n');
		fprintf(o->ex, "%lu %.*s\n", o->line, (int)(e - line), line);
	}
	o->dlen = 0;
	o->elen = 0;
	o->expect[0] = '\0';
}

/* One packet into the datagram being made. */
static void packet(struct out *o, struct qs_packet *p, const struct qs_keys *k,
                   const char *side, const char *type, int phase)
{
	size_t off, n = qs_seal(p, k, o->d + o->dlen, NULL, &off);
	char ph[4] = "-";

	if (phase >= 0)
		snprintf(ph, sizeof ph, "%d", phase);
	o->elen += (size_t)snprintf(o->expect + o->elen,
	                            sizeof o->expect - o->elen,
	                            "%s %s %llu %zu %s\n", side, type,
	                            (unsigned long long)p->pn, n, ph);
	o->dlen += n;
}

static void keylog_line(FILE *f, const char *label, const struct conn *c,
                        const struct qs_keys *k)
{
	fprintf(f, "%s ", label);
	qs_hex(f, c->random, 32);
	fputc(' ', f);
	qs_hex(f, k->secret, k->secret_len);
	fputc('\n', f);
}

static void make_conn(struct conn *c, unsigned i, const struct qs_version *v,
                      FILE *kl, unsigned unlogged)
{
	uint8_t s[48];
	size_t sl;

	memset(c, 0, sizeof *c);
	rnd_bytes(c->odcid, 8);
	rnd_bytes(c->ccid, 8);
	rnd_bytes(c->scid, 8);
	rnd_bytes(c->random, 32);
	c->ccid_len = i % 3 == 1 ? 0 : 8;
	c->hash = i % 5 == 4 ? "sha384" : "sha256";
	sl = i % 5 == 4 ? 48 : 32;
	qs_initial_keys(v, c->odcid, 8, 0, &c->ci);
	qs_initial_keys(v, c->odcid, 8, 1, &c->si);
	rnd_bytes(s, sl);
	qs_traffic_keys(v, c->hash, s, sl, &c->ch);
	rnd_bytes(s, sl);
	qs_traffic_keys(v, c->hash, s, sl, &c->sh);
	rnd_bytes(s, sl);
	qs_traffic_keys(v, c->hash, s, sl, &c->c1);
	rnd_bytes(s, sl);
	qs_traffic_keys(v, c->hash, s, sl, &c->s1);
	if (unlogged != 0 && i % unlogged == 1)
		return;
	keylog_line(kl, "CLIENT_HANDSHAKE_TRAFFIC_SECRET", c, &c->ch);
	keylog_line(kl, "SERVER_HANDSHAKE_TRAFFIC_SECRET", c, &c->sh);
	keylog_line(kl, "CLIENT_TRAFFIC_SECRET_0", c, &c->c1);
	keylog_line(kl, "SERVER_TRAFFIC_SECRET_0", c, &c->s1);
}

/* The start of a ClientHello (or ServerHello) with this random, as
 * CRYPTO frames [from, to) of it. */
static size_t hello(uint8_t *out, int type, const uint8_t *random,
                    unsigned suite, size_t from, size_t to)
{
	uint8_t m[80];
	size_t n = 0;

	m[n++] = (uint8_t)type;
	m[n++] = 0, m[n++] = 0, m[n++] = 0x4a;
	m[n++] = 3, m[n++] = 3;
	memcpy(m + n, random, 32);
	n += 32;
	m[n++] = 0;                  /* legacy session ID: empty */
	m[n++] = (uint8_t)(suite >> 8), m[n++] = (uint8_t)suite;
	while (n < sizeof m)
		m[n] = (uint8_t)n, n++;
	if (to > n)
		to = n;
	out[0] = 0x06;
	out[1] = (uint8_t)from;
	out[2] = (uint8_t)(to - from);
	memcpy(out + 3, m + from, to - from);
	return 3 + to - from;
}

struct opts {
	unsigned updates, onertt;
	size_t pad, payload;
	unsigned from, unlogged;
};

static void base(struct qs_packet *p, const struct qs_version *v,
                 enum qs_type t, const uint8_t *dcid, size_t dl,
                 const uint8_t *scid, size_t sl, uint64_t pn,
                 const uint8_t *plain, size_t n)
{
	memset(p, 0, sizeof *p);
	p->v = v;
	p->type = t;
	p->dcid = dcid;
	p->dcid_len = dl;
	p->scid = scid;
	p->scid_len = sl;
	p->pn = pn;
	p->pnlen = t == QS_1RTT ? 1 : 2;
	p->plain = plain;
	p->plain_len = n;
}

/* Step s of connection i: its datagrams. */
static void step(struct out *o, struct conn *c, unsigned i, unsigned s,
                 const struct qs_version *v, const struct opts *op)
{
	uint8_t plain[2048], *pl = plain;
	struct qs_packet p;
	size_t n;
	unsigned suite = strcmp(c->hash, "sha384") == 0 ? 0x1302 : 0x1301;

	memset(plain, 0, sizeof plain);
	switch (s) {
	case 0:      /* the client's first Initial (odd i: two frames, in
	                reverse order, the first bytes in the second packet) */
		if (i % 2) {
			n = hello(pl, 1, c->random, suite, 20, 60);
			base(&p, v, QS_INITIAL, c->odcid, 8, c->ccid, c->ccid_len,
			     0, plain, n + (op->pad ? op->pad : 20));
			packet(o, &p, &c->ci, "client", "Initial", -1);
			flush(o, i, 0);
			n = hello(pl, 1, c->random, suite, 0, 20);
			base(&p, v, QS_INITIAL, c->odcid, 8, c->ccid, c->ccid_len,
			     1, plain, n + 20);
		} else {
			n = hello(pl, 1, c->random, suite, 0, 60);
			base(&p, v, QS_INITIAL, c->odcid, 8, c->ccid, c->ccid_len,
			     0, plain, op->pad > n ? op->pad : n + 20);
		}
		packet(o, &p, &c->ci, "client", "Initial", -1);
		flush(o, i, 0);
		return;
	case 1:      /* the server's Initial and Handshake */
		n = hello(pl, 2, c->random, suite, 0, 60);
		base(&p, v, QS_INITIAL, c->ccid, c->ccid_len, c->scid, 8, 0,
		     plain, n + 10);
		packet(o, &p, &c->si, "server", "Initial", -1);
		memset(plain, 0, sizeof plain);
		base(&p, v, QS_HANDSHAKE, c->ccid, c->ccid_len, c->scid, 8, 0,
		     plain, 80);
		packet(o, &p, &c->sh, "server", "Handshake", -1);
		flush(o, i, 1);
		return;
	case 2:      /* the client's second Initial, Handshake, 1-RTT */
		memset(plain, 0, sizeof plain);
		plain[0] = 1;        /* PING */
		base(&p, v, QS_INITIAL, c->scid, 8, c->ccid, c->ccid_len,
		     i % 2 ? 2 : 1, plain, 20);
		packet(o, &p, &c->ci, "client", "Initial", -1);
		base(&p, v, QS_HANDSHAKE, c->scid, 8, c->ccid, c->ccid_len, 0,
		     plain, 30);
		packet(o, &p, &c->ch, "client", "Handshake", -1);
		base(&p, v, QS_1RTT, c->scid, 8, NULL, 0, c->cpn_app++, plain,
		     op->payload);
		packet(o, &p, &c->c1, "client", "1-RTT", 0);
		flush(o, i, 0);
		return;
	default:     /* 1-RTT, the key updated K times each side */
		{
			unsigned k = s - 3, side = k % 2, nth = k / 2;
			unsigned gen = op->onertt != 0 ?
			               nth * (op->updates + 1) / op->onertt : 0;
			struct qs_keys *keys = side ? &c->s1 : &c->c1;
			unsigned *cur = side ? &c->s1_gen : &c->c1_gen;

			if (gen > *cur) {
				qs_generation(v, c->hash, keys, gen - *cur);
				*cur = gen;
			}
			plain[0] = 1;
			base(&p, v, QS_1RTT, side ? c->ccid : c->scid,
			     side ? c->ccid_len : 8, NULL, 0,
			     side ? c->spn_app++ : c->cpn_app++, plain,
			     op->payload);
			p.phase = (int)(gen & 1);
			packet(o, &p, keys, side ? "server" : "client", "1-RTT",
			       (int)(gen & 1));
			flush(o, i, (int)side);
		}
		return;
	}
}

static FILE *open_out(const char *prefix, const char *ext, const char *mode)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof path, "%s.%s", prefix, ext);
	if ((f = fopen(path, mode)) == NULL) {
		perror(path);
		exit(1);
	}
	return f;
}

int main(int argc, char **argv)
{
	static struct out o;
	const struct qs_version *v = qs_version("1");
	struct opts op = { 2, 0, 0, 24, 0, 0 };
	struct conn *c;
	unsigned n, i, s, steps;
	FILE *kl;
	int a;

	if (argc < 3)
		qs_die("usage: quicconns N PREFIX [seed=S updates=K onertt=M "
		       "pad=B payload=B from=S unlogged=K]");
	n = (unsigned)strtoul(argv[1], NULL, 10);
	rng_state = 1;
	for (a = 3; a < argc; a++) {
		const char *val = strchr(argv[a], '=');

		if (val == NULL)
			qs_die("arguments are NAME=VALUE");
		val++;
		if (strncmp(argv[a], "seed=", 5) == 0)
			rng_state = strtoull(val, NULL, 10);
		else if (strncmp(argv[a], "updates=", 8) == 0)
			op.updates = (unsigned)atoi(val);
		else if (strncmp(argv[a], "onertt=", 7) == 0)
			op.onertt = (unsigned)atoi(val);
		else if (strncmp(argv[a], "pad=", 4) == 0)
			op.pad = (size_t)atoi(val);
		else if (strncmp(argv[a], "payload=", 8) == 0)
			op.payload = (size_t)atoi(val);
		else if (strncmp(argv[a], "from=", 5) == 0)
			op.from = (unsigned)atoi(val);
		else if (strncmp(argv[a], "unlogged=", 9) == 0)
			op.unlogged = (unsigned)atoi(val);
		else
			qs_die("unknown argument");
	}
	if (op.onertt == 0)
		op.onertt = 2 * (op.updates + 1);
	if (op.payload < 20 || op.payload > 1400 || op.pad > 1400)
		qs_die("payload is 20 to 1400 bytes, pad at most 1400");
	if ((c = calloc(n ? n : 1, sizeof *c)) == NULL)
		qs_die("out of memory");
	o.dg = open_out(argv[2], "dgrams", "w");
	o.ex = open_out(argv[2], "expect", "w");
	o.pc = open_out(argv[2], "pcap", "wb");
	kl = open_out(argv[2], "keylog", "w");
	pcap_header(o.pc);
	fprintf(o.dg, "# quicconns %u connections, written by tests/quicconns\n",
	        n);
	o.line = 1;
	for (i = 0; i < n; i++)
		make_conn(&c[i], i, v, kl, op.unlogged);
	steps = 3 + 2 * op.onertt;
	for (s = 0; s < steps; s++) {
		o.quiet = s < op.from;
		for (i = 0; i < n; i++)
			step(&o, &c[i], i, s, v, &op);
	}
	if (fclose(o.dg) != 0 || fclose(o.ex) != 0 || fclose(o.pc) != 0 ||
	    fclose(kl) != 0)
		qs_die("cannot write the files");
	free(c);
	return 0;
}
