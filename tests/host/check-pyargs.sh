#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-pyargs.sh - the Python scripts parse their command lines with
# argparse alone (sys.argv is read only by tools/results/cli.py main, which
# hands it to argparse), and the test scripts read the app's console verdict
# lines with one reader, tests/caselines.py console_verdicts (its
# VERDICT_LINE is the one "(PASS|FAIL|SKIP): " pattern).  Each check is
# first shown to fail on a planted file.
set -u
cd "$(dirname "$0")/../.." || exit 1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-pyargs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# files that break a rule: argv_readers FILE..., verdict_readers FILE...
argv_readers() { grep -l 'sys\.argv' "$@" | grep -vx 'tools/results/cli.py'; }
verdict_readers() {
	grep -lE -e '\(PASS\|FAIL\|SKIP\): ' -e '^def console_verdicts' "$@" |
		grep -vx 'tests/caselines.py'
}

printf 'import sys\nBUILD = sys.argv[1]\n' >"$tmp/argv.py"
printf 'import re\nV = re.compile(r"^(PASS|FAIL|SKIP): (\\S+)")\n' >"$tmp/regex.py"
if [ -n "$(argv_readers "$tmp/argv.py")" ] && [ -n "$(verdict_readers "$tmp/regex.py")" ]; then
	echo "PASS: pyargs: the checks find a planted sys.argv reader and verdict regex"
else
	echo "FAIL: pyargs: a planted sys.argv reader or verdict regex went unseen"
fi

mapfile -t files < <(git ls-files -co --exclude-standard '*.py')
bad=$(argv_readers "${files[@]}")
if [ -z "$bad" ]; then
	echo "PASS: pyargs: sys.argv read by argparse alone (${#files[@]} .py files)"
else
	echo "FAIL: pyargs: sys.argv read by hand in: $(echo $bad)"
fi
bad=$(verdict_readers "${files[@]}")
if [ -z "$bad" ]; then
	echo "PASS: pyargs: console verdict lines read by tests/caselines.py alone"
else
	echo "FAIL: pyargs: console verdict lines read by their own pattern in: $(echo $bad)"
fi
