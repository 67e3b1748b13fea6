#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-doc-cells.sh - every table cell of README.md and docs/*.md stays
# short: at most LIMIT words (whitespace-separated, as wc -w counts them).
# A cell says what its thing is in a sentence or two; the detail goes to
# prose or a list under the table.  Each cell over the limit is one FAIL
# line naming file, line, column (1 = the first cell) and its word count.
# Rows inside fenced code blocks are not tables; "\|" is a pipe inside a cell.
#
# LIMIT: 50 words, two sentences of about 25 words each: room for what a
# thing is and where its detail lives, none for the detail itself.
# Usage: check-doc-cells.sh [FILE...] (default: README.md docs/*.md);
# LIMIT in the environment changes the limit.
set -u
cd "$(dirname "$0")/../.." || exit 1
limit=${LIMIT:-50}

# long_cells LIMIT FILE...: "file:line: column N (header) has W words" per
# cell over LIMIT; the header is the cell's column in the table's first row.
long_cells() {
	awk -v limit="$1" '
	FNR == 1 { fence = 0; intable = 0 }
	/^ *(```|~~~)/ { fence = !fence; intable = 0; next }
	fence { next }
	!/^ *\|/ { intable = 0; next }
	/^ *\|[ :|-]+$/ { next }
	{
		line = $0
		gsub(/\\\|/, "\001", line)
		sub(/^ *\|/, "", line)
		sub(/\| *$/, "", line)
		n = split(line, cell, "|")
		if (!intable) {
			intable = 1
			delete head
			for (i = 1; i <= n; i++) {
				h = cell[i]
				gsub(/^ +| +$/, "", h)
				head[i] = h
			}
		}
		for (i = 1; i <= n; i++) {
			c = cell[i]
			gsub(/^[ \t]+|[ \t]+$/, "", c)
			w = c == "" ? 0 : split(c, word, /[ \t]+/)
			if (w > limit)
				printf "%s:%d: column %d (%s) has %d words\n", FILENAME, FNR, i, head[i], w
		}
	}' "${@:2}"
}

# The check can fail: a planted 51-word cell (and a 50-word one beside it,
# a fenced table row and an escaped pipe, none of which count) is found.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-cells.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
words() { printf 'w%.0s ' $(seq "$1"); }
{
	echo "| thing | what it is |"
	echo "|---|---|"
	echo "| short | $(words 50) |"
	echo "| long \\| piped | $(words 51) |"
	echo '```'
	echo "| fenced | $(words 99) |"
	echo '```'
} >"$tmp/plant.md"
out=$(long_cells 50 "$tmp/plant.md")
want="$tmp/plant.md:4: column 2 (what it is) has 51 words"
if [ "$out" = "$want" ]; then
	echo "PASS: doc-cells-can-fail: a planted 51-word cell is found, a 50-word one is not"
else
	echo "FAIL: doc-cells-can-fail: found '$out', want '$want'"
fi

if [ $# -eq 0 ]; then
	set -- README.md docs/*.md
fi
out=$(long_cells "$limit" "$@")
if [ -z "$out" ]; then
	echo "PASS: doc-cells: every table cell of $# files has $limit words or fewer"
else
	echo "$out" | sed "s/^/FAIL: doc-cells: /; s/\$/ (at most $limit: move the detail under the table)/"
fi
