// SPDX-License-Identifier: MIT
/*
 * cpuid.c - the CPUID leaves of the selected model (SDM Vol. 2A, CPUID).
 *
 * The leaves pmu/cpu.c reads are all here and agree with the MSR file: leaf
 * 0 (max leaf, vendor), 1 (signature, DS/DTES64/PDCM), 7 (hybrid; sub-leaf 1
 * EAX[8] ArchPerfmonExt), 0AH (the
 * architectural PMU), 15H/16H (TSC), 1AH (core type), 23H (arch-PEBS),
 * 80000000H-80000004H (brand string, which says the part is simulated).
 * The hypervisor bit (1:ECX[31]) is clear on a real part, so leaf 40000000H
 * is above the maximum and answers like any such leaf; a guest's row
 * (sim/kvm.c) sets it and answers leaf 40000000H with its signature.
 */
#include "sim_int.h"

static void put_str(uint32_t *regs, const char *s, size_t len)
{
	char buf[16] = {0};
	size_t n = strlen(s);

	memcpy(buf, s, n < len ? n : len);
	memcpy(regs, buf, len);
}

static void vendor_leaf(const struct sim_model *m, struct cpuid_regs *r)
{
	/* The vendor string is EBX, EDX, ECX in that order. */
	const char *v = m->vendor == SIM_AMD ? "AuthenticAMD" : "GenuineIntel";

	r->eax = m->max_leaf;
	put_str(&r->ebx, v, 4);
	put_str(&r->edx, v + 4, 4);
	put_str(&r->ecx, v + 8, 4);
}

static void brand_leaf(const struct sim_model *m, uint32_t part, struct cpuid_regs *r)
{
	char buf[48] = {0};
	size_t n = strlen(m->brand);

	memcpy(buf, m->brand, n < 47 ? n : 47);
	memcpy(r, buf + 16 * part, 16);
}

static void ext_leaf(const struct sim_model *m, uint32_t leaf, struct cpuid_regs *r)
{
	switch (leaf) {
	case 0x80000000:
		r->eax = m->max_ext;
		break;
	case 0x80000001:
		/* LAHF (ECX 0), SYSCALL (EDX 11), NX (20), 1 GiB pages (26), RDTSCP (27), LM (29)
		 */
		r->ecx = 1;
		r->edx = (1u << 11) | (1u << 20) | (1u << 26) | (1u << 27) | (1u << 29);
		break;
	case 0x80000002:
	case 0x80000003:
	case 0x80000004:
		brand_leaf(m, leaf - 0x80000002, r);
		break;
	case 0x80000008:
		/* MAXPHYADDR [7:0], 48-bit linear addresses [15:8] */
		r->eax = 0x3000 | (m->phys_bits ? m->phys_bits : 39);
		break;
	default:
		break;
	}
}

/* Bits 0..n-1 of a 32-bit register; n is an 8-bit CPUID field, so up to 255. */
static uint32_t low_bits(uint32_t n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

static void arch_pebs_leaf(const struct sim_model *m, uint32_t sub, struct cpuid_regs *r)
{
	uint32_t ngp = (m->ca[0] >> 8) & 0xff, ecx, count;

	sim_fixed_enum(m, &ecx, &count);

	switch (sub) {
	case 0:
		/*
		 * EAX: the sub-leaves there are, bit 0 this one, 1 counters, 3
		 * events, 4 PEBS caps, 5 PEBS counters; ACR's 2 only with
		 * sim-acr= (sim/acr.c: no public source gives a part's masks).
		 * EBX: UMASK2 / EQ, per row (SDM Vol. 2A CPUID leaf 23H; Linux
		 * core.c update_pmu_cap).
		 */
		r->eax = (1u << 0) | (1u << 1) | (1u << 3);
		if (sim_acr_enumerated(m))
			r->eax |= 1u << 2;
		if (m->flags & F_ARCH_PEBS)
			r->eax |= (1u << 4) | (1u << 5);
		r->ebx = m->c23_ext;
		break;
	case 1:
		r->eax = low_bits(ngp);
		/* the fixed counters that exist, as leaf 0AH enumerates them */
		r->ebx = sim_fixed_present(m->ca[0] & 0xff, ecx, count);
		break;
	case 2:
		sim_acr_leaf(m, r);
		break;
	case 3:
		/* the architectural events leaf 0AH enumerates: EAX[31:24] long, EBX set = absent
		 */
		r->eax = ~m->ca[1] & low_bits(m->ca[0] >> 24) & 0xfff;
		break;
	case 4:
		r->ebx = m->flags & F_ARCH_PEBS ? m->c23_caps : 0;
		break;
	case 5:
		if (!(m->flags & F_ARCH_PEBS))
			break;
		r->eax = m->c23_gp;
		r->ecx = m->c23_fx;
		r->ebx = m->c23_gp & m->c23_pdist_gp;
		r->edx = m->c23_fx & m->c23_pdist_fx;
		break;
	default:
		break;
	}
}

/*
 * CPUID.0AH as the part reports it: the counters ca_unnamed_* says
 * silicon leaves out are taken off the top of the counts and of ECX's
 * bitmap; with no fixed counter named, EDX names no width either.
 */
static void leaf_0a(const struct sim_model *m, struct cpuid_regs *r)
{
	uint32_t ecx, count, ngp = (m->ca[0] >> 8) & 0xff, width = sim_fixed_width(m);

	sim_fixed_enum(m, &ecx, &count);
	ngp -= ngp < m->ca_unnamed_gp ? ngp : m->ca_unnamed_gp;
	count -= count < m->ca_unnamed_fixed ? count : m->ca_unnamed_fixed;
	if (m->ca_unnamed_fixed) {
		ecx &= low_bits(count);
		if (!count && !ecx)
			width = 0;
	}
	r->eax = (m->ca[0] & ~0xff00u) | ngp << 8;
	r->ebx = m->ca[1];
	r->ecx = ecx;
	r->edx = (m->ca[3] & ~0x1fe0u & ~0x1fu) | width << 5 | count;
}

static void basic_leaf(const struct sim_model *m, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	switch (leaf) {
	case 0:
		vendor_leaf(m, r);
		break;
	case 1:
		r->eax = sim_signature(m);
		r->ebx = m->c1_ebx;
		/* "running under a hypervisor" only on a guest's row */
		r->ecx = m->hv_sig ? m->c1_ecx | 1u << 31 : m->c1_ecx & ~(1u << 31);
		r->edx = m->c1_edx;
		break;
	case 7:
		if (sub == 0) {
			r->eax = 1; /* highest sub-leaf */
			r->ebx = m->c7_ebx;
			r->ecx = m->c7_ecx;
			r->edx = m->c7_edx;
		} else if (sub == 1) {
			r->eax = m->c71_eax;
		}
		break;
	case 0xa:
		if (m->vendor == SIM_INTEL)
			leaf_0a(m, r);
		break;
	case 0x15:
		r->eax = m->c15[0];
		r->ebx = m->c15[1];
		r->ecx = m->c15[2];
		break;
	case 0x16:
		r->eax = m->c16_mhz;
		r->ebx = m->c16_mhz;
		r->ecx = 100;
		break;
	case 0x1a:
		r->eax = m->c1a_eax;
		break;
	case 0x23:
		if (m->c71_eax & (1u << 8)) /* ArchPerfmonExt */
			arch_pebs_leaf(m, sub, r);
		break;
	default:
		break;
	}
}

void sim_cpuid_leaf(const struct sim_model *m, uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	memset(r, 0, sizeof(*r));
	if (leaf >= 0x80000000) {
		if (leaf <= m->max_ext)
			ext_leaf(m, leaf, r);
		else if (m->vendor == SIM_INTEL)
			basic_leaf(m, m->max_leaf, sub, r);
		return;
	}
	/*
	 * The hypervisor's leaves (Linux kvm_para.h, KVM_CPUID_SIGNATURE): EAX
	 * the highest of them (KVM_CPUID_FEATURES, 40000001H), EBX:ECX:EDX the
	 * signature.  40000001H's feature bits are not modelled (0).
	 */
	if (m->hv_sig && (leaf & 0xffffff00u) == 0x40000000u) {
		if (leaf == 0x40000000u) {
			r->eax = 0x40000001u;
			memcpy(&r->ebx, m->hv_sig, 4);
			memcpy(&r->ecx, m->hv_sig + 4, 4);
			memcpy(&r->edx, m->hv_sig + 8, 4);
		}
		return;
	}
	/*
	 * SDM Vol. 2A CPUID: on Intel, a leaf above the maximum returns the
	 * data of the highest basic leaf; AMD returns zeros.
	 */
	if (leaf > m->max_leaf) {
		if (m->vendor == SIM_INTEL)
			basic_leaf(m, m->max_leaf, sub, r);
		return;
	}
	basic_leaf(m, leaf, sub, r);
}
