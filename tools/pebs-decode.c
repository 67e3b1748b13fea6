// SPDX-License-Identifier: MIT
/*
 * pebs-decode - decodes a raw PEBS dump written by pebsprobe, or a headerless
 * buffer of records, on a workstation.  The command line, output formats and
 * exit statuses are a contract (docs/DECODER.md):
 *
 *   pebs-decode [--format 0|1|2|3|4|5|6|arch] [--uarch NAME] [--kind KIND]
 *               [--data-cfg HEX] [--pebs-enabled HEX] [--timed]
 *               [--output json|csv|text|summary] FILE
 *
 * Exit: 0 all records decoded; 1 bad input; 2 usage.  A record that
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
#include "../decode/summary.h"
#include "../lib/fmt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum output { OUT_TEXT, OUT_JSON, OUT_CSV, OUT_SUMMARY, OUT_NONE, OUT_READ };

static const char *const output_names[] = {
    [OUT_TEXT] = "text", [OUT_JSON] = "json", [OUT_CSV] = "csv", [OUT_SUMMARY] = "summary",
    [OUT_NONE] = "none", [OUT_READ] = "read", /* hidden: for make bench */
};

#define UARCH_LIST                                                                                 \
	"core2 nhm wsm snb ivb hsw bdw skl skx icl icx spr emr gnr glc grt cmt lnc glm slm pnc "   \
	"cyc arw "                                                                                 \
	"dkm"
#define KIND_LIST "ldlat store stlat datala-load datala-store other"

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
		"[--output json|csv|text|summary] FILE\n",
		prog);
}

static int usage_error(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 2;
}

static bool parse_hex(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*v = strtoull(s, &end, 16);
	return !errno && !*end && *s != '-';
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
			return usage_error("unknown --uarch '%s' (accepted: %s)", val, UARCH_LIST);
		o->have_uarch = true;
	} else if (!strcmp(name, "--kind")) {
		if (!pebs_kind_from_name(val, &o->kind))
			return usage_error("unknown --kind '%s' (accepted: %s)", val, KIND_LIST);
		o->have_kind = true;
	} else if (!strcmp(name, "--data-cfg")) {
		if (!parse_hex(val, &o->data_cfg))
			return usage_error(
			    "bad --data-cfg '%s'%s (accepted: a hex number, e.g. 0x1)", val, "");
		o->have_cfg = true;
	} else if (!strcmp(name, "--pebs-enabled")) {
		if (!parse_hex(val, &o->pebs_enabled))
			return usage_error("bad --pebs-enabled '%s'%s (accepted: a hex number)",
					   val, "");
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
				return usage_error("more than one FILE ('%s' and '%s')", o->file,
						   a);
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
				return usage_error("option '%s' needs a value%s", a, "");
			rc = apply(o, a, argv[++i]);
		}
		if (rc)
			return rc;
	}
	if (!o->file)
		return usage_error("no FILE given%s%s", "", "");
	return 0;
}

/* The whole file in memory (one read loop; the buffer outlives decoding). */
static uint8_t *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	uint8_t *buf;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		fprintf(stderr, "%s: %s: out of memory\n", prog, path);
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	*len = got;
	return buf;
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

static void print_dump_header(const struct pebs_dump_info *di)
{
	char line[256];

	pp_snprintf(line, sizeof(line),
		    "# pebs dump: fmt=%s%u uarch=%s kind=%s data_cfg=0x%llx timed=%d "
		    "adaptive=%d simulated=%d version=%u",
		    di->cfg.fmt == PEBS_FMT_ARCH ? "arch/" : "", di->cfg.fmt,
		    di->cfg.uarch ? pebs_uarch_name(di->cfg.uarch) : "none",
		    pebs_kind_name(di->cfg.kind), (unsigned long long)di->cfg.data_cfg,
		    di->cfg.timed, di->cfg.adaptive, di->simulated, di->version);
	emit_line(line, NULL);
	for (unsigned int i = 0; i < di->n_counters; i++) {
		const struct pebs_dump_counter *c = &di->counters[i];

		if (c->index >= 32)
			pp_snprintf(line, sizeof(line), "# counter FIXED%u: %s (0x%llx)",
				    c->index - 32, c->name, (unsigned long long)c->code);
		else
			pp_snprintf(line, sizeof(line), "# counter PMC%u: %s (0x%llx)", c->index,
				    c->name, (unsigned long long)c->code);
		emit_line(line, NULL);
	}
}

/* A plain read of the same bytes, for `make bench`'s reference speed. */
static int read_only(const uint8_t *buf, size_t len)
{
	uint64_t sum = 0;

	for (size_t i = 0; i + 8 <= len; i += 8)
		sum += get_le64(buf + i);
	printf("read %zu bytes, sum 0x%llx\n", len, (unsigned long long)sum);
	return 0;
}

static struct pebs_summary summary;
static struct pebs_record rec;

int main(int argc, char **argv)
{
	struct opts o = {.out = OUT_TEXT, .kind = KIND_LDLAT};
	struct pebs_decode_cfg cfg = {0};
	struct pebs_dump_info di;
	struct pebs_anomaly an;
	const uint8_t *records;
	size_t len, rlen, off = 0, base = 0;
	char why[200] = "";
	int trunc = 0, rc;
	unsigned long n_anomalies = 0;
	enum pebs_step step;
	uint8_t *buf;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	buf = read_file(o.file, &len);
	if (!buf)
		return 1;
	if (o.out == OUT_READ)
		return read_only(buf, len);

	if (len >= 8 && !memcmp(buf, PEBS_DUMP_MAGIC, 8)) {
		trunc = pebs_dump_parse(buf, len, &di, &records, &rlen, why, sizeof(why));
		if (trunc < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, o.file, why);
			return 1;
		}
		cfg = di.cfg;
		base = pebs_dump_header_size(&di);
		/* Text and summary say where the records came from; JSON/CSV stay records only. */
		if (o.out == OUT_TEXT || o.out == OUT_SUMMARY)
			print_dump_header(&di);
	} else if (o.have_fmt) {
		records = buf;
		rlen = len;
		cfg.kind = KIND_LDLAT;
	} else {
		fprintf(stderr,
			"%s: %s: offset 0x0: not a pebs dump (no \"PEBSDUMP\" magic); "
			"give --format 0|1|2|3|4|5|6|arch for a headerless buffer\n",
			prog, o.file);
		return 1;
	}
	if (o.have_fmt)
		cfg.fmt = o.fmt;
	if (o.have_uarch)
		cfg.uarch = o.uarch;
	if (o.have_kind)
		cfg.kind = o.kind;
	if (o.have_cfg) {
		cfg.data_cfg = o.data_cfg;
		cfg.adaptive = true;
	}
	if (o.have_enabled)
		cfg.pebs_enabled = o.pebs_enabled;
	if (o.timed)
		cfg.timed = true;

	if (o.out == OUT_CSV) {
		struct strbuf sb;

		strbuf_init(&sb, outbuf, sizeof(outbuf));
		pebs_render_csv_header(&sb);
		outlen = sb.len;
		outbuf[outlen++] = '\n';
	}
	if (o.out == OUT_SUMMARY)
		pebs_summary_init(&summary);

	for (;;) {
		size_t at = off;

		step = pebs_decode_next(&cfg, records, rlen, &off, &rec, &an);
		if (step == PEBS_STEP_END)
			break;
		if (step == PEBS_STEP_ANOMALY) {
			/* offsets are in the file: add the dump header */
			flush_out();
			fprintf(stderr, "%s: %s: offset 0x%zx: %s\n", prog, o.file,
				base + an.offset, an.what);
			n_anomalies++;
			/* Stepped over by its own size: go on; malformed: stop here. */
			if (off > at)
				continue;
			break;
		}
		rec.offset += base; /* offsets are file offsets, like the error line's */
		switch (o.out) {
		case OUT_SUMMARY:
			pebs_summary_add(&summary, &rec);
			break;
		case OUT_NONE:
			break;
		default:
			render(o.out, &rec);
		}
	}
	if (o.out == OUT_SUMMARY)
		pebs_summary_print(&summary, emit_line, NULL);
	flush_out();
	fflush(stdout);
	if (n_anomalies)
		return 1;
	if (trunc) {
		fprintf(stderr, "%s: %s: %s\n", prog, o.file, why);
		return 1;
	}
	free(buf);
	return 0;
}
