#!/bin/sh
# SPDX-License-Identifier: MIT
# backend-lists.sh - every list of backends written for people is the
# library's list.  lib/backends.def is the one list: the library's table,
# configure and the man pages' lists are made from it.  This checks
#   - the library's backends (names, order, architectures, as
#     tests/list_backends prints them from the public functions) are the
#     rows of lib/backends.def as tools/backends.sh reads them;
#   - the man pages this build made are what their templates and the list
#     make now, with no template word left, and aesecb(3)'s backend
#     paragraphs and count are the library's backends;
#   - no backend list is written by hand: in the man page templates,
#     README.md and HACKING.md, no run of backend names (each within a
#     dozen words of the last) names none and every backend of an
#     architecture (outside README's tables), and README's two tables (the backends; the platforms and the backends each
#     builds) hold the library's backends, in its order.

. "${top_srcdir:-.}/tests/testlib.sh"

def=$top_srcdir/lib/backends.def
gen=$top_srcdir/tools/backends.sh
prog=$top_builddir/tests/list_backends${EXEEXT:-}

# --- the library against the list -----------------------------------
if ! sh "$gen" list "$def" >"$T/def" 2>"$T/err"; then
	fail "tools/backends.sh cannot read lib/backends.def: $(cat "$T/err")"
	finish
fi
# shellcheck disable=SC2086
if ! ${TEST_EMULATOR:-} "$prog" >"$T/lib" 2>"$T/err"; then
	fail "tests/list_backends failed: $(cat "$T/err")"
	finish
fi
tr -d '\r' <"$T/lib" >"$T/lib.u" && mv "$T/lib.u" "$T/lib"
names=$(cut -d' ' -f1 "$T/lib" | tr '\n' ' ')
names=${names% }
defnames=$(cut -f1 "$T/def" | tr '\n' ' ')
defnames=${defnames% }
if [ "$names" = "$defnames" ]; then
	pass "the library's backends are lib/backends.def's: $names"
else
	fail "the library lists '$names', lib/backends.def '$defnames'"
fi
# architectures: the list's x86 is x86_64 or x86, as the build is
cut -f1,2 "$T/def" | tr '\t' ' ' >"$T/defarch"
while read -r n a; do
	want=$(awk -v n="$n" '$1 == n { print $2 }' "$T/defarch")
	case $want:$a in
	x86:x86_64|x86:x86|"$a:$a") ;;
	*) fail "backend $n: the library says architecture $a, lib/backends.def $want" ;;
	esac
done <"$T/lib"
pass "each backend's architecture is its row's"

# --- the man pages --------------------------------------------------
for page in ${MAN_PAGES:-man/aesecb.3}; do
	built=$top_builddir/$page
	if [ ! -f "$built" ]; then
		fail "$page: not built"
		continue
	fi
	if ! sh "$gen" man "$def" <"$top_srcdir/$page.in" >"$T/page" 2>"$T/err"; then
		fail "$page.in: $(cat "$T/err")"
		continue
	fi
	if cmp -s "$T/page" "$built"; then
		pass "$page is what $page.in and lib/backends.def make"
	else
		fail "$page is out of date: make it again from $page.in"
	fi
	if grep -n '^@@\|@[A-Z0-9_]*@' "$built" >"$T/left"; then
		fail "$page: template words left: $(head -n 3 "$T/left")"
	fi
done

# aesecb(3): the backend paragraphs of DESCRIPTION and the count
page3=$top_builddir/man/aesecb.3
if [ -f "$page3" ]; then
	got=$(awk '/^\.SH / { on = ($2 == "DESCRIPTION") ; next }
		/^\.SS / { on = 0 }
		on && prev ~ /^\.TP/ && /^\.B / { printf "%s%s", sep, $2; sep = " " }
		{ prev = $0 }' "$page3")
	if [ "$got" = "$names" ]; then
		pass "aesecb(3) describes the library's backends, in its order"
	else
		fail "aesecb(3) describes '$got', the library has '$names'"
	fi
	n=$(wc -l <"$T/lib" | tr -d ' ')
	if grep -q "^in this version $n:\$" "$page3"; then
		pass "aesecb(3) counts $n backends"
	else
		fail "aesecb(3) does not say the library knows $n backends"
	fi
fi

# --- lists written by hand ------------------------------------------
# A run of backend names, each within 12 words of the one before, that
# names none and every backend of an architecture is a list of backends
# written by hand (naming a few backends for what they have in common is
# not).  Lines of README's tables (checked below) and template lines (@@)
# are not read.
pairs=$(cut -f1,2 "$T/def" | tr '\t' ':' | tr '\n' ' ')
for f in man/aesecb.1.in man/aesecb.3.in README.md HACKING.md; do
	awk -v pairs="$pairs" -v file="$f" '
	BEGIN {
		np = split(pairs, p, " ")
		for (i = 1; i <= np; i++) {
			split(p[i], q, ":"); arch[q[1]] = q[2]; nm[i] = q[1]
		}
		# the architectures, each with the backends built for it
		nf = split("x86_64 x86 aarch64 arm ppc64", fam, " ")
		for (i = 1; i <= np; i++) {
			a = arch[nm[i]]
			if (a == "any") continue
			known = 0
			for (j = 1; j <= nf; j++)
				if (a == fam[j] || (a == "x86" && fam[j] == "x86_64")) {
					members[j] = members[j] " " nm[i]; known = 1
				}
			if (!known) { fam[++nf] = a; members[nf] = " " nm[i] }
		}
	}
	function complete(    j, k, n, m) {
		if (!("none" in run)) return 0
		for (j = 1; j <= nf; j++) {
			if (members[j] == "") continue
			n = split(members[j], m, " ")
			for (k = 1; k <= n; k++) if (!(m[k] in run)) break
			if (k > n) return 1
		}
		return 0
	}
	/^@@/ || (file == "README.md" && /^\|/) { next }
	{
		nt = split($0, w, /[^A-Za-z0-9_]+/)
		for (i = 1; i <= nt; i++) {
			if (w[i] == "") continue
			pos++
			if (!(w[i] in arch)) continue
			if (pos - last >= 12) { split("", run); told = 0 }
			last = pos
			run[w[i]] = 1
			if (!told && complete()) {
				told = 1
				print file ":" NR ": " $0
			}
		}
	}' "$top_srcdir/$f" >"$T/hand"
	if [ -s "$T/hand" ]; then
		while read -r line; do
			fail "a backend list written by hand (take it from lib/backends.def): $line"
		done <"$T/hand"
	else
		pass "$f: no backend list written by hand"
	fi
done

# README.md: the backend table, and each platform's backends
readme=$top_srcdir/README.md
got=$(awk '/^## Backends/ { on = 1; next } /^## / { on = 0 }
	on && /^\| `[a-z0-9]*` \|/ { n = $2; gsub(/`/, "", n); printf "%s%s", sep, n; sep = " " }' "$readme")
if [ "$got" = "$names" ]; then
	pass "README.md's backend table is the library's list"
else
	fail "README.md's backend table has '$got', the library '$names'"
fi
awk -F '|' '/^## Platforms/ { on = 1; next } /^## / { on = 0 }
	on && /^\| / && $2 !~ /architecture|---/ { print $2 "|" $3 }' "$readme" >"$T/platforms"
[ -s "$T/platforms" ] || fail "README.md: no platform table under '## Platforms'"
while IFS='|' read -r label listed; do
	case $label in
	*amd64*|*"Windows x64"*) archs="x86 x86_64" ;;
	*i386*) archs="x86" ;;
	*arm64*) archs="aarch64" ;;
	*armhf*) archs="arm" ;;
	*ppc64el*) archs="ppc64" ;;
	*) archs="" ;;
	esac
	want=$(awk -v archs=" $archs " -F '\t' '
		$2 == "any" || index(archs, " " $2 " ") { printf "%s%s", sep, $1; sep = ", " }' "$T/def")
	listed=$(echo "$listed" | sed 's/^ *//; s/ *$//')
	label=$(echo "$label" | sed 's/^ *//; s/ *$//')
	if [ "$listed" = "$want" ]; then
		pass "README.md: $label builds $want"
	else
		fail "README.md: $label lists '$listed', lib/backends.def gives '$want'"
	fi
done <"$T/platforms"

finish
