# SPDX-License-Identifier: MIT
"""matrix_file - reads a run matrix: named entries, each one boot of
pebsprobe under QEMU, in the manner of kvm-unit-tests' unittests.cfg.

    # comment
    [DEFAULT]            values every entry inherits
    smp = 2
    [skl]                the entry's name
    model = skl          simulator model (app option model=)
    smp = 2              QEMU processors (run-qemu.sh --smp)
    options = pmu=sim    more app options, space separated
    exit = 0             the exit status the entry expects
    timeout = 150        seconds before run-qemu.sh gives up (exit 124)
    groups = models      space-separated group names (-g)
    kvm = no             yes: run-qemu.sh --kvm
    usb = no             yes: boot the USB image (run-qemu.sh --usb)

Every key is checked; a mistake is one line naming the file, the entry,
the key and what is accepted.
"""

import configparser
import re
from dataclasses import dataclass, field
from typing import Optional

from cli import UsageError

KEYS = {
    "model": "a simulator model name",
    "smp": "1..64",
    "options": "app options, name=value separated by spaces",
    "exit": "0..255",
    "timeout": "1..3600 seconds",
    "groups": "group names separated by spaces",
    "kvm": "yes or no",
    "usb": "yes or no",
}

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


@dataclass(eq=False)
class Entry:
    name: str
    model: Optional[str] = None
    smp: int = 1
    options: list = field(default_factory=list)
    exit: int = 0
    timeout: int = 150
    groups: list = field(default_factory=list)
    kvm: bool = False
    usb: bool = False

    def app_options(self):
        opts = list(self.options)
        if self.model:
            opts.append("model=" + self.model)
        return opts

    def describe(self):
        return " ".join(["--smp %d" % self.smp] + (["--kvm"] if self.kvm else []) +
                        (["--usb"] if self.usb else []) + ["--"] + self.app_options())


def _int(path, name, key, text, lo, hi):
    try:
        v = int(text, 10)
    except ValueError:
        v = None
    if v is None or not lo <= v <= hi:
        raise UsageError("%s: [%s] %s = '%s' (accepted: %s)" % (path, name, key, text, KEYS[key]))
    return v


def _bool(path, name, key, text):
    t = text.strip().lower()
    if t not in ("yes", "no", "true", "false", "1", "0"):
        raise UsageError("%s: [%s] %s = '%s' (accepted: %s)" % (path, name, key, text, KEYS[key]))
    return t in ("yes", "true", "1")


def load(path):
    cp = configparser.ConfigParser(interpolation=None, comment_prefixes=("#", ";"),
                                   inline_comment_prefixes=("#",), strict=True)
    try:
        with open(path, encoding="utf-8") as f:
            cp.read_file(f)
    except OSError as e:
        raise UsageError("%s: cannot read: %s (accepted: a matrix file, docs/MATRIX.md)" %
                         (path, e.strerror))
    except (configparser.Error, UnicodeDecodeError) as e:
        first = str(e).splitlines()[0]
        raise UsageError("%s: not a matrix file: %s (accepted: [name] sections of key = value)" %
                         (path, first))
    for key in cp.defaults():
        if key not in KEYS:
            raise UsageError("%s: [DEFAULT] unknown key '%s' (accepted: %s)" %
                             (path, key, ", ".join(KEYS)))
    entries = []
    for name in cp.sections():
        if not NAME_RE.match(name):
            raise UsageError("%s: [%s]: bad entry name (accepted: letters, digits, _ . + -)" %
                             (path, name))
        e = Entry(name)
        sec = cp[name]
        for key in sec:
            if key not in KEYS:
                raise UsageError("%s: [%s] unknown key '%s' (accepted: %s)" %
                                 (path, name, key, ", ".join(KEYS)))
        if sec.get("model"):
            e.model = sec.get("model").strip()
            if not NAME_RE.match(e.model):
                raise UsageError("%s: [%s] model = '%s' (accepted: %s)" %
                                 (path, name, e.model, KEYS["model"]))
        e.smp = _int(path, name, "smp", sec.get("smp", "1"), 1, 64)
        e.exit = _int(path, name, "exit", sec.get("exit", "0"), 0, 255)
        e.timeout = _int(path, name, "timeout", sec.get("timeout", "150"), 1, 3600)
        e.options = sec.get("options", "").split()
        for o in e.options:
            if "=" not in o:
                raise UsageError("%s: [%s] options: '%s' (accepted: %s)" %
                                 (path, name, o, KEYS["options"]))
        e.groups = sec.get("groups", "").split()
        e.kvm = _bool(path, name, "kvm", sec.get("kvm", "no"))
        e.usb = _bool(path, name, "usb", sec.get("usb", "no"))
        entries.append(e)
    if not entries:
        raise UsageError("%s: no entries (accepted: one [name] section per entry)" % path)
    return entries
