/* SPDX-License-Identifier: MIT */
/*
 * pcapin.c - UDP datagrams read from pcap and pcapng files with libpcap.
 * See pcapin.h.
 *
 * libpcap reads the file (both formats, both byte orders, its checks of
 * record lengths); this file only walks the link, IP and UDP headers of
 * each frame libpcap hands over, reading no byte past the frame's
 * captured length.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <arpa/inet.h>
#include <errno.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "quic/pcapin.h"

/* The bytes the caller read to sniff the format, then the descriptor. */
struct source {
	int fd;
	size_t headlen, pos;
	int err;                   /* errno of a failed read, else 0 */
	uint8_t head[];            /* headlen bytes */
};

struct pcapin {
	pcap_t *pc;
	struct source *src;        /* freed by pcap_close (the FILE's close) */
	int dlt;
	unsigned port;
	unsigned ts_digits;
	const char *format;
	char linktype[64];
	struct pcapin_stats st;
	int done;
};

/*@ requires \valid_read(b + (0 .. 1));
    assigns \nothing;
*/
static uint16_t be16(const uint8_t *b)
{
	return (uint16_t)((unsigned)b[0] << 8 | b[1]);
}

/*@ requires \valid_read(b + (0 .. 3));
    assigns \nothing;
*/
static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

/*@ requires \valid_read(b + (0 .. 3));
    assigns \nothing;
*/
static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[1] << 8 | b[0];
}

/* The magic numbers of pcap files (as a big-endian reading of their
   first 4 bytes, in either byte order), and their time stamp digits. */
static const struct {
	uint32_t magic;
	unsigned digits;
	const char *format;
} pcap_magics[] = {
	{ 0xa1b2c3d4, 6, "pcap" },
	{ 0xa1b23c4d, 9, "pcap (nanoseconds)" },
	{ 0xa1b2cd34, 6, "pcap (Kuznetzov)" },
};

#define PCAPNG_SHB 0x0a0d0d0au
#define PCAPNG_BOM 0x1a2b3c4du

/* 0 (not a capture) or the index into pcap_magics plus 1, or -1 for
   pcapng. */
/*@ requires h == \null || \valid_read(h + (0 .. n - 1));
    assigns \nothing;
    ensures -1 <= \result <= 3;
*/
static int kind(const uint8_t *h, size_t n)
{
	uint32_t m;
	size_t i;

	if (h == NULL || n < PCAPIN_SNIFF_LEN)
		return 0;
	if (be32(h) == PCAPNG_SHB &&
	    (be32(h + 8) == PCAPNG_BOM || le32(h + 8) == PCAPNG_BOM))
		return -1;
	/*@ loop invariant 0 <= i <= 3;
	    loop assigns i, m;
	    loop variant 3 - i; */
	for (i = 0; i < sizeof pcap_magics / sizeof pcap_magics[0]; i++) {
		m = pcap_magics[i].magic;
		/* the major version, 2, in the file's byte order */
		if (be32(h) == m && h[4] == 0 && h[5] == 2)
			return (int)i + 1;
		if (le32(h) == m && h[4] == 2 && h[5] == 0)
			return (int)i + 1;
	}
	return 0;
}

/*@ requires head == \null || \valid_read(head + (0 .. n - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
*/
int pcapin_sniff(const uint8_t *head, size_t n)
{
	return kind(head, n) != 0;
}

int pcapin_head(int fd, uint8_t *head, size_t size, size_t *n, char *why,
                size_t whysize)
{
	*n = 0;
	while (*n < size) {
		ssize_t got = read(fd, head + *n, size - *n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(why, whysize, "read error: %s", strerror(errno));
			return PCAPIN_EIO;
		}
		if (got == 0)
			break;
		*n += (size_t)got;
	}
	return PCAPIN_OK;
}

#ifdef HAVE_FOPENCOOKIE
static ssize_t source_read(void *cookie, char *buf, size_t size)
{
	struct source *s = cookie;
	ssize_t got;

	if (s->pos < s->headlen) {
		size_t k = s->headlen - s->pos;

		if (k > size)
			k = size;
		memcpy(buf, s->head + s->pos, k);
		s->pos += k;
		return (ssize_t)k;
	}
	do
		got = read(s->fd, buf, size);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		s->err = errno;
	return got;
}

static int source_close(void *cookie)
{
	free(cookie);
	return 0;
}

/* A stream of head[0..headlen) and then fd. */
static FILE *source_open(struct source *s)
{
	cookie_io_functions_t io = { source_read, NULL, NULL, source_close };

	return fopencookie(s, "rb", io);
}
#else
/* Without fopencookie: the bytes already read are read again from a
   descriptor that can seek back (a file, not a pipe). */
static FILE *source_open(struct source *s)
{
	int fd;
	FILE *f;

	if (s->headlen != 0 &&
	    lseek(s->fd, -(off_t)s->headlen, SEEK_CUR) == (off_t)-1)
		return NULL;
	fd = dup(s->fd);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "rb");
	if (f == NULL) {
		close(fd);
		return NULL;
	}
	free(s);
	return f;
}
#endif

static int supported(int dlt)
{
	switch (dlt) {
	case DLT_EN10MB:
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
	case DLT_NULL:
	case DLT_LOOP:
		return 1;
	}
	return 0;
}

int pcapin_open(struct pcapin **pp, int fd, const uint8_t *head,
                size_t headlen, unsigned port, char *why, size_t size)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcapin *p;
	struct source *s;
	const char *name;
	FILE *f;
	int k = kind(head, headlen);

	*pp = NULL;
	if (k == 0) {
		snprintf(why, size, "not a pcap or pcapng file");
		return PCAPIN_EBAD;
	}
	p = calloc(1, sizeof *p);
	s = calloc(1, sizeof *s + headlen);
	if (p == NULL || s == NULL) {
		free(p);
		free(s);
		snprintf(why, size, "out of memory");
		return PCAPIN_ENOMEM;
	}
	s->fd = fd;
	memcpy(s->head, head, headlen);
	s->headlen = headlen;
	f = source_open(s);
	if (f == NULL) {
		if (errno == ESPIPE)   /* no fopencookie, and a pipe */
			snprintf(why, size, "a capture cannot be read from a "
			         "pipe here: give it as a file");
		else
			snprintf(why, size, "cannot open the capture: %s",
			         strerror(errno));
		free(s);
		free(p);
		return errno == ENOMEM ? PCAPIN_ENOMEM : PCAPIN_EIO;
	}
#ifdef HAVE_FOPENCOOKIE
	p->src = s;
#endif
	err[0] = '\0';
	p->pc = pcap_fopen_offline_with_tstamp_precision(f,
	                PCAP_TSTAMP_PRECISION_NANO, err);
	if (p->pc == NULL) {
		int rerr = p->src != NULL ? p->src->err : 0;

		fclose(f);   /* frees s through source_close */
		free(p);
		if (rerr != 0) {
			snprintf(why, size, "read error: %s", strerror(rerr));
			return PCAPIN_EIO;
		}
		snprintf(why, size, "%s", err[0] != '\0' ? err
		         : "libpcap cannot read it");
		return PCAPIN_EBAD;
	}
	p->dlt = pcap_datalink(p->pc);
	name = pcap_datalink_val_to_name(p->dlt);
	if (name != NULL)
		snprintf(p->linktype, sizeof p->linktype, "%s", name);
	else
		snprintf(p->linktype, sizeof p->linktype, "%d", p->dlt);
	if (!supported(p->dlt)) {
		snprintf(why, size, "link type %s is not supported (Ethernet, "
		         "Linux cooked SLL and SLL2, raw IP, BSD loopback are)",
		         p->linktype);
		pcap_close(p->pc);
		free(p);
		return PCAPIN_EBAD;
	}
	if (k < 0) {
		p->format = "pcapng";
		p->ts_digits = 9;
	} else {
		p->format = pcap_magics[k - 1].format;
		p->ts_digits = pcap_magics[k - 1].digits;
	}
	p->port = port;
	*pp = p;
	return PCAPIN_OK;
}

void pcapin_free(struct pcapin *p)
{
	if (p == NULL)
		return;
	if (p->pc != NULL)
		pcap_close(p->pc);
	free(p);
}

const struct pcapin_stats *pcapin_stats(const struct pcapin *p)
{
	return &p->st;
}

const char *pcapin_format(const struct pcapin *p)
{
	return p->format;
}

const char *pcapin_linktype(const struct pcapin *p)
{
	return p->linktype;
}

const char *pcapin_endpoint(const struct pcapin_dgram *d, int which,
                            char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];
	const uint8_t *addr = which ? d->dst : d->src;
	unsigned port = which ? d->dport : d->sport;

	if (d->family == 4 && inet_ntop(AF_INET, addr, a, sizeof a) != NULL)
		snprintf(buf, size, "%s:%u", a, port);
	else if (d->family == 6 &&
	         inet_ntop(AF_INET6, addr, a, sizeof a) != NULL)
		snprintf(buf, size, "[%s]:%u", a, port);
	else
		snprintf(buf, size, "?");
	return buf;
}

/* ------------------------------------------------------------------ */
/* One frame */

/* How a frame ends: a datagram, skipped (why written), ignored. */
enum verdict { DGRAM, SKIP, IGNORE };

struct frame {
	const uint8_t *b;
	size_t cap;                /* captured bytes: none read past them */
	size_t wire;
	unsigned port;
	struct pcapin_dgram *d;
	char *why;
	size_t size;
};

/*@ // The frame's cap captured bytes at b, readable; the datagram and
    // the message it writes, apart from them and from f; lengths as
    // libpcap gives them (32 bits), so that no offset below wraps.
    predicate frame_ok(struct frame *f) =
      \valid(f) && \valid(f->d) && f->cap <= 0xffffffff &&
      \valid_read(f->b + (0 .. f->cap - 1)) &&
      \valid(f->why + (0 .. f->size - 1)) &&
      \separated(f, f->d, f->b + (0 .. f->cap - 1),
                 f->why + (0 .. f->size - 1)) &&
      \separated(f->d, f->why + (0 .. f->size - 1));

    // A datagram lies in the captured bytes.
    predicate frame_holds(struct frame *f) =
      \exists integer at; 0 <= at && at + f->d->len <= f->cap &&
                          f->d->data == f->b + at;
*/

/* Why the frame is skipped, in f->why: what vsnprintf writes, at most
   f->size bytes (the C library's promise: no part of the proof). */
/*@ requires frame_ok(f);
    assigns f->why[0 .. f->size - 1];
*/
static void reason(struct frame *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reason(struct frame *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->why, f->size, fmt, ap);
	va_end(ap);
}

#define ETH_IPV4  0x0800
#define ETH_IPV6  0x86dd

/*@ assigns \nothing; */
static int is_vlan(unsigned type)
{
	return type == 0x8100 || type == 0x88a8 || type == 0x9100;
}

/* Out of captured bytes at offset off, needing more to tell what the
   frame is: skipped when the capture cut the frame short, else what the
   caller says (the frame itself is short: malformed, or not ours). */
/*@ requires frame_ok(f);
    assigns f->why[0 .. f->size - 1];
    ensures \result == SKIP || \result == otherwise;
*/
static enum verdict short_frame(struct frame *f, const char *what,
                                enum verdict otherwise)
{
	if (f->cap < f->wire) {
		reason(f, "truncated: %zu of the frame's %zu "
		       "bytes captured (the capture's snapshot length), "
		       "cut in its %s", f->cap, f->wire, what);
		return SKIP;
	}
	if (otherwise == SKIP)
		reason(f, "malformed %s: the frame ends "
		       "after %zu bytes", what, f->cap);
	return otherwise;
}

/* The datagram's ports, read at u when captured: 1 when the filter
   leaves the frame out. */
/*@ requires frame_ok(f) && u <= f->cap + 0x10000;
    assigns f->d->sport, f->d->dport;
    ensures \result == 0 || \result == 1;
*/
static int other_port(struct frame *f, size_t u)
{
	if (u + 4 > f->cap)
		return 0;
	f->d->sport = be16(f->b + u);
	f->d->dport = be16(f->b + u + 2);
	return f->port != 0 && f->d->sport != f->port &&
	       f->d->dport != f->port;
}

/* The UDP header at u, in an IP payload ending at end. */
/*@ requires frame_ok(f) && u <= f->cap + 0x10000;
    assigns f->d->family, f->d->src[0 .. 15], f->d->dst[0 .. 15],
            f->d->sport, f->d->dport, f->d->data, f->d->len,
            f->why[0 .. f->size - 1];
    ensures \result == DGRAM || \result == SKIP || \result == IGNORE;
    ensures \result == DGRAM ==> frame_holds(f);
*/
static enum verdict udp(struct frame *f, size_t u, size_t end)
{
	unsigned len;

	if (other_port(f, u))
		return IGNORE;
	if (u > end || end - u < 8) {
		reason(f, "malformed UDP header: an IP payload "
		       "of %zu bytes", u > end ? (size_t)0 : end - u);
		return SKIP;
	}
	if (u + 8 > f->cap)
		return short_frame(f, "UDP header", SKIP);
	len = be16(f->b + u + 4);
	if (len < 8 || u + len > end) {
		reason(f, "malformed UDP header: length %u "
		       "in an IP payload of %zu bytes", len, end - u);
		return SKIP;
	}
	if (u + len > f->cap)
		return short_frame(f, "UDP payload", SKIP);
	f->d->data = f->b + u + 8;
	f->d->len = len - 8;
	return DGRAM;
}

/*@ requires frame_ok(f);
    assigns f->why[0 .. f->size - 1];
    ensures \result == SKIP;
*/
static enum verdict fragment(struct frame *f, int v, unsigned offset,
                             int more)
{
	reason(f, "IPv%d fragment (offset %u%s): IP "
	       "fragments are not reassembled", v, offset,
	       more ? ", more fragments" : ", the last");
	return SKIP;
}

/*@ requires frame_ok(f) && off <= 0x100;
    assigns f->d->family, f->d->src[0 .. 15], f->d->dst[0 .. 15],
            f->d->sport, f->d->dport, f->d->data, f->d->len,
            f->why[0 .. f->size - 1];
    ensures \result == DGRAM || \result == SKIP || \result == IGNORE;
    ensures \result == DGRAM ==> frame_holds(f);
*/
static enum verdict ipv4(struct frame *f, size_t off)
{
	const uint8_t *ip = f->b + off;
	unsigned ihl, total, frag;

	if (off + 20 > f->cap)
		return short_frame(f, "IPv4 header", SKIP);
	if (ip[0] >> 4 != 4) {
		reason(f, "malformed IPv4 header: version %u",
		       ip[0] >> 4);
		return SKIP;
	}
	ihl = (ip[0] & 15u) * 4;
	total = be16(ip + 2);
	if (ihl < 20 || total < ihl) {
		reason(f, "malformed IPv4 header: header "
		       "length %u, total length %u", ihl, total);
		return SKIP;
	}
	f->d->family = 4;
	memcpy(f->d->src, ip + 12, 4);
	memcpy(f->d->dst, ip + 16, 4);
	if (ip[9] != 17)
		return IGNORE;
	frag = be16(ip + 6);
	if ((frag & 0x3fff) != 0) {
		/* the first fragment shows the ports; the others do not */
		if ((frag & 0x1fff) == 0 && off + ihl <= f->cap &&
		    other_port(f, off + ihl))
			return IGNORE;
		return fragment(f, 4, (frag & 0x1fff) * 8u,
		                (frag & 0x2000) != 0);
	}
	if (off + total > f->cap && f->cap == f->wire) {
		reason(f, "malformed IPv4 header: total "
		       "length %u, but the frame holds %zu bytes from it",
		       total, f->cap - off);
		return SKIP;
	}
	return udp(f, off + ihl, off + total);
}

/*@ requires frame_ok(f) && off <= 0x100;
    assigns f->d->family, f->d->src[0 .. 15], f->d->dst[0 .. 15],
            f->d->sport, f->d->dport, f->d->data, f->d->len,
            f->why[0 .. f->size - 1];
    ensures \result == DGRAM || \result == SKIP || \result == IGNORE;
    ensures \result == DGRAM ==> frame_holds(f);
*/
static enum verdict ipv6(struct frame *f, size_t off)
{
	const uint8_t *ip = f->b + off;
	size_t cur, end;
	unsigned next, i;
	int frag = 0, more = 0;
	unsigned foff = 0;

	if (off + 40 > f->cap)
		return short_frame(f, "IPv6 header", SKIP);
	if (ip[0] >> 4 != 6) {
		reason(f, "malformed IPv6 header: version %u",
		       ip[0] >> 4);
		return SKIP;
	}
	f->d->family = 6;
	memcpy(f->d->src, ip + 8, 16);
	memcpy(f->d->dst, ip + 24, 16);
	end = off + 40 + be16(ip + 4);
	if (be16(ip + 4) == 0 && ip[6] == 0) {
		reason(f, "IPv6 payload length 0 with a "
		       "hop-by-hop header (a jumbogram): not supported");
		return SKIP;
	}
	if (end > f->cap && f->cap == f->wire) {
		reason(f, "malformed IPv6 header: payload "
		       "length %u, but the frame holds %zu bytes after it",
		       be16(ip + 4), f->cap - off - 40);
		return SKIP;
	}
	next = ip[6];
	cur = off + 40;
	/*@ loop invariant 0 <= i <= PCAPIN_MAX_EXTHDRS;
	    loop invariant cur <= f->cap + 0x1000;
	    loop assigns i, cur, next, frag, foff, more;
	    loop variant PCAPIN_MAX_EXTHDRS - i; */
	for (i = 0; ; i++) {
		size_t len;

		if (next == 17)
			break;
		if (next != 0 && next != 43 && next != 44 && next != 51 &&
		    next != 60 && next != 135 && next != 139 && next != 140)
			return IGNORE;   /* another protocol (ESP, TCP, ...) */
		if (i == PCAPIN_MAX_EXTHDRS) {
			reason(f, "more than %d IPv6 "
			       "extension headers", PCAPIN_MAX_EXTHDRS);
			return SKIP;
		}
		if (cur + 8 > end) {
			reason(f, "malformed IPv6 extension "
			       "header %u: past the payload length", next);
			return SKIP;
		}
		if (cur + 8 > f->cap)
			return short_frame(f, "IPv6 extension headers", SKIP);
		if (next == 44) {
			unsigned fo = be16(f->b + cur + 2);

			next = f->b[cur];
			cur += 8;
			if ((fo & 0xfff9) == 0)
				continue;    /* an atomic fragment: whole */
			frag = 1;
			foff = fo & 0xfff8;
			more = fo & 1;
			if (foff != 0) {
				/* no upper-layer header here: reported
				   unless it is known not to be UDP */
				if (next == 6 || next == 58 || next == 50 ||
				    next == 59)
					return IGNORE;
				return fragment(f, 6, foff, more);
			}
			continue;
		}
		if (next == 51)
			len = ((size_t)f->b[cur + 1] + 2) * 4;
		else
			len = ((size_t)f->b[cur + 1] + 1) * 8;
		next = f->b[cur];
		cur += len;
	}
	if (frag) {
		if (other_port(f, cur))
			return IGNORE;
		return fragment(f, 6, foff, more);
	}
	return udp(f, cur, end);
}

/* The link layer: the network protocol's offset and type. */
/*@ requires frame_ok(f);
    assigns f->d->family, f->d->src[0 .. 15], f->d->dst[0 .. 15],
            f->d->sport, f->d->dport, f->d->data, f->d->len,
            f->why[0 .. f->size - 1];
    ensures \result == DGRAM || \result == SKIP || \result == IGNORE;
    ensures \result == DGRAM ==> frame_holds(f);
*/
static enum verdict frame(struct frame *f, int dlt)
{
	size_t off;
	unsigned type, i;

	switch (dlt) {
	case DLT_EN10MB:
		if (f->cap < 14)
			return short_frame(f, "Ethernet header", IGNORE);
		off = 14;
		type = be16(f->b + 12);
		break;
	case DLT_LINUX_SLL:
		if (f->cap < 16)
			return short_frame(f, "Linux cooked header", IGNORE);
		off = 16;
		type = be16(f->b + 14);
		break;
	case DLT_LINUX_SLL2:
		if (f->cap < 20)
			return short_frame(f, "Linux cooked header", IGNORE);
		off = 20;
		type = be16(f->b);
		break;
	case DLT_NULL:
	case DLT_LOOP: {
		uint32_t le, be;

		if (f->cap < 4)
			return short_frame(f, "loopback header", IGNORE);
		le = le32(f->b);
		be = be32(f->b);
		/* AF_INET is 2 everywhere; AF_INET6 is 24 (NetBSD,
		   OpenBSD), 28 (FreeBSD, DragonFly), 30 (macOS), 10
		   (Linux) */
		if (le == 2 || be == 2)
			return ipv4(f, 4);
		if (le == 24 || be == 24 || le == 28 || be == 28 ||
		    le == 30 || be == 30 || le == 10 || be == 10)
			return ipv6(f, 4);
		return IGNORE;
	}
	case DLT_IPV4:
		return ipv4(f, 0);
	case DLT_IPV6:
		return ipv6(f, 0);
	default:   /* DLT_RAW: the version says */
		if (f->cap < 1)
			return short_frame(f, "IP header", IGNORE);
		if (f->b[0] >> 4 == 4)
			return ipv4(f, 0);
		if (f->b[0] >> 4 == 6)
			return ipv6(f, 0);
		return IGNORE;
	}
	/* Ethernet and cooked frames: VLAN tags, then the type */
	/*@ loop invariant 0 <= i <= PCAPIN_MAX_TAGS;
	    loop invariant off <= 20 + 4 * i;
	    loop assigns i, off, type;
	    loop variant PCAPIN_MAX_TAGS - i; */
	for (i = 0; is_vlan(type); i++) {
		if (i == PCAPIN_MAX_TAGS) {
			reason(f, "more than %d VLAN tags",
			       PCAPIN_MAX_TAGS);
			return SKIP;
		}
		if (off + 4 > f->cap)
			return short_frame(f, "VLAN tags", IGNORE);
		type = be16(f->b + off + 2);
		off += 4;
	}
	if (type == ETH_IPV4)
		return ipv4(f, off);
	if (type == ETH_IPV6)
		return ipv6(f, off);
	return IGNORE;
}

int pcapin_next(struct pcapin *p, struct pcapin_dgram *d, char *why,
                size_t size)
{
	for (;;) {
		struct pcap_pkthdr *h;
		const u_char *bytes;
		struct frame f;
		enum verdict v;
		int rc;

		memset(d, 0, sizeof *d);
		d->ts_digits = p->ts_digits;
		if (p->done) {
			snprintf(why, size, "the capture was read to its end");
			return PCAPIN_EBAD;
		}
		rc = pcap_next_ex(p->pc, &h, &bytes);
		if (rc == PCAP_ERROR_BREAK) {
			p->done = 1;
			return PCAPIN_END;
		}
		if (rc != 1) {
			d->frame = p->st.frames + 1;
			p->done = 1;
			if (p->src != NULL && p->src->err != 0) {
				snprintf(why, size, "frame %llu: read error: "
				         "%s", d->frame,
				         strerror(p->src->err));
				return PCAPIN_EIO;
			}
			snprintf(why, size, "frame %llu: %s", d->frame,
			         rc == PCAP_ERROR ? pcap_geterr(p->pc)
			         : "libpcap returned no frame");
			return PCAPIN_EBAD;
		}
		d->frame = ++p->st.frames;
		d->sec = (int64_t)h->ts.tv_sec;
		d->nsec = (uint32_t)h->ts.tv_usec;  /* nanoseconds: see open */
		d->caplen = h->caplen;
		d->wirelen = h->len;
		f.b = bytes;
		f.cap = h->caplen;
		f.wire = h->len;
		f.port = p->port;
		f.d = d;
		f.why = why;
		f.size = size;
		v = frame(&f, p->dlt);
		if (v == DGRAM) {
			p->st.datagrams++;
			return PCAPIN_OK;
		}
		if (v == SKIP) {
			p->st.skipped++;
			return PCAPIN_SKIP;
		}
		p->st.ignored++;
	}
}
