#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-esp-budget.sh - the dump policy on a nearly full ESP with more CPUs
# than dump=on writes every dump for (docs/OUTPUT.md "The ESP budget"):
#   - dump=all, twelve CPUs, room for a few dumps: every CPU's dump is
#     either on the ESP or named by an ERROR line that says it was not
#     written (never a silent gap), some of each; exit 99; results.json
#     keeps every CPU's verdict and figures;
#   - dump=on on the same ESP: CPU 0 (the one core type's first) keeps its
#     dump, no other CPU's is written, one INFO line names CPUs 1-11 as
#     left out and results.json's "dumps" says the same; exit 0.
. "$(dirname "$0")/lib.sh"
# Twelve CPUs, one kernel: a few no-op boots each.
BOOT_FACTOR=${BOOT_FACTOR:-12}
files() { mdir -b -i "$1" ::/EFI/BOOT/ 2>/dev/null | sed 's|.*/||' | sort; }
N=12

# The binary, then the 256 KiB the dumps leave for results.json and the
# log, and about 160 KiB more: room for a few of the 37 KB dumps, not 12.
nearly_full_esp "$T/small.esp" 416 || exit 1

# What results.json says: the CPUs of the chase-l1/load verdicts, those of
# the cpus_tested rows with a pass, and the "dumps" object's policy,
# cpus_left_out, left_out and every_dump (docs/RESULTS.md).
json_cpus() {
	mtype -i "$1" ::/EFI/BOOT/results.json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
v = sorted(x["cpu"] for x in d["verdicts"]
        if x["name"].split("@")[0] == "chase-l1/load" and "cpu" in x)
t = sorted(x["cpu"] for x in d["cpus_tested"] if x["passed"] >= 1)
u = d.get("dumps") or {}
w = [u.get(k) for k in ("policy", "cpus_left_out", "left_out", "every_dump")]
print(" ".join(map(str, v)) + "|" + " ".join(map(str, t)) + "|" + " ".join(map(str, w)))'
}
all_cpus=$(seq -s' ' 0 $((N - 1)))

boot all --smp $N --image "$T/small.esp" -- pmu=sim model=skl kernels=chase-l1 dump=all
expect_rc all 99
files "$T/all.img" >"$T/all.files"
written=0 refused=0 gap=
for c in $(seq 0 $((N - 1))); do
	if [ "$c" = 0 ]; then d=chase-l1-load.pebs; else d=chase-l1-load-cpu$c.pebs; fi
	on=0 said=0
	grep -qx "$d" "$T/all.files" && on=1
	grep -qE "^ERROR: chase-l1/load: dump $d \([0-9]+ bytes\) not written: the ESP has" \
		"$T/all.out" && said=1
	if [ $((on + said)) -ne 1 ]; then gap="$gap $c(on $on, named $said)"; fi
	written=$((written + on))
	refused=$((refused + said))
done
if [ -z "$gap" ] && [ "$written" -ge 1 ] && [ "$refused" -ge 1 ]; then
	pass "all: each CPU's dump on the ESP or named as not written ($written, $refused)"
else
	fail "all" "dumps written $written, named as not written $refused; wrong:${gap:- none}"
fi
IFS='|' read -r verdicts tested _ <<<"$(json_cpus "$T/all.img")"
if [ "$verdicts" = "$all_cpus" ] && [ "$tested" = "$all_cpus" ]; then
	pass "all: results.json has every CPU's chase-l1/load verdict and cpus_tested row"
else
	fail "all" "results.json: verdicts on CPUs '$verdicts', cpus_tested '$tested'"
fi

boot on --smp $N --image "$T/small.esp" -- pmu=sim model=skl kernels=chase-l1 dump=on
expect_rc on 0
files "$T/on.img" >"$T/on.files"
if [ "$(grep -c '^chase-l1-load.*\.pebs$' "$T/on.files")" = 1 ] &&
	grep -qx chase-l1-load.pebs "$T/on.files"; then
	pass "on: CPU 0's dump only"
else
	fail "on" "dumps on the ESP: $(grep '\.pebs$' "$T/on.files" | tr '\n' ' ')"
fi
expect_line "on: one line names CPUs 1-11 as left out" "$T/on.out" \
	"^INFO: dumps \\(dump=on, $N CPUs, over 8\\): every sampling of CPUs 0 .*the passing samplings of $((N - 1)) CPUs \\(1-$((N - 1))\\) not dumped"
IFS='|' read -r verdicts tested dumps <<<"$(json_cpus "$T/on.img")"
want_dumps="on $((N - 1)) 1-$((N - 1)) 0"
if [ "$verdicts" = "$all_cpus" ] && [ "$tested" = "$all_cpus" ] && [ "$dumps" = "$want_dumps" ]; then
	pass "on: results.json has every CPU and says which were left out"
else
	fail "on" "results.json: verdicts on '$verdicts', cpus_tested '$tested', dumps '$dumps'"
fi
