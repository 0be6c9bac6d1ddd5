/* SPDX-License-Identifier: MIT */
/*
 * cmd_verify.c - aesecb verify: check NIST CAVP response files, QUIC
 * header-protection vectors and NIST ACVP vector sets under every backend,
 * and (--random) random cases on which every backend must agree.
 *
 * cmd_verify() reads in order: the options, the backends, the files
 * (collected, then each read and validated: a malformed file stops the run
 * before any backend is tried), the run, the report.  See verify.h for
 * what is checked and where each part lives.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

#include "vectors/acvp.h"
#include "commands/commands.h"
#include "common/num.h"
#include "vectors/verify.h"

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
	int random;               /* --random N */
	uint64_t random_n;
	int have_seed;            /* --seed S */
	uint64_t seed;
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

/* Options, typed as they are read; the PATH operands are left at
 * argv[optind..]. */
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
			o->random = 1;
			rc = parse_number(optarg, "--random", 100000000u,
			                  &o->random_n);
			break;
		case OPT_SEED:
			o->have_seed = 1;
			rc = parse_number(optarg, "--seed", UINT64_MAX, &o->seed);
			break;
		default:
			rc = cli_option(&o->common, c, optarg);
			break;
		}
	}
	if (rc == 0 && o->have_seed && !o->random)
		rc = cli_usage("--seed needs --random");
	return rc;
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

/* The backends: -b NAME, or all (every one this CPU runs, the others
 * skipped); and every available one, which the random cases compare. */
static int select_backends(struct verify *v, const char *name)
{
	struct cli_backends sel;
	size_t i;
	int rc = cli_backends_select(name, &sel);

	v->runs = calloc(sel.nrun ? sel.nrun : 1, sizeof *v->runs);
	if (rc == 0 && v->runs == NULL) {
		cli_err("out of memory");
		rc = EXIT_IO;
	}
	if (rc != 0) {
		cli_backends_free(&sel);
		return rc;
	}
	for (i = 0; i < sel.nrun; i++)
		v->runs[v->nruns++].be = sel.run[i];
	free(sel.run);
	v->avail = sel.avail;          /* verify_free() frees them */
	v->navail = sel.navail;
	v->skipped = sel.skipped;
	v->nskipped = sel.nskipped;
	return 0;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_opts o;
	struct verify *v;
	int status;

	memset(&o, 0, sizeof o);
	o.common.backend_all = 1;
	status = parse(&o, argc, argv);
	if (status != 0 || o.common.help)
		return status != 0 ? status : cli_help(help);
	status = cli_acvp_memory_env();
	if (status != 0)
		return status;
	v = calloc(1, sizeof *v);
	if (v == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	v->json = o.json;
	v->quiet = o.quiet;
	v->random = o.random;
	v->random_n = (unsigned long)o.random_n;
	v->seed = o.have_seed ? o.seed : o.random ? default_seed() : 0;

	status = select_backends(v, o.common.backend);
	if (status != 0) {
		verify_free(v);
		free(v);
		return status;
	}
	status = verify_collect(v, argv + optind, (size_t)(argc - optind));
	if (status == 0)
		status = verify_validate(v);
	if (status == 0)
		status = verify_add_random(v);
	if (status == 0)
		status = verify_run(v);
	if (status == 0 && verify_good(v) != verify_entries(v))
		status = EXIT_CHECK;
	if (verify_report(v, status) != 0)
		status = EXIT_IO;
	verify_free(v);
	free(v);
	return status;
}
