#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# selftest=gp: a real #GP under QEMU TCG (WRMSR IA32_PKRS with a reserved bit)
# is trapped by the real backend, execution resumes, the firmware IDT is left
# as it was, and the MSR trace shows the faulting write.
. "$(dirname "$0")/lib.sh"

boot gp -- pmu=hw selftest=gp trace=msr
o=$T/gp.out
# The app's own PASS/FAIL lines are this test's results.
grep -E '^(PASS|FAIL): selftest-gp' "$o" | sed 's/^/  app: /'
n=$(grep -c '^PASS: selftest-gp' "$o")
[ "$n" = 3 ] && pass "selftest-gp: 3 checks passed" || fail "selftest-gp" "$n of 3 checks passed"
expect_line "selftest-gp: trace shows the faulting wrmsr" "$o" '^MSR: wrmsr 0x6e1 0x100000000 #GP$'
expect_line "selftest-gp: ran on to the SUMMARY" "$o" '^SUMMARY: 4 tests, 0 failures, 1 skipped$'
expect_rc gp 0
