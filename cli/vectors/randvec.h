/* SPDX-License-Identifier: MIT */
/*
 * randvec.h - random cases on which every backend must agree ('aesecb
 * verify --random'): a seeded generator, the cases, running one under a
 * backend, and comparing two backends' results.
 *
 * The generator is xoshiro256** seeded through splitmix64: the same seed
 * gives the same cases on every platform (byte order included).
 */
#ifndef AESECB_CLI_RANDVEC_H
#define AESECB_CLI_RANDVEC_H

#include <stddef.h>
#include <stdint.h>

#include "aesecb.h"

#define RV_MAX_BLOCKS 64

struct rv_rng {
	uint64_t s[4];
};

void rv_seed(struct rv_rng *r, uint64_t seed);
uint64_t rv_next(struct rv_rng *r);

/* What a case does. */
enum rv_op {
	RV_ENCRYPT = 0,   /* aesecb_encrypt over nblocks blocks */
	RV_DECRYPT,       /* aesecb_decrypt over nblocks blocks */
	RV_MASK,          /* aesecb_hp_mask of one sample (nblocks 1) */
	RV_MASKS,         /* aesecb_hp_masks of nblocks samples */
	RV_PROTECT,       /* aesecb_hp_protect then aesecb_hp_unprotect of a
	                     QUIC short header (nblocks 1): the protected
	                     header, and the round trip must give it back */
	RV_NOPS
};

struct rv_case {
	unsigned long index;      /* 0-based number of the case */
	int op;                   /* enum rv_op */
	size_t key_len;           /* 16, 24 or 32 */
	size_t nblocks;           /* 1..RV_MAX_BLOCKS */
	uint8_t key[32];
	uint8_t in[RV_MAX_BLOCKS * 16];
};

/* Case number index from the generator (the next case of a run). */
void rv_make(struct rv_rng *r, unsigned long index, struct rv_case *c);

/* Bytes of a case's result, and of one unit of it (a block, a mask, the
 * protected header); the result holds rv_out_len / rv_unit_len units. */
size_t rv_out_len(const struct rv_case *c);
size_t rv_unit_len(const struct rv_case *c);
#define RV_OUT_MAX (RV_MAX_BLOCKS * 16)

/*
 * Run the case under backend be, writing rv_out_len(c) bytes to out.
 * Returns AESECB_OK or a library status; for RV_PROTECT, -1 when
 * unprotecting did not give the header back.
 */
int rv_run(const struct rv_case *c, const aesecb_backend *be, uint8_t *out);

/* The first unit in which results a and b differ, or -1 if they agree. */
long rv_compare(const struct rv_case *c, const uint8_t *a, const uint8_t *b);

/* "encrypt", "decrypt", "hp_mask", "hp_masks", "hp_protect". */
const char *rv_op_name(int op);

#endif
