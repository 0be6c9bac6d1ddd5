/* SPDX-License-Identifier: MIT */
/*
 * verify_check.c - every entry of every file under every backend, and the
 * failures found (see verify.h).
 *
 * Response and QUIC files are read again from their descriptor (or, for
 * a pipe, read for the first time: see struct vfile), each entry checked
 * under every backend as it is read, so memory does not grow with the
 * file; an ACVP set was loaded whole by validation (JSON has no streaming
 * reader here).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vectors/acvp.h"
#include "common/common.h"
#include "vectors/verify.h"

/* Seconds on the monotonic clock, for the time each backend took (a
 * figure of the report, not a measurement: aesecb bench measures). */
static double now_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ */
/* Failures */

static void failure_init(struct failure *fl, int kind)
{
	memset(fl, 0, sizeof *fl);
	fl->kind = kind;
	fl->outer = fl->inner = -1;
}

/* The first 16-byte block of n bytes that differs between
 * expected and actual, and (unless the caller numbered it) which. */
static void locate_block(struct failure *fl, const uint8_t *expected,
                         const uint8_t *actual, size_t n)
{
	size_t blk = 0, nb = (n + 15) / 16, len;

	while (blk + 1 < nb && !cli_ct_differ(expected + 16 * blk,
	                                      actual + 16 * blk,
	                                      n - 16 * blk < 16 ?
	                                      n - 16 * blk : 16))
		blk++;
	len = n - 16 * blk < 16 ? n - 16 * blk : 16;
	memcpy(fl->expected, expected + 16 * blk, len);
	memcpy(fl->actual, actual + 16 * blk, len);
	fl->vlen = len;
	if (fl->block == 0) {
		fl->block = blk + 1;
		fl->nblocks = nb;
	}
}

/* Keep a failure (the first SHOW_MAX per backend and file) and print it;
 * count it in any case.  fl is filled by the caller but for the file. */
static void add_failure(struct verify *v, struct brun *b,
                        struct failure *fl, const uint8_t *expected,
                        const uint8_t *actual, size_t n)
{
	b->file_fail[v->cur]++;
	if (b->file_fail[v->cur] > SHOW_MAX)
		return;
	fl->file = v->cur;
	fl->vlen = 0;
	if (expected != NULL && actual != NULL && n > 0)
		locate_block(fl, expected, actual, n);
	if (b->nf == b->capf) {
		size_t cap = b->capf ? 2 * b->capf : 16;
		void *p = cap <= (size_t)-1 / sizeof *b->f ?
		          realloc(b->f, cap * sizeof *b->f) : NULL;

		if (p == NULL) {
			v->oom = 1;
			return;
		}
		b->f = p;
		b->capf = cap;
	}
	b->f[b->nf++] = *fl;
	verify_failure_line(v, b, fl);
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

/* A QUIC record: the mask, and the whole block when the record has it. */
static int check_quic(struct verify *v, struct brun *b, const aesecb_ctx *ctx,
                      const struct vec_entry *e)
{
	uint8_t mask[5] = { 0 };
	struct failure fl;
	int rc, ok = 1;

	aesecb_hp_mask(ctx, e->sample, mask);
	if (cli_ct_differ(mask, e->mask, 5)) {
		entry_failure(&fl, e, "MASK");
		add_failure(v, b, &fl, e->mask, mask, 5);
		ok = 0;
	}
	if (e->block == NULL)
		return ok;
	rc = aesecb_encrypt(ctx, e->sample, v->out, 16);
	if (rc != AESECB_OK || cli_ct_differ(v->out, e->block, 16)) {
		entry_failure(&fl, e, "BLOCK");
		if (rc != AESECB_OK)
			snprintf(fl.note, sizeof fl.note, "%s",
			         aesecb_strerror(rc));
		add_failure(v, b, &fl, e->block, v->out, 16);
		ok = 0;
	}
	return ok;
}

/* A Monte Carlo entry linked to the previous one by the key update rule:
 * its KEY and input must follow from it. */
static int check_chain(struct verify *v, struct brun *b,
                       const struct vec_entry *e, const uint8_t *in)
{
	const struct mct_chain *ch = &b->chain;
	struct failure fl;
	int ok = 1;

	if (!mct_chain_follows(ch, e->dir, e->count))
		return 1;
	if (ch->key_len != e->key_len ||
	    cli_ct_differ(ch->key, e->key, e->key_len)) {
		entry_failure(&fl, e, "KEY");
		fl.outer = (long)e->count;
		snprintf(fl.note, sizeof fl.note, "does not follow from COUNT = "
		         "%lu by the Monte Carlo key update rule", ch->count);
		add_failure(v, b, &fl, NULL, NULL, 0);
		ok = 0;
	}
	if (cli_ct_differ(ch->next_in, in, 16)) {
		entry_failure(&fl, e, input_field(e));
		fl.outer = (long)e->count;
		snprintf(fl.note, sizeof fl.note, "is not the result of COUNT = "
		         "%lu", ch->count);
		add_failure(v, b, &fl, ch->next_in, in, 16);
		ok = 0;
	}
	return ok;
}

/* A Monte Carlo entry: the chain to the previous one, then the inner
 * loop; a wrong result is located (the first inner iteration that differs
 * from another backend's). */
static int check_mct(struct verify *v, struct brun *b, aesecb_ctx *ctx,
                     const struct vec_entry *e, const uint8_t *in,
                     const uint8_t *expect)
{
	uint8_t prev[16];
	struct failure fl;
	int rc, ok = check_chain(v, b, e, in);

	b->chain.valid = 0;
	rc = mct_inner(ctx, e->dir, in, prev, v->out);
	entry_failure(&fl, e, output_field(e));
	fl.outer = (long)e->count;
	if (rc != AESECB_OK) {
		snprintf(fl.note, sizeof fl.note, "%s", aesecb_strerror(rc));
		add_failure(v, b, &fl, NULL, NULL, 0);
		ok = 0;
	} else if (cli_ct_differ(v->out, expect, 16)) {
		long inner = mct_locate(b->be, ctx, e->key, e->key_len, e->dir,
		                        in, expect, &fl.ref);

		fl.inner = inner < 0 ? MCT_INNER - 1 : inner;
		add_failure(v, b, &fl, expect, v->out, 16);
		ok = 0;
	} else {
		mct_chain_advance(&b->chain, e->dir, e->count, e->key,
		                  e->key_len, prev, v->out);
	}
	aesecb_wipe(prev, sizeof prev);
	return ok;
}

/* A known-answer or multi-block entry: one call over the whole text. */
static int check_text(struct verify *v, struct brun *b, const aesecb_ctx *ctx,
                      const struct vec_entry *e, const uint8_t *in,
                      const uint8_t *expect)
{
	size_t len = e->text_len;
	struct failure fl;
	int rc = e->dir == VEC_ENCRYPT ? aesecb_encrypt(ctx, in, v->out, len)
	                               : aesecb_decrypt(ctx, in, v->out, len);

	if (rc == AESECB_OK && !cli_ct_differ(v->out, expect, len))
		return 1;
	entry_failure(&fl, e, output_field(e));
	if (rc != AESECB_OK)
		snprintf(fl.note, sizeof fl.note, "%s", aesecb_strerror(rc));
	add_failure(v, b, &fl, expect, v->out, len);
	return 0;
}

/* Check e under run b.  Returns 1 pass, 0 fail. */
static int check_entry(struct verify *v, struct brun *b,
                       const struct vec_entry *e)
{
	const uint8_t *in = e->dir == VEC_ENCRYPT ? e->plaintext : e->ciphertext;
	const uint8_t *expect = e->dir == VEC_ENCRYPT ? e->ciphertext
	                                              : e->plaintext;
	struct failure fl;
	aesecb_ctx ctx;
	int rc, ok;

	/* a backend that writes nothing shows as zeros, not stale bytes */
	memset(v->out, 0, e->set == VEC_SET_QUIC ? 16 : e->text_len);
	rc = aesecb_init(&ctx, e->key, e->key_len, b->be);
	if (rc != AESECB_OK) {
		entry_failure(&fl, e, "KEY");
		snprintf(fl.note, sizeof fl.note, "not checked: aesecb_init "
		         "failed: %s", aesecb_strerror(rc));
		add_failure(v, b, &fl, NULL, NULL, 0);
		b->chain.valid = 0;
		return 0;
	}
	if (e->set == VEC_SET_QUIC)
		ok = check_quic(v, b, &ctx, e);
	else if (e->set == VEC_SET_MCT)
		ok = check_mct(v, b, &ctx, e, in, expect);
	else
		ok = check_text(v, b, &ctx, e, in, expect);
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
		double t0 = now_s();
		int ok = check_entry(v, b, e);

		b->seconds += now_s() - t0;
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

/* The set under run b, its counts added to b's.  Returns 0 or an exit
 * status after the message. */
static int acvp_run(struct verify *v, struct acvp_ctx *a, struct brun *b,
                    const char *path)
{
	struct acvp_error err;
	struct acvp_counts c;
	double t0 = now_s();
	int rc;

	a->b = b;
	rc = acvp_check(a->set, b->be, acvp_fail, a, &c, &err);
	b->seconds += now_s() - t0;
	if (rc == ACVP_ESTOPPED) {
		verify_error(v, "out of memory");
		return EXIT_IO;
	}
	if (rc != ACVP_OK)
		return verify_acvp_failed(v, path, &err);
	b->total[K_AFT] += c.aft;
	b->pass[K_AFT] += c.aft_pass;
	b->total[K_MCT] += c.mct;
	b->pass[K_MCT] += c.mct_pass;
	b->file_pass[v->cur] += c.aft_pass + c.mct_pass;
	return 0;
}

/* The set validation loaded. */
static int check_acvp(struct verify *v, struct vfile *f)
{
	struct acvp_set set;
	struct acvp_ctx a;
	size_t r, i, n = 0;
	int status = 0;

	set = *f->set;
	free(f->set);
	f->set = NULL;
	/* messages name the file holding the answers */
	free(f->path);
	f->path = strdup(set.answers != NULL ? set.answers : set.questions);
	a.bad = calloc(set.ntests ? set.ntests : 1, 1);
	a.first = calloc(set.ngroups ? set.ngroups : 1, sizeof *a.first);
	if (f->path == NULL || a.bad == NULL || a.first == NULL) {
		verify_error(v, "out of memory");
		status = EXIT_IO;
	}
	for (i = 0; status == 0 && i < set.ngroups; i++) {
		a.first[i] = n;
		n += set.groups[i].ntests;
	}
	a.v = v;
	a.set = &set;
	for (r = 0; r < v->nruns && status == 0; r++)
		status = acvp_run(v, &a, &v->runs[r], f->path);
	for (i = 0; i < n; i++)
		f->good += !a.bad[i];
	free(a.bad);
	free(a.first);
	acvp_free(&set);
	return status;
}

/* ------------------------------------------------------------------ */
/* Random cases: the same case under every available backend */

/* Results and statuses of one case, one row per available backend. */
struct rv_results {
	uint8_t *res;   /* navail rows of RV_OUT_MAX bytes */
	int *st;
};

/* Compare run b's result with every other available backend's; a
 * failure for each that differs.  Returns 1 when all agree. */
static int compare_random(struct verify *v, struct brun *b, unsigned long i,
                          const struct rv_case *c, const struct rv_results *r)
{
	const uint8_t *res = r->res;
	size_t me, k, unit = rv_unit_len(c);
	int ok = 1;

	for (me = 0; v->avail[me] != b->be; me++)
		;   /* every run is of an available backend */
	for (k = 0; k < v->navail; k++) {
		struct failure fl;
		long u;

		if (k == me)
			continue;
		u = rv_compare(c, res + k * RV_OUT_MAX, res + me * RV_OUT_MAX);
		if (u < 0 && r->st[k] == r->st[me])
			continue;
		ok = 0;
		failure_init(&fl, K_RANDOM);
		fl.count = i;
		fl.ref = aesecb_backend_name(v->avail[k]);
		snprintf(fl.where, sizeof fl.where, "random case %lu (AES-%zu, "
		         "%s, %zu block%s)", i, 8 * c->key_len,
		         rv_op_name(c->op), c->nblocks, c->nblocks == 1 ? "" : "s");
		snprintf(fl.field, sizeof fl.field, "%s", rv_op_name(c->op));
		if (u < 0) {
			snprintf(fl.note, sizeof fl.note, "status %d, %s gives %d",
			         r->st[k], aesecb_backend_name(b->be), r->st[me]);
			add_failure(v, b, &fl, NULL, NULL, 0);
			continue;
		}
		snprintf(fl.note, sizeof fl.note, "%s", unit == 5 ? "mask" :
		         unit == 16 ? "block" : "packet");
		/* show the unit that differs */
		fl.block = (size_t)u + 1;
		fl.nblocks = rv_out_len(c) / unit;
		add_failure(v, b, &fl, res + k * RV_OUT_MAX + unit * (size_t)u,
		            res + me * RV_OUT_MAX + unit * (size_t)u, unit);
	}
	return ok;
}

/* Case i under every available backend, then each run compared with the
 * others. */
static void random_case(struct verify *v, struct rv_rng *rng,
                        unsigned long i, struct rv_results *r)
{
	struct rv_case c;
	size_t k, n;
	int all = 1;

	rv_make(rng, i, &c);
	for (k = 0; k < v->navail; k++) {
		double t0 = now_s();

		r->st[k] = rv_run(&c, v->avail[k], r->res + k * RV_OUT_MAX);
		for (n = 0; n < v->nruns; n++)
			if (v->runs[n].be == v->avail[k])
				v->runs[n].seconds +=
				        now_s() - t0;
	}
	for (n = 0; n < v->nruns; n++) {
		struct brun *b = &v->runs[n];
		double t0 = now_s();
		int ok = compare_random(v, b, i, &c, r);

		b->seconds += now_s() - t0;
		b->total[K_RANDOM]++;
		if (ok) {
			b->pass[K_RANDOM]++;
			b->file_pass[v->cur]++;
		}
		all &= ok;
	}
	v->files[v->cur].good += (unsigned long)all;
}

static int check_random(struct verify *v)
{
	struct rv_results r;
	struct rv_rng rng;
	unsigned long i;

	r.res = calloc(v->navail, RV_OUT_MAX);
	r.st = calloc(v->navail, sizeof *r.st);
	if (r.res == NULL || r.st == NULL) {
		free(r.res);
		free(r.st);
		verify_error(v, "out of memory");
		return EXIT_IO;
	}
	rv_seed(&rng, v->seed);
	for (i = 0; i < v->random_n && !v->oom; i++)
		random_case(v, &rng, i, &r);
	aesecb_wipe(r.res, v->navail * RV_OUT_MAX);
	free(r.res);
	free(r.st);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Running */

/* A response or QUIC file, read from its descriptor: validated before
 * (then it must be what validation read), or as it is read. */
static int check_vec(struct verify *v, struct vfile *f)
{
	struct vec_info info;
	struct vec_error err;
	int rc;

	if (f->fd < 0 && (f->fd = open(f->path, O_RDONLY | O_NOCTTY |
	                               O_CLOEXEC)) < 0) {
		verify_error(v, "%s: cannot open: %s", cli_safe(f->path),
		             strerror(errno));
		return EXIT_IO;
	}
	if (!f->streamed && lseek(f->fd, 0, SEEK_SET) != 0) {
		verify_error(v, "%s: cannot read it again: %s",
		             cli_safe(f->path), strerror(errno));
		return EXIT_IO;
	}
	rc = vec_read_fd(f->fd, f->path, f->format, check_stream, v, &info,
	                 &err);
	close(f->fd);
	f->fd = -1;
	if (f->streamed) {
		f->n = info.entries;
		f->format = info.format;
		f->kind = info.set;
	}
	if (rc != VEC_OK)
		return v->oom ? 0 : verify_vec_failed(v, f->path, rc, &err);
	if (!f->streamed && (info.entries != f->n || info.bytes != f->bytes ||
	                     info.crc != f->crc)) {
		verify_error(v, "%s: the file changed after it was validated: "
		             "its results are void", cli_safe(f->path));
		return EXIT_IO;
	}
	return 0;
}

/* One file under every backend run. */
static int check_file(struct verify *v, struct vfile *f)
{
	switch (f->type) {
	case F_VEC:
		return check_vec(v, f);
	case F_ACVP:
		return check_acvp(v, f);
	default:
		return check_random(v);
	}
}

int verify_run(struct verify *v)
{
	size_t r, fi;
	int status = 0;

	for (r = 0; r < v->nruns; r++) {
		struct brun *b = &v->runs[r];

		b->file_pass = calloc(v->nfiles, sizeof *b->file_pass);
		b->file_fail = calloc(v->nfiles, sizeof *b->file_fail);
		if (b->file_pass == NULL || b->file_fail == NULL) {
			verify_error(v, "out of memory");
			return EXIT_IO;
		}
	}
	for (fi = 0; fi < v->nfiles && status == 0; fi++) {
		struct vfile *f = &v->files[fi];

		v->cur = fi;
		for (r = 0; r < v->nruns; r++)
			memset(&v->runs[r].chain, 0, sizeof v->runs[r].chain);
		status = check_file(v, f);
		if (v->oom) {
			verify_error(v, "out of memory");
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

void verify_free(struct verify *v)
{
	size_t i;

	for (i = 0; i < v->nfiles; i++) {
		struct vfile *f = &v->files[i];

		if (f->set != NULL) {
			acvp_free(f->set);
			free(f->set);
		}
		if (f->type == F_VEC && f->fd >= 0)
			close(f->fd);
		free(f->path);
	}
	free(v->files);
	for (i = 0; i < v->nruns; i++) {
		free(v->runs[i].f);
		free(v->runs[i].file_pass);
		free(v->runs[i].file_fail);
	}
	free(v->runs);
	free(v->avail);
	free(v->skipped);
	for (i = 0; i < v->nerrors; i++)
		free(v->errors[i]);
	free(v->dir_owned);
}
