# SPDX-License-Identifier: MIT
"""check_results.py BUILD - the build/host/pebs-results contract (docs/CI.md).

Expected outputs are derived from the inputs, never pasted: for the real
version-1 files (captured from the app) the truth is the console's
PASS/FAIL/SKIP lines of the same run (*.console, the serial transcript
run-qemu.sh kept); for the version-2
fixtures (written from the schema, which the app does not write yet) it is
the file's own "verdicts" array.  Prints PASS:/FAIL: lines."""

import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import caselines  # noqa: E402
from caselines import report  # noqa: E402
BUILD = caselines.build_dir(__doc__)
TOOL = os.path.join(BUILD, "host", "pebs-results")
TMP = tempfile.mkdtemp(prefix="check-results.")


def run(*args):
    p = subprocess.run([TOOL] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def fixture(name):
    return os.path.join(HERE, name)


def console_truth(path):
    """(name, None, verdict) of every PASS/FAIL/SKIP line of a transcript."""
    return [(n, None, v) for v, n, _ in caselines.console_verdicts(open(path).read())]


def schema_verdicts(path):
    doc = json.load(open(path))
    return [(v["name"], v.get("cpu"), v["verdict"]) for v in doc["verdicts"]]


def cpu_label(path):
    doc = json.load(open(path))
    # docs/CI.md: the simulator's model, else family_model, else "unknown".
    run = doc.get("run", {})
    if run.get("sim_model"):
        return run["sim_model"]
    for where in (doc, run.get("cpu", {})):
        if "family" in where and "model" in where:
            return "%02X_%02X" % (where["family"], where["model"])
    return doc.get("uarch", "unknown")


def junit_cases(xml_text):
    root = ET.fromstring(xml_text)
    assert root.tag == "testsuites", "root is <%s>" % root.tag
    cases = []
    for suite in root.findall("testsuite"):
        tcs = suite.findall("testcase")
        for key in ("tests", "failures", "errors", "skipped"):
            int(suite.get(key))
        if int(suite.get("tests")) != len(tcs):
            raise AssertionError("suite says tests=%s, has %d testcases" %
                                 (suite.get("tests"), len(tcs)))
        n_fail = sum(tc.find("failure") is not None for tc in tcs)
        n_skip = sum(tc.find("skipped") is not None for tc in tcs)
        if int(suite.get("failures")) != n_fail or int(suite.get("skipped")) != n_skip:
            raise AssertionError("suite counts disagree with its testcases")
        for tc in tcs:
            state = "PASS"
            if tc.find("failure") is not None:
                state = "FAIL"
            elif tc.find("error") is not None:
                state = "ERROR"
            elif tc.find("skipped") is not None:
                state = "SKIP"
            cases.append((tc.get("classname"), tc.get("name"), state))
    return cases


def expected_name(name, cpu, core, label):
    if cpu is None:
        return "%s on %s" % (name, label)
    return "%s [cpu %d %s] on %s" % (name, cpu, core, label)


def exit_state(status, truth):
    """The exit-status case's state (docs/CI.md): status 1 with FAIL verdicts
    is their failure, counted once, so the case passes."""
    if status == 1 and any(v == "FAIL" for _, _, v in truth):
        return "PASS"
    return {0: "PASS", 1: "FAIL", 77: "SKIP"}.get(status, "ERROR")


def check_junit(path, truth, exit_status=None):
    base = os.path.basename(path)
    label = cpu_label(path)
    doc = json.load(open(path))
    cores = {(v["name"], v.get("cpu")): v.get("core_type") for v in doc.get("verdicts", [])}
    out = os.path.join(TMP, base + ".xml")
    rc, so, se = run("--junit", out, path)
    if rc != 0:
        report(False, "junit %s" % base, "exit %d: %s" % (rc, se.strip()))
        return
    try:
        cases = junit_cases(open(out).read())
    except (ET.ParseError, AssertionError, TypeError, ValueError) as e:
        report(False, "junit %s" % base, "not valid JUnit: %s" % e)
        return
    want = []
    for name, cpu, verdict in truth:
        want.append((expected_name(name, cpu, cores.get((name, cpu)), label), verdict))
    if exit_status is not None:
        want.append(("exit status on %s" % label, exit_state(exit_status, truth)))
    got = [(n, s) for _, n, s in cases]
    report(sorted(got) == sorted(want), "junit %s: one testcase per verdict, same verdicts" % base,
           "got %s, want %s" % (sorted(set(got) - set(want)), sorted(set(want) - set(got))))
    kernels_ok = all(c.split(".")[-1] == n.split("/")[0] for c, n, _ in cases if "/" in n)
    report(kernels_ok, "junit %s: the classname names the kernel" % base, str(cases[:3]))


def check_tap(path, truth):
    base = os.path.basename(path)
    rc, so, se = run("--tap", path)
    lines = so.splitlines()
    plan = [ln for ln in lines if re.match(r"^1\.\.\d+", ln)]
    results = [ln for ln in lines if re.match(r"^(not )?ok \d+ ", ln)]
    ok = rc == 0 and lines[:1] == ["TAP version 13"] and len(plan) == 1
    ok = ok and int(plan[0][3:].split()[0]) == len(results)
    numbers = [int(ln.split()[1 if ln.startswith("ok") else 2]) for ln in results]
    ok = ok and numbers == list(range(1, len(results) + 1))
    n_skip = sum(" # SKIP " in ln for ln in results)
    n_not = sum(ln.startswith("not ok") for ln in results)
    want_skip = sum(v == "SKIP" for _, _, v in truth)
    want_fail = sum(v == "FAIL" for _, _, v in truth)
    doc = json.load(open(path))
    if "exit_status" in doc:
        want_skip += doc["exit_status"] == 77
        want_fail += exit_state(doc["exit_status"], truth) in ("FAIL", "ERROR")
    report(ok and n_skip == want_skip and n_not == want_fail,
           "tap %s: plan, numbering, SKIP and not ok" % base,
           "rc %d, %d results, %d skip (want %d), %d not ok (want %d)" %
           (rc, len(results), n_skip, want_skip, n_not, want_fail))


expand = caselines.cpu_list


def table_rows(lines, several):
    """(verdict, name, [CPUs] or None) of each row of a table; with several
    CPUs a row's CPUs are its CPUS cell, or the "cpus ..." line under it."""
    rows = []
    for i, ln in enumerate(lines):
        m = re.match(r"^(PASS|FAIL|SKIP) +(\S+)(?: +(\S+))?(?: +(\S+))?", ln)
        if not m:
            continue
        cpus = None
        if several and m.group(3) != "-":
            if m.group(4) == "CPUs":
                under = lines[i + 1].split()
                cpus = expand(under[1]) if under[:1] == ["cpus"] else []
            elif re.match(r"^[0-9,-]+$", m.group(3) or ""):
                cpus = expand(m.group(3))
            else:
                cpus = []  # not a CPU list: matches no verdict
        rows.append((m.group(1), m.group(2), cpus))
    return rows


def check_table(path, truth):
    base = os.path.basename(path)
    rc, so, se = run("--table", path)
    lines = so.splitlines()
    wide = [ln for ln in lines if len(ln) > 80]
    doc = json.load(open(path))
    named = [v for v in doc.get("verdicts", []) if v.get("cpu") is not None]
    several = len({v["cpu"] for v in named}) > 1
    rows = table_rows(lines, several)
    if not several:
        got = sorted((v, n) for v, n, _ in rows)
        want = sorted((v, n) for n, _, v in truth)
        report(rc == 0 and not wide and got == want,
               "table %s: 80 columns, one row per verdict" % base,
               "rc %d, %d lines over 80, rows %s want %s" % (rc, len(wide), got[:3], want[:3]))
        head = next((ln for ln in lines if ln.startswith("VERDICT ")), "")
        report(rc == 0 and head and "CPU" not in head,
               "table %s: one CPU or none: no CPU column" % base, "header %r" % head)
    else:
        # Several CPUs (docs/CI.md "The table"): a row per test, verdict and
        # core type, its CPUs as ranges; every verdict of the file in exactly
        # one row, no row without one.
        got = sorted((v, n, c) for v, n, cpus in rows for c in (cpus or [None]))
        want = sorted((v["verdict"], re.sub(r"@cpu%d$" % v["cpu"] if v.get("cpu") is not None
                                            else "$^", "", v["name"]), v.get("cpu"))
                      for v in doc["verdicts"])
        groups = {(v["verdict"], re.sub(r"@cpu\d+$", "", v["name"]), v.get("core_type"))
                  if v.get("cpu") is not None else id(v) for v in doc["verdicts"]}
        report(rc == 0 and not wide and got == want and len(rows) == len(groups),
               "table %s: 80 columns, a row per test, verdict and core type (%d rows for "
               "%d verdicts), each verdict's CPU in one" % (base, len(groups), len(want)),
               "rc %d, %d lines over 80, %d rows, only in the table %s, only in the file %s" %
               (rc, len(wide), len(rows), sorted(set(got) - set(want))[:4],
                sorted(set(want) - set(got))[:4]))
    # A failed or skipped verdict shows why, right under its row.
    for n, _, v in truth:
        if v == "PASS":
            continue
        n = re.sub(r"@cpu\d+$", "", n)
        i = next(i for i, l in enumerate(lines) if l.split()[:2] == [v, n])
        ok = i + 1 < len(lines) and lines[i + 1].startswith("        ")
        report(ok, "table %s: %s %s says why" % (base, v, n), "next line %r" % lines[i + 1:i + 2])
        break


def write_json(name, doc):
    p = os.path.join(TMP, name)
    with open(p, "w") as f:
        json.dump(doc, f)
    return p


def check_baseline():
    skl = fixture("v1-skl.json")
    doc = json.load(open(skl))
    rc, so, se = run("--baseline", skl, skl)
    report(rc == 0 and "no regression" in so.splitlines()[-1],
           "baseline: a run against itself: exit 0",
           "rc %d, last line %r" % (rc, so.splitlines()[-1:]))
    # One verdict flips to FAIL: exit 1, and the last line names it.
    bad = json.loads(json.dumps(doc))
    victim = bad["kernels"][1]["runs"][0]
    victim["verdict"], victim["why"] = "FAIL", "changed by the test"
    bad["summary"]["failures"] += 1
    p = write_json("flip.json", bad)
    rc, so, se = run("--baseline", skl, p)
    last = so.splitlines()[-1] if so else ""
    report(rc == 1 and victim["test"] in last and "PASS -> FAIL" in last,
           "baseline: one PASS -> FAIL exits 1 and names %s" % victim["test"],
           "rc %d, last line %r" % (rc, last))
    # The reverse (FAIL -> PASS) is a change, not a regression.
    rc, so, se = run("--baseline", p, skl)
    report(rc == 0 and any("CHANGED" in ln and victim["test"] in ln for ln in so.splitlines()),
           "baseline: FAIL -> PASS is listed, exit 0", "rc %d\n%s" % (rc, so))
    # A median that moves past both thresholds; one that moves less.
    # The run with the slowest median, so that tripling it passes both thresholds.
    run0 = max((r for k in doc["kernels"] for r in k.get("runs", []) if r.get("sources")),
               key=lambda r: r["sources"][0]["lat_median"])
    src = run0["sources"][0]
    old_med = src["lat_median"]
    for factor, extra, want_rc, what in ((3, 0, 1, "tripled"), (1, 5, 0, "+5 cycles")):
        moved = json.loads(json.dumps(doc))
        r = next(r for k in moved["kernels"]
                 for r in k.get("runs", []) if r["test"] == run0["test"])
        r["sources"][0]["lat_median"] = old_med * factor + extra
        p = write_json("median.json", moved)
        rc, so, se = run("--baseline", skl, p)
        named = run0["test"] in so.splitlines()[-1] and src["source"] in so.splitlines()[-1]
        report(rc == want_rc and (named or want_rc == 0),
               "baseline: median of %s %s (%d -> %d): exit %d" %
               (run0["test"], what, old_med, old_med * factor + extra, want_rc),
               "rc %d, last line %r" % (rc, so.splitlines()[-1:]))
    # The thresholds are options: a tripled median is no regression at 500%.
    moved = json.loads(json.dumps(doc))
    r = next(r for k in moved["kernels"] for r in k.get("runs", []) if r["test"] == run0["test"])
    r["sources"][0]["lat_median"] = old_med * 3 + 20
    p = write_json("median2.json", moved)
    rc, so, se = run("--baseline", skl, "--median-pct", "500", p)
    report(rc == 0, "baseline: --median-pct 500 accepts a tripled median", "rc %d" % rc)
    rc, so, se = run("--baseline", skl, "--median-cycles", "1000", p)
    report(rc == 0, "baseline: --median-cycles 1000 accepts a +%d cycle move" % (old_med * 2 + 20),
           "rc %d" % rc)
    # A verdict gone from the new run is a regression.
    gone = json.loads(json.dumps(doc))
    lost = gone["kernels"].pop()
    p = write_json("gone.json", gone)
    rc, so, se = run("--baseline", skl, p)
    report(rc == 1 and lost["runs"][0]["test"] in so.splitlines()[-1],
           "baseline: a verdict gone (%s) exits 1 and names it" % lost["runs"][0]["test"],
           "rc %d, last %r" % (rc, so.splitlines()[-1:]))
    # Version 2 against version 1: the hybrid fixture's CPUs make new keys.
    rc, so, se = run("--baseline", fixture("v2-hybrid.json"), fixture("v2-hybrid.json"))
    report(rc == 0, "baseline: version 2 against itself: exit 0", "rc %d %s" % (rc, se))


def check_baseline_many():
    """--baseline of 72 CPUs (tests/report/gen_results.py): every line within 80
    columns however many CPUs and regressions; a test that changed on many CPUs
    is one line naming them; cpu-compare PASS -> FAIL on CPU 9 one CHANGED line,
    not NEW and GONE; the closing line counts each test on each CPU once."""
    gen = os.path.join(HERE, "..", "report", "gen_results.py")
    base, odd = os.path.join(TMP, "g72-base.json"), os.path.join(TMP, "g72-odd.json")
    subprocess.run([sys.executable, gen, "--cpus", "72", "-o", base], check=True)
    subprocess.run([sys.executable, gen, "--cpus", "72", "--odd", "9", "-o", odd], check=True)
    doc = json.load(open(odd))
    flipped = list(range(0, 72, 2))
    for v in doc["verdicts"]:
        if v["name"] == "chase-l1/load" and v.get("cpu") in flipped:
            v["verdict"], v["why"] = "FAIL", "flipped by check_results.py " * 8
    p = write_json("g72-many.json", doc)
    for path, what in ((odd, "one odd CPU"), (p, "36 more CPUs failing")):
        rc, so, se = run("--baseline", base, path)
        lines = so.splitlines()
        wide = [len(ln) for ln in lines if len(ln) > 80]
        report(rc == 1 and not wide, "baseline of 72 CPUs (%s): every line within 80 columns" %
               what, "rc %d, lines of %s columns" % (rc, wide))
        cc = [ln for ln in lines if " cpu-compare" in ln]
        report(len(cc) == 1 and cc[0].startswith("CHANGED ") and "on cpu 9" in cc[0],
               "baseline of 72 CPUs (%s): cpu-compare PASS -> FAIL on cpu 9 is one CHANGED "
               "line" % what, "lines %s" % cc)
        fails = sum(1 for v in json.load(open(path))["verdicts"] if v["verdict"] == "FAIL")
        medians = sum(1 for ln in lines if ln.startswith("MEDIAN "))
        m = re.match(r"^(\d+) regressions: ", lines[-1] if lines else "")
        report(m and int(m.group(1)) == fails + medians,
               "baseline of 72 CPUs (%s): the closing line counts %d regressions (%d FAIL "
               "verdicts, each test on each CPU once, and %d medians)" % (
                   what, fails + medians, fails, medians), "last line %r" % lines[-1:])
    l1 = [ln for ln in so.splitlines() if ln.startswith("CHANGED  chase-l1/load ")]
    report(len(l1) == 1 and "[cpus 0,2,4," in l1[0],
           "baseline of 72 CPUs: chase-l1/load PASS -> FAIL on 36 CPUs is one line naming them",
           "lines %s" % l1)


def check_bad_input():
    notjson = os.path.join(TMP, "notjson.json")
    open(notjson, "w").write("REC: not json\n")
    empty = os.path.join(TMP, "empty.json")
    open(empty, "w").close()
    wrongtop = write_json("array.json", [1, 2])
    noversion = write_json("noversion.json", {"kernels": []})
    future = write_json("v9.json", {"results_version": 9})
    badtype = write_json("badtype.json", {"results_version": 1, "kernels": [
        {"kernel": "chase-l1", "runs": [{"test": "chase-l1/load", "verdict": "PASS",
                                          "records": "many"}]}]})
    cases = [
        ("missing file", ["/nonexistent/results.json"], "cannot read"),
        ("a directory", [TMP], "directory"),
        ("not JSON", [notjson], "not JSON"),
        ("empty file", [empty], "empty"),
        ("not an object", [wrongtop], "not a results file"),
        ("no results_version", [noversion], "results_version"),
        ("unknown version", [future], "not supported"),
        ("wrong type", [badtype], "records"),
        ("unknown option", ["--bogus", fixture("v1-skl.json")], "--bogus"),
        ("no file", [], "expected one results file"),
        ("two files", [fixture("v1-skl.json"), fixture("v1-nhm.json")], "expected one"),
        ("option without value", [fixture("v1-skl.json"), "--junit"], "--junit"),
        ("bad threshold", ["--median-pct", "lots", fixture("v1-skl.json")], "lots"),
        ("two stdout formats", ["--tap", "--table", fixture("v1-skl.json")], "stdout"),
        ("missing baseline", ["--baseline", "/nonexistent.json", fixture("v1-skl.json")],
         "/nonexistent.json"),
    ]
    for what, args, needle in cases:
        rc, so, se = run(*args)
        lines = se.splitlines()
        # What was wrong (needle) and what is accepted (or expected) instead.
        ok = rc == 2 and len(lines) == 1 and needle in lines[0] and any(
            w in lines[0] for w in ("accepted", "expected", "needs a value"))
        report(ok, "bad input (%s): exit 2, one line naming it" % what,
               "rc %d, stderr %r" % (rc, se))


def check_v3():
    """Version 3: each run's properties and a chase kernel's latency calibration are read
    (a wrong state is bad input) and pebs-report shows the calibration."""
    doc = json.load(open(fixture("v2-hybrid.json")))
    doc["results_version"] = 3
    k = doc["kernels"][0]
    k["runs"][0]["properties"] = [{"property": "records", "state": "checked"},
                                  {"property": "L1 hits", "state": "n/a"}]
    k["runs"][0]["ip_exact"] = 987
    k["runs"][0]["skid"] = {"0": 987, "1": 13, "2-3": 0, "4+": 0, "outside": 0}
    why = "PEBS 6 / 4.00 cyc/load = 1.50, not in 0.42..1.15"
    k["latency_calibration"] = {"state": "failed", "verdict": "FAIL", "why": why,
                                "cycles_per_load_x100": 400, "pebs_median": 6,
                                "ratio_x100": 150}
    good = write_json("v3.json", doc)
    rc, so, se = run("--table", good)
    report(rc in (0, 1) and not se.strip(), "version 3: read", "rc %d %s" % (rc, se))
    html = os.path.join(TMP, "v3.html")
    p = subprocess.run([os.path.join(BUILD, "host", "pebs-report"), good, "-o", html],
                       capture_output=True, text=True)
    page = open(html).read() if p.returncode == 0 and os.path.exists(html) else ""
    report("latency calibration: FAIL: " + why in page, "version 3: pebs-report shows the "
           "latency calibration", "rc %d %s" % (p.returncode, p.stderr.strip()[-200:]))
    want = "exact IPs: %s 98.7%%" % (k["runs"][0].get("sampling") or k["runs"][0]["test"])
    report(want in page, "version 3: pebs-report shows the share of exact IPs",
           "no %r in the page" % want)
    k["runs"][0]["properties"][0]["state"] = "maybe"
    bad = write_json("v3-bad.json", doc)
    rc, so, se = run("--table", bad)
    report(rc == 2 and "properties[0].state" in se and "unchecked" in se,
           "version 3: a property state outside the four is bad input", "rc %d %r" % (rc, se))


def check_errors():
    """results.json errors[] (docs/RESULTS.md): each environment ERROR is a JUnit
    <error> case, a TAP "not ok" and a table row, each naming it and why."""
    doc = json.load(open(fixture("v2-hybrid.json")))
    doc["exit_status"], doc["exit_meaning"] = 99, "environment"
    doc["errors"] = [{"name": "dump", "why": "chase-l1-load.pebs (37400 bytes) not written: "
                      "the ESP has 1024 bytes free"},
                     {"name": "results", "why": "results.json: EFI_VOLUME_FULL"}]
    path = write_json("v2-errors.json", doc)
    label = cpu_label(path)
    rc, so, se = run("--junit", os.path.join(TMP, "v2-errors.xml"), path)
    root = ET.parse(os.path.join(TMP, "v2-errors.xml")).getroot() if rc == 0 else None
    errs = []
    if root is not None:
        for tc in root.iter("testcase"):
            el = tc.find("error")
            if el is not None and el.get("type") == "ERROR":
                errs.append((tc.get("name"), el.text))
    want = [("ERROR %s on %s" % (e["name"], label), e["why"]) for e in doc["errors"]]
    report(sorted(errs) == sorted(want), "junit errors[]: one <error> case per entry",
           "rc %d, got %s, want %s" % (rc, errs, want))
    rc, so, se = run("--tap", path)
    got = [ln for ln in so.splitlines() if ln.startswith("not ok") and " - ERROR " in ln]
    msgs = [e["why"] for e in doc["errors"] if '"%s"' % e["why"] in so]
    report(len(got) == len(doc["errors"]) and len(msgs) == len(doc["errors"]),
           "tap errors[]: a not ok line and message per entry", "got %s" % got)
    rc, so, se = run("--table", path)
    lines = so.splitlines()
    rows = [ln.split()[1] for ln in lines if ln.startswith("ERROR ")]
    whys = all(any(e["why"].split()[0] in ln for ln in lines if ln.startswith("        "))
               for e in doc["errors"])
    report(rows == [e["name"] for e in doc["errors"]] and whys and
           not [ln for ln in lines if len(ln) > 80],
           "table errors[]: an ERROR row and its why per entry", "rows %s" % rows)


def precision_doc(several_cpus):
    """Version 3 from the hybrid fixture, as the app writes it today: verdicts of
    several CPUs named NAME@cpuN (docs/RESULTS.md VERDICT), and each measured
    run's precision.  Rows: (with_ip, ip_point, skid) per measured run, in order;
    one CPU: CPU 0's verdicts and runs only."""
    doc = json.load(open(fixture("v2-hybrid.json")))
    doc["results_version"] = 3
    if not several_cpus:
        doc["verdicts"] = [v for v in doc["verdicts"] if v.get("cpu") in (None, 0)]
        for k in doc["kernels"]:
            k["runs"] = [r for r in k["runs"] if r.get("cpu") in (None, 0)]
    for v in doc["verdicts"]:
        if several_cpus and v.get("cpu") is not None:
            v["name"] += "@cpu%d" % v["cpu"]
    rows = [(187, "at", {"0": 187, "1": 0, "2-3": 0, "4+": 0, "outside": 0}),
            (187, "after", {"0": 150, "1": 30, "2-3": 4, "4+": 2, "outside": 1}),
            (0, "at", {"0": 0, "1": 0, "2-3": 0, "4+": 0, "outside": 0}),
            (187, "at", {"0": 185, "1": 0, "2-3": 0, "4+": 0, "outside": 2})]
    measured = [r for k in doc["kernels"] for r in k["runs"] if r.get("records") is not None]
    for r, (with_ip, point, skid) in zip(measured, rows):
        r["with_ip"], r["ip_point"], r["skid"] = with_ip, point, skid
        r["ip_exact"] = skid["0"] * 1000 // with_ip if with_ip else 0
    return doc


def run_line(lines, name, cpu):
    """The table row of a verdict: its name (NAME@cpuN shows NAME, its CPU in
    the row's CPUS cell)."""
    base = name.split("@")[0]
    for i, ln in enumerate(lines):
        f = ln.split()
        if len(f) > 2 and f[1] in (name, base) and f[0] in ("PASS", "FAIL", "SKIP") and \
                (cpu is None or (re.match(r"^[0-9,-]+$", f[2]) and cpu in expand(f[2]))):
            return i
    return None


def check_at_cpu():
    """A verdict of one of several CPUs is named NAME@cpuN; its run's "test" is NAME
    (docs/RESULTS.md).  The table still shows that run's records and data source."""
    doc = json.load(open(fixture("v2-hybrid.json")))
    for v in doc["verdicts"]:
        if v.get("cpu") is not None:
            v["name"] += "@cpu%d" % v["cpu"]
    # A name longer than its column: on a line of its own, the figures under it.
    doc["verdicts"].append({"name": "chase-dram/calibration-of-a-long-name@cpu2",
                            "verdict": "PASS", "why": "", "cpu": 2, "apic_id": 16,
                            "core_type": "E-core"})
    rc, so, se = run("--table", write_json("v2-at-cpu.json", doc))
    lines = so.splitlines()
    rows = [ln for ln in lines if ln.split()[:1] in (["PASS"], ["FAIL"], ["SKIP"])]
    report(len(rows) == len(doc["verdicts"]), "table: one line starts with each verdict's word, "
           "a long name's too", "%d lines for %d verdicts" % (len(rows), len(doc["verdicts"])))
    for k in doc["kernels"]:
        for r in k["runs"]:
            if r.get("records") is None or r.get("cpu") is None:
                continue
            name = "%s@cpu%d" % (r["test"], r["cpu"])
            i = run_line(lines, name, r["cpu"])
            cells = lines[i].split() if i is not None else []
            report(str(r["records"]) in cells, "table: %s shows its run's %d records" %
                   (name, r["records"]), "row %r" % (lines[i] if i is not None else None))


def check_precision():
    """Each run's exact-IP share and skid (docs/CI.md): the table's EXACT column and a
    skid line under a run whose IPs missed, the ip_point named under the table; TAP's
    YAML and JUnit's <system-out> per verdict.  Expected values from the file."""
    for several in (True, False):
        doc = precision_doc(several)
        tag = "several CPUs" if several else "one CPU"
        path = write_json("v3-precision-%d.json" % several, doc)
        rc, so, se = run("--table", path)
        lines = so.splitlines()
        head = next((ln for ln in lines if ln.startswith("VERDICT ")), "")
        report(rc in (0, 1) and head.split()[-1] == "EXACT" and
               not [ln for ln in lines if len(ln) > 80],
               "precision table (%s): an EXACT column, 80 columns" % tag,
               "rc %d %s header %r" % (rc, se.strip(), head))
        for v in doc["verdicts"]:
            cpu = v.get("cpu")
            r = next((r for k in doc["kernels"] for r in k["runs"]
                      if v["name"].split("@")[0] == r["test"] and r.get("cpu") == cpu), None)
            if r is None or r.get("records") is None:
                continue
            i = run_line(lines, v["name"], cpu if several else None)
            cells = lines[i].split() if i is not None else []
            want = "-" if not r["with_ip"] else "%d.%d%%" % (r["ip_exact"] // 10,
                                                             r["ip_exact"] % 10)
            report(cells[-1:] == [want] and str(r["records"]) in cells,
                   "precision table (%s): %s's records and EXACT %s" % (tag, v["name"], want),
                   "row %r" % (lines[i] if i is not None else None))
            # The main data source keeps its share in the narrower column.
            main = max(r["sources"], key=lambda x: x["count"])
            share = "%d%%" % ((main["share_permille"] + 5) // 10)
            report(share in cells, "precision table (%s): %s's main source share %s" %
                   (tag, v["name"], share), "row %r" % (lines[i] if i is not None else None))
            missed = r["with_ip"] and any(r["skid"][b] for b in ("1", "2-3", "4+", "outside"))
            below = []
            for ln in lines[i + 1:] if i is not None else []:
                if not ln.startswith("        "):
                    break
                below.append(ln)
            skid = [ln for ln in below if ln.strip().startswith("skid in instructions")]
            text = skid[0] if skid else ""
            ok = all("%s: %d" % (b, n) in text for b, n in r["skid"].items()) if missed \
                else not skid
            report(ok, "precision table (%s): %s: %s" %
                   (tag, v["name"], "the skid under it" if missed else "no skid line"),
                   "lines under it %r" % below)
        points = {r["ip_point"] for k in doc["kernels"] for r in k["runs"] if r.get("with_ip")}
        first = next((i for i, ln in enumerate(lines) if ln.startswith("EXACT: ")), len(lines))
        foot = lines[first:first + 1] + [ln.strip() for ln in lines[first + 1:]
                                         if ln.startswith("       ")]
        words = {"at": "at the sampled instruction", "after": "the instruction after it"}
        report(foot and all(words[p] in " ".join(foot) for p in points),
               "precision table (%s): where an exact IP points, %s" % (tag, sorted(points)),
               "footer %r" % foot)
        rc, so, se = run("--tap", path)
        blocks = so.split("\nok ")[1:] + so.split("\nnot ok ")[1:]
        for r in (r for k in doc["kernels"] for r in k["runs"] if r.get("with_ip")):
            name = r["test"] + ("@cpu%d" % r["cpu"] if several else "")
            block = next((b for b in blocks if b.split(" - ")[1].startswith(name + " ")), "")
            want = ["ip_exact_permille: %d" % r["ip_exact"], 'ip_point: "%s"' % r["ip_point"],
                    "skid: {%s}" % ", ".join('"%s": %d' % (b, n) for b, n in r["skid"].items())]
            report(all(w in block for w in want), "precision tap (%s): %s's YAML" % (tag, name),
                   "block %r" % block[:300])
        out = os.path.join(TMP, "v3-precision.xml")
        rc, so, se = run("--junit", out, path)
        texts = {tc.get("name").split(" ")[0]: (tc.findtext("system-out") or "")
                 for tc in ET.parse(out).getroot().iter("testcase")} if rc == 0 else {}
        for r in (r for k in doc["kernels"] for r in k["runs"] if r.get("with_ip")):
            name = r["test"] + ("@cpu%d" % r["cpu"] if several else "")
            want = "precision: %d.%d%% of %d IPs exact" % (r["ip_exact"] // 10,
                                                           r["ip_exact"] % 10, r["with_ip"])
            report(want in texts.get(name, ""), "precision junit (%s): %s: %s" %
                   (tag, name, want), "system-out %r" % texts.get(name))
    # The second line counts the run's CPUs: "1 CPU", "4 CPUs".
    for n in (1, 4):
        doc = precision_doc(False)
        doc["cpus"] = n
        rc, so, se = run("--table", write_json("v3-cpus.json", doc))
        second = so.splitlines()[1] if so else ""
        want = "%d CPU%s " % (n, "" if n == 1 else "s")
        report(want in second + " ", "table: %d CPUs counted as %r" % (n, want.strip()),
               "second line %r" % second)
    # An older file records no precision: its table keeps the columns it had.
    rc, so, se = run("--table", fixture("v2-hybrid.json"))
    report("EXACT" not in so, "precision table: no EXACT column for a file without it",
           "rc %d" % rc)
    # A skid bin the schema does not have is bad input.
    doc = precision_doc(True)
    doc["kernels"][0]["runs"][0]["skid"]["5"] = 1
    rc, so, se = run("--table", write_json("v3-badskid.json", doc))
    report(rc == 2 and "skid" in se and "outside" in se,
           "precision: a skid bin outside the five is bad input", "rc %d %r" % (rc, se))


def main():
    if not os.access(TOOL, os.X_OK):
        report(False, "pebs-results", "%s not built (make BUILD=%s host)" % (TOOL, BUILD))
        return 1
    sets = [("v1-skl.json", console_truth(fixture("v1-skl.console")), None),
            ("v1-nhm.json", console_truth(fixture("v1-nhm.console")), None),
            ("v2-hybrid.json", schema_verdicts(fixture("v2-hybrid.json")), 1),
            ("v2-usage.json", schema_verdicts(fixture("v2-usage.json")), 2)]
    for name, truth, status in sets:
        check_junit(fixture(name), truth, status)
        check_tap(fixture(name), truth)
        if truth:
            check_table(fixture(name), truth)
    # The table of many CPUs: the real 4-CPU runs, 72 synthetic CPUs with one odd.
    many = os.path.join(TMP, "gen-72.json")
    subprocess.run([sys.executable, os.path.join(HERE, "..", "report", "gen_results.py"),
                    "--cpus", "72", "--odd", "9", "-o", many], check=True)
    for path in (fixture("v3-adl4.json"), fixture("v3-sim-adl4-skid.json"), many):
        check_table(path, schema_verdicts(path))
    check_errors()
    check_baseline()
    check_baseline_many()
    check_bad_input()
    check_v3()
    check_at_cpu()
    check_precision()
    return caselines.status()


if __name__ == "__main__":
    caselines.run(main)
