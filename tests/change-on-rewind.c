/* SPDX-License-Identifier: MIT */
/*
 * change-on-rewind.c - an LD_PRELOAD library for tests/cli-verify-input.sh:
 * a second writer, at the worst moment.  When the program rewinds a
 * regular file to its start (lseek(fd, 0, SEEK_SET), which verify does
 * between validating a file and checking it), the file is changed first,
 * through a descriptor of its own: $CHANGE_ON_REWIND is "inplace" (the
 * byte 10 before its end becomes 'f', or 'e' if it was 'f': the same
 * size) or "append" (a comment line is added).  Every other call goes to
 * the C library.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
/* Not config.h: its large-file setting would rename lseek() to lseek64(). */
#undef _FILE_OFFSET_BITS

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static void change(int fd)
{
	const char *how = getenv("CHANGE_ON_REWIND");
	char proc[64];
	struct stat st;
	int w, saved = errno;

	if (how == NULL || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < 10)
		return;
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	w = open(proc, O_RDWR | (strcmp(how, "append") == 0 ? O_APPEND : 0));
	if (w >= 0) {
		char c = 0;

		if (strcmp(how, "append") == 0) {
			(void)!write(w, "# changed\n", 10);
		} else if (pread(w, &c, 1, st.st_size - 10) == 1) {
			c = c == 'f' ? 'e' : 'f';
			(void)!pwrite(w, &c, 1, st.st_size - 10);
		}
		close(w);
	}
	errno = saved;
}

off_t lseek(int fd, off_t off, int whence)
{
	union { void *p; off_t (*f)(int, off_t, int); } next;

	if (off == 0 && whence == SEEK_SET)
		change(fd);
	next.p = dlsym(RTLD_NEXT, "lseek");
	if (next.p == NULL) {
		errno = ENOSYS;
		return -1;
	}
	return next.f(fd, off, whence);
}

off64_t lseek64(int fd, off64_t off, int whence)
{
	union { void *p; off64_t (*f)(int, off64_t, int); } next;

	if (off == 0 && whence == SEEK_SET)
		change(fd);
	next.p = dlsym(RTLD_NEXT, "lseek64");
	if (next.p == NULL) {
		errno = ENOSYS;
		return -1;
	}
	return next.f(fd, off, whence);
}
