# SPDX-License-Identifier: MIT
"""check_live.py BUILD MODEL... - the results tools on what the app writes
today: boots each model (run-qemu.sh, 2 CPUs), reads back results.json, and
checks that pebs-results' JUnit has exactly the console's verdicts, that its
table has a row for each, that a run compared with itself is no regression,
and that pebs-report draws one histogram per kernel.  When the app starts
writing results version 2, this runs on version 2.  PASS:/FAIL: lines."""

import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BUILD = sys.argv[1]
MODELS = sys.argv[2:]
TMP = tempfile.mkdtemp(prefix="check-live.")
failed = 0


def report(ok, name, why=""):
    global failed
    if ok:
        print("PASS: %s" % name)
    else:
        failed += 1
        print("FAIL: %s: %s" % (name, why))
    return ok


def tool(name, *args):
    return subprocess.run([os.path.join(BUILD, "host", name)] + list(args), capture_output=True,
                          text=True)


for m in MODELS:
    img, log = os.path.join(TMP, m + ".img"), os.path.join(TMP, m + ".log")
    p = subprocess.run(["./run-qemu.sh", "--smp", "2", "--timeout", "150", "--esp", img, "--log",
                        log, "--", "pmu=sim", "model=" + m], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, env=dict(os.environ, BUILD=BUILD))
    console = [(g[1], g[0]) for g in re.findall(r"^(PASS|FAIL|SKIP): ([^:\s]+)",
                                                 open(log, errors="replace").read(), re.M)]
    res = os.path.join(TMP, m + ".json")
    q = subprocess.run(["mtype", "-i", img, "::/EFI/BOOT/results.json"], capture_output=True)
    if not report(p.returncode in (0, 1) and q.returncode == 0 and q.stdout,
                  "live %s: boot (exit %d) and results.json" % (m, p.returncode),
                  p.stderr.strip()[-200:]):
        continue
    open(res, "wb").write(q.stdout)
    version = json.loads(q.stdout).get("results_version")
    r = tool("pebs-results", "--junit", "-", res)
    try:
        cases = [(tc.get("name").split(" ")[0],
                  "FAIL" if tc.find("failure") is not None else
                  "SKIP" if tc.find("skipped") is not None else
                  "ERROR" if tc.find("error") is not None else "PASS")
                 for tc in ET.fromstring(r.stdout).iter("testcase")
                 if not tc.get("name").startswith("exit status")]
    except ET.ParseError as e:
        cases = "not XML: %s" % e
    report(r.returncode == 0 and sorted(cases) == sorted(console),
           "live %s (results v%s): JUnit has the console's %d verdicts" % (m, version, len(console)),
           "rc %d, %s\nvs console %s" % (r.returncode, cases, console))
    t = tool("pebs-results", "--table", res)
    rows = sorted((l.split()[1], l.split()[0]) for l in t.stdout.splitlines()
                  if re.match(r"^(PASS|FAIL|SKIP) ", l))
    report(t.returncode == 0 and rows == sorted(console) and
           all(len(l) <= 80 for l in t.stdout.splitlines()),
           "live %s: table, a row per verdict, 80 columns" % m, "rows %s" % rows[:3])
    b = tool("pebs-results", "--baseline", res, res)
    report(b.returncode == 0, "live %s: a run against itself: no regression" % m,
           b.stdout[-200:])
    html = os.path.join(TMP, m + ".html")
    h = tool("pebs-report", res, "-o", html)
    kernels = [k["kernel"] for k in json.loads(q.stdout).get("kernels", [])]
    drawn = re.findall(r'<svg class="histogram"[^>]* data-kernel="([^"]+)"',
                       open(html).read()) if h.returncode == 0 else []
    report(drawn == kernels, "live %s: pebs-report draws one histogram per kernel (%d)" %
           (m, len(kernels)), "rc %d, %s" % (h.returncode, drawn))
sys.exit(1 if failed else 0)
