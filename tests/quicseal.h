/* SPDX-License-Identifier: MIT */
/*
 * quicseal.h - protected QUIC packets built with OpenSSL's libcrypto, for
 * the tests of "aesecb hp-mask" (tests/quicgen, tests/quicconns): made
 * independently of aesecb's own code, key derivation with OpenSSL's HKDF,
 * payload protection with AES-GCM (RFC 9001 5.3), header protection with
 * AES-ECB (RFC 9001 5.4), the header laid out from RFC 9000 17 and
 * RFC 9369 3.2.  Any failure of libcrypto or a bad argument ends the
 * program (status 1 or 2) with a message.
 */
#ifndef AESECB_QUICSEAL_H
#define AESECB_QUICSEAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define QS_MAXPKT (1 << 17)

/* A version: its number, initial salt, label prefix ("quic " or
 * "quicv2 "), key update label, and whether its packet types are
 * version 2's. */
struct qs_version {
	const char *name;
	uint32_t number;
	uint8_t salt[20];
	const char *prefix;
	const char *ku_label;
	int v2_types;
};

/* "1", "2", "draft29", "v2draft" (quicv2 labels, "quicv2 ku"), or
 * "v2draft-quicku" (the same, "quic ku" as quic-go 0.29 writes it). */
const struct qs_version *qs_version(const char *name);

enum qs_type { QS_INITIAL, QS_0RTT, QS_HANDSHAKE, QS_1RTT };

/* The keys of one direction. */
struct qs_keys {
	size_t secret_len, key_len;
	uint8_t secret[64];
	uint8_t key[32], iv[12], hp[32];
};

/* hash: "sha256" or "sha384". */
void qs_traffic_keys(const struct qs_version *v, const char *hash,
                     const uint8_t *secret, size_t len, struct qs_keys *k);
/* The Initial keys of a side (server: 1) for a DCID. */
void qs_initial_keys(const struct qs_version *v, const uint8_t *dcid,
                     size_t len, int server, struct qs_keys *k);
/* k's packet key and IV moved to generation gen (the hp key stays). */
void qs_generation(const struct qs_version *v, const char *hash,
                   struct qs_keys *k, unsigned gen);

/* What a packet is made of. */
struct qs_packet {
	const struct qs_version *v;
	enum qs_type type;
	const uint8_t *dcid, *scid, *token;
	size_t dcid_len, scid_len, token_len;
	uint64_t pn;
	size_t pnlen;              /* 1 to 4 */
	const uint8_t *plain;      /* the payload */
	size_t plain_len;
	size_t lenlen;             /* bytes of the Length varint (0: least) */
	int phase;                 /* 1-RTT: the key phase bit */
	int spin;                  /* 1-RTT: the spin bit */
};

/*
 * The packet sealed with k into out (room for QS_MAXPKT bytes): returns
 * its length; *pn_offset where its packet number is; clear, when not
 * NULL, gets the packet before header protection.
 */
size_t qs_seal(const struct qs_packet *p, const struct qs_keys *k,
               uint8_t *out, uint8_t *clear, size_t *pn_offset);

/* Helpers of the programs. */
void qs_die(const char *what);
size_t qs_unhex(const char *s, uint8_t *out, size_t room);
void qs_hex(FILE *f, const uint8_t *p, size_t n);

#endif
