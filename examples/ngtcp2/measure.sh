#!/bin/sh
# SPDX-License-Identifier: MIT
# measure.sh - header protection inside the stack: ns per hp_mask callback,
# aesecb (each backend) against the GnuTLS helper's own hp_mask, over
# HTTP/3 transfers between the example client and server on 127.0.0.1.
#
#   examples/ngtcp2/measure.sh [BUILDDIR [ROUNDS [MIB [CIPHER]]]]
#
# BUILDDIR: the build tree (default .), after 'make check' built the
# example; ROUNDS: transfers per backend (default 5), interleaved across
# backends; MIB: size of the file fetched (default 8); CIPHER: AES-128-GCM
# (default) or AES-256-GCM, the suite the client offers.  Both programs run
# with --time: each callback times aesecb_hp_mask() and
# ngtcp2_crypto_hp_mask() (GnuTLS's AES, as the helper's hp_mask callback
# does it) on the same sample, in alternating order, less the cost of
# reading the clock; at exit each replays the samples it saw under every
# backend.  Printed: the medians over the rounds, client and server
# together.  Speed only: no pass or fail.
set -eu

b=${1:-.}
rounds=${2:-5}
mib=${3:-8}
cipher=${4:-AES-128-GCM}
client=$b/examples/ngtcp2/client
server=$b/examples/ngtcp2/server
[ -x "$client" ] && [ -x "$server" ] || {
	echo "measure.sh: no $client or $server (run make check in $b first)" >&2
	exit 2
}
t=$(mktemp -d "${TMPDIR:-/tmp}/aesecb-measure.XXXXXX")
trap 'rm -rf "$t"' EXIT
trap 'exit 130' HUP INT TERM
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
	-keyout "$t/key.pem" -out "$t/cert.pem" -days 1 -subj /CN=localhost \
	>/dev/null 2>&1
mkdir "$t/htdocs"
head -c $((mib * 1048576)) /dev/urandom >"$t/htdocs/f"

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

backends=$("$client" --backends)
grep -m 1 '^model name' /proc/cpuinfo 2>/dev/null || true
echo "rounds $rounds, $mib MiB per transfer, $cipher, backends: $(echo $backends)"
r=0
while [ "$r" -lt "$rounds" ]; do
	for be in $backends; do
		rm -f "$t/port"
		AESECB_BACKEND=$be timeout -k 2 60 "$server" --time --port-file "$t/port" \
			-d "$t/htdocs" 127.0.0.1 0 "$t/key.pem" "$t/cert.pem" \
			</dev/null 2>"$t/srv.err" &
		pid=$!
		i=0
		while [ ! -s "$t/port" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		AESECB_BACKEND=$be timeout -k 2 60 "$client" --time --cipher "$cipher" -o /dev/null \
			127.0.0.1 "$(cat "$t/port")" /f </dev/null 2>"$t/cl.err" ||
			{ cat "$t/cl.err" >&2; exit 1; }
		wait "$pid" || { cat "$t/srv.err" >&2; exit 1; }
		for f in "$t/cl.err" "$t/srv.err"; do
			sed -n 's/.*over \([0-9]*\) callbacks: aesecb \([0-9.-]*\), gnutls-helper \([0-9.-]*\) .*/\2 \3 \1/p' "$f" \
				>>"$t/instack.$be"
			sed -n 's/^aesecb-hp: replay of [0-9]* samples, AES-[0-9]*, ns per mask (median of [0-9]*)://p' "$f" \
				>>"$t/replay"
		done
	done
	r=$((r + 1))
done

echo "in-stack, ns per hp_mask callback (median of $((rounds * 2)) connections):"
for be in $backends; do
	a=$(awk '{ print $1 }' "$t/instack.$be" | median)
	g=$(awk '{ print $2 }' "$t/instack.$be" | median)
	n=$(awk '{ print $3 }' "$t/instack.$be" | median)
	echo "  AESECB_BACKEND=$be: aesecb $a, gnutls-helper $g (same callbacks, about $n per connection)"
done
echo "replayed samples, ns per mask (median of the connections' medians):"
for name in $backends gnutls-helper; do
	v=$(tr ' ' '\n' <"$t/replay" | awk -v n="$name" 'p { print; p = 0 } $0 == n { p = 1 }' | median)
	echo "  $name $v"
done
