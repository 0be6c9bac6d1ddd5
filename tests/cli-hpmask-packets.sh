#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-hpmask-packets.sh - aesecb hp-mask on whole QUIC packets: the packets
# of RFC 9001 A.2/A.3 and RFC 9369 A.2/A.3 unprotected with --initial,
# generated packets of every kind (tests/quicgen, built on OpenSSL's
# libcrypto) unprotected and protected again with every key source, and
# malformed packets and options refused with one line.
#
# Runs under the default backend; the each-backend runner repeats it with
# $AESECB_BACKEND set to every backend.

. "${top_srcdir:-.}/tests/testlib.sh"

note "backend: ${AESECB_BACKEND:-default}"

# field NAME: the value of "NAME: value" in the last run's stdout
field() {
	sed -n "s/^$1: //p" "$T/out"
}

# expect_refused WHAT...: exit 2, one line on stderr containing WHAT,
# nothing on stdout.  The command is in "$@" after the message.
expect_refused() {
	testlib_msg=$1
	shift
	expect_status 2 "$@"
	expect_stderr_fixed "$testlib_msg"
	expect_stderr_lines 1
	if [ -s "$T/out" ]; then
		fail "stdout is not empty: $*"
	else
		pass "stdout is empty"
	fi
}

DCID=$RFC9001_DCID

# ------------------------------------------------------------------
# RFC 9001 A.2 and RFC 9369 A.2: the client Initial, 1200 bytes.
V1_CLIENT=$RFC9001_CLIENT_INITIAL

V2_CLIENT=\
d76b3343cf088394c8f03e5157080000449ea0c95e82ffe67b6abcdb4298b485\
dd04de806071bf03dceebfa162e75d6c96058bdbfb127cdfcbf903388e99ad04\
9f9a3dd4425ae4d0992cfff18ecf0fdb5a842d09747052f17ac2053d21f57c5d\
250f2c4f0e0202b70785b7946e992e58a59ac52dea6774d4f03b55545243cf1a\
12834e3f249a78d395e0d18f4d766004f1a2674802a747eaa901c3f10cda5500\
cb9122faa9f1df66c392079a1b40f0de1c6054196a11cbea40afb6ef5253cd68\
18f6625efce3b6def6ba7e4b37a40f7732e093daa7d52190935b8da58976ff33\
12ae50b187c1433c0f028edcc4c2838b6a9bfc226ca4b4530e7a4ccee1bfa2a3\
d396ae5a3fb512384b2fdd851f784a65e03f2c4fbe11a53c7777c023462239dd\
6f7521a3f6c7d5dd3ec9b3f233773d4b46d23cc375eb198c63301c21801f6520\
bcfb7966fc49b393f0061d974a2706df8c4a9449f11d7f3d2dcbb90c6b877045\
636e7c0c0fe4eb0f697545460c806910d2c355f1d253bc9d2452aaa549e27a1f\
ac7cf4ed77f322e8fa894b6a83810a34b361901751a6f5eb65a0326e07de7c12\
16ccce2d0193f958bb3850a833f7ae432b65bc5a53975c155aa4bcb4f7b2c4e5\
4df16efaf6ddea94e2c50b4cd1dfe06017e0e9d02900cffe1935e0491d77ffb4\
fdf85290fdd893d577b1131a610ef6a5c32b2ee0293617a37cbb08b847741c3b\
8017c25ca9052ca1079d8b78aebd47876d330a30f6a8c6d61dd1ab5589329de7\
14d19d61370f8149748c72f132f0fc99f34d766c6938597040d8f9e2bb522ff9\
9c63a344d6a2ae8aa8e51b7b90a4a806105fcbca31506c446151adfeceb51b91\
abfe43960977c87471cf9ad4074d30e10d6a7f03c63bd5d4317f68ff325ba3bd\
80bf4dc8b52a0ba031758022eb025cdd770b44d6d6cf0670f4e990b22347a7db\
848265e3e5eb72dfe8299ad7481a408322cac55786e52f633b2fb6b614eaed18\
d703dd84045a274ae8bfa73379661388d6991fe39b0d93debb41700b41f90a15\
c4d526250235ddcd6776fc77bc97e7a417ebcb31600d01e57f32162a8560cacc\
7e27a096d37a1a86952ec71bd89a3e9a30a2a26162984d7740f81193e8238e61\
f6b5b984d4d3dfa033c1bb7e4f0037febf406d91c0dccf32acf423cfa1e70710\
10d3f270121b493ce85054ef58bada42310138fe081adb04e2bd901f2f13458b\
3d6758158197107c14ebb193230cd1157380aa79cae1374a7c1e5bbcb80ee23e\
06ebfde206bfb0fcbc0edc4ebec309661bdd908d532eb0c6adc38b7ca7331dce\
8dfce39ab71e7c32d318d136b6100671a1ae6a6600e3899f31f0eed19e3417d1\
34b90c9058f8632c798d4490da4987307cba922d61c39805d072b589bd52fdf1\
e86215c2d54e6670e07383a27bbffb5addf47d66aa85a0c6f9f32e59d85a44dd\
5d3b22dc2be80919b490437ae4f36a0ae55edf1d0b5cb4e9a3ecabee93dfc6e3\
8d209d0fa6536d27a5d6fbb17641cde27525d61093f1b28072d111b2b4ae5f89\
d5974ee12e5cf7d5da4d6a31123041f33e61407e76cffcdcfd7e19ba58cf4b53\
6f4c4938ae79324dc402894b44faf8afbab35282ab659d13c93f70412e85cb19\
9a37ddec600545473cfb5a05e08d0b209973b2172b4d21fb69745a262ccde96b\
a18b2faa745b6fe189cf772a9f84cbfc

# RFC 9001 A.3 and RFC 9369 A.3: the server Initial, 135 bytes.
V1_SERVER=$RFC9001_SERVER_INITIAL
V2_SERVER=\
dc6b3343cf0008f067a5502a4262b5004075d92faaf16f05d8a4398c47089698\
baeea26b91eb761d9b89237bbf87263017915358230035f7fd3945d88965cf17\
f9af6e16886c61bfc703106fbaf3cb4cfa52382dd16a393e42757507698075b2\
c984c707f0a0812d8cd5a6881eaf21ceda98f4bd23f6fe1a3e2c43edd9ce7ca8\
4bed8521e2e140

# The secrets and hp keys the RFCs give (A.1 of each).
V1_CLIENT_SECRET=$RFC9001_CLIENT_SECRET
V1_SERVER_SECRET=$RFC9001_SERVER_SECRET
V2_CLIENT_SECRET=14ec9d6eb9fd7af83bf5a668bc17a7e283766aade7ecd0891f70f9ff7f4bf47b
V2_SERVER_SECRET=0263db1782731bf4588e7e4d93b7463907cb8cd8200b5da55a8bd488eafc37c1
V1_CLIENT_HP=$RFC9001_CLIENT_HP
V1_SERVER_HP=$RFC9001_SERVER_HP
V2_CLIENT_HP=45b95e15235d6f45a6b19cbcb0294ba9
V2_SERVER_HP=edf6d05c83121201b436e16877593c3a

# check_rfc NAME PROTECTED CLEAR_HEADER PN_LENGTH PN MASK SECRET HP INITIAL_OPTS
check_rfc() {
	name=$1 prot=$2 hdr=$3 pnl=$4 pn=$5 mask=$6 secret=$7 hp=$8
	shift 8
	hl=${#hdr}
	want=$hdr$(printf '%s' "$prot" | cut -c$((hl + 1))-)
	ver=1
	case $name in v2*) ver=2 ;; esac

	expect_status 0 "$AESECB" hp-mask --initial "$@" --unprotect "$prot"
	expect_stderr_empty
	if [ "$(field packet)" = "$want" ]; then
		pass "$name: --initial gives the RFC's header, payload unchanged"
	else
		fail "$name: --initial: packet differs"
	fi
	[ "$(field header)" = "$hdr" ] && pass "$name: header" ||
		fail "$name: header $(field header), want $hdr"
	[ "$(field pn_length)" = "$pnl" ] && pass "$name: pn_length" ||
		fail "$name: pn_length $(field pn_length), want $pnl"
	[ "$(field packet_number)" = "$pn" ] && pass "$name: packet_number" ||
		fail "$name: packet_number $(field packet_number), want $pn"
	[ "$(field mask)" = "$mask" ] && pass "$name: mask" ||
		fail "$name: mask $(field mask), want $mask"

	# the same with every other key source
	HPK=$hp SECRET=$secret
	export HPK SECRET
	printf '%s\n' "$secret" >"$T/secret"
	printf '%s\n' "$hp" >"$T/hp"
	for src in "-k $hp" "-K $T/hp" "--key-env HPK" "--secret $secret" \
	           "--secret-file $T/secret" "--secret-env SECRET" \
	           "--secret-env SECRET --hash sha256 --quic-version $ver"; do
		# shellcheck disable=SC2086
		expect_status 0 "$AESECB" hp-mask $src --unprotect "$prot"
		if [ "$(field packet)" = "$want" ]; then
			pass "$name: unprotected with ${src%% *}"
		else
			fail "$name: unprotect with $src: packet differs"
		fi
	done
	# the long header's version wins over --quic-version
	other=2
	[ $ver = 2 ] && other=1
	expect_status 0 "$AESECB" hp-mask --secret-env SECRET \
		--quic-version $other --unprotect "$prot"
	[ "$(field packet)" = "$want" ] &&
		pass "$name: the packet's version wins over --quic-version" ||
		fail "$name: --quic-version $other overrode the packet's version"
	# and protected again
	expect_status 0 "$AESECB" hp-mask --initial "$@" --protect "$want"
	if [ "$(field packet)" = "$prot" ]; then
		pass "$name: --protect gives the RFC's protected packet"
	else
		fail "$name: --protect: packet differs"
	fi
	# --pn-offset overrides what the header says (here: the same)
	expect_status 0 "$AESECB" hp-mask --key-env HPK --pn-offset $(( (hl - 2 * pnl) / 2 )) \
		--unprotect "$prot"
	[ "$(field packet)" = "$want" ] && pass "$name: --pn-offset" ||
		fail "$name: --pn-offset: packet differs"
}

check_rfc v1-client "$V1_CLIENT" c300000001088394c8f03e5157080000449e00000002 \
	4 2 437b9aec36 $V1_CLIENT_SECRET $V1_CLIENT_HP
check_rfc v2-client "$V2_CLIENT" d36b3343cf088394c8f03e5157080000449e00000002 \
	4 2 94a0c95e80 $V2_CLIENT_SECRET $V2_CLIENT_HP
check_rfc v1-server "$V1_SERVER" c1000000010008f067a5502a4262b50040750001 \
	2 1 2ec0d8356a $V1_SERVER_SECRET $V1_SERVER_HP --server --odcid $DCID
check_rfc v2-server "$V2_SERVER" d16b3343cf0008f067a5502a4262b50040750001 \
	2 1 4dd92e91ea $V2_SERVER_SECRET $V2_SERVER_HP --server --odcid $DCID

# without --server both sides' keys are tried: the server's verifies
expect_status 0 "$AESECB" hp-mask --initial --odcid $DCID --unprotect "$V1_SERVER"
[ "$(field header)" = c1000000010008f067a5502a4262b50040750001 ] &&
	[ "$(field payload)" = "authenticated (server Initial key of DCID $DCID, --odcid)" ] &&
	pass "without --server the server's key is found by its tag" ||
	fail "--odcid without --server: $(field payload)"
# without --odcid (its own DCID is empty) it cannot be keyed: refused with
# --server, not authenticated without
expect_refused "a server's Initial is keyed by the client's first DCID: give --odcid" \
	"$AESECB" hp-mask --initial --server --unprotect "$V1_SERVER"
expect_status 1 "$AESECB" hp-mask --initial --unprotect "$V1_SERVER"
expect_stderr_fixed "not authenticated: an Initial is keyed by the client's first DCID: give --odcid"
[ "$(field payload)" = "not authenticated" ] &&
	[ "$(field header)" != c1000000010008f067a5502a4262b50040750001 ] &&
	pass "the server's packet with its own DCID: not authenticated" ||
	fail "the server's packet without --odcid: $(field payload)"
# bytes after the packet's Length are the next part of the datagram,
# reported on their own; the packet is unprotected alone
expect_status 0 "$AESECB" hp-mask --initial --server --odcid $DCID \
	--unprotect "${V1_SERVER}00112233"
[ "$(field packet | head -n 1)" = "c1000000010008f067a5502a4262b50040750001$(printf '%s' "$V1_SERVER" | cut -c41-)" ] &&
	[ "$(field offset | tr '\n' ' ')" = "0 135 " ] &&
	pass "bytes after the packet's Length: a part of their own at offset 135" ||
	fail "coalesced bytes: offsets $(field offset | tr '\n' ' ')"

# ------------------------------------------------------------------
# Generated packets of every kind, built by tests/quicgen with OpenSSL.

QUICGEN=$top_builddir/tests/quicgen
rnd() {
	od -An -v -tx1 -N"$1" /dev/urandom | tr -d ' \n'
}
gfield() {
	sed -n "s/^$1: //p" "$T/gen"
}

# check_gen NAME HDR_OPTS SOURCES QUICGEN_ARGS...: unprotect the generated
# packet with every key source in SOURCES (one per line, evaluated once
# $HP and $SECRET hold the packet's hp key and secret), compare, and
# protect it again with the first.
check_gen() {
	name=$1 hdropts=$2 srcs=$3
	shift 3
	if ! ${TEST_EMULATOR:-} "$QUICGEN" "$@" >"$T/gen" 2>"$T/generr"; then
		fail "$name: quicgen $*: $(cat "$T/generr")"
		return
	fi
	HP=$(gfield hp) SECRET=$(gfield secret)
	HPK=$HP
	export HPK SECRET
	printf '%s\n' "$SECRET" >"$T/secret"
	printf '%s\n' "$HP" >"$T/hp"
	prot=$(gfield protected) clear=$(gfield clear) hdr=$(gfield header)
	first=
	while IFS= read -r src; do
		[ -n "$src" ] || continue
		[ -n "$first" ] || first=$src
		eval "set -- $src $hdropts"
		expect_status 0 "$AESECB" hp-mask "$@" --unprotect "$prot"
		if [ "$(field packet)" = "$clear" ] &&
		   [ "$(field header)" = "$hdr" ]; then
			pass "$name: unprotected with $src"
		else
			fail "$name: unprotect with $src $hdropts: header $(field header), want $hdr"
		fi
	done <<SOURCES
$srcs
SOURCES
	eval "set -- $first $hdropts"
	expect_status 0 "$AESECB" hp-mask "$@" --protect "$clear"
	if [ "$(field packet)" = "$prot" ]; then
		pass "$name: protected again"
	else
		fail "$name: --protect with $first $hdropts: packet differs"
	fi
}

KEYSRCS='-k $HP
-K "$T/hp"
--key-env HPK'

if [ ! -x "$QUICGEN" ]; then
	skip "generated packets: tests/quicgen was not built (OpenSSL libcrypto not found)"
else
	for v in 1 2; do
		for pnl in 1 2 3 4; do
			pn=$(( (1 << (8 * pnl - 1)) + pnl * 77 ))
			d=$(rnd $((4 + 4 * pnl))) s=$(rnd $((pnl * 2)))
			h=sha256 hl=32
			[ $((pnl % 2)) -eq 0 ] && h=sha384 hl=48
			sec=$(rnd $hl)
			secsrcs="--secret \$SECRET --hash $h
--secret-file \"\$T/secret\" --hash $h
--secret-env SECRET --hash $h --quic-version $v"
			check_gen "v$v client Initial, pn $pnl bytes" "" "--initial
--secret \$SECRET
$KEYSRCS" v=$v type=initial dcid="$d" scid="$s" pn=$pn pnlen=$pnl \
				payload=$((20 * pnl))
			check_gen "v$v client Initial with a token, pn $pnl bytes" "" \
				"--initial
--secret-env SECRET
$KEYSRCS" v=$v type=initial dcid="$d" token="$(rnd $((pnl * 30)))" \
				pn=$pn pnlen=$pnl payload=$((pnl == 1 ? 30 : 200)) \
				lenlen=$((1 << (pnl - 1)))
			check_gen "v$v server Initial, pn $pnl bytes" "" \
				"--initial --server --odcid $d
--secret-file \"\$T/secret\"
$KEYSRCS" v=$v type=initial side=server odcid="$d" dcid="$s" \
				scid="$(rnd 8)" pn=$pn pnlen=$pnl payload=99
			check_gen "v$v Handshake $h, pn $pnl bytes" "" "$secsrcs
$KEYSRCS" v=$v type=handshake dcid="$d" scid="$s" hash=$h secret="$sec" \
				pn=$pn pnlen=$pnl payload=$((3 * pnl))
			check_gen "v$v 0-RTT $h, pn $pnl bytes" "" "$secsrcs
$KEYSRCS" v=$v type=0rtt dcid="$d" scid="$s" hash=$h secret="$sec" \
				pn=$pn pnlen=$pnl payload=300
			for dl in 0 $((4 * pnl)) 20; do
				for h in sha256 sha384; do
					hl=32
					[ $h = sha384 ] && hl=48
					check_gen "v$v 1-RTT $h, DCID $dl bytes, pn $pnl bytes" \
						"--dcid-len $dl" "--secret \$SECRET --hash $h --quic-version $v
--secret-env SECRET --hash $h --quic-version $v
--key-env HPK" v=$v type=1rtt dcid="$(rnd $dl)" hash=$h \
						secret="$(rnd $hl)" pn=$pn pnlen=$pnl payload=40
				done
			done
			# --pn-offset instead of --dcid-len
			check_gen "v$v 1-RTT with --pn-offset, pn $pnl bytes" \
				"--pn-offset 9" "--key-env HPK
--secret-file \"\$T/secret\" --quic-version $v" \
				v=$v type=1rtt dcid="$(rnd 8)" secret="$(rnd 32)" \
				pn=$pn pnlen=$pnl payload=20
		done
	done
	# a 1-RTT packet's key with the wrong --quic-version: another key,
	# which its tag does not verify
	check_gen "v2 1-RTT" "--dcid-len 8" "--secret-env SECRET --quic-version 2" \
		v=2 type=1rtt dcid="$(rnd 8)" secret="$(rnd 32)" pn=5 pnlen=1 payload=20
	expect_status 1 "$AESECB" hp-mask --secret-env SECRET --dcid-len 8 \
		--unprotect "$prot"
	[ "$(field header)" != "$hdr" ] && [ "$(field payload)" = "not authenticated" ] &&
		pass "a short header takes its version from --quic-version" ||
		fail "--quic-version 1 gave the version 2 hp key"
fi

# A captured prefix of a packet (its Length runs past the end): refused
# unless --pn-offset vouches for the header; the key sources that read the
# header still take the version (and the DCID) from it.
P1=$(printf '%s' "$V1_CLIENT" | cut -c1-76)
P2=$(printf '%s' "$V2_CLIENT" | cut -c1-76)
HPK=$V1_CLIENT_HP SECRET=$V2_CLIENT_SECRET
export HPK SECRET
expect_refused "the Length field (1182) runs past the end" \
	"$AESECB" hp-mask --initial --unprotect "$P1"
for src in --initial "--key-env HPK"; do
	# shellcheck disable=SC2086
	expect_status 0 "$AESECB" hp-mask $src --pn-offset 18 --unprotect "$P1"
	[ "$(field header)" = c300000001088394c8f03e5157080000449e00000002 ] &&
		pass "a captured prefix with $src --pn-offset 18" ||
		fail "captured prefix with $src: header $(field header)"
done
expect_status 0 "$AESECB" hp-mask --secret-env SECRET --pn-offset 18 --unprotect "$P2"
[ "$(field header)" = d36b3343cf088394c8f03e5157080000449e00000002 ] &&
	pass "a v2 captured prefix with a secret takes the version from the header" ||
	fail "v2 captured prefix with a secret: header $(field header)"
expect_refused "--initial: the packet is a Handshake packet" \
	"$AESECB" hp-mask --initial --pn-offset 17 --unprotect e00000000108${DCID}0044aa$(printf '%064d' 0)

# ------------------------------------------------------------------
# Packets that cannot be unprotected: exit 2, one line, nothing on stdout.

Z32=0000000000000000000000000000000000000000000000000000000000000000
HPK=$V1_CLIENT_HP SECRET=$V1_CLIENT_SECRET
export HPK SECRET
for op in --unprotect --protect; do
	for src in --initial "--key-env HPK" "--secret-env SECRET"; do
		# shellcheck disable=SC2086
		set -- $src
		# RFC 9001 A.4: a Retry packet
		expect_refused "Retry packets have no header protection" \
			"$AESECB" hp-mask "$@" $op \
			ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba
		expect_refused "Version Negotiation packets have no header protection" \
			"$AESECB" hp-mask "$@" $op \
			c00000000008${DCID}08${DCID}000000016b3343cf$Z32
		expect_refused "unknown QUIC version 0xff000020" \
			"$AESECB" hp-mask "$@" $op c0ff00002008${DCID}0000401400000000$Z32
		expect_refused "the packet ends inside its header" \
			"$AESECB" hp-mask "$@" $op c00000000108${DCID}00
		expect_refused "the packet ends inside its header" \
			"$AESECB" hp-mask "$@" $op c0000000010a${DCID}
		# token length: a 4-byte varint with 2 bytes left
		expect_refused "bad variable-length integer" \
			"$AESECB" hp-mask "$@" $op c00000000108${DCID}008001
		expect_refused "the Length field (1182) runs past the end of the packet" \
			"$AESECB" hp-mask "$@" $op c00000000108${DCID}0000449e00000000$Z32
		expect_refused "packet too short for its header-protection sample" \
			"$AESECB" hp-mask "$@" $op c00000000108${DCID}00001000000000000000000000000000000000
	done
	# --initial on other packets
	expect_refused "--initial: the packet is a Handshake packet, not an Initial packet" \
		"$AESECB" hp-mask --initial $op e00000000108${DCID}004020$Z32
	expect_refused "--initial: the packet is a 0-RTT packet, not an Initial packet" \
		"$AESECB" hp-mask --initial $op d00000000108${DCID}004020$Z32
	expect_refused "--initial: the packet is a Handshake packet" \
		"$AESECB" hp-mask --initial $op f06b3343cf08${DCID}004020$Z32
	expect_refused "--initial: the packet has a short header (1-RTT)" \
		"$AESECB" hp-mask --initial --dcid-len 8 $op 40${DCID}$Z32
	expect_refused "unknown QUIC version 0x00000003" \
		"$AESECB" hp-mask --initial $op c00000000308${DCID}0000401400000000$Z32
	# short headers need the DCID length
	expect_refused "give --dcid-len N" \
		"$AESECB" hp-mask --key-env HPK $op 40${DCID}$Z32
	expect_refused "packet too short for its header-protection sample: the sample is bytes 13 to 28" \
		"$AESECB" hp-mask --key-env HPK --dcid-len 8 $op 40${DCID}000000000000
	expect_refused "--odcid: the connection ID is 21 bytes" \
		"$AESECB" hp-mask --initial --odcid "$(printf '%042d' 0)" $op "$V1_CLIENT"
	expect_refused "--odcid: bad hex digit 'x'" \
		"$AESECB" hp-mask --initial --odcid 12x4 $op "$V1_CLIENT"
done

# ------------------------------------------------------------------
# Options that do not go together.

expect_refused "more than one key source" \
	"$AESECB" hp-mask --key-env HPK --initial --unprotect "$V1_CLIENT"
expect_refused "more than one key source" \
	"$AESECB" hp-mask --initial --secret-env SECRET --protect "$V1_CLIENT"
# --unprotect: --initial may stand with a secret (for the other packets)
expect_status 0 "$AESECB" hp-mask --initial --secret-env SECRET --unprotect "$V1_CLIENT"
[ "$(field payload)" = "authenticated (client Initial key of DCID $DCID)" ] &&
	pass "--initial with a secret: the Initial keys for an Initial" ||
	fail "--initial with a secret: $(field payload)"
expect_refused "more than one key source" \
	"$AESECB" hp-mask -k $V1_CLIENT_HP --secret-env SECRET --unprotect "$V1_CLIENT"
expect_refused "--secret-file: more than one secret option given" \
	"$AESECB" hp-mask --secret-env SECRET --secret-file "$T/secret" --unprotect "$V1_CLIENT"
expect_refused "--odcid needs --initial" \
	"$AESECB" hp-mask --key-env HPK --odcid $DCID --unprotect "$V1_CLIENT"
expect_refused "--server needs --initial" \
	"$AESECB" hp-mask --key-env HPK --server --unprotect "$V1_CLIENT"
expect_refused "--hash needs --secret" \
	"$AESECB" hp-mask --initial --hash sha384 --unprotect "$V1_CLIENT"
expect_refused "--quic-version needs --secret" \
	"$AESECB" hp-mask --key-env HPK --quic-version 2 --unprotect "$V1_CLIENT"
expect_refused "--hash: unknown hash 'sha512'" \
	"$AESECB" hp-mask --secret-env SECRET --hash sha512 --unprotect "$V1_CLIENT"
expect_refused "--quic-version: unknown QUIC version 0x00000003" \
	"$AESECB" hp-mask --secret-env SECRET --quic-version 0x3 --unprotect "$V1_CLIENT"
expect_refused "--quic-version: not a version: '3'" \
	"$AESECB" hp-mask --secret-env SECRET --quic-version 3 --unprotect "$V1_CLIENT"
expect_refused "--quic-version: not a version: 'two'" \
	"$AESECB" hp-mask --secret-env SECRET --quic-version two --unprotect "$V1_CLIENT"
expect_refused "--dcid-len: not a connection ID length (0 to 20): '21'" \
	"$AESECB" hp-mask --key-env HPK --dcid-len 21 --unprotect "$V1_CLIENT"
expect_refused "--dcid-len: not a connection ID length" \
	"$AESECB" hp-mask --key-env HPK --dcid-len -1 --unprotect "$V1_CLIENT"
expect_refused "--initial derives the hp key from a packet" \
	"$AESECB" hp-mask --initial d1b1c98dd7689fb8ec11d242b123dc9b
expect_refused "a secret derives the hp key from a packet" \
	"$AESECB" hp-mask --secret-env SECRET d1b1c98dd7689fb8ec11d242b123dc9b
expect_refused "--dcid-len needs --protect or --unprotect" \
	"$AESECB" hp-mask --key-env HPK --dcid-len 8 d1b1c98dd7689fb8ec11d242b123dc9b
expect_refused "no key given" "$AESECB" hp-mask --unprotect "$V1_CLIENT"
# the secret's length must be the hash's
expect_refused "the secret is 32 bytes; with sha384 secrets are 48 bytes" \
	"$AESECB" hp-mask --secret-env SECRET --hash sha384 --unprotect "$V1_CLIENT"
expect_stderr_lacks "$SECRET"
SECRET48=$SECRET$(printf '%032d' 0)
expect_refused "the secret is 48 bytes; with sha256 secrets are 32 bytes (64 hex digits); give --hash sha384" \
	env SECRET=$SECRET48 "$AESECB" hp-mask --secret-env SECRET --unprotect "$V1_CLIENT"
expect_stderr_lacks "$SECRET"
expect_refused "--secret: the secret is 16 bytes; secrets are 32 bytes (SHA-256) or 48 bytes (SHA-384)" \
	"$AESECB" hp-mask --secret $V1_CLIENT_HP --unprotect "$V1_CLIENT"
expect_stderr_lacks "$V1_CLIENT_HP"

finish
