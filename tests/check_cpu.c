/* SPDX-License-Identifier: MIT */
/*
 * check_cpu.c - the CPU detection's decoding, fed made-up CPUs.
 *
 * lib/cpu.c reads CPUID/XGETBV (x86), AT_HWCAP and ID_AA64PFR0_EL1
 * (AArch64), AT_HWCAP and AT_HWCAP2 (32-bit ARM) or AT_HWCAP2 (POWER) and
 * decodes what it read in plain
 * functions, built on every architecture.  This program feeds those
 * functions the registers of CPUs that do not exist here (one without
 * CPUID leaf 7, an OS that does not save the YMM state, a core without
 * the AES instructions, ...) and checks, for each, the features decoded
 * and every backend's verdict and reason: what 'aesecb backends' would
 * say on that machine.  Every backend in the library's table whose
 * architecture a made-up CPU belongs to must have an expected verdict
 * here, so a new backend cannot slip through untested.
 *
 * Whether the detection reads this machine's registers right is checked
 * against the kernel's view by tests/cpu-flags.sh.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "internal.h"

/* CPUID and XGETBV bits the decoder reads */
#define L1D_SSE2    (1u << 26)
#define L1C_SSSE3   (1u << 9)
#define L1C_AESNI   (1u << 25)
#define L1C_OSXSAVE (1u << 27)
#define L1C_AVX     (1u << 28)
#define L7B_AVX2    (1u << 5)
#define L7C_VAES    (1u << 9)
#define XCR0_SSE    0x2u
#define XCR0_YMM    0x4u

/* AArch64 HWCAP bits and the ID register's DIT field */
#define HW_ASIMD (1u << 1)
#define HW_AES   (1u << 3)
#define HW_CPUID (1u << 11)
#define HW_DIT   (1u << 24)
#define PFR0_DIT (UINT64_C(1) << 48)

/* 32-bit ARM: HWCAP_NEON, HWCAP2_AES, and the HWCAP of an ARMv7 core
 * with VFPv3-D16 and no NEON (SWP HALF THUMB FAST_MULT VFP EDSP TLS VFPv3
 * VFPv3D16) */
#define A32_NEON  (1u << 12)
#define A32_AES   (1u << 0)
#define A32_V7FP  0xe0d7u

#define PPC2_VEC_CRYPTO 0x02000000u

enum family { X86, ARM, ARM32, PPC };

struct verdict {
	const char *backend;
	const char *reason;     /* NULL: available */
};

struct fake_cpu {
	const char *label;
	enum family family;
	struct aesecb_cpuid_regs x86;
	uint64_t hwcap, reg;    /* AArch64: HWCAP, ID_AA64PFR0; 32-bit ARM:
	                           HWCAP, HWCAP2; POWER: HWCAP2 */
	unsigned features;      /* what the decoder must find */
	struct verdict v[6];    /* every backend of the family; NULL-ended */
};

#define ALL_L1C (L1C_SSSE3 | L1C_AESNI | L1C_OSXSAVE | L1C_AVX)
#define ALL_X86 (AESECB_CPU_SSE2 | AESECB_CPU_SSSE3 | AESECB_CPU_AESNI | \
                 AESECB_CPU_VAES | AESECB_CPU_OSYMM | AESECB_CPU_AVX2)

static const struct fake_cpu cpus[] = {
	{ "x86 without CPUID leaf 1", X86,
	  { 0, ALL_L1C, L1D_SSE2, L7B_AVX2, L7C_VAES, 7 }, 0, 0, 0,
	  { { "ssse3", "CPU lacks SSE2" }, { "aesni", "CPU lacks SSE2" },
	    { "vaes", "CPU lacks AES-NI" } } },
	{ "x86 with SSE2 only", X86,
	  { 1, 0, L1D_SSE2, 0, 0, 0 }, 0, 0, AESECB_CPU_SSE2,
	  { { "ssse3", "CPU lacks SSSE3" }, { "aesni", "CPU lacks AES-NI" },
	    { "vaes", "CPU lacks AES-NI" } } },
	{ "SSSE3, no AES-NI (Core 2, Atom)", X86,
	  { 6, L1C_SSSE3, L1D_SSE2, 0, 0, 0 }, 0, 0,
	  AESECB_CPU_SSE2 | AESECB_CPU_SSSE3,
	  { { "ssse3", NULL }, { "aesni", "CPU lacks AES-NI" },
	    { "vaes", "CPU lacks AES-NI" } } },
	{ "AES-NI, no AVX (Westmere)", X86,
	  { 11, L1C_SSSE3 | L1C_AESNI, L1D_SSE2, 0, 0, 0 }, 0, 0,
	  AESECB_CPU_SSE2 | AESECB_CPU_SSSE3 | AESECB_CPU_AESNI,
	  { { "ssse3", NULL }, { "aesni", NULL },
	    { "vaes", "CPU lacks VAES" } } },
	{ "AVX2, no VAES (Haswell)", X86,
	  { 13, ALL_L1C, L1D_SSE2, L7B_AVX2, 0, XCR0_SSE | XCR0_YMM }, 0, 0,
	  ALL_X86 & ~AESECB_CPU_VAES,
	  { { "ssse3", NULL }, { "aesni", NULL },
	    { "vaes", "CPU lacks VAES" } } },
	{ "VAES, OS saves no YMM state", X86,
	  { 27, ALL_L1C, L1D_SSE2, L7B_AVX2, L7C_VAES, XCR0_SSE }, 0, 0,
	  AESECB_CPU_SSE2 | AESECB_CPU_SSSE3 | AESECB_CPU_AESNI |
	  AESECB_CPU_VAES,
	  { { "ssse3", NULL }, { "aesni", NULL },
	    { "vaes", "OS has not enabled AVX state" } } },
	{ "VAES, OSXSAVE clear (XCR0 must be ignored)", X86,
	  { 27, ALL_L1C & ~L1C_OSXSAVE, L1D_SSE2, L7B_AVX2, L7C_VAES,
	    XCR0_SSE | XCR0_YMM }, 0, 0,
	  AESECB_CPU_SSE2 | AESECB_CPU_SSSE3 | AESECB_CPU_AESNI |
	  AESECB_CPU_VAES,
	  { { "ssse3", NULL }, { "aesni", NULL },
	    { "vaes", "OS has not enabled AVX state" } } },
	{ "VAES without AVX2", X86,
	  { 27, ALL_L1C, L1D_SSE2, 0, L7C_VAES, XCR0_SSE | XCR0_YMM }, 0, 0,
	  ALL_X86 & ~AESECB_CPU_AVX2,
	  { { "ssse3", NULL }, { "aesni", NULL },
	    { "vaes", "CPU lacks AVX2" } } },
	{ "AVX2 bit without AVX", X86,
	  { 27, ALL_L1C & ~L1C_AVX, L1D_SSE2, L7B_AVX2, L7C_VAES,
	    XCR0_SSE | XCR0_YMM }, 0, 0, ALL_X86 & ~AESECB_CPU_AVX2,
	  { { "ssse3", NULL }, { "aesni", NULL },
	    { "vaes", "CPU lacks AVX2" } } },
	{ "leaf 7 beyond the maximum leaf (its values ignored)", X86,
	  { 6, ALL_L1C, L1D_SSE2, L7B_AVX2, L7C_VAES, XCR0_SSE | XCR0_YMM },
	  0, 0, AESECB_CPU_SSE2 | AESECB_CPU_SSSE3 | AESECB_CPU_AESNI |
	  AESECB_CPU_OSYMM,
	  { { "ssse3", NULL }, { "aesni", NULL },
	    { "vaes", "CPU lacks VAES" } } },
	{ "VAES and AVX2 (Ice Lake, Zen 3 and later)", X86,
	  { 32, ALL_L1C, L1D_SSE2, L7B_AVX2, L7C_VAES, 0xe7 }, 0, 0, ALL_X86,
	  { { "ssse3", NULL }, { "aesni", NULL }, { "vaes", NULL } } },

	{ "AArch64 without Advanced SIMD", ARM, { 0 }, 0, 0, 0,
	  { { "neon", "CPU lacks Advanced SIMD" },
	    { "armce", "CPU lacks Advanced SIMD" } } },
	{ "AArch64 without the Crypto Extensions (Cortex-A53 option)", ARM,
	  { 0 }, HW_ASIMD | HW_CPUID, 0, AESECB_CPU_ARM_ASIMD,
	  { { "neon", NULL },
	    { "armce", "CPU lacks the ARMv8 AES instructions" } } },
	{ "AArch64 with AES (Cortex-A72)", ARM, { 0 },
	  HW_ASIMD | HW_AES | HW_CPUID, 0,
	  AESECB_CPU_ARM_ASIMD | AESECB_CPU_ARM_AES,
	  { { "neon", NULL }, { "armce", NULL } } },
	{ "FEAT_DIT in HWCAP", ARM, { 0 }, HW_ASIMD | HW_AES | HW_DIT, 0,
	  AESECB_CPU_ARM_ASIMD | AESECB_CPU_ARM_AES | AESECB_CPU_ARM_DIT,
	  { { "neon", NULL }, { "armce", NULL } } },
	{ "FEAT_DIT in the ID register only (qemu -cpu max)", ARM, { 0 },
	  HW_ASIMD | HW_AES | HW_CPUID, PFR0_DIT | 0x11,
	  AESECB_CPU_ARM_ASIMD | AESECB_CPU_ARM_AES | AESECB_CPU_ARM_DIT,
	  { { "neon", NULL }, { "armce", NULL } } },
	{ "ID register DIT without HWCAP_CPUID (must be ignored)", ARM,
	  { 0 }, HW_ASIMD | HW_AES, PFR0_DIT,
	  AESECB_CPU_ARM_ASIMD | AESECB_CPU_ARM_AES,
	  { { "neon", NULL }, { "armce", NULL } } },

	{ "32-bit ARMv7 without NEON (VFPv3-D16)", ARM32, { 0 }, A32_V7FP, 0,
	  0,
	  { { "neon32", "CPU lacks Advanced SIMD" },
	    { "armce32", "CPU lacks Advanced SIMD" } } },
	/* what qemu-arm 7.2 reports with -cpu cortex-a15 and cortex-a7,
	 * cortex-a9, and max (HWCAP2: AES PMULL SHA1 SHA2 CRC32) */
	{ "Cortex-A15, Cortex-A7 (qemu): NEON, no AES", ARM32, { 0 },
	  0x1fb8d7, 0, AESECB_CPU_ARM_ASIMD,
	  { { "neon32", NULL },
	    { "armce32", "CPU lacks the ARMv8 AES instructions" } } },
	{ "Cortex-A9 (qemu): NEON, no AES", ARM32, { 0 }, 0x8b8d7, 0,
	  AESECB_CPU_ARM_ASIMD,
	  { { "neon32", NULL },
	    { "armce32", "CPU lacks the ARMv8 AES instructions" } } },
	{ "ARMv8 in AArch32 with AES (qemu -cpu max)", ARM32, { 0 },
	  0x1fb0d7, 0x1f, AESECB_CPU_ARM_ASIMD | AESECB_CPU_ARM_AES,
	  { { "neon32", NULL }, { "armce32", NULL } } },
	{ "NEON and HWCAP2_AES alone", ARM32, { 0 }, A32_NEON, A32_AES,
	  AESECB_CPU_ARM_ASIMD | AESECB_CPU_ARM_AES,
	  { { "neon32", NULL }, { "armce32", NULL } } },
	{ "every HWCAP2 bit but AES", ARM32, { 0 }, A32_V7FP | A32_NEON,
	  ~(uint64_t)A32_AES, AESECB_CPU_ARM_ASIMD,
	  { { "neon32", NULL },
	    { "armce32", "CPU lacks the ARMv8 AES instructions" } } },
	{ "HWCAP2_AES without NEON (armce32 must not run)", ARM32, { 0 },
	  A32_V7FP, A32_AES, AESECB_CPU_ARM_AES,
	  { { "neon32", "CPU lacks Advanced SIMD" },
	    { "armce32", "CPU lacks Advanced SIMD" } } },
	{ "AArch64's ASIMD and AES bits (1, 3) mean nothing here", ARM32,
	  { 0 }, (1u << 1) | (1u << 3), 0, 0,
	  { { "neon32", "CPU lacks Advanced SIMD" },
	    { "armce32", "CPU lacks Advanced SIMD" } } },
	{ "AT_HWCAP2 of 0 (a kernel without it)", ARM32, { 0 },
	  A32_V7FP | A32_NEON, 0, AESECB_CPU_ARM_ASIMD,
	  { { "neon32", NULL },
	    { "armce32", "CPU lacks the ARMv8 AES instructions" } } },

	{ "POWER7 (no vector crypto)", PPC, { 0 }, 0, 0xfc000000u &
	  ~PPC2_VEC_CRYPTO, 0,
	  { { "vcrypto", "CPU lacks the POWER8 vector crypto instructions" } } },
	{ "HWCAP2 of 0 (a kernel without AT_HWCAP2)", PPC, { 0 }, 0, 0, 0,
	  { { "vcrypto", "CPU lacks the POWER8 vector crypto instructions" } } },
	{ "every HWCAP2 bit but vector crypto", PPC, { 0 }, 0,
	  ~(uint64_t)PPC2_VEC_CRYPTO, 0,
	  { { "vcrypto", "CPU lacks the POWER8 vector crypto instructions" } } },
	{ "POWER8", PPC, { 0 }, 0, PPC2_VEC_CRYPTO | 0x80000000u,
	  AESECB_CPU_PPC_VCRYPTO, { { "vcrypto", NULL } } },
	{ "vector crypto bit alone", PPC, { 0 }, 0, PPC2_VEC_CRYPTO,
	  AESECB_CPU_PPC_VCRYPTO, { { "vcrypto", NULL } } },
	/* what qemu-ppc64le 7.2 reports with -cpu power8, power9, power10 */
	{ "POWER8 (qemu)", PPC, { 0 }, 0, 0x8e000000u,
	  AESECB_CPU_PPC_VCRYPTO, { { "vcrypto", NULL } } },
	{ "POWER9 (qemu)", PPC, { 0 }, 0, 0x8ee00000u,
	  AESECB_CPU_PPC_VCRYPTO, { { "vcrypto", NULL } } },
	{ "POWER10 (qemu)", PPC, { 0 }, 0, 0x8ee60000u,
	  AESECB_CPU_PPC_VCRYPTO, { { "vcrypto", NULL } } },
};

#define NCPUS (sizeof cpus / sizeof cpus[0])

static unsigned decode(const struct fake_cpu *c)
{
	switch (c->family) {
	case X86: return aesecb__cpu_decode_x86(&c->x86);
	case ARM: return aesecb__cpu_decode_arm(c->hwcap, c->reg);
	case ARM32: return aesecb__cpu_decode_arm32(c->hwcap, c->reg);
	default:  return aesecb__cpu_decode_ppc(c->reg);
	}
}

static int in_family(const char *arch, enum family f)
{
	switch (f) {
	case X86: return strcmp(arch, "x86_64") == 0 || strcmp(arch, "x86") == 0;
	case ARM: return strcmp(arch, "aarch64") == 0;
	case ARM32: return strcmp(arch, "arm") == 0;
	default:  return strcmp(arch, "ppc64") == 0;
	}
}

/* The expected verdict for a backend, or NULL with *found = 0. */
static const struct verdict *expected(const struct fake_cpu *c,
                                      const char *name)
{
	size_t i;

	for (i = 0; i < sizeof c->v / sizeof c->v[0] && c->v[i].backend; i++)
		if (strcmp(c->v[i].backend, name) == 0)
			return &c->v[i];
	return NULL;
}

START_TEST(test_decode)
{
	const struct fake_cpu *c = &cpus[_i];
	unsigned f = decode(c);

	ck_assert_msg(f == c->features, "%s: decoded 0x%x, want 0x%x",
	              c->label, f, c->features);
}
END_TEST

START_TEST(test_verdicts)
{
	const struct fake_cpu *c = &cpus[_i];
	unsigned f = decode(c);
	size_t i, checked = 0;

	for (i = 0; i < aesecb_backend_count(); i++) {
		const struct aesecb_backend *be = aesecb_backend_get(i);
		const struct verdict *v;
		const char *why = aesecb__cpu_lacks(be->needs, f);

		if (strcmp(be->arch, "any") == 0) {
			ck_assert_msg(why == NULL, "%s: backend %s: '%s'",
			              c->label, be->name, why);
			continue;
		}
		if (!in_family(be->arch, c->family))
			continue;
		v = expected(c, be->name);
		ck_assert_msg(v != NULL, "%s: no expected verdict for backend "
		              "%s: add one to tests/check_cpu.c", c->label,
		              be->name);
		if (v->reason == NULL)
			ck_assert_msg(why == NULL, "%s: backend %s refused: %s",
			              c->label, be->name, why);
		else
			ck_assert_msg(why != NULL && strcmp(why, v->reason) == 0,
			              "%s: backend %s: '%s', want '%s'", c->label,
			              be->name, why ? why : "(available)",
			              v->reason);
		checked++;
	}
	/* an expected verdict for a backend the table does not have */
	for (i = 0; i < sizeof c->v / sizeof c->v[0] && c->v[i].backend; i++)
		ck_assert_msg(aesecb_backend_find(c->v[i].backend) != NULL,
		              "%s: backend %s is not in the library",
		              c->label, c->v[i].backend);
	(void)checked;
}
END_TEST

/*
 * Each bit the x86 decoder reads, cleared alone from a CPU that has
 * everything: exactly the features that depend on it go.
 */
START_TEST(test_x86_bits)
{
	static const struct {
		int reg;              /* 0 l1_ecx, 1 l1_edx, 2 l7_ebx, 3 l7_ecx, 4 xcr0 */
		uint32_t bit;
		unsigned lost;
	} bits[] = {
		{ 1, L1D_SSE2, AESECB_CPU_SSE2 },
		{ 0, L1C_SSSE3, AESECB_CPU_SSSE3 },
		{ 0, L1C_AESNI, AESECB_CPU_AESNI },
		{ 0, L1C_OSXSAVE, AESECB_CPU_OSYMM | AESECB_CPU_AVX2 },
		{ 0, L1C_AVX, AESECB_CPU_AVX2 },
		{ 2, L7B_AVX2, AESECB_CPU_AVX2 },
		{ 3, L7C_VAES, AESECB_CPU_VAES },
		{ 4, XCR0_SSE, AESECB_CPU_OSYMM | AESECB_CPU_AVX2 },
		{ 4, XCR0_YMM, AESECB_CPU_OSYMM | AESECB_CPU_AVX2 },
	};
	const struct aesecb_cpuid_regs full = {
		7, ALL_L1C, L1D_SSE2, L7B_AVX2, L7C_VAES, XCR0_SSE | XCR0_YMM
	};
	size_t i;

	ck_assert_uint_eq(aesecb__cpu_decode_x86(&full), ALL_X86);
	for (i = 0; i < sizeof bits / sizeof bits[0]; i++) {
		struct aesecb_cpuid_regs r = full;
		unsigned f;

		switch (bits[i].reg) {
		case 0: r.l1_ecx &= ~bits[i].bit; break;
		case 1: r.l1_edx &= ~bits[i].bit; break;
		case 2: r.l7_ebx &= ~bits[i].bit; break;
		case 3: r.l7_ecx &= ~bits[i].bit; break;
		default: r.xcr0 &= ~(uint64_t)bits[i].bit; break;
		}
		f = aesecb__cpu_decode_x86(&r);
		ck_assert_msg(f == (ALL_X86 & ~bits[i].lost),
		              "bit %zu cleared: 0x%x, want 0x%x", i, f,
		              ALL_X86 & ~bits[i].lost);
	}
}
END_TEST

/* The table's texts: every feature named, each reason distinct. */
START_TEST(test_names)
{
	char buf[256];
	unsigned bit;
	const char *seen[32];
	size_t n = 0, i;

	aesecb__cpu_names(0, buf, sizeof buf);
	ck_assert_str_eq(buf, "");
	for (bit = 1; bit != 0 && bit < (1u << 31); bit <<= 1) {
		const char *why = aesecb__cpu_lacks(bit, 0);

		aesecb__cpu_names(bit, buf, sizeof buf);
		if (why == NULL) {       /* not a feature of the table */
			ck_assert_str_eq(buf, "");
			continue;
		}
		ck_assert_msg(buf[0] != '\0', "feature 0x%x has no name", bit);
		ck_assert_ptr_null(aesecb__cpu_lacks(bit, bit));
		for (i = 0; i < n; i++)
			ck_assert_str_ne(seen[i], why);
		seen[n++] = why;
	}
	ck_assert_uint_ge(n, 9);
	aesecb__cpu_names(AESECB_CPU_SSE2 | AESECB_CPU_AESNI, buf, sizeof buf);
	ck_assert_str_eq(buf, "SSE2, AES-NI");
	/* cut at a whole name when the buffer is short */
	aesecb__cpu_names(AESECB_CPU_SSE2 | AESECB_CPU_AESNI, buf, 8);
	ck_assert_str_eq(buf, "SSE2");
	/* the library's requires text is the table's */
	for (i = 0; i < aesecb_backend_count(); i++) {
		const struct aesecb_backend *be = aesecb_backend_get(i);

		if (be->needs == 0)
			continue;
		aesecb__cpu_names(be->needs, buf, sizeof buf);
		ck_assert_str_eq(aesecb_backend_requires(be), buf);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cpu detection");
	TCase *tc = tcase_create("decoding");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, test_decode, 0, (int)NCPUS);
	tcase_add_loop_test(tc, test_verdicts, 0, (int)NCPUS);
	tcase_add_test(tc, test_x86_bits);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
