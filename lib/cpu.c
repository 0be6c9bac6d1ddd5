/* SPDX-License-Identifier: MIT */
/*
 * cpu.c - run-time CPU feature detection, done once, and the one table
 * that names the features.
 *
 * x86: CPUID leaf 1 (SSE2, SSSE3, AES-NI, OSXSAVE, AVX), leaf 7 (AVX2,
 * VAES), and XGETBV(0) to learn whether the OS saves the XMM and YMM
 * register state: a CPU that has AVX2 is of no use when the OS has not
 * enabled it.
 * AArch64 (Linux): AT_HWCAP (Advanced SIMD, AES, DIT), and, where the
 * kernel says it emulates the ID registers (HWCAP_CPUID), the DIT field of
 * ID_AA64PFR0_EL1: some CPUs (and emulators) implement FEAT_DIT without
 * the kernel reporting it in HWCAP.
 * 32-bit ARM (Linux): AT_HWCAP's NEON bit and AT_HWCAP2's AES bit, which
 * a 32-bit kernel and a 64-bit kernel running a 32-bit process both give
 * (the same bits); they are the same features as AArch64's Advanced SIMD
 * and AES, and share their rows of the table.
 * POWER (Linux): AT_HWCAP2's vector crypto bit.
 *
 * Reading the registers and decoding them are separate steps: the
 * decoders are plain functions of the values read, built on every
 * architecture, so that tests can feed them any CPU they like.
 *
 * The result is computed on first use and kept in an atomic; two threads
 * racing on the first call compute the same value, so relaxed ordering is
 * enough.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdatomic.h>
#include <string.h>

#include "internal.h"

/* ------------------------------------------------------------------ */
/* The features: one row each, in the order backends' needs are named
 * and checked (so the reason names the most basic missing feature). */

static const struct feature {
	unsigned bit;
	const char *name;    /* in a backend's "requires" text */
	const char *lacks;   /* why a CPU without it cannot run the backend */
} features[] = {
	{ AESECB_CPU_SSE2, "SSE2", "CPU lacks SSE2" },
	{ AESECB_CPU_SSSE3, "SSSE3", "CPU lacks SSSE3" },
	{ AESECB_CPU_AESNI, "AES-NI", "CPU lacks AES-NI" },
	{ AESECB_CPU_VAES, "VAES", "CPU lacks VAES" },
	{ AESECB_CPU_OSYMM, "OS YMM state", "OS has not enabled AVX state" },
	{ AESECB_CPU_AVX2, "AVX2", "CPU lacks AVX2" },
	{ AESECB_CPU_ARM_ASIMD, "Advanced SIMD", "CPU lacks Advanced SIMD" },
	{ AESECB_CPU_ARM_AES, "ARMv8 Crypto Extensions (AES)",
	  "CPU lacks the ARMv8 AES instructions" },
	{ AESECB_CPU_ARM_DIT, "FEAT_DIT", "CPU lacks FEAT_DIT" },
	{ AESECB_CPU_PPC_VCRYPTO, "POWER8 vector crypto",
	  "CPU lacks the POWER8 vector crypto instructions" },
};

#define NFEATURES (sizeof features / sizeof features[0])

const char *aesecb__cpu_lacks(unsigned needs, unsigned have)
{
	size_t i;

	for (i = 0; i < NFEATURES; i++)
		if ((needs & features[i].bit) && !(have & features[i].bit))
			return features[i].lacks;
	return NULL;
}

void aesecb__cpu_names(unsigned needs, char *buf, size_t size)
{
	size_t i, used = 0, n;
	const char *sep = "";

	if (size == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < NFEATURES; i++) {
		if (!(needs & features[i].bit))
			continue;
		n = strlen(sep) + strlen(features[i].name);
		if (used + n >= size)
			break;
		strcpy(buf + used, sep);
		strcat(buf + used, features[i].name);
		used += n;
		sep = ", ";
	}
}

/* ------------------------------------------------------------------ */
/* Decoding (every architecture) */

unsigned aesecb__cpu_decode_x86(const struct aesecb_cpuid_regs *r)
{
	unsigned f = 0;

	if (r->max_leaf < 1)
		return 0;
	if (r->l1_edx & (1u << 26))
		f |= AESECB_CPU_SSE2;
	if (r->l1_ecx & (1u << 9))
		f |= AESECB_CPU_SSSE3;
	if (r->l1_ecx & (1u << 25))
		f |= AESECB_CPU_AESNI;
	/* OSXSAVE: XGETBV usable, and XCR0 has the XMM and YMM state */
	if ((r->l1_ecx & (1u << 27)) && (r->xcr0 & 0x6) == 0x6)
		f |= AESECB_CPU_OSYMM;
	if (r->max_leaf >= 7) {
		/* AVX (leaf 1 ECX 28) and AVX2 (leaf 7 EBX 5) with the state */
		if ((r->l1_ecx & (1u << 28)) && (r->l7_ebx & (1u << 5)) &&
		    (f & AESECB_CPU_OSYMM))
			f |= AESECB_CPU_AVX2;
		if (r->l7_ecx & (1u << 9))
			f |= AESECB_CPU_VAES;
	}
	return f;
}

/* Linux's AArch64 HWCAP bits (asm/hwcap.h) */
#define ARM_HWCAP_ASIMD (1u << 1)
#define ARM_HWCAP_AES   (1u << 3)
#define ARM_HWCAP_CPUID (1u << 11)
#define ARM_HWCAP_DIT   (1u << 24)

unsigned aesecb__cpu_decode_arm(uint64_t hwcap, uint64_t pfr0)
{
	unsigned f = 0;

	if (hwcap & ARM_HWCAP_ASIMD)
		f |= AESECB_CPU_ARM_ASIMD;
	if (hwcap & ARM_HWCAP_AES)
		f |= AESECB_CPU_ARM_AES;
	/* ID_AA64PFR0_EL1.DIT, bits 51:48: 1 = implemented */
	if ((hwcap & ARM_HWCAP_DIT) ||
	    ((hwcap & ARM_HWCAP_CPUID) && ((pfr0 >> 48) & 0xf) != 0))
		f |= AESECB_CPU_ARM_DIT;
	return f;
}

/* Linux's 32-bit ARM HWCAP_NEON and HWCAP2_AES (arm's asm/hwcap.h, and
 * arm64's COMPAT_HWCAP_NEON and COMPAT_HWCAP2_AES) */
#define ARM32_HWCAP_NEON (1u << 12)
#define ARM32_HWCAP2_AES (1u << 0)

unsigned aesecb__cpu_decode_arm32(uint64_t hwcap, uint64_t hwcap2)
{
	unsigned f = 0;

	if (hwcap & ARM32_HWCAP_NEON)
		f |= AESECB_CPU_ARM_ASIMD;
	if (hwcap2 & ARM32_HWCAP2_AES)
		f |= AESECB_CPU_ARM_AES;
	return f;
}

/* Linux's PPC_FEATURE2_VEC_CRYPTO (asm/cputable.h) */
#define PPC_HWCAP2_VEC_CRYPTO 0x02000000u

unsigned aesecb__cpu_decode_ppc(uint64_t hwcap2)
{
	return (hwcap2 & PPC_HWCAP2_VEC_CRYPTO) ? AESECB_CPU_PPC_VCRYPTO : 0;
}

/* ------------------------------------------------------------------ */
/* Reading the registers (this architecture only) */

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;

	/* xgetbv with ECX = 0, spelled as bytes so no target flag is needed */
	__asm__ __volatile__(".byte 0x0f, 0x01, 0xd0"
	                     : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static unsigned detect(void)
{
	struct aesecb_cpuid_regs r;
	unsigned a, b, c, d;

	memset(&r, 0, sizeof r);
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return 0;               /* no CPUID (a 486) */
	r.max_leaf = a;
	if (r.max_leaf >= 1) {
		__cpuid(1, a, b, c, d);
		r.l1_ecx = c;
		r.l1_edx = d;
		if (c & (1u << 27))     /* OSXSAVE: XGETBV may be executed */
			r.xcr0 = read_xcr0();
	}
	if (r.max_leaf >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		r.l7_ebx = b;
		r.l7_ecx = c;
	}
	return aesecb__cpu_decode_x86(&r);
}

#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

static unsigned detect(void)
{
	uint64_t hwcap = getauxval(AT_HWCAP), pfr0 = 0;

	/* MRS of an ID register traps to the kernel, which emulates it
	 * only when it says so with HWCAP_CPUID (else: SIGILL). */
	if (hwcap & ARM_HWCAP_CPUID)
		__asm__ __volatile__("mrs %0, S3_0_C0_C4_0" : "=r"(pfr0));
	return aesecb__cpu_decode_arm(hwcap, pfr0);
}

#elif defined(__aarch64__)
static unsigned detect(void)
{
	/* no way to ask at run time: what the build targets */
	return AESECB_CPU_ARM_ASIMD
#if defined(__ARM_FEATURE_CRYPTO) || defined(__ARM_FEATURE_AES)
	       | AESECB_CPU_ARM_AES
#endif
	       ;
}

#elif defined(__arm__) && defined(__linux__)
#include <sys/auxv.h>

static unsigned detect(void)
{
	return aesecb__cpu_decode_arm32(getauxval(AT_HWCAP),
	                                getauxval(AT_HWCAP2));
}

#elif defined(__arm__)
static unsigned detect(void)
{
	/* no way to ask at run time: what the build targets */
	return 0
#if defined(__ARM_NEON)
	       | AESECB_CPU_ARM_ASIMD
#endif
#if defined(__ARM_FEATURE_CRYPTO) || defined(__ARM_FEATURE_AES)
	       | AESECB_CPU_ARM_AES
#endif
	       ;
}

#elif (defined(__powerpc64__) || defined(__PPC64__)) && defined(__linux__)
#include <sys/auxv.h>

static unsigned detect(void)
{
	return aesecb__cpu_decode_ppc(getauxval(AT_HWCAP2));
}

#else
static unsigned detect(void)
{
	return 0;
}
#endif

#define DETECTED (1u << 31)

unsigned aesecb__cpu_features(void)
{
	static atomic_uint cache;
	unsigned f = atomic_load_explicit(&cache, memory_order_relaxed);

	if (f == 0) {
		f = detect() | DETECTED;
		atomic_store_explicit(&cache, f, memory_order_relaxed);
	}
	return f & ~DETECTED;
}
