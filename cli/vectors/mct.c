/* SPDX-License-Identifier: MIT */
/*
 * mct.c - the AESAVS Monte Carlo test for ECB (see mct.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "common/hex.h"
#include "vectors/mct.h"

typedef int crypt_fn(const aesecb_ctx *, const uint8_t *, uint8_t *, size_t);

int mct_inner(const aesecb_ctx *ctx, int decrypt,
                  const uint8_t in[16], uint8_t prev[16], uint8_t last[16])
{
	crypt_fn *f = decrypt ? aesecb_decrypt : aesecb_encrypt;
	uint8_t a[16], b[16];
	uint8_t *cur = a, *nxt = b, *t;
	int j, rc = 0;

	memcpy(a, in, 16);
	for (j = 0; j < MCT_INNER; j++) {
		rc = f(ctx, cur, nxt, 16);
		if (rc != AESECB_OK)
			break;
		t = cur;
		cur = nxt;
		nxt = t;
	}
	/* cur: output 999, nxt: output 998 */
	memcpy(last, cur, 16);
	memcpy(prev, nxt, 16);
	aesecb_wipe(a, sizeof a);
	aesecb_wipe(b, sizeof b);
	return rc;
}

int mct_diverge(const aesecb_ctx *a, const aesecb_ctx *b, int decrypt,
                    const uint8_t in[16])
{
	crypt_fn *f = decrypt ? aesecb_decrypt : aesecb_encrypt;
	uint8_t xa[16], xb[16];
	int j, found = -1;

	memcpy(xa, in, 16);
	memcpy(xb, in, 16);
	for (j = 0; j < MCT_INNER; j++) {
		if (f(a, xa, xa, 16) != AESECB_OK ||
		    f(b, xb, xb, 16) != AESECB_OK) {
			found = -2;
			break;
		}
		if (cli_ct_differ(xa, xb, 16)) {
			found = j;
			break;
		}
	}
	aesecb_wipe(xa, sizeof xa);
	aesecb_wipe(xb, sizeof xb);
	return found;
}

void mct_next_key(uint8_t *key, size_t key_len,
                      const uint8_t prev[16], const uint8_t last[16])
{
	uint8_t both[32];
	size_t i;

	if (key_len > sizeof both)
		return;
	memcpy(both, prev, 16);
	memcpy(both + 16, last, 16);
	for (i = 0; i < key_len; i++)
		key[i] ^= both[sizeof both - key_len + i];
	aesecb_wipe(both, sizeof both);
}

long mct_locate(const aesecb_backend *be, const aesecb_ctx *ctx,
                const uint8_t *key, size_t key_len, int decrypt,
                const uint8_t in[16], const uint8_t expect[16],
                const char **ref)
{
	size_t i, n = aesecb_backend_count();

	*ref = NULL;
	for (i = 0; i < n; i++) {
		const aesecb_backend *other = aesecb_backend_get(i);
		aesecb_ctx octx;
		uint8_t prev[16], last[16];
		int j, bad;

		if (other == be || !aesecb_backend_available(other))
			continue;
		if (aesecb_init(&octx, key, key_len, other) != AESECB_OK)
			continue;
		bad = mct_inner(&octx, decrypt, in, prev, last) != 0 ||
		      cli_ct_differ(last, expect, 16);
		j = bad ? -1 : mct_diverge(ctx, &octx, decrypt, in);
		aesecb_clear(&octx);
		aesecb_wipe(prev, sizeof prev);
		aesecb_wipe(last, sizeof last);
		if (j >= 0) {
			*ref = aesecb_backend_name(other);
			return j;
		}
	}
	return -1;
}

int mct_chain_follows(const struct mct_chain *ch, int dir,
                      unsigned long count)
{
	return ch->valid && ch->dir == dir && count == ch->count + 1;
}

void mct_chain_advance(struct mct_chain *ch, int dir, unsigned long count,
                       const uint8_t *key, size_t key_len,
                       const uint8_t prev[16], const uint8_t last[16])
{
	ch->valid = 1;
	ch->dir = dir;
	ch->count = count;
	memcpy(ch->key, key, key_len);
	ch->key_len = key_len;
	mct_next_key(ch->key, ch->key_len, prev, last);
	memcpy(ch->next_in, last, 16);
}

int mct_run(const aesecb_backend *be, int decrypt, const uint8_t *key,
            size_t key_len, const uint8_t in[16],
            struct mct_result out[MCT_OUTER])
{
	aesecb_ctx ctx;
	uint8_t k[32], next[16], prev[16];
	int i, rc = AESECB_OK;

	if (key_len != 16 && key_len != 24 && key_len != 32)
		return AESECB_EKEYLEN;
	/* whole records, unused key bytes included, so they compare */
	memset(out, 0, MCT_OUTER * sizeof *out);
	memcpy(k, key, key_len);
	memcpy(next, in, 16);
	for (i = 0; i < MCT_OUTER && rc == AESECB_OK; i++) {
		struct mct_result *r = &out[i];

		memcpy(r->key, k, key_len);
		r->key_len = key_len;
		memcpy(r->in, next, 16);
		rc = aesecb_init(&ctx, k, key_len, be);
		if (rc == AESECB_OK)
			rc = mct_inner(&ctx, decrypt, r->in, prev, r->out);
		aesecb_clear(&ctx);
		mct_next_key(k, key_len, prev, r->out);
		memcpy(next, r->out, 16);
	}
	if (rc != AESECB_OK)
		aesecb_wipe(out, MCT_OUTER * sizeof *out);
	aesecb_wipe(k, sizeof k);
	aesecb_wipe(next, sizeof next);
	aesecb_wipe(prev, sizeof prev);
	return rc;
}
