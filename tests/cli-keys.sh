#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-keys.sh - key and secret options never echo their argument.
#
# For every command that takes a key (encrypt, decrypt, hp-mask) and every
# key option (-k, -K, --key-env), and for hp-mask's secret options
# (--secret, --secret-file, --secret-env): whatever goes wrong (missing
# file, directory, unreadable, empty, bad hex, wrong length, two keys in
# one file, unset variable), the key never appears on stdout or stderr,
# the message names the option, and it says when a file or variable name
# looks like the key itself.  A line break inside key text is an error
# from every source, with one message.  Commands that take no key refuse the
# options without echoing them.

. "${top_srcdir:-.}/tests/testlib.sh"

K16=2b7e151628aed2a6abf7158809cf4f3c
K32=603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4
S48=$K32$K16
PKT=$RFC9001_CLIENT_HEADER$RFC9001_SAMPLE

mkdir "$T/dir"
: >"$T/empty"
printf '%s\n' "$K16" "$K16" >"$T/two16"
printf '%s\n' "$K32" "$K16" >"$T/two48"
printf '%s\n' "${K16}zz" >"$T/badhex"
printf '%s\n' "${K16}00" >"$T/17bytes"
printf '%s\n' "$K16" >"$T/k16"
printf '%s\n' "$K32" >"$T/k32"

# no_key_in_output KEY...: the last run printed none of the keys (nor their
# first half, nor in upper case: expect_stderr_lacks ignores case)
no_key_in_output() {
	for k in "$@"; do
		half=$(printf '%s' "$k" | cut -c1-16)
		expect_stderr_lacks "$half"
		if grep -q -i -F -e "$half" "$T/out"; then
			fail "stdout contains key bytes"
		else
			pass "stdout lacks the key"
		fi
	done
}

# check KIND CMD... : every error path of the key options of CMD; KIND is
# key or secret.  The options go before CMD's remaining arguments.
check() {
	kind=$1
	shift
	cmdname=$1
	shift
	if [ "$kind" = key ]; then
		hexopt=-k fileopt=-K envopt=--key-env klen=$K16 klen2=$K32
	else
		hexopt=--secret fileopt=--secret-file envopt=--secret-env klen=$K32 klen2=$S48
	fi
	for k in $klen $klen2; do
		# the key given where a file name or variable name belongs
		expect_status 4 "$AESECB" $cmdname $fileopt "$k" "$@"
		expect_stderr_fixed "aesecb: $cmdname: $fileopt: cannot open the $kind file: No such file or directory (the argument looks like a hex $kind: $hexopt takes the $kind in hex"
		expect_stderr_lines 1
		no_key_in_output "$k"
		expect_status 2 "$AESECB" $cmdname $envopt "$k" "$@"
		expect_stderr_fixed "aesecb: $cmdname: $envopt: the environment variable is not set (the argument looks like a hex $kind: $hexopt takes the $kind in hex, $envopt a variable name)"
		expect_stderr_lines 1
		no_key_in_output "$k"
	done
	# a name that is not hex: no hint, no name either
	expect_status 4 "$AESECB" $cmdname $fileopt "$T/no-such-file" "$@"
	expect_stderr_fixed "$fileopt: cannot open the $kind file: No such file or directory"
	expect_stderr_lacks "no-such-file"
	expect_stderr_lacks "looks like"
	for f in dir empty two16 two48 badhex 17bytes; do
		case $f in
		dir)    st=4 want="$fileopt: cannot read the $kind file: Is a directory" ;;
		empty)  st=2 want="$fileopt: the $kind in the file is empty" ;;
		two*)   st=2 want="$fileopt: the $kind file has text on line 2 after the $kind on line 1; a $kind file holds one $kind" ;;
		badhex) st=2 want="$fileopt: the $kind file has a character that is not a hex digit at line 1, column 33" ;;
		17bytes) st=2 want="$fileopt: the $kind in the file is 17 bytes" ;;
		esac
		expect_status $st "$AESECB" $cmdname $fileopt "$T/$f" "$@"
		expect_stderr_fixed "aesecb: $cmdname: $want"
		expect_stderr_lines 1
		expect_stderr_lacks "$T"
		no_key_in_output $K16 $K32
	done
	# the same text in an environment variable, and on the command line
	for v in "" "${K16}zz" "${K16}00" "${K16}0"; do
		expect_status 2 env KEYVAR="$v" "$AESECB" $cmdname $envopt KEYVAR "$@"
		expect_stderr_fixed "aesecb: $cmdname: $envopt: the $kind in the environment variable"
		expect_stderr_lines 1
		expect_stderr_lacks KEYVAR
		no_key_in_output $K16
	done
	for v in "${K16}zz" "${K16}00" "${K16}0"; do
		expect_status 2 "$AESECB" $cmdname $hexopt "$v" "$@"
		expect_stderr_fixed "aesecb: $cmdname: $hexopt: the $kind "
		expect_stderr_lines 1
		no_key_in_output $K16
	done
	# a line break inside key text, from any source: two keys are
	# never read as one (\n, \r\n, a lone \r, \v, \f)
	half=$(printf '%s' "$klen" | cut -c1-16)
	rest=$(printf '%s' "$klen" | cut -c17-)
	for nl in '\n' '\r\n' '\r' '\v' '\f'; do
		v=$(printf "%s$nl%s" "$klen" "$klen")
		printf "%s$nl%s" "$klen" "$klen" >"$T/twolines"
		expect_status 2 "$AESECB" $cmdname $hexopt "$v" "$@"
		expect_stderr_fixed "aesecb: $cmdname: $hexopt: the argument has text on line 2 after the $kind on line 1; the argument holds one $kind (hex digits on one line)"
		expect_stderr_lines 1
		no_key_in_output $klen
		expect_status 2 env KEYVAR="$v" "$AESECB" $cmdname $envopt KEYVAR "$@"
		expect_stderr_fixed "aesecb: $cmdname: $envopt: the environment variable has text on line 2 after the $kind on line 1; the environment variable holds one $kind (hex digits on one line)"
		expect_stderr_lines 1
		no_key_in_output $klen
		expect_status 2 "$AESECB" $cmdname $fileopt "$T/twolines" "$@"
		expect_stderr_fixed "aesecb: $cmdname: $fileopt: the $kind file has text on line 2 after the $kind on line 1; a $kind file holds one $kind (hex digits on one line)"
		# a key cut in two by a line break is refused too
		v=$(printf "%s$nl%s" "$half" "$rest")
		expect_status 2 "$AESECB" $cmdname $hexopt "$v" "$@"
		expect_stderr_fixed "$hexopt: the argument has text on line 2 after the $kind on line 1"
	done
	# blank lines and whitespace around the key are fine, in any source;
	# lines are counted with \r\n as one line break
	v=$(printf '\r\n\n  %s \t\r\n\n' "$klen")
	expect_status 2 env KEYVAR="$v
$klen" "$AESECB" $cmdname $envopt KEYVAR "$@"
	expect_stderr_fixed "has text on line 4 after the $kind on line 3"
	printf '\r\n\n  %s \t\r\n\n' "$klen" >"$T/blanks"
	for src in "$hexopt" "$envopt" "$fileopt"; do
		case $src in
		"$hexopt") a=$v ;;
		"$envopt") a=KEYVAR ;;
		*)         a=$T/blanks ;;
		esac
		run env KEYVAR="$v" "$AESECB" $cmdname $src "$a" "$@"
		if grep -q 'has text on line\|not a hex digit\|is empty\|odd number' "$T/err"; then
			fail "$cmdname $src: blank lines around the $kind refused"
			sed 's/^/#   stderr: /' "$T/err" >&2
		else
			pass "$cmdname $src: blank lines around the $kind"
		fi
	done
	if [ "$(id -u)" -ne 0 ]; then
		cp "$T/k16" "$T/unreadable"
		chmod 000 "$T/unreadable"
		expect_status 4 "$AESECB" $cmdname $fileopt "$T/unreadable" "$@"
		expect_stderr_fixed "aesecb: $cmdname: $fileopt: cannot open the $kind file: Permission denied"
		no_key_in_output $K16
		rm -f "$T/unreadable"
	else
		skip "$cmdname $fileopt unreadable file: running as root"
	fi
}

check key encrypt
check key decrypt
check key hp-mask $RFC9001_SAMPLE
check key hp-mask --unprotect "$PKT" --pn-offset 18
check secret hp-mask --unprotect "$PKT" --pn-offset 18

# a secret of the wrong length for the hash is not shown either
expect_status 2 "$AESECB" hp-mask --secret-file "$T/k32" --hash sha384 --unprotect "$PKT" --pn-offset 18
expect_stderr_fixed "the secret is 32 bytes; with sha384 secrets are 48 bytes"
no_key_in_output $K32

# Commands that take no key refuse the options, and do not echo them.
for c in $(commands WITHOUT --key); do
	for o in -k -K --key-env --secret --secret-file --secret-env; do
		expect_status 2 "$AESECB" $c $o $K16
		expect_stderr_fixed "aesecb: $c: "
		no_key_in_output $K16
	done
	expect_status 2 "$AESECB" $c --key=$K16
	no_key_in_output $K16
done

finish
