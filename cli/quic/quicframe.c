/* SPDX-License-Identifier: MIT */
/*
 * quicframe.c - the frames of a verified QUIC packet.  See quicframe.h.
 *
 * The frames are the peer's plaintext, read after its tag verified; the
 * reader branches on their syntax as any QUIC stack does.  The keys are
 * only used through nettle's AES.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "aesecb.h"
#include "quic/quicframe.h"

#define NO_BLOCK UINT64_MAX

void qf_init(struct qf_reader *r, const struct quic_aead *a,
             const uint8_t *pkt, size_t len, size_t hdr_len, uint64_t pn)
{
	memset(r, 0, sizeof *r);
	r->aead = a;
	quic_pp_nonce(a, pn, r->nonce);
	r->ct = pkt + hdr_len;
	r->len = len >= hdr_len + QUIC_TAG_LEN ? len - hdr_len - QUIC_TAG_LEN
	                                        : 0;
	r->block = NO_BLOCK;
}

void qf_done(struct qf_reader *r)
{
	aesecb_wipe(r, sizeof *r);
}

/* The plaintext byte at offset at (< r->len). */
/*@ requires qf_reader_ok(r) && at < r->len;
    assigns r->buf[0 .. 15], r->block;
*/
static uint8_t byte_at(struct qf_reader *r, size_t at)
{
	uint64_t k = at / 16;

	if (k != r->block) {
		size_t i, n = r->len - (size_t)k * 16;

		quic_pp_keystream(r->aead, r->nonce, k, r->buf);
		/*@ loop invariant 0 <= i <= 16;
		    loop assigns i, r->buf[0 .. 15];
		    loop variant 16 - i; */
		for (i = 0; i < 16 && i < n; i++)
			r->buf[i] ^= r->ct[k * 16 + i];
		r->block = k;
	}
	return r->buf[at % 16];
}

/*@ requires qf_reader_ok(r) && \valid(out + (0 .. n - 1));
    requires \separated(out + (0 .. n - 1), r);
    assigns out[0 .. n - 1], r->buf[0 .. 15], r->block;
*/
void qf_read(struct qf_reader *r, size_t at, uint8_t *out, size_t n)
{
	size_t i;

	/*@ loop invariant 0 <= i <= n;
	    loop assigns i, out[0 .. n - 1], r->buf[0 .. 15], r->block;
	    loop variant n - i; */
	for (i = 0; i < n && at + i < r->len; i++)
		out[i] = byte_at(r, at + i);
}

/* A variable-length integer at r->pos: 1, or 0 past the end. */
/*@ requires qf_reader_ok(r) && \valid(v) && \separated(v, r);
    assigns *v, r->pos, r->buf[0 .. 15], r->block;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> \old(r->pos) < r->pos <= r->len;
    ensures \result == 0 ==> r->pos == \old(r->pos);
*/
static int varint(struct qf_reader *r, uint64_t *v)
{
	size_t n, i;

	if (r->pos >= r->len)
		return 0;
	*v = byte_at(r, r->pos);
	/* the first byte's two high bits: 1, 2, 4 or 8 bytes */
	n = (size_t)1 << (*v / 64u);
	//@ assert *v / 64 == 0 ==> n == 1;
	//@ assert *v / 64 == 1 ==> n == 2;
	//@ assert *v / 64 == 2 ==> n == 4;
	//@ assert *v / 64 == 3 ==> n == 8;
	if (n > r->len - r->pos)
		return 0;
	*v &= 0x3fu;
	/*@ loop invariant 1 <= i;
	    loop assigns i, *v, r->buf[0 .. 15], r->block;
	    loop variant n - i; */
	for (i = 1; i < n; i++)
		*v = (*v << 8) | byte_at(r, r->pos + i);
	r->pos += n;
	return 1;
}

/* k variable-length integers stepped over. */
/*@ requires qf_reader_ok(r);
    assigns r->pos, r->buf[0 .. 15], r->block;
    ensures \result == 0 || \result == 1;
    ensures \old(r->pos) <= r->pos <= r->len;
*/
static int skip_varints(struct qf_reader *r, unsigned k)
{
	uint64_t v;

	/*@ loop invariant \at(r->pos, Pre) <= r->pos <= r->len;
	    loop assigns k, v, r->pos, r->buf[0 .. 15], r->block;
	    loop variant k; */
	while (k-- > 0)
		if (!varint(r, &v))
			return 0;
	return 1;
}

/* n bytes stepped over. */
/*@ requires qf_reader_ok(r);
    assigns r->pos;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> r->pos == \old(r->pos) + n;
    ensures \result == 0 ==> r->pos == \old(r->pos);
    ensures r->pos <= r->len;
*/
static int skip_bytes(struct qf_reader *r, uint64_t n)
{
	if (n > r->len - r->pos)
		return 0;
	r->pos += (size_t)n;
	return 1;
}

/* A length-prefixed field (a token, a reason phrase, data). */
/*@ requires qf_reader_ok(r);
    assigns r->pos, r->buf[0 .. 15], r->block;
    ensures \result == 0 || \result == 1;
    ensures \old(r->pos) <= r->pos <= r->len;
*/
static int skip_counted(struct qf_reader *r)
{
	uint64_t n;

	return varint(r, &n) && skip_bytes(r, n);
}

/* An ACK frame after its type: largest, delay, the ranges, ECN counts. */
/*@ requires qf_reader_ok(r);
    assigns r->pos, r->buf[0 .. 15], r->block;
    ensures \result == 0 || \result == 1;
    ensures \old(r->pos) <= r->pos <= r->len;
*/
static int skip_ack(struct qf_reader *r, int ecn)
{
	uint64_t count, i;

	if (!skip_varints(r, 2) || !varint(r, &count) || !skip_varints(r, 1))
		return 0;
	/* each range is at least two bytes: a count past that is bad */
	if (count > (r->len - r->pos) / 2)
		return 0;
	/*@ loop invariant 0 <= i <= count;
	    loop invariant \at(r->pos, Pre) <= r->pos <= r->len;
	    loop assigns i, r->pos, r->buf[0 .. 15], r->block;
	    loop variant count - i; */
	for (i = 0; i < count; i++)
		if (!skip_varints(r, 2))
			return 0;
	return !ecn || skip_varints(r, 3);
}

/* A STREAM frame (types 0x08 to 0x0f) after its type. */
/*@ requires qf_reader_ok(r);
    assigns r->pos, r->buf[0 .. 15], r->block;
    ensures \result == 0 || \result == 1;
    ensures \old(r->pos) <= r->pos <= r->len;
*/
static int skip_stream(struct qf_reader *r, uint64_t type)
{
	uint64_t n;

	if (!skip_varints(r, (type & 0x04u) ? 2 : 1))
		return 0;
	if (!(type & 0x02u)) {
		r->pos = r->len;            /* the data runs to the end */
		return 1;
	}
	return varint(r, &n) && skip_bytes(r, n);
}

/* A CRYPTO frame after its type: its data lies in the payload. */
/*@ requires qf_reader_ok(r) && \valid(f) && \separated(f, r);
    assigns r->pos, r->buf[0 .. 15], r->block, f->offset, f->type, f->at,
            f->len;
    ensures \result == 0 || \result == 1;
    ensures \old(r->pos) <= r->pos <= r->len;
    ensures \result == 1 ==> f->type == QF_CRYPTO && f->at + f->len <= r->len;
*/
static int read_crypto(struct qf_reader *r, struct qf_frame *f)
{
	uint64_t n;

	if (!varint(r, &f->offset) || !varint(r, &n) || n > r->len - r->pos)
		return 0;
	f->type = QF_CRYPTO;
	f->at = r->pos;
	f->len = (size_t)n;
	r->pos += (size_t)n;
	return 1;
}

/* A NEW_CONNECTION_ID frame after its type: an ID of 1 to 20 bytes. */
/*@ requires qf_reader_ok(r) && \valid(f) && \separated(f, r);
    assigns r->pos, r->buf[0 .. 15], r->block, f->seq, f->retire_prior_to,
            f->cid[0 .. QUIC_MAX_CID_LEN - 1], f->cid_len, f->type;
    ensures \result == 0 || \result == 1;
    ensures \old(r->pos) <= r->pos <= r->len;
    ensures \result == 1 ==> f->type == QF_NEW_CONNECTION_ID &&
                             1 <= f->cid_len <= QUIC_MAX_CID_LEN;
*/
static int read_new_cid(struct qf_reader *r, struct qf_frame *f)
{
	uint8_t n;

	if (!varint(r, &f->seq) || !varint(r, &f->retire_prior_to) ||
	    r->pos >= r->len)
		return 0;
	n = byte_at(r, r->pos++);
	if (n < 1 || n > QUIC_MAX_CID_LEN || n > r->len - r->pos)
		return 0;
	qf_read(r, r->pos, f->cid, n);
	f->cid_len = n;
	r->pos += n;
	f->type = QF_NEW_CONNECTION_ID;
	return skip_bytes(r, 16);          /* the stateless reset token */
}

/*
 * One frame at r->pos: 1 when it is one the reader reports (in *f), 0
 * when it was stepped over, -1 when it is unknown or runs past the end.
 * A frame read (1 or 0) lies past r->pos: the reader moves on.
 */
/*@ requires qf_reader_ok(r) && \valid(f) && \separated(f, r);
    assigns r->pos, r->buf[0 .. 15], r->block, *f;
    ensures \result == -1 || \result == 0 || \result == 1;
    ensures \old(r->pos) <= r->pos <= r->len;
    ensures \result >= 0 ==> \old(r->pos) < r->pos;
    ensures \result == 1 && f->type == QF_CRYPTO ==> f->at + f->len <= r->len;
    ensures \result == 1 && f->type == QF_NEW_CONNECTION_ID ==>
            1 <= f->cid_len <= QUIC_MAX_CID_LEN;
*/
static int one_frame(struct qf_reader *r, struct qf_frame *f)
{
	uint64_t type;

	if (!varint(r, &type))
		return -1;
	switch (type) {
	case 0x00:                     /* PADDING */
	case 0x01:                     /* PING */
		return 0;
	case 0x02:
	case 0x03:
		return skip_ack(r, type == 0x03) ? 0 : -1;
	case 0x04:                     /* RESET_STREAM */
		return skip_varints(r, 3) ? 0 : -1;
	case 0x05:                     /* STOP_SENDING */
	case 0x11:                     /* MAX_STREAM_DATA */
	case 0x15:                     /* STREAM_DATA_BLOCKED */
		return skip_varints(r, 2) ? 0 : -1;
	case 0x06:
		return read_crypto(r, f) ? 1 : -1;
	case 0x07:                     /* NEW_TOKEN */
		return skip_counted(r) ? 0 : -1;
	case 0x10:                     /* MAX_DATA */
	case 0x12: case 0x13:          /* MAX_STREAMS */
	case 0x14:                     /* DATA_BLOCKED */
	case 0x16: case 0x17:          /* STREAMS_BLOCKED */
		return skip_varints(r, 1) ? 0 : -1;
	case 0x18:
		return read_new_cid(r, f) ? 1 : -1;
	case 0x19:
		f->type = QF_RETIRE_CONNECTION_ID;
		return varint(r, &f->seq) ? 1 : -1;
	case 0x1a: case 0x1b:          /* PATH_CHALLENGE, PATH_RESPONSE */
		return skip_bytes(r, 8) ? 0 : -1;
	case 0x1c:                     /* CONNECTION_CLOSE (transport) */
		return skip_varints(r, 2) && skip_counted(r) ? 0 : -1;
	case 0x1d:                     /* CONNECTION_CLOSE (application) */
		return skip_varints(r, 1) && skip_counted(r) ? 0 : -1;
	case 0x1e:
		f->type = QF_HANDSHAKE_DONE;
		return 1;
	case 0x30:                     /* DATAGRAM to the end */
		r->pos = r->len;
		return 0;
	case 0x31:                     /* DATAGRAM with a length */
		return skip_counted(r) ? 0 : -1;
	default:
		if (type >= 0x08 && type <= 0x0f)
			return skip_stream(r, type) ? 0 : -1;
		return -1;
	}
}

/*@ requires qf_reader_ok(r) && \valid(f) && \separated(f, r);
    assigns r->pos, r->buf[0 .. 15], r->block, r->stopped, *f;
    ensures \result == 0 || \result == 1;
    ensures \old(r->pos) <= r->pos <= r->len;
    ensures \result == 1 && f->type == QF_CRYPTO ==> f->at + f->len <= r->len;
    ensures \result == 1 && f->type == QF_NEW_CONNECTION_ID ==>
            1 <= f->cid_len <= QUIC_MAX_CID_LEN;
*/
int qf_next(struct qf_reader *r, struct qf_frame *f)
{
	/*@ loop invariant \at(r->pos, Pre) <= r->pos <= r->len;
	    loop assigns r->pos, r->buf[0 .. 15], r->block, r->stopped, *f;
	    loop variant 2 * (r->len - r->pos) + (r->stopped ? 0 : 1); */
	while (!r->stopped && r->pos < r->len) {
		int st;

		*f = (struct qf_frame){ 0 };
		st = one_frame(r, f);
		if (st < 0)
			r->stopped = 1;
		else if (st > 0)
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */

/*@ requires \valid(h) && \valid_read(f) && qf_reader_ok(r);
    requires \separated(h, r, f);
    assigns h->b[0 .. QF_HELLO_PREFIX - 1], h->have[0 .. 1],
            r->buf[0 .. 15], r->block;
*/
void qf_hello_add(struct qf_hello *h, struct qf_reader *r,
                  const struct qf_frame *f)
{
	uint64_t i;

	if (f->type != QF_CRYPTO || f->offset >= QF_HELLO_PREFIX)
		return;
	/*@ loop invariant f->offset <= i <= QF_HELLO_PREFIX;
	    loop assigns i, h->b[0 .. QF_HELLO_PREFIX - 1], h->have[0 .. 1],
	                 r->buf[0 .. 15], r->block;
	    loop variant QF_HELLO_PREFIX - i; */
	for (i = f->offset; i < QF_HELLO_PREFIX && i - f->offset < f->len;
	     i++) {
		qf_read(r, f->at + (size_t)(i - f->offset), &h->b[i], 1);
		h->have[i / 64] |= UINT64_C(1) << (i % 64);
	}
}

/* Whether bytes [from, to) are in. */
/*@ requires \valid_read(h) && from <= to <= QF_HELLO_PREFIX;
    assigns \nothing;
    ensures \result == 0 || \result == 1;
*/
static int have_range(const struct qf_hello *h, size_t from, size_t to)
{
	size_t i;

	/*@ loop invariant from <= i <= to;
	    loop assigns i;
	    loop variant to - i; */
	for (i = from; i < to; i++)
		if (!(h->have[i / 64] & (UINT64_C(1) << (i % 64))))
			return 0;
	return 1;
}

/* A handshake message of TLS 1.2's legacy_version, as TLS 1.3 sends. */
/*@ requires \valid_read(h);
    assigns \nothing;
*/
static int is_hello(const struct qf_hello *h, int type)
{
	return h->b[0] == type && h->b[4] == 3 && h->b[5] == 3;
}

/*@ requires \valid_read(h) && \valid(random + (0 .. QF_RANDOM_LEN - 1));
    requires \separated(random + (0 .. QF_RANDOM_LEN - 1), h);
    assigns random[0 .. QF_RANDOM_LEN - 1];
    ensures -1 <= \result <= 1;
*/
int qf_hello_random(const struct qf_hello *h, uint8_t random[QF_RANDOM_LEN])
{
	if (!have_range(h, 0, 6 + QF_RANDOM_LEN))
		return 0;
	if (!is_hello(h, 1))
		return -1;
	memcpy(random, h->b + 6, QF_RANDOM_LEN);
	return 1;
}

/*@ requires \valid_read(h) && \valid(suite);
    assigns *suite;
    ensures -1 <= \result <= 1;
*/
int qf_hello_suite(const struct qf_hello *h, unsigned *suite)
{
	size_t at = 6 + QF_RANDOM_LEN;         /* legacy_session_id_echo */

	if (!have_range(h, 0, at + 1))
		return 0;
	if (!is_hello(h, 2) || h->b[at] > 32)
		return -1;
	at += 1 + h->b[at];
	if (!have_range(h, at, at + 2))
		return 0;
	*suite = (unsigned)h->b[at] << 8 | h->b[at + 1];
	return 1;
}
