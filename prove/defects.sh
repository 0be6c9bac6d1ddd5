#!/bin/sh
# SPDX-License-Identifier: MIT
#
# prove/defects.sh - what 'make prove-defects' runs: the proof must be
# able to fail.  Each defect below is planted, alone, in a copy of lib/,
# and 'make prove' (prove/prove.sh) runs on the functions it touches; the
# check fails unless that run fails on a goal of one of those functions.
# The defects are the mistakes the contracts are there to catch.
#
# Environment: as prove/prove.sh (make sets it); PROVE_DEFECTS: only the
# defects of these names.
set -eu

top_srcdir=${top_srcdir:-.}
work=${PROVE_DEFECTS_OUT:-prove-defects}
only=${PROVE_DEFECTS:-}
start=$(date +%s)
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
caught=0 missed=0

# one_defect NAME RUN FUNCTIONS FILE SED-SCRIPT WHAT [PROPERTIES]: its
# verdict, one line, in $work/NAME/verdict.  FILE is in lib/, or a path
# from the top of the tree (cli/...).  PROPERTIES: only these goals of
# the functions (PROVE_PROP_<run>, runs parser and capture).
one_defect() {
	local name=$1 run=$2 fct=$3 file=$4 edit=$5 what=$6 prop=${7:-} d rc failed
	d=$work/$name
	mkdir -p "$d"
	cp -R "$top_srcdir/lib" "$d/lib"
	cp -R "$top_srcdir/cli" "$d/cli"
	case $file in cli/*) ;; *) file=lib/$file ;; esac
	sed "$edit" "$top_srcdir/$file" >"$d/$file"
	if cmp -s "$top_srcdir/$file" "$d/$file"; then
		echo "defect $name: NOT caught: the edit no longer applies to $file (update prove/defects.sh)" >"$d/verdict"
		return 0
	fi
	rc=0
	env PROVE_LIB="$d/lib" PROVE_CLI="$d/cli" PROVE_OUT="$d/out" PROVE_RUNS="$run" PROVE_JOBS=1 \
		"PROVE_FCT_$run=$fct" "PROVE_PROP_$run=$prop" \
		"$SHELL_PROG" "$top_srcdir/prove/prove.sh" \
		>"$d/prove.log" 2>&1 || rc=$?
	failed=$(sed -n 's/^  \([a-z]* typed_[a-z_0-9]*\)$/\1/p' "$d/prove.log" |
		grep -E " typed_cast_($(echo "$fct" | tr , '|'))_" | sed 's/.* typed_cast_//' |
		tr '\n' ' ')
	# Eva: any alarm prove/known does not list (it has no goals by
	# function; FUNCTIONS is the entry of prove/eva_main.c it starts
	# from)
	[ "$run" != eva ] ||
		failed=$(sed -n 's/^  eva \(.*\)$/\1;/p' "$d/prove.log" | tr '\n' ' ')
	if [ "$rc" != 0 ] && [ -n "$failed" ]; then
		echo "defect $name ($what): caught: $failed" >"$d/verdict"
	else
		echo "defect $name ($what): NOT caught (exit $rc); see $d/prove.log" >"$d/verdict"
	fi
}

# defect NAME ...: one_defect in the background, $jobs at a time; the
# next starts as soon as any one ends (it has left $work/NAME.done, its
# exit trap, or its process is gone)
jobs=${PROVE_JOBS:-2}
going= names=
# the runs whose defects run by default (with PROVE_DEFECTS, any run)
runs=${PROVE_RUNS:-core sbox none parser capture hex eva}
defect() {
	case " ${only:-$1} " in *" $1 "*) ;; *) return 0 ;; esac
	case "$only: $runs " in ?*:*|*" $2 "*) ;; *) return 0 ;; esac
	while [ "$(echo $going | wc -w)" -ge "$jobs" ]; do
		sleep 1
		left=
		for n in $going; do
			[ -e "$work/${n%:*}.done" ] || ! kill -0 "${n#*:}" 2>/dev/null ||
				left="$left $n"
		done
		going=$left
	done
	(trap ': >"$work/$1.done"' EXIT; one_defect "$@") &
	going="$going $1:$!" names="$names $1"
}
# named NAME ...: a defect run only when PROVE_DEFECTS names it (for
# CI's time: at least one defect of each run runs by default;
# doc/security-checks.md, "The proof can fail")
named() {
	case " $only " in *" $1 "*) defect "$@" ;; esac
}
SHELL_PROG=${SHELL_PROG:-sh}

# The core (first: its defect takes longest, a minute).
named core-masks core generic_masks aesecb.c \
	's/memcpy(masks + (i + j) \* 5, blocks + j \* AESECB_BLOCK_SIZE, 5);/memcpy(masks + (i + j) * 5, blocks + j * AESECB_BLOCK_SIZE, 6);/' \
	"the mask path copies six bytes per mask"
defect core-blocks core crypt_checked aesecb.c \
	's/^\t                  in, out, len \/ AESECB_BLOCK_SIZE);$/\t                  in, out, len \/ AESECB_BLOCK_SIZE + 1);/' \
	"encryption hands the backend one block more than the length"
named core-packet core hp_mask_packet aesecb.c \
	's/^\tpacket\[0\] = (uint8_t)(first ^ (block\[0\] \& bits));$/\tpacket[pn_offset + 4] = (uint8_t)(first ^ (block[0] \& bits));/' \
	"header protection writes the first byte of the sample instead of the first byte"

# The portable backend.
defect none-past-output none encrypt_blocks backend_none.c \
	'/^static int encrypt_blocks(/,/^}/s/^\treturn AESECB_OK;$/\tout[16 * nblocks] = 0;\n&/' \
	"a block function writes the byte after its output"
defect none-context none decrypt_blocks backend_none.c \
	'/^static int decrypt_blocks(/,/^}/s/^\treturn AESECB_OK;$/\t((aesecb_ctx *)(uintptr_t)ctx)->priv_keys.b[0] ^= 1;\n&/' \
	"a block function writes the context's round keys"
named none-one-block none encrypt1 backend_none.c \
	'/^INLINE void encrypt1(/,/^}/s/^\tstore_le64(out + 8, b);$/&\n\t((uint8_t *)ks)[0] ^= 1;/' \
	"one-block encryption writes the round keys it reads"
named none-setkey none expand_key backend_none.c \
	's/aesecb_wipe(ks + KEY_WORDS(rounds), sizeof ctx->priv_keys.b -/aesecb_wipe(ks + KEY_WORDS(rounds), 1 + sizeof ctx->priv_keys.b -/' \
	"key setup wipes one byte past the round keys"

# The QUIC header parser and the datagram splitter.
defect parser-varint parser varint cli/quic/quic.c \
	'/^static int varint(/,/^}/s/if (n > len - \*pos)$/if (n > len - *pos + 1)/' \
	"a variable-length integer may end one byte past the packet"
named parser-sample parser check_sample cli/quic/quic.c \
	'/^static int check_sample(/,/^}/s/h->pn_offset > h->packet_len - QUIC_SAMPLE_GAP - QUIC_SAMPLE_LEN)$/h->pn_offset > h->packet_len - QUIC_SAMPLE_GAP - QUIC_SAMPLE_LEN + 1)/' \
	"the sample may end one byte past the packet"
named parser-padding parser all_zero cli/quic/datagram.c \
	'/^static int all_zero(/,/^}/s/for (i = 0; i < n; i++)$/for (i = 0; i <= n; i++)/' \
	"the padding test reads one byte past the datagram"
defect parser-part parser dgram_next cli/quic/datagram.c \
	'/^int dgram_next(/,/^}/s/if (part == NULL || d == NULL || pos >= len)$/if (part == NULL || d == NULL || pos > len)/' \
	"the splitter returns an empty part at the end of the datagram" \
	in_datagram

# The frames of a decrypted packet, the headers of a captured frame.
defect capture-crypto capture read_crypto cli/quic/quicframe.c \
	'/^static int read_crypto(/,/^}/s/|| n > r->len - r->pos)$/|| n > r->len - r->pos + 1)/' \
	"a CRYPTO frame's data may end one byte past the payload"
named capture-ports capture other_port cli/quic/pcapin.c \
	'/^static int other_port(/,/^}/s/if (u + 4 > f->cap)$/if (u + 3 > f->cap)/' \
	"the UDP ports may be read one byte past the captured frame"

# The hex decoder of the datagrams given as text.
defect hex-room hex room_for8 cli/common/hex.c \
	'/^static int room_for8(/,/^}/s/room - h->nout >= 4;$/room - h->nout >= 3;/' \
	"eight digits are decoded at once with room for three bytes: the fourth is stored past the output"

# The entry points, under Eva.
defect eva-hp-short eva eva_hp aesecb.c \
	's/^\t    pn_offset > len - 4 - AESECB_BLOCK_SIZE)$/\t    pn_offset > len - 3 - AESECB_BLOCK_SIZE)/' \
	"header protection accepts a packet one byte too short for its sample"

wait
for n in $names; do
	v=$(cat "$work/$n/verdict" 2>/dev/null || echo "defect $n: NOT caught: no verdict")
	echo "$v"
	case $v in *": caught:"*) caught=$((caught + 1)) ;; *) missed=$((missed + 1)) ;; esac
done
echo "make prove-defects: $caught caught, $missed not caught ($(($(date +%s) - start)) s)"
[ "$missed" = 0 ]
