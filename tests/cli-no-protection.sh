#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-no-protection.sh - Retry and Version Negotiation packets have no
# header protection: hp-mask --protect and --unprotect refuse them whatever
# the key source (-k, -K, --key-env, a secret, --initial) and whatever says
# where the packet number is (the header, --pn-offset, --dcid-len), also
# when the packet is cut short after its version; nothing is printed.

. "${top_srcdir:-.}/tests/testlib.sh"

HP=00112233445566778899aabbccddeeff
SECRET=$RFC9001_CLIENT_SECRET
# after the first byte and the version: DCID and SCID lengths and bytes,
# then enough bytes for any sample
REST=${RFC9001_CLIENT_HEADER#c000000001}${RFC9001_SAMPLE}0011223344556677
printf '%s\n' "$HP" >"$T/hp"
printf '%s\n' "$SECRET" >"$T/secret"
HPVAR=$HP
SECVAR=$SECRET
export HPVAR SECVAR

# type first-byte version: Retry is type 3 in version 1, type 0 in
# version 2 (RFC 9369); Version Negotiation is version 0, any first byte
for case in "Retry f0 00000001" "Retry cf 6b3343cf" \
            "Version-Negotiation 80 00000000" "Version-Negotiation ff 00000000" \
            "Version-Negotiation c0 00000000"; do
	set -- $case
	type=$(echo "$1" | tr - ' ')
	for pkt in "$2$3$REST" "$2${3}08"; do
		for src in "-k $HP" "--secret $SECRET" "--initial" "-K $T/hp" \
		           "--key-env HPVAR" "--secret-file $T/secret" \
		           "--secret-env SECVAR"; do
			wheres='"" "--pn-offset 18" "--pn-offset 1"'
			case $src in -K*|--*-*) wheres='"--pn-offset 18"' ;; esac
			eval "set -- $wheres"
			for where in "$@"; do
				for op in --protect --unprotect; do
					expect_status 2 "$AESECB" hp-mask $src $where $op "$pkt"
					expect_stderr_fixed "aesecb: hp-mask: $type packets have no header protection"
					expect_stderr_lines 1
					if [ -s "$T/out" ]; then
						fail "output for a $type packet: hp-mask $src $where $op $pkt"
					fi
				done
			done
		done
	done
done

# The packets that have header protection are still accepted with
# --pn-offset: Initial, 0-RTT and Handshake of both versions.
for pkt in c000000001 d000000001 e000000001 d06b3343cf e06b3343cf f06b3343cf; do
	expect_status 0 "$AESECB" hp-mask -k "$HP" --pn-offset 18 --protect "$pkt$REST"
	expect_stdout_grep '^packet: '
done

finish
