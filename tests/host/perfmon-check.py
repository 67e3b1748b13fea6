#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfmon-check - reads data/perfmon on its own and compares every event and
every mapfile row with what build/host/perfmon-dump prints through the C API.

    perfmon-check.py events DATA_DIR TABLES_FILE DUMP_FILE
    perfmon-check.py map DATA_DIR    (prints "QUERY<TAB>EXPECTED" lines)

DATA_DIR is data/perfmon or a perfmon checkout (../shared/perfmon): the C
tables must say what either says, so neither the importer nor the generator
can hide a mistake.
    perfmon-check.py map-compare QUERIES_FILE ANSWERS_FILE

Written apart from tools/perfmon-gen.py on purpose (it imports nothing of
it): a field the generator misreads shows up here as a mismatch.  The
reading rules are the ones docs/PERFMON.md states.  Prints PASS:/FAIL:
lines; a FAIL names the table, the event, the field, both values.
"""
import argparse
import csv
import json
import os
import sys

PRESENT_ORDER = ["UMaskExt", "CounterHTOff", "PEBScounters", "PDISTCounter", "PDIR_COUNTER",
                 "PEBS", "Precise", "CollectPEBSRecord", "Data_LA", "L1_Hit_Indication",
                 "PRECISE_STORE", "TakenAlone", "AnyThread", "Equal", "Errata", "Deprecated",
                 "Offcore", "Offmodule", "CounterType", "ProgrammingRestriction"]

LISTS = [("Counter", "counter"), ("CounterHTOff", "counter_ht_off"),
         ("PEBScounters", "pebs_counters"), ("PDISTCounter", "pdist_counter"),
         ("PDIR_COUNTER", "pdir_counter")]

FLAGS = [("Invert", "inv"), ("EdgeDetect", "edge"), ("AnyThread", "any_thread"),
         ("Equal", "equal"), ("Data_LA", "data_la"), ("L1_Hit_Indication", "l1_hit"),
         ("PRECISE_STORE", "precise_store"), ("TakenAlone", "taken_alone"),
         ("Deprecated", "deprecated"), ("Offcore", "offcore"), ("Offmodule", "offmodule")]


def counter_masks(field, text):
    """A counter list as (gp, fixed) bitmasks."""
    if text is None:
        return 0, 0
    if field == "PDISTCounter" and text == "NA":
        return 0, 0
    if field == "PDIR_COUNTER" and text == "na":
        return 0, 0
    prefix = "Fixed counter "
    if field in ("Counter", "CounterHTOff") and text.startswith(prefix):
        return 0, 1 << int(text[len(prefix):])
    gp = fixed = 0
    for item in text.split(","):
        n = int(item)  # ValueError on a spelling this check does not know
        if n >= 32:
            if field in ("Counter", "CounterHTOff"):
                raise ValueError("counter %d in %s" % (n, field))
            fixed |= 1 << (n - 32)
        else:
            gp |= 1 << n
    return gp, fixed


def hex_items(text):
    return [int(x, 16) for x in text.replace(" ", "").split(",")]


def expected(ev):
    """What perfmon-dump should print for one event (a dict of its fields)."""
    e = {"name": ev["EventName"]}
    e["codes"] = ",".join("0x%x" % v for v in hex_items(ev["EventCode"]))
    e["umasks"] = ",".join("0x%x" % v for v in hex_items(ev["UMask"]))
    e["umask_ext"] = "0x%x" % int(ev.get("UMaskExt", "0x0"), 16)
    e["cmask"] = str(int(ev["CounterMask"]))
    for field, key in FLAGS:
        e[key] = str(int(ev.get(field, "0")))
    for field, key in LISTS:
        gp, fx = counter_masks(field, ev.get(field))
        e[key] = "gp:0x%x,fixed:0x%x" % (gp, fx)
    e["pebs"] = ev.get("PEBS", "-1")
    e["precise"] = ev.get("Precise", "-1")
    e["collect_pebs"] = ev.get("CollectPEBSRecord", "-1")
    e["counter_type"] = ev.get("CounterType", "PGMABLE")
    e["restriction"] = ev.get("ProgrammingRestriction", "None")
    msrs = [v for v in hex_items(ev["MSRIndex"]) if v]
    e["msr_index"] = ",".join("0x%x" % v for v in msrs)
    e["msr_value"] = "0x%x" % int(ev["MSRValue"].strip(), 16)
    e["sample_after"] = str(int(ev["SampleAfterValue"]))
    err = ev.get("Errata", "null")
    e["errata"] = "" if err in ("null", "0") else err
    return e


def load_files(data):
    with open(os.path.join(data, "mapfile.csv"), newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["EventType"] in ("core", "hybridcore")]
    files = []
    for r in rows:
        name = r["Filename"].replace("/events/", "/").lstrip("/")
        if (name, r["Filename"]) not in files:
            files.append((name, r["Filename"]))
    return rows, files


def read_table(data, rel):
    with open(os.path.join(data, rel.lstrip("/")), encoding="utf-8") as f:
        doc = json.load(f)
    if "Fields" in doc:  # data/perfmon: one list of values per event
        evs = [{k: v for k, v in zip(doc["Fields"], row) if v is not None}
               for row in doc["Events"]]
    else:  # a perfmon checkout: one object per event
        evs = doc["Events"]
    return doc["Header"]["Version"], evs


def check_events(data, tables_path, dump_path):
    _, files = load_files(data)
    with open(tables_path, encoding="utf-8") as f:
        tables = [ln.rstrip("\n").split("\t") for ln in f if ln.strip()]
    dump = {}
    with open(dump_path, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            dump.setdefault(cols[0], []).append(
                (int(cols[1]), dict(c.split("=", 1) for c in cols[2:])))
    fails = 0
    names = [t[0] for t in tables]
    if names != [n for n, _ in files]:
        print("FAIL: perfmon tables: the C tables are %s, mapfile.csv names %s"
              % (names, [n for n, _ in files]))
        return 1
    for (name, rel), trow in zip(files, tables):
        version, evs = read_table(data, rel)
        meta = dict(c.split("=", 1) for c in trow[1:])
        present = [k for k in PRESENT_ORDER if any(k in ev for ev in evs)]
        want_meta = {"platform": rel.split("/")[1], "version": version,
                     "events": str(len(evs)), "fields": ",".join(present)}
        bad = ["%s: C '%s', JSON '%s'" % (k, meta.get(k), v)
               for k, v in want_meta.items() if meta.get(k) != v]
        got = dump.get(name, [])
        if [i for i, _ in got] != list(range(len(evs))):
            bad.append("event indices %s.. do not run 0..%d" % ([i for i, _ in got][:3],
                                                                len(evs) - 1))
        for (i, d), ev in zip(got, evs):
            try:
                want = expected(ev)
            except (ValueError, KeyError) as ex:
                bad.append("event %d %s: this check cannot read it: %s"
                           % (i, ev.get("EventName"), ex))
                continue
            if set(d) != set(want):
                bad.append("event %d %s: keys %s, expected %s"
                           % (i, want["name"], sorted(d), sorted(want)))
                continue
            for k in want:
                if d[k] != want[k]:
                    bad.append("event %d %s: %s is '%s' through the C API, '%s' in the "
                               "JSON" % (i, want["name"], k, d[k], want[k]))
        if bad:
            fails += 1
            print("FAIL: perfmon round trip %s: %d mismatches, first: %s"
                  % (name, len(bad), "; ".join(bad[:3])))
        else:
            print("PASS: perfmon round trip %s: %d events, %d values each"
                  % (name, len(evs), len(expected(evs[0])) if evs else 0))
    return fails


def expand(pat):
    """'[01234]' / '[0-4]' / 'A5' -> the hex strings it stands for."""
    out = [""]
    while pat:
        if pat[0] == "[":
            body, pat = pat[1:pat.index("]")], pat[pat.index("]") + 1:]
            chars = []
            i = 0
            while i < len(body):
                if i + 2 < len(body) and body[i + 1] == "-":
                    chars += ["%X" % v for v in range(int(body[i], 16), int(body[i + 2], 16) + 1)]
                    i += 3
                else:
                    chars.append(body[i])
                    i += 1
        else:
            chars, pat = [pat[0]], pat[1:]
        out = [o + c for o in out for c in chars]
    return out


def map_queries(data):
    """(query, expected) pairs: every mapfile row, then CPUs it must not match."""
    rows, _ = load_files(data)
    q = []
    by_model = {}
    for r in rows:
        parts = r["Family-model"].split("-")
        family = int(parts[1])  # decimal in mapfile.csv
        models = [int(m, 16) for m in expand(parts[2])]
        steps = [int(s, 16) for s in expand(parts[3])] if len(parts) > 3 else [0, 7, 15]
        ctype = int(r["Core Type"], 16) if r["Core Type"] else 0
        native = int(r["Native Model ID"], 16) if r["Native Model ID"] else 0
        name = r["Filename"].replace("/events/", "/").lstrip("/")
        for m in models:
            by_model.setdefault((family, m), []).append((ctype, native, name))
            for s in steps:
                q.append(("%d 0x%x %d 0x%x 0x%x" % (family, m, s, ctype, native), name))
                if not ctype:
                    # A row without a core type fits whatever leaf 1AH says.
                    q.append(("%d 0x%x %d 0x20 0x1" % (family, m, s), name))
    for (family, m), kinds in by_model.items():
        if all(c for c, _, _ in kinds):
            # Hybrid only: no core type, a core type not listed, or another
            # native model ID finds nothing.
            q.append(("%d 0x%x 0 0 0" % (family, m), "none"))
            q.append(("%d 0x%x 0 0x30 0x%x" % (family, m, kinds[0][1]), "none"))
            q.append(("%d 0x%x 0 0x%x 0x7f" % (family, m, kinds[0][0]), "none"))
    # Not in the map: a model no row names, Diamond Rapids (family 0x13,
    # not in this perfmon snapshot), family 0x12 model 2, family 15.
    for fam, m in ((6, 0x01), (6, 0xff), (19, 0x01), (18, 0x02), (15, 0x01)):
        if (fam, m) not in by_model:
            q.append(("%d 0x%x 0 0 0" % (fam, m), "none"))
    return q


def map_compare(queries, answers):
    with open(queries, encoding="utf-8") as f:
        pairs = [ln.rstrip("\n").split("\t") for ln in f]
    with open(answers, encoding="utf-8") as f:
        answers = [ln.rstrip("\n") for ln in f]
    bad = ["'%s' -> %s, expected %s" % (q, a, w)
           for (q, w), a in zip(pairs, answers) if a != w]
    if len(answers) != len(pairs):
        bad.append("%d answers for %d queries" % (len(answers), len(pairs)))
    n_none = sum(1 for _, w in pairs if w == "none")
    if bad:
        print("FAIL: perfmon mapfile: %d of %d CPUs wrong, first: %s"
              % (len(bad), len(pairs), "; ".join(bad[:3])))
        sys.exit(1)
    print("PASS: perfmon mapfile: %d CPUs from every row resolve to their file, %d "
          "that no row fits resolve to none" % (len(pairs) - n_none, n_none))


def main():
    ap = argparse.ArgumentParser(prog="perfmon-check.py",
                                 description=__doc__.strip().splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("events", help="compare every event with perfmon-dump's")
    for name in ("DATA_DIR", "TABLES_FILE", "DUMP_FILE"):
        ev.add_argument(name.lower(), metavar=name)
    mp = sub.add_parser("map", help='print "QUERY<TAB>EXPECTED" lines')
    mp.add_argument("data_dir", metavar="DATA_DIR")
    mc = sub.add_parser("map-compare", help="check perfmon-dump's answers to the queries")
    mc.add_argument("queries", metavar="QUERIES_FILE")
    mc.add_argument("answers", metavar="ANSWERS_FILE")
    a = ap.parse_args()
    if a.command == "events":
        sys.exit(1 if check_events(a.data_dir, a.tables_file, a.dump_file) else 0)
    if a.command == "map":
        for query, want in map_queries(a.data_dir):
            print("%s\t%s" % (query, want))
        return
    map_compare(a.queries, a.answers)


if __name__ == "__main__":
    main()
