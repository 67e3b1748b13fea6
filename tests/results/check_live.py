# SPDX-License-Identifier: MIT
"""check_live.py BUILD MODEL... - the results tools on what the app writes
today: boots each model (run-qemu.sh, 2 CPUs), reads back results.json, and
checks it against version 3 of the schema (docs/RESULTS.md) and the
console of the same boot: the run identity, the exit status, every
verdict line, the CPUs; then that pebs-results' JUnit has exactly the
console's verdicts, that its table has a row for each, that a run compared
with itself is no regression, and that pebs-report draws one histogram per
kernel.  Three more boots end otherwise (refused options: exit 2;
mode=report, on skl and on ptl, whose CPUID.23H run.cpu.perfmon_ext must
match the console) and must leave their own results.json too.  PASS:/FAIL:
lines."""

import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tools", "results"))
import results_file  # noqa: E402  the tools' own reader, with its type checks
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import caselines  # noqa: E402
from caselines import report  # noqa: E402

_AP = caselines.ArgumentParser(description=__doc__.strip().splitlines()[0])
_AP.add_argument("build", metavar="BUILD", help="the build folder")
_AP.add_argument("models", nargs="*", metavar="MODEL", help="the models to boot")
_ARGS = _AP.parse_args()
BUILD, MODELS = _ARGS.build, _ARGS.models
TMP = tempfile.mkdtemp(prefix="check-live.")


def tool(name, *args):
    return subprocess.run([os.path.join(BUILD, "host", name)] + list(args), capture_output=True,
                          text=True)


MEANING = {0: "pass", 1: "fail", 2: "usage", 77: "skipped", 99: "environment"}
CORE_TYPES = ("P-core", "E-core", "none")
run_ids = []


def signature_fms(sig):
    """Display family, model, stepping of a CPUID.1:EAX signature (SDM Vol. 2A, CPUID)."""
    fam, mod, step = (sig >> 8) & 0xf, (sig >> 4) & 0xf, sig & 0xf
    if fam == 0xf:
        fam += (sig >> 20) & 0xff
    if fam in (0x6, 0xf) or fam > 0xf:
        mod |= ((sig >> 16) & 0xf) << 4
    return fam, mod, step


def schema_v2(doc, text, rc, model):
    """What is wrong with a live results.json against version 2 and its boot's console."""
    bad = []

    def need(cond, what):
        if not cond:
            bad.append(what)

    def typed(obj, key, t, where):
        v = obj.get(key) if isinstance(obj, dict) else None
        need(isinstance(v, t) and not (t is int and isinstance(v, bool)),
             "%s%s: expected %s, got %r" % (where, key, t.__name__, v))
        return v

    lines = [re.sub(r" \[sim\]$", "", ln) for ln in text.splitlines()]
    sim = any(ln.endswith(" [sim]")
              for ln in text.splitlines() if ln.startswith("INFO: pebsprobe "))
    need(doc.get("results_version") == 3, "results_version %r, not 3" % doc.get("results_version"))
    run = typed(doc, "run", dict, "") or {}
    rid = typed(run, "id", str, "run.") or ""
    need(re.fullmatch(r"[0-9a-f]{16}", rid), "run.id %r: not 16 hex digits" % rid)
    run_ids.append(rid)
    need(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", typed(run, "time", str, "run.") or ""),
         "run.time %r: not the firmware's YYYY-MM-DDTHH:MM:SS" % run.get("time"))
    opts = typed(run, "options", str, "run.") or ""
    need(("model=" + model) in opts.split(), "run.options lacks model=%s: %r" % (model, opts))
    fw = typed(run, "firmware", dict, "run.") or {}
    need(typed(fw, "vendor", str, "run.firmware.") == "EDK II", "run.firmware.vendor under OVMF")
    need(re.fullmatch(r"0x[0-9a-f]+", typed(fw, "revision", str, "run.firmware.") or ""),
         "run.firmware.revision %r" % fw.get("revision"))
    need(re.fullmatch(r"\d+\.\d\d", typed(fw, "uefi", str, "run.firmware.") or ""),
         "run.firmware.uefi %r" % fw.get("uefi"))
    sm = typed(run, "smbios", dict, "run.") or {}
    # QEMU's SMBIOS type 1 names QEMU as the manufacturer (hw/smbios defaults).
    need(typed(sm, "manufacturer", str, "run.smbios.") == "QEMU", "run.smbios.manufacturer")
    typed(sm, "product", str, "run.smbios.")
    banner = [ln for ln in lines if ln.startswith("INFO: pebsprobe ")]
    version = banner[0].split()[2] if banner else None
    need(typed(run, "pebsprobe", str, "run.") == version == doc.get("pebsprobe"),
         "run.pebsprobe %r vs banner %r" % (run.get("pebsprobe"), version))
    need(typed(run, "simulated", bool, "run.") == sim, "run.simulated %r, console [sim] %r" %
         (run.get("simulated"), sim))
    if sim:
        need(run.get("sim_model") == model, "run.sim_model %r" % run.get("sim_model"))
    need(typed(doc, "exit_status", int, "") == rc, "exit_status %r, run-qemu.sh %d" %
         (doc.get("exit_status"), rc))
    need(doc.get("exit_meaning") == MEANING.get(rc), "exit_meaning %r" % doc.get("exit_meaning"))
    console = caselines.console_verdicts("\n".join(lines))
    verdicts = typed(doc, "verdicts", list, "") or []
    got = [(v.get("verdict"), v.get("name"), v.get("why")) for v in verdicts]
    want = console
    need(got == want, "verdicts differ from the console's lines: %s" %
         [(g, w) for g, w in zip(got + [None] * len(want), want + [None] * len(got)) if g != w][:2])
    per_cpu = {}
    for i, v in enumerate(verdicts):
        if "/" in v.get("name", ""):
            k, smp = v["name"].split("/", 1)
            need(v.get("kernel") == k and v.get("sampling") == smp, "verdicts[%d] kernel" % i)
        if "cpu" in v:
            typed(v, "apic_id", int, "verdicts[%d]." % i)
            need(v.get("core_type") in CORE_TYPES, "verdicts[%d].core_type" % i)
            c = per_cpu.setdefault(v["cpu"], {"PASS": 0, "FAIL": 0, "SKIP": 0})
            c[v["verdict"]] += 1
    tested = typed(doc, "cpus_tested", list, "") or []
    need({c.get("cpu"): {"PASS": c.get("passed"), "FAIL": c.get("failed"),
                         "SKIP": c.get("skipped")} for c in tested} == per_cpu,
         "cpus_tested %r vs the verdicts' CPUs %r" % (tested, per_cpu))
    for k in doc.get("kernels", []):
        for r in k.get("runs", []):
            w = "kernels[%s].runs[%s]." % (k.get("kernel"), r.get("test"))
            typed(r, "cpu", int, w)
            typed(r, "apic_id", int, w)
            need(r.get("core_type") in CORE_TYPES, w + "core_type %r" % r.get("core_type"))
            # Version 3: a measured run names each property's state; a PASS none unchecked.
            props = r.get("properties")
            need("records" not in r or isinstance(props, list), w + "properties missing")
            states = [p.get("state") for p in props or []]
            need(all(st in results_file.PROPERTY_STATES for st in states), w + "properties")
            need(r.get("verdict") != "PASS" or "unchecked" not in states,
                 w + "a PASS with an unchecked property")
    for v, n, why in console:
        need(v != "PASS" or "not checked" not in (why or ""), "PASS %s says 'not checked'" % n)
    summ = [ln for ln in lines if ln.startswith("SUMMARY: ")]
    if summ:
        t, f, sk = map(int, re.findall(r"\d+", summ[-1])[:3])
        s = doc.get("summary", {})
        need((s.get("tests"), s.get("failures"), s.get("skipped")) == (t, f, sk),
             "summary %r vs %s" % (s, summ[-1]))
    if doc.get("cpu") is not None:
        c = typed(run, "cpu", dict, "run.") or {}
        sig = int(typed(c, "signature", str, "run.cpu.") or "0", 16)
        need(signature_fms(sig) == (doc.get("family"), doc.get("model"), c.get("stepping")),
             "run.cpu.signature %s vs family %r model %r stepping %r" %
             (c.get("signature"), doc.get("family"), doc.get("model"), c.get("stepping")))
        need(c.get("microcode") is None or re.fullmatch(r"0x[0-9a-f]+", c["microcode"]),
             "run.cpu.microcode %r" % c.get("microcode"))
        # CPUID.23H: the console's perfmon-ext lines (pmu/cpu.c report_perfmon_ext)
        pe = c.get("perfmon_ext", "absent")
        m = re.search(r"^INFO: perfmon-ext: (?:no |sub-leaves (0x[0-9a-f]+), umask2 (yes|no), "
                      r"eq (yes|no) )", text, re.M)
        if not m:
            need(False, "no INFO: perfmon-ext line on the console")
        elif m.group(1) is None:
            need(pe is None, "run.cpu.perfmon_ext %r, console: no leaf 23H" % (pe,))
        else:
            need(isinstance(pe, dict) and pe.get("subleaves") == m.group(1) and
                 pe.get("umask2") == (m.group(2) == "yes") and pe.get(
                     "eq") == (m.group(3) == "yes"),
                 "run.cpu.perfmon_ext %r vs console %s" % (pe, m.group(0)))
            g = re.search(r"^INFO: perfmon-ext: counters GP (0x[0-9a-f]+), fixed (0x[0-9a-f]+)",
                          text, re.M)
            cn = pe.get("counters") if isinstance(pe, dict) else None
            need((g is None and cn is None) or
                 (g is not None and isinstance(cn, dict) and
                  (cn.get("gp"), cn.get("fixed")) == (g.group(1), g.group(2))),
                 "run.cpu.perfmon_ext.counters %r vs console %s" % (cn, g and g.group(0)))
    return bad


def join_wrapped(text):
    """The console's 80-column lines made whole (lib/report.h report_wrap): a
    line that starts with 4 spaces continues the one before it."""
    out = []
    for line in text.splitlines():
        if line.startswith("    ") and out:
            out[-1] = re.sub(r" \[sim\]$", "", out[-1]) + " " + line.lstrip()
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def boot(name, *opts):
    """One boot; returns (exit status, console text, results.json bytes or None, stderr)."""
    img, log = os.path.join(TMP, name + ".img"), os.path.join(TMP, name + ".log")
    p = subprocess.run(["./run-qemu.sh", "--smp", "2", "--timeout", "150", "--esp", img, "--log",
                        log, "--"] + list(opts), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, env=dict(os.environ, BUILD=BUILD))
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    text = text[text.find("INFO: pebsprobe "):] if "INFO: pebsprobe " in text else text
    text = join_wrapped(text)
    return p.returncode, text, results_file.read_image(img), p.stderr


def check_schema(name, rc, text, raw, model):
    path = os.path.join(TMP, name + ".json")
    open(path, "wb").write(raw)
    try:
        results_file.load(path)
        bad = schema_v2(json.loads(raw), text, rc, model)
    except (results_file.ResultsError, ValueError) as e:
        bad = [str(e)]
    report(not bad, "live %s: results.json is version 2 and agrees with the console" % name,
           "; ".join(bad)[:600])


for name, want, opts in (("refused", 2, ("pmu=sim", "model=bogus")),
                         ("report", 0, ("pmu=sim", "model=skl", "mode=report")),
                         ("report-ptl", 0, ("pmu=sim", "model=ptl", "mode=report"))):
    rc, text, raw, err = boot(name, *opts)
    if report(rc == want and raw, "live %s: exit %d and a results.json" % (name, want),
              "exit %d, results.json %s; %s" % (rc, "present" if raw else "absent",
                                                err.strip()[-200:])):
        check_schema(name, rc, text, raw, opts[1].split("=")[1])

for m in MODELS:
    # cpus=boot: the tools read one verdict per test (every CPU's: test-percpu.sh);
    # verbose=1: the whole verdict lines on the console, as results.json has them
    rc, text, raw, err = boot(m, "pmu=sim", "model=" + m, "cpus=boot", "verbose=1")
    console = [(n, v) for v, n, _ in caselines.console_verdicts(text)]
    res = os.path.join(TMP, m + ".json")
    if not report(rc in (0, 1) and raw, "live %s: boot (exit %d) and results.json" % (m, rc),
                  err.strip()[-200:]):
        continue
    check_schema(m, rc, text, raw, m)
    open(res, "wb").write(raw)
    q = subprocess.CompletedProcess([], 0, raw)
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
           "live %s (results v%s): JUnit has the console's %d verdicts" % (
               m, version, len(console)),
           "rc %d, %s\nvs console %s" % (r.returncode, cases, console))
    t = tool("pebs-results", "--table", res)
    rows = sorted((ln.split()[1], ln.split()[0]) for ln in t.stdout.splitlines()
                  if re.match(r"^(PASS|FAIL|SKIP) ", ln))
    report(t.returncode == 0 and rows == sorted(console) and
           all(len(ln) <= 80 for ln in t.stdout.splitlines()),
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
report(len(run_ids) == len(set(run_ids)) and len(run_ids) >= 2,
       "live: every boot has its own run ID", "%s" % run_ids)
sys.exit(caselines.status())
