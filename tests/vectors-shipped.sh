#!/bin/sh
# SPDX-License-Identifier: MIT
# vectors-shipped.sh - the vector files the project ships: vectors/cavp
# holds NIST's CAVP AES ECB values, entry for entry, when NIST's files are
# given (CAVP_DIR, configure --with-cavp=DIR); the shipped files are
# LF-only, carry the project's header and none of NIST's comment lines;
# tools/cavp-convert.sh writes the same bytes again; and no shipped vector
# file is a byte copy of a file in CAVP_DIR or of the published QUIC file
# next to it.

. "${top_srcdir:-.}/tests/testlib.sh"

V=$top_srcdir/vectors
NAMES=""
for kind in GFSbox KeySbox VarKey VarTxt MMT MCT; do
	for bits in 128 192 256; do
		NAMES="$NAMES ECB$kind$bits"
	done
done

# Checks that need no NIST file.
n=0
for name in $NAMES; do
	f=$V/cavp/$name.rsp.gz
	if [ ! -f "$f" ]; then
		fail "$f is missing"
		continue
	fi
	gzip -dc "$f" >"$T/ours" || { fail "$f: gzip -dc failed"; continue; }
	if grep -q "$(printf '\r')" "$T/ours"; then
		fail "$name: CR in the shipped file"
	fi
	if grep -q -e '^# CAVS' -e 'Config info' -e 'Generated on' "$T/ours"; then
		fail "$name: NIST's comment lines are in the shipped file"
	fi
	if ! grep -q '^# .*CAVP' "$T/ours"; then
		fail "$name: no header naming the source"
	fi
	n=$((n + $(grep -c '^COUNT = ' "$T/ours")))
done
if [ "$n" -eq 2738 ]; then
	pass "vectors/cavp: 18 files, 2738 entries"
else
	fail "vectors/cavp: $n entries, expected 2738"
fi

if [ -z "$CAVP_DIR" ]; then
	skip_all "CAVP_DIR not set (configure --with-cavp=DIR): shipped values not compared with NIST's files"
fi

# strip FILE: the data of a response file (CR and comment lines dropped)
strip() {
	gzip -dc -f "$1" | tr -d '\r' | grep -v '^#'
}

for name in $NAMES; do
	nist=$CAVP_DIR/$name.rsp.gz
	[ -f "$nist" ] || nist=$CAVP_DIR/$name.rsp
	if [ ! -f "$nist" ]; then
		fail "$CAVP_DIR: no $name.rsp(.gz)"
		continue
	fi
	strip "$nist" >"$T/nist"
	strip "$V/cavp/$name.rsp.gz" >"$T/ours"
	if cmp -s "$T/nist" "$T/ours"; then
		pass "$name: same entries and values as NIST's file"
	else
		fail "$name: differs from NIST's file"
		diff "$T/nist" "$T/ours" | head -n 5 | sed 's/^/#   /' >&2
	fi
	if cmp -s "$nist" "$V/cavp/$name.rsp.gz"; then
		fail "$name: the shipped file is a byte copy of NIST's"
	fi
done

# The converter gives the same bytes again (gzip -n: no name, no time).
if command -v gzip >/dev/null 2>&1 && [ -x "$top_srcdir/tools/cavp-convert.sh" ]; then
	if "$top_srcdir/tools/cavp-convert.sh" "$CAVP_DIR" "$T/conv" 2>"$T/err"; then
		same=1
		for name in $NAMES; do
			cmp -s "$T/conv/$name.rsp.gz" "$V/cavp/$name.rsp.gz" || {
				same=0
				fail "$name: tools/cavp-convert.sh writes other bytes"
			}
		done
		[ "$same" -eq 0 ] || pass "tools/cavp-convert.sh reproduces vectors/cavp"
	else
		fail "tools/cavp-convert.sh failed: $(head -n 1 "$T/err")"
	fi
fi

# No shipped vector file is a copy of a published one.
for f in "$V"/*.rsp "$V"/*.txt "$V"/cavp/*; do
	for g in "$CAVP_DIR"/* "$CAVP_DIR"/../quic/*; do
		[ -f "$g" ] || continue
		if cmp -s "$f" "$g"; then
			fail "$f is a byte copy of $g"
		fi
	done
done
pass "no shipped vector file is a byte copy of a published one"
finish
