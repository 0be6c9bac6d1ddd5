/* SPDX-License-Identifier: MIT */
/*
 * opt.c - getopt_long with the tool's conventions, the shared options and
 * the messages for refused options (see opt.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common/backend.h"
#include "common/msg.h"
#include "common/opt.h"
#include "common/printable.h"

int cli_bad_option(int opt, const char *arg, const struct option *longopts)
{
	const struct option *lo;
	char name[32];

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
			snprintf(name, sizeof name, "%.*s", n, arg);
			return cli_usage("%s option '%s'", matches > 1 ?
			                 "ambiguous" : "unknown", cli_safe(name));
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
		return cli_keysrc_load(&o->key, &cli_kind_key, CLI_KEYSRC_HEX,
		                       arg);
	case 'K':
		return cli_keysrc_load(&o->key, &cli_kind_key, CLI_KEYSRC_FILE,
		                       arg);
	case CLI_OPT_KEY_ENV:
		return cli_keysrc_load(&o->key, &cli_kind_key, CLI_KEYSRC_ENV,
		                       arg);
	case 'b': {
		const aesecb_backend *be;
		int rc = 0;

		/* checked here, in its place; the last one given counts */
		if (!(o->backend_all && strcmp(arg, "all") == 0))
			rc = cli_backend_resolve(arg, &be);
		if (rc == 0)
			o->backend = arg;
		return rc;
	}
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
