// SPDX-License-Identifier: MIT
/*
 * platform_efi.c - lib/platform.h with UEFI boot services: pages and pool,
 * the live page tables, files on the ESP, time, and the other processors
 * through EFI_MP_SERVICES_PROTOCOL (PI spec Vol. 2, 13.4; gnu-efi has no
 * definition of it, so the GUID and the table are written out here).
 */
#include "efi_glue.h"
#include "hw_real.h"
#include "../lib/ap_refusal.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../pmu/hw.h"

#define PTE_ADDR GENMASK_ULL(51, 12) /* CR3 and entries: the table address */

/* ---- the guard: no firmware call from an AP, nor under tables not the firmware's ---- */

/*
 * Work that lib/cpurun.c hands an AP runs inside an MP services procedure,
 * which may call no boot service but WhoAmI (PI spec Vol. 2 13.4, the
 * descriptions of StartupAllAPs and StartupThisAP): DXE's locks only raise
 * the calling CPU's TPL, so an AP and the BSP in the pool or event code at
 * once corrupt its lists (a queue of events, DxeCore's CoreRestoreTpl).
 * The BSP is told by its local APIC ID (SDM Vol. 3A 11.4.6: CPUID.0BH:EDX,
 * the x2APIC ID, else CPUID.1:EBX[31:24]).
 *
 * And no firmware code under page tables of ours: EDK II's CpuDxe changes
 * page attributes in whatever tables CR3 names (UefiCpuPkg/CpuDxe/
 * CpuPageTable.c GetCurrentPagingContext reads CR3), so a change made then
 * misses the firmware's own tables.  The CR3 judged is the one the PMU
 * backend gives the calling CPU (pmu/hw.h: the real one, or the simulated
 * CPU's), against the backend's firmware CR3.
 *
 * Every function here that would call the firmware asks efi_fw_refused()
 * first: it counts the call (lib/ap_refusal.h), and the caller does
 * without the firmware; the BSP names it after the work (lib/cpurun.c).
 */
static uint32_t bsp_apic_id;
static bool guard_on;

static void guard_init(void)
{
	bsp_apic_id = hw_real_apic_id();
	guard_on = true;
}

static bool on_ap(void)
{
	return guard_on && hw_real_apic_id() != bsp_apic_id;
}

bool efi_fw_refused(const char *what)
{
	uint64_t cr3, fw;

	if (on_ap()) {
		ap_refusal_note(what);
		return true;
	}
	if (!hw_current() || !hw_has_paging())
		return false;
	cr3 = hw_read_cr3();
	fw = hw_fw_cr3();
	if (!fw || !((cr3 ^ fw) & PTE_ADDR))
		return false;
	ap_refusal_note_cr3(what, cr3, fw);
	return true;
}

/* ---- memory ---- */

void *plat_alloc_pages(size_t npages)
{
	EFI_PHYSICAL_ADDRESS addr = 0;

	if (efi_fw_refused("plat_alloc_pages") ||
	    EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
					npages, &addr)))
		return NULL;
	memset((void *)(uintptr_t)addr, 0, npages * PAGE_SIZE_4K);
	return (void *)(uintptr_t)addr;
}

void plat_free_pages(void *p, size_t npages)
{
	if (p && !efi_fw_refused("plat_free_pages"))
		uefi_call_wrapper(BS->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(uintptr_t)p, npages);
}

void *plat_alloc(size_t size)
{
	return efi_fw_refused("plat_alloc") ? NULL : AllocateZeroPool(size);
}

void plat_free(void *p)
{
	if (p && !efi_fw_refused("plat_free"))
		FreePool(p);
}

/* ---- page tables (SDM Vol. 3A 4.5 "4-level paging", 11.12.3 PAT) ---- */

#define PTE_P	      BIT_ULL(0)
#define PTE_RW	      BIT_ULL(1)
#define PTE_PWT	      BIT_ULL(3)
#define PTE_PCD	      BIT_ULL(4)
#define PTE_PS	      BIT_ULL(7) /* large page in a PDPTE or PDE */
#define PTE_PAT_4K    BIT_ULL(7)
#define PTE_PAT_LARGE BIT_ULL(12)
#define CR4_LA57      BIT_ULL(12)
#define MSR_IA32_PAT  0x277
#define MEMTYPE_WB    6

static uint64_t read_cr3(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static uint64_t read_cr4(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static const char *const memtype_names[8] = {"UC", "WC", "reserved(2)", "reserved(3)",
					     "WT", "WP", "WB",		"UC-"};

struct walk {
	uint64_t phys;	    /* the physical address va maps to */
	uint64_t page_end;  /* first linear address past this translation */
	uint64_t page_size; /* 4 KiB, 2 MiB or 1 GiB */
	unsigned int pat_index;
};

/* Walks one linear address; false with why on a not-present or read-only entry. */
static bool walk_one(uint64_t va, struct walk *w, char *why, size_t why_size)
{
	uint64_t table = read_cr3() & PTE_ADDR;
	static const char *const level_names[] = {"PML4E", "PDPTE", "PDE", "PTE"};

	for (int level = 0; level < 4; level++) {
		unsigned int shift = 39 - 9 * level;
		uint64_t e = ((const uint64_t *)(uintptr_t)table)[(va >> shift) & 511];
		bool leaf = level == 3 || (level > 0 && (e & PTE_PS));

		if (!(e & PTE_P)) {
			pp_snprintf(why, why_size, "0x%llx not present (%s 0x%llx)",
				    (unsigned long long)va, level_names[level],
				    (unsigned long long)e);
			return false;
		}
		if (!(e & PTE_RW)) {
			pp_snprintf(why, why_size, "0x%llx read-only (%s 0x%llx)",
				    (unsigned long long)va, level_names[level],
				    (unsigned long long)e);
			return false;
		}
		if (leaf) {
			uint64_t size = 1ULL << shift;
			uint64_t base = e & PTE_ADDR & ~(size - 1);
			bool pat = level == 3 ? e & PTE_PAT_4K : e & PTE_PAT_LARGE;

			w->phys = base + (va & (size - 1));
			w->page_end = (va & ~(size - 1)) + size;
			w->page_size = size;
			w->pat_index =
			    (pat ? 4 : 0) | (e & PTE_PCD ? 2 : 0) | (e & PTE_PWT ? 1 : 0);
			return true;
		}
		table = e & PTE_ADDR;
	}
	return false;
}

/*
 * MTRRs (SDM Vol. 3A 12.11): with the PAT saying WB, the MTRR type of the
 * range is the effective type (Table 12-7), so it must be WB too.  Fixed
 * ranges below 1 MiB are not looked up: the buffers come from AllocatePages
 * above that, and an address below 1 MiB is refused.
 */
#define MSR_MTRRCAP	   0xfe
#define MSR_MTRR_DEF_TYPE  0x2ff
#define MSR_MTRR_PHYSBASE0 0x200
#define MTRR_MAX_VAR	   32

struct mtrr_state {
	bool enabled;
	unsigned int def_type, n_var;
	uint64_t base[MTRR_MAX_VAR], mask[MTRR_MAX_VAR];
};

static bool mtrr_read(const struct hw_ops *real, struct mtrr_state *m)
{
	struct cpuid_regs r;
	uint64_t cap = 0, def = 0;

	memset(m, 0, sizeof(*m));
	real->cpuid(1, 0, &r);
	if (!(r.edx & BIT_ULL(12)))
		return true; /* no MTRRs: the PAT alone decides */
	if (real->rdmsr(MSR_MTRRCAP, &cap) || real->rdmsr(MSR_MTRR_DEF_TYPE, &def))
		return false;
	m->enabled = def & BIT_ULL(11);
	m->def_type = def & 0xff;
	m->n_var = cap & 0xff;
	if (m->n_var > MTRR_MAX_VAR)
		m->n_var = MTRR_MAX_VAR;
	for (unsigned int i = 0; i < m->n_var; i++)
		if (real->rdmsr(MSR_MTRR_PHYSBASE0 + 2 * i, &m->base[i]) ||
		    real->rdmsr(MSR_MTRR_PHYSBASE0 + 2 * i + 1, &m->mask[i]))
			return false;
	return true;
}

/* The MTRR memory type of physical address pa; overlaps per SDM 12.11.4.1. */
static unsigned int mtrr_type(const struct mtrr_state *m, uint64_t pa)
{
	int type = -1;

	if (!m->enabled)
		return MEMTYPE_WB; /* no MTRRs in the way */
	for (unsigned int i = 0; i < m->n_var; i++) {
		uint64_t mask = m->mask[i] & PTE_ADDR;
		unsigned int t = m->base[i] & 0xff;

		if (!(m->mask[i] & BIT_ULL(11)) || (pa & mask) != (m->base[i] & mask))
			continue;
		if (t == 0 || type == 0)
			type = 0; /* UC wins */
		else if ((t == 4 && type == 6) || (t == 6 && type == 4))
			type = 4; /* WT and WB: WT */
		else
			type = t;
	}
	return type < 0 ? m->def_type : (unsigned int)type;
}

bool plat_check_mapping(uint64_t addr, size_t len, char *why, size_t why_size)
{
	struct mtrr_state mtrr;
	const struct hw_ops *real = hw_real_ops();
	uint64_t pat = 0x0007040600070406ULL; /* the power-on PAT (SDM Vol. 3A Table 11-12) */
	uint64_t va = addr, end = addr + len;

	if (!len || end < addr) {
		pp_snprintf(why, why_size, "empty or wrapping range at 0x%llx",
			    (unsigned long long)addr);
		return false;
	}
	if (read_cr4() & CR4_LA57) {
		pp_snprintf(why, why_size, "5-level paging (CR4.LA57) is not walked");
		return false;
	}
	if (real->rdmsr(MSR_IA32_PAT, &pat) != HW_OK) {
		pp_snprintf(why, why_size, "IA32_PAT unreadable (#GP)");
		return false;
	}
	if (!mtrr_read(real, &mtrr)) {
		pp_snprintf(why, why_size, "MTRR registers unreadable (#GP)");
		return false;
	}
	if (addr < 0x100000) {
		pp_snprintf(why, why_size, "0x%llx is below 1 MiB (fixed-range MTRRs not checked)",
			    (unsigned long long)addr);
		return false;
	}
	while (va < end) {
		struct walk w;
		unsigned int type;

		if (!walk_one(va, &w, why, why_size))
			return false;
		if (w.phys != va) {
			pp_snprintf(why, why_size, "0x%llx maps to physical 0x%llx, not identity",
				    (unsigned long long)va, (unsigned long long)w.phys);
			return false;
		}
		type = (pat >> (8 * w.pat_index)) & 7;
		if (type != MEMTYPE_WB) {
			pp_snprintf(why, why_size, "0x%llx is %s (PAT entry %u), not WB",
				    (unsigned long long)va, memtype_names[type], w.pat_index);
			return false;
		}
		type = mtrr_type(&mtrr, w.phys);
		if (type != MEMTYPE_WB) {
			pp_snprintf(why, why_size, "0x%llx is %s by the MTRRs, not WB",
				    (unsigned long long)va, memtype_names[type & 7]);
			return false;
		}
		/* MTRR ranges are 4 KiB-grained: step by 4 KiB even inside a large page. */
		va = (va & ~(uint64_t)(PAGE_SIZE_4K - 1)) + PAGE_SIZE_4K;
	}
	return true;
}

/* ---- files ---- */

/* An EFI error status travels as minus its code (the low bits; UEFI 2.x Appendix D). */
static int efi_err(EFI_STATUS st)
{
	if (!EFI_ERROR(st))
		return 0;
	return (st & 0xffff) ? -(int)(st & 0xffff) : -1;
}

int plat_write_file(const char *name, const void *buf, size_t len)
{
	if (efi_fw_refused("plat_write_file"))
		return -(int)(EFI_ACCESS_DENIED & 0xffff);
	return efi_err(esp_write_file(name, buf, len));
}

int plat_read_head(const char *name, void *buf, size_t size)
{
	UINTN len = size;

	if (efi_fw_refused("plat_read_head"))
		return -1;
	return EFI_ERROR(esp_read_head(name, buf, &len)) ? -1 : (int)len;
}

int64_t plat_free_space(void)
{
	if (efi_fw_refused("plat_free_space"))
		return -1;
	return esp_free_space();
}

int plat_delete_file(const char *name)
{
	if (efi_fw_refused("plat_delete_file"))
		return -(int)(EFI_ACCESS_DENIED & 0xffff);
	return efi_err(esp_delete(name));
}

int plat_list_files(void (*fn)(void *ctx, const char *name), void *ctx)
{
	if (efi_fw_refused("plat_list_files"))
		return -(int)(EFI_ACCESS_DENIED & 0xffff);
	return efi_err(esp_list(fn, ctx));
}

/* Appendix D's names of the statuses a file write can return. */
static const char *const efi_status_names[] = {
    [1] = "EFI_LOAD_ERROR",	   [2] = "EFI_INVALID_PARAMETER", [3] = "EFI_UNSUPPORTED",
    [4] = "EFI_BAD_BUFFER_SIZE",   [5] = "EFI_BUFFER_TOO_SMALL",  [6] = "EFI_NOT_READY",
    [7] = "EFI_DEVICE_ERROR",	   [8] = "EFI_WRITE_PROTECTED",	  [9] = "EFI_OUT_OF_RESOURCES",
    [10] = "EFI_VOLUME_CORRUPTED", [11] = "EFI_VOLUME_FULL",	  [12] = "EFI_NO_MEDIA",
    [13] = "EFI_MEDIA_CHANGED",	   [14] = "EFI_NOT_FOUND",	  [15] = "EFI_ACCESS_DENIED",
};

const char *plat_error_text(int err, char *buf, size_t size)
{
	unsigned int code = err < 0 ? (unsigned int)-err : (unsigned int)err;
	const char *name = code < ARRAY_SIZE(efi_status_names) ? efi_status_names[code] : NULL;

	pp_snprintf(buf, size, "%s (EFI status 0x%llx)", name ? name : "EFI error",
		    (unsigned long long)EFIERR(code));
	return buf;
}

/* ---- time ---- */

static uint64_t tsc_per_us, tsc_start;

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/*
 * Calibrate the TSC against the firmware's Stall, 1 ms at a time (plenty
 * for a progress clock).  A Stall never ends early but runs long when the
 * CPU is taken away (a loaded QEMU host: one sample was 4x), so the least
 * of 5 is kept, as Linux keeps the lowest of its 5 calibration loops
 * (arch/x86/kernel/tsc.c pit_hpet_ptimer_calibrate_cpu, tsc_pit_min).
 */
#define TSC_CAL_LOOPS 5

void plat_efi_init(void)
{
	tsc_per_us = 0;
	for (unsigned int i = 0; i < TSC_CAL_LOOPS; i++) {
		uint64_t t0 = rdtsc(), per_us;

		uefi_call_wrapper(BS->Stall, 1, 1000);
		per_us = (rdtsc() - t0) / 1000;
		if (!i || per_us < tsc_per_us)
			tsc_per_us = per_us;
	}
	if (!tsc_per_us)
		tsc_per_us = 1;
	tsc_start = rdtsc();
	guard_init();
}

/* 0 until plat_efi_init() has calibrated: a caller before it gets no #DE. */
uint64_t plat_time_us(void)
{
	return tsc_per_us ? (rdtsc() - tsc_start) / tsc_per_us : 0;
}

void plat_stall_us(unsigned int us)
{
	uint64_t end;

	if (!efi_fw_refused("plat_stall_us")) {
		uefi_call_wrapper(BS->Stall, 1, us);
		return;
	}
	/* On an AP, still the wait asked for: the calibrated TSC, no firmware. */
	end = plat_time_us() + us;
	while (plat_time_us() < end)
		__asm__ volatile("pause" ::: "memory");
}

/* ---- the task priority level (UEFI spec 7.1 RaiseTPL, RestoreTPL) ---- */

static bool tpl_high;

/*
 * TPL_HIGH_LEVEL: the firmware runs with interrupts off there and
 * dispatches no notification until the level comes down (EDK II
 * MdeModulePkg/Core/Dxe/Event/Tpl.c CoreRaiseTpl, CoreRestoreTpl).
 */
uint64_t plat_tpl_raise(void)
{
	uint64_t old;

	if (on_ap() || efi_fw_refused("plat_tpl_raise"))
		return PLAT_TPL_NONE;
	old = uefi_call_wrapper(BS->RaiseTPL, 1, TPL_HIGH_LEVEL);
	tpl_high = true;
	return old;
}

void plat_tpl_restore(uint64_t tpl)
{
	if (tpl == PLAT_TPL_NONE || on_ap() || efi_fw_refused("plat_tpl_restore"))
		return;
	tpl_high = tpl >= TPL_HIGH_LEVEL;
	uefi_call_wrapper(BS->RestoreTPL, 1, (EFI_TPL)tpl);
}

bool plat_tpl_high(void)
{
	return tpl_high;
}

/* ---- other processors: EFI_MP_SERVICES_PROTOCOL (PI spec Vol. 2 13.4) ---- */

static EFI_GUID mp_guid = {
    0x3fdda605, 0xa76e, 0x4f46, {0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08}};

typedef VOID(EFIAPI *efi_ap_procedure)(VOID *arg);

/*
 * EFI_PROCESSOR_INFORMATION (PI spec Vol. 2 13.4 GetProcessorInfo; EDK II
 * MdePkg/Include/Protocol/MpService.h): the StatusFlag bits and Location.
 * The extended location (PI 1.7) is written only when the caller sets
 * CPU_V2_EXTENDED_TOPOLOGY in the number, which we do not: room for it all
 * the same.
 */
#define PROCESSOR_AS_BSP_BIT	    0x1u
#define PROCESSOR_ENABLED_BIT	    0x2u
#define PROCESSOR_HEALTH_STATUS_BIT 0x4u

struct efi_processor_info {
	UINT64 processor_id; /* the APIC ID */
	UINT32 status_flag;
	UINT32 package, core, thread; /* EFI_CPU_PHYSICAL_LOCATION */
	UINT32 extended[6];	      /* EFI_CPU_PHYSICAL_LOCATION2 */
};

struct efi_mp_services {
	EFI_STATUS(EFIAPI *get_number_of_processors)
	(struct efi_mp_services *self, UINTN *n, UINTN *enabled);
	EFI_STATUS(EFIAPI *get_processor_info)
	(struct efi_mp_services *self, UINTN cpu, struct efi_processor_info *info);
	VOID *startup_all_aps;
	EFI_STATUS(EFIAPI *startup_this_ap)
	(struct efi_mp_services *self, efi_ap_procedure proc, UINTN cpu, EFI_EVENT wait_event,
	 UINTN timeout_us, VOID *arg, BOOLEAN *finished);
	VOID *switch_bsp;
	EFI_STATUS(EFIAPI *enable_disable_ap)
	(struct efi_mp_services *self, UINTN cpu, BOOLEAN enable, UINT32 *health);
	EFI_STATUS(EFIAPI *who_am_i)(struct efi_mp_services *self, UINTN *cpu);
};

struct ap_job {
	void (*fn)(void *arg);
	void *arg;
	EFI_EVENT done_event;
	volatile bool done;	/* MP services signalled done_event */
	volatile bool returned; /* fn came back on the AP (set there) */
	bool busy;
};

static struct efi_mp_services *mp;
static bool mp_looked;
static UINTN mp_count, mp_bsp;
static struct ap_job *jobs; /* mp_count of them: sized from the firmware's count */

/*
 * Our CPU numbers: 0 the BSP, then every other enabled, healthy processor
 * in the firmware's order.  The firmware numbers every processor, enabled
 * or not (PI spec Vol. 2 13.4 GetNumberOfProcessors, GetProcessorInfo
 * StatusFlag), so ours map to its numbers through cpus[].mp.
 */
struct mp_cpu {
	UINTN mp; /* the firmware's processor number */
	bool has_loc;
	struct plat_cpu_loc loc;
};
static struct mp_cpu *cpus;
static struct plat_cpu_unused *unused; /* n_unused of them: disabled or unhealthy */
static unsigned int n_unused;

static void mp_forget(void)
{
	if (jobs)
		FreePool(jobs);
	if (cpus)
		FreePool(cpus);
	if (unused)
		FreePool(unused);
	jobs = NULL;
	cpus = NULL;
	unused = NULL;
	n_unused = 0;
	mp = NULL;
	mp_count = 0;
}

/* One processor's entry; false where it is not to be used (disabled: *off). */
static bool mp_entry(UINTN n, struct mp_cpu *c, bool *off)
{
	struct efi_processor_info info;

	memset(&info, 0, sizeof(info));
	memset(c, 0, sizeof(*c));
	c->mp = n;
	*off = false;
	if (EFI_ERROR(mp->get_processor_info(mp, n, &info)))
		return true; /* no word from the firmware: used, location unknown */
	c->has_loc = true;
	c->loc.package = info.package;
	c->loc.core = info.core;
	c->loc.thread = info.thread;
	*off = !(info.status_flag & PROCESSOR_ENABLED_BIT);
	return !*off && (info.status_flag & PROCESSOR_HEALTH_STATUS_BIT);
}

static void mp_lookup(void)
{
	UINTN enabled = 0, total = 0, n;
	struct mp_cpu c;
	bool off;

	if (mp_looked || efi_fw_refused("plat_cpu_count"))
		return;
	mp_looked = true;
	if (EFI_ERROR(uefi_call_wrapper(BS->LocateProtocol, 3, &mp_guid, NULL, (void **)&mp)))
		mp = NULL;
	if (!mp)
		return;
	if (EFI_ERROR(mp->get_number_of_processors(mp, &total, &enabled)) ||
	    EFI_ERROR(mp->who_am_i(mp, &mp_bsp)) || !total) {
		mp = NULL;
		return;
	}
	jobs = AllocateZeroPool(total * sizeof(*jobs));
	cpus = AllocateZeroPool(total * sizeof(*cpus));
	unused = AllocateZeroPool(total * sizeof(*unused));
	if (!jobs || !cpus || !unused) {
		mp_forget(); /* one CPU: the others cannot be tracked */
		return;
	}
	mp_entry(mp_bsp, &cpus[0], &off);
	mp_count = 1;
	for (n = 0; n < total; n++) {
		if (n == mp_bsp)
			continue;
		if (mp_entry(n, &c, &off)) {
			cpus[mp_count++] = c;
		} else {
			unused[n_unused].number = (unsigned int)n;
			unused[n_unused++].disabled = off;
		}
	}
	/* Each CPU's MSR trap IDT, here on the BSP before any AP starts (hw_real.h). */
	if (hw_real_trap_init((unsigned int)mp_count))
		mp_forget(); /* one CPU: the others cannot be tracked */
}

unsigned int plat_cpus_unused(struct plat_cpu_unused *out, unsigned int max)
{
	mp_lookup();
	for (unsigned int i = 0; i < n_unused && i < max; i++)
		out[i] = unused[i];
	return n_unused;
}

int plat_cpu_disable(unsigned int number, char *why, size_t why_size)
{
	EFI_STATUS st;
	char text[64];

	mp_lookup();
	if (!mp || efi_fw_refused("plat_cpu_disable")) {
		pp_snprintf(why, why_size, "no MP services: one CPU");
		return -1;
	}
	if (number == mp_bsp) {
		pp_snprintf(why, why_size, "processor %u is the boot processor", number);
		return -1;
	}
	for (UINTN i = 1; i < mp_count; i++)
		if (jobs[i].busy) {
			pp_snprintf(why, why_size, "a CPU was started already");
			return -1;
		}
	st = mp->enable_disable_ap(mp, number, FALSE, NULL);
	if (EFI_ERROR(st)) {
		pp_snprintf(why, why_size, "EnableDisableAP(%u) refused: %s", number,
			    plat_error_text(efi_err(st), text, sizeof(text)));
		return -1;
	}
	/* Read the firmware's numbers again: processor number stays, ours move. */
	mp_forget();
	mp_looked = false;
	mp_lookup();
	return 0;
}

unsigned int plat_cpu_count(void)
{
	mp_lookup();
	return mp ? (unsigned int)mp_count : 1;
}

bool plat_cpu_location(unsigned int cpu, struct plat_cpu_loc *loc)
{
	mp_lookup();
	if (!mp || cpu >= mp_count || !cpus[cpu].has_loc)
		return false;
	*loc = cpus[cpu].loc;
	return true;
}

/* Our cpu numbers 1..count-1 to the firmware's processor numbers. */
static UINTN mp_number(unsigned int cpu)
{
	return cpus[cpu].mp;
}

/*
 * The CPU number of each AP WhoAmI has named, by APIC ID, direct-mapped:
 * ((APIC ID + 1) << 32) | number, written in one store, 0 when empty.
 */
#define SELF_CACHE 1024
static volatile uint64_t self_cache[SELF_CACHE];

/*
 * The BSP is known by its APIC ID (CPUID, as efi_fw_refused() knows it), an
 * AP by the cache once WhoAmI has named it: the simulator asks on every
 * access it models, and WhoAmI reads the local APIC, an MMIO exit to the
 * device model under QEMU's TCG (docs/PERFORMANCE.md).
 */
unsigned int plat_cpu_self(void)
{
	uint32_t id = 0;
	unsigned int cpu;
	UINTN n;

	if (guard_on) {
		uint64_t e;

		id = hw_real_apic_id();
		if (id == bsp_apic_id)
			return 0;
		e = self_cache[id % SELF_CACHE];
		if (e >> 32 == (uint64_t)id + 1)
			return (unsigned int)e;
	}
	mp_lookup();
	if (!mp || EFI_ERROR(mp->who_am_i(mp, &n)) || n == mp_bsp)
		return 0;
	/* The inverse of mp_number(). */
	for (cpu = 1; cpu < mp_count && cpus[cpu].mp != n; cpu++)
		;
	if (cpu >= mp_count)
		return 0;
	if (guard_on)
		self_cache[id % SELF_CACHE] = ((uint64_t)id + 1) << 32 | cpu;
	return cpu;
}

/* No firmware call, no interrupt: the AP stays in HLT (SDM Vol. 2A HLT) until reset. */
void plat_park(void)
{
	for (;;)
		__asm__ volatile("cli; hlt" ::: "memory");
}

void plat_cpu_relax(unsigned int spins)
{
	(void)spins;
	__asm__ volatile("pause" ::: "memory");
}

static VOID EFIAPI ap_entry(VOID *p)
{
	struct ap_job *j = p;

	j->fn(j->arg);
	__atomic_store_n(&j->returned, true, __ATOMIC_RELEASE);
}

static VOID EFIAPI ap_done(EFI_EVENT ev, VOID *p)
{
	(void)ev;
	((struct ap_job *)p)->done = true;
}

int plat_start_on_cpu(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	struct ap_job *j;

	mp_lookup();
	if (!mp || cpu == 0 || cpu >= mp_count || efi_fw_refused("plat_start_on_cpu"))
		return -1;
	j = &jobs[cpu];
	if (j->busy) {
		/*
		 * The last work's event never came (plat_wait_cpu gave up), seen
		 * under a loaded TCG host: once that work has come back on the AP,
		 * MP services are the judge of whether the AP is idle (StartupThisAP
		 * says EFI_NOT_READY until they are).  Closing the event also drops
		 * a notification still queued for it (UEFI spec 7.1 CloseEvent).
		 */
		if (!j->done && !__atomic_load_n(&j->returned, __ATOMIC_ACQUIRE))
			return -1; /* still running */
		uefi_call_wrapper(BS->CloseEvent, 1, j->done_event);
		j->busy = false;
	}
	j->fn = fn;
	j->arg = arg;
	j->done = false;
	j->returned = false;
	if (EFI_ERROR(uefi_call_wrapper(BS->CreateEvent, 5, EVT_NOTIFY_SIGNAL, TPL_CALLBACK,
					ap_done, j, &j->done_event)))
		return -1;
	/*
	 * Non-blocking: the event is signalled when the AP returns.  An AP
	 * that has just returned can be reported busy (EFI_NOT_READY, PI spec
	 * Vol. 2 13.4 StartupThisAP) until the MP driver's timer has seen it
	 * idle (its timer looks every 100 ms; later on a loaded host): try
	 * again for up to 30 seconds.
	 */
	for (int tries = 0;; tries++) {
		EFI_STATUS st =
		    mp->startup_this_ap(mp, ap_entry, mp_number(cpu), j->done_event, 0, j, NULL);

		if (!EFI_ERROR(st))
			break;
		if (st != EFI_NOT_READY || tries >= 30000) {
			uefi_call_wrapper(BS->CloseEvent, 1, j->done_event);
			return -1;
		}
		uefi_call_wrapper(BS->Stall, 1, 1000);
	}
	j->busy = true;
	return 0;
}

int plat_wait_cpu(unsigned int cpu, uint64_t timeout_us)
{
	struct ap_job *j;
	uint64_t waited = 0;

	if (!mp || cpu == 0 || cpu >= mp_count || !jobs[cpu].busy ||
	    efi_fw_refused("plat_wait_cpu"))
		return -1;
	j = &jobs[cpu];
	while (!j->done && (!timeout_us || waited < timeout_us)) {
		uefi_call_wrapper(BS->Stall, 1, 10);
		waited += 10;
	}
	if (!j->done)
		return -1; /* still running: the slot stays busy */
	uefi_call_wrapper(BS->CloseEvent, 1, j->done_event);
	j->busy = false;
	return 0;
}
