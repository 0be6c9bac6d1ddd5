/* SPDX-License-Identifier: MIT */
/*
 * backend.c - the backend a command runs on, the context it builds, and
 * library statuses as exit statuses (see backend.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "aesecb.h"
#include "common/backend.h"
#include "common/msg.h"
#include "common/printable.h"

int cli_status_exit(int st)
{
	switch (st) {
	case AESECB_OK:
		return EXIT_OK_;
	case AESECB_EUNKNOWN:
	case AESECB_EUNAVAILABLE:
		return EXIT_BACKEND;
	default:   /* key length, partial block, missing argument */
		return EXIT_USAGE;
	}
}

/* The names of every backend, ", " between them, in memory the caller
 * frees (NULL when out of memory): as long as the library's list. */
static char *list_names(void)
{
	size_t i, n = aesecb_backend_count(), len = 1;
	char *buf;

	for (i = 0; i < n; i++)
		len += strlen(aesecb_backend_name(aesecb_backend_get(i))) + 2;
	buf = malloc(len);
	if (buf == NULL)
		return NULL;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(buf, ", ");
		strcat(buf, aesecb_backend_name(aesecb_backend_get(i)));
	}
	return buf;
}

int cli_backend_resolve(const char *name, const aesecb_backend **out)
{
	const char *why, *env = name == NULL ? aesecb_backend_env() : NULL;
	char *names;

	switch (aesecb_backend_resolve(name, out, &why)) {
	case AESECB_OK:
		return 0;
	case AESECB_EUNKNOWN:
		names = list_names();
		cli_err("%s '%s' (known: %s)", env != NULL ?
		        "AESECB_BACKEND names no backend:" : "unknown backend",
		        cli_safe(env != NULL ? env : name),
		        names != NULL ? names : "(out of memory)");
		free(names);
		break;
	default:
		cli_err("backend '%s' is not available here: %s (needs %s)",
		        aesecb_backend_name(*out), why,
		        aesecb_backend_requires(*out));
		break;
	}
	*out = NULL;
	return EXIT_BACKEND;
}

int cli_backends_select(const char *name, struct cli_backends *sel)
{
	size_t i, n = aesecb_backend_count();

	memset(sel, 0, sizeof *sel);
	sel->run = calloc(n ? n : 1, sizeof *sel->run);
	sel->skipped = calloc(n ? n : 1, sizeof *sel->skipped);
	sel->avail = calloc(n ? n : 1, sizeof *sel->avail);
	if (sel->run == NULL || sel->skipped == NULL || sel->avail == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (aesecb_backend_available(be))
			sel->avail[sel->navail++] = be;
	}
	if (name != NULL && strcmp(name, "all") != 0) {
		int rc = cli_backend_resolve(name, &sel->only);

		if (rc == 0)
			sel->run[sel->nrun++] = sel->only;
		return rc;
	}
	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (aesecb_backend_available(be))
			sel->run[sel->nrun++] = be;
		else
			sel->skipped[sel->nskipped++] = be;
	}
	return 0;
}

void cli_backends_free(struct cli_backends *sel)
{
	free(sel->run);
	free(sel->skipped);
	free(sel->avail);
	memset(sel, 0, sizeof *sel);
}

int cli_context(aesecb_ctx *ctx, struct cli_key *key, const char *backend)
{
	const aesecb_backend *be;
	int rc, st;

	if (!key->given)
		return cli_usage("no key given: use -k HEX, -K FILE or "
		                 "--key-env VAR");
	rc = cli_backend_resolve(backend, &be);
	if (rc == 0) {
		st = aesecb_init(ctx, key->bytes, key->len, be);
		if (st != AESECB_OK) {
			cli_err("%s", aesecb_strerror(st));
			rc = cli_status_exit(st);
		}
	}
	cli_key_wipe(key);
	return rc;
}
