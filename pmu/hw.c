// SPDX-License-Identifier: MIT
/*
 * hw.c - dispatch to the installed backend, MSR trace, fault injection.
 */
#include "hw.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

static const struct hw_ops *hw_ops;
static bool msr_trace;
static unsigned long msr_accesses;
static unsigned long inject_at;

const struct hw_ops *hw_install(const struct hw_ops *ops)
{
	const struct hw_ops *old = hw_ops;

	hw_ops = ops;
	return old;
}

const struct hw_ops *hw_current(void)
{
	return hw_ops;
}

bool hw_is_simulated(void)
{
	return hw_ops && hw_ops->simulated;
}

void hw_set_msr_trace(bool on)
{
	msr_trace = on;
}

void hw_inject_fault_at(unsigned long n)
{
	inject_at = n ? msr_accesses + n : 0;
}

unsigned long hw_msr_access_count(void)
{
	return msr_accesses;
}

void hw_reset_msr_access_count(void)
{
	msr_accesses = 0;
	inject_at = 0;
}

static bool injected_fault(void)
{
	msr_accesses++;
	if (inject_at && msr_accesses == inject_at) {
		inject_at = 0;
		return true;
	}
	return false;
}

void hw_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	hw_ops->cpuid(leaf, subleaf, r);
}

/*
 * "MSR: rdmsr 0x1a0 0x850089", "MSR: wrmsr 0x38f 0x1 #GP": built without a
 * variadic call, whose register save area would cost 176 bytes of an AP's
 * 4 KiB stack twice over (here and in a PMI; docs/ARCHITECTURE.md, "Stacks").
 */
static void trace_msr(const char *op, uint32_t msr, bool has_val, uint64_t val, bool gp)
{
	char line[64];
	struct strbuf sb;

	strbuf_init(&sb, line, sizeof(line));
	strbuf_puts(&sb, op);
	strbuf_puts(&sb, " ");
	strbuf_put_hex(&sb, msr);
	if (has_val) {
		strbuf_puts(&sb, " ");
		strbuf_put_hex(&sb, val);
	}
	if (gp)
		strbuf_puts(&sb, " #GP");
	report_text(line);
}

enum hw_fault hw_rdmsr(uint32_t msr, uint64_t *val)
{
	enum hw_fault f;

	*val = 0;
	f = injected_fault() ? HW_GP : hw_ops->rdmsr(msr, val);
	if (f != HW_OK)
		*val = 0;
	if (msr_trace)
		trace_msr("MSR: rdmsr", msr, f == HW_OK, *val, f != HW_OK);
	return f;
}

enum hw_fault hw_wrmsr(uint32_t msr, uint64_t val)
{
	enum hw_fault f = injected_fault() ? HW_GP : hw_ops->wrmsr(msr, val);

	if (msr_trace)
		trace_msr("MSR: wrmsr", msr, true, val, f != HW_OK);
	return f;
}

uint64_t hw_rdtsc(void)
{
	return hw_ops->rdtsc();
}

uint32_t hw_apic_read(uint32_t reg)
{
	return hw_ops->apic_read ? hw_ops->apic_read(reg) : 0;
}

void hw_apic_write(uint32_t reg, uint32_t val)
{
	if (hw_ops->apic_write)
		hw_ops->apic_write(reg, val);
}

void hw_irq_window(void)
{
	if (hw_ops->irq_window)
		hw_ops->irq_window();
}

int hw_set_pmi_handler(uint8_t vector, hw_pmi_fn fn, void *ctx)
{
	return hw_ops->set_pmi_handler ? hw_ops->set_pmi_handler(vector, fn, ctx) : -1;
}

bool hw_has_paging(void)
{
	return hw_ops && hw_ops->read_cr3 && hw_ops->write_cr3 && hw_ops->read_cr4;
}

uint64_t hw_read_cr3(void)
{
	return hw_has_paging() ? hw_ops->read_cr3() : 0;
}

void hw_write_cr3(uint64_t cr3)
{
	uint64_t was;

	if (!hw_has_paging())
		return;
	was = hw_ops->read_cr3();
	hw_ops->write_cr3(cr3);
	if (msr_trace)
		report_line("MSR: wrcr3 0x%llx (was 0x%llx)", (unsigned long long)cr3,
			    (unsigned long long)was);
}

uint64_t hw_read_cr4(void)
{
	return hw_has_paging() ? hw_ops->read_cr4() : 0;
}

uint64_t hw_fw_cr3(void)
{
	return hw_has_paging() && hw_ops->fw_cr3 ? hw_ops->fw_cr3() : 0;
}

void hw_fw_map(uint64_t addr, uint64_t len)
{
	if (hw_ops && hw_ops->fw_map)
		hw_ops->fw_map(addr, len);
}
