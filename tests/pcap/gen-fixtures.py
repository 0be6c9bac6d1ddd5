#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the capture fixtures of tests/check_pcapin.c.

    tests/pcap/gen-fixtures.py [DIR]     (default: the script's directory)

Each NAME.pcap is written here from QUIC datagrams of tests/quic/aes128.dgrams
(a loopback capture of ngtcp2's gtlsclient and gtlsserver) wrapped in
link, IP and UDP headers built below, with fixed time stamps; NAME.pcapng
is the same capture converted by editcap (-F pcapng).  NAME.expect says
what the reader must give for each frame:

    FRAME dgram SRC DST SEC.FRACTION HEX   a datagram (HEX: its payload)
    FRAME skip WORD                         skipped; WORD is in the reason
    error FRAME WORD                        libpcap stops at frame FRAME
    end FRAMES DATAGRAMS SKIPPED IGNORED    the end, and the counts

(frames not listed are ignored: not IP, not UDP).  With tshark installed,
every datagram of every file is checked against tshark's udp.payload of
that frame, and every frame listed as skipped against tshark's view.
"""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else HERE

DGRAMS = [bytes.fromhex(l.split("#")[0].strip())
          for l in open(os.path.join(HERE, "..", "quic", "aes128.dgrams"))
          if l.split("#")[0].strip()]
INITIAL = DGRAMS[0]                     # a client Initial, 1,200 bytes
SMALL = [d for d in DGRAMS if len(d) < 100]   # 1-RTT packets, 40 to 94 bytes

C4, S4 = bytes([127, 0, 0, 1]), bytes([127, 0, 0, 2])
C6 = bytes.fromhex("20010db8000000000000000000000001")
S6 = bytes.fromhex("20010db8000000000000000000000002")


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def udp(src, dst, sport, dport, payload):
    n = 8 + len(payload)
    if len(src) == 4:
        pseudo = src + dst + struct.pack("!BBH", 0, 17, n)
    else:
        pseudo = src + dst + struct.pack("!IxxxB", n, 17)
    h = struct.pack("!HHHH", sport, dport, n, 0)
    c = csum(pseudo + h + payload) or 0xffff
    return struct.pack("!HHHH", sport, dport, n, c) + payload


def ipv4(src, dst, proto, payload, options=b"", frag=0, ident=1, total=None):
    ihl = (20 + len(options)) // 4
    total = 20 + len(options) + len(payload) if total is None else total
    h = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, total, ident, frag, 64,
                    proto, 0, src, dst) + options
    return h[:10] + struct.pack("!H", csum(h)) + h[12:] + payload


def ipv6(src, dst, nh, payload, plen=None):
    plen = len(payload) if plen is None else plen
    return struct.pack("!IHBB", 6 << 28, plen, nh, 64) + src + dst + payload


def udp4(payload, sport=50000, dport=4433, src=C4, dst=S4, options=b""):
    return ipv4(src, dst, 17, udp(src, dst, sport, dport, payload), options)


def udp6(payload, sport=50000, dport=4433, src=C6, dst=S6):
    return ipv6(src, dst, 17, udp(src, dst, sport, dport, payload))


def eth(payload, etype, tags=()):
    h = bytes.fromhex("020000000002") + bytes.fromhex("020000000001")
    for tpid, vid in tags:
        h += struct.pack("!HH", tpid, vid)
    return h + struct.pack("!H", etype) + payload


def sll(payload, proto):
    return struct.pack("!HHH8sH", 0, 772, 6, bytes(8), proto) + payload


def sll2(payload, proto):
    return struct.pack("!HHIHBB8s", proto, 0, 1, 772, 0, 6, bytes(8)) + payload


def null(payload, af, order):
    return struct.pack(order + "I", af) + payload


TCP_SYN = ipv4(C4, S4, 6, struct.pack("!HHIIBBHHH", 50001, 80, 1, 0, 0x50, 2,
                                      65535, 0, 0))
ARP = bytes.fromhex("0001080006040001020000000001") + C4 + bytes(6) + S4


def addr(a, port):
    if len(a) == 4:
        return "%d.%d.%d.%d:%d" % (tuple(a) + (port,))
    import ipaddress
    return "[%s]:%d" % (ipaddress.IPv6Address(a), port)


class Capture:
    """Frames with what the reader must say of each."""

    def __init__(self, name, linktype):
        self.name, self.linktype = name, linktype
        self.frames = []        # (data, wirelen)
        self.expect = []
        self.counts = [0, 0, 0]  # datagrams, skipped, ignored

    def ts(self, i):
        return 1700000000 + i, (i * 1000003) % 1000000

    def dgram(self, frame, payload, src, sport, dst, dport, wirelen=None):
        self.frames.append((frame, wirelen))
        n = len(self.frames)
        sec, usec = self.ts(n)
        self.expect.append("%d dgram %s %s %d.%06d %s" % (
            n, addr(src, sport), addr(dst, dport), sec, usec, payload.hex()))
        self.counts[0] += 1

    def skip(self, frame, word, wirelen=None):
        self.frames.append((frame, wirelen))
        self.expect.append("%d skip %s" % (len(self.frames), word))
        self.counts[1] += 1

    def ignore(self, frame, wirelen=None):
        self.frames.append((frame, wirelen))
        self.counts[2] += 1

    def pcap(self, order="<", nsec=False, snaplen=65535):
        magic = 0xa1b23c4d if nsec else 0xa1b2c3d4
        b = struct.pack(order + "IHHiIII", magic, 2, 4, 0, 0, snaplen, self.linktype)
        for i, (data, wirelen) in enumerate(self.frames, 1):
            sec, usec = self.ts(i)
            frac = usec * 1000 + 7 * (i % 2) * nsec if nsec else usec
            b += struct.pack(order + "IIII", sec, frac, len(data),
                             len(data) if wirelen is None else wirelen) + data
        return b

    def write(self, order="<", nsec=False, pcapng=True, suffix=""):
        base = os.path.join(OUT, self.name + suffix)
        with open(base + ".pcap", "wb") as f:
            f.write(self.pcap(order, nsec))
        expect = list(self.expect)
        if nsec:
            # nanosecond time stamps: the odd frames end in 7 ns
            expect = []
            for e in self.expect:
                w = e.split(" ")
                if w[1] == "dgram":
                    i = int(w[0])
                    w[4] += "%03d" % (7 * (i % 2))
                expect.append(" ".join(w))
        n = len(self.frames)
        with open(base + ".expect", "w") as f:
            f.write("# %s.pcap: written by gen-fixtures.py\n" % (self.name + suffix))
            f.write("\n".join(expect) + "\n")
            f.write("end %d %d %d %d\n" % ((n,) + tuple(self.counts)))
        if pcapng:
            subprocess.run(["editcap", "-F", "pcapng", base + ".pcap", base + ".pcapng"],
                           check=True)
        check_with_tshark(base + ".pcap", expect)
        return base


def check_with_tshark(path, expect):
    """Wireshark's view of each listed frame must agree."""
    try:
        out = subprocess.run(["tshark", "-n", "-r", path, "-T", "fields", "-e", "frame.number",
                              "-e", "udp.payload", "-e", "ip.flags.mf", "-e", "ip.frag_offset",
                              "-e", "ipv6.fraghdr.offset", "-e", "ipv6.fraghdr.more",
                              "-e", "frame.cap_len", "-e", "frame.len",
                              "-o", "ip.defragment:FALSE", "-o", "ipv6.defragment:FALSE"],
                             capture_output=True, text=True, check=True).stdout
    except FileNotFoundError:
        return
    rows = {int(r.split("\t")[0]): r.split("\t") for r in out.splitlines()}
    for e in expect:
        w = e.split(" ")
        if w[0] in ("error", "end"):
            continue
        r = rows[int(w[0])]
        if w[1] == "dgram":
            assert r[1] == w[5], "%s frame %s: tshark's payload differs" % (path, w[0])
        elif w[2] == "fragment":
            assert r[2] == "1" or r[3] not in ("", "0") or r[4] not in ("", "0") or \
                r[5] in ("1", "True"), "%s frame %s: tshark sees no fragment" % (path, w[0])
        elif w[2] == "truncated":
            assert r[6] != r[7], "%s frame %s: tshark sees it whole" % (path, w[0])


def main():
    os.makedirs(OUT, exist_ok=True)
    a, b, c = SMALL[0], SMALL[1], SMALL[2]

    # Ethernet, IPv4: a client Initial, ARP, TCP, a datagram with IPv4
    # options, another port, the server's answer
    cap = Capture("eth-ipv4", 1)
    cap.dgram(eth(udp4(INITIAL), 0x0800), INITIAL, C4, 50000, S4, 4433)
    cap.ignore(eth(ARP, 0x0806))
    cap.ignore(eth(TCP_SYN, 0x0800))
    cap.dgram(eth(udp4(a, options=bytes([1, 1, 1, 0])), 0x0800), a, C4, 50000, S4, 4433)
    cap.dgram(eth(udp4(b"\x12\x34dns", 53000, 53), 0x0800), b"\x12\x34dns",
              C4, 53000, S4, 53)
    cap.dgram(eth(udp4(b, 4433, 50000, S4, C4), 0x0800), b, S4, 4433, C4, 50000)
    cap.write()
    cap.write(order=">", pcapng=False, suffix="-be")
    cap.write(nsec=True, pcapng=False, suffix="-nsec")

    # VLAN tags: 802.1Q, QinQ (802.1ad outer), IPv6 under one tag, a tag
    # around ARP, too many tags
    cap = Capture("vlan", 1)
    cap.dgram(eth(udp4(a), 0x0800, [(0x8100, 10)]), a, C4, 50000, S4, 4433)
    cap.dgram(eth(udp4(b), 0x0800, [(0x88a8, 100), (0x8100, 10)]), b, C4, 50000, S4, 4433)
    cap.dgram(eth(udp6(c), 0x86dd, [(0x8100, 20)]), c, C6, 50000, S6, 4433)
    cap.ignore(eth(ARP, 0x0806, [(0x8100, 10)]))
    cap.skip(eth(udp4(a), 0x0800, [(0x8100, 1)] * 9), "VLAN")
    cap.write()

    # Linux cooked captures, v1 and v2
    for name, lt, wrap in (("sll", 113, sll), ("sll2", 276, sll2)):
        cap = Capture(name, lt)
        cap.dgram(wrap(udp4(a), 0x0800), a, C4, 50000, S4, 4433)
        cap.dgram(wrap(udp6(b, 4433, 50000, S6, C6), 0x86dd), b, S6, 4433, C6, 50000)
        cap.ignore(wrap(ARP, 0x0806))
        cap.dgram(wrap(struct.pack("!HH", 5, 0x0800) + udp4(c), 0x8100), c, C4, 50000, S4, 4433)
        cap.write()

    # raw IP: LINKTYPE_RAW (either version), LINKTYPE_IPV4, LINKTYPE_IPV6
    cap = Capture("raw", 101)
    cap.dgram(udp4(a), a, C4, 50000, S4, 4433)
    cap.dgram(udp6(b), b, C6, 50000, S6, 4433)
    cap.ignore(TCP_SYN)
    cap.ignore(b"\x50" + bytes(39))
    cap.write()
    cap = Capture("ipv4", 228)
    cap.dgram(udp4(a), a, C4, 50000, S4, 4433)
    cap.skip(udp6(b), "version")
    cap.write()
    cap = Capture("ipv6", 229)
    cap.dgram(udp6(a), a, C6, 50000, S6, 4433)
    cap.write()

    # BSD loopback: DLT_NULL in the capturing host's byte order (both
    # written), DLT_LOOP in network byte order; AF_INET6 of several BSDs
    for name, lt, order in (("null-le", 0, "<"), ("null-be", 0, ">"), ("loop", 108, ">")):
        cap = Capture(name, lt)
        cap.dgram(null(udp4(a), 2, order), a, C4, 50000, S4, 4433)
        cap.dgram(null(udp6(b), 24, order), b, C6, 50000, S6, 4433)
        cap.dgram(null(udp6(c), 28, order), c, C6, 50000, S6, 4433)
        cap.dgram(null(udp6(a), 30, order), a, C6, 50000, S6, 4433)
        cap.ignore(null(udp4(a), 7, order))
        cap.write()

    # IPv6 extension headers: hop-by-hop, routing, destination options,
    # authentication header, an atomic fragment (whole), too many
    def ext(nh, body_len8):           # a generic extension header
        return bytes([nh, body_len8]) + bytes(6 + 8 * body_len8)
    cap = Capture("ipv6-ext", 1)
    payload = ext(43, 0) + bytes([60, 0, 0, 0]) + bytes(4) + ext(17, 1) + udp(C6, S6, 50000, 4433, a)
    cap.dgram(eth(ipv6(C6, S6, 0, payload), 0x86dd), a, C6, 50000, S6, 4433)
    ah = bytes([17, 4]) + bytes(22)   # AH: (4 + 2) * 4 = 24 bytes
    cap.dgram(eth(ipv6(C6, S6, 51, ah + udp(C6, S6, 50000, 4433, b)), 0x86dd), b, C6, 50000, S6, 4433)
    atomic = struct.pack("!BBHI", 17, 0, 6, 7)   # reserved bits set
    cap.dgram(eth(ipv6(C6, S6, 44, atomic + udp(C6, S6, 50000, 4433, c)), 0x86dd), c, C6, 50000, S6, 4433)
    many = b"".join(ext(60, 0) for _ in range(16)) + ext(17, 0)
    cap.skip(eth(ipv6(C6, S6, 60, many + udp(C6, S6, 50000, 4433, a)), 0x86dd), "extension")
    cap.ignore(eth(ipv6(C6, S6, 59, b""), 0x86dd))
    cap.ignore(eth(ipv6(C6, S6, 6, bytes(20)), 0x86dd))
    cap.write()

    # IP fragments: a UDP datagram in two IPv4 fragments, then in two
    # IPv6 fragments, the first fragment of another port (ignored when
    # a port is asked for), a TCP fragment (ignored), a whole datagram
    whole = udp(C4, S4, 50000, 4433, INITIAL)
    cap = Capture("frag", 1)
    cap.skip(eth(ipv4(C4, S4, 17, whole[:1000], frag=0x2000, ident=9), 0x0800), "fragment")
    cap.skip(eth(ipv4(C4, S4, 17, whole[1000:], frag=1000 // 8, ident=9), 0x0800), "fragment")
    whole6 = udp(C6, S6, 50000, 4433, INITIAL)
    cap.skip(eth(ipv6(C6, S6, 44, struct.pack("!BBHI", 17, 0, 1, 5) + whole6[:1000]), 0x86dd),
             "fragment")
    cap.skip(eth(ipv6(C6, S6, 44, struct.pack("!BBHI", 17, 0, 1000, 5) + whole6[1000:]),
                 0x86dd), "fragment")
    other = udp(C4, S4, 50000, 53, INITIAL)
    cap.skip(eth(ipv4(C4, S4, 17, other[:1000], frag=0x2000, ident=10), 0x0800), "fragment")
    cap.ignore(eth(ipv4(C4, S4, 6, bytes(1000), frag=0x2000, ident=11), 0x0800))
    cap.dgram(eth(udp4(a), 0x0800), a, C4, 50000, S4, 4433)
    cap.write()

    # truncated frames (caplen < len): a datagram cut by a 96-byte
    # snapshot, cut inside its IPv4 and UDP headers, a TCP frame cut
    # (ignored), a whole one, one whose Ethernet padding alone was cut
    cap = Capture("trunc", 1)
    f = eth(udp4(INITIAL), 0x0800)
    cap.skip(f[:96], "truncated", wirelen=len(f))
    cap.skip(f[:30], "truncated", wirelen=len(f))
    cap.skip(f[:40], "truncated", wirelen=len(f))
    f2 = eth(TCP_SYN + bytes(100), 0x0800)
    cap.ignore(f2[:60], wirelen=len(f2))
    cap.dgram(eth(udp4(a), 0x0800), a, C4, 50000, S4, 4433)
    f3 = eth(udp4(b"\x01"), 0x0800) + bytes(15)
    cap.dgram(f3[:-15], b"\x01", C4, 50000, S4, 4433, wirelen=len(f3))
    cap.write()

    # malformed headers: IPv4 header length, total length past the frame,
    # UDP length past the IP payload
    cap = Capture("malformed", 1)
    bad = bytearray(udp4(a))
    bad[0] = 0x43
    cap.skip(eth(bytes(bad), 0x0800), "header length")
    cap.skip(eth(ipv4(C4, S4, 17, udp(C4, S4, 50000, 4433, a), total=400), 0x0800),
             "total length")
    u = bytearray(udp(C4, S4, 50000, 4433, a))
    u[4:6] = struct.pack("!H", 300)
    cap.skip(eth(ipv4(C4, S4, 17, bytes(u)), 0x0800), "UDP")
    cap.skip(eth(ipv4(C4, S4, 17, udp(C4, S4, 50000, 4433, a), total=24), 0x0800),
             "IP payload of 4 bytes")
    end = ext(17, 1)                  # 16 bytes, past a payload length of 8
    cap.skip(eth(ipv6(C6, S6, 60, end + udp(C6, S6, 50000, 4433, a), plen=8), 0x86dd),
             "IP payload of 0 bytes")
    cap.dgram(eth(udp4(a), 0x0800), a, C4, 50000, S4, 4433)
    cap.write()

    # a file cut inside its third record: libpcap's error at frame 3
    cap = Capture("cut", 1)
    cap.dgram(eth(udp4(a), 0x0800), a, C4, 50000, S4, 4433)
    cap.dgram(eth(udp4(b), 0x0800), b, C4, 50000, S4, 4433)
    cap.dgram(eth(udp4(c), 0x0800), c, C4, 50000, S4, 4433)
    data = cap.pcap()
    with open(os.path.join(OUT, "cut.pcap"), "wb") as f:
        f.write(data[:-20])
    with open(os.path.join(OUT, "cut.expect"), "w") as f:
        f.write("# cut.pcap: written by gen-fixtures.py\n")
        f.write("\n".join(cap.expect[:2]) + "\nerror 3 truncated\n")

    # a link type the reader does not take (IEEE 802.11)
    cap = Capture("wifi", 105)
    cap.ignore(bytes(24))
    with open(os.path.join(OUT, "wifi.pcap"), "wb") as f:
        f.write(cap.pcap())


if __name__ == "__main__":
    main()
