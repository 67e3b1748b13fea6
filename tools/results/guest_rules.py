# SPDX-License-Identifier: MIT
"""guest_rules - which differences between a bare-metal run (the baseline) and
a KVM guest run of the same part the guest rules explain (docs/KVM.md).

A run's results.json names the hypervisor and the rules that applied in
run.cpu.hypervisor (pmu/guest.c).  A verdict that was PASS on bare metal
and is SKIP in the guest is expected when the SKIP names one of the guest's
rules ("rule kvm-no-ldlat"), or when a row below ties it to one; a verdict
gone from a guest that has no PEBS at all is expected when the guest's one
"pebs" SKIP names kvm-no-pebs or kvm-no-vpmu.  Everything else stays a
regression: a FAIL, a SKIP no rule explains, another part, or a baseline
that is itself a guest.
"""

import json
import re

# Verdicts a rule explains though their SKIP does not name it: (rule, name
# pattern, why pattern, the reason).  The calibration compares PEBS load
# latencies with the chase's cycles (docs/KERNELS.md), so without load
# latency it has no record to compare.
EXPLAINED = [
    ("kvm-no-ldlat", r"/calibration(@cpu\d+)?$", r"no load record with a latency",
     "calibration compares load-latency records"),
]

# The rules that take PEBS away whole: the guest's run is one "pebs" SKIP.
WHOLE_RUN = ("kvm-no-pebs", "kvm-no-vpmu")

RULE = re.compile(r"\brule (kvm-[a-z0-9-]+)")


def _guest(path):
    """(part, hypervisor name, [rule ids]) of a results file; part is
    (signature or family/model, sim model)."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        run = doc.get("run") or {}
        cpu = run.get("cpu") or {}
    except (OSError, ValueError, AttributeError):
        return None, "none", []
    hv = cpu.get("hypervisor") if isinstance(cpu, dict) else None
    hv = hv if isinstance(hv, dict) else {}
    rules = [r.get("id") for r in hv.get("guest_rules") or [] if isinstance(r, dict)]
    part = (cpu.get("signature") or (doc.get("family"), doc.get("model")), run.get("sim_model"))
    return part, hv.get("name", "none"), rules


class Explainer:
    """Built once per comparison; rule_for() names the rule that makes a
    regression expected, or None."""

    def __init__(self, old, new):
        opart, ohv, _ = _guest(old.path) if old.path else (None, "none", [])
        npart, nhv, self.rules = _guest(new.path) if new.path else (None, "none", [])
        self.active = (ohv == "none" and nhv == "KVM" and opart is not None
                       and opart == npart and bool(self.rules))
        self.whole = None
        if self.active:
            for v in new.verdicts:
                m = RULE.search(v.why or "")
                if v.name == "pebs" and v.verdict == "SKIP" and m and m.group(1) in WHOLE_RUN:
                    self.whole = m.group(1)

    def rule_for(self, old_v, new_v):
        """The rule that explains old_v (bare metal) becoming new_v (the guest's
        verdict, None when gone)."""
        if not self.active:
            return None
        if new_v is None:
            return self.whole if self.whole in self.rules else None
        if new_v.verdict != "SKIP":
            return None
        m = RULE.search(new_v.why or "")
        if m and m.group(1) in self.rules:
            return m.group(1)
        for rule, name, why, _ in EXPLAINED:
            if rule in self.rules and re.search(name, new_v.name) and re.search(why, new_v.why):
                return rule
        return None


def note(rule):
    """The words a finding gets when a rule explains it."""
    return "  expected: KVM rule %s" % rule
