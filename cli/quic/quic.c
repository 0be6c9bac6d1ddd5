/* SPDX-License-Identifier: MIT */
/*
 * quic.c - QUIC key derivation (with nettle's HMAC and HKDF) and header
 * parsing.  See quic.h.
 *
 * Secrets are handled without branches or table indexes on their bytes
 * (nettle's SHA-2 and HMAC are constant time); the parser branches on the
 * header bytes, which travel in the clear.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <string.h>

#include <nettle/hkdf.h>
#include <nettle/hmac.h>
#include <nettle/nettle-meta.h>

#include "aesecb.h"
#include "quic/quic.h"

/* ------------------------------------------------------------------ */
/* Versions. */

struct version_info {
	uint32_t number;
	const char *name;            /* as --quic-version takes it */
	uint8_t salt[20];            /* initial_salt */
	const char *key_label, *iv_label, *hp_label;
	/* the key update label, and for the v2 draft a second one: quic-go
	 * 0.29 updates its keys with "quic ku", ngtcp2 0.12 with "quicv2 ku" */
	const char *ku_label[2];
	/* packet type of each value of the long-header type bits (0x30) */
	enum quic_packet_type types[4];
};

#define V1_TYPES { QUIC_PT_INITIAL, QUIC_PT_0RTT, QUIC_PT_HANDSHAKE, \
                   QUIC_PT_RETRY }
#define V2_TYPES { QUIC_PT_RETRY, QUIC_PT_INITIAL, QUIC_PT_0RTT, \
                   QUIC_PT_HANDSHAKE }

static const struct version_info versions[] = {
	{ QUIC_VERSION_1, "1",
	  { 0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
	    0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a },
	  "quic key", "quic iv", "quic hp", { "quic ku", NULL }, V1_TYPES },
	{ QUIC_VERSION_2, "2",
	  { 0x0d, 0xed, 0xe3, 0xde, 0xf7, 0x00, 0xa6, 0xdb, 0x81, 0x93,
	    0x81, 0xbe, 0x6e, 0x26, 0x9d, 0xcb, 0xf9, 0xbd, 0x2e, 0xd9 },
	  "quicv2 key", "quicv2 iv", "quicv2 hp", { "quicv2 ku", NULL },
	  V2_TYPES },
	/* draft-ietf-quic-tls-29 (section 5.2's salt; version 1's labels) */
	{ QUIC_VERSION_DRAFT29, "draft-29",
	  { 0xaf, 0xbf, 0xec, 0x28, 0x99, 0x93, 0xd2, 0x4c, 0x9e, 0x97,
	    0x86, 0xf1, 0x9c, 0x61, 0x11, 0xe0, 0x43, 0x90, 0xa8, 0x99 },
	  "quic key", "quic iv", "quic hp", { "quic ku", NULL }, V1_TYPES },
	/* the provisional number of draft-ietf-quic-v2-01 and later: their
	 * salt, version 2's labels and packet types */
	{ QUIC_VERSION_V2_DRAFT, "draft-v2",
	  { 0xa7, 0x07, 0xc2, 0x03, 0xa5, 0x9b, 0x47, 0x18, 0x4a, 0x1d,
	    0x62, 0xca, 0x57, 0x04, 0x06, 0xea, 0x7a, 0xe3, 0xe5, 0xd3 },
	  "quicv2 key", "quicv2 iv", "quicv2 hp", { "quicv2 ku", "quic ku" },
	  V2_TYPES },
};

#define NVERSIONS (sizeof versions / sizeof versions[0])

/* A salt is an HMAC-SHA256 key: no longer than SHA-256's output (see
 * quic_initial_keys). */
_Static_assert(sizeof versions[0].salt <= SHA256_DIGEST_SIZE,
               "initial_salt longer than an HMAC-SHA256 key");

/*@ assigns \nothing;
    ensures \result == \null || \valid_read(\result);
*/
static const struct version_info *find_version(uint32_t number)
{
	size_t i;

	/*@ loop invariant 0 <= i <= QUIC_NVERSIONS;
	    loop assigns i;
	    loop variant QUIC_NVERSIONS - i; */
	for (i = 0; i < NVERSIONS; i++)
		if (versions[i].number == number)
			return &versions[i];
	return NULL;
}

_Static_assert(NVERSIONS == QUIC_NVERSIONS, "QUIC_NVERSIONS is the table's");

int quic_version_index(uint32_t version)
{
	const struct version_info *v = find_version(version);

	return v != NULL ? (int)(v - versions) : -1;
}

int quic_version_known(uint32_t version)
{
	return find_version(version) != NULL;
}

const char *quic_version_name(uint32_t version)
{
	const struct version_info *v = find_version(version);

	return v != NULL ? v->name : NULL;
}

const char *quic_ku_label(uint32_t version, unsigned variant)
{
	const struct version_info *v = find_version(version);

	return v != NULL && variant < 2 ? v->ku_label[variant] : NULL;
}

int quic_version_parse(const char *s, uint32_t *version)
{
	uint32_t n = 0;
	size_t i, digits = 0;

	if (s == NULL || version == NULL)
		return QUIC_EINVAL;
	for (i = 0; i < NVERSIONS; i++)
		if (strcmp(s, versions[i].name) == 0) {
			*version = versions[i].number;
			return QUIC_OK;
		}
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return QUIC_EINVAL;
	for (i = 2; s[i] != '\0'; i++) {
		int c = (unsigned char)s[i], v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v = c - 'A' + 10;
		else
			return QUIC_EINVAL;
		if (n > 0x0fffffffu)
			return QUIC_EINVAL;  /* more than 32 bits */
		n = (n << 4) | (uint32_t)v;
		digits++;
	}
	if (digits == 0)
		return QUIC_EINVAL;
	*version = n;
	return find_version(n) != NULL ? QUIC_OK : QUIC_EVERSION;
}

const char *quic_strerror(int status)
{
	switch (status) {
	case QUIC_OK:
		return "success";
	case QUIC_EINVAL:
		return "invalid argument";
	case QUIC_EVERSION:
		return "unknown QUIC version (known: " QUIC_VERSIONS_KNOWN ")";
	case QUIC_ESECRETLEN:
		return "the secret's length is not the hash's output length";
	case QUIC_ELABEL:
		return "label, context or output length out of range for "
		       "HKDF-Expand-Label";
	case QUIC_ECIDLEN:
		return "connection ID longer than 20 bytes";
	case QUIC_EEMPTY:
		return "the packet is empty";
	case QUIC_ETRUNCATED:
		return "the packet ends inside its header";
	case QUIC_EVARINT:
		return "a variable-length integer runs past the end of the packet";
	case QUIC_ELENGTH:
		return "the Length field runs past the end of the packet";
	case QUIC_ESAMPLE:
		return "the packet is too short for its header-protection sample";
	case QUIC_ENOPROTECTION:
		return "Retry and Version Negotiation packets have no header "
		       "protection";
	case QUIC_ENODCIDLEN:
		return "short header: the DCID length is not in the packet and "
		       "was not given";
	default:
		return "unknown status";
	}
}

/* ------------------------------------------------------------------ */
/* HMAC: nettle's HMAC-SHA256 and HMAC-SHA384 (struct nettle_mac). */

union hmac_ctx {
	struct hmac_sha256_ctx sha256;
	struct hmac_sha512_ctx sha384;   /* nettle's hmac_sha384_ctx */
};

struct hash_ops {
	const struct nettle_mac *mac;   /* keyed with digest_size bytes */
	size_t key_len;                 /* AES key of the suite */
};

static const struct hash_ops hashes[] = {
	{ &nettle_hmac_sha256, 16 },
	{ &nettle_hmac_sha384, 32 },
};

static const struct hash_ops *hash_ops(enum quic_hash hash)
{
	if (hash == QUIC_SHA256)
		return &hashes[0];
	if (hash == QUIC_SHA384)
		return &hashes[1];
	return NULL;
}

/* The hash's output length, which is also the length of its secrets. */
static size_t digest_len(const struct hash_ops *h)
{
	return h->mac->digest_size;
}

size_t quic_hash_len(enum quic_hash hash)
{
	const struct hash_ops *h = hash_ops(hash);

	return h != NULL ? digest_len(h) : 0;
}

size_t quic_key_len(enum quic_hash hash)
{
	const struct hash_ops *h = hash_ops(hash);

	return h != NULL ? h->key_len : 0;
}

int quic_hash_parse(const char *s, enum quic_hash *hash)
{
	size_t i = 3;

	if (s == NULL || hash == NULL)
		return QUIC_EINVAL;
	if ((s[0] != 's' && s[0] != 'S') || (s[1] != 'h' && s[1] != 'H') ||
	    (s[2] != 'a' && s[2] != 'A'))
		return QUIC_EINVAL;
	if (s[i] == '-')
		i++;
	if (strcmp(s + i, "256") == 0) {
		*hash = QUIC_SHA256;
		return QUIC_OK;
	}
	if (strcmp(s + i, "384") == 0) {
		*hash = QUIC_SHA384;
		return QUIC_OK;
	}
	return QUIC_EINVAL;
}

const char *quic_hash_name(enum quic_hash hash)
{
	if (hash == QUIC_SHA256)
		return "sha256";
	if (hash == QUIC_SHA384)
		return "sha384";
	return NULL;
}

/* ------------------------------------------------------------------ */
/* HKDF-Expand-Label. */

#define LABEL_PREFIX "tls13 "
#define LABEL_PREFIX_LEN (sizeof LABEL_PREFIX - 1)
#define LABEL_MAX (255 - LABEL_PREFIX_LEN)
#define CONTEXT_MAX 255

/* The same without argument checks beyond the label's. */
static int expand_label(const struct hash_ops *h, const uint8_t *secret,
                        const char *label, const uint8_t *context,
                        size_t context_len, uint8_t *out, size_t out_len)
{
	uint8_t info[2 + 1 + 255 + 1 + CONTEXT_MAX];
	union hmac_ctx ctx;
	size_t label_len = strlen(label), n = 0;

	if (label_len == 0 || label_len > LABEL_MAX ||
	    context_len > CONTEXT_MAX ||
	    out_len == 0 || out_len > 255 * h->mac->digest_size)
		return QUIC_ELABEL;
	info[n++] = (uint8_t)(out_len >> 8);
	info[n++] = (uint8_t)out_len;
	info[n++] = (uint8_t)(LABEL_PREFIX_LEN + label_len);
	memcpy(info + n, LABEL_PREFIX, LABEL_PREFIX_LEN);
	n += LABEL_PREFIX_LEN;
	memcpy(info + n, label, label_len);
	n += label_len;
	info[n++] = (uint8_t)context_len;
	if (context_len != 0) {
		memcpy(info + n, context, context_len);
		n += context_len;
	}

	h->mac->set_key(&ctx, secret);
	hkdf_expand(&ctx, h->mac->update, h->mac->digest, h->mac->digest_size,
	            n, info, out_len, out);
	aesecb_wipe(&ctx, sizeof ctx);
	aesecb_wipe(info, n);   /* the context may be a transcript hash */
	return QUIC_OK;
}

int quic_hkdf_expand_label(enum quic_hash hash,
                           const uint8_t *secret, size_t secret_len,
                           const char *label,
                           const uint8_t *context, size_t context_len,
                           uint8_t *out, size_t out_len)
{
	const struct hash_ops *h = hash_ops(hash);

	if (h == NULL || secret == NULL || label == NULL || out == NULL ||
	    (context == NULL && context_len != 0))
		return QUIC_EINVAL;
	if (secret_len != digest_len(h))
		return QUIC_ESECRETLEN;
	return expand_label(h, secret, label, context, context_len, out,
	                    out_len);
}

/* ------------------------------------------------------------------ */
/* Keys. */

void quic_keys_wipe(struct quic_keys *k)
{
	if (k != NULL)
		aesecb_wipe(k, sizeof *k);
}

void quic_initial_wipe(struct quic_initial *k)
{
	if (k != NULL)
		aesecb_wipe(k, sizeof *k);
}

/* key, iv and hp of out->secret (already set, out->secret_len the hash's
 * output length). */
static int derive_keys(const struct hash_ops *h, const struct version_info *v,
                       struct quic_keys *out)
{
	int st;

	out->key_len = h->key_len;
	st = expand_label(h, out->secret, v->key_label, NULL, 0, out->key,
	                  h->key_len);
	if (st == QUIC_OK)
		st = expand_label(h, out->secret, v->iv_label, NULL, 0, out->iv,
		                  QUIC_IV_LEN);
	if (st == QUIC_OK)
		st = expand_label(h, out->secret, v->hp_label, NULL, 0, out->hp,
		                  h->key_len);
	return st;
}

/* The arguments of a derivation from a traffic secret. */
static int check_secret(const struct hash_ops *h, const struct version_info *v,
                        const uint8_t *secret, size_t secret_len)
{
	if (h == NULL || secret == NULL)
		return QUIC_EINVAL;
	if (v == NULL)
		return QUIC_EVERSION;
	if (secret_len != digest_len(h))
		return QUIC_ESECRETLEN;
	return QUIC_OK;
}

int quic_traffic_keys(enum quic_hash hash, uint32_t version,
                      const uint8_t *secret, size_t secret_len,
                      struct quic_keys *out)
{
	const struct hash_ops *h = hash_ops(hash);
	const struct version_info *v = find_version(version);
	int st;

	if (out == NULL)
		return QUIC_EINVAL;
	aesecb_wipe(out, sizeof *out);
	st = check_secret(h, v, secret, secret_len);
	if (st != QUIC_OK)
		return st;
	memcpy(out->secret, secret, secret_len);
	out->secret_len = secret_len;
	st = derive_keys(h, v, out);
	if (st != QUIC_OK)
		aesecb_wipe(out, sizeof *out);
	return st;
}

int quic_hp_key(enum quic_hash hash, uint32_t version,
                const uint8_t *secret, size_t secret_len,
                uint8_t hp[QUIC_MAX_KEY_LEN], size_t *hp_len)
{
	const struct hash_ops *h = hash_ops(hash);
	const struct version_info *v = find_version(version);
	int st;

	if (hp == NULL || hp_len == NULL)
		return QUIC_EINVAL;
	*hp_len = 0;
	st = check_secret(h, v, secret, secret_len);
	if (st != QUIC_OK)
		return st;
	st = expand_label(h, secret, v->hp_label, NULL, 0, hp, h->key_len);
	if (st == QUIC_OK)
		*hp_len = h->key_len;
	return st;
}

int quic_initial_keys(uint32_t version, const uint8_t *dcid, size_t dcid_len,
                      struct quic_initial *out)
{
	const struct hash_ops *h = &hashes[0];   /* Initial: SHA-256 */
	const struct version_info *v = find_version(version);
	uint8_t initial_secret[QUIC_INITIAL_SECRET_LEN];
	uint8_t salt[SHA256_DIGEST_SIZE];
	union hmac_ctx ctx;
	int st;

	if (out == NULL)
		return QUIC_EINVAL;
	aesecb_wipe(out, sizeof *out);
	if (dcid == NULL && dcid_len != 0)
		return QUIC_EINVAL;
	if (v == NULL)
		return QUIC_EVERSION;
	if (dcid_len > QUIC_MAX_CID_LEN)
		return QUIC_ECIDLEN;

	/* initial_secret = HKDF-Extract(initial_salt, dcid).  The salt is
	 * the HMAC key; nettle's HMAC takes keys of the digest's length, and
	 * HMAC pads a shorter key with zeros to the block size (RFC 2104),
	 * so the 20-byte salt padded with zeros is the same key. */
	memset(salt, 0, sizeof salt);
	memcpy(salt, v->salt, sizeof v->salt);
	h->mac->set_key(&ctx, salt);
	hkdf_extract(&ctx, h->mac->update, h->mac->digest, h->mac->digest_size,
	             dcid_len, dcid_len != 0 ? dcid : (const uint8_t *)"",
	             initial_secret);
	aesecb_wipe(&ctx, sizeof ctx);

	out->version = version;
	out->client.secret_len = digest_len(h);
	out->server.secret_len = digest_len(h);
	st = expand_label(h, initial_secret, "client in", NULL, 0,
	                  out->client.secret, digest_len(h));
	if (st == QUIC_OK)
		st = expand_label(h, initial_secret, "server in", NULL, 0,
		                  out->server.secret, digest_len(h));
	aesecb_wipe(initial_secret, sizeof initial_secret);
	if (st == QUIC_OK)
		st = derive_keys(h, v, &out->client);
	if (st == QUIC_OK)
		st = derive_keys(h, v, &out->server);
	if (st != QUIC_OK)
		aesecb_wipe(out, sizeof *out);
	return st;
}

/* ------------------------------------------------------------------ */
/* Header parsing. */

const char *quic_packet_type_name(enum quic_packet_type type)
{
	switch (type) {
	case QUIC_PT_INITIAL:
		return "Initial";
	case QUIC_PT_0RTT:
		return "0-RTT";
	case QUIC_PT_HANDSHAKE:
		return "Handshake";
	case QUIC_PT_RETRY:
		return "Retry";
	case QUIC_PT_VERSION_NEGOTIATION:
		return "Version Negotiation";
	case QUIC_PT_1RTT:
		return "1-RTT";
	case QUIC_PT_NONE:
	default:
		return "unknown";
	}
}

/* Record where a field failed; returns status. */
/*@ requires \valid(h);
    assigns h->err_field, h->err_offset, h->err_need, h->err_have;
    ensures \result == status;
*/
static int fail(struct quic_header *h, int status, const char *field,
                size_t offset, uint64_t need, size_t have)
{
	h->err_field = field;
	h->err_offset = offset;
	h->err_need = need;
	h->err_have = have;
	return status;
}

/*
 * n bytes of a field at *pos: QUIC_OK and *pos advanced, or
 * QUIC_ETRUNCATED.
 */
/*@ requires \valid(h) && \valid(pos) && *pos <= len;
    requires \separated(pos, &h->err_field, &h->err_offset, &h->err_need, &h->err_have);
    assigns *pos, h->err_field, h->err_offset, h->err_need, h->err_have;
    ensures \result == QUIC_OK || \result == QUIC_ETRUNCATED;
    ensures \result == QUIC_OK ==> *pos == \old(*pos) + n;
    ensures \result != QUIC_OK ==> *pos == \old(*pos);
    ensures *pos <= len;
*/
static int take(struct quic_header *h, size_t len, size_t *pos, size_t n,
                const char *field)
{
	if (n > len - *pos)
		return fail(h, QUIC_ETRUNCATED, field, *pos, (uint64_t)*pos + n,
		            len);
	*pos += n;
	return QUIC_OK;
}

/* A variable-length integer (RFC 9000 section 16) at *pos. */
/*@ requires \valid(h) && \valid(pos) && \valid(value) && *pos <= len;
    requires \valid_read(p + (0 .. len - 1));
    requires \separated(pos, value, &h->err_field, &h->err_offset, &h->err_need, &h->err_have);
    assigns *pos, *value, h->err_field, h->err_offset, h->err_need, h->err_have;
    ensures \result == QUIC_OK || \result == QUIC_ETRUNCATED ||
            \result == QUIC_EVARINT;
    ensures \old(*pos) <= *pos <= len;
    ensures \result != QUIC_OK ==> *pos == \old(*pos);
*/
static int varint(struct quic_header *h, const uint8_t *p, size_t len,
                  size_t *pos, uint64_t *value, const char *field)
{
	size_t n, i;
	uint64_t v;

	if (*pos >= len)
		return fail(h, QUIC_ETRUNCATED, field, *pos, (uint64_t)*pos + 1,
		            len);
	/* the first byte's two high bits: 1, 2, 4 or 8 bytes */
	n = (size_t)1 << (p[*pos] / 64u);
	if (n > len - *pos)
		return fail(h, QUIC_EVARINT, field, *pos, (uint64_t)*pos + n,
		            len);
	v = p[*pos] & 0x3fu;
	/*@ loop invariant 1 <= i;
	    loop assigns i, v;
	    loop variant n - i; */
	for (i = 1; i < n; i++)
		v = (v << 8) | p[*pos + i];
	*pos += n;
	*value = v;
	return QUIC_OK;
}

/* A connection ID: length byte, then the bytes. */
/*@ requires \valid(h) && \valid(pos) && \valid(id) && \valid(id_len);
    requires *pos <= len && \valid_read(p + (0 .. len - 1));
    requires \separated(pos, id, id_len, &h->err_field, &h->err_offset, &h->err_need, &h->err_have);
    assigns *pos, *id, *id_len, h->err_field, h->err_offset, h->err_need, h->err_have;
    ensures \result == QUIC_OK || \result == QUIC_ETRUNCATED ||
            \result == QUIC_ECIDLEN;
    ensures \old(*pos) <= *pos <= len;
    ensures \result == QUIC_OK ==>
              *id_len <= max && *pos == \old(*pos) + 1 + *id_len &&
              *id == p + (*pos - *id_len);
*/
static int cid(struct quic_header *h, const uint8_t *p, size_t len,
               size_t *pos, size_t max, const uint8_t **id, size_t *id_len,
               const char *len_field, const char *field)
{
	size_t n;
	int st;

	if ((st = take(h, len, pos, 1, len_field)) != QUIC_OK)
		return st;
	n = p[*pos - 1];
	*id_len = n;
	if (n > max)
		return fail(h, QUIC_ECIDLEN, field, *pos - 1, n, len);
	if ((st = take(h, len, pos, n, field)) != QUIC_OK)
		return st;
	*id = p + *pos - n;
	return QUIC_OK;
}

/* The sample must lie within the packet's first h->packet_len bytes
 * (compared without a sum that could wrap). */
/*@ requires \valid(h);
    assigns h->sample_offset, h->err_field, h->err_offset, h->err_need, h->err_have;
    ensures \result == QUIC_OK || \result == QUIC_ESAMPLE;
    ensures \result == QUIC_OK ==>
              h->sample_offset == h->pn_offset + QUIC_SAMPLE_GAP &&
              h->sample_offset + QUIC_SAMPLE_LEN <= h->packet_len;
*/
static int check_sample(struct quic_header *h)
{
	h->sample_offset = h->pn_offset + QUIC_SAMPLE_GAP;
	if (h->packet_len < QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN ||
	    h->pn_offset > h->packet_len - QUIC_SAMPLE_GAP - QUIC_SAMPLE_LEN)
		return fail(h, QUIC_ESAMPLE, "sample", h->sample_offset,
		            (uint64_t)h->sample_offset + QUIC_SAMPLE_LEN,
		            h->packet_len);
	return QUIC_OK;
}

/* A short header: first byte, DCID (of a length the packet does not
 * say), packet number. */
/*@ requires \valid(h) && len >= 1 && \valid_read(packet + (0 .. len - 1));
    requires h->packet_len <= len && h->long_header == 0;
    assigns h->type, h->dcid, h->dcid_len, h->pn_offset, h->packet_len,
            h->sample_offset, h->err_field, h->err_offset, h->err_need, h->err_have;
    ensures QUIC_ENODCIDLEN <= \result <= QUIC_OK;
    ensures h->packet_len <= len;
    ensures \result == QUIC_OK ==> h->type == QUIC_PT_1RTT &&
              h->packet_len == len && quic_header_ok(h, packet, len);
*/
static int parse_short(struct quic_header *h, const uint8_t *packet,
                       size_t len, size_t dcid_len)
{
	size_t pos = 1;
	int st;

	h->type = QUIC_PT_1RTT;
	if (dcid_len == QUIC_DCID_LEN_UNKNOWN)
		return fail(h, QUIC_ENODCIDLEN, "DCID", 1, 0, len);
	h->dcid_len = dcid_len;
	if (dcid_len > QUIC_MAX_CID_LEN)
		return fail(h, QUIC_ECIDLEN, "DCID", 1, dcid_len, len);
	if ((st = take(h, len, &pos, dcid_len, "DCID")) != QUIC_OK)
		return st;
	h->dcid = packet + 1;
	h->pn_offset = pos;
	h->packet_len = len;
	return check_sample(h);
}

/* The long-header type bits (0x30) of a first byte, as a number 0 to 3:
 * what a version's table of packet types is indexed by. */
/*@ assigns \nothing;
    ensures \result < 4;
*/
static unsigned type_bits(uint8_t first)
{
	return (first >> 4) & 3u;
}

enum quic_packet_type quic_long_type(const uint8_t *packet, size_t len)
{
	const struct version_info *v;
	uint32_t version;

	if (packet == NULL || len < 5 || (packet[0] & 0x80u) == 0)
		return QUIC_PT_NONE;
	version = (uint32_t)packet[1] << 24 | (uint32_t)packet[2] << 16 |
	          (uint32_t)packet[3] << 8 | (uint32_t)packet[4];
	if (version == 0)
		return QUIC_PT_VERSION_NEGOTIATION;
	v = find_version(version);
	return v != NULL ? v->types[type_bits(packet[0])] : QUIC_PT_NONE;
}

/* A long header's version and packet type (at *pos, after the first
 * byte), and the longest connection ID it allows. */
/*@ requires \valid(h) && \valid(pos) && \valid(cidmax);
    requires len >= 1 && \valid_read(packet + (0 .. len - 1)) && *pos == 1;
    requires \separated(pos, cidmax, h);
    assigns *pos, *cidmax, h->version, h->type, h->err_field, h->err_offset, h->err_need, h->err_have;
    ensures \result == QUIC_OK || \result == QUIC_ETRUNCATED ||
            \result == QUIC_EVERSION;
    ensures *pos <= len;
    ensures \result != QUIC_ETRUNCATED ==> *pos == 5;
    ensures \result == QUIC_OK ==>
              h->type == QUIC_PT_VERSION_NEGOTIATION ||
              *cidmax == QUIC_MAX_CID_LEN;
*/
static int parse_version(struct quic_header *h, const uint8_t *packet,
                         size_t len, size_t *pos, size_t *cidmax)
{
	const struct version_info *v;
	int st;

	if ((st = take(h, len, pos, 4, "version")) != QUIC_OK)
		return st;
	h->version = (uint32_t)packet[1] << 24 | (uint32_t)packet[2] << 16 |
	             (uint32_t)packet[3] << 8 | (uint32_t)packet[4];
	if (h->version == 0) {
		/* Version Negotiation: connection IDs of up to 255 bytes
		 * (RFC 8999), then the supported versions */
		h->type = QUIC_PT_VERSION_NEGOTIATION;
		*cidmax = 255;
		return QUIC_OK;
	}
	v = find_version(h->version);
	*cidmax = QUIC_MAX_CID_LEN;
	if (v == NULL)
		return fail(h, QUIC_EVERSION, "version", 1, 5, len);
	h->type = v->types[type_bits(packet[0])];
	return QUIC_OK;
}

/* An Initial packet's token: its length, then the bytes. */
/*@ requires \valid(h) && \valid(pos) && *pos <= len;
    requires \valid_read(packet + (0 .. len - 1));
    requires \separated(pos, h);
    assigns *pos, h->token, h->token_len, h->err_field, h->err_offset, h->err_need, h->err_have;
    ensures \result == QUIC_OK || \result == QUIC_ETRUNCATED ||
            \result == QUIC_EVARINT;
    ensures \old(*pos) <= *pos <= len;
    ensures \result == QUIC_OK ==>
              \old(*pos) <= *pos - h->token_len &&
              h->token == packet + (*pos - h->token_len);
*/
static int parse_token(struct quic_header *h, const uint8_t *packet,
                       size_t len, size_t *pos)
{
	uint64_t token_len;
	int st;

	if ((st = varint(h, packet, len, pos, &token_len, "token length")) !=
	    QUIC_OK)
		return st;
	if (token_len > len - *pos)
		return fail(h, QUIC_ETRUNCATED, "token", *pos,
		            (uint64_t)*pos + token_len, len);
	h->token = packet + *pos;
	h->token_len = (size_t)token_len;
	*pos += (size_t)token_len;
	return QUIC_OK;
}

/* The fields after the connection IDs: an Initial's token, the Length,
 * which ends the packet. */
/*@ requires \valid(h) && pos <= len && h->packet_len <= len;
    requires \valid_read(packet + (0 .. len - 1));
    assigns h->token, h->token_len, h->length, h->pn_offset, h->packet_len,
            h->err_field, h->err_offset, h->err_need, h->err_have;
    ensures \result == QUIC_OK || \result == QUIC_ETRUNCATED ||
            \result == QUIC_EVARINT || \result == QUIC_ELENGTH;
    ensures h->packet_len <= len;
    ensures \result == QUIC_OK ==>
              pos <= h->pn_offset <= h->packet_len;
    ensures \result == QUIC_OK && initial != 0 ==>
              (\exists integer o; h->token == packet + o && pos <= o &&
                                  o + h->token_len <= h->pn_offset);
*/
static int parse_length(struct quic_header *h, const uint8_t *packet,
                        size_t len, size_t pos, int initial)
{
	uint64_t length;
	int st;

	if (initial && (st = parse_token(h, packet, len, &pos)) != QUIC_OK)
		return st;
	if ((st = varint(h, packet, len, &pos, &length, "Length")) != QUIC_OK)
		return st;
	h->length = length;
	h->pn_offset = pos;
	if (length > len - pos)
		return fail(h, QUIC_ELENGTH, "Length", pos, (uint64_t)pos + length,
		            len);
	h->packet_len = pos + (size_t)length;
	return QUIC_OK;
}

/*
 * A packet of an unknown version: where it ends, if it is laid out as
 * version 1's (the type bits as version 1 reads them, connection IDs of at
 * most 20 bytes, a token for a type 0, then the Length), so that packets
 * coalesced behind it can be read.  h keeps the version and the failure
 * (QUIC_EVERSION); h->packet_len is the guessed end or 0, h->extent_guessed
 * says which.
 */
/*@ requires \valid(h) && len >= 5 && \valid_read(packet + (0 .. len - 1));
    requires h->packet_len <= len;
    assigns h->packet_len, h->extent_guessed;
    ensures h->packet_len <= len;
    ensures h->extent_guessed != \old(h->extent_guessed) ==>
              h->extent_guessed == 1 && 0 < h->packet_len;
*/
static void guess_extent(struct quic_header *h, const uint8_t *packet,
                         size_t len)
{
	struct quic_header g = *h;
	const uint8_t *id;
	size_t pos = 5, id_len;

	if (cid(&g, packet, len, &pos, QUIC_MAX_CID_LEN, &id, &id_len,
	        "DCID length", "DCID") != QUIC_OK ||
	    cid(&g, packet, len, &pos, QUIC_MAX_CID_LEN, &id, &id_len,
	        "SCID length", "SCID") != QUIC_OK ||
	    parse_length(&g, packet, len, pos,
	                 type_bits(packet[0]) == 0) != QUIC_OK)
		return;
	h->packet_len = g.packet_len;
	h->extent_guessed = 1;
}

/* A long header: version and type, DCID, SCID, an Initial's token, the
 * Length field, which ends the packet. */
/*@ requires \valid(h) && len >= 1 && \valid_read(packet + (0 .. len - 1));
    requires h->packet_len == 0 && h->extent_guessed == 0;
    assigns *h;
    ensures QUIC_ENODCIDLEN <= \result <= QUIC_OK;
    ensures h->packet_len <= len;
    ensures h->extent_guessed != 0 ==> 0 < h->packet_len;
    ensures \result == QUIC_OK ==> h->long_header == 1 &&
              quic_header_ok(h, packet, len);
*/
static int parse_long(struct quic_header *h, const uint8_t *packet,
                      size_t len)
{
	size_t pos = 1, cidmax;
	int st;

	h->long_header = 1;
	st = parse_version(h, packet, len, &pos, &cidmax);
	if (st == QUIC_EVERSION) {
		guess_extent(h, packet, len);
		return st;
	}
	if (st != QUIC_OK ||
	    (st = cid(h, packet, len, &pos, cidmax, &h->dcid, &h->dcid_len,
	              "DCID length", "DCID")) != QUIC_OK ||
	    (st = cid(h, packet, len, &pos, cidmax, &h->scid, &h->scid_len,
	              "SCID length", "SCID")) != QUIC_OK)
		return st;
	if (h->type == QUIC_PT_VERSION_NEGOTIATION || h->type == QUIC_PT_RETRY)
		return fail(h, QUIC_ENOPROTECTION, "first byte", 0, 0, len);
	if ((st = parse_length(h, packet, len, pos,
	                       h->type == QUIC_PT_INITIAL)) != QUIC_OK)
		return st;
	return check_sample(h);
}

/* h before the parse: every field zero (or NULL). */
/*@ requires \valid(h);
    assigns *h;
    ensures h->long_header == 0 && h->packet_len == 0 &&
            h->extent_guessed == 0;
*/
static void header_clear(struct quic_header *h)
{
	*h = (struct quic_header){ 0 };
	/* the fields the contract names, again by name: the provers do not
	 * relate an assignment of the whole structure to its fields (the
	 * compiler drops these stores) */
	h->long_header = 0;
	h->packet_len = 0;
	h->extent_guessed = 0;
}

int quic_parse_header(const uint8_t *packet, size_t len, size_t short_dcid_len,
                      struct quic_header *h)
{
	if (h == NULL)
		return QUIC_EINVAL;
	header_clear(h);
	if (packet == NULL && len != 0)
		return QUIC_EINVAL;
	if (len == 0)
		return fail(h, QUIC_EEMPTY, "first byte", 0, 1, 0);
	if ((packet[0] & 0x80u) == 0)
		return parse_short(h, packet, len, short_dcid_len);
	return parse_long(h, packet, len);
}

char *quic_header_error(const struct quic_header *h, int status,
                        char *buf, size_t size)
{
	const char *field = h != NULL && h->err_field != NULL ? h->err_field
	                                                      : "header";

	if (buf == NULL || size == 0)
		return buf;
	if (h == NULL) {
		snprintf(buf, size, "%s", quic_strerror(status));
		return buf;
	}
	switch (status) {
	case QUIC_EVERSION:
		snprintf(buf, size, "unknown QUIC version 0x%08lx (known: "
		         QUIC_VERSIONS_KNOWN ")", (unsigned long)h->version);
		break;
	case QUIC_ECIDLEN:
		if (h->long_header)
			snprintf(buf, size, "the %s is %zu bytes; QUIC versions "
			         "1 and 2 allow at most %d", field,
			         (size_t)h->err_need, QUIC_MAX_CID_LEN);
		else
			snprintf(buf, size, "a DCID length of %zu was given; "
			         "QUIC versions 1 and 2 allow at most %d",
			         (size_t)h->err_need, QUIC_MAX_CID_LEN);
		break;
	case QUIC_ETRUNCATED:
		snprintf(buf, size, "the packet ends inside its header: the %s "
		         "at offset %zu needs %llu bytes; the packet has %zu",
		         field, h->err_offset,
		         (unsigned long long)h->err_need, h->err_have);
		break;
	case QUIC_EVARINT:
		snprintf(buf, size, "bad variable-length integer: the %s at "
		         "offset %zu is %llu bytes long and runs past the end of "
		         "the packet (%zu bytes)", field, h->err_offset,
		         (unsigned long long)(h->err_need - h->err_offset),
		         h->err_have);
		break;
	case QUIC_ELENGTH:
		snprintf(buf, size, "the Length field (%llu) runs past the end "
		         "of the packet: the packet number starts at offset %zu, "
		         "so %llu bytes are needed; the packet has %zu",
		         (unsigned long long)h->length, h->err_offset,
		         (unsigned long long)h->err_need, h->err_have);
		break;
	case QUIC_ESAMPLE:
		snprintf(buf, size, "packet too short for its header-protection "
		         "sample: the sample is bytes %zu to %zu, so %llu bytes "
		         "are needed; %s has %zu",
		         h->sample_offset, h->sample_offset + QUIC_SAMPLE_LEN - 1,
		         (unsigned long long)h->err_need,
		         h->long_header ? "by its Length field the packet"
		                        : "the packet",
		         h->err_have);
		break;
	case QUIC_ENOPROTECTION:
		snprintf(buf, size, "%s packets have no header protection",
		         quic_packet_type_name(h->type));
		break;
	default:
		snprintf(buf, size, "%s", quic_strerror(status));
		break;
	}
	return buf;
}
