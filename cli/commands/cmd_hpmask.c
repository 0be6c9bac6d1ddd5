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

#include "commands/commands.h"
#include "quic/hpconf.h"
#include "quic/hpreport.h"

#define SAMPLE_LEN 16
#define MASK_LEN 5
#define BATCH 256           /* samples per call into the library */
#define READ_SIZE 16384

static void help(FILE *f)
{
	fputs(
"Usage: aesecb hp-mask KEYSRC [-b NAME] [--json] [--summary] [--port N]\n"
"                      [--dcid-len N] --unprotect - [FILE ...]\n"
"       aesecb hp-mask KEYSRC [-b NAME] [--json] --unprotect DATAGRAM_HEX [HEADER]\n"
"       aesecb hp-mask KEYSRC [-b NAME] --protect PACKET_HEX [HEADER]\n"
"       aesecb hp-mask KEYOPT [-b NAME] [--block] [SAMPLE_HEX ...]\n"
"QUIC header protection with AES (RFC 9001, section 5.4): the mask is the\n"
"first 5 bytes of AES-ECB(hp_key, sample), and the sample is the 16 bytes\n"
"that start 4 bytes after the packet-number offset.\n"
"\n"
"A capture checked with the TLS key log of its endpoints: every packet of\n"
"every connection unprotected, its packet number recovered, its tag checked\n"
"  aesecb hp-mask --initial --keylog keys.log --unprotect - quic.pcapng\n"
"FILE is a capture (pcap or pcapng, told by its first bytes) or hex\n"
"datagrams one per line (tshark -T fields -e udp.payload); none or '-' is\n"
"standard input.  Connections are followed by connection ID and endpoints,\n"
"their secrets found by their ClientHello's random.\n"
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
"                         (SSLKEYLOGFILE), found by ClientHello random; may\n"
"                         be given more than once (read as one key log)\n"
"      --quic-version V   with a secret or key log: 1 (default), 2, draft-29\n"
"                         or draft-v2, for the labels; a long header's own\n"
"                         version wins\n"
"\n"
"HEADER: where the packet number is.  By default the header is parsed: long\n"
"headers (Initial, 0-RTT, Handshake of the versions above) completely, short\n"
"headers with\n"
"      --dcid-len N       the length of a short header's DCID (0 to 20; with\n"
"                         -k; with a key source, else the lengths seen in\n"
"                         long headers, or every length, are tried)\n"
"      --pn-offset N      or give the first packet's packet-number offset\n"
"                         (decimal); it overrides the header's\n"
"Retry and Version Negotiation packets have no header protection: refused\n"
"as an argument, reported as 'no protection' in a stream.  Unknown versions\n"
"are refused as an argument and skipped in a stream; truncated headers and\n"
"packets too short for the sample are invalid.\n"
"\n", f);
	fputs(
"Options:\n"
"  -b, --backend NAME     use backend NAME (default: $AESECB_BACKEND, else the\n"
"                         best available; see 'aesecb backends')\n"
"      --block            print the whole 16-byte AES output, not the 5-byte mask\n"
"      --unprotect HEX    remove header protection from the packets of the UDP\n"
"                         datagram HEX and check their AEAD tags\n"
"      --unprotect -      the same for the datagrams of the FILEs (captures or\n"
"                         hex lines), or of standard input\n"
"      --protect HEX      apply header protection to the packet HEX, given with\n"
"                         its header unprotected and its payload encrypted\n"
"      --json             with --unprotect: the report as JSON\n"
"      --summary          with --unprotect: only the packets that did not\n"
"                         authenticate, then each connection and the totals\n"
"      --port N           a capture's datagrams from or to UDP port N only\n"
"  -h, --help             show this help\n"
"\n"
"--unprotect prints a block per packet (in a stream after a line\n"
"'datagram: FILE:LINE', or 'datagram: FILE frame N time T SRC -> DST'),\n"
"all hex in lowercase:\n"
"  type: T                Initial, 0-RTT, Handshake, 1-RTT, or padding\n"
"  offset: N, length: N   where the packet is in the datagram\n"
"  connection: N          its connection, numbered in the order first seen\n"
"  header: HEX            first byte through the packet number, unprotected\n"
"  pn_length: N           length of the packet number, 1 to 4 bytes\n"
"  packet_number: N       the full packet number, in decimal\n"
"  mask: HEX              the 5-byte mask\n"
"  payload: WHAT          authenticated (KEY), not authenticated, not checked,\n"
"                         skipped (why), no protection or invalid\n"
"  packet: HEX            the packet, header unprotected, payload sealed\n"
"--protect prints header, pn_length, packet_number (as sent), mask and\n"
"packet, protected.\n"
"\n"
"Exit status: 0 success (Retry and Version Negotiation packets, skipped\n"
"packets and frames included); 1 a packet did not authenticate; 2 usage\n"
"error or invalid input (a malformed packet); 3 backend unknown or not\n"
"available; 4 I/O error.\n", f);
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
/* Options: each parsed into the configuration as it stands (hpconf.h),
 * then hp_conf_check() looks at how they combine. */

static const struct option longopts[] = {
	CLI_KEY_LONGOPTS,
	{ "backend",      required_argument, NULL, 'b' },
	{ "block",        no_argument,       NULL, HP_OPT_BLOCK },
	{ "protect",      required_argument, NULL, HP_OPT_PROTECT },
	{ "unprotect",    required_argument, NULL, HP_OPT_UNPROTECT },
	{ "pn-offset",    required_argument, NULL, HP_OPT_PN_OFFSET },
	{ "initial",      no_argument,       NULL, HP_OPT_INITIAL },
	{ "odcid",        required_argument, NULL, HP_OPT_ODCID },
	{ "server",       no_argument,       NULL, HP_OPT_SERVER },
	{ "secret",       required_argument, NULL, HP_OPT_SECRET },
	{ "secret-file",  required_argument, NULL, HP_OPT_SECRET_FILE },
	{ "secret-env",   required_argument, NULL, HP_OPT_SECRET_ENV },
	{ "hash",         required_argument, NULL, HP_OPT_HASH },
	{ "quic-version", required_argument, NULL, HP_OPT_QUIC_VERSION },
	{ "dcid-len",     required_argument, NULL, HP_OPT_DCID_LEN },
	{ "keylog",       required_argument, NULL, HP_OPT_KEYLOG },
	{ "json",         no_argument,       NULL, HP_OPT_JSON },
	{ "summary",      no_argument,       NULL, HP_OPT_SUMMARY },
	{ "port",         required_argument, NULL, HP_OPT_PORT },
	{ "help",         no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Options, then the checks of how they combine.  Operands (samples, or
 * a stream's files) may stand among the options. */
static int parse(struct hp_conf *c, int argc, char **argv)
{
	int opt, rc = 0;

	optind = 1;
	while (rc == 0 && !c->common.help &&
	       (opt = cli_getopt(argc, argv, ":" CLI_KEY_SHORTOPTS "b:h",
	                         longopts)) != -1)
		rc = hp_conf_option(c, opt, optarg);
	if (rc != 0 || c->common.help)
		return rc;
	c->operands = argv + optind;
	c->noperands = (size_t)(argc - optind);
	return hp_conf_check(c);
}

/* Masks of samples, from the arguments or standard input. */
static int masks(struct hp_conf *c)
{
	aesecb_ctx ctx;
	int rc = cli_context(&ctx, &c->common.key, c->common.backend);

	if (rc != 0)
		return rc;
	if (c->noperands != 0)
		rc = masks_from_args(&ctx, c->operands, c->noperands, c->block);
	else
		rc = masks_from_stdin(&ctx, c->block);
	aesecb_clear(&ctx);
	return rc;
}

/* --protect and --unprotect: the packet engine and its report. */
static int packets(struct hp_conf *c)
{
	const aesecb_backend *be;
	int rc = cli_backend_resolve(c->common.backend, &be);

	return rc != 0 ? rc : hp_report_run(c, be);
}

int cmd_hpmask(int argc, char **argv)
{
	struct hp_conf c;
	int rc;

	hp_conf_init(&c);
	rc = parse(&c, argc, argv);
	if (rc == 0 && c.common.help)
		rc = cli_help(help);
	else if (rc == 0 && c.mode == HP_MASKS)
		rc = masks(&c);
	else if (rc == 0)
		rc = packets(&c);
	hp_conf_free(&c);
	return rc;
}
