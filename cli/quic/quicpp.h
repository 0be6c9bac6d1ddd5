/* SPDX-License-Identifier: MIT */
/*
 * quicpp.h - QUIC packet protection for the aesecb tool: the AEAD check of
 * a packet whose header protection has been removed (RFC 9001 5.3), with
 * AES-128-GCM and AES-256-GCM from nettle; packet-number recovery (RFC
 * 9000 Appendix A.3); the next secret of a key update (RFC 9001 6).
 *
 * AES-GCM is nettle's: constant time where nettle uses the CPU's AES and
 * carry-less multiply (x86-64 with AES-NI and PCLMULQDQ, ARMv8 with the
 * Crypto Extensions); its portable GHASH uses tables indexed by data.
 * The one AES decryption that finds a packet number from its tag is
 * libaesecb's (constant time).  The packet number and its length come
 * from bytes that were under header protection: the check computes
 * the tag for each of the four possible lengths and selects the answer
 * with masks, and the packet-number recovery is arithmetic without
 * branches, so nothing here branches on them either.
 *
 * No printing, no exit, no allocation.
 */
#ifndef AESECB_QUICPP_H
#define AESECB_QUICPP_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/gcm.h>

#include "aesecb.h"
#include "quic/quic.h"

#define QUIC_TAG_LEN 16

/* A packet-protection key and IV, set up for AES-GCM. */
struct quic_aead {
	size_t key_len;                     /* 16 (AES-128-GCM) or 32 */
	union {
		struct gcm_aes128_ctx a128;
		struct gcm_aes256_ctx a256;
	} gcm;
	uint8_t iv[QUIC_IV_LEN];
	aesecb_ctx dec;                     /* the key's AES, for the full
	                                       packet number (libaesecb) */
};

/*
 * Set up a from a packet key of 16 or 32 bytes and its 12-byte IV.
 * QUIC_OK or QUIC_EINVAL (another key length).
 */
int quic_aead_init(struct quic_aead *a, const uint8_t *key, size_t key_len,
                   const uint8_t iv[QUIC_IV_LEN]);

/* The same from the keys of a traffic secret (k->key, k->iv, k->key_len). */
int quic_aead_init_keys(struct quic_aead *a, const struct quic_keys *k);

/* Wipe with aesecb_wipe(). */
void quic_aead_wipe(struct quic_aead *a);

/*
 * Packet-number recovery (RFC 9000 Appendix A.3): the full packet number
 * nearest to the next expected one whose low 8 * pn_len bits are
 * truncated.  largest is the largest packet number received so far in the
 * packet-number space, or QUIC_PN_NONE when none is known: the truncated
 * number is then the full one.  pn_len is 1 to 4; truncated must be below
 * 2^(8 * pn_len).  No branch on any argument.
 */
#define QUIC_PN_NONE UINT64_MAX
uint64_t quic_pn_decode(uint64_t largest, uint32_t truncated,
                        uint32_t pn_len);

/* What quic_pp_check() found. */
struct quic_pp_result {
	int ok;                  /* 1: the tag verifies; 0: it does not */
	uint32_t pn_len;         /* 1 to 4, from the unprotected first byte */
	uint32_t truncated;      /* the packet number as sent */
	uint64_t pn;             /* the full packet number (the nonce's) */
};

/*
 * Check the AEAD tag of a packet whose header protection has been
 * removed.  pkt[0..len) is the packet alone (for a long header pn_offset
 * plus its Length field); the packet number starts at pn_offset, its
 * length is the low two bits of pkt[0] plus one; the AAD is the header
 * through the packet number, the ciphertext runs from there to the last
 * 16 bytes, which are the tag.  The nonce is the IV xor the full packet
 * number recovered from largest.  With QUIC_PN_NONE (none known: the
 * first packet of its space in a capture that starts late) the full
 * number is found from the tag itself, GHASH and one AES decryption:
 * every number below 2^32 that ends in the truncated one is accepted, at
 * the cost of one check.  The tag is compared in constant time.  len must leave room for the
 * header-protection sample (len >= pn_offset + 20, which also makes room
 * for the longest packet number and the tag): QUIC_ESAMPLE otherwise.
 * Returns QUIC_OK (the verdict is in r->ok) or QUIC_EINVAL / QUIC_ESAMPLE.
 */
int quic_pp_check(const struct quic_aead *a, const uint8_t *pkt, size_t len,
                  size_t pn_offset, uint64_t largest,
                  struct quic_pp_result *r);

/*
 * Plaintext of a packet whose tag verified, a block at a time: block k of
 * the payload (the bytes after the packet number) is the ciphertext xor
 * AES(key, nonce | k + 2), GCM's counter (the nonce is the IV xor the full
 * packet number).  quic_pp_keystream() writes that key stream block, so
 * that a reader decrypts only the bytes it looks at.
 */
void quic_pp_nonce(const struct quic_aead *a, uint64_t pn,
                   uint8_t nonce[QUIC_IV_LEN]);
/*@ requires \valid_read(a) && \valid_read(nonce + (0 .. QUIC_IV_LEN - 1));
    requires \valid(out + (0 .. 15));
    assigns out[0 .. 15];
*/
void quic_pp_keystream(const struct quic_aead *a,
                       const uint8_t nonce[QUIC_IV_LEN], uint64_t block,
                       uint8_t out[16]);

/*
 * The secret of the next key generation (RFC 9001 6.1, RFC 9369 3.3.2):
 * HKDF-Expand-Label(secret, "quic ku" or "quicv2 ku", "", hash length),
 * the version's label (quic_ku_label(version, 0)).  out has room for
 * QUIC_MAX_HASH_LEN bytes.  The header-protection key does not change with
 * a key update: derive it from the first secret.
 */
int quic_pp_next_secret(enum quic_hash hash, uint32_t version,
                        const uint8_t *secret, size_t secret_len,
                        uint8_t *out);

/* The same with the version's label of that variant (0 or 1, see
 * quic_ku_label); QUIC_EVERSION when the version has none. */
int quic_pp_next_secret_variant(enum quic_hash hash, uint32_t version,
                                unsigned variant, const uint8_t *secret,
                                size_t secret_len, uint8_t *out);

#endif
