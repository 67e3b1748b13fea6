# sim: the simulated PMU (docs/SIM.md).  Pure C, built into the app and the host library.
PURE_SRCS += \
	sim/acr.c \
	sim/cache.c \
	sim/coherence.c \
	sim/constraints.c \
	sim/cpuid.c \
	sim/engine.c \
	sim/events.c \
	sim/evtsel.c \
	sim/handoff.c \
	sim/kvm.c \
	sim/models.c \
	sim/msr.c \
	sim/msr_pebs.c \
	sim/paging.c \
	sim/placement.c \
	sim/record.c \
	sim/rules.c \
	sim/sim.c \
	sim/timer.c \
	sim/snapshot.c \
	sim/tsc.c
