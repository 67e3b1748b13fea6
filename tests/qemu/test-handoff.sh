#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The firmware hand-off audit under QEMU + OVMF on four simulated Panther
# Lake CPUs, every kind of leftover spread over them (sim-handoff=,
# docs/SIM.md): one INFO line per finding kind naming exactly its CPUs,
# firmware-handoff PASS with "warn:", every kernel PASS, the SMIs of CPU 2's
# sampling in its line, handoff-restored PASS.  The MSR trace proves the
# restore on its own: on each CPU every MSR read at hand-off (before the
# first session) reads the same at the check after the last session, and
# sessions did write there in between.  results.json has a handoff object
# per CPU.  handoff=strict, a lost restore write and a bad sim-handoff=
# value are rows of tests/qemu/boots.cfg.  Here: GLOBAL_STATUS bit
# 54 that STATUS_SET refuses (no-set-54) is named, not failed.
. "$(dirname "$0")/lib.sh"

left="cpu0:counter,cpu1:bts,cpu2:ctr-frz,cpu3:no-smm-freeze,cpu2:smi3,cpu0:cfg-b,cpu3:counter"
boot spread --smp 4 -- pmu=sim model=ptl kernels=chase-l1 trace=msr dump=off verbose=1 \
	sim-acr=0xfc,0,0xfc,0 sim-handoff=$left
o=$T/spread.out
expect_rc spread 0
# Finding kind -> the CPUs it must name, and nothing else.
while IFS='|' read -r what cpus; do
	expect_line "spread: '$what' on $cpus" "$o" "^INFO: hand-off( note)?: $what: $cpus\$"
done <<'EOF'
PERFEVTSELx enabled \(EN, bit 22\)|cpus 0,3
DEBUGCTL BTS \(7\) on|cpu 1
DEBUGCTL TR \(6\) on|cpu 1
DS_AREA points at a DS save area|cpu 1
GLOBAL_STATUS CTR_FRZ \(59\): counters frozen|cpu 2
CFG_B \(ACR reload mask\) not zero|cpu 0
FREEZE_WHILE_SMM \(14\) off: counts go on in SMM|cpu 3
EOF
expect_line "spread: firmware-handoff warns" "$o" '^PASS: firmware-handoff: warn: '
expect_line "spread: handoff-restored" "$o" '^PASS: handoff-restored: .* cpus 0-3 \[sim\]$'
n=$(grep -c '^PASS: chase-l1/load@cpu[0-3]: ' "$o")
if [ "$n" = 4 ]; then pass "spread: chase-l1/load PASS on 4 CPUs"
else fail "spread: chase-l1/load PASS on 4 CPUs" "$n PASS lines"; fi
expect_line "spread: cpu 2's sampling counts its SMIs" "$o" \
	'^PASS: chase-l1/load@cpu2: .*; 3 SMIs during the sampling; cpu 2 '
expect_no_line "spread: no FAIL line" "$o" '^FAIL: '
expect_no_line "spread: every console line fits 80 columns" "$T/spread.raw" '^.{81,}'

# The trace: "N lines held back by cpu C's hand-off read|check" opens each CPU's reads.
if python3 - "$o" <<'PY'; then
import re, sys
cpu = phase = None
reads = {}      # (phase, cpu) -> {msr: value}
writes = {}     # cpu -> MSRs written between its read and its check
for line in open(sys.argv[1]):
    m = re.match(r"INFO: \d+ lines (?:held back by|from) cpu (\d+)'s hand-off (read|check)", line)
    if m:
        cpu, phase = int(m.group(1)), m.group(2)
        continue
    m = re.match(r"INFO: \d+ lines? (?:held back by|from) (the measured CPU|the probed CPU"
                 r"|cpu \d+'s probe)", line)
    if m or line.startswith("INFO: kernel"):
        phase = "run"
    m = re.match(r"MSR: (rdmsr|wrmsr) 0x([0-9a-f]+) (0x[0-9a-f]+)", line)
    if not m:
        continue
    op, msr, val = m.group(1), int(m.group(2), 16), int(m.group(3), 16)
    if phase in ("read", "check") and op == "rdmsr":
        reads.setdefault((phase, cpu), {})[msr] = val
    elif op == "wrmsr":
        writes.setdefault("any", set()).add(msr)
bad = []
for c in range(4):
    a, b = reads.get(("read", c)), reads.get(("check", c))
    if not a or not b:
        bad.append("cpu %d: no hand-off read or check in the trace" % c)
        continue
    # An AP's first block also holds its capability probe: the check reads the audit's MSRs.
    if len(b) < 20 or set(b) - set(a):
        bad.append("cpu %d: the check read %d MSRs, %d not read at hand-off"
                   % (c, len(b), len(set(b) - set(a))))
    running = {0xc1 + i for i in range(10) if a.get(0x186 + i, 0) & (1 << 22)}
    for msr in sorted(set(a) & set(b)):
        if msr == 0x34 or msr in running:
            continue
        if b[msr] != a[msr]:
            bad.append("cpu %d: MSR 0x%x 0x%x at hand-off, 0x%x at the check"
                       % (c, msr, a[msr], b[msr]))
touched = writes.get("any", set()) & set(reads.get(("read", 0), {}))
if len(touched) < 5:
    bad.append("the sessions wrote only %d of the MSRs read: no restore shown" % len(touched))
for b in bad[:10]:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
	pass "spread: the MSR trace shows every MSR on every CPU as found"
else
	fail "spread: the MSR trace shows every MSR on every CPU as found" "see above"
fi

mtype -i "$T/spread.img" ::/EFI/BOOT/results.json >"$T/results.json" 2>/dev/null
if python3 - "$T/results.json" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
h = d.get("handoff", [])
kinds = {e["cpu"]: {f["kind"] for f in e.get("found", [])} for e in h}
ok = (len(h) == 4 and all(e.get("read") and e.get("restored") is True for e in h)
      and "counter-enabled" in kinds[0] and "bts" in kinds[1]
      and "ctr-frz" in kinds[2] and "no-smm-freeze" in kinds[3]
      and "bts" not in kinds[0] | kinds[2] | kinds[3])
runs = [r for k in d["kernels"] for r in k.get("runs", []) if r.get("cpu") == 2]
ok = ok and any(r.get("smis") == 3 for r in runs)
sys.exit(0 if ok else 1)
PY
	pass "spread: results.json: a handoff object per CPU, restored, cpu 2's run has 3 SMIs"
else
	fail "spread: results.json" "handoff objects or smis not as expected"
fi

# GLOBAL_STATUS bit 54 left on CPUs 1 and 2, STATUS_SET refusing it on CPU 1
# only: put back on 2, named not restorable on 1, no session fails.
boot status54 --smp 4 -- pmu=sim model=ptl kernels=chase-l1 dump=off \
	sim-handoff=cpu1:arch-pebs-ovf,cpu1:no-set-54,cpu2:arch-pebs-ovf
expect_rc status54 0
expect_line "status54: bit 54 left on cpus 1,2" "$T/status54.out" \
	'^INFO: hand-off: GLOBAL_STATUS arch-PEBS threshold \(54\) set: cpus 1,2$'
expect_line "status54: not restorable on cpu 1 alone" "$T/status54.out" \
	'^INFO: hand-off note: GLOBAL_STATUS bit 54 not restorable: cpu 1$'
expect_line "status54: handoff-restored says all but bit 54" "$T/status54.out" \
	'^PASS: handoff-restored: warn: all but GLOBAL_STATUS bit 54 \(note\)'
expect_no_line "status54: no FAIL line" "$T/status54.out" '^FAIL: '
mtype -i "$T/status54.img" ::/EFI/BOOT/results.json >"$T/status54.json" 2>/dev/null
if python3 - "$T/status54.json" <<'PY'; then
import json, sys
h = {e["cpu"]: e for e in json.load(open(sys.argv[1])).get("handoff", [])}
want = {0: "0x0", 1: "0x40000000000000", 2: "0x0", 3: "0x0"}
sys.exit(0 if all(h.get(c, {}).get("status_unrestorable") == v for c, v in want.items())
         else 1)
PY
	pass "status54: results.json: status_unrestorable names bit 54 on cpu 1 alone"
else
	fail "status54: results.json" "status_unrestorable not as expected"
fi
