#!/bin/sh
# SPDX-License-Identifier: MIT
# cpu-flags.sh - the library's CPU detection against the kernel's view.
#
# Every backend that is built in must be available exactly when the CPU
# has every feature in its "requires" text, by the flags the kernel lists
# in /proc/cpuinfo.  A detection that reads the wrong CPUID leaf, or loses
# its result, makes the hardware backends "missing" while the rest of the
# suite passes on none alone: this test fails then.  The feature names
# come from the library (aesecb backends --json); only their spelling in
# /proc/cpuinfo is written here.  Under an emulator /proc/cpuinfo
# describes the host, not the emulated CPU: SKIP (.ci/run checks the
# emulated models' backends instead).
. "${top_srcdir:-.}/tests/testlib.sh"

[ -z "${TEST_EMULATOR:-}" ] || skip_all "under an emulator /proc/cpuinfo is the host's"
[ -r /proc/cpuinfo ] || skip_all "no /proc/cpuinfo"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

expect_status 0 "$AESECB" backends --json
cp "$T/out" "$T/backends.json"

python3 - "$T/backends.json" /proc/cpuinfo >"$T/verdicts" 2>"$T/perr" <<'EOF'
import json, sys

backends = json.load(open(sys.argv[1]))["backends"]
flags = set()
for line in open(sys.argv[2], errors="replace"):
    key, _, value = line.partition(":")
    # x86 "flags", AArch64 "Features"
    if key.strip() in ("flags", "Features"):
        flags |= set(value.split())

# The kernel's spelling of each feature the library names.  "OS YMM
# state": the kernel lists avx only when it saves the YMM registers.
spelling = {
    "SSE2": ["sse2"], "SSSE3": ["ssse3"], "AES-NI": ["aes"],
    "VAES": ["vaes"], "AVX2": ["avx2"], "OS YMM state": ["avx", "xsave"],
    "Advanced SIMD": ["asimd"], "ARMv8 Crypto Extensions (AES)": ["aes"],
}
# a 32-bit ARM kernel (or a 64-bit one's 32-bit view) says "neon"
spelling_arm = dict(spelling, **{"Advanced SIMD": ["neon"]})
for b in backends:
    if not b["compiled"] or b["arch"] == "any":
        continue
    need = [f.strip() for f in b["requires"].split(",")]
    sp = spelling_arm if b["arch"] == "arm" else spelling
    unknown = [f for f in need if f not in sp]
    if unknown:
        print("unknown %s %s" % (b["name"], "|".join(unknown)))
        continue
    missing = [f for f in need if not all(s in flags for s in sp[f])]
    want = not missing
    got = b["available"]
    print("%s %s %s %s %s" % ("ok" if want == got else "bad", b["name"],
          int(want), int(got), "|".join(missing) or "-"))
EOF
[ -s "$T/perr" ] && { cat "$T/perr" >&2; fail "reading the backends or /proc/cpuinfo"; }

checked=0
while read -r verdict name want got missing; do
	case $verdict in
	ok)
		checked=$((checked + 1))
		if [ "$want" = 1 ]; then
			pass "$name: available, as /proc/cpuinfo says"
		else
			pass "$name: not available; the CPU lacks $missing"
		fi ;;
	bad)
		checked=$((checked + 1))
		if [ "$want" = 1 ]; then
			fail "$name: /proc/cpuinfo lists everything it requires, but the library says it is not available"
		else
			fail "$name: available, but /proc/cpuinfo lacks $missing"
		fi ;;
	unknown)
		# a feature without a /proc/cpuinfo spelling here (POWER's
		# vector crypto: its /proc/cpuinfo lists no features)
		skip "$name: /proc/cpuinfo does not list '$want'" ;;
	esac
done <"$T/verdicts"
[ "$checked" -gt 0 ] || skip_all "no hardware backend built in"
finish
