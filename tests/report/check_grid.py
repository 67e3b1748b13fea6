# SPDX-License-Identifier: MIT
"""check_grid.py - the HTML report's logic on many CPUs, as tables of cases:
the test x CPU grid (tools/results/report_grid.py: CPU ranges, rows, when
columns merge, what a changed cell says it was), the figures per core type
and per differing CPU (report_groups.py: which figures, why a CPU has its
own, how sources add up), the merged rows of the CPUs-tested table, and
the synthetic results of gen_results.py (read by the tools' own reader,
the same keys as the real run tests/results/v3-adl4.json at every level).
Expected values are worked out by hand from each case's input.
Prints PASS:/FAIL: lines."""

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "results"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, HERE)
import caselines  # noqa: E402
from caselines import report  # noqa: E402
import gen_results  # noqa: E402
import report_grid  # noqa: E402
import report_groups  # noqa: E402
import report_html  # noqa: E402
import results_file  # noqa: E402
from results_file import Results, SamplingRun, Source, Verdict  # noqa: E402

TMP = tempfile.mkdtemp(prefix="check-grid.")

# cpu_ranges: CPUs -> text
RANGES = (
    ([], ""),
    ([0], "0"),
    ([0, 1, 2, 3, 5, 7, 8, 9], "0-3,5,7-9"),
    ([3, 1, 2], "1-3"),
    ([0, 2, 4], "0,2,4"),
)

# row_name: verdict name -> grid row
ROW_NAMES = (
    ("chase-l1/load@cpu3", "chase-l1/load"),
    ("cpu-compare", "cpu-compare"),
    ("chase-l1/load@cpux", "chase-l1/load@cpux"),
)


def res_of(cpus, ref_of=None):
    """A Results from [(cpu, core type, {row: verdict})]."""
    r = Results()
    r.cpus_tested = [{"cpu": c, "apic_id": c, "core_type": ct, "uarch": ct and ct[0]}
                     for c, ct, _ in cpus]
    for c, ct, vs in cpus:
        for name, v in vs.items():
            r.verdicts.append(Verdict(name, v, "why %s %d" % (name, c), cpu=c, core_type=ct))
    return r


P, F, S = "PASS", "FAIL", "SKIP"
ALL4 = [(c, "P-core", {"a/load": P, "b/load": P}) for c in range(4)]
ONE_FAIL = [(c, "P-core", {"a/load": F if c == 2 else P, "b/load": P}) for c in range(4)]
TWO_TYPES = [(c, "P-core" if c < 2 else "E-core", {"a/load": P}) for c in range(4)]
ONE_ABSENT = [(c, "P-core", {"a/load": P, "b/load": P} if c != 1 else {"a/load": P})
              for c in range(4)]
CHANGED = [(c, "P-core", {"a/load": F if c in (2, 3) else P}) for c in range(4)]
BEFORE = [(c, "P-core", {"a/load": F if c == 2 else P}) for c in range(4)]

# name, CPUs, reference CPUs or None, column limit -> columns' CPUs, {cpu: was} of a/load
COLLAPSE = (
    ("under the limit: a column per CPU", ALL4, None, 64, [[0], [1], [2], [3]], {}),
    ("past the limit: equal CPUs share a column", ALL4, None, 2, [[0, 1, 2, 3]], {}),
    ("a FAIL keeps its own column", ONE_FAIL, None, 2, [[0, 1], [2], [3]], {}),
    ("core types never share a column", TWO_TYPES, None, 2, [[0, 1], [2, 3]], {}),
    ("a CPU without a row's verdict is apart", ONE_ABSENT, None, 2, [[0], [1], [2, 3]], {}),
    ("a changed cell names what it was, only there", CHANGED, BEFORE, 2,
     [[0, 1], [2], [3]], {3: "PASS"}),
    ("new against the reference: was absent", ALL4,
     [(c, "P-core", {"a/load": P, "b/load": P} if c else {"b/load": P}) for c in range(4)], 64,
     [[0], [1], [2], [3]], {0: "absent"}),
)


def check_grid():
    for cpus, want in RANGES:
        got = report_grid.cpu_ranges(cpus)
        report(got == want, "grid: cpu_ranges(%s) = %r" % (cpus, want), "got %r" % got)
    for name, want in ROW_NAMES:
        got = report_grid.row_name(name)
        report(got == want, "grid: row of %s is %s" % (name, want), "got %r" % got)
    for name, cpus, ref, limit, want, was in COLLAPSE:
        r = res_of(cpus)
        cols = report_grid.collapse(report_grid.columns(r, res_of(ref) if ref else None),
                                    limit)
        got = [c.cpus for c in cols]
        got_was = {c.cpus[0]: c.cells["a/load"].was for c in cols
                   if c.cells["a/load"].was is not None}
        report(got == want and got_was == was, "grid: %s" % name,
               "columns %s, was %s; want %s, %s" % (got, got_was, want, was))
    # The HTML of a 4-CPU grid: one cell per row and CPU, classes by verdict.
    html = report_grid.grid_html(res_of(ONE_FAIL), 0)
    report(html.count('<td class="c ') == 8 and html.count('class="c FAIL"') == 1 and
           html.count('class="cpu bad"') == 1 and 'data-cpus="2" title="a/load on cpu 2'
           in html, "grid: html: 8 cells, one FAIL, its CPU's header marked", html[:300])
    report(report_grid.grid_html(Results(), 0) == "",
           "grid: html: nothing when no verdict names a CPU")


def tested(n, odd):
    return [{"cpu": c, "apic_id": 2 * c, "core_type": "P-core", "uarch": "u", "passed": 7,
             "failed": 1 if c == odd else 0, "skipped": 0} for c in range(n)]


# CPUs tested, the odd one -> the table's (CPU, APIC ID) cells
CPU_ROWS = (
    ("up to the limit: a row per CPU", 3, 1, [("0", "0"), ("1", "2"), ("2", "4")]),
    ("past it: equal rows merge, the odd one apart", 70, 40,
     [("0-39", "0..78 (40 IDs)"), ("40", "80"), ("41-69", "82..138 (29 IDs)")]),
)


def check_cpu_rows():
    for name, n, odd, want in CPU_ROWS:
        got = [(cpus, apics) for _, cpus, apics in report_html._cpu_rows(tested(n, odd))]
        report(got == want, "cpu table: %s" % name, "got %s" % got[:4])


def src(name, median, hist, count=None):
    count = sum(n for _, n in hist) if count is None else count
    return Source(name, count, 1000, count, median, False, hist)


def run(cpu, ct, median, verdict="PASS", test="k/load"):
    return SamplingRun(test, "k", "load", verdict, "", cpu, ct, 10,
                       [src("L1", median, [(4, 10)])])


def types_of(runs):
    return {r.cpu: (r.core_type, None) for r in runs}


MEDIANS = [(0, "P-core", 5), (1, "P-core", 6), (2, "E-core", 4), (3, "E-core", 5)]
ODD_E = MEDIANS + [(4, "E-core", 1004)]
THREE_P = [(0, "P-core", 5, "PASS"), (1, "P-core", 5, "FAIL"), (2, "P-core", 6, "PASS")]
TWO_E = [(0, "E-core", 4, "PASS"), (1, "E-core", 4, "FAIL")]
ALONE = [(0, "P-core", 5), (1, "P-core", 5), (2, "E-core", 1004)]
MANY = [(c, "P-core", 1000 if c % 2 else 5) for c in range(41)]

# name, runs, also -> figure keys, CPUs left without a figure
GROUPS = (
    ("no CPU recorded: one figure", [SamplingRun("k/load", "k", "load", "PASS", "", None,
                                                 None, 10, [src("L1", 5, [(4, 10)])])],
     None, ["all"], []),
    ("two types, no odd CPU", [run(c, t, m) for c, t, m in MEDIANS], None,
     ["type:P-core", "type:E-core"], []),
    ("a median far from its type's", [run(c, t, m) for c, t, m in ODD_E], None,
     ["type:P-core", "type:E-core", "cpu:4"], []),
    ("a verdict unlike most of its type's", [run(c, t, m, v) for c, t, m, v in THREE_P], None,
     ["type:P-core", "cpu:1"], []),
    ("two CPUs, two verdicts: no majority, both", [run(c, t, m, v) for c, t, m, v in TWO_E],
     None, ["type:E-core", "cpu:0", "cpu:1"], []),
    ("the only CPU of its type: no second figure", [run(c, t, m) for c, t, m in ALONE], None,
     ["type:P-core", "type:E-core"], []),
    ("changed against run 1: its own figure", [run(c, t, m) for c, t, m in MEDIANS],
     {1: "changed"}, ["type:P-core", "type:E-core", "cpu:1"], []),
    ("past %d odd CPUs the rest are named" % report_groups.ODD_FIGURES,
     [run(c, t, m) for c, t, m in MANY], None,
     ["type:P-core"] + ["cpu:%d" % c for c in range(1, 33, 2)], [33, 35, 37, 39]),
)


def check_groups():
    for name, runs, also, want, want_left in GROUPS:
        gs, left = report_groups.groups(runs, types_of(runs), also=also)
        got = [g.key for g in gs]
        report(got == want and left == want_left, "groups: %s" % name,
               "got %s left %s; want %s left %s" % (got, left, want, want_left))
    # Two CPUs' L1 records added up; the median is the lower of the two medians.
    a = SamplingRun("k/load", "k", "load", "PASS", "", 0, "P-core", 10,
                    [src("L1", 5, [(4, 10)])])
    b = SamplingRun("k/load", "k", "load", "PASS", "", 1, "P-core", 10,
                    [src("L1", 9, [(4, 5), (8, 5)]), src("L2", 15, [(8, 2)])])
    m = report_groups.merge_sources([a, b])
    got = [(s.name, s.count, s.share_permille, s.median, s.histogram) for s in m]
    want = [("L1", 20, 909, 5, [(4, 15), (8, 5)]), ("L2", 2, 90, 15, [(8, 2)])]
    report(got == want, "groups: merge_sources adds counts and bins", "got %s" % got)
    agg = report_groups.aggregate([a, b], "P-core, 2 CPUs")
    report(len(agg) == 1 and agg[0].cpu is None and agg[0].records == 20 and
           agg[0].core_type == "P-core, 2 CPUs", "groups: aggregate: one run, no CPU",
           "got %s" % [(x.test, x.cpu, x.records, x.core_type) for x in agg])
    check_aggregate_precision()


def precise(cpu, ip_exact, with_ip, skid):
    r = run(cpu, "P-core", 5)
    r.ip_exact, r.with_ip, r.skid, r.ip_point = ip_exact, with_ip, skid, "at"
    return r


# name, the CPUs' (ip_exact, with_ip, skid) -> the figure's (ip_exact, with_ip, skid)
# (the lowest share of a CPU with IPs: its caption names the worst CPU)
PRECISION = (
    ("two CPUs: the lower share, the bins and IPs summed",
     [(1000, 10, {"0": 10, "1": 0}), (800, 10, {"0": 8, "1": 2})],
     (800, 20, {"0": 18, "1": 2})),
    ("a CPU without IPs does not count as 0%",
     [(1000, 10, {"0": 10, "1": 0}), (0, 0, {"0": 0, "1": 0})],
     (1000, 10, {"0": 10, "1": 0})),
    ("no CPU records it: none", [(None, None, None), (None, None, None)],
     (None, None, None)),
)


def check_aggregate_precision():
    """A figure of several CPUs keeps their precision for its caption."""
    for name, cpus, want in PRECISION:
        agg = report_groups.aggregate([precise(c, *p) for c, p in enumerate(cpus)],
                                      "P-core, %d CPUs" % len(cpus))
        got = (agg[0].ip_exact, agg[0].with_ip, agg[0].skid)
        report(got == want, "groups: aggregate precision: %s" % name,
               "got %s, want %s" % (got, want))


def key_sets(doc):
    """{what: set of keys} of the objects of a results document, by kind."""
    out = {"top": set(doc), "run": set(doc["run"]), "run.cpu": set(doc["run"]["cpu"]),
           "summary": set(doc["summary"]), "dumps": set(doc["dumps"])}
    for v in doc["verdicts"]:
        kind = "verdict" + ("+cpu" if "cpu" in v else "") + ("+kernel" if "kernel" in v else "")
        out.setdefault(kind, set()).update(v)
    out["cpus_tested"] = set().union(*(set(c) for c in doc["cpus_tested"]))
    out["handoff"] = set().union(*(set(h) for h in doc["handoff"]))
    for k in doc["kernels"]:
        out.setdefault("kernel " + k["kernel"], set()).update(k)
        for r in k.get("runs", []):
            out.setdefault("run " + (r.get("sampling") or r["test"]), set()).update(r)
            for s in r.get("sources", []):
                out.setdefault("source", set()).update(s)
        if "latency_calibration" in k:
            out.setdefault("calibration", set()).update(k["latency_calibration"])
        if "offcore" in k:
            out.setdefault("offcore " + k["kernel"], set()).update(k["offcore"])
    return out


def check_generator():
    real = key_sets(json.load(open(os.path.join(ROOT, "tests", "results", "v3-adl4.json"))))
    for n, odd in ((64, 37), (576, 300), (4, None)):
        path = os.path.join(TMP, "s%d.json" % n)
        rc = gen_results.main(["--cpus", str(n), "-o", path] +
                              (["--odd", str(odd)] if odd is not None else []))
        try:
            res = results_file.load(path)
            err = None
        except results_file.ResultsError as e:
            res, err = None, str(e)
        report(rc == 0 and res is not None, "generator: %d CPUs: the tools' reader takes it" % n,
               "rc %d, %s" % (rc, err))
        if res is None:
            continue
        failed = [c["cpu"] for c in res.cpus_tested if c["failed"]]
        cpus = sorted({v.cpu for v in res.verdicts if v.cpu is not None})
        report(len(res.cpus_tested) == n and cpus == list(range(n)) and
               failed == ([odd] if odd is not None else []) and not res.notes,
               "generator: %d CPUs: every CPU's verdicts, only cpu %s fails" % (n, odd),
               "%d tested, verdict CPUs %d, failed %s, notes %s" % (
                   len(res.cpus_tested), len(cpus), failed, res.notes))
        mine = key_sets(json.load(open(path)))
        diff = {k: (sorted(real[k] - mine.get(k, set())), sorted(mine.get(k, set()) - real[k]))
                for k in real if real[k] != mine.get(k)}
        # The real run passed cpu-compare on no CPU: its PASS form is not in it.
        if odd is None:
            diff.pop("run cpu-compare", None)
            diff.pop("verdict+cpu", None)
        extra = sorted(set(mine) - set(real) - {"verdict"})
        report(not diff and not extra, "generator: %d CPUs: the real run's keys at every "
               "level (%s)" % (n, os.path.join("tests", "results", "v3-adl4.json")),
               "missing/extra %s, kinds not in the real run %s" % (diff, extra))


def main():
    check_grid()
    check_groups()
    check_cpu_rows()
    check_generator()
    return 1 if caselines.failed else 0


if __name__ == "__main__":
    sys.exit(main())
