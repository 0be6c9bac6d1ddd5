#!/bin/sh
# SPDX-License-Identifier: MIT
# ct-quicpp.sh - constant-time check of the tool's packet protection:
# tests/ct_quicpp under valgrind's memcheck (see the program).  Skips
# (exit 77) without valgrind or <valgrind/memcheck.h>, and under an
# emulator.
builddir=${top_builddir:-.}
prog=$builddir/tests/ct_quicpp

if [ -n "${TEST_EMULATOR:-}" ]; then
	echo "SKIP: valgrind cannot run under $TEST_EMULATOR"
	exit 77
fi
if [ -z "${VALGRIND:-}" ] || ! command -v "$VALGRIND" >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed (Debian package valgrind)"
	exit 77
fi
probe=$("$prog" 2>&1)
case $probe in
ready:*) ;;
SKIP:*)	echo "$probe"; exit 77 ;;
*)	echo "FAIL: $prog outside valgrind: $probe"; exit 1 ;;
esac
run=$VALGRIND
[ -f "$builddir/libtool" ] && run="$builddir/libtool --mode=execute $VALGRIND"
# shellcheck disable=SC2086
out=$($run -q "$prog" 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q 'debuginfo reader'; then
	# valgrind 3.19 and clang 14's DWARF 5: a copy without debug info
	real=$builddir/tests/.libs/ct_quicpp
	[ -f "$real" ] || real=$prog
	tmp=${TMPDIR:-/tmp}/ct-quicpp.$$
	trap 'rm -f "$tmp"' EXIT HUP INT TERM
	${OBJCOPY:-objcopy} --strip-debug "$real" "$tmp" || exit 1
	out=$($VALGRIND -q "$tmp" 2>&1)
	rc=$?
fi
echo "$out"
exit $rc
