#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Serial is never silent for long during the main job: on several CPUs the
# per-CPU verdicts go to the log file, so the BSP says how far the job is
# (a "cpu N of M done" line, or "waiting for CPU n ...; cpu N of M, ...")
# once the console has been quiet 5 s (lib/cpurun.c, job/job.c).  One boot
# of 8 CPUs and four kernels; each serial line is timestamped as it comes,
# and no gap between "INFO: main job:" and the first line after the job
# (the per-test lines across CPUs) may exceed 10 s.
. "$(dirname "$0")/lib.sh"

qemu_noop_init
limit=$(qemu_limit 12)
./run-qemu.sh --timeout "$limit" --smp 8 -- kernels=chase-l1,chase-l2,chase-dram,page-walk \
	results=none dump=off 2>"$T/progress.err" |
	while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >"$T/progress.ts"
gap=$(awk '/ INFO: main job: / { on = 1; last = $1; next }
	on { d = $1 - last; if (d > max) max = d; last = $1 }
	on && / (PASS|FAIL|SKIP): [^ ]+: 8 CPUs/ { exit }
	END { if (!on) print "none"; else printf "%.1f\n", max }' "$T/progress.ts")
if [ "$gap" = none ]; then
	fail "progress: serial" "no 'INFO: main job:' line; last lines: $(tail -3 "$T/progress.ts" | tr '\n' '|')"
elif awk -v g="$gap" 'BEGIN { exit !(g <= 10) }'; then
	pass "progress: serial never silent more than 10 s in the main job (longest ${gap} s)"
else
	fail "progress: serial" "silent ${gap} s during the main job (at most 10 s)"
fi
# The line is due only after 5 s of a quiet console: a machine fast enough
# never leaves one, and then there is nothing to check.
if [ "$gap" != none ] && awk -v g="$gap" 'BEGIN { exit !(g >= 5) }'; then
	expect_line "progress: a line says how far the job is" "$T/progress.ts" \
		' INFO: (cpu [0-9]+ of 8 done: [0-9]+ PASS [0-9]+ FAIL, [0-9:]+ elapsed|waiting for CPU [0-9]+: .*; cpu [0-9]+ of 8)'
else
	skip "progress: a line says how far the job is" "serial was never quiet 5 s (longest ${gap} s): no progress line was due"
fi
# The "m:ss elapsed" the app prints is its TSC clock, calibrated against
# the firmware's Stall at start (efi/platform_efi.c plat_efi_init): it must
# follow the wall clock since the banner.  A calibration stretched by a
# preempted vCPU once made it 4x slow, and the 5-s heartbeat 20 s.
skew=$(awk '/ INFO: pebsprobe / { start = $1 }
	start && match($0, /[0-9]+:[0-9][0-9] elapsed/) {
		split(substr($0, RSTART, RLENGTH - 8), t, ":")
		app = t[1] * 60 + t[2]; wall = $1 - start
		if (app < wall * 0.8 - 2 || app > wall * 1.2 + 2) { printf "app %d s at wall %.1f s\n", app, wall; bad = 1; exit }
		n++ }
	END { if (!n && !bad) print "none" }' "$T/progress.ts")
if [ "$skew" = none ]; then
	skip "progress: the app's clock follows the wall clock" "no 'elapsed' line to compare"
elif [ -z "$skew" ]; then
	pass "progress: the app's clock follows the wall clock (each 'elapsed' within 20% + 2 s)"
else
	fail "progress: the app's clock follows the wall clock" "$skew"
fi
