#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-many-backends.sh - a library with more backends than any fixed table
# would hold (tests/many-backends.so, preloaded, lists each real backend
# five times): the tool must list, measure and verify every one of them,
# never a silent first sixteen.

. "${top_srcdir:-.}/tests/testlib.sh"

PRELOAD=$top_builddir/tests/.libs/many-backends.so
[ -f "$PRELOAD" ] || skip_all "no $PRELOAD"
n1=$(backends | wc -w)
nav1=$(backends available | wc -w)

run env LD_PRELOAD="$PRELOAD" "$AESECB" backends --json
n5=$(grep -c '"name": ' "$T/out")
[ "$n5" -eq $((5 * n1)) ] ||
	skip_all "preloading did not take (static or emulated binary?): $n5 backends listed, not $((5 * n1))"
pass "the preloaded library lists $n5 backends"

# backends: the table has a row for each
expect_status 0 env LD_PRELOAD="$PRELOAD" "$AESECB" backends
rows=$(awk 'NR > 1 && NF > 0 && $1 != "default:"' "$T/out" | wc -l | tr -d ' ')
[ "$rows" -eq "$n5" ] && pass "the table has $n5 rows" ||
	fail "the table has $rows rows for $n5 backends"

# bench: every available one runs
expect_status 0 env LD_PRELOAD="$PRELOAD" "$AESECB" bench --quick init-aes-128
ran=$(sed -n 's/^backends: *//p' "$T/out" | wc -w)
[ "$ran" -eq $((5 * nav1)) ] && pass "bench runs all $ran available backends" ||
	fail "bench ran $ran backends, $((5 * nav1)) are available"
rows=$(grep -c '^init-aes-128 ' "$T/out")
[ "$rows" -eq $((5 * nav1)) ] && pass "bench: a row for each" ||
	fail "bench: $rows rows for $((5 * nav1)) backends"

# verify: every available one runs, the others are skipped, and the
# random cases compare them all
expect_status 0 env LD_PRELOAD="$PRELOAD" "$AESECB" verify --random 3 --seed 1 \
	"$top_srcdir/vectors/fips197.rsp"
case $(grep '^verify: ' "$T/out") in
"verify: 9/9 entries passed under $((5 * nav1)) backends"*)
	pass "verify runs all $((5 * nav1)) available backends" ;;
*)	fail "verify: $(grep '^verify: ' "$T/out")" ;;
esac
skipped=$(grep '^verify: ' "$T/out" | sed -n 's/.*; skipped: //p' | tr ',' '\n' | grep -c .)
[ "$skipped" -eq $((5 * (n1 - nav1))) ] && pass "verify lists all $skipped skipped" ||
	fail "verify lists $skipped skipped, $((5 * (n1 - nav1))) cannot run"

finish
