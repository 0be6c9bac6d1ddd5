/* SPDX-License-Identifier: MIT */
/*
 * outfile.c - where a command's output goes (-o OUT); see outfile.h for
 * the rule.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "common/msg.h"
#include "common/num.h"
#include "common/outfile.h"
#include "common/printable.h"

enum kind {
	OUT_NONE = 0,   /* nothing open (closed, failed, or aborted) */
	OUT_STDOUT,     /* no -o, or -o - */
	OUT_DESC,       /* a descriptor we were given: written, never closed */
	OUT_DEVICE,     /* not a regular file: opened, written, closed */
	OUT_UNNAMED,    /* O_TMPFILE: linked in at commit */
	OUT_NAMED       /* temporary file with a name (tmp_path) */
};

#define PATH_BUF 4096

/* The temporary file while it has a name: the signal handler removes it.
 * tmp_path is complete before tmp_live is set, with signals blocked. */
static char tmp_path[PATH_BUF];
static volatile sig_atomic_t tmp_live;

/* The file replaced: OUT, or the file a symbolic link OUT names. */
static char target[PATH_BUF];

/* ------------------------------------------------------------------ */
/* Signals */

static void on_signal(int sig)
{
	int saved = errno;

	if (tmp_live) {
		unlink(tmp_path);
		tmp_live = 0;
	}
	signal(sig, SIG_DFL);
	/* Blocked while the handler runs: delivered, with the default
	 * action, when it returns (a fault is raised again by the
	 * instruction that caused it, now with the default action too). */
	raise(sig);
	errno = saved;
}

/* The signals whose default action ends the process and that can be
 * caught (SIGKILL and SIGSTOP cannot; SIGCHLD, SIGCONT, SIGURG, SIGWINCH
 * do not end it; SIGTSTP, SIGTTIN, SIGTTOU stop it). */
static const int fatal_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGABRT, SIGFPE, SIGSEGV, SIGPIPE,
	SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
#ifdef SIGTRAP
	SIGTRAP,
#endif
#ifdef SIGBUS
	SIGBUS,
#endif
#ifdef SIGSYS
	SIGSYS,
#endif
#ifdef SIGXCPU
	SIGXCPU,
#endif
#ifdef SIGXFSZ
	SIGXFSZ,
#endif
#ifdef SIGVTALRM
	SIGVTALRM,
#endif
#ifdef SIGPROF
	SIGPROF,
#endif
#ifdef SIGPOLL
	SIGPOLL,
#elif defined(SIGIO)
	SIGIO,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGLOST
	SIGLOST,
#endif
#ifdef SIGEMT
	SIGEMT,
#endif
};

static void catch_one(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	/* Only where the default action stands: an ignored signal stays
	 * ignored (the parent chose), and a handler already there (a
	 * sanitizer's, a preloaded library's) is left alone. */
	if (sigaction(sig, NULL, &sa) != 0 || (sa.sa_flags & SA_SIGINFO) ||
	    sa.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);  /* no second handler during the first */
	sigaction(sig, &sa, NULL);
}

void cli_outfile_signals(void)
{
	static int done;
	size_t i;

	if (done)
		return;
	done = 1;
	for (i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
		catch_one(fatal_signals[i]);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
	{
		int sig;

		for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
			catch_one(sig);
	}
#endif
}

/* Signals blocked around the moments a name is given to or taken from the
 * temporary file, so that tmp_live always says whether it exists. */
static void block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

static void restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Removes the named temporary file, if there is one. */
static void drop_tmp(void)
{
	sigset_t old;

	block_signals(&old);
	if (tmp_live) {
		unlink(tmp_path);
		tmp_live = 0;
	}
	restore_signals(&old);
}

/* ------------------------------------------------------------------ */
/* Names of descriptors */

/* The next path component of *p (skipping empty ones and "."), as
 * [*start, *p); 0 at the end. */
static int next_component(const char **p, const char **start)
{
	for (;;) {
		while (**p == '/')
			(*p)++;
		if (**p == '\0')
			return 0;
		*start = *p;
		while (**p != '/' && **p != '\0')
			(*p)++;
		if (!(*p - *start == 1 && **start == '.'))
			return 1;
	}
}

static int comp_is(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(e - s) == n && memcmp(s, word, n) == 0;
}

/* A decimal number of at most 9 digits in [s, e), or -1. */
static long comp_num(const char *s, const char *e)
{
	uint64_t v;

	if (e - s > 9 ||
	    cli_num_parse(s, (size_t)(e - s), 999999999u, &v) != CLI_NUM_OK)
		return -1;
	return (long)v;
}

/* The descriptor an absolute path spells, or -1. */
static int fd_spelt(const char *path)
{
	const char *p = path, *c[5], *e[5];
	int n = 0;
	long fd, pid;

	if (path[0] != '/')
		return -1;
	while (n < 5 && next_component(&p, &c[n])) {
		e[n] = p;
		n++;
	}
	if (n == 5 || next_component(&p, &c[0]))
		return -1;  /* more components than any descriptor name */
	if (n == 2 && comp_is(c[0], e[0], "dev")) {
		if (comp_is(c[1], e[1], "stdin"))
			return 0;
		if (comp_is(c[1], e[1], "stdout"))
			return 1;
		if (comp_is(c[1], e[1], "stderr"))
			return 2;
		return -1;
	}
	if (n == 3 && comp_is(c[0], e[0], "dev") && comp_is(c[1], e[1], "fd"))
		return (int)comp_num(c[2], e[2]);
	if (n == 4 && comp_is(c[0], e[0], "proc") &&
	    comp_is(c[2], e[2], "fd")) {
		fd = comp_num(c[3], e[3]);
		if (comp_is(c[1], e[1], "self") ||
		    comp_is(c[1], e[1], "thread-self"))
			return (int)fd;
		pid = comp_num(c[1], e[1]);
		if (pid >= 0 && pid == (long)getpid())
			return (int)fd;
	}
	return -1;
}

/* Splits path into the directory part ("." when there is none). */
static void dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		snprintf(dir, size, ".");
	} else if (slash == path) {
		snprintf(dir, size, "/");
	} else {
		size_t len = (size_t)(slash - path);

		if (len >= size)
			len = size - 1;
		memcpy(dir, path, len);
		dir[len] = '\0';
	}
}

/*
 * The descriptor path names, following symbolic links to the last
 * component (a link to /dev/stdout names descriptor 1), or -1.
 */
static int fd_named(const char *path)
{
	char cur[PATH_BUF], link[PATH_BUF], dir[PATH_BUF];
	int hops, fd;

	if (strlen(path) >= sizeof cur)
		return -1;
	strcpy(cur, path);
	for (hops = 0; hops < 16; hops++) {
		struct stat st;
		ssize_t n;

		fd = fd_spelt(cur);
		if (fd >= 0)
			return fd;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return -1;
		n = readlink(cur, link, sizeof link - 1);
		if (n <= 0 || (size_t)n >= sizeof link - 1)
			return -1;
		link[n] = '\0';
		if (link[0] == '/') {
			strcpy(cur, link);
		} else {
			dir_of(cur, dir, sizeof dir);
			if (snprintf(cur, sizeof cur, "%s/%s", dir, link) >=
			    (int)sizeof cur)
				return -1;
		}
	}
	return -1;
}

/* Standard output or standard error, if it is open for writing on the
 * same file as st; else -1. */
static int fd_same_file(const struct stat *st)
{
	int fd;

	for (fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
		struct stat fs;
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY &&
		    fstat(fd, &fs) == 0 && fs.st_dev == st->st_dev &&
		    fs.st_ino == st->st_ino)
			return fd;
	}
	return -1;
}

/* Takes descriptor fd for o: it must be open for writing. */
static int use_descriptor(struct cli_outfile *o, int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0) {
		cli_err("cannot write '%s': descriptor %d is not open",
		        cli_safe(o->name), fd);
		return EXIT_IO;
	}
	if ((fl & O_ACCMODE) == O_RDONLY) {
		cli_err("cannot write '%s': descriptor %d is not open for "
		        "writing", cli_safe(o->name), fd);
		return EXIT_IO;
	}
	o->fd = fd;
	o->kind = OUT_DESC;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Temporary files */

/* ".BASENAME.aesecb-tmp-" in dir, in tmp_path, with room for 6 more
 * characters; the base name is cut to keep the file name short. */
static int tmp_prefix(const char *dir, const char *file)
{
	const char *slash = strrchr(file, '/');
	const char *base = slash != NULL ? slash + 1 : file;
	int n = snprintf(tmp_path, sizeof tmp_path - 6, "%s/.%.200s.aesecb-tmp-",
	                 dir, base);

	return n > 0 && (size_t)n < sizeof tmp_path - 6 ? n : -1;
}

#ifdef O_TMPFILE
/* Six characters that make a name unlikely to exist (linkat refuses an
 * existing name; the caller tries again). */
static void tmp_suffix(char *p)
{
	static const char set[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long count;
	struct timespec ts;
	unsigned long long x;
	int i;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = (unsigned long long)ts.tv_nsec ^
	    ((unsigned long long)ts.tv_sec << 30) ^
	    ((unsigned long long)getpid() << 16) ^ ++count * 0x9e3779b97f4a7c15ull;
	for (i = 0; i < 6; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		p[i] = set[(x >> 33) % (sizeof set - 1)];
	}
	p[6] = '\0';
}
#endif

/* Creates the temporary file in dir, unnamed if the system can.  Returns
 * the descriptor or -1 (errno set). */
static int tmp_create(struct cli_outfile *o, const char *dir)
{
	sigset_t old;
	int fd, n, err;

#ifdef O_TMPFILE
	/* linkat() needs /proc/self/fd to give the file a name at the end:
	 * without it, use a named file from the start. */
	if (access("/proc/self/fd", X_OK) == 0) {
		fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		if (fd >= 0) {
			o->kind = OUT_UNNAMED;
			return fd;
		}
		/* not supported by this kernel or file system: named */
	}
#endif
	n = tmp_prefix(dir, target);
	if (n < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(tmp_path + n, "XXXXXX");
	block_signals(&old);
	fd = mkstemp(tmp_path);
	err = errno;
	if (fd >= 0)
		tmp_live = 1;
	restore_signals(&old);
	errno = err;
	if (fd >= 0)
		o->kind = OUT_NAMED;
	return fd;
}

#ifdef O_TMPFILE
/* Gives the unnamed file a temporary name next to the target.  Returns 0
 * or -1 (errno set). */
static int tmp_link(int fd)
{
	char proc[64];
	char dir[PATH_BUF];
	sigset_t old;
	int n, tries, r = -1, err = EEXIST;

	dir_of(target, dir, sizeof dir);
	n = tmp_prefix(dir, target);
	if (n < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	for (tries = 0; r != 0 && err == EEXIST && tries < 100; tries++) {
		tmp_suffix(tmp_path + n);
		block_signals(&old);
		r = linkat(AT_FDCWD, proc, AT_FDCWD, tmp_path,
		           AT_SYMLINK_FOLLOW);
#ifdef AT_EMPTY_PATH
		/* where /proc refuses, the descriptor itself (this needs a
		 * capability on older kernels) */
		if (r != 0 && errno != EEXIST)
			r = linkat(fd, "", AT_FDCWD, tmp_path, AT_EMPTY_PATH);
#endif
		err = r == 0 ? 0 : errno;
		if (r == 0)
			tmp_live = 1;
		restore_signals(&old);
	}
	errno = err;
	return r;
}
#endif

/* ------------------------------------------------------------------ */

int cli_outfile_open(struct cli_outfile *o, const char *path)
{
	char dir[PATH_BUF];
	struct stat st, lst;
	int fd, exists;

	memset(o, 0, sizeof *o);
	o->fd = -1;
	cli_outfile_signals();
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fd = STDOUT_FILENO;
		o->name = "stdout";
		o->kind = OUT_STDOUT;
		return 0;
	}
	o->name = path;
	o->path = path;
	if (path[0] == '\0') {
		cli_err("the output file name is empty");
		return EXIT_USAGE;
	}

	/* A descriptor we were given, by its name or as the same file as
	 * standard output or error: written where it stands. */
	fd = fd_named(path);
	if (fd >= 0)
		return use_descriptor(o, fd);
	exists = stat(path, &st) == 0;
	if (exists && (fd = fd_same_file(&st)) >= 0)
		return use_descriptor(o, fd);

	/* A device, a FIFO or a socket is written: nothing to replace. */
	if (exists && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			cli_err("cannot write '%s': %s", cli_safe(path),
			        strerror(EISDIR));
			return EXIT_IO;
		}
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			cli_err("cannot open '%s': %s", cli_safe(path),
			        strerror(errno));
			return EXIT_IO;
		}
		o->fd = fd;
		o->kind = OUT_DEVICE;
		return 0;
	}

	/* A regular file, new or replaced.  A symbolic link is written
	 * through: the file it names is replaced, the link is kept. */
	if (strlen(path) >= sizeof target) {
		cli_err("cannot write '%s': %s", cli_safe(path),
		        strerror(ENAMETOOLONG));
		return EXIT_IO;
	}
	strcpy(target, path);
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		if (!exists) {
			cli_err("cannot write '%s': it is a symbolic link to "
			        "nothing", cli_safe(path));
			return EXIT_IO;
		}
		if (realpath(path, target) == NULL) {
			cli_err("cannot resolve '%s': %s", cli_safe(path),
			        strerror(errno));
			return EXIT_IO;
		}
	}
	dir_of(target, dir, sizeof dir);
	fd = tmp_create(o, dir);
	if (fd < 0) {
		cli_err("cannot create a temporary file in '%s' for '%s': %s",
		        cli_safe(dir), cli_safe(path), strerror(errno));
		return EXIT_IO;
	}
	o->fd = fd;
	return 0;
}

int cli_outfile_write(struct cli_outfile *o, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(o->fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (o->kind == OUT_STDOUT)
				cli_err("cannot write stdout: %s",
				        strerror(errno));
			else
				cli_err("cannot write '%s': %s",
				        cli_safe(o->name), strerror(errno));
			return EXIT_IO;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The permission bits (and, where we may, the owner) the replaced file
 * had, or what creating it would give. */
static int set_mode(int fd)
{
	struct stat st;
	mode_t mode;

	if (stat(target, &st) == 0 && S_ISREG(st.st_mode)) {
		int kept_owner = fchown(fd, st.st_uid, st.st_gid) == 0;

		(void)kept_owner;  /* else the file becomes ours, same bits */
		mode = st.st_mode & 0777;
	} else {
		mode_t mask = umask(0);

		umask(mask);
		mode = (mode_t)0666 & ~mask;
	}
	return fchmod(fd, mode);
}

int cli_outfile_commit(struct cli_outfile *o)
{
	const char *what = "write";
	sigset_t old;
	int r, err;

	switch (o->kind) {
	case OUT_STDOUT:
	case OUT_DESC:
		o->kind = OUT_NONE;
		return 0;
	case OUT_DEVICE:
		r = close(o->fd);
		o->fd = -1;
		o->kind = OUT_NONE;
		if (r != 0) {
			cli_err("cannot write '%s': %s", cli_safe(o->name),
			        strerror(errno));
			return EXIT_IO;
		}
		return 0;
	case OUT_UNNAMED:
	case OUT_NAMED:
		break;
	default:
		return 0;
	}

	/* The file is complete and private (mode 0600) until here. */
	if (set_mode(o->fd) != 0) {
		what = "set the mode of";
		goto fail;
	}
	if (fsync(o->fd) != 0 && errno != EINVAL)
		goto fail;
#ifdef O_TMPFILE
	if (o->kind == OUT_UNNAMED && tmp_link(o->fd) != 0) {
		what = "name the temporary file for";
		goto fail;
	}
#endif
	r = close(o->fd);
	o->fd = -1;
	if (r != 0)
		goto fail;
	block_signals(&old);
	r = rename(tmp_path, target);
	err = errno;
	if (r == 0)
		tmp_live = 0;
	restore_signals(&old);
	if (r != 0) {
		cli_err("cannot rename the temporary file '%s' to '%s': %s",
		        cli_safe(tmp_path), cli_safe(target), strerror(err));
		cli_outfile_abort(o);
		return EXIT_IO;
	}
	o->kind = OUT_NONE;
	return 0;

fail:
	cli_err("cannot %s '%s': %s", what, cli_safe(o->name),
	        strerror(errno));
	cli_outfile_abort(o);
	return EXIT_IO;
}

void cli_outfile_abort(struct cli_outfile *o)
{
	switch (o->kind) {
	case OUT_NAMED:
	case OUT_UNNAMED:
		drop_tmp();
		/* fall through */
	case OUT_DEVICE:
		if (o->fd >= 0)
			close(o->fd);
		break;
	default:
		break;
	}
	o->fd = -1;
	o->kind = OUT_NONE;
}
