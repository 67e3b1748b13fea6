#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-chase.sh - pointer-chase latency on this host: ns per dependent load
# at each working-set size, 4 KiB to 1 GiB when the host has the memory
# (MemAvailable >= 2 GiB; else 256 MiB, and it says so; BENCH_CHASE_MAX to change),
# with the same kernel code the UEFI app samples (build/host/pebs-kernels,
# lat_mem_rd-style output: "<MiB> <ns per load>").  A benchmark, not a
# timed test: it prints numbers and fails only if the tool does.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
tool=$BUILD/host/pebs-kernels
# 1 GiB of chain plus room for the rest of the machine; /proc/meminfo in KiB.
avail_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)
if [ -n "${BENCH_CHASE_MAX:-}" ]; then
	max=$BENCH_CHASE_MAX
	why="BENCH_CHASE_MAX"
elif [ -n "$avail_kib" ] && [ "$avail_kib" -ge $((2 * 1024 * 1024)) ]; then
	max=1G
	why="MemAvailable $((avail_kib / 1024)) MiB"
else
	max=256M
	why="MemAvailable ${avail_kib:-unknown} KiB < 2 GiB: the 1 GiB point is left out"
fi

if [ ! -x "$tool" ]; then
	echo "bench-chase: $tool not built (make BUILD=$BUILD host)" >&2
	exit 1
fi
echo "# bench-chase: pointer chase, 64-byte slots, random cyclic order (Sattolo), 1M loads per size"
echo "# $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
echo "# sweep up to $max ($why)"
echo "# size_MiB ns_per_load"
exec "$tool" chase --max "$max"
