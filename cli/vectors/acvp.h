/* SPDX-License-Identifier: MIT */
/*
 * acvp.h - NIST ACVP vector sets for AES-ECB (algorithm "ACVP-AES-ECB",
 * revision "1.0"), read with jansson.
 *
 * A vector set is read from
 *   - a directory holding prompt.json (the questions) and, if present,
 *     expectedResults.json (the answers, matched by tgId and tcId), or
 *     else internalProjection.json (questions and answers in one file);
 *   - prompt.json or expectedResults.json named directly (the other one is
 *     looked for next to it);
 *   - any other JSON file holding a vector set: its tests may carry the
 *     answers themselves, as internalProjection.json does.
 * Each file is the bare vector-set object or the protocol's array form
 * [{"acvVersion": "1.0"}, {vector set}].  Hex is accepted in either case.
 *
 * Test types: AFT (one call over 1 or more blocks) and MCT (the AESAVS
 * Monte Carlo test: "resultsArray" of 100 {key, pt, ct}), directions
 * encrypt and decrypt, keyLen 128, 192 and 256.
 *
 * Memory: each file is parsed into a jansson tree and decoded group by
 * group, each group's subtree freed once decoded, so the decoded set
 * mostly reuses the tree's memory; at most one tree is held at a time.  A
 * set of NIST's shape costs about 4 times its file's size at the peak.
 * Whatever the text, the trees and the decoded sets together never hold
 * more than acvp_memory_limit() bytes (blocks counted with their
 * overhead): past it a load fails with ACVP_ETOOBIG ("too large").  A
 * malloc that fails is ACVP_ENOMEM, never a syntax error.  Everything
 * jansson and the decoding allocated is wiped when it is freed.
 */
#ifndef AESECB_ACVP_H
#define AESECB_ACVP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aesecb.h"

#define ACVP_ALGORITHM "ACVP-AES-ECB"
#define ACVP_REVISION  "1.0"
#define ACVP_MCT_OUTER 100

/* Results of the functions below: 0 or negative. */
#define ACVP_OK        0
#define ACVP_EFORMAT   (-1)  /* malformed JSON or not a valid vector set */
#define ACVP_EIO       (-2)  /* a file cannot be opened, read or written */
#define ACVP_ENOMEM    (-3)
#define ACVP_ENOANSWER (-4)  /* acvp_check(): the set has no expected results */
#define ACVP_ECRYPT    (-5)  /* the library refused a key or the backend */
#define ACVP_ESTOPPED  (-6)  /* acvp_check(): the callback asked to stop */
#define ACVP_ETOOBIG   (-7)  /* the memory limit would be passed */

/*
 * The memory limit (see above).  By default it follows the input: 64 MiB
 * (ACVP_MEMORY_BASE), plus 8 bytes (ACVP_MEMORY_PER_BYTE) for every byte
 * of each regular file loaded, plus 1 GiB (ACVP_MEMORY_STREAM) for each
 * input that is not a regular file (a pipe: no size to go by); a set of
 * NIST's shape needs about 4 bytes a byte.  acvp_set_memory_limit(n)
 * fixes it at n bytes instead, and n == 0 returns to the default (as it
 * was before any file was loaded).  cli_acvp_memory_env() fixes it from
 * $AESECB_ACVP_MEMORY (MiB, decimal, 1 to SIZE_MAX / 2^20: 2^44 - 1 on a
 * 64-bit system) when that is set and not empty, read once: 0, or
 * EXIT_USAGE after the message (not a number, or too large; the limit is
 * then unchanged); the one function of this module that prints, shared
 * by acvp and verify.  acvp_memory_limit() is the limit now.
 */
#define ACVP_MEMORY_BASE     ((size_t)64 << 20)
#define ACVP_MEMORY_PER_BYTE 8
#define ACVP_MEMORY_STREAM   ((size_t)1 << 30)
void acvp_set_memory_limit(size_t bytes);
size_t acvp_memory_limit(void);
int cli_acvp_memory_env(void);

struct acvp_error {
	int code;              /* one of the above */
	char *file;            /* the file concerned, whole (allocated: see
	                          acvp_error_free()), or NULL */
	char where[160];       /* JSON path, e.g. "testGroups[3].tests[7].pt",
	                          or "line 12, column 5" for a syntax error,
	                          or "" */
	char msg[200];         /* what went wrong; never holds key bytes */
	int stop;              /* ACVP_ESTOPPED: the callback's value */
};

enum acvp_type { ACVP_AFT = 0, ACVP_MCT = 1 };

/* One Monte Carlo outer iteration as the expected results give it. */
struct acvp_mct_step {
	uint8_t key[32];
	uint8_t pt[16];
	uint8_t ct[16];
};

struct acvp_test {
	unsigned long tcid;
	uint8_t key[32];            /* key_len bytes (the group's) */
	uint8_t *in;                /* pt (encrypt) or ct (decrypt) */
	uint8_t *expect;            /* AFT: the expected output, len bytes,
	                               or NULL when the set has no answer */
	size_t len;                 /* bytes of in (16 for MCT) */
	struct acvp_mct_step *mct;  /* MCT: ACVP_MCT_OUTER expected
	                               iterations, or NULL */
	/* where the test is, for messages: its index in its group in the
	   questions file; the group and test index of its answer in the
	   answers file (a_group (size_t)-2: answered in the questions
	   file; (size_t)-1: no answer) */
	size_t q_index, a_group, a_index;
};

struct acvp_group {
	unsigned long tgid;
	int type;                   /* enum acvp_type */
	int decrypt;                /* direction: 0 encrypt, 1 decrypt */
	size_t key_len;             /* bytes: 16, 24 or 32 */
	struct acvp_test *tests;
	size_t ntests;
	size_t q_index;             /* index in testGroups[] of the
	                               questions file */
};

struct acvp_set {
	long long vsid;
	int is_sample;              /* -1 absent, else 0 or 1 */
	int array_form;             /* the questions came as
	                               [{"acvVersion": ...}, {...}] */
	char *acv_version;          /* its "acvVersion", or NULL */
	char *questions;            /* path of the questions file */
	char *answers;              /* path of a separate answers file,
	                               or NULL */
	int answers_array_form;     /* that file is in the array form */
	int has_answers;            /* every test has its expected result */
	struct acvp_group *groups;
	size_t ngroups;
	size_t ntests;              /* over all groups */
};

/*
 * Read a vector set from path (a directory or a file, see above) into set
 * (which need not be initialised).  Returns ACVP_OK, or an error code (also
 * in err->code) with err describing it; set is then empty.
 */
int acvp_load(const char *path, struct acvp_set *set, struct acvp_error *err);

/*
 * The same with the two files named: questions (a prompt or a file holding
 * its own answers) and answers (expectedResults.json, or NULL for none).
 */
int acvp_load_files(const char *questions, const char *answers,
                    struct acvp_set *set, struct acvp_error *err);

/*
 * err as one line for a message, "FILE: WHERE: MSG" (or "FILE: MSG"),
 * every part made printable and nothing cut; FILE is err->file, or path
 * when err names no file.  In memory the caller frees; NULL when out of
 * memory.
 */
char *acvp_strerror(const struct acvp_error *err, const char *path);

/* Free what a failure left in err (its file name).  The functions that
 * take an err start by clearing it. */
void acvp_error_free(struct acvp_error *err);

/* Free what acvp_load() allocated, wiping keys; set becomes empty. */
void acvp_free(struct acvp_set *set);

/* A test that did not give the expected result. */
struct acvp_failure {
	const struct acvp_group *group;
	const struct acvp_test *test;
	unsigned long tgid, tcid;
	long iteration;             /* MCT outer iteration 0..99, or -1 */
	const char *field;          /* "ct", "pt" or "key" */
	const char *path;           /* JSON path of the expected value in the
	                               answers file, e.g.
	                               "testGroups[4].tests[0].resultsArray[17].ct" */
	/* the expected and computed values, len bytes; NULL for "key" (keys
	   are never reported) */
	const uint8_t *expected, *actual;
	size_t len;
};

/* Called once per failed test; returning nonzero stops acvp_check()
 * (ACVP_ESTOPPED). */
typedef int acvp_fail_fn(void *arg, const struct acvp_failure *f);

struct acvp_counts {
	unsigned long aft, mct;           /* tests run */
	unsigned long aft_pass, mct_pass; /* of those, passed */
};

/*
 * Run every test of set under backend be and compare with the expected
 * results; fn (may be NULL) hears of each failure, at the first field
 * that differs (for MCT: the first iteration, and in it key, then the
 * input, then the output).  counts may be NULL.  Returns ACVP_OK (whether
 * or not tests failed: see counts), ACVP_ENOANSWER, ACVP_ECRYPT (with
 * err->msg from the library), ACVP_ENOMEM, or ACVP_ESTOPPED when the
 * callback stopped the run.
 */
int acvp_check(const struct acvp_set *set, const aesecb_backend *be,
               acvp_fail_fn *fn, void *arg, struct acvp_counts *counts,
               struct acvp_error *err);

/*
 * Answer the questions of set under backend be: write the response vector
 * set (vsId, algorithm, revision, isSample when the prompt has it,
 * testGroups[].tests[] with tcId and ct or pt, or resultsArray for MCT) to
 * out as JSON, in the form of the prompt (bare object or array with its
 * acvVersion), hex in upper case, indented by 2 as NIST writes it.  The
 * expected results of set, if any, are not used.  Returns ACVP_OK,
 * ACVP_EIO (a write failed; err->msg says why), ACVP_ECRYPT or
 * ACVP_ENOMEM.  out_name is used in messages only.  On failure out may
 * hold part of the answer: the caller discards it.
 */
int acvp_answer(const struct acvp_set *set, const aesecb_backend *be,
                FILE *out, const char *out_name, struct acvp_error *err);

#endif /* AESECB_ACVP_H */
