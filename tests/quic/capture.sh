#!/bin/sh
# SPDX-License-Identifier: MIT
#
# capture.sh - write the captured-traffic fixtures of tests/quic/ (not run
# by make check): QUIC connections between Debian's ngtcp2 example programs
# (gtlsserver, gtlsclient: packages ngtcp2-server, ngtcp2-client) on
# 127.0.0.1, captured with tshark.  For each scenario NAME it writes
#   NAME.keylog   the client's SSLKEYLOGFILE
#   NAME.dgrams   the UDP payloads, one hex datagram per line
#   NAME.expect   what tshark's own QUIC dissector, given the keylog, says of
#                 each datagram: "LINE FROM TYPE PN LENGTH KEYPHASE" per
#                 packet (FROM client or server; TYPE Initial, Handshake,
#                 0-RTT, 1-RTT, Retry; KEYPHASE - for long headers)
#
# Usage: tests/quic/capture.sh [OUTDIR [NAME...]]
#   OUTDIR defaults to the script's directory; NAMEs pick scenarios.
# Needs: gtlsserver, gtlsclient, tshark (run as a user that may capture on
# lo), openssl.  Everything runs on 127.0.0.1 and each program has a time
# limit.
set -eu

out=${1:-$(dirname "$0")}
out=$(cd "$out" && pwd)
[ $# -gt 0 ] && shift
only="$*"
work=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM HUP

cd "$work"
mkdir htdocs
# a page, and a file long enough for a key update during its transfer
printf 'hello from the QUIC test server\n' >htdocs/index.html
awk 'BEGIN { for (i = 0; i < 400; i++) printf "line %04d of the file sent over QUIC\n", i }' \
	>htdocs/file.txt

port=$((20000 + $$ % 20000))

cert() {   # cert KIND: ec or rsa (rsa: a long first flight from the server)
	if [ "$1" = rsa ]; then
		openssl req -x509 -newkey rsa:4096 -nodes -keyout key.pem \
			-out cert.pem -days 2 -subj /CN=localhost 2>/dev/null
	else
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
			-nodes -keyout key.pem -out cert.pem -days 2 \
			-subj /CN=localhost 2>/dev/null
	fi
}

suite() {  # GnuTLS priority string with one cipher
	echo "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+$1"
}

# capture NAME CIPHER CERT "SERVER OPTIONS" "CLIENT RUN" ...
# Each CLIENT RUN is the client's options and URIs for one connection.
capture() {
	name=$1 cipher=$2 kind=$3 sopts=$4
	shift 4
	port=$((port + 1))
	case " ${only:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	cert "$kind"
	rm -f cap.pcapng keys.log sess.bin tp.bin
	timeout 60 tshark -q -i lo -f "udp port $port" -w cap.pcapng \
		>tshark.log 2>&1 &
	tpid=$!
	pids="$pids $tpid"
	n=0
	until grep -q 'Capture started\|Capturing on' tshark.log; do
		n=$((n + 1)); [ $n -lt 100 ] || { echo "tshark did not start" >&2; exit 1; }
		sleep 0.1
	done
	sleep 0.5
	# shellcheck disable=SC2086
	timeout 50 gtlsserver -q --max-gso-dgrams=1 -d htdocs $sopts \
		--ciphers="$(suite "$cipher")" 127.0.0.1 "$port" key.pem cert.pem \
		>server.log 2>&1 &
	spid=$!
	pids="$pids $spid"
	sleep 0.5
	for run in "$@"; do
		# shellcheck disable=SC2086
		SSLKEYLOGFILE=$work/keys.log timeout 20 gtlsclient -q \
			--exit-on-all-streams-close --ciphers="$(suite "$cipher")" \
			$run >client.log 2>&1 || {
			echo "$name: client failed:" >&2; cat client.log >&2; exit 1; }
	done
	sleep 0.5
	kill "$spid" 2>/dev/null || true
	wait "$spid" 2>/dev/null || true
	sleep 1
	kill -INT "$tpid" 2>/dev/null || true
	wait "$tpid" 2>/dev/null || true

	{
		echo "# $name: $cipher, written by tests/quic/capture.sh"
		echo "# (gtlsclient and gtlsserver on 127.0.0.1, captured with tshark)"
		tshark -r cap.pcapng -T fields -e udp.payload 2>/dev/null
	} >"$out/$name.dgrams"
	cp keys.log "$out/$name.keylog"
	tshark -r cap.pcapng -o tls.keylog_file:keys.log -T fields \
		-E occurrence=a -E aggregator=' ' -e udp.srcport \
		-e quic.header_form -e quic.long.packet_type -e quic.packet_number \
		-e quic.packet_length -e quic.key_phase 2>/dev/null |
	awk -v port="$port" -v v2=0 '
	BEGIN { t[0] = "Initial"; t[1] = "0-RTT"; t[2] = "Handshake"; t[3] = "Retry" }
	{
		# fields are tab separated; packets within one by spaces
		split($0, f, "\t")
		from = f[1] == port ? "server" : "client"
		nf = split(f[2], form, " "); split(f[3], lt, " ")
		split(f[4], pn, " "); split(f[5], len, " "); split(f[6], kp, " ")
		li = 0; si = 0
		for (i = 1; i <= nf; i++) {
			if (form[i] == 1) { li++; type = t[lt[li]]; phase = "-" }
			else { si++; type = "1-RTT"; phase = kp[si] }
			p = pn[i] == "" ? "-" : pn[i]
			print NR + 2, from, type, p, len[i], phase
		}
	}' >"$out/$name.expect"
	echo "$name: $(grep -vc '^#' "$out/$name.dgrams") datagrams," \
		"$(wc -l <"$out/$name.expect") packets"
}

u() { echo "https://127.0.0.1:$port/$1"; }

# AES-128-GCM (SHA-256): an RSA certificate, so that the server's first
# flight takes several datagrams and the client acknowledges its Initial
# in an Initial of its own; a key update during the transfer.
capture aes128 AES-128-GCM rsa "" \
	"--key-update=10ms --delay-stream=50ms 127.0.0.1 $((port + 1)) https://127.0.0.1:$((port + 1))/file.txt"
# AES-256-GCM (SHA-384), with a key update.
capture aes256 AES-256-GCM ec "" \
	"--key-update=10ms --delay-stream=50ms 127.0.0.1 $((port + 1)) https://127.0.0.1:$((port + 1))/file.txt"
# ChaCha20-Poly1305: header protection that is not AES.
capture chacha CHACHA20-POLY1305 ec "" \
	"127.0.0.1 $((port + 1)) https://127.0.0.1:$((port + 1))/index.html"
# Address validation: the server answers the first Initial with a Retry.
capture retry AES-128-GCM ec "-V" \
	"127.0.0.1 $((port + 1)) https://127.0.0.1:$((port + 1))/index.html"
# Two connections in one capture and one keylog; the second resumes the
# first's session and sends its request in 0-RTT packets.
capture resume AES-128-GCM ec "" \
	"--session-file=sess.bin --tp-file=tp.bin 127.0.0.1 $((port + 1)) https://127.0.0.1:$((port + 1))/index.html" \
	"--session-file=sess.bin --tp-file=tp.bin 127.0.0.1 $((port + 1)) https://127.0.0.1:$((port + 1))/index.html"
