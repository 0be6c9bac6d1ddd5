/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the contract between the library core and its backends.
 * Not installed.
 */
#ifndef AESECB_INTERNAL_H
#define AESECB_INTERNAL_H

#include "aesecb.h"

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
*/

/*
 * A backend's block function: process nblocks (>= 1) whole 16-byte blocks
 * from in to out.  in == out is allowed; no other overlap is.  in and out
 * have no particular alignment.  scratch points to AESECB_SCRATCH_SIZE bytes,
 * 64-byte aligned and uninitialised; the function may write only its
 * declared number of leading bytes (see struct aesecb_backend), which the
 * caller wipes afterwards.  A backend that declares 0 for a direction is
 * called with scratch == NULL on that direction's public path.  It returns
 * AESECB_OK (the entry points return its result, so the call is a tail
 * call).  One block per call goes to the one-block functions below.
 */
typedef int aesecb_blocks_fn(const aesecb_ctx *ctx, const uint8_t *in,
                             uint8_t *out, size_t nblocks, void *scratch);

/*
 * Key setup: key_len is 16, 24 or 32 (checked by the caller); the function
 * fills ctx->priv_keys in the backend's own layout.  ctx->priv_rounds and
 * ctx->priv_key_len are already set.  Whatever temporaries it uses it wipes.
 */
typedef void aesecb_setkey_fn(aesecb_ctx *ctx, const uint8_t *key,
                              size_t key_len);

/*
 * QUIC header-protection masks (optional): for n >= 1 samples of 16 bytes
 * at 'samples', write the first 5 bytes of AES-Encrypt(sample) to
 * masks + 5*i.  A backend that provides it writes no working space and
 * stores the 5 bytes straight from its registers; one that does not gets
 * the generic path (encrypt into a block, copy 5 bytes).  Returns AESECB_OK.
 */
typedef int aesecb_masks_fn(const aesecb_ctx *ctx, const uint8_t *samples,
                            uint8_t *masks, size_t n);

/*
 * One block, or one mask, per call, for one key size: what the one-block
 * entry points (aesecb_encrypt and aesecb_decrypt of 16 bytes,
 * aesecb_hp_mask, the AES call of aesecb_hp_protect and
 * aesecb_hp_unprotect) call, chosen once by aesecb_init and kept in the
 * context (ctx->priv_one), so that the call tests neither a block count
 * nor a round count.  in and out as for aesecb_blocks_fn with one block; a
 * mask function writes the 5 bytes of the mask at out and nothing else.
 * It writes no working space (it gets none).  Returns AESECB_OK.  The
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

#if defined(__i386__) || defined(__FRAMAC__)
#define AESECB_ONE_TESTED 1     /* (the prover sees this encoding too) */
#else
#define AESECB_ONE_TESTED 0
#endif

/*@ assigns \nothing;
    ensures AESECB_ONE_TESTED ==> \result == (uintptr_t)fn; */
static inline uintptr_t aesecb__one_encode(aesecb_one_fn *fn)
{
	if (AESECB_ONE_TESTED)
		return (uintptr_t)fn;
	return (uintptr_t)fn - (uintptr_t)&aesecb__one_none;
}

/*@ assigns \nothing;
    ensures AESECB_ONE_TESTED ==> \result == (aesecb_one_fn *)slot; */
static inline aesecb_one_fn *aesecb__one_decode(uintptr_t slot)
{
	if (AESECB_ONE_TESTED)
		return (aesecb_one_fn *)slot;
	return (aesecb_one_fn *)(slot + (uintptr_t)&aesecb__one_none);
}

/* Declared when a backend gives no bound: the whole space gets wiped. */
#define AESECB_SCRATCH_UNBOUNDED ((size_t)-1)

struct aesecb_impl {
	aesecb_setkey_fn *setkey;
	aesecb_blocks_fn *encrypt;
	aesecb_blocks_fn *decrypt;
	aesecb_masks_fn *masks;      /* NULL: the generic mask path */
	/*
	 * Optional: the backend's own one-block functions for 'rounds' (10,
	 * 12 or 14) on this CPU, into one[AESECB_ONE_ENC], [AESECB_ONE_DEC]
	 * and [AESECB_ONE_MASK] (called by aesecb_init, after setkey).  A
	 * slot left NULL, every slot when this is NULL, and a direction that
	 * declares working space get the core's generic function, which
	 * calls encrypt, decrypt or masks with one block.  The choice may
	 * depend on the CPU, never on where the context is (a context may be
	 * copied, and aesni runs a misaligned one on an aligned copy).
	 */
	void (*one)(unsigned rounds, aesecb_one_fn *one[AESECB_ONE_N]);
};

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
	size_t scratch_enc;      /* bytes of scratch written, or UNBOUNDED */
	size_t scratch_dec;
	const struct aesecb_impl *impl;  /* NULL when not compiled in */
};

/*
 * needs: the CPU features (AESECB_CPU_* below) the backend runs on; the
 * one table in cpu.c turns it into the "requires" text and the reason a
 * CPU cannot run it.  0: every CPU.
 */
#define AESECB_BACKEND(id, arch, needs, scratch_enc, scratch_dec, impl) \
	extern const struct aesecb_backend aesecb__backend_##id;         \
	const struct aesecb_backend aesecb__backend_##id = {             \
		#id, arch, needs, scratch_enc, scratch_dec, impl         \
	}

/*
 * What the proofs of the core (lib/aesecb.c) assume of every backend: the
 * contracts of the function types above, written on the functions of a
 * model backend that the prover puts behind every descriptor when it
 * checks the core (AESECB_PROVE_MODEL; HACKING.md, "Proofs").  The
 * portable backend's functions are proved to meet the same contracts;
 * the others are trusted to (tests/check_lib's canaries and
 * tests/check_residue check them).  A backend writes its output, and of
 * the working space at most what it declares; key setup writes the
 * context's round keys; nothing else.
 */
/*@
  // the arguments of a block function: n >= 1 blocks, a keyed context,
  // the output apart from it
  predicate aesecb_blocks_args(aesecb_ctx *ctx, uint8_t *in, uint8_t *out,
                               integer n) =
    aesecb_keyed(ctx) && n >= 1 && aesecb_blocks_io(in, out, n) &&
    \separated(out + (0 .. 16 * n - 1), ctx);

  // the bytes of working space a direction (0 encrypt, 1 decrypt) of the
  // context's backend declares it writes
  logic integer aesecb_scratch_declared(aesecb_ctx *ctx, integer dir) =
    dir == 0 ? ctx->priv_backend->scratch_enc
             : ctx->priv_backend->scratch_dec;
  logic integer aesecb_scratch_written(aesecb_ctx *ctx, integer dir) =
    \min(aesecb_scratch_declared(ctx, dir), AESECB_SCRATCH_SIZE);

  // the working space lent to a block function, when there is one
  predicate aesecb_scratch(aesecb_ctx *ctx, integer dir, void *scratch) =
    \valid_read(ctx->priv_backend) &&
    (scratch == \null ? aesecb_scratch_declared(ctx, dir) == 0
                      : \valid((unsigned char *)scratch +
                               (0 .. AESECB_SCRATCH_SIZE - 1)));
*/
#ifdef __FRAMAC__
/*@ requires aesecb_blocks_args(ctx, in, out, nblocks);
    requires aesecb_scratch(ctx, 0, scratch);
    assigns out[0 .. 16 * nblocks - 1],
            ((unsigned char *)scratch)[0 .. aesecb_scratch_written(ctx, 0) - 1];
    ensures \result == AESECB_OK; */
aesecb_blocks_fn aesecb__model_encrypt;

/*@ requires aesecb_blocks_args(ctx, in, out, nblocks);
    requires aesecb_scratch(ctx, 1, scratch);
    assigns out[0 .. 16 * nblocks - 1],
            ((unsigned char *)scratch)[0 .. aesecb_scratch_written(ctx, 1) - 1];
    ensures \result == AESECB_OK; */
aesecb_blocks_fn aesecb__model_decrypt;

/*@ requires \valid(ctx) && aesecb_keyed(ctx) && key_len == ctx->priv_key_len;
    requires \valid_read(key + (0 .. key_len - 1));
    requires \separated(key + (0 .. key_len - 1), ctx);
    assigns ctx->priv_keys; */
aesecb_setkey_fn aesecb__model_setkey;

/*@ requires aesecb_keyed(ctx) && n >= 1;
    requires \valid_read(samples + (0 .. 16 * n - 1));
    requires \valid(masks + (0 .. 5 * n - 1));
    requires \separated(masks + (0 .. 5 * n - 1), ctx);
    requires \separated(masks + (0 .. 5 * n - 1),
                        samples + (0 .. 16 * n - 1));
    assigns masks[0 .. 5 * n - 1];
    ensures \result == AESECB_OK; */
aesecb_masks_fn aesecb__model_masks;

/*@ requires aesecb_blocks_args(ctx, in, out, 1);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
aesecb_one_fn aesecb__model_one_enc, aesecb__model_one_dec;

/*@ requires aesecb_keyed(ctx) && \valid_read(in + (0 .. 15));
    requires \valid(out + (0 .. 4));
    requires \separated(out + (0 .. 4), ctx);
    requires \separated(out + (0 .. 4), in + (0 .. 15));
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

#if defined(__FRAMAC__) && defined(AESECB_PROVE_MODEL)
/* (defined in lib/aesecb.c) */
extern const struct aesecb_impl aesecb__model_impl;

#undef AESECB_BACKEND
#define AESECB_BACKEND(id, arch, needs, scratch_enc, scratch_dec, impl) \
	extern const struct aesecb_backend aesecb__backend_##id;         \
	const struct aesecb_backend aesecb__backend_##id = {             \
		#id, arch, needs, scratch_enc, scratch_dec,              \
		&aesecb__model_impl                                      \
	}
#endif

/* The architecture name of an x86 build: "x86_64" or "x86". */
#if defined(__i386__) || defined(_M_IX86)
#define AESECB_X86_ARCH "x86"
#else
#define AESECB_X86_ARCH "x86_64"
#endif

/* aesecb_wipe() (public, in aesecb.h) is the one wipe used everywhere. */

/*
 * Overwrite n bytes (at most AESECB_BURN_BYTES) of the stack just below
 * the caller's frame: what a backend's out-of-line work functions, called
 * from the same frame before it, left there (spilled state and round keys
 * the compiler put on the stack, which no wipe of a named object
 * reaches).  The call must be made from the frame that called the work,
 * after it returned; n must cover the work's frames (objdump tells).
 * tests/check_residue proves that nothing key-derived remains.
 */
#if UINTPTR_MAX > 0xffffffffu
#define AESECB_BURN_BYTES 1024
#else
#define AESECB_BURN_BYTES 8192   /* 32-bit x86: 8 vector registers, or none */
#endif
void aesecb__burn_stack(size_t n);

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
#define AESECB_CPU_ARM_ASIMD   (1u << 8)  /* HWCAP_ASIMD */
#define AESECB_CPU_ARM_AES     (1u << 9)  /* HWCAP_AES */
#define AESECB_CPU_ARM_DIT     (1u << 10) /* FEAT_DIT: HWCAP_DIT or ID_AA64PFR0_EL1.DIT */
#define AESECB_CPU_PPC_VCRYPTO (1u << 16) /* HWCAP2 PPC_FEATURE2_VEC_CRYPTO */

/* The features of this CPU and OS, detected once.  Thread-safe.  (Its
 * cache of the answer is no state a caller sees.) */
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

/* POWER (Linux): AT_HWCAP2. */
unsigned aesecb__cpu_decode_ppc(uint64_t hwcap2);

#endif /* AESECB_INTERNAL_H */
