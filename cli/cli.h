/*
 * cli.h - shared pieces of the aesecb command-line tool.
 */
#ifndef AESECB_CLI_H
#define AESECB_CLI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aesecb.h"

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

/* Print "aesecb: CMD: message" and a newline on stderr. */
void cli_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Print "aesecb: CMD: message (try 'aesecb CMD --help')" on stderr and
 * return EXIT_USAGE.
 */
int cli_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Report an option that was refused, through cli_usage(); returns
 * EXIT_USAGE.  arg is the command-line element it was in (may be NULL),
 * opt the option character (0 for an unknown long option, or when only arg
 * is known).  With getopt_long, pass optopt and argv[optind - 1].  The
 * message names the option only, never a value given with it ("--key=HEX",
 * "-kHEX"), and says "takes no value" or "needs a value" where longopts
 * (may be NULL) shows that applies; a short option is taken to need a
 * value when a long option with the same val does.
 */
struct option;
int cli_bad_option(int opt, const char *arg, const struct option *longopts);

/* Flush standard output; on failure print why and return EXIT_IO, else 0. */
int cli_flush_stdout(void);

/*
 * Write s to f as a JSON string (NULL as null).  Control characters are
 * written as \u00XX; bytes that are not well-formed UTF-8 become U+FFFD.
 */
void cli_json_str(FILE *f, const char *s);

/*
 * Pick the backend: name == NULL means the default ($AESECB_BACKEND, else
 * the best available).  "all" is not accepted here.  On failure prints the
 * reason (naming what is missing) and returns EXIT_BACKEND.
 */
int cli_backend_resolve(const char *name, const aesecb_backend **out);

/* Value of a hex digit, or -1.  No branch on the digit's value. */
int cli_hexval(int c);

/*
 * Branch-free helpers for text that may hold secrets (key digits, data in
 * hex): no branch and no table index depends on a character's value.
 */

/* All ones if lo <= c <= hi, else 0 (c, lo, hi below 2^31). */
static inline uint32_t cli_ct_in_range(uint32_t c, uint32_t lo, uint32_t hi)
{
	return (((c - lo) | (hi - c)) >> 31) - 1u;
}

/* The same as cli_hexval(), inline. */
static inline int cli_hexnibble(int c)
{
	uint32_t u = (uint32_t)c & 0xffu;
	uint32_t dig = cli_ct_in_range(u, '0', '9');
	uint32_t low = cli_ct_in_range(u, 'a', 'f');
	uint32_t upp = cli_ct_in_range(u, 'A', 'F');
	uint32_t ok = (dig | low | upp) & (0u - (uint32_t)((unsigned)c < 256u));
	uint32_t val = (dig & (u - '0')) | (low & (u - 'a' + 10u)) |
	               (upp & (u - 'A' + 10u));

	return (int)(int32_t)((val & ok) | ~ok);  /* invalid: -1 */
}

/* Class of a character in hex text. */
#define CLI_HEX_DIGIT 1
#define CLI_HEX_SPACE 2   /* space, \t, \n, \v, \f, \r: ignored */
#define CLI_HEX_BAD   4
static inline int cli_hexclass(int c)
{
	uint32_t u = (uint32_t)c & 0xffu;
	uint32_t byte = 0u - (uint32_t)((unsigned)c < 256u);
	uint32_t hex = (cli_ct_in_range(u, '0', '9') |
	                cli_ct_in_range(u, 'a', 'f') |
	                cli_ct_in_range(u, 'A', 'F')) & byte;
	uint32_t sp = (cli_ct_in_range(u, ' ', ' ') |
	               cli_ct_in_range(u, '\t', '\r')) & byte;

	return (int)((hex & CLI_HEX_DIGIT) | (sp & CLI_HEX_SPACE) |
	             (~(hex | sp) & CLI_HEX_BAD));
}

/* The lowercase hex digit for the low 4 bits of v. */
static inline char cli_hexdigit(unsigned v)
{
	uint32_t n = v & 15u;
	/* past 9, add the distance from '9' + 1 to 'a' */
	uint32_t over = 0u - ((9u - n) >> 31);

	return (char)(n + '0' + (over & ('a' - '0' - 10)));
}

/*
 * Keys from the command line.  Options: -k/--key HEX, -K/--key-file FILE
 * (hex digits, whitespace ignored), --key-env VAR (hex digits in an
 * environment variable).  Messages never contain key bytes.
 */
struct cli_key {
	uint8_t bytes[64];  /* room to report a too-long key's length */
	size_t len;
	int given;          /* a key option was seen */
};

/*
 * Load a key: how is 'k' (-k HEX), 'K' (-K FILE) or 'e' (--key-env VAR).
 * Checks hex and the AES key length (16, 24 or 32 bytes).  Prints one error
 * line and returns an exit status on failure (EXIT_USAGE, or EXIT_IO when a
 * key file cannot be read); 0 on success.  A second key option is an error.
 * 'k' must start zeroed ({0}).  With 'k', arg must be a string from argv:
 * it is overwritten with zeros once parsed, to take the key off the
 * process's command line.  Whitespace in the key text is ignored.
 */
int cli_key_load(struct cli_key *k, int how, const char *arg);

/* Wipe a key (aesecb_wipe). */
void cli_key_wipe(struct cli_key *k);

/* Commands: each returns the exit status. argv[0] is the command name. */
int cmd_encrypt(int argc, char **argv);
int cmd_decrypt(int argc, char **argv);
int cmd_hpmask(int argc, char **argv);
int cmd_quickeys(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_backends(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
