/*
 * outfile.c - the output file of a command's -o: written to a temporary
 * file in the same directory and renamed over OUT only when everything
 * succeeded (see outfile.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"

/* The temporary file, removed if a signal ends the process. */
static char tmp_path[4096];
static char target_path[4096]; /* OUT with symbolic links resolved */
static volatile sig_atomic_t tmp_live;

static void on_fatal_signal(int sig)
{
	if (tmp_live)
		unlink(tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_fatal_signals(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM };
	size_t i;

	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sigaction(sigs[i], NULL, &sa);
		if (sa.sa_handler == SIG_IGN)
			continue;  /* keep what the parent chose */
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}


int cli_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Splits path into the directory part (for the temporary file). */
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

int cli_output_open(struct cli_output *o, const char *path, int hex)
{
	char dir[4096];
	struct stat st;
	mode_t mode;
	int fd, exists;

	memset(o, 0, sizeof *o);
	o->hex = hex;
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fd = STDOUT_FILENO;
		return 0;
	}
	o->path = path;
	o->target = path;
	if (path[0] == '\0') {
		cli_err("the output file name is empty");
		return EXIT_USAGE;
	}

	/* A device or a pipe (/dev/null, /dev/stdout to a terminal or pipe,
	 * a FIFO) is written directly: there is nothing to replace. */
	exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			cli_err("cannot write '%s': %s", path, strerror(EISDIR));
			return EXIT_IO;
		}
		fd = open(path, O_WRONLY | O_NOCTTY);
		if (fd < 0) {
			cli_err("cannot open '%s': %s", path, strerror(errno));
			return EXIT_IO;
		}
		o->fd = fd;
		return 0;
	}

	/* A symbolic link is written through: the file it names is replaced,
	 * not the link (think of /dev/stdout naming a regular file). */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!exists) {
			cli_err("cannot write '%s': it is a symbolic link to "
			        "nothing", path);
			return EXIT_IO;
		}
		if (realpath(path, target_path) == NULL) {
			cli_err("cannot resolve '%s': %s", path, strerror(errno));
			return EXIT_IO;
		}
		o->target = target_path;
	}

	dir_of(o->target, dir, sizeof dir);
	if (snprintf(tmp_path, sizeof tmp_path, "%s/.aesecb-XXXXXX", dir) >=
	    (int)sizeof tmp_path) {
		cli_err("cannot write '%s': %s", path, strerror(ENAMETOOLONG));
		return EXIT_IO;
	}
	catch_fatal_signals();
	fd = mkstemp(tmp_path);
	if (fd < 0) {
		cli_err("cannot create a temporary file in '%s' for '%s': %s",
		        dir, path, strerror(errno));
		return EXIT_IO;
	}
	tmp_live = 1;
	o->fd = fd;
	o->temp = 1;

	/* An existing file keeps its permissions (and, where we may, its
	 * owner); a new one gets what creating it would give. */
	if (exists && stat(o->target, &st) == 0 && S_ISREG(st.st_mode)) {
		int kept_owner = fchown(fd, st.st_uid, st.st_gid) == 0;

		(void)kept_owner;  /* else the file becomes ours, same bits */
		mode = st.st_mode & 0777;
	} else {
		mode_t mask = umask(0);

		umask(mask);
		mode = (mode_t)0666 & ~mask;
	}
	if (fchmod(fd, mode) != 0) {
		cli_err("cannot set the mode of '%s': %s", tmp_path,
		        strerror(errno));
		return EXIT_IO;
	}
	return 0;
}

int cli_output_close(struct cli_output *o, int ok)
{
	int rc = 0;

	if (o->path == NULL)
		return 0;  /* stdout: left open; write errors were caught */
	if (o->temp) {
		if (ok && fsync(o->fd) != 0 && errno != EINVAL) {
			cli_err("cannot write '%s': %s", o->path,
			        strerror(errno));
			rc = EXIT_IO;
		}
		if (close(o->fd) != 0 && ok && rc == 0) {
			cli_err("cannot write '%s': %s", o->path,
			        strerror(errno));
			rc = EXIT_IO;
		}
		if (ok && rc == 0 && rename(tmp_path, o->target) != 0) {
			cli_err("cannot rename the temporary file '%s' to '%s': %s",
			        tmp_path, o->target, strerror(errno));
			rc = EXIT_IO;
		}
		if (!ok || rc != 0)
			unlink(tmp_path);
		tmp_live = 0;
		o->temp = 0;
	} else if (o->fd >= 0) {
		if (close(o->fd) != 0 && ok) {
			cli_err("cannot write '%s': %s", o->path,
			        strerror(errno));
			rc = EXIT_IO;
		}
	}
	o->fd = -1;
	return rc;
}
