# sim: sources of this unit (see the top-level Makefile).
PURE_SRCS += sim/sim.c
