/* SPDX-License-Identifier: MIT */
/*
 * quicgen.c - build protected QUIC packets with OpenSSL's libcrypto, for
 * the tests of "aesecb hp-mask".
 *
 * The packets are made independently of aesecb's own code: key derivation
 * with OpenSSL's HKDF, payload protection with AES-GCM (RFC 9001 5.3),
 * header protection with AES-ECB (RFC 9001 5.4), and the header laid out
 * here from RFC 9000 17 and RFC 9369 3.2.
 *
 * Usage: quicgen NAME=VALUE ...
 *   v=1|2                 QUIC version (default 1)
 *   type=initial|0rtt|handshake|1rtt   (default initial)
 *   side=client|server    Initial keys of this side (default client)
 *   dcid=HEX scid=HEX     connection IDs (scid: long headers only)
 *   token=HEX             Initial token (default none)
 *   odcid=HEX             Initial keys from this DCID (default dcid)
 *   secret=HEX            traffic secret (all but Initial)
 *   hash=sha256|sha384    hash of the secret (default sha256)
 *   pn=N pnlen=1..4       packet number and its encoded length
 *   payload=N             plaintext bytes (default 40, at most 100000)
 *   plain=HEX             the plaintext (zero bytes, PADDING frames, follow
 *                         it up to payload=N; default: a fixed pattern)
 *   lenlen=1|2|4|8        bytes of the Length varint (default: shortest)
 *   ku=N                  1-RTT: the packet key of key generation N (the
 *                         secret updated N times with "quic ku" or
 *                         "quicv2 ku", RFC 9001 6.1), key phase bit N & 1;
 *                         the hp key stays the first secret's.  Without
 *                         ku= the key phase bit is set (generation 0)
 * Prints:
 *   secret: HEX           the traffic secret
 *   hp: HEX               the header-protection key
 *   header: HEX           the unprotected header, through the packet number
 *   clear: HEX            the packet with its header unprotected
 *   protected: HEX        the packet as sent
 *   pn_offset: N
 * Exit status 0, or 2 on a bad argument, 1 if libcrypto fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/kdf.h>

#define MAXPKT (1 << 17)

static const uint8_t salt_v1[20] = {
	0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
	0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a
};
static const uint8_t salt_v2[20] = {
	0x0d, 0xed, 0xe3, 0xde, 0xf7, 0x00, 0xa6, 0xdb, 0x81, 0x93,
	0x81, 0xbe, 0x6e, 0x26, 0x9d, 0xcb, 0xf9, 0xbd, 0x2e, 0xd9
};

static void die(const char *what)
{
	fprintf(stderr, "quicgen: %s\n", what);
	exit(2);
}

static void crypto_fail(const char *what)
{
	fprintf(stderr, "quicgen: libcrypto: %s failed\n", what);
	exit(1);
}

static size_t unhex(const char *s, uint8_t *out, size_t room)
{
	size_t n = strlen(s), i;

	if (n % 2 != 0 || n / 2 > room)
		die("bad hex argument");
	for (i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			die("bad hex argument");
		out[i] = (uint8_t)v;
	}
	return n / 2;
}

static void put_hex(const char *label, const uint8_t *p, size_t n)
{
	size_t i;

	printf("%s: ", label);
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	putchar('\n');
}

static const EVP_MD *md_of(const char *name)
{
	if (strcmp(name, "sha256") == 0)
		return EVP_sha256();
	if (strcmp(name, "sha384") == 0)
		return EVP_sha384();
	die("unknown hash");
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

/* A variable-length integer of exactly n bytes (RFC 9000 16). */
static size_t put_varint(uint8_t *p, uint64_t v, size_t n)
{
	size_t i;
	uint8_t prefix = n == 1 ? 0x00 : n == 2 ? 0x40 : n == 4 ? 0x80 : 0xc0;

	if (n != 1 && n != 2 && n != 4 && n != 8)
		die("bad varint size");
	if (n < 8 && v >= (UINT64_C(1) << (8 * n - 2)))
		die("value too large for its varint size");
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

int main(int argc, char **argv)
{
	const char *type = "initial", *side = "client", *hash = "sha256";
	const char *secret_hex = NULL, *plain_hex = NULL;
	uint8_t dcid[64], scid[64], token[512], odcid[64], secret[64];
	size_t dcid_len = 0, scid_len = 0, token_len = 0, odcid_len = 0;
	size_t secret_len = 0, payload = 40, lenlen = 0, pnlen = 1;
	long ku = -1;
	int version = 1, have_odcid = 0, is_long, i;
	uint64_t pn = 0;
	static uint8_t pkt[MAXPKT], clear[MAXPKT], plain[MAXPKT];
	uint8_t key[32], iv[12], hp[32], nonce[12], sample_out[16];
	size_t key_len, n = 0, pn_off, total;
	const EVP_MD *md;
	const char *pre;
	unsigned type_bits = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = strchr(a, '=');
		size_t kl;

		if (v == NULL)
			die("arguments are NAME=VALUE");
		kl = (size_t)(v - a);
		v++;
#define IS(name) (kl == strlen(name) && strncmp(a, name, kl) == 0)
		if (IS("v"))
			version = atoi(v);
		else if (IS("type"))
			type = v;
		else if (IS("side"))
			side = v;
		else if (IS("dcid"))
			dcid_len = unhex(v, dcid, 20);
		else if (IS("scid"))
			scid_len = unhex(v, scid, 20);
		else if (IS("token"))
			token_len = unhex(v, token, sizeof token);
		else if (IS("odcid")) {
			odcid_len = unhex(v, odcid, 20);
			have_odcid = 1;
		} else if (IS("secret"))
			secret_hex = v;
		else if (IS("hash"))
			hash = v;
		else if (IS("pn"))
			pn = strtoull(v, NULL, 10);
		else if (IS("pnlen"))
			pnlen = (size_t)atoi(v);
		else if (IS("payload"))
			payload = (size_t)atoi(v);
		else if (IS("plain"))
			plain_hex = v;
		else if (IS("lenlen"))
			lenlen = (size_t)atoi(v);
		else if (IS("ku"))
			ku = atol(v);
		else
			die("unknown argument");
#undef IS
	}
	if (version != 1 && version != 2)
		die("v is 1 or 2");
	if (pnlen < 1 || pnlen > 4)
		die("pnlen is 1 to 4");
	if (payload > 100000)
		die("payload too long");
	pre = version == 1 ? "quic " : "quicv2 ";
	is_long = strcmp(type, "1rtt") != 0;

	/* the traffic secret */
	if (strcmp(type, "initial") == 0) {
		uint8_t initial[32];

		md = EVP_sha256();
		if (!have_odcid) {
			memcpy(odcid, dcid, dcid_len);
			odcid_len = dcid_len;
		}
		hkdf(EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY, md,
		     version == 1 ? salt_v1 : salt_v2, 20, odcid, odcid_len,
		     NULL, 0, initial, sizeof initial);
		expand_label(md, initial, 32, strcmp(side, "server") == 0 ?
		             "server in" : "client in", secret, 32);
		secret_len = 32;
	} else {
		md = md_of(hash);
		if (secret_hex == NULL)
			die("secret=HEX is needed");
		secret_len = unhex(secret_hex, secret, sizeof secret);
		if (secret_len != (size_t)EVP_MD_size(md))
			die("secret length does not match the hash");
	}
	key_len = EVP_MD_size(md) == 32 ? 16 : 32;
	{
		char label[32];

		snprintf(label, sizeof label, "%skey", pre);
		expand_label(md, secret, secret_len, label, key, key_len);
		snprintf(label, sizeof label, "%siv", pre);
		expand_label(md, secret, secret_len, label, iv, 12);
		snprintf(label, sizeof label, "%shp", pre);
		expand_label(md, secret, secret_len, label, hp, key_len);
		if (ku > 0) {
			/* the packet key and IV of generation ku */
			uint8_t next[64];
			long g;

			if (is_long)
				die("ku= is for 1-RTT packets");
			memcpy(next, secret, secret_len);
			snprintf(label, sizeof label, "%sku", pre);
			for (g = 0; g < ku; g++) {
				uint8_t tmp[64];

				expand_label(md, next, secret_len, label, tmp,
				             secret_len);
				memcpy(next, tmp, secret_len);
			}
			snprintf(label, sizeof label, "%skey", pre);
			expand_label(md, next, secret_len, label, key, key_len);
			snprintf(label, sizeof label, "%siv", pre);
			expand_label(md, next, secret_len, label, iv, 12);
		}
	}

	/* the header */
	if (strcmp(type, "initial") == 0)
		type_bits = version == 1 ? 0 : 1;
	else if (strcmp(type, "0rtt") == 0)
		type_bits = version == 1 ? 1 : 2;
	else if (strcmp(type, "handshake") == 0)
		type_bits = version == 1 ? 2 : 3;
	else if (is_long)
		die("unknown type");
	if (is_long) {
		uint32_t vn = version == 1 ? 0x00000001u : 0x6b3343cfu;
		uint64_t length = pnlen + payload + 16;

		pkt[n++] = (uint8_t)(0xc0u | (type_bits << 4) | (pnlen - 1));
		pkt[n++] = (uint8_t)(vn >> 24);
		pkt[n++] = (uint8_t)(vn >> 16);
		pkt[n++] = (uint8_t)(vn >> 8);
		pkt[n++] = (uint8_t)vn;
		pkt[n++] = (uint8_t)dcid_len;
		memcpy(pkt + n, dcid, dcid_len);
		n += dcid_len;
		pkt[n++] = (uint8_t)scid_len;
		memcpy(pkt + n, scid, scid_len);
		n += scid_len;
		if (strcmp(type, "initial") == 0) {
			n += put_varint(pkt + n, token_len, varint_size(token_len));
			memcpy(pkt + n, token, token_len);
			n += token_len;
		}
		n += put_varint(pkt + n, length,
		                lenlen != 0 ? lenlen : varint_size(length));
	} else {
		/* spin bit and key phase set, to see they survive; with ku=
		 * the key phase of the generation */
		uint8_t phase = ku < 0 ? 0x04u : (uint8_t)((ku & 1) << 2);

		pkt[n++] = (uint8_t)(0x40u | 0x20u | phase | (pnlen - 1));
		memcpy(pkt + n, dcid, dcid_len);
		n += dcid_len;
	}
	pn_off = n;
	for (i = (int)pnlen - 1; i >= 0; i--)
		pkt[n++] = (uint8_t)(pn >> (8 * (size_t)i));

	/* the payload: AES-GCM with nonce = iv ^ pn, aad = the header */
	if (plain_hex != NULL) {
		size_t pl = unhex(plain_hex, plain, MAXPKT);

		memset(plain + pl, 0, MAXPKT - pl);
		if (pl > payload)
			die("plain is longer than payload");
	} else {
		for (i = 0; i < (int)payload; i++)
			plain[i] = (uint8_t)(i * 7 + 3);
	}
	memcpy(nonce, iv, 12);
	for (i = 0; i < 8; i++)
		nonce[11 - i] ^= (uint8_t)(pn >> (8 * i));
	aes_gcm(key, key_len, nonce, pkt, n, plain, payload, pkt + n,
	        pkt + n + payload);
	total = n + payload + 16;
	if (pn_off + 4 + 16 > total)
		die("packet too short for the sample: make payload longer");
	memcpy(clear, pkt, total);

	/* header protection */
	aes_ecb_block(hp, key_len, pkt + pn_off + 4, sample_out);
	pkt[0] ^= sample_out[0] & (is_long ? 0x0f : 0x1f);
	for (i = 0; i < (int)pnlen; i++)
		pkt[pn_off + (size_t)i] ^= sample_out[1 + i];

	put_hex("secret", secret, secret_len);
	put_hex("hp", hp, key_len);
	put_hex("header", clear, pn_off + pnlen);
	put_hex("clear", clear, total);
	put_hex("protected", pkt, total);
	printf("pn_offset: %zu\n", pn_off);
	return fflush(stdout) == 0 ? 0 : 1;
}
