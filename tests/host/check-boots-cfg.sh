#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-boots-cfg.sh - tests/qemu/boots.py, the runner of the one-boot
# QEMU rows, without booting: tests/qemu/boots.cfg parses and every row
# has a check; then rows run against a stand-in QEMU that prints a
# transcript and exits as isa-debug-exit would, so each kind of check is
# seen to pass and to fail (a wrong status, a missing line, a refused
# line, a wrong count, a duplicate); a malformed file is one ERROR line
# naming its line and what is accepted, and exit 2.
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-boots.XXXXXX")
trap 'rm -rf "$T"' EXIT

if rows=$($PY tests/qemu/boots.py --list 2>&1) && [ "$(echo "$rows" | wc -l)" -ge 10 ]; then
	echo "PASS: boots-cfg: tests/qemu/boots.cfg parses ($(echo "$rows" | wc -l) rows)"
else
	echo "FAIL: boots-cfg: tests/qemu/boots.cfg: $(echo "$rows" | head -2 | tr '\n' '|')"
fi
# Every row checks a line, not only the exit status.
bare=$(awk '/^\[/ { if (row != "" && !n) print row; row = $0; n = 0 }
	/^(expect|refuse|count|unique) = / { n++ }
	END { if (row != "" && !n) print row }' tests/qemu/boots.cfg)
if [ -z "$bare" ]; then
	echo "PASS: boots-cfg: every row checks the console"
else
	echo "FAIL: boots-cfg: rows with no line check: $(echo "$bare" | tr '\n' ' ')"
fi

# The stand-in: the app's transcript for status 77, isa-debug-exit's code.
cat >"$T/qemu" <<'EOF'
#!/bin/sh
printf 'BdsDxe: starting\r\n'
printf 'INFO: pebsprobe 0123456 [sim]\r\n'
printf 'SKIP: pebs: no PEBS here, for a\r\n    reason that wraps\r\n'
printf 'INFO: twice\r\nINFO: twice\r\n'
printf 'SUMMARY: 1 tests, 0 failures, 1 skipped [sim]\r\n'
printf 'INFO: exit status 77 (exit=shutdown)\r\n'
exit 155
EOF
chmod +x "$T/qemu"
cat >"$T/rows.cfg" <<'EOF'
[good]
options = pmu=sim
expect_status = 77
expect = wrapped line joined | ^SKIP: pebs: no PEBS here, for a reason that wraps$
expect = lines in a row | ^INFO: twice\nSUMMARY:[ ]
refuse = no FAIL | ^FAIL:[ ]
count = two alike | 2 | ^INFO: twice$
unique = one SUMMARY | ^SUMMARY:.*

[bad]
expect_status = 0
expect = missing line | ^PASS: pebs:[ ]
refuse = refused line | ^SKIP:[ ]
count = wrong count | 1 | ^INFO: twice$
unique = duplicate | ^INFO: twice$
EOF
QEMU=$T/qemu QEMU_NOOP_S=5 $PY tests/qemu/boots.py --cfg "$T/rows.cfg" good bad >"$T/out" 2>&1
rc=$?
# case NAME REGEX: the runner's line for one case.
case_line() {
	if grep -qE -- "$2" "$T/out"; then
		echo "PASS: boots-cfg: $1"
	else
		echo "FAIL: boots-cfg: $1: no line /$2/ in: $(grep -E '^(PASS|FAIL)' "$T/out" | tr '\n' '|')"
	fi
}
case_line "status and lines as the row says: PASS" '^PASS: good: exit status 77$'
case_line "a wrapped line read whole" '^PASS: good: wrapped line joined$'
case_line "lines in a row" '^PASS: good: lines in a row$'
case_line "refuse, count, unique pass" '^PASS: good: one SUMMARY$'
case_line "a wrong exit status FAILs" '^FAIL: bad: exit status 0: exit status 77, want 0$'
case_line "a missing line FAILs" '^FAIL: bad: missing line: no line matching /\^PASS: pebs:\[ \]/$'
case_line "a refused line FAILs" '^FAIL: bad: refused line: unexpected line: SKIP: pebs: '
case_line "a wrong count FAILs" '^FAIL: bad: wrong count: 2 lines match /.*/, want 1$'
case_line "a duplicate FAILs" '^FAIL: bad: duplicate: 2 times: INFO: twice$'
n=$(grep -cE '^(PASS|FAIL): ' "$T/out")
if [ "$rc" = 1 ] && [ "$n" = 11 ]; then
	echo "PASS: boots-cfg: exit 1 after a FAIL, one line per case ($n)"
else
	echo "FAIL: boots-cfg: exit $rc, $n case lines, want 1 and 11"
fi

# Malformed files: one ERROR line naming the file's line, exit 2, no boot.
bad_cfg() { # name want-regex cfg-text
	printf '%s\n' "$3" >"$T/bad.cfg"
	QEMU=false QEMU_NOOP_S=5 $PY tests/qemu/boots.py --cfg "$T/bad.cfg" >"$T/out" 2>&1
	local rc=$? n
	n=$(wc -l <"$T/out")
	if [ "$rc" = 2 ] && [ "$n" = 1 ] && grep -qE -- "$2" "$T/out" && grep -q 'accepted: ' "$T/out"; then
		echo "PASS: boots-cfg: $1"
	else
		echo "FAIL: boots-cfg: $1: exit $rc, $n lines: $(head -2 "$T/out" | tr '\n' '|')"
	fi
}
bad_cfg "unknown key" "^ERROR: boots.py: .*bad.cfg line 2: unknown key 'expct'" \
	$'[a]\nexpct = x | y\nexpect_status = 0'
bad_cfg "no expect_status" "^ERROR: boots.py: .*bad.cfg line 1: \\[a\\] has no expect_status" \
	$'[a]\nexpect = x | y'
bad_cfg "no label" "^ERROR: boots.py: .*bad.cfg line 2: expect: '\\^x'" \
	$'[a]\nexpect = ^x\nexpect_status = 0'
bad_cfg "bad regex" "^ERROR: boots.py: .*bad.cfg line 2: refuse: bad regex /\\(/" \
	$'[a]\nrefuse = x | (\nexpect_status = 0'
bad_cfg "trailing space" "^ERROR: boots.py: .*bad.cfg line 2: expect ends in white space" \
	$'[a]\nexpect = x | y \nexpect_status = 0'
bad_cfg "a row twice" "^ERROR: boots.py: .*bad.cfg line 3: row \\[a\\] a second time" \
	$'[a]\nexpect_status = 0\n[a]'
