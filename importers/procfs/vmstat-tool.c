/*
 * The vmstat-tool importer: what the `vmstat` command prints, as lkp's
 * vmstat monitor keeps it (`vmstat --timestamp -n 1`, the run
 * directory's `vmstat` file): one time series per column, named as lkp
 * names them (vmstat.procs.r, vmstat.memory.free, vmstat.cpu.sy, ...).
 *
 * How the format was worked out: procps' vmstat prints two header lines,
 * group names over dashed spans ("procs -----------memory---------- ...")
 * and the column names under them ("r  b   swpd   free ..."), then one
 * line of numbers per interval; with --timestamp a last group
 * "-----timestamp-----" whose column header is the time zone's name and
 * whose values are "YYYY-MM-DD HH:MM:SS".  Checked against lkp's fixture
 * (samples/lkp/fixture-vmstat-raw.txt) and what lkp's programs/vmstat/
 * parse made of it (fixture-vmstat-parsed.yaml): every value and every
 * time agrees (t2200).
 *
 * - A column belongs to the group whose span covers its last character
 *   (the names are right-aligned under the dashes), so new columns of
 *   newer procps (cpu "gu") need no code.
 * - The time: lkp reads the date and clock as UTC whatever zone the
 *   header names (2015-01-11 20:18:35 "PST" becomes 1421007515), and so
 *   do we, to give the same times; without --timestamp the points are
 *   numbered 0, 1, 2, ... (seconds at vmstat's default interval of 1 s).
 * - The first line of numbers is vmstat's average since boot; lkp keeps
 *   it as the first point, and so do we.
 * - Every column is a gauge: vmstat prints rates per interval (si so bi
 *   bo in cs) and percentages (cpu), never running totals; the run's
 *   value is the mean, as lkp reduces them.
 * - Header lines repeat when vmstat is run without -n: they are skipped.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include <ctype.h>
#include <time.h>

#define MAX_COLS 32

struct column {
	char name[48];		/* "vmstat.procs.r" */
	int64_t id;		/* db_metric() handle */
};

struct vmstat_tool {
	struct column col[MAX_COLS];
	size_t nr;		/* numeric columns */
	int timestamp;		/* the last group is the time */
	char groups[512];	/* the first header line */
};

/* The group (its name, without dashes) whose span covers position pos. */
static int group_at(const char *hdr, size_t pos, char *out, size_t outsz)
{
	size_t i = 0, n = strlen(hdr);

	while (i < n) {
		size_t start, end, k = 0;

		while (i < n && hdr[i] == ' ')
			i++;
		start = i;
		while (i < n && hdr[i] != ' ')
			i++;
		end = i;	/* [start, end) is one dashed token */
		if (pos >= start && pos < end) {
			size_t j;

			for (j = start; j < end && k + 1 < outsz; j++)
				if (hdr[j] != '-')
					out[k++] = hdr[j];
			out[k] = '\0';
			return k ? 0 : -1;
		}
	}
	return -1;
}

static int read_header(struct vmstat_tool *vt, struct import_ctx *ctx,
		       const char *names, long line)
{
	const char *p = names;

	vt->nr = 0;
	vt->timestamp = 0;
	while (*p) {
		char group[32];
		const char *w;
		size_t len;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		w = p;
		while (*p && *p != ' ')
			p++;
		len = (size_t)(p - w);
		if (group_at(vt->groups, (size_t)(p - names) - 1, group,
			     sizeof(group)))
			return error("%s:%ld: column '%.*s' is under no group of "
				     "the line above", ctx->path, line,
				     (int)len, w);
		if (!strcmp(group, "timestamp")) {
			vt->timestamp = 1;
			break;	/* the zone's name; always the last group */
		}
		if (vt->nr == MAX_COLS)
			return error("%s:%ld: more than %d columns", ctx->path,
				     line, MAX_COLS);
		if (len + strlen(group) + 9 > sizeof(vt->col[0].name))
			return error("%s:%ld: column name too long", ctx->path,
				     line);
		snprintf(vt->col[vt->nr].name, sizeof(vt->col[0].name),
			 "vmstat.%s.%.*s", group, (int)len, w);
		vt->col[vt->nr].id = 0;
		vt->nr++;
	}
	if (!vt->nr)
		return error("%s:%ld: expected vmstat's column names", ctx->path,
			     line);
	return 0;
}

/* "YYYY-MM-DD HH:MM:SS" as UTC seconds (see the top of the file). */
static int parse_stamp(const char **p, double *t)
{
	struct tm tm = { 0 };
	const char *s = *p;
	char *end;

	str_skip_blanks(&s);
	end = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	if (!end)
		return -1;
	*t = (double)timegm(&tm);
	*p = end;
	return 0;
}

static int data_line(struct vmstat_tool *vt, struct import_ctx *ctx,
		     const char *s, long line, long *row)
{
	const char *p = s;
	double v[MAX_COLS], t;
	size_t i;

	for (i = 0; i < vt->nr; i++) {
		str_skip_blanks(&p);
		if (str_double(&p, &v[i]))
			return error("%s:%ld: expected a number for '%s', got "
				     "'%.20s'", ctx->path, line,
				     vt->col[i].name, p);
	}
	if (vt->timestamp) {
		if (parse_stamp(&p, &t))
			return error("%s:%ld: expected a time "
				     "'YYYY-MM-DD HH:MM:SS', got '%.20s'",
				     ctx->path, line, p);
	} else {
		t = (double)*row;
	}
	str_skip_blanks(&p);
	if (*p)
		return error("%s:%ld: unexpected '%.20s' after the last column",
			     ctx->path, line, p);
	if (*row == 0) {	/* nested: the directory importer's run */
		struct run_desc rd = { .suite = "vmstat", .iteration = -1 };

		if (vt->timestamp)
			rd.start_time = (int64_t)t;
		if (db_emit_run(ctx, &rd, line))
			return -1;
	}
	for (i = 0; i < vt->nr; i++) {
		if (!vt->col[i].id &&
		    db_metric(ctx, vt->col[i].name, NULL, MK_GAUGE, line,
			      &vt->col[i].id))
			return -1;
		if (db_emit_series_id(ctx, vt->col[i].id, t, v[i], line))
			return -1;
	}
	(*row)++;
	return 0;
}

static int vmstat_tool_parse(struct import_ctx *ctx, struct input *in)
{
	struct vmstat_tool vt = { 0 };
	long row = 0;
	int r, have_header = 0, expect_names = 0;

	while ((r = input_getline(in)) > 0) {
		const char *s = in->sb.buf;

		if (!*s)
			continue;
		if (starts_with(s, "procs ")) {
			snprintf(vt.groups, sizeof(vt.groups), "%s", s);
			expect_names = 1;
			continue;
		}
		if (expect_names) {
			if (read_header(&vt, ctx, s, in->line))
				return -1;
			expect_names = 0;
			have_header = 1;
			continue;
		}
		if (!have_header)
			return error("%s:%ld: expected vmstat's header "
				     "('procs ---memory--- ...')", ctx->path,
				     in->line);
		if (data_line(&vt, ctx, s, in->line, &row))
			return -1;
	}
	if (r < 0)
		return -1;
	if (!row)
		return error("%s: no vmstat lines after the header", ctx->path);
	return 0;
}

static int vmstat_tool_detect(const char *path, const char *head, size_t len)
{
	(void)path;
	if (len > 6 && !memcmp(head, "procs ", 6) &&
	    memmem(head, len, "memory", 6))
		return 90;
	return 0;
}

const struct importer importer_vmstat_tool = {
	.name = "vmstat-tool",
	.family = "procfs",
	.what = "the vmstat command's output (lkp's vmstat monitor: "
		"vmstat --timestamp -n 1)",
	.flags = IMP_FILES | IMP_SERIES,
	.detect = vmstat_tool_detect,
	.parse = vmstat_tool_parse,
	.lkp_names = (const char *const[]){ "vmstat", NULL },
};
