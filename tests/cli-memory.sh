#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-memory.sh - memory: running out of it is "out of memory", exit 4,
# wherever it happens (jansson's parser included), never a malformed
# file; an ACVP vector set never holds more than AESECB_ACVP_MEMORY MiB,
# whatever its text (a member of millions of zeros, a deep nesting):
# past that it is "too large", exit 2.  The files are generated here.

. "${top_srcdir:-.}/tests/testlib.sh"

if [ -n "${TEST_EMULATOR:-}" ]; then
	skip_all "address-space limits are not measurable under $TEST_EMULATOR"
fi
if ASAN_OPTIONS=help=1 "$AESECB" --version 2>&1 | grep -q AddressSanitizer; then
	skip_all "AddressSanitizer reserves terabytes of address space"
fi
(ulimit -v 100000) 2>/dev/null || skip_all "ulimit -v is not supported"

# A valid prompt of 8000 AFT tests (1 MB), its answers, and the pair as a
# vector set to verify.
awk 'BEGIN {
	printf "[{\"acvVersion\": \"1.0\"}, {\"vsId\": 7, \"algorithm\": \"ACVP-AES-ECB\", "
	printf "\"revision\": \"1.0\", \"testGroups\": [{\"tgId\": 1, "
	printf "\"testType\": \"AFT\", \"direction\": \"encrypt\", \"keyLen\": 128, \"tests\": ["
	for (i = 1; i <= 8000; i++)
		printf "%s{\"tcId\": %d, \"key\": \"%032d\", \"pt\": \"%064d\"}", (i > 1 ? ", " : ""), i, i, 7 * i
	print "]}]}]"
}' >"$T/prompt.json"
mkdir "$T/set"
cp "$T/prompt.json" "$T/set/prompt.json"
expect_status 0 "$AESECB" acvp -b none -o "$T/set/expectedResults.json" "$T/prompt.json"
expect_status 0 "$AESECB" verify -q -b none "$T/set"

# The least address-space limit (KiB) under which the binary starts.
start=1000
while [ $start -lt 100000 ] &&
      ! (ulimit -v $start && exec "$AESECB" --version) >/dev/null 2>&1; do
	start=$((start + 100))
done
note "aesecb starts under ulimit -v $start"

# limits N STEP CMD...: CMD under N address-space limits STEP KiB apart,
# from the least one it starts under: it succeeds, or says "out of
# memory" (exit 4, one line); never anything else.  Both must be seen.
limits() {
	n=$1 step=$2
	shift 2
	ok=0 oom=0 v=$start hi=$((start + n * step))
	while [ $v -le $hi ]; do
		(ulimit -v $v && exec "$@") >/dev/null 2>"$T/err"
		rc=$?
		if [ $rc -eq 127 ] && ! grep -q '^aesecb' "$T/err"; then
			:   # the loader itself found no room: not ours
		elif [ $rc -eq 0 ]; then
			ok=$((ok + 1))
		elif [ $rc -eq 4 ] && grep -q 'out of memory$' "$T/err" &&
		     [ "$(wc -l <"$T/err")" -eq 1 ]; then
			oom=$((oom + 1))
		else
			fail "under ulimit -v $v: exit $rc: $(head -n 1 "$T/err" | cut -c1-200): $(echo "$*" | cut -c1-200)"
		fi
		v=$((v + step))
	done
	if [ $ok -gt 0 ] && [ $oom -gt 0 ]; then
		pass "$oom limits: out of memory, $ok: done: ${*##*/}"
	else
		fail "no limit between $start and $hi KiB both ran out and did not ($oom, $ok): $*"
	fi
}

# ACVP sets (jansson, the decoding), a gzip response file (the parser,
# zlib)
limits 30 1000 "$AESECB" acvp "$T/prompt.json"
limits 30 1000 "$AESECB" verify -q "$T/set"
limits 20 100 "$AESECB" verify -q -b none "$top_srcdir/vectors/cavp/ECBMCT128.rsp.gz"

# -- the limit on a vector set -------------------------------------------
# 2 million zeros in a member nobody reads (about 70 MB of tree), then
# a valid set: refused as too large within the limit
{
	printf '{"vsId": 7, "algorithm": "ACVP-AES-ECB", "revision": "1.0", "x": ['
	yes 0, | head -n 1999999 | tr -d '\n'
	printf '0], "testGroups": []}\n'
} >"$T/zeros.json"
for cmd in acvp verify; do
	run env AESECB_ACVP_MEMORY=16 sh -c 'ulimit -v 65536 && exec "$@"' sh \
		"$AESECB" $cmd -b none "$T/zeros.json"
	[ $rc -eq 2 ] && pass "$cmd: a hostile set under a 16 MiB limit: exit 2" ||
		fail "$cmd: a hostile set under a 16 MiB limit: exit $rc: $(head -n 1 "$T/err")"
	expect_stderr_fixed "aesecb: $cmd: $T/zeros.json: too large: the vector set needs more than 16 MiB of memory (AESECB_ACVP_MEMORY sets the limit)"
	expect_stderr_lines 1
done
# and the valid one too, when the limit is below what it needs; above it,
# it is answered
expect_status 2 env AESECB_ACVP_MEMORY=4 "$AESECB" acvp -b none "$T/prompt.json"
expect_stderr_fixed "too large: the vector set needs more than 4 MiB"
expect_status 2 env AESECB_ACVP_MEMORY=4 "$AESECB" verify -b none "$T/set"
expect_stderr_fixed "too large: the vector set needs more than 4 MiB"
expect_status 0 env AESECB_ACVP_MEMORY=64 "$AESECB" acvp -b none "$T/prompt.json"
# several sets in one verify share the limit: the least that holds one
# does not hold two
mkdir "$T/set2"
cp "$T/set/"* "$T/set2/"
m=1
while [ $m -le 64 ] &&
      ! env AESECB_ACVP_MEMORY=$m "$AESECB" verify -q "$T/set" >/dev/null 2>&1; do
	m=$((m + 1))
done
note "one set needs $m MiB ($(wc -c <"$T/prompt.json") + $(wc -c <"$T/set/expectedResults.json") bytes of JSON)"
[ $m -le 64 ] && pass "one set verified under $m MiB" || fail "one set: not under 64 MiB"
expect_status 2 env AESECB_ACVP_MEMORY=$m "$AESECB" verify -q "$T/set" "$T/set2"
expect_stderr_fixed "too large"

# 100000 nested arrays: refused by the parser, quickly
{
	yes '[' | head -n 100000 | tr -d '\n'
	yes ']' | head -n 100000 | tr -d '\n'
} >"$T/deep.json"
expect_status 2 timeout -s KILL 20 "$AESECB" acvp -b none "$T/deep.json"
expect_stderr_grep 'not valid JSON'
expect_stderr_lines 1

# the limit itself, read once by acvp and verify alike
for cmd in acvp verify; do
	for bad in abc 0 -1 1.5 ' 1' 0x10; do
		expect_status 2 env AESECB_ACVP_MEMORY="$bad" "$AESECB" $cmd -b none "$T/prompt.json"
		expect_stderr_fixed "aesecb: $cmd: AESECB_ACVP_MEMORY='$bad' is not a number of MiB"
		expect_stderr_lines 1
	done
	# a number past what size_t can count in MiB is too large, not "not a
	# number" (2^44 - 1 MiB on a 64-bit system, 2^12 - 1 on a 32-bit one)
	for big in 17592186044416 99999999999999999999999 \
	           184467440737095516160000000000; do
		expect_status 2 env AESECB_ACVP_MEMORY=$big "$AESECB" $cmd -b none "$T/prompt.json"
		expect_stderr_grep "^aesecb: $cmd: AESECB_ACVP_MEMORY='$big' is too large (at most [0-9]* MiB)"
		expect_stderr_lines 1
	done
done

finish
