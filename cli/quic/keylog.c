/* SPDX-License-Identifier: MIT */
/*
 * keylog.c - TLS key log files.  See keylog.h.
 *
 * The parser branches on the syntax of a line (field boundaries, labels,
 * digit counts) and on the client random, which travels in the clear in
 * the ClientHello; the secrets go through the constant-time hex decoder
 * and are compared without early exit.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aesecb.h"
#include "common/hex.h"
#include "quic/keylog.h"
#include "common/siphash.h"

static const char *const names[KEYLOG_NLABELS] = {
	"CLIENT_EARLY_TRAFFIC_SECRET",
	"CLIENT_HANDSHAKE_TRAFFIC_SECRET",
	"SERVER_HANDSHAKE_TRAFFIC_SECRET",
	"CLIENT_TRAFFIC_SECRET_0",
	"SERVER_TRAFFIC_SECRET_0",
};

const char *keylog_label_name(enum keylog_label label)
{
	return (unsigned)label < KEYLOG_NLABELS ? names[label] : "unknown";
}

void keylog_init(struct keylog *kl)
{
	memset(kl, 0, sizeof *kl);
}

void keylog_free(struct keylog *kl)
{
	if (kl == NULL)
		return;
	if (kl->conns != NULL) {
		aesecb_wipe(kl->conns, kl->cap * sizeof *kl->conns);
		free(kl->conns);
	}
	free(kl->index);
	while (kl->nfiles > 0)
		free(kl->files[--kl->nfiles]);
	free(kl->files);
	keylog_init(kl);
}

static int fail(struct keylog_error *err, int code, unsigned long line,
                const char *fmt, ...)
{
	va_list ap;

	if (err != NULL) {
		err->code = code;
		err->line = line;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
	}
	return code;
}

/* ------------------------------------------------------------------ */
/* Connections by client random. */

/* The whole random, under the process's key: randoms that share their
 * first bytes (a TLS 1.2 stack's time stamp, or chosen) spread all the
 * same. */
static size_t hash_random(const uint8_t *r)
{
	return (size_t)cli_siphash24(cli_hash_key(), r, KEYLOG_RANDOM_LEN);
}

static void index_put(struct keylog *kl, size_t i)
{
	size_t mask = kl->index_size - 1;
	size_t at = hash_random(kl->conns[i].client_random) & mask;

	while (kl->index[at] != KEYLOG_NONE) {
		at = (at + 1) & mask;
		kl->probes++;
	}
	kl->index[at] = i;
}

/* The connection of a client random, or KEYLOG_NONE; *probes counts
 * the entries looked at. */
static size_t find_conn(const struct keylog *kl, const uint8_t *random,
                        unsigned long *probes)
{
	size_t mask, at;

	if (kl->index_size == 0)
		return KEYLOG_NONE;
	mask = kl->index_size - 1;
	for (at = hash_random(random) & mask; kl->index[at] != KEYLOG_NONE;
	     at = (at + 1) & mask) {
		++*probes;
		if (memcmp(kl->conns[kl->index[at]].client_random, random,
		           KEYLOG_RANDOM_LEN) == 0)
			return kl->index[at];
	}
	return KEYLOG_NONE;
}

size_t keylog_find(const struct keylog *kl,
                   const uint8_t random[KEYLOG_RANDOM_LEN])
{
	unsigned long probes = 0;

	if (kl == NULL || random == NULL)
		return KEYLOG_NONE;
	return find_conn(kl, random, &probes);
}

const char *keylog_file_of(const struct keylog *kl, size_t conn,
                           enum keylog_label label)
{
	unsigned f;

	if (kl == NULL || conn >= kl->n || (unsigned)label >= KEYLOG_NLABELS)
		return NULL;
	f = kl->conns[conn].file[label];
	return f < kl->nfiles ? kl->files[f] : NULL;
}

/* Room for one more connection; KEYLOG_OK or KEYLOG_ENOMEM. */
static int grow(struct keylog *kl)
{
	if (kl->n == kl->cap) {
		size_t cap = kl->cap == 0 ? 16 : 2 * kl->cap;
		struct keylog_conn *c = calloc(cap, sizeof *c);

		if (c == NULL)
			return KEYLOG_ENOMEM;
		if (kl->conns != NULL) {
			/* copied, and the old copy wiped: realloc would leave
			 * the secrets in freed memory */
			memcpy(c, kl->conns, kl->n * sizeof *c);
			aesecb_wipe(kl->conns, kl->cap * sizeof *c);
			free(kl->conns);
		}
		kl->conns = c;
		kl->cap = cap;
	}
	if (2 * (kl->n + 1) >= kl->index_size) {
		size_t size = kl->index_size == 0 ? 64 : 2 * kl->index_size, i;
		size_t *ix = malloc(size * sizeof *ix);

		if (ix == NULL)
			return KEYLOG_ENOMEM;
		free(kl->index);
		kl->index = ix;
		kl->index_size = size;
		for (i = 0; i < size; i++)
			ix[i] = KEYLOG_NONE;
		for (i = 0; i < kl->n; i++)
			index_put(kl, i);
	}
	return KEYLOG_OK;
}

/* ------------------------------------------------------------------ */
/* Lines. */

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* The next field of text[*pos..len): its start and length (0 at the end). */
static size_t field(const char *text, size_t len, size_t *pos, size_t *start)
{
	size_t i = *pos;

	while (i < len && is_space(text[i]))
		i++;
	*start = i;
	while (i < len && !is_space(text[i]))
		i++;
	*pos = i;
	return i - *start;
}

/*
 * Decode a hex field of exactly one of the lengths (in bytes) want1 or
 * want2 (0: none) into out.  On failure a message says what is wrong,
 * naming the field and the column, never a character of it.
 */
static int hex_field(const char *what, const char *text, size_t start,
                     size_t n, uint8_t *out, size_t room, size_t want1,
                     size_t want2, size_t *got, unsigned long lineno,
                     struct keylog_error *err)
{
	struct cli_hex h;
	int r = cli_hex_decode(&h, CLI_HEX_COUNT, out, room, text + start, n);

	if (r == CLI_HEX_BAD)
		return fail(err, KEYLOG_EFORMAT, lineno, "the %s has a character "
		            "that is not a hex digit (column %llu)", what,
		            (unsigned long long)start + h.chars + 1);
	if (r == CLI_HEX_ODD || (h.digits != 2 * want1 &&
	                         (want2 == 0 || h.digits != 2 * want2))) {
		if (want2 != 0)
			return fail(err, KEYLOG_EFORMAT, lineno, "the %s is %llu "
			            "hex digits; it is %zu (SHA-256 suites) or %zu "
			            "(SHA-384)", what, h.digits, 2 * want1,
			            2 * want2);
		return fail(err, KEYLOG_EFORMAT, lineno, "the %s is %llu hex "
		            "digits; it is %zu (%zu bytes)", what, h.digits,
		            2 * want1, want1);
	}
	*got = (size_t)(h.digits / 2);
	return KEYLOG_OK;
}

/* One line's fields. */
struct line {
	int label;                               /* enum keylog_label */
	uint8_t random[KEYLOG_RANDOM_LEN];
	uint8_t secret[KEYLOG_SECRET_MAX];
	size_t secret_len;
};

/*
 * The fields of a line of a known label: the client random, the secret
 * and nothing after them.  KEYLOG_OK, or an error in err (the secret may
 * be partly in l: the caller wipes it).
 */
static int parse_fields(const char *text, size_t len, size_t pos,
                        unsigned long lineno, struct line *l,
                        struct keylog_error *err)
{
	const char *name = names[l->label];
	size_t start, n, got;
	int rc;

	if ((n = field(text, len, &pos, &start)) == 0)
		return fail(err, KEYLOG_EFORMAT, lineno, "%s: the client random "
		            "and the secret are missing", name);
	rc = hex_field("client random", text, start, n, l->random,
	               sizeof l->random, KEYLOG_RANDOM_LEN, 0, &got, lineno,
	               err);
	if (rc != KEYLOG_OK)
		return rc;
	if ((n = field(text, len, &pos, &start)) == 0)
		return fail(err, KEYLOG_EFORMAT, lineno, "%s: the secret is "
		            "missing", name);
	rc = hex_field("secret", text, start, n, l->secret, sizeof l->secret,
	               32, 48, &l->secret_len, lineno, err);
	if (rc != KEYLOG_OK)
		return rc;
	if (field(text, len, &pos, &start) != 0)
		return fail(err, KEYLOG_EFORMAT, lineno, "text after the secret "
		            "(column %zu)", start + 1);
	return KEYLOG_OK;
}

/* The connection of a client random, added when new. */
static int conn_of(struct keylog *kl, const struct line *l,
                   unsigned long lineno, struct keylog_conn **out,
                   struct keylog_error *err)
{
	size_t i = find_conn(kl, l->random, &kl->probes);
	struct keylog_conn *c;

	if (i == KEYLOG_NONE) {
		if (kl->n == KEYLOG_MAX_CONNS)
			return fail(err, KEYLOG_ELIMIT, lineno, "more than %d "
			            "connections", KEYLOG_MAX_CONNS);
		if (grow(kl) != KEYLOG_OK)
			return fail(err, KEYLOG_ENOMEM, lineno, "out of memory");
		i = kl->n++;
		c = &kl->conns[i];
		memset(c, 0, sizeof *c);
		memcpy(c->client_random, l->random, KEYLOG_RANDOM_LEN);
		c->secret_len = l->secret_len;
		index_put(kl, i);
	}
	*out = &kl->conns[i];
	return KEYLOG_OK;
}

/* " of --keylog N" when a label's line came from another file than the
 * one being read, else "". */
static const char *other_file(const struct keylog *kl,
                              const struct keylog_conn *c, unsigned label,
                              char *buf, size_t size)
{
	unsigned cur = kl->nfiles > 0 ? kl->nfiles - 1 : 0;

	buf[0] = '\0';
	if (c->file[label] != cur)
		snprintf(buf, size, " of --keylog %u", c->file[label] + 1);
	return buf;
}

/* The secret into its connection, unless it contradicts what is there. */
static int store(struct keylog *kl, struct keylog_conn *c,
                 const struct line *l, unsigned long lineno,
                 struct keylog_error *err)
{
	int label = l->label;
	char of[32];
	unsigned i;

	if (c->secret_len != l->secret_len) {
		unsigned other = 0;

		for (i = KEYLOG_NLABELS; i-- > 0;)
			if ((c->have & (1u << i)) != 0)
				other = i;
		return fail(err, KEYLOG_EFORMAT, lineno, "the secret is %zu "
		            "bytes, but line %lu%s gave a %zu-byte secret for "
		            "the same client random", l->secret_len,
		            c->line[other], other_file(kl, c, other, of,
		                                       sizeof of),
		            c->secret_len);
	}
	if ((c->have & (1u << label)) != 0) {
		if (cli_ct_differ(c->secret[label], l->secret, l->secret_len))
			return fail(err, KEYLOG_EFORMAT, lineno, "a second %s for "
			            "this client random, not the one of line "
			            "%lu%s", names[label], c->line[label],
			            other_file(kl, c, (unsigned)label, of,
			                       sizeof of));
		return KEYLOG_OK;    /* the same line again: nothing new */
	}
	memcpy(c->secret[label], l->secret, l->secret_len);
	c->have |= 1u << label;
	c->line[label] = lineno;
	c->file[label] = kl->nfiles > 0 ? kl->nfiles - 1 : 0;
	kl->secrets++;
	return KEYLOG_OK;
}

int keylog_add_line(struct keylog *kl, const char *text, size_t len,
                    unsigned long lineno, struct keylog_error *err)
{
	struct keylog_conn *c = NULL;
	struct line l;
	size_t pos = 0, start, n, i;
	int rc;

	if (len != 0 && text[len - 1] == '\r')
		len--;
	kl->lines++;
	n = field(text, len, &pos, &start);
	if (n == 0 || text[start] == '#')
		return KEYLOG_OK;
	memset(&l, 0, sizeof l);
	l.label = -1;
	for (i = 0; i < KEYLOG_NLABELS; i++)
		if (strlen(names[i]) == n && memcmp(text + start, names[i], n) == 0)
			l.label = (int)i;
	if (l.label < 0) {
		kl->ignored++;
		return KEYLOG_OK;
	}
	rc = parse_fields(text, len, pos, lineno, &l, err);
	if (rc == KEYLOG_OK)
		rc = conn_of(kl, &l, lineno, &c, err);
	if (rc == KEYLOG_OK)
		rc = store(kl, c, &l, lineno, err);
	aesecb_wipe(&l, sizeof l);
	return rc;
}

/* The file's name, kept for the report: KEYLOG_OK or KEYLOG_ENOMEM. */
static int add_file(struct keylog *kl, const char *path)
{
	char **f = realloc(kl->files, (kl->nfiles + 1) * sizeof *f);

	if (f == NULL)
		return KEYLOG_ENOMEM;
	kl->files = f;
	if ((f[kl->nfiles] = strdup(path)) == NULL)
		return KEYLOG_ENOMEM;
	kl->nfiles++;
	return KEYLOG_OK;
}

/* A line being read: its characters, at most KEYLOG_LINE_MAX. */
struct pending {
	char text[KEYLOG_LINE_MAX];
	size_t have;
	unsigned long lineno;
};

/*
 * The bytes of one read, line by line.  A character past the limit is an
 * error at once: a file without newlines (/dev/zero) ends there.
 */
static int take_bytes(struct keylog *kl, struct pending *p, const char *buf,
                      size_t n, struct keylog_error *err)
{
	size_t i = 0;
	int rc;

	while (i < n) {
		const char *nl = memchr(buf + i, '\n', n - i);
		size_t end = nl != NULL ? (size_t)(nl - buf) : n, m = end - i;

		if (m > KEYLOG_LINE_MAX - p->have)
			return fail(err, KEYLOG_EFORMAT, p->lineno, "the line is "
			            "longer than %d characters", KEYLOG_LINE_MAX);
		memcpy(p->text + p->have, buf + i, m);
		p->have += m;
		if (nl == NULL)
			break;
		rc = keylog_add_line(kl, p->text, p->have, p->lineno, err);
		if (rc != KEYLOG_OK)
			return rc;
		p->have = 0;
		p->lineno++;
		i = end + 1;
	}
	return KEYLOG_OK;
}

int keylog_read(struct keylog *kl, const char *path, struct keylog_error *err)
{
	static char buf[16384];
	struct pending *p;
	int fd, rc;

	if (err != NULL)
		memset(err, 0, sizeof *err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, KEYLOG_EIO, 0, "cannot open: %s",
		            strerror(errno));
	p = malloc(sizeof *p);
	if (p == NULL || add_file(kl, path) != KEYLOG_OK) {
		free(p);
		close(fd);
		return fail(err, KEYLOG_ENOMEM, 0, "out of memory");
	}
	p->have = 0;
	p->lineno = 1;
	for (;;) {
		ssize_t got = read(fd, buf, sizeof buf);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = fail(err, KEYLOG_EIO, 0, "read error: %s",
			          strerror(errno));
			break;
		}
		if (got == 0) {
			/* a last line without a newline */
			rc = p->have == 0 ? KEYLOG_OK :
			     keylog_add_line(kl, p->text, p->have, p->lineno, err);
			break;
		}
		rc = take_bytes(kl, p, buf, (size_t)got, err);
		aesecb_wipe(buf, (size_t)got);
		if (rc != KEYLOG_OK)
			break;
	}
	aesecb_wipe(p, sizeof *p);
	free(p);
	close(fd);
	return rc;
}
