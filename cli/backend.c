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

/* secure_getenv (glibc 2.17 and later, with _GNU_SOURCE from config.h)
 * ignores the environment in a set-user-ID program; elsewhere getenv. */
#if defined(_GNU_SOURCE) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 17))
#define env_get secure_getenv
#else
#define env_get getenv
#endif

const char *cli_backend_env(void)
{
	const char *v = env_get("AESECB_BACKEND");

	return v != NULL && v[0] != '\0' ? v : NULL;
}

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
	const aesecb_backend *be;
	const char *why, *env = NULL;
	char names[128], safe[68];

	*out = NULL;
	if (name == NULL) {
		env = cli_backend_env();
		if (env == NULL) {
			*out = aesecb_backend_default();
			return *out != NULL ? 0 : EXIT_BACKEND;
		}
		name = env;
	}
	be = aesecb_backend_find(name);
	if (be == NULL) {
		list_names(names, sizeof names);
		cli_err("%s '%s' (known: %s)", env != NULL ?
		        "AESECB_BACKEND names no backend:" : "unknown backend",
		        cli_printable(name, safe, sizeof safe), names);
		return EXIT_BACKEND;
	}
	why = aesecb_backend_unavailable_reason(be);
	if (why != NULL) {
		cli_err("backend '%s' is not available here: %s (needs %s)",
		        aesecb_backend_name(be), why,
		        aesecb_backend_requires(be));
		return EXIT_BACKEND;
	}
	*out = be;
	return 0;
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
