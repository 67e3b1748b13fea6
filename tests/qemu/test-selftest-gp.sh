#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# selftest=gp: a real #GP under QEMU TCG (WRMSR IA32_PKRS with a reserved bit)
# is trapped by the real backend, execution resumes, the firmware IDT is left
# as it was, and the MSR trace shows the faulting write.  The PMI vector's
# gate and register save are checked by firing INT 0xee in software.
. "$(dirname "$0")/lib.sh"

boot gp -- pmu=hw selftest=gp trace=msr
o=$T/gp.out
# The app's own PASS/FAIL lines are this test's results.
grep -E '^(PASS|FAIL): selftest-' "$o" | sed 's/^/  app: /'
n=$(grep -c '^PASS: selftest-gp' "$o")
[ "$n" = 3 ] && pass "selftest-gp: 3 checks passed" || fail "selftest-gp" "$n of 3 checks passed"
expect_line "selftest-pmi-vector: handler ran, registers kept, IDT restored" "$o" '^PASS: selftest-pmi-vector: '
expect_no_line "selftest: no FAIL line" "$o" '^FAIL: 
expect_line "selftest-gp: trace shows the faulting wrmsr" "$o" '^MSR: wrmsr 0x6e1 0x100000000 #GP$'
expect_line "selftest-gp: ran on to the SUMMARY" "$o" '^SUMMARY: 5 tests, 0 failures, 1 skipped$'
expect_rc gp 0
