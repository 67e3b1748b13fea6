# SPDX-License-Identifier: MIT
"""results_file - reads a pebsprobe results.json (version 1, 2 or 3) into
one model the host tools share (pebs-results, pebs-report, pebs-matrix).

Version 3 is what the app writes (docs/RESULTS.md), versions 1 and 2 what
it wrote before.  Version 2 keeps every version-1 key and adds the run
identity, the exit status, a list of every verdict and the CPUs tested;
version 3 keeps every version-2 key and adds each run's "properties"
(docs/RESULTS.md, "Versions").  A key
absent from a file means "not recorded", never an error; a key present with
the wrong type is an error that names the key.
"""

import json
import os
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

VERDICTS = ("PASS", "FAIL", "SKIP")
SUPPORTED_VERSIONS = (1, 2, 3)
PROPERTY_STATES = ("checked", "failed", "n/a", "unchecked")


class ResultsError(Exception):
    """Bad input: the message is one line naming what was wrong and what is accepted."""


@dataclass(eq=False)
class Source:
    """One data-source group of a sampling run (decode/summary.h groups)."""

    name: str
    count: int
    share_permille: int
    with_latency: int
    median: Optional[int]  # cycles, None when not recorded
    approx: bool  # the median came from a power-of-two bucket
    histogram: list  # [(lowest latency of the bin, records)], ascending


@dataclass(eq=False)
class SamplingRun:
    """kernels[].runs[]: one sampling (load, store, ...) of a kernel, on one CPU in version 2."""

    test: str
    kernel: str
    sampling: str
    verdict: str
    why: str
    cpu: Optional[int]
    core_type: Optional[str]
    records: int
    sources: list
    properties: Optional[list] = None  # [(property, state)] (version 3); None when not recorded
    ip_exact: Optional[int] = None  # per mille of the records with an IP exactly at a sampled
    # instruction (version 3, docs/KERNELS.md "Precision"); None when not recorded
    skid: Optional[dict] = None  # {"0": N, "1": N, "2-3": N, "4+": N, "outside": N}
    ip_point: Optional[str] = None  # "at" the sampled instruction or "after" it (trap-like)
    with_ip: Optional[int] = None  # records with an IP, what ip_exact is a share of


@dataclass(eq=False)
class Calibration:
    """A chase kernel's "latency_calibration" (version 3): the PEBS latency median
    against the cycles per load counted without PEBS."""

    state: str  # checked, failed, n/a, unchecked
    verdict: Optional[str]  # None when not judged (n/a)
    why: str
    cycles_per_load_x100: Optional[int]  # None when not measured
    pebs_median: Optional[int]
    ratio_x100: Optional[int]


@dataclass(eq=False)
class Kernel:
    name: str
    what: str
    error: str
    runs: list
    calibration: Optional[Calibration] = None


@dataclass(eq=False)
class Verdict:
    """One PASS/FAIL/SKIP line of the run."""

    name: str
    verdict: str
    why: str
    kernel: Optional[str] = None
    sampling: Optional[str] = None
    cpu: Optional[int] = None
    apic_id: Optional[int] = None
    core_type: Optional[str] = None

    def key(self):
        """What identifies a verdict across runs: its name and, where recorded, its
        CPU.  NAME@cpuN of N is NAME (docs/RESULTS.md VERDICT): a run of one CPU
        names its verdicts NAME, a run of several NAME@cpuN, for the same test."""
        return (self.test_name(), self.cpu)

    def test_name(self):
        """The name without the @cpuN of its own CPU."""
        suffix = "@cpu%d" % self.cpu if self.cpu is not None else None
        if suffix and self.name.endswith(suffix):
            return self.name[:-len(suffix)]
        return self.name

    def label(self):
        """The name with the CPU that ran it, where the file records one."""
        if self.cpu is None:
            return self.name
        where = "cpu %d" % self.cpu
        if self.core_type and self.core_type != "none":
            where += " " + self.core_type
        return "%s [%s]" % (self.name, where)


@dataclass(eq=False)
class Results:
    """A whole results file, normalised."""

    path: Optional[str] = None
    version: Optional[int] = None
    # [(label, value)] in display order, recorded keys only
    identity: list = field(default_factory=list)
    cpu_label: str = "unknown"  # short name of the CPU for test names
    simulated: Optional[bool] = None
    cpus: Optional[int] = None
    kernels: list = field(default_factory=list)
    verdicts: list = field(default_factory=list)
    cpus_tested: Optional[list] = None  # list of dicts (version 2), None when not recorded
    summary: Optional[dict] = None  # {"tests", "failures", "skipped"} when recorded
    exit_status: Optional[int] = None
    exit_meaning: Optional[str] = None
    # [(name, why)]: the run's environment ERROR lines (version 2)
    errors: list = field(default_factory=list)
    # what the reader had to decide, for the user to see
    notes: list = field(default_factory=list)

    def counts(self):
        c = Counter(dict.fromkeys(VERDICTS, 0))
        c.update(v.verdict for v in self.verdicts)
        return c

    def run_of(self, verdict):
        """The sampling run that carries a verdict's records, or None.  A verdict
        of one of several CPUs is named NAME@cpuN (docs/RESULTS.md VERDICT)
        where its run's "test" is NAME and its "cpu" N."""
        for k in self.kernels:
            for r in k.runs:
                if verdict.cpu is not None and r.cpu is not None and r.cpu != verdict.cpu:
                    continue
                if verdict.name in (r.test, "%s@cpu%d" % (r.test, r.cpu if r.cpu is not None
                                                          else -1)):
                    return r
        return None


def read_image(image):
    """The bytes of EFI/BOOT/results.json in a FAT image (mtools' IMAGE, or
    IMAGE@@OFFSET for a partition of a disk image), or None when it has none."""
    p = subprocess.run(["mtype", "-i", image, "::/EFI/BOOT/results.json"], capture_output=True)
    return p.stdout if p.returncode == 0 and p.stdout else None


def _type_name(t):
    return {int: "an integer", str: "a string", bool: "true or false", list: "an array",
            dict: "an object"}[t]


class _Reader:
    def __init__(self, path):
        self.path = path

    def fail(self, where, what):
        raise ResultsError("%s: %s: %s" % (self.path, where, what))

    def get(self, obj, key, t, where, default=None):
        """obj[key] checked against type t; default when absent (not recorded)."""
        if key not in obj or obj[key] is None:
            return default
        v = obj[key]
        ok = isinstance(v, t) and not (t is int and isinstance(v, bool))
        if not ok:
            self.fail("%s%s" % (where, key),
                      "expected %s, got %s" % (_type_name(t), json.dumps(v)[:40]))
        return v

    def verdict(self, obj, key, where):
        v = self.get(obj, key, str, where)
        if v is not None and v not in VERDICTS:
            self.fail(where + key,
                      "expected one of %s, got %s" % (", ".join(VERDICTS), json.dumps(v)[:40]))
        return v


def _read_json(path):
    if path == "-":
        raise ResultsError("-: reading results from stdin is not supported "
                           "(accepted: the path of a results.json file)")
    if os.path.isdir(path):
        raise ResultsError("%s: is a directory (accepted: a results.json file)" % path)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ResultsError("%s: cannot read: %s (accepted: a results.json file)" %
                           (path, e.strerror))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ResultsError("%s: not UTF-8 text at byte %d (accepted: a pebsprobe "
                           "results.json, plain ASCII JSON)" % (path, e.start))
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        what = "empty file" if not text.strip() else "%s at line %d column %d" % (
            e.msg, e.lineno, e.colno)
        raise ResultsError("%s: not JSON (%s; accepted: a pebsprobe results.json)" %
                           (path, what))


def _sources(rd, run, where):
    out = []
    for i, s in enumerate(rd.get(run, "sources", list, where, [])):
        w = "%ssources[%d]." % (where, i)
        if not isinstance(s, dict):
            rd.fail(w[:-1], "expected an object")
        hist = []
        for j, b in enumerate(rd.get(s, "histogram", list, w, [])):
            if (not isinstance(b, list) or len(b) != 2 or
                    not all(isinstance(x, int) and not isinstance(x, bool) for x in b)):
                rd.fail("%shistogram[%d]" % (w, j),
                        "expected [lowest latency, records], two integers")
            hist.append((b[0], b[1]))
        hist.sort()
        out.append(Source(rd.get(s, "source", str, w, "?"), rd.get(s, "count", int, w, 0),
                          rd.get(s, "share_permille", int, w),
                          rd.get(s, "with_latency", int, w), rd.get(s, "lat_median", int, w),
                          rd.get(s, "lat_approx", bool, w, False), hist))
    return out


def _properties(rd, run, where):
    """A run's "properties" (version 3): [(property, state)], None when absent."""
    props = rd.get(run, "properties", list, where)
    if props is None:
        return None
    out = []
    for i, p in enumerate(props):
        w = "%sproperties[%d]." % (where, i)
        if not isinstance(p, dict):
            rd.fail(w[:-1], "expected an object")
        state = rd.get(p, "state", str, w)
        if state not in PROPERTY_STATES:
            rd.fail(w + "state", "expected one of %s, got %s" %
                    (", ".join(PROPERTY_STATES), json.dumps(state)[:40]))
        out.append((rd.get(p, "property", str, w, "?"), state))
    return out


SKID_BINS = ("0", "1", "2-3", "4+", "outside")
IP_POINTS = ("at", "after")


def _skid(rd, run, where):
    """A run's "skid" histogram (version 3): {bin: records}, None when absent."""
    skid = rd.get(run, "skid", dict, where)
    for b in skid or {}:
        if b not in SKID_BINS:
            rd.fail(where + "skid", "expected the bins %s, got %s" %
                    (", ".join(SKID_BINS), json.dumps(b)[:40]))
        rd.get(skid, b, int, where + "skid.")
    return skid


def _ip_point(rd, run, where):
    point = rd.get(run, "ip_point", str, where)
    if point is not None and point not in IP_POINTS:
        rd.fail(where + "ip_point", "expected one of %s, got %s" %
                (", ".join(IP_POINTS), json.dumps(point)[:40]))
    return point


def _kernels(rd, doc):
    kernels = []
    for i, k in enumerate(rd.get(doc, "kernels", list, "", [])):
        where = "kernels[%d]." % i
        if not isinstance(k, dict):
            rd.fail(where[:-1], "expected an object")
        name = rd.get(k, "kernel", str, where)
        if name is None:
            rd.fail(where + "kernel", "missing (every kernel has a name)")
        runs = []
        for j, r in enumerate(rd.get(k, "runs", list, where, [])):
            w = "%sruns[%d]." % (where, j)
            if not isinstance(r, dict):
                rd.fail(w[:-1], "expected an object")
            test = rd.get(r, "test", str, w)
            verdict = rd.verdict(r, "verdict", w)
            if test is None or verdict is None:
                rd.fail(w[:-1], "a run needs \"test\" and \"verdict\"")
            runs.append(SamplingRun(test, name, rd.get(r, "sampling", str, w),
                        verdict, rd.get(r, "why", str, w, ""),
                        rd.get(r, "cpu", int, w), rd.get(r, "core_type", str, w),
                        rd.get(r, "records", int, w), _sources(rd, r, w),
                        _properties(rd, r, w), rd.get(r, "ip_exact", int, w),
                        _skid(rd, r, w), _ip_point(rd, r, w), rd.get(r, "with_ip", int, w)))
        cal = rd.get(k, "latency_calibration", dict, where)
        if cal is not None:
            w = where + "latency_calibration."
            state = rd.get(cal, "state", str, w)
            if state not in PROPERTY_STATES:
                rd.fail(w + "state", "expected one of %s, got %s" %
                        (", ".join(PROPERTY_STATES), json.dumps(state)[:40]))
            cal = Calibration(state, rd.verdict(cal, "verdict", w), rd.get(cal, "why", str, w, ""),
                              rd.get(cal, "cycles_per_load_x100", int, w),
                              rd.get(cal, "pebs_median", int, w), rd.get(cal, "ratio_x100", int, w))
        kernels.append(Kernel(name, rd.get(k, "what", str, where, ""),
                              rd.get(k, "error", str, where), runs, cal))
        offcore = rd.get(k, "offcore", dict, where)
        if offcore is not None:
            rd.verdict(offcore, "verdict", where + "offcore.")
            rd.get(offcore, "why", str, where + "offcore.")
    return kernels


def _v1_verdicts(rd, doc, res):
    """Version 1 has no verdict list: the runs' verdicts, then the offcore ones.

    A version-1 file also marks the offcore object of the kernel that is
    only measured for contrast (not judged, no console line) SKIP when the
    measurement is unsupported, so an offcore SKIP is a verdict only where
    SUMMARY's skipped count needs it, taking the last ones in run order
    (the judged kernel runs after the one it is contrasted with).
    """
    out = []
    offcore_skips = []
    for k, kd in zip(res.kernels, doc.get("kernels") or []):  # null: not recorded
        for r in k.runs:
            out.append(Verdict(r.test, r.verdict, r.why, k.name, r.sampling, r.cpu, None,
                       r.core_type))
        oc = kd.get("offcore")
        if isinstance(oc, dict) and oc.get("verdict"):
            v = Verdict(k.name + "/offcore", oc["verdict"], oc.get("why", ""), k.name,
                        "offcore")
            out.append(v)
            if v.verdict == "SKIP":
                offcore_skips.append(v)
    if res.summary is not None and offcore_skips:
        run_skips = sum(1 for v in out if v.verdict == "SKIP") - len(offcore_skips)
        need = max(0, min(len(offcore_skips), res.summary["skipped"] - run_skips))
        dropped = offcore_skips[:len(offcore_skips) - need]
        if dropped:
            out = [v for v in out if v not in dropped]
            res.notes.append("version 1 file: offcore SKIP of %s left out: SUMMARY counts "
                             "%d skipped, so it is the contrast measurement, not a verdict" %
                             (", ".join(v.kernel for v in dropped), res.summary["skipped"]))
    return out


def _identity(rd, doc, res):
    ident = []

    def add(label, value):
        if value is not None and value != "":
            ident.append((label, value))

    run = rd.get(doc, "run", dict, "")
    add("pebsprobe", rd.get(doc, "pebsprobe", str, ""))
    cpu = rd.get(doc, "cpu", str, "")
    fam, mod = rd.get(doc, "family", int, ""), rd.get(doc, "model", int, "")
    fm = "%02X_%02X" % (fam, mod) if fam is not None and mod is not None else None
    add("cpu", cpu)
    add("family_model", fm)
    add("uarch", rd.get(doc, "uarch", str, ""))
    res.simulated = rd.get(doc, "simulated", bool, "")
    add("simulated", None if res.simulated is None else ("yes" if res.simulated else "no"))
    res.cpus = rd.get(doc, "cpus", int, "")
    add("cpus", res.cpus)
    tsc = rd.get(doc, "tsc_hz", int, "")
    add("tsc_hz", tsc)
    sim_model = None
    if run is not None:
        add("run id", rd.get(run, "id", str, "run."))
        add("time", rd.get(run, "time", str, "run."))
        add("options", rd.get(run, "options", str, "run."))
        fw = rd.get(run, "firmware", dict, "run.")
        if fw is not None:
            parts = [rd.get(fw, k, str, "run.firmware.") for k in ("vendor", "revision")]
            uefi = rd.get(fw, "uefi", str, "run.firmware.")
            text = " ".join(p for p in parts if p)
            add("firmware", text + (", UEFI " + uefi if uefi else ""))
        sm = rd.get(run, "smbios", dict, "run.")
        if sm is not None:
            for k in ("manufacturer", "product", "serial"):
                add("smbios " + k, rd.get(sm, k, str, "run.smbios."))
        c = rd.get(run, "cpu", dict, "run.")
        if c is not None:
            rf, rm = rd.get(c, "family", int, "run.cpu."), rd.get(c, "model", int, "run.cpu.")
            if fm is None and rf is not None and rm is not None:
                fm = "%02X_%02X" % (rf, rm)
                add("family_model", fm)
            add("cpu signature", rd.get(c, "signature", str, "run.cpu."))
            add("microcode", rd.get(c, "microcode", str, "run.cpu."))
            if cpu is None:
                add("cpu", rd.get(c, "brand", str, "run.cpu."))
        if res.simulated is None:
            res.simulated = rd.get(run, "simulated", bool, "run.")
        sim_model = rd.get(run, "sim_model", str, "run.")
        add("sim model", sim_model)
        pv = rd.get(run, "pebsprobe", str, "run.")
        if pv and not any(lbl == "pebsprobe" for lbl, _ in ident):
            ident.insert(0, ("pebsprobe", pv))
    res.identity = ident
    # The short CPU name in test names: the simulator's model, else the
    # family_model signature, else the uarch row name.
    res.cpu_label = sim_model or fm or rd.get(doc, "uarch", str, "") or "unknown"


def _v2_verdicts(rd, doc):
    out = []
    for i, v in enumerate(doc["verdicts"]):
        w = "verdicts[%d]." % i
        if not isinstance(v, dict):
            rd.fail(w[:-1], "expected an object")
        name = rd.get(v, "name", str, w)
        verdict = rd.verdict(v, "verdict", w)
        if name is None or verdict is None:
            rd.fail(w[:-1], "a verdict needs \"name\" and \"verdict\"")
        out.append(Verdict(name, verdict, rd.get(v, "why", str, w, ""),
                   rd.get(v, "kernel", str, w), rd.get(v, "sampling", str, w),
                   rd.get(v, "cpu", int, w), rd.get(v, "apic_id", int, w),
                   rd.get(v, "core_type", str, w)))
    return out


def load(path):
    """Reads and checks one results file; raises ResultsError on bad input."""
    doc = _read_json(path)
    accepted = "accepted: a pebsprobe results.json, results_version %s" % " or ".join(
        str(v) for v in SUPPORTED_VERSIONS)
    if not isinstance(doc, dict):
        raise ResultsError("%s: not a results file: the top level is not an object (%s)" %
                           (path, accepted))
    if "results_version" not in doc:
        raise ResultsError("%s: not a results file: no \"results_version\" key (%s)" %
                           (path, accepted))
    version = doc["results_version"]
    if version not in SUPPORTED_VERSIONS or isinstance(version, bool):
        raise ResultsError("%s: results_version %s is not supported (%s)" %
                           (path, json.dumps(version)[:20], accepted))
    rd = _Reader(path)
    if version == 1 and "kernels" not in doc:
        raise ResultsError("%s: not a results file: version 1 without \"kernels\" (%s)" %
                           (path, accepted))
    res = Results()
    res.path = path
    res.version = version
    _identity(rd, doc, res)
    summary = rd.get(doc, "summary", dict, "")
    if summary is not None:
        res.summary = {k: rd.get(summary, k, int, "summary.", 0)
                       for k in ("tests", "failures", "skipped")}
    res.kernels = _kernels(rd, doc)
    res.exit_status = rd.get(doc, "exit_status", int, "")
    res.exit_meaning = rd.get(doc, "exit_meaning", str, "")
    if rd.get(doc, "verdicts", list, "") is not None:
        res.verdicts = _v2_verdicts(rd, doc)
    else:
        res.verdicts = _v1_verdicts(rd, doc, res)
    for i, e in enumerate(rd.get(doc, "errors", list, "", [])):
        w = "errors[%d]." % i
        if not isinstance(e, dict):
            rd.fail(w[:-1], "expected an object")
        res.errors.append((rd.get(e, "name", str, w, "?"), rd.get(e, "why", str, w, "")))
    ct = rd.get(doc, "cpus_tested", list, "")
    if ct is not None:
        res.cpus_tested = []
        for i, c in enumerate(ct):
            w = "cpus_tested[%d]." % i
            if not isinstance(c, dict):
                rd.fail(w[:-1], "expected an object")
            res.cpus_tested.append({
                "cpu": rd.get(c, "cpu", int, w), "apic_id": rd.get(c, "apic_id", int, w),
                "core_type": rd.get(c, "core_type", str, w),
                "uarch": rd.get(c, "uarch", str, w),
                "passed": rd.get(c, "passed", int, w),
                "failed": rd.get(c, "failed", int, w),
                "skipped": rd.get(c, "skipped", int, w)})
    _reconcile(res)
    return res


def _reconcile(res):
    """Never let a run that failed read as passed: SUMMARY's failures that the
    file does not name become one FAIL verdict that says so."""
    if res.summary is None:
        return
    c = res.counts()
    missing = res.summary["failures"] - c["FAIL"]
    if missing > 0:
        res.verdicts.append(Verdict(
            "unrecorded-failures", "FAIL",
            "SUMMARY counts %d failures, the file names %d; the others are only on the "
            "console" % (res.summary["failures"], c["FAIL"])))
    total = len(res.verdicts)
    if res.summary["tests"] != total:
        res.notes.append("SUMMARY counts %d tests, the file names %d verdicts%s" %
                         (res.summary["tests"], total,
                          " (version 1 records only the kernels' verdicts)"
                          if res.version == 1 else ""))
