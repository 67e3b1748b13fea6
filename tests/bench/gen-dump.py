#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen-dump.py KIND BYTES OUT - writes a pebsprobe dump (docs/DECODER.md
layout) of about BYTES of records for the benchmarks:

  fmt3      200-byte legacy format-3 records (SDM Vol. 3B Table 18-55:
            18 GPRs, status, DLA, DSE, latency, EventingIP, TSX, TSC), skl
  adaptive  64-byte adaptive records (basic + meminfo groups), spr

4096 distinct records (varied data sources, addresses and latencies)
repeated; prints the record count on stdout."""
import argparse
import struct

ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
ap.add_argument("kind", choices=("fmt3", "adaptive"), metavar="KIND", help="fmt3 or adaptive")
ap.add_argument("size", type=int, metavar="BYTES", help="about how many bytes of records")
ap.add_argument("out", metavar="OUT", help="the dump file to write")
args = ap.parse_args()
kind, size, out = args.kind, args.size, args.out
pool = []
for i in range(4096):
    dse = (i * 7) & 0xf | ((i >> 4) & 1) << 4 | ((i >> 5) & 1) << 6
    lat = 5 + (i * 37) % 400
    if kind == 'fmt3':
        r = bytearray(0xc8)
        for g in range(18):
            struct.pack_into('<Q', r, 8 * g, 0x1000 * i + g)
        struct.pack_into('<QQQQ', r, 0x90, 1, 0x7f0000000000 + 64 * i, dse, lat)
        struct.pack_into('<QQQ', r, 0xb0, 0x401000 + 4 * i, 0, 1000 + i)
        fmt, uarch, flags, cfg = 3, b'skl', 0, 0
    else:  # adaptive (argparse took no other KIND)
        r = bytearray(0x40)
        struct.pack_into('<QQQQ', r, 0, (0x40 << 48) | 1, 0x401000 + 4 * i, 1, 1000 + i)
        struct.pack_into('<QQQQ', r, 0x20, 0x7f0000000000 + 64 * i, dse, lat << 32 | (i % 9), 0)
        fmt, uarch, flags, cfg = 5, b'spr', 2, 1
    pool.append(bytes(r))
block = b''.join(pool)
rec = len(pool[0])
n = size // rec
h = bytearray(0x90)
h[0:8] = b'PEBSDUMP'
struct.pack_into('<HHIII', h, 8, 2, 0x90, flags, fmt, 1)
h[0x18:0x18 + len(uarch)] = uarch
h[0x20:0x25] = b'ldlat'
struct.pack_into('<QQQ', h, 0x30, cfg, 1, n * rec)
struct.pack_into('<IIQ', h, 0x50, 0, 0, 0x1cd)
h[0x60:0x60 + 30] = b'MEM_TRANS_RETIRED.LOAD_LATENCY'
with open(out, 'wb') as f:
    f.write(h)
    full, rest = divmod(n, len(pool))
    big = block * 16
    for _ in range(full // 16):
        f.write(big)
    for _ in range(full % 16):
        f.write(block)
    f.write(block[:rest * rec])
print(n)
