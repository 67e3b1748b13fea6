#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmu=hw under TCG: no usable PMU, so the run SKIPs with the reason and
# exits 77 through isa-debug-exit and run-qemu.sh.
. "$(dirname "$0")/lib.sh"

boot hw -- pmu=hw
expect_rc hw 77
expect_line "pmu=hw: SKIP names the reason" "$T/hw.out" '^SKIP: pebs: .*(QEMU TCG emulates no PMU)'
expect_line "pmu=hw: SUMMARY all skipped" "$T/hw.out" '^SUMMARY: 1 tests, 0 failures, 1 skipped$'
expect_line "pmu=hw: exit line" "$T/hw.out" '^INFO: exit status 77 \(exit=shutdown\)$'
