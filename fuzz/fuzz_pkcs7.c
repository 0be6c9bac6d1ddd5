/* SPDX-License-Identifier: MIT */
/*
 * fuzz_pkcs7.c - libFuzzer harness: cli_pkcs7_unpad (decrypt -p pkcs7)
 * against a straightforward reference.
 *
 * The input is the decrypted text.  Every length from 0 to the input's
 * size is tried (block-aligned or not), and the whole input once more with
 * its tail rewritten as valid padding of length 1 + byte 0 % 16: a valid
 * padding must give the same data length as the reference, anything else
 * must be rejected.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"
#include "common/pad.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BS AESECB_BLOCK_SIZE
#define MAXLEN 4096

/* The obvious way: -1, or the length without the padding. */
static long reference(const uint8_t *d, size_t len)
{
	size_t p, i;

	if (len == 0 || len % BS != 0)
		return -1;
	p = d[len - 1];
	if (p < 1 || p > BS)
		return -1;
	for (i = len - p; i < len; i++)
		if (d[i] != p)
			return -1;
	return (long)(len - p);
}

static void check(const uint8_t *d, size_t len)
{
	uint8_t *copy;
	long want, got;

	/* a copy of exactly len bytes: ASan catches a read past the end */
	copy = malloc(len ? len : 1);
	if (copy == NULL)
		abort();
	if (len)
		memcpy(copy, d, len);
	want = reference(copy, len);
	got = cli_pkcs7_unpad(copy, len);
	if (got != want || (len && memcmp(copy, d, len) != 0))
		abort();
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[MAXLEN];
	size_t len, p;

	if (size > MAXLEN)
		size = MAXLEN;
	for (len = 0; len <= size; len++)
		check(data, len);
	/* the same bytes made valid: whole blocks, correct padding */
	len = size / BS * BS;
	if (len == 0)
		return 0;
	memcpy(buf, data, len);
	p = 1 + data[0] % BS;
	memset(buf + len - p, (int)p, p);
	if (cli_pkcs7_unpad(buf, len) != (long)(len - p))
		abort();
	check(buf, len);
	/* one wrong byte inside the padding makes it invalid */
	if (p > 1) {
		buf[len - 1 - data[size - 1] % (p - 1) - 1] ^= (uint8_t)(1 + data[0] / BS);
		if (cli_pkcs7_unpad(buf, len) != -1)
			abort();
	}
	return 0;
}
