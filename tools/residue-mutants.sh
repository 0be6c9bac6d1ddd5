#!/bin/bash
# SPDX-License-Identifier: MIT
#
# residue-mutants.sh BUILDDIR [PATTERN]
#
# Shows that the tests of what the library leaves behind can fail: each
# wipe, stack mark, burn and register clearing in the library's sources is
# deleted in turn (one mutant per call site), the library rebuilt with it
# and tests/check_residue, tests/check_residue_misaligned,
# tests/check_ctx_free and tests/check_lib run against it.  A mutant is
# KILLED when one of them fails, SURVIVED when all pass.  A site that
# compiles to the same object with the call deleted (code this build or
# architecture leaves out: another architecture's backend, a stack mark
# made only in unoptimised builds, AESECB_MARK_UNOPTIMISED) is reported
# as "not in this build" and not run.
#
# BUILDDIR is a configured build tree of this source (any configure
# options, native or cross: its compiler, flags, config.h and
# TEST_EMULATOR are used; nothing in it is rebuilt or changed but its
# folder 'mutants').  PATTERN, an extended regular expression, keeps only
# the sites whose "file:line: text" matches it.
#
# The sites are the statements in the library's sources (the build's own
# list, lib_libaesecb_core_la_SOURCES) that begin with a call of
# aesecb_wipe, aesecb__stack_mark, AESECB_MARK_UNOPTIMISED or
# clear_registers; the call is replaced by ((void)0), its arguments
# included.
#
# A few sites are known to be equivalent, always or in some builds (see
# 'equivalent' below, with the reasons): they are run, and reported as
# EQUIVALENT when they survive; one listed as always equivalent that a
# test kills is an error (the reason given no longer holds).
#
# RESIDUE_MUTANTS_RUN, when set, replaces the build's TEST_EMULATOR (for
# example "qemu-x86_64 -cpu Westmere", where aesni's one-block functions
# take an aligned copy of a misaligned context).
#
# Exit status: 0 when every mutant in the build was killed (or is a known
# equivalent), 1 when one survived, 2 on a usage or build error.  A few seconds per mutant
# natively (each one rebuilds one file twice, links four programs and runs
# them); under qemu more.
set -u

die() { echo "residue-mutants: $*" >&2; exit 2; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 BUILDDIR [PATTERN]"
build=$(cd "$1" 2>/dev/null && pwd) || die "$1: no such folder"
pattern=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$build/Makefile" ] && [ -f "$build/config.h" ] ||
	die "$build: not a configured build tree (no Makefile or config.h)"

work=$build/mutants
rm -rf "$work"
mkdir -p "$work/lib" "$work/base" "$work/base-mis" "$work/obj" \
	"$work/obj-mis" "$work/bin" || die "cannot create $work"

# the build's own settings
printf 'print-%%: ; @printf "%%s\\n" "$($*)"\n' >"$work/print.mk"
make -s -C "$build" Makefile >/dev/null 2>&1   # up to date first, quietly
var() { make -s --no-print-directory -C "$build" -f Makefile -f "$work/print.mk" "print-$1"; }
CC=$(var CC)
CFLAGS=$(var CFLAGS)
CPPFLAGS=$(var CPPFLAGS)
LDFLAGS=$(var LDFLAGS)
LIBS=$(var LIBS)
CHECK_CFLAGS=$(var CHECK_CFLAGS)
CHECK_LIBS=$(var CHECK_LIBS)
NO_SANITIZE_ALIGNMENT=$(var NO_SANITIZE_ALIGNMENT)
WRAP_DEFS=$(var CTX_FREE_WRAP_DEFS)
WRAP_LINK=$(var CTX_FREE_WRAP_LINK)
EMULATOR=${RESIDUE_MUTANTS_RUN-$(var TEST_EMULATOR)}
EXEEXT=$(var EXEEXT)
sources=$(var lib_libaesecb_core_la_SOURCES)
[ -n "$CC" ] && [ -n "$sources" ] || die "$build/Makefile: no CC or library sources"

# The library's sources are copied into $work/lib and compiled from there,
# the mutants too, so that an object differs from the original only where
# the code does (the debug information names the same file).
cp "$src"/lib/*.c "$src"/lib/*.h "$src"/lib/*.def "$work/lib/" || die "cannot copy $src/lib"
csrc=
for f in $sources; do
	case $f in lib/*.c) csrc="$csrc ${f#lib/}" ;; esac
done

# shellcheck disable=SC2086
cc_lib() {  # FILE.c OUTDIR [misaligned]
	local extra=
	[ "${3:-}" = misaligned ] && extra="-DAESECB_TEST_MISALIGNED $NO_SANITIZE_ALIGNMENT"
	(cd "$work" && $CC -DHAVE_CONFIG_H -I"$work/lib" -I"$build" $CPPFLAGS \
		-D'MUTANT_DELETED(...)=((void)0)' $CFLAGS $extra \
		-c -o "$2/${1%.c}.o" "lib/$1")
}
# shellcheck disable=SC2086
cc_test() {  # NAME.c OUT.o EXTRA...
	local f=$1 o=$2
	shift 2
	$CC -DHAVE_CONFIG_H -I"$src/lib" -I"$build" $CPPFLAGS $CFLAGS "$@" \
		-c -o "$o" "$src/tests/$f"
}

echo "residue-mutants: $CC $CFLAGS ${EMULATOR:+(run under $EMULATOR)}"
for f in $csrc; do
	cc_lib "$f" "$work/base" && cc_lib "$f" "$work/base-mis" misaligned ||
		die "building lib/$f failed"
done
cc_test check_residue.c "$work/residue.o" &&
	cc_test check_residue.c "$work/residue-mis.o" -DAESECB_TEST_MISALIGNED \
		$NO_SANITIZE_ALIGNMENT &&
	cc_test check_ctx_free.c "$work/ctx_free.o" $WRAP_DEFS &&
	cc_test check_lib.c "$work/check_lib.o" $CHECK_CFLAGS ||
	die "building the tests failed"

# shellcheck disable=SC2086
link_all() {  # OBJDIR OBJDIR-MISALIGNED
	local b=$work/bin
	$CC $CFLAGS $LDFLAGS -o "$b/check_residue$EXEEXT" "$work/residue.o" \
		"$1"/*.o $LIBS &&
	$CC $CFLAGS $LDFLAGS -o "$b/check_residue_misaligned$EXEEXT" \
		"$work/residue-mis.o" "$2"/*.o $LIBS &&
	$CC $CFLAGS $LDFLAGS $WRAP_LINK -o "$b/check_ctx_free$EXEEXT" \
		"$work/ctx_free.o" "$1"/*.o $LIBS &&
	$CC $CFLAGS $LDFLAGS -o "$b/check_lib$EXEEXT" "$work/check_lib.o" \
		"$1"/*.o $CHECK_LIBS $LIBS
}

# Runs the four tests; prints the failing ones with their first failure
# line, or nothing.  A test that cannot run (exit 77) fails the baseline.
tests="check_residue check_residue_misaligned check_ctx_free check_lib"
run_all() {
	local t out rc first
	for t in $tests; do
		# shellcheck disable=SC2086
		out=$(CK_VERBOSITY=minimal CK_FORK=yes timeout 600 \
			$EMULATOR "$work/bin/$t$EXEEXT" 2>&1)
		rc=$?
		[ $rc = 0 ] && continue
		first=$(grep -m 1 -E '(FAIL|Failure|failed|:[EF]:)' <<<"$out" | cut -c 1-160)
		echo "$t (exit $rc, $(grep -c -E '^FAIL: backend [^:]+: ' <<<"$out") FAIL lines): ${first:-$(tail -n 1 <<<"$out")}"
	done
}

link_all "$work/base" "$work/base-mis" || die "linking the tests failed"
bad=$(run_all)
[ -z "$bad" ] || { echo "$bad"; die "the tests fail without any mutant"; }
skipped=$(CK_VERBOSITY=silent $EMULATOR "$work/bin/check_residue$EXEEXT" 2>&1 |
	sed -n 's/^SKIP: backend \([^:]*\):.*/\1/p' | tr '\n' ' ')
echo "original: the four tests pass${skipped:+; backends not available here: $skipped}"

# The sites known to be equivalent, as "FILE FUNCTION TEXT #N" (the Nth
# site with that text in that function): "always|why" for a deletion no
# call can show in any build (an error if a test fails), "here|why" for
# one that some builds or CPUs cannot show (killed elsewhere).
equivalent() {
	case $1 in
	"lib/aesecb.c aesecb_init aesecb_wipe(ctx, sizeof *ctx); #2")
		echo "always|aesecb_init wipes the context before init_checked, which writes to it only after every check has passed, and key setup cannot fail: no failure finds anything to wipe (kept so that a check added later cannot leave a half-set context)" ;;
	"lib/backend_none.c expand_key aesecb_wipe(ks + KEY_WORDS(rounds), sizeof ctx->priv_keys.b - #1")
		echo "always|aesecb_init wiped the whole context before key setup: the tail beyond this key's schedule is already zero (kept so that the key schedule does not rely on its caller for it)" ;;
	"lib/backend_aesni.c via_aligned_copy aesecb_wipe(&copy, sizeof copy); #1")
		echo "here|in an unoptimised build every call is burned and the burn covers the copy; an optimised build calls the block functions directly, and there the deletion fails check_residue_misaligned" ;;
	"lib/backend_aesni.c one_via_aligned_copy aesecb_wipe(&copy, sizeof copy); #1")
		echo "here|reached only by an optimised build on a CPU without AVX (aesni's legacy encoding): there the deletion fails check_residue_misaligned; run with RESIDUE_MUTANTS_RUN='qemu-x86_64 -cpu Westmere' (or qemu-i386)" ;;
	"lib/backend_ssse3.c bulk aesecb__stack_mark(stk); #1")
		echo "here|the mark of ssse3's bulk functions (BULK): in an unoptimised build their groups of blocks always run first, through unopt_enc or unopt_dec, whose frames lie below and are marked, so the burn covers these frames anyway; an optimised build runs the groups inline, and there the deletion fails check_residue" ;;
	*) return 1 ;;
	esac
}

# The function a line of FILE is in: the last line before it that starts
# a definition at the left margin (not a directive), its first name
# followed by '(' other than __attribute__.
function_at() {  # FILE LINE
	awk -v n="$2" 'NR >= n { exit }
		/^[A-Za-z_]/ && !/;[[:space:]]*$/ && /\(/ {
			s = $0
			while (match(s, /[A-Za-z_][A-Za-z0-9_]*\(/)) {
				w = substr(s, RSTART, RLENGTH - 1)
				s = substr(s, RSTART + RLENGTH)
				if (w != "__attribute__") { f = w; break }
			}
		}
		END { print f }' "$1"
}

cp -r "$work/base/." "$work/obj/"
cp -r "$work/base-mis/." "$work/obj-mis/"
killed=0 survived=0 absent=0 equiv=0
declare -A seen
for f in $csrc; do
	sites=$(grep -n -E '^[[:space:]]*(aesecb_wipe|aesecb__stack_mark|AESECB_MARK_UNOPTIMISED|clear_registers)\(' \
		"$src/lib/$f" | cut -d: -f1)
	for line in $sites; do
		text=$(sed -n "${line}p" "$src/lib/$f" | sed 's/^[[:space:]]*//; s/[[:space:]]*\\$//')
		label="lib/$f:$line: $text"
		key="lib/$f $(function_at "$src/lib/$f" "$line") $text"
		seen[$key]=$((${seen[$key]:-0} + 1))
		key="$key #${seen[$key]}"
		[ -z "$pattern" ] || grep -Eq -- "$pattern" <<<"$label" || continue
		sed -E "${line}s/(aesecb_wipe|aesecb__stack_mark|AESECB_MARK_UNOPTIMISED|clear_registers)\(/MUTANT_DELETED(/" \
			"$src/lib/$f" >"$work/lib/$f"
		if ! cc_lib "$f" "$work/obj" || ! cc_lib "$f" "$work/obj-mis" misaligned; then
			cp "$src/lib/$f" "$work/lib/$f"
			die "$label: the mutant does not compile"
		fi
		cp "$src/lib/$f" "$work/lib/$f"
		o=${f%.c}.o
		if cmp -s "$work/obj/$o" "$work/base/$o" &&
		   cmp -s "$work/obj-mis/$o" "$work/base-mis/$o"; then
			echo "not in this build: $label"
			absent=$((absent + 1))
			continue
		fi
		link_all "$work/obj" "$work/obj-mis" || die "$label: linking failed"
		bad=$(run_all)
		why=$(equivalent "$key") || why=
		kind=${why%%|*} why=${why#*|}
		if [ -n "$bad" ] && [ "$kind" = always ]; then
			echo "KILLED:   $label"
			sed 's/^/          /' <<<"$bad"
			die "$label is listed as equivalent, and a test failed: $why"
		elif [ -n "$bad" ]; then
			echo "KILLED:   $label"
			sed 's/^/          /' <<<"$bad"
			killed=$((killed + 1))
		elif [ -n "$why" ]; then
			echo "EQUIVALENT${kind:+ ($kind)}: $label"
			echo "          ($why)"
			equiv=$((equiv + 1))
		else
			echo "SURVIVED: $label"
			survived=$((survived + 1))
		fi
		cp "$work/base/$o" "$work/obj/$o"
		cp "$work/base-mis/$o" "$work/obj-mis/$o"
	done
done
echo "residue-mutants: $killed killed, $survived survived, $equiv equivalent, $absent not in this build"
[ "$survived" = 0 ]
