#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-chase.sh - the kernels' pointer chase (build/host/pebs-kernels
# chase, the code the UEFI app samples) against a plain dependent-load chase
# written in the benchmark (tests/bench/plain_chase.c), at every size from
# 16 KiB to 256 MiB (BENCH_CHASE_MAX to change the end).  At each size the
# two run in turn BENCH_CHASE_ROUNDS times (default 3), each run timing
# BENCH_PASSES passes (default 5) of 1M loads and printing its best; the
# best of all a program's runs at that size counts, as lmbench's lat_mem_rd
# takes the best of its repetitions (each run builds its own random chain in
# newly allocated memory).  Figure: ns per load of each and their ratio.
# Target: the ratio within 0.90..1.10 at every size.
. "$(dirname "$0")/lib.sh"
K=$BUILD/host/pebs-kernels P=$BUILD/bench/plain-chase
PASSES=${BENCH_PASSES:-5}
CR=${BENCH_CHASE_ROUNDS:-3}
if [ ! -x "$K" ] || [ ! -x "$P" ]; then
	echo "bench-chase: $K or $P missing (make BUILD=$BUILD bench)"
	exit 1
fi
max=${BENCH_CHASE_MAX:-268435456}
rc=0 worst=1.000
echo "bench chase: ns per load, best of $CR interleaved runs of $PASSES passes of 1M loads;" \
	"$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  size_KiB   kernels   plain   ratio"
for ((s = 16384; s <= max; s *= 2)); do
	ks=() ps=()
	for _ in $(seq "$CR"); do
		v=$("$K" chase --size "$s" --passes "$PASSES" 2>/dev/null | awk '{ print $2 }') || rc=1
		ks+=("$v")
		v=$(PASSES=$PASSES "$P" "$s" | awk '{ print $2 }') || rc=1
		ps+=("$v")
	done
	k=$(printf '%s\n' "${ks[@]}" | sort -g | head -1)
	p=$(printf '%s\n' "${ps[@]}" | sort -g | head -1)
	r=$(ratio "$k" "$p")
	printf '  %8d %9s %7s %7s\n' $((s / 1024)) "$k" "$p" "$r"
	worst=$(awk -v w="$worst" -v r="$r" 'BEGIN { d = r > 1 ? r - 1 : 1 - r; dw = w > 1 ? w - 1 : 1 - w; print (d > dw ? r : w) }')
done
echo "  furthest from 1: $worst"
target "|kernels/plain - 1| at every size" \
	"$(awk -v w="$worst" 'BEGIN { printf "%.3f", (w > 1 ? w - 1 : 1 - w) }')" "<=" 0.10
exit $rc
