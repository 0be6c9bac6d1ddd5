/* SPDX-License-Identifier: MIT */
/*
 * check_keylog.c - unit tests for the TLS key log reader (cli/quic/keylog.c):
 * the five QUIC labels, any number of connections in any order, comments,
 * blank lines, CRLF, other labels ignored (a prefix of a known label
 * too), several files, every malformed line with its line number and a
 * message that never holds the secret, an over-long line ended at its
 * 1,025th character (a file with no newline at all), the limit of
 * connections, and the index's cost on client randoms that share their
 * first bytes (with SipHash-2-4's test vector).
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
#include "quic/keylog.h"
#include "common/siphash.h"

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


/* A label that is only a prefix of a known one, or longer than one, is
 * another label: ignored, not taken for the known one. */
START_TEST(test_label_prefix)
{
	static const char *const labels[] = {
		"CLIENT_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_",
		"CLIENT_TRAFFIC_SECRET_00", "SERVER_HANDSHAKE_TRAFFIC",
		"CLIENT_EARLY", "C", "CLIENT_TRAFFIC_SECRET_1",
	};
	struct keylog kl;
	struct keylog_error err;
	char line[300];
	size_t i;

	keylog_init(&kl);
	for (i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		snprintf(line, sizeof line, "%s %s %s", labels[i], R1, S32);
		ck_assert_int_eq(keylog_add_line(&kl, line, strlen(line), i + 1,
		                                 &err), KEYLOG_OK);
	}
	ck_assert_uint_eq(kl.n, 0);
	ck_assert_uint_eq(kl.secrets, 0);
	ck_assert_uint_eq(kl.ignored, i);
	keylog_free(&kl);
}
END_TEST

/* SipHash-2-4's vector (the paper's appendix A): key 00..0f, the 15
 * bytes 00..0e. */
START_TEST(test_siphash)
{
	uint8_t key[16], m[64];
	size_t i;

	for (i = 0; i < sizeof key; i++)
		key[i] = (uint8_t)i;
	for (i = 0; i < sizeof m; i++)
		m[i] = (uint8_t)i;
	ck_assert_uint_eq(cli_siphash24(key, m, 15),
	                  UINT64_C(0xa129ca6149be45e5));
	/* the first and last of the reference implementation's vectors */
	ck_assert_uint_eq(cli_siphash24(key, m, 0),
	                  UINT64_C(0x726fdb47dd0e0e31));
	ck_assert_uint_eq(cli_siphash24(key, m, 63),
	                  UINT64_C(0x958a324ceb064572));
	ck_assert_ptr_eq(cli_hash_key(), cli_hash_key());
}
END_TEST

/* 65,536 client randoms that share their first 24 bytes: the index still
 * finds each in about one look (its cost was quadratic when it hashed the
 * first bytes only), and each is found again. */
START_TEST(test_shared_prefix)
{
	struct keylog kl;
	struct keylog_error err;
	uint8_t r[KEYLOG_RANDOM_LEN];
	char line[300];
	unsigned long i;

	keylog_init(&kl);
	for (i = 0; i < KEYLOG_MAX_CONNS; i++) {
		snprintf(line, sizeof line, "CLIENT_TRAFFIC_SECRET_0 "
		         "7c5e1f9a3b2d4e6f8091a2b3c4d5e6f78091a2b3c4d5e6f7%016lx %s",
		         i, S32);
		ck_assert_int_eq(keylog_add_line(&kl, line, strlen(line), i + 1,
		                                 &err), KEYLOG_OK);
	}
	ck_assert_uint_eq(kl.n, KEYLOG_MAX_CONNS);
	/* each line: one lookup and one insertion */
	ck_assert_msg(kl.probes < 4ul * KEYLOG_MAX_CONNS,
	              "%lu probes for %d connections", kl.probes,
	              KEYLOG_MAX_CONNS);
	for (i = 0; i < KEYLOG_MAX_CONNS; i += 4099) {
		ck_assert_uint_eq(keylog_find(&kl, kl.conns[i].client_random), i);
	}
	memset(r, 0, sizeof r);
	ck_assert_uint_eq(keylog_find(&kl, r), KEYLOG_NONE);
	keylog_free(&kl);
}
END_TEST

/* At most KEYLOG_MAX_CONNS connections: the next one is an error naming
 * its line; lines of connections already there still count. */
START_TEST(test_limit)
{
	struct keylog kl;
	struct keylog_error err;
	char line[300];
	unsigned long i;

	keylog_init(&kl);
	for (i = 0; i < KEYLOG_MAX_CONNS; i++) {
		snprintf(line, sizeof line, "CLIENT_TRAFFIC_SECRET_0 %064lx %s",
		         i + 1, S32);
		ck_assert_int_eq(keylog_add_line(&kl, line, strlen(line), i + 1,
		                                 &err), KEYLOG_OK);
	}
	snprintf(line, sizeof line, "SERVER_TRAFFIC_SECRET_0 %064lx %s", 7ul,
	         S32B);
	ck_assert_int_eq(keylog_add_line(&kl, line, strlen(line), i + 1, &err),
	                 KEYLOG_OK);
	snprintf(line, sizeof line, "CLIENT_TRAFFIC_SECRET_0 %064lx %s",
	         KEYLOG_MAX_CONNS + 1ul, S32);
	ck_assert_int_eq(keylog_add_line(&kl, line, strlen(line), i + 2, &err),
	                 KEYLOG_ELIMIT);
	ck_assert_uint_eq(err.line, KEYLOG_MAX_CONNS + 2ul);
	ck_assert_str_eq(err.msg, "more than 65536 connections");
	ck_assert_uint_eq(kl.n, KEYLOG_MAX_CONNS);
	keylog_free(&kl);
}
END_TEST

/* Several files: their secrets together, each line's file known, and a
 * contradiction named with the --keylog of the other line. */
START_TEST(test_files)
{
	struct keylog kl;
	struct keylog_error err;
	char first[64];
	size_t c;

	keylog_init(&kl);
	ck_assert_int_eq(read_text(&kl, "CLIENT_TRAFFIC_SECRET_0 " R1 " " S32
	                           "\n", &err), KEYLOG_OK);
	strcpy(first, path);
	ck_assert_int_eq(read_text(&kl, "\nSERVER_TRAFFIC_SECRET_0 " R1 " "
	                           S32B "\nCLIENT_TRAFFIC_SECRET_0 " R1 " " S32
	                           "\n", &err), KEYLOG_OK);
	ck_assert_uint_eq(kl.nfiles, 2);
	ck_assert_uint_eq(kl.n, 1);
	ck_assert_uint_eq(kl.secrets, 2);
	c = keylog_find(&kl, kl.conns[0].client_random);
	ck_assert_uint_eq(c, 0);
	ck_assert_str_eq(keylog_file_of(&kl, c, KEYLOG_CLIENT_TRAFFIC), first);
	ck_assert_str_eq(keylog_file_of(&kl, c, KEYLOG_SERVER_TRAFFIC), path);
	ck_assert_uint_eq(kl.conns[0].line[KEYLOG_SERVER_TRAFFIC], 2);
	ck_assert_ptr_null(keylog_file_of(&kl, 1, KEYLOG_SERVER_TRAFFIC));
	ck_assert_int_eq(read_text(&kl, "CLIENT_TRAFFIC_SECRET_0 " R1 " " S32B
	                           "\n", &err), KEYLOG_EFORMAT);
	ck_assert_str_eq(err.msg, "a second CLIENT_TRAFFIC_SECRET_0 for this "
	                 "client random, not the one of line 1 of --keylog 1");
	ck_assert_int_eq(read_text(&kl, "CLIENT_EARLY_TRAFFIC_SECRET " R1 " "
	                           S48 "\n", &err), KEYLOG_EFORMAT);
	ck_assert_str_eq(err.msg, "the secret is 48 bytes, but line 1 of "
	                 "--keylog 1 gave a 32-byte secret for the same client "
	                 "random");
	keylog_free(&kl);
	ck_assert_uint_eq(kl.nfiles, 0);
}
END_TEST

/* A file with no newline at all ends at its 1,025th character, not at a
 * newline that never comes. */
START_TEST(test_no_newline)
{
	struct keylog kl;
	struct keylog_error err;

	keylog_init(&kl);
	ck_assert_int_eq(keylog_read(&kl, "/dev/zero", &err), KEYLOG_EFORMAT);
	ck_assert_uint_eq(err.line, 1);
	ck_assert_str_eq(err.msg, "the line is longer than 1024 characters");
	keylog_free(&kl);
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
	tcase_add_test(tc, test_label_prefix);
	tcase_add_test(tc, test_siphash);
	tcase_add_test(tc, test_files);
	tcase_add_test(tc, test_no_newline);
	suite_add_tcase(s, tc);
	/* (no time limit of their own: a quadratic index or a reader that
	 * waits for a newline is caught by the case's limit) */
	tc = tcase_create("size");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_shared_prefix);
	tcase_add_test(tc, test_limit);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)
