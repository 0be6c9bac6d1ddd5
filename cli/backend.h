/* SPDX-License-Identifier: MIT */
/*
 * backend.h - the backend a command runs on, and the context every command
 * that encrypts with a user's key builds.
 */
#ifndef AESECB_CLI_BACKEND_H
#define AESECB_CLI_BACKEND_H

#include "aesecb.h"
#include "keys.h"

/*
 * Pick the backend, through aesecb_backend_resolve(): name == NULL means
 * the default ($AESECB_BACKEND as aesecb_backend_env() reads it, else the
 * best available).  "all" is not accepted here.  On failure prints the
 * reason (naming what is missing) and returns EXIT_BACKEND.  The tool
 * reads $AESECB_BACKEND only through the library.
 */
int cli_backend_resolve(const char *name, const aesecb_backend **out);

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
