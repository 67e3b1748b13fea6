# SPDX-License-Identifier: MIT
"""ci_formats - a results file as JUnit XML, TAP version 13, and an
80-column verdict table.  One test case per verdict; its name carries the
verdict's name (kernel/sampling), the CPU that ran it where recorded, and
the run's CPU (simulator model or family_model).
"""

import textwrap
import xml.etree.ElementTree as ET

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
    state is one of pass, fail, skip, error."""
    if res.exit_status is None:
        return None
    meaning = res.exit_meaning or EXIT_MEANINGS.get(res.exit_status, "unknown")
    text = "exit status %d (%s)" % (res.exit_status, meaning)
    state = {0: "pass", 1: "fail", 77: "skip"}.get(res.exit_status, "error")
    return state, text


def _case(suite, classname, name, state, text, kind):
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
        ET.SubElement(tc, "system-out").text = text
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
              v.verdict)
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
    for key, x in zip(("tests", "failures", "errors", "skipped"), totals):
        root.set(key, str(x))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _tap_text(s):
    # '#' starts a directive in TAP: escape it in descriptions.
    return s.replace("\\", "\\\\").replace("#", "\\#").replace("\n", " ")


def _yaml_str(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def tap(res):
    lines = ["TAP version 13"]
    items = [(case_name(res, v), v.verdict, v.why) for v in res.verdicts]
    items += [(error_name(res, name), "ERROR", why) for name, why in res.errors]
    ec = exit_case(res)
    if ec is not None:
        items.append(("exit status on %s" % res.cpu_label,
                      {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}.get(ec[0], "ERROR"), ec[1]))
    lines.append("1..%d" % len(items))
    if not items:
        lines[-1] += " # SKIP the file records no verdict"
    for i, (name, verdict, why) in enumerate(items, 1):
        if verdict == "PASS":
            lines.append("ok %d - %s" % (i, _tap_text(name)))
        elif verdict == "SKIP":
            lines.append("ok %d - %s # SKIP %s" % (i, _tap_text(name), _tap_text(why)))
        else:
            lines.append("not ok %d - %s" % (i, _tap_text(name)))
            lines.append("  ---")
            lines.append("  message: %s" % _yaml_str(why))
            lines.append("  severity: %s" % ("fail" if verdict == "FAIL" else "error"))
            lines.append("  ...")
    return "\n".join(lines) + "\n"


# --- the verdict table ---------------------------------------------------

# The columns: (title, width, alignment).  CPU/APIC only when the verdicts
# come from more than one CPU, as the app's own verdict table has its cpus
# column only then; without it TEST and MAIN DATA SOURCE get the room.
_COLS_CPU = (("VERDICT", 7, "<"), ("TEST", 23, "<"), ("CPU/APIC", 11, "<"), ("RECORDS", 7, ">"),
             ("MAIN DATA SOURCE", 18, "<"), ("MEDIAN", 8, ">"))
_COLS_ONE = (("VERDICT", 7, "<"), ("TEST", 29, "<"), ("RECORDS", 7, ">"),
             ("MAIN DATA SOURCE", 23, "<"), ("MEDIAN", 9, ">"))


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


def _cpu_cell(v):
    """The CPU as the app numbers it (its verdict table's cpus column, FAIL@N),
    its APIC ID and core type: '2/16 E'."""
    if v.cpu is None:
        return "-"
    ct = {"P-core": "P", "E-core": "E", "LP E-core": "LP-E"}.get(v.core_type or "", "")
    where = "%d/%d" % (v.cpu, v.apic_id) if v.apic_id is not None else "%d" % v.cpu
    return ("%s %s" % (where, ct)).strip()


def _row(cols, cells):
    out = []
    for (title, width, align), cell in zip(cols, cells):
        cell = _fit(str(cell), width)
        out.append(cell.ljust(width) if align == "<" else cell.rjust(width))
    return " ".join(out).rstrip()


def table(res, width=TABLE_WIDTH):
    lines = []
    ident = dict(res.identity)
    head = "pebsprobe %s  %s" % (ident.get("pebsprobe", "?"), ident.get("cpu", res.cpu_label))
    lines.append(_fit(head, width))
    second = [res.cpu_label]
    if res.simulated:
        second.append("[sim]")
    if res.cpus is not None:
        second.append("%d CPUs" % res.cpus)
    second.append("results v%d" % res.version)
    lines.append(_fit("  ".join(second), width))
    third = ["%s %s" % (k, ident[k]) for k in ("run id", "time", "options") if k in ident]
    if third:
        lines.append(_fit("  ".join(third), width))
    cpus = several_cpus(res)
    cols = _COLS_CPU if cpus else _COLS_ONE
    lines.append(_row(cols, [c[0] for c in cols]))
    wrap = textwrap.TextWrapper(width=width, initial_indent="        ",
                                subsequent_indent="        ", break_on_hyphens=False)
    for v in res.verdicts:
        run = res.run_of(v)
        src, med = main_source(run)
        records = "-" if run is None or run.records is None else run.records
        name = v.name
        if len(name) > cols[1][1]:
            lines.append(_fit("%-7s %s" % (v.verdict, name), width))
            name = ""
        cells = [v.verdict, name] + ([_cpu_cell(v)] if cpus else []) + [records, src, med]
        lines.append(_row(cols, cells))
        if v.verdict != "PASS" and v.why:
            lines.extend(wrap.wrap(v.why))
    for name, why in res.errors:
        lines.append(_fit("%-7s %s" % ("ERROR", name), width))
        if why:
            lines.extend(wrap.wrap(why))
    lines.append("-" * (width - 1))
    c = res.counts()
    tail = "%d verdicts: %d PASS, %d FAIL, %d SKIP" % (len(res.verdicts), c["PASS"], c["FAIL"],
                                                       c["SKIP"])
    if res.errors:
        tail += ", %d ERROR" % len(res.errors)
    ec = exit_case(res)
    if ec is not None:
        tail += "; " + ec[1]
    lines.append(_fit(tail, width))
    return "\n".join(lines) + "\n"
