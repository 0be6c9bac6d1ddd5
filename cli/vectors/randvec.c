/* SPDX-License-Identifier: MIT */
/*
 * randvec.c - random cases for 'aesecb verify --random' (see randvec.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "vectors/randvec.h"

/* QUIC packets of RV_PROTECT: pn_offset + 20 bytes at least. */
#define RV_PACKET 48

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void rv_seed(struct rv_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rv_next(struct rv_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

static void fill(struct rv_rng *r, uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 8) {
		uint64_t v = rv_next(r);
		size_t k;

		for (k = 0; k < 8 && i + k < n; k++)
			p[i + k] = (uint8_t)(v >> (8 * k));
	}
}

void rv_make(struct rv_rng *r, unsigned long index, struct rv_case *c)
{
	uint64_t v = rv_next(r);

	memset(c, 0, sizeof *c);
	c->index = index;
	c->op = (int)(v % RV_NOPS);
	c->key_len = 16 + 8 * (size_t)((v >> 8) % 3);
	c->nblocks = 1 + (size_t)((v >> 16) % RV_MAX_BLOCKS);
	if (c->op == RV_MASK)
		c->nblocks = 1;
	if (c->op == RV_PROTECT)
		c->nblocks = RV_PACKET / 16;
	fill(r, c->key, c->key_len);
	fill(r, c->in, c->nblocks * 16);
	if (c->op == RV_PROTECT) {
		/* in[0]: the first byte; in[1]: pn_offset (1..20); in[2]: the
		 * packet length (pn_offset + 20 .. RV_PACKET) */
		size_t pn = 1 + c->in[1] % 20;

		c->in[1] = (uint8_t)pn;
		c->in[2] = (uint8_t)(pn + 20 + c->in[2] % (RV_PACKET - pn - 19));
	}
}

size_t rv_out_len(const struct rv_case *c)
{
	switch (c->op) {
	case RV_MASK:
		return 5;
	case RV_MASKS:
		return 5 * c->nblocks;
	default:
		return 16 * c->nblocks;
	}
}

size_t rv_unit_len(const struct rv_case *c)
{
	switch (c->op) {
	case RV_MASK:
	case RV_MASKS:
		return 5;
	case RV_PROTECT:
		return RV_PACKET;
	default:
		return 16;
	}
}

int rv_run(const struct rv_case *c, const aesecb_backend *be, uint8_t *out)
{
	aesecb_ctx ctx;
	int rc;

	memset(out, 0, rv_out_len(c));
	rc = aesecb_init(&ctx, c->key, c->key_len, be);
	if (rc != AESECB_OK)
		return rc;
	switch (c->op) {
	case RV_ENCRYPT:
		rc = aesecb_encrypt(&ctx, c->in, out, 16 * c->nblocks);
		break;
	case RV_DECRYPT:
		rc = aesecb_decrypt(&ctx, c->in, out, 16 * c->nblocks);
		break;
	case RV_MASK:
		rc = aesecb_hp_mask(&ctx, c->in, out);
		break;
	case RV_MASKS:
		rc = aesecb_hp_masks(&ctx, c->in, out, c->nblocks);
		break;
	default: {
		size_t pn = c->in[1], len = c->in[2];
		uint8_t back[RV_PACKET];

		memcpy(out, c->in, len);
		out[1] = c->in[3];  /* a header byte, not the parameters */
		out[2] = c->in[4];
		rc = aesecb_hp_protect(&ctx, out, len, pn);
		if (rc == AESECB_OK) {
			memcpy(back, out, len);
			rc = aesecb_hp_unprotect(&ctx, back, len, pn);
			if (rc > 0) {
				rc = AESECB_OK;
				if (back[1] != c->in[3] || back[2] != c->in[4] ||
				    memcmp(back + 3, c->in + 3, len - 3) != 0 ||
				    back[0] != c->in[0])
					rc = -1;
			}
		}
		break;
	}
	}
	aesecb_clear(&ctx);
	return rc;
}

long rv_compare(const struct rv_case *c, const uint8_t *a, const uint8_t *b)
{
	size_t unit = rv_unit_len(c), n = rv_out_len(c), i, k;

	for (i = 0; i < n; i += unit) {
		uint32_t acc = 0;

		for (k = 0; k < unit; k++)
			acc |= (uint32_t)(a[i + k] ^ b[i + k]);
		if (acc != 0)
			return (long)(i / unit);
	}
	return -1;
}

const char *rv_op_name(int op)
{
	static const char *const names[RV_NOPS] = {
		"encrypt", "decrypt", "hp_mask", "hp_masks", "hp_protect"
	};

	return op >= 0 && op < RV_NOPS ? names[op] : "?";
}
