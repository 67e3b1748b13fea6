# sim: the simulated PMU (docs/SIM.md).  Pure C, built into the app and the host library.
PURE_SRCS += sim/sim.c sim/models.c sim/events.c sim/cpuid.c sim/msr.c sim/rules.c \
	sim/cache.c sim/coherence.c sim/engine.c sim/record.c sim/placement.c sim/tsc.c sim/evtsel.c sim/acr.c \
	sim/snapshot.c sim/constraints.c sim/handoff.c
