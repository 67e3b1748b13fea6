# SPDX-License-Identifier: MIT
"""ci_formats - a results file as JUnit XML, TAP version 13, and an
80-column verdict table.  One test case per verdict; its name carries the
verdict's name (kernel/sampling), the CPU that ran it where recorded, and
the run's CPU (simulator model or family_model).
"""

import re
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import report_grid
from results_file import SKID_BINS

TABLE_WIDTH = 80

# Exit statuses (docs/OUTPUT.md, Exit codes): what each means for a CI test case.
EXIT_MEANINGS = {0: "pass", 1: "fail", 2: "usage", 77: "skipped", 99: "environment"}


def case_name(res, v):
    return "%s on %s" % (v.label(), res.cpu_label)


def error_name(res, name):
    """The test-case name of an environment ERROR line (results.json errors[])."""
    return "ERROR %s on %s" % (name, res.cpu_label)


def case_class(res, v, prefix="pebsprobe"):
    parts = [prefix, res.cpu_label.replace(".", "_")]
    if v.kernel:
        parts.append(v.kernel.replace(".", "_"))
    return ".".join(parts)


def exit_case(res):
    """(verdict-like state, text) for the run's exit status, or None when not recorded.
    state is one of pass, fail, skip, error.  Status 1 with FAIL verdicts is
    those verdicts' failure, not one more: the case passes and says so, so
    that JUnit, TAP, the table and the app's SUMMARY count the same failures."""
    if res.exit_status is None:
        return None
    meaning = res.exit_meaning or EXIT_MEANINGS.get(res.exit_status, "unknown")
    text = "exit status %d (%s)" % (res.exit_status, meaning)
    state = {0: "pass", 1: "fail", 77: "skip"}.get(res.exit_status, "error")
    fails = res.counts()["FAIL"]
    if state == "fail" and fails:
        state = "pass"
        text += ", as the %d FAIL verdict%s say%s" % (fails, "" if fails == 1 else "s",
                                                      "s" if fails == 1 else "")
    return state, text


# Where a record's IP counts as exact (results.json ip_point, docs/KERNELS.md
# "Precision"): the eventing IP or a fault-like R/EIP is the sampled access
# itself, a trap-like R/EIP the instruction after it (SDM Vol. 3B 18.4.4).
IP_POINT_WORDS = {"at": "at the sampled instruction", "after": "the instruction after it"}


def skid_text(run):
    """'0: 987, 1: 13, 2-3: 0, 4+: 0, outside: 0', in the file's bin order."""
    return ", ".join("%s: %d" % (b, run.skid[b]) for b in SKID_BINS if b in run.skid)


def exact_cell(run):
    """The share of exact IPs, '98.7%'; '-' when not recorded or no record had an IP
    (the file then says 0, which is no measurement)."""
    if run is None or run.ip_exact is None or run.with_ip == 0:
        return "-"
    return "%d.%d%%" % (run.ip_exact // 10, run.ip_exact % 10)


def precision_text(run):
    """A sampling's precision in one line, or None when the file does not record it."""
    if run is None or run.ip_exact is None:
        return None
    if run.with_ip == 0:
        return "precision: no record carried an IP"
    text = "precision: %s of %s IPs exact" % (
        exact_cell(run), "the" if run.with_ip is None else "%d" % run.with_ip)
    if run.ip_point in IP_POINT_WORDS:
        text += " (%s)" % IP_POINT_WORDS[run.ip_point]
    if run.skid:
        text += "; skid in instructions %s" % skid_text(run)
    return text


def _case(suite, classname, name, state, text, kind, out=None):
    """One <testcase>; out: more lines for its <system-out> (a sampling's precision)."""
    tc = ET.SubElement(suite, "testcase", classname=classname, name=name)
    if state == "fail":
        el = ET.SubElement(tc, "failure", message=text[:200], type=kind)
        el.text = text
    elif state == "error":
        el = ET.SubElement(tc, "error", message=text[:200], type=kind)
        el.text = text
    elif state == "skip":
        ET.SubElement(tc, "skipped", message=text)
    elif text:
        out = [text] + ([out] if out else [])
        out, text = "\n".join(out), None
    if out:
        ET.SubElement(tc, "system-out").text = out
    return tc


def junit_suite(res, name=None, extra=(), class_prefix="pebsprobe"):
    """One <testsuite> for a results file.  extra: (classname, name, state,
    text) tuples placed first (the matrix's entry status).  class_prefix
    keeps classnames apart when several runs share one document."""
    suite = ET.Element("testsuite", name=name or "pebsprobe %s (%s)" % (res.cpu_label, res.path))
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="results_version", value=str(res.version))
    for label, value in res.identity:
        ET.SubElement(props, "property", name=label, value=str(value))
    for note in res.notes:
        ET.SubElement(props, "property", name="note", value=note)
    for classname, cname, state, text in extra:
        _case(suite, classname, cname, state, text, "status")
    for v in res.verdicts:
        state = {"PASS": "pass", "FAIL": "fail", "SKIP": "skip"}[v.verdict]
        _case(suite, case_class(res, v, class_prefix), case_name(res, v), state, v.why,
              v.verdict, precision_text(res.run_of(v)))
    for ename, why in res.errors:
        _case(suite, "%s.%s.error" % (class_prefix, res.cpu_label.replace(".", "_")),
              error_name(res, ename), "error", why, "ERROR")
    ec = exit_case(res)
    if ec is not None:
        _case(suite, "%s.%s" % (class_prefix, res.cpu_label), "exit status on %s" % res.cpu_label,
              ec[0], ec[1], "exit")
    count_suite(suite)
    return suite


def bare_suite(name, cases):
    """A <testsuite> with no results file behind it (cases as in junit_suite's extra)."""
    suite = ET.Element("testsuite", name=name)
    for classname, cname, state, text in cases:
        _case(suite, classname, cname, state, text, "status")
    count_suite(suite)
    return suite


def count_suite(suite):
    n = f = e = s = 0
    for tc in suite.findall("testcase"):
        n += 1
        f += tc.find("failure") is not None
        e += tc.find("error") is not None
        s += tc.find("skipped") is not None
    suite.set("tests", str(n))
    suite.set("failures", str(f))
    suite.set("errors", str(e))
    suite.set("skipped", str(s))
    return n, f, e, s


def junit_document(suites, name="pebsprobe"):
    root = ET.Element("testsuites", name=name)
    totals = [0, 0, 0, 0]
    for s in suites:
        root.append(s)
        for i, x in enumerate(count_suite(s)):
            totals[i] += x
    # <testsuites> has no "skipped" in the schema Jenkins' xUnit plugin checks
    # input against (jenkinsci/xunit-plugin junit-10.xsd): each suite has it.
    for key, x in zip(("tests", "failures", "errors"), totals):
        root.set(key, str(x))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _tap_text(s):
    # '#' starts a directive in TAP: escape it in descriptions.
    return s.replace("\\", "\\\\").replace("#", "\\#").replace("\n", " ")


# A YAML double-quoted scalar on one line: prove's reader (Perl's
# TAP::Parser::YAMLish::Reader) refuses a quoted scalar that spans lines.
_YAML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _yaml_str(s):
    return '"%s"' % "".join(_YAML_ESCAPES.get(c, " " if ord(c) < 0x20 else c) for c in s)


def _tap_precision(run):
    """A sampling's precision as YAML lines of its TAP diagnostic block, [] when
    the file does not record it."""
    if run is None or run.ip_exact is None:
        return []
    out = ["  precision:"]
    if run.ip_point is not None:
        out.append("    ip_point: %s" % _yaml_str(run.ip_point))
    if run.with_ip is not None:
        out.append("    with_ip: %d" % run.with_ip)
    if run.with_ip != 0:
        out.append("    ip_exact_permille: %d" % run.ip_exact)
    if run.skid:
        out.append("    skid: {%s}" % ", ".join("%s: %d" % (_yaml_str(b), run.skid[b])
                                                for b in SKID_BINS if b in run.skid))
    return out


def tap(res):
    lines = ["TAP version 13"]
    items = [(case_name(res, v), v.verdict, v.why, _tap_precision(res.run_of(v)))
             for v in res.verdicts]
    items += [(error_name(res, name), "ERROR", why, []) for name, why in res.errors]
    ec = exit_case(res)
    if ec is not None:
        items.append(("exit status on %s" % res.cpu_label,
                      {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}.get(ec[0], "ERROR"), ec[1],
                      []))
    lines.append("1..%d" % len(items))
    if not items:
        lines[-1] += " # SKIP the file records no verdict"
    for i, (name, verdict, why, yaml) in enumerate(items, 1):
        if verdict == "PASS":
            lines.append("ok %d - %s" % (i, _tap_text(name)))
        elif verdict == "SKIP":
            lines.append("ok %d - %s # SKIP %s" % (i, _tap_text(name), _tap_text(why)))
        else:
            lines.append("not ok %d - %s" % (i, _tap_text(name)))
            yaml = ["  message: %s" % _yaml_str(why),
                    "  severity: %s" % ("fail" if verdict == "FAIL" else "error")] + yaml
        if yaml:
            lines += ["  ---"] + yaml + ["  ..."]
    return "\n".join(lines) + "\n"


# --- the verdict table ---------------------------------------------------

# The columns: (title, width, alignment).  CPU/APIC only when the verdicts
# come from more than one CPU, as the app's own verdict table has its cpus
# column only then; without it TEST and MAIN DATA SOURCE get the room.
_COLS_CPU = (("VERDICT", 7, "<"), ("TEST", 23, "<"), ("CPUS", 11, "<"), ("RECORDS", 7, ">"),
             ("MAIN DATA SOURCE", 18, "<"), ("MEDIAN", 8, ">"))
_COLS_ONE = (("VERDICT", 7, "<"), ("TEST", 29, "<"), ("RECORDS", 7, ">"),
             ("MAIN DATA SOURCE", 23, "<"), ("MEDIAN", 9, ">"))
# With EXACT (the share of exact IPs, version 3), the other columns give it room.
_COLS_CPU_EXACT = (("VERDICT", 7, "<"), ("TEST", 20, "<"), ("CPUS", 10, "<"),
                   ("RECORDS", 7, ">"), ("MAIN DATA SOURCE", 16, "<"), ("MEDIAN", 7, ">"),
                   ("EXACT", 6, ">"))
_COLS_ONE_EXACT = (("VERDICT", 7, "<"), ("TEST", 26, "<"), ("RECORDS", 7, ">"),
                   ("MAIN DATA SOURCE", 20, "<"), ("MEDIAN", 8, ">"), ("EXACT", 6, ">"))


def short_source(name):
    """'LOAD Local RAM hit, snoop Hit' -> 'Local RAM hit': the level is what a
    reader looks for; the operation is the sampling's and the snoop is detail."""
    s = name
    for op in ("LOAD ", "STORE ", "PREFETCH ", "EXEC "):
        if s.startswith(op):
            s = s[len(op):]
    return s.split(",")[0]


def _fit(s, width):
    return s if len(s) <= width else s[:width - 1] + "~"


def main_source(run):
    """The data source with the most records, and its share and median text."""
    if run is None or not run.sources:
        return "-", "-"
    s = max(run.sources, key=lambda x: x.count)
    share = "" if s.share_permille is None else " %d%%" % ((s.share_permille + 5) // 10)
    if s.median is None or not s.with_latency:
        med = "-"
    else:
        med = "%s%d cy" % ("~" if s.approx else "", s.median)
    return short_source(s.name) + share, med


def several_cpus(res):
    """Do the verdicts name more than one CPU?"""
    return len({v.cpu for v in res.verdicts if v.cpu is not None}) > 1


def _row(cols, cells):
    out = []
    for (title, width, align), cell in zip(cols, cells):
        cell = _fit(str(cell), width)
        out.append(cell.ljust(width) if align == "<" else cell.rjust(width))
    return " ".join(out).rstrip()


# A reason's own CPU, as the app ends a verdict line ("; cpu 2 (APIC 2,
# E-core)"): dropped where one row holds several CPUs' verdicts.
_WHERE = re.compile(r"; cpu \d+ \(APIC \d+, [^)]*\)$")
_CORE = {"P-core": "P", "E-core": "E", "LP E-core": "LP-E"}


@dataclass
class _Group:
    """A table row: one test's verdicts of one word on CPUs of one core type."""

    verdict: str
    name: str
    core: str
    verdicts: list


def _groups(res):
    """The verdicts by test across CPUs: per test (in the file's order) a row
    per verdict word (FAIL, SKIP, PASS) and core type; a verdict of no CPU
    is a row of its own."""
    by_test, out = {}, []
    for v in res.verdicts:
        by_test.setdefault(v.test_name(), []).append(v)
    for name, vs in by_test.items():
        rows = {}
        for v in vs:
            key = (v.verdict, _CORE.get(v.core_type or "", ""), v.cpu is None and id(v))
            rows.setdefault(key, _Group(v.verdict, name, key[1], [])).verdicts.append(v)
        out += sorted(rows.values(), key=lambda g: ("FAIL", "SKIP", "PASS").index(g.verdict))
    return out


def _span(values, unit=""):
    """'4 cy' when all agree, '4-5 cy' when not, '-' when none."""
    values = [x for x in values if x is not None]
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return ("%d%s" % (lo, unit)) if lo == hi else ("%d-%d%s" % (lo, hi, unit))


def _group_cells(res, g, cpu_width, med_width):
    """(CPUs cell, records, source, median, runs, lines under the row)."""
    runs = [r for r in (res.run_of(v) for v in g.verdicts) if r is not None]
    cpus = sorted(v.cpu for v in g.verdicts if v.cpu is not None)
    cell, under = "-", []
    if cpus:
        cell = ("%s %s" % (report_grid.cpu_ranges(cpus), g.core)).strip()
        if len(cell) > cpu_width:
            cell = ("%d CPUs %s" % (len(cpus), g.core)).strip()
            under.append("cpus %s" % report_grid.cpu_ranges(cpus))
    if len(runs) == 1:
        src, med = main_source(runs[0])
    else:
        mains = [main_source(r)[0] for r in runs]
        src = max(set(mains), key=mains.count) if mains else "-"
        meds = [max(r.sources, key=lambda x: x.count) for r in runs if r.sources]
        med = _span([m.median for m in meds if m.with_latency], " cy")
        if any(m.approx for m in meds) and med != "-":
            med = "~" + med
        if len(med) > med_width:
            under.append("medians %s" % med)
            med = "varies"
    return cell, _span([r.records for r in runs]), src, med, runs, under


def _group_why(g):
    """The reason of a FAIL or SKIP row: the CPUs' reasons without their CPU,
    the first and how many others differ."""
    whys = []
    for v in g.verdicts:
        w = v.why if len(g.verdicts) == 1 else _WHERE.sub("", v.why).strip()
        if w and w not in whys:
            whys.append(w)
    if len(whys) > 1:
        return "%s (and %d other reason%s: --tap names each CPU's)" % (
            whys[0], len(whys) - 1, "" if len(whys) == 2 else "s")
    return whys[0] if whys else ""


def _group_exact(runs):
    known = [r for r in runs if r.ip_exact is not None and r.with_ip]
    return exact_cell(min(known, key=lambda r: r.ip_exact)) if known else "-"


def _group_skid(runs):
    """The group's skid histogram added up, or None when every IP was exact."""
    total = {}
    with_ip = 0
    for r in runs:
        if r.skid and r.with_ip:
            with_ip += r.with_ip
            for b in SKID_BINS:
                if b in r.skid:
                    total[b] = total.get(b, 0) + r.skid[b]
    if not with_ip or not any(total.get(b) for b in SKID_BINS[1:]):
        return None
    return "skid in instructions %s of %d IPs" % (
        ", ".join("%s: %d" % (b, total[b]) for b in SKID_BINS if b in total), with_ip)


def table(res, width=TABLE_WIDTH):
    lines = []
    ident = dict(res.identity)
    head = "pebsprobe %s  %s" % (ident.get("pebsprobe", "?"), ident.get("cpu", res.cpu_label))
    lines.append(_fit(head, width))
    second = [res.cpu_label]
    if res.simulated:
        second.append("[sim]")
    if res.cpus is not None:
        second.append("%d CPU%s" % (res.cpus, "" if res.cpus == 1 else "s"))
    second.append("results v%d" % res.version)
    lines.append(_fit("  ".join(second), width))
    third = ["%s %s" % (k, ident[k]) for k in ("run id", "time", "options") if k in ident]
    if third:
        lines.append(_fit("  ".join(third), width))
    cpus = several_cpus(res)
    exact = any(r.ip_exact is not None for k in res.kernels for r in k.runs)
    cols = {(True, False): _COLS_CPU, (False, False): _COLS_ONE,
            (True, True): _COLS_CPU_EXACT, (False, True): _COLS_ONE_EXACT}[(cpus, exact)]
    lines.append(_row(cols, [c[0] for c in cols]))
    src_width = next(w for t, w, _ in cols if t == "MAIN DATA SOURCE")
    cpu_width, med_width = cols[2][1], next(w for t, w, _ in cols if t == "MEDIAN")
    wrap = textwrap.TextWrapper(width=width, initial_indent="        ",
                                subsequent_indent="        ", break_on_hyphens=False)
    points = {}
    groups = _groups(res) if cpus else [_Group(v.verdict, v.name, "", [v]) for v in res.verdicts]
    for g in groups:
        if cpus:
            cpu_cell, records, src, med, runs, under = _group_cells(res, g, cpu_width,
                                                                    med_width)
        else:
            run = res.run_of(g.verdicts[0])
            runs = [run] if run is not None else []
            src, med = main_source(run)
            records = "-" if run is None or run.records is None else run.records
            under = []
        # "Local RAM hit 100%" past a narrow column: "Local RAM 100%" keeps the share
        if len(src) > src_width and " hit " in src:
            src = src.replace(" hit ", " ", 1)
        name, verdict = g.name, g.verdict
        if len(name) > cols[1][1]:
            # The name on a line of its own; the figures under it, the verdict
            # not repeated (one line per row starts with its word).
            lines.append(_fit("%-7s %s" % (g.verdict, name), width))
            name = verdict = ""
        cells = [verdict, name] + ([cpu_cell] if cpus else []) + [records, src, med]
        if exact:
            cells.append(_group_exact(runs))
        lines.append(_row(cols, cells))
        for text in under:
            lines.extend(wrap.wrap(text))
        if g.verdict != "PASS":
            why = _group_why(g)
            if why:
                lines.extend(wrap.wrap(why))
        # Where an IP missed its instruction, how far (the skid histogram).
        skid = _group_skid(runs) if exact else None
        if skid:
            lines.extend(wrap.wrap(skid))
        for run in runs if exact else []:
            if run.ip_point in IP_POINT_WORDS and run.with_ip:
                points[run.ip_point] = points.get(run.ip_point, 0) + 1
    for name, why in res.errors:
        lines.append(_fit("%-7s %s" % ("ERROR", name), width))
        if why:
            lines.extend(wrap.wrap(why))
    lines.append("-" * (width - 1))
    if points:
        lines.extend(textwrap.wrap("EXACT: the share of IPs %s%s" % (", ".join(
            "%s (%d run%s)" % (IP_POINT_WORDS[p], n, "" if n == 1 else "s")
            for p, n in sorted(points.items(), reverse=True)),
            "; a row of several CPUs: the lowest" if cpus else ""), width=width - 1,
            subsequent_indent="       ", break_on_hyphens=False))
    c = res.counts()
    tail = "%d verdicts: %d PASS, %d FAIL, %d SKIP" % (len(res.verdicts), c["PASS"], c["FAIL"],
                                                       c["SKIP"])
    if res.errors:
        tail += ", %d ERROR" % len(res.errors)
    ec = exit_case(res)
    if ec is not None:
        tail += "; exit status %d (%s)" % (res.exit_status, ec[1].split("(")[1].split(")")[0])
    lines.append(_fit(tail, width))
    return "\n".join(lines) + "\n"
