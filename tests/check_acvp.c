/* SPDX-License-Identifier: MIT */
/*
 * check_acvp.c - unit tests for the ACVP-AES-ECB reader, checker and
 * answerer (cli/vectors/acvp.c) and the Monte Carlo test (cli/vectors/mct.c).
 *
 * Fixtures of the project in tests/acvp/ (written by gen-fixtures.py
 * there): the array form with lower-case hex, internalProjection.json with
 * mixed-case hex, wrong answers, and malformed sets, one fault each.  The
 * sample vector set of the test data (ACVP_DIR, else
 * CAVP_DIR/../acvp/ACVP-AES-ECB-1.0) is checked under every available
 * backend and answered, when it is there.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "checkutil.h"
#include "vectors/acvp.h"
#include "aesecb.h"
#include "vectors/mct.h"

#ifndef ACVP_FIXTURES
#define ACVP_FIXTURES "tests/acvp"
#endif

static char sample_dir[1024];

static const char *fx(const char *name)
{
	static char buf[8][1024];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof buf[k], "%s/%s", ACVP_FIXTURES, name);
	return buf[k];
}

static const char *sample(const char *name)
{
	static char buf[4][1200];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s%s%s", sample_dir,
	         name[0] ? "/" : "", name);
	return buf[k];
}

/* Read a whole stream from the start. */
static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0, r;
	char *buf = malloc(cap + 1);

	ck_assert_ptr_nonnull(buf);
	rewind(f);
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			ck_assert_ptr_nonnull(buf);
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static char *slurp_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	s = slurp(f, len);
	fclose(f);
	return s;
}

/* Failures heard by the callback. */
struct heard {
	size_t n;
	struct {
		unsigned long tgid, tcid;
		long it;
		char field[8], path[160];
		int has_values;
	} f[16];
};

static int hear(void *arg, const struct acvp_failure *f)
{
	struct heard *h = arg;

	if (h->n < 16) {
		h->f[h->n].tgid = f->tgid;
		h->f[h->n].tcid = f->tcid;
		h->f[h->n].it = f->iteration;
		snprintf(h->f[h->n].field, sizeof h->f[h->n].field, "%s",
		         f->field);
		snprintf(h->f[h->n].path, sizeof h->f[h->n].path, "%s",
		         f->path);
		h->f[h->n].has_values = f->expected != NULL &&
		                        f->actual != NULL;
	}
	h->n++;
	return 0;
}

/* Check set under every available backend: all pass, counts as given. */
static void check_all_backends(const struct acvp_set *set,
                               unsigned long aft, unsigned long mct)
{
	size_t i, ran = 0;

	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);
		struct acvp_counts c;
		struct acvp_error err;
		struct heard h;
		int rc;

		if (!aesecb_backend_available(be)) {
			static unsigned said;  /* once per backend */

			if (i < 32 && !(said & 1u << i))
				printf("SKIP: backend %s: %s\n",
				       aesecb_backend_name(be),
				       aesecb_backend_unavailable_reason(be));
			if (i < 32)
				said |= 1u << i;
			continue;
		}
		memset(&h, 0, sizeof h);
		rc = acvp_check(set, be, hear, &h, &c, &err);
		ck_assert_msg(rc == ACVP_OK, "%s: %s", aesecb_backend_name(be),
		              err.msg);
		ck_assert_msg(h.n == 0, "%s: %zu failures, first tgId %lu "
		              "tcId %lu %s", aesecb_backend_name(be), h.n,
		              h.f[0].tgid, h.f[0].tcid, h.f[0].path);
		ck_assert_uint_eq(c.aft, aft);
		ck_assert_uint_eq(c.mct, mct);
		ck_assert_uint_eq(c.aft_pass, aft);
		ck_assert_uint_eq(c.mct_pass, mct);
		ran++;
	}
	ck_assert_uint_ge(ran, 1);
}

/* Answer set under be; compare with the file at want (byte for byte when
 * exact, else as JSON). */
static void answer_matches(const struct acvp_set *set, const aesecb_backend *be,
                           const char *want, int exact)
{
	FILE *f = tmpfile();
	struct acvp_error err;
	char *got, *exp;
	size_t glen, elen;
	json_t *jg, *je;
	json_error_t jerr;
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = acvp_answer(set, be, f, "(tmpfile)", &err);
	ck_assert_msg(rc == ACVP_OK, "answer: %s", err.msg);
	got = slurp(f, &glen);
	fclose(f);
	exp = slurp_file(want, &elen);
	jg = json_loads(got, 0, &jerr);
	ck_assert_msg(jg != NULL, "answer is not JSON: line %d: %s", jerr.line,
	              jerr.text);
	je = json_loads(exp, 0, &jerr);
	ck_assert_ptr_nonnull(je);
	ck_assert_msg(json_equal(jg, je), "%s: the answer differs from %s",
	              aesecb_backend_name(be), want);
	if (exact)
		ck_assert_msg(glen == elen && memcmp(got, exp, glen) == 0,
		              "%s: the answer is not byte for byte %s",
		              aesecb_backend_name(be), want);
	json_decref(jg);
	json_decref(je);
	free(got);
	free(exp);
}

/* ------------------------------------------------------------------ */
/* Monte Carlo */

START_TEST(test_mct_rule)
{
	/* Iteration 0 is the input; iteration i+1's input is i's output and
	 * its key follows by the key update rule, for every key length, in
	 * both directions; the outputs agree across backends. */
	static const uint8_t key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static const uint8_t in[16] = { 0xff, 0xee, 0xdd };
	struct mct_result ref[MCT_OUTER], r[MCT_OUTER];
	size_t kl, i, b;
	int dec;

	for (kl = 16; kl <= 32; kl += 8)
		for (dec = 0; dec <= 1; dec++) {
			int have = 0;

			for (b = 0; b < aesecb_backend_count(); b++) {
				const aesecb_backend *be = aesecb_backend_get(b);

				if (!aesecb_backend_available(be))
					continue;
				ck_assert_int_eq(mct_run(be, dec, key, kl, in,
				                         r), AESECB_OK);
				if (!have) {
					memcpy(ref, r, sizeof r);
					have = 1;
				}
				ck_assert(memcmp(ref, r, sizeof r) == 0);
			}
			ck_assert(memcmp(r[0].key, key, kl) == 0);
			ck_assert(memcmp(r[0].in, in, 16) == 0);
			for (i = 1; i < MCT_OUTER; i++) {
				uint8_t k[32], prev[16];
				aesecb_ctx ctx;
				size_t j;

				ck_assert(memcmp(r[i].in, r[i - 1].out, 16) == 0);
				/* output 998 of iteration i-1: one step back
				 * from output 999 */
				ck_assert_int_eq(aesecb_init(&ctx, r[i - 1].key,
				                             kl, NULL), AESECB_OK);
				(dec ? aesecb_encrypt : aesecb_decrypt)(&ctx,
				        r[i - 1].out, prev, 16);
				aesecb_clear(&ctx);
				memcpy(k, r[i - 1].key, kl);
				for (j = 0; j < kl; j++) {
					size_t pos = 32 - kl + j;

					k[j] ^= pos < 16 ? prev[pos] :
					        r[i - 1].out[pos - 16];
				}
				ck_assert(memcmp(k, r[i].key, kl) == 0);
			}
		}
	ck_assert_int_eq(mct_run(aesecb_backend_get(0), 0, key, 20, in, r),
	                 AESECB_EKEYLEN);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The shared sample */

START_TEST(test_sample)
{
	struct acvp_set set;
	struct acvp_error err;
	const char *ways[3];
	size_t w, i;

	ways[0] = sample("");
	ways[1] = sample("prompt.json");
	ways[2] = sample("expectedResults.json");
	for (w = 0; w < 3; w++) {
		int rc = acvp_load(ways[w], &set, &err);

		ck_assert_msg(rc == ACVP_OK, "%s: %s: %s: %s", ways[w],
		              err.file, err.where, err.msg);
		ck_assert(set.has_answers);
		ck_assert_uint_eq(set.ntests, 306);
		ck_assert_uint_eq(set.ngroups, 18);
		ck_assert_int_eq(set.array_form, 0);
		ck_assert_int_eq(set.is_sample, 1);
		ck_assert_ptr_nonnull(set.answers);
		check_all_backends(&set, 300, 6);
		/* round trip: the answer is the expected results */
		for (i = 0; i < aesecb_backend_count(); i++) {
			const aesecb_backend *be = aesecb_backend_get(i);

			if (aesecb_backend_available(be))
				answer_matches(&set, be,
				               sample("expectedResults.json"), 1);
		}
		acvp_free(&set);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Fixtures */

START_TEST(test_array_form)
{
	struct acvp_set set;
	struct acvp_error err;
	int rc = acvp_load(fx("array"), &set, &err);

	ck_assert_msg(rc == ACVP_OK, "%s: %s: %s", err.file, err.where,
	              err.msg);
	ck_assert_int_eq(set.array_form, 1);
	ck_assert_int_eq(set.answers_array_form, 1);
	ck_assert_str_eq(set.acv_version, "1.0");
	ck_assert_int_eq(set.vsid, 1001);
	ck_assert_uint_eq(set.ngroups, 6);
	ck_assert_uint_eq(set.ntests, 8);
	/* decoded bytes: FIPS-197 C.1, lower-case hex in the prompt */
	ck_assert_uint_eq(set.groups[0].key_len, 16);
	ck_assert_uint_eq(set.groups[0].tests[0].len, 16);
	ck_assert_uint_eq(set.groups[0].tests[0].in[0], 0x00);
	ck_assert_uint_eq(set.groups[0].tests[0].in[15], 0xff);
	ck_assert_uint_eq(set.groups[0].tests[0].expect[0], 0x69);
	ck_assert_uint_eq(set.groups[0].tests[1].len, 64);
	ck_assert_int_eq(set.groups[1].decrypt, 1);
	ck_assert_uint_eq(set.groups[1].key_len, 24);
	ck_assert_int_eq(set.groups[3].type, ACVP_MCT);
	ck_assert_ptr_nonnull(set.groups[3].tests[0].mct);
	check_all_backends(&set, 5, 3);
	answer_matches(&set, aesecb_backend_get(0),
	               fx("array/expectedResults.json"), 1);
	acvp_free(&set);
	/* the prompt alone: questions without answers */
	rc = acvp_load_files(fx("array/prompt.json"), NULL, &set, &err);
	ck_assert_int_eq(rc, ACVP_OK);
	ck_assert_int_eq(set.has_answers, 0);
	ck_assert_int_eq(acvp_check(&set, aesecb_backend_get(0), NULL, NULL,
	                            NULL, &err), ACVP_ENOANSWER);
	acvp_error_free(&err);
	answer_matches(&set, aesecb_backend_get(0),
	               fx("array/expectedResults.json"), 1);
	acvp_free(&set);
}
END_TEST

START_TEST(test_projection)
{
	struct acvp_set set;
	struct acvp_error err;
	const char *ways[2];
	size_t w;

	ways[0] = fx("projection");
	ways[1] = fx("projection/internalProjection.json");
	for (w = 0; w < 2; w++) {
		int rc = acvp_load(ways[w], &set, &err);

		ck_assert_msg(rc == ACVP_OK, "%s: %s: %s", err.file, err.where,
		              err.msg);
		ck_assert_ptr_null(set.answers);
		ck_assert(set.has_answers);
		ck_assert_int_eq(set.array_form, 0);
		ck_assert_uint_eq(set.ntests, 8);
		check_all_backends(&set, 5, 3);
		acvp_free(&set);
	}
}
END_TEST

START_TEST(test_wrong_answers)
{
	struct acvp_set set;
	struct acvp_error err;
	size_t i;
	int rc = acvp_load(fx("wrong"), &set, &err);

	ck_assert_int_eq(rc, ACVP_OK);
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);
		struct acvp_counts c;
		struct heard h;

		if (!aesecb_backend_available(be))
			continue;
		memset(&h, 0, sizeof h);
		rc = acvp_check(&set, be, hear, &h, &c, &err);
		ck_assert_int_eq(rc, ACVP_OK);
		ck_assert_uint_eq(h.n, 3);
		ck_assert_uint_eq(c.aft_pass, 4);
		ck_assert_uint_eq(c.mct_pass, 1);
		/* AFT: tgId 1 tcId 2, the 4-block ct */
		ck_assert_uint_eq(h.f[0].tgid, 1);
		ck_assert_uint_eq(h.f[0].tcid, 2);
		ck_assert_int_eq(h.f[0].it, -1);
		ck_assert_str_eq(h.f[0].field, "ct");
		ck_assert_str_eq(h.f[0].path, "testGroups[0].tests[1].ct");
		ck_assert(h.f[0].has_values);
		/* MCT encrypt: iteration 37, ct */
		ck_assert_uint_eq(h.f[1].tgid, 4);
		ck_assert_uint_eq(h.f[1].tcid, 6);
		ck_assert_int_eq(h.f[1].it, 37);
		ck_assert_str_eq(h.f[1].field, "ct");
		ck_assert_str_eq(h.f[1].path,
		                 "testGroups[3].tests[0].resultsArray[37].ct");
		/* MCT decrypt: iteration 5, key, reported without values */
		ck_assert_uint_eq(h.f[2].tgid, 5);
		ck_assert_uint_eq(h.f[2].tcid, 7);
		ck_assert_int_eq(h.f[2].it, 5);
		ck_assert_str_eq(h.f[2].field, "key");
		ck_assert(!h.f[2].has_values);
	}
	acvp_free(&set);
}
END_TEST

static int stop_at_first(void *arg, const struct acvp_failure *f)
{
	(void)f;
	++*(int *)arg;
	return 7;
}

START_TEST(test_callback_stops)
{
	struct acvp_set set;
	struct acvp_error err;
	int calls = 0;

	ck_assert_int_eq(acvp_load(fx("wrong"), &set, &err), ACVP_OK);
	ck_assert_int_eq(acvp_check(&set, aesecb_backend_get(0), stop_at_first,
	                            &calls, NULL, &err), ACVP_ESTOPPED);
	ck_assert_int_eq(err.code, ACVP_ESTOPPED);
	ck_assert_int_eq(err.stop, 7);
	acvp_error_free(&err);
	ck_assert_int_eq(calls, 1);
	acvp_free(&set);
}
END_TEST

/* Malformed sets: the code, the file, the JSON path and the message. */
static const struct bad_case {
	const char *name;       /* under tests/acvp/bad */
	int code;
	const char *file;       /* file named in the error, under bad/ */
	const char *where;
	const char *msg;        /* the start of the message */
} bad_cases[] = {
	{ "syntax.json", ACVP_EFORMAT, "syntax.json", "line 5, column 14",
	  "not valid JSON" },
	{ "algorithm.json", ACVP_EFORMAT, "algorithm.json", "algorithm",
	  "algorithm is not ACVP-AES-ECB" },
	{ "revision.json", ACVP_EFORMAT, "revision.json", "revision",
	  "revision is not 1.0" },
	{ "no-groups.json", ACVP_EFORMAT, "no-groups.json", "testGroups",
	  "missing" },
	{ "missing-key.json", ACVP_EFORMAT, "missing-key.json",
	  "testGroups[1].tests[0].key", "missing" },
	{ "missing-input.json", ACVP_EFORMAT, "missing-input.json",
	  "testGroups[0].tests[1].pt", "missing" },
	{ "bad-hex.json", ACVP_EFORMAT, "bad-hex.json",
	  "testGroups[0].tests[1].pt", "not hex" },
	{ "odd-hex.json", ACVP_EFORMAT, "odd-hex.json",
	  "testGroups[2].tests[0].pt", "odd number of hex digits (31)" },
	{ "key-length.json", ACVP_EFORMAT, "key-length.json",
	  "testGroups[2].tests[0].key", "24 bytes; must be 32" },
	{ "partial-block.json", ACVP_EFORMAT, "partial-block.json",
	  "testGroups[0].tests[0].pt", "20 bytes; must be a whole number" },
	{ "key-bits.json", ACVP_EFORMAT, "key-bits.json",
	  "testGroups[1].keyLen", "512; must be 128, 192 or 256" },
	{ "test-type.json", ACVP_EFORMAT, "test-type.json",
	  "testGroups[0].testType", "unknown test type" },
	{ "direction.json", ACVP_EFORMAT, "direction.json",
	  "testGroups[1].direction", "unknown direction" },
	{ "tcid.json", ACVP_EFORMAT, "tcid.json", "testGroups[0].tests[1].tcId",
	  "not a non-negative integer" },
	{ "array-version.json", ACVP_EFORMAT, "array-version.json",
	  "[0].acvVersion", "missing" },
	{ "mct-iterations.json", ACVP_EFORMAT, "mct-iterations.json",
	  "testGroups[0].tests[0].resultsArray", "99 iterations; must be 100" },
	{ "answers-tcid", ACVP_EFORMAT, "answers-tcid/expectedResults.json",
	  "testGroups[1].tests[1].tcId", "99 is not a test of group tgId 2" },
	{ "answers-length", ACVP_EFORMAT,
	  "answers-length/expectedResults.json", "testGroups[2].tests[0].ct",
	  "15 bytes; must be 16" },
	{ "no-such-file.json", ACVP_EIO, "no-such-file.json", "", "" },
};

START_TEST(test_bad)
{
	const struct bad_case *b = &bad_cases[_i];
	struct acvp_set set;
	struct acvp_error err;
	char name[256], file[256];
	int rc;

	snprintf(name, sizeof name, "bad/%s", b->name);
	snprintf(file, sizeof file, "bad/%s", b->file);
	rc = acvp_load(fx(name), &set, &err);
	ck_assert_msg(rc == b->code, "%s: code %d, expected %d (%s: %s)",
	              b->name, rc, b->code, err.where, err.msg);
	ck_assert_int_eq(err.code, b->code);
	ck_assert_str_eq(err.file, fx(file));
	ck_assert_str_eq(err.where, b->where);
	ck_assert_msg(strncmp(err.msg, b->msg, strlen(b->msg)) == 0,
	              "%s: message '%s', expected '%s...'", b->name, err.msg,
	              b->msg);
	acvp_error_free(&err);
	ck_assert_ptr_null(set.groups);
}
END_TEST

START_TEST(test_array_paths)
{
	/* in the array form, paths start at the vector set: [1].testGroups */
	static const char *text =
		"[{\"acvVersion\": \"1.0\"}, {\"vsId\": 1, \"algorithm\": "
		"\"ACVP-AES-ECB\", \"revision\": \"1.0\", \"testGroups\": "
		"[{\"tgId\": 1, \"testType\": \"AFT\", \"direction\": "
		"\"decrypt\", \"keyLen\": 128, \"tests\": [{\"tcId\": 1, "
		"\"key\": \"000102030405060708090a0b0c0d0e0f\", \"ct\": "
		"\"zz\"}]}]}]\n";
	char path[512];
	const char *t = getenv("TMPDIR");
	struct acvp_set set;
	struct acvp_error err;
	FILE *f;

	snprintf(path, sizeof path, "%s/check_acvp.%ld.json",
	         t != NULL && t[0] ? t : "/tmp", (long)getpid());
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(acvp_load(path, &set, &err), ACVP_EFORMAT);
	ck_assert_str_eq(err.where, "[1].testGroups[0].tests[0].ct");
	ck_assert_str_eq(err.msg, "not hex");
	acvp_error_free(&err);
	remove(path);
}
END_TEST

START_TEST(test_syntax_no_key_digits)
{
	/* jansson quotes the text near a syntax error; a key is not shown */
	static const char *text =
		"{\"vsId\": 1, \"algorithm\": \"ACVP-AES-ECB\", "
		"\"revision\": \"1.0\", \"testGroups\": [{\"tgId\": 1, "
		"\"tests\": [{\"key\": \"7e5a9c13d4\x01\"}]}]}\n";
	char path[512];
	const char *t = getenv("TMPDIR");
	struct acvp_set set;
	struct acvp_error err;
	FILE *f;

	snprintf(path, sizeof path, "%s/check_acvp.%ld.ctl.json",
	         t != NULL && t[0] ? t : "/tmp", (long)getpid());
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(acvp_load(path, &set, &err), ACVP_EFORMAT);
	ck_assert_msg(strncmp(err.where, "line 1, column ", 15) == 0, "%s",
	              err.where);
	ck_assert_msg(strncmp(err.msg, "not valid JSON: ", 16) == 0, "%s",
	              err.msg);
	ck_assert_msg(strstr(err.msg, "7e5a") == NULL, "%s", err.msg);
	acvp_error_free(&err);
	remove(path);
}
END_TEST

/* A vector set of n AFT tests under one key (hex), its answers in place,
 * and, with pad > 0, a member nobody reads: an array of pad copies of
 * elem (JSON text); into a file. */
static const char *write_set_of(const char *name, const char *key, int n,
                                long pad, const char *elem)
{
	static char path[512];
	const char *t = getenv("TMPDIR");
	FILE *f;
	long k;
	int i;

	snprintf(path, sizeof path, "%s/check_acvp.%ld.%s.json",
	         t != NULL && t[0] ? t : "/tmp", (long)getpid(), name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{\"vsId\": 9, \"algorithm\": \"ACVP-AES-ECB\", "
	      "\"revision\": \"1.0\", \"x\": [", f);
	for (k = 0; k < pad; k++) {
		fputs(elem, f);
		if (k + 1 < pad)
			fputc(',', f);
	}
	fputs("], \"testGroups\": [{\"tgId\": 1, \"testType\": \"AFT\", "
	      "\"direction\": \"encrypt\", \"keyLen\": 128, \"tests\": [", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s{\"tcId\": %d, \"key\": \"%s\", \"pt\": "
		        "\"%032d\", \"ct\": \"%032d\"}", i ? ", " : "", i + 1,
		        key, i, i);
	fputs("]}]}\n", f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/* The same, the member of pad zeros. */
static const char *write_set(const char *name, const char *key, int n,
                             long pad)
{
	return write_set_of(name, key, n, pad, "0");
}

/* The memory limit holds whatever the text: a member of zeros nobody
 * reads is refused as too large, with the limit named; so is a valid set
 * that needs more than the limit; under the default both load. */
START_TEST(test_memory_limit)
{
	const char *path = write_set("zeros", "000102030405060708090a0b0c0d0e0f",
	                             4, 200000);
	struct acvp_set set;
	struct acvp_error err;
	size_t lim;
	int rc;

	acvp_set_memory_limit(0);
	ck_assert_uint_eq(acvp_memory_limit(), ACVP_MEMORY_BASE);
	acvp_set_memory_limit(2u << 20);
	ck_assert_int_eq(acvp_load(path, &set, &err), ACVP_ETOOBIG);
	ck_assert_msg(strstr(err.msg, "too large: the vector set needs more "
	                     "than 2 MiB") != NULL, "%s", err.msg);
	acvp_error_free(&err);
	acvp_set_memory_limit(0);
	ck_assert_int_eq(acvp_load(path, &set, &err), ACVP_OK);
	ck_assert_uint_eq(set.ntests, 4);
	acvp_free(&set);
	remove(path);
	path = write_set("many", "000102030405060708090a0b0c0d0e0f", 20000, 0);
	acvp_set_memory_limit(1u << 20);
	ck_assert_int_eq(acvp_load(path, &set, &err), ACVP_ETOOBIG);
	acvp_error_free(&err);
	/* whatever room is left when the limit is reached, and whatever
	 * the C library rounds a block up to (a block of a few bytes takes
	 * more than its size says; a reused one may be larger than asked):
	 * limits a few bytes apart meet each kind of block at the edge */
	for (lim = (size_t)64 << 10; lim < ((size_t)64 << 10) + 2048;
	     lim += 8) {
		acvp_set_memory_limit(lim);
		rc = acvp_load(path, &set, &err);
		ck_assert_msg(rc == ACVP_ETOOBIG, "limit %zu bytes: %d (%s)",
		              lim, rc, err.msg);
		acvp_error_free(&err);
	}
	acvp_set_memory_limit(0);
	ck_assert_int_eq(acvp_load(path, &set, &err), ACVP_OK);
	ck_assert_uint_eq(set.ntests, 20000);
	acvp_free(&set);
	remove(path);
	/* the default follows the input: a member of empty arrays costs
	 * about 45 bytes a byte of text in jansson's tree on a 64-bit
	 * system and 28 on a 32-bit one (each is an array and its first
	 * table), past 8 a byte plus the base; a million zeros would not
	 * do on a 32-bit system, where they cost about 10 bytes a byte */
	path = write_set_of("hostile", "000102030405060708090a0b0c0d0e0f", 1,
	                    2000000, "[]");
	acvp_set_memory_limit(0);
	ck_assert_int_eq(acvp_load(path, &set, &err), ACVP_ETOOBIG);
	{
		struct stat st;

		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_uint_eq(acvp_memory_limit(), ACVP_MEMORY_BASE +
		                  ACVP_MEMORY_PER_BYTE * (size_t)st.st_size);
	}
	acvp_error_free(&err);
	remove(path);
	acvp_set_memory_limit(0);
}
END_TEST

/* Whether n bytes at p hold the text or the bytes of the key. */
static int holds_key(const unsigned char *p, size_t n)
{
	static const unsigned char bytes[8] = {
		0x5a, 0x17, 0xc0, 0xde, 0x5a, 0x17, 0xc0, 0xde
	};
	static const char text[] = "5a17c0de5a17";
	size_t i;

	for (i = 0; i + sizeof bytes <= n; i++)
		if (memcmp(p + i, bytes, sizeof bytes) == 0 ||
		    (i + sizeof text - 1 <= n &&
		     memcmp(p + i, text, sizeof text - 1) == 0))
			return 1;
	return 0;
}

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_REUSED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define HEAP_REUSED 0
#endif
#endif
#ifndef HEAP_REUSED
#define HEAP_REUSED 1
#endif

/* What jansson and the decoding allocated is wiped when it is freed: the
 * memory malloc hands out after a set was loaded and freed holds neither
 * the key's text nor its bytes. */
START_TEST(test_wipe)
{
	const char *path = write_set("wipe", "5a17c0de5a17c0de5a17c0de5a17c0de",
	                             400, 0);
	static const size_t sizes[] = { 16, 24, 32, 40, 48, 64, 80, 96, 128,
	                                160, 256, 512, 1024, 4096, 65536,
	                                1 << 20 };
	unsigned char *blocks[64];
	struct acvp_set set;
	struct acvp_error err;
	size_t i, k, hits = 0;

	if (!HEAP_REUSED) {
		printf("SKIP: wipe: the sanitizer's allocator does not reuse "
		       "freed memory\n");
		remove(path);
		return;
	}
	ck_assert_int_eq(acvp_load(path, &set, &err), ACVP_OK);
	ck_assert_uint_eq(set.ntests, 400);
	acvp_free(&set);
	remove(path);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		for (k = 0; k < 64; k++) {
			blocks[k] = malloc(sizes[i]);
			ck_assert_ptr_nonnull(blocks[k]);
			hits += (size_t)holds_key(blocks[k], sizes[i]);
		}
		for (k = 0; k < 64; k++)
			free(blocks[k]);
	}
	ck_assert_msg(hits == 0, "%zu blocks hold the key after the set was "
	              "freed", hits);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("acvp");
	TCase *tc;
	const char *dir = getenv("ACVP_DIR"), *cavp = getenv("CAVP_DIR");
	FILE *f;

	tc = tcase_create("mct");
	tcase_add_test(tc, test_mct_rule);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);

	tc = tcase_create("fixtures");
	tcase_add_test(tc, test_array_form);
	tcase_add_test(tc, test_projection);
	tcase_add_test(tc, test_wrong_answers);
	tcase_add_test(tc, test_callback_stops);
	tcase_add_loop_test(tc, test_bad, 0,
	                    (int)(sizeof bad_cases / sizeof bad_cases[0]));
	tcase_add_test(tc, test_array_paths);
	tcase_add_test(tc, test_syntax_no_key_digits);
	tcase_add_test(tc, test_memory_limit);
	tcase_add_test(tc, test_wipe);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);

	if (dir != NULL && dir[0] != '\0')
		snprintf(sample_dir, sizeof sample_dir, "%s", dir);
	else if (cavp != NULL && cavp[0] != '\0')
		snprintf(sample_dir, sizeof sample_dir,
		         "%s/../acvp/ACVP-AES-ECB-1.0", cavp);
	f = sample_dir[0] ? fopen(sample("prompt.json"), "r") : NULL;
	if (f != NULL) {
		fclose(f);
		tc = tcase_create("sample");
		tcase_add_test(tc, test_sample);
		tcase_set_timeout(tc, 300);
		suite_add_tcase(s, tc);
	} else {
		printf("SKIP: no ACVP sample vector set (ACVP_DIR, or "
		       "CAVP_DIR/../acvp/ACVP-AES-ECB-1.0): not checked\n");
	}
	return s;
}

CHECK_MAIN(suite)
