/* SPDX-License-Identifier: MIT */
/*
 * check_quicframe.c - unit tests for the frame reader of verified QUIC
 * packets (cli/quic/quicframe.c): payloads sealed here with nettle's AES-GCM
 * (the reader decrypts them a block at a time at GCM's counter), every
 * frame type stepped over, CRYPTO and NEW_CONNECTION_ID frames reported,
 * the reader stopping at an unknown or truncated frame, and the
 * ClientHello's random gathered from CRYPTO frames in any order, over
 * several packets.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/gcm.h>

#include "checkutil.h"
#include "quic/quicframe.h"
#include "quic/quicpp.h"

#define HDR 7
#define PN 0x1234

static struct quic_aead aead;
static uint8_t pkt[4096];
static size_t pkt_len;

/* A packet of HDR header bytes, plain sealed as its payload, the tag. */
static void seal(const uint8_t *plain, size_t n, int aes256)
{
	uint8_t key[32], iv[12], nonce[12];
	size_t i;

	for (i = 0; i < sizeof key; i++)
		key[i] = (uint8_t)(0x40 + i);
	for (i = 0; i < sizeof iv; i++)
		iv[i] = (uint8_t)(0x90 + i);
	ck_assert_int_eq(quic_aead_init(&aead, key, aes256 ? 32 : 16, iv),
	                 QUIC_OK);
	memset(pkt, 0x5a, HDR);
	quic_pp_nonce(&aead, PN, nonce);
	if (aes256) {
		struct gcm_aes256_ctx g;

		gcm_aes256_set_key(&g, key);
		gcm_aes256_set_iv(&g, 12, nonce);
		gcm_aes256_update(&g, HDR, pkt);
		gcm_aes256_encrypt(&g, n, pkt + HDR, plain);
		gcm_aes256_digest(&g, 16, pkt + HDR + n);
	} else {
		struct gcm_aes128_ctx g;

		gcm_aes128_set_key(&g, key);
		gcm_aes128_set_iv(&g, 12, nonce);
		gcm_aes128_update(&g, HDR, pkt);
		gcm_aes128_encrypt(&g, n, pkt + HDR, plain);
		gcm_aes128_digest(&g, 16, pkt + HDR + n);
	}
	pkt_len = HDR + n + 16;
}

static size_t plain_of(const char *hex, uint8_t *out)
{
	return unhex(hex, out, 4096);
}

/* Every byte read back through the reader, whatever the block. */
START_TEST(test_read)
{
	uint8_t plain[300], got[300];
	struct qf_reader r;
	size_t i;

	for (i = 0; i < sizeof plain; i++)
		plain[i] = (uint8_t)(i * 13 + 1);
	seal(plain, sizeof plain, _i);
	qf_init(&r, &aead, pkt, pkt_len, HDR, PN);
	ck_assert_uint_eq(r.len, sizeof plain);
	memset(got, 0, sizeof got);
	/* backwards, to move between blocks */
	for (i = sizeof plain; i-- > 0;)
		qf_read(&r, i, got + i, 1);
	ck_assert_mem_eq(got, plain, sizeof plain);
	qf_read(&r, 250, got, 200);          /* stops at the end */
	ck_assert_mem_eq(got, plain + 250, 50);
	qf_done(&r);
}
END_TEST

/* Every known frame stepped over; CRYPTO, NEW_CONNECTION_ID,
 * RETIRE_CONNECTION_ID and HANDSHAKE_DONE reported in order. */
START_TEST(test_frames)
{
	uint8_t plain[1024], data[8];
	struct qf_reader r;
	struct qf_frame f;
	size_t n = plain_of(
		"00 00 01"                        /* PADDING, PING */
		"02 40c8 05 02 03 01 02 04 05"    /* ACK: 2 ranges */
		"03 01 00 00 00 07 08 09"         /* ACK_ECN */
		"04 01 02 03  05 01 02"           /* RESET_STREAM, STOP_SENDING */
		"06 4010 03 aabbcc"               /* CRYPTO at 16, 3 bytes */
		"07 02 eeee"                      /* NEW_TOKEN */
		"0a 04 02 0102"                   /* STREAM, length */
		"0e 08 4100 03 010203"            /* STREAM, offset and length */
		"10 01  11 01 02  12 03  13 03  14 05  15 01 02  16 01  17 01"
		"18 05 02 08 1122334455667788"    /* NEW_CONNECTION_ID */
		"  000102030405060708090a0b0c0d0e0f"
		"19 04"                           /* RETIRE_CONNECTION_ID */
		"1a 0102030405060708 1b 0102030405060708"
		"1c 0a 06 03 616263  1d 0b 00"    /* CONNECTION_CLOSE x2 */
		"31 02 fefe"                      /* DATAGRAM, length */
		"1e"                              /* HANDSHAKE_DONE */
		"09 04 ffffffff"                  /* STREAM to the end */
		"06 00 01 99",                    /* (inside the STREAM data) */
		plain);

	seal(plain, n, 0);
	qf_init(&r, &aead, pkt, pkt_len, HDR, PN);
	ck_assert_int_eq(qf_next(&r, &f), 1);
	ck_assert_int_eq(f.type, QF_CRYPTO);
	ck_assert_uint_eq(f.offset, 16);
	ck_assert_uint_eq(f.len, 3);
	qf_read(&r, f.at, data, 3);
	ck_assert_hex(data, 3, "aabbcc");
	ck_assert_int_eq(qf_next(&r, &f), 1);
	ck_assert_int_eq(f.type, QF_NEW_CONNECTION_ID);
	ck_assert_uint_eq(f.seq, 5);
	ck_assert_uint_eq(f.retire_prior_to, 2);
	ck_assert_uint_eq(f.cid_len, 8);
	ck_assert_hex(f.cid, 8, "1122334455667788");
	ck_assert_int_eq(qf_next(&r, &f), 1);
	ck_assert_int_eq(f.type, QF_RETIRE_CONNECTION_ID);
	ck_assert_uint_eq(f.seq, 4);
	ck_assert_int_eq(qf_next(&r, &f), 1);
	ck_assert_int_eq(f.type, QF_HANDSHAKE_DONE);
	ck_assert_int_eq(qf_next(&r, &f), 0);
	ck_assert_int_eq(r.stopped, 0);
	qf_done(&r);
}
END_TEST

/* The reader stops at a frame it does not know or that runs past the
 * end, after reporting what came before. */
static const char *const stops[] = {
	"06 00 02 0102  40 21",                 /* an unknown type (0x21) */
	"06 00 02 0102  06 00 05 0102",         /* CRYPTO past the end */
	"06 00 02 0102  18 01 00 15",           /* a 21-byte connection ID */
	"06 00 02 0102  18 01 00 00",           /* and one of 0 bytes */
	"06 00 02 0102  18 01 00 04 01020304 0001", /* its token cut short */
	"06 00 02 0102  02 01 00 7f 00",        /* ACK: 127 ranges, none there */
	"06 00 02 0102  0a 01 05 00",           /* STREAM data past the end */
	"06 00 02 0102  c0",                    /* a type cut short */
	"06 00 02 0102  1a 0102",               /* PATH_CHALLENGE cut short */
};

START_TEST(test_stops)
{
	uint8_t plain[256];
	struct qf_reader r;
	struct qf_frame f;
	size_t n = plain_of(stops[_i], plain);

	seal(plain, n, 0);
	qf_init(&r, &aead, pkt, pkt_len, HDR, PN);
	ck_assert_int_eq(qf_next(&r, &f), 1);
	ck_assert_int_eq(f.type, QF_CRYPTO);
	ck_assert_int_eq(qf_next(&r, &f), 0);
	ck_assert_int_eq(r.stopped, 1);
	ck_assert_int_eq(qf_next(&r, &f), 0);
	qf_done(&r);
}
END_TEST

/* The ClientHello prefix of a random R. */
#define RANDOM "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20"
static const char hello[] = "010000fc0303" RANDOM "00";

/* CRYPTO frames of hello's bytes [from, to) at their offsets. */
static size_t crypto_frame(uint8_t *out, size_t from, size_t to)
{
	uint8_t h[64];
	size_t n = unhex(hello, h, sizeof h), k = 0;

	ck_assert_uint_le(to, n);
	out[k++] = 0x06;
	out[k++] = (uint8_t)from;
	out[k++] = (uint8_t)(to - from);
	memcpy(out + k, h + from, to - from);
	return k + to - from;
}

static void feed(struct qf_hello *h, const uint8_t *plain, size_t n)
{
	struct qf_reader r;
	struct qf_frame f;

	seal(plain, n, 0);
	qf_init(&r, &aead, pkt, pkt_len, HDR, PN);
	while (qf_next(&r, &f))
		qf_hello_add(h, &r, &f);
	qf_done(&r);
}

START_TEST(test_hello)
{
	uint8_t plain[512], random[32];
	struct qf_hello h;
	size_t n;

	/* out of order in one packet, between an ACK and PADDING */
	memset(&h, 0, sizeof h);
	n = 0;
	plain[n++] = 0x02;
	memcpy(plain + n, "\x00\x00\x00\x00", 4);
	n += 4;
	n += crypto_frame(plain + n, 20, 39);
	n += crypto_frame(plain + n, 0, 7);
	n += crypto_frame(plain + n, 5, 20);      /* overlaps */
	memset(plain + n, 0, 100);
	n += 100;
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_random(&h, random), 1);
	ck_assert_hex(random, 32, RANDOM);

	/* over three packets, the first byte last; not done before */
	memset(&h, 0, sizeof h);
	n = crypto_frame(plain, 30, 39);
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_random(&h, random), 0);
	n = crypto_frame(plain, 1, 30);
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_random(&h, random), 0);
	/* frames past the prefix change nothing */
	n = crypto_frame(plain, 38, 39);
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_random(&h, random), 0);
	n = crypto_frame(plain, 0, 1);
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_random(&h, random), 1);
	ck_assert_hex(random, 32, RANDOM);

	/* a ServerHello (type 2) is not a ClientHello */
	memset(&h, 0, sizeof h);
	n = crypto_frame(plain, 0, 39);
	plain[3] = 2;
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_random(&h, random), -1);
	/* nor is another legacy version */
	memset(&h, 0, sizeof h);
	n = crypto_frame(plain, 0, 39);
	plain[3 + 5] = 4;
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_random(&h, random), -1);
}
END_TEST

/* RFC 9001 A.3's ServerHello (an ACK, then the CRYPTO frame): its suite,
 * TLS_AES_128_GCM_SHA256; then with a session ID echoed, in pieces. */
START_TEST(test_server_hello)
{
	uint8_t plain[512];
	struct qf_hello h;
	unsigned suite = 0;
	size_t n;

	memset(&h, 0, sizeof h);
	n = plain_of("02000000000600405a020000560303eefce7f7b37ba1d1632e9667"
	          "7825ddf73988cfc79825df566dc5430b9a045a120013010000"
	          "2e00330024001d00209d3c940d89690b84d08a60993c144eca684d"
	          "1081287c834d5311bcf32bb9da1a002b00020304", plain);
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_suite(&h, &suite), 1);
	ck_assert_uint_eq(suite, QF_TLS_AES_128_GCM_SHA256);
	/* a ClientHello it is not */
	{
		uint8_t random[32];

		ck_assert_int_eq(qf_hello_random(&h, random), -1);
	}
	/* a 3-byte session ID echoed, the suite ChaCha20's, its last byte
	 * first and in a packet of its own */
	memset(&h, 0, sizeof h);
	n = plain_of("06 2b 01 03", plain);
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_suite(&h, &suite), 0);
	n = plain_of("06 00 2b 020000560303" RANDOM "03aabbcc13", plain);
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_suite(&h, &suite), 1);
	ck_assert_uint_eq(suite, QF_TLS_CHACHA20_POLY1305_SHA256);
	/* a session ID longer than TLS allows: not a ServerHello */
	memset(&h, 0, sizeof h);
	n = plain_of("06 00 27 020000560303" RANDOM "21", plain);
	feed(&h, plain, n);
	ck_assert_int_eq(qf_hello_suite(&h, &suite), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("quicframe");
	TCase *tc = tcase_create("frames");

	tcase_add_loop_test(tc, test_read, 0, 2);
	tcase_add_test(tc, test_frames);
	tcase_add_loop_test(tc, test_stops, 0,
	                    (int)(sizeof stops / sizeof stops[0]));
	tcase_add_test(tc, test_hello);
	tcase_add_test(tc, test_server_hello);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite)
