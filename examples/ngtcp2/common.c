/* SPDX-License-Identifier: MIT */
/*
 * common.c - the QUIC connection loop and the ngtcp2 <-> nghttp3 glue the
 * example client and server share.
 */
#include "common.h"
#include "hp.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gnutls/crypto.h>

uint64_t ex_timestamp(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NGTCP2_SECONDS + (uint64_t)ts.tv_nsec;
}

int ex_random(void *p, size_t n)
{
	return gnutls_rnd(GNUTLS_RND_RANDOM, p, n) == 0 ? 0 : -1;
}

void ex_rand_cb(uint8_t *dest, size_t destlen, const ngtcp2_rand_ctx *rand_ctx)
{
	(void)rand_ctx;
	if (gnutls_rnd(GNUTLS_RND_NONCE, dest, destlen) != 0)
		memset(dest, 0, destlen);
}

int ex_get_new_connection_id_cb(ngtcp2_conn *conn, ngtcp2_cid *cid,
                                uint8_t *token, size_t cidlen, void *user_data)
{
	(void)conn;
	(void)user_data;
	if (ex_random(cid->data, cidlen) != 0 ||
	    ex_random(token, NGTCP2_STATELESS_RESET_TOKENLEN) != 0)
		return NGTCP2_ERR_CALLBACK_FAILURE;
	cid->datalen = cidlen;
	return 0;
}

int ex_update_key_cb(ngtcp2_conn *conn, uint8_t *rx_secret, uint8_t *tx_secret,
                     ngtcp2_crypto_aead_ctx *rx_aead_ctx, uint8_t *rx_iv,
                     ngtcp2_crypto_aead_ctx *tx_aead_ctx, uint8_t *tx_iv,
                     const uint8_t *current_rx_secret,
                     const uint8_t *current_tx_secret, size_t secretlen,
                     void *user_data)
{
	struct ex_conn *c = user_data;

	c->key_updates++;
	return ngtcp2_crypto_update_key_cb(conn, rx_secret, tx_secret, rx_aead_ctx,
	                                   rx_iv, tx_aead_ctx, tx_iv,
	                                   current_rx_secret, current_tx_secret,
	                                   secretlen, user_data);
}

void ex_log_printf(void *user_data, const char *fmt, ...)
{
	va_list ap;

	(void)user_data;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *ex_priority(const char *cipher)
{
	/* %DISABLE_TLS13_COMPAT_MODE: QUIC has no middlebox compatibility
	 * mode (RFC 9001 8.4) */
	if (cipher && strcmp(cipher, "AES-128-GCM") == 0)
		return "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM:%DISABLE_TLS13_COMPAT_MODE";
	if (cipher && strcmp(cipher, "AES-256-GCM") == 0)
		return "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-256-GCM:%DISABLE_TLS13_COMPAT_MODE";
	if (cipher)
		return NULL;
	return "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:" HP_PRIORITY_CIPHERS
	       ":%DISABLE_TLS13_COMPAT_MODE";
}

int ex_udp_socket(const char *host, const char *port, int do_bind,
                  struct sockaddr_storage *addr, socklen_t *addrlen)
{
	struct addrinfo hints, *res;
	int fd, rv;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	rv = getaddrinfo(host, port, &hints, &res);
	if (rv != 0) {
		fprintf(stderr, "address %s port %s: %s\n", host, port, gai_strerror(rv));
		return -1;
	}
	fd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
	if (fd < 0) {
		perror("socket");
		freeaddrinfo(res);
		return -1;
	}
	memcpy(addr, res->ai_addr, res->ai_addrlen);
	*addrlen = res->ai_addrlen;
	freeaddrinfo(res);
	if (do_bind) {
		if (bind(fd, (struct sockaddr *)addr, *addrlen) != 0) {
			perror("bind");
			close(fd);
			return -1;
		}
		if (getsockname(fd, (struct sockaddr *)addr, addrlen) != 0) {
			perror("getsockname");
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* ---------------------------------------------------------------- streams */

void ex_h3_consume(struct ex_conn *c, int64_t stream_id, size_t n)
{
	ngtcp2_conn_extend_max_stream_offset(c->q, stream_id, n);
	ngtcp2_conn_extend_max_offset(c->q, n);
}

static int h3_fail(struct ex_conn *c, const char *what, int rv)
{
	fprintf(stderr, "%s: %s: %s\n", c->prog, what, nghttp3_strerror(rv));
	ngtcp2_connection_close_error_set_application_error(
	    &c->last_error, nghttp3_err_infer_quic_app_error_code(rv), NULL, 0);
	c->failed = 1;
	return NGTCP2_ERR_CALLBACK_FAILURE;
}

int ex_recv_stream_data_cb(ngtcp2_conn *conn, uint32_t flags, int64_t stream_id,
                           uint64_t offset, const uint8_t *data, size_t datalen,
                           void *user_data, void *stream_user_data)
{
	struct ex_conn *c = user_data;
	nghttp3_ssize n;

	(void)conn;
	(void)offset;
	(void)stream_user_data;
	if (!c->h && ex_h3_setup(c) != 0)
		return NGTCP2_ERR_CALLBACK_FAILURE;
	n = nghttp3_conn_read_stream(c->h, stream_id, data, datalen,
	                             (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0);
	if (n < 0)
		return h3_fail(c, "nghttp3_conn_read_stream", (int)n);
	ex_h3_consume(c, stream_id, (size_t)n);
	return 0;
}

int ex_acked_stream_data_offset_cb(ngtcp2_conn *conn, int64_t stream_id,
                                   uint64_t offset, uint64_t datalen,
                                   void *user_data, void *stream_user_data)
{
	struct ex_conn *c = user_data;
	int rv;

	(void)conn;
	(void)offset;
	(void)stream_user_data;
	if (!c->h)
		return 0;
	rv = nghttp3_conn_add_ack_offset(c->h, stream_id, datalen);
	return rv == 0 ? 0 : h3_fail(c, "nghttp3_conn_add_ack_offset", rv);
}

int ex_stream_close_cb(ngtcp2_conn *conn, uint32_t flags, int64_t stream_id,
                       uint64_t app_error_code, void *user_data,
                       void *stream_user_data)
{
	struct ex_conn *c = user_data;
	int rv;

	(void)stream_user_data;
	if (!(flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET))
		app_error_code = NGHTTP3_H3_NO_ERROR;
	if (!c->h)
		return 0;
	rv = nghttp3_conn_close_stream(c->h, stream_id, app_error_code);
	if (rv != 0 && rv != NGHTTP3_ERR_STREAM_NOT_FOUND)
		return h3_fail(c, "nghttp3_conn_close_stream", rv);
	/* a server lets the client open another request stream */
	if (c->is_server && ngtcp2_is_bidi_stream(stream_id))
		ngtcp2_conn_extend_max_streams_bidi(conn, 1);
	return 0;
}

int ex_stream_reset_cb(ngtcp2_conn *conn, int64_t stream_id, uint64_t final_size,
                       uint64_t app_error_code, void *user_data,
                       void *stream_user_data)
{
	struct ex_conn *c = user_data;
	int rv;

	(void)conn;
	(void)final_size;
	(void)app_error_code;
	(void)stream_user_data;
	if (!c->h)
		return 0;
	rv = nghttp3_conn_shutdown_stream_read(c->h, stream_id);
	return rv == 0 ? 0 : h3_fail(c, "nghttp3_conn_shutdown_stream_read", rv);
}

int ex_stream_stop_sending_cb(ngtcp2_conn *conn, int64_t stream_id,
                              uint64_t app_error_code, void *user_data,
                              void *stream_user_data)
{
	return ex_stream_reset_cb(conn, stream_id, 0, app_error_code, user_data,
	                          stream_user_data);
}

int ex_extend_max_stream_data_cb(ngtcp2_conn *conn, int64_t stream_id,
                                 uint64_t max_data, void *user_data,
                                 void *stream_user_data)
{
	struct ex_conn *c = user_data;
	int rv;

	(void)conn;
	(void)max_data;
	(void)stream_user_data;
	if (!c->h)
		return 0;
	rv = nghttp3_conn_unblock_stream(c->h, stream_id);
	return rv == 0 ? 0 : h3_fail(c, "nghttp3_conn_unblock_stream", rv);
}

int ex_extend_max_remote_streams_bidi_cb(ngtcp2_conn *conn, uint64_t max_streams,
                                         void *user_data)
{
	struct ex_conn *c = user_data;

	(void)conn;
	if (c->h)
		nghttp3_conn_set_max_client_streams_bidi(c->h, max_streams);
	return 0;
}

int ex_h3_deferred_consume(nghttp3_conn *h, int64_t stream_id, size_t consumed,
                           void *conn_user_data, void *stream_user_data)
{
	(void)h;
	(void)stream_user_data;
	ex_h3_consume(conn_user_data, stream_id, consumed);
	return 0;
}

int ex_h3_stop_sending(nghttp3_conn *h, int64_t stream_id, uint64_t app_error_code,
                       void *conn_user_data, void *stream_user_data)
{
	struct ex_conn *c = conn_user_data;

	(void)h;
	(void)stream_user_data;
	return ngtcp2_conn_shutdown_stream_read(c->q, stream_id, app_error_code) == 0
	           ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
}

int ex_h3_reset_stream(nghttp3_conn *h, int64_t stream_id, uint64_t app_error_code,
                       void *conn_user_data, void *stream_user_data)
{
	struct ex_conn *c = conn_user_data;

	(void)h;
	(void)stream_user_data;
	return ngtcp2_conn_shutdown_stream_write(c->q, stream_id, app_error_code) == 0
	           ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
}

int ex_h3_setup(struct ex_conn *c)
{
	nghttp3_settings settings;
	int64_t ctrl, qenc, qdec;
	int rv;

	if (c->h)
		return 0;
	nghttp3_settings_default(&settings);
	settings.qpack_max_dtable_capacity = 4096;
	settings.qpack_blocked_streams = 100;
	rv = c->is_server
	         ? nghttp3_conn_server_new(&c->h, &c->h3cb, &settings, nghttp3_mem_default(), c)
	         : nghttp3_conn_client_new(&c->h, &c->h3cb, &settings, nghttp3_mem_default(), c);
	if (rv != 0) {
		fprintf(stderr, "%s: nghttp3_conn_*_new: %s\n", c->prog, nghttp3_strerror(rv));
		return -1;
	}
	if (c->is_server)
		nghttp3_conn_set_max_client_streams_bidi(
		    c->h, ngtcp2_conn_get_local_transport_params(c->q)->initial_max_streams_bidi);
	if (ngtcp2_conn_open_uni_stream(c->q, &ctrl, NULL) != 0 ||
	    ngtcp2_conn_open_uni_stream(c->q, &qenc, NULL) != 0 ||
	    ngtcp2_conn_open_uni_stream(c->q, &qdec, NULL) != 0) {
		fprintf(stderr, "%s: the peer allows too few unidirectional streams for HTTP/3\n",
		        c->prog);
		return -1;
	}
	if (nghttp3_conn_bind_control_stream(c->h, ctrl) != 0 ||
	    nghttp3_conn_bind_qpack_streams(c->h, qenc, qdec) != 0) {
		fprintf(stderr, "%s: nghttp3_conn_bind_*_stream failed\n", c->prog);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- packets */

static int send_packet(struct ex_conn *c, const uint8_t *data, size_t len)
{
	ssize_t n;

	do {
		n = sendto(c->fd, data, len, 0, (struct sockaddr *)&c->remote, c->remotelen);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNREFUSED) {
		fprintf(stderr, "%s: sendto: %s\n", c->prog, strerror(errno));
		return -1;
	}
	return 0;   /* a datagram lost here is like one lost on the way */
}

int ex_write(struct ex_conn *c)
{
	uint8_t buf[1500];
	ngtcp2_path_storage ps;
	ngtcp2_tstamp ts = ex_timestamp();
	size_t maxlen = ngtcp2_conn_get_max_tx_udp_payload_size(c->q);
	size_t quantum = ngtcp2_conn_get_send_quantum(c->q) / maxlen, sent = 0;

	if (maxlen > sizeof buf)
		maxlen = sizeof buf;
	ngtcp2_path_storage_zero(&ps);
	for (;;) {
		nghttp3_vec vec[16];
		nghttp3_ssize nvec = 0;
		int64_t stream_id = -1;
		int fin = 0;
		ngtcp2_ssize nwrite, ndatalen = -1;
		ngtcp2_pkt_info pi;
		uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE;

		if (c->h && ngtcp2_conn_get_max_data_left(c->q)) {
			nvec = nghttp3_conn_writev_stream(c->h, &stream_id, &fin, vec, 16);
			if (nvec < 0) {
				h3_fail(c, "nghttp3_conn_writev_stream", (int)nvec);
				return -1;
			}
		}
		if (fin)
			flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
		nwrite = ngtcp2_conn_writev_stream(c->q, &ps.path, &pi, buf, maxlen,
		                                   &ndatalen, flags, stream_id,
		                                   (const ngtcp2_vec *)vec, (size_t)nvec, ts);
		if (nwrite < 0) {
			switch (nwrite) {
			case NGTCP2_ERR_STREAM_DATA_BLOCKED:
				nghttp3_conn_block_stream(c->h, stream_id);
				continue;
			case NGTCP2_ERR_STREAM_SHUT_WR:
				nghttp3_conn_shutdown_stream_write(c->h, stream_id);
				continue;
			case NGTCP2_ERR_WRITE_MORE:
				if (nghttp3_conn_add_write_offset(c->h, stream_id, (size_t)ndatalen) != 0)
					return -1;
				continue;
			default:
				fprintf(stderr, "%s: ngtcp2_conn_writev_stream: %s\n", c->prog,
				        ngtcp2_strerror((int)nwrite));
				ngtcp2_connection_close_error_set_transport_error_liberr(
				    &c->last_error, (int)nwrite, NULL, 0);
				c->failed = 1;
				return -1;
			}
		}
		if (ndatalen >= 0 && c->h &&
		    nghttp3_conn_add_write_offset(c->h, stream_id, (size_t)ndatalen) != 0)
			return -1;
		if (nwrite == 0) {
			ngtcp2_conn_update_pkt_tx_time(c->q, ts);
			return 0;
		}
		if (send_packet(c, buf, (size_t)nwrite) != 0)
			return -1;
		if (++sent >= quantum) {
			/* paced: the rest when the timer says */
			ngtcp2_conn_update_pkt_tx_time(c->q, ts);
			return 0;
		}
	}
}

int ex_feed(struct ex_conn *c, const uint8_t *data, size_t len,
            const struct sockaddr *from, socklen_t fromlen)
{
	ngtcp2_path path;
	ngtcp2_pkt_info pi;
	int rv;

	memset(&pi, 0, sizeof pi);
	path.local.addr = (struct sockaddr *)&c->local;
	path.local.addrlen = c->locallen;
	path.remote.addr = (struct sockaddr *)from;
	path.remote.addrlen = fromlen;
	path.user_data = NULL;
	rv = ngtcp2_conn_read_pkt(c->q, &path, &pi, data, len, ex_timestamp());
	if (rv == 0)
		return 0;
	if (rv == NGTCP2_ERR_DRAINING) {
		/* the peer closed the connection */
		c->closed = 1;
		return 0;
	}
	if (rv == NGTCP2_ERR_DROP_CONN) {
		c->closed = 1;
		c->failed = 1;
		return -1;
	}
	fprintf(stderr, "%s: ngtcp2_conn_read_pkt: %s\n", c->prog, ngtcp2_strerror(rv));
	if (!c->failed) {
		if (rv == NGTCP2_ERR_CRYPTO)
			ngtcp2_connection_close_error_set_transport_error_tls_alert(
			    &c->last_error, ngtcp2_conn_get_tls_alert(c->q), NULL, 0);
		else if (rv != NGTCP2_ERR_CALLBACK_FAILURE || c->last_error.error_code == 0)
			ngtcp2_connection_close_error_set_transport_error_liberr(
			    &c->last_error, rv, NULL, 0);
	}
	c->failed = 1;
	return -1;
}

void ex_close(struct ex_conn *c)
{
	uint8_t buf[1500];
	ngtcp2_path_storage ps;
	ngtcp2_pkt_info pi;
	ngtcp2_ssize n;

	if (c->closed || !c->q || ngtcp2_conn_is_in_closing_period(c->q) ||
	    ngtcp2_conn_is_in_draining_period(c->q))
		return;
	ngtcp2_path_storage_zero(&ps);
	n = ngtcp2_conn_write_connection_close(c->q, &ps.path, &pi, buf, sizeof buf,
	                                       &c->last_error, ex_timestamp());
	if (n > 0)
		send_packet(c, buf, (size_t)n);
	c->closed = 1;
}

int ex_run(struct ex_conn *c, uint64_t deadline, int (*done)(struct ex_conn *))
{
	uint8_t buf[65536];

	while (!c->closed) {
		struct pollfd pfd = { c->fd, POLLIN, 0 };
		uint64_t now, expiry;
		int timeout, rv;

		if (ex_write(c) != 0) {
			ex_close(c);
			return -1;
		}
		if (done && done(c)) {
			ngtcp2_connection_close_error_set_application_error(
			    &c->last_error, NGHTTP3_H3_NO_ERROR, NULL, 0);
			ex_close(c);
			return 0;
		}
		now = ex_timestamp();
		if (now >= deadline) {
			fprintf(stderr, "%s: time limit reached\n", c->prog);
			c->failed = 1;
			ex_close(c);
			return -1;
		}
		expiry = ngtcp2_conn_get_expiry(c->q);
		if (expiry > deadline)
			expiry = deadline;
		timeout = expiry <= now ? 0
		        : (int)((expiry - now + NGTCP2_MILLISECONDS - 1) / NGTCP2_MILLISECONDS);
		rv = poll(&pfd, 1, timeout);
		if (rv < 0 && errno != EINTR) {
			perror("poll");
			return -1;
		}
		if (rv > 0) {
			for (;;) {
				struct sockaddr_storage from;
				socklen_t fromlen = sizeof from;
				ssize_t n = recvfrom(c->fd, buf, sizeof buf, MSG_DONTWAIT,
				                     (struct sockaddr *)&from, &fromlen);

				if (n < 0) {
					if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
					    errno == ECONNREFUSED)
						break;
					fprintf(stderr, "%s: recvfrom: %s\n", c->prog, strerror(errno));
					return -1;
				}
				if (ex_feed(c, buf, (size_t)n, (struct sockaddr *)&from, fromlen) != 0) {
					ex_close(c);
					return -1;
				}
				if (c->closed)
					break;
			}
		}
		if (!c->closed && ex_timestamp() >= ngtcp2_conn_get_expiry(c->q)) {
			rv = ngtcp2_conn_handle_expiry(c->q, ex_timestamp());
			if (rv == NGTCP2_ERR_IDLE_CLOSE) {
				fprintf(stderr, "%s: idle timeout\n", c->prog);
				c->closed = 1;
				return done ? -1 : 0;
			}
			if (rv != 0) {
				fprintf(stderr, "%s: ngtcp2_conn_handle_expiry: %s\n", c->prog,
				        ngtcp2_strerror(rv));
				ngtcp2_connection_close_error_set_transport_error_liberr(
				    &c->last_error, rv, NULL, 0);
				c->failed = 1;
				ex_close(c);
				return -1;
			}
		}
	}
	return c->failed ? -1 : 0;
}
