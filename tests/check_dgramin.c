/* SPDX-License-Identifier: MIT */
/*
 * check_dgramin.c - unit tests for reading hex datagrams one per line
 * (cli/quic/dgramin.c): comments, blank lines, CRLF, a last line without a
 * newline, lines longer than a read, the size limit, and the errors with
 * their line and column; and the hex code under them (cli/common/hex.c): the
 * encoder the reports print with, for every byte value, length, alignment
 * and case, and the decoder, which takes eight digits at a time, against
 * a digit at a time on random text fed in random pieces.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkutil.h"
#include "quic/dgramin.h"
#include "common/hex.h"

static char path[64];
static struct dgramin rd;
static char why[200];

/* A reader on a temporary file holding text[0..n). */
static void open_text(const char *text, size_t n)
{
	int fd;

	strcpy(path, "/tmp/check_dgramin.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	unlink(path);
	dgramin_init(&rd, fd);
}

static void close_text(void)
{
	close(rd.fd);
	dgramin_free(&rd);
}

START_TEST(test_lines)
{
	static const char text[] =
		"# datagrams\n"
		"\n"
		"c0ff 0102\r\n"
		"   # nothing but a comment\n"
		"AbCd # a comment after\n"
		"\t\n"
		"00";
	uint8_t *d;
	size_t len;

	open_text(text, sizeof text - 1);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_uint_eq(rd.dline, 3);
	ck_assert_uint_eq(len, 4);
	ck_assert_int_eq(d[0], 0xc0);
	ck_assert_int_eq(d[3], 0x02);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_uint_eq(rd.dline, 5);
	ck_assert_uint_eq(len, 2);
	ck_assert_int_eq(d[0], 0xab);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_uint_eq(rd.dline, 7);
	ck_assert_uint_eq(len, 1);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_ptr_null(d);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_ptr_null(d);
	close_text();

	open_text("", 0);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_ptr_null(d);
	close_text();
}
END_TEST

/* Long lines: many reads each, and a buffer that grows. */
START_TEST(test_long)
{
	size_t n = 100000, i, len;
	char *text = malloc(2 * n + 2 + 10);
	uint8_t *d;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < n; i++)
		sprintf(text + 2 * i, "%02x", (unsigned)(i * 7) & 0xffu);
	strcpy(text + 2 * n, "\n0102\n");
	open_text(text, strlen(text));
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_uint_eq(len, n);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(d[i], (int)((i * 7) & 0xffu));
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_uint_eq(len, 2);
	ck_assert_uint_eq(rd.dline, 2);
	close_text();
	free(text);
}
END_TEST

START_TEST(test_too_long)
{
	size_t n = DGRAMIN_MAX + 1, i, len;
	char *text = malloc(2 * n + 2);
	uint8_t *d;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < 2 * n; i++)
		text[i] = 'a';
	text[2 * n] = '\n';
	open_text(text, 2 * n + 1);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_EBAD);
	ck_assert_str_eq(why, "the datagram is longer than 1048576 bytes");
	ck_assert_uint_eq(rd.dline, 1);
	close_text();
	/* exactly the limit is fine */
	open_text(text, 2 * n - 2);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_uint_eq(len, DGRAMIN_MAX);
	close_text();
	free(text);
}
END_TEST

START_TEST(test_errors)
{
	uint8_t *d;
	size_t len;

	open_text("0102\n\n01 02 0\n", 14);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_EBAD);
	ck_assert_uint_eq(rd.dline, 3);
	ck_assert_str_eq(why, "odd number of hex digits (5)");
	close_text();

	open_text("01\n0102 zz\n", 11);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_OK);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_EBAD);
	ck_assert_uint_eq(rd.dline, 2);
	ck_assert_str_eq(why, "bad hex digit 'z' at column 6");
	close_text();

	open_text("01:02\n", 6);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_EBAD);
	ck_assert_str_eq(why, "bad hex digit ':' at column 3");
	close_text();

	open_text("01\x01\n", 4);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_EBAD);
	ck_assert_str_eq(why, "bad hex digit '\\x01' at column 3");
	close_text();

	dgramin_init(&rd, -1);
	ck_assert_int_eq(dgramin_next(&rd, &d, &len, why, sizeof why),
	                 DGRAMIN_EIO);
	ck_assert_ptr_nonnull(strstr(why, "read error"));
	dgramin_free(&rd);
}
END_TEST

/* The encoder against a digit at a time, for every byte value at every
 * position of runs of every length from every alignment (the encoder
 * takes four bytes at a time, then the rest one by one). */
START_TEST(test_encode)
{
	static const char lower[] = "0123456789abcdef";
	static const char upper[] = "0123456789ABCDEF";
	uint8_t src[300];
	char out[2 * sizeof src + 8], want[2 * sizeof src];
	size_t i, n, off, k;
	int up;

	for (i = 0; i < sizeof src; i++)
		src[i] = (uint8_t)(i * 167 + 13);     /* every value, shuffled */
	for (up = 0; up < 2; up++)
		for (off = 0; off < 8; off++)
			for (n = 0; off + n <= sizeof src; n++) {
				const char *d = up ? upper : lower;
				char *end;

				for (k = 0; k < n; k++) {
					want[2 * k] = d[src[off + k] >> 4];
					want[2 * k + 1] = d[src[off + k] & 15];
				}
				memset(out, '#', sizeof out);
				end = cli_hex_encode(out + (off & 3), src + off, n,
				                     up ? CLI_HEX_UPPER : CLI_HEX_LOWER);
				ck_assert_ptr_eq(end, out + (off & 3) + 2 * n);
				ck_assert(memcmp(out + (off & 3), want, 2 * n) == 0);
				ck_assert_int_eq(end[0], '#');   /* nothing past */
			}
}
END_TEST

/* The decoder as it reads, a character at a time (the reference). */
static int ref_feed(struct cli_hex *h, uint8_t *out, size_t room,
                    const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		int c = (unsigned char)text[i];
		int v = cli_hexnibble(c);

		if (v >= 0) {
			if (h->digits % 2 == 0)
				h->hi = (uint32_t)v;
			else if (out != NULL && h->nout < room)
				out[h->nout++] = (uint8_t)((h->hi << 4) | (uint32_t)v);
			else if (!(h->flags & CLI_HEX_COUNT))
				return CLI_HEX_FULL;
			h->digits++;
		} else if (!(strchr(" \t\n\v\f\r", c) != NULL && c != 0 &&
		             (h->flags & CLI_HEX_SKIP_SPACE))) {
			return CLI_HEX_BAD;
		}
		h->chars++;
		if (c == '\n') {
			h->line++;
			h->col = 1;
		} else {
			h->col++;
		}
	}
	return CLI_HEX_OK;
}

START_TEST(test_decode)
{
	static const char alphabet[] = "0123456789abcdefABCDEF0123456789"
	                               "abcdef \n\tg\x80\xff";
	uint64_t x = 0x9e3779b97f4a7c15u;
	char text[200];
	uint8_t got[64], want[64];
	int round;

	for (round = 0; round < 20000; round++) {
		struct cli_hex a, b;
		size_t len, room, i, at;
		unsigned flags;
		int ra = CLI_HEX_OK, rb = CLI_HEX_OK, mostly;

		x = x * 6364136223846793005u + 1442695040888963407u;
		len = (size_t)(x >> 33) % sizeof text;
		room = (size_t)(x >> 45) % (sizeof got + 1);
		flags = (unsigned)(x >> 60) & 3u;
		mostly = (x >> 62) & 1;   /* long runs of digits */
		for (i = 0; i < len; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			text[i] = alphabet[(x >> 40) %
			                   (mostly && (x >> 20) % 50 != 0 ? 22
			                    : sizeof alphabet - 1)];
		}
		cli_hex_init(&a, flags);
		cli_hex_init(&b, flags);
		memset(got, 0, sizeof got);
		memset(want, 0, sizeof want);
		/* in pieces: the same cut for both */
		for (at = 0; at < len && ra == CLI_HEX_OK;) {
			size_t n;

			x = x * 6364136223846793005u + 1442695040888963407u;
			n = 1 + (size_t)(x >> 50) % 40;
			n = n < len - at ? n : len - at;
			ra = cli_hex_feed(&a, (x >> 49) & 1 && (flags & CLI_HEX_COUNT)
			                  && room == 0 ? NULL : got, room,
			                  text + at, n);
			rb = ref_feed(&b, (x >> 49) & 1 && (flags & CLI_HEX_COUNT)
			              && room == 0 ? NULL : want, room, text + at, n);
			ck_assert_int_eq(ra, rb);
			at += n;
		}
		ck_assert_uint_eq(a.digits, b.digits);
		ck_assert_uint_eq(a.chars, b.chars);
		ck_assert_uint_eq(a.line, b.line);
		ck_assert_uint_eq(a.col, b.col);
		ck_assert_uint_eq(a.nout, b.nout);
		if (a.digits % 2 != 0)      /* (pending only then) */
			ck_assert_uint_eq(a.hi, b.hi);
		ck_assert(memcmp(got, want, sizeof got) == 0);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dgramin");
	TCase *tc = tcase_create("dgramin");

	tcase_set_timeout(tc, 120);   /* slow under an emulator */

	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_long);
	tcase_add_test(tc, test_too_long);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_encode);
	tcase_add_test(tc, test_decode);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)
