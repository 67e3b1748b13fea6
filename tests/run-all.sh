#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/run-all.sh - runs every test of `make check` and ends with the line
#   N passed, N failed
# which CI reads; when something skipped, the line before it says
#   N skipped (each SKIP line above names its test and why)
#
# What runs, in order:
#   1. each cmocka program in build/host/tests and build/san/tests (TAP output);
#   2. each executable tests/host/check-*.sh (host tools: decoder CLI, fuzzing,
#      kernels), then each tests/qemu/test-*.sh (boots under QEMU/OVMF);
#   3. each row of tests/qemu/boots.cfg (one boot, its console checked) by
#      tests/qemu/boots.py, as the test tests/qemu/boots.cfg:ROW.
# A script reports with one line per case: "PASS: name", "FAIL: name: why" or
# "SKIP: name: why".  A program or script that exits non-zero without
# reporting a failure counts as one failure, so a crash is never a pass.
#
# Before the first QEMU test, one no-op boot is timed (tests/qemu/budget.sh):
# every boot's time limit is a factor of it, so the limits follow this
# machine and its load ("INFO: no-op boot: N s" in the output).
#
# Environment: BUILD (default build), TESTS (a grep -E pattern to run a
# subset), QEMU_TIMEOUT (seconds per boot, instead of the measured limits),
# QEMU_NOOP_S (the no-op boot's seconds, instead of measuring it).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
filter=${TESTS:-.}
logdir=$BUILD/test-logs
mkdir -p "$logdir"

passed=0 failed=0 skipped=0
failures=()

count_tap() { # name log rc
	local name=$1 log=$2 rc=$3 p f s
	p=$(grep -cE '^ok [0-9]+' "$log" | tr -d ' ')
	s=$(grep -cE '^ok [0-9]+ .*# SKIP' "$log" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
		f=1 # a test program that ran nothing is a failure
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -eq 0 ] || failures+=("$name (see $log)")
	printf '%-48s %3d passed %3d failed %3d skipped\n' "$name" "$p" "$f" "$s"
}

count_lines() { # name log rc
	local name=$1 log=$2 rc=$3 p f s
	p=$(grep -cE '^PASS: ' "$log" | tr -d ' ')
	f=$(grep -cE '^FAIL: ' "$log" | tr -d ' ')
	s=$(grep -cE '^SKIP: ' "$log" | tr -d ' ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "FAIL: $name: exited with status $rc" >>"$log"
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	grep -E '^(FAIL|SKIP): ' "$log" | sed 's/^/    /'
	[ "$f" -eq 0 ] || failures+=("$name (see $log)")
	printf '%-48s %3d passed %3d failed %3d skipped\n' "$name" "$p" "$f" "$s"
}

for t in "$BUILD"/host/tests/test_* "$BUILD"/san/tests/test_*; do
	[ -x "$t" ] || continue
	case "$t" in *.d) continue ;; esac
	# A program left behind by a renamed or removed test is not run.
	[ -f "tests/unit/$(basename "$t").c" ] || continue
	name=${t#"$BUILD"/}
	echo "$name" | grep -qE "$filter" || continue
	log=$logdir/$(echo "$name" | tr '/' '_').log
	CMOCKA_MESSAGE_OUTPUT=TAP ASAN_OPTIONS=detect_leaks=1 timeout 600 "$t" >"$log" 2>&1
	count_tap "$name" "$log" $?
done

# run_script NAME LOG COMMAND...: one host check, QEMU script or boots.cfg row.
run_script() {
	local name=$1 log=$2 limit rc
	shift 2
	case $name in tests/qemu/*)
		if [ -z "${QEMU_NOOP_S:-}" ] && [ -z "${QEMU_TIMEOUT:-}" ]; then
			. tests/qemu/budget.sh
			BUILD=$BUILD qemu_noop_init
		fi ;;
	esac
	# A backstop for a script that hangs outside a boot (each boot has its
	# own limit): 20 minutes for a host check; for a QEMU script 600 no-op
	# boots (test-mainjob.sh's 28 boots at their limits are 542), or 30
	# boots at QEMU_TIMEOUT.
	limit=1200
	case $name in tests/qemu/*)
		if [ -n "${QEMU_TIMEOUT:-}" ]; then
			limit=$((30 * QEMU_TIMEOUT))
		elif [ -n "${QEMU_NOOP_S:-}" ]; then
			limit=$((600 * QEMU_NOOP_S))
		fi ;;
	esac
	BUILD=$BUILD timeout "$limit" "$@" >"$log" 2>&1
	rc=$?
	[ "$rc" -ne 124 ] || echo "FAIL: $name: killed after its $limit s" >>"$log"
	count_lines "$name" "$log" "$rc"
}

for t in tests/host/check-*.sh tests/qemu/test-*.sh; do
	[ -x "$t" ] || continue
	echo "$t" | grep -qE "$filter" || continue
	run_script "$t" "$logdir/$(basename "$t" .sh).log" "$t"
done

# The one-boot QEMU tests: each row of tests/qemu/boots.cfg is a test of
# its own, named tests/qemu/boots.cfg:ROW, its log boots-ROW.log.
if ! rows=$(/usr/bin/python3 tests/qemu/boots.py --list 2>&1); then
	if echo tests/qemu/boots.cfg | grep -qE "$filter"; then
		echo "$rows" >"$logdir/boots.log"
		count_lines tests/qemu/boots.cfg "$logdir/boots.log" 2
	fi
	rows=
fi
for row in $rows; do
	t=tests/qemu/boots.cfg:$row
	echo "$t" | grep -qE "$filter" || continue
	run_script "$t" "$logdir/boots-$row.log" /usr/bin/python3 tests/qemu/boots.py "$row"
done

if [ $((passed + failed + skipped)) -eq 0 ]; then
	failed=1
	failures+=("no test ran (TESTS='$filter')")
fi
if [ ${#failures[@]} -gt 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failures[@]}"
fi
# The last line is always "N passed, N failed", the form CI reads; skips are
# said on the line before, never folded into it.
if [ "$skipped" -gt 0 ]; then
	echo "$skipped skipped (each SKIP line above names its test and why)"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
