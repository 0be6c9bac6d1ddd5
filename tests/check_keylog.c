/* SPDX-License-Identifier: MIT */
/*
 * check_keylog.c - unit tests for the TLS key log reader (cli/keylog.c):
 * the five QUIC labels, any number of connections in any order, comments,
 * blank lines, CRLF, other labels ignored, and every malformed line with
 * its line number and a message that never holds the secret.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkutil.h"
#include "keylog.h"

#define R1 "46b15ad78d191fa16f7793d6092584a657dd8f515bbd0123456789abcdef0011"
#define R2 "5739dd84a33219aa0123456789abcdef0123456789abcdef0123456789abcdef"
#define S32 "a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0"
#define S32B "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20"
#define S48 "f1f2f3f4f5f6f7f8f9fafbfcfdfeff00010203040506070809" \
            "0a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20"

static char path[64];

/* Write text to a new temporary file; its name in path. */
static void file_with(const char *text)
{
	FILE *f;
	int fd;

	strcpy(path, "/tmp/check_keylog.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static int read_text(struct keylog *kl, const char *text,
                     struct keylog_error *err)
{
	int rc;

	file_with(text);
	rc = keylog_read(kl, path, err);
	unlink(path);
	return rc;
}

static int hexval(const char *s, size_t i)
{
	unsigned v;

	sscanf(s + 2 * i, "%2x", &v);
	return (int)v;
}

START_TEST(test_connections)
{
	struct keylog kl;
	struct keylog_error err;
	const struct keylog_conn *c;

	keylog_init(&kl);
	ck_assert_int_eq(read_text(&kl,
		"# a key log\n"
		"\n"
		"CLIENT_HANDSHAKE_TRAFFIC_SECRET " R1 " " S32 "\n"
		"SERVER_HANDSHAKE_TRAFFIC_SECRET\t" R1 "  " S32B "\r\n"
		"EXPORTER_SECRET " R1 " " S32 "\n"
		"CLIENT_RANDOM " R1 " 00\n"
		"CLIENT_EARLY_TRAFFIC_SECRET " R2 " " S48 "\n"
		"   \t \n"
		"CLIENT_TRAFFIC_SECRET_0 " R1 " " S32 "\n"
		"SERVER_TRAFFIC_SECRET_0 " R2 " " S48 "\n"
		"SERVER_TRAFFIC_SECRET_0 " R1 " " S32B, &err), KEYLOG_OK);
	ck_assert_uint_eq(kl.n, 2);
	ck_assert_uint_eq(kl.lines, 11);
	ck_assert_uint_eq(kl.secrets, 6);
	ck_assert_uint_eq(kl.ignored, 2);
	c = &kl.conns[0];
	ck_assert_int_eq(c->client_random[0], hexval(R1, 0));
	ck_assert_int_eq(c->client_random[31], hexval(R1, 31));
	ck_assert_uint_eq(c->secret_len, 32);
	ck_assert_uint_eq(c->have, (1u << KEYLOG_CLIENT_HANDSHAKE) |
	                  (1u << KEYLOG_SERVER_HANDSHAKE) |
	                  (1u << KEYLOG_CLIENT_TRAFFIC) |
	                  (1u << KEYLOG_SERVER_TRAFFIC));
	ck_assert_int_eq(c->secret[KEYLOG_CLIENT_HANDSHAKE][0], 0xa1);
	ck_assert_int_eq(c->secret[KEYLOG_SERVER_HANDSHAKE][31], 0x20);
	ck_assert_int_eq(c->secret[KEYLOG_SERVER_TRAFFIC][0], 0x01);
	ck_assert_uint_eq(c->line[KEYLOG_SERVER_TRAFFIC], 11);
	c = &kl.conns[1];
	ck_assert_uint_eq(c->secret_len, 48);
	ck_assert_uint_eq(c->have, (1u << KEYLOG_CLIENT_EARLY) |
	                  (1u << KEYLOG_SERVER_TRAFFIC));
	ck_assert_int_eq(c->secret[KEYLOG_CLIENT_EARLY][47], 0x20);
	keylog_free(&kl);
	ck_assert_uint_eq(kl.n, 0);
	ck_assert_ptr_null(kl.conns);
}
END_TEST

/* Many connections: the index finds each again. */
START_TEST(test_many)
{
	struct keylog kl;
	struct keylog_error err;
	char line[300];
	unsigned long i;

	keylog_init(&kl);
	for (i = 0; i < 3000; i++) {
		snprintf(line, sizeof line, "CLIENT_TRAFFIC_SECRET_0 %064lx %s",
		         i * 2654435761ul, S32);
		ck_assert_int_eq(keylog_add_line(&kl, line, strlen(line), i + 1,
		                                 &err), KEYLOG_OK);
	}
	for (i = 0; i < 3000; i++) {
		snprintf(line, sizeof line, "SERVER_TRAFFIC_SECRET_0 %064lx %s",
		         i * 2654435761ul, S32B);
		ck_assert_int_eq(keylog_add_line(&kl, line, strlen(line),
		                                 3001 + i, &err), KEYLOG_OK);
	}
	ck_assert_uint_eq(kl.n, 3000);
	ck_assert_uint_eq(kl.secrets, 6000);
	for (i = 0; i < 3000; i++)
		ck_assert_uint_eq(kl.conns[i].have,
		                  (1u << KEYLOG_CLIENT_TRAFFIC) |
		                  (1u << KEYLOG_SERVER_TRAFFIC));
	keylog_free(&kl);
}
END_TEST

static const struct {
	const char *text;
	unsigned long line;
	const char *msg;
} bad[] = {
	{ "CLIENT_TRAFFIC_SECRET_0\n", 1,
	  "CLIENT_TRAFFIC_SECRET_0: the client random and the secret are "
	  "missing" },
	{ "# c\nCLIENT_TRAFFIC_SECRET_0 " R1 "\n", 2,
	  "CLIENT_TRAFFIC_SECRET_0: the secret is missing" },
	{ "CLIENT_TRAFFIC_SECRET_0 " R1 "00 " S32 "\n", 1,
	  "the client random is 66 hex digits; it is 64 (32 bytes)" },
	{ "CLIENT_TRAFFIC_SECRET_0 x" R1 " " S32 "\n", 1,
	  "the client random has a character that is not a hex digit "
	  "(column 25)" },
	{ "CLIENT_TRAFFIC_SECRET_0 " R1 " " S32 "0\n", 1,
	  "the secret is 65 hex digits; it is 64 (SHA-256 suites) or 96 "
	  "(SHA-384)" },
	{ "CLIENT_TRAFFIC_SECRET_0 " R1 " " S32 "00\n", 1,
	  "the secret is 66 hex digits; it is 64 (SHA-256 suites) or 96 "
	  "(SHA-384)" },
	{ "CLIENT_TRAFFIC_SECRET_0 " R1 " a1a2a3a4a5a6a7a8a9aaabacadaeafb0"
	  "b1b2b3b4b5b6b7b8b9babbbcbdbebfcg\n", 1,
	  "the secret has a character that is not a hex digit (column 153)" },
	{ "CLIENT_TRAFFIC_SECRET_0 " R1 " " S32 " extra\n", 1,
	  "text after the secret (column 155)" },
	{ "CLIENT_TRAFFIC_SECRET_0 " R1 " " S32 "\n"
	  "SERVER_TRAFFIC_SECRET_0 " R1 " " S48 "\n", 2,
	  "the secret is 48 bytes, but line 1 gave a 32-byte secret for the "
	  "same client random" },
	{ "CLIENT_TRAFFIC_SECRET_0 " R1 " " S32 "\n\n"
	  "CLIENT_TRAFFIC_SECRET_0 " R1 " " S32B "\n", 3,
	  "a second CLIENT_TRAFFIC_SECRET_0 for this client random, not the "
	  "one of line 1" },
};

START_TEST(test_bad_lines)
{
	struct keylog kl;
	struct keylog_error err;

	keylog_init(&kl);
	ck_assert_int_eq(read_text(&kl, bad[_i].text, &err), KEYLOG_EFORMAT);
	ck_assert_int_eq(err.code, KEYLOG_EFORMAT);
	ck_assert_uint_eq(err.line, bad[_i].line);
	ck_assert_str_eq(err.msg, bad[_i].msg);
	/* never a run of a secret's digits */
	ck_assert_ptr_null(strstr(err.msg, "a1a2a3"));
	ck_assert_ptr_null(strstr(err.msg, "f1f2f3"));
	ck_assert_ptr_null(strstr(err.msg, "010203"));
	keylog_free(&kl);
}
END_TEST

START_TEST(test_same_line_twice)
{
	struct keylog kl;
	struct keylog_error err;

	keylog_init(&kl);
	ck_assert_int_eq(read_text(&kl,
		"CLIENT_TRAFFIC_SECRET_0 " R1 " " S32 "\n"
		"CLIENT_TRAFFIC_SECRET_0 " R1 " " S32 "\n", &err), KEYLOG_OK);
	ck_assert_uint_eq(kl.n, 1);
	ck_assert_uint_eq(kl.secrets, 1);
	keylog_free(&kl);
}
END_TEST

START_TEST(test_long_line_and_io)
{
	struct keylog kl;
	struct keylog_error err;
	char *text = malloc(KEYLOG_LINE_MAX + 100);

	ck_assert_ptr_nonnull(text);
	memset(text, 'A', KEYLOG_LINE_MAX + 1);
	strcpy(text + KEYLOG_LINE_MAX + 1, "\n");
	keylog_init(&kl);
	ck_assert_int_eq(read_text(&kl, "# fine\n", &err), KEYLOG_OK);
	ck_assert_int_eq(read_text(&kl, text, &err), KEYLOG_EFORMAT);
	ck_assert_uint_eq(err.line, 1);
	ck_assert_str_eq(err.msg, "the line is longer than 1024 characters");
	/* the same without the newline */
	text[KEYLOG_LINE_MAX + 1] = '\0';
	ck_assert_int_eq(read_text(&kl, text, &err), KEYLOG_EFORMAT);
	/* exactly the limit is fine (an ignored label) */
	text[KEYLOG_LINE_MAX] = '\0';
	ck_assert_int_eq(read_text(&kl, text, &err), KEYLOG_OK);
	free(text);
	ck_assert_int_eq(keylog_read(&kl, "/nonexistent/keylog", &err),
	                 KEYLOG_EIO);
	ck_assert_uint_eq(err.line, 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
	ck_assert_int_eq(keylog_read(&kl, "/", &err), KEYLOG_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "read error"));
	keylog_free(&kl);
	ck_assert_str_eq(keylog_label_name(KEYLOG_CLIENT_EARLY),
	                 "CLIENT_EARLY_TRAFFIC_SECRET");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("keylog");
	TCase *tc = tcase_create("keylog");

	tcase_set_timeout(tc, 120);   /* slow under an emulator */

	tcase_add_test(tc, test_connections);
	tcase_add_test(tc, test_many);
	tcase_add_loop_test(tc, test_bad_lines, 0,
	                    (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, test_same_line_twice);
	tcase_add_test(tc, test_long_line_and_io);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)
