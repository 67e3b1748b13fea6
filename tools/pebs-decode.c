// SPDX-License-Identifier: MIT
/*
 * pebs-decode - decodes a raw PEBS dump written by pebsprobe, or a headerless
 * buffer of records, on a workstation.  The command line, output formats and
 * exit statuses are a contract (docs/DECODER.md):
 *
 *   pebs-decode [--format 0|1|2|3|4|5|6|arch] [--uarch NAME] [--kind KIND]
 *               [--data-cfg HEX] [--pebs-enabled HEX] [--timed]
 *               [--output json|csv|text|summary] FILE|-
 *
 * Exit: 0 all records decoded; 1 bad input; 2 usage (a file that is no
 * dump, given without --format, is one).  A record that
 * decodes but breaks a validation rule (its size or format field, the
 * applicable counters) gets an error line on stderr with its byte offset
 * and is stepped over by its own size, as the app does; a structural fault
 * (truncated, size 0, past the end, unknown format) ends the walk there,
 * with one error line.  Either way the exit status is 1.
 */
#define _GNU_SOURCE
#include "../decode/decode.h"
#include "../decode/dump.h"
#include "../decode/render.h"
#include "../decode/scan.h"
#include "../decode/summary.h"
#include "../lib/fmt.h"
#include "../pmu/uarch.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum output { OUT_TEXT, OUT_JSON, OUT_CSV, OUT_SUMMARY, OUT_NONE };

static const char *const output_names[] = {
    [OUT_TEXT] = "text",       [OUT_JSON] = "json", [OUT_CSV] = "csv",
    [OUT_SUMMARY] = "summary", [OUT_NONE] = "none", /* hidden: for make bench */
};

struct opts {
	const char *file;
	enum output out;
	bool have_fmt, have_uarch, have_kind, have_cfg, have_enabled, timed;
	unsigned int fmt;
	enum pebs_uarch uarch;
	enum pebs_kind kind;
	uint64_t data_cfg, pebs_enabled;
};

static const char *prog = "pebs-decode";

static void usage_line(FILE *f)
{
	fprintf(f,
		"usage: %s [--format 0|1|2|3|4|5|6|arch] [--uarch NAME] [--kind KIND] "
		"[--data-cfg HEX] [--pebs-enabled HEX] [--timed] "
		"[--output json|csv|text|summary] FILE|-\n",
		prog);
}

static int usage_error(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 2;
}

/*
 * The names --uarch and --kind accept, read from decode/'s own tables
 * (pebs_uarch_name, pebs_kind_name): no second list to fall behind.
 */
static const char *name_list(bool uarch)
{
	static char buf[2][320];
	struct strbuf sb;
	unsigned int first = uarch ? UARCH_NONE + 1 : 0, end = uarch ? UARCH_COUNT : KIND_COUNT;

	strbuf_init(&sb, buf[uarch], sizeof(buf[uarch]));
	for (unsigned int i = first; i < end; i++)
		strbuf_printf(&sb, "%s%s", sb.len ? " " : "",
			      uarch ? pebs_uarch_name((enum pebs_uarch)i)
				    : pebs_kind_name((enum pebs_kind)i));
	return buf[uarch];
}

/* A hex number of at most 64 bits: NULL, or which way it is not one. */
static const char *parse_hex(const char *s, uint64_t *v)
{
	const char *digits = s + (*s == '-');
	char *end;

	if (!isxdigit((unsigned char)*digits))
		return "not a number";
	errno = 0;
	*v = strtoull(digits, &end, 16);
	if (*end)
		return "not a number";
	if (errno == ERANGE || digits != s)
		return "out of range";
	return NULL;
}

/* Applies one option with its value; returns 0 or the exit status 2. */
static int apply(struct opts *o, const char *name, const char *val)
{
	if (!strcmp(name, "--format")) {
		if (!strcmp(val, "arch")) {
			o->fmt = PEBS_FMT_ARCH;
		} else if (val[0] >= '0' && val[0] <= '6' && !val[1]) {
			o->fmt = (unsigned int)(val[0] - '0');
		} else {
			return usage_error("bad --format '%s'%s (accepted: 0 1 2 3 4 5 6 arch)",
					   val, "");
		}
		o->have_fmt = true;
	} else if (!strcmp(name, "--uarch")) {
		if (!pebs_uarch_from_name(val, &o->uarch))
			return usage_error("unknown --uarch '%s' (accepted: %s)", val,
					   name_list(true));
		o->have_uarch = true;
	} else if (!strcmp(name, "--kind")) {
		if (!pebs_kind_from_name(val, &o->kind))
			return usage_error("unknown --kind '%s' (accepted: %s)", val,
					   name_list(false));
		o->have_kind = true;
	} else if (!strcmp(name, "--data-cfg") || !strcmp(name, "--pebs-enabled")) {
		bool cfg = !strcmp(name, "--data-cfg");
		const char *bad = parse_hex(val, cfg ? &o->data_cfg : &o->pebs_enabled);

		if (bad) {
			fprintf(stderr,
				"%s: bad %s '%s': %s (accepted: a hex number, 0 to "
				"0xffffffffffffffff, e.g. 0x1)\n",
				prog, name, val, bad);
			return 2;
		}
		if (cfg)
			o->have_cfg = true;
		else
			o->have_enabled = true;
	} else if (!strcmp(name, "--output")) {
		unsigned int i;

		for (i = 0; i < sizeof(output_names) / sizeof(output_names[0]); i++)
			if (!strcmp(val, output_names[i]))
				break;
		if (i == sizeof(output_names) / sizeof(output_names[0]))
			return usage_error(
			    "unknown --output '%s'%s (accepted: json csv text summary)", val, "");
		o->out = (enum output)i;
	} else {
		return usage_error(
		    "unknown option '%s'%s (accepted: --format --uarch --kind --data-cfg "
		    "--pebs-enabled --timed --output --help)",
		    name, "");
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const char *const with_value[] = {"--format",   "--uarch",	 "--kind",
						 "--data-cfg", "--pebs-enabled", "--output"};

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char name[32];
		const char *eq = strchr(a, '=');
		int rc;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage_line(stdout);
			exit(0);
		}
		if (!strcmp(a, "--timed")) {
			o->timed = true;
			continue;
		}
		if (a[0] != '-' || !a[1]) {
			if (o->file)
				return usage_error("more than one FILE ('%s' and '%s'; accepted: "
						   "one FILE, or - for standard input)",
						   o->file, a);
			o->file = a;
			continue;
		}
		if (eq && (size_t)(eq - a) < sizeof(name)) {
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = '\0';
			rc = apply(o, name, eq + 1);
		} else {
			bool known = false;

			for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++)
				known |= !strcmp(a, with_value[k]);
			if (!known)
				return apply(o, a, "");
			if (i + 1 >= argc)
				return usage_error("option '%s' needs a value (accepted: %s VALUE)",
						   a, a);
			rc = apply(o, a, argv[++i]);
		}
		if (rc)
			return rc;
	}
	if (!o->file)
		return usage_error("no FILE given (accepted: a dump or record file, or - for "
				   "standard input)%s%s",
				   "", "");
	return 0;
}

/*
 * The input, streamed: a window of the file in a buffer of fixed size, so
 * memory does not grow with the dump.  buf[0..len) holds the bytes at
 * stream offset `base` on; refill() moves the bytes from `keep` on to the
 * front and reads more behind them.
 */
#ifndef PEBS_DECODE_FUZZ
#define WINDOW	   (4u << 20)	/* bytes read per refill, at most */
#define LOOKAHEAD  (256u << 10) /* bytes kept ahead of the record being decoded */
#define WINDOW_MAX (64u << 20)	/* growth limit for one (malformed) record */
#else
/*
 * The fuzz target's build (tests/fuzz/fuzz_dump.c): the same framing over
 * windows of a few KiB, so that its inputs of a few KiB cross refills and
 * growth; the window still holds the largest header (0x450 bytes).
 */
#define WINDOW	   0x800u
#define LOOKAHEAD  0x200u
#define WINDOW_MAX 0x4000u
#endif
/*
 * A record's fragments have 16-bit size fields, so a record that ran out
 * of bytes did so within this many bytes of the window's end: only then
 * can more input change the decoder's verdict.
 */
#define NEAR_END (0x10000u + 0x10u)

struct input {
	int fd;
	const char *name;
	uint8_t *buf;
	size_t cap, len;
	uint64_t base; /* stream offset of buf[0] */
	bool eof;
};

static bool input_open(struct input *in, const char *path)
{
	struct stat st;

	in->name = strcmp(path, "-") ? path : "stdin";
	in->fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	if (in->fd < 0 || fstat(in->fd, &st) < 0) {
		/* A path that does not open is the user's mistake: exit 2, as for a folder. */
		fprintf(stderr,
			"%s: %s: %s (accepted: a readable dump or record file, or - for "
			"standard input)\n",
			prog, in->name, strerror(errno));
		exit(2);
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			"%s: %s: is a directory (accepted: a dump or record file, or - for "
			"standard input)\n",
			prog, in->name);
		exit(2);
	}
	in->cap = WINDOW;
	in->buf = malloc(in->cap);
	if (!in->buf) {
		fprintf(stderr, "%s: %s: out of memory\n", prog, in->name);
		return false;
	}
	return true;
}

/* Keeps buf[keep..len), then reads until the buffer is full or the input ends. */
static bool refill(struct input *in, size_t keep)
{
	if (keep) {
		memmove(in->buf, in->buf + keep, in->len - keep);
		in->len -= keep;
		in->base += keep;
	}
	while (!in->eof && in->len < in->cap) {
		ssize_t n = read(in->fd, in->buf + in->len, in->cap - in->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, in->name, strerror(errno));
			return false;
		}
		if (n == 0)
			in->eof = true;
		in->len += (size_t)n;
	}
	return true;
}

/* Doubles the window for one record longer than it (malformed input only). */
static bool grow(struct input *in)
{
	uint8_t *b;

	if (in->cap >= WINDOW_MAX)
		return false;
	b = realloc(in->buf, in->cap * 2);
	if (!b)
		return false;
	in->buf = b;
	in->cap *= 2;
	return true;
}

/* Buffered stdout: records are rendered straight into it. */
static char outbuf[1 << 20];
static size_t outlen;

static void flush_out(void)
{
	if (outlen && fwrite(outbuf, 1, outlen, stdout) != outlen) {
		/* nowhere left to report to but stderr */
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		exit(1);
	}
	outlen = 0;
}

#define RECORD_ROOM 16384

static void emit_line(const char *line, void *ctx)
{
	size_t n = strlen(line);

	(void)ctx;
	if (outlen + n + 1 > sizeof(outbuf))
		flush_out();
	memcpy(outbuf + outlen, line, n);
	outlen += n;
	outbuf[outlen++] = '\n';
}

static void render(enum output out, const struct pebs_record *r)
{
	struct strbuf sb;

	if (sizeof(outbuf) - outlen < RECORD_ROOM)
		flush_out();
	strbuf_init(&sb, outbuf + outlen, RECORD_ROOM);
	if (out == OUT_JSON)
		pebs_render_json(r, &sb);
	else if (out == OUT_CSV)
		pebs_render_csv(r, &sb);
	else
		pebs_render_kv(r, &sb);
	outlen += sb.len;
	outbuf[outlen++] = '\n';
}

/* Which options changed how the records are read, for the header line. */
static void overrides(const struct opts *o, char *buf, size_t size)
{
	static const char *const names[] = {"--format",	  "--uarch",	    "--kind",
					    "--data-cfg", "--pebs-enabled", "--timed"};
	bool have[] = {o->have_fmt, o->have_uarch,   o->have_kind,
		       o->have_cfg, o->have_enabled, o->timed};
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!have[i])
			continue;
		strbuf_puts(&sb, sb.len ? "," : " overridden=");
		strbuf_puts(&sb, names[i]);
	}
}

/*
 * The dump's description as the records are decoded: the header's values
 * with the command line's overrides applied (named at the end of the line).
 */
static void print_dump_header(const struct pebs_dump_info *di, const struct pebs_decode_cfg *cfg,
			      const struct opts *o)
{
	char line[320], ov[96], suffix[32];

	overrides(o, ov, sizeof(ov));
	pp_snprintf(line, sizeof(line),
		    "# pebs dump: fmt=%s%u uarch=%s kind=%s data_cfg=0x%llx timed=%d "
		    "adaptive=%d simulated=%d version=%u%s",
		    cfg->fmt == PEBS_FMT_ARCH ? "arch/" : "", cfg->fmt,
		    cfg->uarch ? pebs_uarch_name(cfg->uarch) : "none", pebs_kind_name(cfg->kind),
		    (unsigned long long)cfg->data_cfg, cfg->timed, cfg->adaptive, di->simulated,
		    di->version, ov);
	emit_line(line, NULL);
	for (unsigned int i = 0; i < di->n_counters; i++) {
		const struct pebs_dump_counter *c = &di->counters[i];
		size_t nl = strlen(c->name), sl;

		/* A name that already ends in its own code ("mem-loads-aux (0x8203)") keeps one. */
		sl = (size_t)pp_snprintf(suffix, sizeof(suffix), " (0x%llx)",
					 (unsigned long long)c->code);
		if (nl >= sl && !strcmp(c->name + nl - sl, suffix))
			suffix[0] = '\0';
		if (c->index >= 32)
			pp_snprintf(line, sizeof(line), "# counter FIXED%u: %s%s", c->index - 32,
				    c->name, suffix);
		else
			pp_snprintf(line, sizeof(line), "# counter PMC%u: %s%s", c->index, c->name,
				    suffix);
		emit_line(line, NULL);
	}
}

static struct pebs_summary summary;
static struct pebs_summary_scan scan;
static struct pebs_record rec;

/* JSON from a dump: each object also says whether the simulated PMU wrote it. */
static void render_json_sim(const struct pebs_record *r, bool simulated)
{
	static const char sim_key[2][20] = {",\"simulated\":false}", ",\"simulated\":true}"};
	struct strbuf sb;

	if (sizeof(outbuf) - outlen < RECORD_ROOM)
		flush_out();
	strbuf_init(&sb, outbuf + outlen, RECORD_ROOM);
	pebs_render_json(r, &sb);
	sb.len--; /* the closing brace */
	strbuf_puts(&sb, sim_key[simulated]);
	outlen += sb.len;
	outbuf[outlen++] = '\n';
}

struct walk {
	struct opts *o;
	struct pebs_decode_cfg cfg;
	struct input in;
	uint64_t hdr;	/* file offset of the first record byte */
	uint64_t limit; /* record bytes the dump declares (UINT64_MAX: headerless) */
	int sim;	/* -1: no dump header; else its simulated flag */
	unsigned long n_anomalies;
};

/* Bytes of the window that are records (a dump's declared length ends them). */
static size_t view_len(const struct walk *w)
{
	uint64_t left = w->limit - w->in.base;

	return w->limit != UINT64_MAX && left < w->in.len ? (size_t)left : w->in.len;
}

/* The decoder's verdict on the record at `at` is final unless more input could change it. */
static bool final(const struct walk *w, size_t view, const struct pebs_anomaly *an, size_t off)
{
	if (w->in.eof || view < w->in.len)
		return true;
	return off < view && an->offset + NEAR_END <= view;
}

/* Decodes every record of the stream; false when the input could not be read. */
static bool walk_records(struct walk *w)
{
	struct input *in = &w->in;
	struct pebs_anomaly an;
	size_t off = 0;

	for (;;) {
		size_t at, view;
		enum pebs_step step;

		/* The summary's fast path takes what it can; the decoder does the rest. */
		if (w->o->out == OUT_SUMMARY)
			pebs_summary_scan(&scan, in->buf, view_len(w), &off);
		at = off;
		if (!in->eof && in->len - off < LOOKAHEAD) {
			if (!refill(in, off))
				return false;
			at = off = 0;
		}
		view = view_len(w);
		step = pebs_decode_next(&w->cfg, in->buf, view, &off, &rec, &an);
		if (step == PEBS_STEP_END) {
			if (in->eof || view < in->len)
				return true;
			continue; /* the window ended on a record boundary: read on */
		}
		if (step == PEBS_STEP_ANOMALY && !final(w, view, &an, off)) {
			/* It ran out of bytes: read more (a longer window if need be) and retry. */
			if (at == 0 && in->len == in->cap && !grow(in))
				goto report;
			if (!refill(in, at))
				return false;
			off = 0;
			continue;
		}
	report:
		if (step == PEBS_STEP_ANOMALY) {
			/* offsets are in the file: add the dump header and the window */
			flush_out();
			fprintf(stderr, "%s: %s: offset 0x%llx: %s\n", prog, in->name,
				(unsigned long long)(w->hdr + in->base + an.offset), an.what);
			w->n_anomalies++;
			/* Stepped over by its own size: go on; malformed: stop here. */
			if (off > at)
				continue;
			return true;
		}
		rec.offset += w->hdr + in->base; /* file offsets, like the error line's */
		switch (w->o->out) {
		case OUT_SUMMARY:
			pebs_summary_add(&summary, &rec);
			break;
		case OUT_NONE:
			break;
		case OUT_JSON:
			if (w->sim >= 0) {
				render_json_sim(&rec, w->sim);
				break;
			}
			/* fall through */
		default:
			render(w->o->out, &rec);
		}
	}
}

/* The dump header at the start of the window; returns 0, or the exit status. */
static int read_header(struct walk *w, struct pebs_dump_info *di)
{
	char why[200];

	if (pebs_dump_parse_header(w->in.buf, w->in.len, di, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, w->in.name, why);
		return 1;
	}
	w->cfg = di->cfg;
	w->hdr = pebs_dump_header_size(di);
	w->limit = di->records_declared;
	w->sim = di->simulated;
	memmove(w->in.buf, w->in.buf + w->hdr, w->in.len - w->hdr);
	w->in.len -= w->hdr;
	return 0;
}

/* After the records: the rest of the input is read (and counted) to judge the declared length. */
static int check_length(struct walk *w, const struct pebs_dump_info *di)
{
	char why[200];
	uint64_t have;

	while (!w->in.eof)
		if (!refill(&w->in, w->in.len))
			return 1;
	have = w->in.base + w->in.len;
	if (!pebs_dump_check_length(di, have, why, sizeof(why)))
		return 0;
	fprintf(stderr, "%s: %s: %s\n", prog, w->in.name, why);
	return 1;
}

int main(int argc, char **argv)
{
	struct opts o = {.out = OUT_TEXT, .kind = KIND_LDLAT};
	struct walk w = {.o = &o, .limit = UINT64_MAX, .sim = -1};
	struct pebs_dump_info di;
	bool dump;
	int rc;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	if (!input_open(&w.in, o.file))
		return 1;
	rc = 1;
	if (!refill(&w.in, 0))
		goto out;
	dump = w.in.len >= 8 && !memcmp(w.in.buf, PEBS_DUMP_MAGIC, 8);
	if (dump) {
		rc = read_header(&w, &di);
		if (rc)
			goto out;
	} else if (o.have_fmt) {
		w.cfg.kind = KIND_LDLAT;
	} else {
		/* The wrong file, or a buffer without its --format: the user's mistake. */
		fprintf(stderr,
			"%s: %s: offset 0x0: not a pebs dump (no \"PEBSDUMP\" magic; accepted: "
			"a pebsprobe dump, or a headerless record buffer with --format "
			"0|1|2|3|4|5|6|arch)\n",
			prog, w.in.name);
		rc = 2;
		goto out;
	}
	if (o.have_fmt)
		w.cfg.fmt = o.fmt;
	if (o.have_uarch)
		w.cfg.uarch = o.uarch;
	/* The generation's row (pmu/uarch_table.c) names the decoder of its data source. */
	w.cfg.dsrc = uarch_get(w.cfg.uarch) ? uarch_get(w.cfg.uarch)->dsrc : DSRC_UNKNOWN;
	if (o.have_kind)
		w.cfg.kind = o.kind;
	if (o.have_cfg) {
		w.cfg.data_cfg = o.data_cfg;
		w.cfg.adaptive = true;
	}
	if (o.have_enabled)
		w.cfg.pebs_enabled = o.pebs_enabled;
	if (o.timed)
		w.cfg.timed = true;
	/* Text and summary say where the records came from; CSV stays records only. */
	if (dump && (o.out == OUT_TEXT || o.out == OUT_SUMMARY))
		print_dump_header(&di, &w.cfg, &o);

	if (o.out == OUT_CSV) {
		struct strbuf sb;

		strbuf_init(&sb, outbuf, sizeof(outbuf));
		pebs_render_csv_header(&sb);
		outlen = sb.len;
		outbuf[outlen++] = '\n';
	}
	if (o.out == OUT_SUMMARY) {
		pebs_summary_init(&summary);
		pebs_summary_scan_init(&scan, &summary, &w.cfg);
	}

	rc = 1;
	if (!walk_records(&w))
		goto out;
	if (o.out == OUT_SUMMARY)
		pebs_summary_print(&summary, emit_line, NULL);
	flush_out();
	fflush(stdout);
	rc = w.n_anomalies ? 1 : 0;
	/* A record's error line already says the input is bad: the length is judged without one. */
	if (dump && !rc && check_length(&w, &di))
		rc = 1;
out:
	/* Every ending frees the window: the fuzz target runs main() again and again. */
	free(w.in.buf);
	return rc;
}
