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
# The check can fail: a file off PEP 8 (an ambiguous name, a bad indent) must be refused.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-pystyle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf 'def f(l):\n  return  l\n' >"$tmp/drift.py"
if $STYLE "$tmp/drift.py" >/dev/null 2>&1; then
	echo "FAIL: pystyle-can-fail: a file off PEP 8 was not refused"
else
	echo "PASS: pystyle-can-fail: a file off PEP 8 is refused"
fi
n=0 bad=0
while IFS= read -r -d '' f; do
	n=$((n + 1))
	if ! out=$($STYLE "$f" 2>&1); then
		bad=$((bad + 1))
		echo "FAIL: pystyle: $(echo "$out" | head -n 1) ($(echo "$out" | wc -l) in all)"
	fi
done < <(git ls-files -z '*.py')
if [ "$n" -eq 0 ]; then
	echo "FAIL: pystyle: no tracked .py file found"
elif [ "$bad" -eq 0 ]; then
	echo "PASS: pystyle: $n tracked .py files pass pycodestyle"
fi
