#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-decode-cli.sh - the build/host/pebs-decode contract (docs/DECODER.md):
# JSON Lines keys and value types, text/csv/summary, dump files, error lines
# with byte offsets and exit statuses 0/1/2.  Input files are built here,
# byte by byte from the SDM layouts (Vol. 3B Tables 18-23/18-44/18-55) and
# Linux's adaptive groups (asm/perf_event.h); expected perf_mem_data_src
# values are composed here from Linux's include/uapi/linux/perf_event.h.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
D=$BUILD/host/pebs-decode
if [ ! -x "$D" ]; then
	echo "FAIL: cli-build: $D missing (make BUILD=$BUILD host)"
	exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/decode-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT

python3 - "$T" <<'PY'
import struct, sys, os
t = sys.argv[1]
def w(name, data):
    open(os.path.join(t, name), 'wb').write(data)
def legacy(fmt, dse=0x21, lat=7, status=1):
    size = {0: 0x90, 1: 0xb0, 2: 0xc0, 3: 0xc8}[fmt]
    r = bytearray(size)
    # FLAGS IP AX BX CX DX SI DI BP SP R8..R15
    for i in range(18):
        struct.pack_into('<Q', r, 8 * i, 0x1000 + i)
    if fmt >= 1:
        struct.pack_into('<QQQQ', r, 0x90, status, 0x7fff0000, dse, lat)
    if fmt >= 2:
        struct.pack_into('<QQ', r, 0xb0, 0x400ffe, (1 << 33) | 55)
        struct.pack_into('<Q', r, 0x10, 0xab000001)  # RAX: explicit XABORT 0xab
    if fmt >= 3:
        struct.pack_into('<Q', r, 0xc0, 123456)
    return bytes(r)
w('fmt0.bin', legacy(0) * 2)
w('fmt1.bin', legacy(1, dse=0x5, lat=40))
w('fmt3.bin', legacy(3) * 2)
w('fmt3-trunc.bin', legacy(3) * 2 + legacy(3)[:50])
w('glm.bin', legacy(3))
# adaptive fmt6: basic + meminfo + GP + LBR(1) + counters(PMC0)
cfg = 0x1 | 0x2 | 0x8 | 0x10 | (0 << 24) | (1 << 32)
size = 0x20 + 0x20 + 0x90 + 0x18 + 0x10 + 8
r = bytearray(size)
struct.pack_into('<QQQQ', r, 0, (size << 48) | (25 << 32) | (cfg & 0xffffffff), 0x401500, 1, 0xabc)
struct.pack_into('<QQQQ', r, 0x20, 0x7f0000001000, 0x1 | (1 << 10), (30 << 32) | 4, 0)
for i in range(18):  # flags ip ax cx dx bx sp bp si di r8..r15
    struct.pack_into('<Q', r, 0x40 + 8 * i, 0x2000 + i)
struct.pack_into('<QQQ', r, 0xd0, 0xa, 0xb, 0xc)
struct.pack_into('<IIII', r, 0xe8, 1, 0, 0, 0)
struct.pack_into('<Q', r, 0xf8, 777)
w('fmt6.bin', bytes(r))
open(os.path.join(t, 'fmt6.cfg'), 'w').write('%x' % cfg)
# adaptive: a record with size field 0 after a good one; one running past the end
good = bytearray(0x40)
struct.pack_into('<QQQQ', good, 0, (0x40 << 48) | 1, 0x401000, 1, 1)
struct.pack_into('<Q', good, 0x28, 0x3)
w('size0.bin', bytes(good) + bytes(0x40))
bad = bytearray(good); struct.pack_into('<Q', bad, 0, (0x80 << 48) | 1)
w('pastend.bin', bytes(good) + bytes(bad))
# arch-PEBS: basic + aux
a = bytearray(0x80)
struct.pack_into('<Q', a, 0, 0x80 | (1 << 63) | (1 << 62))
struct.pack_into('<QQQQ', a, 0x10, 0x402000, 1, 5, (1 << 16) | 7)
struct.pack_into('<Q', a, 0x40, 0x7f00aa00)
struct.pack_into('<QQ', a, 0x40 + 0x28, 0x11, (250 << 32) | 6)
w('arch.bin', bytes(a))
# a dump file (docs/DECODER.md): header, one counter, two fmt3 records
def dump(recs, uarch=b'skl', fmt=3, kind=b'ldlat', reclen=None):
    h = bytearray(0x50 + 0x40)
    h[0:8] = b'PEBSDUMP'
    struct.pack_into('<HHIII', h, 8, 1, 0x90, 0, fmt, 1)
    h[0x18:0x18 + len(uarch)] = uarch
    h[0x20:0x20 + len(kind)] = kind
    struct.pack_into('<QQQ', h, 0x30, 0, 1, len(recs) if reclen is None else reclen)
    struct.pack_into('<IIQ', h, 0x50, 0, 0, 0x1cd)
    name = b'MEM_TRANS_RETIRED.LOAD_LATENCY'
    h[0x60:0x60 + len(name)] = name
    return bytes(h) + recs
w('dump.bin', dump(legacy(3) * 2))
# version 2 (docs/DECODER.md): flags bit 2 = records from the simulated PMU
def dump2(recs, flags):
    h = bytearray(dump(recs))
    struct.pack_into('<HHI', h, 8, 2, 0x90, flags)
    return bytes(h)
w('dump-sim.bin', dump2(legacy(3) * 2, 4))
w('dump-hw.bin', dump2(legacy(3) * 2, 0))
# validation anomalies (applicable counters outside --pebs-enabled 0x1): the
# records at 0xc8 and 0x258 are stepped over, the others decode
w('fmt3-badapp.bin', legacy(3) + legacy(3, status=2) + legacy(3) + legacy(3, status=4) + legacy(3))
# a stepped-over record, then a truncated one: the walk stops at 0x190
w('fmt3-badapp-trunc.bin', legacy(3) + legacy(3, status=2) + legacy(3)[:50])
w('dump-baduarch.bin', dump(legacy(3), uarch=b'zen4'))
w('dump-trunc.bin', dump(legacy(3) * 2, reclen=3 * 0xc8))
# a header that declares 0 record bytes, then 190 records (37 KB)
w('dump-reclen0.bin', dump(legacy(3) * 190, reclen=0))
# spr's second counter, named with its code as pmu/plan.c names it
def dump_aux(recs):
    h = bytearray(dump(recs, uarch=b'spr'))
    struct.pack_into('<HHIII', h, 8, 2, 0xd0, 0, 3, 2)
    c = bytearray(0x40)
    struct.pack_into('<IIQ', c, 0, 1, 0, 0x8203)
    c[0x10:0x10 + 22] = b'mem-loads-aux (0x8203)'
    return bytes(h[:0x90]) + bytes(c) + recs
w('dump-aux.bin', dump_aux(legacy(3)))
# streaming: 9 MB of adaptive records (basic, meminfo, GPRs) of 0xd0 bytes
# (not a divisor of the 4 MiB window, so records straddle every refill),
# 16 distinct ones repeated
blk = bytearray()
for i in range(16):
    r = bytearray(0xd0)
    struct.pack_into('<QQQQ', r, 0, (0xd0 << 48) | 0x3, 0x401000 + i, 1, 1000 + i)
    struct.pack_into('<QQQQ', r, 0x20, 0x7f0000000000 + 64 * i, (i * 7) & 0xf, (5 + 37 * i) << 32, 0)
    for g in range(18):
        struct.pack_into('<Q', r, 0x40 + 8 * g, 0x1000 * i + g)
    blk += r
w('small.bin', bytes(blk))
w('big.bin', bytes(blk) * 2700)
PY

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

# run NAME EXPECTED_RC ARGS... : stdout in $T/out, stderr in $T/err
run() {
	local name=$1 want=$2 rc
	shift 2
	"$D" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$name" "exit $rc, want $want; stderr: $(head -c 300 "$T/err")"
		return 1
	fi
	return 0
}

# pyjson NAME SCRIPT: checks $T/out (JSON Lines) with python assertions
pyjson() {
	local name=$1 why
	if why=$(python3 - "$T/out" "$2" 2>&1 <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
recs = [json.loads(l) for l in lines]
# perf_mem_data_src from the UAPI bit definitions
OP_LOAD, LVL_HIT, LVL_L1 = 2, 2 << 5, 8 << 5
SNP_NONE = 2 << 19
TLB_HIT, TLB_MISS, TLB_L1, TLB_L2 = 2 << 26, 4 << 26, 8 << 26, 0x10 << 26
LOCKED = 2 << 24
NUM = lambda n: n << 33
BLK_NA = 1 << 40
LVL_LOC_RAM = 0x80 << 5
def hexs(v): return '0x%x' % v
exec(sys.argv[2])
PY
); then
		pass "$name"
	else
		fail "$name" "$(echo "$why" | tail -1)"
	fi
}

if run json-fmt3 0 --format 3 --uarch skl --output json "$T/fmt3.bin"; then
	pyjson json-fmt3 '
assert len(recs) == 2, len(recs)
r = recs[0]
assert r["offset"] == 0 and recs[1]["offset"] == 200 and r["size"] == 200
assert r["ip"] == "0x400ffe"                       # EventingIP at 0xB0
assert r["applicable_counters"] == "0x1" and r["data_la"] == "0x7fff0000"
assert r["dse"] == "0x21" and r["latency"] == 7 and r["tsc"] == "0x1e240"
want = OP_LOAD | LVL_HIT | LVL_L1 | NUM(1) | SNP_NONE | TLB_HIT | TLB_L1 | TLB_L2 | LOCKED | BLK_NA
m = r["mem"]
assert m["data_src"] == hexs(want), (m["data_src"], hexs(want))
assert (m["op"], m["level"], m["snoop"], m["tlb"], m["lock"], m["blocked"]) == \
       ("LOAD", "L1 hit", "None", "L1 or L2 hit", "Yes", "N/A"), m
g = r["regs"]
assert g["rflags"] == "0x1000" and g["rip"] == "0x1001" and g["rax"] == "0xab000001"
assert g["rbx"] == "0x1003" and g["rcx"] == "0x1004" and g["rdx"] == "0x1005"
assert g["rsi"] == "0x1006" and g["rdi"] == "0x1007" and g["rbp"] == "0x1008"
assert g["rsp"] == "0x1009" and g["r8"] == "0x100a" and g["r15"] == "0x1011"
x = r["tsx"]
assert x == {"cycles": 55, "flags": ["rtm"], "xabort": 0xab}, x
for k in ("ip", "tsc", "dse", "data_la"):
    assert r[k] == r[k].lower() and r[k].startswith("0x")
'
fi

if run json-fmt0-fmt1 0 --format 0 --output json "$T/fmt0.bin"; then
	pyjson json-fmt0 '
assert len(recs) == 2 and recs[0]["ip"] == "0x1001" and "mem" not in recs[0]
assert "data_la" not in recs[0] and "tsx" not in recs[0] and recs[1]["offset"] == 144
'
fi
if run json-fmt1 0 --format 1 --uarch nhm --output json "$T/fmt1.bin"; then
	pyjson json-fmt1-nhm '
r = recs[0]
assert r["ip"] == "0x1001" and r["latency"] == 40 and "tsc" not in r
# NHM row 5: L3 hit, snoop Hit; TLB NA | LOCK NA
want = OP_LOAD | LVL_HIT | (0x40 << 5) | NUM(3) | (4 << 19) | (1 << 26) | (1 << 24)
assert r["mem"]["data_src"] == hexs(want), r["mem"]
assert r["mem"]["level"] == "L3 hit" and r["mem"]["snoop"] == "Hit"
'
fi

if run json-fmt6 0 --format 6 --uarch lnc --data-cfg "$(cat "$T/fmt6.cfg")" --timed --output json "$T/fmt6.bin"; then
	pyjson json-fmt6-adaptive '
r = recs[0]
assert r["ip"] == "0x401500" and r["retire_latency"] == 25
assert r["latency"] == 30 and r["instr_latency"] == 4
g = r["regs"]   # adaptive order: ax cx dx bx sp bp si di
assert (g["rax"], g["rcx"], g["rdx"], g["rbx"]) == ("0x2002", "0x2003", "0x2004", "0x2005"), g
assert (g["rsp"], g["rbp"], g["rsi"], g["rdi"]) == ("0x2006", "0x2007", "0x2008", "0x2009"), g
assert r["lbr"] == [{"from": "0xa", "to": "0xb", "info": "0xc"}], r["lbr"]
assert r["counters"] == ["0x309"], r["counters"]
want = OP_LOAD | LVL_HIT | LVL_L1 | NUM(1) | SNP_NONE | TLB_MISS | TLB_L2 | BLK_NA
assert r["mem"]["data_src"] == hexs(want) and r["mem"]["tlb"] == "L2 miss", r["mem"]
'
fi

if run json-arch 0 --format arch --uarch lnc --output json "$T/arch.bin"; then
	pyjson json-arch '
r = recs[0]
assert r["ip"] == "0x402000" and r["retire_latency"] == 7 and r["latency"] == 250
assert r["instr_latency"] == 6 and r["data_la"] == "0x7f00aa00"
want = OP_LOAD | LVL_HIT | LVL_LOC_RAM | NUM(0xd) | SNP_NONE | TLB_HIT | TLB_L1 | TLB_L2 | BLK_NA
assert r["mem"]["data_src"] == hexs(want) and r["mem"]["level"] == "Local RAM hit", r["mem"]
'
fi

if run glm-not-available 0 --format 3 --uarch glm "$T/glm.bin"; then
	grep -q 'level="not available"' "$T/out" && pass glm-not-available ||
		fail glm-not-available "no 'not available' in: $(cat "$T/out")"
fi

# error_case NAME FILE_OFFSET_HEX RECORDS_BEFORE ARGS...
error_case() {
	local name=$1 off=$2 nrec=$3
	shift 3
	run "$name" 1 "$@" || return
	local lines n
	lines=$(wc -l <"$T/err")
	n=$(wc -l <"$T/out")
	if [ "$lines" -ne 1 ]; then
		fail "$name" "want one stderr line, got $lines: $(cat "$T/err")"
	elif ! grep -q "offset $off" "$T/err"; then
		fail "$name" "stderr lacks 'offset $off': $(cat "$T/err")"
	elif [ "$n" -ne "$nrec" ]; then
		fail "$name" "want $nrec records printed before the fault, got $n"
	else
		pass "$name"
	fi
}
error_case truncated 0x190 2 --format 3 --uarch skl --output json "$T/fmt3-trunc.bin"
error_case size-zero 0x40 1 --format 4 --uarch icl --data-cfg 1 --output json "$T/size0.bin"
error_case size-past-end 0x40 1 --format 4 --uarch icl --data-cfg 1 --output json "$T/pastend.bin"
# A file that is no dump, without --format: the user's mistake, exit 2 (README, Exit codes)
if run not-a-dump 2 "$T/fmt3.bin"; then
	if [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ] &&
		grep -q 'offset 0x0: not a pebs dump .*accepted: .*--format' "$T/err"; then
		pass not-a-dump
	else
		fail not-a-dump "want one line naming --format, no output: $(cat "$T/err")"
	fi
fi
error_case dump-bad-uarch 0x18 0 "$T/dump-baduarch.bin"
# dump: records at file offset 0x90; the third record (at 0x220) is missing
error_case dump-truncated 0x220 2 --output json "$T/dump-trunc.bin"

if run dump-json 0 --output json "$T/dump.bin"; then
	pyjson dump-json '
assert [r["offset"] for r in recs] == [0x90, 0x90 + 200], recs
assert recs[0]["mem"]["level"] == "L1 hit"
'
fi
if run dump-text 0 "$T/dump.bin"; then
	if grep -q '^# pebs dump: fmt=3 uarch=skl kind=ldlat' "$T/out" &&
	   grep -q '^# counter PMC0: MEM_TRANS_RETIRED.LOAD_LATENCY (0x1cd)' "$T/out" &&
	   [ "$(grep -c '^offset=' "$T/out")" -eq 2 ]; then
		pass dump-text
	else
		fail dump-text "unexpected: $(head -3 "$T/out")"
	fi
fi
# the simulated flag: in the text and summary headers, and in every JSON record of a dump
if run dump-sim-text 0 "$T/dump-sim.bin"; then
	if grep -q '^# pebs dump: fmt=3 uarch=skl kind=ldlat .* simulated=1 version=2$' "$T/out" &&
	   [ "$(grep -c '^offset=' "$T/out")" -eq 2 ]; then
		pass dump-sim-text
	else
		fail dump-sim-text "unexpected: $(head -2 "$T/out")"
	fi
fi
if run dump-hw-summary 0 --output summary "$T/dump-hw.bin"; then
	if grep -q '^# pebs dump: .* simulated=0 version=2$' "$T/out" &&
	   grep -q '^summary: 2 records' "$T/out"; then
		pass dump-hw-summary
	else
		fail dump-hw-summary "unexpected: $(head -3 "$T/out")"
	fi
fi
if run dump-v1-text 0 "$T/dump.bin"; then
	grep -q 'simulated=0 version=1$' "$T/out" && pass dump-v1-text ||
		fail dump-v1-text "$(head -1 "$T/out")"
fi
if run dump-sim-json 0 --output json "$T/dump-sim.bin"; then
	pyjson dump-sim-json '
assert len(recs) == 2 and all(r["simulated"] is True for r in recs), recs
'
fi
if run dump-hw-json 0 --output json "$T/dump-hw.bin"; then
	pyjson dump-hw-json '
assert len(recs) == 2 and all(r["simulated"] is False for r in recs), recs
'
fi
# a headerless buffer says nothing of where it came from
if run headerless-json-no-simulated 0 --format 3 --uarch skl --output json "$T/fmt3.bin"; then
	pyjson headerless-json-no-simulated '
assert len(recs) == 2 and all("simulated" not in r for r in recs), recs
'
fi

# A header that declares fewer record bytes than follow it: one error line
# naming both counts, exit 1 (the bytes it does not declare are not decoded).
if run dump-reclen0 1 --output json "$T/dump-reclen0.bin"; then
	if [ "$(wc -l <"$T/err")" -eq 1 ] &&
	   grep -q 'dump header says 0 record bytes (offset 0x40), but 38000 follow' "$T/err" &&
	   [ ! -s "$T/out" ]; then
		pass dump-reclen0
	else
		fail dump-reclen0 "$(wc -l <"$T/out") records; $(cat "$T/err")"
	fi
fi
# A directory is no dump: named as such, exit 2 (an argument error).
if run directory 2 "$T"; then
	grep -q "^pebs-decode: $T: is a directory (accepted: " "$T/err" && [ ! -s "$T/out" ] &&
		pass directory || fail directory "$(cat "$T/err")"
fi
# - reads standard input: the same bytes as from the file, through a pipe.
"$D" --output json "$T/dump.bin" >"$T/file.json" 2>&1
if cat "$T/dump.bin" | "$D" --output json - >"$T/out" 2>"$T/err" && [ -s "$T/out" ] &&
   cmp -s "$T/out" "$T/file.json"; then
	pass stdin
else
	fail stdin "stdin output differs from the file's: $(head -c 200 "$T/err")"
fi
# The header line shows the values the records were decoded with, and names the overrides.
if run header-overrides 0 --data-cfg 0x5 --uarch icx --output summary "$T/dump.bin"; then
	grep -q '^# pebs dump: fmt=3 uarch=icx kind=ldlat data_cfg=0x5 timed=0 adaptive=1 simulated=0 version=1 overridden=--uarch,--data-cfg$' "$T/out" &&
		pass header-overrides || fail header-overrides "$(head -1 "$T/out")"
fi
# A counter name that already carries its code does not get it twice.
if run counter-code-once 0 "$T/dump-aux.bin"; then
	grep -qx '# counter PMC1: mem-loads-aux (0x8203)' "$T/out" &&
		grep -qx '# counter PMC0: MEM_TRANS_RETIRED.LOAD_LATENCY (0x1cd)' "$T/out" &&
		pass counter-code-once || fail counter-code-once "$(grep '^# counter' "$T/out")"
fi
# Streaming: 9 MB, read in windows, from the file and from a pipe, gives the
# small block's records again and again, at their own offsets.
"$D" --format 4 --uarch icl --data-cfg 0x3 --output json "$T/small.bin" >"$T/small.json"
for src in file pipe; do
	if [ $src = file ]; then
		"$D" --format 4 --uarch icl --data-cfg 0x3 --output json "$T/big.bin" >"$T/out" 2>"$T/err"
	else
		cat "$T/big.bin" | "$D" --format 4 --uarch icl --data-cfg 0x3 --output json - >"$T/out" 2>"$T/err"
	fi
	if why=$(python3 - "$T/small.json" "$T/out" <<'PY' 2>&1
import json, sys
small = [json.loads(l) for l in open(sys.argv[1])]
n = 0
for n, line in enumerate(open(sys.argv[2])):
    r = json.loads(line)
    want = dict(small[n % 16]); want["offset"] = n * 0xd0
    assert r == want, (n, r, want)
assert n + 1 == 16 * 2700, n + 1
PY
	); then pass "stream-big-$src"; else fail "stream-big-$src" "$(echo "$why" | tail -1)"; fi
done

# A record that breaks a validation rule is reported and stepped over (as the
# app's runner does); the records after it still decode; exit 1.
if run stepped-over 1 --format 3 --uarch skl --pebs-enabled 0x1 --output json "$T/fmt3-badapp.bin"; then
	if [ "$(wc -l <"$T/err")" -eq 2 ] && grep -q 'offset 0xc8: ' "$T/err" &&
	   grep -q 'offset 0x258: ' "$T/err" && [ "$(wc -l <"$T/out")" -eq 3 ]; then
		pyjson stepped-over '
assert [r["offset"] for r in recs] == [0, 0x190, 0x320], recs
'
	else
		fail stepped-over "want 3 records and 2 error lines: $(wc -l <"$T/out") records; $(cat "$T/err")"
	fi
fi
# ... but a structural fault after it still ends the walk there.
if run stepped-then-truncated 1 --format 3 --uarch skl --pebs-enabled 0x1 --output json \
	"$T/fmt3-badapp-trunc.bin"; then
	if [ "$(wc -l <"$T/err")" -eq 2 ] && grep -q 'offset 0xc8: ' "$T/err" &&
	   grep -q 'offset 0x190: ' "$T/err" && [ "$(wc -l <"$T/out")" -eq 1 ]; then
		pass stepped-then-truncated
	else
		fail stepped-then-truncated "$(wc -l <"$T/out") records; $(cat "$T/err")"
	fi
fi

# options override the dump header: --uarch glm makes the data source reserved
if run dump-override 0 --uarch glm "$T/dump.bin"; then
	grep -q 'not available' "$T/out" && pass dump-override || fail dump-override "no override"
fi

if run csv 0 --format 3 --uarch skl --output csv "$T/fmt3.bin"; then
	if [ "$(head -1 "$T/out" | cut -d, -f1-3)" = "offset,size,ip" ] && [ "$(wc -l <"$T/out")" -eq 3 ] &&
	   [ "$(sed -n 2p "$T/out" | cut -d, -f13)" = "L1 hit" ]; then
		pass csv
	else
		fail csv "$(head -2 "$T/out")"
	fi
fi
if run summary 0 --format 3 --uarch skl --output summary "$T/fmt3.bin"; then
	if grep -q '^summary: 2 records, 1 data sources' "$T/out" &&
	   grep -qE '^LOAD L1 hit, snoop None +2 100.0% +7 +7 +7 +7 +7$' "$T/out" &&
	   grep -q '|########################################$' "$T/out"; then
		pass summary
	else
		fail summary "$(cat "$T/out")"
	fi
fi

# usage: exit 2 with one line naming the option and the accepted values
usage_case() {
	local name=$1 pat=$2
	shift 2
	run "$name" 2 "$@" || return
	if grep -q -- "$pat" "$T/err" && [ ! -s "$T/out" ]; then
		pass "$name"
	else
		fail "$name" "stderr lacks '$pat': $(cat "$T/err")"
	fi
}
usage_case bad-format "--format '7'.*accepted: 0 1 2 3 4 5 6 arch" --format 7 "$T/fmt3.bin"
usage_case bad-uarch "--uarch 'zen4'.*core2 nhm wsm snb ivb hsw bdw skl skx icl icx spr emr gnr glc grt cmt lnc glm slm" --format 3 --uarch zen4 "$T/fmt3.bin"
usage_case bad-kind "--kind 'load'.*ldlat store stlat datala-load datala-store other" --format 3 --kind load "$T/fmt3.bin"
usage_case bad-output "--output 'xml'.*json csv text summary" --format 3 --output xml "$T/fmt3.bin"
usage_case bad-data-cfg "--data-cfg 'zz'" --format 4 --data-cfg zz "$T/fmt3.bin"
usage_case unknown-option "unknown option '--frobnicate'" --frobnicate "$T/fmt3.bin"
usage_case no-file "no FILE" --format 3
usage_case missing-value "needs a value" --format 3 --uarch
usage_case missing-file "nonexistent.bin: No such file or directory (accepted: a readable dump" --format 3 "$T/nonexistent.bin"
run help 0 --help && grep -q '^usage: pebs-decode' "$T/out" && pass help
exit 0
