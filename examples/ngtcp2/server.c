/* SPDX-License-Identifier: MIT */
/*
 * server.c - serves the files of one directory over HTTP/3 on ngtcp2 0.12 +
 * GnuTLS, header protection by libaesecb (hp.c).  It takes one connection,
 * serves its requests, and exits when that connection ends.
 *
 *   server [options] ADDR PORT KEY CERT
 */
#include "common.h"
#include "hp.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ngtcp2/ngtcp2_crypto_gnutls.h>

static const char usage[] =
	"usage: server [options] ADDR PORT KEY CERT\n"
	"  serve one HTTP/3 connection on ADDR:PORT (PORT 0: any free port),\n"
	"  with the PEM private key KEY and certificate CERT, then exit\n"
	"  -d DIR          the files served (default: the current directory)\n"
	"  --port-file F   write the port listened on to F once listening\n"
	"  --cipher NAME   AES-128-GCM or AES-256-GCM (default: either, or AES-128-CCM)\n"
	"  --check         compare every header-protection mask with GnuTLS's AES\n"
	"  --time          time the hp_mask callback against the GnuTLS helper's\n"
	"  --v2            prefer QUIC v2 (draft) when the client offers it\n"
	"  --timeout SEC   give up after SEC seconds (default 60)\n"
	"  -v              ngtcp2's log on stderr\n"
	"The aesecb backend is $AESECB_BACKEND, else the library's default.\n";

/* One request stream. */
struct req {
	int64_t id;
	char path[1024];
	int path_ok, get;
	uint8_t *body;
	size_t len;
	int sent;
	struct req *next;
};

struct server {
	struct ex_conn c;
	const char *dir;
	struct req *reqs;
	unsigned served, failed;
};

static struct req *req_find(struct server *sv, int64_t id, int create)
{
	struct req *r;

	for (r = sv->reqs; r; r = r->next)
		if (r->id == id)
			return r;
	if (!create || !(r = calloc(1, sizeof *r)))
		return NULL;
	r->id = id;
	r->next = sv->reqs;
	sv->reqs = r;
	return r;
}

/* ---------------------------------------------------------------- HTTP/3 */

static int h3_recv_header(nghttp3_conn *h, int64_t stream_id, int32_t token,
                          nghttp3_rcbuf *name, nghttp3_rcbuf *value,
                          uint8_t flags, void *conn_user_data,
                          void *stream_user_data)
{
	struct server *sv = ((struct ex_conn *)conn_user_data)->app;
	nghttp3_vec v = nghttp3_rcbuf_get_buf(value);
	struct req *r = req_find(sv, stream_id, 1);

	(void)h;
	(void)name;
	(void)flags;
	(void)stream_user_data;
	if (!r)
		return NGHTTP3_ERR_CALLBACK_FAILURE;
	if (token == NGHTTP3_QPACK_TOKEN__PATH && v.len < sizeof r->path) {
		memcpy(r->path, v.base, v.len);
		r->path[v.len] = 0;
		r->path_ok = 1;
	} else if (token == NGHTTP3_QPACK_TOKEN__METHOD) {
		r->get = v.len == 3 && memcmp(v.base, "GET", 3) == 0;
	}
	return 0;
}

static int h3_recv_data(nghttp3_conn *h, int64_t stream_id, const uint8_t *data,
                        size_t datalen, void *conn_user_data,
                        void *stream_user_data)
{
	(void)h;
	(void)data;
	(void)stream_user_data;
	ex_h3_consume(conn_user_data, stream_id, datalen);   /* a body: ignored */
	return 0;
}

static nghttp3_ssize read_body(nghttp3_conn *h, int64_t stream_id, nghttp3_vec *vec,
                               size_t veccnt, uint32_t *pflags,
                               void *conn_user_data, void *stream_user_data)
{
	struct server *sv = ((struct ex_conn *)conn_user_data)->app;
	struct req *r = req_find(sv, stream_id, 0);

	(void)h;
	(void)veccnt;
	(void)stream_user_data;
	*pflags = NGHTTP3_DATA_FLAG_EOF;
	if (!r || r->sent || r->len == 0)
		return 0;
	/* the buffer lives until the stream is freed, after it was acked */
	r->sent = 1;
	vec[0].base = r->body;
	vec[0].len = r->len;
	return 1;
}

/* The file under sv->dir named by path: no "..", no hidden names.  0 or
 * an HTTP status. */
static int load(struct server *sv, struct req *r)
{
	char name[2048];
	const char *p = r->path;
	struct stat st;
	size_t got = 0;
	int fd;
	char *q = strchr(r->path, '?');

	if (q)
		*q = 0;
	if (p[0] != '/' || strstr(p, "/.") || strstr(p, ".."))
		return 404;
	if (strcmp(p, "/") == 0)
		p = "/index.html";
	if ((size_t)snprintf(name, sizeof name, "%s%s", sv->dir, p) >= sizeof name)
		return 404;
	fd = open(name, O_RDONLY);
	if (fd < 0)
		return 404;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 404;
	}
	r->len = (size_t)st.st_size;
	r->body = malloc(r->len ? r->len : 1);
	if (!r->body) {
		close(fd);
		return 500;
	}
	while (got < r->len) {
		ssize_t n = read(fd, r->body + got, r->len - got);

		if (n <= 0) {
			close(fd);
			return 500;
		}
		got += (size_t)n;
	}
	close(fd);
	return 0;
}

static int respond(struct server *sv, struct req *r)
{
	nghttp3_nv nv[2];
	nghttp3_data_reader dr = { read_body };
	char status[4], clen[32];
	int st = !r->path_ok ? 400 : !r->get ? 405 : load(sv, r);
	int rv;

	if (st == 0) {
		st = 200;
		sv->served++;
	} else {
		free(r->body);
		r->body = NULL;
		r->len = 0;
		sv->failed++;
		fprintf(stderr, "server: %s: status %d\n", r->path_ok ? r->path : "(no path)", st);
	}
	snprintf(status, sizeof status, "%d", st);
	snprintf(clen, sizeof clen, "%zu", r->len);
	nv[0].name = (uint8_t *)":status";
	nv[0].namelen = 7;
	nv[0].value = (uint8_t *)status;
	nv[0].valuelen = strlen(status);
	nv[0].flags = NGHTTP3_NV_FLAG_NONE;
	nv[1].name = (uint8_t *)"content-length";
	nv[1].namelen = 14;
	nv[1].value = (uint8_t *)clen;
	nv[1].valuelen = strlen(clen);
	nv[1].flags = NGHTTP3_NV_FLAG_NONE;
	rv = nghttp3_conn_submit_response(sv->c.h, r->id, nv, 2, &dr);
	if (rv != 0) {
		fprintf(stderr, "server: nghttp3_conn_submit_response: %s\n", nghttp3_strerror(rv));
		return NGHTTP3_ERR_CALLBACK_FAILURE;
	}
	return 0;
}

static int h3_end_stream(nghttp3_conn *h, int64_t stream_id,
                         void *conn_user_data, void *stream_user_data)
{
	struct server *sv = ((struct ex_conn *)conn_user_data)->app;
	struct req *r = req_find(sv, stream_id, 1);

	(void)h;
	(void)stream_user_data;
	return r ? respond(sv, r) : NGHTTP3_ERR_CALLBACK_FAILURE;
}

static int h3_stream_close(nghttp3_conn *h, int64_t stream_id, uint64_t app_error_code,
                           void *conn_user_data, void *stream_user_data)
{
	struct server *sv = ((struct ex_conn *)conn_user_data)->app;
	struct req **pp, *r;

	(void)h;
	(void)app_error_code;
	(void)stream_user_data;
	for (pp = &sv->reqs; (r = *pp); pp = &r->next) {
		if (r->id == stream_id) {
			*pp = r->next;
			free(r->body);
			free(r);
			break;
		}
	}
	return 0;
}

static int handshake_completed(ngtcp2_conn *q, void *user_data)
{
	(void)q;
	return ex_h3_setup(user_data) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

/* ---------------------------------------------------------------- setup */

static ngtcp2_conn *get_conn(ngtcp2_crypto_conn_ref *ref)
{
	return ((struct ex_conn *)ref->user_data)->q;
}

static int tls_init(struct server *sv, gnutls_certificate_credentials_t cred,
                    const char *cipher)
{
	static const gnutls_datum_t alpn = { (unsigned char *)"h3", 2 };
	gnutls_session_t s;
	int rv;

	if (gnutls_init(&s, GNUTLS_SERVER) != 0)
		return -1;
	sv->c.tls = s;
	/* instead of ngtcp2_crypto_gnutls_configure_server_session() */
	if (hp_configure_server_session(s) != 0) {
		fprintf(stderr, "server: cannot configure the GnuTLS session for QUIC\n");
		return -1;
	}
	rv = gnutls_priority_set_direct(s, ex_priority(cipher), NULL);
	if (rv != 0) {
		fprintf(stderr, "server: gnutls_priority_set_direct: %s\n", gnutls_strerror(rv));
		return -1;
	}
	gnutls_session_set_ptr(s, &sv->c.ref);
	if (gnutls_credentials_set(s, GNUTLS_CRD_CERTIFICATE, cred) != 0)
		return -1;
	gnutls_alpn_set_protocols(s, &alpn, 1, GNUTLS_ALPN_MANDATORY);
	return 0;
}

static int quic_init(struct server *sv, const ngtcp2_pkt_hd *hd,
                     int verbose, int v2)
{
	static uint32_t preferred[] = { NGTCP2_PROTO_VER_V2_DRAFT, NGTCP2_PROTO_VER_V1 };
	ngtcp2_callbacks cb;
	ngtcp2_settings settings;
	ngtcp2_transport_params params;
	ngtcp2_cid scid;
	ngtcp2_path path;
	int rv;

	memset(&cb, 0, sizeof cb);
	/* header protection: aesecb (hp.c) */
	cb.recv_client_initial = hp_recv_client_initial_cb;
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
	cb.extend_max_remote_streams_bidi = ex_extend_max_remote_streams_bidi_cb;
	cb.rand = ex_rand_cb;
	cb.get_new_connection_id = ex_get_new_connection_id_cb;

	scid.datalen = 18;
	if (ex_random(scid.data, scid.datalen) != 0)
		return -1;
	ngtcp2_settings_default(&settings);
	settings.initial_ts = ex_timestamp();
	settings.log_printf = verbose ? ex_log_printf : NULL;
	if (v2) {
		settings.preferred_versions = preferred;
		settings.preferred_versionslen = 2;
	}
	ngtcp2_transport_params_default(&params);
	params.initial_max_streams_bidi = 16;
	params.initial_max_streams_uni = 3;
	params.initial_max_stream_data_bidi_remote = 256 * 1024;
	params.initial_max_stream_data_uni = 256 * 1024;
	params.initial_max_data = 1024 * 1024;
	params.max_idle_timeout = 10 * NGTCP2_SECONDS;
	params.original_dcid = hd->dcid;
	params.stateless_reset_token_present = 1;
	if (ex_random(params.stateless_reset_token, sizeof params.stateless_reset_token) != 0)
		return -1;

	path.local.addr = (struct sockaddr *)&sv->c.local;
	path.local.addrlen = sv->c.locallen;
	path.remote.addr = (struct sockaddr *)&sv->c.remote;
	path.remote.addrlen = sv->c.remotelen;
	path.user_data = NULL;
	rv = ngtcp2_conn_server_new(&sv->c.q, &hd->scid, &scid, &path, hd->version,
	                            &cb, &settings, &params, NULL, &sv->c);
	if (rv != 0) {
		fprintf(stderr, "server: ngtcp2_conn_server_new: %s\n", ngtcp2_strerror(rv));
		return -1;
	}
	ngtcp2_conn_set_tls_native_handle(sv->c.q, sv->c.tls);
	return 0;
}

static int write_port_file(const char *name, const struct sockaddr_storage *a)
{
	char tmp[4096];
	unsigned port = a->ss_family == AF_INET6
	                    ? ntohs(((const struct sockaddr_in6 *)a)->sin6_port)
	                    : ntohs(((const struct sockaddr_in *)a)->sin_port);
	FILE *f;

	/* complete when it appears: written aside, then renamed */
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", name) >= sizeof tmp ||
	    !(f = fopen(tmp, "w")))
		return -1;
	fprintf(f, "%u\n", port);
	if (fclose(f) != 0 || rename(tmp, name) != 0)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "port-file", required_argument, NULL, 'p' },
		{ "cipher", required_argument, NULL, 'c' },
		{ "check", no_argument, NULL, 'k' },
		{ "time", no_argument, NULL, 't' },
		{ "v2", no_argument, NULL, '2' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct server sv;
	struct hp_options hpo = { 0, 0 };
	gnutls_certificate_credentials_t cred = NULL;
	const char *portfile = NULL, *cipher = NULL;
	int verbose = 0, v2 = 0, opt, rc = 1, rv;
	double timeout = 60;
	uint64_t deadline;
	uint8_t buf[65536];

	memset(&sv, 0, sizeof sv);
	sv.dir = ".";
	/* a test harness may have started us with these ignored: the time
	 * limits it sets must be able to end us */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	while ((opt = getopt_long(argc, argv, "d:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd': sv.dir = optarg; break;
		case 'p': portfile = optarg; break;
		case 'c': cipher = optarg; break;
		case 'k': hpo.check = 1; break;
		case 't': hpo.timing = 1; break;
		case '2': v2 = 1; break;
		case 'T': timeout = atof(optarg); break;
		case 'v': verbose = 1; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (argc - optind != 4 || timeout <= 0 || (cipher && !ex_priority(cipher))) {
		fputs(usage, stderr);
		return 2;
	}
	deadline = ex_timestamp() + (uint64_t)(timeout * NGTCP2_SECONDS);
	sv.c.prog = "server";
	sv.c.app = &sv;
	sv.c.is_server = 1;
	sv.c.fd = -1;
	sv.c.ref.get_conn = get_conn;
	sv.c.ref.user_data = &sv.c;
	ngtcp2_connection_close_error_default(&sv.c.last_error);
	sv.c.h3cb.recv_header = h3_recv_header;
	sv.c.h3cb.recv_data = h3_recv_data;
	sv.c.h3cb.end_stream = h3_end_stream;
	sv.c.h3cb.stream_close = h3_stream_close;
	sv.c.h3cb.deferred_consume = ex_h3_deferred_consume;
	sv.c.h3cb.stop_sending = ex_h3_stop_sending;
	sv.c.h3cb.reset_stream = ex_h3_reset_stream;

	if (hp_setup(&hpo, "server") != 0)
		return 1;
	if (gnutls_certificate_allocate_credentials(&cred) != 0)
		goto out;
	rv = gnutls_certificate_set_x509_key_file(cred, argv[optind + 3], argv[optind + 2],
	                                          GNUTLS_X509_FMT_PEM);
	if (rv != 0) {
		fprintf(stderr, "server: key %s, certificate %s: %s\n", argv[optind + 2],
		        argv[optind + 3], gnutls_strerror(rv));
		goto out;
	}
	sv.c.locallen = sizeof sv.c.local;
	sv.c.fd = ex_udp_socket(argv[optind], argv[optind + 1], 1, &sv.c.local, &sv.c.locallen);
	if (sv.c.fd < 0)
		goto out;
	if (portfile && write_port_file(portfile, &sv.c.local) != 0) {
		fprintf(stderr, "server: --port-file %s: %s\n", portfile, strerror(errno));
		goto out;
	}

	/* the first Initial packet of a connection */
	for (;;) {
		struct pollfd pfd = { sv.c.fd, POLLIN, 0 };
		uint64_t now = ex_timestamp();
		ngtcp2_pkt_hd hd;
		ssize_t n;

		if (now >= deadline) {
			fprintf(stderr, "server: time limit reached with no connection\n");
			goto out;
		}
		if (poll(&pfd, 1, (int)((deadline - now) / NGTCP2_MILLISECONDS) + 1) <= 0)
			continue;
		sv.c.remotelen = sizeof sv.c.remote;
		n = recvfrom(sv.c.fd, buf, sizeof buf, MSG_DONTWAIT,
		             (struct sockaddr *)&sv.c.remote, &sv.c.remotelen);
		if (n <= 0)
			continue;
		if (ngtcp2_accept(&hd, buf, (size_t)n) != 0)
			continue;   /* not a client's first packet */
		if (tls_init(&sv, cred, cipher) != 0 || quic_init(&sv, &hd, verbose, v2) != 0)
			goto out;
		if (ex_feed(&sv.c, buf, (size_t)n, (struct sockaddr *)&sv.c.remote,
		            sv.c.remotelen) != 0) {
			ex_close(&sv.c);
			goto out;
		}
		break;
	}
	if (ex_run(&sv.c, deadline, NULL) == 0 && sv.served > 0)
		rc = 0;
	fprintf(stderr, "server: %u served, %u refused, QUIC version 0x%08x, %u key updates\n",
	        sv.served, sv.failed, (unsigned)ngtcp2_conn_get_negotiated_version(sv.c.q),
	        sv.c.key_updates);
out:
	if (hp_report(stderr, sv.c.tls))
		rc = 1;
	while (sv.reqs) {
		struct req *r = sv.reqs;

		sv.reqs = r->next;
		free(r->body);
		free(r);
	}
	if (sv.c.h)
		nghttp3_conn_del(sv.c.h);
	if (sv.c.q)
		ngtcp2_conn_del(sv.c.q);
	if (sv.c.tls)
		gnutls_deinit(sv.c.tls);
	if (cred)
		gnutls_certificate_free_credentials(cred);
	if (sv.c.fd >= 0)
		close(sv.c.fd);
	hp_finish();
	return rc;
}
