#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-arch-files.sh - docs/ARCHITECTURE.md names every file of the
# units: each tracked .c, .h and .S under a unit of its layer list (the
# block tools/check-layers.sh reads) appears, in backquotes and relative to
# its unit, in that unit's section of "The files of each unit" (from its
# "### `unit/`" heading to the next heading).  A file added, renamed
# or moved without the doc fails here; so does a file named in its "Where
# to add" table that is not there.  The check can fail: on a copy of
# the doc with one name taken out, it must name that file.
set -u
cd "$(dirname "$0")/../.."

# The units, from the layer block: "N  unit/ unit/   what".
units() {
	awk '/^<!-- layers:/ { on = 1; next } on && /^```/ { if (++fence == 2) exit; next }
	     on && fence == 1 && $1 ~ /^[0-9]+$/ { for (i = 2; i <= NF && $i ~ /\/$/; i++) print $i }' "$1" |
		sed 's|/$||'
}

# The files of the units that doc $1's unit sections do not name, one a line.
unnamed() {
	local doc=$1 u row f
	for u in $(units "$doc"); do
		row=$(awk -v h="### \`$u/\`" '$0 == h { on = 1; next } on && /^#/ { exit } on' "$doc")
		while IFS= read -r f; do
			case "$row" in
			*"\`${f#"$u"/}\`"*) ;;
			*) echo "$f" ;;
			esac
		done < <(git ls-files "$u" | grep -E '\.(c|h|S)$')
	done
}

if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "SKIP: arch-files: not a git checkout (the tracked files are git's list)"
	exit 0
fi
doc=docs/ARCHITECTURE.md
n=$(units "$doc" | wc -l)
if [ "$n" -lt 8 ]; then
	echo "FAIL: arch-files: $doc's layer block gave $n units, not the 8 or more it lists"
else
	out=$(unnamed "$doc")
	if [ -z "$out" ]; then
		echo "PASS: arch-files: $doc names every .c, .h and .S of its $n units"
	else
		echo "FAIL: arch-files: $doc does not name $(echo "$out" | wc -l):" \
			"$(echo "$out" | head -n 5 | tr '\n' ' ')"
	fi
fi

# The check can fail: pmu/cpu_pebs.c's name taken out of a copy of the doc.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-archfiles.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sed 's/`cpu_pebs\.c`/cpu_pebs/g' "$doc" >"$tmp/ARCHITECTURE.md"
out=$(unnamed "$tmp/ARCHITECTURE.md")
if [ "$out" = "pmu/cpu_pebs.c" ]; then
	echo "PASS: arch-files-can-fail: a file the doc does not name is found (pmu/cpu_pebs.c)"
else
	echo "FAIL: arch-files-can-fail: with pmu/cpu_pebs.c unnamed, found '$out'"
fi

# The "Where to add" table: every `path` it names (a backquoted word with a
# slash, no pattern) exists.  The check can fail: a copy of the doc naming
# a file that is not there.
where_missing() {
	awk '/^<!-- where-to-add:/ { on = 1; next } on && !/^\|/ { exit } on' "$1" |
		grep -oE '`[^`<>*]*/[^`<>*]*`' | tr -d '`' | sort -u |
		while IFS= read -r f; do [ -e "$f" ] || echo "$f"; done
}
rows=$(awk '/^<!-- where-to-add:/ { on = 1; next } on && !/^\|/ { exit } on' "$doc" | grep -c '^| ')
out=$(where_missing "$doc")
if [ "$rows" -lt 8 ]; then
	echo "FAIL: arch-where: $doc's where-to-add table has $rows lines, not the header and 7 rows"
elif [ -z "$out" ]; then
	echo "PASS: arch-where: every file $doc's where-to-add table names exists"
else
	echo "FAIL: arch-where: $doc's where-to-add table names files that are not there: $(echo "$out" | tr '\n' ' ')"
fi
sed 's|`kernels/kbody.h`|`kernels/no-such-file.h`|' "$doc" >"$tmp/where.md"
out=$(where_missing "$tmp/where.md")
if [ "$out" = "kernels/no-such-file.h" ]; then
	echo "PASS: arch-where-can-fail: a file the table names that is not there is found ($out)"
else
	echo "FAIL: arch-where-can-fail: with kernels/no-such-file.h named, found '$out'"
fi
