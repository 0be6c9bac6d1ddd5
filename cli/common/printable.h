/* SPDX-License-Identifier: MIT */
/*
 * printable.h - user-supplied strings made safe to print, and the one
 * UTF-8 validator of the tool.
 *
 * The one rule of what the tool may repeat: what may be a key or a secret
 * is never shown, from any argument, file name, environment value, file
 * content or JSON field, in any of the spellings a key is written in:
 *   - hex of CLI_HEX_RUN_MIN digits or more, with or without separators
 *     between the digits (spaces, ':', '-', ',', line breaks, up to 16
 *     bytes of them), in "0xHH" groups, or in "\xHH" escapes;
 *   - raw bytes: two bytes or more that are not text (printable ASCII or
 *     well-formed UTF-8 of a visible character) within 16 bytes of each
 *     other, whether the bytes themselves or their escapes "\xHH" (as
 *     C, Python and this tool write them), together with the bytes around
 *     them, up to 16 in all.
 * CLI_WITHHELD or CLI_WITHHELD_RAW stands in their place and says why.
 *
 * The rule is applied where output is made: every message (cli_err(),
 * cli_usage(), whatever their arguments) and every JSON string value
 * (cli_json_string()) go through cli_show_alloc(); cli_safe() also
 * escapes a user's string for a message.  Nothing is cut before the rule
 * is applied, and cli_safe() never cuts.  Program data that is shown on
 * purpose (the hex of a block a check computed, a packet) is written
 * apart from these (cli_err_data(), cli_json_hex()).
 */
#ifndef AESECB_CLI_PRINTABLE_H
#define AESECB_CLI_PRINTABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Hex digits in a run that is withheld: an AES-128 key has 32. */
#define CLI_HEX_RUN_MIN 32
#define CLI_WITHHELD "<32+ hex digits withheld: may be a key>"
#define CLI_WITHHELD_RAW "<raw bytes withheld: may be a key>"
/* What stands for a string that could not be shown (out of memory). */
#define CLI_NOT_SHOWN "<not shown: out of memory>"

/* How cli_show_alloc() shows a string. */
enum {
	CLI_SHOW_ESCAPE,  /* for a message: printable ASCII kept, '\' as
	                     "\\", any other byte as \xHH (ESC as \x1b,
	                     newline as \x0a), except that when the
	                     environment's locale (LC_ALL, LC_CTYPE, LANG) is
	                     UTF-8, well-formed UTF-8 for a visible character
	                     is kept (C1 controls, invisible format and
	                     direction controls are escaped) */
	CLI_SHOW_LINE,    /* a whole message line: the same, but '\' kept
	                     (its parts were escaped already) */
	CLI_SHOW_RAW      /* for a JSON string: bytes kept (the writer
	                     escapes) */
};

/* s with what the rule withholds replaced, shown as how says, in memory
 * the caller frees; NULL when out of memory.  Never cut short. */
char *cli_show_alloc(const char *s, int how);
/* The same, written to f.  Returns 0, or -1 when out of memory (nothing
 * written); a string of up to 1024 bytes needs no memory. */
int cli_show_to(FILE *f, const char *s, int how);

/* cli_show_alloc(s, CLI_SHOW_ESCAPE) in buf, cut short with "..." to fit
 * size (at least 5; a withheld mark that does not fit is left out whole,
 * so the rule is applied before the cut).  Prefer cli_safe(), which never
 * cuts. */
const char *cli_printable(const char *s, char *buf, size_t size);

/* cli_show_alloc(s, CLI_SHOW_ESCAPE) in one of CLI_SAFE_SLOTS buffers
 * used in turn, so that a message can show up to CLI_SAFE_SLOTS names:
 * use it for every user-supplied string in a message,
 * cli_err("cannot open '%s': %s", cli_safe(path), strerror(errno)).
 * Never cut short (CLI_NOT_SHOWN when out of memory).  Does not change
 * errno. */
#define CLI_SAFE_SLOTS 4
const char *cli_safe(const char *s);

/*
 * The length (2 to 4) of the well-formed UTF-8 sequence of a character at
 * p, with its code point in *cp; 0 when p does not start one (an ASCII
 * byte, a stray continuation byte, an overlong form, a surrogate, past
 * U+10FFFF, or a sequence cut short by the terminating NUL).
 */
size_t cli_utf8_char(const unsigned char *p, uint32_t *cp);

#endif
