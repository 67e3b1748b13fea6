#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# kvm-host-check.sh - what ./run-qemu.sh --kvm needs of the host, checked
# before booting (docs/KVM.md "./run-qemu.sh --kvm"): one "kvm: ..." line on
# stderr per missing piece, with how to fix it.  Exit 77 where a run cannot
# be meaningful (no /dev/kvm, not an Intel CPU, kvm_intel not loaded, the
# vPMU off), 0 otherwise; no guest PEBS is a warning, the run still checks
# the rest.  PEBSPROBE_HOST_ROOT=DIR reads DIR/dev/kvm, DIR/proc/cpuinfo and
# DIR/sys/module/... instead (tests/host/check-kvm-host.sh).
set -u
root=${PEBSPROBE_HOST_ROOT:-}
fatal=0

say() { echo "kvm: $*" >&2; }
missing() { say "$*"; fatal=1; }

cpuinfo=$root/proc/cpuinfo
field() { # the first value of a /proc/cpuinfo field
	sed -n "s/^$1[[:space:]]*: *//p" "$cpuinfo" 2>/dev/null | head -n 1
}

if [ ! -e "$root/dev/kvm" ]; then
	missing "no /dev/kvm: KVM is not available here (enable VT-x in the firmware and load" \
		"kvm_intel; inside a VM, the outer hypervisor must allow nested virtualisation)"
elif [ ! -r "$root/dev/kvm" ] || [ ! -w "$root/dev/kvm" ]; then
	missing "/dev/kvm is not readable and writable by you: add yourself to group kvm" \
		"(sudo usermod -aG kvm \$USER) and log in again"
fi

vendor=$(field vendor_id)
if [ "$vendor" != GenuineIntel ]; then
	missing "this CPU is ${vendor:-unknown (no $cpuinfo)}, not Intel: PEBS is Intel's, so a" \
		"KVM guest here has none; run without --kvm (TCG, pmu=sim) or on an Intel host"
else
	if [ ! -d "$root/sys/module/kvm_intel" ]; then
		missing "kvm_intel is not loaded: sudo modprobe kvm_intel"
	fi
	# Linux kvm/x86.c module_param(enable_pmu); kvm/pmu.c kvm_init_pmu_capability
	# turns it off on a hybrid CPU, whatever was asked.
	pmu_param=$root/sys/module/kvm/parameters/enable_pmu
	if [ -r "$pmu_param" ]; then
		case $(cat "$pmu_param") in
		Y | y | 1) ;;
		*)
			if grep -qw hybrid_cpu "$cpuinfo"; then
				missing "the host's KVM gives guests no PMU: a hybrid CPU turns it off" \
					"(kvm/pmu.c kvm_init_pmu_capability); no parameter brings it back"
			else
				missing "the host's KVM gives guests no PMU (kvm.enable_pmu=N): reload it" \
					"with the PMU on (sudo modprobe -r kvm_intel kvm;" \
					"sudo modprobe kvm enable_pmu=1; sudo modprobe kvm_intel)"
			fi
			;;
		esac
	fi
	# Guest PEBS needs EPT-friendly PEBS (kvm/vmx/capabilities.h vmx_pebs_supported,
	# x86_pmu.pebs_ept: core.c ICELAKE_X/D, ds.c PEBS format 5 and 6). Mainline
	# kvm_intel has no parameter for it; a kernel that has one is believed.
	pebs_param=$root/sys/module/kvm_intel/parameters/pebs
	model=$(field model)
	if [ -r "$pebs_param" ]; then
		case $(cat "$pebs_param") in
		Y | y | 1) ;;
		*) say "warning: kvm_intel.pebs=N: guests get no PEBS, the run SKIPs it (rule kvm-no-pebs)" ;;
		esac
	elif ! grep -qw pebs "$cpuinfo"; then
		say "warning: the host shows no PEBS (no 'pebs' in /proc/cpuinfo flags): guests get" \
			"none, the run SKIPs it (rule kvm-no-pebs)"
	elif [ "$(field 'cpu family')" = 6 ] && { [ "$model" = 106 ] || [ "$model" = 108 ]; }; then
		: # Ice Lake server: pebs_ept (core.c intel_pmu_init ICELAKE_X/D)
	else
		say "note: guests get PEBS only where the host's PEBS is EPT-friendly (Ice Lake" \
			"server, PEBS format 5: Sapphire Rapids and later; dmesg 'PEBS fmt5'); elsewhere" \
			"the run SKIPs it (rule kvm-no-pebs, docs/KVM.md)"
	fi
fi

if [ "$fatal" -ne 0 ]; then
	say "a KVM run cannot be meaningful on this host: not booting (exit 77)"
	exit 77
fi
exit 0
