/* SPDX-License-Identifier: MIT */
/*
 * vecfile.c - reader for NIST CAVP response files and QUIC
 * header-protection vector files, plain or gzip-compressed.
 *
 * The file is read from a descriptor with read(2) and, when it starts
 * with the gzip magic bytes, inflated with zlib's inflate() member by
 * member, so that a corrupt or truncated member and bytes after the last
 * member are errors (gzread() passes over trailing bytes without a word).
 * Lines are assembled by hand, so that a line longer than VEC_LINE_MAX or
 * a NUL byte is reported instead of being cut short or read past.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <zlib.h>

#include "common/hex.h"
#include "common/num.h"
#include "vectors/vecfile.h"

/* Fields, as bits of the set seen in the current entry. */
enum {
	F_COUNT = 1u << 0,
	F_KEY = 1u << 1,
	F_PLAINTEXT = 1u << 2,
	F_CIPHERTEXT = 1u << 3,
	F_HP_KEY = 1u << 4,
	F_SAMPLE = 1u << 5,
	F_MASK = 1u << 6,
	F_BLOCK = 1u << 7
};

#define RSP_FIELDS (F_COUNT | F_KEY | F_PLAINTEXT | F_CIPHERTEXT)
#define QUIC_FIELDS (F_HP_KEY | F_SAMPLE | F_MASK | F_BLOCK)
#define QUIC_REQUIRED (F_HP_KEY | F_SAMPLE | F_MASK)

static const struct field {
	const char *name;
	unsigned bit;
} fields[] = {
	{ "COUNT", F_COUNT },
	{ "KEY", F_KEY },
	{ "PLAINTEXT", F_PLAINTEXT },
	{ "CIPHERTEXT", F_CIPHERTEXT },
	{ "HP_KEY", F_HP_KEY },
	{ "SAMPLE", F_SAMPLE },
	{ "MASK", F_MASK },
	{ "BLOCK", F_BLOCK },
};

#define NFIELDS (sizeof fields / sizeof fields[0])

#define HEADER_MAX 4096

/* How the bytes of the file are read. */
enum { IN_UNKNOWN, IN_PLAIN, IN_GZIP };

struct parser {
	/* input: the file's bytes (raw), then the text (buf) */
	int fd;
	const char *path;
	int mode;                 /* IN_*: decided by the first two bytes */
	unsigned char raw[16384];
	size_t raw_pos, raw_len;
	int raw_eof;
	z_stream z;
	int z_live;               /* inflateInit2 done */
	int member_end;           /* a gzip member ended: another or the end */
	unsigned long long raw_total;  /* bytes read from the file */
	unsigned long raw_crc;    /* their CRC-32 */
	unsigned char buf[16384];
	size_t pos, len;
	int eof;
	unsigned long lineno;
	char line[VEC_LINE_MAX + 1];
	size_t line_len;

	/* file */
	int format;
	int set;
	int decided;              /* format and set are known */
	int section;              /* -1 before the first section */
	char header[HEADER_MAX];  /* header comments, for the set */
	size_t header_len;
	unsigned long entries;

	/* current entry */
	unsigned have;
	unsigned long entry_line;
	unsigned long count;
	uint8_t key[32];
	size_t key_len;
	uint8_t pt[VEC_VALUE_MAX];
	size_t pt_len;
	uint8_t ct[VEC_VALUE_MAX];
	size_t ct_len;
	uint8_t sample[16];
	uint8_t mask[5];
	uint8_t block[16];

	vec_entry_fn *fn;
	void *arg;
	struct vec_error *err;
};

static int fail(struct parser *p, int code, unsigned long line,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(struct parser *p, int code, unsigned long line,
                const char *fmt, ...)
{
	va_list ap;

	p->err->code = code;
	p->err->line = line;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
	va_end(ap);
	return code;
}

/* ------------------------------------------------------------------ */
/* Input */

/* More bytes of the file into raw, after those not used yet.  Returns 1,
 * 0 at the end of the file, or VEC_EIO. */
static int read_raw(struct parser *p)
{
	ssize_t n;

	if (p->raw_pos == p->raw_len)
		p->raw_pos = p->raw_len = 0;
	if (p->raw_eof)
		return 0;
	do
		n = read(p->fd, p->raw + p->raw_len, sizeof p->raw - p->raw_len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(p, VEC_EIO, 0, "read error: %s", strerror(errno));
	if (n == 0) {
		p->raw_eof = 1;
		return 0;
	}
	p->raw_total += (size_t)n;
	p->raw_crc = crc32(p->raw_crc, p->raw + p->raw_len, (uInt)n);
	p->raw_len += (size_t)n;
	return 1;
}

/* zlib's memory, wiped when it is freed: its window holds the text of
 * the file, keys included.  Each block has its size in front. */
union zhead {
	max_align_t align;
	size_t size;
};

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
	union zhead *h;
	size_t n;

	(void)opaque;
	if (size != 0 && items > (SIZE_MAX - sizeof *h) / size)
		return Z_NULL;
	n = (size_t)items * size;
	h = malloc(sizeof *h + n);
	if (h == NULL)
		return Z_NULL;
	h->size = n;
	return h + 1;
}

static void z_free(voidpf opaque, voidpf p)
{
	union zhead *h;

	(void)opaque;
	if (p == Z_NULL)
		return;
	h = (union zhead *)p - 1;
	aesecb_wipe(h, sizeof *h + h->size);
	free(h);
}

/* Plain or gzip, from the first two bytes (a file of one byte is plain). */
static int decide_mode(struct parser *p)
{
	int r = 1;

	while (p->raw_len - p->raw_pos < 2 && (r = read_raw(p)) > 0)
		;
	if (r < 0)
		return r;
	p->mode = p->raw_len - p->raw_pos >= 2 && p->raw[p->raw_pos] == 0x1f &&
	          p->raw[p->raw_pos + 1] == 0x8b ? IN_GZIP : IN_PLAIN;
	if (p->mode == IN_GZIP) {
		memset(&p->z, 0, sizeof p->z);
		p->z.zalloc = z_alloc;
		p->z.zfree = z_free;
		r = inflateInit2(&p->z, 16 + MAX_WBITS);  /* gzip only */
		if (r == Z_MEM_ERROR)
			return fail(p, VEC_ENOMEM, 0, "out of memory");
		if (r != Z_OK)
			return fail(p, VEC_EFORMAT, 0, "cannot start zlib "
			            "(status %d)", r);
		p->z_live = 1;
	}
	return 0;
}

/* After a gzip member: the end of the file, or another member.  Returns
 * 1 (another member follows), 0 (the end) or an error. */
static int next_member(struct parser *p)
{
	int r;

	while (p->raw_pos == p->raw_len)
		if ((r = read_raw(p)) <= 0)
			return r;
	/* its first byte here; the second is checked by inflate */
	if (p->raw[p->raw_pos] != 0x1f)
		return fail(p, VEC_EFORMAT, p->lineno + 1, "trailing data after "
		            "the gzip stream (byte %llu of the file is not the "
		            "start of another gzip member)",
		            p->raw_total - (p->raw_len - p->raw_pos) + 1);
	if (inflateReset(&p->z) != Z_OK)
		return fail(p, VEC_EFORMAT, p->lineno + 1, "corrupt gzip data");
	p->member_end = 0;
	return 1;
}

/* Text from a gzip file into buf.  Returns 1 with data, 0 at the end, or
 * an error. */
static int fill_gzip(struct parser *p)
{
	int r;

	for (;;) {
		if (p->member_end) {
			if ((r = next_member(p)) <= 0)
				return r;
		}
		if (p->raw_pos == p->raw_len) {
			if ((r = read_raw(p)) < 0)
				return r;
			if (r == 0)
				return fail(p, VEC_EFORMAT, p->lineno + 1,
				            "truncated gzip data (unexpected end "
				            "of file)");
		}
		p->z.next_in = p->raw + p->raw_pos;
		p->z.avail_in = (uInt)(p->raw_len - p->raw_pos);
		p->z.next_out = p->buf;
		p->z.avail_out = (uInt)sizeof p->buf;
		r = inflate(&p->z, Z_NO_FLUSH);
		p->raw_pos = p->raw_len - p->z.avail_in;
		p->len = sizeof p->buf - p->z.avail_out;
		p->pos = 0;
		if (r == Z_STREAM_END)
			p->member_end = 1;
		else if (r == Z_MEM_ERROR)
			return fail(p, VEC_ENOMEM, 0, "out of memory");
		else if (r != Z_OK && r != Z_BUF_ERROR)
			return fail(p, VEC_EFORMAT, p->lineno + 1,
			            "corrupt gzip data (%s)", p->z.msg != NULL ?
			            p->z.msg : "unknown zlib error");
		if (p->len > 0)
			return 1;
	}
}

/* Refill the text buffer.  Returns 1 with data, 0 at end, or an error. */
static int fill(struct parser *p)
{
	int r;

	if (p->eof)
		return 0;
	if (p->mode == IN_UNKNOWN && (r = decide_mode(p)) < 0)
		return r;
	if (p->mode == IN_GZIP) {
		r = fill_gzip(p);
	} else if (p->raw_pos < p->raw_len || (r = read_raw(p)) > 0) {
		memcpy(p->buf, p->raw + p->raw_pos, p->raw_len - p->raw_pos);
		p->pos = 0;
		p->len = p->raw_len - p->raw_pos;
		p->raw_pos = p->raw_len;
		r = 1;
	}
	if (r == 0)
		p->eof = 1;
	return r;
}

/*
 * Next line into p->line (NUL-terminated, line ending removed).  Returns
 * 1 with a line, 0 at end of file, or a negative error.
 */
static int next_line(struct parser *p)
{
	int r;

	p->line_len = 0;
	for (;;) {
		unsigned char *s, *nl;
		size_t avail, take;

		if (p->pos == p->len) {
			r = fill(p);
			if (r < 0)
				return r;
			if (r == 0) {
				if (p->line_len == 0)
					return 0;
				break;  /* last line without a newline */
			}
		}
		s = p->buf + p->pos;
		avail = p->len - p->pos;
		nl = memchr(s, '\n', avail);
		take = nl != NULL ? (size_t)(nl - s) : avail;
		if (take > VEC_LINE_MAX - p->line_len)
			return fail(p, VEC_EFORMAT, p->lineno + 1,
			             "line too long (over %d characters)",
			             VEC_LINE_MAX);
		memcpy(p->line + p->line_len, s, take);
		p->line_len += take;
		p->pos += take;
		if (nl != NULL) {
			p->pos++;
			break;
		}
	}
	p->lineno++;
	p->line[p->line_len] = '\0';
	if (memchr(p->line, '\0', p->line_len) != NULL)
		return fail(p, VEC_EFORMAT, p->lineno,
		             "NUL byte in line: not a text file");
	return 1;
}

/* ------------------------------------------------------------------ */
/* Hex */

/*
 * Decode the hex value s[0..n) of field name into out (room bytes; bytes
 * past room are counted, not stored): digits only, an even number of
 * them, and at most max bytes.  Returns the byte count, or -1 after
 * recording the error.
 */
static long hex_value(struct parser *p, const char *name, const char *s,
                      size_t n, uint8_t *out, size_t room, size_t max)
{
	struct cli_hex h;
	int r = cli_hex_decode(&h, CLI_HEX_COUNT, out, room, s, n);

	if (r == CLI_HEX_BAD) {
		fail(p, VEC_EFORMAT, p->lineno,
		     "%s: invalid hex digit at character %llu of the value",
		     name, h.chars + 1);
		return -1;
	}
	if (r == CLI_HEX_ODD) {
		fail(p, VEC_EFORMAT, p->lineno,
		     "%s: odd number of hex digits (%llu)", name, h.digits);
		return -1;
	}
	if (h.digits / 2 > max) {
		fail(p, VEC_EFORMAT, p->lineno,
		     "%s: value too long (%llu bytes; at most %zu)", name,
		     h.digits / 2, max);
		return -1;
	}
	return (long)(h.digits / 2);
}

/* ------------------------------------------------------------------ */
/* Set classification */

static int lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

static int is_alnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/*
 * Whether text contains word (case-insensitive); whole_word: the match
 * must not touch a letter or digit on either side.
 */
static int contains(const char *text, const char *word, int whole_word)
{
	size_t n = strlen(word), i, k;

	if (text == NULL)
		return 0;
	for (i = 0; text[i] != '\0'; i++) {
		for (k = 0; k < n; k++)
			if (text[i + k] == '\0' ||
			    lower((unsigned char)text[i + k]) !=
			    lower((unsigned char)word[k]))
				break;
		if (k < n)
			continue;
		if (!whole_word)
			return 1;
		if ((i == 0 || !is_alnum((unsigned char)text[i - 1])) &&
		    !is_alnum((unsigned char)text[i + n]))
			return 1;
	}
	return 0;
}

static const struct set_word {
	const char *word;
	int set;
} set_words[] = {
	{ "MCT", VEC_SET_MCT },
	{ "Monte Carlo", VEC_SET_MCT },
	{ "MMT", VEC_SET_MMT },
	{ "KAT", VEC_SET_KAT },
	{ "GFSbox", VEC_SET_KAT },
	{ "KeySbox", VEC_SET_KAT },
	{ "VarKey", VEC_SET_KAT },
	{ "VarTxt", VEC_SET_KAT },
};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

int vec_classify(const char *path, const char *header)
{
	unsigned seen = 0;
	size_t i;
	const char *base = path != NULL ? base_name(path) : NULL;

	for (i = 0; i < sizeof set_words / sizeof set_words[0]; i++) {
		/* "Monte Carlo" is a header phrase, not part of file names;
		 * names are matched anywhere ("ECBMCT128.rsp"), header
		 * text by whole words */
		if (base != NULL && strchr(set_words[i].word, ' ') == NULL &&
		    contains(base, set_words[i].word, 0))
			seen |= 1u << set_words[i].set;
		if (contains(header, set_words[i].word, 1))
			seen |= 1u << set_words[i].set;
	}
	switch (seen) {
	case 0:
	case 1u << VEC_SET_KAT:
		return VEC_SET_KAT;
	case 1u << VEC_SET_MMT:
		return VEC_SET_MMT;
	case 1u << VEC_SET_MCT:
		return VEC_SET_MCT;
	default:
		return -1;
	}
}

const char *vec_set_name(int set)
{
	switch (set) {
	case VEC_SET_KAT: return "KAT";
	case VEC_SET_MMT: return "MMT";
	case VEC_SET_MCT: return "MCT";
	case VEC_SET_QUIC: return "QUIC";
	default: return "?";
	}
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix), i;

	if (m > n)
		return 0;
	for (i = 0; i < m; i++)
		if (lower((unsigned char)s[n - m + i]) !=
		    lower((unsigned char)suffix[i]))
			return 0;
	return 1;
}

int vec_format_of_name(const char *path)
{
	if (ends_with(path, ".rsp") || ends_with(path, ".rsp.gz"))
		return VEC_FMT_RSP;
	if (ends_with(path, ".txt") || ends_with(path, ".txt.gz"))
		return VEC_FMT_QUIC;
	return VEC_FMT_AUTO;
}

/* ------------------------------------------------------------------ */
/* Entries */

static const char *field_name(unsigned bit)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		if (fields[i].bit == bit)
			return fields[i].name;
	return "?";
}

/* The first field of required missing from have, or 0. */
static unsigned first_missing(unsigned have, unsigned required)
{
	unsigned bit;

	for (bit = 1; bit <= F_BLOCK; bit <<= 1)
		if ((required & bit) && !(have & bit))
			return bit;
	return 0;
}

static void clear_entry(struct parser *p)
{
	aesecb_wipe(p->key, sizeof p->key);
	p->key_len = 0;
	p->have = 0;
	p->pt_len = p->ct_len = 0;
}

/* End of the current entry (blank line, section or end of file). */
static int finish_entry(struct parser *p)
{
	struct vec_entry e;
	unsigned miss;
	int r;

	if (p->have == 0)
		return 0;
	memset(&e, 0, sizeof e);
	e.set = p->set;
	e.line = p->entry_line;
	e.key = p->key;
	e.key_len = p->key_len;
	if (p->format == VEC_FMT_RSP) {
		miss = first_missing(p->have, RSP_FIELDS);
		if (miss != 0)
			return fail(p, VEC_EFORMAT, p->entry_line,
			            "entry has no %s field", field_name(miss));
		if (p->pt_len != p->ct_len)
			return fail(p, VEC_EFORMAT, p->entry_line,
			            "PLAINTEXT is %zu bytes but CIPHERTEXT is "
			            "%zu bytes", p->pt_len, p->ct_len);
		e.dir = p->section;
		e.count = p->count;
		e.plaintext = p->pt;
		e.ciphertext = p->ct;
		e.text_len = p->pt_len;
	} else {
		miss = first_missing(p->have, QUIC_REQUIRED);
		if (miss != 0)
			return fail(p, VEC_EFORMAT, p->entry_line,
			            "record has no %s field", field_name(miss));
		e.dir = VEC_ENCRYPT;
		e.count = p->entries + 1;
		e.sample = p->sample;
		e.mask = p->mask;
		e.block = (p->have & F_BLOCK) ? p->block : NULL;
	}
	p->entries++;
	r = p->fn != NULL ? p->fn(p->arg, &e) : 0;
	clear_entry(p);
	if (r != 0) {
		p->err->stop = r;
		return fail(p, VEC_ESTOPPED, p->entry_line,
		            "stopped at this entry");
	}
	return 0;
}

/* A text field: PLAINTEXT, CIPHERTEXT, SAMPLE, BLOCK. */
static int text_value(struct parser *p, const char *name, const char *v,
                      size_t n, uint8_t *out, size_t room, size_t *out_len,
                      size_t exact)
{
	long len = hex_value(p, name, v, n, out, room, VEC_VALUE_MAX);

	if (len < 0)
		return VEC_EFORMAT;
	if (exact != 0 && (size_t)len != exact)
		return fail(p, VEC_EFORMAT, p->lineno,
		            "%s is %ld bytes; must be %zu%s", name, len, exact,
		            p->set == VEC_SET_MCT ?
		            " (Monte Carlo entries are one block)" : "");
	if (len % AESECB_BLOCK_SIZE != 0)
		return fail(p, VEC_EFORMAT, p->lineno,
		            "%s is %ld bytes, not a whole number of 16-byte "
		            "blocks", name, len);
	if (out_len != NULL)
		*out_len = (size_t)len;
	return 0;
}

static int key_value(struct parser *p, const char *name, const char *v,
                     size_t n)
{
	long len = hex_value(p, name, v, n, p->key, sizeof p->key,
	                     VEC_VALUE_MAX);

	if (len < 0)
		return VEC_EFORMAT;
	if (len != 16 && len != 24 && len != 32)
		return fail(p, VEC_EFORMAT, p->lineno,
		            "%s is %ld bytes; AES keys are 16, 24 or 32 bytes",
		            name, len);
	p->key_len = (size_t)len;
	return 0;
}

/* The largest COUNT accepted (a sanity bound, not a format rule). */
#define VEC_COUNT_MAX 999999999u

static int count_value(struct parser *p, const char *v, size_t n)
{
	uint64_t c;

	switch (cli_num_parse(v, n, VEC_COUNT_MAX, &c)) {
	case CLI_NUM_OK:
		p->count = (unsigned long)c;
		return 0;
	case CLI_NUM_ERANGE:
		return fail(p, VEC_EFORMAT, p->lineno,
		            "COUNT: number too large");
	default:
		return fail(p, VEC_EFORMAT, p->lineno,
		            "COUNT: not a decimal number");
	}
}

/* Decide the format (if AUTO) and the set at the first significant line. */
static int decide(struct parser *p, int rsp_like)
{
	if (p->decided)
		return 0;
	if (p->format == VEC_FMT_AUTO)
		p->format = rsp_like ? VEC_FMT_RSP : VEC_FMT_QUIC;
	if (p->format == VEC_FMT_QUIC) {
		p->set = VEC_SET_QUIC;
	} else {
		p->header[p->header_len] = '\0';
		p->set = vec_classify(p->path, p->header);
		if (p->set < 0)
			return fail(p, VEC_EFORMAT, p->lineno,
			            "cannot tell the vector set: the file name "
			            "and header comments name more than one of "
			            "KAT, MMT and MCT");
	}
	p->decided = 1;
	return 0;
}

/*
 * Messages about the file's text describe the problem without quoting the
 * line: a misplaced line may hold key digits.
 */
static int section_line(struct parser *p, const char *s, size_t n)
{
	int r;

	if (p->format == VEC_FMT_QUIC)
		return fail(p, VEC_EFORMAT, p->lineno,
		            "unexpected section line in a QUIC "
		            "header-protection file");
	r = finish_entry(p);
	if (r != 0)
		return r;
	if (n == 9 && memcmp(s, "[ENCRYPT]", 9) == 0)
		p->section = VEC_ENCRYPT;
	else if (n == 9 && memcmp(s, "[DECRYPT]", 9) == 0)
		p->section = VEC_DECRYPT;
	else
		return fail(p, VEC_EFORMAT, p->lineno,
		            "unknown section (expected [ENCRYPT] or "
		            "[DECRYPT])");
	return decide(p, 1);
}

/* "NAME = VALUE": the name's length, and the value (blanks around the
 * '=' skipped).  Returns 0 or VEC_EFORMAT. */
static int split_field(struct parser *p, const char *s, size_t n,
                       size_t *name_len, const char **v, size_t *vn)
{
	size_t i = 0;

	while (i < n && (is_alnum((unsigned char)s[i]) || s[i] == '_'))
		i++;
	*name_len = i;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (*name_len == 0 && !p->decided && p->entries == 0 && n > 0 &&
	    s[0] == '{')
		return fail(p, VEC_EFORMAT, p->lineno,
		            "this is JSON, not a CAVP or QUIC vector file: an "
		            "ACVP set is read from a file whose name ends in "
		            ".json, or from its directory");
	if (*name_len == 0 || i == n || s[i] != '=')
		return fail(p, VEC_EFORMAT, p->lineno,
		            "expected NAME = VALUE, a [section], a comment or "
		            "a blank line");
	i++;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	*v = s + i;
	*vn = n - i;
	return 0;
}

/* The field named by the len bytes at s (any case), or NULL. */
static const struct field *find_field(const char *s, size_t len)
{
	size_t i, k;

	for (i = 0; i < NFIELDS; i++) {
		if (strlen(fields[i].name) != len)
			continue;
		for (k = 0; k < len; k++)
			if (lower((unsigned char)s[k]) !=
			    lower((unsigned char)fields[i].name[k]))
				break;
		if (k == len)
			return &fields[i];
	}
	return NULL;
}

/* Whether field f (NULL: unknown) may stand here, with a value of vn
 * bytes: the file's format (decided by the first field), its section, once
 * per entry.  Returns 0 or VEC_EFORMAT. */
static int check_field(struct parser *p, const struct field *f, size_t vn)
{
	unsigned allowed;
	int r;

	if (!p->decided && f != NULL) {
		r = decide(p, (f->bit & RSP_FIELDS) != 0);
		if (r != 0)
			return r;
	}
	allowed = p->format == VEC_FMT_QUIC ? QUIC_FIELDS :
	          p->format == VEC_FMT_RSP ? RSP_FIELDS :
	          RSP_FIELDS | QUIC_FIELDS;
	if (f == NULL || !(f->bit & allowed))
		return fail(p, VEC_EFORMAT, p->lineno,
		            "unknown field %s (a %s file has %s)",
		            f != NULL ? f->name : "name",
		            p->format == VEC_FMT_QUIC ?
		            "QUIC header-protection" : "response",
		            p->format == VEC_FMT_QUIC ?
		            "HP_KEY, SAMPLE, MASK and BLOCK" :
		            p->format == VEC_FMT_RSP ?
		            "COUNT, KEY, PLAINTEXT and CIPHERTEXT" :
		            "COUNT, KEY, PLAINTEXT, CIPHERTEXT or HP_KEY, "
		            "SAMPLE, MASK, BLOCK");
	if (p->format == VEC_FMT_RSP && p->section < 0)
		return fail(p, VEC_EFORMAT, p->lineno,
		            "entry before any [ENCRYPT] or [DECRYPT] section");
	if (p->have & f->bit)
		return fail(p, VEC_EFORMAT, p->lineno,
		            "%s given twice in one entry (entries are "
		            "separated by blank lines)", f->name);
	if (vn == 0)
		return fail(p, VEC_EFORMAT, p->lineno, "%s has no value",
		            f->name);
	return 0;
}

/* The value of field f into the entry.  Returns 0 or VEC_EFORMAT. */
static int field_value(struct parser *p, const struct field *f,
                       const char *v, size_t vn)
{
	int r;

	switch (f->bit) {
	case F_COUNT:
		r = count_value(p, v, vn);
		break;
	case F_KEY:
	case F_HP_KEY:
		r = key_value(p, f->name, v, vn);
		break;
	case F_PLAINTEXT:
		r = text_value(p, f->name, v, vn, p->pt, sizeof p->pt, &p->pt_len,
		               p->set == VEC_SET_MCT ? 16 : 0);
		break;
	case F_CIPHERTEXT:
		r = text_value(p, f->name, v, vn, p->ct, sizeof p->ct, &p->ct_len,
		               p->set == VEC_SET_MCT ? 16 : 0);
		break;
	case F_SAMPLE:
		r = text_value(p, f->name, v, vn, p->sample, sizeof p->sample,
		               NULL, 16);
		break;
	case F_BLOCK:
		r = text_value(p, f->name, v, vn, p->block, sizeof p->block,
		               NULL, 16);
		break;
	case F_MASK: {
		long len = hex_value(p, f->name, v, vn, p->mask,
		                     sizeof p->mask, VEC_VALUE_MAX);

		if (len < 0)
			return VEC_EFORMAT;
		if (len != 5)
			return fail(p, VEC_EFORMAT, p->lineno,
			            "MASK is %ld bytes; must be 5", len);
		r = 0;
		break;
	}
	default:
		r = fail(p, VEC_EFORMAT, p->lineno, "internal error");
		break;
	}
	return r;
}

static int field_line(struct parser *p, const char *s, size_t n)
{
	const struct field *f;
	size_t name_len = 0, vn = 0;
	const char *v = NULL;
	int r;

	r = split_field(p, s, n, &name_len, &v, &vn);
	if (r != 0)
		return r;
	f = find_field(s, name_len);
	r = check_field(p, f, vn);
	if (r == 0)
		r = field_value(p, f, v, vn);
	if (r != 0)
		return r;
	if (p->have == 0)
		p->entry_line = p->lineno;
	p->have |= f->bit;
	return 0;
}

static void add_header(struct parser *p, const char *s, size_t n)
{
	size_t room = sizeof p->header - 1 - p->header_len;

	if (room == 0)
		return;
	if (n >= room)
		n = room - 1;
	memcpy(p->header + p->header_len, s, n);
	p->header_len += n;
	p->header[p->header_len++] = '\n';
}

static int parse_line(struct parser *p)
{
	char *s = p->line;
	size_t n = p->line_len;

	/* CRLF, trailing and leading blanks */
	while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' ||
	                 s[n - 1] == '\t'))
		n--;
	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (n == 0)
		return finish_entry(p);
	if (s[0] == '#') {
		if (!p->decided)
			add_header(p, s + 1, n - 1);
		return 0;
	}
	if (s[0] == '[')
		return section_line(p, s, n);
	return field_line(p, s, n);
}

static int run(struct parser *p)
{
	int r;

	for (;;) {
		r = next_line(p);
		if (r < 0)
			return r;
		if (r == 0)
			break;
		r = parse_line(p);
		if (r != 0)
			return r;
	}
	r = finish_entry(p);
	if (r != 0)
		return r;
	if (p->entries == 0)
		return fail(p, VEC_EFORMAT, p->lineno > 0 ? p->lineno : 1,
		            "no vector entries in the file");
	return 0;
}

/* A parser for fd, or NULL (err says out of memory). */
static struct parser *parser_new(int fd, const char *path,
                                 struct vec_error *err)
{
	struct parser *p = calloc(1, sizeof *p);

	if (p == NULL) {
		err->code = VEC_ENOMEM;
		snprintf(err->msg, sizeof err->msg, "out of memory");
		return NULL;
	}
	p->fd = fd;
	p->path = path;
	p->section = -1;
	p->err = err;
	p->raw_crc = crc32(0, Z_NULL, 0);
	return p;
}

static void parser_free(struct parser *p)
{
	if (p->z_live)
		inflateEnd(&p->z);
	aesecb_wipe(p, sizeof *p);
	free(p);
}

int vec_read_fd(int fd, const char *path, int format, vec_entry_fn *fn,
                void *arg, struct vec_info *info, struct vec_error *err)
{
	struct parser *p;
	int r;

	memset(err, 0, sizeof *err);
	if (info != NULL)
		memset(info, 0, sizeof *info);
	if ((p = parser_new(fd, path, err)) == NULL)
		return VEC_ENOMEM;
	p->format = format;
	p->fn = fn;
	p->arg = arg;
	r = run(p);
	if (info != NULL) {
		info->format = p->format;
		info->set = p->set;
		info->entries = p->entries;
		info->lines = p->lineno;
		info->bytes = p->raw_total;
		info->crc = p->raw_crc;
	}
	parser_free(p);
	return r;
}

/* path opened for reading, or -1 with the error in err. */
static int open_file(const char *path, struct vec_error *err)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		err->code = VEC_EIO;
		snprintf(err->msg, sizeof err->msg, "cannot open: %s",
		         strerror(errno));
	}
	return fd;
}

int vec_read(const char *path, int format, vec_entry_fn *fn, void *arg,
             struct vec_info *info, struct vec_error *err)
{
	int fd, r;

	memset(err, 0, sizeof *err);
	if (info != NULL)
		memset(info, 0, sizeof *info);
	if ((fd = open_file(path, err)) < 0)
		return VEC_EIO;
	r = vec_read_fd(fd, path, format, fn, arg, info, err);
	close(fd);
	return r;
}

/* Whether s starts with a QUIC field name (any case) followed by a
 * character that cannot continue a name. */
static int quic_field_start(const char *s)
{
	static const char *const names[] = { "hp_key", "sample", "mask",
	                                     "block" };
	size_t i, k;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		for (k = 0; names[i][k] != '\0'; k++)
			if (lower((unsigned char)s[k]) != names[i][k])
				break;
		if (names[i][k] == '\0' && !is_alnum((unsigned char)s[k]) &&
		    s[k] != '_')
			return 1;
	}
	return 0;
}

int vec_is_quic_fd(int fd, struct vec_error *err)
{
	struct parser *p;
	struct vec_error local;
	int result = 0, r;

	if (err == NULL)
		err = &local;
	memset(err, 0, sizeof *err);
	if ((p = parser_new(fd, NULL, err)) == NULL)
		return VEC_ENOMEM;
	while ((r = next_line(p)) > 0) {
		char *s = p->line;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '\r' || *s == '#')
			continue;
		result = quic_field_start(s);
		break;
	}
	/* text that is not a vector file is skipped; text that cannot be
	 * read is an error */
	if (r < 0 && (err->code == VEC_EIO || err->code == VEC_ENOMEM))
		result = err->code;
	parser_free(p);
	return result;
}

int vec_is_quic_file(const char *path, struct vec_error *err)
{
	struct vec_error local;
	int fd, r;

	if (err == NULL)
		err = &local;
	memset(err, 0, sizeof *err);
	if ((fd = open_file(path, err)) < 0)
		return VEC_EIO;
	r = vec_is_quic_fd(fd, err);
	close(fd);
	return r;
}
