/* SPDX-License-Identifier: MIT */
/*
 * no-tmpfile.c - an LD_PRELOAD library for tests/cli-output.sh: open()
 * with O_TMPFILE fails with EOPNOTSUPP, as on a file system without
 * unnamed temporary files, so that the named temporary file of
 * "aesecb -o" (and its removal by the signal handlers) can be tested.
 * Every other open() goes to the C library.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
/* Not config.h: its large-file setting would rename open() to open64(). */
#undef _FILE_OFFSET_BITS

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

typedef int open_fn(const char *, int, ...);

static int pass_on(const char *name, const char *path, int flags,
                   mode_t mode)
{
	union { void *p; open_fn *f; } next;

#ifdef O_TMPFILE
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return -1;
	}
#endif
	next.p = dlsym(RTLD_NEXT, name);
	if (next.p == NULL) {
		errno = ENOSYS;
		return -1;
	}
	return next.f(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = va_arg(ap, mode_t);
#ifdef O_TMPFILE
	else if ((flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
#endif
	va_end(ap);
	return pass_on("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = va_arg(ap, mode_t);
#ifdef O_TMPFILE
	else if ((flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
#endif
	va_end(ap);
	return pass_on("open64", path, flags, mode);
}
