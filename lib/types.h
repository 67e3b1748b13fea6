/* SPDX-License-Identifier: MIT */
/*
 * types.h - the few small types several units share, so that none of them
 * has to include a unit above it for an enum: the microarchitectures whose
 * PEBS encodings differ, the kinds of sampled event, how the buffer is
 * drained.  Names and words for them live with their users
 * (decode/decode.h pebs_uarch_name, pebs_kind_name).
 */
#ifndef PP_TYPES_H
#define PP_TYPES_H

/* Microarchitectures whose data-source encoding differs (pebs-decode --uarch). */
enum pebs_uarch {
	UARCH_NONE = 0,
	UARCH_CORE2,
	UARCH_NHM,
	UARCH_WSM,
	UARCH_SNB,
	UARCH_IVB,
	UARCH_HSW,
	UARCH_BDW,
	UARCH_SKL,
	UARCH_SKX,
	UARCH_ICL,
	UARCH_ICX,
	UARCH_SPR,
	UARCH_EMR,
	UARCH_GNR,
	UARCH_GLC,
	UARCH_GRT,
	UARCH_CMT,
	UARCH_LNC,
	UARCH_GLM,
	UARCH_SLM,
	UARCH_PNC, /* Panther Cove (Diamond Rapids) */
	UARCH_CYC, /* Coyote Cove (Nova Lake P-core): the Panther Cove layout */
	UARCH_ARW, /* Arctic Wolf (Nova Lake E-core) */
	UARCH_DKM, /* Darkmont (Panther Lake E-core, Clearwater Forest) */
	UARCH_TNT, /* Tremont: PEBS on every counter, no load latency */
	UARCH_CGC, /* Cougar Cove (Panther Lake P-core): Lion Cove's rules */
	UARCH_COUNT
};

/* How the data-source field of every record is read (pebs-decode --kind). */
enum pebs_kind {
	KIND_LDLAT,	   /* load latency (MEM_TRANS_RETIRED.LOAD_LATENCY) */
	KIND_STORE,	   /* Sandy/Ivy Bridge precise store (PS_EN) */
	KIND_STLAT,	   /* store latency, Sapphire Rapids and later */
	KIND_DATALA_LOAD,  /* Haswell+ DataLA load events */
	KIND_DATALA_STORE, /* Haswell+ DataLA store events */
	KIND_OTHER,	   /* no data source */
	KIND_COUNT
};

/* How a session empties the PEBS buffer (drain= option, pmu/session.h). */
enum pebs_drain {
	PEBS_DRAIN_POLL, /* after the kernel, the counters disarmed */
	PEBS_DRAIN_PMI,	 /* on each threshold interrupt, then once more at the end */
};

#endif
