#!/bin/sh
# SPDX-License-Identifier: MIT
# ngtcp2-pair.sh - the example client fetches a file from the example server
# over HTTP/3 on 127.0.0.1, under every backend this machine runs, with
# AES-128-GCM and AES-256-GCM, every header-protection mask compared with
# GnuTLS's AES (--check); then once with QUIC v2 (draft) negotiated.

. "${top_srcdir:-.}/tests/testlib.sh"
. "$top_srcdir/tests/ngtcp2-lib.sh"

ng_init

# one transfer: BACKEND CIPHER [client and server options...]
pair() {
	b=$1 c=$2
	shift 2
	rm -f "$T/port" "$T/got"
	AESECB_BACKEND=$b ng_start srv "$SERVER" --check --cipher "$c" "$@" \
		--timeout 50 --port-file "$T/port" -d "$HTDOCS" 127.0.0.1 0 "$KEY" "$CERT"
	if ! ng_wait_file "$T/port" 10; then
		fail "$b $c: the server did not start"
		sed 's/^/#   server: /' "$T/srv.err" >&2
		ng_wait "$srv" 1
		return 0
	fi
	port=$(cat "$T/port")
	AESECB_BACKEND=$b run timeout -k 2 40 "$CLIENT" --check --cipher "$c" "$@" \
		--ca "$CERT" -o "$T/got" 127.0.0.1 "$port" /data.bin
	cl_rc=$rc
	ng_wait "$srv" 10
	srv_rc=$rc
	if [ "$cl_rc" -eq 0 ] && [ "$srv_rc" -eq 0 ] &&
	   grep -q "status 200, 1048576 bytes, complete" "$T/err"; then
		pass "$b $c: transfer"
	else
		fail "$b $c: client exit $cl_rc, server exit $srv_rc"
		sed 's/^/#   client: /' "$T/err" >&2
		sed 's/^/#   server: /' "$T/srv.err" >&2
	fi
	expect_same_file "$HTDOCS/data.bin" "$T/got"
	ng_expect_report "$T/err" "$b" "$c"
	ng_expect_report "$T/srv.err" "$b" "$c"
}

for b in $BACKENDS; do
	for c in AES-128-GCM AES-256-GCM; do
		pair "$b" "$c"
	done
done

# compatible version negotiation: the client offers the v2 draft, the server
# prefers it (both sides install Initial keys through version_negotiation)
b=$(echo $BACKENDS | sed 's/.* //')
pair "$b" AES-128-GCM --v2
if grep -q 'QUIC version 0x709a50c4' "$T/err" &&
   grep -q 'QUIC version 0x709a50c4' "$T/srv.err"; then
	pass "QUIC v2 draft negotiated"
else
	fail "QUIC v2 draft not negotiated"
fi

finish
