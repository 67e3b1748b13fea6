#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The EDK II UEFI Shell (built into Debian's OVMF) runs pebsprobe the way a
# firmware validation script does: from startup.nsh, with arguments, the
# app at \PEBSPROBE.EFI (not \EFI\BOOT\BOOTX64.EFI, so the firmware's boot
# falls through to the Shell).  With exit=return the app returns its status
# to the Shell, which sets %lasterror% to it (ShellPkg Shell.c
# SetLastError, "0x%Lx"): a pass (0x0), a fail (0x1) and a refused option
# (0x2, exit=return holding although kernels= was refused), and a refused
# line in the config file beside a second copy (\CFG\PEBSPROBE.CFG), which
# still lets the LoadOptions' exit=return hold (app/options_sources.c).
# One boot; the script ends with "reset -s", so the boot's own status is
# not the app's.
. "$(dirname "$0")/lib.sh"

if ! make -s BUILD="$BUILD" "$BUILD/pebsprobe.efi" >/dev/null; then
	fail "shell" "make failed"
	exit 0
fi
qemu_noop_init
img=$T/shell.img
opts="pmu=sim kernels=chase-l1 results=none log=none dump=off"
mkfs.fat -C -n PEBSPROBE "$img" 8192 >/dev/null
mcopy -i "$img" "$BUILD/pebsprobe.efi" ::/PEBSPROBE.EFI
mmd -i "$img" ::/CFG
mcopy -i "$img" "$BUILD/pebsprobe.efi" ::/CFG/PEBSPROBE.EFI
printf 'pmu=sim\nldlat=2\nkernels=chase-l1\n' >"$T/bad.cfg"
mcopy -i "$img" "$T/bad.cfg" ::/CFG/PEBSPROBE.CFG
# The Shell reads startup.nsh as UCS-2 or ASCII; CRLF lines.
sed 's/$/\r/' >"$T/startup.nsh" <<NSH
@echo -off
fs0:
pebsprobe.efi exit=return $opts
echo "shell-status pass %lasterror%"
pebsprobe.efi exit=return $opts sim-fault=cpu0:skid
echo "shell-status fail %lasterror%"
pebsprobe.efi kernels=bogus exit=return pause=0
echo "shell-status refusal %lasterror%"
cfg\pebsprobe.efi exit=return pause=0
echo "shell-status config %lasterror%"
reset -s
NSH
mcopy -i "$img" "$T/startup.nsh" ::/STARTUP.NSH
./run-qemu.sh --timeout "$(qemu_limit 6)" --image "$img" --log "$T/shell.serial" >/dev/null 2>"$T/shell.err"
tr -d '\r' <"$T/shell.serial" >"$T/shell.out"
for c in "pass 0x0" "fail 0x1" "refusal 0x2" "config 0x2"; do
	expect_line "shell: ${c% *}: %lasterror% is ${c#* }" "$T/shell.out" "^shell-status $c\$"
done
expect_line "shell: the refusal names the option" "$T/shell.out" "^ERROR: .*kernels"
expect_line "shell: the refusal keeps exit=return" "$T/shell.out" '^INFO: exit status 2 \(exit=return\)$'
expect_line "shell: the config refusal names its line" "$T/shell.out" \
	'^ERROR: \\[Cc][Ff][Gg]\\PEBSPROBE\.CFG: config line 2: option ldlat'
n=$(grep -c '^INFO: exit status 2 (exit=return)$' "$T/shell.out")
if [ "$n" = 2 ]; then
	pass "shell: a refused config line keeps LoadOptions' exit=return"
else
	fail "shell: a refused config line keeps LoadOptions' exit=return" \
		"$n of 2 'INFO: exit status 2 (exit=return)' lines"
fi
