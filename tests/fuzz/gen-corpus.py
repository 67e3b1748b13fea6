#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""gen-corpus.py - writes the made-up seeds of tests/fuzz/corpus/ (the
real ones, dumps the simulated PMU wrote and efi/pebsprobe.cfg, are copied
in as they are; docs/FUZZING.md).  Run from the top of the tree after a
change of layout; the output is committed, so the seeds do not move under
a fuzzer's feet.

decode: a 12-byte config (fmt, uarch, kind, flags, DATA_CFG) + records in
        every format, built from the SDM layouts (Vol. 3B 18.6.2.4 legacy
        basic/load-latency records, 18.9.2.4 adaptive groups).
config: good configs and the bad ones a stranger's USB stick may hold:
        NUL, UTF-16 with BOM, UTF-8 BOM, CRLF, a line over 511 characters,
        control bytes, an 8 KiB file of many lines.
loadopts: the same as UTF-16LE LoadOptions: the shell's command line, a
        BOM, binary OptionalData, odd length, over 2047 characters.
dump:   the dump header (decode/dump.h) with each field wrong once."""
import os
import struct
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus')


def put(target, name, data):
    if isinstance(data, str):
        data = data.encode('latin-1')
    with open(os.path.join(root, target, name), 'wb') as f:
        f.write(data)


# --- decode ---------------------------------------------------------------
def cfg(fmt, uarch, kind, flags=0, data_cfg=0):
    return bytes([fmt, uarch, kind, flags]) + struct.pack('<Q', data_cfg)


def legacy(fmt):
    size = {0: 0x90, 1: 0xb0, 2: 0xc0, 3: 0xc8}[fmt]
    r = bytearray(size)
    for o in range(0, 0x90, 8):
        struct.pack_into('<Q', r, o, 0x1000 + o)
    if fmt >= 1:
        struct.pack_into('<QQQQ', r, 0x90, 1, 0x7fff0000, 0x21, 30)
    if fmt >= 2:
        struct.pack_into('<QQ', r, 0xb0, 0x401000, (1 << 33) | 50)
    if fmt >= 3:
        struct.pack_into('<Q', r, 0xc0, 12345)
    return bytes(r)


def adaptive(cfgv, size, timed=0):
    r = bytearray(size)
    struct.pack_into('<QQQQ', r, 0, (size << 48) | (timed << 32) | cfgv, 0x401000, 1, 99)
    if cfgv & 1:
        struct.pack_into('<QQQQ', r, 0x20, 0x7fff0000, 0x14, (30 << 32) | 3, 0)
    return bytes(r)


def arch():
    r = bytearray(0x80)
    struct.pack_into('<Q', r, 0, 0x80 | (1 << 63) | (1 << 62))
    struct.pack_into('<QQQQ', r, 0x10, 0x401000, 1, 5, (1 << 16) | 7)
    struct.pack_into('<Q', r, 0x40 + 0x28, 0x11)
    return bytes(r)


decode = {
    'fmt0': cfg(0, 1, 5) + legacy(0) * 2,
    'fmt1-nhm': cfg(1, 2, 0) + legacy(1) * 2,
    'fmt2-hsw': cfg(2, 6, 0) + legacy(2) * 2,
    'fmt3-skl': cfg(3, 8, 0, 0x10) + legacy(3) * 2,
    'fmt4-icl': cfg(4, 10, 0, 2, 1) + adaptive(1, 0x40) * 2,
    'fmt5-spr': cfg(5, 12, 2, 3, 1) + adaptive(1, 0x40, 40) * 2,
    'fmt6-lnc': cfg(6, 18, 0, 2, 0x11 | (1 << 32)) + adaptive(0x11 | (1 << 32), 0x58),
    'arch-lnc': cfg(7, 18, 0) + arch() * 2,
    'snb-store': cfg(1, 4, 1) + legacy(1),
}

# --- config and LoadOptions -----------------------------------------------
good = [
    'pmu=sim model=skl kernels=chase-l1 ldlat=60 records=3',
    'pmu=hw mode=report verbose=1 trace=msr exit=return',
    'pmu=sim model=spr kernels=all buffer=64 threshold=32 drain=pmi',
    'pmu=sim model=ptl cpus=0,2-3 sim-fault=cpu1:no-records,cpu2:wrong-latency',
    'pmu=sim model=adl sim-acr=0xfc,0x0,0xfc,0x0 acr=off cpu-timeout=30',
    'pmu=sim events=MEM_INST_RETIRED.ALL_LOADS;event=0xd0,umask=0x81 period=10007',
    'model=list',
    'results=run1.json log=none dump=off snapshot=on size=1M iterations=100',
    'pmu=sim model=skl kernels=none selftest=gp pause=0',
]
bad = [
    'pmu=bogus',
    'colour=blue',
    'pmu',
    'ldlat=2',
    'ldlat=99999999999999999999999',
    'buffer=0x',
    'kernels=chase-l1,,chase-l2',
    'sim-fault=cpu99:hang',
    'results=PEBSPROBE.CFG',
    'model=' + 'x' * 200,
    'pmu=sim\x1b[2J',
]
config = {
    'good-' + str(i): s + '\n' for i, s in enumerate(good)
}
config.update({'bad-' + str(i): '# a comment\n' + s + '\n' for i, s in enumerate(bad)})
config.update({
    'empty': '',
    'comments-only': '# nothing\n\n   # at all\n',
    'crlf': 'pmu=sim\r\nmodel=skl\r\n',
    'tabs': 'pmu=sim\tmodel=skl\t# tab\n',
    'utf8-bom': '\xef\xbb\xbfpmu=sim model=skl\n',
    'utf16-bom': '\ufeffpmu=sim model=skl\n'.encode('utf-16-le').decode('latin-1'),
    'nul': 'pmu=sim\x00model=skl\n',
    'latin1': 'trace=msr\npmu=hw \xe9\n',
    'long-line': 'pmu=sim ' + 'x' * 600 + '\n',
    'line-511': ('verbose=1 ' * 52)[:511] + '\n',
    'no-newline': 'pmu=sim model=skl',
    'huge': ''.join('# line %d\nverbose=%d ldlat=%d\n' % (i, i & 1, 3 + i)
                    for i in range(300)),
})


def ucs2(s, bom=False):
    return (b'\xff\xfe' if bom else b'') + s.encode('utf-16-le')


loadopts = {'good-' + str(i): ucs2('pebsprobe.efi ' + s) for i, s in enumerate(good)}
loadopts.update({'bad-' + str(i): ucs2('\\EFI\\BOOT\\BOOTX64.EFI ' + s)
                 for i, s in enumerate(bad)})
loadopts.update({
    'shell': ucs2('pebsprobe.efi pmu=hw mode=report verbose=1 ldlat=60\x00'),
    'bom': ucs2('pmu=sim model=skl', bom=True),
    'initrd': ucs2('vmlinuz initrd=\\initrd.img pmu=sim'),
    'binary': bytes(range(256)),
    'odd': ucs2('pmu=sim') + b'\x01',
    'nul-middle': ucs2('pmu=sim\x00pmu=bogus'),
    'non-ascii': ucs2('pmu=sim model=sk\u00e9'),
    'too-long': ucs2('pebsprobe.efi ' + 'verbose=1 ' * 210),
    'empty': b'',
    'one-byte': b'p',
})


# --- dump headers -----------------------------------------------------------
def header(magic=b'PEBSDUMP', version=2, hsize=None, flags=4, fmt=3, n=1,
           uarch=b'skl', kind=b'ldlat', data_cfg=0, enabled=1, nrec=None,
           records=b''):
    hsize = 0x50 + 0x40 * n if hsize is None else hsize
    nrec = len(records) if nrec is None else nrec
    h = bytearray(0x50)
    h[0:8] = magic
    struct.pack_into('<HHII', h, 8, version, hsize, flags, fmt)
    struct.pack_into('<I', h, 0x14, n)
    h[0x18:0x18 + len(uarch)] = uarch
    h[0x20:0x20 + len(kind)] = kind
    struct.pack_into('<QQQQ', h, 0x30, data_cfg, enabled, nrec, 0)
    for i in range(min(n, 20)):
        c = bytearray(0x40)
        struct.pack_into('<IIQ', c, 0, i, 0, 0x1cd)
        c[0x10:0x10 + 30] = b'MEM_TRANS_RETIRED.LOAD_LATENCY'
        h += c
    return bytes(h) + records


recs = legacy(3) * 2
dump = {
    'ok-skl': header(records=recs),
    'ok-v1': header(version=1, flags=0, records=recs),
    'ok-adaptive': header(fmt=5, uarch=b'spr', flags=6, data_cfg=1,
                          records=adaptive(1, 0x40) * 2),
    'ok-arch': header(fmt=15, uarch=b'lnc', records=arch() * 2),
    'ok-16-counters': header(n=16, records=recs),
    'bad-magic': header(magic=b'PEBSDUMQ', records=recs),
    'bad-version': header(version=9, records=recs),
    'bad-hsize': header(hsize=0x30, records=recs),
    'bad-fmt': header(fmt=9, records=recs),
    'bad-n': header(n=17, records=recs),
    'bad-uarch': header(uarch=b'xyz', records=recs),
    'bad-kind': header(kind=b'nope', records=recs),
    'truncated': header(nrec=len(recs) + 100, records=recs),
    'extra-bytes': header(nrec=8, records=recs),
    'huge-declared': header(nrec=(1 << 64) - 1, records=recs),
    'header-only-cut': header(records=recs)[:0x40],
    'magic-only': b'PEBSDUMP',
    'not-a-dump': b'hello\n',
    'empty': b'',
}

for target, seeds in (('decode', decode), ('config', config),
                      ('loadopts', loadopts), ('dump', dump)):
    os.makedirs(os.path.join(root, target), exist_ok=True)
    for name, data in seeds.items():
        put(target, name, data)
print('%d seeds written' % sum(map(len, (decode, config, loadopts, dump))), file=sys.stderr)
