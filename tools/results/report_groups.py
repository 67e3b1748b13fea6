# SPDX-License-Identifier: MIT
"""report_groups - which latency figures the report draws for a kernel run on
many CPUs: one per core type, its CPUs' records added up, and one for each
CPU that differs from its type (docs/REPORT.md "Histograms on many CPUs").

A CPU differs from its type when, in one of the kernel's samplings,
  - its verdict is not the one more than half of the type's CPUs have (no
    such verdict: every CPU of that sampling differs), or
  - a data source's median moved against the type's median by the baseline
    rules (more than --median-pct AND more than --median-cycles; 100% for a
    bucket median), the type's median being the median of its CPUs' medians.
A CPU of a type of one or two has no majority to differ from in medians:
with two, the lower median is the type's, so the higher one differs."""

from collections import Counter, OrderedDict
from dataclasses import dataclass, field

import baseline
from report_grid import cpu_ranges, type_label
from results_file import SamplingRun, Source

ODD_FIGURES = 16  # CPU figures per kernel at most; the rest are named in a note
_RANK = {"PASS": 0, "SKIP": 1, "FAIL": 2}


@dataclass(eq=False)
class Group:
    key: str  # data-group of the figure: "all", "type:P-core Golden Cove", "cpu:5"
    label: str  # what the figure is of, for its caption
    cpus: list
    runs: list  # the SamplingRuns drawn: added up for a type, the CPU's own for a CPU
    why: list = field(default_factory=list)  # why a CPU has its own figure


def _low_median(values):
    v = sorted(values)
    return v[(len(v) - 1) // 2]


def merge_sources(runs):
    """One Source per data-source name over runs of one sampling: counts and
    histogram bins added, the median the median of the runs' medians."""
    by = OrderedDict()
    for r in runs:
        for s in r.sources:
            by.setdefault(s.name, []).append(s)
    total = sum(s.count for ss in by.values() for s in ss) or 1
    out = []
    for name, ss in by.items():
        bins = Counter()
        for s in ss:
            for lo, n in s.histogram:
                bins[lo] += n
        meds = [s.median for s in ss if s.median is not None and s.with_latency]
        count = sum(s.count for s in ss)
        out.append(Source(name, count, count * 1000 // total,
                          sum(s.with_latency or 0 for s in ss),
                          _low_median(meds) if meds else None,
                          any(s.approx for s in ss), sorted(bins.items())))
    return out


def aggregate(runs, label):
    """One SamplingRun per test over runs (of one type): cpu None, core_type label."""
    by = OrderedDict()
    for r in runs:
        by.setdefault(r.test, []).append(r)
    out = []
    for test, rs in by.items():
        worst = max((r.verdict for r in rs), key=lambda v: _RANK.get(v, 0))
        out.append(SamplingRun(test, rs[0].kernel, rs[0].sampling, worst,
                               "%d CPUs: %s" % (len(rs), ", ".join(
                                   "%d %s" % (n, v) for v, n in Counter(
                                       r.verdict for r in rs).most_common())),
                               None, label, sum(r.records or 0 for r in rs),
                               merge_sources(rs), **_precision(rs)))
    return out


def _precision(runs):
    """The precision of runs added up: the lowest share of exact IPs of a CPU
    that had IPs (a figure's caption names its worst CPU), the skid bins and
    the IPs summed; nothing when no run records it."""
    measured = [r for r in runs if r.ip_exact is not None and r.with_ip != 0]
    if not measured:
        return {}
    skid = {}
    for r in measured:
        for b, n in (r.skid or {}).items():
            skid[b] = skid.get(b, 0) + n
    points = {r.ip_point for r in measured}
    return {"ip_exact": min(r.ip_exact for r in measured), "skid": skid or None,
            "ip_point": points.pop() if len(points) == 1 else None,
            "with_ip": None if any(r.with_ip is None for r in measured)
            else sum(r.with_ip for r in measured)}


def _odd(runs, pct, cycles):
    """{cpu: [why]} of the CPUs among runs (one type) that differ from the type."""
    odd = OrderedDict()
    by_test = OrderedDict()
    for r in runs:
        by_test.setdefault(r.test, []).append(r)
    for test, rs in by_test.items():
        if len(rs) < 2:
            continue
        verdict, n = Counter(r.verdict for r in rs).most_common(1)[0]
        majority = verdict if 2 * n > len(rs) else None
        for r in rs:
            if majority is None:
                odd.setdefault(r.cpu, []).append(
                    "%s %s, no verdict of most of its type's %d CPUs" % (test, r.verdict,
                                                                         len(rs)))
            elif r.verdict != majority:
                odd.setdefault(r.cpu, []).append("%s %s where its type is %s" %
                                                 (test, r.verdict, majority))
        typical = {s.name: s for s in merge_sources(rs)}
        for r in rs:
            for s in r.sources:
                t = typical.get(s.name)
                if t is None or t.median is None or s.median is None or not s.with_latency:
                    continue
                moved, _ = baseline.median_moved(t, s, pct, cycles)
                if moved:
                    odd.setdefault(r.cpu, []).append(
                        "%s %s: median %d cycles, its type's %d" % (test, s.name, s.median,
                                                                    t.median))
    return odd


def groups(kernel_runs, types, pct=baseline.DEFAULT_PCT, cycles=baseline.DEFAULT_CYCLES,
           also=None):
    """The figures of one kernel in one run: (groups, CPUs left without their
    own figure past ODD_FIGURES).  kernel_runs: every SamplingRun of the kernel
    (all CPUs); types: {cpu: (core_type, uarch)}; also: {cpu: why} CPUs to draw
    on their own whatever their type says (e.g. changed against run 1)."""
    if all(r.cpu is None for r in kernel_runs) or not any(r.sources for r in kernel_runs):
        return [Group("all", "", sorted({r.cpu for r in kernel_runs if r.cpu is not None}),
                      kernel_runs)], []
    by_type = OrderedDict()
    for r in kernel_runs:
        t = types.get(r.cpu, (r.core_type, None)) if r.cpu is not None else (None, None)
        by_type.setdefault(t, []).append(r)
    out, odd = [], OrderedDict()
    for (ct, ua), rs in by_type.items():
        cpus = sorted({r.cpu for r in rs if r.cpu is not None})
        if not cpus:
            where = "no CPU recorded"
        elif len(cpus) == 1:
            where = "cpu %d" % cpus[0]
        else:
            where = "cpus %s (%d), records added up" % (cpu_ranges(cpus), len(cpus))
        label = "%s: %s" % (type_label(ct, ua), where)
        drawn = rs if len(cpus) <= 1 else aggregate(rs, "%s, %d CPUs" % (
            type_label(ct, None), len(cpus)))
        out.append(Group("type:" + type_label(ct, ua), label, cpus, drawn))
        for cpu, why in _odd(rs, pct, cycles).items():
            odd.setdefault(cpu, []).extend(why)
    for cpu, why in (also or {}).items():
        if any(r.cpu == cpu for r in kernel_runs):
            odd.setdefault(cpu, []).append(why)
    alone = {g.cpus[0]: g for g in out if len(g.cpus) == 1}
    left = []
    for cpu in sorted(odd, key=lambda c: (c is None, c)):
        if cpu is None:
            continue
        if cpu in alone:  # the only CPU of its type: its type's figure is its own
            alone[cpu].why.extend(odd[cpu])
            continue
        if len(out) - len(by_type) >= ODD_FIGURES:  # the page stays readable
            left.append(cpu)
            continue
        ct, ua = types.get(cpu, (None, None))
        out.append(Group("cpu:%d" % cpu, "cpu %d (%s) differs: %s" % (
            cpu, type_label(ct, ua), "; ".join(odd[cpu])), [cpu],
            [r for r in kernel_runs if r.cpu == cpu], odd[cpu]))
    return out, left
