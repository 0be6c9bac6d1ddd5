/* SPDX-License-Identifier: MIT */
/*
 * check_pcapin.c - unit tests for reading captures (cli/quic/pcapin.c): the
 * fixtures of tests/pcap/ (written by gen-fixtures.py, checked there
 * against tshark), each as pcap and as pcapng, against their .expect
 * files: every link type, IPv4 and IPv6, VLAN tags, extension headers,
 * fragments, truncated and malformed frames, a cut file; then the port
 * filter, the time stamp precision, a pipe, the magic numbers, and the
 * refusals.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkutil.h"
#include "quic/pcapin.h"

static char why[512];

static int open_fixture(const char *file)
{
	char path[512];
	int fd;

	snprintf(path, sizeof path, "%s/%s", PCAP_FIXTURES, file);
	fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "cannot open %s", path);
	return fd;
}

/* A reader of fd from its first bytes, as the tool opens one. */
static struct pcapin *open_fd(int fd, unsigned port)
{
	uint8_t head[PCAPIN_SNIFF_LEN];
	struct pcapin *p;
	size_t n;

	ck_assert_int_eq(pcapin_head(fd, head, sizeof head, &n, why,
	                             sizeof why), PCAPIN_OK);
	ck_assert_int_eq(pcapin_sniff(head, n), 1);
	ck_assert_msg(pcapin_open(&p, fd, head, n, port, why, sizeof why) ==
	              PCAPIN_OK, "pcapin_open: %s", why);
	return p;
}

/* The time of d as SEC.NNNNNNNNN. */
static void timestr(const struct pcapin_dgram *d, char *buf, size_t size)
{
	snprintf(buf, size, "%lld.%09u", (long long)d->sec,
	         (unsigned)d->nsec);
}

/* Read file (opened on port 0) and compare each frame with expect. */
static void check_expect(const char *file, const char *expect)
{
	char path[512], line[8192];
	struct pcapin *p;
	struct pcapin_dgram d;
	FILE *e;
	int fd = open_fixture(file);

	snprintf(path, sizeof path, "%s/%s", PCAP_FIXTURES, expect);
	e = fopen(path, "r");
	ck_assert_msg(e != NULL, "cannot open %s", path);
	p = open_fd(fd, 0);
	while (fgets(line, sizeof line, e) != NULL) {
		char *w[8] = { 0 }, *save = NULL, *t;
		int nw = 0, rc;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		for (t = strtok_r(line, " ", &save); t != NULL && nw < 8;
		     t = strtok_r(NULL, " ", &save))
			w[nw++] = t;
		ck_assert_int_ge(nw, 2);
		rc = pcapin_next(p, &d, why, sizeof why);
		if (strcmp(w[0], "end") == 0) {
			const struct pcapin_stats *st = pcapin_stats(p);

			ck_assert_int_eq(nw, 5);
			ck_assert_msg(rc == PCAPIN_END, "%s: %d, not the end "
			              "(frame %llu: %s)", file, rc, d.frame,
			              why);
			ck_assert_uint_eq(st->frames, strtoull(w[1], NULL, 10));
			ck_assert_uint_eq(st->datagrams,
			                  strtoull(w[2], NULL, 10));
			ck_assert_uint_eq(st->skipped, strtoull(w[3], NULL, 10));
			ck_assert_uint_eq(st->ignored, strtoull(w[4], NULL, 10));
			/* and nothing after the end */
			ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why),
			                 PCAPIN_EBAD);
			continue;
		}
		if (strcmp(w[0], "error") == 0) {
			ck_assert_int_eq(nw, 3);
			ck_assert_msg(rc == PCAPIN_EBAD, "%s: %d, not an error",
			              file, rc);
			ck_assert_uint_eq(d.frame, strtoull(w[1], NULL, 10));
			ck_assert_msg(strncmp(why, "frame ", 6) == 0 &&
			              strstr(why, w[2]) != NULL,
			              "%s: error '%s' lacks '%s'", file, why, w[2]);
			continue;
		}
		ck_assert_uint_eq(d.frame, strtoull(w[0], NULL, 10));
		if (strcmp(w[1], "skip") == 0) {
			/* the reason's words, spaces back between them */
			ck_assert_int_ge(nw, 3);
			for (t = w[2]; t < w[nw - 1]; t++)
				if (*t == '\0')
					*t = ' ';
			ck_assert_msg(rc == PCAPIN_SKIP, "%s frame %s: %d, not "
			              "skipped", file, w[0], rc);
			ck_assert_ptr_null(d.data);
			ck_assert_msg(strstr(why, w[2]) != NULL, "%s frame %s: "
			              "'%s' lacks '%s'", file, w[0], why, w[2]);
			continue;
		}
		{
			char src[PCAPIN_ADDRSTRLEN], dst[PCAPIN_ADDRSTRLEN];
			char ts[40], want[40], *hex;

			ck_assert_int_eq(nw, 6);
			ck_assert_msg(rc == PCAPIN_OK, "%s frame %s: %d (%s)",
			              file, w[0], rc, why);
			ck_assert_str_eq(pcapin_endpoint(&d, 0, src, sizeof src),
			                 w[2]);
			ck_assert_str_eq(pcapin_endpoint(&d, 1, dst, sizeof dst),
			                 w[3]);
			/* the expected fraction, padded to nanoseconds */
			snprintf(want, sizeof want, "%s000000000", w[4]);
			want[strcspn(want, ".") + 10] = '\0';
			timestr(&d, ts, sizeof ts);
			ck_assert_str_eq(ts, want);
			hex = malloc(2 * d.len + 1);
			ck_assert_ptr_nonnull(hex);
			tohex(d.data, d.len, hex);
			ck_assert_str_eq(hex, w[5]);
			free(hex);
		}
	}
	fclose(e);
	pcapin_free(p);
	close(fd);
}

static const char *const fixtures[] = {
	"eth-ipv4", "vlan", "sll", "sll2", "raw", "ipv4", "ipv6",
	"null-le", "null-be", "loop", "ipv6-ext", "frag", "trunc",
	"malformed",
};
#define NFIX (int)(sizeof fixtures / sizeof fixtures[0])

START_TEST(test_pcap)
{
	char f[64], e[64];

	snprintf(f, sizeof f, "%s.pcap", fixtures[_i]);
	snprintf(e, sizeof e, "%s.expect", fixtures[_i]);
	check_expect(f, e);
}
END_TEST

START_TEST(test_pcapng)
{
	char f[64], e[64];

	snprintf(f, sizeof f, "%s.pcapng", fixtures[_i]);
	snprintf(e, sizeof e, "%s.expect", fixtures[_i]);
	check_expect(f, e);
}
END_TEST

/* Byte orders, nanoseconds, a file cut short. */
START_TEST(test_variants)
{
	check_expect("eth-ipv4-be.pcap", "eth-ipv4-be.expect");
	check_expect("eth-ipv4-nsec.pcap", "eth-ipv4-nsec.expect");
	check_expect("cut.pcap", "cut.expect");
}
END_TEST

/* Each format's precision, and its name and link type. */
START_TEST(test_precision)
{
	static const struct {
		const char *file, *format, *link;
		unsigned digits;
	} t[] = {
		{ "eth-ipv4.pcap", "pcap", "EN10MB", 6 },
		{ "eth-ipv4-be.pcap", "pcap", "EN10MB", 6 },
		{ "eth-ipv4-nsec.pcap", "pcap (nanoseconds)", "EN10MB", 9 },
		{ "eth-ipv4.pcapng", "pcapng", "EN10MB", 9 },
		{ "sll2.pcap", "pcap", "LINUX_SLL2", 6 },
		{ "loop.pcapng", "pcapng", "LOOP", 9 },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		int fd = open_fixture(t[i].file);
		struct pcapin *p = open_fd(fd, 0);
		struct pcapin_dgram d;

		ck_assert_str_eq(pcapin_format(p), t[i].format);
		ck_assert_str_eq(pcapin_linktype(p), t[i].link);
		ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why), PCAPIN_OK);
		ck_assert_uint_eq(d.ts_digits, t[i].digits);
		ck_assert_uint_eq(d.frame, 1);
		pcapin_free(p);
		close(fd);
	}
}
END_TEST

/* --port: other ports' datagrams are ignored, and so is the first
   fragment of another port (it shows its ports); later fragments and
   truncated frames whose ports are not captured are still reported. */
START_TEST(test_port)
{
	static const unsigned long long want[] = { 1, 4, 6 };
	struct pcapin_dgram d;
	struct pcapin *p;
	const struct pcapin_stats *st;
	size_t i;
	int fd = open_fixture("eth-ipv4.pcapng");

	p = open_fd(fd, 4433);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why), PCAPIN_OK);
		ck_assert_uint_eq(d.frame, want[i]);
		ck_assert(d.sport == 4433 || d.dport == 4433);
	}
	ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why), PCAPIN_END);
	st = pcapin_stats(p);
	ck_assert_uint_eq(st->frames, 6);
	ck_assert_uint_eq(st->datagrams, 3);
	ck_assert_uint_eq(st->ignored, 3);
	pcapin_free(p);
	close(fd);

	/* port 53 gives only frame 5 */
	fd = open_fixture("eth-ipv4.pcap");
	p = open_fd(fd, 53);
	ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why), PCAPIN_OK);
	ck_assert_uint_eq(d.frame, 5);
	ck_assert_uint_eq(d.len, 5);
	ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why), PCAPIN_END);
	pcapin_free(p);
	close(fd);

	fd = open_fixture("frag.pcap");
	p = open_fd(fd, 4433);
	for (i = 1; i <= 4; i++) {
		ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why),
		                 PCAPIN_SKIP);
		ck_assert_uint_eq(d.frame, i);
	}
	ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why), PCAPIN_OK);
	ck_assert_uint_eq(d.frame, 7);
	ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why), PCAPIN_END);
	ck_assert_uint_eq(pcapin_stats(p)->ignored, 2);
	pcapin_free(p);
	close(fd);

	fd = open_fixture("trunc.pcap");
	p = open_fd(fd, 443);
	/* frame 1: ports captured, another port; 2: cut before them */
	ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why), PCAPIN_SKIP);
	ck_assert_uint_eq(d.frame, 2);
	ck_assert_ptr_nonnull(strstr(why, "truncated"));
	ck_assert_int_eq(pcapin_next(p, &d, why, sizeof why), PCAPIN_END);
	pcapin_free(p);
	close(fd);
}
END_TEST

/* More first bytes than the sniff needs: the caller read a block. */
START_TEST(test_long_head)
{
	static const size_t heads[] = { 12, 13, 24, 100, 700 };
	uint8_t head[1000];
	size_t i;

	for (i = 0; i < sizeof heads / sizeof heads[0]; i++) {
		int fd = open_fixture("vlan.pcapng");
		struct pcapin_dgram d;
		struct pcapin *p;
		size_t n;
		int rc, got = 0;

		ck_assert_int_eq(pcapin_head(fd, head, heads[i], &n, why,
		                             sizeof why), PCAPIN_OK);
		ck_assert_uint_eq(n, heads[i]);
		ck_assert_int_eq(pcapin_sniff(head, n), 1);
		ck_assert_int_eq(pcapin_open(&p, fd, head, n, 0, why,
		                             sizeof why), PCAPIN_OK);
		while ((rc = pcapin_next(p, &d, why, sizeof why)) != PCAPIN_END) {
			ck_assert_int_ge(rc, 0);
			got += rc == PCAPIN_OK;
		}
		ck_assert_int_eq(got, 3);
		ck_assert_uint_eq(pcapin_stats(p)->frames, 5);
		pcapin_free(p);
		close(fd);
	}
}
END_TEST

/* A capture on standard input: through a pipe, the sniffed bytes kept. */
START_TEST(test_pipe)
{
	int src = open_fixture("sll2.pcapng"), fds[2];
	uint8_t buf[65536];
	ssize_t n = read(src, buf, sizeof buf);
	struct pcapin_dgram d;
	struct pcapin *p;
	int rc, frames = 0;

	ck_assert_int_gt(n, 0);
	ck_assert_int_lt(n, 60000);   /* fits in the pipe's buffer */
	close(src);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], buf, (size_t)n), n);
	close(fds[1]);
	p = open_fd(fds[0], 0);
	while ((rc = pcapin_next(p, &d, why, sizeof why)) == PCAPIN_OK)
		frames++;
	ck_assert_int_eq(rc, PCAPIN_END);
	ck_assert_int_eq(frames, 3);
	pcapin_free(p);
	close(fds[0]);
}
END_TEST

START_TEST(test_sniff)
{
	static const char *const yes[] = {
		"d4c3b2a1 0200 0400 00000000",   /* pcap, little-endian */
		"a1b2c3d4 0002 0004 00000000",   /* big-endian */
		"4d3cb2a1 0200 0400 00000000",   /* nanoseconds */
		"a1b23c4d 0002 0004 00000000",
		"34cdb2a1 0200 0400 00000000",   /* Kuznetzov */
		"0a0d0d0a 1c000000 4d3c2b1a",    /* pcapng, little-endian */
		"0a0d0d0a 0000001c 1a2b3c4d",    /* big-endian */
	};
	static const char *const no[] = {
		"d4c3b2a1 0100 0400 00000000",   /* version 1 */
		"d4c3b2a1 0002 0400 00000000",   /* version in the wrong order */
		"0a0d0d0a 1c000000 00000000",    /* no byte-order magic */
		"63306666 30313032 0a414243",    /* hex text: "c0ff0102\nABC" */
		"0a0d0d0a 0a0d0d0a 0a0d0d0a",    /* blank lines */
	};
	uint8_t b[PCAPIN_SNIFF_LEN];
	size_t i;

	for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		ck_assert_uint_eq(unhex(yes[i], b, sizeof b), sizeof b);
		ck_assert_msg(pcapin_sniff(b, sizeof b) == 1, "%s", yes[i]);
		/* too short to tell: not a capture (none is that short) */
		ck_assert_int_eq(pcapin_sniff(b, sizeof b - 1), 0);
	}
	for (i = 0; i < sizeof no / sizeof no[0]; i++) {
		ck_assert_uint_eq(unhex(no[i], b, sizeof b), sizeof b);
		ck_assert_msg(pcapin_sniff(b, sizeof b) == 0, "%s", no[i]);
	}
	ck_assert_int_eq(pcapin_sniff(b, 0), 0);
	ck_assert_int_eq(pcapin_sniff(NULL, 0), 0);
}
END_TEST

/* What is not read: not a capture, an unsupported link type, a pcapng
   that is only a header, a read error. */
START_TEST(test_refused)
{
	static const uint8_t text[] = "c0ff0102\nABC";
	uint8_t head[PCAPIN_SNIFF_LEN];
	struct pcapin *p = (struct pcapin *)&p;
	size_t n;
	int fd;

	ck_assert_int_eq(pcapin_open(&p, -1, text, 12, 0, why, sizeof why),
	                 PCAPIN_EBAD);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(why, "not a pcap or pcapng file");

	fd = open_fixture("wifi.pcap");
	ck_assert_int_eq(pcapin_head(fd, head, sizeof head, &n, why,
	                             sizeof why), PCAPIN_OK);
	ck_assert_uint_eq(n, sizeof head);
	ck_assert_int_eq(pcapin_open(&p, fd, head, n, 0, why, sizeof why),
	                 PCAPIN_EBAD);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(why, "link type IEEE802_11 is not supported")
	              != NULL, "%s", why);
	close(fd);

	/* the first 12 bytes of a pcap file, and nothing more */
	fd = open_fixture("eth-ipv4.pcap");
	ck_assert_int_eq(pcapin_head(fd, head, sizeof head, &n, why,
	                             sizeof why), PCAPIN_OK);
	close(fd);
	{
		int fds[2];

		ck_assert_int_eq(pipe(fds), 0);
		close(fds[1]);
		ck_assert_int_eq(pcapin_open(&p, fds[0], head, n, 0, why,
		                             sizeof why), PCAPIN_EBAD);
		ck_assert_ptr_null(p);
		ck_assert_msg(strstr(why, "truncated") != NULL, "%s", why);
		close(fds[0]);
	}

	/* a read error: a directory */
	fd = open(PCAP_FIXTURES, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pcapin_head(fd, head, sizeof head, &n, why,
	                             sizeof why), PCAPIN_EIO);
	ck_assert_msg(strstr(why, "read error") != NULL, "%s", why);
	close(fd);
}
END_TEST

START_TEST(test_endpoint)
{
	struct pcapin_dgram d;
	char buf[PCAPIN_ADDRSTRLEN];

	memset(&d, 0, sizeof d);
	ck_assert_str_eq(pcapin_endpoint(&d, 0, buf, sizeof buf), "?");
	d.family = 4;
	memcpy(d.src, "\xc0\x00\x02\x01", 4);
	d.sport = 65535;
	ck_assert_str_eq(pcapin_endpoint(&d, 0, buf, sizeof buf),
	                 "192.0.2.1:65535");
	d.family = 6;
	memset(d.dst, 0xff, 16);
	d.dport = 443;
	ck_assert_str_eq(pcapin_endpoint(&d, 1, buf, sizeof buf),
	                 "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:443");
	ck_assert_uint_le(strlen(buf) + 1, PCAPIN_ADDRSTRLEN);
}
END_TEST

static Suite *pcapin_suite(void)
{
	Suite *s = suite_create("pcapin");
	TCase *tc = tcase_create("pcapin");

	tcase_add_loop_test(tc, test_pcap, 0, NFIX);
	tcase_add_loop_test(tc, test_pcapng, 0, NFIX);
	tcase_add_test(tc, test_variants);
	tcase_add_test(tc, test_precision);
	tcase_add_test(tc, test_port);
	tcase_add_test(tc, test_long_head);
	tcase_add_test(tc, test_pipe);
	tcase_add_test(tc, test_sniff);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_endpoint);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(pcapin_suite)
