/* SPDX-License-Identifier: MIT */
/*
 * mct.h - the AESAVS Monte Carlo test for ECB: the inner loop, the key
 * update rule, and how one entry of a response file follows from the
 * previous one.  Used by 'aesecb verify'; the parser (vecfile.c) only reads
 * the entries.
 */
#ifndef AESECB_CLI_MCT_H
#define AESECB_CLI_MCT_H

#include <stddef.h>
#include <stdint.h>

#include "aesecb.h"

#define MCT_INNER 1000   /* one-block calls per entry (outer iteration) */
#define MCT_OUTER 100    /* entries per section */

/*
 * Run the inner loop of one outer iteration: 1000 one-block calls of
 * aesecb_encrypt (or aesecb_decrypt when decrypt != 0), each call's output
 * being the next call's input.  On return last holds output 999 and prev
 * output 998.  Returns 0, or a library status if a call failed.
 */
int mct_inner(const aesecb_ctx *ctx, int decrypt, const uint8_t in[16],
              uint8_t prev[16], uint8_t last[16]);

/*
 * As mct_inner() on two contexts in lockstep, each fed its own outputs.
 * Returns the first inner iteration (0..999) whose outputs differ, or -1 if
 * all agree, or -2 if a call failed.
 */
int mct_diverge(const aesecb_ctx *a, const aesecb_ctx *b, int decrypt,
                const uint8_t in[16]);

/*
 * The AESAVS key update: key (key_len 16, 24 or 32 bytes) is replaced by
 * key XOR the last key_len bytes of (prev || last), where prev and last are
 * outputs 998 and 999 of the inner loop.
 */
void mct_next_key(uint8_t *key, size_t key_len, const uint8_t prev[16],
                  const uint8_t last[16]);

/*
 * Where an entry whose inner loop gave a wrong result under ctx (backend
 * be) first goes wrong: the first inner iteration whose output differs
 * from another available backend that gets the entry right.  Returns that
 * iteration, with the other backend's name in *ref, or -1 (*ref NULL) when
 * no other backend can tell.
 */
long mct_locate(const aesecb_backend *be, const aesecb_ctx *ctx,
                const uint8_t *key, size_t key_len, int decrypt,
                const uint8_t in[16], const uint8_t expect[16],
                const char **ref);

/*
 * The chaining rule of a Monte Carlo section: entry COUNT = n + 1 starts
 * from the key that entry n's key update gives and from entry n's last
 * output.  The chain holds what the next entry must start from.
 */
struct mct_chain {
	int valid;               /* the previous entry passed */
	int dir;
	unsigned long count;     /* its COUNT */
	uint8_t key[32];         /* the next entry's KEY */
	size_t key_len;
	uint8_t next_in[16];     /* the next entry's input */
};

/* Whether an entry (direction, COUNT) must follow from the chain. */
int mct_chain_follows(const struct mct_chain *ch, int dir,
                      unsigned long count);

/* After an entry passed (outputs 998 and 999 in prev and last): what the
 * next entry must start from. */
void mct_chain_advance(struct mct_chain *ch, int dir, unsigned long count,
                       const uint8_t *key, size_t key_len,
                       const uint8_t prev[16], const uint8_t last[16]);

/*
 * The whole Monte Carlo test of one group: MCT_OUTER outer iterations from
 * key and in, under backend be (NULL: the default), recording each
 * iteration's key, input and output (ACVP's resultsArray).  Returns
 * AESECB_OK or aesecb_init's status (out wiped then).
 */
struct mct_result {
	uint8_t key[32];
	size_t key_len;
	uint8_t in[16];
	uint8_t out[16];
};

int mct_run(const aesecb_backend *be, int decrypt, const uint8_t *key,
            size_t key_len, const uint8_t in[16],
            struct mct_result out[MCT_OUTER]);

#endif
