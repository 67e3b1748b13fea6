# SPDX-License-Identifier: MIT
"""baseline - compares a run with an earlier one, in the manner of CHIPSEC's
result comparison: every verdict that changed, and every (test, data source)
whose median latency moved by more than a threshold.

Regressions (the caller exits 1 on any):
  - a verdict that was PASS and is now FAIL or SKIP, or is gone;
  - a verdict that is FAIL now and was not FAIL before (new tests included);
  - a median that moved, either way, by more than BOTH thresholds:
    the relative one (default 25%) and the absolute one (default 10 cycles).
Both directions count: pebsprobe checks what the PMU reports, so a level
that suddenly reads much faster is as suspect as one that reads slower.
Medians are compared in core cycles as the records carry them, not in ns,
which depend on the TSC calibration.  Where either median was taken from a
power-of-two histogram bucket (lat_approx), it is only known to a factor of
2, so the relative threshold is raised to 100% for that pair.
"""

from dataclasses import dataclass

import guest_rules

DEFAULT_PCT = 25
DEFAULT_CYCLES = 10


@dataclass(eq=False)
class Finding:
    kind: str  # CHANGED, GONE, NEW, MEDIAN, SOURCE
    subject: str  # the test (and CPU) it is about
    text: str
    regression: bool

    def line(self):
        return "%-8s %s: %s%s" % (self.kind, self.subject, self.text,
                                  "  REGRESSION" if self.regression else "")


def _verdict_map(res):
    m = {}
    for v in res.verdicts:
        m.setdefault(v.key(), v)
    return m


def _source_map(res):
    m = {}
    for k in res.kernels:
        for r in k.runs:
            for s in r.sources:
                m[(r.test, r.cpu, s.name)] = s
    return m


def _subject(key):
    name, cpu = key[0], key[1]
    return name if cpu is None else "%s [cpu %d]" % (name, cpu)


def median_moved(old, new, pct, cycles):
    """(moved, percent change or None) for two medians in cycles."""
    delta = new.median - old.median
    if abs(delta) <= cycles:
        return False, None
    limit = max(pct, 100) if (old.approx or new.approx) else pct
    if old.median == 0:
        return True, None
    change = 100.0 * delta / old.median
    return abs(change) > limit, change


def compare(old, new, pct=DEFAULT_PCT, cycles=DEFAULT_CYCLES):
    """Findings, in the order of the new run's verdicts, then what is gone."""
    out = []
    om, nm = _verdict_map(old), _verdict_map(new)
    guest = guest_rules.Explainer(old, new)  # a KVM guest's expected SKIPs (docs/KVM.md)
    for key, v in nm.items():
        o = om.get(key)
        if o is None:
            out.append(Finding("NEW", _subject(key), "%s (not in the baseline)" % v.verdict,
                               v.verdict == "FAIL"))
        elif o.verdict != v.verdict:
            reg = (o.verdict == "PASS") or (v.verdict == "FAIL")
            rule = guest.rule_for(o, v) if reg else None
            out.append(Finding("CHANGED", _subject(key), "%s -> %s%s" % (
                o.verdict, v.verdict, guest_rules.note(rule) if rule else ""), reg and not rule))
    for key, o in om.items():
        if key not in nm:
            rule = guest.rule_for(o, None) if o.verdict == "PASS" else None
            out.append(Finding("GONE", _subject(key), "%s in the baseline, absent now%s" % (
                o.verdict, guest_rules.note(rule) if rule else ""),
                o.verdict == "PASS" and not rule))
    os_, ns = _source_map(old), _source_map(new)
    for key, s in ns.items():
        o = os_.get(key)
        subj = '%s "%s"' % (_subject(key[:2]), key[2])
        if o is None:
            out.append(Finding("SOURCE", subj, "new data source (%d records)" % s.count, False))
            continue
        if o.median is None or s.median is None or not o.with_latency or not s.with_latency:
            continue
        moved, change = median_moved(o, s, pct, cycles)
        if moved:
            how = "%+d cycles" % (s.median - o.median)
            if change is not None:
                how += ", %+.0f%%" % change
            out.append(Finding("MEDIAN", subj, "median %d -> %d cycles (%s)" %
                               (o.median, s.median, how), True))
    new_runs = {(k[0], k[1]) for k in ns}
    for key, o in os_.items():
        # A source gone from a run that still exists; a run that is gone
        # altogether is already reported with its verdict.
        if key not in ns and (key[0], key[1]) in new_runs:
            out.append(Finding("SOURCE", '%s "%s"' % (_subject(key[:2]), key[2]),
                               "data source gone (%d records in the baseline)" % o.count,
                               False))
    return out
