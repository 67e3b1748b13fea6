#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-snapshot.sh - snapshot=on, counter-snapshot groups, under UEFI on the
# simulated PMU:
#   - model=lnl (PEBS format 6, MSR_PEBS_DATA_CFG's counter bits): the
#     sampling passes with its counter-snapshot verdict on the line, and
#     results.json holds the group (masks, records, PASS).
# Arch-PEBS on ptl and the refusal on spr need only the console: rows of
# tests/qemu/boots.cfg.
. "$(dirname "$0")/lib.sh"
# Two kernels: the default factor (budget.sh, lib.sh).

boot lnl -- pmu=sim model=lnl cpus=boot kernels=chase-l1,seq-load snapshot=on verbose=1
expect_rc lnl 0
expect_no_line "lnl: no FAIL" "$T/lnl.out" '^FAIL: '
expect_line "lnl: snapshot verdict on the line" "$T/lnl.out" \
	'^PASS: chase-l1/load: .*; counter snapshot: [1-9][0-9]* records, [1-9] counting counters rising and within their counts; cpu 0 '
if mcopy -n -i "$T/lnl.img" ::/EFI/BOOT/results.json "$T/lnl.json" 2>"$T/mcopy.err"; then
	got=$(python3 - "$T/lnl.json" 2>&1 <<'PY'
import json, sys
runs = [r for k in json.load(open(sys.argv[1]))["kernels"] for r in k["runs"] if "records" in r]
bad = [r["test"] for r in runs
       if r.get("snapshot", {}).get("verdict") != "PASS"
       or r["snapshot"]["records"] != r["records"]
       or r["snapshot"]["records_without_group"] != 0
       or r["snapshot"]["fixed_mask"] & 7 != 7]
print("OK %d" % len(runs) if runs and not bad else "bad: %s" % (bad or "no runs"))
PY
)
	case $got in
	"OK "[1-9]*) pass "lnl: results.json snapshot PASS, every record ($got runs)" ;;
	*) fail "lnl" "results.json: $got" ;;
	esac
else
	fail "lnl" "results.json not on the ESP: $(cat "$T/mcopy.err")"
fi
