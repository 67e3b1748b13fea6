#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-percpu.sh - every CPU measured on itself under UEFI (QEMU TCG,
# EFI_MP_SERVICES_PROTOCOL StartupThisAP), on the simulated Panther Lake:
#   - --smp 4 model=ptl: the kernels run on all four CPUs (CPUs 0-1 Cougar
#     Cove P-cores, 2-3 Darkmont E-cores), every verdict line names its CPU,
#     share-hitm samples on each with its HITM judged, no FAIL, exit 0, and
#     the per-CPU table has a row per CPU with P and E;
#   - sim-fault=cpu3:no-records: exit 1, a FAIL naming CPU 3 (and a
#     cpu-compare FAIL naming it), no FAIL line naming another CPU;
#   - cpus=1,3 measures those two only; a CPU that does not exist is one
#     ERROR line and exit 2.
. "$(dirname "$0")/lib.sh"
# Four CPUs measured one after another under TCG: minutes on a loaded machine.
QEMU_TIMEOUT=${QEMU_TIMEOUT:-400}

KERNELS=kernels=chase-l1,seq-load,stream-store,share-hitm

boot ptl --smp 4 -- pmu=sim model=ptl "$KERNELS"
expect_rc ptl 0
expect_no_line "ptl: no FAIL" "$T/ptl.out" '^FAIL: '
for c in 0 1 2 3; do
	# uarch: the pmu's row for Panther Lake's cores (Cougar Cove: the Lion Cove row)
	if [ "$c" -lt 2 ]; then t=P-core u="Lion Cove"; else t=E-core u=Darkmont; fi
	expect_line "ptl: cpu $c sampled ($t)" "$T/ptl.out" \
		"^PASS: chase-l1/load: .*; cpu $c \\(APIC $c, $t\\) \\[sim\\]$"
	expect_line "ptl: cpu $c samples the shared line, HITM judged" "$T/ptl.out" \
		"^PASS: share-hitm/load: HITM [0-9.]+% >= 10.0% .*; cpu $c \\(APIC $c, $t\\) \\[sim\\]$"
	expect_line "ptl: table row of cpu $c" "$T/ptl.out" \
		"^INFO: +$c +$c $t +$u +[1-9][0-9]* +0 +[0-9]+ \\[sim\\]$"
done
expect_line "ptl: table header" "$T/ptl.out" '^INFO: per-CPU results \(4 CPUs\):'
wide=$(awk 'length($0) > 80' "$T/ptl.out" | grep -E '^INFO: +([0-9]|CPU) ' | head -1)
if [ -z "$wide" ]; then pass "ptl: table within 80 columns"; else fail "ptl" "table line over 80 columns: $wide"; fi

boot fault --smp 4 -- pmu=sim model=ptl "$KERNELS" sim-fault=cpu3:no-records
expect_rc fault 1
expect_line "fault: a FAIL names cpu 3" "$T/fault.out" '^FAIL: chase-l1/load: .*; cpu 3 \(APIC 3, E-core\) \[sim\]$'
expect_line "fault: cpu-compare names cpu 3" "$T/fault.out" '^FAIL: cpu-compare: cpu 3 \(APIC 3, E-core\) differs from cpu 2 '
others=$(grep '^FAIL: ' "$T/fault.out" | grep -v 'cpu 3 (APIC 3, E-core)' | head -1)
if [ -z "$others" ]; then pass "fault: no other CPU fails"; else fail "fault" "another CPU named: $others"; fi
expect_line "fault: cpu 2 still passes" "$T/fault.out" '^PASS: chase-l1/load: .*; cpu 2 \(APIC 2, E-core\) \[sim\]$'

boot some --smp 4 -- pmu=sim model=ptl kernels=chase-l1 cpus=1,3
expect_rc some 0
expect_line "cpus=1,3: cpu 1 measured" "$T/some.out" '^PASS: chase-l1/load: .*; cpu 1 \('
expect_line "cpus=1,3: cpu 3 measured" "$T/some.out" '^PASS: chase-l1/load: .*; cpu 3 \('
expect_no_line "cpus=1,3: cpu 0 not measured" "$T/some.out" '; cpu 0 \('
expect_no_line "cpus=1,3: cpu 2 not measured" "$T/some.out" '; cpu 2 \('

boot nocpu --smp 2 -- pmu=sim model=ptl cpus=0,5
expect_rc nocpu 2
expect_line "cpus=0,5: one ERROR naming CPU 5" "$T/nocpu.out" \
	"^ERROR: option cpus: CPU 5 does not exist: this machine has 2 CPUs, 0-1 \\(accepted: "
