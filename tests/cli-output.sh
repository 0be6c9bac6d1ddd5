#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-output.sh - where "aesecb encrypt/decrypt -o OUT" writes (aesecb(1),
# -o): a descriptor named by OUT (/dev/stdout, /dev/fd/N, ...) or the same
# file as standard output or error is written where it stands, a device or
# a FIFO is written, a regular file is replaced all at once; and a signal
# that ends the process leaves no temporary file and OUT as it was.

. "${top_srcdir:-.}/tests/testlib.sh"

K=000102030405060708090a0b0c0d0e0f
D=$T/d
mkdir "$D"
head -c 4096 /dev/urandom >"$T/in"
# the expected ciphertext, through plain standard output
"$AESECB" encrypt -k $K -i "$T/in" >"$T/ct" || fail "encrypt to stdout"

# only NAMES... in $D (no temporary file left)
expect_dir() {
	left=$(cd "$D" && ls -A | tr '\n' ' ')
	if [ "$left" = "$1" ]; then
		pass "directory holds: $1"
	else
		fail "directory holds '$left', expected '$1'"
	fi
}

# ------------------------------------------------------------------
# Descriptors: written where they stand, never replaced

# /dev/stdout to a file opened with >>: appended, earlier lines kept
printf 'earlier\n' >"$D/log"
"$AESECB" encrypt -k $K -i "$T/in" -o /dev/stdout >>"$D/log" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && pass "-o /dev/stdout >>log: exit 0" || fail "-o /dev/stdout >>log: exit $rc"
{ printf 'earlier\n'; cat "$T/ct"; } >"$T/want"
expect_same_file "$T/want" "$D/log"
expect_stderr_empty

# { echo a; aesecb -o /dev/stdout; echo b; } >f: a, the output, b
{ echo a; "$AESECB" encrypt -k $K -i "$T/in" -o /dev/stdout; echo b; } >"$D/f"
{ echo a; cat "$T/ct"; echo b; } >"$T/want"
expect_same_file "$T/want" "$D/f"

# the same through /dev/fd/1, /proc/self/fd/1 and a symbolic link to
# /dev/stdout
ln -s /dev/stdout "$T/tostdout"
for name in /dev/fd/1 /proc/self/fd/1 "$T/tostdout"; do
	case $name in
	/proc/*) [ -d /proc/self/fd ] || { skip "$name: no /proc"; continue; } ;;
	esac
	printf 'earlier\n' >"$D/log"
	{ echo a; "$AESECB" encrypt -k $K -i "$T/in" -o "$name"; echo b; } >>"$D/log"
	{ printf 'earlier\n'; echo a; cat "$T/ct"; echo b; } >"$T/want"
	expect_same_file "$T/want" "$D/log"
done

# /dev/stdout to a pipe
"$AESECB" encrypt -k $K -i "$T/in" -o /dev/stdout | cat >"$T/piped"
expect_same_file "$T/ct" "$T/piped"

# /dev/stderr (2>>): appended to what standard error holds
printf 'earlier\n' >"$D/errlog"
"$AESECB" encrypt -k $K -i "$T/in" -o /dev/stderr 2>>"$D/errlog"
{ printf 'earlier\n'; cat "$T/ct"; } >"$T/want"
expect_same_file "$T/want" "$D/errlog"

# /dev/fd/3 opened by the shell in append mode
printf 'earlier\n' >"$D/log3"
"$AESECB" encrypt -k $K -i "$T/in" -o /dev/fd/3 3>>"$D/log3"
{ printf 'earlier\n'; cat "$T/ct"; } >"$T/want"
expect_same_file "$T/want" "$D/log3"

# OUT by its own name, the same file as standard output: appended
printf 'earlier\n' >"$D/same"
"$AESECB" encrypt -k $K -i "$T/in" -o "$D/same" >>"$D/same"
{ printf 'earlier\n'; cat "$T/ct"; } >"$T/want"
expect_same_file "$T/want" "$D/same"

# the same file as standard error, but open for reading only: replaced
printf 'old\n' >"$D/ro"
"$AESECB" encrypt -k $K -i "$T/in" -o "$D/ro" 2<"$D/ro"
expect_same_file "$T/ct" "$D/ro"

# a descriptor that is not open, or not for writing: exit 4, one line
expect_status 4 "$AESECB" encrypt -k $K -i "$T/in" -o /dev/fd/9
expect_stderr_grep "^aesecb: encrypt: cannot write '/dev/fd/9': descriptor 9 is not open$"
expect_stderr_lines 1
expect_status 4 "$AESECB" encrypt -k $K -i "$T/in" -o /dev/stdin <"$T/in"
expect_stderr_grep "^aesecb: encrypt: cannot write '/dev/stdin': descriptor 0 is not open for writing$"

# a failing command writes part of its output to a descriptor (it cannot
# be taken back), and nothing is replaced
printf 'earlier\n' >"$D/log"
"$AESECB" decrypt -p pkcs7 -k $K -i "$T/in" -o /dev/stdout >>"$D/log" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && pass "bad padding to /dev/stdout: exit 1" || fail "bad padding to /dev/stdout: exit $rc"
head -n 1 "$D/log" >"$T/first"
[ "$(cat "$T/first")" = earlier ] && pass "log kept its first line" || fail "log lost its first line"

# /dev/null: a character device, written and left alone
expect_status 0 "$AESECB" encrypt -k $K -i "$T/in" -o /dev/null
expect_stdout_eq ''
[ -c /dev/null ] && pass "/dev/null still a device" || fail "/dev/null replaced"

# a FIFO: written, not replaced
if command -v mkfifo >/dev/null 2>&1; then
	mkfifo "$D/fifo"
	cat "$D/fifo" >"$T/fromfifo" &
	catpid=$!
	# the open waits for the reader: a time limit, should cat not come
	limit=
	command -v timeout >/dev/null 2>&1 && limit="timeout -s KILL 20"
	expect_status 0 $limit "$AESECB" encrypt -k $K -i "$T/in" -o "$D/fifo"
	wait_limit "$catpid" 20 || fail "the reader of the FIFO did not finish"
	[ -p "$D/fifo" ] && pass "FIFO kept" || fail "FIFO replaced"
	expect_same_file "$T/ct" "$T/fromfifo"
	rm -f "$D/fifo"
else
	skip "no mkfifo"
fi

# ------------------------------------------------------------------
# Regular files: replaced at the end, through a symbolic link

rm -f "$D"/*
printf 'old\n' >"$D/target"
chmod 640 "$D/target"
ln -s target "$D/link"
expect_status 0 "$AESECB" encrypt -k $K -i "$T/in" -o "$D/link"
[ -L "$D/link" ] && pass "link kept" || fail "link replaced"
expect_same_file "$T/ct" "$D/target"
perm=$(ls -l "$D/target" | cut -c1-10)
[ "$perm" = "-rw-r-----" ] && pass "mode kept through link" || fail "mode: $perm"
expect_dir "link target "

# ------------------------------------------------------------------
# Signals: the process dies of the signal, OUT is as it was, no temporary
# file is left.  aesecb reads a FIFO that this shell keeps open; once it
# has taken 200000 bytes (three 64 KiB reads) it has written to its
# temporary file, and waits for more.

if ! command -v mkfifo >/dev/null 2>&1; then
	skip "signal tests: no mkfifo"
	finish
fi
# A signal ignored when this script started stays ignored in its children
# (a background job of a non-interactive shell ignores SIGINT and SIGQUIT;
# nohup ignores SIGHUP), and aesecb rightly keeps an ignored signal
# ignored: env resets every signal to its default for the program.  Where
# env cannot, a signal ignored here is not tested.
if command -v timeout >/dev/null 2>&1; then
	TIMEOUT="timeout -s KILL"
else
	skip "signal tests: no timeout command (coreutils)"
	finish
fi
if env --default-signal true 2>/dev/null; then
	DEFSIG="env --default-signal"
else
	DEFSIG=env
	note "env has no --default-signal: signals ignored at start are not tested"
fi
# ignored_here SIG: the signal is ignored in this shell, so in its children
ignored_here() {
	[ "$DEFSIG" = env ] || return 1
	case $1 in
	INT|QUIT) return 0 ;;  # in background jobs, always
	esac
	testlib_ign=$(sed -n 's/^SigIgn:[ \t]*//p' /proc/$$/status 2>/dev/null)
	[ -n "$testlib_ign" ] || return 1
	testlib_n=$(kill -l "$1")
	[ $(( (0x$testlib_ign >> (testlib_n - 1)) & 1 )) -eq 1 ]
}
PRELOAD=$top_builddir/tests/.libs/no-tmpfile.so

# killed SIG MODE: MODE "unnamed" (the default) or "named" (O_TMPFILE
# refused by tests/no-tmpfile.so, as on a file system without it)
killed() {
	sig=$1
	mode=$2
	rm -f "$D"/* "$D"/.[!.]*
	printf 'precious\n' >"$D/out"
	mkfifo "$D/in"
	if [ "$mode" = named ]; then
		$DEFSIG LD_PRELOAD="$PRELOAD" "$AESECB" encrypt -k $K \
			-i "$D/in" -o "$D/out" 2>"$T/err" &
	else
		$DEFSIG "$AESECB" encrypt -k $K -i "$D/in" -o "$D/out" 2>"$T/err" &
	fi
	pid=$!
	# read and write: the open does not wait for aesecb, and the write is
	# given a time limit, so a dead aesecb cannot make this script hang
	exec 7<>"$D/in"
	$TIMEOUT 20 head -c 200000 /dev/zero >&7 ||
		fail "$mode, SIG$sig: aesecb did not read its input"
	during=$(cd "$D" && ls -A | tr '\n' ' ')
	kill -s "$sig" "$pid"
	wait_limit "$pid" 20
	st=$?
	exec 7>&-
	if [ "$st" -eq 124 ]; then
		fail "$mode, SIG$sig: aesecb still ran 20 s after the signal"
		return
	fi
	rm -f "$D/in"
	name=$(kill -l "$st" 2>/dev/null)
	if [ "$st" -gt 128 ] && [ "$name" = "$sig" ]; then
		pass "$mode, SIG$sig: died of SIG$sig"
	else
		fail "$mode, SIG$sig: exit status $st ($name), expected death by SIG$sig"
	fi
	[ "$(cat "$D/out")" = precious ] && pass "$mode, SIG$sig: OUT kept" ||
		fail "$mode, SIG$sig: OUT changed"
	case $mode/$during in
	named/*.out.aesecb-tmp-*) pass "named temporary file while running" ;;
	named/*) skip "O_TMPFILE not refused (preloading failed): named case not tested"
		 return ;;
	esac
	if [ "$sig" = KILL ]; then
		left=$(cd "$D" && ls -A | tr '\n' ' ')
		case $mode/$left in
		unnamed/"out ") pass "unnamed, SIGKILL: nothing left" ;;
		named/.out.aesecb-tmp-??????" out ")
			pass "named, SIGKILL: only .out.aesecb-tmp-XXXXXX left" ;;
		unnamed/.out.aesecb-tmp-??????" out ")
			note "no O_TMPFILE in $T: SIGKILL left a named temporary file" ;;
		*) fail "$mode, SIGKILL left: $left" ;;
		esac
	else
		expect_dir "out "
	fi
}

for sig in TERM QUIT USR1 ALRM HUP INT; do
	if ignored_here $sig; then
		skip "SIG$sig is ignored here and env cannot reset it"
		continue
	fi
	killed $sig unnamed
	killed $sig named
done
killed KILL unnamed
killed KILL named

# SIGXCPU from a CPU time limit: hex input that is all spaces after the
# first block keeps aesecb busy without growing its output
xcpu() {
	mode=$1
	rm -f "$D"/* "$D"/.[!.]*
	printf 'precious\n' >"$D/out"
	{
		echo 00112233445566778899aabbccddeeff
		yes '                                                              '
	} | if [ "$mode" = named ]; then
		(ulimit -S -t 1 && exec $TIMEOUT 60 $DEFSIG LD_PRELOAD="$PRELOAD" "$AESECB" encrypt -x -k $K -o "$D/out")
	else
		(ulimit -S -t 1 && exec $TIMEOUT 60 $DEFSIG "$AESECB" encrypt -x -k $K -o "$D/out")
	fi 2>"$T/err"
	st=$?
	name=$(kill -l "$st" 2>/dev/null)
	if [ "$st" -gt 128 ] && [ "$name" = XCPU ]; then
		pass "$mode, CPU limit: died of SIGXCPU"
	else
		fail "$mode, CPU limit: exit status $st ($name), expected SIGXCPU"
	fi
	[ "$(cat "$D/out")" = precious ] && pass "$mode, SIGXCPU: OUT kept" ||
		fail "$mode, SIGXCPU: OUT changed"
	expect_dir "out "
}
if ignored_here XCPU; then
	skip "SIGXCPU is ignored here and env cannot reset it"
elif (ulimit -S -t 1) 2>/dev/null; then
	xcpu unnamed
	xcpu named
else
	skip "no ulimit -t here: SIGXCPU not tested"
fi

finish
