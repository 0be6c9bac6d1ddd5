/* SPDX-License-Identifier: MIT */
/*
 * check_ctx_free.c - aesecb_ctx_free() hands free() a context that is all
 * zeros: the key schedule is wiped before the memory goes back to the
 * allocator (which keeps it, readable by the next owner).
 *
 * The program is linked with -Wl,--wrap=free, so that the library's calls
 * of free() (and its own) come to __wrap_free below, which looks at the
 * context it is given before passing it on.  For every available backend
 * and key size: a context from aesecb_ctx_new() (its schedule must not be
 * zero, or the check proves nothing), then aesecb_ctx_free(); and an
 * aesecb_ctx_new() that fails (a bad key length), which frees its context
 * itself.  Where the linker does not wrap functions (configure did not
 * define AESECB_TEST_WRAP_FREE), it reports SKIP (exit 77); so it does
 * on Windows, where the library frees a context with _aligned_free, a
 * function of the C runtime's DLL that the linker cannot wrap (configure
 * does not define it there).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"

#ifdef AESECB_TEST_WRAP_FREE

/* The context whose free() is watched; every block freed while
 * watch_any is set is taken for one. */
static const void *watched;
static int watch_any;
static int freed;               /* watched blocks freed */
static size_t nonzero;          /* nonzero bytes they still held */

void __real_free(void *p);
void __wrap_free(void *p);

void __wrap_free(void *p)
{
	if (p != NULL && (p == watched || watch_any)) {
		const unsigned char *b = p;
		size_t i;

		for (i = 0; i < sizeof(aesecb_ctx); i++)
			nonzero += b[i] != 0;
		freed++;
		watched = NULL;
	}
	__real_free(p);
}

static size_t nonzero_bytes(const aesecb_ctx *ctx)
{
	const unsigned char *b = (const unsigned char *)ctx;
	size_t i, n = 0;

	for (i = 0; i < sizeof *ctx; i++)
		n += b[i] != 0;
	return n;
}

int main(void)
{
	static const size_t klens[3] = { 16, 24, 32 };
	uint8_t key[32];
	size_t b, k, i;
	int failed = 0, ran = 0;

	for (i = 0; i < sizeof key; i++)
		key[i] = (uint8_t)(0x5b ^ (i * 29));
	for (b = 0; b < aesecb_backend_count(); b++) {
		const aesecb_backend *be = aesecb_backend_get(b);
		const char *name = aesecb_backend_name(be);
		aesecb_ctx *ctx;
		int st, bad = 0;

		if (!aesecb_backend_available(be)) {
			printf("SKIP: backend %s: %s\n", name,
			       aesecb_backend_unavailable_reason(be));
			continue;
		}
		for (k = 0; k < 3; k++) {
			st = aesecb_ctx_new(&ctx, key, klens[k], be);
			if (st != AESECB_OK) {
				printf("FAIL: backend %s: aesecb_ctx_new: %s\n",
				       name, aesecb_strerror(st));
				bad = 1;
				continue;
			}
			if (nonzero_bytes(ctx) < 64) {
				printf("FAIL: backend %s: AES-%zu: the new "
				       "context is nearly all zeros\n", name,
				       8 * klens[k]);
				bad = 1;
			}
			watched = ctx;
			freed = 0;
			nonzero = 0;
			aesecb_ctx_free(ctx);
			if (freed != 1 || nonzero != 0) {
				printf("FAIL: backend %s: AES-%zu: "
				       "aesecb_ctx_free %s\n", name, 8 * klens[k],
				       freed != 1 ? "did not free the context"
				       : "freed a context that was not wiped");
				bad = 1;
			}
		}
		/* an init that fails: the context is freed by aesecb_ctx_new */
		freed = 0;
		nonzero = 0;
		watch_any = 1;
		st = aesecb_ctx_new(&ctx, key, 17, be);
		watch_any = 0;
		if (st != AESECB_EKEYLEN || ctx != NULL || freed != 1 ||
		    nonzero != 0) {
			printf("FAIL: backend %s: a failed aesecb_ctx_new "
			       "(status %d, %d frees, %zu bytes not zero)\n",
			       name, st, freed, nonzero);
			bad = 1;
		}
		printf("%s: backend %s\n", bad ? "FAIL" : "PASS", name);
		failed |= bad;
		ran++;
	}
	aesecb_ctx_free(NULL);
	printf("%s: %d backends: contexts handed to free() all zeros\n",
	       failed ? "FAIL" : "PASS", ran);
	return failed ? 1 : ran > 0 ? 0 : 1;
}

#else

int main(void)
{
#ifdef _WIN32
	puts("SKIP: the library frees contexts with _aligned_free, which the "
	     "linker cannot wrap (a DLL import): aesecb_ctx_free's wipe not "
	     "checked");
#else
	puts("SKIP: the linker does not wrap functions (-Wl,--wrap): "
	     "aesecb_ctx_free's wipe not checked");
#endif
	return 77;
}

#endif
