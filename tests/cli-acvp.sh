#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-acvp.sh - NIST ACVP vector sets from the outside: "aesecb acvp"
# answers a prompt (bare and array forms, -o written atomically, malformed
# prompts: exit 2), and "aesecb verify" checks ACVP sets (directories and
# files; AFT and MCT; failures naming tgId and tcId; malformed: exit 2).
# The shared NIST sample is read from $ACVP_DIR, else
# $CAVP_DIR/../acvp/ACVP-AES-ECB-1.0, where it is; never copied here.

. "${top_srcdir:-.}/tests/testlib.sh"

A=$top_srcdir/tests/acvp
# every backend the listing shows available must verify the fixture; the
# others are skipped (and refused with exit 3)
avail=$(backends available)
for b in $(backends unavailable); do
	skip "backend $b: not available here"
	expect_status 3 "$AESECB" verify -q -b "$b" "$A/array"
done
for b in $avail; do
	expect_status 0 "$AESECB" verify -q -b "$b" "$A/array"
done

S=${ACVP_DIR:-}
if [ -z "$S" ] && [ -n "$CAVP_DIR" ]; then
	S=$CAVP_DIR/../acvp/ACVP-AES-ECB-1.0
fi
[ -f "$S/prompt.json" ] || S=

have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1

# json_same A B: the two files hold the same JSON value
json_same() {
	python3 -c 'import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
sys.exit(0 if a == b else 1)' "$1" "$2"
}

# ------------------------------------------------------------------
# aesecb acvp: the fixtures (array form) and the shared sample (bare)
if [ "$have_python" -eq 1 ]; then
	for b in $avail; do
		expect_status 0 "$AESECB" acvp -b "$b" "$A/array/prompt.json"
		cp "$T/out" "$T/answer.json"
		if json_same "$T/answer.json" "$A/array/expectedResults.json"; then
			pass "$b: array-form prompt answered as expected"
		else
			fail "$b: array-form answer differs from expectedResults.json"
		fi
	done
	if [ -n "$S" ]; then
		for b in $avail; do
			expect_status 0 "$AESECB" acvp -b "$b" -o "$T/sample.json" "$S/prompt.json"
			if json_same "$T/sample.json" "$S/expectedResults.json"; then
				pass "$b: the NIST sample answered as expected"
			else
				fail "$b: answer to the NIST sample differs from expectedResults.json"
			fi
		done
		# upper-case hex only
		if grep -q '"\(ct\|pt\|key\)": "[0-9A-F]*[a-f]' "$T/sample.json"; then
			fail "lower-case hex in the answer"
		else
			pass "answer hex is upper case"
		fi
		# the array form of the sample gives the array form back
		python3 -c 'import json, sys
p = json.load(open(sys.argv[1])); e = json.load(open(sys.argv[2]))
json.dump([{"acvVersion": "1.0"}, p], open(sys.argv[3], "w"), indent=2)
json.dump([{"acvVersion": "1.0"}, e], open(sys.argv[4], "w"), indent=2)' \
			"$S/prompt.json" "$S/expectedResults.json" \
			"$T/aprompt.json" "$T/aexpect.json"
		expect_status 0 "$AESECB" acvp "$T/aprompt.json"
		cp "$T/out" "$T/aanswer.json"
		if json_same "$T/aanswer.json" "$T/aexpect.json"; then
			pass "the sample in array form answered in array form"
		else
			fail "array-form answer to the sample differs"
		fi
	else
		skip "no ACVP sample (ACVP_DIR, or CAVP_DIR/../acvp/ACVP-AES-ECB-1.0): sample not answered"
	fi
else
	skip "python3 not found: ACVP answers not compared"
fi

# -o: replaced only on success; nothing left behind on failure
printf 'old\n' >"$T/keep.json"
expect_status 2 "$AESECB" acvp -o "$T/keep.json" "$A/bad/bad-hex.json"
if [ "$(cat "$T/keep.json")" = old ]; then
	pass "-o: an existing file is left as it was when the prompt is bad"
else
	fail "-o: the file was changed by a failed answer"
fi
mkdir "$T/odir"
expect_status 2 "$AESECB" acvp -o "$T/odir/new.json" "$A/bad/odd-hex.json"
expect_no_file "$T/odir/new.json"
if [ -z "$(ls -A "$T/odir")" ]; then
	pass "-o: no temporary file left after a failure"
else
	fail "-o: files left behind: $(ls -A "$T/odir")"
fi
expect_status 0 "$AESECB" acvp -o "$T/odir/new.json" "$A/array/prompt.json"
expect_stdout_eq ""
if [ "$(ls -A "$T/odir")" = new.json ]; then
	pass "-o: only the output file is there after success"
else
	fail "-o: directory holds: $(ls -A "$T/odir")"
fi
if [ -w /dev/full ]; then
	expect_status 4 sh -c '"$AESECB" acvp "$1" >/dev/full' sh "$A/array/prompt.json"
	expect_stderr_fixed "aesecb: acvp: cannot write stdout: "
fi

# malformed prompts: exit 2, naming the file and the JSON path
expect_status 2 "$AESECB" acvp "$A/bad/bad-hex.json"
expect_stderr_fixed "aesecb: acvp: $A/bad/bad-hex.json: testGroups[0].tests[1].pt: not hex"
expect_stderr_lines 1
expect_stdout_eq ""
expect_status 2 "$AESECB" acvp "$A/bad/syntax.json"
expect_stderr_grep "^aesecb: acvp: $A/bad/syntax.json: line [0-9]*, column [0-9]*: "
expect_status 2 "$AESECB" acvp "$A/bad/algorithm.json"
expect_stderr_fixed "algorithm"
expect_status 4 "$AESECB" acvp "$T/nosuch.json"
expect_status 2 "$AESECB" acvp
expect_stderr_fixed "no prompt given"
expect_status 2 "$AESECB" acvp "$A/array/prompt.json" "$A/array/prompt.json"
expect_status 3 "$AESECB" acvp -b nosuch "$A/array/prompt.json"
expect_status 0 "$AESECB" acvp --help
expect_stdout_grep '^Usage: aesecb acvp '

# ------------------------------------------------------------------
# aesecb verify on ACVP sets
for b in $avail; do
	expect_status 0 "$AESECB" verify -b "$b" "$A/array"
	expect_stdout_grep "^backend  *MCT  *AFT  *total"
	expect_stdout_grep "^$b  *[1-9][0-9]*/[1-9][0-9]*  *[1-9][0-9]*/[1-9][0-9]* "
	expect_stderr_empty
done
expect_status 0 "$AESECB" verify -q "$A/array/prompt.json" "$A/array/expectedResults.json" "$A/projection"
expect_status 0 "$AESECB" verify -q "$A/projection/internalProjection.json"
if [ -n "$S" ]; then
	expect_status 0 "$AESECB" verify "$S"
	expect_stdout_grep "^verify: 306/306 entries passed"
	for b in $avail; do
		expect_stdout_grep "^$b  *6/6  *300/300  *306/306 "
	done
fi
# wrong answers: exit 1, naming the file, tgId, tcId, MCT iteration, field
for b in $avail; do
	expect_status 1 "$AESECB" verify -b "$b" "$A/wrong"
	expect_stderr_fixed "aesecb: verify: $A/wrong/expectedResults.json: tgId 4, tcId 6 under $b (MCT iteration 37): ct expected "
	expect_stderr_fixed "aesecb: verify: $A/wrong/expectedResults.json: tgId 1, tcId 2 under $b: ct block 4 of 4: expected "
	expect_stderr_fixed "tgId 5, tcId 7 under $b (MCT iteration 5): key differs"
done
if [ "$have_python" -eq 1 ]; then
	expect_status 1 "$AESECB" verify --json -b none "$A/wrong"
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
f = d["backends"][0]["files"][0]["failures"]
m = [x for x in f if x["tcId"] == 6][0]
assert m["tgId"] == 4 and m["iteration"] == 37 and m["field"] == "ct", m
assert m["path"].endswith("resultsArray[37].ct"), m
assert d["status"] == "fail" and d["backends"][0]["sets"]["MCT"]["total"] > 0
' "$T/out" 2>"$T/json.err"; then
		pass "--json names tgId, tcId, iteration and the JSON path"
	else
		fail "--json ACVP failure: $(tail -n 1 "$T/json.err")"
	fi
fi
# malformed sets: exit 2 with the JSON path; --json still prints JSON
expect_status 2 "$AESECB" verify "$A/bad/bad-hex.json"
expect_stderr_fixed "aesecb: verify: $A/bad/bad-hex.json: testGroups[0].tests[1].pt: not hex"
expect_stderr_lines 1
expect_status 2 "$AESECB" verify "$A/bad/answers-tcid"
if [ "$have_python" -eq 1 ]; then
	expect_status 2 "$AESECB" verify --json "$A/bad/bad-hex.json"
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "error" and d["exit_status"] == 2, d
assert "testGroups[0].tests[1].pt: not hex" in d["errors"][0], d
' "$T/out" 2>"$T/json.err"; then
		pass "--json reports a malformed set as JSON"
	else
		fail "--json on a malformed set: $(tail -n 1 "$T/json.err")"
	fi
fi
# a prompt without expected results cannot be verified
mkdir "$T/qonly"
cp "$A/wrong/prompt.json" "$T/qonly/prompt.json"
expect_status 2 "$AESECB" verify "$T/qonly"
expect_stderr_fixed "no expected results"

# an empty set checks nothing: refused (exit 2) by verify and acvp alike,
# as an empty response file is, never "0/0 entries passed"
H='"vsId": 1, "algorithm": "ACVP-AES-ECB", "revision": "1.0"'
G='"tgId": 1, "testType": "AFT", "direction": "encrypt", "keyLen": 128'
mkdir "$T/empty"
printf '[{"acvVersion": "1.0"}, {%s, "testGroups": []}]\n' "$H" >"$T/empty/groups.json"
printf '{%s, "testGroups": [{%s, "tests": []}]}\n' "$H" "$G" >"$T/empty/tests.json"
for f in groups tests; do
	case $f in
	groups) where='\[1\]\.testGroups: empty: a vector set has at least one test group' ;;
	tests)  where='testGroups\[0\]\.tests: empty: a test group has at least one test' ;;
	esac
	for cmd in "verify -b none" "verify --json -b none" "acvp -b none"; do
		expect_status 2 "$AESECB" $cmd "$T/empty/$f.json"
		expect_stderr_grep "^aesecb: ${cmd%% *}: $T/empty/$f.json: $where\$"
		expect_stderr_lines 1
	done
done
finish
