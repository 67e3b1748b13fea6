# SPDX-License-Identifier: MIT
"""cli - the command-line parsing the host tools share: every mistake is one
line that names what was wrong and what is accepted, and exit status 2."""

import sys


class UsageError(Exception):
    pass


class Option:
    def __init__(self, name, value=None, help="", repeat=False):
        self.name = name  # "--junit"
        self.value = value  # metavariable when the option takes a value, else None
        self.help = help
        self.repeat = repeat


def accepted(options):
    return ", ".join(o.name + (" " + o.value if o.value else "") for o in options)


def parse(argv, options, positional):
    """Returns ({name: value or True or [values]}, [positionals]).
    --name=value and --name value are both accepted; -- ends the options."""
    by_name = {o.name: o for o in options}
    got, rest = {}, []
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a == "--":
            rest.extend(argv[i:])
            break
        if not a.startswith("-") or a == "-":
            rest.append(a)
            continue
        name, eq, val = a.partition("=")
        o = by_name.get(name)
        if o is None:
            raise UsageError("unknown option '%s' (accepted: %s, then %s)" %
                             (name, accepted(options), positional))
        if o.value is None:
            if eq:
                raise UsageError("option %s takes no value (accepted: %s alone)" % (name, name))
            value = True
        else:
            if not eq:
                if i >= len(argv):
                    raise UsageError("option %s needs a value: %s %s" % (name, name, o.value))
                val = argv[i]
                i += 1
            value = val
        if o.repeat:
            got.setdefault(name, []).append(value)
        elif name in got:
            raise UsageError("option %s given twice (accepted: once)" % name)
        else:
            got[name] = value
    return got, rest


def number(name, text, lo, hi):
    """A decimal integer option in [lo, hi]."""
    try:
        v = int(text, 10)
    except ValueError:
        raise UsageError("option %s: '%s' is not a number (accepted: %d..%d)" % (name, text, lo, hi))
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
