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
 * before a command is known). */
void cli_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Print "aesecb: CMD: message (try 'aesecb CMD --help')" on stderr and
 * return EXIT_USAGE.  Neither cuts a message short.
 */
int cli_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Flush standard output; on failure print why and return EXIT_IO, else 0. */
int cli_flush_stdout(void);

#endif
