/* SPDX-License-Identifier: MIT */
/*
 * hp.c - every QUIC packet-protection key of an ngtcp2 0.12 connection
 * installed by the application, with libaesecb doing header protection.
 *
 * ngtcp2's GnuTLS helper derives and installs keys itself, and the hp
 * context it installs is a gnutls_cipher_hd_t made by a function the
 * packaged library neither exports nor declares.  So this file derives the
 * keys through the helper's public HKDF functions, makes the AEAD contexts
 * with the helper's public ngtcp2_crypto_aead_ctx_*_init(), and makes the
 * hp context itself: a struct hp_key holding an aesecb_ctx from
 * aesecb_ctx_new().  ngtcp2 owns installed contexts and gives each back to
 * hp_delete_crypto_cipher_ctx_cb() when it discards the key.
 */
#include "hp.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gnutls/crypto.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>

#include <aesecb.h>

/* Initial salts (RFC 9001 5.2; the QUIC v2 draft that ngtcp2 0.12 speaks as
 * NGTCP2_PROTO_VER_V2_DRAFT); ngtcp2 0.12's public headers lack them. */
static const uint8_t salt_v1[20] = {
	0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
	0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a
};
static const uint8_t salt_v2draft[20] = {
	0xa7, 0x07, 0xc2, 0x03, 0xa5, 0x9b, 0x47, 0x18, 0x4a, 0x1d,
	0x62, 0xca, 0x57, 0x04, 0x06, 0xea, 0x7a, 0xe3, 0xe5, 0xd3
};

/* The header-protection context: what ngtcp2 carries around as
 * hp_ctx->native_handle. */
struct hp_key {
	aesecb_ctx *aes;
	gnutls_cipher_hd_t ref;   /* GnuTLS AES, same key: check/timing only */
};

/* Samples kept in timing mode, replayed at exit under every backend. */
#define HP_REPLAY_MAX 65536

static struct {
	const aesecb_backend *be;
	const char *prog;
	struct hp_options opts;
	unsigned long long masks, checked, mismatches, failures, keys;
	size_t last_keylen;          /* hp key length of the latest key */
	/* timing mode */
	unsigned long long t_aesecb, t_helper, t_empty, t_calls;
	uint8_t (*samples)[16];
	size_t nsamples;
} g;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int hp_setup(const struct hp_options *opts, const char *prog)
{
	const char *reason = NULL;
	int rv;

	g.prog = prog;
	g.opts = *opts;
	/* $AESECB_BACKEND as the library reads it, else the best one here */
	rv = aesecb_backend_resolve(NULL, &g.be, &reason);
	if (rv != AESECB_OK) {
		fprintf(stderr, "%s: AESECB_BACKEND: %s\n", prog,
		        reason ? reason : aesecb_strerror(rv));
		return -1;
	}
	if (g.opts.timing) {
		g.samples = malloc(HP_REPLAY_MAX * sizeof *g.samples);
		if (!g.samples) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return -1;
		}
	}
	return 0;
}

const char *hp_backend_name(void)
{
	return aesecb_backend_name(g.be);
}

/* ---------------------------------------------------------------- contexts */

/* hp key -> the context ngtcp2 installs.  cipher is GnuTLS's name for the
 * header-protection cipher (AES-128/256 in CBC mode, as the helper names
 * it: one block from a zero IV is the ECB block QUIC asks for). */
static int hp_key_new(ngtcp2_crypto_cipher_ctx *out,
                      gnutls_cipher_algorithm_t cipher, const uint8_t *key,
                      size_t keylen)
{
	struct hp_key *k = calloc(1, sizeof *k);
	int rv;

	out->native_handle = NULL;
	if (!k)
		return -1;
	rv = aesecb_ctx_new(&k->aes, key, keylen, g.be);
	if (rv != AESECB_OK) {
		fprintf(stderr, "%s: aesecb_ctx_new: %s\n", g.prog, aesecb_strerror(rv));
		free(k);
		return -1;
	}
	if (g.opts.check || g.opts.timing) {
		gnutls_datum_t d = { (unsigned char *)key, (unsigned int)keylen };

		if (gnutls_cipher_init(&k->ref, cipher, &d, NULL) != 0) {
			aesecb_ctx_free(k->aes);
			free(k);
			return -1;
		}
	}
	out->native_handle = k;
	g.keys++;
	g.last_keylen = keylen;
	return 0;
}

static void hp_key_free(ngtcp2_crypto_cipher_ctx *c)
{
	struct hp_key *k = c->native_handle;

	if (!k)
		return;
	aesecb_ctx_free(k->aes);
	if (k->ref)
		gnutls_cipher_deinit(k->ref);
	free(k);
	c->native_handle = NULL;
}

void hp_delete_crypto_cipher_ctx_cb(ngtcp2_conn *conn,
                                    ngtcp2_crypto_cipher_ctx *cipher_ctx,
                                    void *user_data)
{
	(void)conn;
	(void)user_data;
	hp_key_free(cipher_ctx);
}

/* ---------------------------------------------------------------- masks */

/* Nonzero when the first 5 bytes differ, read without a branch on them
 * (a mask unmasks the packet number: no early exit as memcmp may take). */
static unsigned mask_differs(const uint8_t *a, const uint8_t *b)
{
	unsigned d = 0, i;

	for (i = 0; i < NGTCP2_HP_MASKLEN; i++)
		d |= (unsigned)(a[i] ^ b[i]);
	return d;
}

/* GnuTLS's AES on the same sample: one CBC block from a zero IV. */
static int ref_mask(gnutls_cipher_hd_t h, const uint8_t *sample, uint8_t out[16])
{
	static const uint8_t zero[16];

	gnutls_cipher_set_iv(h, (void *)zero, sizeof zero);
	return gnutls_cipher_encrypt2(h, sample, 16, out, 16);
}

static int check_mask(const uint8_t *mask, const struct hp_key *k,
                      const uint8_t *sample)
{
	uint8_t want[16];
	int rv;

	if (ref_mask(k->ref, sample, want) != 0) {
		fprintf(stderr, "%s: check: gnutls_cipher_encrypt2 failed\n", g.prog);
		return -1;
	}
	g.checked++;
	rv = mask_differs(want, mask) != 0;
	aesecb_wipe(want, sizeof want);
	if (rv) {
		if (g.mismatches++ == 0)
			fprintf(stderr, "%s: check: header-protection mask from backend %s differs from GnuTLS's AES\n",
			        g.prog, aesecb_backend_name(g.be));
		return -1;
	}
	return 0;
}

/* Timing mode: the aesecb call and the GnuTLS helper's own hp_mask
 * (ngtcp2_crypto_hp_mask, the function its hp_mask callback calls) on the
 * same sample, in alternating order, and an empty interval for the cost
 * of reading the clock. */
static int timed_mask(uint8_t *dest, const ngtcp2_crypto_cipher *hp,
                      const struct hp_key *k, const uint8_t *sample)
{
	ngtcp2_crypto_cipher_ctx rc = { k->ref };
	uint8_t other[16];
	uint64_t t0, t1, t2, t3;
	int rv, rh;

	if (g.t_calls & 1) {
		t0 = now_ns();
		rh = ngtcp2_crypto_hp_mask(other, hp, &rc, sample);
		t1 = now_ns();
		rv = aesecb_hp_mask(k->aes, sample, dest);
		t2 = now_ns();
		g.t_helper += t1 - t0;
		g.t_aesecb += t2 - t1;
	} else {
		t0 = now_ns();
		rv = aesecb_hp_mask(k->aes, sample, dest);
		t1 = now_ns();
		rh = ngtcp2_crypto_hp_mask(other, hp, &rc, sample);
		t2 = now_ns();
		g.t_aesecb += t1 - t0;
		g.t_helper += t2 - t1;
	}
	t3 = now_ns();
	g.t_empty += t3 - t2;
	g.t_calls++;
	if (g.nsamples < HP_REPLAY_MAX)
		memcpy(g.samples[g.nsamples++], sample, 16);
	if (rh != 0)
		return -1;
	rh = mask_differs(other, dest) != 0;
	aesecb_wipe(other, sizeof other);
	if (rv == AESECB_OK && rh) {
		if (g.mismatches++ == 0)
			fprintf(stderr, "%s: timing: mask from backend %s differs from the GnuTLS helper's\n",
			        g.prog, aesecb_backend_name(g.be));
		return -1;
	}
	return rv;
}

int hp_mask_cb(uint8_t *dest, const ngtcp2_crypto_cipher *hp,
               const ngtcp2_crypto_cipher_ctx *hp_ctx, const uint8_t *sample)
{
	const struct hp_key *k = hp_ctx->native_handle;
	int rv;

	if (g.opts.timing)
		rv = timed_mask(dest, hp, k, sample);
	else
		rv = aesecb_hp_mask(k->aes, sample, dest);
	if (rv != AESECB_OK) {
		g.failures++;
		return NGTCP2_ERR_CALLBACK_FAILURE;
	}
	g.masks++;
	if (g.opts.check && check_mask(dest, k, sample) != 0)
		return NGTCP2_ERR_CALLBACK_FAILURE;
	return 0;
}

/* ---------------------------------------------------------------- keys */

static int expand(uint8_t *dest, size_t destlen, const ngtcp2_crypto_md *md,
                  const uint8_t *secret, size_t secretlen, const char *label)
{
	return ngtcp2_crypto_hkdf_expand_label(dest, destlen, md, secret, secretlen,
	                                       (const uint8_t *)label, strlen(label));
}

/* Packet key, IV and header-protection key from a traffic secret (RFC 9001
 * 5.1; the v2 draft's labels for that version). */
static int derive_keys(uint8_t *key, size_t keylen, uint8_t *iv, size_t ivlen,
                       uint8_t *hpkey, uint32_t version,
                       const ngtcp2_crypto_md *md, const uint8_t *secret,
                       size_t secretlen)
{
	int v2 = version == NGTCP2_PROTO_VER_V2_DRAFT;

	if (expand(key, keylen, md, secret, secretlen, v2 ? "quicv2 key" : "quic key") != 0 ||
	    expand(iv, ivlen, md, secret, secretlen, v2 ? "quicv2 iv" : "quic iv") != 0 ||
	    expand(hpkey, keylen, md, secret, secretlen, v2 ? "quicv2 hp" : "quic hp") != 0)
		return -1;
	return 0;
}

/* The Initial crypto context: AEAD_AES_128_GCM, SHA-256, AES-128 header
 * protection, as GnuTLS names them (what the helper's own would hold). */
static void initial_ctx(ngtcp2_crypto_ctx *ctx)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->aead.native_handle = (void *)(intptr_t)GNUTLS_CIPHER_AES_128_GCM;
	ctx->aead.max_overhead = gnutls_cipher_get_tag_size(GNUTLS_CIPHER_AES_128_GCM);
	ngtcp2_crypto_md_init(&ctx->md, (void *)(intptr_t)GNUTLS_DIG_SHA256);
	ctx->hp.native_handle = (void *)(intptr_t)GNUTLS_CIPHER_AES_128_CBC;
}

/* The Retry integrity AEAD a client needs before its first Initial. */
static int set_retry_aead(ngtcp2_conn *conn, uint32_t version)
{
	static const uint8_t key_v1[] = NGTCP2_RETRY_KEY_V1;
	static const uint8_t key_v2[] = NGTCP2_RETRY_KEY_V2_DRAFT;
	ngtcp2_crypto_aead aead;
	ngtcp2_crypto_aead_ctx actx = { NULL };
	int v2 = version == NGTCP2_PROTO_VER_V2_DRAFT;

	aead.native_handle = (void *)(intptr_t)GNUTLS_CIPHER_AES_128_GCM;
	aead.max_overhead = gnutls_cipher_get_tag_size(GNUTLS_CIPHER_AES_128_GCM);
	if (ngtcp2_crypto_aead_ctx_encrypt_init(&actx, &aead, v2 ? key_v2 : key_v1,
	        v2 ? sizeof NGTCP2_RETRY_NONCE_V2_DRAFT - 1
	           : sizeof NGTCP2_RETRY_NONCE_V1 - 1) != 0)
		return -1;
	ngtcp2_conn_set_retry_aead(conn, &aead, &actx);
	return 0;
}

/* Initial keys from the client's DCID for version; vneg: the compatible
 * version negotiation's second set (ngtcp2_conn_install_vneg_initial_key). */
static int install_initial(ngtcp2_conn *conn, uint32_t version,
                           const ngtcp2_cid *dcid, int vneg)
{
	ngtcp2_crypto_ctx ctx;
	ngtcp2_crypto_aead_ctx rx_aead = { NULL }, tx_aead = { NULL };
	ngtcp2_crypto_cipher_ctx rx_hp = { NULL }, tx_hp = { NULL };
	uint8_t initial[32], csecret[32], ssecret[32];
	uint8_t rx_key[16], rx_iv[12], rx_hpkey[16], tx_key[16], tx_iv[12], tx_hpkey[16];
	int server = ngtcp2_conn_is_server(conn);
	const uint8_t *salt = version == NGTCP2_PROTO_VER_V2_DRAFT ? salt_v2draft : salt_v1;
	int rv = -1;

	if (vneg)
		ctx = *ngtcp2_conn_get_initial_crypto_ctx(conn);
	else
		initial_ctx(&ctx);
	if (ngtcp2_crypto_hkdf_extract(initial, &ctx.md, dcid->data, dcid->datalen,
	                               salt, sizeof salt_v1) != 0 ||
	    expand(csecret, sizeof csecret, &ctx.md, initial, sizeof initial, "client in") != 0 ||
	    expand(ssecret, sizeof ssecret, &ctx.md, initial, sizeof initial, "server in") != 0 ||
	    derive_keys(rx_key, sizeof rx_key, rx_iv, sizeof rx_iv, rx_hpkey, version,
	                &ctx.md, server ? csecret : ssecret, sizeof csecret) != 0 ||
	    derive_keys(tx_key, sizeof tx_key, tx_iv, sizeof tx_iv, tx_hpkey, version,
	                &ctx.md, server ? ssecret : csecret, sizeof csecret) != 0)
		goto out;
	if (ngtcp2_crypto_aead_ctx_decrypt_init(&rx_aead, &ctx.aead, rx_key, sizeof rx_iv) != 0 ||
	    ngtcp2_crypto_aead_ctx_encrypt_init(&tx_aead, &ctx.aead, tx_key, sizeof tx_iv) != 0 ||
	    hp_key_new(&rx_hp, GNUTLS_CIPHER_AES_128_CBC, rx_hpkey, sizeof rx_hpkey) != 0 ||
	    hp_key_new(&tx_hp, GNUTLS_CIPHER_AES_128_CBC, tx_hpkey, sizeof tx_hpkey) != 0)
		goto out;
	if (vneg) {
		rv = ngtcp2_conn_install_vneg_initial_key(conn, version, &rx_aead, rx_iv,
		        &rx_hp, &tx_aead, tx_iv, &tx_hp, sizeof rx_iv);
	} else {
		ngtcp2_conn_set_initial_crypto_ctx(conn, &ctx);
		rv = ngtcp2_conn_install_initial_key(conn, &rx_aead, rx_iv, &rx_hp,
		        &tx_aead, tx_iv, &tx_hp, sizeof rx_iv);
	}
	/* installed: conn owns the contexts now */
	if (rv == 0 && !vneg && !server && !ngtcp2_conn_after_retry(conn) &&
	    set_retry_aead(conn, version) != 0) {
		rv = -1;
		goto wipe;
	}
out:
	if (rv != 0) {
		hp_key_free(&rx_hp);
		hp_key_free(&tx_hp);
		ngtcp2_crypto_aead_ctx_free(&rx_aead);
		ngtcp2_crypto_aead_ctx_free(&tx_aead);
		rv = -1;
	}
wipe:
	aesecb_wipe(initial, sizeof initial);
	aesecb_wipe(csecret, sizeof csecret);
	aesecb_wipe(ssecret, sizeof ssecret);
	aesecb_wipe(rx_key, sizeof rx_key);
	aesecb_wipe(tx_key, sizeof tx_key);
	aesecb_wipe(rx_hpkey, sizeof rx_hpkey);
	aesecb_wipe(tx_hpkey, sizeof tx_hpkey);
	aesecb_wipe(rx_iv, sizeof rx_iv);
	aesecb_wipe(tx_iv, sizeof tx_iv);
	return rv;
}

int hp_client_initial_cb(ngtcp2_conn *conn, void *user_data)
{
	(void)user_data;
	if (install_initial(conn, ngtcp2_conn_get_client_chosen_version(conn),
	                    ngtcp2_conn_get_dcid(conn), 0) != 0)
		return NGTCP2_ERR_CALLBACK_FAILURE;
	/* the ClientHello (the transport parameters go in through the GnuTLS
	 * extension the helper registered) */
	if (ngtcp2_crypto_read_write_crypto_data(conn, NGTCP2_CRYPTO_LEVEL_INITIAL,
	                                         NULL, 0) != 0)
		return NGTCP2_ERR_CALLBACK_FAILURE;
	return 0;
}

int hp_recv_retry_cb(ngtcp2_conn *conn, const ngtcp2_pkt_hd *hd, void *user_data)
{
	(void)user_data;
	/* the server's new connection ID keys the Initial packets from now on */
	if (install_initial(conn, ngtcp2_conn_get_client_chosen_version(conn),
	                    &hd->scid, 0) != 0)
		return NGTCP2_ERR_CALLBACK_FAILURE;
	return 0;
}

int hp_recv_client_initial_cb(ngtcp2_conn *conn, const ngtcp2_cid *dcid,
                              void *user_data)
{
	(void)user_data;
	if (install_initial(conn, ngtcp2_conn_get_client_chosen_version(conn),
	                    dcid, 0) != 0)
		return NGTCP2_ERR_CALLBACK_FAILURE;
	return 0;
}

int hp_version_negotiation_cb(ngtcp2_conn *conn, uint32_t version,
                              const ngtcp2_cid *client_dcid, void *user_data)
{
	(void)user_data;
	if (install_initial(conn, version, client_dcid, 1) != 0)
		return NGTCP2_ERR_CALLBACK_FAILURE;
	return 0;
}

/* Handshake or 1-RTT key, one direction, from a TLS traffic secret. */
static int install_key(ngtcp2_conn *conn, gnutls_session_t session,
                       ngtcp2_crypto_level level, int tx,
                       const uint8_t *secret, size_t secretlen)
{
	const ngtcp2_crypto_ctx *ctx = ngtcp2_conn_get_crypto_ctx(conn);
	ngtcp2_crypto_aead_ctx aead = { NULL };
	ngtcp2_crypto_cipher_ctx hpc = { NULL };
	gnutls_cipher_algorithm_t hpcipher;
	uint8_t key[32], iv[32], hpkey[32];
	size_t keylen, ivlen;
	int rv = -1;

	if (!ctx->aead.native_handle) {
		ngtcp2_crypto_ctx c;

		memset(&c, 0, sizeof c);
		ngtcp2_crypto_ctx_tls(&c, session);
		ngtcp2_conn_set_crypto_ctx(conn, &c);
		ctx = ngtcp2_conn_get_crypto_ctx(conn);
	}
	hpcipher = (gnutls_cipher_algorithm_t)(intptr_t)ctx->hp.native_handle;
	if (hpcipher != GNUTLS_CIPHER_AES_128_CBC && hpcipher != GNUTLS_CIPHER_AES_256_CBC) {
		fprintf(stderr, "%s: the negotiated cipher suite (%s) does not protect headers with AES: leave ChaCha20-Poly1305 out of the GnuTLS priority string\n",
		        g.prog, gnutls_cipher_get_name(gnutls_cipher_get(session)));
		return -1;
	}
	keylen = ngtcp2_crypto_aead_keylen(&ctx->aead);
	ivlen = ngtcp2_crypto_packet_protection_ivlen(&ctx->aead);
	if (keylen > sizeof key || ivlen > sizeof iv)
		return -1;
	if (derive_keys(key, keylen, iv, ivlen, hpkey,
	                ngtcp2_conn_get_negotiated_version(conn), &ctx->md,
	                secret, secretlen) != 0)
		goto out;
	if ((tx ? ngtcp2_crypto_aead_ctx_encrypt_init(&aead, &ctx->aead, key, ivlen)
	        : ngtcp2_crypto_aead_ctx_decrypt_init(&aead, &ctx->aead, key, ivlen)) != 0 ||
	    hp_key_new(&hpc, hpcipher, hpkey, keylen) != 0)
		goto out;
	switch (level) {
	case NGTCP2_CRYPTO_LEVEL_HANDSHAKE:
		rv = tx ? ngtcp2_conn_install_tx_handshake_key(conn, &aead, iv, ivlen, &hpc)
		        : ngtcp2_conn_install_rx_handshake_key(conn, &aead, iv, ivlen, &hpc);
		break;
	case NGTCP2_CRYPTO_LEVEL_APPLICATION:
		/* ngtcp2 keeps the secret for key updates (done by the helper's
		 * update_key callback: AEAD keys only, the hp key stays) */
		rv = tx ? ngtcp2_conn_install_tx_key(conn, secret, secretlen, &aead, iv, ivlen, &hpc)
		        : ngtcp2_conn_install_rx_key(conn, secret, secretlen, &aead, iv, ivlen, &hpc);
		break;
	default:
		break;
	}
out:
	if (rv != 0) {
		hp_key_free(&hpc);
		ngtcp2_crypto_aead_ctx_free(&aead);
		rv = -1;
	}
	aesecb_wipe(key, sizeof key);
	aesecb_wipe(iv, sizeof iv);
	aesecb_wipe(hpkey, sizeof hpkey);
	return rv;
}

/* Replaces the secret function that ngtcp2_crypto_gnutls_configure_*_session
 * set: the same job (install the keys of each new level, both directions),
 * with our hp contexts. */
static int secret_func(gnutls_session_t session,
                       gnutls_record_encryption_level_t glevel,
                       const void *rx_secret, const void *tx_secret,
                       size_t secretlen)
{
	ngtcp2_crypto_conn_ref *ref = gnutls_session_get_ptr(session);
	ngtcp2_conn *conn = ref->get_conn(ref);
	ngtcp2_crypto_level level;

	switch (glevel) {
	case GNUTLS_ENCRYPTION_LEVEL_HANDSHAKE:
	case GNUTLS_ENCRYPTION_LEVEL_APPLICATION:
		break;
	default:
		/* 0-RTT: the sessions here never enable early data */
		return 0;
	}
	level = ngtcp2_crypto_gnutls_from_gnutls_record_encryption_level(glevel);
	if (rx_secret && install_key(conn, session, level, 0, rx_secret, secretlen) != 0)
		return -1;
	if (tx_secret && install_key(conn, session, level, 1, tx_secret, secretlen) != 0)
		return -1;
	return 0;
}

int hp_configure_client_session(gnutls_session_t session)
{
	if (ngtcp2_crypto_gnutls_configure_client_session(session) != 0)
		return -1;
	gnutls_handshake_set_secret_function(session, secret_func);
	return 0;
}

int hp_configure_server_session(gnutls_session_t session)
{
	if (ngtcp2_crypto_gnutls_configure_server_session(session) != 0)
		return -1;
	gnutls_handshake_set_secret_function(session, secret_func);
	return 0;
}

/* ---------------------------------------------------------------- report */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define HP_ROUNDS 7

/* ns per mask over the kept samples: each available backend and the GnuTLS
 * helper, rounds interleaved, median of each. */
static void replay(FILE *out)
{
	size_t nb = aesecb_backend_count(), i, r, s;
	size_t keylen = g.last_keylen ? g.last_keylen : 16;
	gnutls_cipher_algorithm_t gc = keylen == 32 ? GNUTLS_CIPHER_AES_256_CBC
	                                            : GNUTLS_CIPHER_AES_128_CBC;
	ngtcp2_crypto_cipher hp = { (void *)(intptr_t)gc };
	ngtcp2_crypto_cipher_ctx rc = { NULL };
	gnutls_cipher_hd_t h;
	uint8_t key[32], mask[16];
	double t[16 + 1][HP_ROUNDS];
	aesecb_ctx *ctx[16] = { NULL };
	gnutls_datum_t d = { key, (unsigned int)keylen };
	volatile uint8_t sink = 0;

	if (g.nsamples == 0 || nb > 16)
		return;
	if (gnutls_rnd(GNUTLS_RND_NONCE, key, sizeof key) != 0 ||
	    gnutls_cipher_init(&h, gc, &d, NULL) != 0)
		return;
	rc.native_handle = h;
	for (i = 0; i < nb; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (aesecb_backend_available(be) &&
		    aesecb_ctx_new(&ctx[i], key, keylen, be) != AESECB_OK)
			ctx[i] = NULL;
	}
	aesecb_wipe(key, sizeof key);
	/* each round starts with another one: no fixed order */
	for (r = 0; r < HP_ROUNDS; r++) {
		size_t j;

		for (j = 0; j <= nb; j++) {
			uint64_t t0;

			i = (j + r) % (nb + 1);
			if (i < nb && !ctx[i])
				continue;
			t0 = now_ns();
			if (i < nb) {
				for (s = 0; s < g.nsamples; s++) {
					aesecb_hp_mask(ctx[i], g.samples[s], mask);
					sink ^= mask[0];
				}
			} else {
				for (s = 0; s < g.nsamples; s++) {
					ngtcp2_crypto_hp_mask(mask, &hp, &rc, g.samples[s]);
					sink ^= mask[0];
				}
			}
			t[i][r] = (double)(now_ns() - t0) / (double)g.nsamples;
		}
	}
	(void)sink;
	fprintf(out, "aesecb-hp: replay of %zu samples, AES-%zu, ns per mask (median of %d):",
	        g.nsamples, keylen * 8, HP_ROUNDS);
	for (i = 0; i <= nb; i++) {
		if (i < nb && !ctx[i])
			continue;
		qsort(t[i], HP_ROUNDS, sizeof t[i][0], cmp_double);
		fprintf(out, " %s %.1f", i < nb ? aesecb_backend_name(aesecb_backend_get(i))
		                                : "gnutls-helper", t[i][HP_ROUNDS / 2]);
	}
	fputc('\n', out);
	for (i = 0; i < nb; i++)
		aesecb_ctx_free(ctx[i]);
	gnutls_cipher_deinit(h);
}

int hp_report(FILE *out, gnutls_session_t session)
{
	const char *cs = session ? gnutls_cipher_get_name(gnutls_cipher_get(session)) : NULL;

	fprintf(out, "aesecb-hp: backend %s, cipher %s, %llu masks, %llu checked, %llu mismatches, %llu keys\n",
	        aesecb_backend_name(g.be), cs ? cs : "none", g.masks, g.checked,
	        g.mismatches, g.keys);
	if (g.opts.timing && g.t_calls) {
		double n = (double)g.t_calls, e = (double)g.t_empty / n;

		fprintf(out, "aesecb-hp: in-stack ns per mask over %llu callbacks: aesecb %.1f, gnutls-helper %.1f (clock read %.1f subtracted)\n",
		        g.t_calls, (double)g.t_aesecb / n - e, (double)g.t_helper / n - e, e);
		replay(out);
	}
	return g.mismatches != 0 || g.failures != 0;
}

void hp_finish(void)
{
	free(g.samples);
	g.samples = NULL;
}
