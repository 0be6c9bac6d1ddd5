#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-crypt.sh - "aesecb encrypt" and "aesecb decrypt" from the outside:
# known answers, round trips, padding, hex mode, every documented error with
# its exit status and message, and the all-or-nothing -o output.
#
# The backend is the default one, or $AESECB_BACKEND (cli-each-backend.sh
# runs this script once per available backend).

. "${top_srcdir:-.}/tests/testlib.sh"

note "backend: ${AESECB_BACKEND:-default}"

K128=000102030405060708090a0b0c0d0e0f
K192=000102030405060708090a0b0c0d0e0f1011121314151617
K256=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

# keyhex N: N bytes of key as hex (not a pattern that shows up in messages)
keyhex() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%02x", (i * 37 + 91) % 256 }'
}

# ------------------------------------------------------------------
# --version, --help, help COMMAND

expect_status 0 "$AESECB" --version
expect_stdout_grep '^aesecb [0-9][0-9.]*'
expect_stderr_empty

for cmd in encrypt decrypt; do
	expect_status 0 "$AESECB" help "$cmd"
	expect_stdout_grep "^Usage: aesecb $cmd "
	expect_stdout_grep 'process list'
	expect_stdout_grep 'key-env'
	expect_stderr_empty
	cp "$T/out" "$T/help1"
	expect_status 0 "$AESECB" "$cmd" --help
	expect_same_file "$T/help1" "$T/out"
	expect_status 0 "$AESECB" "$cmd" -h
	expect_same_file "$T/help1" "$T/out"
done

# ------------------------------------------------------------------
# Known answers: FIPS-197 appendix C and SP 800-38A F.1 (ECB)

# kat KEY PLAINHEX CIPHERHEX: hex mode both ways, and binary mode both ways
kat() {
	printf '%s\n' "$2" >"$T/kat.p"
	expect_status 0 "$AESECB" encrypt -x -k "$1" -i "$T/kat.p"
	if [ "$(tr -d '\n' <"$T/out")" = "$3" ]; then
		pass "encrypt -x $3"
	else
		fail "encrypt -x with key ${#1} digits: expected $3, got $(tr -d '\n' <"$T/out")"
	fi
	printf '%s\n' "$3" >"$T/kat.c"
	expect_status 0 "$AESECB" decrypt -x -k "$1" -i "$T/kat.c"
	if [ "$(tr -d '\n' <"$T/out")" = "$2" ]; then
		pass "decrypt -x $2"
	else
		fail "decrypt -x: expected $2, got $(tr -d '\n' <"$T/out")"
	fi
	unhex "$2" >"$T/kat.pb"
	expect_status 0 "$AESECB" encrypt -k "$1" -i "$T/kat.pb"
	if [ "$(hexof "$T/out")" = "$3" ]; then
		pass "encrypt binary $3"
	else
		fail "encrypt binary: expected $3, got $(hexof "$T/out")"
	fi
	unhex "$3" >"$T/kat.cb"
	expect_status 0 "$AESECB" decrypt -k "$1" <"$T/kat.cb"
	if [ "$(hexof "$T/out")" = "$2" ]; then
		pass "decrypt binary $2"
	else
		fail "decrypt binary: expected $2, got $(hexof "$T/out")"
	fi
}

# FIPS-197 C.1, C.2, C.3
kat $K128 00112233445566778899aabbccddeeff 69c4e0d86a7b0430d8cdb78070b4c55a
kat $K192 00112233445566778899aabbccddeeff dda97ca4864cdfe06eaf70a0ec0d7191
kat $K256 00112233445566778899aabbccddeeff 8ea2b7ca516745bfeafc49904b496089

# SP 800-38A F.1.1/F.1.2 (AES-128), F.1.3/F.1.4 (AES-192), F.1.5/F.1.6 (AES-256)
SP_P=6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710
kat 2b7e151628aed2a6abf7158809cf4f3c $SP_P \
    3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4
kat 8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b $SP_P \
    bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eefef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e
kat 603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4 $SP_P \
    f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7

# Hex output format: lowercase, one block per line.
printf '%s' "$SP_P" | tr 'a-f' 'A-F' >"$T/upper"
expect_status 0 "$AESECB" encrypt --hex --key 2b7e151628aed2a6abf7158809cf4f3c --in "$T/upper"
cat >"$T/want" <<'EOF'
3ad77bb40d7a3660a89ecaf32466ef97
f5d3d58503b9699de785895a96fdbaaf
43b1cd7f598ece23881b00e3ed030688
7b0c785e27e8ad3f8223207104725dd4
EOF
expect_same_file "$T/want" "$T/out"

# Whitespace anywhere in hex input: spaces, tabs, CRLF, no final newline.
printf '6b c1\tbe e22e409f96e93d7e117393172a\r\n\r\n ae2d8a571e03ac9c9eb76fac45af8e51\n30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710' >"$T/spaced"
expect_status 0 "$AESECB" encrypt -x -k 2b7e151628aed2a6abf7158809cf4f3c <"$T/spaced"
expect_same_file "$T/want" "$T/out"

# Key text with whitespace, from -K, --key-env, and -k.
printf '\n 2b7e1516 28aed2a6 abf71588\t09cf4f3c\r\n\n' >"$T/keyfile"
expect_status 0 "$AESECB" encrypt -x -K "$T/keyfile" -i "$T/upper"
expect_same_file "$T/want" "$T/out"
expect_status 0 "$AESECB" encrypt -x --key-file="$T/keyfile" -i "$T/upper"
expect_same_file "$T/want" "$T/out"
AESECB_TEST_KEY='2B7E151628AED2A6ABF7158809CF4F3C' \
	expect_status 0 "$AESECB" encrypt -x --key-env AESECB_TEST_KEY -i "$T/upper"
expect_same_file "$T/want" "$T/out"
expect_status 0 "$AESECB" encrypt -x -k '2b7e1516 28aed2a6 abf71588 09cf4f3c' -i "$T/upper"
expect_same_file "$T/want" "$T/out"
# attached option arguments and bundled flags
expect_status 0 "$AESECB" encrypt -xk2b7e151628aed2a6abf7158809cf4f3c -i"$T/upper"
expect_same_file "$T/want" "$T/out"

# ------------------------------------------------------------------
# Round trips: every key size, both paddings, binary and hex, sizes
# around the block and the internal buffer boundaries.

for key in $K128 $K192 $K256; do
	for n in 0 1 15 16 17 31 32 33 65535 65536 65537 131101; do
		head -c "$n" /dev/urandom >"$T/p"
		# PKCS#7: any length; output is the next multiple of 16 above n
		expect_status 0 "$AESECB" encrypt -k "$key" -p pkcs7 -i "$T/p" -o "$T/c"
		want=$(( (n / 16 + 1) * 16 ))
		got=$(wc -c <"$T/c" | tr -d ' ')
		if [ "$got" -eq "$want" ]; then
			pass "pkcs7 length $n -> $got"
		else
			fail "pkcs7 length $n: got $got bytes, expected $want"
		fi
		expect_status 0 "$AESECB" decrypt -k "$key" --pad=pkcs7 -i "$T/c" -o "$T/d"
		expect_same_file "$T/p" "$T/d"
		# no padding: whole blocks only
		if [ $(( n % 16 )) -eq 0 ]; then
			expect_status 0 "$AESECB" encrypt -k "$key" -p none -i "$T/p" -o "$T/c"
			expect_status 0 "$AESECB" decrypt -k "$key" -i "$T/c" -o "$T/d"
			expect_same_file "$T/p" "$T/d"
		fi
	done
done

# Encryption changes the data, and binary and hex modes agree.
head -c 4096 /dev/urandom >"$T/p"
expect_status 0 "$AESECB" encrypt -k $K256 -i "$T/p" -o "$T/c"
if cmp -s "$T/p" "$T/c"; then
	fail "encrypt left the data unchanged"
else
	pass "encrypt changes the data"
fi
hexof "$T/p" | fold -w 64 >"$T/p.hex"
expect_status 0 "$AESECB" encrypt -x -k $K256 -i "$T/p.hex" -o "$T/c.hex"
{ hexof "$T/c"; echo; } | fold -w 32 >"$T/c.want"
expect_same_file "$T/c.want" "$T/c.hex"
expect_status 0 "$AESECB" decrypt -x -k $K256 -i "$T/c.hex" -o "$T/d.hex"
{ hexof "$T/p"; echo; } | fold -w 32 >"$T/p.want"
expect_same_file "$T/p.want" "$T/d.hex"

# Hex mode with padding: padding applies to the decoded bytes; the final
# line of padded decryption is short.
printf '0011223344\n' >"$T/h5"
expect_status 0 "$AESECB" encrypt -x -p pkcs7 -k $K128 -i "$T/h5" -o "$T/h5.c"
expect_status 0 "$AESECB" decrypt -x -k $K128 -i "$T/h5.c"
expect_stdout_eq 00112233440b0b0b0b0b0b0b0b0b0b0b
expect_status 0 "$AESECB" encrypt -x -p pkcs7 -k $K128 -i "$T/h5" -o "$T/h5.c"
expect_status 0 "$AESECB" decrypt -x -p pkcs7 -k $K128 -i "$T/h5.c"
expect_stdout_eq 0011223344
# empty input: encrypt with padding gives one block of 0x10 bytes
expect_status 0 "$AESECB" encrypt -x -p pkcs7 -k $K128 </dev/null
cp "$T/out" "$T/e.c"
expect_status 0 "$AESECB" decrypt -x -k $K128 -i "$T/e.c"
expect_stdout_eq 10101010101010101010101010101010
expect_status 0 "$AESECB" decrypt -x -p pkcs7 -k $K128 -i "$T/e.c"
expect_stdout_eq ''
# 16 bytes in: a full block of padding is added
printf '000102030405060708090a0b0c0d0e0f' >"$T/h16"
expect_status 0 "$AESECB" encrypt -x -p pkcs7 -k $K128 -i "$T/h16" -o "$T/h16.c"
expect_status 0 "$AESECB" decrypt -x -k $K128 -i "$T/h16.c"
expect_stdout_eq "000102030405060708090a0b0c0d0e0f
10101010101010101010101010101010"
# empty input without padding: empty output
expect_status 0 "$AESECB" encrypt -k $K128 </dev/null
expect_stdout_eq ''
expect_stderr_empty

# '-' for standard input and output
printf '00112233445566778899aabbccddeeff' >"$T/c1"
expect_status 0 "$AESECB" encrypt -x -k $K128 -i - -o - <"$T/c1"
expect_stdout_eq 69c4e0d86a7b0430d8cdb78070b4c55a

# ------------------------------------------------------------------
# PKCS#7 checks on decryption

# badpad LASTBLOCKHEX: encrypt the block raw, decrypt with pkcs7 -> exit 1
badpad() {
	printf '%s\n' "$1" >"$T/bp.p"
	"$AESECB" encrypt -x -k $K128 -i "$T/bp.p" -o "$T/bp.c" 2>/dev/null
	expect_status 1 "$AESECB" decrypt -x -p pkcs7 -k $K128 -i "$T/bp.c"
	expect_stderr_grep '^aesecb: decrypt: bad PKCS#7 padding$'
	expect_stderr_lines 1
	expect_stdout_eq ''
}
badpad 00000000000000000000000000000000   # pad byte 0
badpad 00000000000000000000000000000011   # pad byte 17
badpad 000000000000000000000000000000ff   # pad byte 255
badpad 00000000000000000000000001050505   # 05, but only three 05 bytes
badpad 00000000000000000000000504050505   # one wrong byte inside the pad
badpad 00101010101010101010101010101010   # 16 but the first byte differs
badpad 10101010101010101010101010101011   # last byte 17
# good ones at the edges
printf '000000000000000000000000000000%s\n' 01 >"$T/gp.p"
"$AESECB" encrypt -x -k $K128 -i "$T/gp.p" -o "$T/gp.c"
expect_status 0 "$AESECB" decrypt -x -p pkcs7 -k $K128 -i "$T/gp.c"
expect_stdout_eq 000000000000000000000000000000
printf '%s\n' aabbccddeeff00112233440505050505 >"$T/gp.p"
"$AESECB" encrypt -x -k $K128 -i "$T/gp.p" -o "$T/gp.c"
expect_status 0 "$AESECB" decrypt -x -p pkcs7 -k $K128 -i "$T/gp.c"
expect_stdout_eq aabbccddeeff0011223344
# a bad pad only in the last block counts; earlier blocks pass through
printf '%s\n%s\n' 000102030405060708090a0b0c0d0e00 000102030405060708090a0b0c0d0202 >"$T/gp.p"
"$AESECB" encrypt -x -k $K128 -i "$T/gp.p" -o "$T/gp.c"
expect_status 0 "$AESECB" decrypt -x -p pkcs7 -k $K128 -i "$T/gp.c"
expect_stdout_eq "000102030405060708090a0b0c0d0e00
000102030405060708090a0b0c0d"
# empty or partial ciphertext with pkcs7
expect_status 1 "$AESECB" decrypt -p pkcs7 -k $K128 </dev/null
expect_stderr_fixed 'bad PKCS#7 padding'
head -c 20 /dev/urandom >"$T/p20"
expect_status 2 "$AESECB" decrypt -p pkcs7 -k $K128 -i "$T/p20"
expect_stderr_fixed 'input is not a whole number of 16-byte blocks: 4 trailing bytes'

# ------------------------------------------------------------------
# Keys: every length from 0 to 40 bytes, odd digit counts, bad digits

n=0
while [ $n -le 40 ]; do
	kh=$(keyhex $n)
	case $n in
	16|24|32)
		expect_status 0 "$AESECB" encrypt -k "$kh" </dev/null ;;
	*)
		expect_status 2 "$AESECB" encrypt -k "$kh" </dev/null
		if [ $n -eq 0 ]; then
			expect_stderr_fixed "aesecb: encrypt: -k: the key is empty; AES keys are 16, 24 or 32 bytes (32, 48 or 64 hex digits)"
		elif [ $n -eq 1 ]; then
			expect_stderr_fixed "aesecb: encrypt: -k: the key is 1 byte; AES keys are 16, 24 or 32 bytes (32, 48 or 64 hex digits)"
		else
			expect_stderr_fixed "aesecb: encrypt: -k: the key is $n bytes; AES keys are 16, 24 or 32 bytes (32, 48 or 64 hex digits)"
		fi
		expect_stderr_lines 1
		[ $n -ge 2 ] && expect_stderr_lacks "$kh"
		;;
	esac
	# the same key plus one digit: odd count
	case $n in
	0|1|15|16|17|23|24|31|32|33|40)
		expect_status 2 "$AESECB" decrypt -k "${kh}a" </dev/null
		expect_stderr_fixed "odd number of hex digits ($(( 2 * n + 1 )))"
		expect_stderr_lines 1
		[ $n -ge 2 ] && expect_stderr_lacks "$kh"
		;;
	esac
	n=$(( n + 1 ))
done

# a bad digit: its position is named, the character is not echoed
expect_status 2 "$AESECB" encrypt -k 0011223344556677g8 </dev/null
expect_stderr_fixed 'aesecb: encrypt: -k: the key has a character that is not a hex digit at position 17'
expect_stderr_lacks 'g8'
expect_stderr_lacks '0011223344556677'
expect_status 2 "$AESECB" encrypt -k "0102030405060708090a0b0c0d0e0f$(printf '\303\251')" </dev/null
expect_stderr_fixed 'not a hex digit at position 31'
expect_stderr_lacks '0102030405060708'
expect_status 2 "$AESECB" encrypt -k 0x000102030405060708090a0b0c0d0e0f </dev/null
expect_stderr_fixed 'not a hex digit at position 2'
expect_status 2 "$AESECB" encrypt -k '' </dev/null
expect_stderr_fixed '-k: the key is empty'

# key file: bad digit with line and column; unreadable; too long
printf '2b7e151628aed2a6\nabf71588Z9cf4f3c\n' >"$T/badkey"
expect_status 2 "$AESECB" encrypt -K "$T/badkey" </dev/null
expect_stderr_fixed "aesecb: encrypt: -K: the key file has text on line 2 after the key on line 1; a key file holds one key"
expect_stderr_lacks 'abf71588'
expect_stderr_lacks '2b7e1516'
expect_stderr_lines 1
expect_status 4 "$AESECB" encrypt -K "$T/no-such-key" </dev/null
expect_stderr_fixed "aesecb: encrypt: -K: cannot open the key file: No such file or directory"
expect_stderr_lacks "no-such-key"
expect_status 4 "$AESECB" encrypt -K "$T" </dev/null
expect_stderr_fixed "aesecb: encrypt: -K: cannot read the key file: Is a directory"
# a key file holds one key: a key over two lines, or two keys, is refused
printf '2b7e151628aed2a6abf7158809cf4f3c\n2b7e151628aed2a6\n' >"$T/key192"
expect_status 2 "$AESECB" encrypt -K "$T/key192" </dev/null
expect_stderr_fixed "a key file holds one key"
expect_stderr_lacks 2b7e1516
expect_stderr_lines 1
printf '%s\n%s\n' $K128 $K128 >"$T/twokeys"
expect_status 2 "$AESECB" encrypt -K "$T/twokeys" </dev/null
expect_stderr_fixed "-K: the key file has text on line 2 after the key on line 1"
expect_stderr_lacks $K128
# blank lines and whitespace around the one key are fine
printf '\n \t2b7e151628aed2a6abf7158809cf4f3c2b7e151628aed2a6  \r\n\n\n' >"$T/key192"
expect_status 0 "$AESECB" encrypt -K "$T/key192" </dev/null
printf '2b7e151628aed2a6Zbf7158809cf4f3c\n' >"$T/badkey1"
expect_status 2 "$AESECB" encrypt -K "$T/badkey1" </dev/null
expect_stderr_fixed "-K: the key file has a character that is not a hex digit at line 1, column 17"
expect_stderr_lacks 2b7e1516
printf '2b7e151628aed2a6abf7158809cf4f3c 00\n' >"$T/longkey"
expect_status 2 "$AESECB" encrypt -K "$T/longkey" </dev/null
expect_stderr_fixed "aesecb: encrypt: -K: the key in the file is 17 bytes; AES keys are"
expect_stderr_lacks 2b7e1516
printf '2b7e151628aed2a6abf7158809cf4f3\n' >"$T/oddkey"
expect_status 2 "$AESECB" encrypt -K "$T/oddkey" </dev/null
expect_stderr_fixed "-K: the key in the file has an odd number of hex digits (31)"
expect_stderr_lacks 2b7e1516
: >"$T/emptykey"
expect_status 2 "$AESECB" encrypt -K "$T/emptykey" </dev/null
expect_stderr_fixed "-K: the key in the file is empty"
head -c 1048577 /dev/zero | tr '\0' '0' >"$T/hugekey"
expect_status 2 "$AESECB" encrypt -K "$T/hugekey" </dev/null
expect_stderr_fixed "-K: the key file is too long to hold a key"

# environment variable: unset, empty, bad
unset AESECB_TEST_NOKEY
expect_status 2 "$AESECB" encrypt --key-env AESECB_TEST_NOKEY </dev/null
expect_stderr_fixed "--key-env: the environment variable is not set"
AESECB_TEST_KEY='2b7e151628aed2a6abf7158809cf4f3' \
	expect_status 2 "$AESECB" encrypt --key-env AESECB_TEST_KEY </dev/null
expect_stderr_fixed 'odd number of hex digits (31)'
expect_stderr_lacks '2b7e151628aed2a6'
AESECB_TEST_KEY='2b7e151628aed2a6abf7158809cf4f3q' \
	expect_status 2 "$AESECB" encrypt --key-env AESECB_TEST_KEY </dev/null
expect_stderr_fixed '--key-env: the key in the environment variable has a character that is not a hex digit at position 32'
expect_stderr_lacks '2b7e151628aed2a6'

# no key, two keys
expect_status 2 "$AESECB" encrypt </dev/null
expect_stderr_fixed 'no key given'
expect_stderr_lines 1
expect_status 2 "$AESECB" encrypt -k $K128 -K "$T/keyfile" </dev/null
expect_stderr_fixed 'more than one key option'
expect_stderr_lacks $K128

# -k leaves the process's command line once parsed (Linux /proc only; an
# emulator shows its own copy of the arguments, so it can't be seen there)
if [ -n "${TEST_EMULATOR:-}" ]; then
	skip "-k hidden from /proc/PID/cmdline: not observable under $TEST_EMULATOR"
elif [ -r /proc/self/cmdline ] && command -v mkfifo >/dev/null 2>&1; then
	mkfifo "$T/fifo"
	"$AESECB" encrypt -k 5a5b5c5d5e5f60616263646566676869 -i "$T/fifo" \
		>/dev/null 2>&1 &
	pid=$!
	seen=unknown
	i=0
	while [ $i -lt 50 ]; do
		if [ -r "/proc/$pid/cmdline" ] &&
		   tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q ' encrypt '; then
			if tr '\0' ' ' <"/proc/$pid/cmdline" |
			   grep -q 5a5b5c5d5e5f; then
				seen=yes
			else
				seen=no
				break
			fi
		fi
		sleep 0.1 2>/dev/null || sleep 1
		i=$(( i + 1 ))
	done
	# let it finish (empty input); the open waits for the reader, so both
	# it and the wait have a time limit
	timeout -s KILL 20 sh -c ': >"$1"' sh "$T/fifo" 2>/dev/null
	wait_limit "$pid" 20 || fail "encrypt reading a FIFO did not finish"
	case $seen in
	no) pass "key removed from the command line" ;;
	*)  fail "the -k key is still visible in /proc/PID/cmdline" ;;
	esac
else
	skip "command-line key wiping: no /proc or mkfifo here"
fi

# ------------------------------------------------------------------
# Invalid data

# hex: line and column of the bad character
printf 'aabbccdd\n00112233445566778899aabbccddeeff\n0011x2\n' >"$T/badhex"
expect_status 2 "$AESECB" encrypt -x -k $K128 <"$T/badhex"
expect_stderr_grep '^aesecb: encrypt: stdin:3:5: invalid hex digit$'
expect_stderr_lines 1
expect_status 2 "$AESECB" decrypt -x -k $K128 -i "$T/badhex"
expect_stderr_grep "^aesecb: decrypt: $T/badhex:3:5: invalid hex digit\$"
printf '00112233445566778899aabbccddeef' >"$T/oddhex"
expect_status 2 "$AESECB" encrypt -x -k $K128 -i "$T/oddhex"
expect_stderr_fixed 'odd number of hex digits'
expect_stderr_lines 1
printf '\0000' >"$T/nulhex"
expect_status 2 "$AESECB" encrypt -x -k $K128 -i "$T/nulhex"
expect_stderr_fixed ':1:1: invalid hex digit'

# partial block without padding
head -c 5 /dev/urandom >"$T/p5"
expect_status 2 "$AESECB" encrypt -k $K128 -i "$T/p5"
expect_stderr_grep '^aesecb: encrypt: input is not a whole number of 16-byte blocks: 5 trailing bytes (use --pad=pkcs7)$'
expect_stderr_lines 1
head -c 21 /dev/urandom >"$T/p21"
expect_status 2 "$AESECB" encrypt -k $K128 <"$T/p21"
expect_stderr_fixed ': 5 trailing bytes (use --pad=pkcs7)'
head -c 1 /dev/urandom >"$T/p1"
expect_status 2 "$AESECB" encrypt -k $K128 -i "$T/p1"
expect_stderr_fixed ': 1 trailing byte (use --pad=pkcs7)'
expect_status 2 "$AESECB" decrypt -k $K128 -i "$T/p21"
expect_stderr_fixed 'input is not a whole number of 16-byte blocks: 5 trailing bytes'
printf '0011223344\n' >"$T/h5"
expect_status 2 "$AESECB" encrypt -x -k $K128 -i "$T/h5"
expect_stderr_fixed ': 5 trailing bytes (use --pad=pkcs7)'

# ------------------------------------------------------------------
# Usage errors: one line, exit 2, a pointer to --help

for args in '--frobnicate' '-z' '-k' '--key' '--pad' '-p' '--pad=bogus' \
            '-p pkcs8' '--hex=1' 'stray' '--in' '-o' '-b' '-- stray'; do
	# shellcheck disable=SC2086
	expect_status 2 "$AESECB" encrypt $args </dev/null
	expect_stderr_lines 1
	expect_stderr_fixed "(try 'aesecb encrypt --help')"
done
expect_status 2 "$AESECB" encrypt --kee=00112233445566778899aabbccddeeff </dev/null
expect_stderr_fixed "unknown option '--kee'"
expect_stderr_lacks 00112233445566778899
expect_status 2 "$AESECB" decrypt -k $K128 -q </dev/null
expect_stderr_fixed "aesecb: decrypt: unknown option '-q'"
expect_stderr_lacks $K128
# an operand is refused without being echoed (it may be a misplaced key)
expect_status 2 "$AESECB" encrypt -b none 5a5b5c5d5e5f60616263646566676869 </dev/null
expect_stderr_fixed 'unexpected operand (argument 3)'
expect_stderr_lacks 5a5b5c5d
expect_status 2 "$AESECB"
expect_stderr_lines 1
expect_stderr_fixed "--help"
expect_status 2 "$AESECB" nosuchcommand
expect_stderr_lines 1
expect_stderr_fixed "--help"

# ------------------------------------------------------------------
# Backends: unknown names and unavailable ones exit 3, never fall back

expect_status 3 "$AESECB" encrypt -k $K128 -b nosuch </dev/null
expect_stderr_fixed "aesecb: encrypt: unknown backend 'nosuch'"
expect_stderr_lines 1
AESECB_BACKEND=nosuch expect_status 3 "$AESECB" encrypt -k $K128 </dev/null
expect_stderr_fixed "AESECB_BACKEND"
expect_stderr_fixed "nosuch"
AESECB_BACKEND=nosuch expect_status 0 "$AESECB" encrypt -k $K128 -b none </dev/null
unavail=$(backends unavailable)
for b in $(backends available); do
	expect_status 0 "$AESECB" encrypt -k $K128 -b $b </dev/null
done
for b in $unavail; do
	expect_status 3 "$AESECB" encrypt -k $K128 -b $b </dev/null
	expect_stderr_fixed "backend '$b' is not available here"
	expect_stderr_lines 1
	AESECB_BACKEND=$b expect_status 3 "$AESECB" encrypt -k $K128 </dev/null
	expect_stderr_fixed "'$b' is not available here"
done
[ -n "$unavail" ] || skip "unavailable-backend message: every backend runs here"
expect_status 0 "$AESECB" encrypt -k $K128 -b none </dev/null

# ------------------------------------------------------------------
# I/O errors, and -o all or nothing

expect_status 4 "$AESECB" encrypt -k $K128 -i "$T/no-such-input"
expect_stderr_fixed "aesecb: encrypt: cannot open '$T/no-such-input': No such file or directory"
expect_stderr_lines 1
expect_status 4 "$AESECB" encrypt -k $K128 -i "$T"
expect_stderr_fixed "cannot read '$T': Is a directory"
if [ "$(id -u)" -ne 0 ]; then
	head -c 16 /dev/zero >"$T/unreadable"
	chmod 000 "$T/unreadable"
	expect_status 4 "$AESECB" encrypt -k $K128 -i "$T/unreadable"
	expect_stderr_fixed "cannot open '$T/unreadable': Permission denied"
	mkdir "$T/ro"
	chmod 555 "$T/ro"
	expect_status 4 "$AESECB" encrypt -k $K128 -o "$T/ro/out" </dev/null
	expect_stderr_fixed "Permission denied"
	expect_no_file "$T/ro/out"
	expect_status 4 "$AESECB" encrypt -k $K128 -o /dev/full </dev/zero
	expect_stderr_fixed "cannot write '/dev/full': No space left on device"
elif command -v setpriv >/dev/null 2>&1 &&
     setpriv --reuid=65534 --regid=65534 --clear-groups \
	     "$AESECB" --version >/dev/null 2>&1 &&
     chmod 711 "$T" && mkdir "$T/u" && chmod 755 "$T/u" && : >"$T/u/probe" &&
     setpriv --reuid=65534 --regid=65534 --clear-groups \
	     test -r "$T/u/probe"; then
	# as root, run these as an unprivileged user (uid 65534)
	U=$T/u
	head -c 16 /dev/zero >"$U/unreadable"
	chmod 000 "$U/unreadable"
	mkdir "$U/ro"
	chmod 555 "$U/ro"
	asuser() {
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	}
	expect_status 4 asuser "$AESECB" encrypt -k $K128 -i "$U/unreadable"
	expect_stderr_fixed "cannot open '$U/unreadable': Permission denied"
	expect_status 4 asuser "$AESECB" encrypt -K "$U/unreadable" </dev/null
	expect_stderr_fixed "-K: cannot open the key file: Permission denied"
	expect_status 4 asuser "$AESECB" encrypt -k $K128 -o "$U/ro/out" </dev/null
	expect_stderr_fixed "Permission denied"
	expect_no_file "$U/ro/out"
	expect_status 4 asuser "$AESECB" encrypt -k $K128 -o /dev/full </dev/zero
	expect_stderr_fixed "cannot write '/dev/full': No space left on device"
	if [ -z "$(ls -A "$U/ro")" ]; then pass "nothing left in the read-only directory"; else fail "files left in $U/ro"; fi
	rm -rf "$U"
	chmod 700 "$T"
else
	chmod 700 "$T"
	skip "permission-denied cases and -o /dev/full: running as root, and cannot switch to an unprivileged user"
fi

mkdir "$T/od"
expect_status 4 "$AESECB" encrypt -k $K128 -o "$T/od/missing/out" </dev/null
expect_stderr_fixed "$T/od/missing"
expect_stderr_fixed "No such file or directory"
: >"$T/od/plainfile"
expect_status 4 "$AESECB" encrypt -k $K128 -o "$T/od/plainfile/out" </dev/null
expect_stderr_fixed "Not a directory"
expect_status 4 "$AESECB" encrypt -k $K128 -o "$T/od" </dev/null
expect_stderr_fixed "Is a directory"

# full device on standard output
head -c 1048576 /dev/zero >"$T/zero1m"
"$AESECB" encrypt -k $K128 -i "$T/zero1m" >/dev/full 2>"$T/err"
rc=$?
if [ $rc -eq 4 ]; then pass "stdout >/dev/full: exit 4"; else fail "stdout >/dev/full: exit $rc"; fi
expect_stderr_grep '^aesecb: encrypt: cannot write stdout: No space left on device$'
expect_stderr_lines 1

# closed pipe: exit 4 and one line naming the broken pipe
head -c 4194304 /dev/zero >"$T/zero4m"
{ "$AESECB" encrypt -k $K128 -i "$T/zero4m" 2>"$T/err"; echo $? >"$T/pipe.rc"; } |
	head -c 1 >/dev/null
rc=$(cat "$T/pipe.rc")
if [ "$rc" -eq 4 ]; then pass "closed pipe: exit 4"; else fail "closed pipe: exit $rc, expected 4"; fi
expect_stderr_grep '^aesecb: encrypt: cannot write stdout: Broken pipe$'
expect_stderr_lines 1

# -o: a failing command leaves no file and an existing OUT byte-for-byte
printf 'precious\n' >"$T/od/keep"
cp "$T/od/keep" "$T/od/keep.orig"
for case in badpad partial badhex oddhex badinput badkey nokey badbackend; do
	case $case in
	badpad)     set -- decrypt -p pkcs7 -k $K128 -i "$T/bp.c" ;;
	partial)    set -- encrypt -k $K128 -i "$T/p21" ;;
	badhex)     set -- encrypt -x -k $K128 -i "$T/badhex" ;;
	oddhex)     set -- encrypt -x -k $K128 -i "$T/oddhex" ;;
	badinput)   set -- encrypt -k $K128 -i "$T/no-such-input" ;;
	badkey)     set -- encrypt -k 0011 -i "$T/zero1m" ;;
	nokey)      set -- encrypt -i "$T/zero1m" ;;
	badbackend) set -- encrypt -k $K128 -b nosuch -i "$T/zero1m" ;;
	esac
	run "$AESECB" "$@" -o "$T/od/keep"
	if [ "$rc" -ne 0 ]; then pass "-o $case fails ($rc)"; else fail "-o $case: exit 0"; fi
	expect_same_file "$T/od/keep.orig" "$T/od/keep"
	run "$AESECB" "$@" -o "$T/od/new"
	expect_no_file "$T/od/new"
done
# nothing else in the directory: no temporary files left behind
left=$(cd "$T/od" && ls -A | tr '\n' ' ')
if [ "$left" = "keep keep.orig plainfile " ]; then
	pass "no temporary files left"
else
	fail "directory holds: $left"
fi

# -o success: replaces OUT (keeping its mode), a new file gets mode
# 0666 & ~umask, input and output may be the same file
head -c 4096 /dev/urandom >"$T/od/data"
cp "$T/od/data" "$T/od/data.orig"
(umask 027 && "$AESECB" encrypt -k $K128 -i "$T/od/data" -o "$T/od/keep")
expect_status 0 "$AESECB" decrypt -k $K128 -i "$T/od/keep"
expect_same_file "$T/od/data" "$T/out"
perm=$(ls -l "$T/od/keep" | cut -c1-10)
if [ "$perm" = "-rw-r--r--" ]; then pass "existing OUT keeps its mode"; else fail "existing OUT mode changed: $perm"; fi
(umask 027 && "$AESECB" encrypt -k $K128 -i "$T/od/data" -o "$T/od/fresh")
perm=$(ls -l "$T/od/fresh" | cut -c1-10)
if [ "$perm" = "-rw-r-----" ]; then pass "mode under umask 027"; else fail "mode under umask 027: $perm"; fi
rm -f "$T/od/fresh"
(umask 022 && "$AESECB" encrypt -k $K128 -i "$T/od/data" -o "$T/od/data")
perm=$(ls -l "$T/od/data" | cut -c1-10)
if [ "$perm" = "-rw-r--r--" ]; then pass "mode under umask 022"; else fail "mode under umask 022: $perm"; fi
expect_status 0 "$AESECB" decrypt -k $K128 -i "$T/od/data" -o "$T/od/data"
expect_same_file "$T/od/data.orig" "$T/od/data"
left=$(cd "$T/od" && ls -A | tr '\n' ' ')
if [ "$left" = "data data.orig keep keep.orig plainfile " ]; then
	pass "no temporary files left after success"
else
	fail "directory holds: $left"
fi

# -o to a FIFO is written in place, not replaced
if command -v mkfifo >/dev/null 2>&1; then
	mkfifo "$T/od/pipe"
	cat "$T/od/pipe" >"$T/fromfifo" &
	catpid=$!
	# the open waits for the reader: a time limit, should cat not come
	expect_status 0 timeout -s KILL 20 "$AESECB" encrypt -x -k $K128 \
		-i "$T/c1" -o "$T/od/pipe"
	wait_limit "$catpid" 20 || fail "the reader of the FIFO did not finish"
	if [ -p "$T/od/pipe" ]; then pass "FIFO kept"; else fail "FIFO replaced"; fi
	expect_stdout_eq ''
	if [ "$(cat "$T/fromfifo")" = 69c4e0d86a7b0430d8cdb78070b4c55a ]; then
		pass "output through FIFO"
	else
		fail "output through FIFO: $(cat "$T/fromfifo")"
	fi
fi

# ------------------------------------------------------------------
# Large data: a multi-megabyte round trip; compared with OpenSSL when its
# command-line tool is installed.

head -c 5242880 /dev/urandom >"$T/big"
head -c 3 /dev/urandom >>"$T/big"
expect_status 0 "$AESECB" encrypt -k $K256 -p pkcs7 -i "$T/big" -o "$T/big.c"
expect_status 0 "$AESECB" decrypt -k $K256 -p pkcs7 <"$T/big.c"
expect_same_file "$T/big" "$T/out"
if command -v openssl >/dev/null 2>&1; then
	for key in $K128 $K192 $K256; do
		bits=$(( ${#key} * 4 ))
		head -c 5242880 "$T/big" >"$T/big.blocks"
		if openssl enc -aes-$bits-ecb -nopad -K "$key" -in "$T/big.blocks" \
		       -out "$T/ossl.c" 2>"$T/ossl.err"; then
			expect_status 0 "$AESECB" encrypt -k "$key" -i "$T/big.blocks" -o "$T/mine.c"
			expect_same_file "$T/ossl.c" "$T/mine.c"
			openssl enc -aes-$bits-ecb -K "$key" -in "$T/big" -out "$T/ossl.pc" 2>/dev/null
			expect_status 0 "$AESECB" decrypt -k "$key" -p pkcs7 -i "$T/ossl.pc" -o "$T/mine.pd"
			expect_same_file "$T/big" "$T/mine.pd"
			expect_status 0 "$AESECB" encrypt -k "$key" -p pkcs7 -i "$T/big" -o "$T/mine.pc"
			expect_same_file "$T/ossl.pc" "$T/mine.pc"
		else
			skip "openssl enc -aes-$bits-ecb failed: $(head -n 1 "$T/ossl.err")"
		fi
	done
else
	skip "comparison with OpenSSL: no openssl command here"
fi

# Constant memory: 64 MiB through a 48 MiB address-space limit (an emulator
# needs far more address space than that for itself).
if [ -n "${TEST_EMULATOR:-}" ]; then
	skip "64 MiB under a 48 MiB memory limit: not measurable under $TEST_EMULATOR"
elif (ulimit -v 49152) 2>/dev/null &&
     ! (ulimit -v 49152 && exec "$AESECB" --version) 2>&1 >/dev/null |
	grep -q AddressSanitizer; then
	head -c 67108864 /dev/zero >"$T/big64"
	(ulimit -v 49152 && exec "$AESECB" encrypt -k $K128 -i "$T/big64" -o "$T/big64.c") 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "64 MiB under a 48 MiB memory limit"
		size=$(wc -c <"$T/big64.c" | tr -d ' ')
		if [ "$size" -eq 67108864 ]; then
			pass "64 MiB output size"
		else
			fail "64 MiB output: $size bytes"
		fi
	else
		fail "64 MiB under a 48 MiB memory limit: exit $rc: $(cat "$T/err")"
	fi
	rm -f "$T/big64" "$T/big64.c"
elif (ulimit -v 49152) 2>/dev/null; then
	# AddressSanitizer reserves terabytes of address space at start-up
	skip "64 MiB under a 48 MiB memory limit: not measurable in an AddressSanitizer build"
else
	skip "constant-memory check: ulimit -v is not supported"
fi

# 1 GiB, when asked for (AESECB_TEST_LARGE=1): slow on the portable backend.
if [ "${AESECB_TEST_LARGE:-0}" = 1 ]; then
	{ head -c 1073741824 /dev/zero | "$AESECB" encrypt -k $K128 -p pkcs7 2>"$T/err1" ; echo $? >"$T/rc1"; } |
	{ "$AESECB" decrypt -k $K128 -p pkcs7 2>"$T/err2"; echo $? >"$T/rc2"; } |
		wc -c | tr -d ' ' >"$T/count"
	if [ "$(cat "$T/rc1")$(cat "$T/rc2")" = 00 ] &&
	   [ "$(cat "$T/count")" = 1073741824 ]; then
		pass "1 GiB round trip"
	else
		fail "1 GiB round trip: exits $(cat "$T/rc1") $(cat "$T/rc2"), $(cat "$T/count") bytes"
	fi
else
	skip "1 GiB stream (set AESECB_TEST_LARGE=1 to run it)"
fi

# A file-size limit (SIGXFSZ) is a write error: exit 4, no temporary file,
# an existing OUT untouched.
mkdir "$T/fsz"
head -c 1048576 /dev/zero >"$T/fsz/mb"
echo keep >"$T/fsz/out"
if (ulimit -f 100) 2>/dev/null; then
	expect_status 4 sh -c 'ulimit -f 100; exec "$@"' sh \
		"$AESECB" encrypt -k $K128 -i "$T/fsz/mb" -o "$T/fsz/out"
	expect_stderr_fixed "File too large"
	expect_stderr_lines 1
	[ "$(cat "$T/fsz/out")" = keep ] && pass "ulimit -f: OUT kept" ||
		fail "ulimit -f: OUT changed"
	[ -z "$(ls -A "$T/fsz" | grep -v '^mb$' | grep -v '^out$')" ] &&
		pass "ulimit -f: no temporary file left" ||
		fail "ulimit -f: left $(ls -A "$T/fsz")"
else
	skip "file-size limit: ulimit -f is not supported"
fi

# -o through a symbolic link replaces the file it names, not the link.
mkdir "$T/lnk"
unhex 00112233445566778899aabbccddeeff >"$T/lnk/pt"
echo old >"$T/lnk/real"
ln -s real "$T/lnk/link"
expect_status 0 "$AESECB" encrypt -k $K128 -i "$T/lnk/pt" -o "$T/lnk/link"
[ -L "$T/lnk/link" ] && pass "-o link: the link is kept" ||
	fail "-o link: the link was replaced"
[ "$(hexof "$T/lnk/real")" = 69c4e0d86a7b0430d8cdb78070b4c55a ] &&
	pass "-o link: the target holds the output" ||
	fail "-o link: target holds $(hexof "$T/lnk/real")"
ln -s nowhere "$T/lnk/dangling"
expect_status 4 "$AESECB" encrypt -k $K128 -i "$T/lnk/pt" -o "$T/lnk/dangling"
expect_stderr_fixed "symbolic link to nothing"

# An existing OUT keeps its permissions; an empty OUT name is refused.
echo old >"$T/lnk/private"
chmod 600 "$T/lnk/private"
expect_status 0 "$AESECB" encrypt -k $K128 -i "$T/lnk/pt" -o "$T/lnk/private"
case $(ls -l "$T/lnk/private") in
	-rw-------*) pass "-o keeps the mode of an existing file" ;;
	*) fail "-o changed the mode: $(ls -l "$T/lnk/private")" ;;
esac
expect_status 2 "$AESECB" encrypt -k $K128 -i "$T/lnk/pt" -o ''
expect_stderr_fixed "output file name is empty"

# --help and --version report a failed write.
if [ -w /dev/full ]; then
	"$AESECB" --version >/dev/full 2>"$T/err"; rc=$?
	[ $rc = 4 ] && grep -q 'cannot write stdout' "$T/err" &&
		pass "--version to /dev/full: exit 4 with a message" ||
		fail "--version to /dev/full: exit $rc, $(cat "$T/err")"
fi

finish
