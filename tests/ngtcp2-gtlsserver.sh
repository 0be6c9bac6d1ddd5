#!/bin/sh
# SPDX-License-Identifier: MIT
# ngtcp2-gtlsserver.sh - the example client GETs a file over HTTP/3 from
# ngtcp2's stock gtlsserver (Debian package ngtcp2-server) on 127.0.0.1,
# under every backend this machine runs, with AES-128-GCM and AES-256-GCM,
# every mask checked against GnuTLS's AES; then against a gtlsserver that
# sends Retry (the client's recv_retry keys) and prefers QUIC v2 (draft).

. "${top_srcdir:-.}/tests/testlib.sh"
. "$top_srcdir/tests/ngtcp2-lib.sh"

ng_init
GTLSSERVER=$(ng_stock gtlsserver)
[ -n "$GTLSSERVER" ] ||
	skip_all "gtlsserver not found: the interoperability test with ngtcp2's server did not run (Debian package ngtcp2-server)"

# start gtlsserver with OPTIONS on a free port: $gs, $port
start_gtlsserver() {
	for attempt in 1 2 3; do
		port=$("$UDP_PORT") || { fail "udp-port: exit $?"; return 1; }
		ng_start gs "$GTLSSERVER" -q --timeout=30s "$@" -d "$HTDOCS" \
			127.0.0.1 "$port" "$KEY" "$CERT"
		ng_wait_udp "$port" 10 && kill -0 "$gs" 2>/dev/null && return 0
		ng_wait "$gs" 1
		note "gtlsserver on port $port: exit $rc, trying another port"
	done
	fail "gtlsserver did not start"
	sed 's/^/#   gtlsserver: /' "$T/gs.err" >&2
	return 1
}

# one GET: BACKEND CIPHER LABEL [client options...]
get() {
	b=$1 c=$2 what=$3
	shift 3
	rm -f "$T/got"
	AESECB_BACKEND=$b run timeout -k 2 40 "$CLIENT" --check --cipher "$c" "$@" \
		--ca "$CERT" -o "$T/got" 127.0.0.1 "$port" /data.bin
	if [ "$rc" -eq 0 ] && grep -q "status 200, 1048576 bytes, complete" "$T/err"; then
		pass "$b $c$what: GET from gtlsserver"
	else
		fail "$b $c$what: client exit $rc"
		sed 's/^/#   client: /' "$T/err" >&2
	fi
	expect_same_file "$HTDOCS/data.bin" "$T/got"
	ng_expect_report "$T/err" "$b" "$c"
}

stop_gtlsserver() {
	kill -TERM "$gs" 2>/dev/null
	ng_wait "$gs" 5
}

for c in AES-128-GCM AES-256-GCM; do
	start_gtlsserver --ciphers="NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+$c" || continue
	for b in $BACKENDS; do
		get "$b" "$c" ""
	done
	stop_gtlsserver
done

b=$(echo $BACKENDS | sed 's/.* //')
if start_gtlsserver -V --preferred-versions=v2draft; then
	get "$b" AES-128-GCM " after Retry" 
	# Initial keys: the first pair, then the pair keyed by Retry's SCID
	grep -q ', 8 keys$' "$T/err" && pass "Retry: Initial keys installed again" ||
		fail "Retry: not 8 keys installed: $(grep '^aesecb-hp: backend' "$T/err")"
	get "$b" AES-128-GCM " after Retry, QUIC v2" --v2
	grep -q 'QUIC version 0x709a50c4' "$T/err" && pass "QUIC v2 draft negotiated" ||
		fail "QUIC v2 draft not negotiated with gtlsserver"
	stop_gtlsserver
fi

finish
