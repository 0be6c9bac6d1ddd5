#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# capture.sh: run a QUIC server and client on the loopback interface of a
# network namespace of their own, capture their UDP traffic with tcpdump,
# and write it as pcap, pcapng and hex datagrams, with the key log.
#
#   capture.sh [-t SECONDS] [-p PORT] [-s] OUTDIR NAME 'SERVER COMMAND' 'CLIENT COMMAND'
#
# The commands are run by bash with ADDR (127.0.0.1:PORT), HOST, PORT and
# KEYLOG (OUTDIR/NAME.keylog, to be written by one of the two) in the
# environment.  The server starts first; the client is started once the
# server's UDP port is bound.  Every step has a time limit (-t, default
# 600 s).  -s: the server does not stop by itself (ngtcp2's gtlsserver):
# it is stopped (SIGTERM) a second after the client is done.  Writes OUTDIR/NAME.pcap (tcpdump), NAME.pcapng (editcap),
# NAME.dgrams (one hex UDP payload per line: tshark -T fields -e
# udp.payload), NAME.keylog, and NAME.log (the programs' messages and
# tcpdump's counts).  Fails if either program fails or tcpdump dropped a
# packet.  Needs root (unshare, tcpdump), ethtool, tcpdump, editcap and
# tshark.
set -euo pipefail

limit=600
port=4433
stop=
while getopts t:p:s opt; do
	case $opt in
	t) limit=$OPTARG ;;
	p) port=$OPTARG ;;
	s) stop=-s ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 4 ] || { sed -n '3,20p' "$0" >&2; exit 2; }
outdir=$1 name=$2 server=$3 client=$4
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

if [ "${CAPTURE_IN_NS:-}" != 1 ]; then
	# a network namespace of our own: its loopback carries only this
	# run's traffic, and no port can be taken by someone else
	CAPTURE_IN_NS=1 exec unshare -n -- "$0" -t "$limit" -p "$port" $stop \
		"$outdir" "$name" "$server" "$client"
fi
ip link set lo up
# UDP segmentation offload (GSO) off: a program that sends with it (quinn
# does) would otherwise be captured on the loopback as one frame holding
# several datagrams' bytes, as no network ever carries them
ethtool -K lo tx-udp-segmentation off generic-segmentation-offload off

base=$outdir/$name
log=$base.log
export HOST=127.0.0.1 PORT=$port ADDR=127.0.0.1:$port KEYLOG=$base.keylog
rm -f "$base".pcap "$base".pcapng "$base".dgrams "$KEYLOG" "$log"
: >"$KEYLOG"

pids=
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# tcpdump: a 256 MiB kernel buffer (-B, KiB), whole packets, written as
# they come (-U); it says "listening on" when it is ready
timeout "$((limit + 30))" tcpdump -i lo -n -s 0 -B 262144 -U -w "$base.pcap" \
	"udp port $port" 2>"$base.tcpdump" &
tcpdump=$!
pids="$pids $tcpdump"
for _ in $(seq 100); do
	grep -q 'listening on' "$base.tcpdump" 2>/dev/null && break
	sleep 0.1
done
grep -q 'listening on' "$base.tcpdump" || { cat "$base.tcpdump"; exit 1; }

start=$(date +%s.%N)
timeout "$limit" bash -c "$server" >>"$log" 2>&1 &
srv=$!
pids="$pids $srv"
for _ in $(seq 100); do
	ss -Huln "sport = :$port" | grep -q . && break
	sleep 0.1
done
ss -Huln "sport = :$port" | grep -q . || { echo "server did not bind port $port"; cat "$log"; exit 1; }
rc=0
timeout "$limit" bash -c "$client" >>"$log" 2>&1 || rc=$?
[ "$rc" = 0 ] || { echo "client: exit $rc"; tail -n 20 "$log"; exit 1; }
if [ -n "$stop" ]; then
	sleep 1
	kill "$srv" 2>/dev/null || true
	wait "$srv" || true
else
	rc=0
	wait "$srv" || rc=$?
	[ "$rc" = 0 ] || { echo "server: exit $rc"; tail -n 20 "$log"; exit 1; }
fi
end=$(date +%s.%N)
sleep 1
kill -INT "$tcpdump"
wait "$tcpdump" || true
pids=
cat "$base.tcpdump" >>"$log"
rm -f "$base.tcpdump"
dropped=$(sed -n 's/^\([0-9]*\) packets\{0,1\} dropped by kernel$/\1/p' "$log")
[ "$dropped" = 0 ] || { echo "tcpdump dropped ${dropped:-an unknown number of} packets"; exit 1; }
echo "traffic: $(echo "$end - $start" | bc) s" >>"$log"

editcap -F pcapng "$base.pcap" "$base.pcapng"
tshark -n -r "$base.pcap" -T fields -e udp.payload >"$base.dgrams"
echo "$name: $(grep -c . "$base.dgrams") datagrams; $(grep 'captured' "$log")"
