#!/bin/sh
# SPDX-License-Identifier: MIT
# ct-arm32-asm.sh - the compiled 32-bit ARM backends keep secret data in
# NEON registers, where nothing can branch on it or make an address of it.
#
# valgrind does not run 32-bit ARM code here, so tests/ct-valgrind.sh
# cannot watch neon32 and armce32.  What it would catch needs, on ARM, a
# value of the key or the data in a core register: a branch tests core
# flags, an address is a core register, and neither NEON nor the AES
# instructions can branch or load through a vector register.  (VTBL's
# indices are vector data, into a table in registers: the look-up the
# vector-permute method rests on, whose time does not depend on them.)
# This test reads the disassembly of lib/backend_neon32.c and
# lib/backend_armce32.c as compiled, with whatever flags this build used,
# and fails when a function that handles blocks
#   - moves a value from a vector register to a core register or to the
#     flags (VMOV to a core register, VMRS), or
#   - stores a vector register to the stack other than by VPUSH (the
#     callee-saved d8-d15 in the prologue, which hold the caller's values):
#     a spill of a state or a round key, which tests/check_residue would
#     also see when it is not overwritten.
# Key setup (setkey and its helpers) is C around an asm S-box whose result
# comes back in a core register, by design: it is excluded here, reviewed
# (doc/security-checks.md, "Constant time on 32-bit ARM") and run as a
# burned call.
# SKIP when neither backend is built, or without an ARM objdump.
. "${top_srcdir:-.}/tests/testlib.sh"

want=
for b in neon32 armce32; do
	case " ${BUILT_BACKENDS:-} " in *" $b "*) want="$want $b" ;; esac
done
[ -n "$want" ] || skip_all "neither neon32 nor armce32 is built"
objdump=${OBJDUMP:-objdump}
command -v "$objdump" >/dev/null 2>&1 || skip_all "$objdump not found"

checked=0
for b in $want; do
	found=0
	# libtool's PIC objects (the shared library) and the static ones
	# (named with the library's prefix when it has flags of its own)
	for o in "$top_builddir/lib/.libs/backend_$b.o" \
	         "$top_builddir/lib/backend_$b.o" \
	         "$top_builddir/lib/.libs/libaesecb_core_la-backend_$b.o" \
	         "$top_builddir/lib/libaesecb_core_la-backend_$b.o"; do
		[ -f "$o" ] || continue
		found=1
		if ! "$objdump" -d --no-show-raw-insn "$o" >"$T/dis" 2>"$T/err"; then
			skip_all "$objdump cannot read $o: $(head -n 1 "$T/err")"
		fi
		awk -v obj="${o#"$top_builddir"/}" '
		/^[0-9a-f]+ <[^>]+>:$/ {
			fn = $2; gsub(/[<>:]/, "", fn)
			setup = fn ~ /^(setkey|sub_word|inv_mix_columns|lin_byte|xtime)/
			next
		}
		/^ *[0-9a-f]+:\t/ {
			line = $0; sub(/^ *[0-9a-f]+:\t/, "", line)
			split(line, f, "\t"); op = f[1]; args = f[2]
			if (op ~ /^vtbl/) vtbl++
			if (op ~ /^aes/) aes++
			if (setup) next
			if (op ~ /^vmrs/ ||
			    (op ~ /^vmov/ && args ~ /^(r[0-9]+|sl|fp|ip|lr|sb),/)) {
				printf "%s: %s: vector data to a core register: %s %s\n", obj, fn, op, args
				bad++
			}
			if (op ~ /^(vstr|vstm|vst[1-4])/ && args ~ /\[sp|sp[,!]/) {
				printf "%s: %s: vector register stored to the stack: %s %s\n", obj, fn, op, args
				bad++
			}
			n++
		}
		END {
			printf "%s: %d instructions checked, %d VTBL, %d AES\n", obj, n, vtbl, aes
			exit bad ? 1 : 0
		}' "$T/dis" >"$T/out" || {
			cat "$T/out"
			fail "$b: secret data leaves the vector registers in $o"
			continue
		}
		cat "$T/out"
		# the backend's instructions are there (not a vacuous pass)
		case $b in
		neon32) grep -Eq ', [1-9][0-9]* VTBL' "$T/out" ;;
		armce32) grep -Eq ', [1-9][0-9]* AES$' "$T/out" ;;
		esac || { fail "$b: no VTBL or AES instruction found in $o"; continue; }
		checked=$((checked + 1))
	done
	[ "$found" = 1 ] || fail "$b is built but its object file was not found"
done
[ "$checked" -gt 0 ] && pass "vector data stays in vector registers ($checked objects)"
finish
