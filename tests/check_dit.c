/* SPDX-License-Identifier: MIT */
/*
 * check_dit.c - data-independent timing on AArch64 (PSTATE.DIT).
 *
 * On a CPU with FEAT_DIT the library sets PSTATE.DIT for the duration of
 * every call into a backend and then puts the caller's value back.  This
 * program checks that from the inside: it initialises a context, swaps its
 * private block, mask and one-block function pointers for its own
 * functions, which read the DIT register, note the value and call the real
 * backend function, and then calls every public entry point.  DIT must be 1 inside
 * every call and, afterwards, what it was before, with the caller's DIT 0
 * and with it 1 (set here).  aesecb_init and aesecb_ctx_new must leave the
 * caller's value too, and so must every call that fails its argument
 * checks (those never reach the backend).  The outputs are compared with
 * an unhooked context's, and the FIPS 197 answer.
 *
 * Key setup is watched from the inside too: every backend's key setup is
 * a burned call, which records its frame with aesecb__stack_mark()
 * (lib/aesecb.c); where the linker wraps functions (-Wl,--wrap, configure
 * defines AESECB_TEST_WRAP_MARK), this program's wrapper of it reads DIT
 * at each such call from a backend.
 *
 * On a CPU without FEAT_DIT the register does not exist (reading it is
 * UNDEFINED: SIGILL), so this program never touches it there: it checks
 * that no backend and no context asks for DIT and that the same calls
 * work, and then reports SKIP (exit 77), as it does on other
 * architectures, where the same checks run.  The run itself shows that the
 * library executed no DIT instruction on such a CPU.
 *
 * $AESECB_TEST_DIT=1 makes it fail unless the CPU has FEAT_DIT and every
 * available backend runs with it; =0 makes it fail if any does (CI sets it
 * per emulated CPU model, so the detection is checked as well).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "internal.h"

#define BS AESECB_BLOCK_SIZE

/* ------------------------------------------------------------------ */
/* The DIT register (AArch64 only, and only on a CPU that has it).     */

static int cpu_dit;     /* the CPU has FEAT_DIT, as the library detects it */

#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define ARCH_DIT 1

/* DIT is S3_3_C4_C2_5, PSTATE.DIT its bit 24. */
static int dit_get(void)
{
	uint64_t v;

	ck_assert_msg(cpu_dit, "DIT register read on a CPU without FEAT_DIT");
	__asm__ __volatile__("mrs %0, S3_3_C4_C2_5" : "=r"(v) : : "memory");
	return (int)((v >> 24) & 1);
}

/* The same without Check's bookkeeping (the wrapper below runs outside
 * the tests too); only on a CPU that has the register. */
static int dit_read(void)
{
	uint64_t v;

	__asm__ __volatile__("mrs %0, S3_3_C4_C2_5" : "=r"(v) : : "memory");
	return (int)((v >> 24) & 1);
}

static void dit_set(int on)
{
	uint64_t v = on ? UINT64_C(1) << 24 : 0;

	ck_assert_msg(cpu_dit, "DIT register written on a CPU without FEAT_DIT");
	__asm__ __volatile__("msr S3_3_C4_C2_5, %0" : : "r"(v) : "memory");
}
#else
#define ARCH_DIT 0

static int dit_get(void)
{
	ck_abort_msg("no DIT register on this architecture");
	return -1;
}

static int dit_read(void)
{
	return 0;
}

static void dit_set(int on)
{
	(void)on;
	ck_abort_msg("no DIT register on this architecture");
}
#endif

/* ------------------------------------------------------------------ */
/* Hooks: what the library calls instead of the backend.               */

static aesecb_blocks_fn *real_encrypt, *real_decrypt;
static aesecb_masks_fn *real_masks;
static aesecb_one_fn *real_one[AESECB_ONE_N];
static int hook_calls;          /* calls that reached a hook */
static int hook_dit;            /* DIT inside the last one; -1: not read */
static int hook_dit_min;        /* the lowest DIT seen inside; 2: none */

static void hook_note(void)
{
	hook_calls++;
	if (cpu_dit) {
		hook_dit = dit_get();
		if (hook_dit < hook_dit_min)
			hook_dit_min = hook_dit;
	}
}

static int hook_encrypt(const aesecb_ctx *ctx, const uint8_t *in,
                        uint8_t *out, size_t nblocks, aesecb_stack *stk)
{
	hook_note();
	return real_encrypt(ctx, in, out, nblocks, stk);
}

static int hook_decrypt(const aesecb_ctx *ctx, const uint8_t *in,
                        uint8_t *out, size_t nblocks, aesecb_stack *stk)
{
	hook_note();
	return real_decrypt(ctx, in, out, nblocks, stk);
}

static int hook_masks(const aesecb_ctx *ctx, const uint8_t *samples,
                      uint8_t *masks, size_t n, aesecb_stack *stk)
{
	hook_note();
	return real_masks(ctx, samples, masks, n, stk);
}

/*
 * The library's stack mark, as the backends call it (the linker sends
 * their calls here; the core's own calls, in the same object file as the
 * mark, are not wrapped).  Key setup makes at least one such call.
 */
static int mark_calls;          /* calls from a backend */
static int mark_dit_min;        /* the lowest DIT seen in them; 2: none */

#ifdef AESECB_TEST_WRAP_MARK
void __real_aesecb__stack_mark(aesecb_stack *stk);
void __wrap_aesecb__stack_mark(aesecb_stack *stk);

void __wrap_aesecb__stack_mark(aesecb_stack *stk)
{
	mark_calls++;
	if (cpu_dit && ARCH_DIT) {
		int d = dit_read();

		if (d < mark_dit_min)
			mark_dit_min = d;
	}
	__real_aesecb__stack_mark(stk);
}
#endif

static void mark_reset(void)
{
	mark_calls = 0;
	mark_dit_min = 2;
}

/*
 * Whether the wrapper sees the backends' calls: the linker's wrap does not
 * reach calls it resolves inside link-time-optimised code.  Asked once, of
 * the portable backend's key setup called directly (which records its
 * frame: tests/check_lib checks that).
 */
static int watch_setkey;

#ifdef AESECB_TEST_WRAP_MARK
static int wrap_reaches_backends(void)
{
	const aesecb_backend *be = aesecb_backend_find("none");
	aesecb_ctx c;
	aesecb_stack rec;
	uint8_t key[16] = { 0 };

	memset(&c, 0, sizeof c);
	c.priv_backend = be;
	c.priv_rounds = 10;
	c.priv_key_len = 16;
	rec.low = (uintptr_t)&rec;
	mark_reset();
	be->impl->setkey(&c, key, sizeof key, &rec);
	aesecb_clear(&c);
	return mark_calls > 0;
}
#endif

/* The one-block functions (which, where the backend has none of its own,
 * call the block or mask functions above: then both hooks run). */
static int hook_one_enc(const aesecb_ctx *ctx, const uint8_t *in,
                        uint8_t *out)
{
	hook_note();
	return real_one[AESECB_ONE_ENC](ctx, in, out);
}

static int hook_one_dec(const aesecb_ctx *ctx, const uint8_t *in,
                        uint8_t *out)
{
	hook_note();
	return real_one[AESECB_ONE_DEC](ctx, in, out);
}

static int hook_one_mask(const aesecb_ctx *ctx, const uint8_t *in,
                         uint8_t *out)
{
	hook_note();
	return real_one[AESECB_ONE_MASK](ctx, in, out);
}

static void hook(aesecb_ctx *ctx)
{
	static aesecb_one_fn *const hook_one[AESECB_ONE_N] = {
		hook_one_enc, hook_one_dec, hook_one_mask
	};
	int i;

	real_encrypt = ctx->priv_encrypt;
	real_decrypt = ctx->priv_decrypt;
	real_masks = ctx->priv_masks;
	ctx->priv_encrypt = hook_encrypt;
	ctx->priv_decrypt = hook_decrypt;
	ctx->priv_masks = hook_masks;
	for (i = 0; i < AESECB_ONE_N; i++) {
		real_one[i] = aesecb__one_decode(ctx->priv_one[i]);
		ctx->priv_one[i] = aesecb__one_encode(hook_one[i]);
	}
}

static void hook_reset(void)
{
	hook_calls = 0;
	hook_dit = -1;
	hook_dit_min = 2;
}

/* ------------------------------------------------------------------ */

/* What DIT a backend's calls must run with here. */
static int want_dit(const aesecb_backend *be)
{
	const char *arch = aesecb_backend_arch(be);

	return ARCH_DIT && cpu_dit && aesecb_backend_available(be) &&
	       (strcmp(arch, "aarch64") == 0 || strcmp(arch, "any") == 0);
}

/* Checks after a call that had to reach the backend 'calls' times (at
 * least once when calls < 0), with the caller's DIT 'before'. */
static void after_call(const char *what, const char *be, int want, int calls,
                       int before)
{
	if (calls < 0)
		ck_assert_msg(hook_calls >= 1, "%s (%s): the backend was not called",
		              be, what);
	else
		ck_assert_msg(hook_calls == calls,
		              "%s (%s): the backend was called %d times, not %d",
		              be, what, hook_calls, calls);
	if (cpu_dit) {
		if (calls != 0)
			ck_assert_msg(hook_dit_min == want,
			              "%s (%s): DIT %d inside the backend, want %d",
			              be, what, hook_dit_min, want);
		ck_assert_msg(dit_get() == before,
		              "%s (%s): the caller's DIT was %d, is %d after",
		              be, what, before, dit_get());
	}
}

static const uint8_t fips_key[16] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f
};
static const uint8_t fips_pt[16] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff
};
static const uint8_t fips_ct[16] = {
	0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
	0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a
};

static void fill(uint8_t *p, size_t n, unsigned salt)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 37u + salt * 101u + 5u);
}

/* Every entry point of one backend, with the caller's DIT 'before' (-1:
 * no DIT here). */
static void entry_points(const aesecb_backend *be, int before)
{
	const char *name = aesecb_backend_name(be);
	int want = want_dit(be);
	aesecb_ctx ctx, ref;
	uint8_t in[7 * BS], out[7 * BS], exp[7 * BS];
	uint8_t masks[5 * 3], exp_masks[5 * 3];
	uint8_t pkt[64], exp_pkt[64];
	int st;

	if (before >= 0)
		dit_set(before);
	ck_assert_int_eq(aesecb_init(&ctx, fips_key, sizeof fips_key, be),
	                 AESECB_OK);
	ck_assert_int_eq(aesecb_init(&ref, fips_key, sizeof fips_key, be),
	                 AESECB_OK);
	ck_assert_msg((int)ctx.priv_dit == want, "%s: context's DIT flag %u, want %d",
	              name, (unsigned)ctx.priv_dit, want);
	ck_assert_int_eq(aesecb_backend_dit(be), want);
	hook(&ctx);
	fill(in, sizeof in, 1);

	/* one block: FIPS 197 */
	hook_reset();
	ck_assert_int_eq(aesecb_encrypt(&ctx, fips_pt, out, BS), AESECB_OK);
	after_call("encrypt, 1 block", name, want, -1, before);
	ck_assert_msg(memcmp(out, fips_ct, BS) == 0, "%s: FIPS 197 encrypt", name);
	hook_reset();
	ck_assert_int_eq(aesecb_decrypt(&ctx, fips_ct, out, BS), AESECB_OK);
	after_call("decrypt, 1 block", name, want, -1, before);
	ck_assert_msg(memcmp(out, fips_pt, BS) == 0, "%s: FIPS 197 decrypt", name);

	/* several blocks, against the unhooked context */
	ck_assert_int_eq(aesecb_encrypt(&ref, in, exp, sizeof in), AESECB_OK);
	hook_reset();
	ck_assert_int_eq(aesecb_encrypt(&ctx, in, out, sizeof in), AESECB_OK);
	after_call("encrypt, 7 blocks", name, want, 1, before);
	ck_assert_msg(memcmp(out, exp, sizeof out) == 0, "%s: encrypt", name);
	ck_assert_int_eq(aesecb_decrypt(&ref, in, exp, sizeof in), AESECB_OK);
	hook_reset();
	ck_assert_int_eq(aesecb_decrypt(&ctx, in, out, sizeof in), AESECB_OK);
	after_call("decrypt, 7 blocks", name, want, 1, before);
	ck_assert_msg(memcmp(out, exp, sizeof out) == 0, "%s: decrypt", name);

	/* masks (the backend's mask function or the generic one, which
	 * calls the encryption function: both are hooked) */
	ck_assert_int_eq(aesecb_hp_masks(&ref, in, exp_masks, 3), AESECB_OK);
	hook_reset();
	ck_assert_int_eq(aesecb_hp_mask(&ctx, in, masks), AESECB_OK);
	after_call("hp_mask", name, want, -1, before);
	ck_assert_msg(memcmp(masks, exp_masks, 5) == 0, "%s: hp_mask", name);
	hook_reset();
	ck_assert_int_eq(aesecb_hp_masks(&ctx, in, masks, 3), AESECB_OK);
	after_call("hp_masks", name, want, -1, before);
	ck_assert_msg(memcmp(masks, exp_masks, sizeof masks) == 0,
	              "%s: hp_masks", name);

	/* packets: a short header, packet number at offset 9 */
	fill(pkt, sizeof pkt, 2);
	pkt[0] = 0x43;
	memcpy(exp_pkt, pkt, sizeof pkt);
	ck_assert_int_eq(aesecb_hp_protect(&ref, exp_pkt, sizeof exp_pkt, 9),
	                 AESECB_OK);
	hook_reset();
	ck_assert_int_eq(aesecb_hp_protect(&ctx, pkt, sizeof pkt, 9), AESECB_OK);
	after_call("hp_protect", name, want, -1, before);
	ck_assert_msg(memcmp(pkt, exp_pkt, sizeof pkt) == 0, "%s: hp_protect",
	              name);
	hook_reset();
	st = aesecb_hp_unprotect(&ctx, pkt, sizeof pkt, 9);
	after_call("hp_unprotect", name, want, -1, before);
	ck_assert_int_eq(st, 4);
	ck_assert_uint_eq(pkt[0], 0x43);

	/* Calls that fail their checks (or have nothing to do) return
	 * before the backend, and leave the caller's DIT. */
	hook_reset();
	ck_assert_int_eq(aesecb_encrypt(&ctx, in, out, BS + 1), AESECB_EPARTIAL);
	ck_assert_int_eq(aesecb_decrypt(&ctx, in, out, 3), AESECB_EPARTIAL);
	ck_assert_int_eq(aesecb_encrypt(&ctx, in, out, 0), AESECB_OK);
	ck_assert_int_eq(aesecb_decrypt(&ctx, NULL, out, BS), AESECB_EINVAL);
	ck_assert_int_eq(aesecb_encrypt(&ctx, in, NULL, BS), AESECB_EINVAL);
	ck_assert_int_eq(aesecb_hp_mask(&ctx, NULL, masks), AESECB_EINVAL);
	ck_assert_int_eq(aesecb_hp_masks(&ctx, in, masks, 0), AESECB_OK);
	ck_assert_int_eq(aesecb_hp_masks(&ctx, in, NULL, 2), AESECB_EINVAL);
	ck_assert_int_eq(aesecb_hp_protect(&ctx, pkt, 9 + 4 + BS - 1, 9),
	                 AESECB_ESHORT);
	ck_assert_int_eq(aesecb_hp_unprotect(&ctx, pkt, sizeof pkt, 0),
	                 AESECB_EINVAL);
	ck_assert_int_eq(aesecb_encrypt(NULL, in, out, BS), AESECB_EINVAL);
	after_call("calls refused by their checks", name, want, 0, before);

	aesecb_clear(&ctx);
	aesecb_clear(&ref);
	if (before >= 0)
		dit_set(0);
}

/* _i: the caller's DIT (1 is tried only on a CPU that has DIT). */
START_TEST(test_entry_points)
{
	size_t i, ran = 0;

	if (_i == 1 && !cpu_dit)
		return;
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (!aesecb_backend_available(be))
			continue;
		entry_points(be, cpu_dit ? _i : -1);
		ran++;
	}
	ck_assert_uint_gt(ran, 0);
}
END_TEST

/* aesecb_init, aesecb_ctx_new and failed inits leave the caller's DIT. */
START_TEST(test_init)
{
	static const size_t key_sizes[3] = { 16, 24, 32 };
	uint8_t key[32];
	size_t i, k;
	int before = cpu_dit ? _i : -1;

	if (_i == 1 && !cpu_dit)
		return;
	fill(key, sizeof key, 3);
	if (before >= 0)
		dit_set(before);
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);
		aesecb_ctx ctx, *heap = NULL;
		int want = want_dit(be);

		if (!aesecb_backend_available(be)) {
			ck_assert_int_eq(aesecb_init(&ctx, key, 16, be),
			                 AESECB_EUNAVAILABLE);
			ck_assert_int_eq(aesecb_backend_dit(be), 0);
			if (before >= 0)
				ck_assert_int_eq(dit_get(), before);
			continue;
		}
		for (k = 0; k < 3; k++) {
			mark_reset();
			ck_assert_int_eq(aesecb_init(&ctx, key, key_sizes[k], be),
			                 AESECB_OK);
			ck_assert_int_eq((int)ctx.priv_dit, want);
			if (before >= 0)
				ck_assert_msg(dit_get() == before,
				              "%s: aesecb_init (%zu-byte key) changed the caller's DIT",
				              aesecb_backend_name(be), key_sizes[k]);
			/* inside the key setup */
			if (!watch_setkey)
				continue;
			ck_assert_msg(mark_calls > 0,
			              "%s: key setup (%zu-byte key) recorded no "
			              "stack frame: is it a burned call?",
			              aesecb_backend_name(be), key_sizes[k]);
			if (cpu_dit)
				ck_assert_msg(mark_dit_min == want,
				              "%s: key setup (%zu-byte key) ran "
				              "with DIT %d, want %d",
				              aesecb_backend_name(be),
				              key_sizes[k], mark_dit_min, want);
		}
		ck_assert_int_eq(aesecb_init(&ctx, key, 17, be), AESECB_EKEYLEN);
		ck_assert_int_eq(aesecb_init(&ctx, NULL, 16, be), AESECB_EINVAL);
		ck_assert_int_eq(aesecb_ctx_new(&heap, key, 32, be), AESECB_OK);
		ck_assert_int_eq((int)heap->priv_dit, want);
		aesecb_ctx_free(heap);
		if (before >= 0)
			ck_assert_msg(dit_get() == before,
			              "%s: a failed init or aesecb_ctx_new changed the caller's DIT",
			              aesecb_backend_name(be));
		aesecb_clear(&ctx);
	}
	if (before >= 0)
		dit_set(0);
}
END_TEST

/* The public query agrees with the CPU, the architecture and the table. */
START_TEST(test_query)
{
	size_t i;

	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		ck_assert_msg(aesecb_backend_dit(be) == want_dit(be),
		              "%s: aesecb_backend_dit() says %d, want %d",
		              aesecb_backend_name(be), aesecb_backend_dit(be),
		              want_dit(be));
	}
	ck_assert_int_eq(aesecb_backend_dit(NULL), 0);
	ck_assert_int_eq(aesecb_backend_dit((const aesecb_backend *)&cpu_dit), 0);
	if (!ARCH_DIT)
		ck_assert_msg(!cpu_dit, "FEAT_DIT detected on another architecture");
}
END_TEST

static Suite *dit_suite(void)
{
	Suite *s = suite_create("dit");
	TCase *tc = tcase_create("dit");

	tcase_add_test(tc, test_query);
	tcase_add_loop_test(tc, test_init, 0, 2);
	tcase_add_loop_test(tc, test_entry_points, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	const char *expect = getenv("AESECB_TEST_DIT");
	SRunner *sr;
	size_t i, used = 0;
	int failed;

	cpu_dit = (aesecb__cpu_features() & AESECB_CPU_ARM_DIT) != 0;
	printf("FEAT_DIT: %s\n", cpu_dit ? "yes" : ARCH_DIT ? "no"
	       : "no (not AArch64)");
	printf("backends run with DIT:");
	for (i = 0; i < aesecb_backend_count(); i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (aesecb_backend_dit(be)) {
			printf(" %s", aesecb_backend_name(be));
			used++;
		}
	}
	printf("%s\n", used == 0 ? " (no backend)" : "");
#ifdef AESECB_TEST_WRAP_MARK
	watch_setkey = wrap_reaches_backends();
	puts(watch_setkey ? "key setup: watched (the stack mark wrapped)"
	     : "key setup: not watched (the linker's wrap does not reach the "
	       "backends' calls: link-time optimisation?)");
#else
	puts("key setup: not watched (the linker does not wrap functions)");
#endif
	fflush(stdout);

	sr = srunner_create(dit_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);

	if (expect != NULL && strcmp(expect, "1") == 0 &&
	    (!cpu_dit || used == 0)) {
		printf("FAIL: AESECB_TEST_DIT=1, but DIT is not in use here\n");
		failed++;
	} else if (expect != NULL && strcmp(expect, "0") == 0 &&
	           (cpu_dit || used != 0)) {
		printf("FAIL: AESECB_TEST_DIT=0, but DIT is detected or in use\n");
		failed++;
	}
	if (failed != 0)
		return EXIT_FAILURE;
	if (!cpu_dit) {
		printf("SKIP: %s: checked that no backend or context uses DIT "
		       "and that the calls work without it\n",
		       ARCH_DIT ? "this CPU has no FEAT_DIT"
		       : "not an AArch64 build");
		return 77;
	}
	return EXIT_SUCCESS;
}
