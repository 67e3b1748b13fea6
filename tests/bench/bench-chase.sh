#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-chase.sh - the kernels' pointer chase (kernel_run of "chase", the
# code the UEFI app samples) against a plain dependent-load chase written in
# the benchmark, at every size from 16 KiB to 256 MiB (BENCH_CHASE_MAX to
# change the end), both run by tests/bench/chase_pair.c over the SAME buffer:
# the two chains share every 64-byte slot, so neither gets other pages,
# cache sets or TLB reach.  In one run the two take turns pass by pass,
# BENCH_PASSES passes (default 6) of 1M loads each, timed in the thread's
# CPU time; the best pass of each counts, as lmbench's lat_mem_rd takes the
# best of its repetitions.  BENCH_CHASE_ROUNDS runs (default 5), each with
# a newly allocated buffer and chains.  Figures per size: the medians over
# the runs of each one's ns per load and of the ratio of the same run.
# Target: the median ratio within 0.90..1.10 at every size.
. "$(dirname "$0")/lib.sh"
P=$BUILD/bench/chase-pair
PASSES=${BENCH_PASSES:-6}
CR=${BENCH_CHASE_ROUNDS:-5}
if [ ! -x "$P" ]; then
	echo "bench-chase: $P missing (make BUILD=$BUILD bench)"
	exit 1
fi
max=${BENCH_CHASE_MAX:-268435456}
sizes=()
for ((s = 16384; s <= max; s *= 2)); do sizes+=("$s"); done
rc=0 worst=1.000
echo "bench chase: ns per load, medians of $CR runs, each the best of $PASSES interleaved passes" \
	"of 1M loads over one buffer; $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq "$CR"); do
	PASSES=$PASSES "$P" "${sizes[@]}" | sed "s/^/$r /" >>"$out" || rc=1
done
echo "  size_KiB   kernels   plain   ratio   (ratio per run)"
for s in "${sizes[@]}"; do
	kib=$((s / 1024))
	mapfile -t ks < <(awk -v s="$kib" '$2 == s { print $3 }' "$out")
	mapfile -t ps < <(awk -v s="$kib" '$2 == s { print $4 }' "$out")
	mapfile -t rs < <(awk -v s="$kib" '$2 == s { printf "%.3f\n", $3 / $4 }' "$out")
	if [ "${#rs[@]}" = 0 ]; then
		echo "  $kib: no run finished"
		rc=1
		continue
	fi
	r=$(median "${rs[@]}")
	printf '  %8d %9s %7s %7s   (%s)\n' "$kib" "$(median "${ks[@]}")" "$(median "${ps[@]}")" \
		"$r" "${rs[*]}"
	worst=$(awk -v w="$worst" -v r="$r" 'BEGIN { d = r > 1 ? r - 1 : 1 - r; dw = w > 1 ? w - 1 : 1 - w; print (d > dw ? r : w) }')
done
echo "  furthest from 1: $worst"
target "|kernels/plain - 1| at every size" \
	"$(awk -v w="$worst" 'BEGIN { printf "%.3f", (w > 1 ? w - 1 : 1 - w) }')" "<=" 0.10
exit $rc
