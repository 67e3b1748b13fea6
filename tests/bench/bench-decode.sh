#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-decode.sh - pebs-decode against cat, on dumps of 200-byte format-3
# records (18 GPRs) and of 64-byte adaptive records, of 100 MB and 1 GB
# (tests/bench/gen-dump.py; written to BENCH_TMP, default /tmp, and
# deleted after; each size is skipped, and says so, when the disk lacks the
# room).  Each round runs, in turn, on a warm page cache:
#   cat FILE > /dev/null
#   pebs-decode --output summary FILE > /dev/null
#   pebs-decode --output json FILE > /dev/null
# Figures (medians of BENCH_ROUNDS rounds, default 5): summary speed as a
# fraction of cat's (t_cat / t_summary of the same round), JSON records/s;
# and the peak RSS of the summary and JSON decodes of the 1 GB dumps
# (/usr/bin/time -f %M).
# Targets: summary >= 0.5 of cat, JSON >= 5,000,000 records/s, RSS <= 64 MB.
. "$(dirname "$0")/lib.sh"
D=$BUILD/host/pebs-decode
[ -x "$D" ] || { echo "bench-decode: $D missing (make BUILD=$BUILD host)"; exit 1; }
TMPD=$(mktemp -d "${BENCH_TMP:-/tmp}/pebs-bench.XXXXXX") || exit 1
trap 'rm -rf "$TMPD"' EXIT
rc=0

echo "bench decode: medians of $ROUNDS interleaved rounds; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for size in 100000000 1000000000; do
	for kind in fmt3 adaptive; do
		f=$TMPD/$kind.dump
		free_kb=$(df -Pk "$TMPD" | awk 'NR == 2 { print $4 }')
		if [ "$free_kb" -lt $((size / 1024 + 1048576)) ]; then
			echo "  $kind $((size / 1000000)) MB: SKIPPED, $((free_kb / 1024)) MiB free in $TMPD"
			continue
		fi
		n=$(python3 tests/bench/gen-dump.py "$kind" "$size" "$f") || { rc=1; continue; }
		cat "$f" >/dev/null # warm the page cache
		r_sum=() r_json=()
		for _ in $(seq "$ROUNDS"); do
			wall cat cat "$f" || rc=1
			wall sum "$D" --output summary "$f" || rc=1
			wall json "$D" --output json "$f" || rc=1
			# shellcheck disable=SC2154 # set by wall
			r_sum+=("$(ratio "$ns_cat" "$ns_sum")")
			r_json+=("$(awk -v n="$n" -v t="$ns_json" 'BEGIN { printf "%.0f", n / (t / 1e9) }')")
		done
		s=$(median "${r_sum[@]}")
		j=$(median "${r_json[@]}")
		echo "  $kind $((size / 1000000)) MB, $n records: summary $s of cat (rounds: ${r_sum[*]}), json $j records/s"
		target "summary/cat ($kind $((size / 1000000)) MB)" "$s" ">=" 0.5
		target "json records/s ($kind $((size / 1000000)) MB)" "$j" ">=" 5000000
		if [ "$size" = 1000000000 ]; then
			for out in summary json; do
				kb=$( { /usr/bin/time -f '%M' "$D" --output "$out" "$f" >/dev/null; } 2>&1 | tail -1)
				echo "  $kind 1 GB --output $out: peak RSS $((kb / 1024)) MB"
				target "peak RSS ($kind 1 GB, $out)" "$((kb / 1024))" "<=" 64 " MB"
			done
		fi
		rm -f "$f"
	done
done
exit $rc
