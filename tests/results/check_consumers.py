# SPDX-License-Identifier: MIT
"""check_consumers.py BUILD - pebs-results' CI formats read by the programs
that consume them, and one failure count in every place.

- JUnit (--junit) validated by xmllint against the schema Jenkins' xUnit
  plugin checks its input with (tests/results/junit-10.xsd, a copy of
  jenkinsci/xunit-plugin's, MIT; see tests/results/README);
- TAP (--tap) read by Perl's prove (TAP::Harness) with no parse error, its
  test and failure counts those of the file;
- the failures: JUnit's, prove's, the table's closing line, the HTML
  report's verdict row and the app's SUMMARY (summary.failures) agree.

Inputs: every results file in tests/results/, a synthetic 72-CPU run with
one odd CPU (tests/report/gen_results.py) and a file whose names and
reasons hold what TAP and XML escape ('#', '\\', newlines, '<&>').
Prints PASS:/FAIL:/SKIP: lines."""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import caselines  # noqa: E402
from caselines import report  # noqa: E402

BUILD = caselines.build_dir(__doc__)
RESULTS = os.path.join(BUILD, "host", "pebs-results")
REPORT = os.path.join(BUILD, "host", "pebs-report")
SCHEMA = os.path.join(HERE, "junit-10.xsd")
TMP = tempfile.mkdtemp(prefix="check-consumers.")


def awkward():
    """A version-2 file whose names and reasons need escaping in TAP and XML."""
    path = os.path.join(TMP, "awkward.json")
    verdicts = [{"name": "chase#1/load", "verdict": "FAIL", "why": "a # b \\ c\nd <&> \"e\""},
                {"name": "x\\y", "verdict": "SKIP", "why": "# SKIP inside\nline 2"},
                {"name": "ok-one", "verdict": "PASS", "why": "fine # really"}]
    json.dump({"results_version": 2, "verdicts": verdicts, "exit_status": 1,
               "summary": {"tests": 3, "failures": 1, "skipped": 1},
               "errors": [{"name": "dump#2", "why": "ESP full <&>"}]}, open(path, "w"))
    return path


def inputs():
    out = sorted(glob.glob(os.path.join(HERE, "*.json")))
    many = os.path.join(TMP, "gen-72.json")
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "report", "gen_results.py"),
                    "--cpus", "72", "--odd", "9", "-o", many], check=True)
    return out + [many, awkward()]


def junit_counts(path):
    """(rc, xmllint's complaint, failures, errors) of the file's JUnit."""
    xml = os.path.join(TMP, os.path.basename(path) + ".xml")
    p = subprocess.run([RESULTS, "--junit", xml, path], capture_output=True, text=True)
    if p.returncode != 0:
        return p.returncode, p.stderr.strip(), None, None
    v = subprocess.run(["xmllint", "--noout", "--schema", SCHEMA, xml], capture_output=True,
                       text=True)
    root = ET.parse(xml).getroot()
    return v.returncode, v.stderr.strip().splitlines()[:1], int(root.get("failures")), \
        int(root.get("errors"))


def prove(path):
    """(parse errors, tests, failed) as prove reports them for the file's TAP."""
    tap = os.path.join(TMP, os.path.basename(path) + ".tap")
    with open(tap, "w") as f:
        subprocess.run([RESULTS, "--tap", path], stdout=f, check=True)
    p = subprocess.run(["prove", "--exec", "cat", tap], capture_output=True, text=True)
    text = p.stdout + p.stderr
    errs = re.findall(r"Parse errors: (.*)", text)
    m = re.search(r"Tests: (\d+) Failed: (\d+)", text)
    if m:
        return errs, int(m.group(1)), int(m.group(2))
    m = re.search(r"Files=1, Tests=(\d+)", text)
    return errs, int(m.group(1)) if m else None, 0


def table_fails(path):
    p = subprocess.run([RESULTS, "--table", path], capture_output=True, text=True)
    m = re.search(r"^\d+ verdicts: \d+ PASS, (\d+) FAIL", p.stdout, re.M)
    return int(m.group(1)) if m else None


def report_fails(path):
    html = os.path.join(TMP, "r.html")
    subprocess.run([REPORT, path, "-o", html], capture_output=True, check=True)
    m = re.search(r"<th>verdicts</th><td>\d+ PASS, (\d+) FAIL", open(html).read())
    return int(m.group(1)) if m else None


def main():
    for tool, why in ((RESULTS, "make host builds it"), (REPORT, "make host builds it"),
                      ("xmllint", "tools/deps.sh check installs libxml2-utils"),
                      ("prove", "tools/deps.sh check installs perl")):
        if not (os.access(tool, os.X_OK) or shutil.which(tool)):
            report(False, "ci-consumers", "%s missing (%s)" % (tool, why))
            return 1
    for path in inputs():
        base = os.path.basename(path)
        doc = json.load(open(path))
        rc, complaint, j_fail, j_err = junit_counts(path)
        report(rc == 0, "%s: JUnit valid against xUnit's junit-10.xsd" % base,
               "rc %d: %s" % (rc, complaint))
        errs, tests, failed = prove(path)
        n_tap = len(doc.get("verdicts") or []) + len(doc.get("errors") or []) + (
            "exit_status" in doc)
        report(not errs and tests is not None and (tests == n_tap or doc["results_version"] ==
                                                   1),
               "%s: TAP read by prove, no parse error" % base,
               "parse errors %s, %s tests (want %d)" % (errs, tests, n_tap))
        fails = {"JUnit failures": j_fail, "prove's failed less errors":
                 None if failed is None or j_err is None else failed - j_err,
                 "table": table_fails(path), "HTML report": report_fails(path)}
        if doc.get("summary"):
            fails["SUMMARY"] = doc["summary"]["failures"]
        report(len(set(fails.values())) == 1, "%s: one failure count (%d)" % (
            base, list(fails.values())[0] or 0), ", ".join("%s %s" % kv for kv in fails.items()))
    return caselines.status()


if __name__ == "__main__":
    caselines.run(main, TMP)
