#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-backends.sh - aesecb backends (table and --json), and how commands
# refuse a backend that is unknown or cannot run here (exit status 3).

. "${top_srcdir:-.}/tests/testlib.sh"

# The listing is checked as the library picks its default, without any
# choice inherited from the caller.
unset AESECB_BACKEND

# The names from --json (the helper); the table must show the same ones,
# and they are configure's list of every backend (which make check passes)
names=$(backends)
if [ -z "${ALL_BACKENDS:-}" ]; then
	skip "ALL_BACKENDS not set: the listing not checked against configure's"
elif [ "$names" = "$(echo $ALL_BACKENDS)" ]; then
	pass "the library lists configure's backends, in its order"
else
	fail "the library lists '$names', configure '$ALL_BACKENDS'"
fi
KEY=000102030405060708090a0b0c0d0e0f
export KEY
printf '00112233445566778899aabbccddeeff\n' >"$T/pt"

# ------------------------------------------------------------------
# The table.
expect_status 0 "$AESECB" backends
expect_stderr_empty
cp "$T/out" "$T/table"
expect_stdout_grep "^BACKEND  *ARCH  *COMPILED  *AVAILABLE  *DEFAULT  *SCRATCH ENC/DEC  *DIT  *REQUIRES  *WHY NOT"
for b in $names; do
	if grep -q "^$b " "$T/table"; then
		pass "table lists $b"
	else
		fail "table does not list $b"
	fi
done
tnames=$(awk 'NR > 1 && NF > 0 && $1 != "default:" { printf "%s%s", n++ ? " " : "", $1 }' "$T/table")
if [ "$tnames" = "$names" ]; then
	pass "table and --json list the same backends in the same order"
else
	fail "table lists '$tnames', --json '$names'"
fi
case "$names " in
"none "*) pass "none comes first" ;;
*) fail "the portable backend does not come first: $names" ;;
esac
# Rows: name arch compiled available [*] enc/dec requires... reason
awk 'NR > 1 && NF > 0 && $1 != "default:" { print $1, $3, $4, ($5 == "*" ? "*" : "-") }' \
	"$T/table" >"$T/rows"
if grep -q '^none yes yes ' "$T/rows"; then
	pass "none is compiled and available"
else
	fail "none is not shown as compiled and available"
fi
ndef=$(grep -c ' \*$' "$T/rows")
if [ "$ndef" -eq 1 ]; then
	pass "one default"
else
	fail "$ndef backends marked as the default, expected 1"
fi
def=$(awk '$4 == "*" { print $1 }' "$T/rows")
if grep -q "^$def yes yes " "$T/rows"; then
	pass "the default ($def) is available"
else
	fail "the default ($def) is not available"
fi
expect_stdout_grep "^default: $def (the best available on this CPU)\$"
note "default backend: $def"

# Compiled in: exactly the backends the build says it built.
if [ -n "$BUILT_BACKENDS" ]; then
	for b in $names; do
		case " $BUILT_BACKENDS " in
			*" $b "*) want=yes ;;
			*) want=no ;;
		esac
		got=$(awk -v b="$b" '$1 == b { print $2 }' "$T/rows")
		if [ "$got" = "$want" ]; then
			pass "$b compiled: $want"
		else
			fail "$b compiled: table says '$got', the build says '$want'"
		fi
	done
else
	skip "BUILT_BACKENDS not set: compiled column not cross-checked"
fi

# Every backend that cannot run says why; the others say '-'.
awk 'NR > 1 && NF > 0 && $1 != "default:"' "$T/table" | while read -r b rest; do
	case $rest in
		*" yes "*" yes "*) reason_ok=1; [ "${rest##* }" = "-" ] || reason_ok=0 ;;
		*) reason_ok=1; [ "${rest##* }" != "-" ] || reason_ok=0 ;;
	esac
	if [ "$reason_ok" -eq 1 ]; then
		pass "$b: reason column"
	else
		fail "$b: reason column wrong: $rest"
	fi
done

# Hardware backends write no scratch; none stays inside the 2048 bytes.
for b in $names; do
	sc=$(awk -v b="$b" '$1 == b { for (i = 5; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { print $i; exit } }' "$T/table")
	enc=${sc%/*}
	dec=${sc#*/}
	case $b in
		none)
			if [ -n "$sc" ] && [ "$enc" -le 2048 ] && [ "$dec" -le 2048 ]; then
				pass "none scratch $sc within 2048"
			else
				fail "none scratch '$sc'"
			fi ;;
		*)
			if [ "$sc" = 0/0 ]; then
				pass "$b scratch 0/0"
			else
				fail "$b scratch '$sc', expected 0/0"
			fi ;;
	esac
done

# The DIT column (after the scratch counts): yes only for a backend that
# can run here; the JSON check below says which.
awk 'NR > 1 && NF > 0 && $1 != "default:" { for (i = 5; i < NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { print $1, $(i + 1); break } }' \
	"$T/table" >"$T/dit"
while read -r b d; do
	avail=$(awk -v b="$b" '$1 == b { print $3 }' "$T/rows")
	case $d/$avail in
		no/* | yes/yes) pass "$b: DIT column '$d'" ;;
		*) fail "$b: DIT column '$d' (available: $avail)" ;;
	esac
done <"$T/dit"
if [ "$(wc -l <"$T/dit")" -eq "$(wc -l <"$T/rows")" ]; then
	pass "DIT column in every row"
else
	fail "DIT column found in $(wc -l <"$T/dit") rows of $(wc -l <"$T/rows")"
fi

# ------------------------------------------------------------------
# JSON.
expect_status 0 "$AESECB" backends --json
cp "$T/out" "$T/json"
if command -v python3 >/dev/null 2>&1; then
	if python3 -m json.tool "$T/json" >/dev/null 2>"$T/jerr"; then
		pass "--json is valid JSON"
	else
		fail "--json is not valid JSON: $(head -n 1 "$T/jerr")"
	fi
	if python3 - "$T/json" "$def" "$BUILT_BACKENDS" "$tnames" "$T/dit" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
want_def, built, table = sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
table_dit = dict(l.split() for l in open(sys.argv[5]))
bs = d["backends"]
names = [b["name"] for b in bs]
assert names == table, (names, table)
assert len(set(names)) == len(names), names
assert all(b in names for b in built), (built, names)
by = {b["name"]: b for b in bs}
assert by["none"]["compiled"] is True and by["none"]["available"] is True
assert d["default"] == want_def, d["default"]
assert [b["name"] for b in bs if b["default"]] == [want_def]
assert d["default_from"] == "best available"
assert d["AESECB_BACKEND"] is None and d["AESECB_BACKEND_problem"] is None
for b in bs:
    for k in ("arch", "requires"):
        assert isinstance(b[k], str) and b[k], (b["name"], k)
    s = b["scratch_written"]
    assert 0 <= s["encrypt"] <= 2048 and 0 <= s["decrypt"] <= 2048
    if b["available"]:
        assert b["compiled"] and b["unavailable_reason"] is None, b
    else:
        assert isinstance(b["unavailable_reason"], str), b
    if built:
        assert b["compiled"] == (b["name"] in built), b
    # DIT only where the backend runs, for AArch64 (or any CPU), as the table says
    assert isinstance(b["dit"], bool), b
    if b["dit"]:
        assert b["available"] and b["arch"] in ("aarch64", "any"), b
    assert table_dit[b["name"]] == ("yes" if b["dit"] else "no"), b
# one CPU: either every backend that can use DIT here does, or none
cand = [b["dit"] for b in bs if b["available"] and b["arch"] in ("aarch64", "any")]
assert all(cand) or not any(cand), cand
EOF
	then
		pass "--json content matches the table"
	else
		fail "--json content"
	fi
else
	skip "python3 not found: JSON not validated"
fi

# ------------------------------------------------------------------
# $AESECB_BACKEND.
expect_status 0 env AESECB_BACKEND=none "$AESECB" backends
expect_stdout_grep "^default: none (set by AESECB_BACKEND)\$"
expect_stdout_grep '^none  .* \* '
expect_stderr_empty

expect_status 0 env AESECB_BACKEND=bogus "$AESECB" backends
expect_stderr_fixed "aesecb: backends: warning: AESECB_BACKEND='bogus' names no backend"
expect_stderr_lines 1
expect_stdout_grep "^default: no backend: AESECB_BACKEND='bogus' cannot be used"
if grep -q ' \* ' "$T/out"; then
	fail "a default is marked although AESECB_BACKEND is unusable"
else
	pass "no default marked for an unusable AESECB_BACKEND"
fi
expect_status 0 env AESECB_BACKEND=bogus "$AESECB" backends --json
if command -v python3 >/dev/null 2>&1; then
	if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["default"] is None and d["AESECB_BACKEND"] == "bogus"
assert d["AESECB_BACKEND_problem"]
assert not any(b["default"] for b in d["backends"])' "$T/out"; then
		pass "--json with a bogus AESECB_BACKEND"
	else
		fail "--json with a bogus AESECB_BACKEND"
	fi
fi

# Commands refuse an unknown backend: exit 3.
expect_status 3 env AESECB_BACKEND=bogus "$AESECB" encrypt --key-env KEY -x -i "$T/pt"
expect_stderr_fixed "AESECB_BACKEND"
expect_stderr_fixed "bogus"
expect_status 3 env AESECB_BACKEND=bogus "$AESECB" hp-mask --key-env KEY 00112233445566778899aabbccddeeff
expect_stderr_fixed "bogus"
expect_status 3 "$AESECB" encrypt --key-env KEY -b bogus -x -i "$T/pt"
expect_stderr_fixed "unknown backend 'bogus'"

# A known backend that cannot run here: exit 3, naming what is missing.
unavail=$(awk '$3 == "no" { print $1 }' "$T/rows")
if [ -z "$unavail" ]; then
	skip "every backend is available here: no refusal to test"
fi
for b in $unavail; do
	why=$(awk -v b="$b" '$1 == b && NR > 1 { print }' "$T/table" | sed 's/.*  //')
	req=$(python3 -c 'import json,sys; print([x["requires"] for x in json.load(open(sys.argv[1]))["backends"] if x["name"] == sys.argv[2]][0])' "$T/json" "$b" 2>/dev/null)
	expect_status 3 "$AESECB" encrypt --key-env KEY -b "$b" -x -i "$T/pt"
	expect_stderr_fixed "'$b' is not available here: $why"
	[ -n "$req" ] && expect_stderr_fixed "$req"
	expect_stderr_lines 1
	expect_status 3 "$AESECB" hp-mask --key-env KEY -b "$b" 00112233445566778899aabbccddeeff
	expect_stderr_fixed "'$b' is not available here: $why"
	expect_status 3 env AESECB_BACKEND="$b" "$AESECB" encrypt --key-env KEY -x -i "$T/pt"
	expect_stderr_fixed "'$b' is not available here"
	expect_status 0 env AESECB_BACKEND="$b" "$AESECB" backends
	expect_stderr_fixed "warning: AESECB_BACKEND='$b' is not available here"
done
# A build without armce must refuse it (the host's uname says nothing
# about a cross build run under an emulator, so ask the build).
case " $BUILT_BACKENDS " in
	*" armce "*)
		skip "armce is built in here: -b armce may be available" ;;
	"  ")
		skip "BUILT_BACKENDS not set: cannot tell whether armce is built" ;;
	*)
		expect_status 3 "$AESECB" encrypt --key-env KEY -b armce -x -i "$T/pt"
		expect_stderr_fixed "armce" ;;
esac

# Every available backend can be forced and gives the FIPS 197 answer.
for b in $(awk '$3 == "yes" { print $1 }' "$T/rows"); do
	expect_status 0 "$AESECB" encrypt --key-env KEY -b "$b" -x -i "$T/pt"
	expect_stdout_eq 69c4e0d86a7b0430d8cdb78070b4c55a
done

# ------------------------------------------------------------------
# Usage.
expect_status 0 "$AESECB" backends --help
expect_stdout_grep "^Usage: aesecb backends"
cp "$T/out" "$T/help1"
expect_status 0 "$AESECB" help backends
expect_same_file "$T/help1" "$T/out"
# No help text lists backends by hand ('aesecb backends' is the list):
# none of the names but 'none' (also a padding mode) appears in one.
for c in $(commands); do
	expect_status 0 "$AESECB" help "$c"
	for b in $names; do
		[ "$b" = none ] && continue
		if grep -q -w -e "$b" "$T/out"; then
			fail "'aesecb $c --help' names backend $b: the list belongs to 'aesecb backends'"
		fi
	done
done
expect_status 2 "$AESECB" backends --frob
expect_stderr_fixed "aesecb: backends: unknown option '--frob'"
# options are named without a value: no key bytes in the message
expect_status 2 "$AESECB" backends --key=$RFC9001_CLIENT_HP
expect_stderr_fixed "aesecb: backends: unknown option '--key' "
expect_stderr_lacks "9f50449e"
expect_status 2 "$AESECB" backends -k$RFC9001_CLIENT_HP
expect_stderr_fixed "aesecb: backends: unknown option '-k' "
expect_stderr_lacks "9f50449e"
expect_status 2 "$AESECB" backends --json=$RFC9001_CLIENT_HP
expect_stderr_lacks "9f50449e"
expect_status 2 "$AESECB" backends extra
expect_stderr_fixed "unexpected argument 'extra'"
if [ -w /dev/full ]; then
	run sh -c '"$AESECB" backends >/dev/full'
	if [ "$rc" -eq 4 ]; then
		pass "exit 4 writing to /dev/full"
	else
		fail "writing to /dev/full: expected exit 4, got $rc"
	fi
	expect_stderr_fixed "aesecb: backends: cannot write stdout: "
	run sh -c '"$AESECB" backends --help >/dev/full'
	if [ "$rc" -eq 4 ]; then
		pass "--help: exit 4 writing to /dev/full"
	else
		fail "--help to /dev/full: expected exit 4, got $rc"
	fi
	expect_stderr_fixed "aesecb: backends: cannot write stdout: "
else
	skip "/dev/full not available: write error not tested"
fi

finish
