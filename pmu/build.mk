# pmu: sources of this unit (see the top-level Makefile).
PURE_SRCS += \
	pmu/acr.c \
	pmu/constraints.c \
	pmu/cpu.c \
	pmu/cpu_pebs.c \
	pmu/cpu_quirk.c \
	pmu/errata.c \
	pmu/event.c \
	pmu/extra_regs.c \
	pmu/guest.c \
	pmu/handoff.c \
	pmu/hw.c \
	pmu/offcore.c \
	pmu/pebs_arch.c \
	pmu/pebs_count.c \
	pmu/paging.c \
	pmu/pebs_ds.c \
	pmu/pebs_flavour.c \
	pmu/perfmon.c \
	pmu/plan.c \
	pmu/plan_counters.c \
	pmu/plan_encode.c \
	pmu/pmi.c \
	pmu/session.c \
	pmu/session_msr.c \
	pmu/session_result.c \
	pmu/snapshot.c \
	pmu/uarch.c \
	pmu/uarch_models.c \
	pmu/uarch_table.c

# Intel's perfmon event tables: generated from data/perfmon at build time by
# tools/perfmon-gen.py (layout in pmu/perfmon_data.h, API in pmu/perfmon.h);
# pmu/perfmon.c, listed above, is their API.
GEN_SRCS += $(BUILD)/gen/perfmon_tables.c
PERFMON_DATA := data/perfmon/mapfile.csv data/perfmon/PROVENANCE.md \
	$(wildcard data/perfmon/*/events/*.json)

$(BUILD)/gen/perfmon_tables.c: tools/perfmon-gen.py $(PERFMON_DATA)
	@mkdir -p $(dir $@)
	python3 tools/perfmon-gen.py data/perfmon $@
