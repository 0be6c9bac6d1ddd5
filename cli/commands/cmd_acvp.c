/* SPDX-License-Identifier: MIT */
/*
 * cmd_acvp.c - "aesecb acvp": answer a NIST ACVP AES-ECB prompt (the
 * questions of a vector set) with the response the ACVP server expects.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vectors/acvp.h"
#include "commands/commands.h"
#include "common/outfile.h"

static void help(FILE *f)
{
	fputs(
"Usage: aesecb acvp [-b NAME] [-o FILE] PROMPT.json\n"
"Answer a NIST ACVP vector set for ACVP-AES-ECB revision 1.0: read its\n"
"questions (prompt.json: testGroups of AFT and MCT tests, encrypt or\n"
"decrypt, keyLen 128, 192 or 256) and write the response: vsId, algorithm,\n"
"revision (and isSample when the prompt has it), testGroups[].tests[] with\n"
"tcId and ct or pt, or resultsArray (100 iterations of key, pt and ct) for\n"
"Monte Carlo tests.  The response has the form of the prompt (a bare\n"
"object, or the array [{\"acvVersion\": ...}, {...}]); hex is upper case.\n"
"\n"
"Options:\n"
"  -b, --backend NAME   backend to use (default: $AESECB_BACKEND, else the\n"
"                       fastest available)\n"
"  -o, --output FILE    write the response to FILE, replaced only when the\n"
"                       whole answer was written (default: standard output)\n"
"  -h, --help           show this help\n"
"\n"
"Exit status: 0 success; 2 usage error or malformed prompt; 3 backend\n"
"unknown or not available; 4 I/O error.\n", f);
}

struct acvp_opts {
	struct cli_opts common;   /* -b, -h */
	const char *out;          /* -o FILE */
};

static const struct option longopts[] = {
	{ "backend", required_argument, NULL, 'b' },
	{ "output",  required_argument, NULL, 'o' },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int parse(struct acvp_opts *o, int argc, char **argv)
{
	int c, rc = 0;

	optind = 1;
	while (rc == 0 && !o->common.help &&
	       (c = cli_getopt(argc, argv, ":b:o:h", longopts)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		default:
			rc = cli_option(&o->common, c, optarg);
			break;
		}
	}
	if (rc == 0 && !o->common.help) {
		if (optind >= argc)
			rc = cli_usage("no prompt given");
		else if (argc - optind > 1)
			rc = cli_usage("one prompt at a time");
	}
	return rc;
}

/* An acvp.h error: one line, and its exit status. */
static int acvp_status(const char *path, struct acvp_error *err)
{
	char *line = acvp_strerror(err, path);

	cli_err("%s", line != NULL ? line : "out of memory");
	free(line);
	acvp_error_free(err);
	switch (err->code) {
	case ACVP_EFORMAT:
	case ACVP_ETOOBIG:
		return EXIT_USAGE;
	case ACVP_ECRYPT:
		return EXIT_BACKEND;
	default:
		return EXIT_IO;
	}
}

/* A write to OUT failed: worded as encrypt and decrypt word it. */
static int write_failed(const struct cli_outfile *out, int to_stdout,
                        const char *why)
{
	if (to_stdout)
		cli_err("cannot write stdout: %s", why);
	else
		cli_err("cannot write '%s': %s", cli_safe(out->name), why);
	return EXIT_IO;
}

/* A stdio stream on OUT's descriptor: one that keeps the reason of a
 * failed write (msg.h), else one on a copy of the descriptor. */
static FILE *answer_stream(const struct cli_outfile *out)
{
	FILE *fp = cli_stream(out->fd);
	int fd;

	if (fp != NULL)
		return fp;
	fd = dup(out->fd);
	fp = fd < 0 ? NULL : fdopen(fd, "w");
	if (fp == NULL && fd >= 0)
		close(fd);
	return fp;
}

/* The answer, written to OUT through stdio.  Returns 0, or an exit status
 * after the message. */
static int write_answer(const struct acvp_set *set, const aesecb_backend *be,
                        const struct cli_outfile *out, int to_stdout,
                        const char *prompt)
{
	static const char wr[] = "cannot write: ";
	struct acvp_error err;
	FILE *fp = answer_stream(out);
	int st;

	if (fp == NULL)
		return write_failed(out, 0, strerror(errno));
	st = acvp_answer(set, be, fp, out->name, &err);
	errno = 0;
	if (fclose(fp) != 0 && st == ACVP_OK)
		return write_failed(out, to_stdout,
		                    strerror(cli_write_error()));
	if (st == ACVP_EIO) {
		acvp_error_free(&err);
		return write_failed(out, to_stdout,
		                    strncmp(err.msg, wr, sizeof wr - 1) == 0 ?
		                    err.msg + sizeof wr - 1 : err.msg);
	}
	return st == ACVP_OK ? 0 : acvp_status(prompt, &err);
}

int cmd_acvp(int argc, char **argv)
{
	struct acvp_opts o;
	struct acvp_set set;
	struct acvp_error err;
	struct cli_outfile out;
	const aesecb_backend *be;
	const char *prompt;
	int rc;

	memset(&o, 0, sizeof o);
	rc = parse(&o, argc, argv);
	if (rc != 0 || o.common.help)
		return rc != 0 ? rc : cli_help(help);
	prompt = argv[optind];
	rc = cli_acvp_memory_env();
	if (rc != 0)
		return rc;
	rc = cli_backend_resolve(o.common.backend, &be);
	if (rc != 0)
		return rc;
	/* the questions only: expected results next to it are not read */
	if (acvp_load_files(prompt, NULL, &set, &err) != ACVP_OK)
		return acvp_status(prompt, &err);
	rc = cli_outfile_open(&out, o.out);
	if (rc == 0)
		rc = write_answer(&set, be, &out, o.out == NULL ||
		                  strcmp(o.out, "-") == 0, prompt);
	acvp_free(&set);
	if (rc != 0) {
		cli_outfile_abort(&out);
		return rc;
	}
	return cli_outfile_commit(&out);
}
