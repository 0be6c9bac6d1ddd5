/* SPDX-License-Identifier: MIT */
/*
 * hpunprotect.c - the report of "aesecb hp-mask --unprotect" on whole
 * datagrams.  See hpunprotect.h.
 *
 * One datagram given as an argument is reported as a whole or not at all:
 * its report is written to memory first, and a packet that cannot be
 * unprotected (a malformed header, Retry, Version Negotiation) leaves
 * stdout empty and exits 2.  A stream is reported a datagram at a time,
 * as it is read, with the file and line of each datagram; such a packet
 * there gets its error line and the stream goes on (exit 2 at the end),
 * while a line that is not hex ends it.  A packet whose tag does not
 * verify is reported, with one line on stderr naming the likely causes,
 * and the exit status is 1.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dgramin.h"
#include "hex.h"
#include "hpunprotect.h"
#include "json.h"

struct report {
	const struct hpu_opts *o;
	FILE *f;                   /* where the report goes */
	struct cli_json j;
	int stream;
	const char *name;          /* the stream's file, for messages */
	unsigned long line;
	size_t dgram_len;
	int blocks;                /* text blocks written so far */
	int worst;                 /* exit status so far */
	int unprotected;           /* packets whose header protection was
	                              removed, in this datagram */
	int refused;               /* packets refused in this datagram */
	char first_error[400];     /* the argument's refusal */
	const struct up_packet *skipped1;  /* its first skipped packet */
	char skip_why[300];
	enum quic_packet_type skip_type;
	int skip_long;
};

/* Where a message is: "NAME:LINE: " in a stream, else "". */
static const char *where(const struct report *r, char *buf, size_t size)
{
	if (!r->stream) {
		buf[0] = '\0';
		return buf;
	}
	snprintf(buf, size, "%s:%lu: ", cli_safe(r->name), r->line);
	return buf;
}

/* "packet 2 (Handshake at offset 166)" */
static const char *which(const struct up_packet *p, char *buf, size_t size)
{
	snprintf(buf, size, "packet %zu (%s at offset %zu)", p->index,
	         quic_packet_type_name(p->type), p->offset);
	return buf;
}

/* The key a packet was unprotected with, in words (never its bytes). */
static void key_words(const struct report *r, const struct up_packet *p,
                      char *buf, size_t size)
{
	const char *side = p->server ? "server" : "client";
	char dcid[2 * QUIC_MAX_CID_LEN + 1], *e;

	switch (p->source) {
	case UP_SRC_INITIAL:
		e = cli_hex_encode(dcid, p->key_dcid, p->key_dcid_len,
		                   CLI_HEX_LOWER);
		*e = '\0';
		snprintf(buf, size, "%s Initial key of DCID %s%s", side,
		         p->key_dcid_len != 0 ? dcid : "(empty)",
		         p->dcid_from == UP_DCID_OPTION ? ", --odcid" :
		         p->dcid_from == UP_DCID_REMEMBERED ?
		         ", the client's first DCID seen earlier" : "");
		break;
	case UP_SRC_KEYLOG:
		snprintf(buf, size, "%s %s secret of %s line %lu%s", side,
		         quic_packet_type_name(p->type),
		         r->o->keylog_name != NULL ?
		         cli_safe(r->o->keylog_name) : "the key log",
		         r->o->cfg.keylog->conns[p->keylog_conn].line[p->keylog_label],
		         "");
		if (p->generation != 0) {
			size_t n = strlen(buf);

			snprintf(buf + n, size - n, ", key generation %lu",
			         (unsigned long)p->generation);
		}
		break;
	case UP_SRC_SECRET:
		if (p->generation != 0)
			snprintf(buf, size, "the secret, key generation %lu",
			         (unsigned long)p->generation);
		else
			snprintf(buf, size, "the secret");
		break;
	default:
		snprintf(buf, size, "the hp key");
		break;
	}
}

static int has_header(const struct up_packet *p)
{
	return p->pn_len != 0 &&
	       (p->verdict == UP_AUTHENTICATED || p->verdict == UP_TRUNCATED ||
	        p->verdict == UP_NO_PACKET_KEY || p->verdict == UP_FAILED);
}

static void hex_line(FILE *f, const char *label, const uint8_t *b, size_t n)
{
	char buf[512];
	size_t i, m;

	fprintf(f, "%s: ", label);
	for (i = 0; i < n; i += m) {
		char *e;

		m = n - i < sizeof buf / 2 ? n - i : sizeof buf / 2;
		e = cli_hex_encode(buf, b + i, m, CLI_HEX_LOWER);
		fwrite(buf, 1, (size_t)(e - buf), f);
	}
	putc('\n', f);
}

static void text_block(struct report *r, const struct up_packet *p,
                       const char *payload)
{
	FILE *f = r->f;

	if (r->blocks++ > 0)
		putc('\n', f);
	if (r->stream)
		fprintf(f, "datagram: %s:%lu\n", cli_safe(r->name), r->line);
	fprintf(f, "type: %s\noffset: %zu\nlength: %zu\n",
	        p->verdict == UP_PADDING ? "padding" :
	        quic_packet_type_name(p->type), p->offset, p->len);
	if (p->verdict == UP_PADDING)
		return;
	if (has_header(p)) {
		hex_line(f, "header", p->bytes, p->pn_offset + p->pn_len);
		fprintf(f, "pn_length: %lu\npacket_number: %llu\n",
		        (unsigned long)p->pn_len, (unsigned long long)p->pn);
		hex_line(f, "mask", p->mask, sizeof p->mask);
	}
	fprintf(f, "payload: %s\n", payload);
	if (has_header(p))
		hex_line(f, "packet", p->bytes, p->len);
}

/* The "key" object: which key it was, in fields and in words. */
static void json_key(struct report *r, const struct up_packet *p,
                     const char *keytext)
{
	struct cli_json *j = &r->j;

	cli_json_object(j, "key");
	cli_json_string(j, "source", p->source == UP_SRC_INITIAL ?
	                "initial" : p->source == UP_SRC_KEYLOG ?
	                "keylog" : p->source == UP_SRC_SECRET ?
	                "secret" : "hp-key");
	if (p->source == UP_SRC_INITIAL || p->source == UP_SRC_KEYLOG)
		cli_json_string(j, "side", p->server ? "server" :
		                "client");
	if (p->source == UP_SRC_INITIAL) {
		cli_json_hex(j, "dcid", p->key_dcid, p->key_dcid_len,
		             CLI_HEX_LOWER);
		cli_json_string(j, "dcid_from",
		                p->dcid_from == UP_DCID_OPTION ? "--odcid" :
		                p->dcid_from == UP_DCID_REMEMBERED ?
		                "stream" : "packet");
	}
	if (p->source == UP_SRC_KEYLOG) {
		cli_json_string(j, "label",
		                keylog_label_name(p->keylog_label));
		cli_json_uint(j, "line", r->o->cfg.keylog->conns[
		              p->keylog_conn].line[p->keylog_label]);
	}
	if (p->type == QUIC_PT_1RTT && p->source != UP_SRC_INITIAL)
		cli_json_uint(j, "generation", p->generation);
	cli_json_string(j, "description", keytext);
	cli_json_end(j);
}

static void json_packet(struct report *r, const struct up_packet *p,
                        const char *verdict, const char *why,
                        const char *keytext)
{
	struct cli_json *j = &r->j;

	cli_json_object(j, NULL);
	cli_json_uint(j, "index", p->index);
	cli_json_string(j, "type", p->verdict == UP_PADDING ? "padding" :
	                quic_packet_type_name(p->type));
	cli_json_uint(j, "offset", p->offset);
	cli_json_uint(j, "length", p->len);
	if (p->verdict == UP_PADDING) {
		cli_json_end(j);
		return;
	}
	if (p->version != 0 && quic_version_name(p->version) != NULL)
		cli_json_string(j, "version", quic_version_name(p->version));
	if (has_header(p)) {
		cli_json_hex(j, "header", p->bytes, p->pn_offset + p->pn_len,
		             CLI_HEX_LOWER);
		cli_json_uint(j, "pn_length", p->pn_len);
		cli_json_uint(j, "packet_number", p->pn);
		cli_json_uint(j, "truncated_packet_number", p->truncated_pn);
		cli_json_bool(j, "packet_number_known", p->pn_known);
		if (p->type == QUIC_PT_1RTT)
			cli_json_uint(j, "key_phase", (uint64_t)p->key_phase);
		cli_json_hex(j, "mask", p->mask, sizeof p->mask, CLI_HEX_LOWER);
	}
	cli_json_string(j, "payload", verdict);
	cli_json_bool(j, "authenticated", p->verdict == UP_AUTHENTICATED);
	if (why != NULL && why[0] != '\0')
		cli_json_string(j, p->verdict == UP_FAILED ? "causes" : "reason",
		                why);
	if (p->verdict == UP_FAILED)
		cli_json_uint(j, "keys_tried", p->candidates);
	if (p->verdict == UP_AUTHENTICATED || (p->verdict == UP_FAILED &&
	                                       has_header(p) &&
	                                       p->source != UP_SRC_NONE))
		json_key(r, p, keytext);
	if (has_header(p))
		cli_json_hex(j, "packet", p->bytes, p->len, CLI_HEX_LOWER);
	cli_json_end(j);
}

static void raise_to(struct report *r, int st)
{
	if (st == EXIT_USAGE || (st == EXIT_CHECK && r->worst == 0))
		r->worst = st;
}

/* A packet whose tag did not verify: its message, its causes in why. */
static void on_failure(struct report *r, const struct up_packet *p,
                       char *why, size_t size)
{
	char at[300], pk[80];

	up_hints_text(p, why, size);
	if (why[0] == '\0')
		snprintf(why, size, "%s", p->candidates > 1 ?
		         "no key given verifies its tag" :
		         "the key given does not verify its tag");
	cli_err("%s%s: not authenticated: %s", where(r, at, sizeof at),
	        which(p, pk, sizeof pk), why);
	raise_to(r, EXIT_CHECK);
}

/* A packet refused or invalid: in a stream its message now, for an
 * argument the first one kept for the refusal. */
static void on_refusal(struct report *r, const struct up_packet *p)
{
	char at[300], pk[80];

	r->refused++;
	if (r->stream) {
		cli_err("%s%s: %s", where(r, at, sizeof at),
		        which(p, pk, sizeof pk), p->why);
		raise_to(r, EXIT_USAGE);
	} else if (r->first_error[0] == '\0') {
		snprintf(r->first_error, sizeof r->first_error, "%s%s%s",
		         p->index > 1 ? which(p, pk, sizeof pk) : "",
		         p->index > 1 ? ": " : "", p->why);
	}
}

/* The first packet skipped, for an argument of nothing but those. */
static void on_skip(struct report *r, const struct up_packet *p)
{
	if (r->skipped1 != NULL)
		return;
	r->skipped1 = p;
	snprintf(r->skip_why, sizeof r->skip_why, "%s", p->why);
	r->skip_type = p->type;
	r->skip_long = p->version != 0;
}

static int on_packet(void *arg, const struct up_packet *p)
{
	struct report *r = arg;
	char payload[400], why[300], key[200];
	const char *causes = NULL;

	key[0] = '\0';
	payload[0] = '\0';
	if (p->verdict == UP_AUTHENTICATED || p->verdict == UP_TRUNCATED ||
	    p->verdict == UP_NO_PACKET_KEY ||
	    (p->verdict == UP_FAILED && has_header(p)))
		key_words(r, p, key, sizeof key);
	r->unprotected += has_header(p);
	switch (p->verdict) {
	case UP_AUTHENTICATED:
		snprintf(payload, sizeof payload, "authenticated (%s)", key);
		break;
	case UP_FAILED:
		on_failure(r, p, why, sizeof why);
		causes = why;
		snprintf(payload, sizeof payload, "not authenticated");
		break;
	case UP_TRUNCATED:
	case UP_NO_PACKET_KEY:
		snprintf(payload, sizeof payload, "%s", up_verdict_name(p->verdict));
		break;
	case UP_SKIPPED:
		on_skip(r, p);
		causes = p->why;
		snprintf(payload, sizeof payload, "skipped (%s)", p->why);
		break;
	case UP_REFUSED:
	case UP_INVALID:
		on_refusal(r, p);
		causes = p->why;
		snprintf(payload, sizeof payload, "%s (%s)",
		         up_verdict_name(p->verdict), p->why);
		break;
	default:
		break;
	}
	if (r->o->json)
		json_packet(r, p, up_verdict_name(p->verdict), causes, key);
	else
		text_block(r, p, payload);
	return 0;
}

/* ------------------------------------------------------------------ */

/* An argument that cannot be reported: a packet refused, or nothing but
 * packets skipped.  Prints why and returns EXIT_USAGE, or returns 0. */
static int refusal(const struct hpu_opts *o, const struct report *r)
{
	int initial_only = o->cfg.initial && o->cfg.keylog == NULL &&
	                   !o->cfg.have_secret;

	if (r->first_error[0] != '\0')
		cli_err("%s", r->first_error);
	else if (r->unprotected != 0 || r->skipped1 == NULL)
		return 0;
	else if (initial_only && !r->skip_long)
		cli_err("--initial: the packet has a short header (1-RTT), not "
		        "an Initial packet's long header");
	else if (initial_only)
		cli_err("--initial: the packet is a %s packet, not an Initial "
		        "packet", quic_packet_type_name(r->skip_type));
	else
		cli_err("nothing to unprotect: the %s packet is skipped (%s)",
		        quic_packet_type_name(r->skip_type), r->skip_why);
	return EXIT_USAGE;
}

/* The report, from memory to stdout. */
static int write_all(const char *text, size_t len)
{
	errno = 0;
	if (len != 0 && fwrite(text, 1, len, stdout) != len) {
		cli_err("cannot write stdout: %s",
		        strerror(errno != 0 ? errno : EIO));
		return EXIT_IO;
	}
	return cli_flush_stdout();
}

/* The argument's datagram: reported whole, or refused. */
static int one_datagram(const struct hpu_opts *o, struct up_state *s)
{
	struct report r;
	char *text = NULL;
	size_t text_len = 0;
	uint8_t *d;
	int rc;

	memset(&r, 0, sizeof r);
	r.o = o;
	d = malloc(o->datagram_len);
	r.f = open_memstream(&text, &text_len);
	if (d == NULL || r.f == NULL) {
		free(d);
		if (r.f != NULL)
			fclose(r.f);
		free(text);
		cli_err("out of memory");
		return EXIT_IO;
	}
	memcpy(d, o->datagram, o->datagram_len);
	if (o->json) {
		cli_json_start(&r.j, r.f, CLI_JSON_LISTING);
		cli_json_array(&r.j, NULL);
	}
	rc = up_datagram(s, d, o->datagram_len, on_packet, &r);
	if (o->json) {
		cli_json_end(&r.j);
		if (cli_json_finish(&r.j) != 0 && rc == 0)
			rc = UP_ENOMEM;
	}
	if (fclose(r.f) != 0 && rc == 0)
		rc = UP_ENOMEM;
	if (rc != 0) {
		cli_err("out of memory");
		rc = EXIT_IO;
	} else if ((rc = refusal(o, &r)) == 0) {
		rc = write_all(text, text_len);
		if (rc == 0)
			rc = r.worst;
	}
	aesecb_wipe(d, o->datagram_len);
	free(d);
	if (text != NULL) {
		aesecb_wipe(text, text_len);
		free(text);
	}
	return rc;
}

/* One file of the stream (fd), reported as it is read. */
static int one_stream(struct report *r, struct up_state *s, int fd)
{
	struct dgramin in;
	char why[200];
	uint8_t *d;
	size_t len;
	int st, rc = 0;

	dgramin_init(&in, fd);
	for (;;) {
		st = dgramin_next(&in, &d, &len, why, sizeof why);
		if (st == DGRAMIN_OK && d == NULL)
			break;
		if (st == DGRAMIN_EIO) {
			cli_err("%s: %s", cli_safe(r->name), why);
			rc = EXIT_IO;
			break;
		}
		if (st == DGRAMIN_ENOMEM) {
			cli_err("out of memory");
			rc = EXIT_IO;
			break;
		}
		r->line = in.dline;
		if (st == DGRAMIN_EBAD) {
			cli_err("%s:%lu: %s", cli_safe(r->name), in.dline, why);
			rc = EXIT_USAGE;
			break;
		}
		r->dgram_len = len;
		if (r->o->json) {
			cli_json_object(&r->j, NULL);
			cli_json_string(&r->j, "file", r->name);
			cli_json_uint(&r->j, "line", in.dline);
			cli_json_uint(&r->j, "length", len);
			cli_json_array(&r->j, "packets");
		}
		if (up_datagram(s, d, len, on_packet, r) != 0) {
			cli_err("out of memory");
			rc = EXIT_IO;
			break;
		}
		if (r->o->json) {
			cli_json_end(&r->j);
			cli_json_end(&r->j);
		}
		/* each datagram's report as soon as it is made */
		if (fflush(r->f) != 0) {
			cli_err("cannot write stdout: %s", strerror(errno));
			rc = EXIT_IO;
			break;
		}
	}
	dgramin_free(&in);
	return rc;
}

int hpu_run(const struct hpu_opts *o)
{
	struct up_state *s;
	struct report r;
	size_t i;
	int rc = 0, st;

	st = up_new(&s, &o->cfg);
	if (st == UP_ENOMEM) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	if (st != QUIC_OK) {
		cli_err("these key options cannot be used together");
		return EXIT_USAGE;
	}
	if (o->datagram != NULL) {
		rc = one_datagram(o, s);
		up_free(s);
		return rc;
	}

	memset(&r, 0, sizeof r);
	r.o = o;
	r.f = stdout;
	r.stream = 1;
	if (o->json) {
		cli_json_start(&r.j, stdout, CLI_JSON_LISTING);
		cli_json_array(&r.j, NULL);
	}
	for (i = 0; i == 0 || i < o->nfiles; i++) {
		const char *name = o->nfiles != 0 ? o->files[i] : "-";
		int fd = STDIN_FILENO;

		r.name = strcmp(name, "-") == 0 ? "stdin" : name;
		if (strcmp(name, "-") != 0) {
			fd = open(name, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				cli_err("%s: cannot open: %s", cli_safe(name),
				        strerror(errno));
				rc = EXIT_IO;
				break;
			}
		}
		rc = one_stream(&r, s, fd);
		if (fd != STDIN_FILENO)
			close(fd);
		if (rc != 0)
			break;
	}
	if (o->json) {
		cli_json_end(&r.j);
		st = cli_json_finish_stdout(&r.j);
		if (rc == 0)
			rc = st;
	} else if (rc == 0) {
		rc = cli_flush_stdout();
	}
	up_free(s);
	if (rc == 0)
		rc = r.worst;
	return rc;
}
