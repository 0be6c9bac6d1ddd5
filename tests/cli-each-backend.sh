#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-each-backend.sh - rerun the command-line tests once per backend this
# machine can run (AESECB_BACKEND=NAME), and report the ones it cannot run
# as skipped, with the reason.

. "${top_srcdir:-.}/tests/testlib.sh"

scripts="cli-crypt.sh cli-hpmask.sh cli-hpmask-packets.sh"
key=000102030405060708090a0b0c0d0e0f
printf '00112233445566778899aabbccddeeff\n' >"$T/block"

# The backend names and what the listing says about each: the helper's.
names=$(backends)
available=$(backends available)

# What the listing says about backend $1: true or false.
listed_available() {
	case " $available " in
	*" $1 "*) echo true ;;
	*) echo false ;;
	esac
}

# Which backends run here: ask the command itself, one block each.  Exit 3
# means unknown or unavailable, and its message says why.
ran=
skipped=
for b in $names; do
	run "$AESECB" encrypt -x -b "$b" -k $key -i "$T/block"
	listed=$(listed_available "$b")
	case $rc:$listed in
	0:false) fail "backend $b runs, but 'aesecb backends' says it is not available" ;;
	3:true)  fail "backend $b does not run, but 'aesecb backends' says it is available" ;;
	esac
	case $rc in
	0)
		if [ "$(cat "$T/out")" = 69c4e0d86a7b0430d8cdb78070b4c55a ]; then
			pass "backend $b encrypts the FIPS-197 C.1 block"
		else
			fail "backend $b: FIPS-197 C.1 gave $(cat "$T/out")"
			continue
		fi
		;;
	3)
		why=$(sed -e 's/^aesecb: encrypt: //' "$T/err" | head -n 1)
		if [ "$b" = none ]; then
			fail "backend none must always run: $why"
		else
			skip "backend $b: $why"
			skipped="$skipped $b"
		fi
		continue
		;;
	*)
		fail "encrypt -b $b: exit $rc: $(head -n 1 "$T/err")"
		continue
		;;
	esac
	# a backend that runs must be one the build says it compiled
	case " $BUILT_BACKENDS " in
	"  ") ;;
	*" $b "*) ;;
	*) fail "backend $b runs but is not in BUILT_BACKENDS ($BUILT_BACKENDS)" ;;
	esac

	for s in $scripts; do
		path=$top_srcdir/tests/$s
		if [ ! -f "$path" ]; then
			skip "$s under $b: no such script"
			continue
		fi
		note "=== $s with AESECB_BACKEND=$b ==="
		AESECB_BACKEND=$b sh "$path" >"$T/log" 2>&1
		st=$?
		sed 's/^/    /' "$T/log"
		case $st in
		0)  pass "$s under backend $b" ;;
		77) skip "$s under backend $b: the script skipped" ;;
		*)  fail "$s under backend $b: exit $st" ;;
		esac
	done
	ran="$ran $b"
done

note "backends tested:${ran:- none}"
note "backends skipped:${skipped:- none}"
finish
