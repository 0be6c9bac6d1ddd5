/* SPDX-License-Identifier: MIT */
/*
 * acvp.c - NIST ACVP AES-ECB vector sets: reading (jansson), checking
 * under a backend, and answering a prompt (see acvp.h).
 *
 * Each file is parsed into a jansson tree and decoded into the structs of
 * acvp.h group by group, each group's subtree being freed once decoded, so
 * the decoded copy mostly reuses the tree's memory; the tree is gone
 * before the next file is parsed.
 *
 * Memory: jansson allocates through acvp_alloc() and acvp_release()
 * (json_set_alloc_funcs), and so does the decoding: one account of what
 * the trees and the decoded sets hold, each block counted with its
 * header and the C library's own overhead, checked against a limit
 * (acvp_set_memory_limit) before malloc is asked and again with the size
 * malloc gave (see acvp_alloc).  A block past the limit
 * fails as ACVP_ETOOBIG, one that malloc refuses as ACVP_ENOMEM, whatever
 * jansson then says about the text.  Every block is wiped when it is
 * freed: jansson's strings hold key text.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <inttypes.h>
#ifdef HAVE_MALLOC_USABLE_SIZE
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "vectors/acvp.h"
#include "common/hex.h"
#include "common/json.h"
#include "vectors/mct.h"
#include "common/msg.h"
#include "common/num.h"
#include "common/printable.h"

/* Longest AFT text accepted, in bytes (a sanity bound, not a format rule). */
#define ACVP_TEXT_MAX (1u << 24)

/* ------------------------------------------------------------------ */
/* Memory */

static size_t mem_limit = ACVP_MEMORY_BASE;
static int mem_fixed;         /* the limit was set, not grown with input */
static size_t mem_live;       /* what the blocks held now cost */
static int mem_refused;       /* a block would have gone past the limit */
static int mem_failed;        /* malloc refused a block */

/*
 * The size of every block is known when it is freed: from the C library
 * (malloc_usable_size) where it tells, else from a header in front of
 * the block, in as few bytes as keep the block aligned for anything.
 */
#ifdef HAVE_MALLOC_USABLE_SIZE
#define MEM_HEAD 0
#else
#define MEM_HEAD (_Alignof(max_align_t) > sizeof(size_t) ? \
                  _Alignof(max_align_t) : sizeof(size_t))
#endif

/* What a block of n usable bytes costs: itself, its header, and about
 * what the C library adds (a size word, rounding up to 16 bytes); 0 when
 * that overflows. */
static size_t mem_cost(size_t n)
{
	size_t extra = MEM_HEAD + sizeof(size_t) + 15;

	if (n > SIZE_MAX - extra)
		return 0;
	return (n + extra) & ~(size_t)15;
}

/* The usable size of block h (its header included). */
static size_t mem_size(const unsigned char *h)
{
	size_t n;

#ifdef HAVE_MALLOC_USABLE_SIZE
	n = malloc_usable_size((void *)h);
#else
	memcpy(&n, h, sizeof n);
#endif
	return n;
}

/*
 * A block of n bytes, if what it costs fits in the room the limit leaves.
 * The cost is estimated from n first (malloc is not asked for what cannot
 * fit), then counted from the block malloc gave, which may be larger than
 * asked: a block of a few bytes takes the C library's smallest chunk, a
 * reused one may keep a tail too small to split off, other allocators
 * round up to size classes.  A block whose real cost does not fit is
 * given back, so the account never passes the limit (the room is computed
 * so that it could not wrap around if it did).
 */
static void *acvp_alloc(size_t n)
{
	size_t room = mem_limit > mem_live ? mem_limit - mem_live : 0;
	size_t cost = mem_cost(n);
	unsigned char *h;

	if (cost == 0 || cost > room) {
		mem_refused = 1;
		return NULL;
	}
	h = malloc(MEM_HEAD + n);
	if (h == NULL) {
		mem_failed = 1;
		return NULL;
	}
#ifndef HAVE_MALLOC_USABLE_SIZE
	memcpy(h, &n, sizeof n);
#endif
	cost = mem_cost(mem_size(h));
	if (cost == 0 || cost > room) {
		free(h);  /* nothing written to it yet but the size */
		mem_refused = 1;
		return NULL;
	}
	mem_live += cost;
	return h + MEM_HEAD;
}

static void acvp_release(void *p)
{
	unsigned char *h;
	size_t n;

	if (p == NULL)
		return;
	h = (unsigned char *)p - MEM_HEAD;
	n = mem_size(h);
	mem_live -= mem_cost(n);
	aesecb_wipe(h, MEM_HEAD + n);
	free(h);
}

static void *acvp_calloc(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > SIZE_MAX / size) {
		mem_refused = 1;
		return NULL;
	}
	p = acvp_alloc(n * size);
	if (p != NULL)
		memset(p, 0, n * size);
	return p;
}

static char *acvp_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = acvp_alloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

/* jansson allocates through the account, from its first call on. */
static void mem_start(void)
{
	static int hooked;

	if (!hooked) {
		json_set_alloc_funcs(acvp_alloc, acvp_release);
		hooked = 1;
	}
	mem_refused = mem_failed = 0;
}

void acvp_set_memory_limit(size_t bytes)
{
	mem_fixed = bytes != 0;
	mem_limit = bytes != 0 ? bytes : ACVP_MEMORY_BASE;
}

/* The default limit grows with each input loaded (see acvp.h). */
static void mem_allow(FILE *f)
{
	struct stat st;
	size_t add = ACVP_MEMORY_STREAM;

	if (mem_fixed)
		return;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
		add = (uint64_t)st.st_size > SIZE_MAX / ACVP_MEMORY_PER_BYTE
		      ? SIZE_MAX : (size_t)st.st_size * ACVP_MEMORY_PER_BYTE;
	mem_limit = add > SIZE_MAX - mem_limit ? SIZE_MAX : mem_limit + add;
}

size_t acvp_memory_limit(void)
{
	return mem_limit;
}

int cli_acvp_memory_env(void)
{
	const char *s = getenv("AESECB_ACVP_MEMORY");
	uint64_t mib, max = (uint64_t)(SIZE_MAX >> 20);
	int r;

	if (s == NULL || s[0] == '\0')
		return 0;
	r = cli_num_parse(s, strlen(s), max, &mib);
	if (r == CLI_NUM_ERANGE)
		return cli_usage("AESECB_ACVP_MEMORY='%s' is too large (at most "
		                 "%" PRIu64 " MiB)", cli_safe(s), max);
	if (r != CLI_NUM_OK || mib == 0)
		return cli_usage("AESECB_ACVP_MEMORY='%s' is not a number of "
		                 "MiB", cli_safe(s));
	acvp_set_memory_limit((size_t)mib << 20);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Errors */

static int set_err(struct acvp_error *err, int code, const char *file,
                   const char *where, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return code;
	err->code = code;
	free(err->file);
	err->file = file != NULL && file[0] != '\0' ? strdup(file) : NULL;
	snprintf(err->where, sizeof err->where, "%s",
	         where != NULL ? where : "");
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return code;
}

char *acvp_strerror(const struct acvp_error *err, const char *path)
{
	/* every part made printable whole (cli_safe: no cut) */
	const char *file = cli_safe(err->file != NULL ? err->file : path);
	const char *where = cli_safe(err->where);
	const char *msg = cli_safe(err->msg);
	size_t len = strlen(file) + strlen(where) + strlen(msg) + 5;
	char *buf = malloc(len);

	if (buf != NULL)
		snprintf(buf, len, "%s: %s%s%s", file, where,
		         where[0] != '\0' ? ": " : "", msg);
	return buf;
}

void acvp_error_free(struct acvp_error *err)
{
	free(err->file);
	err->file = NULL;
}

/* A block refused: past the limit (ACVP_ETOOBIG), or by malloc. */
static int mem_error(struct acvp_error *err, const char *file,
                     const char *where)
{
	if (mem_refused)
		return set_err(err, ACVP_ETOOBIG, file, where, "too large: the "
		               "vector set needs more than %zu MiB of memory "
		               "(AESECB_ACVP_MEMORY sets the limit)",
		               mem_limit >> 20);
	return set_err(err, ACVP_ENOMEM, file, where, "out of memory");
}

/* The JSON path being decoded, built up as a string. */
struct jpath {
	char s[160];
};

static void jp_set(struct jpath *p, const struct jpath *base,
                   const char *fmt, ...)
{
	va_list ap;
	size_t n = 0;

	if (base != NULL) {
		snprintf(p->s, sizeof p->s, "%s", base->s);
		n = strlen(p->s);
	} else {
		p->s[0] = '\0';
	}
	va_start(ap, fmt);
	/* a member name after a non-empty base gets a dot */
	if (n > 0 && fmt[0] != '[' && n + 1 < sizeof p->s)
		p->s[n++] = '.';
	vsnprintf(p->s + n, sizeof p->s - n, fmt, ap);
	va_end(ap);
}

/* Decoding context of one file. */
struct dec {
	const char *file;
	struct acvp_error *err;
};

static int bad(struct dec *d, const struct jpath *p, const char *fmt, ...)
{
	va_list ap;
	char msg[200];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return set_err(d->err, ACVP_EFORMAT, d->file, p != NULL ? p->s : "",
	               "%s", msg);
}

/* ------------------------------------------------------------------ */
/* Reading JSON */

static int load_json(const char *path, json_t **root, struct acvp_error *err)
{
	/* the file's text goes through this buffer, wiped after: key text */
	static char iobuf[16384];
	json_error_t jerr;
	FILE *f;
	int e;

	*root = NULL;
	f = fopen(path, "rb");
	if (f == NULL)
		return set_err(err, ACVP_EIO, path, NULL, "cannot open: %s",
		               strerror(errno));
	setvbuf(f, iobuf, _IOFBF, sizeof iobuf);
	mem_allow(f);
	*root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	e = ferror(f) ? errno : 0;
	fclose(f);
	aesecb_wipe(iobuf, sizeof iobuf);
	if (e != 0) {
		json_decref(*root);
		*root = NULL;
		return set_err(err, ACVP_EIO, path, NULL, "cannot read: %s",
		               strerror(e));
	}
	if (*root == NULL) {
		char where[64];
		char *near;

		/* whatever jansson says of the text where a block failed */
		if (mem_refused || mem_failed ||
		    json_error_code(&jerr) == json_error_out_of_memory)
			return mem_error(err, path, NULL);
		near = strstr(jerr.text, " near ");
		/* jansson quotes the text near the error: it may be key
		 * digits, so it is left out */
		if (near != NULL)
			*near = '\0';
		snprintf(where, sizeof where, "line %d, column %d", jerr.line,
		         jerr.column);
		return set_err(err, ACVP_EFORMAT, path, where,
		               "not valid JSON: %s", jerr.text);
	}
	return ACVP_OK;
}

/*
 * The vector-set object of a document: the document itself, or the second
 * element of [{"acvVersion": ...}, {...}].  *base is "" or "[1]".
 */
static int unwrap(struct dec *d, json_t *root, json_t **vs, int *array_form,
                  const char **acv_version, struct jpath *base)
{
	base->s[0] = '\0';
	*array_form = 0;
	if (acv_version != NULL)
		*acv_version = NULL;
	if (json_is_object(root)) {
		*vs = root;
		return ACVP_OK;
	}
	if (json_is_array(root)) {
		json_t *v0 = json_array_get(root, 0);
		json_t *ver = json_object_get(v0, "acvVersion");
		struct jpath p;

		if (json_array_size(root) != 2 || !json_is_object(v0) ||
		    !json_is_object(json_array_get(root, 1)))
			return bad(d, NULL, "expected a vector set: an object, "
			           "or [{\"acvVersion\": ...}, {...}]");
		jp_set(&p, NULL, "[0].acvVersion");
		if (!json_is_string(ver))
			return bad(d, &p, ver == NULL ? "missing" :
			           "not a string");
		if (acv_version != NULL)
			*acv_version = json_string_value(ver);
		*vs = json_array_get(root, 1);
		*array_form = 1;
		jp_set(base, NULL, "[1]");
		return ACVP_OK;
	}
	return bad(d, NULL, "expected a vector set: an object, or "
	           "[{\"acvVersion\": ...}, {...}]");
}

/* Member name of obj as a string; NULL (with the error set) if missing or
 * not a string. */
static const char *get_str(struct dec *d, json_t *obj, const char *name,
                           const struct jpath *at)
{
	json_t *v = json_object_get(obj, name);
	struct jpath p;

	if (json_is_string(v))
		return json_string_value(v);
	jp_set(&p, at, "%s", name);
	bad(d, &p, v == NULL ? "missing" : "not a string");
	return NULL;
}

/* Member name of obj as a non-negative integer. */
static int get_uint(struct dec *d, json_t *obj, const char *name,
                    const struct jpath *at, unsigned long *out)
{
	json_t *v = json_object_get(obj, name);
	struct jpath p;

	if (json_is_integer(v) && json_integer_value(v) >= 0 &&
	    (unsigned long long)json_integer_value(v) <= (unsigned long)-1) {
		*out = (unsigned long)json_integer_value(v);
		return ACVP_OK;
	}
	jp_set(&p, at, "%s", name);
	return bad(d, &p, v == NULL ? "missing" :
	           "not a non-negative integer");
}

/*
 * Member name of obj, hex, decoded.  want: the length in bytes it must
 * have, or 0 for "a whole number of 16-byte blocks, at least one" (the
 * length is then in *len and *buf is malloc'ed).  With want != 0 the bytes
 * go to out.
 */
static int get_hex(struct dec *d, json_t *obj, const char *name,
                   const struct jpath *at, size_t want, uint8_t *out,
                   uint8_t **buf, size_t *len)
{
	json_t *v = json_object_get(obj, name);
	struct jpath p;
	const char *s;
	struct cli_hex h;
	size_t n;
	int r;
	uint8_t *dst = out;

	jp_set(&p, at, "%s", name);
	if (!json_is_string(v))
		return bad(d, &p, v == NULL ? "missing" : "not a string");
	s = json_string_value(v);
	n = json_string_length(v);
	/* first the syntax (counting only), then the bytes */
	r = cli_hex_decode(&h, CLI_HEX_COUNT, NULL, 0, s, n);
	if (r == CLI_HEX_BAD)
		return bad(d, &p, "not hex");
	if (r == CLI_HEX_ODD)
		return bad(d, &p, "odd number of hex digits (%zu)", n);
	n /= 2;
	if (want != 0 && n != want)
		return bad(d, &p, "%zu bytes; must be %zu", n, want);
	if (want == 0) {
		if (n == 0 || n % 16 != 0)
			return bad(d, &p, "%zu bytes; must be a whole number "
			           "of 16-byte blocks, at least one", n);
		if (n > ACVP_TEXT_MAX)
			return bad(d, &p, "%zu bytes; at most %u accepted", n,
			           ACVP_TEXT_MAX);
		/* room for the expected output after the input */
		dst = acvp_alloc(2 * n);
		if (dst == NULL)
			return mem_error(d->err, d->file, p.s);
		*buf = dst;
		*len = n;
	}
	cli_hex_decode(&h, 0, dst, n, s, 2 * n);
	return ACVP_OK;
}

/* algorithm and revision must be ours. */
static int check_header(struct dec *d, json_t *vs, const struct jpath *base)
{
	const char *s;
	struct jpath p;

	s = get_str(d, vs, "algorithm", base);
	if (s == NULL)
		return ACVP_EFORMAT;
	if (strcmp(s, ACVP_ALGORITHM) != 0) {
		jp_set(&p, base, "algorithm");
		return bad(d, &p, "algorithm is not %s", ACVP_ALGORITHM);
	}
	s = get_str(d, vs, "revision", base);
	if (s == NULL)
		return ACVP_EFORMAT;
	if (strcmp(s, ACVP_REVISION) != 0) {
		jp_set(&p, base, "revision");
		return bad(d, &p, "revision is not %s (the only one read)",
		           ACVP_REVISION);
	}
	return ACVP_OK;
}

static int get_vsid(struct dec *d, json_t *vs, const struct jpath *base,
                    long long *out)
{
	json_t *v = json_object_get(vs, "vsId");
	struct jpath p;

	if (json_is_integer(v)) {
		*out = (long long)json_integer_value(v);
		return ACVP_OK;
	}
	jp_set(&p, base, "vsId");
	return bad(d, &p, v == NULL ? "missing" : "not an integer");
}

/* tests[k].resultsArray of an MCT test into t->mct. */
static int get_results(struct dec *d, json_t *arr, const struct jpath *at,
                       const struct acvp_group *g, struct acvp_test *t)
{
	struct jpath p, q;
	size_t i;
	int rc;

	jp_set(&p, at, "resultsArray");
	if (!json_is_array(arr))
		return bad(d, &p, "not an array");
	if (json_array_size(arr) != ACVP_MCT_OUTER)
		return bad(d, &p, "%zu iterations; must be %d",
		           json_array_size(arr), ACVP_MCT_OUTER);
	if (t->mct == NULL) {
		t->mct = acvp_calloc(ACVP_MCT_OUTER, sizeof *t->mct);
		if (t->mct == NULL)
			return mem_error(d->err, d->file, p.s);
	}
	for (i = 0; i < ACVP_MCT_OUTER; i++) {
		json_t *r = json_array_get(arr, i);

		jp_set(&q, &p, "[%zu]", i);
		if (!json_is_object(r))
			return bad(d, &q, "not an object");
		rc = get_hex(d, r, "key", &q, g->key_len, t->mct[i].key, NULL,
		             NULL);
		if (rc == ACVP_OK)
			rc = get_hex(d, r, "pt", &q, 16, t->mct[i].pt, NULL,
			             NULL);
		if (rc == ACVP_OK)
			rc = get_hex(d, r, "ct", &q, 16, t->mct[i].ct, NULL,
			             NULL);
		if (rc != ACVP_OK)
			return rc;
	}
	return ACVP_OK;
}

/* The expected result of test t (AFT: the output field; MCT: the
 * resultsArray) from test object o, if o has it; *found says whether. */
static int get_answer(struct dec *d, json_t *o, const struct jpath *at,
                      const struct acvp_group *g, struct acvp_test *t,
                      int *found)
{
	const char *out_name = g->decrypt ? "pt" : "ct";

	*found = 0;
	if (g->type == ACVP_MCT) {
		json_t *arr = json_object_get(o, "resultsArray");

		if (arr == NULL)
			return ACVP_OK;
		*found = 1;
		return get_results(d, arr, at, g, t);
	}
	if (json_object_get(o, out_name) == NULL)
		return ACVP_OK;
	*found = 1;
	t->expect = t->in + t->len;
	return get_hex(d, o, out_name, at, t->len, t->expect, NULL, NULL);
}

static void free_groups(struct acvp_group *groups, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		struct acvp_group *g = &groups[i];

		for (k = 0; k < g->ntests; k++) {
			struct acvp_test *t = &g->tests[k];

			aesecb_wipe(t->key, sizeof t->key);
			if (t->in != NULL)
				aesecb_wipe(t->in, 2 * t->len);
			acvp_release(t->in);
			if (t->mct != NULL)
				aesecb_wipe(t->mct,
				            ACVP_MCT_OUTER * sizeof *t->mct);
			acvp_release(t->mct);
		}
		acvp_release(g->tests);
	}
	acvp_release(groups);
}

void acvp_free(struct acvp_set *set)
{
	if (set == NULL)
		return;
	free_groups(set->groups, set->ngroups);
	acvp_release(set->acv_version);
	acvp_release(set->questions);
	acvp_release(set->answers);
	memset(set, 0, sizeof *set);
}

/* Test k of group g, object o at tp: tcId, key, input, and the answer
 * when the questions carry it (*answered). */
static int read_test(struct dec *d, struct acvp_group *g, json_t *o,
                     const struct jpath *tp, size_t k, int *answered)
{
	struct acvp_test *t = &g->tests[k];
	const char *in_name = g->decrypt ? "ct" : "pt";
	int rc, found;

	t->q_index = k;
	t->a_group = t->a_index = (size_t)-1;
	if (!json_is_object(o))
		return bad(d, tp, "not an object");
	rc = get_uint(d, o, "tcId", tp, &t->tcid);
	if (rc == ACVP_OK)
		rc = get_hex(d, o, "key", tp, g->key_len, t->key, NULL, NULL);
	if (rc != ACVP_OK)
		return rc;
	if (g->type == ACVP_MCT) {
		t->in = acvp_alloc(32);
		if (t->in == NULL)
			return mem_error(d->err, d->file, tp->s);
		t->len = 16;
		rc = get_hex(d, o, in_name, tp, 16, t->in, NULL, NULL);
	} else {
		rc = get_hex(d, o, in_name, tp, 0, NULL, &t->in, &t->len);
	}
	if (rc == ACVP_OK)
		rc = get_answer(d, o, tp, g, t, &found);
	if (rc != ACVP_OK)
		return rc;
	if (found)
		t->a_group = (size_t)-2;  /* answered in place */
	else
		*answered = 0;
	return ACVP_OK;
}

/* A string member of jg that must be one of two words: *which is 0 for
 * the first, 1 for the second. */
static int get_choice(struct dec *d, json_t *jg, const char *name,
                      const struct jpath *gp, const char *w0,
                      const char *w1, const char *what, int *which)
{
	const char *s = get_str(d, jg, name, gp);
	struct jpath p;

	if (s == NULL)
		return ACVP_EFORMAT;
	if (strcmp(s, w0) == 0 || strcmp(s, w1) == 0) {
		*which = strcmp(s, w1) == 0;
		return ACVP_OK;
	}
	jp_set(&p, gp, "%s", name);
	return bad(d, &p, "unknown %s (%s or %s)", what, w0, w1);
}

/* One group of the questions file. */
static int read_group(struct dec *d, json_t *jg, const struct jpath *gp,
                      struct acvp_group *g, int *all_answered)
{
	json_t *tests;
	unsigned long keybits;
	size_t k;
	struct jpath p, tp;
	int rc;

	if (!json_is_object(jg))
		return bad(d, gp, "not an object");
	rc = get_uint(d, jg, "tgId", gp, &g->tgid);
	if (rc == ACVP_OK)
		rc = get_choice(d, jg, "testType", gp, "AFT", "MCT",
		                "test type", &g->type);
	if (rc == ACVP_OK)
		rc = get_choice(d, jg, "direction", gp, "encrypt", "decrypt",
		                "direction", &g->decrypt);
	if (rc == ACVP_OK)
		rc = get_uint(d, jg, "keyLen", gp, &keybits);
	if (rc != ACVP_OK)
		return rc;
	if (keybits != 128 && keybits != 192 && keybits != 256) {
		jp_set(&p, gp, "keyLen");
		return bad(d, &p, "%lu; must be 128, 192 or 256", keybits);
	}
	g->key_len = keybits / 8;
	tests = json_object_get(jg, "tests");
	jp_set(&p, gp, "tests");
	if (!json_is_array(tests))
		return bad(d, &p, tests == NULL ? "missing" : "not an array");
	/* a group of no tests checks nothing: refused, as an empty
	 * response file is */
	if (json_array_size(tests) == 0)
		return bad(d, &p, "empty: a test group has at least one test");
	g->ntests = 0;
	g->tests = acvp_calloc(json_array_size(tests) + 1, sizeof *g->tests);
	if (g->tests == NULL)
		return mem_error(d->err, d->file, p.s);
	for (k = 0; k < json_array_size(tests) && rc == ACVP_OK; k++) {
		jp_set(&tp, &p, "[%zu]", k);
		g->ntests = k + 1;  /* freed from here on */
		rc = read_test(d, g, json_array_get(tests, k), &tp, k,
		               all_answered);
	}
	return rc;
}

static int read_questions(const char *path, struct acvp_set *set,
                          struct acvp_error *err)
{
	struct dec d = { path, err };
	json_t *root, *vs, *groups, *v;
	const char *ver;
	struct jpath base, p;
	size_t i;
	int rc, all = 1;

	rc = load_json(path, &root, err);
	if (rc != ACVP_OK)
		return rc;
	rc = unwrap(&d, root, &vs, &set->array_form, &ver, &base);
	if (rc == ACVP_OK && ver != NULL) {
		set->acv_version = acvp_strdup(ver);
		if (set->acv_version == NULL)
			rc = mem_error(err, path, NULL);
	}
	if (rc == ACVP_OK)
		rc = check_header(&d, vs, &base);
	if (rc == ACVP_OK)
		rc = get_vsid(&d, vs, &base, &set->vsid);
	if (rc != ACVP_OK)
		goto out;
	v = json_object_get(vs, "isSample");
	set->is_sample = json_is_boolean(v) ? json_is_true(v) : -1;
	groups = json_object_get(vs, "testGroups");
	jp_set(&p, &base, "testGroups");
	if (!json_is_array(groups)) {
		rc = bad(&d, &p, groups == NULL ? "missing" : "not an array");
		goto out;
	}
	if (json_array_size(groups) == 0) {
		rc = bad(&d, &p, "empty: a vector set has at least one test "
		         "group");
		goto out;
	}
	set->groups = acvp_calloc(json_array_size(groups) + 1,
	                          sizeof *set->groups);
	if (set->groups == NULL) {
		rc = mem_error(err, path, NULL);
		goto out;
	}
	for (i = 0; i < json_array_size(groups) && rc == ACVP_OK; i++) {
		struct jpath gp;

		jp_set(&gp, &p, "[%zu]", i);
		set->ngroups = i + 1;
		set->groups[i].q_index = i;
		rc = read_group(&d, json_array_get(groups, i), &gp,
		                &set->groups[i], &all);
		set->ntests += set->groups[i].ntests;
		/* the group's tree is no longer needed: its memory serves
		 * the decoding of the next ones */
		json_array_set_new(groups, i, json_null());
	}
	set->has_answers = all;
out:
	json_decref(root);
	return rc;
}

/* Index of the group with tgId tgid, trying hint first; or (size_t)-1. */
static size_t find_group(const struct acvp_set *set, unsigned long tgid,
                         size_t hint)
{
	size_t i;

	if (hint < set->ngroups && set->groups[hint].tgid == tgid)
		return hint;
	for (i = 0; i < set->ngroups; i++)
		if (set->groups[i].tgid == tgid)
			return i;
	return (size_t)-1;
}

static size_t find_test(const struct acvp_group *g, unsigned long tcid,
                        size_t hint)
{
	size_t i;

	if (hint < g->ntests && g->tests[hint].tcid == tcid)
		return hint;
	for (i = 0; i < g->ntests; i++)
		if (g->tests[i].tcid == tcid)
			return i;
	return (size_t)-1;
}

/* Test k of group gi of the answers file, object o at tp: its answer,
 * into the question of the same tcId in group g. */
static int read_answer(struct dec *d, struct acvp_group *g, unsigned long tgid,
                       json_t *o, const struct jpath *tp, size_t gi, size_t k)
{
	unsigned long tcid;
	struct jpath q;
	size_t ti;
	int rc, found;

	if (!json_is_object(o))
		return bad(d, tp, "not an object");
	rc = get_uint(d, o, "tcId", tp, &tcid);
	if (rc != ACVP_OK)
		return rc;
	ti = find_test(g, tcid, k);
	if (ti == (size_t)-1) {
		jp_set(&q, tp, "tcId");
		return bad(d, &q, "%lu is not a test of group tgId %lu in the "
		           "prompt", tcid, tgid);
	}
	rc = get_answer(d, o, tp, g, &g->tests[ti], &found);
	if (rc != ACVP_OK)
		return rc;
	if (!found)
		return bad(d, tp, "missing %s", g->type == ACVP_MCT ?
		           "resultsArray" : g->decrypt ? "pt" : "ct");
	g->tests[ti].a_group = gi;
	g->tests[ti].a_index = k;
	return ACVP_OK;
}

/* Group i of the answers file, jg at gp: its tests' answers. */
static int read_answer_group(struct dec *d, struct acvp_set *set, json_t *jg,
                             const struct jpath *gp, size_t i)
{
	struct jpath tsp, tp, q;
	unsigned long tgid;
	json_t *tests;
	size_t gi, k;
	int rc;

	if (!json_is_object(jg))
		return bad(d, gp, "not an object");
	rc = get_uint(d, jg, "tgId", gp, &tgid);
	if (rc != ACVP_OK)
		return rc;
	gi = find_group(set, tgid, i);
	if (gi == (size_t)-1) {
		jp_set(&q, gp, "tgId");
		return bad(d, &q, "%lu is not a group of the prompt", tgid);
	}
	tests = json_object_get(jg, "tests");
	jp_set(&tsp, gp, "tests");
	if (!json_is_array(tests))
		return bad(d, &tsp, tests == NULL ? "missing" : "not an array");
	for (k = 0; k < json_array_size(tests) && rc == ACVP_OK; k++) {
		jp_set(&tp, &tsp, "[%zu]", k);
		rc = read_answer(d, &set->groups[gi], tgid,
		                 json_array_get(tests, k), &tp, i, k);
	}
	return rc;
}

/* Every question needs its answer. */
static int all_answered(struct dec *d, const struct acvp_set *set)
{
	size_t i, k;

	for (i = 0; i < set->ngroups; i++)
		for (k = 0; k < set->groups[i].ntests; k++)
			if (set->groups[i].tests[k].a_group == (size_t)-1)
				return bad(d, NULL, "no expected result for "
				           "tgId %lu tcId %lu",
				           set->groups[i].tgid,
				           set->groups[i].tests[k].tcid);
	return ACVP_OK;
}

static int read_answers(const char *path, struct acvp_set *set,
                        struct acvp_error *err)
{
	struct dec d = { path, err };
	json_t *root, *vs, *groups = NULL;
	struct jpath base, p, gp;
	long long vsid;
	size_t i;
	int rc, array_form;

	rc = load_json(path, &root, err);
	if (rc != ACVP_OK)
		return rc;
	rc = unwrap(&d, root, &vs, &array_form, NULL, &base);
	if (rc == ACVP_OK)
		rc = check_header(&d, vs, &base);
	if (rc == ACVP_OK)
		rc = get_vsid(&d, vs, &base, &vsid);
	if (rc == ACVP_OK && vsid != set->vsid) {
		jp_set(&p, &base, "vsId");
		rc = bad(&d, &p, "%lld, but the prompt's is %lld", vsid,
		         set->vsid);
	}
	if (rc == ACVP_OK) {
		groups = json_object_get(vs, "testGroups");
		jp_set(&p, &base, "testGroups");
		if (!json_is_array(groups))
			rc = bad(&d, &p, groups == NULL ? "missing" :
			         "not an array");
	}
	for (i = 0; rc == ACVP_OK && i < json_array_size(groups); i++) {
		jp_set(&gp, &p, "[%zu]", i);
		rc = read_answer_group(&d, set, json_array_get(groups, i), &gp,
		                       i);
		/* the group's tree is no longer needed */
		json_array_set_new(groups, i, json_null());
	}
	if (rc == ACVP_OK)
		rc = all_answered(&d, set);
	if (rc == ACVP_OK) {
		set->has_answers = 1;
		set->answers_array_form = array_form;
	}
	json_decref(root);
	return rc;
}

int acvp_load_files(const char *questions, const char *answers,
                    struct acvp_set *set, struct acvp_error *err)
{
	int rc;

	memset(set, 0, sizeof *set);
	if (err != NULL)
		memset(err, 0, sizeof *err);
	set->is_sample = -1;
	mem_start();
	set->questions = acvp_strdup(questions);
	if (answers != NULL)
		set->answers = acvp_strdup(answers);
	if (set->questions == NULL || (answers != NULL && set->answers == NULL))
		rc = mem_error(err, questions, NULL);
	else
		rc = read_questions(questions, set, err);
	if (rc == ACVP_OK && answers != NULL)
		rc = read_answers(answers, set, err);
	if (rc != ACVP_OK)
		acvp_free(set);
	return rc;
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* dir + "/" + name, malloc'ed; dir_len bytes of dir are used. */
static char *join(const char *dir, size_t dir_len, const char *name)
{
	size_t n = dir_len + 1 + strlen(name) + 1;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%.*s%s%s", (int)dir_len, dir,
		         dir_len > 0 && dir[dir_len - 1] != '/' ? "/" : "",
		         name);
	return p;
}

/* A directory: prompt.json with expectedResults.json next to it if
 * there is one, else internalProjection.json. */
static int load_dir(const char *path, struct acvp_set *set,
                    struct acvp_error *err)
{
	size_t dlen = strlen(path);
	char *q = join(path, dlen, "prompt.json");
	char *a = join(path, dlen, "expectedResults.json");
	char *p = join(path, dlen, "internalProjection.json");
	int rc;

	if (q == NULL || a == NULL || p == NULL)
		rc = set_err(err, ACVP_ENOMEM, path, NULL, "out of memory");
	else if (is_file(q))
		rc = acvp_load_files(q, is_file(a) ? a : NULL, set, err);
	else if (is_file(p))
		rc = acvp_load_files(p, NULL, set, err);
	else
		rc = set_err(err, ACVP_EIO, path, NULL, "no prompt.json or "
		             "internalProjection.json in this directory");
	free(q);
	free(a);
	free(p);
	return rc;
}

/* prompt.json or expectedResults.json named: the other one is looked for
 * next to it (the answers are optional, the questions are not). */
static int load_pair(const char *path, size_t dlen, int answers,
                     struct acvp_set *set, struct acvp_error *err)
{
	char *other = join(path, dlen, answers ? "prompt.json"
	                                       : "expectedResults.json");
	int rc;

	if (other == NULL)
		rc = set_err(err, ACVP_ENOMEM, path, NULL, "out of memory");
	else if (!answers)
		rc = acvp_load_files(path, is_file(other) ? other : NULL, set,
		                     err);
	else if (is_file(other))
		rc = acvp_load_files(other, path, set, err);
	else
		rc = set_err(err, ACVP_EIO, path, NULL, "no prompt.json next "
		             "to it (the questions)");
	free(other);
	return rc;
}

int acvp_load(const char *path, struct acvp_set *set, struct acvp_error *err)
{
	const char *base = strrchr(path, '/');
	struct stat st;

	memset(set, 0, sizeof *set);
	if (err != NULL)
		memset(err, 0, sizeof *err);
	if (stat(path, &st) != 0)
		return set_err(err, ACVP_EIO, path, NULL, "%s",
		               strerror(errno));
	if (S_ISDIR(st.st_mode))
		return load_dir(path, set, err);
	base = base != NULL ? base + 1 : path;
	if (strcmp(base, "prompt.json") == 0)
		return load_pair(path, (size_t)(base - path), 0, set, err);
	if (strcmp(base, "expectedResults.json") == 0)
		return load_pair(path, (size_t)(base - path), 1, set, err);
	return acvp_load_files(path, NULL, set, err);
}

/* ------------------------------------------------------------------ */
/* Checking */

/* The JSON path of test t's answer (field, MCT iteration it or -1). */
static void answer_path(const struct acvp_set *set,
                        const struct acvp_group *g,
                        const struct acvp_test *t, long it,
                        const char *field, char *buf, size_t size)
{
	int sep = set->array_form;
	size_t gi = g->q_index, ti = t->q_index;
	int n;

	/* answered in the answers file, or in place in the questions */
	if (t->a_group < (size_t)-2) {
		sep = set->answers_array_form;
		gi = t->a_group;
		ti = t->a_index;
	}
	n = snprintf(buf, size, "%stestGroups[%zu].tests[%zu].",
	             sep ? "[1]." : "", gi, ti);
	if (n < 0 || (size_t)n >= size)
		return;
	if (it >= 0)
		snprintf(buf + n, size - (size_t)n, "resultsArray[%ld].%s", it,
		         field);
	else
		snprintf(buf + n, size - (size_t)n, "%s", field);
}

static int report(const struct acvp_set *set, const struct acvp_group *g,
                  const struct acvp_test *t, long it, const char *field,
                  const uint8_t *expected, const uint8_t *actual,
                  size_t len, acvp_fail_fn *fn, void *arg)
{
	struct acvp_failure f;
	char path[160];

	if (fn == NULL)
		return 0;
	answer_path(set, g, t, it, field, path, sizeof path);
	memset(&f, 0, sizeof f);
	f.group = g;
	f.test = t;
	f.tgid = g->tgid;
	f.tcid = t->tcid;
	f.iteration = it;
	f.field = field;
	f.path = path;
	if (strcmp(field, "key") != 0) {
		f.expected = expected;
		f.actual = actual;
	}
	f.len = len;
	return fn(arg, &f);
}

/* The larger of 16 and the longest AFT text of the set. */
static size_t longest_text(const struct acvp_set *set)
{
	size_t maxlen = 16, i, k;

	for (i = 0; i < set->ngroups; i++)
		for (k = 0; k < set->groups[i].ntests; k++)
			if (set->groups[i].tests[k].len > maxlen)
				maxlen = set->groups[i].tests[k].len;
	return maxlen;
}

/* Test t under be: AFT, its output into buf; MCT, its MCT_OUTER
 * iterations into res.  An aesecb status. */
static int run_test(const aesecb_backend *be, const struct acvp_group *g,
                    const struct acvp_test *t, uint8_t *buf,
                    struct mct_result *res)
{
	aesecb_ctx ctx;
	int r;

	if (g->type == ACVP_MCT)
		return mct_run(be, g->decrypt, t->key, g->key_len, t->in, res);
	r = aesecb_init(&ctx, t->key, g->key_len, be);
	if (r == AESECB_OK)
		r = (g->decrypt ? aesecb_decrypt : aesecb_encrypt)(&ctx, t->in,
		                                                   buf, t->len);
	aesecb_clear(&ctx);
	return r;
}

/* What acvp_check works with. */
struct checker {
	const struct acvp_set *set;
	const aesecb_backend *be;
	acvp_fail_fn *fn;
	void *arg;
	uint8_t *out;             /* room for the longest text */
	struct mct_result *res;   /* MCT_OUTER iterations */
	int stop;                 /* the callback's value once it said stop */
};

/* The first field of an MCT test's iterations that differs from the
 * expected results: key, then input, then output.  1 when all match. */
static int compare_mct(struct checker *k, const struct acvp_group *g,
                       const struct acvp_test *t)
{
	const char *in_name = g->decrypt ? "ct" : "pt";
	const char *out_name = g->decrypt ? "pt" : "ct";
	const struct mct_result *res = k->res;
	int r;

	for (r = 0; r < MCT_OUTER; r++) {
		const struct acvp_mct_step *s = &t->mct[r];
		const uint8_t *ein = g->decrypt ? s->ct : s->pt;
		const uint8_t *eout = g->decrypt ? s->pt : s->ct;

		if (cli_ct_differ(res[r].key, s->key, g->key_len))
			k->stop = report(k->set, g, t, r, "key", NULL, NULL,
			                 g->key_len, k->fn, k->arg);
		else if (cli_ct_differ(res[r].in, ein, 16))
			k->stop = report(k->set, g, t, r, in_name, ein,
			                 res[r].in, 16, k->fn, k->arg);
		else if (cli_ct_differ(res[r].out, eout, 16))
			k->stop = report(k->set, g, t, r, out_name, eout,
			                 res[r].out, 16, k->fn, k->arg);
		else
			continue;
		return 0;
	}
	return 1;
}

/* One test: 1 passed, 0 failed (reported), or the library's status. */
static int check_test(struct checker *k, const struct acvp_group *g,
                      const struct acvp_test *t)
{
	int r = run_test(k->be, g, t, k->out, k->res);

	if (r != AESECB_OK)
		return r;
	if (g->type == ACVP_MCT)
		return compare_mct(k, g, t);
	if (!cli_ct_differ(k->out, t->expect, t->len))
		return 1;
	k->stop = report(k->set, g, t, -1, g->decrypt ? "pt" : "ct",
	                 t->expect, k->out, t->len, k->fn, k->arg);
	return 0;
}

/* Every test of every group, counted, until the callback says stop. */
static int check_all(struct checker *k, struct acvp_counts *c,
                     struct acvp_error *err)
{
	size_t i, n;

	for (i = 0; i < k->set->ngroups && !k->stop; i++) {
		const struct acvp_group *g = &k->set->groups[i];
		int mct = g->type == ACVP_MCT;

		for (n = 0; n < g->ntests && !k->stop; n++) {
			int r = check_test(k, g, &g->tests[n]);

			if (r < 0)
				return set_err(err, ACVP_ECRYPT,
				               k->set->questions, NULL, "%s",
				               aesecb_strerror(r));
			if (mct) {
				c->mct++;
				c->mct_pass += (unsigned long)r;
			} else {
				c->aft++;
				c->aft_pass += (unsigned long)r;
			}
		}
	}
	if (k->stop == 0)
		return ACVP_OK;
	set_err(err, ACVP_ESTOPPED, k->set->questions, NULL, "stopped");
	if (err != NULL)
		err->stop = k->stop;
	return ACVP_ESTOPPED;
}

int acvp_check(const struct acvp_set *set, const aesecb_backend *be,
               acvp_fail_fn *fn, void *arg, struct acvp_counts *counts,
               struct acvp_error *err)
{
	struct checker k = { set, be, fn, arg, NULL, NULL, 0 };
	size_t maxlen = longest_text(set);
	struct acvp_counts c;
	int rc;

	memset(&c, 0, sizeof c);
	if (err != NULL)
		memset(err, 0, sizeof *err);
	if (!set->has_answers)
		return set_err(err, ACVP_ENOANSWER, set->questions, NULL,
		               "no expected results to check against");
	mem_start();
	k.out = acvp_alloc(maxlen);
	k.res = acvp_calloc(MCT_OUTER, sizeof *k.res);
	if (k.out == NULL || k.res == NULL)
		rc = mem_error(err, set->questions, NULL);
	else
		rc = check_all(&k, &c, err);
	if (k.out != NULL)
		aesecb_wipe(k.out, maxlen);
	if (k.res != NULL)
		aesecb_wipe(k.res, MCT_OUTER * sizeof *k.res);
	acvp_release(k.out);
	acvp_release(k.res);
	if (counts != NULL)
		*counts = c;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Answering */

/* One test's answer: tcId, then the output (AFT) or the 100 iterations
 * (MCT); buf holds the longest text, res MCT_OUTER results. */
static int answer_test(struct cli_json *j, const struct acvp_set *set,
                       const struct acvp_group *g, const struct acvp_test *t,
                       const aesecb_backend *be, uint8_t *buf,
                       struct mct_result *res, struct acvp_error *err)
{
	const char *in_name = g->decrypt ? "ct" : "pt";
	const char *out_name = g->decrypt ? "pt" : "ct";
	int r = run_test(be, g, t, buf, res), i;

	if (r != AESECB_OK)
		return set_err(err, ACVP_ECRYPT, set->questions, NULL, "%s",
		               aesecb_strerror(r));
	cli_json_object(j, NULL);
	cli_json_uint(j, "tcId", t->tcid);
	if (g->type == ACVP_AFT) {
		cli_json_hex(j, out_name, buf, t->len, CLI_HEX_UPPER);
	} else {
		cli_json_array(j, "resultsArray");
		for (i = 0; i < MCT_OUTER; i++) {
			cli_json_object(j, NULL);
			cli_json_hex(j, "key", res[i].key, g->key_len,
			             CLI_HEX_UPPER);
			cli_json_hex(j, in_name, res[i].in, 16, CLI_HEX_UPPER);
			cli_json_hex(j, out_name, res[i].out, 16, CLI_HEX_UPPER);
			cli_json_end(j);
		}
		cli_json_end(j);
	}
	cli_json_end(j);
	return ACVP_OK;
}

int acvp_answer(const struct acvp_set *set, const aesecb_backend *be,
                FILE *out, const char *out_name, struct acvp_error *err)
{
	struct mct_result *res = NULL;
	size_t maxlen = longest_text(set), i, k;
	uint8_t *buf = NULL;
	struct cli_json j;
	int rc = ACVP_OK;

	if (err != NULL)
		memset(err, 0, sizeof *err);
	mem_start();
	buf = acvp_alloc(maxlen);
	res = acvp_calloc(MCT_OUTER, sizeof *res);
	if (buf == NULL || res == NULL) {
		rc = mem_error(err, out_name, NULL);
		goto done;
	}
	cli_json_start(&j, out, CLI_JSON_PRETTY);
	if (set->array_form) {
		cli_json_array(&j, NULL);
		cli_json_object(&j, NULL);
		/* the protocol's version, as the prompt gave it */
		cli_json_string(&j, "acvVersion", set->acv_version != NULL ?
		                set->acv_version : "1.0");
		cli_json_end(&j);
	}
	cli_json_object(&j, NULL);
	cli_json_int(&j, "vsId", set->vsid);
	cli_json_string(&j, "algorithm", ACVP_ALGORITHM);
	cli_json_string(&j, "revision", ACVP_REVISION);
	if (set->is_sample >= 0)
		cli_json_bool(&j, "isSample", set->is_sample);
	cli_json_array(&j, "testGroups");
	for (i = 0; i < set->ngroups && rc == ACVP_OK; i++) {
		const struct acvp_group *g = &set->groups[i];

		cli_json_object(&j, NULL);
		cli_json_uint(&j, "tgId", g->tgid);
		cli_json_array(&j, "tests");
		for (k = 0; k < g->ntests && rc == ACVP_OK; k++)
			rc = answer_test(&j, set, g, &g->tests[k], be, buf, res,
			                 err);
		cli_json_end(&j);
		cli_json_end(&j);
	}
	if (rc != ACVP_OK)
		goto done;
	cli_json_end(&j);
	cli_json_end(&j);
	if (set->array_form)
		cli_json_end(&j);
	if (cli_json_finish(&j) != 0)
		rc = set_err(err, ACVP_EIO, out_name, NULL, "cannot write: %s",
		             strerror(errno));
done:
	if (buf != NULL)
		aesecb_wipe(buf, maxlen);
	if (res != NULL)
		aesecb_wipe(res, MCT_OUTER * sizeof *res);
	acvp_release(buf);
	acvp_release(res);
	return rc;
}
