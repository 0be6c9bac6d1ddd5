/* SPDX-License-Identifier: MIT */
/*
 * backend.h - the backend a command runs on, and the context every command
 * that encrypts with a user's key builds.
 */
#ifndef AESECB_CLI_BACKEND_H
#define AESECB_CLI_BACKEND_H

#include "aesecb.h"
#include "common/keys.h"

/*
 * Pick the backend, through aesecb_backend_resolve(): name == NULL means
 * the default ($AESECB_BACKEND as aesecb_backend_env() reads it, else the
 * best available).  "all" is not accepted here.  On failure prints the
 * reason (naming what is missing) and returns EXIT_BACKEND.  The tool
 * reads $AESECB_BACKEND only through the library.
 */
int cli_backend_resolve(const char *name, const aesecb_backend **out);

/*
 * The backends a command that runs several (verify, bench) runs: with -b
 * NAME, that one (run[0], and *only); with -b all or none, every backend
 * this CPU runs, the others in skipped.  avail is every backend this CPU
 * runs, whatever -b says.  The arrays have room for every backend of the
 * library (aesecb_backend_count(), never a constant).  Returns 0, or an
 * exit status after the message; cli_backends_free() in any case.
 */
struct cli_backends {
	const aesecb_backend **run, **skipped, **avail;
	size_t nrun, nskipped, navail;
	const aesecb_backend *only;
};
int cli_backends_select(const char *name, struct cli_backends *sel);
void cli_backends_free(struct cli_backends *sel);

/* The exit status for a library status other than AESECB_OK: key length
 * and argument errors are EXIT_USAGE, backend errors EXIT_BACKEND. */
int cli_status_exit(int st);

/*
 * "no key given" if no key option was seen, then the backend (name, or
 * NULL for the default), then aesecb_init.  The key is wiped in every
 * case.  Returns 0, or an exit status after printing one error line.
 */
int cli_context(aesecb_ctx *ctx, struct cli_key *key, const char *backend);

#endif
