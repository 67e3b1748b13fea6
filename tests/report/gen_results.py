# SPDX-License-Identifier: MIT
"""gen_results.py - a synthetic results.json (version 3, docs/RESULTS.md) of
a hybrid machine with many CPUs, for the HTML report's tests.

It has the shape the app writes (tests/results/v3-adl4.json, a real 4-CPU
run, is the model: one kernel object per kernel and CPU, every verdict with
its CPU, cpus_tested with each CPU's own uarch, the hand-off audit): the
first half of the CPUs are P-cores, the rest E-cores, as the simulator's
hybrid models have them (docs/SIM.md "Machines").  One CPU (--odd) has the
simulator's wrong-latency fault: its load medians are 1000 cycles too high,
its calibrations FAIL and cpu-compare names it.  Every other CPU's medians
vary by a cycle or two, so the added-up histograms have several bins.

  gen_results.py --cpus N [--odd CPU] -o FILE"""

import argparse
import json
import sys

# kernel: (what, size, {core type: load median in cycles}, data source, data_src, offcore)
KERNELS = (
    ("chase-l1", "pointer chase inside L1 (16 KiB)", 16384, {"P-core": 5, "E-core": 4},
     "LOAD L1 hit, snoop None", 8590983490, "L1"),
    ("chase-l2", "pointer chase past L1, inside L2 (128 KiB)", 131072,
     {"P-core": 15, "E-core": 17}, "LOAD L2 hit, snoop None", 8590983508, "L2"),
    ("chase-dram", "pointer chase far past the LLC", 33554432, {"P-core": 280, "E-core": 290},
     "LOAD Local RAM hit, snoop Hit", 8590999618, "Local RAM"),
)
UARCH = {"P-core": ("Golden Cove (hybrid P-core)", "glc"),
         "E-core": ("Gracemont (hybrid E-core)", "grt")}
RECORDS, ITERATIONS, PERIOD = 187, 6000, 32
WRONG_LATENCY = 1000  # cycles the odd CPU's records carry too many
OFFCORE_HOW = ("OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD on PMC0 / "
               "OFFCORE_REQUESTS.DEMAND_DATA_RD on PMC1")
PROPS = ("records", "data addresses in the buffer", "IPs in the kernel",
         "records+lost vs events/period", "records+lost vs accesses/period")


def core_type(cpu, n):
    return "P-core" if cpu < (n + 1) // 2 else "E-core"


def pow2_floor(v):
    p = 1
    while p * 2 <= v:
        p *= 2
    return p


def where(cpu, ct):
    return "cpu %d (APIC %d, %s)" % (cpu, cpu, ct)


def source(name, data_src, median, tsc_ghz):
    ns = median * 10 // (tsc_ghz * 10)
    return {"source": name, "data_src": data_src, "count": RECORDS, "share_permille": 1000,
            "with_latency": RECORDS, "lat_min": median, "lat_median": median,
            "lat_p90": median, "lat_p99": median, "lat_max": median, "lat_approx": False,
            "min_ns": ns, "median_ns": ns, "p90_ns": ns, "p99_ns": ns, "max_ns": ns,
            "histogram": [[pow2_floor(median), RECORDS]]}


def load_run(kname, level, src, data_src, median, cpu, ct, ua_short):
    levels = dict.fromkeys(("L1", "LFB", "L2", "L3", "Local RAM", "Remote RAM",
                            "Remote cache", "I/O or uncached", "Miss", "N/A"), 0)
    levels[level] = RECORDS
    why = ("%s hits 100.0%% >= 50.0%% (%d of %d); %d records (need >= 10); %s" %
           (level, RECORDS, RECORDS, RECORDS, where(cpu, ct)))
    return {"test": kname + "/load", "sampling": "load", "kind": "ldlat", "verdict": "PASS",
            "why": why, "cpu": cpu, "apic_id": cpu, "core_type": ct,
            "event": "event=0xcd,umask=0x1 (0x1cd) ldlat=3 on PMC1", "period": PERIOD,
            "events": ITERATIONS, "records": RECORDS, "record_bytes": RECORDS * 64, "lost": 0,
            "buffer_full": False, "lost_inferred": 0, "smis": 0,
            "record_kinds": {"precise": RECORDS, "non-precise": 0, "forced": 0}, "pmis": 0,
            "anomalies": 0, "format": 4, "uarch": ua_short,
            "fixed": [18000, ITERATIONS * median, ITERATIONS * median, 6 * ITERATIONS * median],
            "counts": {}, "loads": ITERATIONS, "stores": 0, "levels": levels, "locked": 0,
            "stlb_miss": 0, "hitm": 0, "blk_data": 0, "dla_in_buffer": RECORDS,
            "with_dla": RECORDS, "ip_in_kernel": RECORDS, "with_ip": RECORDS,
            "properties": [{"property": level + " hits", "state": "checked"}] +
            [{"property": p, "state": "checked"} for p in PROPS],
            "sources": [source(src, data_src, median, 3)]}


def calibration(pebs, cycles):
    ratio = pebs * 100 // cycles
    ok = ratio <= 115
    why = "PEBS %d / %d.00 cyc/load = %d.%02d, %sin 0.42..1.15" % (
        pebs, cycles, ratio // 100, ratio % 100, "" if ok else "not ")
    return {"state": "checked" if ok else "failed", "verdict": "PASS" if ok else "FAIL",
            "why": why, "loads": ITERATIONS, "cycles": ITERATIONS * cycles,
            "instructions": 18000, "cycles_per_load_x100": cycles * 100,
            "loop_instructions_per_load_x100": 200, "pebs_median": pebs,
            "ratio_x100": ratio * 100, "low_x100": cycles * 42, "high_x100": cycles * 115}


def verdict(name, v, why, cpu=None, ct=None, kernel=None, sampling=None):
    out = {"name": name, "verdict": v, "why": why}
    if cpu is not None:
        out.update({"cpu": cpu, "apic_id": cpu, "core_type": ct})
    if kernel is not None:
        out.update({"kernel": kernel, "sampling": sampling})
    return out


def document(n, odd):
    verdicts, kernels, tested, handoff = [], [], [], []
    for cpu in range(n):
        ct = core_type(cpu, n)
        ua, ua_short = UARCH[ct]
        counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
        for kname, what, size, medians, src, data_src, level in KERNELS:
            base = medians[ct] + cpu % 3  # a cycle or two between CPUs
            pebs = base + (WRONG_LATENCY if cpu == odd else 0)
            run = load_run(kname, level, src, data_src, pebs, cpu, ct, ua_short)
            k = {"kernel": kname, "what": what, "cpu": cpu, "size": size,
                 "iterations": ITERATIONS, "stride": 64, "offset": 0, "clipped": False,
                 "instrumented": True}
            vs = [verdict(run["test"], "PASS", run["why"], cpu, ct, kname, "load")]
            if kname != "chase-l2":
                # As the app writes it: an E-core cannot measure it (SKIP with why
                # only); a P-core's L1 chase is measured for contrast, not judged.
                if ct == "E-core":
                    off = {"verdict": "SKIP", "why": "on %s only one demand request type "
                           "can be measured" % ua}
                else:
                    off = {"weighted_cycles": 0, "requests": 0, "avg_latency_x100": 0,
                           "how": OFFCORE_HOW}
                if kname == "chase-dram":
                    if ct == "P-core":
                        off.update({"weighted_cycles": ITERATIONS * base,
                                    "requests": ITERATIONS, "avg_latency_x100": base * 100,
                                    "verdict": "PASS", "why": "average latency %d cycles "
                                    "over %d requests >= 60" % (base, ITERATIONS)})
                    vs.append(verdict(kname + "/offcore", off["verdict"],
                                      "offcore average latency: " + off["why"] + "; " +
                                      where(cpu, ct), cpu, ct, kname, "offcore"))
                k["offcore"] = off
            cal = calibration(pebs, base)
            k["latency_calibration"] = cal
            vs.append(verdict(kname + "/calibration", cal["verdict"],
                              cal["why"] + "; " + where(cpu, ct), cpu, ct, kname,
                              "calibration"))
            k["runs"] = [run]
            kernels.append(k)
            verdicts += vs
            for v in vs:
                counts[v["verdict"]] += 1
        tested.append({"cpu": cpu, "apic_id": cpu, "core_type": ct, "uarch": ua,
                       "passed": counts["PASS"], "failed": counts["FAIL"],
                       "skipped": counts["SKIP"]})
        handoff.append({"cpu": cpu, "read": True, "apic_id": cpu, "core_type": ct,
                        "found": [], "msrs": {"0x38f": "0xff", "0x38d": "0x0", "0x392": None},
                        "lvtpc": "0x10000", "smi_count": 0, "restored": True,
                        "differences": 0})
    if odd is not None:
        ct = core_type(odd, n)
        peers = [c for c in range(n) if core_type(c, n) == ct and c != odd]
        why = ("cpu %d differs from the other %d %s CPUs in chase-l1/load: latency median "
               "%d cycles" % (odd, len(peers), ct, KERNELS[0][3][ct] + odd % 3 + WRONG_LATENCY))
        verdicts.append(verdict("cpu-compare", "FAIL", why, odd, ct))
        tested[odd]["failed"] += 1
        kernels.append({"kernel": "cpu-compare", "runs": [{
            "test": "cpu-compare", "cpu": odd, "apic_id": odd, "core_type": ct,
            "differs_in": "chase-l1/load", "compared_with": peers, "verdict": "FAIL",
            "why": why}]})
    else:
        verdicts.append(verdict("cpu-compare", "PASS", "every CPU agrees with its type"))
        kernels.append({"kernel": "cpu-compare", "runs": [{
            "test": "cpu-compare", "verdict": "PASS", "why": "every CPU agrees with its type"}]})
    verdicts.append(verdict("firmware-handoff", "PASS",
                            "nothing left in the PMU of cpus 0-%d" % (n - 1)))
    verdicts.append(verdict("handoff-restored", "PASS",
                            "every MSR read at hand-off as found on cpus 0-%d" % (n - 1)))
    fails = sum(v["verdict"] == "FAIL" for v in verdicts)
    skips = sum(v["verdict"] == "SKIP" for v in verdicts)
    return {
        "results_version": 3, "pebsprobe": "synthetic", "simulated": True,
        "uarch": UARCH["P-core"][0], "cpu": "pebsprobe simulated Alder Lake P-core (06_97)",
        "family": 6, "model": 151, "cpus": n,
        "run": {"id": "0123456789abcdef", "time": "2026-11-27T12:00:00",
                "options": "pmu=sim model=adl cpus=all sim-fault=%s" % (
                    "cpu%d:wrong-latency" % odd if odd is not None else "none"),
                "firmware": {"vendor": "EDK II", "revision": "0x10000", "uefi": "2.70"},
                "smbios": {"manufacturer": "QEMU", "product": "Standard PC (Q35 + ICH9, 2009)"},
                "cpu": {"signature": "0x00090672", "family": 6, "model": 151, "stepping": 2,
                        "microcode": "0x35",
                        "brand": "pebsprobe simulated Alder Lake P-core (06_97)",
                        "perfmon_ext": None},
                "pebsprobe": "synthetic", "simulated": True, "sim_model": "adl"},
        "exit_status": 1 if fails else 0, "exit_meaning": "fail" if fails else "pass",
        "verdicts": verdicts, "errors": [], "cpus_tested": tested, "tsc_hz": 3200000000,
        "kernels": kernels, "handoff": handoff,
        "dumps": {"policy": "on", "all_cpus_up_to": 8, "cpus_left_out": max(0, n - 8),
                  "left_out": "8-%d" % (n - 1) if n > 8 else "", "every_dump": "0"},
        "summary": {"tests": len(verdicts), "failures": fails, "skipped": skips,
                    "environment_errors": 0}}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="gen_results.py",
                                 description="a synthetic results.json of many CPUs")
    ap.add_argument("--cpus", type=int, required=True, help="CPUs tested, 2..4096")
    ap.add_argument("--odd", type=int, default=None,
                    help="the CPU with wrong latencies (default: none)")
    ap.add_argument("-o", required=True, metavar="FILE", help="the file to write")
    a = ap.parse_args(argv)
    if not 2 <= a.cpus <= 4096:
        ap.error("--cpus %d: accepted 2..4096" % a.cpus)
    if a.odd is not None and not 0 <= a.odd < a.cpus:
        ap.error("--odd %d: accepted 0..%d" % (a.odd, a.cpus - 1))
    with open(a.o, "w") as f:
        json.dump(document(a.cpus, a.odd), f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
