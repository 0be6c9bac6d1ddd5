/* SPDX-License-Identifier: MIT */
/*
 * vecfile.h - reader for known-answer vector files.
 *
 * Two formats:
 *   - NIST CAVP response files (.rsp, or .rsp.gz): sections [ENCRYPT] and
 *     [DECRYPT] holding entries of COUNT, KEY, PLAINTEXT and CIPHERTEXT;
 *   - QUIC header-protection files (.txt): records of HP_KEY, SAMPLE,
 *     MASK and an optional BLOCK.
 * Either may be gzip-compressed (one member or several, concatenated);
 * bytes after the last member are an error.
 *
 * The reader does no cryptography: it hands each complete, validated entry
 * to a callback.  The Monte Carlo test itself is in mct.h.
 */
#ifndef AESECB_VECFILE_H
#define AESECB_VECFILE_H

#include <stddef.h>
#include <stdint.h>

#include "aesecb.h"

/* Longest line accepted, not counting the line ending. */
#define VEC_LINE_MAX      (65536 + 256)
/* Longest value accepted: hex digits, and the bytes they spell. */
#define VEC_VALUE_MAX_HEX 65536
#define VEC_VALUE_MAX     (VEC_VALUE_MAX_HEX / 2)

/* File formats. */
enum vec_format {
	VEC_FMT_AUTO = 0,  /* decided by the first field or section line */
	VEC_FMT_RSP,
	VEC_FMT_QUIC
};

/* Vector sets, i.e. how the entries of a file are checked. */
enum vec_set {
	VEC_SET_KAT = 0,   /* known answer: one AES call over the whole text */
	VEC_SET_MMT,       /* multi-block message: checked like KAT */
	VEC_SET_MCT,       /* Monte Carlo: 1000 chained one-block calls */
	VEC_SET_QUIC,      /* header-protection mask (and full block) */
	VEC_NSETS
};

enum vec_dir {
	VEC_ENCRYPT = 0,
	VEC_DECRYPT = 1
};

/* One entry, valid only during the callback. */
struct vec_entry {
	int set;                  /* enum vec_set */
	int dir;                  /* enum vec_dir (VEC_ENCRYPT for QUIC) */
	unsigned long count;      /* COUNT; for QUIC the record number from 1 */
	unsigned long line;       /* line of the entry's first field */
	const uint8_t *key;       /* KEY or HP_KEY */
	size_t key_len;           /* 16, 24 or 32 */
	/* response files */
	const uint8_t *plaintext;
	const uint8_t *ciphertext;
	size_t text_len;          /* a whole number of blocks, >= 16 */
	/* QUIC files */
	const uint8_t *sample;    /* 16 bytes */
	const uint8_t *mask;      /* 5 bytes */
	const uint8_t *block;     /* 16 bytes, or NULL when absent */
};

/*
 * Called once per entry in file order.  Returning nonzero stops the read;
 * vec_read() then returns VEC_ESTOPPED and the value is in err->stop.
 */
typedef int vec_entry_fn(void *arg, const struct vec_entry *e);

/* Results of vec_read(): 0 or negative. */
#define VEC_OK        0
#define VEC_EFORMAT   (-1)  /* malformed file (or corrupt/truncated gzip) */
#define VEC_EIO       (-2)  /* cannot open or read */
#define VEC_ENOMEM    (-3)
#define VEC_ESTOPPED  (-4)  /* the callback asked to stop */

struct vec_error {
	int code;                 /* one of the above */
	unsigned long line;       /* 0 when the error has no line */
	int stop;                 /* the callback's return value */
	char msg[200];            /* what went wrong, without file or line */
};

/* What vec_read() learnt about the file. */
struct vec_info {
	int format;               /* VEC_FMT_RSP or VEC_FMT_QUIC */
	int set;                  /* enum vec_set */
	unsigned long entries;
	unsigned long lines;
	unsigned long long bytes; /* read from the file (compressed) */
	unsigned long crc;        /* CRC-32 of those bytes (zlib's crc32) */
};

/*
 * Read the file at path.  format is VEC_FMT_AUTO, or the format the file
 * must have.  info may be NULL.  Returns VEC_OK or an error code (also in
 * err->code), with err->msg and err->line describing it.  Key bytes are
 * wiped before returning and never appear in messages.
 */
int vec_read(const char *path, int format, vec_entry_fn *fn, void *arg,
             struct vec_info *info, struct vec_error *err);

/* The same from an open descriptor, from where it stands to its end (a
 * pipe, a FIFO, or a file the caller rewound); path is for messages only
 * and may be NULL.  The descriptor is left open. */
int vec_read_fd(int fd, const char *path, int format, vec_entry_fn *fn,
                void *arg, struct vec_info *info, struct vec_error *err);

/*
 * The set a response file belongs to, from its name and header comments
 * (the '#' lines before the first section).  Rules, case-insensitive:
 *   MCT    the name contains "MCT", or a header line contains the word
 *          "MCT" or "Monte Carlo";
 *   MMT    the name contains "MMT", or a header line contains the word
 *          "MMT";
 *   KAT    the name contains "GFSbox", "KeySbox", "VarKey", "VarTxt" or
 *          "KAT", or a header line contains one of those words;
 *   none of these: KAT.
 * If the name and the header name different sets, returns -1.
 * header is the header comment text, lines separated by '\n' (may be NULL).
 */
int vec_classify(const char *path, const char *header);

/* Format implied by a file name: VEC_FMT_RSP for .rsp/.rsp.gz, VEC_FMT_QUIC
 * for .txt/.txt.gz, else VEC_FMT_AUTO. */
int vec_format_of_name(const char *path);

/*
 * Whether path looks like a QUIC header-protection file: its first line
 * that is neither blank nor a comment is an HP_KEY, SAMPLE, MASK or BLOCK
 * field (names in any case, as vec_read accepts them).  Used to pick
 * vector files out of a directory.  Returns 1 or 0; VEC_EIO (or
 * VEC_ENOMEM) when the file cannot be opened or read, with the reason in
 * *err (err may be NULL).
 */
int vec_is_quic_file(const char *path, struct vec_error *err);
/* The same from an open descriptor (read from where it stands; the
 * caller rewinds it to read the file). */
int vec_is_quic_fd(int fd, struct vec_error *err);

/* "KAT", "MMT", "MCT", "QUIC". */
const char *vec_set_name(int set);

#endif /* AESECB_VECFILE_H */
