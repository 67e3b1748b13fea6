#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Auto counter reload under QEMU (TCG) on the simulated PMU, which has it
# only with sim-acr= (docs/SIM.md): the acr-reload kernel PASSes on a
# Panther Lake P-core and an E-core, with a count only a reload gives
# (checked here from the line: the reloaded counter's excess is the total
# mod the period) and its run in results.json; a counter outside the
# CPUID.23H.2 masks, and a CPU without ACR, are refused with one ERROR
# line, exit 2, no PMU MSR written (trace=msr: the only wrmsr is the
# probe's IA32_BIOS_SIGN_ID, 8BH).
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

refused() { # name want-error-regex options...
	local name=$1 want=$2
	shift 2
	boot "$name" -- trace=msr pmu=sim "$@"
	expect_rc "$name" 2
	expect_line "$name: error line" "$T/$name.out" "$want"
	n=$(grep -c '^ERROR: ' "$T/$name.out")
	if [ "$n" = 1 ]; then pass "$name: exactly one ERROR line"; else fail "$name" "$n ERROR lines"; fi
	expect_line "$name: the MSR trace is on (the probe's 8BH)" "$T/$name.out" '^MSR: wrmsr 0x8b '
	expect_no_line "$name: no PMU MSR written" "$T/$name.out" '^MSR: wrmsr 0x([0-79a-f]|8[0-9ac-f])'
	expect_no_line "$name: no kernel started" "$T/$name.out" '^INFO: kernel '
}
refused outside-masks \
	"^ERROR: option acr=gp0:gp3 \(kernel acr-reload\): auto counter reload: gp0 may not be reloaded: CPUID.23H.2:EAX is 0xfc" \
	model=ptl kernels=acr-reload sim-acr=0xfc,0,0xfc,0 acr=gp0:gp3
refused no-acr \
	"^ERROR: option acr=auto \(kernel acr-reload\): auto counter reload: CPUID.23H.0:EAX\[2\] is clear: this CPU has no ACR" \
	model=ptl kernels=acr-reload

# Arrow Lake-H with three CPUs: the low-power E-core (PMU v5, no leaf 23H)
# has no ACR whatever sim-acr= says: its run SKIPs, refused, the others PASS.
boot arl --smp 3 -- pmu=sim model=arl kernels=acr-reload sim-acr=0xf0,0,0xf0,0 verbose=1
expect_rc arl 0
expect_line "arl: cpu 0 (Lion Cove) passes" "$T/arl.out" '^PASS: acr-reload/acr@cpu0: .*; cpu 0 '
expect_line "arl: cpu 1 (Skymont) passes" "$T/arl.out" '^PASS: acr-reload/acr@cpu1: .*; cpu 1 '
expect_line "arl: cpu 2 (LP Crestmont) refused" "$T/arl.out" \
	'^SKIP: acr-reload/acr@cpu2: refused: auto counter reload: CPUID.23H.0:EAX\[2\] is clear \(no leaf 23H\): this CPU has no ACR .*; cpu 2 '
