# SPDX-License-Identifier: MIT
"""check_report.py BUILD - build/host/pebs-report in a real browser.

Headless Chromium (Debian's chromium + chromium-driver, driven by
python3-selenium) loads reports made from a real version-1 run and a copy
of it changed here (one verdict flipped, one median moved), and from the
version-2 fixture (several CPUs).  Checked: the page loads with no console
message of level SEVERE (a CSP violation, i.e. any fetch, is one), one
rendered histogram per kernel and core type per run, the changed verdict
and the moved median marked, the per-CPU table.  Then synthetic runs of 64
and 576 CPUs (gen_results.py) with one odd CPU, alone and against a run
without it: the test x CPU grid (a cell per row and column, every CPU
once, colours by verdict), the odd CPU marked and given a figure of its
own, the changed marks on it alone; two broken copies of a page must be
refused.  Screenshots go to BUILD/test-logs/ for people to look at.
Without the browser: SKIP.  Prints PASS:/FAIL:/SKIP: lines."""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import caselines  # noqa: E402
from caselines import report  # noqa: E402
BUILD = caselines.build_dir(__doc__)
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


GRID_JS = """
const out = {grids: [], figures: []};
for (const t of document.querySelectorAll('table.grid')) {
    out.grids.push({run: t.dataset.run, cpus: t.dataset.cpus, columns: t.dataset.columns,
        rows: t.querySelectorAll('tr').length - 2,
        cells: [...t.querySelectorAll('td.c')].map(td => [td.className, td.dataset.cpus,
            getComputedStyle(td).backgroundColor, td.title]),
        heads: [...t.querySelectorAll('th.cpu')].map(th => [th.className, th.dataset.cpus])});
}
for (const f of document.querySelectorAll('figure')) {
    const svg = f.querySelector('svg.histogram');
    if (svg)
        out.figures.push([f.dataset.group || '', f.className, svg.getAttribute('data-run'),
                          svg.getAttribute('data-kernel')]);
}
return out;
"""


expand = caselines.cpu_list


def grid_problems(g, doc, names, n, odd, changed):
    """What is wrong with one grid (GRID_JS's summary of it)."""
    bad = []
    cols = int(g["columns"])
    # Past 64 CPUs, a column per run of adjacent CPUs of one type with the same verdicts.
    sig = {}
    for v in doc["verdicts"]:
        if "cpu" in v:
            sig.setdefault(v["cpu"], (v["core_type"], []))[1].append((v["name"], v["verdict"]))
    runs = [c for c in range(n) if c == 0 or (sig[c][0], sorted(sig[c][1])) !=
            (sig[c - 1][0], sorted(sig[c - 1][1]))]
    want = n if n <= 64 else len(runs)
    if g["cpus"] != str(n) or cols != want:
        bad.append("grid of %s CPUs in %d columns, want %d CPUs in %d" % (
            g["cpus"], cols, n, want))
    heads = [expand(cpus) for _, cpus in g["heads"]]
    if sorted(c for h in heads for c in h) != list(range(n)) or len(heads) != cols:
        bad.append("column headers cover %s, want each of cpus 0-%d once" % (heads[:5], n - 1))
    if g["rows"] != len(names) or len(g["cells"]) != len(names) * cols:
        bad.append("%d rows, %d cells; want %d rows x %d columns" % (
            g["rows"], len(g["cells"]), len(names), cols))
    # Colours: each verdict's CPUs as many as the input's verdicts of that word,
    # one background per word, a different one for each.
    colours, per_word = {}, {}
    for cls, cpus, bg, _ in g["cells"]:
        word = cls.split()[1]
        colours.setdefault(word, set()).add(bg)
        per_word[word] = per_word.get(word, 0) + len(expand(cpus))
    for word in ("PASS", "FAIL", "SKIP"):
        want = sum(1 for v in doc["verdicts"] if "cpu" in v and v["verdict"] == word)
        if per_word.get(word, 0) != want:
            bad.append("%d %s cells (by CPU), want %d" % (per_word.get(word, 0), word, want))
    firsts = [next(iter(c)) for c in colours.values()]
    if any(len(c) != 1 for c in colours.values()) or len(set(firsts)) != len(colours):
        bad.append("colours by verdict %s, want one each, all different" % colours)
    # The hover text: the row, the cell's CPUs, its verdict; a FAIL's why from the input.
    whys = {(v["name"], str(v["cpu"])): v["why"] for v in doc["verdicts"] if "cpu" in v}
    for i, (cls, cpus, _, title) in enumerate(g["cells"]):
        row = names[i // cols] if cols else ""
        where = "cpu %s" % cpus if "," not in cpus and "-" not in cpus else "cpus %s (" % cpus
        word = cls.split()[1]
        if not title.startswith("%s on %s" % (row, where)) or (
                word != "none" and word not in title) or (
                word == "FAIL" and whys.get((row, cpus), "?") not in title):
            bad.append("cell %d (%s, cpus %s): title %r" % (i, row, cpus, title[:80]))
            break
    fails = {cpus for cls, cpus, _, _ in g["cells"] if " FAIL" in cls}
    marked = [cpus for cls, cpus in g["heads"] if "bad" in cls.split()]
    want = [] if odd is None else [str(odd)]
    if marked != want or sorted(fails) != want:
        bad.append("CPUs marked bad %s, FAIL cells on %s; want %s" % (marked, fails, want))
    ch_cells = {cpus for cls, cpus, _, _ in g["cells"] if "changed" in cls.split()}
    if ch_cells != ({str(odd)} if changed else set()):
        bad.append("changed cells on %s, want %s" % (sorted(ch_cells), [odd] if changed
                                                     else []))
    return bad


def many_problems(page, path, run, odd, changed=False):
    """What is wrong with the grid and figures of one run of a many-CPU report:
    its input path, the odd CPU, and whether only that CPU's marks say changed."""
    doc = json.load(open(path))
    n = len(doc["cpus_tested"])
    names = []
    for v in doc["verdicts"]:
        if "cpu" in v and v["name"] not in names:
            names.append(v["name"])
    bad = []
    grids = [g for g in page["grids"] if g["run"] == str(run)]
    if len(grids) != 1:
        bad.append("%d grids of run %d, want 1" % (len(grids), run + 1))
    else:
        bad += grid_problems(grids[0], doc, names, n, odd, changed)
    figs = [(grp, cls) for grp, cls, r, _ in page["figures"] if r == str(run)]
    # A figure per kernel (with records) and core type.
    want = sorted((k["kernel"], c["core_type"]) for k in doc["kernels"] if k.get("cpu") == 0
                  and any(r.get("sources") for r in k.get("runs", []))
                  for c in {c["core_type"]: c for c in doc["cpus_tested"]}.values())
    got = sorted((k, grp[5:].split(" ")[0]) for grp, _, r, k in page["figures"]
                 if r == str(run) and grp.startswith("type:"))
    if got != want:
        bad.append("figures by type %s, want %s" % (got[:4], want[:4]))
    own = sorted({grp for grp, _ in figs if grp.startswith("cpu:")})
    if own != (["cpu:%d" % odd] if odd is not None else []) or not all(
            "odd" in cls.split() for grp, cls in figs if grp.startswith("cpu:")):
        bad.append("figures of their own: %s, want cpu:%s's, framed odd" % (own, odd))
    ch_figs = {grp for grp, cls in figs if "changed" in cls.split()}
    if ch_figs != ({"cpu:%d" % odd} if changed else set()):
        bad.append("changed figures %s, want %s" % (sorted(ch_figs),
                                                    ["cpu:%d" % odd] if changed else []))
    return bad


def check_many(drv):
    """Reports of the real 4-CPU run whose CPU 2 has wrong latencies, and of
    synthetic 64- and 576-CPU runs (tests/report/gen_results.py)."""
    gen = os.path.join(HERE, "gen_results.py")
    made = {}
    for key, args in (("s64", ["--cpus", "64", "--odd", "37"]), ("s64-base", ["--cpus", "64"]),
                      ("s576", ["--cpus", "576", "--odd", "300"])):
        made[key] = os.path.join(TMP, key + ".json")
        subprocess.run([sys.executable, gen] + args + ["-o", made[key]], check=True)
    cases = (("adl-4-cpus", [fixture("v3-adl4.json")], [(0, 2, False)]),
             ("64-cpus", [made["s64"]], [(0, 37, False)]),
             ("576-cpus", [made["s576"]], [(0, 300, False)]),
             ("64-cpus-changed", [made["s64-base"], made["s64"]],
              [(0, None, False), (1, 37, True)]))
    pages = {}
    for name, inputs, runs in cases:
        out = os.path.join(TMP, name + ".html")
        p = subprocess.run([TOOL] + inputs + ["-o", out], capture_output=True, text=True)
        if not report(p.returncode == 0, "%s: pebs-report" % name, p.stderr.strip()):
            continue
        pages[name] = out
        drv.get("file://" + os.path.abspath(out))
        page = drv.execute_script(GRID_JS)
        for run, odd, changed in runs:
            bad = many_problems(page, inputs[run], run, odd, changed)
            report(not bad, "%s: run %d: grid (cells, colours by verdict), %s marked%s" % (
                name, run + 1, "no CPU" if odd is None else "cpu %d" % odd,
                ", changed marks on it only" if changed else ""),
                "; ".join(bad))
        height = drv.execute_script("return document.documentElement.scrollHeight")
        drv.set_window_size(1400, min(max(height, 600), 16000))
        shot = os.path.join(SHOTS, "report-%s.png" % name)
        drv.save_screenshot(shot)
        size = png_size(shot)
        report(size is not None and size[0] >= 1000, "%s: screenshot %s" % (name, shot),
               "size %s" % (size,))
        drv.set_window_size(1400, 1000)
    if "64-cpus" not in pages:
        return
    # Broken reports must be refused: the odd CPU unmarked, a column gone.
    text = open(pages["64-cpus"]).read()
    broken = (("odd CPU unmarked", text.replace('class="cpu bad"', 'class="cpu"')
               .replace('data-group="cpu:37" class="odd"', 'data-group="cpu:37"')),
              ("a cell gone", re.sub(r'<td class="c PASS" data-cpus="5"[^>]*>P</td>', "",
                                     text, count=1)))
    for what, html in broken:
        path = os.path.join(TMP, "broken.html")
        open(path, "w").write(html)
        drv.get("file://" + path)
        bad = many_problems(drv.execute_script(GRID_JS), made["s64"], 0, 37)
        if bad:
            print("INFO: broken report (%s): %s" % (what, "; ".join(bad)))
        report(bad and html != text, "64-cpus: a broken report (%s) is refused" % what,
               "no problem found")


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
            g = f.get_attribute("data-group") or ""
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
    if not os.access(TOOL, os.X_OK):
        report(False, "report-browser", "%s missing (make host builds it)" % TOOL)
        return 1
    # Without the browser nothing here can be checked: a SKIP that says so
    # (tools/deps.sh check installs them, as CI runs it).
    for need in (CHROMIUM, DRIVER):
        if not os.access(need, os.X_OK):
            print("SKIP: report-browser: %s missing (tools/deps.sh check installs chromium, "
                  "chromium-driver)" % need)
            return 0
    try:
        __import__("selenium")
    except ImportError:
        print("SKIP: report-browser: python3-selenium missing (tools/deps.sh check)")
        return 0
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
        check_many(drv)
    finally:
        drv.quit()
    return caselines.status()


if __name__ == "__main__":
    caselines.run(main)
