#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-write-errors.sh - a write that fails is reported with its own reason,
# whatever the command and however much it writes: "No space left on
# device" into /dev/full, "Broken pipe" into a pipe nobody reads
# (tests/closed-pipe), exit status 4, one line on stderr (hp-mask's JSON
# stream told it twice).  stdio forgets
# why a buffered write failed; the tool's output streams keep it.

. "${top_srcdir:-.}/tests/testlib.sh"

CLOSED=$top_builddir/tests/closed-pipe
[ -x "$CLOSED" ] || skip_all "no $CLOSED"
[ -w /dev/full ] || skip_all "no /dev/full"

K=000102030405060708090a0b0c0d0e0f
V=$top_srcdir/vectors
PROMPT=$top_srcdir/tests/acvp/array/prompt.json
head -c 1048576 /dev/zero >"$T/mb"
head -c 16 /dev/zero >"$T/block"
tr '\000' 0 <"$T/mb" >"$T/mbhex"
# a 60000-byte packet (a long header with --pn-offset), and 5000 samples
PKT=$(head -c 59995 /dev/zero | od -An -v -tx1 | tr -d ' \n')
PKT=c000000001$PKT
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%032d\n", i }' >"$T/samples"

SMALL=c000000001$(head -c 35 /dev/zero | od -An -v -tx1 | tr -d ' \n')

# a command line on each line, after the file it reads on stdin: large
# outputs and small ones, of every command
cat >"$T/lines" <<LINES
/dev/null encrypt -k $K -i $T/mb
/dev/null encrypt -x -k $K -i $T/mbhex
$T/mb decrypt -k $K
/dev/null encrypt -k $K -i $T/block
/dev/null hp-mask -k $K --pn-offset 18 --unprotect $PKT
/dev/null hp-mask -k $K --pn-offset 18 --protect $PKT
/dev/null hp-mask -k $K --pn-offset 18 --unprotect $SMALL
/dev/null hp-mask -k $K 00000000000000000000000000000000
$T/samples hp-mask -k $K
$T/samples hp-mask -k $K --block
/dev/null quic-keys $RFC9001_DCID
/dev/null quic-keys --json $RFC9001_DCID
/dev/null verify -b none $V/fips197.rsp
/dev/null verify --json -b none $V/fips197.rsp
/dev/null verify --random 2000 --seed 1 -b none
/dev/null acvp -b none $PROMPT
/dev/null backends
/dev/null backends --json
/dev/null bench --list
/dev/null encrypt --help
/dev/null verify --help
/dev/null help hp-mask
/dev/null hp-mask --initial --keylog $top_srcdir/tests/quic/aes128.keylog --unprotect - $top_srcdir/tests/quic/aes128.dgrams
/dev/null hp-mask --initial --keylog $top_srcdir/tests/quic/aes128.keylog --json --unprotect - $top_srcdir/tests/quic/aes128.dgrams
/dev/null hp-mask --initial --keylog $top_srcdir/tests/quic/aes128.keylog --summary --unprotect - $top_srcdir/tests/quic/aes128.dgrams
/dev/null hp-mask --initial --keylog $top_srcdir/tests/quic/aes128.keylog --json --summary --unprotect - $top_srcdir/tests/pcap/eth-ipv4.pcapng
/dev/null --help
/dev/null --version
LINES

# every command the tool lists is in the table, with its help too
for c in $(commands); do
	grep -q "^[^ ]* $c\( \|\$\)" "$T/lines" ||
		fail "no command line of '$c' here: add one to the table"
	echo "/dev/null help $c" >>"$T/lines"
done

while read -r input line; do
	set -- $line
	run "$AESECB" "$@" <"$input"
	[ $rc -eq 0 ] || fail "exit $rc without a write error: aesecb $*"
	run sh -c 'exec "$@" >/dev/full' sh "$AESECB" "$@" <"$input"
	if [ $rc -eq 4 ] && grep -q 'No space left on device' "$T/err"; then
		pass "/dev/full: aesecb $(echo "$*" | cut -c1-60)"
	else
		fail "/dev/full: exit $rc, '$(head -n 1 "$T/err")': aesecb $(echo "$*" | cut -c1-60)"
	fi
	expect_stderr_lines 1
	"$CLOSED" "$AESECB" "$@" <"$input" 2>"$T/err"
	rc=$?
	if [ $rc -eq 4 ] && grep -q 'Broken pipe' "$T/err"; then
		pass "closed pipe: aesecb $(echo "$*" | cut -c1-60)"
	else
		fail "closed pipe: exit $rc, '$(head -n 1 "$T/err")': aesecb $(echo "$*" | cut -c1-60)"
	fi
	expect_stderr_lines 1
done <"$T/lines"

# -o names a full device or a FIFO nobody reads any more
for cmd in "encrypt -k $K -i $T/mb" "acvp -b none $PROMPT"; do
	expect_status 4 "$AESECB" $cmd -o /dev/full
	expect_stderr_fixed "cannot write '/dev/full': No space left on device"
	expect_stderr_lines 1
done

finish
