// SPDX-License-Identifier: MIT
/*
 * rules.c - the SDM's PEBS programming rules, checked on the live program.
 *
 * The checks run after every MSR write while at least one counter is armed
 * for PEBS (enabled, globally enabled, its PEBS bit set), so they judge the
 * MSR state the hardware would count with, whatever order it was written
 * in.  Each broken rule is reported once per arming through the violation
 * handler, naming the rule and its source; the reprogram-while-counting
 * rule (PDIR) is judged at the offending write itself.
 */
#include "sim_int.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

#define EVTSEL_EDGE  BIT_ULL(18)
#define EVTSEL_ANY   BIT_ULL(21)
#define EVTSEL_INV   BIT_ULL(23)
#define EVTSEL_CMASK GENMASK_ULL(31, 24)

/* One bit per rule, for "report once per arming". */
enum rule_id {
	R_PEBS_COUNTER,
	R_COUNT_COUNTER,
	R_PEBS_EVENT,
	R_EVTSEL_FIELDS,
	R_LDLAT_FIELDS,
	R_LDLAT_MIN,
	R_LDLAT_EXCL,
	R_LL_EN,
	R_FIXED_BASELINE,
	R_PST,
	R_DS_AREA,
	R_ARCH_PEBS,
	R_ARCH_THRESH,
	R_OFFCORE_AVG,
	R_OFFCORE_PAIR,
	R_TAKEN_ALONE,
	R_UNMODELLED,
	R_ARCH_RECORD_SIZE,
	R_DS_NOT_PRESENT,
};

static sim_violation_fn violation_fn;
static void *violation_ctx;
static unsigned int violations;

void sim_set_violation_handler(sim_violation_fn fn, void *ctx)
{
	violation_fn = fn;
	violation_ctx = ctx;
}

unsigned int sim_violation_count(void)
{
	return violations;
}

void sim_rules_reset_count(void)
{
	violations = 0;
}

void sim_violation(struct sim_cpu *c, const char *rule, const char *fmt, ...)
{
	char text[320];
	va_list ap;

	va_start(ap, fmt);
	pp_vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	violations++;
	if (violation_fn)
		violation_fn(rule, text, violation_ctx);
	else
		report_fail("sim-rule", "%s: %s", rule, text);
}

static bool once(struct sim_cpu *c, enum rule_id r)
{
	if (c->rules_reported & (1u << r))
		return false;
	c->rules_reported |= 1u << r;
	return true;
}

/*
 * The PEBS assist translates every DS address under the CR3 loaded now
 * (sim/paging.c sim_paging_not_present): a level not present is a fault
 * no handler may take (SDM Vol. 3B 17.4.9.2).  What the hardware then does
 * is not published: the simulator writes nothing, drops the record, and
 * reports it once per arming.  True where [addr, addr + len) is mapped.
 */
bool sim_rules_ds_mapped(struct sim_cpu *c, const char *what, uint64_t addr, uint64_t len)
{
	uint64_t last = addr + (len ? len : 1) - 1;

	for (uint64_t va = addr; va <= last; va = (va | 4095) + 1) {
		const char *level = sim_paging_not_present(c->cr3, va);

		if (!level)
			continue;
		if (once(c, R_DS_NOT_PRESENT))
			sim_violation(c, "ds-not-present",
				      "cpu %u: the PEBS assist's %s at 0x%llx under CR3 0x%llx: "
				      "its %s is not present; the DS save area and buffer must "
				      "be mapped under every CR3 the assist runs on (SDM Vol. 3B "
				      "17.4.9.2)",
				      c->index, what, (unsigned long long)va,
				      (unsigned long long)c->cr3, level);
		return false;
	}
	return true;
}

/*
 * An arch-PEBS record of a size that is no multiple of 16 bytes: the write
 * pointer IA32_PEBS_INDEX.WR counts 16-byte units (bits 26:4; Linux
 * union arch_pebs_index, ARCH_PEBS_INDEX_WR_SHIFT 4), and no public source
 * says where the next record goes (a counter group of an odd number of
 * counters makes such a record).  The record is written; WR rounds up.
 */
void sim_rules_arch_record_size(struct sim_cpu *c, size_t n)
{
	if (once(c, R_ARCH_RECORD_SIZE))
		sim_violation(c, "arch-pebs-record-size",
			      "an arch-PEBS record of 0x%zx bytes, no multiple of 16: "
			      "IA32_PEBS_INDEX.WR counts 16-byte units (Linux union "
			      "arch_pebs_index); where the next record goes is not published",
			      n);
}

static unsigned int ev_code(const struct sim_cpu *c, unsigned int i)
{
	return c->evtsel[i] & 0xffff;
}

static bool is_ldlat(const struct sim_cpu *c, unsigned int i)
{
	return c->ev[i] && c->ev[i]->pebs == PEBS_LDLAT;
}

/*
 * The part's perfmon file (placement.c): a PEBS event outside its
 * PEBScounters (e.g. SNB/events/sandybridge_core.json: PRECISE_STORE on
 * "3", PREC_DIST on "1"; ADL golden cove: INST_RETIRED.ANY_P on "1-7").
 */
static void check_counter(struct sim_cpu *c, unsigned int i)
{
	const struct sim_place *pl = &c->place[i];

	if (sim_place_pebs(c, i) || !once(c, R_PEBS_COUNTER))
		return;
	if (pl->src) {
		sim_violation(c, "pebs-counter",
			      "PEBS with %s (0x%04x) on PMC%u: %s allow GP mask 0x%x; %s", pl->name,
			      ev_code(c, i), i, pl->src, pl->pebs_gp,
			      pl->ldlat ? "records carry no latency or data source"
					: "no records are written");
		return;
	}
	sim_violation(c, "pebs-counter",
		      "PEBS with %s (0x%04x) on PMC%u: its PEBScounters (perfmon %s) are GP mask "
		      "0x%x; %s",
		      pl->name, ev_code(c, i), i, perfmon_table_name(c->pm), pl->pebs_gp,
		      pl->ldlat ? "records carry no latency or data source"
				: "no records are written");
}

/* A counting event outside its perfmon Counter list counts nothing (placement.c). */
static void check_count_counter(struct sim_cpu *c, unsigned int i)
{
	const struct sim_place *pl = &c->place[i];

	if (sim_place_counts(c, i) || !once(c, R_COUNT_COUNTER))
		return;
	if (pl->src) {
		sim_violation(
		    c, "count-counter",
		    "%s (0x%04x) counts on PMC%u: %s allow GP mask 0x%x; the count is wrong",
		    pl->name, ev_code(c, i), i, pl->src, pl->count_gp);
		return;
	}
	sim_violation(c, "count-counter",
		      "%s (0x%04x) counts on PMC%u: its Counter field (perfmon %s) is GP mask "
		      "0x%x; the count is wrong",
		      pl->name, ev_code(c, i), i, perfmon_table_name(c->pm), pl->count_gp);
}

/*
 * CMASK/INV/EDGE/EQ the simulator cannot count as the SDM says (evtsel.c):
 * no rule of the part, a limit of the model; the counter counts nothing.
 */
static void check_unmodelled(struct sim_cpu *c, unsigned int i)
{
	const char *why = sim_evtsel_unmodelled(c, i);

	if (!why || !once(c, R_UNMODELLED))
		return;
	sim_violation(c, "unmodelled-evtsel",
		      "PMC%u's EVTSEL 0x%llx sets %s, which the simulator does not model (SDM "
		      "Vol. 3B 20.2.1.1 IA32_PERFEVTSELx fields); it counts nothing here",
		      i, (unsigned long long)c->evtsel[i], why);
}

/* A non-PEBS event with PEBS on, on parts without baseline (PEBS on all events). */
static void check_event(struct sim_cpu *c, unsigned int i)
{
	const struct sim_event *e = c->ev[i];

	if (c->pmu.baseline || (c->m->flags & F_NONPRECISE))
		return;
	if (e && e->pebs != PEBS_NO)
		return;
	if (once(c, R_PEBS_EVENT))
		sim_violation(c, "pebs-event",
			      "PEBS on PMC%u with event 0x%04x%s%s, which is not a PEBS event of "
			      "this generation (SDM PEBS event tables: Core 2 Table 18-10, "
			      "Nehalem 18.8.1, Sandy Bridge Table 18-32, Haswell Table 18-45)",
			      i, ev_code(c, i), e ? " " : "", e ? e->name : "");
}

/*
 * SDM Vol. 3B 18.9.4 NOTE ("PEBS events are only valid when ... AnyThread,
 * Edge, Invert, CMask" are zero); 18.9.4.2 "Load Latency Performance
 * Monitoring Facility" (CMASK and INV 0) for the load-latency event on
 * every generation.
 */
static void check_fields(struct sim_cpu *c, unsigned int i)
{
	uint64_t v = c->evtsel[i];

	if (is_ldlat(c, i) && (v & (EVTSEL_CMASK | EVTSEL_INV)) && once(c, R_LDLAT_FIELDS))
		sim_violation(c, "ldlat-evtsel",
			      "load-latency event on PMC%u with CMASK/INV set (EVTSEL 0x%llx): "
			      "they must be 0 (SDM 18.9.4.2)",
			      i, (unsigned long long)v);
	if (c->pmu.fmt >= 4 || c->m->flags & F_ARCH_PEBS)
		return;
	/* Goldmont ignores AnyThread whatever its setting (SDM 18.7). */
	if (c->m->flags & F_NONPRECISE)
		v &= ~EVTSEL_ANY;
	if ((v & (EVTSEL_EDGE | EVTSEL_ANY | EVTSEL_INV | EVTSEL_CMASK)) &&
	    once(c, R_EVTSEL_FIELDS))
		sim_violation(c, "pebs-evtsel-fields",
			      "PEBS event on PMC%u with AnyThread/Edge/Invert/CMask set (EVTSEL "
			      "0x%llx): PEBS events are only valid when they are all zero (SDM "
			      "18.9.4 NOTE)",
			      i, (unsigned long long)v);
}

static void check_ldlat_threshold(struct sim_cpu *c, unsigned int i)
{
	if (!is_ldlat(c, i) || (c->ld_lat & 0xffff) >= 3 || !once(c, R_LDLAT_MIN))
		return;
	sim_violation(c, "ldlat-min",
		      "MSR_PEBS_LD_LAT_THRESHOLD=%llu with load latency armed on PMC%u: the "
		      "minimum value is 3 (SDM 18.9.4.2)",
		      (unsigned long long)(c->ld_lat & 0xffff), i);
}

/* Pre-Ice Lake: PEBS_EN_PMCn and LL_EN_PMCn both (SDM 18.9.4.2, Fig. 18-35). */
static void check_ll_en(struct sim_cpu *c)
{
	unsigned int i;

	if (!(c->m->flags & F_LL_EN))
		return;
	for (i = 0; i < 4 && i < c->pmu.n_gp; i++) {
		bool ll = c->pebs_enable & BIT_ULL(32 + i);
		bool armed = sim_gp_pebs_armed(c, i);

		if (armed && is_ldlat(c, i) && !ll && once(c, R_LL_EN))
			sim_violation(c, "ldlat-ll-en",
				      "load latency on PMC%u without LL_EN_PMC%u (IA32_PEBS_ENABLE "
				      "bit %u): both PEBS_EN and LL_EN must be set (SDM 18.9.4.2)",
				      i, i, 32 + i);
		if (ll && sim_gp_counting(c, i) && (!armed || !is_ldlat(c, i)) &&
		    once(c, R_FIXED_BASELINE))
			sim_violation(c, "fixed-pebs-baseline",
				      "IA32_PEBS_ENABLE bit %u set without load latency armed on "
				      "PMC%u: before Ice Lake bits 35:32 are LL_EN_PMCx (SDM "
				      "Fig. 18-35); fixed-counter PEBS needs PEBS baseline "
				      "(PERF_CAPABILITIES[14])",
				      32 + i, i);
	}
}

/* SDM 18.9.4.2: "no other PEBS event can be configured with other counters". */
static void check_ldlat_exclusive(struct sim_cpu *c)
{
	unsigned int i, ll = 0, other = 0;

	if (!(c->m->flags & F_LDLAT_EXCL))
		return;
	for (i = 0; i < c->pmu.n_gp; i++) {
		if (!sim_gp_pebs_armed(c, i))
			continue;
		if (is_ldlat(c, i))
			ll++;
		else
			other++;
	}
	if (ll && (other || (c->pebs_enable & BIT_ULL(63))) && once(c, R_LDLAT_EXCL))
		sim_violation(c, "ldlat-exclusive",
			      "load latency armed together with another PEBS event: when the "
			      "load-latency event is enabled no other PEBS event can be configured "
			      "(SDM 18.9.4.2)");
}

/* Sandy Bridge precise store: PS_EN with PEBS_EN_PMC3 and the event (SDM 18.9.4.3). */
static void check_pst(struct sim_cpu *c)
{
	bool ps = c->pebs_enable & BIT_ULL(63);
	bool pst3 =
	    c->pmu.n_gp > 3 && sim_gp_pebs_armed(c, 3) && c->ev[3] && c->ev[3]->pebs == PEBS_PST;
	unsigned int i;
	bool pst_any = false;

	if (!(c->m->flags & F_PS_EN))
		return;
	for (i = 0; i < c->pmu.n_gp; i++)
		pst_any |= sim_gp_pebs_armed(c, i) && c->ev[i] && c->ev[i]->pebs == PEBS_PST;
	if (((pst_any && !ps) || (ps && !pst3)) && once(c, R_PST))
		sim_violation(c, "pst-enable",
			      "precise store needs MEM_TRANS_RETIRED.PRECISE_STORE on PMC3 with "
			      "PEBS_EN_PMC3 and PS_EN (IA32_PEBS_ENABLE bit 63) together; have "
			      "PS_EN=%d, PMC3 precise-store armed=%d (SDM 18.9.4.3)",
			      ps, pst3);
}

static bool ds_ok(struct sim_cpu *c, char *why, size_t n)
{
	const uint8_t *ds = (const uint8_t *)(uintptr_t)c->ds_area;
	uint64_t base, index, max, thr;
	size_t rec = sim_legacy_record_size(c->pmu.fmt);

	if (!c->ds_area) {
		pp_snprintf(why, n, "IA32_DS_AREA is 0");
		return false;
	}
	base = get_le64(ds + 0x20);
	index = get_le64(ds + 0x28);
	max = get_le64(ds + 0x30);
	if (!base || index < base || index > max) {
		pp_snprintf(why, n,
			    "pebs_buffer_base 0x%llx, pebs_index 0x%llx, "
			    "pebs_absolute_maximum 0x%llx are not base <= index <= max",
			    (unsigned long long)base, (unsigned long long)index,
			    (unsigned long long)max);
		return false;
	}
	/*
	 * SDM DS save area: the interrupt threshold "must point to an offset
	 * from the PEBS buffer base that is a multiple of the PEBS record size"
	 * (checked for the fixed-size legacy formats 0-3, where it can be
	 * reached: below the absolute maximum).
	 */
	thr = get_le64(ds + 0x38);
	if (rec && thr < max && (thr < base || (thr - base) % rec)) {
		pp_snprintf(why, n,
			    "pebs_interrupt_threshold 0x%llx is not base 0x%llx plus a multiple of "
			    "the %zu-byte record",
			    (unsigned long long)thr, (unsigned long long)base, rec);
		return false;
	}
	return true;
}

static void check_ds(struct sim_cpu *c)
{
	char why[160];

	if (ds_ok(c, why, sizeof(why)) || !once(c, R_DS_AREA))
		return;
	sim_violation(c, "ds-area",
		      "PEBS armed but the DS save area is not usable: %s (SDM Vol. 3B 18.4.4, "
		      "DS save area; Linux asm/intel_ds.h struct debug_store)",
		      why);
}

/*
 * IA32_PEBS_INDEX.THRESH (58:36, 16-byte units) outside 1 .. the buffer's
 * end: Linux's arch-PEBS code only writes ARCH_PEBS_THRESH_SINGLE (1) or
 * ARCH_PEBS_THRESH_MULTI (a page short of a 64 KiB buffer), and no public
 * source says what the CPU does with 0 or a value past the buffer (the
 * arch-PEBS specification, Intel's ISE, is not among the sources), so the
 * simulator refuses to guess.
 */
static void check_arch_thresh(struct sim_cpu *c)
{
	uint64_t thresh = (c->pebs_index >> 36) & 0x7fffff,
		 most = (4096ull << (c->pebs_base & 0xf)) >> 4;

	if (thresh >= 1 && thresh <= most)
		return;
	if (once(c, R_ARCH_THRESH))
		sim_violation(c, "arch-pebs-thresh",
			      "IA32_PEBS_INDEX.THRESH 0x%llx is outside 1..0x%llx, the %llu-byte "
			      "buffer (no source defines a threshold outside the buffer; Linux "
			      "arch-PEBS writes 1 or a page short of the end)",
			      (unsigned long long)thresh, (unsigned long long)most,
			      (unsigned long long)(most << 4));
}

static void check_arch_pebs(struct sim_cpu *c)
{
	if ((c->pebs_index & BIT_ULL(32)) && (c->pebs_base & sim_phys_mask(c))) {
		check_arch_thresh(c);
		return;
	}
	if (once(c, R_ARCH_PEBS))
		sim_violation(c, "arch-pebs-buffer",
			      "a counter is armed through CFG_C.EN but IA32_PEBS_BASE=0x%llx / "
			      "IA32_PEBS_INDEX=0x%llx (EN bit 32) give no buffer (Linux arch-PEBS, "
			      "d21954c8a0ff)",
			      (unsigned long long)c->pebs_base, (unsigned long long)c->pebs_index);
}

static bool offcore_counting(const struct sim_cpu *c, unsigned int rsp)
{
	unsigned int i;

	for (i = 0; i < c->pmu.n_gp; i++)
		if (sim_gp_counting(c, i) && c->ev[i] && c->ev[i]->count == CNT_OFFCORE &&
		    c->ev[i]->arg == rsp)
			return true;
	return false;
}

/*
 * SDM Vol. 3B 18.6.3 "Average Offcore Request Latency Measurement":
 * AVG_LATENCY with bits 37:16 clear; RSP1 the same request type.
 */
static void check_offcore(struct sim_cpu *c)
{
	uint64_t r0 = c->offcore[0], r1 = c->offcore[1];

	if (!(c->m->flags & F_OFFCORE_AVG) || !(r0 & BIT_ULL(38)) || !offcore_counting(c, 0))
		return;
	if ((r0 & GENMASK_ULL(37, 16)) && once(c, R_OFFCORE_AVG))
		sim_violation(c, "offcore-avg-latency",
			      "MSR_OFFCORE_RSP0=0x%llx: with AVG_LATENCY (bit 38) bits 37:16 must "
			      "be 0 (SDM 18.6.3, Table 18-17)",
			      (unsigned long long)r0);
	/* SDM 18.6.3: RSP1 = the request type and ANY_RESPONSE[16], "the remaining bits to 0" */
	if (offcore_counting(c, 1) && (r1 & ~(GENMASK_ULL(15, 0) | BIT_ULL(16))) &&
	    once(c, R_OFFCORE_PAIR))
		sim_violation(
		    c, "offcore-avg-latency",
		    "MSR_OFFCORE_RSP1=0x%llx: for the average latency it holds the request "
		    "type and ANY_RESPONSE (bit 16) only, the rest 0 (SDM 18.6.3)",
		    (unsigned long long)r1);
	if (offcore_counting(c, 1) && (r0 & 0xffff) != (r1 & 0xffff) && once(c, R_OFFCORE_PAIR))
		sim_violation(
		    c, "offcore-avg-latency",
		    "MSR_OFFCORE_RSP1 request type 0x%llx differs from RSP0's 0x%llx: the "
		    "request count must use the same request type (SDM 18.6.3)",
		    (unsigned long long)(r1 & 0xffff), (unsigned long long)(r0 & 0xffff));
}

static bool any_armed(const struct sim_cpu *c)
{
	unsigned int i;

	for (i = 0; i < c->pmu.n_gp; i++)
		if (sim_gp_pebs_armed(c, i))
			return true;
	for (i = 0; i < c->pmu.n_fixed; i++)
		if (sim_fixed_pebs_armed(c, i))
			return true;
	return false;
}

static bool any_counting(const struct sim_cpu *c)
{
	unsigned int i;

	for (i = 0; i < c->pmu.n_gp; i++)
		if (sim_gp_counting(c, i))
			return true;
	for (i = 0; i < c->pmu.n_fixed; i++)
		if (sim_fixed_counting(c, i))
			return true;
	return false;
}

/*
 * Two TakenAlone events counting at once (perfmon README, TakenAlone: "can
 * only be sampled or counted by itself"): neither counts nor records
 * (placement.c); the mask is kept for that.
 */
static void check_taken_alone(struct sim_cpu *c)
{
	uint32_t m = 0;
	unsigned int i, a = 0, b = 0;

	for (i = 0; i < c->pmu.n_gp; i++)
		if (sim_gp_counting(c, i) && c->place[i].known && c->place[i].taken_alone)
			m |= BIT_ULL(i);
	c->alone_clash = __builtin_popcount(m) >= 2 ? m : 0;
	if (!c->alone_clash || !once(c, R_TAKEN_ALONE))
		return;
	a = (unsigned int)__builtin_ctz(m);
	b = (unsigned int)__builtin_ctz(m & (m - 1));
	sim_violation(c, "taken-alone",
		      "%s on PMC%u and %s on PMC%u count at once: both are TakenAlone in perfmon "
		      "%s (only by itself); neither counts correctly",
		      c->place[a].name, a, c->place[b].name, b, perfmon_table_name(c->pm));
}

void sim_rules_check(struct sim_cpu *c)
{
	unsigned int i;

	check_taken_alone(c);
	if (!any_counting(c)) {
		c->rules_reported = 0; /* a new arming reports afresh */
		return;
	}
	check_offcore(c);
	check_ll_en(c);
	for (i = 0; i < c->pmu.n_gp; i++)
		if (sim_gp_counting(c, i)) {
			check_count_counter(c, i);
			check_unmodelled(c, i);
		}
	if (!any_armed(c))
		return;
	for (i = 0; i < c->pmu.n_gp; i++) {
		if (!sim_gp_pebs_armed(c, i))
			continue;
		check_counter(c, i);
		check_event(c, i);
		check_fields(c, i);
		check_ldlat_threshold(c, i);
	}
	check_ldlat_exclusive(c);
	check_pst(c);
	if (c->m->flags & F_ARCH_PEBS)
		check_arch_pebs(c);
	else
		check_ds(c);
}

/* SDM 18.9.4 NOTE: PDIR parts must not change a PEBS counter while it counts. */
void sim_rules_on_reprogram(struct sim_cpu *c, unsigned int gp, const char *what)
{
	if (!(c->m->flags & F_PDIR) || !sim_gp_pebs_armed(c, gp))
		return;
	sim_violation(c, "pdir-reprogram",
		      "%s%u written while PMC%u counts with PEBS enabled: with PDIR, changes to a "
		      "PEBS-enabled counter must be made while it is disabled (SDM 18.9.4 NOTE)",
		      what, gp, gp);
}

/*
 * A GLOBAL_CTRL write that enables a counter nobody programmed since the
 * hand-off: its EVTSEL (or FIXED_CTR_CTRL) is still what the firmware left,
 * so the firmware's event counts under the session's enable.  Putting back
 * GLOBAL_CTRL as handed off is the restore, not this.  What a PMI before
 * arm() did (pmu/pmi.c pmi_setup): the handler re-enabled the plan's
 * counters over the firmware's EVTSELs (Linux intel_pmu_handle_irq unmasks
 * LVTPC only after the status reset; docs/SIM.md).
 */
void sim_rules_global_ctrl(struct sim_cpu *c, uint64_t val)
{
	uint64_t counters = (BIT_ULL(c->pmu.n_gp) - 1) | (BIT_ULL(c->pmu.n_fixed) - 1) << 32,
		 foreign = val & counters & ~c->programmed;

	if (!foreign || val == c->handoff_global_ctrl)
		return;
	sim_violation(c, "global-ctrl-unprogrammed",
		      "cpu %u: IA32_PERF_GLOBAL_CTRL <- 0x%llx enables counters 0x%llx whose "
		      "EVTSEL or FIXED_CTR_CTRL was not written since the hand-off: the "
		      "firmware's events count under the session's enable",
		      c->index, (unsigned long long)val, (unsigned long long)foreign);
}
