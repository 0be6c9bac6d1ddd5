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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
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
"       aesecb hp-mask KEYSRC [-b NAME] --unprotect PACKET_HEX [HEADER]\n"
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
"\n"
"KEYSRC, with --protect and --unprotect: KEYOPT, or one of\n"
"      --initial          the Initial hp key (RFC 9001 5.2, RFC 9369 3.3.1) of\n"
"                         the packet's DCID and version (1 or 2)\n"
"      --odcid HEX        with --initial: derive from this DCID instead (the\n"
"                         client's original DCID, for a server's Initial)\n"
"      --server           with --initial: the server's key (default: client's)\n"
"      --secret HEX       the hp key of this traffic secret: HKDF-Expand-Label(\n"
"                         secret, \"quic hp\" or \"quicv2 hp\", \"\", 16 or 32).\n"
"                         Visible in the process list: prefer the next two\n"
"      --secret-file FILE read the secret from FILE (one line of hex digits)\n"
"      --secret-env VAR   read the secret from environment variable VAR\n"
"      --hash NAME        with a secret: sha256 (default: 32-byte secret,\n"
"                         AES-128 hp key) or sha384 (48 bytes, AES-256)\n"
"      --quic-version V   with a secret: 1 (default) or 2, for the label; a\n"
"                         long header's own version wins\n"
"\n"
"HEADER: where the packet number is.  By default the header is parsed: long\n"
"headers (Initial, 0-RTT, Handshake of versions 1 and 2) completely, short\n"
"headers with\n"
"      --dcid-len N       the length of a short header's DCID (0 to 20)\n"
"      --pn-offset N      or give the packet number's byte offset (decimal);\n"
"                         it overrides the header's\n"
"A long header's Length field ends the packet: bytes after it (coalesced\n"
"packets) are printed unchanged.  Retry and Version Negotiation packets have\n"
"no header protection and are refused, as are unknown versions and headers\n"
"that are truncated or too short for the sample.\n"
"\n"
"Options:\n"
"  -b, --backend NAME     use backend NAME (default: $AESECB_BACKEND, else the\n"
"                         best available; see 'aesecb backends')\n"
"      --block            print the whole 16-byte AES output, not the 5-byte mask\n"
"      --unprotect HEX    remove header protection from the packet HEX\n"
"      --protect HEX      apply header protection to the packet HEX, given with\n"
"                         its header unprotected and its payload encrypted\n"
"  -h, --help             show this help\n"
"\n"
"--unprotect and --protect print labelled lines, all hex in lowercase:\n"
"  header: HEX            first byte through the packet number, as output\n"
"  pn_length: N           length of the packet number, 1 to 4 bytes\n"
"  packet_number: N       the truncated packet number, in decimal\n"
"  mask: HEX              the 5-byte mask\n"
"  packet: HEX            the whole packet, as output\n"
"\n"
"Exit status: 0 success; 2 usage error or invalid input; 3 backend unknown or\n"
"not available; 4 I/O error.\n", f);
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
 * that runs to the end of the line.  Returns 0, or the offending
 * character + 1 when one is neither hex nor whitespace.
 */
static int sample_feed(struct sample *s, const char *text, size_t n,
                       int comments)
{
	const char *hash = comments ? memchr(text, '#', n) : NULL;
	unsigned long long before = s->text.chars;

	if (s->comment)
		return 0;
	if (hash != NULL) {
		n = (size_t)(hash - text);
		s->comment = 1;
	}
	if (cli_hex_feed(&s->text, s->bytes, SAMPLE_LEN, text, n) !=
	    CLI_HEX_OK)
		return (unsigned char)text[s->text.chars - before] + 1;
	return 0;
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
	int rc;

	/* Check every argument before printing anything. */
	for (i = 0; i < nargs; i++) {
		int bad, end;

		sample_reset(&s);
		bad = sample_feed(&s, args[i], strlen(args[i]), 0);
		if (bad) {
			cli_err("sample argument %zu: bad hex digit '%s'", i + 1,
			        show_char(bad - 1, cb));
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
		sample_feed(&s, args[i], strlen(args[i]), 0);
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

/*
 * One sample per line from standard input, in constant memory.  Results
 * go out a batch at a time, and whenever a read comes back short (the
 * writer paused), so that an interactive or slow producer sees its masks.
 */
static int masks_from_stdin(const aesecb_ctx *ctx, int block)
{
	static uint8_t in[BATCH * SAMPLE_LEN];
	static char buf[READ_SIZE];
	struct sample s;
	unsigned long line = 1;
	size_t n = 0;
	char why[128], cb[8];
	int rc = 0, eof = 0;

	sample_reset(&s);
	while (!eof) {
		ssize_t got = read(STDIN_FILENO, buf, sizeof buf);
		size_t i, len, end;

		if (got < 0) {
			int err = errno;   /* the write below may change it */

			if (err == EINTR)
				continue;
			/* what was read before is answered first */
			if ((rc = emit_batch(ctx, in, n, block)) != 0)
				return rc;
			cli_err("stdin: read error: %s", strerror(err));
			return EXIT_IO;
		}
		len = (size_t)got;
		if (len == 0) {
			/* a last line without a newline */
			eof = 1;
			buf[0] = '\n';
			len = s.text.digits != 0 ? 1 : 0;
		}
		for (i = 0; i < len; i = end + 1) {
			const char *nl = memchr(buf + i, '\n', len - i);
			int bad, got_one;

			end = nl != NULL ? (size_t)(nl - buf) : len;
			bad = sample_feed(&s, buf + i, end - i, 1);
			if (bad) {
				rc = emit_batch(ctx, in, n, block);
				cli_err("stdin:%lu: bad hex digit '%s' in sample",
				        line, show_char(bad - 1, cb));
				return rc != 0 ? rc : EXIT_USAGE;
			}
			if (nl == NULL)
				break;   /* the line goes on in the next read */
			got_one = sample_end(&s, why, sizeof why);
			if (got_one < 0) {
				rc = emit_batch(ctx, in, n, block);
				cli_err("stdin:%lu: %s", line, why);
				return rc != 0 ? rc : EXIT_USAGE;
			}
			if (got_one > 0) {
				memcpy(in + n * SAMPLE_LEN, s.bytes, SAMPLE_LEN);
				if (++n == BATCH) {
					if ((rc = emit_batch(ctx, in, n, block)) != 0)
						return rc;
					n = 0;
				}
			}
			sample_reset(&s);
			line++;
		}
		if (!eof && len < sizeof buf) {
			if ((rc = emit_batch(ctx, in, n, block)) != 0)
				return rc;
			n = 0;
			if ((rc = cli_flush_stdout()) != 0)
				return rc;
		}
	}
	if ((rc = emit_batch(ctx, in, n, block)) != 0)
		return rc;
	return cli_flush_stdout();
}

/* ------------------------------------------------------------------ */
/* Whole packets. */

/* Decode hex (whitespace ignored) into a new buffer; prints errors. */
static int packet_from_hex(const char *opt, const char *hex, uint8_t **out,
                           size_t *out_len)
{
	struct cli_hex h;
	size_t len = strlen(hex), n;
	uint8_t *p;
	char cb[8];
	int r;

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
	*out = p;
	*out_len = n;
	return 0;
}

/* A decimal number with nothing else around it. */
static int parse_offset(const char *s, size_t *out)
{
	size_t v = 0;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > ((size_t)-1 - 9) / 10)
			return -1;
		v = v * 10 + (size_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* 0xff when a < b, else 0 (a, b small). */
static uint8_t lt_mask(unsigned a, unsigned b)
{
	return (uint8_t)(0u - ((a - b) >> (sizeof(unsigned) * 8 - 1)));
}

/* ------------------------------------------------------------------ */
/* Options. */

struct hpmask_opts {
	struct cli_opts common;   /* key, -b, -h */
	struct cli_key secret;    /* --secret, --secret-file, --secret-env */
	int initial;              /* --initial */
	int server;               /* --server */
	const char *odcid;        /* --odcid HEX */
	enum quic_hash hash;      /* --hash NAME */
	const char *hash_arg;
	uint32_t version;         /* --quic-version V */
	const char *version_arg;
	size_t dcid_len;          /* --dcid-len N, else QUIC_DCID_LEN_UNKNOWN */
	const char *dcid_len_arg;
	int block;                /* --block */
	const char *protect;      /* --protect HEX */
	const char *unprotect;    /* --unprotect HEX */
	const char *pn_offset;    /* --pn-offset N */
	char **samples;           /* SAMPLE_HEX operands */
	size_t nsamples;
};

/* ------------------------------------------------------------------ */
/* Whole packets. */

/* Where header protection applies in a packet, and the hp key. */
struct target {
	size_t pn_offset;
	size_t len;               /* bytes of the packet the library sees */
	struct quic_header h;
	int parsed;               /* h was filled by quic_parse_header */
	uint32_t version;         /* a long header's version, else 0 */
};

/*
 * Find the packet-number offset and the packet's extent: from the header
 * (long headers; short headers with --dcid-len), or from --pn-offset.
 */
static int find_target(const struct hpmask_opts *o, const uint8_t *pkt,
                       size_t len, struct target *t)
{
	char why[256];
	int st;

	memset(t, 0, sizeof *t);
	t->len = len;
	if ((pkt[0] & 0x80u) != 0 && len >= 5)
		t->version = (uint32_t)pkt[1] << 24 | (uint32_t)pkt[2] << 16 |
		             (uint32_t)pkt[3] << 8 | pkt[4];
	if (o->pn_offset != NULL &&
	    parse_offset(o->pn_offset, &t->pn_offset) != 0) {
		cli_err("--pn-offset: not a byte offset: '%s'",
		        cli_safe(o->pn_offset));
		return EXIT_USAGE;
	}
	if (o->initial && (pkt[0] & 0x80u) == 0) {
		cli_err("--initial: the packet has a short header (1-RTT), not "
		        "an Initial packet's long header");
		return EXIT_USAGE;
	}
	/* --pn-offset alone needs no header parsing; --initial needs the
	 * version and DCID, and a secret the version of a long header */
	if (o->pn_offset != NULL && !o->initial &&
	    !(o->secret.given && (pkt[0] & 0x80u) != 0))
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
	if (st != QUIC_OK && o->pn_offset != NULL &&
	    (st == QUIC_ELENGTH || st == QUIC_ESAMPLE ||
	     (!o->initial && st != QUIC_EVERSION &&
	      st != QUIC_ENOPROTECTION))) {
		if (o->initial && t->h.type != QUIC_PT_INITIAL) {
			cli_err("--initial: the packet is a %s packet, not an "
			        "Initial packet",
			        quic_packet_type_name(t->h.type));
			return EXIT_USAGE;
		}
		return 0;
	}
	if (st != QUIC_OK) {
		cli_err("%s", quic_header_error(&t->h, st, why, sizeof why));
		return EXIT_USAGE;
	}
	if (o->initial && t->h.type != QUIC_PT_INITIAL) {
		cli_err("--initial: the packet is a %s packet, not an Initial "
		        "packet", quic_packet_type_name(t->h.type));
		return EXIT_USAGE;
	}
	t->parsed = 1;
	t->len = t->h.packet_len;
	if (o->pn_offset == NULL)
		t->pn_offset = t->h.pn_offset;
	return 0;
}

/* The hp key of the key source: -k/-K/--key-env as loaded, the Initial hp
 * key (--initial), or the hp key of a traffic secret. */
static int hp_key(struct hpmask_opts *o, const struct target *t,
                  struct cli_key *out)
{
	int st;

	if (o->initial) {
		struct quic_initial ik;
		uint8_t odcid[QUIC_MAX_CID_LEN];
		const uint8_t *dcid = t->h.dcid;
		size_t dcid_len = t->h.dcid_len;
		const struct quic_keys *side;

		if (o->odcid != NULL) {
			struct cli_hex h;
			int r = cli_hex_decode(&h, CLI_HEX_SKIP_SPACE |
			                       CLI_HEX_COUNT, odcid, sizeof odcid,
			                       o->odcid, strlen(o->odcid));
			char cb[8];

			if (r == CLI_HEX_BAD) {
				cli_err("--odcid: bad hex digit '%s' at character "
				        "%llu", show_char((unsigned char)
				        o->odcid[h.chars], cb), h.chars + 1);
				return EXIT_USAGE;
			}
			if (r == CLI_HEX_ODD) {
				cli_err("--odcid: odd number of hex digits (%llu)",
				        h.digits);
				return EXIT_USAGE;
			}
			if (h.digits / 2 > QUIC_MAX_CID_LEN) {
				cli_err("--odcid: the connection ID is %llu bytes; "
				        "QUIC versions 1 and 2 allow at most %d",
				        h.digits / 2, QUIC_MAX_CID_LEN);
				return EXIT_USAGE;
			}
			dcid = odcid;
			dcid_len = (size_t)(h.digits / 2);
		}
		st = quic_initial_keys(t->h.version, dcid, dcid_len, &ik);
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
		uint32_t version = o->version;
		size_t hp_len;

		if (t->version != 0)
			version = t->version;   /* a long header's own wins */
		if (o->secret.len != quic_hash_len(o->hash)) {
			cli_err("the secret is %zu bytes; with %s secrets are %zu "
			        "bytes (%zu hex digits)%s", o->secret.len,
			        quic_hash_name(o->hash), quic_hash_len(o->hash),
			        2 * quic_hash_len(o->hash),
			        o->hash_arg == NULL ? "; give --hash sha384 for "
			        "a 48-byte secret" : "");
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

static int do_packet(struct hpmask_opts *o, int protect)
{
	const char *opt = protect ? "--protect" : "--unprotect";
	const char *hex = protect ? o->protect : o->unprotect;
	uint8_t *pkt = NULL, mask[MASK_LEN];
	struct target t;
	struct cli_key key;
	aesecb_ctx ctx;
	size_t len, off, plen, i;
	unsigned pnlen = 0;
	uint32_t pn = 0;
	char *text = NULL, *p;
	int rc, st, have_ctx = 0;

	memset(&key, 0, sizeof key);
	memset(&ctx, 0, sizeof ctx);
	memset(mask, 0, sizeof mask);
	if ((rc = packet_from_hex(opt, hex, &pkt, &len)) != 0)
		goto out;
	if ((rc = find_target(o, pkt, len, &t)) != 0)
		goto out;
	off = t.pn_offset;
	plen = t.len;
	rc = EXIT_USAGE;
	if (off == 0) {
		cli_err("--pn-offset 0: the packet number cannot start at the "
		        "first byte");
		goto out;
	}
	if (off >= plen) {
		cli_err("--pn-offset %zu is past the end of the packet (%zu bytes)",
		        off, plen);
		goto out;
	}
	if (protect) {
		/* the packet-number length is in the unprotected first byte */
		pnlen = (pkt[0] & 3u) + 1;
		if (pnlen > plen - off) {
			cli_err("the packet number (%u bytes at offset %zu) runs past "
			        "the end of the packet (%zu bytes)", pnlen, off, plen);
			goto out;
		}
	}
	if (plen - off < SAMPLE_GAP + SAMPLE_LEN) {
		cli_err("packet too short for its sample: the sample is bytes %zu "
		        "to %zu, so %zu bytes are needed; the packet has %zu",
		        off + SAMPLE_GAP, off + SAMPLE_GAP + SAMPLE_LEN - 1,
		        off + SAMPLE_GAP + SAMPLE_LEN, plen);
		goto out;
	}
	if ((rc = hp_key(o, &t, &key)) != 0)
		goto out;
	if ((rc = cli_context(&ctx, &key, o->common.backend)) != 0)
		goto out;
	have_ctx = 1;

	/* the mask, for the output: the sample is the same before and after */
	st = aesecb_hp_mask(&ctx, pkt + off + SAMPLE_GAP, mask);
	if (st == AESECB_OK && protect) {
		pnlen = (pkt[0] & 3u) + 1;
		for (i = 0; i < PN_MAX; i++) {
			uint32_t m = 0u - (uint32_t)(lt_mask((unsigned)i, pnlen) & 1u);

			pn = (((pn << 8) | pkt[off + i]) & m) | (pn & ~m);
		}
		st = aesecb_hp_protect(&ctx, pkt, plen, off);
	} else if (st == AESECB_OK) {
		st = aesecb_hp_unprotect(&ctx, pkt, plen, off);
		/* 1 to 4, or an error status (then reported below) */
		pnlen = (unsigned)st & 7u;
		for (i = 0; i < PN_MAX; i++) {
			uint32_t m = 0u - (uint32_t)(lt_mask((unsigned)i, pnlen) & 1u);

			pn = (((pn << 8) | pkt[off + i]) & m) | (pn & ~m);
		}
	}
	if (st < 0) {
		cli_err("%s", aesecb_strerror(st));
		rc = cli_status_exit(st);
		goto out;
	}

	text = malloc(2 * len + 64);
	if (text == NULL) {
		cli_err("out of memory");
		rc = EXIT_IO;
		goto out;
	}
	p = cli_hex_encode(text, pkt, off + pnlen, CLI_HEX_LOWER);
	*p = '\0';
	printf("header: %s\npn_length: %u\npacket_number: %lu\n", text, pnlen,
	       (unsigned long)pn);
	p = cli_hex_encode(text, mask, MASK_LEN, CLI_HEX_LOWER);
	*p = '\0';
	printf("mask: %s\n", text);
	p = cli_hex_encode(text, pkt, len, CLI_HEX_LOWER);
	*p = '\0';
	printf("packet: %s\n", text);
	rc = cli_flush_stdout();
out:
	cli_key_wipe(&key);
	cli_key_wipe(&o->secret);
	cli_key_wipe(&o->common.key);
	if (have_ctx)
		aesecb_clear(&ctx);
	aesecb_wipe(mask, sizeof mask);
	if (text != NULL) {
		aesecb_wipe(text, 2 * len + 64);
		free(text);
	}
	if (pkt != NULL) {
		aesecb_wipe(pkt, len);
		free(pkt);
	}
	return rc;
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
	OPT_DCID_LEN
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
	{ "help",         no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* The checks of how the options combine, once all are in. */
static int check(struct hpmask_opts *o)
{
	const char *opt = o->protect != NULL ? "--protect" : "--unprotect";
	int packet = o->protect != NULL || o->unprotect != NULL;
	int sources = o->common.key.given + o->initial + o->secret.given;
	char safe[40];

	if (o->protect != NULL && o->unprotect != NULL) {
		cli_err("--protect and --unprotect cannot be used together");
		return EXIT_USAGE;
	}
	if (sources > 1)
		return cli_usage("more than one key source: give one of -k, -K, "
		                 "--key-env, --initial, --secret, --secret-file "
		                 "or --secret-env");
	if (sources == 0)
		return cli_usage("no key given: use -k HEX, -K FILE or --key-env "
		                 "VAR%s", packet ? ", --initial, or --secret HEX, "
		                 "--secret-file FILE or --secret-env VAR" : "");
	if (!o->initial && (o->odcid != NULL || o->server))
		return cli_usage("%s needs --initial", o->odcid != NULL ?
		                 "--odcid" : "--server");
	if (!o->secret.given && (o->hash_arg != NULL ||
	                         o->version_arg != NULL))
		return cli_usage("%s needs --secret, --secret-file or "
		                 "--secret-env", o->hash_arg != NULL ? "--hash" :
		                 "--quic-version");
	if (o->hash_arg != NULL && quic_hash_parse(o->hash_arg, &o->hash) !=
	    QUIC_OK) {
		cli_err("--hash: unknown hash '%s' (known: sha256, sha384)",
		        cli_printable(o->hash_arg, safe, sizeof safe));
		return EXIT_USAGE;
	}
	if (o->version_arg != NULL) {
		int st = quic_version_parse(o->version_arg, &o->version);

		if (st == QUIC_EVERSION) {
			cli_err("--quic-version: unknown QUIC version 0x%08lx "
			        "(known: 1 and 2)", (unsigned long)o->version);
			return EXIT_USAGE;
		}
		if (st != QUIC_OK) {
			cli_err("--quic-version: not a version: '%s' (known: 1 "
			        "and 2)", cli_printable(o->version_arg, safe,
			                                sizeof safe));
			return EXIT_USAGE;
		}
	}
	if (o->dcid_len_arg != NULL &&
	    (parse_offset(o->dcid_len_arg, &o->dcid_len) != 0 ||
	     o->dcid_len > QUIC_MAX_CID_LEN)) {
		cli_err("--dcid-len: not a connection ID length (0 to %d): '%s'",
		        QUIC_MAX_CID_LEN, cli_printable(o->dcid_len_arg, safe,
		                                         sizeof safe));
		return EXIT_USAGE;
	}
	if (packet) {
		if (o->block) {
			cli_err("--block cannot be used with %s", opt);
			return EXIT_USAGE;
		}
		if (o->nsamples != 0) {
			cli_err("%s takes no SAMPLE_HEX arguments", opt);
			return EXIT_USAGE;
		}
		return 0;
	}
	if (o->pn_offset != NULL || o->dcid_len_arg != NULL) {
		cli_err("%s needs --protect or --unprotect", o->pn_offset != NULL ?
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
	                       longopts)) != -1) {
		switch (c) {
		case OPT_BLOCK:
			o->block = 1;
			break;
		case OPT_PROTECT:
			o->protect = optarg;
			break;
		case OPT_UNPROTECT:
			o->unprotect = optarg;
			break;
		case OPT_PN_OFFSET:
			o->pn_offset = optarg;
			break;
		case OPT_INITIAL:
			o->initial = 1;
			break;
		case OPT_ODCID:
			o->odcid = optarg;
			break;
		case OPT_SERVER:
			o->server = 1;
			break;
		case OPT_SECRET:
			rc = cli_keysrc_load(&o->secret, &cli_kind_secret,
			                     CLI_KEYSRC_HEX, optarg);
			break;
		case OPT_SECRET_FILE:
			rc = cli_keysrc_load(&o->secret, &cli_kind_secret,
			                     CLI_KEYSRC_FILE, optarg);
			break;
		case OPT_SECRET_ENV:
			rc = cli_keysrc_load(&o->secret, &cli_kind_secret,
			                     CLI_KEYSRC_ENV, optarg);
			break;
		case OPT_HASH:
			o->hash_arg = optarg;
			break;
		case OPT_QUIC_VERSION:
			o->version_arg = optarg;
			break;
		case OPT_DCID_LEN:
			o->dcid_len_arg = optarg;
			break;
		default:
			rc = cli_option(&o->common, c, optarg);
			break;
		}
	}
	if (rc != 0 || o->common.help)
		return rc;
	o->samples = argv + optind;
	o->nsamples = (size_t)(argc - optind);
	return check(o);
}

int cmd_hpmask(int argc, char **argv)
{
	struct hpmask_opts o;
	aesecb_ctx ctx;
	int rc;

	memset(&o, 0, sizeof o);
	memset(&ctx, 0, sizeof ctx);
	rc = parse(&o, argc, argv);
	if (rc == 0 && o.common.help)
		rc = cli_help(help);
	else if (rc == 0 && (o.protect != NULL || o.unprotect != NULL))
		rc = do_packet(&o, o.protect != NULL);
	else if (rc == 0) {
		rc = cli_context(&ctx, &o.common.key, o.common.backend);
		if (rc == 0) {
			if (o.nsamples != 0)
				rc = masks_from_args(&ctx, o.samples, o.nsamples,
				                     o.block);
			else
				rc = masks_from_stdin(&ctx, o.block);
			aesecb_clear(&ctx);
		}
	}
	cli_key_wipe(&o.common.key);
	cli_key_wipe(&o.secret);
	return rc;
}
