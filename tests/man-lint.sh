#!/bin/sh
# SPDX-License-Identifier: MIT
# man-lint.sh - check the manual pages with mandoc's linter.
# Skips (exit 77) when mandoc is not installed.

if [ -z "${MANDOC:-}" ]; then
	echo "SKIP: mandoc not installed"
	exit 77
fi
case $MANDOC in
*/*)	mandoc_path=$MANDOC ;;
*)	mandoc_path=$(command -v "$MANDOC" 2>/dev/null) ;;
esac
if [ -z "$mandoc_path" ] || [ ! -x "$mandoc_path" ]; then
	echo "SKIP: mandoc not installed"
	exit 77
fi

# The pages this build installs (MAN_PAGES, from make check: aesecb.3
# alone without the tool), else both.
srcdir=${top_srcdir:-.}
status=0
for page in ${MAN_PAGES:-man/aesecb.1 man/aesecb.3}; do
	page=$srcdir/$page
	if [ ! -f "$page" ]; then
		echo "FAIL: $page: no such file"
		status=1
		continue
	fi
	echo "mandoc -Tlint -W warning $page"
	if "$mandoc_path" -Tlint -W warning "$page" 2>&1; then
		echo "ok: $page"
	else
		echo "FAIL: $page: mandoc reported problems (above)"
		status=1
	fi
done
exit $status
