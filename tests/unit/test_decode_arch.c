// SPDX-License-Identifier: MIT
/*
 * test_decode_arch.c - arch-PEBS records built byte by byte (Linux
 * struct arch_pebs_header, _basic, _aux, _gprs, _xer_header, _lbr_header,
 * _cntr_header; d21954c8a0ff): records over fragments, the anomalies with
 * their offsets, counts chosen to defeat size arithmetic, the XABORT
 * fragment rule and every group over three fragments (test_decode_util.h
 * decodes each from a heap block of exactly its length).
 */
#include "test_decode_util.h"

/* Arch-PEBS header: size, groups, cont. */
static uint64_t ahdr(size_t size, uint64_t bits)
{
	return (uint64_t)size | bits;
}

#define A_BASIC	  (1ULL << 63)
#define A_AUX	  (1ULL << 62)
#define A_GPR	  (1ULL << 61)
#define A_XMM	  (1ULL << 49)
#define A_CONT	  (1ULL << 31)
#define A_LBR(n)  ((uint64_t)(n) << 40)
#define A_CNTR(n) ((uint64_t)(n) << 35)

static void test_arch(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = PEBS_FMT_ARCH,
				      .uarch = UARCH_LNC,
				      .dsrc = gen_dsrc(UARCH_LNC),
				      .kind = KIND_LDLAT,
				      .pebs_enabled = 0x1};
	size_t s1 = 0x10 + 0x30 + 0x40 + 0xa0, o;

	memset(img, 0, sizeof(img));
	/* record 1: one fragment, basic + aux + gpr */
	p64(0x00, ahdr(s1, A_BASIC | A_AUX | A_GPR));
	p64(0x10, 0x402000);		       /* ip */
	p64(0x18, 0x1);			       /* applicable */
	p64(0x20, 0x5555);		       /* tsc */
	p64(0x28, (1ULL << 16) | 123);	       /* retire latency, valid */
	p64(0x40, 0x7f00aa00);		       /* aux: address */
	p64(0x40 + 0x28, 0x11 | (1ULL << 10)); /* aux: local RAM, STLB miss */
	p64(0x40 + 0x30, (250ULL << 32) | 6);  /* cache 250, instr 6 */
	for (unsigned int i = 0; i < 20; i++)
		p64(0x80 + 8 * i, 0x3000 + i);
	o = s1;
	/* record 2: basic fragment with CONT, a null fragment, then aux + LBR(8) + XMM + counters
	 */
	p64(o, ahdr(0x40, A_BASIC | A_CONT));
	p64(o + 0x10, 0x403000);
	p64(o + 0x18, 0x1);
	o += 0x40;
	p64(o, ahdr(0x10, 0)); /* null: continued */
	o += 0x10;
	{
		size_t s3 = 0x10 + 0x40 + (0x10 + 0x100) + (0x30 + 8 * 0x18) + (0x10 + 8);
		size_t g = o + 0x10;

		p64(o, ahdr(s3, A_AUX | A_XMM | A_LBR(1) | A_CNTR(1)));
		p64(g + 0x28, 0x1);    /* aux: L1 hit */
		g += 0x40 + 0x110;     /* vector header + XMM */
		p64(g + 0x30, 0xaaa0); /* first LBR entry from */
		g += 0x30 + 8 * 0x18;
		p32(g, 0x1); /* counter group: PMC0 */
		p64(g + 0x10, 4242);
		o += s3;
	}
	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 2);
	assert_int_equal(recs[0].size, s1);
	assert_int_equal(recs[0].ip, 0x402000);
	assert_int_equal(recs[0].tsc, 0x5555);
	assert_int_equal(recs[0].retire_latency, 123);
	assert_true(recs[0].have & HAVE_RETIRE_LATENCY);
	assert_int_equal(recs[0].data_la, 0x7f00aa00);
	assert_int_equal(recs[0].latency, 250);
	assert_int_equal(recs[0].instr_latency, 6);
	/* LNC 0x11 local RAM + STLB miss + BLK NA */
	assert_int_equal(recs[0].data_src, 0x1A00101042ULL | 0x50000000ULL | 0x10000000000ULL);
	assert_int_equal(recs[0].regs[REG_RAX], 0x3002);
	assert_int_equal(recs[0].regs[REG_RBX], 0x3005);
	assert_int_equal(recs[0].regs[REG_R15], 0x3011);
	assert_int_equal(recs[1].offset, s1);
	assert_int_equal(recs[1].size, o - s1);
	assert_int_equal(recs[1].ip, 0x403000);
	assert_false(recs[1].have & HAVE_RETIRE_LATENCY);
	assert_int_equal(recs[1].n_lbr, 8);
	assert_int_equal(recs[1].lbr[0].from, 0xaaa0);
	assert_int_equal(recs[1].n_counters, 1);
	assert_int_equal(recs[1].counters[0], 4242);
	assert_true(recs[1].have & HAVE_XMM);

	/* the record's last fragment cut off: continues past the end */
	assert_int_equal(run(&cfg, s1 + 0x50), PEBS_STEP_ANOMALY);
	assert_int_equal(nrec, 1);
	assert_int_equal(an.offset, s1 + 0x50);

	/* a first fragment without the basic group */
	p64(s1, ahdr(0x40, A_AUX));
	assert_int_equal(run(&cfg, o), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, s1);

	/*
	 * a null fragment, then one without the basic group: no fragment of
	 * the record has it (Linux skips such fragments); must not pass as a
	 * record, nor be checked against a previous record's counters
	 */
	p64(s1, ahdr(0x10, 0));
	p64(s1 + 0x10, ahdr(0x50, A_AUX));
	cfg.pebs_enabled = 0;
	assert_int_equal(run(&cfg, s1 + 0x60), PEBS_STEP_ANOMALY);
	assert_int_equal(nrec, 1);
	assert_int_equal(an.offset, s1);
	assert_non_null(strstr(an.what, "basic"));
	cfg.pebs_enabled = 0x1;

	/* size 0 */
	p64(s1, 0);
	assert_int_equal(run(&cfg, o), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, s1);
	assert_non_null(strstr(an.what, "size field is 0"));
}

/*
 * Counts taken from the record itself, chosen to defeat size arithmetic:
 * - an arch LBR header (lbr == 3) whose depth is 1 << 61, so depth * 0x18
 *   wraps to 0 in 64 bits: must be "too small for its lbr group";
 * - a counter-group header naming every GP and fixed counter plus metrics
 *   (32 + 32 + 2 = 66 values, the most a header can describe): every value
 *   must be kept, and one byte less must be refused.
 */
static void test_arch_hostile_counts(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = PEBS_FMT_ARCH,
				      .uarch = UARCH_LNC,
				      .dsrc = gen_dsrc(UARCH_LNC),
				      .kind = KIND_OTHER};
	size_t s = 0x10 + 0x30 + 0x30, c;

	memset(img, 0, sizeof(img));
	p64(0x00, ahdr(s, A_BASIC | A_LBR(3)));
	p64(0x40 + 0x10, 1ULL << 61); /* LBR header: depth */
	assert_int_equal(run(&cfg, s), PEBS_STEP_ANOMALY);
	assert_int_equal(nrec, 0);
	assert_int_equal(an.offset, 0);
	assert_non_null(strstr(an.what, "lbr"));

	c = 0x10 + 0x30 + 0x10 + 66 * 8;
	memset(img, 0, sizeof(img));
	p64(0x00, ahdr(c, A_BASIC | A_CNTR(1)));
	p32(0x40, 0xffffffff);
	p32(0x44, 0xffffffff);
	p32(0x48, 3);
	for (unsigned int i = 0; i < 66; i++)
		p64(0x50 + 8 * i, 0x1000 + i);
	assert_int_equal(run(&cfg, c), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].n_counters, 66);
	assert_int_equal(recs[0].counters[65], 0x1000 + 65);
	p64(0x00, ahdr(c - 8, A_BASIC | A_CNTR(1)));
	assert_int_equal(run(&cfg, c - 8), PEBS_STEP_ANOMALY);
	assert_non_null(strstr(an.what, "counter"));
}

#define A_YMMH	 (1ULL << 50)
#define A_OPMASK (1ULL << 53)
#define A_ZMMH	 (1ULL << 54)
#define A_H16ZMM (1ULL << 55)

/* RTM abort (tuning bit 33) after 77 cycles; AX bit 0 set, XABORT code 0x5a in 31:24. */
#define RTM_TUNING (77ULL | (1ULL << 33))
#define RTM_AX	   0x5a000001ULL

/* Fragment layouts for the XABORT rule, each with its record size. */
static size_t frag_basic_aux(size_t o, uint64_t more)
{
	p64(o, ahdr(0x80, A_BASIC | A_AUX | more));
	p64(o + 0x10, 0x404000);
	p64(o + 0x40 + 0x38, RTM_TUNING);
	return o + 0x80;
}

static size_t frag_gpr(size_t o, uint64_t more, uint64_t ax)
{
	p64(o, ahdr(0xb0, A_GPR | more));
	p64(o + 0x10 + 0x10, ax);	      /* AX, after flags and ip */
	p64(o + 0x10 + 0x88, 0x7777);	      /* r15 */
	p64(o + 0x10 + 0x90, 0x7ffff0001000); /* ssp */
	return o + 0xb0;
}

/*
 * Linux setup_arch_pebs_sample_data() keeps the GPR pointer across the
 * fragments of a record and reads AX when it processes an aux group, after
 * that fragment's GPRs: the XABORT code comes from GPRs of the same or an
 * earlier fragment, never from a later one (then AX = 0: no code).
 */
static void test_arch_xabort_fragments(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = PEBS_FMT_ARCH,
				      .uarch = UARCH_PNC,
				      .dsrc = gen_dsrc(UARCH_PNC),
				      .kind = KIND_OTHER};
	size_t o;

	/* aux in fragment 1, GPRs only in fragment 2: no code */
	memset(img, 0, sizeof(img));
	o = frag_basic_aux(0, A_CONT);
	o = frag_gpr(o, 0, RTM_AX);
	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].size, 0x80 + 0xb0);
	assert_int_equal(recs[0].tsx.flags, TSX_RTM);
	assert_int_equal(recs[0].tsx.cycles, 77);
	assert_int_equal(recs[0].regs[REG_RAX], RTM_AX); /* the GPRs themselves are kept */
	assert_false(recs[0].tsx.has_xabort);

	/* GPRs in fragment 1, aux in fragment 2: the earlier AX counts */
	memset(img, 0, sizeof(img));
	p64(0, ahdr(0x40 + 0xa0, A_BASIC | A_GPR | A_CONT));
	p64(0x40 + 0x10, RTM_AX);
	o = 0x40 + 0xa0;
	p64(o, ahdr(0x50, A_AUX));
	p64(o + 0x10 + 0x38, RTM_TUNING);
	o += 0x50;
	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_true(recs[0].tsx.has_xabort);
	assert_int_equal(recs[0].tsx.xabort, 0x5a);

	/* aux and GPRs in the same fragment: GPRs come after aux, still used */
	memset(img, 0, sizeof(img));
	p64(0, ahdr(0x120, A_BASIC | A_AUX | A_GPR));
	p64(0x40 + 0x38, RTM_TUNING);
	p64(0x80 + 0x10, RTM_AX);
	assert_int_equal(run(&cfg, 0x120), PEBS_STEP_END);
	assert_true(recs[0].tsx.has_xabort);
	assert_int_equal(recs[0].tsx.xabort, 0x5a);

	/* a record after one with a code: the code is not carried over */
	o = 0x120;
	o = frag_basic_aux(o, A_CONT);
	o = frag_gpr(o, 0, RTM_AX);
	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 2);
	assert_true(recs[0].tsx.has_xabort);
	assert_false(recs[1].tsx.has_xabort);
}

/*
 * Every arch-PEBS group, spread over three fragments (Linux struct
 * arch_pebs_header, _basic, _aux, _gprs with ssp, _xer_header, the vector
 * parts of "Support arch-PEBS vector registers group capturing": XMM and
 * YMMH 0x100, OPMASK 0x40, ZMMH 0x200, H16ZMM 0x400 behind one 0x10
 * header; _lbr_header; _cntr_header).
 */
static void test_arch_all_groups_fragments(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = PEBS_FMT_ARCH,
				      .uarch = UARCH_PNC,
				      .dsrc = gen_dsrc(UARCH_PNC),
				      .kind = KIND_LDLAT};
	size_t f1 = 0x10 + 0x30 + 0x10 + 0x100 + 0x100;
	size_t f2 = 0x10 + 0xa0 + 0x10 + 0x40 + 0x200 + 0x400;
	size_t f3 = 0x10 + 0x40 + (0x30 + 16 * 0x18) + (0x10 + 3 * 8);
	size_t o, g;

	memset(img, 0, sizeof(img));
	/* fragment 1: basic, XMM + YMMH */
	p64(0, ahdr(f1, A_BASIC | A_XMM | A_YMMH | A_CONT));
	p64(0x10, 0x405000);
	p64(0x18, 0x4);
	p64(0x28, (1ULL << 16) | 0x222); /* retire latency, valid */
	/* fragment 2: GPR + SSP, OPMASK + ZMMH + H16ZMM */
	o = f1;
	p64(o, ahdr(f2, A_GPR | A_OPMASK | A_ZMMH | A_H16ZMM | A_CONT));
	p64(o + 0x10 + 0x10, 0xa0a0);	     /* ax */
	p64(o + 0x10 + 0x90, 0x7ffd0000ULL); /* ssp */
	o += f2;
	/* fragment 3: aux, LBR(2) = 16 entries, counters GP 0x5 + fixed 0x1 */
	p64(o, ahdr(f3, A_AUX | A_LBR(2) | A_CNTR(1)));
	g = o + 0x10;
	p64(g, 0xdada);			    /* address */
	p64(g + 0x28, 0x108);		    /* L2 miss, OMR source 8: MEM0 */
	p64(g + 0x30, (400ULL << 32) | 12); /* cache 400, instr 12 */
	g += 0x40;
	p64(g + 0x30 + 15 * 0x18 + 8, 0xbeef); /* the 16th LBR entry's to */
	g += 0x30 + 16 * 0x18;
	p32(g, 0x5);
	p32(g + 4, 0x1);
	p64(g + 0x10 + 16, 0xc3);
	o += f3;

	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].size, f1 + f2 + f3);
	assert_int_equal(recs[0].ip, 0x405000);
	assert_int_equal(recs[0].applicable_counters, 0x4);
	assert_int_equal(recs[0].retire_latency, 0x222);
	assert_true(recs[0].have & HAVE_XMM);
	assert_int_equal(recs[0].regs[REG_RAX], 0xa0a0);
	assert_true(recs[0].have & HAVE_SSP);
	assert_int_equal(recs[0].ssp, 0x7ffd0000ULL);
	assert_int_equal(recs[0].data_la, 0xdada);
	assert_int_equal(recs[0].latency, 400);
	assert_int_equal(recs[0].instr_latency, 12);
	assert_true(recs[0].have & HAVE_MEM);
	assert_int_equal(recs[0].n_lbr, 16);
	assert_int_equal(recs[0].lbr[15].to, 0xbeef);
	assert_int_equal(recs[0].n_counters, 3);
	assert_int_equal(recs[0].counters[2], 0xc3);

	/* one vector part too many for the fragment's size: refused */
	p64(f1, ahdr(f2, A_GPR | A_OPMASK | A_ZMMH | A_H16ZMM | A_YMMH | A_CONT));
	assert_int_equal(run(&cfg, o), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, f1);
	assert_non_null(strstr(an.what, "vector"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_arch),
	    cmocka_unit_test(test_arch_hostile_counts),
	    cmocka_unit_test(test_arch_xabort_fragments),
	    cmocka_unit_test(test_arch_all_groups_fragments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
