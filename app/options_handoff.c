// SPDX-License-Identifier: MIT
/*
 * options_handoff.c - sim-handoff= (docs/OPTIONS.md, docs/SIM.md "Firmware
 * hand-off"): cpuN:KIND items, parsed once when the token is read into
 * struct opt_sim_handoff; checked against the machine with the other
 * options; put onto the simulator once it is selected (sim/sim.h
 * sim_set_handoff), before the app starts and before any MSR write.
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"

#define SMI_MAX 1000000

static bool parse_u32(const char *p, const char *end, uint32_t max, uint32_t *out)
{
	uint64_t n = 0;

	if (p == end)
		return false;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return false;
		n = n * 10 + (uint64_t)(*p - '0');
		if (n > max)
			return false;
	}
	*out = (uint32_t)n;
	return true;
}

/* V of counter=V: decimal, or hex after 0x, up to a 48-bit counter's width. */
#define COUNT_MAX ((1ULL << 48) - 1)

static int parse_count(const char *v, uint64_t *out)
{
	const char *end;

	return pp_parse_u64(v, out, &end) && !*end && *out <= COUNT_MAX ? 0 : -1;
}

/* One item "cpuN:KIND" of len characters at p into h (a struct opt_sim_handoff). */
static int parse_item(const char *p, size_t len, void *ctx, char *why, size_t why_size)
{
	struct opt_sim_handoff *h = ctx;
	const char *end = p + len, *colon;
	char kind[32];
	unsigned int cpu;
	uint32_t smis = 0;
	uint64_t value = 0;
	enum sim_handoff_kind k;

	if (options_item_cpu(p, len, &cpu, &colon)) {
		pp_snprintf(why, why_size, "'%.*s' is not cpuN:KIND with N 0..%u",
			    (int)(len > 40 ? 40 : len), p, OPT_CPU_NUMBER_MAX);
		return -1;
	}
	colon--; /* at the ':' */
	if ((size_t)(end - colon - 1) >= sizeof(kind)) {
		pp_snprintf(why, why_size, "'%.*s': no such KIND", (int)len, p);
		return -1;
	}
	memcpy(kind, colon + 1, (size_t)(end - colon - 1));
	kind[end - colon - 1] = 0;
	if (!strncmp(kind, "smi", 3) && kind[3]) {
		if (!parse_u32(kind + 3, kind + strlen(kind), SMI_MAX, &smis) || !smis) {
			pp_snprintf(why, why_size, "'%.*s': smiN needs N 1..%u", (int)len, p,
				    SMI_MAX);
			return -1;
		}
		k = SIM_HANDOFF_SMI;
	} else if (!strncmp(kind, "counter=", 8)) {
		if (parse_count(kind + 8, &value)) {
			pp_snprintf(why, why_size,
				    "'%.*s': counter=V needs V a number 0..0x%llx (0x for hex)",
				    (int)len, p, (unsigned long long)COUNT_MAX);
			return -1;
		}
		k = SIM_HANDOFF_COUNT_LEFT;
	} else if (sim_handoff_parse(kind, &k) || k == SIM_HANDOFF_COUNT_LEFT) {
		pp_snprintf(why, why_size, "'%.*s': no such KIND '%s'", (int)len, p, kind);
		return -1;
	} else if (k == SIM_HANDOFF_SMI) {
		smis = 1;
	}
	if (h->n >= OPT_HANDOFF_MAX) {
		pp_snprintf(why, why_size, "more than %u items", OPT_HANDOFF_MAX);
		return -1;
	}
	h->item[h->n].cpu = cpu;
	h->item[h->n].kind = k;
	h->item[h->n].smis = smis;
	h->item[h->n].value = value;
	h->n++;
	return 0;
}

int options_parse_sim_handoff(struct options *o, const char *v, char *why, size_t why_size)
{
	static struct opt_sim_handoff h; /* 12 KiB: not on the stack */
	const char *p = v;

	h.n = 0;
	if (!strcmp(p, "none"))
		p = "";
	if (options_each_item(p, ',', parse_item, &h, why, why_size))
		return -1;
	memcpy(&o->handoff_items, &h,
	       offsetof(struct opt_sim_handoff, item) + h.n * sizeof(h.item[0]));
	return 0;
}

int options_check_handoff(const struct options *o, char *err, size_t err_size)
{
	const struct opt_sim_handoff *h = &o->handoff_items;
	unsigned int n = plat_cpu_count();

	if (!h->n)
		return 0;
	if (o->pmu == OPT_PMU_HW) {
		pp_snprintf(err, err_size,
			    "option sim-handoff: leaves state on a simulated CPU, but pmu=hw "
			    "(accepted with pmu=sim or pmu=auto)");
		return -1;
	}
	for (unsigned int i = 0; i < h->n; i++) {
		if (h->item[i].cpu < n)
			continue;
		pp_snprintf(err, err_size,
			    "option sim-handoff: cpu%u does not exist: this machine has %u CPUs, "
			    "0-%u (accepted: cpuN:KIND with N in 0-%u)",
			    h->item[i].cpu, n, n - 1, n - 1);
		return -1;
	}
	return 0;
}

int options_apply_sim_handoff(const struct options *o, char *err, size_t err_size)
{
	const struct opt_sim_handoff *h = &o->handoff_items;
	char why[200];

	for (unsigned int i = 0; i < h->n; i++) {
		if (!sim_set_handoff(h->item[i].cpu, h->item[i].kind,
				     h->item[i].kind == SIM_HANDOFF_COUNT_LEFT ? h->item[i].value
									       : h->item[i].smis,
				     why, sizeof(why)))
			continue;
		pp_snprintf(err, err_size, "option sim-handoff: %s (accepted: %s)", why,
			    "cpuN:KIND where simulated CPU N can hold KIND");
		return -1;
	}
	return 0;
}
