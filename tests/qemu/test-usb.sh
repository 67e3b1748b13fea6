#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# build/usb.img (GPT, one EFI System Partition) boots as a USB mass-storage
# device on an xHCI controller, reads its config file and writes its log.
. "$(dirname "$0")/lib.sh"

boot usb --usb -- pmu=hw mode=report
expect_rc usb 0
expect_line "usb: app ran and finished" "$T/usb.out" '^SUMMARY: 0 tests, 0 failures, 0 skipped$'
expect_line "usb: config file read from the stick" "$T/usb.out" '^INFO: options: config file \\EFI\\BOOT\\PEBSPROBE.CFG read$'
if sgdisk -p "$T/usb.img" 2>/dev/null | grep -qE '^ +1 +2048 .*EF00'; then
	pass "usb: GPT with the ESP at sector 2048"
else
	fail "usb: partition table" "$(sgdisk -p "$T/usb.img" 2>&1 | tail -2 | tr '\n' '|')"
fi
if mtype -i "$T/usb.img@@1M" ::/EFI/BOOT/pebsprobe.log 2>/dev/null | grep -q '^SUMMARY: '; then
	pass "usb: log written to the stick"
else
	fail "usb: log" "no pebsprobe.log with a SUMMARY on the stick"
fi
