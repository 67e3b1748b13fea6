# SPDX-License-Identifier: MIT
"""check_matrix.py BUILD - build/host/pebs-matrix itself, on a small matrix
written here: four boots, two at a time; one entry expects a non-zero status
(77), one a usage error (2), and one expects the wrong status, which the
runner must report as FAIL and turn into exit 1.  The JUnit it writes is
parsed and compared with each entry's own serial transcript (the console's
PASS/FAIL/SKIP lines), not with a pasted copy.  Prints PASS:/FAIL: lines."""

import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import caselines  # noqa: E402
from caselines import report  # noqa: E402

BUILD = caselines.build_dir(__doc__)
TOOL = os.path.join(BUILD, "host", "pebs-matrix")
TMP = tempfile.mkdtemp(prefix="check-matrix.")

MATRIX = """
# written by tests/matrix/check_matrix.py
[DEFAULT]
smp = 2
options = pmu=sim kernels=chase-l1,chase-dram,share-hitm
timeout = 120
groups = small

[skl]
model = skl

[pebs-off]
model = pebs-off
exit = 77
groups = small off

[bad-option]
model = no-such-model
exit = 2

# pebs-off exits 77: expecting 0 must be reported as a failure.
[wrong-expectation]
model = pebs-off
exit = 0
groups = off
"""


def tool(*args):
    env = dict(os.environ, BUILD=BUILD)
    return subprocess.run([TOOL] + list(args), capture_output=True, text=True, env=env)


def per_test(verdicts):
    """(name, outcome) pairs to name -> the worst outcome over its CPUs: the
    console prints one line per test across several CPUs, worst first
    (docs/OUTPUT.md), and JUnit one case per test and CPU (name@cpuN)."""
    rank = {"PASS": 0, "SKIP": 1, "FAIL": 2}
    out = {}
    for name, state in verdicts:
        name = re.sub(r"@cpu\d+$", "", name)
        if rank[state] >= rank.get(out.get(name), -1):
            out[name] = state
    return out


def log_verdicts(log):
    """(name, verdict) of every verdict line of a serial log."""
    return [(n, v) for v, n, _ in caselines.console_verdicts(open(log, errors="replace").read())]


def main():
    if not os.access(TOOL, os.X_OK):
        report(False, "pebs-matrix", "%s not built (make BUILD=%s host)" % (TOOL, BUILD))
        return 1
    mfile = os.path.join(TMP, "small.cfg")
    with open(mfile, "w") as f:
        f.write(MATRIX)
    logdir = os.path.join(TMP, "logs")
    junit = os.path.join(TMP, "junit.xml")
    names = ["skl", "pebs-off", "bad-option", "wrong-expectation"]

    # Selection, without booting.
    p = tool("-f", mfile, "--list", "*-o*")
    listed = [ln.split()[0] for ln in p.stdout.splitlines()]
    report(p.returncode == 0 and listed == ["pebs-off", "bad-option"],
           "--list with a glob selects by name", "rc %d, %s" % (p.returncode, listed))
    p = tool("-f", mfile, "--list", "-g", "off")
    listed = [ln.split()[0] for ln in p.stdout.splitlines()]
    report(p.returncode == 0 and listed == ["pebs-off", "wrong-expectation"],
           "--list -g selects by group", "rc %d, %s" % (p.returncode, listed))

    # The run: every entry, two at a time.
    p = tool("-f", mfile, "-j", "2", "--logdir", logdir, "--junit", junit)
    out = p.stdout.splitlines()
    report(p.returncode == 1, "a wrong expectation makes the run exit 1",
           "rc %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
    for n in names:
        lines = [ln for ln in out if re.match(r"^(PASS|FAIL) %s \(" % re.escape(n), ln)]
        want = "FAIL" if n == "wrong-expectation" else "PASS"
        report(len(lines) == 1 and lines[0].startswith(want),
               "one %s line for entry %s" % (want, n), "lines %s" % lines)
    wrong = [ln for ln in out if ln.startswith("FAIL wrong-expectation")]
    report(bool(wrong) and "exit 77, expected 0" in wrong[0],
           "the FAIL line says what was expected", "%s" % wrong)
    rows = {ln.split()[0]: ln.split() for ln in out if ln.split() and ln.split()[0] in names}
    ok = all(n in rows for n in names) and rows["pebs-off"][4] == "77" and \
        rows["bad-option"][4] == "2" and rows["wrong-expectation"][-1] == "FAIL"
    start = next((i for i, ln in enumerate(out) if ln.startswith("ENTRY ")), len(out))
    ok = ok and all(len(ln) <= 80 for ln in out[start:])
    report(ok and out[-1] == "4 entries: 3 passed, 1 failed",
           "summary table: a row per entry with its status, the totals, 80 columns",
           "rows %s, last %r" % (rows, out[-1:]))

    # JUnit: one suite per entry, its status first, then its verdicts, which
    # must be the entry's console verdicts.
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as e:
        report(False, "junit parses", str(e))
        return 1
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    report(sorted(suites) == sorted("matrix " + n for n in names), "junit: one suite per entry",
           "%s" % sorted(suites))
    for n in names:
        s = suites.get("matrix " + n)
        if s is None:
            continue
        cases = s.findall("testcase")
        first = cases[0] if cases else None
        want_fail = n == "wrong-expectation"
        ok = first is not None and first.get("name") == "%s: exit status" % n and \
            (first.find("failure") is not None) == want_fail
        report(ok, "junit %s: the entry's status case first, %s" %
               (n, "failed" if want_fail else "passed"),
               "%s" % (first.attrib if first is not None else None))
        log = os.path.join(logdir, n + ".log")
        truth = log_verdicts(log) if os.path.exists(log) else None
        got = []
        for tc in cases[1:]:
            if tc.get("name").startswith("exit status"):
                continue
            state = "FAIL" if tc.find("failure") is not None else \
                "SKIP" if tc.find("skipped") is not None else "PASS"
            got.append((tc.get("name").split(" ")[0], state))
        if os.path.exists(os.path.join(logdir, n + ".results.json")):
            # Every run writes one (results version 2); refused options have no verdicts.
            report(truth is not None and per_test(got) == per_test(truth) and
                   (len(got) > 0) == (n != "bad-option"),
                   "junit %s: the verdicts are the console's (%d)" % (n, len(got)),
                   "got %s, console %s" % (got, truth))
        else:
            # The app wrote no results file (exit 2, or 77 in results
            # version 1): only the status case, and the console has no PASS.
            report(not got and not any(v == "PASS" for _, v in (truth or [])),
                   "junit %s: no results file, no verdict cases" % n, "got %s" % got)

    # Bad usage: one line, exit 2.
    bad = os.path.join(TMP, "bad.cfg")
    with open(bad, "w") as f:
        f.write("[x]\nmodel = skl\nsmpp = 2\n")
    for what, args, needle in (("unknown key", ["-f", bad, "--list"], "smpp"),
                               ("bad -j", ["-f", mfile, "-j", "0", "--list"], "-j"),
                               ("no match", ["-f", mfile, "--list", "nothing*"], "nothing*"),
                               ("missing file", ["-f", "/nonexistent.cfg"], "/nonexistent.cfg"),
                               ("unknown option", ["--bogus"], "--bogus")):
        p = tool(*args)
        lines = p.stderr.splitlines()
        report(p.returncode == 2 and len(lines) == 1 and needle in lines[0] and
               "accepted" in lines[0], "bad usage (%s): exit 2, one line" % what,
               "rc %d, %r" % (p.returncode, p.stderr))
    return caselines.status()


if __name__ == "__main__":
    caselines.run(main, TMP)
