#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-report-grid.sh - the HTML report's logic on many CPUs as tables of
# cases (tests/report/check_grid.py): the test x CPU grid and when its
# columns merge, the figures per core type and per differing CPU, and the
# synthetic many-CPU results.json (tests/report/gen_results.py) against the
# tools' reader and the keys of a real run.
set -u
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 tests/report/check_grid.py
