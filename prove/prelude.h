/* SPDX-License-Identifier: MIT */
/*
 * prelude.h - included first in every file 'make prove' hands to Frama-C
 * (never in a build).  Frama-C 25's C front end and C library lack a few
 * things of C11 the library uses; what it is given instead takes no part
 * in what is proved (HACKING.md, "Proofs").
 */

/* _Alignas and _Alignof (the context's 64-byte alignment, its
 * _Static_assert): the GNU spellings, which the front end reads.
 * Alignment is no part of the memory model of either analysis. */
#define _Alignas(n) __attribute__((aligned(n)))
#define _Alignof(t) __alignof__(t)

/* aligned_alloc (aesecb_ctx_new): malloc, whose model the library of the
 * analyser has; only the alignment of the block differs. */
#define aligned_alloc(alignment, size) malloc(size)
