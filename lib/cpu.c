/* SPDX-License-Identifier: MIT */
/*
 * cpu.c - run-time CPU feature detection, done once.
 *
 * x86: CPUID leaf 1 (SSE2, SSSE3, AES-NI, OSXSAVE, AVX), leaf 7 (AVX2,
 * VAES), and XGETBV(0) to learn whether the OS saves the XMM and YMM
 * register state: a CPU that has AVX2 is of no use when the OS has not
 * enabled it.
 * AArch64 (Linux): the AES bit of the auxiliary vector's HWCAP.
 *
 * The result is computed on first use and kept in an atomic; two threads
 * racing on the first call compute the same value, so relaxed ordering is
 * enough.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdatomic.h>

#include "internal.h"

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
	unsigned a, b, c, d, max, f = 0;

	if (!__get_cpuid(0, &max, &b, &c, &d))
		return 0;
	if (max < 1)
		return 0;
	__cpuid(1, a, b, c, d);
	if (d & (1u << 26))
		f |= AESECB_CPU_SSE2;
	if (c & (1u << 25))
		f |= AESECB_CPU_AESNI;
	if (c & (1u << 9))
		f |= AESECB_CPU_SSSE3;
	if ((c & (1u << 27)) != 0) {       /* OSXSAVE: XGETBV usable */
		uint64_t xcr0 = read_xcr0();
		if ((xcr0 & 0x6) == 0x6)   /* XMM and YMM state enabled */
			f |= AESECB_CPU_OSYMM;
	}
	if (max >= 7) {
		int avx = (c & (1u << 28)) != 0;
		__cpuid_count(7, 0, a, b, c, d);
		if (avx && (b & (1u << 5)) && (f & AESECB_CPU_OSYMM))
			f |= AESECB_CPU_AVX2;
		if (c & (1u << 9))
			f |= AESECB_CPU_VAES;
	}
	return f;
}

#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_AES
#define HWCAP_AES (1u << 3)
#endif

static unsigned detect(void)
{
	return (getauxval(AT_HWCAP) & HWCAP_AES) ? AESECB_CPU_ARM_AES : 0;
}

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRYPTO)
static unsigned detect(void)
{
	return AESECB_CPU_ARM_AES;  /* known at build time */
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
