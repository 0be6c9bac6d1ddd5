/* SPDX-License-Identifier: MIT */
/*
 * check_quic.c - unit tests for the QUIC key derivation and header parser
 * (cli/quic/quic.c): the Initial keys of RFC 9001 A.1 and RFC 9369 A.1,
 * HKDF-Expand-Label and hp keys with SHA-256 and SHA-384, the headers of
 * the RFC 9001 and RFC 9369 example packets, short headers, Handshake and
 * 0-RTT, Retry, Version Negotiation, and every malformed case.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkutil.h"
#include "aesecb.h"
#include "quic/quic.h"

/* ------------------------------------------------------------------ */
/* Helpers */

/* Decode hex (whitespace ignored) into out; returns the byte count. */
/* bytes b[0..n) as hex equal want */
static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Initial keys: RFC 9001 Appendix A.1 and RFC 9369 Appendix A.1. */

struct initial_vec {
	uint32_t version;
	const char *client_secret, *client_key, *client_iv, *client_hp;
	const char *server_secret, *server_key, *server_iv, *server_hp;
};

static const struct initial_vec initial_vecs[] = {
	{ QUIC_VERSION_1,   /* RFC 9001 A.1 */
	  "c00cf151ca5be075ed0ebfb5c80323c42d6b7db67881289af4008f1f6c357aea",
	  "1f369613dd76d5467730efcbe3b1a22d",
	  "fa044b2f42a3fd3b46fb255c",
	  "9f50449e04a0e810283a1e9933adedd2",
	  "3c199828fd139efd216c155ad844cc81fb82fa8d7446fa7d78be803acdda951b",
	  "cf3a5331653c364c88f0f379b6067e37",
	  "0ac1493ca1905853b0bba03e",
	  "c206b8d9b9f0f37644430b490eeaa314" },
	{ QUIC_VERSION_2,   /* RFC 9369 A.1 */
	  "14ec9d6eb9fd7af83bf5a668bc17a7e283766aade7ecd0891f70f9ff7f4bf47b",
	  "8b1a0bc121284290a29e0971b5cd045d",
	  "91f73e2351d8fa91660e909f",
	  "45b95e15235d6f45a6b19cbcb0294ba9",
	  "0263db1782731bf4588e7e4d93b7463907cb8cd8200b5da55a8bd488eafc37c1",
	  "82db637861d55e1d011f19ea71d5d2a7",
	  "dd13c276499c0249d3310652",
	  "edf6d05c83121201b436e16877593c3a" },
};

START_TEST(test_initial_rfc)
{
	const struct initial_vec *v = &initial_vecs[_i];
	struct quic_initial k;
	uint8_t dcid[8];

	unhex("8394c8f03e515708", dcid, sizeof dcid);
	memset(&k, 0xa5, sizeof k);
	ck_assert_int_eq(quic_initial_keys(v->version, dcid, sizeof dcid, &k),
	                 QUIC_OK);
	ck_assert_uint_eq(k.version, v->version);
	ck_assert_uint_eq(k.client.secret_len, 32);
	ck_assert_uint_eq(k.client.key_len, 16);
	ck_assert_uint_eq(k.server.secret_len, 32);
	ck_assert_uint_eq(k.server.key_len, 16);
	ck_assert_hex(k.client.secret, 32, v->client_secret);
	ck_assert_hex(k.client.key, 16, v->client_key);
	ck_assert_hex(k.client.iv, 12, v->client_iv);
	ck_assert_hex(k.client.hp, 16, v->client_hp);
	ck_assert_hex(k.server.secret, 32, v->server_secret);
	ck_assert_hex(k.server.key, 16, v->server_key);
	ck_assert_hex(k.server.iv, 12, v->server_iv);
	ck_assert_hex(k.server.hp, 16, v->server_hp);
	/* unused tails are zero (the structure was cleared first) */
	ck_assert(all_zero(k.client.secret + 32, sizeof k.client.secret - 32));
	ck_assert(all_zero(k.client.hp + 16, sizeof k.client.hp - 16));

	/* the client and server secrets give the same keys through
	 * quic_traffic_keys and quic_hp_key */
	{
		struct quic_keys t;
		uint8_t hp[QUIC_MAX_KEY_LEN];
		size_t hp_len = 99;
		uint8_t secret[32];

		unhex(v->server_secret, secret, sizeof secret);
		ck_assert_int_eq(quic_traffic_keys(QUIC_SHA256, v->version,
		                                   secret, 32, &t), QUIC_OK);
		ck_assert_uint_eq(t.key_len, 16);
		ck_assert_hex(t.secret, 32, v->server_secret);
		ck_assert_hex(t.key, 16, v->server_key);
		ck_assert_hex(t.iv, 12, v->server_iv);
		ck_assert_hex(t.hp, 16, v->server_hp);
		quic_keys_wipe(&t);
		ck_assert(all_zero(&t, sizeof t));

		unhex(v->client_secret, secret, sizeof secret);
		ck_assert_int_eq(quic_hp_key(QUIC_SHA256, v->version, secret, 32,
		                             hp, &hp_len), QUIC_OK);
		ck_assert_uint_eq(hp_len, 16);
		ck_assert_hex(hp, 16, v->client_hp);
	}

	quic_initial_wipe(&k);
	ck_assert(all_zero(&k, sizeof k));
}
END_TEST

/*
 * Other DCIDs: the empty one (version 1) and the 20 bytes 00 01 ... 13
 * (version 2).  Expected values made with
 * OpenSSL 3.0 ('openssl kdf ... HKDF' in EXTRACT_ONLY mode with the
 * version's salt, then EXPAND_ONLY with the HkdfLabel info built by hand),
 * not with this code.
 */
START_TEST(test_initial_other_dcids)
{
	struct quic_initial k;
	uint8_t dcid[21];
	size_t i;

	ck_assert_int_eq(quic_initial_keys(QUIC_VERSION_1, NULL, 0, &k), QUIC_OK);
	ck_assert_hex(k.client.secret, 32,
	              "594cb3b06a53f6d6e1c3af415ec6b91a5b97c13c4f38d3008cd4c50c224a8288");
	ck_assert_hex(k.server.hp, 16, "b175abd708d3c7b157293412365e8007");
	for (i = 0; i < sizeof dcid; i++)
		dcid[i] = (uint8_t)i;
	ck_assert_int_eq(quic_initial_keys(QUIC_VERSION_2, dcid, 20, &k), QUIC_OK);
	ck_assert_hex(k.client.hp, 16, "9f36ca4f5484611e76428c6220f3882e");
	ck_assert_int_eq(quic_initial_keys(QUIC_VERSION_1, dcid, 21, &k),
	                 QUIC_ECIDLEN);
	ck_assert(all_zero(&k, sizeof k));
	ck_assert_int_eq(quic_initial_keys(0xff000020u, dcid, 8, &k),
	                 QUIC_EVERSION);
	ck_assert_int_eq(quic_initial_keys(QUIC_VERSION_1, NULL, 8, &k),
	                 QUIC_EINVAL);
	ck_assert_int_eq(quic_initial_keys(QUIC_VERSION_1, dcid, 8, NULL),
	                 QUIC_EINVAL);
	quic_initial_wipe(&k);
}
END_TEST

/* ------------------------------------------------------------------ */
/* hp keys and HKDF-Expand-Label of traffic secrets.  Expected values made
 * with OpenSSL 3.0, independently of this code:
 *   info = uint16 L | uint8 len | "tls13 " label | 00
 *   openssl kdf -keylen L -kdfopt digest:SHA256 (or SHA384)
 *       -kdfopt mode:EXPAND_ONLY -kdfopt hexkey:SECRET
 *       -kdfopt hexinfo:INFO HKDF
 * SECRET256 is the RFC 9001 A.5 ChaCha20 secret; SECRET384 is the bytes
 * 00 01 02 ... 2f. */

#define SECRET256 "9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b"
#define SECRET384 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" \
                  "202122232425262728292a2b2c2d2e2f"

START_TEST(test_hp_keys)
{
	uint8_t s256[32], s384[48], hp[QUIC_MAX_KEY_LEN], out[64];
	size_t hp_len;

	unhex(SECRET256, s256, sizeof s256);
	unhex(SECRET384, s384, sizeof s384);

	ck_assert_int_eq(quic_hp_key(QUIC_SHA256, QUIC_VERSION_1, s256, 32, hp,
	                             &hp_len), QUIC_OK);
	ck_assert_uint_eq(hp_len, 16);
	ck_assert_hex(hp, 16, "0784f37dea97f0a09f48a46e08a0c8a7");
	ck_assert_int_eq(quic_hp_key(QUIC_SHA256, QUIC_VERSION_2, s256, 32, hp,
	                             &hp_len), QUIC_OK);
	ck_assert_uint_eq(hp_len, 16);
	ck_assert_hex(hp, 16, "6b85407cf966c85bf9b14fa8e38fbc6b");
	ck_assert_int_eq(quic_hp_key(QUIC_SHA384, QUIC_VERSION_1, s384, 48, hp,
	                             &hp_len), QUIC_OK);
	ck_assert_uint_eq(hp_len, 32);
	ck_assert_hex(hp, 32, "307135de335efef95873468a03d3dfa1"
	                      "e38050df7cc6ab7f22fd7aced73b66e5");
	ck_assert_int_eq(quic_hp_key(QUIC_SHA384, QUIC_VERSION_2, s384, 48, hp,
	                             &hp_len), QUIC_OK);
	ck_assert_uint_eq(hp_len, 32);
	ck_assert_hex(hp, 32, "d2b9adbe4cceb2b521e5f06c660c6619"
	                      "a99b5fad02c1e5af86b56e8e0190ec91");

	/* RFC 9001 A.5: the ChaCha20 hp key is the same label with L = 32 */
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s256, 32, "quic hp",
	                                        NULL, 0, out, 32), QUIC_OK);
	ck_assert_hex(out, 32, "25a282b9e82f06f21f488917a4fc8f1b"
	                       "73573685608597d0efcb076b0ab7a7a4");
	/* and its "quic key" and "quic iv" (RFC 9001 A.5) */
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s256, 32, "quic key",
	                                        NULL, 0, out, 32), QUIC_OK);
	ck_assert_hex(out, 32, "c6d98ff3441c3fe1b2182094f69caa2e"
	                       "d4b716b65488960a7a984979fb23e1c8");
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s256, 32, "quic iv",
	                                        NULL, 0, out, 12), QUIC_OK);
	ck_assert_hex(out, 12, "e0459b3474bdd0e44a41c144");
	/* "quic ku" (RFC 9001 A.5) */
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s256, 32, "quic ku",
	                                        NULL, 0, out, 32), QUIC_OK);
	ck_assert_hex(out, 32, "1223504755036d556342ee9361d25342"
	                       "1a826c9ecdf3c7148684b36b714881f9");
}
END_TEST

START_TEST(test_traffic_keys_sha384)
{
	struct quic_keys k;
	uint8_t s384[48];

	unhex(SECRET384, s384, sizeof s384);
	ck_assert_int_eq(quic_traffic_keys(QUIC_SHA384, QUIC_VERSION_1, s384, 48,
	                                   &k), QUIC_OK);
	ck_assert_uint_eq(k.secret_len, 48);
	ck_assert_uint_eq(k.key_len, 32);
	ck_assert_hex(k.secret, 48, SECRET384);
	ck_assert_hex(k.hp, 32, "307135de335efef95873468a03d3dfa1"
	                        "e38050df7cc6ab7f22fd7aced73b66e5");
	quic_keys_wipe(&k);
	ck_assert(all_zero(&k, sizeof k));
}
END_TEST

START_TEST(test_kdf_errors)
{
	uint8_t s[48] = { 0 }, out[64], hp[QUIC_MAX_KEY_LEN];
	char label[300];
	struct quic_keys k;
	size_t hp_len = 7;

	ck_assert_uint_eq(quic_hash_len(QUIC_SHA256), 32);
	ck_assert_uint_eq(quic_hash_len(QUIC_SHA384), 48);
	ck_assert_uint_eq(quic_hash_len((enum quic_hash)7), 0);
	ck_assert_uint_eq(quic_key_len(QUIC_SHA256), 16);
	ck_assert_uint_eq(quic_key_len(QUIC_SHA384), 32);
	{
		enum quic_hash hh = (enum quic_hash)9;

		ck_assert_int_eq(quic_hash_parse("sha256", &hh), QUIC_OK);
		ck_assert_int_eq(hh, QUIC_SHA256);
		ck_assert_int_eq(quic_hash_parse("SHA-384", &hh), QUIC_OK);
		ck_assert_int_eq(hh, QUIC_SHA384);
		ck_assert_int_eq(quic_hash_parse("sha-256", &hh), QUIC_OK);
		ck_assert_int_eq(hh, QUIC_SHA256);
		ck_assert_int_eq(quic_hash_parse("sha512", &hh), QUIC_EINVAL);
		ck_assert_int_eq(quic_hash_parse("sha", &hh), QUIC_EINVAL);
		ck_assert_int_eq(quic_hash_parse("sh", &hh), QUIC_EINVAL);
		ck_assert_int_eq(quic_hash_parse("sha--256", &hh), QUIC_EINVAL);
		ck_assert_int_eq(quic_hash_parse("", &hh), QUIC_EINVAL);
		ck_assert_str_eq(quic_hash_name(QUIC_SHA384), "sha384");
		ck_assert_ptr_null(quic_hash_name((enum quic_hash)5));
	}

	/* a secret of the other hash's length */
	ck_assert_int_eq(quic_hp_key(QUIC_SHA256, QUIC_VERSION_1, s, 48, hp,
	                             &hp_len), QUIC_ESECRETLEN);
	ck_assert_uint_eq(hp_len, 0);
	ck_assert_int_eq(quic_hp_key(QUIC_SHA384, QUIC_VERSION_1, s, 32, hp,
	                             &hp_len), QUIC_ESECRETLEN);
	ck_assert_int_eq(quic_traffic_keys(QUIC_SHA384, QUIC_VERSION_2, s, 32,
	                                   &k), QUIC_ESECRETLEN);
	ck_assert(all_zero(&k, sizeof k));
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 31, "x", NULL, 0,
	                                        out, 16), QUIC_ESECRETLEN);
	/* unknown version and hash */
	ck_assert_int_eq(quic_hp_key(QUIC_SHA256, 0x1234u, s, 32, hp, &hp_len),
	                 QUIC_EVERSION);
	ck_assert_int_eq(quic_traffic_keys(QUIC_SHA256, 0, s, 32, &k),
	                 QUIC_EVERSION);
	ck_assert_int_eq(quic_hp_key((enum quic_hash)2, QUIC_VERSION_1, s, 32,
	                             hp, &hp_len), QUIC_EINVAL);
	ck_assert_int_eq(quic_hp_key(QUIC_SHA256, QUIC_VERSION_1, NULL, 32, hp,
	                             &hp_len), QUIC_EINVAL);
	ck_assert_int_eq(quic_hp_key(QUIC_SHA256, QUIC_VERSION_1, s, 32, hp,
	                             NULL), QUIC_EINVAL);
	/* label and length limits */
	memset(label, 'a', sizeof label);
	label[249] = '\0';
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32, label, NULL,
	                                        0, out, 16), QUIC_OK);
	label[249] = 'a';
	label[250] = '\0';
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32, label, NULL,
	                                        0, out, 16), QUIC_ELABEL);
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32, "", NULL, 0,
	                                        out, 16), QUIC_ELABEL);
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32, "x", NULL, 0,
	                                        out, 0), QUIC_ELABEL);
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32, "x", s, 256,
	                                        out, 16), QUIC_ELABEL);
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32, "x", NULL, 1,
	                                        out, 16), QUIC_EINVAL);
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32, NULL, NULL, 0,
	                                        out, 16), QUIC_EINVAL);
}
END_TEST

/* A context changes the output: HKDF-Expand-Label(SECRET256, "c e traffic",
 * 32 bytes of 0x11, 32), made with 'openssl kdf' as above. */
START_TEST(test_expand_label_context)
{
	uint8_t s[32], ctx[32], out[32];

	unhex(SECRET256, s, sizeof s);
	memset(ctx, 0x11, sizeof ctx);
	ck_assert_int_eq(quic_hkdf_expand_label(QUIC_SHA256, s, 32,
	                                        "c e traffic", ctx, 32, out, 32),
	                 QUIC_OK);
	ck_assert_hex(out, 32, "aa539e1cd73131d5f73afd11cd9fc30e"
	                       "67f8c1cafb27e45af4c6e00095454576");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Versions and messages. */

START_TEST(test_versions)
{
	uint32_t v = 0;

	ck_assert_int_eq(quic_version_parse("1", &v), QUIC_OK);
	ck_assert_uint_eq(v, QUIC_VERSION_1);
	ck_assert_int_eq(quic_version_parse("2", &v), QUIC_OK);
	ck_assert_uint_eq(v, QUIC_VERSION_2);
	ck_assert_int_eq(quic_version_parse("0x00000001", &v), QUIC_OK);
	ck_assert_uint_eq(v, QUIC_VERSION_1);
	ck_assert_int_eq(quic_version_parse("0x6B3343CF", &v), QUIC_OK);
	ck_assert_uint_eq(v, QUIC_VERSION_2);
	ck_assert_int_eq(quic_version_parse("0xff000020", &v), QUIC_EVERSION);
	ck_assert_uint_eq(v, 0xff000020u);
	ck_assert_int_eq(quic_version_parse("0xff00001d", &v), QUIC_OK);
	ck_assert_uint_eq(v, QUIC_VERSION_DRAFT29);
	ck_assert_int_eq(quic_version_parse("draft-29", &v), QUIC_OK);
	ck_assert_uint_eq(v, QUIC_VERSION_DRAFT29);
	ck_assert_int_eq(quic_version_parse("draft-v2", &v), QUIC_OK);
	ck_assert_uint_eq(v, QUIC_VERSION_V2_DRAFT);
	ck_assert_int_eq(quic_version_parse("0x709A50C4", &v), QUIC_OK);
	ck_assert_uint_eq(v, QUIC_VERSION_V2_DRAFT);
	ck_assert_int_eq(quic_version_parse("draft-30", &v), QUIC_EINVAL);
	ck_assert_str_eq(quic_version_name(QUIC_VERSION_DRAFT29), "draft-29");
	ck_assert_str_eq(quic_version_name(QUIC_VERSION_V2_DRAFT), "draft-v2");
	/* key update labels: the v2 draft's two */
	ck_assert_str_eq(quic_ku_label(QUIC_VERSION_1, 0), "quic ku");
	ck_assert_ptr_null(quic_ku_label(QUIC_VERSION_1, 1));
	ck_assert_str_eq(quic_ku_label(QUIC_VERSION_2, 0), "quicv2 ku");
	ck_assert_str_eq(quic_ku_label(QUIC_VERSION_DRAFT29, 0), "quic ku");
	ck_assert_str_eq(quic_ku_label(QUIC_VERSION_V2_DRAFT, 0), "quicv2 ku");
	ck_assert_str_eq(quic_ku_label(QUIC_VERSION_V2_DRAFT, 1), "quic ku");
	ck_assert_ptr_null(quic_ku_label(QUIC_VERSION_V2_DRAFT, 2));
	ck_assert_ptr_null(quic_ku_label(0xff000020u, 0));
	ck_assert_int_eq(quic_version_parse("3", &v), QUIC_EINVAL);
	ck_assert_int_eq(quic_version_parse("", &v), QUIC_EINVAL);
	ck_assert_int_eq(quic_version_parse("0x", &v), QUIC_EINVAL);
	ck_assert_int_eq(quic_version_parse("0x100000000", &v), QUIC_EINVAL);
	ck_assert_int_eq(quic_version_parse("0x1g", &v), QUIC_EINVAL);
	ck_assert_int_eq(quic_version_parse("01", &v), QUIC_EINVAL);
	ck_assert_str_eq(quic_version_name(QUIC_VERSION_2), "2");
	ck_assert_ptr_null(quic_version_name(0));
	ck_assert_int_eq(quic_version_known(QUIC_VERSION_1), 1);
	ck_assert_int_eq(quic_version_known(0), 0);
}
END_TEST

START_TEST(test_strerror)
{
	int st;

	for (st = QUIC_OK; st >= QUIC_ENODCIDLEN; st--) {
		const char *m = quic_strerror(st);
		int other;

		ck_assert_ptr_nonnull(m);
		ck_assert_str_ne(m, "unknown status");
		for (other = st - 1; other >= QUIC_ENODCIDLEN; other--)
			ck_assert_str_ne(m, quic_strerror(other));
	}
	ck_assert_str_eq(quic_strerror(-99), "unknown status");
	ck_assert_str_eq(quic_packet_type_name(QUIC_PT_0RTT), "0-RTT");
	ck_assert_str_eq(quic_packet_type_name((enum quic_packet_type)99),
	                 "unknown");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Header parsing. */

static uint8_t pkt[1500];
static struct quic_header hdr;
static char msg[256];

/* Parse hex (with a tail of filler bytes, 0x00, up to total when total is
 * larger), check the status, keep the message in msg. */
static int parse(const char *hex, size_t total, size_t dcid_len)
{
	size_t n = unhex(hex, pkt, sizeof pkt);
	int st;

	if (total > n) {
		memset(pkt + n, 0, total - n);
		n = total;
	}
	st = quic_parse_header(pkt, n, dcid_len, &hdr);
	quic_header_error(&hdr, st, msg, sizeof msg);
	return st;
}

#define ck_assert_msg_has(s) \
	ck_assert_msg(strstr(msg, (s)) != NULL, "message '%s' lacks '%s'", msg, (s))

/* RFC 9001 A.2: the client Initial, protected.  Header and sample are the
 * RFC's; the 1200-byte datagram's bytes after the sample are filler (the
 * parser reads only the header and checks that the sample fits). */
START_TEST(test_rfc9001_client_initial)
{
	ck_assert_int_eq(parse("c000000001088394c8f03e5157080000449e7b9aec34"
	                       "d1b1c98dd7689fb8ec11d242b123dc9b", 1200,
	                       QUIC_DCID_LEN_UNKNOWN), QUIC_OK);
	ck_assert_int_eq(hdr.long_header, 1);
	ck_assert_int_eq(hdr.type, QUIC_PT_INITIAL);
	ck_assert_uint_eq(hdr.version, QUIC_VERSION_1);
	ck_assert_uint_eq(hdr.dcid_len, 8);
	ck_assert_hex(hdr.dcid, hdr.dcid_len, "8394c8f03e515708");
	ck_assert_ptr_eq(hdr.dcid, pkt + 6);
	ck_assert_uint_eq(hdr.scid_len, 0);
	ck_assert_uint_eq(hdr.token_len, 0);
	ck_assert_uint_eq(hdr.length, 1182);
	ck_assert_uint_eq(hdr.pn_offset, 18);
	ck_assert_uint_eq(hdr.sample_offset, 22);
	ck_assert_uint_eq(hdr.packet_len, 1200);
	ck_assert_hex(pkt + hdr.sample_offset, 16,
	              "d1b1c98dd7689fb8ec11d242b123dc9b");

	/* one byte short of the Length */
	ck_assert_int_eq(parse("c000000001088394c8f03e5157080000449e7b9aec34",
	                       1199, 0), QUIC_ELENGTH);
	ck_assert_uint_eq(hdr.pn_offset, 18);
	ck_assert_msg_has("Length field (1182)");
	ck_assert_msg_has("1200 bytes are needed; the packet has 1199");
	/* coalesced: bytes after the Length belong to the next packet */
	ck_assert_int_eq(parse("c000000001088394c8f03e5157080000449e7b9aec34",
	                       1400, 0), QUIC_OK);
	ck_assert_uint_eq(hdr.packet_len, 1200);
}
END_TEST

/* RFC 9001 A.3: the whole protected server Initial. */
#define RFC9001_A3 \
	"cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a" \
	"5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3" \
	"dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84" \
	"022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4" \
	"2158407dd074ee"

START_TEST(test_rfc9001_server_initial)
{
	ck_assert_int_eq(parse(RFC9001_A3, 0, QUIC_DCID_LEN_UNKNOWN), QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_INITIAL);
	ck_assert_uint_eq(hdr.version, QUIC_VERSION_1);
	ck_assert_uint_eq(hdr.dcid_len, 0);
	ck_assert_uint_eq(hdr.scid_len, 8);
	ck_assert_hex(hdr.scid, 8, "f067a5502a4262b5");
	ck_assert_uint_eq(hdr.length, 117);
	ck_assert_uint_eq(hdr.pn_offset, 18);
	ck_assert_uint_eq(hdr.packet_len, 135);
	ck_assert_hex(pkt + hdr.sample_offset, 16,
	              "2cd0991cd25b0aac406a5816b6394100");
}
END_TEST

/* RFC 9369 A.2 (client Initial: header and sample from the RFC, filler
 * after) and A.3 (the whole server Initial).  Version 2 packet types:
 * Initial is 0b01. */
START_TEST(test_rfc9369_initials)
{
	ck_assert_int_eq(parse("d76b3343cf088394c8f03e5157080000449ea0c95e82"
	                       "ffe67b6abcdb4298b485dd04de806071", 1200,
	                       QUIC_DCID_LEN_UNKNOWN), QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_INITIAL);
	ck_assert_uint_eq(hdr.version, QUIC_VERSION_2);
	ck_assert_hex(hdr.dcid, hdr.dcid_len, "8394c8f03e515708");
	ck_assert_uint_eq(hdr.pn_offset, 18);
	ck_assert_hex(pkt + hdr.sample_offset, 16,
	              "ffe67b6abcdb4298b485dd04de806071");

	ck_assert_int_eq(parse(
		"dc6b3343cf0008f067a5502a4262b5004075d92faaf16f05d8a4398c47089698"
		"baeea26b91eb761d9b89237bbf87263017915358230035f7fd3945d88965cf17"
		"f9af6e16886c61bfc703106fbaf3cb4cfa52382dd16a393e42757507698075b2"
		"c984c707f0a0812d8cd5a6881eaf21ceda98f4bd23f6fe1a3e2c43edd9ce7ca8"
		"4bed8521e2e140", 0, QUIC_DCID_LEN_UNKNOWN), QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_INITIAL);
	ck_assert_uint_eq(hdr.dcid_len, 0);
	ck_assert_hex(hdr.scid, hdr.scid_len, "f067a5502a4262b5");
	ck_assert_uint_eq(hdr.pn_offset, 18);
	ck_assert_uint_eq(hdr.packet_len, 135);
	ck_assert_hex(pkt + hdr.sample_offset, 16,
	              "6f05d8a4398c47089698baeea26b91eb");
}
END_TEST

/* An Initial with a token: pn offset moves past it. */
START_TEST(test_initial_token)
{
	/* token length 5 (1-byte varint), token, Length 0x0020 (2-byte) */
	ck_assert_int_eq(parse("c00000000104aabbccdd02eeff05746f6b656e4020",
	                       21 + 32, 0), QUIC_OK);
	ck_assert_uint_eq(hdr.dcid_len, 4);
	ck_assert_uint_eq(hdr.scid_len, 2);
	ck_assert_hex(hdr.token, hdr.token_len, "746f6b656e");
	ck_assert_uint_eq(hdr.pn_offset, 21);
	ck_assert_uint_eq(hdr.packet_len, 53);
	/* the same with a 4-byte and an 8-byte varint for the token length */
	ck_assert_int_eq(parse("c00000000104aabbccdd02eeff"
	                       "80000005746f6b656e4020", 24 + 32, 0), QUIC_OK);
	ck_assert_uint_eq(hdr.pn_offset, 24);
	ck_assert_int_eq(parse("c00000000104aabbccdd02eeff"
	                       "c000000000000005746f6b656e4020", 28 + 32, 0),
	                 QUIC_OK);
	ck_assert_uint_eq(hdr.pn_offset, 28);
	/* the token runs past the end */
	ck_assert_int_eq(parse("c00000000104aabbccdd02eeff"
	                       "4100746f6b656e", 0, 0), QUIC_ETRUNCATED);
	ck_assert_str_eq(hdr.err_field, "token");
	ck_assert_msg_has("token at offset 15 needs 271 bytes; the packet has 20");
	/* a huge token length does not wrap around */
	ck_assert_int_eq(parse("c00000000104aabbccdd02eeff"
	                       "ffffffffffffffff", 0, 0), QUIC_ETRUNCATED);
	ck_assert_str_eq(hdr.err_field, "token");
}
END_TEST

/* Handshake and 0-RTT: no token, Length right after the SCID. */
START_TEST(test_handshake_0rtt)
{
	/* v1 Handshake: type 0b10 (0xe0); 1-byte Length 0x18 = 24 */
	ck_assert_int_eq(parse("e00000000103010203020405" "18", 13 + 24, 0),
	                 QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_HANDSHAKE);
	ck_assert_uint_eq(hdr.pn_offset, 13);
	ck_assert_uint_eq(hdr.length, 24);
	ck_assert_uint_eq(hdr.packet_len, 37);
	/* v1 0-RTT: type 0b01 (0xd0) */
	ck_assert_int_eq(parse("d00000000103010203020405" "18", 13 + 24, 0),
	                 QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_0RTT);
	ck_assert_uint_eq(hdr.pn_offset, 13);
	/* v2 Handshake: type 0b11 (0xf0); 0-RTT: 0b10 (0xe0) */
	ck_assert_int_eq(parse("f06b3343cf03010203020405" "18", 13 + 24, 0),
	                 QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_HANDSHAKE);
	ck_assert_uint_eq(hdr.pn_offset, 13);
	ck_assert_int_eq(parse("e06b3343cf03010203020405" "18", 13 + 24, 0),
	                 QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_0RTT);
	/* a Handshake packet whose bytes would be a token length if it were
	 * read as an Initial: 0x40 0x18 is a 2-byte Length of 24 */
	ck_assert_int_eq(parse("e00000000103010203020405" "4018", 14 + 24, 0),
	                 QUIC_OK);
	ck_assert_uint_eq(hdr.pn_offset, 14);
	/* the low 4 bits of the first byte are protected: any value parses */
	ck_assert_int_eq(parse("ef0000000103010203020405" "18", 13 + 24, 0),
	                 QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_HANDSHAKE);
}
END_TEST

/* Short headers: the caller gives the DCID length. */
START_TEST(test_short_header)
{
	/* RFC 9001 A.5: the ChaCha20 short-header packet, empty DCID */
	ck_assert_int_eq(parse("4cfe4189655e5cd55c41f69080575d7999c25a5bfb", 0, 0),
	                 QUIC_OK);
	ck_assert_int_eq(hdr.long_header, 0);
	ck_assert_int_eq(hdr.type, QUIC_PT_1RTT);
	ck_assert_uint_eq(hdr.version, 0);
	ck_assert_uint_eq(hdr.pn_offset, 1);
	ck_assert_uint_eq(hdr.sample_offset, 5);
	ck_assert_uint_eq(hdr.packet_len, 21);
	ck_assert_hex(pkt + 5, 16, "5e5cd55c41f69080575d7999c25a5bfb");
	/* with a 1-byte DCID the same bytes are one short of the sample */
	ck_assert_int_eq(parse("4cfe4189655e5cd55c41f69080575d7999c25a5bfb", 0, 1),
	                 QUIC_ESAMPLE);
	ck_assert_msg_has("the sample is bytes 6 to 21, so 22 bytes are needed; "
	                  "the packet has 21");
	/* an 8-byte DCID */
	ck_assert_int_eq(parse("41" "0102030405060708", 9 + 20, 8), QUIC_OK);
	ck_assert_hex(hdr.dcid, hdr.dcid_len, "0102030405060708");
	ck_assert_uint_eq(hdr.pn_offset, 9);
	/* the DCID length must be given, and at most 20 */
	ck_assert_int_eq(parse("41" "0102030405060708", 9 + 20,
	                       QUIC_DCID_LEN_UNKNOWN), QUIC_ENODCIDLEN);
	ck_assert_int_eq(parse("41", 64, 21), QUIC_ECIDLEN);
	ck_assert_msg_has("DCID length of 21");
	/* the DCID runs past the end */
	ck_assert_int_eq(parse("410102", 0, 8), QUIC_ETRUNCATED);
	ck_assert_str_eq(hdr.err_field, "DCID");
}
END_TEST

/* Retry (RFC 9001 A.4, RFC 9369 A.4) and Version Negotiation: no header
 * protection, told apart from other errors. */
START_TEST(test_no_protection)
{
	ck_assert_int_eq(parse("ff000000010008f067a5502a4262b5746f6b656e04a265ba"
	                       "2eff4d829058fb3f0f2496ba", 0,
	                       QUIC_DCID_LEN_UNKNOWN), QUIC_ENOPROTECTION);
	ck_assert_int_eq(hdr.type, QUIC_PT_RETRY);
	ck_assert_uint_eq(hdr.version, QUIC_VERSION_1);
	ck_assert_hex(hdr.scid, hdr.scid_len, "f067a5502a4262b5");
	ck_assert_str_eq(msg, "Retry packets have no header protection");

	/* version 2: Retry is type 0b00 */
	ck_assert_int_eq(parse("cf6b3343cf0008f067a5502a4262b5746f6b656ec8646ce8"
	                       "bfe33952d955543665dcc7b6", 0,
	                       QUIC_DCID_LEN_UNKNOWN), QUIC_ENOPROTECTION);
	ck_assert_int_eq(hdr.type, QUIC_PT_RETRY);
	ck_assert_uint_eq(hdr.version, QUIC_VERSION_2);
	/* while 0b00 in version 1 is an Initial (here: too short) */
	ck_assert_int_eq(parse("c0000000010008f067a5502a4262b5", 0, 0),
	                 QUIC_ETRUNCATED);
	ck_assert_int_eq(hdr.type, QUIC_PT_INITIAL);

	/* Version Negotiation: version 0, any type bits, connection IDs
	 * longer than 20 bytes allowed */
	ck_assert_int_eq(parse("80000000000401020304" "00" "00000001" "6b3343cf",
	                       0, QUIC_DCID_LEN_UNKNOWN), QUIC_ENOPROTECTION);
	ck_assert_int_eq(hdr.type, QUIC_PT_VERSION_NEGOTIATION);
	ck_assert_uint_eq(hdr.version, 0);
	ck_assert_hex(hdr.dcid, hdr.dcid_len, "01020304");
	ck_assert_str_eq(msg, "Version Negotiation packets have no header "
	                      "protection");
	{
		char hex[2 * 64 + 1];
		size_t i;

		strcpy(hex, "ff0000000019");
		for (i = 0; i < 25; i++)
			strcat(hex, "ab");
		strcat(hex, "00");
		ck_assert_int_eq(parse(hex, 0, 0), QUIC_ENOPROTECTION);
		ck_assert_uint_eq(hdr.dcid_len, 25);
	}
}
END_TEST

START_TEST(test_unknown_version)
{
	ck_assert_int_eq(parse("c0ff000020088394c8f03e5157080000449e", 1200, 0),
	                 QUIC_EVERSION);
	ck_assert_uint_eq(hdr.version, 0xff000020u);
	ck_assert_msg_has("unknown QUIC version 0xff000020 (known: 0x00000001, "
	                  "0x6b3343cf, 0xff00001d and 0x709a50c4)");
	/* laid out as version 1's, its Length tells where it ends */
	ck_assert_int_eq(hdr.extent_guessed, 1);
	ck_assert_uint_eq(hdr.packet_len, 18 + 0x49e);
	ck_assert_int_eq(parse("e0ff00002008aabbccddeeff0011004005010203040505",
	                       0, 0), QUIC_EVERSION);
	ck_assert_int_eq(hdr.extent_guessed, 1);
	ck_assert_uint_eq(hdr.packet_len, 22);
	/* not even that: a Length past the end, a connection ID of 21 bytes,
	 * the version cut short */
	ck_assert_int_eq(parse("c0ff000020088394c8f03e5157080000449e", 100, 0),
	                 QUIC_EVERSION);
	ck_assert_int_eq(hdr.extent_guessed, 0);
	ck_assert_uint_eq(hdr.packet_len, 0);
	ck_assert_int_eq(parse("e0ff00002015aabbccddeeff00112233445566778899aa"
	                       "bbccddeeff001100401400", 40, 0), QUIC_EVERSION);
	ck_assert_int_eq(hdr.extent_guessed, 0);
	ck_assert_int_eq(parse("c0ff0000", 0, 0), QUIC_ETRUNCATED);
}
END_TEST

/* The drafts Debian's stacks speak: draft-29's Initial keys (its A.1), the
 * v2 draft's types and labels. */
START_TEST(test_drafts)
{
	struct quic_initial k;
	uint8_t dcid[8];

	unhex("8394c8f03e515708", dcid, sizeof dcid);
	ck_assert_int_eq(quic_initial_keys(QUIC_VERSION_DRAFT29, dcid, 8, &k),
	                 QUIC_OK);
	ck_assert_hex(k.client.secret, 32, "0088119288f1d866733ceeed15ff9d50"
	                                   "902cf82952eee27e9d4d4918ea371d87");
	ck_assert_hex(k.client.key, 16, "175257a31eb09dea9366d8bb79ad80ba");
	ck_assert_hex(k.client.iv, 12, "6b26114b9cba2b63a9e8dd4f");
	ck_assert_hex(k.client.hp, 16, "9ddd12c994c0698b89374a9c077a3077");
	ck_assert_hex(k.server.secret, 32, "006f881359244dd9ad1acf85f595bad6"
	                                   "7c13f9f5586f5e64e1acae1d9ea8f616");
	ck_assert_hex(k.server.key, 16, "149d0b1662ab871fbe63c49b5e655a5d");
	ck_assert_hex(k.server.iv, 12, "bab2b12a4c76016ace47856d");
	ck_assert_hex(k.server.hp, 16, "c0c499a65a60024a18a250974ea01dfa");
	quic_initial_wipe(&k);
	/* draft-29 reads the type bits as version 1, the v2 draft as 2 */
	ck_assert_int_eq(parse("e0ff00001d088394c8f03e5157080014000000000000"
	                       "0000000000000000000000000000", 0, 0), QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_HANDSHAKE);
	ck_assert_int_eq(parse("d0709a50c4088394c8f03e515708000014000000000000"
	                       "0000000000000000000000000000", 0, 0), QUIC_OK);
	ck_assert_int_eq(hdr.type, QUIC_PT_INITIAL);
	ck_assert_uint_eq(hdr.token_len, 0);
}
END_TEST

/* Every truncation point of the RFC 9001 A.3 header, and bad varints. */
START_TEST(test_truncated)
{
	static const struct {
		size_t len;
		int status;
		const char *field;
	} cut[] = {
		{ 0, QUIC_EEMPTY, "first byte" },
		{ 1, QUIC_ETRUNCATED, "version" },
		{ 4, QUIC_ETRUNCATED, "version" },
		{ 5, QUIC_ETRUNCATED, "DCID length" },
		{ 6, QUIC_ETRUNCATED, "SCID length" },
		{ 7, QUIC_ETRUNCATED, "SCID" },
		{ 14, QUIC_ETRUNCATED, "SCID" },
		{ 15, QUIC_ETRUNCATED, "token length" },
		{ 16, QUIC_ETRUNCATED, "Length" },
		{ 17, QUIC_EVARINT, "Length" },   /* 0x40: a 2-byte varint */
		{ 18, QUIC_ELENGTH, "Length" },
		{ 134, QUIC_ELENGTH, "Length" },
	};
	uint8_t full[135];
	size_t i, n = unhex(RFC9001_A3, full, sizeof full);

	ck_assert_uint_eq(n, 135);
	for (i = 0; i < sizeof cut / sizeof cut[0]; i++) {
		int st = quic_parse_header(full, cut[i].len, 0, &hdr);

		ck_assert_msg(st == cut[i].status, "length %zu: status %d, not %d",
		              cut[i].len, st, cut[i].status);
		ck_assert_str_eq(hdr.err_field, cut[i].field);
		quic_header_error(&hdr, st, msg, sizeof msg);
		ck_assert_str_ne(msg, "");
	}
	quic_parse_header(full, 7, 0, &hdr);
	quic_header_error(&hdr, QUIC_ETRUNCATED, msg, sizeof msg);
	ck_assert_str_eq(msg, "the packet ends inside its header: the SCID at "
	                      "offset 7 needs 15 bytes; the packet has 7");
	quic_parse_header(full, 17, 0, &hdr);
	quic_header_error(&hdr, QUIC_EVARINT, msg, sizeof msg);
	ck_assert_str_eq(msg, "bad variable-length integer: the Length at "
	                      "offset 16 is 2 bytes long and runs past the end "
	                      "of the packet (17 bytes)");
	/* what a parse leaves of an earlier one: nothing (every field
	 * zero before the parse, then what it read) */
	memset(&hdr, 0xa5, sizeof hdr);
	ck_assert_int_eq(quic_parse_header(NULL, 0, 0, &hdr), QUIC_EEMPTY);
	ck_assert_int_eq(hdr.long_header, 0);
	ck_assert_int_eq(hdr.type, QUIC_PT_NONE);
	ck_assert_uint_eq(hdr.version, 0);
	ck_assert_ptr_null(hdr.dcid);
	ck_assert_ptr_null(hdr.scid);
	ck_assert_ptr_null(hdr.token);
	ck_assert_uint_eq(hdr.dcid_len + hdr.scid_len + hdr.token_len, 0);
	ck_assert_uint_eq(hdr.length, 0);
	ck_assert_uint_eq(hdr.pn_offset + hdr.sample_offset + hdr.packet_len,
	                  0);
	ck_assert_int_eq(hdr.extent_guessed, 0);
	memset(&hdr, 0xa5, sizeof hdr);
	ck_assert_int_eq(quic_parse_header(full, 7, 0, &hdr), QUIC_ETRUNCATED);
	ck_assert_ptr_null(hdr.scid);
	ck_assert_ptr_null(hdr.token);
	ck_assert_uint_eq(hdr.packet_len + hdr.pn_offset + hdr.length, 0);
	ck_assert_int_eq(hdr.extent_guessed, 0);
	ck_assert_str_eq(quic_header_error(&hdr, QUIC_EEMPTY, msg, sizeof msg),
	                 "the packet is empty");
	ck_assert_int_eq(quic_parse_header(NULL, 5, 0, &hdr), QUIC_EINVAL);
	ck_assert_int_eq(quic_parse_header(full, 5, 0, NULL), QUIC_EINVAL);

	/* bad varints: the token length (8 bytes announced, 3 there) */
	ck_assert_int_eq(parse("c0000000010000c00000", 0, 0), QUIC_EVARINT);
	ck_assert_str_eq(hdr.err_field, "token length");
	ck_assert_msg_has("the token length at offset 7 is 8 bytes long");
	/* and a 4-byte Length with 2 bytes */
	ck_assert_int_eq(parse("e000000001000080aa", 0, 0), QUIC_EVARINT);
	ck_assert_str_eq(hdr.err_field, "Length");
}
END_TEST

START_TEST(test_sample_and_cid_limits)
{
	/* Handshake with Length 20: pn at 8, sample 12..27 needs 28 bytes;
	 * the packet (by its Length) has 28: fits exactly */
	ck_assert_int_eq(parse("e0000000010000" "14", 28, 0), QUIC_OK);
	ck_assert_uint_eq(hdr.pn_offset, 8);
	/* Length 19: one short, even with more bytes after (coalesced) */
	ck_assert_int_eq(parse("e0000000010000" "13", 60, 0), QUIC_ESAMPLE);
	ck_assert_uint_eq(hdr.packet_len, 27);
	ck_assert_msg_has("the sample is bytes 12 to 27, so 28 bytes are needed; "
	                  "by its Length field the packet has 27");
	/* Length 0 */
	ck_assert_int_eq(parse("e0000000010000" "00", 0, 0), QUIC_ESAMPLE);
	/* 20-byte connection IDs are fine, 21 are not (versions 1 and 2) */
	{
		char hex[256];
		size_t i;

		strcpy(hex, "e00000000114");
		for (i = 0; i < 20; i++)
			strcat(hex, "cd");
		strcat(hex, "15");
		ck_assert_int_eq(parse(hex, 0, 0), QUIC_ECIDLEN);
		ck_assert_str_eq(hdr.err_field, "SCID");
		ck_assert_uint_eq(hdr.dcid_len, 20);
		ck_assert_msg_has("the SCID is 21 bytes; QUIC versions 1 and 2 "
		                  "allow at most 20");
		ck_assert_int_eq(parse("e06b3343cf15", 64, 0), QUIC_ECIDLEN);
		ck_assert_str_eq(hdr.err_field, "DCID");
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("quic");
	TCase *tc;

	tc = tcase_create("keys");
	tcase_add_loop_test(tc, test_initial_rfc, 0,
	                    (int)(sizeof initial_vecs / sizeof initial_vecs[0]));
	tcase_add_test(tc, test_initial_other_dcids);
	tcase_add_test(tc, test_hp_keys);
	tcase_add_test(tc, test_traffic_keys_sha384);
	tcase_add_test(tc, test_kdf_errors);
	tcase_add_test(tc, test_expand_label_context);
	tcase_add_test(tc, test_versions);
	tcase_add_test(tc, test_strerror);
	suite_add_tcase(s, tc);

	tc = tcase_create("header");
	tcase_add_test(tc, test_rfc9001_client_initial);
	tcase_add_test(tc, test_rfc9001_server_initial);
	tcase_add_test(tc, test_rfc9369_initials);
	tcase_add_test(tc, test_initial_token);
	tcase_add_test(tc, test_handshake_0rtt);
	tcase_add_test(tc, test_short_header);
	tcase_add_test(tc, test_no_protection);
	tcase_add_test(tc, test_unknown_version);
	tcase_add_test(tc, test_drafts);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_sample_and_cid_limits);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)
