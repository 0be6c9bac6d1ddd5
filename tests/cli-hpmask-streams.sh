#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-hpmask-streams.sh - aesecb hp-mask --unprotect on streams and
# captures at size, and its rules:
#   - captures (pcap, pcapng) of every link type the reader knows, from a
#     file or standard input: each datagram with its frame number, time
#     and endpoints, skipped frames reported, --port;
#   - exit statuses of a stream: a Retry or an unknown version reported
#     and no failure, 1 for a packet that does not authenticate, 2 for a
#     malformed one whatever comes after it;
#   - --summary, several --keylog, draft-29 and the v2 draft, a capture
#     that starts after key updates (the missed updates named), late
#     captures of many connections (found by trial, full packet numbers
#     from the tags, connections not in the key log failing alone);
#   - the smaller rules: one true message for a datagram that fails,
#     "nothing to unprotect" only when nothing was tried, a key log with
#     no newline at all, a 1-RTT packet alone whose DCID is 20 bytes, a
#     packet of the next key generation under the current key phase bit.
# Many connections at once (tests/quic/many.*) are in
# cli-hpmask-datagrams.sh and check_unprotect.

. "${top_srcdir:-.}/tests/testlib.sh"

note "backend: ${AESECB_BACKEND:-default}"
Q=$top_srcdir/tests/quic
P=$top_srcdir/tests/pcap
GEN=$top_builddir/tests/quicgen
CONNS=$top_builddir/tests/quicconns
KL=$Q/aes128.keylog
DCID=$RFC9001_DCID
Z32=$(printf '%064d' 0)

command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed to read the JSON"

field() {
	sed -n "s/^$1: //p" "$T/out"
}

# ------------------------------------------------------------------
# Captures: every fixture of tests/pcap, its datagrams and skipped frames
# as the reader's expectations say, with their frame numbers, times and
# endpoints.

cat >"$T/frames.py" <<'PY'
import json, sys
# frames.py REPORT.json EXPECT: every "dgram" frame of EXPECT that parses
# as QUIC (its first byte a long header, or 21 bytes or more) and every
# "skip" frame is in the report, with its time and endpoints.
report = json.load(open(sys.argv[1]))
got = {d["frame"]: d for d in report}
bad = 0
n = 0
for line in open(sys.argv[2]):
    f = line.split()
    if not f or f[0] in ("#", "end", "error"):
        continue
    frame = int(f[0])
    if f[1] == "skip":
        if frame not in got or "skipped" not in got[frame]:
            print("frame %d: not reported as skipped" % frame); bad += 1
        n += 1
        continue
    payload = bytes.fromhex(f[5])
    if not (payload[0] & 0x80 or len(payload) >= 21):
        if frame in got:
            print("frame %d: reported, but it is not QUIC" % frame); bad += 1
        continue
    d = got.get(frame)
    n += 1
    if d is None:
        print("frame %d: missing" % frame); bad += 1
        continue
    if d["source"] != f[2] or d["destination"] != f[3]:
        print("frame %d: endpoints %s %s" % (frame, d["source"], d["destination"])); bad += 1
    if not d["time"].startswith(f[4]):
        print("frame %d: time %s, want %s" % (frame, d["time"], f[4])); bad += 1
    if d["length"] != len(payload):
        print("frame %d: length %d" % (frame, d["length"])); bad += 1
print("%d frames" % n)
sys.exit(1 if bad else 0)
PY
for f in "$P"/*.pcap "$P"/*.pcapng; do
	b=${f##*/}
	e=$P/${b%.*}.expect
	[ -f "$e" ] || continue
	run "$AESECB" hp-mask --initial --keylog "$KL" --json --unprotect - "$f"
	# (cut.pcap ends inside a frame: an error, after the frames before)
	if [ "$rc" -le 2 ] && python3 "$T/frames.py" "$T/out" "$e" >"$T/py" 2>&1; then
		pass "$b: $(tail -n 1 "$T/py")"
	else
		fail "$b: exit $rc: $(head -n 3 "$T/py") $(head -n 1 "$T/err")"
	fi
done
# the link types the reader knows, as libpcap calls them, in one file each
expect_status 0 "$AESECB" hp-mask --initial --keylog "$KL" --unprotect - "$P/eth-ipv4.pcap"
expect_stdout_grep "^datagram: .*eth-ipv4.pcap frame 1 time 1700000001.000003 127.0.0.1:50000 -> 127.0.0.2:4433\$"
[ "$(field payload | grep -c '^authenticated')" = 3 ] &&
	pass "eth-ipv4.pcap: its three QUIC packets authenticated, the client's 1-RTT one found by its endpoints" ||
	fail "eth-ipv4.pcap: $(field payload | tr '\n' '|')"
# (a capture on standard input, pcapng, nanoseconds)
run sh -c '"$1" hp-mask --initial --keylog "$2" --unprotect - <"$3"' sh \
	"$AESECB" "$KL" "$P/sll2.pcapng"
[ "$rc" = 0 ] && grep -q '^datagram: stdin frame 2 time 1700000002.000006000 \[2001:db8::2\]:4433 -> \[2001:db8::1\]:50000$' "$T/out" &&
	pass "a pcapng capture from standard input, with nanosecond times" ||
	fail "pcapng from stdin: exit $rc: $(head -n 1 "$T/out")"
# a fragment is reported as skipped, not a failure
expect_status 0 "$AESECB" hp-mask --initial --keylog "$KL" --unprotect - "$P/frag.pcap"
expect_stdout_grep '^skipped: IPv4 fragment (offset 0, more fragments): IP fragments are not reassembled$'
# --port: the datagrams of that port only
expect_status 0 "$AESECB" hp-mask --initial --keylog "$KL" --summary --port 4433 --unprotect - "$P/eth-ipv4.pcap"
[ "$(field not_quic)" = 0 ] && [ "$(field datagrams)" = 3 ] &&
	pass "--port 4433: the port-53 datagram left out" ||
	fail "--port: $(field datagrams) datagrams, $(field not_quic) not QUIC"
expect_status 0 "$AESECB" hp-mask --initial --keylog "$KL" --summary --unprotect - "$P/eth-ipv4.pcap"
[ "$(field not_quic)" = 1 ] && pass "without --port: the DNS datagram counted as not QUIC" ||
	fail "no --port: $(field not_quic) not QUIC"
expect_status 0 "$AESECB" hp-mask --initial --keylog "$KL" --summary --port 53 --unprotect - "$P/eth-ipv4.pcap"
[ "$(field datagrams)" = 0 ] && [ "$(field not_quic)" = 1 ] &&
	pass "--port 53: one datagram, not QUIC" || fail "--port 53: $(field datagrams)"
expect_status 2 "$AESECB" hp-mask --initial --keylog "$KL" --port 4433 --unprotect - "$Q/aes128.dgrams"
expect_stderr_fixed "aes128.dgrams: --port is for captures (pcap, pcapng): this is not one"
expect_status 2 "$AESECB" hp-mask --initial --port 4433 --unprotect "$RFC9001_SERVER_INITIAL"
expect_stderr_fixed "--port is for captures: it needs --unprotect -"
expect_status 2 "$AESECB" hp-mask --initial --port 0 --unprotect - "$P/eth-ipv4.pcap"
expect_stderr_fixed "--port: not a UDP port (1 to 65535): '0'"

# many connections at once, as a capture: each found by its endpoints too
if [ -x "$CONNS" ]; then
	"$CONNS" 200 "$T/c200" pad=1200
	expect_status 0 "$AESECB" hp-mask --initial --keylog "$T/c200.keylog" --summary --unprotect - "$T/c200.pcap"
	[ "$(field authenticated | head -n 1)" = "$(wc -l <"$T/c200.expect" | tr -d ' ')" ] &&
		[ "$(sed -n 's/^summary: //p' "$T/out")" = "200 connections" ] &&
		pass "200 connections at once, a third with empty client IDs, as a capture: every packet authenticated" ||
		fail "200 connections: $(sed -n '/^summary/,/^of_no/p' "$T/out" | tr '\n' ' ')"
	# a capture that starts late, at 1-byte packet numbers past 255 and
	# after key updates: each connection found by trial, its full
	# numbers from the tags
	"$CONNS" 8 "$T/late" onertt=300 updates=3 from=523
	expect_status 0 "$AESECB" hp-mask --initial --keylog "$T/late.keylog" --summary --unprotect - "$T/late.pcap"
	[ "$(field authenticated | head -n 1)" = "$(wc -l <"$T/late.expect" | tr -d ' ')" ] &&
		[ "$(sed -n 's/^summary: //p' "$T/out")" = "8 connections" ] &&
		pass "a capture that starts late, packet numbers past 255 in one byte: every packet authenticated" ||
		fail "late capture: $(sed -n '/^summary/,/^of_no/p' "$T/out" | tr '\n' ' ')"
	# a late capture with connections the key log does not have, some of
	# them with empty client IDs: theirs fail, no other
	"$CONNS" 12 "$T/unl" unlogged=6 from=4
	expect_status 1 "$AESECB" hp-mask --initial --keylog "$T/unl.keylog" --summary --unprotect - "$T/unl.pcap"
	n=$(wc -l <"$T/unl.expect" | tr -d ' ')
	[ "$(field not_authenticated | head -n 1)" = $((n / 12 * 2)) ] &&
		[ "$(field authenticated | head -n 1)" = $((n - n / 12 * 2)) ] &&
		pass "a late capture with 2 of 12 connections not in the key log: only their packets fail" ||
		fail "unlogged connections: $(sed -n '/^summary/,/^of_no/p' "$T/out" | tr '\n' ' ')"
else
	skip "many connections as a capture: tests/quicconns was not built (OpenSSL libcrypto)"
fi

# ------------------------------------------------------------------
# --summary: the packets that did not authenticate, then each connection.

expect_status 0 "$AESECB" hp-mask --initial --keylog "$Q/many.keylog" --summary --unprotect - "$Q/many.dgrams"
[ "$(sed -n 's/^summary: //p' "$T/out")" = "65 connections" ] &&
	[ "$(grep -c '^connection: ' "$T/out")" = 65 ] &&
	[ "$(field authenticated | head -n 1)" = "$(wc -l <"$Q/many.expect" | tr -d ' ')" ] &&
	! grep -q '^type: ' "$T/out" &&
	pass "--summary of 65 connections: no packet block, a block per connection" ||
	fail "--summary: $(head -n 3 "$T/out" | tr '\n' '|')"
grep -q '^cipher: AES-256-GCM$' "$T/out" && grep -q '^key_log: .*many.keylog line [0-9]* (its ClientHello.s random)$' "$T/out" &&
	pass "--summary: each connection's cipher and key-log lines, found by its ClientHello" ||
	fail "--summary: $(grep -m 2 '^cipher\|^key_log' "$T/out" | tr '\n' '|')"
expect_status 0 "$AESECB" hp-mask --initial --keylog "$Q/many.keylog" --json --summary --unprotect - "$Q/many.dgrams"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["connections"]) == 65 and r["not_authenticated"] == [] and r["totals"]["not_authenticated"] == 0, r["totals"]
c = r["connections"][0]
assert c["1rtt"] > 0 and c["authenticated"] == c["initial"] + c["handshake"] + c["1rtt"], c
' "$T/out" && pass "--json --summary: the connections and the totals" || fail "--json --summary"
# a failure is a block of its own in the summary
{ grep -v '^#' "$Q/aes128.dgrams" | head -n 3; } >"$T/start"
expect_status 1 "$AESECB" hp-mask --keylog "$KL" --initial --summary --unprotect - "$T/start" "$Q/aes256.dgrams"
[ "$(grep -c '^payload: not authenticated' "$T/out")" -ge 1 ] &&
	[ "$(field not_authenticated | head -n 1)" -ge 1 ] &&
	pass "--summary: the packets that did not authenticate in blocks, and counted" ||
	fail "--summary with failures: $(head -n 5 "$T/out" | tr '\n' '|')"

# ------------------------------------------------------------------
# Exit statuses of a stream.

RETRY=ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba
BAD=c00000000108${DCID}00
printf '%s\n%s\n' "$RETRY" "$RFC9001_CLIENT_INITIAL" >"$T/retry"
expect_status 0 "$AESECB" hp-mask --initial --unprotect - "$T/retry"
expect_stderr_empty
field payload | grep -q '^no protection (Retry packets have no header protection)$' &&
	pass "a Retry in a stream: no protection, status 0" || fail "Retry: $(field payload)"
# a tag that fails after a malformed packet, and before: 2 either way
printf '%s\n%s\n' "$BAD" "$RFC9001_SERVER_INITIAL" >"$T/bad-fail"
printf '%s\n%s\n' "$RFC9001_SERVER_INITIAL" "$BAD" >"$T/fail-bad"
for f in bad-fail fail-bad; do
	expect_status 2 "$AESECB" hp-mask --initial --unprotect - "$T/$f"
	expect_stderr_fixed "not authenticated"
	expect_stderr_fixed "the packet ends inside its header"
done
printf '%s\n' "$RFC9001_SERVER_INITIAL" >"$T/fail"
expect_status 1 "$AESECB" hp-mask --initial --unprotect - "$T/fail"
# a packet of an unknown version ends at its Length: the Initial coalesced
# behind it is reported and authenticated
UNK=c0ff00002008${DCID}0000401400000000$(printf '%032d' 0)
printf '%s%s\n' "$UNK" "$RFC9001_CLIENT_INITIAL" >"$T/unknown"
expect_status 0 "$AESECB" hp-mask --initial --unprotect - "$T/unknown"
[ "$(field payload | tr '\n' '|')" = "skipped (unknown QUIC version 0xff000020 (known: 0x00000001, 0x6b3343cf, 0xff00001d and 0x709a50c4))|authenticated (client Initial key of DCID $DCID)|" ] &&
	pass "an unknown version's packet skipped, the Initial behind it authenticated" ||
	fail "unknown version: $(field payload | tr '\n' '|')"

# ------------------------------------------------------------------
# Messages of a datagram given as an argument.

# its first packet fails, its second is skipped (--initial alone and a
# Handshake packet): one line, the failure, status 1
HS=e00000000108${DCID}004020$Z32
expect_status 1 "$AESECB" hp-mask --initial --unprotect "$RFC9001_SERVER_INITIAL$HS"
expect_stderr_lines 1
expect_stderr_fixed "packet 1 (Initial at offset 0): not authenticated"
expect_stderr_lacks "not an Initial packet"
[ "$(field payload | tr '\n' '|')" = "not authenticated|skipped (no Handshake keys given (--keylog or --secret))|" ] &&
	pass "a failed Initial and a skipped Handshake packet: both reported" ||
	fail "failed and skipped: $(field payload | tr '\n' '|')"
# the same when several keys were tried (--odcid): no header to show
expect_status 1 "$AESECB" hp-mask --initial --odcid 0102030405060708 --unprotect "$RFC9001_SERVER_INITIAL$HS"
expect_stderr_lines 1
expect_stderr_lacks "not an Initial packet"
# a key log tried on a packet whose tag does not verify: not "nothing to
# unprotect"
if [ -x "$GEN" ]; then
	"$GEN" type=handshake dcid=0102030405060708 scid=0a0b secret="$Z32" payload=40 >"$T/g"
	H=$(sed -n 's/^protected: //p' "$T/g")
	expect_status 1 "$AESECB" hp-mask --keylog "$KL" --unprotect "$H"
	expect_stderr_lines 1
	expect_stderr_fixed "not authenticated"
	expect_stderr_lacks "nothing to unprotect"
	# an Initial skipped before it (no --initial)
	expect_status 1 "$AESECB" hp-mask --keylog "$KL" --unprotect "$RFC9001_CLIENT_INITIAL$H"
	expect_stderr_lines 1
	expect_stderr_fixed "packet 2 (Handshake at offset 1200): not authenticated"
	expect_stderr_lacks "nothing to unprotect"
fi
# nothing tried: that is said
expect_status 2 "$AESECB" hp-mask --keylog "$KL" --unprotect "$RFC9001_CLIENT_INITIAL"
expect_stderr_fixed "nothing to unprotect: the Initial packet is skipped (no Initial keys given (--initial))"

# ------------------------------------------------------------------
# Key logs.

# a file with no newline at all ends at its 1,025th character
expect_status 2 timeout 30 "$AESECB" hp-mask --keylog /dev/zero --unprotect "$RFC9001_CLIENT_INITIAL"
expect_stderr_fixed "/dev/zero:1: the line is longer than 1024 characters"
# several --keylog: their secrets together
head -n 2 "$KL" >"$T/kl1"
tail -n +3 "$KL" >"$T/kl2"
expect_status 0 "$AESECB" hp-mask --initial --keylog "$T/kl1" --keylog "$T/kl2" --summary --unprotect - "$Q/aes128.dgrams"
[ "$(field not_authenticated | head -n 1)" = 0 ] &&
	pass "two --keylog files: one key log" || fail "two key logs: $(field not_authenticated)"
expect_status 0 "$AESECB" hp-mask --initial --keylog "$T/kl1" --keylog "$T/kl2" --unprotect - "$Q/aes128.dgrams"
expect_stdout_grep 'server 1-RTT secret of .*kl2 line [0-9]'
sed '2s/ [0-9a-f]*$/ '"$Z32"'/' "$KL" | head -n 2 >"$T/kl3"
expect_status 2 "$AESECB" hp-mask --initial --keylog "$KL" --keylog "$T/kl3" --unprotect - "$Q/aes128.dgrams"
expect_stderr_grep 'kl3:2: a second SERVER_HANDSHAKE_TRAFFIC_SECRET for this client random, not the one of line 2 of --keylog 1$'

# ------------------------------------------------------------------
# Drafts, key generations, DCID lengths (packets built by tests/quicgen).

# draft-ietf-quic-tls-29 A.3: the server Initial
D29=caff00001d0008f067a5502a4262b5004074aaf2f007823a5d3a1207c86ee49132824f0465243d082d868b107a38092bc80528664cbf9456ebf27673fb5fa5061ab573c9f001b81da028a00d52ab00b15bebaa70640e106cf2acd043e9c6b4411c0a79637134d8993701fe779e58c2fe753d14b0564021565ea92e57bc6faf56dfc7a40870e6
expect_status 0 "$AESECB" hp-mask --initial --odcid "$DCID" --unprotect "$D29"
[ "$(field header)" = c1ff00001d0008f067a5502a4262b50040740001 ] &&
	field payload | grep -q '^authenticated (server Initial key of DCID' &&
	pass "draft-29's server Initial (its A.3): authenticated" ||
	fail "draft-29: $(field header) $(field payload)"
if [ -x "$GEN" ]; then
	S=$(printf '%064d' 5)
	for v in draft29 v2draft v2draft-quicku; do
		"$GEN" v=$v type=handshake dcid=0102030405060708 scid=0a0b secret="$S" pn=3 payload=40 >"$T/g"
		expect_status 0 "$AESECB" hp-mask --secret "$S" --unprotect "$(sed -n 's/^protected: //p' "$T/g")"
		[ "$(field payload)" = "authenticated (the secret)" ] &&
			pass "$v: a Handshake packet with its secret" || fail "$v Handshake: $(field payload)"
		# a key update: the version's label (the v2 draft's two)
		"$GEN" v=$v type=1rtt dcid=0102030405060708 secret="$S" ku=1 pn=9 payload=40 >"$T/g"
		D=$(sed -n 's/^protected: //p' "$T/g")
		"$GEN" v=$v type=handshake dcid=0102030405060708 scid=0a0b secret="$S" pn=3 payload=40 >"$T/g"
		H=$(sed -n 's/^protected: //p' "$T/g")
		printf '%s\n%s\n' "$H" "$D" >"$T/s"
		expect_status 0 "$AESECB" hp-mask --secret "$S" --unprotect - "$T/s"
		field payload | tail -n 1 | grep -q '^authenticated (the secret, key generation 1)$' &&
			pass "$v: a 1-RTT packet of generation 1, its version from the long header" ||
			fail "$v 1-RTT: $(field payload | tail -n 1)"
	done
	# a 1-RTT packet alone whose DCID is 20 bytes: every length tried
	D20=0102030405060708090a0b0c0d0e0f1011121314
	"$GEN" type=1rtt dcid=$D20 secret="$S" pn=7 payload=40 >"$T/g"
	expect_status 0 "$AESECB" hp-mask --secret "$S" --unprotect "$(sed -n 's/^protected: //p' "$T/g")"
	[ "$(field header)" = "$(sed -n 's/^header: //p' "$T/g")" ] &&
		pass "a 1-RTT packet alone to a 20-byte DCID: authenticated" ||
		fail "20-byte DCID: $(field payload)"
	# ... and found by trial with a key-log secret no ClientHello claimed
	# (a capture that starts late), as hex and as a capture
	printf 'CLIENT_TRAFFIC_SECRET_0 %s %s\n' "$(printf '%064d' 7)" "$S" >"$T/kl20"
	sed -n 's/^protected: //p' "$T/g" >"$T/d20"
	expect_status 0 "$AESECB" hp-mask --keylog "$T/kl20" --unprotect - "$T/d20"
	[ "$(field header)" = "$(sed -n 's/^header: //p' "$T/g")" ] &&
		field payload | grep -q '^authenticated (client 1-RTT secret of .*kl20 line 1)$' &&
		pass "a late 1-RTT packet to a 20-byte DCID: found by trial" ||
		fail "20-byte DCID by trial: $(field payload)"
	# generation 1 under generation 0's key phase bit: no key update
	"$GEN" type=1rtt dcid=0102030405060708 secret="$S" ku=1 phase=0 pn=7 payload=40 >"$T/g"
	expect_status 1 "$AESECB" hp-mask --secret "$S" --dcid-len 8 --unprotect "$(sed -n 's/^protected: //p' "$T/g")"
	expect_stderr_fixed "not authenticated"
	"$GEN" type=1rtt dcid=0102030405060708 secret="$S" ku=1 phase=1 pn=7 payload=40 >"$T/g"
	expect_status 0 "$AESECB" hp-mask --secret "$S" --dcid-len 8 --unprotect "$(sed -n 's/^protected: //p' "$T/g")"
	[ "$(field payload)" = "authenticated (the secret, key generation 1)" ] &&
		pass "generation 1 with its key phase bit: a key update" ||
		fail "generation 1: $(field payload)"
	# a capture that starts after key updates: the updates it missed named
	"$GEN" type=1rtt dcid=0102030405060708 secret="$S" ku=3 pn=7 payload=40 >"$T/g"
	expect_status 0 "$AESECB" hp-mask --secret "$S" --dcid-len 8 --unprotect "$(sed -n 's/^protected: //p' "$T/g")"
	[ "$(field payload)" = "authenticated (the secret, key generation 3 (2 key updates before it not seen))" ] &&
		pass "generation 3 first: authenticated, 2 key updates missed" ||
		fail "generation 3: $(field payload)"
	expect_stderr_fixed "packet 1 (1-RTT at offset 0): key generation 3: 2 key updates before it were not in the capture"
else
	skip "drafts, generations, DCID lengths: tests/quicgen was not built (OpenSSL libcrypto)"
fi

finish
