#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-mainjob.sh - the main job under QEMU (TCG) on the simulated PMU, for
# EVERY simulator model, with 2 CPUs so the two-core kernels run (the
# hybrid machines measured on both, a P-core and an E-core):
#   - every kernel and sampling gets PASS, or SKIP because the generation
#     has no such sampling (or, for a model without PEBS, the reason);
#     never FAIL, and the exit status agrees; Core 2 and Silvermont (no load
#     or store sampling) PASS with their "other" sampling; Goldmont shows
#     non-precise and forced records by kind;
#   - events= samples every kernel with the user's event; an event the
#     generation cannot PEBS-sample is refused before any kernel (one
#     ERROR line, exit 2);
#   - the files on the ESP are read back with mtools: results.json parses
#     and carries the console's verdicts; each <kernel>-<sampling>.pebs
#     decodes with build/host/pebs-decode to the record count the console
#     printed;
#   - with 1 CPU the two-core kernels SKIP and say why;
#   - a kernel longer than 2 s prints progress lines;
#   - the USB image, booted with no options, runs the default job.
# Environment: BUILD, MODELS (space-separated subset), QEMU_TIMEOUT (s per
# boot, instead of BOOT_FACTOR times the no-op boot: budget.sh).
set -u
cd "$(dirname "$0")/../.."
. tests/qemu/join.sh
. tests/qemu/budget.sh
BUILD=${BUILD:-build}
# The heaviest boot, the default job on both CPUs of a hybrid model (adl),
# took 3.6 times the no-op boot beside a second boot: 5 times that, rounded
# up (budget.sh).  The progress boot's fixed 3000000 iterations took 7.4
# times: it has its own factor, 5 times that, rounded up.
BOOT_FACTOR=18
PROGRESS_FACTOR=37
decode=$BUILD/host/pebs-decode
work=$(mktemp -d "${TMPDIR:-/tmp}/test-mainjob.XXXXXX")
trap 'rm -rf "$work"' EXIT

if ! make -s BUILD="$BUILD" esp usb host >"$work/make.log" 2>&1; then
	echo "FAIL: mainjob: build failed: $(tail -3 "$work/make.log" | tr '\n' ' ')"
	exit 1
fi

qemu_noop_init
per_boot=$(qemu_limit "$BOOT_FACTOR")

# Each boot's time goes to the test log; a boot killed at its limit prints
# its last console lines there.
boot() { # log esp-copy args...
	local log=$1 esp=$2 rc s
	shift 2
	s=$(date +%s)
	BUILD=$BUILD ./run-qemu.sh --timeout "$per_boot" --esp "$esp" "$@" 2>&1 | tr -d '\r' |
		join_wrapped >"$log"
	rc=${PIPESTATUS[0]}
	echo "INFO: boot $(basename "$log" .log): $(($(date +%s) - s)) s of $per_boot s"
	[ "$rc" -ne 124 ] || timed_out_report "$(basename "$log" .log)" "$per_boot" "$log"
	return "$rc"
}


check_model() { # model
	local m=$1 log=$work/$m.log esp=$work/$m.img rc n_pass n_fail bad t n_con n_dec f cpus
	# Hybrid machines on both CPUs (a P-core and an E-core), the others on
	# the boot CPU (test-percpu.sh measures every CPU).
	case $m in adl | mtl | lnl | arl | ptl | nvl) cpus=all ;; *) cpus=boot ;; esac
	# verbose=1: the per-sampling lines read below are on the console too
	boot "$log" "$esp" --smp 2 -- pmu=sim model="$m" records=8 cpus=$cpus verbose=1
	rc=$?
	n_pass=$(grep -c '^PASS: ' "$log")
	n_fail=$(grep -c '^FAIL: ' "$log")
	if [ "$n_fail" -ne 0 ]; then
		grep '^FAIL: ' "$log" | head -5 | sed "s/^FAIL: /FAIL: mainjob $m: /"
		echo "FAIL: mainjob $m: $n_fail FAIL lines (log: exit $rc)"
		return
	fi
	if grep -q '^SKIP: pebs: ' "$log"; then
		# No PEBS on this model (e.g. not Intel): the whole job SKIPs, exit 77.
		if [ "$rc" -eq 77 ]; then
			echo "PASS: mainjob $m: no PEBS, skipped: $(grep -m1 '^SKIP: pebs: ' "$log" | cut -c12-)"
		else
			echo "FAIL: mainjob $m: skipped but exit status $rc (want 77)"
		fi
		return
	fi
	# Core 2 and Silvermont have no load or store sampling: every kernel runs
	# its "other" sampling (the generation's PEBS instructions event) and PASSes.
	case $m in
	core2 | slm)
		for k in chase-l1 chase-dram split-line share-hitm; do
			if ! grep -qE "^PASS: $k/other: " "$log"; then
				echo "FAIL: mainjob $m: no PASS for $k/other (exit $rc)"
				return
			fi
		done
		;;
	glm)
		# Goldmont: a non-precise event's records and one forced record, by kind.
		if ! grep -qE '^PASS: chase-l1/nonprecise: .*forced records 1 of 1' "$log" ||
			! grep -qE '^INFO: chase-l1/nonprecise: record kinds: precise 0, non-precise [1-9][0-9]*, forced 1' "$log" ||
			! grep -qE '^REC: .* kind=forced' "$log" || ! grep -qE '^REC: .* kind=non-precise' "$log"; then
			echo "FAIL: mainjob $m: no non-precise/forced records shown: $(grep -m1 'chase-l1/nonprecise' "$log")"
			return
		fi
		;;
	esac
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: mainjob $m: exit status $rc with no FAIL line ($(tail -2 "$log" | tr '\n' ' '))"
		return
	fi
	# Every default-job test has a verdict; SKIPs only for a missing sampling.
	bad=$(grep -E '^SKIP: [a-z0-9-]+/(load|store):' "$log" | grep -v -E ' has no (load|store) sampling')
	if [ -n "$bad" ]; then
		echo "FAIL: mainjob $m: unexplained SKIP: $(printf '%s' "$bad" | head -1)"
		return
	fi
	if [ "$n_pass" -lt 1 ] || ! grep -q '^INFO: kernel chase-l1: start' "$log"; then
		echo "FAIL: mainjob $m: no kernel ran"
		return
	fi
	for k in chase-l1 chase-l2 chase-dram page-walk seq-load stride-load stream-store \
		split-line split-page lock st-fwd-block 4k-alias share-hitm false-share; do
		if ! grep -qE "^(PASS|SKIP): $k/" "$log"; then
			echo "FAIL: mainjob $m: no verdict for kernel $k"
			return
		fi
	done
	# Files on the ESP: results.json with the same verdicts, dumps with the same counts.
	mkdir -p "$work/$m.out"
	if ! mcopy -n -i "$esp" ::/EFI/BOOT/results.json "$work/$m.out/" 2>"$work/mcopy.err"; then
		echo "FAIL: mainjob $m: results.json not on the ESP: $(cat "$work/mcopy.err")"
		return
	fi
	bad=$(python3 - "$work/$m.out/results.json" "$log" <<'PY'
import json, re, sys
res = json.load(open(sys.argv[1]))
con = {}
for line in open(sys.argv[2]):
    mm = re.match(r'^(PASS|FAIL|SKIP): ([a-z0-9-]+/(load|store|other|nonprecise|event[0-9]+)):', line)
    if mm:
        con[mm.group(2)] = mm.group(1)
js = {r["test"]: r["verdict"] for k in res["kernels"] for r in k.get("runs", [])}
for t, v in con.items():
    if js.get(t) != v:
        print("%s: console %s, results.json %s" % (t, v, js.get(t)))
# A PASS rests on what was observed: no "not checked" on its line, and no
# property unchecked in its results.json run (docs/KERNELS.md).
for line in open(sys.argv[2]):
    if line.startswith("PASS: ") and "not checked" in line:
        print("PASS line says 'not checked': %s" % line.strip()[:60])
for k in res["kernels"]:
    for r in k.get("runs", []):
        states = [p.get("state") for p in r.get("properties", [])]
        if "records" in r and not states:
            print("%s: no properties in results.json" % r["test"])
        if r["verdict"] == "PASS" and "unchecked" in states:
            print("%s: PASS with an unchecked property" % r["test"])
PY
)
	if [ -n "$bad" ]; then
		echo "FAIL: mainjob $m: results.json disagrees: $(printf '%s' "$bad" | head -2 | tr '\n' ';')"
		return
	fi
	for t in $(grep -E '^PASS: [a-z0-9-]+/(load|store|other|nonprecise):' "$log" | sed -E 's/^PASS: ([^:]+):.*/\1/'); do
		f=${t/\//-}.pebs
		# The boot CPU's count (its lines come first); CPU N's dump is <t>-cpuN.pebs.
		n_con=$(grep -m1 -E "^INFO: $t: records drained [0-9]+" "$log" | sed -E 's/.*records drained ([0-9]+).*/\1/')
		if ! mcopy -n -i "$esp" "::/EFI/BOOT/$f" "$work/$m.out/" 2>"$work/mcopy.err"; then
			echo "FAIL: mainjob $m: $f not on the ESP"
			return
		fi
		n_dec=$("$decode" --output json "$work/$m.out/$f" 2>"$work/decode.err" | grep -c .)
		if [ "${PIPESTATUS[0]}" -ne 0 ] || [ "$n_dec" != "$n_con" ]; then
			echo "FAIL: mainjob $m: $f: pebs-decode gives $n_dec records, console said $n_con $(head -1 "$work/decode.err")"
			return
		fi
	done
	echo "PASS: mainjob $m: $n_pass PASS, $(grep -c '^SKIP: ' "$log") SKIP; ESP results.json and dumps agree with the console"
}

# The models, as the app lists them.
if [ -z "${MODELS:-}" ]; then
	boot "$work/list.log" "$work/list.img" -- pmu=sim model=list
	MODELS=$(sed -nE 's/^INFO: model ([a-z0-9-]+): .*/\1/p' "$work/list.log" | tr '\n' ' ')
fi
if [ -z "$MODELS" ]; then
	echo "FAIL: mainjob: model=list printed no models"
	exit 1
fi
for m in $MODELS; do
	check_model "$m"
done

# One CPU: the two-core kernels SKIP with the reason.
boot "$work/smp1.log" "$work/smp1.img" -- pmu=sim model=skl kernels=share-hitm,false-share
if grep -q '^SKIP: share-hitm/load: needs 2 CPUs, 1 available' "$work/smp1.log" &&
	grep -q '^SKIP: false-share/load: needs 2 CPUs, 1 available' "$work/smp1.log"; then
	echo "PASS: mainjob two-core kernels with 1 CPU: SKIP with the reason"
else
	echo "FAIL: mainjob two-core kernels with 1 CPU: $(grep -E '^(PASS|FAIL|SKIP): (share|false)' "$work/smp1.log" | head -2 | tr '\n' ';')"
fi

# events=: the user's event samples every kernel (a perfmon name with a
# modifier); an event that cannot be PEBS-sampled here is the user's
# mistake: refused before any kernel runs, one ERROR line, exit 2.
boot "$work/ev.log" "$work/ev.img" -- pmu=sim model=skl kernels=chase-dram verbose=1 \
	'events=MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30'
rc=$?
mkdir -p "$work/ev.out"
# ldlat=30 keeps only the slow loads: the RAM share cannot be taken, so the
# kernel's verdict is a SKIP; the run exits 0 if a PEBS/PMU line PASSes, 77
# if it has none: the hand-off checks alone make no PASS (docs/OUTPUT.md).
want=77
grep -E '^PASS: ' "$work/ev.log" | grep -qvE '^PASS: (firmware-handoff|handoff-restored)[:@ ]' && want=0
if [ "$rc" -ne "$want" ]; then
	echo "FAIL: mainjob events=: exit $rc, want $want: $(grep -E '^(FAIL|ERROR)' "$work/ev.log" | head -2 | tr '\n' ';')"
elif ! grep -qE '^SKIP: chase-dram/event1: RAM unchecked \(ldlat=30 ' "$work/ev.log" ||
	! grep -qE '^INFO: chase-dram/event1: sampled MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30 \(0x1cd\) ldlat=30 on PMC0' "$work/ev.log"; then
	echo "FAIL: mainjob events=: event1 not sampled as asked: $(grep -m2 'chase-dram/event1' "$work/ev.log" | tr '\n' ';')"
elif ! mcopy -n -i "$work/ev.img" ::/EFI/BOOT/chase-dram-event1.pebs "$work/ev.out/" 2>/dev/null ||
	! "$decode" "$work/ev.out/chase-dram-event1.pebs" >"$work/ev.txt" 2>&1 ||
	! grep -q '^# pebs dump: .* simulated=1 version=2$' "$work/ev.txt" ||
	! grep -q '^# counter PMC0: MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30 (0x1cd)$' "$work/ev.txt"; then
	echo "FAIL: mainjob events=: the dump does not name the event: $(head -3 "$work/ev.txt" 2>/dev/null | tr '\n' ';')"
else
	echo "PASS: mainjob events=: user event sampled, dump names 0x1cd"
fi
boot "$work/evbad.log" "$work/evbad.img" -- pmu=sim model=skl kernels=chase-dram \
	'events=MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30;CPU_CLK_UNHALTED.THREAD_P'
rc=$?
if [ "$rc" -eq 2 ] && [ "$(grep -c '^ERROR: ' "$work/evbad.log")" -eq 1 ] &&
	grep -qE '^ERROR: option events: .*CPU_CLK_UNHALTED.THREAD_P.* not PEBS-capable' "$work/evbad.log" &&
	! grep -qE '^(INFO: kernel |FAIL: )' "$work/evbad.log"; then
	echo "PASS: mainjob events=: a non-PEBS event refused before any kernel, one ERROR line, exit 2"
else
	echo "FAIL: mainjob events= non-PEBS: exit $rc: $(grep -E '^(FAIL|ERROR|INFO: kernel)' "$work/evbad.log" | head -2 | tr '\n' ';')"
fi

# Progress: one "running" line per 2 s period of a kernel's run (job/run.c
# PROGRESS_EVERY_US), judged against the kernel's own duration, so it holds
# however fast this machine is: never more than one line per 2 s (plus one
# at an edge), none under 2 s, at least one in a kernel of 4 s or more (its
# runs are most of it; warm-up and decoding print none).  A first run under
# 4 s is run again with its iterations scaled to about 6 s.
progress() { # iterations
	local per_boot
	per_boot=$(qemu_limit "$PROGRESS_FACTOR")
	boot "$work/prog.log" "$work/prog.img" -- pmu=sim model=skl kernels=chase-l1 verbose=1 \
		iterations="$1" records=0
	ms=$(sed -nE 's/^INFO: kernel chase-l1: end \(([0-9]+) ms\).*/\1/p' "$work/prog.log")
	lines=$(grep -cE "^INFO: chase-l1: running, [0-9]+ of $1 iterations \([0-9]+%\)" "$work/prog.log")
}
iters=3000000
progress $iters
if [ -n "$ms" ] && [ "$ms" -lt 4000 ]; then
	iters=$(( iters * 6000 / (ms + 1) ))
	[ "$iters" -gt 4000000000 ] && iters=4000000000
	progress $iters
fi
if [ -z "$ms" ]; then
	echo "FAIL: mainjob progress: the kernel did not end ($(grep -E '^(FAIL|SUMMARY)' "$work/prog.log" | head -1))"
elif [ "$lines" -gt $(( ms / 2000 + 1 )) ] || { [ "$ms" -lt 2000 ] && [ "$lines" -ne 0 ]; }; then
	echo "FAIL: mainjob progress: $lines progress line(s) in a $ms ms kernel, at most $(( ms < 2000 ? 0 : ms / 2000 + 1 ))"
elif [ "$ms" -ge 4000 ] && [ "$lines" -eq 0 ]; then
	echo "FAIL: mainjob progress: no progress line in a $ms ms kernel ($iters iterations)"
elif [ "$lines" -eq 0 ]; then
	echo "SKIP: mainjob progress: $iters iterations took only $ms ms, under 4 s: no line expected or seen"
else
	echo "PASS: mainjob progress: $lines progress line(s) in a $ms ms kernel ($iters iterations)"
fi

# The USB image, no options: the default job on the simulated PMU.
boot "$work/usb.log" "$work/usb.img" --usb --smp 2
rc=$?
if [ "$rc" -eq 0 ] && grep -qE '^PASS: chase-l1/load: 2 CPUs: L1 hits [0-9.]+(-[0-9.]+)?%, median [0-9]+(-[0-9]+)? cy \[sim\]$' "$work/usb.log" &&
	grep -q '^SUMMARY: ' "$work/usb.log"; then
	echo "PASS: mainjob usb image: default job, $(grep -m1 '^SUMMARY: ' "$work/usb.log")"
else
	echo "FAIL: mainjob usb image: exit $rc, $(grep -E '^(FAIL|SUMMARY)' "$work/usb.log" | head -2 | tr '\n' ';')"
fi
