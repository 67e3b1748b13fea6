#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-chase.sh - pointer-chase latency on this host: ns per dependent load
# at each working-set size, 4 KiB to 256 MiB (BENCH_CHASE_MAX to change),
# with the same kernel code the UEFI app samples (build/host/pebs-kernels,
# lat_mem_rd-style output: "<MiB> <ns per load>").  A benchmark, not a
# timed test: it prints numbers and fails only if the tool does.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
tool=$BUILD/host/pebs-kernels
max=${BENCH_CHASE_MAX:-256M}

if [ ! -x "$tool" ]; then
	echo "bench-chase: $tool not built (make BUILD=$BUILD host)" >&2
	exit 1
fi
echo "# bench-chase: pointer chase, 64-byte slots, random cyclic order (Sattolo), 1M loads per size"
echo "# $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
echo "# size_MiB ns_per_load"
exec "$tool" chase --max "$max"
