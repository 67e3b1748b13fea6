# SPDX-License-Identifier: MIT
"""check_compare.py BUILD - build/host/pebs-report with two runs side by side
(docs/REPORT.md), read back with the standard library's HTML parser, no
browser: the same run twice, a good run against a faulty one, one CPU
against four (tests/results/v3-sim-*.json, runs of the simulator).  Each
page: exit 0, nothing on stderr but notes, a column per run, one histogram
per kernel and run, and as changed exactly the verdicts that differ.  A
malformed run is one error line and exit 2, never a traceback.
Prints PASS:/FAIL: lines."""

import json
import os
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import caselines  # noqa: E402
from caselines import report  # noqa: E402

BUILD = caselines.build_dir(__doc__)
TOOL = os.path.join(BUILD, "host", "pebs-report")
TMP = tempfile.mkdtemp(prefix="check-compare.")


def fixture(name):
    return os.path.join(ROOT, "tests", "results", name)


GOOD, SKID, FOUR = (fixture("v3-sim-skl1.json"), fixture("v3-sim-skl1-skid.json"),
                    fixture("v3-sim-adl4-skid.json"))


class Page(HTMLParser):
    """What the checks read from a page: the identity table's run columns,
    the histograms (run, kernel), the findings against run 1."""

    def __init__(self):
        super().__init__()
        self.heads, self.figures, self.findings = [], [], []
        self._tag = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and a.get("class") == "histogram":
            self.figures.append((int(a["data-run"]), a["data-kernel"]))
        self._tag = (tag, a.get("class"))

    def handle_data(self, data):
        if self._tag == ("th", None) and data.startswith("run ") and ": " in data:
            self.heads.append(data)
        if self._tag and self._tag[0] == "li" and self._tag[1] in ("reg", ""):
            self.findings.append(data)

    def handle_endtag(self, tag):
        self._tag = None


def verdict_keys(path):
    """{(name without @cpuN, cpu): verdict} of a file, as the report matches them."""
    out = {}
    for v in json.load(open(path))["verdicts"]:
        name, cpu = v["name"], v.get("cpu")
        if cpu is not None and name.endswith("@cpu%d" % cpu):
            name = name[:-len("@cpu%d" % cpu)]
        out[(name, cpu)] = v["verdict"]
    return out


def kernels_of(path):
    return sorted({k["kernel"] for k in json.load(open(path))["kernels"]})


def want_changed(old, new):
    """The subjects of findings a reader expects: each verdict that differs or
    is new or gone, a test named once however many CPUs it changed on."""
    o, n = verdict_keys(old), verdict_keys(new)
    return sorted({name for (name, cpu) in set(o) | set(n) if o.get((name, cpu)) !=
                   n.get((name, cpu))})


# name, inputs
PAIRS = (
    ("same run twice", [GOOD, GOOD]),
    ("good against faulty", [GOOD, SKID]),
    ("faulty against good", [SKID, GOOD]),
    ("one CPU against four", [GOOD, FOUR]),
    ("four CPUs against one", [FOUR, GOOD]),
    ("three runs", [GOOD, SKID, FOUR]),
)


def check_pairs():
    for name, inputs in PAIRS:
        out = os.path.join(TMP, name.replace(" ", "-") + ".html")
        p = subprocess.run([TOOL] + inputs + ["-o", out], capture_output=True, text=True)
        errs = [ln for ln in p.stderr.splitlines() if ": note: " not in ln]
        if not report(p.returncode == 0 and not errs and os.path.exists(out),
                      "%s: pebs-report exits 0, no error" % name,
                      "rc %d, stderr %r" % (p.returncode, errs[-1:])):
            continue
        page = Page()
        page.feed(open(out, encoding="utf-8").read())
        want = ["run %d: %s" % (i + 1, f) for i, f in enumerate(inputs)]
        report(page.heads[:len(inputs)] == want, "%s: a column per run" % name,
               "got %s, want %s" % (page.heads[:len(inputs)], want))
        figs = sorted(set(page.figures))
        want_figs = sorted((i, k) for i, f in enumerate(inputs) for k in kernels_of(f))
        report(figs == want_figs, "%s: histograms of every kernel of every run" % name,
               "got %s, want %s" % (figs, want_figs))
        # A finding: "KIND name [cpu N]: ...", the name its second word.
        subjects = sorted({ln.split()[1] for ln in page.findings
                           if ln.split()[0] in ("CHANGED", "NEW", "GONE")})
        want_subj = sorted({s for later in inputs[1:] for s in want_changed(inputs[0], later)})
        report(subjects == want_subj, "%s: the verdicts that differ, and only those, are "
               "listed as changed" % name, "got %s, want %s" % (subjects, want_subj))


def check_malformed():
    """A malformed run in either place: one line on stderr naming the file, exit 2."""
    good = json.load(open(GOOD))
    cases = (
        ("a run that is not an object", lambda d: d["kernels"][0]["runs"].__setitem__(0, 7)),
        ("a run without its test", lambda d: d["kernels"][0]["runs"][0].pop("test")),
        ("a histogram bin of three numbers",
         lambda d: d["kernels"][0]["runs"][0]["sources"][0].__setitem__("histogram",
                                                                        [[1, 2, 3]])),
        ("ip_exact a string", lambda d: d["kernels"][0]["runs"][0].__setitem__("ip_exact", "x")),
    )
    for what, spoil in cases:
        doc = json.loads(json.dumps(good))
        spoil(doc)
        bad = os.path.join(TMP, "bad.json")
        json.dump(doc, open(bad, "w"))
        for order in ([GOOD, bad], [bad, GOOD]):
            p = subprocess.run([TOOL] + order + ["-o", os.path.join(TMP, "bad.html")],
                               capture_output=True, text=True)
            lines = p.stderr.splitlines()
            report(p.returncode == 2 and len(lines) == 1 and bad in lines[0] and
                   "Traceback" not in p.stderr,
                   "malformed run (%s) %s: one error line, exit 2" % (
                       what, "second" if order[1] == bad else "first"),
                   "rc %d, stderr %r" % (p.returncode, p.stderr[-300:]))


def check_internal_error():
    """Whatever still goes wrong inside a tool is one line and exit 2
    (tools/results/cli.py main): a run() that raises, as the KeyError did."""
    code = ("import sys; sys.path.insert(0, %r); import cli; "
            "cli.main('pebs-x', lambda argv: {}['load'])" % os.path.join(ROOT, "tools", "results"))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    lines = p.stderr.splitlines()
    report(p.returncode == 2 and len(lines) == 1 and lines[0].startswith(
        "pebs-x: internal error: KeyError: 'load' at "), "an internal error: one line, exit 2",
        "rc %d, stderr %r" % (p.returncode, p.stderr[-300:]))


def main():
    if not os.access(TOOL, os.X_OK):
        report(False, "report-compare", "%s missing (make host builds it)" % TOOL)
        return 1
    check_pairs()
    check_malformed()
    check_internal_error()
    return caselines.status()


if __name__ == "__main__":
    caselines.run(main, TMP)
