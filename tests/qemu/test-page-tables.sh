#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# page-walk's STLB misses whatever pages the firmware maps memory with: the
# simulated firmware uses 2 MiB, then 1 GiB pages (sim-pages=), pebsprobe
# runs the kernel under page tables of its own with the buffer in 4 KiB
# pages (pmu/paging.h), and page-walk/load PASSes on an STLB-miss share it
# measured.  The trace (trace=msr) shows each switch to those tables and
# the firmware's CR3 written back after it, the last CR3 write being the
# firmware's (docs/KERNELS.md "Page tables of our own").  Then a CPU
# that loses CR3 writes (sim-fault=cpu0:cr3-kept): the kernel runs under
# the firmware's 2 MiB pages, page-walk/load SKIPs naming them, and the
# trace check above refuses that trace.  Each boot's results.json says
# which pages page-walk/load ran under (page_kib, docs/RESULTS.md): 4, or
# the firmware's 2048 where CR3 was kept.
. "$(dirname "$0")/lib.sh"

# page_kib of the page-walk/load run in the results.json a boot left on its ESP.
page_kib() { # name
	mtype -i "$T/$1.img" ::/EFI/BOOT/results.json 2>/dev/null | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
    print(next(r.get("page_kib") for k in d.get("kernels", []) for r in k.get("runs", [])
               if r["test"] == "page-walk/load"))
except (ValueError, StopIteration) as e:
    print("none (%s)" % (e or "no page-walk/load run"))'
}

expect_page_kib() { # name want
	local got
	got=$(page_kib "$1")
	if [ "$got" = "$2" ]; then
		pass "$1: results.json: page-walk/load ran in $2 KiB pages"
	else
		fail "$1: results.json: page-walk/load ran in $2 KiB pages" "page_kib $got"
	fi
}

# Every "wrcr3 OURS (was FW)" is followed by "wrcr3 FW (was OURS)", and the
# last write gives the CPU the CR3 it had before the first.
cr3_restored() { # file
	awk '/^MSR: wrcr3 0x[0-9a-f]+ \(was 0x[0-9a-f]+\)/ {
		new = $3; was = $5; sub(/\)$/, "", was)
		if (!n++) first = was
		if (open) {
			if (new != fw || was != ours) { bad = 1; exit }
			open = 0
		} else {
			ours = new; fw = was; open = 1
		}
		last = new
	}
	END {
		if (bad) { print "a write other than the firmware CR3 after " ours; exit 1 }
		if (!n) { print "no wrcr3 line"; exit 1 }
		if (open) { print "no write back after " ours; exit 1 }
		if (last != first) { print "last CR3 " last ", before " first; exit 1 }
		print n " CR3 writes, firmware CR3 " first " restored"
	}' "$1"
}

for pages in 2m 1g; do
	boot "pages-$pages" -- pmu=sim model=skl kernels=page-walk sim-pages="$pages" \
		trace=msr verbose=1
	o=$T/pages-$pages.out
	expect_rc "pages-$pages" 0
	expect_page_kib "pages-$pages" 4
	expect_line "pages-$pages: the buffer in 4 KiB pages of our own" "$o" \
		'^INFO: kernel page-walk: buffer in 4 KiB pages, CR3 0x[0-9a-f]+$'
	expect_line "pages-$pages: page-walk/load PASSes on a measured STLB-miss share" "$o" \
		'^PASS: page-walk/load: STLB misses [0-9.]+% >= 50\.0% \([0-9]+ of [0-9]+\)'
	if why=$(cr3_restored "$o"); then
		pass "pages-$pages: the firmware's CR3 restored ($why)"
	else
		fail "pages-$pages: the firmware's CR3 restored" "$why"
	fi
	expect_no_line "pages-$pages: no FAIL line" "$o" '^FAIL: '
done

boot kept -- pmu=sim model=skl kernels=page-walk sim-pages=2m sim-fault=cpu0:cr3-kept \
	trace=msr verbose=1
o=$T/kept.out
expect_page_kib kept 2048
expect_line "cr3-kept: page-walk/load SKIPs under the firmware's pages" "$o" \
	'^SKIP: page-walk/load: STLB misses unchecked \(the buffer ran in 2048 KiB pages\)'
if why=$(cr3_restored "$o"); then
	fail "cr3-kept: the trace check refuses a switch not taken" "it accepted: $why"
else
	pass "cr3-kept: the trace check refuses a switch not taken ($why)"
fi
