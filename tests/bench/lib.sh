# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# lib.sh - shared by tests/bench/bench-*.sh (sourced).  Benchmarks measure
# side by side: each round runs every command of a comparison once, in turn,
# so a slow moment of the machine hits all of them; a figure is the median
# over the rounds of the per-round figure.  No benchmark fails on a missed
# target: it prints "target ...: reached" or "target ...: MISSED" lines,
# which run-bench.sh counts; a benchmark exits non-zero only when a run failed.
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
ROUNDS=${BENCH_ROUNDS:-5}

# wall NAME CMD... : runs CMD (stdout to /dev/null), sets the global
# ns_NAME to its wall time in ns; returns CMD's status.
wall() {
	local name=$1 t0 t1 rc
	shift
	t0=$(date +%s%N)
	"$@" >/dev/null
	rc=$?
	t1=$(date +%s%N)
	printf -v "ns_$name" '%s' $((t1 - t0))
	return $rc
}

# median V...: the median of the numbers (the lower middle for an even count).
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# target WHAT VALUE OP LIMIT UNIT: one line, "reached" or "MISSED".
target() {
	local what=$1 v=$2 op=$3 lim=$4 unit=${5:-} ok
	ok=$(awk -v v="$v" -v l="$lim" -v op="$op" 'BEGIN { print (op == ">=" ? v >= l : v <= l) }')
	if [ "$ok" = 1 ]; then
		echo "  target $what $op $lim$unit: reached ($v$unit)"
	else
		echo "  target $what $op $lim$unit: MISSED ($v$unit)"
	fi
}

# ratio A B: A / B with 3 decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }
