# pmu: sources of this unit (see the top-level Makefile).
PURE_SRCS += pmu/hw.c
PURE_SRCS += pmu/session.c
PURE_SRCS += pmu/session_msr.c
PURE_SRCS += pmu/session_result.c
PURE_SRCS += pmu/pebs_arch.c
PURE_SRCS += pmu/pebs_count.c
PURE_SRCS += pmu/pebs_ds.c
PURE_SRCS += pmu/pmi.c
PURE_SRCS += pmu/cpu.c
PURE_SRCS += pmu/cpu_pebs.c

PURE_SRCS += pmu/uarch.c
PURE_SRCS += pmu/constraints.c
PURE_SRCS += pmu/event.c
PURE_SRCS += pmu/plan.c
PURE_SRCS += pmu/snapshot.c
PURE_SRCS += pmu/offcore.c
PURE_SRCS += pmu/acr.c
PURE_SRCS += pmu/handoff.c
PURE_SRCS += pmu/extra_regs.c

# Intel's perfmon event tables: generated from data/perfmon at build time by
# tools/perfmon-gen.py (layout in pmu/perfmon_data.h, API in pmu/perfmon.h).
PURE_SRCS += pmu/perfmon.c
GEN_SRCS += $(BUILD)/gen/perfmon_tables.c
PERFMON_DATA := data/perfmon/mapfile.csv data/perfmon/PROVENANCE.md \
	$(wildcard data/perfmon/*/events/*.json)

$(BUILD)/gen/perfmon_tables.c: tools/perfmon-gen.py $(PERFMON_DATA)
	@mkdir -p $(dir $@)
	python3 tools/perfmon-gen.py data/perfmon $@

# perfmon-dump: the tables through the API, for tests/host/check-perfmon.sh.
HOST_TOOLS += $(BUILD)/host/perfmon-dump
$(BUILD)/host/perfmon-dump: tools/perfmon-dump.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)
CHECK_DEPS += $(BUILD)/host/perfmon-dump
