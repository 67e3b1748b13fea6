# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# join.sh - sourced by tests/qemu/lib.sh and test-mainjob.sh.
#
#   join_wrapped <IN >OUT   the console's 80-column lines made whole: a line
#       that starts with 4 spaces continues the one before it (lib/report.h
#       report_wrap), after one space, with the line's " [sim]" once.
join_wrapped() {
	awk '/^    / { sub(/^ +/, ""); sub(/ \[sim\]$/, "", prev); prev = prev " " $0; next }
	     { if (have) print prev; prev = $0; have = 1 }
	     END { if (have) print prev }'
}
