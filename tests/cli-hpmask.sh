#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-hpmask.sh - aesecb hp-mask: QUIC header-protection masks, and
# protecting / unprotecting packet headers (RFC 9001, section 5.4).
#
# Runs under the default backend; the each-backend runner repeats it with
# $AESECB_BACKEND set to every backend.

. "${top_srcdir:-.}/tests/testlib.sh"

note "backend: ${AESECB_BACKEND:-default}"

# Keys travel in the environment, not on the command line.
HPK=
export HPK

# ------------------------------------------------------------------
# The four vectors of vectors/quic-hp.txt: masks and whole blocks.
vecfile=$top_srcdir/vectors/quic-hp.txt
awk -F' *= *' '
	/^HP_KEY/ { k = $2 } /^SAMPLE/ { s = $2 } /^MASK/ { m = $2 }
	/^BLOCK/  { print k, s, m, $2 }' "$vecfile" >"$T/vec"
nvec=$(wc -l <"$T/vec" | tr -d ' ')
if [ "$nvec" -eq 4 ]; then
	pass "quic-hp.txt has 4 records"
else
	fail "quic-hp.txt: expected 4 records, parsed $nvec"
fi
while read -r key sample mask block; do
	HPK=$key
	expect_status 0 "$AESECB" hp-mask --key-env HPK "$sample"
	expect_stdout_eq "$mask"
	expect_stderr_empty
	expect_status 0 "$AESECB" hp-mask --key-env HPK --block "$sample"
	expect_stdout_eq "$block"
	# the same sample on standard input
	printf '%s\n' "$sample" >"$T/in"
	expect_status 0 "$AESECB" hp-mask --key-env HPK <"$T/in"
	expect_stdout_eq "$mask"
done <"$T/vec"

# -k and -K give the same as --key-env.
K1=$RFC9001_CLIENT_HP
S1=$RFC9001_SAMPLE
expect_status 0 "$AESECB" hp-mask -k "$K1" "$S1"
expect_stdout_eq "$RFC9001_MASK"
expect_status 0 "$AESECB" hp-mask --key="$K1" "$S1"
expect_stdout_eq 437b9aec36
printf '9f50449e 04a0e810 283a1e99 33adedd2\n' >"$T/key"
expect_status 0 "$AESECB" hp-mask -K "$T/key" "$S1"
expect_stdout_eq 437b9aec36

# Several samples: one mask per line, in order.  Whitespace in a sample is
# ignored.
HPK=$RFC9001_SERVER_HP
S2=2cd0991cd25b0aac406a5816b6394100
expect_status 0 "$AESECB" hp-mask --key-env HPK "$S2" "2cd0991c d25b0aac 406a5816 b6394100" "$S2"
expect_stdout_eq "2ec0d8356a
2ec0d8356a
2ec0d8356a"
expect_status 0 "$AESECB" hp-mask --key-env HPK --block "$S2" "$S2"
expect_stdout_eq "2ec0d8356af53be647a841efa6c1ee97
2ec0d8356af53be647a841efa6c1ee97"
# upper-case input, lower-case output
expect_status 0 "$AESECB" hp-mask --key-env HPK 2CD0991CD25B0AAC406A5816B6394100
expect_stdout_eq 2ec0d8356a

# AES-256 and AES-192 hp keys (FIPS 197 appendix C.3 and C.2).
HPK=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
expect_status 0 "$AESECB" hp-mask --key-env HPK 00112233445566778899aabbccddeeff
expect_stdout_eq 8ea2b7ca51
expect_status 0 "$AESECB" hp-mask --key-env HPK --block 00112233445566778899aabbccddeeff
expect_stdout_eq 8ea2b7ca516745bfeafc49904b496089
HPK=000102030405060708090a0b0c0d0e0f1011121314151617
expect_status 0 "$AESECB" hp-mask --key-env HPK --block 00112233445566778899aabbccddeeff
expect_stdout_eq dda97ca4864cdfe06eaf70a0ec0d7191

# ------------------------------------------------------------------
# The RFC 9001 Appendix A packets, both ways.
HPK=$K1
CI_CLEAR=c300000001088394c8f03e5157080000449e00000002
CI_PROT=$RFC9001_CLIENT_HEADER
# (a bare hp key removes header protection only: the payload is not checked)
expect_status 0 "$AESECB" hp-mask --key-env HPK --unprotect "$CI_PROT$S1" --pn-offset 18
expect_stdout_eq "type: Initial
offset: 0
length: 38
header: $CI_CLEAR
pn_length: 4
packet_number: 2
mask: 437b9aec36
payload: not checked (no packet key with -k)
packet: $CI_CLEAR$S1"
expect_status 0 "$AESECB" hp-mask --key-env HPK --protect "$CI_CLEAR$S1" --pn-offset 18
expect_stdout_eq "header: $CI_PROT
pn_length: 4
packet_number: 2
mask: 437b9aec36
packet: $CI_PROT$S1"
# --opt=value spelling
expect_status 0 "$AESECB" hp-mask --key-env=HPK --protect="$CI_CLEAR$S1" --pn-offset=18
expect_stdout_grep "^header: $CI_PROT\$"

HPK=$RFC9001_SERVER_HP
SI_CLEAR=c1000000010008f067a5502a4262b50040750001
SI_PROT=$(printf '%s' "$RFC9001_SERVER_INITIAL" | cut -c1-40)
SI_REST=5a48$S2
expect_status 0 "$AESECB" hp-mask --key-env HPK --unprotect "$SI_PROT$SI_REST" --pn-offset 18
expect_stdout_eq "type: Initial
offset: 0
length: 38
header: $SI_CLEAR
pn_length: 2
packet_number: 1
mask: 2ec0d8356a
payload: not checked (no packet key with -k)
packet: $SI_CLEAR$SI_REST"
expect_status 0 "$AESECB" hp-mask --key-env HPK --protect "$SI_CLEAR$SI_REST" --pn-offset 18
expect_stdout_eq "header: $SI_PROT
pn_length: 2
packet_number: 1
mask: 2ec0d8356a
packet: $SI_PROT$SI_REST"

# ------------------------------------------------------------------
# Standard input: comments, blank lines, CRLF, a last line without a
# newline, whitespace inside a sample.
printf '# samples\n\n%s\n   \n  %s  # the same again\r\n%s' \
	"$S2" "2cd0 991c d25b 0aac 406a 5816 b639 4100" "$S2" >"$T/in"
expect_status 0 "$AESECB" hp-mask --key-env HPK <"$T/in"
expect_stdout_eq "2ec0d8356a
2ec0d8356a
2ec0d8356a"
: >"$T/in"
expect_status 0 "$AESECB" hp-mask --key-env HPK <"$T/in"
expect_stdout_eq ""

# 10,000 random samples streamed on standard input.
HPK=$(od -An -v -tx1 -N16 /dev/urandom | tr -d ' \n')
od -An -v -tx1 -N160000 /dev/urandom | tr -d ' \n' | fold -w 32 >"$T/samples"
echo >>"$T/samples"
n=$(wc -l <"$T/samples" | tr -d ' ')
[ "$n" -eq 10000 ] || fail "generated $n samples, not 10000"
expect_status 0 "$AESECB" hp-mask --key-env HPK <"$T/samples"
cp "$T/out" "$T/masks"
expect_status 0 "$AESECB" hp-mask --key-env HPK --block <"$T/samples"
cp "$T/out" "$T/blocks"
if awk 'length($0) != 10 || $0 !~ /^[0-9a-f]+$/ { bad++ } END { exit bad || NR != 10000 }' "$T/masks"; then
	pass "10000 masks of 10 lowercase hex digits"
else
	fail "stdin masks are not 10000 lines of 10 hex digits"
fi
if cut -c1-10 "$T/blocks" | cmp -s - "$T/masks"; then
	pass "masks are the first 5 bytes of the blocks"
else
	fail "masks differ from the first 5 bytes of --block"
fi
# The same samples as arguments, 2500 per call.
xargs -n 2500 "$AESECB" hp-mask --key-env HPK <"$T/samples" >"$T/argmasks" 2>"$T/err"
expect_same_file "$T/masks" "$T/argmasks"
# A few lines one at a time.
for line in 1 257 4999 10000; do
	s=$(sed -n "${line}p" "$T/samples")
	want=$(sed -n "${line}p" "$T/masks")
	expect_status 0 "$AESECB" hp-mask --key-env HPK "$s"
	expect_stdout_eq "$want"
done
# And against 'aesecb encrypt -x' on the whole file, when encrypt works.
printf '00112233445566778899aabbccddeeff\n' >"$T/pt"
KEYC=000102030405060708090a0b0c0d0e0f
export KEYC
run "$AESECB" encrypt --key-env KEYC -x -i "$T/pt"
if [ "$rc" -eq 0 ] && [ "$(cat "$T/out")" = 69c4e0d86a7b0430d8cdb78070b4c55a ]; then
	expect_status 0 "$AESECB" encrypt --key-env HPK -x -i "$T/samples"
	expect_same_file "$T/out" "$T/blocks"
else
	skip "cross-check against 'aesecb encrypt -x' (encrypt does not work here)"
fi

# ------------------------------------------------------------------
# protect and unprotect round trips on random long and short headers:
# every pn length, varying pn offsets, the form bit set or clear.  An awk
# model computes the expected protected packet from the mask that the
# plain mask mode gives for the packet's sample.
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
note "round-trip seed: $seed"
awk -v seed="$seed" -v n=24 '
	function hx(v) { return substr(H, int(v / 16) + 1, 1) substr(H, v % 16 + 1, 1) }
	function rnd(k) { return int(rand() * k) }
	BEGIN {
		H = "0123456789abcdef"
		srand(seed)
		for (i = 0; i < n; i++) {
			long = i % 2
			pnlen = int(i / 2) % 4 + 1
			# long headers: first byte, version, dcid len, dcid, ...
			off = long ? 7 + rnd(40) : 1 + rnd(21)
			len = off + 4 + 16 + rnd(40)
			b = rnd(256)
			b = b - b % 4 + (pnlen - 1)             # pn length bits
			b = long ? (b % 128) + 128 : b % 128     # header form bit
			p = hx(b)
			for (j = 1; j < len; j++)
				p = p hx(rnd(256))
			print off, pnlen, long, p
		}
	}' >"$T/pkts"

HPK=$(od -An -v -tx1 -N16 /dev/urandom | tr -d ' \n')
# the mask of each packet's sample, all in one call
awk '{ print substr($4, 2 * $1 + 9, 32) }' "$T/pkts" >"$T/pktsamples"
"$AESECB" hp-mask --key-env HPK <"$T/pktsamples" >"$T/pktmasks" 2>"$T/rterr"
exec 3<"$T/pktmasks"
while read -r off pnlen long pkt; do
	read -r mask <&3 || mask=x
	"$AESECB" hp-mask --key-env HPK --protect "$pkt" --pn-offset "$off" >"$T/p" 2>>"$T/rterr"
	prot=$(sed -n 's/^packet: //p' "$T/p")
	got_len=$(sed -n 's/^pn_length: //p' "$T/p")
	got_pn=$(sed -n 's/^packet_number: //p' "$T/p")
	got_mask=$(sed -n 's/^mask: //p' "$T/p")
	"$AESECB" hp-mask --key-env HPK --unprotect "$prot" --pn-offset "$off" >"$T/u" 2>>"$T/rterr"
	back=$(sed -n 's/^packet: //p' "$T/u")
	back_hdr=$(sed -n 's/^header: //p' "$T/u")
	back_len=$(sed -n 's/^pn_length: //p' "$T/u")
	back_pn=$(sed -n 's/^packet_number: //p' "$T/u")
	echo "$off $pnlen $long $pkt $mask ${prot:-x} ${got_len:-x} ${got_pn:-x} ${got_mask:-x} ${back:-x} ${back_hdr:-x} ${back_len:-x} ${back_pn:-x}"
done <"$T/pkts" >"$T/rt"
exec 3<&-

awk '
	function xor8(a, b,   r, i) {
		r = 0
		for (i = 0; i < 8; i++) {
			if (a % 2 != b % 2)
				r += 2 ^ i
			a = int(a / 2); b = int(b / 2)
		}
		return r
	}
	function byte(s, k) {   # byte k (0-based) of hex string s
		return (index(H, substr(s, 2 * k + 1, 1)) - 1) * 16 + \
		       index(H, substr(s, 2 * k + 2, 1)) - 1
	}
	function hx(v) { return substr(H, int(v / 16) + 1, 1) substr(H, v % 16 + 1, 1) }
	BEGIN { H = "0123456789abcdef" }
	{
		off = $1; pnlen = $2; long = $3; pkt = $4; mask = $5
		prot = $6; glen = $7; gpn = $8; gmask = $9
		back = $10; bhdr = $11; blen = $12; bpn = $13
		# expected protected packet
		want = hx(xor8(byte(pkt, 0), long ? byte(mask, 0) % 16 : byte(mask, 0) % 32))
		pn = 0
		for (k = 1; k < length(pkt) / 2; k++) {
			v = byte(pkt, k)
			if (k >= off && k < off + pnlen) {
				pn = pn * 256 + v
				v = xor8(v, byte(mask, 1 + k - off))
			}
			want = want hx(v)
		}
		why = ""
		if (prot != want) why = why " protected packet"
		if (glen != pnlen || blen != pnlen) why = why " pn_length"
		if (gpn != pn || bpn != pn) why = why " packet_number"
		if (gmask != mask) why = why " mask"
		if (back != pkt) why = why " round trip"
		if (bhdr != substr(pkt, 1, 2 * (off + pnlen))) why = why " header"
		if (why != "") {
			printf "packet %d (offset %d, pn length %d, %s header):%s\n", \
			       NR, off, pnlen, long ? "long" : "short", why
			bad++
		}
	}
	END { exit bad ? 1 : 0 }' "$T/rt" >"$T/rtbad"
if [ $? -eq 0 ] && [ "$(wc -l <"$T/rt" | tr -d ' ')" -eq 24 ] && [ ! -s "$T/rterr" ]; then
	pass "24 random packets: protect matches the model, unprotect restores them"
else
	fail "protect/unprotect round trips"
	head -n 5 "$T/rtbad" "$T/rterr" >&2
fi

# ------------------------------------------------------------------
# Bad input: exit status 2 and a message saying what is wrong; the key
# never appears in a message.
HPK=$K1
expect_status 2 "$AESECB" hp-mask --key-env HPK d1b1c98dd7689fb8ec11d242b123dc
expect_stderr_fixed "aesecb: hp-mask: sample argument 1: sample is 15 bytes; a sample is 16 bytes (32 hex digits)"
expect_stderr_lines 1
expect_stderr_lacks "$K1"
expect_stdout_eq ""
expect_status 2 "$AESECB" hp-mask --key-env HPK "$S1" "${S1}00"
expect_stderr_fixed "sample argument 2: sample is 17 bytes"
expect_stdout_eq ""
expect_status 2 "$AESECB" hp-mask --key-env HPK "$S1" d1b1c98dd7689fb8ec11d242b123dc9
expect_stderr_fixed "sample argument 2: odd number of hex digits (31)"
expect_status 2 "$AESECB" hp-mask --key-env HPK d1b1c98dd7689fb8ec11d242b123dcxy
expect_stderr_fixed "sample argument 1: bad hex digit 'x'"
expect_status 2 "$AESECB" hp-mask --key-env HPK ""
expect_stderr_fixed "sample argument 1: empty sample"

# stdin: the masks of the good lines before the bad one come out.
printf '%s\n# fine\n%s\n\n%s\n%s\n\n%s\nd1b1c98dd7689fb8ec11d242b123dc\n%s\n' \
	"$S1" "$S1" "$S1" "$S1" "$S1" "$S1" >"$T/in"
expect_status 2 "$AESECB" hp-mask --key-env HPK <"$T/in"
expect_stderr_fixed "aesecb: hp-mask: stdin:9: sample is 15 bytes; a sample is 16 bytes (32 hex digits)"
expect_stderr_lines 1
expect_stdout_eq "437b9aec36
437b9aec36
437b9aec36
437b9aec36
437b9aec36"
printf '%s\n%sg\n' "$S1" "$S1" >"$T/in"
expect_status 2 "$AESECB" hp-mask --key-env HPK <"$T/in"
expect_stderr_fixed "stdin:2: bad hex digit 'g'"
printf '%s\n%s0' "$S1" "$S1" >"$T/in"
expect_status 2 "$AESECB" hp-mask --key-env HPK <"$T/in"
expect_stderr_fixed "stdin:2: odd number of hex digits (33)"

# Packets.
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "$CI_PROT$S1"
expect_stderr_fixed "aesecb: hp-mask: the Length field (1182) runs past the end of the packet"
expect_stdout_eq ""
expect_status 2 "$AESECB" hp-mask --key-env HPK --protect "$CI_CLEAR$S1"
expect_stderr_fixed "aesecb: hp-mask: the Length field (1182) runs past the end of the packet"
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "$CI_PROT$S1" --pn-offset 38
expect_stderr_fixed "--pn-offset 38 is past the end of the packet (38 bytes)"
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "$CI_PROT$S1" --pn-offset 99999999999999999999999
expect_stderr_fixed "not a byte offset"
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "$CI_PROT$S1" --pn-offset -1
expect_stderr_fixed "not a byte offset"
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "$CI_PROT$S1" --pn-offset 0
expect_stderr_fixed "--pn-offset 0"
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "$CI_PROT$S1" --pn-offset 19
expect_stderr_fixed "packet too short for its sample: the sample is bytes 23 to 38, so 39 bytes are needed; the packet has 38"
expect_stdout_eq ""
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "$CI_PROT" --pn-offset 18
expect_stderr_fixed "so 38 bytes are needed; the packet has 22"
# the packet number itself past the end (pn length 4 from the first byte)
expect_status 2 "$AESECB" hp-mask --key-env HPK --protect c30000000108 --pn-offset 3
expect_stderr_fixed "the packet number (4 bytes at offset 3) runs past the end of the packet (6 bytes)"
expect_status 2 "$AESECB" hp-mask --key-env HPK --protect "${CI_CLEAR}zz$S1" --pn-offset 18
expect_stderr_fixed "--protect: bad hex digit 'z' at character 45"
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "${CI_PROT}0$S1" --pn-offset 18
expect_stderr_fixed "--unprotect: odd number of hex digits (77)"
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "" --pn-offset 18
expect_stderr_fixed "the packet is empty"
expect_status 2 "$AESECB" hp-mask --key-env HPK --pn-offset 18 "$S1"
expect_stderr_fixed "--pn-offset needs --protect or --unprotect"
expect_status 2 "$AESECB" hp-mask --key-env HPK --protect "$CI_CLEAR$S1" --unprotect "$CI_PROT$S1" --pn-offset 18
expect_stderr_fixed "cannot be used together"
expect_status 2 "$AESECB" hp-mask --key-env HPK --block --protect "$CI_CLEAR$S1" --pn-offset 18
expect_stderr_fixed "--block cannot be used with --protect"
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect "$CI_PROT$S1" --pn-offset 18 "$S1"
expect_stderr_fixed "--unprotect takes no SAMPLE_HEX arguments"

# Every option is parsed and checked where it stands on the command line,
# before any packet is looked at: the first bad one is the one reported.
expect_status 2 "$AESECB" hp-mask --key-env HPK --pn-offset abc --unprotect zz
expect_stderr_fixed "aesecb: hp-mask: --pn-offset: not a byte offset: 'abc'"
expect_stderr_lines 1
expect_status 2 "$AESECB" hp-mask --key-env HPK --unprotect zz --pn-offset abc
expect_stderr_fixed "aesecb: hp-mask: --unprotect: bad hex digit 'z' at character 1"
expect_stderr_lines 1
expect_status 2 "$AESECB" hp-mask --initial --odcid 12x4 --unprotect zz
expect_stderr_fixed "aesecb: hp-mask: --odcid: bad hex digit 'x' at character 3"
expect_stderr_lines 1
# a bad --odcid after a packet the header parse refuses is reported too
expect_status 2 "$AESECB" hp-mask --initial --unprotect "40$S1$S1" --odcid 12x4
expect_stderr_fixed "aesecb: hp-mask: --odcid: bad hex digit 'x' at character 3"
expect_stderr_lines 1
expect_status 2 "$AESECB" hp-mask --hash md5 --secret-env HPK --unprotect zz
expect_stderr_fixed "aesecb: hp-mask: --hash: unknown hash 'md5'"
expect_status 2 "$AESECB" hp-mask --key-env HPK --dcid-len 99 --protect zz
expect_stderr_fixed "aesecb: hp-mask: --dcid-len: not a connection ID length (0 to 20): '99'"

# Keys and options.
expect_status 2 "$AESECB" hp-mask "$S1"
expect_stderr_fixed "no key given"
expect_status 2 "$AESECB" hp-mask -k 9f50449e04a0e810283a1e9933aded "$S1"
expect_stderr_fixed "aesecb: hp-mask: -k: the key is 15 bytes"
expect_stderr_lacks "9f50449e"
expect_status 2 "$AESECB" hp-mask -k "$K1" --key-env HPK "$S1"
expect_stderr_fixed "more than one key option"
expect_status 2 "$AESECB" hp-mask --key-env HPK --frobnicate "$S1"
expect_stderr_fixed "unknown option '--frobnicate'"
# a misspelled or unknown option is named without its value: no key bytes
expect_status 2 "$AESECB" hp-mask --kye=9f50449e04a0e810283a1e9933adedd2 "$S1"
expect_stderr_fixed "aesecb: hp-mask: unknown option '--kye' "
expect_stderr_lacks "9f50449e"
expect_status 2 "$AESECB" hp-mask -x9f50449e04a0e810283a1e9933adedd2 "$S1"
expect_stderr_fixed "aesecb: hp-mask: unknown option '-x' "
expect_stderr_lacks "9f50449e"
expect_status 2 "$AESECB" hp-mask --key-env HPK --pn-offset
expect_stderr_fixed "option '--pn-offset' needs a value"
expect_status 2 "$AESECB" hp-mask --key-env
expect_stderr_fixed "option '--key-env' needs a value"
expect_status 4 "$AESECB" hp-mask -K "$T/no-such-key-file" "$S1"
expect_stderr_fixed "aesecb: hp-mask: -K: cannot open the key file: No such file or directory"
expect_stderr_lacks "no-such-key-file"

# Backends that cannot run here: status 3.
expect_status 3 "$AESECB" hp-mask --key-env HPK -b no-such-backend "$S1"
expect_stderr_fixed "unknown backend 'no-such-backend'"
expect_status 3 env AESECB_BACKEND=no-such-backend "$AESECB" hp-mask --key-env HPK "$S1"
expect_stderr_fixed "AESECB_BACKEND"

# A full disk: status 4.
if [ -w /dev/full ]; then
	run sh -c '"$AESECB" hp-mask --key-env HPK "$1" >/dev/full' sh "$S1"
	[ "$rc" -eq 4 ] && pass "exit 4 writing to /dev/full" ||
		fail "writing to /dev/full: expected exit 4, got $rc"
	expect_stderr_fixed "aesecb: hp-mask: cannot write stdout: "
	run sh -c '"$AESECB" hp-mask --help >/dev/full'
	[ "$rc" -eq 4 ] && pass "--help: exit 4 writing to /dev/full" ||
		fail "--help to /dev/full: expected exit 4, got $rc"
	expect_stderr_fixed "aesecb: hp-mask: cannot write stdout: "
else
	skip "no /dev/full"
fi

# A read from standard input that fails after samples were read: the masks
# of those samples are written first, then the error says why the read
# failed (not "Success": the write must not clear errno).  Standard input
# is a pipe in non-blocking mode holding one full read's worth of samples,
# so the next read fails with EAGAIN.
if command -v python3 >/dev/null 2>&1; then
	HPK=$K1
	if python3 - "$AESECB" "$T/out" "$T/err" <<'EOF'
import os, subprocess, sys
r, w = os.pipe()
line = b"00112233445566778899aabbccddeeff\n"
os.write(w, (line * 600)[:16384])
os.set_blocking(r, False)
with open(sys.argv[2], "wb") as out, open(sys.argv[3], "wb") as err:
    p = subprocess.Popen([sys.argv[1], "hp-mask", "--key-env", "HPK"],
                         stdin=r, stdout=out, stderr=err)
    os.close(r)
    try:
        rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = -1
os.close(w)
sys.exit(rc)
EOF
	then
		rc=0
	else
		rc=$?
	fi
	[ "$rc" -eq 4 ] && pass "failed read on stdin: exit 4" ||
		fail "failed read on stdin: exit $rc, expected 4"
	expect_stderr_fixed "aesecb: hp-mask: stdin: read error: Resource temporarily unavailable"
	expect_stderr_lacks "Success"
	expect_stderr_lines 1
	n=$(wc -l <"$T/out" | tr -d ' ')
	[ "$n" -eq 496 ] && pass "the 496 samples read before it are answered" ||
		fail "$n masks written before the read error, expected 496"
else
	skip "python3 not installed: failed read on stdin not tested"
fi

# ------------------------------------------------------------------
# Help.
expect_status 0 "$AESECB" hp-mask --help
expect_stdout_grep "^Usage: aesecb hp-mask"
expect_stdout_grep "process list"
expect_stdout_grep "unprotect"
cp "$T/out" "$T/help1"
expect_status 0 "$AESECB" help hp-mask
expect_same_file "$T/help1" "$T/out"

finish
