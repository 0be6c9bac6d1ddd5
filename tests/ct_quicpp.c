/* SPDX-License-Identifier: MIT */
/*
 * ct_quicpp.c - constant-time check of the tool's packet protection
 * (cli/quic/quicpp.c) under valgrind's memcheck, run by tests/ct-quicpp.sh.
 *
 * The packet key (nettle's AES-GCM context), the IV, the first byte's
 * protected bits and the packet-number bytes are marked undefined;
 * quic_pp_check, for every packet-number length and both suites, with a
 * largest packet number known and without (the full number found from
 * the tag through libaesecb's AES, whose round keys are marked too), and
 * quic_pn_decode must then cause no memcheck error: no branch and no
 * address that depends on them.  The verdict is the change in memcheck's
 * error count around those calls.  Then the self-test: an early-exit
 * comparison of the same bytes must be caught, or the check proves
 * nothing.  Outside valgrind the program says "ready" (or SKIP) and exits.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quic/quicpp.h"

#if defined(__SANITIZE_ADDRESS__)
#define BUILT_WITH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define BUILT_WITH_ASAN 1
#endif
#endif

#if defined(HAVE_VALGRIND_MEMCHECK_H) && !defined(BUILT_WITH_ASAN)
#include <valgrind/memcheck.h>

static volatile int sink;

int main(void)
{
	static const uint8_t key[32] = { 0x10, 0x21, 0x32, 0x43, 0x54, 0x65 };
	static const uint8_t iv[12] = { 0x76, 0x87, 0x98, 0xa9 };
	uint8_t pkt[400];
	unsigned long before, after;
	size_t klen, l, i;
	int bad = 0;

	if (!RUNNING_ON_VALGRIND) {
		printf("ready: run me under valgrind\n");
		return 0;
	}
	before = VALGRIND_COUNT_ERRORS;
	for (klen = 16; klen <= 32; klen += 16) {
		for (l = 0; l < 4; l++) {
			struct quic_aead a;
			struct quic_pp_result r;
			uint64_t pn;
			uint32_t t;

			for (i = 0; i < sizeof pkt; i++)
				pkt[i] = (uint8_t)(i * 13 + klen);
			pkt[0] = (uint8_t)(0x40 | l);
			if (quic_aead_init(&a, key, klen, iv) != QUIC_OK)
				return 1;
			VALGRIND_MAKE_MEM_UNDEFINED(&a.gcm, sizeof a.gcm);
			VALGRIND_MAKE_MEM_UNDEFINED(a.iv, sizeof a.iv);
			VALGRIND_MAKE_MEM_UNDEFINED(&a.dec.priv_keys,
			                            sizeof a.dec.priv_keys);
			/* the protected bits and the packet number */
			pkt[0] &= 0xfc;
			VALGRIND_MAKE_MEM_UNDEFINED(pkt + 9, 4);
			{
				uint8_t low = (uint8_t)l;

				VALGRIND_MAKE_MEM_UNDEFINED(&low, 1);
				pkt[0] |= low;
			}
			if (quic_pp_check(&a, pkt, sizeof pkt, 9, 1000, &r) !=
			    QUIC_OK)
				return 1;
			VALGRIND_MAKE_MEM_DEFINED(&r, sizeof r);
			sink += r.ok;
			if (quic_pp_check(&a, pkt, sizeof pkt, 9, QUIC_PN_NONE,
			                  &r) != QUIC_OK)
				return 1;
			VALGRIND_MAKE_MEM_DEFINED(&r, sizeof r);
			t = (uint32_t)l * 77;
			VALGRIND_MAKE_MEM_UNDEFINED(&t, sizeof t);
			pn = quic_pn_decode(0x12345, t, (uint32_t)(l + 1));
			VALGRIND_MAKE_MEM_DEFINED(&pn, sizeof pn);
			sink += r.ok + (int)pn;
			VALGRIND_MAKE_MEM_DEFINED(&a, sizeof a);
			quic_aead_wipe(&a);
		}
	}
	after = VALGRIND_COUNT_ERRORS;
	if (after != before) {
		printf("FAIL: quic_pp_check / quic_pn_decode: %lu memcheck "
		       "errors\n", after - before);
		bad = 1;
	} else {
		printf("PASS: quic_pp_check and quic_pn_decode: no branch or "
		       "address on the key, the IV or the packet number\n");
	}

	/* self-test: an early exit on the same marked bytes */
	before = VALGRIND_COUNT_ERRORS;
	VALGRIND_MAKE_MEM_UNDEFINED(pkt + 9, 4);
	for (i = 0; i < 4; i++)
		if (pkt[9 + i] != 0x5a)
			break;
	sink += (int)i;
	after = VALGRIND_COUNT_ERRORS;
	if (after == before) {
		printf("FAIL: self-test: memcheck missed an early-exit "
		       "comparison\n");
		bad = 1;
	} else {
		printf("PASS: self-test: memcheck caught the early-exit "
		       "comparison (%lu error)\n", after - before);
	}
	return bad;
}

#else

int main(void)
{
	printf("SKIP: built without <valgrind/memcheck.h>, or with a "
	       "sanitizer\n");
	return 77;
}

#endif
