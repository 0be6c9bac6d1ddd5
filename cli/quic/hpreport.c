/* SPDX-License-Identifier: MIT */
/*
 * hpreport.c - the report of "aesecb hp-mask --protect" and
 * "--unprotect".  See hpreport.h.
 *
 * A packet given to --protect, and a datagram given to --unprotect as an
 * argument, are reported whole or not at all: the report is made in
 * memory, and a packet that cannot be handled (a malformed header, Retry,
 * Version Negotiation, an unknown version, nothing to unprotect) leaves
 * stdout empty with one message and exit 2.  A stream is reported a
 * datagram at a time as it is read, with where each datagram is; there a
 * Retry or Version Negotiation packet or a packet of an unknown version
 * is reported (no protection, skipped) and the run does not fail for it,
 * a malformed packet gets its error line and the stream goes on (exit 2
 * at the end), and a line that is not hex ends it.  A packet whose tag
 * does not verify is reported, with one line on stderr naming the likely
 * causes, and the exit status is 1 unless it is already 2.  With
 * --summary only the packets that did not authenticate (or are
 * malformed) get a block, and the connections are summed up at the end.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/common.h"
#include "quic/dgramin.h"
#include "common/hex.h"
#include "quic/hpreport.h"
#include "common/json.h"
#include "common/outbuf.h"
#include "quic/pcapin.h"
#include "quic/unprotect.h"

/* Totals of the run, by verdict. */
struct totals {
	unsigned long datagrams;
	unsigned long frames_skipped;   /* a capture's, pcapin's reasons */
	unsigned long not_quic;         /* a capture's datagrams that do not
	                                   parse as QUIC */
	unsigned long by[UP_PROTECTED + 1];
	unsigned long no_conn;     /* packets of no connection */
};

struct report {
	const struct hp_conf *c;
	const struct keylog *kl;
	struct up_state *s;
	struct outbuf ob;          /* the text report */
	struct cli_json j;         /* the JSON report */
	FILE *jf;
	int stream;
	const char *name;          /* the stream's file, for messages */
	char *safe_name;           /* it as a message shows it */
	char **safe_files;         /* the key-log files, likewise */
	unsigned long line;
	int capture;               /* the file is a capture: */
	struct pcapin_dgram cur;   /* its datagram being reported */
	size_t dgram_len;
	int dgram_open;            /* JSON: this datagram's object is open */
	int blocks;                /* text blocks written so far */
	int worst;                 /* exit status so far */
	/* a datagram given as an argument */
	int tried;                 /* packets a key was tried on */
	char refusal[400];         /* why it cannot be reported */
	struct up_packet first_skipped;
	int have_skipped;
	struct outbuf later;       /* its messages, told if it is reported */
	struct totals t;
};

/* ------------------------------------------------------------------ */
/* Where, and in words. */

/* Where a message is: "NAME:LINE: " in a stream of hex, "NAME: frame N: "
 * in a capture, else "". */
static const char *where(const struct report *r, char *buf, size_t size)
{
	buf[0] = '\0';
	if (r->stream && r->capture)
		snprintf(buf, size, "%s: frame %llu: ", r->safe_name,
		         r->cur.frame);
	else if (r->stream)
		snprintf(buf, size, "%s:%lu: ", r->safe_name, r->line);
	return buf;
}

/* A capture's time stamp as the file has it: "1700000001.000003". */
static const char *time_text(const struct pcapin_dgram *d, char *buf,
                             size_t size)
{
	if (d->ts_digits == 9)
		snprintf(buf, size, "%lld.%09lu", (long long)d->sec,
		         (unsigned long)d->nsec);
	else
		snprintf(buf, size, "%lld.%06lu", (long long)d->sec,
		         (unsigned long)(d->nsec / 1000));
	return buf;
}

/* "packet 2 (Handshake at offset 166)" */
static const char *which(const struct up_packet *p, char *buf, size_t size)
{
	snprintf(buf, size, "packet %zu (%s at offset %zu)", p->index,
	         quic_packet_type_name(p->type), p->offset);
	return buf;
}

/* A file name as a message shows it (cli_safe), made once: a copy, or
 * NULL when memory is short. */
static char *safe_copy(const char *name)
{
	const char *safe = cli_safe(name);
	char *copy = malloc(strlen(safe) + 1);

	if (copy != NULL)
		strcpy(copy, safe);
	return copy;
}

/* The shown names of the key-log files, made once (0, or -1: no
 * memory). */
static int make_safe_files(struct report *r)
{
	unsigned i;

	if (r->kl == NULL || r->kl->nfiles == 0)
		return 0;
	if ((r->safe_files = calloc(r->kl->nfiles, sizeof *r->safe_files)) ==
	    NULL)
		return -1;
	for (i = 0; i < r->kl->nfiles; i++)
		if ((r->safe_files[i] = safe_copy(r->kl->files[i])) == NULL)
			return -1;
	return 0;
}

static void free_safe_names(struct report *r)
{
	unsigned i;

	if (r->safe_files != NULL)
		for (i = 0; i < r->kl->nfiles; i++)
			free(r->safe_files[i]);
	free(r->safe_files);
	free(r->safe_name);
}

/* The key-log file of a key-log connection's secret, as a message shows
 * it. */
static const char *keylog_file_shown(const struct report *r, size_t conn,
                                     enum keylog_label label)
{
	unsigned f;

	if (r->kl == NULL || r->safe_files == NULL || conn >= r->kl->n ||
	    (unsigned)label >= KEYLOG_NLABELS)
		return "the key log";
	f = r->kl->conns[conn].file[label];
	return f < r->kl->nfiles ? r->safe_files[f] : "the key log";
}

/* The key-log file of a secret, as a message may show it. */
static const char *keylog_name(const struct report *r,
                               const struct up_packet *p)
{
	return keylog_file_shown(r, p->keylog_conn, p->keylog_label);
}

/* ", key generation G (K key updates before it not seen)" */
static void generation_words(const struct up_packet *p, char *buf,
                             size_t size)
{
	size_t n = strlen(buf);

	if (p->generation != 0)
		snprintf(buf + n, size - n, ", key generation %lu",
		         (unsigned long)p->generation);
	n = strlen(buf);
	if (p->missed_updates != 0)
		snprintf(buf + n, size - n, " (%lu key update%s before it not "
		         "seen)", (unsigned long)p->missed_updates,
		         p->missed_updates > 1 ? "s" : "");
}

/* The key a packet was unprotected with, in words (never its bytes).
 * with_dcid: an Initial key's DCID in hex too (not in JSON, which has it
 * in a member of its own, and whose strings withhold long hex runs). */
static void key_words(const struct report *r, const struct up_packet *p,
                      int with_dcid, char *buf, size_t size)
{
	const char *side = p->server ? "server" : "client";
	char dcid[2 * QUIC_MAX_CID_LEN + 8];

	buf[0] = '\0';
	switch (p->source) {
	case UP_SRC_INITIAL:
		*cli_hex_encode(dcid + 5, p->key_dcid, p->key_dcid_len,
		                CLI_HEX_LOWER) = '\0';
		memcpy(dcid, "DCID ", 5);
		snprintf(buf, size, "%s Initial key of %s%s", side,
		         !with_dcid ? "its DCID" :
		         p->key_dcid_len != 0 ? dcid : "DCID (empty)",
		         p->dcid_from == UP_DCID_OPTION ? ", --odcid" :
		         p->dcid_from == UP_DCID_REMEMBERED ?
		         ", the client's first DCID seen earlier" : "");
		break;
	case UP_SRC_KEYLOG:
		snprintf(buf, size, "%s %s secret of %s line %lu", side,
		         quic_packet_type_name(p->type), keylog_name(r, p),
		         r->kl->conns[p->keylog_conn].line[p->keylog_label]);
		generation_words(p, buf, size);
		break;
	case UP_SRC_SECRET:
		snprintf(buf, size, "the secret");
		generation_words(p, buf, size);
		break;
	case UP_SRC_HP_KEY:
		snprintf(buf, size, "the hp key");
		break;
	default:
		break;
	}
}

static int has_header(const struct up_packet *p)
{
	return p->pn_len != 0 &&
	       (p->verdict == UP_AUTHENTICATED || p->verdict == UP_TRUNCATED ||
	        p->verdict == UP_NO_PACKET_KEY || p->verdict == UP_FAILED);
}

/* What the payload line says. */
static void payload_words(const struct up_packet *p, const char *key,
                          char *buf, size_t size)
{
	switch (p->verdict) {
	case UP_AUTHENTICATED:
		snprintf(buf, size, "authenticated (%s)", key);
		break;
	case UP_SKIPPED:
	case UP_NO_PROTECTION:
	case UP_INVALID:
		snprintf(buf, size, "%s (%s)", up_verdict_name(p->verdict),
		         p->why);
		break;
	default:
		snprintf(buf, size, "%s", up_verdict_name(p->verdict));
		break;
	}
}

/* ------------------------------------------------------------------ */
/* Blocks. */

/* "datagram: NAME:LINE", or for a capture "datagram: NAME frame N time T
 * SRC -> DST" */
static void text_datagram_line(struct report *r)
{
	struct outbuf *o = &r->ob;
	char a[PCAPIN_ADDRSTRLEN], b[PCAPIN_ADDRSTRLEN], t[40];

	if (!r->stream)
		return;
	ob_label(o, "datagram");
	ob_str(o, r->safe_name);
	if (!r->capture) {
		ob_char(o, ':');
		ob_uint(o, r->line);
		ob_char(o, '\n');
		return;
	}
	ob_printf(o, " frame %llu time %s %s -> %s\n", r->cur.frame,
	          time_text(&r->cur, t, sizeof t),
	          pcapin_endpoint(&r->cur, 0, a, sizeof a),
	          pcapin_endpoint(&r->cur, 1, b, sizeof b));
}

static void text_block(struct report *r, const struct up_packet *p,
                       const char *payload)
{
	struct outbuf *o = &r->ob;
	uint8_t mask[5];

	if (r->blocks++ > 0)
		ob_char(o, '\n');
	text_datagram_line(r);
	ob_label(o, "type");
	ob_str(o, p->verdict == UP_PADDING ? "padding" :
	       quic_packet_type_name(p->type));
	ob_str(o, "\noffset: ");
	ob_uint(o, p->offset);
	ob_str(o, "\nlength: ");
	ob_uint(o, p->len);
	ob_char(o, '\n');
	if (p->verdict == UP_PADDING)
		return;
	if (p->conn != 0) {
		ob_label(o, "connection");
		ob_uint(o, p->conn);
		ob_char(o, '\n');
	}
	if (has_header(p)) {
		ob_label(o, "header");
		ob_hex(o, p->bytes, p->pn_offset + p->pn_len);
		ob_str(o, "\npn_length: ");
		ob_uint(o, p->pn_len);
		ob_str(o, "\npacket_number: ");
		ob_uint(o, p->pn);
		if (up_mask(p, mask) == 0) {
			ob_str(o, "\nmask: ");
			ob_hex(o, mask, sizeof mask);
		}
		ob_char(o, '\n');
	}
	ob_label(o, "payload");
	ob_str(o, payload);
	ob_char(o, '\n');
	if (has_header(p)) {
		ob_label(o, "packet");
		ob_hex(o, p->bytes, p->len);
		ob_char(o, '\n');
	}
	aesecb_wipe(mask, sizeof mask);
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
		cli_json_string(j, "side", p->server ? "server" : "client");
	if (p->source == UP_SRC_INITIAL) {
		cli_json_hex(j, "dcid", p->key_dcid, p->key_dcid_len,
		             CLI_HEX_LOWER);
		cli_json_string(j, "dcid_from",
		                p->dcid_from == UP_DCID_OPTION ? "--odcid" :
		                p->dcid_from == UP_DCID_REMEMBERED ?
		                "stream" : "packet");
	}
	if (p->source == UP_SRC_KEYLOG) {
		const char *f = keylog_file_of(r->kl, p->keylog_conn,
		                               p->keylog_label);

		cli_json_string(j, "label", keylog_label_name(p->keylog_label));
		if (f != NULL)
			cli_json_string(j, "file", f);
		cli_json_uint(j, "line", r->kl->conns[p->keylog_conn].
		              line[p->keylog_label]);
	}
	if (p->type == QUIC_PT_1RTT && p->source != UP_SRC_INITIAL)
		cli_json_uint(j, "generation", p->generation);
	if (p->missed_updates != 0)
		cli_json_uint(j, "missed_key_updates", p->missed_updates);
	cli_json_string(j, "description", keytext);
	cli_json_end(j);
}

static void json_header(struct report *r, const struct up_packet *p)
{
	struct cli_json *j = &r->j;
	uint8_t mask[5];

	cli_json_hex(j, "header", p->bytes, p->pn_offset + p->pn_len,
	             CLI_HEX_LOWER);
	cli_json_uint(j, "pn_length", p->pn_len);
	cli_json_uint(j, "packet_number", p->pn);
	cli_json_uint(j, "truncated_packet_number", p->truncated_pn);
	cli_json_bool(j, "packet_number_known", p->pn_known);
	if (p->type == QUIC_PT_1RTT)
		cli_json_uint(j, "key_phase", (uint64_t)p->key_phase);
	if (up_mask(p, mask) == 0)
		cli_json_hex(j, "mask", mask, sizeof mask, CLI_HEX_LOWER);
	aesecb_wipe(mask, sizeof mask);
}

static void json_packet(struct report *r, const struct up_packet *p,
                        const char *why, const char *keytext)
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
	if (p->conn != 0)
		cli_json_uint(j, "connection", p->conn);
	if (has_header(p))
		json_header(r, p);
	cli_json_string(j, "payload", up_verdict_name(p->verdict));
	cli_json_bool(j, "authenticated", p->verdict == UP_AUTHENTICATED);
	if (why != NULL && why[0] != '\0')
		cli_json_string(j, p->verdict == UP_FAILED ? "causes" : "reason",
		                why);
	if (p->verdict == UP_FAILED)
		cli_json_uint(j, "keys_tried", p->candidates);
	if (p->verdict == UP_AUTHENTICATED ||
	    (p->verdict == UP_FAILED && has_header(p) &&
	     p->source != UP_SRC_NONE))
		json_key(r, p, keytext);
	if (has_header(p))
		cli_json_hex(j, "packet", p->bytes, p->len, CLI_HEX_LOWER);
	cli_json_end(j);
}

/* A stream's datagram object: opened before its packets, or with
 * --summary at the first of them reported. */
static void json_datagram(struct report *r)
{
	struct cli_json *j = &r->j;
	char a[PCAPIN_ADDRSTRLEN], t[40];

	if (!r->stream || r->dgram_open)
		return;
	r->dgram_open = 1;
	cli_json_object(j, NULL);
	cli_json_string(j, "file", r->name);
	if (r->capture) {
		cli_json_uint(j, "frame", r->cur.frame);
		cli_json_string(j, "time", time_text(&r->cur, t, sizeof t));
		cli_json_string(j, "source",
		                pcapin_endpoint(&r->cur, 0, a, sizeof a));
		cli_json_string(j, "destination",
		                pcapin_endpoint(&r->cur, 1, a, sizeof a));
	} else {
		cli_json_uint(j, "line", r->line);
	}
	cli_json_uint(j, "length", r->dgram_len);
	cli_json_array(j, "packets");
}

static void json_datagram_end(struct report *r)
{
	if (!r->dgram_open)
		return;
	cli_json_end(&r->j);
	cli_json_end(&r->j);
	r->dgram_open = 0;
}

/* ------------------------------------------------------------------ */
/* Messages and statuses. */

static void raise_to(struct report *r, int st)
{
	if (st == EXIT_USAGE || (st == EXIT_CHECK && r->worst == 0))
		r->worst = st;
}

/* A message about a packet: now in a stream, for an argument once it is
 * known the datagram is reported. */
static void tell(struct report *r, const char *text)
{
	char at[300];

	if (r->stream) {
		cli_err("%s%s", where(r, at, sizeof at), text);
		return;
	}
	ob_str(&r->later, text);
	ob_char(&r->later, '\n');
}

/* A packet whose tag did not verify: its message, its causes in why. */
static void on_failure(struct report *r, const struct up_packet *p,
                       char *why, size_t size)
{
	char pk[80], text[500];

	up_hints_text(p, why, size);
	if (why[0] == '\0')
		snprintf(why, size, "%s", p->candidates > 1 ?
		         "no key given verifies its tag" :
		         "the key given does not verify its tag");
	snprintf(text, sizeof text, "%s: not authenticated: %s",
	         which(p, pk, sizeof pk), why);
	tell(r, text);
	raise_to(r, EXIT_CHECK);
}

/* A packet that verified only under a generation after key updates the
 * capture does not show: said, as the cause of what might look odd. */
static void on_missed_update(struct report *r, const struct up_packet *p)
{
	char pk[80], text[300];

	snprintf(text, sizeof text, "%s: key generation %lu: %lu key update%s "
	         "before it %s not in the capture", which(p, pk, sizeof pk),
	         (unsigned long)p->generation,
	         (unsigned long)p->missed_updates,
	         p->missed_updates > 1 ? "s" : "",
	         p->missed_updates > 1 ? "were" : "was");
	tell(r, text);
}

/*
 * A packet that cannot be handled: in a stream malformed ones are told
 * and make the run fail, while Retry, Version Negotiation and unknown
 * versions are only reported; for an argument the first of any of them
 * refuses the datagram.
 */
static void on_unusable(struct report *r, const struct up_packet *p)
{
	char pk[80];

	if (r->stream) {
		if (p->verdict == UP_INVALID) {
			char text[400];

			snprintf(text, sizeof text, "%s: %s",
			         which(p, pk, sizeof pk), p->why);
			tell(r, text);
			raise_to(r, EXIT_USAGE);
		}
		return;
	}
	if (r->refusal[0] == '\0')
		snprintf(r->refusal, sizeof r->refusal, "%s%s%s",
		         p->index > 1 ? which(p, pk, sizeof pk) : "",
		         p->index > 1 ? ": " : "", p->why);
}

static int unusable(const struct up_packet *p)
{
	return p->verdict == UP_INVALID || p->verdict == UP_NO_PROTECTION ||
	       (p->verdict == UP_SKIPPED && p->status == QUIC_EVERSION);
}

static int tried(const struct up_packet *p)
{
	return p->verdict == UP_AUTHENTICATED || p->verdict == UP_FAILED ||
	       p->verdict == UP_TRUNCATED || p->verdict == UP_NO_PACKET_KEY;
}

/* Whether a packet gets a block: every one, or with --summary those that
 * did not authenticate or are malformed. */
static int reported(const struct report *r, const struct up_packet *p)
{
	return !r->c->summary || p->verdict == UP_FAILED ||
	       p->verdict == UP_INVALID;
}

static int on_packet(void *arg, const struct up_packet *p)
{
	struct report *r = arg;
	char payload[400], why[300], key[240];
	const char *causes = NULL;

	r->t.by[p->verdict]++;
	r->t.no_conn += p->conn == 0 && p->verdict != UP_PADDING;
	r->tried += tried(p);
	if (p->verdict == UP_FAILED) {
		on_failure(r, p, why, sizeof why);
		causes = why;
	} else if (unusable(p)) {
		on_unusable(r, p);
	} else if (p->verdict == UP_SKIPPED && !r->have_skipped) {
		r->first_skipped = *p;
		r->have_skipped = 1;
	}
	if (p->missed_updates != 0)
		on_missed_update(r, p);
	if (p->verdict == UP_SKIPPED || unusable(p))
		causes = p->why;
	if (!reported(r, p))
		return 0;
	key[0] = '\0';
	if (p->verdict == UP_AUTHENTICATED || has_header(p))
		key_words(r, p, !r->c->json, key, sizeof key);
	if (r->c->json) {
		json_datagram(r);
		json_packet(r, p, causes, key);
	} else {
		payload_words(p, key, payload, sizeof payload);
		text_block(r, p, payload);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The summary. */

/* The connection's cipher: as its ServerHello said, else as the keys
 * that authenticated its packets after the Initials. */
static const char *cipher_of(const struct qc_conn *cn)
{
	if (cn->suite_state == 1)
		switch (cn->suite) {
		case QF_TLS_AES_128_GCM_SHA256:
			return "AES-128-GCM";
		case QF_TLS_AES_256_GCM_SHA384:
			return "AES-256-GCM";
		case QF_TLS_CHACHA20_POLY1305_SHA256:
			return "ChaCha20-Poly1305";
		default:
			return "another";
		}
	return cn->key_len == 16 ? "AES-128-GCM" :
	       cn->key_len == 32 ? "AES-256-GCM" : "unknown";
}

/* "client 0a0b0c0d 1a1b1c1d; server 5a5b5c5d; first 8394c8f03e515708" */
static void cid_words(struct outbuf *o, const struct qc_conn *cn)
{
	static const char *const side[2] = { "client", "server" };
	size_t s, i;

	for (s = 0; s < 2; s++) {
		if (s > 0)
			ob_str(o, "; ");
		ob_str(o, side[s]);
		for (i = 0; i < cn->ncids[s]; i++) {
			ob_char(o, ' ');
			if (cn->cids[s][i].len == 0)
				ob_str(o, "(empty)");
			ob_hex(o, cn->cids[s][i].id, cn->cids[s][i].len);
		}
		if (cn->ncids[s] == 0)
			ob_str(o, " (none seen)");
	}
	if (cn->have_odcid) {
		ob_str(o, "; first DCID ");
		if (cn->odcid_len == 0)
			ob_str(o, "(empty)");
		ob_hex(o, cn->odcid, cn->odcid_len);
	}
}

static void key_source_words(const struct report *r, const struct qc_conn *cn,
                             char *buf, size_t size)
{
	const char *f;
	unsigned k;

	if (cn->keylog == KEYLOG_NONE) {
		snprintf(buf, size, "%s", cn->hello_state == 1 && r->kl != NULL ?
		         "not in the key log (its ClientHello's random is on no "
		         "line)" : "no key-log connection");
		return;
	}
	for (k = 0; k < KEYLOG_NLABELS; k++)
		if (r->kl->conns[cn->keylog].have & (1u << k))
			break;
	f = keylog_file_shown(r, cn->keylog, (enum keylog_label)k);
	snprintf(buf, size, "%s line %lu (%s)", f,
	         r->kl->conns[cn->keylog].line[k],
	         cn->keylog_by_trial ? "found by trial: no ClientHello seen" :
	         "its ClientHello's random");
}

static void text_connection(struct report *r, const struct qc_conn *cn)
{
	struct outbuf *o = &r->ob;
	char words[400];

	ob_str(o, "\nconnection: ");
	ob_uint(o, cn->index);
	ob_str(o, "\nversion: ");
	ob_str(o, cn->version != 0 && quic_version_name(cn->version) != NULL ?
	       quic_version_name(cn->version) : "unknown");
	ob_str(o, "\ncipher: ");
	ob_str(o, cipher_of(cn));
	ob_str(o, "\nconnection_ids: ");
	cid_words(o, cn);
	key_source_words(r, cn, words, sizeof words);
	ob_str(o, "\nkey_log: ");
	ob_str(o, words);
	ob_printf(o, "\npackets: Initial %lu, 0-RTT %lu, Handshake %lu, 1-RTT "
	          "%lu\nauthenticated: %lu\nnot_authenticated: %lu\nskipped: "
	          "%lu\nnot_checked: %lu\nno_protection: %lu\n",
	          cn->count[QC_N_INITIAL], cn->count[QC_N_0RTT],
	          cn->count[QC_N_HANDSHAKE], cn->count[QC_N_1RTT],
	          cn->count[QC_N_AUTHENTICATED], cn->count[QC_N_FAILED],
	          cn->count[QC_N_SKIPPED], cn->count[QC_N_NOT_CHECKED],
	          cn->count[QC_N_NO_PROTECTION]);
	if (cn->missed_updates != 0)
		ob_printf(o, "missed_key_updates: %lu\n", cn->missed_updates);
	if (cn->cids_forgotten != 0)
		ob_printf(o, "connection_ids_forgotten: %lu\n",
		          cn->cids_forgotten);
}

static void text_totals(struct report *r, size_t nconn)
{
	const struct totals *t = &r->t;

	if (r->blocks > 0)
		ob_char(&r->ob, '\n');
	ob_printf(&r->ob, "summary: %zu connection%s\ndatagrams: %lu\n"
	          "packets: %lu\nauthenticated: %lu\nnot_authenticated: %lu\n"
	          "skipped: %lu\nnot_checked: %lu\nno_protection: %lu\n"
	          "invalid: %lu\nof_no_connection: %lu\n"
	          "frames_skipped: %lu\nnot_quic: %lu\n", nconn,
	          nconn == 1 ? "" : "s", t->datagrams,
	          t->by[UP_AUTHENTICATED] + t->by[UP_FAILED] +
	          t->by[UP_TRUNCATED] + t->by[UP_NO_PACKET_KEY] +
	          t->by[UP_SKIPPED] + t->by[UP_NO_PROTECTION] +
	          t->by[UP_INVALID], t->by[UP_AUTHENTICATED],
	          t->by[UP_FAILED], t->by[UP_SKIPPED],
	          t->by[UP_TRUNCATED] + t->by[UP_NO_PACKET_KEY],
	          t->by[UP_NO_PROTECTION], t->by[UP_INVALID], t->no_conn,
	          t->frames_skipped, t->not_quic);
}

static void json_connection(struct report *r, const struct qc_conn *cn)
{
	struct cli_json *j = &r->j;
	char words[400];
	size_t s, i;

	cli_json_object(j, NULL);
	cli_json_uint(j, "connection", cn->index);
	if (cn->version != 0 && quic_version_name(cn->version) != NULL)
		cli_json_string(j, "version", quic_version_name(cn->version));
	cli_json_string(j, "cipher", cipher_of(cn));
	for (s = 0; s < 2; s++) {
		cli_json_array(j, s == 0 ? "client_ids" : "server_ids");
		for (i = 0; i < cn->ncids[s]; i++)
			cli_json_hex(j, NULL, cn->cids[s][i].id,
			             cn->cids[s][i].len, CLI_HEX_LOWER);
		cli_json_end(j);
	}
	if (cn->have_odcid)
		cli_json_hex(j, "first_dcid", cn->odcid, cn->odcid_len,
		             CLI_HEX_LOWER);
	key_source_words(r, cn, words, sizeof words);
	cli_json_string(j, "key_log", words);
	cli_json_uint(j, "initial", cn->count[QC_N_INITIAL]);
	cli_json_uint(j, "0rtt", cn->count[QC_N_0RTT]);
	cli_json_uint(j, "handshake", cn->count[QC_N_HANDSHAKE]);
	cli_json_uint(j, "1rtt", cn->count[QC_N_1RTT]);
	cli_json_uint(j, "authenticated", cn->count[QC_N_AUTHENTICATED]);
	cli_json_uint(j, "not_authenticated", cn->count[QC_N_FAILED]);
	cli_json_uint(j, "skipped", cn->count[QC_N_SKIPPED]);
	cli_json_uint(j, "not_checked", cn->count[QC_N_NOT_CHECKED]);
	cli_json_uint(j, "no_protection", cn->count[QC_N_NO_PROTECTION]);
	cli_json_uint(j, "missed_key_updates", cn->missed_updates);
	cli_json_uint(j, "connection_ids_forgotten", cn->cids_forgotten);
	cli_json_end(j);
}

static void json_totals(struct report *r)
{
	const struct totals *t = &r->t;
	struct cli_json *j = &r->j;

	cli_json_object(j, "totals");
	cli_json_uint(j, "datagrams", t->datagrams);
	cli_json_uint(j, "authenticated", t->by[UP_AUTHENTICATED]);
	cli_json_uint(j, "not_authenticated", t->by[UP_FAILED]);
	cli_json_uint(j, "skipped", t->by[UP_SKIPPED]);
	cli_json_uint(j, "not_checked", t->by[UP_TRUNCATED] +
	              t->by[UP_NO_PACKET_KEY]);
	cli_json_uint(j, "no_protection", t->by[UP_NO_PROTECTION]);
	cli_json_uint(j, "invalid", t->by[UP_INVALID]);
	cli_json_uint(j, "of_no_connection", t->no_conn);
	cli_json_uint(j, "frames_skipped", t->frames_skipped);
	cli_json_uint(j, "not_quic", t->not_quic);
	cli_json_end(j);
}

/* The connections and the totals, at the end of a --summary run. */
static void summary(struct report *r)
{
	const struct qc_table *t = up_connections(r->s);
	size_t i;

	if (r->c->json) {
		cli_json_end(&r->j);            /* the packets' array */
		cli_json_array(&r->j, "connections");
		for (i = 0; i < t->n; i++)
			json_connection(r, t->conns[i]);
		cli_json_end(&r->j);
		json_totals(r);
		return;
	}
	text_totals(r, t->n);
	for (i = 0; i < t->n; i++)
		text_connection(r, t->conns[i]);
}

/* ------------------------------------------------------------------ */
/* One datagram or packet given as an argument. */

/* An argument whose every packet was skipped: why, as one message. */
static void nothing_tried(const struct report *r, char *buf, size_t size)
{
	const struct up_packet *p = &r->first_skipped;
	const struct hp_conf *c = r->c;
	int initial_only = c->initial && c->nkeylogs == 0 && !c->secret.given;

	if (initial_only && p->version == 0)
		snprintf(buf, size, "--initial: the packet has a short header "
		         "(1-RTT), not an Initial packet's long header");
	else if (initial_only)
		snprintf(buf, size, "--initial: the packet is a %s packet, not "
		         "an Initial packet", quic_packet_type_name(p->type));
	else
		snprintf(buf, size, "nothing to unprotect: the %s packet is "
		         "skipped (%s)", quic_packet_type_name(p->type), p->why);
}

/* The messages kept back for an argument, told. */
static void tell_later(struct report *r)
{
	size_t i = 0;

	while (i < r->later.n) {
		const char *nl = memchr(r->later.p + i, '\n', r->later.n - i);
		size_t n = (size_t)(nl - (r->later.p + i));

		cli_err("%.*s", (int)n, r->later.p + i);
		i += n + 1;
	}
}

/* The report of an argument, written to stdout at once. */
static int write_report(const char *text, size_t len)
{
	errno = 0;
	if (len != 0 && fwrite(text, 1, len, stdout) != len) {
		cli_err("cannot write stdout: %s", strerror(cli_write_error()));
		return EXIT_IO;
	}
	return cli_flush_stdout();
}

/* A datagram given with --unprotect: reported whole, or refused. */
static int one_datagram(struct report *r)
{
	char *jtext = NULL, refusal[400];
	size_t jlen = 0;
	uint8_t *d;
	int rc;

	if ((d = malloc(r->c->packet_len)) == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	memcpy(d, r->c->packet, r->c->packet_len);
	if (r->c->json) {
		if ((r->jf = open_memstream(&jtext, &jlen)) == NULL) {
			free(d);
			cli_err("out of memory");
			return EXIT_IO;
		}
		cli_json_start(&r->j, r->jf, CLI_JSON_LISTING);
		cli_json_array(&r->j, NULL);
	}
	rc = up_datagram(r->s, d, r->c->packet_len, NULL, on_packet, r);
	if (r->c->json) {
		cli_json_end(&r->j);
		if (cli_json_finish(&r->j) != 0 && rc == 0)
			rc = UP_ENOMEM;
		if (fclose(r->jf) != 0 && rc == 0)
			rc = UP_ENOMEM;
	}
	if (rc != 0 || r->ob.failed) {
		cli_err("out of memory");
		rc = EXIT_IO;
	} else if (r->refusal[0] != '\0' || r->tried == 0) {
		if (r->refusal[0] == '\0')
			nothing_tried(r, refusal, sizeof refusal);
		cli_err("%s", r->refusal[0] != '\0' ? r->refusal : refusal);
		rc = EXIT_USAGE;
	} else {
		tell_later(r);
		rc = r->c->json ? write_report(jtext, jlen)
		                : write_report(r->ob.p, r->ob.n);
		if (rc == 0)
			rc = r->worst;
	}
	aesecb_wipe(d, r->c->packet_len);
	free(d);
	free(jtext);
	return rc;
}

/* The five lines of --protect. */
static int protected(struct report *r, const struct up_packet *p)
{
	const struct hp_conf *c = r->c;
	struct outbuf *o = &r->ob;
	uint8_t mask[5];

	ob_label(o, "header");
	ob_hex(o, c->packet, p->pn_offset + p->pn_len);
	ob_str(o, "\npn_length: ");
	ob_uint(o, p->pn_len);
	ob_str(o, "\npacket_number: ");
	ob_uint(o, p->truncated_pn);
	if (up_mask(p, mask) == 0) {
		ob_str(o, "\nmask: ");
		ob_hex(o, mask, sizeof mask);
	}
	ob_str(o, "\npacket: ");
	ob_hex(o, c->packet, c->packet_len);
	ob_char(o, '\n');
	aesecb_wipe(mask, sizeof mask);
	if (o->failed) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	return write_report(o->p, o->n);
}

/* --protect: one packet, through the engine's placement and keys. */
static int protect(struct report *r)
{
	const struct hp_conf *c = r->c;
	struct up_packet p;
	char why[400];

	if (up_protect(r->s, c->packet, c->packet_len, &p) != 0) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	if (p.verdict == UP_PROTECTED)
		return protected(r, &p);
	if (p.verdict == UP_SKIPPED && p.status != QUIC_EVERSION) {
		r->first_skipped = p;
		nothing_tried(r, why, sizeof why);
		cli_err("%s", why);
	} else {
		cli_err("%s", p.why);
	}
	return EXIT_USAGE;
}

/* ------------------------------------------------------------------ */
/* Streams. */

/* Each datagram's report out as soon as it is made when the reader may
 * wait for more (a pipe, a terminal); in large pieces from a file. */
static int flush_datagram(struct report *r, int interactive)
{
	if (!interactive)
		return 0;
	if (r->c->json)
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
	return ob_flush(&r->ob);
}

/* A write that failed: told once, the stream ended. */
static int write_failed(struct report *r)
{
	cli_err("cannot write stdout: %s",
	        strerror(r->ob.failed && r->ob.err != 0 ? r->ob.err
	                                                : cli_write_error()));
	return EXIT_IO;
}

/* A capture's frame that pcapin skipped (a fragment, a frame cut short,
 * a malformed header): a block of its own, no failure. */
static void frame_skipped(struct report *r, const char *why)
{
	r->t.frames_skipped++;
	if (r->c->summary)
		return;
	if (r->c->json) {
		json_datagram(r);
		cli_json_end(&r->j);             /* no packets */
		cli_json_string(&r->j, "skipped", why);
		cli_json_end(&r->j);
		r->dgram_open = 0;
		return;
	}
	if (r->blocks++ > 0)
		ob_char(&r->ob, '\n');
	text_datagram_line(r);
	ob_label(&r->ob, "skipped");
	ob_str(&r->ob, why);
	ob_char(&r->ob, '\n');
}

/* Whether a capture's datagram parses as QUIC: its first packet a long
 * header, or a short header long enough to be protected.  (Other UDP traffic of the capture is counted, not
 * reported; --port picks the QUIC traffic when there is more.) */
static int looks_like_quic(const uint8_t *d, size_t len)
{
	struct dgram_part part;

	if (!dgram_next(d, len, 0, QUIC_DCID_LEN_UNKNOWN, &part))
		return 0;
	if (!part.h.long_header)        /* (the fixed bit may be greased) */
		return len >= 1 + QUIC_SAMPLE_GAP + QUIC_SAMPLE_LEN;
	return part.status == QUIC_OK || part.status == QUIC_ENOPROTECTION ||
	       part.status == QUIC_EVERSION;
}

/* The addresses of a capture's datagram, as the engine keys them: the
 * IP address, then the port. */
static void addr_of(const struct pcapin_dgram *d, int dst, struct qc_addr *a)
{
	size_t n = d->family == 6 ? 16 : d->family == 4 ? 4 : 0;
	unsigned port = dst ? d->dport : d->sport;

	memset(a, 0, sizeof *a);
	if (n == 0)
		return;
	memcpy(a->bytes, dst ? d->dst : d->src, n);
	a->bytes[n] = (uint8_t)(port >> 8);
	a->bytes[n + 1] = (uint8_t)port;
	a->len = (uint8_t)(n + 2);
}

/* One datagram of the stream through the engine and the report. */
static int one_datagram_of(struct report *r, uint8_t *d, size_t len,
                           const struct up_meta *meta, int interactive)
{
	r->dgram_len = len;
	r->t.datagrams++;
	if (r->c->json && !r->c->summary)
		json_datagram(r);            /* every datagram, even empty */
	if (up_datagram(r->s, d, len, meta, on_packet, r) != 0) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	if (r->c->json)
		json_datagram_end(r);
	if (r->ob.failed || flush_datagram(r, interactive) != 0)
		return -1;
	return 0;
}

/* A capture (its first n bytes in head), reported as it is read. */
static int capture_stream(struct report *r, int fd, const uint8_t *head,
                          size_t n, int interactive)
{
	struct pcapin *cap;
	struct up_meta meta;
	char why[300];
	int st, rc = 0;

	if (pcapin_open(&cap, fd, head, n, r->c->port, why, sizeof why) !=
	    PCAPIN_OK) {
		cli_err("%s: %s", cli_safe(r->name), why);
		return EXIT_USAGE;
	}
	r->capture = 1;
	while (rc == 0 &&
	       (st = pcapin_next(cap, &r->cur, why, sizeof why)) != PCAPIN_END) {
		if (st == PCAPIN_SKIP) {
			frame_skipped(r, why);
			continue;
		}
		if (st != PCAPIN_OK) {
			cli_err("%s: %s", cli_safe(r->name), why);
			rc = st == PCAPIN_EIO ? EXIT_IO : st == PCAPIN_ENOMEM ?
			     EXIT_IO : EXIT_USAGE;
			break;
		}
		if (!looks_like_quic(r->cur.data, r->cur.len)) {
			r->t.not_quic++;
			continue;
		}
		memset(&meta, 0, sizeof meta);
		meta.have_frame = meta.have_time = 1;
		meta.frame = r->cur.frame;
		meta.sec = r->cur.sec;
		meta.nsec = r->cur.nsec;
		addr_of(&r->cur, 0, &meta.src);
		addr_of(&r->cur, 1, &meta.dst);
		/* (the engine works in place: pcapin's buffer is its own until
		 * the next call) */
		rc = one_datagram_of(r, (uint8_t *)(uintptr_t)r->cur.data,
		                     r->cur.len, &meta, interactive);
	}
	pcapin_free(cap);
	r->capture = 0;
	return rc;
}

/* A file of hex datagrams, one per line (its first n bytes in head). */
static int hex_stream(struct report *r, int fd, const uint8_t *head, size_t n,
                      int interactive)
{
	struct dgramin in;
	char why[200];
	uint8_t *d;
	size_t len;
	int st, rc = 0;

	if (r->c->port != 0) {
		cli_err("%s: --port is for captures (pcap, pcapng): this is not "
		        "one", cli_safe(r->name));
		return EXIT_USAGE;
	}
	dgramin_init(&in, fd);
	dgramin_prime(&in, head, n);
	while (rc == 0) {
		st = dgramin_next(&in, &d, &len, why, sizeof why);
		if (st == DGRAMIN_OK && d == NULL)
			break;
		if (st == DGRAMIN_EIO) {
			cli_err("%s: %s", cli_safe(r->name), why);
			rc = EXIT_IO;
		} else if (st == DGRAMIN_ENOMEM) {
			cli_err("out of memory");
			rc = EXIT_IO;
		} else if (st == DGRAMIN_EBAD) {
			cli_err("%s:%lu: %s", cli_safe(r->name), in.dline, why);
			rc = EXIT_USAGE;
		} else {
			r->line = in.dline;
			rc = one_datagram_of(r, d, len, NULL, interactive);
		}
	}
	dgramin_free(&in);
	return rc;
}

/* One file of the stream (fd): a capture, told by its first bytes, or
 * hex; reported as it is read. */
static int one_stream(struct report *r, int fd)
{
	uint8_t head[PCAPIN_SNIFF_LEN];
	char why[200];
	size_t n;
	struct stat sb;
	int interactive = fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode);

	if (pcapin_head(fd, head, sizeof head, &n, why, sizeof why) !=
	    PCAPIN_OK) {
		cli_err("%s: %s", cli_safe(r->name), why);
		return EXIT_IO;
	}
	if (pcapin_sniff(head, n))
		return capture_stream(r, fd, head, n, interactive);
	return hex_stream(r, fd, head, n, interactive);
}

/* The stream's files in turn ("-" and none: standard input). */
static int each_file(struct report *r)
{
	const struct hp_conf *c = r->c;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && (i == 0 || i < c->noperands); i++) {
		const char *name = c->noperands != 0 ? c->operands[i] : "-";
		int fd = STDIN_FILENO;

		r->name = strcmp(name, "-") == 0 ? "stdin" : name;
		free(r->safe_name);
		if ((r->safe_name = safe_copy(r->name)) == NULL) {
			cli_err("out of memory");
			return EXIT_IO;
		}
		if (strcmp(name, "-") != 0 &&
		    (fd = open(name, O_RDONLY | O_CLOEXEC)) < 0) {
			cli_err("%s: cannot open: %s", cli_safe(name),
			        strerror(errno));
			return EXIT_IO;
		}
		rc = one_stream(r, fd);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	return rc;
}

static int stream(struct report *r)
{
	int rc, st;

	r->stream = 1;
	ob_init(&r->ob, stdout);
	if (r->c->json) {
		cli_json_start(&r->j, stdout, CLI_JSON_LISTING);
		if (r->c->summary) {
			cli_json_object(&r->j, NULL);
			cli_json_array(&r->j, "not_authenticated");
		} else {
			cli_json_array(&r->j, NULL);
		}
	}
	rc = each_file(r);
	if (rc >= 0 && r->c->summary && !r->ob.failed)
		summary(r);
	if (r->c->json) {
		cli_json_end(&r->j);
		st = rc < 0 ? 0 : cli_json_finish(&r->j);
		if (rc == -1 || (st != 0 && rc == 0))
			rc = write_failed(r);
	} else if (rc == -1 || ob_flush(&r->ob) != 0) {
		rc = write_failed(r);
	}
	return rc != 0 ? rc : r->worst;
}

/* ------------------------------------------------------------------ */

int hp_report_run(const struct hp_conf *c, const aesecb_backend *be)
{
	struct keylog kl;
	struct report r;
	int rc, st;

	memset(&r, 0, sizeof r);
	r.c = c;
	keylog_init(&kl);
	if ((rc = hp_conf_keylogs(c, &kl)) != 0) {
		keylog_free(&kl);
		return rc;
	}
	r.kl = c->nkeylogs != 0 ? &kl : NULL;
	st = make_safe_files(&r) != 0 ? UP_ENOMEM : up_new(&r.s, c, r.kl, be);
	if (st != QUIC_OK) {
		free_safe_names(&r);
		keylog_free(&kl);
		cli_err(st == UP_ENOMEM ? "out of memory"
		                        : "the backend refuses the key");
		return st == UP_ENOMEM ? EXIT_IO : EXIT_USAGE;
	}
	ob_init(&r.ob, NULL);
	ob_init(&r.later, NULL);
	if (c->mode == HP_PROTECT)
		rc = protect(&r);
	else if (c->stream)
		rc = stream(&r);
	else
		rc = one_datagram(&r);
	ob_free(&r.ob);
	ob_free(&r.later);
	up_free(r.s);
	free_safe_names(&r);
	keylog_free(&kl);
	return rc;
}
