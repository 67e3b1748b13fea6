#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The app boots under OVMF (TCG), prints the capability report of QEMU's
# vCPU and ends with SUMMARY; pmu=auto notices the PMU-less vCPU and says why
# it simulates.
. "$(dirname "$0")/lib.sh"

boot report -- pmu=hw mode=report
o=$T/report.out
expect_rc report 0
expect_line "report: banner with version" "$o" '^INFO: pebsprobe [0-9a-f]{7,}'
expect_line "report: vendor and brand" "$o" '^INFO: cpu: vendor [A-Za-z]+, brand "'
expect_line "report: family/model/stepping" "$o" '^INFO: cpu: family 0x[0-9a-f]+ model 0x[0-9a-f]+ stepping 0x[0-9a-f]+'
expect_line "report: TCG hypervisor signature" "$o" '^INFO: cpu: hypervisor QEMU TCG, signature "TCGTCGTCGTCG"$'
expect_line "report: hybrid/core type" "$o" '^INFO: cpu: hybrid (no|yes), core type'
expect_line "report: DS/DTES64/PDCM" "$o" '^INFO: cpu: DS 0, DTES64 [01], PDCM 0$'
expect_line "report: arch PMU leaf 0AH" "$o" '^INFO: pmu: no architectural PMU \(CPUID.0AH:EAX version 0\)$'
expect_line "report: PERF_CAPABILITIES not read without PDCM" "$o" '^INFO: perf_capabilities: not read'
expect_line "report: MISC_ENABLE" "$o" '^INFO: misc_enable: '
expect_line "report: arch-PEBS leaf 23H" "$o" '^INFO: arch-pebs: no'
expect_line "report: microarchitecture" "$o" '^INFO: uarch: '
expect_line "report: SUMMARY" "$o" '^SUMMARY: 0 tests, 0 failures, 0 skipped$'
expect_no_line "report: real backend lines carry no [sim]" "$o" '\[sim\]$'
expect_no_line "report: no escape or CR in pebsprobe's lines" "$o" $'[\x1b\r]'
# Each line exactly once on serial (the firmware's serial terminal must not echo it).
dups=$(grep -E '^(INFO|PASS|FAIL|SKIP|SUMMARY)' "$o" | sort | uniq -d | head -1)
if [ -z "$dups" ]; then pass "report: no line duplicated on serial"; else fail "report: duplicated serial line" "$dups"; fi

boot auto -- mode=report
expect_rc auto 0
expect_line "auto: simulates on a PMU-less vCPU, says why" "$T/auto.out" \
	'^INFO: pmu=auto: hypervisor "TCGTCGTCGTCG": CPUID.0AH reports PMU version 0: running the simulated PMU'
expect_line "auto: simulated lines are marked [sim]" "$T/auto.out" '^SUMMARY: .* \[sim\]$'

boot models -- model=list
expect_rc models 0
expect_line "model=list names the models" "$T/models.out" '^INFO: model [a-z0-9]+: '

# An Intel vCPU (TCG's Skylake-Client model): the Intel-only MSRs are read
# through the real backend, PERF_CAPABILITIES is not (no PDCM), the model
# maps to skl.
TCG_CPU=Skylake-Client boot intel -- pmu=hw mode=report trace=msr
o=$T/intel.out
expect_rc intel 0
expect_line "intel: microcode from IA32_BIOS_SIGN_ID (write 0, CPUID, read)" "$o" '^MSR: rdmsr 0x8b 0x[0-9a-f]+$'
expect_line "intel: the microcode line names its one MSR write" "$o" \
	'^INFO: cpu: microcode 0x[0-9a-f]+ \(IA32_BIOS_SIGN_ID\[63:32\] after writing 0 to it and CPUID.1, SDM Vol. 3A 10.11.7.1; the report.s only MSR write\)$'
n=$(grep -c '^MSR: wrmsr ' "$o")
w=$(grep -m1 '^MSR: wrmsr ' "$o")
if [ "$n" = 1 ] && [ "$w" = "MSR: wrmsr 0x8b 0x0" ]; then
	pass "intel: the report's only wrmsr is 0 to IA32_BIOS_SIGN_ID"
else
	fail "intel: the report's only wrmsr is 0 to IA32_BIOS_SIGN_ID" "$n wrmsr lines, first: $w"
fi
expect_line "intel: MISC_ENABLE read and decoded" "$o" '^INFO: misc_enable: 0x[0-9a-f]+: perfmon-available [01], bts-unavailable [01], pebs-unavailable [01]$'
expect_no_line "intel: PERF_CAPABILITIES not read without PDCM" "$o" '^MSR: rdmsr 0x345 '
expect_line "intel: 06_5EH maps to skl" "$o" '^INFO: uarch: skl \(Skylake \(desktop\)\)$'
