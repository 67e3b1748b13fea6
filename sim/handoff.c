// SPDX-License-Identifier: MIT
/*
 * handoff.c - sim-handoff=: PMU state left behind on chosen simulated CPUs
 * before the app starts, as firmware, an earlier boot of a debug tool or
 * an OS that ran perf before a warm reboot would leave it.  Every register
 * is set through the simulated MSR file (sim/msr.c), so a kind the CPU
 * cannot hold is refused as the hardware would refuse the write.
 *
 * Facts the simulator enforces for these kinds:
 *   - BTS: with IA32_DEBUGCTL TR and BTS on, branch records go to the DS
 *     save area IA32_DS_AREA points at (SDM Vol. 3B 17.4.9 "BTS and DS
 *     Save Area").  Pointing DS_AREA at an area whose BTS buffer base is 0
 *     while BTS is on sends them to address 0: a rule violation.
 *   - MSR_SMI_COUNT (34H, SDM Vol. 4; Linux msr-index.h MSR_SMI_COUNT) is
 *     read-only and counts SMIs; present from PMU v3 (Linux
 *     arch/x86/events/msr.c lists Nehalem, the first v3 part, and later).
 *   - CTR_FRZ and CFG_B act as sim/engine.c and sim/acr.c model them.
 * Not modelled: the counts SMM itself adds while FREEZE_WHILE_SMM is off.
 */
#include "sim_int.h"
#include "../lib/platform.h"
#include "../lib/fmt.h"

#define DEBUGCTL_TR		  BIT_ULL(6)
#define DEBUGCTL_BTS		  BIT_ULL(7)
#define DEBUGCTL_FREEZE_WHILE_SMM BIT_ULL(14)
#define PERF_CAPS_SMM_FREEZE	  BIT_ULL(12)
#define CTR_FRZ			  BIT_ULL(59)
#define ARCH_PEBS_THRESHOLD	  BIT_ULL(54)
#define MSR_PERFEVTSEL0		  0x186
#define MSR_PMC0		  0xc1
#define MSR_DEBUGCTL		  0x1d9
#define MSR_GLOBAL_CTRL		  0x38f
#define MSR_STATUS_SET		  0x391
#define MSR_PEBS_BASE		  0x3f4
#define MSR_DS_AREA		  0x600
#define MSR_GP0_CFG_B		  0x1902
/* INST_RETIRED.ANY_P (architectural event C0H, SDM Vol. 3B Table 18-1), USR, OS, EN. */
#define LEFT_EVTSEL   0x4300c0ULL
#define LEFT_COUNT    0x1234ULL
#define EVTSEL_EN_BIT (1ULL << 22)
/* counter-int: the same event with INT (bit 20, SDM Vol. 3B 18.2.1.1), 16 short of overflow. */
#define LEFT_EVTSEL_INT (LEFT_EVTSEL | BIT_ULL(20))
#define LEFT_NEAR_OVF	16

/* The 64-bit DS save area's BTS fields: base, index, absolute maximum, threshold (SDM 17.4.9). */
#define BTS_RECORDS 16
struct bts_area {
	uint64_t ds[32];
	uint64_t buf[BTS_RECORDS * 3]; /* from, to, flags */
};

/* What one CPU was left with; grown to the CPU a sim-handoff= item names. */
struct left {
	uint32_t kinds; /* bit per enum sim_handoff_kind */
	uint32_t smi_per;
	uint64_t count_left; /* counter=V: V */
	uint64_t smi_count;
	uint64_t found_buffer; /* DS_AREA / PEBS_BASE as left */
	bool evtsel_moved;     /* lost-restore: PERFEVTSEL0 written otherwise since */
	bool int_fired;	       /* counter-int: its overflow happened */
	struct bts_area bts;
};

static struct left *left;
static unsigned int left_cap;

static int left_grow(unsigned int n)
{
	struct left *l;

	if (n <= left_cap)
		return 0;
	l = plat_alloc(n * sizeof(*l));
	if (!l)
		return -1;
	memset(l, 0, n * sizeof(*l));
	if (left) {
		memcpy(l, left, left_cap * sizeof(*l));
		plat_free(left);
	}
	left = l;
	left_cap = n;
	return 0;
}

static const char *const names[SIM_HANDOFF_KINDS] = {
    [SIM_HANDOFF_COUNTER] = "counter",
    [SIM_HANDOFF_BTS] = "bts",
    [SIM_HANDOFF_CTR_FRZ] = "ctr-frz",
    [SIM_HANDOFF_CFG_B] = "cfg-b",
    [SIM_HANDOFF_NO_SMM_FREEZE] = "no-smm-freeze",
    [SIM_HANDOFF_SMI] = "smi",
    [SIM_HANDOFF_LOST_RESTORE] = "lost-restore",
    [SIM_HANDOFF_ARCH_PEBS_OVF] = "arch-pebs-ovf",
    [SIM_HANDOFF_NO_SET_54] = "no-set-54",
    [SIM_HANDOFF_COUNT_LEFT] = "counter=",
    [SIM_HANDOFF_COUNTER_INT] = "counter-int",
};

int sim_handoff_parse(const char *name, enum sim_handoff_kind *k)
{
	for (unsigned int i = 0; i < SIM_HANDOFF_KINDS; i++) {
		if (!strcmp(name, names[i])) {
			*k = (enum sim_handoff_kind)i;
			return 0;
		}
	}
	return -1;
}

const char *sim_handoff_name(enum sim_handoff_kind k)
{
	return (unsigned int)k < SIM_HANDOFF_KINDS ? names[k] : NULL;
}

void sim_handoff_clear(void)
{
	for (unsigned int i = 0; i < left_cap; i++) {
		left[i].kinds = 0;
		left[i].smi_per = 0;
		left[i].smi_count = 0;
		left[i].found_buffer = 0;
		left[i].evtsel_moved = false;
		left[i].int_fired = false;
	}
}

static bool any_kind(void)
{
	for (unsigned int i = 0; i < left_cap; i++)
		if (left[i].kinds)
			return true;
	return false;
}

bool sim_handoff_has_smi(const struct sim_cpu *c)
{
	return c->m->vendor == SIM_INTEL && c->pmu.version >= 3;
}

uint64_t sim_handoff_smi_count(const struct sim_cpu *c)
{
	return c->index < left_cap ? left[c->index].smi_count : 0;
}

/*
 * A cause and a counter it reloads: the lowest counter whose overflow may
 * cause a reload, and the lowest other one that may be reloaded, so that
 * the first counter a plan takes reloads the next (Linux 6761bc1d3be5: a
 * stale CFG_B on a counter of one's own).
 */
static bool acr_pair(struct sim_cpu *c, unsigned int *gp, unsigned int *cause)
{
	struct cpuid_regs r;

	sim_cpuid_leaf(c->m, 0x23, 2, &r);
	for (unsigned int j = 0; j < c->pmu.n_gp; j++) {
		if (!(r.ecx & (1u << j)))
			continue;
		for (unsigned int i = 0; i < c->pmu.n_gp; i++) {
			if (i != j && (r.eax & (1u << i))) {
				*gp = i;
				*cause = j;
				return true;
			}
		}
	}
	return false;
}

/* One kind on one CPU; a write the CPU refuses is the kind it cannot hold. */
static int leave(struct sim_cpu *c, enum sim_handoff_kind k, char *why, size_t why_size)
{
	unsigned int i = c->index, gp, cause;
	struct bts_area *b = &left[i].bts;

	switch (k) {
	case SIM_HANDOFF_COUNTER:
	case SIM_HANDOFF_LOST_RESTORE:
		if (sim_msr_write(c, MSR_PMC0, LEFT_COUNT) ||
		    sim_msr_write(c, MSR_PERFEVTSEL0, LEFT_EVTSEL))
			break;
		return 0;
	case SIM_HANDOFF_COUNT_LEFT:
		/* counted there, not written: a value no 32-bit write could make */
		if (sim_msr_write(c, MSR_PERFEVTSEL0, LEFT_EVTSEL & ~EVTSEL_EN_BIT) ||
		    (left[i].count_left & ~c->pmu.gp_mask))
			break;
		c->pmc[0] = left[i].count_left;
		return 0;
	case SIM_HANDOFF_COUNTER_INT:
		if (sim_msr_write(c, MSR_PMC0, (0 - LEFT_NEAR_OVF) & c->pmu.gp_mask) ||
		    sim_msr_write(c, MSR_PERFEVTSEL0, LEFT_EVTSEL_INT) ||
		    sim_msr_write(c, MSR_GLOBAL_CTRL, c->global_ctrl | BIT_ULL(0)))
			break;
		return 0;
	case SIM_HANDOFF_BTS:
		memset(b, 0, sizeof(*b));
		b->ds[0] = (uint64_t)(uintptr_t)b->buf; /* BTS buffer base */
		b->ds[1] = b->ds[0];			/* BTS index */
		b->ds[2] = b->ds[0] + sizeof(b->buf);	/* absolute maximum */
		b->ds[3] = b->ds[2] + 24;		/* no interrupt */
		if (sim_msr_write(c, MSR_DS_AREA, (uint64_t)(uintptr_t)b->ds) ||
		    sim_msr_write(c, MSR_DEBUGCTL, c->debugctl | DEBUGCTL_TR | DEBUGCTL_BTS))
			break;
		return 0;
	case SIM_HANDOFF_CTR_FRZ:
		if (c->pmu.version < 4 || sim_msr_write(c, MSR_STATUS_SET, CTR_FRZ))
			break;
		return 0;
	case SIM_HANDOFF_CFG_B:
		if (!sim_acr_enumerated(c->m) || !acr_pair(c, &gp, &cause) ||
		    sim_msr_write(c, MSR_GP0_CFG_B + 4 * gp, BIT_ULL(cause)))
			break;
		return 0;
	case SIM_HANDOFF_NO_SMM_FREEZE:
		if (!(c->m->perf_caps & PERF_CAPS_SMM_FREEZE) ||
		    sim_msr_write(c, MSR_DEBUGCTL, c->debugctl & ~DEBUGCTL_FREEZE_WHILE_SMM))
			break;
		return 0;
	case SIM_HANDOFF_SMI:
		if (!sim_handoff_has_smi(c))
			break;
		return 0;
	/*
	 * Set as the threshold would set it, not through STATUS_SET, which
	 * no-set-54 may make refuse it.
	 */
	case SIM_HANDOFF_ARCH_PEBS_OVF:
		if (!(c->m->flags & F_ARCH_PEBS))
			break;
		c->global_status |= ARCH_PEBS_THRESHOLD;
		return 0;
	case SIM_HANDOFF_NO_SET_54:
		if (!(c->m->flags & F_ARCH_PEBS))
			break;
		return 0;
	default:
		break;
	}
	pp_snprintf(why, why_size, "cpu%u:%s: simulated CPU %u (%s) cannot hold it (%s)", i,
		    names[k], i, c->m->info.name,
		    k == SIM_HANDOFF_CFG_B	     ? "no auto counter reload: give sim-acr="
		    : k == SIM_HANDOFF_CTR_FRZ	     ? "CTR_FRZ needs PMU v4"
		    : k == SIM_HANDOFF_NO_SMM_FREEZE ? "no FREEZE_WHILE_SMM"
		    : k == SIM_HANDOFF_SMI	     ? "no MSR_SMI_COUNT before PMU v3"
		    : k >= SIM_HANDOFF_ARCH_PEBS_OVF ? "no arch-PEBS"
						     : "the write raised #GP");
	return -1;
}

/*
 * With any sim-handoff= item the firmware simulated freezes the counters
 * in SMM where the CPU can (PERF_CAPABILITIES[12]), so no-smm-freeze names
 * only its CPUs; then each CPU's own kinds.
 */
static int apply(struct sim_cpu *c, char *why, size_t why_size)
{
	unsigned int i = c->index;

	if (i >= left_cap || !any_kind())
		return 0;
	if (c->m->perf_caps & PERF_CAPS_SMM_FREEZE)
		sim_msr_write(c, MSR_DEBUGCTL, c->debugctl | DEBUGCTL_FREEZE_WHILE_SMM);
	for (unsigned int k = 0; k < SIM_HANDOFF_KINDS; k++)
		if ((left[i].kinds & (1u << k)) &&
		    leave(c, (enum sim_handoff_kind)k, why, why_size))
			return -1;
	left[i].found_buffer = c->ds_area | c->pebs_base;
	return 0;
}

/* The first kind a reset could not leave, and why (sim_set_handoff reports it). */
static bool apply_failed;
static char apply_why[200];

void sim_handoff_apply(struct sim_cpu *c)
{
	char why[sizeof(apply_why)];

	if (c->index < left_cap) {
		left[c->index].smi_count = 0;
		left[c->index].evtsel_moved = false;
		left[c->index].int_fired = false;
	}
	if (apply(c, why, sizeof(why)) && !apply_failed) {
		apply_failed = true;
		memcpy(apply_why, why, sizeof(why));
	}
}

int sim_set_handoff(unsigned int cpu, enum sim_handoff_kind k, uint64_t n, char *why,
		    size_t why_size)
{
	unsigned int ncpu = sim_cpu_count();

	if (cpu >= ncpu || (unsigned int)k >= SIM_HANDOFF_KINDS) {
		pp_snprintf(why, why_size, "cpu%u: no such simulated CPU (0-%u)", cpu,
			    ncpu ? ncpu - 1 : 0);
		return -1;
	}
	if (left_grow(ncpu)) {
		pp_snprintf(why, why_size, "no memory for %u simulated CPUs' hand-off state", ncpu);
		return -1;
	}
	left[cpu].kinds |= 1u << k;
	if (k == SIM_HANDOFF_SMI)
		left[cpu].smi_per = n ? (uint32_t)n : 1;
	if (k == SIM_HANDOFF_COUNT_LEFT)
		left[cpu].count_left = n;
	/* From the power-on state, every CPU again (the baseline may change on all). */
	apply_failed = false;
	sim_reset();
	if (!apply_failed)
		return 0;
	pp_snprintf(why, why_size, "%s", apply_why);
	left[cpu].kinds &= ~(1u << k);
	apply_failed = false;
	sim_reset();
	return -1;
}

/*
 * After every MSR write the CPU accepted: a PEBS buffer armed (DS_AREA or
 * PEBS_BASE set to an address other than the one left behind) is a
 * sampling starting, during which smi_per SMIs fire; DS_AREA replaced while
 * BTS is on must point at a BTS buffer.
 */
void sim_handoff_written(struct sim_cpu *c, uint32_t msr, uint64_t val)
{
	unsigned int i = c->index;

	if (i < left_cap && msr == MSR_PERFEVTSEL0 && val != LEFT_EVTSEL)
		left[i].evtsel_moved = true;
	if (i >= left_cap || (msr != MSR_DS_AREA && msr != MSR_PEBS_BASE) || !val)
		return;
	if (val != left[i].found_buffer)
		left[i].smi_count += left[i].smi_per;
	if (msr == MSR_DS_AREA &&
	    (c->debugctl & (DEBUGCTL_TR | DEBUGCTL_BTS)) == (DEBUGCTL_TR | DEBUGCTL_BTS) &&
	    !*(const uint64_t *)(uintptr_t)val)
		sim_violation(c, "bts-ds-area",
			      "cpu %u: DS_AREA set to 0x%llx while IA32_DEBUGCTL has TR and BTS "
			      "on: that area's BTS buffer base is 0, so branch records go to "
			      "address 0 (SDM Vol. 3B 17.4.9)",
			      i, (unsigned long long)val);
}

/*
 * no-set-54: a STATUS_SET write with bit 54 raises #GP, as a part whose
 * STATUS_SET leaves 54 reserved would (SDM Vol. 3C Table 35-2, pre-2024
 * edition: 54:35 reserved); KVM's arch-PEBS vPMU refuses it too.
 */
bool sim_handoff_refuses_set(const struct sim_cpu *c, uint64_t val)
{
	unsigned int i = c->index;

	return i < left_cap && (left[i].kinds & (1u << SIM_HANDOFF_NO_SET_54)) &&
	       (val & ARCH_PEBS_THRESHOLD);
}

/*
 * lost-restore: once PERFEVTSEL0 has been written with another value, the
 * write that puts back the value left there is dropped (the CPU answers
 * it, the register keeps what it had), as a restore that never reached
 * the register would: the hand-off check must see it.
 */
bool sim_handoff_drops(const struct sim_cpu *c, uint32_t msr, uint64_t val)
{
	unsigned int i = c->index;

	return i < left_cap && (left[i].kinds & (1u << SIM_HANDOFF_LOST_RESTORE)) &&
	       msr == MSR_PERFEVTSEL0 && val == LEFT_EVTSEL && left[i].evtsel_moved;
}

/*
 * counter-int: a firmware counter enabled with INT set and near overflow
 * keeps counting until someone stops it; on hardware it overflows within
 * microseconds.  The simulator picks the worst instant: the first LVTPC
 * unmask while it still counts with INT (EVTSEL0 as left, GLOBAL_CTRL bit 0
 * on).  The counter wraps and sets its GLOBAL_STATUS bit (SDM Vol. 3B
 * 18.2.2); the caller raises the PMI.
 */
bool sim_handoff_int_overflow(struct sim_cpu *c)
{
	unsigned int i = c->index;

	if (i >= left_cap || !(left[i].kinds & (1u << SIM_HANDOFF_COUNTER_INT)) ||
	    left[i].int_fired || c->evtsel[0] != LEFT_EVTSEL_INT || !(c->global_ctrl & BIT_ULL(0)))
		return false;
	left[i].int_fired = true;
	c->pmc[0] = 0;
	c->global_status |= BIT_ULL(0);
	return true;
}
