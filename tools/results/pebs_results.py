# SPDX-License-Identifier: MIT
"""pebs-results - pebsprobe's results.json (version 1, 2 or 3) for CI and the
bench: JUnit XML, TAP, an 80-column verdict table, and a comparison with a
baseline run (docs/CI.md)."""

import sys
import textwrap

import baseline
import ci_formats
import cli
from results_file import ResultsError, load

PROG = "pebs-results"

OPTIONS = [
    cli.Option("--junit", "FILE", "write JUnit XML to FILE ('-': stdout)"),
    cli.Option("--tap", None, "write TAP version 13 to stdout"),
    cli.Option("--table", None, "write the verdict table to stdout (the default)"),
    cli.Option("--baseline", "OLD.json", "compare with OLD.json; exit 1 on a regression"),
    cli.Option("--median-pct", "N", "a median moved when it changed by more than N%% "
               "(default %d) ..." % baseline.DEFAULT_PCT),
    cli.Option("--median-cycles", "N", "... and by more than N cycles (default %d)" %
               baseline.DEFAULT_CYCLES),
    cli.Option("--help", None, "this text"),
]

MORE = """Exit status: 0 done; 1 --baseline found a regression (named on the last
line); 2 bad arguments or input (one error line).  Formats: docs/CI.md."""


def run(argv, out=sys.stdout, err=sys.stderr):
    try:
        opts, files = cli.parse(argv, OPTIONS, "RESULTS.json")
        if "--help" in opts:
            out.write(cli.usage_text(PROG, "[options] RESULTS.json", OPTIONS, MORE))
            return 0
        if len(files) != 1:
            raise cli.UsageError("expected one results file, got %d (accepted: [options] "
                                 "RESULTS.json)" % len(files))
        to_stdout = [o for o in ("--tap", "--table") if o in opts]
        if opts.get("--junit") == "-":
            to_stdout.append("--junit -")
        if "--baseline" in opts and "--tap" in opts:
            to_stdout.append("--baseline")
        if len(to_stdout) > 1:
            raise cli.UsageError("%s %s write to stdout (accepted: one of them)" %
                                 (" and ".join(to_stdout),
                                  "both" if len(to_stdout) == 2 else "all"))
        pct = cli.number("--median-pct", opts.get("--median-pct", str(baseline.DEFAULT_PCT)),
                         1, 100000)
        cycles = cli.number("--median-cycles",
                            opts.get("--median-cycles", str(baseline.DEFAULT_CYCLES)), 0,
                            1 << 32)
        res = load(files[0])
        old = load(opts["--baseline"]) if "--baseline" in opts else None
    except (cli.UsageError, ResultsError) as e:
        return cli.die(PROG, str(e))

    for r in (old, res):
        for note in (r.notes if r else []):
            err.write("%s: note: %s: %s\n" % (PROG, r.path, note))

    if "--junit" in opts:
        doc = ci_formats.junit_document([ci_formats.junit_suite(res)])
        if opts["--junit"] == "-":
            out.write(doc)
        else:
            try:
                with open(opts["--junit"], "w", encoding="utf-8") as f:
                    f.write(doc)
            except OSError as e:
                return cli.die(PROG, "%s: cannot write: %s (accepted: a writable file, or - "
                               "for stdout)" % (opts["--junit"], e.strerror))
    if "--tap" in opts:
        out.write(ci_formats.tap(res))
    if "--table" in opts or not (set(opts) & {"--junit", "--tap", "--baseline"}):
        out.write(ci_formats.table(res))
    if old is None:
        return 0
    return report_baseline(old, res, pct, cycles, out)


def report_baseline(old, new, pct, cycles, out):
    """The comparison in lines of at most 80 columns: what differs, a line per
    test and kind across CPUs, then the closing line (docs/CI.md)."""
    head = "baseline %s (%s, %s) -> %s (%s, %s); medians moved: > %d%% and > %d cycles" % (
        old.path, dict(old.identity).get("pebsprobe", "?"), old.cpu_label, new.path,
        dict(new.identity).get("pebsprobe", "?"), new.cpu_label, pct, cycles)
    wrap = textwrap.TextWrapper(width=baseline.WIDTH - 1, subsequent_indent=" " * 9,
                                break_on_hyphens=False, break_long_words=True)
    out.write("\n".join(wrap.wrap(head)) + "\n")
    if old.cpu_label != new.cpu_label:
        out.write("note: the runs are of different CPUs (%s, %s)\n" % (old.cpu_label,
                                                                       new.cpu_label))
    findings = baseline.group(baseline.compare(old, new, pct, cycles))
    for f in findings:
        out.write(f.line() + "\n")
    same = sum(1 for v in new.verdicts
               if any(o.key() == v.key() and o.verdict == v.verdict for o in old.verdicts))
    last = baseline.summary(findings)
    if last:
        out.write(last + "\n")
        return 1
    out.write("no regression (%d verdicts unchanged, %d other differences)\n" %
              (same, len(findings)))
    return 0


def main():
    """The entry point (zipapp ignores a return value: cli.main exits)."""
    cli.main(PROG, run)


if __name__ == "__main__":
    main()
