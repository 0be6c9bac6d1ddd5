/* SPDX-License-Identifier: MIT */
/*
 * checkutil.h - what the Check unit tests share: hex test data in and
 * out, and the main() that runs a suite.
 *
 *     unhex(hex, out, max)   bytes of a hex constant (spaces and newlines
 *                            ignored; anything else that is not a
 *                            lowercase hex digit aborts the test)
 *     tohex(b, n, out)       n bytes as lowercase hex, terminated
 *     ck_assert_hex(b, n, s) bytes b[0..n) (n <= 64) spell the hex s
 *     CHECK_MAIN(suite)      int main(void) running suite(): exit 0 when
 *                            no test failed
 */
#ifndef AESECB_CHECKUTIL_H
#define AESECB_CHECKUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline size_t unhex(const char *hex, uint8_t *out, size_t max)
{
	size_t n = 0;
	int hi = -1;

	for (; *hex != '\0'; hex++) {
		int c = (unsigned char)*hex, v;

		if (c == ' ' || c == '\n')
			continue;
		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else
			ck_abort_msg("bad hex in test data: %c", c);
		if (hi < 0) {
			hi = v;
		} else {
			ck_assert_uint_lt(n, max);
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	ck_assert_int_lt(hi, 0);
	return n;
}

static inline void tohex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

#define ck_assert_hex(b, n, want) do {                                  \
		char hex_[2 * 64 + 1];                                  \
		ck_assert_uint_le((n), 64);                             \
		tohex((b), (n), hex_);                                  \
		ck_assert_str_eq(hex_, (want));                         \
	} while (0)

#define CHECK_MAIN(suite_fn)                                            \
	int main(void)                                                  \
	{                                                               \
		SRunner *sr = srunner_create(suite_fn());               \
		int failed;                                             \
                                                                        \
		srunner_run_all(sr, CK_NORMAL);                         \
		failed = srunner_ntests_failed(sr);                     \
		srunner_free(sr);                                       \
		return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;       \
	}

#endif
