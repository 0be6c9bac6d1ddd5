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
 * That is what a burn or a stack record that was deleted (lib/aesecb.c,
 * "Burned calls") leaves, and what this test catches.  The results the
 * caller asked for (the cipher's output blocks, which the mask paths go
 * through) are no secret and are blanked before comparing; so is what
 * aesecb_hp_unprotect returns, by a sample whose packet-number length is
 * the same under both keys.
 *
 * The harness itself must not differ between the runs either: a register
 * of the caller's that held, say, the run's number would be saved by the
 * library's first frame and show up as a difference.  So the runs are one
 * loop over static state, read only by functions that are not inlined:
 * the caller's registers are the same at every call.
 *
 * The probed region must reach below the deepest frame the library uses
 * (an unoptimised build of the vector backends uses tens of KiB): the test
 * fails when a call changed the bottom of the region, and reports the
 * deepest use it saw.
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
 * (an -O0 build of ssse3 uses the most: its bulk functions' frames are
 * 242 KiB with gcc 12 on x86-64). */
#define PROBE (512 * 1024)
/* A call may not change any of the region's last bytes: the probe would
 * not see what lies below. */
#define PROBE_SPARE 4096

static uint8_t snap[2][PROBE], region[PROBE], pattern[PROBE];
static size_t deepest;                 /* the deepest change seen */
static size_t call_depth;              /* the same for this comparison */

static uint8_t fill_byte(size_t i)
{
	return (uint8_t)(0xa5 ^ (i * 7));
}

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

	__asm__ __volatile__("" : "+r"(p) : : "memory");
	if (!scan) {
		memcpy(p, pattern, PROBE);
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
static uint8_t packet_fill;             /* the bytes of the packet */

/* The runs of one comparison: key B first, as a warm-up (the first call
 * of a function through the dynamic linker resolves it on this stack),
 * then A, then B. */
static const int run_keys[3] = { 1, 0, 1 };
static size_t run_next;

/* Starts the next run; 0 when there is none.  Not inlined, so that the
 * caller holds nothing but the answer, the same for every run. */
static NOINLINE int next_run(void)
{
	if (run_next == sizeof run_keys / sizeof run_keys[0])
		return 0;
	cur = run_keys[run_next++];
	return 1;
}

static void fill_packet(void)
{
	memset(packet, packet_fill, sizeof packet);
	packet[0] = 0x41;               /* a short header */
}

static NOINLINE void prepare(enum op op, const aesecb_backend *be,
                             size_t klen, size_t n)
{
	memcpy(key, keys[cur], sizeof key);
	fill_packet();
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

/* The depth of the deepest byte the call changed in the region. */
static size_t depth_used(const uint8_t *s)
{
	size_t i = 0;

	while (i + 256 <= PROBE && memcmp(s + i, pattern + i, 256) == 0)
		i += 256;
	for (; i < PROBE; i++)
		if (s[i] != pattern[i])
			return PROBE - i;
	return 0;
}

static NOINLINE void keep(void)
{
	size_t d = depth_used(region);

	memcpy(snap[cur], region, PROBE);
	if (d > call_depth)
		call_depth = d;
	if (d > deepest)
		deepest = d;
	aesecb_clear(&ctx);
}

/*
 * The packet bytes for aesecb_hp_unprotect: such that the packet-number
 * length it returns, which the mask's first byte gives, is the same under
 * both keys.  Chosen before the runs, with the same calls in each.
 */
static void choose_packet(enum op op, const aesecb_backend *be, size_t klen)
{
	aesecb_ctx c;
	uint8_t m[2][5];
	unsigned v;
	int w;

	packet_fill = 0x40;
	if (op != OP_UNPROTECT)
		return;
	for (v = 0x40; v < 0x140; v++) {
		packet_fill = (uint8_t)v;
		fill_packet();
		for (w = 0; w < 2; w++) {
			aesecb_init(&c, keys[w], klen, be);
			aesecb_hp_mask(&c, packet + PN_OFFSET + 4, m[w]);
		}
		aesecb_clear(&c);
		if (((m[0][0] ^ m[1][0]) & 3) == 0)
			return;
	}
}

/* Whether byte i of s lies in a copy of one of the outputs of either run. */
static int in_output(const uint8_t *s, size_t i)
{
	size_t j, k, lo = i >= BS - 1 ? i - (BS - 1) : 0;
	int w;

	for (j = lo; j <= i && j + BS <= PROBE; j++)
		for (w = 0; w < 2; w++)
			for (k = 0; k < nouts; k++)
				if (memcmp(s + j, outs[w] + k * BS, BS) == 0)
					return 1;
	return 0;
}

/*
 * One comparison: the call under key A, then under key B (after a
 * warm-up run).  For the mask and packet calls, the AES outputs of the
 * samples under each key are what the caller gets (or, for a packet, what
 * protects it): a byte in a copy of one of them counts as 0.
 */
static int check(enum op op, const aesecb_backend *be, size_t klen, size_t n)
{
	size_t i, diff = 0, first = 0, last = 0;

	init_failed = 0;
	choose_packet(op, be, klen);
	run_next = 0;
	call_depth = 0;
	while (next_run()) {
		prepare(op, be, klen, n);
		run_case(op, be, klen, n);
		keep();
	}
	if (init_failed)
		return -1;
	for (i = 0; i < PROBE; i++) {
		uint8_t a = snap[0][i], b = snap[1][i];

		if (i % 256 == 0 && i + 256 <= PROBE &&
		    memcmp(snap[0] + i, snap[1] + i, 256) == 0) {
			i += 255;
			continue;
		}
		if (a == b)
			continue;
		if (in_output(snap[0], i))
			a = 0;
		if (in_output(snap[1], i))
			b = 0;
		if (a == b)
			continue;
		if (diff++ == 0)
			first = i;
		last = i;
	}
	if (diff != 0)
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks): %zu bytes "
		       "of the stack depend on the key, from %zu to %zu bytes "
		       "below the caller's frame\n",
		       aesecb_backend_name(be), op_name[op], 8 * klen, n, diff,
		       PROBE - last, PROBE - first);
	if (call_depth > PROBE - PROBE_SPARE) {
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks) changed the "
		       "stack %zu bytes below the caller's frame, past what "
		       "this test can see (PROBE)\n", aesecb_backend_name(be),
		       op_name[op], 8 * klen, n, call_depth);
		return 1;
	}
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
	for (k = 0; k < PROBE; k++)
		pattern[k] = fill_byte(k);

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
	printf("%zu comparisons on %d backends; the deepest stack use seen: "
	       "%zu bytes below the caller's frame\n", checked, ran, deepest);
	return failed ? 1 : ran > 0 ? 0 : 1;
}
