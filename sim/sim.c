// SPDX-License-Identifier: MIT
/*
 * sim.c - simulated PMU: model selection and the hw_ops backend.
 * (First cut: links; the MSR file, rules and PEBS engine follow.)
 */
#include "sim.h"
#include "../lib/report.h"

static const struct sim_model_info sim_models[] = {
	{ "skl", "Skylake client (06_5E), PEBS fmt3" },
};

static const struct sim_model_info *cur_model;
static sim_violation_fn violation_fn;
static void *violation_ctx;
static unsigned int violations;
static uint64_t sim_tsc;

size_t sim_model_count(void)
{
	return ARRAY_SIZE(sim_models);
}

const struct sim_model_info *sim_model_at(size_t i)
{
	return i < ARRAY_SIZE(sim_models) ? &sim_models[i] : NULL;
}

int sim_select(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sim_models); i++) {
		if (!strcmp(sim_models[i].name, name)) {
			cur_model = &sim_models[i];
			return 0;
		}
	}
	return -1;
}

const char *sim_current_model(void)
{
	return cur_model ? cur_model->name : NULL;
}

void sim_set_violation_handler(sim_violation_fn fn, void *ctx)
{
	violation_fn = fn;
	violation_ctx = ctx;
}

unsigned int sim_violation_count(void)
{
	return violations;
}

static void sim_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	(void)leaf;
	(void)subleaf;
	memset(r, 0, sizeof(*r));
}

static enum hw_fault sim_rdmsr(uint32_t msr, uint64_t *val)
{
	(void)msr;
	*val = 0;
	return HW_GP;
}

static enum hw_fault sim_wrmsr(uint32_t msr, uint64_t val)
{
	(void)msr;
	(void)val;
	return HW_GP;
}

static uint64_t sim_rdtsc(void)
{
	return sim_tsc += 100;
}

static const struct hw_ops sim_ops = {
	.name = "sim",
	.simulated = true,
	.cpuid = sim_cpuid,
	.rdmsr = sim_rdmsr,
	.wrmsr = sim_wrmsr,
	.rdtsc = sim_rdtsc,
};

const struct hw_ops *sim_hw_ops(void)
{
	return &sim_ops;
}
