#!/bin/sh
# SPDX-License-Identifier: MIT
# Generate the configure script and Makefile.in from a fresh checkout.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
# the backend sources Makefile.am includes, from the one list of backends
sh tools/backends.sh am lib/backends.def >lib/backends.am
autoreconf --force --install --verbose "$@"
