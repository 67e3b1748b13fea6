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
	T_ENUM,	 /* one word of a list, stored as an int */
	T_BOOL,	 /* one word of a two-word list: false, true */
	T_U32,	 /* decimal or 0x hex, within [min, max] */
	T_U64,	 /* decimal or 0x hex, within [min, max] */
	T_SIZE,	 /* like T_U64 with an optional K, M or G suffix (binary) */
	T_NAME,	 /* a short word: letters, digits, '.', '_', '-' */
	T_TYPED, /* printable text without spaces, read once by the row's parse into a typed field
		  */
};

struct opt_def {
	const char *name;
	enum opt_type type;
	size_t offset;		  /* into struct options (T_TYPED: its text as given) */
	size_t size;		  /* of the string field (T_NAME, T_TYPED) */
	const char *const *words; /* T_ENUM, T_BOOL: NULL-terminated */
	uint64_t min, max;
	/*
	 * For the error line.  In a T_U32 or T_U64 row, RANGE stands for
	 * "MIN..MAX" made from min and max (accepted_text), so that the line
	 * and the limits cannot differ.
	 */
	const char *accepted;
	const char *def; /* the default, as text the row reads (options_defaults) */
	/* T_TYPED: the text into the typed field (options.h, one file per option) */
	int (*parse)(struct options *o, const char *v, char *why, size_t why_size);
};

#define RANGE "{range}"

#define OFF(f)	offsetof(struct options, f)
#define STR(x)	STR_(x)
#define STR_(x) #x
#define SZ(f)	sizeof(((struct options *)0)->f)

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

/* PMU_EVENT_NAME_MAX - 1 characters an entry (pmu/event.h) */
#define EVENTS_ACCEPTED                                                                            \
	"perfmon event names or raw event=0x..,umask=0x.. separated by ';', at most " STR(         \
	    JOB_MAX_EVENTS) " of 127 characters"

static const struct opt_def opt_table[] = {
    {"pmu", T_ENUM, OFF(pmu), 0, pmu_words, 0, 0, "auto, hw, sim", "auto", NULL},
    {"model", T_NAME, OFF(model), SZ(model), NULL, 0, 0, "a simulator model name, or list", "skl",
     NULL},
    {"trace", T_BOOL, OFF(trace_msr), 0, trace_words, 0, 0, "msr, none", "none", NULL},
    {"exit", T_ENUM, OFF(exit_mode), 0, exit_words, 0, 0, "shutdown, reboot, return", "shutdown",
     NULL},
    {"kernels", T_TYPED, OFF(given.kernels), SZ(given.kernels), NULL, 0, 0,
     "all, none, or kernel names separated by commas", "all", options_parse_kernels},
    {"events", T_TYPED, OFF(given.events), SZ(given.events), NULL, 0, 0, EVENTS_ACCEPTED, "",
     options_parse_events},
    {"ldlat", T_U32, OFF(job.ldlat), 0, NULL, 3, 65535, "an integer " RANGE, "3", NULL},
    {"period", T_U64, OFF(job.period), 0, NULL, 0, (1ULL << 48) - 1,
     "an integer " RANGE " (0 = per kernel)", "0", NULL},
    {"buffer", T_U32, OFF(job.buffer_kib), 0, NULL, 4, 65536, "KiB, an integer " RANGE, "64", NULL},
    {"threshold", T_U32, OFF(job.threshold), 0, NULL, 0, 1000000,
     "records, an integer " RANGE " (0 = near full)", "0", NULL},
    {"drain", T_ENUM, OFF(job.drain), 0, drain_words, 0, 0, "poll, pmi", "poll", NULL},
    /* REC lines only when asked: the dumps keep every record */
    {"records", T_U32, OFF(job.records), 0, NULL, 0, 1000000, "an integer " RANGE, "0", NULL},
    {"size", T_SIZE, OFF(job.size), 0, NULL, 0, 1ULL << 40,
     "bytes, an integer with an optional K, M or G suffix (0 = per kernel)", "0", NULL},
    {"iterations", T_U32, OFF(job.iterations), 0, NULL, 0, 0xffffffffu,
     "an integer " RANGE " (0 = per kernel)", "0", NULL},
    {"log", T_NAME, OFF(log), SZ(log), NULL, 0, 0, "a file name, or none", "pebsprobe.log", NULL},
    {"results", T_NAME, OFF(job.results), SZ(job.results), NULL, 0, 0, "a file name, or none",
     "results.json", NULL},
    {"dump", T_ENUM, OFF(job.dump), 0, dump_words, 0, 0, "on, off, all", "on", NULL},
    {"snapshot", T_BOOL, OFF(job.snapshot), 0, onoff_words, 0, 0, "off, on", "off", NULL},
    {"cpus", T_TYPED, OFF(given.cpus), SZ(given.cpus), NULL, 0, 0,
     "all, boot, or CPU numbers and ranges separated by commas (Linux's cpu lists: N, A-B, "
     "A-B:U/G)",
     "all", options_parse_cpus},
    {"sim-fault", T_TYPED, OFF(given.sim_fault), SZ(given.sim_fault), NULL, 0, 0,
     "cpuN:KIND separated by commas, KIND " OPT_SIM_FAULT_KINDS " (hang: N 1 or more)", "",
     options_parse_sim_fault},
    {"cpu-timeout", T_U32, OFF(job.cpu_timeout_s), 0, NULL, 1, 3600, "seconds, an integer " RANGE,
     STR(JOB_CPU_TIMEOUT_S), NULL},
    {"selftest", T_ENUM, OFF(selftest), 0, selftest_words, 0, 0, "none, gp", "none", NULL},
    {"mode", T_BOOL, OFF(report_only), 0, mode_words, 0, 0, "run, report", "run", NULL},
    {"verbose", T_BOOL, OFF(verbose), 0, verbose_words, 0, 0, "0, 1", "0", NULL},
    {"pause", T_U32, OFF(pause), 0, NULL, 0, 3600, "seconds, an integer " RANGE, "60", NULL},
    {"acr", T_TYPED, OFF(given.acr), SZ(given.acr), NULL, 0, 0,
     "auto, or gpR:gpC (the acr-reload kernel's reloaded and cause counters, e.g. gp3:gp2)", "auto",
     options_parse_acr},
    {"sim-acr", T_TYPED, OFF(given.sim_acr), SZ(given.sim_acr), NULL, 0, 0,
     "off, or the simulated CPUID.23H.2 EAX,EBX,ECX,EDX as four numbers, e.g. 0xfc,0x0,0xfc,0x0",
     "off", options_parse_sim_acr},
    {"handoff", T_BOOL, OFF(job.handoff_strict), 0, handoff_words, 0, 0, "warn, strict", "warn",
     NULL},
    {"sim-handoff", T_TYPED, OFF(given.sim_handoff), SZ(given.sim_handoff), NULL, 0, 0,
     "none, or cpuN:KIND separated by commas, KIND " SIM_HANDOFF_ACCEPTED, "none",
     options_parse_sim_handoff},
    {"sim-pages", T_ENUM, OFF(sim_pages), 0, sim_pages_words, 0, 0, "4k, 2m, 1g", "4k", NULL},
    {"sim-ucode", T_TYPED, OFF(given.sim_ucode), SZ(given.sim_ucode), NULL, 0, 0,
     "model, or a microcode revision 0..0xffffffff", "model", options_parse_sim_ucode},
    {"sim-stepping", T_TYPED, OFF(given.sim_stepping), SZ(given.sim_stepping), NULL, 0, 0,
     "model, or a stepping 0..15", "model", options_parse_sim_stepping},
    {"sim-platform", T_TYPED, OFF(given.sim_platform), SZ(given.sim_platform), NULL, 0, 0,
     OPT_SIM_PLATFORM_ITEMS, "none", options_parse_sim_platform},
    {"sim-host", T_ENUM, OFF(sim_host), 0, options_sim_host_words, 0, 0, "none, kvm, kvm-6.8",
     "none", NULL},
};

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
	/* A sign is no digit: "-1" is a number, out of range. */
	enum pp_num e = pp_parse_num(v + (*v == '-'), d->type == T_SIZE, out);

	if (e == PP_NUM_BAD)
		return VALUE_NOT_NUMBER;
	if (e == PP_NUM_RANGE || *v == '-')
		return VALUE_RANGE;
	return *out >= d->min && *out <= d->max ? VALUE_OK : VALUE_RANGE;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

static bool valid_text(enum opt_type type, const char *v)
{
	/* A typed option's parse says what an empty value means (events=: per kernel). */
	if (!*v)
		return type == T_TYPED;
	for (const char *p = v; *p; p++) {
		if (type == T_TYPED ? (*p <= ' ' || *p > '~') : !name_char(*p))
			return false;
	}
	return true;
}

/* Sets d's field from v; a T_TYPED row's parse says why it refused v. */
static enum value_error set_value(struct options *o, const struct opt_def *d, const char *v,
				  char *why, size_t why_size)
{
	uint8_t *field = (uint8_t *)o + d->offset;
	enum value_error e;
	uint64_t n;
	int i;

	why[0] = 0;
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
	case T_TYPED:
		if (strlen(v) >= d->size)
			return VALUE_LONG;
		if (!valid_text(d->type, v) || (d->parse && d->parse(o, v, why, why_size)))
			return VALUE_BAD;
		memcpy(field, v, strlen(v) + 1);
		return VALUE_OK;
	}
	return VALUE_BAD;
}

void options_defaults(struct options *o)
{
	char why[160];

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < ARRAY_SIZE(opt_table); i++)
		set_value(o, &opt_table[i], opt_table[i].def, why, sizeof(why));
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

/* Whether a parse's why already names what is accepted: "... (accepted: ...)". */
static bool names_accepted(const char *why)
{
	static const char mark[] = "(accepted: ";

	for (; *why; why++)
		if (!strncmp(why, mark, sizeof(mark) - 1))
			return true;
	return false;
}

/* Applies one token; err gets one line naming what was wrong and what is accepted. */
const char *options_nearest(const char *name, size_t len)
{
	const char *best = NULL;
	unsigned int best_d = PP_NEAREST_MAX + 1;

	for (size_t i = 0; i < ARRAY_SIZE(opt_table); i++) {
		unsigned int d =
		    pp_edit_distance(name, len, opt_table[i].name, strlen(opt_table[i].name));

		if (d < best_d && PP_NEAR(d, len)) {
			best = opt_table[i].name;
			best_d = d;
		}
	}
	return best;
}

/* Applies one token; err gets one line naming what was wrong and what is accepted. */
static int apply_token(struct options *o, const char *tok, char *err, size_t err_size)
{
	const char *eq = strchr(tok, '='), *near;
	const struct opt_def *d;
	enum value_error e;
	struct strbuf sb;
	char accepted[256], why[REPORT_LINE_MAX - 64];
	size_t vlen;
	int shown;

	strbuf_init(&sb, err, err_size);
	if (!eq || eq == tok) {
		strbuf_printf(&sb, "malformed option '%.40s' (accepted: name=value, names: ", tok);
		list_names(&sb);
		strbuf_puts(&sb, ")");
		return -1;
	}
	d = find_opt(tok, eq - tok);
	if (!d) {
		strbuf_printf(&sb, "unknown option '%.*s'", (int)(eq - tok > 40 ? 40 : eq - tok),
			      tok);
		near = options_nearest(tok, eq - tok);
		if (near)
			strbuf_printf(&sb, ", did you mean %s?", near);
		strbuf_puts(&sb, " (accepted: ");
		list_names(&sb);
		strbuf_puts(&sb, ")");
		return -1;
	}
	accepted_text(d, accepted, sizeof(accepted));
	vlen = strlen(eq + 1);
	e = vlen >= OPT_STR_MAX && !d->size ? VALUE_LONG
					    : set_value(o, d, eq + 1, why, sizeof(why));
	/* A long value is shown by its start: the line stays one report line. */
	shown = vlen > 60 ? 40 : 60;
	if (e == VALUE_LONG) {
		/* The limit is the field's for text, the token's for the rest. */
		unsigned int most = (unsigned int)(d->size ? d->size : OPT_STR_MAX) - 1;

		strbuf_printf(&sb,
			      "option %s: bad value '%.24s...': longer than %u characters "
			      "(accepted: %s, at most %u characters)",
			      d->name, eq + 1, most, accepted, most);
		return -1;
	}
	if (e == VALUE_OK)
		return 0;
	/* A parse whose why names what it accepts, "(accepted: ...)", says it all (kernels=). */
	if (names_accepted(why))
		strbuf_printf(&sb, "option %s: %s", d->name, why);
	else
		strbuf_printf(&sb, "option %s: bad value '%.*s%s'%s%s%s (accepted: %s)", d->name,
			      shown, eq + 1, (int)vlen > shown ? "..." : "",
			      e == VALUE_BAD ? "" : value_error_text[e], why[0] ? ": " : "", why,
			      accepted);
	return -1;
}

#define TOKEN_MAX (OPT_LINE_MAX + 1)

int options_parse_line(struct options *o, const char *line, bool skip_argv0, char *err,
		       size_t err_size)
{
	const char *p = line;
	bool first = true, refused = false;
	char later[REPORT_LINE_MAX];

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
		static char tok[TOKEN_MAX]; /* a line long: not on the stack */
		size_t n = 0;

		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			return refused ? -1 : 0;
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
		/*
		 * The first refused option is the error; the ones after it still
		 * apply, so that exit= and pause= given anywhere on the line hold
		 * for the refusal too (efi/main.c: a Shell script gets its status).
		 */
		if (refused)
			apply_token(o, tok, later, sizeof(later));
		else if (apply_token(o, tok, err, err_size))
			refused = true;
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
