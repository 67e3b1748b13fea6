#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A simulated run says so where a reader looks: the banner, every PASS,
# FAIL and SKIP line, SUMMARY and RESULT end with " [sim]", and no other
# line does (lib/report.h), on the console (serial) and in the log file
# alike, with pmu=sim and with the default pmu=auto (QEMU TCG shows no PMU,
# so the simulator runs).  The firmware's own lines come before the
# banner; the banner must be the app's first line (no app-grammar line
# before it).  A real-backend run carries no mark: tests/qemu/boots.cfg
# [report].
. "$(dirname "$0")/lib.sh"

app_line='^(INFO|PASS|FAIL|SKIP|MSR|REC|ERROR|SUMMARY): '
want_mark='^(INFO: pebsprobe |PASS: |FAIL: |SKIP: |SUMMARY: |RESULT: )'
marked() { # name
	local name=$1 n bad f
	logfile "$name"
	for f in out log; do
		n=$(wc -l <"$T/$name.$f")
		if [ "$n" -lt 5 ]; then
			fail "$name: $f: the mark where it belongs" "only $n app lines"
			continue
		fi
		bad=$(grep -E "$want_mark" "$T/$name.$f" | grep -v ' \[sim\]$' | head -1)
		[ -z "$bad" ] && bad=$(grep -vE "$want_mark" "$T/$name.$f" | grep ' \[sim\]$' | head -1)
		if [ -z "$bad" ]; then
			pass "$name: $f: [sim] on the banner, verdicts, SUMMARY and RESULT only ($n lines)"
		else
			fail "$name: $f: [sim] on the banner, verdicts, SUMMARY and RESULT only" "$bad"
		fi
	done
	expect_line "$name: the banner is marked" "$T/$name.out" '^INFO: pebsprobe .* \[sim\]$'
	bad=$(sed -n '/^INFO: pebsprobe /q;p' "$T/$name.serial" | grep -E "$app_line" | head -1)
	if [ -z "$bad" ]; then pass "$name: the banner is the app's first line"
	else fail "$name: the banner is the app's first line" "before it: $bad"; fi
}

boot sim -- pmu=sim mode=report verbose=1
expect_rc sim 0
marked sim
boot auto -- kernels=chase-l1
expect_rc auto 0
expect_line "auto: the decision line says why" "$T/auto.out" \
	'^INFO: pmu=auto: hypervisor .*: running the simulated PMU, model skl '
expect_line "auto: a verdict is marked" "$T/auto.out" '^PASS: chase-l1/load: .* \[sim\]$'
expect_line "auto: RESULT is marked" "$T/auto.out" '^RESULT: PASS \(exit 0\) \[sim\]$'
marked auto
