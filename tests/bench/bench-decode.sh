#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-decode.sh - pebs-decode throughput on one core.  Builds a dump of
# BENCH_RECORDS (default 2M) adaptive records (basic + meminfo, SPR layout,
# varied data sources and latencies), then times, in the same run:
#   read     pebs-decode --output read (read the file, touch every byte)
#   summary  pebs-decode --output summary
#   json     pebs-decode --output json > /dev/null
# Targets (docs/DECODER.md): json >= 2,000,000 records/s; summary >= 0.25 x read speed.
# Each is the best of BENCH_REPEAT (default 3) runs.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
D=$BUILD/host/pebs-decode
N=${BENCH_RECORDS:-2000000}
REPEAT=${BENCH_REPEAT:-3}
F=$BUILD/bench/decode-bench.dump
[ -x "$D" ] || { echo "bench-decode: $D missing (make BUILD=$BUILD host)"; exit 1; }
mkdir -p "$(dirname "$F")"

if [ ! -s "$F" ] || [ "$(cat "$F.n" 2>/dev/null)" != "$N" ]; then
	python3 - "$F" "$N" <<'PY'
import struct, sys
path, n = sys.argv[1], int(sys.argv[2])
pool = []
for i in range(4096):
    r = bytearray(0x40)
    struct.pack_into('<QQQQ', r, 0, (0x40 << 48) | 1, 0x401000 + 4 * i, 1, 1000 + i)
    dse = (i * 7) & 0xf | ((i >> 4) & 1) << 4 | ((i >> 5) & 1) << 6
    lat = (5 + (i * 37) % 400) << 32 | (i % 9)
    struct.pack_into('<QQQQ', r, 0x20, 0x7f0000000000 + 64 * i, dse, lat, 0)
    pool.append(bytes(r))
block = b''.join(pool)
h = bytearray(0x50)
h[0:8] = b'PEBSDUMP'
struct.pack_into('<HHIII', h, 8, 1, 0x50, 2, 5, 0)
h[0x18:0x1b] = b'spr'
h[0x20:0x25] = b'ldlat'
struct.pack_into('<QQQ', h, 0x30, 1, 1, n * 0x40)
with open(path, 'wb') as f:
    f.write(h)
    full, rest = divmod(n, len(pool))
    for _ in range(full):
        f.write(block)
    f.write(block[:rest * 0x40])
PY
	echo "$N" >"$F.n"
fi
bytes=$(stat -c %s "$F")

best() { # best wall time in seconds of REPEAT runs of "$@" (stdout discarded)
	local b="" t0 t1 dt
	for _ in $(seq "$REPEAT"); do
		t0=$(date +%s%N)
		"$@" >/dev/null || return 1
		t1=$(date +%s%N)
		dt=$((t1 - t0))
		if [ -z "$b" ] || [ "$dt" -lt "$b" ]; then b=$dt; fi
	done
	echo "$b"
}

cat "$F" >/dev/null # warm the page cache
t_read=$(best cat "$F") || { echo "bench-decode: read run failed"; exit 1; }
t_sum=$(best "$D" --output summary "$F") || { echo "bench-decode: summary run failed"; exit 1; }
t_json=$(best "$D" --output json "$F") || { echo "bench-decode: json run failed"; exit 1; }

awk -v n="$N" -v bytes="$bytes" -v tr="$t_read" -v ts="$t_sum" -v tj="$t_json" 'BEGIN {
	rr = n / (tr / 1e9); rs = n / (ts / 1e9); rj = n / (tj / 1e9); ratio = rs / rr;
	printf "bench decode: %d records, %.1f MB\n", n, bytes / 1e6;
	printf "  read     %8.3f s  %12.0f records/s  %8.1f MB/s\n", tr / 1e9, rr, bytes / (tr / 1e3);
	printf "  summary  %8.3f s  %12.0f records/s  ratio to read %.2f (target >= 0.25): %s\n",
		ts / 1e9, rs, ratio, (ratio >= 0.25 ? "OK" : "BELOW TARGET");
	printf "  json     %8.3f s  %12.0f records/s  (target >= 2000000): %s\n",
		tj / 1e9, rj, (rj >= 2e6 ? "OK" : "BELOW TARGET");
	exit (ratio >= 0.25 && rj >= 2e6) ? 0 : 1
}'
