/* SPDX-License-Identifier: MIT */
/*
 * keys.h - keys and secrets from the command line: one loader for both.
 *
 * Options: -k/--key HEX, -K/--key-file FILE (hex digits, whitespace
 * ignored), --key-env VAR (hex digits in an environment variable), and
 * the same three for QUIC traffic secrets.  Messages never contain key
 * bytes.
 */
#ifndef AESECB_CLI_KEYS_H
#define AESECB_CLI_KEYS_H

#include <stddef.h>
#include <stdint.h>

struct cli_key {
	uint8_t bytes[48];  /* a key of 16 to 32 bytes, or a secret of 32 or 48 */
	size_t len;
	int given;          /* a key option was seen */
};

/*
 * The one loader of keys and secrets (QUIC traffic secrets): a kind says
 * what a key is called, its options and its lengths.
 * Messages name the option, never its argument: not the key, and not the
 * file or variable name either (a key typed where a name belongs must
 * not be echoed).  When a file or variable name is all hex digits, as
 * many as a key of the kind has, the message says that the hex option
 * takes the key itself.  A key file holds one key: hex digits on one
 * line, whitespace around them; text on a second line is refused.
 */
struct cli_keykind {
	const char *noun;                  /* "key", "secret" */
	const char *file_noun;             /* "key file", "secret file" */
	const char *opt_hex, *opt_file, *opt_env;  /* "-k", "-K", "--key-env" */
	size_t lens[3];                    /* accepted lengths in bytes */
	size_t nlens;
	const char *lens_text;             /* "AES keys are 16, 24 or ..." */
};
extern const struct cli_keykind cli_kind_key;     /* -k, -K, --key-env */
extern const struct cli_keykind cli_kind_secret;  /* --secret, ... */

/* Where the key text is: the argument (as hex; it is wiped from argv), a
 * file named by it, or an environment variable named by it. */
enum { CLI_KEYSRC_HEX, CLI_KEYSRC_FILE, CLI_KEYSRC_ENV };

/*
 * Load a key of kind from src and arg into k (which starts zeroed, {0}).
 * Checks the hex and the length.  Prints one error line and returns an
 * exit status on failure (EXIT_USAGE, or EXIT_IO when a key file cannot
 * be read); 0 on success.  A second key option is an error.  With
 * CLI_KEYSRC_HEX, arg must be a string from argv: it is overwritten with
 * zeros once parsed, to take the key off the process's command line.
 * Whitespace in the key text is ignored.  The shared key options (-k, -K,
 * --key-env) come here through cli_option() (opt.h), which maps each
 * option to its source.
 */
int cli_keysrc_load(struct cli_key *k, const struct cli_keykind *kind,
                    int src, const char *arg);

/* Wipe a key (aesecb_wipe). */
void cli_key_wipe(struct cli_key *k);

#endif
