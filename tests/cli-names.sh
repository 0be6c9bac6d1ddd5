#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-names.sh - names a user typed (paths, operands, option names,
# environment variables) are shown in messages with what is not printable
# escaped as \xHH: no terminal escape sequence, newline or DEL reaches
# standard error raw.

. "${top_srcdir:-.}/tests/testlib.sh"

K=000102030405060708090a0b0c0d0e0f
ESC=$(printf '\033')
DEL=$(printf '\177')
NL='
'
BAD="${ESC}[31mx${NL}y${DEL}"
SHOWN='\x1b[31mx\x0ay\x7f'

# clean: the last stderr has one line, holds no ESC or DEL byte, and shows
# the name escaped
clean() {
	expect_stderr_lines 1
	if LC_ALL=C grep -q "[$ESC$DEL]" "$T/err"; then
		fail "raw ESC or DEL on stderr: $*"
	else
		pass "no raw ESC or DEL: $*"
	fi
	expect_stderr_fixed "$SHOWN"
}

expect_status 4 "$AESECB" encrypt -k $K -i "$BAD"
clean "encrypt -i"
expect_status 4 "$AESECB" encrypt -k $K -o "$T/nodir/$BAD" </dev/null
clean "encrypt -o"
expect_status 2 "$AESECB" encrypt -k $K -p "$BAD" </dev/null
clean "encrypt -p"
# an unknown long option is named only when it looks like one (it may
# be a key typed in the wrong place): nothing of it is shown here
expect_status 2 "$AESECB" encrypt -k $K "--$BAD" </dev/null
expect_stderr_lines 1
if LC_ALL=C grep -q "[$ESC$DEL]" "$T/err"; then
	fail "raw ESC or DEL on stderr: unknown long option"
else
	pass "no raw ESC or DEL: unknown long option"
fi
expect_stderr_fixed "unknown option '--...'"
expect_status 2 "$AESECB" "$BAD"
clean "unknown command"
expect_status 2 "$AESECB" help "$BAD"
clean "help COMMAND"
expect_status 3 "$AESECB" encrypt -k $K -b "$BAD" </dev/null
clean "encrypt -b"
expect_status 3 env AESECB_BACKEND="$BAD" "$AESECB" encrypt -k $K </dev/null
clean "AESECB_BACKEND"
expect_status 2 "$AESECB" backends "$BAD"
clean "backends operand"
expect_status 2 "$AESECB" bench "$BAD"
clean "bench workload"
expect_status 4 "$AESECB" verify "$T/$BAD"
clean "verify path"

# a path inside hex input messages
printf 'zz\n' >"$T/$BAD"
expect_status 2 "$AESECB" encrypt -x -k $K -i "$T/$BAD"
clean "hex input file"

# a backslash is doubled, so that \x1b typed as four characters differs
# from an ESC byte
expect_status 4 "$AESECB" encrypt -k $K -i 'a\x1b'
expect_stderr_fixed "'a\\\\x1b'"

# UTF-8: kept readable when the locale is UTF-8, escaped otherwise; C1
# controls (U+009B is CSI on some terminals) are always escaped
E=$(printf '\303\251')       # e with acute accent
CSI=$(printf '\302\233')     # U+009B
expect_status 4 env LC_ALL=C.UTF-8 "$AESECB" encrypt -k $K -i "$E$CSI"
expect_stderr_fixed "'$E\\xc2\\x9b'"
expect_status 4 env LC_ALL=C "$AESECB" encrypt -k $K -i "$E$CSI"
expect_stderr_fixed "'\\xc3\\xa9\\xc2\\x9b'"
# bytes that are not UTF-8
expect_status 4 env LC_ALL=C.UTF-8 "$AESECB" encrypt -k $K -i "$(printf 'a\377')"
expect_stderr_fixed "'a\\xff'"

finish
