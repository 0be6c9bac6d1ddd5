/* SPDX-License-Identifier: MIT */
/*
 * fuzz_vecfile.c - libFuzzer harness: the vector-file reader (vec_read,
 * vec_is_quic_file in cli/vectors/vecfile.c), on NIST CAVP response files and
 * QUIC header-protection files, plain and gzip-compressed.
 *
 *   byte 0    bit 0:    write the text as a gzip member (else plain)
 *             bits 1-2: file name: x.rsp, ECBMCT128.rsp, ECBMMT256.rsp,
 *                       hp.txt (".gz" added for gzip)
 *             bits 3-4: format asked for: auto, rsp, quic, auto
 *             bits 5-7: the callback stops at this entry (0: never)
 *   the rest  the file's text
 *
 * Every entry handed to the callback must keep the promises of vecfile.h
 * (key of 16, 24 or 32 bytes, text a whole number of blocks of at most
 * VEC_VALUE_MAX bytes, the QUIC fields present, lines in order); errors
 * must carry a message and, for malformed text, the line (1 to the
 * number of lines + 1).  The sanitizers catch overflows and leaks.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "vectors/vecfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char dir[64];

static void remove_dir(void)
{
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	strcpy(dir, "/tmp/fuzz-vecfile-XXXXXX");
	if (mkdtemp(dir) == NULL)
		abort();
	atexit(remove_dir);
	return 0;
}

struct seen {
	unsigned long entries, last_line;
	unsigned stop_at;
	int format;
};

static int entry(void *arg, const struct vec_entry *e)
{
	struct seen *s = arg;

	if (e->key == NULL ||
	    (e->key_len != 16 && e->key_len != 24 && e->key_len != 32) ||
	    e->line == 0 || e->line < s->last_line ||
	    e->set < 0 || e->set >= VEC_NSETS ||
	    (e->dir != VEC_ENCRYPT && e->dir != VEC_DECRYPT))
		abort();
	if (e->set == VEC_SET_QUIC) {
		if (e->sample == NULL || e->mask == NULL || e->dir != VEC_ENCRYPT)
			abort();
		/* touch every byte promised */
		if ((e->sample[15] ^ e->mask[4] ^ (e->block ? e->block[15] : 0) ^
		     e->key[e->key_len - 1]) == 0x100)
			abort();
	} else {
		if (e->plaintext == NULL || e->ciphertext == NULL ||
		    e->text_len < 16 || e->text_len % 16 != 0 ||
		    e->text_len > VEC_VALUE_MAX ||
		    (e->set == VEC_SET_MCT && e->text_len != 16))
			abort();
		if ((e->plaintext[e->text_len - 1] ^
		     e->ciphertext[e->text_len - 1] ^
		     e->key[e->key_len - 1]) == 0x100)
			abort();
	}
	s->last_line = e->line;
	s->entries++;
	return s->stop_at != 0 && s->entries == s->stop_at ? 7 : 0;
}

static void write_file(const char *path, int gz, const uint8_t *t, size_t n)
{
	if (gz) {
		gzFile g = gzopen(path, "wb");

		if (g == NULL || (n && gzwrite(g, t, (unsigned)n) != (int)n) ||
		    gzclose(g) != Z_OK)
			abort();
	} else {
		FILE *f = fopen(path, "wb");

		if (f == NULL || fwrite(t, 1, n, f) != n || fclose(f) != 0)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[4] = {
		"x.rsp", "ECBMCT128.rsp", "ECBMMT256.rsp", "hp.txt"
	};
	static const int formats[4] = {
		VEC_FMT_AUTO, VEC_FMT_RSP, VEC_FMT_QUIC, VEC_FMT_AUTO
	};
	char path[128];
	struct seen s;
	struct vec_info info;
	struct vec_error err;
	const uint8_t *t;
	size_t n, i;
	unsigned long lines;
	int gz, r, q;

	if (size < 1 || size > 200000)
		return 0;
	gz = data[0] & 1;
	t = data + 1;
	n = size - 1;
	snprintf(path, sizeof path, "%s/%s%s", dir, names[(data[0] >> 1) & 3],
	         gz ? ".gz" : "");
	write_file(path, gz, t, n);
	lines = 1;
	for (i = 0; i < n; i++)
		lines += t[i] == '\n';

	memset(&s, 0, sizeof s);
	s.stop_at = data[0] >> 5;
	memset(&info, 0x5a, sizeof info);
	memset(&err, 0x5a, sizeof err);
	r = vec_read(path, formats[(data[0] >> 3) & 3], entry, &s, &info, &err);
	if (r != err.code || memchr(err.msg, '\0', sizeof err.msg) == NULL)
		abort();
	switch (r) {
	case VEC_OK:
		if (info.entries != s.entries ||
		    (info.format != VEC_FMT_RSP && info.format != VEC_FMT_QUIC) ||
		    info.set < 0 || info.set >= VEC_NSETS)
			abort();
		break;
	case VEC_EFORMAT:
		if (err.msg[0] == '\0' || err.line == 0 || err.line > lines)
			abort();
		break;
	case VEC_ESTOPPED:
		if (err.stop != 7 || s.entries != s.stop_at)
			abort();
		break;
	default:
		/* no I/O error on a file just written, no lack of memory */
		abort();
	}
	q = vec_is_quic_file(path, NULL);
	if (q != 0 && q != 1)
		abort();
	if (unlink(path) != 0)
		abort();
	return 0;
}
