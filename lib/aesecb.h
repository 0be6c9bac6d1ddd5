/* SPDX-License-Identifier: MIT */
/*
 * aesecb.h - AES in ECB mode with run-time selectable CPU backends.
 *
 * All functions are thread-safe.  None of them prints or exits, and none
 * but aesecb_ctx_new() allocates memory.  A context is read-only after
 * aesecb_init(), so one context may be shared by many threads.  See
 * aesecb(3).
 */
#ifndef AESECB_H
#define AESECB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Version of this header (and of the library it came with), as numbers for
 * the preprocessor: AESECB_VERSION_NUMBER is 0xMMmmpp (major, minor, patch,
 * one byte each), e.g. 0x000100 for 0.1.0, so that
 *     #if AESECB_VERSION_NUMBER >= 0x000200
 * asks for 0.2.0 or later.  aesecb_version() gives the library's at run time.
 */
#define AESECB_VERSION_MAJOR 0
#define AESECB_VERSION_MINOR 1
#define AESECB_VERSION_PATCH 0
#define AESECB_VERSION_NUMBER \
	((AESECB_VERSION_MAJOR << 16) | (AESECB_VERSION_MINOR << 8) | \
	 AESECB_VERSION_PATCH)

#define AESECB_BLOCK_SIZE 16

/* Status codes: 0 or negative. */
#define AESECB_OK            0
#define AESECB_EKEYLEN     (-1)  /* key is not 16, 24 or 32 bytes */
#define AESECB_EPARTIAL    (-2)  /* length is not a whole number of blocks */
#define AESECB_EUNKNOWN    (-3)  /* no backend of that name */
#define AESECB_EUNAVAILABLE (-4) /* backend not built in, or this CPU lacks it */
#define AESECB_EINVAL      (-5)  /* NULL where data was required */
#define AESECB_ESHORT      (-6)  /* QUIC packet too short for the header-
                                    protection sample */
#define AESECB_ENOMEM      (-7)  /* aesecb_ctx_new: out of memory */

/* Backends: static descriptors, never freed. */
typedef struct aesecb_backend aesecb_backend;

size_t                aesecb_backend_count(void);
const aesecb_backend *aesecb_backend_get(size_t index);
const aesecb_backend *aesecb_backend_find(const char *name);
const char           *aesecb_backend_name(const aesecb_backend *be);
const char           *aesecb_backend_arch(const aesecb_backend *be);
int                   aesecb_backend_compiled(const aesecb_backend *be);
int                   aesecb_backend_available(const aesecb_backend *be);
/* Always 0: no backend is lent a working space (see aesecb(3)); kept for
 * the programs built against it. */
size_t                aesecb_backend_scratch_written(const aesecb_backend *be,
                                                     int decrypt);
const aesecb_backend *aesecb_backend_default(void);

/* Extensions to the core API: what a backend needs, and why it cannot run. */
const char *aesecb_backend_requires(const aesecb_backend *be);
const char *aesecb_backend_unavailable_reason(const aesecb_backend *be);

/*
 * 1 when the library runs every call into this backend with the CPU's
 * data-independent timing mode on (AArch64 PSTATE.DIT, on a CPU with
 * FEAT_DIT), else 0 (other architectures, CPUs without it, a backend that
 * cannot run here, a pointer that is not a backend).  See aesecb(3).
 */
int aesecb_backend_dit(const aesecb_backend *be);

/*
 * $AESECB_BACKEND as the library reads it (secure_getenv where there is
 * one), or NULL when it is unset or empty.
 */
const char *aesecb_backend_env(void);

/*
 * The backend a name stands for.  name NULL: $AESECB_BACKEND when it is
 * set, else the best backend this CPU runs (what aesecb_init uses for
 * be == NULL).  Returns AESECB_OK with *be set; AESECB_EUNKNOWN with *be
 * NULL; or AESECB_EUNAVAILABLE with *be the backend and *reason why it
 * cannot be used here ("not built in", "CPU lacks VAES", ...).  *reason
 * is NULL on success, a static string otherwise.  be and reason may be
 * NULL.
 */
int aesecb_backend_resolve(const char *name, const aesecb_backend **be,
                           const char **reason);

/* The size of the working space earlier versions lent a backend; no longer
 * used by the library (aesecb(3)), kept for the code that names it. */
#define AESECB_SCRATCH_SIZE 2048

#if defined(__cplusplus) && __cplusplus >= 201103L
#define AESECB_ALIGN64_ alignas(64)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define AESECB_ALIGN64_ _Alignas(64)
#else
#define AESECB_ALIGN64_ __attribute__((aligned(64)))
#endif

/*
 * The context.  The type is complete so that callers can keep it on the
 * stack or inside their own structures; its members are private to the
 * library and may change between versions.
 */
struct aesecb_stack;

typedef struct aesecb_ctx {
	/* round keys, in whatever layout the backend uses */
	AESECB_ALIGN64_ union {
		uint8_t  b[960];
		uint32_t w[240];
		uint64_t q[120];
	} priv_keys;
	const aesecb_backend *priv_backend;
	/* the backend's block functions, and its QUIC header-protection
	 * masks (the types of lib/internal.h; struct aesecb_stack is the
	 * library's own) */
	int (*priv_encrypt)(const struct aesecb_ctx *, const uint8_t *,
	                    uint8_t *, size_t, struct aesecb_stack *);
	int (*priv_decrypt)(const struct aesecb_ctx *, const uint8_t *,
	                    uint8_t *, size_t, struct aesecb_stack *);
	int (*priv_masks)(const struct aesecb_ctx *, const uint8_t *,
	                  uint8_t *, size_t, struct aesecb_stack *);
	uintptr_t priv_one[3];        /* one block: encrypt, decrypt, mask,
	                                 for this key size (encoded) */
	uint16_t priv_rounds;         /* 10, 12 or 14; 0 when not initialised */
	uint8_t priv_key_len;
	uint8_t priv_dit;             /* 1: calls run with PSTATE.DIT set */
	uint8_t priv_burn;            /* 1: encrypt and decrypt run in the
	                                 library's burned frame */
} aesecb_ctx;

int  aesecb_init(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                 const aesecb_backend *be);
int  aesecb_encrypt(const aesecb_ctx *ctx, const uint8_t *in, uint8_t *out,
                    size_t len);
int  aesecb_decrypt(const aesecb_ctx *ctx, const uint8_t *in, uint8_t *out,
                    size_t len);
int  aesecb_hp_mask(const aesecb_ctx *ctx, const uint8_t sample[16],
                    uint8_t mask[5]);
int  aesecb_hp_masks(const aesecb_ctx *ctx, const uint8_t *samples,
                     uint8_t *masks, size_t n);
/*
 * QUIC header protection (RFC 9001 5.4) applied to, or removed from, a
 * whole packet in place.  Long or short header is told from the first
 * byte; the sample is the 16 bytes at pn_offset + 4.  protect returns
 * AESECB_OK, unprotect the packet-number length (1 to 4); both return a
 * negative status (AESECB_ESHORT when len < pn_offset + 20) and then leave
 * the packet untouched.
 */
int  aesecb_hp_protect(const aesecb_ctx *ctx, uint8_t *packet, size_t len,
                       size_t pn_offset);
int  aesecb_hp_unprotect(const aesecb_ctx *ctx, uint8_t *packet, size_t len,
                         size_t pn_offset);
const aesecb_backend *aesecb_ctx_backend(const aesecb_ctx *ctx);
void aesecb_clear(aesecb_ctx *ctx);

/*
 * A context in memory of its own, 64-byte aligned as the type asks (malloc
 * does not promise that): allocates it and runs aesecb_init.  On success
 * *ctx is the context and the return is AESECB_OK; on failure *ctx is NULL
 * and the return is aesecb_init's status or AESECB_ENOMEM.
 * aesecb_ctx_free wipes the context and frees it; NULL is ignored.
 */
int  aesecb_ctx_new(aesecb_ctx **ctx, const uint8_t *key, size_t key_len,
                    const aesecb_backend *be);
void aesecb_ctx_free(aesecb_ctx *ctx);
const char *aesecb_strerror(int status);
const char *aesecb_version(void);

/* Extension: zero n bytes at p in a way the compiler cannot remove.  The
 * library wipes its own secrets with it; callers may wipe theirs. */
void aesecb_wipe(void *p, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* AESECB_H */
