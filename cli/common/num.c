/* SPDX-License-Identifier: MIT */
/*
 * num.c - unsigned decimal numbers (see num.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "common/num.h"

int cli_num_parse(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t n = 0;
	size_t i;
	int over = 0;

	if (len == 0)
		return CLI_NUM_ESYNTAX;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned)((unsigned char)s[i] - '0');

		if (d > 9)
			return CLI_NUM_ESYNTAX;
		/* keep reading past the limit: a bad character after it is
		 * still a syntax error */
		if (over || d > max || n > (max - d) / 10)
			over = 1;
		else
			n = 10 * n + d;
	}
	if (over)
		return CLI_NUM_ERANGE;
	*out = n;
	return CLI_NUM_OK;
}
