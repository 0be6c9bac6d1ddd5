/* SPDX-License-Identifier: MIT */
/*
 * main.c - the aesecb command: dispatch to the subcommands.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "common/outfile.h"

static const struct command {
	const char *name;
	int (*run)(int, char **);
	const char *summary;
} commands[] = {
	{ "encrypt",  cmd_encrypt,  "encrypt data with AES-ECB" },
	{ "decrypt",  cmd_decrypt,  "decrypt data with AES-ECB" },
	{ "hp-mask",  cmd_hpmask,   "QUIC header-protection masks; protect/unprotect headers" },
	{ "quic-keys", cmd_quickeys, "QUIC Initial secrets and keys of a connection ID" },
	{ "verify",   cmd_verify,   "check NIST CAVP and QUIC vectors under every backend" },
	{ "acvp",     cmd_acvp,     "answer a NIST ACVP AES-ECB prompt" },
	{ "backends", cmd_backends, "list the backends and what this CPU can run" },
	{ "bench",    cmd_bench,    "measure the speed of the backends" },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
	        "Usage: aesecb COMMAND [OPTION]...\n"
	        "AES-128/192/256 in ECB mode with run-time selected CPU backends.\n"
	        "\n"
	        "Commands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
	        "\n"
	        "  aesecb help COMMAND   or   aesecb COMMAND --help   for a command's options\n"
	        "  aesecb --version      print the version\n"
	        "\n"
	        "Exit status: 0 success; 1 data failed a check; 2 usage error or invalid\n"
	        "input; 3 backend unknown or not available; 4 I/O error.\n"
	        "See aesecb(1).\n");
}

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *c;

	/* A closed pipe or a file-size limit is a write error to report and
	 * clean up after (exit 4, no partial -o file), not a silent death. */
	signal(SIGPIPE, SIG_IGN);
#ifdef SIGXFSZ
	signal(SIGXFSZ, SIG_IGN);
#endif
	/* Any other signal that ends the process removes the temporary file
	 * of an -o output first (outfile.h). */
	cli_outfile_signals();
	/* standard output keeps the reason of a failed write (msg.h) */
	cli_stdout_init();

	cli_cmd = NULL;
	if (argc < 2) {
		cli_err("no command given (try 'aesecb --help')");
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return cli_flush_stdout();
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("aesecb %s\n", aesecb_version());
		return cli_flush_stdout();
	}
	if (strcmp(argv[1], "help") == 0) {
		char *hargv[3];

		/* 'help' alone, and help on itself, is the list of commands */
		if (argc < 3 || strcmp(argv[2], "help") == 0) {
			usage(stdout);
			return cli_flush_stdout();
		}
		if (argc > 3) {
			cli_err("help: one command at a time (try 'aesecb --help')");
			return EXIT_USAGE;
		}
		c = find(argv[2]);
		if (c == NULL) {
			cli_err("unknown command '%s' (try 'aesecb --help')",
			        cli_safe(argv[2]));
			return EXIT_USAGE;
		}
		cli_cmd = c->name;
		hargv[0] = argv[2];
		hargv[1] = (char *)"--help";
		hargv[2] = NULL;
		return c->run(2, hargv);
	}
	c = find(argv[1]);
	if (c == NULL) {
		cli_err("unknown command '%s' (try 'aesecb --help')",
		        cli_safe(argv[1]));
		return EXIT_USAGE;
	}
	cli_cmd = c->name;
	return c->run(argc - 1, argv + 1);
}
