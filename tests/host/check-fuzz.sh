#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-fuzz.sh - runs the libFuzzer targets (tests/fuzz/, docs/FUZZING.md):
# decode (the record decoder), config (PEBSPROBE.CFG), loadopts (UTF-16
# LoadOptions) and dump (pebs-decode's header and framing).  For each: every
# input of its corpus tests/fuzz/corpus/NAME/ once, so that a crash the
# corpus knows fails here; then fuzzing for FUZZ_SECONDS (default 5) from
# that corpus, new inputs kept under $BUILD/fuzz/NAME/.  `make fuzz
# FUZZ_SECONDS=600` runs it longer; FUZZ_ONLY="config dump" picks targets.
# One PASS/FAIL line per case.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
SECS=${FUZZ_SECONDS:-5}
ONLY=${FUZZ_ONLY:-decode config loadopts dump}
# Never loops forever: an input that runs past -timeout seconds is a failure.
OPTS=(-timeout=5 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1)

# The first line that says what went wrong, from a libFuzzer log.
why() {
	grep -m1 -E 'ERROR|runtime error|contract broken|deadly|timeout|leak' "$1"
}

for t in $ONLY; do
	F=$BUILD/fuzz/fuzz_$t seeds=tests/fuzz/corpus/$t dir=$BUILD/fuzz/$t
	if [ ! -x "$F" ] || [ ! -d "$seeds" ]; then
		echo "FAIL: fuzz-$t: $F or $seeds missing (make BUILD=$BUILD fuzz-targets; needs clang)"
		continue
	fi
	mkdir -p "$dir/corpus"
	n=$(find "$seeds" -type f | wc -l)

	log=$dir/seeds.log
	if "$F" "${OPTS[@]}" -runs=0 -artifact_prefix="$dir/" "$seeds" >"$log" 2>&1; then
		echo "PASS: fuzz-$t-corpus: $n inputs of $seeds, no crash, hang or broken contract"
	else
		echo "FAIL: fuzz-$t-corpus: $(why "$log") (see $log; input in $dir/)"
	fi

	log=$dir/fuzz.log
	"$F" "${OPTS[@]}" -max_total_time="$SECS" -artifact_prefix="$dir/" \
		"$dir/corpus" "$seeds" >"$log" 2>&1
	rc=$?
	execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
	cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+')
	if [ $rc -eq 0 ] && [ -n "$execs" ] && [ "$execs" -gt 0 ]; then
		echo "PASS: fuzz-$t: ${SECS}s, $execs inputs, ${cov:-cov: ?}, no crash, hang or broken contract"
	else
		echo "FAIL: fuzz-$t: exit $rc: $(why "$log") (see $log; crash input in $dir/)"
	fi
done
