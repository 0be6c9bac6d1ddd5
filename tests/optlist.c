/* SPDX-License-Identifier: MIT */
/*
 * optlist.c - an LD_PRELOAD library for tests/cli-no-echo.sh: the first
 * call of getopt_long() prints the option table it was given and ends the
 * process, so that 'aesecb COMMAND' lists the options COMMAND parses,
 * from the very tables its parser uses:
 *
 *     short k 1        -k takes a value (0: none, 2: an optional one)
 *     long key 1       --key takes a value
 *     operands 1       the option string starts with '-': operands come
 *                      back in order (encrypt, decrypt)
 *
 * then "end" on a line of its own, and exit status 0.  Nothing else is
 * changed.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int getopt_long(int argc, char *const argv[], const char *optstring,
                const struct option *longopts, int *longindex)
{
	const char *p = optstring;
	char line[128];
	int n;

	(void)argc;
	(void)argv;
	(void)longindex;
	/* one write per line, straight to the descriptor: the tool's stdout
	 * stream is its own business */
	n = snprintf(line, sizeof line, "operands %d\n", *p == '-');
	(void)!write(STDOUT_FILENO, line, (size_t)n);
	while (*p == '-' || *p == '+' || *p == ':')
		p++;
	for (; *p != '\0'; p++) {
		int arg = p[1] == ':' ? (p[2] == ':' ? 2 : 1) : 0;

		n = snprintf(line, sizeof line, "short %c %d\n", *p, arg);
		(void)!write(STDOUT_FILENO, line, (size_t)n);
		while (p[1] == ':')
			p++;
	}
	for (; longopts != NULL && longopts->name != NULL; longopts++) {
		n = snprintf(line, sizeof line, "long %s %d\n", longopts->name,
		             longopts->has_arg);
		(void)!write(STDOUT_FILENO, line, (size_t)n);
	}
	(void)!write(STDOUT_FILENO, "end\n", 4);
	_exit(0);
}
