# SPDX-License-Identifier: MIT
"""caselines - the one line per case that the Python checks print and
tests/run-all.sh counts: "PASS: name" or "FAIL: name: why".  caselines.failed
is the number of failures so far; run() and status() turn it into the
script's exit status.  Also what the test scripts share: the one reader of
the app's console verdict lines, and argparse with one-line errors."""

import argparse
import re
import shutil
import sys

failed = 0


def report(ok, name, why=""):
    """One case: PASS, or FAIL with why; returns ok."""
    global failed
    if ok:
        print("PASS: %s" % name)
    else:
        failed += 1
        print("FAIL: %s: %s" % (name, why))
    sys.stdout.flush()
    return ok


def status():
    """The exit status so far: 1 once a case failed, else 0."""
    return 1 if failed else 0


def run(main, *tmpdirs):
    """Exits with main()'s status (status() where main returns None),
    removing tmpdirs however main() ends."""
    try:
        code = main()
    finally:
        for d in tmpdirs:
            shutil.rmtree(d, ignore_errors=True)
    sys.exit(status() if code is None else code)


# The app's verdict line on the console (docs/OUTPUT.md): "PASS: name: why".
VERDICT_LINE = re.compile(r"^(PASS|FAIL|SKIP): ([^:\s]+)(?:: ?(.*?))?\r?$", re.M)


def console_verdicts(text):
    """[(verdict, name, why)] of every verdict line of a console transcript
    (its text), in order; why is "" where the line has none."""
    return [(m.group(1), m.group(2), m.group(3) or "") for m in VERDICT_LINE.finditer(text)]


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose mistakes are one line naming what is accepted, exit 2."""

    def error(self, message):
        usage = self.format_usage().strip()[len("usage: "):]
        self.exit(2, "%s: %s (accepted: %s)\n" % (self.prog, message, usage))


def build_dir(doc):
    """The BUILD folder a check script is given (default build), by argparse."""
    ap = ArgumentParser(description=doc.strip().splitlines()[0])
    ap.add_argument("build", nargs="?", default="build", metavar="BUILD",
                    help="the build folder (default build)")
    return ap.parse_args().build


def cpu_list(text):
    """[0, 1, 2, 5] for "0-2,5", a list of CPUs as the tools write it."""
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out
