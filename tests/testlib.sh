# SPDX-License-Identifier: MIT
# testlib.sh - shared helpers for the aesecb command-line tests.
#
# POSIX sh.  Source it near the top of a test script:
#
#     . "${top_srcdir:-.}/tests/testlib.sh"
#
# Environment (set by 'make check' through AM_TESTS_ENVIRONMENT):
#     AESECB          the aesecb binary under test
#     top_srcdir      source tree (vectors, test scripts)
#     top_builddir    build tree
#     CAVP_DIR        NIST CAVP ECB response files, or empty
#     MANDOC          the mandoc program, or empty
#     BUILT_BACKENDS  backends compiled in, space separated
#     TOOL_BUILT      "no" in a build without the tool (no aesecb to run)
# When run by hand, AESECB defaults to $top_builddir/aesecb, then ./aesecb.
# A libtool wrapper script is bypassed when the binary it wraps can be run
# directly (much faster; the tests start aesecb many times).
#
# What it provides:
#     $T                      a private temporary directory, removed on exit
#     $RFC9001_*              RFC 9001 Appendix A's example (tests/rfc9001.sh):
#                             DCID, A.1's secrets and keys, A.2's client
#                             header, sample and mask, A.3's server Initial
#     pass MSG / fail MSG     record one assertion (fail prints MSG on stderr)
#     skip MSG                record a part that did not run ("SKIP: MSG")
#     note MSG                print a line to the log
#     run CMD...              run CMD; stdout in $T/out, stderr in $T/err,
#                             exit status in $rc (stdin is passed through)
#     expect_status N CMD...  run CMD and assert its exit status is N
#     expect_stderr_grep RE   the last run's stderr matches grep RE
#     expect_stderr_fixed S   the last run's stderr contains the string S
#     expect_stderr_lacks S   ... does not contain S (case-insensitive)
#     expect_stderr_lines N   ... has exactly N lines
#     expect_stderr_empty     ... is empty
#     expect_stdout_eq S      the last run's stdout is exactly S (plus a
#                             trailing newline, as $(...) strips it)
#     expect_stdout_grep RE   the last run's stdout matches grep RE
#     expect_same_file A B    files A and B are byte-for-byte equal
#     expect_no_file F        F does not exist
#     unhex HEX               write the bytes spelt by HEX on stdout
#     hexof FILE              print FILE's bytes as one lowercase hex string
#     backends [WHICH]        the backend names 'aesecb backends --json'
#                             lists, in its order, space separated: all
#                             (default), compiled, available or unavailable.
#                             The one source of backend names for the tests
#     backend_reason NAME     why the listing says NAME cannot run ("-": it can)
#     commands [WITH|WITHOUT OPT]  the tool's commands as 'aesecb --help'
#                             lists them, in its order, space separated: the
#                             one source of command names for the tests;
#                             with WITH or WITHOUT, those whose help shows
#                             (or does not show) option OPT
#     summary_of              the last 'verify:' line of the last run's stdout
#     flip IN OUT SECTION COUNT FIELD  copy response file IN to OUT with the
#                             last hex digit of FIELD in entry COUNT of
#                             [SECTION] changed (CR line endings dropped)
#     wait_limit PID SECS     wait for background job PID at most SECS
#                             seconds (then kill it): its exit status, or 124
#                             when it had to be killed; what is left of the
#                             job's own process group is killed after
#     kill_job PID            SIGKILL to background job PID and, when it
#                             leads a process group (timeout(1) makes one
#                             for its command), to that whole group
#     skip_all MSG            the whole script cannot run: exit 77 (SKIP)
#     finish                  print the summary and exit: 1 if anything
#                             failed, 77 if nothing ran, else 0
#
# Results are kept in a file under $T, so assertions made in subshells
# (pipelines, ( ... )) count too.  Any failed assertion makes the script
# exit 1, even if it forgets to call finish.

LC_ALL=C
export LC_ALL

# the example of RFC 9001 Appendix A (RFC9001_*), one copy for every test
. "${top_srcdir:-.}/tests/rfc9001.sh"

if [ -z "${AESECB:-}" ]; then
	if [ -n "${top_builddir:-}" ] && [ -x "$top_builddir/aesecb" ]; then
		AESECB=$top_builddir/aesecb
	else
		AESECB=./aesecb
	fi
fi
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
: "${CAVP_DIR:=}"
: "${MANDOC:=}"
: "${BUILT_BACKENDS:=}"
export AESECB top_srcdir top_builddir CAVP_DIR MANDOC BUILT_BACKENDS

testlib_name=${0##*/}

T=$(mktemp -d "${TMPDIR:-/tmp}/aesecb-test.XXXXXX") || {
	echo "$testlib_name: cannot create a temporary directory" >&2
	exit 99
}
: >"$T/.results"

testlib_count() {
	# number of lines in the results file starting with $1
	grep -c "^$1" "$T/.results" 2>/dev/null || true
}

testlib_cleanup() {
	testlib_status=$?
	trap - EXIT HUP INT TERM
	if [ -f "$T/.results" ] && grep -q '^FAIL' "$T/.results"; then
		testlib_status=1
	fi
	rm -rf "$T"
	exit "$testlib_status"
}
trap testlib_cleanup EXIT
trap 'exit 130' HUP INT TERM

pass() {
	echo "PASS $*" >>"$T/.results"
}

fail() {
	echo "FAIL $*" >>"$T/.results"
	echo "FAIL: $testlib_name: $*" >&2
	return 0
}

skip() {
	echo "SKIP $*" >>"$T/.results"
	echo "SKIP: $*"
}

note() {
	echo "# $*"
}

# Shows what a failed command printed, for the log.
testlib_show() {
	if [ -s "$T/err" ]; then
		sed 's/^/#   stderr: /' "$T/err" | head -n 5 >&2
	fi
}

run() {
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	return 0
}

expect_status() {
	testlib_want=$1
	shift
	run "$@"
	if [ "$rc" -eq "$testlib_want" ]; then
		pass "exit $testlib_want: $*"
	else
		fail "expected exit $testlib_want, got $rc: $*"
		testlib_show
	fi
}

expect_stderr_grep() {
	if grep -q -e "$1" "$T/err"; then
		pass "stderr matches '$1'"
	else
		fail "stderr does not match '$1'"
		sed 's/^/#   stderr: /' "$T/err" >&2
	fi
}

expect_stderr_fixed() {
	if grep -q -F -e "$1" "$T/err"; then
		pass "stderr contains '$1'"
	else
		fail "stderr does not contain '$1'"
		sed 's/^/#   stderr: /' "$T/err" >&2
	fi
}

expect_stderr_lacks() {
	if grep -q -i -F -e "$1" "$T/err"; then
		fail "stderr contains '$1', which it must not"
	else
		pass "stderr lacks '$1'"
	fi
}

expect_stderr_lines() {
	testlib_n=$(wc -l <"$T/err" | tr -d ' ')
	if [ "$testlib_n" -eq "$1" ]; then
		pass "stderr has $1 line(s)"
	else
		fail "stderr has $testlib_n lines, expected $1"
		sed 's/^/#   stderr: /' "$T/err" >&2
	fi
}

expect_stderr_empty() {
	if [ -s "$T/err" ]; then
		fail "stderr is not empty"
		sed 's/^/#   stderr: /' "$T/err" >&2
	else
		pass "stderr is empty"
	fi
}

expect_stdout_eq() {
	testlib_got=$(cat "$T/out")
	if [ "$testlib_got" = "$1" ]; then
		pass "stdout is as expected"
	else
		fail "stdout differs: expected '$1', got '$testlib_got'"
	fi
}

expect_stdout_grep() {
	if grep -q -e "$1" "$T/out"; then
		pass "stdout matches '$1'"
	else
		fail "stdout does not match '$1'"
	fi
}

expect_same_file() {
	if cmp -s "$1" "$2"; then
		pass "files equal: $1 $2"
	else
		fail "files differ: $1 $2"
	fi
}

expect_no_file() {
	if [ -e "$1" ] || [ -L "$1" ]; then
		fail "file exists but should not: $1"
	else
		pass "no file: $1"
	fi
}

# unhex HEX: bytes on stdout.  Whitespace in HEX is ignored.  Uses only awk
# and printf's octal escapes, so it needs no xxd.
unhex() {
	testlib_esc=$(printf '%s\n' "$*" | awk '
		{ s = s $0 }
		END {
			gsub(/[ \t\r\n]/, "", s)
			s = tolower(s)
			d = "0123456789abcdef"
			for (i = 1; i < length(s); i += 2) {
				v = (index(d, substr(s, i, 1)) - 1) * 16 + \
				    index(d, substr(s, i + 1, 1)) - 1
				printf "\\%03o", v
			}
		}')
	# shellcheck disable=SC2059
	printf "$testlib_esc"
}

# hexof FILE: one lowercase hex string, no spaces or newlines.
hexof() {
	od -An -v -tx1 "$1" | tr -d ' \n'
}

# backends [all|compiled|available|unavailable]: names from the listing of
# the binary under test (read once per script), never from a list written
# in a test.  A listing that fails or names no backend is a failed
# assertion, and the answer is then empty.
backends() {
	if [ ! -f "$T/.backends" ]; then
		if ! "$AESECB" backends --json >"$T/.backends.json" 2>"$T/.backends.err"; then
			fail "aesecb backends --json failed: $(head -n 1 "$T/.backends.err")"
			: >"$T/.backends.json"
		fi
		# one line per backend: name compiled available (the members
		# of each object up to the next "name", in any layout)
		awk '
			{ s = s $0 " " }
			END {
				re = "\"name\"[ \t]*:[ \t]*\"[^\"]*\""
				while (match(s, re)) {
					m = substr(s, RSTART, RLENGTH)
					s = substr(s, RSTART + RLENGTH)
					sub(/^"name"[ \t]*:[ \t]*"/, "", m)
					sub(/"$/, "", m)
					r = s
					if (match(r, /"name"[ \t]*:/))
						r = substr(r, 1, RSTART - 1)
					c = r ~ /"compiled"[ \t]*:[ \t]*true/ ? "yes" : "no"
					a = r ~ /"available"[ \t]*:[ \t]*true/ ? "yes" : "no"
					why = "-"
					if (match(r, /"unavailable_reason"[ \t]*:[ \t]*"[^"]*"/)) {
						why = substr(r, RSTART, RLENGTH)
						sub(/^"unavailable_reason"[ \t]*:[ \t]*"/, "", why)
						sub(/"$/, "", why)
					}
					print m, c, a, why
				}
			}' "$T/.backends.json" >"$T/.backends"
		[ -s "$T/.backends" ] ||
			fail "aesecb backends --json names no backend"
	fi
	case ${1:-all} in
	all)         testlib_sel='1' ;;
	compiled)    testlib_sel='$2 == "yes"' ;;
	available)   testlib_sel='$3 == "yes"' ;;
	unavailable) testlib_sel='$3 == "no"' ;;
	*) fail "backends: unknown selection '$1'"; return 0 ;;
	esac
	awk "$testlib_sel"' { printf "%s%s", n++ ? " " : "", $1 } END { print "" }' \
		"$T/.backends"
}

# backend_reason NAME: why the listing says backend NAME cannot run here
# ("-" when it can, "" when it lists no such backend).
commands() {
	_cmds=$("$AESECB" --help | awk '/^Commands:/ { c = 1; next }
		c && NF == 0 { exit } c { print $1 }')
	[ -n "$_cmds" ] || fail "no commands in 'aesecb --help'"
	case ${1:-} in
	WITH|WITHOUT)
		_sel=
		for _c in $_cmds; do
			if "$AESECB" help "$_c" | grep -q -e "^ *\(-., \)\{0,1\}$2\b"; then
				[ "$1" = WITH ] && _sel="$_sel $_c"
			else
				[ "$1" = WITHOUT ] && _sel="$_sel $_c"
			fi
		done
		_cmds=$_sel ;;
	esac
	echo $_cmds
}

# summary_of: the summary line of the last verify run
summary_of() {
	grep '^verify: ' "$T/out" | tail -n 1
}

# flip IN OUT SECTION COUNT FIELD: copy IN to OUT with the last hex digit of
# FIELD in entry COUNT of [SECTION] changed (CR line endings are dropped)
flip() {
	tr -d '\r' <"$1" | awk -v sec="[$3]" -v cnt="COUNT = $4" -v fld="$5 = " '
		/^\[/ { insec = ($0 == sec) }
		insec && $0 == cnt { inent = 1 }
		/^[ \t]*$/ { inent = 0 }
		insec && inent && !done && index($0, fld) == 1 {
			last = substr($0, length($0))
			$0 = substr($0, 1, length($0) - 1) (last == "0" ? "1" : "0")
			done = 1
		}
		{ print }' >"$2"
	if cmp -s "$1" "$2"; then
		fail "flip: $1 unchanged"
	fi
}

backend_reason() {
	backends >/dev/null
	awk -v b="$1" '$1 == b { $1 = $2 = $3 = ""; sub(/^ */, ""); print }' \
		"$T/.backends"
}

# kill_job PID: SIGKILL (which nothing can ignore) to the background job
# PID, and to every process of its process group when it leads one:
# timeout(1) runs its command in a group of its own, and killing timeout
# alone would leave the command running with nothing to end it.  A job
# started by this shell that did not make a group is in the shell's group:
# there is no group numbered PID then, and only PID is killed.
kill_job() {
	kill -s KILL -- "-$1" 2>/dev/null || kill -s KILL "$1" 2>/dev/null
}

# wait_limit PID SECONDS: wait for the background job PID, but no longer
# than SECONDS: then it is killed with its group (kill_job) and the status
# is 124 (the mark is made before the kill: once the job is dead, this
# shell may end the watchdog at once).  No test waits for a child without
# a limit.  Once the job is waited for, what is left of its own process
# group (processes its command started and left behind) is killed too.
# A process killed while it waited (in open() on a FIFO, say) may still
# hold what it held for a moment after that, on a loaded machine, until
# it runs to its end: the next step of a test must not share it (a FIFO
# serves one step).
wait_limit() {
	rm -f "$T/.timeout.$1"
	( sleep "$2"; : >"$T/.timeout.$1"; kill_job "$1" ) \
		>/dev/null 2>&1 </dev/null &
	testlib_dog=$!
	wait "$1"
	testlib_wst=$?
	kill -s KILL "$testlib_dog" 2>/dev/null
	wait "$testlib_dog" 2>/dev/null
	kill -s KILL -- "-$1" 2>/dev/null
	if [ -f "$T/.timeout.$1" ]; then
		rm -f "$T/.timeout.$1"
		return 124
	fi
	return "$testlib_wst"
}

skip_all() {
	echo "SKIP: $testlib_name: $*"
	trap - EXIT HUP INT TERM
	rm -rf "$T"
	exit 77
}

finish() {
	testlib_p=$(testlib_count PASS)
	testlib_f=$(testlib_count FAIL)
	testlib_s=$(testlib_count SKIP)
	echo "$testlib_name: $testlib_p passed, $testlib_f failed, $testlib_s skipped"
	if [ "$testlib_f" -gt 0 ]; then
		exit 1
	fi
	if [ "$testlib_p" -eq 0 ]; then
		exit 77
	fi
	exit 0
}

# An uninstalled build runs aesecb through libtool's wrapper script, which
# costs a shell start per call.  When the real binary is next to it and runs
# with the build's library directory on the search path, call it directly.
testlib_direct() {
	testlib_dir=${AESECB%/*}
	[ "$testlib_dir" = "$AESECB" ] && testlib_dir=.
	[ -f "$testlib_dir/.libs/aesecb" ] || return 0
	sed -n 1,5p "$AESECB" 2>/dev/null | grep -q 'temporary wrapper script' || return 0
	testlib_want=$("$AESECB" --version 2>/dev/null) || return 0
	testlib_got=$(LD_LIBRARY_PATH="$testlib_dir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		DYLD_LIBRARY_PATH="$testlib_dir/lib/.libs${DYLD_LIBRARY_PATH:+:$DYLD_LIBRARY_PATH}" \
		"$testlib_dir/.libs/aesecb" --version 2>/dev/null) || return 0
	[ "$testlib_got" = "$testlib_want" ] || return 0
	LD_LIBRARY_PATH="$testlib_dir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	DYLD_LIBRARY_PATH="$testlib_dir/lib/.libs${DYLD_LIBRARY_PATH:+:$DYLD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH DYLD_LIBRARY_PATH
	AESECB=$testlib_dir/.libs/aesecb
	export AESECB
}

# A build without the tool (configure --disable-tool) runs the library's
# scripts only; one that calls aesecb there fails, even from a subshell
# (a test of the tool belongs in an "if TOOL" block of Makefile.am).
testlib_no_tool() {
	fail "this build has no aesecb (configure --disable-tool), and the test called it"
	exit 99
}

if [ "${TOOL_BUILT:-yes}" = no ]; then
	AESECB=testlib_no_tool
elif [ -x "$AESECB" ]; then
	testlib_direct
fi

if [ "$AESECB" != testlib_no_tool ] && [ ! -x "$AESECB" ]; then
	echo "$testlib_name: no aesecb binary at '$AESECB' (set AESECB)" >&2
	trap - EXIT HUP INT TERM
	rm -rf "$T"
	exit 99
fi
