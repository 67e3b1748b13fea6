#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every run leaves exactly its own files on the ESP (docs/OUTPUT.md, "Files
# on the ESP"): what an earlier run left - dumps, results.json - is deleted
# first, whatever this run's ending (a finished job, mode=report, refused
# options); a file pebsprobe did not write is neither deleted nor replaced.
# A full ESP: results.json and the log keep their room, the dumps that do
# not fit are not written, an ERROR line gives the EFI status, exit 99.
# A write-protected ESP: one ERROR line, exit 99, nothing written.
. "$(dirname "$0")/lib.sh"

files() { mdir -b -i "$1" ::/EFI/BOOT/ 2>/dev/null | sed 's|.*/||' | sort; }
run_id() { mtype -i "$1" ::/EFI/BOOT/results.json 2>/dev/null |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["run"]["id"], d["exit_status"])' 2>/dev/null; }

# Two CPUs: the second CPU's dumps carry its number (chase-l1-load-cpu1.pebs).
boot first --smp 2 -- pmu=sim model=skl kernels=chase-l1
expect_rc first 0
for d in chase-l1-load.pebs chase-l1-load-cpu1.pebs; do
	if files "$T/first.img" | grep -qx "$d"; then pass "first run: its dump $d is there"; else
		fail "first run" "no $d: $(files "$T/first.img" | tr '\n' ' ')"; fi
done
first=$(run_id "$T/first.img")

check_clean() { # name want-rc
	local name=$1 want=$2 id
	expect_rc "$name" "$want"
	if files "$T/$name.img" | grep -q '\.pebs$'; then
		fail "$name: earlier dumps" "still there: $(files "$T/$name.img" | grep '\.pebs$' | tr '\n' ' ')"
	else
		pass "$name: no dump of the earlier run left"
	fi
	id=$(run_id "$T/$name.img")
	if [ -n "$id" ] && [ "${id% *}" != "${first% *}" ] && [ "${id#* }" = "$want" ]; then
		pass "$name: results.json is this run's (run ${id% *}, exit status ${id#* })"
	else
		fail "$name: results.json" "run/status '$id', the first run's '$first'"
	fi
}
# One CPU now: the second CPU's dump of the first run goes too (the folder
# is listed, not probed for this machine's CPUs).
boot report --image "$T/first.img" --smp 1 -- pmu=sim model=skl mode=report
check_clean report 0
expect_line "report: says what it deleted" "$T/report.out" \
	'^INFO: outputs: 4 files an earlier run left \(results, log, dumps\) deleted$'
boot refused --image "$T/first.img" --smp 2 -- pmu=sim model=bogus
check_clean refused 2
boot skipped --image "$T/first.img" --smp 2 -- pmu=hw
check_clean skipped 77

# A write-protected ESP (the drive attached readonly=on): one ERROR line
# with the EFI status, exit 99, nothing run.  QEMU refuses every write to
# such a drive, so the image being unchanged shows no more than that; the
# one line shows the app tried no write (each would have its own ERROR).
boot readonly --image "$T/first.img" --readonly -- pmu=sim model=skl kernels=chase-l1
expect_rc readonly 99
n=$(grep -c '^ERROR: ' "$T/readonly.out")
if [ "$n" = 1 ] && grep -qE '^ERROR: esp: \\EFI\\BOOT\\ cannot be written: EFI_WRITE_PROTECTED \(EFI status 0x8000000000000008\); nothing was run' "$T/readonly.out"; then
	pass "readonly: one ERROR line naming EFI_WRITE_PROTECTED"
else
	fail "readonly" "$n ERROR lines: $(grep '^ERROR: ' "$T/readonly.out" | head -3 | tr '\n' '|')"
fi
expect_no_line "readonly: no test ran" "$T/readonly.out" '^(PASS|FAIL|SKIP): '
# Every file and its bytes (the config file is run-qemu.sh's, written before the boot).
snapshot() { for f in $(files "$1" | grep -vx PEBSPROBE.CFG); do
	printf '%s %s\n' "$f" "$(mtype -i "$1" "::/EFI/BOOT/$f" | md5sum)"; done; }
if [ "$(snapshot "$T/first.img")" = "$(snapshot "$T/readonly.img")" ]; then
	pass "readonly: every file on the ESP is as it was ($(files "$T/first.img" | wc -l) files)"
else
	fail "readonly" "files changed: $(diff <(snapshot "$T/first.img") <(snapshot "$T/readonly.img") | tr '\n' ' ')"
fi

# A user's file: not deleted, not replaced.
cp "$T/first.img" "$T/user.esp"
printf 'my notes\n' >"$T/notes.txt"
mcopy -i "$T/user.esp" "$T/notes.txt" ::/EFI/BOOT/NOTES.TXT
printf 'not a dump\n' >"$T/fake.pebs"
mcopy -i "$T/user.esp" "$T/fake.pebs" ::/EFI/BOOT/chase-l2-load.pebs
boot user --image "$T/user.esp" -- pmu=sim model=skl kernels=chase-l1 results=NOTES.TXT
expect_rc user 2
expect_line "user: results= naming a user's file refused" "$T/user.out" \
	"^ERROR: option results: a file 'NOTES.TXT' is there that pebsprobe did not write; it is not replaced "
if [ "$(mtype -i "$T/user.img" ::/EFI/BOOT/NOTES.TXT)" = "my notes" ] &&
	[ "$(mtype -i "$T/user.img" ::/EFI/BOOT/chase-l2-load.pebs)" = "not a dump" ]; then
	pass "user: the user's files are untouched"
else
	fail "user" "a user's file changed or went away: $(files "$T/user.img" | tr '\n' ' ')"
fi

# A nearly full ESP: the binary, then about 120 KiB free.
nearly_full_esp "$T/full.esp" 120 || exit 1
boot full --image "$T/full.esp" -- pmu=sim model=skl kernels=chase-l1,chase-l2,seq-load,stride-load
expect_rc full 99
expect_line "full: a dump that does not fit is not written, with the room kept" "$T/full.out" \
	'^ERROR: [a-z0-9-]+/[a-z]+: dump [a-z0-9-]+\.pebs \([0-9]+ bytes\) not written: the ESP has [0-9]+ bytes free'
# The last screen (25 lines, as wrapped) still names the errors and the word.
tail -n 25 "$T/full.raw" >"$T/full.last"
expect_line "full: the last 25 lines recap the ERRORs" "$T/full.last" '^RECAP: ERROR [a-z0-9-]+/[a-z]+'
expect_line "full: the run ends RESULT: ERROR (exit 99)" "$T/full.last" '^RESULT: ERROR \(exit 99\)( \[sim\])?$'
if [ "$(tail -n 1 "$T/full.raw")" = "RESULT: ERROR (exit 99) [sim]" ]; then
	pass "full: RESULT is the last line"
else
	fail "full" "last line: $(tail -n 1 "$T/full.raw")"
fi
if mtype -i "$T/full.img" ::/EFI/BOOT/pebsprobe.log | grep -q '^SUMMARY: ' &&
	[ "$(run_id "$T/full.img" | cut -d' ' -f2)" = 99 ]; then
	pass "full: the log has its SUMMARY and results.json says exit status 99"
else
	fail "full" "log or results.json incomplete: $(run_id "$T/full.img"); $(mtype -i "$T/full.img" ::/EFI/BOOT/pebsprobe.log | tail -1)"
fi
