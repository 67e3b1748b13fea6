#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-results.sh - build/host/pebs-results: JUnit (parsed), TAP, the
# 80-column table and --baseline, on real version-1 files and version-2
# fixtures (tests/results/); one error line and exit 2 for each bad input.
set -u
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 tests/results/check_results.py "${BUILD:-build}"
