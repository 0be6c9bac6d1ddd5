/* SPDX-License-Identifier: MIT */
/*
 * cmd_verify.c - aesecb verify: check NIST CAVP response files, QUIC
 * header-protection vectors and NIST ACVP vector sets under every backend,
 * and (--random) random cases on which every backend must agree.
 *
 * Every file is first read and validated (a malformed file stops the run
 * before any backend is tried).  Then each file is read once more and each
 * entry is checked under every backend as it is read, so memory does not
 * grow with the file (an ACVP set is loaded whole: JSON has no streaming
 * reader here).  What is checked:
 *   KAT, MMT  one aesecb_encrypt/aesecb_decrypt call over the whole text;
 *   MCT       the AESAVS Monte Carlo inner loop of 1000 one-block calls
 *             from the entry's KEY and input, compared with its result;
 *             and, where the previous entry of the section passed and has
 *             the previous COUNT, the entry's KEY and input must follow
 *             from it by the key update rule (ACVP: the whole chain of
 *             100 iterations, see acvp.h);
 *   QUIC      aesecb_hp_mask against MASK, and aesecb_encrypt against
 *             BLOCK when the record has one;
 *   AFT       ACVP: one call over the test's blocks;
 *   RANDOM    the same random case under every available backend: each
 *             result must equal every other backend's.
 * Only the first SHOW_MAX failures per backend and file are kept (and
 * shown, and listed by --json); the rest are counted.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

#include "acvp.h"
#include "cli.h"
#include "mct.h"
#include "num.h"
#include "randvec.h"
#include "timing.h"
#include "vecfile.h"

#ifndef AESECB_VECTORS_INSTALLED
#define AESECB_VECTORS_INSTALLED NULL
#endif
#ifndef AESECB_VECTORS_SRCDIR
#define AESECB_VECTORS_SRCDIR NULL
#endif

/* Failures kept (printed, listed by --json) per backend and file; the
 * rest are counted. */
#define SHOW_MAX 10
/* Messages kept for the --json report of an error. */
#define ERR_MAX 16

/* Kinds of vectors: the columns of the report.  The first four are the
 * vecfile sets (enum vec_set). */
enum {
	K_KAT = VEC_SET_KAT, K_MMT = VEC_SET_MMT, K_MCT = VEC_SET_MCT,
	K_QUIC = VEC_SET_QUIC, K_AFT = VEC_NSETS, K_RANDOM, NKINDS
};
static const char *const kind_names[NKINDS] = {
	[K_KAT] = "KAT", [K_MMT] = "MMT", [K_MCT] = "MCT", [K_QUIC] = "QUIC",
	[K_AFT] = "AFT", [K_RANDOM] = "RANDOM"
};

enum ftype { F_VEC, F_ACVP, F_RANDOM };

struct vfile {
	char *path;
	int type;             /* enum ftype */
	int format;           /* F_VEC: enum vec_format */
	int kind;             /* F_VEC: its kind; else -1 (several) */
	unsigned long n;      /* entries (ACVP: tests; RANDOM: cases) */
	unsigned long good;   /* entries that passed under every backend */
};

/* One failure, self-contained (nothing points into a file's entries). */
struct failure {
	size_t file;
	int kind;
	unsigned long line;       /* 0: none */
	char where[96];           /* "[ENCRYPT] COUNT = 3", "tgId 4, tcId 6" */
	const char *section;      /* "ENCRYPT", "DECRYPT" or NULL */
	unsigned long count;      /* COUNT, QUIC record, random case */
	unsigned long tgid, tcid; /* ACVP */
	char jpath[160];          /* ACVP: JSON path of the expected value */
	char field[16];
	char expected[33], actual[33];  /* hex of the block shown, or "" */
	size_t block, nblocks;    /* that block (1-based) of nblocks */
	long outer, inner;        /* Monte Carlo iterations, or -1 */
	const char *ref;          /* backend that located the inner one, or
	                             the backend a random result differs from */
	char note[160];
};

struct brun {
	const aesecb_backend *be;
	unsigned long pass[NKINDS], total[NKINDS];
	unsigned long *file_pass;
	unsigned long *file_fail;   /* failures per file (kept or not) */
	struct failure *f;          /* kept: at most SHOW_MAX per file */
	size_t nf, capf;
	double seconds;
	struct mct_chain chain;     /* the current response file's */
};

struct verify {
	struct vfile *files;
	size_t nfiles, capfiles;
	struct brun *runs;
	size_t nruns;
	const aesecb_backend *skipped[16];
	size_t nskipped;
	const aesecb_backend *avail[16];  /* every available backend */
	size_t navail;
	const char *dir, *dir_source;     /* default vector set, if used */
	int json, quiet;
	int random;                       /* --random given */
	unsigned long random_n;
	uint64_t seed;
	/* errors, for --json */
	char errors[ERR_MAX][400];
	size_t nerrors;
	/* an ACVP set kept from validation to be checked without reading
	   it again (when it is the only file), or NULL */
	struct acvp_set *kept;
	/* the file being checked */
	size_t cur;
	int oom;
	uint8_t out[VEC_VALUE_MAX > RV_OUT_MAX ? VEC_VALUE_MAX : RV_OUT_MAX];
};

/* An error: printed as always, and kept for the --json report. */
static void verr(struct verify *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void verr(struct verify *v, const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	cli_err("%s", buf);
	if (v->nerrors < ERR_MAX)
		memcpy(v->errors[v->nerrors++], buf, sizeof buf);
}

static void *xrealloc(void *p, size_t n, size_t size)
{
	if (size != 0 && n > (size_t)-1 / size)
		return NULL;
	return realloc(p, n * size);
}

static int add_file(struct verify *v, const char *path, int type, int format)
{
	struct vfile *f;

	if (v->nfiles == v->capfiles) {
		size_t cap = v->capfiles ? 2 * v->capfiles : 32;
		void *p = xrealloc(v->files, cap, sizeof *v->files);

		if (p == NULL)
			return -1;
		v->files = p;
		v->capfiles = cap;
	}
	f = &v->files[v->nfiles];
	memset(f, 0, sizeof *f);
	f->path = strdup(path);
	if (f->path == NULL)
		return -1;
	f->type = type;
	f->format = format;
	f->kind = -1;
	v->nfiles++;
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;

	return path != NULL && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory holding prompt.json or internalProjection.json is an ACVP
 * vector set. */
static int is_acvp_dir(const char *dir)
{
	static const char *const names[] = {
		"prompt.json", "internalProjection.json"
	};
	char path[4096];
	struct stat st;
	size_t i;

	for (i = 0; i < 2; i++) {
		if (snprintf(path, sizeof path, "%s/%s", dir, names[i]) >=
		    (int)sizeof path)
			continue;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return 1;
	}
	return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect the vector files of a directory, sorted by name; with recurse
 * > 0, those of its subdirectories too (recurse levels deep), in place.
 * A subdirectory that is an ACVP set is one entry. */
static int scan_dir(struct verify *v, const char *dir, int recurse)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL, *path;
	size_t n = 0, cap = 0, i, dlen = strlen(dir);
	int rc = 0, err;

	d = opendir(dir);
	if (d == NULL) {
		verr(v, "%s: cannot read directory: %s", cli_safe(dir),
		     strerror(errno));
		return EXIT_IO;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (de == NULL)
			break;
		if (de->d_name[0] == '.' || (recurse <= 0 &&
		    vec_format_of_name(de->d_name) == VEC_FMT_AUTO))
			continue;
		if (n == cap) {
			void *p;

			cap = cap ? 2 * cap : 32;
			p = xrealloc(names, cap, sizeof *names);
			if (p == NULL) {
				rc = -1;
				break;
			}
			names = p;
		}
		names[n] = strdup(de->d_name);
		if (names[n] == NULL) {
			rc = -1;
			break;
		}
		n++;
	}
	err = errno;
	closedir(d);
	if (rc == 0 && err != 0) {
		verr(v, "%s: cannot read directory: %s", cli_safe(dir),
		     strerror(err));
		rc = EXIT_IO;
	}
	if (rc == 0 && n > 0)
		qsort(names, n, sizeof *names, cmp_names);
	for (i = 0; rc == 0 && i < n; i++) {
		struct stat st;
		int fmt = vec_format_of_name(names[i]);
		size_t plen = dlen + 1 + strlen(names[i]) + 1;

		path = malloc(plen);
		if (path == NULL) {
			rc = -1;
			break;
		}
		snprintf(path, plen, "%s%s%s", dir,
		         dlen > 0 && dir[dlen - 1] == '/' ? "" : "/", names[i]);
		/* regular files only; .txt files only in the QUIC format.  A
		 * name that cannot be followed (a dangling link) or a file
		 * that cannot be read is an error, not a file skipped. */
		if (stat(path, &st) != 0) {
			verr(v, "%s: %s", cli_safe(path), strerror(errno));
			rc = EXIT_IO;
		} else if (recurse > 0 && S_ISDIR(st.st_mode)) {
			if (is_acvp_dir(path)) {
				if (add_file(v, path, F_ACVP, 0) != 0)
					rc = -1;
			} else {
				rc = scan_dir(v, path, recurse - 1);
			}
		} else if (S_ISREG(st.st_mode) && fmt != VEC_FMT_AUTO) {
			struct vec_error verr_;
			int quic = fmt == VEC_FMT_RSP ? 1 :
			           vec_is_quic_file(path, &verr_);

			if (quic < 0) {
				verr(v, "%s: %s", cli_safe(path), cli_safe(verr_.msg));
				rc = EXIT_IO;
			} else if (quic > 0 && add_file(v, path, F_VEC, fmt) != 0) {
				rc = -1;
			}
		}
		free(path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc < 0) {
		verr(v, "out of memory");
		return EXIT_IO;
	}
	return rc;
}

static int add_path(struct verify *v, const char *path, int recurse)
{
	struct stat st;
	size_t before = v->nfiles;
	int rc;

	if (stat(path, &st) != 0) {
		verr(v, "%s: %s", cli_safe(path), strerror(errno));
		return EXIT_IO;
	}
	if (S_ISDIR(st.st_mode)) {
		if (is_acvp_dir(path))
			rc = add_file(v, path, F_ACVP, 0) != 0 ? -1 : 0;
		else
			rc = scan_dir(v, path, recurse);
		if (rc < 0) {
			verr(v, "out of memory");
			return EXIT_IO;
		}
		if (rc != 0)
			return rc;
		if (v->nfiles == before) {
			verr(v, "%s: no vector files in this directory "
			     "(*.rsp, *.rsp.gz, QUIC *.txt, or an ACVP set: "
			     "prompt.json or internalProjection.json)",
			     cli_safe(path));
			return EXIT_USAGE;
		}
		return 0;
	}
	if (add_file(v, path, has_suffix(path, ".json") ? F_ACVP : F_VEC,
	             vec_format_of_name(path)) != 0) {
		verr(v, "out of memory");
		return EXIT_IO;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Validation: every file read once before anything is checked */

static int count_entry(void *arg, const struct vec_entry *e)
{
	(void)e;
	((struct vfile *)arg)->n++;
	return 0;
}

/* The exit status of a vec_read() error, after reporting it. */
static int vec_failed(struct verify *v, const char *path, int r,
                      const struct vec_error *err)
{
	switch (r) {
	case VEC_EFORMAT:
		verr(v, "%s:%lu: %s", cli_safe(path), err->line,
		     cli_safe(err->msg));
		return EXIT_USAGE;
	case VEC_EIO:
		verr(v, "%s: %s", cli_safe(path), cli_safe(err->msg));
		return EXIT_IO;
	default:
		verr(v, "%s: out of memory", cli_safe(path));
		return EXIT_IO;
	}
}

/* The exit status of an acvp_load() error, after reporting it. */
static int acvp_failed(struct verify *v, const char *path,
                       const struct acvp_error *err)
{
	char line[4096];

	verr(v, "%s", acvp_strerror(err, path, line, sizeof line));
	switch (err->code) {
	case ACVP_EFORMAT:
	case ACVP_ENOANSWER:
		return EXIT_USAGE;
	case ACVP_ECRYPT:
		return EXIT_CHECK;
	default:
		return EXIT_IO;
	}
}

/* Read every file.  Reports every malformed one; returns the first
 * failure's exit status, or 0. */
static int validate_files(struct verify *v)
{
	size_t i;
	int status = 0;

	for (i = 0; i < v->nfiles; i++) {
		struct vfile *f = &v->files[i];
		int st = 0;

		if (f->type == F_VEC) {
			struct vec_info info;
			struct vec_error err;
			int r;

			f->n = 0;
			r = vec_read(f->path, f->format, count_entry, f, &info,
			             &err);
			if (r != VEC_OK) {
				st = vec_failed(v, f->path, r, &err);
			} else {
				f->format = info.format;
				f->kind = info.set;
			}
		} else if (f->type == F_ACVP) {
			struct acvp_set set;
			struct acvp_error err;

			if (acvp_load(f->path, &set, &err) != ACVP_OK) {
				st = acvp_failed(v, f->path, &err);
			} else {
				if (!set.has_answers) {
					verr(v, "%s: no expected results to "
					     "check against (expectedResults"
					     ".json; 'aesecb acvp' answers a "
					     "prompt)", cli_safe(set.questions));
					st = EXIT_USAGE;
				}
				f->n = set.ntests;
				if (st == 0 && v->nfiles == 1 &&
				    (v->kept = malloc(sizeof set)) != NULL)
					*v->kept = set;
				else
					acvp_free(&set);
			}
		}
		if (st != 0 && status == 0)
			status = st;
	}
	return status;
}

/* ------------------------------------------------------------------ */
/* Failures */

/* Keep a failure (the first SHOW_MAX per backend and file) and print it;
 * count it in any case.  fl is filled by the caller but for the file. */
static void add_failure(struct verify *v, struct brun *b,
                        struct failure *fl, const uint8_t *expected,
                        const uint8_t *actual, size_t n)
{
	const struct vfile *f = &v->files[v->cur];
	const char *bname = aesecb_backend_name(b->be);
	char detail[200], values[400], loc[600];

	b->file_fail[v->cur]++;
	if (b->file_fail[v->cur] > SHOW_MAX)
		return;
	fl->file = v->cur;
	fl->expected[0] = fl->actual[0] = '\0';
	if (expected != NULL && actual != NULL && n > 0) {
		/* the first 16-byte block that differs */
		size_t blk = 0, nb = (n + 15) / 16, len;

		while (blk + 1 < nb && !cli_ct_differ(expected + 16 * blk,
		                                      actual + 16 * blk,
		                                      n - 16 * blk < 16 ?
		                                      n - 16 * blk : 16))
			blk++;
		len = n - 16 * blk < 16 ? n - 16 * blk : 16;
		*cli_hex_encode(fl->expected, expected + 16 * blk, len,
		                CLI_HEX_LOWER) = '\0';
		*cli_hex_encode(fl->actual, actual + 16 * blk, len,
		                CLI_HEX_LOWER) = '\0';
		if (fl->block == 0) {  /* else the caller numbered it */
			fl->block = blk + 1;
			fl->nblocks = nb;
		}
	}
	if (b->nf == b->capf) {
		size_t cap = b->capf ? 2 * b->capf : 16;
		void *p = xrealloc(b->f, cap, sizeof *b->f);

		if (p == NULL) {
			v->oom = 1;
			return;
		}
		b->f = p;
		b->capf = cap;
	}
	b->f[b->nf++] = *fl;

	/* the line on stderr */
	detail[0] = '\0';
	if (fl->kind == K_MCT && fl->outer >= 0 && fl->inner >= 0) {
		if (fl->ref != NULL)
			snprintf(detail, sizeof detail,
			         " (Monte Carlo outer iteration %ld, inner "
			         "iteration %ld: the first output that differs "
			         "from backend %s)", fl->outer, fl->inner,
			         fl->ref);
		else
			snprintf(detail, sizeof detail,
			         " (Monte Carlo outer iteration %ld, inner "
			         "iteration %ld)", fl->outer, fl->inner);
	} else if (fl->outer >= 0) {
		snprintf(detail, sizeof detail, " (%s iteration %ld)",
		         f->type == F_ACVP ? "MCT" : "Monte Carlo outer",
		         fl->outer);
	}
	values[0] = '\0';
	if (fl->block > 0 && fl->kind == K_RANDOM)
		snprintf(values, sizeof values, "%s %zu of %zu: %s gives %s, "
		         "%s gives %s", fl->note[0] != '\0' ? fl->note : "block",
		         fl->block, fl->nblocks, fl->ref, fl->expected, bname,
		         fl->actual);
	else if (fl->block > 0 && fl->nblocks == 1)
		snprintf(values, sizeof values, "expected %s, got %s",
		         fl->expected, fl->actual);
	else if (fl->block > 0)
		snprintf(values, sizeof values,
		         "block %zu of %zu: expected %s, got %s", fl->block,
		         fl->nblocks, fl->expected, fl->actual);
	if (fl->line > 0)
		snprintf(loc, sizeof loc, "%s:%lu: %s", cli_safe(f->path),
		         fl->line, cli_safe(fl->where));
	else
		snprintf(loc, sizeof loc, "%s: %s", cli_safe(f->path),
		         cli_safe(fl->where));
	if (fl->kind == K_RANDOM)
		cli_err("%s under %s: differs from %s: %s", loc, bname,
		        fl->ref, values[0] != '\0' ? values : fl->note);
	else
		cli_err("%s under %s%s: %s %s%s%s", loc, bname, detail,
		        fl->field,
		        fl->kind != K_RANDOM && fl->note[0] != '\0' ?
		        fl->note : "",
		        fl->note[0] != '\0' && values[0] != '\0' ? ": " : "",
		        values);
}

static void failure_init(struct failure *fl, int kind)
{
	memset(fl, 0, sizeof *fl);
	fl->kind = kind;
	fl->outer = fl->inner = -1;
}

/* ------------------------------------------------------------------ */
/* Response and QUIC files: each entry under every backend as it is read */

static const char *output_field(const struct vec_entry *e)
{
	if (e->set == VEC_SET_QUIC)
		return "BLOCK";
	return e->dir == VEC_ENCRYPT ? "CIPHERTEXT" : "PLAINTEXT";
}

static const char *input_field(const struct vec_entry *e)
{
	return e->dir == VEC_ENCRYPT ? "PLAINTEXT" : "CIPHERTEXT";
}

static void entry_failure(struct failure *fl, const struct vec_entry *e,
                          const char *field)
{
	failure_init(fl, e->set);
	fl->line = e->line;
	fl->count = e->count;
	if (e->set == VEC_SET_QUIC) {
		snprintf(fl->where, sizeof fl->where, "record %lu", e->count);
	} else {
		fl->section = e->dir == VEC_ENCRYPT ? "ENCRYPT" : "DECRYPT";
		snprintf(fl->where, sizeof fl->where, "[%s] COUNT = %lu",
		         fl->section, e->count);
	}
	snprintf(fl->field, sizeof fl->field, "%s", field);
}

/* Check e under run b.  Returns 1 pass, 0 fail. */
static int check_entry(struct verify *v, struct brun *b,
                       const struct vec_entry *e)
{
	struct failure fl;
	struct mct_chain *ch = &b->chain;
	const uint8_t *in, *expect;
	uint8_t *out = v->out;
	size_t len;
	aesecb_ctx ctx;
	int rc, ok = 1;

	if (e->set == VEC_SET_QUIC) {
		in = e->sample;
		expect = e->block;
		len = 16;
	} else {
		in = e->dir == VEC_ENCRYPT ? e->plaintext : e->ciphertext;
		expect = e->dir == VEC_ENCRYPT ? e->ciphertext : e->plaintext;
		len = e->text_len;
	}
	/* a backend that writes nothing shows as zeros, not stale bytes */
	memset(out, 0, len);
	rc = aesecb_init(&ctx, e->key, e->key_len, b->be);
	if (rc != AESECB_OK) {
		entry_failure(&fl, e, "KEY");
		snprintf(fl.note, sizeof fl.note, "not checked: aesecb_init "
		         "failed: %s", aesecb_strerror(rc));
		add_failure(v, b, &fl, NULL, NULL, 0);
		ch->valid = 0;
		return 0;
	}

	switch (e->set) {
	case VEC_SET_QUIC: {
		uint8_t mask[5] = { 0 };

		aesecb_hp_mask(&ctx, in, mask);
		if (cli_ct_differ(mask, e->mask, 5)) {
			entry_failure(&fl, e, "MASK");
			add_failure(v, b, &fl, e->mask, mask, 5);
			ok = 0;
		}
		if (expect != NULL) {
			rc = aesecb_encrypt(&ctx, in, out, 16);
			if (rc != AESECB_OK || cli_ct_differ(out, expect, 16)) {
				entry_failure(&fl, e, "BLOCK");
				if (rc != AESECB_OK)
					snprintf(fl.note, sizeof fl.note, "%s",
					         aesecb_strerror(rc));
				add_failure(v, b, &fl, expect, out, 16);
				ok = 0;
			}
		}
		break;
	}
	case VEC_SET_MCT: {
		uint8_t prev[16];
		long outer = (long)e->count;

		/* linked to the previous entry by the key update rule? */
		if (mct_chain_follows(ch, e->dir, e->count)) {
			if (ch->key_len != e->key_len ||
			    cli_ct_differ(ch->key, e->key, e->key_len)) {
				entry_failure(&fl, e, "KEY");
				fl.outer = outer;
				snprintf(fl.note, sizeof fl.note, "does not follow "
				         "from COUNT = %lu by the Monte Carlo key "
				         "update rule", ch->count);
				add_failure(v, b, &fl, NULL, NULL, 0);
				ok = 0;
			}
			if (cli_ct_differ(ch->next_in, in, 16)) {
				entry_failure(&fl, e, input_field(e));
				fl.outer = outer;
				snprintf(fl.note, sizeof fl.note, "is not the "
				         "result of COUNT = %lu", ch->count);
				add_failure(v, b, &fl, ch->next_in, in, 16);
				ok = 0;
			}
		}
		ch->valid = 0;
		rc = mct_inner(&ctx, e->dir, in, prev, out);
		if (rc != AESECB_OK) {
			entry_failure(&fl, e, output_field(e));
			fl.outer = outer;
			snprintf(fl.note, sizeof fl.note, "%s",
			         aesecb_strerror(rc));
			add_failure(v, b, &fl, NULL, NULL, 0);
			ok = 0;
		} else if (cli_ct_differ(out, expect, 16)) {
			const char *ref;
			long inner = mct_locate(b->be, &ctx, e->key, e->key_len,
			                        e->dir, in, expect, &ref);

			entry_failure(&fl, e, output_field(e));
			fl.outer = outer;
			fl.inner = inner < 0 ? MCT_INNER - 1 : inner;
			fl.ref = ref;
			add_failure(v, b, &fl, expect, out, 16);
			ok = 0;
		} else {
			mct_chain_advance(ch, e->dir, e->count, e->key,
			                  e->key_len, prev, out);
		}
		aesecb_wipe(prev, sizeof prev);
		break;
	}
	default:
		rc = e->dir == VEC_ENCRYPT ?
		     aesecb_encrypt(&ctx, in, out, len) :
		     aesecb_decrypt(&ctx, in, out, len);
		if (rc != AESECB_OK || cli_ct_differ(out, expect, len)) {
			entry_failure(&fl, e, output_field(e));
			if (rc != AESECB_OK)
				snprintf(fl.note, sizeof fl.note, "%s",
				         aesecb_strerror(rc));
			add_failure(v, b, &fl, expect, out, len);
			ok = 0;
		}
		break;
	}
	aesecb_clear(&ctx);
	return ok;
}

/* vec_read() callback: the entry under every backend. */
static int check_stream(void *arg, const struct vec_entry *e)
{
	struct verify *v = arg;
	struct vfile *f = &v->files[v->cur];
	size_t r;
	int all = 1;

	for (r = 0; r < v->nruns; r++) {
		struct brun *b = &v->runs[r];
		uint64_t t0 = bench_now_ns();
		int ok = check_entry(v, b, e);

		b->seconds += (double)(bench_now_ns() - t0) / 1e9;
		b->total[e->set]++;
		if (ok) {
			b->pass[e->set]++;
			b->file_pass[v->cur]++;
		}
		all &= ok;
	}
	f->good += (unsigned long)all;
	return v->oom;
}

/* ------------------------------------------------------------------ */
/* ACVP vector sets */

struct acvp_ctx {
	struct verify *v;
	struct brun *b;
	const struct acvp_set *set;
	unsigned char *bad;       /* per test, over all groups */
	size_t *first;            /* per group: index of its first test */
};

static int acvp_fail(void *arg, const struct acvp_failure *af)
{
	struct acvp_ctx *a = arg;
	struct failure fl;
	size_t g = (size_t)(af->group - a->set->groups);
	size_t t = (size_t)(af->test - af->group->tests);

	a->bad[a->first[g] + t] = 1;
	failure_init(&fl, af->iteration >= 0 ? K_MCT : K_AFT);
	fl.tgid = af->tgid;
	fl.tcid = af->tcid;
	fl.outer = af->iteration;
	snprintf(fl.where, sizeof fl.where, "tgId %lu, tcId %lu", af->tgid,
	         af->tcid);
	snprintf(fl.jpath, sizeof fl.jpath, "%s", af->path);
	snprintf(fl.field, sizeof fl.field, "%s", af->field);
	if (af->expected == NULL)
		snprintf(fl.note, sizeof fl.note, "differs");
	add_failure(a->v, a->b, &fl, af->expected, af->actual,
	            af->expected != NULL ? af->len : 0);
	return a->v->oom;
}

static int check_acvp(struct verify *v, struct vfile *f)
{
	struct acvp_set set;
	struct acvp_error err;
	struct acvp_ctx a;
	size_t r, i, n = 0;
	int status = 0;

	if (v->kept != NULL) {
		set = *v->kept;
		free(v->kept);
		v->kept = NULL;
	} else if (acvp_load(f->path, &set, &err) != ACVP_OK) {
		return acvp_failed(v, f->path, &err);
	}
	/* messages name the file holding the answers */
	free(f->path);
	f->path = strdup(set.answers != NULL ? set.answers : set.questions);
	a.bad = calloc(set.ntests ? set.ntests : 1, 1);
	a.first = calloc(set.ngroups ? set.ngroups : 1, sizeof *a.first);
	if (f->path == NULL || a.bad == NULL || a.first == NULL) {
		verr(v, "out of memory");
		status = EXIT_IO;
		goto done;
	}
	for (i = 0; i < set.ngroups; i++) {
		a.first[i] = n;
		n += set.groups[i].ntests;
	}
	a.v = v;
	a.set = &set;
	for (r = 0; r < v->nruns && status == 0; r++) {
		struct brun *b = &v->runs[r];
		struct acvp_counts c;
		uint64_t t0 = bench_now_ns();
		int rc;

		a.b = b;
		rc = acvp_check(&set, b->be, acvp_fail, &a, &c, &err);
		b->seconds += (double)(bench_now_ns() - t0) / 1e9;
		if (rc == ACVP_OK) {
			b->total[K_AFT] += c.aft;
			b->pass[K_AFT] += c.aft_pass;
			b->total[K_MCT] += c.mct;
			b->pass[K_MCT] += c.mct_pass;
			b->file_pass[v->cur] += c.aft_pass + c.mct_pass;
		} else if (rc == ACVP_ESTOPPED || rc == ACVP_ENOMEM) {
			verr(v, "out of memory");
			status = EXIT_IO;
		} else {
			status = acvp_failed(v, f->path, &err);
		}
	}
	for (i = 0; i < n; i++)
		f->good += !a.bad[i];
done:
	free(a.bad);
	free(a.first);
	acvp_free(&set);
	return status;
}

/* ------------------------------------------------------------------ */
/* Random cases */

static void check_random(struct verify *v)
{
	static uint8_t res[16][RV_OUT_MAX];
	int rst[16];
	struct rv_rng rng;
	struct rv_case c;
	unsigned long i;
	size_t r, k;

	rv_seed(&rng, v->seed);
	for (i = 0; i < v->random_n && !v->oom; i++) {
		int all = 1;

		rv_make(&rng, i, &c);
		for (k = 0; k < v->navail; k++) {
			uint64_t t0 = bench_now_ns();

			rst[k] = rv_run(&c, v->avail[k], res[k]);
			for (r = 0; r < v->nruns; r++)
				if (v->runs[r].be == v->avail[k])
					v->runs[r].seconds += (double)
					    (bench_now_ns() - t0) / 1e9;
		}
		for (r = 0; r < v->nruns; r++) {
			struct brun *b = &v->runs[r];
			uint64_t t0 = bench_now_ns();
			int ok = 1;
			size_t me;

			for (me = 0; me < v->navail; me++)
				if (v->avail[me] == b->be)
					break;
			if (me == v->navail) {  /* not available: not run */
				me = v->navail;
				rst[me] = rv_run(&c, b->be, res[me]);
			}
			for (k = 0; k < v->navail; k++) {
				long u;
				struct failure fl;

				if (k == me)
					continue;
				u = rv_compare(&c, res[k], res[me]);
				if (u < 0 && rst[k] == rst[me])
					continue;
				ok = 0;
				failure_init(&fl, K_RANDOM);
				fl.count = i;
				fl.ref = aesecb_backend_name(v->avail[k]);
				snprintf(fl.where, sizeof fl.where,
				         "random case %lu (AES-%zu, %s, %zu "
				         "block%s)", i, 8 * c.key_len,
				         rv_op_name(c.op), c.nblocks,
				         c.nblocks == 1 ? "" : "s");
				snprintf(fl.field, sizeof fl.field, "%s",
				         rv_op_name(c.op));
				if (u < 0) {
					snprintf(fl.note, sizeof fl.note,
					         "status %d, %s gives %d",
					         rst[k], aesecb_backend_name(b->be),
					         rst[me]);
					add_failure(v, b, &fl, NULL, NULL, 0);
				} else {
					size_t unit = rv_unit_len(&c);

					snprintf(fl.note, sizeof fl.note, "%s",
					         unit == 5 ? "mask" :
					         unit == 16 ? "block" : "packet");
					/* show the unit that differs */
					fl.block = (size_t)u + 1;
					fl.nblocks = rv_out_len(&c) / unit;
					add_failure(v, b, &fl,
					            res[k] + unit * (size_t)u,
					            res[me] + unit * (size_t)u, unit);
				}
			}
			b->seconds += (double)(bench_now_ns() - t0) / 1e9;
			b->total[K_RANDOM]++;
			if (ok) {
				b->pass[K_RANDOM]++;
				b->file_pass[v->cur]++;
			}
			all &= ok;
		}
		v->files[v->cur].good += (unsigned long)all;
	}
	aesecb_wipe(res, sizeof res);
}

/* ------------------------------------------------------------------ */
/* Running */

static int run_all(struct verify *v)
{
	size_t r, fi;
	int status = 0;

	for (r = 0; r < v->nruns; r++) {
		struct brun *b = &v->runs[r];

		b->file_pass = calloc(v->nfiles, sizeof *b->file_pass);
		b->file_fail = calloc(v->nfiles, sizeof *b->file_fail);
		if (b->file_pass == NULL || b->file_fail == NULL) {
			verr(v, "out of memory");
			return EXIT_IO;
		}
	}
	for (fi = 0; fi < v->nfiles && status == 0; fi++) {
		struct vfile *f = &v->files[fi];

		v->cur = fi;
		for (r = 0; r < v->nruns; r++)
			memset(&v->runs[r].chain, 0, sizeof v->runs[r].chain);
		if (f->type == F_VEC) {
			struct vec_error err;
			int rc;

			rc = vec_read(f->path, f->format, check_stream, v, NULL,
			              &err);
			if (rc != VEC_OK && !v->oom)
				status = vec_failed(v, f->path, rc, &err);
		} else if (f->type == F_ACVP) {
			status = check_acvp(v, f);
		} else {
			check_random(v);
		}
		if (v->oom) {
			verr(v, "out of memory");
			status = EXIT_IO;
		}
		for (r = 0; r < v->nruns; r++) {
			struct brun *b = &v->runs[r];

			if (b->file_fail[fi] > SHOW_MAX)
				cli_err("%s: %lu more failures under %s not "
				        "shown", cli_safe(f->path),
				        b->file_fail[fi] - SHOW_MAX,
				        aesecb_backend_name(b->be));
			aesecb_wipe(&b->chain, sizeof b->chain);
		}
	}
	return status;
}

static void free_all(struct verify *v)
{
	size_t i;

	if (v->kept != NULL) {
		acvp_free(v->kept);
		free(v->kept);
	}

	for (i = 0; i < v->nfiles; i++)
		free(v->files[i].path);
	free(v->files);
	for (i = 0; i < v->nruns; i++) {
		free(v->runs[i].f);
		free(v->runs[i].file_pass);
		free(v->runs[i].file_fail);
	}
	free(v->runs);
}

/* ------------------------------------------------------------------ */
/* Reports */

static unsigned long entries_total(const struct verify *v)
{
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < v->nfiles; i++)
		n += v->files[i].n;
	return n;
}

static unsigned long entries_good(const struct verify *v)
{
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < v->nfiles; i++)
		n += v->files[i].good;
	return n;
}

static unsigned long run_sum(const unsigned long *a)
{
	unsigned long n = 0;
	int s;

	for (s = 0; s < NKINDS; s++)
		n += a[s];
	return n;
}

static const char *file_format(const struct vfile *f)
{
	if (f->type == F_ACVP)
		return "acvp";
	if (f->type == F_RANDOM)
		return "random";
	return f->format == VEC_FMT_QUIC ? "quic" : "rsp";
}

/* The kind of a file for the report: "KAT", ..., or "AFT+MCT" for an
 * ACVP set, "RANDOM" for the random cases. */
static const char *file_kind(const struct vfile *f)
{
	if (f->type == F_ACVP)
		return "AFT+MCT";
	if (f->type == F_RANDOM)
		return kind_names[K_RANDOM];
	return f->kind >= 0 && f->kind < NKINDS ? kind_names[f->kind] : NULL;
}

static void json_failure(struct cli_json *j, const struct vfile *f,
                         const struct failure *x)
{
	cli_json_object(j, NULL);
	cli_json_string(j, "file", f->path);
	cli_json_string(j, "kind", kind_names[x->kind]);
	if (f->type == F_ACVP) {
		cli_json_uint(j, "tgId", x->tgid);
		cli_json_uint(j, "tcId", x->tcid);
		cli_json_string(j, "path", x->jpath);
		if (x->outer >= 0)
			cli_json_int(j, "iteration", x->outer);
	} else if (f->type == F_RANDOM) {
		cli_json_uint(j, "case", x->count);
		cli_json_string(j, "where", x->where);
		cli_json_string(j, "differs_from", x->ref);
	} else {
		cli_json_uint(j, "line", x->line);
		cli_json_string(j, "section", x->section);
		cli_json_uint(j, "count", x->count);
		if (x->outer >= 0)
			cli_json_int(j, "outer", x->outer);
		if (x->inner >= 0)
			cli_json_int(j, "inner", x->inner);
		if (x->ref != NULL)
			cli_json_string(j, "inner_located_with", x->ref);
	}
	cli_json_string(j, "field", x->field);
	cli_json_string(j, "expected", x->block > 0 ? x->expected : NULL);
	cli_json_string(j, "actual", x->block > 0 ? x->actual : NULL);
	if (x->block > 0) {
		cli_json_uint(j, "block", x->block);
		cli_json_uint(j, "blocks", x->nblocks);
	}
	if (x->note[0] != '\0')
		cli_json_string(j, "note", x->note);
	cli_json_end(j);
}

/* One backend's results: per kind of vector, then file by file with the
 * failures kept. */
static void json_run(struct cli_json *j, const struct verify *v,
                     const struct brun *b)
{
	size_t i, fl = 0;
	int s;

	cli_json_object(j, NULL);
	cli_json_string(j, "name", aesecb_backend_name(b->be));
	cli_json_uint(j, "passed", run_sum(b->pass));
	cli_json_uint(j, "total", run_sum(b->total));
	cli_json_real(j, "seconds", "%.6f", b->seconds, 1);
	cli_json_object(j, "sets");
	for (s = 0; s < NKINDS; s++) {
		if (b->total[s] == 0)
			continue;
		cli_json_object(j, kind_names[s]);
		cli_json_uint(j, "passed", b->pass[s]);
		cli_json_uint(j, "total", b->total[s]);
		cli_json_end(j);
	}
	cli_json_end(j);
	cli_json_array(j, "files");
	for (i = 0; i < v->nfiles; i++) {
		const struct vfile *f = &v->files[i];
		unsigned long nfail = b->file_fail[i];

		cli_json_object(j, NULL);
		cli_json_string(j, "file", f->path);
		cli_json_string(j, "set", file_kind(f));
		cli_json_uint(j, "passed", b->file_pass[i]);
		cli_json_uint(j, "total", f->n);
		cli_json_uint(j, "failures_not_listed",
		              nfail > SHOW_MAX ? nfail - SHOW_MAX : 0);
		cli_json_array(j, "failures");
		for (; fl < b->nf && b->f[fl].file == i; fl++)
			json_failure(j, f, &b->f[fl]);
		cli_json_end(j);
		cli_json_end(j);
	}
	cli_json_end(j);
	cli_json_end(j);
}

/* The JSON report; status is the exit status (an error: "error").
 * Returns 0 or EXIT_IO. */
static int report_json(const struct verify *v, int status)
{
	struct cli_json j;
	size_t i, r;

	cli_json_start(&j, stdout, CLI_JSON_LISTING);
	cli_json_object(&j, NULL);
	if (v->dir != NULL) {
		cli_json_object(&j, "vectors");
		cli_json_string(&j, "dir", v->dir);
		cli_json_string(&j, "source", v->dir_source);
		cli_json_end(&j);
	} else {
		cli_json_null(&j, "vectors");
	}
	if (v->random) {
		cli_json_object(&j, "random");
		cli_json_uint(&j, "cases", v->random_n);
		cli_json_uint(&j, "seed", v->seed);
		cli_json_end(&j);
	} else {
		cli_json_null(&j, "random");
	}
	cli_json_array(&j, "files");
	for (i = 0; i < v->nfiles; i++) {
		const struct vfile *f = &v->files[i];

		cli_json_object(&j, NULL);
		cli_json_string(&j, "path", f->path);
		cli_json_string(&j, "format", file_format(f));
		cli_json_string(&j, "set", file_kind(f));
		cli_json_uint(&j, "entries", f->n);
		cli_json_end(&j);
	}
	cli_json_end(&j);
	cli_json_uint(&j, "entries", entries_total(v));
	cli_json_array(&j, "backends");
	for (r = 0; r < v->nruns && v->runs[r].file_pass != NULL; r++)
		json_run(&j, v, &v->runs[r]);
	cli_json_end(&j);
	cli_json_array(&j, "skipped");
	for (i = 0; i < v->nskipped; i++) {
		cli_json_object(&j, NULL);
		cli_json_string(&j, "name", aesecb_backend_name(v->skipped[i]));
		cli_json_string(&j, "reason",
		                aesecb_backend_unavailable_reason(v->skipped[i]));
		cli_json_end(&j);
	}
	cli_json_end(&j);
	cli_json_array(&j, "errors");
	for (i = 0; i < v->nerrors; i++)
		cli_json_string(&j, NULL, v->errors[i]);
	cli_json_end(&j);
	cli_json_uint(&j, "passed", entries_good(v));
	cli_json_int(&j, "exit_status", status);
	cli_json_string(&j, "status", status == 0 ? "pass" :
	                status == EXIT_CHECK ? "fail" : "error");
	cli_json_end(&j);
	return cli_json_finish_stdout(&j);
}

static void summary(const struct verify *v)
{
	unsigned long total = entries_total(v), good = entries_good(v);
	size_t i;
	int any = 0;

	if (v->random)
		printf("random: %lu cases, seed %" PRIu64 "%s\n", v->random_n,
		       v->seed, good == total ? "" :
		       " (the same cases again: --seed with that number)");
	printf("verify: %s%lu/%lu entries passed under %zu backend%s (",
	       good == total ? "" : "FAILED: ", good, total, v->nruns,
	       v->nruns == 1 ? "" : "s");
	for (i = 0; i < v->nruns; i++)
		printf("%s%s", i ? ", " : "", aesecb_backend_name(v->runs[i].be));
	printf(")");
	for (i = 0; i < v->nruns; i++) {
		const struct brun *b = &v->runs[i];
		unsigned long bad = run_sum(b->total) - run_sum(b->pass);

		if (bad == 0)
			continue;
		printf("%s%s %lu", any ? ", " : "; failed: ",
		       aesecb_backend_name(b->be), bad);
		any = 1;
	}
	for (i = 0; i < v->nskipped; i++)
		printf("%s%s (%s)", i ? ", " : "; skipped: ",
		       aesecb_backend_name(v->skipped[i]),
		       aesecb_backend_unavailable_reason(v->skipped[i]));
	printf("\n");
}

static void report_text(const struct verify *v)
{
	char cell[NKINDS + 1][48];
	int used[NKINDS] = { 0 };
	int width[NKINDS + 1];
	size_t i, namew = 7;
	int s;

	if (v->dir != NULL)
		printf("vectors: %s (%s)\n", v->dir, v->dir_source);
	for (i = 0; i < v->nruns; i++) {
		size_t n = strlen(aesecb_backend_name(v->runs[i].be));

		if (n > namew)
			namew = n;
		for (s = 0; s < NKINDS; s++)
			if (v->runs[i].total[s] != 0)
				used[s] = 1;
	}
	/* widths from the widest cell of each column */
	for (s = 0; s <= NKINDS; s++)
		width[s] = s < NKINDS ? (int)strlen(kind_names[s]) : 5;
	for (i = 0; i < v->nruns; i++) {
		const struct brun *b = &v->runs[i];

		for (s = 0; s < NKINDS; s++) {
			int n = snprintf(cell[s], sizeof cell[s], "%lu/%lu",
			                 b->pass[s], b->total[s]);
			if (n > width[s])
				width[s] = n;
		}
		s = snprintf(cell[NKINDS], sizeof cell[0], "%lu/%lu",
		             run_sum(b->pass), run_sum(b->total));
		if (s > width[NKINDS])
			width[NKINDS] = s;
	}
	printf("%-*s", (int)namew, "backend");
	for (s = 0; s < NKINDS; s++)
		if (used[s])
			printf("  %-*s", width[s], kind_names[s]);
	printf("  %-*s  time\n", width[NKINDS], "total");
	for (i = 0; i < v->nruns; i++) {
		const struct brun *b = &v->runs[i];

		printf("%-*s", (int)namew, aesecb_backend_name(b->be));
		for (s = 0; s < NKINDS; s++) {
			if (!used[s])
				continue;
			snprintf(cell[s], sizeof cell[s], "%lu/%lu", b->pass[s],
			         b->total[s]);
			printf("  %-*s", width[s], cell[s]);
		}
		snprintf(cell[NKINDS], sizeof cell[0], "%lu/%lu",
		         run_sum(b->pass), run_sum(b->total));
		printf("  %-*s  %.3fs\n", width[NKINDS], cell[NKINDS],
		       b->seconds);
	}
}

/* ------------------------------------------------------------------ */

static void help(FILE *f)
{
	fprintf(f,
"Usage: aesecb verify [-b NAME|all] [--json] [-q] [--random N [--seed S]]\n"
"                     [PATH ...]\n"
"Check AES-ECB known-answer vectors under every backend (or one).\n"
"\n"
"PATH is a NIST CAVP response file (.rsp or .rsp.gz), a QUIC\n"
"header-protection vector file (.txt), a NIST ACVP vector set (a directory\n"
"holding prompt.json and expectedResults.json, or internalProjection.json;\n"
"or one of those files), or a directory: every .rsp, .rsp.gz and QUIC .txt\n"
"file in it, in name order.  Without PATH (and without --random): the\n"
"directory in $AESECB_VECTORS if set, else the installed vector set, else\n"
"the source tree's vectors/ (the one used is printed), with its\n"
"subdirectories.\n"
"\n"
"  -b, --backend NAME|all  backend to check; default all: every backend this\n"
"                          CPU can run (those it cannot are listed as\n"
"                          skipped).  $AESECB_BACKEND is not used here.\n"
"      --random N          also N random cases (all key sizes, 1 to 64\n"
"                          blocks, both directions, QUIC masks) on which\n"
"                          every available backend must agree\n"
"      --seed S            seed of the random cases (default: from the\n"
"                          system; the seed used is printed)\n"
"      --json              print a machine-readable report\n"
"  -q, --quiet             print only mismatches and the summary line\n"
"  -h, --help              print this help\n"
"\n"
"Files whose name contains MCT, or whose header comments say MCT or Monte\n"
"Carlo, are Monte Carlo tests (AESAVS: 1000 chained one-block calls per\n"
"entry); MMT in the name: multi-block messages; other response files are\n"
"known-answer tests (KAT).\n"
"\n"
"Exit status: 0 all entries passed; 1 a vector did not match; 2 usage error\n"
"or malformed vector file; 3 backend unknown or not available; 4 I/O error.\n");
}

struct verify_opts {
	struct cli_opts common;   /* -b (NULL or "all": every backend), -h */
	int json;
	int quiet;
	const char *random;       /* --random N */
	const char *seed;         /* --seed S */
};

enum { OPT_JSON = CLI_OPT_OWN, OPT_RANDOM, OPT_SEED };

static const struct option longopts[] = {
	{ "backend", required_argument, NULL, 'b' },
	{ "json",    no_argument,       NULL, OPT_JSON },
	{ "quiet",   no_argument,       NULL, 'q' },
	{ "random",  required_argument, NULL, OPT_RANDOM },
	{ "seed",    required_argument, NULL, OPT_SEED },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Options; the PATH operands are left at argv[optind..]. */
static int parse(struct verify_opts *o, int argc, char **argv)
{
	int c, rc = 0;

	optind = 1;
	while (rc == 0 && !o->common.help &&
	       (c = cli_getopt(argc, argv, ":b:qh", longopts)) != -1) {
		switch (c) {
		case OPT_JSON:
			o->json = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_RANDOM:
			o->random = optarg;
			break;
		case OPT_SEED:
			o->seed = optarg;
			break;
		default:
			rc = cli_option(&o->common, c, optarg);
			break;
		}
	}
	if (rc == 0 && o->seed != NULL && o->random == NULL)
		rc = cli_usage("--seed needs --random");
	return rc;
}

/* A decimal number for --random or --seed (digits only). */
static int parse_number(const char *s, const char *opt, uint64_t max,
                        uint64_t *out)
{
	switch (cli_num_parse(s, strlen(s), max, out)) {
	case CLI_NUM_OK:
		return 0;
	case CLI_NUM_ERANGE:
		return cli_usage("%s: at most %" PRIu64, opt, max);
	default:
		return cli_usage("%s needs a decimal number", opt);
	}
}

/* A seed nobody chose: from the system, else the clock. */
static uint64_t default_seed(void)
{
	uint64_t s = 0;
#if defined(__linux__)
	if (getrandom(&s, sizeof s, GRND_NONBLOCK) == (ssize_t)sizeof s)
		return s;
#endif
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		s = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		s ^= (uint64_t)clock();
	}
	return s;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_opts o;
	struct verify *v;
	const char *bname;
	size_t i, nb;
	int status;

	memset(&o, 0, sizeof o);
	status = parse(&o, argc, argv);
	if (status != 0 || o.common.help)
		return status != 0 ? status : cli_help(help);
	v = calloc(1, sizeof *v);
	if (v == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	v->json = o.json;
	v->quiet = o.quiet;
	bname = o.common.backend;
	if (o.random != NULL) {
		uint64_t n;

		status = parse_number(o.random, "--random", 100000000u, &n);
		if (status == 0 && o.seed != NULL)
			status = parse_number(o.seed, "--seed", UINT64_MAX,
			                      &v->seed);
		else if (status == 0)
			v->seed = default_seed();
		if (status != 0) {
			free(v);
			return status;
		}
		v->random = 1;
		v->random_n = (unsigned long)n;
	}

	/* backends */
	nb = aesecb_backend_count();
	v->runs = calloc(nb, sizeof *v->runs);
	if (v->runs == NULL) {
		cli_err("out of memory");
		free(v);
		return EXIT_IO;
	}
	for (i = 0; i < nb && v->navail < 15; i++)
		if (aesecb_backend_available(aesecb_backend_get(i)))
			v->avail[v->navail++] = aesecb_backend_get(i);
	if (bname == NULL || strcmp(bname, "all") == 0) {
		for (i = 0; i < nb; i++) {
			const aesecb_backend *be = aesecb_backend_get(i);

			if (aesecb_backend_available(be))
				v->runs[v->nruns++].be = be;
			else if (v->nskipped < sizeof v->skipped / sizeof v->skipped[0])
				v->skipped[v->nskipped++] = be;
		}
	} else {
		const aesecb_backend *be;
		int rc = cli_backend_resolve(bname, &be);

		if (rc != 0) {
			free(v->runs);
			free(v);
			return rc;
		}
		v->runs[v->nruns++].be = be;
	}

	/* files */
	if (optind >= argc && !v->random) {
		const char *env = getenv("AESECB_VECTORS");

		if (env != NULL && env[0] != '\0') {
			v->dir = env;
			v->dir_source = "from AESECB_VECTORS";
		} else if (is_dir(AESECB_VECTORS_INSTALLED)) {
			v->dir = AESECB_VECTORS_INSTALLED;
			v->dir_source = "installed";
		} else if (AESECB_VECTORS_SRCDIR != NULL) {
			v->dir = AESECB_VECTORS_SRCDIR;
			v->dir_source = "source tree";
		} else {
			verr(v, "no vector directory known: give a PATH or set "
			     "AESECB_VECTORS");
			status = EXIT_USAGE;
		}
		if (status == 0)
			status = add_path(v, v->dir, 1);  /* and subdirectories */
	} else {
		for (i = (size_t)optind; i < (size_t)argc && status == 0; i++)
			status = add_path(v, argv[i], 0);
	}
	if (status == 0)
		status = validate_files(v);
	if (status == 0 && v->random) {
		if (add_file(v, "(random)", F_RANDOM, 0) != 0) {
			verr(v, "out of memory");
			status = EXIT_IO;
		} else {
			v->files[v->nfiles - 1].n = v->random_n;
		}
	}

	/* run */
	if (status == 0)
		status = run_all(v);
	if (status == 0 && entries_good(v) != entries_total(v))
		status = EXIT_CHECK;
	if (v->json) {
		if (report_json(v, status) != 0)
			status = EXIT_IO;
	} else if (status == 0 || status == EXIT_CHECK) {
		if (!v->quiet)
			report_text(v);
		summary(v);
		if (cli_flush_stdout() != 0)
			status = EXIT_IO;
	}
	free_all(v);
	free(v);
	return status;
}
