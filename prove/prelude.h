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

/* __builtin_alloca (the burn of lib/aesecb.c's run_burned).  For Eva,
 * the C library's alloca, which Eva allocates.  For WP (prove.sh defines
 * AESECB_PROVE_WP), a block of n bytes that writes nothing itself: the
 * C library's alloca says the same with 'allocates' and \fresh, which WP
 * does not implement, and with a ghost stack state that every contract
 * on the path would have to name. */
#ifdef AESECB_PROVE_WP
#include <stddef.h>
/*@ assigns \nothing;
    ensures \valid((unsigned char *)\result + (0 .. n - 1)); */
void *aesecb__prove_alloca(size_t n);
#define __builtin_alloca(n) aesecb__prove_alloca(n)
#else
#include <alloca.h>
#define __builtin_alloca(n) alloca(n)
#endif

/* Eva (prove.sh defines AESECB_PROVE_EVA): the stack mark of the burned
 * calls as its contract with no effect, which Eva uses in place of its
 * body (-eva-use-spec).  The mark records the address of a local of its
 * own frame as an integer after that frame is gone, and run_burned sizes
 * the burn by subtracting two such integers: arithmetic on the stack's
 * layout, outside the C object model Eva checks.  WP proves the mark's
 * own contract (internal.h); tests/check_residue checks the burn. */
#ifdef AESECB_PROVE_EVA
struct aesecb_stack;
/*@ assigns \nothing; */
void aesecb__stack_mark(struct aesecb_stack *stk);
#endif
