# SPDX-License-Identifier: MIT
# ngtcp2-lib.sh - what the tests of the ngtcp2 example share (sourced after
# testlib.sh).  POSIX sh.
#
#     ng_init               SKIP the script when the example was not built;
#                           $CLIENT, $SERVER, $UDP_PORT, $KEY, $CERT, the
#                           served directory $HTDOCS with data.bin in it,
#                           $BACKENDS (the ones this machine runs, from the
#                           library), and a SKIP for each one it cannot run
#     ng_stock NAME         the path of ngtcp2's stock program NAME, or empty
#     ng_start VAR CMD...   start CMD in the background under a time limit,
#                           stdin from /dev/null, stdout and stderr in
#                           $T/VAR.out and $T/VAR.err; its pid in $VAR
#     ng_wait PID SECS      wait for PID to exit (at most SECS s, then kill
#                           it with its timeout's process group: kill_job);
#                           its exit status in $rc
#     ng_wait_file F SECS   wait for file F to appear
#     ng_wait_udp PORT SECS wait until something listens on UDP 127.0.0.1:PORT
#     ng_expect_report FILE BACKEND CIPHER
#                           FILE holds the example's report for BACKEND and
#                           CIPHER: masks > 0, all of them checked against
#                           GnuTLS's AES, no mismatch
# Servers still running when the script exits (any way it exits) are killed
# (SIGTERM, then SIGKILL to their timeout's whole process group).
#
# Every program runs under timeout(1) with -k, so a process that ignores
# SIGTERM (inherited dispositions) is killed anyway; everything runs on
# 127.0.0.1; ports are the system's choice (port 0), so tests running side
# by side never share one.

ng_pids=
ng_cleanup() {
	ng_status=$?
	for ng_p in $ng_pids; do
		kill -TERM "$ng_p" 2>/dev/null
	done
	for ng_p in $ng_pids; do
		ng_i=0
		while kill -0 "$ng_p" 2>/dev/null && [ "$ng_i" -lt 20 ]; do
			sleep 0.1
			ng_i=$((ng_i + 1))
		done
		kill_job "$ng_p"
	done
	(exit "$ng_status")
	testlib_cleanup
}
trap ng_cleanup EXIT

ng_init() {
	if [ -n "${NGTCP2_EXAMPLE_SKIP:-}" ]; then
		skip_all "$NGTCP2_EXAMPLE_SKIP"
	fi
	CLIENT=$top_builddir/examples/ngtcp2/client
	SERVER=$top_builddir/examples/ngtcp2/server
	UDP_PORT=$top_builddir/tests/udp-port
	[ -x "$CLIENT" ] && [ -x "$SERVER" ] && [ -x "$UDP_PORT" ] ||
		skip_all "examples/ngtcp2 not built (run make check)"
	command -v timeout >/dev/null 2>&1 ||
		skip_all "timeout(1) not found (Debian package coreutils)"
	command -v openssl >/dev/null 2>&1 ||
		skip_all "openssl not found: no certificate for the servers (Debian package openssl)"
	KEY=$T/key.pem
	CERT=$T/cert.pem
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
		-nodes -keyout "$KEY" -out "$CERT" -days 2 -subj /CN=localhost \
		-addext 'subjectAltName=DNS:localhost,IP:127.0.0.1' \
		>"$T/openssl.log" 2>&1 || {
		cat "$T/openssl.log" >&2
		fail "openssl could not make a certificate"
		exit 1
	}
	HTDOCS=$T/htdocs
	mkdir "$HTDOCS"
	# 1 MiB that no two runs share, and one whose name hides nothing
	head -c 1048576 /dev/urandom >"$HTDOCS/data.bin"
	# the backends: the library's list of the ones this machine runs, and
	# every name "aesecb backends --json" knows, for the skips
	BACKENDS=$("$CLIENT" --backends) || {
		fail "client --backends: exit $?"
		exit 1
	}
	[ -n "$BACKENDS" ] || { fail "client --backends listed nothing"; exit 1; }
	if [ "${TOOL_BUILT:-yes}" = no ]; then
		# a build without the tool: tests/check_lib names the
		# backends that cannot run here, and why
		note "backends not run here, if any: see tests/check_lib.log"
		return 0
	fi
	for ng_n in $(backends); do
		case " $(echo $BACKENDS) " in
		*" $ng_n "*) ;;
		*)
			ng_why=$(backend_reason "$ng_n")
			[ "$ng_why" = - ] && ng_why=
			skip "backend $ng_n did not run: ${ng_why:-cannot run here}" ;;
		esac
	done
}

ng_stock() {
	for ng_d in $(echo "$PATH" | tr ':' ' ') /usr/bin /usr/sbin; do
		if [ -x "$ng_d/$1" ]; then
			echo "$ng_d/$1"
			return 0
		fi
	done
	return 0
}

ng_start() {
	ng_var=$1
	shift
	timeout -k 2 60 "$@" </dev/null >"$T/$ng_var.out" 2>"$T/$ng_var.err" &
	eval "$ng_var=\$!"
	ng_pids="$ng_pids $!"
}

ng_wait() {
	ng_i=0
	ng_max=$(($2 * 10))
	while kill -0 "$1" 2>/dev/null && [ "$ng_i" -lt "$ng_max" ]; do
		sleep 0.1
		ng_i=$((ng_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill_job "$1"
		note "pid $1 still running after $2 s: killed"
	fi
	wait "$1"
	rc=$?
	ng_pids=$(echo " $ng_pids " | sed "s/ $1 / /")
}

ng_wait_file() {
	ng_i=0
	while [ ! -s "$1" ] && [ "$ng_i" -lt $(($2 * 10)) ]; do
		sleep 0.1
		ng_i=$((ng_i + 1))
	done
	[ -s "$1" ]
}

ng_wait_udp() {
	ng_hex=$(printf '%04X' "$1")
	ng_i=0
	while [ "$ng_i" -lt $(($2 * 10)) ]; do
		if [ -r /proc/net/udp ]; then
			grep -q "^ *[0-9]*: 0100007F:$ng_hex " /proc/net/udp && return 0
		else
			sleep 1
			return 0
		fi
		sleep 0.1
		ng_i=$((ng_i + 1))
	done
	return 1
}

ng_expect_report() {
	ng_line=$(grep "^aesecb-hp: backend $2, cipher $3, " "$1" | tail -n 1)
	if [ -z "$ng_line" ]; then
		fail "$1: no report for backend $2, cipher $3"
		sed 's/^/#   /' "$1" | tail -n 8 >&2
		return 0
	fi
	ng_masks=$(echo "$ng_line" | sed -n 's/.*, \([0-9]*\) masks, \([0-9]*\) checked, \([0-9]*\) mismatches.*/\1 \2 \3/p')
	set -- $ng_masks
	if [ -n "$1" ] && [ "$1" -gt 0 ] && [ "$2" = "$1" ] && [ "$3" = 0 ]; then
		pass "$ng_line"
	else
		fail "masks not all made by aesecb and checked: $ng_line"
	fi
}
