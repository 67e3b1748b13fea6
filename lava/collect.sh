#!/bin/sh
# SPDX-License-Identifier: MIT
# collect.sh [--mux SG] STICK - a LAVA user command (docs/LAVA.md "Results
# and log"): prints the results.json and pebsprobe.log that pebsprobe left
# on the ESP of STICK (a block device or image: GPT with the ESP at 1 MiB as
# tools/mkusb.sh writes it, or a bare FAT ESP), each between a "begin" and
# an "end" line.  LAVA's command action logs every output line of a user
# command in the job log ("output: ..."), which is how the files leave the
# worker: a test shell, LAVA's way to upload files, needs an OS on the DUT.
# --mux SG: a USB-SD-Mux's control device: switched to the worker for the
# read and back to the machine after (as the flasher commands do).
# Exit 0 also when a file is missing (results=none, log=none): a line says
# so; 1 when the stick cannot be read as FAT at all.
set -u
mux=
if [ "${1:-}" = --mux ]; then
	mux=$2
	shift 2
fi
if [ $# -ne 1 ]; then
	echo "collect.sh: usage: collect.sh [--mux SG] STICK" >&2
	exit 2
fi
stick=$1
if [ -n "$mux" ]; then
	usbsdmux "$mux" host || exit 1
	sleep 3
fi
# The ESP: the partition at 1 MiB of a USB image, else the whole of STICK.
img=$stick@@1M
mdir -i "$img" ::/ >/dev/null 2>&1 || img=$stick
rc=0
if ! mdir -i "$img" ::/ >/dev/null 2>&1; then
	echo "pebsprobe-collect: $stick: no FAT file system at 1 MiB or at 0"
	rc=1
else
	for f in results.json pebsprobe.log; do
		if mtype -i "$img" "::/EFI/BOOT/$f" >"${TMPDIR:-/tmp}/pebsprobe-collect.$$" 2>/dev/null; then
			echo "pebsprobe-collect: begin $f"
			cat "${TMPDIR:-/tmp}/pebsprobe-collect.$$"
			# A file need not end with a newline: the end marker gets a line of its own.
			[ -z "$(tail -c 1 "${TMPDIR:-/tmp}/pebsprobe-collect.$$")" ] || echo
			echo "pebsprobe-collect: end $f"
		else
			echo "pebsprobe-collect: no \\EFI\\BOOT\\$f on the stick"
		fi
	done
	rm -f "${TMPDIR:-/tmp}/pebsprobe-collect.$$"
fi
[ -z "$mux" ] || usbsdmux "$mux" client || rc=1
exit $rc
