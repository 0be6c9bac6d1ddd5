/* SPDX-License-Identifier: MIT */
/*
 * cmd_crypt.c - "aesecb encrypt" and "aesecb decrypt".
 *
 * Data is streamed through fixed buffers, so memory use does not depend on
 * the input size.  I/O uses read(2) and write(2) directly: no stdio buffer
 * ever holds plaintext or key material that could not be wiped.
 *
 * Output (-o) follows the rule of outfile.h: a regular file is replaced
 * all at once when everything succeeded (on any failure, or a signal, the
 * temporary file is removed and an existing OUT is left as it was);
 * standard output, a descriptor named by OUT, a device or a FIFO is
 * written directly.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "commands/commands.h"
#include "common/outfile.h"
#include "common/pad.h"

/* Bytes handed to the library per call: a multiple of the block size. */
#define CHUNK (64u * 1024u)
/* Decoded bytes kept between reads: a partial block, and for PKCS#7
 * decryption the last whole block too. */
#define KEEP (2u * AESECB_BLOCK_SIZE)
/* Hex text read per call: at most two characters per decoded byte. */
#define TEXT_CHUNK (2u * CHUNK)
/* Hex output: 32 digits and a newline per block. */
#define HEXOUT_SIZE ((CHUNK + KEEP) / AESECB_BLOCK_SIZE * 33u)

enum pad_mode { PAD_NONE, PAD_PKCS7 };

/* The buffers: static so that a large input never grows the stack, and
 * wiped before the command returns. */
static uint8_t data_buf[CHUNK + KEEP];
static unsigned char text_buf[TEXT_CHUNK];
static char hexout_buf[HEXOUT_SIZE];

/* ------------------------------------------------------------------ */
/* Input */

struct input {
	int fd;
	const char *name;     /* for messages: the file name or "stdin" */
	int hex;
	int eof;
	struct cli_hex text;  /* hex text state */
};

/* read() that retries on EINTR.  Returns bytes read, 0 at EOF, -1 on error. */
static ssize_t read_some(int fd, void *buf, size_t n)
{
	ssize_t r;

	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

static void read_error(const struct input *in)
{
	if (in->fd == STDIN_FILENO)
		cli_err("cannot read stdin: %s", strerror(errno));
	else
		cli_err("cannot read '%s': %s", cli_safe(in->name),
		        strerror(errno));
}

/*
 * Puts up to 'room' more bytes of data at 'out'.  Returns how many (0 is
 * possible before EOF in hex mode, when a read brought only whitespace), or
 * -1 after printing an error (*status set).  Sets in->eof at end of input.
 */
static ssize_t input_get(struct input *in, uint8_t *out, size_t room,
                         int *status)
{
	ssize_t r;
	size_t want;

	if (!in->hex) {
		r = read_some(in->fd, out, room);
		if (r < 0) {
			read_error(in);
			*status = EXIT_IO;
			return -1;
		}
		if (r == 0)
			in->eof = 1;
		return r;
	}

	want = room * 2 < sizeof text_buf ? room * 2 : sizeof text_buf;
	r = read_some(in->fd, text_buf, want);
	if (r < 0) {
		read_error(in);
		*status = EXIT_IO;
		return -1;
	}
	if (r == 0) {
		in->eof = 1;
		if (cli_hex_end(&in->text) == CLI_HEX_ODD) {
			cli_err("%s: odd number of hex digits (%llu): the input "
			        "ends in the middle of a byte", cli_safe(in->name),
			        in->text.digits);
			*status = EXIT_USAGE;
			return -1;
		}
		return 0;
	}
	/* at most room bytes: the text read is at most 2 * room digits */
	in->text.nout = 0;
	if (cli_hex_feed(&in->text, out, room, (const char *)text_buf,
	                 (size_t)r) != CLI_HEX_OK) {
		cli_err("%s:%lu:%lu: invalid hex digit", cli_safe(in->name),
		        in->text.line, in->text.col);
		*status = EXIT_USAGE;
		return -1;
	}
	return (ssize_t)in->text.nout;
}

/* ------------------------------------------------------------------ */
/* Output */

/* Writes n bytes (hex: n / 16 lines, the last possibly short).  Returns 0
 * or an exit status after printing the error. */
static int output_put(struct cli_outfile *o, int hex, const uint8_t *p, size_t n)
{
	int rc;

	if (n == 0)
		return 0;
	if (hex) {
		char *t = hexout_buf;
		size_t i, line;

		for (i = 0; i < n; i += line) {
			line = n - i < AESECB_BLOCK_SIZE ? n - i : AESECB_BLOCK_SIZE;
			t = cli_hex_encode(t, p + i, line, CLI_HEX_LOWER);
			*t++ = '\n';
		}
		rc = cli_outfile_write(o, hexout_buf, (size_t)(t - hexout_buf));
	} else {
		rc = cli_outfile_write(o, p, n);
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* Options */

struct crypt_opts {
	struct cli_opts common;   /* key, -b, -h */
	int decrypt;
	enum pad_mode pad;
	int hex;
	const char *in;
	const char *out;
};

static void help(FILE *f)
{
	const char *cmd = cli_cmd;
	int enc = strcmp(cmd, "encrypt") == 0;

	fprintf(f,
	"Usage: aesecb %s KEYOPT [-b NAME] [-p none|pkcs7] [-x] [-i IN] [-o OUT]\n"
	"%s with AES in ECB mode; the key length (16, 24 or 32 bytes)\n"
	"picks AES-128, AES-192 or AES-256.\n"
	"\n"
	"Key (exactly one of):\n"
	"  -k, --key HEX        the key as hex digits.  Other local users can\n"
	"                       read it in the process list: prefer -K or --key-env\n"
	"  -K, --key-file FILE  read the key as hex digits from FILE\n"
	"      --key-env VAR    read the key as hex digits from the environment\n"
	"                       variable VAR\n"
	"                       (key text: hex digits on one line, whitespace\n"
	"                       ignored)\n"
	"\n"
	"Options:\n"
	"  -b, --backend NAME   use backend NAME (see 'aesecb backends'); default:\n"
	"                       $AESECB_BACKEND, else the best this CPU can run\n"
	"  -p, --pad MODE       none (default): the input must be whole 16-byte\n"
	"                       blocks; pkcs7: %s\n"
	"  -x, --hex            input is hex text (whitespace ignored); output is\n"
	"                       hex, one 16-byte block per line\n"
	"  -i, --in FILE        read FILE instead of standard input ('-': stdin)\n"
	"  -o, --out FILE       write FILE instead of standard output ('-': stdout);\n"
	"                       a regular FILE is replaced only if the whole command\n"
	"                       succeeds; /dev/stdout, /dev/fd/N, devices and FIFOs\n"
	"                       are written to directly\n"
	"  -h, --help           print this help\n"
	"\n"
	"Exit status: 0 success; 1 bad padding%s; 2 usage error or invalid input;\n"
	"3 backend unknown or not available; 4 I/O error (including a closed pipe).\n",
	        cmd,
	        enc ? "Encrypt data" : "Decrypt data",
	        enc ? "add 1 to 16 bytes of padding"
	            : "check and remove the padding",
	        enc ? " (decrypt only)" : "");
}

/* An operand is not echoed: it could be a misplaced key. */
static int operand_error(int index)
{
	return cli_usage("unexpected operand (argument %d): %s takes options "
	                 "only", index, cli_cmd);
}

static const struct option longopts[] = {
	CLI_KEY_LONGOPTS,
	{ "backend", required_argument, NULL, 'b' },
	{ "pad",     required_argument, NULL, 'p' },
	{ "hex",     no_argument,       NULL, 'x' },
	{ "in",      required_argument, NULL, 'i' },
	{ "out",     required_argument, NULL, 'o' },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * Options are taken in order ('-': an operand comes back as 1, so that
 * its place can be named); the first error or --help stops the parse.
 */
static int parse(struct crypt_opts *o, int argc, char **argv)
{
	int c, rc = 0;

	optind = 1;
	while (rc == 0 && !o->common.help &&
	       (c = cli_getopt(argc, argv, "-:" CLI_KEY_SHORTOPTS "b:p:xi:o:h",
	                       longopts)) != -1) {
		switch (c) {
		case 'p':
			if (strcmp(optarg, "none") == 0)
				o->pad = PAD_NONE;
			else if (strcmp(optarg, "pkcs7") == 0)
				o->pad = PAD_PKCS7;
			else
				rc = cli_usage("unknown padding '%s': use none "
				               "or pkcs7", cli_safe(optarg));
			break;
		case 'x':
			o->hex = 1;
			break;
		case 'i':
			o->in = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 1:
			rc = operand_error(optind - 1);
			break;
		default:
			rc = cli_option(&o->common, c, optarg);
			break;
		}
	}
	if (rc == 0 && !o->common.help && optind < argc)
		rc = operand_error(optind);  /* after "--" */
	return rc;
}

/* ------------------------------------------------------------------ */

/* Encrypt or decrypt n bytes of data_buf in place (whole blocks). */
static void crypt_blocks(const struct crypt_opts *op, const aesecb_ctx *ctx,
                         size_t n)
{
	if (op->decrypt)
		aesecb_decrypt(ctx, data_buf, data_buf, n);
	else
		aesecb_encrypt(ctx, data_buf, data_buf, n);
}

/* At the end of the input, the have bytes left (fewer than KEEP): padded,
 * unpadded, or refused as a partial block. */
static int finish_stream(const struct crypt_opts *op, const aesecb_ctx *ctx,
                         struct cli_outfile *out, size_t have)
{
	size_t t = have % AESECB_BLOCK_SIZE;
	long keep;

	if (op->pad == PAD_PKCS7 && !op->decrypt) {
		size_t p = AESECB_BLOCK_SIZE - t;

		memset(data_buf + have, (int)p, p);
		crypt_blocks(op, ctx, have + p);
		return output_put(out, op->hex, data_buf, have + p);
	}
	if (t != 0) {
		cli_err("input is not a whole number of 16-byte blocks: %zu "
		        "trailing byte%s%s", t, t == 1 ? "" : "s",
		        op->decrypt ? "" : " (use --pad=pkcs7)");
		return EXIT_USAGE;
	}
	if (op->pad != PAD_PKCS7) {
		crypt_blocks(op, ctx, have);
		return output_put(out, op->hex, data_buf, have);
	}
	if (have == 0) {
		cli_err("bad PKCS#7 padding: the input is empty (padded data is "
		        "at least one block)");
		return EXIT_CHECK;
	}
	crypt_blocks(op, ctx, have);
	keep = cli_pkcs7_unpad(data_buf, have);
	if (keep < 0) {
		cli_err("bad PKCS#7 padding");
		return EXIT_CHECK;
	}
	return output_put(out, op->hex, data_buf, (size_t)keep);
}

/* The input through the cipher to the output, CHUNK bytes at a time; for
 * PKCS#7 decryption the last whole block is held back until the end. */
static int crypt_stream(const struct crypt_opts *op, const aesecb_ctx *ctx,
                        struct input *in, struct cli_outfile *out)
{
	size_t have = 0;
	size_t hold = op->decrypt && op->pad == PAD_PKCS7 ? AESECB_BLOCK_SIZE : 0;
	int rc = 0;

	for (;;) {
		ssize_t n = input_get(in, data_buf + have, CHUNK + KEEP - have,
		                      &rc);
		size_t whole;

		if (n < 0)
			return rc;
		if (in->eof)
			return finish_stream(op, ctx, out, have);
		have += (size_t)n;
		if (have <= hold)
			continue;
		whole = (have - hold) / AESECB_BLOCK_SIZE * AESECB_BLOCK_SIZE;
		if (whole == 0)
			continue;
		crypt_blocks(op, ctx, whole);
		rc = output_put(out, op->hex, data_buf, whole);
		if (rc != 0)
			return rc;
		memmove(data_buf, data_buf + whole, have - whole);
		have -= whole;
	}
}

/* -i IN (or standard input) as the input, hex or not. */
static int input_open(struct input *in, const struct crypt_opts *op)
{
	in->hex = op->hex;
	cli_hex_init(&in->text, CLI_HEX_SKIP_SPACE);
	if (op->in == NULL || strcmp(op->in, "-") == 0) {
		in->fd = STDIN_FILENO;
		in->name = "stdin";
		return 0;
	}
	in->fd = open(op->in, O_RDONLY | O_NOCTTY);
	in->name = op->in;
	if (in->fd >= 0)
		return 0;
	cli_err("cannot open '%s': %s", cli_safe(op->in), strerror(errno));
	return EXIT_IO;
}

static int run(int argc, char **argv, int decrypt)
{
	struct crypt_opts op;
	aesecb_ctx ctx;
	struct input in;
	struct cli_outfile out;
	int rc;

	memset(&op, 0, sizeof op);
	memset(&ctx, 0, sizeof ctx);
	memset(&in, 0, sizeof in);
	memset(&out, 0, sizeof out);
	in.fd = -1;
	out.fd = -1;
	op.decrypt = decrypt;

	rc = parse(&op, argc, argv);
	if (rc != 0)
		goto done;
	if (op.common.help) {
		rc = cli_help(help);
		goto done;
	}
	rc = cli_context(&ctx, &op.common.key, op.common.backend);
	if (rc != 0)
		goto done;

	rc = input_open(&in, &op);
	if (rc == 0)
		rc = cli_outfile_open(&out, op.out);
	if (rc == 0)
		rc = crypt_stream(&op, &ctx, &in, &out);
	if (rc == 0)
		rc = cli_outfile_commit(&out);

done:
	if (in.fd > STDIN_FILENO)
		close(in.fd);
	cli_outfile_abort(&out);
	cli_key_wipe(&op.common.key);
	aesecb_clear(&ctx);
	aesecb_wipe(data_buf, sizeof data_buf);
	aesecb_wipe(text_buf, sizeof text_buf);
	aesecb_wipe(hexout_buf, sizeof hexout_buf);
	aesecb_wipe(&in, sizeof in);
	return rc;
}

int cmd_encrypt(int argc, char **argv)
{
	return run(argc, argv, 0);
}

int cmd_decrypt(int argc, char **argv)
{
	return run(argc, argv, 1);
}
