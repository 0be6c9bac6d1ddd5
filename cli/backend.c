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
#include "backend.h"
#include "msg.h"
#include "printable.h"

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

/* The names of every backend, ", " between them. */
static void list_names(char *buf, size_t size)
{
	size_t i, n = aesecb_backend_count();

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *name = aesecb_backend_name(aesecb_backend_get(i));
		if (i > 0)
			strncat(buf, ", ", size - strlen(buf) - 1);
		strncat(buf, name, size - strlen(buf) - 1);
	}
}

int cli_backend_resolve(const char *name, const aesecb_backend **out)
{
	const char *why, *env = name == NULL ? aesecb_backend_env() : NULL;
	char names[256], safe[68];

	switch (aesecb_backend_resolve(name, out, &why)) {
	case AESECB_OK:
		return 0;
	case AESECB_EUNKNOWN:
		list_names(names, sizeof names);
		cli_err("%s '%s' (known: %s)", env != NULL ?
		        "AESECB_BACKEND names no backend:" : "unknown backend",
		        cli_printable(env != NULL ? env : name, safe,
		                      sizeof safe), names);
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
