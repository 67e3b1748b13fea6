# SPDX-License-Identifier: MIT
"""report_svg - the latency figure of one kernel in one run, as inline SVG:
a share bar of the data sources, then one histogram panel per (sampling
run, data source) on a shared log2 x axis (the records' histogram bins are
powers of two), counts on the bars, the median marked.  perf mem users read
latency the same way: by data source, on a log scale."""

import math
from html import escape

from ci_formats import short_source

WIDTH = 460
LEFT, RIGHT = 44, 12
# A panel: its title row, the median's row, then the plot and its base line.
PLOT_TOP, PLOT_H = 30, 44
PANEL_H = PLOT_TOP + PLOT_H + 10
SHARE_H = 16
AXIS_H = 30  # tick labels and the axis title, once under the last panel

# Colours by memory level, so one level reads the same in every figure.
LEVEL_COLOURS = (
    ("L1", "#2e8b57"), ("LFB", "#66a61e"), ("L2", "#1f77b4"), ("L3", "#7b4ea3"),
    ("Local RAM", "#e6850e"), ("Remote RAM", "#c0392b"), ("Remote cache", "#d35400"),
    ("I/O", "#8c564b"), ("Miss", "#7f7f7f"), ("n/a", "#9e9e9e"),
)


def colour(source_name):
    s = short_source(source_name)
    for key, c in LEVEL_COLOURS:
        if s.startswith(key) or key in s:
            return c
    return "#17becf"


def tick_label(v):
    if v >= 1 << 20:
        return "%dM" % (v >> 20)
    if v >= 1 << 10:
        return "%dK" % (v >> 10)
    return str(v)


def x_range(runs):
    """(lowest, highest) log2 bin over every panel: the figures of one kernel
    share an axis, across runs too, so they can be compared side by side."""
    lows = [lo for r in runs for s in r.sources for lo, _ in s.histogram if lo > 0]
    if not lows:
        return 0, 10
    lo = int(math.log2(min(lows)))
    hi = int(math.log2(max(lows))) + 1
    return lo, max(hi, lo + 4)


def _x(v, lo, hi):
    """x of latency v (cycles) on the log2 axis [2^lo, 2^hi)."""
    span = WIDTH - LEFT - RIGHT
    pos = (math.log2(v) - lo) / (hi - lo) if v > 0 else 0
    return LEFT + span * min(max(pos, 0.0), 1.0)


def _panel(out, y0, run, src, lo, hi, changed):
    """One histogram: bars per power-of-two bin, count labels, the median."""
    # Title row, then the plot (its top leaves room for the median marker),
    # then the panel's base line; the shared tick labels are drawn once,
    # under the last panel.
    top, h = y0 + PLOT_TOP, PLOT_H
    col = colour(src.name)
    title = "%s: %s" % (run.sampling or run.test, short_source(src.name))
    if run.cpu is not None:
        title += " (cpu %d%s)" % (run.cpu, " " + run.core_type if run.core_type and
                                  run.core_type != "none" else "")
    elif run.core_type:  # several CPUs added up (report_groups.aggregate)
        title += " (%s)" % run.core_type
    share = "" if src.share_permille is None else " (%.1f%%)" % (src.share_permille / 10.0)
    out.append('<text x="%d" y="%d" class="pt">%s: %d records%s</text>' %
               (LEFT, y0 + 10, escape(title), src.count, share))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" class="ax"/>' %
               (LEFT, top + h, WIDTH - RIGHT, top + h))
    peak = max([n for _, n in src.histogram] + [1])
    for b_lo, n in src.histogram:
        if b_lo <= 0:
            continue
        x0, x1 = _x(b_lo, lo, hi), _x(2 * b_lo, lo, hi)
        bh = max(1.0, h * n / peak)
        out.append('<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s">'
                   '<title>%s-%s cycles: %d records</title></rect>' %
                   (x0 + 1, top + h - bh, max(1.0, x1 - x0 - 2), bh, col, b_lo, 2 * b_lo - 1, n))
        # The count inside the top of a bar tall enough to hold it, else above it.
        inside = bh >= 13
        out.append('<text x="%.1f" y="%.1f" class="cnt%s">%d</text>' %
                   ((x0 + x1) / 2, top + h - bh + (10 if inside else -2),
                    " in" if inside else "", n))
    zero = (src.with_latency or 0) - sum(n for _, n in src.histogram)
    if not src.histogram:
        why = "no latency in these records" if not src.with_latency else \
            "latency 0 in all %d records" % src.with_latency
        out.append('<text x="%d" y="%d" class="note">%s</text>' % (LEFT + 4, top + h - 8, why))
    elif zero > 0:
        out.append('<text x="%d" y="%d" class="note">+ %d records of latency 0 (not on a log '
                   'axis)</text>' % (WIDTH - RIGHT, top + 8, zero))
    if src.median is not None and src.median > 0 and src.histogram:
        # The median: a dashed line through the bars with a marker on top,
        # and its value at the right of the panel's title row, clear of the
        # count labels.
        mx = _x(src.median, lo, hi)
        cls = "med changed" if changed else "med"
        label = "median %s%d cycles" % ("~" if src.approx else "", src.median)
        if changed:
            label += " (%s)" % changed
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="%s"/>' %
                   (mx, top, mx, top + h, cls))
        out.append('<path d="M%.1f %d l-4 -7 h8 z" class="%s"/>' % (mx, top, cls))
        right = mx < LEFT + (WIDTH - LEFT - RIGHT) * 0.6
        out.append('<text x="%.1f" y="%d" class="%s" text-anchor="%s">%s</text>' %
                   (mx + 7 if right else mx - 7, y0 + 24, cls, "start" if right else "end",
                    escape(label)))


def _share_bar(out, y0, run):
    total = sum(s.count for s in run.sources) or 1
    x = float(LEFT)
    span = WIDTH - LEFT - RIGHT
    for s in sorted(run.sources, key=lambda s: -s.count):
        w = span * s.count / total
        out.append('<rect class="share" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s">'
                   '<title>%s: %d of %d records</title></rect>' %
                   (x, y0, w, SHARE_H - 4, colour(s.name), escape(s.name), s.count, total))
        label = "%s %.0f%%" % (short_source(s.name), 100.0 * s.count / total)
        if w > 6 + 5.6 * len(label):  # about 5.6 px a character at 10 px bold
            out.append('<text x="%.1f" y="%d" class="sl">%s</text>' %
                       (x + 3, y0 + SHARE_H - 7, escape(label)))
        x += w


def kernel_figure(kernel_name, runs, run_index, changes, axis_runs, group="all"):
    """The SVG of one kernel in one run.  runs: its SamplingRuns; changes:
    {(test, cpu, source): text} for medians that moved against the first run;
    axis_runs: every run of this kernel in the report (a shared x axis);
    group: which CPUs it draws (report_groups.Group.key)."""
    lo, hi = x_range(axis_runs)
    panels = [(r, s) for r in runs for s in sorted(r.sources, key=lambda s: -s.count)]
    shares = [r for r in runs if r.sources]
    height = 8 + len(shares) * (SHARE_H + 14) + max(1, len(panels)) * PANEL_H + AXIS_H - 10
    out = ['<svg class="histogram" role="img" '
           'data-kernel="%s" data-run="%d" data-group="%s" width="%d" height="%d" '
           'viewBox="0 0 %d %d">' %
           (escape(kernel_name), run_index, escape(group), WIDTH, height, WIDTH, height),
           '<title>%s: latency by data source</title>' % escape(kernel_name)]
    y = 8
    for r in shares:
        label = r.sampling or r.test
        if r.cpu is not None:
            label += " cpu %d" % r.cpu
        elif r.core_type:
            label += ", " + r.core_type
        out.append('<text x="%d" y="%d" class="pt">share of each data source (%s)</text>' %
                   (LEFT, y + 8, escape(label)))
        _share_bar(out, y + 12, r)
        y += SHARE_H + 14
    if not panels:
        why = "no records (every sampling skipped or failed before sampling)"
        if runs and all(r.records == 0 for r in runs):
            why = "no records"
        out.append('<text x="%d" y="%d" class="note">%s</text>' % (LEFT, y + 30, why))
        y += PANEL_H
    for r, s in panels:
        _panel(out, y, r, s, lo, hi, changes.get((r.test, r.cpu, s.name)))
        y += PANEL_H
    # The shared x axis under the last panel: a tick per power of two.
    base = y - (PANEL_H - PLOT_TOP - PLOT_H)
    for p in range(lo, hi + 1):
        x = _x(2 ** p, lo, hi)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="tk"/>' %
                   (x, base, x, base + 4))
        out.append('<text x="%.1f" y="%d" class="tl">%s</text>' % (x, base + 14,
                                                                   tick_label(2 ** p)))
    out.append('<text x="%d" y="%d" class="al" text-anchor="middle">latency, core cycles '
               '(log scale, power-of-two bins)</text>' % ((LEFT + WIDTH - RIGHT) // 2, base + 27))
    out.append("</svg>")
    return "\n".join(out)
