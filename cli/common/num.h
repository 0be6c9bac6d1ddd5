/* SPDX-License-Identifier: MIT */
/*
 * num.h - the one parser of unsigned decimal numbers in the tool: option
 * values (--pn-offset, --dcid-len, --random, --seed), COUNT in vector
 * files, and the numbers in descriptor names (/dev/fd/N, /proc/PID/fd/N).
 */
#ifndef AESECB_CLI_NUM_H
#define AESECB_CLI_NUM_H

#include <stddef.h>
#include <stdint.h>

#define CLI_NUM_OK      0
#define CLI_NUM_ESYNTAX (-1)  /* empty, or a character that is not 0-9 */
#define CLI_NUM_ERANGE  (-2)  /* digits only, but a number above max */

/*
 * The len bytes at s as a decimal number of at most max: decimal digits
 * and nothing else (no sign, no blank, no prefix; leading zeros are
 * fine).  Returns CLI_NUM_OK with the number in *out, else an error above
 * (*out unchanged).
 */
int cli_num_parse(const char *s, size_t len, uint64_t max, uint64_t *out);

#endif
