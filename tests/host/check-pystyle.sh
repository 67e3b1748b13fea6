#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-pystyle.sh - the Python beside check-format.sh's C: every tracked
# .py file passes pycodestyle (PEP 8) with lines up to 100 columns, the
# limit .clang-format sets for C.  To see what to fix:
#   /usr/bin/python3 -m pycodestyle --max-line-length=100 $(git ls-files '*.py')
# Debian 12's pycodestyle 2.10 (python3-pycodestyle, tools/deps.sh check).
set -u
cd "$(dirname "$0")/../.."

PY=/usr/bin/python3
STYLE="$PY -m pycodestyle --max-line-length=100"
if ! $PY -c 'import pycodestyle' >/dev/null 2>&1; then
	echo "FAIL: pystyle: pycodestyle is missing (tools/deps.sh check installs python3-pycodestyle)"
	exit 1
fi
echo "INFO: pycodestyle $($STYLE --version)"
. tests/host/style.sh
# The check can fail: a file off PEP 8 (an ambiguous name, a bad indent) must be refused.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-pystyle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf 'def f(l):\n  return  l\n' >"$tmp/drift.py"
style_can_fail pystyle "$tmp/drift.py"
style_files pystyle ".py files (pycodestyle)" '*.py'
