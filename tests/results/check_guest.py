#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_guest - pebs-results --baseline between a bare-metal run and a KVM
guest run (tools/results/guest_rules.py, docs/KVM.md): a difference a guest
rule explains is expected and names the rule; every other stays a
regression.  One case per row: the baseline's and the guest's verdict, the
guest's hypervisor and rules, whether the comparison finds a regression."""

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "results"))
import baseline  # noqa: E402
import caselines  # noqa: E402
from results_file import load  # noqa: E402

LDLAT_SKIP = ("KVM guest: no load latency: MSR_PEBS_LD_LAT_THRESHOLD (3F6H) is not handled "
              "(rule kvm-no-ldlat; kvm/vmx/pmu_intel.c intel_pmu_get_msr/intel_pmu_set_msr)")
NO_PEBS = "KVM guest: no PEBS: ... (rule kvm-no-pebs; kvm/vmx/capabilities.h vmx_pebs_supported)"
CALIB = "no load record with a latency to compare"
ICX_RULES = ["kvm-no-adaptive", "kvm-no-ldlat", "kvm-no-frontend", "kvm-no-offcore-rsp"]


def doc(verdicts, hv="none", rules=(), model="icx", signature="0x000606a6"):
    """A minimal results.json: run.cpu with its hypervisor, the verdicts."""
    return {
        "results_version": 3, "family": 6, "model": 106, "simulated": True,
        "run": {"sim_model": model, "simulated": True,
                "cpu": {"signature": signature, "family": 6, "model": 106,
                        "hypervisor": {"name": hv, "guest_rules": [{"id": r} for r in rules]}}},
        "verdicts": [{"name": n, "verdict": v, "why": w} for n, v, w in verdicts],
    }


METAL = [("chase-l1/load", "PASS", "L1 hits 100%"), ("chase-l1/calibration", "PASS", "1.00")]

# name | baseline | guest run | regression expected
CASES = [
    ("ldlat SKIP naming its rule is expected",
     doc(METAL), doc([("chase-l1/load", "SKIP", LDLAT_SKIP),
                      ("chase-l1/calibration", "SKIP", CALIB)], "KVM", ICX_RULES), False),
    ("a SKIP that names no rule stays a regression",
     doc(METAL), doc([("chase-l1/load", "SKIP", "needs 2 CPUs, 1 available"),
                      ("chase-l1/calibration", "PASS", "1.00")], "KVM", ICX_RULES), True),
    ("a guest's FAIL stays a regression",
     doc(METAL), doc([("chase-l1/load", "FAIL", "#GP on rdmsr 0x3f6"),
                      ("chase-l1/calibration", "PASS", "1.00")], "KVM", ICX_RULES), True),
    ("a rule the guest does not have explains nothing",
     doc(METAL), doc([("chase-l1/load", "SKIP", LDLAT_SKIP),
                      ("chase-l1/calibration", "PASS", "1.00")], "KVM",
                     ["kvm-no-adaptive"]), True),
    ("calibration without load latency is kvm-no-ldlat's",
     doc(METAL), doc([("chase-l1/load", "PASS", "x"),
                      ("chase-l1/calibration", "SKIP", CALIB)], "KVM", ICX_RULES), False),
    ("calibration SKIP on a guest with load latency stays a regression",
     doc(METAL), doc([("chase-l1/load", "PASS", "x"),
                      ("chase-l1/calibration", "SKIP", CALIB)], "KVM",
                     ["kvm-no-adaptive"]), True),
    ("another part: nothing is explained",
     doc(METAL), doc([("chase-l1/load", "SKIP", LDLAT_SKIP),
                      ("chase-l1/calibration", "PASS", "1.00")], "KVM", ICX_RULES,
                     model="spr", signature="0x000806f8"), True),
    ("a guest baseline: nothing is explained",
     doc(METAL, "KVM", ICX_RULES), doc([("chase-l1/load", "SKIP", LDLAT_SKIP),
                                        ("chase-l1/calibration", "PASS", "1.00")],
                                       "KVM", ICX_RULES), True),
    ("a guest without PEBS: the verdicts gone are kvm-no-pebs's",
     doc(METAL), doc([("pebs", "SKIP", NO_PEBS)], "KVM", ["kvm-no-pebs"]), False),
    ("verdicts gone from a guest that still has PEBS stay regressions",
     doc(METAL), doc([("pebs", "SKIP", "no Debug Store")], "KVM", ["kvm-no-ldlat"]), True),
]


def main(tmp):
    for i, (name, old, new, want) in enumerate(CASES):
        paths = []
        for side, d in (("old", old), ("new", new)):
            p = os.path.join(tmp, "%d-%s.json" % (i, side))
            with open(p, "w", encoding="utf-8") as f:
                json.dump(d, f)
            paths.append(p)
        found = baseline.compare(load(paths[0]), load(paths[1]))
        reg = any(f.regression for f in found)
        named = all("rule kvm-" in f.text for f in found if f.kind in ("CHANGED", "GONE")
                    and not f.regression)
        caselines.report(reg == want and named, "guest-baseline: " + name,
                         "regression %s, expected %s: %s" % (
                             reg, want, " | ".join(f.line() for f in found)))


if __name__ == "__main__":
    TMP = tempfile.mkdtemp(prefix="pebsprobe-guest.")
    caselines.run(lambda: main(TMP), TMP)
