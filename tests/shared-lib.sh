#!/bin/sh
# SPDX-License-Identifier: MIT
# shared-lib.sh - a program linked against the built libaesecb
# (tests/shared_client: the shared library; on Windows the DLL) gives the
# published answers, FIPS-197 C.1 and C.3 and the RFC 9001 A.2 mask, under
# every backend this CPU runs.  The answers are compared here, not in the
# program: one that did not run at all (an emulator that exits 0 without
# loading it, as wine does with an executable it cannot load) prints
# nothing and fails.  Works natively and under TEST_EMULATOR.

. "${top_srcdir:-.}/tests/testlib.sh"

# FIPS-197 C.1 and C.3 (keys 000102..., plaintext 00112233...); the mask
# of RFC 9001 A.2 (tests/rfc9001.sh)
want="aes128 69c4e0d86a7b0430d8cdb78070b4c55a aes256 8ea2b7ca516745bfeafc49904b496089 decrypt 00112233445566778899aabbccddeeff hp $RFC9001_MASK"

dir=$top_builddir/tests
prog=$dir/shared_client${EXEEXT:-}
[ -f "$prog" ] || { fail "no program $prog (make check builds it)"; finish; }
# On ELF hosts libtool's wrapper is a shell script, which an emulator
# cannot run: there the program behind it, with the build's library on
# the search path.  Windows' wrapper is a program, run as it is.
if [ -n "${TEST_EMULATOR:-}" ] && [ -z "${EXEEXT:-}" ] &&
   [ -f "$dir/.libs/shared_client" ] &&
   sed -n 1,5p "$prog" | grep -q 'temporary wrapper script'; then
	LD_LIBRARY_PATH=$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	prog=$dir/.libs/shared_client
fi
# shellcheck disable=SC2086
run ${TEST_EMULATOR:-} "$prog"
[ "$rc" -eq 0 ] || { fail "$prog: exit $rc"; testlib_show; }
# (a Windows console program ends its lines with CR LF)
tr -d '\r' <"$T/out" >"$T/lines"

ran=
while read -r kind name rest; do
	case $kind in
	backend)
		ran="$ran $name"
		if [ "$rest" = "$want" ]; then
			pass "$name: the published answers"
		else
			fail "$name: $rest; expected $want"
		fi ;;
	unavailable)
		skip "backend ${name%:}: $rest" ;;
	*)
		fail "unexpected output: $kind $name $rest" ;;
	esac
done <"$T/lines"
[ -n "$ran" ] || fail "$prog printed no answer: did it run?"
case "$ran " in
*" none "*) ;;
*) fail "no answer from the portable backend none" ;;
esac
echo "backends run:$ran"
finish
