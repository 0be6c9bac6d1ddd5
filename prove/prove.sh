#!/bin/sh
# SPDX-License-Identifier: MIT
#
# prove/prove.sh - what 'make prove' runs (HACKING.md, "Proofs").
#
# Frama-C 25 checks the ACSL contracts of the library and of the tool's
# packet parser in these WP runs, two at a time:
#
#   sbox   WP: the S-box circuits of the portable backend (lib/backend_none.c)
#   none   WP: the rest of lib/backend_none.c, and aesecb_wipe and
#          aesecb__stack_mark, which it calls
#   core   WP: lib/aesecb.c, every backend behind the prover's model of one
#          (lib/internal.h, AESECB_PROVE_MODEL), the one-block slots in
#          the offset encoding of every build but 32-bit x86
#   core386 WP: the functions of lib/aesecb.c whose proof depends on the
#          encoding of the one-block slots, in the 32-bit x86 encoding
#          (AESECB_PROVE_ONE_TESTED)
#   parser WP: the tool's QUIC header parser (cli/quic/quic.c) and
#          datagram splitter (cli/quic/datagram.c), which read untrusted
#          packets
#   capture WP: the rest of the tool's parsing of untrusted bytes: the
#          frames of a decrypted packet (cli/quic/quicframe.c) and the
#          link, IP and UDP headers of a captured frame (cli/quic/pcapin.c)
#   hex    WP: the hex decoder (cli/common/hex.c) and the parts of the
#          reader of datagrams given as hex text (cli/quic/dgramin.c)
#          that dgramin_next calls
#   dgramin WP: dgramin_next, that reader's loop (only when asked for:
#          PROVE_RUNS=dgramin; CI's time)
#
# and Eva in one:
#
#   eva    Eva: prove/eva_main.c, every entry point with the portable
#          backend, on the inputs it lists (run-time errors)
#
# WP runs with its run-time-error annotations (-wp-rte) and the provers Z3
# and cvc5 under step limits, not time limits, so that a loaded machine
# gets the same verdicts, only later (the runs parser and capture add a
# generous time limit as a safety net; a goal it stops is not proved).
# Each goal goes to Z3 first, then to cvc5 if Z3 did not prove it in
# the runs sbox and none; the others ask cvc5 first (in the core's runs
# Z3 proves none of the goals that WP's own simplifier leaves: asking it
# first tripled the core run's time; in parser, capture, hex and dgramin
# it proves few of them).  In the runs parser, capture and dgramin, WP
# splits the goals
# of a few functions, a goal per path (-wp-split: <run>_split below).
# It fails on any goal not proved and any Eva alarm that prove/known does
# not list (with its reason), and on any entry of prove/known that no
# longer fails.
#
# Environment (make sets it): top_srcdir, FRAMAC, WHY3, PROVE_MISSING.
# Optional: PROVE_LIB (the lib/ directory to prove; default
# $top_srcdir/lib), PROVE_CLI (the cli/ directory; default
# $top_srcdir/cli), PROVE_OUT (work directory; default prove-out),
# PROVE_RUNS (which runs; default "core capture eva none parser sbox core386
# hex", the longest first; dgramin only when asked for),
# PROVE_FCT_<run>
# (only these functions, comma-separated: the planted-defect check; for
# eva, the entry of prove/eva_main.c to start from, default main),
# PROVE_PROP_<run> (runs parser, capture, hex and dgramin: only these
# properties, as WP's -wp-prop takes them; the planted-defect check),
# PROVE_JOBS (runs at a time; default 2), PROVE_STEPS (prover steps),
# PROVE_STEPS_PARSER (prover steps of the parser and capture runs),
# PROVE_STEPS_HEX (of the runs hex and dgramin),
# PROVE_TIMEOUT_PARSER (their prover time limit in seconds, a safety net
# only: cvc5 does not count every step it takes against its limit),
# PROVE_TIMEOUT_HEX (the same for the runs hex and dgramin).
set -eu

top_srcdir=${top_srcdir:-.}
lib=${PROVE_LIB:-$top_srcdir/lib}
cli=${PROVE_CLI:-$top_srcdir/cli}
out=${PROVE_OUT:-prove-out}
runs=${PROVE_RUNS:-core capture eva none parser sbox core386 hex}
jobs=${PROVE_JOBS:-2}
steps=${PROVE_STEPS:-3000000}
# the parser's goals are small: a lower limit, so that a goal that
# fails (prove/known) fails in seconds
parser_steps=${PROVE_STEPS_PARSER:-300000}
# the runs hex and dgramin: the reader gives cvc5 larger goals, which need
# more steps (the same as sbox and none)
hex_steps=${PROVE_STEPS_HEX:-3000000}
# and a time limit far above what a goal proved within those steps takes
# on a loaded machine, so that a failing goal on which cvc5 runs past its
# step limit ends as unproved, not after an hour
parser_timeout=${PROVE_TIMEOUT_PARSER:-120}
# the runs hex and dgramin: the step limit alone decides, as in the runs
# sbox, none and core (the same hour as theirs).  Their largest goals
# take cvc5 about 30 s of an idle machine, within their steps; beside
# CI's other stages, where the provers run at the lowest priority and
# get little of the CPU, 120 s stopped two of them.
hex_timeout=${PROVE_TIMEOUT_HEX:-3600}
# and cvc5 first: it proves nearly all of their goals that WP's own
# simplifier leaves, where Z3 fails on most (the run capture: 185 s of
# CPU with cvc5 first, 221 s with Z3 first)
parser_provers=${PROVE_PROVERS_PARSER:-CVC5,z3}
known=$top_srcdir/prove/known
FRAMAC=${FRAMAC:-frama-c}
WHY3=${WHY3:-why3}

if [ -n "${PROVE_MISSING:-}" ]; then
	echo "make prove: not run: it needs$PROVE_MISSING (Debian 12 packages: frama-c-base why3 z3 cvc5), then configure again" >&2
	exit 1
fi

start=$(date +%s)
mkdir -p "$out"
out=$(cd "$out" && pwd)

# ------------------------------------------------------------- provers
# A Why3 configuration of our own: Z3 as Why3 finds it, and cvc5, which
# Why3 1.5 does not know, through prove/cvc5.drv.in.
conf=$out/why3.conf
rm -f "$conf"
"$WHY3" --config="$conf" config detect >"$out/why3-detect.log" 2>&1 ||
	{ cat "$out/why3-detect.log"; echo "make prove: why3 config detect failed" >&2; exit 1; }
datadir=$("$WHY3" --print-datadir)
sed "s|@WHY3_DATADIR@|$datadir|" "$top_srcdir/prove/cvc5.drv.in" >"$out/cvc5.drv"
cvc5=$(command -v cvc5) || { echo "make prove: cvc5 not found" >&2; exit 1; }
cat >>"$conf" <<EOF

[prover]
command = "'$cvc5' --tlimit-per=%t000 --lang=smt2 %f"
command_steps = "'$cvc5' --rlimit=%S --lang=smt2 %f"
driver = "$out/cvc5.drv"
name = "CVC5"
path = "$cvc5"
version = "$("$cvc5" --version | sed -n 's/^This is cvc5 version \([^ ]*\).*/\1/p')"
EOF
export WHY3CONFIG="$conf"
provers=$("$FRAMAC" -wp-detect 2>/dev/null)
for p in Z3 CVC5; do
	case $provers in
	*"[$p"*|*"|$p"*) ;;
	*) echo "$provers"; echo "make prove: Why3 does not find $p" >&2; exit 1 ;;
	esac
done

# ------------------------------------------------------------- the runs
# cpuid.h (lib/cpu.c) comes with gcc, outside Frama-C's own C library.
gccinc=$(gcc -print-file-name=include 2>/dev/null || echo /nonexistent)
cpp="-I$lib -include $top_srcdir/prove/prelude.h -idirafter $gccinc"
files="$lib/aesecb.c $lib/cpu.c"
for f in "$lib"/backend_*.c; do files="$files $f"; done
common="-c11 -machdep gcc_x86_64 -kernel-warn-key annot:missing-spec=inactive"
# The parser's file includes nettle's headers (its key derivation, no
# part of the proof): a directory of their own, so that the rest of the
# system's headers stay out of Frama-C's C library.
case " $runs " in
*" parser "*|*" capture "*)
	nettle=$(printf '#include <nettle/hkdf.h>\n' | ${CC:-cc} -E -x c - 2>/dev/null |
		sed -n 's|^# [0-9]* "\(.*\)/hkdf\.h".*|\1|p' | head -n 1)
	[ -n "$nettle" ] || { echo "make prove: the parser run needs nettle's headers (nettle-dev)" >&2; exit 1; }
	mkdir -p "$out/inc"
	ln -sfn "$nettle" "$out/inc/nettle" ;;
esac
# The capture reader includes libpcap's header (its DLT_ numbers; libpcap
# reads the file, no part of the proof), the same way.
case " $runs " in
*" capture "*)
	pcap=$(printf '#include <pcap/pcap.h>\n' | ${CC:-cc} -E -x c - 2>/dev/null |
		sed -n 's|^# [0-9]* "\(.*\)/pcap\.h".*|\1|p' | head -n 1)
	[ -n "$pcap" ] || { echo "make prove: the capture run needs libpcap's headers (libpcap-dev)" >&2; exit 1; }
	mkdir -p "$out/inc"
	ln -sfn "$pcap" "$out/inc/pcap" ;;
esac
parser_files="$cli/quic/quic.c $cli/quic/datagram.c"
capture_files="$cli/quic/quicframe.c $cli/quic/pcapin.c"
# (prove/hexrun.h: the contracts of what the hex run calls in lib/)
hex_files="$cli/common/hex.c $cli/quic/dgramin.c"
dgramin_files=$hex_files
parser_cpp="-I$cli -I$lib -include $top_srcdir/prove/prelude.h -idirafter $gccinc -idirafter $out/inc"
wp="-wp -wp-rte -rte-no-pointer-call -wp-model typed+cast -wp-literals
	-wp-prover z3,CVC5 -wp-par 1 -wp-steps $steps -wp-timeout 3600
	-wp-no-simplify-land-mask -wp-filter-init"

# The functions a file defines, as Frama-C sees them.
defined() {  # FILE [CPP-ARGS]
	"$FRAMAC" $common -cpp-extra-args="$cpp ${2:-}" "$1" -metrics 2>/dev/null |
		sed -n '/^\[metrics\] Defined functions/,/^ *$/p' |
		sed '1,2d; s/([^)]*)//g; s/;/\n/g' | tr -d ' ' | grep -v '^$' || true
}
# The parser: its functions that read the packet (not key derivation, not
# the error messages).
parser_fct="find_version,fail,take,varint,cid,check_sample,parse_short,
type_bits,quic_long_type,parse_version,parse_token,parse_length,guess_extent,
parse_long,header_clear,quic_parse_header,all_zero,guess_holds,dgram_next"
# The rest of the parsing of untrusted bytes: the frames of a packet whose
# tag verified (not the key stream, quicpp.c's, nor qf_init's key and
# nonce setup), and the headers of a captured frame (not libpcap's reading
# of the file, nor the messages about it).
capture_fct="byte_at,qf_read,varint,skip_varints,skip_bytes,skip_counted,
skip_ack,skip_stream,read_crypto,read_new_cid,one_frame,qf_next,qf_hello_add,
have_range,is_hello,qf_hello_random,qf_hello_suite,
be16,be32,le32,kind,pcapin_sniff,is_vlan,short_frame,other_port,udp,fragment,
ipv4,ipv6,frame"
# The hex text of datagrams, as it is read and decoded (not the hex
# encoder; not say, find and read_text, the wrappers of the C library's
# vsnprintf, memchr and read, whose contracts are assumed; not
# dgramin_init and dgramin_free: doc/security-checks.md, "Proofs").
# dgramin_next, whose 550 goals (split) take more than twice the
# rest's time, is a run of its own.
hex_fct="cli_hex_init,hex8,feed_one,room_for8,cli_hex_feed,cli_hex_end,
cli_hex_decode,dgramin_prime,grow,feed,read_error,odd_digits"
dgramin_fct="dgramin_next"
# The functions of these runs whose goals WP splits (-wp-split), a goal
# per path: the others are proved as whole goals, which costs less.
parser_split="dgram_next"
capture_split=
hex_split=
dgramin_split="dgramin_next"
# The S-box circuits: most of the portable backend's goals, a run of
# their own so that the two cores share the work.
sbox_fct="sub_bytes1,inv_sub_bytes1"
# Defined in lib/aesecb.c but not proved there: proved in the run 'none'
# (what the portable backend calls), or analysed by Eva only (HACKING.md).
core_skip="aesecb_wipe aesecb__stack_mark make_requires aesecb_backend_requires
aesecb_backend_find aesecb_backend_env aesecb_ctx_new aesecb_ctx_free ctx_alloc"

# The functions whose proof depends on the one-block slots' encoding.
core386_fct="aesecb__one_encode,aesecb__one_decode,one_ready,set_one,
run_one_dit,do_crypt,aesecb_hp_mask,hp_mask_checked,hp_body"

list_fct() {  # RUN: the functions WP proves in that run, comma-separated
	case $1 in
	core386) echo "$core386_fct" | tr -d '\n' ;;
	sbox) echo "$sbox_fct" ;;
	parser) echo "$parser_fct" | tr -d '\n' ;;
	capture) echo "$capture_fct" | tr -d '\n' ;;
	hex) echo "$hex_fct" | tr -d '\n' ;;
	dgramin) echo "$dgramin_fct" ;;
	none)
		defined "$lib/backend_none.c" |
			grep -vxF -e sub_bytes1 -e inv_sub_bytes1 |
			{ cat; echo aesecb_wipe; echo aesecb__stack_mark; } |
			paste -sd, - ;;
	core)
		defined "$lib/aesecb.c" "-DAESECB_PROVE_MODEL" |
			grep -vxF $(for f in $core_skip; do printf ' -e %s' "$f"; done) |
			paste -sd, - ;;
	esac
}

run() {  # RUN: one run, its log in $out/RUN.log, its time in $out/RUN.time
	local name=$1 fct t0 var w
	t0=$(date +%s)
	var=$(eval "echo \${PROVE_FCT_$name:-}")
	case $name in
	sbox|none|core|core386)
		fct=${var:-$(list_fct "$name")}
		extra=-DAESECB_PROVE_WP
		w=$wp
		case $name in
		core) extra="$extra -DAESECB_PROVE_MODEL" ;;
		core386) extra="$extra -DAESECB_PROVE_MODEL -DAESECB_PROVE_ONE_TESTED" ;;
		esac
		case $name in core|core386)
			# cvc5 first; and WP's proof scripts of prove/scripts
			# (prove/scripts/README), replayed by the prover
			# 'script' from a session of the run's own
			rm -rf "$out/$name.session"
			mkdir -p "$out/$name.session/script"
			cp "$top_srcdir"/prove/scripts/*.json "$out/$name.session/script/"
			w=$(echo "$wp" | sed 's/-wp-prover z3,CVC5/-wp-prover script,CVC5,z3/')
			w="$w -wp-session $out/$name.session -wp-cache none" ;;
		esac
		# shellcheck disable=SC2086
		"$FRAMAC" $common -cpp-extra-args="$cpp $extra" $files \
			$w -wp-fct "$fct" -wp-report-json "$out/$name.json" \
			>"$out/$name.log" 2>&1 || echo "frama-c exited with $?" >>"$out/$name.log"
		# the lemmas of the core (the one-block slots), which
		# -wp-fct leaves out (not in a run of named functions)
		case $name${var:+-named} in core|core386)
			# shellcheck disable=SC2086
			"$FRAMAC" $common -cpp-extra-args="$cpp $extra" $files \
				$w -wp-prop @lemma \
				>>"$out/$name.log" 2>&1 || echo "frama-c exited with $?" >>"$out/$name.log"
		esac
		;;
	parser|capture|hex|dgramin)
		fct=${var:-$(list_fct "$name")}
		pfiles=$(eval "echo \$${name}_files")
		prop=$(eval "echo \${PROVE_PROP_$name:-}")
		pcpp=$parser_cpp
		# hex, dgramin: the encoder's SSE2 pass (not proved) left out
		case $name in hex|dgramin)
			pcpp="$pcpp -U__SSE2__ -include $top_srcdir/prove/hexrun.h"
		esac
		psteps=$parser_steps ptimeout=$parser_timeout
		case $name in hex|dgramin) psteps=$hex_steps ptimeout=$hex_timeout ;; esac
		# -wp-split (a goal per path: the provers lose their way in
		# one goal with every path at once) only for the functions
		# that need it, in a second pass (-then) of the same
		# frama-c: splitting costs more than it saves on the others
		# (the run capture: 4506 goals and 324 s of CPU with it on
		# every function, 1372 goals and 185 s without)
		split=$(eval "echo \$${name}_split" | tr -d '\n')
		whole=$(echo "$fct" | tr , '\n' | grep -vxF -e - $(echo "$split" | tr , ' ' |
			sed 's/[^ ][^ ]*/-e &/g') | paste -sd, -)
		split=$(echo "$fct" | tr , '\n' | grep -xF -e - $(echo "$split" | tr , ' ' |
			sed 's/[^ ][^ ]*/-e &/g') | paste -sd, -)
		# shellcheck disable=SC2086
		"$FRAMAC" $common -cpp-extra-args="$pcpp" $pfiles \
			$(echo "$wp" | sed "s/-wp-steps $steps/-wp-steps $psteps/;
				s/-wp-timeout 3600/-wp-timeout $ptimeout/;
				s/-wp-prover z3,CVC5/-wp-prover $parser_provers/") \
			${prop:+-wp-prop "$prop"} -wp-report-json "$out/$name.json" \
			${whole:+-wp-fct "$whole"} ${whole:+${split:+-then}} \
			${split:+-wp-split -wp-fct "$split"} \
			>"$out/$name.log" 2>&1 || echo "frama-c exited with $?" >>"$out/$name.log"
		;;
	eva)
		# Eva looks for run-time errors in the code, on a copy of lib/
		# without the ACSL contracts (WP's business: Eva would check
		# them too, and cut the paths where it cannot), line for line.
		# It keeps the contracts of asm statements ("assigns \nothing"
		# on the empty ones with a "memory" clobber: without one,
		# Frama-C gives such a statement a contract that rewrites all
		# memory with unknown bytes), the contracts of the portable
		# backend's eight-block pass, which it cannot read (Eva checks
		# their requires at each call, and takes their assigns), and
		# the logic definitions they use.
		rm -rf "$out/eva-lib"
		mkdir -p "$out/eva-lib"
		for f in "$lib"/*.c "$lib"/*.h "$lib"/*.def; do
			perl -0pe 's{/\*@((?:(?!\*/).)*)\*/(?=(\s*(?:__asm__|INLINE void (?:en|de)crypt8\()?))}{
				my ($c, $body, $next) = ($&, $1, $2);
				$c =~ tr/\n//cd unless $next =~ /\S/ ||
					$body =~ /\A\s*(\/\/[^\n]*\n\s*)*(predicate|logic|lemma|axiomatic|inductive)\b/;
				$c }gse' "$f" >"$out/eva-lib/${f##*/}"
		done
		efiles=$(echo "$files" | sed "s|$lib/|$out/eva-lib/|g")
		# Frama-C's own C library, where its contracts say too little
		# for Eva: the environment (getenv: unset, or any string of up
		# to 63 bytes), atomics (one thread), strcpy and strcat.
		fclibc=$("$FRAMAC" -print-share-path)/libc
		# -eva-split-return auto: the callers keep apart the states
		# of each answer (aesecb_backend_resolve's status and backend);
		# -eva-unroll-recursive-calls: call_dit is twice on the stack
		# of a burned call that calls a burned call (burned_masks);
		# -eva-alloc-builtin fresh: each aesecb_ctx_new of the key
		# lengths' loop its own block (else one block for all, of
		# which Eva cannot tell the initialised from the not).
		# shellcheck disable=SC2086
		"$FRAMAC" $common -cpp-extra-args="$(echo "$cpp" | sed "s|-I$lib|-I$out/eva-lib|") -DAESECB_PROVE_EVA" $efiles \
			"$fclibc/stdlib.c" "$fclibc/stdatomic.c" "$fclibc/string.c" \
			"$top_srcdir/prove/eva_main.c" -main "${var:-main}" -eva -eva-precision 3 \
			-eva-split-return auto -eva-unroll-recursive-calls 3 \
			-eva-alloc-builtin fresh \
			-eva-use-spec aesecb__stack_mark \
			-eva-warn-key libc:unsupported-spec=inactive \
			>"$out/$name.log" 2>&1 || echo "frama-c exited with $?" >>"$out/$name.log"
		;;
	esac
	echo $(($(date +%s) - t0)) >"$out/$name.time"
}

# The longest runs first, $jobs at a time: the next run starts as soon
# as any run ends, not when the oldest one does (which left a slot idle
# while the core's run went on).  A run has ended when it has left
# $out/RUN.done (its exit trap) or its process is gone (killed before
# the trap could run).
going=
set -- $runs
while [ $# -gt 0 ] || [ -n "$going" ]; do
	if [ $# -gt 0 ] && [ $(echo $going | wc -w) -lt "$jobs" ]; then
		rm -f "$out/$1.log" "$out/$1.time" "$out/$1.done"
		(trap ': >"$out/$1.done"' EXIT; run "$1") &
		going="$going $1:$!"
		shift
		continue
	fi
	sleep 1
	left=
	for r in $going; do
		[ -e "$out/${r%:*}.done" ] || ! kill -0 "${r#*:}" 2>/dev/null ||
			left="$left $r"
	done
	going=$left
done
wait

# ------------------------------------------------------------- verdicts
# Every goal and alarm that failed, as "RUN KEY", in $out/failed.
: >"$out/failed"
total=0 proved=0 report=
for r in $runs; do
	log=$out/$r.log
	t=$(cat "$out/$r.time" 2>/dev/null || echo '?')
	# a run writes its time last: without it, the run did not end
	[ -f "$out/$r.time" ] || echo "frama-c exited with ?: the run $r did not end" >>"$log"
	if grep -q '^frama-c exited\|User Error\|Frama-C aborted' "$log"; then
		sed -n '/User Error/,+3p;/aborted/p;/^frama-c exited/p' "$log"
		echo "$r ERROR" >>"$out/failed"
		report="$report
  $r: frama-c stopped (see $log)"
		continue
	fi
	case $r in
	eva)
		# an alarm: "[eva:alarm] FILE:LINE: Warning: " then its text,
		# up to the next message; the key is the file and the text
		awk -v dir="$lib/" '
			function flush() { if (key != "") print "eva " key; key = "" }
			/^\[/ { flush() }
			/^\[eva:alarm\]/ {
				f = $2; sub(/:[0-9]+:$/, "", f); n = split(f, p, "/")
				text = $0; sub(/^[^W]*Warning: */, "", text)
				key = p[n] ": " text; next }
			key != "" { t = $0; sub(/^ */, " ", t); key = key t }
			END { flush() }' "$log" | sed 's/  */ /g' >>"$out/failed"
		n=$(grep -c '^eva ' "$out/failed" || true)
		report="$report
  eva: $n alarms (${t} s)"
		;;
	*)
		v=$(grep -c '^\[wp\] \[[^]]*\] Goal [^ ]* : Valid' "$log" || true)
		# not proved: failed, or stopped by the time limit
		f=$(grep '^\[wp\] \[[^]]*\] Goal [^ ]*' "$log" | grep -v ' : Valid' |
			sed 's/^\[wp\] \[[^]]*\] Goal \([^ ]*\).*/\1/' | awk '!seen[$0]++')
		nf=$(printf '%s' "$f" | grep -c . || true)
		printf '%s\n' "$f" | grep . | sed "s/^/$r /" >>"$out/failed" || true
		total=$((total + v + nf)) proved=$((proved + v))
		report="$report
  $r: $v of $((v + nf)) goals proved (${t} s)"
		;;
	esac
done

# The known entries: "RUN KEY" lines, each followed by indented lines
# giving its reason.
awk '
	/^#/ || /^[ \t]*$/ { next }
	/^[ \t]/ { if (k == "") { print "prove/known: a reason without an entry: " $0 > "/dev/stderr"; bad = 1 } r[k] = 1; next }
	{ if (k != "" && !r[k]) { print "prove/known: no reason given for: " k > "/dev/stderr"; bad = 1 }
	  k = $0; sub(/[ \t]+$/, "", k); print k }
	END { if (k != "" && !r[k]) { print "prove/known: no reason given for: " k > "/dev/stderr"; bad = 1 }
	      exit bad }' "$known" >"$out/known.raw" ||
	{ echo "make prove: prove/known is malformed" >&2; exit 1; }
sed 's/  */ /g' "$out/known.raw" >"$out/known"

unexpected=$(grep -vxF -f "$out/known" "$out/failed" || true)
# a known entry of a run that ran fully, which no longer fails
stale=
for r in $runs; do
	[ -z "$(eval "echo \${PROVE_FCT_$r:-}")" ] || continue
	s=$(grep "^$r " "$out/known" | grep -vxF -f "$out/failed" || true)
	stale="$stale${s:+$s
}"
done
elapsed=$(($(date +%s) - start))

echo "make prove: Frama-C $("$FRAMAC" -version), Why3 $("$WHY3" --version | sed 's/.* //'), $(z3 --version 2>/dev/null | sed 's/ - .*//'), cvc5 $(cvc5 --version | sed -n 's/^This is cvc5 version \([^ ]*\).*/\1/p')$report"
echo "make prove: WP proved $proved of $total goals; $(grep -c . "$out/failed" || true) goals and alarms not proved, $(if [ -s "$out/known" ]; then grep -cxF -f "$out/known" "$out/failed" || true; else echo 0; fi) of them known (prove/known); $elapsed s"
status=0
if [ -n "$unexpected" ]; then
	echo "make prove: FAILED: not proved, and not in prove/known:"
	printf '%s\n' "$unexpected" | sed 's/^/  /'
	status=1
fi
if [ -n "$stale" ]; then
	echo "make prove: FAILED: in prove/known, but now proved (remove them):"
	printf '%s' "$stale" | sed 's/^/  /'
	status=1
fi
[ $status = 0 ] && echo "make prove: PASS (logs in $out)"
exit $status
