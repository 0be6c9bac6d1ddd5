/* SPDX-License-Identifier: MIT */
/*
 * quicgen.c - build protected QUIC packets with OpenSSL's libcrypto, for
 * the tests of "aesecb hp-mask".
 *
 * The packets are made independently of aesecb's own code
 * (tests/quicseal.c: OpenSSL's HKDF, AES-GCM and AES-ECB).
 *
 * Usage: quicgen NAME=VALUE ...
 *   v=1|2|draft29|v2draft|v2draft-quicku
 *                         QUIC version (default 1; v2draft-quicku: the v2
 *                         draft with quic-go 0.29's "quic ku")
 *   type=initial|0rtt|handshake|1rtt   (default initial)
 *   side=client|server    Initial keys of this side (default client)
 *   dcid=HEX scid=HEX     connection IDs (scid: long headers only)
 *   token=HEX             Initial token (default none)
 *   odcid=HEX             Initial keys from this DCID (default dcid)
 *   secret=HEX            traffic secret (all but Initial)
 *   hash=sha256|sha384    hash of the secret (default sha256)
 *   pn=N pnlen=1..4       packet number and its encoded length
 *   payload=N             plaintext bytes (default 40, at most 100000)
 *   plain=HEX             the plaintext (zero bytes, PADDING frames, follow
 *                         it up to payload=N; default: a fixed pattern)
 *   lenlen=1|2|4|8        bytes of the Length varint (default: shortest)
 *   ku=N                  1-RTT: the packet key of key generation N (the
 *                         secret updated N times with "quic ku" or
 *                         "quicv2 ku", RFC 9001 6.1), key phase bit N & 1;
 *                         the hp key stays the first secret's.  Without
 *                         ku= the key phase bit is set (generation 0)
 *   phase=0|1             1-RTT: this key phase bit whatever ku= says
 * Prints:
 *   secret: HEX           the traffic secret
 *   hp: HEX               the header-protection key
 *   header: HEX           the unprotected header, through the packet number
 *   clear: HEX            the packet with its header unprotected
 *   protected: HEX        the packet as sent
 *   pn_offset: N
 * Exit status 0, or 2 on a bad argument, 1 if libcrypto fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quicseal.h"

static void put_hex(const char *label, const uint8_t *p, size_t n)
{
	printf("%s: ", label);
	qs_hex(stdout, p, n);
	putchar('\n');
}

int main(int argc, char **argv)
{
	const char *type = "initial", *side = "client", *hash = "sha256";
	const char *secret_hex = NULL, *plain_hex = NULL, *vname = "1";
	uint8_t dcid[64], scid[64], token[512], odcid[64], secret[64];
	size_t dcid_len = 0, scid_len = 0, token_len = 0, odcid_len = 0;
	size_t payload = 40, lenlen = 0, pnlen = 1, pn_off, total;
	long ku = -1, phase = -1;
	int have_odcid = 0, i;
	uint64_t pn = 0;
	static uint8_t pkt[QS_MAXPKT], clear[QS_MAXPKT], plain[QS_MAXPKT];
	const struct qs_version *v;
	struct qs_keys k;
	struct qs_packet p;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = strchr(a, '=');
		size_t kl;

		if (val == NULL)
			qs_die("arguments are NAME=VALUE");
		kl = (size_t)(val - a);
		val++;
#define IS(name) (kl == strlen(name) && strncmp(a, name, kl) == 0)
		if (IS("v"))
			vname = val;
		else if (IS("type"))
			type = val;
		else if (IS("side"))
			side = val;
		else if (IS("dcid"))
			dcid_len = qs_unhex(val, dcid, 20);
		else if (IS("scid"))
			scid_len = qs_unhex(val, scid, 20);
		else if (IS("token"))
			token_len = qs_unhex(val, token, sizeof token);
		else if (IS("odcid")) {
			odcid_len = qs_unhex(val, odcid, 20);
			have_odcid = 1;
		} else if (IS("secret"))
			secret_hex = val;
		else if (IS("hash"))
			hash = val;
		else if (IS("pn"))
			pn = strtoull(val, NULL, 10);
		else if (IS("pnlen"))
			pnlen = (size_t)atoi(val);
		else if (IS("payload"))
			payload = (size_t)atoi(val);
		else if (IS("plain"))
			plain_hex = val;
		else if (IS("lenlen"))
			lenlen = (size_t)atoi(val);
		else if (IS("ku"))
			ku = atol(val);
		else if (IS("phase"))
			phase = atol(val);
		else
			qs_die("unknown argument");
#undef IS
	}
	v = qs_version(vname);
	if (payload > 100000)
		qs_die("payload too long");
	memset(&p, 0, sizeof p);
	p.v = v;
	if (strcmp(type, "initial") == 0)
		p.type = QS_INITIAL;
	else if (strcmp(type, "0rtt") == 0)
		p.type = QS_0RTT;
	else if (strcmp(type, "handshake") == 0)
		p.type = QS_HANDSHAKE;
	else if (strcmp(type, "1rtt") == 0)
		p.type = QS_1RTT;
	else
		qs_die("unknown type");

	/* the keys */
	if (p.type == QS_INITIAL) {
		qs_initial_keys(v, have_odcid ? odcid : dcid,
		                have_odcid ? odcid_len : dcid_len,
		                strcmp(side, "server") == 0, &k);
	} else {
		if (secret_hex == NULL)
			qs_die("secret=HEX is needed");
		qs_traffic_keys(v, hash, secret, qs_unhex(secret_hex, secret,
		                                          sizeof secret), &k);
	}
	memcpy(secret, k.secret, k.secret_len);
	if (ku > 0) {
		if (p.type != QS_1RTT)
			qs_die("ku= is for 1-RTT packets");
		qs_generation(v, hash, &k, (unsigned)ku);
	}

	/* the payload: the plaintext given, then zeros (PADDING), or a
	 * fixed pattern */
	if (plain_hex != NULL) {
		size_t pl = qs_unhex(plain_hex, plain, QS_MAXPKT);

		memset(plain + pl, 0, QS_MAXPKT - pl);
		if (pl > payload)
			qs_die("plain is longer than payload");
	} else {
		for (i = 0; i < (int)payload; i++)
			plain[i] = (uint8_t)(i * 7 + 3);
	}
	p.dcid = dcid;
	p.dcid_len = dcid_len;
	p.scid = scid;
	p.scid_len = scid_len;
	p.token = token;
	p.token_len = token_len;
	p.pn = pn;
	p.pnlen = pnlen;
	p.plain = plain;
	p.plain_len = payload;
	p.lenlen = lenlen;
	/* spin bit and key phase set, to see they survive; with ku= the key
	 * phase of the generation; with phase= that one */
	p.spin = 1;
	p.phase = phase >= 0 ? (int)phase : ku < 0 ? 1 : (int)(ku & 1);
	total = qs_seal(&p, &k, pkt, clear, &pn_off);

	put_hex("secret", secret, k.secret_len);
	put_hex("hp", k.hp, k.key_len);
	put_hex("header", clear, pn_off + pnlen);
	put_hex("clear", clear, total);
	put_hex("protected", pkt, total);
	printf("pn_offset: %zu\n", pn_off);
	return fflush(stdout) == 0 ? 0 : 1;
}
