#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-results-consumers.sh - pebs-results' JUnit validated by xmllint
# against Jenkins' xUnit plugin schema (tests/results/junit-10.xsd), its TAP
# read by Perl's prove with no parse error, and one failure count in JUnit,
# TAP, the table, the HTML report and SUMMARY (tests/results/check_consumers.py).
set -u
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 tests/results/check_consumers.py "${BUILD:-build}"
