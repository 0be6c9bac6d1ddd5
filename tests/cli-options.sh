#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-options.sh - what a refused option echoes: an unknown long option
# is named only when it looks like an option name, so a key typed in the
# wrong place ("--key0011...", "--0011...") never reaches the terminal.

. "${top_srcdir:-.}/tests/testlib.sh"

KEY=000102030405060708090a0b0c0d0e0f
SECRETISH=c0ffee00112233445566778899aabbcc

for cmd in encrypt decrypt hp-mask verify bench backends quic-keys; do
	expect_status 2 "$AESECB" $cmd "--key$KEY"
	expect_stderr_lacks "$KEY"
	expect_stderr_lacks "0001020304"
	case $cmd in
	encrypt|decrypt|hp-mask)
		expect_stderr_grep "'--key\.\.\.' (give its value after '=' or a space)" ;;
	esac
	expect_status 2 "$AESECB" $cmd "--$SECRETISH"
	expect_stderr_lacks "$SECRETISH"
	expect_stderr_lacks "c0ffee"
	expect_stderr_lines 1
	expect_status 2 "$AESECB" $cmd --no-such-option
	expect_stderr_grep "unknown option '--no-such-option'"
done

finish
