/* SPDX-License-Identifier: MIT */
/*
 * client.c - an HTTP/3 GET over ngtcp2 0.12 + GnuTLS, header protection by
 * libaesecb (hp.c).  One request, one connection, then CONNECTION_CLOSE.
 *
 *   client [options] HOST PORT PATH
 */
#include "common.h"
#include "hp.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ngtcp2/ngtcp2_crypto_gnutls.h>

#include <aesecb.h>

static const char usage[] =
	"usage: client [options] HOST PORT PATH\n"
	"  GET https://HOST:PORT/PATH over HTTP/3 (HOST: a numeric address)\n"
	"  -o FILE        write the response body to FILE\n"
	"  --cipher NAME  AES-128-GCM or AES-256-GCM (default: either, or AES-128-CCM)\n"
	"  --ca FILE      verify the server's certificate (name: localhost) against FILE\n"
	"  --check        compare every header-protection mask with GnuTLS's AES\n"
	"  --time         time the hp_mask callback against the GnuTLS helper's\n"
	"  --v2           offer QUIC v2 (draft) by compatible version negotiation\n"
	"  --timeout SEC  give up after SEC seconds (default 30)\n"
	"  -v             ngtcp2's log on stderr\n"
	"  --backends     list the aesecb backends this machine runs, and exit\n"
	"The aesecb backend is $AESECB_BACKEND, else the library's default.\n";

struct client {
	struct ex_conn c;
	const char *host, *port, *path;
	FILE *out;
	int64_t stream_id;
	int status;
	int complete;         /* the response ended (end_stream) */
	uint64_t bytes;
	char authority[300];
};

static int done(struct ex_conn *c)
{
	struct client *cl = c->app;

	return cl->complete;
}

/* ---------------------------------------------------------------- HTTP/3 */

static int h3_recv_header(nghttp3_conn *h, int64_t stream_id, int32_t token,
                          nghttp3_rcbuf *name, nghttp3_rcbuf *value,
                          uint8_t flags, void *conn_user_data,
                          void *stream_user_data)
{
	struct client *cl = ((struct ex_conn *)conn_user_data)->app;
	nghttp3_vec v = nghttp3_rcbuf_get_buf(value);

	(void)h;
	(void)name;
	(void)flags;
	(void)stream_user_data;
	if (stream_id == cl->stream_id && token == NGHTTP3_QPACK_TOKEN__STATUS) {
		int s = 0;
		size_t i;

		for (i = 0; i < v.len && i < 3; i++)
			s = s * 10 + (v.base[i] - '0');
		cl->status = v.len == 3 ? s : -1;
	}
	return 0;
}

static int h3_recv_data(nghttp3_conn *h, int64_t stream_id, const uint8_t *data,
                        size_t datalen, void *conn_user_data,
                        void *stream_user_data)
{
	struct ex_conn *c = conn_user_data;
	struct client *cl = c->app;

	(void)h;
	(void)stream_user_data;
	if (stream_id == cl->stream_id) {
		if (cl->out && fwrite(data, 1, datalen, cl->out) != datalen) {
			perror("client: write");
			return NGHTTP3_ERR_CALLBACK_FAILURE;
		}
		cl->bytes += datalen;
	}
	ex_h3_consume(c, stream_id, datalen);
	return 0;
}

static int h3_end_stream(nghttp3_conn *h, int64_t stream_id,
                         void *conn_user_data, void *stream_user_data)
{
	struct client *cl = ((struct ex_conn *)conn_user_data)->app;

	(void)h;
	(void)stream_user_data;
	if (stream_id == cl->stream_id)
		cl->complete = 1;
	return 0;
}

static int submit_request(struct client *cl)
{
	struct ex_conn *c = &cl->c;
	nghttp3_nv nv[5];
	const char *k[5] = { ":method", ":scheme", ":authority", ":path", "user-agent" };
	const char *val[5];
	size_t i;
	int rv;

	val[0] = "GET";
	val[1] = "https";
	val[2] = cl->authority;
	val[3] = cl->path;
	val[4] = "aesecb-ngtcp2-example";
	for (i = 0; i < 5; i++) {
		nv[i].name = (uint8_t *)k[i];
		nv[i].namelen = strlen(k[i]);
		nv[i].value = (uint8_t *)val[i];
		nv[i].valuelen = strlen(val[i]);
		nv[i].flags = NGHTTP3_NV_FLAG_NONE;
	}
	rv = ngtcp2_conn_open_bidi_stream(c->q, &cl->stream_id, NULL);
	if (rv != 0) {
		fprintf(stderr, "client: ngtcp2_conn_open_bidi_stream: %s\n", ngtcp2_strerror(rv));
		return -1;
	}
	rv = nghttp3_conn_submit_request(c->h, cl->stream_id, nv, 5, NULL, NULL);
	if (rv != 0) {
		fprintf(stderr, "client: nghttp3_conn_submit_request: %s\n", nghttp3_strerror(rv));
		return -1;
	}
	return 0;
}

static int handshake_completed(ngtcp2_conn *q, void *user_data)
{
	struct client *cl = ((struct ex_conn *)user_data)->app;

	(void)q;
	if (ex_h3_setup(&cl->c) != 0 || submit_request(cl) != 0)
		return NGTCP2_ERR_CALLBACK_FAILURE;
	return 0;
}

/* ---------------------------------------------------------------- setup */

static ngtcp2_conn *get_conn(ngtcp2_crypto_conn_ref *ref)
{
	return ((struct ex_conn *)ref->user_data)->q;
}

static int tls_init(struct client *cl, gnutls_certificate_credentials_t cred,
                    const char *cipher, const char *ca)
{
	static const gnutls_datum_t alpn = { (unsigned char *)"h3", 2 };
	gnutls_session_t s;
	const char *prio = ex_priority(cipher);
	int rv;

	if (gnutls_init(&s, GNUTLS_CLIENT) != 0)
		return -1;
	cl->c.tls = s;
	/* instead of ngtcp2_crypto_gnutls_configure_client_session() */
	if (hp_configure_client_session(s) != 0) {
		fprintf(stderr, "client: cannot configure the GnuTLS session for QUIC\n");
		return -1;
	}
	rv = gnutls_priority_set_direct(s, prio, NULL);
	if (rv != 0) {
		fprintf(stderr, "client: gnutls_priority_set_direct: %s\n", gnutls_strerror(rv));
		return -1;
	}
	gnutls_session_set_ptr(s, &cl->c.ref);
	if (gnutls_credentials_set(s, GNUTLS_CRD_CERTIFICATE, cred) != 0)
		return -1;
	gnutls_alpn_set_protocols(s, &alpn, 1, GNUTLS_ALPN_MANDATORY);
	gnutls_server_name_set(s, GNUTLS_NAME_DNS, "localhost", strlen("localhost"));
	if (ca)
		gnutls_session_set_verify_cert(s, "localhost", 0);
	return 0;
}

static int quic_init(struct client *cl, int verbose, int v2)
{
	static uint32_t other_versions[] = { NGTCP2_PROTO_VER_V1, NGTCP2_PROTO_VER_V2_DRAFT };
	ngtcp2_callbacks cb;
	ngtcp2_settings settings;
	ngtcp2_transport_params params;
	ngtcp2_cid dcid, scid;
	ngtcp2_path path;
	int rv;

	memset(&cb, 0, sizeof cb);
	/* header protection: aesecb (hp.c) */
	cb.client_initial = hp_client_initial_cb;
	cb.recv_retry = hp_recv_retry_cb;
	cb.version_negotiation = hp_version_negotiation_cb;
	cb.hp_mask = hp_mask_cb;
	cb.delete_crypto_cipher_ctx = hp_delete_crypto_cipher_ctx_cb;
	/* the rest of the crypto: the GnuTLS helper */
	cb.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
	cb.encrypt = ngtcp2_crypto_encrypt_cb;
	cb.decrypt = ngtcp2_crypto_decrypt_cb;
	cb.update_key = ex_update_key_cb;   /* ngtcp2_crypto_update_key_cb */
	cb.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
	cb.get_path_challenge_data = ngtcp2_crypto_get_path_challenge_data_cb;
	/* the application */
	cb.handshake_completed = handshake_completed;
	cb.recv_stream_data = ex_recv_stream_data_cb;
	cb.acked_stream_data_offset = ex_acked_stream_data_offset_cb;
	cb.stream_close = ex_stream_close_cb;
	cb.stream_reset = ex_stream_reset_cb;
	cb.stream_stop_sending = ex_stream_stop_sending_cb;
	cb.extend_max_stream_data = ex_extend_max_stream_data_cb;
	cb.rand = ex_rand_cb;
	cb.get_new_connection_id = ex_get_new_connection_id_cb;

	dcid.datalen = 18;
	scid.datalen = 8;
	if (ex_random(dcid.data, dcid.datalen) != 0 || ex_random(scid.data, scid.datalen) != 0)
		return -1;
	ngtcp2_settings_default(&settings);
	settings.initial_ts = ex_timestamp();
	settings.log_printf = verbose ? ex_log_printf : NULL;
	if (v2) {
		settings.other_versions = other_versions;
		settings.other_versionslen = 2;
	}
	ngtcp2_transport_params_default(&params);
	params.initial_max_streams_uni = 3;
	params.initial_max_stream_data_bidi_local = 8 * 1024 * 1024;
	params.initial_max_stream_data_uni = 256 * 1024;
	params.initial_max_data = 16 * 1024 * 1024;
	params.max_idle_timeout = 10 * NGTCP2_SECONDS;

	path.local.addr = (struct sockaddr *)&cl->c.local;
	path.local.addrlen = cl->c.locallen;
	path.remote.addr = (struct sockaddr *)&cl->c.remote;
	path.remote.addrlen = cl->c.remotelen;
	path.user_data = NULL;
	rv = ngtcp2_conn_client_new(&cl->c.q, &dcid, &scid, &path, NGTCP2_PROTO_VER_V1,
	                            &cb, &settings, &params, NULL, &cl->c);
	if (rv != 0) {
		fprintf(stderr, "client: ngtcp2_conn_client_new: %s\n", ngtcp2_strerror(rv));
		return -1;
	}
	ngtcp2_conn_set_tls_native_handle(cl->c.q, cl->c.tls);
	return 0;
}

static void list_backends(void)
{
	size_t i, n = aesecb_backend_count();

	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (aesecb_backend_available(be))
			printf("%s\n", aesecb_backend_name(be));
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cipher", required_argument, NULL, 'c' },
		{ "ca", required_argument, NULL, 'a' },
		{ "check", no_argument, NULL, 'k' },
		{ "time", no_argument, NULL, 't' },
		{ "v2", no_argument, NULL, '2' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "backends", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct client cl;
	struct hp_options hpo = { 0, 0 };
	gnutls_certificate_credentials_t cred = NULL;
	const char *outname = NULL, *cipher = NULL, *ca = NULL;
	int verbose = 0, v2 = 0, opt, rc = 1, bad;
	double timeout = 30;

	/* a test harness may have started us with these ignored: the time
	 * limits it sets must be able to end us */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	while ((opt = getopt_long(argc, argv, "o:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': outname = optarg; break;
		case 'c': cipher = optarg; break;
		case 'a': ca = optarg; break;
		case 'k': hpo.check = 1; break;
		case 't': hpo.timing = 1; break;
		case '2': v2 = 1; break;
		case 'T': timeout = atof(optarg); break;
		case 'v': verbose = 1; break;
		case 'B': list_backends(); return 0;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (argc - optind != 3 || timeout <= 0 || (cipher && !ex_priority(cipher))) {
		fputs(usage, stderr);
		return 2;
	}
	memset(&cl, 0, sizeof cl);
	cl.c.prog = "client";
	cl.c.app = &cl;
	cl.c.fd = -1;
	cl.c.ref.get_conn = get_conn;
	cl.c.ref.user_data = &cl.c;
	cl.host = argv[optind];
	cl.port = argv[optind + 1];
	cl.path = argv[optind + 2];
	cl.stream_id = -1;
	ngtcp2_connection_close_error_default(&cl.c.last_error);
	snprintf(cl.authority, sizeof cl.authority, "%s:%s", cl.host, cl.port);
	cl.c.h3cb.recv_header = h3_recv_header;
	cl.c.h3cb.recv_data = h3_recv_data;
	cl.c.h3cb.end_stream = h3_end_stream;
	cl.c.h3cb.deferred_consume = ex_h3_deferred_consume;
	cl.c.h3cb.stop_sending = ex_h3_stop_sending;
	cl.c.h3cb.reset_stream = ex_h3_reset_stream;

	if (hp_setup(&hpo, "client") != 0)
		return 1;
	if (outname && !(cl.out = fopen(outname, "wb"))) {
		perror(outname);
		goto out;
	}
	cl.c.fd = ex_udp_socket(cl.host, cl.port, 0, &cl.c.remote, &cl.c.remotelen);
	if (cl.c.fd < 0)
		goto out;
	/* connect() picks the local address and port (127.0.0.1 for a
	 * loopback server) and filters what comes in to the server's */
	cl.c.locallen = sizeof cl.c.local;
	if (connect(cl.c.fd, (struct sockaddr *)&cl.c.remote, cl.c.remotelen) != 0 ||
	    getsockname(cl.c.fd, (struct sockaddr *)&cl.c.local, &cl.c.locallen) != 0) {
		perror("client: socket");
		goto out;
	}
	if (gnutls_certificate_allocate_credentials(&cred) != 0)
		goto out;
	if (ca && gnutls_certificate_set_x509_trust_file(cred, ca, GNUTLS_X509_FMT_PEM) <= 0) {
		fprintf(stderr, "client: --ca: no certificate loaded from %s\n", ca);
		goto out;
	}
	if (!ca)
		fprintf(stderr, "client: no --ca: the server is not authenticated\n");
	if (tls_init(&cl, cred, cipher, ca) != 0 || quic_init(&cl, verbose, v2) != 0)
		goto out;

	if (ex_run(&cl.c, ex_timestamp() + (uint64_t)(timeout * NGTCP2_SECONDS), done) == 0 &&
	    cl.complete && cl.status == 200)
		rc = 0;
	fprintf(stderr, "client: GET %s: status %d, %llu bytes, %s, QUIC version 0x%08x, %u key updates\n",
	        cl.path, cl.status, (unsigned long long)cl.bytes,
	        cl.complete ? "complete" : "incomplete",
	        (unsigned)ngtcp2_conn_get_negotiated_version(cl.c.q), cl.c.key_updates);
out:
	bad = hp_report(stderr, cl.c.tls);
	if (bad)
		rc = 1;
	if (cl.out && fclose(cl.out) != 0) {
		perror(outname);
		rc = 1;
	}
	if (cl.c.h)
		nghttp3_conn_del(cl.c.h);
	if (cl.c.q)
		ngtcp2_conn_del(cl.c.q);
	if (cl.c.tls)
		gnutls_deinit(cl.c.tls);
	if (cred)
		gnutls_certificate_free_credentials(cred);
	if (cl.c.fd >= 0)
		close(cl.c.fd);
	hp_finish();
	return rc;
}
