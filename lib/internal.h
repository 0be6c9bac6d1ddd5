/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the contract between the library core and its backends.
 * Not installed.
 */
#ifndef AESECB_INTERNAL_H
#define AESECB_INTERNAL_H

#include "aesecb.h"

/*
 * The stack record of a burned call (lib/aesecb.c, "Burned calls").  A
 * backend function that may hold key-derived values in its frame is run
 * from the library's burning frame, which after it returns overwrites the
 * stack below itself down to the lowest point any frame of the call
 * reached.  That point is recorded here: every out-of-line function that
 * holds key-derived data calls aesecb__stack_mark(stk) (anywhere in its
 * body; the frame is set up by then); the always-inline helpers it
 * expands need nothing.  A function called directly (the path is
 * register-only, see AESECB_REGS_*) gets stk == NULL, which
 * aesecb__stack_mark() ignores.
 */
typedef struct aesecb_stack {
	uintptr_t low;           /* the lowest address recorded so far */
} aesecb_stack;

/*
 * Records the calling function's frame in stk (no-op for NULL): the
 * address of one of its own locals, less AESECB_CALLEE_SAVES, since a
 * function the caller calls afterwards (aesecb_wipe, memcpy) may store the
 * caller's registers, key-derived ones included, that far below the
 * caller's frame.  Never inlined: its frame lies below the caller's.
 */
/*@ requires stk == \null || \valid(stk);
    assigns stk->low;
    ensures stk != \null ==> stk->low <= \old(stk->low); */
void aesecb__stack_mark(aesecb_stack *stk);

/*
 * The contracts in the library's sources (the comments that start with
 * an @) are written in ACSL, the specification language that Frama-C
 * reads, and checked by 'make prove' (HACKING.md, "Proofs").  These are
 * the predicates they share.
 */
/*@
  // the number of rounds of AES-128, AES-192 and AES-256
  predicate aesecb_rounds(integer r) = r == 10 || r == 12 || r == 14;

  // n whole blocks read at in and written at out: the same bytes, or
  // bytes apart (no other overlap)
  predicate aesecb_blocks_io(uint8_t *in, uint8_t *out, integer n) =
    \valid_read(in + (0 .. 16 * n - 1)) && \valid(out + (0 .. 16 * n - 1)) &&
    (in == out ||
     \separated(in + (0 .. 16 * n - 1), out + (0 .. 16 * n - 1)));

  // a context as aesecb_init leaves it for a backend: the key size set,
  // the round keys in the backend's layout
  predicate aesecb_keyed(aesecb_ctx *ctx) =
    \valid_read(ctx) && aesecb_rounds(ctx->priv_rounds) &&
    ctx->priv_key_len == 4 * (ctx->priv_rounds - 6);

  // a stack record as a backend function gets it: none (a direct call),
  // or one of the library's, apart from the context and from the nin
  // bytes read at in and the nout written at out (one \separated each:
  // with more than two arguments, \separated asks each pair apart, the
  // input from the output too, and an in-place call has them equal)
  predicate aesecb_stk(aesecb_stack *stk, aesecb_ctx *ctx, uint8_t *in,
                       integer nin, uint8_t *out, integer nout) =
    stk == \null ||
    \valid(stk) && \separated(stk, ctx) &&
    \separated(stk, in + (0 .. nin - 1)) &&
    \separated(stk, out + (0 .. nout - 1));
*/

/*
 * Bytes of its caller's registers a function may store in its own frame
 * at most: the ABI's callee-saved registers and its return address.
 * x86-64 (System V): rbx, rbp, r12-r15; Windows adds rdi, rsi and
 * xmm6-xmm15.  32-bit x86: ebx, esi, edi, ebp.  AArch64: x19-x30 and
 * d8-d15.  Elsewhere 512, which covers the largest set we know (64-bit
 * POWER: r14-r31, f14-f31, v20-v31 and CR, LR, VRSAVE).
 */
#if defined(__x86_64__) && defined(_WIN64)
#define AESECB_CALLEE_SAVES (8 * 8 + 10 * 16 + 8)
#elif defined(__x86_64__)
#define AESECB_CALLEE_SAVES (6 * 8 + 8)
#elif defined(__i386__)
#define AESECB_CALLEE_SAVES (4 * 4 + 4)
#elif defined(__aarch64__)
#define AESECB_CALLEE_SAVES (12 * 8 + 8 * 8)
#else
#define AESECB_CALLEE_SAVES 512
#endif

/*
 * Whether the compiler may keep a function's values in registers at all:
 * an optimised build (__OPTIMIZE__) that no sanitizer instruments (clang's
 * undefined-behaviour checks need registers of their own, and the AES-NI
 * block functions spilled round keys under them).
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer) || \
    __has_feature(undefined_behavior_sanitizer)
#define AESECB_INSTRUMENTED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#undef AESECB_INSTRUMENTED
#define AESECB_INSTRUMENTED 1
#endif
#if defined(__OPTIMIZE__) && !defined(AESECB_INSTRUMENTED)
#define AESECB_REGISTERS 1
#else
#define AESECB_REGISTERS 0
#endif

/* Records the frame of a backend function on a path declared register-only
 * (AESECB_REGS_*): such a path runs burned only where AESECB_REGISTERS is
 * 0 (an unoptimised or instrumented build). */
#if AESECB_REGISTERS
#define AESECB_MARK_UNOPTIMISED(stk) ((void)(stk))
#else
#define AESECB_MARK_UNOPTIMISED(stk) aesecb__stack_mark(stk)
#endif

/*
 * A backend's block function: process nblocks (>= 1) whole 16-byte blocks
 * from in to out.  in == out is allowed; no other overlap is.  in and out
 * have no particular alignment.  stk: see above (NULL when the library
 * calls the function directly).  It returns AESECB_OK (the entry points
 * return its result, so the call is a tail call).  One block per call
 * goes to the one-block functions below.
 */
typedef int aesecb_blocks_fn(const aesecb_ctx *ctx, const uint8_t *in,
                             uint8_t *out, size_t nblocks, aesecb_stack *stk);

/*@
  // the arguments of a block function: n >= 1 blocks, a keyed context,
  // the output apart from it, a stack record or none
  predicate aesecb_blocks_args(aesecb_ctx *ctx, uint8_t *in, uint8_t *out,
                               integer n, aesecb_stack *stk) =
    aesecb_keyed(ctx) && n >= 1 && aesecb_blocks_io(in, out, n) &&
    \separated(out + (0 .. 16 * n - 1), ctx) &&
    aesecb_stk(stk, ctx, in, 16 * n, out, 16 * n);
*/

/*
 * Key setup: key_len is 16, 24 or 32 (checked by the caller); the function
 * fills ctx->priv_keys in the backend's own layout.  ctx->priv_rounds and
 * ctx->priv_key_len are already set.  Always run burned: it marks stk
 * (never NULL here) in every out-of-line function that holds the key or
 * its schedule, and the burn takes care of its frames.
 */
typedef void aesecb_setkey_fn(aesecb_ctx *ctx, const uint8_t *key,
                              size_t key_len, aesecb_stack *stk);

/*@
  // the arguments of key setup: a writable context with the key size
  // set, the key apart from it, a stack record
  predicate aesecb_key_args(aesecb_ctx *ctx, uint8_t *key,
                            integer key_len) =
    \valid(ctx) && aesecb_keyed(ctx) && key_len == ctx->priv_key_len &&
    \valid_read(key + (0 .. key_len - 1)) &&
    \separated(key + (0 .. key_len - 1), ctx);
  predicate aesecb_setkey_args(aesecb_ctx *ctx, uint8_t *key,
                               integer key_len, aesecb_stack *stk) =
    aesecb_key_args(ctx, key, key_len) &&
    stk != \null && aesecb_stk(stk, ctx, key, key_len, key, 0);
*/

/*
 * QUIC header-protection masks (optional): for n >= 1 samples of 16 bytes
 * at 'samples', write the first 5 bytes of AES-Encrypt(sample) to
 * masks + 5*i, straight from the registers; stk as for the block
 * functions.  A backend that has none gets the generic path (encrypt into
 * a block, copy 5 bytes).  Returns AESECB_OK.  The same type as the block
 * functions.
 */
typedef aesecb_blocks_fn aesecb_masks_fn;

/*@
  // the arguments of a mask function: n >= 1 samples of 16 bytes, n
  // masks of 5 apart from them and from the context
  predicate aesecb_masks_args(aesecb_ctx *ctx, uint8_t *samples,
                              uint8_t *masks, integer n,
                              aesecb_stack *stk) =
    aesecb_keyed(ctx) && 1 <= n <= SIZE_MAX / 16 &&
    \valid_read(samples + (0 .. 16 * n - 1)) &&
    \valid(masks + (0 .. 5 * n - 1)) &&
    \separated(masks + (0 .. 5 * n - 1), ctx) &&
    \separated(masks + (0 .. 5 * n - 1), samples + (0 .. 16 * n - 1)) &&
    aesecb_stk(stk, ctx, samples, 16 * n, masks, 5 * n);
*/

/*
 * One block, or one mask, per call, for one key size: what the one-block
 * entry points (aesecb_encrypt and aesecb_decrypt of 16 bytes,
 * aesecb_hp_mask, the AES call of aesecb_hp_protect and
 * aesecb_hp_unprotect) call, chosen once by aesecb_init and kept in the
 * context (ctx->priv_one), so that the call tests neither a block count
 * nor a round count.  in and out as for aesecb_blocks_fn with one block; a
 * mask function writes the 5 bytes of the mask at out and nothing else.
 * Only used on a path the backend declares register-only (AESECB_REGS_ONE)
 * in an optimised build: it is called directly, never burned, and gets no
 * stack record.  Returns AESECB_OK.  The
 * three arguments are the entry points' first three, in the same order,
 * so the entry points reach it with a jump (on 32-bit x86 too, where the
 * arguments are on the stack).
 */
typedef int aesecb_one_fn(const aesecb_ctx *ctx, const uint8_t *in,
                          uint8_t *out);

/* The slots of ctx->priv_one, and of a backend's 'one' answer. */
enum { AESECB_ONE_ENC, AESECB_ONE_DEC, AESECB_ONE_MASK, AESECB_ONE_N };

/*
 * ctx->priv_one[i] holds its function as the distance from
 * aesecb__one_none, a function that returns AESECB_EINVAL, so that in a
 * context filled with zeros (cleared, never initialised, or refused by
 * aesecb_init) every slot leads there: the entry points call the slot
 * without a test of it.  32-bit x86 is the exception: there the address
 * of a function costs position-independent code a call of its own (to
 * learn its own address), so the slot holds the plain pointer, 0 in such
 * a context, and the entry points test it (AESECB_ONE_TESTED).
 */
aesecb_one_fn aesecb__one_none;

/* (WP proves the encoding of the build, and that of 32-bit x86 when
 * told to (AESECB_PROVE_ONE_TESTED); Eva reads the 32-bit x86 one, whose
 * slots it follows as pointers: HACKING.md, "Proofs".) */
#if defined(__i386__) || defined(AESECB_PROVE_EVA) || \
    defined(AESECB_PROVE_ONE_TESTED)
#define AESECB_ONE_TESTED 1
#else
#define AESECB_ONE_TESTED 0
#endif

/* (lib/aesecb.c names these values aesecb_one_code(fn) and
 * aesecb_one_fn_of(slot) in its contracts.) */
/*@ assigns \nothing;
    ensures \result == (uintptr_t)((uintptr_t)fn -
                         (AESECB_ONE_TESTED ? 0 : (uintptr_t)&aesecb__one_none)); */
static inline uintptr_t aesecb__one_encode(aesecb_one_fn *fn)
{
	if (AESECB_ONE_TESTED)
		return (uintptr_t)fn;
	return (uintptr_t)fn - (uintptr_t)&aesecb__one_none;
}

/*@ assigns \nothing;
    ensures \result == (aesecb_one_fn *)(uintptr_t)(slot +
                         (AESECB_ONE_TESTED ? 0 : (uintptr_t)&aesecb__one_none)); */
static inline aesecb_one_fn *aesecb__one_decode(uintptr_t slot)
{
	if (AESECB_ONE_TESTED)
		return (aesecb_one_fn *)slot;
	return (aesecb_one_fn *)(slot + (uintptr_t)&aesecb__one_none);
}

struct aesecb_impl {
	aesecb_setkey_fn *setkey;
	aesecb_blocks_fn *encrypt;
	aesecb_blocks_fn *decrypt;
	aesecb_masks_fn *masks;      /* NULL: the generic mask path */
	/*
	 * Optional: the backend's own one-block functions for 'rounds' (10,
	 * 12 or 14) on this CPU, into one[AESECB_ONE_ENC], [AESECB_ONE_DEC]
	 * and [AESECB_ONE_MASK] (called by aesecb_init, after setkey).  A
	 * slot left NULL, and every slot when this is NULL, gets the core's
	 * generic function, which calls encrypt, decrypt or masks with one
	 * block.  Only called where the backend declares AESECB_REGS_ONE and
	 * the build optimises.  The choice may depend on the CPU, never on
	 * where the context is (a context may be copied, and aesni runs a
	 * misaligned one on an aligned copy).
	 */
	void (*one)(unsigned rounds, aesecb_one_fn *one[AESECB_ONE_N]);
};

/*
 * The paths of a backend whose key-derived values, in an optimised build,
 * stay in registers and the context, so that the library calls them
 * directly, with no burn (lib/aesecb.c, "Burned calls"):
 *
 *   AESECB_REGS_ONE     its one-block and one-mask functions ('one');
 *   AESECB_REGS_BLOCKS  encrypt, decrypt and masks.
 *
 * A claim about the code the compiler makes of straight-line register
 * code, which tests/check_residue checks on every build.  Key setup is
 * always burned, and so is every path of an unoptimised build (where the
 * compiler keeps each variable in memory) or an instrumented one:
 * AESECB_REGS() gives 0 there (AESECB_REGISTERS above).
 */
#define AESECB_REGS_ONE    1u
#define AESECB_REGS_BLOCKS 2u
#if AESECB_REGISTERS
#define AESECB_REGS(paths) (paths)
#else
#define AESECB_REGS(paths) 0u
#endif

/*
 * One descriptor per backend, compiled in or not.  Each backend file is
 * always compiled and ends with AESECB_BACKEND(...): with the real
 * implementation when configure enabled it (AESECB_WITH_<NAME>) and the
 * compiler and target architecture can build it, else with impl = NULL,
 * which the rest of the library reports as "not built in".
 */
struct aesecb_backend {
	const char *name;
	const char *arch;        /* "any", "x86_64", "x86", "aarch64", ... */
	unsigned needs;          /* AESECB_CPU_* bits the CPU must have */
	unsigned regs;           /* AESECB_REGS_* paths called directly */
	const struct aesecb_impl *impl;  /* NULL when not compiled in */
};

/*
 * What the proofs of the core (lib/aesecb.c) assume of every backend: the
 * contracts of the function types above, written on the functions of a
 * model backend that the prover puts behind every descriptor when it
 * checks the core (AESECB_PROVE_MODEL; HACKING.md, "Proofs").  The
 * portable backend's functions are proved to meet the same contracts;
 * the others are trusted to (tests/check_lib's canaries and
 * tests/check_residue check them).  A block or mask function writes its
 * output and, when it is given one, the stack record; key setup writes
 * the context's round keys and the record; nothing else.
 */
#ifdef __FRAMAC__
/*@ requires aesecb_blocks_args(ctx, in, out, nblocks, stk);
    assigns out[0 .. 16 * nblocks - 1], stk->low;
    ensures \result == AESECB_OK; */
aesecb_blocks_fn aesecb__model_encrypt;

/*@ requires aesecb_blocks_args(ctx, in, out, nblocks, stk);
    assigns out[0 .. 16 * nblocks - 1], stk->low;
    ensures \result == AESECB_OK; */
aesecb_blocks_fn aesecb__model_decrypt;

/*@ requires aesecb_masks_args(ctx, in, out, nblocks, stk);
    assigns out[0 .. 5 * nblocks - 1], stk->low;
    ensures \result == AESECB_OK; */
aesecb_masks_fn aesecb__model_masks;

/*@ requires aesecb_setkey_args(ctx, key, key_len, stk);
    assigns ctx->priv_keys.b[0 .. sizeof(ctx->priv_keys.b) - 1], stk->low; */
aesecb_setkey_fn aesecb__model_setkey;

/*@ requires aesecb_blocks_args(ctx, in, out, 1, \null);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
aesecb_one_fn aesecb__model_one_enc;

/*@ requires aesecb_blocks_args(ctx, in, out, 1, \null);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
aesecb_one_fn aesecb__model_one_dec;

/*@ requires aesecb_masks_args(ctx, in, out, 1, \null);
    assigns out[0 .. 4];
    ensures \result == AESECB_OK; */
aesecb_one_fn aesecb__model_one_mask;

/*@ requires \valid(one + (0 .. AESECB_ONE_N - 1));
    assigns one[0 .. AESECB_ONE_N - 1];
    ensures one[AESECB_ONE_ENC] == \null ||
            one[AESECB_ONE_ENC] == &aesecb__model_one_enc;
    ensures one[AESECB_ONE_DEC] == \null ||
            one[AESECB_ONE_DEC] == &aesecb__model_one_dec;
    ensures one[AESECB_ONE_MASK] == \null ||
            one[AESECB_ONE_MASK] == &aesecb__model_one_mask; */
void aesecb__model_one(unsigned rounds, aesecb_one_fn *one[AESECB_ONE_N]);
#endif

/* The architecture name of an x86 build: "x86_64" or "x86". */
#if defined(__i386__) || defined(_M_IX86)
#define AESECB_X86_ARCH "x86"
#else
#define AESECB_X86_ARCH "x86_64"
#endif

/* aesecb_wipe() (public, in aesecb.h) is the one wipe used everywhere. */

/*
 * CPU features (cpu.c).  Each has one entry in cpu.c's table: its name in
 * a backend's "requires" text and the reason given when a CPU lacks it.
 */
#define AESECB_CPU_SSE2        (1u << 0)  /* CPUID 1 EDX bit 26 */
#define AESECB_CPU_SSSE3       (1u << 1)  /* CPUID 1 ECX bit 9 */
#define AESECB_CPU_AESNI       (1u << 2)  /* CPUID 1 ECX bit 25 */
#define AESECB_CPU_VAES        (1u << 3)  /* CPUID 7.0 ECX bit 9 */
#define AESECB_CPU_OSYMM       (1u << 4)  /* OSXSAVE, XCR0: XMM and YMM saved */
#define AESECB_CPU_AVX2        (1u << 5)  /* CPUID AVX and AVX2, and OSYMM */
#define AESECB_CPU_ARM_ASIMD   (1u << 8)  /* HWCAP_ASIMD; AArch32: HWCAP_NEON */
#define AESECB_CPU_ARM_AES     (1u << 9)  /* HWCAP_AES; AArch32: HWCAP2_AES */
#define AESECB_CPU_ARM_DIT     (1u << 10) /* FEAT_DIT: HWCAP_DIT or ID_AA64PFR0_EL1.DIT */
#define AESECB_CPU_PPC_VCRYPTO (1u << 16) /* HWCAP2 PPC_FEATURE2_VEC_CRYPTO */

/*
 * Each backend's row of lib/backends.def as constants: AESECB__NEEDS_<id>,
 * the CPU features it needs (0: every CPU), and AESECB__ARCH_<id>, its
 * architecture.  The one table in cpu.c turns the needs into the
 * "requires" text and the reason a CPU cannot run the backend.  Enum
 * constants are ints: the AESECB_CPU_* bits stay below bit 31.
 */
#define AESECB_BACKEND_ROW(id, arch, needs, summary, text)               \
	AESECB__NEEDS_##id = (int)(needs), AESECB__ARCH_##id = AESECB__ARCH_##arch,
enum {
	/* the architecture column: "x86" is both x86-64 and 32-bit x86 */
	AESECB__ARCH_any, AESECB__ARCH_x86, AESECB__ARCH_x86_64,
	AESECB__ARCH_aarch64, AESECB__ARCH_arm, AESECB__ARCH_ppc64,
#include "backends.def"
	AESECB__ROWS_END
};
#undef AESECB_BACKEND_ROW

/* An architecture's name, as aesecb_backend_arch() returns it. */
#define AESECB_ARCH_NAME(a)                                               \
	((a) == AESECB__ARCH_any ? "any" :                                 \
	 (a) == AESECB__ARCH_x86 ? AESECB_X86_ARCH :                       \
	 (a) == AESECB__ARCH_x86_64 ? "x86_64" :                           \
	 (a) == AESECB__ARCH_aarch64 ? "aarch64" :                         \
	 (a) == AESECB__ARCH_arm ? "arm" : "ppc64")

/*
 * The descriptor a backend file ends with: its name, its architecture and
 * needs from its row of lib/backends.def, and regs:
 * AESECB_REGS(paths), evaluated in the backend's own file (its
 * optimisation level is what counts).
 */
#define AESECB_BACKEND(id, regs, impl)                                    \
	extern const struct aesecb_backend aesecb__backend_##id;          \
	const struct aesecb_backend aesecb__backend_##id = {              \
		#id, AESECB_ARCH_NAME(AESECB__ARCH_##id),                 \
		(unsigned)AESECB__NEEDS_##id, regs, impl                  \
	}


#if defined(__FRAMAC__) && defined(AESECB_PROVE_MODEL)
/* (defined in lib/aesecb.c) */
extern const struct aesecb_impl aesecb__model_impl;

#undef AESECB_BACKEND
#define AESECB_BACKEND(id, regs, impl)                                    \
	extern const struct aesecb_backend aesecb__backend_##id;          \
	const struct aesecb_backend aesecb__backend_##id = {              \
		#id, AESECB_ARCH_NAME(AESECB__ARCH_##id),                 \
		(unsigned)AESECB__NEEDS_##id,                             \
		AESECB_REGS_ONE | AESECB_REGS_BLOCKS, &aesecb__model_impl \
	}
#endif


/* The features of this CPU and OS, detected once.  Thread-safe.  (Its
 * contract leaves out the cache of the answer, a static of cpu.c that
 * nothing else reads.) */
/*@ assigns \nothing; */
unsigned aesecb__cpu_features(void);

/*
 * What a backend that needs 'needs' lacks on a CPU with 'have': NULL when
 * nothing, else the reason for the first missing feature in the table
 * ("CPU lacks VAES").  A static string.
 */
/*@ assigns \nothing; */
const char *aesecb__cpu_lacks(unsigned needs, unsigned have);

/*
 * The names of the features in 'needs', in the table's order and joined
 * by ", ", into buf (size bytes, always terminated); "" for 0.
 */
void aesecb__cpu_names(unsigned needs, char *buf, size_t size);

/*
 * The detection's decoding steps, kept apart from the instructions that
 * read the registers so that tests can feed them any values.
 *
 * x86: what CPUID and XGETBV returned.  max_leaf is CPUID 0's EAX (0 when
 * CPUID is missing); xcr0 is read only when leaf 1 says OSXSAVE, so the
 * decoder ignores it otherwise.
 */
struct aesecb_cpuid_regs {
	uint32_t max_leaf;
	uint32_t l1_ecx, l1_edx;        /* leaf 1 */
	uint32_t l7_ebx, l7_ecx;        /* leaf 7, subleaf 0 */
	uint64_t xcr0;                  /* XGETBV(0) */
};
unsigned aesecb__cpu_decode_x86(const struct aesecb_cpuid_regs *r);

/*
 * AArch64 (Linux): AT_HWCAP, and ID_AA64PFR0_EL1 as read with MRS, which
 * the kernel emulates when HWCAP_CPUID is set (pfr0 is ignored otherwise).
 */
unsigned aesecb__cpu_decode_arm(uint64_t hwcap, uint64_t pfr0);

/*
 * 32-bit ARM (Linux, AArch32 state, on a 32-bit or a 64-bit kernel):
 * AT_HWCAP (NEON) and AT_HWCAP2 (AES).
 */
unsigned aesecb__cpu_decode_arm32(uint64_t hwcap, uint64_t hwcap2);

/* POWER (Linux): AT_HWCAP2. */
unsigned aesecb__cpu_decode_ppc(uint64_t hwcap2);

#endif /* AESECB_INTERNAL_H */
