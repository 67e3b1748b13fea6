#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bad input: one ERROR line naming what was wrong and what is accepted,
# exit status 2, and no MSR touched (trace=msr is on, before the bad token,
# and no MSR: line may appear): config files that cannot be read as text,
# and options naming the app's own files.  The bad options that need only
# the console are rows of tests/qemu/boots.cfg.
. "$(dirname "$0")/lib.sh"

# Boots with the options: exit status 2, exactly one ERROR line, $want,
# no MSR line and no SUMMARY.
check() { # name want-error-regex options...
	local name=$1 want=$2
	shift 2
	boot "$name" -- "$@"
	expect_rc "$name" 2
	expect_line "$name: error line" "$T/$name.out" "$want"
	n=$(grep -c '^ERROR: ' "$T/$name.out")
	if [ "$n" = 1 ]; then pass "$name: exactly one ERROR line"; else fail "$name" "$n ERROR lines"; fi
	expect_no_line "$1: no MSR accessed" "$T/$1.out" '^MSR: '
	expect_no_line "$1: no SUMMARY (nothing ran)" "$T/$1.out" '^SUMMARY: '
}

# A config file that cannot be read as text: a directory in its place, and
# a file with a byte that is not printable ASCII.
make -s BUILD="$BUILD" esp >/dev/null
cp "$BUILD/esp.img" "$T/dir.esp"
mdel -i "$T/dir.esp" ::/EFI/BOOT/PEBSPROBE.CFG
mmd -i "$T/dir.esp" ::/EFI/BOOT/PEBSPROBE.CFG
boot cfgdir --image "$T/dir.esp"
expect_rc cfgdir 2
expect_line "cfgdir: unreadable config named, with what is accepted" "$T/cfgdir.out" \
	'^ERROR: config file \\EFI\\BOOT\\PEBSPROBE.CFG: unreadable \(a directory, not a file\); accepted: an ASCII text file of name=value lines up to 1 MiB, or no file$'
expect_no_line "cfgdir: no SUMMARY (nothing ran)" "$T/cfgdir.out" '^SUMMARY: '

printf 'trace=msr\npmu=hw \xe9\n' >"$T/latin1.cfg"
boot cfgbin --config "$T/latin1.cfg"
expect_rc cfgbin 2
expect_line "cfgbin: non-ASCII byte named with its line" "$T/cfgbin.out" \
	'^ERROR: \\EFI\\BOOT\\PEBSPROBE.CFG: config line 2: not plain ASCII text \(byte 0xe9 at column 8; accepted: printable ASCII, tabs, CR LF line ends\)$'
expect_no_line "cfgbin: no MSR accessed" "$T/cfgbin.out" '^MSR: '

# A garbage --config with -- options: neither dropped, the error names the
# file the bad line is in and its line there (run-qemu.sh merges them).
printf 'pmu=sim\nthis is no option\n' >"$T/garbage.cfg"
boot cfgmerge --config "$T/garbage.cfg" -- kernels=chase-l1
expect_rc cfgmerge 2
expect_line "cfgmerge: the config file and its line named" "$T/cfgmerge.out" \
	"^ERROR: $T/garbage.cfg line 2: malformed option 'this' \(accepted: name=value, "
# A config saved as UTF-16 (Notepad's "Unicode") is named as such.
printf '\xff\xfet\0r\0a\0c\0e\0=\0m\0s\0r\0\n\0' >"$T/utf16.cfg"
boot cfgutf16 --config "$T/utf16.cfg"
expect_rc cfgutf16 2
expect_line "cfgutf16: UTF-16 named" "$T/cfgutf16.out" \
	'^ERROR: \\EFI\\BOOT\\PEBSPROBE.CFG: config line 1: UTF-16 text \(byte-order mark 0xff 0xfe; accepted: ASCII text, saved as ANSI or UTF-8\)$'

# The app's own files are refused before anything is written (two outputs
# of one name: boots.cfg [same-output]): log=BOOTX64.EFI replaced the binary (the next boot
# dropped to the shell), results=PEBSPROBE.CFG broke every later boot.
check own-binary \
	"^ERROR: option log: 'BOOTX64.EFI' is one of pebsprobe's own files \(accepted: a file name other than PEBSPROBE.CFG, \*.efi, \*.pebs and \*.tmp, or none\)$" \
	trace=msr log=BOOTX64.EFI
if mtype -i "$T/own-binary.img" ::/EFI/BOOT/BOOTX64.EFI | cmp -s - "$BUILD/pebsprobe.efi"; then
	pass "own-binary: BOOTX64.EFI is still the binary"
else
	fail "own-binary" "BOOTX64.EFI on the ESP differs from $BUILD/pebsprobe.efi"
fi
check own-config "^ERROR: option results: 'PEBSPROBE.CFG' is one of pebsprobe's own files " \
	trace=msr results=PEBSPROBE.CFG
if mtype -i "$T/own-config.img" ::/EFI/BOOT/PEBSPROBE.CFG | grep -q '^trace=msr results=PEBSPROBE.CFG$'; then
	pass "own-config: PEBSPROBE.CFG is still the options"
else
	fail "own-config" "PEBSPROBE.CFG was replaced: $(mtype -i "$T/own-config.img" ::/EFI/BOOT/PEBSPROBE.CFG | head -c 60)"
fi
