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

#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/*
 * Every backend, each defined in its own lib/backend_NAME.c, in order of
 * preference: the portable one first, the preferred hardware ones last.
 * Adding a backend means adding its file and its name here (and to
 * Makefile.am and configure.ac's list; see HACKING.md).
 */
#define AESECB_BACKENDS(X) X(none) X(ssse3) X(aesni) X(vaes) X(armce)

#define DECLARE_BACKEND(id) extern const struct aesecb_backend aesecb__backend_##id;
AESECB_BACKENDS(DECLARE_BACKEND)

#define LIST_BACKEND(id) &aesecb__backend_##id,
static const struct aesecb_backend *const backends[] = {
	AESECB_BACKENDS(LIST_BACKEND)
};

#define NBACKENDS (sizeof backends / sizeof backends[0])

static int known(const aesecb_backend *be)
{
	size_t i;

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

const aesecb_backend *aesecb_backend_find(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
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

const char *aesecb_backend_requires(const aesecb_backend *be)
{
	return known(be) ? be->requires : NULL;
}

int aesecb_backend_compiled(const aesecb_backend *be)
{
	return known(be) && be->impl != NULL;
}

const char *aesecb_backend_unavailable_reason(const aesecb_backend *be)
{
	if (!known(be))
		return "unknown backend";
	if (be->impl == NULL)
		return "not built in";
	if (be->impl->cpu_missing != NULL)
		return be->impl->cpu_missing();
	return NULL;
}

int aesecb_backend_available(const aesecb_backend *be)
{
	return known(be) && aesecb_backend_unavailable_reason(be) == NULL;
}

size_t aesecb_backend_scratch_written(const aesecb_backend *be, int decrypt)
{
	size_t n;

	if (!known(be))
		return 0;
	n = decrypt ? be->scratch_dec : be->scratch_enc;
	return n > AESECB_SCRATCH_SIZE ? AESECB_SCRATCH_SIZE : n;
}

/*
 * The default for a given value of $AESECB_BACKEND (NULL or empty: unset).
 * *status says why there is none.
 */
static const aesecb_backend *default_for(const char *env, int *status)
{
	const aesecb_backend *be;
	size_t i;

	if (env != NULL && env[0] != '\0') {
		be = aesecb_backend_find(env);
		if (be == NULL) {
			*status = AESECB_EUNKNOWN;
			return NULL;
		}
		if (!aesecb_backend_available(be)) {
			*status = AESECB_EUNAVAILABLE;
			return NULL;
		}
		return be;
	}
	/* The table lists none first and the preferred hardware backends
	 * last, so the best available one is the last available one. */
	for (i = NBACKENDS; i-- > 0;)
		if (aesecb_backend_available(backends[i]))
			return backends[i];
	return backends[0];
}

const aesecb_backend *aesecb_backend_default(void)
{
	int status;

	return default_for(getenv("AESECB_BACKEND"), &status);
}

/* ------------------------------------------------------------------ */

void aesecb_wipe(void *p, size_t n)
{
	if (n == 0)
		return;
	memset(p, 0, n);
#if defined(__GNUC__) || defined(__clang__)
	/* The compiler must assume the asm reads the zeroed memory. */
	__asm__ __volatile__("" : : "r"(p) : "memory");
#else
	{
		volatile unsigned char *v = p;
		while (n--)
			*v++ = 0;
	}
#endif
}

static int rounds_for(size_t key_len)
{
	switch (key_len) {
	case 16: return 10;
	case 24: return 12;
	case 32: return 14;
	default: return 0;
	}
}

static int init_checked(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                        const aesecb_backend *be)
{
	int rounds, status = AESECB_OK;

	if (be == NULL) {
		be = default_for(getenv("AESECB_BACKEND"), &status);
		if (be == NULL)
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
	ctx->priv_rounds = (uint32_t)rounds;
	ctx->priv_key_len = (uint32_t)key_len;
	ctx->priv_encrypt = (void (*)(void))be->impl->encrypt;
	ctx->priv_decrypt = (void (*)(void))be->impl->decrypt;
	ctx->priv_wipe[0] = (uint16_t)aesecb_backend_scratch_written(be, 0);
	ctx->priv_wipe[1] = (uint16_t)aesecb_backend_scratch_written(be, 1);
	be->impl->setkey(ctx, key, key_len);
	return AESECB_OK;
}

/*
 * The context is wiped first: nothing of an earlier key survives a new one
 * (a shorter key's schedule does not cover a longer one's), and a failed
 * init leaves a cleared context that every call refuses, rather than the
 * previous key still in use.
 */
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

void aesecb_clear(aesecb_ctx *ctx)
{
	if (ctx != NULL)
		aesecb_wipe(ctx, sizeof *ctx);
}

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#else
#define ALWAYS_INLINE inline
#define NOINLINE
#endif

/*
 * A backend that declared a bound gets the working space: uninitialised,
 * on this frame, and afterwards exactly the declared prefix is wiped.
 * Kept out of line so that the 2 KiB frame (and its 64-byte realignment)
 * costs nothing to the backends that declare 0.
 */
static NOINLINE int run_with_scratch(const aesecb_ctx *ctx, void (*fn)(void),
                                     size_t written, const uint8_t *in,
                                     uint8_t *out, size_t nblocks)
{
	AESECB_ALIGN64_ unsigned char scratch[AESECB_SCRATCH_SIZE];
	int status;

	status = ((aesecb_blocks_fn *)fn)(ctx, in, out, nblocks, scratch);
	aesecb_wipe(scratch, written > sizeof scratch ? sizeof scratch : written);
	return status;
}

/*
 * The common path of encrypt, decrypt and the header-protection masks.
 * 'written' is the backend's declaration for this direction.  A backend
 * that writes no working space is called directly: no space, no zeroing,
 * no wiping, nothing between the caller and the AES instructions.
 */
static ALWAYS_INLINE int run_blocks(const aesecb_ctx *ctx, void (*fn)(void),
                                    size_t written, const uint8_t *in,
                                    uint8_t *out, size_t nblocks)
{
	if (written == 0)
		return ((aesecb_blocks_fn *)fn)(ctx, in, out, nblocks, NULL);
	return run_with_scratch(ctx, fn, written, in, out, nblocks);
}

static ALWAYS_INLINE int do_crypt(const aesecb_ctx *ctx, const uint8_t *in,
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
		return run_blocks(ctx, ctx->priv_decrypt, ctx->priv_wipe[1],
		                  in, out, len / AESECB_BLOCK_SIZE);
	return run_blocks(ctx, ctx->priv_encrypt, ctx->priv_wipe[0],
	                  in, out, len / AESECB_BLOCK_SIZE);
}

int aesecb_encrypt(const aesecb_ctx *ctx, const uint8_t *in, uint8_t *out,
                   size_t len)
{
	return do_crypt(ctx, in, out, len, 0);
}

int aesecb_decrypt(const aesecb_ctx *ctx, const uint8_t *in, uint8_t *out,
                   size_t len)
{
	return do_crypt(ctx, in, out, len, 1);
}

void aesecb_hp_mask(const aesecb_ctx *ctx, const uint8_t sample[16],
                    uint8_t mask[5])
{
	uint8_t block[AESECB_BLOCK_SIZE];

	if (ctx == NULL || ctx->priv_rounds == 0 || sample == NULL ||
	    mask == NULL)
		return;
	run_blocks(ctx, ctx->priv_encrypt, ctx->priv_wipe[0], sample, block, 1);
	memcpy(mask, block, 5);
	/* The rest of the block is not wiped: it is no key material, and the
	 * mask itself goes to the caller.  (A wipe here measured 4x the cost
	 * of the AES block on the QUIC one-mask path.) */
}

int aesecb_hp_masks(const aesecb_ctx *ctx, const uint8_t *samples,
                    uint8_t *masks, size_t n)
{
	/* Blocks per pass: enough to keep every backend's widest path full. */
	enum { BATCH = 64 };
	uint8_t blocks[BATCH * AESECB_BLOCK_SIZE];
	size_t written, i, k;

	if (ctx == NULL || ctx->priv_rounds == 0)
		return AESECB_EINVAL;
	if (n == 0)
		return AESECB_OK;
	if (samples == NULL || masks == NULL)
		return AESECB_EINVAL;
	written = ctx->priv_wipe[0];
	for (i = 0; i < n; i += k) {
		size_t j;

		k = n - i < BATCH ? n - i : BATCH;
		run_blocks(ctx, ctx->priv_encrypt, written,
		           samples + i * AESECB_BLOCK_SIZE, blocks, k);
		for (j = 0; j < k; j++)
			memcpy(masks + (i + j) * 5, blocks + j * AESECB_BLOCK_SIZE, 5);
	}
	return AESECB_OK;
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
	default:
		return "unknown status code";
	}
}

const char *aesecb_version(void)
{
	return PACKAGE_VERSION;
}
