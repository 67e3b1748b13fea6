#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# selftest=gp: a real #GP under QEMU TCG (WRMSR IA32_PKRS with a reserved bit)
# is trapped by the real backend, execution resumes, the firmware IDT is left
# as it was, and the MSR trace shows the faulting write.  The PMI vector's
# gate and register save are checked by firing INT 0xee in software.  The
# fault flag must not depend on the registers: the accesses run again with
# garbage in rax, rcx, rdx and r8-r11 (r8 = 1 among the patterns, what the
# #GP stub sets), a good RDMSR must still succeed and a bad WRMSR fault.
# The test is of the real CPU's trap, so it runs on the real backend
# whatever pmu= says: also under pmu=sim and the default pmu=auto (which
# simulates the PMU under TCG).  selftest-pmi-ap: on each AP (--smp 3) a
# local APIC timer interrupt on the PMI vector reaches the handler installed
# there (APs run with interrupts off: the install turns them on, the
# removal back off); with one CPU it SKIPs.
. "$(dirname "$0")/lib.sh"

boot gp -- pmu=hw selftest=gp trace=msr
o=$T/gp.out
# The app's own PASS/FAIL lines are this test's results.
grep -E '^(PASS|FAIL): selftest-' "$o" | sed 's/^/  app: /'
n=$(grep -c '^PASS: selftest-gp' "$o")
if [ "$n" = 4 ]; then pass "selftest-gp: 4 checks passed"; else fail "selftest-gp" "$n of 4 checks passed"; fi
# Each check its own name (a JUnit or LAVA test case per check).
dup=$(grep '^PASS: selftest-gp' "$o" | cut -d: -f2 | sort | uniq -d)
if [ -z "$dup" ]; then pass "selftest-gp: the 4 checks have 4 names"; else fail "selftest-gp: names" "shared:$dup"; fi
expect_line "selftest-gp: garbage in the caller-saved registers changes no verdict" "$o" \
	'^PASS: selftest-gp-regs: real CPU: with garbage in rax, rcx, rdx, r8-r11 rdmsr 0x1b read without fault and wrmsr 0x6e1 faulted, each time$'
expect_line "selftest-pmi-vector: handler ran, registers kept, IDT restored" "$o" '^PASS: selftest-pmi-vector: '
expect_no_line "selftest: no FAIL line" "$o" '^FAIL: '
expect_line "selftest-gp: trace shows the faulting wrmsr" "$o" '^MSR: wrmsr 0x6e1 0x100000000 #GP$'
expect_line "selftest-pmi-ap: one CPU, SKIPped" "$o" '^SKIP: selftest-pmi-ap: one CPU: no AP to take an interrupt on'
expect_line "selftest-gp: ran on to the SUMMARY" "$o" '^SUMMARY: 7 tests, 0 failures, 2 skipped$'
expect_rc gp 0

# The default (pmu=auto: the simulated PMU under TCG) and pmu=sim: the self
# test still runs on the real CPU and says so.
for m in auto sim; do
	if [ $m = auto ]; then boot gp-$m -- selftest=gp mode=report trace=msr
	else boot gp-$m -- pmu=sim selftest=gp mode=report trace=msr; fi
	o=$T/gp-$m.out
	expect_line "gp-$m: the PMU is simulated" "$o" '^INFO: pmu backend: sim, model skl$'
	expect_line "gp-$m: says the test runs on the real CPU" "$o" \
		'^INFO: selftest=gp: on the real CPU, not the simulated PMU$'
	n=$(grep -c '^PASS: selftest-gp-[a-z]*: real CPU: ' "$o")
	if [ "$n" = 4 ]; then pass "gp-$m: 4 checks passed on the real CPU"; else fail "gp-$m" "$n of 4 checks passed"; fi
	expect_line "gp-$m: PMI vector" "$o" '^PASS: selftest-pmi-vector: real CPU: '
	expect_line "gp-$m: trace shows the faulting wrmsr" "$o" '^MSR: wrmsr 0x6e1 0x100000000 #GP$'
	expect_no_line "gp-$m: no FAIL line" "$o" '^FAIL: '
	expect_line "gp-$m: SUMMARY" "$o" '^SUMMARY: 6 tests, 0 failures, 1 skipped \[sim\]$'
	expect_rc gp-$m 0
done

# Three CPUs: the interrupt on the PMI vector reaches the handler on each AP.
boot ap --smp 3 -- pmu=sim selftest=gp mode=report
o=$T/ap.out
expect_rc ap 0
expect_line "selftest-pmi-ap: CPUs 1-2 took the interrupt, interrupt flag put back" "$o" \
	'^PASS: selftest-pmi-ap: real CPUs 1-2: a local APIC timer interrupt on vector 0xee reached the handler installed on each AP \(RFLAGS.IF [01] before, 1 with the handler, [01] after\) \[sim\]$'
expect_no_line "ap: no FAIL" "$o" '^FAIL: '
expect_line "ap: SUMMARY" "$o" '^SUMMARY: 6 tests, 0 failures, 0 skipped \[sim\]$'
