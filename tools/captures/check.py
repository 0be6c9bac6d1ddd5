#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check.py: what tshark makes of a capture and its key log.

    check.py [--time] [--port N] PCAP KEYLOG

Runs tshark with the key log once over the capture and prints one line:
frames, QUIC packets, packets whose header protection tshark removed (a
packet number shown), packets it could not decrypt, Retry and Version
Negotiation packets, connections, key-phase changes, versions and TLS
cipher suites seen.  UDP port N (default 4433) is decoded as QUIC, so
that versions tshark's heuristics do not know are shown too.  Exits 1 when a packet that has protection was not
decrypted.  With --time, also runs the measured command

    tshark -o tls.keylog_file:KEYLOG -r PCAP -T fields -e quic.packet_number

under /usr/bin/time -v and prints its CPU seconds (user + system) and
peak resident set size.
"""
import collections
import re
import subprocess
import sys

FIELDS = ["frame.number", "udp.srcport", "quic.header_form", "quic.long.packet_type",
          "quic.long.packet_type_v2", "quic.version", "quic.packet_number",
          "quic.decryption_failed", "quic.connection.number", "quic.key_phase",
          "tls.handshake.ciphersuite", "tls.handshake.type"]

SUITES = {"0x1301": "AES-128-GCM", "0x1302": "AES-256-GCM", "0x1303": "ChaCha20"}
VERSIONS = {"0x00000001": "v1", "0x6b3343cf": "v2", "0x709a50c4": "v2-draft",
            "0xff00001d": "draft-29"}


def tshark_fields(pcap, keylog, port):
    cmd = ["tshark", "-n", "-d", "udp.port==%d,quic" % port,
           "-o", "tls.keylog_file:" + keylog, "-r", pcap, "-T", "fields",
           "-E", "occurrence=a", "-E", "aggregator=;"]
    for f in FIELDS:
        cmd += ["-e", f]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in p.stdout:
        yield [c.split(";") if c else [] for c in line.rstrip("\n").split("\t")]
    if p.wait() != 0:
        sys.exit("tshark failed on %s" % pcap)


def check(pcap, keylog, port):
    frames = quic = pns = failed = retry = vn = undecrypted = 0
    conns = set()
    phase = {}
    flips = 0
    versions = collections.Counter()
    suites = collections.Counter()
    failed_by = collections.Counter()
    for row in tshark_fields(pcap, keylog, port):
        row += [[]] * (len(FIELDS) - len(row))
        d = dict(zip(FIELDS, row))
        frames += 1
        quic += len(d["quic.header_form"])
        pns += len(d["quic.packet_number"])
        failed += len(d["quic.decryption_failed"])
        # packets of this frame not decrypted: an AEAD failure (shown
        # with its packet number) or no packet number at all
        noprot = sum(1 for v in d["quic.version"] if v in ("0x00000000", "0"))
        noprot += sum(1 for v, t in zip(d["quic.version"], d["quic.long.packet_type"])
                      if t == "3" and v in ("0x00000001", "0xff00001d"))
        undecrypted += max(len(d["quic.decryption_failed"]),
                           len(d["quic.header_form"]) - len(d["quic.packet_number"]) - noprot)
        for v, f in zip(d["quic.version"], d["quic.decryption_failed"]):
            failed_by[VERSIONS.get(v, v)] += 1
        for v in d["quic.version"]:
            if v in ("0x00000000", "0"):
                vn += 1
            else:
                versions[VERSIONS.get(v, v)] += 1
        for v1, t in zip(d["quic.version"], d["quic.long.packet_type"]):
            if t == "3" and v1 in ("0x00000001", "0xff00001d"):
                retry += 1
        for v2, t in zip([v for v in d["quic.version"] if v in ("0x6b3343cf", "0x709a50c4")],
                         d["quic.long.packet_type_v2"]):
            if t == "0":
                retry += 1
        for c in d["quic.connection.number"]:
            conns.add(c)
        if "2" in d["tls.handshake.type"] and "1" not in d["tls.handshake.type"]:
            for s in d["tls.handshake.ciphersuite"]:      # a ServerHello's
                suites[SUITES.get(s, s)] += 1
        if d["quic.key_phase"] and d["quic.connection.number"]:
            key = (d["quic.connection.number"][0], d["udp.srcport"][0] if d["udp.srcport"] else "")
            for kp in d["quic.key_phase"]:
                if key in phase and phase[key] != kp:
                    flips += 1
                phase[key] = kp
    if failed_by:
        print("%s: decryption failed in long headers of versions %s"
              % (pcap, dict(failed_by)))
    print("%s: %d frames, %d QUIC packets, %d with packet numbers, %d not decrypted, "
          "%d Retry, %d VN, %d connections, %d key-phase changes, versions %s, suites %s"
          % (pcap, frames, quic, pns, undecrypted, retry, vn,
             len(conns), flips, dict(versions), dict(suites)))
    return 0 if undecrypted == 0 else 1


def timed(pcap, keylog):
    cmd = ["/usr/bin/time", "-v", "tshark", "-o", "tls.keylog_file:" + keylog, "-r", pcap,
           "-T", "fields", "-e", "quic.packet_number"]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t = dict(re.findall(r"^\s*([^:]+): (.*)$", p.stderr, re.M))
    cpu = float(t["User time (seconds)"]) + float(t["System time (seconds)"])
    rss = int(t["Maximum resident set size (kbytes)"])
    print("%s: tshark %.2f CPU s, peak RSS %.1f MiB" % (pcap, cpu, rss / 1024))


def main():
    args = sys.argv[1:]
    time_it = "--time" in args
    args = [a for a in args if a != "--time"]
    port = 4433
    if len(args) > 1 and args[0] == "--port":
        port = int(args[1])
        args = args[2:]
    if len(args) != 2:
        sys.exit(__doc__)
    rc = check(args[0], args[1], port)
    if time_it:
        timed(*args)
    return rc


if __name__ == "__main__":
    sys.exit(main())
