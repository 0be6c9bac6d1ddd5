/* SPDX-License-Identifier: MIT */
/*
 * quic.h - QUIC key derivation and header parsing for the aesecb tool.
 *
 * Key derivation (RFC 9001 section 5, RFC 9369 section 3.3) is built on
 * nettle's HMAC-SHA256/SHA384 and HKDF:
 *   - HKDF-Expand-Label as TLS 1.3 defines it (RFC 8446 section 7.1);
 *   - the Initial secrets, packet-protection keys, IVs and header-protection
 *     keys for a Destination Connection ID, for QUIC versions 1 and 2;
 *   - the header-protection key (and packet key and IV) of a traffic secret.
 * Header parsing finds, in a protected packet, the offset of the packet
 * number and of the header-protection sample, the DCID and the fields of a
 * long header.
 *
 * Every function is pure: no printing, no exit, no allocation.  Each
 * returns QUIC_OK (0) or a negative enum quic_status; quic_strerror() gives
 * the status in words, and quic_header_error() a message with the details
 * of a parse error (offsets, the unknown version).  Intermediate secrets
 * are wiped with aesecb_wipe(); output structures that hold secrets are
 * the caller's to wipe (quic_keys_wipe(), quic_initial_wipe()).
 */
#ifndef AESECB_QUIC_H
#define AESECB_QUIC_H

#include <stddef.h>
#include <stdint.h>

/* Version numbers on the wire. */
#define QUIC_VERSION_1 UINT32_C(0x00000001)  /* RFC 9000 */
#define QUIC_VERSION_2 UINT32_C(0x6b3343cf)  /* RFC 9369 */
/* Drafts that Debian's stacks (quic-go 0.29, ngtcp2 0.12) still speak and
 * Wireshark decodes: draft-ietf-quic-transport-29, and the provisional
 * number of the version 2 drafts. */
#define QUIC_VERSION_DRAFT29  UINT32_C(0xff00001d)
#define QUIC_VERSION_V2_DRAFT UINT32_C(0x709a50c4)
/* For messages. */
#define QUIC_VERSIONS_KNOWN \
	"0x00000001, 0x6b3343cf, 0xff00001d and 0x709a50c4"

/* Longest connection ID in QUIC versions 1 and 2 (RFC 9000 section 17.2). */
#define QUIC_MAX_CID_LEN 20

/* Sizes. */
#define QUIC_MAX_HASH_LEN   48  /* SHA-384 */
#define QUIC_MAX_KEY_LEN    32  /* AES-256 */
#define QUIC_IV_LEN         12
#define QUIC_SAMPLE_LEN     16
#define QUIC_SAMPLE_GAP      4  /* the sample starts this far after the pn offset */
#define QUIC_INITIAL_SECRET_LEN 32  /* SHA-256 */
#define QUIC_INITIAL_KEY_LEN    16  /* AES-128-GCM */

/* Status codes: QUIC_OK or negative. */
enum quic_status {
	QUIC_OK = 0,
	QUIC_EINVAL = -1,        /* NULL where data was required, or a bad
	                            hash or buffer size */
	QUIC_EVERSION = -2,      /* a version other than 1, 2 and the drafts
	                            above */
	QUIC_ESECRETLEN = -3,    /* secret length is not the hash's length */
	QUIC_ELABEL = -4,        /* label, context or output too long for
	                            HKDF-Expand-Label */
	QUIC_ECIDLEN = -5,       /* connection ID longer than 20 bytes */
	QUIC_EEMPTY = -6,        /* packet of 0 bytes */
	QUIC_ETRUNCATED = -7,    /* the packet ends inside its header */
	QUIC_EVARINT = -8,       /* a variable-length integer runs past the
	                            end of the packet */
	QUIC_ELENGTH = -9,       /* the Length field runs past the end of the
	                            packet */
	QUIC_ESAMPLE = -10,      /* the packet is too short for the
	                            header-protection sample */
	QUIC_ENOPROTECTION = -11,/* Retry or Version Negotiation: these have
	                            no header protection */
	QUIC_ENODCIDLEN = -12    /* short header and no DCID length given */
};

/* Hash functions of the TLS 1.3 cipher suites QUIC uses with AES. */
enum quic_hash {
	QUIC_SHA256 = 0,         /* TLS_AES_128_GCM_SHA256: 16-byte keys */
	QUIC_SHA384 = 1          /* TLS_AES_256_GCM_SHA384: 32-byte keys */
};

/* Output length of the hash (32 or 48), or 0 for an unknown hash. */
size_t quic_hash_len(enum quic_hash hash);

/* AES key length of the hash's cipher suite (16 or 32), or 0. */
size_t quic_key_len(enum quic_hash hash);

/*
 * The hash named by s: "sha256" or "sha384" (also "SHA-256", "sha-384":
 * case and one '-' after "sha" do not matter).  QUIC_OK or QUIC_EINVAL.
 */
int quic_hash_parse(const char *s, enum quic_hash *hash);

/* "sha256" or "sha384", or NULL for an unknown hash. */
const char *quic_hash_name(enum quic_hash hash);

/* 1 when version is one of the known versions (1, 2, the drafts), else 0. */
int quic_version_known(uint32_t version);

/*
 * The version named by s: "1", "2", "draft-29" or "draft-v2", or the
 * version number in hex with "0x" ("0x00000001", "0x6b3343cf"; case and
 * leading zeros do not matter).  Returns QUIC_OK, QUIC_EVERSION for a
 * well-formed number that is not a known version (*version holds it), or
 * QUIC_EINVAL for other text.
 */
int quic_version_parse(const char *s, uint32_t *version);

/* The known versions are numbered 0 to QUIC_NVERSIONS - 1 (for tables of
 * what is kept per version); -1 for another version. */
#define QUIC_NVERSIONS 4
int quic_version_index(uint32_t version);

/* "1", "2", "draft-29" or "draft-v2" for the known versions, else NULL. */
const char *quic_version_name(uint32_t version);

/*
 * The key update label of a version (RFC 9001 6.1): variant 0, "quic ku"
 * or "quicv2 ku"; variant 1 the second label some stacks use for the same
 * version (the v2 draft: "quic ku", as quic-go 0.29 does), else NULL.
 * NULL for an unknown version.
 */
const char *quic_ku_label(uint32_t version, unsigned variant);

/* The status in words: a static string, never NULL. */
const char *quic_strerror(int status);

/*
 * HKDF-Expand-Label(secret, label, context, out_len) as TLS 1.3 defines
 * it: HKDF-Expand with the info
 *     uint16 out_len | uint8 len | "tls13 " label | uint8 len | context
 * secret_len must be the hash's length (QUIC_ESECRETLEN otherwise); the
 * label is 1 to 249 bytes, the context at most 255 bytes and out_len
 * from 1 to 255 times the hash length (QUIC_ELABEL otherwise).  context
 * may be NULL when context_len is 0.
 */
int quic_hkdf_expand_label(enum quic_hash hash,
                           const uint8_t *secret, size_t secret_len,
                           const char *label,
                           const uint8_t *context, size_t context_len,
                           uint8_t *out, size_t out_len);

/* The keys of one direction. */
struct quic_keys {
	uint8_t secret[QUIC_MAX_HASH_LEN];  /* the traffic secret */
	size_t secret_len;                  /* hash length: 32 or 48 */
	uint8_t key[QUIC_MAX_KEY_LEN];      /* AEAD key ("quic key") */
	uint8_t iv[QUIC_IV_LEN];            /* AEAD IV ("quic iv") */
	uint8_t hp[QUIC_MAX_KEY_LEN];       /* header-protection key ("quic hp") */
	size_t key_len;                     /* length of key and hp: 16 or 32 */
};

/*
 * The packet key, IV and hp key of a traffic secret (the labels of the
 * version: "quic key", "quic iv", "quic hp" or "quicv2 key", ...), for the
 * AES-GCM suite of the hash: keys of 16 bytes with SHA-256, 32 with
 * SHA-384.  The secret is copied into out->secret.  On failure out is
 * left zeroed.
 */
int quic_traffic_keys(enum quic_hash hash, uint32_t version,
                      const uint8_t *secret, size_t secret_len,
                      struct quic_keys *out);

/*
 * Only the header-protection key of a traffic secret:
 * HKDF-Expand-Label(secret, "quic hp" or "quicv2 hp", "", L) with L = 16
 * for SHA-256 and 32 for SHA-384.  hp has room for QUIC_MAX_KEY_LEN bytes;
 * *hp_len receives L.
 */
int quic_hp_key(enum quic_hash hash, uint32_t version,
                const uint8_t *secret, size_t secret_len,
                uint8_t hp[QUIC_MAX_KEY_LEN], size_t *hp_len);

/* The Initial keys of both directions. */
struct quic_initial {
	uint32_t version;
	struct quic_keys client;  /* "client in": what the client sends with */
	struct quic_keys server;  /* "server in" */
};

/*
 * The Initial secrets and keys for a Destination Connection ID (RFC 9001
 * section 5.2, RFC 9369 section 3.3.1): initial_secret = HKDF-Extract(salt
 * of the version, dcid), then "client in" and "server in" (32 bytes each),
 * then the keys of each (SHA-256, AES-128-GCM).  dcid_len is 0 to 20
 * (QUIC_ECIDLEN otherwise); dcid may be NULL when dcid_len is 0.  The
 * initial secret is wiped; on failure out is left zeroed.
 */
int quic_initial_keys(uint32_t version, const uint8_t *dcid, size_t dcid_len,
                      struct quic_initial *out);

/* Wipe with aesecb_wipe(). */
void quic_keys_wipe(struct quic_keys *k);
void quic_initial_wipe(struct quic_initial *k);

/* ------------------------------------------------------------------ */
/* Header parsing. */

enum quic_packet_type {
	QUIC_PT_NONE = 0,        /* not known yet (parse failed early) */
	QUIC_PT_INITIAL,
	QUIC_PT_0RTT,
	QUIC_PT_HANDSHAKE,
	QUIC_PT_RETRY,
	QUIC_PT_VERSION_NEGOTIATION,
	QUIC_PT_1RTT             /* short header */
};

/* "Initial", "0-RTT", "Handshake", "Retry", "Version Negotiation",
   "1-RTT", or "unknown". */
const char *quic_packet_type_name(enum quic_packet_type type);

/*
 * The type of a long header from its first byte and version (the first
 * 5 bytes): QUIC_PT_VERSION_NEGOTIATION for version 0, the type bits as
 * versions 1 and 2 read them; QUIC_PT_NONE for a short header, another
 * version, or fewer than 5 bytes.  What quic_parse_header() refuses as
 * QUIC_ENOPROTECTION, known before the rest of the header is read.
 */
/*@ requires packet == \null || \valid_read(packet + (0 .. len - 1));
    assigns \nothing;
*/
enum quic_packet_type quic_long_type(const uint8_t *packet, size_t len);

/* Pass as short_dcid_len when the DCID length of short headers is not known. */
#define QUIC_DCID_LEN_UNKNOWN ((size_t)-1)

/*
 * What quic_parse_header() found.  Pointers point into the packet.  On
 * failure the fields read so far are filled in, and err_* say where the
 * problem is (for quic_header_error()).
 */
struct quic_header {
	int long_header;             /* first byte has bit 7 (0x80) set */
	enum quic_packet_type type;
	uint32_t version;            /* long headers; 0 for short headers */
	const uint8_t *dcid;         /* Destination Connection ID */
	size_t dcid_len;
	const uint8_t *scid;         /* Source Connection ID (long headers) */
	size_t scid_len;
	const uint8_t *token;        /* Initial only */
	size_t token_len;
	uint64_t length;             /* Length field (long headers except
	                                Retry and Version Negotiation) */
	size_t pn_offset;            /* offset of the packet number */
	size_t sample_offset;        /* pn_offset + 4 */
	size_t packet_len;           /* bytes of this packet: pn_offset +
	                                length for long headers (coalesced
	                                packets may follow), else all */
	int extent_guessed;          /* QUIC_EVERSION: packet_len is where
	                                the packet ends if it is laid out as
	                                version 1's (0: not even that) */
	/* on failure */
	const char *err_field;       /* the field being read, e.g. "SCID" */
	size_t err_offset;           /* where it starts */
	uint64_t err_need;           /* bytes needed from the packet start */
	size_t err_have;             /* bytes there are (of this packet) */
};

/*
 * What QUIC_OK from quic_parse_header() promises about h, for a packet of
 * len bytes (ACSL, proved by 'make prove'): the sample lies within the
 * packet's extent, which lies within the len bytes, and the connection
 * IDs and an Initial's token are bytes of the packet before the packet
 * number.
 */
/*@ predicate quic_header_ok(struct quic_header *h, uint8_t *packet,
                             integer len) =
      h->sample_offset == h->pn_offset + QUIC_SAMPLE_GAP &&
      h->sample_offset + QUIC_SAMPLE_LEN <= h->packet_len <= len &&
      h->dcid_len <= QUIC_MAX_CID_LEN &&
      (\exists integer o; h->dcid == packet + o && 1 <= o &&
                          o + h->dcid_len <= h->pn_offset) &&
      (h->long_header != 0 ==>
        h->scid_len <= QUIC_MAX_CID_LEN &&
        (\exists integer o; h->scid == packet + o && 1 <= o &&
                            o + h->scid_len <= h->pn_offset)) &&
      (h->type == QUIC_PT_INITIAL ==>
        (\exists integer o; h->token == packet + o && 1 <= o &&
                            o + h->token_len <= h->pn_offset));
*/

/*
 * Parse the header of a protected packet of len bytes.  Long headers
 * (first byte 0x80 set): version, DCID length and DCID, SCID length and
 * SCID, then for Initial packets the token length (variable-length
 * integer) and token, then the Length (variable-length integer); the
 * packet number follows.  The packet type bits are read as the version
 * defines them (version 2 encodes them differently).  Short headers: the
 * packet number starts at 1 + short_dcid_len, which the caller must know
 * (QUIC_DCID_LEN_UNKNOWN: QUIC_ENODCIDLEN).
 *
 * Errors: QUIC_EEMPTY; QUIC_ETRUNCATED (a field, or the first byte of a
 * variable-length integer, lies past the end); QUIC_EVARINT (a
 * variable-length integer starts in the packet but runs past its end);
 * QUIC_ELENGTH (pn_offset + Length > len); QUIC_ESAMPLE (the 16-byte sample
 * at pn_offset + 4 does not fit in the packet: its Length for long
 * headers); QUIC_EVERSION (h->version holds it, h->packet_len where the
 * packet ends if laid out as version 1's, see extent_guessed); QUIC_ECIDLEN
 * (a connection ID over 20 bytes, or short_dcid_len over 20);
 * QUIC_ENOPROTECTION for Retry and Version Negotiation (version 0)
 * packets, with h->type, the version and the connection IDs filled in.
 * The first byte's low bits and the packet number are protected and are
 * not interpreted.
 */
/*@ requires h == \null || \valid(h);
    requires packet == \null || \valid_read(packet + (0 .. len - 1));
    requires h == \null || \separated(h, packet + (0 .. len - 1));
    assigns *h;
    ensures QUIC_ENODCIDLEN <= \result <= QUIC_OK;
    ensures h != \null ==> h->packet_len <= len;
    ensures h != \null && h->extent_guessed != 0 ==> 0 < h->packet_len;
    ensures \result == QUIC_OK ==> quic_header_ok(h, packet, len);
    ensures \result == QUIC_OK ==>
              h->sample_offset + QUIC_SAMPLE_LEN <= h->packet_len;
    ensures \result == QUIC_OK && h->long_header == 0 ==>
              h->packet_len == len;
*/
int quic_parse_header(const uint8_t *packet, size_t len, size_t short_dcid_len,
                      struct quic_header *h);

/*
 * A one-line message for a quic_parse_header() failure, with the details
 * h holds (the field, offsets and sizes, the version); no trailing
 * newline.  Writes at most size bytes to buf (always terminated when size
 * > 0) and returns buf.
 */
char *quic_header_error(const struct quic_header *h, int status,
                        char *buf, size_t size);

#endif
