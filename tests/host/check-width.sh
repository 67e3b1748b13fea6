#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-width.sh - every console line the app can print fits 80 columns,
# the rare ones (held-back lines, heartbeats, error paths) included:
# tools/check-width.py finds every report_* call in the app's sources and
# builds its line with the widest arguments and, on the lines a simulated
# run marks (lib/report.h), the " [sim]" mark (how the
# widest arguments are chosen: the comment at its top, docs/CI.md).
# Lines that were already over 80 when the check was written are listed in
# check-width-known.txt; a new or changed line must fit.  Cases:
#   - the check can fail: a fixture with a line too long, the held-back line
#     as lib/report.c printed it before (a caller's literal passed down),
#     and lines made wide through a parameter and a printf-like wrapper,
#     each FAILs naming its file:line;
#   - the app's sources: no line over 80 that is not on the known list.
set -u
cd "$(dirname "$0")/../.." || exit 1
fx=tests/host/check-width-fixtures
tool=tools/check-width.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-width.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# name file want-rc want-regex (a line of the tool's output)
while read -r name file want_rc want; do
	python3 "$tool" "$fx/$file" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -ne "$want_rc" ]; then
		echo "FAIL: width-can-fail: $name: exit $rc, want $want_rc: $(head -1 "$tmp/out")"
	elif ! grep -qE "$want" "$tmp/out"; then
		echo "FAIL: width-can-fail: $name: no line matching /$want/: $(head -1 "$tmp/out")"
	else
		echo "PASS: width-can-fail: $name"
	fi
done <<'CASES'
long-line long.c 1 ^FAIL:.width:.tests/host/check-width-fixtures/long.c:8:.82.columns,.over.80$
long-line-only long.c 1 ^INFO:.width:.2.printing.calls.in.1.files;.1.lines.over
old-held-back old-report.c 1 ^FAIL:.width:.tests/host/check-width-fixtures/old-report.c:13.\(via.tests/host/check-width-fixtures/old-report.c:20\):.101.columns
parameter via.c 1 ^FAIL:.width:.tests/host/check-width-fixtures/via.c:11.\(via.tests/host/check-width-fixtures/via.c:29\):
wrapper via.c 1 ^FAIL:.width:.tests/host/check-width-fixtures/via.c:23.\(via.tests/host/check-width-fixtures/via.c:31\):
CASES

python3 "$tool" --known tests/host/check-width-known.txt >"$tmp/tree" 2>&1
rc=$?
# Known lines the tree no longer has are said, so the list shrinks.
grep '^INFO: width: known' "$tmp/tree"
n_known=$(grep -cvE '^(#|$)' tests/host/check-width-known.txt)
if [ "$rc" -eq 0 ]; then
	echo "PASS: width: no console line over 80 columns but the $n_known known ($(grep -m1 '^INFO: width: [0-9]' "$tmp/tree" | cut -c14-))"
else
	grep -A1 '^FAIL: ' "$tmp/tree"
	[ "$rc" -eq 1 ] || echo "FAIL: width: check-width.py exited $rc: $(head -1 "$tmp/tree")"
fi
