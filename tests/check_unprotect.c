/* SPDX-License-Identifier: MIT */
/*
 * check_unprotect.c - unit tests for splitting datagrams (cli/quic/datagram.c)
 * and for unprotecting their packets with trial decryption
 * (cli/quic/unprotect.c): RFC 9001 A.2 (also sealed here from the RFC's keys),
 * A.3, A.4 (Retry: refused), A.5 (ChaCha20: reported, never authenticated
 * as AES) and RFC 9369 A.2 and A.3; then streams of datagrams in
 * tests/quic/: the RFCs' Initials (the server's keyed by the DCID of the
 * client's Initial before it), traffic
 * captured between Debian's ngtcp2 programs (AES-128-GCM and AES-256-GCM,
 * a key update, a Retry, two connections with 0-RTT, ChaCha20-Poly1305)
 * and datagrams built by tests/quicgen, each packet compared with what
 * tshark's dissector (or quicgen) says it is.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/gcm.h>

#include "checkutil.h"
#include "aesecb.h"
#include "quic/datagram.h"
#include "quic/hpconf.h"
#include "quic/keylog.h"
#include "quic/quic.h"
#include "quic/unprotect.h"

/* ------------------------------------------------------------------ */
/* Vectors. */

#define RFC9001_A3 \
	"cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a" \
	"5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3" \
	"dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84" \
	"022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4" \
	"2158407dd074ee"
#define RFC9369_A3 \
	"dc6b3343cf0008f067a5502a4262b5004075d92faaf16f05d8a4398c47089698" \
	"baeea26b91eb761d9b89237bbf87263017915358230035f7fd3945d88965cf17" \
	"f9af6e16886c61bfc703106fbaf3cb4cfa52382dd16a393e42757507698075b2" \
	"c984c707f0a0812d8cd5a6881eaf21ceda98f4bd23f6fe1a3e2c43edd9ce7ca8" \
	"4bed8521e2e140"
#define RFC9001_A4 \
	"ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f" \
	"0f2496ba"
#define RFC9001_A5 "4cfe4189655e5cd55c41f69080575d7999c25a5bfb"
#define A5_SECRET \
	"9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b"
#define A2_DCID "8394c8f03e515708"

/* RFC 9001 A.2's client Initial, sealed from the RFC's key, IV and mask
 * with the RFC's first 16 payload bytes then PADDING (check_quicpp checks
 * its header and sample against the RFC's). */
static size_t build_a2(uint8_t *a2)
{
	struct gcm_aes128_ctx g;
	uint8_t key[16], iv[12], mask[5], plain[1162];
	size_t h = unhex("c300000001088394c8f03e5157080000449e00000002", a2,
	                 1200), i;

	unhex("1f369613dd76d5467730efcbe3b1a22d", key, sizeof key);
	unhex("fa044b2f42a3fd3b46fb255c", iv, sizeof iv);
	memset(plain, 0, sizeof plain);
	unhex("060040f1010000ed0303ebf8fa56f129", plain, sizeof plain);
	iv[11] ^= 2;
	gcm_aes128_set_key(&g, key);
	gcm_aes128_set_iv(&g, 12, iv);
	gcm_aes128_update(&g, h, a2);
	gcm_aes128_encrypt(&g, sizeof plain, a2 + h, plain);
	gcm_aes128_digest(&g, 16, a2 + h + sizeof plain);
	unhex("437b9aec36", mask, sizeof mask);
	a2[0] ^= mask[0] & 0x0f;
	for (i = 0; i < 4; i++)
		a2[18 + i] ^= mask[1 + i];
	return 1200;
}

/* ------------------------------------------------------------------ */
/* Collecting the parts of a datagram. */

#define MAX_PARTS 16

static struct up_packet got[MAX_PARTS];
static uint8_t got_bytes[MAX_PARTS][1500];
static size_t ngot;

static int collect(void *arg, const struct up_packet *p)
{
	(void)arg;
	ck_assert_uint_lt(ngot, MAX_PARTS);
	got[ngot] = *p;
	if (p->len <= sizeof got_bytes[0])
		memcpy(got_bytes[ngot], p->bytes, p->len);
	ngot++;
	return 0;
}

/* The options of hp-mask --unprotect as the engine reads them (the
 * defaults of hp_conf_init). */
static void config(struct hp_conf *c)
{
	memset(c, 0, sizeof *c);
	c->mode = HP_UNPROTECT;
	c->version = QUIC_VERSION_1;
	c->hash = QUIC_SHA256;
	c->dcid_len = QUIC_DCID_LEN_UNKNOWN;
}

/* A key log given (the engine reads the one passed to up_new). */
static const char *keylog_name = "keys.log";

static void with_keylog(struct hp_conf *c)
{
	c->keylogs = &keylog_name;
	c->nkeylogs = 1;
}

static void with_secret(struct hp_conf *c, const char *hex)
{
	c->secret.given = 1;
	c->secret.len = unhex(hex, c->secret.bytes, sizeof c->secret.bytes);
}

static void with_hp_key(struct hp_conf *c, size_t len)
{
	c->common.key.given = 1;
	c->common.key.len = len;
}

static void run_kl(const struct hp_conf *c, const struct keylog *kl,
                   uint8_t *d, size_t len)
{
	struct up_state *s;

	ck_assert_int_eq(up_new(&s, c, kl, NULL), QUIC_OK);
	ngot = 0;
	ck_assert_int_eq(up_datagram(s, d, len, NULL, collect, NULL), 0);
	up_free(s);
}

static void run(const struct hp_conf *c, uint8_t *d, size_t len)
{
	run_kl(c, NULL, d, len);
}

/* ------------------------------------------------------------------ */
/* Splitting. */

START_TEST(test_split)
{
	uint8_t d[1500];
	size_t n = unhex(RFC9001_A3, d, sizeof d), pos = 0, k = 0;
	struct dgram_part part;
	size_t want_off[] = { 0, 135, 270 }, want_len[] = { 135, 135, 30 };

	/* two copies, then 30 zero bytes */
	memcpy(d + n, d, n);
	memset(d + 2 * n, 0, 30);
	n = 2 * n + 30;
	while (dgram_next(d, n, pos, QUIC_DCID_LEN_UNKNOWN, &part)) {
		ck_assert_uint_lt(k, 3);
		ck_assert_uint_eq(part.offset, want_off[k]);
		ck_assert_uint_eq(part.len, want_len[k]);
		ck_assert_int_eq(part.kind, k < 2 ? DGRAM_PACKET : DGRAM_PADDING);
		if (k < 2)
			ck_assert_int_eq(part.status, QUIC_OK);
		pos += part.len;
		k++;
	}
	ck_assert_uint_eq(k, 3);
	/* a short header after a long one runs to the end */
	n = unhex(RFC9001_A3, d, sizeof d);
	n += unhex(RFC9001_A5, d + n, sizeof d - n);
	ck_assert_int_eq(dgram_next(d, n, 135, QUIC_DCID_LEN_UNKNOWN, &part), 1);
	ck_assert_int_eq(part.kind, DGRAM_PACKET);
	ck_assert_int_eq(part.status, QUIC_ENODCIDLEN);
	ck_assert_uint_eq(part.len, 21);
	ck_assert_int_eq(dgram_next(d, n, n, 0, &part), 0);
	/* zeros, then a byte: not padding, a malformed short header */
	memset(d + 135, 0, 40);
	d[174] = 1;
	ck_assert_int_eq(dgram_next(d, 175, 135, 0, &part), 1);
	ck_assert_int_eq(part.kind, DGRAM_PACKET);
	ck_assert_uint_eq(part.len, 40);
	/* a header that cannot be parsed takes the rest */
	n = unhex("c00000000108", d, sizeof d);
	ck_assert_int_eq(dgram_next(d, n, 0, 0, &part), 1);
	ck_assert_int_eq(part.status, QUIC_ETRUNCATED);
	ck_assert_uint_eq(part.len, n);
	/* a Retry too */
	n = unhex(RFC9001_A4, d, sizeof d);
	ck_assert_int_eq(dgram_next(d, n, 0, 0, &part), 1);
	ck_assert_int_eq(part.status, QUIC_ENOPROTECTION);
	ck_assert_int_eq(part.h.type, QUIC_PT_RETRY);
	ck_assert_uint_eq(part.len, n);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The RFC examples. */

START_TEST(test_rfc_initials)
{
	struct hp_conf c;
	uint8_t d[1500], keep[1500];
	size_t n;

	/* A.2: own DCID, the client's side */
	config(&c);
	c.initial = 1;
	n = build_a2(d);
	memcpy(keep, d, n);
	run(&c, d, n);
	ck_assert_uint_eq(ngot, 1);
	ck_assert_int_eq(got[0].verdict, UP_AUTHENTICATED);
	ck_assert_int_eq(got[0].type, QUIC_PT_INITIAL);
	ck_assert_int_eq(got[0].server, 0);
	ck_assert_int_eq(got[0].dcid_from, UP_DCID_OWN);
	ck_assert_uint_eq(got[0].pn, 2);
	ck_assert_uint_eq(got[0].pn_len, 4);
	ck_assert_int_eq(d[0], 0xc3);           /* header protection gone */
	ck_assert_mem_eq(d + 22, keep + 22, n - 22);   /* payload sealed */

	/* A.3: without --odcid it cannot be keyed: not authenticated, and
	 * the hint names --odcid */
	config(&c);
	c.initial = 1;
	n = unhex(RFC9001_A3, d, sizeof d);
	memcpy(keep, d, n);
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_FAILED);
	ck_assert_uint_ne(got[0].hints & UP_HINT_ODCID, 0);
	{
		char why[300];

		up_hints_text(&got[0], why, sizeof why);
		ck_assert_ptr_nonnull(strstr(why, "give --odcid"));
	}
	/* with --odcid: the server's side */
	c.have_odcid = 1;
	c.odcid_len = unhex(A2_DCID, c.odcid, sizeof c.odcid);
	memcpy(d, keep, n);
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_AUTHENTICATED);
	ck_assert_int_eq(got[0].server, 1);
	ck_assert_int_eq(got[0].dcid_from, UP_DCID_OPTION);
	ck_assert_uint_eq(got[0].pn, 1);
	/* --server with --odcid */
	c.server_only = 1;
	memcpy(d, keep, n);
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_AUTHENTICATED);
	/* RFC 9369 A.3, version 2 */
	c.server_only = 0;
	n = unhex(RFC9369_A3, d, sizeof d);
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_AUTHENTICATED);
	ck_assert_uint_eq(got[0].version, QUIC_VERSION_2);
	ck_assert_uint_eq(got[0].pn, 1);

	/* A.2 then A.3 in one stream: the server's Initial keyed by the
	 * client's DCID remembered from its Initial (A.3's DCID is empty,
	 * as A.2's SCID is) */
	{
		struct up_state *s;

		config(&c);
		c.initial = 1;
		ck_assert_int_eq(up_new(&s, &c, NULL, NULL), QUIC_OK);
		ngot = 0;
		n = build_a2(d);
		ck_assert_int_eq(up_datagram(s, d, n, NULL, collect, NULL), 0);
		n = unhex(RFC9001_A3, d, sizeof d);
		ck_assert_int_eq(up_datagram(s, d, n, NULL, collect, NULL), 0);
		up_free(s);
		ck_assert_uint_eq(ngot, 2);
		ck_assert_int_eq(got[1].verdict, UP_AUTHENTICATED);
		ck_assert_int_eq(got[1].server, 1);
		ck_assert_int_eq(got[1].dcid_from, UP_DCID_REMEMBERED);
	}
}
END_TEST

START_TEST(test_rfc_retry_chacha)
{
	struct hp_conf c;
	uint8_t d[200], keep[200];
	size_t n;
	char why[300];

	/* A.4: refused with every key source */
	config(&c);
	c.initial = 1;
	n = unhex(RFC9001_A4, d, sizeof d);
	memcpy(keep, d, n);
	run(&c, d, n);
	ck_assert_uint_eq(ngot, 1);
	ck_assert_int_eq(got[0].verdict, UP_NO_PROTECTION);
	ck_assert_int_eq(got[0].type, QUIC_PT_RETRY);
	ck_assert_str_eq(got[0].why, "Retry packets have no header protection");
	ck_assert_mem_eq(d, keep, n);
	config(&c);
	with_hp_key(&c, 16);
	c.have_pn_offset = 1;
	c.pn_offset = 15;
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_NO_PROTECTION);
	ck_assert_mem_eq(d, keep, n);
	/* cut short inside its SCID, and a Version Negotiation packet cut
	 * short inside its DCID: refused too */
	c.pn_offset = 7;
	n = unhex("ff00000001ff0102030405060708090a0b0c0d0e0f10111213141516"
	          "1718191a", d, sizeof d);
	memcpy(keep, d, n);
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_NO_PROTECTION);
	ck_assert_str_eq(got[0].why, "Retry packets have no header protection");
	ck_assert_mem_eq(d, keep, n);
	n = unhex("8000000000ff0102030405060708090a0b0c0d0e0f10111213141516"
	          "1718191a", d, sizeof d);
	memcpy(keep, d, n);
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_NO_PROTECTION);
	ck_assert_mem_eq(d, keep, n);

	/* A.5: ChaCha20-Poly1305, its 32-byte secret taken for an AES suite's */
	config(&c);
	with_secret(&c, A5_SECRET);
	c.dcid_len = 0;
	n = unhex(RFC9001_A5, d, sizeof d);
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_FAILED);
	ck_assert_int_eq(got[0].type, QUIC_PT_1RTT);
	ck_assert_uint_ne(got[0].hints & UP_HINT_CHACHA, 0);
	up_hints_text(&got[0], why, sizeof why);
	ck_assert_ptr_nonnull(strstr(why, "or the connection uses "
	                             "ChaCha20-Poly1305, whose header "
	                             "protection is not AES"));
	/* a bare hp key: not checked */
	config(&c);
	with_hp_key(&c, 16);
	c.dcid_len = 0;
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_NO_PACKET_KEY);
	ck_assert_uint_eq(got[0].pn_offset, 1);
}
END_TEST

/* A prefix with --pn-offset: not checked, never authenticated. */
START_TEST(test_truncated)
{
	struct hp_conf c;
	uint8_t d[1500];
	size_t n = build_a2(d);

	config(&c);
	c.initial = 1;
	c.have_pn_offset = 1;
	c.pn_offset = 18;
	run(&c, d, 60);
	ck_assert_uint_eq(ngot, 1);
	ck_assert_int_eq(got[0].verdict, UP_TRUNCATED);
	ck_assert_uint_eq(got[0].pn, 2);
	ck_assert_uint_eq(got[0].len, 60);
	/* the whole packet with --pn-offset: checked */
	n = build_a2(d);
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_AUTHENTICATED);
	/* a wrong --pn-offset: the tag says so */
	n = build_a2(d);
	c.pn_offset = 17;
	run(&c, d, n);
	ck_assert_int_eq(got[0].verdict, UP_FAILED);
}
END_TEST

/* Keys missing for a type: skipped, not an error. */
START_TEST(test_skipped)
{
	struct hp_conf c;
	struct keylog kl;
	uint8_t d[1500];
	size_t n;

	keylog_init(&kl);
	config(&c);
	with_keylog(&c);
	n = unhex(RFC9001_A3, d, sizeof d);
	run_kl(&c, &kl, d, n);
	ck_assert_int_eq(got[0].verdict, UP_SKIPPED);
	ck_assert_ptr_nonnull(strstr(got[0].why, "--initial"));
	/* a Handshake packet and a key log without Handshake secrets */
	n = unhex("e00000000103010203020405" "18", d, sizeof d);
	memset(d + n, 0x55, 24);
	run_kl(&c, &kl, d, n + 24);
	ck_assert_int_eq(got[0].verdict, UP_SKIPPED);
	ck_assert_str_eq(got[0].why, "the key log has no Handshake secrets");
	keylog_free(&kl);
}
END_TEST

/* A bare hp key the backend refuses (20 bytes) stops the engine early;
 * the lengths of AES are taken. */
START_TEST(test_config_errors)
{
	struct hp_conf c;
	struct up_state *s;

	config(&c);
	with_hp_key(&c, 20);
	ck_assert_int_eq(up_new(&s, &c, NULL, NULL), QUIC_EINVAL);
	ck_assert_ptr_null(s);
	c.common.key.len = 32;
	ck_assert_int_eq(up_new(&s, &c, NULL, NULL), QUIC_OK);
	up_free(s);
	up_free(NULL);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Streams: the fixtures. */

struct expect {
	unsigned long line;
	char from[8], type[16], pn[24], phase[4];
	size_t len;
};

static size_t read_expect(const char *name, struct expect *e, size_t max)
{
	char path[512], buf[256];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof path, "%s/%s.expect", QUIC_FIXTURES, name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	while (fgets(buf, sizeof buf, f) != NULL) {
		ck_assert_uint_lt(n, max);
		ck_assert_int_eq(sscanf(buf, "%lu %7s %15s %23s %zu %3s",
		                        &e[n].line, e[n].from, e[n].type,
		                        e[n].pn, &e[n].len, e[n].phase), 6);
		n++;
	}
	fclose(f);
	return n;
}

/* What a stream test wants of packets that are not authenticated. */
struct stream_case {
	const char *name;
	int initial;
	/* ChaCha20: only Initial packets authenticate, the others are
	 * skipped, as the ServerHello's suite says */
	int chacha;
};

static const struct stream_case streams[] = {
	{ "rfc", 1, 0 },
	{ "aes128", 1, 0 },
	{ "aes256", 1, 0 },
	{ "retry", 1, 0 },
	{ "resume", 1, 0 },
	{ "quicgen", 1, 0 },
	{ "chacha", 1, 1 },
	{ "many", 1, 0 },
};

static uint8_t dgram[70000];

START_TEST(test_streams)
{
	const struct stream_case *sc = &streams[_i];
	static struct expect ex[2000];
	struct keylog kl;
	struct keylog_error err;
	struct hp_conf c;
	struct up_state *s;
	char path[512];
	static char line[140000];
	size_t nex, ei = 0, i, packets = 0, gens = 0;
	unsigned long lineno = 0;
	FILE *f;

	nex = read_expect(sc->name, ex, sizeof ex / sizeof ex[0]);
	ck_assert_uint_ge(nex, 4);
	keylog_init(&kl);
	snprintf(path, sizeof path, "%s/%s.keylog", QUIC_FIXTURES, sc->name);
	ck_assert_msg(keylog_read(&kl, path, &err) == KEYLOG_OK, "%s:%lu: %s",
	              path, err.line, err.msg);
	config(&c);
	c.initial = sc->initial;
	with_keylog(&c);
	ck_assert_int_eq(up_new(&s, &c, &kl, NULL), QUIC_OK);

	snprintf(path, sizeof path, "%s/%s.dgrams", QUIC_FIXTURES, sc->name);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL) {
		size_t n;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		n = unhex(line, dgram, sizeof dgram);
		ngot = 0;
		ck_assert_int_eq(up_datagram(s, dgram, n, NULL, collect, NULL),
		                 0);
		for (i = 0; i < ngot; i++) {
			const struct up_packet *p = &got[i];
			const struct expect *e;
			char pn[24];

			if (p->verdict == UP_PADDING)
				continue;
			ck_assert_msg(ei < nex, "%s:%lu: a packet too many",
			              sc->name, lineno);
			e = &ex[ei++];
			ck_assert_uint_eq(e->line, lineno);
			ck_assert_str_eq(quic_packet_type_name(p->type), e->type);
			ck_assert_msg(p->len == e->len, "%s:%lu: packet %zu is %zu "
			              "bytes, not %zu", sc->name, lineno, p->index,
			              p->len, e->len);
			if (p->type == QUIC_PT_RETRY) {
				ck_assert_int_eq(p->verdict, UP_NO_PROTECTION);
				continue;
			}
			if (sc->chacha && p->type != QUIC_PT_INITIAL) {
				/* its ServerHello chose ChaCha20-Poly1305 */
				ck_assert_int_eq(p->verdict, UP_SKIPPED);
				ck_assert_ptr_nonnull(strstr(p->why,
				                      "ChaCha20-Poly1305"));
				continue;
			}
			ck_assert_msg(p->verdict == UP_AUTHENTICATED,
			              "%s:%lu: packet %zu (%s): %s", sc->name,
			              lineno, p->index, e->type,
			              up_verdict_name(p->verdict));
			snprintf(pn, sizeof pn, "%llu", (unsigned long long)p->pn);
			ck_assert_str_eq(pn, e->pn);
			ck_assert_str_eq(p->server ? "server" : "client", e->from);
			if (p->type == QUIC_PT_1RTT) {
				ck_assert_int_eq(p->key_phase, e->phase[0] - '0');
				ck_assert_uint_eq(p->generation & 1,
				                  (unsigned)(e->phase[0] - '0'));
				if (p->generation != 0)
					gens++;
			}
			packets++;
		}
	}
	fclose(f);
	ck_assert_uint_eq(ei, nex);
	up_free(s);
	keylog_free(&kl);
	if (!sc->chacha)
		ck_assert_uint_ge(packets, 4);
	if (strcmp(sc->name, "aes128") == 0 || strcmp(sc->name, "aes256") == 0 ||
	    strcmp(sc->name, "quicgen") == 0)
		ck_assert_msg(gens > 0, "%s: no key update seen", sc->name);
}
END_TEST

/* A wrong key log fails every packet but the Initials, and the pn hint
 * shows for a stream that starts mid-connection. */
START_TEST(test_wrong_keylog)
{
	struct keylog kl, other;
	struct keylog_error err;
	struct hp_conf c;
	struct up_state *s;
	char path[512];
	static char line[140000];
	size_t i, failed = 0;
	FILE *f;

	keylog_init(&kl);
	keylog_init(&other);
	snprintf(path, sizeof path, "%s/aes256.keylog", QUIC_FIXTURES);
	ck_assert_int_eq(keylog_read(&other, path, &err), KEYLOG_OK);
	config(&c);
	c.initial = 1;
	with_keylog(&c);
	ck_assert_int_eq(up_new(&s, &c, &other, NULL), QUIC_OK);
	snprintf(path, sizeof path, "%s/aes128.dgrams", QUIC_FIXTURES);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL) {
		size_t n;

		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = '\0';
		n = unhex(line, dgram, sizeof dgram);
		ngot = 0;
		ck_assert_int_eq(up_datagram(s, dgram, n, NULL, collect, NULL),
		                 0);
		for (i = 0; i < ngot; i++) {
			if (got[i].verdict == UP_PADDING)
				continue;
			if (got[i].type == QUIC_PT_INITIAL) {
				ck_assert_int_eq(got[i].verdict, UP_AUTHENTICATED);
			} else {
				ck_assert_int_eq(got[i].verdict, UP_FAILED);
				failed++;
			}
		}
	}
	fclose(f);
	up_free(s);
	ck_assert_uint_gt(failed, 10);
	keylog_free(&kl);
	keylog_free(&other);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("unprotect");
	TCase *tc = tcase_create("datagram");

	tcase_add_test(tc, test_split);
	suite_add_tcase(s, tc);
	tc = tcase_create("rfc");
	tcase_add_test(tc, test_rfc_initials);
	tcase_add_test(tc, test_rfc_retry_chacha);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_skipped);
	tcase_add_test(tc, test_config_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("streams");
	tcase_set_timeout(tc, 120);   /* slow under an emulator */
	tcase_add_loop_test(tc, test_streams, 0,
	                    (int)(sizeof streams / sizeof streams[0]));
	tcase_add_test(tc, test_wrong_keylog);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)
