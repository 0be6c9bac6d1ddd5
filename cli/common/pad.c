/* SPDX-License-Identifier: MIT */
/*
 * pad.c - PKCS#7 padding of the aesecb tool (see pad.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "aesecb.h"
#include "common/pad.h"

/* All ones if a < b, else 0 (a, b < 2^31). */
static uint32_t ct_lt(uint32_t a, uint32_t b)
{
	return 0u - ((a - b) >> 31);
}

/*
 * The padding of the final block, without an early exit or a branch on its
 * bytes: the number of data bytes before the padding (0..15), or -1.
 */
static int pkcs7_check(const uint8_t block[AESECB_BLOCK_SIZE])
{
	uint32_t p = block[AESECB_BLOCK_SIZE - 1];
	uint32_t bad, i;

	/* p must be 1..16 */
	bad = ct_lt(p, 1) | ct_lt(AESECB_BLOCK_SIZE, p);
	/* the last p bytes must all equal p */
	for (i = 0; i < AESECB_BLOCK_SIZE; i++) {
		uint32_t covered = ct_lt(i, p);

		bad |= covered & (block[AESECB_BLOCK_SIZE - 1 - i] ^ p);
	}
	/* fold to all ones / all zero, then select without branching */
	bad = 0u - ((bad | (0u - bad)) >> 31);
	return (int)(int32_t)((bad & 0xffffffffu) |
	                      (~bad & (AESECB_BLOCK_SIZE - p)));
}

long cli_pkcs7_unpad(const uint8_t *data, size_t len)
{
	int keep;

	/* the length is no secret */
	if (data == NULL || len == 0 || len % AESECB_BLOCK_SIZE != 0 ||
	    len > (size_t)0x7fffffff)
		return -1;
	keep = pkcs7_check(data + len - AESECB_BLOCK_SIZE);
	if (keep < 0)
		return -1;
	return (long)(len - AESECB_BLOCK_SIZE) + keep;
}
