/* SPDX-License-Identifier: MIT */
/*
 * opt.h - options: one getopt_long loop per command (cli_getopt), the
 * options commands share, and the messages for refused options.
 *
 * A command is one file: a struct of its options, typed and checked while
 * they are parsed, one getopt_long loop over them, then the work.
 */
#ifndef AESECB_CLI_OPT_H
#define AESECB_CLI_OPT_H

#include <getopt.h>
#include <stdio.h>

#include "common/keys.h"

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

/* The options commands share; a command's options struct holds one. */
struct cli_opts {
	struct cli_key key;     /* -k HEX, -K FILE, --key-env VAR */
	const char *backend;    /* -b NAME (verify and bench: or "all") */
	int backend_all;        /* set before parsing: -b all is accepted */
	int help;               /* -h, --help: stop parsing, print help */
};

/*
 * Take a shared option: c from cli_getopt() ('k', 'K', CLI_OPT_KEY_ENV,
 * 'b', 'h' or CLI_OPT_BAD), arg its optarg.  A command's switch hands it
 * every c it does not handle itself.  Every option is checked where it
 * stands, so that the first bad one on the command line is the one
 * reported: a key is loaded (cli_keysrc_load), and -b NAME must name a
 * backend that runs here (cli_backend_resolve: EXIT_BACKEND), or be
 * "all" where backend_all is set.  Returns 0, or an exit status after the
 * error is printed.
 */
int cli_option(struct cli_opts *o, int c, const char *arg);

/* Print a command's help on stdout; returns 0 or EXIT_IO. */
int cli_help(void (*help)(FILE *));

#endif
