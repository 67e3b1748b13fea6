#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bench screen: the default job's console (serial, and the log file,
# which the screen shows the same) has no line wider than 80 columns from
# the banner on (longer lines go on indented continuation lines), no REC
# lines unless records=N asks for them, and closes with a verdict table
# that fits an 80x25 screen together with the lines after it.
. "$(dirname "$0")/lib.sh"

# cpus=boot: the table has one cell per kernel and sampling, no CPU column
# (every CPU's verdicts and the per-CPU table: test-percpu.sh).
boot default --smp 2 -- cpus=boot
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
# that gave a verdict, each cell the console's verdict.
tail_lines=$(sed -n '/^VERDICTS: /,$p' "$T/default.raw" | wc -l)
if [ "$tail_lines" -ge 3 ] && [ "$tail_lines" -le 25 ]; then
	pass "default: the verdict table and the closing lines fit 25 rows ($tail_lines)"
else
	fail "default: verdict table" "$tail_lines lines from VERDICTS: to the end"
fi
expect_line "default: the table's count line" "$T/default.out" \
	'^VERDICTS: 17 tests: 17 PASS, 0 FAIL, 0 SKIP \[sim\]$'
bad=""
while read -r v name; do
	k=${name%%/*} s=${name#*/}
	col=$(sed -n '/^kernel /{s/ \[sim\]$//;p;q}' "$T/default.raw" | tr -s ' ' '\n' | grep -nx "$s" | cut -d: -f1)
	cell=""
	[ -n "$col" ] && cell=$(sed -n "/^$k /{s/ \\[sim\\]\$//;p;q}" "$T/default.raw" |
		tr -s ' ' '\n' | sed -n "${col}p")
	[ "$cell" = "$v" ] || bad="$bad $name:$v/$cell"
done < <(sed -n 's/^\(PASS\|FAIL\|SKIP\): \([^: ]*\).*/\1 \2/p' "$T/default.out")
if [ -z "$bad" ]; then pass "default: each table cell is its verdict line's"; else
	fail "default: table cells" "$bad"; fi

boot recs -- pmu=sim model=skl kernels=chase-l1 records=3
expect_line "records=3: REC lines on request" "$T/recs.out" '^REC: offset=0x0 '
n=$(grep -c '^REC: ' "$T/recs.out")
if [ "$n" = 3 ]; then pass "records=3: 3 REC lines for the one sampling"; else
	fail "records=3" "$n REC lines"; fi
