#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-percpu.sh - every CPU measured on itself under UEFI (QEMU TCG,
# EFI_MP_SERVICES_PROTOCOL StartupThisAP), on the simulated Panther Lake:
#   - --smp 4 model=ptl: the kernels run on all four CPUs (CPUs 0-1 Cougar
#     Cove P-cores, 2-3 Darkmont E-cores), every verdict line names its CPU,
#     share-hitm samples on each with its HITM judged, no FAIL, exit 0, and
#     the per-CPU table has a row per core type (P and E, alike CPUs in one);
#   - sim-fault=cpu3:no-records: exit 1, a FAIL naming CPU 3 (and a
#     cpu-compare FAIL naming it), no FAIL line naming another CPU;
#   - cpus=1,3 measures those two only; a CPU that does not exist is one
#     ERROR line and exit 2;
#   - sim-fault=cpu2:hang (the AP never returns from its first session):
#     cpu-timeout= fires, one FAIL naming CPU 2, exit 1, its later kernel
#     SKIPs, the other CPUs pass; cpu0:hang is one ERROR line and exit 2;
#   - drain=pmi threshold=16: every CPU's session drains on its own PMIs
#     (the simulator's; a real AP's interrupt path: test-selftest-gp.sh).
. "$(dirname "$0")/lib.sh"
# Four CPUs measured one after another under TCG: 2.9 times the no-op boot
# beside a second boot; 5 times that, rounded up (budget.sh).
BOOT_FACTOR=15

KERNELS=kernels=chase-l1,seq-load,stream-store,share-hitm

boot ptl --smp 4 -- pmu=sim model=ptl "$KERNELS" verbose=1
expect_rc ptl 0
expect_no_line "ptl: no FAIL" "$T/ptl.out" '^FAIL: '
for c in 0 1 2 3; do
	if [ "$c" -lt 2 ]; then t=P-core; else t=E-core; fi
	expect_line "ptl: cpu $c sampled ($t)" "$T/ptl.out" \
		"^PASS: chase-l1/load@cpu$c: .*; cpu $c \\(APIC $c, $t\\) \\[sim\\]$"
	expect_line "ptl: cpu $c samples the shared line, HITM judged" "$T/ptl.out" \
		"^PASS: share-hitm/load@cpu$c: HITM [0-9.]+% >= 10.0% .*; cpu $c \\(APIC $c, $t\\) \\[sim\\]$"
done
# Rows alike but for the CPU are one (CPUs 0-1 the P-cores, 2-3 the E-cores).
expect_line "ptl: table row of cpus 0-1" "$T/ptl.out" '^INFO: +0-1 +0-1 P-core +Cougar Cove +[1-9][0-9]* +0 +[0-9]+$'
expect_line "ptl: table row of cpus 2-3" "$T/ptl.out" '^INFO: +2-3 +2-3 E-core +Darkmont +[1-9][0-9]* +0 +[0-9]+$'
expect_line "ptl: table header" "$T/ptl.out" '^INFO: per-CPU results \(4 CPUs\):'
wide=$(awk 'length($0) > 80' "$T/ptl.out" | grep -E '^INFO: +([0-9]|CPU) ' | head -1)
if [ -z "$wide" ]; then pass "ptl: table within 80 columns"; else fail "ptl" "table line over 80 columns: $wide"; fi

boot fault --smp 4 -- pmu=sim model=ptl "$KERNELS" sim-fault=cpu3:no-records verbose=1
expect_rc fault 1
expect_line "fault: a FAIL names cpu 3" "$T/fault.out" '^FAIL: chase-l1/load@cpu3: .*; cpu 3 \(APIC 3, E-core\) \[sim\]$'
expect_line "fault: cpu-compare names cpu 3" "$T/fault.out" '^FAIL: cpu-compare: cpu 3 \(APIC 3, E-core\) differs from cpu 2 '
others=$(grep '^FAIL: ' "$T/fault.out" | grep -v 'cpu 3 (APIC 3, E-core)' | head -1)
if [ -z "$others" ]; then pass "fault: no other CPU fails"; else fail "fault" "another CPU named: $others"; fi
expect_line "fault: cpu 2 still passes" "$T/fault.out" '^PASS: chase-l1/load@cpu2: .*; cpu 2 \(APIC 2, E-core\) \[sim\]$'
# results.json and the tools reading it blame CPU 3 too, not the boot CPU
# that printed the compare line; each CPU's uarch is its own.
mtype -i "$T/fault.img" ::/EFI/BOOT/results.json >"$T/fault.json" 2>/dev/null
blame=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [(x.get("cpu"), x.get("core_type")) for x in d["verdicts"] if x["name"] == "cpu-compare"]
u = {c["cpu"]: c["uarch"] for c in d["cpus_tested"]}
print(v, u.get(0, "").split()[0], u.get(3, "").split()[0])' "$T/fault.json" 2>&1)
if [ "$blame" = "[(3, 'E-core')] Cougar Darkmont" ]; then
	pass "fault: results.json's cpu-compare names cpu 3; cpus_tested uarch per CPU"
else
	fail "fault: results.json" "cpu-compare verdicts, uarch of CPUs 0 and 3: $blame"
fi
make -s BUILD="$BUILD" host >/dev/null 2>&1
if "$BUILD/host/pebs-results" --table "$T/fault.json" | grep -qE '^FAIL +cpu-compare +3/3 E '; then
	pass "fault: pebs-results names cpu 3 for cpu-compare"
else
	fail "fault: pebs-results" "no 'FAIL cpu-compare 3/3 E' row"
fi

boot some --smp 4 -- pmu=sim model=ptl kernels=chase-l1 cpus=1,3 verbose=1
expect_rc some 0
expect_line "cpus=1,3: cpu 1 measured" "$T/some.out" '^PASS: chase-l1/load@cpu1: .*; cpu 1 \('
expect_line "cpus=1,3: cpu 3 measured" "$T/some.out" '^PASS: chase-l1/load@cpu3: .*; cpu 3 \('
expect_no_line "cpus=1,3: cpu 0 not measured" "$T/some.out" '; cpu 0 \('
expect_no_line "cpus=1,3: cpu 2 not measured" "$T/some.out" '; cpu 2 \('

boot nocpu --smp 2 -- pmu=sim model=ptl cpus=0,5
expect_rc nocpu 2
expect_line "cpus=0,5: one ERROR naming CPU 5" "$T/nocpu.out" \
	"^ERROR: option cpus: CPU 5 does not exist: this machine has 2 CPUs, 0-1 \\(accepted: "

# An AP that never returns (interrupts off, HLT): the BSP's timeout fires,
# names it, and goes on; without the timeout QEMU's --timeout ends the boot
# (cpu-timeout=3 plus two small kernels: 1.7 times the no-op boot, 5 times
# that, rounded up).
BOOT_FACTOR=10 boot hang --smp 3 -- pmu=sim model=skl kernels=chase-l1,seq-load sim-fault=cpu2:hang cpu-timeout=3 verbose=1
expect_rc hang 1
n=$(grep -c '^FAIL: ' "$T/hang.out")
if [ "$n" = 1 ]; then pass "hang: one FAIL line"; else fail "hang" "$n FAIL lines"; fi
expect_line "hang: the FAIL names CPU 2's timeout" "$T/hang.out" \
	'^FAIL: chase-l1/load@cpu2: timeout: CPU 2 did not return within 3000 ms: .*; cpu 2 \(APIC 2, none\) \[sim\]$'
expect_line "hang: its later kernel SKIPs" "$T/hang.out" \
	'^SKIP: seq-load/load@cpu2: cpu 2 did not return from an earlier run; cpu 2 \('
expect_no_line "hang: no ERROR" "$T/hang.out" '^ERROR: '
for c in 0 1; do
	expect_line "hang: cpu $c still measured" "$T/hang.out" \
		"^PASS: seq-load/load@cpu$c: .*; cpu $c \\(APIC $c, none\\) \\[sim\\]\$"
done
expect_line "hang: the table says so" "$T/hang.out" '^INFO: +2 +2 none +\(did not return\) +0 +1 +1$'

boot hang0 --smp 2 -- pmu=sim sim-fault=cpu0:hang
expect_rc hang0 2
expect_line "cpu0:hang: one ERROR naming the boot CPU" "$T/hang0.out" \
	'^ERROR: option sim-fault: cpu0:hang would stop the boot CPU, which waits for the others \(accepted: cpuN:hang with N in 1-1\)'

# drain=pmi on every CPU, P- and E-cores: each session takes PMIs and passes.
boot pmi --smp 4 -- pmu=sim model=ptl kernels=chase-l1 drain=pmi threshold=16 verbose=1
expect_rc pmi 0
expect_no_line "pmi: no FAIL" "$T/pmi.out" '^FAIL: '
for c in 0 1 2 3; do
	# the lines between "cpu N: APIC ID" and the next CPU's
	n=$(awk -v c="$c" '/^INFO: cpu [0-9]+: APIC ID/ { on = ($3 == c ":") }
		on && /^INFO: chase-l1\/load: records drained / { sub(/.*, PMIs /, ""); sub(/,.*/, ""); print }' "$T/pmi.out")
	if [ -n "$n" ] && [ "$n" -ge 2 ]; then pass "pmi: cpu $c drained on $n PMIs"; else
		fail "pmi: cpu $c" "PMIs '${n}'"; fi
	expect_line "pmi: cpu $c passes" "$T/pmi.out" "^PASS: chase-l1/load@cpu$c: .*; cpu $c \\(APIC $c, "
done
