# SPDX-License-Identifier: MIT
"""caselines - the one line per case that the Python checks print and
tests/run-all.sh counts: "PASS: name" or "FAIL: name: why".  caselines.failed
is the number of failures so far; run() and status() turn it into the
script's exit status."""

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
