/* SPDX-License-Identifier: MIT */
/*
 * eva_main.c - what 'make prove' has Eva (Frama-C's abstract interpreter)
 * run: every public entry point of the library, with the portable
 * backend and the core as they are compiled (the backend table, CPU
 * detection, the context's pointers and slots followed as they are set),
 * on every input of the ranges below at once.  An alarm is a possible
 * run-time error (an access out of bounds, an overflow, a bad shift, an
 * uninitialised read ...) on some input of those ranges; 'make prove'
 * fails on any alarm that prove/known does not list with its reason.
 *
 * Ranges: key lengths 0 to 33 bytes, each its own analysis; lengths of 0
 * to 21 blocks plus 0 to 15 bytes, in place or not; 0 to 21 masks; QUIC
 * packets of 0 to 64 bytes with a packet-number offset of 0 to 64; NULL
 * for every pointer; contexts initialised, refused, cleared and never
 * initialised (zeroed); the default backend, the portable one by name,
 * and a pointer that is no backend.  Not a program to run: it is built
 * only by the analyser.
 */
#include <__fc_builtin.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "aesecb.h"

enum { MAX_BLOCKS = 21, MAX_LEN = 16 * MAX_BLOCKS + 15, MAX_PACKET = 64 };

static uint8_t key[33];
static uint8_t in[MAX_LEN], out[MAX_LEN];
static uint8_t samples[16 * MAX_BLOCKS], masks[5 * MAX_BLOCKS];
static uint8_t packet[MAX_PACKET];

/* Some bytes, or NULL. */
static uint8_t *or_null(uint8_t *p)
{
	return Frama_C_nondet(0, 1) ? p : NULL;
}

/* Every entry point that takes a context, on ctx. */
static void calls(const aesecb_ctx *ctx)
{
	size_t nb = Frama_C_size_t_interval(0, MAX_BLOCKS);
	size_t len = 16 * nb + Frama_C_size_t_interval(0, 15);
	size_t n = Frama_C_size_t_interval(0, MAX_BLOCKS);
	size_t plen = Frama_C_size_t_interval(0, MAX_PACKET);
	size_t pn = Frama_C_size_t_interval(0, MAX_PACKET);
	uint8_t *src = or_null(in);
	uint8_t *dst = Frama_C_nondet(0, 1) ? or_null(out) : src;
	uint8_t *sample = or_null(samples);
	uint8_t *mask = or_null(masks);
	uint8_t *pkt = or_null(packet);

	Frama_C_make_unknown((char *)in, sizeof in);
	Frama_C_make_unknown((char *)samples, sizeof samples);
	Frama_C_make_unknown((char *)packet, sizeof packet);
	/* each block count a state of its own (the pass loop's pointer and
	 * count stay related), joined again after the calls */
	//@ split nb;
	aesecb_encrypt(ctx, src, dst, len);
	aesecb_decrypt(ctx, src, dst, len);
	//@ merge nb;
	aesecb_encrypt(ctx, src, dst, 16);
	aesecb_decrypt(ctx, src, dst, 16);
	aesecb_hp_mask(ctx, sample, mask);
	//@ split n;
	aesecb_hp_masks(ctx, sample, mask, n);
	//@ merge n;
	aesecb_hp_protect(ctx, pkt, plen, pn);
	aesecb_hp_unprotect(ctx, pkt, plen, pn);
	aesecb_ctx_backend(ctx);
}

/* The header-protection entry points on ctx: one mask, whole packets. */
static void hp_calls(const aesecb_ctx *ctx)
{
	size_t plen = Frama_C_size_t_interval(0, MAX_PACKET);
	size_t pn = Frama_C_size_t_interval(0, MAX_PACKET);
	uint8_t *sample = or_null(samples);
	uint8_t *mask = or_null(masks);
	uint8_t *pkt = or_null(packet);

	Frama_C_make_unknown((char *)samples, sizeof samples);
	Frama_C_make_unknown((char *)packet, sizeof packet);
	aesecb_hp_mask(ctx, sample, mask);
	aesecb_hp_protect(ctx, pkt, plen, pn);
	aesecb_hp_unprotect(ctx, pkt, plen, pn);
}

/* A context for a key of klen bytes (or a refused one), then the calls. */
static void with_key(size_t klen, const aesecb_backend *be)
{
	aesecb_ctx ctx;
	aesecb_ctx *heap = NULL;

	Frama_C_make_unknown((char *)key, sizeof key);
	aesecb_init(&ctx, or_null(key), klen, be);
	calls(&ctx);
	aesecb_clear(&ctx);
	calls(&ctx);
	if (aesecb_ctx_new(&heap, key, klen, be) == AESECB_OK)
		calls(heap);
	aesecb_ctx_free(heap);
}

int main(void)
{
	static aesecb_ctx zeroed;   /* never initialised: all zero */
	const aesecb_backend *none = aesecb_backend_find("none");
	size_t klen, i;

	calls(NULL);
	calls(&zeroed);
	/*@ loop unroll 34; */
	for (klen = 0; klen <= 33; klen++)
		with_key(klen, none);
	with_key(16, NULL);
	with_key(16, (const aesecb_backend *)&zeroed);  /* no backend */
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		aesecb_backend_name(be);
		aesecb_backend_arch(be);
		aesecb_backend_compiled(be);
		aesecb_backend_available(be);
		aesecb_backend_scratch_written(be, 0);
		aesecb_backend_requires(be);
		aesecb_backend_unavailable_reason(be);
		aesecb_backend_dit(be);
	}
	aesecb_backend_default();
	aesecb_strerror(Frama_C_interval(-10, 2));
	aesecb_version();
	return 0;
}

/*
 * Header protection alone, on the ranges above (every key length, the
 * portable backend): the entry 'make prove-defects' gives Eva for the
 * planted defects of header protection (PROVE_FCT_eva=eva_hp), a run of
 * seconds where main's takes minutes.
 */
/* A context for a key of klen bytes (or a refused one), then the
 * header-protection calls. */
static void hp_with_key(size_t klen, const aesecb_backend *be)
{
	aesecb_ctx ctx;

	Frama_C_make_unknown((char *)key, sizeof key);
	aesecb_init(&ctx, or_null(key), klen, be);
	hp_calls(&ctx);
	aesecb_clear(&ctx);
	hp_calls(&ctx);
}

int eva_hp(void)
{
	static aesecb_ctx zeroed;   /* never initialised: all zero */
	const aesecb_backend *none = aesecb_backend_find("none");
	size_t klen;

	hp_calls(NULL);
	hp_calls(&zeroed);
	/*@ loop unroll 34; */
	for (klen = 0; klen <= 33; klen++)
		hp_with_key(klen, none);
	return 0;
}
