/* SPDX-License-Identifier: MIT */
/*
 * quicseal.c - protected QUIC packets built with OpenSSL.  See quicseal.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/kdf.h>

#include "quicseal.h"

static const struct qs_version versions[] = {
	{ "1", 0x00000001u,
	  { 0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
	    0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a },
	  "quic ", "quic ku", 0 },
	{ "2", 0x6b3343cfu,
	  { 0x0d, 0xed, 0xe3, 0xde, 0xf7, 0x00, 0xa6, 0xdb, 0x81, 0x93,
	    0x81, 0xbe, 0x6e, 0x26, 0x9d, 0xcb, 0xf9, 0xbd, 0x2e, 0xd9 },
	  "quicv2 ", "quicv2 ku", 1 },
	{ "draft29", 0xff00001du,
	  { 0xaf, 0xbf, 0xec, 0x28, 0x99, 0x93, 0xd2, 0x4c, 0x9e, 0x97,
	    0x86, 0xf1, 0x9c, 0x61, 0x11, 0xe0, 0x43, 0x90, 0xa8, 0x99 },
	  "quic ", "quic ku", 0 },
	{ "v2draft", 0x709a50c4u,
	  { 0xa7, 0x07, 0xc2, 0x03, 0xa5, 0x9b, 0x47, 0x18, 0x4a, 0x1d,
	    0x62, 0xca, 0x57, 0x04, 0x06, 0xea, 0x7a, 0xe3, 0xe5, 0xd3 },
	  "quicv2 ", "quicv2 ku", 1 },
	{ "v2draft-quicku", 0x709a50c4u,
	  { 0xa7, 0x07, 0xc2, 0x03, 0xa5, 0x9b, 0x47, 0x18, 0x4a, 0x1d,
	    0x62, 0xca, 0x57, 0x04, 0x06, 0xea, 0x7a, 0xe3, 0xe5, 0xd3 },
	  "quicv2 ", "quic ku", 1 },
};

void qs_die(const char *what)
{
	fprintf(stderr, "quicseal: %s\n", what);
	exit(2);
}

static void crypto_fail(const char *what)
{
	fprintf(stderr, "quicseal: libcrypto: %s failed\n", what);
	exit(1);
}

size_t qs_unhex(const char *s, uint8_t *out, size_t room)
{
	size_t n = strlen(s), i;

	if (n % 2 != 0 || n / 2 > room)
		qs_die("bad hex argument");
	for (i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			qs_die("bad hex argument");
		out[i] = (uint8_t)v;
	}
	return n / 2;
}

void qs_hex(FILE *f, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

const struct qs_version *qs_version(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof versions / sizeof versions[0]; i++)
		if (strcmp(versions[i].name, name) == 0)
			return &versions[i];
	qs_die("unknown version (1, 2, draft29, v2draft, v2draft-quicku)");
	return NULL;
}

static const EVP_MD *md_of(const char *name)
{
	if (strcmp(name, "sha256") == 0)
		return EVP_sha256();
	if (strcmp(name, "sha384") == 0)
		return EVP_sha384();
	qs_die("unknown hash");
	return NULL;
}

static void hkdf(int mode, const EVP_MD *md, const uint8_t *salt,
                 size_t salt_len, const uint8_t *key, size_t key_len,
                 const uint8_t *info, size_t info_len, uint8_t *out,
                 size_t out_len)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);

	if (c == NULL || EVP_PKEY_derive_init(c) <= 0 ||
	    EVP_PKEY_CTX_hkdf_mode(c, mode) <= 0 ||
	    EVP_PKEY_CTX_set_hkdf_md(c, md) <= 0 ||
	    EVP_PKEY_CTX_set1_hkdf_key(c, key, (int)key_len) <= 0)
		crypto_fail("HKDF setup");
	if (salt != NULL &&
	    EVP_PKEY_CTX_set1_hkdf_salt(c, salt, (int)salt_len) <= 0)
		crypto_fail("HKDF salt");
	if (info != NULL &&
	    EVP_PKEY_CTX_add1_hkdf_info(c, info, (int)info_len) <= 0)
		crypto_fail("HKDF info");
	if (EVP_PKEY_derive(c, out, &out_len) <= 0)
		crypto_fail("HKDF");
	EVP_PKEY_CTX_free(c);
}

/* HKDF-Expand-Label (RFC 8446 7.1) with an empty context. */
static void expand_label(const EVP_MD *md, const uint8_t *secret,
                         size_t secret_len, const char *label, uint8_t *out,
                         size_t out_len)
{
	uint8_t info[300];
	size_t n = 0, l = strlen(label);

	info[n++] = (uint8_t)(out_len >> 8);
	info[n++] = (uint8_t)out_len;
	info[n++] = (uint8_t)(6 + l);
	memcpy(info + n, "tls13 ", 6);
	n += 6;
	memcpy(info + n, label, l);
	n += l;
	info[n++] = 0;
	hkdf(EVP_PKEY_HKDEF_MODE_EXPAND_ONLY, md, NULL, 0, secret, secret_len,
	     info, n, out, out_len);
}

static void labelled(const struct qs_version *v, const char *what,
                     char *label, size_t size)
{
	snprintf(label, size, "%s%s", v->prefix, what);
}

/* key and IV (and with hp, the hp key) of k->secret. */
static void derive(const struct qs_version *v, const EVP_MD *md,
                   struct qs_keys *k, int hp)
{
	char label[32];

	k->key_len = EVP_MD_size(md) == 32 ? 16 : 32;
	labelled(v, "key", label, sizeof label);
	expand_label(md, k->secret, k->secret_len, label, k->key, k->key_len);
	labelled(v, "iv", label, sizeof label);
	expand_label(md, k->secret, k->secret_len, label, k->iv, 12);
	if (hp) {
		labelled(v, "hp", label, sizeof label);
		expand_label(md, k->secret, k->secret_len, label, k->hp,
		             k->key_len);
	}
}

void qs_traffic_keys(const struct qs_version *v, const char *hash,
                     const uint8_t *secret, size_t len, struct qs_keys *k)
{
	const EVP_MD *md = md_of(hash);

	if (len != (size_t)EVP_MD_size(md) || len > sizeof k->secret)
		qs_die("secret length does not match the hash");
	memcpy(k->secret, secret, len);
	k->secret_len = len;
	derive(v, md, k, 1);
}

void qs_initial_keys(const struct qs_version *v, const uint8_t *dcid,
                     size_t len, int server, struct qs_keys *k)
{
	const EVP_MD *md = EVP_sha256();
	uint8_t initial[32];

	hkdf(EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY, md, v->salt, 20, dcid, len,
	     NULL, 0, initial, sizeof initial);
	expand_label(md, initial, 32, server ? "server in" : "client in",
	             k->secret, 32);
	k->secret_len = 32;
	derive(v, md, k, 1);
}

void qs_generation(const struct qs_version *v, const char *hash,
                   struct qs_keys *k, unsigned gen)
{
	const EVP_MD *md = md_of(hash);
	uint8_t next[64];
	unsigned g;

	for (g = 0; g < gen; g++) {
		expand_label(md, k->secret, k->secret_len, v->ku_label, next,
		             k->secret_len);
		memcpy(k->secret, next, k->secret_len);
	}
	derive(v, md, k, 0);
}

/* A variable-length integer of exactly n bytes (RFC 9000 16). */
static size_t put_varint(uint8_t *p, uint64_t v, size_t n)
{
	size_t i;
	uint8_t prefix = n == 1 ? 0x00 : n == 2 ? 0x40 : n == 4 ? 0x80 : 0xc0;

	if (n != 1 && n != 2 && n != 4 && n != 8)
		qs_die("bad varint size");
	if (n < 8 && v >= (UINT64_C(1) << (8 * n - 2)))
		qs_die("value too large for its varint size");
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	p[0] |= prefix;
	return n;
}

static size_t varint_size(uint64_t v)
{
	return v < 64 ? 1 : v < 16384 ? 2 : v < (UINT64_C(1) << 30) ? 4 : 8;
}

static void aes_ecb_block(const uint8_t *key, size_t key_len,
                          const uint8_t in[16], uint8_t out[16])
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0;

	if (c == NULL ||
	    EVP_EncryptInit_ex(c, key_len == 16 ? EVP_aes_128_ecb() :
	                       EVP_aes_256_ecb(), NULL, key, NULL) <= 0 ||
	    EVP_CIPHER_CTX_set_padding(c, 0) <= 0 ||
	    EVP_EncryptUpdate(c, out, &n, in, 16) <= 0 || n != 16)
		crypto_fail("AES-ECB");
	EVP_CIPHER_CTX_free(c);
}

static void aes_gcm(const uint8_t *key, size_t key_len, const uint8_t *nonce,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in,
                    size_t len, uint8_t *out, uint8_t tag[16])
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0;

	if (c == NULL ||
	    EVP_EncryptInit_ex(c, key_len == 16 ? EVP_aes_128_gcm() :
	                       EVP_aes_256_gcm(), NULL, key, nonce) <= 0 ||
	    EVP_EncryptUpdate(c, NULL, &n, aad, (int)aad_len) <= 0 ||
	    EVP_EncryptUpdate(c, out, &n, in, (int)len) <= 0 ||
	    EVP_EncryptFinal_ex(c, out + n, &n) <= 0 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag) <= 0)
		crypto_fail("AES-GCM");
	EVP_CIPHER_CTX_free(c);
}

/* The long header type bits of a type under a version. */
static unsigned type_bits(const struct qs_version *v, enum qs_type t)
{
	unsigned b = t == QS_INITIAL ? 0 : t == QS_0RTT ? 1 : 2;

	return v->v2_types ? (b + 1) & 3u : b;
}

size_t qs_seal(const struct qs_packet *p, const struct qs_keys *k,
               uint8_t *out, uint8_t *clear, size_t *pn_offset)
{
	uint8_t nonce[12], mask[16];
	size_t n = 0, i, total;
	int is_long = p->type != QS_1RTT;

	if (p->pnlen < 1 || p->pnlen > 4)
		qs_die("pnlen is 1 to 4");
	if (p->dcid_len > 20 || p->scid_len > 20 || p->plain_len > 100000)
		qs_die("a field is too long");
	if (is_long) {
		uint64_t length = p->pnlen + p->plain_len + 16;

		out[n++] = (uint8_t)(0xc0u | (type_bits(p->v, p->type) << 4) |
		                     (p->pnlen - 1));
		for (i = 0; i < 4; i++)
			out[n++] = (uint8_t)(p->v->number >> (24 - 8 * i));
		out[n++] = (uint8_t)p->dcid_len;
		memcpy(out + n, p->dcid, p->dcid_len);
		n += p->dcid_len;
		out[n++] = (uint8_t)p->scid_len;
		memcpy(out + n, p->scid, p->scid_len);
		n += p->scid_len;
		if (p->type == QS_INITIAL) {
			n += put_varint(out + n, p->token_len,
			                varint_size(p->token_len));
			if (p->token_len != 0)  /* token may be NULL */
				memcpy(out + n, p->token, p->token_len);
			n += p->token_len;
		}
		n += put_varint(out + n, length, p->lenlen != 0 ? p->lenlen :
		                varint_size(length));
	} else {
		out[n++] = (uint8_t)(0x40u | (p->spin ? 0x20u : 0) |
		                     (p->phase ? 0x04u : 0) | (p->pnlen - 1));
		memcpy(out + n, p->dcid, p->dcid_len);
		n += p->dcid_len;
	}
	*pn_offset = n;
	for (i = p->pnlen; i-- > 0;)
		out[n++] = (uint8_t)(p->pn >> (8 * i));
	/* the payload: AES-GCM with nonce = iv ^ pn, aad = the header */
	memcpy(nonce, k->iv, 12);
	for (i = 0; i < 8; i++)
		nonce[11 - i] ^= (uint8_t)(p->pn >> (8 * i));
	aes_gcm(k->key, k->key_len, nonce, out, n, p->plain, p->plain_len,
	        out + n, out + n + p->plain_len);
	total = n + p->plain_len + 16;
	if (*pn_offset + 4 + 16 > total)
		qs_die("packet too short for the sample: make payload longer");
	if (clear != NULL)
		memcpy(clear, out, total);
	/* header protection */
	aes_ecb_block(k->hp, k->key_len, out + *pn_offset + 4, mask);
	out[0] ^= mask[0] & (is_long ? 0x0f : 0x1f);
	for (i = 0; i < p->pnlen; i++)
		out[*pn_offset + i] ^= mask[1 + i];
	return total;
}
