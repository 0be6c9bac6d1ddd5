/* SPDX-License-Identifier: MIT */
/*
 * printable.h - user-supplied strings made safe to print, and the one
 * UTF-8 validator of the tool.
 */
#ifndef AESECB_CLI_PRINTABLE_H
#define AESECB_CLI_PRINTABLE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A user-supplied string (a path, an argument, an environment variable's
 * name or value) made safe to print in buf: printable ASCII is kept,
 * except '\' which becomes "\\"; any other byte is shown as \xHH
 * (ESC as \x1b, newline as \x0a, DEL as \x7f), except that when the
 * environment's locale (LC_ALL, LC_CTYPE, LANG) is UTF-8, well-formed
 * UTF-8 for a visible character is kept as it is (C1 controls, invisible
 * format and direction controls are escaped).  Cut short with "..." to
 * fit size (at least 5).  Never use it for key material: keys are never
 * printed.
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

/*
 * The length (2 to 4) of the well-formed UTF-8 sequence of a character at
 * p, with its code point in *cp; 0 when p does not start one (an ASCII
 * byte, a stray continuation byte, an overlong form, a surrogate, past
 * U+10FFFF, or a sequence cut short by the terminating NUL).
 */
size_t cli_utf8_char(const unsigned char *p, uint32_t *cp);

#endif
