# SPDX-License-Identifier: MIT
"""lava_ids - the name LAVA gives a test case its monitor found, and the
rule pebsprobe's verdict names must keep under it.

A monitor's match (LAVA docs: Test / Monitors) becomes a case whose name is
the match's test_case_id stripped, in lower case, with every run of
characters other than letters, digits and "_" made one "_"; the id as
matched is kept beside it in the result's extra.test_case_id.  Source:
lava_dispatcher/actions/test/monitor.py, TestMonitorAction.check_patterns
(LAVA 2023.01, as in Debian 12, and LAVA's main branch); the docs'
actions-test.rst, Monitors, say the same of "invalid characters".  So
"chase-l1/load@cpu3" is accepted, kept whole in extra.test_case_id, and
named chase_l1_load_cpu3: "/", "-" and "@" all become "_".

The rule: no two verdict names of one run may give the same case name,
or LAVA would show two CPUs' (or two tests') verdicts as one case."""

import collections
import re

NOT_WORD = re.compile(r"\W+")


def lava_case(test_case_id):
    """The case name LAVA's monitor records for test_case_id."""
    return NOT_WORD.sub("_", test_case_id.strip().lower())


def collisions(ids):
    """[(case, [ids])] for each case name that distinct ids share, sorted."""
    by_case = collections.defaultdict(set)
    for i in ids:
        by_case[lava_case(i)].add(i)
    return sorted((c, sorted(s)) for c, s in by_case.items() if len(s) > 1)
