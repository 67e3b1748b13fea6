# SPDX-License-Identifier: MIT
"""compare.py OLD NEW CASE... - what must stay the same between two runs
of tests/refactor/sim_run.c (tests/host/check-refactor.sh), OLD/CASE and
NEW/CASE (each a console.txt, the exit status in rc and the run's
results.json): the exit status, the set of (verdict name, CPU, outcome) of
the console's verdict lines, and the set of keys of every results.json
object, by its path (list indices left out).  The words of the lines and
the values may change (the console was redesigned); these may not, but
for the keys INTENDED_KEYS names with their reason.
Then the comparison's own can-fail cases: OLD against a copy with one
verdict's outcome or one key changed must differ."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import caselines  # noqa: E402
from caselines import report  # noqa: E402

VERDICT = re.compile(r"^(PASS|FAIL|SKIP|ERROR): ([^:;]+?):")
# A verdict about one of several CPUs is named NAME@cpuN since the console's
# redesign (docs/OUTPUT.md); the CPU is compared on its own.
AT_CPU = re.compile(r"@cpu\d+$")
# Keys a later change added on purpose, by object path, each with why: a
# key only now that is not here still fails the comparison.
INTENDED_KEYS = {
    "$.kernels[].runs[]": {
        "ip_point": "exact-IP precision, docs/KERNELS.md \"Precision\"",
        "ip_exact": "exact-IP precision, docs/KERNELS.md \"Precision\"",
        "skid": "exact-IP precision, docs/KERNELS.md \"Precision\"",
        "page_kib": "the page size the kernel's buffer ran under (pebsprobe's own "
                    "4 KiB tables or the firmware's), docs/RESULTS.md RUN",
        "status_race": "records by Linux's status rule on formats 1 and 2, "
                       "docs/ERRATA.md",
    },
    "$.kernels[]": {
        "partner_cpu": "a two-CPU kernel's partner on another core, docs/RESULTS.md",
        "partner_package": "the partner's package, from the firmware's topology",
        "partner_core": "the partner's core, from the firmware's topology",
        "package": "the measured CPU's package, beside its partner's",
        "core": "the measured CPU's core, beside its partner's",
    },
    "$.handoff[].msrs": {
        "0x329": "PERF_METRICS read by the hand-off audit where fixed counter 3 counts",
    },
    "$.run.cpu": {
        "hypervisor": "the hypervisor and the guest rules that apply (pmu/guest.c), for "
                      "pebs-results --baseline across hosts, docs/KVM.md",
        "errata": "the errata rows that apply to the probed CPU, docs/ERRATA.md",
    },
    "$.handoff[]": {
        "status_unrestorable": "GLOBAL_STATUS bits STATUS_SET cannot set back, docs/RESULTS.md",
        "pmc_unrestorable": "GP counter values a 32-bit write cannot put back, docs/RESULTS.md",
    },
    "$.cpus_tested[]": {
        "errata": "the errata rows that apply to each CPU, docs/ERRATA.md",
    },
}


def intended(path):
    """The keys path may have gained on purpose; None: a path added whole."""
    for p, ks in INTENDED_KEYS.items():
        if any(path == p + "." + k or path.startswith((p + "." + k + ".", p + "." + k + "["))
               for k in ks):
            return None
    return set(INTENDED_KEYS.get(path, {}))


CPU = re.compile(r"\bcpu (\d+) \(")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def verdicts(lines):
    """The (name, CPU or '-', outcome) of each verdict line."""
    out = set()
    for line in lines:
        line = ANSI.sub("", line)
        m = VERDICT.match(line)
        if m:
            cpu = CPU.findall(line)
            out.add((AT_CPU.sub("", m.group(2)), cpu[-1] if cpu else "-", m.group(1)))
    return out


def keys(doc, path="$", out=None):
    """Path of every object -> the union of its keys (list items as [])."""
    out = {} if out is None else out
    if isinstance(doc, dict):
        out.setdefault(path, set()).update(doc)
        for k, v in doc.items():
            keys(v, path + "." + k, out)
    elif isinstance(doc, list):
        for v in doc:
            keys(v, path + "[]", out)
    return out


def load(d):
    """A run's console lines, exit status and results.json (None if absent)."""
    with open(os.path.join(d, "console.txt"), encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    with open(os.path.join(d, "rc"), encoding="utf-8") as f:
        rc = f.read().strip()
    doc = None
    if os.path.exists(os.path.join(d, "results.json")):
        with open(os.path.join(d, "results.json"), encoding="utf-8") as f:
            doc = json.load(f)
    return lines, rc, doc


def diff(old, new):
    """'' when the same, else what differs, shortly."""
    lo, rco, do = old
    ln, rcn, dn = new
    why = []
    if rco != rcn:
        why.append("exit status %s, now %s" % (rco, rcn))
    vo, vn = verdicts(lo), verdicts(ln)
    if vo != vn:
        why.append("verdicts only before: %s; only now: %s" %
                   (sorted(vo - vn)[:3], sorted(vn - vo)[:3]))
    ko, kn = keys(do) if do is not None else {}, keys(dn) if dn is not None else {}
    for p in sorted(set(ko) | set(kn)):
        extra = intended(p)
        if extra is None and p not in ko:
            continue
        if ko.get(p) != kn.get(p, set()) - (extra or set()):
            why.append("%s keys only before: %s; only now: %s" %
                       (p, sorted(ko.get(p, set()) - kn.get(p, set())),
                        sorted(kn.get(p, set()) - ko.get(p, set()))))
            break
    return "; ".join(why)


def main():
    ap = caselines.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("old", metavar="OLD", help="the baseline side's folder of cases")
    ap.add_argument("new", metavar="NEW", help="this tree's folder of cases")
    ap.add_argument("cases", nargs="*", metavar="CASE", help="the cases to compare")
    args = ap.parse_args()
    old_dir, new_dir, cases = args.old, args.new, args.cases
    first = None
    for case in cases:
        old, new = load(os.path.join(old_dir, case)), load(os.path.join(new_dir, case))
        first = first or old
        n = len(verdicts(old[0]))
        why = diff(old, new)
        if n == 0 or old[2] is None:
            why = why or "the baseline run gave no verdict line or no results.json"
        report(not why, "refactor: %s: exit %s, %d verdicts, %d results.json object paths as before"
               % (case, old[1], n, len(keys(old[2] or {}))), why)
    if first is None:
        return report(False, "refactor: no case given")
    # The comparison can fail: one outcome changed, one key renamed.
    lines, rc, doc = first
    flipped = [ANSI.sub("", s) for s in lines]
    i = next(i for i, s in enumerate(flipped) if VERDICT.match(s))
    word = VERDICT.match(flipped[i]).group(1)
    flipped[i] = ("PASS" if word != "PASS" else "FAIL") + flipped[i][len(word):]
    report(diff(first, (flipped, rc, doc)) != "", "refactor-can-fail: a verdict's outcome changed",
           "not seen")
    renamed = json.loads(json.dumps(doc))
    renamed["verdicts"][0]["outcome_renamed"] = renamed["verdicts"][0].pop("verdict")
    report(diff(first, (lines, rc, renamed)) != "", "refactor-can-fail: a results.json key renamed",
           "not seen")
    return caselines.status()


if __name__ == "__main__":
    caselines.run(main)
