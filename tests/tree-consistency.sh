#!/bin/sh
# SPDX-License-Identifier: MIT
# tree-consistency.sh - what the tree says about itself holds:
#   - the layout in HACKING.md names every source file of lib/, cli/,
#     bench/ and tests/ exactly once (an entry may be a pattern such as
#     cli/common/hex.[ch] or tests/check_*.c), and no entry twice;
#   - configure.ac probes each pkg-config module once, and every
#     AM_CONDITIONAL it defines is used in Makefile.am.

. "${top_srcdir:-.}/tests/testlib.sh"

hk=$top_srcdir/HACKING.md
ca=$top_srcdir/configure.ac
mk=$top_srcdir/Makefile.am
for f in "$hk" "$ca" "$mk"; do
	[ -f "$f" ] || { fail "$f: no such file"; finish; }
done

# The layout block: the first word of each line that starts at column 0
# in the fenced block after "## Layout".
awk '/^## Layout/ { on = 1; next }
	on && /^```/ { if (in_block) exit; in_block = 1; next }
	in_block && /^[^ ]/ { w = $1; sub(/,$/, "", w); print w }' "$hk" >"$T/entries"
[ -s "$T/entries" ] || fail "HACKING.md: no layout block after '## Layout'"
sort "$T/entries" | uniq -d >"$T/twice"
while read -r e; do
	fail "HACKING.md lists $e more than once"
done <"$T/twice"

n=0
for f in "$top_srcdir"/lib/*.[ch] "$top_srcdir"/cli/*.[ch] "$top_srcdir"/cli/*/*.[ch] \
         "$top_srcdir"/bench/*.[ch] "$top_srcdir"/tests/*.c \
         "$top_srcdir"/tests/*.sh; do
	[ -f "$f" ] || continue
	rel=${f#"$top_srcdir"/}
	hits=0
	while read -r e; do
		# shellcheck disable=SC2254
		case $rel in
		$e) hits=$((hits + 1)) ;;
		esac
	done <"$T/entries"
	n=$((n + 1))
	case $hits in
	1) ;;
	0) fail "HACKING.md's layout does not name $rel" ;;
	*) fail "HACKING.md's layout names $rel $hits times" ;;
	esac
done
[ "$n" -gt 0 ] && pass "HACKING.md's layout checked against $n files"

# configure.ac: pkg-config modules probed once each
sed -n 's/^[ \t]*PKG_CHECK_MODULES(\[\([A-Z0-9_]*\)\], *\[\([^] ]*\).*/\1 \2/p' "$ca" >"$T/probes"
[ -s "$T/probes" ] || fail "no PKG_CHECK_MODULES found in configure.ac"
for col in 1 2; do
	cut -d' ' -f$col "$T/probes" | sort | uniq -d
done >"$T/dup"
while read -r d; do
	fail "configure.ac probes $d more than once"
done <"$T/dup"
[ -s "$T/dup" ] || pass "configure.ac probes each module once"

# every AM_CONDITIONAL is used
for c in $(sed -n 's/^[ \t]*AM_CONDITIONAL(\[\([A-Z0-9_]*\)\].*/\1/p' "$ca"); do
	if grep -q "^if !*$c\$" "$mk"; then
		pass "AM_CONDITIONAL $c is used"
	else
		fail "AM_CONDITIONAL $c is never used in Makefile.am"
	fi
done


# cli/'s folders use only those below them: common/ nothing else of the
# tool, quic/ and vectors/ common/ and themselves; only main.c and
# commands/ include commands/.
nl=0
for d in common quic vectors; do
	for f in "$top_srcdir"/cli/$d/*.[ch]; do
		[ -f "$f" ] || continue
		nl=$((nl + 1))
		sed -n 's/^#include "\([a-z_]*\)\/.*/\1/p' "$f" | sort -u >"$T/uses"
		while read -r u; do
			case $d/$u in
			common/common | quic/common | quic/quic | vectors/common | vectors/vectors) ;;
			*) fail "${f#"$top_srcdir"/} includes $u/, above or beside its folder" ;;
			esac
		done <"$T/uses"
	done
done
[ "$nl" -gt 0 ] && pass "cli/'s folders include only the folders below them ($nl files)"
finish
