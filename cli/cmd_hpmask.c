/* SPDX-License-Identifier: MIT */
/*
 * cmd_hpmask.c - "aesecb hp-mask": QUIC header protection with AES
 * (RFC 9001, section 5.4).
 *
 * The mask for a packet is the first 5 bytes of AES-ECB(hp_key, sample),
 * where the sample is the 16 bytes that start 4 bytes after the offset of
 * the packet number.  The command prints masks for samples given as
 * arguments or streamed one per line on standard input, and removes or
 * applies the protection on a whole packet (--unprotect, --protect).
 *
 * Samples and protected packets are ciphertext that travels in the clear;
 * the parsers branch on the syntax of the text they read.  The AES output,
 * the unmasking of the first byte and of the packet number, and the hex
 * printing of results use no branch and no table index on their values.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hpunprotect.h"
#include "keylog.h"
#include "num.h"
#include "quic.h"

#define SAMPLE_LEN 16
#define MASK_LEN 5
#define PN_MAX 4            /* a packet number is 1 to 4 bytes */
#define SAMPLE_GAP 4        /* the sample starts this far after the pn offset */
#define BATCH 256           /* samples per call into the library */
#define READ_SIZE 16384

static void help(FILE *f)
{
	fputs(
"Usage: aesecb hp-mask KEYOPT [-b NAME] [--block] [SAMPLE_HEX ...]\n"
"       aesecb hp-mask KEYSRC [-b NAME] [--json] --unprotect DATAGRAM_HEX [HEADER]\n"
"       aesecb hp-mask KEYSRC [-b NAME] [--json] --unprotect - [FILE ...]\n"
"       aesecb hp-mask KEYSRC [-b NAME] --protect PACKET_HEX [HEADER]\n"
"QUIC header protection with AES (RFC 9001, section 5.4): the mask is the\n"
"first 5 bytes of AES-ECB(hp_key, sample), and the sample is the 16 bytes\n"
"that start 4 bytes after the packet-number offset.\n"
"\n"
"Prints one mask per SAMPLE_HEX (16 bytes, 32 hex digits), in lowercase hex,\n"
"one per line.  Without SAMPLE_HEX, reads one sample per line from standard\n"
"input and writes one mask per line; blank lines are skipped, and '#' starts\n"
"a comment that runs to the end of its line.  Whitespace inside a sample is\n"
"ignored.\n"
"\n"
"KEYOPT, the hp key (exactly one of):\n"
"  -k, --key HEX          the hp key in hex.  Other local users can read it in\n"
"                         the process list: prefer -K or --key-env\n"
"  -K, --key-file FILE    read the key from FILE (one line of hex digits)\n"
"      --key-env VAR      read the key from environment variable VAR (hex)\n"
"  The key is 16 bytes for the AES-128 packet-protection suites and 32 bytes\n"
"  for AES-256-GCM; 24 bytes (AES-192, which QUIC does not use) is accepted.\n"
"  With a bare hp key --unprotect removes header protection only.\n"
"\n", f);
	fputs(
"KEYSRC, with --protect and --unprotect: KEYOPT, or one of these (with\n"
"--unprotect, --initial may stand with a secret or --keylog):\n"
"      --initial          the Initial keys (RFC 9001 5.2, RFC 9369 3.3.1) of\n"
"                         the packet's DCID and version (1 or 2); --unprotect\n"
"                         tries both sides' (and, in a stream, the DCIDs of\n"
"                         the client Initials before)\n"
"      --odcid HEX        with --initial: the client's first DCID, which keys\n"
"                         a server's Initials and the client's later ones\n"
"      --server           with --initial and --odcid: the server's keys only\n"
"      --secret HEX       the keys of this traffic secret (hp key, packet key\n"
"                         and IV, \"quic hp\"/\"quic key\"/\"quic iv\" or quicv2;\n"
"                         1-RTT key updates followed).  Visible in the process\n"
"                         list: prefer the next two\n"
"      --secret-file FILE read the secret from FILE (one line of hex digits)\n"
"      --secret-env VAR   read the secret from environment variable VAR\n"
"      --hash NAME        with a secret: sha256 (default: 32-byte secret,\n"
"                         AES-128-GCM) or sha384 (48 bytes, AES-256-GCM)\n"
"      --keylog FILE      with --unprotect: the secrets of a TLS key log\n"
"                         (SSLKEYLOGFILE): each Handshake, 0-RTT and 1-RTT\n"
"                         packet tried against those of its level\n"
"      --quic-version V   with a secret or key log: 1 (default) or 2, for the\n"
"                         labels; a long header's own version wins\n"
"\n"
"HEADER: where the packet number is.  By default the header is parsed: long\n"
"headers (Initial, 0-RTT, Handshake of versions 1 and 2) completely, short\n"
"headers with\n"
"      --dcid-len N       the length of a short header's DCID (0 to 20; with\n"
"                         -k; with a key source, else the lengths seen in\n"
"                         long headers, or every length, are tried)\n"
"      --pn-offset N      or give the first packet's packet-number offset\n"
"                         (decimal); it overrides the header's\n"
"Retry and Version Negotiation packets have no header protection and are\n"
"refused, as are unknown versions and headers that are truncated or too\n"
"short for the sample.\n"
"\n", f);
	fputs(
"Options:\n"
"  -b, --backend NAME     use backend NAME (default: $AESECB_BACKEND, else the\n"
"                         best available; see 'aesecb backends')\n"
"      --block            print the whole 16-byte AES output, not the 5-byte mask\n"
"      --unprotect HEX    remove header protection from the packets of the UDP\n"
"                         datagram HEX and check their AEAD tags\n"
"      --unprotect -      the same for datagrams read one per line (hex) from\n"
"                         the FILEs, or standard input\n"
"      --protect HEX      apply header protection to the packet HEX, given with\n"
"                         its header unprotected and its payload encrypted\n"
"      --json             with --unprotect: the report as JSON\n"
"  -h, --help             show this help\n"
"\n"
"--unprotect prints a block per packet (in a stream after a line\n"
"'datagram: FILE:LINE'), all hex in lowercase:\n"
"  type: T                Initial, 0-RTT, Handshake, 1-RTT, or padding\n"
"  offset: N, length: N   where the packet is in the datagram\n"
"  header: HEX            first byte through the packet number, unprotected\n"
"  pn_length: N           length of the packet number, 1 to 4 bytes\n"
"  packet_number: N       the full packet number, in decimal\n"
"  mask: HEX              the 5-byte mask\n"
"  payload: WHAT          authenticated (KEY), not authenticated, not checked,\n"
"                         or skipped (no keys of its type)\n"
"  packet: HEX            the packet, header unprotected, payload sealed\n"
"--protect prints header, pn_length, packet_number (as sent), mask and\n"
"packet, protected.\n"
"\n"
"Exit status: 0 success; 1 a packet did not authenticate; 2 usage error or\n"
"invalid input; 3 backend unknown or not available; 4 I/O error.\n", f);
}

/* ------------------------------------------------------------------ */
/* Text helpers. */

/* A character for a message: printable as itself, else as \xNN. */
static const char *show_char(int c, char buf[8])
{
	if (c > ' ' && c < 0x7f)
		snprintf(buf, 8, "%c", c);
	else
		snprintf(buf, 8, "\\x%02x", (unsigned)c & 0xffu);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Output. */

static int write_out(const char *buf, size_t n)
{
	errno = 0;
	if (n != 0 && fwrite(buf, 1, n, stdout) != n) {
		cli_err("cannot write stdout: %s",
		        strerror(errno != 0 ? errno : EIO));
		return EXIT_IO;
	}
	return 0;
}

/*
 * Masks (or whole blocks) for n samples, printed one per line.  The AES
 * output and its text are wiped afterwards.
 */
static int emit_batch(const aesecb_ctx *ctx, const uint8_t *samples,
                      size_t n, int block)
{
	static uint8_t out[BATCH * SAMPLE_LEN];
	static char text[BATCH * (2 * SAMPLE_LEN + 1)];
	size_t per = block ? SAMPLE_LEN : MASK_LEN;
	size_t i;
	char *p = text;
	int st, rc;

	if (n == 0)
		return 0;
	if (block)
		st = aesecb_encrypt(ctx, samples, out, n * SAMPLE_LEN);
	else
		st = aesecb_hp_masks(ctx, samples, out, n);
	if (st != AESECB_OK) {
		cli_err("%s", aesecb_strerror(st));
		return cli_status_exit(st);
	}
	for (i = 0; i < n; i++) {
		p = cli_hex_encode(p, out + i * per, per, CLI_HEX_LOWER);
		*p++ = '\n';
	}
	rc = write_out(text, (size_t)(p - text));
	aesecb_wipe(out, n * per);
	aesecb_wipe(text, (size_t)(p - text));
	return rc;
}

/* ------------------------------------------------------------------ */
/* Samples. */

/*
 * Parsing state of one sample: the first 16 bytes' worth of digits are
 * stored, the rest only counted.
 */
struct sample {
	uint8_t bytes[SAMPLE_LEN];
	struct cli_hex text;
	int comment;        /* inside a '#' comment */
};

static void sample_reset(struct sample *s)
{
	cli_hex_init(&s->text, CLI_HEX_SKIP_SPACE | CLI_HEX_COUNT);
	s->comment = 0;
}

/*
 * Feed text with no newline in it; with comments, '#' starts a comment
 * that runs to the end of the line.  Returns CLI_HEX_OK, or CLI_HEX_BAD
 * with the character that is neither hex nor whitespace in *bad.
 */
static int sample_feed(struct sample *s, const char *text, size_t n,
                       int comments, int *bad)
{
	const char *hash = comments ? memchr(text, '#', n) : NULL;
	unsigned long long before = s->text.chars;

	if (s->comment)
		return CLI_HEX_OK;
	if (hash != NULL) {
		n = (size_t)(hash - text);
		s->comment = 1;
	}
	if (cli_hex_feed(&s->text, s->bytes, SAMPLE_LEN, text, n) !=
	    CLI_HEX_OK) {
		*bad = (unsigned char)text[s->text.chars - before];
		return CLI_HEX_BAD;
	}
	return CLI_HEX_OK;
}

/*
 * At the end of a sample: 1 when it holds a full sample, 0 when it is
 * blank (nothing but whitespace and comment), or -1 with a message in why.
 */
static int sample_end(const struct sample *s, char *why, size_t size)
{
	unsigned long long digits = s->text.digits;

	if (digits == 2 * SAMPLE_LEN)
		return 1;
	if (digits == 0)
		return 0;
	if (digits % 2 != 0)
		snprintf(why, size, "odd number of hex digits (%llu); a sample "
		         "is 16 bytes (32 hex digits)", digits);
	else
		snprintf(why, size, "sample is %llu bytes; a sample is 16 bytes "
		         "(32 hex digits)", digits / 2);
	return -1;
}

static int masks_from_args(const aesecb_ctx *ctx, char **args, size_t nargs,
                           int block)
{
	static uint8_t in[BATCH * SAMPLE_LEN];
	struct sample s;
	char why[128], cb[8];
	size_t i, n = 0;
	int rc, bad;

	/* Check every argument before printing anything. */
	for (i = 0; i < nargs; i++) {
		int end;

		sample_reset(&s);
		if (sample_feed(&s, args[i], strlen(args[i]), 0, &bad) !=
		    CLI_HEX_OK) {
			cli_err("sample argument %zu: bad hex digit '%s'", i + 1,
			        show_char(bad, cb));
			return EXIT_USAGE;
		}
		end = sample_end(&s, why, sizeof why);
		if (end == 0)
			snprintf(why, sizeof why, "empty sample; a sample is "
			         "16 bytes (32 hex digits)");
		if (end <= 0) {
			cli_err("sample argument %zu: %s", i + 1, why);
			return EXIT_USAGE;
		}
	}
	for (i = 0; i < nargs; i++) {
		sample_reset(&s);
		sample_feed(&s, args[i], strlen(args[i]), 0, &bad);
		memcpy(in + n * SAMPLE_LEN, s.bytes, SAMPLE_LEN);
		if (++n == BATCH) {
			if ((rc = emit_batch(ctx, in, n, block)) != 0)
				return rc;
			n = 0;
		}
	}
	if ((rc = emit_batch(ctx, in, n, block)) != 0)
		return rc;
	return cli_flush_stdout();
}

/* Samples read from standard input: the line being decoded, and the
 * batch of samples waiting for their masks. */
struct reader {
	const aesecb_ctx *ctx;
	int block;
	struct sample s;
	unsigned long line;
	uint8_t *in;          /* BATCH samples */
	size_t n;             /* in the batch */
};

/* The masks of the batch, written; the batch is empty again. */
static int flush_batch(struct reader *r)
{
	int rc = emit_batch(r->ctx, r->in, r->n, r->block);

	r->n = 0;
	return rc;
}

/* A line that is not a sample: what was read before it is answered
 * first, then the message (unless writing failed: that is the error). */
static int bad_line(struct reader *r, const char *why)
{
	int rc = flush_batch(r);

	if (rc != 0)
		return rc;
	cli_err("stdin:%lu: %s", r->line, why);
	return EXIT_USAGE;
}

/* At a newline: the line's sample joins the batch (a blank line is
 * skipped). */
static int end_line(struct reader *r)
{
	char why[128];
	int got = sample_end(&r->s, why, sizeof why);

	if (got < 0)
		return bad_line(r, why);
	if (got > 0) {
		memcpy(r->in + r->n * SAMPLE_LEN, r->s.bytes, SAMPLE_LEN);
		if (++r->n == BATCH) {
			int rc = flush_batch(r);

			if (rc != 0)
				return rc;
		}
	}
	sample_reset(&r->s);
	r->line++;
	return 0;
}

/* What one read brought, line by line; a line may go on in the next. */
static int feed_text(struct reader *r, const char *buf, size_t len)
{
	size_t i, end;
	char why[64], cb[8];
	int bad, rc;

	for (i = 0; i < len; i = end + 1) {
		const char *nl = memchr(buf + i, '\n', len - i);

		end = nl != NULL ? (size_t)(nl - buf) : len;
		if (sample_feed(&r->s, buf + i, end - i, 1, &bad) != CLI_HEX_OK) {
			snprintf(why, sizeof why, "bad hex digit '%s' in sample",
			         show_char(bad, cb));
			return bad_line(r, why);
		}
		if (nl != NULL && (rc = end_line(r)) != 0)
			return rc;
	}
	return 0;
}

/*
 * One sample per line from standard input, in constant memory.  Results
 * go out a batch at a time, and whenever a read comes back short (the
 * writer paused), so that an interactive or slow producer sees its masks.
 */
static int masks_from_stdin(const aesecb_ctx *ctx, int block)
{
	static uint8_t in[BATCH * SAMPLE_LEN];
	static char buf[READ_SIZE];
	struct reader r;
	ssize_t got;
	int rc = 0;

	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.block = block;
	r.line = 1;
	r.in = in;
	sample_reset(&r.s);
	while (rc == 0 && (got = read(STDIN_FILENO, buf, sizeof buf)) != 0) {
		int err = errno;   /* a write below may change it */

		if (got < 0 && err == EINTR)
			continue;
		if (got < 0) {
			/* what was read before is answered first */
			if ((rc = flush_batch(&r)) == 0) {
				cli_err("stdin: read error: %s", strerror(err));
				rc = EXIT_IO;
			}
			break;
		}
		rc = feed_text(&r, buf, (size_t)got);
		if (rc == 0 && (size_t)got < sizeof buf &&
		    (rc = flush_batch(&r)) == 0)
			rc = cli_flush_stdout();
	}
	/* a last line without a newline */
	if (rc == 0 && r.s.text.digits != 0)
		rc = end_line(&r);
	if (rc == 0 && (rc = flush_batch(&r)) == 0)
		rc = cli_flush_stdout();
	return rc;
}

/* ------------------------------------------------------------------ */
/* Options: each is parsed into its typed value (and checked) as it is
 * read, in command-line order; then check() looks at how they combine. */

struct hpmask_opts {
	struct cli_opts common;   /* key, -b, -h */
	struct cli_key secret;    /* --secret, --secret-file, --secret-env */
	int initial;              /* --initial */
	int server;               /* --server */
	int have_odcid;           /* --odcid HEX: */
	uint8_t odcid[QUIC_MAX_CID_LEN];
	size_t odcid_len;
	int have_hash;            /* --hash NAME */
	enum quic_hash hash;
	int have_version;         /* --quic-version V */
	uint32_t version;
	size_t dcid_len;          /* --dcid-len N, else QUIC_DCID_LEN_UNKNOWN */
	int block;                /* --block */
	const char *packet_opt;   /* "--protect" or "--unprotect", or NULL */
	int protect;              /* which of the two */
	int both;                 /* both were given */
	uint8_t *packet;          /* its packet, decoded */
	size_t packet_len;
	int have_pn_offset;       /* --pn-offset N */
	size_t pn_offset;
	int stream;               /* --unprotect -: datagrams from the FILE
	                             operands, or standard input */
	const char *keylog;       /* --keylog FILE */
	int json;                 /* --json */
	char **samples;           /* SAMPLE_HEX operands (or FILEs) */
	size_t nsamples;
};

/* A packet in hex (whitespace ignored), into a new buffer. */
static int parse_packet(struct hpmask_opts *o, const char *opt,
                        const char *hex)
{
	struct cli_hex h;
	size_t len = strlen(hex), n;
	uint8_t *p;
	char cb[8];
	int r;

	if (o->packet_opt != NULL && strcmp(o->packet_opt, opt) != 0)
		o->both = 1;
	if (strcmp(opt, "--unprotect") == 0 && strcmp(hex, "-") == 0) {
		/* a stream of datagrams, one per line */
		if (o->packet != NULL) {
			aesecb_wipe(o->packet, o->packet_len);
			free(o->packet);
			o->packet = NULL;
			o->packet_len = 0;
		}
		o->stream = 1;
		o->packet_opt = opt;
		o->protect = 0;
		return 0;
	}
	/* check and count first, then decode into a buffer of the size */
	r = cli_hex_decode(&h, CLI_HEX_SKIP_SPACE | CLI_HEX_COUNT, NULL, 0,
	                   hex, len);
	if (r == CLI_HEX_BAD) {
		cli_err("%s: bad hex digit '%s' at character %llu", opt,
		        show_char((unsigned char)hex[h.chars], cb), h.chars + 1);
		return EXIT_USAGE;
	}
	if (h.digits == 0) {
		cli_err("%s: the packet is empty", opt);
		return EXIT_USAGE;
	}
	if (r == CLI_HEX_ODD) {
		cli_err("%s: odd number of hex digits (%llu)", opt, h.digits);
		return EXIT_USAGE;
	}
	n = (size_t)(h.digits / 2);
	p = malloc(n);
	if (p == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	cli_hex_decode(&h, CLI_HEX_SKIP_SPACE, p, n, hex, len);
	if (o->packet != NULL) {   /* the last one given counts */
		aesecb_wipe(o->packet, o->packet_len);
		free(o->packet);
	}
	o->packet = p;
	o->packet_len = n;
	o->packet_opt = opt;
	o->stream = 0;
	o->protect = strcmp(opt, "--protect") == 0;
	return 0;
}

static int parse_odcid(struct hpmask_opts *o, const char *hex)
{
	struct cli_hex h;
	char cb[8];
	int r = cli_hex_decode(&h, CLI_HEX_SKIP_SPACE | CLI_HEX_COUNT, o->odcid,
	                       sizeof o->odcid, hex, strlen(hex));

	if (r == CLI_HEX_BAD) {
		cli_err("--odcid: bad hex digit '%s' at character %llu",
		        show_char((unsigned char)hex[h.chars], cb), h.chars + 1);
		return EXIT_USAGE;
	}
	if (r == CLI_HEX_ODD) {
		cli_err("--odcid: odd number of hex digits (%llu)", h.digits);
		return EXIT_USAGE;
	}
	if (h.digits / 2 > QUIC_MAX_CID_LEN) {
		cli_err("--odcid: the connection ID is %llu bytes; QUIC versions "
		        "1 and 2 allow at most %d", h.digits / 2,
		        QUIC_MAX_CID_LEN);
		return EXIT_USAGE;
	}
	o->odcid_len = (size_t)(h.digits / 2);
	o->have_odcid = 1;
	return 0;
}

static int parse_version(struct hpmask_opts *o, const char *arg)
{
	char safe[64];  /* room for CLI_WITHHELD */
	int st = quic_version_parse(arg, &o->version);

	if (st == QUIC_EVERSION) {
		cli_err("--quic-version: unknown QUIC version 0x%08lx (known: 1 "
		        "and 2)", (unsigned long)o->version);
		return EXIT_USAGE;
	}
	if (st != QUIC_OK) {
		cli_err("--quic-version: not a version: '%s' (known: 1 and 2)",
		        cli_printable(arg, safe, sizeof safe));
		return EXIT_USAGE;
	}
	o->have_version = 1;
	return 0;
}

static int parse_hash(struct hpmask_opts *o, const char *arg)
{
	char safe[64];  /* room for CLI_WITHHELD */

	if (quic_hash_parse(arg, &o->hash) != QUIC_OK) {
		cli_err("--hash: unknown hash '%s' (known: sha256, sha384)",
		        cli_printable(arg, safe, sizeof safe));
		return EXIT_USAGE;
	}
	o->have_hash = 1;
	return 0;
}

static int parse_pn_offset(struct hpmask_opts *o, const char *arg)
{
	uint64_t v;

	if (cli_num_parse(arg, strlen(arg), SIZE_MAX, &v) != CLI_NUM_OK) {
		cli_err("--pn-offset: not a byte offset: '%s'", cli_safe(arg));
		return EXIT_USAGE;
	}
	o->pn_offset = (size_t)v;
	o->have_pn_offset = 1;
	return 0;
}

static int parse_dcid_len(struct hpmask_opts *o, const char *arg)
{
	char safe[64];  /* room for CLI_WITHHELD */
	uint64_t v;

	if (cli_num_parse(arg, strlen(arg), QUIC_MAX_CID_LEN, &v) !=
	    CLI_NUM_OK) {
		cli_err("--dcid-len: not a connection ID length (0 to %d): '%s'",
		        QUIC_MAX_CID_LEN, cli_printable(arg, safe, sizeof safe));
		return EXIT_USAGE;
	}
	o->dcid_len = (size_t)v;
	return 0;
}

enum {
	OPT_BLOCK = CLI_OPT_OWN,
	OPT_PROTECT,
	OPT_UNPROTECT,
	OPT_PN_OFFSET,
	OPT_INITIAL,
	OPT_ODCID,
	OPT_SERVER,
	OPT_SECRET,
	OPT_SECRET_FILE,
	OPT_SECRET_ENV,
	OPT_HASH,
	OPT_QUIC_VERSION,
	OPT_DCID_LEN,
	OPT_KEYLOG,
	OPT_JSON
};

static const struct option longopts[] = {
	CLI_KEY_LONGOPTS,
	{ "backend",      required_argument, NULL, 'b' },
	{ "block",        no_argument,       NULL, OPT_BLOCK },
	{ "protect",      required_argument, NULL, OPT_PROTECT },
	{ "unprotect",    required_argument, NULL, OPT_UNPROTECT },
	{ "pn-offset",    required_argument, NULL, OPT_PN_OFFSET },
	{ "initial",      no_argument,       NULL, OPT_INITIAL },
	{ "odcid",        required_argument, NULL, OPT_ODCID },
	{ "server",       no_argument,       NULL, OPT_SERVER },
	{ "secret",       required_argument, NULL, OPT_SECRET },
	{ "secret-file",  required_argument, NULL, OPT_SECRET_FILE },
	{ "secret-env",   required_argument, NULL, OPT_SECRET_ENV },
	{ "hash",         required_argument, NULL, OPT_HASH },
	{ "quic-version", required_argument, NULL, OPT_QUIC_VERSION },
	{ "dcid-len",     required_argument, NULL, OPT_DCID_LEN },
	{ "keylog",       required_argument, NULL, OPT_KEYLOG },
	{ "json",         no_argument,       NULL, OPT_JSON },
	{ "help",         no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* One option: its value parsed and checked.  Returns 0 or an exit status
 * after the message. */
static int take_option(struct hpmask_opts *o, int c, const char *arg)
{
	switch (c) {
	case OPT_BLOCK:
		o->block = 1;
		return 0;
	case OPT_PROTECT:
		return parse_packet(o, "--protect", arg);
	case OPT_UNPROTECT:
		return parse_packet(o, "--unprotect", arg);
	case OPT_PN_OFFSET:
		return parse_pn_offset(o, arg);
	case OPT_INITIAL:
		o->initial = 1;
		return 0;
	case OPT_ODCID:
		return parse_odcid(o, arg);
	case OPT_SERVER:
		o->server = 1;
		return 0;
	case OPT_SECRET:
		return cli_keysrc_load(&o->secret, &cli_kind_secret,
		                       CLI_KEYSRC_HEX, arg);
	case OPT_SECRET_FILE:
		return cli_keysrc_load(&o->secret, &cli_kind_secret,
		                       CLI_KEYSRC_FILE, arg);
	case OPT_SECRET_ENV:
		return cli_keysrc_load(&o->secret, &cli_kind_secret,
		                       CLI_KEYSRC_ENV, arg);
	case OPT_HASH:
		return parse_hash(o, arg);
	case OPT_QUIC_VERSION:
		return parse_version(o, arg);
	case OPT_DCID_LEN:
		return parse_dcid_len(o, arg);
	case OPT_KEYLOG:
		o->keylog = arg;
		return 0;
	case OPT_JSON:
		o->json = 1;
		return 0;
	default:
		return cli_option(&o->common, c, arg);
	}
}

/* The checks of how the options combine, once all are in. */
static int check(const struct hpmask_opts *o)
{
	const char *opt = o->packet_opt;
	int unprotect = opt != NULL && !o->protect;
	int keylog = o->keylog != NULL;
	int sources = o->common.key.given + o->initial + o->secret.given +
	              keylog;

	if (o->both) {
		cli_err("--protect and --unprotect cannot be used together");
		return EXIT_USAGE;
	}
	if (keylog && !unprotect)
		return cli_usage("--keylog needs --unprotect");
	if (o->json && !unprotect)
		return cli_usage("--json needs --unprotect");
	/* --unprotect: --initial may stand with a secret or a key log */
	if (sources > 1 && !(unprotect && sources == 2 && o->initial &&
	                     !o->common.key.given))
		return cli_usage("more than one key source: give one of -k, -K, "
		                 "--key-env, --initial, --secret, --secret-file, "
		                 "--secret-env or --keylog (with --unprotect, "
		                 "--initial may stand with a secret or --keylog)");
	if (sources == 0)
		return cli_usage("no key given: use -k HEX, -K FILE or --key-env "
		                 "VAR%s", opt != NULL ? ", --initial, or --secret "
		                 "HEX, --secret-file FILE or --secret-env VAR" : "");
	if (!o->initial && (o->have_odcid || o->server))
		return cli_usage("%s needs --initial", o->have_odcid ?
		                 "--odcid" : "--server");
	if (o->initial && o->server && !o->have_odcid)
		return cli_usage("a server's Initial is keyed by the client's "
		                 "first DCID: give --odcid");
	if (!o->secret.given && o->have_hash)
		return cli_usage("--hash needs --secret, --secret-file or "
		                 "--secret-env");
	if (!o->secret.given && !keylog && o->have_version)
		return cli_usage("--quic-version needs --secret, --secret-file, "
		                 "--secret-env or --keylog");
	if (o->have_pn_offset && (o->stream || keylog))
		return cli_usage("--pn-offset is for one packet given with a "
		                 "single key source: not with %s",
		                 keylog ? "--keylog" : "--unprotect -");
	if (opt != NULL) {
		if (o->block) {
			cli_err("--block cannot be used with %s", opt);
			return EXIT_USAGE;
		}
		if (o->nsamples != 0 && !o->stream) {
			cli_err("%s takes no SAMPLE_HEX arguments", opt);
			return EXIT_USAGE;
		}
		return 0;
	}
	if (o->have_pn_offset || o->dcid_len != QUIC_DCID_LEN_UNKNOWN) {
		cli_err("%s needs --protect or --unprotect", o->have_pn_offset ?
		        "--pn-offset" : "--dcid-len");
		return EXIT_USAGE;
	}
	if (o->initial || o->secret.given)
		return cli_usage("%s derives the hp key from a packet: it needs "
		                 "--protect or --unprotect", o->initial ?
		                 "--initial" : "a secret");
	return 0;
}

/* Options, then the checks of how they combine.  Operands (samples) may
 * stand among the options. */
static int parse(struct hpmask_opts *o, int argc, char **argv)
{
	int c, rc = 0;

	o->version = QUIC_VERSION_1;
	o->hash = QUIC_SHA256;
	o->dcid_len = QUIC_DCID_LEN_UNKNOWN;
	optind = 1;
	while (rc == 0 && !o->common.help &&
	       (c = cli_getopt(argc, argv, ":" CLI_KEY_SHORTOPTS "b:h",
	                       longopts)) != -1)
		rc = take_option(o, c, optarg);
	if (rc != 0 || o->common.help)
		return rc;
	o->samples = argv + optind;
	o->nsamples = (size_t)(argc - optind);
	return check(o);
}

static void opts_free(struct hpmask_opts *o)
{
	cli_key_wipe(&o->common.key);
	cli_key_wipe(&o->secret);
	if (o->packet != NULL) {
		aesecb_wipe(o->packet, o->packet_len);
		free(o->packet);
	}
	memset(o, 0, sizeof *o);
}

/* ------------------------------------------------------------------ */
/* Whole packets. */

/* 0xff when a < b, else 0 (a, b small). */
static uint8_t lt_mask(unsigned a, unsigned b)
{
	return (uint8_t)(0u - ((a - b) >> (sizeof(unsigned) * 8 - 1)));
}

/* Where header protection applies in a packet. */
struct target {
	size_t pn_offset;
	size_t len;               /* bytes of the packet protection covers */
	struct quic_header h;
	uint32_t version;         /* a long header's version, else 0 */
};

/*
 * Find the packet-number offset and the packet's extent: from the header
 * (long headers; short headers with --dcid-len), or from --pn-offset.
 */
static int find_target(const struct hpmask_opts *o, struct target *t)
{
	const uint8_t *pkt = o->packet;
	size_t len = o->packet_len;
	int lng = (pkt[0] & 0x80u) != 0;
	char why[256];
	int st;

	memset(t, 0, sizeof *t);
	t->len = len;
	t->pn_offset = o->pn_offset;
	if (lng && len >= 5)
		t->version = (uint32_t)pkt[1] << 24 | (uint32_t)pkt[2] << 16 |
		             (uint32_t)pkt[3] << 8 | pkt[4];
	/* Retry and Version Negotiation, whole or cut short: refused
	 * whatever the key source, and with --pn-offset too */
	t->h.type = quic_long_type(pkt, len);
	if (t->h.type == QUIC_PT_RETRY ||
	    t->h.type == QUIC_PT_VERSION_NEGOTIATION) {
		cli_err("%s", quic_header_error(&t->h, QUIC_ENOPROTECTION, why,
		                                sizeof why));
		return EXIT_USAGE;
	}
	if (o->initial && !lng) {
		cli_err("--initial: the packet has a short header (1-RTT), not "
		        "an Initial packet's long header");
		return EXIT_USAGE;
	}
	/* --pn-offset alone needs no header parsing; --initial needs the
	 * version and DCID, and a secret the version of a long header */
	if (o->have_pn_offset && !o->initial && !(o->secret.given && lng))
		return 0;
	st = quic_parse_header(pkt, len, o->dcid_len, &t->h);
	if (st == QUIC_ENODCIDLEN) {
		cli_err("the packet has a short header: give --dcid-len N (the "
		        "length of its Destination Connection ID) or "
		        "--pn-offset N");
		return EXIT_USAGE;
	}
	/*
	 * With --pn-offset the header is the user's to vouch for: a packet
	 * cut short (a captured prefix) is accepted, as long as what a key
	 * source needs was read: the version, and for --initial the type
	 * and the DCID, which come before the Length field.
	 */
	if (st != QUIC_OK && o->have_pn_offset &&
	    (st == QUIC_ELENGTH || st == QUIC_ESAMPLE ||
	     (!o->initial && st != QUIC_EVERSION &&
	      st != QUIC_ENOPROTECTION)))
		st = QUIC_OK;
	else if (st != QUIC_OK) {
		cli_err("%s", quic_header_error(&t->h, st, why, sizeof why));
		return EXIT_USAGE;
	} else {
		t->len = t->h.packet_len;
		if (!o->have_pn_offset)
			t->pn_offset = t->h.pn_offset;
	}
	if (o->initial && t->h.type != QUIC_PT_INITIAL) {
		cli_err("--initial: the packet is a %s packet, not an Initial "
		        "packet", quic_packet_type_name(t->h.type));
		return EXIT_USAGE;
	}
	return 0;
}

/* The packet number and its sample must lie inside the packet. */
static int check_target(const struct hpmask_opts *o, const struct target *t)
{
	size_t off = t->pn_offset, plen = t->len;
	unsigned pnlen = (o->packet[0] & 3u) + 1;

	if (off == 0) {
		cli_err("--pn-offset 0: the packet number cannot start at the "
		        "first byte");
		return EXIT_USAGE;
	}
	if (off >= plen) {
		cli_err("--pn-offset %zu is past the end of the packet (%zu bytes)",
		        off, plen);
		return EXIT_USAGE;
	}
	/* before protection, the packet-number length is in the first byte */
	if (o->protect && pnlen > plen - off) {
		cli_err("the packet number (%u bytes at offset %zu) runs past "
		        "the end of the packet (%zu bytes)", pnlen, off, plen);
		return EXIT_USAGE;
	}
	if (plen - off < SAMPLE_GAP + SAMPLE_LEN) {
		cli_err("packet too short for its sample: the sample is bytes %zu "
		        "to %zu, so %zu bytes are needed; the packet has %zu",
		        off + SAMPLE_GAP, off + SAMPLE_GAP + SAMPLE_LEN - 1,
		        off + SAMPLE_GAP + SAMPLE_LEN, plen);
		return EXIT_USAGE;
	}
	return 0;
}

/* The hp key of the key source: -k/-K/--key-env as loaded, the Initial hp
 * key (--initial), or the hp key of a traffic secret.  Moves the key
 * source's material into out (the source is wiped). */
static int hp_key(struct hpmask_opts *o, const struct target *t,
                  struct cli_key *out)
{
	int st;

	if (o->initial) {
		struct quic_initial ik;
		const struct quic_keys *side;

		st = quic_initial_keys(t->h.version,
		                       o->have_odcid ? o->odcid : t->h.dcid,
		                       o->have_odcid ? o->odcid_len :
		                                       t->h.dcid_len, &ik);
		if (st != QUIC_OK) {
			cli_err("--initial: %s", quic_strerror(st));
			return EXIT_USAGE;
		}
		side = o->server ? &ik.server : &ik.client;
		memcpy(out->bytes, side->hp, side->key_len);
		out->len = side->key_len;
		out->given = 1;
		quic_initial_wipe(&ik);
		return 0;
	}
	if (o->secret.given) {
		/* a long header's own version wins */
		uint32_t version = t->version != 0 ? t->version : o->version;
		size_t hp_len;

		if (o->secret.len != quic_hash_len(o->hash)) {
			cli_err("the secret is %zu bytes; with %s secrets are %zu "
			        "bytes (%zu hex digits)%s", o->secret.len,
			        quic_hash_name(o->hash), quic_hash_len(o->hash),
			        2 * quic_hash_len(o->hash),
			        !o->have_hash ? "; give --hash sha384 for a "
			        "48-byte secret" : "");
			return EXIT_USAGE;
		}
		st = quic_hp_key(o->hash, version, o->secret.bytes,
		                 o->secret.len, out->bytes, &hp_len);
		cli_key_wipe(&o->secret);
		if (st != QUIC_OK) {
			cli_err("%s", quic_strerror(st));
			return EXIT_USAGE;
		}
		out->len = hp_len;
		out->given = 1;
		return 0;
	}
	*out = o->common.key;
	cli_key_wipe(&o->common.key);
	return 0;
}

/*
 * Header protection applied to (protect) or removed from the packet, with
 * the mask computed once (RFC 9001 5.4.1): the low 4 bits of a long
 * header's first byte or the low 5 of a short header's, and the packet
 * number's bytes, 1 to 4 as the unprotected first byte says.  Returns the
 * packet-number length; *pn is the packet number.  No branch and no index
 * on the protected bits or the mask.
 */
static unsigned apply_mask(uint8_t *pkt, size_t off, const uint8_t *mask,
                           int protect, uint32_t *pn)
{
	uint8_t bits = (pkt[0] & 0x80u) != 0 ? 0x0fu : 0x1fu;  /* header form */
	unsigned pnlen, i;
	uint32_t n = 0;

	if (protect)
		pnlen = (pkt[0] & 3u) + 1;
	pkt[0] ^= mask[0] & bits;
	if (!protect)
		pnlen = (pkt[0] & 3u) + 1;
	for (i = 0; i < PN_MAX; i++) {
		uint8_t in = lt_mask(i, pnlen);        /* byte i is the pn's */
		uint32_t w = 0u - (uint32_t)(in & 1u);
		uint8_t before = pkt[off + i];
		uint8_t after = before ^ (mask[1 + i] & in);

		pkt[off + i] = after;
		n = (((n << 8) | (protect ? before : after)) & w) | (n & ~w);
	}
	*pn = n;
	return pnlen;
}

/* header:, pn_length:, packet_number:, mask: and packet: lines. */
static int print_packet(const uint8_t *pkt, size_t len, size_t hdr_len,
                        unsigned pnlen, uint32_t pn, const uint8_t *mask)
{
	char *text = malloc(2 * len + 2 * MASK_LEN + 1);
	int rc;

	if (text == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	*cli_hex_encode(text, pkt, hdr_len, CLI_HEX_LOWER) = '\0';
	printf("header: %s\npn_length: %u\npacket_number: %lu\n", text, pnlen,
	       (unsigned long)pn);
	*cli_hex_encode(text, mask, MASK_LEN, CLI_HEX_LOWER) = '\0';
	printf("mask: %s\n", text);
	*cli_hex_encode(text, pkt, len, CLI_HEX_LOWER) = '\0';
	printf("packet: %s\n", text);
	rc = cli_flush_stdout();
	aesecb_wipe(text, 2 * len + 2 * MASK_LEN + 1);
	free(text);
	return rc;
}

/* --protect or --unprotect: find the header, derive the key, one AES
 * call for the mask, apply it, print. */
static int do_packet(struct hpmask_opts *o)
{
	uint8_t mask[MASK_LEN] = { 0 };
	struct target t;
	struct cli_key key;
	aesecb_ctx ctx;
	unsigned pnlen;
	uint32_t pn;
	int rc, st;

	memset(&key, 0, sizeof key);
	if ((rc = find_target(o, &t)) != 0 || (rc = check_target(o, &t)) != 0 ||
	    (rc = hp_key(o, &t, &key)) != 0 ||
	    (rc = cli_context(&ctx, &key, o->common.backend)) != 0) {
		cli_key_wipe(&key);
		return rc;
	}
	st = aesecb_hp_mask(&ctx, o->packet + t.pn_offset + SAMPLE_GAP, mask);
	aesecb_clear(&ctx);
	if (st != AESECB_OK) {
		cli_err("%s", aesecb_strerror(st));
		return cli_status_exit(st);
	}
	pnlen = apply_mask(o->packet, t.pn_offset, mask, o->protect, &pn);
	rc = print_packet(o->packet, o->packet_len, t.pn_offset + pnlen, pnlen,
	                  pn, mask);
	aesecb_wipe(mask, sizeof mask);
	aesecb_wipe(&pn, sizeof pn);
	return rc;
}

/* The secret's length must be the hash's. */
static int check_secret(const struct hpmask_opts *o)
{
	if (o->secret.given && o->secret.len != quic_hash_len(o->hash)) {
		cli_err("the secret is %zu bytes; with %s secrets are %zu bytes "
		        "(%zu hex digits)%s", o->secret.len,
		        quic_hash_name(o->hash), quic_hash_len(o->hash),
		        2 * quic_hash_len(o->hash), !o->have_hash ?
		        "; give --hash sha384 for a 48-byte secret" : "");
		return EXIT_USAGE;
	}
	return 0;
}

/* --unprotect: whole datagrams, their tags checked (hpunprotect.c). */
static int do_unprotect(struct hpmask_opts *o)
{
	struct hpu_opts u;
	struct keylog kl;
	struct keylog_error err;
	int rc;

	memset(&u, 0, sizeof u);
	keylog_init(&kl);
	if ((rc = check_secret(o)) != 0 ||
	    (rc = cli_backend_resolve(o->common.backend, &u.cfg.backend)) != 0)
		goto out;
	if (o->keylog != NULL) {
		rc = keylog_read(&kl, o->keylog, &err);
		if (rc != KEYLOG_OK) {
			if (err.line != 0)
				cli_err("%s:%lu: %s", cli_safe(o->keylog), err.line,
				        err.msg);
			else
				cli_err("--keylog: %s: %s", cli_safe(o->keylog),
				        err.msg);
			rc = rc == KEYLOG_EIO ? EXIT_IO : rc == KEYLOG_ENOMEM ?
			     EXIT_IO : EXIT_USAGE;
			goto out;
		}
		u.cfg.keylog = &kl;
		u.keylog_name = o->keylog;
	}
	u.cfg.initial = o->initial;
	u.cfg.server_only = o->server;
	u.cfg.have_odcid = o->have_odcid;
	memcpy(u.cfg.odcid, o->odcid, o->odcid_len);
	u.cfg.odcid_len = o->odcid_len;
	if (o->secret.given) {
		u.cfg.have_secret = 1;
		memcpy(u.cfg.secret, o->secret.bytes, o->secret.len);
		u.cfg.secret_len = o->secret.len;
		cli_key_wipe(&o->secret);
	}
	u.cfg.hash = o->hash;
	if (o->common.key.given) {
		u.cfg.have_hp_key = 1;
		memcpy(u.cfg.hp_key, o->common.key.bytes, o->common.key.len);
		u.cfg.hp_key_len = o->common.key.len;
		cli_key_wipe(&o->common.key);
	}
	u.cfg.version = o->version;
	u.cfg.version_given = o->have_version;
	u.cfg.dcid_len = o->dcid_len;
	u.cfg.have_pn_offset = o->have_pn_offset;
	u.cfg.pn_offset = o->pn_offset;
	u.json = o->json;
	if (o->stream) {
		u.files = o->samples;
		u.nfiles = o->nsamples;
	} else {
		u.datagram = o->packet;
		u.datagram_len = o->packet_len;
	}
	rc = hpu_run(&u);
out:
	aesecb_wipe(&u, sizeof u);
	keylog_free(&kl);
	return rc;
}

int cmd_hpmask(int argc, char **argv)
{
	struct hpmask_opts o;
	aesecb_ctx ctx;
	int rc;

	memset(&o, 0, sizeof o);
	rc = parse(&o, argc, argv);
	if (rc == 0 && o.common.help)
		rc = cli_help(help);
	else if (rc == 0 && o.packet_opt != NULL && !o.protect)
		rc = do_unprotect(&o);
	else if (rc == 0 && o.packet_opt != NULL)
		rc = do_packet(&o);
	else if (rc == 0 && (rc = cli_context(&ctx, &o.common.key,
	                                      o.common.backend)) == 0) {
		if (o.nsamples != 0)
			rc = masks_from_args(&ctx, o.samples, o.nsamples, o.block);
		else
			rc = masks_from_stdin(&ctx, o.block);
		aesecb_clear(&ctx);
	}
	opts_free(&o);
	return rc;
}
