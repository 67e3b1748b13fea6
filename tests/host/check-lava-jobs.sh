#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-lava-jobs.sh - the LAVA jobs and device descriptions (lava/) against
# LAVA's own schema (lava-common), and their test patterns against a real
# transcript fed in chunks as pexpect sees it (tests/lava/check_lava_jobs.py).
# Running the jobs is make lava-check.
set -u
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 tests/lava/check_lava_jobs.py
