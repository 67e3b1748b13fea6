// SPDX-License-Identifier: MIT
/*
 * hw_real.c - the hw seam on the real processor: CPUID, RDMSR/WRMSR with a
 * #GP trap, RDTSC, the local APIC (xAPIC MMIO or x2APIC MSRs) and the PMI
 * vector.
 *
 * The #GP trap.  An MSR the CPU does not implement, a reserved bit set, or
 * a rule broken (SDM Vol. 4 ch. 2 intro; Vol. 2B RDMSR/WRMSR "Protected
 * Mode Exceptions") raises #GP(0).  The firmware's handler would print a
 * register dump and hang the bench machine.  So every access runs with
 * interrupts off under a private IDT: a copy of the firmware's, taken just
 * before the access, whose vector 13 points at gp_stub.  The access zeroes
 * r8 right before the RDMSR/WRMSR, in the same asm statement; gp_stub steps
 * over the 2-byte instruction and sets r8 to 1, which the access reads as
 * "it faulted".  Then the firmware's IDTR is loaded again.  The firmware's IDT
 * itself is never written.
 *
 * The private IDT is 4 KiB, as large as a whole AP stack on Intel's own
 * server boards (edk2-platforms WhitleyOpenBoardPkg PlatformPkg.dsc:
 * PcdCpuApStackSize 0x1000, whose lowest page PcdCpuStackGuard makes not
 * present, UefiCpuPkg DxeMpLib.c InitMpGlobalData).  So it is not on the
 * stack: each CPU has a slot of its own, found by its local APIC ID, from
 * a table hw_real_trap_init() allocates on the BSP before any AP starts.
 */
#include "hw_real.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"

struct idt_gate {
	uint16_t off0;
	uint16_t sel;
	uint8_t ist;
	uint8_t attr; /* 0x8e: present, DPL 0, 64-bit interrupt gate (SDM Vol. 3A 6.14.1) */
	uint16_t off1;
	uint32_t off2;
	uint32_t zero;
} __attribute__((packed));

struct dtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

#define IDT_ENTRIES 256
#define VEC_GP	    13

/* #GP pushes an error code: [rsp] = error code, [rsp+8] = RIP (SDM Vol. 3A 6.14.2). */
__asm__(".text\n"
	".p2align 4\n"
	"pp_gp_stub:\n"
	"	addq $8, %rsp\n"   /* drop the error code */
	"	addq $2, (%rsp)\n" /* resume after 0f 32 / 0f 30 */
	"	movl $1, %r8d\n"   /* the fault flag: the access zeroed r8 just before */
	"	iretq\n");
extern char pp_gp_stub[] __asm__("pp_gp_stub") __attribute__((visibility("hidden")));

static struct dtr fw_idtr;
static struct idt_gate fw_gp_gate;
static bool fw_idt_saved;
static volatile unsigned long gp_trapped;

static inline void sidt(struct dtr *d)
{
	__asm__ volatile("sidt %0" : "=m"(*d));
}

static inline void lidt(const struct dtr *d)
{
	__asm__ volatile("lidt %0" : : "m"(*d));
}

static inline uint64_t irq_save(void)
{
	uint64_t flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void irq_restore(uint64_t flags)
{
	__asm__ volatile("pushq %0; popfq" : : "r"(flags) : "memory", "cc");
}

static uint16_t read_cs(void)
{
	uint16_t cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	return cs;
}

static void set_gate(struct idt_gate *g, void *handler)
{
	uint64_t a = (uint64_t)(uintptr_t)handler;

	g->off0 = a & 0xffff;
	g->sel = read_cs();
	g->ist = 0;
	g->attr = 0x8e;
	g->off1 = (a >> 16) & 0xffff;
	g->off2 = a >> 32;
	g->zero = 0;
}

/* Remembers the firmware's IDT once, to prove later that it was left alone. */
static void save_fw_idt(void)
{
	if (fw_idt_saved)
		return;
	sidt(&fw_idtr);
	memcpy(&fw_gp_gate, (void *)(uintptr_t)(fw_idtr.base + VEC_GP * sizeof(struct idt_gate)),
	       sizeof(fw_gp_gate));
	fw_idt_saved = true;
}

/* The private IDT: a copy of whatever IDT is loaded now, #GP redirected. */
struct trap_slot {
	struct idt_gate idt[IDT_ENTRIES] __attribute__((aligned(16)));
	uint32_t apic_id; /* the owner's; TRAP_FREE while unclaimed */
};

struct trap_ctx {
	struct trap_slot *slot;
	struct dtr mine, prev;
	uint64_t flags;
};

#define TRAP_FREE UINT32_MAX

/*
 * The BSP's slot, static so that the first accesses (before the table) have
 * one; the table: one slot per CPU the firmware counts, claimed by the first
 * access of each CPU (compare-and-swap of its APIC ID).
 */
static struct trap_slot bsp_slot = {.apic_id = TRAP_FREE};
static struct trap_slot *trap_slots;
static unsigned int trap_nslots;
static uint32_t trap_bsp_id;
static bool trap_leaf_b, trap_ready;
static volatile unsigned long trap_no_slot;

static void cpuid_bd(uint32_t leaf, uint32_t *b, uint32_t *d)
{
	uint32_t a, c;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(*b), "=c"(c), "=d"(*d) : "a"(leaf), "c"(0));
}

/*
 * The local APIC ID: CPUID.0BH:EDX (x2APIC ID), else CPUID.1:EBX[31:24] (SDM
 * Vol. 3A 11.4.6); which one is settled by trap_ids_init() on the BSP.
 */
static uint32_t trap_apic_id(void)
{
	uint32_t b, d;

	cpuid_bd(trap_leaf_b ? 0xb : 1, &b, &d);
	return trap_leaf_b ? d : b >> 24;
}

static void trap_ids_init(void)
{
	uint32_t max, b, d;

	if (trap_ready)
		return;
	cpuid_bd(0, &max, &d);
	if (max >= 0xb) {
		cpuid_bd(0xb, &b, &d);
		trap_leaf_b = (b & 0xffff) != 0; /* leaf 0BH enumerated */
	}
	trap_bsp_id = trap_apic_id();
	bsp_slot.apic_id = trap_bsp_id;
	trap_ready = true;
}

/* Also the AP guard's (platform_efi.c): the first call is on the BSP, at start. */
uint32_t hw_real_apic_id(void)
{
	trap_ids_init();
	return trap_apic_id();
}

int hw_real_trap_init(unsigned int ncpus)
{
	size_t bytes = (size_t)ncpus * sizeof(struct trap_slot);

	trap_ids_init();
	if (trap_slots || ncpus < 2)
		return 0;
	trap_slots = plat_alloc_pages((bytes + 4095) / 4096);
	if (!trap_slots)
		return -1;
	for (unsigned int i = 0; i < ncpus; i++)
		trap_slots[i].apic_id = TRAP_FREE;
	trap_nslots = ncpus;
	return 0;
}

static struct trap_slot *trap_slot_self(void)
{
	uint32_t id = trap_apic_id();

	if (id == trap_bsp_id)
		return &bsp_slot;
	for (unsigned int i = 0; i < trap_nslots; i++) {
		uint32_t free_id = TRAP_FREE;

		if (trap_slots[i].apic_id == id)
			return &trap_slots[i];
		if (__atomic_compare_exchange_n(&trap_slots[i].apic_id, &free_id, id, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return &trap_slots[i];
	}
	return NULL;
}

/* False when this CPU has no slot (an AP before hw_real_trap_init): no access then. */
static bool trap_enter(struct trap_ctx *t)
{
	size_t bytes;

	save_fw_idt();
	t->slot = trap_slot_self();
	if (!t->slot) {
		trap_no_slot++;
		return false;
	}
	t->flags = irq_save();
	sidt(&t->prev);
	bytes = (size_t)t->prev.limit + 1;
	if (bytes > sizeof(t->slot->idt))
		bytes = sizeof(t->slot->idt);
	memset(t->slot->idt, 0, sizeof(t->slot->idt));
	memcpy(t->slot->idt, (void *)(uintptr_t)t->prev.base, bytes);
	set_gate(&t->slot->idt[VEC_GP], pp_gp_stub);
	t->mine.base = (uint64_t)(uintptr_t)t->slot->idt;
	t->mine.limit = sizeof(t->slot->idt) - 1;
	lidt(&t->mine);
	return true;
}

static void trap_leave(struct trap_ctx *t, uint64_t faulted)
{
	lidt(&t->prev);
	irq_restore(t->flags);
	if (faulted)
		gp_trapped++;
}

/*
 * The fault flag lives in r8 only inside the asm statement: it is zeroed
 * right before RDMSR/WRMSR, gp_stub sets it to 1, and it is copied out into
 * an ordinary variable before the asm ends (r8 is declared clobbered).  A
 * local register variable set to 0 in C would not do: GCC guarantees such a
 * variable's register only as an operand of the asm it is passed to ("The
 * only supported use for this feature is to specify registers for input and
 * output operands when calling Extended asm", GCC manual, "Specifying
 * Registers for Local Variables"), and trap_enter() calls memset and memcpy
 * in between, which may leave anything in r8 (a caller-saved register).
 */
static enum hw_fault real_rdmsr(uint32_t msr, uint64_t *val)
{
	struct trap_ctx t;
	uint64_t fault;
	uint32_t lo, hi;

	if (!trap_enter(&t)) {
		*val = 0;
		return HW_GP;
	}
	__asm__ volatile("xorl %%r8d, %%r8d\n\t"
			 "rdmsr\n\t"
			 "movq %%r8, %[f]"
			 : "=a"(lo), "=d"(hi), [f] "=&r"(fault)
			 : "c"(msr)
			 : "r8", "memory");
	trap_leave(&t, fault);
	*val = fault ? 0 : ((uint64_t)hi << 32 | lo);
	return fault ? HW_GP : HW_OK;
}

static enum hw_fault real_wrmsr(uint32_t msr, uint64_t val)
{
	struct trap_ctx t;
	uint64_t fault;

	if (!trap_enter(&t))
		return HW_GP;
	__asm__ volatile("xorl %%r8d, %%r8d\n\t"
			 "wrmsr\n\t"
			 "movq %%r8, %[f]"
			 : [f] "=&r"(fault)
			 : "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32))
			 : "r8", "memory");
	trap_leave(&t, fault);
	return fault ? HW_GP : HW_OK;
}

static void real_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	__asm__ volatile("cpuid"
			 : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx)
			 : "a"(leaf), "c"(subleaf));
}

static uint64_t real_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* ---- local APIC: x2APIC MSRs when IA32_APIC_BASE.EXTD, else MMIO (SDM Vol. 3A 11.4.4, 11.12) ----
 */

#define MSR_IA32_APIC_BASE 0x1b
#define APIC_BASE_EXTD	   BIT_ULL(10)
#define RFLAGS_IF	   BIT_ULL(9)
#define X2APIC_MSR_BASE	   0x800

static uint64_t apic_base(void)
{
	uint64_t v = 0;

	real_rdmsr(MSR_IA32_APIC_BASE, &v);
	return v;
}

static uint32_t real_apic_read(uint32_t reg)
{
	uint64_t base = apic_base(), v = 0;

	if (base & APIC_BASE_EXTD) {
		real_rdmsr(X2APIC_MSR_BASE + (reg >> 4), &v);
		return (uint32_t)v;
	}
	return *(volatile uint32_t *)(uintptr_t)((base & GENMASK_ULL(51, 12)) + reg);
}

static void real_apic_write(uint32_t reg, uint32_t val)
{
	uint64_t base = apic_base();

	if (base & APIC_BASE_EXTD) {
		real_wrmsr(X2APIC_MSR_BASE + (reg >> 4), val);
		return;
	}
	*(volatile uint32_t *)(uintptr_t)((base & GENMASK_ULL(51, 12)) + reg) = val;
}

/* ---- the PMI vector ---- */

/*
 * While a PMI handler is installed, a copy of the firmware's IDT with the
 * PMI vector added is loaded (the firmware's own table is not written);
 * removing the handler loads the firmware's IDTR again.
 */
static struct idt_gate pmi_idt[IDT_ENTRIES] __attribute__((aligned(16)));
static struct dtr pmi_prev_idtr;
static bool pmi_installed;
static uint64_t pmi_prev_if; /* RFLAGS.IF of the installing CPU before the install */
static hw_pmi_fn pmi_fn;
static void *pmi_ctx;

__attribute__((used)) static void pmi_dispatch(void) __asm__("pp_pmi_dispatch");
static void pmi_dispatch(void)
{
	if (pmi_fn)
		pmi_fn(pmi_ctx);
}

/*
 * Entry: RSP is 16-byte aligned before the 5-qword frame (SDM Vol. 3A
 * 6.14.2), so RSP = 8 mod 16.  Nine caller-saved GPRs make it 0 mod 16; the
 * 512-byte FXSAVE area keeps it aligned for the call.  SSE state is saved
 * because the interrupted kernel may be using it.
 */
__asm__(".text\n"
	".p2align 4\n"
	"pp_pmi_stub:\n"
	"	pushq %rax\n	pushq %rcx\n	pushq %rdx\n	pushq %rsi\n	pushq %rdi\n"
	"	pushq %r8\n	pushq %r9\n	pushq %r10\n	pushq %r11\n"
	"	subq $512, %rsp\n"
	"	fxsave (%rsp)\n"
	"	cld\n"
	"	call pp_pmi_dispatch\n"
	"	fxrstor (%rsp)\n"
	"	addq $512, %rsp\n"
	"	popq %r11\n	popq %r10\n	popq %r9\n	popq %r8\n"
	"	popq %rdi\n	popq %rsi\n	popq %rdx\n	popq %rcx\n	popq %rax\n"
	"	iretq\n");
extern char pp_pmi_stub[] __asm__("pp_pmi_stub") __attribute__((visibility("hidden")));

static int real_set_pmi_handler(uint8_t vector, hw_pmi_fn fn, void *ctx)
{
	uint64_t flags;
	struct dtr d;

	if (vector < 32)
		return -1; /* exceptions, not interrupts */
	save_fw_idt();
	flags = irq_save();
	if (!fn) {
		if (pmi_installed) {
			lidt(&pmi_prev_idtr);
			/* The CPU's interrupt flag as the install found it. */
			flags = (flags & ~RFLAGS_IF) | pmi_prev_if;
		}
		pmi_installed = false;
		pmi_fn = NULL;
		irq_restore(flags);
		return 0;
	}
	if (!pmi_installed) {
		size_t bytes;

		sidt(&pmi_prev_idtr);
		bytes = (size_t)pmi_prev_idtr.limit + 1;
		if (bytes > sizeof(pmi_idt))
			bytes = sizeof(pmi_idt);
		memset(pmi_idt, 0, sizeof(pmi_idt));
		memcpy(pmi_idt, (void *)(uintptr_t)pmi_prev_idtr.base, bytes);
	}
	set_gate(&pmi_idt[vector], pp_pmi_stub);
	pmi_fn = fn;
	pmi_ctx = ctx;
	d.base = (uint64_t)(uintptr_t)pmi_idt;
	d.limit = sizeof(pmi_idt) - 1;
	lidt(&d);
	if (!pmi_installed)
		pmi_prev_if = flags & RFLAGS_IF;
	pmi_installed = true;
	/*
	 * Interrupts on while the handler is installed: an AP runs the
	 * procedure of StartupThisAP with RFLAGS.IF clear (OVMF: RFLAGS 0x2 on
	 * the APs, 0x202 on the BSP), where a PMI would wait in the local
	 * APIC's IRR and never reach the handler (SDM Vol. 3A 6.8.1 "Masking
	 * Maskable Hardware Interrupts").  On the BSP IF is already set.
	 */
	irq_restore(flags | RFLAGS_IF);
	return 0;
}

/* STI delays interrupts by one instruction (the NOP), so the window is that one. */
static void real_irq_window(void)
{
	uint64_t flags = irq_save();

	__asm__ volatile("sti\n\tnop\n\tcli" : : : "memory");
	irq_restore(flags);
}

/*
 * MOV to/from CR3 and from CR4 (SDM Vol. 2B "MOV - Move to/from Control
 * Registers").  Writing CR3 flushes the non-global TLB entries of the
 * current PCID (Vol. 3A 4.10.4.1): pmu/paging.c relies on that.
 */
static uint64_t real_read_cr3(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static void real_write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

/*
 * The boot CPU's CR3 when the app first asked for this backend (efi/main.c,
 * before anything could write one): the firmware's tables, which it keeps
 * for the life of boot services (EDK II builds them once in DxeIpl and
 * CpuDxe edits them in place).
 */
static uint64_t fw_cr3;

static uint64_t real_fw_cr3(void)
{
	return fw_cr3;
}

static uint64_t real_read_cr4(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static const struct hw_ops real_ops = {
    .name = "hw",
    .simulated = false,
    .cpuid = real_cpuid,
    .rdmsr = real_rdmsr,
    .wrmsr = real_wrmsr,
    .rdtsc = real_rdtsc,
    .apic_read = real_apic_read,
    .apic_write = real_apic_write,
    .set_pmi_handler = real_set_pmi_handler,
    .irq_window = real_irq_window,
    .read_cr3 = real_read_cr3,
    .write_cr3 = real_write_cr3,
    .read_cr4 = real_read_cr4,
    .fw_cr3 = real_fw_cr3,
};

const struct hw_ops *hw_real_ops(void)
{
	save_fw_idt();
	trap_ids_init();
	if (!fw_cr3)
		fw_cr3 = real_read_cr3();
	return &real_ops;
}

unsigned long hw_real_gp_trapped(void)
{
	return gp_trapped;
}

unsigned long hw_real_trap_refused(void)
{
	return trap_no_slot;
}

bool hw_real_idt_intact(char *why, size_t why_size)
{
	struct dtr now;

	if (!fw_idt_saved) {
		pp_snprintf(why, why_size, "the backend was never used");
		return false;
	}
	sidt(&now);
	if (pmi_installed) {
		pp_snprintf(why, why_size, "a PMI handler is still installed");
		return false;
	}
	if (now.base != fw_idtr.base || now.limit != fw_idtr.limit) {
		pp_snprintf(why, why_size, "IDTR is 0x%llx/0x%x, firmware's was 0x%llx/0x%x",
			    (unsigned long long)now.base, now.limit,
			    (unsigned long long)fw_idtr.base, fw_idtr.limit);
		return false;
	}
	if (memcmp((void *)(uintptr_t)(now.base + VEC_GP * sizeof(struct idt_gate)), &fw_gp_gate,
		   sizeof(fw_gp_gate))) {
		pp_snprintf(why, why_size, "the firmware's #GP gate changed");
		return false;
	}
	return true;
}

/* ---- self test of the PMI vector path ---- */

#define TEST_VECTOR 0xee /* = PMI_VECTOR of pmu/session.c; must be an immediate of INT */

static volatile unsigned int vec_hits;

/* Uses registers the way any handler would (a formatted print). */
static void vec_probe(void *ctx)
{
	char buf[64];

	vec_hits++;
	pp_snprintf(buf, sizeof(buf), "%s %d %llx", "clobber", 42, 0x1234ULL);
	*(volatile char *)ctx = buf[0];
}

bool hw_real_selftest_vector(char *why, size_t why_size)
{
	static const char *const names[] = {"rax", "rcx", "rdx", "rsi", "rdi",
					    "r8",  "r9",  "r10", "r11", "xmm0"};
	uint64_t in[10], out[10];
	volatile char sink = 0;

	for (unsigned int i = 0; i < 10; i++)
		in[i] = 0x1111111111111111ULL * (i + 1) ^ 0x0123456789abcdefULL;
	vec_hits = 0;
	if (real_set_pmi_handler(TEST_VECTOR, vec_probe, (void *)&sink)) {
		pp_snprintf(why, why_size, "set_pmi_handler(0x%x) refused", TEST_VECTOR);
		return false;
	}
	__asm__ volatile("movq 0(%[i]), %%rax\n\tmovq 8(%[i]), %%rcx\n\tmovq 16(%[i]), %%rdx\n\t"
			 "movq 24(%[i]), %%rsi\n\tmovq 32(%[i]), %%rdi\n\tmovq 40(%[i]), %%r8\n\t"
			 "movq 48(%[i]), %%r9\n\tmovq 56(%[i]), %%r10\n\tmovq 64(%[i]), %%r11\n\t"
			 "movq 72(%[i]), %%xmm0\n\t"
			 "int $0xee\n\t"
			 "movq %%rax, 0(%[o])\n\tmovq %%rcx, 8(%[o])\n\tmovq %%rdx, 16(%[o])\n\t"
			 "movq %%rsi, 24(%[o])\n\tmovq %%rdi, 32(%[o])\n\tmovq %%r8, 40(%[o])\n\t"
			 "movq %%r9, 48(%[o])\n\tmovq %%r10, 56(%[o])\n\tmovq %%r11, 64(%[o])\n\t"
			 "movq %%xmm0, 72(%[o])"
			 :
			 : [i] "r"(in), [o] "r"(out)
			 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0",
			   "memory");
	real_set_pmi_handler(TEST_VECTOR, NULL, NULL);
	if (vec_hits != 1) {
		pp_snprintf(why, why_size, "the handler ran %u times, not once", vec_hits);
		return false;
	}
	for (unsigned int i = 0; i < 10; i++) {
		if (in[i] != out[i]) {
			pp_snprintf(why, why_size,
				    "%s changed across the interrupt: 0x%llx -> 0x%llx", names[i],
				    (unsigned long long)in[i], (unsigned long long)out[i]);
			return false;
		}
	}
	return hw_real_idt_intact(why, why_size);
}

/* ---- self test: an interrupt on the PMI vector reaches the handler on an AP ---- */

/* Local APIC timer registers (SDM Vol. 3A 11.5.4 "APIC Timer", Table 11-1). */
#define APIC_REG_EOI	0xb0
#define APIC_LVT_TIMER	0x320
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_DIV	0x3e0
#define APIC_DIV_BY_1	0xb
#define APIC_LVT_MASKED BIT_ULL(16)
/* TSC ticks to wait: about 0.1 s at 2.7 GHz, in TSC time since PAUSE may be slow (TCG). */
#define AP_TEST_TICKS	   (1ULL << 28)
#define AP_TEST_LATE_TICKS (1ULL << 24)

static volatile unsigned int ap_hits;

static void ap_timer_handler(void *ctx)
{
	(void)ctx;
	ap_hits++;
	real_apic_write(APIC_REG_EOI, 0);
}

static uint64_t read_rflags(void)
{
	uint64_t f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

bool hw_real_selftest_ap_interrupt(char *why, size_t why_size)
{
	uint32_t lvt = real_apic_read(APIC_LVT_TIMER), div = real_apic_read(APIC_TIMER_DIV),
		 init = real_apic_read(APIC_TIMER_INIT);
	uint64_t before = read_rflags(), during, after, t0;
	struct dtr idt0, idt1;
	unsigned int on_time, late = 0;

	sidt(&idt0);
	ap_hits = 0;
	if (real_set_pmi_handler(TEST_VECTOR, ap_timer_handler, NULL)) {
		pp_snprintf(why, why_size, "set_pmi_handler(0x%x) refused", TEST_VECTOR);
		return false;
	}
	during = read_rflags();
	/* One-shot (LVT timer bits 18:17 = 0), unmasked, our vector; 1000 bus clocks. */
	real_apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | TEST_VECTOR);
	real_apic_write(APIC_TIMER_DIV, APIC_DIV_BY_1);
	real_apic_write(APIC_LVT_TIMER, TEST_VECTOR);
	real_apic_write(APIC_TIMER_INIT, 1000);
	t0 = real_rdtsc();
	while (!ap_hits && real_rdtsc() - t0 < AP_TEST_TICKS)
		__asm__ volatile("pause" ::: "memory");
	on_time = ap_hits;
	if (!on_time) {
		/* Still in the IRR: let it land in our handler, not the firmware's later. */
		__asm__ volatile("sti" ::: "memory");
		t0 = real_rdtsc();
		while (!ap_hits && real_rdtsc() - t0 < AP_TEST_LATE_TICKS)
			__asm__ volatile("pause" ::: "memory");
		__asm__ volatile("cli" ::: "memory");
		late = ap_hits;
	}
	real_apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | TEST_VECTOR);
	real_apic_write(APIC_TIMER_INIT, 0);
	real_set_pmi_handler(TEST_VECTOR, NULL, NULL);
	if (!on_time)
		irq_restore(before); /* the test's own sti/cli undone */
	after = read_rflags();
	sidt(&idt1);
	real_apic_write(APIC_TIMER_DIV, div);
	real_apic_write(APIC_LVT_TIMER, lvt);
	if (init)
		real_apic_write(APIC_TIMER_INIT, init);
	if (!(during & RFLAGS_IF)) {
		pp_snprintf(why, why_size,
			    "RFLAGS 0x%llx with the handler installed: interrupts off, a PMI "
			    "would wait in the IRR",
			    (unsigned long long)during);
		return false;
	}
	if (on_time != 1) {
		pp_snprintf(why, why_size,
			    "the timer interrupt on vector 0x%x reached the handler %u times "
			    "while installed (%u once interrupts were forced on)",
			    TEST_VECTOR, on_time, late);
		return false;
	}
	if ((after & RFLAGS_IF) != (before & RFLAGS_IF) || idt0.base != idt1.base ||
	    idt0.limit != idt1.limit) {
		pp_snprintf(why, why_size,
			    "not restored: RFLAGS 0x%llx -> 0x%llx, IDTR 0x%llx -> 0x%llx",
			    (unsigned long long)before, (unsigned long long)after,
			    (unsigned long long)idt0.base, (unsigned long long)idt1.base);
		return false;
	}
	pp_snprintf(why, why_size, "RFLAGS.IF %u before, 1 with the handler, %u after",
		    (unsigned int)!!(before & RFLAGS_IF), (unsigned int)!!(after & RFLAGS_IF));
	return true;
}

/* ---- self test: the #GP verdict does not depend on what the registers held ---- */

/*
 * pp_call_dirty(fn, a0, a1, regs) calls fn(a0, a1) with rax, rcx, rdx and
 * r8-r11 loaded from regs[0..6]: the caller-saved registers that carry no
 * argument, which any caller may leave holding anything.  rdi and rsi carry
 * a0 and a1 (the System V x86-64 calling convention the app's own functions
 * use; only efi_main and firmware calls are ms_abi).  The stack is aligned
 * to 16 bytes at the call, as that convention requires.
 */
__asm__(
    ".text\n"
    ".p2align 4\n"
    "pp_call_dirty:\n"
    "	pushq %rbp\n	movq %rsp, %rbp\n	pushq %rbx\n	pushq %r12\n"
    "	movq %rdi, %rbx\n	movq %rsi, %rdi\n	movq %rdx, %rsi\n	movq %rcx, %r12\n"
    "	movq 0(%r12), %rax\n	movq 8(%r12), %rcx\n	movq 16(%r12), %rdx\n"
    "	movq 24(%r12), %r8\n	movq 32(%r12), %r9\n	movq 40(%r12), %r10\n"
    "	movq 48(%r12), %r11\n"
    "	andq $-16, %rsp\n"
    "	call *%rbx\n"
    "	leaq -16(%rbp), %rsp\n	popq %r12\n	popq %rbx\n	popq %rbp\n"
    "	ret\n");
extern uint64_t pp_call_dirty(void *fn, uint64_t a0, uint64_t a1,
			      const uint64_t *regs) __asm__("pp_call_dirty")
    __attribute__((visibility("hidden")));

#define MSR_IA32_PKRS	  0x6e1 /* as app/app.c's selftest: bit 32 is reserved */
#define PKRS_RESERVED_BIT BIT_ULL(32)

bool hw_real_selftest_dirty_regs(char *why, size_t why_size)
{
	/* rax, rcx, rdx, r8, r9, r10, r11: r8 = 1 is what gp_stub sets on a fault */
	static const uint64_t garbage[][7] = {
	    {1, 1, 1, 1, 1, 1, 1},
	    {~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL},
	    {0x0123456789abcdefULL, 0xfedcba9876543210ULL, 0xdeadbeefcafef00dULL,
	     0x8000000000000001ULL, 0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL, 0x1234ULL},
	};
	static const uint64_t zero[7];
	uint64_t want = 0, got;
	unsigned long before;
	enum hw_fault f;

	/* The value to compare with: the same access with those registers all zero. */
	if ((enum hw_fault)pp_call_dirty((void *)real_rdmsr, MSR_IA32_APIC_BASE,
					 (uint64_t)(uintptr_t)&want, zero) != HW_OK) {
		pp_snprintf(why, why_size, "rdmsr 0x%x faulted with those registers all zero",
			    MSR_IA32_APIC_BASE);
		return false;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(garbage); i++) {
		const uint64_t *g = garbage[i];

		got = 0;
		before = gp_trapped;
		f = (enum hw_fault)pp_call_dirty((void *)real_rdmsr, MSR_IA32_APIC_BASE,
						 (uint64_t)(uintptr_t)&got, g);
		if (f != HW_OK || gp_trapped != before || got != want) {
			pp_snprintf(why, why_size,
				    "rdmsr 0x%x with r8=0x%llx before the call: %s, value 0x%llx "
				    "(registers zeroed: 0x%llx), %lu faults trapped",
				    MSR_IA32_APIC_BASE, (unsigned long long)g[3],
				    f == HW_OK ? "no fault" : "reported #GP",
				    (unsigned long long)got, (unsigned long long)want,
				    gp_trapped - before);
			return false;
		}
		before = gp_trapped;
		f = (enum hw_fault)pp_call_dirty((void *)real_wrmsr, MSR_IA32_PKRS,
						 PKRS_RESERVED_BIT, g);
		if (f != HW_GP || gp_trapped != before + 1) {
			pp_snprintf(why, why_size,
				    "wrmsr 0x%x <- 0x%llx with r8=0x%llx before the call: %s, "
				    "%lu faults trapped (want 1)",
				    MSR_IA32_PKRS, (unsigned long long)PKRS_RESERVED_BIT,
				    (unsigned long long)g[3],
				    f == HW_GP ? "#GP reported" : "no #GP reported",
				    gp_trapped - before);
			return false;
		}
	}
	return true;
}
