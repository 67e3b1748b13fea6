#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# trace=msr with drain=pmi: the PMI handler prints nothing while it runs
# (a PMI inside a ConOut, SerialIo or file Write would enter the same driver
# again); its MSR: lines are held back and printed after the session, below
# one INFO line that says so (docs/OUTPUT.md).  The simulated PMU runs the
# handler; the app, console, serial and log file are the real UEFI ones.
. "$(dirname "$0")/lib.sh"

boot pmi -- pmu=sim model=skl kernels=chase-l1 drain=pmi threshold=8 trace=msr results=none verbose=1
o=$T/pmi.out
expect_rc pmi 0
expect_line "pmi-trace: the held-back lines are announced" "$o" \
	'^INFO: [0-9]+ lines? held back by the PMI handler until now:$'
# The handler's first access is GLOBAL_CTRL = 0; it comes right after the announcement.
n=$(grep -A1 -E '^INFO: [0-9]+ lines? held back by the PMI handler' "$o" | grep -c '^MSR: wrmsr 0x38f 0x0$')
if [ "$n" -ge 1 ]; then pass "pmi-trace: the handler's lines follow it"
else fail "pmi-trace: the handler's lines follow it" "no 'MSR: wrmsr 0x38f 0x0' after the announcement"; fi
expect_line "pmi-trace: the sampling ran with PMIs" "$o" \
	'^INFO: chase-l1/load: records drained [0-9]+, lost 0, PMIs [1-9][0-9]*, '
expect_line "pmi-trace: it passed" "$o" '^PASS: chase-l1/load: '
expect_no_line "pmi-trace: no FAIL line" "$o" '^FAIL: '
