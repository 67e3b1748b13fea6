#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ap-stack.py - the deepest stack an application processor can use.

    tools/ap-stack.py [--limit BYTES] OBJDIR

Reads the call graphs GCC writes beside the UEFI objects (-fcallgraph-info=su,
one OBJDIR/**/*.ci per object: each function's frame and the calls it makes)
and walks them from where an AP enters (AP_ENTRY).  A call through a pointer
(GCC's "__indirect_call") is charged with the deepest function it may reach:
by the file of the call (BY_FILE), else any function the sources' tables of
operations name (TABLE_TYPES: ".rdmsr = real_rdmsr,").  An interrupt may come
at the deepest point: the PMI stub's frame and its handler chain are added.
A cycle through a pointer call is an artefact of that over-estimate and is
cut; one of direct calls only is recursion.  Prints the chain; exit 1 when it
is over the limit, or when a frame is dynamic (alloca, a VLA) or a chain
recurses: then no bound holds.  Budget and reason: docs/ARCHITECTURE.md,
"Stacks".
"""
import argparse
import glob
import os
import re
import sys

# efi/platform_efi.c's MP services procedure and lib/cpurun.c's AP loop.
AP_ENTRY = ['ap_entry', 'ap_loop']
# What cpurun_run()/cpurun_post() hand that loop (grep "cpurun_run(\|cpurun_post(").
AP_WORK = ['kernel_run', 'armed_on_cpu', 'armed', 'read_on_cpu', 'smi_on_cpu',
           'probe_on_cpu', 'ap_test_on_cpu', 'ap_share']
# efi/hw_real.c: the interrupt frame (5 qwords, SDM Vol. 3A 6.14.2), nine
# saved registers and the 512-byte FXSAVE area, then pp_pmi_dispatch.
PMI_STUB_BYTES = 5 * 8 + 9 * 8 + 512
PMI_ENTRY = 'pp_pmi_dispatch'
# Pointer calls nest at most this deep below the AP loop's: the work calls a
# kernel body or a PEBS format's operation, which calls a hw seam operation
# (pmu/hw.h).  Read from the code, not derived: deeper nesting is cut here.
POINTER_NESTING = 2
# The tables of operations an AP calls through: the hw seam (pmu/hw.h), the
# kernels (kernels/kernel.h), the PEBS formats (pmu/session_int.h), the app's
# self tests (app/app.h), the simulator's MSR rows (sim/msr.c).
TABLE_TYPES = ['hw_ops', 'kernel_def', 'pebs_ds_ops', 'pebs_arch_ops',
               'pebs_count_ops', 'app_real', 'msr_def']
CALLBACKS = ['pmi_handler']  # what pmu/pmi.c gives hw_set_pmi_handler()
# Where a file's pointer calls go instead: ap_entry's to lib/cpurun.c's loop
# (charged to every firmware call of that file); the loop's to the AP work; the
# PMI stub's and the simulator's to the PMI handler; the report's to the
# console sinks, which an AP never reaches: cpurun_run() holds back every line
# while the AP runs (report_defer_begin, lib/cpurun.c).  The rest of efi/
# calls the firmware, whose frames the budget leaves room for; sim/rules.c's
# hook is set by tests only.
BY_FILE = {'efi/platform_efi.c': ['ap_loop'], 'lib/cpurun.c': AP_WORK, 'lib/report.c': [],
           'efi/hw_real.c': CALLBACKS,
           'sim/engine.c': CALLBACKS, 'sim/rules.c': []}
# Reached only while lines are not held back, so never on an AP (as above).
NOT_ON_AP = ['emit_brief']

NODE = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]+)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"(?: label: "([^"]*)")?')
FRAME = re.compile(r'\\n(\d+) bytes \(([a-z,]+)\)')
FIELD = re.compile(r'^\s*\.[a-z_0-9]+\s*=\s*([a-z_][a-z_0-9]*)\s*,', re.M)
BLOCK = re.compile(r'struct (' + '|'.join(TABLE_TYPES) + r') [a-z_0-9]+(?:\[\])? = \{(.*?)\n\};',
                   re.S)


def bare(title):
    # "file.c:name"; "*name" where the source gave an assembler name
    return title.rsplit(':', 1)[-1].lstrip('*')


def read_graphs(objdir):
    frames, kinds, edges = {}, {}, {}
    for ci in sorted(glob.glob(os.path.join(objdir, '**', '*.ci'), recursive=True)):
        with open(ci) as f:
            text = f.read()
        for title, label in NODE.findall(text):
            m = FRAME.search(label)
            if m:
                frames[title] = int(m.group(1))
                kinds[title] = m.group(2)
                edges.setdefault(title, set())
        for src, dst, site in EDGE.findall(text):
            edges.setdefault(src, set()).add((dst, site))
    return frames, kinds, edges


def table_targets(srcdirs):
    names = set()
    for d in srcdirs:
        for c in glob.glob(os.path.join(d, '*.c')):
            with open(c) as f:
                for _, body in BLOCK.findall(f.read()):
                    names.update(FIELD.findall(body))
    return names


class Walk:
    def __init__(self, frames, kinds, edges, tables):
        self.frames, self.kinds, self.edges = frames, kinds, edges
        self.tables = tables
        self.by_name = {}
        for t in frames:
            self.by_name.setdefault(bare(t), []).append(t)
        self.memo, self.bad = {}, set()

    def resolve(self, dst, site):
        if dst == '__indirect_call':
            f = site.split(':')[0]
            if f in BY_FILE:
                return [t for n in BY_FILE[f] for t in self.by_name.get(n, [])]
            return [] if f.startswith('efi/') else self.tables
        if dst in self.frames:
            return [dst]
        return self.by_name.get(bare(dst), [])

    def depth(self, t, k, path):
        """k: pointer calls left; path: [(function, reached through a pointer)]."""
        if (t, k) in self.memo:
            return self.memo[t, k]
        names = [p[0] for p in path[:-1]]
        if t in names:
            if not any(p[1] for p in path[names.index(t) + 1:]):
                self.bad.add('recursion: ' + ' -> '.join(bare(n) for n in names + [t]))
            return 0, []
        if 'dynamic' in self.kinds[t]:
            self.bad.add(f'{t}: a dynamic frame ({self.kinds[t]})')
        best = (0, [])
        entry = bare(t) in AP_ENTRY
        for dst, site in sorted(self.edges.get(t, ())):
            ptr = dst == '__indirect_call'
            if ptr and k == 0 and not entry:
                continue
            for u in self.resolve(dst, site):
                if bare(u) in NOT_ON_AP:
                    continue
                d = self.depth(u, k - 1 if ptr and not entry else k, path + [(u, ptr)])
                if d[0] > best[0]:
                    best = d
        self.memo[t, k] = (self.frames[t] + best[0], [t] + best[1])
        return self.memo[t, k]

    def deepest(self, names):
        ts = [t for n in names for t in self.by_name.get(n, [])]
        return max([self.depth(t, POINTER_NESTING, [(t, False)]) for t in ts],
                   key=lambda d: d[0], default=(0, []))


def main():
    ap = argparse.ArgumentParser(description='deepest AP stack chain')
    ap.add_argument('--limit', type=int, default=3072)
    ap.add_argument('objdir')
    a = ap.parse_args()
    frames, kinds, edges = read_graphs(a.objdir)
    if not frames:
        print(f'FAIL: ap-stack: no call graphs (*.ci) under {a.objdir}: '
              'the UEFI build needs -fcallgraph-info=su')
        return 1
    names = {bare(t) for t in frames}
    missing = [n for n in AP_ENTRY + AP_WORK + [PMI_ENTRY] if n not in names]
    if missing:
        print('FAIL: ap-stack: not in the call graphs: ' + ', '.join(missing)
              + ' (renamed? tools/ap-stack.py names where an AP enters)')
        return 1
    srcdirs = sorted({os.path.dirname(t.rsplit(':', 1)[0]) for t in frames})
    targets = table_targets(srcdirs) - set(AP_ENTRY + AP_WORK)
    tables = [t for t in frames if bare(t) in targets]
    # pmu=hw or pmu=sim, never both: the real backend, whose PMIs come
    # through the stub; the simulator, which calls the handler itself.
    real = Walk(frames, kinds, edges, [t for t in tables if not t.startswith('sim/')])
    top, irq = real.deepest(AP_ENTRY), real.deepest([PMI_ENTRY])
    runs = [('pmu=hw', top[1] + ['PMI stub'] + irq[1], top[0] + PMI_STUB_BYTES + irq[0])]
    sim = Walk(frames, kinds, edges, [t for t in tables if not t.startswith('efi/')])
    top = sim.deepest(AP_ENTRY)
    runs.append(('pmu=sim', top[1], top[0]))
    which, chain, total = max(runs, key=lambda r: r[2])
    for r in runs:
        print(f'INFO: ap-stack: {r[0]}: the deepest AP chain is {r[2]} bytes')
    frames['PMI stub'] = PMI_STUB_BYTES
    for t in chain:
        print(f'INFO: ap-stack: {which}: {frames[t]:6d}  {t}')
    for b in sorted(real.bad | sim.bad):
        print(f'FAIL: ap-stack: {b}: no bound holds')
    verdict = 'PASS' if total <= a.limit and not (real.bad | sim.bad) else 'FAIL'
    print(f'{verdict}: ap-stack: the deepest AP chain is {total} bytes ({which}), '
          f'limit {a.limit}')
    return 0 if verdict == 'PASS' else 1


if __name__ == '__main__':
    sys.exit(main())
