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

import textwrap
from dataclasses import dataclass, field
from typing import Optional

import report_grid

import guest_rules

DEFAULT_PCT = 25
DEFAULT_CYCLES = 10
WIDTH = 80


@dataclass(eq=False)
class Finding:
    kind: str  # CHANGED, GONE, NEW, MEDIAN, SOURCE
    name: str  # the test it is about
    text: str
    regression: bool
    cpus: list = field(default_factory=list)  # the CPUs it is about, [] for none
    source: Optional[str] = None  # the data source of a MEDIAN or SOURCE finding
    short: str = ""  # what the closing line says of it, "PASS -> FAIL"
    count: int = 1  # how many (test, CPU) differences it stands for

    @property
    def subject(self):
        out = self.name
        if len(self.cpus) == 1:
            out += " [cpu %d]" % self.cpus[0]
        elif self.cpus:
            out += " [cpus %s]" % report_grid.cpu_ranges(self.cpus)
        if self.source is not None:
            out += ' "%s"' % self.source
        return out

    def line(self):
        """The finding in lines of at most WIDTH columns."""
        return "\n".join(textwrap.wrap(
            "%-8s %s: %s%s" % (self.kind, self.subject, self.text,
                               "  REGRESSION" if self.regression else ""),
            width=WIDTH - 1, subsequent_indent=" " * 9, break_on_hyphens=False))


def group(findings):
    """One finding per kind, test, source and text across CPUs, in first-seen order:
    72 CPUs that each went PASS -> FAIL in one test are one line."""
    out, seen = [], {}
    for f in findings:
        key = (f.kind, f.name, f.source, f.text, f.regression)
        g = seen.get(key)
        if g is None or not f.cpus or not g.cpus:
            g = seen[key] = Finding(f.kind, f.name, f.text, f.regression, list(f.cpus), f.source,
                                    f.short, f.count)
            out.append(g)
        else:
            g.cpus.extend(f.cpus)
            g.count += f.count
    return out


def summary(findings):
    """The closing line: every regression named while WIDTH allows, the rest counted."""
    regs = [f for f in findings if f.regression]
    if not regs:
        return None
    n = sum(f.count for f in regs)
    head = "%d regression%s: " % (n, "" if n == 1 else "s")
    items = ["%s %s" % (f.subject, f.short or f.text) for f in regs]
    for k in range(len(items), -1, -1):
        more = "" if k == len(items) else \
            "%s+%d more above" % ("; " if k else "", len(items) - k)
        line = head + "; ".join(items[:k]) + more
        if len(line) < WIDTH or k == 0:
            return line


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


def _cpus(key):
    return [] if key[1] is None else [key[1]]


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
    moved = _moved_verdicts(om, nm)
    for key, v in nm.items():
        o = om.get(key)
        if key in moved:
            continue
        if o is None:
            out.append(Finding("NEW", key[0], "%s (not in the baseline)" % v.verdict,
                               v.verdict == "FAIL", _cpus(key), short="new " + v.verdict))
        elif o.verdict != v.verdict:
            reg = (o.verdict == "PASS") or (v.verdict == "FAIL")
            rule = guest.rule_for(o, v) if reg else None
            out.append(Finding("CHANGED", key[0], "%s -> %s%s" % (
                o.verdict, v.verdict, guest_rules.note(rule) if rule else ""),
                reg and not rule, _cpus(key)))
    out += list({id(f): f for f in moved.values()}.values())
    for key, o in om.items():
        if key not in nm and key not in moved:
            rule = guest.rule_for(o, None) if o.verdict == "PASS" else None
            out.append(Finding("GONE", key[0], "%s in the baseline, absent now%s" % (
                o.verdict, guest_rules.note(rule) if rule else ""),
                o.verdict == "PASS" and not rule, _cpus(key), short="gone"))
    os_, ns = _source_map(old), _source_map(new)
    for key, s in ns.items():
        o = os_.get(key)
        if o is None:
            out.append(Finding("SOURCE", key[0], "new data source (%d records)" % s.count,
                               False, _cpus(key), key[2]))
            continue
        if o.median is None or s.median is None or not o.with_latency or not s.with_latency:
            continue
        moved, change = median_moved(o, s, pct, cycles)
        if moved:
            how = "%+d cycles" % (s.median - o.median)
            if change is not None:
                how += ", %+.0f%%" % change
            out.append(Finding("MEDIAN", key[0], "median %d -> %d cycles (%s)" %
                               (o.median, s.median, how), True, _cpus(key), key[2],
                               "median %d -> %d" % (o.median, s.median)))
    new_runs = {(k[0], k[1]) for k in ns}
    for key, o in os_.items():
        # A source gone from a run that still exists; a run that is gone
        # altogether is already reported with its verdict.
        if key not in ns and (key[0], key[1]) in new_runs:
            out.append(Finding("SOURCE", key[0],
                               "data source gone (%d records in the baseline)" % o.count,
                               False, _cpus(key), key[2]))
    return out


def _moved_verdicts(om, nm):
    """A verdict of the whole job that names the CPU it is about (cpu-compare
    names the odd CPU, docs/RESULTS.md) moves between keys when its verdict
    changes: PASS of no CPU -> FAIL of cpus 3 and 9.  Where a test's keys are
    all gone on one side and all new on the other, it is one change, not NEW
    and GONE: {key: the CHANGED finding}, every key of it mapped to the one."""
    gone, new = {}, {}
    for key in om:
        if key not in nm:
            gone.setdefault(key[0], []).append(key)
    for key in nm:
        if key not in om:
            new.setdefault(key[0], []).append(key)
    out = {}
    for name in gone.keys() & new.keys():
        if any(k[0] == name for k in om if k in nm):
            continue  # the test has matching keys too: per-CPU changes, said per CPU
        was = sorted({om[k].verdict for k in gone[name]})
        now = sorted({nm[k].verdict for k in new[name]})

        def where(keys):
            cpus = sorted(k[1] for k in keys if k[1] is not None)
            if not cpus:
                return ""
            return " on cpu%s %s" % ("s" if len(cpus) > 1 else "", report_grid.cpu_ranges(cpus))
        text = "%s%s -> %s%s" % ("/".join(was), where(gone[name]), "/".join(now),
                                 where(new[name]))
        reg = "PASS" in was and now != ["PASS"] or "FAIL" in now
        f = Finding("CHANGED", name, text, reg, short=text)
        for k in gone[name] + new[name]:
            out[k] = f
    return out
