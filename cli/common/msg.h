/* SPDX-License-Identifier: MIT */
/*
 * msg.h - the tool's messages and exit statuses.
 *
 * Every error is one line on stderr, "aesecb: CMD: what went wrong", and
 * the command returns one of the exit statuses below (aesecb(1)).  Only
 * the functions that print such a line turn a failure into an exit status.
 */
#ifndef AESECB_CLI_MSG_H
#define AESECB_CLI_MSG_H

#include <stdio.h>

/* Exit statuses (see aesecb(1)). */
enum {
	EXIT_OK_ = 0,
	EXIT_CHECK = 1,    /* data failed a check: vector mismatch, bad padding */
	EXIT_USAGE = 2,    /* usage error or invalid input */
	EXIT_BACKEND = 3,  /* backend unknown or not available here */
	EXIT_IO = 4        /* read or write failed */
};

/* The command being run, for messages ("encrypt", "verify", ...). */
extern const char *cli_cmd;

/* Print "aesecb: CMD: message" and a newline on stderr ("aesecb: message"
 * before a command is known).  The message is formatted whole and goes
 * through the one rule of what may be a key (printable.h): whatever an
 * argument holds, a key is not shown. */
void cli_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* cli_err() followed by data, shown as it is: the program's own text
 * (the hex of a block a check computed or read as a vector's value),
 * never a user's string. */
void cli_err_data(const char *data, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Print "aesecb: CMD: message (try 'aesecb CMD --help')" on stderr and
 * return EXIT_USAGE.  Neither cuts a message short.
 */
int cli_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Flush standard output; on failure print why and return EXIT_IO, else 0. */
int cli_flush_stdout(void);

/*
 * Output streams that remember why they failed.  stdio forgets the errno
 * of a write it made while buffering (a large printf to /dev/full or into
 * a closed pipe came back as "Input/output error"); a stream of
 * cli_stream() writes with write(2), retrying short writes and EINTR, and
 * keeps the errno of the first write that failed, which cli_write_error()
 * gives.  cli_stream() returns NULL where the C library cannot build such
 * a stream (no fopencookie): the caller falls back to fdopen().
 * cli_stdout_init() (main() calls it first) makes standard output such a
 * stream, line-buffered on a terminal, fully buffered otherwise.
 */
FILE *cli_stream(int fd);
void cli_stdout_init(void);
/* The errno of the first failed write of a cli_stream(), else errno if it
 * is set, else EIO: the reason a message gives. */
int cli_write_error(void);

#endif
