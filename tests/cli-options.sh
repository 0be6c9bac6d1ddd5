#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-options.sh - what a refused option echoes: an unknown long option
# is named only when it looks like an option name, so a key typed in the
# wrong place ("--key0011...", "--0011...") never reaches the terminal.

. "${top_srcdir:-.}/tests/testlib.sh"

KEY=000102030405060708090a0b0c0d0e0f
SECRETISH=c0ffee00112233445566778899aabbcc

# every command the tool lists; those that take a key name the option
keyed=" $(commands WITH --key) "
for cmd in $(commands); do
	expect_status 2 "$AESECB" $cmd "--key$KEY"
	expect_stderr_lacks "$KEY"
	expect_stderr_lacks "0001020304"
	case $keyed in
	*" $cmd "*)
		expect_stderr_grep "'--key\.\.\.' (give its value after '=' or a space)" ;;
	esac
	expect_status 2 "$AESECB" $cmd "--$SECRETISH"
	expect_stderr_lacks "$SECRETISH"
	expect_stderr_lacks "c0ffee"
	expect_stderr_lines 1
	expect_status 2 "$AESECB" $cmd --no-such-option
	expect_stderr_grep "unknown option '--no-such-option'"
done

# Every option is checked where it stands: the first bad one on the
# command line is the one reported, -b included, for every command that
# has it (before, -b was looked at after the loop: 'encrypt -b bogus -p
# xyz' reported the padding only)
for cmd in $(commands WITH --backend); do
	expect_status 3 "$AESECB" $cmd -b bogus --no-such-option
	expect_stderr_fixed "aesecb: $cmd: unknown backend 'bogus'"
	expect_stderr_lines 1
	expect_status 2 "$AESECB" $cmd --no-such-option -b bogus
	expect_stderr_fixed "aesecb: $cmd: unknown option '--no-such-option'"
	expect_stderr_lines 1
	expect_status 3 "$AESECB" $cmd --backend=bogus -b none --no-such-option
	expect_stderr_fixed "unknown backend 'bogus'"
done
for cmd in encrypt decrypt; do
	expect_status 3 "$AESECB" $cmd -b bogus -p xyz -k $KEY
	expect_stderr_fixed "aesecb: $cmd: unknown backend 'bogus'"
	expect_stderr_lines 1
	expect_status 2 "$AESECB" $cmd -p xyz -b bogus -k $KEY
	expect_stderr_fixed "aesecb: $cmd: unknown padding 'xyz'"
	expect_stderr_lines 1
done
# 'all' is a backend list where a command runs several, and only there
for cmd in verify bench; do
	expect_status 2 "$AESECB" $cmd -b all --no-such-option
	expect_stderr_fixed "unknown option '--no-such-option'"
done
expect_status 3 "$AESECB" encrypt -b all -k $KEY
expect_stderr_fixed "unknown backend 'all'"

# 'aesecb help' on itself is the list of commands, as 'aesecb --help' is;
# 'help' takes one command
expect_status 0 "$AESECB" --help
cp "$T/out" "$T/usage"
for h in "help" "help help"; do
	expect_status 0 "$AESECB" $h
	expect_same_file "$T/usage" "$T/out"
	expect_stderr_empty
done
expect_status 2 "$AESECB" help encrypt decrypt
expect_stderr_fixed "aesecb: help: one command at a time (try 'aesecb --help')"
expect_stderr_lines 1
expect_status 2 "$AESECB" help nosuch
expect_stderr_fixed "aesecb: unknown command 'nosuch'"

# A usage message is never cut short: a whole path fits, and so does a long
# value (300 characters here, shown in full with the hint after it).
long=$(printf '%0300d' 0 | tr 0 x)
expect_status 2 "$AESECB" encrypt -k $KEY -p "$long"
expect_stderr_fixed "aesecb: encrypt: unknown padding '$long': use none or pkcs7 (try 'aesecb encrypt --help')"
expect_stderr_lines 1
deep=$(printf '/%0199d' 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 | tr 0 z)
expect_status 2 "$AESECB" backends "$deep"
expect_stderr_fixed "aesecb: backends: unexpected argument '$deep' (try 'aesecb backends --help')"
expect_stderr_lines 1

finish
