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
 * The vector registers are compared the same way, taken right after the
 * call (x86-64 and AArch64), for the calls the library burns, which clear
 * them (lib/aesecb.c); the register-only paths leave what their
 * instructions used (HACKING.md).
 *
 * The region is read in the caller's frame, with no function call (see
 * copy_out()).  The harness itself must not differ between the runs
 * either: a register
 * of the caller's that held, say, the run's number would be saved by the
 * library's first frame and show up as a difference.  So the runs are one
 * loop over static state, read only by functions that are not inlined:
 * the caller's registers are the same at every call.
 *
 * The probed region must reach below the deepest frame the library uses
 * (an unoptimised build of the vector backends uses hundreds of KiB): it
 * grows while a call changes its bottom, the test fails when it cannot
 * grow any more, and reports the deepest use it saw.
 *
 * Meaningless under AddressSanitizer (its fake stacks move locals to the
 * heap) and under valgrind (which would report the copy of the region as
 * a read of undefined memory): SKIP there.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_VALGRIND_MEMCHECK_H
#include <valgrind/valgrind.h>
#endif

#include "internal.h"

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
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define BS AESECB_BLOCK_SIZE

/*
 * The region probed below the caller: every frame of the library's, with
 * room.  It starts at 64 KiB and grows fourfold, up to PROBE_MAX, as long
 * as a call changes its last PROBE_SPARE bytes (the probe would not see
 * what lies below): an optimised build uses a few KiB, an -O0 build of the
 * vector backends much more (clang 14: 634 KiB frames in ssse3's bulk
 * functions).
 */
#define PROBE_MIN (64 * 1024)
#define PROBE_MAX (4 * 1024 * 1024)
#define PROBE_SPARE 4096
static size_t probe_len = PROBE_MIN;

static uint8_t snap[2][PROBE_MAX], region[PROBE_MAX], pattern[PROBE_MAX];
static uint8_t vsnap[2][32 * 16];       /* the registers after the call */
static size_t deepest;                 /* the deepest change seen */
static size_t call_depth;              /* the same for this comparison */

static uint8_t fill_byte(size_t i)
{
	return (uint8_t)(0xa5 ^ (i * 7));
}

/*
 * Fill the stack region below the caller's frame, and note where it is.
 * The asm hides from the compiler that the fill is read later.
 */
static uintptr_t probe_at;

static NOINLINE void fill(void)
{
	uint8_t *p = __builtin_alloca(probe_len);

	__asm__ __volatile__("" : "+r"(p) : : "memory");
	probe_at = (uintptr_t)p;
	memcpy(p, pattern, probe_len);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/*
 * Copy the region out: what the call left there.  Done in the caller's
 * own frame, with no call, so that nothing writes below its stack pointer
 * while it copies: a function of its own would put its frame on the region
 * (and a compiler that protects against stack clashes writes zeros into
 * every page of a large frame as it sets it up).  8 bytes at a time where
 * the region is aligned for that.
 */
static ALWAYS_INLINE void copy_out(void)
{
	size_t i;

	if (probe_at % 8 == 0) {
		const volatile uint64_t *q = (const volatile uint64_t *)probe_at;
		uint64_t *r = (uint64_t *)(void *)region;

		for (i = 0; i < probe_len / 8; i++)
			r[i] = q[i];
	} else {
		const volatile uint8_t *q = (const volatile uint8_t *)probe_at;

		for (i = 0; i < probe_len; i++)
			region[i] = q[i];
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

/*
 * The vector registers after the call, which a later variadic function's
 * prologue or the dynamic linker's lazy binding may store: zeroed before
 * the call, taken right after it (x86-64: xmm0-xmm15; AArch64: v0-v31).
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NVREGS 16
static uint8_t vregs[NVREGS * 16];

static NOINLINE __attribute__((target("sse2"))) void vregs_zero(void)
{
	__asm__ __volatile__(
		"pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\t"
		"pxor %%xmm2, %%xmm2\n\tpxor %%xmm3, %%xmm3\n\t"
		"pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
		"pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\t"
		"pxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\t"
		"pxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
		"pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\t"
		"pxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15"
		: : : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		      "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
		      "xmm13", "xmm14", "xmm15");
}

static NOINLINE __attribute__((target("sse2"))) void vregs_take(void)
{
	__asm__ __volatile__(
		"movdqu %%xmm0, 0(%0)\n\tmovdqu %%xmm1, 16(%0)\n\t"
		"movdqu %%xmm2, 32(%0)\n\tmovdqu %%xmm3, 48(%0)\n\t"
		"movdqu %%xmm4, 64(%0)\n\tmovdqu %%xmm5, 80(%0)\n\t"
		"movdqu %%xmm6, 96(%0)\n\tmovdqu %%xmm7, 112(%0)\n\t"
		"movdqu %%xmm8, 128(%0)\n\tmovdqu %%xmm9, 144(%0)\n\t"
		"movdqu %%xmm10, 160(%0)\n\tmovdqu %%xmm11, 176(%0)\n\t"
		"movdqu %%xmm12, 192(%0)\n\tmovdqu %%xmm13, 208(%0)\n\t"
		"movdqu %%xmm14, 224(%0)\n\tmovdqu %%xmm15, 240(%0)"
		: : "r"(vregs) : "memory");
}
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define NVREGS 32
static uint8_t vregs[NVREGS * 16];

static NOINLINE void vregs_zero(void)
{
	__asm__ __volatile__(
		"movi v0.16b, #0\n\tmovi v1.16b, #0\n\tmovi v2.16b, #0\n\t"
		"movi v3.16b, #0\n\tmovi v4.16b, #0\n\tmovi v5.16b, #0\n\t"
		"movi v6.16b, #0\n\tmovi v7.16b, #0\n\tmovi v16.16b, #0\n\t"
		"movi v17.16b, #0\n\tmovi v18.16b, #0\n\tmovi v19.16b, #0\n\t"
		"movi v20.16b, #0\n\tmovi v21.16b, #0\n\tmovi v22.16b, #0\n\t"
		"movi v23.16b, #0\n\tmovi v24.16b, #0\n\tmovi v25.16b, #0\n\t"
		"movi v26.16b, #0\n\tmovi v27.16b, #0\n\tmovi v28.16b, #0\n\t"
		"movi v29.16b, #0\n\tmovi v30.16b, #0\n\tmovi v31.16b, #0"
		: : : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16",
		      "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
		      "v25", "v26", "v27", "v28", "v29", "v30", "v31");
}

static NOINLINE void vregs_take(void)
{
	uint8_t *p = vregs;

	__asm__ __volatile__(
		"st1 {v0.16b, v1.16b, v2.16b, v3.16b}, [%0], #64\n\t"
		"st1 {v4.16b, v5.16b, v6.16b, v7.16b}, [%0], #64\n\t"
		"st1 {v8.16b, v9.16b, v10.16b, v11.16b}, [%0], #64\n\t"
		"st1 {v12.16b, v13.16b, v14.16b, v15.16b}, [%0], #64\n\t"
		"st1 {v16.16b, v17.16b, v18.16b, v19.16b}, [%0], #64\n\t"
		"st1 {v20.16b, v21.16b, v22.16b, v23.16b}, [%0], #64\n\t"
		"st1 {v24.16b, v25.16b, v26.16b, v27.16b}, [%0], #64\n\t"
		"st1 {v28.16b, v29.16b, v30.16b, v31.16b}, [%0], #64"
		: "+r"(p) : : "memory");
}
#else
#define NVREGS 0
static uint8_t vregs[1];

static void vregs_zero(void)
{
}

static void vregs_take(void)
{
}
#endif

/* The call itself, at the probed depth. */
static enum op call_op;
static const aesecb_backend *call_be;
static size_t call_klen, call_n;

static NOINLINE void call(void)
{
	const aesecb_backend *be = call_be;
	size_t klen = call_klen, n = call_n;

	vregs_zero();
	switch (call_op) {
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
	vregs_take();
}

/* The fill, the call and the copy.  No arguments: the fill and the call
 * must run at the same depth (32-bit x86 would push them in between). */
static NOINLINE void run_case(void)
{
	fill();
	call();
	copy_out();
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
	if (op == OP_ENC || op == OP_DEC) {
		nouts = n;
		if (op == OP_ENC)
			aesecb_encrypt(&ctx, data, outs[cur], n * BS);
		else
			aesecb_decrypt(&ctx, data, outs[cur], n * BS);
	} else if (op >= OP_MASK) {
		nouts = op == OP_MASKS ? n : 1;
		aesecb_encrypt(&ctx, op >= OP_PROTECT ? packet + PN_OFFSET + 4
		               : data, outs[cur], nouts * BS);
	}
}

/* The depth of the deepest byte the call changed in the region. */
static size_t depth_used(const uint8_t *s)
{
	size_t i = 0;

	while (i + 256 <= probe_len && memcmp(s + i, pattern + i, 256) == 0)
		i += 256;
	for (; i < probe_len; i++)
		if (s[i] != pattern[i])
			return probe_len - i;
	return 0;
}

static NOINLINE void keep(void)
{
	size_t d = depth_used(region);

	memcpy(snap[cur], region, probe_len);
	memcpy(vsnap[cur], vregs, sizeof vregs);
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

#if NVREGS > 0
/*
 * Whether the library runs this call's AES work as a burned call, which
 * clears the registers (lib/aesecb.c): always for key setup, else where the
 * backend does not declare the path register-only (or the build does not
 * optimise).  The register-only paths leave in the vector registers what
 * their instructions used (HACKING.md): not checked.
 */
static int burned_call(enum op op, const aesecb_backend *be, size_t n)
{
	unsigned regs = be->regs & AESECB_REGS(AESECB_REGS_ONE |
	                                       AESECB_REGS_BLOCKS);

	if (op == OP_INIT)
		return 1;
	if (op == OP_MASKS || ((op == OP_ENC || op == OP_DEC) && n > 1))
		return (regs & AESECB_REGS_BLOCKS) == 0;
	return regs == 0;
}

/* Whether the 16 bytes at r are one of the outputs of either run. */
static int is_output(const uint8_t *r)
{
	size_t k;
	int w;

	for (w = 0; w < 2; w++)
		for (k = 0; k < nouts; k++)
			if (memcmp(r, outs[w] + k * BS, BS) == 0)
				return 1;
	return 0;
}
#endif

/*
 * Whether byte i of s lies in a copy of one of the outputs of either run.
 * At the ends of the region a copy may be cut off (the frame of the entry
 * point that holds it starts above the region): at least 4 bytes of it
 * must be there.
 */
static int in_output(const uint8_t *s, size_t i)
{
	size_t k, lo, hi;
	ptrdiff_t j;
	int w;

	for (j = (ptrdiff_t)i - (BS - 1); j <= (ptrdiff_t)i; j++) {
		lo = j < 0 ? 0 : (size_t)j;
		hi = (size_t)(j + BS) > probe_len ? probe_len : (size_t)(j + BS);
		if (hi - lo < 4)
			continue;
		for (w = 0; w < 2; w++)
			for (k = 0; k < nouts; k++)
				if (memcmp(s + lo, outs[w] + k * BS +
				           (lo - (size_t)j), hi - lo) == 0)
					return 1;
	}
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
	for (;;) {
		run_next = 0;
		call_depth = 0;
		while (next_run()) {
			prepare(op, be, klen, n);
			call_op = op;
			call_be = be;
			call_klen = klen;
			call_n = n;
			run_case();
			keep();
		}
		if (call_depth <= probe_len - PROBE_SPARE || probe_len == PROBE_MAX)
			break;
		probe_len *= 4;         /* the call reached the bottom: again */
	}
	if (init_failed)
		return -1;
	if (call_depth > probe_len - PROBE_SPARE) {
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks) changed the "
		       "stack %zu bytes below the caller's frame, past what "
		       "this test can see (PROBE_MAX)\n",
		       aesecb_backend_name(be), op_name[op], 8 * klen, n,
		       call_depth);
		return 1;
	}
	for (i = 0; i < probe_len; i++) {
		uint8_t a = snap[0][i], b = snap[1][i];

		if (i % 256 == 0 && i + 256 <= probe_len &&
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
		       probe_len - last, probe_len - first);
#if NVREGS > 0
	for (i = 0; i < NVREGS && burned_call(op, be, n); i++) {
		const uint8_t *a = vsnap[0] + 16 * i, *b = vsnap[1] + 16 * i;

		if (memcmp(a, b, 16) == 0 || (is_output(a) && is_output(b)))
			continue;
		printf("FAIL: backend %s: %s (AES-%zu, %zu blocks): vector "
		       "register %zu depends on the key after the call\n",
		       aesecb_backend_name(be), op_name[op], 8 * klen, n, i);
		diff++;
	}
#endif
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
	for (k = 0; k < PROBE_MAX; k++)
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
