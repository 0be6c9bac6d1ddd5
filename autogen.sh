#!/bin/sh
# SPDX-License-Identifier: MIT
# Generate the configure script and Makefile.in from a fresh checkout.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --force --install --verbose "$@"
