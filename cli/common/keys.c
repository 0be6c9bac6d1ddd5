/* SPDX-License-Identifier: MIT */
/*
 * keys.c - the one loader of keys and secrets (see keys.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"
#include "common/hex.h"
#include "common/keys.h"
#include "common/msg.h"

/* Longest key file read: a secret is at most 96 hex digits, so anything
 * near this size is not a key file. */
#define KEYFILE_MAX (1024u * 1024u)

/* How key text is decoded: whitespace ignored, and digits past the
 * longest key counted (for the message), not stored. */
#define KEY_HEX (CLI_HEX_SKIP_SPACE | CLI_HEX_COUNT)

const struct cli_keykind cli_kind_key = {
	"key", "key file", "-k", "-K", "--key-env",
	{ 16, 24, 32 }, 3,
	"AES keys are 16, 24 or 32 bytes (32, 48 or 64 hex digits)"
};

const struct cli_keykind cli_kind_secret = {
	"secret", "secret file", "--secret", "--secret-file", "--secret-env",
	{ 32, 48, 0 }, 2,
	"secrets are 32 bytes (SHA-256) or 48 bytes (SHA-384), 64 or 96 "
	"hex digits"
};

static const char *src_opt(const struct cli_keykind *kind, int src)
{
	return src == CLI_KEYSRC_HEX ? kind->opt_hex :
	       src == CLI_KEYSRC_FILE ? kind->opt_file : kind->opt_env;
}

/*
 * 1 when s is nothing but hex digits, as many as a key (or secret) of
 * this kind has: the user probably gave the key itself to an option that
 * wants a file or variable name.  s is a name, not key text, but it may be
 * a key given by mistake, so only its length and character classes are
 * looked at, without branching on the digits' values.
 */
static int looks_like_hex_key(const struct cli_keykind *kind, const char *s)
{
	size_t n = 0, i;
	int other = 0;

	for (; s[n] != '\0'; n++)
		other |= cli_hexclass((unsigned char)s[n]) != CLI_HEX_DIGIT;
	if (other)
		return 0;
	for (i = 0; i < kind->nlens; i++)
		if (n == 2 * kind->lens[i])
			return 1;
	return 0;
}

/* The hint for a file or variable name that looks like a key ("" if not). */
static const char *hex_hint(const struct cli_keykind *kind, int src,
                            const char *arg, char *buf, size_t size)
{
	if (src == CLI_KEYSRC_HEX || !looks_like_hex_key(kind, arg))
		return "";
	snprintf(buf, size, " (the argument looks like a hex %s: %s takes "
	         "the %s in hex, %s %s)", kind->noun, kind->opt_hex,
	         kind->noun, src_opt(kind, src),
	         src == CLI_KEYSRC_FILE ? "a file name" : "a variable name");
	return buf;
}

/* Checks the digits once all key text is in.  Returns 0 or EXIT_USAGE. */
static int key_finish(struct cli_key *k, struct cli_hex *h,
                      const struct cli_keykind *kind, const char *opt,
                      const char *where)
{
	unsigned long long n = h->digits / 2;
	size_t i;

	if (cli_hex_end(h) == CLI_HEX_ODD) {
		cli_err("%s: the %s%s has an odd number of hex digits (%llu); "
		        "%s", opt, kind->noun, where, h->digits,
		        kind->lens_text);
		return EXIT_USAGE;
	}
	if (n == 0) {
		cli_err("%s: the %s%s is empty; %s", opt, kind->noun, where,
		        kind->lens_text);
		return EXIT_USAGE;
	}
	for (i = 0; i < kind->nlens; i++)
		if (n == kind->lens[i])
			break;
	if (i == kind->nlens) {
		cli_err("%s: the %s%s is %llu byte%s; %s", opt, kind->noun,
		        where, n, n == 1 ? "" : "s", kind->lens_text);
		return EXIT_USAGE;
	}
	k->len = (size_t)n;
	return 0;
}

/*
 * Key text holds one key: hex digits on one line (whitespace ignored),
 * blank lines around it.  Text on a second non-blank line is refused,
 * whatever the source (a file, an argument, a variable), so that two keys
 * on two lines are never read as one longer key.  A line ends at '\n',
 * '\r', '\v' or '\f' ("\r\n" is one line break).
 */
/* Reading key text: where the decode is, which line holds the key. */
struct keytext {
	struct cli_key *k;
	const struct cli_keykind *kind;
	const char *opt;
	const char *container;    /* "key file", "argument", "environment
	                             variable": what holds the text */
	const char *where;        /* for key_finish: "", " in the file", ... */
	int is_file;              /* messages give line and column */
	struct cli_hex h;
	unsigned long line, key_line;
	unsigned long long line_start;  /* offset of the current line */
	unsigned long long off;         /* bytes of text taken */
	int prev_cr;              /* the last byte taken was '\r' */
};

static void keytext_init(struct keytext *r, struct cli_key *k,
                         const struct cli_keykind *kind, int src)
{
	memset(r, 0, sizeof *r);
	r->k = k;
	r->kind = kind;
	r->opt = src_opt(kind, src);
	r->is_file = src == CLI_KEYSRC_FILE;
	r->container = src == CLI_KEYSRC_FILE ? kind->file_noun :
	               src == CLI_KEYSRC_HEX ? "argument" :
	               "environment variable";
	r->where = src == CLI_KEYSRC_FILE ? " in the file" :
	           src == CLI_KEYSRC_HEX ? "" : " in the environment variable";
	r->line = 1;
	cli_hex_init(&r->h, KEY_HEX);
}

/* One line of the text, without its line break.  Returns 0 or
 * EXIT_USAGE. */
static int key_text_line(struct keytext *r, const char *s, size_t n)
{
	const struct cli_keykind *kind = r->kind;
	size_t j;
	int text = 0;

	for (j = 0; j < n; j++)
		text |= cli_hexclass((unsigned char)s[j]) != CLI_HEX_SPACE;
	if (text && r->key_line != 0 && r->key_line != r->line) {
		cli_err("%s: the %s has text on line %lu after the %s on line "
		        "%lu; %s %s holds one %s (hex digits on one line)",
		        r->opt, r->container, r->line, kind->noun, r->key_line,
		        r->is_file ? "a" : "the", r->container, kind->noun);
		return EXIT_USAGE;
	}
	if (text)
		r->key_line = r->line;
	if (cli_hex_feed(&r->h, r->k->bytes, sizeof r->k->bytes, s, n) ==
	    CLI_HEX_OK)
		return 0;
	if (r->is_file)
		cli_err("%s: the %s has a character that is not a hex digit at "
		        "line %lu, column %lu", r->opt, kind->file_noun,
		        r->line, r->h.col);
	else
		cli_err("%s: the %s%s has a character that is not a hex digit "
		        "at position %llu", r->opt, kind->noun, r->where,
		        r->line_start + r->h.col);
	return EXIT_USAGE;
}

/* 1 when c ends a line: '\n', '\v', '\f' or '\r' (no branch on c). */
static int line_break(unsigned char c)
{
	return (int)(cli_ct_in_range(c, '\n', '\r') & 1u);
}

/* A piece of the text (all of it, or what one read brought), one line
 * at a time: the place of the line breaks is syntax.  Returns 0 or
 * EXIT_USAGE. */
static int key_text_piece(struct keytext *r, const char *buf, size_t n)
{
	size_t i = 0, end;
	int rc = 0;

	while (rc == 0 && i < n) {
		for (end = i; end < n && !line_break((unsigned char)buf[end]);
		     end++)
			;
		if (end > i)
			r->prev_cr = 0;
		rc = key_text_line(r, buf + i, end - i);
		r->off += end - i;
		if (rc == 0 && end < n) {
			int cr = buf[end] == '\r';

			/* the '\n' of "\r\n" ends no line of its own */
			if (!(r->prev_cr && buf[end] == '\n')) {
				/* the decoder counts lines and columns too */
				cli_hex_feed(&r->h, r->k->bytes,
				             sizeof r->k->bytes, "\n", 1);
				r->line++;
			}
			r->prev_cr = cr;
			r->off++;
			r->line_start = r->off;
			end++;
		}
		i = end;
	}
	return rc;
}

static int key_from_string(struct cli_key *k, const struct cli_keykind *kind,
                           int src, const char *text)
{
	struct keytext r;
	int rc;

	keytext_init(&r, k, kind, src);
	rc = key_text_piece(&r, text, strlen(text));
	if (rc == 0)
		rc = key_finish(k, &r.h, kind, r.opt, r.where);
	aesecb_wipe(&r, sizeof r);
	return rc;
}

static int key_from_file(struct cli_key *k, const struct cli_keykind *kind,
                         const char *path)
{
	const char *opt = kind->opt_file;
	char buf[512], hint[160];
	struct keytext r;
	FILE *f;
	size_t n, total = 0;
	int rc = 0, err;

	f = fopen(path, "rb");
	if (f == NULL) {
		err = errno;
		cli_err("%s: cannot open the %s: %s%s", opt, kind->file_noun,
		        strerror(err), hex_hint(kind, CLI_KEYSRC_FILE, path,
		                                hint, sizeof hint));
		return EXIT_IO;
	}
	setvbuf(f, NULL, _IONBF, 0);  /* no stdio copy of the key */
	keytext_init(&r, k, kind, CLI_KEYSRC_FILE);
	errno = 0;
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, f)) > 0) {
		total += n;
		if (total > KEYFILE_MAX) {
			cli_err("%s: the %s is too long to hold a %s (over %u "
			        "bytes); %s", opt, kind->file_noun, kind->noun,
			        KEYFILE_MAX, kind->lens_text);
			rc = EXIT_USAGE;
		} else {
			rc = key_text_piece(&r, buf, n);
		}
	}
	err = errno;
	if (rc == 0 && ferror(f)) {
		cli_err("%s: cannot read the %s: %s", opt, kind->file_noun,
		        strerror(err != 0 ? err : EIO));
		rc = EXIT_IO;
	}
	fclose(f);
	aesecb_wipe(buf, sizeof buf);
	if (rc == 0)
		rc = key_finish(k, &r.h, kind, opt, " in the file");
	aesecb_wipe(&r, sizeof r);
	return rc;
}

int cli_keysrc_load(struct cli_key *k, const struct cli_keykind *kind,
                    int src, const char *arg)
{
	const char *opt = src_opt(kind, src);
	char hint[160];
	int rc;

	if (k->given) {
		if (src == CLI_KEYSRC_HEX)
			aesecb_wipe((char *)arg, strlen(arg));
		cli_err("%s: more than one %s option given (%s, %s, %s)", opt,
		        kind->noun, kind->opt_hex, kind->opt_file,
		        kind->opt_env);
		return EXIT_USAGE;
	}
	aesecb_wipe(k, sizeof *k);
	k->given = 1;
	switch (src) {
	case CLI_KEYSRC_HEX:
		rc = key_from_string(k, kind, src, arg);
		/* The argument is ours to change (C11 5.1.2.2.1): clear it
		 * so it leaves the process's command line as soon as
		 * possible. */
		aesecb_wipe((char *)arg, strlen(arg));
		break;
	case CLI_KEYSRC_FILE:
		rc = key_from_file(k, kind, arg);
		break;
	case CLI_KEYSRC_ENV: {
		const char *v = getenv(arg);

		if (v == NULL) {
			cli_err("%s: the environment variable is not set%s", opt,
			        hex_hint(kind, src, arg, hint, sizeof hint));
			rc = EXIT_USAGE;
			break;
		}
		rc = key_from_string(k, kind, src, v);
		break;
	}
	default:
		cli_err("internal error: unknown %s source", kind->noun);
		rc = EXIT_USAGE;
		break;
	}
	if (rc != 0) {
		aesecb_wipe(k->bytes, sizeof k->bytes);
		k->len = 0;
	}
	return rc;
}

void cli_key_wipe(struct cli_key *k)
{
	if (k != NULL)
		aesecb_wipe(k, sizeof *k);
}
