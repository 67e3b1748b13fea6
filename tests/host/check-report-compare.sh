#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-report-compare.sh - build/host/pebs-report with several runs side by
# side, read back without a browser (tests/report/check_compare.py): the same
# run twice, a good and a faulty run, one CPU against four; a malformed run is
# one error line and exit 2.
set -u
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 tests/report/check_compare.py "${BUILD:-build}"
