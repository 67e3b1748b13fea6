#!/bin/sh
# SPDX-License-Identifier: MIT
# power.sh on|off|cycle|collect STATE PORT - the power switch of the
# simulated lab (make lava-check): "on" starts the machine, QEMU + OVMF with
# the stick the flasher wrote (STATE/stick.img) on USB and its serial port
# connected to the console server (lava/sim-lab/console.py) on
# 127.0.0.1:PORT; "off" stops it; "cycle" does both, as a lab's PDU does.
# "collect" (the lab job's user command) waits up to 10 s for the machine
# to power itself off (exit=shutdown), then reads the stick
# (lava/collect.sh), as a lab's mux does once the machine is off.
set -u
what=$1 state=$2 port=${3:-0}
pidfile=$state/qemu.pid

off() {
	if [ -s "$pidfile" ]; then
		pid=$(cat "$pidfile")
		kill "$pid" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		rm -f "$pidfile"
	fi
	return 0
}

on() {
	exec >>"$state/qemu.log" 2>&1
	qemu-system-x86_64 -machine q35 -cpu max -smp 2 -m 512 -no-reboot -net none \
		-display none -monitor none -daemonize -pidfile "$pidfile" \
		-serial "tcp:127.0.0.1:$port" \
		-drive if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd \
		-drive if=pflash,format=raw,unit=1,snapshot=on,file=/usr/share/OVMF/OVMF_VARS_4M.fd \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-device qemu-xhci,id=xhci \
		-drive "if=none,id=stick,format=raw,file=$state/stick.img" \
		-device usb-storage,bus=xhci.0,drive=stick,removable=on,bootindex=1
}

case $what in
on) on ;;
off) off ;;
cycle) off && on ;;
collect)
	for _ in $(seq 50); do
		[ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null || break
		sleep 0.2
	done
	off
	exec "$(dirname "$0")/../collect.sh" "$state/stick.img"
	;;
*) echo "power.sh: '$what' (accepted: on, off, cycle, collect)" >&2; exit 2 ;;
esac
