/* SPDX-License-Identifier: MIT */
/*
 * msg.c - the tool's error messages (see msg.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"

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
