#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make-corpus.sh: build the QUIC peers and write the capture corpus.
#
#   make-corpus.sh OUTDIR [NAME...]
#
# Builds qgo (quic-go) and qquinn (quinn) into OUTDIR/bin when missing,
# (ngtcp2's gtlsclient and gtlsserver: Debian's ngtcp2-client, -server),
# then makes each named capture (default: all of them) with capture.sh,
# and checks it with check.py (tshark with the key log), appending the
# result to OUTDIR/check.txt.  Needs root, tcpdump, tshark, editcap, go
# and Debian's quic-go, cargo and Debian's quinn crates (README.md).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: make-corpus.sh OUTDIR [NAME...]}
shift
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
export PATH=$out/bin:$PATH

build_qgo() {
	[ -x "$out/bin/qgo" ] && return 0
	(cd "$here/qgo" && GO111MODULE=off GOPATH=/usr/share/gocode \
		GOCACHE=${GOCACHE:-$out/.gocache} go build -o "$out/bin/qgo" .)
}
build_qquinn() {
	[ -x "$out/bin/qquinn" ] && return 0
	# Debian's cargo, offline, on the crates of /usr/share/cargo/registry
	# (qquinn/.cargo/config.toml)
	(cd "$here/qquinn" && CARGO_TARGET_DIR=$out/.cargo-target \
		/usr/bin/cargo build --release --offline)
	cp "$out/.cargo-target/release/qquinn" "$out/bin/qquinn"
}

cap() {  # [-s] NAME LIMIT SERVER CLIENT (-s: capture.sh -s)
	local s=
	[ "$1" = -s ] && { s=-s; shift; }
	"$here/capture.sh" $s -t "$2" "$out" "$1" "$3" "$4"
	# (tshark 4.0 cannot decrypt quic-go's v2 draft: reported, not fatal)
	"$here/check.py" --time "$out/$1.pcap" "$out/$1.keylog" >"$out/$1.check" ||
		echo "$1: tshark did not decrypt every packet" >>"$out/$1.check"
	tee -a "$out/check.txt" <"$out/$1.check"
}

# the first packet after the second key-phase change of a capture's
# 1-RTT packets (in either direction), and the capture cut there
cut_after_two_updates() {  # FROM TO
	local first
	first=$(tshark -n -o "tls.keylog_file:$out/$1.keylog" -r "$out/$1.pcap" \
		-Y 'quic.short' -T fields -e frame.number -e udp.srcport -e quic.key_phase |
		awk '{ if (($2 in kp) && kp[$2] != $3 && ++n == 4) print $1 + 20; kp[$2] = $3 }')
	[ -n "$first" ] || { echo "$1: fewer than two key updates"; exit 1; }
	editcap -r "$out/$1.pcap" "$out/$2.pcap" "$first-1000000000"
	editcap -F pcapng "$out/$2.pcap" "$out/$2.pcapng"
	tshark -n -r "$out/$2.pcap" -T fields -e udp.payload >"$out/$2.dgrams"
	cp "$out/$1.keylog" "$out/$2.keylog"
	echo "$2: $1 from frame $first (after both sides' second key update)" >"$out/$2.log"
	"$here/check.py" --time "$out/$2.pcap" "$out/$2.keylog" >"$out/$2.check" ||
		echo "$2: tshark did not decrypt every packet" >>"$out/$2.check"
	tee -a "$out/check.txt" <"$out/$2.check"
}

S='qgo -mode server -addr $ADDR'
C='qgo -mode client -addr $ADDR -keylog $KEYLOG'
# quinn's server takes a certificate and key: made once with openssl
QS="qquinn -mode server -addr \$ADDR -cert $out/bin/cert.pem -key $out/bin/key.pem"
QC='qquinn -mode client -addr $ADDR'
[ -f "$out/bin/cert.pem" ] ||
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$out/bin/key.pem" -out "$out/bin/cert.pem" -days 365 \
		-subj /CN=localhost 2>/dev/null
make_one() {
	case $1 in
	# one connection of about 190,000 packets, a key update every
	# 25,000 packets either side
	qgo-big)
		build_qgo
		cap qgo-big 900 "$S -n 1" "$C -n 1 -up 1000 -down 160000000 -keyupdate 25000" ;;
	# connections of about 30 packets, a key update every 4 packets,
	# N of them at once (quic-go's server refuses a connection while 32
	# are in their handshake: 30 at a time for the long run)
	qgo-100)
		build_qgo
		cap qgo-100 300 "$S -n 100" "$C -n 100 -c 100 -down 20000 -keyupdate 4" ;;
	qgo-400)
		build_qgo
		cap qgo-400 300 "$S -n 400" "$C -n 400 -c 100 -down 20000 -keyupdate 4" ;;
	qgo-1000)
		build_qgo
		cap qgo-1000 600 "$S -n 1000" "$C -n 1000 -c 200 -down 20000 -keyupdate 4" ;;
	qgo-10000)
		build_qgo
		cap qgo-10000 1800 "$S -n 10000" "$C -n 10000 -c 30 -down 20000 -keyupdate 4" ;;
	# two key updates, then the capture starts
	qgo-late)
		build_qgo
		[ -f "$out/qgo-long.pcap" ] ||
			cap qgo-long 300 "$S -n 1" "$C -n 1 -down 20000000 -keyupdate 3000"
		cut_after_two_updates qgo-long qgo-late ;;
	# v1 with AES-128, AES-256 and ChaCha20, draft-29, at once
	qgo-mix)
		build_qgo
		cap qgo-mix 300 "$S -n 40" "for s in aes128 aes256 chacha; do
			$C -n 10 -c 5 -cipher \$s -down 50000 -keyupdate 20 & done
			$C -n 10 -c 5 -version draft29 -down 50000 -keyupdate 20 & wait" ;;
	# the same behind a Retry
	qgo-retry)
		build_qgo
		cap qgo-retry 300 "$S -n 40 -retry" "for s in aes128 aes256 chacha; do
			$C -n 10 -c 5 -cipher \$s -down 50000 -keyupdate 20 & done
			$C -n 10 -c 5 -version draft29 -down 50000 -keyupdate 20 & wait" ;;
	# quic-go's v2 draft (0x709a50c4), with and without Retry
	qgo-v2draft)
		build_qgo
		cap qgo-v2draft 300 "$S -n 20" "$C -n 10 -c 5 -version v2 -down 50000 -keyupdate 20 &
			$C -n 10 -c 5 -version v2 -cipher chacha -down 50000 -keyupdate 20 & wait" ;;
	qgo-v2draft-retry)
		build_qgo
		cap qgo-v2draft-retry 300 "$S -n 10 -retry" "$C -n 10 -c 5 -version v2 -down 50000 -keyupdate 20" ;;
	# the same, from after both sides' second key update
	qq-late)
		[ -f "$out/qq-big.pcap" ] || make_one qq-big
		cut_after_two_updates qq-big qq-late ;;
	# quinn: one connection of over 100,000 packets, a key update every
	# 40 ms (the server's)
	qq-big)
		build_qquinn
		cap qq-big 900 "$QS -n 1 -keyupdate 40" "SSLKEYLOGFILE=\$KEYLOG $QC -n 1 -down 150000000" ;;
	# 400 quinn connections, 100 at a time, each with a socket of its own;
	# no forced key updates (with them, a third of the connections were
	# lost: quinn 0.9 forces an update whatever the state of the last)
	qq-400)
		build_qquinn
		cap qq-400 600 "$QS -n 400" "SSLKEYLOGFILE=\$KEYLOG $QC -n 400 -c 100 -down 200000" ;;
	# 20 quinn connections on one client socket (tshark 4.0 keeps one TLS
	# state per UDP 5-tuple and decrypts only the last handshake's); no
	# forced key updates: with them, connections sharing a socket were
	# lost (quinn 0.9)
	qq-share)
		build_qquinn
		cap qq-share 300 "$QS -n 20" "SSLKEYLOGFILE=\$KEYLOG $QC -n 20 -c 20 -share -down 500000" ;;
	# quic-go clients (v1 with each cipher, draft-29) and a quinn server;
	# the key updates are quic-go's (quinn forcing its own at the same time
	# lost connections)
	qgo-qq)
		build_qgo; build_qquinn
		cap qgo-qq 300 "SSLKEYLOGFILE=\$KEYLOG $QS -n 40" "for s in aes128 aes256 chacha; do
			$C -n 10 -c 5 -cipher \$s -down 300000 -keyupdate 30 & done
			$C -n 10 -c 5 -version draft29 -down 300000 -keyupdate 30 & wait" ;;
	# quinn clients (v1 with each cipher, draft-29) and a quic-go server
	# sending Retry; the key updates are quic-go's
	qq-qgo-retry)
		build_qgo; build_qquinn
		cap qq-qgo-retry 300 "$S -n 40 -retry -keyupdate 50" "for s in aes128 aes256 chacha; do
			SSLKEYLOGFILE=\$KEYLOG $QC -n 10 -c 5 -cipher \$s -down 300000 & done
			SSLKEYLOGFILE=\$KEYLOG $QC -n 10 -c 5 -version draft29 -down 300000 & wait" ;;
	# ngtcp2's gtlsclient (HTTP/3; AES-128, AES-256, ChaCha20, three
	# at a time, a key update 20 ms after the handshake) and qgo's HTTP/3
	# server (a key update every 300 packets)
	ngtcp2-qgo)
		build_qgo
		cap ngtcp2-qgo 300 "$S -h3 -n 6 -keyupdate 300" "for i in 1 2; do
			for c in AES-128-GCM AES-256-GCM CHACHA20-POLY1305; do
			SSLKEYLOGFILE=\$KEYLOG gtlsclient -q --exit-on-all-streams-close --key-update=20ms \
				--ciphers=NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+\$c \$HOST \$PORT https://\$ADDR/3000000 &
			done; wait; done" ;;
	# qgo's HTTP/3 client, 10 connections, 5 at a time, and ngtcp2's
	# gtlsserver sending Retry (-V), stopped when the client is done
	qgo-ngtcp2)
		build_qgo
		mkdir -p "$out/bin/htdocs"
		head -c 3000000 /dev/zero >"$out/bin/htdocs/3000000"
		cap -s qgo-ngtcp2 300 "gtlsserver -q -V --max-gso-dgrams=1 -d $out/bin/htdocs \$HOST \$PORT \
				$out/bin/key.pem $out/bin/cert.pem" \
			"qgo -mode client -h3 -addr \$ADDR -keylog \$KEYLOG -n 10 -c 5 -down 3000000 -keyupdate 200" ;;
	*)
		echo "make-corpus.sh: unknown capture $1" >&2; exit 2 ;;
	esac
}

all="qgo-mix qgo-retry qgo-v2draft qgo-v2draft-retry qgo-100 qgo-400 qgo-late qgo-1000
	qgo-big qgo-10000 qq-big qq-late qq-400 qq-share qgo-qq qq-qgo-retry ngtcp2-qgo
	qgo-ngtcp2"
for n in ${*:-$all}; do make_one "$n"; done
