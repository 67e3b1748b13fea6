#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 31's 32-CPU run: six CPUs of 32 with a skid fault print at most 1.3
# times the console lines of the same run without faults, and the FAIL line
# names skid (job/aggregate.c: the failing CPUs' deciding clause first).
# Two boots of 32 CPUs, about 25 s each on 2 host cores; optional: run with
# PEBSPROBE_LONG=1 (a SKIP line says so otherwise).  test_job_aggregate checks
# the same on 32 host CPUs in every run.
. "$(dirname "$0")/lib.sh"

if [ -z "${PEBSPROBE_LONG:-}" ]; then
	skip "many-faults" "two 32-CPU boots: optional, run with PEBSPROBE_LONG=1"
	exit 0
fi
faults=sim-fault=cpu3:skid,cpu9:skid,cpu12:skid,cpu17:skid,cpu20:skid,cpu30:skid
boot faulty --smp 32 -- "$faults" kernels=chase-l1
boot clean --smp 32 -- kernels=chase-l1
# Console lines as the serial port shows them, from the banner on.
n_faulty=$(wc -l <"$T/faulty.raw")
n_clean=$(wc -l <"$T/clean.raw")
if [ "$(rc_of faulty)" != 1 ] || [ "$(rc_of clean)" != 0 ]; then
	fail "many-faults: exit" "$(rc_of faulty) with faults, $(rc_of clean) without (want 1, 0)"
elif [ "$n_clean" -gt 0 ] && [ $((n_faulty * 10)) -le $((n_clean * 13)) ]; then
	pass "many-faults: $n_faulty console lines, $n_clean without faults (at most 1.3x)"
else
	fail "many-faults: console lines" "$n_faulty with six failing CPUs, $n_clean without (over 1.3x)"
fi
expect_line "many-faults: the FAIL line names the CPUs and skid" "$T/faulty.out" \
	'^FAIL: chase-l1/load: 32 CPUs: FAIL 3,9,12,17,20,30: exact IPs .*: skid '
