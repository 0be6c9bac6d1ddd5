/* SPDX-License-Identifier: MIT */
/*
 * pcapin.h - UDP datagrams read from a capture file (pcap or pcapng),
 * through libpcap, one frame at a time in flat memory.
 *
 * A capture is recognised by its first bytes (pcapin_sniff), so that a
 * capture can be given wherever a file of hex datagrams goes, standard
 * input included: the caller reads the first bytes (pcapin_head), asks
 * pcapin_sniff, and hands the same bytes to pcapin_open, which reads
 * them before the rest of the descriptor (nothing is read twice, nothing
 * is lost, a pipe works).
 *
 * Link types: Ethernet (with any number of 802.1Q / 802.1ad VLAN tags,
 * bounded by PCAPIN_MAX_TAGS), Linux cooked capture (SLL and SLL2), raw
 * IP (LINKTYPE_RAW, LINKTYPE_IPV4, LINKTYPE_IPV6) and BSD loopback
 * (DLT_NULL, DLT_LOOP: the address family in either byte order).
 * Network layer: IPv4 (options skipped) and IPv6 (extension headers
 * walked, at most PCAPIN_MAX_EXTHDRS of them).  Transport: UDP only.
 *
 * Each frame ends in one of three ways:
 *   - a datagram (PCAPIN_OK): the UDP payload with its frame number,
 *     time stamp, addresses and ports;
 *   - skipped, with a reason (PCAPIN_SKIP): a frame that is or may be a
 *     UDP datagram of the port asked for but cannot be read whole: an IP
 *     fragment (fragments are not reassembled), a frame cut short by the
 *     capture's snapshot length (caplen < len), a malformed IP or UDP
 *     header.  Its frame number and time stamp, and its addresses and
 *     ports where they were read, come with it;
 *   - ignored, silently (only counted): frames that are not IP, IP
 *     packets that are not UDP, datagrams of other ports.
 *
 * Frames are numbered as Wireshark numbers them: every frame of the file
 * counts, from 1.  Time stamps are given in nanoseconds; ts_digits says
 * how many decimal digits of the fraction the file holds (6 for a pcap
 * file of microseconds, 9 for a pcap file of nanoseconds and for pcapng,
 * whose resolution libpcap hands over in nanoseconds).
 *
 * No printing and no exit: results come back as statuses and messages
 * (why, size), which never name the file: the caller does.
 */
#ifndef AESECB_PCAPIN_H
#define AESECB_PCAPIN_H

#include <stddef.h>
#include <stdint.h>

/* How many first bytes pcapin_sniff needs to tell a capture. */
#define PCAPIN_SNIFF_LEN 12

/* Bounds of the header walk: VLAN tags of one Ethernet frame, and IPv6
   extension headers of one packet.  A frame past them is skipped, with
   that reason. */
#define PCAPIN_MAX_TAGS    8
#define PCAPIN_MAX_EXTHDRS 16

/* Results of pcapin_open and pcapin_next. */
#define PCAPIN_OK       0   /* a datagram (pcapin_next), an open capture */
#define PCAPIN_END      1   /* pcapin_next: the end of the capture */
#define PCAPIN_SKIP     2   /* pcapin_next: a frame skipped, why says why */
#define PCAPIN_EBAD   (-1)  /* not a capture libpcap reads, an unsupported
                               link type, or a corrupt file (libpcap's
                               message, with the frame it stopped at) */
#define PCAPIN_EIO    (-2)  /* a read error (errno's text) */
#define PCAPIN_ENOMEM (-3)

struct pcapin;

/* A datagram, or a skipped frame (then the fields not read are 0). */
struct pcapin_dgram {
	const uint8_t *data;       /* the UDP payload (NULL for a skipped
	                              frame): valid until the next call */
	size_t len;                /* its bytes */
	unsigned long long frame;  /* the frame's number, from 1 */
	int64_t sec;               /* time stamp: seconds since the epoch */
	uint32_t nsec;             /*   and nanoseconds */
	unsigned ts_digits;        /* 6 or 9: the file's precision */
	int family;                /* 4 or 6 (0: not read) */
	uint8_t src[16], dst[16];  /* addresses (IPv4: the first 4 bytes) */
	unsigned sport, dport;     /* UDP ports (0: not read) */
	size_t caplen, wirelen;    /* the frame's bytes captured, on the wire */
};

/* What pcapin_next has seen so far. */
struct pcapin_stats {
	unsigned long long frames;     /* every frame read */
	unsigned long long datagrams;  /* returned as PCAPIN_OK */
	unsigned long long skipped;    /* returned as PCAPIN_SKIP */
	unsigned long long ignored;    /* not IP, not UDP, other ports */
};

/*
 * Whether head[0..n) starts like a capture file: a pcap header (magic
 * number of microsecond, nanosecond or Kuznetzov pcap in either byte
 * order, major version 2) or a pcapng Section Header Block (block type
 * and byte-order magic).  Give it the first PCAPIN_SNIFF_LEN bytes, or
 * the whole input when it is shorter (no capture is that short).
 * Returns 1 or 0.
 */
int pcapin_sniff(const uint8_t *head, size_t n);

/*
 * Read the first bytes of fd into head (up to size, which should be
 * PCAPIN_SNIFF_LEN): as many as there are, waiting for a pipe, stopping
 * early only at the end of the input.  *n is how many.  PCAPIN_OK, or
 * PCAPIN_EIO with errno's text in why.
 */
int pcapin_head(int fd, uint8_t *head, size_t size, size_t *n, char *why,
                size_t whysize);

/*
 * Open the capture whose first headlen bytes (already read from fd: at
 * least the PCAPIN_SNIFF_LEN that pcapin_sniff looked at, or as many as
 * the caller read) are head, and whose rest is still to be read from fd;
 * head is copied, and fd stays the caller's (pcapin_free does not close
 * it).  port: only datagrams with
 * this source or destination port are returned (0: every UDP datagram).
 * PCAPIN_OK with *p set, or an error with a message in why (libpcap's
 * own, or "link type ... is not supported").
 */
int pcapin_open(struct pcapin **p, int fd, const uint8_t *head,
                size_t headlen, unsigned port, char *why, size_t size);

/*
 * The next frame's outcome: PCAPIN_OK (a datagram in *d), PCAPIN_SKIP
 * (a skipped frame in *d, the reason in why), PCAPIN_END, or an error
 * (why: "frame N: ..." naming the frame libpcap could not read).  After
 * an error or the end the reader is not used again.
 */
int pcapin_next(struct pcapin *p, struct pcapin_dgram *d, char *why,
                size_t size);

/* Counts so far. */
const struct pcapin_stats *pcapin_stats(const struct pcapin *p);

/* The file's format ("pcap", "pcap (nanoseconds)", "pcapng") and link
   type (libpcap's name of it, e.g. "EN10MB"). */
const char *pcapin_format(const struct pcapin *p);
const char *pcapin_linktype(const struct pcapin *p);

/*
 * An endpoint of d as text: "192.0.2.1:4433" or "[2001:db8::1]:4433"
 * (which: 0 the source, 1 the destination; "?" when not read).
 * Returns buf.  PCAPIN_ADDRSTRLEN is enough.
 */
#define PCAPIN_ADDRSTRLEN 56
const char *pcapin_endpoint(const struct pcapin_dgram *d, int which,
                            char *buf, size_t size);

/* Close the capture (not fd) and free. */
void pcapin_free(struct pcapin *p);

#endif
