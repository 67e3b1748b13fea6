#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-unit-size.sh - no cmocka test file (tests/unit/*.c, *.h) is over
# MAX lines (700): a file that grows past it is split by concern into a new
# test file, or its hand-written cases become a table.  The check can fail:
# a planted file of MAX+1 lines must be named.
set -u
cd "$(dirname "$0")/../.."
MAX=${MAX:-700}

# over FILE...: "FILE: N lines" for each file over MAX, one a line.
over() {
	wc -l "$@" | awk -v max="$MAX" '$2 != "total" && $1 > max { print $2 ": " $1 " lines" }'
}

files=(tests/unit/*.c tests/unit/*.h)
out=$(over "${files[@]}")
if [ -z "$out" ]; then
	echo "PASS: unit-size: ${#files[@]} files in tests/unit, none over $MAX lines"
else
	echo "FAIL: unit-size: over $MAX lines (split by concern): $(echo "$out" | tr '\n' ' ')"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seq "$((MAX + 1))" >"$tmp/test_big.c"
seq "$MAX" >"$tmp/test_ok.c"
out=$(over "$tmp/test_big.c" "$tmp/test_ok.c")
if [ "$out" = "$tmp/test_big.c: $((MAX + 1)) lines" ]; then
	echo "PASS: unit-size: a planted file of $((MAX + 1)) lines is named, one of $MAX is not"
else
	echo "FAIL: unit-size: the planted files gave '$out'"
fi
