/* SPDX-License-Identifier: MIT */
/*
 * fuzz_quic.c - libFuzzer harness: QUIC header parsing (quic_parse_header
 * and quic_header_error in cli/quic/quic.c) and header protection through the
 * library (aesecb_hp_protect, aesecb_hp_unprotect).
 *
 *   byte 0    bits 0-1: AES key size (16, 24, 32; 3 = 16)
 *             bits 2-7: with byte 1, a pn_offset for the raw protect call
 *   byte 1    size of the message buffer of quic_header_error (0..255)
 *   the rest  the packet
 *
 * The packet is parsed with every short-header DCID length (0 to 21, and
 * unknown).  On success: dcid, scid and token lie inside the header,
 * sample_offset = pn_offset + 4 and pn_offset + 4 + 16 <= packet_len <=
 * len; the header is then protected and unprotected, which must restore
 * it and return the packet-number length, with the mask the first five
 * bytes of AES-ECB(hp key, sample).  On failure the error fields must
 * agree with the status, and quic_header_error must stay in its buffer
 * and write a prefix of the full message.  Protect and unprotect at an
 * arbitrary pn_offset: AESECB_ESHORT and the packet untouched when it is
 * too short.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"
#include "quic/quic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BS AESECB_BLOCK_SIZE

static const uint8_t key_bytes[32] = {
	0x25, 0x2b, 0x3b, 0x8f, 0x1a, 0x44, 0x6e, 0xc0,
	0x9d, 0x10, 0x77, 0x31, 0xe4, 0x56, 0x02, 0xaa,
	0x68, 0x0b, 0xd3, 0x5f, 0x81, 0x9c, 0x4e, 0x27,
	0xf0, 0x13, 0xb6, 0x3a, 0x59, 0xcd, 0x7e, 0x91,
};

static int inside(const uint8_t *p, size_t n, const uint8_t *base,
                  size_t room)
{
	if (n == 0)
		return p == NULL || (p >= base && p <= base + room);
	return p != NULL && p >= base && p <= base + room &&
	       n <= (size_t)(base + room - p);
}

static void error_text(const struct quic_header *h, int st, size_t size)
{
	char full[1024], *small;
	size_t n;

	quic_header_error(h, st, full, sizeof full);
	n = strlen(full);
	if (n == 0 || n >= sizeof full - 1)
		abort();
	/* exactly size bytes: ASan sees a write past them */
	small = malloc(size ? size : 1);
	if (small == NULL)
		abort();
	if (quic_header_error(h, st, small, size) != small)
		abort();
	if (size > 0) {
		size_t m = strnlen(small, size);

		if (m >= size || m > n || memcmp(small, full, m) != 0 ||
		    (m < n && m != size - 1))
			abort();
	}
	free(small);
}

static void check_error(const struct quic_header *h, int st, size_t len)
{
	switch (st) {
	case QUIC_EEMPTY:
		if (len != 0)
			abort();
		break;
	case QUIC_ETRUNCATED:
	case QUIC_EVARINT:
	case QUIC_ELENGTH:
	case QUIC_ESAMPLE:
		if (h->err_need <= h->err_have || h->err_have > len)
			abort();
		break;
	case QUIC_ECIDLEN:
		if (h->err_need <= QUIC_MAX_CID_LEN)
			abort();
		break;
	case QUIC_EVERSION:
		if (!h->long_header || quic_version_known(h->version))
			abort();
		break;
	case QUIC_ENOPROTECTION:
		if (h->type != QUIC_PT_RETRY &&
		    h->type != QUIC_PT_VERSION_NEGOTIATION)
			abort();
		break;
	case QUIC_ENODCIDLEN:
		if (h->long_header)
			abort();
		break;
	default:
		abort();
	}
}

static void roundtrip(const aesecb_ctx *ctx, const uint8_t *pkt,
                      const struct quic_header *h)
{
	uint8_t *p, block[BS];
	size_t n = h->packet_len, i;
	unsigned pn_len;
	int st;

	p = malloc(n);
	if (p == NULL)
		abort();
	memcpy(p, pkt, n);
	/* the mask, the plain way */
	if (aesecb_encrypt(ctx, pkt + h->sample_offset, block, BS) != AESECB_OK)
		abort();
	pn_len = (pkt[0] & 3u) + 1u;
	if (aesecb_hp_protect(ctx, p, n, h->pn_offset) != AESECB_OK)
		abort();
	if (p[0] != (pkt[0] ^ (block[0] & (pkt[0] & 0x80 ? 0x0f : 0x1f))))
		abort();
	for (i = 0; i < n; i++) {
		uint8_t want = pkt[i];

		if (i >= h->pn_offset && i < h->pn_offset + pn_len)
			want ^= block[1 + i - h->pn_offset];
		if (i > 0 && p[i] != want)
			abort();
	}
	st = aesecb_hp_unprotect(ctx, p, n, h->pn_offset);
	if (st != (int)pn_len || memcmp(p, pkt, n) != 0)
		abort();
	free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t klens[4] = { 16, 24, 32, 16 };
	aesecb_ctx ctx;
	struct quic_header h;
	const uint8_t *pkt;
	uint8_t *copy;
	size_t len, d, raw_pn;
	int st;

	if (size < 2)
		return 0;
	if (aesecb_init(&ctx, key_bytes, klens[data[0] & 3], NULL) != AESECB_OK)
		abort();
	len = size - 2;
	/* a copy of exactly the packet: a read past it is caught */
	copy = malloc(len ? len : 1);
	if (copy == NULL)
		abort();
	memcpy(copy, data + 2, len);
	pkt = copy;

	for (d = 0; d <= QUIC_MAX_CID_LEN + 2; d++) {
		size_t dl = d == QUIC_MAX_CID_LEN + 2 ? QUIC_DCID_LEN_UNKNOWN : d;

		memset(&h, 0x5a, sizeof h);
		st = quic_parse_header(pkt, len, dl, &h);
		if (st != QUIC_OK) {
			check_error(&h, st, len);
			if (st == QUIC_ENOPROTECTION &&
			    (!inside(h.dcid, h.dcid_len, pkt, len) ||
			     !inside(h.scid, h.scid_len, pkt, len)))
				abort();
			error_text(&h, st, data[1]);
			continue;
		}
		if (h.sample_offset != h.pn_offset + 4 ||
		    h.pn_offset + 4 + 16 > h.packet_len || h.packet_len > len ||
		    h.dcid_len > QUIC_MAX_CID_LEN ||
		    !inside(h.dcid, h.dcid_len, pkt, h.pn_offset) ||
		    h.long_header != !!(pkt[0] & 0x80))
			abort();
		if (h.long_header) {
			if (h.scid_len > QUIC_MAX_CID_LEN ||
			    !inside(h.scid, h.scid_len, pkt, h.pn_offset) ||
			    !inside(h.token, h.token_len, pkt, h.pn_offset) ||
			    h.packet_len != h.pn_offset + h.length ||
			    !quic_version_known(h.version))
				abort();
		} else if (h.type != QUIC_PT_1RTT || h.pn_offset != 1 + dl ||
		           h.packet_len != len || h.dcid != pkt + 1 ||
		           h.dcid_len != dl) {
			abort();
		}
		roundtrip(&ctx, pkt, &h);
	}

	/* protect and unprotect anywhere: short packets stay untouched */
	raw_pn = ((size_t)(data[0] >> 2) << 8 | data[1]) % (len + 2);
	if (raw_pn > 0) {
		uint8_t *p = malloc(len ? len : 1);
		int want_short = len < 20 || raw_pn > len - 20;

		if (p == NULL)
			abort();
		memcpy(p, pkt, len);
		st = aesecb_hp_protect(&ctx, p, len, raw_pn);
		if (want_short) {
			if (st != AESECB_ESHORT || memcmp(p, pkt, len) != 0 ||
			    aesecb_hp_unprotect(&ctx, p, len, raw_pn) !=
			    AESECB_ESHORT || memcmp(p, pkt, len) != 0)
				abort();
		} else {
			if (st != AESECB_OK ||
			    aesecb_hp_unprotect(&ctx, p, len, raw_pn) !=
			    (int)(pkt[0] & 3u) + 1 || memcmp(p, pkt, len) != 0)
				abort();
		}
		free(p);
	}
	aesecb_clear(&ctx);
	free(copy);
	return 0;
}
