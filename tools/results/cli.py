# SPDX-License-Identifier: MIT
"""cli - the command-line parsing the host tools share: every mistake is one
line that names what was wrong and what is accepted, and exit status 2.

argparse alone parses; its error() raises UsageError with the tools' own
words instead of printing a usage block, and the help text stays
usage_text()'s."""

import argparse
import os
import re
import sys
import traceback
from dataclasses import dataclass


class UsageError(Exception):
    pass


@dataclass
class Option:
    name: str  # "--junit"
    value: str = None  # metavariable when the option takes a value, else None
    help: str = ""
    repeat: bool = False


def accepted(options):
    return ", ".join(o.name + (" " + o.value if o.value else "") for o in options)


class _Once(argparse.Action):
    """Stores the option's value (True for a flag); a second one is refused."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest) is not None:
            raise UsageError("option %s given twice (accepted: once)" % option_string)
        setattr(namespace, self.dest, True if self.nargs == 0 else values)


class _Parser(argparse.ArgumentParser):
    def __init__(self, options, positional):
        super().__init__(add_help=False, allow_abbrev=False)
        self.options, self.positional = options, positional
        self.by_name = {o.name: o for o in options}
        for o in options:
            if o.repeat:
                self.add_argument(o.name, dest=o.name, action="append")
            elif o.value is None:
                self.add_argument(o.name, dest=o.name, action=_Once, nargs=0)
            else:
                self.add_argument(o.name, dest=o.name, action=_Once)
        self.add_argument("words", nargs="*", metavar=positional)

    def error(self, message):
        m = re.match(r"argument (\S+): (ignored explicit argument|expected one argument)",
                     message)
        if m and m.group(2).startswith("ignored"):
            raise UsageError("option %s takes no value (accepted: %s alone)" %
                             (m.group(1), m.group(1)))
        if m:
            o = self.by_name[m.group(1)]
            raise UsageError("option %s needs a value: %s %s" % (o.name, o.name, o.value))
        m = re.match(r"unrecognized arguments: (\S+)", message)
        if m:
            raise UsageError("unknown option '%s' (accepted: %s, then %s)" %
                             (m.group(1).partition("=")[0], accepted(self.options),
                              self.positional))
        raise UsageError(message)


def parse(argv, options, positional):
    """Returns ({name: value or True or [values]}, [positionals]): argparse
    alone, options and positionals in any order.  --name=value and --name
    value are both accepted; -- ends the options."""
    ns = _Parser(options, positional).parse_intermixed_args(list(argv))
    words = ns.words
    got = {k: v for k, v in vars(ns).items() if v is not None and k != "words"}
    return got, words


def number(name, text, lo, hi):
    """A decimal integer option in [lo, hi]."""
    try:
        v = int(text, 10)
    except ValueError:
        raise UsageError("option %s: '%s' is not a number (accepted: %d..%d)" %
                         (name, text, lo, hi))
    if not lo <= v <= hi:
        raise UsageError("option %s: %d is out of range (accepted: %d..%d)" % (name, v, lo, hi))
    return v


def usage_text(prog, synopsis, options, more=""):
    lines = ["usage: %s %s" % (prog, synopsis), ""]
    for o in options:
        left = o.name + (" " + o.value if o.value else "")
        lines.append("  %-24s %s" % (left, o.help))
    if more:
        lines.extend(["", more])
    return "\n".join(lines) + "\n"


def die(prog, msg, status=2):
    sys.stderr.write("%s: %s\n" % (prog, msg))
    return status


def main(prog, run):
    """A tool's entry point: exits with run(argv)'s status.  Whatever goes
    wrong inside is still one line and exit 2, never a traceback: the
    exception and where it was raised, for the bug report."""
    try:
        status = run(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        status = 1
    except KeyboardInterrupt:
        status = 130
    except Exception as e:  # the one place every failure ends
        tb = traceback.extract_tb(e.__traceback__)[-1]
        status = die(prog, "internal error: %s: %s at %s:%d (a bug: please report it with "
                     "the input files; accepted input gives no such line)" % (
                         type(e).__name__, e, os.path.basename(tb.filename), tb.lineno))
    sys.exit(status)
