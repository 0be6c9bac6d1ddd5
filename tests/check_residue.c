/* SPDX-License-Identifier: MIT */
/*
 * check_residue.c - nothing derived from the key is left on the stack.
 *
 * For every available backend and key size, each library call is run
 * twice at the same stack depth, once under key A and once under key B,
 * with the same context address, the same data and the same buffers:
 *
 *     fill the stack below the caller with a pattern
 *     the call (aesecb_init, encrypt, decrypt, the QUIC mask and packet
 *         functions)
 *     copy the same region: what the library's frames left there
 *
 * Return addresses, saved registers and pointers are the same in both
 * runs, and so is everything that depends on the data alone; a byte that
 * differs between the two runs was derived from the key: a round key, a
 * copy of the key, an intermediate state that the library did not wipe.
 * That is what a burn or a stack record that was deleted (lib/aesecb.c,
 * "Burned calls") leaves, and what this test catches.  The results the
 * caller asked for (the cipher's output blocks, which the mask paths go
 * through) are no secret and are blanked before comparing; so is what
 * aesecb_hp_unprotect returns, by a sample whose packet-number length is
 * the same under both keys.
 *
 * The caller-saved registers are compared the same way, zeroed before the
 * call and taken right after it (general-purpose, floating-point and
 * vector, on every architecture the library is built for: see
 * regs_take()), for the calls the library burns, which clear them
 * (lib/aesecb.c); the register-only paths leave what their instructions
 * used (HACKING.md).
 *
 * The region is read in the caller's frame, with no function call (see
 * copy_out()).  The harness itself must not differ between the runs
 * either: a register
 * of the caller's that held, say, the run's number would be saved by the
 * library's first frame and show up as a difference.  So the runs are one
 * loop over static state, read only by functions that are not inlined:
 * the caller's registers are the same at every call.
 *
 * The probed region must reach below the deepest frame the library uses:
 * it grows while a call changes its bottom, the test fails when it cannot
 * grow any more, and reports the deepest use it saw.  That depth is also
 * the library's stack use, which the test holds to the bound that
 * aesecb(3) states (STACK_BOUND): a call that reaches deeper fails, in
 * every build (an unoptimised one included, where the vector backends
 * used hundreds of KiB before their rounds ran as loops there).
 *
 * Meaningless under AddressSanitizer (its fake stacks move locals to the
 * heap) and under valgrind (which would report the copy of the region as
 * a read of undefined memory): SKIP there.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_VALGRIND_MEMCHECK_H
#include <valgrind/valgrind.h>
#endif

#include "internal.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define BS AESECB_BLOCK_SIZE

/*
 * The region probed below the caller: every frame of the library's, with
 * room.  It starts at 64 KiB and grows fourfold, up to PROBE_MAX, as long
 * as a call changes its last PROBE_SPARE bytes (the probe would not see
 * what lies below): an optimised build uses a few KiB, an -O0 build some
 * 10 to 25 KiB; past STACK_BOUND the test fails anyway, but it still
 * measures how deep the call went.
 */
#define PROBE_MIN (64 * 1024)
#define PROBE_MAX (4 * 1024 * 1024)
#define PROBE_SPARE 4096
static size_t probe_len = PROBE_MIN;

/*
 * The most stack any call may use below its caller's frame, in any build
 * and on any architecture (aesecb(3), "Stack use"; HACKING.md): the
 * frames of the entry point, of the burn and of the backend, the burned
 * area included.  What the builds use is less: about 3 KiB optimised,
 * 10 to 22 KiB at -O0 (HACKING.md, "Stack use", has the figures).  The
 * depth of each call is fixed by the build: the test cannot flake.
 */
#define STACK_BOUND (32 * 1024)

static uint8_t snap[2][PROBE_MAX], region[PROBE_MAX], pattern[PROBE_MAX];
static uint8_t vsnap[2][46 * 16];       /* the registers after the call */
static uintptr_t gsnap[2][40];
static size_t deepest;                 /* the deepest change seen */
static size_t be_deepest;              /* the same for this backend */
static size_t call_depth;              /* the same for this comparison */

static uint8_t fill_byte(size_t i)
{
	return (uint8_t)(0xa5 ^ (i * 7));
}

/*
 * Fill the stack region below the caller's frame, and note where it is.
 * The asm hides from the compiler that the fill is read later.  The
 * region is allocated here and filled after the allocation: a compiler
 * that protects against stack clashes probes every page of a large
 * allocation with a store (gcc on ARM stores r0, on AArch64 xzr), and
 * those stores land before the pattern, never over it.  (A frame of a
 * fixed size would be probed by the prologue of the function that reads
 * the region, after the call: its stores would look like the call's.)
 */
static uintptr_t probe_at;

static NOINLINE void fill(void)
{
	uint8_t *p = __builtin_alloca(probe_len);

	__asm__ __volatile__("" : "+r"(p) : : "memory");
	probe_at = (uintptr_t)p;
	memcpy(p, pattern, probe_len);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/*
 * Copy the region out: what the call left there.  Done in the caller's
 * own frame, with no call, so that nothing writes below its stack pointer
 * while it copies: a function of its own would put its frame on the region
 * (and a compiler that protects against stack clashes writes zeros into
 * every page of a large frame as it sets it up).  8 bytes at a time where
 * the region is aligned for that.
 */
static ALWAYS_INLINE void copy_out(void)
{
	size_t i;

	if (probe_at % 8 == 0) {
		const volatile uint64_t *q = (const volatile uint64_t *)probe_at;
		uint64_t *r = (uint64_t *)(void *)region;

		for (i = 0; i < probe_len / 8; i++)
			r[i] = q[i];
	} else {
		const volatile uint8_t *q = (const volatile uint8_t *)probe_at;

		for (i = 0; i < probe_len; i++)
			region[i] = q[i];
	}
}

enum op { OP_INIT, OP_ENC, OP_DEC, OP_MASK, OP_MASKS, OP_PROTECT,
          OP_UNPROTECT, NOPS };

static const char *const op_name[NOPS] = {
	"aesecb_init", "aesecb_encrypt", "aesecb_decrypt", "aesecb_hp_mask",
	"aesecb_hp_masks", "aesecb_hp_protect", "aesecb_hp_unprotect"
};

/* Everything a call works on: static, so none of it is on the stack; the
 * two runs differ only in the bytes of 'key' (and what follows from it).
 * The context is in storage of its own type, or, in
 * tests/check_residue_misaligned (built with its own copy of the library
 * and without UBSan's alignment check, as tests/check_lib_misaligned is),
 * 8 bytes past a 64-byte boundary: there the hardware backends run on an
 * aligned copy of it, which they must wipe. */
#ifdef AESECB_TEST_MISALIGNED
static _Alignas(64) unsigned char ctx_area[sizeof(aesecb_ctx) + 64];
#define CTX ((aesecb_ctx *)(void *)(ctx_area + 8))
#define CTX_WHERE " (a context 8 bytes past a 64-byte boundary)"
#else
static aesecb_ctx ctx_store;
#define CTX (&ctx_store)
#define CTX_WHERE ""
#endif
static uint8_t keys[2][32], key[32];
static uint8_t data[64 * BS], out[64 * BS], packet[96];

#define PN_OFFSET 9

/*
 * The registers after the call, which a later variadic function's
 * prologue, the dynamic linker's lazy binding or a signal frame may store
 * anywhere: the caller-saved ones, zeroed before the call (regs_zero) and
 * taken right after it (regs_take).  General-purpose registers (and the
 * floating-point ones where there are no vector registers) as words in
 * gregs, but for the one the harness needs for the address of gregs (the
 * same in both runs); vector registers, 16 bytes each, in vregs.
 *
 *   x86-64   rax, rcx, rdx, rsi, rdi, r8-r11; xmm0-xmm15
 *   x86      eax, ecx, edx; xmm0-xmm7 where the CPU has SSE2
 *   AArch64  x0-x17; v0-v31
 *   ARM      r0-r3, r12; d0-d31 where the CPU has NEON, else d0-d15
 *   POWER    r0, r3-r12; vs0-vs13, v0-v31 (with VSX)
 *   s390x    r0-r5; v0-v31 (z13 and later), else f0-f7 as words
 *   RISC-V   a0-a7, t0-t6; ft0-ft11, fa0-fa7 as words (with D)
 */
static unsigned cpu;                    /* aesecb__cpu_features() */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NGREGS 9
#define NVREGS 16
static uintptr_t gregs[NGREGS];
static uint8_t vregs[NVREGS * 16];

static NOINLINE __attribute__((target("sse2"))) void regs_zero(void)
{
	__asm__ __volatile__(
		"pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\t"
		"pxor %%xmm2, %%xmm2\n\tpxor %%xmm3, %%xmm3\n\t"
		"pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
		"pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\t"
		"pxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\t"
		"pxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
		"pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\t"
		"pxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15\n\t"
		"xorl %%eax, %%eax\n\txorl %%ecx, %%ecx\n\t"
		"xorl %%edx, %%edx\n\txorl %%esi, %%esi\n\t"
		"xorl %%edi, %%edi\n\txorl %%r8d, %%r8d\n\t"
		"xorl %%r9d, %%r9d\n\txorl %%r10d, %%r10d\n\t"
		"xorl %%r11d, %%r11d"
		: : : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		      "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
		      "xmm13", "xmm14", "xmm15", "rax", "rcx", "rdx", "rsi",
		      "rdi", "r8", "r9", "r10", "r11", "cc");
}

/* the general registers first, with no register of the harness's: the
 * array is addressed relative to rip */
static NOINLINE __attribute__((target("sse2"))) void regs_take(void)
{
	__asm__ __volatile__(
		"movq %%rax, %0\n\tmovq %%rcx, 8+%0\n\tmovq %%rdx, 16+%0\n\t"
		"movq %%rsi, 24+%0\n\tmovq %%rdi, 32+%0\n\t"
		"movq %%r8, 40+%0\n\tmovq %%r9, 48+%0\n\tmovq %%r10, 56+%0\n\t"
		"movq %%r11, 64+%0"
		: "=m"(gregs));
	__asm__ __volatile__(
		"movdqu %%xmm0, 0(%0)\n\tmovdqu %%xmm1, 16(%0)\n\t"
		"movdqu %%xmm2, 32(%0)\n\tmovdqu %%xmm3, 48(%0)\n\t"
		"movdqu %%xmm4, 64(%0)\n\tmovdqu %%xmm5, 80(%0)\n\t"
		"movdqu %%xmm6, 96(%0)\n\tmovdqu %%xmm7, 112(%0)\n\t"
		"movdqu %%xmm8, 128(%0)\n\tmovdqu %%xmm9, 144(%0)\n\t"
		"movdqu %%xmm10, 160(%0)\n\tmovdqu %%xmm11, 176(%0)\n\t"
		"movdqu %%xmm12, 192(%0)\n\tmovdqu %%xmm13, 208(%0)\n\t"
		"movdqu %%xmm14, 224(%0)\n\tmovdqu %%xmm15, 240(%0)"
		: : "r"(vregs) : "memory");
}
#elif defined(__i386__) && (defined(__GNUC__) || defined(__clang__))
#define NGREGS 3
#define NVREGS 8
static uintptr_t gregs[NGREGS];
static uint8_t vregs[NVREGS * 16];

static NOINLINE __attribute__((target("sse2"))) void xmm_zero(void)
{
	__asm__ __volatile__(
		"pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\t"
		"pxor %%xmm2, %%xmm2\n\tpxor %%xmm3, %%xmm3\n\t"
		"pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
		"pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7"
		: : : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		      "xmm7");
}

static NOINLINE __attribute__((target("sse2"))) void xmm_take(void)
{
	__asm__ __volatile__(
		"movdqu %%xmm0, 0(%0)\n\tmovdqu %%xmm1, 16(%0)\n\t"
		"movdqu %%xmm2, 32(%0)\n\tmovdqu %%xmm3, 48(%0)\n\t"
		"movdqu %%xmm4, 64(%0)\n\tmovdqu %%xmm5, 80(%0)\n\t"
		"movdqu %%xmm6, 96(%0)\n\tmovdqu %%xmm7, 112(%0)"
		: : "r"(vregs) : "memory");
}

static NOINLINE void regs_zero(void)
{
	if (cpu & AESECB_CPU_SSE2)
		xmm_zero();
	__asm__ __volatile__(
		"xorl %%eax, %%eax\n\txorl %%ecx, %%ecx\n\txorl %%edx, %%edx"
		: : : "eax", "ecx", "edx", "cc");
}

static NOINLINE void regs_take(void)
{
	__asm__ __volatile__(
		"movl %%eax, %0\n\tmovl %%ecx, 4+%0\n\tmovl %%edx, 8+%0"
		: "=m"(gregs));
	if (cpu & AESECB_CPU_SSE2)
		xmm_take();
}
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define NGREGS 18
#define NVREGS 32
static uintptr_t gregs[NGREGS];
static uint8_t vregs[NVREGS * 16];

static NOINLINE void regs_zero(void)
{
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
		"mov x8, xzr\n\tmov x9, xzr\n\tmov x10, xzr\n\t"
		"mov x11, xzr\n\tmov x12, xzr\n\tmov x13, xzr\n\t"
		"mov x14, xzr\n\tmov x15, xzr\n\tmov x16, xzr\n\t"
		"mov x17, xzr"
		: : : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8",
		      "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
		      "x17");
}

static NOINLINE void regs_take(void)
{
	uint8_t *p = vregs;

	__asm__ __volatile__(
		"stp x0, x1, [%0, #0]\n\tstp x2, x3, [%0, #16]\n\t"
		"stp x4, x5, [%0, #32]\n\tstp x6, x7, [%0, #48]\n\t"
		"stp x8, x9, [%0, #64]\n\tstp x10, x11, [%0, #80]\n\t"
		"stp x12, x13, [%0, #96]\n\tstp x14, x15, [%0, #112]\n\t"
		"stp x16, x17, [%0, #128]"
		: : "r"(gregs) : "memory");
	__asm__ __volatile__(
		"st1 {v0.16b, v1.16b, v2.16b, v3.16b}, [%0], #64\n\t"
		"st1 {v4.16b, v5.16b, v6.16b, v7.16b}, [%0], #64\n\t"
		"st1 {v8.16b, v9.16b, v10.16b, v11.16b}, [%0], #64\n\t"
		"st1 {v12.16b, v13.16b, v14.16b, v15.16b}, [%0], #64\n\t"
		"st1 {v16.16b, v17.16b, v18.16b, v19.16b}, [%0], #64\n\t"
		"st1 {v20.16b, v21.16b, v22.16b, v23.16b}, [%0], #64\n\t"
		"st1 {v24.16b, v25.16b, v26.16b, v27.16b}, [%0], #64\n\t"
		"st1 {v28.16b, v29.16b, v30.16b, v31.16b}, [%0], #64"
		: "+r"(p) : : "memory");
}
#elif defined(__arm__) && (defined(__GNUC__) || defined(__clang__))
#define NGREGS 5
#define NVREGS 16
static uintptr_t gregs[NGREGS];
static uint8_t vregs[NVREGS * 16];

#if defined(__ARM_NEON) || defined(AESECB_WITH_NEON32) || \
    defined(AESECB_WITH_ARMCE32)
#define ARM_NEON_REGS 1
#if defined(__clang__)
#define TARGET_ARM_NEON __attribute__((target("neon,vfp3,vfp3sp,d32")))
#else
#define TARGET_ARM_NEON __attribute__((target("fpu=neon")))
#endif
static NOINLINE TARGET_ARM_NEON void neon_zero(void)
{
	__asm__ __volatile__(
		"vmov.i8 q0, #0\n\tvmov.i8 q1, #0\n\tvmov.i8 q2, #0\n\t"
		"vmov.i8 q3, #0\n\tvmov.i8 q8, #0\n\tvmov.i8 q9, #0\n\t"
		"vmov.i8 q10, #0\n\tvmov.i8 q11, #0\n\tvmov.i8 q12, #0\n\t"
		"vmov.i8 q13, #0\n\tvmov.i8 q14, #0\n\tvmov.i8 q15, #0"
		: : : "q0", "q1", "q2", "q3", "q8", "q9", "q10", "q11", "q12",
		      "q13", "q14", "q15");
}

static NOINLINE TARGET_ARM_NEON void neon_take(void)
{
	__asm__ __volatile__(
		"vstmia %0, {d0-d15}\n\tvstmia %1, {d16-d31}"
		: : "r"(vregs), "r"(vregs + 128) : "memory");
}
#else
#define ARM_NEON_REGS 0
#endif

static NOINLINE void regs_zero(void)
{
#if ARM_NEON_REGS
	if (cpu & AESECB_CPU_ARM_ASIMD)
		neon_zero();
	else
#endif
	{
#if defined(__ARM_FP)
		__asm__ __volatile__(
			"mov r0, #0\n\tvmov d0, r0, r0\n\tvmov d1, r0, r0\n\t"
			"vmov d2, r0, r0\n\tvmov d3, r0, r0\n\t"
			"vmov d4, r0, r0\n\tvmov d5, r0, r0\n\t"
			"vmov d6, r0, r0\n\tvmov d7, r0, r0"
			: : : "r0", "d0", "d1", "d2", "d3", "d4", "d5", "d6",
			      "d7");
#endif
	}
	__asm__ __volatile__(
		"mov r0, #0\n\tmov r1, #0\n\tmov r2, #0\n\tmov r3, #0\n\t"
		"mov r12, #0"
		: : : "r0", "r1", "r2", "r3", "r12", "cc");
}

static NOINLINE void regs_take(void)
{
	__asm__ __volatile__(
		"str r0, [%0]\n\tstr r1, [%0, #4]\n\tstr r2, [%0, #8]\n\t"
		"str r3, [%0, #12]\n\tstr r12, [%0, #16]"
		: : "r"(gregs) : "memory");
#if ARM_NEON_REGS
	if (cpu & AESECB_CPU_ARM_ASIMD)
		neon_take();
	else
#endif
	{
#if defined(__ARM_FP)
		__asm__ __volatile__("vstmia %0, {d0-d15}"
		                     : : "r"(vregs) : "memory");
#endif
	}
}
#elif (defined(__powerpc64__) || defined(__PPC64__)) && \
    (defined(__GNUC__) || defined(__clang__))
#define NGREGS 11
static uintptr_t gregs[NGREGS];
#if defined(__VSX__)
#define NVREGS 46
static uint8_t vregs[NVREGS * 16];
#else
#define NVREGS 0
static uint8_t vregs[1];
#endif

static NOINLINE void regs_zero(void)
{
#if defined(__VSX__)
	__asm__ __volatile__(
		"xxlxor 0, 0, 0\n\txxlxor 1, 1, 1\n\txxlxor 2, 2, 2\n\t"
		"xxlxor 3, 3, 3\n\txxlxor 4, 4, 4\n\txxlxor 5, 5, 5\n\t"
		"xxlxor 6, 6, 6\n\txxlxor 7, 7, 7\n\txxlxor 8, 8, 8\n\t"
		"xxlxor 9, 9, 9\n\txxlxor 10, 10, 10\n\txxlxor 11, 11, 11\n\t"
		"xxlxor 12, 12, 12\n\txxlxor 13, 13, 13\n\tvxor 0, 0, 0\n\t"
		"vxor 1, 1, 1\n\tvxor 2, 2, 2\n\tvxor 3, 3, 3\n\t"
		"vxor 4, 4, 4\n\tvxor 5, 5, 5\n\tvxor 6, 6, 6\n\t"
		"vxor 7, 7, 7\n\tvxor 8, 8, 8\n\tvxor 9, 9, 9\n\t"
		"vxor 10, 10, 10\n\tvxor 11, 11, 11\n\tvxor 12, 12, 12\n\t"
		"vxor 13, 13, 13\n\tvxor 14, 14, 14\n\tvxor 15, 15, 15\n\t"
		"vxor 16, 16, 16\n\tvxor 17, 17, 17\n\tvxor 18, 18, 18\n\t"
		"vxor 19, 19, 19"
		: : : "fr0", "fr1", "fr2", "fr3", "fr4", "fr5", "fr6", "fr7",
		      "fr8", "fr9", "fr10", "fr11", "fr12", "fr13", "v0",
		      "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9",
		      "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17",
		      "v18", "v19");
#endif
	__asm__ __volatile__(
		"li 0, 0\n\tli 3, 0\n\tli 4, 0\n\tli 5, 0\n\tli 6, 0\n\t"
		"li 7, 0\n\tli 8, 0\n\tli 9, 0\n\tli 10, 0\n\tli 11, 0\n\t"
		"li 12, 0"
		: : : "r0", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
		      "r11", "r12");
}

static NOINLINE void regs_take(void)
{
#if defined(__VSX__)
	uint8_t *p = vregs;
#endif

	__asm__ __volatile__(
		"std 0, 0(%0)\n\tstd 3, 8(%0)\n\tstd 4, 16(%0)\n\t"
		"std 5, 24(%0)\n\tstd 6, 32(%0)\n\tstd 7, 40(%0)\n\t"
		"std 8, 48(%0)\n\tstd 9, 56(%0)\n\tstd 10, 64(%0)\n\t"
		"std 11, 72(%0)\n\tstd 12, 80(%0)"
		: : "b"(gregs) : "memory");
#if defined(__VSX__)
	__asm__ __volatile__(
		"stxvd2x 0, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 1, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 2, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 3, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 4, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 5, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 6, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 7, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 8, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 9, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 10, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 11, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 12, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 13, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 32, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 33, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 34, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 35, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 36, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 37, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 38, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 39, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 40, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 41, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 42, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 43, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 44, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 45, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 46, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 47, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 48, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 49, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 50, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 51, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 52, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 53, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 54, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 55, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 56, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 57, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 58, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 59, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 60, 0, %0\n\taddi %0, %0, 16\n\tstxvd2x 61, 0, %0\n\t"
		"addi %0, %0, 16\n\tstxvd2x 62, 0, %0\n\taddi %0, %0, 16\n\t"
		"stxvd2x 63, 0, %0\n\taddi %0, %0, 16"
		: "+b"(p) : : "memory");
#endif
}
#elif defined(__s390x__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__VX__)
#define NGREGS 6
#define NVREGS 32
static uint8_t vregs[NVREGS * 16];
#else
#define NGREGS 14
#define NVREGS 0
static uint8_t vregs[1];
#endif
static uintptr_t gregs[NGREGS];

static NOINLINE void regs_zero(void)
{
#if defined(__VX__)
	__asm__ __volatile__(
		"vzero %%v0\n\tvzero %%v1\n\tvzero %%v2\n\tvzero %%v3\n\t"
		"vzero %%v4\n\tvzero %%v5\n\tvzero %%v6\n\tvzero %%v7\n\t"
		"vzero %%v16\n\tvzero %%v17\n\tvzero %%v18\n\tvzero %%v19\n\t"
		"vzero %%v20\n\tvzero %%v21\n\tvzero %%v22\n\tvzero %%v23\n\t"
		"vzero %%v24\n\tvzero %%v25\n\tvzero %%v26\n\tvzero %%v27\n\t"
		"vzero %%v28\n\tvzero %%v29\n\tvzero %%v30\n\tvzero %%v31"
		: : : "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "v16",
		      "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
		      "v25", "v26", "v27", "v28", "v29", "v30", "v31");
#else
	__asm__ __volatile__(
		"lzdr %%f0\n\tlzdr %%f1\n\tlzdr %%f2\n\tlzdr %%f3\n\t"
		"lzdr %%f4\n\tlzdr %%f5\n\tlzdr %%f6\n\tlzdr %%f7"
		: : : "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7");
#endif
	__asm__ __volatile__(
		"lghi %%r0, 0\n\tlghi %%r1, 0\n\tlghi %%r2, 0\n\t"
		"lghi %%r3, 0\n\tlghi %%r4, 0\n\tlghi %%r5, 0"
		: : : "r0", "r1", "r2", "r3", "r4", "r5");
}

static NOINLINE void regs_take(void)
{
	__asm__ __volatile__(
		"stmg %%r0, %%r5, 0(%0)"
#if !defined(__VX__)
		"\n\t"
		"std %%f0, 48(%0)\n\tstd %%f1, 56(%0)\n\tstd %%f2, 64(%0)\n\t"
		"std %%f3, 72(%0)\n\tstd %%f4, 80(%0)\n\tstd %%f5, 88(%0)\n\t"
		"std %%f6, 96(%0)\n\tstd %%f7, 104(%0)"
#endif
		: : "a"(gregs) : "memory");
#if defined(__VX__)
	__asm__ __volatile__(
		"vstm %%v0, %%v15, 0(%0)\n\tvstm %%v16, %%v31, 256(%0)"
		: : "a"(vregs) : "memory");
#endif
}
#elif defined(__riscv) && __riscv_xlen == 64 && \
    (defined(__GNUC__) || defined(__clang__))
#if defined(__riscv_flen) && __riscv_flen >= 64
#define RISCV_FREGS 20
#else
#define RISCV_FREGS 0
#endif
#define NGREGS (15 + RISCV_FREGS)
#define NVREGS 0
static uintptr_t gregs[NGREGS];
static uint8_t vregs[1];

static NOINLINE void regs_zero(void)
{
#if RISCV_FREGS
	__asm__ __volatile__(
		"fmv.d.x ft0, zero\n\tfmv.d.x ft1, zero\n\t"
		"fmv.d.x ft2, zero\n\tfmv.d.x ft3, zero\n\t"
		"fmv.d.x ft4, zero\n\tfmv.d.x ft5, zero\n\t"
		"fmv.d.x ft6, zero\n\tfmv.d.x ft7, zero\n\t"
		"fmv.d.x ft8, zero\n\tfmv.d.x ft9, zero\n\t"
		"fmv.d.x ft10, zero\n\tfmv.d.x ft11, zero\n\t"
		"fmv.d.x fa0, zero\n\tfmv.d.x fa1, zero\n\t"
		"fmv.d.x fa2, zero\n\tfmv.d.x fa3, zero\n\t"
		"fmv.d.x fa4, zero\n\tfmv.d.x fa5, zero\n\t"
		"fmv.d.x fa6, zero\n\tfmv.d.x fa7, zero"
		: : : "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
		      "ft8", "ft9", "ft10", "ft11", "fa0", "fa1", "fa2",
		      "fa3", "fa4", "fa5", "fa6", "fa7");
#endif
	__asm__ __volatile__(
		"li a0, 0\n\tli a1, 0\n\tli a2, 0\n\tli a3, 0\n\tli a4, 0\n\t"
		"li a5, 0\n\tli a6, 0\n\tli a7, 0\n\tli t0, 0\n\tli t1, 0\n\t"
		"li t2, 0\n\tli t3, 0\n\tli t4, 0\n\tli t5, 0\n\tli t6, 0"
		: : : "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t0",
		      "t1", "t2", "t3", "t4", "t5", "t6");
}

static NOINLINE void regs_take(void)
{
	__asm__ __volatile__(
		"sd a0, 0(%0)\n\tsd a1, 8(%0)\n\tsd a2, 16(%0)\n\t"
		"sd a3, 24(%0)\n\tsd a4, 32(%0)\n\tsd a5, 40(%0)\n\t"
		"sd a6, 48(%0)\n\tsd a7, 56(%0)\n\tsd t0, 64(%0)\n\t"
		"sd t1, 72(%0)\n\tsd t2, 80(%0)\n\tsd t3, 88(%0)\n\t"
		"sd t4, 96(%0)\n\tsd t5, 104(%0)\n\tsd t6, 112(%0)"
		: : "r"(gregs) : "memory");
#if RISCV_FREGS
	__asm__ __volatile__(
		"fsd ft0, 120(%0)\n\tfsd ft1, 128(%0)\n\tfsd ft2, 136(%0)\n\t"
		"fsd ft3, 144(%0)\n\tfsd ft4, 152(%0)\n\tfsd ft5, 160(%0)\n\t"
		"fsd ft6, 168(%0)\n\tfsd ft7, 176(%0)\n\tfsd ft8, 184(%0)\n\t"
		"fsd ft9, 192(%0)\n\tfsd ft10, 200(%0)\n\t"
		"fsd ft11, 208(%0)\n\tfsd fa0, 216(%0)\n\tfsd fa1, 224(%0)\n\t"
		"fsd fa2, 232(%0)\n\tfsd fa3, 240(%0)\n\tfsd fa4, 248(%0)\n\t"
		"fsd fa5, 256(%0)\n\tfsd fa6, 264(%0)\n\tfsd fa7, 272(%0)"
		: : "r"(gregs) : "memory");
#endif
}
#else
#define NGREGS 0
#define NVREGS 0
static uintptr_t gregs[1];
static uint8_t vregs[1];

static void regs_zero(void)
{
}

static void regs_take(void)
{
}
#endif

/* The call itself, at the probed depth. */
static enum op call_op;
static const aesecb_backend *call_be;
static size_t call_klen, call_n;

static NOINLINE void call(void)
{
	const aesecb_backend *be = call_be;
	size_t klen = call_klen, n = call_n;

	regs_zero();
	switch (call_op) {
	case OP_INIT:
		aesecb_init(CTX, key, klen, be);
		break;
	case OP_ENC:
		aesecb_encrypt(CTX, data, out, n * BS);
		break;
	case OP_DEC:
		aesecb_decrypt(CTX, data, out, n * BS);
		break;
	case OP_MASK:
		aesecb_hp_mask(CTX, data, out);
		break;
	case OP_MASKS:
		aesecb_hp_masks(CTX, data, out, n);
		break;
	case OP_PROTECT:
		aesecb_hp_protect(CTX, packet, sizeof packet, PN_OFFSET);
		break;
	default:
		aesecb_hp_unprotect(CTX, packet, sizeof packet, PN_OFFSET);
		break;
	}
	regs_take();
}

/* The fill, the call and the copy.  No arguments: the fill and the call
 * must run at the same depth (32-bit x86 would push them in between). */
static NOINLINE void run_case(void)
{
	fill();
	call();
	copy_out();
}

/*
 * The two runs share everything but the key's bytes: which key is in use
 * lives in static memory, and check() below makes the same calls with the
 * same arguments for each run, so that no register of the caller's (a
 * loop counter, a pointer to this run's buffers) can differ between the
 * runs and be saved by the library into the probed region.
 */
static int cur;                         /* the key of this run: 0 or 1 */
static int init_failed;
static uint8_t outs[2][64 * BS];        /* the AES outputs the caller gets */
static size_t nouts;
static uint8_t packet_fill;             /* the bytes of the packet */

/* The runs of one comparison: key B first, as a warm-up (the first call
 * of a function through the dynamic linker resolves it on this stack),
 * then A, then B. */
static const int run_keys[3] = { 1, 0, 1 };
static size_t run_next;

/* Starts the next run; 0 when there is none.  Not inlined, so that the
 * caller holds nothing but the answer, the same for every run. */
static NOINLINE int next_run(void)
{
	if (run_next == sizeof run_keys / sizeof run_keys[0])
		return 0;
	cur = run_keys[run_next++];
	return 1;
}

static void fill_packet(void)
{
	memset(packet, packet_fill, sizeof packet);
	packet[0] = 0x41;               /* a short header */
}

static NOINLINE void prepare(enum op op, const aesecb_backend *be,
                             size_t klen, size_t n)
{
	memcpy(key, keys[cur], sizeof key);
	fill_packet();
	nouts = 0;
	if (op == OP_INIT)
		return;
	if (aesecb_init(CTX, key, klen, be) != AESECB_OK)
		init_failed = 1;
	if (op == OP_ENC || op == OP_DEC) {
		nouts = n;
		if (op == OP_ENC)
			aesecb_encrypt(CTX, data, outs[cur], n * BS);
		else
			aesecb_decrypt(CTX, data, outs[cur], n * BS);
	} else if (op >= OP_MASK) {
		nouts = op == OP_MASKS ? n : 1;
		aesecb_encrypt(CTX, op >= OP_PROTECT ? packet + PN_OFFSET + 4
		               : data, outs[cur], nouts * BS);
	}
}

/* The depth of the deepest byte the call changed in the region. */
static size_t depth_used(const uint8_t *s)
{
	size_t i = 0;

	while (i + 256 <= probe_len && memcmp(s + i, pattern + i, 256) == 0)
		i += 256;
	for (; i < probe_len; i++)
		if (s[i] != pattern[i])
			return probe_len - i;
	return 0;
}

static NOINLINE void keep(void)
{
	size_t d = depth_used(region);

	memcpy(snap[cur], region, probe_len);
	memcpy(vsnap[cur], vregs, sizeof vregs);
	memcpy(gsnap[cur], gregs, sizeof gregs);
	if (d > call_depth)
		call_depth = d;
	if (d > deepest)
		deepest = d;
	if (d > be_deepest)
		be_deepest = d;
	aesecb_clear(CTX);
}

/*
 * The packet bytes for aesecb_hp_unprotect: such that the packet-number
 * length it returns, which the mask's first byte gives, is the same under
 * both keys.  Chosen before the runs, with the same calls in each.
 */
static void choose_packet(enum op op, const aesecb_backend *be, size_t klen)
{
	aesecb_ctx c;
	uint8_t m[2][5];
	unsigned v;
	int w;

	packet_fill = 0x40;
	if (op != OP_UNPROTECT)
		return;
	for (v = 0x40; v < 0x140; v++) {
		packet_fill = (uint8_t)v;
		fill_packet();
		for (w = 0; w < 2; w++) {
			aesecb_init(&c, keys[w], klen, be);
			aesecb_hp_mask(&c, packet + PN_OFFSET + 4, m[w]);
		}
		aesecb_clear(&c);
		if (((m[0][0] ^ m[1][0]) & 3) == 0)
			return;
	}
}


#if NVREGS > 0 || NGREGS > 0
/*
 * Whether the library runs this call's AES work as a burned call, which
 * clears the registers (lib/aesecb.c): always for key setup, else where the
 * backend does not declare the path register-only (or the build does not
 * optimise).  The register-only paths leave in the vector registers what
 * their instructions used (HACKING.md): not checked.
 */
static int burned_call(enum op op, const aesecb_backend *be, size_t n)
{
	unsigned regs = be->regs & AESECB_REGS(AESECB_REGS_ONE |
	                                       AESECB_REGS_BLOCKS);

	if (op == OP_INIT)
		return 1;
	if (op == OP_MASKS || ((op == OP_ENC || op == OP_DEC) && n > 1))
		return (regs & AESECB_REGS_BLOCKS) == 0;
	return regs == 0;
}
#endif

#if NVREGS > 0
/* Whether the 16 bytes at r are one of the outputs of either run. */
static int is_output(const uint8_t *r)
{
	size_t k;
	int w;

	for (w = 0; w < 2; w++)
		for (k = 0; k < nouts; k++)
			if (memcmp(r, outs[w] + k * BS, BS) == 0)
				return 1;
	return 0;
}
#endif

/*
 * Whether byte i of s lies in a copy of one of the outputs of either run.
 * At the ends of the region a copy may be cut off (the frame of the entry
 * point that holds it starts above the region): at least 4 bytes of it
 * must be there.
 */
static int in_output(const uint8_t *s, size_t i)
{
	size_t k, lo, hi;
	ptrdiff_t j;
	int w;

	for (j = (ptrdiff_t)i - (BS - 1); j <= (ptrdiff_t)i; j++) {
		lo = j < 0 ? 0 : (size_t)j;
		hi = (size_t)(j + BS) > probe_len ? probe_len : (size_t)(j + BS);
		if (hi - lo < 4)
			continue;
		for (w = 0; w < 2; w++)
			for (k = 0; k < nouts; k++)
				if (memcmp(s + lo, outs[w] + k * BS +
				           (lo - (size_t)j), hi - lo) == 0)
					return 1;
	}
	return 0;
}

/*
 * One comparison: the call under key A, then under key B (after a
 * warm-up run).  For the mask and packet calls, the AES outputs of the
 * samples under each key are what the caller gets (or, for a packet, what
 * protects it): a byte in a copy of one of them counts as 0.
 */
static int check(enum op op, const aesecb_backend *be, size_t klen, size_t n)
{
	size_t i, diff = 0, first = 0, last = 0;
	int over = 0;

	init_failed = 0;
	choose_packet(op, be, klen);
	for (;;) {
		run_next = 0;
		call_depth = 0;
		while (next_run()) {
			prepare(op, be, klen, n);
			call_op = op;
			call_be = be;
			call_klen = klen;
			call_n = n;
			run_case();
			keep();
		}
		if (call_depth <= probe_len - PROBE_SPARE || probe_len == PROBE_MAX)
			break;
		probe_len *= 4;         /* the call reached the bottom: again */
	}
	if (init_failed)
		return -1;
	if (call_depth > STACK_BOUND) {
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks) used %zu "
		       "bytes of stack below the caller's frame, more than "
		       "the %d bytes aesecb(3) promises\n",
		       aesecb_backend_name(be), op_name[op], 8 * klen, n,
		       call_depth, STACK_BOUND);
		over = 1;
	}
	if (call_depth > probe_len - PROBE_SPARE) {
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks) changed the "
		       "stack %zu bytes below the caller's frame, past what "
		       "this test can see (PROBE_MAX)\n",
		       aesecb_backend_name(be), op_name[op], 8 * klen, n,
		       call_depth);
		return 1;
	}
	for (i = 0; i < probe_len; i++) {
		uint8_t a = snap[0][i], b = snap[1][i];

		if (i % 256 == 0 && i + 256 <= probe_len &&
		    memcmp(snap[0] + i, snap[1] + i, 256) == 0) {
			i += 255;
			continue;
		}
		if (a == b)
			continue;
		if (in_output(snap[0], i))
			a = 0;
		if (in_output(snap[1], i))
			b = 0;
		if (a == b)
			continue;
		if (diff++ == 0)
			first = i;
		last = i;
	}
	if (diff != 0)
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks): %zu bytes "
		       "of the stack depend on the key, from %zu to %zu bytes "
		       "below the caller's frame\n",
		       aesecb_backend_name(be), op_name[op], 8 * klen, n, diff,
		       probe_len - last, probe_len - first);
#if NGREGS > 0
	/* aesecb_hp_protect and aesecb_hp_unprotect mask the packet with the
	 * AES output after the burned call, in the entry point's registers
	 * (where the build optimises): what those hold then is the output */
	for (i = 0; i < NGREGS && burned_call(op, be, n) &&
	     (op < OP_PROTECT || !AESECB_REGS(AESECB_REGS_ONE)); i++) {
		if (gsnap[0][i] == gsnap[1][i])
			continue;
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks): general "
		       "register word %zu depends on the key after the call\n",
		       aesecb_backend_name(be), op_name[op], 8 * klen, n, i);
		diff++;
	}
#endif
#if NVREGS > 0
	for (i = 0; i < NVREGS && burned_call(op, be, n); i++) {
		const uint8_t *a = vsnap[0] + 16 * i, *b = vsnap[1] + 16 * i;

		if (memcmp(a, b, 16) == 0 || (is_output(a) && is_output(b)))
			continue;
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks): vector "
		       "register %zu depends on the key after the call\n",
		       aesecb_backend_name(be), op_name[op], 8 * klen, n, i);
		diff++;
	}
#endif
	return diff != 0 || over;
}

int main(void)
{
	static const size_t klens[3] = { 16, 24, 32 };
	static const size_t counts[] = { 1, 2, 3, 4, 8, 9, 17, 33 };
	size_t b, k, c, checked = 0;
	int failed = 0, ran = 0;

#ifdef UNDER_ASAN
	puts("SKIP: AddressSanitizer moves stack frames to the heap");
	return 77;
#endif
#ifdef RUNNING_ON_VALGRIND
	if (RUNNING_ON_VALGRIND) {
		puts("SKIP: under valgrind");
		return 77;
	}
#endif
	for (k = 0; k < 32; k++) {
		keys[0][k] = (uint8_t)(0x11 * k + 1);
		keys[1][k] = (uint8_t)(0x3d ^ (0x65 * k));
	}
	for (k = 0; k < sizeof data; k++)
		data[k] = (uint8_t)(k * 13 + 5);
	for (k = 0; k < PROBE_MAX; k++)
		pattern[k] = fill_byte(k);
	cpu = aesecb__cpu_features();

	for (b = 0; b < aesecb_backend_count(); b++) {
		const aesecb_backend *be = aesecb_backend_get(b);
		int bad = 0;
		enum op op;

		be_deepest = 0;
		if (!aesecb_backend_available(be)) {
			printf("SKIP: backend %s: %s\n", aesecb_backend_name(be),
			       aesecb_backend_unavailable_reason(be));
			continue;
		}
		for (k = 0; k < 3; k++) {
			for (op = OP_INIT; op < NOPS; op++) {
				for (c = 0; c < sizeof counts / sizeof counts[0];
				     c++) {
					int r;

					if ((op == OP_INIT || op == OP_MASK ||
					     op >= OP_PROTECT) && c > 0)
						break;
					r = check(op, be, klens[k], counts[c]);
					if (r < 0) {
						printf("FAIL: backend %s: "
						       "aesecb_init failed\n",
						       aesecb_backend_name(be));
						r = 1;
					}
					bad |= r;
					checked++;
				}
			}
		}
		printf("backend %s: the deepest stack use seen: %zu bytes\n",
		       aesecb_backend_name(be), be_deepest);
		printf("%s: backend %s\n", bad ? "FAIL" : "PASS",
		       aesecb_backend_name(be));
		failed |= bad;
		ran++;
	}
	printf("%zu comparisons on %d backends%s; the deepest stack use seen: "
	       "%zu bytes below the caller's frame (at most %d)\n", checked,
	       ran, CTX_WHERE, deepest, STACK_BOUND);
	return failed ? 1 : ran > 0 ? 0 : 1;
}
