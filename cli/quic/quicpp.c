/* SPDX-License-Identifier: MIT */
/*
 * quicpp.c - QUIC packet protection: AEAD check, packet-number recovery,
 * key updates.  See quicpp.h.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include <nettle/memops.h>
#include <nettle/nettle-meta.h>

#include "aesecb.h"
#include "quic/quicpp.h"

/* Bytes decrypted at a time into a buffer on the stack (a multiple of 16,
 * as nettle wants for every call but the last). */
#define CHUNK 256

int quic_aead_init(struct quic_aead *a, const uint8_t *key, size_t key_len,
                   const uint8_t iv[QUIC_IV_LEN])
{
	if (a == NULL)
		return QUIC_EINVAL;
	if (key == NULL || iv == NULL || (key_len != 16 && key_len != 32)) {
		aesecb_wipe(a, sizeof *a);
		return QUIC_EINVAL;
	}
	/* (every byte of the context is written below: no wipe first) */
	a->key_len = key_len;
	if (key_len == 16)
		gcm_aes128_set_key(&a->gcm.a128, key);
	else
		gcm_aes256_set_key(&a->gcm.a256, key);
	memcpy(a->iv, iv, QUIC_IV_LEN);
	if (aesecb_init(&a->dec, key, key_len, NULL) != AESECB_OK) {
		aesecb_wipe(a, sizeof *a);
		return QUIC_EINVAL;
	}
	return QUIC_OK;
}

int quic_aead_init_keys(struct quic_aead *a, const struct quic_keys *k)
{
	if (k == NULL) {
		if (a != NULL)
			aesecb_wipe(a, sizeof *a);
		return QUIC_EINVAL;
	}
	return quic_aead_init(a, k->key, k->key_len, k->iv);
}

void quic_aead_wipe(struct quic_aead *a)
{
	if (a != NULL) {
		aesecb_clear(&a->dec);
		aesecb_wipe(a, sizeof *a);
	}
}

/* ------------------------------------------------------------------ */
/* Masks. */

/* All ones when a < b, else 0. */
static uint64_t lt64(uint64_t a, uint64_t b)
{
	uint64_t borrow = (~a & b) | (~(a ^ b) & (a - b));

	return 0 - (borrow >> 63);
}

/* All ones when a == b, else 0. */
static uint32_t eq32(uint32_t a, uint32_t b)
{
	uint32_t d = a ^ b;

	return ((d | (0u - d)) >> 31) - 1u;
}

uint64_t quic_pn_decode(uint64_t largest, uint32_t truncated, uint32_t pn_len)
{
	/* expected = largest + 1, or 0 when none is known (UINT64_MAX + 1) */
	uint64_t expected = largest + 1;
	uint64_t win = (uint64_t)1 << (8 * (pn_len & 7u));
	uint64_t hwin = win >> 1, mask = win - 1;
	uint64_t cand = (expected & ~mask) | ((uint64_t)truncated & mask);
	/* cand <= expected - hwin, and cand < 2^62 - win */
	uint64_t up = ~lt64(expected, cand + hwin) &
	              lt64(cand, ((uint64_t)1 << 62) - win);
	/* cand > expected + hwin, and cand >= win */
	uint64_t down = lt64(expected + hwin, cand) & ~lt64(cand, win);

	return (cand & ~(up | down)) | ((cand + win) & up) |
	       ((cand - win) & down & ~up);
}

/* ------------------------------------------------------------------ */
/* The AEAD check. */

void quic_pp_nonce(const struct quic_aead *a, uint64_t pn,
                   uint8_t nonce[QUIC_IV_LEN])
{
	size_t i;

	memcpy(nonce, a->iv, QUIC_IV_LEN);
	for (i = 0; i < 8; i++)
		nonce[QUIC_IV_LEN - 1 - i] ^= (uint8_t)(pn >> (8 * i));
}

void quic_pp_keystream(const struct quic_aead *a,
                       const uint8_t nonce[QUIC_IV_LEN], uint64_t block,
                       uint8_t out[16])
{
	uint8_t ctr[16];
	uint32_t n = (uint32_t)(block + 2);

	memcpy(ctr, nonce, QUIC_IV_LEN);
	ctr[12] = (uint8_t)(n >> 24);
	ctr[13] = (uint8_t)(n >> 16);
	ctr[14] = (uint8_t)(n >> 8);
	ctr[15] = (uint8_t)n;
	if (a->key_len == 16)
		nettle_aes128.encrypt(&a->gcm.a128.cipher, 16, out, ctr);
	else
		nettle_aes256.encrypt(&a->gcm.a256.cipher, 16, out, ctr);
}

/*
 * A "cipher" whose key stream is zeros.  GCM's tag is GHASH over the AAD
 * and the ciphertext, xor the encrypted first counter block: it needs no
 * plaintext.  gcm_decrypt() through this hashes the ciphertext and
 * copies it; only the tag's counter block goes through AES.
 */
static void no_keystream(const void *ctx, size_t n, uint8_t *dst,
                         const uint8_t *src)
{
	(void)ctx;
	(void)src;
	memset(dst, 0, n);
}

/* A "cipher" that makes zeros: the tag's counter block left out. */
static void zeros(const void *ctx, size_t n, uint8_t *dst, const uint8_t *src)
{
	(void)ctx;
	(void)src;
	memset(dst, 0, n);
}

/*
 * GHASH of pkt with an AAD of aad_len bytes (the ciphertext running to
 * the tag), xor the encrypted counter block of the nonce when nonce is
 * not NULL, that is the tag; into out.  The message state is a gcm_ctx
 * of its own on the stack, so that the key's table is neither copied nor
 * written.
 */
static void hash_of(const struct quic_aead *a, const uint8_t *pkt,
                    size_t len, size_t aad_len,
                    const uint8_t nonce[QUIC_IV_LEN],
                    uint8_t out[QUIC_TAG_LEN])
{
	static const uint8_t none[QUIC_IV_LEN];
	const struct gcm_key *key;
	const void *cipher;
	nettle_cipher_func *f;
	struct gcm_ctx g;
	uint8_t buf[CHUNK];
	const uint8_t *ct = pkt + aad_len;
	size_t ct_len = len - aad_len - QUIC_TAG_LEN, i, n;

	if (a->key_len == 16) {
		key = &a->gcm.a128.key;
		cipher = &a->gcm.a128.cipher;
		f = nettle_aes128.encrypt;
	} else {
		key = &a->gcm.a256.key;
		cipher = &a->gcm.a256.cipher;
		f = nettle_aes256.encrypt;
	}
	gcm_set_iv(&g, key, QUIC_IV_LEN, nonce != NULL ? nonce : none);
	gcm_update(&g, key, aad_len, pkt);
	for (i = 0; i < ct_len; i += n) {
		n = ct_len - i < CHUNK ? ct_len - i : CHUNK;
		gcm_decrypt(&g, key, cipher, no_keystream, n, buf, ct + i);
	}
	gcm_digest(&g, key, cipher, nonce != NULL ? f : zeros, QUIC_TAG_LEN,
	           out);
	aesecb_wipe(&g, sizeof g);
}

/*
 * The tag checked with the full packet number pn: all ones when it
 * verifies, else 0.
 */
static uint32_t check_pn(const struct quic_aead *a, const uint8_t *pkt,
                         size_t len, size_t aad_len, uint64_t pn)
{
	uint8_t nonce[QUIC_IV_LEN], tag[QUIC_TAG_LEN];
	uint32_t good;

	quic_pp_nonce(a, pn, nonce);
	hash_of(a, pkt, len, aad_len, nonce, tag);
	good = 0u - (uint32_t)memeql_sec(tag, pkt + len - QUIC_TAG_LEN,
	                                  QUIC_TAG_LEN);
	aesecb_wipe(nonce, sizeof nonce);
	aesecb_wipe(tag, sizeof tag);
	return good;
}

/*
 * With no packet number known, the full one found from the tag: GCM's
 * tag is GHASH xor AES(K, nonce || 00000001), so AES^-1(K, tag xor GHASH)
 * is, for the key that made the tag, the nonce (the IV xor the full
 * packet number) and 00000001.  All ones when it is that for a number
 * below 2^32 whose low 8 * l bits are t (the number in *pn), else 0 (t in
 * *pn).  One AES block more than a check with a known number; what a
 * wrong key passes is a chance of 2^-(96 + 8 * l).
 */
static uint32_t find_pn(const struct quic_aead *a, const uint8_t *pkt,
                        size_t len, size_t aad_len, uint32_t l, uint32_t t,
                        uint64_t *pn)
{
	const uint8_t *sent = pkt + len - QUIC_TAG_LEN;
	uint8_t s[QUIC_TAG_LEN], x[16];
	uint32_t diff = 0, v = 0, low, good;
	size_t i;

	hash_of(a, pkt, len, aad_len, NULL, s);
	for (i = 0; i < QUIC_TAG_LEN; i++)
		s[i] ^= sent[i];
	aesecb_decrypt(&a->dec, s, x, 16);
	/* the nonce's first 8 bytes are the IV's (a number below 2^32) */
	for (i = 0; i < 8; i++)
		diff |= (uint32_t)(x[i] ^ a->iv[i]);
	diff |= (uint32_t)(x[12] | x[13] | x[14]) | (uint32_t)(x[15] ^ 1u);
	for (i = 8; i < QUIC_IV_LEN; i++)
		v = (v << 8) | (uint32_t)(x[i] ^ a->iv[i]);
	low = l >= 4 ? 0xffffffffu : ((uint32_t)1 << (8 * l)) - 1u;
	good = eq32(diff, 0) & eq32(v & low, t);
	*pn = (uint64_t)((v & good) | (t & ~good));
	aesecb_wipe(s, sizeof s);
	aesecb_wipe(x, sizeof x);
	return good;
}

int quic_pp_check(const struct quic_aead *a, const uint8_t *pkt, size_t len,
                  size_t pn_offset, uint64_t largest,
                  struct quic_pp_result *r)
{
	uint32_t pn_len, truncated = 0, ok = 0, l;
	uint64_t pn = 0;

	if (r == NULL)
		return QUIC_EINVAL;
	memset(r, 0, sizeof *r);
	if (a == NULL || pkt == NULL || (a->key_len != 16 && a->key_len != 32))
		return QUIC_EINVAL;
	if (len < QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN ||
	    pn_offset > len - QUIC_SAMPLE_GAP - QUIC_SAMPLE_LEN)
		return QUIC_ESAMPLE;
	pn_len = (pkt[0] & 3u) + 1;

	/*
	 * Every length from 1 to 4: its truncated and full packet numbers
	 * and its tag; keep the one of the packet's length.
	 */
	for (l = 1; l <= 4; l++) {
		uint32_t sel = eq32(l, pn_len), t = 0, i, good;
		uint64_t full, sel64 = 0 - (uint64_t)(sel & 1u);

		for (i = 0; i < l; i++)
			t = (t << 8) | pkt[pn_offset + i];
		if (largest == QUIC_PN_NONE) {
			good = find_pn(a, pkt, len, pn_offset + l, l, t, &full);
		} else {
			full = quic_pn_decode(largest, t, l);
			good = check_pn(a, pkt, len, pn_offset + l, full);
		}
		ok |= good & sel;
		truncated |= t & sel;
		pn |= full & sel64;
	}
	r->ok = (int)(ok & 1u);
	r->pn_len = pn_len;
	r->truncated = truncated;
	r->pn = pn;
	return QUIC_OK;
}

/* ------------------------------------------------------------------ */
/* Key updates. */

int quic_pp_next_secret_variant(enum quic_hash hash, uint32_t version,
                                unsigned variant, const uint8_t *secret,
                                size_t secret_len, uint8_t *out)
{
	const char *label = quic_ku_label(version, variant);

	if (label == NULL)
		return QUIC_EVERSION;
	if (out == NULL)
		return QUIC_EINVAL;
	return quic_hkdf_expand_label(hash, secret, secret_len, label, NULL, 0,
	                              out, quic_hash_len(hash));
}

int quic_pp_next_secret(enum quic_hash hash, uint32_t version,
                        const uint8_t *secret, size_t secret_len,
                        uint8_t *out)
{
	return quic_pp_next_secret_variant(hash, version, 0, secret,
	                                   secret_len, out);
}
