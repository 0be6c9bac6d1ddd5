/*
 * outfile.h - a command's output file (-o OUT), written atomically: the
 * output goes to a temporary file in OUT's directory, which is renamed
 * over OUT only when everything succeeded; on failure (or a fatal signal:
 * SIGHUP, SIGINT, SIGTERM) it is removed and an existing OUT is left as it
 * was.  A device or a pipe is written directly; a symbolic link is written
 * through (the file it names is replaced).  An existing OUT keeps its
 * permissions.  One output file at a time.
 */
#ifndef AESECB_CLI_OUTFILE_H
#define AESECB_CLI_OUTFILE_H

#include <stddef.h>

struct cli_output {
	int fd;
	const char *path;     /* -o OUT, or NULL for stdout */
	const char *target;   /* the file replaced: OUT, or what its link names */
	int temp;             /* writing a temporary file, to be renamed */
	int hex;              /* for the caller (encrypt/decrypt: hex lines) */
};

/* Open the output: path NULL or "-" is standard output.  Returns 0 or an
 * exit status after printing the error. */
int cli_output_open(struct cli_output *o, const char *path, int hex);

/* Finish the output: on success (ok) make it final, else remove the
 * temporary file.  Returns 0 or an exit status after printing the error. */
int cli_output_close(struct cli_output *o, int ok);

/* write(2) all n bytes, retrying on EINTR; 0 or -1 (errno set). */
int cli_write_all(int fd, const void *buf, size_t n);

#endif
