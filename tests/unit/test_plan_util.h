/* SPDX-License-Identifier: MIT */
/*
 * test_plan_util.h - the plan case (struct plan_case) of the plan_build()
 * tables (test_pmu_plan.c, test_pmu_plan_counters.c) and run_plan_case(),
 * which builds a row's CPU and session and checks every field the row
 * sets.  PERFEVTSEL by hand: USR = bit 16 (0x10000), OS = bit 17
 * (0x20000), INT = bit 20, EN = bit 22 (0x400000), ADAPTIVE = bit 34.
 */
#ifndef TEST_PLAN_UTIL_H
#define TEST_PLAN_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include "ds/ds.h"
#include "pmu/perfmon.h"
#include "pmu/msr.h"
#include "pmu/plan.h"
#include "pmu/uarch.h"
#include "test_util.h"

static pp_unused struct session_cfg cfg_for(const struct cpu_info *ci, enum pebs_kind kind,
					    const char *ev)
{
	struct session_cfg c;

	memset(&c, 0, sizeof(c));
	c.ci = ci;
	c.kind = kind;
	c.sample_event = ev;
	c.ldlat = 3;
	return c;
}

static pp_unused int build(const struct session_cfg *c, struct pmu_plan *p, char *why)
{
	return plan_build(c, c->ci, p, why, 256); /* job/job.c's size */
}

struct want {
	bool set;
	uint64_t v;
};
#define W(x)                                                                                       \
	{                                                                                          \
		true, (uint64_t)(x)                                                                \
	}

/*
 * One plan case.  The CPU: test_cpu_intel() of model, fmt, baseline, n_gp
 * and version, then the fields the row sets (0 keeps test_cpu_intel()'s;
 * arch_gp not 0 makes it an arch-PEBS part, CPUID.23H with PEBS_FMT 0xF).
 * The session: cfg_for() of kind and event, count events in count[], then
 * the options the row sets.  The answer: rc, up to three words the refusal
 * must hold, and the wanted fields (W()); ctr_u[u] and ctr_u_in[u] are the
 * counter of count[u] (exact, or a mask of the allowed GP counters).
 * PERFEVTSEL by hand as above; PEBS_ENABLE: bit n PMC n, 32+n LL_EN_PMCn
 * (SDM 18.9.4.2), 63 PS_EN (18.9.4.3), 32+n fixed counter n (Ice Lake+).
 */
struct plan_case {
	const char *what;
	uint32_t family; /* 0: 6 */
	uint32_t model;
	unsigned int fmt, n_gp, version;
	bool baseline;
	unsigned int n_fixed, stepping; /* 0: test_cpu_intel()'s */
	uint32_t microcode;		/* 0: test_cpu_intel()'s */
	bool hybrid;			/* CPUID.07H:EDX[15], with core_type and native */
	enum cpu_core_type core_type;
	uint32_t native;
	uint32_t gp_mask, fixed_mask;		    /* a VMM's counter bitmaps; 0: all */
	uint32_t arch_gp, arch_pdist_gp, arch_caps; /* CPUID.23H */
	bool ext_valid;				    /* CPUID.23H.0 present */
	uint32_t ext;				    /* CPUID.23H.0:EBX */
	enum pebs_kind kind;
	const char *event;
	unsigned int ldlat; /* 0: cfg_for()'s 3 */
	bool ldlat_zero;    /* ldlat=0 given */
	uint64_t period, data_cfg;
	bool force_records, count_only;
	const char *count[4]; /* the counted events */
	int rc;
	const char *refusal[3]; /* words the refusal must hold */
	struct want ctr, kind_out, code, pebs_enable, evtsel, evtsel0, copy_evtsel, copy_idx,
	    count0_ctr, count0_evtsel, n_count, aux_ctr, use_ldlat, ldlat_out, period_out, rec_size,
	    global_ctrl, global_fixed, fixed_ctrl, fixed_used, data_cfg_out, adaptive, precise,
	    pdist, frontend, rsp0, cmask, ctr_u[4];
	uint64_t ctr_u_in[4];
};

/* The CPUs most rows use. */
#define NHM .model = 0x1e, .fmt = 1, .n_gp = 4, .version = 3
#define WSM .model = 0x2c, .fmt = 1, .n_gp = 4, .version = 3
#define SNB .model = 0x2a, .fmt = 1, .n_gp = 4, .version = 3
#define HSW .model = 0x3c, .fmt = 2, .n_gp = 4, .version = 4
#define SKL .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4
#define GLM .model = 0x5c, .fmt = 3, .n_gp = 4, .version = 4
#define ICX .model = 0x6a, .fmt = 4, .baseline = true, .n_gp = 8, .version = 5
#define SPR .model = 0x8f, .fmt = 5, .baseline = true, .n_gp = 8, .version = 5
#define ADL_P                                                                                      \
	.model = 0x97, .fmt = 4, .baseline = true, .n_gp = 8, .version = 5, .hybrid = true,        \
	.core_type = CORE_TYPE_CORE, .native = 1
#define LNL_P                                                                                      \
	.model = 0xbd, .fmt = 6, .baseline = true, .n_gp = 10, .version = 6, .hybrid = true,       \
	.core_type = CORE_TYPE_CORE, .native = 3
/* an arch-PEBS part (PEBS_FMT 0xF) of a model the tables do not know */
#define ARCH_DE .model = 0xde, .fmt = 4, .baseline = true, .n_gp = 8, .version = 6, .arch_gp = 0xff

/* The counter of the count[] entry with user index u; -1 if none. */
static pp_unused int ctr_of(const struct pmu_plan *p, int u)
{
	for (unsigned int i = 0; i < p->n_count; i++)
		if (p->count[i].user_idx == u)
			return p->count[i].ctr;
	return -1;
}

/* The counter of Linux's mem-loads-aux event 0x8203 (ds.c); -1 if not counted. */
static pp_unused int aux_ctr(const struct pmu_plan *p)
{
	for (unsigned int i = 0; i < p->n_count; i++)
		if (pmu_event_code(&p->count[i].ev) == 0x8203)
			return p->count[i].ctr;
	return -1;
}

/* The CPU of a row: test_cpu_intel() and the fields the row sets. */
static pp_unused struct cpu_info case_cpu(const struct plan_case *t)
{
	struct cpu_info ci = test_cpu_intel(t->model, t->fmt, t->baseline, t->n_gp, t->version);

	if (t->family)
		ci.family = t->family;
	if (t->n_fixed)
		ci.n_fixed = t->n_fixed;
	if (t->stepping)
		ci.stepping = t->stepping;
	if (t->microcode)
		ci.microcode = t->microcode;
	ci.hybrid = t->hybrid;
	ci.core_type = t->core_type;
	ci.native_model = t->native;
	ci.gp_mask = t->gp_mask;
	ci.fixed_mask = t->fixed_mask;
	if (t->arch_gp) {
		ci.arch_pebs = true;
		ci.arch_pebs_gp = t->arch_gp;
		ci.arch_pebs_fixed = 0x7;
		ci.arch_pebs_pdist_gp = t->arch_pdist_gp;
		ci.arch_pebs_caps = t->arch_caps;
		ci.perf_caps = (uint64_t)PEBS_FMT_ARCH << 8;
	}
	ci.ext.valid = t->ext_valid;
	ci.ext.evtsel_ext = t->ext;
	return ci;
}

#define CHECK(field, got)                                                                          \
	do {                                                                                       \
		if (t->field.set && (uint64_t)(got) != t->field.v)                                 \
			print_error("case '%s': %s\n", t->what, #field);                           \
		if (t->field.set)                                                                  \
			assert_int_equal((uint64_t)(got), t->field.v);                             \
	} while (0)

static pp_unused void run_plan_case(const struct plan_case *t)
{
	struct cpu_info ci = case_cpu(t);
	struct session_cfg c = cfg_for(&ci, t->kind, t->event);
	struct pmu_plan p;
	char why[256] = "";
	int rc;

	if (t->ldlat || t->ldlat_zero)
		c.ldlat = t->ldlat;
	c.period = t->period;
	c.data_cfg = t->data_cfg;
	c.force_records = t->force_records;
	c.count_only = t->count_only;
	for (unsigned int i = 0; i < ARRAY_SIZE(t->count) && t->count[i]; i++)
		c.count_events[c.n_count_events++] = t->count[i];
	rc = build(&c, &p, why);
	if (rc != t->rc)
		print_error("case '%s': plan_build() %d (%s)\n", t->what, rc, why);
	assert_int_equal(rc, t->rc);
	for (unsigned int i = 0; i < ARRAY_SIZE(t->refusal) && t->refusal[i]; i++)
		if (!strstr(why, t->refusal[i]))
			fail_msg("case '%s': refusal '%s' lacks '%s'", t->what, why, t->refusal[i]);
	if (rc)
		return;
	if (t->cmask.set)
		assert_in_range(p.sample_ctr, 0, 31);
	CHECK(ctr, p.sample_ctr);
	CHECK(kind_out, p.kind);
	CHECK(code, pmu_event_code(&p.sample));
	CHECK(pebs_enable, p.pebs_enable);
	CHECK(evtsel, p.evtsel[p.sample_ctr]);
	CHECK(evtsel0, p.evtsel[0]);
	CHECK(copy_idx, p.copy_idx);
	CHECK(count0_ctr, p.count[0].ctr);
	CHECK(copy_evtsel, p.evtsel[p.count[0].ctr]);
	CHECK(n_count, p.n_count);
	CHECK(aux_ctr, aux_ctr(&p));
	CHECK(use_ldlat, p.use_ldlat);
	CHECK(ldlat_out, p.ldlat);
	CHECK(period_out, p.period);
	CHECK(rec_size, p.rec_size);
	CHECK(global_ctrl, p.global_ctrl);
	CHECK(global_fixed, p.global_ctrl >> 32);
	CHECK(fixed_ctrl, p.fixed_ctrl);
	CHECK(fixed_used, p.fixed_used);
	CHECK(data_cfg_out, p.data_cfg);
	CHECK(adaptive, p.adaptive);
	CHECK(precise, p.sample_precise);
	CHECK(pdist, p.sample_pdist);
	CHECK(frontend, p.use_frontend ? p.frontend : 0);
	CHECK(rsp0, p.use_rsp[0] ? p.rsp[0] : 0);
	CHECK(cmask, (p.evtsel[p.sample_ctr] >> 24) & 0xff);
	for (int u = 0; u < (int)ARRAY_SIZE(t->ctr_u); u++) {
		int ctr = ctr_of(&p, u);

		CHECK(ctr_u[u], ctr);
		if (t->count0_evtsel.set && u == 0)
			assert_in_range(ctr, 0, 63);
		if (t->ctr_u_in[u] && (ctr < 0 || ctr >= 32 || !(t->ctr_u_in[u] & BIT_ULL(ctr))))
			fail_msg("case '%s': count[%d] on %d, not in 0x%llx", t->what, u, ctr,
				 (unsigned long long)t->ctr_u_in[u]);
	}
	CHECK(count0_evtsel, p.evtsel[ctr_of(&p, 0)]);
}

#endif
