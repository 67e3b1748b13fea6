#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-results-guest.sh - pebs-results --baseline between a bare-metal run
# and a KVM guest run: the differences the guest rules explain are expected
# and name the rule, the rest stay regressions (tests/results/check_guest.py).
set -u
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 tests/results/check_guest.py
