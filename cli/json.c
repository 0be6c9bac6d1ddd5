/* SPDX-License-Identifier: MIT */
/*
 * json.c - JSON output (see json.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>

#include "json.h"

void cli_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (s == NULL) {
		fputs("null", f);
		return;
	}
	putc('"', f);
	while (*p != '\0') {
		unsigned c = *p;
		size_t len = 0, i;

		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
			p++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			p++;
			continue;
		}
		if (c < 0x80) {
			putc((int)c, f);
			p++;
			continue;
		}
		/* UTF-8: copy a well-formed sequence, else U+FFFD */
		if (c >= 0xc2 && c <= 0xdf)
			len = 2;
		else if (c >= 0xe0 && c <= 0xef)
			len = 3;
		else if (c >= 0xf0 && c <= 0xf4)
			len = 4;
		for (i = 1; i < len; i++) {
			unsigned lo = 0x80, hi = 0xbf;

			/* no overlong forms, surrogates or code points
			 * past U+10FFFF */
			if (i == 1) {
				if (c == 0xe0)
					lo = 0xa0;
				else if (c == 0xed)
					hi = 0x9f;
				else if (c == 0xf0)
					lo = 0x90;
				else if (c == 0xf4)
					hi = 0x8f;
			}
			if (p[i] < lo || p[i] > hi)
				break;
		}
		if (len == 0 || i < len) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		fwrite(p, 1, len, f);
		p += len;
	}
	putc('"', f);
}
