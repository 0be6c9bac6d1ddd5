#!/bin/sh
# SPDX-License-Identifier: MIT
# qemu-icount.sh - instructions executed per call, counted under qemu-user.
#
#   tools/qemu-icount.sh [-n N] 'QEMU [OPTIONS]' PROGRAM ARGS...
#
# Runs 'QEMU OPTIONS -singlestep -d exec,nochain PROGRAM ARGS... CALLS'
# with CALLS = N and 2N (N from 10 to 49, default 20: the two numbers have
# the same count of digits, which the program's parsing of them costs):
# with one instruction per translation block and no chaining, qemu logs
# one "Trace" line for each instruction it executes, so the difference of
# the two counts divided by N is what one call executes (start-up and
# set-up cancel out).  PROGRAM
# takes the number of calls as its last argument (tools/qemu-icount:
# 'make tools/qemu-icount').  For example, one AES-128 block on the
# neon32 backend on an emulated Cortex-A15:
#
#   tools/qemu-icount.sh 'qemu-arm -L /usr/arm-linux-gnueabihf -cpu cortex-a15 -E LD_LIBRARY_PATH=lib/.libs' \
#       tools/.libs/qemu-icount aesecb:neon32 enc 128 1
#
# Prints the count per call (a decimal fraction when N does not divide
# it).  Emulated timings mean nothing; instruction counts compare code.
set -eu

n=20
if [ "${1:-}" = -n ]; then
	n=$2
	shift 2
fi
[ $# -ge 2 ] && [ "$n" -ge 10 ] && [ "$n" -le 49 ] ||
	{ echo "usage: $0 [-n N (10..49)] 'QEMU [OPTIONS]' PROGRAM ARGS..." >&2; exit 2; }
qemu=$1
shift
# qemu 8.1 renamed -singlestep
one=-singlestep
${qemu%% *} -h 2>/dev/null | grep -q -- -one-insn-per-tb && one=-one-insn-per-tb

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
mkfifo "$dir/log"

count() {  # PROGRAM ARGS... CALLS: the instructions it executes
	grep -c '^Trace' <"$dir/log" >"$dir/count" &
	# shellcheck disable=SC2086
	if ! $qemu $one -d exec,nochain -D "$dir/log" "$@" >/dev/null; then
		wait
		echo "qemu-icount.sh: $qemu $* failed" >&2
		return 1
	fi
	wait
	cat "$dir/count"
}

a=$(count "$@" "$n")
b=$(count "$@" $((2 * n)))
awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN {
	d = (b - a) / n
	if (d == int(d)) printf "%d\n", d; else printf "%.2f\n", d }'
