// SPDX-License-Identifier: MIT
/*
 * decode.c - PEBS records, legacy fmt0-3, adaptive fmt4-6 and architectural
 * PEBS, to struct pebs_record.  Layouts: legacy, SDM Vol. 3B Tables
 * 18-21/18-23/18-44/18-55 and Linux ds.c struct pebs_record_*; adaptive,
 * Linux asm/perf_event.h struct pebs_basic and ds.c
 * setup_pebs_adaptive_sample_data; arch-PEBS, Linux d21954c8a0ff
 * "perf/x86/intel: Process arch-PEBS records or record fragments".  Validation follows
 * kvm-unit-tests x86/pmu_pebs.c check_pebs_records().
 *
 * Every read is bounds-checked against the record's own extent, which is
 * itself checked against the buffer first; nothing is read past buf[len).
 */
#include "decode.h"
#include "../lib/fmt.h"
#include "layout.h"

/* Arch-PEBS record header bits (Linux d21954c8a0ff: the record header's format word). */
#define AH_SIZE(h) ((h)&0xffff)
#define AH_CONT	   BIT_ULL(31)
#define AH_CNTR(h) (((h) >> 35) & 0x1f)
#define AH_LBR(h)  (((h) >> 40) & 3)
#define AH_XMM	   BIT_ULL(49)
#define AH_YMMH	   BIT_ULL(50)
#define AH_OPMASK  BIT_ULL(53)
#define AH_ZMMH	   BIT_ULL(54)
#define AH_H16ZMM  BIT_ULL(55)
#define AH_GPR	   BIT_ULL(61)
#define AH_AUX	   BIT_ULL(62)
#define AH_BASIC   BIT_ULL(63)

/* Legacy GPR order: AX BX CX DX SI DI BP SP, then R8..R15. */
static const uint8_t legacy_gpr[8] = {REG_RAX, REG_RBX, REG_RCX, REG_RDX,
				      REG_RSI, REG_RDI, REG_RBP, REG_RSP};
/* Adaptive / arch GPR group order: AX CX DX BX SP BP SI DI (ds.c pebs_gprs). */
static const uint8_t adaptive_gpr[8] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX,
					REG_RSP, REG_RBP, REG_RSI, REG_RDI};

size_t pebs_legacy_record_size(unsigned int fmt)
{
	static const size_t sizes[4] = {0x90, 0xb0, 0xc0, 0xc8};

	return fmt < 4 ? sizes[fmt] : 0;
}

/*
 * ds.c adaptive_pebs_record_size_update() (Linux e02e9b0374c3 "perf/x86/intel:
 * Support PEBS counters snapshotting"): the 16-byte header
 * when CNTR or METRICS is set, two values for METRICS, and one value per
 * GP (47:32) and fixed (55:48) mask bit only when CNTR itself is set.
 */
static size_t cntr_group_size(uint64_t cfg)
{
	size_t n = 0;

	if (cfg & CFG_CNTR)
		n = (size_t)popcount64((cfg >> 32) & 0xffff) +
		    (size_t)popcount64((cfg >> 48) & 0xff);
	return CNTR_HDR + ((cfg & CFG_METRICS) ? 16 : 0) + 8 * n;
}

size_t pebs_adaptive_record_size(uint64_t cfg)
{
	size_t sz = BASIC_SIZE;

	if (cfg & CFG_MEMINFO)
		sz += MEMINFO_SIZE;
	if (cfg & CFG_GP)
		sz += GP_SIZE;
	if (cfg & CFG_XMMS)
		sz += XMM_SIZE;
	if (cfg & CFG_LBRS)
		sz += (size_t)CFG_LBR_N(cfg) * LBR_ENTRY;
	if (cfg & (CFG_CNTR | CFG_METRICS))
		sz += cntr_group_size(cfg);
	return sz;
}

static enum pebs_step anomaly(struct pebs_anomaly *an, size_t offset, const char *fmt, ...)
    pp_printf(3, 4);

static enum pebs_step anomaly(struct pebs_anomaly *an, size_t offset, const char *fmt, ...)
{
	va_list ap;

	an->offset = offset;
	va_start(ap, fmt);
	pp_vsnprintf(an->what, sizeof(an->what), fmt, ap);
	va_end(ap);
	return PEBS_STEP_ANOMALY;
}

/* Clears what a previous record may have left; arrays are filled as counted. */
static void rec_reset(struct pebs_record *r, size_t offset)
{
	r->offset = offset;
	r->size = 0;
	r->have = 0;
	r->n_lbr = 0;
	r->n_counters = 0;
	r->tsx.cycles = 0;
	r->tsx.flags = 0;
	r->tsx.xabort = 0;
	r->tsx.has_xabort = false;
	r->format_field = 0;
	r->counters_gp_mask = r->counters_fixed_mask = r->counters_metrics = 0;
}

/* TSX tuning word (Linux ds.c union hsw_tsx_tuning; SDM 18.11.5.1): cycles 31:0, flags 39:32. */
static void set_tsx(struct pebs_record *r, uint64_t tuning)
{
	r->tsx.cycles = (uint32_t)tuning;
	r->tsx.flags = (uint32_t)((tuning >> 32) & 0xff);
	r->have |= HAVE_TSX;
}

/* XABORT imm8 from EAX[31:24] when an RTM abort was explicit (RAX bit 0). */
static void set_xabort(struct pebs_record *r)
{
	if ((r->have & HAVE_TSX) && (r->have & HAVE_REGS) && (r->tsx.flags & TSX_RTM) &&
	    (r->regs[REG_RAX] & 1)) {
		r->tsx.xabort = (uint8_t)(r->regs[REG_RAX] >> 24);
		r->tsx.has_xabort = true;
	}
}

/* The data source, or "not available" where the slot is reserved. */
static void set_mem(const struct pebs_decode_cfg *cfg, struct pebs_record *r)
{
	switch (layout_mem(cfg)) {
	case LAYOUT_MEM_NONE: /* no decoder given: the field cannot be read, so say nothing */
		return;
	case LAYOUT_MEM_NA:
		r->have |= HAVE_MEM_NA;
		return;
	case LAYOUT_MEM_VALUE:
		r->data_src = pebs_data_src(cfg->dsrc, cfg->kind, r->dse);
		r->have |= HAVE_MEM;
		return;
	}
}

/* Memory latency field: split on ADL/SPR and later (PMU_FL_INSTR_LATENCY). */
static void set_latency(struct pebs_record *r, uint64_t lat, bool split)
{
	if (split) {
		r->latency = layout_load_latency(lat, true);
		r->instr_latency = lat & 0xffff;
		r->have |= HAVE_LATENCY | HAVE_INSTR_LATENCY;
	} else {
		r->latency = lat;
		r->have |= HAVE_LATENCY;
	}
}

static void read_gprs(struct pebs_record *r, const uint8_t *p, const uint8_t order[8])
{
	for (unsigned int i = 0; i < 8; i++)
		r->regs[order[i]] = get_le64(p + 8 * i);
	for (unsigned int i = 0; i < 8; i++)
		r->regs[REG_R8 + i] = get_le64(p + 64 + 8 * i);
	r->have |= HAVE_REGS;
}

static enum pebs_step check_applicable(const struct pebs_decode_cfg *cfg,
				       const struct pebs_record *r, struct pebs_anomaly *an)
{
	/* never a previous record's value: rec_reset() leaves the field as it was */
	if (!cfg->pebs_enabled || !(r->have & HAVE_APPLICABLE))
		return PEBS_STEP_RECORD;
	if (!(r->applicable_counters & cfg->pebs_enabled))
		return anomaly(an, r->offset,
			       "applicable counters 0x%llx name no PEBS-enabled counter (0x%llx)",
			       (unsigned long long)r->applicable_counters,
			       (unsigned long long)cfg->pebs_enabled);
	if (r->applicable_counters & ~cfg->pebs_enabled)
		return anomaly(an, r->offset,
			       "applicable counters 0x%llx outside PEBS-enabled mask 0x%llx",
			       (unsigned long long)r->applicable_counters,
			       (unsigned long long)cfg->pebs_enabled);
	return PEBS_STEP_RECORD;
}

static enum pebs_step decode_legacy(const struct pebs_decode_cfg *cfg, const uint8_t *buf,
				    size_t len, size_t *offset, struct pebs_record *r,
				    struct pebs_anomaly *an)
{
	size_t sz = pebs_legacy_record_size(cfg->fmt);
	const uint8_t *p = buf + *offset;
	bool reserved = pebs_dsrc_reserved(cfg->dsrc);

	if (len - *offset < sz)
		return anomaly(an, *offset,
			       "truncated record: %zu bytes left, fmt%u record is %zu bytes",
			       len - *offset, cfg->fmt, sz);
	r->size = sz;
	r->regs[REG_RFLAGS] = get_le64(p + LEG_FLAGS);
	r->regs[REG_RIP] = get_le64(p + LEG_IP);
	read_gprs(r, p + LEG_AX, legacy_gpr);
	r->ip = r->regs[REG_RIP];
	r->have |= HAVE_IP;
	if (cfg->fmt >= 1) {
		r->applicable_counters = get_le64(p + LEG_STATUS);
		r->have |= HAVE_APPLICABLE;
		if (cfg->fmt < 3) {
			r->global_status = r->applicable_counters;
			r->have |= HAVE_GLOBAL_STATUS;
		}
		r->data_la = get_le64(p + LEG_DLA);
		r->have |= HAVE_DLA;
		if (!reserved) {
			r->dse = get_le64(p + LEG_DSE);
			r->have |= HAVE_DSE;
			/*
			 * 0xA0 holds a latency only for the load-latency event
			 * (SDM Vol. 3B 20.3.1.1.2 load latency facility; Linux
			 * ds.c setup_pebs_fixed_sample_data() reads the weight
			 * only for PEBS_LDLAT): a store's record has none.
			 */
			if (cfg->kind == KIND_LDLAT)
				set_latency(r, get_le64(p + LEG_LAT), false);
		}
		set_mem(cfg, r);
	}
	if (cfg->fmt >= 2) {
		r->ip = get_le64(p + LEG_EVENTING_IP);
		set_tsx(r, get_le64(p + LEG_TSX));
		set_xabort(r);
	}
	if (cfg->fmt >= 3) {
		r->tsc = get_le64(p + LEG_TSC);
		r->have |= HAVE_TSC;
	}
	*offset += sz;
	/* fmt1/2 0x90 is GLOBAL_STATUS (any counter); only fmt3 is checked. */
	if (cfg->fmt == 3)
		return check_applicable(cfg, r, an);
	return PEBS_STEP_RECORD;
}

enum pebs_race pebs_race_of(const struct pebs_decode_cfg *cfg, const struct pebs_record *r)
{
	uint64_t st, en = cfg->pebs_enable_msr;

	if (!(r->have & HAVE_GLOBAL_STATUS) || !cfg->pebs_enabled)
		return PEBS_RACE_NONE;
	st = r->global_status & cfg->pebs_enabled & GENMASK_ULL(31, 0);
	if (!st)
		return en && !(en & (en - 1)) ? PEBS_RACE_ZERO_SOLE : PEBS_RACE_ZERO_DROP;
	return st & (st - 1) ? PEBS_RACE_COLLISION : PEBS_RACE_NONE;
}

bool pebs_race_drops(enum pebs_race race)
{
	return race == PEBS_RACE_ZERO_DROP || race == PEBS_RACE_COLLISION;
}

/* Counter-snapshot group (fmt6 / arch): 16-byte header, then the values. */
static bool read_counters(struct pebs_record *r, const uint8_t *p, size_t avail, size_t *used)
{
	uint32_t gp, fixed, metrics;
	size_t n;

	if (avail < CNTR_HDR)
		return false;
	gp = get_le32(p);
	fixed = get_le32(p + 4);
	metrics = get_le32(p + 8);
	n = (size_t)popcount64(gp) + (size_t)popcount64(fixed) + (metrics == 3 ? 2 : 0);
	if ((avail - CNTR_HDR) / 8 < n)
		return false;
	r->counters_gp_mask = gp;
	r->counters_fixed_mask = fixed;
	r->counters_metrics = metrics;
	r->n_counters = n < PEBS_MAX_COUNTERS ? (unsigned int)n : PEBS_MAX_COUNTERS;
	for (unsigned int i = 0; i < r->n_counters; i++)
		r->counters[i] = get_le64(p + CNTR_HDR + 8 * i);
	r->have |= HAVE_COUNTERS;
	*used = CNTR_HDR + 8 * n;
	return true;
}

static void read_lbr(struct pebs_record *r, const uint8_t *p, size_t n)
{
	r->n_lbr = n < PEBS_MAX_LBR ? (unsigned int)n : PEBS_MAX_LBR;
	for (unsigned int i = 0; i < r->n_lbr; i++) {
		r->lbr[i].from = get_le64(p + LBR_ENTRY * i);
		r->lbr[i].to = get_le64(p + LBR_ENTRY * i + 8);
		r->lbr[i].info = get_le64(p + LBR_ENTRY * i + 16);
	}
	r->have |= HAVE_LBR;
}

/*
 * Walks the groups the record's own format field names, inside the extent
 * given by its size field.  Returns the bytes the groups take, or 0 when a
 * group would run past the size field (*why says which).
 */
static size_t adaptive_groups(const struct pebs_decode_cfg *cfg, struct pebs_record *r,
			      const uint8_t *p, size_t sz, uint64_t fmt, const char **why)
{
	size_t pos = BASIC_SIZE, used;

	if (fmt & CFG_MEMINFO) {
		*why = "meminfo";
		if (sz - pos < MEMINFO_SIZE)
			goto short_rec;
		r->data_la = get_le64(p + pos + MEMINFO_DLA);
		r->dse = get_le64(p + pos + MEMINFO_AUX);
		r->have |= HAVE_DLA | HAVE_DSE;
		set_latency(r, get_le64(p + pos + MEMINFO_LATENCY),
			    pebs_dsrc_instr_latency(cfg->dsrc));
		set_tsx(r, get_le64(p + pos + MEMINFO_TSX));
		set_mem(cfg, r);
		pos += MEMINFO_SIZE;
	}
	if (fmt & CFG_GP) {
		*why = "GPR";
		if (sz - pos < GP_SIZE)
			goto short_rec;
		r->regs[REG_RFLAGS] = get_le64(p + pos);
		r->regs[REG_RIP] = get_le64(p + pos + 8);
		read_gprs(r, p + pos + 16, adaptive_gpr);
		pos += GP_SIZE;
	}
	if (fmt & CFG_XMMS) {
		*why = "XMM";
		if (sz - pos < XMM_SIZE)
			goto short_rec;
		r->have |= HAVE_XMM;
		pos += XMM_SIZE;
	}
	if (fmt & CFG_LBRS) {
		size_t n = CFG_LBR_N(fmt);

		*why = "LBR";
		if ((sz - pos) / LBR_ENTRY < n)
			goto short_rec;
		read_lbr(r, p + pos, n);
		pos += n * LBR_ENTRY;
	}
	if (cfg->fmt >= 6 && (fmt & (CFG_CNTR | CFG_METRICS))) {
		*why = "counter snapshot";
		if (!read_counters(r, p + pos, sz - pos, &used))
			goto short_rec;
		pos += used;
	}
	set_xabort(r);
	return pos;
short_rec:
	return 0;
}

static enum pebs_step decode_adaptive(const struct pebs_decode_cfg *cfg, const uint8_t *buf,
				      size_t len, size_t *offset, struct pebs_record *r,
				      struct pebs_anomaly *an)
{
	const uint8_t *p = buf + *offset;
	size_t left = len - *offset, sz, used;
	uint64_t w0, fmt, fmt_mask = pebs_basic_format_mask(cfg);
	const char *why = "basic";

	if (left < BASIC_SIZE)
		return anomaly(an, *offset,
			       "truncated record: %zu bytes left, basic group is %u bytes", left,
			       BASIC_SIZE);
	w0 = get_le64(p + BASIC_FORMAT_SIZE);
	sz = (size_t)(w0 >> 48);
	fmt = w0 & fmt_mask;
	if (sz == 0)
		return anomaly(an, *offset, "record size field is 0");
	if (sz < BASIC_SIZE)
		return anomaly(an, *offset,
			       "record size field 0x%zx is smaller than the basic group (0x20)",
			       sz);
	if (sz > left)
		return anomaly(an, *offset,
			       "record size field 0x%zx runs past the end (%zu bytes left)", sz,
			       left);
	r->size = sz;
	r->format_field = fmt;
	r->ip = get_le64(p + BASIC_IP);
	r->applicable_counters = get_le64(p + BASIC_APPLICABLE);
	r->tsc = get_le64(p + BASIC_TSC);
	r->have |= HAVE_IP | HAVE_APPLICABLE | HAVE_TSC;
	if (cfg->timed) {
		r->retire_latency = (w0 >> 32) & 0xffff;
		r->have |= HAVE_RETIRE_LATENCY;
	}
	*offset += sz; /* the size field is the hardware's own step */
	used = adaptive_groups(cfg, r, p, sz, fmt, &why);
	if (!used)
		return anomaly(an, r->offset,
			       "record size field 0x%zx too small for its %s group (format 0x%llx)",
			       sz, why, (unsigned long long)fmt);
	if (used != sz)
		return anomaly(an, r->offset,
			       "record size field 0x%zx but format 0x%llx implies 0x%zx", sz,
			       (unsigned long long)fmt, used);
	if (fmt != 0 && fmt != (cfg->data_cfg & fmt_mask))
		return anomaly(
		    an, r->offset, "format field 0x%llx is neither PEBS_DATA_CFG 0x%llx nor 0",
		    (unsigned long long)fmt, (unsigned long long)(cfg->data_cfg & fmt_mask));
	if (fmt != 0 && sz != pebs_adaptive_record_size(cfg->data_cfg))
		return anomaly(an, r->offset,
			       "record size field 0x%zx but PEBS_DATA_CFG 0x%llx configures 0x%zx",
			       sz, (unsigned long long)cfg->data_cfg,
			       pebs_adaptive_record_size(cfg->data_cfg));
	return check_applicable(cfg, r, an);
}

/* One arch-PEBS fragment's groups; returns bytes used or 0 (too short). */
static size_t arch_groups(const struct pebs_decode_cfg *cfg, struct pebs_record *r,
			  const uint8_t *p, size_t sz, uint64_t h, const char **why)
{
	size_t pos = ARCH_HDR, used;

	if (h & AH_BASIC) {
		uint64_t rl;

		*why = "basic";
		if (sz - pos < ARCH_BASIC)
			return 0;
		r->ip = get_le64(p + pos);
		r->applicable_counters = get_le64(p + pos + 8);
		r->tsc = get_le64(p + pos + 16);
		rl = get_le64(p + pos + 24);
		r->have |= HAVE_IP | HAVE_APPLICABLE | HAVE_TSC;
		if (rl & BIT_ULL(16)) {
			r->retire_latency = rl & 0xffff;
			r->have |= HAVE_RETIRE_LATENCY;
		}
		pos += ARCH_BASIC;
	}
	if (h & AH_AUX) {
		*why = "aux";
		if (sz - pos < ARCH_AUX)
			return 0;
		r->data_la = get_le64(p + pos);
		r->dse = get_le64(p + pos + 0x28);
		r->have |= HAVE_DLA | HAVE_DSE;
		set_latency(r, get_le64(p + pos + 0x30), true);
		set_tsx(r, get_le64(p + pos + 0x38));
		r->tsx.xabort = 0;
		r->tsx.has_xabort = false;
		set_mem(cfg, r);
		pos += ARCH_AUX;
	}
	if (h & AH_GPR) {
		*why = "gpr";
		if (sz - pos < ARCH_GPR)
			return 0;
		r->regs[REG_RFLAGS] = get_le64(p + pos);
		r->regs[REG_RIP] = get_le64(p + pos + 8);
		read_gprs(r, p + pos + 16, adaptive_gpr);
		/* struct arch_pebs_gprs: ssp after r15 (read by Linux's arch-PEBS SSP patch) */
		r->ssp = get_le64(p + pos + 0x90);
		r->have |= HAVE_SSP;
		pos += ARCH_GPR;
	}
	if (h & (AH_XMM | AH_YMMH | AH_OPMASK | AH_ZMMH | AH_H16ZMM)) {
		size_t v = ARCH_VEC_HDR;

		*why = "vector";
		v += (h & AH_XMM) ? 0x100 : 0;
		v += (h & AH_YMMH) ? 0x100 : 0;
		v += (h & AH_OPMASK) ? 0x40 : 0;
		v += (h & AH_ZMMH) ? 0x200 : 0;
		v += (h & AH_H16ZMM) ? 0x400 : 0;
		if (sz - pos < v)
			return 0;
		if (h & AH_XMM)
			r->have |= HAVE_XMM;
		pos += v;
	}
	if (AH_LBR(h)) {
		uint64_t n;

		*why = "lbr";
		if (sz - pos < ARCH_LBR_HDR)
			return 0;
		n = AH_LBR(h) == 3 ? get_le64(p + pos + 0x10) : AH_LBR(h) * 8ULL;
		if ((sz - pos - ARCH_LBR_HDR) / LBR_ENTRY < n)
			return 0;
		read_lbr(r, p + pos + ARCH_LBR_HDR, (size_t)n);
		pos += ARCH_LBR_HDR + (size_t)n * LBR_ENTRY;
	}
	if (AH_CNTR(h)) {
		*why = "counter";
		if (!read_counters(r, p + pos, sz - pos, &used))
			return 0;
		pos += used;
	}
	/*
	 * Linux setup_arch_pebs_sample_data() reads the XABORT code when it
	 * processes a fragment's aux group, after that fragment's GPR group:
	 * AX from this fragment or an earlier one, never from a later one.
	 */
	if (h & AH_AUX)
		set_xabort(r);
	return pos;
}

/*
 * A record is one fragment, or several while CONT is set or the header is a
 * null one (bits 63:16 zero); the basic group must be in the first.
 */
static enum pebs_step decode_arch(const struct pebs_decode_cfg *cfg, const uint8_t *buf, size_t len,
				  size_t *offset, struct pebs_record *r, struct pebs_anomaly *an)
{
	size_t pos = *offset;
	bool first = true, more;

	do {
		const uint8_t *p = buf + pos;
		size_t left = len - pos, sz, used;
		const char *why = "header";
		uint64_t h;

		if (left < ARCH_HDR)
			return anomaly(an, pos,
				       "truncated record: %zu bytes left, header is 16 bytes%s",
				       left, first ? "" : " (fragment continues past the end)");
		h = get_le64(p);
		sz = (size_t)AH_SIZE(h);
		if (sz == 0)
			return anomaly(an, pos, "record size field is 0");
		if (sz < ARCH_HDR)
			return anomaly(an, pos,
				       "record size field 0x%zx is smaller than the header (0x10)",
				       sz);
		if (sz > left)
			return anomaly(an, pos,
				       "record size field 0x%zx runs past the end (%zu bytes left)",
				       sz, left);
		if (first && (h >> 16) && !(h & AH_BASIC))
			return anomaly(an, pos, "first fragment has no basic group (header 0x%llx)",
				       (unsigned long long)h);
		if (first)
			r->format_field = h;
		used = arch_groups(cfg, r, p, sz, h, &why);
		if (!used)
			return anomaly(
			    an, pos, "size field 0x%zx too small for its %s group (header 0x%llx)",
			    sz, why, (unsigned long long)h);
		if (used != sz && (h >> 16))
			return anomaly(an, pos,
				       "record size field 0x%zx but header 0x%llx implies 0x%zx",
				       sz, (unsigned long long)h, used);
		pos += sz;
		more = (h & AH_CONT) || !(h >> 16);
		first = false;
	} while (more && pos < len);
	r->size = pos - *offset;
	*offset = pos;
	if (more)
		return anomaly(an, pos, "record continues past the end of the buffer");
	/* a null first fragment lets a basic-less fragment through above */
	if (!(r->have & HAVE_APPLICABLE))
		return anomaly(an, r->offset, "record has no basic group in any fragment");
	return check_applicable(cfg, r, an);
}

enum pebs_step pebs_decode_next(const struct pebs_decode_cfg *cfg, const uint8_t *buf, size_t len,
				size_t *offset, struct pebs_record *rec, struct pebs_anomaly *an)
{
	if (!buf || *offset >= len)
		return PEBS_STEP_END;
	rec_reset(rec, *offset);
	if (cfg->fmt <= 3)
		return decode_legacy(cfg, buf, len, offset, rec, an);
	if (cfg->fmt <= 6)
		return decode_adaptive(cfg, buf, len, offset, rec, an);
	if (cfg->fmt == PEBS_FMT_ARCH)
		return decode_arch(cfg, buf, len, offset, rec, an);
	return anomaly(an, *offset, "unknown record format %u (accepted: 0-6, arch)", cfg->fmt);
}
