# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# budget.sh - boot time limits from a measurement, not a guess (sourced by
# tests/qemu/lib.sh and test-mainjob.sh).
#
#   qemu_limit FACTOR   prints the seconds a boot may take: FACTOR times the
#                       no-op boot (below).  QEMU_TIMEOUT, when
#                       set, is used instead (a limit chosen by hand).
#   qemu_noop_init      sets and exports QEMU_NOOP_S, the no-op boot's time
#                       in seconds, unless it is set already (tests/run-all.sh
#                       measures it once, at the start of the QEMU tests) or
#                       QEMU_TIMEOUT is; call it before qemu_limit.
#   timed_out_report NAME LIMIT FILE
#                       the lines a test prints when a boot was killed at its
#                       limit: what the limit was made of and the last console
#                       lines of FILE (the serial transcript), indented.
#
# The no-op boot is `./run-qemu.sh -- pmu=sim model=list`: OVMF starts, the
# app prints its banner and the model list and exits.  It costs what every
# boot costs (run-qemu.sh's checks, the image copy, QEMU and OVMF start-up,
# the app's start), on this machine under its load at that time.  A test's
# FACTOR is 5 times the ratio of its heaviest boot to the no-op boot, both
# measured beside a second boot (make check-load): the no-op boot took 7 s
# alone and 20 s there, so the load can nearly triple after it is measured
# and a boot still has room (docs/ARCHITECTURE.md "Boot time limits").

QEMU_NOOP_MIN=2 # a no-op boot measured faster than this counts as this

qemu_measure_noop() {
	local s e rc
	s=$(date +%s%N)
	BUILD=${BUILD:-build} ./run-qemu.sh --timeout 600 -- pmu=sim model=list >/dev/null 2>&1
	rc=$?
	e=$(date +%s%N)
	if [ "$rc" -ne 0 ]; then
		echo "budget.sh: the no-op boot failed (exit $rc); limits use 600 s as its time" >&2
		echo 600
		return
	fi
	echo $(((e - s + 999999999) / 1000000000))
}

# Measures the no-op boot once, in the calling shell (not in a $(...)), so
# that the scripts' later $(qemu_limit ...) see it.
qemu_noop_init() {
	[ -n "${QEMU_TIMEOUT:-}" ] && return
	if [ -z "${QEMU_NOOP_S:-}" ]; then
		QEMU_NOOP_S=$(qemu_measure_noop)
		export QEMU_NOOP_S
		echo "INFO: no-op boot: $QEMU_NOOP_S s (boot time limits scale from it)"
	fi
}

qemu_noop_seconds() {
	local s=${QEMU_NOOP_S:-600}
	if [ "$s" -lt "$QEMU_NOOP_MIN" ]; then echo "$QEMU_NOOP_MIN"; else echo "$s"; fi
}

qemu_limit() { # factor
	if [ -n "${QEMU_TIMEOUT:-}" ]; then
		echo "$QEMU_TIMEOUT"
		return
	fi
	echo $(($1 * $(qemu_noop_seconds)))
}

timed_out_report() { # name limit serial-file
	echo "--- $1: killed at its limit of $2 s ($(qemu_limit_why)); the last console lines:"
	# run-qemu.sh's own lines (a transcript with its stderr) are not the boot's.
	sed -e '/^[[:space:]]*$/d' -e '/^run-qemu.sh: /,$d' "$3" 2>/dev/null | tail -n 8 | sed 's/^/    /'
}

qemu_limit_why() {
	if [ -n "${QEMU_TIMEOUT:-}" ]; then
		echo "QEMU_TIMEOUT"
	else
		echo "the factor times the no-op boot's $(qemu_noop_seconds) s"
	fi
}
