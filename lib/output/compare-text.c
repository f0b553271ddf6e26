/*
 * compare's text format: one table per new variant and testcase/params/
 * machine group: metric, base mean ± sd (n), new mean ± sd (n), %
 * change with its confidence interval, p, q, test, verdict; notes as
 * footnotes.  A table's cells are made, and laid out, half on each core
 * (grid.h).
 */
#include "core/compat.h"
#include "core/parallel.h"
#include "output/compare-rows.h"
#include "output/grid.h"

static const char *const head[] = {
	"METRIC", NULL, NULL, "CHANGE", NULL, "P", "Q", "TEST", "VERDICT",
};
/* The columns of head[] filled in by table_head() */
enum { COL_BASE = 1, COL_NEW = 2, COL_CI = 4 };
/* The right-aligned columns: CHANGE, the interval, P and Q. */
#define TEXT_RIGHT (0xfUL << 3)

/* Footnotes a text comparison numbers; notes past them get none. */
#define TEXT_NOTES_MAX 16

struct notes {
	const char *text[TEXT_NOTES_MAX];
	size_t nr;
};

/* Number of the footnote for text (1-based), added if new; 0 if full. */
static size_t note_ref(struct notes *n, const char *text)
{
	size_t i;

	/* notes are interned (compare.c): one text, one pointer */
	for (i = 0; i < n->nr; i++)
		if (n->text[i] == text)
			return i + 1;
	if (n->nr == ARRAY_SIZE(n->text))
		return 0;
	n->text[n->nr++] = text;
	return n->nr;
}

/* Row r's cells against variant v; ref: its footnote's number, or 0. */
static void text_row(struct grid *g, const struct comparison *c,
		     const struct cmp_row *r, size_t v, size_t ref)
{
	struct cfmt_row row;
	struct cfmt_vs x;
	struct sbuf *sb;

	cfmt_row_view(c, r, &row);
	cfmt_vs_view(c, r, v, &x);
	sb = grid_next(g);
	sbuf_addstr(sb, row.metric);
	if (row.unit)
		sbuf_addf(sb, " (%s)", row.unit);
	cfmt_add_side(grid_next(g), &row.base);
	cfmt_add_side(grid_next(g), &x.side);
	cmp_fmt_change(grid_next(g), &x);
	cfmt_add_ci(grid_next(g), &x);
	cmp_fmt_pval(grid_next(g), x.p);
	cmp_fmt_pval(grid_next(g), x.q);
	sbuf_addstr(grid_next(g), x.test);
	sb = grid_next(g);
	sbuf_addstr(sb, x.verdict);
	if (x.source_marked)
		sbuf_addf(sb, " (marked %s)", x.side.marker);
	if (ref)
		sbuf_addf(sb, " [%zu]", ref);
}

/* The rows lo..hi of a table into g (parallel_pair()). */
struct text_job {
	_Alignas(PARALLEL_ALIGN) const struct comparison *c;
	const size_t *ref;	/* footnote numbers, by row */
	size_t v, lo, hi;
	int all;
	struct grid g;
};

/* A row's cells take about this many bytes: the grid sized once. */
#define TEXT_ROW_BYTES 128

static void text_rows(void *arg)
{
	struct text_job *j = arg;
	size_t i;

	grid_reserve(&j->g, (j->hi - j->lo) * j->g.ncols,
		     TEXT_ROW_BYTES / j->g.ncols);
	for (i = j->lo; i < j->hi; i++)
		if (cfmt_vs_shown(&j->c->rows[i].vs[j->v - 1], j->all))
			text_row(&j->g, j->c, &j->c->rows[i], j->v, j->ref[i]);
}

static void text_layout(void *arg)
{
	grid_layout(&((struct text_job *)arg)->g);
}

/* Rows a table needs before its second half goes to a second thread. */
#define TEXT_HALF 1024

/* The titles of the table against variant v. */
static void table_head(struct grid *g, const struct comparison *c, size_t v)
{
	size_t j;

	for (j = 0; j < ARRAY_SIZE(head); j++) {
		struct sbuf *sb = grid_next(g);

		if (head[j])
			sbuf_addstr(sb, head[j]);
		else if (j == COL_CI)
			sbuf_addf(sb, "%d%% CI", cfmt_ci_level(c));
		else
			sbuf_addstr(sb, cfmt_label(c, j == COL_BASE ? 0 : v));
	}
}

/*
 * The rows i..k of the table against variant v into job[0] (and its
 * second half into job[1]), laid out: each half of the rows made on its
 * own core, and laid out there too.
 */
static void table_cells(struct text_job job[2], size_t i, size_t k)
{
	job[0].lo = i;
	job[0].hi = k - i < 2 * TEXT_HALF ? k : i + (k - i) / 2;
	job[1] = job[0];
	job[1].g = (struct grid)GRID_INIT(job[0].g.ncols, job[0].g.right);
	job[1].lo = job[0].hi;
	job[1].hi = k;
	if (job[1].lo < job[1].hi) {
		struct grid *both[2] = { &job[0].g, &job[1].g };

		parallel_pair(text_rows, &job[0], &job[1]);
		grid_widths(both, 2);
		parallel_pair(text_layout, &job[0], &job[1]);
	} else {
		struct grid *one = &job[0].g;

		text_rows(&job[0]);
		grid_widths(&one, 1);
		grid_layout(&job[0].g);
	}
}

/*
 * The table of the group of rows i..k against variant v, if a row of it
 * is shown; its footnotes numbered in row order (ref[i..k)).  Returns
 * the rows shown.
 */
static size_t text_table(const struct comparison *c, size_t v, size_t i,
			 size_t k, int all, size_t *ref, struct notes *notes,
			 FILE *f)
{
	struct text_job job[2] = { {
		.c = c, .ref = ref, .v = v, .all = all,
		.g = GRID_INIT(ARRAY_SIZE(head), TEXT_RIGHT),
	} };
	struct sbuf t = SBUF_INIT;
	size_t n = 0, j;

	for (j = i; j < k; j++)
		n += cfmt_vs_shown(&c->rows[j].vs[v - 1], all);
	if (!n)
		return 0;
	table_head(&job[0].g, c, v);
	for (j = i; j < k; j++) {
		const struct cmp_vs *x = &c->rows[j].vs[v - 1];

		ref[j] = cfmt_vs_shown(x, all) && x->note ?
			 note_ref(notes, x->note) : 0;
	}
	table_cells(job, i, k);
	cfmt_group_title(&t, &c->rows[i]);
	fprintf(f, "\n%s\n", t.buf);
	sbuf_release(&t);
	grid_write(&job[0].g, f);
	grid_write(&job[1].g, f);
	return n;
}

static void text_header(const struct comparison *c, FILE *f)
{
	struct sbuf sb = SBUF_INIT;
	size_t v;

	fprintf(f, "base %s (%ld run%s)", cfmt_label(c, 0), c->runs[0],
		c->runs[0] == 1 ? "" : "s");
	for (v = 1; v < c->nvar; v++)
		fprintf(f, "%s %s (%ld run%s)", v == 1 ? " vs" : ",",
			cfmt_label(c, v), c->runs[v],
			c->runs[v] == 1 ? "" : "s");
	cfmt_spread_legend(&sb, cfmt_spreads(c));
	fprintf(f, "\nmean \u00b1 sd: %s; %d%% CI of the change (Fieller); "
		   "significant: %s < %g\n", sb.buf, cfmt_ci_level(c),
		c->opts.fdr ? "Benjamini-Hochberg q" : "p", c->opts.alpha);
	sbuf_release(&sb);
}

static void text_footer(const struct comparison *c, const struct notes *notes,
			int all, size_t shown, FILE *f)
{
	size_t i;

	fputc('\n', f);
	for (i = 0; i < notes->nr; i++)
		fprintf(f, "[%zu] %s\n", i + 1, notes->text[i]);
	fprintf(f, "%ld regression%s, %ld improvement%s, %ld changed "
		   "(direction unknown), %ld unknown; %ld test%s over %zu "
		   "metric row%s",
		c->nr_regressions, c->nr_regressions == 1 ? "" : "s",
		c->nr_improvements, c->nr_improvements == 1 ? "" : "s",
		c->nr_changed, c->nr_unknown, c->nr_tests, c->nr_tests == 1 ? "" : "s", c->nr,
		c->nr == 1 ? "" : "s");
	if (!all)
		fprintf(f, "; %zu shown (--all for every row)", shown);
	fputc('\n', f);
}

int cfmt_write_text(const struct comparison *c, int all, FILE *f)
{
	struct notes notes = { { 0 }, 0 };
	size_t v, i, k, shown = 0;
	size_t *ref = xcalloc(c->nr + 1, sizeof(*ref));

	text_header(c, f);
	for (v = 1; v < c->nvar; v++)
		for (i = 0; i < c->nr; i = k) {
			for (k = i; k < c->nr &&
				    cfmt_same_group(&c->rows[i], &c->rows[k]);
			     k++)
				;
			shown += text_table(c, v, i, k, all, ref, &notes, f);
		}
	text_footer(c, &notes, all, shown, f);
	free(ref);
	return 0;
}
