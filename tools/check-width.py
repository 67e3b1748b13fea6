#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-width.py - every console line the app can print fits 80 columns.

    tools/check-width.py [--width N] [--list] [PATH ...]

Reads the C sources under PATH (default: every .c file of the app's units,
the tests and host tools left out), finds each call of a printing function
of lib/report.h (report_pass, report_fail, report_skip, report_verdict,
report_info, report_detail, report_banner, report_env_error, report_line),
builds the line that call prints with the widest argument each conversion
can take, adds the " [sim]" mark where a simulated run puts it (the
banner, the verdicts, SUMMARY and RESULT), and prints one line per call
over the width:

    FAIL: width: job/job.c:325: 93 columns, over 80
        <the widest line>

then exits 1 (0 when none is over; 2 for a bad argument).  --list prints
every widest line with its width instead.  Nothing is compiled or run: the
calls are found in the source, so a line added anywhere is covered.

Widest arguments (lib/fmt.c, the app's printf, is what prints them):
  - %d %i: the most negative value of the length's type ("-2147483648",
    with l/ll/z/j/t "-9223372036854775808"); %u: the largest ("4294967295",
    "18446744073709551615"); %x %X %o: the largest in that base; hh and h
    shrink the type as in C; %p: "0x" and 16 hex digits; %c: one column.
    A field width or precision is honoured when it is wider.
  - An integer literal, or a name #defined to one anywhere in the tree
    (REPORT_DEFER_BYTES), prints its own digits.
  - %s: a string literal (or a #define of one) is itself; "a ? b : c" is
    its wider branch; a parameter of the calling function is the widest
    argument any caller in the tree passes there; a local buffer the
    calling function fills with pp_vsnprintf(buf, ..., fmt, ap) from its
    own format parameter is the widest line any caller's format makes
    (skip_kernel(r, def, "needs %u CPUs", n) is checked at its call).
    Any other string (a kernel's name, a reason built at run time) has no
    widest value in the source: it counts as empty, and the fixed text and
    numbers around it must fit.  Such a line, when its data makes it wide,
    is wrapped by report_wrap() (lib/report.h) at run time.
  - The name of report_fail/skip/env_error is resolved the same way, then
    ": " when the format is not empty.
"""
import argparse
import os
import re
import sys

PRINTERS = {
    # name: (prefix, index of the name argument or None, index of the format,
    #        whether a simulated run marks the line " [sim]": lib/report.h)
    "report_pass": ("PASS: ", None, 0, True),
    "report_fail": ("FAIL: ", 0, 1, True),
    "report_skip": ("SKIP: ", 0, 1, True),
    "report_verdict": ("PASS: ", 1, 3, True),
    "report_banner": ("INFO: ", None, 0, True),
    "marked_line": ("", None, 0, True),
    "report_info": ("INFO: ", None, 0, False),
    "report_detail": ("INFO: ", None, 0, False),
    "report_env_error": ("ERROR: ", 0, 1, False),
    "report_line": ("", None, 0, False),
}
SIM_MARK = " [sim]"
UNITS = ["app", "decode", "ds", "efi", "job", "kernels", "lib", "pmu", "sim"]
MAX_VARIANTS = 64

TOKEN = re.compile(
    r'(?P<str>"(?:\\.|[^"\\\n])*")|(?P<chr>\'(?:\\.|[^\'\\\n])*\')|'
    r"(?P<id>[A-Za-z_]\w*)|(?P<num>\.?\d[\w.]*)|(?P<ell>\.\.\.)|"
    r"(?P<op>->|\+\+|--|<<|>>|[<>=!]=|&&|\|\||.)",
    re.S,
)


def unescape(lit):
    """The characters a C string literal (with its quotes) stands for."""
    body = lit[1:-1]
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        i += 1
        e = body[i]
        if e == "x":
            m = re.match(r"[0-9a-fA-F]+", body[i + 1:])
            out.append(chr(int(m.group(0), 16) & 0xFF))
            i += 1 + len(m.group(0))
        elif e in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i:])
            out.append(chr(int(m.group(0), 8)))
            i += len(m.group(0))
        else:
            out.append({"n": "\n", "t": "\t", "r": "\r"}.get(e, e))
            i += 1
    return "".join(out)


def strip_comments(text):
    """Comments and preprocessor lines blanked; newlines (line numbers) kept."""

    def blank(m):
        s = m.group(0)
        if s.startswith('"') or s.startswith("'"):
            return s
        return re.sub(r"[^\n]", " ", s)

    text = re.sub(
        r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', blank, text, flags=re.S)
    # Preprocessor lines (with their continuations) are not code to scan.
    return re.sub(r"(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", blank, text)


class Tok:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line


def tokenize(text):
    toks, line = [], 1
    for m in TOKEN.finditer(text):
        s = m.group(0)
        if not s.isspace():
            toks.append(Tok(m.lastgroup, s, line))
        line += s.count("\n")
    return toks


class Func:
    def __init__(self, name, params, variadic, body, src):
        (self.name, self.params, self.variadic, self.body,
         self.src) = name, params, variadic, body, src


class Call:
    def __init__(self, name, args, line, func, src):
        self.name, self.args, self.line, self.func, self.src = name, args, line, func, src


def split_args(toks, i):
    """toks[i] is '(': the argument token lists and the index after ')'."""
    depth, args, cur = 0, [], []
    j = i
    while j < len(toks):
        t = toks[j].text
        if t in "([{":
            depth += 1
            if depth > 1:
                cur.append(toks[j])
        elif t in ")]}":
            depth -= 1
            if depth == 0:
                if cur or args:
                    args.append(cur)
                return args, j + 1
            cur.append(toks[j])
        elif t == "," and depth == 1:
            args.append(cur)
            cur = []
        else:
            cur.append(toks[j])
        j += 1
    return args, j


def param_names(args):
    names, variadic = [], False
    for a in args:
        ids = [t.text for t in a if t.kind == "id"]
        if any(t.kind == "ell" for t in a):
            variadic = True
            names.append("...")
        else:
            names.append(ids[-1] if ids else "")
    return names, variadic


class Tree:
    def __init__(self, files, define_files):
        self.defines = {}
        self.funcs = {}  # name -> [Func]
        self.calls = []  # every call of any function, inside a body
        self.by_name = {}
        for path in define_files:
            self.read_defines(path)
        for path in files:
            self.read(path)
        for c in self.calls:
            self.by_name.setdefault(c.name, []).append(c)

    def read_defines(self, path):
        with open(path, errors="replace") as f:
            text = f.read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        for m in re.finditer(r"(?m)^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(.*?)[ \t]*$", text):
            v = re.sub(r"//.*", "", m.group(2)).strip()
            if re.fullmatch(r'("(?:\\.|[^"\\])*"\s*)+', v):
                self.defines[m.group(1)] = ("str", "".join(unescape(s)
                                                           for s in re.findall(
                                                               r'"(?:\\.|[^"\\])*"', v)))
            elif re.fullmatch(r"\(?-?(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\)?", v):
                self.defines[m.group(1)] = ("int", int(re.sub(r"[()uUlL]", "", v), 0))

    def read(self, path):
        with open(path, errors="replace") as f:
            toks = tokenize(strip_comments(f.read()))
        i, depth = 0, 0
        while i < len(toks):
            t = toks[i]
            if t.text == "{":
                depth += 1
            elif t.text == "}":
                depth -= 1
            elif depth == 0 and t.kind == "id" and i + 1 < len(toks) and toks[i + 1].text == "(":
                args, j = split_args(toks, i + 1)
                # Attributes and qualifiers may sit between ')' and '{'.
                k = j
                while k < len(toks) and toks[k].text not in ("{", ";", ","):
                    k += 1
                if k < len(toks) and toks[k].text == "{":
                    names, variadic = param_names(args)
                    end, d = k, 0
                    while end < len(toks):
                        if toks[end].text == "{":
                            d += 1
                        elif toks[end].text == "}":
                            d -= 1
                            if d == 0:
                                break
                        end += 1
                    fn = Func(t.text, names, variadic, toks[k: end + 1], path)
                    self.funcs.setdefault(t.text, []).append(fn)
                    self.scan_calls(fn)
                    i = end + 1
                    continue
                i = j
                continue
            i += 1

    def scan_calls(self, fn):
        b = fn.body
        for i in range(len(b) - 1):
            if (b[i].kind == "id" and b[i + 1].text == "("
                    and (i == 0 or b[i - 1].text not in (".", "->"))):
                args, _ = split_args(b, i + 1)
                self.calls.append(Call(b[i].text, args, b[i].line, fn, fn.src))


def lit_value(tree, toks):
    """The string a token list stands for, if it is literals (and string #defines) only."""
    if not toks:
        return None
    out = []
    for t in toks:
        if t.kind == "str":
            out.append(unescape(t.text))
        elif t.kind == "id" and tree.defines.get(t.text, ("", None))[0] == "str":
            out.append(tree.defines[t.text][1])
        else:
            return None
    return "".join(out)


def int_value(tree, toks):
    texts = [t.text for t in toks if t.text not in ("(", ")")]
    if len(texts) == 1:
        s = texts[0]
        if re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*", s):
            return int(re.sub(r"[uUlL]", "", s), 0)
        d = tree.defines.get(s)
        if d and d[0] == "int":
            return d[1]
    return None


def split_ternary(toks):
    """cond ? a : b at the top level: (a, b), else None."""
    depth, q = 0, None
    for i, t in enumerate(toks):
        if t.text in "([{":
            depth += 1
        elif t.text in ")]}":
            depth -= 1
        elif depth == 0 and t.text == "?" and q is None:
            q = i
        elif depth == 0 and t.text == ":" and q is not None:
            return toks[q + 1: i], toks[i + 1:]
    return None


class Ctx:
    def __init__(self, tree, call, chain):
        self.tree, self.call, self.chain = tree, call, chain


def string_variants(ctx, toks, depth=0):
    """[(text, where)]: the widest strings an expression can be; ("", None) when unknown."""
    tree = ctx.tree
    s = lit_value(tree, toks)
    if s is not None:
        return [(s, None)]
    while len(toks) >= 2 and toks[0].text == "(" and toks[-1].text == ")":
        toks = toks[1:-1]
    tern = split_ternary(toks)
    if tern:
        return string_variants(ctx, tern[0], depth) + string_variants(ctx, tern[1], depth)
    if depth >= 4 or len(toks) != 1 or toks[0].kind != "id":
        return [("", None)]
    name, fn = toks[0].text, ctx.call.func
    if name in fn.params:
        idx = fn.params.index(name)
        out = []
        for c in tree.by_name.get(fn.name, []):
            if idx < len(c.args):
                sub = Ctx(tree, c, ctx.chain)
                for text, where in string_variants(sub, c.args[idx], depth + 1):
                    out.append((text, where or "%s:%d" % (c.src, c.line)))
        return out or [("", None)]
    # A buffer filled from the function's own format: pp_vsnprintf(name, size, fmt, ap).
    if fn.variadic:
        for c in tree.calls:
            if c.func is fn and c.name == "pp_vsnprintf" and len(c.args) == 4 and \
                    [t.text for t in c.args[0]] == [name] and len(c.args[2]) == 1 and \
                    c.args[2][0].text in fn.params:
                fidx = fn.params.index(c.args[2][0].text)
                out = []
                for caller in tree.by_name.get(fn.name, []):
                    if fidx < len(caller.args):
                        sub = Ctx(tree, caller, ctx.chain)
                        for text, where in expand(sub, caller.args[fidx], caller.args[fidx + 1:],
                                                  depth + 1):
                            out.append((text, where or "%s:%d" % (caller.src, caller.line)))
                return out or [("", None)]
    return [("", None)]


CONV = re.compile(r"%([-0+ #]*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|z|j|t)?([diuxXopcs%])")


def widest_number(conv, length, value):
    bits = {"hh": 8, "h": 16, None: 32, "l": 64, "ll": 64, "z": 64, "j": 64, "t": 64}[length]
    if value is not None:
        v = value
        if conv in "di":
            return str(v)
        return format(v, {"u": "d", "x": "x", "X": "X", "o": "o"}[conv])
    if conv in "di":
        return str(-(1 << (bits - 1)))
    m = (1 << bits) - 1
    return format(m, {"u": "d", "x": "x", "X": "X", "o": "o"}[conv])


def expand(ctx, fmt_toks, arg_toks, depth=0):
    """[(line, where)]: the format with each conversion at its widest."""
    fmt = lit_value(ctx.tree, fmt_toks)
    if fmt is None:
        # A format that is not a literal (a parameter forwarded): its callers'.
        return [(t, w) for t, w in string_variants(ctx, fmt_toks, depth) if True]
    pieces = [[("", None)]]
    args = list(arg_toks)
    pos = 0
    for m in CONV.finditer(fmt):
        pieces.append([(fmt[pos: m.start()], None)])
        pos = m.end()
        flags, width, prec, length, conv = m.groups()
        if conv == "%":
            pieces.append([("%", None)])
            continue
        w = 0
        if width == "*":
            v = int_value(ctx.tree, args.pop(0)) if args else None
            w = v if v is not None else 0
        elif width:
            w = int(width)
        p = -1
        if prec == "*":
            v = int_value(ctx.tree, args.pop(0)) if args else None
            p = v if v is not None else -1
        elif prec:
            p = int(prec)
        a = args.pop(0) if args else []
        if conv == "s":
            vs = string_variants(ctx, a, depth)
            vs = [((t[:p] if p >= 0 else t), where) for t, where in vs]
        elif conv == "c":
            vs = [("c", None)]
        elif conv == "p":
            vs = [("0x" + "f" * 16, None)]
        else:
            s = widest_number(conv, length, int_value(ctx.tree, a))
            if p > len(s.lstrip("-")):
                s = ("-" if s.startswith("-") else "") + s.lstrip("-").rjust(p, "0")
            if (conv in "di" and ("+" in (flags or "") or " " in (flags or ""))
                    and not s.startswith("-")):
                s = "+" + s
            vs = [(s, None)]
        pieces.append([(t.ljust(w), where) for t, where in vs])
    pieces.append([(fmt[pos:], None)])
    # The product of the pieces' variants; past MAX_VARIANTS, the widest of each.
    n = 1
    for pc in pieces:
        n *= len(pc)
    if n > MAX_VARIANTS:
        pieces = [[max(pc, key=lambda v: len(v[0]))] for pc in pieces]
    out = [("", None)]
    for pc in pieces:
        out = [(a + t, wa or wt) for a, wa in out for t, wt in pc]
    return out


def lines_of(tree, call):
    prefix, name_idx, fmt_idx, _ = PRINTERS[call.name]
    if fmt_idx >= len(call.args):
        return []
    ctx = Ctx(tree, call, [])
    fmt_toks = call.args[fmt_idx]
    bodies = expand(ctx, fmt_toks, call.args[fmt_idx + 1:])
    if name_idx is None:
        return [(prefix + b, w) for b, w in bodies]
    names = string_variants(ctx, call.args[name_idx])
    fmt = lit_value(tree, fmt_toks)
    sep = "" if fmt == "" else ": "
    out = [(prefix + n + sep + b, wn or wb) for n, wn in names for b, wb in bodies]
    if len(out) > MAX_VARIANTS:
        out = [max(out, key=lambda v: len(v[0]))]
    return out


def known_key(call, where, line):
    """A wide line's entry in the known list: files, not line numbers, and the text."""
    via = " via " + where.rsplit(":", 1)[0] if where else ""
    return "%s%s: %s" % (call.src, via, line)


def read_known(path):
    keys = set()
    with open(path) as f:
        for ln in f:
            ln = ln.rstrip("\n")
            if ln and not ln.startswith("#"):
                keys.add(ln)
    return keys


def main(argv=None):
    ap = argparse.ArgumentParser(prog="check-width.py", allow_abbrev=False,
                                 description=__doc__.strip().splitlines()[0])
    ap.add_argument("--width", type=int, default=80, metavar="N", help="columns (default 80)")
    ap.add_argument("--list", action="store_true", help="list every line and its width")
    known = ap.add_mutually_exclusive_group()
    known.add_argument("--known", metavar="FILE", help="the lines known to be wide")
    known.add_argument("--write-known", metavar="FILE", help="write the wide lines to FILE")
    ap.add_argument("paths", nargs="*", metavar="PATH", help="C files or folders")
    a = ap.parse_args(argv)
    width, listing, paths = a.width, a.list, a.paths
    known_path, write_known = a.write_known or a.known, a.write_known is not None
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not paths:
        paths = [os.path.relpath(os.path.join(root, u)) for u in UNITS]
    known = set()
    if known_path and not write_known:
        if not os.path.isfile(known_path):
            print("check-width.py: --known '%s': no such file (accepted: a list written by"
                  " --write-known)" % known_path, file=sys.stderr)
            return 2
        known = read_known(known_path)
    files, headers = [], []
    for p in paths:
        if os.path.isfile(p):
            files.append(p)
            d = os.path.dirname(p) or "."
            headers += [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".h")]
            continue
        if not os.path.isdir(p):
            print("check-width.py: '%s': no such file or folder (accepted: C files or folders)"
                  % p, file=sys.stderr)
            return 2
        for d, _, names in sorted(os.walk(p)):
            for n in sorted(names):
                if n.endswith(".c"):
                    files.append(os.path.join(d, n))
                if n.endswith((".c", ".h")):
                    headers.append(os.path.join(d, n))
    tree = Tree(files, sorted(set(headers + files)))
    over = n_calls = n_known = 0
    seen_keys, wide_keys = set(), []
    for call in tree.calls:
        if call.name not in PRINTERS:
            continue
        n_calls += 1
        seen = set()
        for text, where in lines_of(tree, call):
            line = text + (SIM_MARK if PRINTERS[call.name][3] else "")
            loc = "%s:%d" % (call.src, call.line) + (" (via %s)" % where if where else "")
            if listing:
                print("%3d %s: %s" % (len(line), loc, line))
                continue
            if len(line) <= width:
                continue
            key = known_key(call, where, line)
            wide_keys.append(key)
            if write_known:
                continue
            if key in known:
                seen_keys.add(key)
                n_known += 1
                continue
            if loc not in seen:
                seen.add(loc)
                over += 1
                print("FAIL: width: %s: %d columns, over %d" % (loc, len(line), width))
                print("    %s" % line)
    if write_known:
        with open(known_path, "w") as f:
            f.write(KNOWN_HEADER)
            for k in sorted(set(wide_keys)):
                f.write(k + "\n")
        print("INFO: width: %d wide lines written to %s" % (len(set(wide_keys)), known_path))
        return 0
    if listing:
        return 0
    for k in sorted(known - seen_keys):
        print("INFO: width: known wide line no longer found (fixed? remove it from the list): "
              "%s" % k)
    print("INFO: width: %d printing calls in %d files; %d lines over %d columns, %d of them"
          " on the known list" % (n_calls, len(files), over + len(seen_keys), width,
                                  len(seen_keys)))
    return 1 if over else 0


KNOWN_HEADER = """\
# Console lines that were over 80 columns, at their widest arguments, when
# tools/check-width.py was written (tests/host/check-width.sh).  One per
# line: the file of the printing call, "via" the file of the caller whose
# argument makes it wide, and the widest line.  Nothing may be added: a
# line fixed comes off the list, and a changed or new line must fit.
"""


if __name__ == "__main__":
    sys.exit(main())
