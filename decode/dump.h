/* SPDX-License-Identifier: MIT */
/*
 * dump.h - the raw PEBS dump file: a small self-describing header, then the
 * records exactly as the hardware wrote them, back to back.  The app writes
 * one per kernel on the ESP; build/host/pebs-decode reads it back.  Layout
 * (all little-endian, documented in docs/DECODER.md):
 *
 *   0x00  char[8]  magic "PEBSDUMP"
 *   0x08  u16      version (PEBS_DUMP_VERSION; 1 is still read)
 *   0x0A  u16      header size in bytes (0x50 + 0x40 * n_counters)
 *   0x0C  u32      flags: bit 0 timed PEBS, bit 1 adaptive counters,
 *                  bit 2 (version 2) records written by the simulated PMU
 *   0x10  u32      record format: 0..6, or 15 for architectural PEBS
 *   0x14  u32      n_counters (<= PEBS_DUMP_MAX_COUNTERS)
 *   0x18  char[8]  microarchitecture name as pebs-decode --uarch, NUL padded
 *   0x20  char[16] event kind name as pebs-decode --kind, NUL padded
 *   0x30  u64      MSR_PEBS_DATA_CFG (0 when not adaptive)
 *   0x38  u64      IA32_PEBS_ENABLE value used (0 = unknown, not validated)
 *   0x40  u64      record bytes that follow the header
 *   0x48  u64      reserved, 0
 *   0x50  n_counters entries of 0x40 bytes:
 *         +0x00 u32 counter index (GP n = n, fixed i = 32 + i)
 *         +0x04 u32 reserved, 0
 *         +0x08 u64 event code: IA32_PERFEVTSELx bits 31:0 less USR, OS, INT
 *                   and EN (event | umask << 8 | edge, inv, cmask)
 *         +0x10 char[48] event name, NUL padded (as programmed: perfmon
 *                   name or raw spelling)
 *         The PEBS counter comes first, then the counted events.
 *   then  the records (record bytes).
 *
 * Usage (app side, no malloc):
 *   struct pebs_dump_info di = { .cfg = res.decode_cfg };
 *   pebs_dump_add_counter(&di, 0, 0x1cd, "MEM_TRANS_RETIRED.LOAD_LATENCY");
 *   size_t n = pebs_dump_size(&di, res.records_len);
 *   uint8_t *out = plat_alloc(n);
 *   if (out && pebs_dump_write(&di, res.records, res.records_len, out, n) == n)
 *           plat_write_file("pebs-ldlat.dump", out, n);
 *   plat_free(out);
 */
#ifndef PP_DECODE_DUMP_H
#define PP_DECODE_DUMP_H

#include "decode.h"

#define PEBS_DUMP_MAGIC	       "PEBSDUMP"
#define PEBS_DUMP_VERSION      2
#define PEBS_DUMP_VERSION_MIN  1 /* oldest version still read */
#define PEBS_DUMP_FIXED_HDR    0x50
#define PEBS_DUMP_COUNTER_SIZE 0x40
#define PEBS_DUMP_MAX_COUNTERS 16
#define PEBS_DUMP_NAME_LEN     48

struct pebs_dump_counter {
	uint32_t index;		       /* GP n = n; fixed i = 32 + i */
	uint64_t code;		       /* raw event select bits */
	char name[PEBS_DUMP_NAME_LEN]; /* NUL terminated */
};

struct pebs_dump_info {
	struct pebs_decode_cfg cfg; /* fmt, uarch, kind, data_cfg, timed, adaptive, pebs_enabled */
	bool simulated;		    /* the records came from the simulated PMU (flags bit 2) */
	unsigned int version;	    /* parse: the file's version; write: always PEBS_DUMP_VERSION */
	unsigned int n_counters;
	struct pebs_dump_counter counters[PEBS_DUMP_MAX_COUNTERS];
	uint64_t records_declared; /* parse: the header's record byte count (0x40) */
};

/* Adds a counter->event row; returns false when the table is full. Names are cut at 47 bytes. */
bool pebs_dump_add_counter(struct pebs_dump_info *di, uint32_t index, uint64_t code,
			   const char *name);

/* Header bytes for this info (0x50 + 0x40 per counter). */
size_t pebs_dump_header_size(const struct pebs_dump_info *di);
/* Whole file size: header + records_len. */
size_t pebs_dump_size(const struct pebs_dump_info *di, size_t records_len);

/*
 * Serialises header + records into out[0..out_size).  Returns the bytes
 * written, or 0 when out_size is too small or the info is invalid (then
 * nothing useful is in out).
 */
size_t pebs_dump_write(const struct pebs_dump_info *di, const uint8_t *records, size_t records_len,
		       uint8_t *out, size_t out_size);

/*
 * Parses a dump.  On success returns 0 with *di filled, *records pointing
 * into buf and *records_len the record bytes present.  If the file holds
 * fewer record bytes than the header says, returns 1 (truncated): *records
 * and *records_len describe what is there, and `why` says how much is
 * missing, so the caller can still decode the records before the fault.
 * Returns -1 on a bad header, with `why` naming the field and its byte
 * offset ("dump header: unknown uarch 'xyz' at offset 0x18").
 */
int pebs_dump_parse(const uint8_t *buf, size_t len, struct pebs_dump_info *di,
		    const uint8_t **records, size_t *records_len, char *why, size_t why_size);

/*
 * For a reader that streams the records: the header alone, from the first
 * len bytes of the file (at least pebs_dump_header_size() of them).
 * Returns 0 with *di filled (records_declared included), or -1 with `why`
 * as pebs_dump_parse() words it.
 */
int pebs_dump_parse_header(const uint8_t *buf, size_t len, struct pebs_dump_info *di, char *why,
			   size_t why_size);
/*
 * Judges the record bytes a file held (`have`, after the header) against
 * the header's count: 0 when equal; 1 with `why` when fewer (truncated) or
 * more (bytes the header does not declare, which are not decoded).
 */
int pebs_dump_check_length(const struct pebs_dump_info *di, uint64_t have, char *why,
			   size_t why_size);

#endif
