// SPDX-License-Identifier: MIT
/*
 * pmi.c - the session's performance-monitoring interrupt: LVTPC pointed at
 * our vector and our handler installed (drain=pmi), or LVTPC masked where
 * the buffer threshold requests a PMI although the session polls
 * (arch-PEBS); both undone at teardown (session_int.h).
 */
#include "session_int.h"
#include "hw.h"
#include "msr.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

/*
 * PMI handler (Linux core.c intel_pmu_handle_irq): GLOBAL_CTRL = 0, then loop { read status, ack,
 * drain } at most 100 times, re-enable, EOI; LVTPC, which the delivery masked
 * (SDM 11.5.1), is unmasked where the generation's row says (early, mid or
 * late ack).  Our vector uses fixed delivery, so a PMI requested after an
 * early or mid unmask waits in the IRR until the EOI.
 *
 * No firmware call on this path: the PMI may have interrupted one (a
 * ConOut, SerialIo or file Write of a report line), and calling into the
 * same driver again from the interrupt is not safe.  So what it reports -
 * the trace=msr lines of its MSR accesses, a simulator rule - is held back
 * (lib/report.h deferred output) and printed by the session after the
 * handler is removed.
 */
static void pmi_handler(void *ctx)
{
	struct sess *s = ctx;
	uint64_t status,
	    ours = s->plan.global_ctrl | GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_ARCH_PEBS;
	enum pmi_ack ack = s->plan.ua->pmi_ack;
	unsigned int loops;

	/*
	 * v4+: with DEBUGCTL.FREEZE_PERFMON_ON_PMI (firmware may leave it set)
	 * the PMI sets CTR_Frz[59] (and LBR_Frz[58]) and the counters stay
	 * frozen until those are cleared (SDM 18.2.4.1); ack them too, as
	 * Linux acks the whole status it read.
	 */
	if (s->ci->pmu_version >= 4)
		ours |= GLOBAL_STATUS_LBR_FRZ | GLOBAL_STATUS_CTR_FRZ;

	report_defer_begin();
	s->res->pmis++;
	/* LVTPC unmask per generation (uarch_info.pmi_ack, Linux intel_pmu_handle_irq). */
	if (ack == PMI_ACK_EARLY)
		hw_apic_write(APIC_LVTPC, PMI_VECTOR);
	session_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	for (loops = 0; loops < PMI_MAX_LOOPS; loops++) {
		if (!session_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &status) || !(status & ours))
			break;
		if (!session_wr(s, MSR_IA32_PERF_GLOBAL_OVF_CTRL, status & ours))
			break;
		s->ops->drain(s);
	}
	if (loops == PMI_MAX_LOOPS)
		s->pmi_stuck++;
	if (ack == PMI_ACK_MID)
		hw_apic_write(APIC_LVTPC, PMI_VECTOR);
	if (!s->faulted && !s->disarming)
		session_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, s->plan.global_ctrl);
	hw_apic_write(APIC_EOI, 0);
	if (ack == PMI_ACK_LATE)
		hw_apic_write(APIC_LVTPC, PMI_VECTOR);
	report_defer_end();
}

/*
 * Read back the LVTPC just written, and the APIC's software enable.  A
 * software-disabled local APIC (SVR bit 8 clear: firmware may leave an AP
 * so) keeps every LVT entry masked and ignores an unmask (SDM Vol. 3A
 * 11.4.7.2), so no PMI would come and a drain=pmi run would be a poll that
 * says otherwise.  Refused then, the handler removed and LVTPC put back,
 * before any MSR is written.
 */
static bool pmi_lvtpc_took(struct sess *s, uint32_t written)
{
	uint32_t lvt = hw_apic_read(APIC_LVTPC), svr = hw_apic_read(APIC_SVR);

	if ((lvt & (APIC_LVT_MASK | 0xff)) == written && (svr & APIC_SVR_ENABLE))
		return true;
	pmi_teardown(s);
	pmi_restore_lvtpc(s);
	pp_snprintf(s->armed_why, sizeof(s->armed_why),
		    "LVTPC reads 0x%x after 0x%x was written (SVR 0x%x%s); no PMI can "
		    "come for drain=pmi (SDM Vol. 3A 11.4.7.2); nothing was written",
		    lvt, written, svr, (svr & APIC_SVR_ENABLE) ? "" : ": APIC software-disabled");
	return false;
}

/*
 * The handler is installed and LVTPC points at it, masked: unmasked only by
 * pmi_unmask(), once arm() has stopped the firmware's counters and acked
 * their status.  A PMI before that - a firmware counter with its INT bit
 * near overflow - would run our handler, which writes the plan's
 * GLOBAL_CTRL over the firmware's EVTSELs (Linux intel_pmu_handle_irq
 * unmasks only after the status reset, too).
 */
bool pmi_setup(struct sess *s)
{
	if (!s->ops->drain)
		return true; /* no buffer: nothing to interrupt for */
	if (s->cfg->drain != PEBS_DRAIN_PMI) {
		/*
		 * Arch-PEBS polling: PEBS_INDEX.THRESH lies inside the buffer
		 * (pebs_arch.c), so crossing it requests a PMI (GLOBAL_STATUS
		 * bit 54).  LVTPC stays masked for the session, so none reaches
		 * whatever the firmware has there; the session acks the bit.
		 */
		if (s->ops->polled_pmi) {
			s->orig_lvtpc = hw_apic_read(APIC_LVTPC);
			s->masked_lvtpc = true;
			hw_apic_write(APIC_LVTPC, s->orig_lvtpc | APIC_LVT_MASK);
		}
		return true;
	}
	if (hw_set_pmi_handler(PMI_VECTOR, pmi_handler, s))
		return false;
	s->orig_lvtpc = hw_apic_read(APIC_LVTPC);
	s->armed_pmi = true;
	hw_apic_write(APIC_LVTPC, PMI_VECTOR | APIC_LVT_MASK); /* fixed delivery, masked */
	return pmi_lvtpc_took(s, PMI_VECTOR | APIC_LVT_MASK);
}

void pmi_unmask(struct sess *s)
{
	if (s->armed_pmi)
		hw_apic_write(APIC_LVTPC, PMI_VECTOR);
}

/* The PMI vector's bit in the local APIC's ISR or IRR (APIC_ISR, APIC_IRR). */
static bool pmi_vector_bit(uint32_t base)
{
	return hw_apic_read(base + 0x10 * (PMI_VECTOR / 32)) & BIT_ULL(PMI_VECTOR % 32);
}

/* TPR's priority class just below the PMI vector's (SDM Vol. 3A 11.8.3.1). */
#define PMI_WINDOW_TPR (((PMI_VECTOR >> 4) - 1) << 4)

/*
 * LINT0, unmasked, in a delivery mode IF holds: ExtINT (virtual wire, the
 * 8259's INTR: EDK II BaseXApicLib ProgramVirtualWireMode; OVMF's 8254
 * timer with CSM_ENABLE came so), which TPR does not hold (SDM Vol. 3A
 * 11.8.3.1), or fixed.  NMI, SMI, INIT are left: IF does not hold them, so
 * one in the window would have come without it; masking an edge one
 * would lose it.  LINT1 (NMI) likewise.
 */
static bool pmi_lint0_to_mask(uint32_t lint0)
{
	uint32_t dm = APIC_LVT_DM(lint0);

	return !(lint0 & APIC_LVT_MASK) && (dm == APIC_DM_EXTINT || dm == APIC_DM_FIXED);
}

/*
 * TPR is only ever raised here: a firmware TPR above PMI_WINDOW_TPR holds
 * classes the firmware chose to hold, and lowering it would let them in.
 * One at or above the PMI vector's class holds the PMI too: no window
 * then; it waits in the IRR until the body ends (false, counted by the
 * caller).
 */
bool pmi_window(void)
{
	uint32_t tpr, lint0, in;
	bool mask;

	if (!pmi_vector_bit(APIC_IRR))
		return true;
	tpr = hw_apic_read(APIC_TPR);
	in = (tpr & 0xff) > PMI_WINDOW_TPR ? tpr & 0xff : PMI_WINDOW_TPR;
	if ((in >> 4) >= (PMI_VECTOR >> 4))
		return false;
	/* Read, mask, write back after: as EDK II DisableLvtInterrupts, Linux clear_local_APIC. */
	lint0 = hw_apic_read(APIC_LVT_LINT0) & APIC_LVT_LINT_RW;
	mask = pmi_lint0_to_mask(lint0);
	hw_apic_write(APIC_TPR, in);
	if (mask)
		hw_apic_write(APIC_LVT_LINT0, lint0 | APIC_LVT_MASK);
	hw_irq_window();
	/*
	 * An ExtINT that came meanwhile is not lost: the 8259 holds INTR until
	 * acknowledged, and ExtINT is level-sensitive (SDM Vol. 3A 11.5.1), so
	 * it comes when the firmware's RestoreTPL sets IF.
	 */
	if (mask)
		hw_apic_write(APIC_LVT_LINT0, lint0);
	hw_apic_write(APIC_TPR, tpr);
	return true;
}

void pmi_teardown(struct sess *s)
{
	unsigned int tries;

	if (!s->armed_pmi)
		return;
	hw_apic_write(APIC_LVTPC, s->orig_lvtpc | APIC_LVT_MASK);
	/*
	 * Masking LVTPC stops new PMIs, not one the local APIC already took: it
	 * waits in the IRR (interrupts off, as firmware may run an AP) or sits
	 * in the ISR without its EOI (SDM Vol. 3A 11.8.4).  With the firmware's
	 * IDT back, the firmware's handler would take it and send no EOI,
	 * blocking every vector of its priority class and below.  So, while
	 * our handler is still installed: EOI what is in service, and let a
	 * held PMI in (one instruction with interrupts on) for our handler to
	 * take and EOI.
	 */
	for (tries = 0; tries < PMI_MAX_LOOPS; tries++) {
		if (pmi_vector_bit(APIC_ISR))
			hw_apic_write(APIC_EOI, 0);
		else if (pmi_vector_bit(APIC_IRR))
			hw_irq_window();
		else
			break;
	}
	s->pmi_latched = tries == PMI_MAX_LOOPS;
	hw_set_pmi_handler(PMI_VECTOR, NULL, NULL);
	s->armed_pmi = false;
	s->masked_lvtpc = true; /* masked until pmi_restore_lvtpc() */
}

/*
 * The firmware's LVTPC back, once the session's status bits are acked (the
 * session's restore_status): an unmasked entry while an overflow or the
 * PEBS threshold bit (GLOBAL_STATUS 54, 62) is still set would hand a PMI
 * to the firmware's handler.  Linux intel_pmu_handle_irq unmasks only
 * after the overflow bits are reset, for the same reason.
 */
void pmi_restore_lvtpc(struct sess *s)
{
	if (!s->masked_lvtpc)
		return;
	hw_apic_write(APIC_LVTPC, s->orig_lvtpc);
	s->masked_lvtpc = false;
}

int pmi_verdict(const struct sess *s, char *why, size_t why_size)
{
	if (s->pmi_stuck) {
		pp_snprintf(why, why_size, "PMI loop stuck (%u times over %d iterations)",
			    s->pmi_stuck, PMI_MAX_LOOPS);
		return SESSION_FAULT;
	}
	if (s->pmi_latched) {
		pp_snprintf(why, why_size,
			    "a PMI (vector 0x%x) stayed in the local APIC's IRR/ISR when the "
			    "handler was removed",
			    PMI_VECTOR);
		return SESSION_FAULT;
	}
	return 0;
}
