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

/* Eva: gcc's <cpuid.h> (lib/cpu.c's CPU detection on x86), whose CPUID
 * instructions are asm statements: Eva takes an asm's output operands as
 * written but not initialised.  In its place, what CPUID does to memory:
 * it writes the four registers, each some 32-bit value, and __get_cpuid
 * answers 0 (no CPUID, or the leaf above the highest) or 1 with them set.
 * Which values they hold is left open: every combination of CPU features
 * is analysed. */
#ifdef AESECB_PROVE_EVA
#define _CPUID_H_INCLUDED 1
/*@ assigns *a, *b, *c, *d \from leaf, sub;
    ensures \initialized(a) && \initialized(b) && \initialized(c) &&
            \initialized(d); */
void aesecb__prove_cpuid(unsigned leaf, unsigned sub, unsigned *a,
                         unsigned *b, unsigned *c, unsigned *d);
/*@ assigns \result, *a, *b, *c, *d \from leaf;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> \initialized(a) && \initialized(b) &&
                             \initialized(c) && \initialized(d); */
int aesecb__prove_get_cpuid(unsigned leaf, unsigned *a, unsigned *b,
                            unsigned *c, unsigned *d);
#define __get_cpuid(leaf, a, b, c, d) aesecb__prove_get_cpuid(leaf, a, b, c, d)
#define __cpuid(leaf, a, b, c, d) \
	aesecb__prove_cpuid(leaf, 0, &(a), &(b), &(c), &(d))
#define __cpuid_count(leaf, sub, a, b, c, d) \
	aesecb__prove_cpuid(leaf, sub, &(a), &(b), &(c), &(d))
#endif

/* Eva: either answer, 0 or 1 (lib/aesecb.c's both_set: the fast path's
 * test of two pointers by the bits they share, which Eva does not follow,
 * is given as "both set, and then either path"). */
#ifdef AESECB_PROVE_EVA
/*@ assigns \result \from \nothing;
    ensures \result == 0 || \result == 1; */
int aesecb__prove_any(void);
#endif

/* Eva: __builtin_memcpy (header protection's word form on x86, the form
 * Eva reads) as the C library's memcpy, which Eva models byte for byte;
 * Frama-C gives the builtin only a generated contract. */
#ifdef AESECB_PROVE_EVA
#include <string.h>
#define __builtin_memcpy(d, s, n) memcpy(d, s, n)
#endif
