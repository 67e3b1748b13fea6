# SPDX-License-Identifier: MIT
"""caselines - the one line per case that the Python checks print and
tests/run-all.sh counts: "PASS: name" or "FAIL: name: why".  caselines.failed
is the number of failures so far, for the script's exit status."""

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
