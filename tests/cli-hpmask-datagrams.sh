#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-hpmask-datagrams.sh - aesecb hp-mask --unprotect on whole datagrams
# and streams of them, with the AEAD tag of every packet checked:
#   - captures of Debian's ngtcp2 programs on loopback (tests/quic/, with
#     their key logs) and datagrams built by tests/quicgen, every packet
#     compared with what tshark's dissector (or quicgen) says it is, in
#     JSON and text, and each unprotected packet protected back;
#   - the situations that gave wrong answers before the tag was checked:
#     a client's second Initial with plain --initial, --initial --server
#     without --odcid, a ChaCha20-Poly1305 connection's secret;
#   - -k (no packet key), a captured prefix (--pn-offset), Retry and
#     Version Negotiation refused with every key source, skipped packets,
#     bad lines and bad key logs named by file and line, secrets never
#     printed;
#   - a stream of thousands of datagrams in flat memory, and a datagram
#     longer than a command-line argument may be.
#
# Runs under the default backend; the each-backend runner repeats it with
# $AESECB_BACKEND set to every backend.

. "${top_srcdir:-.}/tests/testlib.sh"

note "backend: ${AESECB_BACKEND:-default}"
Q=$top_srcdir/tests/quic
GEN=$top_builddir/tests/quicgen

command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed to read the JSON"

# field NAME: the values of "NAME: value" in the last run's stdout
field() {
	sed -n "s/^$1: //p" "$T/out"
}

# secret_of FILE LABEL [N]: the secret of the Nth LABEL line of a key log
secret_of() {
	awk -v l="$2" -v n="${3:-1}" '$1 == l && ++k == n { print $3 }' "$1"
}

# ------------------------------------------------------------------
# The fixtures: every packet as tshark (or quicgen) says it is.

cat >"$T/compare.py" <<'PY'
import json, sys
# compare.py REPORT.json EXPECT [chacha]: the stream report against the
# expected packets; prints one line per mismatch and a summary.
report = json.load(open(sys.argv[1]))
expect = [l.split() for l in open(sys.argv[2]) if l.strip()]
chacha = len(sys.argv) > 3
got = []
gens = 0
for d in report:
    for p in d["packets"]:
        if p["type"] == "padding":
            continue
        got.append((d["line"], p))
bad = 0
if len(got) != len(expect):
    print("packets: %d, expected %d" % (len(got), len(expect)))
    bad += 1
for (line, p), e in zip(got, expect):
    want_line, side, typ, pn, length, phase = e
    why = []
    if line != int(want_line): why.append("line %d" % line)
    if p["type"] != typ: why.append("type " + p["type"])
    if p["length"] != int(length): why.append("length %d" % p["length"])
    if typ == "Retry":
        if p["payload"] != "no protection" or p["authenticated"] or \
           p.get("reason") != "Retry packets have no header protection":
            why.append("not reported as having no protection")
    elif chacha and typ != "Initial":
        if p["payload"] != "skipped": why.append("not skipped")
        if "ChaCha20-Poly1305 (its ServerHello says so)" not in p.get("reason", ""):
            why.append("no ChaCha20 reason")
    else:
        if not p["authenticated"]: why.append("not authenticated: " + p.get("causes", p.get("reason", "")))
        elif str(p["packet_number"]) != pn: why.append("packet number %d" % p["packet_number"])
        elif p["key"].get("side", side) != side: why.append("side " + p["key"]["side"])
        elif typ == "1-RTT" and str(p["key_phase"]) != phase: why.append("key phase")
        if p.get("key", {}).get("generation", 0):
            gens += 1
    if why:
        print("line %s, %s %s: %s" % (want_line, side, typ, ", ".join(why)))
        bad += 1
print("checked %d packets, %d with a key update, %d wrong" % (len(got), gens, bad))
sys.exit(1 if bad else 0)
PY

for name in rfc aes128 aes256 retry resume quicgen chacha many; do
	want=0
	# (chacha: its Handshake and 1-RTT packets are skipped, the ServerHello
	# having chosen ChaCha20-Poly1305)
	expect_status $want "$AESECB" hp-mask --initial --keylog "$Q/$name.keylog" \
		--json --unprotect - "$Q/$name.dgrams"
	cp "$T/out" "$T/$name.json"
	cp "$T/err" "$T/$name.err"
	flag=
	[ $name = chacha ] && flag=chacha
	if python3 "$T/compare.py" "$T/$name.json" "$Q/$name.expect" $flag >"$T/cmp" 2>&1; then
		pass "$name: $(tail -n 1 "$T/cmp")"
	else
		fail "$name: $(cat "$T/cmp" | head -n 5)"
	fi
	case $name in
	aes128|aes256|quicgen)
		grep -q ', 0 with a key update' "$T/cmp" &&
			fail "$name: no packet of a later key generation" ;;
	esac
	# never a secret, in the report or the messages
	leaked=0
	for s in $(awk '{ print $3 }' "$Q/$name.keylog"); do
		case $s in ????????????????????????????????*)
			grep -q "$s" "$T/$name.json" "$T/$name.err" && leaked=1 ;;
		esac
	done
	[ $leaked = 0 ] && pass "$name: no secret printed" ||
		fail "$name: a secret of the key log is in the output"
done
# skipped packets are no failures: nothing on stderr
[ -s "$T/chacha.err" ] && fail "chacha: messages: $(head -n 2 "$T/chacha.err")" ||
	pass "chacha: the ChaCha20-Poly1305 packets skipped without a message"
# a Retry in a stream has no protection: reported as such, no message, and
# the run does not fail for it
[ -s "$T/retry.err" ] && fail "retry: messages: $(cat "$T/retry.err")" ||
	pass "retry: the Retry reported as having no protection, exit 0, no message"

# The same stream as text, from standard input.
run sh -c '"$1" hp-mask --initial --keylog "$2" --unprotect - <"$3"' sh \
	"$AESECB" "$Q/aes128.keylog" "$Q/aes128.dgrams"
if [ "$rc" -eq 0 ] && [ "$(grep -c '^payload: authenticated' "$T/out")" = \
     "$(wc -l <"$Q/aes128.expect" | tr -d ' ')" ] &&
   grep -q '^datagram: stdin:4$' "$T/out"; then
	pass "aes128 as text from stdin: every packet authenticated, with its line"
else
	fail "aes128 as text from stdin: exit $rc"
fi

# ------------------------------------------------------------------
# One datagram on the command line: the server's Initial, Handshake and
# 1-RTT packets coalesced (line 4 of aes128), each in its own block.

D4=$(sed -n 4p "$Q/aes128.dgrams")
ODCID=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["packets"][0]["key"]["dcid"])' "$T/aes128.json")
KL=$Q/aes128.keylog
expect_status 0 "$AESECB" hp-mask --initial --odcid "$ODCID" --keylog "$KL" --unprotect "$D4"
types=$(field type | tr '\n' ' ')
[ "$types" = "Initial Handshake " ] && pass "line 4: $types" ||
	fail "line 4 blocks: '$types'"
[ "$(field payload | grep -c '^authenticated')" = 2 ] &&
	pass "line 4: both authenticated" || fail "line 4: $(field payload)"
field payload | grep -q "server Initial key of DCID $ODCID, --odcid" ||
	fail "line 4: the Initial's key is not named: $(field payload | head -n 1)"
field payload | grep -q "server Handshake secret of .*aes128.keylog line 2" &&
	pass "line 4: the Handshake secret named by its key-log line" ||
	fail "line 4: $(field payload | tail -n 1)"
# Initial and Handshake, then the 1-RTT packet of line 6 appended: the
# short header runs to the end
D6=$(sed -n 6p "$Q/aes128.dgrams")
expect_status 0 "$AESECB" hp-mask --initial --keylog "$KL" --unprotect "$D6" --json
python3 - "$T/out" <<'PY' >"$T/py" 2>&1 && pass "line 6: $(cat "$T/py")" || fail "line 6: $(cat "$T/py")"
import json, sys
r = json.load(open(sys.argv[1]))
assert [p["type"] for p in r] == ["Handshake", "1-RTT"], r
assert all(p["authenticated"] for p in r)
assert r[1]["offset"] == r[0]["length"] and r[1]["offset"] + r[1]["length"] == sum(p["length"] for p in r)
print("Handshake and 1-RTT, offsets %d and %d" % (r[0]["offset"], r[1]["offset"]))
PY

# --protect takes each packet back to what was sent.
expect_status 0 "$AESECB" hp-mask --initial --odcid "$ODCID" --keylog "$KL" --unprotect "$D4" --json
python3 -c '
import json, sys
for p in json.load(open(sys.argv[1])):
    print(p["type"], p["offset"], p["length"], p["packet"])' "$T/out" >"$T/parts"
while read -r type off len packet; do
	orig=$(printf '%s' "$D4" | cut -c$((2 * off + 1))-$((2 * (off + len))))
	case $type in
	Initial) set -- --initial --server --odcid "$ODCID" ;;
	Handshake) set -- --secret "$(secret_of "$KL" SERVER_HANDSHAKE_TRAFFIC_SECRET)" ;;
	esac
	run "$AESECB" hp-mask "$@" --protect "$packet"
	[ "$rc" -eq 0 ] && [ "$(field packet)" = "$orig" ] &&
		pass "$type: --protect gives back the packet as sent" ||
		fail "$type: --protect: exit $rc"
done <"$T/parts"

# ------------------------------------------------------------------
# The situations that used to print a wrong header with exit 0.

if [ -x "$GEN" ]; then
	# 1. a client's second Initial: its DCID is the server's, its keys
	#    the client's first DCID's
	"$GEN" type=initial odcid=$RFC9001_DCID dcid=5a5b5c5d5e5f6061 \
		scid=c1c2 pn=1 payload=1162 >"$T/g"
	SECOND=$(sed -n 's/^protected: //p' "$T/g")
	expect_status 1 "$AESECB" hp-mask --initial --unprotect "$SECOND"
	expect_stderr_fixed "keyed by the client's first DCID: give --odcid"
	expect_stderr_lines 1
	[ "$(field payload)" = "not authenticated" ] &&
		pass "second Initial: not authenticated" ||
		fail "second Initial: payload '$(field payload)'"
	expect_status 0 "$AESECB" hp-mask --initial --odcid $RFC9001_DCID \
		--unprotect "$SECOND"
	[ "$(field packet_number)" = 1 ] && pass "second Initial with --odcid: packet number 1" ||
		fail "second Initial with --odcid: $(field packet_number)"
	# ... or after the client's first Initial in a stream
	"$GEN" type=initial dcid=$RFC9001_DCID scid=c1c2 payload=1162 >"$T/g"
	{ sed -n 's/^protected: //p' "$T/g"; echo "$SECOND"; } >"$T/two"
	expect_status 0 "$AESECB" hp-mask --initial --json --unprotect - "$T/two"
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
k = r[1]["packets"][0]["key"]
assert r[1]["packets"][0]["authenticated"] and k["dcid_from"] == "stream" and k["dcid"] == sys.argv[2], k
' "$T/out" "$RFC9001_DCID" && pass "second Initial in a stream: keyed by the first one's DCID" ||
		fail "second Initial in a stream"
fi

# 2. --initial --server without --odcid
V1_SERVER=$RFC9001_SERVER_INITIAL
expect_status 2 "$AESECB" hp-mask --initial --server --unprotect "$V1_SERVER"
expect_stderr_fixed "a server's Initial is keyed by the client's first DCID: give --odcid"
expect_stderr_lines 1
expect_status 0 "$AESECB" hp-mask --initial --server --odcid $RFC9001_DCID \
	--unprotect "$V1_SERVER"
[ "$(field packet_number)" = 1 ] && pass "RFC 9001 A.3 with --odcid: packet number 1" ||
	fail "RFC 9001 A.3: $(field packet_number)"

# 3. a ChaCha20-Poly1305 connection's Handshake packet with its secret
CH=$(sed -n 4p "$Q/chacha.dgrams")
CHS=$(secret_of "$Q/chacha.keylog" SERVER_HANDSHAKE_TRAFFIC_SECRET)
expect_status 1 "$AESECB" hp-mask --secret "$CHS" --unprotect "$CH"
expect_stderr_fixed "or the connection uses ChaCha20-Poly1305, whose header protection is not AES"
expect_stderr_lacks "$CHS"
field payload | grep -q '^authenticated' && fail "ChaCha20 packet authenticated as AES"
# RFC 9001 A.5: the ChaCha20 short header, with its secret
A5=4cfe4189655e5cd55c41f69080575d7999c25a5bfb
A5S=9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b
expect_status 1 "$AESECB" hp-mask --secret "$A5S" --dcid-len 0 --unprotect "$A5"
expect_stderr_fixed "ChaCha20-Poly1305, whose header protection is not AES"

# a 1-RTT packet with no long header before it (given alone, or a
# capture that starts after the handshake): every DCID length is tried,
# the one whose tag verifies kept; with -k, which checks no tag, the
# length must be given
grep -v '^#' "$Q/aes128.dgrams" | grep '^[4-7]' >"$T/short.dgrams"
S1=$(sed -n 1p "$T/short.dgrams")
expect_status 0 "$AESECB" hp-mask --keylog "$Q/aes128.keylog" --unprotect "$S1"
expect_stderr_empty
hdr=$(field header)
# the same header as the packet has in the whole capture (the DCID's
# length known there from the long headers)
"$AESECB" hp-mask --initial --keylog "$Q/aes128.keylog" --unprotect - "$Q/aes128.dgrams" >"$T/all" 2>/dev/null
[ -n "$hdr" ] && grep -q "^header: $hdr\$" "$T/all" &&
	field payload | grep -q '^authenticated (server 1-RTT secret' &&
	pass "a 1-RTT packet alone: its DCID length found by the tag" ||
	fail "a 1-RTT packet alone: header $hdr, payload $(field payload)"
expect_status 0 "$AESECB" hp-mask --secret "$(secret_of "$Q/aes128.keylog" \
	SERVER_TRAFFIC_SECRET_0)" --unprotect "$S1"
field payload | grep -q '^authenticated (the secret)' &&
	pass "a 1-RTT packet alone with its secret: authenticated" ||
	fail "a 1-RTT packet alone with its secret: $(field payload)"
# a capture that starts after the handshake: every 1-RTT packet of both
# directions (whose DCIDs differ in length), cut out of its datagram
"$AESECB" hp-mask --initial --keylog "$Q/aes128.keylog" --json --unprotect - "$Q/aes128.dgrams" >"$T/all.json" 2>/dev/null
python3 -c 'import json, sys
lines = open(sys.argv[2]).read().split("\n")
for d in json.load(open(sys.argv[1])):
    for p in d["packets"]:
        if p["type"] == "1-RTT":
            l = lines[d["line"] - 1].strip()
            print(l[2 * p["offset"]:2 * (p["offset"] + p["length"])])' \
	"$T/all.json" "$Q/aes128.dgrams" >"$T/onertt.dgrams"
expect_status 0 "$AESECB" hp-mask --keylog "$Q/aes128.keylog" --unprotect - "$T/onertt.dgrams"
n=$(wc -l <"$T/onertt.dgrams")
sides=$(field payload | sed -n 's/^authenticated (\([a-z]*\) 1-RTT.*/\1/p' | sort -u | tr '\n' ' ')
[ "$n" -gt 10 ] && [ "$(field payload | grep -c '^authenticated')" = "$n" ] &&
	[ "$sides" = "client server " ] &&
	pass "a stream of $n short headers alone, both directions: every one authenticated" ||
	fail "a stream of short headers alone ($n, $sides): $(field payload | sort | uniq -c)"
# a zero-length DCID (a connection ID a long header cannot teach: it is
# empty): a Handshake packet with an 8-byte SCID, then a 1-RTT packet to
# the empty DCID, in one datagram, keyed by a key log
ZS1=594cb3b06a53f6d6e1c3af415ec6b91a5b97c13c4f38d3008cd4c50c224a8288
ZS2=$(printf '%064d' 7)
ZCR=$(printf '%064d' 1)
ZH=$("$GEN" type=handshake secret=$ZS1 dcid= scid=0102030405060708 pn=1 | sed -n 's/^protected: //p')
ZO=$("$GEN" type=1rtt secret=$ZS2 dcid= pn=2 | sed -n 's/^protected: //p')
printf 'SERVER_HANDSHAKE_TRAFFIC_SECRET %s %s\nSERVER_TRAFFIC_SECRET_0 %s %s\n' \
	"$ZCR" "$ZS1" "$ZCR" "$ZS2" >"$T/zero.keylog"
expect_status 0 "$AESECB" hp-mask --keylog "$T/zero.keylog" --unprotect "$ZH$ZO"
[ "$(field header | tr '\n' ' ')" = "e000000001000801020304050607083901 6402 " ] &&
	[ "$(field payload | grep -c '^authenticated')" = 2 ] &&
	pass "a 1-RTT packet to an empty DCID after a long header: authenticated" ||
	fail "a 1-RTT packet to an empty DCID: $(field header | tr '\n' ' ') $(field payload | tr '\n' '|')"
# a byte of its tag changed: every length tried, none verifies
case $S1 in *0) S1B=${S1%0}1 ;; *) S1B=${S1%?}0 ;; esac
expect_status 1 "$AESECB" hp-mask --keylog "$Q/aes128.keylog" --json --unprotect "$S1B"
python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))[0]
sys.exit(0 if p["authenticated"] is False and p["keys_tried"] >= 21 else 1)' "$T/out" &&
	pass "a 1-RTT packet alone, its tag wrong: not authenticated at any DCID length" ||
	fail "a 1-RTT packet alone, its tag wrong: $(cat "$T/out")"
expect_status 2 "$AESECB" hp-mask -k 000102030405060708090a0b0c0d0e0f --unprotect "$S1"
expect_stderr_fixed "the packet has a short header: give --dcid-len N"

# 4. a server's Initial coalesced with its Handshake packet, given the
# Handshake secret alone: the Handshake packet authenticates, the Initial
# is skipped (its keys were not given), status 0; with the Initial keys
# too, both authenticate
SIH=$(sed -n 4p "$Q/aes128.dgrams")
expect_status 0 "$AESECB" hp-mask --secret "$(secret_of "$Q/aes128.keylog" \
	SERVER_HANDSHAKE_TRAFFIC_SECRET)" --unprotect "$SIH"
expect_stderr_empty
[ "$(field payload | tr '\n' '|')" = "skipped (no Initial keys given: the secret is another level's (it verified another packet of the datagram))|authenticated (the secret)|" ] &&
	pass "one secret: the packets of its level authenticated, the others skipped" ||
	fail "one secret on Initial + Handshake: $(field payload | tr '\n' '|')"
[ "$(field packet | wc -l)" = 1 ] && [ "$(field type | tr '\n' ' ')" = "Initial Handshake " ] &&
	pass "the skipped Initial reported without a header made of the wrong key" ||
	fail "the skipped Initial: $(field packet | cut -c1-40)"
# (the client's first DCID, from its first Initial on line 3)
expect_status 0 "$AESECB" hp-mask --initial --odcid 36410f8d7a5c4a42f68e6092079e3dd78b39 \
	--secret "$(secret_of "$Q/aes128.keylog" SERVER_HANDSHAKE_TRAFFIC_SECRET)" \
	--unprotect "$SIH"
[ "$(field payload | grep -c '^authenticated')" = 2 ] &&
	pass "with --initial too, both authenticated" ||
	fail "--initial and --secret: $(field payload | tr '\n' '|')"

# ------------------------------------------------------------------
# Not checked: -k, and a captured prefix.

# -k is one packet's hp key: in a coalesced datagram only the first
# packet is unprotected with it, the others are skipped
expect_status 0 "$AESECB" hp-mask -k 000102030405060708090a0b0c0d0e0f --unprotect "$SIH"
[ "$(field payload | tr '\n' '|')" = "not checked (no packet key with -k)|skipped (-k is the header-protection key of one packet: it was applied to an earlier packet of the datagram)|" ] &&
	pass "-k on a coalesced datagram: the first packet only" ||
	fail "-k on a coalesced datagram: $(field payload | tr '\n' '|')"

V1_CLIENT=$RFC9001_CLIENT_INITIAL
expect_status 0 "$AESECB" hp-mask -k $RFC9001_CLIENT_HP --unprotect "$V1_CLIENT"
[ "$(field payload)" = "not checked (no packet key with -k)" ] &&
	[ "$(field packet_number)" = 2 ] && pass "-k: header unprotected, payload not checked" ||
	fail "-k: payload '$(field payload)'"
expect_status 0 "$AESECB" hp-mask --initial --pn-offset 18 --unprotect \
	"$(printf '%s' "$V1_CLIENT" | cut -c1-120)"
[ "$(field payload)" = "not checked (truncated)" ] && pass "a prefix: not checked (truncated)" ||
	fail "prefix: payload '$(field payload)'"
expect_status 0 "$AESECB" hp-mask --initial --json --pn-offset 18 --unprotect \
	"$(printf '%s' "$V1_CLIENT" | cut -c1-120)"
grep -q '"authenticated": false' "$T/out" && pass "a prefix in JSON: not authenticated" ||
	fail "prefix JSON: $(cat "$T/out")"

# Retry and Version Negotiation: refused whatever the key source
RETRY=ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba
VN=8000000000040102030400000000016b3343cf0000000100000000000000000000000000
for src in "--initial" "-k $RFC9001_CLIENT_HP" \
	   "-k $RFC9001_CLIENT_HP --pn-offset 15" \
	   "--secret $A5S" "--secret $A5S --pn-offset 15" \
	   "--keylog $Q/aes128.keylog"; do
	# shellcheck disable=SC2086
	expect_status 2 "$AESECB" hp-mask $src --unprotect "$RETRY"
	expect_stderr_fixed "Retry packets have no header protection"
	expect_stderr_lines 1
	[ -s "$T/out" ] && fail "Retry with $src: stdout not empty"
	# shellcheck disable=SC2086
	expect_status 2 "$AESECB" hp-mask $src --unprotect "$VN"
	expect_stderr_fixed "Version Negotiation packets have no header protection"
done

# ... also cut short (a Retry whose SCID runs past the end, a Version
# Negotiation packet whose DCID does), for --protect too
for op in --unprotect --protect; do
	expect_status 2 "$AESECB" hp-mask -k $RFC9001_CLIENT_HP \
		--pn-offset 7 $op ff00000001ff0102030405060708090a0b0c0d0e0f101112131415161718191a
	expect_stderr_fixed "Retry packets have no header protection"
	expect_status 2 "$AESECB" hp-mask -k $RFC9001_CLIENT_HP \
		--pn-offset 7 $op 8000000000ff0102030405060708090a0b0c0d0e0f101112131415161718191a
	expect_stderr_fixed "Version Negotiation packets have no header protection"
done

# Skipped: keys not given for a type.
expect_status 0 "$AESECB" hp-mask --initial --odcid "$ODCID" --unprotect "$D4"
field payload | grep -q '^skipped (no Handshake keys given' &&
	pass "Handshake without its keys: skipped" || fail "skipped: $(field payload)"
expect_status 2 "$AESECB" hp-mask --keylog "$KL" --unprotect "$V1_CLIENT"
expect_stderr_fixed "skipped (no Initial keys given (--initial))"

# ------------------------------------------------------------------
# Bad input, named by file and line; key logs.

printf '%s\n\n%s zz\n%s\n' "$V1_CLIENT" "$V1_CLIENT" "$V1_CLIENT" >"$T/bad"
expect_status 2 "$AESECB" hp-mask --initial --unprotect - "$T/bad"
expect_stderr_grep "^aesecb: hp-mask: .*bad:3: bad hex digit 'z' at column 2402$"
expect_stderr_lines 1
[ "$(grep -c '^payload: authenticated' "$T/out")" = 1 ] &&
	pass "the datagram before the bad line is reported" || fail "bad line: $(cat "$T/out" | head -n 3)"
printf '%s0\n' "$V1_CLIENT" >"$T/odd"
expect_status 2 "$AESECB" hp-mask --initial --unprotect - <"$T/odd"
expect_stderr_fixed "stdin:1: odd number of hex digits (2401)"
printf 'CLIENT_HANDSHAKE_TRAFFIC_SECRET %s %s\nCLIENT_TRAFFIC_SECRET_0 %s 0011\n' \
	"$(printf '%064d' 0)" "$CHS" "$(printf '%064d' 0)" >"$T/kl"
expect_status 2 "$AESECB" hp-mask --keylog "$T/kl" --unprotect "$CH"
expect_stderr_grep "kl:2: the secret is 4 hex digits; it is 64 (SHA-256 suites) or 96 (SHA-384)$"
expect_stderr_lacks "$CHS"
expect_status 4 "$AESECB" hp-mask --keylog "$T/nonexistent" --unprotect "$CH"
expect_stderr_fixed "cannot open"
expect_status 2 "$AESECB" hp-mask --keylog "$KL" --pn-offset 18 --unprotect "$CH"
expect_stderr_fixed "--pn-offset"
expect_status 2 "$AESECB" hp-mask --initial --pn-offset 18 --unprotect - "$T/bad"
expect_stderr_fixed "--pn-offset"
expect_status 2 "$AESECB" hp-mask --initial --json --protect "$V1_CLIENT"
expect_stderr_fixed "--json"

# ------------------------------------------------------------------
# Thousands of datagrams in flat memory, and a datagram longer than an
# argument may be.

if ASAN_OPTIONS=help=1 "$AESECB" --version 2>&1 | grep -q AddressSanitizer; then
	skip "flat memory: an AddressSanitizer build (its quarantine grows RSS)"
else
	grep -v '^#' "$Q/aes128.dgrams" >"$T/one"
	i=0
	: >"$T/many"
	while [ $i -lt 400 ]; do cat "$T/one"; i=$((i + 1)); done >"$T/many"
	cat >"$T/rss.py" <<'PY'
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
	small=$(python3 "$T/rss.py" "$AESECB" hp-mask --initial --keylog "$KL" --json --unprotect - "$T/one")
	big=$(python3 "$T/rss.py" "$AESECB" hp-mask --initial --keylog "$KL" --json --unprotect - "$T/many")
	note "max RSS (KiB): $(wc -l <"$T/one" | tr -d ' ') datagrams: ${small#* }, $(wc -l <"$T/many" | tr -d ' ') datagrams: ${big#* }"
	if [ "${small%% *}" = 0 ] && [ "${big%% *}" = 0 ] &&
	   [ "${big#* }" -lt $((${small#* } + 2048)) ]; then
		pass "10000 datagrams unprotected in flat memory"
	else
		fail "memory grows with the stream: exit/RSS '$small' then '$big'"
	fi
fi
if [ -x "$GEN" ]; then
	"$GEN" type=handshake dcid=0102030405060708 scid=0a0b secret="$A5S" \
		payload=70000 >"$T/g"
	sed -n 's/^protected: //p' "$T/g" >"$T/long"
	n=$(wc -c <"$T/long")
	expect_status 0 "$AESECB" hp-mask --secret "$A5S" --unprotect - <"$T/long"
	[ "$(field payload)" = "authenticated (the secret)" ] &&
		pass "a datagram of $(( (n - 1) / 2 )) bytes ($((n - 1)) hex digits, more than an argument's 131071) from stdin" ||
		fail "long datagram: $(field payload)"
fi

finish
