#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-qemu.sh - the default QEMU job (./run-qemu.sh, the default config)
# against a no-op UEFI application booted the same way
# (./run-qemu.sh --image build/bench/noop-esp.img; tests/bench/noop.c), in
# turn, BENCH_QEMU_ROUNDS rounds (default 5).  KVM when BENCH_QEMU_ARGS says
# so (e.g. --kvm), else TCG, as said.
#
# What the job adds is timed from the firmware's own line "BdsDxe: starting
# Boot..." (the moment OVMF starts the application, read off the serial
# transcript as it comes) to the end of run-qemu.sh: the app's loading,
# its run, its files and QEMU's exit.  The firmware's boot before that line
# is the same for both and takes 5-11 s under TCG, swinging by seconds with
# the machine's load, so whole wall times would bury a 1 s figure in it;
# they are printed too.  Figures: medians of each, and the job's median
# span less the no-op's.  Target: the job adds <= 1 s.
#
# BENCH_QEMU_BEFORE=IMAGE (an ESP image of an earlier build, e.g. a copy of
# its build/esp.img) boots that too in each round, in turn with the other
# two, so a change is measured against its baseline under the same load:
# its median span and what it adds, and the job's span as a ratio of its.
. "$(dirname "$0")/lib.sh"
R=${BENCH_QEMU_ROUNDS:-5}
args=${BENCH_QEMU_ARGS:-}
noop=$BUILD/bench/noop-esp.img
before=${BENCH_QEMU_BEFORE:-}
[ -f "$noop" ] || { echo "bench-qemu: $noop missing (make BUILD=$BUILD bench)"; exit 1; }
[ -z "$before" ] || [ -f "$before" ] || { echo "bench-qemu: BENCH_QEMU_BEFORE=$before: no such image"; exit 1; }
rc=0 jw=() nw=() js=() ns=() bw=() bs=()
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# boot NAME CMD...: runs CMD; sets wall_NAME and span_NAME (seconds, 2 decimals) from
# the start and from the firmware's "starting Boot" line to the end; returns CMD's status.
boot() {
	local name=$1 t0 ts='' st line
	shift
	t0=$EPOCHREALTIME
	"$@" 2>&1 | while IFS= read -r line; do
		[[ -z $ts && $line == *"BdsDxe: starting Boot"* ]] && ts=$EPOCHREALTIME && echo "$ts" >"$tmp"
	done
	st=${PIPESTATUS[0]}
	ts=$(cat "$tmp")
	: >"$tmp"
	printf -v "wall_$name" '%s' "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')"
	if [ -z "$ts" ]; then
		echo "  $name: no \"BdsDxe: starting Boot\" line on the serial console: no span"
		printf -v "span_$name" '%s' ''
	else
		printf -v "span_$name" '%s' "$(awk -v a="$ts" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')"
	fi
	return "$st"
}

echo "bench qemu: medians of $R interleaved boots; run-qemu.sh ${args:-(TCG, no arguments)};" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$R"); do
	# shellcheck disable=SC2086 # args are words
	boot job ./run-qemu.sh $args || { echo "  default job: run-qemu.sh exit $?"; rc=1; }
	# shellcheck disable=SC2086
	boot noop ./run-qemu.sh $args --image "$noop" || { echo "  no-op app: run-qemu.sh exit $?"; rc=1; }
	# shellcheck disable=SC2154 # set by boot
	jw+=("$wall_job") nw+=("$wall_noop")
	# shellcheck disable=SC2154
	[ -n "$span_job" ] && [ -n "$span_noop" ] && js+=("$span_job") ns+=("$span_noop")
	if [ -n "$before" ]; then
		# shellcheck disable=SC2086
		boot before ./run-qemu.sh $args --image "$before" || { echo "  before: run-qemu.sh exit $?"; rc=1; }
		# shellcheck disable=SC2154
		bw+=("$wall_before")
		# shellcheck disable=SC2154
		[ -n "$span_before" ] && bs+=("$span_before")
	fi
done
echo "  whole boots: default job $(median "${jw[@]}") s (${jw[*]}), no-op app $(median "${nw[@]}") s (${nw[*]})"
if [ "${#js[@]}" = 0 ]; then
	echo "  no boot showed the firmware's start line: no figure"
	exit 1
fi
mj=$(median "${js[@]}") mn=$(median "${ns[@]}")
add=$(awk -v a="$mj" -v b="$mn" 'BEGIN { printf "%.2f", a - b }')
echo "  from the firmware starting the app to the end: default job ${mj} s (${js[*]})," \
	"no-op app ${mn} s (${ns[*]}): the job adds $add s"
if [ -n "$before" ] && [ "${#bs[@]}" != 0 ]; then
	mb=$(median "${bs[@]}")
	echo "  before ($before): whole boots $(median "${bw[@]}") s (${bw[*]}), from the firmware" \
		"starting the app ${mb} s (${bs[*]}): it added" \
		"$(awk -v a="$mb" -v b="$mn" 'BEGIN { printf "%.2f", a - b }') s; the job's span is" \
		"$(ratio "$mj" "$mb") of its"
fi
target "default job over the no-op boot" "$add" "<=" 1 " s"
exit $rc
