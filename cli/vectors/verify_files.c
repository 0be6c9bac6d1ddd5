/* SPDX-License-Identifier: MIT */
/*
 * verify_files.c - the vector files 'aesecb verify' checks: found in the
 * PATHs (or the default vector set), then each read once and validated
 * (see verify.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vectors/acvp.h"
#include "common/common.h"
#include "vectors/verify.h"

#ifndef AESECB_VECTORS_INSTALLED
#define AESECB_VECTORS_INSTALLED NULL
#endif


static void *xrealloc(void *p, size_t n, size_t size)
{
	if (size != 0 && n > (size_t)-1 / size)
		return NULL;
	return realloc(p, n * size);
}

/* A file to check; fd is its descriptor when it is open already (else
 * -1), which the list then owns. */
static int add_file(struct verify *v, const char *path, int type, int format,
                    int fd)
{
	struct vfile *f;

	if (v->nfiles == v->capfiles) {
		size_t cap = v->capfiles ? 2 * v->capfiles : 32;
		void *p = xrealloc(v->files, cap, sizeof *v->files);

		if (p == NULL) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		v->files = p;
		v->capfiles = cap;
	}
	f = &v->files[v->nfiles];
	memset(f, 0, sizeof *f);
	f->fd = fd;
	f->path = strdup(path);
	if (f->path == NULL) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	f->type = type;
	f->format = format;
	f->kind = -1;
	v->nfiles++;
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;

	return path != NULL && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory holding prompt.json or internalProjection.json is an ACVP
 * vector set. */
static int is_acvp_dir(const char *dir)
{
	static const char *const names[] = {
		"prompt.json", "internalProjection.json"
	};
	char path[4096];
	struct stat st;
	size_t i;

	for (i = 0; i < 2; i++) {
		if (snprintf(path, sizeof path, "%s/%s", dir, names[i]) >=
		    (int)sizeof path)
			continue;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return 1;
	}
	return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in a directory that may hold vectors (with recurse > 0, any
 * name: subdirectories too), sorted; hidden names are left out.  Returns
 * 0 (*names and *n set, to be freed), -1 out of memory, or EXIT_IO after
 * the message. */
static int read_names(struct verify *v, const char *dir, int recurse,
                      char ***names, size_t *n)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *d;
	int rc = 0, err;

	*names = NULL;
	*n = 0;
	d = opendir(dir);
	if (d == NULL) {
		verify_error(v, "%s: cannot read directory: %s", cli_safe(dir),
		             strerror(errno));
		return EXIT_IO;
	}
	for (errno = 0; rc == 0 && (de = readdir(d)) != NULL; errno = 0) {
		if (de->d_name[0] == '.' || (recurse <= 0 &&
		    vec_format_of_name(de->d_name) == VEC_FMT_AUTO))
			continue;
		if (*n == cap) {
			void *p = xrealloc(*names, cap ? 2 * cap : 32,
			                   sizeof **names);

			if (p == NULL) {
				rc = -1;
				break;
			}
			*names = p;
			cap = cap ? 2 * cap : 32;
		}
		if (((*names)[*n] = strdup(de->d_name)) == NULL)
			rc = -1;
		else
			(*n)++;
	}
	err = errno;
	closedir(d);
	if (rc == 0 && err != 0) {
		verify_error(v, "%s: cannot read directory: %s", cli_safe(dir),
		             strerror(err));
		rc = EXIT_IO;
	}
	if (rc == 0 && *n > 0)
		qsort(*names, *n, sizeof **names, cmp_names);
	return rc;
}

static int scan_dir(struct verify *v, const char *dir, int recurse);

/* path opened for reading (-1 with errno set). */
static int open_input(const char *path)
{
	return open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
}

/* Descriptors kept for everything but the files: standard streams, the
 * ACVP files, directories being read, the libraries'. */
#define FD_RESERVE 32

/* Whether a file may keep one more descriptor open until its check. */
static int fd_to_spare(const struct verify *v)
{
	static rlim_t limit;
	struct rlimit rl;

	if (limit == 0)
		limit = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		        rl.rlim_cur != RLIM_INFINITY ? rl.rlim_cur : 1024;
	return limit > FD_RESERVE && v->nopen < limit - FD_RESERVE;
}

/* A .txt file found in a directory: opened, and kept (its descriptor
 * rewound for validation) when it is in the QUIC format; closed and left
 * out otherwise. */
static int add_txt(struct verify *v, const char *path, int fmt)
{
	struct vec_error err;
	int fd = open_input(path), quic;

	if (fd < 0) {
		verify_error(v, "%s: cannot open: %s", cli_safe(path),
		             strerror(errno));
		return EXIT_IO;
	}
	quic = vec_is_quic_fd(fd, &err);
	if (quic > 0 && (!fd_to_spare(v) || lseek(fd, 0, SEEK_SET) != 0)) {
		/* opened again, from its start */
		close(fd);
		fd = -1;
	}
	if (quic < 0) {
		close(fd);
		if (quic == VEC_ENOMEM)
			return -1;  /* "out of memory", said by the caller */
		verify_error(v, "%s: %s", cli_safe(path), cli_safe(err.msg));
		return EXIT_IO;
	}
	if (quic == 0) {
		close(fd);
		return 0;
	}
	if (add_file(v, path, F_VEC, fmt, fd) != 0)
		return -1;
	v->nopen += fd >= 0;
	return 0;
}

/* One name found in a directory: regular files only, .txt files only in
 * the QUIC format; with recurse > 0, subdirectories too (an ACVP set is
 * one entry).  A name that cannot be followed (a dangling link) or a file
 * that cannot be read is an error, not a file skipped. */
static int add_entry(struct verify *v, const char *path, int recurse)
{
	int fmt = vec_format_of_name(path);
	struct stat st;

	if (stat(path, &st) != 0) {
		verify_error(v, "%s: %s", cli_safe(path), strerror(errno));
		return EXIT_IO;
	}
	if (recurse > 0 && S_ISDIR(st.st_mode))
		return is_acvp_dir(path) ? add_file(v, path, F_ACVP, 0, -1)
		                         : scan_dir(v, path, recurse - 1);
	if (!S_ISREG(st.st_mode) || fmt == VEC_FMT_AUTO)
		return 0;
	if (fmt == VEC_FMT_RSP)
		return add_file(v, path, F_VEC, fmt, -1);
	return add_txt(v, path, fmt);
}

/* Collect the vector files of a directory, sorted by name; with recurse
 * > 0, those of its subdirectories too (recurse levels deep), in place.
 * Returns 0, -1 out of memory, or an exit status after the message. */
static int scan_dir(struct verify *v, const char *dir, int recurse)
{
	char **names, *path;
	size_t n, i, dlen = strlen(dir);
	int rc = read_names(v, dir, recurse, &names, &n);

	for (i = 0; rc == 0 && i < n; i++) {
		size_t plen = dlen + 1 + strlen(names[i]) + 1;

		path = malloc(plen);
		if (path == NULL) {
			rc = -1;
			break;
		}
		snprintf(path, plen, "%s%s%s", dir,
		         dlen > 0 && dir[dlen - 1] == '/' ? "" : "/", names[i]);
		rc = add_entry(v, path, recurse);
		free(path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int add_path(struct verify *v, const char *path, int recurse)
{
	struct stat st;
	size_t before = v->nfiles;
	int rc;

	if (stat(path, &st) != 0) {
		verify_error(v, "%s: %s", cli_safe(path), strerror(errno));
		return EXIT_IO;
	}
	if (S_ISDIR(st.st_mode)) {
		if (is_acvp_dir(path))
			rc = add_file(v, path, F_ACVP, 0, -1) != 0 ? -1 : 0;
		else
			rc = scan_dir(v, path, recurse);
		if (rc < 0) {
			verify_error(v, "out of memory");
			return EXIT_IO;
		}
		if (rc != 0)
			return rc;
		if (v->nfiles == before) {
			verify_error(v, "%s: no vector files in this directory "
			             "(*.rsp, *.rsp.gz, QUIC *.txt, or an ACVP set: "
			             "prompt.json or internalProjection.json)",
			             cli_safe(path));
			return EXIT_USAGE;
		}
		return 0;
	}
	if (add_file(v, path, has_suffix(path, ".json") ? F_ACVP : F_VEC,
	             vec_format_of_name(path), -1) != 0) {
		verify_error(v, "out of memory");
		return EXIT_IO;
	}
	return 0;
}

/*
 * The vectors directory next to the program, where a build tree has the
 * source tree's (make links it there): the directory of /proc/self/exe,
 * or the one above it when that is libtool's .libs.  The real path, or
 * NULL.  No path of the build is compiled in: the binary stays the same
 * wherever it was built.
 */
static char *beside_program(void)
{
	char exe[4096], *slash, *dir;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	size_t len;

	if (n <= 0 || (size_t)n >= sizeof exe - 1)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash == NULL)
		return NULL;
	*slash = '\0';
	len = strlen(exe);
	if (len >= 6 && strcmp(exe + len - 6, "/.libs") == 0)
		exe[len - 6] = '\0';
	if (strlen(exe) + sizeof "/vectors" > sizeof exe)
		return NULL;
	strcat(exe, "/vectors");
	dir = realpath(exe, NULL);
	if (dir != NULL && !is_dir(dir)) {
		free(dir);
		dir = NULL;
	}
	return dir;
}

/* The default vector set: $AESECB_VECTORS, else the installed set, else
 * the source tree's next to the program. */
static int default_dir(struct verify *v)
{
	const char *env = getenv("AESECB_VECTORS");

	if (env != NULL && env[0] != '\0') {
		v->dir = env;
		v->dir_source = "from AESECB_VECTORS";
	} else if (is_dir(AESECB_VECTORS_INSTALLED)) {
		v->dir = AESECB_VECTORS_INSTALLED;
		v->dir_source = "installed";
	} else if ((v->dir_owned = beside_program()) != NULL) {
		v->dir = v->dir_owned;
		v->dir_source = "source tree";
	} else {
		verify_error(v, "no vector directory known: give a PATH or set "
		             "AESECB_VECTORS");
		return EXIT_USAGE;
	}
	return 0;
}

int verify_collect(struct verify *v, char **paths, size_t npaths)
{
	size_t i;
	int rc = 0;

	if (npaths == 0 && v->random)
		return 0;
	if (npaths == 0) {
		rc = default_dir(v);
		return rc != 0 ? rc : add_path(v, v->dir, 1);  /* and subdirectories */
	}
	for (i = 0; i < npaths && rc == 0; i++)
		rc = add_path(v, paths[i], 0);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Validation: every file read before anything is checked, each opened
 * once (see struct vfile) */

static int count_entry(void *arg, const struct vec_entry *e)
{
	(void)e;
	((struct vfile *)arg)->n++;
	return 0;
}

/* An ACVP set: loaded once, with its expected results, and kept until it
 * is checked. */
static int validate_acvp(struct verify *v, struct vfile *f)
{
	struct acvp_error err;

	f->set = malloc(sizeof *f->set);
	if (f->set == NULL) {
		verify_error(v, "out of memory");
		return EXIT_IO;
	}
	if (acvp_load(f->path, f->set, &err) != ACVP_OK) {
		free(f->set);
		f->set = NULL;
		return verify_acvp_failed(v, f->path, &err);
	}
	f->n = f->set->ntests;
	if (!f->set->has_answers) {
		verify_error(v, "%s: no expected results to check against "
		             "(expectedResults.json; 'aesecb acvp' answers a prompt)",
		             cli_safe(f->set->questions));
		return EXIT_USAGE;
	}
	return 0;
}

/* Whether the check can read the file again from its start. */
static int rereadable(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) ||
	                               S_ISBLK(st.st_mode)) &&
	       lseek(fd, 0, SEEK_CUR) == 0;
}

/* A response or QUIC file: opened (unless it is open already), read, and
 * kept open for the check; a pipe, FIFO or device, and a file with no
 * descriptor to spare, is validated when it is checked. */
static int validate_vec(struct verify *v, struct vfile *f)
{
	struct vec_info info;
	struct vec_error err;
	int r;

	if (f->fd < 0 && !fd_to_spare(v)) {
		f->streamed = 1;  /* opened when it is checked */
		return 0;
	}
	if (f->fd < 0) {
		if ((f->fd = open_input(f->path)) < 0 &&
		    (errno == EMFILE || errno == ENFILE)) {
			f->streamed = 1;
			return 0;
		}
		if (f->fd < 0) {
			verify_error(v, "%s: cannot open: %s",
			             cli_safe(f->path), strerror(errno));
			return EXIT_IO;
		}
		v->nopen++;
	}
	if (!rereadable(f->fd)) {
		f->streamed = 1;
		return 0;
	}
	f->n = 0;
	r = vec_read_fd(f->fd, f->path, f->format, count_entry, f, &info,
	                &err);
	if (r != VEC_OK)
		return verify_vec_failed(v, f->path, r, &err);
	f->format = info.format;
	f->kind = info.set;
	f->bytes = info.bytes;
	f->crc = info.crc;
	return 0;
}

int verify_validate(struct verify *v)
{
	size_t i;
	int status = 0;

	for (i = 0; i < v->nfiles; i++) {
		struct vfile *f = &v->files[i];
		int st = 0;

		if (f->type == F_ACVP)
			st = validate_acvp(v, f);
		else if (f->type == F_VEC)
			st = validate_vec(v, f);
		if (st != 0 && status == 0)
			status = st;
	}
	return status;
}

int verify_add_random(struct verify *v)
{
	if (!v->random)
		return 0;
	if (add_file(v, "(random)", F_RANDOM, 0, -1) != 0) {
		verify_error(v, "out of memory");
		return EXIT_IO;
	}
	v->files[v->nfiles - 1].n = v->random_n;
	return 0;
}
