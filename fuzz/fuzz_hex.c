/* SPDX-License-Identifier: MIT */
/*
 * fuzz_hex.c - libFuzzer harness: the hex decoder and encoder (cli/common/hex.c)
 * and the key loader (cli_keysrc_load in cli/common/keys.c).
 *
 *   byte 0    bits 0-1: decoder flags (CLI_HEX_SKIP_SPACE, CLI_HEX_COUNT)
 *             bit 2:    decode with no output buffer (out == NULL)
 *             bits 3-4: key source: hex argument, file, environment
 *             bit 5:    key kind: AES key or QUIC secret
 *   byte 1    room of the output, 0 to 255 bytes
 *   byte 2    seed of the split points for cli_hex_feed
 *   the rest  the text
 *
 * The decoder, in one call and fed in random pieces, must agree with a
 * simple reference decoder (status, bytes, counts, line and column of
 * the stop); what it decodes must survive an encode/decode round trip in
 * both cases.  The key loader gets the text through the chosen source; it
 * must accept exactly the texts the reference decodes to a key of an
 * accepted length, with those bytes, print nothing on success and one
 * line on failure, and its messages (stderr, captured in a memory file)
 * must never hold a piece of the key text.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/common.h"
#include "common/hex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAXROOM 255
#define ENVVAR "AESECB_FUZZ_KEY"

static int errfd = -1;           /* memory file that stands in for stderr */
static char keypath[64];         /* the key file */

static void remove_keyfile(void)
{
	unlink(keypath);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd;

	(void)argc;
	(void)argv;
	cli_cmd = "fuzz";
	errfd = memfd_create("fuzz-hex-stderr", 0);
	strcpy(keypath, "/tmp/fuzz-hex-key-XXXXXX");
	fd = mkstemp(keypath);
	if (errfd < 0 || fd < 0)
		abort();
	close(fd);
	atexit(remove_keyfile);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Reference decoder: a character at a time, by character sets. */

struct ref {
	int status;
	size_t nout;
	unsigned long long digits, chars;
	unsigned long line, col;
	uint8_t out[MAXROOM];
};

static int digit_value(int c)
{
	static const char set[] = "0123456789abcdef";
	const char *p;

	if (c >= 'A' && c <= 'F')
		c += 'a' - 'A';
	p = c != 0 ? strchr(set, c) : NULL;
	return p != NULL ? (int)(p - set) : -1;
}

static void reference(struct ref *r, unsigned flags, int have_out,
                      size_t room, const uint8_t *t, size_t len)
{
	int hi = 0;
	size_t i;

	memset(r, 0, sizeof *r);
	r->line = r->col = 1;
	r->status = CLI_HEX_OK;
	for (i = 0; i < len; i++) {
		int c = t[i], v = digit_value(c);

		if (v >= 0) {
			if (r->digits % 2 == 0) {
				hi = v;
			} else if (have_out && r->nout < room) {
				r->out[r->nout++] = (uint8_t)(hi * 16 + v);
			} else if (!(flags & CLI_HEX_COUNT)) {
				r->status = CLI_HEX_FULL;
				return;
			}
			r->digits++;
		} else if (!(flags & CLI_HEX_SKIP_SPACE) ||
		           strchr(" \t\n\v\f\r", c) == NULL || c == 0) {
			r->status = CLI_HEX_BAD;
			return;
		}
		r->chars++;
		if (c == '\n') {
			r->line++;
			r->col = 1;
		} else {
			r->col++;
		}
	}
	if (r->digits % 2)
		r->status = CLI_HEX_ODD;
}

static void same(const struct ref *r, const struct cli_hex *h, int status,
                 const uint8_t *out)
{
	if (status != r->status || h->nout != r->nout ||
	    h->digits != r->digits || h->chars != r->chars ||
	    h->line != r->line || h->col != r->col || h->hi != 0)
		abort();
	if (r->nout && memcmp(out, r->out, r->nout) != 0)
		abort();
}

/* ------------------------------------------------------------------ */

static void decoder(const uint8_t *d, size_t size, const char *text,
                    size_t len)
{
	unsigned flags = d[0] & 3u;
	int have_out = !(d[0] & 4);
	size_t room = d[1], pos = 0;
	uint32_t seed = d[2] * 2654435761u + 1;
	uint8_t out[MAXROOM], out2[MAXROOM];
	uint8_t *o = have_out ? out : NULL, *o2 = have_out ? out2 : NULL;
	char enc[2 * MAXROOM];
	struct ref r;
	struct cli_hex h, h2;
	int st;

	(void)size;
	reference(&r, flags, have_out, room, (const uint8_t *)text, len);

	/* one call */
	st = cli_hex_decode(&h, flags, o, room, text, len);
	same(&r, &h, st, out);

	/* random pieces (some empty) */
	cli_hex_init(&h2, flags);
	st = CLI_HEX_OK;
	while (st == CLI_HEX_OK && pos <= len) {
		size_t n;

		seed = seed * 1103515245u + 12345u;
		n = (seed >> 16) % 9;
		if (n > len - pos)
			n = len - pos;
		st = cli_hex_feed(&h2, o2, room, text + pos, n);
		pos += n;
		if (pos == len && (seed & 0x10000u))
			break;
		if (pos == len)
			pos++;  /* one empty feed at the end, then stop */
	}
	if (st == CLI_HEX_OK)
		st = cli_hex_end(&h2);
	else
		h2.hi = 0;
	same(&r, &h2, st, out2);

	/* where it stopped on a bad character, there is one */
	if (r.status == CLI_HEX_BAD) {
		int cls = r.chars < len ?
		          cli_hexclass((unsigned char)text[r.chars]) : 0;

		if (cls == 0 || cls == CLI_HEX_DIGIT ||
		    (cls == CLI_HEX_SPACE && (flags & CLI_HEX_SKIP_SPACE)))
			abort();
	}

	/* encode and decode again, in both cases */
	if (have_out) {
		int upper;

		for (upper = 0; upper <= 1; upper++) {
			char *end = cli_hex_encode(enc, out, h.nout, upper);
			size_t i;

			if ((size_t)(end - enc) != 2 * h.nout)
				abort();
			for (i = 0; i < 2 * h.nout; i++)
				if (digit_value((unsigned char)enc[i]) < 0 ||
				    (upper ? enc[i] >= 'a' : (enc[i] >= 'A' &&
				                              enc[i] <= 'F')))
					abort();
			if (cli_hex_decode(&h2, 0, out2, h.nout, enc,
			                   2 * h.nout) != CLI_HEX_OK ||
			    h2.nout != h.nout ||
			    (h.nout && memcmp(out, out2, h.nout) != 0))
				abort();
		}
	}
}

/* ------------------------------------------------------------------ */
/* The key loader */

/* Whether a run of 8 hex digits of the text is in the message. */
static int leaks(const char *msg, size_t mlen, const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t j = i;

		while (j < len && cli_hexclass((unsigned char)text[j]) ==
		                  CLI_HEX_DIGIT)
			j++;
		if (j - i >= 8) {
			size_t k;

			for (k = i; k + 8 <= j; k++)
				if (memmem(msg, mlen, text + k, 8) != NULL)
					return 1;
		}
		i = j + 1;
	}
	return 0;
}

static void key_loader(const uint8_t *d, const char *text, size_t len)
{
	static char msg[4096];
	const struct cli_keykind *kind = d[0] & 32 ? &cli_kind_secret
	                                           : &cli_kind_key;
	int src = (d[0] >> 3) & 3;
	struct cli_key k = { { 0 }, 0, 0 };
	struct ref r;
	size_t slen = strnlen(text, len), i, mlen;
	char *arg = NULL;
	int saved, rc, want_ok;
	ssize_t n;
	FILE *f;

	if (src == 3)
		src = CLI_KEYSRC_HEX;
	/* hex and environment sources end at a NUL; a file holds it all */
	if (src != CLI_KEYSRC_FILE)
		len = slen;
	reference(&r, CLI_HEX_SKIP_SPACE | CLI_HEX_COUNT, 1, sizeof k.bytes,
	          (const uint8_t *)text, len);
	want_ok = r.status == CLI_HEX_OK;
	if (want_ok) {
		for (i = 0; i < kind->nlens; i++)
			if (r.digits / 2 == kind->lens[i])
				break;
		want_ok = i < kind->nlens;
	}
	/* key text, from any source, holds one line of text: lines end at
	 * \n, \v, \f and \r */
	if (want_ok) {
		int seen = 0, text_on_line = 0;

		for (i = 0; i <= len; i++) {
			if (i == len || (text[i] != '\0' &&
			                 strchr("\n\v\f\r", text[i]) != NULL)) {
				seen += text_on_line;
				text_on_line = 0;
			} else if (text[i] != ' ' && text[i] != '\t') {
				text_on_line = 1;
			}
		}
		want_ok = seen == 1;
	}

	switch (src) {
	case CLI_KEYSRC_HEX:
		arg = strndup(text, len);
		if (arg == NULL)
			abort();
		break;
	case CLI_KEYSRC_FILE:
		f = fopen(keypath, "wb");
		if (f == NULL || fwrite(text, 1, len, f) != len || fclose(f))
			abort();
		arg = keypath;
		break;
	default:
		arg = strndup(text, len);
		if (arg == NULL || setenv(ENVVAR, arg, 1) != 0)
			abort();
		free(arg);
		arg = (char *)ENVVAR;
		break;
	}

	if (ftruncate(errfd, 0) != 0 || lseek(errfd, 0, SEEK_SET) != 0)
		abort();
	fflush(stderr);
	saved = dup(2);
	if (saved < 0 || dup2(errfd, 2) < 0)
		abort();
	rc = cli_keysrc_load(&k, kind, src, arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(errfd, msg, sizeof msg - 1, 0);
	if (n < 0)
		abort();
	mlen = (size_t)n;
	msg[mlen] = '\0';

	if (src == CLI_KEYSRC_HEX) {
		/* the argument is wiped */
		for (i = 0; i < len; i++)
			if (arg[i] != 0)
				abort();
		free(arg);
	}
	if ((rc == 0) != want_ok)
		abort();
	if (rc == 0) {
		if (mlen != 0 || k.len != r.digits / 2 || !k.given ||
		    memcmp(k.bytes, r.out, k.len) != 0)
			abort();
	} else {
		/* one line, "aesecb: fuzz: ...", and the key is wiped */
		if (mlen == 0 || strncmp(msg, "aesecb: fuzz: ", 14) != 0 ||
		    msg[mlen - 1] != '\n' || memchr(msg, '\n', mlen - 1) != NULL ||
		    k.len != 0)
			abort();
		for (i = 0; i < sizeof k.bytes; i++)
			if (k.bytes[i] != 0)
				abort();
	}
	if (leaks(msg, mlen, text, len))
		abort();
	/* a second key option is refused, and says so without the key */
	if (rc == 0 && src == CLI_KEYSRC_FILE) {
		saved = dup(2);
		if (ftruncate(errfd, 0) != 0 || lseek(errfd, 0, SEEK_SET) != 0 ||
		    saved < 0 || dup2(errfd, 2) < 0)
			abort();
		rc = cli_keysrc_load(&k, kind, CLI_KEYSRC_FILE, keypath);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		n = pread(errfd, msg, sizeof msg - 1, 0);
		if (rc == 0 || n <= 0 || leaks(msg, (size_t)n, text, len))
			abort();
	}
	cli_key_wipe(&k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	size_t len;

	if (size < 3)
		return 0;
	len = size - 3;
	/* a copy of exactly the text: a read past it is caught */
	text = malloc(len + 1);
	if (text == NULL)
		abort();
	memcpy(text, data + 3, len);
	text[len] = '\0';
	decoder(data, size, text, len);
	key_loader(data, text, len);
	free(text);
	return 0;
}
