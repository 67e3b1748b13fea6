#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-kvm-host.sh - tools/kvm-host-check.sh (run-qemu.sh --kvm's checks of
# the host) on fake /dev, /proc and /sys trees, one per case: the exit
# status and a line each case must (or must not) print.  Then run-qemu.sh
# --kvm itself on the AMD case: 77 before anything is built or booted.
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-kvmhost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# A fake host: vendor, family, model, flags (separated by commas), then what exists:
# dev (a rw /dev/kvm), dev-ro, mod (kvm_intel loaded), pmu=Y|N, pebs=Y|N.
mkhost() {
	local d=$1 vendor=$2 family=$3 model=$4 flags=$5 item
	shift 5
	mkdir -p "$d/proc" "$d/dev" "$d/sys/module/kvm/parameters"
	printf 'processor\t: 0\nvendor_id\t: %s\ncpu family\t: %s\nmodel\t\t: %s\nflags\t\t: %s\n' \
		"$vendor" "$family" "$model" "${flags//,/ }" >"$d/proc/cpuinfo"
	for item in "$@"; do
		case $item in
		dev) : >"$d/dev/kvm" ;;
		dev-ro) : >"$d/dev/kvm" && chmod 444 "$d/dev/kvm" ;;
		mod) mkdir -p "$d/sys/module/kvm_intel/parameters" ;;
		pmu=*) echo "${item#pmu=}" >"$d/sys/module/kvm/parameters/enable_pmu" ;;
		pebs=*) echo "${item#pebs=}" >"$d/sys/module/kvm_intel/parameters/pebs" ;;
		esac
	done
}

F=fpu,pebs,ds_cpl
# name | rc | a line that must be printed ('-': none) | a line that must not | host
CASES="amd-no-kvm|77|this CPU is AuthenticAMD, not Intel|kvm_intel is not loaded|AuthenticAMD 25 1 fpu
amd-no-kvm-dev|77|no /dev/kvm|-|AuthenticAMD 25 1 fpu
icx-ready|0|-|kvm:|GenuineIntel 6 106 $F dev mod pmu=Y
no-module|77|kvm_intel is not loaded: sudo modprobe kvm_intel|no /dev/kvm|GenuineIntel 6 106 $F dev pmu=Y
pmu-off|77|kvm.enable_pmu=N|-|GenuineIntel 6 106 $F dev mod pmu=N
hybrid|77|a hybrid CPU turns it off|-|GenuineIntel 6 151 $F,hybrid_cpu dev mod pmu=N
dev-ro|77|/dev/kvm is not readable and writable|-|GenuineIntel 6 106 $F dev-ro mod pmu=Y
skl-no-ept|0|guests get PEBS only where the host's PEBS is EPT-friendly|not booting|GenuineIntel 6 94 $F dev mod pmu=Y
no-pebs-flag|0|the host shows no PEBS|not booting|GenuineIntel 6 106 fpu dev mod pmu=Y
pebs-param-off|0|kvm_intel.pebs=N|not booting|GenuineIntel 6 106 $F dev mod pmu=Y pebs=N
pebs-param-on|0|-|kvm:|GenuineIntel 6 94 $F dev mod pmu=Y pebs=Y"

fail=0
while IFS='|' read -r name want_rc want refuse host; do
	d=$tmp/$name
	if [ "$name" = dev-ro ] && [ "$(id -u)" = 0 ]; then
		echo "SKIP: kvm-host: $name: run as root, to whom every file is writable"
		continue
	fi
	# shellcheck disable=SC2086
	mkhost "$d" $host
	out=$(PEBSPROBE_HOST_ROOT=$d tools/kvm-host-check.sh 2>&1)
	rc=$?
	why=''
	[ "$rc" = "$want_rc" ] || why="exit $rc, expected $want_rc"
	[ "$want" = - ] || grep -qF -- "$want" <<<"$out" || why="${why:+$why; }no line with '$want'"
	[ "$refuse" = - ] || ! grep -qF -- "$refuse" <<<"$out" || why="${why:+$why; }a line with '$refuse'"
	if [ -z "$why" ]; then
		echo "PASS: kvm-host: $name: exit $rc"
	else
		echo "FAIL: kvm-host: $name: $why; printed: $(tr '\n' '|' <<<"$out")"
		fail=1
	fi
done <<<"$CASES"

# run-qemu.sh --kvm: the checks come before make and QEMU (a missing build is not built).
out=$(PEBSPROBE_HOST_ROOT=$tmp/amd-no-kvm BUILD=$tmp/no-build ./run-qemu.sh --kvm 2>&1)
rc=$?
if [ "$rc" = 77 ] && grep -q '^kvm: this CPU is AuthenticAMD' <<<"$out" && [ ! -e "$tmp/no-build" ]; then
	echo "PASS: kvm-host: run-qemu.sh --kvm on an AMD host exits 77 before building"
else
	echo "FAIL: kvm-host: run-qemu.sh --kvm on an AMD host: exit $rc: $(tr '\n' '|' <<<"$out")"
	fail=1
fi
exit "$fail"
