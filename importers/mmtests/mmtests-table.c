/*
 * The mmtests-table importer: MMTests' comparison tables as people post
 * and keep them — compare-mmtests.pl / compare-kernels.sh text output of
 * every era (2013-2026), and the tables of compare-kernels' HTML report.
 * Each cell (a row's statistic and operation, one run column) becomes
 * one aggregate, labelled with the column's full run name.
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
#include <ctype.h>

#define LINE_CAP 8192
#define MAX_TOKENS 1024
#define MAX_COLS 256
/* title, its underline, a sub-heading and two header lines */
#define HIST 5
/* steps of the fused-header search before it gives up */
#define SPLIT_BUDGET 100000

struct token {
	const char *s;
	size_t end;		/* column just past it, in the line */
};

/* A line since the last blank one: a header or title candidate. */
struct hline {
	char text[LINE_CAP];
	long lineno;
	int indented;
};

struct cell {
	double value;
	double half;		/* the value's rounding */
	int has_pct;
	double pct;
	int starred;
	size_t end;		/* where its last token ends, in the line */
};

struct mmtests_table {
	struct import_ctx *ctx;	/* NULL: detect only, nothing emitted */
	int in_table;
	int pct;		/* the table's rows print percentages */
	int labelless;		/* its rows have no statistic label */
	size_t vs;		/* where its first value starts; 0: unknown */
	char why[192];		/* set: its names did not read, rows skipped */
	struct hline hist[HIST];	/* a ring: lines since the last blank */
	size_t hist_first, nr_hist;
	char row[LINE_CAP];	/* the row being read, split */
	struct token tok[MAX_TOKENS];
	char hbuf[2][LINE_CAP];	/* the header lines, split */
	struct token htok[2][MAX_TOKENS];
	size_t hn[2];
	char *bench;		/* owned: the benchmark's name, or NULL */
	char *sub;		/* owned: the table's sub-heading, or NULL */
	/*
	 * owned, or NULL: the benchmark of the last table that had one, and
	 * that table's run names joined by '\n'
	 */
	char *owner, *owner_names;
	char *names[MAX_COLS];	/* owned: the run names of the table */
	char *kernels[MAX_COLS];	/* owned, or NULL: not a version */
	size_t nr_cols;
	/* owned, NULL when blank: the last two-line header's cells */
	char *upper[MAX_COLS], *lower[MAX_COLS];
	size_t nr_cells;
	struct strmap warned;	/* labels warned about */
};

static void free_cells(char **cells, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(cells[i]);
		cells[i] = NULL;
	}
}

static void free_columns(struct mmtests_table *t)
{
	free_cells(t->names, t->nr_cols);
	free_cells(t->kernels, t->nr_cols);
	t->nr_cols = 0;
}

static void mmtests_table_free(struct mmtests_table *t)
{
	if (!t)
		return;
	free_columns(t);
	free_cells(t->upper, t->nr_cells);
	free_cells(t->lower, t->nr_cells);
	free(t->bench);
	free(t->sub);
	free(t->owner);
	free(t->owner_names);
	strmap_clear(&t->warned);
	free(t);
}

/* Split s (modified) at blanks; returns the count, MAX_TOKENS + 1 if more. */
static size_t tokenize(char *s, struct token *tok)
{
	char *start = s;
	size_t n = 0;

	while (*s) {
		while (isspace((unsigned char)*s))
			*s++ = '\0';
		if (!*s)
			break;
		if (n == MAX_TOKENS)
			return MAX_TOKENS + 1;
		tok[n].s = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		tok[n++].end = (size_t)(s - start);
	}
	return n;
}

/* Where a token starts in its line. */
static size_t tok_start(const struct token *tok)
{
	return tok->end - strlen(tok->s);
}

/* A value as MMTests prints them: "%.2f" (or more decimals); finite. */
static int number(const char *s, double *out)
{
	return str_to_double(s, out) == 0 && isfinite(*out);
}

/* A cell of a monitor table: a number, or "56%" (2013's efficiencies). */
static int monitor_value(const char *s, double *out)
{
	char buf[64];
	size_t len = strlen(s);

	if (number(s, out))
		return 1;
	if (len < 2 || len >= sizeof(buf) || s[len - 1] != '%')
		return 0;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	return number(buf, out);
}

static int integer(const char *s)
{
	if (!*s)
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

/* Half a unit of the last printed decimal of a number token. */
static double half_unit(const char *s)
{
	const char *dot = strchr(s, '.');
	size_t dec = 0;

	if (dot)
		while (isdigit((unsigned char)dot[1 + dec]))
			dec++;
	return 0.5 * pow(10, -(double)dec);
}

static int is_pct_token(const char *s)
{
	return ends_with(s, "%)") || ends_with(s, "%*");
}
/*
 * Statistic labels of every era (see the top of the file); "Duration",
 * "Ops" and the single-value modules' labels of 2020 (Lat, MB/sec,
 * Percentage) too.
 */
static int known_label(const char *s)
{
	static const char *const exact[] = {
		"Min", "Max", "Mean", "Amean", "Hmean", "Gmean", "Stddev",
		"HStddev", "GStddev", "CoeffVar", "HCoeffVar", "Coeff",
		"1st-qrtle", "2nd-qrtle", "3rd-qrtle", "SubAmean", "SubHmean",
		"Samples", "Duration", "Ops", "Lat", "MB/sec", "Percentage",
	};
	static const char *const prefixed[] = {
		/* then a number */
		"Max-", "BAmean-", "BHmean-", "BAmean.", "BHmean.", "Pct.",
		"Pctile.", "Best",
	};
	static const char *const ci[] = {
		"AmeanCI", "HmeanCI", "SubAmeanCI", "SubHmeanCI",
	};
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(s, exact[i]))
			return 1;
	for (i = 0; i < ARRAY_SIZE(ci); i++) {
		size_t len = strlen(ci[i]);

		if (!strncmp(s, ci[i], len) &&
		    (!s[len] || !strcmp(s + len, "-Low") ||
		     !strcmp(s + len, "-High")))
			return 1;
	}
	for (i = 0; i < ARRAY_SIZE(prefixed); i++) {
		const char *p = s + strlen(prefixed[i]);

		if (!starts_with(s, prefixed[i]) || !isdigit((unsigned char)*p))
			continue;
		k = 0;
		while (isdigit((unsigned char)p[k]) || p[k] == '.')
			k++;
		/* "Max-90%", "Best95%Amean", "Best95%Hmean" */
		if (!p[k] || (!strcmp(p + k, "%") && i == 0))
			return i != ARRAY_SIZE(prefixed) - 1;
		if (i == ARRAY_SIZE(prefixed) - 1 &&
		    (!strcmp(p + k, "%Amean") || !strcmp(p + k, "%Hmean")))
			return 1;
	}
	return 0;
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

/*
 * A run name's kernel part (up to its first '-', or past "-rcN") when
 * it looks like a kernel version: "5.3.0-rc3", "6.1", "v6.8".  NULL if
 * not ("june03", "TEST_RUN"); the caller frees.
 */
static char *kernel_of(const char *name)
{
	const char *p = name, *dash = strchr(name, '-');
	size_t len = dash ? (size_t)(dash - name) : strlen(name);
	size_t i = 0, dots = 0;

	if (dash && starts_with(dash, "-rc") && isdigit((unsigned char)dash[3])) {
		len += 3;
		while (isdigit((unsigned char)name[len]))
			len++;
	}
	if (*p == 'v')
		i++;
	if (!isdigit((unsigned char)p[i]))
		return NULL;
	for (; i < len; i++) {
		if (p[i] == '-')
			break;
		if (p[i] == '.')
			dots++;
		else if (!isdigit((unsigned char)p[i]))
			return NULL;
	}
	if (!dots)
		return NULL;
	return xstrndup(name, len);
}


/* The run name of a column from its two header cells (NULL: blank). */
static char *run_name(const char *upper, const char *lower)
{
	size_t ul, ll;

	if (!lower)
		return xstrdup(upper);
	if (!upper)
		return xstrdup(lower);
	ul = strlen(upper);
	ll = strlen(lower);
	/* a name without '-': itself minus its last character over itself */
	if (ll == ul + 1 && starts_with(lower, upper) && !strchr(lower, '-'))
		return xstrdup(lower);
	return xstrfmt("%s-%s", upper, lower);
}

/* The fields ExtractPft of 2013 printed in the label's place. */
static int pft_field(const char *s)
{
	static const char *const fields[] = {
		"User", "System", "Elapsed", "Faults/cpu", "Faults/sec",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (!strcmp(s, fields[i]))
			return 1;
	return 0;
}

/* Line i of the lines since the last blank one (0: the oldest). */
static struct hline *hist_at(struct mmtests_table *t, size_t i)
{
	return &t->hist[(t->hist_first + i) % HIST];
}

/* The columns, named from the cells of one or two header lines. */
static void set_columns(struct mmtests_table *t, const char *const *upper,
			const char *const *lower, size_t ncols)
{
	size_t i;

	free_columns(t);
	for (i = 0; i < ncols; i++) {
		t->names[i] = run_name(upper ? upper[i] : NULL, lower[i]);
		t->kernels[i] = kernel_of(t->names[i]);
	}
	t->nr_cols = ncols;
}

/* Keep the two-line header's cells for the tables that follow. */
static void keep_cells(struct mmtests_table *t, const char *const *upper,
		       const char *const *lower, size_t ncols)
{
	size_t i;

	free_cells(t->upper, t->nr_cells);
	free_cells(t->lower, t->nr_cells);
	for (i = 0; i < ncols; i++) {
		t->upper[i] = upper[i] ? xstrdup(upper[i]) : NULL;
		t->lower[i] = lower[i] ? xstrdup(lower[i]) : NULL;
	}
	t->nr_cells = ncols;
}

/*
 * The shorter header line's cells paired with the longer one's where
 * they end (right alignment), each in its own field: it starts after the
 * cell before its partner ends, or it is two names fused.  1 if all pair.
 */
static int pair_by_ends(struct mmtests_table *t, const char **cell[2])
{
	size_t more = t->hn[0] >= t->hn[1] ? 0 : 1, i, k = 0;
	struct token *lng = t->htok[more], *sht = t->htok[!more];

	for (i = 0; i < t->hn[more]; i++) {
		cell[more][i] = lng[i].s;
		cell[!more][i] = NULL;
		if (k < t->hn[!more] && sht[k].end == lng[i].end &&
		    (!i || tok_start(&sht[k]) >= lng[i - 1].end))
			cell[!more][i] = sht[k++].s;
	}
	return k == t->hn[!more];
}

/*
 * Cutting a fused lower header line into MMTests' printf fields: each
 * field is w wide, a name right-aligned in it (blanks, then the name),
 * or a name longer than w printed whole up to the next blank.  cut[i]
 * is where field i starts; a solution is one that ends at the line's end.
 */
struct fields {
	const char *s;
	size_t len, w, ncols;
	size_t cut[MAX_COLS + 1], best[MAX_COLS + 1];
	int found;		/* solutions, counted up to 2 */
	long budget;
};

static void fields_from(struct fields *f, size_t i, size_t p)
{
	size_t q;

	if (f->found > 1 || f->budget-- <= 0)
		return;
	f->cut[i] = p;
	if (i == f->ncols) {
		if (p == f->len && !f->found++)
			memcpy(f->best, f->cut, sizeof(f->cut));
		return;
	}
	/*
	 * a name of exactly w touching the next one could end anywhere in
	 * what they print: only a padded name ends at a known place
	 */
	if (p + f->w <= f->len && (isspace((unsigned char)f->s[p]) ||
				   p + f->w == f->len ||
				   isspace((unsigned char)f->s[p + f->w]))) {
		for (q = p; q < p + f->w && isspace((unsigned char)f->s[q]); q++)
			;
		while (q < p + f->w && !isspace((unsigned char)f->s[q]))
			q++;
		if (q == p + f->w)
			fields_from(f, i + 1, p + f->w);
	}
	for (q = p; q < f->len && !isspace((unsigned char)f->s[q]); q++)
		;
	if (q - p > f->w)
		fields_from(f, i + 1, q);
}

/*
 * The lower header line text (its cells fused) cut into ncols names at
 * the fields the upper line's evenly spaced cell ends give, into
 * lower[] (xstrndup, NULL where blank).  The first row's cells must end
 * where the upper line's do, as MMTests prints them: when an archive
 * collapsed the blanks, the positions cut names anywhere.  1 if exactly
 * one cut fits.
 */
static int split_fused(struct mmtests_table *t, const char *text,
		       const struct cell *cell, char **lower, size_t ncols)
{
	struct token *up = t->htok[0];
	struct fields *f;
	size_t i, w, start;
	int ok = 0;

	if (ncols < 2 || t->hn[0] != ncols || up[1].end <= up[0].end)
		return 0;
	w = up[1].end - up[0].end;
	for (i = 0; i < ncols; i++)
		if ((i && up[i].end - up[i - 1].end != w) ||
		    cell[i].end != up[i].end)
			return 0;
	if (up[0].end < w)
		return 0;
	start = up[0].end - w;
	for (i = 0; i < start && text[i]; i++)
		if (!isspace((unsigned char)text[i]))
			return 0;
	f = xcalloc(1, sizeof(*f));
	f->s = text;
	f->len = strlen(text);
	f->w = w;
	f->ncols = ncols;
	f->budget = SPLIT_BUDGET;
	if (start <= f->len)
		fields_from(f, 0, start);
	if (f->found == 1) {
		for (i = 0; i < ncols; i++) {
			size_t a = f->best[i], b = f->best[i + 1];

			while (a < b && isspace((unsigned char)text[a]))
				a++;
			lower[i] = a < b ? xstrndup(text + a, b - a) : NULL;
		}
		ok = 1;
	}
	free(f);
	return ok;
}

/* tok[from..to) into sb, sep (or nothing, '\0') between. */
static void join_tokens(struct sbuf *sb, const struct token *tok,
			size_t from, size_t to, char sep)
{
	size_t i;

	for (i = from; i < to; i++) {
		if (i > from && sep)
			sbuf_addch(sb, sep);
		sbuf_addstr(sb, tok[i].s);
	}
}

/*
 * The previous two-line header of the text, when this one has its upper
 * cells and the same letters in its lower line (blanks collapsed, two
 * names fused).  1 if it is.
 */
static int same_as_before(struct mmtests_table *t, size_t ncols)
{
	struct sbuf now = SBUF_INIT, then = SBUF_INIT;
	size_t i;
	int ok;

	if (t->nr_cells != ncols || t->hn[0] != ncols)
		return 0;
	for (i = 0; i < ncols; i++)
		if (!t->upper[i] || strcmp(t->upper[i], t->htok[0][i].s))
			return 0;
	join_tokens(&now, t->htok[1], 0, t->hn[1], '\0');
	for (i = 0; i < ncols; i++)
		if (t->lower[i])
			sbuf_addstr(&then, t->lower[i]);
	ok = !strcmp(now.buf, then.buf);
	sbuf_release(&now);
	sbuf_release(&then);
	return ok;
}

/*
 * The run names from a two-line header (split in htok), text the lower
 * line as printed, cell the first row's.  0, or -1 with t->why saying
 * why not.
 */
static int names_two(struct mmtests_table *t, const char *text,
		     const struct cell *cell, size_t ncols)
{
	const char *cells[2][MAX_COLS], **pair[2] = { cells[0], cells[1] };
	char *fused[MAX_COLS];
	size_t nu = t->hn[0], nl = t->hn[1], i;

	if (nu == ncols && nl == ncols) {
		for (i = 0; i < ncols; i++) {
			cells[0][i] = t->htok[0][i].s;
			cells[1][i] = t->htok[1][i].s;
		}
	} else if ((nu > nl ? nu : nl) == ncols && pair_by_ends(t, pair)) {
		;
	} else if (nu == ncols && nl < ncols &&
		   split_fused(t, text, cell, fused, ncols)) {
		for (i = 0; i < ncols; i++)
			cells[0][i] = t->htok[0][i].s;
		set_columns(t, cells[0], (const char *const *)fused, ncols);
		keep_cells(t, cells[0], (const char *const *)fused, ncols);
		free_cells(fused, ncols);
		return 0;
	} else if (same_as_before(t, ncols)) {
		set_columns(t, (const char *const *)t->upper,
			    (const char *const *)t->lower, ncols);
		return 0;
	} else if (nu == ncols && nl < ncols) {
		snprintf(t->why, sizeof(t->why), "the lower header line has "
			 "%zu name%s for %zu columns, and which is whose "
			 "cannot be told (blanks collapsed or names touching, "
			 "no earlier table of these runs)", nl,
			 nl == 1 ? "" : "s", ncols);
		return -1;
	} else {
		snprintf(t->why, sizeof(t->why), "the two header lines do not "
			 "line up (%zu and %zu names, and their cells end in "
			 "different places, for %zu columns)", nu, nl, ncols);
		return -1;
	}
	set_columns(t, cells[0], cells[1], ncols);
	keep_cells(t, cells[0], cells[1], ncols);
	return 0;
}

/*
 * Cut text (a header line) into pieces at runs of two or more blanks,
 * into buf (modified copy), at most MAX_COLS.  Returns the count.
 */
static size_t split_wide(const char *text, char *buf, char **piece)
{
	size_t n = 0;
	char *p = buf;

	memcpy(buf, text, strlen(text) + 1);
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (n == MAX_COLS)
			return MAX_COLS + 1;
		piece[n++] = p;
		/* a tab, or two blanks: the gap between two cells */
		while (*p && *p != '\t' &&
		       !(*p == ' ' && isspace((unsigned char)p[1])))
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/*
 * The header tokens grouped into names: a group ends at a token that
 * ends where a cell of the first row does (bycell), or where its
 * parentheses and quotes are closed (!bycell).  Each group is its text
 * as printed, into piece[] (xstrndup).  Returns the count of groups.
 */
static size_t group_tokens(const struct token *tok, size_t n,
			   const char *text, const struct cell *cell,
			   size_t ncols, int bycell, char **piece)
{
	size_t i, first = 0, g = 0, c = 0;
	int depth = 0, quote = 0;

	for (i = 0; i < n; i++) {
		const char *s;
		int close;

		for (s = tok[i].s; *s; s++) {
			if (*s == '"')
				quote = !quote;
			else if (!quote && (*s == '(' || *s == '['))
				depth++;
			else if (!quote && (*s == ')' || *s == ']') && depth)
				depth--;
		}
		if (bycell)
			close = c < ncols && tok[i].end == cell[c].end;
		else
			close = !depth && !quote;
		if (!close && i + 1 < n)
			continue;
		if (g == ncols || (!close && bycell)) {
			free_cells(piece, g);
			return ncols + 1;
		}
		piece[g++] = xstrndup(text + tok_start(&tok[first]),
				      tok[i].end - tok_start(&tok[first]));
		first = i + 1;
		c++;
	}
	return g;
}

/*
 * The run names from a one-line header (split in htok[0]; text as
 * printed), the first row's cells giving where columns end.  0, or -1
 * with t->why saying why not.
 */
static int names_one(struct mmtests_table *t, const char *text,
		     const struct cell *cell, size_t ncols)
{
	char buf[LINE_CAP], *piece[MAX_COLS + 1];
	const char *name[MAX_COLS];
	size_t n = t->hn[0], i, k;
	int how;

	if (n == ncols) {
		for (i = 0; i < ncols; i++)
			name[i] = t->htok[0][i].s;
		set_columns(t, NULL, name, ncols);
		return 0;
	}
	if (n > ncols && split_wide(text, buf, piece) == ncols) {
		set_columns(t, NULL, (const char *const *)piece, ncols);
		return 0;
	}
	for (how = 1; n > ncols && how >= 0; how--) {
		k = group_tokens(t->htok[0], n, text, cell, ncols, how, piece);
		if (k > ncols)
			continue;
		if (k == ncols)
			set_columns(t, NULL, (const char *const *)piece, ncols);
		free_cells(piece, k);
		if (k == ncols)
			return 0;
	}
	snprintf(t->why, sizeof(t->why), "the header names %zu runs, the "
		"rows have %zu columns", n, ncols);
	return -1;
}

/*
 * Take a "(pct%)" or "*pct%*" off the end of tok[0..*i): 1 and *i moved
 * before it, or 0.
 */
static int take_pct(const struct token *tok, size_t *i, struct cell *c)
{
	char buf[64];
	const char *s;
	size_t len, used = 1;
	char opener;

	if (!*i || !is_pct_token(tok[*i - 1].s))
		return 0;
	s = tok[*i - 1].s;
	len = strlen(s);
	opener = s[len - 1] == ')' ? '(' : '*';
	if (s[0] == opener) {
		s++;
		len--;
	} else if (*i >= 2 && tok[*i - 2].s[0] == opener &&
		   !tok[*i - 2].s[1]) {
		used = 2;
	} else {
		return 0;
	}
	if (len < 3 || len - 2 >= sizeof(buf))
		return 0;
	memcpy(buf, s, len - 2);
	buf[len - 2] = '\0';
	if (!number(buf, &c->pct))
		return 0;
	c->has_pct = 1;
	c->starred = opener == '*';
	*i -= used;
	return 1;
}

/* A token that was meant as a number: "12.5x", "-nan", ".5e". */
static int numberish(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return isdigit((unsigned char)*s) || *s == '.' ||
	       !strcasecmp(s, "nan") || !strcasecmp(s, "inf");
}

/*
 * Read ncols cells off the end of tok[0..n): pct says each has a
 * percentage, labelless that only the operation is before them (else a
 * label and the operation).  *rest receives the count of tokens before
 * them.  0, or -1 with why (cap bytes) saying why the row does not read.
 */
static int read_cells(const struct token *tok, size_t n, size_t ncols,
		      int pct, int labelless, struct cell *cell, size_t *rest,
		      char *why, size_t cap)
{
	size_t i = n, c, need = labelless ? 1 : 2;
	double dummy;

	for (c = ncols; c-- > 0;) {
		struct cell *x = &cell[c];
		int ok;

		memset(x, 0, sizeof(*x));
		if (i)
			x->end = tok[i - 1].end;
		if (pct && !take_pct(tok, &i, x))
			goto misaligned;
		if (i < need + 1)
			goto misaligned;
		ok = pct ? number(tok[i - 1].s, &x->value) :
			   monitor_value(tok[i - 1].s, &x->value);
		if (!ok) {
			if (!pct && !numberish(tok[i - 1].s))
				goto misaligned;
			snprintf(why, cap, "'%s' is not a number",
				 tok[i - 1].s);
			return -1;
		}
		x->half = half_unit(tok[i - 1].s);
		i--;
	}
	if (i < need || (pct && is_pct_token(tok[i - 1].s)))
		goto misaligned;
	/* an operation of several words does not end in a number */
	if (!pct && i > need && monitor_value(tok[i - 1].s, &dummy))
		goto misaligned;
	*rest = i;
	return 0;
misaligned:
	snprintf(why, cap, "expected '%s' and %zu columns of values%s, as "
		"in the header", labelless ? "<operation>" :
		"<statistic> <operation>", ncols, pct ? " with '(N%)'" : "");
	return -1;
}

static double pdiff(double v, double b)
{
	return 100 * v / b - 100;
}

/*
 * Is the printed percentage MMTests' pdiff or pndiff of v against b,
 * given that both were rounded as printed (research/mmtests.md §1.4)?
 */
static int pct_fits(const struct cell *base, const struct cell *x)
{
	double b = base->value, v = x->value, p = x->pct;
	double lo = INFINITY, hi = -INFINITY;
	double tol = 0.005 + 1e-9;
	int i;

	if (v == b || v == 0 || b == 0) {
		/* the special cases of both: 0, 100 and -99 */
		if (fabs(p) <= tol || fabs(p - 100) <= tol ||
		    fabs(p + 99) <= tol)
			return 1;
	}
	if (fabs(b) <= base->half)
		return 1;	/* rounded to nothing: anything goes */
	for (i = 0; i < 4; i++) {
		double vv = v + (i & 1 ? x->half : -x->half);
		double bb = b + (i & 2 ? base->half : -base->half);
		double d = pdiff(vv, bb);

		lo = fmin(lo, d);
		hi = fmax(hi, d);
	}
	return (p >= lo - tol && p <= hi + tol) ||
	       (-p >= lo - tol && -p <= hi + tol);
}

/* The operations of the Duration monitor (2013 printed them alone). */
static int duration_op(const char *s)
{
	return !strcmp(s, "User") || !strcmp(s, "System") ||
	       !strcmp(s, "Elapsed");
}

/* Put a blank at dst[at] (dst a line, cap bytes); 0 if there is no room. */
static int insert_blank(char *dst, size_t at, size_t cap)
{
	size_t len = strlen(dst);

	if (len + 2 > cap)
		return 0;
	memmove(dst + at + 1, dst + at, len - at + 1);
	dst[at] = ' ';
	return 1;
}

/*
 * Where the value fused to the operation in dst[a..b) starts: at vs
 * (the first column's start, from the header; 0 if unknown) when a
 * number starts there, else where its digits start after a character
 * that ends no number ("meminfo.Active(anon)124223571.59").  0 if
 * neither: an operation ending in digits cannot be told from them.
 */
static size_t fused_value(const char *dst, size_t a, size_t b, size_t vs)
{
	char num[64];
	size_t p = b;
	double v;

	if (vs > a && vs < b && b - vs < sizeof(num)) {
		memcpy(num, dst + vs, b - vs);
		num[b - vs] = '\0';
		if (number(num, &v))
			return vs;
	}
	while (p > a && isdigit((unsigned char)dst[p - 1]))
		p--;
	if (p == b || p == a || dst[p - 1] != '.')
		return 0;
	p--;
	while (p > a && isdigit((unsigned char)dst[p - 1]))
		p--;
	if (p == a || isdigit((unsigned char)dst[p]) == 0 ||
	    strchr(".+-", dst[p - 1]))
		return 0;
	return p;
}

/*
 * MMTests prints a value wider than its field whole, touching what is
 * before it: the percentage of the column before ("(   0.00%)124572.41")
 * or, in the first column, the longest operation.  Into dst (cap bytes):
 * src with those blanks put back, after each percentage, and between the
 * operation and the first value when the row has nothing else between
 * its label and its first percentage (vs: see fused_value()).
 */
static void unfuse(const char *src, char *dst, size_t cap, size_t vs)
{
	size_t i, a, b, words = 0;
	char *pct, *q;

	snprintf(dst, cap, "%s", src);
	for (i = 1; dst[i]; i++)
		if (dst[i - 1] == '%' && (dst[i] == ')' || dst[i] == '*') &&
		    dst[i + 1] && !isspace((unsigned char)dst[i + 1]) &&
		    !insert_blank(dst, i + 1, cap))
			return;
	pct = strstr(dst, "%)");
	q = strstr(dst, "%*");
	if (!pct || (q && q < pct))
		pct = q;
	if (!pct)
		return;
	for (b = (size_t)(pct - dst); b && !strchr("(*", dst[b - 1]); b--)
		;
	if (!b--)
		return;
	while (b && isspace((unsigned char)dst[b - 1]))
		b--;
	for (a = b; a && !isspace((unsigned char)dst[a - 1]); a--)
		;
	for (i = 0; i < a; i++)
		words += !isspace((unsigned char)dst[i]) &&
			 (!i || isspace((unsigned char)dst[i - 1]));
	if (words != 1 || a == b)
		return;
	i = fused_value(dst, a, b, vs);
	if (i)
		insert_blank(dst, i, cap);
}

/*
 * A row of the current table: one aggregate per column, or a skipped
 * row.  0, or -1 after error() (with --strict, a row that does not read).
 */
static int table_row(struct mmtests_table *t, const char *line, long lineno)
{
	struct token *tok = t->tok;
	struct cell cell[MAX_COLS];
	struct sbuf op = SBUF_INIT, metric = SBUF_INIT, words = SBUF_INIT;
	size_t n, rest = 0, c, ncols = t->nr_cols;
	const char *label;
	char why[192];
	int known = 1, ret = -1;
	int64_t seen;

	if (t->why[0])
		return db_skip_row(t->ctx, lineno, line, "%s", t->why);
	unfuse(line, t->row, sizeof(t->row), t->pct ? t->vs : 0);
	n = tokenize(t->row, tok);
	if (n > MAX_TOKENS)
		return db_skip_row(t->ctx, lineno, line, "more than %d fields",
				   MAX_TOKENS);
	if (read_cells(tok, n, ncols, t->pct, t->labelless, cell, &rest, why,
		       sizeof(why)))
		return db_skip_row(t->ctx, lineno, line, "%s", why);
	if (t->sub)
		sbuf_addf(&op, "%s-", t->sub);
	if (t->labelless) {
		join_tokens(&words, tok, 0, rest, ' ');
		label = duration_op(words.buf) ? "Duration" : "Ops";
		sbuf_addstr(&op, words.buf);
	} else if (t->pct && rest == 2 && !known_label(tok[0].s) &&
		   pft_field(tok[0].s) && integer(tok[1].s)) {
		label = "Mean";
		sbuf_addf(&op, "%s-%s", tok[0].s, tok[1].s);
	} else {
		label = tok[0].s;
		join_tokens(&op, tok, 1, rest, ' ');
		known = known_label(label);
	}
	if (t->bench)
		sbuf_addf(&metric, "%s.", t->bench);
	sbuf_addstr(&metric, op.buf);
	if (!known && !strmap_get(&t->warned, label, strlen(label), &seen)) {
		strmap_put(&t->warned, label, strlen(label), 1);
		db_warn(t->ctx, lineno, "unknown statistic '%s': kept as "
			"printed", label);
	}
	for (c = 0; c < ncols; c++) {
		struct agg_desc a;
		char pct[64];

		memset(&a, 0, sizeof(a));
		/*
		 * the percentage as printed (two decimals), against run 0;
		 * "" when the table printed none (Duration, Ops, monitors)
		 */
		if (c) {
			snprintf(pct, sizeof(pct), "%.2f%%", cell[c].pct);
			a.change_source = cell[c].has_pct ? pct : "";
			a.change_base = t->names[0];
		}
		a.suite = "mmtests";
		a.testcase = t->bench;
		a.label = t->names[c];
		a.kernel = t->kernels[c];
		a.metric = metric.buf;
		a.stat = label;
		a.value = cell[c].value;
		a.stddev = NAN;
		a.n = -1;
		a.marker = cell[c].starred ? "*" : NULL;
		if (db_emit_aggregate(t->ctx, &a, lineno))
			goto out;
		if (!known || !cell[c].has_pct)
			continue;
		if (c == 0 ? fabs(cell[0].pct) > 0.005 :
			     !pct_fits(&cell[0], &cell[c]))
			db_warn(t->ctx, lineno, "'%s %s' of '%s': the printed "
				"%.2f%% does not follow from %g against %g",
				label, op.buf, t->names[c], cell[c].pct,
				cell[c].value, cell[0].value);
	}
	db_table_row(t->ctx);
	ret = 0;
out:
	sbuf_release(&op);
	sbuf_release(&metric);
	sbuf_release(&words);
	return ret;
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
	if (t->pct)
		return is_pct_token(last) ||
		       (known_label(first) && (number(last, &v) ||
					       !strcmp(last, "(") ||
					       !strcmp(last, "*")));
	if (t->labelless)
		return monitor_value(last, &v) &&
		       isalpha((unsigned char)first[0]);
	return monitor_value(last, &v) || known_label(first);
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
	if (!alpha || known_label(w))
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
	t->hn[k] = tokenize(t->hbuf[k], t->htok[k]);
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
	return !strchr(".,:;!?", s[len - 1]) && !known_label(first) &&
	       !(isalpha((unsigned char)first[0]) && monitor_value(last, &v));
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
		char *k = kernel_of(u);

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

	unfuse(line, t->row, sizeof(t->row), 0);
	n = tokenize(t->row, tok);
	if (n < 2 || n > MAX_TOKENS)
		return 0;
	pct = is_pct_token(tok[n - 1].s);
	if (pct) {
		/* one percentage per column, whatever else is wrong */
		for (i = 0; i < n; i++)
			ncols += is_pct_token(tok[i].s);
	} else {
		while (ncols + 1 < n && monitor_value(tok[n - 1 - ncols].s, &v))
			ncols++;
		if (!ncols)
			return 0;
		if (known_label(tok[0].s)) {
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
	reads = !read_cells(tok, n, ncols, pct, labelless, cell, &rest, why,
			    sizeof(why));
	/* a row that does not read starts a table only as a statistic's */
	if (!reads && !(pct && known_label(tok[0].s)))
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
	free_columns(t);
	/*
	 * a table whose names do not read is one when its rows are
	 * MMTests' for sure; else it may be prose that ends in numbers
	 */
	if ((lines == 2 ? names_two(t, h1->text, cell, ncols) :
			  names_one(t, h1->text, cell, ncols)) &&
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
		free_columns(t);
	t->nr_cols = ncols;
	return table_row(t, line, lineno) ? -1 : 1;
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
			return table_row(t, s, lineno);
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
