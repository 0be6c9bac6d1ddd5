/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the contract between the library core and its backends.
 * Not installed.
 */
#ifndef AESECB_INTERNAL_H
#define AESECB_INTERNAL_H

#include "aesecb.h"

/*
 * A backend's block function: process nblocks (>= 1) whole 16-byte blocks
 * from in to out.  in == out is allowed; no other overlap is.  in and out
 * have no particular alignment.  scratch points to AESECB_SCRATCH_SIZE bytes,
 * 64-byte aligned and uninitialised; the function may write only its
 * declared number of leading bytes (see struct aesecb_backend), which the
 * caller wipes afterwards.  A backend that declares 0 for a direction is
 * called with scratch == NULL on that direction's public path.  It returns
 * AESECB_OK (the entry points return its result, so the call is a tail
 * call on the one-block path).
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

/* Declared when a backend gives no bound: the whole space gets wiped. */
#define AESECB_SCRATCH_UNBOUNDED ((size_t)-1)

struct aesecb_impl {
	/* NULL if this CPU (and OS) can run the backend, else a short reason
	 * such as "CPU lacks VAES"; NULL pointer: runs on every CPU */
	const char *(*cpu_missing)(void);
	aesecb_setkey_fn *setkey;
	aesecb_blocks_fn *encrypt;
	aesecb_blocks_fn *decrypt;
	aesecb_masks_fn *masks;      /* NULL: the generic mask path */
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
	const char *arch;        /* "any", "x86_64", "x86", "aarch64" */
	const char *requires;    /* CPU features, e.g. "AES-NI, SSE2" */
	size_t scratch_enc;      /* bytes of scratch written, or UNBOUNDED */
	size_t scratch_dec;
	const struct aesecb_impl *impl;  /* NULL when not compiled in */
};

#define AESECB_BACKEND(id, arch, requires, scratch_enc, scratch_dec, impl) \
	extern const struct aesecb_backend aesecb__backend_##id;            \
	const struct aesecb_backend aesecb__backend_##id = {                \
		#id, arch, requires, scratch_enc, scratch_dec, impl         \
	}

/* The architecture name of an x86 build: "x86_64" or "x86". */
#if defined(__i386__) || defined(_M_IX86)
#define AESECB_X86_ARCH "x86"
#else
#define AESECB_X86_ARCH "x86_64"
#endif

/* aesecb_wipe() (public, in aesecb.h) is the one wipe used everywhere. */

/* CPU features, detected once (cpu.c).  Thread-safe. */
#define AESECB_CPU_SSE2     (1u << 0)
#define AESECB_CPU_AESNI    (1u << 1)
#define AESECB_CPU_AVX2     (1u << 2)  /* CPUID AVX + AVX2 + OS YMM state */
#define AESECB_CPU_VAES     (1u << 3)  /* CPUID VAES (leaf 7 ECX bit 9) */
#define AESECB_CPU_OSYMM    (1u << 4)  /* XGETBV: OS saves XMM and YMM */
#define AESECB_CPU_ARM_AES  (1u << 5)
#define AESECB_CPU_SSSE3    (1u << 6)  /* CPUID leaf 1 ECX bit 9 */
unsigned aesecb__cpu_features(void);

#endif /* AESECB_INTERNAL_H */
