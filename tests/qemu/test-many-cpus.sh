#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-many-cpus.sh - more CPUs than the old cap of 64, and the dispatch to
# the APs under load (lib/cpurun.c, docs/ARCHITECTURE.md "Dispatch to other
# CPUs"), under UEFI (QEMU TCG, OVMF's MP services):
#   - --smp 72 kernels=chase-l1: CPUs 0-71 each PASS (the log file's
#     per-CPU lines), one console line for the 72, the verdict table's
#     row names 0-71, exit 0; each of the 71 APs started once through MP
#     services and released once, none lost;
#   - cpus=64-71 measures those eight and no other;
#   - two images with two CPUs each booted at once (the load under which
#     OVMF's StartupThisAP event came 30 s late after chase-dram): every
#     kernel on an AP ends within 5 s ("kernel NAME: end (N ms)"), exit 0.
. "$(dirname "$0")/lib.sh"
# 72 CPUs under TCG: minutes on a loaded machine.
QEMU_TIMEOUT=${QEMU_TIMEOUT:-900}

boot many --smp 72 -- pmu=sim model=skl kernels=chase-l1
expect_rc many 0
expect_no_line "many: no FAIL" "$T/many.out" '^FAIL: '
expect_line "many: one console line for the 72" "$T/many.out" \
	'^PASS: chase-l1/load: 72 CPUs: L1 hits [0-9.]+(-[0-9.]+)?%, median [0-9]+(-[0-9]+)? cy \[sim\]$'
logfile many
missing=
for c in $(seq 0 71); do
	grep -qE "^PASS: chase-l1/load@cpu$c: .*; cpu $c \\(APIC $c, " "$T/many.log" || missing="$missing $c"
done
if [ -z "$missing" ]; then pass "many: CPUs 0-71 each PASS"; else fail "many" "no PASS on CPUs$missing"; fi
expect_line "many: table of 72 CPUs" "$T/many.out" '^INFO: per-CPU results \(72 CPUs\):'
expect_line "many: verdict row names CPUs 0-71" "$T/many.out" '^chase-l1 +0-71 +PASS'
expect_line "many: each AP started once, released once" "$T/many.out" \
	'^INFO: APs 71: started 71, released 71, lost 0$'

boot some --smp 72 -- pmu=sim model=skl kernels=chase-l1 cpus=64-71
expect_rc some 0
expect_line "cpus=64-71: 8 CPUs measured" "$T/some.out" '^INFO: per-CPU results \(8 CPUs\):'
logfile some
for c in 64 71; do
	expect_line "cpus=64-71: cpu $c measured" "$T/some.log" "^PASS: chase-l1/load@cpu$c: .*; cpu $c \\("
done
expect_no_line "cpus=64-71: cpu 63 not measured" "$T/some.log" '; cpu 63 \('
expect_no_line "cpus=64-71: cpu 0 not measured" "$T/some.log" '; cpu 0 \('

# Two at once, each with an AP; the kernels around chase-dram that stalled.
KERNELS=kernels=chase-l1,chase-dram,seq-load,page-walk,share-hitm
# The image first: two run-qemu.sh making it at once would race.
make -s BUILD="$BUILD" esp >/dev/null || fail "twins" "make esp failed"
QEMU_TIMEOUT=600 boot twin1 --smp 2 -- pmu=sim model=skl "$KERNELS" verbose=1 &
QEMU_TIMEOUT=600 boot twin2 --smp 2 -- pmu=sim model=skl "$KERNELS" verbose=1 &
wait
for n in twin1 twin2; do
	expect_rc "$n" 0
	# The kernels' end lines of CPU 1 (the lines after its "cpu 1: APIC ID" line).
	slow=$(awk '/^INFO: cpu [0-9]+: APIC ID/ { on = ($3 != "0:") }
		on && /^INFO: kernel [^ ]+: end \([0-9]+ ms\)/ {
			ms = $0; sub(/.*end \(/, "", ms); sub(/ ms.*/, "", ms)
			if (ms + 0 > 5000) print $3 " " ms " ms" }' "$T/$n.out")
	ends=$(awk '/^INFO: cpu [0-9]+: APIC ID/ { on = ($3 != "0:") }
		on && /^INFO: kernel [^ ]+: end \(/ { n++ } END { print n + 0 }' "$T/$n.out")
	if [ "$ends" -ge 5 ] && [ -z "$slow" ]; then
		pass "$n: $ends kernels on the AP, each within 5 s"
	else
		fail "$n" "$ends kernel end lines on the AP; over 5 s: ${slow:-none}"
	fi
	expect_line "$n: the AP started once" "$T/$n.out" \
		'^INFO: APs 1: started 1, released 1, lost 0$'
done
