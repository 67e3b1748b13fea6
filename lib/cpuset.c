// SPDX-License-Identifier: MIT
/*
 * cpuset.c - a set of CPU numbers of the machine's size (cpuset.h).
 */
#include "cpuset.h"
#include "fmt.h"
#include "platform.h"

static size_t words(unsigned int n)
{
	return ((size_t)n + 63) / 64;
}

struct cpuset *cpuset_alloc(unsigned int n)
{
	struct cpuset *s;

	if (!n)
		n = 1;
	s = plat_alloc(sizeof(*s) + words(n) * sizeof(uint64_t));
	if (!s)
		return NULL;
	s->n = n;
	cpuset_clear(s);
	return s;
}

void cpuset_free(struct cpuset *s)
{
	plat_free(s);
}

void cpuset_clear(struct cpuset *s)
{
	memset(s->word, 0, words(s->n) * sizeof(uint64_t));
}

void cpuset_add(struct cpuset *s, unsigned int cpu)
{
	if (cpu < s->n)
		s->word[cpu / 64] |= BIT_ULL(cpu % 64);
}

bool cpuset_has(const struct cpuset *s, unsigned int cpu)
{
	return cpu < s->n && (s->word[cpu / 64] & BIT_ULL(cpu % 64));
}

unsigned int cpuset_count(const struct cpuset *s)
{
	unsigned int c = 0;

	for (size_t i = 0; i < words(s->n); i++)
		c += (unsigned int)__builtin_popcountll(s->word[i]);
	return c;
}

bool cpuset_empty(const struct cpuset *s)
{
	for (size_t i = 0; i < words(s->n); i++)
		if (s->word[i])
			return false;
	return true;
}

void cpuset_text(const struct cpuset *s, char *out, size_t width)
{
	struct strbuf sb;
	char buf[160];
	bool cut = false;

	strbuf_init(&sb, buf, sizeof(buf));
	for (unsigned int c = 0; c < s->n && !cut; c++) {
		unsigned int end = c;

		if (!cpuset_has(s, c))
			continue;
		while (end + 1 < s->n && cpuset_has(s, end + 1))
			end++;
		strbuf_printf(&sb, "%s%u", sb.len ? "," : "", c);
		if (end > c)
			strbuf_printf(&sb, "%s%u", end > c + 1 ? "-" : ",", end);
		c = end;
		/* Past what any width shows: the rest only adds a "+". */
		cut = sb.len > width;
	}
	if (strlen(buf) > width || cut) {
		size_t at = width ? width - 1 : 0;

		/* "3,9,12+", not "3,9,12,1+": never inside a number */
		if (buf[at] >= '0' && buf[at] <= '9') {
			size_t back = at;

			while (back > 1 && buf[back - 1] >= '0' && buf[back - 1] <= '9')
				back--;
			if (back > 1)
				at = back;
		}
		/* "0,2+", not "0,2,+": a separator before the mark goes */
		if (at > 1 && (buf[at - 1] == ',' || buf[at - 1] == '-'))
			at--;
		pp_snprintf(buf + at, 2, "+");
	}
	pp_snprintf(out, width + 1, "%s", buf);
}
