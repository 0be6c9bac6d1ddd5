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

#include "cli.h"

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
	char shown[72];           /* value for messages: printable, cut short */
	const aesecb_backend *be; /* the backend it names, or NULL */
	const char *problem;      /* NULL when it names an available backend */
};

static void env_check(struct env_state *e)
{
	e->value = cli_backend_env();
	e->be = NULL;
	e->problem = NULL;
	if (e->value == NULL)
		return;
	cli_printable(e->value, e->shown, sizeof e->shown);
	e->be = aesecb_backend_find(e->value);
	if (e->be == NULL)
		e->problem = "no backend of that name";
	else
		e->problem = aesecb_backend_unavailable_reason(e->be);
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

static void print_table(const aesecb_backend *def, const struct env_state *e)
{
	size_t n = aesecb_backend_count(), i, j;
	size_t width[NCOLS];
	char scratch[16][48];
	const char *cells[16][NCOLS];

	if (n > 16)
		n = 16;  /* the library has four */
	for (j = 0; j < NCOLS; j++)
		width[j] = strlen(headings[j]);
	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);
		const char *why = aesecb_backend_unavailable_reason(be);

		snprintf(scratch[i], sizeof scratch[i], "%zu/%zu",
		         aesecb_backend_scratch_written(be, 0),
		         aesecb_backend_scratch_written(be, 1));
		cells[i][0] = aesecb_backend_name(be);
		cells[i][1] = aesecb_backend_arch(be);
		cells[i][2] = aesecb_backend_compiled(be) ? "yes" : "no";
		cells[i][3] = aesecb_backend_available(be) ? "yes" : "no";
		cells[i][4] = be == def ? "*" : "";
		cells[i][5] = scratch[i];
		cells[i][6] = aesecb_backend_dit(be) ? "yes" : "no";
		cells[i][7] = aesecb_backend_requires(be);
		cells[i][8] = why != NULL ? why : "-";
		for (j = 0; j < NCOLS; j++)
			if (strlen(cells[i][j]) > width[j])
				width[j] = strlen(cells[i][j]);
	}
	print_row(headings, width);
	for (i = 0; i < n; i++)
		print_row(cells[i], width);
	printf("\n");
	if (e->value == NULL)
		printf("default: %s (the best available on this CPU)\n",
		       aesecb_backend_name(def));
	else if (e->problem == NULL)
		printf("default: %s (set by AESECB_BACKEND)\n",
		       aesecb_backend_name(def));
	else
		printf("default: none: AESECB_BACKEND='%s' cannot be used (%s)\n",
		       e->shown, e->problem);
}

/* ------------------------------------------------------------------ */
/* JSON. */

static const char *json_bool(int v)
{
	return v ? "true" : "false";
}

static void print_json(const aesecb_backend *def, const struct env_state *e)
{
	size_t n = aesecb_backend_count(), i;

	fputs("{\n  \"default\": ", stdout);
	cli_json_str(stdout, def != NULL ? aesecb_backend_name(def) : NULL);
	fputs(",\n  \"default_from\": ", stdout);
	cli_json_str(stdout, e->value == NULL ? "best available"
	         : e->problem == NULL ? "AESECB_BACKEND" : NULL);
	fputs(",\n  \"AESECB_BACKEND\": ", stdout);
	cli_json_str(stdout, e->value);
	fputs(",\n  \"AESECB_BACKEND_problem\": ", stdout);
	cli_json_str(stdout, e->problem);
	fputs(",\n  \"backends\": [", stdout);
	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		fputs(i == 0 ? "\n    {" : ",\n    {", stdout);
		fputs("\"name\": ", stdout);
		cli_json_str(stdout, aesecb_backend_name(be));
		fputs(", \"arch\": ", stdout);
		cli_json_str(stdout, aesecb_backend_arch(be));
		printf(", \"compiled\": %s, \"available\": %s, \"default\": %s",
		       json_bool(aesecb_backend_compiled(be)),
		       json_bool(aesecb_backend_available(be)),
		       json_bool(be == def));
		printf(", \"scratch_written\": {\"encrypt\": %zu, \"decrypt\": %zu}",
		       aesecb_backend_scratch_written(be, 0),
		       aesecb_backend_scratch_written(be, 1));
		printf(", \"dit\": %s", json_bool(aesecb_backend_dit(be)));
		fputs(", \"requires\": ", stdout);
		cli_json_str(stdout, aesecb_backend_requires(be));
		fputs(", \"unavailable_reason\": ", stdout);
		cli_json_str(stdout, aesecb_backend_unavailable_reason(be));
		putchar('}');
	}
	fputs("\n  ]\n}\n", stdout);
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
	def = aesecb_backend_default();
	if (e.problem != NULL) {
		/* the listing works; anything that encrypts would fail */
		def = NULL;
		if (e.be == NULL)
			cli_err("warning: AESECB_BACKEND='%s' names no backend; "
			        "commands that encrypt will exit with status 3",
			        e.shown);
		else
			cli_err("warning: AESECB_BACKEND='%s' is not available "
			        "here: %s; commands that encrypt will exit with "
			        "status 3", e.shown, e.problem);
	}

	if (o.json)
		print_json(def, &e);
	else
		print_table(def, &e);
	return cli_flush_stdout();
}
