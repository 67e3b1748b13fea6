#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-qemu.sh - the default QEMU job (./run-qemu.sh, the default config)
# against a no-op UEFI application booted the same way
# (./run-qemu.sh --image build/bench/noop-esp.img; tests/bench/noop.c), in
# turn, BENCH_QEMU_ROUNDS rounds (default 5).  Figure: the medians of the
# wall times and what the job adds to the no-op boot.  KVM when /dev/kvm is
# usable (BENCH_QEMU_ARGS to pass others, e.g. --kvm), else TCG, as said.
# Target: the job adds <= 1 s.
. "$(dirname "$0")/lib.sh"
R=${BENCH_QEMU_ROUNDS:-5}
args=${BENCH_QEMU_ARGS:-}
noop=$BUILD/bench/noop-esp.img
[ -f "$noop" ] || { echo "bench-qemu: $noop missing (make BUILD=$BUILD bench)"; exit 1; }
rc=0 j=() n=()
echo "bench qemu: medians of $R interleaved boots; run-qemu.sh ${args:-(TCG, no arguments)}"
for _ in $(seq "$R"); do
	# shellcheck disable=SC2086 # args are words
	wall job ./run-qemu.sh $args || { echo "  default job: run-qemu.sh exit $?"; rc=1; }
	# shellcheck disable=SC2086
	wall noop ./run-qemu.sh $args --image "$noop" || { echo "  no-op app: run-qemu.sh exit $?"; rc=1; }
	# shellcheck disable=SC2154 # set by wall
	j+=("$(awk -v t="$ns_job" 'BEGIN { printf "%.2f", t / 1e9 }')")
	n+=("$(awk -v t="$ns_noop" 'BEGIN { printf "%.2f", t / 1e9 }')")
done
mj=$(median "${j[@]}") mn=$(median "${n[@]}")
add=$(awk -v a="$mj" -v b="$mn" 'BEGIN { printf "%.2f", a - b }')
echo "  default job ${mj} s (boots: ${j[*]}), no-op app ${mn} s (${n[*]}): the job adds $add s"
target "default job over the no-op boot" "$add" "<=" 1 " s"
exit $rc
