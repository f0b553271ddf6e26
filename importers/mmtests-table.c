/*
 * The mmtests-table importer: MMTests' comparison tables as people post
 * and keep them — compare-mmtests.pl / compare-kernels.sh text output of
 * every era, and the tables of compare-kernels' HTML report.  Each cell
 * (a row's statistic and operation, one run column) becomes one
 * aggregate, labelled with the column's full run name.
 *
 * How the format was worked out (research/mmtests.md §1.2-1.4, §2.1,
 * research/mmtests-2020-extractors.md §0.6-0.10, §9-11, and the HTML
 * report in samples/mmtests):
 *
 * - A table is a two-line header, then rows.  MMTests splits each run
 *   name at its first '-' (at the one after "-rcN" when the name goes on
 *   "-rc<digit>"): the first part in the upper line, the rest in the
 *   lower one, each right-aligned in the column.  So the name is
 *   "upper-lower"; a name of the form "5.3.0-rc3" alone leaves the lower
 *   cell blank (the name is the upper one), and a name without '-'
 *   prints as itself minus its last character over itself ("june0" over
 *   "june03": the name is the lower one).  Known ambiguity: a run really
 *   called "june0-june03" prints the same as "june03" and is read as
 *   "june03".  When a column is blank in one header line, the two lines
 *   are paired by where their cells end (right alignment); a table whose
 *   blanks an archive collapsed cannot be paired then, and is refused.
 * - A row is "<stat label> <operation> <value> [(<pct>%)]" per column.
 *   The label has no blanks; the operation may have some ("Ops Minor
 *   Faults", "Ops Kswapd efficiency %"), so rows are read from the right:
 *   the cells are counted off the end, the label is the first token and
 *   the operation all that is left, its blanks collapsed to one.  So a
 *   table whose runs of blanks were collapsed reads the same.
 * - The percentage is "(%7.2f%%)", or "*%7.2f%%*" where MMTests found
 *   the change significant: that star becomes the aggregate's marker
 *   "*".  It is MMTests' pdiff or pndiff of the value against the first
 *   column, depending on a direction the table does not print; it is
 *   checked against the values both ways (a warning when neither fits
 *   within the rounding of the printed numbers).  Monitor tables
 *   (Duration, Ops, "Amean sy") print no percentages at all.
 * - Labels changed over the years (§1.3): Mean/Stddev (2013),
 *   Max-90%/Best95%Amean/Coeff (before 2019-04), 1st-qrtle/Max-N/
 *   BAmean-N (2019-2026), Pct.N, then Pctile.N/BAmean.N (2026).  A label
 *   none of these patterns knows is kept as printed, with a warning.
 * - The line before the header may name the benchmark ("ebizzy",
 *   "pgbench Transactions"): its first word prefixes the operations
 *   ("ebizzy.total_rsec-4") and is the testcase, for that table and the
 *   Duration/Ops/monitor tables that follow it, until prose intervenes.
 *   Without one the operation alone is the metric.
 * - n is not printed: unknown.  The Stddev row is an aggregate of its
 *   own (stat "Stddev"), not the spread of the mean's.
 * - Not read: a value so wide that it touches the operation name (2020
 *   unixbench); such a row does not line up and is refused.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "importer.h"
#include "mmtests-table.h"
#include <ctype.h>

#define LINE_CAP 8192
#define MAX_TOKENS 1024
#define MAX_COLS 256

struct token {
	const char *s;
	size_t end;		/* column just past it, in the line */
};

struct header_line {
	char text[LINE_CAP];
	long lineno;
	int indented;
};

struct mmtests_table {
	struct import_ctx *ctx;
	int in_table;
	/* the last (up to) two adjacent lines: header candidates */
	struct header_line prev[2];
	int nr_prev;
	/* the header being read: both lines split into tokens */
	char hbuf[2][LINE_CAP];
	struct token htok[2][MAX_TOKENS];
	size_t hn[2];
	char row[LINE_CAP];	/* the row being read, split */
	struct token tok[MAX_TOKENS];
	char *bench;		/* owned: the benchmark's name, or NULL */
	char *pending;		/* owned: a title line not yet used */
	char *names[MAX_COLS];	/* owned: the run names of the table */
	char *kernels[MAX_COLS];	/* owned, or NULL: not a version */
	size_t nr_cols;
	struct strmap warned;	/* labels warned about */
	long last_line;
};

static void mmtests_table_init(struct mmtests_table **out, struct import_ctx *ctx)
{
	struct mmtests_table *t = xcalloc(1, sizeof(*t));

	t->ctx = ctx;
	*out = t;
}

static void free_columns(struct mmtests_table *t)
{
	size_t i;

	for (i = 0; i < t->nr_cols; i++) {
		free(t->names[i]);
		free(t->kernels[i]);
		t->names[i] = t->kernels[i] = NULL;
	}
	t->nr_cols = 0;
}

static void mmtests_table_free(struct mmtests_table *t)
{
	if (!t)
		return;
	free_columns(t);
	free(t->bench);
	free(t->pending);
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

/* A value as MMTests prints them: "%.2f" (or more decimals); finite. */
static int number(const char *s, double *out)
{
	return str_to_double(s, out) == 0 && isfinite(*out);
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

/*
 * Split the two lines above the first row, the header: its width (the
 * wider line's count of cells) in *ncols.  0 or -1 after error().
 */
static int split_header(struct mmtests_table *t, size_t *ncols)
{
	size_t i;

	for (i = 0; i < 2; i++) {
		memcpy(t->hbuf[i], t->prev[i].text, sizeof(t->hbuf[i]));
		t->hn[i] = tokenize(t->hbuf[i], t->htok[i]);
	}
	*ncols = t->hn[0] > t->hn[1] ? t->hn[0] : t->hn[1];
	if (*ncols > MAX_COLS)
		return error("%s:%ld: more than %d columns", t->ctx->path,
			     t->prev[0].lineno, MAX_COLS);
	return 0;
}

/*
 * The run names from the split header: the cells are paired in order,
 * or, when one line has a blank cell, by where they end.  0, or -1
 * after error().
 */
static int read_header(struct mmtests_table *t)
{
	size_t i, k = 0, more = t->hn[0] >= t->hn[1] ? 0 : 1;
	size_t *n = t->hn;

	free_columns(t);
	for (i = 0; i < n[more]; i++) {
		const char *cell[2];

		cell[more] = t->htok[more][i].s;
		if (n[0] == n[1])
			cell[!more] = t->htok[!more][i].s;
		else if (k < n[!more] &&
			 t->htok[!more][k].end == t->htok[more][i].end)
			cell[!more] = t->htok[!more][k++].s;
		else
			cell[!more] = NULL;
		t->names[i] = run_name(cell[0], cell[1]);
		t->kernels[i] = kernel_of(t->names[i]);
		t->nr_cols = i + 1;
	}
	if (n[0] != n[1] && k != n[!more])
		return error("%s:%ld: the two header lines do not line up "
			     "(%zu and %zu runs, and their cells end in "
			     "different places)", t->ctx->path,
			     t->prev[1].lineno, n[0], n[1]);
	return 0;
}

struct cell {
	double value;
	double half;		/* the value's rounding */
	int has_pct;
	double pct;
	int starred;
};

/*
 * Take a "(pct%)" or "*pct%*" off the end of tok[0..*i): 1 and *i moved
 * before it, or 0.
 */
static int take_pct(struct token *tok, size_t *i, struct cell *c)
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
 * Read the cells of a row off its end.  *rest receives the number of
 * tokens before them (label and operation).  0, or -1 after error().
 */
static int row_cells(struct mmtests_table *t, struct token *tok, size_t n,
		     size_t ncols, struct cell *cell, size_t *rest,
		     long lineno)
{
	int pct_row = n && is_pct_token(tok[n - 1].s);
	size_t i = n, c;
	double dummy;

	for (c = ncols; c-- > 0;) {
		struct cell *x = &cell[c];

		memset(x, 0, sizeof(*x));
		if (pct_row && !take_pct(tok, &i, x))
			goto misaligned;
		if (i < 3)	/* a value, and a label and operation before */
			goto misaligned;
		if (!number(tok[i - 1].s, &x->value)) {
			if (pct_row || numberish(tok[i - 1].s))
				return error("%s:%ld: '%s' is not a number",
					     t->ctx->path, lineno,
					     tok[i - 1].s);
			goto misaligned;
		}
		x->half = half_unit(tok[i - 1].s);
		i--;
	}
	if (i < 2)
		goto misaligned;
	if (pct_row && is_pct_token(tok[i - 1].s))
		goto misaligned;
	/* an operation of several words does not end in a number */
	if (!pct_row && i > 2 && number(tok[i - 1].s, &dummy))
		goto misaligned;
	*rest = i;
	return 0;
misaligned:
	return error("%s:%ld: expected '<statistic> <operation>' and %zu "
		     "columns of values%s, as in the header", t->ctx->path,
		     lineno, ncols, pct_row ? " with '(N%)'" : "");
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

/* A row of the table (first: the one under the header).  0 or -1. */
static int table_row(struct mmtests_table *t, const char *line, long lineno,
		     int first)
{
	struct token *tok = t->tok;
	struct cell cell[MAX_COLS];
	struct sbuf op = SBUF_INIT, metric = SBUF_INIT;
	size_t n, rest = 0, c, ncols = t->nr_cols;
	const char *label;
	int known, ret = -1;
	int64_t seen;

	memcpy(t->row, line, strlen(line) + 1);
	n = tokenize(t->row, tok);
	if (n > MAX_TOKENS)
		return error("%s:%ld: more than %d fields", t->ctx->path,
			     lineno, MAX_TOKENS);
	if (first && split_header(t, &ncols))
		return -1;
	if (row_cells(t, tok, n, ncols, cell, &rest, lineno))
		return -1;
	if (first && read_header(t))
		return -1;
	label = tok[0].s;
	for (c = 1; c < rest; c++) {
		if (c > 1)
			sbuf_addch(&op, ' ');
		sbuf_addstr(&op, tok[c].s);
	}
	if (t->bench)
		sbuf_addf(&metric, "%s.", t->bench);
	sbuf_addstr(&metric, op.buf);
	known = known_label(label);
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
	ret = 0;
out:
	sbuf_release(&op);
	sbuf_release(&metric);
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

/* A line that reads as a table row: a value or a percentage at its end. */
static int row_like(const char *s)
{
	char first[64], last[64];
	double v;

	return shape(s, first, last, sizeof(first)) >= 3 &&
	       (is_pct_token(last) || number(last, &v));
}

/* The first row under a header: a statistic we know, or percentages. */
static int starts_table(const char *s)
{
	char first[64], last[64];
	double v;

	if (shape(s, first, last, sizeof(first)) < 3)
		return 0;
	return is_pct_token(last) || (known_label(first) && number(last, &v));
}

/*
 * compare-kernels' title line over a benchmark's tables: "ebizzy",
 * "pgbench Transactions", "thpscale Fault Latencies".  Its first word
 * (a benchmark name's characters, a letter among them) into name.
 */
static int title(const char *s, char *name, size_t cap)
{
	char last[64];
	size_t n = shape(s, name, last, cap), i, alpha = 0;

	if (!n || n > 4 || strchr(":.,;!?)", s[strlen(s) - 1]))
		return 0;
	for (i = 0; name[i]; i++) {
		if (isalpha((unsigned char)name[i]))
			alpha = 1;
		else if (!isdigit((unsigned char)name[i]) &&
			 !strchr("_.+-", name[i]))
			return 0;
	}
	return alpha && !known_label(name);
}

/*
 * A line as the parser sees it: HTML rows turned into text, trailing
 * blanks gone, *indented set for header lines (a leading blank in text,
 * <th> cells in HTML).  0, or -1 when it is too long.
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
	if (from_html(line, &header))
		*indented = header;
	else
		*indented = line[0] == ' ' || line[0] == '\t';
	return 0;
}

static int mmtests_table_line(struct mmtests_table *t, const char *raw,
		       long lineno)
{
	char line[LINE_CAP], name[64];
	const char *s;
	int indented;
	struct header_line *h;

	t->last_line = lineno;
	if (prepare(line, raw, &indented)) {
		if (t->in_table)
			return error("%s:%ld: a table row of more than %d "
				     "bytes", t->ctx->path, lineno, LINE_CAP);
		t->nr_prev = 0;		/* prose, too long to matter */
		return 0;
	}
	s = line;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s) {
		t->in_table = 0;
		t->nr_prev = 0;
		return 0;
	}
	if (t->in_table) {
		if (!indented && row_like(s))
			return table_row(t, s, lineno, 0);
		t->in_table = 0;
		t->nr_prev = 0;
	}
	if (!indented && t->nr_prev == 2 && t->prev[0].indented &&
	    t->prev[1].indented && starts_table(s)) {
		if (t->pending) {
			free(t->bench);
			t->bench = t->pending;
			t->pending = NULL;
		}
		t->in_table = 1;
		t->nr_prev = 0;
		return table_row(t, s, lineno, 1);
	}
	if (t->nr_prev == 2) {
		t->prev[0] = t->prev[1];
		t->nr_prev = 1;
	}
	h = &t->prev[t->nr_prev++];
	memcpy(h->text, line, strlen(line) + 1);
	h->lineno = lineno;
	h->indented = indented;
	if (indented)
		return 0;
	free(t->pending);
	t->pending = NULL;
	if (title(s, name, sizeof(name))) {
		t->pending = xstrdup(name);
	} else {
		/* prose: the tables below are not this benchmark's */
		free(t->bench);
		t->bench = NULL;
	}
	return 0;
}

static int mmtests_table_finish(struct mmtests_table *t)
{
	(void)t;
	return 0;
}

void *mmtests_table_text_new(struct import_ctx *ctx)
{
	struct mmtests_table *t;

	mmtests_table_init(&t, ctx);
	return t;
}

int mmtests_table_text_line(void *p, const char *line, long lineno)
{
	return mmtests_table_line(p, line, lineno);
}

int mmtests_table_text_end(void *p, int finish)
{
	int ret = finish ? mmtests_table_finish(p) : 0;

	mmtests_table_free(p);
	return ret;
}

/*
 * Scores 75 when the head holds a table's start as the parser reads it:
 * two header lines, then a row of a known statistic or with
 * percentages; lkp's tables have neither.
 */
int mmtests_table_detect(const char *path, const char *head, size_t len)
{
	char line[LINE_CAP];
	char raw[LINE_CAP];
	int ind[2] = { 0, 0 }, nr = 0, indented;
	size_t pos = 0;

	(void)path;
	while (pos < len) {
		const char *nl = memchr(head + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - head - pos) : len - pos;
		const char *s;

		if (l >= sizeof(raw))
			l = sizeof(raw) - 1;
		memcpy(raw, head + pos, l);
		raw[l] = '\0';
		pos += l + 1;
		if (prepare(line, raw, &indented))
			continue;
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (!*s) {
			nr = 0;
			continue;
		}
		if (!indented && nr == 2 && ind[0] && ind[1] &&
		    starts_table(s))
			return 75;
		if (nr == 2) {
			ind[0] = ind[1];
			nr = 1;
		}
		ind[nr++] = indented;
	}
	return 0;
}

int mmtests_table_parse(struct import_ctx *ctx, struct input *in)
{
	return import_text_file(ctx, in, "mmtests-table");
}
