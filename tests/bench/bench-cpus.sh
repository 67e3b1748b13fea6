#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-cpus.sh - what one more CPU costs the default job under QEMU:
# ./run-qemu.sh --smp 1 against --smp BENCH_CPUS_SMP (default 2), in turn,
# BENCH_CPUS_ROUNDS rounds (default 1: a default job under TCG takes
# minutes).  KVM when BENCH_QEMU_ARGS says so (e.g. --kvm), else TCG.
#
# Figures, each per extra CPU (the difference of the two boots over the
# extra CPUs): seconds (whole run-qemu.sh wall time), ESP bytes (every file
# the run leaves beside the binary: dumps, results.json, the log), console
# bytes (the serial transcript from the banner on).  docs/PERFORMANCE.md
# turns them into a projection for 576 CPUs.  Within 8 CPUs dump=on writes
# every CPU's dumps (docs/OUTPUT.md "The ESP budget"): the ESP figure is the
# full per-CPU cost, which a larger machine pays for one CPU per core type.
. "$(dirname "$0")/lib.sh"
R=${BENCH_CPUS_ROUNDS:-1}
N=${BENCH_CPUS_SMP:-2}
args=${BENCH_QEMU_ARGS:-}
rc=0 ds=() de=() dd=() dc=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run SMP: one default job; sets secs, esp (bytes of files in \EFI\BOOT\ but
# the binary and the config; dumps: the *.pebs among them) and con (serial
# bytes from the banner on).
run() {
	local t0 st
	t0=$EPOCHREALTIME
	# shellcheck disable=SC2086 # args are words
	./run-qemu.sh $args --smp "$1" --timeout 3000 --log "$tmp/serial" --esp "$tmp/esp.img" \
		>/dev/null 2>&1
	st=$?
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	rm -rf "$tmp/out" && mkdir "$tmp/out"
	mcopy -s -n -i "$tmp/esp.img" ::/EFI/BOOT/ "$tmp/out/" 2>/dev/null
	esp=$(find "$tmp/out" -type f ! -iname 'BOOTX64.EFI' ! -iname 'PEBSPROBE.CFG' \
		-printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
	dumps=$(find "$tmp/out" -type f -iname '*.pebs' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
	con=$(sed -n '/^INFO: pebsprobe /,$p' "$tmp/serial" | wc -c)
	return $st
}

echo "bench cpus: default job, --smp 1 against --smp $N, $R round(s);" \
	"run-qemu.sh ${args:-(TCG)}; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$R"); do
	run 1 || { echo "  --smp 1: run-qemu.sh exit $?"; rc=1; }
	s1=$secs e1=$esp d1=$dumps c1=$con
	run "$N" || { echo "  --smp $N: run-qemu.sh exit $?"; rc=1; }
	echo "  --smp 1: $s1 s, ESP $e1 bytes ($d1 in dumps), console $c1 bytes;" \
		"--smp $N: $secs s, ESP $esp bytes ($dumps in dumps), console $con bytes"
	ds+=("$(awk -v a="$s1" -v b="$secs" -v n="$N" 'BEGIN { printf "%.1f", (b - a) / (n - 1) }')")
	de+=($(((esp - e1) / (N - 1))))
	dd+=($(((dumps - d1) / (N - 1))))
	dc+=($(((con - c1) / (N - 1))))
done
echo "  per extra CPU: $(median "${ds[@]}") s, ESP $(median "${de[@]}") bytes" \
	"($(median "${dd[@]}") in dumps), console $(median "${dc[@]}") bytes" \
	"(medians of ${ds[*]} s; ${de[*]}; ${dd[*]}; ${dc[*]})"
exit $rc
