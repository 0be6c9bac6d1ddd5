/* SPDX-License-Identifier: MIT */
/*
 * outfile.h - where a command's output goes (-o OUT).
 *
 * The rule (aesecb(1), -o):
 *
 *  - no OUT, or "-": standard output;
 *  - OUT names one of our open descriptors: /dev/stdin, /dev/stdout,
 *    /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N,
 *    /proc/PID/fd/N with our PID (also through symbolic links to those
 *    names), or is the same file (device and inode) as standard output or
 *    standard error open for writing: the output is written to that
 *    descriptor, at its offset and in its mode (append if it was opened
 *    so), as if it were standard output.  A descriptor named must be
 *    open for writing;
 *  - OUT exists and is not a regular file (a character device such as
 *    /dev/null or a terminal, a FIFO, a socket): it is opened and written;
 *  - otherwise OUT is a regular file, new or replaced: the output goes to
 *    a temporary file in OUT's directory (the directory of the file a
 *    symbolic link OUT names: the link is written through and kept),
 *    which takes OUT's place in one rename(2) when the command succeeds,
 *    with OUT's permission bits (and owner, where we may) or those a new
 *    file gets.  On failure, or when a signal ends the process, the
 *    temporary file is removed and OUT is left as it was.
 *
 * The temporary file is unnamed where the system can (Linux O_TMPFILE):
 * it gets a name, ".BASENAME.aesecb-tmp-XXXXXX" next to OUT, only for the
 * moment between linkat(2) and rename(2), so even SIGKILL leaves nothing
 * behind.  Elsewhere it is created with that name from the start.
 *
 * One file at a time is being replaced (one static path the signal
 * handler can reach).  Writes to a descriptor or a device are not atomic:
 * a command that fails has written part of its output there.
 */
#ifndef AESECB_CLI_OUTFILE_H
#define AESECB_CLI_OUTFILE_H

#include <stddef.h>

struct cli_outfile {
	int fd;             /* where cli_outfile_write() writes */
	const char *name;   /* for messages: OUT as given, or "stdout" */
	/* the rest is private to outfile.c */
	int kind;
	const char *path;   /* OUT, or NULL */
};

/*
 * Starts the output to path (NULL or "-": standard output) following the
 * rule above.  Returns 0, or EXIT_USAGE / EXIT_IO after printing one
 * error line; on failure nothing is left to commit or abort (calling
 * cli_outfile_abort() is harmless).
 */
int cli_outfile_open(struct cli_outfile *o, const char *path);

/* Writes all n bytes (retrying short writes and EINTR).  Returns 0, or
 * EXIT_IO after printing "cannot write 'OUT': why". */
int cli_outfile_write(struct cli_outfile *o, const void *buf, size_t n);

/*
 * Finishes a successful output: a replaced file gets its mode, is synced
 * and takes OUT's place; a device is closed.  Standard output and named
 * descriptors stay open (the command flushes nothing there: writes are
 * unbuffered).  Returns 0, or EXIT_IO after printing the error, in which
 * case the temporary file is gone and OUT is as it was.
 */
int cli_outfile_commit(struct cli_outfile *o);

/* Gives up: removes the temporary file, closes what was opened.  OUT is
 * left as it was.  Safe to call twice, or after a failed open/commit. */
void cli_outfile_abort(struct cli_outfile *o);

/*
 * Installs the handlers that remove the temporary file when a signal
 * ends the process: every signal that can be caught and whose default
 * action ends the process and that still has its default action (those
 * the parent ignores stay ignored; a handler already installed, such as a
 * sanitizer's, is kept).  The handler unlinks the file, restores the default action
 * and raises the signal again, so the process still dies of it (exit
 * status, core dump).  main() calls it once; cli_outfile_open() calls it
 * too (it does its work once).
 */
void cli_outfile_signals(void);

#endif
