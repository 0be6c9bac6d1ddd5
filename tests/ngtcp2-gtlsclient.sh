#!/bin/sh
# SPDX-License-Identifier: MIT
# ngtcp2-gtlsclient.sh - ngtcp2's stock gtlsclient (Debian package
# ngtcp2-client) downloads a file over HTTP/3 from the example server on
# 127.0.0.1, under every backend this machine runs, with AES-128-GCM and
# AES-256-GCM, every mask checked against GnuTLS's AES; then once with a
# key update (the GnuTLS helper's update_key: the AEAD keys change, the
# header-protection key stays).

. "${top_srcdir:-.}/tests/testlib.sh"
. "$top_srcdir/tests/ngtcp2-lib.sh"

ng_init
GTLSCLIENT=$(ng_stock gtlsclient)
[ -n "$GTLSCLIENT" ] ||
	skip_all "gtlsclient not found: the interoperability test with ngtcp2's client did not run (Debian package ngtcp2-client)"

# one download: BACKEND CIPHER LABEL [gtlsclient options...]
download() {
	b=$1 c=$2 what=$3
	shift 3
	rm -rf "$T/port" "$T/dl"
	mkdir "$T/dl"
	AESECB_BACKEND=$b ng_start srv "$SERVER" --check --cipher "$c" \
		--timeout 50 --port-file "$T/port" -d "$HTDOCS" 127.0.0.1 0 "$KEY" "$CERT"
	if ! ng_wait_file "$T/port" 10; then
		fail "$b $c: the server did not start"
		sed 's/^/#   server: /' "$T/srv.err" >&2
		ng_wait "$srv" 1
		return 0
	fi
	port=$(cat "$T/port")
	run timeout -k 2 40 "$GTLSCLIENT" -q --no-quic-dump --no-http-dump \
		--exit-on-all-streams-close --timeout=20s \
		--ciphers="NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+$c" \
		--download "$T/dl" "$@" 127.0.0.1 "$port" "https://127.0.0.1:$port/data.bin"
	cl_rc=$rc
	ng_wait "$srv" 10
	if [ "$cl_rc" -eq 0 ] && [ "$rc" -eq 0 ] && grep -q '^server: 1 served' "$T/srv.err"; then
		pass "$b $c$what: gtlsclient download"
	else
		fail "$b $c$what: gtlsclient exit $cl_rc, server exit $rc"
		sed 's/^/#   gtlsclient: /' "$T/err" | tail -n 5 >&2
		sed 's/^/#   server: /' "$T/srv.err" >&2
	fi
	expect_same_file "$HTDOCS/data.bin" "$T/dl/data.bin"
	ng_expect_report "$T/srv.err" "$b" "$c"
}

for b in $BACKENDS; do
	for c in AES-128-GCM AES-256-GCM; do
		download "$b" "$c" ""
	done
done

b=$(echo $BACKENDS | sed 's/.* //')
download "$b" AES-256-GCM " with a key update" --key-update=1ms
if grep -q '^server: 1 served, .*, [1-9][0-9]* key updates$' "$T/srv.err"; then
	pass "key update: the server followed it"
else
	fail "key update: none seen by the server: $(grep '^server:' "$T/srv.err")"
fi

finish
