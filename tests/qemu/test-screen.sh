#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-qemu.sh gives the guest no VGA device unless --screen asks for one:
# by default OVMF has no graphics console (the app finds no screen and
# writes serial and the log only); with --screen the app finds one.  Either
# way the serial transcript holds the same lines.
. "$(dirname "$0")/lib.sh"

boot noscreen -- mode=report
boot screen --screen -- mode=report
expect_rc noscreen 0
expect_rc screen 0
expect_line "default: no screen (-vga none)" "$T/noscreen.out" \
	'^INFO: firmware: .*; output: screens 0, serial yes, log pebsprobe\.log'
expect_line "--screen: one screen (-vga std)" "$T/screen.out" \
	'^INFO: firmware: .*; output: screens 1, serial yes, log pebsprobe\.log'
# The same transcript but for the firmware line (which counts the screens)
# and the run ID (new for every run).
same() { grep -v '^INFO: firmware: ' "$1" | sed 's/run [0-9a-f]\{16\}/run ID/g'; }
if diff <(same "$T/noscreen.out") <(same "$T/screen.out") >"$T/diff" 2>&1; then
	pass "serial transcript the same with and without --screen ($(wc -l <"$T/screen.out") lines)"
else
	fail "serial transcript differs with --screen" "$(head -3 "$T/diff" | tr '\n' '|')"
fi
