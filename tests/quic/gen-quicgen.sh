#!/bin/sh
# SPDX-License-Identifier: MIT
#
# gen-quicgen.sh - write tests/quic/quicgen.{dgrams,keylog,expect}: a stream
# of datagrams built by tests/quicgen (OpenSSL), in the format of the
# captured fixtures (see capture.sh), for the situations a short capture
# does not show: a client's second Initial carrying the server's CID (keyed
# by the client's first DCID), coalesced packets with padding, three
# connections (SHA-256, SHA-384, QUIC version 2) in one key log, 0-RTT,
# key updates (generations 1 and 2, and a late packet of generation 1),
# and packet numbers that need recovery (RFC 9000 A.3), also after a move
# to another connection ID, which the server gave in a NEW_CONNECTION_ID
# frame.  The Initials carry no ClientHello: the connections are found in
# the key log by trying its secrets.
#
# Usage: tests/quic/gen-quicgen.sh QUICGEN [OUTDIR]
#   QUICGEN: the built tests/quicgen; OUTDIR defaults to this directory.
set -eu
gen=$1
out=${2:-$(dirname "$0")}
out=$(cd "$out" && pwd)

h256() { printf '%s' "$1" | sha256sum | cut -c1-64; }
h384() { printf '%s' "$1" | sha384sum | cut -c1-96; }

# connection A: version 1, SHA-256
ra=$(h256 "client random A")
a_chs=$(h256 "A client handshake"); a_shs=$(h256 "A server handshake")
a_cts=$(h256 "A client traffic");   a_sts=$(h256 "A server traffic")
a_odcid=8394c8f03e515708 a_c=c1c2c3c4c5 a_s=5a5b5c5d5e5f6061
# connection B: version 1, SHA-384 (AES-256-GCM), with 0-RTT
rb=$(h256 "client random B")
b_early=$(h384 "B client early")
b_chs=$(h384 "B client handshake"); b_shs=$(h384 "B server handshake")
b_cts=$(h384 "B client traffic");   b_sts=$(h384 "B server traffic")
b_odcid=b0b1b2b3b4b5b6b7b8b9 b_c=bc01 b_s=b5010203040506
# connection C: version 2, SHA-256
rc=$(h256 "client random C")
c_chs=$(h256 "C client handshake"); c_shs=$(h256 "C server handshake")
c_cts=$(h256 "C client traffic");   c_sts=$(h256 "C server traffic")
c_odcid=0c0c0c0c0c0c0c0c c_c=cc00cc00 c_s=c5c5c5c5c5c5c5c5c5c5c5c5

{
	echo "# quicgen: datagrams built by tests/quicgen, written by tests/quic/gen-quicgen.sh"
	for l in CLIENT_HANDSHAKE_TRAFFIC_SECRET:a_chs SERVER_HANDSHAKE_TRAFFIC_SECRET:a_shs \
	         CLIENT_TRAFFIC_SECRET_0:a_cts SERVER_TRAFFIC_SECRET_0:a_sts; do
		eval "echo ${l%%:*} $ra \$${l#*:}"
	done
	for l in CLIENT_EARLY_TRAFFIC_SECRET:b_early \
	         CLIENT_HANDSHAKE_TRAFFIC_SECRET:b_chs SERVER_HANDSHAKE_TRAFFIC_SECRET:b_shs \
	         CLIENT_TRAFFIC_SECRET_0:b_cts SERVER_TRAFFIC_SECRET_0:b_sts; do
		eval "echo ${l%%:*} $rb \$${l#*:}"
	done
	for l in CLIENT_HANDSHAKE_TRAFFIC_SECRET:c_chs SERVER_HANDSHAKE_TRAFFIC_SECRET:c_shs \
	         CLIENT_TRAFFIC_SECRET_0:c_cts SERVER_TRAFFIC_SECRET_0:c_sts; do
		eval "echo ${l%%:*} $rc \$${l#*:}"
	done
} >"$out/quicgen.keylog"

dg=$out/quicgen.dgrams ex=$out/quicgen.expect
echo "# quicgen: datagrams built by tests/quicgen, written by tests/quic/gen-quicgen.sh" >"$dg"
echo "# (the situations are in the script's comments)" >>"$dg"
: >"$ex"
line=2 hex= exl=

# pkt FROM TYPE PN PHASE QUICGEN-ARGS...: one packet into the datagram
pkt() {
	from=$1 type=$2 pn=$3 phase=$4
	shift 4
	p=$("$gen" pn="$pn" "$@" | sed -n 's/^protected: //p')
	[ -n "$p" ] || { echo "quicgen failed: $*" >&2; exit 1; }
	hex=$hex$p
	exl="$exl$from $type $pn $((${#p} / 2)) $phase
"
}
pad() { hex=$hex$(printf "%0$(($1 * 2))d" 0); }
flush() {
	line=$((line + 1))
	echo "$hex" >>"$dg"
	printf '%s' "$exl" | sed "s/^/$line /" >>"$ex"
	hex= exl=
}

# A: the client's first Initial, 1200 bytes
pkt client Initial 0 - type=initial dcid=$a_odcid scid=$a_c payload=1162 pnlen=2; flush
# A: the server's Initial and Handshake, coalesced, then padding
pkt server Initial 0 - type=initial side=server odcid=$a_odcid dcid=$a_c scid=$a_s payload=90
pkt server Handshake 0 - type=handshake dcid=$a_c scid=$a_s secret=$a_shs payload=300
pad 60; flush
# A: the client's second Initial: DCID the server's, keys the first DCID's
pkt client Initial 1 - type=initial odcid=$a_odcid dcid=$a_s scid=$a_c payload=30 pnlen=1
pkt client Handshake 0 - type=handshake dcid=$a_s scid=$a_c secret=$a_chs payload=60
pad 1000; flush
# B: 0-RTT before the handshake (DCID the client's first)
pkt client 0-RTT 0 - type=0rtt v=1 dcid=$b_odcid scid=$b_c secret=$b_early hash=sha384 payload=200
flush
# A: 1-RTT both ways, generation 0
pkt client 1-RTT 0 0 type=1rtt dcid=$a_s secret=$a_cts ku=0 payload=80; flush
# (the server gives the client connection ID 9a9b9c9d9e9f9091, sequence 1)
pkt server 1-RTT 0 0 type=1rtt dcid=$a_c secret=$a_sts ku=0 payload=500 \
	plain=180100089a9b9c9d9e9f9091$(printf '%032d' 0)01; flush
# B: the handshake (SHA-384)
pkt server Handshake 0 - type=handshake dcid=$b_c scid=$b_s secret=$b_shs hash=sha384 payload=700 pnlen=4
pkt server 1-RTT 0 0 type=1rtt dcid=$b_c secret=$b_sts hash=sha384 ku=0 payload=100
flush
pkt client Handshake 0 - type=handshake dcid=$b_s scid=$b_c secret=$b_chs hash=sha384 payload=50
pkt client 1-RTT 1 0 type=1rtt dcid=$b_s secret=$b_cts hash=sha384 ku=0 payload=64 pnlen=2
flush
# A: the client updates its keys, then the server
pkt client 1-RTT 1 1 type=1rtt dcid=$a_s secret=$a_cts ku=1 payload=40; flush
pkt client 1-RTT 2 1 type=1rtt dcid=$a_s secret=$a_cts ku=1 payload=40; flush
pkt server 1-RTT 1 1 type=1rtt dcid=$a_c secret=$a_sts ku=1 payload=40; flush
# C: version 2, its handshake and 1-RTT (the version from its long headers)
pkt client Initial 0 - type=initial v=2 dcid=$c_odcid scid=$c_c payload=1162; flush
pkt server Initial 0 - type=initial v=2 side=server odcid=$c_odcid dcid=$c_c scid=$c_s payload=90
pkt server Handshake 0 - type=handshake v=2 dcid=$c_c scid=$c_s secret=$c_shs payload=400
flush
pkt client Handshake 0 - type=handshake v=2 dcid=$c_s scid=$c_c secret=$c_chs payload=40
pkt client 1-RTT 0 0 type=1rtt v=2 dcid=$c_s secret=$c_cts ku=0 payload=100
flush
pkt server 1-RTT 0 0 type=1rtt v=2 dcid=$c_c secret=$c_sts ku=0 payload=100; flush
# A: generation 2, then a late packet of generation 1
pkt client 1-RTT 3 0 type=1rtt dcid=$a_s secret=$a_cts ku=2 payload=40; flush
pkt client 1-RTT 2 1 type=1rtt dcid=$a_s secret=$a_cts ku=1 payload=41; flush
# A: packet numbers sent in one byte that recovery must widen
pkt client 1-RTT 200 0 type=1rtt dcid=$a_s secret=$a_cts ku=2 payload=40 pnlen=1; flush
pkt client 1-RTT 300 0 type=1rtt dcid=$a_s secret=$a_cts ku=2 payload=40 pnlen=1; flush
pkt client 1-RTT 1000 0 type=1rtt dcid=$a_s secret=$a_cts ku=2 payload=40 pnlen=2; flush
# A: the client moves to another of the server's connection IDs; the
# packet numbers go on, in one byte
pkt client 1-RTT 1001 0 type=1rtt dcid=9a9b9c9d9e9f9091 secret=$a_cts ku=2 payload=40 pnlen=1; flush
echo "quicgen: $((line - 2)) datagrams, $(wc -l <"$ex") packets"
