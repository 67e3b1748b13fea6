// SPDX-License-Identifier: MIT
/*
 * session_msr.c - the session's MSR access: every #GP recorded with the
 * access that raised it (the first one names the failure), never ignored;
 * teardown writes retried once, so one transient fault leaves nothing behind;
 * and the list of MSRs saved before arming and written back after.
 */
#include "session_int.h"
#include "hw.h"
#include "../lib/fmt.h"

bool session_rd(struct sess *s, uint32_t msr, uint64_t *v)
{
	if (hw_rdmsr(msr, v) == HW_OK)
		return true;
	if (!s->faulted)
		pp_snprintf(s->fault_what, sizeof(s->fault_what), "#GP on rdmsr 0x%x", msr);
	s->faulted = true;
	return false;
}

bool session_wr(struct sess *s, uint32_t msr, uint64_t v)
{
	if (hw_wrmsr(msr, v) == HW_OK)
		return true;
	if (!s->faulted)
		pp_snprintf(s->fault_what, sizeof(s->fault_what), "#GP on wrmsr 0x%x <- 0x%llx",
			    msr, (unsigned long long)v);
	s->faulted = true;
	return false;
}

bool session_wr_teardown(struct sess *s, uint32_t msr, uint64_t v)
{
	return session_wr(s, msr, v) || session_wr(s, msr, v);
}

void session_want_save(struct sess *s, uint32_t rd, uint32_t wr)
{
	unsigned int i;

	for (i = 0; i < s->n_save; i++)
		if (s->save[i].rd == rd)
			return;
	if (s->n_save < SESSION_SAVE_MAX) {
		s->save[s->n_save].rd = rd;
		s->save[s->n_save].wr = wr;
		s->n_save++;
	}
}

uint64_t session_saved(const struct sess *s, uint32_t msr)
{
	unsigned int i;

	for (i = 0; i < s->n_save; i++)
		if (s->save[i].rd == msr)
			return s->save[i].val;
	return 0;
}
