#!/bin/sh
# SPDX-License-Identifier: MIT
# ct-valgrind.sh - constant-time check: tests/ct_valgrind under memcheck.
#
# 1. The library, every available backend, with key, data and samples
#    marked undefined: memcheck must report no error (no branch and no
#    memory index that depends on them).
# 2. The self-test, a table-based AES round and an early-exit comparison
#    under the same marking: memcheck must report both kinds of error
#    there (address and branch), or the check proves nothing.
#
# Skips (exit 77) when valgrind or <valgrind/memcheck.h> is missing, and
# in cross builds run under an emulator (valgrind cannot run inside one).
# Environment: VALGRIND (the valgrind program, from configure),
# top_builddir, TEST_EMULATOR; CT_PROGRAM overrides the program to check
# (.ci/run points it at a statically linked 32-bit build).

builddir=${top_builddir:-.}
prog=${CT_PROGRAM:-$builddir/tests/ct_valgrind}

if [ -n "${TEST_EMULATOR:-}" ] && [ -z "${CT_PROGRAM:-}" ]; then
	echo "SKIP: valgrind cannot run under $TEST_EMULATOR"
	exit 77
fi
if [ -z "${VALGRIND:-}" ] || ! command -v "$VALGRIND" >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed (Debian package valgrind)"
	exit 77
fi
if [ ! -x "$prog" ]; then
	echo "FAIL: no program $prog"
	exit 1
fi

# Outside valgrind the program says whether it can be checked at all.
probe=$("$prog" 2>&1)
case $probe in
ready:*) ;;
SKIP:*)	echo "$probe"; exit 77 ;;
*)	echo "FAIL: $prog outside valgrind: $probe"; exit 1 ;;
esac

# A libtool wrapper script: run the real binary (valgrind would otherwise
# check the shell).
if [ -z "${CT_PROGRAM:-}" ] && [ -f "$builddir/libtool" ]; then
	run="$builddir/libtool --mode=execute $VALGRIND"
else
	run=$VALGRIND
fi

# Errors in the C library's start-up code of a static build are not the
# library's: there the program's own count (VALGRIND_COUNT_ERRORS around
# the library calls) decides, not valgrind's exit status.
errexit=--error-exitcode=1
[ -n "${CT_NO_ERROR_EXITCODE:-}" ] && errexit=

# valgrind 3.19's 32-bit x86 code generator runs out of room for the
# translation of a 60-instruction block of SSSE3 code (the ssse3
# backend's one-block rounds) under --track-origins and stops with an
# assertion ('tres.status == VexTransOK'); blocks of at most 50 guest
# instructions translate.  The block size changes what valgrind
# translates at once, not what memcheck checks.
opts="-q --track-origins=yes --vex-guest-max-insns=50"

tmp=${TMPDIR:-/tmp}/ct-valgrind.$$
trap 'rm -f "$tmp".*' EXIT HUP INT TERM
status=0

# shellcheck disable=SC2086
$run $opts $errexit "$prog" >"$tmp.out" 2>"$tmp.err"
rc=$?
# valgrind 3.19 cannot read the DWARF 5 debug information clang 14 writes
# by default, and gives up.  Then check a copy without debug information
# (errors still name the functions, from the symbol table); configure
# with CFLAGS='-gdwarf-4 ...' to get file and line numbers.
if grep -q 'debuginfo reader' "$tmp.err"; then
	echo "note: valgrind cannot read this build's debug information (DWARF 5?): checking a copy without it"
	if [ -n "${CT_PROGRAM:-}" ] || [ ! -f "$builddir/libtool" ]; then
		real=$prog
	else
		real=$(dirname "$prog")/.libs/$(basename "$prog")
		[ -f "$real" ] || real=$prog
	fi
	if ! ${OBJCOPY:-objcopy} --strip-debug "$real" "$tmp.nodebug"; then
		echo "FAIL: objcopy --strip-debug $real failed"
		exit 1
	fi
	prog=$tmp.nodebug
	run=$VALGRIND
	# shellcheck disable=SC2086
	$run $opts $errexit "$prog" >"$tmp.out" 2>"$tmp.err"
	rc=$?
fi
cat "$tmp.out"
bad=0
[ $rc -ne 0 ] && bad=1
if [ -z "${CT_NO_ERROR_EXITCODE:-}" ] &&
   grep -Eq 'Conditional jump or move depends on uninitialised|Use of uninitialised value of size' "$tmp.err"; then
	bad=1
fi
if grep -q '^valgrind: .*Assertion' "$tmp.err"; then
	cat "$tmp.err"
	echo "FAIL: library: valgrind stopped on an internal error of its own, so nothing was checked (exit $rc)"
	status=1
elif [ $bad -ne 0 ]; then
	cat "$tmp.err"
	echo "FAIL: library: memcheck found secret-dependent branches or addresses (exit $rc)"
	status=1
else
	echo "PASS: library: no secret-dependent branch or address"
fi

# shellcheck disable=SC2086
$run $opts --error-exitcode=1 "$prog" --table >"$tmp.out" 2>"$tmp.err"
rc=$?
cat "$tmp.out"
if [ $rc -ne 0 ] && grep -q 'Use of uninitialised value of size' "$tmp.err" &&
   grep -q 'Conditional jump or move depends on uninitialised' "$tmp.err" &&
   grep -q '^table-based AES round.*: [1-9][0-9]* memcheck error' "$tmp.out"; then
	extra=
	[ -n "${CT_NO_ERROR_EXITCODE:-}" ] && extra=", counting the C library's start-up code"
	echo "PASS: self-test: memcheck caught the leaky code ($(grep -c 'Use of uninitialised value of size' "$tmp.err") reports of secret addresses, $(grep -c 'Conditional jump or move depends' "$tmp.err") of secret branches$extra)"
else
	cat "$tmp.err"
	echo "FAIL: self-test: memcheck did not catch both the table look-ups and the early-exit comparison (exit $rc)"
	status=1
fi
exit $status
