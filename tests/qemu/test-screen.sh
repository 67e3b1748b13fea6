#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-qemu.sh gives the guest no VGA device unless --screen asks for one:
# by default OVMF has no graphics console (the app finds no screen and
# writes serial and the log only); with --screen the app finds one, and
# keeps its status header there (lib/status.h).  Either way the serial
# transcript and the log file hold the same lines: the header is the
# screen's alone.  (test-screenshot.sh reads the screen itself.)
. "$(dirname "$0")/lib.sh"

OPTS="kernels=chase-l1,stream-store"
boot noscreen -- $OPTS
boot screen --screen -- $OPTS
expect_rc noscreen 0
expect_rc screen 0
expect_line "default: no screen (-vga none)" "$T/noscreen.out" \
	'^INFO: firmware: .*; output: screens 0, serial yes, log pebsprobe\.log'
expect_line "--screen: one screen (-vga std)" "$T/screen.out" \
	'^INFO: firmware: .*; output: screens 1, serial yes, log pebsprobe\.log'
# The same transcript but for the firmware line (which counts the screens),
# the run ID (new for every run), the kernels' times and the page tables'
# address (memory the firmware hands out differs with a screen's buffers).
same() {
	grep -v '^INFO: firmware: ' "$1" | sed -e 's/run [0-9a-f]\{16\}/run ID/g' \
		-e 's/: end ([0-9]* ms)/: end (N ms)/' -e 's/CR3 0x[0-9a-f]*/CR3 0xN/'
}
if diff <(same "$T/noscreen.out") <(same "$T/screen.out") >"$T/diff" 2>&1; then
	pass "serial transcript the same with and without --screen ($(wc -l <"$T/screen.out") lines)"
else
	fail "serial transcript differs with --screen" "$(head -3 "$T/diff" | tr '\n' '|')"
fi
for b in noscreen screen; do
	mtype -i "$T/$b.img" ::/EFI/BOOT/pebsprobe.log | tr -d '\r' >"$T/$b.log"
done
if [ -s "$T/screen.log" ] && diff <(same "$T/noscreen.log") <(same "$T/screen.log") >"$T/diff" 2>&1; then
	pass "log file the same with and without --screen ($(wc -l <"$T/screen.log") lines)"
else
	fail "log file differs with --screen" "$(head -3 "$T/diff" | tr '\n' '|')"
fi
