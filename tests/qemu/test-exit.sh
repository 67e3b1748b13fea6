#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# exit=reboot resets the machine instead of reporting through isa-debug-exit:
# under -no-reboot QEMU then quits with 0, which run-qemu.sh must not take
# for a pass (it says so and exits 1).  The default, exit=shutdown, carries
# the status (covered by every other test).
. "$(dirname "$0")/lib.sh"

boot reboot -- pmu=hw mode=report exit=reboot
expect_rc reboot 1
expect_line "exit=reboot: the app finished first" "$T/reboot.out" '^INFO: exit status 0 \(exit=reboot\)$'
if grep -q 'QEMU exited without a status from the app' "$T/reboot.err"; then
	pass "exit=reboot: run-qemu.sh says no status came back"
else
	fail "exit=reboot" "run-qemu.sh did not explain: $(tail -1 "$T/reboot.err")"
fi
