# pmu: sources of this unit (see the top-level Makefile).
PURE_SRCS += pmu/hw.c
PURE_SRCS += pmu/session.c
