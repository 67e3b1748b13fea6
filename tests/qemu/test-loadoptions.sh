#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# LoadOptions (QEMU -kernel/-append, as a boot entry or the UEFI shell would
# pass them): the image name is skipped, they override the config file, the
# log still goes to the ESP, and LoadOptions over the limit are refused (a
# bad value in them: tests/qemu/boots.cfg [loadopts-bad]).
. "$(dirname "$0")/lib.sh"

printf '# test config\r\nldlat=50 records=3\r\n' >"$T/cfg"
boot lo --config "$T/cfg" --loadopts -- pmu=hw mode=report verbose=1 ldlat=60
o=$T/lo.out
expect_rc lo 0
expect_line "loadopts: seen as text" "$o" '^INFO: options: LoadOptions "pebsprobe.efi pmu=hw mode=report verbose=1 ldlat=60"$'
expect_line "loadopts: config file read too" "$o" '^INFO: options: config file \\EFI\\BOOT\\PEBSPROBE.CFG read$'
expect_line "loadopts: override the config (ldlat 60, not 50)" "$o" '^INFO: option ldlat=60$'
expect_line "loadopts: config applies where not overridden (records 3)" "$o" '^INFO: option records=3$'
expect_line "loadopts: argv0 skipped, pmu=hw taken" "$o" '^INFO: option pmu=hw$'
if mtype -i "$T/lo.img" ::/EFI/BOOT/pebsprobe.log 2>/dev/null | grep -q '^SUMMARY: '; then
	pass "loadopts: log written to the ESP although the image came from -kernel"
else
	fail "loadopts: log" "no pebsprobe.log with a SUMMARY on the ESP"
fi

# LoadOptions longer than the 8191 characters read (app/options.h
# OPT_LINE_MAX) are refused, naming the limit, not cut: here the token past
# the limit is a bad one that a cut would drop silently.
long="pmu=hw mode=report "
for _ in $(seq 819); do long+="verbose=0 "; done
for _ in 1 2 3; do long+="ldlat=3 "; done
# shellcheck disable=SC2086 # the words are the options
boot lolong --loadopts -- $long model=bogus
expect_rc lolong 2
expect_line "loadopts: over 8191 characters refused, naming the limit" "$T/lolong.out" \
	'^ERROR: LoadOptions: [0-9]{4,} characters, longer than the 8191 accepted \(put the options in \\EFI\\BOOT\\PEBSPROBE.CFG instead, up to 8191 characters a line\)$'
