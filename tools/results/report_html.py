# SPDX-License-Identifier: MIT
"""report_html - one self-contained HTML page for one or more runs: inline
CSS and SVG, no script, no network (a Content-Security-Policy forbids any
fetch).  Runs are columns side by side; the first is the reference, and
what differs from it is marked (verdicts, identity, medians that moved by
the baseline rules)."""

import datetime
from collections import Counter
from html import escape

import baseline
import report_grid
import report_groups
from report_svg import kernel_figure

CSS = """
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.2em;color:#222}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}
h3{font-size:1.05em;margin:1.2em 0 .3em}
table{border-collapse:collapse;margin:.4em 0}
th,td{border:1px solid #d0d0d0;padding:2px 7px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right}
.PASS{background:#dff3e3;color:#145a2a;font-weight:600}
.FAIL{background:#f8d7d7;color:#8b1a1a;font-weight:600}
.SKIP{background:#f1ecd8;color:#6b5a16;font-weight:600}
.none{color:#999}
td.changed,th.changed{outline:3px solid #d62728;outline-offset:-3px}
.was{display:block;font-size:.8em;font-weight:400;color:#8b1a1a}
.why{display:block;font-size:.8em;font-weight:400;color:#444;max-width:34em}
.runs{display:grid;gap:14px;align-items:start}
figure{margin:0;border:1px solid #ddd;padding:4px;background:#fff}
figure.odd{border:2px solid #e6850e}figure.changed{border:2px solid #d62728}
figcaption{font-size:.85em;color:#555;max-width:460px}
.changes li.reg{color:#8b1a1a;font-weight:600}
table.grid td.c{padding:0;width:15px;height:15px;text-align:center;font-size:9px;
border:1px solid #fff}
table.grid td.none{background:#eee;color:#aaa;font-weight:400}
table.grid td.changed{outline:2px solid #d62728;outline-offset:-2px}
table.grid th{font-size:.85em;white-space:nowrap}
table.grid th.cpu{padding:1px 0;font-weight:400;font-size:9px;vertical-align:bottom}
table.grid th.cpu span{writing-mode:vertical-rl;transform:rotate(180deg)}
table.grid th.bad{background:#f8d7d7;color:#8b1a1a;font-weight:600}
table.grid th.changed{outline:2px solid #d62728;outline-offset:-2px}
table.grid th.type{text-align:center;font-weight:400}
svg text{font:10px sans-serif;fill:#333}
svg .pt{font-weight:600}svg .cnt{text-anchor:middle;font-size:9px}svg .cnt.in{fill:#fff}
svg .note{fill:#777;font-style:italic;text-anchor:start}
svg .tl{text-anchor:middle;fill:#555}svg .al{fill:#555}
svg .ax,svg .tk{stroke:#888;stroke-width:1}
svg line.med{stroke:#000;stroke-width:1.5;stroke-dasharray:4 2}
svg text.med{font-weight:600}
svg path.med{fill:#000}svg .sl{fill:#fff;font-weight:600}
svg line.med.changed{stroke:#d62728}svg text.med.changed,svg path.med.changed{fill:#d62728}
"""

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _cell(text, cls=None, title=None):
    attrs = ""
    if cls:
        attrs += ' class="%s"' % cls
    if title:
        attrs += ' title="%s"' % escape(title)
    return "<td%s>%s</td>" % (attrs, text)


def run_title(i, res):
    return "run %d: %s" % (i + 1, res.path)


def identity_table(runs):
    labels = []
    for r in runs:
        for k, _ in r.identity:
            if k not in labels:
                labels.append(k)
    rows = ["<table><tr><th></th>%s</tr>" % "".join(
        "<th>%s</th>" % escape(run_title(i, r)) for i, r in enumerate(runs))]
    rows.append("<tr><th>results version</th>%s</tr>" % "".join(
        _cell(str(r.version), "changed" if i and r.version != runs[0].version else None)
        for i, r in enumerate(runs)))
    for k in labels:
        cells = []
        first = dict(runs[0].identity).get(k)
        for i, r in enumerate(runs):
            v = dict(r.identity).get(k)
            text = escape(str(v)) if v is not None else '<span class="none">not recorded</span>'
            cells.append(_cell(text, "changed" if i and v != first else None))
        rows.append("<tr><th>%s</th>%s</tr>" % (escape(k), "".join(cells)))
    rows.append("<tr><th>verdicts</th>%s</tr>" % "".join(
        _cell("%d PASS, %d FAIL, %d SKIP" % (c["PASS"], c["FAIL"], c["SKIP"]))
        for c in (r.counts() for r in runs)))
    rows.append("<tr><th>exit status</th>%s</tr>" % "".join(
        _cell(escape("%d (%s)" % (r.exit_status, r.exit_meaning or "")) if r.exit_status is not None
              else '<span class="none">not recorded</span>') for r in runs))
    rows.append("</table>")
    return "\n".join(rows)


def verdict_table(runs):
    """The verdicts about no one CPU (every verdict of a version-1 file): one
    row per test, one column per run.  Those about a CPU are in the grids."""
    keys = []
    for r in runs:
        for v in r.verdicts:
            if v.cpu is None and v.key() not in keys:
                keys.append(v.key())
    if not keys:
        return "<p>Every verdict names its CPU: see the grid%s above.</p>" % (
            "s" if len(runs) > 1 else "")
    maps = [{v.key(): v for v in r.verdicts} for r in runs]
    rows = ['<table class="verdicts"><tr><th>test</th>%s</tr>' % "".join(
        "<th>run %d</th>" % (i + 1) for i in range(len(runs)))]
    for key in keys:
        name = key[0]
        cells = []
        first = maps[0].get(key)
        for i, m in enumerate(maps):
            v = m.get(key)
            if v is None:
                text, cls = '<span class="none">absent</span>', None
            else:
                text, cls = v.verdict, v.verdict
                if v.verdict != "PASS" and v.why:
                    text += '<span class="why">%s</span>' % escape(v.why)
            differs = (v is None) != (first is None) or (v and first and
                                                         v.verdict != first.verdict)
            if i and differs:
                cls = (cls or "") + " changed"
                text += '<span class="was">was %s</span>' % (first.verdict if first else "absent")
            cells.append(_cell(text, cls, v.why if v else None))
        rows.append("<tr><th>%s</th>%s</tr>" % (escape(name), "".join(cells)))
    rows.append("</table>")
    return "\n".join(rows)


def grids(runs):
    """One test x CPU grid per run that has verdicts about CPUs (report_grid)."""
    out = []
    for i, r in enumerate(runs):
        g = report_grid.grid_html(r, i, runs[0] if i else None)
        if g:
            out.append("<h3>%s: by test and CPU</h3>%s" % (escape(run_title(i, r)), g))
    if not out:
        return ""
    return ("<p>A cell per test and CPU: PASS green, FAIL red, SKIP yellow, grey where the "
            "CPU has no such verdict; hover for why.%s A CPU with a FAIL has its number in "
            "red.%s</p>" % (
                (" A red frame: the verdict changed against run 1 (hover: what it was)."
                 if len(runs) > 1 else ""),
                " Past %d CPUs, adjacent CPUs of one type whose every cell agrees share a "
                "column." % report_grid.GRID_COLUMNS)) + "\n".join(out)


def _cpu_rows(cpus_tested):
    """cpus_tested's rows; past GRID_COLUMNS CPUs, adjacent rows that agree in
    everything but the CPU and APIC ID become one (their CPUs as ranges)."""
    keys = ("core_type", "uarch", "passed", "failed", "skipped")
    rows = [(dict(c), [c.get("cpu")], [c.get("apic_id")]) for c in cpus_tested]
    if len(rows) <= report_grid.GRID_COLUMNS:
        return [(c, str(c["cpu"]) if c["cpu"] is not None else None,
                 str(c["apic_id"]) if c["apic_id"] is not None else None) for c, _, _ in rows]
    out = []
    for c, cpus, apics in rows:
        if out and all(out[-1][0].get(k) == c.get(k) for k in keys) and None not in cpus + apics:
            out[-1][1].extend(cpus)
            out[-1][2].extend(apics)
        else:
            out.append((c, list(cpus), list(apics)))
    return [(c, report_grid.cpu_ranges(cpus) if None not in cpus else None,
             _id_ranges(apics) if None not in apics else None) for c, cpus, apics in out]


def _id_ranges(ids):
    """APIC IDs as ranges; IDs with gaps (e.g. one per core) as lowest..highest and a count."""
    text = report_grid.cpu_ranges(ids)
    if text.count(",") < 3:
        return text
    return "%d..%d (%d IDs)" % (min(ids), max(ids), len(ids))


def cpu_tables(runs):
    out = []
    for i, r in enumerate(runs):
        if r.cpus_tested is None:
            out.append("<p>%s: per-CPU results not recorded (results version %d).</p>" %
                       (escape(run_title(i, r)), r.version))
            continue
        if len(r.cpus_tested) < 2:
            out.append("<p>%s: one CPU tested.</p>" % escape(run_title(i, r)))
            continue
        rows = ["<h3>%s</h3><table class=\"cpus\"><tr><th>cpu</th><th>APIC ID</th>"
                "<th>core type</th><th>uarch</th><th>passed</th><th>failed</th>"
                "<th>skipped</th></tr>" %
                escape(run_title(i, r))]
        for c, cpus, apics in _cpu_rows(r.cpus_tested):
            vals = [cpus, apics] + [c.get(k) for k in ("core_type", "uarch", "passed", "failed",
                                                       "skipped")]
            cells = []
            for j, v in enumerate(vals):
                text = "-" if v is None else escape(str(v))
                cls = "num" if j in (0, 1, 4, 5, 6) else None
                if j == 5 and v:
                    cls = "num FAIL"
                cells.append(_cell(text, cls))
            rows.append("<tr>%s</tr>" % "".join(cells))
        rows.append("</table>")
        out.append("\n".join(rows))
    return "\n".join(out)


def changes_list(runs, pct, cycles):
    """Findings of each later run against the first (baseline rules), and the
    moved medians by (run index) -> {(test, cpu, source): text}."""
    html, moved = [], {}
    for i, r in enumerate(runs[1:], 1):
        found = baseline.group(baseline.compare(runs[0], r, pct, cycles))
        moved[i] = {}
        for k in r.kernels:
            for sr in k.runs:
                for s in sr.sources:
                    o = _old_source(runs[0], sr, s)
                    if o is None or o.median is None or s.median is None:
                        continue
                    if not o.with_latency or not s.with_latency:
                        continue
                    yes, _ = baseline.median_moved(o, s, pct, cycles)
                    if yes:
                        moved[i][(sr.test, sr.cpu, s.name)] = "was %d" % o.median
        items = "".join('<li class="%s">%s</li>' % ("reg" if f.regression else "",
                                                    escape(f.line())) for f in found)
        html.append("<h3>%s against run 1</h3>%s" % (
            escape(run_title(i, r)),
            '<ul class="changes">%s</ul>' % items if found else "<p>no difference</p>"))
    return "\n".join(html), moved


def _old_source(old, sr, s):
    for k in old.kernels:
        for r in k.runs:
            if r.test == sr.test and r.cpu == sr.cpu:
                for o in r.sources:
                    if o.name == s.name:
                        return o
    return None


def _kernel_runs(res, name):
    return [sr for k in res.kernels if k.name == name for sr in k.runs]


def _calibrations(res, name):
    """{cpu: Calibration} of a kernel (a real file has one kernel object per CPU)."""
    out = {}
    for k in res.kernels:
        if k.name == name and k.calibration is not None:
            out.setdefault(next((r.cpu for r in k.runs if r.cpu is not None), None),
                           k.calibration)
    return out


def _calibration_text(cals, cpus):
    """The latency calibration of a figure's CPUs: the one verdict, or the counts."""
    mine = [(c, cals[c]) for c in (cpus or [None]) if c in cals]
    if not mine:
        return ""
    if len(mine) == 1:
        cal = mine[0][1]
        # PEBS latency median against the cycles per load counted without PEBS.
        return "<br>latency calibration: %s%s" % (
            escape(cal.verdict + ": " if cal.verdict else ""), escape(cal.why))
    counts = Counter(cal.verdict or "not judged" for _, cal in mine)
    bad = [c for c, cal in mine if cal.verdict in ("FAIL", "SKIP")]
    return "<br>latency calibration: %s%s" % (
        escape(", ".join("%d %s" % (n, v) for v, n in counts.most_common())),
        escape(" (FAIL or SKIP on cpu %s)" % report_grid.cpu_ranges(bad)) if bad else "")


def _changed_cpus(res, ref, name, moved_i):
    """{cpu: why} of the CPUs whose sampling verdict or median changed against ref."""
    out = {}
    old = {(r.test, r.cpu): r.verdict for r in _kernel_runs(ref, name)}
    for r in _kernel_runs(res, name):
        if r.cpu is None:
            continue
        o = old.get((r.test, r.cpu))
        if o is not None and o != r.verdict:
            out[r.cpu] = "changed against run 1: %s %s, was %s" % (r.test, r.verdict, o)
    for (test, cpu, src), text in moved_i.items():
        if cpu is not None and any(r.test == test and r.cpu == cpu
                                   for r in _kernel_runs(res, name)):
            out.setdefault(cpu, "changed against run 1: %s %s median %s" % (test, src, text))
    return out


def _group_changes(group, ref_groups, moved_i, pct, cycles):
    """{(test, cpu, source): text} of the medians of one figure that moved
    against run 1: a CPU's own against the same CPU's; a type's added-up
    medians against the same type's in run 1."""
    mine = {key: t for key, t in moved_i.items()
            if any(sr.test == key[0] and sr.cpu == key[1] for sr in group.runs)}
    ref = next((g for g in ref_groups if g.key == group.key), None)
    if ref is None or group.key.startswith("cpu:"):
        return mine
    old = {(r.test, s.name): s for r in ref.runs if r.cpu is None for s in r.sources}
    for r in group.runs:
        if r.cpu is not None:
            continue
        for s in r.sources:
            o = old.get((r.test, s.name))
            if o is None or o.median is None or s.median is None:
                continue
            if o.with_latency and s.with_latency and \
                    baseline.median_moved(o, s, pct, cycles)[0]:
                mine[(r.test, None, s.name)] = "was %d" % o.median
    return mine


def kernel_sections(runs, moved, pct=baseline.DEFAULT_PCT, cycles=baseline.DEFAULT_CYCLES):
    """Per kernel, a row of figures (one per run) for each group of CPUs:
    each core type (added up), each CPU that differs from its type or changed
    against run 1 (report_groups)."""
    names = []
    for r in runs:
        for k in r.kernels:
            if k.name not in names:
                names.append(k.name)
    out = []
    cols = "repeat(%d, max-content)" % len(runs) if len(runs) > 1 else \
        "repeat(auto-fill, 474px)"
    types = [report_grid.cpu_types(r) for r in runs]
    for name in names:
        what = next((k.what for r in runs for k in r.kernels if k.name == name and k.what), "")
        all_runs = [sr for r in runs for sr in _kernel_runs(r, name)]
        per_run, keys, labels = [], [], {}
        for i, r in enumerate(runs):
            krs = _kernel_runs(r, name)
            if not any(k.name == name for k in r.kernels):
                per_run.append(None)
                continue
            also = _changed_cpus(r, runs[0], name, moved.get(i, {})) if i else None
            gs, left = report_groups.groups(krs, types[i], pct, cycles, also)
            per_run.append((gs, left))
            for g in gs:
                if g.key not in keys:
                    keys.append(g.key)
                    labels[g.key] = g.label.split(" differs:")[0]
        figs = []
        for key in keys:
            for i, r in enumerate(runs):
                if per_run[i] is None:
                    figs.append('<figure><figcaption>run %d: kernel not run</figcaption>'
                                '</figure>' % (i + 1))
                    continue
                gs, _ = per_run[i]
                g = next((g for g in gs if g.key == key), None)
                if g is None:
                    figs.append('<figure><figcaption>run %d: %s: no figure of its own in '
                                'this run</figcaption></figure>' % (i + 1, escape(labels[key])))
                    continue
                mine = _group_changes(g, per_run[0][0] if per_run[0] else [],
                                      moved.get(i, {}), pct, cycles) if i else {}
                verdicts = ", ".join("%s%s %s" % (sr.sampling or sr.test,
                                                  "" if sr.cpu is None else " cpu %d" % sr.cpu,
                                                  sr.verdict if sr.cpu is not None or
                                                  g.key == "all" else sr.why)
                                     for sr in g.runs)
                cap = "run %d: %s%s" % (i + 1, escape(g.label + ": " if g.label else ""),
                                        escape(verdicts or "no sampling"))
                if g.why and not g.key.startswith("cpu:"):
                    cap += "<br>differs: %s" % escape("; ".join(g.why))
                err = next((k.error for k in r.kernels if k.name == name and k.error), None)
                if err:
                    cap += " &mdash; %s" % escape(err)
                exact = {}
                for sr in g.runs:
                    # with_ip 0: no record had an IP, the file's 0 measures nothing
                    if sr.ip_exact is not None and sr.with_ip != 0:
                        what = sr.sampling or sr.test
                        exact[what] = min(exact.get(what, sr.ip_exact), sr.ip_exact)
                if exact:
                    # The lowest share of exact IPs over the figure's CPUs (docs/KERNELS.md).
                    cap += "<br>exact IPs: %s" % escape(", ".join(
                        "%s %d.%d%%" % (what, v // 10, v % 10) for what, v in exact.items()))
                cap += _calibration_text(_calibrations(r, name), g.cpus)
                cls = []
                if mine:
                    cls.append("changed")
                if g.why:
                    cls.append("odd")
                figs.append('<figure data-group="%s"%s>%s<figcaption>%s</figcaption></figure>' % (
                    escape(g.key), ' class="%s"' % " ".join(cls) if cls else "",
                    kernel_figure(name, g.runs, i, mine, all_runs, g.key), cap))
        notes = []
        for i, pr in enumerate(per_run):
            if pr and pr[1]:
                notes.append("run %d: also differing, without a figure of their own: cpu %s" %
                             (i + 1, report_grid.cpu_ranges(pr[1])))
        out.append('<section class="kernel" id="k-%s"><h3>%s</h3><p>%s</p>%s'
                   '<div class="runs" style="grid-template-columns:%s">%s</div></section>' %
                   (escape(name), escape(name), escape(what),
                    "".join("<p>%s</p>" % escape(n) for n in notes), cols, "".join(figs)))
    return "\n".join(out)


def page(runs, pct, cycles, sources):
    changes, moved = changes_list(runs, pct, cycles)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="%s">' % CSP,
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>pebsprobe report: %s</title>" % escape(", ".join(r.cpu_label for r in runs)),
        "<style>%s</style></head><body>" % CSS,
        "<h1>pebsprobe report</h1>",
        "<p>%d run%s: %s. Made by pebs-report on %s. Latencies are core cycles as the PEBS "
        "records carry them; histogram bins are powers of two, on a log scale.</p>" % (
            len(runs), "" if len(runs) == 1 else "s", escape(", ".join(sources)), when),
        "<h2>Runs</h2>", identity_table(runs),
    ]
    if len(runs) > 1:
        parts += ["<h2>What changed</h2>",
                  "<p>Against run 1. A median moved when it changed by more than %d%% and more "
                  "than %d cycles (100%% where a median is only known to a power-of-two "
                  "bucket).</p>" % (pct, cycles), changes]
    parts += ["<h2>Verdicts</h2>", grids(runs), verdict_table(runs),
              "<h2>CPUs tested</h2>", cpu_tables(runs),
              "<h2>Latency by kernel and data source</h2>",
              "<p>On several CPUs: a figure per core type, its CPUs' records added up (the "
              "median drawn is the median of the CPUs' medians), and one for each CPU that "
              "differs from its type (another verdict than most of its type, or a median "
              "that moved against its type's by the thresholds above) or changed against "
              "run 1, framed orange.</p>",
              kernel_sections(runs, moved, pct, cycles),
              "</body></html>"]
    return "\n".join(parts) + "\n"
