// SPDX-License-Identifier: MIT
/*
 * ds.c - DS save area and PEBS buffer memory: allocation, the DS fields,
 * reset slots, and the walk over what the hardware wrote.  Facts: SDM
 * Vol. 3B 18.4.4 / Fig. 18-26; Linux arch/x86/include/asm/intel_ds.h
 * struct debug_store and arch/x86/events/intel/ds.c (the drains); the
 * arch-PEBS buffer from Linux d21954c8a0ff.
 */
#include "ds.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"

static void *(*page_alloc)(size_t npages) = plat_alloc_pages;
static void (*page_free)(void *p, size_t npages) = plat_free_pages;

void ds_set_page_allocator(void *(*alloc_pages)(size_t npages),
			   void (*free_pages)(void *p, size_t npages))
{
	page_alloc = alloc_pages ? alloc_pages : plat_alloc_pages;
	page_free = free_pages ? free_pages : plat_free_pages;
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

uint64_t ds_get(const struct ds_area *d, unsigned int off)
{
	return get_le64(d->ds + off);
}

void ds_free(struct ds_area *d)
{
	if (d->ds)
		page_free(d->ds, 1);
	if (d->buf)
		page_free(d->buf, d->buf_pages);
	memset(d, 0, sizeof(*d));
}

/* IA32_PEBS_BASE[3:0]: buffer = 4 KiB << SIZE (Linux arch-PEBS, d21954c8a0ff). */
static unsigned int arch_size_code(size_t pages)
{
	unsigned int code = 0;

	while ((2u << code) <= pages && code < 15)
		code++;
	return code;
}

static size_t buf_pages(size_t buf_bytes)
{
	size_t pages = (buf_bytes + PAGE_SIZE_4K - 1) / PAGE_SIZE_4K;

	return pages ? pages : 1;
}

size_t ds_buf_size(size_t buf_bytes, bool arch)
{
	size_t pages = buf_pages(buf_bytes);

	return (arch ? (size_t)1 << arch_size_code(pages) : pages) * PAGE_SIZE_4K;
}

int ds_alloc(struct ds_area *d, size_t buf_bytes, bool arch, char *why, size_t why_size)
{
	size_t pages = buf_pages(buf_bytes);
	char reason[128];

	memset(d, 0, sizeof(*d));
	d->arch = arch;
	if (arch) {
		d->arch_size_code = arch_size_code(pages);
		pages = (size_t)1 << d->arch_size_code;
	} else {
		d->ds = page_alloc(1);
		if (!d->ds)
			goto nomem;
	}
	d->buf = page_alloc(pages);
	if (!d->buf)
		goto nomem;
	d->buf_pages = pages;
	d->buf_size = pages * PAGE_SIZE_4K;
	/*
	 * The assist writes with no fault handling: the memory must be mapped
	 * (pmu-tools simple-pebs README: its buffers crash the machine when
	 * KPTI unmaps them).
	 */
	if (d->ds && !plat_check_mapping((uintptr_t)d->ds, PAGE_SIZE_4K, reason, sizeof(reason))) {
		pp_snprintf(why, why_size, "DS save area at 0x%llx: %s",
			    (unsigned long long)(uintptr_t)d->ds, reason);
		ds_free(d);
		return -1;
	}
	if (!plat_check_mapping((uintptr_t)d->buf, d->buf_size, reason, sizeof(reason))) {
		pp_snprintf(why, why_size, "PEBS buffer at 0x%llx (%zu bytes): %s",
			    (unsigned long long)(uintptr_t)d->buf, d->buf_size, reason);
		ds_free(d);
		return -1;
	}
	return 0;
nomem:
	pp_snprintf(why, why_size, "no memory for the DS area and a %zu-page PEBS buffer", pages);
	ds_free(d);
	return -1;
}

size_t ds_setup(struct ds_area *d, size_t rec_size, size_t threshold_records)
{
	uint64_t base = (uintptr_t)d->buf;
	size_t n = d->buf_size / rec_size;
	uint64_t thr;

	d->rec_size = rec_size;
	/* Whole records only (Linux: base + rec_size * (bsiz / rec_size)). */
	d->abs_max = base + (uint64_t)rec_size * n;
	if (threshold_records > n)
		threshold_records = n;
	/*
	 * Polling: one record past the absolute maximum, never reached, yet
	 * base + a multiple of the record size as the SDM requires of the
	 * threshold (DS save area, Vol. 3B 18.4.4).
	 */
	thr = threshold_records ? base + (uint64_t)rec_size * threshold_records
				: d->abs_max + rec_size;
	put64(d->ds + DS_PEBS_BASE, base);
	put64(d->ds + DS_PEBS_INDEX, base);
	put64(d->ds + DS_PEBS_ABS_MAX, d->abs_max);
	put64(d->ds + DS_PEBS_THRESHOLD, thr);
	return n;
}

unsigned int ds_fixed_reset_index(unsigned int fmt, unsigned int i)
{
	/*
	 * Linux ds.c intel_pmu_pebs_enable: MAX_PEBS_EVENTS_FMT4 (8) + i before
	 * format 5, MAX_PEBS_EVENTS (32) + i from it (asm/intel_ds.h; Linux
	 * "perf/x86/intel: Enable PEBS format 5", 2022).
	 */
	return (fmt <= 4 ? 8 : 32) + i;
}

void ds_set_reset(struct ds_area *d, unsigned int slot, uint64_t value)
{
	if (slot < DS_RESET_SLOTS)
		put64(d->ds + DS_PEBS_RESET + 8 * slot, value);
}

uint64_t ds_arch_base_msr(const struct ds_area *d)
{
	/* Physical == linear: UEFI page tables identity-map (docs/PROGRAMMING.md, "Memory"). */
	return (uint64_t)(uintptr_t)d->buf | d->arch_size_code;
}

uint64_t ds_arch_index_msr(const struct ds_area *d, size_t threshold_bytes)
{
	uint64_t thresh = threshold_bytes >> 4, most = d->buf_size >> 4;

	/* Within the buffer: Linux only ever writes 1 or a page short of the end. */
	if (thresh < 1)
		thresh = 1;
	if (thresh > most)
		thresh = most;
	return ARCH_PEBS_INDEX_EN | ARCH_PEBS_INDEX_THRESH(thresh);
}

static size_t adaptive_size(const uint8_t *p)
{
	return (size_t)(get_le64(p) >> 48); /* basic group format_size[63:48] */
}

void ds_drain(struct ds_area *d, bool adaptive, struct ds_drained *out)
{
	uint64_t base = (uintptr_t)d->buf;
	uint64_t top = ds_get(d, DS_PEBS_INDEX);
	size_t at = 0, len, sz;

	memset(out, 0, sizeof(*out));
	/* Reset the write pointer first (Linux intel_pmu_drain_pebs_*). */
	put64(d->ds + DS_PEBS_INDEX, base);
	out->start = d->buf;
	if (top <= base)
		return;
	if (top > base + d->buf_size) {
		out->malformed = true;
		top = base + d->buf_size;
	}
	out->full = top >= d->abs_max;
	len = (size_t)(top - base);
	while (at < len) {
		sz = adaptive ? adaptive_size(d->buf + at) : d->rec_size;
		if (!sz || at + sz > len) {
			out->malformed = true;
			break;
		}
		at += sz;
		out->n_records++;
	}
	out->len = at;
}

void ds_drain_arch(struct ds_area *d, uint64_t index_msr, struct ds_drained *out)
{
	size_t top = (size_t)((index_msr & ARCH_PEBS_INDEX_WR_MASK) >> ARCH_PEBS_INDEX_WR_SHIFT)
		     << 4;
	size_t at = 0, sz;
	uint64_t hdr;

	memset(out, 0, sizeof(*out));
	out->start = d->buf;
	out->full = index_msr & ARCH_PEBS_INDEX_FULL;
	if (top > d->buf_size) {
		out->malformed = true;
		top = d->buf_size;
	}
	while (at + 16 <= top) {
		hdr = get_le64(d->buf + at);
		sz = hdr & 0xffff;
		if (!sz || at + sz > top) {
			out->malformed = true;
			break;
		}
		/* A record's first fragment carries the basic group (bit 63). */
		if (hdr & BIT_ULL(63))
			out->n_records++;
		at += sz;
	}
	out->len = at;
}
