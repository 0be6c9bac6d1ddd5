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

/* "aesecb: CMD: ", the message, then suffix and a newline: formatted
 * straight onto stderr, so that no message is ever cut short. */
static void verr(const char *suffix, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (cli_cmd != NULL)
		fprintf(stderr, "aesecb: %s: ", cli_cmd);
	else
		fputs("aesecb: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs(suffix, stderr);
	fputc('\n', stderr);
}

void cli_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr("", fmt, ap);
	va_end(ap);
}

int cli_usage(const char *fmt, ...)
{
	char suffix[64];
	va_list ap;

	snprintf(suffix, sizeof suffix, " (try 'aesecb %s --help')",
	         cli_cmd != NULL ? cli_cmd : "COMMAND");
	va_start(ap, fmt);
	verr(suffix, fmt, ap);
	va_end(ap);
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
