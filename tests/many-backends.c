/* SPDX-License-Identifier: MIT */
/*
 * many-backends.c - an LD_PRELOAD library for tests/cli-many-backends.sh:
 * the library seems to have COPIES times as many backends as it has (each
 * real one COPIES times over, in its order), more than any fixed-size
 * table would hold, so that the tool's listings, benchmarks and verify
 * runs can be checked for a silent cap.  Everything else goes to the
 * library.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <dlfcn.h>
#include <stddef.h>

#define COPIES 5

typedef struct aesecb_backend aesecb_backend;

size_t aesecb_backend_count(void);
const aesecb_backend *aesecb_backend_get(size_t index);

static size_t real_count(void)
{
	union { void *p; size_t (*f)(void); } next;

	next.p = dlsym(RTLD_NEXT, "aesecb_backend_count");
	return next.p != NULL ? next.f() : 0;
}

size_t aesecb_backend_count(void)
{
	return COPIES * real_count();
}

const aesecb_backend *aesecb_backend_get(size_t index)
{
	union { void *p; const aesecb_backend *(*f)(size_t); } next;
	size_t n = real_count();

	next.p = dlsym(RTLD_NEXT, "aesecb_backend_get");
	if (next.p == NULL || n == 0 || index >= COPIES * n)
		return NULL;
	return next.f(index % n);
}
