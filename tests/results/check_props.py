# SPDX-License-Identifier: MIT
"""check_props.py - a property test of the results readers (docs/FUZZING.md):
for every results.json document hypothesis makes, valid or broken,
pebs-results (table, TAP, JUnit, --baseline) and pebs-report either write
their output or exit 2 with ONE line naming the file, never a traceback.

The documents: the fixtures of tests/results/ and documents generated from
the schema (docs/RESULTS.md), version 1, 2, 3 or another, then maybe broken:
a key deleted, a value of the wrong type, a version changed, the text cut
short or made not UTF-8.  The tools run in this process, from the modules
their zipapps are built of (tools/results/), so one example costs
milliseconds; derandomized, with a fixed number of examples, so a run is
the same every time.

A deliberately broken reader (json.loads without its error handling, the
mistake this test is for) must make the property fail: the last case.
Prints PASS:/FAIL: lines; exit 1 when one failed."""

import contextlib
import inspect
import io
import json
import os
import sys
import tempfile
import traceback

# hypothesis keeps nothing between runs here (database=None); its folder goes to /tmp.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", tempfile.mkdtemp(prefix="hypothesis."))
from hypothesis import HealthCheck, Phase, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "results"))
sys.path.insert(0, os.path.join(HERE, ".."))

import caselines  # noqa: E402
from caselines import report  # noqa: E402
import pebs_report  # noqa: E402
import pebs_results  # noqa: E402
import results_file  # noqa: E402

TMP = tempfile.mkdtemp(prefix="check-props.")
FIXTURES = [os.path.join(HERE, f) for f in sorted(os.listdir(HERE)) if f.endswith(".json")]
# PROPS_EXAMPLES=N PROPS_RANDOM=1: a longer, randomized hunt by hand.
EXAMPLES = int(os.environ.get("PROPS_EXAMPLES", "300"))
RANDOM = os.environ.get("PROPS_RANDOM") == "1"


# --- documents ----------------------------------------------------------------
name = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_/.", min_size=1, max_size=12)
verdict = st.sampled_from(["PASS", "FAIL", "SKIP"])
small = st.integers(0, 1 << 16)
cpu = st.integers(0, 63)

source = st.fixed_dictionaries({
    "source": name, "count": small, "share_permille": st.integers(0, 1000),
    "with_latency": small, "lat_median": small, "lat_approx": st.booleans(),
    "histogram": st.lists(st.lists(small, min_size=2, max_size=2), max_size=4)})
prop_obj = st.fixed_dictionaries({"property": name, "state": st.sampled_from(
    ["checked", "failed", "n/a", "unchecked"])})
run = st.fixed_dictionaries(
    {"test": name, "verdict": verdict},
    optional={"sampling": name, "why": name, "cpu": cpu, "core_type": name,
              "records": small, "sources": st.lists(source, max_size=3),
              "properties": st.lists(prop_obj, max_size=3)})
kernel = st.fixed_dictionaries(
    {"kernel": name},
    optional={"what": name, "error": name, "runs": st.lists(run, max_size=3),
              "offcore": st.fixed_dictionaries({"verdict": verdict, "why": name})})
verdict_obj = st.fixed_dictionaries(
    {"name": name, "verdict": verdict},
    optional={"why": name, "kernel": name, "sampling": name, "cpu": cpu,
              "apic_id": small, "core_type": name})
identity = {"pebsprobe": name, "simulated": st.booleans(), "uarch": name, "cpu": name,
            "family": st.integers(0, 255), "model": st.integers(0, 255),
            "tsc_hz": st.integers(0, 1 << 40), "cpus": st.integers(1, 64)}
summary = st.fixed_dictionaries({"tests": small, "failures": small, "skipped": small})
run_info = st.fixed_dictionaries({}, optional={
    "id": name, "time": name, "options": name, "sim_model": name, "pebsprobe": name,
    "simulated": st.booleans(),
    "firmware": st.fixed_dictionaries({}, optional={"vendor": name, "revision": name,
                                                    "uefi": name}),
    "cpu": st.fixed_dictionaries({}, optional={"family": st.integers(0, 255),
                                               "model": st.integers(0, 255),
                                               "signature": name, "brand": name})})
cpu_tested = st.fixed_dictionaries({}, optional={
    "cpu": cpu, "apic_id": small, "core_type": name, "uarch": name, "passed": small,
    "failed": small, "skipped": small})

v1 = st.fixed_dictionaries({"results_version": st.just(1),
                            "kernels": st.lists(kernel, max_size=3)},
                           optional=dict(identity, summary=summary))
v2 = st.fixed_dictionaries(
    {"results_version": st.sampled_from([2, 3])},
    optional=dict(identity, run=run_info, summary=summary, exit_status=st.integers(0, 99),
                  exit_meaning=name, kernels=st.lists(kernel, max_size=3),
                  verdicts=st.lists(verdict_obj, max_size=4),
                  cpus_tested=st.lists(cpu_tested, max_size=2)))


def fixture(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


documents = st.one_of(st.sampled_from(FIXTURES).map(fixture), v1, v2)
json_value = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 64), 1 << 64) | st.floats() |
    st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=6)


def places(doc, at=()):
    """Every (container, key) of a document, the top level's keys included."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc)
    for k, v in items:
        yield (doc, k)
        if isinstance(v, (dict, list)):
            yield from places(v, at + (k,))


@st.composite
def files(draw):
    """The bytes of a results file: a document, maybe broken one way."""
    doc = draw(documents)
    how = draw(st.sampled_from(["as-is", "delete", "retype", "version", "truncate",
                                "not-utf8", "top-level"]))
    where = list(places(doc))
    if how == "delete" and where:
        c, k = draw(st.sampled_from(where))
        del c[k]
    elif how == "retype" and where:
        c, k = draw(st.sampled_from(where))
        c[k] = draw(json_value)
    elif how == "version":
        doc["results_version"] = draw(st.sampled_from([0, 4, -1, 1.0, 2.5, "2", True, None,
                                                       [2], 1 << 70]))
    elif how == "top-level":
        doc = draw(json_value)
    text = json.dumps(doc, indent=1).encode("utf-8")
    if how == "truncate":
        text = text[:draw(st.integers(0, len(text)))]
    elif how == "not-utf8":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + b"\xff\xfe" + text[at:]
    return text


# --- the property -------------------------------------------------------------
class Broken(AssertionError):
    pass


def call(tool, argv):
    """(exit status, stdout, stderr) of tool.run(argv) in this process."""
    out, err = io.StringIO(), io.StringIO()
    # pebs-results takes its streams as arguments (their defaults were bound at import).
    kw = {k: v for k, v in (("out", out), ("err", err))
          if k in inspect.signature(tool.run).parameters}
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = tool.run(argv, **kw)
        except SystemExit as e:  # argparse's way out
            rc = e.code
        except Exception:
            raise Broken("%s %s: traceback:\n%s" % (tool.PROG, " ".join(argv),
                                                    traceback.format_exc()))
    return rc, out.getvalue(), err.getvalue()


def judge(tool, argv, rc, out, err, written=None, ok=(0,)):
    """Output and exit 0 (or another of ok), or exit 2 and one line naming the tool."""
    lines = [ln for ln in err.splitlines() if not ln.startswith(tool.PROG + ": note: ")]
    what = "%s %s" % (tool.PROG, " ".join(argv))
    if rc == 2:
        if len(err.splitlines()) != 1 or not err.startswith(tool.PROG + ": "):
            raise Broken("%s: exit 2 with %r on stderr, want one line" % (what, err))
    elif rc in ok:
        if lines and rc == 0:
            raise Broken("%s: exit 0 with %r on stderr" % (what, err))
        if not out and not (written and os.path.getsize(written)):
            raise Broken("%s: exit %d and no output" % (what, rc))
    else:
        raise Broken("%s: exit %r (want %s or 2)" % (what, rc, ", ".join(map(str, ok))))


def check(data):
    path = os.path.join(TMP, "results.json")
    html = os.path.join(TMP, "report.html")
    with open(path, "wb") as f:
        f.write(data)
    for argv in ([path], ["--tap", path], ["--junit", "-", path]):
        judge(pebs_results, argv, *call(pebs_results, argv))
    argv = ["--baseline", FIXTURES[0], path]
    judge(pebs_results, argv, *call(pebs_results, argv), ok=(0, 1))
    if os.path.exists(html):
        os.remove(html)
    argv = [path, "-o", html]
    judge(pebs_report, argv, *call(pebs_report, argv), written=html)


# Documents that broke a reader once (docs/FUZZING.md): run first, every time.
REGRESSIONS = [
    # version 1 with "kernels": null (not recorded): _v1_verdicts iterated None
    b'{"results_version": 1, "kernels": null}',
]


def prop(examples, phases):
    test = given(files())(check)
    for data in REGRESSIONS:
        test = example(data)(test)
    return settings(max_examples=examples, derandomize=not RANDOM, database=None, deadline=None,
                    phases=phases, suppress_health_check=list(HealthCheck))(
                        test)


def main():
    try:
        prop(EXAMPLES, [Phase.explicit, Phase.generate, Phase.shrink])()
        report(True, "results-readers-property: %d documents (fixtures and generated, "
               "valid and broken): output, or exit 2 and one line" % EXAMPLES)
    except Broken as e:
        report(False, "results-readers-property", str(e))

    # The property must be able to fail: a reader that lets the JSON parser's
    # errors through, as a reader written without this test would.
    kept = results_file._read_json

    def naive(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)

    results_file._read_json = naive
    try:
        prop(EXAMPLES, [Phase.generate])()
        report(False, "results-property-can-fail",
               "a reader that lets json.load's errors through passed the property")
    except Broken as e:
        report(True, "results-property-can-fail: a broken reader is caught (%s)" %
               str(e).splitlines()[-1][:60])
    finally:
        results_file._read_json = kept
    return caselines.status()


if __name__ == "__main__":
    caselines.run(main, TMP, os.environ["HYPOTHESIS_STORAGE_DIRECTORY"])
