#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every line of a simulated run says so: from the banner to the exit status
# line, console (serial) and log file alike, end with " [sim]", with
# pmu=sim and with the default pmu=auto (QEMU TCG shows no PMU, so the
# simulator runs).  The firmware's own lines come before the banner; the
# banner must be the app's first line (no app-grammar line before it).
. "$(dirname "$0")/lib.sh"

app_line='^(INFO|PASS|FAIL|SKIP|MSR|REC|ERROR|SUMMARY): '
marked() { # name
	local name=$1 n bad
	n=$(wc -l <"$T/$name.out")
	if [ "$n" -lt 5 ]; then
		fail "$name: every line ends with [sim]" "only $n app lines"
		return
	fi
	bad=$(grep -v ' \[sim\]$' "$T/$name.out" | head -1)
	if [ -z "$bad" ]; then
		pass "$name: all $n console lines end with [sim]"
	else
		fail "$name: every line ends with [sim]" "unmarked: $bad"
	fi
	bad=$(sed -n '/^INFO: pebsprobe /q;p' "$T/$name.serial" | grep -E "$app_line" | head -1)
	if [ -z "$bad" ]; then pass "$name: the banner is the app's first line"
	else fail "$name: the banner is the app's first line" "before it: $bad"; fi
	mtype -i "$T/$name.img" ::/EFI/BOOT/pebsprobe.log | tr -d '\r' >"$T/$name.log"
	n=$(wc -l <"$T/$name.log")
	bad=$(grep -v ' \[sim\]$' "$T/$name.log" | head -1)
	if [ "$n" -ge 5 ] && [ -z "$bad" ]; then
		pass "$name: all $n log file lines end with [sim]"
	else
		fail "$name: every log line ends with [sim]" "$n lines; unmarked: $bad"
	fi
	expect_line "$name: the exit status line is marked too" "$T/$name.out" \
		'^INFO: exit status 0 \(exit=shutdown\) \[sim\]$'
}

boot sim -- pmu=sim mode=report verbose=1
expect_rc sim 0
marked sim
boot auto -- mode=report
expect_rc auto 0
expect_line "auto: the decision line says why" "$T/auto.out" \
	'^INFO: pmu=auto: hypervisor .*: running the simulated PMU, model skl .* \[sim\]$'
marked auto

# A real-backend run carries no mark.
boot hw -- pmu=hw mode=report
expect_no_line "hw: no [sim] line" "$T/hw.out" ' \[sim\]$'
