#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-topology.sh - the two-CPU kernels' partner from OVMF's topology (MP
# services GetProcessorInfo Location), under QEMU's -smp topology form:
#   - 4,cores=2,threads=2: MP processor 1 is CPU 0's HT sibling (OVMF numbers
#     by APIC ID); share-hitm and false-share pass on every CPU, each with a
#     partner on another core of its package, named in results.json;
#   - 8,sockets=2,cores=2,threads=2: the same on both packages; each
#     partner is in the measured CPU's package;
#   - 4,sockets=2,cores=1,threads=2: no other core in either package: the
#     partner is the other package's first CPU, and the verdict judges and
#     names remote HITMs (the simulator's cross-package snoop, sim/record.c);
#   - 2,sockets=2,cores=1,threads=1: CPUID.1:EDX.HTT clear, so OVMF names
#     one location for both CPUs (EDK II BaseXApicLib.c
#     GetProcessorLocationByApicId): the partner is CPU 1, location unknown.
# The simulated threads of a core share L1D and L2 (sim/cache.c), so a
# sibling partner FAILs share-hitm: tests/unit/test_kernels_partner.c.
. "$(dirname "$0")/lib.sh"
# Eight CPUs, two kernels each, one after another under TCG.
BOOT_FACTOR=20

check_partners() { # name cpus [remote]
	mtype -i "$T/$1.img" ::/EFI/BOOT/results.json >"$T/$1.json" 2>/dev/null
	bad=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = [k for c in d.get("kernels", []) for k in ([c] if "kernel" in c else [])]
seen = set()
for k in rows:
    if k["kernel"] not in ("share-hitm", "false-share"):
        continue
    if "partner_cpu" not in k or k["partner_cpu"] == k["cpu"]:
        print("cpu %s %s: no partner" % (k["cpu"], k["kernel"])); continue
    if sys.argv[3] == "remote":
        if k["partner_package"] == k["package"]:
            print("cpu %s %s: partner %s in its own package" % (k["cpu"], k["kernel"],
                  k["partner_cpu"]))
        for r in k.get("runs", []):
            if {"property": "remote HITM", "state": "checked"} not in r["properties"]:
                print("cpu %s %s: remote HITM not checked" % (k["cpu"], k["kernel"]))
    elif k["partner_package"] != k["package"] or k["partner_core"] == k["core"]:
        print("cpu %s %s: partner %s on package %s core %s" % (k["cpu"], k["kernel"],
              k["partner_cpu"], k["partner_package"], k["partner_core"]))
    seen.add(k["cpu"])
if len(seen) != int(sys.argv[2]):
    print("measured %d CPUs, not %s" % (len(seen), sys.argv[2]))' "$T/$1.json" "$2" \
		"${3:-same}" 2>&1)
	if [ -z "$bad" ]; then pass "$1: every partner on another core${3:+ in another package}"
	else fail "$1" "$bad"; fi
}

boot smt --smp 4,cores=2,threads=2 -- kernels=share-hitm,false-share verbose=1
expect_rc smt 0
expect_line "smt: cpu 0's partner is CPU 2" "$T/smt.out" \
	'^INFO: kernel share-hitm: partner CPU 2 \(package 0, core 1, thread 0\); CPU 0 is core 0 of package 0'
check_partners smt 4

boot sockets --smp 8,sockets=2,cores=2,threads=2 -- kernels=share-hitm,false-share verbose=1
expect_rc sockets 0
expect_line "sockets: cpu 5's partner is CPU 6 on package 1" "$T/sockets.out" \
	'^INFO: kernel share-hitm: partner CPU 6 \(package 1, core 1, thread 0\); CPU 5 is core 0 of package 1'
check_partners sockets 8

boot xpkg --smp 4,sockets=2,cores=1,threads=2 -- kernels=share-hitm,false-share verbose=1
expect_rc xpkg 0
expect_line "xpkg: cpu 1's partner is CPU 2 on package 1" "$T/xpkg.out" \
	'^INFO: kernel share-hitm: partner CPU 2 \(package 1, core 0, thread 0\); CPU 1 is core 0 of package 0'
expect_line "xpkg: cpu 3's false-share verdict judges remote HITMs" "$T/xpkg.out" \
	'^PASS: false-share/load@cpu3: remote HITM'
check_partners xpkg 4 remote

# HTT clear (one thread a package): EDK II gives every CPU package 0, core 0, thread 0.
boot nohtt --smp 2,sockets=2,cores=1,threads=1 -- kernels=share-hitm,false-share verbose=1
expect_rc nohtt 0
expect_line "nohtt: the partner's location is not known" "$T/nohtt.out" \
	'^PASS: share-hitm/load@cpu0: HITM .*partner CPU 1 \(topology not given by the firmware: one location for every CPU\)'
