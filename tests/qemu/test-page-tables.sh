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
# the firmware's 2048 where CR3 was kept.  Last, a chase-dram long enough
# for progress lines on two CPUs: each progress line is printed after the
# write of the firmware's CR3 back (docs/ARCHITECTURE.md "Firmware only
# under its own page tables").
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

# Each progress line the boot CPU prints live follows a wrcr3 whose value is
# the firmware's CR3 (the "was" of the first write).  An AP's lines come
# later, held back, after the BSP's "N lines held back by the measured CPU
# (cpu C)": the BSP prints them under its own, the firmware's, CR3.
progress_after_fw() { # file
	awk 'held > 0 { held--; next }
	/^INFO: [0-9]+ lines? held back by the measured CPU \(cpu [1-9]/ { held = $2; next }
	/^MSR: wrcr3 0x[0-9a-f]+ \(was 0x[0-9a-f]+\)/ {
		if (!fw) { fw = $5; sub(/\)$/, "", fw) }
		last = $3
	}
	/^INFO: chase-dram: running, / && !bad {
		n++
		if (last != fw) bad = "\"" $0 "\" after a write of " (last ? last : "nothing") ", not " fw
	}
	END {
		if (bad) { print bad; exit 1 }
		if (!n) { print "no progress line"; exit 1 }
		print n " progress lines after the firmware CR3 " fw
	}' "$1"
}

boot progress --smp 2 -- kernels=chase-dram iterations=400000 trace=msr verbose=1 results=none
o=$T/progress.out
expect_rc progress 0
if why=$(progress_after_fw "$o"); then
	pass "progress: each progress line after the firmware's CR3 back ($why)"
else
	fail "progress: each progress line after the firmware's CR3 back" "$why"
fi
if why=$(cr3_restored "$o"); then
	pass "progress: the firmware's CR3 restored ($why)"
else
	fail "progress: the firmware's CR3 restored" "$why"
fi
expect_no_line "progress: no platform call under our CR3" "$o" '^ERROR: fw-cr3: '
