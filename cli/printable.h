/* SPDX-License-Identifier: MIT */
/*
 * printable.h - user-supplied strings made safe to print, and the one
 * UTF-8 validator of the tool.
 *
 * The one rule of what a message may repeat: hex long enough to be a key
 * or a secret (CLI_HEX_RUN_MIN digits or more, with or without
 * separators) is never shown, from any argument, file name, environment
 * value or JSON field; CLI_WITHHELD stands in its place and says why.
 * Every user-supplied string goes through cli_safe() or cli_printable()
 * on its way to a message, and through cli_withhold() on its way into
 * JSON.
 */
#ifndef AESECB_CLI_PRINTABLE_H
#define AESECB_CLI_PRINTABLE_H

#include <stddef.h>
#include <stdint.h>

/* Hex digits in a run that is withheld: an AES-128 key has 32. */
#define CLI_HEX_RUN_MIN 32
#define CLI_WITHHELD "<32+ hex digits withheld: may be a key>"

/*
 * The run of hex at s (s[0] a hex digit, else 0): digits, with groups of
 * up to 3 separator bytes between them (any byte that is not a letter or
 * a digit, and an 'x' right after a digit as in "0x2b"), ending at its
 * last digit.  Returns its length in bytes, and the number of its digits
 * in *digits (may be NULL).  Looks only at the classes of the
 * characters, never branches on a digit's value.
 */
size_t cli_hex_run(const char *s, size_t *digits);

/*
 * A user-supplied string (a path, an argument, an environment variable's
 * name or value) made safe to print in buf: every run of CLI_HEX_RUN_MIN
 * hex digits or more (cli_hex_run) becomes CLI_WITHHELD; printable ASCII
 * is kept,
 * except '\' which becomes "\\"; any other byte is shown as \xHH
 * (ESC as \x1b, newline as \x0a, DEL as \x7f), except that when the
 * environment's locale (LC_ALL, LC_CTYPE, LANG) is UTF-8, well-formed
 * UTF-8 for a visible character is kept as it is (C1 controls, invisible
 * format and direction controls are escaped).  Cut short with "..." to
 * fit size (at least 5; a CLI_WITHHELD that does not fit is left out
 * whole).  Never use it for key material: keys are never printed.
 */
const char *cli_printable(const char *s, char *buf, size_t size);

/* cli_printable() into one of CLI_SAFE_SLOTS static buffers used in turn,
 * so that a message can show up to CLI_SAFE_SLOTS names: use it for every
 * user-supplied string in a message, cli_err("cannot open '%s': %s",
 * cli_safe(path), strerror(errno)).  A path of PATH_MAX bytes fits whole.
 * Does not change errno. */
#define CLI_SAFE_SLOTS 4
#define CLI_PRINTABLE_MAX (4 * 4096 + 4)
const char *cli_safe(const char *s);

/* s with every run of CLI_HEX_RUN_MIN hex digits or more replaced by
 * CLI_WITHHELD, other bytes kept as they are (for a JSON string, which
 * the writer escapes), in one of the same buffers.  NULL stays NULL. */
const char *cli_withhold(const char *s);

/*
 * The length (2 to 4) of the well-formed UTF-8 sequence of a character at
 * p, with its code point in *cp; 0 when p does not start one (an ASCII
 * byte, a stray continuation byte, an overlong form, a surrogate, past
 * U+10FFFF, or a sequence cut short by the terminating NUL).
 */
size_t cli_utf8_char(const unsigned char *p, uint32_t *cp);

#endif
