/* SPDX-License-Identifier: MIT */
/*
 * hp.h - QUIC header protection by libaesecb inside ngtcp2 0.12 with the
 * GnuTLS helper (libngtcp2_crypto_gnutls).
 *
 * The helper keeps doing the TLS handshake, the AEAD packet protection and
 * key updates; this module installs every packet-protection key itself so
 * that the header-protection context it hands to ngtcp2 is an aesecb_ctx,
 * and answers ngtcp2's hp_mask callback with aesecb_hp_mask().
 *
 * What an application does (see README.md in this directory):
 *   - hp_setup() once (backend from $AESECB_BACKEND, check and timing modes);
 *   - hp_configure_client_session() / hp_configure_server_session() instead
 *     of ngtcp2_crypto_gnutls_configure_*_session(), and a GnuTLS priority
 *     string without ChaCha20-Poly1305 (HP_PRIORITY_CIPHERS);
 *   - these functions in ngtcp2_callbacks: client_initial, recv_retry
 *     (client), recv_client_initial (server), version_negotiation, hp_mask,
 *     delete_crypto_cipher_ctx;
 *   - hp_report() at exit, hp_finish() last.
 */
#ifndef EXAMPLES_NGTCP2_HP_H
#define EXAMPLES_NGTCP2_HP_H

#include <stdint.h>
#include <stdio.h>

#include <gnutls/gnutls.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>

/* TLS 1.3 cipher suites whose QUIC header protection is AES (RFC 9001
 * 5.4.3): ChaCha20-Poly1305 left out. */
#define HP_PRIORITY_CIPHERS "+AES-128-GCM:+AES-256-GCM:+AES-128-CCM"

struct hp_options {
	int check;   /* compare every mask with GnuTLS's AES */
	int timing;  /* time each callback against the GnuTLS helper's */
};

/* Chooses the backend ($AESECB_BACKEND, else the library's default).
 * Prints one line on stderr and returns -1 when that backend cannot run. */
int hp_setup(const struct hp_options *opts, const char *prog);
const char *hp_backend_name(void);

/* ngtcp2_crypto_gnutls_configure_*_session(), then the secret function that
 * installs the Handshake and 1-RTT keys with aesecb header protection. */
int hp_configure_client_session(gnutls_session_t session);
int hp_configure_server_session(gnutls_session_t session);

/* ngtcp2 callbacks */
int hp_client_initial_cb(ngtcp2_conn *conn, void *user_data);
int hp_recv_retry_cb(ngtcp2_conn *conn, const ngtcp2_pkt_hd *hd,
                     void *user_data);
int hp_recv_client_initial_cb(ngtcp2_conn *conn, const ngtcp2_cid *dcid,
                              void *user_data);
int hp_version_negotiation_cb(ngtcp2_conn *conn, uint32_t version,
                              const ngtcp2_cid *client_dcid, void *user_data);
int hp_mask_cb(uint8_t *dest, const ngtcp2_crypto_cipher *hp,
               const ngtcp2_crypto_cipher_ctx *hp_ctx, const uint8_t *sample);
void hp_delete_crypto_cipher_ctx_cb(ngtcp2_conn *conn,
                                    ngtcp2_crypto_cipher_ctx *cipher_ctx,
                                    void *user_data);

/* What was done: "aesecb-hp: ..." lines (backend, cipher suite, number of
 * masks, checked and mismatched ones; timing figures in timing mode).
 * session may be NULL (no cipher suite named).  Returns nonzero when a
 * mask mismatched. */
int hp_report(FILE *out, gnutls_session_t session);
/* Frees what hp_setup() and timing mode kept. */
void hp_finish(void);

#endif
