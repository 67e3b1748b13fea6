// SPDX-License-Identifier: MIT
/*
 * engine.c - counting, overflow, the PEBS assist and the PMI.
 *
 * The kernels report what retired (hw_ops mem_access / retire).  Each
 * counter that counts at CPL 0 (the simulated CPU runs the firmware app in
 * ring 0, so EVTSEL.OS / FIXED_CTR_CTRL.OS are needed) advances on the
 * events of that instruction.  A counter that wraps past its width sets its
 * IA32_PERF_GLOBAL_STATUS bit; armed for PEBS it triggers the assist: one
 * record for every PEBS counter that overflowed on the instruction, the
 * counters reloaded from their reset values (DS area, or CFG_C for
 * arch-PEBS) and their status bits cleared when the record is written (SDM
 * 18.9.4.1 "PEBS Record Format").  A counter with EVTSEL.INT (fixed: PMI bit) requests
 * a PMI, as does the DS index reaching the interrupt threshold.
 *
 * Record timing: fault-like parts (PERF_CAPABILITIES.PEBS_TRAP = 0) write
 * the record at once; trap-like parts record the state after the eventing
 * instruction, so the record is written when the next instruction is
 * reported (its IP is R/EIP); Goldmont non-precise events and STATUS_SET
 * overflows give a record at the next retirement point (SDM 18.7.1).  A
 * pending record is also written before any MSR access, with the eventing
 * IP as R/EIP since the next IP is not known then.
 */
#include "../lib/platform.h"
#include "sim_int.h"

#define EVTSEL_OS	BIT_ULL(17)
#define EVTSEL_INT	BIT_ULL(20)
#define EVTSEL_EN	BIT_ULL(22)
#define EVTSEL_ADAPTIVE BIT_ULL(34)
#define LVT_MASK	BIT_ULL(16)
#define CTR_FRZ		BIT_ULL(59)

static bool frozen(const struct sim_cpu *c)
{
	return c->pmu.version >= 4 && (c->global_status & CTR_FRZ);
}

bool sim_gp_counting(const struct sim_cpu *c, unsigned int i)
{
	if (i >= c->pmu.n_gp || !(c->evtsel[i] & EVTSEL_EN) || frozen(c))
		return false;
	return c->pmu.version < 2 || (c->global_ctrl & BIT_ULL(i));
}

bool sim_fixed_counting(const struct sim_cpu *c, unsigned int i)
{
	if (i >= c->pmu.n_fixed || !(c->pmu.fixed_bitmap & (1u << i)) || frozen(c))
		return false;
	return ((c->fixed_ctrl >> (4 * i)) & 3) && (c->global_ctrl & BIT_ULL(32 + i));
}

bool sim_gp_pebs_armed(const struct sim_cpu *c, unsigned int i)
{
	if (!sim_gp_counting(c, i))
		return false;
	if (c->m->flags & F_ARCH_PEBS)
		return c->cfg_c_gp[i] & BIT_ULL(63);
	return c->pmu.pebs_usable && (c->pebs_enable & BIT_ULL(i));
}

/* Fixed-counter PEBS: bit 32+i with baseline (Linux ds.c intel_pmu_pebs_enable), CFG_C.EN for
 * arch-PEBS. */
bool sim_fixed_pebs_armed(const struct sim_cpu *c, unsigned int i)
{
	if (!sim_fixed_counting(c, i))
		return false;
	if (c->m->flags & F_ARCH_PEBS)
		return c->cfg_c_fx[i] & BIT_ULL(63);
	return c->pmu.pebs_usable && c->pmu.baseline && (c->pebs_enable & BIT_ULL(32 + i));
}

static uint64_t sext32(uint64_t v, uint64_t mask)
{
	return (uint64_t)(int64_t)(int32_t)(uint32_t)v & mask;
}

/* The reset (sample-after) value of a counter: DS pebs_event_reset[] or CFG_C[31:0]. */
static uint64_t reset_value(struct sim_cpu *c, unsigned int bit)
{
	bool fixed = bit >= 32;
	unsigned int i = fixed ? bit - 32 : bit, slot;
	uint64_t mask = fixed ? c->pmu.fixed_mask : c->pmu.gp_mask;

	if (c->m->flags & F_ARCH_PEBS)
		return sext32(fixed ? c->cfg_c_fx[i] : c->cfg_c_gp[i], mask);
	if (!c->ds_area)
		return 0;
	/* GP n at 0x40+8n; fixed i at index 8+i (fmt <= 4) or 32+i (fmt >= 5). */
	slot = fixed ? (c->pmu.fmt >= 5 ? 32 : 8) + i : i;
	/* Read through the loaded CR3 as the DS fields are (sim/rules.c sim_rules_ds_mapped). */
	if (!sim_rules_ds_mapped(c, "reset value (DS save area)", c->ds_area + 0x40 + 8 * slot, 8))
		return 0;
	return get_le64((const uint8_t *)(uintptr_t)c->ds_area + 0x40 + 8 * slot) & mask;
}

/* ---- PMI --------------------------------------------------------------- */

void sim_raise_pmi(struct sim_cpu *c)
{
	/* IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (SDM 18.2.4 / 17.4.7). */
	if (c->debugctl & BIT_ULL(12)) {
		if (c->pmu.version >= 4)
			c->global_status |= CTR_FRZ;
		else
			c->global_ctrl = 0;
	}
	if (c->lvtpc & LVT_MASK) {
		c->stats.pmis_masked++;
		return;
	}
	if (!c->pmi_pending) {
		c->pmi_wait = c->pmi_delay;
		c->pmi_lvt = c->lvtpc;
	}
	c->pmi_pending = true;
}

/* Instructions retired: a delayed PMI comes nearer (sim_set_pmi_delay). */
static void pmi_wait_retire(struct sim_cpu *c, uint64_t n)
{
	c->pmi_wait = c->pmi_wait > n ? c->pmi_wait - n : 0;
}

/*
 * TPL_HIGH_LEVEL on the boot CPU is interrupts off (UEFI spec 7.1 RaiseTPL):
 * a PMI taken by the local APIC waits in its IRR until the TPL drops.
 */
static bool tpl_holds(const struct sim_cpu *c)
{
	return sim_boot_cpu(c) && plat_tpl_high();
}

bool sim_apic_admits(const struct sim_cpu *c, uint8_t vector)
{
	unsigned int ppr = c->tpr >> 4, isrv = c->pmi_in_service ? c->isr_vector >> 4 : 0;

	return (unsigned int)(vector >> 4) > (isrv > ppr ? isrv : ppr);
}

/*
 * A PMI on its way (pmi_wait instructions still to retire) is dropped if
 * LVTPC is masked meanwhile; once there (pmi_wait 0) the local APIC holds it
 * in its IRR, at the vector LVTPC had, whatever is masked later, until the
 * CPU takes it: not while interrupts are off (sim_set_irq_off), not while
 * one is in service (fixed delivery, until the EOI) (SDM Vol. 3A 11.8.4),
 * not while TPR's priority class is the vector's or above (fixed delivery
 * only; SDM Vol. 3A 11.8.3.1).
 */
void sim_deliver_pmi(struct sim_cpu *c)
{
	while (c->pmi_pending && !c->in_pmi && !c->pmi_in_service) {
		uint32_t mode = (c->pmi_lvt >> 8) & 7, vec = c->pmi_lvt & 0xff;

		/* Still on its way (a masked LVTPC drops it below, at once). */
		if (c->pmi_wait && !(c->lvtpc & LVT_MASK))
			return;
		if (!c->pmi_wait && (c->irq_off || tpl_holds(c)) && !c->irq_window)
			return;
		if (!c->pmi_wait && mode == 0 && !sim_apic_admits(c, (uint8_t)vec))
			return;
		c->pmi_pending = false;
		if (c->pmi_wait) {
			c->stats.pmis_masked++;
			return;
		}
		if (!c->pmi_fn || (mode == 0 && vec != c->pmi_vector)) {
			/* The firmware's IDT: its default handler returns without an EOI. */
			c->stats.pmis_masked++;
			if (mode == 0) {
				c->pmi_in_service = true;
				c->isr_vector = (uint8_t)vec;
				sim_violation(
				    c, "pmi-no-eoi",
				    "PMI vector 0x%x delivered with no handler of ours "
				    "installed: the firmware's handler sends no EOI, so vectors "
				    "of priority class 0x%x and below stay blocked",
				    vec, vec >> 4);
			}
			return;
		}
		/* SDM 11.5.1: delivery sets the LVT mask bit; software clears it. */
		c->lvtpc |= LVT_MASK;
		c->isr_vector = (uint8_t)vec;
		c->pmi_in_service = mode == 0; /* fixed delivery waits for EOI; NMI does not */
		c->stats.pmis++;
		c->in_pmi = true;
		c->pmi_fn(c->pmi_ctx);
		c->in_pmi = false;
	}
}

/* ---- the assist -------------------------------------------------------- */

static bool is_mem_count(uint8_t cnt)
{
	return cnt >= CNT_LOADS && cnt <= CNT_4K_ALIAS;
}

/* Which fired counter's event describes the record (load latency first). */
static const struct sim_event *lead_event(const struct sim_cpu *c, uint64_t fired)
{
	static const uint8_t rank[] = {
	    [PEBS_NO] = 1, [PEBS_PRECISE] = 2, [PEBS_STLAT] = 3, [PEBS_PST] = 4, [PEBS_LDLAT] = 5};
	const struct sim_event *best = NULL;
	unsigned int i;

	for (i = 0; i < c->pmu.n_gp; i++) {
		const struct sim_event *e = c->ev[i];

		if (!(fired & BIT_ULL(i)) || !e)
			continue;
		if (!best || rank[e->pebs] > rank[best->pebs] ||
		    (rank[e->pebs] == rank[best->pebs] && is_mem_count(e->count)))
			best = e;
	}
	return best;
}

static bool adaptive_bit(const struct sim_cpu *c, uint64_t fired)
{
	unsigned int i;

	for (i = 0; i < c->pmu.n_gp; i++)
		if ((fired & BIT_ULL(i)) && (c->evtsel[i] & EVTSEL_ADAPTIVE))
			return true;
	for (i = 0; i < c->pmu.n_fixed; i++)
		if ((fired & BIT_ULL(32 + i)) && (c->fixed_ctrl & BIT_ULL(32 + 4 * i)))
			return true;
	return false;
}

/* Arch-PEBS: the CFG_C of the (first) triggering counter, whose bits 63:32 name the groups. */
static uint64_t arch_cfg_c(const struct sim_cpu *c, uint64_t fired)
{
	unsigned int i;

	for (i = 0; i < c->pmu.n_gp; i++)
		if (fired & BIT_ULL(i))
			return c->cfg_c_gp[i];
	for (i = 0; i < c->pmu.n_fixed; i++)
		if (fired & BIT_ULL(32 + i))
			return c->cfg_c_fx[i];
	return 0;
}

static void fill_memory(const struct sim_cpu *c, const struct sim_event *e,
			const struct sim_access *a, struct sim_pending *p)
{
	bool datala = c->pmu.fmt >= 2 || c->pmu.baseline || (c->m->flags & F_ARCH_PEBS);

	if (!a || !e)
		return;
	switch (e->pebs) {
	case PEBS_LDLAT:
		p->dla = a->addr;
		p->dse = sim_dse_load(c, a);
		p->lat = a->ldlat;
		return;
	case PEBS_STLAT:
		p->dla = a->addr;
		p->dse = sim_dse_load(c, a) & 0x3f; /* source, STLB miss, lock; no blk */
		p->lat = a->latency;
		return;
	case PEBS_PST:
		p->dla = a->addr;
		p->dse = sim_dse_store(c, a);
		return;
	default:
		break;
	}
	if (!is_mem_count(e->count))
		return;
	p->dla = a->addr; /* the DataLA facility (SDM 18.11.3) */
	if (datala)
		p->dse = (a->kind & HW_LOAD) ? sim_dse_load(c, a) : sim_dse_store(c, a);
}

void sim_engine_flush(struct sim_cpu *c, uint64_t next_ip, bool known)
{
	struct sim_pending *p = &c->pend;
	uint64_t rip;

	/* Goldmont: an overflow status of a PEBS counter (also via STATUS_SET) records. */
	if (!p->valid && (c->m->flags & F_NONPRECISE)) {
		uint64_t m = 0;
		unsigned int i;

		for (i = 0; i < c->pmu.n_gp; i++)
			if ((c->global_status & BIT_ULL(i)) && sim_gp_pebs_armed(c, i))
				m |= BIT_ULL(i);
		if (m) {
			memset(p, 0, sizeof(*p));
			p->valid = p->nonprecise = true;
			p->applicable = m;
			p->status = c->global_status;
		}
	}
	if (!p->valid)
		return;
	if (p->nonprecise) {
		rip = known ? next_ip : c->last_ip;
		p->eventing_ip = rip;
		p->tsc = c->tsc;
	} else if (c->pmu.trap) {
		/*
		 * Trap-like (PERF_CAPABILITIES.PEBS_TRAP): R/EIP is the
		 * instruction after the eventing one (Linux ds.c
		 * intel_pmu_pebs_fixup_ip walks back from it), which the access
		 * reported; else the next instruction reported.  sim-fault
		 * skid: one later, the next instruction reported.
		 */
		rip = p->next_ip && c->fault != SIM_FAULT_SKID ? p->next_ip
		      : known				       ? next_ip
							       : p->eventing_ip;
	} else {
		rip = p->eventing_ip;
	}
	/* sim-fault skid: the eventing IP is the instruction after the access (sim.h). */
	if (c->fault == SIM_FAULT_SKID && p->next_ip && !p->nonprecise) {
		if (!c->pmu.trap)
			rip = p->next_ip;
		p->eventing_ip = p->next_ip;
	}
	p->valid = false;
	sim_record_write(c, p, rip);
}

/* The record of the counters `fired` for the instruction at ip (its access a, if any). */
static void record(struct sim_cpu *c, uint64_t fired, const struct sim_access *a, uint64_t ip)
{
	const struct sim_event *e = lead_event(c, fired);
	struct sim_pending *p = &c->pend;
	unsigned int b;

	if (p->valid)
		sim_engine_flush(c, ip, false);
	if (e && e->pebs == PEBS_PST) {
		/* SDM 18.9.4.3: the record captures the next store that retires. */
		c->pst_armed = true;
		c->pst_applicable |= fired;
		return;
	}
	memset(p, 0, sizeof(*p));
	p->valid = true;
	p->applicable = fired;
	p->status = c->global_status;
	p->adaptive = adaptive_bit(c, fired);
	p->cfg_c = arch_cfg_c(c, fired);
	p->cfg_c_groups = (uint32_t)(p->cfg_c >> 32);
	sim_snap_capture(c, p); /* the counters now: before the overflowed ones reload (assist) */
	p->tsc = c->tsc;
	p->eventing_ip = ip;
	p->next_ip = a ? a->ip_next : 0;
	if ((c->m->flags & F_NONPRECISE) && !(fired >> 32) && (!e || e->pebs == PEBS_NO)) {
		p->nonprecise = true; /* SDM 18.7.1: at the next opportunity */
		return;
	}
	fill_memory(c, e, a, p);
	for (b = 0; b < 32 && b < c->pmu.n_gp; b++)
		if ((fired & BIT_ULL(b)) && c->place[b].ldlat && !sim_place_pebs(c, b))
			p->no_mem_info = true;
	if (p->no_mem_info)
		p->dse = p->lat = 0;
	if (!c->pmu.trap)
		sim_engine_flush(c, ip, false);
}

/*
 * The PEBS assist of the counters that overflowed on this instruction: each
 * is reloaded from its reset value; a GP counter whose event has PDIST
 * counters but is not on one (placement.c) records the next occurrence of
 * its event instead (count()); the others record this instruction.
 */
static void assist(struct sim_cpu *c, uint64_t fired, const struct sim_access *a, uint64_t ip)
{
	uint64_t shadow = 0;
	unsigned int b;

	for (b = 0; b < 32; b++)
		if ((fired & BIT_ULL(b)) && sim_place_shadowed(c, b))
			shadow |= BIT_ULL(b);
	c->shadowed |= shadow;
	/* The record (and its counter snapshot) first, then the reload (snapshot.c). */
	if (fired & ~shadow)
		record(c, fired & ~shadow, a, ip);
	for (b = 0; b < 64; b++) {
		if (!(fired & BIT_ULL(b)))
			continue;
		if (b < 32)
			c->pmc[b] = reset_value(c, b);
		else
			c->fixed[b - 32] = reset_value(c, b);
	}
}

/* SNB precise store: this store is the one the armed record captures. */
static void capture_store(struct sim_cpu *c, const struct sim_access *a)
{
	struct sim_pending *p = &c->pend;

	c->pst_armed = false;
	memset(p, 0, sizeof(*p));
	p->valid = true;
	p->applicable = c->pst_applicable;
	p->status = c->global_status;
	p->tsc = c->tsc;
	p->eventing_ip = a->ip;
	p->next_ip = a->ip_next;
	p->dla = a->addr;
	p->dse = sim_dse_store(c, a);
	sim_snap_capture(c, p);
	c->pst_applicable = 0;
	if (!c->pmu.trap)
		sim_engine_flush(c, a->ip, false);
}

/* ---- counting ---------------------------------------------------------- */

struct work {
	const struct sim_access *a; /* NULL: instructions without memory access */
	uint64_t inst, cycles;
};

/*
 * The work's events of GP i's event; with CMASK/INV/EDGE/EQ, laid out over
 * its cycles (evtsel.c): an access's events in its last cycle, a run of
 * instructions one per cycle, a cycle event in every cycle.  commit: the
 * work is counted (EDGE keeps its state), not only looked at.
 */
static uint64_t gp_increment(struct sim_cpu *c, unsigned int i, const struct work *w, bool commit)
{
	const struct sim_event *e = c->ev[i];
	struct sim_cycles cy = {0, 0, 0, 0};
	bool cyc;
	uint64_t inc;

	/* Outside the event's perfmon Counter list it does not count correctly (placement.c). */
	if (!e || !(c->evtsel[i] & EVTSEL_OS) || !sim_place_counts(c, i))
		return 0;
	cyc = e->count == CNT_CYCLES || e->count == CNT_REF_CYCLES;
	switch (e->count) {
	case CNT_INST:
		inc = w->inst;
		break;
	case CNT_CYCLES:
	case CNT_REF_CYCLES:
		inc = w->cycles;
		break;
	default:
		inc = w->a ? sim_event_increment(c, e, w->a) : 0;
		break;
	}
	if (!sim_evtsel_modified(c->evtsel[i]) || !w->cycles)
		return inc;
	if (w->a) {
		cy.lead = w->cycles - 1;
		cy.lead_k = cyc;
		cy.tail = 1;
		cy.tail_k = cyc ? 1 : inc;
	} else {
		cy.tail = w->cycles;
		cy.tail_k = inc / w->cycles;
	}
	return sim_evtsel_count(c, i, &cy, commit);
}

static uint64_t fixed_increment(const struct sim_cpu *c, unsigned int i, const struct work *w)
{
	if (!((c->fixed_ctrl >> (4 * i)) & 1)) /* OS: the app runs at CPL 0 */
		return 0;
	switch (i) {
	case 0:
		return w->inst;
	case 3:
		return w->cycles * c->m->slots_per_cycle;
	default:
		return w->cycles;
	}
}

/*
 * Adds inc to a counter; on wrap: status bit, PEBS or PMI, and the bit in
 * *wrapped (auto counter reload, sim/acr.c; a self-reloaded counter gets no
 * status bit and no PMI there).  Returns PEBS fired bit.
 */
static uint64_t advance(struct sim_cpu *c, unsigned int bit, uint64_t inc, uint64_t *wrapped)
{
	bool fixed = bit >= 32;
	unsigned int i = fixed ? bit - 32 : bit;
	uint64_t *ctr = fixed ? &c->fixed[i] : &c->pmc[i];
	uint64_t mask = fixed ? c->pmu.fixed_mask : c->pmu.gp_mask;
	uint64_t v = *ctr + inc;
	bool intr;

	/*
	 * PERF_METRICS holds the topdown fractions of what FIXED_CTR3 (SLOTS)
	 * counted (Linux core.c intel_update_topdown_event reads them together).
	 * The fractions are not modelled: any count makes it SIM_PERF_METRICS.
	 */
	if (fixed && i == 3 && inc)
		c->perf_metrics = SIM_PERF_METRICS;
	*ctr = v & mask;
	if (v <= mask)
		return 0;
	*wrapped |= BIT_ULL(bit);
	if (!sim_acr_self_reload(c, bit)) {
		c->global_status |= BIT_ULL(bit);
		intr = fixed ? (c->fixed_ctrl >> (4 * i)) & 8 : c->evtsel[i] & EVTSEL_INT;
		if (intr)
			sim_raise_pmi(c);
	}
	if (fixed ? sim_fixed_pebs_armed(c, i) : sim_gp_pebs_armed(c, i)) {
		/* Outside PEBScounters: no record, but a load-latency one (placement.c). */
		if (!fixed && !sim_place_pebs(c, i) && !c->place[i].ldlat)
			return 0;
		return BIT_ULL(bit);
	}
	return 0;
}

static void count(struct sim_cpu *c, const struct work *w, uint64_t ip)
{
	uint64_t fired = 0, next = 0, wrapped = 0;
	unsigned int i;

	for (i = 0; i < c->pmu.n_gp; i++) {
		uint64_t inc;

		if (!sim_gp_counting(c, i))
			continue;
		inc = gp_increment(c, i, w, true);
		/* Nothing to add (a counter never holds more than its width): nothing changes. */
		if (!inc)
			continue;
		/* No PDIST: this occurrence after the overflow is the one recorded. */
		if ((c->shadowed & BIT_ULL(i)) && sim_gp_pebs_armed(c, i))
			next |= BIT_ULL(i);
		fired |= advance(c, i, inc, &wrapped);
	}
	for (i = 0; i < c->pmu.n_fixed; i++) {
		uint64_t inc;

		if (sim_fixed_counting(c, i) && (inc = fixed_increment(c, i, w)))
			fired |= advance(c, 32 + i, inc, &wrapped);
	}
	sim_acr_overflow(c, wrapped);
	if (next) {
		c->shadowed &= ~next;
		c->stats.records_shadowed++;
		record(c, next, w->a, ip);
	}
	if (fired)
		assist(c, fired, w->a, ip);
}

void sim_engine_access(struct sim_cpu *c, uint64_t ip, uint64_t ip_next, uint64_t addr,
		       uint32_t size, uint32_t kind)
{
	struct sim_access a = {
	    .ip = ip, .ip_next = ip_next, .addr = addr, .size = size ? size : 1, .kind = kind};
	struct work w = {.a = &a, .inst = 1, .cycles = 1};

	sim_engine_flush(c, ip, true);
	sim_cache_access(c, &a);
	a.ldlat = a.latency + SIM_LDLAT_DISPATCH;
	if (c->fault == SIM_FAULT_LATENCY_OFFSET)
		a.ldlat += (uint32_t)c->fault_arg;
	if ((kind & HW_LOAD) && a.latency > c->m->cache.lat_l1)
		w.cycles += a.latency - c->m->cache.lat_l1;
	/*
	 * A load whose address came from the previous load: the chain waits
	 * its whole load-to-use latency, from the cache model (not from the
	 * record); the loop's own instructions run meanwhile, out of order,
	 * so up to latency - 1 of them cost no cycle of their own.
	 */
	if ((kind & HW_LOAD) && (kind & HW_DEPENDENT)) {
		w.cycles = a.latency;
		c->overlap = a.latency - 1;
	}
	c->tsc += w.cycles;
	c->cycles += w.cycles;
	c->stats.instructions++;
	c->stats.loads += !!(kind & HW_LOAD);
	c->stats.stores += !!(kind & HW_STORE);
	if (c->pst_armed && (kind & HW_STORE))
		capture_store(c, &a);
	count(c, &w, ip);
	c->last_ip = ip;
	pmi_wait_retire(c, 1);
	sim_deliver_pmi(c);
}

/* Instructions until the first counter of `inst`/`cycles` kind would wrap. */
static uint64_t steps_to_overflow(struct sim_cpu *c, uint64_t limit)
{
	struct work one = {.a = NULL, .inst = 1, .cycles = 1};
	uint64_t best = limit;
	unsigned int i;

	for (i = 0; i < c->pmu.n_gp + c->pmu.n_fixed; i++) {
		bool fixed = i >= c->pmu.n_gp;
		unsigned int k = fixed ? i - c->pmu.n_gp : i;
		uint64_t per, room;

		if (fixed ? !sim_fixed_counting(c, k) : !sim_gp_counting(c, k))
			continue;
		per = fixed ? fixed_increment(c, k, &one) : gp_increment(c, k, &one, false);
		if (!per)
			continue;
		room = (fixed ? c->pmu.fixed_mask - c->fixed[k] : c->pmu.gp_mask - c->pmc[k]) + 1;
		/* Most count one per instruction: no division (a slow one under emulation). */
		if (per > 1)
			room = (room + per - 1) / per;
		if (room < best)
			best = room;
	}
	return best ? best : 1;
}

void sim_engine_retire(struct sim_cpu *c, uint64_t ip, uint64_t n)
{
	while (n) {
		struct work w = {.a = NULL};
		uint64_t step, hidden;

		sim_engine_flush(c, ip, true);
		step = steps_to_overflow(c, n);
		w.inst = w.cycles = step;
		/* Under a dependent load's latency (sim_engine_access): no cycles of their own. */
		hidden = step < c->overlap ? step : c->overlap;
		w.cycles -= hidden;
		c->overlap -= hidden;
		c->tsc += w.cycles;
		c->cycles += w.cycles;
		c->stats.instructions += step;
		count(c, &w, ip);
		c->last_ip = ip;
		pmi_wait_retire(c, step);
		sim_deliver_pmi(c);
		n -= step;
	}
}

/* STATUS_SET: Goldmont turns a PEBS counter's overflow into a record (flush). */
void sim_engine_status_set(struct sim_cpu *c, uint64_t bits)
{
	(void)c;
	(void)bits;
}
