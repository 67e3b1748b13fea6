# SPDX-License-Identifier: MIT
"""pebs-matrix - runs the entries of a run matrix (matrix_file) with
run-qemu.sh, in parallel when asked, after kvm-unit-tests' run_tests.sh:
one line per entry as it ends, then a summary table, and JUnit with one
suite per entry (its exit status, then its verdicts from results.json as
pebs-results writes them).  docs/MATRIX.md."""

import concurrent.futures
import fnmatch
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

import ci_formats
import cli
import matrix_file
from results_file import ResultsError, load, read_image

PROG = "pebs-matrix"
DEFAULT_FILE = "tests/matrix/default.cfg"

OPTIONS = [
    cli.Option("-f", "FILE", "the matrix file (default %s)" % DEFAULT_FILE),
    cli.Option("-j", "N", "run N entries at a time (default 1)"),
    cli.Option("-g", "GROUP", "only entries in GROUP (repeatable)", repeat=True),
    cli.Option("--junit", "FILE", "write JUnit XML to FILE"),
    cli.Option("--logdir", "DIR", "serial logs and results files (default $BUILD/matrix)"),
    cli.Option("--list", None, "list the selected entries, run nothing"),
    cli.Option("--models", None, "first check that every model=list model has an entry"),
    cli.Option("--help", None, "this text"),
]

MORE = """NAME and GLOB select entries by name (fnmatch); none selects all.
Exit status: 0 every entry exited as expected; 1 one did not (or --models
found a model without an entry); 2 bad arguments or matrix file."""

print_lock = threading.Lock()


def say(text):
    with print_lock:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


@dataclass(eq=False)
class Outcome:
    entry: object  # matrix_file.Entry
    status: Optional[int] = None  # run-qemu.sh's exit status
    seconds: float = 0.0
    results: object = None  # results_file.Results, when the run wrote one
    results_note: str = ""
    problems: list = field(default_factory=list)  # why the entry failed; empty: passed
    log: Optional[str] = None

    @property
    def passed(self):
        return not self.problems


def select(entries, patterns, groups):
    chosen = []
    for e in entries:
        if groups and not set(groups) & set(e.groups):
            continue
        if patterns and not any(fnmatch.fnmatchcase(e.name, p) for p in patterns):
            continue
        chosen.append(e)
    return chosen


def build_images(root, build, entries):
    targets = ["esp"] + (["usb"] if any(e.usb for e in entries) else [])
    p = subprocess.run(["make", "-s", "BUILD=" + build] + targets, cwd=root,
                       capture_output=True, text=True)
    if p.returncode != 0:
        tail = (p.stderr or p.stdout).strip().splitlines()[-1:]
        raise RuntimeError("make %s failed: %s" % (" ".join(targets), " ".join(tail)))


def consistency(status, res):
    """Does the exit status say what the verdicts say?  (docs/OUTPUT.md, Exit codes)"""
    c = res.counts()
    if status == 0 and c["FAIL"]:
        return "exit 0 but results.json has %d FAIL" % c["FAIL"]
    if status == 1 and not c["FAIL"]:
        return "exit 1 but results.json has no FAIL"
    if status == 77 and (c["PASS"] or c["FAIL"]):
        return "exit 77 but results.json has PASS or FAIL verdicts"
    if res.exit_status is not None and res.exit_status != status:
        return "results.json says exit status %d, the run exited %d" % (res.exit_status, status)
    return None


def run_entry(root, build, logdir, e):
    o = Outcome(e)
    img = os.path.join(logdir, e.name + ".img")
    o.log = os.path.join(logdir, e.name + ".log")
    image = os.path.join(build, "usb.img" if e.usb else "esp.img")
    cmd = ["./run-qemu.sh", "--image", image, "--smp", str(e.smp), "--timeout", str(e.timeout),
           "--log", os.path.abspath(o.log), "--esp", os.path.abspath(img)]
    if e.kvm:
        cmd.append("--kvm")
    if e.usb:
        cmd.append("--usb")
    cmd += ["--"] + e.app_options()
    for stale in (img, o.log, os.path.join(logdir, e.name + ".results.json")):
        if os.path.exists(stale):
            os.unlink(stale)
    t0 = time.monotonic()
    env = dict(os.environ, BUILD=build)
    p = subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, env=env)
    o.seconds = time.monotonic() - t0
    o.status = p.returncode
    err = p.stderr.strip().splitlines()
    if o.status != e.exit:
        why = "exit %d, expected %d" % (o.status, e.exit)
        if o.status == 124:
            why = "timed out after %d s (expected exit %d)" % (e.timeout, e.exit)
        runq = [ln for ln in err if ln.startswith("run-qemu.sh:")]
        if runq:
            why += " (%s)" % runq[-1]
        o.problems.append(why)
    if os.path.exists(img):
        out = os.path.join(logdir, e.name + ".results.json")
        spec = img + ("@@1M" if e.usb else "")
        raw = read_image(spec)
        if raw:
            with open(out, "wb") as f:
                f.write(raw)
            try:
                o.results = load(out)
            except ResultsError as ex:
                o.problems.append("results.json unreadable: %s" % ex)
        else:
            o.results_note = "no results.json"
        os.unlink(img)  # 64 MiB each; the results and the log are kept
    else:
        o.results_note = "no image kept"
    if o.results is not None and o.status in (0, 1, 77):
        bad = consistency(o.status, o.results)
        if bad:
            o.problems.append(bad)
    return o


def entry_line(o):
    e = o.entry
    parts = ["exit %d" % o.status]
    if o.results is not None:
        c = o.results.counts()
        parts.append("%d PASS, %d FAIL, %d SKIP" % (c["PASS"], c["FAIL"], c["SKIP"]))
    elif o.results_note:
        parts.append(o.results_note)
    parts.append("%.1f s" % o.seconds)
    text = "%s %s (%s)" % ("PASS" if o.passed else "FAIL", e.name, "; ".join(parts))
    if o.problems:
        text += ": " + "; ".join(o.problems)
    return text


def summary_table(outcomes, width=80):
    # The entry column takes what the other columns (59) leave of 80.
    w = max(5, min(width - 60, max(len(o.entry.name) for o in outcomes)))
    head = "%-*s %-9s %3s %6s %4s %5s %5s %5s %7s  %s" % (
        w, "ENTRY", "MODEL", "SMP", "EXPECT", "GOT", "PASS", "FAIL", "SKIP", "TIME", "RESULT")
    lines = [head, "-" * len(head)]
    for o in outcomes:
        e = o.entry
        if o.results is not None:
            c = o.results.counts()
            counts = (str(c["PASS"]), str(c["FAIL"]), str(c["SKIP"]))
        else:
            counts = ("-", "-", "-")
        name = e.name if len(e.name) <= w else e.name[:w - 1] + "~"
        lines.append("%-*s %-9s %3d %6d %4s %5s %5s %5s %6.1fs  %s" % (
            w, name, (e.model or "-")[:9], e.smp, e.exit,
            "-" if o.status is None else str(o.status), counts[0], counts[1], counts[2],
            o.seconds, "PASS" if o.passed else "FAIL"))
    n_fail = sum(not o.passed for o in outcomes)
    lines.append("-" * len(head))
    lines.append("%d entries: %d passed, %d failed" % (len(outcomes), len(outcomes) - n_fail,
                                                       n_fail))
    return "\n".join(lines)


def junit(outcomes):
    suites = []
    for o in outcomes:
        e = o.entry
        state = "pass" if o.passed else "fail"
        text = "%s: %s; %s" % (e.describe(), entry_line(o), o.log or "")
        case = ("pebsprobe.matrix.%s" % e.name.replace(".", "_"), "%s: exit status" % e.name,
                state, text)
        name = "matrix %s" % e.name
        if o.results is not None:
            prefix = "pebsprobe.matrix.%s" % e.name.replace(".", "_")
            suites.append(ci_formats.junit_suite(o.results, name=name, extra=[case],
                                                 class_prefix=prefix))
        else:
            suites.append(ci_formats.bare_suite(name, [case]))
    return ci_formats.junit_document(suites, name="pebsprobe matrix")


def models_from_app(root, build):
    """The simulator's models as the app lists them (model=list), one boot."""
    p = subprocess.run(["./run-qemu.sh", "--image", os.path.join(build, "esp.img"), "--timeout",
                        "120", "--", "model=list"], cwd=root, capture_output=True, text=True,
                       env=dict(os.environ, BUILD=build))
    models = re.findall(r"^INFO: model ([A-Za-z0-9_.+-]+): ", p.stdout, re.M)
    if p.returncode != 0 or not models:
        raise RuntimeError("model=list boot failed (exit %d, %d models listed)" %
                           (p.returncode, len(models)))
    return models


def run(argv):
    try:
        opts, patterns = cli.parse(argv, OPTIONS, "[NAME|GLOB ...]")
        if "--help" in opts:
            sys.stdout.write(cli.usage_text(PROG, "[options] [NAME|GLOB ...]", OPTIONS, MORE))
            return 0
        jobs = cli.number("-j", opts.get("-j", "1"), 1, 64)
        path = opts.get("-f", DEFAULT_FILE)
        entries = matrix_file.load(path)
        chosen = select(entries, patterns, opts.get("-g", []))
        if not chosen:
            raise cli.UsageError("no entry matches %s (accepted: %s)" % (
                " ".join(patterns + ["-g " + g for g in opts.get("-g", [])]),
                ", ".join(e.name for e in entries)))
        root = "."
        if not os.path.isfile(os.path.join(root, "run-qemu.sh")):
            raise cli.UsageError("run-qemu.sh not found in %s (accepted: run from the "
                                 "repository root)" % os.path.abspath(root))
    except cli.UsageError as e:
        return cli.die(PROG, str(e))

    if "--list" in opts:
        for e in chosen:
            say("%-16s expect %-3d groups %-16s %s" % (e.name, e.exit, ",".join(e.groups) or "-",
                                                       e.describe()))
        return 0

    build = os.environ.get("BUILD", "build")
    logdir = opts.get("--logdir", os.path.join(build, "matrix"))
    os.makedirs(logdir, exist_ok=True)
    try:
        build_images(root, build, chosen)
        missing = []
        if "--models" in opts:
            have = {e.model for e in entries}
            models = models_from_app(root, build)
            missing = [m for m in models if m not in have]
            say("models listed by the app: %s" % " ".join(models))
            for m in missing:
                say("FAIL model %s: no entry in %s" % (m, path))
    except RuntimeError as e:
        return cli.die(PROG, str(e), 1)

    say("running %d entr%s of %s, %d at a time; logs in %s" % (
        len(chosen), "y" if len(chosen) == 1 else "ies", path, jobs, logdir))
    outcomes = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_entry, root, build, logdir, e): e for e in chosen}
        for f in concurrent.futures.as_completed(futures):
            o = f.result()
            outcomes[o.entry.name] = o
            say(entry_line(o))
    ordered = [outcomes[e.name] for e in chosen]
    say(summary_table(ordered))
    if "--junit" in opts:
        try:
            with open(opts["--junit"], "w", encoding="utf-8") as f:
                f.write(junit(ordered))
        except OSError as e:
            return cli.die(PROG, "%s: cannot write: %s" % (opts["--junit"], e.strerror), 2)
    return 1 if missing or any(not o.passed for o in ordered) else 0


def main():
    """The entry point (zipapp ignores a return value: cli.main exits)."""
    cli.main(PROG, run)


if __name__ == "__main__":
    main()
