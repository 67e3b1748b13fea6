# SPDX-License-Identifier: MIT
"""report_grid - a run's per-CPU verdicts as one test x CPU grid: a row per
verdict name (kernel/sampling), a column per CPU tested, each cell coloured
by its verdict with the detail in its title.  Past GRID_COLUMNS CPUs,
adjacent CPUs of one core type and uarch whose cells all agree (the same
verdict in every row, the same change against the reference run) share one
column, so a 576-CPU run stays a few columns wide (docs/REPORT.md)."""

import re
from dataclasses import dataclass, field
from html import escape
from typing import Optional

GRID_COLUMNS = 64  # up to this many CPUs, one column each
# The worse verdict wins where one CPU has two of one row.
_RANK = {"PASS": 0, "SKIP": 1, "FAIL": 2}
_TITLE_WHYS = 3  # distinct reasons quoted in a merged cell's title


@dataclass(eq=False)
class Cell:
    """One row on the CPUs of one column."""

    verdict: Optional[str]  # None: no verdict of this row on these CPUs
    whys: list = field(default_factory=list)  # [(cpu, why)]
    was: Optional[str] = None  # the reference run's verdict ("absent") where it differs

    def sig(self):
        return (self.verdict, self.was)


@dataclass(eq=False)
class Column:
    cpus: list  # ascending
    core_type: Optional[str]
    uarch: Optional[str]
    cells: dict  # row name -> Cell

    def sig(self):
        return (self.core_type, self.uarch, tuple(sorted((r, c.sig())
                                                         for r, c in self.cells.items())))


def row_name(name):
    """The verdict name without a CPU suffix ("chase-l1/load@cpu3" -> "chase-l1/load")."""
    return re.sub(r"@cpu[0-9]+$", "", name)


def cpu_ranges(cpus):
    """"0-3,5,7-9" for [0, 1, 2, 3, 5, 7, 8, 9]."""
    out, i, cpus = [], 0, sorted(cpus)
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)


def cpu_types(res):
    """{cpu: (core_type, uarch)}: cpus_tested's, else what the verdicts say."""
    out = {}
    for c in res.cpus_tested or []:
        if c.get("cpu") is not None:
            out[c["cpu"]] = (c.get("core_type"), c.get("uarch"))
    for v in res.verdicts:
        if v.cpu is not None and v.cpu not in out:
            out[v.cpu] = (v.core_type, None)
    for k in res.kernels:
        for r in k.runs:
            if r.cpu is not None and r.cpu not in out:
                out[r.cpu] = (r.core_type, None)
    return out


def rows(res):
    """The grid's rows: names of the verdicts about one CPU, in first-seen order."""
    out = []
    for v in res.verdicts:
        if v.cpu is not None and row_name(v.name) not in out:
            out.append(row_name(v.name))
    return out


def _verdicts_by_cell(res):
    m = {}
    for v in res.verdicts:
        if v.cpu is None:
            continue
        key = (row_name(v.name), v.cpu)
        old = m.get(key)
        if old is None or _RANK[v.verdict] > _RANK[old.verdict]:
            m[key] = v
    return m


def columns(res, ref=None):
    """One Column per CPU, ascending.  ref: the reference run; a cell whose
    verdict differs from ref's for the same row and CPU carries ref's in was."""
    types = cpu_types(res)
    mine = _verdicts_by_cell(res)
    theirs = _verdicts_by_cell(ref) if ref is not None else None
    names = rows(res)
    if ref is not None:
        names += [n for n in rows(ref) if n not in names]
    cpus = sorted(set(types) | {c for _, c in mine})
    out = []
    for cpu in cpus:
        cells = {}
        for name in names:
            v = mine.get((name, cpu))
            cell = Cell(v.verdict if v else None, [(cpu, v.why)] if v else [])
            if theirs is not None:
                o = theirs.get((name, cpu))
                ov = o.verdict if o else None
                if ov != cell.verdict:
                    cell.was = ov or "absent"
            cells[name] = cell
        ct, ua = types.get(cpu, (None, None))
        out.append(Column([cpu], ct, ua, cells))
    return out


def collapse(cols, limit=GRID_COLUMNS):
    """cols as they are up to limit columns; past it, each run of adjacent
    columns with one signature (core type, uarch, every cell's verdict and
    change) becomes one column over all their CPUs."""
    if len(cols) <= limit:
        return cols
    out = []
    for c in cols:
        if out and out[-1].sig() == c.sig():
            last = out[-1]
            last.cpus = last.cpus + c.cpus
            for name, cell in c.cells.items():
                last.cells[name].whys.extend(cell.whys)
            continue
        out.append(Column(list(c.cpus), c.core_type, c.uarch,
                          {n: Cell(x.verdict, list(x.whys), x.was) for n, x in c.cells.items()}))
    return out


def type_label(core_type, uarch):
    parts = []
    if core_type and core_type != "none":
        parts.append(core_type)
    if uarch:
        parts.append(uarch)
    return " ".join(parts) or "CPU type not recorded"


def _where(cpus):
    if len(cpus) == 1:
        return "cpu %d" % cpus[0]
    return "cpus %s (%d)" % (cpu_ranges(cpus), len(cpus))


def cell_title(name, col, cell):
    """The hover text: the row, the CPUs, the verdict and why (a few, for a merged cell)."""
    head = "%s on %s" % (name, _where(col.cpus))
    if col.core_type and col.core_type != "none":
        head += " (%s)" % col.core_type
    if cell.verdict is None:
        text = "%s: no verdict" % head
    else:
        whys = []
        for cpu, why in cell.whys:
            if why and why not in [w for _, w in whys]:
                whys.append((cpu, why))
        if len(col.cpus) == 1:
            text = "%s: %s%s" % (head, cell.verdict, ": " + whys[0][1] if whys else "")
        else:
            text = "%s: %s" % (head, cell.verdict)
            for cpu, why in whys[:_TITLE_WHYS]:
                text += "\ncpu %d: %s" % (cpu, why)
            if len(whys) > _TITLE_WHYS:
                text += "\n(%d more reasons)" % (len(whys) - _TITLE_WHYS)
    if cell.was is not None:
        text += "\nchanged: was %s in run 1" % cell.was
    return text


def _groups(cols):
    """[(core_type, uarch, number of columns, cpus)] of adjacent columns of one type."""
    out = []
    for c in cols:
        if out and out[-1][0] == c.core_type and out[-1][1] == c.uarch:
            out[-1][2] += 1
            out[-1][3].extend(c.cpus)
        else:
            out.append([c.core_type, c.uarch, 1, list(c.cpus)])
    return out


def grid_html(res, run_index, ref=None, limit=GRID_COLUMNS):
    """The run's grid as a <table class="grid">, or '' when no verdict names a CPU."""
    names = rows(res) + ([n for n in rows(ref) if n not in rows(res)] if ref else [])
    if not names:
        return ""
    full = columns(res, ref)
    cols = collapse(full, limit)
    out = ['<table class="grid" data-run="%d" data-cpus="%d" data-columns="%d">' %
           (run_index, len(full), len(cols))]
    out.append('<tr><th rowspan="2">test</th>%s</tr>' % "".join(
        '<th class="type" colspan="%d">%s: %s</th>' % (n, escape(type_label(ct, ua)),
                                                       escape(_where(cpus)))
        for ct, ua, n, cpus in _groups(cols)))
    heads = []
    for c in cols:
        cls = ["cpu"]
        if any(x.verdict == "FAIL" for x in c.cells.values()):
            cls.append("bad")
        if any(x.was is not None for x in c.cells.values()):
            cls.append("changed")
        label = cpu_ranges(c.cpus)
        title = _where(c.cpus) + " " + type_label(c.core_type, c.uarch)
        heads.append('<th class="%s" data-cpus="%s" title="%s"><span>%s</span></th>' % (
            " ".join(cls), label, escape(title), label))
    out.append("<tr>%s</tr>" % "".join(heads))
    for name in names:
        tds = []
        for c in cols:
            cell = c.cells[name]
            cls = ["c", cell.verdict or "none"]
            if cell.was is not None:
                cls.append("changed")
            tds.append('<td class="%s" data-cpus="%s" title="%s">%s</td>' % (
                " ".join(cls), cpu_ranges(c.cpus), escape(cell_title(name, c, cell)),
                (cell.verdict or "-")[0]))
        out.append('<tr><th>%s</th>%s</tr>' % (escape(name), "".join(tds)))
    out.append("</table>")
    return "\n".join(out)
