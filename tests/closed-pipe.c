/* SPDX-License-Identifier: MIT */
/*
 * closed-pipe.c - run a command with its standard output on a pipe whose
 * read end is already closed, so that its first write fails with EPIPE
 * (tests/cli-write-errors.sh): closed-pipe COMMAND [ARG]...  Unlike
 * "COMMAND | head -c0" this does not depend on which process runs first.
 * SIGPIPE is set to its default action: what the command does with it is
 * its own business.  Exit status: the command's, or 127 if it cannot run.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int p[2];

	if (argc < 2) {
		fputs("usage: closed-pipe COMMAND [ARG]...\n", stderr);
		return 2;
	}
	if (pipe(p) != 0 || close(p[0]) != 0 || dup2(p[1], STDOUT_FILENO) < 0) {
		perror("closed-pipe");
		return 127;
	}
	if (p[1] != STDOUT_FILENO)
		close(p[1]);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[1], argv + 1);
	perror("closed-pipe: exec");
	return 127;
}
