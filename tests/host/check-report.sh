#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-report.sh - build/host/pebs-report rendered by headless Chromium
# (tests/report/check_report.py): no console error, one histogram per
# kernel per run, the differences between two runs marked, the per-CPU
# table, the test x CPU grid of 64 and 576 synthetic CPUs; screenshots in
# $BUILD/test-logs/report-*.png.
set -u
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 tests/report/check_report.py "${BUILD:-build}"
