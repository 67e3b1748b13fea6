#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The log file on the ESP, read back with mtools, holds exactly the lines
# of the console (serial) transcript; log=NAME and log=none are honoured.
. "$(dirname "$0")/lib.sh"

boot log -- pmu=hw mode=report selftest=gp
mtype -i "$T/log.img" ::/EFI/BOOT/pebsprobe.log >"$T/log.file" 2>"$T/mtype.err"
if [ ! -s "$T/log.file" ]; then
	fail "log: pebsprobe.log on the ESP" "missing or empty: $(cat "$T/mtype.err")"
else
	pass "log: pebsprobe.log on the ESP"
	if cmp -s "$T/log.raw" "$T/log.file"; then
		pass "log: file equals the console transcript ($(wc -l <"$T/log.file") lines)"
	else
		fail "log: file differs from the console" "$(diff "$T/log.raw" "$T/log.file" | head -3 | tr '\n' '|')"
	fi
	expect_no_line "log: plain ASCII, no CR" "$T/log.file" $'[\r\x80-\xff]'
fi
if mdir -i "$T/log.img" ::/EFI/BOOT/ 2>/dev/null | grep -qi '\.tmp'; then
	fail "log: no temporary file left" "$(mdir -b -i "$T/log.img" ::/EFI/BOOT/ | grep -i tmp)"
else
	pass "log: no temporary file left"
fi

boot named -- pmu=hw mode=report log=run7.txt
if mtype -i "$T/named.img" ::/EFI/BOOT/run7.txt | grep -q '^SUMMARY: '; then
	pass "log=run7.txt: written with its SUMMARY"
else
	fail "log=run7.txt" "no run7.txt with a SUMMARY line"
fi

boot nolog -- pmu=hw mode=report log=none
if mdir -b -i "$T/nolog.img" ::/EFI/BOOT/ | grep -qi 'pebsprobe.log'; then
	fail "log=none" "a pebsprobe.log was written"
else
	pass "log=none: no log file"
fi
