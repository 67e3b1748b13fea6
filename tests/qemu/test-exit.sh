#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# exit=reboot resets the machine instead of reporting through isa-debug-exit:
# under -no-reboot QEMU then quits with 0, which run-qemu.sh must not take
# for a pass (it says so and exits 99: the environment, not a PEBS failure).  The default, exit=shutdown, carries
# the status (covered by every other test).
. "$(dirname "$0")/lib.sh"

boot reboot -- pmu=hw mode=report exit=reboot
expect_rc reboot 99
expect_line "exit=reboot: the app finished first" "$T/reboot.out" '^INFO: exit status 0 \(exit=reboot\)$'
if grep -q 'QEMU exited without a status from the app' "$T/reboot.err"; then
	pass "exit=reboot: run-qemu.sh says no status came back"
else
	fail "exit=reboot" "run-qemu.sh did not explain: $(tail -1 "$T/reboot.err")"
fi

# QEMU's own failure exits 1, the same code isa-debug-exit gives for status
# 0: run-qemu.sh must not read it as "all passed", nor as a PEBS failure:
# 99, the environment.  A status counts only with the app's "INFO: exit
# status N (exit=shutdown)" line agreeing.
qemu_case() { # name want-rc stderr-regex, then env assignments (run-qemu.sh's environment)
	local name=$1 want=$2 re=$3 rc
	shift 3
	env "$@" ./run-qemu.sh --timeout 60 >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	if [ "$rc" = "$want" ]; then pass "$name: exit status $want"; else fail "$name" "exit status $rc, want $want"; fi
	if [ -n "$re" ]; then
		n=$(grep -c '^run-qemu.sh: ' "$T/$name.err")
		if [ "$n" = 1 ] && grep -qE "$re" "$T/$name.err"; then
			pass "$name: one run-qemu.sh error line"
		else
			fail "$name" "want one line /$re/ on stderr, got: $(grep '^run-qemu.sh: ' "$T/$name.err" | head -3)"
		fi
	fi
}
qemu_case no-firmware 99 '^run-qemu.sh: QEMU failed \(exit code 1\) before the app reported its exit status$' \
	OVMF_CODE=/nonexistent
qemu_case qemu-exits-1 99 '^run-qemu.sh: QEMU failed \(exit code 1\)' QEMU=false

# Stand-ins for QEMU that print a transcript and exit with a chosen code.
fake() { # file line rc
	printf '#!/bin/sh\nprintf "%%s\\r\\n" "%s"\nexit %s\n' "$2" "$3" >"$1"
	chmod +x "$1"
}
fake "$T/q-agree" 'INFO: exit status 0 (exit=shutdown) [sim]' 1
qemu_case status-agrees 0 '' QEMU="$T/q-agree"
fake "$T/q-77" 'INFO: exit status 77 (exit=shutdown)' 155
qemu_case status-77 77 '' QEMU="$T/q-77"
fake "$T/q-differ" 'INFO: exit status 0 (exit=shutdown)' 3
qemu_case status-disagrees 99 '^run-qemu.sh: the app printed exit status 0 but QEMU.s isa-debug-exit gave 1' \
	QEMU="$T/q-differ"
fake "$T/q-noline" 'INFO: exit status 0 (exit=reboot)' 1
qemu_case status-line-missing 99 '^run-qemu.sh: QEMU failed \(exit code 1\)' QEMU="$T/q-noline"

fake "$T/q-99" 'INFO: exit status 99 (exit=shutdown)' 199
qemu_case status-99 99 '' QEMU="$T/q-99"

# A boot killed at --timeout says what it was doing: its last console lines.
printf '#!/bin/sh\nprintf "INFO: kernel chase-l1: start\\r\\n"\nexec sleep 60\n' >"$T/q-hang"
chmod +x "$T/q-hang"
QEMU="$T/q-hang" ./run-qemu.sh --timeout 2 >/dev/null 2>"$T/hang.err"
rc=$?
if [ "$rc" -eq 124 ] && grep -q '^run-qemu.sh: timed out after 2s; the last console lines were:$' "$T/hang.err" &&
	grep -q '^    INFO: kernel chase-l1: start$' "$T/hang.err"; then
	pass "timeout: exit 124 with the last console lines"
else
	fail "timeout" "exit $rc, want 124 and the last console lines: $(head -3 "$T/hang.err" | tr '\n' ';')"
fi

# Argument errors: one "run-qemu.sh: " line naming the limit, exit 2, nothing booted.
arg_case() { # name stderr-regex args...
	local name=$1 re=$2 rc n
	shift 2
	QEMU=false ./run-qemu.sh "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	n=$(wc -l <"$T/$name.err")
	if [ "$rc" = 2 ] && [ "$n" = 1 ] && grep -qE "$re" "$T/$name.err"; then
		pass "run-qemu.sh $*: one line, exit 2"
	else
		fail "run-qemu.sh $*" "exit $rc, $n stderr lines: $(head -2 "$T/$name.err")"
	fi
}
arg_case config-missing "^run-qemu.sh: --config '/nonexistent': no such file \(accepted: a config file\)$" \
	--config /nonexistent
arg_case image-missing "^run-qemu.sh: --image '/nonexistent': no such file \(accepted: an image file\)$" \
	--image /nonexistent
arg_case smp-no-value '^run-qemu.sh: --smp needs a value \(accepted: --smp N, a number 1\.\.288, or N,sockets=S,cores=C,threads=T\)$' --smp
arg_case smp-then-flag '^run-qemu.sh: --smp needs a value' --smp --kvm
arg_case smp-zero "^run-qemu.sh: --smp '0': not a number 1\.\.288 \(accepted: N or N,sockets=S,cores=C,threads=T with N 1\.\.288\)$" --smp 0
arg_case smp-many "^run-qemu.sh: --smp '289': more than 288 \(accepted: N or N,sockets=S,cores=C,threads=T with N 1\.\.288\)$" --smp 289
arg_case esp-no-folder "^run-qemu.sh: '/nonexistent/x.img': the folder /nonexistent does not exist \(accepted: a file name in an existing folder" \
	--esp /nonexistent/x.img
arg_case mem-bad "^run-qemu.sh: --mem '2X': not a size \(accepted: MiB, or a number with M or G" --mem 2X
arg_case timeout-zero "^run-qemu.sh: --timeout '0': not seconds \(accepted: a number, 1 or more\)$" --timeout 0
arg_case unknown-arg "^run-qemu.sh: unknown argument '--frob' \(accepted: --kvm .* --readonly .* -- options\)$" --frob
arg_case app-option-no-dashes "^run-qemu.sh: 'kernels=chase-l1' is an option of the app: give it after -- \(accepted: \./run-qemu\.sh \[ARGS\] -- kernels=chase-l1\)$" \
	kernels=chase-l1
arg_case vnc-bad "^run-qemu.sh: --vnc '5': not a display \(accepted: :N, N 0\.\.99\)$" --vnc 5
arg_case vnc-no-value '^run-qemu.sh: --vnc needs a value \(accepted: --vnc :N, N 0\.\.99\)$' --vnc

# --mem reaches QEMU as -m (a stand-in QEMU prints its arguments).
printf '#!/bin/sh\necho "$*" >"%s"\nprintf "INFO: exit status 0 (exit=shutdown)\\r\\n"\nexit 1\n' \
	"$T/args" >"$T/q-args"
chmod +x "$T/q-args"
QEMU="$T/q-args" ./run-qemu.sh --mem 3G >/dev/null 2>&1
if grep -q -- '-m 3G ' "$T/args"; then pass "run-qemu.sh --mem 3G: QEMU -m 3G"; else
	fail "run-qemu.sh --mem" "QEMU got: $(cat "$T/args")"; fi
QEMU="$T/q-args" ./run-qemu.sh >/dev/null 2>&1
if grep -q -- '-m 2048M ' "$T/args"; then pass "run-qemu.sh: default -m 2048M"; else
	fail "run-qemu.sh default memory" "QEMU got: $(cat "$T/args")"; fi

# --vnc shows the VGA screen on a VNC display; --print-cmd prints the
# command that ran, QEMU's arguments the same (a stand-in QEMU records them).
QEMU="$T/q-args" ./run-qemu.sh --vnc :7 >/dev/null 2>&1
if grep -q -- '-display vnc=:7 -vga std ' "$T/args"; then pass "run-qemu.sh --vnc :7: -display vnc=:7 -vga std"; else
	fail "run-qemu.sh --vnc" "QEMU got: $(cat "$T/args")"; fi
QEMU="$T/q-args" ./run-qemu.sh --print-cmd --smp 3 >/dev/null 2>"$T/print-cmd.err"
printed=$(sed -n 's/^run-qemu.sh: //p' "$T/print-cmd.err" | head -n 1)
if [ -n "$printed" ] && [ "$(eval "set -- $printed"; shift; echo "$*")" = "$(cat "$T/args")" ]; then
	pass "run-qemu.sh --print-cmd: the command QEMU ran, on stderr"
else
	fail "run-qemu.sh --print-cmd" "printed '$printed', QEMU got '$(cat "$T/args")'"
fi

# --config FILE with -- OPTIONS: the file's lines, then the options, each
# part after a #@source line naming it; neither dropped.  The stand-in
# QEMU reads PEBSPROBE.CFG back from the disk it was given.
printf '#!/bin/sh\nfor a; do case $a in *id=esp*) d=${a#*file=}; d=${d%%%%,*} ;; esac; done\n' >"$T/q-cfg"
printf 'mtype -i "$d" ::/EFI/BOOT/PEBSPROBE.CFG >"%s"\n' "$T/cfg.out" >>"$T/q-cfg"
printf 'printf "INFO: exit status 0 (exit=shutdown)\\r\\n"\nexit 1\n' >>"$T/q-cfg"
chmod +x "$T/q-cfg"
printf 'kernels=chase-l1\nldlat=9' >"$T/merge.cfg"
QEMU="$T/q-cfg" ./run-qemu.sh --config "$T/merge.cfg" -- ldlat=10 verbose=1 >/dev/null 2>&1
want=$(printf '# written by run-qemu.sh\n#@source %s\nkernels=chase-l1\nldlat=9\n#@source run-qemu.sh -- OPTIONS\nldlat=10 verbose=1' "$T/merge.cfg")
if [ "$(tr -d '\r' <"$T/cfg.out" 2>/dev/null)" = "$want" ]; then
	pass "run-qemu.sh --config F -- OPTIONS: F's lines, then the options"
else
	fail "run-qemu.sh --config F -- OPTIONS" "PEBSPROBE.CFG was: $(tr '\n' '|' <"$T/cfg.out" 2>/dev/null)"
fi

# --help prints the whole comment header, its last sentence included.
./run-qemu.sh --help >"$T/help.out" 2>&1
h_rc=$?
if [ "$h_rc" = 0 ] && tail -n 1 "$T/help.out" | grep -q 'e.g. Skylake-Client for an Intel vCPU).$' &&
	grep -q '^  --kvm ' "$T/help.out"; then
	pass "run-qemu.sh --help: whole header, exit 0"
else
	fail "run-qemu.sh --help" "rc $h_rc, last line: $(tail -n 1 "$T/help.out")"
fi
