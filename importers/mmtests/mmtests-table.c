/*
 * The mmtests-table importer: MMTests' comparison tables as people post
 * and keep them — compare-mmtests.pl / compare-kernels.sh text output of
 * every era (2013-2026), and the tables of compare-kernels' HTML report.
 * Each cell (a row's statistic and operation, one run column) becomes
 * one aggregate, labelled with the column's full run name.
 *
 * This file reads a text line by line and finds where a table starts,
 * its header and title above its first row; mmtests-table-names.c names
 * the columns from the header, mmtests-table-rows.c reads the rows
 * (mmtests-table-int.h).
 *
 * How the format was worked out (research/mmtests.md §1.2-1.4, §2.1,
 * research/mmtests-2020-extractors.md §0.6-0.10, §9-11, the HTML report
 * in samples/mmtests, and the 14 real MMTests messages of 2013-2024 in
 * samples/emails, which tests/t2441 holds it to):
 *
 * - What MMTests prints.  A two-line header, then rows.  MMTests splits
 *   each run name at its first '-' (at the one after "-rcN" when the
 *   name goes on "-rc<digit>"): the first part in the upper line, the
 *   rest in the lower one, each printed "%{w}s" after a blank label
 *   column, so right-aligned in a field of w characters.  So the name is
 *   "upper-lower"; "5.3.0-rc3" alone leaves the lower cell blank (the
 *   name is the upper one), and a name without '-' prints as itself
 *   minus its last character over itself ("june0" over "june03": the
 *   name is the lower one; a run really called "june0-june03" reads as
 *   "june03").  A name longer than w is printed whole, without padding,
 *   and pushes the rest of the line right: it touches the name before it
 *   ("vanillaresetpcpu-v1r1" is "vanilla" and "resetpcpu-v1r1" under
 *   two "5.4.0-rc3").  Such a fused lower line is cut where the printf
 *   fields go (w from the upper line's cell ends), when exactly one way
 *   of cutting it fits; else, when the archive collapsed the blanks and
 *   the positions mean nothing, the previous table of the same text with
 *   the same upper cells and the same lower letters gives the names.
 *   When a column is blank in one line, the lines are paired by where
 *   their cells end.  A header that none of this reads keeps its table:
 *   every row is skipped, saying why.
 * - One header line: only the lower line, or names people wrote
 *   ("baseline patchset", "Baseline Patched", `6.9-rc2(with ">")`).  The
 *   rows say how many columns there are; names with blanks are cut at
 *   runs of two blanks, or where the first row's cells end, or where
 *   parentheses and quotes close.  Header lines are indented (the blank
 *   label column); when an archive collapsed the blanks, two unindented
 *   lines of as many cells as columns are a pair when the upper one
 *   looks like MMTests' (a version, a repeated cell, a cell that is its
 *   lower cell minus one character), else the upper one is a title.
 * - A row is "<stat label> <operation> <value> [(<pct>%)]" per column,
 *   read from the right: the cells are counted off the end, the label is
 *   the first token and the operation all that is left, its blanks
 *   collapsed to one ("Ops Minor Faults", "Ops Kswapd efficiency %").
 *   So a table whose runs of blanks an archive collapsed, or whose
 *   columns someone realigned by hand ("0.4300  ( 0.00%)"), reads the
 *   same.  A row must not be indented: lkp's rows are.
 * - The percentage is "(%7.2f%%)" (2013/2016: "(%6.2f%%)", so
 *   "(114.93%)" has no blank), or "*%7.2f%%*" where MMTests found the
 *   change significant: that star becomes the aggregate's marker "*".  It
 *   is MMTests' pdiff or pndiff of the value against the first column,
 *   depending on a direction the table does not print; it is checked
 *   against the values both ways (a warning when neither fits within the
 *   rounding of the printed numbers; the row is kept).  Monitor tables
 *   (Duration, Ops, "Amean sy") print no percentages at all.
 * - Labels changed over the years (§1.3): Mean/Stddev (2013),
 *   Max-90%/Best95%Amean/Coeff (before 2019-04), 1st-qrtle/Max-N/
 *   BAmean-N (2019-2026), Pct.N, then Pctile.N/BAmean.N (2026).  A label
 *   none of these patterns knows is kept as printed, with a warning.
 *   2013's pft printed its fields where the label goes ("User 1",
 *   "Faults/cpu 1"): its ExtractPft gave the per-client mean of each
 *   field, so those rows are stat "Mean" of operation "Faults/cpu-1".
 *   The monitors of 2013/2016 printed no label at all: "User 39.90" under
 *   a header is the Duration of "User" (and System, Elapsed), any other
 *   "Page Ins 1401120" or "Kswapd efficiency 56%" an Ops row of the whole
 *   label text ("56%" is 56).
 * - The title.  The line right above the header may name the benchmark
 *   ("ebizzy", "pgbench Transactions", "dbench4 Loadfile Execution
 *   Time", "tbench4 Throughput (misleading but traditional)", the
 *   multi-test report's "multi subtest kernbench", a heading underlined
 *   with '='): its first word prefixes the operations
 *   ("ebizzy.total_rsec-4", SPEC §4) and is the testcase, for that table
 *   and the ones that follow it, until prose intervenes.  A monitor
 *   table (no percentages) with no title of its own takes the benchmark
 *   of the last table with one and the same runs, prose or not: MMTests
 *   prints the monitors right after their benchmark, replies put prose
 *   between them, and the Duration tables of two benchmarks must not be
 *   one metric twice.  A one-word line ending in ':' right above a
 *   header ("process-pipes:") is a sub-heading: the same operations
 *   repeat under each with other numbers, so it goes into the operation
 *   ("process-pipes-1").
 * - A table starts at a row under a header: a row with percentages, or
 *   of a statistic, or a monitor's under an indented header (nothing
 *   else tells those from prose that ends in numbers).  Rows without a
 *   header are not read: nothing names their columns.  A blank line, or
 *   a line that is not a row, ends a table: the next one needs its own
 *   header.  A row that does not read (a column missing or one too
 *   many, a cell not a number, binary bytes, cut short, too long) is
 *   skipped with a warning (db_skip_row()), and so is every row of a
 *   table whose header does not read: one odd row never costs the
 *   message.
 * - n is not printed: unknown.  The Stddev row is an aggregate of its
 *   own (stat "Stddev"), not the spread of the mean's.
 * - A value wider than its field is printed whole and touches what is
 *   before it (2020 unixbench, perfsift's own reprint): the percentage
 *   of the column before, split off where it ends; or the longest
 *   operation, split where the header says the first column starts, or
 *   where the digits start after a character no number ends with.  An
 *   operation that ends in digits, its blanks collapsed, cannot be told
 *   from the value: that row is skipped.  Which way a
 *   quoted reply re-quoted a table does not matter: the quote depth may
 *   change inside one.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include "mmtests-table-int.h"
#include <ctype.h>

static void mmtests_table_free(struct mmtests_table *t)
{
	if (!t)
		return;
	mtt_free_columns(t);
	mtt_free_cells(t->upper, t->nr_cells);
	mtt_free_cells(t->lower, t->nr_cells);
	free(t->bench);
	free(t->sub);
	free(t->owner);
	free(t->owner_names);
	strmap_clear(&t->warned);
	free(t);
}

/*
 * compare-kernels' HTML report keeps each table row on one line, a cell
 * per <td> (rows) or <th> (the header): drop the tags, one blank for
 * each so that cells stay apart and the two header lines keep their
 * alignment, and decode the few entities MMTests could print.  *header
 * says whether it was a header row.  1 if the line was HTML.
 */
static int from_html(char *line, int *header)
{
	char *r = line, *w = line;

	while (*r == ' ' || *r == '\t')
		r++;
	if (*r != '<' || !strchr(r, '>'))
		return 0;
	*header = strstr(r, "<th") != NULL;
	r = line;
	while (*r) {
		if (*r == '<') {
			char *close = strchr(r, '>');

			if (!close)
				break;
			r = close + 1;
			*w++ = ' ';
			continue;
		}
		if (*r == '&') {
			static const struct {
				const char *name;
				char c;
			} ent[] = {
				{ "&amp;", '&' }, { "&lt;", '<' },
				{ "&gt;", '>' }, { "&nbsp;", ' ' },
			};
			size_t i;

			for (i = 0; i < ARRAY_SIZE(ent); i++)
				if (starts_with(r, ent[i].name))
					break;
			if (i < ARRAY_SIZE(ent)) {
				*w++ = ent[i].c;
				r += strlen(ent[i].name);
				continue;
			}
		}
		*w++ = *r++;
	}
	*w = '\0';
	return 1;
}

/* Line i of the lines since the last blank one (0: the oldest). */
static struct hline *hist_at(struct mmtests_table *t, size_t i)
{
	return &t->hist[(t->hist_first + i) % HIST];
}

/* The first and last token of s (trimmed) and how many there are. */
static size_t shape(const char *s, char *first, char *last, size_t cap)
{
	size_t n = 0, len;
	const char *p = s, *start;

	first[0] = last[0] = '\0';
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		len = (size_t)(p - start) < cap - 1 ? (size_t)(p - start) :
						     cap - 1;
		if (!n) {
			memcpy(first, start, len);
			first[len] = '\0';
		}
		memcpy(last, start, len);
		last[len] = '\0';
		n++;
	}
	return n;
}

/*
 * A line inside a table that is meant as one of its rows (it may still
 * not read): it ends the way the table's rows end, or, cut short, starts
 * with a statistic.  Anything else ends the table.
 */
static int row_candidate(const struct mmtests_table *t, const char *s)
{
	char first[64], last[64];
	double v;

	if (shape(s, first, last, sizeof(first)) < 2)
		return 0;
	/*
	 * A line of the table's own labels right under its rows is a row,
	 * whatever its end: one cut short is then said (mtt_table_row()),
	 * not taken for the end of the table.
	 */
	if (t->pct)
		return mtt_is_pct_token(last) || mtt_known_label(first);
	if (t->labelless)
		return mtt_monitor_value(last, &v) &&
		       isalpha((unsigned char)first[0]);
	return mtt_monitor_value(last, &v) || mtt_known_label(first);
}

/* Bytes no text has: control characters, bad UTF-8, U+FFFD. */
static int binary(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	while (p < end) {
		size_t k;

		if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
			return 1;
		if (*p < 0x80) {
			p++;
			continue;
		}
		k = utf8_seq(p, (size_t)(end - p));
		if (!k || (k == 3 && p[0] == 0xef && p[1] == 0xbf &&
			   p[2] == 0xbd))
			return 1;
		p += k;
	}
	return 0;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A line of '=' (at least three): the underline of a heading. */
static int underline(const char *s)
{
	size_t n = strspn(s, "=");

	return n >= 3 && !s[n];
}

/* "process-pipes:" alone on its line: the name into name (cap bytes). */
static int subheading(const char *s, char *name, size_t cap)
{
	size_t len = strlen(s), i, alpha = 0;

	if (len < 2 || len > cap || s[len - 1] != ':')
		return 0;
	for (i = 0; i + 1 < len; i++) {
		if (isspace((unsigned char)s[i]) || s[i] == ':')
			return 0;
		alpha |= isalpha((unsigned char)s[i]) != 0;
	}
	if (!alpha)
		return 0;
	memcpy(name, s, len - 1);
	name[len - 1] = '\0';
	return 1;
}

/*
 * compare-kernels' title line over a benchmark's tables: "ebizzy",
 * "pgbench Transactions", "dbench4 Loadfile Execution Time", "tbench4
 * Throughput (misleading but traditional)", "Hackbench
 * (config-scheduler-unbound)", the multi-test report's "multi subtest
 * kernbench".  Its benchmark (a name's characters, a letter among them)
 * into name (cap bytes).  Prose is longer, or ends in punctuation.
 */
static int title(const char *s, char *name, size_t cap)
{
	char buf[LINE_CAP], *word[5];
	size_t len = strlen(s), n = 0, i, alpha = 0;
	char *p = buf;
	const char *w;

	if (!len || len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len + 1);
	if (buf[len - 1] == ')') {
		/* the parenthesized tail: configuration, remarks */
		int depth = 0;

		for (i = len; i-- > 0;) {
			depth += buf[i] == ')' ? 1 : buf[i] == '(' ? -1 : 0;
			if (!depth)
				break;
		}
		if (depth || !i)
			return 0;
		buf[i] = '\0';
		len = i;
		while (len && isspace((unsigned char)buf[len - 1]))
			buf[--len] = '\0';
		if (!len)
			return 0;
	}
	if (strchr(":.,;!?)", buf[len - 1]))
		return 0;
	while (*p) {
		while (isspace((unsigned char)*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (n == ARRAY_SIZE(word))
			return 0;
		word[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
	if (!n || n > 4)
		return 0;
	w = word[0];
	if (n == 3 && !strcmp(word[0], "multi") && !strcmp(word[1], "subtest"))
		w = word[2];
	if (strlen(w) >= cap)
		return 0;
	for (i = 0; w[i]; i++) {
		if (isalpha((unsigned char)w[i]))
			alpha = 1;
		else if (!isdigit((unsigned char)w[i]) && !strchr("_.+-", w[i]))
			return 0;
	}
	if (!alpha || mtt_known_label(w))
		return 0;
	memcpy(name, w, i + 1);
	return 1;
}

/*
 * A line as the parser sees it: HTML rows turned into text, trailing
 * blanks gone, *indented set for header lines (a leading blank in text,
 * <th> cells in HTML).  0; 1 for HTML markup and nothing else (no line
 * at all, for the tables around it); -1 when it is too long.
 */
static int prepare(char *line, const char *raw, int *indented)
{
	size_t len = strlen(raw);
	int header;

	while (len && isspace((unsigned char)raw[len - 1]))
		len--;
	if (len >= LINE_CAP)
		return -1;
	memcpy(line, raw, len);
	line[len] = '\0';
	str_ascii_minus(line);
	if (from_html(line, &header)) {
		*indented = header;
		if (!*skip_blanks(line))
			return 1;
	} else {
		*indented = line[0] == ' ' || line[0] == '\t';
	}
	return 0;
}

/* Split text into header line k (htok[k], hn[k]). */
static void split_line(struct mmtests_table *t, int k, const char *text)
{
	memcpy(t->hbuf[k], text, strlen(text) + 1);
	t->hn[k] = mtt_tokenize(t->hbuf[k], t->htok[k]);
}

/*
 * A line that may be a header line: names (a letter or digit in them,
 * not a code fence), no percentages; unindented, it must not read as
 * prose, a heading or a row ("Dmean Higher 0.00 -0.29") either.
 */
static int header_like(const struct hline *h)
{
	char first[64], last[64];
	const char *s = skip_blanks(h->text), *p;
	size_t len = strlen(s);
	double v;

	if (!len || strstr(s, "%)") || strstr(s, "%*"))
		return 0;
	for (p = s; *p && !isalnum((unsigned char)*p); p++)
		;
	if (!*p)
		return 0;
	if (h->indented)
		return 1;
	shape(s, first, last, sizeof(first));
	return !strchr(".,:;!?", s[len - 1]) && !mtt_known_label(first) &&
	       !(isalpha((unsigned char)first[0]) &&
		 mtt_monitor_value(last, &v));
}

/*
 * Two unindented header lines of as many cells (their blanks
 * collapsed): is the upper one (split in htok[0], the lower in htok[1])
 * MMTests' upper line rather than a title?  It is when a cell is a
 * version, repeats, or is its lower cell minus the last character.
 */
static int upper_looking(struct mmtests_table *t)
{
	size_t i, j;

	for (i = 0; i < t->hn[0]; i++) {
		const char *u = t->htok[0][i].s, *l = t->htok[1][i].s;
		char *k = mtt_kernel_of(u);

		free(k);
		if (k || (strlen(l) == strlen(u) + 1 && starts_with(l, u)))
			return 1;
		for (j = 0; j < i; j++)
			if (!strcmp(u, t->htok[0][j].s))
				return 1;
	}
	return 0;
}

/*
 * How many of the last lines kept are the header of a table of ncols
 * columns whose first row comes next: 2, 1, or 0 for none.
 */
static int find_header(struct mmtests_table *t, size_t ncols)
{
	const struct hline *h1, *h2;

	if (!t->nr_hist)
		return 0;
	h1 = hist_at(t, t->nr_hist - 1);
	if (!header_like(h1))
		return 0;
	if (t->nr_hist < 2)
		return 1;
	h2 = hist_at(t, t->nr_hist - 2);
	if (!header_like(h2))
		return 1;
	if (h1->indented && h2->indented)
		return 2;
	if (h1->indented || h2->indented)
		return 1;
	split_line(t, 0, h2->text);
	split_line(t, 1, h1->text);
	if (t->hn[0] != ncols || t->hn[1] != ncols)
		return 1;
	return upper_looking(t) ? 2 : 1;
}

/*
 * The title and sub-heading over the header that starts at kept line i:
 * the benchmark into name, the sub-heading into sub ("" when none; both
 * cap bytes).
 */
static void title_above(struct mmtests_table *t, size_t i, char *name,
			char *sub, size_t cap)
{
	const struct hline *h;
	const char *s;

	name[0] = sub[0] = '\0';
	if (!i)
		return;
	h = hist_at(t, --i);
	s = skip_blanks(h->text);
	if (!h->indented && subheading(s, sub, cap)) {
		if (!i)
			return;
		h = hist_at(t, --i);
		s = skip_blanks(h->text);
	}
	if (!h->indented && underline(s)) {
		if (!i)
			return;
		h = hist_at(t, --i);
		s = skip_blanks(h->text);
	}
	if (!h->indented)
		title(s, name, cap);
}

/*
 * A monitor table (Duration, Ops: no percentages) without a benchmark of
 * its own belongs to the last table with a benchmark and the same runs:
 * MMTests prints the monitors right after their benchmark's table, and
 * replies put their prose between them.  Without this, the Duration
 * tables of two benchmarks in one reply would be one metric twice.
 * Then the table's benchmark, if any, is the one monitors get next.
 */
static void monitor_owner(struct mmtests_table *t, int pct)
{
	struct sbuf names = SBUF_INIT;
	size_t i;

	for (i = 0; i < t->nr_cols; i++) {
		sbuf_addstr(&names, t->names[i]);
		sbuf_addch(&names, '\n');
	}
	if (!t->bench && !pct && t->owner && !strcmp(names.buf, t->owner_names))
		t->bench = xstrdup(t->owner);
	if (t->bench) {
		free(t->owner);
		free(t->owner_names);
		t->owner = xstrdup(t->bench);
		t->owner_names = sbuf_detach(&names, NULL);
	}
	sbuf_release(&names);
}

static void forget_lines(struct mmtests_table *t)
{
	t->nr_hist = 0;
	t->hist_first = 0;
}

/*
 * Where the first column's field starts, from the header line (of the
 * lines split) that has a cell per column, evenly spaced: MMTests'
 * blank label column is as wide as the label and operation columns of
 * the rows.  0 when that cannot be told.
 */
static size_t value_start(const struct mmtests_table *t, int lines,
			  size_t ncols)
{
	const struct token *tok;
	size_t i, w;

	if (ncols < 2 || (t->hn[0] != ncols &&
			  (lines < 2 || t->hn[1] != ncols)))
		return 0;
	tok = t->hn[0] == ncols ? t->htok[0] : t->htok[1];
	if (tok[1].end <= tok[0].end)
		return 0;
	w = tok[1].end - tok[0].end;
	for (i = 2; i < ncols; i++)
		if (tok[i].end - tok[i - 1].end != w)
			return 0;
	return tok[0].end > w ? tok[0].end - w : 0;
}

/*
 * A line outside a table (unindented, text): is it the first row of one,
 * the lines above it its header?  1 if it is (a table was started, or
 * in detect mode would be), 0 if not, -1 after error().
 */
static int try_start(struct mmtests_table *t, const char *line, long lineno)
{
	struct token *tok = t->tok;
	struct cell cell[MAX_COLS];
	char why[192], name[64], sub[64];
	size_t n, ncols = 0, rest = 0, i;
	int pct, labelless = 0, lines, reads;
	const struct hline *h1;
	long first;
	double v;

	mtt_unfuse(line, t->row, sizeof(t->row), 0);
	n = mtt_tokenize(t->row, tok);
	if (n < 2 || n > MAX_TOKENS)
		return 0;
	pct = mtt_is_pct_token(tok[n - 1].s);
	if (pct) {
		/* one percentage per column, whatever else is wrong */
		for (i = 0; i < n; i++)
			ncols += mtt_is_pct_token(tok[i].s);
	} else {
		while (ncols + 1 < n &&
		       mtt_monitor_value(tok[n - 1 - ncols].s, &v))
			ncols++;
		if (!ncols)
			return 0;
		if (mtt_known_label(tok[0].s)) {
			/* "Amean 1 5.00 6.00": the label, then the operation */
			if (n - ncols < 2)
				ncols = n - 2;
		} else {
			labelless = 1;
			for (i = 0; i < n - ncols; i++)
				if (!isalpha((unsigned char)tok[i].s[0]))
					return 0;
		}
	}
	if (!ncols || ncols > MAX_COLS)
		return 0;
	memset(cell, 0, ncols * sizeof(*cell));
	reads = !mtt_read_cells(tok, n, ncols, pct, labelless, cell, &rest, why,
				sizeof(why));
	/* a row that does not read starts a table only as a statistic's */
	if (!reads && !(pct && mtt_known_label(tok[0].s)))
		return 0;
	lines = find_header(t, ncols);
	if (!lines)
		return 0;
	h1 = hist_at(t, t->nr_hist - 1);
	/* a monitor's rows have nothing else to tell them from prose */
	if (labelless && lines == 1 && !h1->indented)
		return 0;
	t->why[0] = '\0';
	if (lines == 2) {
		split_line(t, 0, hist_at(t, t->nr_hist - 2)->text);
		split_line(t, 1, h1->text);
	} else {
		split_line(t, 0, h1->text);
	}
	if (t->hn[0] > MAX_TOKENS || (lines == 2 && t->hn[1] > MAX_TOKENS))
		return 0;
	mtt_free_columns(t);
	/*
	 * a table whose names do not read is one when its rows are
	 * MMTests' for sure; else it may be prose that ends in numbers
	 */
	if ((lines == 2 ? mtt_names_two(t, h1->text, cell, ncols) :
			  mtt_names_one(t, h1->text, cell, ncols)) &&
	    !pct && (labelless || lines == 1))
		return 0;
	if (!t->ctx)
		return 1;
	first = hist_at(t, t->nr_hist - (size_t)lines)->lineno;
	title_above(t, t->nr_hist - (size_t)lines, name, sub, sizeof(name));
	if (name[0]) {
		free(t->bench);
		t->bench = xstrdup(name);
	}
	if (!t->why[0])
		monitor_owner(t, pct);
	free(t->sub);
	t->sub = sub[0] ? xstrdup(sub) : NULL;
	t->pct = pct;
	t->labelless = labelless;
	t->vs = value_start(t, lines, ncols);
	t->in_table = 1;
	forget_lines(t);
	db_table_begin(t->ctx, first, "mmtests", t->bench, (int)ncols);
	if (t->why[0])
		mtt_free_columns(t);
	t->nr_cols = ncols;
	return mtt_table_row(t, line, lineno) ? -1 : 1;
}

/* Keep a line that is not in a table: a header or title, maybe. */
static void keep_line(struct mmtests_table *t, const char *line, long lineno,
		      int indented)
{
	struct hline *h;
	const char *s = skip_blanks(line);
	char name[64];

	if (t->nr_hist == HIST) {
		t->hist_first = (t->hist_first + 1) % HIST;
		t->nr_hist--;
	}
	h = hist_at(t, t->nr_hist++);
	memcpy(h->text, line, strlen(line) + 1);
	h->lineno = lineno;
	h->indented = indented;
	if (indented || title(s, name, sizeof(name)) ||
	    subheading(s, name, sizeof(name)) || underline(s))
		return;
	/* prose: the tables below are not this benchmark's */
	free(t->bench);
	t->bench = NULL;
}

/*
 * One line of text.  0 (in detect mode: 1 where a table starts), or -1
 * after error().
 */
static int mmtests_table_line(struct mmtests_table *t, const char *raw,
			      long lineno)
{
	char line[LINE_CAP];
	const char *s;
	int indented, rc;

	rc = prepare(line, raw, &indented);
	if (rc > 0)
		return 0;
	if (rc < 0) {
		char cut[64];

		if (t->in_table) {
			snprintf(cut, sizeof(cut), "%s", raw);
			return db_skip_row(t->ctx, lineno, cut, "a table row "
					   "of %zu bytes", strlen(raw));
		}
		/* prose, too long to matter */
		forget_lines(t);
		free(t->bench);
		t->bench = NULL;
		return 0;
	}
	s = skip_blanks(line);
	if (!*s) {
		t->in_table = 0;
		forget_lines(t);
		return 0;
	}
	if (t->in_table) {
		if (binary(s))
			return db_skip_row(t->ctx, lineno, s, "not text: "
					   "binary bytes in a table");
		if (!indented && row_candidate(t, s))
			return mtt_table_row(t, s, lineno);
		t->in_table = 0;
	}
	if (!indented && !binary(s)) {
		rc = try_start(t, s, lineno);
		if (rc)
			return rc < 0 ? -1 : !t->ctx;
	}
	keep_line(t, line, lineno, indented);
	return 0;
}

static void *mmtests_table_text_new(struct import_ctx *ctx)
{
	struct mmtests_table *t = xcalloc(1, sizeof(*t));

	t->ctx = ctx;
	return t;
}

static int mmtests_table_text_line(void *p, const char *line, long lineno, int depth)
{
	/* people re-quote inside a table: the depth tells nothing here */
	(void)depth;
	return mmtests_table_line(p, line, lineno);
}

static int mmtests_table_text_end(void *p, int finish)
{
	/* a table may end with the text: nothing is pending */
	(void)finish;
	mmtests_table_free(p);
	return 0;
}

/* raw without its quote prefixes ("> > "), as the mail decoder strips. */
static const char *unquote(const char *raw)
{
	const char *p = raw, *q;

	for (;;) {
		for (q = p; *q == ' '; q++)
			;
		if (*q != '>')
			return p;
		p = q + 1;
		if (*p == ' ')
			p++;
	}
}

/*
 * Scores 75 when the head holds a table's start as the parser reads it
 * (quoted or not, its blanks collapsed or not): a header, then a row of
 * a known statistic, with percentages, or a monitor's; lkp's tables
 * have none of these.
 */
static int mmtests_table_detect(const char *path, const char *head, size_t len)
{
	struct mmtests_table *t = xcalloc(1, sizeof(*t));
	char raw[LINE_CAP];
	size_t pos = 0;
	long lineno = 0;
	int found = 0;

	(void)path;
	while (pos < len && !found) {
		const char *nl = memchr(head + pos, '\n', len - pos);
		size_t full = nl ? (size_t)(nl - head - pos) : len - pos;
		size_t l = full < sizeof(raw) ? full : sizeof(raw) - 1;

		memcpy(raw, head + pos, l);
		raw[l] = '\0';
		pos += full + 1;
		found = mmtests_table_line(t, unquote(raw), ++lineno) > 0;
	}
	mmtests_table_free(t);
	return found ? 75 : 0;
}

const struct importer importer_mmtests_table = {
	.name = "mmtests-table",
	.family = "mmtests",
	.what = "MMTests compare-kernels/compare-mmtests tables "
		"(text, .eml, mbox, or the HTML report), Duration, Ops and "
		"monitor tables",
	.flags = IMP_FILES | IMP_VARIANTS | IMP_AGGREGATES | IMP_TEXT,
	.detect = mmtests_table_detect,
	.text_new = mmtests_table_text_new,
	.text_line = mmtests_table_text_line,
	.text_end = mmtests_table_text_end,
};
