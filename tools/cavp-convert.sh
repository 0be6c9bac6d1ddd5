#!/bin/sh
# SPDX-License-Identifier: MIT
# cavp-convert.sh - write the project's copy of the NIST CAVP AES ECB
# response files (vectors/cavp/ECB*.rsp.gz) from NIST's published ones.
#
# Usage: tools/cavp-convert.sh SRCDIR [OUTDIR]
#
# SRCDIR holds NIST's 18 ECB files (ECBGFSbox128.rsp ... ECBMCT256.rsp,
# plain or gzip-compressed, CRLF or LF line endings).  OUTDIR (default:
# vectors/cavp next to this script) receives ECB*.rsp.gz under NIST's names.
#
# What is kept: the data, i.e. the [ENCRYPT]/[DECRYPT] section lines, the
# COUNT, KEY, PLAINTEXT and CIPHERTEXT lines in NIST's order and the blank
# lines between them, with LF line endings.  What is replaced: NIST's '#'
# comment header, by a short one saying what the file holds and where the
# values come from.  Any other line stops the conversion.  The output is
# compressed with 'gzip -n' (no name, no time stamp), so running this again
# gives the same bytes.
#
# POSIX sh, awk and gzip only.
set -eu

usage() {
	echo "usage: $0 SRCDIR [OUTDIR]" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
src=$1
out=${2:-$(cd "$(dirname "$0")/.." && pwd)/vectors/cavp}
[ -d "$src" ] || { echo "$0: $src: not a directory" >&2; exit 2; }
mkdir -p "$out"

LC_ALL=C
export LC_ALL

names=""
for kind in GFSbox KeySbox VarKey VarTxt MMT MCT; do
	for bits in 128 192 256; do
		names="$names ECB$kind$bits"
	done
done

for name in $names; do
	if [ -f "$src/$name.rsp.gz" ]; then
		in=$src/$name.rsp.gz
	elif [ -f "$src/$name.rsp" ]; then
		in=$src/$name.rsp
	else
		echo "$0: $src: no $name.rsp or $name.rsp.gz" >&2
		exit 1
	fi
	bits=${name#ECB}
	kind=${bits%???}
	bits=${bits#"$kind"}
	case $kind in
	MMT) what="multi-block message test (MMT): 1 to 10 blocks per entry" ;;
	MCT) what="Monte Carlo test (MCT): AESAVS rule, 1000 chained blocks per entry" ;;
	*)   what="known-answer test (KAT), $kind subset: one block per entry" ;;
	esac
	tmp=$out/.$name.rsp.tmp
	gzip -dc -f "$in" >"$tmp.nist" || { rm -f "$tmp.nist"; exit 1; }
	{
		printf '# AES-%s ECB, %s.\n' "$bits" "$what"
		printf '# The values are NIST'"'"'s AESAVS ECB response values from the\n'
		printf '# Cryptographic Algorithm Validation Program (CAVP), file %s.rsp:\n' "$name"
		printf '# a US government work, in the public domain.  Written by\n'
		printf '# tools/cavp-convert.sh of the aesecb sources: data only.\n'
		printf '\n'
		tr -d '\r' <"$tmp.nist" | awk -v file="$in" '
			function die(msg) {
				printf "%s:%d: %s\n", file, NR, msg > "/dev/stderr"
				bad = 1
				exit 1
			}
			/^#/ { next }
			/^$/ { if (started) print; next }
			/^\[(EN|DE)CRYPT\]$/ { started = 1; print; next }
			/^(COUNT = [0-9]+|(KEY|PLAINTEXT|CIPHERTEXT) = [0-9a-fA-F]+)$/ {
				if (!started)
					die("field before the first section")
				print
				n++
				next
			}
			{ die("unexpected line") }
			END {
				if (!bad && n == 0)
					die("no entries")
				if (bad)
					exit 1
			}'
	} >"$tmp" || { rm -f "$tmp" "$tmp.nist"; echo "$0: $name: not converted" >&2; exit 1; }
	rm -f "$tmp.nist"
	gzip -9 -n <"$tmp" >"$tmp.gz" || { rm -f "$tmp" "$tmp.gz"; exit 1; }
	rm -f "$tmp"
	mv "$tmp.gz" "$out/$name.rsp.gz"
done
