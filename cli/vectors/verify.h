/* SPDX-License-Identifier: MIT */
/*
 * verify.h - the state of 'aesecb verify', shared by its parts:
 *   cmd_verify.c     options, then collect, run, report in that order;
 *   verify_files.c   collecting the vector files and validating them;
 *   verify_check.c   running every entry under every backend, and the
 *                    failures it finds;
 *   verify_report.c  the messages, the text report and the JSON report.
 *
 * What is checked:
 *   KAT, MMT  one aesecb_encrypt/aesecb_decrypt call over the whole text;
 *   MCT       the AESAVS Monte Carlo inner loop of 1000 one-block calls
 *             from the entry's KEY and input, compared with its result;
 *             and, where the previous entry of the section passed and has
 *             the previous COUNT, the entry's KEY and input must follow
 *             from it by the key update rule (ACVP: the whole chain of
 *             100 iterations, see acvp.h);
 *   QUIC      aesecb_hp_mask against MASK, and aesecb_encrypt against
 *             BLOCK when the record has one;
 *   AFT       ACVP: one call over the test's blocks;
 *   RANDOM    the same random case under every available backend: each
 *             result must equal every other backend's.
 * Only the first SHOW_MAX failures per backend and file are kept (and
 * shown, and listed by --json); the rest are counted.
 */
#ifndef AESECB_CLI_VERIFY_H
#define AESECB_CLI_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "aesecb.h"
#include "vectors/mct.h"
#include "vectors/randvec.h"
#include "vectors/vecfile.h"

/* Failures kept (printed, listed by --json) per backend and file; the
 * rest are counted. */
#define SHOW_MAX 10
/* Messages kept for the --json report of an error. */
#define ERR_MAX 16

struct acvp_set;

/* Kinds of vectors: the columns of the report.  The first four are the
 * vecfile sets (enum vec_set). */
enum {
	K_KAT = VEC_SET_KAT, K_MMT = VEC_SET_MMT, K_MCT = VEC_SET_MCT,
	K_QUIC = VEC_SET_QUIC, K_AFT = VEC_NSETS, K_RANDOM, NKINDS
};
extern const char *const verify_kind_names[NKINDS];

enum ftype { F_VEC, F_ACVP, F_RANDOM };

/*
 * Each file is opened once.  A response or QUIC file's descriptor stays
 * open from validation to the check, which reads it again from the start
 * (and must find the same bytes: a file that changed in between is an
 * error).  A pipe, a FIFO or a device cannot be read twice: it is
 * validated as it is checked ("streamed"), and so is a file for which no
 * descriptor is to spare: past the process's limit on open files, less a
 * reserve for everything else (opened at the check).  An ACVP set is loaded once,
 * by validation, and kept until it is checked.
 */
struct vfile {
	char *path;
	int type;             /* enum ftype */
	int format;           /* F_VEC: enum vec_format */
	int kind;             /* F_VEC: its kind; else -1 (several) */
	unsigned long n;      /* entries (ACVP: tests; RANDOM: cases) */
	unsigned long good;   /* entries that passed under every backend */
	int fd;               /* F_VEC: open until checked, or -1 */
	int streamed;         /* F_VEC: validated as it is checked */
	unsigned long long bytes;  /* F_VEC: what validation read, */
	unsigned long crc;         /* and its CRC-32 */
	struct acvp_set *set; /* F_ACVP: loaded by validation */
};

/* One failure, self-contained (nothing points into a file's entries). */
struct failure {
	size_t file;
	int kind;
	unsigned long line;       /* 0: none */
	char where[96];           /* "[ENCRYPT] COUNT = 3", "tgId 4, tcId 6" */
	const char *section;      /* "ENCRYPT", "DECRYPT" or NULL */
	unsigned long count;      /* COUNT, QUIC record, random case */
	unsigned long tgid, tcid; /* ACVP */
	char jpath[160];          /* ACVP: JSON path of the expected value */
	char field[16];
	uint8_t expected[16], actual[16];  /* the block shown (vlen bytes) */
	size_t vlen;                     /* 0: none */
	size_t block, nblocks;    /* that block (1-based) of nblocks */
	long outer, inner;        /* Monte Carlo iterations, or -1 */
	const char *ref;          /* backend that located the inner one, or
	                             the backend a random result differs from */
	char note[160];
};

/* One backend's run. */
struct brun {
	const aesecb_backend *be;
	unsigned long pass[NKINDS], total[NKINDS];
	unsigned long *file_pass;
	unsigned long *file_fail;   /* failures per file (kept or not) */
	struct failure *f;          /* kept: at most SHOW_MAX per file */
	size_t nf, capf;
	double seconds;
	struct mct_chain chain;     /* the current response file's */
};

struct verify {
	struct vfile *files;
	size_t nfiles, capfiles;
	size_t nopen;                     /* descriptors the files keep
	                                     (counted until the check) */
	/* the backends run, skipped, and every available one (for the
	   random cases): room for every backend of the library */
	struct brun *runs;
	size_t nruns;
	const aesecb_backend **skipped;
	size_t nskipped;
	const aesecb_backend **avail;
	size_t navail;
	const char *dir, *dir_source;     /* default vector set, if used */
	char *dir_owned;                  /* dir, when allocated */
	int json, quiet;
	int random;                       /* --random given */
	unsigned long random_n;
	uint64_t seed;
	/* errors, for --json */
	char *errors[ERR_MAX];
	size_t nerrors;
	/* the file being checked */
	size_t cur;
	int oom;
	uint8_t out[VEC_VALUE_MAX > RV_OUT_MAX ? VEC_VALUE_MAX : RV_OUT_MAX];
};

/* verify_files.c: the files of each PATH (paths NULL: the default vector
 * set, with its subdirectories), or those of the random cases; then every
 * file validated, so that a malformed one stops the run before any
 * backend is tried (but a streamed one, see struct vfile).  Return 0 or
 * an exit status after the message. */
int verify_collect(struct verify *v, char **paths, size_t npaths);
int verify_validate(struct verify *v);
int verify_add_random(struct verify *v);

/* verify_check.c: every file under every backend run; failures are kept
 * and reported as they are found.  Returns 0 or an exit status. */
int verify_run(struct verify *v);
void verify_free(struct verify *v);

/* verify_report.c */
/* An error: printed as always, and kept for the --json report. */
void verify_error(struct verify *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A file that vec_read() or acvp_load() refused: the message, and the
 * exit status it means. */
struct acvp_error;
int verify_vec_failed(struct verify *v, const char *path, int r,
                      const struct vec_error *err);
int verify_acvp_failed(struct verify *v, const char *path,
                       struct acvp_error *err);
/* The line on stderr for a failure fl of run b. */
void verify_failure_line(const struct verify *v, const struct brun *b,
                         const struct failure *fl);
/* Entries over all files, and those that passed under every backend. */
unsigned long verify_entries(const struct verify *v);
unsigned long verify_good(const struct verify *v);
/* The report on stdout: text (the matrix unless quiet, and the summary)
 * or JSON; status is the exit status so far.  Returns 0 or EXIT_IO. */
int verify_report(const struct verify *v, int status);

#endif
