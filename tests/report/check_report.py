# SPDX-License-Identifier: MIT
"""check_report.py BUILD - build/host/pebs-report in a real browser.

Headless Chromium (Debian's chromium + chromium-driver, driven by
python3-selenium) loads reports made from a real version-1 run and a copy
of it changed here (one verdict flipped, one median moved), and from the
version-2 fixture (several CPUs).  Checked: the page loads with no console
message of level SEVERE (a CSP violation, i.e. any fetch, is one), one
rendered histogram per kernel per run, the changed verdict and the moved
median marked, the per-CPU table.  Screenshots go to BUILD/test-logs/ for
people to look at.  Prints PASS:/FAIL:/SKIP: lines."""

import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import caselines  # noqa: E402
from caselines import report  # noqa: E402
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
TOOL = os.path.join(BUILD, "host", "pebs-report")
SHOTS = os.path.join(BUILD, "test-logs")
TMP = tempfile.mkdtemp(prefix="check-report.")
CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"


def fixture(name):
    return os.path.join(ROOT, "tests", "results", name)


def make_changed_copy():
    """A copy of the real skl run with one PASS turned FAIL and the slowest
    median tripled: (path, flipped test, (kernel, test, source))."""
    doc = json.load(open(fixture("v1-skl.json")))
    flip = doc["kernels"][1]["runs"][0]
    flip["verdict"], flip["why"] = "FAIL", "flipped by check_report.py"
    doc["summary"]["failures"] += 1
    k, r = max(((k, r) for k in doc["kernels"] for r in k.get("runs", []) if r.get("sources")),
               key=lambda kr: kr[1]["sources"][0]["lat_median"])
    r["sources"][0]["lat_median"] *= 3
    path = os.path.join(TMP, "skl-changed.json")
    json.dump(doc, open(path, "w"))
    return path, flip["test"], (k["kernel"], r["test"], r["sources"][0]["source"])


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
              "--user-data-dir=" + os.path.join(TMP, "profile")):
        opts.add_argument(a)
    if os.geteuid() == 0:
        opts.add_argument("--no-sandbox")  # Chromium refuses to run as root otherwise
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=DRIVER), options=opts)


def figures_of(path):
    """(kernel, core type or None) of each figure a run's report draws, from
    the input: per kernel, one per core type of the CPUs whose samplings have
    records (None: no CPU recorded, or no records at all)."""
    doc = json.load(open(path))
    types = {c["cpu"]: c.get("core_type") for c in doc.get("cpus_tested") or []}
    out = []
    for k in doc.get("kernels", []):
        if any(f[0] == k["kernel"] for f in out):
            continue
        runs = [r for kk in doc["kernels"] if kk["kernel"] == k["kernel"]
                for r in kk.get("runs", [])]
        cts = []
        if any(r.get("sources") for r in runs) and any("cpu" in r for r in runs):
            for r in runs:
                ct = types.get(r.get("cpu"), r.get("core_type"))
                if ct not in cts:
                    cts.append(ct)
        out += [(k["kernel"], ct) for ct in cts or [None]]
    return out


def check_page(drv, html, inputs, name):
    from selenium.webdriver.common.by import By
    drv.get_log("browser")  # drop what earlier pages logged
    drv.get("file://" + os.path.abspath(html))
    state = drv.execute_script("return document.readyState")
    logs = drv.get_log("browser")
    severe = [ln["message"] for ln in logs if ln.get("level") == "SEVERE"]
    report(state == "complete" and not severe, "%s: loads with no console error" % name,
           "readyState %s, %s" % (state, severe[:3]))
    for i, path in enumerate(inputs):
        want = figures_of(path)
        figs = drv.find_elements(By.CSS_SELECTOR, 'svg.histogram[data-run="%d"]' % i)
        got = []
        for f in figs:
            g = f.get_attribute("data-group")
            got.append((f.get_attribute("data-kernel"),
                        g[5:].split(" ")[0] if g.startswith("type:") else None))
        shown = all(f.is_displayed() and f.size["width"] > 100 and f.size["height"] > 40
                    for f in figs)
        report(got == want and shown, "%s: run %d: one rendered histogram per kernel and core "
               "type (%d)" % (name, i + 1, len(want)),
               "got %s, want %s, displayed %s" % (got, want, shown))
        # Every data source of every kernel has its panel: count bars' titles.
        doc = json.load(open(path))
        want_panels = sum(len(r.get("sources", [])) for k in doc.get("kernels", [])
                          for r in k.get("runs", []))
        got_panels = sum(len(f.find_elements(By.CSS_SELECTOR, "text.pt")) for f in figs) - sum(
            1 for k in doc.get("kernels", []) for r in k.get("runs", []) if r.get("sources"))
        report(got_panels == want_panels, "%s: run %d: one histogram panel per data source (%d)" %
               (name, i + 1, want_panels), "got %d" % got_panels)
    # The whole page, for people to look at.
    height = drv.execute_script("return document.documentElement.scrollHeight")
    drv.set_window_size(1400, min(max(height, 600), 16000))
    shot = os.path.join(SHOTS, "report-%s.png" % name)
    drv.save_screenshot(shot)
    size = png_size(shot)
    report(size is not None and size[0] >= 1000 and os.path.getsize(shot) > 20000,
           "%s: screenshot %s" % (name, shot), "size %s, %d bytes" % (
               size, os.path.getsize(shot) if os.path.exists(shot) else 0))
    drv.set_window_size(1400, 1000)
    return drv


def main():
    for need in (TOOL, CHROMIUM, DRIVER):
        if not os.access(need, os.X_OK):
            report(False, "report-browser", "%s missing (tools/deps.sh installs chromium, "
                   "chromium-driver; make host builds pebs-report)" % need)
            return 1
    try:
        __import__("selenium")
    except ImportError:
        report(False, "report-browser", "python3-selenium missing (tools/deps.sh)")
        return 1
    os.makedirs(SHOTS, exist_ok=True)
    changed, flipped, moved = make_changed_copy()
    two = os.path.join(TMP, "two.html")
    hybrid = os.path.join(TMP, "hybrid.html")
    for out, inputs in ((two, [fixture("v1-skl.json"), changed]),
                        (hybrid, [fixture("v2-hybrid.json")])):
        p = subprocess.run([TOOL] + inputs + ["-o", out], capture_output=True, text=True)
        report(p.returncode == 0 and os.path.getsize(out) > 0, "pebs-report %s" %
               " ".join(os.path.basename(i) for i in inputs), "rc %d %s" % (p.returncode, p.stderr))
    # Bad input: one line naming it, exit 2, nothing written.
    notjson = os.path.join(TMP, "not.json")
    open(notjson, "w").write("INFO: pebsprobe\n")
    for what, args, needle in (("no -o", [fixture("v1-skl.json")], "-o"),
                               ("no input", ["-o", os.path.join(TMP, "x.html")], "no results file"),
                               ("not JSON", [notjson, "-o",
                                os.path.join(TMP, "y.html")], "not JSON"),
                               ("missing input",
                                ["/nonexistent.json", "-o", os.path.join(TMP, "z.html")],
                                "/nonexistent.json")):
        p = subprocess.run([TOOL] + args, capture_output=True, text=True)
        lines = p.stderr.splitlines()
        report(p.returncode == 2 and len(lines) == 1 and needle in lines[0] and
               "accepted" in lines[0] and not any(
                   os.path.exists(os.path.join(TMP, n)) for n in ("x.html", "y.html", "z.html")),
               "pebs-report bad input (%s): exit 2, one line" % what,
               "rc %d %r" % (p.returncode, p.stderr))
    text = open(two).read()
    outside = [w for w in ("http://", "https://", "<script", " src=", "<link", "@import")
               if w in text]
    report(not outside, "the page is self-contained (no script, no link, no URL)", str(outside))

    from selenium.webdriver.common.by import By
    drv = browser()
    try:
        check_page(drv, two, [fixture("v1-skl.json"), changed], "two-runs")
        drv.get("file://" + os.path.abspath(two))
        rows = drv.find_elements(By.CSS_SELECTOR, "table.verdicts tr")
        row = next((r for r in rows if r.find_elements(By.TAG_NAME, "th") and
                    r.find_element(By.TAG_NAME, "th").text == flipped), None)
        cells = row.find_elements(By.TAG_NAME, "td") if row else []
        ok = len(cells) == 2 and "changed" in cells[1].get_attribute("class") and \
            "FAIL" in cells[1].text and "was PASS" in cells[1].text and \
            "changed" not in (cells[0].get_attribute("class") or "")
        report(ok, "two-runs: the flipped verdict (%s) is marked changed in run 2 only" % flipped,
               "cells %s" % [(c.get_attribute("class"), c.text) for c in cells])
        marked = [r.find_element(By.TAG_NAME, "th").text for r in rows[1:]
                  if any("changed" in (c.get_attribute("class") or "")
                         for c in r.find_elements(By.TAG_NAME, "td"))]
        report(marked == [flipped], "two-runs: no other verdict is marked", "%s" % marked)
        kernel, test, source = moved
        fig = drv.find_element(By.CSS_SELECTOR, 'svg.histogram[data-run="1"][data-kernel="%s"]' %
                               kernel)
        parent = fig.find_element(By.XPATH, "..")
        meds = fig.find_elements(By.CSS_SELECTOR, "text.med.changed")
        report("changed" in (parent.get_attribute("class") or "") and len(meds) == 1 and
               "was" in meds[0].text, "two-runs: the moved median of %s is marked" % kernel,
               "figure class %r, %s" % (parent.get_attribute("class"), [m.text for m in meds]))
        others = drv.find_elements(By.CSS_SELECTOR, "figure.changed")
        report(len(others) == 1, "two-runs: no other figure is marked", "%d marked" % len(others))
        fig.screenshot(os.path.join(SHOTS, "report-moved-%s.png" % kernel))

        check_page(drv, hybrid, [fixture("v2-hybrid.json")], "hybrid")
        doc = json.load(open(fixture("v2-hybrid.json")))
        drv.get("file://" + os.path.abspath(hybrid))
        tables = drv.find_elements(By.CSS_SELECTOR, "table.cpus")
        rows = tables[0].find_elements(By.TAG_NAME, "tr")[1:] if len(tables) == 1 else []
        want = [[str(c["cpu"]), c["core_type"], str(c["failed"])] for c in doc["cpus_tested"]]
        got = [[r.find_elements(By.TAG_NAME, "td")[i].text for i in (0, 2, 5)] for r in rows]
        report(got == want, "hybrid: the per-CPU table has one row per CPU tested",
               "got %s, want %s" % (got, want))
        for f in drv.find_elements(By.CSS_SELECTOR, "svg.histogram"):
            f.screenshot(os.path.join(SHOTS, "report-hybrid-%s.png" %
                         f.get_attribute("data-kernel")))
    finally:
        drv.quit()
    return caselines.status()


if __name__ == "__main__":
    caselines.run(main)
