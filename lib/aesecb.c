/* SPDX-License-Identifier: MIT */
/*
 * aesecb.c - backend table, run-time selection and the public entry points.
 *
 * The entry points own the working-space contract: a 2048-byte, 64-aligned
 * space on their stack, never initialised, handed to the backend; afterwards
 * exactly the bytes the backend declared it may write are wiped, and no
 * more.  Hardware backends declare 0, so a one-block call does no zeroing
 * and no wiping at all.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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
 * Every backend, each defined in its own lib/backend_NAME.c, in order of
 * preference: the portable one first, the preferred hardware ones last.
 * Adding a backend means adding its file and its name here (and to
 * Makefile.am and configure.ac's list; see HACKING.md).
 */
#define AESECB_BACKENDS(X) X(none) X(ssse3) X(neon) X(aesni) X(vaes) X(armce) \
	X(vcrypto)

#define DECLARE_BACKEND(id) extern const struct aesecb_backend aesecb__backend_##id;
AESECB_BACKENDS(DECLARE_BACKEND)

#define LIST_BACKEND(id) &aesecb__backend_##id,
static const struct aesecb_backend *const backends[] = {
	AESECB_BACKENDS(LIST_BACKEND)
};

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

/* Whether be is one of the descriptors (a comparison with each). */
#define IS_BACKEND(id) be == &aesecb__backend_##id ||

/*@ predicate aesecb_known(aesecb_backend *be) =
      AESECB_BACKENDS(IS_BACKEND) \false; */

/*@ assigns \nothing;
    ensures \result != 0 <==> aesecb_known(be); */
static int known(const aesecb_backend *be)
{
	return AESECB_BACKENDS(IS_BACKEND) 0;
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
    assigns \nothing;
    ensures \result == \null ||
            \exists integer i; 0 <= i < NBACKENDS && \result == backends[i]; */
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
    ensures \result != 0 ==> aesecb_known(be) && be->impl != \null; */
int aesecb_backend_available(const aesecb_backend *be)
{
	return known(be) && aesecb_backend_unavailable_reason(be) == NULL;
}

/*@ assigns \nothing;
    ensures aesecb_known(be) ==>
            \result == \min(decrypt ? be->scratch_dec : be->scratch_enc,
                             AESECB_SCRATCH_SIZE);
    ensures \result <= AESECB_SCRATCH_SIZE; */
size_t aesecb_backend_scratch_written(const aesecb_backend *be, int decrypt)
{
	size_t n;

	if (!known(be))
		return 0;
	n = decrypt ? be->scratch_dec : be->scratch_enc;
	return n > AESECB_SCRATCH_SIZE ? AESECB_SCRATCH_SIZE : n;
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
    assigns *bep, *reason;
    ensures \result == AESECB_OK ==> bep == \null || aesecb_known(*bep); */
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
		    loop invariant aesecb_known(be);
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
	/* The compiler must assume the asm reads the zeroed memory.  It
	 * writes nothing (what the prover is told: its "memory" clobber
	 * would otherwise be taken as a write anywhere behind p). */
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

/* The top of area is the end nearest the caller's frame. */
/*@ assigns \nothing; */
NOINLINE void aesecb__burn_stack(size_t n)
{
	unsigned char area[AESECB_BURN_BYTES];

	if (n > sizeof area)
		n = sizeof area;
	aesecb_wipe(area + sizeof area - n, n);
}

static aesecb_masks_fn generic_masks;
static aesecb_one_fn generic_encrypt1, generic_decrypt1, direct_encrypt1,
                     direct_decrypt1, generic_mask1, block_mask1;

#define ONE_ENC  AESECB_ONE_ENC
#define ONE_DEC  AESECB_ONE_DEC
#define ONE_MASK AESECB_ONE_MASK

/*
 * The states of a context the entry points accept, for the contracts
 * below (HACKING.md, "Proofs").  Which functions a ready context's
 * pointers and slots lead to: when the core is proved, those of the
 * prover's model backend (internal.h) and the core's generic ones; the
 * analysis of the entry points with the portable backend (Eva) follows
 * the pointers themselves and is told nothing of them.
 */
#if defined(__FRAMAC__) && defined(AESECB_PROVE_MODEL)
const struct aesecb_impl aesecb__model_impl = {
	aesecb__model_setkey, aesecb__model_encrypt, aesecb__model_decrypt,
	aesecb__model_masks, aesecb__model_one
};

/*@
  predicate ctx_ptrs(aesecb_ctx *ctx) =
    ctx->priv_encrypt == &aesecb__model_encrypt &&
    ctx->priv_decrypt == &aesecb__model_decrypt &&
    (ctx->priv_masks == &aesecb__model_masks ||
     ctx->priv_masks == &generic_masks);

  predicate slot_enc(aesecb_ctx *ctx) =
    ctx->priv_one[ONE_ENC] == (uintptr_t)&aesecb__model_one_enc ||
    ctx->priv_one[ONE_ENC] == (uintptr_t)&generic_encrypt1 ||
    ctx->priv_one[ONE_ENC] == (uintptr_t)&direct_encrypt1 &&
    ctx->priv_wipe[0] == 0;
  predicate slot_dec(aesecb_ctx *ctx) =
    ctx->priv_one[ONE_DEC] == (uintptr_t)&aesecb__model_one_dec ||
    ctx->priv_one[ONE_DEC] == (uintptr_t)&generic_decrypt1 ||
    ctx->priv_one[ONE_DEC] == (uintptr_t)&direct_decrypt1 &&
    ctx->priv_wipe[1] == 0;
  predicate slot_mask(aesecb_ctx *ctx) =
    ctx->priv_one[ONE_MASK] == (uintptr_t)&aesecb__model_one_mask ||
    ctx->priv_one[ONE_MASK] == (uintptr_t)&generic_mask1 ||
    ctx->priv_one[ONE_MASK] == (uintptr_t)&block_mask1;

  // a backend's functions, as the model stands for them
  predicate impl_ok(struct aesecb_impl *i) =
    \valid_read(i) && i->setkey == &aesecb__model_setkey &&
    i->encrypt == &aesecb__model_encrypt &&
    i->decrypt == &aesecb__model_decrypt &&
    (i->masks == \null || i->masks == &aesecb__model_masks) &&
    (i->one == \null || i->one == &aesecb__model_one);
*/
#else
/*@
  predicate ctx_ptrs(aesecb_ctx *ctx) = \true;
  predicate slot_enc(aesecb_ctx *ctx) = \true;
  predicate slot_dec(aesecb_ctx *ctx) = \true;
  predicate slot_mask(aesecb_ctx *ctx) = \true;
  predicate impl_ok(struct aesecb_impl *i) = \valid_read(i);
*/
#endif
/*@
  // after a successful aesecb_init
  predicate aesecb_ready(aesecb_ctx *ctx) =
    aesecb_keyed(ctx) && aesecb_known(ctx->priv_backend) &&
    ctx->priv_wipe[0] == aesecb_scratch_written(ctx, 0) &&
    ctx->priv_wipe[1] == aesecb_scratch_written(ctx, 1) &&
    impl_ok(ctx->priv_backend->impl) && ctx_ptrs(ctx) &&
    slot_enc(ctx) && slot_dec(ctx) && slot_mask(ctx);

  // filled with zeros (cleared, refused by aesecb_init): every call
  // refuses it
  predicate aesecb_cleared(aesecb_ctx *ctx) =
    \valid_read(ctx) && ctx->priv_rounds == 0 &&
    ctx->priv_one[ONE_ENC] == 0 && ctx->priv_one[ONE_DEC] == 0 &&
    ctx->priv_one[ONE_MASK] == 0;

  // what a context argument may be
  predicate aesecb_ctx_arg(aesecb_ctx *ctx) =
    ctx == \null || aesecb_ready(ctx) || aesecb_cleared(ctx);

  // the bytes of a context, seen as bytes (the typed memory model does
  // not derive this from \valid(ctx))
  predicate aesecb_ctx_bytes(aesecb_ctx *ctx) =
    \valid((char *)ctx + (0 .. sizeof(aesecb_ctx) - 1));
*/

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

/* The context's one-block functions: the backend's own where it has them
 * (and, for a block direction, declares no working space), else the
 * generic ones. */
/*@ requires \valid(ctx) && aesecb_known(be) && be->impl != \null;
    requires aesecb_rounds(rounds);
    assigns ctx->priv_one[0 .. AESECB_ONE_N - 1];
    ensures slot_enc(ctx);
    ensures slot_dec(ctx);
    ensures slot_mask(ctx); */
static void set_one(aesecb_ctx *ctx, const aesecb_backend *be, int rounds)
{
	aesecb_one_fn *own[AESECB_ONE_N] = { NULL, NULL, NULL };

	if (be->impl->one != NULL) {
		/*@ calls aesecb__model_one; */
		be->impl->one((unsigned)rounds, own);
	}
	if (own[ONE_ENC] == NULL || ctx->priv_wipe[0] != 0)
		own[ONE_ENC] = ctx->priv_wipe[0] != 0 ? generic_encrypt1
		                                      : direct_encrypt1;
	if (own[ONE_DEC] == NULL || ctx->priv_wipe[1] != 0)
		own[ONE_DEC] = ctx->priv_wipe[1] != 0 ? generic_decrypt1
		                                      : direct_decrypt1;
	if (own[ONE_MASK] == NULL)
		own[ONE_MASK] = be->impl->masks != NULL ? generic_mask1
		                                        : block_mask1;
	ctx->priv_one[ONE_ENC] = aesecb__one_encode(own[ONE_ENC]);
	ctx->priv_one[ONE_DEC] = aesecb__one_encode(own[ONE_DEC]);
	ctx->priv_one[ONE_MASK] = aesecb__one_encode(own[ONE_MASK]);
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

/*@ requires \valid(ctx);
    requires key == \null || \valid_read(key + (0 .. key_len - 1));
    requires key == \null || \separated(key + (0 .. key_len - 1), ctx);
    assigns *ctx;
    ensures \result == AESECB_OK ==>
            aesecb_ready(ctx) && ctx->priv_key_len == key_len; */
static int init_checked(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                        const aesecb_backend *be)
{
	int rounds, status = AESECB_OK;

	if (be == NULL) {
		status = aesecb_backend_resolve(NULL, &be, NULL);
		if (status != AESECB_OK)
			return status;
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

	ctx->priv_backend = be;
	ctx->priv_rounds = (uint16_t)rounds;
	ctx->priv_key_len = (uint8_t)key_len;
	ctx->priv_encrypt = be->impl->encrypt;
	ctx->priv_decrypt = be->impl->decrypt;
	ctx->priv_masks = be->impl->masks != NULL ? be->impl->masks
	                                          : generic_masks;
	ctx->priv_wipe[0] = (uint16_t)aesecb_backend_scratch_written(be, 0);
	ctx->priv_wipe[1] = (uint16_t)aesecb_backend_scratch_written(be, 1);
	set_one(ctx, be, rounds);
#ifdef AESECB_DIT
	ctx->priv_dit = (uint8_t)backend_dit(be);
	if (ctx->priv_dit) {
		uint64_t saved = dit_on();

		be->impl->setkey(ctx, key, key_len);
		return dit_restore(saved, AESECB_OK);
	}
#endif
	/*@ calls aesecb__model_setkey; */
	be->impl->setkey(ctx, key, key_len);
	return AESECB_OK;
}

/*
 * The context is wiped first: nothing of an earlier key survives a new one
 * (a shorter key's schedule does not cover a longer one's), and a failed
 * init leaves a cleared context that every call refuses, rather than the
 * previous key still in use.
 */
/*@ requires ctx == \null || \valid(ctx) && aesecb_ctx_bytes(ctx);
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
 * is a multiple of the alignment, as C11 asks).
 */
int aesecb_ctx_new(aesecb_ctx **ctxp, const uint8_t *key, size_t key_len,
                   const aesecb_backend *be)
{
	aesecb_ctx *ctx;
	int status;

	if (ctxp == NULL)
		return AESECB_EINVAL;
	*ctxp = NULL;
	ctx = aligned_alloc(_Alignof(aesecb_ctx), sizeof *ctx);
	if (ctx == NULL)
		return AESECB_ENOMEM;
	status = aesecb_init(ctx, key, key_len, be);
	if (status != AESECB_OK) {
		free(ctx);              /* aesecb_init left it wiped */
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
	free(ctx);
}

/*
 * A backend that declared a bound gets the working space: uninitialised,
 * on this frame, and afterwards exactly the declared prefix is wiped.
 * Kept out of line so that the 2 KiB frame (and its 64-byte realignment)
 * costs nothing to the backends that declare 0.
 */
/*@ requires aesecb_ready(ctx);
    requires fn == ctx->priv_encrypt && written == ctx->priv_wipe[0] ||
             fn == ctx->priv_decrypt && written == ctx->priv_wipe[1];
    requires aesecb_blocks_args(ctx, in, out, nblocks);
    assigns out[0 .. 16 * nblocks - 1];
    ensures \result == AESECB_OK; */
static NOINLINE int run_with_scratch(const aesecb_ctx *ctx,
                                     aesecb_blocks_fn *fn, size_t written,
                                     const uint8_t *in, uint8_t *out,
                                     size_t nblocks)
{
	AESECB_ALIGN64_ unsigned char scratch[AESECB_SCRATCH_SIZE];
	int status;

	/*@ calls aesecb__model_encrypt, aesecb__model_decrypt; */
	status = fn(ctx, in, out, nblocks, scratch);
	aesecb_wipe(scratch, written > sizeof scratch ? sizeof scratch : written);
	return status;
}

/*
 * The common path of encrypt, decrypt and the header-protection masks.
 * 'written' is the backend's declaration for this direction.  A backend
 * that writes no working space is called directly: no space, no zeroing,
 * no wiping, nothing between the caller and the AES instructions.
 */
/*@ requires aesecb_ready(ctx);
    requires fn == ctx->priv_encrypt && written == ctx->priv_wipe[0] ||
             fn == ctx->priv_decrypt && written == ctx->priv_wipe[1];
    requires aesecb_blocks_args(ctx, in, out, nblocks);
    assigns out[0 .. 16 * nblocks - 1];
    ensures \result == AESECB_OK; */
static ALWAYS_INLINE int run_blocks(const aesecb_ctx *ctx,
                                    aesecb_blocks_fn *fn, size_t written,
                                    const uint8_t *in, uint8_t *out,
                                    size_t nblocks)
{
	if (written == 0)
		/*@ calls aesecb__model_encrypt, aesecb__model_decrypt; */
		return fn(ctx, in, out, nblocks, NULL);
	return run_with_scratch(ctx, fn, written, in, out, nblocks);
}

/*
 * The same under DIT when the context asks for it (AArch64 with FEAT_DIT);
 * otherwise, and on every other architecture, the direct call.
 */
/*@ requires aesecb_ready(ctx);
    requires fn == ctx->priv_encrypt && written == ctx->priv_wipe[0] ||
             fn == ctx->priv_decrypt && written == ctx->priv_wipe[1];
    requires aesecb_blocks_args(ctx, in, out, nblocks);
    assigns out[0 .. 16 * nblocks - 1];
    ensures \result == AESECB_OK; */
static ALWAYS_INLINE int run_blocks_dit(const aesecb_ctx *ctx,
                                        aesecb_blocks_fn *fn, size_t written,
                                        const uint8_t *in, uint8_t *out,
                                        size_t nblocks)
{
#ifdef AESECB_DIT
	if (ctx->priv_dit) {
		uint64_t saved = dit_on();

		return dit_restore(saved, run_blocks(ctx, fn, written, in, out,
		                                     nblocks));
	}
#endif
	return run_blocks(ctx, fn, written, in, out, nblocks);
}

/* Whether a slot of ctx->priv_one can be called (always, but on 32-bit
 * x86: internal.h). */
/*@ assigns \nothing;
    ensures \result != 0 ==> slot != 0 || !AESECB_ONE_TESTED; */
static ALWAYS_INLINE int one_ready(uintptr_t slot)
{
	return !AESECB_ONE_TESTED || slot != 0;
}

/* The one-block function in slot 'which' of ctx, under DIT when the context
 * asks for it; otherwise, and on every other architecture, a jump to it. */
/*@ requires aesecb_ready(ctx);
    requires which == ONE_ENC || which == ONE_DEC || which == ONE_MASK;
    requires which != ONE_MASK ==> aesecb_blocks_args(ctx, in, out, 1);
    requires which == ONE_MASK ==>
             \valid_read(in + (0 .. 15)) && \valid(out + (0 .. 4)) &&
             \separated(out + (0 .. 4), ctx) &&
             \separated(out + (0 .. 4), in + (0 .. 15));
    assigns out[0 .. (which == ONE_MASK ? 4 : 15)];
    ensures \result == AESECB_OK; */
static ALWAYS_INLINE int run_one_dit(const aesecb_ctx *ctx, int which,
                                     const uint8_t *in, uint8_t *out)
{
	aesecb_one_fn *fn = aesecb__one_decode(ctx->priv_one[which]);

#ifdef AESECB_DIT
	if (ctx->priv_dit) {
		uint64_t saved = dit_on();

		return dit_restore(saved, fn(ctx, in, out));
	}
#endif
	/*@ calls generic_encrypt1, generic_decrypt1, direct_encrypt1,
	          direct_decrypt1, generic_mask1, block_mask1,
	          aesecb__model_one_enc, aesecb__model_one_dec,
	          aesecb__model_one_mask; */
	return fn(ctx, in, out);
}

/* Every length: the checks in the documented order, then the backend. */
/*@ requires aesecb_ctx_arg(ctx);
    requires len == 0 || in == \null || \valid_read(in + (0 .. len - 1));
    requires len == 0 || out == \null || \valid(out + (0 .. len - 1));
    requires in == \null || out == \null || in == out ||
             \separated(in + (0 .. len - 1), out + (0 .. len - 1));
    requires ctx == \null || out == \null ||
             \separated(out + (0 .. len - 1), ctx);
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
	if (decrypt)
		return run_blocks_dit(ctx, ctx->priv_decrypt, ctx->priv_wipe[1],
		                      in, out, len / AESECB_BLOCK_SIZE);
	return run_blocks_dit(ctx, ctx->priv_encrypt, ctx->priv_wipe[0],
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
static ALWAYS_INLINE int both_set(const uint8_t *a, const uint8_t *b)
{
	return ((uintptr_t)a & (uintptr_t)b) != 0;
}

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
/*@ requires aesecb_ctx_arg(ctx);
    requires len == 0 || in == \null || \valid_read(in + (0 .. len - 1));
    requires len == 0 || out == \null || \valid(out + (0 .. len - 1));
    requires in == \null || out == \null || in == out ||
             \separated(in + (0 .. len - 1), out + (0 .. len - 1));
    requires ctx == \null || out == \null ||
             \separated(out + (0 .. len - 1), ctx);
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
/*@ requires aesecb_ctx_arg(ctx);
    requires len == 0 || in == \null || \valid_read(in + (0 .. len - 1));
    requires len == 0 || out == \null || \valid(out + (0 .. len - 1));
    requires in == \null || out == \null || in == out ||
             \separated(in + (0 .. len - 1), out + (0 .. len - 1));
    requires ctx == \null || out == \null ||
             \separated(out + (0 .. len - 1), ctx);
    assigns out[0 .. len - 1];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL ||
            \result == AESECB_EPARTIAL; */
ALIGN64_FN int aesecb_encrypt(const aesecb_ctx *ctx, const uint8_t *in,
                              uint8_t *out, size_t len)
{
	return do_crypt(ctx, in, out, len, ONE_ENC);
}

/*@ requires aesecb_ctx_arg(ctx);
    requires len == 0 || in == \null || \valid_read(in + (0 .. len - 1));
    requires len == 0 || out == \null || \valid(out + (0 .. len - 1));
    requires in == \null || out == \null || in == out ||
             \separated(in + (0 .. len - 1), out + (0 .. len - 1));
    requires ctx == \null || out == \null ||
             \separated(out + (0 .. len - 1), ctx);
    assigns out[0 .. len - 1];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL ||
            \result == AESECB_EPARTIAL; */
ALIGN64_FN int aesecb_decrypt(const aesecb_ctx *ctx, const uint8_t *in,
                              uint8_t *out, size_t len)
{
	return do_crypt(ctx, in, out, len, ONE_DEC);
}

/* The one-block functions of a backend that has none of its own (or, for
 * a direction, declares working space there): the block functions with
 * one block, under the working-space contract (direct_: a direction that
 * declares none, so a jump and no test of the declaration), and the mask
 * function with one sample.  They read the context's pointers at each
 * call. */
/*@ requires aesecb_ready(ctx);
    requires aesecb_blocks_args(ctx, in, out, 1);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
static int generic_encrypt1(const aesecb_ctx *ctx, const uint8_t *in,
                            uint8_t *out)
{
	return run_blocks(ctx, ctx->priv_encrypt, ctx->priv_wipe[0], in, out, 1);
}

/*@ requires aesecb_ready(ctx);
    requires aesecb_blocks_args(ctx, in, out, 1);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
static int generic_decrypt1(const aesecb_ctx *ctx, const uint8_t *in,
                            uint8_t *out)
{
	return run_blocks(ctx, ctx->priv_decrypt, ctx->priv_wipe[1], in, out, 1);
}

/*@ requires aesecb_ready(ctx) && ctx->priv_wipe[0] == 0;
    requires aesecb_blocks_args(ctx, in, out, 1);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
static int direct_encrypt1(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out)
{
	return run_blocks(ctx, ctx->priv_encrypt, 0, in, out, 1);
}

/*@ requires aesecb_ready(ctx) && ctx->priv_wipe[1] == 0;
    requires aesecb_blocks_args(ctx, in, out, 1);
    assigns out[0 .. 15];
    ensures \result == AESECB_OK; */
static int direct_decrypt1(const aesecb_ctx *ctx, const uint8_t *in,
                           uint8_t *out)
{
	return run_blocks(ctx, ctx->priv_decrypt, 0, in, out, 1);
}

/*@ requires aesecb_ready(ctx);
    requires \valid_read(sample + (0 .. 15)) && \valid(mask + (0 .. 4));
    requires \separated(mask + (0 .. 4), ctx);
    requires \separated(mask + (0 .. 4), sample + (0 .. 15));
    assigns mask[0 .. 4];
    ensures \result == AESECB_OK; */
static int generic_mask1(const aesecb_ctx *ctx, const uint8_t *sample,
                         uint8_t *mask)
{
	/*@ calls aesecb__model_masks, generic_masks; */
	return ctx->priv_masks(ctx, sample, mask, 1);
}

/* A backend with no mask function at all: one block, 5 bytes of it (what
 * generic_masks does, without its loop). */
/*@ requires aesecb_ready(ctx);
    requires \valid_read(sample + (0 .. 15)) && \valid(mask + (0 .. 4));
    requires \separated(mask + (0 .. 4), ctx);
    requires \separated(mask + (0 .. 4), sample + (0 .. 15));
    assigns mask[0 .. 4];
    ensures \result == AESECB_OK; */
static int block_mask1(const aesecb_ctx *ctx, const uint8_t *sample,
                       uint8_t *mask)
{
	uint8_t block[AESECB_BLOCK_SIZE];
	int status;

	status = run_blocks(ctx, ctx->priv_encrypt, ctx->priv_wipe[0], sample,
	                    block, 1);
	memcpy(mask, block, 5);
	return status;
}

/*
 * The mask path of a backend that has none of its own: encrypt into a
 * block buffer (under the working-space contract) and copy 5 bytes of each
 * block.  The blocks are not wiped: they hold no key material, and the
 * masks themselves go to the caller.
 */
/*@ requires aesecb_ready(ctx) && n >= 1;
    requires \valid_read(samples + (0 .. 16 * n - 1));
    requires \valid(masks + (0 .. 5 * n - 1));
    requires \separated(masks + (0 .. 5 * n - 1), ctx);
    requires \separated(masks + (0 .. 5 * n - 1),
                        samples + (0 .. 16 * n - 1));
    assigns masks[0 .. 5 * n - 1];
    ensures \result == AESECB_OK; */
static int generic_masks(const aesecb_ctx *ctx, const uint8_t *samples,
                         uint8_t *masks, size_t n)
{
	/* Blocks per pass: enough to keep every backend's widest path full. */
	enum { BATCH = 64 };
	uint8_t blocks[BATCH * AESECB_BLOCK_SIZE];
	size_t written = ctx->priv_wipe[0], i, k, j;

	/*@ loop invariant 0 <= i <= n;
	    loop assigns i, k, j, blocks[0 .. BATCH * AESECB_BLOCK_SIZE - 1],
	                 masks[0 .. 5 * n - 1];
	    loop variant n - i; */
	for (i = 0; i < n; i += k) {
		k = n - i < BATCH ? n - i : BATCH;
		run_blocks(ctx, ctx->priv_encrypt, written,
		           samples + i * AESECB_BLOCK_SIZE, blocks, k);
		/*@ loop invariant 0 <= j <= k;
		    loop assigns j, masks[5 * i .. 5 * (i + k) - 1];
		    loop variant k - j; */
		for (j = 0; j < k; j++)
			memcpy(masks + (i + j) * 5, blocks + j * AESECB_BLOCK_SIZE, 5);
	}
	return AESECB_OK;
}

/* Both mask calls go straight to the backend's mask function (or the
 * generic one), chosen once in aesecb_init: checks, then a tail call (or,
 * under DIT, the call between setting and restoring it). */
/*@ requires aesecb_ready(ctx) && n >= 1;
    requires \valid_read(samples + (0 .. 16 * n - 1));
    requires \valid(masks + (0 .. 5 * n - 1));
    requires \separated(masks + (0 .. 5 * n - 1), ctx);
    requires \separated(masks + (0 .. 5 * n - 1),
                        samples + (0 .. 16 * n - 1));
    assigns masks[0 .. 5 * n - 1];
    ensures \result == AESECB_OK; */
static ALWAYS_INLINE int run_masks(const aesecb_ctx *ctx,
                                   const uint8_t *samples, uint8_t *masks,
                                   size_t n)
{
#ifdef AESECB_DIT
	if (ctx->priv_dit) {
		uint64_t saved = dit_on();

		return dit_restore(saved, ctx->priv_masks(ctx, samples, masks,
		                                          n));
	}
#endif
	/*@ calls aesecb__model_masks, generic_masks; */
	return ctx->priv_masks(ctx, samples, masks, n);
}

/* One mask: two tests and a jump to the context's one-mask function
 * (aesecb__one_none in a context filled with zeros), as in do_crypt. */
/*@ requires aesecb_ctx_arg(ctx);
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

/*@ requires aesecb_ctx_arg(ctx);
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
	return run_masks(ctx, samples, masks, n);
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
 * The AES output goes through a whole block rather than the 5-byte mask
 * path: the bytes are then read back from one 16-byte store, which the
 * CPU forwards, where two narrower stores would stall the 4-byte read.
 */
/*@ requires aesecb_ready(ctx) && pn_offset >= 1;
    requires \valid(packet + (0 .. pn_offset + 4 + 15));
    requires \separated(packet + (0 .. pn_offset + 4 + 15), ctx);
    assigns packet[0], packet[pn_offset .. pn_offset + 3];
    ensures unprotect ==> 1 <= \result <= 4;
    ensures !unprotect ==> \result == AESECB_OK; */
static ALWAYS_INLINE int hp_body(const aesecb_ctx *ctx, uint8_t *packet,
                                 size_t pn_offset, int unprotect)
{
	uint8_t block[AESECB_BLOCK_SIZE];
	uint32_t first, plain, bits, pn_len, pn, mask, keep;

	/*@ calls generic_encrypt1, direct_encrypt1, aesecb__model_one_enc; */
	aesecb__one_decode(ctx->priv_one[ONE_ENC])(ctx, packet + pn_offset + 4,
	                                           block);

	first = packet[0];
	/* 0x0f for a long header, 0x1f for a short one */
	bits = 0x1fu & ~((first >> 7) << 4);
	packet[0] = (uint8_t)(first ^ (block[0] & bits));
	plain = unprotect ? packet[0] : first;
	pn_len = (plain & 3u) + 1u;
	/* the first pn_len bytes of the word, in memory order */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	keep = 0xffffffffu << (8u * (4u - pn_len));
#else
	keep = 0xffffffffu >> (8u * (4u - pn_len));
#endif
	memcpy(&pn, packet + pn_offset, 4);
	memcpy(&mask, block + 1, 4);
	pn ^= mask & keep;
	memcpy(packet + pn_offset, &pn, 4);
	return unprotect ? (int)pn_len : AESECB_OK;
}

/* The checks, then the AES call and the masking, under DIT where the
 * context asks for it: the masking shifts by a length read from the
 * protected byte, one of the operations DIT makes data-independent. */
/*@ requires aesecb_ctx_arg(ctx);
    requires packet == \null || \valid(packet + (0 .. len - 1));
    requires ctx == \null || packet == \null ||
             \separated(packet + (0 .. len - 1), ctx);
    assigns packet[0], packet[pn_offset .. pn_offset + 3];
    ensures !unprotect ==> \result == AESECB_OK ||
            \result == AESECB_EINVAL || \result == AESECB_ESHORT;
    ensures unprotect ==> 1 <= \result <= 4 ||
            \result == AESECB_EINVAL || \result == AESECB_ESHORT; */
static ALWAYS_INLINE int hp_apply(const aesecb_ctx *ctx, uint8_t *packet,
                                  size_t len, size_t pn_offset, int unprotect)
{
	if (ctx == NULL || ctx->priv_rounds == 0 || packet == NULL ||
	    pn_offset == 0)
		return AESECB_EINVAL;
	if (len < 4 + AESECB_BLOCK_SIZE ||
	    pn_offset > len - 4 - AESECB_BLOCK_SIZE)
		return AESECB_ESHORT;
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
    requires packet == \null || \valid(packet + (0 .. len - 1));
    requires ctx == \null || packet == \null ||
             \separated(packet + (0 .. len - 1), ctx);
    assigns packet[0], packet[pn_offset .. pn_offset + 3];
    ensures \result == AESECB_OK || \result == AESECB_EINVAL ||
            \result == AESECB_ESHORT; */
int aesecb_hp_protect(const aesecb_ctx *ctx, uint8_t *packet, size_t len,
                      size_t pn_offset)
{
	return hp_apply(ctx, packet, len, pn_offset, 0);
}

/*@ requires aesecb_ctx_arg(ctx);
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
