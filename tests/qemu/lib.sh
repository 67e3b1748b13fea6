# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# lib.sh - shared by tests/qemu/test-*.sh (sourced, not run).
#
#   boot NAME [run-qemu.sh args] [-- app options]
#       boots once; the transcript (pebsprobe's lines only, from its banner
#       on) goes to $T/NAME.raw as printed (80 columns) and to $T/NAME.out
#       with each wrapped line whole again (join_wrapped), the exit status
#       to $T/NAME.rc, the written image to $T/NAME.img.  Its time limit is
#       BOOT_FACTOR (default 12, for the boots not measured one by one) times the no-op boot (budget.sh); it prints
#       "INFO: boot NAME: S s of L s", and on a timeout the last console
#       lines.  A script sets BOOT_FACTOR from its heaviest boot.
#   logfile NAME
#       the log file of boot NAME's image (pebsprobe.log), each wrapped line
#       whole again, to $T/NAME.log: the full verdicts and the detail lines
#       the console leaves out without verbose=1 (docs/OUTPUT.md).
#   nearly_full_esp FILE KIB
#       a FAT image FILE with only the binary as \EFI\BOOT\BOOTX64.EFI (no
#       config file) and a filler, about KIB KiB free for what a run
#       writes; non-zero status, with a FAIL line, if the build failed.
#   join_wrapped <IN >OUT                       (tests/qemu/join.sh)
#   pass NAME / fail NAME WHY / skip NAME WHY   one result line
#   expect_line NAME FILE REGEX                 PASS if a line matches
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/join.sh
. tests/qemu/budget.sh
export BUILD=${BUILD:-build}
BOOT_FACTOR=${BOOT_FACTOR:-12}
T=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-test.XXXXXX")
trap 'rm -rf "$T"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
skip() { echo "SKIP: $1: $2"; }

boot() {
	local name=$1 limit rc s
	shift
	qemu_noop_init
	limit=$(qemu_limit "$BOOT_FACTOR")
	s=$(date +%s)
	./run-qemu.sh --timeout "$limit" --log "$T/$name.serial" --esp "$T/$name.img" "$@" \
		>/dev/null 2>"$T/$name.err"
	rc=$?
	echo "$rc" >"$T/$name.rc"
	echo "INFO: boot $name: $(($(date +%s) - s)) s of $limit s"
	[ "$rc" -eq 124 ] && timed_out_report "$name" "$limit" "$T/$name.serial"
	sed -n '/^INFO: pebsprobe /,$p' "$T/$name.serial" >"$T/$name.raw" 2>/dev/null
	join_wrapped <"$T/$name.raw" >"$T/$name.out"
	if [ ! -s "$T/$name.out" ]; then
		echo "--- $name: no pebsprobe output; serial was:"
		cat "$T/$name.serial" "$T/$name.err" 2>/dev/null | tail -20
	fi
}

logfile() {
	mtype -i "$T/$1.img" ::/EFI/BOOT/pebsprobe.log 2>/dev/null | tr -d '\r' | join_wrapped >"$T/$1.log"
}

nearly_full_esp() { # file free-kib
	local bin filler=180
	if ! make -s BUILD="$BUILD" all >/dev/null; then
		fail "esp" "make failed"
		return 1
	fi
	bin=$(stat -c %s "$BUILD/pebsprobe.efi")
	# The file system is the binary, the filler and the room asked for;
	# the filler stays, so the room is what the run finds free.
	mkfs.fat -C -n PEBSPROBE "$1" $(((bin + 1023) / 1024 + $2 + filler)) >/dev/null &&
		mmd -i "$1" ::/EFI ::/EFI/BOOT &&
		mcopy -i "$1" "$BUILD/pebsprobe.efi" ::/EFI/BOOT/BOOTX64.EFI &&
		head -c $((filler * 1024)) /dev/zero >"$T/filler" &&
		mcopy -i "$1" "$T/filler" ::/FILLER.BIN
}

rc_of() { cat "$T/$1.rc"; }

expect_rc() { # name want
	local got
	got=$(rc_of "$1")
	if [ "$got" = "$2" ]; then pass "$1: exit status $2"; else fail "$1" "exit status $got, want $2"; fi
}

expect_line() { # name file regex
	if grep -qE "$3" "$2"; then pass "$1"; else fail "$1" "no line matching /$3/ in $(basename "$2")"; fi
}

expect_no_line() { # name file regex
	if grep -qE "$3" "$2"; then
		fail "$1" "unexpected line: $(grep -m1 -E "$3" "$2")"
	else
		pass "$1"
	fi
}
