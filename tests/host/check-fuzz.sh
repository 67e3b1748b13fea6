#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-fuzz.sh - runs the decoder's libFuzzer target (tests/fuzz/fuzz_decode.c)
# briefly: first over a seed corpus of valid records in every format (built
# here from the SDM layouts), then fuzzing for FUZZ_SECONDS (default 20).
# `make fuzz FUZZ_SECONDS=600` runs it longer.  One PASS/FAIL line per case.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
SECS=${FUZZ_SECONDS:-20}
F=$BUILD/fuzz/fuzz_decode
dir=$BUILD/fuzz
if [ ! -x "$F" ]; then
	echo "FAIL: fuzz-build: $F missing (make BUILD=$BUILD $F; needs clang)"
	exit 1
fi
seed=$dir/seed corpus=$dir/corpus
mkdir -p "$seed" "$corpus"

# Seeds: 12-byte config (fmt, uarch, kind, flags, DATA_CFG) + records.
python3 - "$seed" <<'PY'
import struct, sys, os
d = sys.argv[1]
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
seeds = {
    'fmt0': cfg(0, 1, 5) + legacy(0) * 2,
    'fmt1-nhm': cfg(1, 2, 0) + legacy(1) * 2,
    'fmt2-hsw': cfg(2, 6, 0) + legacy(2) * 2,
    'fmt3-skl': cfg(3, 8, 0, 0x10) + legacy(3) * 2,
    'fmt4-icl': cfg(4, 10, 0, 2, 1) + adaptive(1, 0x40) * 2,
    'fmt5-spr': cfg(5, 12, 2, 3, 1) + adaptive(1, 0x40, 40) * 2,
    'fmt6-lnc': cfg(6, 18, 0, 2, 0x11 | (1 << 32)) + adaptive(0x11 | (1 << 32), 0x20 + 0x20 + 0x18),
    'arch-lnc': cfg(7, 18, 0) + arch() * 2,
    'snb-store': cfg(1, 4, 1) + legacy(1),
}
for name, data in seeds.items():
    open(os.path.join(d, name), 'wb').write(data)
PY

log=$dir/seeds.log
if "$F" -runs=0 "$seed" >"$log" 2>&1 && "$F" "$seed"/* >>"$log" 2>&1; then
	echo "PASS: fuzz-seeds: $(ls "$seed" | wc -l) seed inputs decode cleanly"
else
	echo "FAIL: fuzz-seeds: $(grep -m1 -E 'ERROR|runtime error|Assertion' "$log") (see $log)"
fi

log=$dir/fuzz.log
"$F" -max_total_time="$SECS" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$dir/" "$corpus" "$seed" >"$log" 2>&1
rc=$?
execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
if [ $rc -eq 0 ] && [ -n "$execs" ] && [ "$execs" -gt 0 ]; then
	echo "PASS: fuzz-decode: ${SECS}s, $execs inputs, no crash, hang or sanitizer report"
else
	echo "FAIL: fuzz-decode: exit $rc: $(grep -m1 -E 'ERROR|runtime error|deadly|timeout' "$log") (see $log; crash input in $dir/)"
fi
