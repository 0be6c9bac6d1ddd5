/* SPDX-License-Identifier: MIT */
/*
 * check_json.c - unit tests for the JSON writer (cli/common/json.c) and
 * the quick test of the withholding rule it uses (cli_show_unchanged in
 * cli/common/printable.c): strings that need escapes and hex placed across
 * the edge of the writer's buffer at every offset, against a writer that
 * escapes one character at a time; the rule still applied to every string
 * value; cli_show_unchanged never saying "unchanged" of a string the rule
 * changes; numbers at their limits; both layouts to the deepest nesting;
 * the text given out at cli_json_flush; a write error reported; the
 * buffer wiped of hex.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkutil.h"
#include "common/hex.h"
#include "common/json.h"
#include "common/printable.h"

/* A document written to memory. */
struct doc {
	struct cli_json j;
	FILE *f;
	char *text;
	size_t len;
};

static void doc_start(struct doc *d, int layout)
{
	d->text = NULL;
	d->len = 0;
	d->f = open_memstream(&d->text, &d->len);
	ck_assert_ptr_nonnull(d->f);
	cli_json_start(&d->j, d->f, layout);
}

/* The document's text, which the caller frees. */
static char *doc_end(struct doc *d)
{
	ck_assert_int_eq(cli_json_finish(&d->j), 0);
	ck_assert_int_eq(fclose(d->f), 0);
	return d->text;
}

/* Growing expected text. */
struct text {
	char *p;
	size_t len, cap;
};

static void add(struct text *t, const void *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = 2 * (t->len + n + 1);
		t->p = realloc(t->p, t->cap);
		ck_assert_ptr_nonnull(t->p);
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
}

static void adds(struct text *t, const char *s)
{
	add(t, s, strlen(s));
}

/* s as a JSON string, one character at a time (the reference). */
static void add_escaped(struct text *t, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char e[8];
	uint32_t cp;
	size_t len;

	adds(t, "\"");
	for (; *p != '\0'; p += len) {
		len = 1;
		if (*p == '"' || *p == '\\') {
			snprintf(e, sizeof e, "\\%c", *p);
			adds(t, e);
		} else if (*p < 0x20 || *p == 0x7f) {
			snprintf(e, sizeof e, "\\u%04x", *p);
			adds(t, e);
		} else if (*p < 0x80) {
			add(t, p, 1);
		} else if ((len = cli_utf8_char(p, &cp)) > 0) {
			add(t, p, len);
		} else {
			adds(t, "\\ufffd");
			len = 1;
		}
	}
	adds(t, "\"");
}

static char *one_string(const char *s)
{
	struct doc d;

	doc_start(&d, CLI_JSON_LISTING);
	cli_json_string(&d.j, NULL, s);
	return doc_end(&d);
}

/* A string with every kind of escape, its odd characters (a control, a
 * byte that is not UTF-8, DEL) far enough apart that the rule shows it
 * as it is. */
static const char escapes[] =
	"\"\\\t\n\r\x1b" "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80/\x01"
	"kkkkkkkkkkkkkkkkkkkk\xff" "kkkkkkkkkkkkkkkkkkkk\x7f" "end\"";

START_TEST(test_escapes_across_buffer)
{
	char *shown = cli_show_alloc(escapes, CLI_SHOW_RAW);
	size_t shift;

	/* the rule keeps it whole, and the quick test leaves it to the rule */
	ck_assert_str_eq(shown, escapes);
	free(shown);
	ck_assert_int_eq(cli_show_unchanged(escapes), 0);
	/* the filler puts each byte of the escaped string, in turn, at the
	 * buffer's last place */
	for (shift = 0; shift < 80; shift++) {
		size_t fill = CLI_JSON_BUF - 4 - 64 + shift, i;
		char *filler = malloc(fill + 1), *got;
		struct text want = { NULL, 0, 0 };
		struct doc d;

		ck_assert_ptr_nonnull(filler);
		for (i = 0; i < fill; i++)
			filler[i] = "mnopqrstuvwxyz"[i % 14];
		filler[fill] = '\0';
		doc_start(&d, CLI_JSON_LISTING);
		cli_json_array(&d.j, NULL);
		cli_json_string(&d.j, NULL, filler);
		cli_json_string(&d.j, NULL, escapes);
		cli_json_string(&d.j, NULL, escapes);
		cli_json_end(&d.j);
		got = doc_end(&d);
		adds(&want, "[\n  ");
		add_escaped(&want, filler);
		adds(&want, ",\n  ");
		add_escaped(&want, escapes);
		adds(&want, ",\n  ");
		add_escaped(&want, escapes);
		adds(&want, "\n]\n");
		ck_assert_uint_eq(d.len, want.len);
		ck_assert_msg(memcmp(got, want.p, want.len) == 0,
		              "shift %zu: the text differs", shift);
		free(got);
		free(want.p);
		free(filler);
	}
}
END_TEST

/* Each character that needs an escape (and its neighbours that do not),
 * at every place of the eight-byte steps the writer scans in. */
START_TEST(test_escapes_each_place)
{
	static const char *const specials[] = {
		"\"", "\\", "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xff",
		"\xe2\x82\xac", " ", "~", "!", "#", "[", "]"
	};
	size_t i, k, after;

	for (k = 0; k < sizeof specials / sizeof specials[0]; k++)
		for (i = 0; i < 17; i++)
			for (after = 0; after < 10; after++) {
				char s[64], *got;
				struct text want = { NULL, 0, 0 };

				memset(s, 'a', i);
				snprintf(s + i, sizeof s - i, "%s", specials[k]);
				memset(s + strlen(s), 'b', after);
				s[i + strlen(specials[k]) + after] = '\0';
				got = one_string(s);
				add_escaped(&want, s);
				adds(&want, "\n");
				ck_assert_str_eq(got, want.p);
				free(got);
				free(want.p);
			}
}
END_TEST

/* Hex longer than the buffer, at every offset of its edge, either case. */
START_TEST(test_hex_across_buffer)
{
	size_t n = CLI_JSON_BUF + 37, shift, i;
	uint8_t *b = malloc(n);
	char *hex = malloc(2 * n + 1);

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(hex);
	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 7 + (i >> 8));
	for (shift = 0; shift < 20; shift++) {
		int upper = (int)(shift & 1);
		char filler[64], *got;
		struct text want = { NULL, 0, 0 };
		struct doc d;

		for (i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, upper ? "%02X" : "%02x", b[i]);
		memset(filler, 'w', shift);
		filler[shift] = '\0';
		doc_start(&d, CLI_JSON_LISTING);
		cli_json_object(&d.j, NULL);
		cli_json_string(&d.j, "f", filler);
		cli_json_hex(&d.j, "h", b, n, upper);
		cli_json_hex(&d.j, "e", b, 0, upper);
		cli_json_hex(&d.j, "t", b, 3, upper);
		cli_json_end(&d.j);
		got = doc_end(&d);
		adds(&want, "{\n  \"f\": ");
		add_escaped(&want, filler);
		adds(&want, ",\n  \"h\": \"");
		adds(&want, hex);
		adds(&want, "\",\n  \"e\": \"\",\n  \"t\": \"");
		add(&want, hex, 6);
		adds(&want, "\"\n}\n");
		ck_assert_str_eq(got, want.p);
		free(got);
		free(want.p);
	}
	free(hex);
	free(b);
}
END_TEST

/* What may be a key is withheld from a string value, whichever way the
 * writer takes. */
START_TEST(test_rule_applied)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "0123456789abcdef0123456789abcde",
		  "\"0123456789abcdef0123456789abcde\"\n" },
		{ "key 0123456789abcdef0123456789abcdef.",
		  "\"key " CLI_WITHHELD ".\"\n" },
		{ "00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff",
		  "\"" CLI_WITHHELD "\"\n" },
		{ "0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, "
		  "0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c",
		  "\"" CLI_WITHHELD "\"\n" },
		{ "a\\x01\\x02b", "\"" CLI_WITHHELD_RAW "\"\n" },
		{ "a\x01\x02" "b", "\"" CLI_WITHHELD_RAW "\"\n" },
		{ "plain \"words\"", "\"plain \\\"words\\\"\"\n" },
		{ "", "\"\"\n" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = one_string(cases[i].in);

		ck_assert_str_eq(got, cases[i].out);
		free(got);
	}
}
END_TEST

/* cli_show_unchanged() says "unchanged" only of strings the rule shows
 * unchanged in every way, and of the plain ones it says it. */
START_TEST(test_unchanged_is_safe)
{
	static const char alphabet[] = "0123456789abcdefABCDEFxXgz :-,\\\"'{}";
	static const char *const odd[] = { "\x01", "\x7f", "\xff", "\t", "\n",
	                                   "\xc3\xa9", "\xc2\x85", "\\x01" };
	uint32_t seed = 12345;
	char s[128];
	int n, i, hits = 0;

	ck_assert_int_eq(cli_show_unchanged(""), 1);
	ck_assert_int_eq(cli_show_unchanged("connection 12, frame 9"), 1);
	ck_assert_int_eq(cli_show_unchanged(
		"0123456789abcdef0123456789abcde"), 1);
	ck_assert_int_eq(cli_show_unchanged(
		"0123456789abcdef0123456789abcdef"), 0);
	ck_assert_int_eq(cli_show_unchanged("a\\b"), 0);
	ck_assert_int_eq(cli_show_unchanged("caf\xc3\xa9"), 0);
	ck_assert_int_eq(cli_show_unchanged("a\tb"), 0);
	/* every place in the eight-byte steps, and the classes' edges */
	for (i = 0; i < 20; i++) {
		static const char *const bad[] = { "\\", "\x80", "\x1f",
		                                   "\x7f", "\xc3\xa9" };
		static const char notdigit[] = "/:@G`g";
		static const char digit[] = "09AFaf";
		size_t k;

		memset(s, 'z', (size_t)i);
		s[i] = '\0';
		ck_assert_int_eq(cli_show_unchanged(s), 1);
		for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
			snprintf(s + i, sizeof s - (size_t)i, "%szzz", bad[k]);
			ck_assert_int_eq(cli_show_unchanged(s), 0);
		}
		/* 31 digits around place i, then one more character */
		for (k = 0; k < 6; k++) {
			char t[64];

			memset(t, 'z', sizeof t);
			memset(t, '5', 31);
			t[31 + (size_t)i % 9] = notdigit[k];
			t[40] = '\0';
			ck_assert_int_eq(cli_show_unchanged(t), 1);
			t[31 + (size_t)i % 9] = digit[k];
			ck_assert_int_eq(cli_show_unchanged(t), 0);
		}
	}
	for (n = 0; n < 20000; n++) {
		int len, how;

		seed = seed * 1103515245u + 12345u;
		len = (int)((seed >> 16) % 100);
		s[0] = '\0';
		for (i = 0; i < len; i++) {
			size_t k = strlen(s);

			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 40 == 0)
				snprintf(s + k, sizeof s - k, "%s",
				         odd[(seed >> 8) % 8]);
			else if (k + 1 < sizeof s) {
				s[k] = alphabet[(seed >> 16) %
				                (sizeof alphabet - 1)];
				s[k + 1] = '\0';
			}
		}
		if (!cli_show_unchanged(s))
			continue;
		hits++;
		for (how = CLI_SHOW_ESCAPE; how <= CLI_SHOW_RAW; how++) {
			char *shown = cli_show_alloc(s, how);

			ck_assert_ptr_nonnull(shown);
			ck_assert_msg(strcmp(shown, s) == 0,
			              "'%s' said unchanged, shown '%s'", s,
			              shown);
			free(shown);
		}
	}
	/* enough strings took the quick way to mean something */
	ck_assert_int_gt(hits, 1000);
}
END_TEST

START_TEST(test_numbers)
{
	struct doc d;
	char *got;

	doc_start(&d, CLI_JSON_LISTING);
	cli_json_object(&d.j, NULL);
	cli_json_uint(&d.j, "u0", 0);
	cli_json_uint(&d.j, "umax", UINT64_MAX);
	cli_json_int(&d.j, "imin", LLONG_MIN);
	cli_json_int(&d.j, "ineg", -1);
	cli_json_int(&d.j, "imax", LLONG_MAX);
	cli_json_real(&d.j, "r", "%.4f", 1.5, 1);
	cli_json_real(&d.j, "nan", "%.4f", NAN, 1);
	cli_json_real(&d.j, "none", "%.4f", 1.5, 0);
	cli_json_bool(&d.j, "t", 1);
	cli_json_bool(&d.j, "f", 0);
	cli_json_null(&d.j, "n");
	cli_json_string(&d.j, "s", NULL);
	cli_json_end(&d.j);
	got = doc_end(&d);
	ck_assert_str_eq(got,
		"{\n  \"u0\": 0,\n  \"umax\": 18446744073709551615,\n"
		"  \"imin\": -9223372036854775808,\n  \"ineg\": -1,\n"
		"  \"imax\": 9223372036854775807,\n  \"r\": 1.5000,\n"
		"  \"nan\": null,\n  \"none\": null,\n  \"t\": true,\n"
		"  \"f\": false,\n  \"n\": null,\n  \"s\": null\n}\n");
	free(got);
}
END_TEST

/* Both layouts, to the deepest nesting. */
START_TEST(test_layouts)
{
	struct text want = { NULL, 0, 0 };
	struct doc d;
	char *got;
	int k;

	doc_start(&d, CLI_JSON_LISTING);
	cli_json_array(&d.j, NULL);
	cli_json_object(&d.j, NULL);
	cli_json_string(&d.j, "name", "none");
	cli_json_array(&d.j, "list");
	cli_json_uint(&d.j, NULL, 1);
	cli_json_uint(&d.j, NULL, 2);
	cli_json_end(&d.j);
	cli_json_array(&d.j, "objs");
	cli_json_object(&d.j, NULL);
	cli_json_end(&d.j);
	cli_json_object(&d.j, NULL);
	cli_json_bool(&d.j, "b", 1);
	cli_json_end(&d.j);
	cli_json_end(&d.j);
	cli_json_end(&d.j);
	cli_json_end(&d.j);
	got = doc_end(&d);
	ck_assert_str_eq(got, "[\n  {\"name\": \"none\", \"list\": [1, 2], "
	                      "\"objs\": [\n      {},\n      {\"b\": true}\n"
	                      "    ]}\n]\n");
	free(got);

	doc_start(&d, CLI_JSON_PRETTY);
	for (k = 0; k < CLI_JSON_DEPTH; k++)
		cli_json_array(&d.j, NULL);
	cli_json_int(&d.j, NULL, 7);
	for (k = 0; k < CLI_JSON_DEPTH; k++)
		cli_json_end(&d.j);
	got = doc_end(&d);
	for (k = 0; k < CLI_JSON_DEPTH; k++) {
		adds(&want, "[\n");
		add(&want, "                                ", 2 * (size_t)k + 2);
	}
	adds(&want, "7");
	for (k = CLI_JSON_DEPTH - 1; k >= 0; k--) {
		adds(&want, "\n");
		add(&want, "                                ", 2 * (size_t)k);
		adds(&want, "]");
	}
	adds(&want, "\n");
	ck_assert_str_eq(got, want.p);
	free(got);
	free(want.p);
}
END_TEST

/* cli_json_flush gives the stream the text so far. */
START_TEST(test_flush)
{
	struct doc d;
	char *got;

	doc_start(&d, CLI_JSON_LISTING);
	cli_json_array(&d.j, NULL);
	cli_json_uint(&d.j, NULL, 42);
	ck_assert_int_eq(cli_json_flush(&d.j), 0);
	ck_assert_uint_eq(d.len, 6);
	ck_assert_int_eq(memcmp(d.text, "[\n  42", 6), 0);
	cli_json_end(&d.j);
	got = doc_end(&d);
	ck_assert_str_eq(got, "[\n  42\n]\n");
	free(got);
}
END_TEST

/* A stream that cannot be written: cli_json_finish says so, with why. */
START_TEST(test_write_error)
{
	struct cli_json j;
	FILE *f = fopen("/dev/full", "w");
	int k;

	ck_assert_ptr_nonnull(f);
	cli_json_start(&j, f, CLI_JSON_LISTING);
	cli_json_array(&j, NULL);
	for (k = 0; k < 10000; k++)
		cli_json_string(&j, NULL, "some text that fills the buffer");
	cli_json_end(&j);
	errno = 0;
	ck_assert_int_eq(cli_json_finish(&j), -1);
	ck_assert_int_eq(errno, ENOSPC);
	fclose(f);
}
END_TEST

/* Hex (perhaps key material) does not stay in the buffer. */
START_TEST(test_hex_wiped)
{
	static const uint8_t key[16] = { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae,
	                                 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88,
	                                 0x09, 0xcf, 0x4f, 0x3c };
	struct doc d;
	size_t i;
	char *got;

	doc_start(&d, CLI_JSON_PRETTY);
	cli_json_object(&d.j, NULL);
	cli_json_hex(&d.j, "key", key, sizeof key, CLI_HEX_UPPER);
	cli_json_end(&d.j);
	got = doc_end(&d);
	ck_assert_str_eq(got,
	                 "{\n  \"key\": \"2B7E151628AED2A6ABF7158809CF4F3C\"\n}\n");
	for (i = 0; i < 64; i++)
		ck_assert_int_eq(d.j.buf[i], 0);
	free(got);
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("writer");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_escapes_across_buffer);
	tcase_add_test(tc, test_escapes_each_place);
	tcase_add_test(tc, test_hex_across_buffer);
	tcase_add_test(tc, test_rule_applied);
	tcase_add_test(tc, test_unchanged_is_safe);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_layouts);
	tcase_add_test(tc, test_flush);
	tcase_add_test(tc, test_write_error);
	tcase_add_test(tc, test_hex_wiped);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(json_suite)
