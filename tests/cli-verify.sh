#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-verify.sh - "aesecb verify" from the outside: the project's own
# vectors under every backend (with the shipped NIST CAVP set in
# vectors/cavp for a bare verify; NIST's own CAVP files, when CAVP_DIR is
# given, in cli-verify-cavp.sh), mismatches (exit 1, naming COUNT),
# malformed files (exit 2, naming the line), truncated gzip, unknown
# backends (exit 3), --json and -q.

. "${top_srcdir:-.}/tests/testlib.sh"

V=$top_srcdir/vectors
ALL_BACKENDS=$(backends)

# The project's own set: entries in the response files plus QUIC records.
n_rsp=$(cat "$V"/*.rsp | grep -c '^COUNT *=')
n_quic=$(grep -c '^HP_KEY *=' "$V/quic-hp.txt")
n_own=$((n_rsp + n_quic))
if [ "$n_quic" -eq 4 ]; then
	pass "quic-hp.txt has 4 records"
else
	fail "quic-hp.txt has $n_quic records, expected 4"
fi
if [ "$n_rsp" -eq 12 ]; then
	pass "fips197.rsp and sp800-38a-ecb.rsp have 12 entries"
else
	fail "the project's response files have $n_rsp entries, expected 12"
fi

# ------------------------------------------------------------------
# Which backends run here: ask verify itself one backend at a time.
avail=""
for b in $ALL_BACKENDS; do
	run "$AESECB" verify -q -b "$b" "$V"
	case $rc in
	0)
		avail="$avail $b"
		want="verify: $n_own/$n_own entries passed under 1 backend ($b)"
		if [ "$(summary_of)" = "$want" ]; then
			pass "$b: the project's vectors, $n_own entries"
		else
			fail "$b: summary '$(summary_of)', expected '$want'"
		fi
		;;
	3)
		skip "backend $b: $(head -n 1 "$T/err")"
		case " $(backends available) " in
		*" $b "*) fail "$b: exit 3, but the listing shows it available" ;;
		esac
		case " $BUILT_BACKENDS " in
		*" $b "*) ;;
		*)
			if grep -q 'not built in' "$T/err"; then
				pass "$b: not built in, exit 3"
			else
				fail "$b: exit 3 without 'not built in'"
			fi
			;;
		esac
		;;
	*)
		fail "verify -b $b on the source tree vectors: exit $rc"
		testlib_show
		;;
	esac
done
navail=$(echo $avail | wc -w | tr -d ' ')
note "backends that ran:$avail"
if [ "$(echo $avail)" = "$(backends available)" ]; then
	pass "verify runs exactly the backends listed as available"
else
	fail "verify ran '$(echo $avail)', the listing says '$(backends available)'"
fi
case " $avail " in
*" none "*) pass "none is available" ;;
*) fail "the portable backend none did not pass" ;;
esac

# The matrix: one row per backend, set columns, pass/total cells.
for b in $avail; do
	expect_status 0 "$AESECB" verify -b "$b" "$V"
	expect_stdout_grep "^backend  *KAT  *QUIC  *total"
	expect_stdout_grep "^$b  *12/12  *4/4  *$n_own/$n_own "
done

# Default -b all: every available backend, the others listed as skipped
# with a reason; $AESECB_BACKEND does not narrow it.
expect_status 0 "$AESECB" verify "$V"
s=$(summary_of)
case $s in
"verify: $n_own/$n_own entries passed under $navail backend"*) pass "all: $s" ;;
*) fail "all: unexpected summary '$s'" ;;
esac
for b in $ALL_BACKENDS; do
	case " $avail " in
	*" $b "*)
		expect_stdout_grep "^$b  *12/12  *4/4 " ;;
	*)
		case $s in
		*"skipped:"*"$b ("*) pass "$b listed as skipped" ;;
		*) fail "$b neither ran nor was listed as skipped: '$s'" ;;
		esac ;;
	esac
done
expect_status 0 "$AESECB" verify -b all "$V"
if [ "$(summary_of)" = "$s" ]; then
	pass "-b all is the default"
else
	fail "-b all differs from the default: '$(summary_of)'"
fi
AESECB_BACKEND=none expect_status 0 "$AESECB" verify "$V"
if [ "$(summary_of)" = "$s" ]; then
	pass "AESECB_BACKEND does not narrow verify"
else
	fail "AESECB_BACKEND changed verify: '$(summary_of)'"
fi

# -q on success: the summary line only.
expect_status 0 "$AESECB" verify -q "$V"
if [ "$(wc -l <"$T/out" | tr -d ' ')" -eq 1 ] && grep -q '^verify: ' "$T/out"; then
	pass "-q prints only the summary"
else
	fail "-q printed more than the summary"
	sed 's/^/#   /' "$T/out" >&2
fi
expect_stderr_empty

# No PATH: $AESECB_VECTORS, else the installed set, else the source tree;
# the directory used is printed.  The default set is the directory and its
# subdirectories: the project's files and the NIST CAVP ECB set in cavp/
# (2,738 entries), under every backend.
n_cavp=$(for f in "$V"/cavp/*.rsp.gz; do gzip -dc "$f"; done | grep -c '^COUNT *=')
if [ "$n_cavp" -eq 2738 ]; then
	pass "vectors/cavp has 2738 entries"
else
	fail "vectors/cavp has $n_cavp entries, expected 2738"
fi
n_def=$((n_own + n_cavp))
AESECB_VECTORS=$V expect_status 0 "$AESECB" verify
expect_stdout_grep "^vectors: $V (from AESECB_VECTORS)\$"
s=$(summary_of)
case $s in
"verify: $n_def/$n_def entries passed under $navail backend"*)
	pass "AESECB_VECTORS is used, with its subdirectory cavp/" ;;
*) fail "AESECB_VECTORS: '$s'" ;;
esac
expect_stdout_grep "^backend  *KAT  *MMT  *MCT  *QUIC  *total"
for b in $avail; do
	expect_stdout_grep "^$b  *2090/2090  *60/60  *600/600  *4/4  *$n_def/$n_def "
done
expect_status 0 "$AESECB" verify
expect_stdout_grep '^vectors: /.* (\(installed\|source tree\))$'
# (an installed set may be another version: counted only from the source)
if grep -q '^vectors: .* (source tree)$' "$T/out"; then
	case $(summary_of) in
	"verify: $n_def/$n_def entries passed under $navail backend"*)
		pass "bare verify: $n_def entries per backend" ;;
	*) fail "bare verify: '$(summary_of)'" ;;
	esac
fi
# a directory given as PATH: its own files only, not its subdirectories
expect_status 0 "$AESECB" verify -q -b none "$V"
expect_stdout_grep "^verify: $n_own/$n_own entries passed"

# An error naming a long path shows it whole, on stderr and in --json.
deep=$T$(printf '/%0199d' 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 | tr 0 z)
expect_status 4 "$AESECB" verify "$deep/x.rsp"
expect_stderr_fixed "aesecb: verify: $deep/x.rsp: No such file or directory"
expect_stderr_lines 1
expect_status 4 "$AESECB" verify --json "$deep/x.rsp"
expect_stdout_grep "\"$deep/x.rsp: No such file or directory\""

# Files one by one, and several paths.
expect_status 0 "$AESECB" verify -q "$V/fips197.rsp" "$V/quic-hp.txt"
case $(summary_of) in
"verify: 10/10 entries passed"*) pass "two files" ;;
*) fail "two files: '$(summary_of)'" ;;
esac

# --json: valid JSON (when python3 is here to parse it).
expect_status 0 "$AESECB" verify --json "$V"
expect_stdout_grep '"status": "pass"'
expect_stdout_grep "\"entries\": $n_own,"
if command -v python3 >/dev/null 2>&1; then
	if python3 -m json.tool <"$T/out" >/dev/null 2>"$T/json.err"; then
		pass "--json output is valid JSON"
	else
		fail "--json output is not valid JSON: $(cat "$T/json.err")"
	fi
	if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
run = [b["name"] for b in d["backends"]]
skipped = [s["name"] for s in d["skipped"]]
assert set(run) | set(skipped) == set(sys.argv[2].split()), (run, skipped)
assert all(s["reason"] for s in d["skipped"])
for b in d["backends"]:
    assert b["passed"] == b["total"] == int(sys.argv[3]), b
    assert b["sets"]["QUIC"] == {"passed": 4, "total": 4}, b["sets"]
    for f in b["files"]:
        assert f["failures"] == [], f
' "$T/out" "$ALL_BACKENDS" "$n_own" 2>"$T/json.err"; then
		pass "--json lists every backend, run or skipped, with counts"
	else
		fail "--json content: $(tail -n 1 "$T/json.err")"
	fi
else
	skip "python3 not found: --json output not parsed"
fi

# ------------------------------------------------------------------
# Mismatches: exit 1, naming file, line, section and COUNT, under every
# backend; no key bytes in the messages.
flip "$V/fips197.rsp" "$T/flip.rsp" ENCRYPT 1 CIPHERTEXT
for b in $avail; do
	expect_status 1 "$AESECB" verify -b "$b" "$T/flip.rsp"
	expect_stderr_fixed "aesecb: verify: $T/flip.rsp:16: [ENCRYPT] COUNT = 1 under $b: CIPHERTEXT expected dda97ca4864cdfe06eaf70a0ec0d7190, got dda97ca4864cdfe06eaf70a0ec0d7191"
	expect_stderr_lines 1
	expect_stderr_lacks "000102030405060708090a0b0c0d0e0f1011121314151617"
	expect_stdout_grep "^verify: FAILED: 5/6 entries passed under 1 backend ($b); failed: $b 1\$"
	expect_stdout_grep "^$b  *5/6 "
done
expect_status 1 "$AESECB" verify -q "$T/flip.rsp"
expect_stdout_grep '^verify: FAILED: 5/6 entries passed'
if command -v python3 >/dev/null 2>&1; then
	expect_status 1 "$AESECB" verify --json -b none "$T/flip.rsp"
	if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "fail"
f = [x for b in d["backends"] for f in b["files"] for x in f["failures"]]
assert len(f) == 1, f
f = f[0]
assert f["section"] == "ENCRYPT" and f["count"] == 1 and f["line"] == 16, f
assert f["expected"] == "dda97ca4864cdfe06eaf70a0ec0d7190", f
assert f["actual"] == "dda97ca4864cdfe06eaf70a0ec0d7191", f
' "$T/out" 2>"$T/json.err"; then
		pass "--json names the failure"
	else
		fail "--json failure report: $(tail -n 1 "$T/json.err")"
	fi
fi

# A multi-block expected value (SP 800-38A, 4 blocks), last block changed.
flip "$V/sp800-38a-ecb.rsp" "$T/flip4.rsp" DECRYPT 2 PLAINTEXT
for b in $avail; do
	expect_status 1 "$AESECB" verify -b "$b" "$T/flip4.rsp"
	expect_stderr_fixed "flip4.rsp:44: [DECRYPT] COUNT = 2 under $b: PLAINTEXT block 4 of 4: expected f69f2445df4f9b17ad2b417be66c3711, got f69f2445df4f9b17ad2b417be66c3710"
	expect_stderr_lines 1
done

# A QUIC mask.
awk '/^MASK *= *94a0c95e80$/ { sub(/80$/, "81") } { print }' \
	"$V/quic-hp.txt" >"$T/flip-hp.txt"
hp3=$(grep -n '^HP_KEY *= *45b95e15235d6f45a6b19cbcb0294ba9$' "$V/quic-hp.txt" | cut -d: -f1)
for b in $avail; do
	expect_status 1 "$AESECB" verify -b "$b" "$T/flip-hp.txt"
	expect_stderr_fixed "flip-hp.txt:$hp3: record 3 under $b: MASK expected 94a0c95e81, got 94a0c95e80"
	expect_stderr_lacks "45b95e15235d6f45a6b19cbcb0294ba9"
done

# ------------------------------------------------------------------
# Malformed files: exit 2, "aesecb: verify: FILE:LINE: what".

# bad NAME LINE WHAT CONTENT: CONTENT (printf format) must be refused at LINE
bad() {
	printf "$4" >"$T/$1"
	expect_status 2 "$AESECB" verify -b none "$T/$1"
	expect_stderr_fixed "aesecb: verify: $T/$1:$2: $3"
	expect_stderr_lines 1
	if [ -s "$T/out" ]; then
		fail "$1: a malformed file still printed a report"
	fi
}
E='[ENCRYPT]\n'
K='KEY = 000102030405060708090a0b0c0d0e0f\n'
P='PLAINTEXT = 00112233445566778899aabbccddeeff\n'
C='CIPHERTEXT = 69c4e0d86a7b0430d8cdb78070b4c55a\n'
bad missing.rsp 2 'entry has no CIPHERTEXT field' "$E"'COUNT = 0\n'"$K$P"'\n'
bad unknown.rsp 4 'unknown field name (a response file has COUNT, KEY, PLAINTEXT and CIPHERTEXT)' "$E"'\nCOUNT = 0\nIV = 00\n'
bad badhex.rsp 3 'PLAINTEXT: invalid hex digit at character 3' "$E"'COUNT = 0\nPLAINTEXT = 00x12233445566778899aabbccddeeff\n'
bad odd.rsp 3 'CIPHERTEXT: odd number of hex digits (31)' "$E"'COUNT = 0\nCIPHERTEXT = 69c4e0d86a7b0430d8cdb78070b4c55\n'
bad partial.rsp 3 'PLAINTEXT is 17 bytes, not a whole number of 16-byte blocks' "$E"'COUNT = 0\nPLAINTEXT = 00112233445566778899aabbccddeeff00\n'
bad keylen.rsp 2 'KEY is 17 bytes; AES keys are 16, 24 or 32 bytes' "$E"'KEY = 000102030405060708090a0b0c0d0e0f10\n'
bad lenmismatch.rsp 2 'PLAINTEXT is 32 bytes but CIPHERTEXT is 16 bytes' "$E"'COUNT = 0\n'"$K"'PLAINTEXT = 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n'"$C"
bad before.rsp 2 'entry before any [ENCRYPT] or [DECRYPT] section' '# header\nCOUNT = 0\n'
bad section.rsp 6 'unknown section (expected [ENCRYPT] or [DECRYPT])' "$E"'COUNT = 0\n'"$K$P$C"'[FOO]\n'
bad empty.rsp 1 'no vector entries' ''
bad comments.rsp 2 'no vector entries' '# nothing\n# here\n'
bad twice.rsp 3 'KEY given twice in one entry' "$E$K$K"
bad crlf.rsp 3 'CIPHERTEXT: odd number of hex digits (1)' '[DECRYPT]\r\n\r\nCIPHERTEXT = 0\r\n'
bad quic.txt 3 'MASK is 4 bytes; must be 5' 'HP_KEY = 9f50449e04a0e810283a1e9933adedd2\nSAMPLE = d1b1c98dd7689fb8ec11d242b123dc9b\nMASK = 437b9aec\n'
bad ECBMCT128.rsp 3 'PLAINTEXT is 32 bytes; must be 16 (Monte Carlo entries are one block)' "$E"'COUNT = 0\nPLAINTEXT = 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n'
# every malformed case names no key bytes
expect_status 2 "$AESECB" verify "$T/keylen.rsp"
expect_stderr_lacks "000102030405060708090a0b0c0d0e0f10"
# lines that are not NAME = VALUE are described, never quoted: they may
# hold a key
bad keycolon.rsp 3 'expected NAME = VALUE, a [section], a comment or a blank line' "$E"'COUNT = 0\nKEY: 000102030405060708090a0b0c0d0e0f\n'
expect_stderr_lacks "0001020304"
bad keyname.rsp 3 'unknown field name' "$E"'COUNT = 0\n000102030405060708090a0b0c0d0e0f = 1\n'
expect_stderr_lacks "0001020304"
bad keysection.rsp 2 'unknown section' "$E"'[000102030405060708090a0b0c0d0e0f]\n'
expect_stderr_lacks "0001020304"
bad hpcolon.txt 1 'expected NAME = VALUE' 'HP_KEY: 9f50449e04a0e810283a1e9933adedd2\n'
expect_stderr_lacks "9f50449e"
bad hpsection.txt 2 'unexpected section line in a QUIC header-protection file' 'HP_KEY = 9f50449e04a0e810283a1e9933adedd2\n[9f50449e04a0e810283a1e9933adedd2]\n'
expect_stderr_lacks "9f50449e"

# An overlong line is refused, not cut.
awk 'BEGIN { printf "[ENCRYPT]\nCOUNT = 0\nPLAINTEXT = "; for (i = 0; i < 70000; i++) printf "0"; printf "\n" }' >"$T/long.rsp"
expect_status 2 "$AESECB" verify "$T/long.rsp"
expect_stderr_fixed "long.rsp:3: line too long"

# --json prints its report for a malformed file too (same status)
if command -v python3 >/dev/null 2>&1; then
	expect_status 2 "$AESECB" verify --json "$T/odd.rsp" "$V/fips197.rsp"
	expect_stderr_fixed "odd.rsp:3:"
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "error" and d["exit_status"] == 2, d
assert "odd.rsp:3: " in d["errors"][0], d
assert d["backends"] == [], d
' "$T/out" 2>"$T/json.err"; then
		pass "--json reports a malformed file as JSON"
	else
		fail "--json on a malformed file: $(tail -n 1 "$T/json.err")"
	fi
fi

# Several malformed files: each is reported, nothing is run.
expect_status 2 "$AESECB" verify "$T/odd.rsp" "$V/fips197.rsp" "$T/partial.rsp"
expect_stderr_lines 2
expect_stderr_fixed "odd.rsp:3:"
expect_stderr_fixed "partial.rsp:3:"

# Truncated and damaged gzip.
if command -v gzip >/dev/null 2>&1; then
	gzip -9 -c "$V/fips197.rsp" >"$T/fips197.rsp.gz"
	expect_status 0 "$AESECB" verify -q -b none "$T/fips197.rsp.gz"
	expect_stdout_grep '^verify: 6/6 entries passed'
	size=$(wc -c <"$T/fips197.rsp.gz" | tr -d ' ')
	for cut in 20 $((size / 2)) $((size - 8)) $((size - 1)); do
		head -c "$cut" "$T/fips197.rsp.gz" >"$T/cut.rsp.gz"
		expect_status 2 "$AESECB" verify -b none "$T/cut.rsp.gz"
		expect_stderr_grep "^aesecb: verify: $T/cut.rsp.gz:[0-9][0-9]*: truncated gzip data"
	done
	# a damaged CRC
	{
		head -c $((size - 8)) "$T/fips197.rsp.gz"
		printf '\000\000\000\000'
		tail -c 4 "$T/fips197.rsp.gz"
	} >"$T/crc.rsp.gz"
	expect_status 2 "$AESECB" verify -b none "$T/crc.rsp.gz"
	expect_stderr_fixed "corrupt gzip data"
else
	skip "gzip not found: compressed copies of the project's files not made"
fi

# ------------------------------------------------------------------
# Usage and backends.
expect_status 3 "$AESECB" verify -b nosuch "$V"
expect_stderr_fixed "unknown backend 'nosuch'"
expect_status 2 "$AESECB" verify --frobnicate "$V"
# unknown options are named without any value attached: no key bytes
for opt in --key=000102030405060708090a0b0c0d0e0f \
           -k000102030405060708090a0b0c0d0e0f \
           --json=000102030405060708090a0b0c0d0e0f \
           -qk000102030405060708090a0b0c0d0e0f; do
	expect_status 2 "$AESECB" verify "$opt" "$V"
	expect_stderr_grep "^aesecb: verify: \(unknown \)*option '-"
	expect_stderr_lacks "0001020304"
	expect_stderr_lines 1
done
expect_status 2 "$AESECB" verify --key=000102030405060708090a0b0c0d0e0f "$V"
expect_stderr_fixed "unknown option '--key' "
expect_status 2 "$AESECB" verify -k000102030405060708090a0b0c0d0e0f "$V"
expect_stderr_fixed "unknown option '-k' "
expect_status 2 "$AESECB" verify --json=000102030405060708090a0b0c0d0e0f "$V"
expect_stderr_fixed "option '--json' takes no value"
# -b twice: the last one counts, as in the other commands
expect_status 0 "$AESECB" verify -q -b none -b none "$V"
expect_status 3 "$AESECB" verify -q -b none -b nosuch "$V"
expect_stderr_fixed "unknown backend 'nosuch'"
# every -b is checked where it stands: a later one does not excuse it
expect_status 3 "$AESECB" verify -q -b nosuch -b none "$V"
expect_stderr_fixed "unknown backend 'nosuch'"
expect_status 2 "$AESECB" verify -b
expect_status 4 "$AESECB" verify "$T/does-not-exist.rsp"
mkdir "$T/emptydir"
expect_status 2 "$AESECB" verify "$T/emptydir"
expect_stderr_fixed "no vector files"
# a directory: .rsp and QUIC .txt files only, in name order
mkdir "$T/dir"
cp "$V/fips197.rsp" "$T/dir/b.rsp"
cp "$V/quic-hp.txt" "$T/dir/a-hp.txt"
printf 'not vectors\n' >"$T/dir/README.txt"
printf 'not vectors\n' >"$T/dir/notes.md"
expect_status 0 "$AESECB" verify --json -b none "$T/dir"
if grep -q README "$T/out" || grep -q notes.md "$T/out"; then
	fail "a directory's non-vector files were read"
else
	pass "a directory's non-vector files are left alone"
fi
if [ "$(grep -n '"path"' "$T/out" | sed -n 's/.*\/dir\/\([a-z.-]*\)".*/\1/p' | tr '\n' ' ')" = "a-hp.txt b.rsp " ]; then
	pass "directory files in name order"
else
	fail "directory files not in name order: $(grep '"path"' "$T/out")"
fi
expect_status 0 "$AESECB" verify --help
expect_stdout_grep '^Usage: aesecb verify '

# QUIC field names in any case: a .txt is recognised in a directory as
# when given by name
mkdir "$T/lc"
tr -d '\r' <"$V/quic-hp.txt" | sed 's/^HP_KEY/hp_key/; s/^SAMPLE/sample/; s/^MASK/mask/; s/^BLOCK/Block/' >"$T/lc/lower.txt"
expect_status 0 "$AESECB" verify -q -b none "$T/lc/lower.txt"
expect_stdout_grep '^verify: 4/4 entries passed'
expect_status 0 "$AESECB" verify -q -b none "$T/lc"
expect_stdout_grep '^verify: 4/4 entries passed'

# A directory entry that cannot be followed or read stops the run (exit 4,
# naming it) rather than being skipped.
mkdir "$T/dangling"
cp "$V/fips197.rsp" "$T/dangling/a.rsp"
ln -s nonexistent "$T/dangling/x.rsp"
expect_status 4 "$AESECB" verify -q -b none "$T/dangling"
expect_stderr_fixed "aesecb: verify: $T/dangling/x.rsp: "
expect_stderr_lines 1
rm "$T/dangling/x.rsp"
ln -s loop.rsp "$T/dangling/loop.rsp"
expect_status 4 "$AESECB" verify -q -b none "$T/dangling"
expect_stderr_fixed "aesecb: verify: $T/dangling/loop.rsp: "
rm "$T/dangling/loop.rsp"
ln -s nonexistent "$T/dangling/hp.txt"
expect_status 4 "$AESECB" verify -q -b none "$T/dangling"
expect_stderr_fixed "aesecb: verify: $T/dangling/hp.txt: "
rm "$T/dangling/hp.txt"
expect_status 0 "$AESECB" verify -q -b none "$T/dangling"
# unreadable .txt files: a QUIC file or not, it cannot be told, so exit 4;
# a readable README.txt is still skipped.  Permissions do not stop root,
# so this runs as another user when setpriv can switch to one.
if [ "$(id -u)" -ne 0 ]; then
	priv=
else
	priv="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
chmod 711 "$T"
mkdir "$T/perm"
cp "$V/fips197.rsp" "$T/perm/a.rsp"
printf 'not vectors\n' >"$T/perm/README.txt"
chmod 755 "$T/perm"
chmod 644 "$T/perm/a.rsp" "$T/perm/README.txt"
if [ -n "$priv" ] && ! $priv "$AESECB" verify -q -b none "$T/perm" >/dev/null 2>&1; then
	skip "running as root and setpriv cannot run aesecb as another user: unreadable .txt files not tested"
elif [ -z "$priv" ] || command -v setpriv >/dev/null 2>&1; then
	cp "$V/quic-hp.txt" "$T/perm/hp.txt"
	chmod 000 "$T/perm/hp.txt"
	expect_status 4 $priv "$AESECB" verify -q -b none "$T/perm"
	expect_stderr_fixed "aesecb: verify: $T/perm/hp.txt: cannot open: "
	rm -f "$T/perm/hp.txt"
	chmod 000 "$T/perm/README.txt"
	expect_status 4 $priv "$AESECB" verify -q -b none "$T/perm"
	expect_stderr_fixed "aesecb: verify: $T/perm/README.txt: cannot open: "
	chmod 644 "$T/perm/README.txt"
	expect_status 0 $priv "$AESECB" verify -q -b none "$T/perm"
	expect_stdout_grep '^verify: 6/6 entries passed'
else
	skip "running as root without setpriv: unreadable .txt files not tested"
fi
chmod 700 "$T"

# Write errors: status 4, worded as in encrypt and decrypt.
if [ -w /dev/full ]; then
	expect_status 4 sh -c '"$AESECB" verify -b none "$1" >/dev/full' sh "$V"
	expect_stderr_fixed "aesecb: verify: cannot write stdout: "
	expect_status 4 sh -c '"$AESECB" verify --help >/dev/full'
	expect_stderr_fixed "aesecb: verify: cannot write stdout: "
else
	skip "/dev/full not available: write errors not tested"
fi

# ------------------------------------------------------------------
# --random: every available backend must agree on random cases; the seed
# is printed and replays the same cases.
expect_status 0 "$AESECB" verify --random 300 --seed 42
expect_stdout_grep '^backend  *RANDOM  *total'
expect_stdout_grep '^random: 300 cases, seed 42$'
expect_stdout_grep "^verify: 300/300 entries passed under $navail backend"
for b in $avail; do
	expect_stdout_grep "^$b  *300/300 "
done
expect_status 0 "$AESECB" verify -q --random 50
seed=$(sed -n 's/^random: 50 cases, seed \([0-9][0-9]*\)$/\1/p' "$T/out")
if [ -n "$seed" ]; then
	pass "the seed chosen is printed ($seed)"
	expect_status 0 "$AESECB" verify -q --random 50 --seed "$seed"
	expect_stdout_grep "^random: 50 cases, seed $seed\$"
else
	fail "no seed printed: $(cat "$T/out")"
fi
# the same seed, the same cases: the JSON reports agree but for times
expect_status 0 "$AESECB" verify --json -b none --random 100 --seed 7
sed 's/"seconds": [0-9.]*//' "$T/out" >"$T/r1.json"
expect_status 0 "$AESECB" verify --json -b none --random 100 --seed 7
sed 's/"seconds": [0-9.]*//' "$T/out" >"$T/r2.json"
expect_same_file "$T/r1.json" "$T/r2.json"
expect_stdout_grep '"random": {"cases": 100, "seed": 7}'
expect_stdout_grep '"RANDOM": {"passed": 100, "total": 100}'
# with vector files too
expect_status 0 "$AESECB" verify -q --random 20 --seed 1 "$V/fips197.rsp"
expect_stdout_grep '^verify: 26/26 entries passed'
expect_status 2 "$AESECB" verify --seed 3 "$V"
expect_stderr_fixed "--seed needs --random"
expect_status 2 "$AESECB" verify --random x
expect_status 2 "$AESECB" verify --random 10 --seed -1
expect_status 2 "$AESECB" verify --random 10 --seed 18446744073709551616

# ------------------------------------------------------------------
# Memory stays flat: a generated file of 100000 entries, every one wrong,
# is checked in about the memory of a 6-entry file (entries are checked
# as they are read; only the first 10 failures are kept).
if ASAN_OPTIONS=help=1 "$AESECB" --version 2>&1 | grep -q AddressSanitizer; then
	# its allocator keeps freed memory in quarantine: RSS grows by design
	skip "memory on a large file: not measurable in an AddressSanitizer build"
elif command -v python3 >/dev/null 2>&1; then
	python3 - "$T/big.rsp" <<'PY'
import random, sys
r = random.Random(1)
with open(sys.argv[1], "w") as f:
    f.write("# generated: every CIPHERTEXT is wrong\n\n[ENCRYPT]\n\n")
    for i in range(100000):
        f.write("COUNT = %d\nKEY = %s\nPLAINTEXT = %s\nCIPHERTEXT = %s\n\n"
                % (i, "%032x" % r.getrandbits(128),
                   "%0128x" % r.getrandbits(512),
                   "%0128x" % r.getrandbits(512)))
PY
	cat >"$T/rss.py" <<'PY'
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)
sys.stderr.buffer.write(p.stderr)
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
	small=$(python3 "$T/rss.py" "$AESECB" verify -b none "$V/fips197.rsp" 2>/dev/null)
	big=$(python3 "$T/rss.py" "$AESECB" verify --json -b none "$T/big.rsp" 2>"$T/big.err")
	note "max RSS (KiB): 6 entries: ${small#* }, 100000 entries: ${big#* }"
	if [ "${big% *}" = 1 ] && [ "${small% *}" = 0 ] &&
	   [ $((${big#* } - ${small#* })) -lt 4096 ]; then
		pass "100000 failing entries checked in flat memory"
	else
		fail "memory grows with the file: exit/RSS '$small' then '$big'"
	fi
	if [ "$(grep -c 'under none: ' "$T/big.err")" -eq 10 ] &&
	   grep -q '99990 more failures under none not shown' "$T/big.err"; then
		pass "10 failures shown, the rest counted"
	else
		fail "failures shown: $(grep -c 'under none: ' "$T/big.err"); $(tail -n 1 "$T/big.err")"
	fi
	rm -f "$T/big.rsp"
else
	skip "python3 not found: memory on a large file not measured"
fi

# The NIST CAVP ECB set is checked by tests/cli-verify-cavp.sh, a test of
# its own, so that it shows up as SKIP in the summary when CAVP_DIR is not
# given.
finish
