/* SPDX-License-Identifier: MIT */
/*
 * hpunprotect.h - "aesecb hp-mask --unprotect": whole datagrams, given as
 * an argument or streamed one hex datagram per line from files or
 * standard input, unprotected with cli/unprotect.h and reported in text or
 * JSON, with the exit statuses of aesecb(1).
 */
#ifndef AESECB_HPUNPROTECT_H
#define AESECB_HPUNPROTECT_H

#include <stddef.h>
#include <stdint.h>

#include "unprotect.h"

struct hpu_opts {
	struct up_config cfg;      /* the key sources (keylog loaded) */
	int json;                  /* --json */
	/* one datagram (--unprotect HEX), or a stream (--unprotect -) */
	const uint8_t *datagram;
	size_t datagram_len;
	char **files;              /* the stream's files ("-": stdin); none:
	                              standard input */
	size_t nfiles;
	const char *keylog_name;   /* for messages, or NULL */
};

/* Run it; prints the report and the errors, returns the exit status. */
int hpu_run(const struct hpu_opts *o);

#endif
