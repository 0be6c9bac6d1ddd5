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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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
"       aesecb hp-mask KEYOPT [-b NAME] --unprotect PACKET_HEX --pn-offset N\n"
"       aesecb hp-mask KEYOPT [-b NAME] --protect PACKET_HEX --pn-offset N\n"
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
"Key (exactly one of):\n"
"  -k, --key HEX          the hp key in hex.  Other local users can read it in\n"
"                         the process list: prefer -K or --key-env\n"
"  -K, --key-file FILE    read the key from FILE (hex digits, whitespace ignored)\n"
"      --key-env VAR      read the key from environment variable VAR (hex)\n"
"  The key is 16 bytes for the AES-128 packet-protection suites and 32 bytes\n"
"  for AES-256-GCM; 24 bytes (AES-192, which QUIC does not use) is accepted.\n"
"\n"
"Options:\n"
"  -b, --backend NAME     use backend NAME (default: $AESECB_BACKEND, else the\n"
"                         best available; see 'aesecb backends')\n"
"      --block            print the whole 16-byte AES output, not the 5-byte mask\n"
"      --unprotect HEX    remove header protection from the packet HEX\n"
"      --protect HEX      apply header protection to the packet HEX, given with\n"
"                         its header unprotected and its payload encrypted\n"
"      --pn-offset N      byte offset of the packet number in the packet\n"
"                         (decimal; required with --unprotect and --protect)\n"
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

/* Writes 2n characters, no terminator; returns the end. */
static char *tohex(char *dst, const uint8_t *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		*dst++ = cli_hexdigit(src[i] >> 4);
		*dst++ = cli_hexdigit(src[i]);
	}
	return dst;
}

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

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
		return EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		p = tohex(p, out + i * per, per);
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
 * Parsing state of one sample: hex digits in the first 16 bytes' worth are
 * stored, the rest only counted.
 */
struct sample {
	uint8_t bytes[SAMPLE_LEN];
	size_t digits;
	int comment;        /* inside a '#' comment */
};

static void sample_reset(struct sample *s)
{
	s->digits = 0;
	s->comment = 0;
}

/*
 * Feed one character (not a newline).  Returns 0, or the offending
 * character + 1 when it is neither hex, whitespace nor (if allowed) '#'.
 */
static int sample_feed(struct sample *s, int c, int comments)
{
	int v;

	if (s->comment || is_space(c))
		return 0;
	if (c == '#' && comments) {
		s->comment = 1;
		return 0;
	}
	v = cli_hexval(c);
	if (v < 0)
		return (c & 0xff) + 1;
	if (s->digits < 2 * SAMPLE_LEN) {
		size_t i = s->digits / 2;

		if (s->digits % 2 == 0)
			s->bytes[i] = (uint8_t)(v << 4);
		else
			s->bytes[i] = (uint8_t)(s->bytes[i] | v);
	}
	s->digits++;
	return 0;
}

/*
 * At the end of a sample: 1 when it holds a full sample, 0 when it is
 * blank (nothing but whitespace and comment), or -1 with a message in why.
 */
static int sample_end(const struct sample *s, char *why, size_t size)
{
	if (s->digits == 2 * SAMPLE_LEN)
		return 1;
	if (s->digits == 0)
		return 0;
	if (s->digits % 2 != 0)
		snprintf(why, size, "odd number of hex digits (%zu); a sample is "
		         "16 bytes (32 hex digits)", s->digits);
	else
		snprintf(why, size, "sample is %zu bytes; a sample is 16 bytes "
		         "(32 hex digits)", s->digits / 2);
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
		const char *a = args[i];
		int bad = 0, end;

		sample_reset(&s);
		for (; *a != '\0' && !bad; a++)
			bad = sample_feed(&s, (unsigned char)*a, 0);
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
		const char *a = args[i];

		sample_reset(&s);
		for (; *a != '\0'; a++)
			sample_feed(&s, (unsigned char)*a, 0);
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
	static unsigned char buf[READ_SIZE];
	struct sample s;
	unsigned long line = 1;
	size_t n = 0;
	char why[128], cb[8];
	int rc = 0, eof = 0;

	sample_reset(&s);
	while (!eof) {
		ssize_t got = read(STDIN_FILENO, buf, sizeof buf);
		size_t i, len;

		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = emit_batch(ctx, in, n, block);
			cli_err("stdin: read error: %s", strerror(errno));
			return EXIT_IO;
		}
		len = (size_t)got;
		if (len == 0) {
			/* a last line without a newline */
			eof = 1;
			buf[0] = '\n';
			len = 1;
			if (s.digits == 0)
				len = 0;
		}
		for (i = 0; i < len; i++) {
			int c = buf[i], bad, end;

			if (c != '\n') {
				bad = sample_feed(&s, c, 1);
				if (bad) {
					rc = emit_batch(ctx, in, n, block);
					cli_err("stdin:%lu: bad hex digit '%s' in sample",
					        line, show_char(bad - 1, cb));
					return rc != 0 ? rc : EXIT_USAGE;
				}
				continue;
			}
			end = sample_end(&s, why, sizeof why);
			if (end < 0) {
				rc = emit_batch(ctx, in, n, block);
				cli_err("stdin:%lu: %s", line, why);
				return rc != 0 ? rc : EXIT_USAGE;
			}
			if (end > 0) {
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
	size_t digits = 0, pos, n = 0;
	uint8_t *p;
	char cb[8];

	for (pos = 0; hex[pos] != '\0'; pos++) {
		int c = (unsigned char)hex[pos];

		if (is_space(c) || c == '\n')
			continue;
		if (cli_hexval(c) < 0) {
			cli_err("%s: bad hex digit '%s' at character %zu", opt,
			        show_char(c, cb), pos + 1);
			return EXIT_USAGE;
		}
		digits++;
	}
	if (digits == 0) {
		cli_err("%s: the packet is empty", opt);
		return EXIT_USAGE;
	}
	if (digits % 2 != 0) {
		cli_err("%s: odd number of hex digits (%zu)", opt, digits);
		return EXIT_USAGE;
	}
	p = malloc(digits / 2);
	if (p == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	digits = 0;
	for (pos = 0; hex[pos] != '\0'; pos++) {
		int c = (unsigned char)hex[pos];

		if (is_space(c) || c == '\n')
			continue;
		if (digits++ % 2 == 0)
			p[n] = (uint8_t)(cli_hexval(c) << 4);
		else
			p[n] = (uint8_t)(p[n] | cli_hexval(c)), n++;
	}
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

static int do_packet(const aesecb_ctx *ctx, const char *hex,
                     const char *offarg, int protect)
{
	const char *opt = protect ? "--protect" : "--unprotect";
	uint8_t *pkt = NULL, mask[MASK_LEN], first_bits;
	size_t len, off, i;
	unsigned pnlen;
	uint32_t pn = 0;
	char *text = NULL, *p;
	int rc;

	if (parse_offset(offarg, &off) != 0) {
		cli_err("--pn-offset: not a byte offset: '%s'", offarg);
		return EXIT_USAGE;
	}
	if ((rc = packet_from_hex(opt, hex, &pkt, &len)) != 0)
		return rc;
	rc = EXIT_USAGE;
	if (off == 0) {
		cli_err("--pn-offset 0: the packet number cannot start at the "
		        "first byte");
		goto out;
	}
	if (off >= len) {
		cli_err("--pn-offset %zu is past the end of the packet (%zu bytes)",
		        off, len);
		goto out;
	}
	if (protect) {
		/* the packet-number length is in the unprotected first byte */
		pnlen = (pkt[0] & 3u) + 1;
		if (pnlen > len - off) {
			cli_err("the packet number (%u bytes at offset %zu) runs past "
			        "the end of the packet (%zu bytes)", pnlen, off, len);
			goto out;
		}
	}
	if (len - off < SAMPLE_GAP + SAMPLE_LEN) {
		cli_err("packet too short for its sample: the sample is bytes %zu "
		        "to %zu, so %zu bytes are needed; the packet has %zu",
		        off + SAMPLE_GAP, off + SAMPLE_GAP + SAMPLE_LEN - 1,
		        off + SAMPLE_GAP + SAMPLE_LEN, len);
		goto out;
	}

	aesecb_hp_mask(ctx, pkt + off + SAMPLE_GAP, mask);

	/* Long header (0x80 set): 4 protected bits; short header: 5. */
	first_bits = (uint8_t)(0x1fu ^ ((pkt[0] >> 7) << 4));
	if (protect) {
		pnlen = (pkt[0] & 3u) + 1;
		pkt[0] ^= mask[0] & first_bits;
	} else {
		pkt[0] ^= mask[0] & first_bits;
		pnlen = (pkt[0] & 3u) + 1;
	}
	/* The 4 bytes after the offset exist (the sample follows them);
	 * only the first pnlen are masked. */
	for (i = 0; i < PN_MAX; i++) {
		uint8_t sel = lt_mask((unsigned)i, pnlen);
		uint8_t clear = protect ? pkt[off + i] : (uint8_t)(pkt[off + i] ^ mask[1 + i]);
		uint32_t m = 0u - (uint32_t)(sel & 1u);

		pn = (((pn << 8) | clear) & m) | (pn & ~m);
		pkt[off + i] ^= mask[1 + i] & sel;
	}

	text = malloc(2 * len + 64);
	if (text == NULL) {
		cli_err("out of memory");
		rc = EXIT_IO;
		goto out;
	}
	p = tohex(text, pkt, off + pnlen);
	*p = '\0';
	printf("header: %s\npn_length: %u\npacket_number: %lu\n", text, pnlen,
	       (unsigned long)pn);
	p = tohex(text, mask, MASK_LEN);
	*p = '\0';
	printf("mask: %s\n", text);
	p = tohex(text, pkt, len);
	*p = '\0';
	printf("packet: %s\n", text);
	rc = cli_flush_stdout();
out:
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

/* ------------------------------------------------------------------ */
/* Options. */

/*
 * Matches an option that takes a value: "-s VALUE", "-sVALUE",
 * "--long VALUE", "--long=VALUE".  Returns 0 when argv[*i] is not this
 * option, 1 when it is (value in *val), -1 when the value is missing.
 */
static int take(int argc, char **argv, int *i, char shortopt,
                const char *longopt, const char **val)
{
	const char *a = argv[*i];

	if (shortopt != 0 && a[0] == '-' && a[1] == shortopt) {
		if (a[2] != '\0') {
			*val = a + 2;
			return 1;
		}
	} else if (longopt != NULL && a[0] == '-' && a[1] == '-' &&
	           strncmp(a + 2, longopt, strlen(longopt)) == 0) {
		const char *rest = a + 2 + strlen(longopt);

		if (*rest == '=') {
			*val = rest + 1;
			return 1;
		}
		if (*rest != '\0')
			return 0;
	} else {
		return 0;
	}
	if (*i + 1 >= argc) {
		cli_usage("option '%s' needs a value", a);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

int cmd_hpmask(int argc, char **argv)
{
	struct cli_key key;
	aesecb_ctx ctx;
	const aesecb_backend *be;
	const char *backend = NULL, *protect = NULL, *unprotect = NULL;
	const char *offset = NULL, *val;
	int block = 0, i, rc = EXIT_USAGE, st, ctx_set = 0, opts_done = 0;
	size_t nargs = 0;

	memset(&key, 0, sizeof key);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			help(stdout);
			return cli_flush_stdout();
		}
	}

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int t, how;

		if (opts_done || a[0] != '-' || a[1] == '\0') {
			argv[nargs++] = argv[i];   /* a sample; argv[0..i) is free */
			continue;
		}
		if (strcmp(a, "--") == 0) {
			opts_done = 1;
			continue;
		}
		if (strcmp(a, "--block") == 0) {
			block = 1;
			continue;
		}
		how = 0;
		if ((t = take(argc, argv, &i, 'k', "key", &val)) != 0)
			how = 'k';
		else if ((t = take(argc, argv, &i, 'K', "key-file", &val)) != 0)
			how = 'K';
		else if ((t = take(argc, argv, &i, 0, "key-env", &val)) != 0)
			how = 'e';
		if (how != 0) {
			if (t < 0)
				goto out;
			if ((rc = cli_key_load(&key, how, val)) != 0)
				goto out;
			rc = EXIT_USAGE;
			continue;
		}
		if ((t = take(argc, argv, &i, 'b', "backend", &val)) != 0) {
			if (t < 0)
				goto out;
			backend = val;
			continue;
		}
		if ((t = take(argc, argv, &i, 0, "protect", &val)) != 0) {
			if (t < 0)
				goto out;
			protect = val;
			continue;
		}
		if ((t = take(argc, argv, &i, 0, "unprotect", &val)) != 0) {
			if (t < 0)
				goto out;
			unprotect = val;
			continue;
		}
		if ((t = take(argc, argv, &i, 0, "pn-offset", &val)) != 0) {
			if (t < 0)
				goto out;
			offset = val;
			continue;
		}
		/* names the option only, never its value (key digits) */
		cli_bad_option(0, a, NULL);
		goto out;
	}

	if (!key.given) {
		cli_err("a key is required: -k HEX, -K FILE or --key-env VAR");
		goto out;
	}
	if (protect != NULL && unprotect != NULL) {
		cli_err("--protect and --unprotect cannot be used together");
		goto out;
	}
	if (protect != NULL || unprotect != NULL) {
		const char *o = protect != NULL ? "--protect" : "--unprotect";

		if (offset == NULL) {
			cli_err("%s needs --pn-offset N (the byte offset of the "
			        "packet number)", o);
			goto out;
		}
		if (block) {
			cli_err("--block cannot be used with %s", o);
			goto out;
		}
		if (nargs != 0) {
			cli_err("%s takes no SAMPLE_HEX arguments", o);
			goto out;
		}
	} else if (offset != NULL) {
		cli_err("--pn-offset needs --protect or --unprotect");
		goto out;
	}

	if ((rc = cli_backend_resolve(backend, &be)) != 0)
		goto out;
	st = aesecb_init(&ctx, key.bytes, key.len, be);
	cli_key_wipe(&key);
	if (st != AESECB_OK) {
		cli_err("%s", aesecb_strerror(st));
		rc = st == AESECB_EUNKNOWN || st == AESECB_EUNAVAILABLE
		     ? EXIT_BACKEND : EXIT_USAGE;
		goto out;
	}
	ctx_set = 1;

	/* A closed pipe shows as EPIPE, reported as a write error (status 4),
	 * rather than killing the process. */
	signal(SIGPIPE, SIG_IGN);

	if (protect != NULL)
		rc = do_packet(&ctx, protect, offset, 1);
	else if (unprotect != NULL)
		rc = do_packet(&ctx, unprotect, offset, 0);
	else if (nargs != 0)
		rc = masks_from_args(&ctx, argv, nargs, block);
	else
		rc = masks_from_stdin(&ctx, block);
out:
	if (ctx_set)
		aesecb_clear(&ctx);
	cli_key_wipe(&key);
	return rc;
}
