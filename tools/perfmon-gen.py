#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfmon-gen - turns data/perfmon into C tables (layout: pmu/perfmon_data.h).

    tools/perfmon-gen.py DATA_DIR OUT.c

Run by the build (pmu/build.mk).  Every field value is parsed by a strict
rule below; a value that fits no rule, or that does not fit its C field,
stops the build with one line naming the file, the event, the field, the
value and what is accepted.  Nothing falls back to a default.
docs/PERFMON.md lists the spellings found and how each is read.
"""
import argparse
import json
import os
import re
import sys

PROG = "perfmon-gen"


class Bad(Exception):
    pass


def die(msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr)
    sys.exit(1)


# --- field grammars ---------------------------------------------------------

HEX = re.compile(r"0[xX]([0-9a-fA-F]+)")


def hex_value(s, bits, what):
    m = HEX.fullmatch(s)
    if not m:
        raise Bad("'%s' is not %s (0x followed by hex digits)" % (s, what))
    v = int(m.group(1), 16)
    if v >> bits:
        raise Bad("'%s' does not fit %d bits" % (s, bits))
    return v


def hex_list(s, bits, max_n, what):
    """"0xB7", "0x2A,0x2B", "0xB7, 0xBB": hex numbers, a comma and optional
    blanks between them."""
    items = [x.strip() for x in s.split(",")]
    if len(items) > max_n:
        raise Bad("'%s': %d values, at most %d accepted" % (s, len(items), max_n))
    vals = [hex_value(x, bits, what) for x in items]
    if len(set(vals)) != len(vals):
        raise Bad("'%s' repeats a value" % s)
    return vals


def dec(s, lo, hi):
    if not re.fullmatch(r"[0-9]+", s):
        raise Bad("'%s' is not a decimal number" % s)
    v = int(s)
    if not lo <= v <= hi:
        raise Bad("'%s' is outside %d..%d" % (s, lo, hi))
    return v


def choice(s, allowed):
    if s not in allowed:
        raise Bad("'%s' is not one of %s" % (s, ", ".join("'%s'" % a for a in allowed)))
    return allowed[s]


BOOL = {"0": False, "1": True}

# The counter-list spellings in the files (docs/PERFMON.md, "Counter spellings").
#  - "Fixed counter N": fixed counter N (Counter, CounterHTOff only);
#  - "0,1,2,3": decimal counter numbers, commas, no blanks.  In Counter and
#    CounterHTOff each number is a general-purpose counter IA32_PMCn; in
#    PEBScounters, PDISTCounter and PDIR_COUNTER a number n >= 32 is fixed
#    counter n-32 (perfmon README, PDISTCounter: "32: ... fixed counter 0");
#  - "NA" (PDISTCounter) and "na" (PDIR_COUNTER): none.
# Anything else, a range such as "0-3" included, stops the build.
FIXED_RE = re.compile(r"Fixed counter ([0-9]|[12][0-9]|3[01])")
LIST_RE = re.compile(r"[0-9]{1,2}(,[0-9]{1,2})*")

CTR_FIELDS = {
    # field: (index in the C ctr[] array, fixed spelling?, 32+n numbers?, "none" spelling)
    "Counter": (0, True, False, None),
    "CounterHTOff": (1, True, False, None),
    "PEBScounters": (2, False, True, None),
    "PDISTCounter": (3, False, True, "NA"),
    "PDIR_COUNTER": (4, False, True, "na"),
}


def counters(field, s):
    _, fixed_ok, high_fixed, none = CTR_FIELDS[field]
    if none is not None and s == none:
        return (0, 0)
    m = FIXED_RE.fullmatch(s)
    if m and fixed_ok:
        return (0, 1 << int(m.group(1)))
    if LIST_RE.fullmatch(s):
        gp = fx = 0
        for n in (int(x) for x in s.split(",")):
            if n < 32:
                bit, isfx = n, False
            elif high_fixed and n < 64:
                bit, isfx = n - 32, True
            else:
                raise Bad("'%s': counter %d is out of range for %s" % (s, n, field))
            mask = 1 << bit
            if (fx if isfx else gp) & mask:
                raise Bad("'%s' repeats counter %d" % (s, n))
            if isfx:
                fx |= mask
            else:
                gp |= mask
        return (gp, fx)
    accepted = ["'0,1,2,3' (decimal counter numbers)"]
    if fixed_ok:
        accepted.append("'Fixed counter N'")
    if high_fixed:
        accepted[0] = "'0,1,32' (decimal; 32+n is fixed counter n)"
    if none is not None:
        accepted.append("'%s'" % none)
    raise Bad("unknown %s spelling '%s' (accepted: %s)" % (field, s, ", ".join(accepted)))


ERRATA_RE = re.compile(r"[A-Z]+[0-9]+(, [A-Z]+[0-9]+)*")


def errata(s):
    """"null" and "0" mean none; else IDs such as "HSD78, HSM80"."""
    if s in ("null", "0"):
        return ""
    if ERRATA_RE.fullmatch(s):
        return s
    raise Bad("unknown Errata spelling '%s' (accepted: 'null', '0', 'ABC12[, DEF34...]')" % s)


def msr_index(s):
    """"0" and "0x00": no extra MSR; else up to 4 MSR addresses."""
    if s in ("0", "0x00"):
        return []
    vals = hex_list(s, 16, 4, "an MSR address")
    if 0 in vals:
        raise Bad("'%s' mixes MSR 0 with MSR addresses" % s)
    return vals


def msr_value(s):
    """"0", or a hex number; the Goldmont file ends some with a blank."""
    t = s.rstrip(" ")
    if t == "0":
        return 0
    return hex_value(t, 64, "an MSR value")


REQUIRED = ["EventName", "EventCode", "UMask", "Counter", "MSRIndex", "MSRValue",
            "SampleAfterValue", "CounterMask", "Invert", "EdgeDetect"]
# Optional fields: the PERFMON_HAS_* bit (pmu/perfmon.h) each sets.
OPTIONAL = {
    "UMaskExt": 1 << 0, "CounterHTOff": 1 << 1, "PEBScounters": 1 << 2,
    "PDISTCounter": 1 << 3, "PDIR_COUNTER": 1 << 4, "PEBS": 1 << 5, "Precise": 1 << 6,
    "CollectPEBSRecord": 1 << 7, "Data_LA": 1 << 8, "L1_Hit_Indication": 1 << 9,
    "PRECISE_STORE": 1 << 10, "TakenAlone": 1 << 11, "AnyThread": 1 << 12,
    "Equal": 1 << 13, "Errata": 1 << 14, "Deprecated": 1 << 15, "Offcore": 1 << 16,
    "Offmodule": 1 << 17, "CounterType": 1 << 18, "ProgrammingRestriction": 1 << 19,
}
# perfmon_event.flags bits (pmu/perfmon_data.h).
FLAG_BITS = {
    "Invert": 0, "EdgeDetect": 1, "AnyThread": 2, "Equal": 3, "TakenAlone": 4,
    "Data_LA": 5, "L1_Hit_Indication": 6, "PRECISE_STORE": 7, "Deprecated": 8,
    "Offcore": 9, "Offmodule": 10,
}
FIXED_TYPE_BIT = 11
RESTRICT_SHIFT = 12
COUNTER_TYPE = {"PGMABLE": 0, "FIXED": 1}
RESTRICTION = {"None": 0, "MSRIndex-UMask": 1, "MSRIndex-UMask-Counter": 2}
NAME_RE = re.compile(r"[A-Za-z0-9_.:=-]{1,127}")


def parse_event(ev):
    """One event (a dict of the fields it has) -> the values the C row holds."""
    def get(k):
        return ev[k]

    def field(k, fn, *args):
        try:
            return fn(get(k), *args)
        except Bad as e:
            raise Bad("%s: %s" % (k, e))

    name = get("EventName")
    if not NAME_RE.fullmatch(name):
        raise Bad("EventName: '%s' has a character outside [A-Za-z0-9_.:=-] or is too long"
                  % name)
    codes = field("EventCode", hex_list, 8, 2, "an event code")
    umasks = field("UMask", hex_list, 8, 4, "a unit mask")
    umask_ext = field("UMaskExt", hex_value, 8, "a UMaskExt") if "UMaskExt" in ev else 0
    cmask = field("CounterMask", dec, 0, 255)
    ctr = [(0, 0)] * 5
    for f, (i, _, _, _) in CTR_FIELDS.items():
        if f in ev:
            ctr[i] = field(f, counters_for, f)
    flags = 0
    for f, bit in FLAG_BITS.items():
        if f in ev and field(f, choice, BOOL):
            flags |= 1 << bit
    if "CounterType" in ev and field("CounterType", choice, COUNTER_TYPE):
        flags |= 1 << FIXED_TYPE_BIT
    if "ProgrammingRestriction" in ev:
        flags |= field("ProgrammingRestriction", choice, RESTRICTION) << RESTRICT_SHIFT
    pebs = field("PEBS", dec, 0, 2) if "PEBS" in ev else 0
    precise = int(field("Precise", choice, BOOL)) if "Precise" in ev else 0
    collect = field("CollectPEBSRecord", dec, 0, 3) if "CollectPEBSRecord" in ev else 0
    msrs = field("MSRIndex", msr_index)
    value = field("MSRValue", msr_value)
    sav = field("SampleAfterValue", dec, 0, 0xffffffff)
    err = field("Errata", errata) if "Errata" in ev else ""
    return {
        "name": name, "codes": codes, "umasks": umasks, "umask_ext": umask_ext,
        "cmask": cmask, "ctr": tuple(ctr), "flags": flags,
        "pebs": pebs | precise << 2 | collect << 3,
        "extra": (tuple(codes), tuple(umasks), tuple(msrs), value), "sav": sav,
        "errata": err,
    }


def counters_for(s, f):
    return counters(f, s)


# --- mapfile.csv -----------------------------------------------------------

def expand(pattern, what):
    """Hex digits and character classes ([01234], [0-4]) -> every string."""
    outs = [""]
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "[":
            j = pattern.find("]", i)
            if j < 0:
                raise Bad("%s '%s': '[' without ']'" % (what, pattern))
            body, chars, k = pattern[i + 1:j], [], 0
            while k < len(body):
                if k + 2 < len(body) and body[k + 1] == "-":
                    lo, hi = int(body[k], 16), int(body[k + 2], 16)
                    if lo > hi:
                        raise Bad("%s '%s': range %s" % (what, pattern, body[k:k + 3]))
                    chars += ["%X" % v for v in range(lo, hi + 1)]
                    k += 3
                elif re.fullmatch(r"[0-9A-Fa-f]", body[k]):
                    chars.append(body[k].upper())
                    k += 1
                else:
                    raise Bad("%s '%s': '%s' in a character class (hex digits and "
                              "ranges accepted)" % (what, pattern, body[k]))
            if not chars:
                raise Bad("%s '%s': empty character class" % (what, pattern))
            outs = [o + ch for o in outs for ch in chars]
            i = j + 1
        elif re.fullmatch(r"[0-9A-Fa-f]", c):
            outs = [o + c.upper() for o in outs]
            i += 1
        else:
            raise Bad("%s '%s': '%s' cannot be expanded (hex digits and [...] classes "
                      "accepted)" % (what, pattern, c))
    return outs


def parse_mapfile(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    head = lines[0].split(",")
    want = ["Family-model", "Version", "Filename", "EventType", "Core Type",
            "Native Model ID", "Core Role Name"]
    if head != want:
        die("%s:1: header %s, expected %s" % (path, head, want))
    rows, files = [], []
    for n, line in enumerate(lines[1:], 2):
        cols = line.split(",")
        where = "%s:%d" % (path, n)
        if len(cols) != len(want):
            die("%s: %d columns, %d expected" % (where, len(cols), len(want)))
        key, _, fname, etype, ctype, native, _ = cols
        if etype not in ("core", "hybridcore"):
            die("%s: EventType '%s' (data/perfmon keeps core and hybridcore rows only)"
                % (where, etype))
        part = r"((?:[^-\[]|\[[^\]]*\])+)"  # a '-' inside [0-4] is no separator
        m = re.fullmatch(r"GenuineIntel-([0-9]+)-%s(?:-%s)?" % (part, part), key)
        if not m:
            die("%s: Family-model '%s' is not GenuineIntel-FAMILY-MODEL[-STEPPING]"
                % (where, key))
        family = int(m.group(1))  # decimal in mapfile.csv: 18 is family 0x12
        try:
            models = [int(x, 16) for x in expand(m.group(2), "model")]
            steps = ([int(x, 16) for x in expand(m.group(3), "stepping")]
                     if m.group(3) else [0xff])
        except Bad as e:
            die("%s: %s" % (where, e))
        if any(x > 0xff for x in models) or any(s > 0xf for s in steps if s != 0xff):
            die("%s: '%s' gives a model over 0xFF or a stepping over 0xF" % (where, key))
        if family > 0xffff:
            die("%s: family %d does not fit 16 bits" % (where, family))
        if (ctype == "") != (native == ""):
            die("%s: Core Type '%s' and Native Model ID '%s': both or neither expected"
                % (where, ctype, native))
        if etype == "hybridcore" and not ctype:
            die("%s: hybridcore row without a Core Type" % where)
        core_type = native_id = 0
        if ctype:
            try:
                core_type = hex_value(ctype, 8, "a core type")
                native_id = hex_value(native, 24, "a native model ID")
            except Bad as e:
                die("%s: %s" % (where, e))
            if core_type == 0:
                die("%s: Core Type 0x00" % where)
        if fname not in files:
            files.append(fname)
        for model in models:
            for st in steps:
                rows.append((family, model, st, core_type, native_id, files.index(fname),
                             where))
    # No two rows may claim one CPU unless they are the same row: a stepping
    # row beside an any-stepping row, or a hybrid row beside one without a
    # core type, would leave the lookup to guess.
    for i, a in enumerate(rows):
        for b in rows[:i]:
            if a[:2] != b[:2] or a[:6] == b[:6]:
                continue
            steps = a[2] == b[2] or 0xff in (a[2], b[2])
            cores = a[3:5] == b[3:5] or 0 in (a[3], b[3])
            if steps and cores:
                die("%s: family %d model 0x%X overlaps %s (same CPU, another stepping "
                    "or core type rule)" % (a[6], a[0], a[1], b[6]))
    uniq = []
    for r in rows:
        if r[:6] not in [u[:6] for u in uniq]:
            uniq.append(r)
    return uniq, files


def read_commit(data):
    with open(os.path.join(data, "PROVENANCE.md"), encoding="utf-8") as f:
        m = re.search(r"\bcommit ([0-9a-f]{40})\b", f.read())
    if not m:
        die("%s/PROVENANCE.md names no commit" % data)
    return m.group(1)


def read_events(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    fields = doc["Fields"]
    version = doc.get("Header", {}).get("Version", "")
    events = []
    for i, row in enumerate(doc["Events"]):
        if len(row) != len(fields):
            die("%s: event %d has %d values for %d fields" % (path, i, len(row), len(fields)))
        events.append({k: v for k, v in zip(fields, row) if v is not None})
    return version, events


# --- C output ---------------------------------------------------------------

class Pool:
    def __init__(self):
        self.off, self.parts, self.size = {}, [], 0
        self.add("")

    def add(self, s):
        if s not in self.off:
            self.off[s] = self.size
            self.parts.append(s)
            self.size += len(s.encode()) + 1
        return self.off[s]


class Index:
    """Distinct values, each given the next index; the limit is its C type's."""

    def __init__(self, what, limit, first=None):
        self.idx, self.items, self.what, self.limit = {}, [], what, limit
        if first is not None:
            self.get(first)

    def get(self, v):
        if v not in self.idx:
            if len(self.items) >= self.limit:
                die("more than %d distinct %s: widen the field in pmu/perfmon_data.h"
                    % (self.limit, self.what))
            self.idx[v] = len(self.items)
            self.items.append(v)
        return self.idx[v]


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '\\0"'


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.strip().splitlines()[0])
    ap.add_argument("data", metavar="DATA_DIR", help="the perfmon snapshot")
    ap.add_argument("out", metavar="OUT.c", help="the C file to write")
    args = ap.parse_args()
    data, out = args.data, args.out
    commit = read_commit(data)
    maps, files = parse_mapfile(os.path.join(data, "mapfile.csv"))

    pool = Pool()
    ctrsets = Index("counter-list sets", 256, ((0, 0),) * 5)
    lists = Index("code/umask/MSRIndex lists", 256, ((), (), ()))
    extras = Index("MSRValue and list pairs", 65536, (0, 0))
    savs = Index("SampleAfterValue values", 256)
    errs = Index("Errata values", 256, "")
    rows = Index("distinct events", 65536)
    tables, table_rows = [], []
    for rel in files:
        path = os.path.join(data, rel.lstrip("/"))
        m = re.fullmatch(r"/([A-Za-z0-9_-]+)/events/([A-Za-z0-9_.-]+\.json)", rel)
        if not m:
            die("mapfile.csv: file name '%s' is not /PLATFORM/events/NAME.json" % rel)
        if not os.path.isfile(path):
            die("%s: missing (named by mapfile.csv)" % path)
        version, events = read_events(path)
        present = set()
        for ev in events:
            present |= set(ev)
        fields = 0
        for k in present:
            if k not in REQUIRED and k not in OPTIONAL:
                die("%s: field '%s' is not read by this generator" % (path, k))
        for k in REQUIRED:
            missing = [ev.get("EventName", "?") for ev in events if k not in ev]
            if missing:
                die("%s: event %s lacks the field %s, which every file must carry"
                    % (path, missing[0], k))
        for k, bit in OPTIONAL.items():
            if k in present:
                lack = [ev["EventName"] for ev in events if k not in ev]
                if lack:
                    die("%s: field %s is on some events but not on %s: the tables keep "
                        "one presence bit per file" % (path, k, lack[0]))
                fields |= bit
        names = set()
        first = len(table_rows)
        for ev in events:
            try:
                p = parse_event(ev)
            except Bad as e:
                die("%s: event %s: %s" % (path, ev.get("EventName", "?"), e))
            if p["name"].upper() in names:
                die("%s: event %s appears twice (names are looked up in any case)"
                    % (path, p["name"]))
            names.add(p["name"].upper())
            codes, umasks, msrs, value = p["extra"]
            extra = extras.get((value, lists.get((codes[1:], umasks[1:], msrs))))
            row = (pool.add(p["name"]), p["flags"], extra, p["codes"][0],
                   p["umasks"][0], p["umask_ext"], p["cmask"], ctrsets.get(p["ctr"]),
                   savs.get(p["sav"]), errs.get(p["errata"]), p["pebs"])
            table_rows.append(rows.get(row))
        tables.append((pool.add(m.group(1) + "/" + m.group(2)), pool.add(m.group(1)),
                       pool.add(version), fields, first, len(events)))
    for e in errs.items:
        pool.add(e)

    o = []
    o.append("/* Generated by tools/perfmon-gen.py from data/perfmon (perfmon commit")
    o.append(" * %s): do not edit. */" % commit)
    o.append('#include "pmu/perfmon_data.h"')
    o.append("")
    o.append('const char perfmon_commit[] = "%s";' % commit)
    o.append("")
    o.append("const char perfmon_pool[] =")
    o += ["\t" + c_str(s) for s in pool.parts]
    o.append("\t;")
    o.append("")
    o.append("const struct perfmon_event perfmon_rows[] = {")
    for r in rows.items:
        o.append("\t{ %d, 0x%x, %d, 0x%02x, 0x%02x, 0x%02x, %d, %d, %d, %d, 0x%02x }," % r)
    o.append("};")
    o.append("")
    o.append("const uint16_t perfmon_table_rows[] = {")
    for i in range(0, len(table_rows), 16):
        o.append("\t" + " ".join("%d," % x for x in table_rows[i:i + 16]))
    o.append("};")
    o.append("")
    o.append("const struct perfmon_ctrset perfmon_ctrsets[] = {")
    for cs in ctrsets.items:
        o.append("\t{ { " + ", ".join("{ 0x%x, 0x%x }" % c for c in cs) + " } },")
    o.append("};")
    o.append("")
    o.append("const struct perfmon_extra perfmon_extras[] = {")
    for value, li in extras.items:
        o.append("\t{ 0x%x, 0x%x, %d }," % (value & 0xffffffff, value >> 32, li))
    o.append("};")
    o.append("")
    o.append("const struct perfmon_lists perfmon_lists[] = {")
    for codes, umasks, msrs in lists.items:
        o.append("\t{ { %s }, %d, %d, { %s }, %d, { %s } }," % (
            ", ".join("0x%x" % x for x in msrs) or "0", len(msrs), len(codes),
            ", ".join("0x%02x" % x for x in codes) or "0", len(umasks),
            ", ".join("0x%02x" % x for x in umasks) or "0"))
    o.append("};")
    o.append("")
    o.append("const uint32_t perfmon_savs[] = {")
    o += ["\t%d," % v for v in savs.items]
    o.append("};")
    o.append("")
    o.append("const uint32_t perfmon_errata[] = {")
    o += ["\t%d, /* %s */" % (pool.off[e], e or "none") for e in errs.items]
    o.append("};")
    o.append("")
    o.append("const struct perfmon_table perfmon_tables[] = {")
    for t in tables:
        o.append("\t{ %d, %d, %d, 0x%x, %d, %d }," % t)
    o.append("};")
    o.append("const unsigned int perfmon_table_count = %d;" % len(tables))
    o.append("")
    o.append("const struct perfmon_map perfmon_maps[] = {")
    for r in maps:
        o.append("\t{ %d, 0x%02x, 0x%02x, 0x%02x, 0x%06x, %d }, /* %s */" % (r[:6] + (r[6],)))
    o.append("};")
    o.append("const unsigned int perfmon_n_maps = %d;" % len(maps))
    o.append("")
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(o))
    os.replace(tmp, out)
    print("%s: %d files, %d events (%d distinct rows), %d counter sets, %d MSR values, "
          "%d lists, %d bytes of strings" % (PROG, len(tables), len(table_rows),
                                             len(rows.items), len(ctrsets.items),
                                             len(extras.items), len(lists.items), pool.size),
          file=sys.stderr)


if __name__ == "__main__":
    main()
