/* SPDX-License-Identifier: MIT */
/*
 * cmd_backends.c - "aesecb backends": every backend the library knows, and
 * whether this build and this CPU can run it.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"

static void help(FILE *f)
{
	fputs(
"Usage: aesecb backends [--json]\n"
"Lists every backend: its name, the architecture it is for, whether it is\n"
"compiled into this build, whether this CPU can run it, which one is the\n"
"default, how many bytes of working space its encrypt and decrypt paths\n"
"write (all of which are wiped after each call), whether its calls run in\n"
"the CPU's data-independent timing mode (AArch64 DIT), the CPU features it\n"
"needs, and why it cannot run when it cannot.\n"
"\n"
"The default is $AESECB_BACKEND when that is set, else the best available.\n"
"When $AESECB_BACKEND names a backend that is unknown or not available here,\n"
"no backend is marked as the default and a warning goes to standard error;\n"
"the listing still succeeds.\n"
"\n"
"Options:\n"
"      --json     print a JSON object instead of the table\n"
"  -h, --help     show this help\n"
"\n"
"Exit status: 0 success; 2 usage error; 4 I/O error.\n", f);
}

/* What $AESECB_BACKEND does to the default. */
struct env_state {
	const char *value;        /* NULL when unset or empty */
	char *shown;              /* value for messages (cli_show_alloc) */
	const aesecb_backend *be; /* the backend it names, or NULL */
	const char *problem;      /* NULL when it names an available backend */
};

static void env_check(struct env_state *e)
{
	e->value = aesecb_backend_env();
	e->be = NULL;
	e->problem = NULL;
	e->shown = NULL;
	if (e->value == NULL)
		return;
	e->shown = cli_show_alloc(e->value, CLI_SHOW_ESCAPE);
	if (aesecb_backend_resolve(e->value, &e->be, &e->problem) ==
	    AESECB_EUNKNOWN)
		e->problem = "no backend of that name";
}

/* ------------------------------------------------------------------ */
/* Table. */

#define NCOLS 9

static const char *const headings[NCOLS] = {
	"BACKEND", "ARCH", "COMPILED", "AVAILABLE", "DEFAULT",
	"SCRATCH ENC/DEC", "DIT", "REQUIRES", "WHY NOT",
};

static void print_row(const char *const cell[NCOLS], const size_t width[NCOLS])
{
	int i;

	for (i = 0; i < NCOLS; i++) {
		if (i == NCOLS - 1)
			printf("%s\n", cell[i]);
		else
			printf("%-*s  ", (int)width[i], cell[i]);
	}
}

/* The cells of one backend's row; scratch holds the "ENC/DEC" cell. */
static void row_of(const aesecb_backend *be, const aesecb_backend *def,
                   const char *cell[NCOLS], char scratch[48])
{
	const char *why = aesecb_backend_unavailable_reason(be);

	snprintf(scratch, 48, "%zu/%zu", aesecb_backend_scratch_written(be, 0),
	         aesecb_backend_scratch_written(be, 1));
	cell[0] = aesecb_backend_name(be);
	cell[1] = aesecb_backend_arch(be);
	cell[2] = aesecb_backend_compiled(be) ? "yes" : "no";
	cell[3] = aesecb_backend_available(be) ? "yes" : "no";
	cell[4] = be == def ? "*" : "";
	cell[5] = scratch;
	cell[6] = aesecb_backend_dit(be) ? "yes" : "no";
	cell[7] = aesecb_backend_requires(be);
	cell[8] = why != NULL ? why : "-";
}

/* Every backend, one row each: the widths first, then the rows. */
static void print_table(const aesecb_backend *def, const struct env_state *e)
{
	size_t n = aesecb_backend_count(), i, j;
	size_t width[NCOLS];
	const char *cells[NCOLS];
	char scratch[48];

	for (j = 0; j < NCOLS; j++)
		width[j] = strlen(headings[j]);
	for (i = 0; i < n; i++) {
		row_of(aesecb_backend_get(i), def, cells, scratch);
		for (j = 0; j < NCOLS; j++)
			if (strlen(cells[j]) > width[j])
				width[j] = strlen(cells[j]);
	}
	print_row(headings, width);
	for (i = 0; i < n; i++) {
		row_of(aesecb_backend_get(i), def, cells, scratch);
		print_row(cells, width);
	}
	printf("\n");
	if (e->value == NULL)
		printf("default: %s (the best available on this CPU)\n",
		       aesecb_backend_name(def));
	else if (e->problem == NULL)
		printf("default: %s (set by AESECB_BACKEND)\n",
		       aesecb_backend_name(def));
	else
		printf("default: no backend: AESECB_BACKEND='%s' cannot be "
		       "used (%s)\n", e->shown != NULL ? e->shown : CLI_NOT_SHOWN,
		       e->problem);
}

/* ------------------------------------------------------------------ */
/* JSON. */

static int print_json(const aesecb_backend *def, const struct env_state *e)
{
	size_t n = aesecb_backend_count(), i;
	struct cli_json j;

	cli_json_start(&j, stdout, CLI_JSON_LISTING);
	cli_json_object(&j, NULL);
	cli_json_string(&j, "default",
	                def != NULL ? aesecb_backend_name(def) : NULL);
	cli_json_string(&j, "default_from", e->value == NULL ? "best available"
	                : e->problem == NULL ? "AESECB_BACKEND" : NULL);
	cli_json_string(&j, "AESECB_BACKEND", e->value);
	cli_json_string(&j, "AESECB_BACKEND_problem", e->problem);
	cli_json_array(&j, "backends");
	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		cli_json_object(&j, NULL);
		cli_json_string(&j, "name", aesecb_backend_name(be));
		cli_json_string(&j, "arch", aesecb_backend_arch(be));
		cli_json_bool(&j, "compiled", aesecb_backend_compiled(be));
		cli_json_bool(&j, "available", aesecb_backend_available(be));
		cli_json_bool(&j, "default", be == def);
		cli_json_object(&j, "scratch_written");
		cli_json_uint(&j, "encrypt", aesecb_backend_scratch_written(be, 0));
		cli_json_uint(&j, "decrypt", aesecb_backend_scratch_written(be, 1));
		cli_json_end(&j);
		cli_json_bool(&j, "dit", aesecb_backend_dit(be));
		cli_json_string(&j, "requires", aesecb_backend_requires(be));
		cli_json_string(&j, "unavailable_reason",
		                aesecb_backend_unavailable_reason(be));
		cli_json_end(&j);
	}
	cli_json_end(&j);
	cli_json_end(&j);
	return cli_json_finish_stdout(&j);
}

/* ------------------------------------------------------------------ */

struct backends_opts {
	struct cli_opts common;   /* -h */
	int json;
};

enum { OPT_JSON = CLI_OPT_OWN };

static const struct option longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int parse(struct backends_opts *o, int argc, char **argv)
{
	int c, rc = 0;

	optind = 1;
	while (rc == 0 && !o->common.help &&
	       (c = cli_getopt(argc, argv, ":h", longopts)) != -1) {
		switch (c) {
		case OPT_JSON:
			o->json = 1;
			break;
		default:
			rc = cli_option(&o->common, c, optarg);
			break;
		}
	}
	if (rc == 0 && !o->common.help && optind < argc)
		return cli_usage("unexpected argument '%s'",
		                 cli_safe(argv[optind]));
	return rc;
}

int cmd_backends(int argc, char **argv)
{
	struct backends_opts o;
	struct env_state e;
	const aesecb_backend *def;
	int rc;

	memset(&o, 0, sizeof o);
	rc = parse(&o, argc, argv);
	if (rc != 0 || o.common.help)
		return rc != 0 ? rc : cli_help(help);

	env_check(&e);
	/* the default as aesecb_init picks it: none when $AESECB_BACKEND
	 * cannot be used (the listing works; anything that encrypts would
	 * fail) */
	if (aesecb_backend_resolve(NULL, &def, NULL) != AESECB_OK)
		def = NULL;
	if (e.problem != NULL) {
		const char *shown = e.shown != NULL ? e.shown : CLI_NOT_SHOWN;

		if (e.be == NULL)
			cli_err("warning: AESECB_BACKEND='%s' names no backend; "
			        "commands that encrypt will exit with status 3",
			        shown);
		else
			cli_err("warning: AESECB_BACKEND='%s' is not available "
			        "here: %s; commands that encrypt will exit with "
			        "status 3", shown, e.problem);
	}

	if (o.json) {
		rc = print_json(def, &e);
	} else {
		print_table(def, &e);
		rc = cli_flush_stdout();
	}
	free(e.shown);
	return rc;
}
