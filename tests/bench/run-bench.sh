#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run-bench.sh - what `make bench` runs: every tests/bench/bench-*.sh in turn
# (decoder against cat, drain cost per record, chase against a plain chase,
# the QEMU job against a no-op boot).  Benchmarks are not timed tests: each
# prints its figures and "target ...: reached|MISSED" lines; this script
# ends with the count of each and exits non-zero only if a benchmark's run
# failed (a missed target is a figure, not a failure).
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
export BUILD
rc=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for b in tests/bench/bench-*.sh; do
	[ -x "$b" ] || continue
	echo "== $b"
	"$b" | tee -a "$log"
	st=${PIPESTATUS[0]}
	[ "$st" = 0 ] || { echo "bench $b: a run failed (exit $st)"; rc=1; }
done
echo "targets: $(grep -c ': reached (' "$log") reached, $(grep -c ': MISSED (' "$log") missed"
exit $rc
