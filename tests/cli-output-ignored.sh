#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-output-ignored.sh - tests/cli-output.sh once more, started with every
# signal it sends ignored, as under nohup (SIGHUP) or in a background job
# (SIGINT, SIGQUIT).  aesecb keeps an ignored signal ignored, so the script
# must reset what it relies on; it must pass, and never hang.

. "${top_srcdir:-.}/tests/testlib.sh"

(
	trap '' HUP INT QUIT TERM USR1 ALRM XCPU
	exec sh "$top_srcdir/tests/cli-output.sh"
) >"$T/log" 2>&1 </dev/null &
wait_limit $! 90
st=$?
sed 's/^/    /' "$T/log"
case $st in
0)   pass "cli-output.sh passes with its signals ignored at start" ;;
77)  skip "cli-output.sh skipped" ;;
124) fail "cli-output.sh hung with its signals ignored at start (killed after 90 s)" ;;
*)   fail "cli-output.sh with its signals ignored at start: exit $st" ;;
esac
finish
