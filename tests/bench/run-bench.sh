#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run-bench.sh - what `make bench` runs: every tests/bench/bench-*.sh in turn
# (decoder throughput, pointer-chase latency, ...).  Benchmarks are not timed
# tests: each prints its measurements against its targets; this script exits
# non-zero if any benchmark did (a target missed or a run failed).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
export BUILD
rc=0
for b in tests/bench/bench-*.sh; do
	[ -x "$b" ] || continue
	echo "== $b"
	"$b" || { echo "bench $b: exit $?"; rc=1; }
done
exit $rc
