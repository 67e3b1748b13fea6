#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run-qemu.sh - boots pebsprobe under QEMU + OVMF and exits with its status.
#
#   ./run-qemu.sh [--kvm] [--usb] [--smp N] [--mem SIZE] [--timeout S]
#                 [--log FILE] [--esp FILE] [--image FILE] [--config FILE]
#                 [--loadopts] [--readonly] [--screen] [--vnc :N] [--print-cmd]
#                 [-- name=value ...]
#
# Builds what is missing (make), copies the boot image so the run can write
# its log and results, boots it headless (q35, Debian's OVMF, serial on
# stdout, isa-debug-exit on port 0xf4) and exits with the app's status:
# 0 passed, 1 a PEBS/PMU test failed, 2 bad options, 77 all skipped, 99 the
# environment failed.  The status counts only when the app's line
# "INFO: exit status N (exit=shutdown)" is in the transcript and agrees
# with isa-debug-exit; otherwise (the build failed, QEMU could not start,
# crashed, or the app rebooted or never finished) it exits 99 with one
# "run-qemu.sh: ..." line on stderr.  124: timed out.  2 also for a bad
# argument to run-qemu.sh itself, with one line on stderr.
#
#   --kvm        -enable-kvm -cpu host,pmu=on,migratable=no (PMU passthrough),
#                after tools/kvm-host-check.sh: one "kvm:" line per missing
#                piece, exit 77 where the run cannot be meaningful
#   --usb        boot build/usb.img as a USB stick (qemu-xhci + usb-storage)
#   --smp N      N processors, 1..288 (default 1); QEMU's topology form
#                N,sockets=S,cores=C,threads=T names packages, cores, threads
#   --mem SIZE   guest memory: MiB, or a number with M or G (default 2G, room
#                for the largest default kernel under --kvm)
#   --timeout S  kill QEMU after S seconds, exit 124 (default 300), with the
#                last 8 console lines on stderr
#   --log FILE   also write the serial transcript to FILE
#   --esp FILE   keep the booted (written) image as FILE, to read files back
#   --image F    boot a copy of image F instead of build/esp.img (build/usb.img)
#   --config F   use file F as \EFI\BOOT\PEBSPROBE.CFG of the copy; with
#                -- options too, both: F's lines, then the options (which win)
#   --readonly   attach the image read-only (readonly=on): a write-protected
#                ESP, on which the app writes nothing and exits 99
#   --screen     give the guest a VGA screen (-vga std); without it -vga none:
#                no graphics console to draw, the serial transcript the same
#   --vnc :N     --screen, shown on VNC display :N (port 5900+N), N 0..99
#   --print-cmd  print the QEMU command line on stderr before running it
#   --loadopts   pass the options as LoadOptions instead (QEMU -kernel/-append,
#                as a boot entry or the UEFI shell would); the image is still
#                attached for the config and log files
#   -- ...       the app's options; written into \EFI\BOOT\PEBSPROBE.CFG of
#                the copy, since removable-media boot passes no LoadOptions
#
# Environment: BUILD (default build), QEMU, OVMF_CODE, OVMF_VARS, KVM_CPU (the
# -cpu value of --kvm, e.g. "host,pmu=on,migratable=no,-arch-capabilities"
# where the host kernel refuses an MSR QEMU sets), TCG_CPU (the -cpu value
# without --kvm, default max; e.g. Skylake-Client for an Intel vCPU).
set -u
cd "$(dirname "$0")" || exit 1
BUILD=${BUILD:-build}
QEMU=${QEMU:-qemu-system-x86_64}
OVMF_CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
OVMF_VARS=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}

kvm=false usb=false loadopts=false readonly=false print_cmd=false vga=none display=none vnc='' smp=1 timeout=300 log='' keep='' config='' image_arg=''
# 2 GiB: room for the largest default kernel's working set under --kvm (chase-dram,
# 1 GiB, kernels/kernels.c) beside the firmware's own memory
mem=2048
app_opts=()
usage() {
	# The comment block at the top of this file, up to its first code line.
	sed -n '4,/^[^#]/p' "$0" | sed -e '/^[^#]/d' -e 's/^# \{0,1\}//'
	exit 0
}
bad() { # one line naming what was wrong and what is accepted, exit 2
	echo "run-qemu.sh: $*" >&2
	exit 2
}
# The value of option $1, which must be there and not be another option.
value() {
	if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#--}" != "$2" ]; then
		bad "$1 needs a value (accepted: $1 $(valname "$1"))"
	fi
	printf '%s' "$2"
}
valname() {
	case $1 in
	--smp) echo "N, a number 1..$SMP_MAX, or N,sockets=S,cores=C,threads=T" ;; --timeout) echo "S, seconds 1.." ;;
	--mem) echo "SIZE, MiB or a number with M or G: 512, 2G" ;; --vnc) echo ":N, N 0..99" ;;
	*) echo FILE ;;
	esac
}
SMP_MAX=288
while [ $# -gt 0 ]; do
	case $1 in
	--kvm) kvm=true ;;
	--usb) usb=true ;;
	--loadopts) loadopts=true ;;
	--readonly) readonly=true ;;
	--screen) vga=std ;;
	--print-cmd) print_cmd=true ;;
	--image | --config | --smp | --timeout | --log | --esp | --mem | --vnc)
		v=$(value "$@") || exit 2
		case $1 in
		--image) image_arg=$v ;; --config) config=$v ;; --smp) smp=$v ;; --vnc) vnc=$v ;;
		--timeout) timeout=$v ;; --log) log=$v ;; --esp) keep=$v ;; --mem) mem=$v ;;
		esac
		shift ;;
	--) shift; app_opts=("$@"); break ;;
	-h|--help) usage ;;
	[a-z]*=*) bad "'$1' is an option of the app: give it after -- (accepted: ./run-qemu.sh [ARGS] -- $1)" ;;
	*) bad "unknown argument '$1' (accepted: --kvm --usb --smp N --mem SIZE" \
		"--timeout S --log FILE --esp FILE --image FILE --config FILE --loadopts --readonly --screen" \
		"--vnc :N --print-cmd" \
		"-- options)" ;;
	esac
	shift
done
# --smp N[,sockets=S][,cores=C][,threads=T]: QEMU's -smp topology form (qemu-options.hx
# "-smp"); OVMF's MP services then name each CPU's package, core and thread.
smp_accepted="N or N,sockets=S,cores=C,threads=T with N 1..$SMP_MAX"
IFS=, read -r -a smp_parts <<<"$smp,"
smp_n=${smp_parts[0]}
case $smp_n in '' | *[!0-9]* | 0*) bad "--smp '$smp': not a number 1..$SMP_MAX (accepted: $smp_accepted)" ;; esac
[ "$smp_n" -le "$SMP_MAX" ] || bad "--smp '$smp': more than $SMP_MAX (accepted: $smp_accepted)"
smp_prod=1 smp_seen=' '
for kv in "${smp_parts[@]:1}"; do
	[ -n "$kv" ] || continue
	k=${kv%%=*} v=${kv#*=}
	case $k in sockets | cores | threads) ;; *) bad "--smp '$smp': unknown '$kv' (accepted: $smp_accepted)" ;; esac
	case $smp_seen in *" $k "*) bad "--smp '$smp': $k given twice (accepted: $smp_accepted)" ;; esac
	case $v in '' | *[!0-9]* | 0*) bad "--smp '$smp': $k '$v' is not a number 1.. (accepted: $smp_accepted)" ;; esac
	smp_seen="$smp_seen$k " smp_prod=$((smp_prod * v))
done
smp_keys=($smp_seen)
if [ ${#smp_keys[@]} -eq 3 ] && [ "$smp_prod" -ne "$smp_n" ]; then
	bad "--smp '$smp': sockets*cores*threads is $smp_prod, not $smp_n (accepted: $smp_accepted)"
fi
case $timeout in '' | *[!0-9]* | 0*) bad "--timeout '$timeout': not seconds (accepted: a number, 1 or more)" ;; esac
if [[ $mem =~ ^[1-9][0-9]*$ ]]; then
	mem_q=${mem}M
elif [[ $mem =~ ^[1-9][0-9]*[MG]$ ]]; then
	mem_q=$mem
else
	bad "--mem '$mem': not a size (accepted: MiB, or a number with M or G: 512, 2G)"
fi
[ -z "$image_arg" ] || [ -f "$image_arg" ] || bad "--image '$image_arg': no such file (accepted: an image file)"
[ -z "$config" ] || [ -f "$config" ] || bad "--config '$config': no such file (accepted: a config file)"
if [ -n "$vnc" ]; then
	[[ $vnc =~ ^:([0-9]|[1-9][0-9])$ ]] || bad "--vnc '$vnc': not a display (accepted: :N, N 0..99)"
	vga=std display=vnc=$vnc
fi
for f in "$log" "$keep"; do
	[ -z "$f" ] || [ -d "$(dirname -- "$f")" ] ||
		bad "'$f': the folder $(dirname -- "$f") does not exist (accepted: a file name in an existing folder; --log, --esp write it)"
done

# --kvm: what the host lacks, one line each, before building or booting (exit 77).
if $kvm; then
	tools/kvm-host-check.sh || exit $?
fi

tools/deps.sh || exit 99

if $usb; then image=$BUILD/usb.img target=usb part='@@1M'; else image=$BUILD/esp.img target=esp part=''; fi
if [ -n "$image_arg" ]; then
	image=$image_arg
	$loadopts && { make -s BUILD="$BUILD" all >&2 || exit 99; }
elif ! make -s BUILD="$BUILD" "$target" >&2; then
	echo "run-qemu.sh: make $target failed" >&2
	exit 99
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-qemu.XXXXXX")
trap 'rm -rf "$work"' EXIT
disk=$work/disk.img
cp "$image" "$disk"
cp "$OVMF_VARS" "$work/vars.fd"
# --config and -- options together: one file, the config's lines then the
# options (a later option wins), each part after a "#@source NAME" line so
# that the app's error names the file or the options a bad line came from
# (docs/OPTIONS.md); neither is dropped.
if [ ${#app_opts[@]} -gt 0 ] && ! $loadopts; then
	{
		echo '# written by run-qemu.sh'
		if [ -n "$config" ]; then
			printf '#@source %s\n' "$config"
			cat -- "$config"
			echo
		fi
		printf '#@source run-qemu.sh -- OPTIONS\n%s\n' "${app_opts[*]}"
	} >"$work/PEBSPROBE.CFG"
	mcopy -o -i "$disk$part" "$work/PEBSPROBE.CFG" ::/EFI/BOOT/PEBSPROBE.CFG
elif [ -n "$config" ]; then
	mcopy -o -i "$disk$part" "$config" ::/EFI/BOOT/PEBSPROBE.CFG
fi

# Values with commas are quoted: they are one QEMU argument each.
args=(-machine q35 -m "$mem_q" -smp "$smp" -no-reboot -net none
	-display "$display" -vga "$vga" -monitor none -serial stdio
	-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
	-drive "if=pflash,format=raw,unit=1,file=$work/vars.fd"
	-device "isa-debug-exit,iobase=0xf4,iosize=0x04")
if $loadopts; then
	args+=(-kernel "$BUILD/pebsprobe.efi" -append "pebsprobe.efi ${app_opts[*]}")
fi
if $kvm; then
	args+=(-enable-kvm -cpu "${KVM_CPU:-host,pmu=on,migratable=no}")
else
	args+=(-cpu "${TCG_CPU:-max}")
fi
ro=''
$readonly && ro=',readonly=on'
if $usb; then
	args+=(-device "qemu-xhci,id=xhci" -drive "if=none,id=stick,format=raw,file=$disk$ro"
		-device "usb-storage,bus=xhci.0,drive=stick,removable=on")
else
	args+=(-drive "if=none,id=esp,format=raw,file=$disk$ro" -device "virtio-blk-pci,drive=esp")
fi

# The serial transcript: the firmware's own output carries ANSI escapes and
# CRs; pebsprobe's lines do not, but strip them all so the log is plain text.
# A copy is kept to check the status against (below).
clean() { sed -u -e 's/\x1b\[[0-9;?=]*[A-Za-z]//g' -e 's/\x1b[()][A-Z0-9]//g' -e 's/\r$//'; }
serial=$work/serial.log
tee_to=("$serial")
[ -n "$log" ] && tee_to+=("$log")
if $print_cmd; then
	printf 'run-qemu.sh: %q' "$QEMU" >&2
	printf ' %q' "${args[@]}" >&2
	echo >&2
fi
# --foreground: QEMU stays in this script's process group, so whatever stops
# run-qemu.sh (a test's time limit, tools/with-load.sh, Ctrl-C) stops QEMU too.
timeout --foreground -k 5 "$timeout" "$QEMU" "${args[@]}" </dev/null | clean | tee "${tee_to[@]}"
rc=${PIPESTATUS[0]}

[ -n "$keep" ] && cp "$disk" "$keep"

# QEMU's own failures exit 1, which is also what isa-debug-exit gives for
# status 0 ((0 << 1) | 1).  So a status counts only when the app printed
# its line "INFO: exit status N (exit=shutdown)" (or "(exit=return
# refused: reset)": a CPU still ran our code, efi/exit.c), and N agrees with
# the port's value: nothing else can print that line on the serial port.
app_status=$(sed -n 's/^INFO: exit status \([0-9]\{1,3\}\) (exit=\(shutdown\|return refused: reset\))\( \[sim\]\)\{0,1\}$/\1/p' \
	"$serial" | tail -n 1)
case $rc in
124 | 137)
	# What the boot was doing when it was killed: its last console lines
	# (a slow machine and a hung kernel or CPU look different here).
	if grep -q '[^[:space:]]' "$serial"; then
		echo "run-qemu.sh: timed out after ${timeout}s; the last console lines were:" >&2
		sed -e '/^[[:space:]]*$/d' "$serial" | tail -n 8 | sed 's/^/    /' >&2
	else
		echo "run-qemu.sh: timed out after ${timeout}s, with nothing on the console yet" >&2
	fi
	exit 124 ;;
0)
	# QEMU exited without a status: the app rebooted (exit=reboot, -no-reboot)
	# or the firmware shut down without isa-debug-exit.
	echo "run-qemu.sh: QEMU exited without a status from the app" >&2
	exit 99 ;;
esac
if [ $((rc & 1)) -eq 0 ] || [ -z "$app_status" ]; then
	echo "run-qemu.sh: QEMU failed (exit code $rc) before the app reported its exit status" >&2
	exit 99
fi
if [ "$app_status" -ne $((rc >> 1)) ]; then
	echo "run-qemu.sh: the app printed exit status $app_status but QEMU's isa-debug-exit" \
		"gave $((rc >> 1)) (exit code $rc)" >&2
	exit 99
fi
exit "$app_status"
