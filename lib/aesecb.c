/* SPDX-License-Identifier: MIT */
/*
 * aesecb.c - backend table, run-time selection and the public entry points.
 *
 * The entry points own the guarantee that nothing derived from the key
 * stays on the stack after a call ("Burned calls" below): key-derived work
 * runs either in registers (the paths a backend declares register-only, in
 * an optimised build: called directly, nothing to wipe) or below the one
 * frame that burns what its callees left.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <malloc.h>             /* _aligned_malloc, _aligned_free */
#endif

#include "internal.h"


/* The context's size and alignment are part of the ABI (aesecb(3)). */
_Static_assert(sizeof(aesecb_ctx) == 1024 && _Alignof(aesecb_ctx) == 64,
               "aesecb_ctx must stay 1024 bytes, 64-byte aligned");

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#define ALIGN64_FN __attribute__((aligned(64)))
#else
#define ALWAYS_INLINE inline
#define NOINLINE
#define ALIGN64_FN
#endif

/*
 * Data-independent timing (AArch64, FEAT_DIT).  Arm promises that the
 * timing of the data-processing instructions the backends use (AESE/AESD,
 * TBL, EOR, shifts, CSEL, ...) does not depend on their operands only while
 * PSTATE.DIT is set.  On a CPU that has it, every call into a backend
 * (key setup, blocks, masks, and the header-protection arithmetic around
 * them) runs with DIT set, and the caller's value is put back afterwards:
 * the context records at aesecb_init whether its calls need this
 * (priv_dit), so a CPU without FEAT_DIT pays one test of that field and
 * never executes a DIT instruction (they are UNDEFINED there).  On every
 * other architecture none of this is compiled.
 *
 * A caller that keeps DIT set around many calls pays one read of it per
 * call and no write.
 *
 * The register is spelled by its encoding (DIT is S3_3_C4_C2_5, bit 24;
 * MSR DIT, #1 and #0 are 0xd503415f and 0xd503405f) so that no -march flag
 * is needed.  The asm statements clobber memory, so the compiler keeps the
 * backend call, and every load and store around it, between them; the
 * restore also takes the call's result as an operand, so that it is
 * computed under DIT too.
 */
#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define AESECB_DIT 1

#define DIT_BIT (UINT64_C(1) << 24)

/* Sets DIT unless the caller already has it; returns the caller's value. */
static ALWAYS_INLINE uint64_t dit_on(void)
{
	uint64_t saved;

	__asm__ __volatile__("mrs %0, S3_3_C4_C2_5" : "=r"(saved) : : "memory");
	if (!(saved & DIT_BIT))
		__asm__ __volatile__(".inst 0xd503415f"   /* msr DIT, #1 */
		                     : : : "memory");
	return saved;
}

/* Clears DIT again if the caller had it clear; passes 'status' through. */
static ALWAYS_INLINE int dit_restore(uint64_t saved, int status)
{
	if (!(saved & DIT_BIT))
		__asm__ __volatile__(".inst 0xd503405f"   /* msr DIT, #0 */
		                     : "+r"(status) : : "memory");
	else
		__asm__ __volatile__("" : "+r"(status) : : "memory");
	return status;
}
#endif

/*
 * Every backend, each defined in its own lib/backend_NAME.c, in the order
 * of lib/backends.def, the one list of them: the portable one first, the
 * preferred hardware ones last.
 */
#define AESECB_BACKEND_ROW(id, arch, needs, summary, text) \
	extern const struct aesecb_backend aesecb__backend_##id;
#include "backends.def"
#undef AESECB_BACKEND_ROW

#define AESECB_BACKEND_ROW(id, arch, needs, summary, text) &aesecb__backend_##id,
static const struct aesecb_backend *const backends[] = {
#include "backends.def"
};
#undef AESECB_BACKEND_ROW

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

/* Whether be is one of the descriptors: a comparison with each. */
/*@ predicate aesecb_known(aesecb_backend *be) =
      (\exists integer i; 0 <= i < NBACKENDS && be == backends[i]) &&
      \valid_read(be); */

/* A context is none of the descriptors, which are const objects: no
 * valid program writes one (WP's memory model does not tell a const
 * object from another). */
/*@ predicate aesecb_apart(aesecb_ctx *ctx) =
      \forall integer i; 0 <= i < NBACKENDS ==> \separated(ctx, backends[i]); */

/* For the prover of the core (AESECB_PROVE_MODEL), where every descriptor
 * leads to the model backend (internal.h): that a known one does, said
 * where the table is read (WP keeps the descriptors' initial values only
 * in the goals that read them). */
#if defined(__FRAMAC__) && defined(AESECB_PROVE_MODEL)
#define KNOWN_MODEL(be) ((be)->impl == &aesecb__model_impl)
#else
#define KNOWN_MODEL(be) \true
#endif

/*@ assigns \nothing;
    ensures \result != 0 <==> aesecb_known(be);
    ensures \result != 0 ==> KNOWN_MODEL(be); */
static int known(const aesecb_backend *be)
{
	size_t i;

	/*@ loop pragma UNROLL NBACKENDS;
	    loop invariant 0 <= i <= NBACKENDS;
	    loop invariant \forall integer j; 0 <= j < i ==> be != backends[j];
	    loop assigns i;
	    loop variant NBACKENDS - i; */
	for (i = 0; i < NBACKENDS; i++)
		if (be == backends[i])
			return 1;
	return 0;
}

size_t aesecb_backend_count(void)
{
	return NBACKENDS;
}

const aesecb_backend *aesecb_backend_get(size_t index)
{
	return index < NBACKENDS ? backends[index] : NULL;
}

/*@ requires name == \null || valid_read_string(name);
    assigns \nothing; */
const aesecb_backend *aesecb_backend_find(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	/*@ loop invariant 0 <= i <= NBACKENDS;
	    loop assigns i;
	    loop variant NBACKENDS - i; */
	for (i = 0; i < NBACKENDS; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

const char *aesecb_backend_name(const aesecb_backend *be)
{
	return known(be) ? be->name : NULL;
}

const char *aesecb_backend_arch(const aesecb_backend *be)
{
	return known(be) ? be->arch : NULL;
}

/*
 * The "requires" texts, made from each backend's needs by cpu.c's table
 * the first time one is asked for.  The first caller writes them while
 * the others wait for it (a few hundred nanoseconds, once).
 */
#define REQUIRES_MAX 96
static char requires_text[NBACKENDS][REQUIRES_MAX];
static atomic_int requires_state;   /* 0 not made, 1 being made, 2 made */

static void make_requires(void)
{
	size_t i;
	int expect = 0;

	if (atomic_load_explicit(&requires_state, memory_order_acquire) == 2)
		return;
	if (atomic_compare_exchange_strong(&requires_state, &expect, 1)) {
		for (i = 0; i < NBACKENDS; i++) {
			if (backends[i]->needs == 0)
				strcpy(requires_text[i], "nothing (portable C)");
			else
				aesecb__cpu_names(backends[i]->needs,
				                  requires_text[i], REQUIRES_MAX);
		}
		atomic_store_explicit(&requires_state, 2, memory_order_release);
		return;
	}
	while (atomic_load_explicit(&requires_state, memory_order_acquire) != 2)
		;
}

const char *aesecb_backend_requires(const aesecb_backend *be)
{
	size_t i;

	for (i = 0; i < NBACKENDS; i++) {
		if (be == backends[i]) {
			make_requires();
			return requires_text[i];
		}
	}
	return NULL;
}

int aesecb_backend_compiled(const aesecb_backend *be)
{
	return known(be) && be->impl != NULL;
}

/*@ assigns \nothing;
    ensures \result == \null ==> aesecb_known(be) && be->impl != \null; */
const char *aesecb_backend_unavailable_reason(const aesecb_backend *be)
{
	if (!known(be))
		return "unknown backend";
	if (be->impl == NULL)
		return "not built in";
	return aesecb__cpu_lacks(be->needs, aesecb__cpu_features());
}

/*@ assigns \nothing;
    ensures \result != 0 ==> aesecb_known(be) && be->impl != \null;
    ensures \result != 0 ==> KNOWN_MODEL(be); */
int aesecb_backend_available(const aesecb_backend *be)
{
	return known(be) && aesecb_backend_unavailable_reason(be) == NULL;
}

/*
 * No backend is lent a working space any more: what a backend leaves on
 * the stack is burned by the library ("Burned calls" below), which needs
 * no declaration.  The function stays, answering 0, because programs
 * linked against libaesecb.so.0 call it (aesecb(3)).
 */
size_t aesecb_backend_scratch_written(const aesecb_backend *be, int decrypt)
{
	(void)be;
	(void)decrypt;
	return 0;
}

/* Whether calls into an available backend run with DIT set: an AArch64
 * build, a backend for AArch64 (or for any CPU), and a CPU with FEAT_DIT. */
/*@ requires \valid_read(be);
    assigns \nothing; */
static int backend_dit(const aesecb_backend *be)
{
#ifdef AESECB_DIT
	return (aesecb__cpu_features() & AESECB_CPU_ARM_DIT) != 0 &&
	       (strcmp(be->arch, "aarch64") == 0 || strcmp(be->arch, "any") == 0);
#else
	(void)be;
	return 0;
#endif
}

int aesecb_backend_dit(const aesecb_backend *be)
{
	return aesecb_backend_available(be) && backend_dit(be);
}

/* $AESECB_BACKEND: read here and nowhere else (the tool asks this
 * function too), through secure_getenv where glibc has it (2.17 on), so
 * that a set-user-ID program does not take it from its caller. */
/*@ assigns \nothing;
    ensures \result == \null || valid_read_string(\result); */
const char *aesecb_backend_env(void)
{
	const char *v;

#if defined(_GNU_SOURCE) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 17))
	v = secure_getenv("AESECB_BACKEND");
#else
	v = getenv("AESECB_BACKEND");
#endif
	return v != NULL && v[0] != '\0' ? v : NULL;
}

/*@ requires name == \null || valid_read_string(name);
    requires bep == \null || \valid(bep);
    requires reason == \null || \valid(reason);
    requires \separated(bep, reason);
    assigns *bep, *reason; */
int aesecb_backend_resolve(const char *name, const aesecb_backend **bep,
                           const char **reason)
{
	const aesecb_backend *be = NULL;
	const char *why = NULL;
	int status = AESECB_OK;
	size_t i;

	if (name == NULL)
		name = aesecb_backend_env();
	if (name != NULL) {
		be = aesecb_backend_find(name);
		if (be == NULL) {
			status = AESECB_EUNKNOWN;
			why = "unknown backend";
		} else {
			why = aesecb_backend_unavailable_reason(be);
			if (why != NULL)
				status = AESECB_EUNAVAILABLE;
		}
	} else {
		/* The table lists none first and the preferred hardware
		 * backends last: the best available is the last available. */
		be = backends[0];
		/*@ loop invariant 0 <= i <= NBACKENDS;
		    loop assigns i, be;
		    loop variant i; */
		for (i = NBACKENDS; i-- > 0;) {
			if (aesecb_backend_available(backends[i])) {
				be = backends[i];
				break;
			}
		}
	}
	if (bep != NULL)
		*bep = be;
	if (reason != NULL)
		*reason = why;
	return status;
}

const aesecb_backend *aesecb_backend_default(void)
{
	const aesecb_backend *be;

	return aesecb_backend_resolve(NULL, &be, NULL) == AESECB_OK ? be : NULL;
}

/* ------------------------------------------------------------------ */

/*@ requires n == 0 || \valid((char *)p + (0 .. n - 1));
    assigns ((char *)p)[0 .. n - 1]; */
void aesecb_wipe(void *p, size_t n)
{
	if (n == 0)
		return;
	memset(p, 0, n);
#if defined(__GNUC__) || defined(__clang__)
	/* The compiler must assume the asm reads the zeroed memory. */
	/*@ assigns \nothing; */
	__asm__ __volatile__("" : : "r"(p) : "memory");
#else
	{
		volatile unsigned char *v = p;
		while (n--)
			*v++ = 0;
	}
#endif
}

/*
 * Burned calls.
 *
 * A backend function that may hold key-derived values in its frame (the
 * compiler spills state and round keys wherever it likes: bitsliced code
 * always, vector code on 32-bit x86, anything at -O0, stack-protector
 * canaries move the slots around) runs from run_burned(), which:
 *
 *   1. calls it through through(), a frame of BURN_GAP bytes, so that every
 *      frame of the call lies at least that far below run_burned's own;
 *   2. lets it record how deep its frames reach: each out-of-line function
 *      that holds key-derived data calls aesecb__stack_mark(), which keeps
 *      the lowest address of such a frame in 'stk' (less the registers a
 *      function it calls afterwards may save below it, AESECB_CALLEE_SAVES);
 *   3. clears the registers a later function could store (below);
 *   4. allocates, in its own frame, a block that reaches from its frame
 *      down to that lowest address, and wipes it with aesecb_wipe().
 *
 * Why 4 covers every frame of the call, whatever the compiler and flags:
 * the block is allocated (alloca) where the call's frames were, since
 * run_burned's stack pointer is the same before the call and after it;
 * its size is the distance from a local of run_burned's fixed frame
 * ('stk', which lies above the stack pointer and above the area an ABI
 * keeps at the bottom of a frame for its callees: POWER's linkage area,
 * s390x's register save area) to the recorded lowest address, so its
 * bottom is at or below that address; and its top is at most the
 * allocation's rounding (less than twice the largest alignment) below the
 * stack pointer, which through()'s gap covers: the call's frames start
 * below it.  Nothing is hand-measured: no constant depends on how large
 * the compiler makes a frame.  run_burned's own frame and the entry
 * points' hold nothing derived from the key, only pointers, lengths and
 * the status.
 *
 * Registers: after the call, the caller-saved registers may still hold
 * key-derived values (callee-saved ones are restored by the callee).  No
 * ordinary code stores a caller-saved register it has not written itself,
 * but some store them all: a variadic function's prologue saves every
 * argument register, the dynamic linker's lazy binding saves the whole
 * vector state (glibc's xsave), a signal handler's frame holds every
 * register.  So run_burned zeroes them (clear_registers) before it calls
 * anything, on every architecture the library is built for: x86-64,
 * 32-bit x86, AArch64, 32-bit ARM, 64-bit POWER, s390x and riscv64 (the
 * list there).  (A signal that arrives during the call itself still finds
 * the key-derived values in the registers; nothing can prevent that.)
 *
 * The paths a backend declares register-only (AESECB_REGS_*, internal.h)
 * are called directly: no burn, no record, nothing between the caller and
 * the AES instructions.  In an unoptimised build (no __OPTIMIZE__), or one
 * a sanitizer instruments, no path is register-only and everything is
 * burned (AESECB_REGISTERS, internal.h).
 */

/* The largest alignment a compiler gives a dynamic allocation. */
#if defined(__BIGGEST_ALIGNMENT__) && __BIGGEST_ALIGNMENT__ > 16
#define ALLOC_ALIGN_MAX __BIGGEST_ALIGNMENT__
#else
#define ALLOC_ALIGN_MAX 16
#endif
/* More than the rounding of an allocation's top (step 1 above). */
#define BURN_GAP (2 * ALLOC_ALIGN_MAX)

/* Whether the core's own direct paths (aesecb_hp_protect's arithmetic,
 * the generic one-mask and mask functions) keep their values in
 * registers: in an optimised build. */
#ifndef __FRAMAC__
#define CORE_REGS AESECB_REGS(AESECB_REGS_ONE | AESECB_REGS_BLOCKS)
#else
/* (For the prover, either: the proofs cover both kinds of build.) */
/*@ assigns \nothing;
    ensures \result == 0 || \result == (AESECB_REGS_ONE | AESECB_REGS_BLOCKS); */
unsigned aesecb__prove_core_regs(void);
#define CORE_REGS aesecb__prove_core_regs()
#endif

/*
 * AddressSanitizer may move a function's locals to its "fake stack" on the
 * heap (detect_stack_use_after_return); the record and the burn measure
 * the real stack, where frames and the registers they save are, so the
 * two functions that take a local's address for that are not
 * instrumented.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REAL_STACK __attribute__((no_sanitize_address))
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(REAL_STACK)
#define REAL_STACK __attribute__((no_sanitize_address))
#endif
#ifndef REAL_STACK
#define REAL_STACK
#endif

NOINLINE REAL_STACK void aesecb__stack_mark(aesecb_stack *stk)
{
	unsigned char here = 0;
	uintptr_t low;

	/* 'here' is in this function's frame, below the caller's */
	/*@ assigns \nothing; */
	__asm__ __volatile__("" : : "r"(&here) : "memory");
	low = (uintptr_t)&here - AESECB_CALLEE_SAVES;
	if (stk != NULL && low < stk->low)
		stk->low = low;
}

/*
 * Zeroes the caller-saved registers: general-purpose, floating-point and
 * vector, as each ABI defines them (the callee-saved ones hold the
 * caller's own values again when the call returns):
 *
 *   x86-64   rax, rcx, rdx, rsi, rdi, r8-r11; xmm0-xmm15 (all of them:
 *            the ymm and, where the library is built for AVX-512, zmm
 *            upper parts too, through VZEROALL where the CPU has AVX)
 *   x86      eax, ecx, edx; xmm0-xmm7 where the CPU has SSE2
 *   AArch64  x0-x17; v0-v7 and v16-v31
 *   ARM      r0-r3, r12; d0-d7 and d16-d31 (q0-q3, q8-q15) where the CPU
 *            has NEON, else d0-d7 where the build uses VFP
 *   POWER    r0, r3-r12; vs0-vs13 and v0-v19 where the build or the CPU
 *            (POWER8, where vcrypto runs) has VSX, else f0-f13
 *   s390x    r0-r5; f0-f7, or in a build for z13 and later (vector
 *            registers) v0-v7, v16-v31 and the right halves of v8-v15
 *   riscv64  a0-a7, t0-t6; ft0-ft11 and fa0-fa7 where the build has the
 *            D extension (not the vector extension's registers: Debian's
 *            riscv64 is rv64gc, without it, and a build that targets it
 *            would need its own case here)
 *
 * The clobber lists tell the compiler that nothing it keeps survives.  A
 * vector part that needs an instruction set the build does not assume is
 * a function of its own with that set as its target (a 32-bit x86 build
 * may have no SSE at all, an armhf one has no d16-d31), called only where
 * the CPU has it.
 */
#if (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__GNUC__) || defined(__clang__))
#if defined(__x86_64__)
#define XMM_CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", \
	"xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",   \
	"xmm15"
#define PXOR_HIGH "\n\tpxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\t"     \
	"pxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"                 \
	"pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\t"                 \
	"pxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15"
#else
#define XMM_CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", \
	"xmm7"
#define PXOR_HIGH ""
#endif

#ifndef __AVX__
/*@ assigns \nothing; */
static NOINLINE __attribute__((target("sse2"))) void clear_xmm(void)
{
	__asm__ __volatile__(
		"pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\t"
		"pxor %%xmm2, %%xmm2\n\tpxor %%xmm3, %%xmm3\n\t"
		"pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
		"pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7" PXOR_HIGH
		: : : XMM_CLOBBERS);
}
#endif

/*@ assigns \nothing; */
static NOINLINE __attribute__((target("avx"))) void clear_ymm(void)
{
	__asm__ __volatile__("vzeroall" : : : XMM_CLOBBERS);
#ifdef __AVX512F__
	__asm__ __volatile__(
		"vpxord %%zmm16, %%zmm16, %%zmm16\n\tvpxord %%zmm17, %%zmm17, %%zmm17\n\t"
		"vpxord %%zmm18, %%zmm18, %%zmm18\n\tvpxord %%zmm19, %%zmm19, %%zmm19\n\t"
		"vpxord %%zmm20, %%zmm20, %%zmm20\n\tvpxord %%zmm21, %%zmm21, %%zmm21\n\t"
		"vpxord %%zmm22, %%zmm22, %%zmm22\n\tvpxord %%zmm23, %%zmm23, %%zmm23\n\t"
		"vpxord %%zmm24, %%zmm24, %%zmm24\n\tvpxord %%zmm25, %%zmm25, %%zmm25\n\t"
		"vpxord %%zmm26, %%zmm26, %%zmm26\n\tvpxord %%zmm27, %%zmm27, %%zmm27\n\t"
		"vpxord %%zmm28, %%zmm28, %%zmm28\n\tvpxord %%zmm29, %%zmm29, %%zmm29\n\t"
		"vpxord %%zmm30, %%zmm30, %%zmm30\n\tvpxord %%zmm31, %%zmm31, %%zmm31"
		: : : "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21",
		      "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
		      "xmm28", "xmm29", "xmm30", "xmm31");
#endif
}
#undef XMM_CLOBBERS
#undef PXOR_HIGH
#endif

/* 32-bit ARM with NEON: d0-d7 and d16-d31 (q0-q3, q8-q15), in a
 * function of its own with NEON as its target (an armhf build assumes
 * VFPv3-D16: no d16-d31), called where the CPU has NEON.  Built where
 * configure found the compiler takes that target (the NEON backends) or
 * the whole build assumes NEON. */
#if defined(__arm__) && (defined(__GNUC__) || defined(__clang__)) && \
    (defined(__ARM_NEON) || defined(AESECB_WITH_NEON32) || \
     defined(AESECB_WITH_ARMCE32))
#define ARM_CLEAR_NEON 1
#if defined(__clang__)
#define TARGET_ARM_NEON __attribute__((target("neon,vfp3,vfp3sp,d32")))
#else
#define TARGET_ARM_NEON __attribute__((target("fpu=neon")))
#endif
static NOINLINE TARGET_ARM_NEON void clear_neon(void)
{
	__asm__ __volatile__(
		"vmov.i8 q0, #0\n\tvmov.i8 q1, #0\n\tvmov.i8 q2, #0\n\t"
		"vmov.i8 q3, #0\n\tvmov.i8 q8, #0\n\tvmov.i8 q9, #0\n\t"
		"vmov.i8 q10, #0\n\tvmov.i8 q11, #0\n\tvmov.i8 q12, #0\n\t"
		"vmov.i8 q13, #0\n\tvmov.i8 q14, #0\n\tvmov.i8 q15, #0"
		: : : "q0", "q1", "q2", "q3", "q8", "q9", "q10", "q11", "q12",
		      "q13", "q14", "q15");
}
#undef TARGET_ARM_NEON
#else
#define ARM_CLEAR_NEON 0
#endif

/* 64-bit POWER with VSX: vs0-vs13 (f0-f13 and their right halves) and
 * vs32-vs51 (v0-v19); the rest are callee-saved. */
#if (defined(__powerpc64__) || defined(__PPC64__)) && \
    (defined(__GNUC__) || defined(__clang__))
#if defined(__VSX__)
#define TARGET_PPC_VSX
#else
#define TARGET_PPC_VSX __attribute__((target("vsx")))
#endif
static NOINLINE TARGET_PPC_VSX void clear_vsx(void)
{
	__asm__ __volatile__(
		"xxlxor 0, 0, 0\n\txxlxor 1, 1, 1\n\txxlxor 2, 2, 2\n\t"
		"xxlxor 3, 3, 3\n\txxlxor 4, 4, 4\n\txxlxor 5, 5, 5\n\t"
		"xxlxor 6, 6, 6\n\txxlxor 7, 7, 7\n\txxlxor 8, 8, 8\n\t"
		"xxlxor 9, 9, 9\n\txxlxor 10, 10, 10\n\txxlxor 11, 11, 11\n\t"
		"xxlxor 12, 12, 12\n\txxlxor 13, 13, 13\n\t"
		"vxor 0, 0, 0\n\tvxor 1, 1, 1\n\tvxor 2, 2, 2\n\t"
		"vxor 3, 3, 3\n\tvxor 4, 4, 4\n\tvxor 5, 5, 5\n\t"
		"vxor 6, 6, 6\n\tvxor 7, 7, 7\n\tvxor 8, 8, 8\n\t"
		"vxor 9, 9, 9\n\tvxor 10, 10, 10\n\tvxor 11, 11, 11\n\t"
		"vxor 12, 12, 12\n\tvxor 13, 13, 13\n\tvxor 14, 14, 14\n\t"
		"vxor 15, 15, 15\n\tvxor 16, 16, 16\n\tvxor 17, 17, 17\n\t"
		"vxor 18, 18, 18\n\tvxor 19, 19, 19"
		: : : "fr0", "fr1", "fr2", "fr3", "fr4", "fr5", "fr6", "fr7",
		      "fr8", "fr9", "fr10", "fr11", "fr12", "fr13", "v0", "v1",
		      "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10",
		      "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18",
		      "v19");
}
#undef TARGET_PPC_VSX
#endif

/*@ assigns \nothing; */
static ALWAYS_INLINE void clear_registers(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__GNUC__) || defined(__clang__))
	unsigned f = aesecb__cpu_features();

	/* the vector registers first: the calls clobber general ones (a
	 * build for AVX runs only where the CPU has it) */
#ifdef __AVX__
	(void)f;
	clear_ymm();
#else
	if (f & AESECB_CPU_AVX2)
		clear_ymm();
	else if (f & AESECB_CPU_SSE2)
		clear_xmm();
#endif
#if defined(__x86_64__)
	__asm__ __volatile__(
		"xorl %%eax, %%eax\n\txorl %%ecx, %%ecx\n\txorl %%edx, %%edx\n\t"
		"xorl %%esi, %%esi\n\txorl %%edi, %%edi\n\txorl %%r8d, %%r8d\n\t"
		"xorl %%r9d, %%r9d\n\txorl %%r10d, %%r10d\n\txorl %%r11d, %%r11d"
		: : : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10",
		      "r11", "cc");
#else
	__asm__ __volatile__(
		"xorl %%eax, %%eax\n\txorl %%ecx, %%ecx\n\txorl %%edx, %%edx"
		: : : "eax", "ecx", "edx", "cc");
#endif
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
	/* v8-v15: a callee restores their low halves with 64-bit loads,
	 * which zero the high halves; x18 is the platform's */
	__asm__ __volatile__(
		"movi v0.16b, #0\n\tmovi v1.16b, #0\n\tmovi v2.16b, #0\n\t"
		"movi v3.16b, #0\n\tmovi v4.16b, #0\n\tmovi v5.16b, #0\n\t"
		"movi v6.16b, #0\n\tmovi v7.16b, #0\n\tmovi v16.16b, #0\n\t"
		"movi v17.16b, #0\n\tmovi v18.16b, #0\n\tmovi v19.16b, #0\n\t"
		"movi v20.16b, #0\n\tmovi v21.16b, #0\n\tmovi v22.16b, #0\n\t"
		"movi v23.16b, #0\n\tmovi v24.16b, #0\n\tmovi v25.16b, #0\n\t"
		"movi v26.16b, #0\n\tmovi v27.16b, #0\n\tmovi v28.16b, #0\n\t"
		"movi v29.16b, #0\n\tmovi v30.16b, #0\n\tmovi v31.16b, #0"
		: : : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16",
		      "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
		      "v25", "v26", "v27", "v28", "v29", "v30", "v31");
	__asm__ __volatile__(
		"mov x0, xzr\n\tmov x1, xzr\n\tmov x2, xzr\n\tmov x3, xzr\n\t"
		"mov x4, xzr\n\tmov x5, xzr\n\tmov x6, xzr\n\tmov x7, xzr\n\t"
		"mov x8, xzr\n\tmov x9, xzr\n\tmov x10, xzr\n\tmov x11, xzr\n\t"
		"mov x12, xzr\n\tmov x13, xzr\n\tmov x14, xzr\n\tmov x15, xzr\n\t"
		"mov x16, xzr\n\tmov x17, xzr"
		: : : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8",
		      "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
		      "x17");
#elif defined(__arm__) && (defined(__GNUC__) || defined(__clang__))
	/* the vector part first, for the same reason as on x86 */
#if ARM_CLEAR_NEON
	if (aesecb__cpu_features() & AESECB_CPU_ARM_ASIMD)
		clear_neon();
	else
#endif
	{
#if defined(__ARM_FP)
		/* VFP without NEON: d0-d7, from zeroed core registers */
		__asm__ __volatile__(
			"mov r0, #0\n\tvmov d0, r0, r0\n\tvmov d1, r0, r0\n\t"
			"vmov d2, r0, r0\n\tvmov d3, r0, r0\n\t"
			"vmov d4, r0, r0\n\tvmov d5, r0, r0\n\t"
			"vmov d6, r0, r0\n\tvmov d7, r0, r0"
			: : : "r0", "d0", "d1", "d2", "d3", "d4", "d5", "d6",
			      "d7");
#endif
	}
	/* lr holds a return address, r4-r11 are the callee's to restore */
	__asm__ __volatile__(
		"mov r0, #0\n\tmov r1, #0\n\tmov r2, #0\n\tmov r3, #0\n\t"
		"mov r12, #0"
		: : : "r0", "r1", "r2", "r3", "r12", "cc");
#elif (defined(__powerpc64__) || defined(__PPC64__)) && \
    (defined(__GNUC__) || defined(__clang__))
#if defined(__VSX__)
	clear_vsx();
#else
	/* a build for CPUs before POWER7: the vector registers where the CPU
	 * is one that vcrypto runs on (POWER8: VSX), the floating-point
	 * ones from memory */
	static const double zero[1];

	if (aesecb__cpu_features() & AESECB_CPU_PPC_VCRYPTO)
		clear_vsx();
	__asm__ __volatile__(
		"lfd 0, 0(%0)\n\tlfd 1, 0(%0)\n\tlfd 2, 0(%0)\n\t"
		"lfd 3, 0(%0)\n\tlfd 4, 0(%0)\n\tlfd 5, 0(%0)\n\t"
		"lfd 6, 0(%0)\n\tlfd 7, 0(%0)\n\tlfd 8, 0(%0)\n\t"
		"lfd 9, 0(%0)\n\tlfd 10, 0(%0)\n\tlfd 11, 0(%0)\n\t"
		"lfd 12, 0(%0)\n\tlfd 13, 0(%0)"
		: : "b"(zero) : "fr0", "fr1", "fr2", "fr3", "fr4", "fr5",
		                 "fr6", "fr7", "fr8", "fr9", "fr10", "fr11",
		                 "fr12", "fr13");
#endif
	/* r0 and r3-r12 (r2 is the TOC pointer, r13 the thread's); CTR and
	 * XER hold counts and carries, no data */
	__asm__ __volatile__(
		"li 0, 0\n\tli 3, 0\n\tli 4, 0\n\tli 5, 0\n\tli 6, 0\n\t"
		"li 7, 0\n\tli 8, 0\n\tli 9, 0\n\tli 10, 0\n\tli 11, 0\n\t"
		"li 12, 0"
		: : : "r0", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
		      "r11", "r12");
#elif defined(__s390x__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__VX__)
	/* a build for z13 and later: the vector registers are in use, all
	 * of them caller-saved but for the left halves of v8-v15 (f8-f15),
	 * whose right halves are zeroed alone */
	__asm__ __volatile__(
		"vzero %%v0\n\tvzero %%v1\n\tvzero %%v2\n\tvzero %%v3\n\t"
		"vzero %%v4\n\tvzero %%v5\n\tvzero %%v6\n\tvzero %%v7\n\t"
		"vleig %%v8, 0, 1\n\tvleig %%v9, 0, 1\n\t"
		"vleig %%v10, 0, 1\n\tvleig %%v11, 0, 1\n\t"
		"vleig %%v12, 0, 1\n\tvleig %%v13, 0, 1\n\t"
		"vleig %%v14, 0, 1\n\tvleig %%v15, 0, 1\n\t"
		"vzero %%v16\n\tvzero %%v17\n\tvzero %%v18\n\tvzero %%v19\n\t"
		"vzero %%v20\n\tvzero %%v21\n\tvzero %%v22\n\tvzero %%v23\n\t"
		"vzero %%v24\n\tvzero %%v25\n\tvzero %%v26\n\tvzero %%v27\n\t"
		"vzero %%v28\n\tvzero %%v29\n\tvzero %%v30\n\tvzero %%v31"
		: : : "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8",
		      "f9", "f10", "f11", "f12", "f13", "f14", "f15", "v16",
		      "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
		      "v25", "v26", "v27", "v28", "v29", "v30", "v31");
#else
	__asm__ __volatile__(
		"lzdr %%f0\n\tlzdr %%f1\n\tlzdr %%f2\n\tlzdr %%f3\n\t"
		"lzdr %%f4\n\tlzdr %%f5\n\tlzdr %%f6\n\tlzdr %%f7"
		: : : "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7");
#endif
	/* r0-r5 (r14 holds a return address) */
	__asm__ __volatile__(
		"lghi %%r0, 0\n\tlghi %%r1, 0\n\tlghi %%r2, 0\n\t"
		"lghi %%r3, 0\n\tlghi %%r4, 0\n\tlghi %%r5, 0"
		: : : "r0", "r1", "r2", "r3", "r4", "r5");
#elif defined(__riscv) && __riscv_xlen == 64 && \
    (defined(__GNUC__) || defined(__clang__))
#if defined(__riscv_flen) && __riscv_flen >= 64
	__asm__ __volatile__(
		"fmv.d.x ft0, zero\n\tfmv.d.x ft1, zero\n\tfmv.d.x ft2, zero\n\t"
		"fmv.d.x ft3, zero\n\tfmv.d.x ft4, zero\n\tfmv.d.x ft5, zero\n\t"
		"fmv.d.x ft6, zero\n\tfmv.d.x ft7, zero\n\tfmv.d.x ft8, zero\n\t"
		"fmv.d.x ft9, zero\n\tfmv.d.x ft10, zero\n\tfmv.d.x ft11, zero\n\t"
		"fmv.d.x fa0, zero\n\tfmv.d.x fa1, zero\n\tfmv.d.x fa2, zero\n\t"
		"fmv.d.x fa3, zero\n\tfmv.d.x fa4, zero\n\tfmv.d.x fa5, zero\n\t"
		"fmv.d.x fa6, zero\n\tfmv.d.x fa7, zero"
		: : : "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
		      "ft8", "ft9", "ft10", "ft11", "fa0", "fa1", "fa2", "fa3",
		      "fa4", "fa5", "fa6", "fa7");
#endif
	__asm__ __volatile__(
		"li a0, 0\n\tli a1, 0\n\tli a2, 0\n\tli a3, 0\n\t"
		"li a4, 0\n\tli a5, 0\n\tli a6, 0\n\tli a7, 0\n\t"
		"li t0, 0\n\tli t1, 0\n\tli t2, 0\n\tli t3, 0\n\t"
		"li t4, 0\n\tli t5, 0\n\tli t6, 0"
		: : : "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t0",
		      "t1", "t2", "t3", "t4", "t5", "t6");
#endif
}

static aesecb_masks_fn generic_masks, burned_masks;
static aesecb_one_fn burned_encrypt1, burned_decrypt1, burned_mask1,
                     direct_encrypt1, direct_decrypt1, generic_mask1,
                     block_mask1;
static aesecb_blocks_fn setkey_work, hp_protect_work, hp_unprotect_work,
                        block_mask_work;

#define ONE_ENC  AESECB_ONE_ENC
#define ONE_DEC  AESECB_ONE_DEC
#define ONE_MASK AESECB_ONE_MASK

/*
 * The one-block slots (internal.h): what the proof of their encoding
 * assumes, two facts of C that WP's model leaves out, each stated once
 * here (trusted; HACKING.md, "Proofs").
 */
/*@
  // what the slots are relative to: 0 (plain pointers) or the address
  // of aesecb__one_none; the slot that holds f (aesecb__one_encode),
  // the function a slot holds (aesecb__one_decode)
  logic integer aesecb_one_base =
    AESECB_ONE_TESTED ? 0 : (uintptr_t)&aesecb__one_none;
  logic uintptr_t aesecb_one_code(aesecb_one_fn *f) =
    (uintptr_t)((uintptr_t)f - aesecb_one_base);
  logic aesecb_one_fn *aesecb_one_fn_of(integer slot) =
    (aesecb_one_fn *)(uintptr_t)(slot + aesecb_one_base);

  axiomatic OneSlots {
    // the functions a slot may hold
    predicate one_fns(aesecb_one_fn *f) =
      f == &aesecb__one_none || f == &aesecb__model_one_enc ||
      f == &aesecb__model_one_dec || f == &aesecb__model_one_mask ||
      f == &burned_encrypt1 || f == &burned_decrypt1 ||
      f == &burned_mask1 || f == &direct_encrypt1 ||
      f == &direct_decrypt1 || f == &generic_mask1 || f == &block_mask1;

    // C11 6.3.1.3 and 6.2.5: a conversion to uintptr_t reduces modulo
    // UINTPTR_MAX + 1, so that converting one term of a sum first
    // changes nothing (WP's conversion function is left undefined
    // outside the type's range)
    axiom uintptr_wrap: \forall integer x, y;
      (uintptr_t)((uintptr_t)x + y) == (uintptr_t)(x + y);
    // C11 7.20.1.4 with POSIX (a function pointer converts to void *
    // and back): the address of each of these functions, converted to
    // uintptr_t, is a value of that type, which converts back to the
    // same pointer.  (Said of these functions only: WP's model maps
    // addresses one to one onto all integers, so that the same said of
    // every pointer would contradict it.)
    axiom one_fn_addr: \forall aesecb_one_fn *f;
      one_fns(f) ==> 0 <= (uintptr_t)f <= UINTPTR_MAX;
  }

  // what the slot encoding needs (proved from the two facts above):
  // the function in a slot is the one stored, and a slot of 0 (a
  // context filled with zeros) holds aesecb__one_none, but in the
  // 32-bit x86 encoding, where the caller tests for 0
  lemma one_slot_roundtrip: \forall aesecb_one_fn *f;
    one_fns(f) ==> aesecb_one_fn_of(aesecb_one_code(f)) == f;
  lemma one_slot_zero:
    one_fns(&aesecb__one_none) && !AESECB_ONE_TESTED ==>
    aesecb_one_fn_of(0) == &aesecb__one_none;
*/

/*
 * The states of a context the entry points accept, for the contracts
 * (HACKING.md, "Proofs"), and what a ready context's pointers and slots
 * lead to: when the core is proved, the functions of the prover's model
 * backend (internal.h) and the core's own; the analysis of the entry
 * points with the portable backend (Eva) follows the pointers themselves
 * and is told nothing of them.
 */
#if defined(__FRAMAC__) && defined(AESECB_PROVE_MODEL)
const struct aesecb_impl aesecb__model_impl = {
	aesecb__model_setkey, aesecb__model_encrypt, aesecb__model_decrypt,
	aesecb__model_masks, aesecb__model_one
};

/*@
  predicate impl_ok(struct aesecb_impl *i) =
    i == &aesecb__model_impl;

  predicate ctx_ptrs(aesecb_ctx *ctx) =
    ctx->priv_encrypt == &aesecb__model_encrypt &&
    ctx->priv_decrypt == &aesecb__model_decrypt &&
    (ctx->priv_masks == &aesecb__model_masks ||
     ctx->priv_masks == &generic_masks ||
     ctx->priv_masks == &burned_masks);
*/

/*@
  // the function each slot of a ready context holds
  predicate slot_enc(aesecb_ctx *ctx) =
    \let f = aesecb_one_fn_of(ctx->priv_one[ONE_ENC]);
    f == &aesecb__model_one_enc || f == &burned_encrypt1 ||
    f == &direct_encrypt1;
  predicate slot_dec(aesecb_ctx *ctx) =
    \let f = aesecb_one_fn_of(ctx->priv_one[ONE_DEC]);
    f == &aesecb__model_one_dec || f == &burned_decrypt1 ||
    f == &direct_decrypt1;
  predicate slot_mask(aesecb_ctx *ctx) =
    \let f = aesecb_one_fn_of(ctx->priv_one[ONE_MASK]);
    f == &aesecb__model_one_mask || f == &burned_mask1 ||
    f == &generic_mask1 || f == &block_mask1;
*/
/* For the prover, where a function reads a chosen backend's functions:
 * that they are the model's, said naming the model (WP keeps what a
 * global holds only in the goals that name it). */
#define MODEL_IMPL(be) \
	(aesecb_known(be) && (be)->impl == &aesecb__model_impl)
#else
/*@
  predicate impl_ok(struct aesecb_impl *i) = \true;
  predicate ctx_ptrs(aesecb_ctx *ctx) = \true;
  predicate slot_enc(aesecb_ctx *ctx) = \true;
  predicate slot_dec(aesecb_ctx *ctx) = \true;
  predicate slot_mask(aesecb_ctx *ctx) = \true;
*/
#endif
/*@
  // the backend and the key size set, as for key setup
  predicate aesecb_chosen(aesecb_ctx *ctx) =
    aesecb_keyed(ctx) && aesecb_known(ctx->priv_backend) &&
    ctx->priv_backend->impl != \null && impl_ok(ctx->priv_backend->impl);

  // after a successful aesecb_init
  predicate aesecb_ready(aesecb_ctx *ctx) =
    aesecb_chosen(ctx) && ctx_ptrs(ctx) && slot_enc(ctx) && slot_dec(ctx) &&
    slot_mask(ctx);

  // a context aesecb_clear or a failed aesecb_init left (filled with
  // zeros): every call refuses it
  predicate aesecb_cleared(aesecb_ctx *ctx) =
    \valid_read(ctx) && ctx->priv_rounds == 0 &&
    ctx->priv_one[ONE_ENC] == 0 && ctx->priv_one[ONE_DEC] == 0 &&
    ctx->priv_one[ONE_MASK] == 0;

  // what a context argument of an entry point may be
  predicate aesecb_ctx_arg(aesecb_ctx *ctx) =
    ctx == \null || aesecb_ready(ctx) || aesecb_cleared(ctx);

  // what aesecb_encrypt and aesecb_decrypt accept: a context argument,
  // and len bytes read at in and written at out (either NULL, or both
  // valid), the same bytes or apart, the output apart from the context
  predicate crypt_args(aesecb_ctx *ctx, uint8_t *in, uint8_t *out,
                       integer len) =
    aesecb_ctx_arg(ctx) && (ctx == \null || \valid_read(ctx)) &&
    (len == 0 || in == \null || \valid_read(in + (0 .. len - 1))) &&
    (len == 0 || out == \null || \valid(out + (0 .. len - 1))) &&
    (in == \null || out == \null || in == out ||
     \separated(in + (0 .. len - 1), out + (0 .. len - 1))) &&
    (ctx == \null || out == \null ||
     \separated(out + (0 .. len - 1), ctx));

  // the bytes of a context, seen as bytes (the typed memory model does
  // not derive this from \valid(ctx))
  predicate aesecb_ctx_bytes(aesecb_ctx *ctx) =
    \valid((char *)ctx + (0 .. sizeof(aesecb_ctx) - 1));

  // header protection's arguments: the packet-number offset n >= 1, and
  // the 4 bytes from there and the 16 of the sample after them inside
  // the packet, apart from the context
  predicate hp_args(aesecb_ctx *ctx, uint8_t *packet, integer n) =
    n >= 1 && \valid(packet + (0 .. n + 19)) &&
    \separated(packet + (0 .. n + 19), ctx);

  // The functions run burned, with their arguments (what each is given
  // as in, out and n), and what each writes beside the stack record: a
  // block function 16 bytes a block at out, a mask function 5 a mask,
  // header protection the packet's first byte and the 4 at n (its
  // packet-number offset), key setup the context's round keys.
  logic boolean burned_hp(aesecb_blocks_fn *fn) =
    fn == &hp_protect_work || fn == &hp_unprotect_work;
  // a mask function: the context's, the backend's own (the model's), the
  // generic one, or one mask through a block
  logic boolean burned_mask(aesecb_blocks_fn *fn, aesecb_ctx *ctx) =
    fn == ctx->priv_masks || fn == &aesecb__model_masks ||
    fn == &generic_masks || fn == &block_mask_work;

  predicate burned_args(aesecb_blocks_fn *fn, aesecb_ctx *ctx, uint8_t *in,
                        uint8_t *out, integer n) =
    (fn == ctx->priv_encrypt || fn == ctx->priv_decrypt) &&
      aesecb_ready(ctx) && aesecb_blocks_args(ctx, in, out, n, \null) ||
    burned_mask(fn, ctx) &&
      aesecb_ready(ctx) && aesecb_masks_args(ctx, in, out, n, \null) ||
    fn == &setkey_work &&
      aesecb_chosen(ctx) && aesecb_key_args(ctx, in, n) ||
    burned_hp(fn) && aesecb_ready(ctx) && in == out && hp_args(ctx, out, n);

  logic integer burned_in(aesecb_blocks_fn *fn, integer n) =
    fn == &setkey_work ? n : burned_hp(fn) ? n + 20 : 16 * n;
  logic integer burned_head(aesecb_blocks_fn *fn, aesecb_ctx *ctx,
                            integer n) =
    burned_hp(fn) ? 1 : fn == &setkey_work ? 0 :
    burned_mask(fn, ctx) ? 5 * n : 16 * n;
  logic integer burned_out(aesecb_blocks_fn *fn, aesecb_ctx *ctx,
                           integer n) =
    burned_hp(fn) ? n + 20 : fn == &setkey_work ? 0 :
    burned_mask(fn, ctx) ? 5 * n : 16 * n;
  logic integer burned_pn(aesecb_blocks_fn *fn) = burned_hp(fn) ? 4 : 0;
  logic integer burned_keys(aesecb_blocks_fn *fn, aesecb_ctx *ctx) =
    fn == &setkey_work ? sizeof(ctx->priv_keys.b) : 0;

  // what it returns
  predicate burned_status(aesecb_blocks_fn *fn, integer status) =
    fn == &hp_unprotect_work ? 1 <= status <= 4 : status == AESECB_OK;

  // the stack record of a burned call, apart from each of the above
  // (one \separated each, as in aesecb_stk: the input may be the
  // output); none on a direct path, never for key setup
  predicate burned_stk(aesecb_stack *stk, aesecb_blocks_fn *fn,
                       aesecb_ctx *ctx, uint8_t *in, uint8_t *out,
                       integer n) =
    stk == \null && fn != &setkey_work ||
    \valid(stk) && \separated(stk, ctx) &&
    \separated(stk, in + (0 .. burned_in(fn, n) - 1)) &&
    \separated(stk, out + (0 .. burned_out(fn, ctx, n) - 1));
*/

/* The call, under DIT when the context asks for it (AArch64 with
 * FEAT_DIT; see above); otherwise, and on every other architecture, a
 * plain call. */
/*@ requires burned_args(fn, ctx, in, out, n);
    requires burned_stk(stk, fn, ctx, in, out, n);
    assigns out[0 .. burned_head(fn, ctx, n) - 1],
            out[n .. n + burned_pn(fn) - 1],
            ((aesecb_ctx *)ctx)->priv_keys.b[0 .. burned_keys(fn, ctx) - 1],
            stk->low;
    ensures burned_status(fn, \result); */
static ALWAYS_INLINE int call_dit(aesecb_blocks_fn *fn, const aesecb_ctx *ctx,
                                  const uint8_t *in, uint8_t *out, size_t n,
                                  aesecb_stack *stk)
{
#ifdef AESECB_DIT
	if (ctx->priv_dit) {
		uint64_t saved = dit_on();

		return dit_restore(saved, fn(ctx, in, out, n, stk));
	}
#endif
#ifdef MODEL_IMPL
	/* (for the prover: which arguments go with which function) */
	/*@ assert fn == &aesecb__model_encrypt ||
	           fn == &aesecb__model_decrypt ==>
	           aesecb_ready(ctx) && !burned_mask(fn, ctx) &&
	           !burned_hp(fn) && fn != &setkey_work; */
	/*@ assert fn == &setkey_work ==> !burned_hp(fn); */
	/*@ assert fn == &setkey_work ==> burned_in(fn, n) == n; */
	/*@ assert fn == &setkey_work ==> stk != \null; */
	/*@ assert fn == &setkey_work ==>
	           !burned_mask(fn, ctx) || !aesecb_ready(ctx); */
	/*@ assert fn == &setkey_work ==> aesecb_key_args((aesecb_ctx *)ctx, in, n); */
	/*@ assert burned_hp(fn) ==>
	           aesecb_ready(ctx) && !burned_mask(fn, ctx); */
#endif
	/*@ calls aesecb__model_encrypt, aesecb__model_decrypt,
	          aesecb__model_masks, generic_masks, burned_masks,
	          block_mask_work, setkey_work, hp_protect_work,
	          hp_unprotect_work; */
	return fn(ctx, in, out, n, stk);
}

/* Step 1: the call, BURN_GAP bytes below the caller's frame.  The gap is
 * never written; the asm statements keep it, and keep the call from
 * becoming a jump (which would drop this frame). */
/*@ requires burned_args(fn, ctx, in, out, n);
    requires burned_stk(stk, fn, ctx, in, out, n);
    assigns out[0 .. burned_head(fn, ctx, n) - 1],
            out[n .. n + burned_pn(fn) - 1],
            ((aesecb_ctx *)ctx)->priv_keys.b[0 .. burned_keys(fn, ctx) - 1],
            stk->low;
    ensures burned_status(fn, \result); */
static NOINLINE int through(aesecb_blocks_fn *fn, const aesecb_ctx *ctx,
                            const uint8_t *in, uint8_t *out, size_t n,
                            aesecb_stack *stk)
{
	unsigned char gap[BURN_GAP];
	int status;

	/*@ assigns \nothing; */
	__asm__ __volatile__("" : : "r"(gap) : "memory");
	status = call_dit(fn, ctx, in, out, n, stk);
	/*@ assigns \nothing; */
	__asm__ __volatile__("" : : "r"(gap) : "memory");
	return status;
}

/*
 * Steps 1 to 4 above: fn(ctx, in, out, n) with its stack burned.  The
 * burn writes below this frame, where the call's frames were: no object
 * lives there but the block step 4 allocates, this frame's own, which the
 * contract need not name.  (Frama-C 25's WP does not model allocation:
 * the one part of the assigns goal that is the wipe of that block stays
 * unproved, listed in prove/known.)
 */
/*@ requires burned_args(fn, ctx, in, out, n);
    assigns out[0 .. burned_head(fn, ctx, n) - 1],
            out[n .. n + burned_pn(fn) - 1],
            ((aesecb_ctx *)ctx)->priv_keys.b[0 .. burned_keys(fn, ctx) - 1];
    ensures burned_status(fn, \result); */
static NOINLINE REAL_STACK int run_burned(aesecb_blocks_fn *fn,
                                          const aesecb_ctx *ctx,
                                          const uint8_t *in, uint8_t *out,
                                          size_t n)
{
	aesecb_stack stk;
	unsigned char *area;
	size_t depth;
	int status;

	stk.low = (uintptr_t)&stk;
	/* (for the prover: what the precondition says, carried across the
	 * allocation of stk, one \valid_read at a time) */
	/*@ assert \separated(&stk, ctx) && \separated(&stk, ctx->priv_backend); */
	/*@ assert \at(\valid_read(ctx) && \valid_read(ctx->priv_backend), Pre); */
	/*@ assert \valid_read(ctx) && \valid_read(ctx->priv_backend); */
	/*@ assert \at(aesecb_chosen(ctx), Pre) ==> aesecb_chosen(ctx); */
	/*@ assert \at(aesecb_ready(ctx), Pre) ==> aesecb_ready(ctx); */
	/*@ assert burned_args(fn, ctx, in, out, n); */
	/*@ assert \valid(&stk); */
	/*@ assert \separated(&stk, in + (0 .. burned_in(fn, n) - 1)); */
	/*@ assert \separated(&stk, out + (0 .. burned_out(fn, ctx, n) - 1)); */
	/*@ assert stk_apart: burned_stk(&stk, fn, ctx, in, out, n); */
	status = through(fn, ctx, in, out, n, &stk);
	clear_registers();
	depth = (uintptr_t)&stk - stk.low;
	area = __builtin_alloca(depth);
	aesecb_wipe(area, depth);
	return status;
}

/* What the slots of a context filled with zeros lead to (internal.h). */
/*@ assigns \nothing;
    ensures \result == AESECB_EINVAL; */
int aesecb__one_none(const aesecb_ctx *ctx, const uint8_t *in, uint8_t *out)
{
	(void)ctx;
	(void)in;
	(void)out;
	return AESECB_EINVAL;
}

/*
 * The context's one-block functions: the backend's own where it declares
 * them register-only (regs: what it declares and this build honours),
 * else the core's: direct calls of the block and mask functions where
 * those are register-only, burned calls of them otherwise.
 */
/*@ requires \valid(ctx) && aesecb_known(be) && be->impl != \null;
    requires \valid_read(be) && impl_ok(be->impl);
    assigns ctx->priv_one[0 .. AESECB_ONE_N - 1];
    ensures slot_enc(ctx);
    ensures slot_dec(ctx);
    ensures slot_mask(ctx); */
static void set_one(aesecb_ctx *ctx, const aesecb_backend *be, int rounds,
                    unsigned regs)
{
	aesecb_one_fn *own[AESECB_ONE_N] = { NULL, NULL, NULL };
	int direct = (regs & AESECB_REGS_BLOCKS) != 0;

	if (be->impl->one != NULL && (regs & AESECB_REGS_ONE))
		/*@ calls aesecb__model_one; */
		be->impl->one((unsigned)rounds, own);
	if (own[ONE_ENC] == NULL)
		own[ONE_ENC] = direct ? direct_encrypt1 : burned_encrypt1;
	if (own[ONE_DEC] == NULL)
		own[ONE_DEC] = direct ? direct_decrypt1 : burned_decrypt1;
	if (own[ONE_MASK] == NULL)
		own[ONE_MASK] = !direct ? burned_mask1
		                : be->impl->masks != NULL ? generic_mask1
		                : block_mask1;
	/*@ assert own[ONE_ENC] == &aesecb__model_one_enc ||
	           own[ONE_ENC] == &burned_encrypt1 ||
	           own[ONE_ENC] == &direct_encrypt1; */
	/*@ assert own[ONE_DEC] == &aesecb__model_one_dec ||
	           own[ONE_DEC] == &burned_decrypt1 ||
	           own[ONE_DEC] == &direct_decrypt1; */
	/*@ assert own[ONE_MASK] == &aesecb__model_one_mask ||
	           own[ONE_MASK] == &burned_mask1 ||
	           own[ONE_MASK] == &generic_mask1 ||
	           own[ONE_MASK] == &block_mask1; */
	/*@ assert one_fns(own[ONE_ENC]) && one_fns(own[ONE_DEC]) &&
	           one_fns(own[ONE_MASK]); */
	ctx->priv_one[ONE_ENC] = aesecb__one_encode(own[ONE_ENC]);
	/*@ assert ctx->priv_one[ONE_ENC] == aesecb_one_code(own[ONE_ENC]); */
	/*@ assert aesecb_one_fn_of(ctx->priv_one[ONE_ENC]) == own[ONE_ENC]; */
	ctx->priv_one[ONE_DEC] = aesecb__one_encode(own[ONE_DEC]);
	/*@ assert ctx->priv_one[ONE_DEC] == aesecb_one_code(own[ONE_DEC]); */
	/*@ assert aesecb_one_fn_of(ctx->priv_one[ONE_DEC]) == own[ONE_DEC]; */
	ctx->priv_one[ONE_MASK] = aesecb__one_encode(own[ONE_MASK]);
	/*@ assert ctx->priv_one[ONE_MASK] == aesecb_one_code(own[ONE_MASK]); */
	/*@ assert aesecb_one_fn_of(ctx->priv_one[ONE_MASK]) == own[ONE_MASK]; */
	/*@ assert slot_enc(ctx) && slot_dec(ctx) && slot_mask(ctx); */
}

/*@ assigns \nothing;
    ensures \result == 0 || aesecb_rounds(\result) &&
                            key_len == 4 * (\result - 6); */
static int rounds_for(size_t key_len)
{
	switch (key_len) {
	case 16: return 10;
	case 24: return 12;
	case 32: return 14;
	default: return 0;
	}
}

/* Key setup as a burned call: in is the key, n its length. */
/*@ requires aesecb_chosen(ctx) && aesecb_setkey_args(ctx, key, key_len, stk);
    assigns ((aesecb_ctx *)ctx)->priv_keys.b[0 .. sizeof(ctx->priv_keys.b) - 1],
            stk->low;
    ensures \result == AESECB_OK; */
static int setkey_work(const aesecb_ctx *ctx, const uint8_t *key,
                       uint8_t *unused, size_t key_len, aesecb_stack *stk)
{
	/* the context is the caller's, writable: aesecb_init's */
	aesecb_ctx *w = (aesecb_ctx *)ctx;

	(void)unused;
	/*@ calls aesecb__model_setkey; */
	w->priv_backend->impl->setkey(w, key, key_len, stk);
	return AESECB_OK;
}

/*@ requires \valid(ctx);
    requires key == \null || \valid_read(key + (0 .. key_len - 1)) &&
                             \separated(key + (0 .. key_len - 1), ctx);
    requires aesecb_apart(ctx);
    assigns *ctx;
    ensures \result == AESECB_OK ==>
            aesecb_ready(ctx) && ctx->priv_key_len == key_len; */
static int init_checked(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                        const aesecb_backend *be)
{
	int rounds, status = AESECB_OK;
	unsigned regs;

	if (be == NULL) {
		/* (into the context, which keeps it below) */
		status = aesecb_backend_resolve(NULL, &ctx->priv_backend, NULL);
		if (status != AESECB_OK)
			return status;
		be = ctx->priv_backend;
	} else if (!known(be)) {
		return AESECB_EUNKNOWN;
	}
	if (!aesecb_backend_available(be))
		return AESECB_EUNAVAILABLE;
	if (key == NULL)
		return AESECB_EINVAL;
	rounds = rounds_for(key_len);
	if (rounds == 0)
		return AESECB_EKEYLEN;

#ifdef MODEL_IMPL
	/* (for the prover: the model's functions, then each part of
	 * aesecb_ready as the context is filled, before and after key setup;
	 * the context is none of the descriptors) */
	/*@ assert MODEL_IMPL(be); */
	/*@ assert be->impl->encrypt == &aesecb__model_encrypt &&
	           be->impl->decrypt == &aesecb__model_decrypt &&
	           be->impl->masks == &aesecb__model_masks; */
#endif
	/*@ assert \separated(ctx, be); */
	regs = be->regs & CORE_REGS;
	ctx->priv_backend = be;
	ctx->priv_rounds = (uint16_t)rounds;
	ctx->priv_key_len = (uint8_t)key_len;
	ctx->priv_encrypt = be->impl->encrypt;
	ctx->priv_decrypt = be->impl->decrypt;
	/* the masks of a context whose block functions run burned go
	 * through burned_masks, so that aesecb_hp_masks tests nothing */
	ctx->priv_masks = !(regs & AESECB_REGS_BLOCKS) ? burned_masks
	                  : be->impl->masks != NULL ? be->impl->masks
	                  : generic_masks;
	ctx->priv_burn = (regs & AESECB_REGS_BLOCKS) == 0;
	/*@ assert ctx_ptrs(ctx); */
	set_one(ctx, be, rounds, regs);
#ifdef AESECB_DIT
	ctx->priv_dit = (uint8_t)backend_dit(be);
#endif
	/*@ assert aesecb_keyed(ctx); */
	/*@ assert aesecb_known(ctx->priv_backend); */
	/*@ assert impl_ok(ctx->priv_backend->impl); */
	/*@ assert ctx_ptrs(ctx); */
	/*@ assert slot_enc(ctx) && slot_dec(ctx) && slot_mask(ctx); */
	/*@ assert ctx->priv_key_len == key_len; */
	/*@ assert aesecb_ready(ctx) && ctx->priv_key_len == key_len; */
	/*@ assert burned_head(&setkey_work, ctx, key_len) == 0; */
	/*@ assert burned_pn(&setkey_work) == 0; */
	/*@ assert burned_keys(&setkey_work, ctx) == sizeof(ctx->priv_keys.b); */
	/* under DIT where the context asks for it (run_burned) */
	status = run_burned(setkey_work, ctx, key, NULL, key_len);
	/*@ assert ctx->priv_key_len == key_len; */
	/*@ assert ctx->priv_rounds == rounds; */
	/*@ assert \valid_read(ctx); */
	/*@ assert aesecb_rounds(ctx->priv_rounds); */
	/*@ assert ctx->priv_key_len == 4 * (ctx->priv_rounds - 6); */
	/*@ assert keyed_after_setkey: aesecb_keyed(ctx); */
	/*@ assert aesecb_chosen(ctx); */
	/*@ assert ctx_ptrs(ctx); */
	/*@ assert slot_enc(ctx) && slot_dec(ctx) && slot_mask(ctx); */
	/*@ assert aesecb_ready(ctx); */
	return status;
}

/*
 * The context is wiped first: nothing of an earlier key survives a new one
 * (a shorter key's schedule does not cover a longer one's), and a failed
 * init leaves a cleared context that every call refuses, rather than the
 * previous key still in use.
 */
/*@ requires ctx == \null || \valid(ctx) && aesecb_ctx_bytes(ctx) &&
             aesecb_apart(ctx);
    requires key == \null || \valid_read(key + (0 .. key_len - 1));
    requires ctx == \null || key == \null ||
             \separated(key + (0 .. key_len - 1), ctx);
    assigns *ctx, ((char *)ctx)[0 .. sizeof(aesecb_ctx) - 1];
    ensures \result == AESECB_OK ==>
            aesecb_ready(ctx) && ctx->priv_key_len == key_len; */
int aesecb_init(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                const aesecb_backend *be)
{
	int status;

	if (ctx == NULL)
		return AESECB_EINVAL;
	aesecb_wipe(ctx, sizeof *ctx);
	status = init_checked(ctx, key, key_len, be);
	if (status != AESECB_OK)
		aesecb_wipe(ctx, sizeof *ctx);
	return status;
}

/*@ requires aesecb_ctx_arg(ctx);
    requires ctx == \null || \valid_read(ctx);
    assigns \nothing;
    ensures \result == \null || aesecb_known(\result); */
const aesecb_backend *aesecb_ctx_backend(const aesecb_ctx *ctx)
{
	if (ctx == NULL || ctx->priv_rounds == 0 || !known(ctx->priv_backend))
		return NULL;
	return ctx->priv_backend;
}

/*@ requires ctx == \null || \valid(ctx) && aesecb_ctx_bytes(ctx);
    assigns ((char *)ctx)[0 .. sizeof(aesecb_ctx) - 1]; */
void aesecb_clear(aesecb_ctx *ctx)
{
	if (ctx != NULL)
		aesecb_wipe(ctx, sizeof *ctx);
}

/*
 * A context in its own allocation, for callers that keep one per key in
 * their own heap structures (a QUIC stack does): malloc promises less than
 * the context's 64-byte alignment, aligned_alloc gives it (its size, 1024,
 * is a multiple of the alignment, as C11 asks).  Windows' C runtime has no
 * aligned_alloc, and its free cannot release an over-aligned block: there
 * _aligned_malloc and _aligned_free.
 */
#ifdef _WIN32
static aesecb_ctx *ctx_alloc(void)
{
	return _aligned_malloc(sizeof(aesecb_ctx), _Alignof(aesecb_ctx));
}
#define ctx_release _aligned_free
#else
static aesecb_ctx *ctx_alloc(void)
{
	return aligned_alloc(_Alignof(aesecb_ctx), sizeof(aesecb_ctx));
}
#define ctx_release free
#endif

int aesecb_ctx_new(aesecb_ctx **ctxp, const uint8_t *key, size_t key_len,
                   const aesecb_backend *be)
{
	aesecb_ctx *ctx;
	int status;

	if (ctxp == NULL)
		return AESECB_EINVAL;
	*ctxp = NULL;
	ctx = ctx_alloc();
	if (ctx == NULL)
		return AESECB_ENOMEM;
	status = aesecb_init(ctx, key, key_len, be);
	if (status != AESECB_OK) {
		ctx_release(ctx);       /* aesecb_init left it wiped */
		return status;
	}
	*ctxp = ctx;
	return AESECB_OK;
}

void aesecb_ctx_free(aesecb_ctx *ctx)
{
	if (ctx == NULL)
		return;
	aesecb_wipe(ctx, sizeof *ctx);
	ctx_release(ctx);
}

/*
 * The common path of encrypt and decrypt for more than one block: fn (the
 * context's block function) as a burned call, or, where the backend's
 * block functions are register-only (priv_burn clear), directly (under
 * DIT when the context asks for it): no record, nothing between the
 * caller and the AES instructions.  (The masks have their own way:
 * priv_masks, below.)
 */
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) && burned_args(fn, ctx, in, out, nblocks);
    requires fn == ctx->priv_encrypt || fn == ctx->priv_decrypt ||
             fn == ctx->priv_masks;
    assigns out[0 .. burned_head(fn, ctx, nblocks) - 1];
    ensures \result == AESECB_OK; */
static ALWAYS_INLINE int run_blocks(const aesecb_ctx *ctx,
                                    aesecb_blocks_fn *fn, const uint8_t *in,
                                    uint8_t *out, size_t nblocks)
{
	if (ctx->priv_burn)
		return run_burned(fn, ctx, in, out, nblocks);
	return call_dit(fn, ctx, in, out, nblocks, NULL);
}

/* Whether a slot of ctx->priv_one can be called (always, but on 32-bit
 * x86: internal.h). */
/*@ assigns \nothing;
    ensures \result != 0 ==> slot != 0 || !AESECB_ONE_TESTED; */
static ALWAYS_INLINE int one_ready(uintptr_t slot)
{
	return !AESECB_ONE_TESTED || slot != 0;
}

/* The one-block function in slot 'which' of ctx, under DIT when the
 * context asks for it; otherwise, and on every other architecture, a jump
 * to it. */
/*@ requires \valid_read(ctx);
    requires aesecb_ready(ctx) || aesecb_cleared(ctx) && !AESECB_ONE_TESTED;
    requires which == ONE_ENC || which == ONE_DEC || which == ONE_MASK;
    requires aesecb_ready(ctx) && which != ONE_MASK ==>
             aesecb_blocks_args(ctx, in, out, 1, \null);
    requires aesecb_ready(ctx) && which == ONE_MASK ==>
             aesecb_masks_args(ctx, in, out, 1, \null);
    assigns out[0 .. (which == ONE_MASK ? 4 : 15)];
    ensures \old(aesecb_ready(ctx)) ==> \result == AESECB_OK;
    ensures \old(aesecb_cleared(ctx)) ==> \result == AESECB_EINVAL; */
static ALWAYS_INLINE int run_one_dit(const aesecb_ctx *ctx, int which,
                                     const uint8_t *in, uint8_t *out)
{
	aesecb_one_fn *fn = aesecb__one_decode(ctx->priv_one[which]);

	/*@ assert fn == aesecb_one_fn_of(ctx->priv_one[which]); */
	/*@ assert aesecb_cleared(ctx) ==> ctx->priv_rounds == 0; */
	/*@ assert aesecb_ready(ctx) ==> aesecb_chosen(ctx); */
	/*@ assert aesecb_ready(ctx) ==> aesecb_keyed(ctx); */
	/*@ assert aesecb_ready(ctx) ==> aesecb_rounds(ctx->priv_rounds); */
	/*@ assert aesecb_ready(ctx) ==> ctx->priv_rounds != 0; */
	/*@ assert aesecb_cleared(ctx) && fn == &aesecb__one_none ||
	           aesecb_ready(ctx) && which == ONE_ENC &&
	           (fn == &aesecb__model_one_enc || fn == &burned_encrypt1 ||
	            fn == &direct_encrypt1) ||
	           aesecb_ready(ctx) && which == ONE_DEC &&
	           (fn == &aesecb__model_one_dec || fn == &burned_decrypt1 ||
	            fn == &direct_decrypt1) ||
	           aesecb_ready(ctx) && which == ONE_MASK &&
	           (fn == &aesecb__model_one_mask || fn == &burned_mask1 ||
	            fn == &generic_mask1 || fn == &block_mask1); */

#ifdef AESECB_DIT
	if (ctx->priv_dit) {
		uint64_t saved = dit_on();

		return dit_restore(saved, fn(ctx, in, out));
	}
#endif
	/*@ calls aesecb__one_none, aesecb__model_one_enc,
	          aesecb__model_one_dec, aesecb__model_one_mask,
	          burned_encrypt1, burned_decrypt1, burned_mask1,
	          direct_encrypt1, direct_decrypt1, generic_mask1,
	          block_mask1; */
	return fn(ctx, in, out);
}

/* Every length: the checks in the documented order, then the backend. */
/*@ requires crypt_args(ctx, in, out, len);
    assigns out[0 .. len - 1];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL ||
            \result == AESECB_EPARTIAL; */
static NOINLINE int crypt_checked(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t len, int decrypt)
{
	if (ctx == NULL || ctx->priv_rounds == 0)
		return AESECB_EINVAL;
	if (len == 0)
		return AESECB_OK;
	if (len % AESECB_BLOCK_SIZE != 0)
		return AESECB_EPARTIAL;
	if (in == NULL || out == NULL)
		return AESECB_EINVAL;
	return run_blocks(ctx, decrypt ? ctx->priv_decrypt : ctx->priv_encrypt,
	                  in, out, len / AESECB_BLOCK_SIZE);
}

/*
 * Both buffers non-NULL, tested in one instruction: (in & out) != 0.  Not
 * the same thing (two valid pointers can have no set bit in common), so
 * it only chooses the path: a call where it fails goes to the full checks,
 * which refuse a NULL and run any other call the ordinary way.  User-space
 * pointers nearly always share high bits (the same region of the address
 * space), so in practice only NULL takes the long way.
 */
/*@ assigns \nothing;
    ensures \result != 0 ==> a != \null && b != \null; */
static ALWAYS_INLINE int both_set(const void *a, const void *b)
{
	return ((uintptr_t)a & (uintptr_t)b) != 0;
}
#ifdef AESECB_PROVE_EVA
/* (Eva does not follow the bits of addresses: it is given the test as
 * what it allows, both pointers set, and either answer then.) */
#define both_set(a, b) ((a) != NULL && (b) != NULL && aesecb__prove_any())
#endif

/*
 * One block (a QUIC header-protection sample, say) is tested for first:
 * three tests and a jump to the one-block function that aesecb_init chose
 * for the key size, which a context filled with zeros has as
 * aesecb__one_none (AESECB_EINVAL).  Each test is a branch the CPU
 * predicts, but it still takes an execution port that the AES rounds of
 * back-to-back calls need as well (on recent Intel cores a fused test and
 * branch runs on port 0 or 6, AESENC on port 0 or 1), so the path has no
 * test it can do without: no length of 0, no remainder, no block count,
 * no round count, no working-space declaration, no test of the function,
 * one for both buffers.  Every other length, and every call that fails a
 * test, goes to crypt_checked, which checks in the documented order.
 */
/*@ requires crypt_args(ctx, in, out, len);
    requires which == ONE_ENC || which == ONE_DEC;
    assigns out[0 .. len - 1];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL ||
            \result == AESECB_EPARTIAL; */
static ALWAYS_INLINE int do_crypt(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t len, int which)
{
	if (len == AESECB_BLOCK_SIZE && ctx != NULL && both_set(in, out) &&
	    one_ready(ctx->priv_one[which]))
		return run_one_dit(ctx, which, in, out);
	return crypt_checked(ctx, in, out, len, which == ONE_DEC);
}

/*
 * The one-block entry points start on a 64-byte boundary, so that their
 * fast path lies in one 64-byte block of code: aesecb_hp_mask's, across a
 * boundary, measured 2.6 ns a call against 2.3 (AES-128, Golden Cove,
 * through the PLT).
 */
/*@ requires crypt_args(ctx, in, out, len);
    assigns out[0 .. len - 1];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL ||
            \result == AESECB_EPARTIAL; */
ALIGN64_FN int aesecb_encrypt(const aesecb_ctx *ctx, const uint8_t *in,
                              uint8_t *out, size_t len)
{
	return do_crypt(ctx, in, out, len, ONE_ENC);
}

/*@ requires crypt_args(ctx, in, out, len);
    assigns out[0 .. len - 1];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL ||
            \result == AESECB_EPARTIAL; */
ALIGN64_FN int aesecb_decrypt(const aesecb_ctx *ctx, const uint8_t *in,
                              uint8_t *out, size_t len)
{
	return do_crypt(ctx, in, out, len, ONE_DEC);
}

/*
 * The one-block functions of a backend that has none of its own, or whose
 * own are not register-only in this build: the block and mask functions
 * with one block, called directly (direct_, generic_mask1, block_mask1:
 * where they are register-only, so a jump and no test) or burned
 * (burned_).  They read the context's pointers at each call.
 */
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) && aesecb_blocks_args(ctx, in, out, 1, \null);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
static int burned_encrypt1(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out)
{
	return run_burned(ctx->priv_encrypt, ctx, in, out, 1);
}

/*@ requires \valid_read(ctx) && aesecb_ready(ctx) && aesecb_blocks_args(ctx, in, out, 1, \null);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
static int burned_decrypt1(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out)
{
	return run_burned(ctx->priv_decrypt, ctx, in, out, 1);
}

static aesecb_blocks_fn block_mask_work;

/* One mask of a backend whose block functions run burned: its own mask
 * function, else one block into a 16-byte buffer (block_mask_work). */
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) &&
             aesecb_masks_args(ctx, sample, mask, 1, \null);
    assigns mask[0 .. 4];
    ensures \result == AESECB_OK; */
static int burned_mask1(const aesecb_ctx *ctx, const uint8_t *sample,
                        uint8_t *mask)
{
	aesecb_masks_fn *fn;

#ifdef MODEL_IMPL
	/*@ assert MODEL_IMPL(ctx->priv_backend); */
#endif
	fn = ctx->priv_backend->impl->masks;

	return run_burned(fn != NULL ? fn : block_mask_work, ctx, sample, mask,
	                  1);
}
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) && aesecb_blocks_args(ctx, in, out, 1, \null);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
static int direct_encrypt1(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out)
{
	/*@ calls aesecb__model_encrypt; */
	return ctx->priv_encrypt(ctx, in, out, 1, NULL);
}

/*@ requires \valid_read(ctx) && aesecb_ready(ctx) && aesecb_blocks_args(ctx, in, out, 1, \null);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
static int direct_decrypt1(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out)
{
	/*@ calls aesecb__model_decrypt; */
	return ctx->priv_decrypt(ctx, in, out, 1, NULL);
}

/*@ requires \valid_read(ctx) && aesecb_ready(ctx) &&
             aesecb_masks_args(ctx, sample, mask, 1, \null);
    assigns mask[0 .. 4];
    ensures \result == AESECB_OK; */
static int generic_mask1(const aesecb_ctx *ctx, const uint8_t *sample,
                         uint8_t *mask)
{
	/*@ calls aesecb__model_masks, generic_masks, burned_masks; */
	return ctx->priv_masks(ctx, sample, mask, 1, NULL);
}

/* A backend with no mask function at all: one block, 5 bytes of it (what
 * generic_masks does, without its loop).  The block is the cipher's
 * output, the caller's mask and what follows it. */
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) &&
             aesecb_masks_args(ctx, sample, mask, 1, \null);
    assigns mask[0 .. 4];
    ensures \result == AESECB_OK; */
static int block_mask1(const aesecb_ctx *ctx, const uint8_t *sample,
                       uint8_t *mask)
{
	uint8_t block[AESECB_BLOCK_SIZE];
	int status;

	/*@ calls aesecb__model_encrypt; */
	status = ctx->priv_encrypt(ctx, sample, block, 1, NULL);
	memcpy(mask, block, 5);
	return status;
}

/* block_mask1 as a burned call (n is 1).  It records no frame of its own
 * (as generic_masks): its frame holds the output block, which is the
 * caller's, and the block function it calls, which runs burned too,
 * records one below it, so the burn covers this frame too. */
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) &&
             aesecb_masks_args(ctx, sample, mask, n, stk);
    assigns mask[0 .. 4], stk->low;
    ensures \result == AESECB_OK; */
static int block_mask_work(const aesecb_ctx *ctx, const uint8_t *sample,
                           uint8_t *mask, size_t n, aesecb_stack *stk)
{
	uint8_t block[AESECB_BLOCK_SIZE];
	int status;

	(void)n;
	/*@ calls aesecb__model_encrypt; */
	status = ctx->priv_encrypt(ctx, sample, block, 1, stk);
	memcpy(mask, block, 5);
	return status;
}

/*
 * The mask path of a backend that has none of its own: encrypt into a
 * block buffer and copy 5 bytes of each block; called directly or burned,
 * as the block function is (stk: NULL, or the record of the burned call,
 * which the block function gets too).  It records no frame of its own:
 * it holds nothing but the blocks, the encryptions of the samples, and
 * in a burned call the block function it calls records a frame below
 * this one, so the burn covers this frame too; called directly, there
 * is nothing to record (a call to the stack mark would cost the mask
 * batches of armce 6 instructions).
 */
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) &&
             aesecb_masks_args(ctx, samples, masks, n, stk);
    assigns masks[0 .. 5 * n - 1], stk->low;
    ensures \result == AESECB_OK; */
static int generic_masks(const aesecb_ctx *ctx, const uint8_t *samples,
                         uint8_t *masks, size_t n, aesecb_stack *stk)
{
	/* Blocks per pass: the widest group of the backends that come here
	 * (8: none's pass, armce's loop), twice; a burned call wipes it. */
	enum { BATCH = 16 };
	uint8_t blocks[BATCH * AESECB_BLOCK_SIZE];
	size_t i, k, j;

	/*@ loop invariant 0 <= i <= n;
	    loop invariant ctx->priv_rounds == \at(ctx->priv_rounds, Pre) &&
	                   ctx->priv_key_len == \at(ctx->priv_key_len, Pre);
	    loop assigns i, k, j, blocks[0 .. BATCH * AESECB_BLOCK_SIZE - 1],
	                 masks[0 .. 5 * n - 1], stk->low;
	    loop variant n - i; */
	for (i = 0; i < n; i += k) {
		k = n - i < BATCH ? n - i : BATCH;
		/*@ calls aesecb__model_encrypt; */
		ctx->priv_encrypt(ctx, samples + i * AESECB_BLOCK_SIZE,
		                  blocks, k, stk);
		/*@ loop invariant 0 <= j <= k;
		    loop invariant ctx->priv_key_len ==
		                   \at(ctx->priv_key_len, Pre);
		    loop assigns j, masks[5 * i .. 5 * (i + k) - 1];
		    loop variant k - j; */
		for (j = 0; j < k; j++)
			memcpy(masks + (i + j) * 5, blocks + j * AESECB_BLOCK_SIZE, 5);
	}
	return AESECB_OK;
}

/* One mask: two tests and a jump to the context's one-mask function
 * (aesecb__one_none in a context filled with zeros), as in do_crypt. */
/*@ requires aesecb_ctx_arg(ctx);
    requires ctx == \null || \valid_read(ctx);
    requires sample == \null || \valid_read(sample + (0 .. 15));
    requires mask == \null || \valid(mask + (0 .. 4));
    requires sample == \null || mask == \null ||
             \separated(mask + (0 .. 4), sample + (0 .. 15));
    requires ctx == \null || mask == \null ||
             \separated(mask + (0 .. 4), ctx);
    assigns mask[0 .. 4];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL; */
static NOINLINE int hp_mask_checked(const aesecb_ctx *ctx,
                                    const uint8_t *sample, uint8_t *mask)
{
	if (ctx == NULL || ctx->priv_rounds == 0 || sample == NULL ||
	    mask == NULL)
		return AESECB_EINVAL;
	return run_one_dit(ctx, ONE_MASK, sample, mask);
}

/*@ requires aesecb_ctx_arg(ctx);
    requires ctx == \null || \valid_read(ctx);
    requires sample == \null || \valid_read(sample + (0 .. 15));
    requires mask == \null || \valid(mask + (0 .. 4));
    requires sample == \null || mask == \null ||
             \separated(mask + (0 .. 4), sample + (0 .. 15));
    requires ctx == \null || mask == \null ||
             \separated(mask + (0 .. 4), ctx);
    assigns mask[0 .. 4];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL; */
ALIGN64_FN int aesecb_hp_mask(const aesecb_ctx *ctx,
                              const uint8_t sample[16], uint8_t mask[5])
{
	if (ctx != NULL && both_set(sample, mask) &&
	    one_ready(ctx->priv_one[ONE_MASK]))
		return run_one_dit(ctx, ONE_MASK, sample, mask);
	return hp_mask_checked(ctx, sample, mask);
}

/* The mask function of a context whose block functions run burned: the
 * backend's own, or the generic one, as a burned call. */
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) &&
             aesecb_masks_args(ctx, samples, masks, n, unused);
    assigns masks[0 .. 5 * n - 1];
    ensures \result == AESECB_OK; */
static int burned_masks(const aesecb_ctx *ctx, const uint8_t *samples,
                        uint8_t *masks, size_t n, aesecb_stack *unused)
{
	aesecb_masks_fn *fn;

#ifdef MODEL_IMPL
	/*@ assert MODEL_IMPL(ctx->priv_backend); */
#endif
	fn = ctx->priv_backend->impl->masks;
	(void)unused;
	return run_burned(fn != NULL ? fn : generic_masks, ctx, samples, masks,
	                  n);
}

/* The masks go to the context's mask function, chosen once in
 * aesecb_init (the backend's, the generic one, or burned_masks): checks,
 * then a tail call (or, under DIT, the call between setting and restoring
 * it). */
/*@ requires aesecb_ctx_arg(ctx);
    requires ctx == \null || \valid_read(ctx);
    requires n <= SIZE_MAX / 16;
    requires n == 0 || samples == \null ||
             \valid_read(samples + (0 .. 16 * n - 1));
    requires n == 0 || masks == \null || \valid(masks + (0 .. 5 * n - 1));
    requires samples == \null || masks == \null ||
             \separated(masks + (0 .. 5 * n - 1),
                        samples + (0 .. 16 * n - 1));
    requires ctx == \null || masks == \null ||
             \separated(masks + (0 .. 5 * n - 1), ctx);
    assigns masks[0 .. 5 * n - 1];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL; */
int aesecb_hp_masks(const aesecb_ctx *ctx, const uint8_t *samples,
                    uint8_t *masks, size_t n)
{
	if (ctx == NULL || ctx->priv_rounds == 0)
		return AESECB_EINVAL;
	if (n == 0)
		return AESECB_OK;
	if (samples == NULL || masks == NULL)
		return AESECB_EINVAL;
	return call_dit(ctx->priv_masks, ctx, samples, masks, n, NULL);
}

/*
 * Header protection on a packet (RFC 9001 5.4.1): the mask's first byte
 * covers the low 4 bits of a long header's first byte (bit 7 set) or the
 * low 5 bits of a short header's; its next 1 to 4 bytes cover the packet
 * number, whose length is the low 2 bits of the unprotected first byte
 * plus one.  Nothing branches on, or indexes memory with, a byte of the
 * packet: the header form and the packet-number length become masks, and
 * the four bytes after pn_offset (always inside the packet: the sample
 * follows them) are read and written as one word.
 *
 * Where the target loads and stores 4 bytes at any address in one
 * instruction (x86, AArch64, POWER, z/Architecture), the words go through
 * __builtin_memcpy, which an optimising compiler makes one load and one
 * store (x86: the XOR straight into memory, which measured 6% faster on
 * aesecb_hp_unprotect with AES-128 than a load, an XOR and a store).
 * Elsewhere they are built from the bytes by shifts and taken apart the
 * same way (byte i at bits 8i, whatever the byte order), so that they stay
 * in registers: there a memcpy into a uint32_t is assembled byte by byte
 * in a stack slot (gcc 12 for riscv64: 4 bytes of the mask were left in
 * the entry point's frame).  An unoptimised build runs all this burned.
 */
/* (WP reads the byte-wise form, Eva this one: HACKING.md, "Proofs".) */
#if (defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || \
     defined(__powerpc64__) || defined(__s390x__)) && \
    (!defined(__FRAMAC__) || defined(AESECB_PROVE_EVA))
#define WORD_ACCESS 1
#else
#define WORD_ACCESS 0
#endif

#if !WORD_ACCESS
/*@ requires \valid_read(p + (0 .. 3));
    assigns \nothing; */
static ALWAYS_INLINE uint32_t load4(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/*@ requires \valid(p + (0 .. 3));
    assigns p[0 .. 3]; */
static ALWAYS_INLINE void store4(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
#endif

/* The masking, with the cipher's output block for the sample. */
/*@ requires pn_offset >= 1 && \valid(packet + (0 .. pn_offset + 3));
    requires \valid_read(block + (0 .. 15));
    requires \separated(block + (0 .. 15), packet + (0 .. pn_offset + 3));
    assigns packet[0], packet[pn_offset .. pn_offset + 3];
    ensures unprotect ==> 1 <= \result <= 4;
    ensures !unprotect ==> \result == AESECB_OK; */
static ALWAYS_INLINE int hp_mask_packet(uint8_t *packet, size_t pn_offset,
                                        const uint8_t *block, int unprotect)
{
	uint32_t first, plain, bits, pn_len, pn, keep;

	first = packet[0];
	/* 0x0f for a long header, 0x1f for a short one */
	bits = 0x1fu & ~((first >> 7) << 4);
	packet[0] = (uint8_t)(first ^ (block[0] & bits));
	plain = unprotect ? packet[0] : first;
	pn_len = plain % 4u + 1u;  /* its low 2 bits, plus one */
#if WORD_ACCESS
	{
		uint32_t mask;

		/* the first pn_len bytes of the word, in memory order */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		keep = 0xffffffffu << (8u * (4u - pn_len));
#else
		keep = 0xffffffffu >> (8u * (4u - pn_len));
#endif
		__builtin_memcpy(&pn, packet + pn_offset, 4);
		__builtin_memcpy(&mask, block + 1, 4);
		pn ^= mask & keep;
		__builtin_memcpy(packet + pn_offset, &pn, 4);
	}
#else
	/* the first pn_len bytes of the word */
	keep = 0xffffffffu >> (8u * (4u - pn_len));
	pn = load4(packet + pn_offset) ^ (load4(block + 1) & keep);
	store4(packet + pn_offset, pn);
#endif
	return unprotect ? (int)pn_len : AESECB_OK;
}

/*
 * The direct path (an optimised build): the one-block function, then the
 * masking in registers.  The AES output goes through a whole block rather
 * than the 5-byte mask path: the bytes are then read back from one 16-byte
 * store, which the CPU forwards, where two narrower stores would stall the
 * 4-byte read.  The block, the cipher's output for the sample (the mask
 * and what follows it), is the only thing this frame holds.
 */
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) && hp_args(ctx, packet, pn_offset);
    assigns packet[0], packet[pn_offset .. pn_offset + 3];
    ensures unprotect ==> 1 <= \result <= 4;
    ensures !unprotect ==> \result == AESECB_OK; */
static ALWAYS_INLINE int hp_body(const aesecb_ctx *ctx, uint8_t *packet,
                                 size_t pn_offset, int unprotect)
{
	uint8_t block[AESECB_BLOCK_SIZE];

	/* (for the prover: the precondition carried across the allocation
	 * of block, one \valid_read at a time) */
	/*@ assert \valid_read(ctx); */
	/*@ assert \separated(ctx->priv_backend, &block[0]); */
	/*@ assert \at(\valid_read(ctx->priv_backend), Pre); */
	/*@ assert \valid_read(ctx->priv_backend); */
	/*@ assert aesecb_chosen(ctx); */
	/*@ assert aesecb_ready(ctx); */
	/*@ assert aesecb_blocks_args(ctx, packet + pn_offset + 4, &block[0], 1, \null); */
	/*@ calls aesecb__model_one_enc, burned_encrypt1, direct_encrypt1; */
	aesecb__one_decode(ctx->priv_one[ONE_ENC])(ctx, packet + pn_offset + 4,
	                                           block);
	return hp_mask_packet(packet, pn_offset, block, unprotect);
}

/* The burned path (an unoptimised build, where the masking's values sit in
 * this frame): the block function, then the masking, below run_burned.
 * It records no frame of its own: the block function it calls records one
 * below it (in such a build every block function does), so the burn
 * covers this frame, and the masking, inlined, stays in it. */
/*@ requires \valid_read(ctx) && aesecb_ready(ctx) && hp_args(ctx, packet, pn_offset);
    requires stk == \null || \valid(stk) &&
             \separated(stk, ctx, packet + (0 .. pn_offset + 19));
    assigns packet[0], packet[pn_offset .. pn_offset + 3], stk->low;
    ensures unprotect ==> 1 <= \result <= 4;
    ensures !unprotect ==> \result == AESECB_OK; */
static ALWAYS_INLINE int hp_work(const aesecb_ctx *ctx, uint8_t *packet,
                                 size_t pn_offset, int unprotect,
                                 aesecb_stack *stk)
{
	uint8_t block[AESECB_BLOCK_SIZE];

	/*@ calls aesecb__model_encrypt; */
	ctx->priv_encrypt(ctx, packet + pn_offset + 4, block, 1, stk);
	return hp_mask_packet(packet, pn_offset, block, unprotect);
}

/*@ requires \valid_read(ctx) && aesecb_ready(ctx) && unused == packet &&
             hp_args(ctx, packet, pn_offset);
    requires stk == \null || \valid(stk) &&
             \separated(stk, ctx, packet + (0 .. pn_offset + 19));
    assigns packet[0], packet[pn_offset .. pn_offset + 3], stk->low;
    ensures \result == AESECB_OK; */
static int hp_protect_work(const aesecb_ctx *ctx, const uint8_t *unused,
                           uint8_t *packet, size_t pn_offset,
                           aesecb_stack *stk)
{
	(void)unused;
	return hp_work(ctx, packet, pn_offset, 0, stk);
}

/*@ requires \valid_read(ctx) && aesecb_ready(ctx) && unused == packet &&
             hp_args(ctx, packet, pn_offset);
    requires stk == \null || \valid(stk) &&
             \separated(stk, ctx, packet + (0 .. pn_offset + 19));
    assigns packet[0], packet[pn_offset .. pn_offset + 3], stk->low;
    ensures 1 <= \result <= 4; */
static int hp_unprotect_work(const aesecb_ctx *ctx, const uint8_t *unused,
                             uint8_t *packet, size_t pn_offset,
                             aesecb_stack *stk)
{
	(void)unused;
	return hp_work(ctx, packet, pn_offset, 1, stk);
}

/* The checks, then the AES call and the masking, under DIT where the
 * context asks for it: the masking shifts by a length read from the
 * protected byte, one of the operations DIT makes data-independent. */
/*@ requires aesecb_ctx_arg(ctx);
    requires ctx == \null || \valid_read(ctx);
    requires packet == \null || \valid(packet + (0 .. len - 1));
    requires ctx == \null || packet == \null ||
             \separated(packet + (0 .. len - 1), ctx);
    assigns packet[0], packet[pn_offset .. pn_offset + 3];
    ensures \result == AESECB_EINVAL || \result == AESECB_ESHORT ||
            (unprotect ? 1 <= \result <= 4 : \result == AESECB_OK); */
static ALWAYS_INLINE int hp_apply(const aesecb_ctx *ctx, uint8_t *packet,
                                  size_t len, size_t pn_offset, int unprotect)
{
	if (ctx == NULL || ctx->priv_rounds == 0 || packet == NULL ||
	    pn_offset == 0)
		return AESECB_EINVAL;
	if (len < 4 + AESECB_BLOCK_SIZE ||
	    pn_offset > len - 4 - AESECB_BLOCK_SIZE)
		return AESECB_ESHORT;
	if (!(CORE_REGS & AESECB_REGS_ONE))
		return run_burned(unprotect ? hp_unprotect_work : hp_protect_work,
		                  ctx, packet, packet, pn_offset);
#ifdef AESECB_DIT
	if (ctx->priv_dit) {
		uint64_t saved = dit_on();

		return dit_restore(saved, hp_body(ctx, packet, pn_offset,
		                                  unprotect));
	}
#endif
	return hp_body(ctx, packet, pn_offset, unprotect);
}

/*@ requires aesecb_ctx_arg(ctx);
    requires ctx == \null || \valid_read(ctx);
    requires packet == \null || \valid(packet + (0 .. len - 1));
    requires ctx == \null || packet == \null ||
             \separated(packet + (0 .. len - 1), ctx);
    assigns packet[0], packet[pn_offset .. pn_offset + 3];
    ensures \result == AESECB_EINVAL || \result == AESECB_ESHORT ||
            \result == AESECB_OK; */
int aesecb_hp_protect(const aesecb_ctx *ctx, uint8_t *packet, size_t len,
                      size_t pn_offset)
{
	return hp_apply(ctx, packet, len, pn_offset, 0);
}

/*@ requires aesecb_ctx_arg(ctx);
    requires ctx == \null || \valid_read(ctx);
    requires packet == \null || \valid(packet + (0 .. len - 1));
    requires ctx == \null || packet == \null ||
             \separated(packet + (0 .. len - 1), ctx);
    assigns packet[0], packet[pn_offset .. pn_offset + 3];
    ensures \result == AESECB_EINVAL || \result == AESECB_ESHORT ||
            1 <= \result <= 4; */
int aesecb_hp_unprotect(const aesecb_ctx *ctx, uint8_t *packet, size_t len,
                        size_t pn_offset)
{
	return hp_apply(ctx, packet, len, pn_offset, 1);
}

const char *aesecb_strerror(int status)
{
	switch (status) {
	case AESECB_OK:
		return "success";
	case AESECB_EKEYLEN:
		return "key must be 16, 24 or 32 bytes";
	case AESECB_EPARTIAL:
		return "length is not a whole number of 16-byte blocks";
	case AESECB_EUNKNOWN:
		return "no backend of that name";
	case AESECB_EUNAVAILABLE:
		return "backend not built in, or not supported by this CPU";
	case AESECB_EINVAL:
		return "invalid argument (NULL pointer or uninitialised context)";
	case AESECB_ESHORT:
		return "packet too short for the header-protection sample";
	case AESECB_ENOMEM:
		return "out of memory";
	default:
		return "unknown status code";
	}
}

const char *aesecb_version(void)
{
	return PACKAGE_VERSION;
}
