/* SPDX-License-Identifier: MIT */
/*
 * check_vecfile.c - unit tests for the vector file reader (cli/vectors/vecfile.c):
 * both formats, CRLF and LF, field order, comments, every malformed case
 * with its line number, overlong lines, gzip (whole, truncated, corrupt),
 * set classification, and the Monte Carlo helpers.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "aesecb.h"
#include "vectors/mct.h"
#include "vectors/vecfile.h"

/* ------------------------------------------------------------------ */
/* Helpers */

static char tmpdir[256];

static const char *tpath(const char *name);

static void remove_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *de;

	if (d != NULL) {
		while ((de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") != 0 &&
			    strcmp(de->d_name, "..") != 0)
				unlink(tpath(de->d_name));
		closedir(d);
	}
	rmdir(tmpdir);
}

static void make_tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof tmpdir, "%s/check_vecfile.XXXXXX",
	         t != NULL && t[0] != '\0' ? t : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		exit(99);
	}
}

/* Path of a scratch file called name. */
static const char *tpath(const char *name)
{
	static char buf[512];

	snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
	return buf;
}

static const char *write_bytes(const char *name, const void *data, size_t n)
{
	const char *path = tpath(name);
	FILE *f;

	/* a new file each time: rewriting one in place can make the file
	 * system flush it on every close, which is slow */
	unlink(path);
	f = fopen(path, "wb");

	ck_assert_msg(f != NULL, "cannot create %s", path);
	ck_assert_msg(n == 0 || fwrite(data, 1, n, f) == n, "write %s", path);
	ck_assert_msg(fclose(f) == 0, "close %s", path);
	return path;
}

static const char *write_text(const char *name, const char *text)
{
	return write_bytes(name, text, strlen(text));
}

/* Same text with every "\n" turned into "\r\n". */
static char *to_crlf(const char *text)
{
	size_t n = strlen(text), i, k = 0;
	char *s = malloc(2 * n + 1);

	ck_assert(s != NULL);
	for (i = 0; i < n; i++) {
		if (text[i] == '\n')
			s[k++] = '\r';
		s[k++] = text[i];
	}
	s[k] = '\0';
	return s;
}

/* What the callback saw. */
#define MAXE 16
struct seen {
	int n;
	struct {
		int set, dir;
		unsigned long count, line;
		size_t key_len, text_len;
		uint8_t key0, pt0, ct0, mask0;
		int has_block;
	} e[MAXE];
	int stop_at;  /* return nonzero at this entry (1-based), 0: never */
};

static int collect(void *arg, const struct vec_entry *e)
{
	struct seen *s = arg;

	if (s->n < MAXE) {
		s->e[s->n].set = e->set;
		s->e[s->n].dir = e->dir;
		s->e[s->n].count = e->count;
		s->e[s->n].line = e->line;
		s->e[s->n].key_len = e->key_len;
		s->e[s->n].text_len = e->text_len;
		s->e[s->n].key0 = e->key[0];
		if (e->plaintext != NULL)
			s->e[s->n].pt0 = e->plaintext[0];
		if (e->ciphertext != NULL)
			s->e[s->n].ct0 = e->ciphertext[0];
		if (e->mask != NULL)
			s->e[s->n].mask0 = e->mask[0];
		s->e[s->n].has_block = e->block != NULL;
	}
	s->n++;
	return s->stop_at != 0 && s->n == s->stop_at ? 7 : 0;
}

static int read_file(const char *path, struct seen *s, struct vec_info *info,
                     struct vec_error *err)
{
	memset(s, 0, sizeof *s);
	return vec_read(path, VEC_FMT_AUTO, collect, s, info, err);
}

/* ------------------------------------------------------------------ */
/* Well-formed files */

static const char rsp_text[] =
	"# CAVS 11.1\n"
	"# Config info for aes_values\n"
	"# AESVS GFSbox test data for ECB\n"
	"\n"
	"[ENCRYPT]\n"
	"\n"
	"COUNT = 0\n"
	"KEY = 00000000000000000000000000000000\n"
	"PLAINTEXT = f34481ec3cc627bacd5dc3fb08f273e6\n"
	"CIPHERTEXT = 0336763e966d92595a567cc9ce537f5e\n"
	"\n"
	"COUNT = 1\n"
	"KEY = 11000000000000000000000000000000000000000000000000000000000000aa\n"
	"PLAINTEXT = 22000000000000000000000000000000"
	"00000000000000000000000000000000\n"
	"CIPHERTEXT = 33000000000000000000000000000000"
	"00000000000000000000000000000000\n"
	"\n"
	"[DECRYPT]\n"
	"\n"
	"COUNT = 0\n"
	"KEY = 440000000000000000000000000000000000000000000000\n"
	"CIPHERTEXT = 55000000000000000000000000000000\n"
	"PLAINTEXT = 66000000000000000000000000000000\n";

static void check_rsp_entries(const struct seen *s)
{
	ck_assert_int_eq(s->n, 3);
	ck_assert_int_eq(s->e[0].set, VEC_SET_KAT);
	ck_assert_int_eq(s->e[0].dir, VEC_ENCRYPT);
	ck_assert_uint_eq(s->e[0].count, 0);
	ck_assert_uint_eq(s->e[0].line, 7);
	ck_assert_uint_eq(s->e[0].key_len, 16);
	ck_assert_uint_eq(s->e[0].text_len, 16);
	ck_assert_uint_eq(s->e[0].pt0, 0xf3);
	ck_assert_uint_eq(s->e[0].ct0, 0x03);

	ck_assert_int_eq(s->e[1].dir, VEC_ENCRYPT);
	ck_assert_uint_eq(s->e[1].count, 1);
	ck_assert_uint_eq(s->e[1].line, 12);
	ck_assert_uint_eq(s->e[1].key_len, 32);
	ck_assert_uint_eq(s->e[1].key0, 0x11);
	ck_assert_uint_eq(s->e[1].text_len, 32);
	ck_assert_uint_eq(s->e[1].pt0, 0x22);
	ck_assert_uint_eq(s->e[1].ct0, 0x33);

	ck_assert_int_eq(s->e[2].dir, VEC_DECRYPT);
	ck_assert_uint_eq(s->e[2].count, 0);
	ck_assert_uint_eq(s->e[2].line, 19);
	ck_assert_uint_eq(s->e[2].key_len, 24);
	ck_assert_uint_eq(s->e[2].key0, 0x44);
	ck_assert_uint_eq(s->e[2].ct0, 0x55);
	ck_assert_uint_eq(s->e[2].pt0, 0x66);
}

START_TEST(test_lf)
{
	struct seen s;
	struct vec_info info;
	struct vec_error err;
	const char *p = write_text("lf.rsp", rsp_text);

	ck_assert_int_eq(read_file(p, &s, &info, &err), VEC_OK);
	check_rsp_entries(&s);
	ck_assert_int_eq(info.format, VEC_FMT_RSP);
	ck_assert_int_eq(info.set, VEC_SET_KAT);
	ck_assert_uint_eq(info.entries, 3);
	ck_assert_uint_eq(info.lines, 22);
	unlink(p);
}
END_TEST

START_TEST(test_crlf)
{
	struct seen s;
	struct vec_info info;
	struct vec_error err;
	char *crlf = to_crlf(rsp_text);
	const char *p = write_text("crlf.rsp", crlf);

	ck_assert_int_eq(read_file(p, &s, &info, &err), VEC_OK);
	check_rsp_entries(&s);
	ck_assert_uint_eq(info.lines, 22);
	free(crlf);
	unlink(p);
}
END_TEST

START_TEST(test_field_order)
{
	/* names decide, not positions; comments, blanks, spacing, case */
	static const char text[] =
		"[DECRYPT]\n"
		"# a comment inside a section\n"
		"  PLAINTEXT=66000000000000000000000000000000\n"
		"CIPHERTEXT   =\t55000000000000000000000000000000  \n"
		"KEY = 44000000000000000000000000000000\n"
		"COUNT = 9\n"
		"\n"
		"\n"
		"# another\n"
		"\n"
		"[ENCRYPT]\n"
		"CIPHERTEXT = AB000000000000000000000000000000\n"
		"count = 3\n"
		"Key = CD000000000000000000000000000000\n"
		"PLAINTEXT = EF000000000000000000000000000000";  /* no newline */
	struct seen s;
	struct vec_error err;
	const char *p = write_text("order.rsp", text);

	ck_assert_int_eq(read_file(p, &s, NULL, &err), VEC_OK);
	ck_assert_int_eq(s.n, 2);
	ck_assert_int_eq(s.e[0].dir, VEC_DECRYPT);
	ck_assert_uint_eq(s.e[0].count, 9);
	ck_assert_uint_eq(s.e[0].line, 3);
	ck_assert_uint_eq(s.e[0].pt0, 0x66);
	ck_assert_uint_eq(s.e[0].ct0, 0x55);
	ck_assert_uint_eq(s.e[0].key0, 0x44);
	ck_assert_int_eq(s.e[1].dir, VEC_ENCRYPT);
	ck_assert_uint_eq(s.e[1].count, 3);
	ck_assert_uint_eq(s.e[1].line, 12);
	ck_assert_uint_eq(s.e[1].ct0, 0xab);
	ck_assert_uint_eq(s.e[1].key0, 0xcd);
	ck_assert_uint_eq(s.e[1].pt0, 0xef);
	unlink(p);
}
END_TEST

static const char quic_text[] =
	"# QUIC header protection\n"
	"\n"
	"# first\n"
	"HP_KEY = 9f50449e04a0e810283a1e9933adedd2\n"
	"SAMPLE = d1b1c98dd7689fb8ec11d242b123dc9b\n"
	"MASK = 437b9aec36\n"
	"BLOCK = 437b9aec36be423400cdd115d9db3241\n"
	"\n"
	"# second, no BLOCK, other order\n"
	"MASK = 2ec0d8356a\n"
	"SAMPLE = 2cd0991cd25b0aac406a5816b6394100\n"
	"HP_KEY = c206b8d9b9f0f37644430b490eeaa314\n";

START_TEST(test_quic)
{
	struct seen s;
	struct vec_info info;
	struct vec_error err;
	const char *p = write_text("hp.txt", quic_text);
	char *crlf;

	ck_assert_int_eq(read_file(p, &s, &info, &err), VEC_OK);
	ck_assert_int_eq(info.format, VEC_FMT_QUIC);
	ck_assert_int_eq(info.set, VEC_SET_QUIC);
	ck_assert_int_eq(s.n, 2);
	ck_assert_int_eq(s.e[0].set, VEC_SET_QUIC);
	ck_assert_uint_eq(s.e[0].count, 1);
	ck_assert_uint_eq(s.e[0].line, 4);
	ck_assert_uint_eq(s.e[0].key0, 0x9f);
	ck_assert_uint_eq(s.e[0].mask0, 0x43);
	ck_assert_int_eq(s.e[0].has_block, 1);
	ck_assert_uint_eq(s.e[1].count, 2);
	ck_assert_uint_eq(s.e[1].line, 10);
	ck_assert_uint_eq(s.e[1].key0, 0xc2);
	ck_assert_int_eq(s.e[1].has_block, 0);
	ck_assert_int_eq(vec_is_quic_file(p, NULL), 1);
	unlink(p);

	crlf = to_crlf(quic_text);
	p = write_text("hp-crlf.txt", crlf);
	free(crlf);
	ck_assert_int_eq(read_file(p, &s, &info, &err), VEC_OK);
	ck_assert_int_eq(s.n, 2);
	ck_assert_int_eq(vec_is_quic_file(p, NULL), 1);
	unlink(p);

	p = write_text("notes.txt", "# notes\nsome text\n");
	ck_assert_int_eq(vec_is_quic_file(p, NULL), 0);
	unlink(p);
	/* field names in any case, as the parser takes them */
	p = write_text("lower.txt",
	               "# x\n\n  hp_key = 9f50449e04a0e810283a1e9933adedd2\n");
	ck_assert_int_eq(vec_is_quic_file(p, NULL), 1);
	unlink(p);
	p = write_text("masks.txt", "Masks = 1\n");
	ck_assert_int_eq(vec_is_quic_file(p, NULL), 0);
	unlink(p);
	/* a file that cannot be opened is an error, not "not QUIC" */
	{
		struct vec_error e;

		ck_assert_int_eq(vec_is_quic_file(p, &e), VEC_EIO);
		ck_assert_int_eq(e.code, VEC_EIO);
		ck_assert_msg(strstr(e.msg, "cannot open") != NULL, "%s",
		              e.msg);
	}
	p = write_text("lf.rsp", rsp_text);
	ck_assert_int_eq(vec_is_quic_file(p, NULL), 0);
	/* a response file is not read as QUIC when told so */
	ck_assert_int_eq(vec_read(p, VEC_FMT_QUIC, collect, &s, NULL, &err),
	                 VEC_EFORMAT);
	unlink(p);
}
END_TEST

START_TEST(test_stop_and_missing)
{
	struct seen s;
	struct vec_error err;
	const char *p = write_text("stop.rsp", rsp_text);

	memset(&s, 0, sizeof s);
	s.stop_at = 2;
	ck_assert_int_eq(vec_read(p, VEC_FMT_AUTO, collect, &s, NULL, &err),
	                 VEC_ESTOPPED);
	ck_assert_int_eq(err.stop, 7);
	ck_assert_int_eq(s.n, 2);
	unlink(p);

	ck_assert_int_eq(read_file(tpath("does-not-exist.rsp"), &s, NULL,
	                           &err), VEC_EIO);
	ck_assert_int_eq(err.code, VEC_EIO);
	ck_assert_msg(strstr(err.msg, "cannot open") != NULL, "%s", err.msg);

	/* a directory is not a vector file */
	ck_assert_int_eq(read_file(tmpdir, &s, NULL, &err), VEC_EIO);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Malformed files */

static const struct bad_case {
	const char *name;
	const char *text;
	unsigned long line;
	const char *msg;
} bad_cases[] = {
	{ "missing.rsp",
	  "[ENCRYPT]\n\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "PLAINTEXT = 00000000000000000000000000000000\n\n",
	  3, "no CIPHERTEXT" },
	{ "missing-eof.rsp",
	  "[ENCRYPT]\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "CIPHERTEXT = 00000000000000000000000000000000\n",
	  2, "no PLAINTEXT" },
	{ "missing-count.rsp",
	  "[DECRYPT]\nKEY = 00000000000000000000000000000000\n"
	  "CIPHERTEXT = 00000000000000000000000000000000\n"
	  "PLAINTEXT = 00000000000000000000000000000000\n[ENCRYPT]\n",
	  2, "no COUNT" },
	{ "unknown.rsp",
	  "[ENCRYPT]\nCOUNT = 0\nIV = 00000000000000000000000000000000\n",
	  3, "unknown field name (a response file has" },
	{ "badhex.rsp",
	  "[ENCRYPT]\nCOUNT = 0\nKEY = 000000000000000000000000000000\n"
	  "PLAINTEXT = 0000000000000000000000000000000g\n",
	  3, "AES keys are 16, 24 or 32 bytes" },
	{ "badhex2.rsp",
	  "[ENCRYPT]\nCOUNT = 0\n"
	  "PLAINTEXT = 0000000000000000000000000000000g\n",
	  3, "invalid hex digit at character 32" },
	{ "space-in-hex.rsp",
	  "[ENCRYPT]\nCOUNT = 0\n"
	  "PLAINTEXT = 00000000000000000000 000000000000\n",
	  3, "invalid hex digit at character 21" },
	{ "odd.rsp",
	  "[ENCRYPT]\n\nCOUNT = 0\nCIPHERTEXT = 000\n",
	  4, "odd number of hex digits (3)" },
	{ "partial.rsp",
	  "[ENCRYPT]\nCOUNT = 0\nPLAINTEXT = 000000000000000000000000000000\n",
	  3, "15 bytes, not a whole number of 16-byte blocks" },
	{ "partial2.rsp",
	  "[ENCRYPT]\nCOUNT = 0\nPLAINTEXT = "
	  "0000000000000000000000000000000000000000000000000000000000000000"
	  "00\n",
	  3, "33 bytes, not a whole number" },
	{ "keylen.rsp",
	  "[ENCRYPT]\nCOUNT = 0\n"
	  "KEY = 0123456789abcdef0123456789abcdef01234567\n",
	  3, "KEY is 20 bytes; AES keys are 16, 24 or 32 bytes" },
	{ "keylen-empty.rsp",
	  "[ENCRYPT]\nCOUNT = 0\nKEY =\n",
	  3, "KEY has no value" },
	{ "mismatch.rsp",
	  "[ENCRYPT]\n\n\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "PLAINTEXT = 0000000000000000000000000000000000000000000000000000"
	  "000000000000\n"
	  "CIPHERTEXT = 00000000000000000000000000000000\n",
	  4, "PLAINTEXT is 32 bytes but CIPHERTEXT is 16 bytes" },
	{ "before.rsp",
	  "# header\n\nCOUNT = 0\n[ENCRYPT]\n",
	  3, "entry before any [ENCRYPT] or [DECRYPT] section" },
	{ "section.rsp",
	  "# header\n[ENCRYPT]\n\n[FOO]\n",
	  4, "unknown section (expected [ENCRYPT] or [DECRYPT])" },
	{ "section-first.rsp",
	  "[KEYLEN = 128]\n",
	  1, "unknown section (expected" },
	{ "twice.rsp",
	  "[ENCRYPT]\nCOUNT = 0\nKEY = 00000000000000000000000000000000\n"
	  "COUNT = 1\n",
	  4, "COUNT given twice" },
	{ "noeq.rsp",
	  "[ENCRYPT]\nCOUNT 0\n",
	  2, "expected NAME = VALUE" },
	{ "count.rsp",
	  "[ENCRYPT]\nCOUNT = 1x\n",
	  2, "COUNT: not a decimal number" },
	{ "count-big.rsp",
	  "[ENCRYPT]\nCOUNT = 123456789012345678901234567890\n",
	  2, "COUNT: number too large" },
	{ "empty.rsp", "", 1, "no vector entries" },
	{ "comments.rsp", "# only\n# comments\n\n", 3, "no vector entries" },
	{ "sections-only.rsp", "[ENCRYPT]\n\n[DECRYPT]\n", 3,
	  "no vector entries" },
	{ "ECBMCT128.rsp",
	  "# AESVS MCT test data for ECB\n[ENCRYPT]\nCOUNT = 0\n"
	  "PLAINTEXT = 0000000000000000000000000000000000000000000000000000"
	  "000000000000\n",
	  4, "Monte Carlo entries are one block" },
	{ "ECBMCT256.rsp",
	  "# AESVS MMT test data for ECB\n[ENCRYPT]\n",
	  2, "cannot tell the vector set" },
	{ "quic-mask.txt",
	  "HP_KEY = 9f50449e04a0e810283a1e9933adedd2\n"
	  "SAMPLE = d1b1c98dd7689fb8ec11d242b123dc9b\n"
	  "MASK = 437b9aec\n",
	  3, "MASK is 4 bytes; must be 5" },
	{ "quic-sample.txt",
	  "HP_KEY = 9f50449e04a0e810283a1e9933adedd2\n"
	  "SAMPLE = d1b1c98dd7689fb8ec11d242b123dc\n",
	  2, "SAMPLE is 15 bytes; must be 16" },
	{ "quic-missing.txt",
	  "# x\n\nHP_KEY = 9f50449e04a0e810283a1e9933adedd2\n"
	  "SAMPLE = d1b1c98dd7689fb8ec11d242b123dc9b\n\n",
	  3, "record has no MASK" },
	{ "quic-count.txt",
	  "HP_KEY = 9f50449e04a0e810283a1e9933adedd2\nCOUNT = 0\n",
	  2, "unknown field COUNT" },
	{ "quic-section.txt",
	  "HP_KEY = 9f50449e04a0e810283a1e9933adedd2\n[ENCRYPT]\n",
	  2, "unexpected section line in a QUIC" },
	{ "quic-key.txt",
	  "HP_KEY = 9f50449e04a0e810283a1e9933adedd2aa\n",
	  1, "HP_KEY is 17 bytes" },
	{ "nul.rsp",
	  "[ENCRYPT]\nCOUNT = 0\0\n",
	  2, "NUL byte" },
	{ "junk.rsp",
	  "[ENCRYPT]\n\x01\x02\x03\n",
	  2, "expected NAME = VALUE" },
	/* lines that hold key digits: the message describes, never quotes */
	{ "colon.rsp",
	  "[ENCRYPT]\nCOUNT = 0\nKEY: 0123456789abcdef0123456789abcdef\n",
	  3, "expected NAME = VALUE" },
	{ "keyname.rsp",
	  "[ENCRYPT]\nCOUNT = 0\n0123456789abcdef0123456789abcdef = 1\n",
	  3, "unknown field name" },
	{ "keysection.rsp",
	  "[ENCRYPT]\n[0123456789abcdef0123456789abcdef]\n",
	  2, "unknown section" },
	{ "quic-colon.txt",
	  "HP_KEY: 9f50449e04a0e810283a1e9933adedd2\n",
	  1, "expected NAME = VALUE" },
	{ "quic-keysection.txt",
	  "HP_KEY = 9f50449e04a0e810283a1e9933adedd2\n"
	  "[9f50449e04a0e810283a1e9933adedd2]\n",
	  2, "unexpected section line" },
};

static size_t bad_len(const struct bad_case *c)
{
	/* the NUL case carries an embedded NUL byte */
	if (strcmp(c->name, "nul.rsp") == 0)
		return strlen(c->text) + 2;
	return strlen(c->text);
}

START_TEST(test_malformed)
{
	const struct bad_case *c = &bad_cases[_i];
	struct seen s;
	struct vec_error err;
	const char *p = write_bytes(c->name, c->text, bad_len(c));
	int r;

	r = read_file(p, &s, NULL, &err);
	ck_assert_msg(r == VEC_EFORMAT, "%s: result %d (%s)", c->name, r,
	              err.msg);
	ck_assert_int_eq(err.code, VEC_EFORMAT);
	ck_assert_msg(err.line == c->line, "%s: line %lu, expected %lu (%s)",
	              c->name, err.line, c->line, err.msg);
	ck_assert_msg(strstr(err.msg, c->msg) != NULL,
	              "%s: message \"%s\" lacks \"%s\"", c->name, err.msg,
	              c->msg);
	ck_assert_int_eq(s.n, 0);
	/* key digits never appear in a message */
	ck_assert_msg(strstr(err.msg, "0123456789abcdef") == NULL &&
	              strstr(err.msg, "9f50449e") == NULL, "%s: %s", c->name,
	              err.msg);
	unlink(p);

	/* the same with CRLF line endings gives the same line */
	if (strcmp(c->name, "nul.rsp") != 0) {
		char *crlf = to_crlf(c->text);

		p = write_text(c->name, crlf);
		free(crlf);
		r = read_file(p, &s, NULL, &err);
		ck_assert_msg(r == VEC_EFORMAT && err.line == c->line,
		              "%s (CRLF): result %d line %lu (%s)", c->name, r,
		              err.line, err.msg);
		unlink(p);
	}
}
END_TEST

START_TEST(test_long_lines)
{
	const size_t max_hex = VEC_VALUE_MAX_HEX;
	size_t size = 3 * (max_hex + 64) + VEC_LINE_MAX + 256, n = 0;
	char *text = malloc(size);
	struct seen s;
	struct vec_info info;
	struct vec_error err;
	const char *p;

	ck_assert(text != NULL);
	/* the longest values accepted */
	n += (size_t)sprintf(text + n, "[ENCRYPT]\nCOUNT = 0\n"
	                     "KEY = 00000000000000000000000000000000\n"
	                     "PLAINTEXT = ");
	memset(text + n, 'a', max_hex);
	n += max_hex;
	n += (size_t)sprintf(text + n, "\nCIPHERTEXT = ");
	memset(text + n, 'b', max_hex);
	n += max_hex;
	text[n++] = '\n';
	p = write_bytes("long.rsp", text, n);
	ck_assert_int_eq(read_file(p, &s, &info, &err), VEC_OK);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(s.e[0].text_len, VEC_VALUE_MAX);
	ck_assert_uint_eq(s.e[0].pt0, 0xaa);
	unlink(p);

	/* one digit more: the value is refused */
	n = (size_t)sprintf(text, "[ENCRYPT]\nCOUNT = 0\nPLAINTEXT = ");
	memset(text + n, 'a', max_hex + 2);
	n += max_hex + 2;
	text[n++] = '\n';
	p = write_bytes("long2.rsp", text, n);
	ck_assert_int_eq(read_file(p, &s, NULL, &err), VEC_EFORMAT);
	ck_assert_uint_eq(err.line, 3);
	ck_assert_msg(strstr(err.msg, "value too long") != NULL, "%s",
	              err.msg);
	unlink(p);

	/* a line over the limit: refused, not cut (also a comment line) */
	n = (size_t)sprintf(text, "[ENCRYPT]\n\n# ");
	memset(text + n, 'x', VEC_LINE_MAX);
	n += VEC_LINE_MAX;
	text[n++] = '\n';
	p = write_bytes("long3.rsp", text, n);
	ck_assert_int_eq(read_file(p, &s, NULL, &err), VEC_EFORMAT);
	ck_assert_uint_eq(err.line, 3);
	ck_assert_msg(strstr(err.msg, "line too long") != NULL, "%s",
	              err.msg);
	unlink(p);

	/* exactly VEC_LINE_MAX characters plus CRLF: the CR counts */
	n = (size_t)sprintf(text, "[ENCRYPT]\n#");
	memset(text + n, 'x', VEC_LINE_MAX - 1);
	n += VEC_LINE_MAX - 1;
	text[n++] = '\n';
	p = write_bytes("long4.rsp", text, n);
	ck_assert_int_eq(read_file(p, &s, NULL, &err), VEC_EFORMAT);
	ck_assert_msg(strstr(err.msg, "no vector entries") != NULL, "%s",
	              err.msg);
	text[n - 1] = '\r';
	text[n++] = '\n';
	p = write_bytes("long4.rsp", text, n);
	ck_assert_int_eq(read_file(p, &s, NULL, &err), VEC_EFORMAT);
	ck_assert_msg(strstr(err.msg, "line too long") != NULL, "%s",
	              err.msg);
	unlink(p);
	free(text);
}
END_TEST

/* ------------------------------------------------------------------ */
/* gzip */

static size_t gz_file(const char *path, const char *text)
{
	gzFile gz = gzopen(path, "wb9");
	FILE *f;
	long n;

	ck_assert(gz != NULL);
	ck_assert_int_eq(gzwrite(gz, text, (unsigned)strlen(text)),
	                 (int)strlen(text));
	ck_assert_int_eq(gzclose(gz), Z_OK);
	f = fopen(path, "rb");
	ck_assert(f != NULL);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	fclose(f);
	ck_assert(n > 20);
	return (size_t)n;
}

static unsigned char *slurp(const char *path, size_t n)
{
	unsigned char *b = malloc(n);
	FILE *f = fopen(path, "rb");

	ck_assert(b != NULL && f != NULL);
	ck_assert_uint_eq(fread(b, 1, n, f), n);
	fclose(f);
	return b;
}

START_TEST(test_gzip)
{
	char *crlf = to_crlf(rsp_text);
	const char *p = tpath("ECBGFSbox128.rsp.gz");
	char path[512];
	size_t n = gz_file(p, crlf), cut;
	unsigned char *data;
	struct seen s;
	struct vec_info info;
	struct vec_error err;

	snprintf(path, sizeof path, "%s", p);
	free(crlf);
	ck_assert_int_eq(read_file(path, &s, &info, &err), VEC_OK);
	check_rsp_entries(&s);
	data = slurp(path, n);

	/* cut anywhere: header, deflate data, trailer */
	for (cut = 1; cut < n; cut++) {
		const char *q = write_bytes("cut.rsp.gz", data, cut);
		int r = read_file(q, &s, NULL, &err);

		ck_assert_msg(r == VEC_EFORMAT,
		              "gzip cut at %zu of %zu bytes: result %d", cut, n,
		              r);
		if (cut >= 10)
			ck_assert_msg(strstr(err.msg, "truncated gzip") != NULL,
			              "cut at %zu: %s", cut, err.msg);
		ck_assert(err.line >= 1);
	}

	/* a damaged byte in the compressed data or the CRC */
	data[n / 2] ^= 0x55;
	p = write_bytes("bad.rsp.gz", data, n);
	ck_assert_int_eq(read_file(p, &s, NULL, &err), VEC_EFORMAT);
	data[n / 2] ^= 0x55;
	data[n - 6] ^= 0x01;
	p = write_bytes("bad.rsp.gz", data, n);
	ck_assert_int_eq(read_file(p, &s, NULL, &err), VEC_EFORMAT);
	ck_assert_msg(strstr(err.msg, "corrupt gzip") != NULL, "%s", err.msg);
	unlink(p);
	unlink(tpath("cut.rsp.gz"));
	unlink(path);
	free(data);
}
END_TEST

/* gzip members one after the other are one file (RFC 1952, 2.2); bytes
 * after the last member are an error naming where they are. */
START_TEST(test_gzip_members)
{
	const char *p = tpath("members.rsp.gz");
	size_t n = gz_file(p, rsp_text), i;
	unsigned char *data = slurp(p, n), *two = malloc(2 * n + 8);
	static const char *const tails[] = { "\n", "x", "\0", "\x1f",
	                                     "\x1f\x8b", "garbage\n" };
	struct seen s;
	struct vec_info info;
	struct vec_error err;
	size_t one;

	ck_assert(two != NULL);
	ck_assert_int_eq(read_file(p, &s, &info, &err), VEC_OK);
	one = info.entries;
	/* two members: the entries of both */
	memcpy(two, data, n);
	memcpy(two + n, data, n);
	p = write_bytes("members.rsp.gz", two, 2 * n);
	ck_assert_int_eq(read_file(p, &s, &info, &err), VEC_OK);
	ck_assert_uint_eq(info.entries, 2 * one);
	ck_assert_uint_eq(info.bytes, 2 * n);
	/* one member, then bytes that are not another one */
	for (i = 0; i < sizeof tails / sizeof tails[0]; i++) {
		size_t k = i == 2 ? 1 : strlen(tails[i]);
		int r;

		memcpy(two + n, tails[i], k);
		p = write_bytes("members.rsp.gz", two, n + k);
		r = read_file(p, &s, NULL, &err);
		ck_assert_msg(r == VEC_EFORMAT, "tail %zu: result %d", i, r);
		if (tails[i][0] != '\x1f')
			ck_assert_msg(strstr(err.msg, "trailing data after the "
			                      "gzip stream") != NULL,
			              "tail %zu: %s", i, err.msg);
		ck_assert(err.line >= 1);
	}
	unlink(p);
	free(data);
	free(two);
}
END_TEST

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

/* What reading a file allocated (the parser, zlib's window and state) is
 * wiped when it is freed: the memory malloc hands out afterwards holds
 * neither the key's text nor its bytes. */
START_TEST(test_wipe)
{
	static const unsigned char bytes[8] = {
		0x5a, 0x17, 0xc0, 0xde, 0x5a, 0x17, 0xc0, 0xde
	};
	static const size_t sizes[] = { 64, 1024, 7200, 8192, 16384, 32768,
	                                40000, 65536, 300000, 1 << 20 };
	const char *p = tpath("wipe.rsp.gz");
	char *text = malloc(200000);
	unsigned char *blocks[16];
	struct seen s;
	struct vec_error err;
	size_t i, k, j, n = 0, hits = 0;

	ck_assert(text != NULL);
	if (!HEAP_REUSED) {
		printf("SKIP: wipe: the sanitizer's allocator does not reuse "
		       "freed memory\n");
		free(text);
		return;
	}
	n += (size_t)sprintf(text, "[ENCRYPT]\n\n");
	for (i = 0; i < 1000; i++)
		n += (size_t)sprintf(text + n, "COUNT = %zu\nKEY = 5a17c0de5a17c0de"
		                     "5a17c0de5a17c0de\nPLAINTEXT = %032zu\n"
		                     "CIPHERTEXT = %032zu\n\n", i, i, i);
	gz_file(p, text);
	free(text);
	ck_assert_int_eq(read_file(p, &s, NULL, &err), VEC_OK);
	unlink(p);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		for (k = 0; k < 16; k++) {
			unsigned char *b = blocks[k] = malloc(sizes[i]);

			ck_assert(b != NULL);
			for (j = 0; j + 12 <= sizes[i]; j++)
				if (memcmp(b + j, bytes, 8) == 0 ||
				    memcmp(b + j, "5a17c0de5a17", 12) == 0) {
					hits++;
					break;
				}
		}
		for (k = 0; k < 16; k++)
			free(blocks[k]);
	}
	ck_assert_msg(hits == 0, "%zu blocks hold the key after the file was "
	              "read", hits);
}
END_TEST

/* Random damage never crashes or reads out of bounds (run under
 * valgrind to see the latter) and gives OK or a format error. */
START_TEST(test_mutations)
{
	size_t n = strlen(rsp_text), i;
	char *buf = malloc(n + 64);
	uint32_t x = 12345;
	struct seen s;
	struct vec_error err;

	ck_assert(buf != NULL);
	for (i = 0; i < 3000; i++) {
		size_t len = n, k, flips;
		int r;
		const char *p;

		memcpy(buf, rsp_text, n);
		x = x * 1103515245u + 12345u;
		flips = 1 + (x >> 16) % 4;
		for (k = 0; k < flips; k++) {
			x = x * 1103515245u + 12345u;
			buf[(x >> 8) % n] = (char)(x >> 24);
		}
		x = x * 1103515245u + 12345u;
		if ((x >> 20) % 3 == 0)
			len = (x >> 4) % n;
		p = write_bytes("mut.rsp", buf, len);
		r = read_file(p, &s, NULL, &err);
		ck_assert_msg(r == VEC_OK || r == VEC_EFORMAT,
		              "mutation %zu: result %d", i, r);
		ck_assert(strlen(err.msg) < sizeof err.msg);
	}
	unlink(tpath("mut.rsp"));
	free(buf);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Classification */

START_TEST(test_classify)
{
	ck_assert_int_eq(vec_classify("ECBMCT128.rsp", NULL), VEC_SET_MCT);
	ck_assert_int_eq(vec_classify("dir.MMT/ECBMCT192.rsp.gz",
	                              "AESVS MCT test data for ECB\n"),
	                 VEC_SET_MCT);
	ck_assert_int_eq(vec_classify("x.rsp", " AESVS MCT test data\n"),
	                 VEC_SET_MCT);
	ck_assert_int_eq(vec_classify("x.rsp", "Monte Carlo test\n"),
	                 VEC_SET_MCT);
	ck_assert_int_eq(vec_classify("mybox/mct-aes.rsp", NULL), VEC_SET_MCT);
	ck_assert_int_eq(vec_classify("ECBMMT256.rsp.gz", NULL), VEC_SET_MMT);
	ck_assert_int_eq(vec_classify("x.rsp", "AESVS MMT test data\n"),
	                 VEC_SET_MMT);
	ck_assert_int_eq(vec_classify("ECBGFSbox128.rsp", NULL), VEC_SET_KAT);
	ck_assert_int_eq(vec_classify("ECBVarTxt256.rsp",
	                              "AESVS VarTxt test data for ECB\n"),
	                 VEC_SET_KAT);
	ck_assert_int_eq(vec_classify("fips197.rsp", "plain words\n"),
	                 VEC_SET_KAT);
	/* header words must be whole words */
	ck_assert_int_eq(vec_classify("x.rsp", "EMCTX MMTS\n"), VEC_SET_KAT);
	/* contradictions are refused */
	ck_assert_int_eq(vec_classify("ECBMCT128.rsp", "AESVS MMT test\n"), -1);
	ck_assert_int_eq(vec_classify("ECBVarKey128.rsp", "Monte Carlo\n"), -1);
	ck_assert_int_eq(vec_classify("x.rsp", "KAT and MCT\n"), -1);

	ck_assert_int_eq(vec_format_of_name("a/b.rsp"), VEC_FMT_RSP);
	ck_assert_int_eq(vec_format_of_name("b.RSP.GZ"), VEC_FMT_RSP);
	ck_assert_int_eq(vec_format_of_name("quic-hp.txt"), VEC_FMT_QUIC);
	ck_assert_int_eq(vec_format_of_name("quic-hp.txt.gz"), VEC_FMT_QUIC);
	ck_assert_int_eq(vec_format_of_name("README.md"), VEC_FMT_AUTO);
	ck_assert_int_eq(vec_format_of_name("x.gz"), VEC_FMT_AUTO);

	ck_assert_str_eq(vec_set_name(VEC_SET_KAT), "KAT");
	ck_assert_str_eq(vec_set_name(VEC_SET_MCT), "MCT");
}
END_TEST

START_TEST(test_classify_file)
{
	static const char mct[] =
		"# CAVS 11.1\n# AESVS MCT test data for ECB\n\n[ENCRYPT]\n\n"
		"COUNT = 0\nKEY = 139a35422f1d61de3c91787fe0507afd\n"
		"PLAINTEXT = b9145a768b7dc489a096b546f43b231f\n"
		"CIPHERTEXT = d7c3ffac9031238650901e157364c386\n";
	struct seen s;
	struct vec_info info;
	struct vec_error err;
	const char *p;

	/* by header alone */
	p = write_text("plain-name.rsp", mct);
	ck_assert_int_eq(read_file(p, &s, &info, &err), VEC_OK);
	ck_assert_int_eq(info.set, VEC_SET_MCT);
	ck_assert_int_eq(s.e[0].set, VEC_SET_MCT);
	unlink(p);
	/* comments after the first section are not header */
	p = write_text("plain2.rsp", "[ENCRYPT]\n# Monte Carlo MMT KAT\n"
	               "COUNT = 0\nKEY = 139a35422f1d61de3c91787fe0507afd\n"
	               "PLAINTEXT = b9145a768b7dc489a096b546f43b231f\n"
	               "CIPHERTEXT = d7c3ffac9031238650901e157364c386\n");
	ck_assert_int_eq(read_file(p, &s, &info, &err), VEC_OK);
	ck_assert_int_eq(info.set, VEC_SET_KAT);
	unlink(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Monte Carlo */

static void unhex(uint8_t *out, const char *hex)
{
	size_t i, n = strlen(hex) / 2;

	for (i = 0; i < n; i++) {
		unsigned v;

		ck_assert(sscanf(hex + 2 * i, "%2x", &v) == 1);
		out[i] = (uint8_t)v;
	}
}

START_TEST(test_mct_key_update)
{
	uint8_t key[32], prev[16], last[16], want[32];
	size_t i;

	for (i = 0; i < 16; i++) {
		prev[i] = (uint8_t)(0x10 + i);
		last[i] = (uint8_t)(0x20 + i);
	}
	/* 128: key ^= last */
	memset(key, 0, sizeof key);
	mct_next_key(key, 16, prev, last);
	unhex(want, "202122232425262728292a2b2c2d2e2f");
	ck_assert_mem_eq(key, want, 16);
	/* 192: key ^= last 8 bytes of prev || last */
	memset(key, 0, sizeof key);
	mct_next_key(key, 24, prev, last);
	unhex(want, "18191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f");
	ck_assert_mem_eq(key, want, 24);
	/* 256: key ^= prev || last */
	memset(key, 0, sizeof key);
	mct_next_key(key, 32, prev, last);
	unhex(want, "101112131415161718191a1b1c1d1e1f"
	            "202122232425262728292a2b2c2d2e2f");
	ck_assert_mem_eq(key, want, 32);
	/* it is an XOR into the existing key */
	memset(key, 0xff, sizeof key);
	mct_next_key(key, 16, prev, last);
	unhex(want, "dfdedddcdbdad9d8d7d6d5d4d3d2d1d0");
	ck_assert_mem_eq(key, want, 16);
	ck_assert_uint_eq(key[16], 0xff);
}
END_TEST

/* COUNT 0 and the KEY and input of COUNT 1 of the NIST CAVP ECB Monte
 * Carlo files (ECBMCT128/192/256.rsp), both sections. */
static const struct mct_case {
	int decrypt;
	const char *key0, *in0, *out0, *key1;
} mct_cases[] = {
	{ 0, "139a35422f1d61de3c91787fe0507afd",
	  "b9145a768b7dc489a096b546f43b231f",
	  "d7c3ffac9031238650901e157364c386",
	  "c459caeebf2c42586c01666a9334b97b" },
	{ 1, "0c60e7bf20ada9baa9e1ddf0d1540726",
	  "b08a29b11a500ea3aca42c36675b9785",
	  "b613b87085fed1bb87f07a574e6d2879",
	  "ba735fcfa55378012e11a7a79f392f5f" },
	{ 0, "b9a63e09e1dfc42e93a90d9bad739e5967aef672eedd5da9",
	  "85a1f7a58167b389cddc8a9ff175ee26",
	  "ee83d85279e022d2048031abeefbc4a4",
	  "3aaa458160ee54c97d2ad5c9d493bc8b632ec7d90026990d" },
	{ 1, "4b97585701c03fbebdfa8555024f589f1482c58a00fdd9fd",
	  "d0bd0e02ded155e4516be83f42d347a4",
	  "c7b6581ccc88f7fc26d15d2731e7251b",
	  "3c98c80336e0f13f7a4cdd49cec7af63325398ad311afce6" },
	{ 0, "f9e8389f5b80712e3886cc1fa2d28a3b8c9cd88a2d4a54c6aa86ce0fef944be0",
	  "b379777f9050e2a818f2940cbbd9aba4",
	  "6893ebaf0a1fccc704326529fdfb60db",
	  "db9ea5a2284fa17fb63e13bf891c8e42e40f332527559801aeb4ab26126f2b3b" },
	{ 1, "2b09ba39b834062b9e93f48373b8dd018dedf1e5ba1b8af831ebbacbc92a2643",
	  "89649bd0115f30bd878567610223a59d",
	  "1f9b9b213f1884fa98b62dd6639fd33b",
	  "58ac71619fdc3ac73a17f285319e1cd492766ac485030e02a95d971daab5f578" },
};

START_TEST(test_mct_backends)
{
	size_t b, nb = aesecb_backend_count(), ran = 0;

	for (b = 0; b < nb; b++) {
		const aesecb_backend *be = aesecb_backend_get(b);
		size_t i;

		if (!aesecb_backend_available(be)) {
			printf("check_vecfile: Monte Carlo under %s: SKIPPED "
			       "(%s)\n", aesecb_backend_name(be),
			       aesecb_backend_unavailable_reason(be));
			continue;
		}
		for (i = 0; i < sizeof mct_cases / sizeof mct_cases[0]; i++) {
			const struct mct_case *c = &mct_cases[i];
			uint8_t key[32], in[16], want[16], key1[32];
			uint8_t prev[16], last[16];
			size_t klen = strlen(c->key0) / 2;
			aesecb_ctx ctx;

			unhex(key, c->key0);
			unhex(in, c->in0);
			unhex(want, c->out0);
			unhex(key1, c->key1);
			ck_assert_int_eq(aesecb_init(&ctx, key, klen, be),
			                 AESECB_OK);
			ck_assert_int_eq(mct_inner(&ctx, c->decrypt, in,
			                               prev, last), 0);
			ck_assert_msg(memcmp(last, want, 16) == 0,
			              "%s: Monte Carlo case %zu: wrong result",
			              aesecb_backend_name(be), i);
			/* output 998 is the input of the last call */
			{
				uint8_t again[16];

				ck_assert_int_eq(c->decrypt ?
				    aesecb_decrypt(&ctx, prev, again, 16) :
				    aesecb_encrypt(&ctx, prev, again, 16),
				    AESECB_OK);
				ck_assert_mem_eq(again, last, 16);
			}
			mct_next_key(key, klen, prev, last);
			ck_assert_msg(memcmp(key, key1, klen) == 0,
			              "%s: Monte Carlo case %zu: key update "
			              "does not give COUNT 1's KEY",
			              aesecb_backend_name(be), i);
			/* a context agrees with itself all the way */
			ck_assert_int_eq(mct_diverge(&ctx, &ctx,
			                                 c->decrypt, in), -1);
			aesecb_clear(&ctx);
			aesecb_wipe(key, sizeof key);
		}
		printf("check_vecfile: Monte Carlo under %s: passed\n",
		       aesecb_backend_name(be));
		ran++;
	}
	ck_assert_msg(ran > 0, "no backend ran");
}
END_TEST

START_TEST(test_mct_diverge)
{
	/* two different keys: outputs differ at the first call */
	static const uint8_t k1[16] = { 1 }, k2[16] = { 2 }, in[16] = { 0 };
	aesecb_ctx a, b;

	ck_assert_int_eq(aesecb_init(&a, k1, 16, aesecb_backend_find("none")),
	                 AESECB_OK);
	ck_assert_int_eq(aesecb_init(&b, k2, 16, aesecb_backend_find("none")),
	                 AESECB_OK);
	ck_assert_int_eq(mct_diverge(&a, &b, 0, in), 0);
	ck_assert_int_eq(mct_diverge(&a, &a, 1, in), -1);
	aesecb_clear(&a);
	aesecb_clear(&b);
}
END_TEST

/* ------------------------------------------------------------------ */

static Suite *suite(void)
{
	Suite *s = suite_create("vecfile");
	TCase *tc;

	tc = tcase_create("read");
	tcase_add_test(tc, test_lf);
	tcase_add_test(tc, test_crlf);
	tcase_add_test(tc, test_field_order);
	tcase_add_test(tc, test_quic);
	tcase_add_test(tc, test_stop_and_missing);
	tcase_add_loop_test(tc, test_malformed, 0,
	                    (int)(sizeof bad_cases / sizeof bad_cases[0]));
	tcase_add_test(tc, test_long_lines);
	suite_add_tcase(s, tc);

	tc = tcase_create("gzip");
	tcase_add_test(tc, test_gzip);
	tcase_add_test(tc, test_gzip_members);
	tcase_add_test(tc, test_wipe);
	tcase_add_test(tc, test_mutations);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("classify");
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_classify_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("montecarlo");
	tcase_add_test(tc, test_mct_key_update);
	tcase_add_test(tc, test_mct_backends);
	tcase_add_test(tc, test_mct_diverge);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;

	make_tmpdir();
	sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	remove_tmpdir();
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
