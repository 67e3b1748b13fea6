// SPDX-License-Identifier: MIT
/*
 * options.c - `name=value` tokens into struct options (docs/OPTIONS.md).
 *
 * One table row per option: its name, how its value is read, where it goes
 * and what it accepts.  The error text of every bad token is built from the
 * same row, so the message and the parser cannot disagree.
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"
#include "../pmu/session.h"
#include "../sim/sim.h"

enum opt_type {
	T_ENUM,	  /* one word of a list, stored as an int */
	T_BOOL,	  /* one word of a two-word list: false, true */
	T_U32,	  /* decimal or 0x hex, within [min, max] */
	T_U64,	  /* decimal or 0x hex, within [min, max] */
	T_SIZE,	  /* like T_U64 with an optional K, M or G suffix (binary) */
	T_NAME,	  /* a short word: letters, digits, '.', '_', '-' */
	T_LIST,	  /* comma-separated T_NAME words */
	T_EVENTS, /* event specs: any printable text without spaces */
};

struct opt_def {
	const char *name;
	enum opt_type type;
	size_t offset;		  /* into struct options */
	size_t size;		  /* of the string field (T_NAME, T_LIST, T_EVENTS) */
	const char *const *words; /* T_ENUM, T_BOOL: NULL-terminated */
	uint64_t min, max;
	/*
	 * For the error line.  In a T_U32 or T_U64 row, RANGE stands for
	 * "MIN..MAX" made from min and max (accepted_text), so that the line
	 * and the limits cannot differ.
	 */
	const char *accepted;
};

#define RANGE "{range}"

#define OFF(f) offsetof(struct options, f)
#define SZ(f)  sizeof(((struct options *)0)->f)

static const char *const pmu_words[] = {"auto", "hw", "sim", NULL};
static const char *const exit_words[] = {"shutdown", "reboot", "return", NULL};
static const char *const drain_words[] = {"poll", "pmi", NULL};
static const char *const selftest_words[] = {"none", "gp", NULL};
static const char *const trace_words[] = {"none", "msr", NULL};
static const char *const onoff_words[] = {"off", "on", NULL};
static const char *const dump_words[] = {"off", "on", "all", NULL};
static const char *const mode_words[] = {"run", "report", NULL};
static const char *const verbose_words[] = {"0", "1", NULL};
static const char *const handoff_words[] = {"warn", "strict", NULL};
static const char *const sim_pages_words[] = {"4k", "2m", "1g", NULL};

static const struct opt_def opt_table[] = {
    {"pmu", T_ENUM, OFF(pmu), 0, pmu_words, 0, 0, "auto, hw, sim"},
    {"model", T_NAME, OFF(model), SZ(model), NULL, 0, 0, "a simulator model name, or list"},
    {"trace", T_BOOL, OFF(trace_msr), 0, trace_words, 0, 0, "msr, none"},
    {"exit", T_ENUM, OFF(exit_mode), 0, exit_words, 0, 0, "shutdown, reboot, return"},
    {"kernels", T_LIST, OFF(job.kernels), SZ(job.kernels), NULL, 0, 0,
     "all, none, or kernel names separated by commas"},
    {"events", T_EVENTS, OFF(job.events), SZ(job.events), NULL, 0, 0,
     "perfmon event names or raw event=0x..,umask=0x.. separated by ';'"},
    {"ldlat", T_U32, OFF(job.ldlat), 0, NULL, 3, 65535, "an integer " RANGE},
    {"period", T_U64, OFF(job.period), 0, NULL, 0, (1ULL << 48) - 1,
     "an integer " RANGE " (0 = per kernel)"},
    {"buffer", T_U32, OFF(job.buffer_kib), 0, NULL, 4, 65536, "KiB, an integer " RANGE},
    {"threshold", T_U32, OFF(job.threshold), 0, NULL, 0, 1000000,
     "records, an integer " RANGE " (0 = near full)"},
    {"drain", T_ENUM, OFF(job.drain), 0, drain_words, 0, 0, "poll, pmi"},
    {"records", T_U32, OFF(job.records), 0, NULL, 0, 1000000, "an integer " RANGE},
    {"size", T_SIZE, OFF(job.size), 0, NULL, 0, 1ULL << 40,
     "bytes, an integer with an optional K, M or G suffix (0 = per kernel)"},
    {"iterations", T_U32, OFF(job.iterations), 0, NULL, 0, 0xffffffffu,
     "an integer " RANGE " (0 = per kernel)"},
    {"log", T_NAME, OFF(log), SZ(log), NULL, 0, 0, "a file name, or none"},
    {"results", T_NAME, OFF(job.results), SZ(job.results), NULL, 0, 0, "a file name, or none"},
    {"dump", T_ENUM, OFF(job.dump), 0, dump_words, 0, 0, "on, off, all"},
    {"snapshot", T_BOOL, OFF(job.snapshot), 0, onoff_words, 0, 0, "off, on"},
    {"cpus", T_LIST, OFF(job.cpus), SZ(job.cpus), NULL, 0, 0,
     "all, boot, or CPU numbers and ranges separated by commas"},
    {"sim-fault", T_EVENTS, OFF(sim_fault), SZ(sim_fault), NULL, 0, 0,
     "cpuN:KIND separated by commas, KIND " OPT_SIM_FAULT_KINDS " (hang: N 1 or more)"},
    {"cpu-timeout", T_U32, OFF(job.cpu_timeout_s), 0, NULL, 1, 3600, "seconds, an integer " RANGE},
    {"selftest", T_ENUM, OFF(selftest), 0, selftest_words, 0, 0, "none, gp"},
    {"mode", T_BOOL, OFF(report_only), 0, mode_words, 0, 0, "run, report"},
    {"verbose", T_BOOL, OFF(verbose), 0, verbose_words, 0, 0, "0, 1"},
    {"pause", T_U32, OFF(pause), 0, NULL, 0, 3600, "seconds, an integer " RANGE},
    {"acr", T_EVENTS, OFF(job.acr), SZ(job.acr), NULL, 0, 0,
     "auto, or gpR:gpC (the acr-reload kernel's reloaded and cause counters)"},
    {"sim-acr", T_EVENTS, OFF(sim_acr), SZ(sim_acr), NULL, 0, 0,
     "off, or the simulated CPUID.23H.2 EAX,EBX,ECX,EDX"},
    {"handoff", T_BOOL, OFF(job.handoff_strict), 0, handoff_words, 0, 0, "warn, strict"},
    {"sim-handoff", T_EVENTS, OFF(sim_handoff), SZ(sim_handoff), NULL, 0, 0,
     "none, or cpuN:KIND separated by commas, KIND " SIM_HANDOFF_ACCEPTED},
    {"sim-pages", T_ENUM, OFF(sim_pages), 0, sim_pages_words, 0, 0, "4k, 2m, 1g"},
    {"sim-host", T_ENUM, OFF(sim_host), 0, options_sim_host_words, 0, 0, "none, kvm, kvm-6.8"},
};

/* Options whose text is parsed once, when read, into a typed field (0, or -1 with why). */
static const struct {
	const char *name;
	int (*parse)(struct options *o, char *why, size_t why_size);
} typed_opts[] = {
    {"sim-handoff", options_parse_sim_handoff},
};

void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->pmu = OPT_PMU_AUTO;
	memcpy(o->model, "skl", 4);
	o->exit_mode = OPT_EXIT_SHUTDOWN;
	memcpy(o->job.kernels, "all", 4);
	o->job.ldlat = 3;
	o->job.buffer_kib = 64;
	o->job.drain = PEBS_DRAIN_POLL;
	o->job.records = 0; /* REC lines only when asked: the dumps keep every record */
	memcpy(o->log, "pebsprobe.log", sizeof("pebsprobe.log"));
	memcpy(o->job.results, "results.json", sizeof("results.json"));
	o->job.dump = JOB_DUMP_ON;
	memcpy(o->job.cpus, "all", 4);
	o->job.cpu_timeout_s = JOB_CPU_TIMEOUT_S;
	o->selftest = OPT_SELFTEST_NONE;
	o->pause = 60;
	memcpy(o->job.acr, "auto", sizeof("auto"));
	memcpy(o->sim_acr, "off", sizeof("off"));
	memcpy(o->sim_handoff, "none", sizeof("none"));
}

static const struct opt_def *find_opt(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(opt_table); i++)
		if (strlen(opt_table[i].name) == len && !memcmp(opt_table[i].name, name, len))
			return &opt_table[i];
	return NULL;
}

static int word_index(const char *const *words, const char *v)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(words[i], v))
			return i;
	return -1;
}

/* What is wrong with a value: the line says which (set_value's errors). */
enum value_error {
	VALUE_OK,
	VALUE_BAD,	  /* not one of the accepted words or names */
	VALUE_NOT_NUMBER, /* a number option's value that is no number */
	VALUE_RANGE,	  /* a number, but outside [min, max] (or 64 bits, or negative) */
	VALUE_LONG,	  /* text longer than its field holds */
};

static const char *const value_error_text[] = {
    [VALUE_NOT_NUMBER] = ": not a number",
    [VALUE_RANGE] = ": out of range",
};

static enum value_error parse_number(const struct opt_def *d, const char *v, uint64_t *out)
{
	const char *end, *digits = v + (*v == '-');
	unsigned int shift = 0;
	bool big = false;

	if (!pp_parse_u64(digits, out, &end)) {
		/* Digits that overflow 64 bits are a number, out of range. */
		bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');

		for (end = digits + 2 * hex;
		     (*end >= '0' && *end <= '9') ||
		     (hex && ((*end >= 'a' && *end <= 'f') || (*end >= 'A' && *end <= 'F')));
		     end++)
			;
		if (end == digits + 2 * hex)
			return VALUE_NOT_NUMBER;
		big = true;
	}
	if (d->type == T_SIZE && *end) {
		switch (*end) {
		case 'k':
		case 'K':
			shift = 10;
			break;
		case 'm':
		case 'M':
			shift = 20;
			break;
		case 'g':
		case 'G':
			shift = 30;
			break;
		default:
			return VALUE_NOT_NUMBER;
		}
		end++;
	}
	if (*end)
		return VALUE_NOT_NUMBER;
	if (big || digits != v || *out > (~0ULL >> shift))
		return VALUE_RANGE;
	*out <<= shift;
	return *out >= d->min && *out <= d->max ? VALUE_OK : VALUE_RANGE;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

static bool has_empty_element(const char *v)
{
	size_t n = strlen(v);

	if (v[0] == ',' || v[n - 1] == ',')
		return true;
	for (size_t i = 1; i < n; i++)
		if (v[i] == ',' && v[i - 1] == ',')
			return true;
	return false;
}

static bool valid_text(enum opt_type type, const char *v)
{
	/* events= (empty) restores the per-kernel default; other words need a value. */
	if (!*v)
		return type == T_EVENTS;
	for (const char *p = v; *p; p++) {
		if (type == T_EVENTS ? (*p <= ' ' || *p > '~')
				     : !(name_char(*p) || (type == T_LIST && *p == ',')))
			return false;
	}
	/* A list has no empty element. */
	return type != T_LIST || !has_empty_element(v);
}

static enum value_error set_value(struct options *o, const struct opt_def *d, const char *v)
{
	uint8_t *field = (uint8_t *)o + d->offset;
	enum value_error e;
	uint64_t n;
	int i;

	switch (d->type) {
	case T_ENUM:
		i = word_index(d->words, v);
		if (i < 0)
			return VALUE_BAD;
		*(int *)field = i;
		return VALUE_OK;
	case T_BOOL:
		i = word_index(d->words, v);
		if (i < 0)
			return VALUE_BAD;
		*(bool *)field = i == 1;
		return VALUE_OK;
	case T_U32:
		e = parse_number(d, v, &n);
		if (e == VALUE_OK)
			*(uint32_t *)field = (uint32_t)n;
		return e;
	case T_U64:
	case T_SIZE:
		e = parse_number(d, v, &n);
		if (e == VALUE_OK)
			*(uint64_t *)field = n;
		return e;
	case T_NAME:
	case T_LIST:
	case T_EVENTS:
		if (strlen(v) >= d->size)
			return VALUE_LONG;
		if (!valid_text(d->type, v))
			return VALUE_BAD;
		memcpy(field, v, strlen(v) + 1);
		return VALUE_OK;
	}
	return VALUE_BAD;
}

static void list_names(struct strbuf *sb)
{
	for (size_t i = 0; i < ARRAY_SIZE(opt_table); i++)
		strbuf_printf(sb, "%s%s", i ? ", " : "", opt_table[i].name);
}

/*
 * What a row accepts, for its error line, with RANGE replaced by the row's
 * min and max; a maximum of 2^N-1 past 32 bits reads as such (period=).
 */
static void accepted_text(const struct opt_def *d, char *buf, size_t size)
{
	const char *r = strchr(d->accepted, RANGE[0]);
	uint64_t top = d->max + 1;
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	if (!r || strncmp(r, RANGE, strlen(RANGE))) {
		strbuf_puts(&sb, d->accepted);
		return;
	}
	strbuf_printf(&sb, "%.*s%llu..", (int)(r - d->accepted), d->accepted,
		      (unsigned long long)d->min);
	if (top > (1ULL << 32) && !(top & (top - 1)))
		strbuf_printf(&sb, "2^%d-1", __builtin_ctzll(top));
	else
		strbuf_printf(&sb, "%llu", (unsigned long long)d->max);
	strbuf_puts(&sb, r + strlen(RANGE));
}

/* Applies one token; err gets one line naming what was wrong and what is accepted. */
static int apply_token(struct options *o, const char *tok, char *err, size_t err_size)
{
	const char *eq = strchr(tok, '=');
	const struct opt_def *d;
	enum value_error e;
	struct strbuf sb;
	char accepted[160];

	strbuf_init(&sb, err, err_size);
	if (!eq || eq == tok) {
		strbuf_printf(&sb, "malformed option '%s' (accepted: name=value, names: ", tok);
		list_names(&sb);
		strbuf_puts(&sb, ")");
		return -1;
	}
	d = find_opt(tok, eq - tok);
	if (!d) {
		strbuf_printf(&sb, "unknown option '%.*s' (accepted: ", (int)(eq - tok), tok);
		list_names(&sb);
		strbuf_puts(&sb, ")");
		return -1;
	}
	accepted_text(d, accepted, sizeof(accepted));
	e = strlen(eq + 1) >= OPT_STR_MAX ? VALUE_LONG : set_value(o, d, eq + 1);
	if (e == VALUE_LONG) {
		/* The limit is the field's for text, the token's for the rest. */
		unsigned int most = (unsigned int)(d->size ? d->size : OPT_STR_MAX) - 1;

		strbuf_printf(&sb,
			      "option %s: bad value '%.24s...': longer than %u characters "
			      "(accepted: %s, at most %u characters)",
			      d->name, eq + 1, most, accepted, most);
		return -1;
	}
	for (size_t i = 0; e == VALUE_OK && i < ARRAY_SIZE(typed_opts); i++) {
		char why[160];

		if (strcmp(typed_opts[i].name, d->name))
			continue;
		if (typed_opts[i].parse(o, why, sizeof(why))) {
			strbuf_printf(&sb, "option %s: bad value '%s': %s (accepted: %s)", d->name,
				      eq + 1, why, accepted);
			return -1;
		}
	}
	if (e != VALUE_OK) {
		strbuf_printf(&sb, "option %s: bad value '%s'%s (accepted: %s)", d->name, eq + 1,
			      e == VALUE_BAD ? "" : value_error_text[e], accepted);
		return -1;
	}
	return 0;
}

#define TOKEN_MAX (OPT_STR_MAX + 32)

int options_parse_line(struct options *o, const char *line, bool skip_argv0, char *err,
		       size_t err_size)
{
	const char *p = line;
	bool first = true;

	/* A control byte (ESC) would reach the console raw in the error line: refused first. */
	for (size_t i = 0; line[i]; i++) {
		uint8_t c = (uint8_t)line[i];

		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c > 0x7e) {
			pp_snprintf(err, err_size,
				    "options: not plain ASCII text (byte 0x%02x at column %zu; "
				    "accepted: printable ASCII separated by spaces)",
				    c, i + 1);
			return -1;
		}
	}

	for (;;) {
		char tok[TOKEN_MAX];
		size_t n = 0;

		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			return 0;
		while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '\r' && p[n] != '\n')
			n++;
		if (n >= sizeof(tok)) {
			pp_snprintf(
			    err, err_size,
			    "option '%.24s...' is too long (accepted: at most %u characters)", p,
			    (unsigned int)sizeof(tok) - 1);
			return -1;
		}
		memcpy(tok, p, n);
		tok[n] = 0;
		p += n;
		if (first && skip_argv0 && !strchr(tok, '=')) {
			first = false;
			continue;
		}
		first = false;
		/* The firmware's Linux-loader convention, not an option of ours. */
		if (!strncmp(tok, "initrd=", 7))
			continue;
		if (apply_token(o, tok, err, err_size))
			return -1;
	}
}

/* "name=value" of one option as it is in effect. */
static void format_one(const struct options *o, const struct opt_def *d, struct strbuf *sb)
{
	const uint8_t *field = (const uint8_t *)o + d->offset;

	switch (d->type) {
	case T_ENUM:
		strbuf_printf(sb, "%s=%s", d->name, d->words[*(const int *)field]);
		break;
	case T_BOOL:
		strbuf_printf(sb, "%s=%s", d->name, d->words[*(const bool *)field]);
		break;
	case T_U32:
		strbuf_printf(sb, "%s=%u", d->name, *(const uint32_t *)field);
		break;
	case T_U64:
	case T_SIZE:
		strbuf_printf(sb, "%s=%llu", d->name, (unsigned long long)*(const uint64_t *)field);
		break;
	default:
		strbuf_printf(sb, "%s=%s", d->name, (const char *)field);
		break;
	}
}

void options_report(const struct options *o)
{
	char line[OPT_STR_MAX + 32];
	struct strbuf sb;

	for (size_t i = 0; i < ARRAY_SIZE(opt_table); i++) {
		strbuf_init(&sb, line, sizeof(line));
		format_one(o, &opt_table[i], &sb);
		report_info("option %s", line);
	}
}

void options_format(const struct options *o, char *out, size_t size)
{
	struct strbuf sb;

	strbuf_init(&sb, out, size);
	for (size_t i = 0; i < ARRAY_SIZE(opt_table); i++) {
		if (i)
			strbuf_puts(&sb, " ");
		format_one(o, &opt_table[i], &sb);
	}
}
