/*
 * The lkp-table importer: lkp's comparison tables as people keep and
 * post them — the output of lkp's `ncompare` (the kernel test robot's
 * table) and of `sbin/compare`, alone, inside a robot report, quoted in
 * replies, pasted into changelogs.  Each column of a row becomes one
 * aggregate (stat "mean": lkp prints averages over runs), with the
 * testcase, params and machine of the table's axis line and the commit
 * (or kernel, or name) of its column.
 *
 * This file reads a text line by line and, at its end, keeps what the
 * report says of the test; lkp-table-rows.c reads the tables,
 * lkp-table-report.c the report around them (lkp-table-int.h).
 *
 * How the format was worked out (research/lkp.md §1.4-1.6, §3, §7.1, the
 * robot reports in samples/lkp, and the 17 real lkp messages of
 * 2015-2025 in samples/emails, which tests/t2440 holds it to):
 *
 * - What lkp prints.  A table may start with a line of '=' and its axes:
 *   a line of keys joined by '/' and ending in ':', then a line of
 *   values joined by '/' (testcase and tbox_group, the machine, are
 *   named; every other key is a param).  "commit:" and one line per
 *   column, "<sha10> ("subject")" (or a kernel name, a tag).  The column
 *   titles (commit prefixes, tags, names, truncated to the column),
 *   then a line of dashes, one group per column.  Then the header
 *   "%stddev %change %stddev ..." (ncompare: the change always printed,
 *   %+.1f%%, or absolute %+.1f for perf-profile rows and metrics ending
 *   in '%'), "%stddev change %stddev" (sbin/compare: integer %, blank
 *   below 3 %), or "fail:runs %reproduction fail:runs" (counts: "3:9" is
 *   3 failing runs of 9; a fail block may be followed directly by a
 *   %stddev header and its rows).  A line of '\' and '|' glyphs, then
 *   the rows: the base value [± N%], then per further column [change]
 *   value [± N%], then the metric name.
 * - What people and archives do to it, all of which reads the same here:
 *   rows are read by token, not by column (archives collapse runs of
 *   blanks); the quote prefix is gone before a line comes here (the mail
 *   decoder strips it, format=flowed pieces are joined), but a row
 *   wrapped in two by hand or by a mailer, numbers on one line and the
 *   name on the next, is joined here; "±" arrives as "Â±", "A+-",
 *   "+-", "__", "ą", "ï¿½", U+FFFD or fused to its number ("±115%");
 *   the titles and dashes, the header, the glyphs, any of them may be
 *   missing (a reply keeps only the rows it talks about); a table is
 *   interrupted by reply prose or "..." and goes on after it; titles
 *   are kernel names ("6.6.0-rc4-mm-eve", truncated: the "commit:" list
 *   above gives them whole), tags, or words ("base", "base+patchset");
 *   rows carry a label in front ("A-P100\t15782 ± 2% ..."), under a
 *   heading underlined with dashes ("will-it-scale/malloc1").
 * - So a row is any line of cells and a name that fits the current
 *   table's columns, and a line that looks like a row but does not fit
 *   is skipped with a warning (db_skip_row()): one odd row never costs
 *   the message.  A row seen with no table around it (or at another
 *   quote depth, after a gap) starts a table of its own when its cells
 *   alternate value and change and its name is a dotted lkp name; the
 *   count of its cells gives the columns.
 * - Which tokens are changes follows from their number when the header
 *   says ncompare (values one per column, changes the N - 1 between);
 *   in sbin/compare's layout, where a change below 3 % is blank, a
 *   change is what ends in '%' or starts with a sign.
 * - Column names.  A hex title is a commit (the longest id known for it:
 *   the body's "commit:", the "commit:" list); a title that starts the
 *   "commit:" entry of its position is that entry; a version-like name
 *   is a kernel, another word a label.  A table with no titles at all
 *   gets labels "<tag>-base", "<tag>-new", "<tag>-new2"..., tag being
 *   the head commit's first 12 digits when the message names one (its
 *   last column is then that commit), else the Message-ID's local part,
 *   else the file name; "#N" is added for the Nth untitled table of the
 *   same text, so that they never merge.  A row label is the param
 *   "row", a heading the param "section".  A table whose columns an
 *   earlier table of the same text had (a reply reruns the base commit
 *   against another) gets the param "table" = its ordinal, so that two
 *   measurements of one commit stay two variants.
 * - "± N%" is lkp's population standard deviation relative to the mean;
 *   lkp prints none when it is at most 2 % (ncompare; 3 % for
 *   sbin/compare): that is kept as "at most N %", not as zero.  lkp
 *   cuts the percentage to an integer, so the "±  0%" of 2015 is kept as
 *   "at most 1 %".  "± -1%" (lkp's mark for a spread it could not compute) and a spread of a
 *   mean printed as 0.00 (rounded to nothing, "0.00 ±103%") are kept as
 *   unknown, the latter with a warning.
 * - The printed change is checked against the values within their
 *   printed rounding (a warning when it cannot follow; the row stays).
 * - The rows are those lkp's change rule flagged (ncompare prints no
 *   other): each compared column's aggregate carries the marker "lkp",
 *   which compare shows as the source's verdict when it has no test of
 *   its own (n unknown).  n is not printed.  A fail block says how many
 *   runs each column had; its rows keep their runs as n and the count as
 *   printed (for dmesg.timestamp:last it is a time, above the runs).
 * - The robot's body: "kernel test robot noticed a 2.6% regression of M
 *   on:" (2023-), "FYI, we noticed a -9.1% regression of M due to
 *   commit:" (2016-2022); "commit: <sha40> ("subject")"; "testcase:" or
 *   "in testcase:"; "test machine:" or "on test machine:"; "config:",
 *   "compiler:"; "parameters:" or "with following parameters:" and the
 *   indented "key: value" lines under it.  The headline metric and its
 *   percentage are checked against the table (a warning when they
 *   disagree).
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include "lkp-table-int.h"

/* ---- lines ---- */

/* One line of text: 0, or -1 after error(). */
static int lkp_table_line(struct lkp_table *t, const char *raw, long lineno,
			  int depth)
{
	char line[LINE_CAP], buf[LINE_CAP], *tok[MAX_TOKENS + 1];
	const char *s;
	size_t len = strlen(raw), n;
	int rc = 0;

	/* trailing blanks mean nothing (lkp pads its header lines) */
	while (len && isspace((unsigned char)raw[len - 1]))
		len--;
	t->last_line = lineno;
	if (len >= sizeof(line)) {
		t->prev_line = lineno;
		if (t->active && lt_cell_start(skip_blanks(raw)))
			return db_skip_row(t->ctx, lineno, "", "a table row of "
					   "%zu bytes", len);
		return 0;	/* prose: too long to matter */
	}
	memcpy(line, raw, len);
	line[len] = '\0';
	str_ascii_minus(line);
	s = skip_blanks(line);

	if (t->wrap.len) {
		rc = lt_join_wrapped(t, s, len, depth);
		if (rc < 0)
			return -1;
		if (rc)
			goto done;
	}
	if (strlen(s) > 20 && all_of(s, "=")) {
		lt_free_axes(t);
		t->st = ST_AXIS_KEYS;
		goto done;
	}
	rc = lt_state_line(t, line, s, lineno);
	if (rc || !*s)
		goto done;	/* after a blank line, tables go on */
	/* one split of the line for all that read it by token */
	memcpy(buf, s, strlen(s) + 1);
	n = tokenize(buf, tok, MAX_TOKENS);
	rc = lt_table_line(t, s, tok, n, lineno, depth);
	if (rc || lt_prose_line(t, s, lineno, depth))
		goto done;
	lt_remember_titles(t, tok, n);
	free(t->last_text);
	t->last_text = xstrdup(s);
done:
	t->prev_line = lineno;
	return rc < 0 ? -1 : 0;
}

/* ---- the text importer ---- */

static int lkp_table_finish(struct lkp_table *t)
{
	if ((t->active && !t->registered && t->nr_cols) ||
	    t->st == ST_AXIS_VALUES)
		db_warn(t->ctx, t->st == ST_AXIS_VALUES ? t->last_line :
			t->last_row, "the table ends before its rows");
	if (t->wrap.len && db_skip_row(t->ctx, t->wrap_line, t->wrap.buf,
				       "a row without its metric name"))
		return -1;
	if (t->headline && !t->headline_seen && t->headline_rows)
		db_warn(t->ctx, t->headline_line, "the report's metric '%s' "
			"is not in its table", t->headline);
	if (!t->rows)
		return 0;
	if (t->headline) {
		char text[512];

		snprintf(text, sizeof(text), "%s %g%% %s", t->headline,
			 t->headline_pct,
			 t->improvement ? "improvement" : "regression");
		if (db_import_meta(t->ctx, 0, "headline", text))
			return -1;
	}
	if (t->head_sha && db_import_meta(t->ctx, 0, "commit", t->head_sha))
		return -1;
	/* what the body says of the test, as it says it */
	if ((t->testcase && db_import_meta(t->ctx, 0, "testcase",
					   t->testcase)) ||
	    (t->machine_desc && db_import_meta(t->ctx, 0, "test_machine",
					       t->machine_desc)) ||
	    (t->config && db_import_meta(t->ctx, 0, "config", t->config)) ||
	    (t->compiler && db_import_meta(t->ctx, 0, "compiler",
					   t->compiler)))
		return -1;
	return 0;
}

static void lkp_table_free(struct lkp_table *t)
{
	size_t i;

	if (!t)
		return;
	lt_free_axes(t);
	lt_free_columns(t);
	free_strs(t->list, &t->nr_list);
	free_strs(t->cand, &t->nr_cand);
	for (i = 0; i < t->nr_params; i++) {
		free((char *)t->params[i].key);
		free((char *)t->params[i].value);
	}
	free(t->params);
	free(t->testcase);
	free(t->machine_desc);
	free(t->head_sha);
	free(t->config);
	free(t->compiler);
	free(t->headline);
	free(t->msgid);
	free(t->heading);
	free(t->last_text);
	sbuf_release(&t->wrap);
	strmap_clear(&t->seen_cols);
	free(t);
}

static void *lkp_table_text_new(struct import_ctx *ctx)
{
	struct lkp_table *t = xcalloc(1, sizeof(*t));

	t->ctx = ctx;
	t->st = ST_TEXT;
	t->last_row = -1;
	sbuf_init_capped(&t->wrap, LINE_CAP);
	return t;
}

static int lkp_table_text_line(void *p, const char *line, long lineno, int depth)
{
	return lkp_table_line(p, line, lineno, depth);
}

static int lkp_table_text_end(void *p, int finish)
{
	int ret = finish ? lkp_table_finish(p) : 0;

	lkp_table_free(p);
	return ret;
}

/*
 * Scores 80 for a table header, 70 for a robot report's headline (in
 * plain text, the quote prefix aside); the parser reads every text
 * anyway when no importer scores (lib/import/text.c), so rows without either
 * still import.
 */
static int lkp_table_detect(const char *path, const char *head, size_t len)
{
	struct sbuf sb = SBUF_INIT;
	int score = 0;

	(void)path;
	sbuf_add(&sb, head, len);
	if ((strstr(sb.buf, "%stddev") && strstr(sb.buf, "change")) ||
	    (strstr(sb.buf, "fail:runs") && strstr(sb.buf, "%reproduction")))
		score = 80;
	else if (strstr(sb.buf, "kernel test robot noticed a ") ||
		 strstr(sb.buf, "FYI, we noticed a "))
		score = 70;
	sbuf_release(&sb);
	return score;
}

const struct importer importer_lkp_table = {
	.name = "lkp-table",
	.family = "lkp",
	.what = "lkp compare/ncompare tables and kernel test robot "
		"reports (plain text, .eml, mbox)",
	.flags = IMP_FILES | IMP_VARIANTS | IMP_AGGREGATES | IMP_TEXT,
	.detect = lkp_table_detect,
	.text_new = lkp_table_text_new,
	.text_line = lkp_table_text_line,
	.text_end = lkp_table_text_end,
};
