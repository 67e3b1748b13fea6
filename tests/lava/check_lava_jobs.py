# SPDX-License-Identifier: MIT
"""check_lava_jobs.py - pebsprobe's LAVA files without running LAVA (that
is make lava-check):

  - every job passes LAVA's own schema check (lava_common.schemas, strict),
    every device description LAVA's device schema, and a broken job is
    refused (so the check can fail);
  - the test section's patterns, fed a real serial transcript
    (tests/results/v1-nhm.console, with CR LF as the serial port sends it)
    in chunks of every size from 1 to 64 bytes, matched the way pexpect
    matches (the earliest match in the buffer wins, ties by list order, the
    buffer consumed up to the match's end): the monitor yields exactly the
    console's verdicts with whole names, its end leaves the exit line for
    the interactive step, and that step classifies every exit status;
  - the case names LAVA makes of the verdict names (lava/lava_ids.py): the
    names of two real transcripts and a results.json, as one CPU and as
    each of 576 CPUs names them (name@cpuN), give distinct cases, also
    through the monitor on a verbose=1 two-CPU transcript; names that
    differ only in what LAVA rewrites are caught (so the check can fail);
  - the lab job ends with the user command pebsprobe-collect that every lab
    device description defines, and lava/collect.sh prints the results.json
    and log of a FAT stick (bare, and at 1 MiB as on the USB image) so that
    lava/collected.py reads them back, byte for byte, from the lines LAVA
    logs of its output; a cut output, a missing log, no FAT are each said.
Prints PASS:/FAIL: lines."""

import copy
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "lava"))
import caselines  # noqa: E402
from caselines import report  # noqa: E402
from lava_ids import collisions, lava_case  # noqa: E402
import collected  # noqa: E402

VERDICT_LINE = caselines.VERDICT_LINE


def expect(buf, patterns):
    """pexpect's searcher_re: the earliest match over all patterns (ties: the
    first pattern); (index, match) or None."""
    best = None
    for i, p in enumerate(patterns):
        m = p.search(buf)
        if m and (best is None or m.start() < best[1].start()):
            best = (i, m)
    return best


def compile_like_pexpect(p):
    return re.compile(p, re.DOTALL)


def run_test_section(job, stream, chunk):
    """Emulates the two test actions over stream fed chunk bytes at a time.
    Returns (cases [(id, result)], exit outcome or None)."""
    mon = next(a["test"]["monitors"][0] for a in job["actions"]
               if "test" in a and "monitors" in a["test"])
    inter = next(a["test"]["interactive"][0] for a in job["actions"]
                 if "test" in a and "interactive" in a["test"])
    start = compile_like_pexpect(mon["start"])
    pats = [compile_like_pexpect(mon["end"]), compile_like_pexpect(mon["pattern"])]
    step = inter["script"][0]
    prompts = [compile_like_pexpect(p) for p in inter["prompts"]]
    fails = [compile_like_pexpect(f["message"]) for f in step.get("failures", [])]
    succ = [compile_like_pexpect(s["message"]) for s in step.get("successes", [])]
    cases, phase, buf, outcome = [], "start", "", None
    for i in range(0, len(stream), chunk):
        buf += stream[i:i + chunk]
        while True:
            if phase == "start":
                m = start.search(buf)
                if not m:
                    break
                buf, phase = buf[m.end():], "monitor"
            elif phase == "monitor":
                hit = expect(buf, pats)
                if hit is None:
                    break
                idx, m = hit
                buf = buf[m.end():]
                if idx == 0:
                    phase = "exit"
                    continue
                g = m.groupdict()
                cases.append((g["test_case_id"].strip(), mon["fixupdict"].get(g["result"],
                                                                              g["result"])))
            elif phase == "exit":
                hit = expect(buf, prompts + fails + succ)
                if hit is None:
                    break
                idx, m = hit
                if idx < len(prompts):
                    outcome = ("fail", "prompt")  # a prompt while successes are defined
                elif idx < len(prompts) + len(fails):
                    f = step["failures"][idx - len(prompts)]
                    outcome = ("fail", f.get("exception"))
                else:
                    outcome = ("pass", None)
                return cases, outcome
    return cases, outcome


def main():
    try:
        import yaml
        from lava_common.schemas import validate as validate_job
        from lava_common.schemas.device import validate as validate_device
        import voluptuous
    except ImportError as e:
        report(False, "lava schema", "%s (tools/deps.sh check installs lava-common)" % e)
        return 1
    jobs = sorted(glob.glob(os.path.join(ROOT, "lava", "jobs", "*.yaml")))
    devices = sorted(glob.glob(os.path.join(ROOT, "lava", "devices", "*.yaml")))
    report(len(jobs) >= 2 and len(devices) >= 2, "lava files present",
           "%d jobs, %d devices" % (len(jobs), len(devices)))
    loaded = {}
    for path in jobs:
        data = yaml.safe_load(open(path))
        loaded[os.path.basename(path)] = data
        try:
            validate_job(data, strict=True)
            ok, why = True, ""
        except voluptuous.Invalid as e:
            ok, why = False, "%s: %s" % (e.path, e.msg)
        report(ok, "LAVA job schema (strict): %s" % os.path.relpath(path, ROOT), why)
    for path in devices:
        try:
            validate_device(yaml.safe_load(open(path)))
            ok, why = True, ""
        except voluptuous.Invalid as e:
            ok, why = False, "%s: %s" % (e.path, e.msg)
        report(ok, "LAVA device schema: %s" % os.path.relpath(path, ROOT), why)

    # The checker refuses a broken job: a monitor without its pattern, and
    # an interactive failure with an exception LAVA does not know.
    job = loaded["pebsprobe-qemu.yaml"]
    for what, breaker in (
            ("monitor without pattern",
             lambda j: next(a for a in j["actions"] if "test" in a and "monitors" in a["test"])
             ["test"]["monitors"][0].pop("pattern")),
            ("unknown exception",
             lambda j: next(a for a in j["actions"] if "test" in a and "interactive" in a["test"])
             ["test"]["interactive"][0]["script"][0]["failures"][0].update(exception="Oops"))):
        bad = copy.deepcopy(job)
        breaker(bad)
        try:
            validate_job(bad, strict=True)
            refused = False
        except voluptuous.Invalid:
            refused = True
        report(refused, "LAVA's schema check refuses a broken job (%s)" % what)

    # The same test section in every job.
    sections = {n: [a for a in j["actions"] if "test" in a] for n, j in loaded.items()}
    first = next(iter(sections.values()))
    report(all(s == first for s in sections.values()), "every job has the same test section",
           "differs: %s" % [n for n, s in sections.items() if s != first])

    # The patterns on a real transcript, chunked as a serial port delivers it.
    console = open(os.path.join(ROOT, "tests", "results", "v1-nhm.console"),
                   errors="replace").read()
    truth = [(n, v.lower()) for v, n, _ in caselines.console_verdicts(console)]
    stream = console.replace("\n", "\r\n")
    bad_chunks = []
    for chunk in range(1, 65):
        cases, outcome = run_test_section(job, stream, chunk)
        if cases != truth or outcome != ("pass", None):
            bad_chunks.append((chunk, cases[:3], outcome))
    report(not bad_chunks, "monitor: the console's %d verdicts, whole names, in chunks of 1..64 "
           "bytes; exit line left for the exit-status step" % len(truth), "%s" % bad_chunks[:2])
    # A plain, unanchored name pattern (no look-ahead) cuts names at chunk
    # edges: the emulation must see that, or it proves nothing.
    naive = copy.deepcopy(job)
    for a in naive["actions"]:
        if "test" in a and "monitors" in a["test"]:
            a["test"]["monitors"][0]["pattern"] = (
                r"(?P<result>PASS|FAIL|SKIP): (?P<test_case_id>[^:\s]+)")
    cases, _ = run_test_section(naive, stream, 7)
    report(cases != truth, "the emulation catches a pattern that cuts names (no look-ahead)",
           "it did not")

    # The exit-status step, every status.
    tail = "INFO: pebsprobe x\r\n%sINFO: exit status %d (exit=shutdown) [sim]\r\n"
    want = {0: ("pass", None), 77: ("pass", None), 1: ("fail", None), 2: ("fail", "JobError"),
            99: ("fail", "InfrastructureError"), 3: ("fail", "prompt")}
    for status, w in sorted(want.items()):
        body = "FAIL: k/load: why\r\n" if status == 1 else ""
        cases, outcome = run_test_section(job, tail % (body, status), 5)
        report(outcome == w, "exit status %d -> %s%s" % (status, w[0], " (%s)" % w[1] if w[1]
                                                         else ""), "got %s" % (outcome,))
    check_case_names(job)
    check_collect(loaded["pebsprobe-usb-lab.yaml"], yaml)
    return caselines.status()


def check_case_names(job):
    """LAVA names a case after its id, rewritten (lava/lava_ids.py): every
    verdict name pebsprobe prints must keep a case of its own."""
    consoles = {}
    for name in ("v1-skl.console", "v1-nhm.console"):
        consoles[name] = open(os.path.join(ROOT, "tests", "results", name),
                              errors="replace").read()
    names = {m.group(2) for c in consoles.values() for m in VERDICT_LINE.finditer(c)}
    # and a version-3 run's (results.json "verdicts"), its CPUs left out
    with open(os.path.join(ROOT, "tests", "results", "v3-adl4.json")) as f:
        names |= {v["name"].split("@")[0] for v in json.load(f)["verdicts"]}
    names = sorted(names)
    # Each CPU's verdict of a run on several CPUs is name@cpuN (docs/OUTPUT.md
    # "Where lines go"); 576 CPUs, the most the app is sized for.
    per_cpu = ["%s@cpu%d" % (n, c) for n in names for c in range(576)]
    # name, ids, the colliding case names expected ([] none)
    rows = [
        ("the %d names of the runs" % len(names), names, []),
        ("those names on each of 576 CPUs", names + per_cpu, []),
        ("@cpuN against -cpuN", ["chase-l1/load@cpu1", "chase-l1/load-cpu1"],
         ["chase_l1_load_cpu1"]),
        ("upper against lower case", ["Chase-L1/load", "chase-l1/load"], ["chase_l1_load"]),
        ("two marks against one", ["chase-l1//load@cpu1", "chase-l1/load@cpu1"],
         ["chase_l1_load_cpu1"]),
    ]
    for what, ids, want in rows:
        got = collisions(ids)
        report([c for c, _ in got] == want, "lava case names: %s: %s" %
               (what, "distinct" if not want else "caught as one case %s" % want),
               "collisions %s" % got[:3])
    # Through the monitor: a verbose=1 run on two CPUs prints each CPU's
    # verdict line, name@cpuN; every one is a case of its own, its id whole.
    lines = []
    for cpu in (0, 1):
        for v, n, why in caselines.console_verdicts(consoles["v1-skl.console"]):
            lines.append("%s: %s@cpu%d%s" % (v, n, cpu, ": " + why if why else ""))
    stream = "INFO: pebsprobe x\r\n%s\r\nINFO: exit status 0 (exit=shutdown)\r\n" % (
        "\r\n".join(lines))
    want = [ln.split(": ")[1] for ln in lines]
    for chunk in (1, 7, 64):
        cases, outcome = run_test_section(job, stream, chunk)
        ids = [c for c, _ in cases]
        report(ids == want and len({lava_case(i) for i in ids}) == len(want),
               "lava case names: verbose=1 on 2 CPUs, chunks of %d bytes: %d ids whole, "
               "%d distinct cases" % (chunk, len(want), len(want)),
               "ids %s, cases %d" % ([i for i in ids if i not in want][:3],
                                     len({lava_case(i) for i in ids})))


def fat_stick(path, offset_mib, files):
    """A FAT ESP holding EFI/BOOT/<name> for each of files, at offset_mib."""
    esp = path + ".esp"
    subprocess.run(["mkfs.fat", "-C", "-n", "ESP", esp, "4096"], check=True,
                   capture_output=True)
    subprocess.run(["mmd", "-i", esp, "::/EFI", "::/EFI/BOOT"], check=True)
    for name, data in files.items():
        src = path + "." + name
        with open(src, "wb") as f:
            f.write(data)
        subprocess.run(["mcopy", "-i", esp, src, "::/EFI/BOOT/" + name], check=True)
    with open(path, "wb") as out:
        out.write(b"\0" * (offset_mib << 20))
        with open(esp, "rb") as f:
            shutil.copyfileobj(f, out)


def check_collect(lab_job, yaml):
    last = lab_job["actions"][-1]
    name = last.get("command", {}).get("name")
    report(name == "pebsprobe-collect", "the lab job ends with the command pebsprobe-collect",
           "last action %s" % last)
    sim = yaml.safe_load(open(os.path.join(ROOT, "lava", "devices", "sim-lab.yaml")))
    dictionary = open(os.path.join(ROOT, "lava", "devices", "lab-machine.jinja2")).read()
    report(name in sim["commands"].get("users", {}) and
           re.search(r"user_commands = \{\s*'%s': \{'do': '\S*pebsprobe-collect " % name,
                     dictionary) is not None,
           "sim-lab.yaml and lab-machine.jinja2 define the user command %s" % name)
    results = open(os.path.join(ROOT, "tests", "results", "v3-sim-skl1.json"), "rb").read()
    log = b"INFO: pebsprobe 0\r\nRESULT: PASS (exit 0)\r\n"
    tmp = tempfile.mkdtemp(prefix="pebsprobe-collect.")
    try:
        for what, offset, files, rc_want, want in (
                ("USB image, ESP at 1 MiB", 1, {"results.json": results, "pebsprobe.log": log},
                 0, {"results.json": results, "pebsprobe.log": log}),
                ("bare ESP, no log (log=none)", 0, {"results.json": results}, 0,
                 {"results.json": results}),
                ("no FAT", None, {}, 1, {})):
            stick = os.path.join(tmp, "stick%s.img" % offset)
            if offset is None:
                open(stick, "wb").write(b"\0" * 65536)
            else:
                fat_stick(stick, offset, files)
            p = subprocess.run([os.path.join(ROOT, "lava", "collect.sh"), stick],
                               capture_output=True)
            lines = p.stdout.decode("ascii", "replace").split("\n")
            got = collected.files(["output: " + ln for ln in lines])
            exp = {k: v.decode("ascii").replace("\r", "") for k, v in want.items()}
            said = [ln for ln in lines if ln.startswith("pebsprobe-collect: ") and
                    " begin " not in ln and " end " not in ln]
            report(p.returncode == rc_want and got == exp and (files.keys() == want.keys() or
                                                               said),
                   "collect.sh: %s: exit %d, the files read back from LAVA's output lines"
                   % (what, rc_want), "exit %d, got %s, said %s" %
                   (p.returncode, sorted(got), said))
        cut = ["output: " + collected.BEGIN + "results.json", "output: {"]
        report(collected.files(cut) == {}, "collected.py leaves out a file whose end never came")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    caselines.run(main)
