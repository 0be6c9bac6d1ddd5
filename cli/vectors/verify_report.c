/* SPDX-License-Identifier: MIT */
/*
 * verify_report.c - what 'aesecb verify' prints: errors and failures on
 * stderr as they come, then the text or JSON report (see verify.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/acvp.h"
#include "common/common.h"
#include "vectors/verify.h"

const char *const verify_kind_names[NKINDS] = {
	[K_KAT] = "KAT", [K_MMT] = "MMT", [K_MCT] = "MCT", [K_QUIC] = "QUIC",
	[K_AFT] = "AFT", [K_RANDOM] = "RANDOM"
};

void verify_error(struct verify *v, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (msg == NULL) {
		cli_err("out of memory");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	cli_err("%s", msg);
	if (v->nerrors < ERR_MAX)
		v->errors[v->nerrors++] = msg;
	else
		free(msg);
}

/* The exit status of a vec_read() error, after reporting it. */
int verify_vec_failed(struct verify *v, const char *path, int r,
                      const struct vec_error *err)
{
	switch (r) {
	case VEC_EFORMAT:
		verify_error(v, "%s:%lu: %s", cli_safe(path), err->line,
		             cli_safe(err->msg));
		return EXIT_USAGE;
	case VEC_EIO:
		verify_error(v, "%s: %s", cli_safe(path), cli_safe(err->msg));
		return EXIT_IO;
	default:
		verify_error(v, "%s: out of memory", cli_safe(path));
		return EXIT_IO;
	}
}

/* The exit status of an acvp_load() error, after reporting it. */
int verify_acvp_failed(struct verify *v, const char *path,
                       struct acvp_error *err)
{
	char *line = acvp_strerror(err, path);

	verify_error(v, "%s", line != NULL ? line : "out of memory");
	free(line);
	acvp_error_free(err);
	switch (err->code) {
	case ACVP_EFORMAT:
	case ACVP_ENOANSWER:
	case ACVP_ETOOBIG:
		return EXIT_USAGE;
	case ACVP_ECRYPT:
		return EXIT_CHECK;
	default:
		return EXIT_IO;
	}
}

/* "(Monte Carlo outer iteration 3, inner iteration 5)", or "". */
static void iteration_text(const struct vfile *f, const struct failure *fl,
                           char *buf, size_t size)
{
	buf[0] = '\0';
	if (fl->kind == K_MCT && fl->outer >= 0 && fl->inner >= 0) {
		if (fl->ref != NULL)
			snprintf(buf, size, " (Monte Carlo outer iteration %ld, "
			         "inner iteration %ld: the first output that "
			         "differs from backend %s)", fl->outer, fl->inner,
			         fl->ref);
		else
			snprintf(buf, size, " (Monte Carlo outer iteration %ld, "
			         "inner iteration %ld)", fl->outer, fl->inner);
	} else if (fl->outer >= 0) {
		snprintf(buf, size, " (%s iteration %ld)",
		         f->type == F_ACVP ? "MCT" : "Monte Carlo outer",
		         fl->outer);
	}
}

/* "expected X, got Y", "block 2 of 4: expected ...", or "": values the
 * check computed or read as the vector's, shown as they are. */
static void values_text(const struct failure *fl, const char *bname,
                        char *buf, size_t size)
{
	char e[33], a[33];

	buf[0] = '\0';
	*cli_hex_encode(e, fl->expected, fl->vlen, CLI_HEX_LOWER) = '\0';
	*cli_hex_encode(a, fl->actual, fl->vlen, CLI_HEX_LOWER) = '\0';
	if (fl->block > 0 && fl->kind == K_RANDOM)
		snprintf(buf, size, "%s %zu of %zu: %s gives %s, %s gives %s",
		         fl->note[0] != '\0' ? fl->note : "block", fl->block,
		         fl->nblocks, fl->ref, e, bname, a);
	else if (fl->block > 0 && fl->nblocks == 1)
		snprintf(buf, size, "expected %s, got %s", e, a);
	else if (fl->block > 0)
		snprintf(buf, size, "block %zu of %zu: expected %s, got %s",
		         fl->block, fl->nblocks, e, a);
}

void verify_failure_line(const struct verify *v, const struct brun *b,
                         const struct failure *fl)
{
	const struct vfile *f = &v->files[fl->file];
	const char *bname = aesecb_backend_name(b->be);
	char detail[200], values[400], line[32] = "";

	iteration_text(f, fl, detail, sizeof detail);
	values_text(fl, bname, values, sizeof values);
	if (fl->line > 0)
		snprintf(line, sizeof line, ":%lu", fl->line);
	/* the message through the rule of what may be a key, the values
	 * (a block of the check, not a user's text) as they are */
	if (fl->kind == K_RANDOM)
		cli_err_data(values[0] != '\0' ? values : fl->note,
		             "%s%s: %s under %s: differs from %s: ",
		             cli_safe(f->path), line, cli_safe(fl->where), bname,
		             fl->ref);
	else
		cli_err_data(values, "%s%s: %s under %s%s: %s %s%s",
		             cli_safe(f->path), line, cli_safe(fl->where), bname,
		             detail, fl->field, fl->note,
		             fl->note[0] != '\0' && values[0] != '\0' ?
		             ": " : "");
}

unsigned long verify_entries(const struct verify *v)
{
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < v->nfiles; i++)
		n += v->files[i].n;
	return n;
}

unsigned long verify_good(const struct verify *v)
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
		return verify_kind_names[K_RANDOM];
	return f->kind >= 0 && f->kind < NKINDS ? verify_kind_names[f->kind] : NULL;
}

static void json_failure(struct cli_json *j, const struct vfile *f,
                         const struct failure *x)
{
	cli_json_object(j, NULL);
	cli_json_string(j, "file", f->path);
	cli_json_string(j, "kind", verify_kind_names[x->kind]);
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
	if (x->block > 0) {
		cli_json_hex(j, "expected", x->expected, x->vlen, CLI_HEX_LOWER);
		cli_json_hex(j, "actual", x->actual, x->vlen, CLI_HEX_LOWER);
	} else {
		cli_json_null(j, "expected");
		cli_json_null(j, "actual");
	}
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
		cli_json_object(j, verify_kind_names[s]);
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
	cli_json_uint(&j, "entries", verify_entries(v));
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
	cli_json_uint(&j, "passed", verify_good(v));
	cli_json_int(&j, "exit_status", status);
	cli_json_string(&j, "status", status == 0 ? "pass" :
	                status == EXIT_CHECK ? "fail" : "error");
	cli_json_end(&j);
	return cli_json_finish_stdout(&j);
}

static void summary(const struct verify *v)
{
	unsigned long total = verify_entries(v), good = verify_good(v);
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
		printf("vectors: %s (%s)\n", cli_safe(v->dir), v->dir_source);
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
		width[s] = s < NKINDS ? (int)strlen(verify_kind_names[s]) : 5;
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
			printf("  %-*s", width[s], verify_kind_names[s]);
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

int verify_report(const struct verify *v, int status)
{
	if (v->json)
		return report_json(v, status);
	if (status != 0 && status != EXIT_CHECK)
		return 0;   /* the error said it all */
	if (!v->quiet)
		report_text(v);
	summary(v);
	return cli_flush_stdout();
}
