/* SPDX-License-Identifier: MIT */
/*
 * fuzz_backends.c - libFuzzer harness: every available backend against
 * the portable backend "none".
 *
 * One input describes one call:
 *
 *   byte 0      bits 0-1: key size (16, 24, 32; 3 = 16)
 *               bits 2-4: operation: 0-1 encrypt, 2-3 decrypt,
 *                         4 hp_mask, 5-7 hp_masks
 *               bit 5:    in place
 *   byte 1      offset of the input in its buffer (0..63)
 *   byte 2      offset of the output in its buffer (0..63)
 *   bytes 3-4   length in bytes, little-endian, modulo MAXLEN + 1
 *               (encrypt/decrypt), or number of samples (hp_masks)
 *   bytes 5-36  key (the first 16, 24 or 32 bytes are used)
 *   the rest    data, repeated cyclically to the length needed
 *
 * Every backend must return the same status as none and produce the same
 * bytes; a length that is not a whole number of blocks must fail with
 * AESECB_EPARTIAL and leave the output untouched, and nothing may be
 * written outside the output (the buffers carry a canary around it).
 * The sanitizers (address, undefined) catch out-of-bounds accesses.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"

#define BS AESECB_BLOCK_SIZE
#define MAXBLOCKS 80
#define MAXLEN (MAXBLOCKS * BS)
#define SLACK 64
#define BUFLEN (SLACK + MAXLEN + SLACK)
#define CANARY 0xa5

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAXBE 16
static const aesecb_backend *others[MAXBE];
static size_t n_others;
static const aesecb_backend *none;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	none = aesecb_backend_find("none");
	if (none == NULL || !aesecb_backend_available(none))
		abort();
	fprintf(stderr, "fuzz_backends: compared with none:");
	for (i = 0; i < aesecb_backend_count() && n_others < MAXBE; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (be != none && aesecb_backend_available(be)) {
			others[n_others++] = be;
			fprintf(stderr, " %s", aesecb_backend_name(be));
		}
	}
	fprintf(stderr, "%s\n", n_others == 0 ? " (no other backend)" : "");
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (!aesecb_backend_available(be))
			fprintf(stderr, "fuzz_backends: SKIP: backend %s: %s\n",
			        aesecb_backend_name(be),
			        aesecb_backend_unavailable_reason(be));
	}
	return 0;
}

struct call {
	size_t key_len;
	unsigned op;        /* 0 encrypt, 1 decrypt, 2 hp_mask, 3 hp_masks */
	int in_place;
	size_t in_off, out_off, len, nmasks;
	uint8_t key[32];
	uint8_t src[MAXLEN];
};

/* Run one call on ctx; out receives the output buffer (BUFLEN bytes). */
static int run(const aesecb_ctx *ctx, const struct call *c, uint8_t *out)
{
	static uint8_t inbuf[BUFLEN];
	uint8_t *dst = out + SLACK + c->out_off;
	const uint8_t *src;
	int rc = 0;

	memset(out, CANARY, BUFLEN);
	if (c->in_place) {
		/* the data sits where the output goes */
		memcpy(dst, c->src, c->op == 3 ? c->nmasks * BS : c->len);
		src = dst;
	} else {
		memset(inbuf, 0x3c, sizeof inbuf);
		memcpy(inbuf + SLACK + c->in_off, c->src,
		       c->op == 3 ? c->nmasks * BS : c->len);
		src = inbuf + SLACK + c->in_off;
	}
	switch (c->op) {
	case 0:
		rc = aesecb_encrypt(ctx, src, dst, c->len);
		break;
	case 1:
		rc = aesecb_decrypt(ctx, src, dst, c->len);
		break;
	case 2:
		if (c->in_place) {
			/* mask written over the sample's first bytes */
			uint8_t sample[BS];

			memcpy(sample, src, BS);
			aesecb_hp_mask(ctx, sample, dst);
		} else {
			aesecb_hp_mask(ctx, src, dst);
		}
		break;
	default:
		if (c->in_place) {
			/* hp_masks does not allow overlap: masks after the
			 * samples in the same buffer */
			rc = aesecb_hp_masks(ctx, src, dst + c->nmasks * BS,
			                     c->nmasks);
		} else {
			rc = aesecb_hp_masks(ctx, src, dst, c->nmasks);
		}
		break;
	}
	return rc;
}

static uint8_t want[BUFLEN], got[BUFLEN];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct call c;
	aesecb_ctx ref, ctx;
	size_t i, raw, rest;
	int rc_want, rc;

	if (size < 5 + 32)
		return 0;
	c.key_len = (data[0] & 3) == 1 ? 24 : (data[0] & 3) == 2 ? 32 : 16;
	switch ((data[0] >> 2) & 7) {
	case 0: case 1: c.op = 0; break;
	case 2: case 3: c.op = 1; break;
	case 4: c.op = 2; break;
	default: c.op = 3; break;
	}
	c.in_place = (data[0] >> 5) & 1;
	c.in_off = data[1] & 63;
	c.out_off = data[2] & 63;
	raw = (size_t)data[3] | (size_t)data[4] << 8;
	c.len = raw % (MAXLEN + 1);
	/* hp_masks: n samples and, in place, n masks after them */
	c.nmasks = raw % (c.in_place ? MAXLEN / (BS + 5) + 1 : MAXBLOCKS + 1);
	if (c.op == 2)
		c.len = BS;
	memcpy(c.key, data + 5, 32);
	rest = size - 37;
	for (i = 0; i < MAXLEN; i++)
		c.src[i] = rest > 0 ? data[37 + i % rest] : (uint8_t)i;

	if (aesecb_init(&ref, c.key, c.key_len, none) != AESECB_OK)
		abort();
	rc_want = run(&ref, &c, want);
	if (c.op <= 1 && c.len % BS != 0) {
		size_t k;

		if (rc_want != AESECB_EPARTIAL)
			abort();
		/* out untouched: in place, it still holds the input */
		for (k = 0; k < BUFLEN; k++) {
			size_t at = k - SLACK - c.out_off;

			if (c.in_place && k >= SLACK + c.out_off && at < c.len) {
				if (want[k] != c.src[at])
					abort();
			} else if (want[k] != CANARY) {
				abort();
			}
		}
	}
	if (c.op <= 1 && c.len % BS == 0 && rc_want != AESECB_OK)
		abort();

	for (i = 0; i < n_others; i++) {
		if (aesecb_init(&ctx, c.key, c.key_len, others[i]) != AESECB_OK)
			abort();
		rc = run(&ctx, &c, got);
		if (rc != rc_want) {
			fprintf(stderr, "backend %s: status %d, none: %d\n",
			        aesecb_backend_name(others[i]), rc, rc_want);
			abort();
		}
		if (memcmp(got, want, BUFLEN) != 0) {
			fprintf(stderr, "backend %s: output differs from none "
			        "(op %u, %zu bytes, %zu masks, in place %d)\n",
			        aesecb_backend_name(others[i]), c.op, c.len,
			        c.nmasks, c.in_place);
			abort();
		}
		aesecb_clear(&ctx);
	}
	aesecb_clear(&ref);
	return 0;
}
