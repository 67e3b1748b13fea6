#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Auto counter reload under QEMU (TCG) on the simulated PMU, which has it
# only with sim-acr= (docs/SIM.md): the acr-reload kernel PASSes on a
# Panther Lake P-core and an E-core, with a count only a reload gives
# (checked here from the line: the reloaded counter's excess is the total
# mod the period) and its run in results.json.  The refusals (a counter
# outside the CPUID.23H.2 masks, a CPU without ACR) and Arrow Lake-H's
# three core types are rows of tests/qemu/boots.cfg.
. "$(dirname "$0")/lib.sh"

boot pass --smp 2 -- pmu=sim model=ptl kernels=acr-reload sim-acr=0xfc,0,0xfc,0 verbose=1
expect_rc pass 0
for cpu in 0 1; do
	line=$(grep -E "^PASS: acr-reload/acr@cpu$cpu: .*; cpu $cpu " "$T/pass.out")
	if [ -z "$line" ]; then
		fail "pass: cpu $cpu" "no PASS: acr-reload/acr line"
		continue
	fi
	read -r x n < <(sed -E 's/.* = 1073741824 \+ ([0-9]+) after ([0-9]+) instructions.*/\1 \2/' <<<"$line")
	if [ -n "$n" ] && [ "$n" -ge 1994 ] && [ "$x" = $((n % 997)) ]; then
		pass "pass: cpu $cpu: reloaded counter at 2^30 + $x = 2^30 + $n mod 997"
	else
		fail "pass: cpu $cpu" "not 2^30 + total mod 997: $line"
	fi
done
mtype -i "$T/pass.img" ::/EFI/BOOT/results.json >"$T/results.json" 2>/dev/null
if python3 - "$T/results.json" <<'PY'; then
import json, sys
runs = [r for k in json.load(open(sys.argv[1]))["kernels"] for r in k["runs"]]
acr = [r for r in runs if r.get("sampling") == "acr"]
assert len(acr) == 2, acr
for r in acr:
    assert r["verdict"] == "PASS", r
    a = r["acr"]
    assert a["reloaded"] - a["reload"] == a["total"] % a["period"], a
PY
	pass "pass: results.json has both CPUs' acr runs, PASS, with their counts"
else
	fail "pass" "results.json: no acr runs as expected"
fi
