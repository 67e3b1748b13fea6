# SPDX-License-Identifier: MIT
"""lava_check.py BUILD - make lava-check: pebsprobe's LAVA jobs run through
lava-run (lava-dispatcher, no server) on this machine, and LAVA's results
compared with the results.json that the same boot wrote.

Jobs run:
  qemu-pass   lava/jobs/pebsprobe-qemu.yaml on lava/devices/qemu-ovmf.yaml,
              BUILD/usb.img as built (default options: every kernel passes);
  qemu-fail   the same job, the image's PEBSPROBE.CFG breaking the simulated
              CPU 0 (sim-fault=cpu0:no-records): FAIL cases, exit-status fail, the
              job still complete;
  qemu-usage  the image's PEBSPROBE.CFG with a bad model: exit status 2
              ends the job as a JobError (incomplete);
  qemu-hang   no pebsprobe on the stick: no banner, no exit line; the job
              times out incomplete with no test case;
  lab-pass    lava/jobs/pebsprobe-usb-lab.yaml (deploy to flasher, boot
              minimal) on the simulated lab machine lava/devices/sim-lab.yaml;
              its last action (pebsprobe-collect, lava/collect.sh) prints
              results.json and the log into the job log, read back
              (lava/collected.py) and compared with the stick's;
  qemu-verbose  the QEMU job, PEBSPROBE.CFG verbose=1: each of the two
              CPUs' verdicts (name@cpuN) is a case of its own.
In every job each case's name is LAVA's rewrite of its id (lava/lava_ids.py),
and no two ids share a case name.

For the QEMU jobs the booted image lives in LAVA's job directory, which
lava-run deletes at the end: a last "command" action (save-image, added
here to a copy of the job, with the user command added to a copy of the
device) copies it out first.  The lab job's "stick" is the simulated lab's
own file.  Prints PASS:/FAIL: lines; exit 1 when one failed."""

import collections
import os
import shutil
import socket
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "results"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import caselines  # noqa: E402
from caselines import report  # noqa: E402
from results_file import ResultsError, load, read_image  # noqa: E402
from lava_ids import collisions, lava_case  # noqa: E402
import collected  # noqa: E402

BUILD = caselines.build_dir(__doc__)
LAVA_TMP = "/var/lib/lava/dispatcher/tmp"
RESULT_OF = {"PASS": "pass", "FAIL": "fail", "SKIP": "skip"}
# A real FAIL: the simulated CPU 0 writes no PEBS records (sim-fault=, docs/OPTIONS.md).
# (A refused event is a bad option since exit codes have one meaning: exit 2.)
BROKEN_CPU = "pmu=sim model=skl kernels=chase-dram sim-fault=cpu0:no-records"


def yaml_mod():
    import yaml
    return yaml


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def image_with_config(src, dst, options):
    """A copy of the USB image whose PEBSPROBE.CFG holds options (the ESP
    starts at 1 MiB: tools/mkusb.sh)."""
    shutil.copyfile(src, dst)
    cfg = dst + ".cfg"
    with open(cfg, "w") as f:
        f.write("# written by lava/lava_check.py\n%s\n" % options)
    subprocess.run(["mcopy", "-o", "-i", dst + "@@1M", cfg, "::/EFI/BOOT/PEBSPROBE.CFG"],
                   check=True)


def read_results(img):
    raw = read_image(img + "@@1M")
    if not raw:
        return None
    path = img + ".results.json"
    with open(path, "wb") as f:
        f.write(raw)
    return load(path)


def log_records(log):
    """The records of a lava-run log, in order (one YAML mapping a line)."""
    yaml = yaml_mod()
    for line in open(log, errors="replace"):
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            rec = yaml.safe_load(line)
        except yaml.YAMLError:
            continue
        if isinstance(rec, dict):
            yield rec


def lava_run(work, name, job, device):
    """Runs lava-run; returns (exit status, [result dicts], [error messages], log path)."""
    yaml = yaml_mod()
    job_id = "pebsprobe-%d-%s" % (os.getpid(), name)
    jpath, dpath = os.path.join(work, name + ".job.yaml"), os.path.join(work, name + ".device.yaml")
    with open(jpath, "w") as f:
        yaml.safe_dump(job, f, sort_keys=False)
    with open(dpath, "w") as f:
        yaml.safe_dump(device, f, sort_keys=False)
    log = os.path.join(work, name + ".lava.log")
    with open(log, "w") as out:
        p = subprocess.run(["lava-run", "--job-id", job_id, "--output-dir",
                            os.path.join(work, name + ".out"), "--device", dpath, jpath],
                           stdout=out, stderr=subprocess.STDOUT, timeout=900)
    results, errors = [], []
    for rec in log_records(log):
        if rec.get("lvl") == "results" and isinstance(rec.get("msg"), dict):
            results.append(rec["msg"])
        elif rec.get("lvl") == "error":
            errors.append(str(rec.get("msg")))
    return p.returncode, results, errors, log


def lava_cases(results, suite):
    return [(r.get("extra", {}).get("test_case_id", r["case"]), r["result"])
            for r in results if r.get("definition") == suite]


def job_result(results):
    return next((r for r in results if r.get("definition") == "lava" and r.get("case") == "job"),
                None)


def exit_case(results):
    return next((r["result"] for r in results
                 if r.get("definition", "").endswith("_pebsprobe-exit") and
                 r.get("case") == "exit-status"), None)


def console_cases(verdicts):
    """results.json's verdicts as the serial console shows them: each CPU's
    "name@cpuN" summed up in one "name" line, FAIL if any CPU failed, else
    PASS if any passed, else SKIP (docs/OUTPUT.md "Where lines go")."""
    out, across = [], collections.OrderedDict()
    for v in verdicts:
        base, at, cpu = v.name.partition("@cpu")
        if at and cpu.isdigit():
            across.setdefault(base, set()).add(v.verdict)
        else:
            out.append((v.name, RESULT_OF[v.verdict]))
    for base, words in across.items():
        word = next(w for w in ("FAIL", "PASS", "SKIP") if w in words or w == "SKIP")
        out.append((base, RESULT_OF[word]))
    return out


def check_case_names(name, results, suite):
    """Each case of suite is named as LAVA's rule makes it of its id, and no two
    ids share a name (lava/lava_ids.py)."""
    rs = [r for r in results if r.get("definition") == suite]
    ids = [r.get("extra", {}).get("test_case_id") for r in rs]
    wrong = [(i, r["case"]) for i, r in zip(ids, rs) if i is None or r["case"] != lava_case(i)]
    shared = collisions(ids) if None not in ids else []
    report(bool(rs) and not wrong and not shared,
           "lava %s: %d cases, each named by LAVA's rule from its id, none shared" %
           (name, len(rs)), "renamed otherwise %s, shared %s" % (wrong[:3], shared[:3]))


def compare(name, results, res, want_exit, per_cpu=False):
    """LAVA's pebsprobe cases against results.json's verdicts, kernel by kernel;
    per_cpu: the console has each CPU's verdict (verbose=1), not one per test."""
    got = lava_cases(results, "pebsprobe")
    want = ([(v.name, RESULT_OF[v.verdict]) for v in res.verdicts] if per_cpu
            else console_cases(res.verdicts))
    check_case_names(name, results, "pebsprobe")
    got_c, want_c = collections.Counter(got), collections.Counter(want)
    for k in res.kernels:
        tests = [r.test for r in k.runs]
        wk = sorted(c for c in want if c[0].split("/")[0] == k.name)
        gk = sorted(c for c in got if c[0].split("/")[0] == k.name)
        report(bool(tests) and wk == gk and len(wk) >= len(tests),
               "lava %s: kernel %s: %s" % (name, k.name, ", ".join("%s %s" % c for c in gk)),
               "LAVA %s, results.json %s" % (gk, wk))
    report(got_c == want_c, "lava %s: LAVA's %d test cases are results.json's %d verdicts" %
           (name, len(got), len(want)),
           "only in LAVA %s, only in results.json %s" % (sorted((got_c - want_c).elements()),
                                                         sorted((want_c - got_c).elements())))
    ec = exit_case(results)
    report(ec == want_exit, "lava %s: exit-status case %s" % (name, want_exit), "got %s" % ec)


def qemu_job(image_url, save_to):
    yaml = yaml_mod()
    job = yaml.safe_load(open(os.path.join(HERE, "jobs", "pebsprobe-qemu.yaml")))
    job["actions"][0]["deploy"]["images"]["stick"]["url"] = image_url
    if save_to:
        job["actions"].append({"command": {"name": "save-image"}})
    return job


def qemu_device(job_id_name, save_to):
    yaml = yaml_mod()
    dev = yaml.safe_load(open(os.path.join(HERE, "devices", "qemu-ovmf.yaml")))
    job_dir = os.path.join(LAVA_TMP, "pebsprobe-%d-%s" % (os.getpid(), job_id_name))
    dev.setdefault("commands", {})["users"] = {"save-image": {
        "do": "%s %s stick %s" % (os.path.join(HERE, "sim-lab", "save-image.sh"), job_dir,
                                  save_to)}}
    return dev


def main():
    yaml_ok = True
    try:
        yaml_mod()
    except ImportError:
        yaml_ok = False
    if shutil.which("lava-run") is None or not yaml_ok:
        report(False, "lava-run", "lava-dispatcher is not installed (tools/deps.sh lava, as root)")
        return 1
    if os.geteuid() != 0:
        report(False, "lava-run", "needs root: lava-run writes its job directories under %s "
               "and runs the device's commands" % LAVA_TMP)
        return 1
    usb = os.path.join(BUILD, "usb.img")
    if not os.path.exists(usb):
        report(False, "lava-check", "%s missing (make usb)" % usb)
        return 1
    work = tempfile.mkdtemp(prefix="lava-check.")
    try:
        return run_all(work, os.path.abspath(usb))
    finally:
        subprocess.run([os.path.join(HERE, "sim-lab", "power.sh"), "off",
                        os.path.join(work, "lab")], capture_output=True)
        if caselines.failed:
            print("lava-check: logs kept in %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)


def qemu_booted(work, name, img):
    # LAVA's QEMU job NAME boots IMG and keeps the booted image: the exit
    # status, the job's results and errors, its log, the job's own result,
    # and the booted image's results.json (None where there is none).
    saved = img[:-len(".img")] + ".booted.img"
    rc, results, errors, log = lava_run(work, name, qemu_job("file://" + img, saved),
                                        qemu_device(name, saved))
    res = read_results(saved) if os.path.exists(saved) else None
    return rc, results, errors, log, job_result(results), res


def run_all(work, usb):
    # 1. QEMU, default options.
    img = os.path.join(work, "pass.img")
    shutil.copyfile(usb, img)
    rc, results, errors, log, jr, res = qemu_booted(work, "qemu-pass", img)
    report(rc == 0 and jr is not None and jr["result"] == "pass",
           "lava qemu-pass: lava-run completes the job", "rc %d, job %s, errors %s (log %s)" %
           (rc, jr, errors[:2], log))
    if report(res is not None, "lava qemu-pass: results.json of the booted image",
              "no image or no results.json (log %s)" % log):
        compare("qemu-pass", results, res, "pass")

    # 2. QEMU, a broken simulated CPU: a FAIL verdict and exit status 1.
    img = os.path.join(work, "fail.img")
    image_with_config(usb, img, BROKEN_CPU)
    rc, results, errors, log, jr, res = qemu_booted(work, "qemu-fail", img)
    report(jr is not None and jr["result"] == "pass",
           "lava qemu-fail: a FAIL verdict leaves the job complete", "job %s (log %s)" % (jr, log))
    if report(res is not None and any(v.verdict == "FAIL" for v in res.verdicts),
              "lava qemu-fail: results.json has a FAIL verdict", "log %s" % log):
        compare("qemu-fail", results, res, "fail")

    # 3. QEMU, options refused: exit status 2 is the job's error.
    img = os.path.join(work, "usage.img")
    image_with_config(usb, img, "pmu=sim model=no-such-model")
    rc, results, errors, log = lava_run(work, "qemu-usage", qemu_job("file://" + img, None),
                                        qemu_device("qemu-usage", ""))
    jr = job_result(results) or {}
    report(jr.get("result") == "fail" and jr.get("error_type") == "Job" and
           "exit status 2" in jr.get("error_msg", ""),
           "lava qemu-usage: exit status 2 ends the job as a JobError",
           "job %s (log %s)" % (jr, log))

    # 4. QEMU, no pebsprobe on the stick (the firmware drops to its shell):
    #    no banner, no exit line; the job times out Incomplete, no case recorded.
    img = os.path.join(work, "empty.img")
    shutil.copyfile(usb, img)
    subprocess.run(["mdel", "-i", img + "@@1M", "::/EFI/BOOT/BOOTX64.EFI"], check=True)
    job = qemu_job("file://" + img, None)
    for a in job["actions"]:
        if "test" in a:
            a["test"]["timeout"] = {"seconds": 45}
    rc, results, errors, log = lava_run(work, "qemu-hang", job, qemu_device("qemu-hang", ""))
    jr = job_result(results) or {}
    report(jr.get("result") == "fail" and not lava_cases(results, "pebsprobe") and
           exit_case(results) is None,
           "lava qemu-hang: no pebsprobe run: the job is incomplete, no test case",
           "job %s, cases %s (log %s)" % (jr, lava_cases(results, "pebsprobe"), log))

    # 5. The lab job on the simulated lab machine.
    yaml = yaml_mod()
    state = os.path.join(work, "lab")
    os.makedirs(state)
    port = free_port()
    text = open(os.path.join(HERE, "devices", "sim-lab.yaml")).read()
    text = text.replace("@ROOT@", ROOT).replace("@STATE@", state).replace("@PORT@", str(port))
    dev = yaml.safe_load(text)
    job = yaml.safe_load(open(os.path.join(HERE, "jobs", "pebsprobe-usb-lab.yaml")))
    job["actions"][0]["deploy"]["images"]["usb"]["url"] = "file://" + usb
    rc, results, errors, log = lava_run(work, "lab-pass", job, dev)
    jr = job_result(results)
    report(rc == 0 and jr is not None and jr["result"] == "pass",
           "lava lab-pass: flasher + minimal boot complete the job",
           "rc %d, job %s, errors %s (log %s)" % (rc, jr, errors[:2], log))
    stick = os.path.join(state, "stick.img")
    try:
        res = read_results(stick) if os.path.exists(stick) else None
    except ResultsError as e:
        res = None
        errors.append(str(e))
    if report(res is not None, "lava lab-pass: results.json on the lab's stick", "log %s" % log):
        compare("lab-pass", results, res, "pass")
        got = collected.files([rec.get("msg") for rec in log_records(log)])
        raw = read_image(stick + "@@1M") or b""
        report(got.get("results.json", "").strip() == raw.decode("ascii", "replace").strip()
               and "pebsprobe.log" in got,
               "lava lab-pass: the job log holds the stick's results.json and log "
               "(command pebsprobe-collect)", "collected %s (log %s)" % (sorted(got), log))
    subprocess.run([os.path.join(HERE, "sim-lab", "power.sh"), "off", state], capture_output=True)

    # 6. QEMU, verbose=1: the console has each CPU's verdict, name@cpuN, and
    #    LAVA must keep every one a case of its own.
    img = os.path.join(work, "verbose.img")
    image_with_config(usb, img, "verbose=1")
    rc, results, errors, log, jr, res = qemu_booted(work, "qemu-verbose", img)
    report(rc == 0 and jr is not None and jr["result"] == "pass",
           "lava qemu-verbose: lava-run completes the job", "rc %d, job %s, errors %s (log %s)" %
           (rc, jr, errors[:2], log))
    if report(res is not None and any("@cpu1" in v.name for v in res.verdicts),
              "lava qemu-verbose: results.json names each CPU's verdict name@cpuN",
              "log %s" % log):
        compare("qemu-verbose", results, res, "pass", per_cpu=True)
    return 1 if caselines.failed else 0


if __name__ == "__main__":
    sys.exit(main())
