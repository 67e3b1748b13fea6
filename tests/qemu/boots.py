#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""boots.py [--cfg FILE] [--list] [ROW...] - the one-boot QEMU cases.

Each [ROW] of tests/qemu/boots.cfg (the shape of kvm-unit-tests'
unittests.cfg) is one boot: run-qemu.sh with the row's smp, args, env and
options, then its checks on the console transcript from the banner on,
with each wrapped line whole again (tests/qemu/join.sh).  One line per
case, "PASS: ROW: LABEL" or "FAIL: ROW: LABEL: why" (tests/caselines.py):
the exit status is a case, and so is every expect, refuse, count and
unique line.  No ROW: every row, in the file's order.  --list prints the
rows' names, one a line (tests/run-all.sh runs each as a test of its own).
A row that does not parse is one ERROR line naming the file, its line and
what is accepted, and exit 2, before anything boots.

The boot's time limit is the row's factor (default 12, as tests/qemu/lib.sh)
times the no-op boot (tests/qemu/budget.sh: QEMU_NOOP_S, measured here when
unset), or QEMU_TIMEOUT seconds when that is set."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import caselines  # noqa: E402
from caselines import report  # noqa: E402

CFG = os.path.join(ROOT, "tests", "qemu", "boots.cfg")
# run-qemu.sh --smp: N, or QEMU's topology form (qemu-options.hx "-smp").
SMP_FORM = r"[1-9][0-9]*(,(sockets|cores|threads)=[1-9][0-9]*)*"
SINGLE = ("options", "smp", "args", "env", "factor", "expect_status")
CHECKS = ("expect", "refuse", "count", "unique")
ACCEPTED = "accepted: %s, or %s = LABEL | [N |] REGEX" % (", ".join(SINGLE), ", ".join(CHECKS))


class CfgError(Exception):
    pass


def parse(path):
    """The rows of path: a list of (name, {key: value}, [(kind, label, n, regex)])."""
    rows, names = [], set()
    row = None
    with open(path, encoding="ascii") as f:
        text = f.read().split("\n")
    for lineno, line in enumerate(text, 1):
        where = "%s line %d" % (os.path.relpath(path, ROOT), lineno)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.fullmatch(r"\[([a-z0-9][a-z0-9-]*)\]", line)
        if m:
            if m.group(1) in names:
                raise CfgError("%s: row [%s] a second time (accepted: each name once)"
                               % (where, m.group(1)))
            names.add(m.group(1))
            row = (m.group(1), {"lineno": lineno}, [])
            rows.append(row)
            continue
        m = re.fullmatch(r"([a-z_]+) = (.*)", line)
        if not m or row is None:
            raise CfgError("%s: not a [row] or a 'key = value' line in a row (%s)"
                           % (where, ACCEPTED))
        key, value = m.groups()
        if value != value.rstrip():
            raise CfgError("%s: %s ends in white space (accepted: [ ] for a space a regex"
                           " ends with)" % (where, key))
        if key in SINGLE:
            if key in row[1]:
                raise CfgError("%s: %s a second time in [%s] (accepted: once a row)"
                               % (where, key, row[0]))
            row[1][key] = value
        elif key in CHECKS:
            parts = value.split(" | ", 2 if key == "count" else 1)
            if len(parts) != (3 if key == "count" else 2) or not parts[0]:
                raise CfgError("%s: %s: '%s' (accepted: %s = LABEL | %sREGEX)"
                               % (where, key, value, key, "N | " if key == "count" else ""))
            if key == "count" and not parts[1].isdigit():
                raise CfgError("%s: count: '%s' is not a number (accepted: count = LABEL | N"
                               " | REGEX)" % (where, parts[1]))
            try:
                regex = re.compile(parts[-1], re.M if "\\n" in parts[-1] else 0)
            except re.error as e:
                raise CfgError("%s: %s: bad regex /%s/: %s (accepted: Python re syntax)"
                               % (where, key, parts[-1], e))
            n = int(parts[1]) if key == "count" else None
            row[2].append((key, parts[0], n, regex))
        else:
            raise CfgError("%s: unknown key '%s' (%s)" % (where, key, ACCEPTED))
    for name, keys, _ in rows:
        where = "%s line %d" % (os.path.relpath(path, ROOT), keys["lineno"])
        if not re.fullmatch(r"[0-9]+", keys.get("expect_status", "")):
            raise CfgError("%s: [%s] has no expect_status (accepted: expect_status = N, the"
                           " exit status run-qemu.sh must give)" % (where, name))
        if "smp" in keys and not re.fullmatch(SMP_FORM, keys["smp"]):
            raise CfgError("%s: [%s] smp '%s' (accepted: a number, 1 or more, or QEMU's"
                           " N,sockets=S,cores=C,threads=T)" % (where, name, keys["smp"]))
        if "factor" in keys and not re.fullmatch(r"[1-9][0-9]*", keys["factor"]):
            raise CfgError("%s: [%s] factor '%s' (accepted: a number, 1 or more)"
                           % (where, name, keys["factor"]))
        for word in shlex.split(keys.get("env", "")):
            if not re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", word):
                raise CfgError("%s: [%s] env '%s' (accepted: NAME=VALUE words)"
                               % (where, name, word))
    return rows


def bash(script, *args, stdin=None):
    """A function of tests/qemu/budget.sh or join.sh, so that one copy of each exists."""
    return subprocess.run(["bash", "-c", ". tests/qemu/budget.sh; . tests/qemu/join.sh; "
                           + script, "bash"] + list(args), cwd=ROOT, input=stdin,
                          capture_output=True, text=True, encoding="latin-1")


def limit(factor):
    """The boot's limit in seconds: budget.sh's qemu_limit, measuring the no-op boot once."""
    if not os.environ.get("QEMU_TIMEOUT") and not os.environ.get("QEMU_NOOP_S"):
        r = bash("qemu_noop_init")
        sys.stdout.write(r.stdout)
        m = re.search(r"no-op boot: ([0-9]+) s", r.stdout)
        os.environ["QEMU_NOOP_S"] = m.group(1) if m else "600"
    return int(bash("qemu_limit " + str(factor)).stdout.strip())


def boot(name, keys, tmp):
    """Boots the row once; returns (exit status, the joined transcript's lines)."""
    secs = limit(int(keys.get("factor", "12")))
    serial = os.path.join(tmp, name + ".serial")
    cmd = ["./run-qemu.sh", "--timeout", str(secs), "--log", serial,
           "--esp", os.path.join(tmp, name + ".img")]
    if "smp" in keys:
        cmd += ["--smp", keys["smp"]]
    cmd += shlex.split(keys.get("args", ""))
    if "options" in keys:
        cmd += ["--"] + shlex.split(keys["options"])
    env = dict(os.environ)
    env.update(w.split("=", 1) for w in shlex.split(keys.get("env", "")))
    start = time.time()
    with open(os.path.join(tmp, name + ".err"), "w") as err:
        rc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=err).returncode
    print("INFO: boot %s: %d s of %d s" % (name, time.time() - start, secs))
    if rc == 124:
        sys.stdout.write(bash('timed_out_report "$@"', name, str(secs), serial).stdout)
    try:
        with open(serial, encoding="latin-1", newline="") as f:
            lines = f.read().split("\n")
    except OSError:
        lines = []
    # From the banner on, as lib.sh's boot() keeps it.
    first = next((i for i, s in enumerate(lines) if s.startswith("INFO: pebsprobe ")), len(lines))
    raw = lines[first:]
    if raw and raw[-1] == "":
        raw.pop()
    joined = bash("join_wrapped", stdin="".join(s + "\n" for s in raw)).stdout.split("\n")[:-1]
    if not joined:
        print("--- %s: no pebsprobe output; serial was:" % name)
        print("\n".join((lines + open(os.path.join(tmp, name + ".err")).read().split("\n"))[-20:]))
    return rc, joined


def check(name, keys, checks, rc, lines):
    want = keys["expect_status"]
    report(str(rc) == want, "%s: exit status %s" % (name, want),
           "exit status %d, want %s" % (rc, want))
    text = "\n".join(lines) + "\n"
    for kind, label, n, regex in checks:
        case = "%s: %s" % (name, label)
        # The lines that match (for \n in the regex, the lines in a row), and
        # what matched of each: unique compares that part.
        if regex.flags & re.M:
            hits = [(m.group(0), m.group(0)) for m in regex.finditer(text)]
        else:
            hits = [(s, m.group(0)) for s, m in ((s, regex.search(s)) for s in lines) if m]
        found = [h[1] for h in hits]
        if kind == "expect":
            report(found, case, "no line matching /%s/" % regex.pattern)
        elif kind == "refuse":
            report(not found, case, "unexpected line: %s" % (hits[0][0] if hits else ""))
        elif kind == "count":
            report(len(found) == n, case, "%d lines match /%s/, want %d"
                   % (len(found), regex.pattern, n))
        else:
            dup = sorted({s for s in found if found.count(s) > 1})
            report(not dup, case, "%d times: %s" % (found.count(dup[0]), dup[0]) if dup else "")


def main():
    ap = caselines.ArgumentParser(prog="boots.py", description=__doc__.strip().splitlines()[0])
    ap.add_argument("--cfg", default=CFG, metavar="FILE", help="the rows (default boots.cfg)")
    ap.add_argument("--list", action="store_true", help="print the rows' names, boot nothing")
    ap.add_argument("rows", nargs="*", metavar="ROW", help="the rows to boot (default all)")
    a = ap.parse_args()
    path, args = a.cfg, a.rows
    try:
        rows = parse(path)
    except (CfgError, OSError, UnicodeDecodeError) as e:
        print("ERROR: boots.py: %s" % e)
        return 2
    if a.list:
        print("\n".join(r[0] for r in rows))
        return 0
    by_name = {r[0]: r for r in rows}
    unknown = [a for a in args if a not in by_name]
    if unknown:
        print("ERROR: boots.py: no row [%s] in %s (accepted: --list names them)"
              % (unknown[0], os.path.relpath(path, ROOT)))
        return 2
    tmp = tempfile.mkdtemp(prefix="pebsprobe-boots.")
    try:
        for name in args or list(by_name):
            _, keys, checks = by_name[name]
            rc, lines = boot(name, keys, tmp)
            check(name, keys, checks, rc, lines)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return caselines.status()


if __name__ == "__main__":
    sys.exit(main())
