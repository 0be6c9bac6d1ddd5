#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-bench.sh - 'aesecb bench': options, workload selection, output format
# and exit statuses.  Runs only --quick measurements on a few workloads and
# never looks at how fast anything is.

. "${top_srcdir:-.}/tests/testlib.sh"

num='[0-9][0-9]*\.[0-9][0-9]*'

# --- help and the workload list -------------------------------------------
expect_status 0 "$AESECB" bench --help
expect_stdout_grep '^Usage: aesecb bench'
expect_stdout_grep 'quic-hp-aes-N/16x32'

expect_status 0 "$AESECB" bench --list
for w in ecb-enc-aes-128/16 ecb-enc-aes-128/16-chain ecb-dec-aes-256/16 \
         ecb-dec-aes-256/16-chain ecb-enc-aes-192/64 ecb-dec-aes-192/1024 \
         ecb-enc-aes-256/16384 quic-hp-aes-128/16 quic-hp-aes-128/16-chain \
         quic-hp-aes-128/16x32 quic-hp-aes-256/16 quic-hp-aes-256/16x32 \
         quic-hp-aes-128/protect quic-hp-aes-128/unprotect \
         quic-hp-aes-256/protect quic-hp-aes-256/unprotect \
         init-aes-128 init-aes-256; do
	if grep -q -x -F -e "$w" "$T/out"; then
		pass "--list names $w"
	else
		fail "--list does not name $w"
	fi
done
n=$(wc -l <"$T/out" | tr -d ' ')
if [ "$n" -eq 43 ]; then
	pass "--list gives 43 workloads"
else
	fail "--list gives $n workloads, expected 43"
fi

# --- which backends run and which are skipped -------------------------------
expect_status 0 "$AESECB" bench --quick init-aes-128
expect_stderr_empty
expect_stdout_grep '^cpu: '
expect_stdout_grep '^cycles: '
expect_stdout_grep '^backends: '
expect_stdout_grep '^workload  *backend  *ns/op  *cycles/op  *cycles/B  *MB/s$'
available=$(sed -n 's/^backends: *//p' "$T/out")
unavailable=$(sed -n 's/^skipped: *\([a-z0-9]*\) .*/\1/p' "$T/out")
for b in $unavailable; do
	skip "backend $b is not available here"
done
if [ "$(echo $available)" = "$(backends available)" ] &&
   [ "$(echo $unavailable)" = "$(backends unavailable)" ]; then
	pass "bench runs the backends listed as available and skips the others"
else
	fail "bench ran '$available' and skipped '$unavailable'; the listing says '$(backends available)' and '$(backends unavailable)'"
fi
# The header says what the cycle columns count, and a core clock it gives
# is one a CPU can have: an estimate from instructions a core folds at
# rename (dependent additions of a constant read 8 to 19 GHz on a 3 GHz
# Xeon) must come out as "unknown", never as a figure.
expect_stdout_grep '^cycles:   the cycle columns count \(TSC ticks\|core clock cycles\)\|^cycles:   none'
ghz=$(sed -n 's/.*core clock estimated at \([0-9.]*\) GHz.*/\1/p' "$T/out")
tsc=$(sed -n 's/.* runs at \([0-9.]*\) GHz.*/\1/p' "$T/out")
if [ -z "$ghz" ]; then
	grep -q 'core clock unknown\|core clock is unknown' "$T/out" &&
		pass "core clock: unknown" ||
		fail "the header gives no core clock and does not say it is unknown"
elif awk -v g="$ghz" -v t="${tsc:-0}" 'BEGIN { exit !(g >= 0.2 && g <= 6.5 &&
	(t == 0 || (g <= 4 * t && g >= t / 4))) }'; then
	pass "core clock $ghz GHz (TSC ${tsc:-none}): a clock a CPU can run at"
else
	fail "core clock estimated at $ghz GHz (TSC ${tsc:-none} GHz): no CPU runs so"
fi
case " $available " in
*" none "*) pass "the portable backend is listed" ;;
*)          fail "the portable backend is missing from: $available" ;;
esac
for b in $available; do
	if grep -q "^init-aes-128  *$b  *$num  *$num  *-  *-\( \*\)\{0,1\}$" "$T/out"; then
		pass "init-aes-128 row for $b"
	else
		fail "no well-formed init-aes-128 row for $b"
	fi
done

# --- every available backend, one at a time ---------------------------------
for b in $available; do
	expect_status 0 "$AESECB" bench --quick -b "$b" \
		ecb-enc-aes-128/16-chain quic-hp-aes-256/16x32
	rows=$(grep -c "  *$b  *$num  *$num  *$num  *$num\( \*\)\{0,1\}$" "$T/out")
	if [ "$rows" -eq 2 ]; then
		pass "-b $b: two result rows"
	else
		fail "-b $b: $rows well-formed result rows, expected 2"
	fi
	if grep -q '^skipped:' "$T/out"; then
		fail "-b $b lists skipped backends"
	else
		pass "-b $b lists no other backend"
	fi
done

# --- selection: prefix and pattern ------------------------------------------
expect_status 0 "$AESECB" bench --quick -b none quic-hp-aes-256
n=$(grep -c '^quic-hp-aes-256/' "$T/out")
if [ "$n" -eq 5 ]; then
	pass "a prefix selects its five workloads"
else
	fail "prefix quic-hp-aes-256 selected $n workloads, expected 5"
fi
expect_status 0 "$AESECB" bench --quick -b none 'ecb-*-aes-192/16-chain' \
	ecb-enc-aes-128/16
n=$(grep -c '^ecb-' "$T/out")
if [ "$n" -eq 3 ] &&
   grep -q '^ecb-enc-aes-128/16  ' "$T/out" &&
   ! grep -q '^ecb-enc-aes-128/16-chain' "$T/out"; then
	pass "a pattern and an exact name select 3 workloads"
else
	fail "pattern and exact name selected $n workloads, expected 3"
fi

# --- JSON --------------------------------------------------------------------
expect_status 0 "$AESECB" bench --quick --json ecb-dec-aes-256/1024 init-aes-192
cp "$T/out" "$T/bench.json"
nav=$(echo $available | wc -w | tr -d ' ')
if command -v python3 >/dev/null 2>&1; then
	if python3 - "$T/bench.json" "$nav" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
nav = int(sys.argv[2])
assert isinstance(doc["cpu"], str) and doc["cpu"]
assert doc["cycles"]["source"] in ("tsc", "core-clock-estimate", None)
assert doc["cycles"]["counts"] in ("TSC ticks", "core clock cycles", None)
g = doc["cycles"]["core_ghz_estimate"]
assert g is None or 0.2 <= g <= 6.5, g
assert doc["method"]["repetitions"] >= 1
names = [b["name"] for b in doc["backends"]]
assert "none" in names
for b in doc["backends"]:
    assert b["available"] or b["reason"]
res = doc["results"]
assert len(res) == 2 * nav, (len(res), nav)
for r in res:
    assert r["workload"] in ("ecb-dec-aes-256/1024", "init-aes-192")
    assert r["ns_per_op"] > 0
    assert r["descheduled"] in (True, False)
    if r["workload"] == "init-aes-192":
        assert r["bytes_per_op"] == 0 and r["cycles_per_byte"] is None
        assert r["mb_per_s"] is None
    else:
        assert r["bytes_per_op"] == 1024
        assert isinstance(r["cycles_per_byte"], float)
        assert isinstance(r["mb_per_s"], float)
EOF
	then
		pass "--json output parses and has the expected shape"
	else
		fail "--json output is not valid or lacks fields"
		sed 's/^/#   /' "$T/bench.json" >&2
	fi
	expect_status 0 "$AESECB" bench --list --json
	if python3 -c 'import json,sys; l=json.load(sys.stdin); assert len(l) == 43' \
		<"$T/out"; then
		pass "--list --json is a JSON array of 43 names"
	else
		fail "--list --json is not a JSON array of 43 names"
	fi
else
	skip "python3 not installed: JSON output not parsed"
	if grep -q '"results": \[' "$T/bench.json" &&
	   [ "$(tail -n 1 "$T/bench.json")" = "}" ]; then
		pass "--json output has a results array"
	else
		fail "--json output lacks a results array"
	fi
fi

# --- errors --------------------------------------------------------------------
expect_status 2 "$AESECB" bench --quick no-such-workload
expect_stderr_fixed "aesecb: bench: unknown workload 'no-such-workload'"
expect_stderr_lines 1
expect_status 2 "$AESECB" bench --quick 'zzz*'
expect_stderr_lines 1
expect_status 2 "$AESECB" bench --no-such-option
expect_stderr_grep '^aesecb: bench: '
expect_stderr_lines 1
expect_status 2 "$AESECB" bench -b
expect_stderr_lines 1
# unknown options are named without any value attached: no key bytes
for opt in --key=$RFC9001_CLIENT_HP \
           -k$RFC9001_CLIENT_HP \
           --json=$RFC9001_CLIENT_HP \
           -l$RFC9001_CLIENT_HP; do
	expect_status 2 "$AESECB" bench "$opt"
	expect_stderr_grep '^aesecb: bench: \(unknown \)*option '"'"'-'
	expect_stderr_lacks "9f50449e"
	expect_stderr_lines 1
done
expect_status 2 "$AESECB" bench --key=$RFC9001_CLIENT_HP
expect_stderr_fixed "unknown option '--key' "
expect_status 2 "$AESECB" bench --json=$RFC9001_CLIENT_HP
expect_stderr_fixed "option '--json' takes no value"
expect_status 2 "$AESECB" bench --list init-aes-128
expect_stderr_lines 1
expect_status 3 "$AESECB" bench -b no-such-backend init-aes-128
expect_stderr_grep "^aesecb: bench: unknown backend 'no-such-backend'"
expect_stderr_lines 1
for b in $unavailable; do
	expect_status 3 "$AESECB" bench --quick -b "$b" init-aes-128
	expect_stderr_grep "^aesecb: bench: backend '$b' is not available"
	expect_stderr_lines 1
done
if [ -w /dev/full ]; then
	expect_status 4 sh -c '"$AESECB" bench --list >/dev/full'
	expect_stderr_grep '^aesecb: bench: cannot write stdout: '
else
	skip "/dev/full not available: write error not tested"
fi

finish
