#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-snapshot.sh - snapshot=on, counter-snapshot groups, under UEFI on the
# simulated PMU:
#   - model=lnl (PEBS format 6, MSR_PEBS_DATA_CFG's counter bits): the
#     sampling passes with its counter-snapshot verdict on the line, and
#     results.json holds the group (masks, records, PASS);
#   - model=ptl --smp 2 (arch-PEBS, CFG_C CNTR_* on both core types), with
#     a counting copy of the sampled event: its snapshots judged against
#     k periods, on the P-core and the E-core;
#   - model=spr (format 5: no counter snapshots): one ERROR line naming
#     option snapshot, the rule and what is accepted, exit 2, and no PMU
#     MSR written (the report's IA32_BIOS_SIGN_ID write is the only one).
. "$(dirname "$0")/lib.sh"
# Two or three kernels each: the default factor (budget.sh, lib.sh).

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

boot ptl --smp 2 -- pmu=sim model=ptl kernels=chase-l1 snapshot=on events='event=0xd0,umask=0x81' verbose=1
expect_rc ptl 0
for c in 0 1; do
	if [ "$c" = 0 ]; then t=P-core; else t=E-core; fi
	expect_line "ptl: cpu $c counting copy judged ($t)" "$T/ptl.out" \
		"^PASS: chase-l1/event1@cpu$c: .*counter snapshot: [1-9][0-9]* records, [1-9] counting counters rising and within their counts, counting copy >= k periods; cpu $c \\(APIC $c, $t\\)"
done

boot spr -- trace=msr pmu=sim model=spr snapshot=on kernels=chase-l1
expect_rc spr 2
expect_line "spr: one ERROR naming option snapshot and the rule" "$T/spr.out" \
	'^ERROR: option snapshot: counter snapshots are not enumerated on this CPU: PEBS format 5 \(accepted: PEBS format 6 with baseline, or arch-PEBS with CPUID.23H.4:EBX CNTR_ALLOW and CNTR_GP/CNTR_FIXED; Linux core.c intel_pmu_has_pebs_counter_group\)'
n=$(grep -c '^ERROR: ' "$T/spr.out")
if [ "$n" = 1 ]; then pass "spr: exactly one ERROR line"; else fail "spr" "$n ERROR lines"; fi
expect_no_line "spr: no PMU MSR written" "$T/spr.out" '^MSR: wrmsr 0x([^8]|8[^b])'
