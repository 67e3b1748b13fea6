// SPDX-License-Identifier: MIT
/*
 * timer.c - sim-platform=timer-attr, timer-extint: the firmware's timer
 * on the boot CPU, whose notification changes a page attribute through
 * whatever CR3 is loaded, as EDK II's CpuDxe does (UefiCpuPkg/CpuDxe/CpuPageTable.c
 * GetCurrentPagingContext reads CR3; SetMemoryAttributes edits the entry
 * found there).  The timer interrupts only while the app does not hold
 * TPL_HIGH_LEVEL (lib/platform.h plat_tpl_high; UEFI spec 7.1 RaiseTPL:
 * interrupts off there); one that fell due meanwhile waits, as an
 * interrupt in the local APIC's IRR (or the 8259's INTR) does, for the boot
 * CPU's next hw call with the level down and the APIC passing it on.  At the end,
 * sim_timer_attr_check() finds every change the firmware's own tables did not get (docs/SIM.md "The
 * platform").
 */
#include "sim_int.h"
#include "../lib/platform.h"

/*
 * A tick every this many hw calls of the boot CPU: the simulator's unit of
 * time here (OVMF's timer ticks every 10 ms; a simulated kernel's body is a
 * few thousand accesses, so a tick must come inside one).  A model choice.
 */
#define TIMER_PERIOD 1024
/*
 * The timer's vector: OVMF's LocalApicTimerDxe (OvmfPkgX64.dsc without
 * CSM_ENABLE) programs the local APIC timer with LOCAL_APIC_TIMER_VECTOR
 * 32, fixed delivery, so TPR holds it (SDM Vol. 3A 11.8.3.1).
 */
#define SIM_TIMER_VECTOR 0x20
/*
 * SIM_TIMER_EXTINT: the 8254's IRQ0 through the 8259 (OVMF with CSM_ENABLE
 * up to edk2-stable202311: OvmfPkg/8254TimerDxe, 8259InterruptControllerDxe,
 * IRQ0 at PROTECTED_MODE_BASE_VECTOR_MASTER 0x68), reaching the CPU on
 * LINT0 as ExtINT (BaseXApicLib ProgramVirtualWireMode).  TPR does not
 * hold ExtINT (SDM Vol. 3A 11.8.3.1); LINT0's mask does (11.5.1).
 */
#define SIM_8259_IRQ0_VECTOR 0x68
#define LINT0_MASK	     (1u << 16)
#define CHANGES_MAX	     256
#define E_P		     (1ULL << 0)
#define E_PS		     (1ULL << 7)
#define E_XD		     (1ULL << 63) /* EFI_MEMORY_XP (SDM Vol. 3A Table 4-20) */
#define E_ADDR		     0x000ffffffffff000ULL

static struct {
	enum sim_timer_via via;
	uint64_t calls;
	bool due;
	unsigned int n, dropped;
	struct timer_change {
		uint64_t addr, cr3;
		const uint64_t *entry; /* the entry written, under cr3 */
	} ch[CHANGES_MAX];
} tm;

void sim_set_timer_attr(enum sim_timer_via via)
{
	memset(&tm, 0, sizeof(tm));
	tm.via = via;
}

/*
 * Whether the local APIC passes a due tick on now; interrupts on or off is
 * the caller's question.  ExtINT is level-sensitive (SDM Vol. 3A 11.5.1)
 * and the 8259 holds INTR until the CPU acknowledges it, so a tick held by
 * LINT0's mask comes once LINT0 is unmasked (Linux KVM models the same:
 * kvm_cpu_has_extint is the PIC's output whenever kvm_apic_accept_pic_intr).
 */
static bool tick_admitted(const struct sim_cpu *c)
{
	if (tm.via == SIM_TIMER_EXTINT)
		return !(c->lint0 & LINT0_MASK);
	return sim_apic_admits(c, SIM_TIMER_VECTOR);
}

static uint8_t tick_vector(void)
{
	return tm.via == SIM_TIMER_EXTINT ? SIM_8259_IRQ0_VECTOR : SIM_TIMER_VECTOR;
}

/* The leaf entry mapping addr under cr3 (SDM Vol. 3A 4.5.4), NULL where none is present. */
static uint64_t *leaf_entry(uint64_t cr3, uint64_t addr)
{
	uint64_t *t = (uint64_t *)(uintptr_t)(cr3 & E_ADDR);

	for (unsigned int shift = 39; t; shift -= 9) {
		uint64_t *e = &t[(addr >> shift) & 511];

		if (!(*e & E_P))
			return NULL;
		if (shift == 12 || (shift < 39 && (*e & E_PS)))
			return e;
		t = (uint64_t *)(uintptr_t)(*e & E_ADDR);
	}
	return NULL;
}

/*
 * One tick's notification: XD set on the page of the boot CPU's last data
 * access, through its CR3 now.  Which page the firmware changes is its
 * business (a pool it frees and guards); the one the kernel touches lies
 * under pebsprobe's copied tables whenever CR3 is theirs.
 */
static void fire(struct sim_cpu *c)
{
	uint64_t *e;

	c->stats.timer_ticks++;
	if (!c->last_addr || !c->cr3)
		return;
	e = leaf_entry(c->cr3, c->last_addr);
	if (!e)
		return;
	*e |= E_XD;
	if (tm.n == CHANGES_MAX) {
		tm.dropped++;
		return;
	}
	tm.ch[tm.n].addr = c->last_addr;
	tm.ch[tm.n].cr3 = c->cr3;
	tm.ch[tm.n++].entry = e;
}

void sim_timer_tick(struct sim_cpu *c)
{
	if (!tm.via || !sim_boot_cpu(c))
		return;
	if (++tm.calls % TIMER_PERIOD == 0)
		tm.due = true;
	if (!tm.due || plat_tpl_high() || c->irq_off || !tick_admitted(c))
		return;
	tm.due = false;
	fire(c);
}

/*
 * Interrupts on at TPL_HIGH_LEVEL: OVMF's timer handler finds it
 * interrupted TPL_HIGH_LEVEL, which the UEFI spec forbids, and logs an
 * error (edk2 OvmfPkg NestedInterruptTplLib Tpl.c NestedInterruptRaiseTPL),
 * so a tick let in here is a violation.
 */
void sim_timer_window(struct sim_cpu *c)
{
	if (!tm.via || !sim_boot_cpu(c) || !tm.due || !plat_tpl_high() || !tick_admitted(c))
		return;
	tm.due = false;
	sim_violation(c, "timer-high-tpl",
		      "the firmware's timer (vector 0x%x%s) came in a window opened at "
		      "TPL_HIGH_LEVEL with TPR 0x%x, LINT0 0x%x (OVMF NestedInterruptRaiseTPL: "
		      "interrupts enabled at TPL_HIGH_LEVEL)",
		      tick_vector(), tm.via == SIM_TIMER_EXTINT ? ", ExtINT on LINT0" : "", c->tpr,
		      c->lint0);
	fire(c);
}

unsigned int sim_timer_attr_check(void)
{
	unsigned int lost = 0, first = 0;
	uint64_t fw = sim_paging_fw_cr3();

	if (!tm.via)
		return 0;
	for (unsigned int i = 0; i < tm.n; i++) {
		const uint64_t *e = leaf_entry(fw, tm.ch[i].addr);

		if (e == tm.ch[i].entry && (*e & E_XD))
			continue;
		if (!lost++)
			first = i;
	}
	if (lost)
		sim_violation(NULL, "timer-attr",
			      "%u of %u firmware timer ticks set XD under a CR3 not the firmware's "
			      "0x%llx (the first: 0x%llx under 0x%llx): its tables never got them "
			      "(EDK II CpuDxe GetCurrentPagingContext)",
			      lost, tm.n, (unsigned long long)fw,
			      (unsigned long long)tm.ch[first].addr,
			      (unsigned long long)tm.ch[first].cr3);
	return lost;
}

unsigned int sim_timer_attr_ticks(void)
{
	return tm.n + tm.dropped;
}
