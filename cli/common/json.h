/* SPDX-License-Identifier: MIT */
/*
 * json.h - the tool's one JSON writer: a small streaming emitter.
 *
 * Every --json output and the answers of 'aesecb acvp' go through it.  It
 * writes as it is called (the commas, the nesting and the layout are its
 * business, not the caller's), so an ACVP answer never exists in memory
 * but as the text being written, unsigned 64-bit numbers (seeds) are
 * written as they are, and key material in an answer passes through one
 * small buffer that is wiped.  Reading JSON is jansson's (acvp.c).
 *
 * Layouts:
 *   CLI_JSON_LISTING  the top-level container, the arrays in it, and any
 *                     array of objects or arrays have one member per
 *                     line; other objects stay on one line
 *                     ({"name": "none", "arch": "any"}).
 *   CLI_JSON_PRETTY   every container has one member per line, indented
 *                     by 2 (as NIST writes ACVP files).
 *
 * Usage: cli_json_start(&j, stdout, CLI_JSON_LISTING); then values, each
 * with its member name inside an object (key) or NULL inside an array and
 * at the top; cli_json_end() closes the innermost object or array; then
 * cli_json_finish().  Strings may be any bytes: control characters are
 * written as \u00XX, bytes that are not well-formed UTF-8 as U+FFFD.
 */
#ifndef AESECB_CLI_JSON_H
#define AESECB_CLI_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_JSON_DEPTH 16   /* containers open at once, at most */

enum { CLI_JSON_LISTING, CLI_JSON_PRETTY };

struct cli_json {
	FILE *f;
	int layout;
	int depth;                        /* containers open */
	unsigned long n[CLI_JSON_DEPTH];  /* members written in each */
	char close[CLI_JSON_DEPTH];       /* '}' or ']' */
	unsigned char wide[CLI_JSON_DEPTH];  /* one member per line */
	int err;                          /* nesting misused */
};

void cli_json_start(struct cli_json *j, FILE *f, int layout);

void cli_json_object(struct cli_json *j, const char *key);
void cli_json_array(struct cli_json *j, const char *key);
void cli_json_end(struct cli_json *j);

/* s (NULL: null) as a string, through the one rule of what may be a key
 * (printable.h): what may be a key is withheld, whatever s holds.  Data
 * the program shows on purpose goes through cli_json_hex(). */
void cli_json_string(struct cli_json *j, const char *key, const char *s);
void cli_json_uint(struct cli_json *j, const char *key, uint64_t v);
void cli_json_int(struct cli_json *j, const char *key, long long v);
void cli_json_bool(struct cli_json *j, const char *key, int v);
void cli_json_null(struct cli_json *j, const char *key);
/* v with the printf format fmt ("%.4f"); null when have is 0 or v is not
 * finite. */
void cli_json_real(struct cli_json *j, const char *key, const char *fmt,
                   double v, int have);
/* n bytes as a string of hex digits (CLI_HEX_LOWER or CLI_HEX_UPPER),
 * through a buffer that is wiped: the bytes may be key material. */
void cli_json_hex(struct cli_json *j, const char *key, const uint8_t *p,
                  size_t n, int upper);

/* End of the document: a newline, then the stream is flushed.  Returns 0,
 * or -1 when a write failed (errno says why) or the nesting was wrong. */
int cli_json_finish(struct cli_json *j);

/* cli_json_finish for standard output: 0, or EXIT_IO after the message. */
int cli_json_finish_stdout(struct cli_json *j);

#endif
