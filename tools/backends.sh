#!/bin/sh
# SPDX-License-Identifier: MIT
# backends.sh - what the build makes from lib/backends.def, the one list
# of backends (its rows are described at its top).
#
#   backends.sh list DEF         one line per backend: id, arch, summary
#                                (tab-separated), in the file's order
#   backends.sh am DEF           lib/backends.am: the backend sources,
#                                included by Makefile.am
#   backends.sh man DEF <IN >OUT a man page from its template: each line
#                                "@@ FORM ARGS" becomes the list FORM, each
#                                @BACKEND_COUNT@ the number of backends
#
# Forms (roff, one name a line in bold; SUFFIX is the punctuation after
# the last name, PREFIX what comes before the first, "-" for none):
#   @@ names and|or|, SUFFIX [PREFIX]   every backend
#   @@ dit and|or|, SUFFIX              the backends of AArch64 and any
#                                       architecture (the ones DIT covers)
#   @@ entries                          .TP paragraphs: name, text, arch
#   @@ summaries SUFFIX                 name (summary), ..., and name (summary)
#   @@ preference                       per architecture, the order the
#                                       default is chosen in
#   @@ verify-x86_64                    verify's report on x86-64: a row for
#                                       each backend built there, the summary
# A template line starting "@@" that is none of these is an error.
set -eu

usage() {
	echo "usage: $0 list|am|man DEF" >&2
	exit 2
}
[ $# -eq 2 ] || usage
mode=$1
def=$2
[ -r "$def" ] || { echo "$0: cannot read $def" >&2; exit 2; }

# The rows, one a line: id TAB arch TAB summary TAB text.
rows() {
	awk '
	{ src = src $0 "\n" }
	END {
		# C comments out
		while ((i = index(src, "/*")) > 0) {
			rest = substr(src, i + 2)
			j = index(rest, "*/")
			if (j == 0) { print "unterminated comment" > "/dev/stderr"; exit 1 }
			src = substr(src, 1, i - 1) " " substr(rest, j + 2)
		}
		n = 0
		while ((i = index(src, "AESECB_BACKEND_ROW(")) > 0) {
			src = substr(src, i + length("AESECB_BACKEND_ROW("))
			# the row ends at the first ")" outside a string
			row = ""; instr = 0
			for (k = 1; k <= length(src); k++) {
				c = substr(src, k, 1)
				if (c == "\"") instr = !instr
				else if (c == ")" && !instr) break
				row = row c
			}
			if (k > length(src)) { print "unterminated row" > "/dev/stderr"; exit 1 }
			src = substr(src, k + 1)
			q = index(row, "\"")
			if (q == 0) { print "row without texts: " row > "/dev/stderr"; exit 1 }
			head = substr(row, 1, q - 1)
			nf = split(head, f, ",")
			if (nf != 4 || f[4] !~ /^[ \t\n]*$/) {
				print "row " row ": want id, arch, needs, then two texts" > "/dev/stderr"; exit 1
			}
			id = f[1]; arch = f[2]
			gsub(/[ \t\n]/, "", id); gsub(/[ \t\n]/, "", arch)
			if (id !~ /^[a-z][a-z0-9_]*$/ || arch !~ /^[a-z][a-z0-9_]*$/) {
				print "bad id or arch in row " row > "/dev/stderr"; exit 1
			}
			# the texts: strings, adjacent ones joined; a comma between them
			texts = substr(row, q); t = 0; cur = ""; str = ""
			while (texts != "") {
				c = substr(texts, 1, 1)
				if (c == "\"") {
					e = index(substr(texts, 2), "\"")
					str = substr(texts, 2, e - 1)
					if (str ~ /[\\]/) { print "backslash in row " id > "/dev/stderr"; exit 1 }
					cur = cur str
					texts = substr(texts, e + 2)
				} else if (c == ",") {
					txt[++t] = cur; cur = ""
					texts = substr(texts, 2)
				} else if (c ~ /[ \t\n]/) {
					texts = substr(texts, 2)
				} else {
					print "unexpected " c " in row " id > "/dev/stderr"; exit 1
				}
			}
			txt[++t] = cur
			if (t != 2) { print "row " id ": want a summary and a text" > "/dev/stderr"; exit 1 }
			print id "\t" arch "\t" txt[1] "\t" txt[2]
			n++
		}
		if (n == 0) { print "no rows" > "/dev/stderr"; exit 1 }
	}' "$def"
}

case $mode in
list)
	rows | cut -f1-3
	;;
am)
	echo "# Generated from lib/backends.def by tools/backends.sh: do not edit."
	echo "# Every backend's source, in the list's order."
	printf 'AESECB_BACKEND_SOURCES ='
	rows | cut -f1 | while read -r id; do
		printf ' \\\n\tlib/backend_%s.c' "$id"
	done
	echo
	;;
man)
	rows >"${TMPDIR:-/tmp}/backends.$$" || { rm -f "${TMPDIR:-/tmp}/backends.$$"; exit 1; }
	trap 'rm -f "${TMPDIR:-/tmp}/backends.$$"' EXIT
	awk -F '\t' -v rowfile="${TMPDIR:-/tmp}/backends.$$" '
	BEGIN {
		while ((getline line < rowfile) > 0) {
			split(line, f, "\t")
			n++; id[n] = f[1]; arch[n] = f[2]; sum[n] = f[3]; txt[n] = f[4]
		}
		# the architectures, in the order the default is described
		na = split("x86_64 x86 aarch64 arm ppc64", fam, " ")
		human["x86_64"] = "x86\\-64"; human["x86"] = "32\\-bit x86"
		human["aarch64"] = "AArch64"; human["arm"] = "32\\-bit ARM"
		human["ppc64"] = "64\\-bit POWER"
		archtext["any"] = "Architecture\n.BR any ."
		archtext["x86"] = "Architecture\n.B x86_64\non x86\\-64 and\n.B x86\non 32\\-bit x86."
		archtext["x86_64"] = "Architecture\n.BR x86_64 ,\nx86\\-64 only."
		archtext["aarch64"] = "Architecture\n.BR aarch64 ."
		archtext["arm"] = "Architecture\n.B arm\n(32\\-bit little\\-endian ARM)."
		archtext["ppc64"] = "Architecture\n.B ppc64\n(64\\-bit POWER)."
	}
	function esc(s) { gsub(/-/, "\\-", s); return s }
	# a sentence a line, as roff wants, each wrapped at 72 columns
	function prose(s,    ns, sent, i, j, nw, w, out, line) {
		s = esc(s)
		gsub(/\. /, ".\n", s)
		ns = split(s, sent, "\n")
		out = ""
		for (i = 1; i <= ns; i++) {
			nw = split(sent[i], w, " ")
			line = ""
			for (j = 1; j <= nw; j++) {
				if (line != "" && length(line) + 1 + length(w[j]) > 72) {
					out = out line "\n"
					line = ""
				}
				line = line (line == "" ? "" : " ") w[j]
			}
			out = out line (i < ns ? "\n" : "")
		}
		return out
	}
	# does backend i run on architecture a (a library arch name)
	function on(i, a) {
		return arch[i] == a || (arch[i] == "x86" && a == "x86_64")
	}
	# names[1..k] as bold lines joined by conj ("and", "or" or ",")
	function list(k, names, conj, suffix, prefix,    i, out, sep, last) {
		if (suffix == "-") suffix = ""
		if (prefix == "-") prefix = ""
		out = ""
		for (i = 1; i <= k; i++) {
			last = (i == k)
			if (last) sep = suffix
			else if (conj == "," || i < k - 1) sep = ","
			else sep = ""
			if (prefix != "" && i == 1)
				out = out ".RB " prefix " " names[i] (sep != "" ? " " sep : "") "\n"
			else if (sep != "")
				out = out ".BR " names[i] " " sep "\n"
			else
				out = out ".B " names[i] "\n"
			if (!last && i == k - 1 && conj != ",")
				out = out conj "\n"
		}
		return substr(out, 1, length(out) - 1)
	}
	{ gsub(/@BACKEND_COUNT@/, n) }
	!/^@@/ { print; next }
	$0 ~ /^@@ names / || $0 ~ /^@@ dit / {
		split($0, a, " ")
		k = 0
		for (i = 1; i <= n; i++)
			if (a[2] == "names" || arch[i] == "any" || arch[i] == "aarch64")
				nm[++k] = id[i]
		print list(k, nm, a[3], a[4], a[5])
		next
	}
	$0 == "@@ entries" {
		for (i = 1; i <= n; i++) {
			print (i == 1 ? ".TP 8" : ".TP")
			print ".B " id[i]
			print prose(txt[i])
			print (arch[i] in archtext) ? archtext[arch[i]] : \
			      "Architecture\n.BR " arch[i] " ."
		}
		next
	}
	$0 ~ /^@@ summaries / {
		split($0, a, " ")
		for (i = 1; i <= n; i++) {
			print ".B " id[i]
			if (i == n) print prose("(" sum[i] ")" (a[3] == "-" ? "" : a[3]))
			else if (i == n - 1) print prose("(" sum[i] ") and")
			else print prose("(" sum[i] "),")
		}
		next
	}
	$0 == "@@ preference" {
		for (j = 1; j <= na; j++) {
			k = 0
			for (i = n; i >= 1; i--)
				if (arch[i] != "any" && on(i, fam[j]))
					nm[++k] = id[i]
			if (k == 0) continue
			for (i = 1; i <= k; i++)
				print ".BR " nm[i] " ,"
			print "then"
			print ".B none"
			print "on " human[fam[j]] ";"
		}
		for (i = 1; i <= n; i++) {
			known = 0
			for (j = 1; j <= na; j++) if (on(i, fam[j])) known = 1
			if (!known && arch[i] != "any") {
				print "architecture " arch[i] " not described in tools/backends.sh" > "/dev/stderr"
				exit 1
			}
		}
		print ".B none"
		print "elsewhere;"
		next
	}
	$0 == "@@ verify-x86_64" {
		ran = ""; skipped = ""; k = 0
		for (i = 1; i <= n; i++) {
			if (arch[i] == "any" || on(i, "x86_64")) {
				printf "%-8s 12/12  4/4   16/16  %s\n", id[i], \
				       arch[i] == "any" ? "0.004s" : "0.000s"
				ran = ran (ran == "" ? "" : ", ") id[i]; k++
			} else
				skipped = skipped (skipped == "" ? "" : ", ") id[i] " (not built in)"
		}
		print "verify: 16/16 entries passed under " k " backends (" ran ")" \
		      (skipped == "" ? "" : "; skipped: " skipped)
		next
	}
	{ print "unknown template line: " $0 > "/dev/stderr"; exit 1 }
	'
	;;
*)
	usage
	;;
esac
