#!/bin/sh
# SPDX-License-Identifier: MIT
# man-links.sh - every function declared in <aesecb.h> has its manual page
# name: a link page man/NAME.3 (".so man3/aesecb.3", written at build time)
# listed in Makefile.am, and NAME in the NAME section of aesecb(3), so that
# "man NAME" works and whatis/apropos find it.  A new public function
# without them fails here.

. "${top_srcdir:-.}/tests/testlib.sh"

hdr=$top_srcdir/lib/aesecb.h
page=${top_builddir:-.}/man/aesecb.3
mk=$top_srcdir/Makefile.am
for f in "$hdr" "$page" "$mk"; do
	[ -f "$f" ] || { fail "$f: no such file"; finish; }
done

# Function names declared in the header, comments removed first (they
# mention functions in prose).
awk '{
	line = $0; out = ""
	while (line != "") {
		if (incomment) {
			i = index(line, "*/")
			if (i == 0) { line = ""; break }
			line = substr(line, i + 2); incomment = 0
		} else {
			i = index(line, "/*")
			if (i == 0) { out = out line; line = ""; break }
			out = out substr(line, 1, i - 1) " "
			line = substr(line, i + 2); incomment = 1
		}
	}
	print out
}' "$hdr" | grep -o 'aesecb_[a-z0-9_]*[[:space:]]*(' | sed 's/[[:space:](]//g' |
	sort -u >"$T/functions"

n=$(wc -l <"$T/functions")
if [ "$n" -lt 10 ]; then
	fail "found only $n function declarations in $hdr (parser broken?)"
	finish
fi
note "$n functions declared in lib/aesecb.h"

# The names in the NAME section of aesecb.3 (up to the "\-" description).
sed -n '/^\.SH NAME/,/^\.SH /p' "$page" | sed '1d;$d' |
	sed 's/\\-.*//' | tr ',' ' ' | tr -s ' ' '\n' | grep '^aesecb_' | sort -u >"$T/names"

while read -r fn; do
	if grep -q "man/$fn\\.3\\([[:space:]]\\|\$\\)" "$mk"; then
		pass "$fn: man/$fn.3 is built and installed (Makefile.am)"
	else
		fail "$fn: man/$fn.3 is not listed in Makefile.am (AESECB_MAN3_LINKS)"
	fi
	if grep -qx "$fn" "$T/names"; then
		pass "$fn: in the NAME section of aesecb(3)"
	else
		fail "$fn: missing from the NAME section of man/aesecb.3"
	fi
	built=${top_builddir:-.}/man/$fn.3
	if [ -f "$built" ] && [ "$(cat "$built")" != ".so man3/aesecb.3" ]; then
		fail "$fn: the built man/$fn.3 is not \".so man3/aesecb.3\""
	fi
done <"$T/functions"

# Every listed link page points at a name aesecb(3) lists.
for fn in $(grep -o 'man/aesecb_[a-z0-9_]*\.3' "$mk" | sed 's|man/||; s|\.3$||' | sort -u); do
	grep -qx "$fn" "$T/names" ||
		fail "man/$fn.3 is listed but $fn is not in the NAME section of man/aesecb.3"
	grep -qx "$fn" "$T/functions" ||
		note "man/$fn.3: $fn is not declared in lib/aesecb.h (yet)"
done

finish
