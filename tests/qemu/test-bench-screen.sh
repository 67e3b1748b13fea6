#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bench screen: the default job's console (serial, and the log file,
# which the screen shows the same) has no line wider than 80 columns from
# the banner on (longer lines go on indented continuation lines), no REC
# lines (records=N asks for them: tests/qemu/boots.cfg [records]), and
# closes with a verdict table that fits an 80x25 screen together with the
# lines after it: with more than one CPU, a cpus column and cells that name
# a disagreeing CPU.
. "$(dirname "$0")/lib.sh"
# The default job on two CPUs under TCG: it took 2.0 times the no-op boot
# beside a second boot; 5 times that (budget.sh).
BOOT_FACTOR=10

# table_cells NAME: each row's cpus column and each cell, worked out from
# the verdict lines above the table ("; cpu N (APIC"): the CPUs that gave
# the kernel a verdict; a cell its CPUs agree on is their word, else the
# worst of FAIL, SKIP, PASS with the CPUs that gave it ("FAIL@1").
table_cells() {
	# the per-CPU verdict lines: the log file's (the console sums them up)
	logfile "$1"
	python3 - "$T/$1.raw" "$T/$1.log" <<'PY'
import re, sys
raw = [l.rstrip("\n") for l in open(sys.argv[1])]
out = [l.rstrip("\n") for l in open(sys.argv[2])]
cut = lambda l: re.sub(r" \[sim\]$", "", l).split()
v = {}
for l in out:
    m = re.match(r"(PASS|FAIL|SKIP): ([^:/ ]+)/([^:@ ]+)(@cpu\d+)?: .*; cpu (\d+) \(APIC", l)
    if m:
        v.setdefault((m[2], m[3]), {})[int(m[5])] = m[1]
start = next(i for i, l in enumerate(raw) if l.startswith("VERDICTS: "))
head = cut(raw[start + 1])
assert head[:2] == ["kernel", "cpus"], "no cpus column: %s" % raw[start + 1]
bad, rows = [], 0
for l in raw[start + 2:]:
    f = cut(l)
    if not f or f[0] in ("other:", "SUMMARY:", "INFO:"):
        break
    rows += 1
    k = f[0]
    cpus = sorted({c for (kk, s), d in v.items() if kk == k for c in d})
    if f[1] != ",".join(map(str, cpus)):
        bad.append("%s cpus %s, want %s" % (k, f[1], cpus))
    for col, s in enumerate(head[2:], 2):
        # A column head is the sampling's name cut to the column's width.
        d = {}
        for (kk, ss), dd in v.items():
            if kk == k and ss.startswith(s):
                d.update(dd)
        if not d:
            want = "-"
        elif len(set(d.values())) == 1:
            want = next(iter(d.values()))
        else:
            w = next(w for w in ("FAIL", "SKIP", "PASS") if w in d.values())
            want = w + "@" + ",".join(str(c) for c in sorted(d) if d[c] == w)
        if f[col] != want:
            bad.append("%s/%s %s, want %s" % (k, s, f[col], want))
print("%d rows, %d cells, %s" % (rows, sum(len(d) for d in v.values()),
      "; ".join(bad) if bad else "ok"))
PY
}

# Every CPU (cpus=all, two of them): a cpus column, still 80x25.
boot default --smp 2
expect_rc default 0
wide=$(awk 'length > 80' "$T/default.raw" | head -2)
if [ -z "$wide" ] && [ -s "$T/default.raw" ]; then
	pass "default: all $(wc -l <"$T/default.raw") console lines within 80 columns"
else
	fail "default: a line wider than 80 columns" "$wide"
fi
if mtype -i "$T/default.img" ::/EFI/BOOT/pebsprobe.log | awk 'length > 80 { bad = 1 } END { exit bad }'; then
	pass "default: the log file's lines within 80 columns too"
else
	fail "default: log" "a line wider than 80 columns"
fi
expect_no_line "default: no REC lines (records=0)" "$T/default.raw" '^REC: '
# The table: from VERDICTS to the end, at most 25 lines; one row per kernel
# that gave a verdict, each cell the console's verdicts of its CPUs.
tail_lines=$(sed -n '/^VERDICTS: /,$p' "$T/default.raw" | wc -l)
if [ "$tail_lines" -ge 3 ] && [ "$tail_lines" -le 25 ]; then
	pass "default: the verdict table and the closing lines fit 25 rows ($tail_lines)"
else
	fail "default: verdict table" "$tail_lines lines from VERDICTS: to the end"
fi
# 17 verdicts and 3 latency calibrations on each CPU, cpu-compare,
# firmware-handoff and handoff-restored
expect_line "default: the table's count line" "$T/default.out" \
	'^VERDICTS: 43 tests: 43 PASS, 0 FAIL, 0 SKIP$'
cells=$(table_cells default 2>&1)
case $cells in
*", ok") pass "default: each row's CPUs and cells are its verdict lines' ($cells)" ;;
*) fail "default: table cells" "$cells" ;;
esac

# One CPU broken: its cells name it, within 80 columns.
boot broken --smp 2 -- sim-fault=cpu1:no-records kernels=chase-l1,stream-store,split-line
expect_rc broken 1
cells=$(table_cells broken 2>&1)
case $cells in
*", ok") pass "broken: each row's CPUs and cells are its verdict lines' ($cells)" ;;
*) fail "broken: table cells" "$cells" ;;
esac
expect_line "broken: a cell names CPU 1" "$T/broken.raw" '^chase-l1 +0,1 +FAIL@1 '
wide=$(sed -n '/^VERDICTS: /,$p' "$T/broken.raw" | awk 'length > 80' | head -1)
if [ -z "$wide" ]; then pass "broken: the table within 80 columns"; else
	fail "broken: a table line wider than 80 columns" "$wide"; fi

# One CPU (cpus=boot): no cpus column.
boot boot --smp 2 -- cpus=boot kernels=chase-l1
expect_line "cpus=boot: no cpus column" "$T/boot.raw" '^kernel +load( +[a-z-]+)*( \[sim\])?$'
