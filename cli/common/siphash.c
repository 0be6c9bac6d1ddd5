/* SPDX-License-Identifier: MIT */
/*
 * siphash.c - SipHash-2-4.  See siphash.h.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/siphash.h"

static uint64_t rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

static uint64_t load64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

struct sip {
	uint64_t v0, v1, v2, v3;
};

static void round_(struct sip *s)
{
	s->v0 += s->v1;
	s->v1 = rotl(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = rotl(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = rotl(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = rotl(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = rotl(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = rotl(s->v2, 32);
}

/* One 8-byte word into the state: two compression rounds. */
static void absorb(struct sip *s, uint64_t m)
{
	s->v3 ^= m;
	round_(s);
	round_(s);
	s->v0 ^= m;
}

uint64_t cli_siphash24(const uint8_t key[CLI_SIPHASH_KEY_LEN], const void *m,
                       size_t len)
{
	const uint8_t *p = m;
	uint64_t k0 = load64(key), k1 = load64(key + 8), last;
	struct sip s;
	size_t i, rest = len % 8;

	s.v0 = k0 ^ UINT64_C(0x736f6d6570736575);
	s.v1 = k1 ^ UINT64_C(0x646f72616e646f6d);
	s.v2 = k0 ^ UINT64_C(0x6c7967656e657261);
	s.v3 = k1 ^ UINT64_C(0x7465646279746573);
	for (i = 0; i + 8 <= len; i += 8)
		absorb(&s, load64(p + i));
	/* the last word: the bytes left, and the length's low byte on top */
	last = (uint64_t)(len & 0xffu) << 56;
	while (rest-- > 0)
		last |= (uint64_t)p[i + rest] << (8 * rest);
	absorb(&s, last);
	s.v2 ^= 0xffu;
	for (i = 0; i < 4; i++)
		round_(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

const uint8_t *cli_hash_key(void)
{
	static uint8_t key[CLI_SIPHASH_KEY_LEN];
	static int ready;

	if (!ready) {
		if (getentropy(key, sizeof key) != 0) {
			/* no entropy source: the clock and an address, which an
			 * attacker still cannot choose the input for in advance */
			uint64_t t = (uint64_t)time(NULL) ^
			             (uint64_t)(uintptr_t)&key;

			memcpy(key, &t, sizeof t);
			t = (uint64_t)clock() * UINT64_C(0x9e3779b97f4a7c15);
			memcpy(key + 8, &t, sizeof t);
		}
		ready = 1;
	}
	return key;
}
