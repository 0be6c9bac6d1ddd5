#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-verify-input.sh - how verify reads its files: each opened once; a
# pipe, a FIFO or /dev/stdin checked as it is read (never waited for a
# second time, a second writer's data never read); gzip members one after
# the other read as one file, bytes after the last member an error naming
# the file; more files than descriptors to keep open still all checked.
# Every wait has a time limit.

. "${top_srcdir:-.}/tests/testlib.sh"

command -v timeout >/dev/null 2>&1 || skip_all "no timeout command (coreutils)"
TO="timeout -s KILL"
V=$top_srcdir/vectors
GOOD=$V/fips197.rsp
MCT=$V/cavp/ECBMCT128.rsp.gz
sed 's/^\(CIPHERTEXT = \).\(.*\)$/\1f\2/' "$GOOD" >"$T/wrong.rsp"
printf 'COUNT = 0\nKEY = zz\n' >"$T/bad.rsp"

# -- a pipe, as /dev/stdin --------------------------------------------
for f in "$GOOD" "$MCT" "$V/quic-hp.txt"; do
	n=$("$AESECB" verify -q -b none "$f" | sed -n 's|^verify: \([0-9]*\)/.*|\1|p')
	cat "$f" | $TO 30 "$AESECB" verify -q -b none /dev/stdin >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q "^verify: $n/$n entries passed" "$T/out"; then
		pass "a pipe as /dev/stdin: ${f##*/}, $n entries"
	else
		fail "a pipe as /dev/stdin: ${f##*/}: exit $rc: $(cat "$T/out" "$T/err" | head -n 2)"
	fi
done
# a malformed stream: its error, with the line (what came before it is
# checked: a pipe is checked as it is read)
cat "$GOOD" "$T/bad.rsp" | $TO 30 "$AESECB" verify -q /dev/stdin >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q '^aesecb: verify: /dev/stdin:[0-9]*: ' "$T/err" &&
	pass "a malformed pipe: exit 2 with its line" ||
	fail "a malformed pipe: exit $rc: $(head -n 1 "$T/err")"
# a wrong entry in a pipe is a failure like any other
cat "$T/wrong.rsp" | $TO 30 "$AESECB" verify -q -b none /dev/stdin >"$T/out" 2>"$T/err"
[ $? -eq 1 ] && pass "a wrong entry in a pipe: exit 1" || fail "a wrong entry in a pipe"
# the same in JSON: the entries are counted
cat "$GOOD" | $TO 30 "$AESECB" verify --json -b none /dev/stdin >"$T/out" 2>"$T/err"
grep -q '"entries": 6' "$T/out" && pass "a pipe in --json: 6 entries" ||
	fail "a pipe in --json: $(grep entries "$T/out" | head -n 1)"

# an ACVP set through a pipe: a pipe is read as a CAVP or QUIC file (an
# ACVP set is known by its name), and the error says so and what to do
printf '{"vsId": 1, "algorithm": "ACVP-AES-ECB", "testGroups": []}\n' |
	$TO 30 "$AESECB" verify -q /dev/stdin >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && pass "JSON through a pipe: exit 2" ||
	fail "JSON through a pipe: exit $rc"
expect_stderr_fixed "aesecb: verify: /dev/stdin:1: this is JSON, not a CAVP or QUIC vector file: an ACVP set is read from a file whose name ends in .json, or from its directory"

# -- a FIFO ------------------------------------------------------------
# Every case has a FIFO of its own: a process of an earlier case that was
# killed while it waited in open() for its partner still counts as a
# writer (or reader) of its FIFO until it runs to its end, which on a
# loaded machine may be after the next case has begun; a reader of that
# FIFO would be paired with it, and see the end of the data at once.
# Every writer runs under timeout(1), so in a process group of its own,
# which wait_limit kills whole.
if command -v mkfifo >/dev/null 2>&1; then
	nfifo=0
	# newfifo [SUFFIX]: a new FIFO, its path in $fifo
	newfifo() {
		nfifo=$((nfifo + 1))
		fifo=$T/fifo$nfifo${1:-}
		mkfifo "$fifo"
	}
	# one writer: read once, nothing waited for afterwards
	newfifo
	$TO 20 sh -c 'cat "$1" >"$2"' sh "$GOOD" "$fifo" &
	writer=$!
	$TO 20 "$AESECB" verify -q -b none "$fifo" >"$T/out" 2>"$T/err" &
	reader=$!
	wait_limit $reader 30
	rc=$?
	wait_limit $writer 30
	if [ $rc -eq 0 ] && grep -q '^verify: 6/6 entries passed' "$T/out"; then
		pass "a FIFO is read once"
	else
		fail "a FIFO: exit $rc: $(cat "$T/out" "$T/err" | head -n 2)"
	fi
	# a second writer, once the reader has closed the FIFO: its data is
	# never read, let alone checked (aesecb does not open the FIFO again:
	# the writer waits in vain for a reader, and is killed and waited for
	# by the script, whose exit status is the second cat's).  Where /proc
	# does not show the reader's descriptors, the second writer comes a
	# second after the first one ended.
	cat >"$T/writer.sh" <<'EOF_W'
cat "$1" >"$3"
holds() {
	for f in /proc/$4/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "$3" ] && return 0
	done
	return 1
}
if [ -d "/proc/$4/fd" ]; then
	i=0
	while [ $i -lt 100 ] && holds "$@"; do
		sleep 0.1
		i=$((i + 1))
	done
else
	sleep 1
fi
cat "$2" >"$3" &
sleep 2
kill -s KILL $! 2>/dev/null
wait $! 2>/dev/null
EOF_W
	newfifo
	"$AESECB" verify -q -b none "$fifo" >"$T/out" 2>"$T/err" &
	reader=$!
	$TO 20 sh "$T/writer.sh" "$GOOD" "$T/wrong.rsp" "$fifo" $reader &
	writer=$!
	wait_limit $reader 30
	rc=$?
	wait_limit $writer 30
	wst=$?
	if [ $rc -eq 0 ] && grep -q '^verify: 6/6 entries passed' "$T/out"; then
		pass "a FIFO with a second writer: only the first one's data"
	else
		fail "a FIFO with a second writer: exit $rc: $(cat "$T/out" "$T/err" | head -n 2)"
	fi
	[ $wst -ne 0 ] && pass "the second writer found no reader" ||
		fail "the second writer's data was read"
	# fifo_case WHAT DELAY FILE FIFO ARG...: aesecb ARG... started, and
	# DELAY seconds later a writer of FILE into FIFO (made for this case
	# by newfifo); both with limits; passes WHAT when aesecb exits 0
	fifo_case() {
		what=$1 delay=$2 src=$3 fifo=$4
		shift 4
		$TO 20 "$AESECB" "$@" >"$T/out" 2>"$T/err" &
		reader=$!
		sleep "$delay"
		$TO 20 sh -c 'cat "$1" >"$2"' sh "$src" "$fifo" &
		writer=$!
		wait_limit $reader 30
		rc=$?
		wait_limit $writer 30
		[ $rc -eq 0 ] && pass "$what" ||
			fail "$what: exit $rc: $(head -n 1 "$T/err")"
	}
	PROJ=$top_srcdir/tests/acvp/projection/internalProjection.json
	# a FIFO and a file: the FIFO is not opened twice
	newfifo
	fifo_case "a FIFO among other files" 0 "$GOOD" "$fifo" \
		verify -q -b none "$fifo" "$V/sp800-38a-ecb.rsp"
	# an ACVP set from a FIFO, with another file: loaded once
	newfifo .json
	fifo_case "an ACVP set from a FIFO, with another file" 0 "$PROJ" \
		"$fifo" verify -q -b none "$fifo" "$GOOD"
	# a FIFO is waited for as cat waits: a writer that comes 2 s after
	# the command is read, by verify and acvp alike
	newfifo .json
	fifo_case "verify: a FIFO's late writer is read" 2 "$PROJ" \
		"$fifo" verify -q -b none "$fifo"
	newfifo .json
	fifo_case "acvp: a FIFO's late writer is read" 2 "$PROJ" \
		"$fifo" acvp -b none -o "$T/late.out" "$fifo"
	[ -s "$T/late.out" ] || fail "acvp: no answer from a FIFO's late writer"
	# and a FIFO nobody writes keeps it waiting (documented), until a
	# signal ends it: it is still there after 2 s, SIGTERM ends it at
	# once, and acvp leaves no output file
	for cmd in "verify -q -b none" "acvp -b none -o $T/never.out"; do
		newfifo .json
		env --default-signal=TERM "$AESECB" $cmd "$fifo" >"$T/out" 2>"$T/err" &
		reader=$!
		sleep 2
		if kill -s 0 $reader 2>/dev/null; then
			pass "${cmd%% *}: waits for a FIFO's writer"
		else
			fail "${cmd%% *}: did not wait for a FIFO's writer: $(head -n 1 "$T/err")"
		fi
		kill -s TERM $reader 2>/dev/null
		wait_limit $reader 10
		rc=$?
		[ $rc -eq 143 ] && pass "${cmd%% *}: SIGTERM ends the wait" ||
			fail "${cmd%% *}: after SIGTERM: exit $rc"
	done
	expect_no_file "$T/never.out"
else
	skip "FIFOs: no mkfifo"
fi

# -- a file changed between its validation and its check ----------------
HOOK=$top_builddir/tests/.libs/change-on-rewind.so
if [ -f "$HOOK" ]; then
	for how in inplace append; do
		cp "$GOOD" "$T/changing.rsp"
		run env LD_PRELOAD="$HOOK" CHANGE_ON_REWIND=$how "$AESECB" verify -q -b none "$T/changing.rsp"
		if cmp -s "$GOOD" "$T/changing.rsp"; then
			skip "a file changed before its check: the preloaded hook did not take"
			break
		fi
		[ $rc -eq 4 ] && pass "changed ($how) before its check: exit 4" ||
			fail "changed ($how) before its check: exit $rc"
		expect_stderr_fixed "aesecb: verify: $T/changing.rsp: the file changed after it was validated: its results are void"
	done
else
	skip "no $HOOK"
fi

# -- gzip members and trailing data ------------------------------------
n=$("$AESECB" verify -q -b none "$MCT" | sed -n 's|^verify: \([0-9]*\)/.*|\1|p')
cat "$MCT" "$MCT" >"$T/two.rsp.gz"
expect_status 0 "$AESECB" verify -q -b none "$T/two.rsp.gz"
expect_stdout_grep "^verify: $((2 * n))/$((2 * n)) entries passed"
for tail in 'x' 'garbage
' '\0\0\0\0'; do
	{ cat "$MCT"; printf "$tail"; } >"$T/tail.rsp.gz"
	expect_status 2 "$AESECB" verify -q -b none "$T/tail.rsp.gz"
	expect_stderr_grep "^aesecb: verify: $T/tail.rsp.gz:[0-9]*: trailing data after the gzip stream"
	expect_stderr_lines 1
	[ -s "$T/out" ] && fail "trailing data: a report was printed" ||
		pass "trailing data: nothing checked"
done
# in a pipe too
{ cat "$MCT"; echo x; } | $TO 30 "$AESECB" verify -q /dev/stdin >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'trailing data after the gzip stream' "$T/err" &&
	pass "trailing data in a pipe" || fail "trailing data in a pipe: $(head -n 1 "$T/err")"

# -- more files than descriptors ---------------------------------------
# 80 response files, a QUIC file and an ACVP set as the default vector
# set, under a limit of 64 open files: some keep their descriptor until
# their check, the others are read once at their check; all are checked
mkdir "$T/many"
i=0
while [ $i -lt 80 ]; do
	cp "$GOOD" "$T/many/f$i.rsp"
	i=$((i + 1))
done
cp "$V/quic-hp.txt" "$T/many/quic.txt"
cp -r "$top_srcdir/tests/acvp/projection" "$T/many/z-acvp"
n=$("$AESECB" verify -q -b none "$V/quic-hp.txt" | sed -n 's|^verify: \([0-9]*\)/.*|\1|p')
a=$("$AESECB" verify -q -b none "$T/many/z-acvp" | sed -n 's|^verify: \([0-9]*\)/.*|\1|p')
want=$((80 * 6 + n + a))
for lim in 64 20; do
	run env AESECB_VECTORS="$T/many" sh -c 'ulimit -n $0 && exec "$@"' $lim \
		"$AESECB" verify -q -b none
	if [ $rc -eq 0 ] && grep -q "^verify: $want/$want entries passed" "$T/out"; then
		pass "82 files under a limit of $lim open files"
	else
		fail "82 files, $lim open files: exit $rc: $(cat "$T/out" "$T/err" | head -n 2)"
	fi
done

finish
