#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-citations.sh - code and docs cite public sources only: an SDM
# volume/section/table, a Linux function or commit, a perfmon file, a
# kvm-unit-tests file.  A private note's numbering ("reference 7", "seed
# 004", "ref 3") or a path into ../shared/reference means nothing to a
# reader of the tree, so every tracked .c, .h, .md, .sh, .py and .mk file
# (data/ and the recorded transcripts of tests/results/ aside) is searched
# for those spellings.  To fix one: name the public source it stands for.
set -u
cd "$(dirname "$0")/../.." || exit 1

# One extended regexp, case-insensitive: the spellings of a private note.
pattern='(^|[^a-z])(seed|reference|ref\.?)[ ]+[0-9]|shared/reference'
self=tests/host/check-citations.sh

# The check can fail: a line citing a note by number must be found.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-cite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf '/* PEBS on PMC0-3 (reference 8.4) */\n' >"$tmp/bad.c"
printf '/* PEBS on PMC0-3 (SDM Vol. 3B 18.9.4) */\n' >"$tmp/good.c"
if grep -Eiq "$pattern" "$tmp/bad.c" && ! grep -Eiq "$pattern" "$tmp/good.c"; then
	echo "PASS: citations-can-fail: 'reference 8.4' is found, an SDM section is not"
else
	echo "FAIL: citations-can-fail: the pattern does not tell a note's number from a public source"
fi

n=0 bad=0
while IFS= read -r -d '' f; do
	case $f in
	data/* | tests/results/* | "$self") continue ;;
	esac
	n=$((n + 1))
	while IFS= read -r hit; do
		bad=$((bad + 1))
		echo "FAIL: citations: $f:${hit%%:*}: cites a private note (${hit#*:}); name the public source"
	done < <(grep -Ein "$pattern" "$f" | cut -c1-160)
done < <(git ls-files -z '*.c' '*.h' '*.md' '*.sh' '*.py' '*.mk' 'Makefile')
if [ "$n" -eq 0 ]; then
	echo "FAIL: citations: no tracked file found"
elif [ "$bad" -eq 0 ]; then
	echo "PASS: citations: $n tracked files cite no private note by number"
fi
