/* SPDX-License-Identifier: MIT */
/*
 * fuzz_pcapin.c - libFuzzer harness: captures read with cli/quic/pcapin.c.
 *
 *   byte 0    bit 0: the rest is a whole capture file (pcap or pcapng:
 *             libpcap's parsing and the header walk); else it is pcap
 *             records after a pcap header made here (the header walk of
 *             every link type: byte 1 picks it, and the byte order and
 *             time stamp precision); bit 1: --port 4433
 *   the rest  the file, or the records
 *
 * The input is read through a pipe, as standard input is, from a thread
 * that writes it.  Checked: a datagram's payload lies inside the frame
 * libpcap handed over (the sanitizers), its length fits a UDP datagram,
 * its frame numbers count up by one from 1, a skipped frame has a
 * reason, the counts add up, a port filter holds; nothing leaks.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "quic/pcapin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t links[] = { 0, 1, 12, 101, 108, 113, 228, 229, 276,
                                  105 };

struct feed {
	int fd;
	const uint8_t *b[2];
	size_t n[2];
};

static void *writer(void *arg)
{
	struct feed *f = arg;
	int i;

	for (i = 0; i < 2; i++) {
		const uint8_t *b = f->b[i];
		size_t n = f->n[i];

		while (n > 0) {
			ssize_t w = write(f->fd, b, n);

			if (w <= 0)
				goto out;
			b += w;
			n -= (size_t)w;
		}
	}
out:
	close(f->fd);
	return NULL;
}

static void put32(uint8_t *b, uint32_t v, int be)
{
	int i;

	for (i = 0; i < 4; i++)
		b[be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t hdr[24], head[PCAPIN_SNIFF_LEN];
	struct pcapin_dgram d;
	struct pcapin *p;
	struct feed f;
	pthread_t t;
	char why[512];
	size_t n;
	unsigned long long next = 1, frames = 0;
	unsigned port;
	int fds[2], rc, whole;

	if (size < 2)
		return 0;
	signal(SIGPIPE, SIG_IGN);   /* a reader that stops early */
	whole = data[0] & 1;
	port = data[0] & 2 ? 4433 : 0;
	memset(&f, 0, sizeof f);
	if (whole) {
		f.b[0] = data + 1;
		f.n[0] = size - 1;
	} else {
		int be = data[1] >> 7, nsec = (data[1] >> 6) & 1;

		put32(hdr, nsec ? 0xa1b23c4du : 0xa1b2c3d4u, be);
		hdr[4] = be ? 0 : 2;
		hdr[5] = be ? 2 : 0;
		hdr[6] = be ? 0 : 4;
		hdr[7] = be ? 4 : 0;
		memset(hdr + 8, 0, 8);
		put32(hdr + 16, 65535, be);
		put32(hdr + 20, links[data[1] % (sizeof links / sizeof links[0])],
		      be);
		f.b[0] = hdr;
		f.n[0] = sizeof hdr;
		f.b[1] = data + 2;
		f.n[1] = size - 2;
	}
	if (pipe(fds) != 0)
		abort();
	f.fd = fds[1];
	if (pthread_create(&t, NULL, writer, &f) != 0)
		abort();
	if (pcapin_head(fds[0], head, sizeof head, &n, why, sizeof why) !=
	    PCAPIN_OK)
		abort();
	if (!pcapin_sniff(head, n)) {
		if (!whole)
			abort();   /* the header made here is a capture's */
		goto done;
	}
	if (pcapin_open(&p, fds[0], head, n, port, why, sizeof why) !=
	    PCAPIN_OK) {
		if (p != NULL || why[0] == '\0')
			abort();
		goto done;
	}
	while ((rc = pcapin_next(p, &d, why, sizeof why)) == PCAPIN_OK ||
	       rc == PCAPIN_SKIP) {
		if (d.frame < next || d.frame > next + 1000000)
			abort();
		frames = d.frame;
		next = d.frame + 1;
		if (rc == PCAPIN_OK) {
			volatile uint8_t sink = 0;
			size_t i;

			if (d.data == NULL || d.len > 65535 - 8 ||
			    d.len + 8 > d.caplen)
				abort();
			for (i = 0; i < d.len; i++)
				sink ^= d.data[i];
			(void)sink;
			if (port != 0 && d.sport != port && d.dport != port)
				abort();
		} else if (d.data != NULL || why[0] == '\0') {
			abort();
		}
	}
	{
		const struct pcapin_stats *st = pcapin_stats(p);

		if (st->datagrams + st->skipped + st->ignored != st->frames ||
		    st->frames < frames)
			abort();
		if (rc != PCAPIN_END && why[0] == '\0')
			abort();
	}
	pcapin_free(p);
done:
	close(fds[0]);   /* the writer stops at a closed pipe */
	pthread_join(t, NULL);
	return 0;
}
