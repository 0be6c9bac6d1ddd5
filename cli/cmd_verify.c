/*
 * cmd_verify.c - aesecb verify: check NIST CAVP response files and QUIC
 * header-protection vectors under every backend.
 *
 * Every file is read and validated first (a malformed file stops the run
 * before any backend is tried); then each backend checks every entry:
 *   KAT, MMT  one aesecb_encrypt/aesecb_decrypt call over the whole text;
 *   MCT       the AESAVS Monte Carlo inner loop of 1000 one-block calls
 *             from the entry's KEY and input, compared with its result;
 *             and, where the previous entry of the section passed and has
 *             the previous COUNT, the entry's KEY and input must follow
 *             from it by the key update rule;
 *   QUIC      aesecb_hp_mask against MASK, and aesecb_encrypt against
 *             BLOCK when the record has one.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "mct.h"
#include "timing.h"
#include "vecfile.h"

#ifndef AESECB_VECTORS_INSTALLED
#define AESECB_VECTORS_INSTALLED NULL
#endif
#ifndef AESECB_VECTORS_SRCDIR
#define AESECB_VECTORS_SRCDIR NULL
#endif

/* Mismatch lines printed per backend and file; the rest are counted. */
#define SHOW_MAX 10

/* ------------------------------------------------------------------ */
/* Loaded vectors */

struct ventry {
	int set, dir;
	unsigned long count, line;
	uint8_t key[32];
	size_t key_len;
	uint8_t *in;       /* response files: the input of the direction;
	                      QUIC: the sample */
	uint8_t *expect;   /* the expected output; QUIC: BLOCK or NULL */
	size_t len;
	uint8_t mask[5];
};

struct vfile {
	char *path;
	int format, set;
	struct ventry *e;
	size_t n, cap;
	unsigned char *bad;  /* per entry: failed under some backend */
};

struct failure {
	size_t file, entry;
	const char *field;
	char *expected, *actual;  /* hex, or NULL */
	long outer, inner;        /* Monte Carlo iterations, or -1 */
	const char *ref;          /* backend that located the inner one */
	char *note;               /* extra words, or NULL */
};

struct brun {
	const aesecb_backend *be;
	unsigned long pass[VEC_NSETS], total[VEC_NSETS];
	unsigned long *file_pass;
	unsigned long *file_fail;   /* failures recorded per file */
	struct failure *f;
	size_t nf, capf;
	double seconds;
};

struct verify {
	struct vfile *files;
	size_t nfiles, capfiles;
	struct brun *runs;
	size_t nruns;
	const aesecb_backend *skipped[16];
	size_t nskipped;
	const char *dir, *dir_source;   /* default vector set, if used */
	size_t maxlen;
	int json, quiet;
};

static void *xrealloc(void *p, size_t n, size_t size)
{
	if (size != 0 && n > (size_t)-1 / size)
		return NULL;
	return realloc(p, n * size);
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d != NULL)
		memcpy(d, s, n);
	return d;
}

static int add_file(struct verify *v, const char *path, int format)
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
	f->path = xstrdup(path);
	if (f->path == NULL)
		return -1;
	f->format = format;
	v->nfiles++;
	return 0;
}

/* vec_read() callback: keep a copy of the entry. */
static int keep_entry(void *arg, const struct vec_entry *e)
{
	struct vfile *f = arg;
	struct ventry *d;
	size_t len;

	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		void *p = xrealloc(f->e, cap, sizeof *f->e);

		if (p == NULL)
			return 1;
		f->e = p;
		f->cap = cap;
	}
	d = &f->e[f->n];
	memset(d, 0, sizeof *d);
	d->set = e->set;
	d->dir = e->dir;
	d->count = e->count;
	d->line = e->line;
	memcpy(d->key, e->key, e->key_len);
	d->key_len = e->key_len;
	if (e->set == VEC_SET_QUIC) {
		len = AESECB_BLOCK_SIZE;
		d->in = malloc(2 * len);
		if (d->in == NULL)
			return 1;
		memcpy(d->in, e->sample, len);
		memcpy(d->mask, e->mask, 5);
		if (e->block != NULL) {
			d->expect = d->in + len;
			memcpy(d->expect, e->block, len);
		}
	} else {
		len = e->text_len;
		d->in = malloc(2 * len);
		if (d->in == NULL)
			return 1;
		d->expect = d->in + len;
		if (e->dir == VEC_ENCRYPT) {
			memcpy(d->in, e->plaintext, len);
			memcpy(d->expect, e->ciphertext, len);
		} else {
			memcpy(d->in, e->ciphertext, len);
			memcpy(d->expect, e->plaintext, len);
		}
	}
	d->len = len;
	f->n++;
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;

	return path != NULL && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect the vector files of a directory, sorted by name; with recurse
 * > 0, those of its subdirectories too (recurse levels deep), in place. */
static int scan_dir(struct verify *v, const char *dir, int recurse)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL, *path;
	size_t n = 0, cap = 0, i, dlen = strlen(dir);
	int rc = 0, err;

	d = opendir(dir);
	if (d == NULL) {
		cli_err("%s: cannot read directory: %s", cli_safe(dir),
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
		names[n] = xstrdup(de->d_name);
		if (names[n] == NULL) {
			rc = -1;
			break;
		}
		n++;
	}
	err = errno;
	closedir(d);
	if (rc == 0 && err != 0) {
		cli_err("%s: cannot read directory: %s", cli_safe(dir),
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
			cli_err("%s: %s", cli_safe(path), strerror(errno));
			rc = EXIT_IO;
		} else if (recurse > 0 && S_ISDIR(st.st_mode)) {
			rc = scan_dir(v, path, recurse - 1);
		} else if (S_ISREG(st.st_mode) && fmt != VEC_FMT_AUTO) {
			struct vec_error verr;
			int quic = fmt == VEC_FMT_RSP ? 1 :
			           vec_is_quic_file(path, &verr);

			if (quic < 0) {
				cli_err("%s: %s", cli_safe(path), cli_safe(verr.msg));
				rc = EXIT_IO;
			} else if (quic > 0 && add_file(v, path, fmt) != 0) {
				rc = -1;
			}
		}
		free(path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc < 0) {
		cli_err("out of memory");
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
		cli_err("%s: %s", cli_safe(path), strerror(errno));
		return EXIT_IO;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = scan_dir(v, path, recurse);
		if (rc != 0)
			return rc;
		if (v->nfiles == before) {
			cli_err("%s: no vector files in this directory "
			        "(*.rsp, *.rsp.gz, QUIC *.txt)", cli_safe(path));
			return EXIT_USAGE;
		}
		return 0;
	}
	if (add_file(v, path, vec_format_of_name(path)) != 0) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	return 0;
}

/* Read every file.  Reports every malformed one; returns the first
 * failure's exit status, or 0. */
static int load_files(struct verify *v)
{
	size_t i;
	int status = 0;

	for (i = 0; i < v->nfiles; i++) {
		struct vfile *f = &v->files[i];
		struct vec_info info;
		struct vec_error err;
		int r, st = 0;

		r = vec_read(f->path, f->format, keep_entry, f, &info, &err);
		switch (r) {
		case VEC_OK:
			break;
		case VEC_EFORMAT:
			cli_err("%s:%lu: %s", cli_safe(f->path), err.line,
			        cli_safe(err.msg));
			st = EXIT_USAGE;
			break;
		case VEC_EIO:
			cli_err("%s: %s", cli_safe(f->path), cli_safe(err.msg));
			st = EXIT_IO;
			break;
		default:
			cli_err("%s: out of memory", cli_safe(f->path));
			st = EXIT_IO;
			break;
		}
		if (st != 0) {
			if (status == 0)
				status = st;
			continue;
		}
		f->format = info.format;
		f->set = info.set;
		f->bad = calloc(f->n ? f->n : 1, 1);
		if (f->bad == NULL) {
			cli_err("out of memory");
			return EXIT_IO;
		}
		{
			size_t k;

			for (k = 0; k < f->n; k++)
				if (f->e[k].len > v->maxlen)
					v->maxlen = f->e[k].len;
		}
	}
	return status;
}

static void free_all(struct verify *v)
{
	size_t i, k;

	for (i = 0; i < v->nfiles; i++) {
		struct vfile *f = &v->files[i];

		for (k = 0; k < f->n; k++) {
			aesecb_wipe(f->e[k].key, sizeof f->e[k].key);
			free(f->e[k].in);
		}
		free(f->e);
		free(f->bad);
		free(f->path);
	}
	free(v->files);
	for (i = 0; i < v->nruns; i++) {
		struct brun *b = &v->runs[i];

		for (k = 0; k < b->nf; k++) {
			free(b->f[k].expected);
			free(b->f[k].actual);
			free(b->f[k].note);
		}
		free(b->f);
		free(b->file_pass);
		free(b->file_fail);
	}
	free(v->runs);
}

/* ------------------------------------------------------------------ */
/* Checking */

static char *hex_string(const uint8_t *p, size_t n)
{
	char *s = malloc(2 * n + 1);

	if (s != NULL)
		*cli_hex_encode(s, p, n, CLI_HEX_LOWER) = '\0';
	return s;
}

static const char *section_name(const struct ventry *e)
{
	if (e->set == VEC_SET_QUIC)
		return NULL;
	return e->dir == VEC_ENCRYPT ? "ENCRYPT" : "DECRYPT";
}

static const char *output_field(const struct ventry *e)
{
	if (e->set == VEC_SET_QUIC)
		return "BLOCK";
	return e->dir == VEC_ENCRYPT ? "CIPHERTEXT" : "PLAINTEXT";
}

static const char *input_field(const struct ventry *e)
{
	if (e->set == VEC_SET_QUIC)
		return "SAMPLE";
	return e->dir == VEC_ENCRYPT ? "PLAINTEXT" : "CIPHERTEXT";
}

/* Print one failure on stderr. */
static void show_failure(const struct verify *v, const struct brun *b,
                         const struct failure *fl)
{
	const struct vfile *f = &v->files[fl->file];
	const struct ventry *e = &f->e[fl->entry];
	const char *bname = aesecb_backend_name(b->be);
	char where[96], detail[200], values[200];

	if (e->set == VEC_SET_QUIC)
		snprintf(where, sizeof where, "record %lu", e->count);
	else
		snprintf(where, sizeof where, "[%s] COUNT = %lu",
		         section_name(e), e->count);
	detail[0] = '\0';
	if (fl->outer >= 0 && fl->inner >= 0) {
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
		snprintf(detail, sizeof detail,
		         " (Monte Carlo outer iteration %ld)", fl->outer);
	}
	values[0] = '\0';
	if (fl->expected != NULL && fl->actual != NULL) {
		size_t n = strlen(fl->expected);

		if (n <= 32) {
			snprintf(values, sizeof values, "expected %s, got %s",
			         fl->expected, fl->actual);
		} else {
			/* long texts: the first block that differs */
			size_t blk;

			for (blk = 0; blk * 32 < n; blk++)
				if (memcmp(fl->expected + blk * 32,
				           fl->actual + blk * 32, 32) != 0)
					break;
			if (blk * 32 >= n)
				blk = 0;
			snprintf(values, sizeof values,
			         "block %zu of %zu: expected %.32s, got %.32s",
			         blk + 1, n / 32, fl->expected + blk * 32,
			         fl->actual + blk * 32);
		}
	}
	cli_err("%s:%lu: %s under %s%s: %s %s%s%s", cli_safe(f->path), e->line,
	        cli_safe(where),
	        bname, detail, fl->field,
	        fl->note != NULL ? fl->note : "",
	        fl->note != NULL && values[0] != '\0' ? ": " : "", values);
}

/* Record a failure; returns -1 when out of memory. */
static int add_failure(struct verify *v, struct brun *b, size_t file,
                       size_t entry, const char *field,
                       const uint8_t *expected, const uint8_t *actual,
                       size_t n, long outer, long inner, const char *ref,
                       const char *note)
{
	struct failure *fl;

	if (b->nf == b->capf) {
		size_t cap = b->capf ? 2 * b->capf : 16;
		void *p = xrealloc(b->f, cap, sizeof *b->f);

		if (p == NULL)
			return -1;
		b->f = p;
		b->capf = cap;
	}
	fl = &b->f[b->nf];
	memset(fl, 0, sizeof *fl);
	fl->file = file;
	fl->entry = entry;
	fl->field = field;
	fl->outer = outer;
	fl->inner = inner;
	fl->ref = ref;
	if (expected != NULL) {
		fl->expected = hex_string(expected, n);
		fl->actual = hex_string(actual, n);
		if (fl->expected == NULL || fl->actual == NULL) {
			free(fl->expected);
			free(fl->actual);
			return -1;
		}
	}
	if (note != NULL) {
		fl->note = xstrdup(note);
		if (fl->note == NULL) {
			free(fl->expected);
			free(fl->actual);
			return -1;
		}
	}
	b->nf++;
	b->file_fail[file]++;
	if (b->file_fail[file] <= SHOW_MAX)
		show_failure(v, b, fl);
	return 0;
}

#define ADD(...) do { if (add_failure(__VA_ARGS__) != 0) return -1; } while (0)

/* Check entry k of file fi under run b.  Returns 1 pass, 0 fail, -1 out
 * of memory. */
static int check_entry(struct verify *v, struct brun *b, size_t fi,
                       size_t k, struct mct_chain *ch, uint8_t *out)
{
	struct vfile *f = &v->files[fi];
	struct ventry *e = &f->e[k];
	aesecb_ctx ctx;
	int rc, ok = 1;

	/* a backend that writes nothing shows as zeros, not stale bytes */
	memset(out, 0, e->len);
	rc = aesecb_init(&ctx, e->key, e->key_len, b->be);
	if (rc != AESECB_OK) {
		char note[96];

		snprintf(note, sizeof note, "not checked: aesecb_init failed: %s",
		         aesecb_strerror(rc));
		ADD(v, b, fi, k, "KEY", NULL, NULL, 0, -1, -1, NULL, note);
		if (ch != NULL)
			ch->valid = 0;
		return 0;
	}

	switch (e->set) {
	case VEC_SET_QUIC: {
		uint8_t mask[5] = { 0 };

		aesecb_hp_mask(&ctx, e->in, mask);
		if (cli_ct_differ(mask, e->mask, 5)) {
			ADD(v, b, fi, k, "MASK", e->mask, mask, 5, -1, -1, NULL,
			    NULL);
			ok = 0;
		}
		if (e->expect != NULL) {
			rc = aesecb_encrypt(&ctx, e->in, out, 16);
			if (rc != AESECB_OK || cli_ct_differ(out, e->expect, 16)) {
				ADD(v, b, fi, k, "BLOCK", e->expect, out, 16,
				    -1, -1, NULL, rc != AESECB_OK ?
				    aesecb_strerror(rc) : NULL);
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
			char note[96];

			if (ch->key_len != e->key_len ||
			    cli_ct_differ(ch->key, e->key, e->key_len)) {
				snprintf(note, sizeof note, "does not follow from "
				         "COUNT = %lu by the Monte Carlo key update "
				         "rule", ch->count);
				ADD(v, b, fi, k, "KEY", NULL, NULL, 0, outer, -1,
				    NULL, note);
				ok = 0;
			}
			if (cli_ct_differ(ch->next_in, e->in, 16)) {
				snprintf(note, sizeof note, "is not the result of "
				         "COUNT = %lu", ch->count);
				ADD(v, b, fi, k, input_field(e), ch->next_in, e->in,
				    16, outer, -1, NULL, note);
				ok = 0;
			}
		}
		ch->valid = 0;
		rc = mct_inner(&ctx, e->dir, e->in, prev, out);
		if (rc != AESECB_OK) {
			ADD(v, b, fi, k, output_field(e), NULL, NULL, 0, outer,
			    -1, NULL, aesecb_strerror(rc));
			ok = 0;
		} else if (cli_ct_differ(out, e->expect, 16)) {
			const char *ref;
			long inner = mct_locate(b->be, &ctx, e->key, e->key_len,
			                        e->dir, e->in, e->expect, &ref);

			if (inner < 0)
				inner = MCT_INNER - 1;
			ADD(v, b, fi, k, output_field(e), e->expect, out, 16,
			    outer, inner, ref, NULL);
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
		     aesecb_encrypt(&ctx, e->in, out, e->len) :
		     aesecb_decrypt(&ctx, e->in, out, e->len);
		if (rc != AESECB_OK || cli_ct_differ(out, e->expect, e->len)) {
			ADD(v, b, fi, k, output_field(e), e->expect, out, e->len,
			    -1, -1, NULL, rc != AESECB_OK ?
			    aesecb_strerror(rc) : NULL);
			ok = 0;
		}
		break;
	}
	aesecb_clear(&ctx);
	return ok;
}

/* Run every entry under b.  Returns 0 or -1 (out of memory). */
static int run_backend(struct verify *v, struct brun *b)
{
	uint8_t *out;
	struct mct_chain ch;
	size_t fi, k;
	uint64_t t0 = bench_now_ns();
	int r = 0;

	b->file_pass = calloc(v->nfiles, sizeof *b->file_pass);
	b->file_fail = calloc(v->nfiles, sizeof *b->file_fail);
	out = malloc(v->maxlen > 16 ? v->maxlen : 16);
	if (b->file_pass == NULL || b->file_fail == NULL || out == NULL) {
		free(out);
		return -1;
	}
	for (fi = 0; fi < v->nfiles && r == 0; fi++) {
		struct vfile *f = &v->files[fi];

		memset(&ch, 0, sizeof ch);
		for (k = 0; k < f->n; k++) {
			int ok = check_entry(v, b, fi, k, &ch, out);

			if (ok < 0) {
				r = -1;
				break;
			}
			b->total[f->e[k].set]++;
			if (ok) {
				b->pass[f->e[k].set]++;
				b->file_pass[fi]++;
			} else {
				f->bad[k] = 1;
			}
		}
		if (b->file_fail[fi] > SHOW_MAX)
			cli_err("%s: %lu more mismatches under %s not shown "
			        "(--json lists them all)", cli_safe(f->path),
			        b->file_fail[fi] - SHOW_MAX,
			        aesecb_backend_name(b->be));
	}
	aesecb_wipe(&ch, sizeof ch);
	free(out);
	b->seconds = (double)(bench_now_ns() - t0) / 1e9;
	return r;
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
	size_t i, k;

	for (i = 0; i < v->nfiles; i++)
		for (k = 0; k < v->files[i].n; k++)
			n += !v->files[i].bad[k];
	return n;
}

static unsigned long run_sum(const unsigned long *a)
{
	unsigned long n = 0;
	int s;

	for (s = 0; s < VEC_NSETS; s++)
		n += a[s];
	return n;
}

static void report_json(const struct verify *v)
{
	size_t i, r;
	unsigned long total = entries_total(v), good = entries_good(v);
	int s;

	printf("{\n  \"vectors\": ");
	if (v->dir != NULL) {
		printf("{\"dir\": ");
		cli_json_str(stdout, v->dir);
		printf(", \"source\": ");
		cli_json_str(stdout, v->dir_source);
		printf("}");
	} else {
		printf("null");
	}
	printf(",\n  \"files\": [");
	for (i = 0; i < v->nfiles; i++) {
		const struct vfile *f = &v->files[i];

		printf("%s\n    {\"path\": ", i ? "," : "");
		cli_json_str(stdout, f->path);
		printf(", \"format\": \"%s\", \"set\": \"%s\", "
		       "\"entries\": %zu}",
		       f->format == VEC_FMT_QUIC ? "quic" : "rsp",
		       vec_set_name(f->set), f->n);
	}
	printf("\n  ],\n  \"entries\": %lu,\n  \"backends\": [", total);
	for (r = 0; r < v->nruns; r++) {
		const struct brun *b = &v->runs[r];
		size_t fl = 0;
		int first = 1;

		printf("%s\n    {\"name\": ", r ? "," : "");
		cli_json_str(stdout, aesecb_backend_name(b->be));
		printf(", \"passed\": %lu, \"total\": %lu, \"seconds\": %.6f,\n"
		       "     \"sets\": {", run_sum(b->pass), run_sum(b->total),
		       b->seconds);
		for (s = 0; s < VEC_NSETS; s++) {
			if (b->total[s] == 0)
				continue;
			printf("%s\"%s\": {\"passed\": %lu, \"total\": %lu}",
			       first ? "" : ", ", vec_set_name(s), b->pass[s],
			       b->total[s]);
			first = 0;
		}
		printf("},\n     \"files\": [");
		for (i = 0; i < v->nfiles; i++) {
			const struct vfile *f = &v->files[i];
			int firstf = 1;

			printf("%s\n       {\"file\": ", i ? "," : "");
			cli_json_str(stdout, f->path);
			printf(", \"set\": \"%s\", \"passed\": %lu, "
			       "\"total\": %zu, \"failures\": [",
			       vec_set_name(f->set), b->file_pass[i], f->n);
			for (; fl < b->nf && b->f[fl].file == i; fl++) {
				const struct failure *x = &b->f[fl];
				const struct ventry *e = &f->e[x->entry];

				printf("%s\n         {\"file\": ",
				       firstf ? "" : ",");
				firstf = 0;
				cli_json_str(stdout, f->path);
				printf(", \"line\": %lu, \"section\": ", e->line);
				cli_json_str(stdout, section_name(e));
				printf(", \"count\": %lu, \"field\": ", e->count);
				cli_json_str(stdout, x->field);
				printf(", \"expected\": ");
				cli_json_str(stdout, x->expected);
				printf(", \"actual\": ");
				cli_json_str(stdout, x->actual);
				if (x->outer >= 0)
					printf(", \"outer\": %ld", x->outer);
				if (x->inner >= 0)
					printf(", \"inner\": %ld", x->inner);
				if (x->ref != NULL) {
					printf(", \"inner_located_with\": ");
					cli_json_str(stdout, x->ref);
				}
				if (x->note != NULL) {
					printf(", \"note\": ");
					cli_json_str(stdout, x->note);
				}
				printf("}");
			}
			printf("%s]}", firstf ? "" : "\n       ");
		}
		printf("\n     ]}");
	}
	printf("\n  ],\n  \"skipped\": [");
	for (i = 0; i < v->nskipped; i++) {
		printf("%s\n    {\"name\": ", i ? "," : "");
		cli_json_str(stdout, aesecb_backend_name(v->skipped[i]));
		printf(", \"reason\": ");
		cli_json_str(stdout, aesecb_backend_unavailable_reason(v->skipped[i]));
		printf("}");
	}
	printf("%s],\n", v->nskipped ? "\n  " : "");
	printf("  \"passed\": %lu,\n  \"status\": \"%s\"\n}\n", good,
	       good == total ? "pass" : "fail");
}

static void summary(const struct verify *v)
{
	unsigned long total = entries_total(v), good = entries_good(v);
	size_t i;
	int any = 0;

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
	char cell[VEC_NSETS + 1][48];
	int used[VEC_NSETS] = { 0 };
	int width[VEC_NSETS + 1];
	size_t i, namew = 7;
	int s;

	if (v->dir != NULL)
		printf("vectors: %s (%s)\n", cli_safe(v->dir), v->dir_source);
	for (i = 0; i < v->nruns; i++) {
		size_t n = strlen(aesecb_backend_name(v->runs[i].be));

		if (n > namew)
			namew = n;
		for (s = 0; s < VEC_NSETS; s++)
			if (v->runs[i].total[s] != 0)
				used[s] = 1;
	}
	/* widths from the widest cell of each column */
	for (s = 0; s <= VEC_NSETS; s++)
		width[s] = s < VEC_NSETS ? (int)strlen(vec_set_name(s)) : 5;
	for (i = 0; i < v->nruns; i++) {
		const struct brun *b = &v->runs[i];

		for (s = 0; s < VEC_NSETS; s++) {
			int n = snprintf(cell[s], sizeof cell[s], "%lu/%lu",
			                 b->pass[s], b->total[s]);
			if (n > width[s])
				width[s] = n;
		}
		s = snprintf(cell[VEC_NSETS], sizeof cell[0], "%lu/%lu",
		             run_sum(b->pass), run_sum(b->total));
		if (s > width[VEC_NSETS])
			width[VEC_NSETS] = s;
	}
	printf("%-*s", (int)namew, "backend");
	for (s = 0; s < VEC_NSETS; s++)
		if (used[s])
			printf("  %-*s", width[s], vec_set_name(s));
	printf("  %-*s  time\n", width[VEC_NSETS], "total");
	for (i = 0; i < v->nruns; i++) {
		const struct brun *b = &v->runs[i];

		printf("%-*s", (int)namew, aesecb_backend_name(b->be));
		for (s = 0; s < VEC_NSETS; s++) {
			if (!used[s])
				continue;
			snprintf(cell[s], sizeof cell[s], "%lu/%lu", b->pass[s],
			         b->total[s]);
			printf("  %-*s", width[s], cell[s]);
		}
		snprintf(cell[VEC_NSETS], sizeof cell[0], "%lu/%lu",
		         run_sum(b->pass), run_sum(b->total));
		printf("  %-*s  %.3fs\n", width[VEC_NSETS], cell[VEC_NSETS],
		       b->seconds);
	}
}

/* ------------------------------------------------------------------ */

static void help(FILE *f)
{
	fprintf(f,
"Usage: aesecb verify [-b NAME|all] [--json] [-q] [PATH ...]\n"
"Check AES-ECB known-answer vectors under every backend (or one).\n"
"\n"
"PATH is a NIST CAVP response file (.rsp or .rsp.gz), a QUIC\n"
"header-protection vector file (.txt), or a directory: every .rsp, .rsp.gz\n"
"and QUIC .txt file in it, in name order.  Without PATH: the directory in\n"
"$AESECB_VECTORS if set, else the installed vector set, else the source\n"
"tree's vectors/ (the one used is printed), with its subdirectories.\n"
"\n"
"  -b, --backend NAME|all  backend to check; default all: every backend this\n"
"                          CPU can run (those it cannot are listed as\n"
"                          skipped).  $AESECB_BACKEND is not used here.\n"
"      --json              print a machine-readable report\n"
"  -q, --quiet             print only mismatches and the summary line\n"
"  -h, --help              print this help\n"
"\n"
"Files whose name contains MCT, or whose header comments say MCT or Monte\n"
"Carlo, are Monte Carlo tests (AESAVS: 1000 chained one-block calls per\n"
"entry).\n"
"\n"
"Exit status: 0 all entries passed; 1 a vector did not match; 2 usage error\n"
"or malformed vector file; 3 backend unknown or not available; 4 I/O error.\n");
}

struct verify_opts {
	struct cli_opts common;   /* -b (NULL or "all": every backend), -h */
	int json;
	int quiet;
};

enum { OPT_JSON = CLI_OPT_OWN };

static const struct option longopts[] = {
	{ "backend", required_argument, NULL, 'b' },
	{ "json",    no_argument,       NULL, OPT_JSON },
	{ "quiet",   no_argument,       NULL, 'q' },
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
		default:
			rc = cli_option(&o->common, c, optarg);
			break;
		}
	}
	return rc;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_opts o;
	struct verify v;
	const char *bname;
	size_t i, nb;
	int status;

	memset(&o, 0, sizeof o);
	status = parse(&o, argc, argv);
	if (status != 0 || o.common.help)
		return status != 0 ? status : cli_help(help);
	memset(&v, 0, sizeof v);
	v.json = o.json;
	v.quiet = o.quiet;
	bname = o.common.backend;

	/* backends */
	nb = aesecb_backend_count();
	v.runs = calloc(nb, sizeof *v.runs);
	if (v.runs == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	if (bname == NULL || strcmp(bname, "all") == 0) {
		for (i = 0; i < nb; i++) {
			const aesecb_backend *be = aesecb_backend_get(i);

			if (aesecb_backend_available(be))
				v.runs[v.nruns++].be = be;
			else if (v.nskipped < sizeof v.skipped / sizeof v.skipped[0])
				v.skipped[v.nskipped++] = be;
		}
	} else {
		const aesecb_backend *be;
		int rc = cli_backend_resolve(bname, &be);

		if (rc != 0) {
			free(v.runs);
			return rc;
		}
		v.runs[v.nruns++].be = be;
	}

	/* files */
	if (optind >= argc) {
		const char *env = getenv("AESECB_VECTORS");

		if (env != NULL && env[0] != '\0') {
			v.dir = env;
			v.dir_source = "from AESECB_VECTORS";
		} else if (is_dir(AESECB_VECTORS_INSTALLED)) {
			v.dir = AESECB_VECTORS_INSTALLED;
			v.dir_source = "installed";
		} else if (AESECB_VECTORS_SRCDIR != NULL) {
			v.dir = AESECB_VECTORS_SRCDIR;
			v.dir_source = "source tree";
		} else {
			cli_err("no vector directory known: give a PATH or set "
			        "AESECB_VECTORS");
			free(v.runs);
			return EXIT_USAGE;
		}
		status = add_path(&v, v.dir, 1);  /* and its subdirectories */
	} else {
		for (i = (size_t)optind; i < (size_t)argc && status == 0; i++)
			status = add_path(&v, argv[i], 0);
	}
	if (status == 0)
		status = load_files(&v);

	/* run */
	for (i = 0; status == 0 && i < v.nruns; i++) {
		if (run_backend(&v, &v.runs[i]) != 0) {
			cli_err("out of memory");
			status = EXIT_IO;
		}
	}
	if (status == 0) {
		if (v.json)
			report_json(&v);
		else {
			if (!v.quiet)
				report_text(&v);
			summary(&v);
		}
		if (entries_good(&v) != entries_total(&v))
			status = EXIT_CHECK;
		if (cli_flush_stdout() != 0)
			status = EXIT_IO;
	}
	free_all(&v);
	return status;
}
