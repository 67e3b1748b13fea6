#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bad input: one ERROR line naming the option and the accepted values, exit
# status 2, and no MSR touched (trace=msr is on, before the bad token, and
# no MSR: line may appear).
. "$(dirname "$0")/lib.sh"

# Boots with the options; exit status 2 and exactly one ERROR line, $want.
one_error() { # name want-error-regex options...
	local name=$1 want=$2
	shift 2
	boot "$name" -- "$@"
	expect_rc "$name" 2
	expect_line "$name: error line" "$T/$name.out" "$want"
	n=$(grep -c '^ERROR: ' "$T/$name.out")
	if [ "$n" = 1 ]; then pass "$name: exactly one ERROR line"; else fail "$name" "$n ERROR lines"; fi
}

check() { # name want-error-regex options...
	one_error "$@"
	expect_no_line "$1: no MSR accessed" "$T/$1.out" '^MSR: '
	expect_no_line "$1: no SUMMARY (nothing ran)" "$T/$1.out" '^SUMMARY: '
}

check bad-value \
	"^ERROR: run-qemu.sh -- OPTIONS line 1: option pmu: bad value 'bogus' \(accepted: auto, hw, sim\)$" \
	trace=msr pmu=bogus
check unknown-option \
	"^ERROR: run-qemu.sh -- OPTIONS line 1: unknown option 'colour' \(accepted: pmu, model, " \
	trace=msr colour=red
check out-of-range \
	"^ERROR: run-qemu.sh -- OPTIONS line 1: option ldlat: bad value '2': out of range \(accepted: an integer 3..65535\)$" \
	trace=msr ldlat=2
check bad-model \
	"^ERROR: option model: unknown simulator model 'k7' \(accepted: .*list\)$" \
	trace=msr pmu=sim model=k7
# The checks across options come after all of them are read and before
# any backend is chosen: whatever pmu= says, nothing reads an MSR first.
check bad-model-hw \
	"^ERROR: option model: unknown simulator model 'k7' \(accepted: .*list\)$" \
	trace=msr pmu=hw model=k7
check bad-model-auto \
	"^ERROR: option model: unknown simulator model 'k7' \(accepted: .*list\)$" \
	trace=msr model=k7
check bad-kernel \
	"^ERROR: option kernels: unknown kernel 'bogus' \(accepted: all, none, or names separated by commas: chase, chase-l1, " \
	trace=msr kernels=chase-l1,bogus
check threshold-too-big \
	"^ERROR: option threshold: 1000 records do not fit in buffer=4 KiB \(accepted: 0..128, " \
	trace=msr buffer=4 threshold=1000
for n in bad-model-auto bad-kernel threshold-too-big; do
	expect_no_line "$n: no decision line before the error" "$T/$n.out" '^INFO: (pmu|cpu)'
done

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

# The app's own files and two outputs of one name are refused before
# anything is written: log=BOOTX64.EFI replaced the binary (the next boot
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
check same-output "^ERROR: options log and results: both name 'x' \(accepted: two different file names, or none for either\)$" \
	trace=msr log=x results=X
check size-too-small "^ERROR: option size: 1 bytes is below kernel chase-l1's minimum of 4096 " \
	trace=msr kernels=chase-l1 size=1
check pmi-buffer "^ERROR: option buffer: 65536 KiB with drain=pmi keeps 1024 MiB of drained records, more than the 256 MiB limit \(accepted: buffer=4..16384 with drain=pmi\)$" \
	trace=msr drain=pmi buffer=65536

# Mistakes only the CPU can judge (its generation's events and period
# range) come after the capability report, which reads MSRs, and before
# any kernel or PMU programming: one ERROR line, exit 2.
check_cpu() { # name want-error-regex options...
	# verbose=1: a kernel's start line is a detail line, on the console only so.
	one_error "$@" verbose=1
	expect_no_line "$1: no kernel started" "$T/$1.out" '^INFO: kernel '
	expect_no_line "$1: no FAIL" "$T/$1.out" '^FAIL: '
}
check_cpu period-one "^ERROR: option period: period 1 below 32, the minimum on Skylake \(accepted: 32\.\.140737488355327\) \(checked before any PMU programming\)$" \
	pmu=sim model=skl period=1
check_cpu event-bogus "^ERROR: option events: event 'BOGUS': no such EventName in perfmon SKL/skylake_core.json " \
	pmu=sim model=skl events=BOGUS
# UMASK2 (PERFEVTSEL[47:40]) and EQ (bit 36) on a PMU v5 part without leaf
# 23H (gnr, sim/models.c): reserved there.
check_cpu event-umask2 "^ERROR: option events: event 'event=0xc0,umask=0x0,umask2=0x1' sets UMASK2 \(PERFEVTSEL\[47:40\], perfmon UMaskExt\), which this CPU does not enumerate \(CPUID.23H.0:EBX\[0\] clear or leaf 23H absent\)" \
	pmu=sim model=gnr 'events=event=0xc0,umask=0x0,umask2=0x1'
check_cpu event-eq "^ERROR: option events: event 'event=0xc0,umask=0x0,eq' sets EQ \(PERFEVTSEL\[36\], perfmon Equal\), which this CPU does not enumerate \(CPUID.23H.0:EBX\[1\] clear or leaf 23H absent\)" \
	pmu=sim model=gnr 'events=event=0xc0,umask=0x0,eq'
check_cpu event-long "^ERROR: option events: event 'a{40}\.\.\.': [0-9]+ characters \(accepted: at most 63 characters\) " \
	pmu=sim model=skl "events=$(printf 'a%.0s' $(seq 70))"
