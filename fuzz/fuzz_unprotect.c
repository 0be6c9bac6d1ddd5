/* SPDX-License-Identifier: MIT */
/*
 * fuzz_unprotect.c - libFuzzer harness: datagrams split into packets
 * (cli/quic/datagram.c) and unprotected with trial decryption (cli/quic/unprotect.c,
 * cli/quic/quicpp.c), with every key source.
 *
 *   byte 0    bits 0-2: key source (0 Initial keys, 1 Initial with --odcid
 *             and --server, 2 a SHA-256 secret, 3 a SHA-384 secret, 4 a
 *             bare hp key, 5 and up: Initial keys and a key log of two
 *             connections); bit 3: --pn-offset (byte 1 is its value);
 *             bit 4: QUIC version 2 for short headers
 *   byte 1    bits 0-4: short-header DCID length (21 and up: unknown);
 *             also the --pn-offset
 *   byte 2    where the input is cut into two datagrams of one stream
 *   the rest  the datagrams
 *
 * Checked: the parts of a datagram follow each other from offset 0 to its
 * end, each at least one byte; padding is zero bytes; a packet's bytes
 * change only when its header protection was removed (authenticated, not
 * checked, or failed with a single key), and then only its first byte's
 * low bits and its packet number; those have a packet number of 1 to 4
 * bytes inside the packet; nothing is read or written outside the
 * datagram (the sanitizers).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "quic/hpconf.h"
#include "quic/keylog.h"
#include "quic/unprotect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct walk {
	const uint8_t *orig;          /* the datagram before */
	const uint8_t *now;           /* and as it is being changed */
	size_t len, next;
};

static int check_part(void *arg, const struct up_packet *p)
{
	struct walk *w = arg;
	size_t i;

	if (p->offset != w->next || p->len == 0 || p->len > w->len - p->offset)
		abort();
	if (p->bytes != w->now + p->offset)
		abort();
	w->next = p->offset + p->len;
	if (p->verdict == UP_PADDING) {
		for (i = 0; i < p->len; i++)
			if (p->bytes[i] != 0)
				abort();
		return 0;
	}
	if (p->verdict == UP_AUTHENTICATED || p->verdict == UP_TRUNCATED ||
	    p->verdict == UP_NO_PACKET_KEY ||
	    (p->verdict == UP_FAILED && p->pn_len != 0)) {
		const uint8_t *o = w->orig + p->offset;
		unsigned low = (o[0] & 0x80u) ? 0x0fu : 0x1fu;

		if (p->pn_len < 1 || p->pn_len > 4 ||
		    p->pn_offset + p->pn_len > p->len)
			abort();
		if ((p->bytes[0] & ~low) != (o[0] & ~low))
			abort();
		for (i = 1; i < p->len; i++)
			if ((i < p->pn_offset || i >= p->pn_offset + p->pn_len) &&
			    p->bytes[i] != o[i])
				abort();
		return 0;
	}
	if (memcmp(p->bytes, w->orig + p->offset, p->len) != 0)
		abort();
	return 0;
}

static void keylog_of_two(struct keylog *kl)
{
	static const char *const lines[] = {
		"CLIENT_HANDSHAKE_TRAFFIC_SECRET 0101010101010101010101010101"
		"010101010101010101010101010101010101 a1a2a3a4a5a6a7a8a9aaabac"
		"adaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0",
		"SERVER_TRAFFIC_SECRET_0 01010101010101010101010101010101010"
		"10101010101010101010101010101 0102030405060708090a0b0c0d0e0f1"
		"01112131415161718191a1b1c1d1e1f20",
		"CLIENT_EARLY_TRAFFIC_SECRET 020202020202020202020202020202020"
		"2020202020202020202020202020202 f1f2f3f4f5f6f7f8f9fafbfcfdfeff0"
		"00102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
		"CLIENT_TRAFFIC_SECRET_0 02020202020202020202020202020202020"
		"20202020202020202020202020202 f1f2f3f4f5f6f7f8f9fafbfcfdfeff00"
		"0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
	};
	size_t i;

	keylog_init(kl);
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++)
		if (keylog_add_line(kl, lines[i], strlen(lines[i]), i + 1,
		                    NULL) != KEYLOG_OK)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *keylog_name = "fuzz.keylog";
	struct hp_conf c;
	struct up_state *s;
	struct keylog kl;
	uint8_t *d;
	size_t n, cut, part;
	int src;

	if (size < 4)
		return 0;
	memset(&c, 0, sizeof c);
	keylog_init(&kl);
	src = data[0] & 7;
	c.mode = HP_UNPROTECT;
	c.version = (data[0] & 0x10) ? QUIC_VERSION_2 : QUIC_VERSION_1;
	c.have_version = (data[0] & 0x10) != 0;
	c.hash = QUIC_SHA256;
	c.dcid_len = (data[1] & 0x1f) <= 20 ? (size_t)(data[1] & 0x1f)
	                                    : QUIC_DCID_LEN_UNKNOWN;
	switch (src) {
	case 0:
		c.initial = 1;
		break;
	case 1:
		c.initial = 1;
		c.server_only = 1;
		c.have_odcid = 1;
		c.odcid_len = 8;
		memcpy(c.odcid, "\x83\x94\xc8\xf0\x3e\x51\x57\x08", 8);
		break;
	case 2:
	case 3:
		c.secret.given = 1;
		c.hash = src == 2 ? QUIC_SHA256 : QUIC_SHA384;
		c.secret.len = quic_hash_len(c.hash);
		memset(c.secret.bytes, 0x5a, c.secret.len);
		break;
	case 4:
		c.common.key.given = 1;
		c.common.key.len = 16;
		memset(c.common.key.bytes, 0x3c, 16);
		break;
	default:
		c.initial = 1;
		keylog_of_two(&kl);
		c.keylogs = &keylog_name;
		c.nkeylogs = 1;
		break;
	}
	if ((data[0] & 8) && c.nkeylogs == 0) {
		c.have_pn_offset = 1;
		c.pn_offset = data[1];
	}
	if (up_new(&s, &c, &kl, NULL) != 0)
		abort();
	n = size - 3;
	cut = n != 0 ? data[2] % (n + 1) : 0;
	d = malloc(n + 1);
	if (d == NULL)
		abort();
	memcpy(d, data + 3, n);
	/* two datagrams of one stream: the state carries over */
	for (part = 0; part < 2; part++) {
		size_t off = part == 0 ? 0 : cut, len = part == 0 ? cut : n - cut;
		struct walk w;
		uint8_t *copy;

		if (len == 0)
			continue;
		copy = malloc(len);
		if (copy == NULL)
			abort();
		memcpy(copy, d + off, len);
		w.orig = copy;
		w.now = d + off;
		w.len = len;
		w.next = 0;
		if (up_datagram(s, d + off, len, NULL, check_part, &w) != 0)
			abort();
		if (w.next != len)
			abort();
		free(copy);
	}
	free(d);
	up_free(s);
	keylog_free(&kl);
	return 0;
}
