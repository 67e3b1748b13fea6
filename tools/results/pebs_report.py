# SPDX-License-Identifier: MIT
"""pebs-report - one self-contained HTML page for one or more results.json
files (docs/REPORT.md)."""

import os
import sys

import baseline
import cli
import report_html
from results_file import ResultsError, load

PROG = "pebs-report"
SYNOPSIS = "RESULTS.json [MORE.json ...] -o REPORT.html"

OPTIONS = [
    cli.Option("-o", "FILE", "the HTML file to write (required)"),
    cli.Option("--median-pct", "N", "a median moved when it changed by more than N%% "
               "(default %d) ..." % baseline.DEFAULT_PCT),
    cli.Option("--median-cycles", "N", "... and by more than N cycles (default %d)" %
               baseline.DEFAULT_CYCLES),
    cli.Option("--help", None, "this text"),
]

MORE = """The first file is the reference: what differs in the others is marked.
Exit status: 0 written; 2 bad arguments or input (one error line)."""


def run(argv):
    try:
        opts, files = cli.parse(argv, OPTIONS, "RESULTS.json ...")
        if "--help" in opts:
            sys.stdout.write(cli.usage_text(PROG, SYNOPSIS, OPTIONS, MORE))
            return 0
        if "-o" not in opts:
            raise cli.UsageError("missing -o FILE (accepted: %s)" % SYNOPSIS)
        if not files:
            raise cli.UsageError("no results file (accepted: %s)" % SYNOPSIS)
        pct = cli.number("--median-pct", opts.get("--median-pct", str(baseline.DEFAULT_PCT)),
                         1, 100000)
        cycles = cli.number("--median-cycles",
                            opts.get("--median-cycles", str(baseline.DEFAULT_CYCLES)), 0,
                            1 << 32)
        runs = [load(f) for f in files]
        out = opts["-o"]
        if os.path.abspath(out) in [os.path.abspath(f) for f in files]:
            raise cli.UsageError("-o %s is one of the inputs (accepted: a new file name)" % out)
    except (cli.UsageError, ResultsError) as e:
        return cli.die(PROG, str(e))
    for r in runs:
        for note in r.notes:
            sys.stderr.write("%s: note: %s: %s\n" % (PROG, r.path, note))
    html = report_html.page(runs, pct, cycles, files)
    tmp = out + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(html)
        os.replace(tmp, out)
    except OSError as e:
        return cli.die(PROG, "%s: cannot write: %s (accepted: a writable file)" %
                       (out, e.strerror))
    return 0


def main():
    """The entry point (zipapp ignores a return value: cli.main exits)."""
    cli.main(PROG, run)


if __name__ == "__main__":
    main()
