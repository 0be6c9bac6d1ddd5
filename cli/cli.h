/* SPDX-License-Identifier: MIT */
/*
 * cli.h - shared pieces of the aesecb command-line tool.
 */
#ifndef AESECB_CLI_H
#define AESECB_CLI_H

#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aesecb.h"
#include "hex.h"

/* Exit statuses (see aesecb(1)). */
enum {
	EXIT_OK_ = 0,
	EXIT_CHECK = 1,    /* data failed a check: vector mismatch, bad padding */
	EXIT_USAGE = 2,    /* usage error or invalid input */
	EXIT_BACKEND = 3,  /* backend unknown or not available here */
	EXIT_IO = 4        /* read or write failed */
};

/* ------------------------------------------------------------------ */
/* Messages */

/* The command being run, for messages ("encrypt", "verify", ...). */
extern const char *cli_cmd;

/* Print "aesecb: CMD: message" and a newline on stderr. */
void cli_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Print "aesecb: CMD: message (try 'aesecb CMD --help')" on stderr and
 * return EXIT_USAGE.
 */
int cli_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Report an option that was refused, through cli_usage(); returns
 * EXIT_USAGE.  arg is the command-line element it was in (may be NULL),
 * opt the option character (0 for an unknown long option, or when only arg
 * is known).  cli_getopt() calls it with optopt and argv[optind - 1].  The
 * message names the option only, never a value given with it ("--key=HEX",
 * "-kHEX"), says "ambiguous" for a prefix of two long options, and says
 * "takes no value" or "needs a value" where longopts
 * (may be NULL) shows that applies; a short option is taken to need a
 * value when a long option with the same val does.
 */
int cli_bad_option(int opt, const char *arg, const struct option *longopts);

/*
 * A user-supplied string (a path, an argument, an environment variable's
 * name or value) made safe to print in buf: printable ASCII is kept,
 * except '\' which becomes "\\"; any other byte is shown as \xHH
 * (ESC as \x1b, newline as \x0a, DEL as \x7f), except that when the
 * environment's locale (LC_ALL, LC_CTYPE, LANG) is UTF-8, well-formed
 * UTF-8 for a visible character is kept as it is (C1 controls, invisible
 * format and direction controls are escaped).  Cut short with "..." to
 * fit size (at least 5).  Never use it for key material: keys are never
 * printed.
 */
const char *cli_printable(const char *s, char *buf, size_t size);

/* cli_printable() into one of CLI_SAFE_SLOTS static buffers used in turn,
 * so that a message can show up to CLI_SAFE_SLOTS names: use it for every
 * user-supplied string in a message, cli_err("cannot open '%s': %s",
 * cli_safe(path), strerror(errno)).  A path of PATH_MAX bytes fits whole.
 * Does not change errno. */
#define CLI_SAFE_SLOTS 4
#define CLI_PRINTABLE_MAX (4 * 4096 + 4)
const char *cli_safe(const char *s);

/* Flush standard output; on failure print why and return EXIT_IO, else 0. */
int cli_flush_stdout(void);

/*
 * Write s to f as a JSON string (NULL as null).  Control characters are
 * written as \u00XX; bytes that are not well-formed UTF-8 become U+FFFD.
 */
void cli_json_str(FILE *f, const char *s);

/*
 * Keys from the command line.  Options: -k/--key HEX, -K/--key-file FILE
 * (hex digits, whitespace ignored), --key-env VAR (hex digits in an
 * environment variable).  Messages never contain key bytes.
 */
struct cli_key {
	uint8_t bytes[48];  /* a key of 16 to 32 bytes, or a secret of 32 or 48 */
	size_t len;
	int given;          /* a key option was seen */
};

/* ------------------------------------------------------------------ */
/* Options.  A command is one file: a struct of its options, one
 * getopt_long loop over them (cli_getopt), then the work. */

/* Long-only options shared by commands; a command's own long-only
 * options take values from CLI_OPT_OWN up (never a letter, so that
 * cli_bad_option cannot mistake one for a short option). */
enum {
	CLI_OPT_KEY_ENV = 0x100,   /* --key-env VAR */
	CLI_OPT_OWN = 0x120
};

/* The key options, for a command's longopts and shortopts. */
#define CLI_KEY_SHORTOPTS "k:K:"
#define CLI_KEY_LONGOPTS \
	{ "key",      required_argument, NULL, 'k' }, \
	{ "key-file", required_argument, NULL, 'K' }, \
	{ "key-env",  required_argument, NULL, CLI_OPT_KEY_ENV }

/*
 * getopt_long with the tool's conventions.  shortopts must start with ':'
 * (after a leading '-' or '+', if any).  getopt prints nothing; an option
 * that is refused (unknown, missing or unwanted value) is reported by
 * cli_bad_option() and returned as CLI_OPT_BAD: return EXIT_USAGE.
 * Set optind = 1 before the loop.
 */
#define CLI_OPT_BAD (-2)
int cli_getopt(int argc, char **argv, const char *shortopts,
               const struct option *longopts);

/* The options commands share; a command's options struct holds one. */
struct cli_opts {
	struct cli_key key;     /* -k HEX, -K FILE, --key-env VAR */
	const char *backend;    /* -b NAME (verify and bench: or "all") */
	int help;               /* -h, --help: stop parsing, print help */
};

/*
 * Take a shared option: c from cli_getopt() ('k', 'K', CLI_OPT_KEY_ENV,
 * 'b', 'h' or CLI_OPT_BAD), arg its optarg.  A command's switch hands it
 * every c it does not handle itself.  Returns 0, or an exit status after
 * the error is printed.
 */
int cli_option(struct cli_opts *o, int c, const char *arg);

/* Print a command's help on stdout; returns 0 or EXIT_IO. */
int cli_help(void (*help)(FILE *));

/* ------------------------------------------------------------------ */
/* Backends */

/* $AESECB_BACKEND (through secure_getenv where there is one), or NULL
 * when unset or empty.  The only place the tool reads it. */
const char *cli_backend_env(void);

/*
 * Pick the backend: name == NULL means the default ($AESECB_BACKEND, else
 * the best available).  "all" is not accepted here.  On failure prints the
 * reason (naming what is missing) and returns EXIT_BACKEND.
 */
int cli_backend_resolve(const char *name, const aesecb_backend **out);

/* The exit status for a library status other than AESECB_OK: key length
 * and argument errors are EXIT_USAGE, backend errors EXIT_BACKEND. */
int cli_status_exit(int st);

/* ------------------------------------------------------------------ */
/* Keys */

/*
 * Load a key: opt is the option's getopt value, 'k' (-k HEX), 'K'
 * (-K FILE) or CLI_OPT_KEY_ENV (--key-env VAR).  Checks hex and the AES
 * key length (16, 24 or 32 bytes).  Prints one error line and returns an
 * exit status on failure (EXIT_USAGE, or EXIT_IO when a key file cannot be
 * read); 0 on success.  A second key option is an error.  k must start
 * zeroed ({0}).  With 'k', arg must be a string from argv: it is
 * overwritten with zeros once parsed, to take the key off the process's
 * command line.  Whitespace in the key text is ignored.
 */
int cli_key_load(struct cli_key *k, int opt, const char *arg);

/*
 * The loader behind cli_key_load(), for keys and for secrets (QUIC traffic
 * secrets): what a kind of key is called, its options and its lengths.
 * Messages name the option, never its argument: not the key, and not the
 * file or variable name either (a key typed where a name belongs must
 * not be echoed).  When a file or variable name is all hex digits, as
 * many as a key of the kind has, the message says that the hex option
 * takes the key itself.  A key file holds one key: hex digits on one
 * line, whitespace around them; text on a second line is refused.
 */
struct cli_keykind {
	const char *noun;                  /* "key", "secret" */
	const char *file_noun;             /* "key file", "secret file" */
	const char *opt_hex, *opt_file, *opt_env;  /* "-k", "-K", "--key-env" */
	size_t lens[3];                    /* accepted lengths in bytes */
	size_t nlens;
	const char *lens_text;             /* "AES keys are 16, 24 or ..." */
};
extern const struct cli_keykind cli_kind_key;     /* -k, -K, --key-env */
extern const struct cli_keykind cli_kind_secret;  /* --secret, ... */

/* Where the key text is: the argument (as hex; it is wiped from argv), a
 * file named by it, or an environment variable named by it. */
enum { CLI_KEYSRC_HEX, CLI_KEYSRC_FILE, CLI_KEYSRC_ENV };

int cli_keysrc_load(struct cli_key *k, const struct cli_keykind *kind,
                    int src, const char *arg);

/* Wipe a key (aesecb_wipe). */
void cli_key_wipe(struct cli_key *k);

/*
 * The context every command that encrypts with a user's key builds: "no
 * key given" if no key option was seen, then the backend (name, or NULL
 * for the default), then aesecb_init.  The key is wiped in every case.
 * Returns 0, or an exit status after printing one error line.
 */
int cli_context(aesecb_ctx *ctx, struct cli_key *key, const char *backend);

/* Commands: each returns the exit status. argv[0] is the command name. */
int cmd_encrypt(int argc, char **argv);
int cmd_decrypt(int argc, char **argv);
int cmd_hpmask(int argc, char **argv);
int cmd_quickeys(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_acvp(int argc, char **argv);
int cmd_backends(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
