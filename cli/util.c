/* SPDX-License-Identifier: MIT */
/*
 * util.c - helpers shared by the aesecb commands.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cli_cmd;

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (cli_cmd != NULL)
		fprintf(stderr, "aesecb: %s: ", cli_cmd);
	else
		fputs("aesecb: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cli_err("%s (try 'aesecb %s --help')", msg, cli_cmd);
	return EXIT_USAGE;
}

int cli_bad_option(int opt, const char *arg, const struct option *longopts)
{
	const struct option *lo;

	if (arg != NULL && arg[0] == '-' && arg[1] == '-' && arg[2] != '\0') {
		int n = (int)strcspn(arg, "=");

		if (opt == 0) {
			int matches = 0, name_ok = n - 2 <= 24;
			int i;

			/* getopt_long refuses a prefix of two long options */
			for (lo = longopts; lo != NULL && lo->name != NULL; lo++)
				matches += strncmp(lo->name, arg + 2,
				                   (size_t)n - 2) == 0;
			/* "--keyHEX": a value run into its option's name */
			for (lo = longopts; lo != NULL && lo->name != NULL; lo++)
				if (lo->has_arg == required_argument &&
				    strncmp(lo->name, arg + 2,
				            strlen(lo->name)) == 0)
					return cli_usage("unknown option "
					                 "'--%s...' (give its value "
					                 "after '=' or a space)",
					                 lo->name);
			/* Echo only what looks like an option name: a value
			 * typed in the wrong place (a key) is not repeated. */
			for (i = 2; i < n; i++)
				name_ok &= (arg[i] >= 'a' && arg[i] <= 'z') ||
				           arg[i] == '-';
			if (!name_ok)
				return cli_usage("unknown option '--...'");
			return cli_usage("%s option '%.*s'", matches > 1 ?
			                 "ambiguous" : "unknown", n, arg);
		}
		/* the long option getopt_long matched (a prefix of it) */
		for (lo = longopts; lo != NULL && lo->name != NULL; lo++) {
			if (lo->val != opt ||
			    strncmp(lo->name, arg + 2, (size_t)n - 2) != 0)
				continue;
			if (arg[n] == '=' && lo->has_arg == no_argument)
				return cli_usage("option '--%s' takes no value",
				                 lo->name);
			if (arg[n] == '\0' && lo->has_arg == required_argument)
				return cli_usage("option '--%s' needs a value",
				                 lo->name);
		}
	} else if (opt == 0 && arg != NULL && arg[0] == '-') {
		opt = (unsigned char)arg[1];
	}
	if (opt <= ' ' || opt >= 0x7f)
		return cli_usage("unknown option");
	/* a short option refused although it is known: its value is missing */
	for (lo = longopts; lo != NULL && lo->name != NULL; lo++)
		if (lo->val == opt && lo->has_arg == required_argument)
			return cli_usage("option '-%c' needs a value", opt);
	return cli_usage("unknown option '-%c'", opt);
}

int cli_flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_err("cannot write stdout: %s",
		        strerror(errno != 0 ? errno : EIO));
		return EXIT_IO;
	}
	return 0;
}

void cli_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (s == NULL) {
		fputs("null", f);
		return;
	}
	putc('"', f);
	while (*p != '\0') {
		unsigned c = *p;
		size_t len = 0, i;

		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
			p++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			p++;
			continue;
		}
		if (c < 0x80) {
			putc((int)c, f);
			p++;
			continue;
		}
		/* UTF-8: copy a well-formed sequence, else U+FFFD */
		if (c >= 0xc2 && c <= 0xdf)
			len = 2;
		else if (c >= 0xe0 && c <= 0xef)
			len = 3;
		else if (c >= 0xf0 && c <= 0xf4)
			len = 4;
		for (i = 1; i < len; i++) {
			unsigned lo = 0x80, hi = 0xbf;

			/* no overlong forms, surrogates or code points
			 * past U+10FFFF */
			if (i == 1) {
				if (c == 0xe0)
					lo = 0xa0;
				else if (c == 0xed)
					hi = 0x9f;
				else if (c == 0xf0)
					lo = 0x90;
				else if (c == 0xf4)
					hi = 0x8f;
			}
			if (p[i] < lo || p[i] > hi)
				break;
		}
		if (len == 0 || i < len) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		fwrite(p, 1, len, f);
		p += len;
	}
	putc('"', f);
}

int cli_getopt(int argc, char **argv, const char *shortopts,
               const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == '?' || c == ':') {
		/* getopt_long has moved past the element it refused */
		cli_bad_option(optopt, optind > 1 ? argv[optind - 1] : NULL,
		               longopts);
		return CLI_OPT_BAD;
	}
	return c;
}

int cli_option(struct cli_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'k':
	case 'K':
	case CLI_OPT_KEY_ENV:
		return cli_key_load(&o->key, c, arg);
	case 'b':
		o->backend = arg;  /* the last one given counts */
		return 0;
	case 'h':
		o->help = 1;
		return 0;
	case CLI_OPT_BAD:
		return EXIT_USAGE;  /* reported by cli_getopt */
	default:
		cli_err("internal error: option %d not handled", c);
		return EXIT_USAGE;
	}
}

int cli_help(void (*help)(FILE *))
{
	help(stdout);
	return cli_flush_stdout();
}

/* ------------------------------------------------------------------ */
/* Keys */

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

static int key_from_string(struct cli_key *k, const struct cli_keykind *kind,
                           const char *opt, const char *text,
                           const char *where)
{
	struct cli_hex h;
	int rc;

	cli_hex_init(&h, KEY_HEX);
	if (cli_hex_feed(&h, k->bytes, sizeof k->bytes, text,
	                 strlen(text)) != CLI_HEX_OK) {
		cli_err("%s: the %s%s has a character that is not a hex digit "
		        "at position %llu", opt, kind->noun, where, h.chars + 1);
		rc = EXIT_USAGE;
	} else {
		rc = key_finish(k, &h, kind, opt, where);
	}
	aesecb_wipe(&h, sizeof h);
	return rc;
}

/*
 * A key file holds one key: hex digits on one line (whitespace ignored),
 * blank lines around it.  Text on a second non-blank line is refused, so
 * that two keys on two lines are never read as one longer key.
 */
static int key_from_file(struct cli_key *k, const struct cli_keykind *kind,
                         const char *path)
{
	const char *opt = kind->opt_file;
	char buf[512], hint[160];
	struct cli_hex h;
	FILE *f;
	size_t n, total = 0;
	unsigned long line = 1, key_line = 0;
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
	errno = 0;
	cli_hex_init(&h, KEY_HEX);
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, f)) > 0) {
		size_t i = 0;

		total += n;
		if (total > KEYFILE_MAX) {
			cli_err("%s: the %s is too long to hold a %s (over %u "
			        "bytes); %s", opt, kind->file_noun, kind->noun,
			        KEYFILE_MAX, kind->lens_text);
			rc = EXIT_USAGE;
			break;
		}
		/* one line at a time: the place of the newlines is syntax */
		while (rc == 0 && i < n) {
			const char *nl = memchr(buf + i, '\n', n - i);
			size_t end = nl != NULL ? (size_t)(nl - buf) : n, j;
			int text = 0;

			for (j = i; j < end; j++)
				text |= cli_hexclass((unsigned char)buf[j]) !=
				        CLI_HEX_SPACE;
			if (text && key_line != 0 && key_line != line) {
				cli_err("%s: the %s has text on line %lu after "
				        "the %s on line %lu; a %s holds one %s "
				        "(hex digits on one line)", opt,
				        kind->file_noun, line, kind->noun,
				        key_line, kind->file_noun, kind->noun);
				rc = EXIT_USAGE;
				break;
			}
			if (text)
				key_line = line;
			if (cli_hex_feed(&h, k->bytes, sizeof k->bytes, buf + i,
			                 end - i) != CLI_HEX_OK) {
				cli_err("%s: the %s has a character that is not "
				        "a hex digit at line %lu, column %lu",
				        opt, kind->file_noun, line, h.col);
				rc = EXIT_USAGE;
				break;
			}
			if (nl != NULL) {
				/* the newline itself, for h's line count */
				cli_hex_feed(&h, k->bytes, sizeof k->bytes,
				             "\n", 1);
				line++;
				end++;
			}
			i = end;
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
		rc = key_finish(k, &h, kind, opt, " in the file");
	aesecb_wipe(&h, sizeof h);
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
		rc = key_from_string(k, kind, opt, arg, "");
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
		rc = key_from_string(k, kind, opt, v,
		                     " in the environment variable");
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

int cli_key_load(struct cli_key *k, int opt, const char *arg)
{
	int src = opt == 'k' ? CLI_KEYSRC_HEX :
	          opt == 'K' ? CLI_KEYSRC_FILE :
	          opt == CLI_OPT_KEY_ENV ? CLI_KEYSRC_ENV : -1;

	return cli_keysrc_load(k, &cli_kind_key, src, arg);
}

void cli_key_wipe(struct cli_key *k)
{
	if (k != NULL)
		aesecb_wipe(k, sizeof *k);
}

int cli_context(aesecb_ctx *ctx, struct cli_key *key, const char *backend)
{
	const aesecb_backend *be;
	int rc, st;

	if (!key->given)
		return cli_usage("no key given: use -k HEX, -K FILE or "
		                 "--key-env VAR");
	rc = cli_backend_resolve(backend, &be);
	if (rc == 0) {
		st = aesecb_init(ctx, key->bytes, key->len, be);
		if (st != AESECB_OK) {
			cli_err("%s", aesecb_strerror(st));
			rc = cli_status_exit(st);
		}
	}
	cli_key_wipe(key);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Backends */

int cli_status_exit(int st)
{
	switch (st) {
	case AESECB_OK:
		return EXIT_OK_;
	case AESECB_EUNKNOWN:
	case AESECB_EUNAVAILABLE:
		return EXIT_BACKEND;
	default:   /* key length, partial block, missing argument */
		return EXIT_USAGE;
	}
}

/* secure_getenv (glibc 2.17 and later, with _GNU_SOURCE from config.h)
 * ignores the environment in a set-user-ID program; elsewhere getenv. */
#if defined(_GNU_SOURCE) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 17))
#define env_get secure_getenv
#else
#define env_get getenv
#endif

const char *cli_backend_env(void)
{
	const char *v = env_get("AESECB_BACKEND");

	return v != NULL && v[0] != '\0' ? v : NULL;
}

static void list_names(char *buf, size_t size)
{
	size_t i, n = aesecb_backend_count();

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *name = aesecb_backend_name(aesecb_backend_get(i));
		if (i > 0)
			strncat(buf, ", ", size - strlen(buf) - 1);
		strncat(buf, name, size - strlen(buf) - 1);
	}
}

/* Whether the terminal (the locale the environment asks for) shows UTF-8:
 * read from LC_ALL, LC_CTYPE, LANG without changing this program's
 * locale. */
static int locale_utf8(void)
{
	static int known = -1;
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	size_t i;

	if (known >= 0)
		return known;
	known = 0;
	for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		const char *p;

		if (v == NULL || v[0] == '\0')
			continue;
		for (p = v; *p != '\0'; p++)
			if ((p[0] | 0x20) == 'u' && (p[1] | 0x20) == 't' &&
			    (p[2] | 0x20) == 'f' &&
			    (p[3] == '8' || (p[3] == '-' && p[4] == '8')))
				known = 1;
		break;
	}
	return known;
}

/* The length of a well-formed UTF-8 sequence at p that encodes a
 * character safe to show (not a C1 control, not an invisible format or
 * direction control, not a line or paragraph separator), else 0. */
static size_t utf8_shown(const unsigned char *p)
{
	unsigned c = p[0], cp;
	size_t len, i;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	cp = c & (0x7fu >> len);
	for (i = 1; i < len; i++) {
		unsigned lo = 0x80, hi = 0xbf;

		if (i == 1) {  /* no overlong forms, surrogates, > U+10FFFF */
			if (c == 0xe0)
				lo = 0xa0;
			else if (c == 0xed)
				hi = 0x9f;
			else if (c == 0xf0)
				lo = 0x90;
			else if (c == 0xf4)
				hi = 0x8f;
		}
		if (p[i] < lo || p[i] > hi)
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if (cp < 0xa0 || cp == 0xad || cp == 0x61c ||
	    (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff ||
	    (cp >= 0xfff9 && cp <= 0xfffb))
		return 0;
	return len;
}

/* How the character at p is shown: n bytes at *piece (p itself, or e);
 * *adv is how many bytes of p that covers. */
static size_t shown_as(const unsigned char *p, int utf8, char e[4],
                       const char **piece, size_t *adv)
{
	static const char digits[] = "0123456789abcdef";
	size_t n;

	*piece = (const char *)p;
	*adv = 1;
	if (*p >= 0x20 && *p < 0x7f && *p != '\\')
		return 1;
	if (utf8 && (n = utf8_shown(p)) > 0) {
		*adv = n;
		return n;
	}
	*piece = e;
	e[0] = '\\';
	if (*p == '\\') {
		e[1] = '\\';
		return 2;
	}
	e[1] = 'x';
	e[2] = digits[*p >> 4];
	e[3] = digits[*p & 15];
	return 4;
}

const char *cli_printable(const char *s, char *buf, size_t size)
{
	const unsigned char *p;
	const char *piece;
	int utf8 = locale_utf8();
	size_t o = 0, total = 0, n, adv, room;
	char e[4];

	for (p = (const unsigned char *)s; *p != '\0'; p += adv)
		total += shown_as(p, utf8, e, &piece, &adv);
	room = total < size ? size - 1 : size - 4;  /* else "..." ends it */
	for (p = (const unsigned char *)s; *p != '\0'; p += adv) {
		n = shown_as(p, utf8, e, &piece, &adv);
		if (o + n > room)
			break;
		memcpy(buf + o, piece, n);
		o += n;
	}
	if (total >= size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

const char *cli_safe(const char *s)
{
	static char slots[CLI_SAFE_SLOTS][CLI_PRINTABLE_MAX];
	static unsigned next;
	char *buf = slots[next++ % CLI_SAFE_SLOTS];
	int err = errno;

	cli_printable(s != NULL ? s : "(null)", buf, CLI_PRINTABLE_MAX);
	errno = err;
	return buf;
}

int cli_backend_resolve(const char *name, const aesecb_backend **out)
{
	const aesecb_backend *be;
	const char *why, *env = NULL;
	char names[128], safe[68];

	*out = NULL;
	if (name == NULL) {
		env = cli_backend_env();
		if (env == NULL) {
			*out = aesecb_backend_default();
			return *out != NULL ? 0 : EXIT_BACKEND;
		}
		name = env;
	}
	be = aesecb_backend_find(name);
	if (be == NULL) {
		list_names(names, sizeof names);
		cli_err("%s '%s' (known: %s)", env != NULL ?
		        "AESECB_BACKEND names no backend:" : "unknown backend",
		        cli_printable(name, safe, sizeof safe), names);
		return EXIT_BACKEND;
	}
	why = aesecb_backend_unavailable_reason(be);
	if (why != NULL) {
		cli_err("backend '%s' is not available here: %s (needs %s)",
		        aesecb_backend_name(be), why,
		        aesecb_backend_requires(be));
		return EXIT_BACKEND;
	}
	*out = be;
	return 0;
}
