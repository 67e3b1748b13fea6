/* SPDX-License-Identifier: MIT */
/*
 * kbody.h - the kernel bodies, written once and compiled twice by
 * kernels.c: with KSIM 0 (the real build) and KSIM 1 (the instrumented
 * build, see kernel.h).  Not a header to include anywhere else.
 *
 * Every memory access is ONE instruction in an asm statement (K_LD64,
 * K_ST64, ...), so the compiler can neither merge, split, reorder nor
 * vectorise the accesses: the access pattern is exactly the one written.
 * In the instrumented build the same macro also takes the address of that
 * instruction (a local label) and reports it with the data address.
 */
#ifndef KSIM
#error "kbody.h is compiled by kernels.c only"
#endif

/*
 * The access instruction between two local labels, and its entry in the
 * table of memory instructions (kernels.c kernel_insns): the label of the
 * instruction and of the one after it, each as an offset from the entry's
 * own field, so the table needs no relocation when the image is loaded
 * elsewhere; then the access kind.  Assembler data only: no run-time cost.
 * Subsection 1: after kernels.c's start marker (0), before its end (2).
 */
#ifndef K_INSN
#define K_INSN(insn)                                                                               \
	"1:\t" insn "\n2:\n\t"                                                                     \
	".pushsection .rodata.pp_kinsn, 1, \"a\", @progbits\n\t"                                   \
	".balign 4\n\t"                                                                            \
	".long 1b - .\n\t"                                                                         \
	".long 2b - .\n\t"                                                                         \
	".long %c[kk_]\n\t"                                                                        \
	".popsection"
#endif

#if KSIM
#define KFN(n) kbody_##n##_sim

/*
 * ip = address of the access instruction, ip_next = of the one after it:
 * both taken by the asm that executes it (the same labels as the table).
 */
#define K_ACCESS(insn, size, kind, addr, outs, ...)                                                \
	do {                                                                                       \
		/* The address before the access: a load may overwrite its source. */              \
		uint64_t ip_, nx_, a_ = (uint64_t)(uintptr_t)(addr);                               \
		asm volatile("lea 1f(%%rip), %[ip_]\n\tlea 2f(%%rip), %[nx_]\n" K_INSN(insn)       \
			     : [ip_] "=&r"(ip_), [nx_] "=&r"(nx_), outs                            \
			     : __VA_ARGS__, [kk_] "i"(kind));                                      \
		k->ops->mem_access(ip_, nx_, a_, size, kind);                                      \
	} while (0)

#define K_RETIRE(n)                                                                                \
	do {                                                                                       \
		uint64_t ip_;                                                                      \
		asm volatile("lea 0(%%rip), %0" : "=r"(ip_));                                      \
		k->ops->retire(ip_, n);                                                            \
	} while (0)
/* Two-CPU kernels: the other CPU's load and store, reported between this CPU's accesses. */
#define K_PARTNER() kernel_partner_access(k)
#else
#define KFN(n) kbody_##n##_real
#define K_ACCESS(insn, size, kind, addr, outs, ...)                                                \
	asm volatile(K_INSN(insn) : outs : __VA_ARGS__, [kk_] "i"(kind))
#define K_PARTNER()                                                                                \
	do {                                                                                       \
	} while (0)
#define K_RETIRE(n)                                                                                \
	do {                                                                                       \
	} while (0)
#endif

/* dst = 8 bytes at p. */
#define K_LD64(dst, p)                                                                             \
	K_ACCESS("movq %[m_], %[v_]", 8, HW_LOAD,                                                  \
		 p, [v_] "=r"(dst), [m_] "m"(*(const uint64_t *)(p)))
/* dst = 8 bytes at p, where p came from the previous load (the chase). */
#define K_LD64_DEP(dst, p)                                                                         \
	K_ACCESS("movq %[m_], %[v_]", 8, HW_LOAD | HW_DEPENDENT,                                   \
		 p, [v_] "=r"(dst), [m_] "m"(*(const uint64_t *)(p)))
/* 8 bytes at p = v. */
#define K_ST64(p, v)                                                                               \
	K_ACCESS("movq %[v_], %[m_]", 8, HW_STORE,                                                 \
		 p, [m_] "=m"(*(uint64_t *)(p)), [v_] "r"((uint64_t)(v)))
/* 4 bytes at p = v. */
#define K_ST32(p, v)                                                                               \
	K_ACCESS("movl %[v_], %[m_]", 4, HW_STORE,                                                 \
		 p, [m_] "=m"(*(uint32_t *)(p)), [v_] "r"((uint32_t)(v)))
/* Non-temporal (streaming) 8-byte store. */
#define K_NTST64(p, v)                                                                             \
	K_ACCESS("movnti %[v_], %[m_]", 8, HW_STORE,                                               \
		 p, [m_] "=m"(*(uint64_t *)(p)), [v_] "r"((uint64_t)(v)))
/* Locked read-modify-write: lock add $1 to the 8 bytes at p. */
#define K_LOCK_ADD64(p)                                                                            \
	K_ACCESS("lock addq $1, %[m_]", 8, HW_LOAD | HW_STORE | HW_LOCKED,                         \
		 p, [m_] "+m"(*(uint64_t *)(p)), "i"(0))

/* The kernel's code range: the address of the next instruction. */
#define K_MARK(var) asm volatile("lea 0(%%rip), %0" : "=r"(var) : : "memory")

/* Runs `body` iterations times in chunks, calling kernel_progress between chunks. */
#define K_LOOP(body)                                                                               \
	do {                                                                                       \
		uint64_t done_ = 0, n_ = k->iterations, ch_ = kernel_chunk(k);                     \
		while (done_ < n_) {                                                               \
			uint64_t c_ = n_ - done_ < ch_ ? n_ - done_ : ch_;                         \
			for (uint64_t i_ = 0; i_ < c_; i_++) {                                     \
				body;                                                              \
			}                                                                          \
			done_ += c_;                                                               \
			kernel_progress(k, done_);                                                 \
		}                                                                                  \
	} while (0)

/*
 * How every body ends: the end marker, the IP range its accesses lie in
 * (kernel.h ip_lo/ip_hi, the records' IPs are judged against it), the
 * loads and stores it made, and a value kept alive (the chase's last
 * pointer, where the next sampling continues; 0 where there is none).
 * Uses the body's locals lo and hi.
 */
#define K_END(n_loads, n_stores, keep)                                                             \
	do {                                                                                       \
		K_MARK(hi);                                                                        \
		k->ip_lo = lo;                                                                     \
		k->ip_hi = hi;                                                                     \
		k->loads = (n_loads);                                                              \
		k->stores = (n_stores);                                                            \
		k->sink = (keep);                                                                  \
	} while (0)

/*
 * Pointer chase: one dependent load per step through a random cyclic
 * permutation of stride-sized slots (kernel_prepare builds the chain): the
 * address of each load is the value of the previous one, so neither
 * out-of-order execution nor the prefetchers can run ahead.
 */
void KFN(chase)(struct kernel_ctx *k)
{
	uint64_t lo, hi, p = k->start;

	K_MARK(lo);
	K_LOOP({
		K_LD64_DEP(p, (const uint64_t *)(uintptr_t)p);
		K_RETIRE(2);
	});
	K_END(k->iterations, 0, p);
}

/*
 * Strided loads: one 8-byte load every `stride` bytes at `offset`, wrapping
 * at the end of the buffer (stride 8: sequential).
 */
void KFN(strided)(struct kernel_ctx *k)
{
	uint8_t *base = k->buf + k->offset;
	uint8_t *end = k->buf + k->size - 8;
	uint8_t *p = base;
	uint64_t lo, hi, v, sum = 0;
	uint32_t stride = k->stride;

	K_MARK(lo);
	K_LOOP({
		K_LD64(v, p);
		sum += v;
		p += stride;
		if (p > end)
			p = base;
		K_RETIRE(4);
	});
	K_END(k->iterations, 0, sum);
}

/* Streaming (non-temporal) stores, sequential, wrapping; an sfence at the end. */
void KFN(stream_store)(struct kernel_ctx *k)
{
	uint8_t *base = k->buf + k->offset;
	uint8_t *end = k->buf + k->size - 8;
	uint8_t *p = base;
	uint64_t lo, hi, v = 0x5a5a5a5a5a5a5a5aULL;
	uint32_t stride = k->stride;

	K_MARK(lo);
	K_LOOP({
		K_NTST64(p, v);
		p += stride;
		if (p > end)
			p = base;
		K_RETIRE(3);
	});
	asm volatile("sfence" : : : "memory");
	K_END(0, k->iterations, 0);
}

/*
 * Split accesses: an 8-byte load and an 8-byte store at `offset` in each
 * `stride` bytes, offset chosen so the access straddles the boundary
 * (offset 60 in a 64-byte line, offset 4092 in a 4 KiB page).
 */
void KFN(split)(struct kernel_ctx *k)
{
	uint8_t *base = k->buf + k->offset;
	uint8_t *end = k->buf + k->size - 8;
	uint8_t *p = base;
	uint64_t lo, hi, v;
	uint32_t stride = k->stride;

	K_MARK(lo);
	K_LOOP({
		K_LD64(v, p);
		K_ST64(p, v + 1);
		p += stride;
		if (p > end)
			p = base;
		K_RETIRE(4);
	});
	K_END(k->iterations, k->iterations, 0);
}

/* Locked read-modify-write (lock add) on successive lines of a small buffer. */
void KFN(locked)(struct kernel_ctx *k)
{
	uint8_t *base = k->buf + k->offset;
	uint8_t *end = k->buf + k->size - 8;
	uint8_t *p = base;
	uint64_t lo, hi;
	uint32_t stride = k->stride;

	K_MARK(lo);
	K_LOOP({
		K_LOCK_ADD64(p);
		p += stride;
		if (p > end)
			p = base;
		K_RETIRE(3);
	});
	K_END(k->iterations, k->iterations, 0);
}

/*
 * Store-forwarding block: a 4-byte store then an 8-byte load of the same
 * address.  The load needs bytes the store does not have, so it cannot be
 * forwarded and waits for the store to commit (SDM Optimization Manual,
 * "store forwarding").
 */
void KFN(stfwd_block)(struct kernel_ctx *k)
{
	uint8_t *base = k->buf + k->offset;
	uint8_t *end = k->buf + k->size - 8;
	uint8_t *p = base;
	uint64_t lo, hi, v = 1;
	uint32_t stride = k->stride;

	K_MARK(lo);
	K_LOOP({
		K_ST32(p, v);
		K_LD64(v, p);
		p += stride;
		if (p > end)
			p = base;
		K_RETIRE(3);
	});
	K_END(k->iterations, k->iterations, v);
}

/*
 * 4K aliasing: a store to A then a load from A + 4096.  Bits 11:0 of the
 * two addresses match, so the load is first taken to depend on the store
 * and is re-issued (LD_BLOCKS_PARTIAL.ADDRESS_ALIAS).
 */
void KFN(alias_4k)(struct kernel_ctx *k)
{
	uint8_t *base = k->buf + k->offset;
	uint8_t *end = k->buf + 4096 - 8;
	uint8_t *p = base;
	uint64_t lo, hi, v, sum = 0;
	uint32_t stride = k->stride;

	K_MARK(lo);
	K_LOOP({
		K_ST64(p, sum);
		K_LD64(v, p + 4096);
		sum += v;
		p += stride;
		if (p > end)
			p = base;
		K_RETIRE(4);
	});
	K_END(k->iterations, k->iterations, sum);
}

/*
 * Sharing between two cores: this CPU loads and stores the word at buf[0]
 * while the partner stores to buf[offset] in the same line (offset 0: true
 * sharing, the same word; offset 32: false sharing, another word of the
 * line).  Each load finds the line modified in the other core: HITM.
 */
void KFN(share)(struct kernel_ctx *k)
{
	uint64_t *p = (uint64_t *)k->buf;
	uint64_t lo, hi, v;

	if (kernel_start_ap(k) < 0)
		return;
	K_MARK(lo);
	K_LOOP({
		K_LD64(v, p);
		K_ST64(p, v + 1);
		K_RETIRE(2);
		K_PARTNER();
	});
	K_END(k->iterations, k->iterations, 0);
	kernel_stop_ap(k);
}

#undef KFN
#undef K_END
#undef K_ACCESS
#undef K_RETIRE
#undef K_PARTNER
