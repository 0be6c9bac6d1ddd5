/* SPDX-License-Identifier: MIT */
/*
 * msg.c - the tool's error messages (see msg.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "aesecb.h"
#include "common/msg.h"
#include "common/printable.h"

const char *cli_cmd;

/* "aesecb: CMD: ", the message, then data, suffix and a newline.  The
 * message is formatted whole (never cut short: in memory of its size when
 * it is long) and shown through the one rule of what may be a key
 * (cli_show_to()); data is the program's own text, shown as it is. */
static void verr(const char *data, const char *suffix, const char *fmt,
                 va_list ap)
{
	char small[1024], *msg = small;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof small, fmt, aq);
	va_end(aq);
	if (n >= (int)sizeof small) {
		msg = malloc((size_t)n + 1);
		if (msg != NULL)
			vsnprintf(msg, (size_t)n + 1, fmt, ap);
	}
	fflush(stdout);
	if (cli_cmd != NULL)
		fprintf(stderr, "aesecb: %s: ", cli_cmd);
	else
		fputs("aesecb: ", stderr);
	if (n < 0 || msg == NULL || cli_show_to(stderr, msg, CLI_SHOW_LINE) < 0)
		fputs("(a message could not be shown: out of memory)", stderr);
	if (data != NULL)
		fputs(data, stderr);
	fputs(suffix, stderr);
	fputc('\n', stderr);
	/* they may have held what was withheld */
	aesecb_wipe(small, sizeof small);
	if (msg != small && msg != NULL) {
		aesecb_wipe(msg, (size_t)n);
		free(msg);
	}
}

void cli_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(NULL, "", fmt, ap);
	va_end(ap);
}

void cli_err_data(const char *data, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(data, "", fmt, ap);
	va_end(ap);
}

int cli_usage(const char *fmt, ...)
{
	char suffix[64];
	va_list ap;

	snprintf(suffix, sizeof suffix, " (try 'aesecb %s --help')",
	         cli_cmd != NULL ? cli_cmd : "COMMAND");
	va_start(ap, fmt);
	verr(NULL, suffix, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int cli_flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_err("cannot write stdout: %s", strerror(cli_write_error()));
		return EXIT_IO;
	}
	return 0;
}

/* The errno of the first write of a cli_stream() that failed. */
static int first_write_error;

int cli_write_error(void)
{
	return first_write_error != 0 ? first_write_error :
	       errno != 0 ? errno : EIO;
}

#ifdef HAVE_FOPENCOOKIE
static ssize_t stream_write(void *cookie, const char *buf, size_t n)
{
	int fd = (int)(intptr_t)cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;  /* write(2) wrote nothing, said nothing */
			if (first_write_error == 0)
				first_write_error = errno;
			/* what was written; never negative (fopencookie(3):
			 * glibc's stdio breaks on -1 after a large write) */
			return (ssize_t)done;
		}
		done += (size_t)w;
	}
	return (ssize_t)n;
}

FILE *cli_stream(int fd)
{
	cookie_io_functions_t io = { NULL, stream_write, NULL, NULL };

	return fopencookie((void *)(intptr_t)fd, "w", io);
}
#else  /* no fopencookie */
FILE *cli_stream(int fd)
{
	(void)fd;
	return NULL;
}
#endif

void cli_stdout_init(void)
{
#if defined(__GLIBC__)
	/* glibc's stdout is a variable that may be set (its manual says
	 * so); elsewhere stdout stays as it is */
	FILE *f = cli_stream(STDOUT_FILENO);

	if (f == NULL)
		return;
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	stdout = f;
#endif
}
