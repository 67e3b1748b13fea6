#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-console-size.sh - the console a person reads at the bench stays
# short (docs/OUTPUT.md "Console and log file"):
#   - the default job (no options, one CPU): at most 150 lines from the
#     banner on, none over 80 columns, the last one "RESULT: PASS";
#   - it grows with the kernels, not with the CPUs: on 16 CPUs at most 1.3
#     times the lines of the same kernels on one CPU, one line per test
#     across the 16; every CPU's verdicts are in the log file and in
#     results.json.  Three small kernels, not the default job: 16 CPUs
#     under TCG run one after another, and the default job on 16 would
#     take minutes per boot.
. "$(dirname "$0")/lib.sh"
BOOT_FACTOR=10

boot default
expect_rc default 0
n=$(wc -l <"$T/default.raw")
if [ "$n" -ge 10 ] && [ "$n" -le 150 ]; then
	pass "default: $n console lines, at most 150"
else
	fail "default: console lines" "$n, want 10..150"
fi
wide=$(awk 'length > 80' "$T/default.raw" | head -1)
if [ -z "$wide" ]; then pass "default: no console line over 80 columns"; else
	fail "default: a console line over 80 columns" "$wide"; fi
last=$(tail -n 1 "$T/default.raw")
case $last in
"RESULT: PASS (exit 0)"*) pass "default: ends with RESULT: PASS" ;;
*) fail "default: last line" "'$last', want RESULT: PASS" ;;
esac

KERNELS=kernels=chase-l1,seq-load,share-hitm
boot one -- "$KERNELS"
BOOT_FACTOR=40 boot sixteen --smp 16 -- "$KERNELS"
expect_rc one 0
expect_rc sixteen 0
n1=$(wc -l <"$T/one.raw")
n16=$(wc -l <"$T/sixteen.raw")
if [ "$n1" -ge 10 ] && [ $((n16 * 10)) -le $((n1 * 13)) ]; then
	pass "smp 16: $n16 console lines, one CPU $n1: at most 1.3 times"
else
	fail "smp 16: console lines" "$n16 on 16 CPUs, $n1 on one: over 1.3 times"
fi
expect_line "smp 16: one line for chase-l1/load across the CPUs" "$T/sixteen.out" \
	'^PASS: chase-l1/load: 16 CPUs: L1 hits [0-9.]+(-[0-9.]+)?%, median [0-9]+(-[0-9]+)? cy \[sim\]$'
expect_no_line "smp 16: no per-CPU verdict on the console" "$T/sixteen.out" '^(PASS|FAIL|SKIP): [^ ]*@cpu'
logfile sixteen
n=$(grep -cE '^PASS: chase-l1/load@cpu[0-9]+: ' "$T/sixteen.log")
if [ "$n" = 16 ]; then pass "smp 16: the log file has each CPU's chase-l1/load verdict"; else
	fail "smp 16: log file" "$n chase-l1/load@cpuN verdicts, want 16"; fi
mtype -i "$T/sixteen.img" ::/EFI/BOOT/results.json >"$T/sixteen.json" 2>/dev/null
got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
cpus = {r.get("cpu") for k in d["kernels"] if k.get("kernel") == "chase-l1"
        for r in k.get("runs", []) if r.get("test") == "chase-l1/load"}
print(len(cpus))' "$T/sixteen.json" 2>&1)
if [ "$got" = 16 ]; then pass "smp 16: results.json has chase-l1/load of each of the 16 CPUs"; else
	fail "smp 16: results.json" "chase-l1/load runs on $got CPUs, want 16"; fi
