/* SPDX-License-Identifier: MIT */
/*
 * common.h - what the example client and server share: one QUIC connection
 * over one UDP socket, HTTP/3 by nghttp3 on top, a poll() loop with a
 * deadline.  Nothing here is about header protection (that is hp.h).
 */
#ifndef EXAMPLES_NGTCP2_COMMON_H
#define EXAMPLES_NGTCP2_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <gnutls/gnutls.h>
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>

struct ex_conn {
	ngtcp2_crypto_conn_ref ref;     /* gnutls_session_set_ptr() */
	ngtcp2_conn *q;
	nghttp3_conn *h;
	gnutls_session_t tls;
	int fd;
	struct sockaddr_storage local, remote;
	socklen_t locallen, remotelen;
	ngtcp2_connection_close_error last_error;
	int failed;                     /* an error ended the connection */
	int closed;                     /* nothing more to send or receive */
	unsigned key_updates;           /* 1-RTT key updates (AEAD keys only) */
	const char *prog;
	int verbose;
	/* set by the program before ex_h3_setup() */
	int is_server;
	nghttp3_callbacks h3cb;
	void *app;                      /* the program's own state */
};

uint64_t ex_timestamp(void);
void ex_rand_cb(uint8_t *dest, size_t destlen, const ngtcp2_rand_ctx *rand_ctx);
int ex_get_new_connection_id_cb(ngtcp2_conn *conn, ngtcp2_cid *cid,
                                uint8_t *token, size_t cidlen, void *user_data);
int ex_random(void *p, size_t n);

/* ngtcp2 callbacks that hand stream events to nghttp3 */
int ex_recv_stream_data_cb(ngtcp2_conn *conn, uint32_t flags, int64_t stream_id,
                           uint64_t offset, const uint8_t *data, size_t datalen,
                           void *user_data, void *stream_user_data);
int ex_acked_stream_data_offset_cb(ngtcp2_conn *conn, int64_t stream_id,
                                   uint64_t offset, uint64_t datalen,
                                   void *user_data, void *stream_user_data);
int ex_stream_close_cb(ngtcp2_conn *conn, uint32_t flags, int64_t stream_id,
                       uint64_t app_error_code, void *user_data,
                       void *stream_user_data);
int ex_stream_reset_cb(ngtcp2_conn *conn, int64_t stream_id, uint64_t final_size,
                       uint64_t app_error_code, void *user_data,
                       void *stream_user_data);
int ex_stream_stop_sending_cb(ngtcp2_conn *conn, int64_t stream_id,
                              uint64_t app_error_code, void *user_data,
                              void *stream_user_data);
int ex_extend_max_stream_data_cb(ngtcp2_conn *conn, int64_t stream_id,
                                 uint64_t max_data, void *user_data,
                                 void *stream_user_data);
int ex_extend_max_remote_streams_bidi_cb(ngtcp2_conn *conn, uint64_t max_streams,
                                         void *user_data);

/* The GnuTLS helper's update_key, counted. */
int ex_update_key_cb(ngtcp2_conn *conn, uint8_t *rx_secret, uint8_t *tx_secret,
                     ngtcp2_crypto_aead_ctx *rx_aead_ctx, uint8_t *rx_iv,
                     ngtcp2_crypto_aead_ctx *tx_aead_ctx, uint8_t *tx_iv,
                     const uint8_t *current_rx_secret,
                     const uint8_t *current_tx_secret, size_t secretlen,
                     void *user_data);

/* nghttp3 callbacks the two programs share (flow control, stream ends) */
int ex_h3_deferred_consume(nghttp3_conn *h, int64_t stream_id, size_t consumed,
                           void *conn_user_data, void *stream_user_data);
int ex_h3_stop_sending(nghttp3_conn *h, int64_t stream_id, uint64_t app_error_code,
                       void *conn_user_data, void *stream_user_data);
int ex_h3_reset_stream(nghttp3_conn *h, int64_t stream_id, uint64_t app_error_code,
                       void *conn_user_data, void *stream_user_data);
/* the body bytes nghttp3 handed to recv_data are consumed */
void ex_h3_consume(struct ex_conn *c, int64_t stream_id, size_t n);

/* The HTTP/3 connection and its three unidirectional streams, once the
 * 1-RTT keys are there.  0 or -1. */
int ex_h3_setup(struct ex_conn *c);

/* One datagram in, everything that can be sent out. */
int ex_feed(struct ex_conn *c, const uint8_t *data, size_t len,
            const struct sockaddr *from, socklen_t fromlen);
int ex_write(struct ex_conn *c);
/* Runs until the connection is closed, done() returns nonzero (then a
 * CONNECTION_CLOSE with no error is sent), or deadline (ex_timestamp()
 * units) passes.  0 when closed cleanly or done, -1 otherwise. */
int ex_run(struct ex_conn *c, uint64_t deadline, int (*done)(struct ex_conn *));
/* Sends CONNECTION_CLOSE carrying c->last_error. */
void ex_close(struct ex_conn *c);

/* "127.0.0.1", port -> a bound UDP socket (port 0: the system picks). */
int ex_udp_socket(const char *host, const char *port, int do_bind,
                  struct sockaddr_storage *addr, socklen_t *addrlen);
/* The GnuTLS priority string: TLS 1.3, the AES cipher suites (one of them
 * when cipher is "AES-128-GCM" or "AES-256-GCM"). */
const char *ex_priority(const char *cipher);
void ex_log_printf(void *user_data, const char *fmt, ...);

#endif
