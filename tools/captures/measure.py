#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""measure.py: aesecb against tshark on the same capture, interleaved rounds.

    measure.py [--rounds N] [--keylog FILE] [--packets N] [--no-tshark]
               PCAP 'AESECB COMMAND'

The aesecb command is a shell command in which {pcap} and {keylog} stand for
the capture and its key log (default: PCAP with .keylog for its suffix), for
instance

    measure.py qgo-400.pcap \\
        './aesecb hp-mask --unprotect --keylog {keylog} {pcap} --summary'

(hp-mask's options are its own: the command is given whole).  Each round
runs the aesecb command and

    tshark -o tls.keylog_file:KEYLOG -r PCAP -T fields -e quic.packet_number

once each, in alternating order, their output to /dev/null, each under
/usr/bin/time; a command that fails stops the measurement (its exit status
and the last lines of its error output are shown: exit 1 from hp-mask means
a packet did not authenticate).  Printed: the medians over the rounds of
CPU seconds (user + system), QUIC packets per CPU second, peak resident set
size and wall seconds for both, and the ratio of CPU seconds, with the CPU
model and the load average (the machine may be shared: say so with the
figures).  The packet count is tshark's count of QUIC packets in the
capture (or --packets N).
"""
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def timed(cmd):
    """CPU s, peak RSS KiB, wall s of a shell command, output discarded."""
    with tempfile.NamedTemporaryFile(mode="r") as t:
        full = ["/usr/bin/time", "-o", t.name, "-f", "%e %U %S %M", "sh", "-c", cmd]
        p = subprocess.run(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            tail = "\n".join(p.stderr.splitlines()[-5:])
            sys.exit("measure.py: exit %d from: %s\n%s" % (p.returncode, cmd, tail))
        # the last line: time's, after any of the command's own
        wall, user, system, rss = t.read().strip().splitlines()[-1].split()
    return float(user) + float(system), int(rss), float(wall)


def count_packets(pcap, keylog):
    out = subprocess.run(["tshark", "-n", "-o", "tls.keylog_file:" + keylog, "-r", pcap,
                          "-T", "fields", "-e", "quic.header_form", "-E", "occurrence=a",
                          "-E", "aggregator=,"],
                         capture_output=True, text=True, check=True).stdout
    return sum(len(l.split(",")) for l in out.splitlines() if l)


def main():
    args = sys.argv[1:]
    rounds, keylog, packets, tshark = 5, None, None, True
    while args and args[0].startswith("--"):
        a = args.pop(0)
        if a == "--rounds":
            rounds = int(args.pop(0))
        elif a == "--keylog":
            keylog = args.pop(0)
        elif a == "--packets":
            packets = int(args.pop(0))
        elif a == "--no-tshark":
            tshark = False
        else:
            sys.exit(__doc__)
    if len(args) != 2:
        sys.exit(__doc__)
    pcap, template = args
    if keylog is None:
        keylog = re.sub(r"\.pcap(ng)?$", "", pcap) + ".keylog"
    if packets is None:
        packets = count_packets(pcap, keylog)
    ours = template.replace("{pcap}", shlex.quote(pcap)).replace("{keylog}", shlex.quote(keylog))
    theirs = "tshark -o %s -r %s -T fields -e quic.packet_number" % (
        shlex.quote("tls.keylog_file:" + keylog), shlex.quote(pcap))
    runs = {"aesecb": [], "tshark": []}
    for r in range(rounds):
        order = [("aesecb", ours), ("tshark", theirs)]
        if not tshark:
            order = order[:1]
        if r % 2:
            order.reverse()
        for name, cmd in order:
            runs[name].append(timed(cmd))
    print("capture: %s (%d QUIC packets), key log %s" % (pcap, packets, keylog))
    print("CPU: %s, %d cores; load average %s" % (cpu_model(), os.cpu_count(),
                                                   " ".join(open("/proc/loadavg").read().split()[:3])))
    print("aesecb: %s" % ours)
    print("medians of %d interleaved rounds:" % rounds)
    print("  %-7s %10s %14s %12s %9s" % ("", "CPU s", "packets/CPU s", "peak RSS MiB", "wall s"))
    med = {}
    for name in ("aesecb", "tshark"):
        if not runs[name]:
            continue
        cpu = statistics.median(x[0] for x in runs[name])
        rss = statistics.median(x[1] for x in runs[name]) / 1024
        wall = statistics.median(x[2] for x in runs[name])
        med[name] = cpu
        print("  %-7s %10.3f %14.0f %12.1f %9.3f" % (name, cpu, packets / cpu if cpu else 0, rss, wall))
    if len(med) == 2 and med["tshark"]:
        print("  aesecb CPU / tshark CPU: %.3f" % (med["aesecb"] / med["tshark"]))


if __name__ == "__main__":
    main()
