#!/bin/sh
# SPDX-License-Identifier: MIT
# cli-no-echo.sh - hex long enough to be a key or a secret is never shown,
# wherever it is typed: as the command, after 'help', as every option's
# value (--opt VALUE, --opt=VALUE, -o VALUE, -oVALUE), as an option name
# (--VALUE, -VALUE, --optVALUE), as an operand at every place of a command
# line, as the name of an existing file, and in AESECB_BACKEND and
# AESECB_VECTORS; on stderr, on stdout, and in --json output.
#
# The commands come from 'aesecb --help', and each command's options from
# the table its parser uses: tests/optlist.so, preloaded, prints the option
# table of the first getopt_long() call and ends the process.  Nothing here
# lists the options by hand; what is written here is one valid command line
# per command (the places around which values are put) and the two places
# where a command prints its input as its output by design (the DCID of
# quic-keys, the packet of hp-mask --protect/--unprotect).

. "${top_srcdir:-.}/tests/testlib.sh"

# the runs are made in $T: every path absolute
abs() {
	case $1 in
	/*) echo "$1" ;;
	*)  echo "$PWD/$1" ;;
	esac
}
AESECB=$(abs "$AESECB")
top_srcdir=$(abs "$top_srcdir")
top_builddir=$(abs "$top_builddir")
PRELOAD=$top_builddir/tests/.libs/optlist.so
[ -f "$PRELOAD" ] || skip_all "no $PRELOAD"
command -v timeout >/dev/null 2>&1 || skip_all "no timeout command (coreutils)"

V=$top_srcdir/vectors
K16=000102030405060708090a0b0c0d0e0f
SAMPLE=$RFC9001_SAMPLE
PROMPT=$top_srcdir/tests/acvp/array/prompt.json

# The values hunted for: a key plain, with colons in upper case, in groups
# separated by spaces, a 48-byte secret, and the name of a file that exists;
# then the same key in the other spellings a key is written in: groups
# with several spaces and a tab between them, C's 0xHH list, C and Python
# \xHH escapes, the 16 bytes themselves (which a message would show
# through the tool's own \xHH escaping), and the key file's name at the
# end of a path of more than 511 bytes.
P1=7c5e1f9a3b2d4e6f8091a2b3c4d5e6f7
P2=7C:5E:1F:9A:3B:2D:4E:6F:80:91:A2:B3:C4:D5:E6:F7
P3='7c5e1f9a 3b2d4e6f 8091a2b3 c4d5e6f7'
P4=c0ffee0123456789abcdef0123456789c0ffee0123456789abcdef0123456789c0ffee0123456789abcdef0123456789
mkdir "$T/f"
: >"$T/f/$P1"
P5=$T/f/$P1
P6=$(printf '7c5e    1f9a    3b2d\t4e6f     8091  a2b3  c4d5  e6f7')
P7='{ 0x7c, 0x5e, 0x1f, 0x9a, 0x3b, 0x2d, 0x4e, 0x6f, 0x80, 0x91, 0xa2, 0xb3, 0xc4, 0xd5, 0xe6, 0xf7 }'
P8='\x7c\x5e\x1f\x9a\x3b\x2d\x4e\x6f\x80\x91\xa2\xb3\xc4\xd5\xe6\xf7'
P9=$(printf '\174\136\037\232\073\055\116\157\200\221\242\263\304\325\346\367')
P10=$T/f/$(printf './%.0s' $(seq 245))$P1
[ ${#P10} -gt 511 ] || fail "the long path has ${#P10} bytes"
[ -e "$P10" ] || fail "$P10: no such file"
head -c 16 /dev/zero >"$T/in"

# Windows of 12 digits every 4 digits: an echo of any 15 digits of a value
# in a row (separators left out, any case) contains one.
windows() {
	printf '%s\n' "$1" | tr 'A-F' 'a-f' | tr -cd '0-9a-f' | awk '{
		for (i = 1; i + 11 <= length($0); i += 4)
			printf "%s%s", (i > 1 ? " " : ""), substr($0, i, 12)
		print ""
	}'
}
W1=$(windows "$P1")
W4=$(windows "$P4")
[ "$(echo $W1 | wc -w)" -eq 6 ] && [ "$(echo $W4 | wc -w)" -eq 22 ] ||
	fail "windows: '$W1' '$W4'"

# The awk function that finds a window of P1 or P4 in a line: in its
# text with separators, 0x and \x taken out, and in the bytes it spells
# (each \xHH escape read as its byte, every other byte as itself).
FIND='
function init(w,   i) {
	nw = split(w, W, " ")
	for (i = 1; i < 256; i++)
		ORD[sprintf("%c", i)] = i
}
function bytes(l,   o, i, c, h) {
	o = ""
	for (i = 1; i <= length(l); i++) {
		c = substr(l, i, 1)
		h = tolower(substr(l, i + 2, 2))
		if (c == "\\" && substr(l, i + 1, 1) ~ /[xX]/ &&
		    h ~ /^[0-9a-f][0-9a-f]$/) {
			o = o h
			i += 3
		} else {
			o = o sprintf("%02x", ORD[c])
		}
	}
	return o
}
function shows(l,   s, b, i) {
	s = tolower(l)
	gsub(/\\x|0x/, "", s)
	gsub(/[^0-9a-f]/, "", s)
	b = bytes(l)
	for (i = 1; i <= nw; i++)
		if (index(s, W[i]) || index(b, W[i]))
			return 1
	return 0
}'

# leaks FILE...: 0 when the files hold a window of P1 or P4
leaks() {
	cat "$@" | awk -v w="$W1 $W4" "$FIND"'
		BEGIN { init(w) }
		shows($0) { found = 1 }
		END { exit found ? 0 : 1 }'
}

# try [-s] ARG...: run aesecb ARG... in $T with no stdin, 10 s at most;
# its output is looked at by hunt, below.  -s: its stdout may show the
# value when it succeeds (the command prints that input by design).
mkdir "$T/r"
runs=0
try() {
	own=0
	if [ "$1" = -s ]; then
		own=1
		shift
	fi
	runs=$((runs + 1))
	timeout -s KILL 10 "$AESECB" "$@" >"$T/r/$runs.out" \
		2>"$T/r/$runs.err" </dev/null
	echo "$runs $own $? aesecb $*" >>"$T/r/index"
}

# Every run's stderr, and its stdout (but where the value is its own
# output), in one pass: a run that shows a value, timed out or was
# killed is a failure.
hunt() {
	cd "$T/r" && ls | grep -v '^index$' | sort -n |
	xargs awk -v w="$W1 $W4" "$FIND"'
		BEGIN {
			init(w)
			while ((getline l < "index") > 0) {
				split(l, f, " ")
				own[f[1]] = f[2]; st[f[1]] = f[3]
				sub(/^[0-9]+ [0-9]+ [0-9]+ /, "", l); line[f[1]] = l
			}
		}
		FNR == 1 {
			split(FILENAME, p, "."); r = p[1]
			skip = p[2] == "out" && own[r] == 1 && st[r] == 0
			if (st[r] >= 124 && !(r in bad)) {
				bad[r] = "exit " st[r] " (timed out or killed)"
				nbad++
			}
		}
		!skip && !(r in bad) && shows($0) {
			bad[r] = "std" p[2] " shows the value: " $0
			nbad++
		}
		END {
			for (r in bad)
				print "FAIL " line[r] ": " bad[r]
			exit nbad > 0
		}'
}

# One command line per command that the command accepts, as the place
# around which the values go.
base() {
	case $1 in
	encrypt|decrypt) echo "-k $K16 -i $T/in -o $T/o" ;;
	hp-mask)   echo "-k $K16 $SAMPLE" ;;
	quic-keys) echo "$RFC9001_DCID" ;;
	verify)    echo "-b none $V/fips197.rsp" ;;
	acvp)      echo "-b none -o $T/answer.json $PROMPT" ;;
	bench)     echo "--list" ;;
	*)         echo "" ;;
	esac
}

commands=$("$AESECB" --help | awk '/^Commands:/ { c = 1; next }
	c && NF == 0 { exit } c { print $1 }')
[ -n "$commands" ] && pass "commands: $(echo $commands)" ||
	fail "no commands in 'aesecb --help'"

cd "$T" || exit 99
for P in "$P1" "$P2" "$P3" "$P4" "$P5" "$P6" "$P7" "$P8" "$P9" "$P10"; do
	try "$P"
	try help "$P"
	try "$P" --help
	try "--$P"
done

# operands P BASE...: P as an operand at every place of BASE (with
# "all": every place; else the first and the last), and alone
operands() {
	every=$1 P=$2 line=$3
	set -- $line
	n=$#
	i=0
	while [ $i -le $n ]; do
		if [ "$every" = all ] || [ $i -eq 0 ] || [ $i -eq $n ]; then
			set -- $line
			pre= post= j=0
			for a in "$@"; do
				if [ $j -lt $i ]; then pre="$pre $a"; else post="$post $a"; fi
				j=$((j + 1))
			done
			try $own $cmd $pre "$P" $post
		fi
		i=$((i + 1))
	done
}

# values P: P as the value of every option of the table, and option names
# made of it; with "all" in every form, else as --name=P
values() {
	every=$1 P=$2
	while read -r kind name arg; do
		case $kind in
		short)
			[ "$every" = all ] || continue
			try $cmd "-$name$P" $b
			if [ "$arg" -ge 1 ]; then
				try $cmd $b "-$name" "$P"
				[ -z "$jsonb" ] || try $cmd $jsonb "-$name" "$P"
			fi ;;
		long)
			o=
			case $name in protect|unprotect) o=-s ;; esac
			try $o $cmd $b "--$name=$P"
			[ "$every" = all ] || continue
			if [ "$arg" -ge 1 ]; then
				try $o $cmd "--$name" "$P" $b
				[ -z "$jsonb" ] || try $o $cmd $jsonb "--$name=$P"
			fi
			try $cmd "--$name$P" $b ;;
		esac
	done <"$T/table"
}

for cmd in $commands; do
	env LD_PRELOAD="$PRELOAD" "$AESECB" $cmd >"$T/table" 2>"$T/err" </dev/null
	if [ "$(tail -n 1 "$T/table")" != end ]; then
		fail "$cmd: no option table (the preloaded getopt_long did not run)"
		continue
	fi
	pass "$cmd: $(grep -c '^long ' "$T/table") long options in its table"
	b=$(base $cmd)
	jsonb=
	grep -q '^long json ' "$T/table" && jsonb="--json $b"
	own=
	[ "$cmd" = quic-keys ] && own=-s
	for P in "$P1" "$P2" "$P3" "$P4" "$P5" "$P6" "$P7" "$P8" "$P9" "$P10"; do
		every=some
		case $P in "$P1"|"$P8"|"$P9") every=all ;; esac
		operands $every "$P" "$b"
		[ -z "$jsonb" ] || operands $every "$P" "$jsonb"
		values $every "$P"
		try $cmd "--$P" $b
		try $cmd "-$P" $b
		# the environment
		AESECB_BACKEND=$P
		export AESECB_BACKEND
		try $own $cmd $jsonb $b
		unset AESECB_BACKEND
		AESECB_VECTORS=$P
		export AESECB_VECTORS
		try $own $cmd $jsonb $b
		unset AESECB_VECTORS
	done
done
# a bare verify reads the vectors named by AESECB_VECTORS
for P in "$P1" "$P5" "$P9" "$P10"; do
	AESECB_VECTORS=$P
	export AESECB_VECTORS
	try verify
	try verify --json
	unset AESECB_VECTORS
done

# the hunt itself finds an echo, in every spelling, and the escaping of
# raw bytes
for P in "$P1" "$P2" "$P3" "$P6" "$P7" "$P8" "$P9" \
         '|^\x1f\x9a;-No\x80\x91\xa2\xb3\xc4\xd5\xe6\xf7'; do
	printf 'x %s y\n' "$P" >"$T/echo"
	leaks "$T/echo" || fail "an echo of '$P' is not found"
done
printf 'x %s y\n' 7c5e1f9a3b2 >"$T/echo"
leaks "$T/echo" && fail "a short value is found" || pass "the hunt finds every spelling"
if (hunt) >"$T/hunt"; then
	pass "$runs command lines: no value shown"
else
	fail "$(grep -c '^FAIL' "$T/hunt") of $runs command lines show a value"
	head -n 40 "$T/hunt" | sed 's/^/#   /' >&2
fi
cd "$top_builddir" 2>/dev/null || cd /

# The message says what was withheld, and why; the path shown is the one
# given, whole.
expect_status 4 "$AESECB" verify "$P10.json"
expect_stderr_fixed "aesecb: verify: $T/f/$(printf './%.0s' $(seq 245))<32+ hex digits withheld: may be a key>.json: No such file or directory"
expect_status 4 "$AESECB" acvp -b none "$P10.json"
expect_stderr_fixed "aesecb: acvp: $T/f/$(printf './%.0s' $(seq 245))<32+ hex digits withheld: may be a key>.json: cannot open: No such file or directory"
expect_status 2 "$AESECB" encrypt -k "$K16" -p "$P9"
expect_stderr_fixed "unknown padding '<raw bytes withheld: may be a key>'"
expect_status 2 "$AESECB" "x$P8"
expect_stderr_grep "^aesecb: unknown command 'x.*withheld: may be a key>' "
# the file name in hp-mask's JSON report: withheld where every JSON string
# is written (it was shown whole while its text report withheld it)
for P in "$P1" "$P9"; do
	echo "$RFC9001_SERVER_INITIAL" >"$T/f/$P"
	expect_status 0 "$AESECB" hp-mask --initial --odcid "$RFC9001_DCID" \
		--json --unprotect - "$T/f/$P"
	expect_stdout_grep '"file": "[^"]*withheld: may be a key>"'
	printf '%s\n' "$P" >"$T/echo"
	leaks "$T/out" && fail "hp-mask --json shows the file name '$P'" ||
		pass "hp-mask --json withholds the file name"
done
# one odd byte, or an escape sequence, is shown escaped
expect_status 2 "$AESECB" "$(printf 'a\033[31mb\nc')"
expect_stderr_fixed "unknown command 'a\x1b[31mb\x0ac'"
expect_status 2 "$AESECB" "$P1"
expect_stderr_fixed "aesecb: unknown command '<32+ hex digits withheld: may be a key>'"
expect_status 4 "$AESECB" verify --json "$P2"
expect_stdout_grep '"<32+ hex digits withheld: may be a key>: No such file or directory"'
# shorter hex, and hex inside words, are shown
expect_status 2 "$AESECB" bench 7c5e1f9a3b2d4e6f8091a2b3c4d5e6f
expect_stderr_fixed "'7c5e1f9a3b2d4e6f8091a2b3c4d5e6f'"
expect_status 2 "$AESECB" bench "7c5e1f9a3b2d4e6f    8091a2b3c4d5e6f"
expect_stderr_fixed "'7c5e1f9a3b2d4e6f    8091a2b3c4d5e6f'"

finish
