#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-percpu.sh - every CPU measured on itself under UEFI (QEMU TCG,
# EFI_MP_SERVICES_PROTOCOL StartupThisAP), on the simulated Panther Lake
# (CPUs 0-1 Cougar Cove P-cores, 2-3 Darkmont E-cores):
#   - sim-fault=cpu3:no-records: exit 1, a FAIL naming CPU 3 (and a
#     cpu-compare FAIL naming it), no FAIL line naming another CPU, and
#     results.json and pebs-results blame CPU 3 too;
#   - drain=pmi threshold=16: every CPU's session drains on its own PMIs
#     (the simulator's; a real AP's interrupt path: boots.cfg
#     [selftest-pmi-ap]).
# The cases the console alone shows (all four CPUs passing, cpus=, an AP
# that hangs) are rows of tests/qemu/boots.cfg.
. "$(dirname "$0")/lib.sh"
# Four CPUs measured one after another under TCG: 2.9 times the no-op boot
# beside a second boot; 5 times that, rounded up (budget.sh).
BOOT_FACTOR=15

KERNELS=kernels=chase-l1,seq-load,stream-store,share-hitm

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
if "$BUILD/host/pebs-results" --table "$T/fault.json" | grep -qE '^FAIL +cpu-compare +3 E '; then
	pass "fault: pebs-results names cpu 3 for cpu-compare"
else
	fail "fault: pebs-results" "no 'FAIL cpu-compare 3 E' row"
fi

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
