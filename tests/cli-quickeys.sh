#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-quickeys.sh - aesecb quic-keys: the QUIC Initial secrets and keys of a
# Destination Connection ID (RFC 9001 A.1, RFC 9369 A.1), --json, and bad
# input.

. "${top_srcdir:-.}/tests/testlib.sh"

DCID=$RFC9001_DCID

# RFC 9001 Appendix A.1 (tests/rfc9001.sh).
V1="client_secret: $RFC9001_CLIENT_SECRET
client_key: $RFC9001_CLIENT_KEY
client_iv: $RFC9001_CLIENT_IV
client_hp: $RFC9001_CLIENT_HP
server_secret: $RFC9001_SERVER_SECRET
server_key: $RFC9001_SERVER_KEY
server_iv: $RFC9001_SERVER_IV
server_hp: $RFC9001_SERVER_HP"

# RFC 9369 Appendix A.1.
V2="client_secret: 14ec9d6eb9fd7af83bf5a668bc17a7e283766aade7ecd0891f70f9ff7f4bf47b
client_key: 8b1a0bc121284290a29e0971b5cd045d
client_iv: 91f73e2351d8fa91660e909f
client_hp: 45b95e15235d6f45a6b19cbcb0294ba9
server_secret: 0263db1782731bf4588e7e4d93b7463907cb8cd8200b5da55a8bd488eafc37c1
server_key: 82db637861d55e1d011f19ea71d5d2a7
server_iv: dd13c276499c0249d3310652
server_hp: edf6d05c83121201b436e16877593c3a"

expect_status 0 "$AESECB" quic-keys "$DCID"
expect_stdout_eq "$V1"
expect_stderr_empty
expect_status 0 "$AESECB" quic-keys --quic-version 1 "$DCID"
expect_stdout_eq "$V1"
expect_status 0 "$AESECB" quic-keys --quic-version=0x00000001 "$DCID"
expect_stdout_eq "$V1"
expect_status 0 "$AESECB" quic-keys --quic-version 2 "$DCID"
expect_stdout_eq "$V2"
expect_stderr_empty
expect_status 0 "$AESECB" quic-keys "$DCID" --quic-version 0x6B3343CF
expect_stdout_eq "$V2"
# upper case and whitespace in the DCID
expect_status 0 "$AESECB" quic-keys "8394C8F0 3E515708"
expect_stdout_eq "$V1"
# options after "--" are arguments
expect_status 0 "$AESECB" quic-keys --quic-version 2 -- "$DCID"
expect_stdout_eq "$V2"

# The empty DCID is legal, and so is a 20-byte one.  Values made with
# 'openssl kdf' (HKDF extract, then expand with the HkdfLabel info).
expect_status 0 "$AESECB" quic-keys ""
expect_stdout_grep '^client_secret: 594cb3b06a53f6d6e1c3af415ec6b91a5b97c13c4f38d3008cd4c50c224a8288$'
expect_stdout_grep '^server_hp: b175abd708d3c7b157293412365e8007$'
expect_status 0 "$AESECB" quic-keys --quic-version 2 000102030405060708090a0b0c0d0e0f10111213
expect_stdout_grep '^client_hp: 9f36ca4f5484611e76428c6220f3882e$'

# Every line is "label: lowercase hex".
expect_status 0 "$AESECB" quic-keys --quic-version 2 "$DCID"
if awk '!/^(client|server)_(secret|key|iv|hp): [0-9a-f]+$/ { bad++ }
        END { exit bad || NR != 8 }' "$T/out"; then
	pass "8 lines of 'label: hex'"
else
	fail "output is not 8 lines of 'label: hex'"
fi

# ------------------------------------------------------------------
# --json: one object with the same values, plus version and dcid.
json_check() {  # FILE VERSION DCID LINES
	python3 - "$@" <<'EOF'
import json, sys
path, version, dcid, lines = sys.argv[1:5]
with open(path) as f:
    obj = json.load(f)
want = {"version": version, "dcid": dcid}
for line in lines.splitlines():
    k, v = line.split(": ")
    want[k] = v
if obj != want:
    sys.exit("got %r, want %r" % (obj, want))
EOF
}
if command -v python3 >/dev/null 2>&1; then
	expect_status 0 "$AESECB" quic-keys --json "$DCID"
	expect_stderr_empty
	if python3 -m json.tool "$T/out" >/dev/null 2>&1; then
		pass "--json output parses"
	else
		fail "--json output does not parse"
	fi
	if json_check "$T/out" 0x00000001 "$DCID" "$V1"; then
		pass "--json: RFC 9001 values"
	else
		fail "--json: RFC 9001 values"
	fi
	expect_status 0 "$AESECB" quic-keys --quic-version 2 --json "$DCID"
	if json_check "$T/out" 0x6b3343cf "$DCID" "$V2"; then
		pass "--json: RFC 9369 values"
	else
		fail "--json: RFC 9369 values"
	fi
	expect_status 0 "$AESECB" quic-keys --json ""
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["dcid"] != "")' "$T/out"; then
		pass "--json: empty DCID"
	else
		fail "--json: empty DCID"
	fi
else
	skip "python3 not found: --json output not parsed"
fi

# ------------------------------------------------------------------
# Bad input: exit 2, one line on stderr, nothing on stdout.
bad() {  # MESSAGE ARGS...
	want=$1
	shift
	expect_status 2 "$AESECB" quic-keys "$@"
	expect_stderr_fixed "aesecb: quic-keys: $want"
	expect_stderr_lines 1
	expect_stdout_eq ""
}
bad "the DCID is 21 bytes; QUIC connection IDs are at most 20 bytes" \
	000102030405060708090a0b0c0d0e0f1011121314
bad "the DCID is 21 bytes" --json 000102030405060708090a0b0c0d0e0f1011121314
bad "DCID_HEX: invalid hex digit at position 3" 83x4
bad "DCID_HEX: invalid hex digit at position 2" 0x8394
bad "DCID_HEX has an odd number of hex digits (15)" 8394c8f03e51570
bad "missing DCID_HEX"
bad "missing DCID_HEX" --json
bad "one DCID_HEX expected, 2 arguments given" "$DCID" "$DCID"
bad "--quic-version takes 1, 2, draft-29, draft-v2 or a version number" --quic-version 3 "$DCID"
bad "--quic-version takes 1, 2, draft-29, draft-v2 or a version number" --quic-version v1 "$DCID"
bad "--quic-version: unknown QUIC version" --quic-version 0xff000020 "$DCID"
bad "option '--quic-version' needs a value" "$DCID" --quic-version
bad "unknown option '--frobnicate'" --frobnicate "$DCID"
bad "option '--json' takes no value" --json=yes "$DCID"
bad "unknown option '-x'" -x "$DCID"
# draft-29's Initial keys (draft-ietf-quic-tls-29, A.1)
for v in draft-29 0xff00001d; do
	expect_status 0 "$AESECB" quic-keys --quic-version $v "$DCID"
	expect_stdout_grep '^client_secret: 0088119288f1d866733ceeed15ff9d50902cf82952eee27e9d4d4918ea371d87$'
	expect_stdout_grep '^server_hp: c0c499a65a60024a18a250974ea01dfa$'
done
# option values are not echoed
expect_status 2 "$AESECB" quic-keys --quic-version 0xdeadbeef "$DCID"
expect_stderr_lacks deadbeef

# A full disk: status 4.
if [ -w /dev/full ]; then
	run sh -c '"$AESECB" quic-keys "$1" >/dev/full' sh "$DCID"
	[ "$rc" -eq 4 ] && pass "exit 4 writing to /dev/full" ||
		fail "writing to /dev/full: expected exit 4, got $rc"
	expect_stderr_fixed "aesecb: quic-keys: cannot write stdout: "
else
	skip "no /dev/full"
fi

# ------------------------------------------------------------------
# Help, and the command list.
expect_status 0 "$AESECB" quic-keys --help
expect_stdout_grep "^Usage: aesecb quic-keys"
expect_stdout_grep "client_secret"
cp "$T/out" "$T/help1"
expect_status 0 "$AESECB" help quic-keys
expect_same_file "$T/help1" "$T/out"
expect_status 0 "$AESECB" --help
expect_stdout_grep "^  quic-keys "

finish
