/* SPDX-License-Identifier: MIT */
/*
 * hex.h - the one hex decoder and encoder of the aesecb tool.
 *
 * Keys and data go through these functions, so they never branch on, or
 * index memory with, a digit's value.  The decoder branches only on a
 * character's class (digit, ignored whitespace, anything else) and on how
 * many digits it has seen: the syntax of the text, not its content.
 */
#ifndef AESECB_CLI_HEX_H
#define AESECB_CLI_HEX_H

#include <stddef.h>
#include <stdint.h>

/* All ones if lo <= c <= hi, else 0 (c, lo, hi below 2^31). */
/*@ assigns \nothing; */
static inline uint32_t cli_ct_in_range(uint32_t c, uint32_t lo, uint32_t hi)
{
	return (((c - lo) | (hi - c)) >> 31) - 1u;
}

/* Value of a hex digit (either case), or -1.  No branch on c. */
/*@ assigns \nothing; */
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

/* Class of a character in hex text.  No branch on c. */
#define CLI_HEX_DIGIT 1
#define CLI_HEX_SPACE 2   /* space, \t, \n, \v, \f, \r */
#define CLI_HEX_OTHER 4
/*@ assigns \nothing; */
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
	             (~(hex | sp) & CLI_HEX_OTHER));
}

/* Whether n bytes differ, looking at every byte (no early exit). */
static inline int cli_ct_differ(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint32_t acc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		acc |= (uint32_t)(a[i] ^ b[i]);
	return acc != 0;
}

/* ------------------------------------------------------------------ */
/* Decoding */

/* Flags of a decode. */
#define CLI_HEX_SKIP_SPACE 1u  /* whitespace (CLI_HEX_SPACE) is ignored */
#define CLI_HEX_COUNT      2u  /* bytes past the output's room are counted
                                  in digits, not stored, and do not stop
                                  the decode */

/* Why a decode stopped (cli_hex_feed, cli_hex_end, cli_hex_decode): 0 or
 * negative. */
#define CLI_HEX_OK   0     /* all text consumed */
#define CLI_HEX_BAD  (-1)  /* at a character that is neither a digit nor
                              ignored: it is at chars, line, col */
#define CLI_HEX_FULL (-2)  /* the output is full and another byte came
                              (only without CLI_HEX_COUNT) */
#define CLI_HEX_ODD  (-3)  /* the text ended in the middle of a byte */

/*
 * Decoder state, for text that arrives in pieces (a stream, a file read
 * in blocks).  The pending nibble is key or data: wipe the state when done
 * (cli_hex_end does).
 */
struct cli_hex {
	unsigned flags;
	uint32_t hi;                /* pending high nibble (digits odd) */
	unsigned long long digits;  /* hex digits seen */
	unsigned long long chars;   /* characters consumed */
	unsigned long line, col;    /* 1-based place of the next character */
	size_t nout;                /* bytes stored in the caller's buffer;
	                               the caller may reset it */
};

/* Start a decode with CLI_HEX_* flags. */
void cli_hex_init(struct cli_hex *h, unsigned flags);

/*
 * Decode text[0..len) on from h, storing bytes at out[h->nout] onwards,
 * room bytes in all (out may be NULL with CLI_HEX_COUNT: count only).
 * Returns CLI_HEX_OK, CLI_HEX_BAD or CLI_HEX_FULL; h tells how far it got.
 */
int cli_hex_feed(struct cli_hex *h, uint8_t *out, size_t room,
                 const char *text, size_t len);

/* End of the text: CLI_HEX_ODD if a digit is left over, else CLI_HEX_OK.
 * Clears the pending nibble. */
int cli_hex_end(struct cli_hex *h);

/*
 * A whole text in one call: cli_hex_init, cli_hex_feed, cli_hex_end.  The
 * bytes stored are h->nout; the digits seen h->digits.  h is wiped of its
 * pending nibble before return.
 */
int cli_hex_decode(struct cli_hex *h, unsigned flags, uint8_t *out,
                   size_t room, const char *text, size_t len);

/* ------------------------------------------------------------------ */
/* Encoding */

#define CLI_HEX_LOWER 0
#define CLI_HEX_UPPER 1

/* Writes 2n hex digits of src at dst (no terminator); returns the end.
 * No branch and no table index on the bytes. */
char *cli_hex_encode(char *dst, const uint8_t *src, size_t n, int upper);

#endif
