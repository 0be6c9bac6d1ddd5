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

# A usage message is never cut short: a whole path fits, and so does a long
# value (300 characters here, shown in full with the hint after it).
long=$(printf '%0300d' 0 | tr 0 x)
expect_status 2 "$AESECB" encrypt -k $KEY -p "$long"
expect_stderr_fixed "aesecb: encrypt: unknown padding '$long': use none or pkcs7 (try 'aesecb encrypt --help')"
expect_stderr_lines 1
deep=$(printf '/%0199d' 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 | tr 0 d)
expect_status 2 "$AESECB" backends "$deep"
expect_stderr_fixed "aesecb: backends: unexpected argument '$deep' (try 'aesecb backends --help')"
expect_stderr_lines 1

finish
