#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-verify-cavp.sh - "aesecb verify" on the NIST CAVP ECB set (2,738
# entries per backend) under every available backend, and Monte Carlo
# mismatches.  The files are read from CAVP_DIR (configure --with-cavp=DIR);
# without them the whole test is reported as skipped (exit 77), so the
# summary of 'make check' shows that the NIST part did not run.

. "${top_srcdir:-.}/tests/testlib.sh"

if [ -z "$CAVP_DIR" ]; then
	skip_all "CAVP_DIR not set (configure --with-cavp=DIR): NIST CAVP vectors not checked"
fi

V=$top_srcdir/vectors

# The project's own set: entries in the response files plus QUIC records.
n_rsp=$(cat "$V"/*.rsp | grep -c '^COUNT *=')
n_quic=$(grep -c '^HP_KEY *=' "$V/quic-hp.txt")
n_own=$((n_rsp + n_quic))

# Which backends run here: the available ones of the listing; the others
# are listed as skipped.
avail=$(backends available)
for b in $(backends unavailable); do
	skip "backend $b: not available here"
done
navail=$(echo $avail | wc -w | tr -d ' ')
[ "$navail" -ge 1 ] || fail "no backend available"

for b in $avail; do
	expect_status 0 "$AESECB" verify -b "$b" "$CAVP_DIR"
	expect_stdout_grep "^backend  *KAT  *MMT  *MCT  *total"
	expect_stdout_grep "^$b  *2078/2078  *60/60  *600/600  *2738/2738 "
	want="verify: 2738/2738 entries passed under 1 backend ($b)"
	if [ "$(summary_of)" = "$want" ]; then
		pass "$b: NIST CAVP, 2738 entries"
	else
		fail "$b: NIST CAVP summary '$(summary_of)'"
	fi
	expect_stderr_empty
done
expect_status 0 "$AESECB" verify -q "$CAVP_DIR" "$V"
case $(summary_of) in
"verify: $((2738 + n_own))/$((2738 + n_own)) entries passed under $navail backend"*)
	pass "NIST CAVP and the project's set under all backends" ;;
*) fail "all backends on CAVP: '$(summary_of)'" ;;
esac

# Monte Carlo: a changed result, and entries that pass but do not chain.
mct="$CAVP_DIR/ECBMCT128.rsp.gz"
[ -f "$mct" ] || mct="$CAVP_DIR/ECBMCT128.rsp"
if [ -f "$mct" ]; then
	mkdir "$T/mct"
	zcat -f "$mct" | tr -d '\r' >"$T/ECBMCT128.rsp"
	# one expected value changed: COUNT 5, outer 5, inner 999
	flip "$T/ECBMCT128.rsp" "$T/mct/ECBMCT128.rsp" ENCRYPT 5 CIPHERTEXT
	for b in $avail; do
		expect_status 1 "$AESECB" verify -b "$b" "$T/mct/ECBMCT128.rsp"
		expect_stderr_fixed "[ENCRYPT] COUNT = 5 under $b (Monte Carlo outer iteration 5, inner iteration 999): CIPHERTEXT expected"
		expect_stderr_lines 1
		expect_stdout_grep "^verify: FAILED: 199/200 entries passed"
	done
	# entries that each pass but do not chain (COUNT 0 and 2 as 0 and 1)
	awk 'BEGIN { RS = ""; ORS = "\n\n" } /^\[ENCRYPT\]/ { print; next } /^COUNT = 0\n/ && !d { print; d = 1; next } /^COUNT = 2\n/ && !e { sub(/^COUNT = 2/, "COUNT = 1"); print; e = 1; exit }' \
		"$T/ECBMCT128.rsp" >"$T/mct/chain-MCT.rsp"
	for b in $avail; do
		expect_status 1 "$AESECB" verify -b "$b" "$T/mct/chain-MCT.rsp"
		expect_stderr_fixed "COUNT = 1 under $b (Monte Carlo outer iteration 1): KEY does not follow from COUNT = 0 by the Monte Carlo key update rule"
		expect_stderr_fixed "COUNT = 1 under $b (Monte Carlo outer iteration 1): PLAINTEXT is not the result of COUNT = 0: expected "
		expect_stderr_lines 2
		expect_stdout_grep "^verify: FAILED: 1/2 entries passed"
	done
	# a truncated NIST file
	if [ -f "$CAVP_DIR/ECBMCT128.rsp.gz" ]; then
		head -c 5000 "$CAVP_DIR/ECBMCT128.rsp.gz" >"$T/ECBMCT128.rsp.gz"
		expect_status 2 "$AESECB" verify -b none "$T/ECBMCT128.rsp.gz"
		expect_stderr_grep "ECBMCT128.rsp.gz:[0-9][0-9]*: truncated gzip data"
	fi
else
	skip "no ECBMCT128 file in $CAVP_DIR: Monte Carlo negative tests not run"
fi
finish
