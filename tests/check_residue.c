/* SPDX-License-Identifier: MIT */
/*
 * check_residue.c - nothing derived from the key is left on the stack.
 *
 * For every available backend and key size, each library call is run
 * twice at the same stack depth, once under key A and once under key B,
 * with the same context address, the same data and the same buffers:
 *
 *     fill the stack below the caller with a pattern
 *     the call (aesecb_init, encrypt, decrypt, the QUIC mask and packet
 *         functions)
 *     copy the same region: what the library's frames left there
 *
 * Return addresses, saved registers and pointers are the same in both
 * runs, and so is everything that depends on the data alone; a byte that
 * differs between the two runs was derived from the key: a round key, a
 * copy of the key, an intermediate state that the library did not wipe.
 * That is what a wipe that was deleted (the portable backend's stack burn,
 * a key schedule's local copies) leaves, and what this test catches.  The
 * results the caller asked for (the cipher's output blocks, which the mask
 * paths go through) are no secret and are blanked before comparing.
 *
 * Meaningless under AddressSanitizer (its fake stacks move locals to the
 * heap) and under valgrind (which would report the copy of the region as
 * a read of undefined memory): SKIP there.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_VALGRIND_MEMCHECK_H
#include <valgrind/valgrind.h>
#endif

#include "aesecb.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif
#define BS AESECB_BLOCK_SIZE

/* The region probed below the caller: every backend's frames, with room
 * (32-bit x86 without SSE uses the most: about 14 KiB with its burn). */
#define PROBE (48 * 1024)

static uint8_t snap[2][PROBE], region[PROBE];

/*
 * Fill (scan == 0) or copy out (scan == 1) the stack region below the
 * caller's frame.  The same function with the same frame both times, so
 * 'area' covers the same addresses; the asm hides from the compiler that
 * the copy reads what an earlier call wrote.
 */
static NOINLINE void probe(int scan)
{
	uint8_t area[PROBE];
	uint8_t *p = area;
	size_t i;

	__asm__ __volatile__("" : "+r"(p) : : "memory");
	if (!scan) {
		for (i = 0; i < PROBE; i++)
			p[i] = (uint8_t)(0xa5 ^ (i * 7));
		__asm__ __volatile__("" : : "r"(p) : "memory");
	} else {
		memcpy(region, p, PROBE);
	}
}

enum op { OP_INIT, OP_ENC, OP_DEC, OP_MASK, OP_MASKS, OP_PROTECT,
          OP_UNPROTECT, NOPS };

static const char *const op_name[NOPS] = {
	"aesecb_init", "aesecb_encrypt", "aesecb_decrypt", "aesecb_hp_mask",
	"aesecb_hp_masks", "aesecb_hp_protect", "aesecb_hp_unprotect"
};

/* Everything a call works on: static, so none of it is on the stack; the
 * two runs differ only in the bytes of 'key' (and what follows from it). */
static aesecb_ctx ctx;
static uint8_t keys[2][32], key[32];
static uint8_t data[64 * BS], out[64 * BS], packet[96];

#define PN_OFFSET 9

/* The call itself, at the probed depth. */
static NOINLINE void call(enum op op, const aesecb_backend *be, size_t klen,
                          size_t n)
{
	switch (op) {
	case OP_INIT:
		aesecb_init(&ctx, key, klen, be);
		break;
	case OP_ENC:
		aesecb_encrypt(&ctx, data, out, n * BS);
		break;
	case OP_DEC:
		aesecb_decrypt(&ctx, data, out, n * BS);
		break;
	case OP_MASK:
		aesecb_hp_mask(&ctx, data, out);
		break;
	case OP_MASKS:
		aesecb_hp_masks(&ctx, data, out, n);
		break;
	case OP_PROTECT:
		aesecb_hp_protect(&ctx, packet, sizeof packet, PN_OFFSET);
		break;
	default:
		aesecb_hp_unprotect(&ctx, packet, sizeof packet, PN_OFFSET);
		break;
	}
}

static NOINLINE void run_case(enum op op, const aesecb_backend *be,
                              size_t klen, size_t n)
{
	probe(0);
	call(op, be, klen, n);
	probe(1);
	/* not a tail call: the scan runs at the depth of the fill */
	__asm__ __volatile__("" : : : "memory");
}

/* Blank every copy of the 16-byte blocks in 'blocks' found in s. */
static void blank_outputs(uint8_t *s, const uint8_t *blocks, size_t nblocks)
{
	size_t i, j;

	for (i = 0; i + BS <= PROBE; i++)
		for (j = 0; j < nblocks; j++)
			if (memcmp(s + i, blocks + j * BS, BS) == 0)
				memset(s + i, 0, BS);
}

/*
 * The two runs share everything but the key's bytes: which key is in use
 * lives in static memory, and check() below makes the same calls with the
 * same arguments for each run, so that no register of the caller's (a
 * loop counter, a pointer to this run's buffers) can differ between the
 * runs and be saved by the library into the probed region.
 */
static int cur;                         /* the key of this run: 0 or 1 */
static int init_failed;
static uint8_t outs[2][64 * BS];        /* the AES outputs the caller gets */
static size_t nouts;

static NOINLINE void prepare(enum op op, const aesecb_backend *be,
                             size_t klen, size_t n)
{
	memcpy(key, keys[cur], sizeof key);
	memset(packet, 0x40, sizeof packet);
	packet[0] = 0x41;
	nouts = 0;
	if (op == OP_INIT)
		return;
	if (aesecb_init(&ctx, key, klen, be) != AESECB_OK)
		init_failed = 1;
	if (op >= OP_MASK) {
		nouts = op == OP_MASKS ? n : 1;
		aesecb_encrypt(&ctx, op >= OP_PROTECT ? packet + PN_OFFSET + 4
		               : data, outs[cur], nouts * BS);
	}
}

static NOINLINE void keep(void)
{
	memcpy(snap[cur], region, PROBE);
	aesecb_clear(&ctx);
}

/* Blank, in both snapshots, the outputs of both runs. */
static void blank_all(void)
{
	int w;

	for (w = 0; w < 2 && nouts > 0; w++) {
		blank_outputs(snap[0], outs[w], nouts);
		blank_outputs(snap[1], outs[w], nouts);
	}
}

/*
 * One comparison: the call under key A, then under key B.  For the mask
 * and packet calls, the AES outputs of the samples under each key are
 * what the caller gets (or, for a packet, what protects it): blanked.
 * The first run is a warm-up: the first call of a function through the
 * dynamic linker resolves it on this stack, once.
 */
static int check(enum op op, const aesecb_backend *be, size_t klen, size_t n)
{
	size_t i, diff = 0, first = 0, last = 0;

	init_failed = 0;
	cur = 1;
	prepare(op, be, klen, n);
	run_case(op, be, klen, n);
	keep();
	cur = 0;
	prepare(op, be, klen, n);
	run_case(op, be, klen, n);
	keep();
	cur = 1;
	prepare(op, be, klen, n);
	run_case(op, be, klen, n);
	keep();
	if (init_failed)
		return -1;
	blank_all();
	for (i = 0; i < PROBE; i++) {
		if (snap[0][i] != snap[1][i]) {
			if (diff++ == 0)
				first = i;
			last = i;
		}
	}
	if (diff != 0)
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks): %zu bytes "
		       "of the stack depend on the key, from %zu to %zu bytes "
		       "below the caller's frame\n",
		       aesecb_backend_name(be), op_name[op], 8 * klen, n, diff,
		       PROBE - last, PROBE - first);
	return diff != 0;
}

int main(void)
{
	static const size_t klens[3] = { 16, 24, 32 };
	static const size_t counts[] = { 1, 2, 3, 4, 8, 9, 17, 33 };
	size_t b, k, c, checked = 0;
	int failed = 0, ran = 0;

#ifdef UNDER_ASAN
	puts("SKIP: AddressSanitizer moves stack frames to the heap");
	return 77;
#endif
#ifdef RUNNING_ON_VALGRIND
	if (RUNNING_ON_VALGRIND) {
		puts("SKIP: under valgrind");
		return 77;
	}
#endif
	for (k = 0; k < 32; k++) {
		keys[0][k] = (uint8_t)(0x11 * k + 1);
		keys[1][k] = (uint8_t)(0x3d ^ (0x65 * k));
	}
	for (k = 0; k < sizeof data; k++)
		data[k] = (uint8_t)(k * 13 + 5);

	for (b = 0; b < aesecb_backend_count(); b++) {
		const aesecb_backend *be = aesecb_backend_get(b);
		int bad = 0;
		enum op op;

		if (!aesecb_backend_available(be)) {
			printf("SKIP: backend %s: %s\n", aesecb_backend_name(be),
			       aesecb_backend_unavailable_reason(be));
			continue;
		}
		for (k = 0; k < 3; k++) {
			for (op = OP_INIT; op < NOPS; op++) {
				for (c = 0; c < sizeof counts / sizeof counts[0];
				     c++) {
					int r;

					if ((op == OP_INIT || op == OP_MASK ||
					     op >= OP_PROTECT) && c > 0)
						break;
					r = check(op, be, klens[k], counts[c]);
					if (r < 0) {
						printf("FAIL: backend %s: "
						       "aesecb_init failed\n",
						       aesecb_backend_name(be));
						r = 1;
					}
					bad |= r;
					checked++;
				}
			}
		}
		printf("%s: backend %s\n", bad ? "FAIL" : "PASS",
		       aesecb_backend_name(be));
		failed |= bad;
		ran++;
	}
	printf("%zu comparisons on %d backends\n", checked, ran);
	return failed ? 1 : ran > 0 ? 0 : 1;
}
