# SPDX-License-Identifier: MIT
"""report_html - one self-contained HTML page for one or more runs: inline
CSS and SVG, no script, no network (a Content-Security-Policy forbids any
fetch).  Runs are columns side by side; the first is the reference, and
what differs from it is marked (verdicts, identity, medians that moved by
the baseline rules)."""

import datetime
from html import escape

import baseline
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
figure.changed{border:2px solid #d62728}
figcaption{font-size:.85em;color:#555}
.changes li.reg{color:#8b1a1a;font-weight:600}
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
    keys = []
    for r in runs:
        for v in r.verdicts:
            if v.key() not in keys:
                keys.append(v.key())
    maps = [{v.key(): v for v in r.verdicts} for r in runs]
    rows = ['<table class="verdicts"><tr><th>test</th>%s</tr>' % "".join(
        "<th>run %d</th>" % (i + 1) for i in range(len(runs)))]
    for key in keys:
        name = key[0] if key[1] is None else "%s [cpu %d]" % key
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
        for c in r.cpus_tested:
            vals = [c.get(k) for k in ("cpu", "apic_id", "core_type", "uarch", "passed", "failed",
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
        found = baseline.compare(runs[0], r, pct, cycles)
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


def kernel_sections(runs, moved):
    names = []
    for r in runs:
        for k in r.kernels:
            if k.name not in names:
                names.append(k.name)
    out = []
    cols = "repeat(%d, max-content)" % len(runs)
    for name in names:
        what = next((k.what for r in runs for k in r.kernels if k.name == name and k.what), "")
        all_runs = [sr for r in runs for k in r.kernels if k.name == name for sr in k.runs]
        figs = []
        for i, r in enumerate(runs):
            k = next((k for k in r.kernels if k.name == name), None)
            if k is None:
                figs.append('<figure><figcaption>run %d: kernel not run</figcaption></figure>' %
                            (i + 1))
                continue
            ch = moved.get(i, {})
            mine = {key: t for key, t in ch.items() if any(sr.test == key[0] for sr in k.runs)}
            verdicts = ", ".join("%s%s %s" % (sr.sampling or sr.test,
                                              "" if sr.cpu is None else " cpu %d" % sr.cpu,
                                              sr.verdict) for sr in k.runs)
            cap = "run %d: %s" % (i + 1, escape(verdicts or "no sampling"))
            if k.error:
                cap += " &mdash; %s" % escape(k.error)
            exact = ", ".join("%s %d.%d%%" % (sr.sampling or sr.test,
                                              sr.ip_exact // 10, sr.ip_exact % 10)
                              for sr in k.runs if sr.ip_exact is not None)
            if exact:
                # Records whose IP is exactly the sampled instruction (docs/KERNELS.md).
                cap += "<br>exact IPs: %s" % escape(exact)
            cal = k.calibration
            if cal is not None:
                # PEBS latency median against the cycles per load counted without PEBS.
                cap += "<br>latency calibration: %s%s" % (
                    escape(cal.verdict + ": " if cal.verdict else ""), escape(cal.why))
            figs.append('<figure%s>%s<figcaption>%s</figcaption></figure>' % (
                ' class="changed"' if mine else "",
                kernel_figure(name, k.runs, i, mine, all_runs), cap))
        out.append('<section class="kernel" id="k-%s"><h3>%s</h3><p>%s</p>'
                   '<div class="runs" style="grid-template-columns:%s">%s</div></section>' %
                   (escape(name), escape(name), escape(what), cols, "".join(figs)))
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
    parts += ["<h2>Verdicts</h2>", verdict_table(runs),
              "<h2>CPUs tested</h2>", cpu_tables(runs),
              "<h2>Latency by kernel and data source</h2>", kernel_sections(runs, moved),
              "</body></html>"]
    return "\n".join(parts) + "\n"
