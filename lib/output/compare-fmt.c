/*
 * Comparison output formats (compare-fmt.h).  The mmtests and lkp
 * layouts reproduce the tools' own column widths, worked out from their
 * outputs (research/mmtests.md §1.2, research/lkp.md §1.4-1.6, and the
 * robot email in samples/lkp): see the comment above each writer.
 */
#include "core/compat.h"
#include "output/compare-fmt.h"
#include "output/numfmt.h"
#include "core/parallel.h"
#include "store/direction.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "output/jsonw.h"

int cmp_format_parse(const char *s)
{
	static const char *const names[] = {
		"text", "mmtests", "lkp", "json", "csv", "markdown",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

static const char *label(const struct comparison *c, size_t v)
{
	return selector_label(&c->var[v]);
}

/*
 * Numbers as printf prints them, through output/numfmt.h: at 20,000 rows
 * printf's own conversion was most of the time of a table.
 */
static void add_fixed_w(struct sbuf *sb, double v, int width, int prec,
			int plus)
{
	char num[NUMFMT_BUF];
	size_t n = fmt_fixed(num, v, prec, plus), pad;
	char *p;

	/* "%*.*f" (plus: "%+*.*f"): right-aligned in width */
	pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
	if (pad <= 16 && n <= 24) {
		/* a column's number: copies of a constant size, no calls */
		p = sbuf_room(sb, 16 + 24);
		memcpy(p, "                ", 16);
		memcpy(p + pad, num, 24);
		sbuf_setlen(sb, sb->len + pad + n);
		return;
	}
	sbuf_addpad(sb, pad);
	sbuf_add(sb, num, n);
}

static void add_fixed(struct sbuf *sb, double v, int prec, int plus)
{
	add_fixed_w(sb, v, 0, prec, plus);
}

/* "%-*s": s left-aligned in width bytes */
static void add_left(struct sbuf *sb, const char *s, size_t width)
{
	size_t n = strlen(s);

	sbuf_add(sb, s, n);
	if (width > n)
		sbuf_addpad(sb, width - n);
}

/* The confidence interval of the change: "[-1.37%, +2.34%]", or "-". */
static void add_ci(struct sbuf *sb, const struct cmp_vs *x)
{
	if (!isfinite(x->ci_low_pct)) {
		sbuf_addstr(sb, "-");
		return;
	}
	sbuf_addch(sb, '[');
	add_fixed(sb, x->ci_low_pct, 2, 1);
	sbuf_add(sb, "%, ", 3);
	add_fixed(sb, x->ci_high_pct, 2, 1);
	sbuf_add(sb, "%]", 2);
}

void cmp_fmt_num(struct sbuf *sb, double v)
{
	char buf[NUMFMT_BUF];

	if (isfinite(v))
		sbuf_add(sb, buf, fmt_general(buf, v, 6));
	else
		sbuf_addstr(sb, "-");
}

void cmp_fmt_pct(struct sbuf *sb, double v)
{
	if (isfinite(v)) {
		add_fixed(sb, v, 2, 1);
		sbuf_addch(sb, '%');
	} else {
		sbuf_addstr(sb, "-");
	}
}

void cmp_fmt_pval(struct sbuf *sb, double p)
{
	if (!isfinite(p))
		sbuf_addstr(sb, "-");
	else if (p < 0.0001)
		sbuf_addf(sb, "%.1e", p);
	else
		add_fixed(sb, p, 4, 0);
}

static void side_text(struct sbuf *sb, const struct cmp_side *s)
{
	const struct cmp_extra *e = cmp_extra(s);
	char num[NUMFMT_BUF];

	if (s->source == SIDE_NONE) {
		sbuf_addstr(sb, "missing");
		return;
	}
	cmp_fmt_num(sb, s->mean);
	if (isfinite(s->sd)) {
		sbuf_addstr(sb, " ± ");
		cmp_fmt_num(sb, s->sd);
		if (s->source == SIDE_AGGREGATE && e->sd_kind &&
		    strcmp(e->sd_kind, "sample"))
			sbuf_addstr(sb, !strcmp(e->sd_kind, "population") ?
					       " pop" : " rel");
	}
	if (s->n >= 0) {
		sbuf_add(sb, " (n=", 4);
		sbuf_add(sb, num, fmt_int(num, s->n));
		sbuf_addch(sb, ')');
	} else
		sbuf_addstr(sb, " (n=?)");
	if (s->source == SIDE_AGGREGATE)
		sbuf_addf(sb, " %s", e->stat);
}

static int same_group(const struct cmp_row *a, const struct cmp_row *b)
{
	return !strcmp(a->testcase, b->testcase) &&
	       !strcmp(a->params, b->params) && !strcmp(a->machine, b->machine);
}

static void group_title(struct sbuf *sb, const struct cmp_row *r)
{
	sbuf_addf(sb, "testcase %s", *r->testcase ? r->testcase : "-");
	if (*r->params)
		sbuf_addf(sb, "  params %s", r->params);
	if (*r->machine)
		sbuf_addf(sb, "  machine %s", r->machine);
}

/* ---- text ---- */

/*
 * Display width of UTF-8 text: continuation bytes (10xxxxxx) take no
 * column.  Eight bytes at a time: bit 7 set and bit 6 clear.
 */
static size_t width(const char *s, size_t len)
{
	size_t cont = 0, i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, 8);
		x = (x & ~(x << 1) & 0x8080808080808080ULL) >> 7;
		/* the eight bytes' 0s and 1s summed into the top byte */
		cont += (size_t)(x * 0x0101010101010101ULL >> 56);
	}
	for (; i < len; i++)
		cont += ((unsigned char)s[i] & 0xc0) == 0x80;
	return len - cont;
}

#define GRID_MAX_COLS 16

/*
 * A grid of cells printed with aligned columns (right: bit per column).
 * The cells are one text, each from its start offset to the next one's:
 * a table of 20,000 rows is 200,000 cells, and an allocation each cost
 * more time and memory than their text.  grid_next() returns the text
 * to append the new cell to; only the newest cell may be appended to.
 * A table's rows may be made in several grids (one per core): each
 * measures its columns as its cells are made (w), grid_widths() takes
 * the widest of them, and each lays its rows out (grid_layout()) into
 * its own out, which go to the stream in order (grid_write()).
 */
struct grid {
	struct sbuf text;
	uint32_t *start;	/* a table's text stays far below 4 GiB */
	uint32_t *cw;		/* each cell's width, once measured */
	size_t ncols, nr, alloc;
	unsigned long right;
	size_t w[GRID_MAX_COLS];	/* widest cell of each column */
	struct sbuf out;		/* grid_layout()'s text */
};

#define GRID_INIT(ncols, right) \
	{ SBUF_INIT, NULL, NULL, (ncols), 0, 0, (right), { 0 }, SBUF_INIT }

/* the newest cell is complete: measure it */
static void grid_measure(struct grid *g)
{
	size_t i = g->nr - 1, col = i % g->ncols;
	size_t cw = width(g->text.buf + g->start[i],
			  g->text.len - g->start[i]);

	g->cw[i] = cw > UINT32_MAX ? UINT32_MAX : (uint32_t)cw;
	if (cw > g->w[col])
		g->w[col] = cw;
}

/* Room for n more cells of about bytes each: no array doubled and copied. */
static void grid_reserve(struct grid *g, size_t n, size_t bytes)
{
	size_t was = g->alloc;

	ALLOC_GROW(g->start, g->nr + n + 2, g->alloc);
	if (g->alloc != was)
		g->cw = xrealloc(g->cw, g->alloc * sizeof(*g->cw));
	sbuf_grow(&g->text, n * bytes);
}

static struct sbuf *grid_next(struct grid *g)
{
	if (g->ncols > GRID_MAX_COLS)
		BUG("a grid of %zu columns", g->ncols);
	if (g->nr)
		grid_measure(g);
	if (g->nr + 2 > g->alloc)
		grid_reserve(g, 1, 0);
	if (g->text.len > UINT32_MAX)
		BUG("a text table of %zu bytes", g->text.len);
	g->start[g->nr++] = (uint32_t)g->text.len;
	return &g->text;
}

/* The widths of a table made in grids *g[0..n), into each of them. */
static void grid_widths(struct grid **g, size_t n)
{
	size_t i, k, col;

	for (i = 0; i < n; i++)
		if (g[i]->nr) {
			grid_measure(g[i]);
			g[i]->start[g[i]->nr] = (uint32_t)g[i]->text.len;
		}
	for (col = 0; col < g[0]->ncols; col++)
		for (i = 0; i < n; i++)
			for (k = 0; k < n; k++)
				if (g[k]->w[col] > g[i]->w[col])
					g[i]->w[col] = g[k]->w[col];
}

/*
 * The cells of g laid out into g->out with the table's widths (g->w,
 * grid_widths()), its text released: one allocation, no per-cell call.
 */
static void grid_layout(struct grid *g)
{
	size_t i, rowmax = 0, len, pad;
	char *p;

	if (!g->nr)
		goto out;
	for (i = 0; i < g->ncols; i++)
		rowmax += g->w[i] + 2;
	/* each cell's bytes, plus at most its column's width of padding */
	p = sbuf_room(&g->out, g->text.len + g->nr / g->ncols * rowmax);
	for (i = 0; i < g->nr; i++) {
		size_t col = i % g->ncols;
		const char *cell = g->text.buf + g->start[i];
		int last = col == g->ncols - 1;
		int right = !!(g->right & (1UL << col));

		len = g->start[i + 1] - g->start[i];
		pad = last && !right ? 0 : g->w[col] - g->cw[i];
		if (right) {
			memset(p, ' ', pad);
			p += pad;
		}
		memcpy(p, cell, len);
		p += len;
		if (!right) {
			memset(p, ' ', pad);
			p += pad;
		}
		if (last) {
			*p++ = '\n';
		} else {
			*p++ = ' ';
			*p++ = ' ';
		}
	}
	sbuf_setlen(&g->out, (size_t)(p - g->out.buf));
out:
	sbuf_release(&g->text);
	free(g->start);
	free(g->cw);
	g->start = NULL;
	g->cw = NULL;
	g->nr = g->alloc = 0;
}

/* g's laid-out text to f, and g emptied */
static void grid_write(struct grid *g, FILE *f)
{
	fwrite_unlocked(g->out.buf, 1, g->out.len, f);
	sbuf_release(&g->out);
	sbuf_release(&g->text);
	free(g->start);
	free(g->cw);
	memset(g, 0, sizeof(*g));
}

struct notes {
	const char *text[16];
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

static int shown_vs(const struct cmp_vs *x, int all)
{
	return all || (x->significant && x->verdict != CMP_UNCHANGED);
}

/* Row r's cells against variant v; ref: its footnote's number, or 0. */
static void text_row(struct grid *g, const struct comparison *c,
		     const struct cmp_row *r, size_t v, size_t ref)
{
	const struct cmp_vs *x = &r->vs[v - 1];
	struct sbuf *sb;

	sb = grid_next(g);
	sbuf_addstr(sb, r->metric);
	if (r->unit)
		sbuf_addf(sb, " (%s)", r->unit);
	side_text(grid_next(g), &r->side[0]);
	side_text(grid_next(g), &r->side[v]);
	cmp_fmt_pct(grid_next(g), x->change_pct);
	add_ci(grid_next(g), x);
	cmp_fmt_pval(grid_next(g), x->p);
	cmp_fmt_pval(grid_next(g), x->q);
	sbuf_addstr(grid_next(g), cmp_method_name(x->method));
	sb = grid_next(g);
	sbuf_addstr(sb, cmp_verdict_name(x->verdict));
	if (x->significant && x->method == CMP_SOURCE)
		sbuf_addf(sb, " (marked %s)", cmp_extra(&r->side[v])->marker);
	if (ref)
		sbuf_addf(sb, " [%zu]", ref);
	(void)c;
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
		if (shown_vs(&j->c->rows[i].vs[j->v - 1], j->all))
			text_row(&j->g, j->c, &j->c->rows[i], j->v, j->ref[i]);
}

static void text_layout(void *arg)
{
	grid_layout(&((struct text_job *)arg)->g);
}

/* Rows a table needs before its second half goes to a second thread. */
#define TEXT_HALF 1024

/*
 * Text: one table per new variant and testcase/params/machine group:
 * metric, base mean ± sd (n-1) (n), new mean ± sd (n), % change with its
 * confidence interval, p, q, test, verdict; notes as footnotes.
 */
static int write_text(const struct comparison *c, int all, FILE *f)
{
	static const char *const head[] = {
		"METRIC", NULL, NULL, "CHANGE", NULL, "P", "Q", "TEST",
		"VERDICT",
	};
	struct notes notes = { { 0 }, 0 };
	size_t v, i, k, j, shown = 0;
	size_t *ref = xcalloc(c->nr + 1, sizeof(*ref));
	int level = (int)lround(100 * (1 - c->opts.alpha));

	fprintf(f, "base %s (%ld run%s)", label(c, 0), c->runs[0],
		c->runs[0] == 1 ? "" : "s");
	for (v = 1; v < c->nvar; v++)
		fprintf(f, "%s %s (%ld run%s)", v == 1 ? " vs" : ",",
			label(c, v), c->runs[v], c->runs[v] == 1 ? "" : "s");
	fprintf(f, "\nmean \u00b1 sd: sample standard deviation (n-1); "
		   "%d%% CI of the change (Fieller); significant: %s < %g\n",
		level, c->opts.fdr ? "Benjamini-Hochberg q" : "p",
		c->opts.alpha);
	for (v = 1; v < c->nvar; v++) {
		for (i = 0; i < c->nr; i = k) {
			struct text_job job[2] = { {
				.c = c, .ref = ref, .v = v, .all = all,
				.g = GRID_INIT(ARRAY_SIZE(head),
					       0x7UL << 3 | 1UL << 6),
			} };
			struct sbuf t = SBUF_INIT;
			size_t n = 0;

			for (k = i; k < c->nr &&
				    same_group(&c->rows[i], &c->rows[k]); k++)
				n += shown_vs(&c->rows[k].vs[v - 1], all);
			if (!n)
				continue;
			for (j = 0; j < ARRAY_SIZE(head); j++) {
				struct sbuf *sb = grid_next(&job[0].g);

				if (head[j])
					sbuf_addstr(sb, head[j]);
				else if (j == 4)
					sbuf_addf(sb, "%d%% CI", level);
				else
					sbuf_addstr(sb, label(c, j == 1 ? 0 : v));
			}
			/* footnotes numbered in row order, then the
			 * cells of each half of the rows on its own core,
			 * and each half laid out there too */
			for (j = i; j < k; j++) {
				const struct cmp_vs *x = &c->rows[j].vs[v - 1];

				ref[j] = shown_vs(x, all) && x->note ?
					 note_ref(&notes, x->note) : 0;
			}
			job[0].lo = i;
			job[0].hi = k - i < 2 * TEXT_HALF ? k : i + (k - i) / 2;
			job[1] = job[0];
			job[1].g = (struct grid)GRID_INIT(job[0].g.ncols,
							  job[0].g.right);
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
			group_title(&t, &c->rows[i]);
			fprintf(f, "\n%s\n", t.buf);
			sbuf_release(&t);
			grid_write(&job[0].g, f);
			grid_write(&job[1].g, f);
			shown += n;
		}
	}
	fputc('\n', f);
	for (i = 0; i < notes.nr; i++)
		fprintf(f, "[%zu] %s\n", i + 1, notes.text[i]);
	fprintf(f, "%ld regression%s, %ld improvement%s, %ld unknown; %ld "
		   "test%s over %zu metric row%s",
		c->nr_regressions, c->nr_regressions == 1 ? "" : "s",
		c->nr_improvements, c->nr_improvements == 1 ? "" : "s",
		c->nr_unknown, c->nr_tests, c->nr_tests == 1 ? "" : "s", c->nr,
		c->nr == 1 ? "" : "s");
	if (!all)
		fprintf(f, "; %zu shown (--all for every row)", shown);
	fputc('\n', f);
	free(ref);
	return 0;
}

/* ---- blocks of rows on two cores, written as they are done ---- */

/*
 * Rows in blocks, formatted on two cores and written in order while the
 * next ones are formatted (mmtests, lkp, JSON, csv, markdown), through
 * parallel_ordered(): each of BLOCK_SLOTS buffers holds a block at a
 * time; the caller writes each block as soon as it and those before it
 * are formatted, and formats the next ones meanwhile, so that the
 * writes' time is shared between the cores too.
 *
 * run(ctx, job, lo, hi, out) formats the rows lo..hi into out.  start(),
 * when there is one, readies job for them first, called in row order: a
 * block starts from the state the rows before it leave (JSON's comma,
 * markdown's heading), which start() keeps in ctx; job[k] is the state
 * of the k-th buffer's blocks (NULL without a start()).  A table below
 * PARALLEL_MIN / 2 rows: every block in turn in the caller's thread.
 */
#define BLOCK_SLOTS 4

struct blocks {
	size_t nr, block;	/* rows, rows a block */
	void (*start)(void *ctx, void *job, size_t lo, size_t hi);
	void (*run)(void *ctx, void *job, size_t lo, size_t hi,
		    struct sbuf *out);
	void *ctx;
	void *job[BLOCK_SLOTS];
};

/*
 * Rows a block of a table holds: its buffer stays a few hundred kB and
 * is used again (a bigger one was faulted in page by page each time).
 */
#define ROW_BLOCK 256

/* write_blocks()'s state: a buffer a slot, and whether a write failed */
struct blocks_run {
	const struct blocks *bl;
	FILE *f;
	struct slot_out {
		_Alignas(PARALLEL_ALIGN) struct sbuf sb;
	} out[BLOCK_SLOTS];
	int ret;
};

static size_t block_end(const struct blocks *bl, size_t b)
{
	size_t lo = b * bl->block;

	return bl->nr - lo < bl->block ? bl->nr : lo + bl->block;
}

static void block_ready(void *ctx, size_t b, int slot)
{
	struct blocks_run *r = ctx;
	const struct blocks *bl = r->bl;

	if (bl->start)
		bl->start(bl->ctx, bl->job[slot], b * bl->block,
			  block_end(bl, b));
}

static void block_run(void *ctx, size_t b, int slot)
{
	struct blocks_run *r = ctx;
	const struct blocks *bl = r->bl;

	bl->run(bl->ctx, bl->job[slot], b * bl->block, block_end(bl, b),
		&r->out[slot].sb);
}

static void block_use(void *ctx, size_t b, int slot)
{
	struct blocks_run *r = ctx;
	struct sbuf *out = &r->out[slot].sb;

	(void)b;
	if (fwrite(out->buf, 1, out->len, r->f) != out->len)
		r->ret = -1;
	sbuf_reset(out);
}

/* -1 when a write failed */
static int write_blocks(const struct blocks *bl, FILE *f)
{
	static const struct ordered_ops ops = {
		block_ready, block_run, block_use,
	};
	struct blocks_run r = { .bl = bl, .f = f };
	int k;

	for (k = 0; k < BLOCK_SLOTS; k++)
		sbuf_init(&r.out[k].sb, 0);
	parallel_ordered((bl->nr + bl->block - 1) / bl->block,
			 bl->nr >= PARALLEL_MIN / 2 ? BLOCK_SLOTS : 1, &ops, &r);
	for (k = 0; k < BLOCK_SLOTS; k++)
		sbuf_release(&r.out[k].sb);
	return r.ret;
}

/* ---- mmtests ---- */

/*
 * compare-kernels layout (Compare.pm/PrintGeneric.pm): a two-line
 * header split at the first '-' of each name (past "-rcN"), right
 * aligned to FieldLength + CompareLength + 4 = 12 + 7 + 4 = 23 columns;
 * rows "%-Ns %-Ms" (statistic, operation) then per variant "%12.2f" and
 * " (%7.2f%%)", or " *%7.2f%%*" where significant; the percentage is
 * positive when better (pdiff/pndiff); statistics outer, operations
 * inner.  Checked against the 5.3.0-rc3 mail table in research/mmtests.md.
 */
enum mm_stat { MM_MIN, MM_MEAN, MM_STDDEV, MM_COEFFVAR, MM_MAX, MM_BMEAN,
	       MM_NR };

static void mm_split(const char *name, struct sbuf *top, struct sbuf *bot)
{
	const char *dash = strchr(name, '-');
	size_t idx;

	if (!dash) {
		/*
		 * MMTests prints the name minus its last character on top
		 * here (index -1); we leave the top line empty instead
		 */
		sbuf_addstr(bot, name);
		return;
	}
	idx = (size_t)(dash - name);
	if (dash[1] == 'r' && dash[2] == 'c' && dash[3] >= '0' &&
	    dash[3] <= '9') {
		idx += 4;
		if (idx > strlen(name))
			idx = strlen(name);
	}
	sbuf_add(top, name, idx);
	sbuf_addstr(bot, name[idx] ? name + idx + 1 : "");
}

static const char *mm_op(const struct cmp_row *r)
{
	size_t n = strlen(r->testcase);

	if (n && !strncmp(r->metric, r->testcase, n) && r->metric[n] == '.')
		return r->metric + n + 1;
	return r->metric;
}

static int mm_higher(const struct cmp_row *r)
{
	return r->direction == DIR_HIGHER;
}

/* The value of statistic st for one side; NAN if not available. */
static double mm_value(const struct cmp_row *r, const struct cmp_side *s,
		       enum mm_stat st)
{
	int hi = mm_higher(r);

	if (s->source == SIDE_AGGREGATE) {
		if (st == MM_MEAN)
			return s->mean;
		if (st == MM_STDDEV)
			return s->sd;
		return NAN;
	}
	if (s->source != SIDE_SAMPLES)
		return NAN;
	switch (st) {
	case MM_MIN: return s->sum.min;
	case MM_MAX: return s->sum.max;
	case MM_MEAN:
		return hi && isfinite(s->sum.hmean) ? s->sum.hmean
						    : s->sum.mean;
	case MM_STDDEV:
		/* from the samples as they came (digest_row() in compare.c) */
		return s->mm_sd;
	case MM_COEFFVAR: {
		double m = mm_value(r, s, MM_MEAN), sd = mm_value(r, s,
								   MM_STDDEV);

		return m == 0 ? 0 : sd * 100 / m;
	}
	case MM_BMEAN:
		return s->mm_bmean;
	case MM_NR:
		break;
	}
	return NAN;
}

static const char *mm_stat_label(const struct cmp_row *r, enum mm_stat st)
{
	int h = mm_higher(r) && r->side[0].source == SIDE_SAMPLES &&
		isfinite(r->side[0].sum.hmean);

	if (r->side[0].source == SIDE_AGGREGATE && st == MM_MEAN)
		return cmp_extra(&r->side[0])->stat;
	switch (st) {
	case MM_MIN: return "Min";
	case MM_MEAN: return h ? "Hmean" : "Amean";
	case MM_STDDEV: return h ? "HStddev" : "Stddev";
	case MM_COEFFVAR: return h ? "HCoeffVar" : "CoeffVar";
	case MM_MAX: return "Max";
	case MM_BMEAN: return h ? "BHmean.95" : "BAmean.95";
	case MM_NR: break;
	}
	return "?";
}

/* A side drawn from imported summaries rather than samples? */
static int mm_from_summaries(const struct cmp_row *r)
{
	return r->side[0].source != SIDE_SAMPLES &&
	       cmp_extra(&r->side[0])->nr_stats;
}

/* The imported statistic called name, or NULL. */
static const struct agg_stat *mm_stat(const struct cmp_side *s,
				      const char *name)
{
	const struct cmp_extra *e = cmp_extra(s);
	size_t i;

	for (i = 0; i < e->nr_stats; i++)
		if (!strcmp(e->stats[i].stat, name))
			return &e->stats[i];
	return NULL;
}

/* Its value; NAN if none. */
static double mm_lookup(const struct cmp_side *s, const char *name)
{
	const struct agg_stat *a = mm_stat(s, name);

	return a ? a->value : NAN;
}

/*
 * Decimals to print a row with: MMTests' 2, or as many more as a value
 * of the row needs to come back as it was (dbench's tables print 4),
 * up to 6.
 */
static int mm_decimals(const struct comparison *c, const struct cmp_row *r,
		       const char *name)
{
	int d = 2;
	size_t v;

	for (v = 0; v < c->nvar; v++) {
		double x = mm_lookup(&r->side[v], name);
		char buf[64];

		if (!isfinite(x) || fabs(x) >= 1e15)
			continue;
		while (d < 6) {
			snprintf(buf, sizeof(buf), "%.*f", d, x);
			if (strtod(buf, NULL) == x)
				break;
			d++;
		}
	}
	return d;
}

/*
 * Did a table print its changes against the base compared with now?
 * change_base is its first column (a commit or a label): the same when
 * the one is a prefix of the other (commits: at least 7 digits).  Then a
 * reprint shows the change as printed rather than one recomputed from
 * rounded values.
 */
static int printed_against(const struct comparison *c,
			   const char *change_base)
{
	const struct selector *b = &c->var[0];
	const char *base = b->value ? b->value : label(c, 0);
	size_t n, m;

	if (!change_base || !base)
		return 0;
	n = strlen(change_base);
	m = strlen(base);
	if (n == m)
		return !strcmp(change_base, base);
	return n >= 7 && m >= 7 && !strncmp(change_base, base, n < m ? n : m);
}

/* Spread statistics: lower is better whatever the metric (pndiff). */
static int mm_spread(const char *name)
{
	return strstr(name, "Stddev") || strstr(name, "CoeffVar") ||
	       strstr(name, "CI");
}

static void mm_add_label(const char ***v, size_t *nr, size_t *alloc,
			 const char *name)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*v)[i], name))
			return;
	ALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[(*nr)++] = name;
}

/*
 * A row an imported table printed without percentages (a Duration, Ops
 * or monitor table): every compared side says so.
 */
static int mm_no_pct(const struct comparison *c, const struct cmp_row *r,
		     const char *name)
{
	size_t v;

	for (v = 1; v < c->nvar; v++) {
		const struct agg_stat *a = mm_stat(&r->side[v], name);

		if (!a || !a->change_source || *a->change_source ||
		    !printed_against(c, a->change_base))
			return 0;
	}
	return c->nvar > 1;
}

/* The percentage an imported table printed for this statistic. */
static void mm_printed(const struct comparison *c, const struct cmp_side *s,
		       const char *name, double *d)
{
	const struct cmp_extra *e = cmp_extra(s);
	size_t i;

	for (i = 0; i < e->nr_stats; i++)
		if (!strcmp(e->stats[i].stat, name) &&
		    e->stats[i].change_source &&
		    printed_against(c, e->stats[i].change_base))
			*d = strtod(e->stats[i].change_source, NULL);
}

/*
 * Rows of one statistic of one operation; st is a slot of enum mm_stat
 * for rows computed from samples, or -1 and name for imported summaries.
 */
static void mm_line(const struct comparison *c, const struct cmp_row *r,
		    int st, const char *name, size_t wl, size_t wo,
		    struct sbuf *out)
{
	const char *stat = st >= 0 ? mm_stat_label(r, st) : name;
	int dec = st >= 0 ? 2 : mm_decimals(c, r, name);
	int no_pct = st < 0 && mm_no_pct(c, r, name);
	/* the comparison statistic carries the significance star */
	const char *cmp_stat = st >= 0 ? mm_stat_label(r, MM_MEAN)
				       : cmp_extra(&r->side[0])->stat;
	/*
	 * Without an aggregate base, a statistic of samples and the star's
	 * have mm_stat_label()'s own names, one for each st: the spread and
	 * the star are known from st (the names looked up took three
	 * strstr() and a strcmp() a line)
	 */
	int own = st >= 0 && r->side[0].source != SIDE_AGGREGATE;
	int spread = own ? st == MM_STDDEV || st == MM_COEFFVAR
			 : mm_spread(stat);
	int is_cmp = own ? st == MM_MEAN
			 : cmp_stat && !strcmp(cmp_stat, stat);
	int higher = !spread && mm_higher(r);
	double base, x, d;
	size_t v;

	base = st >= 0 ? mm_value(r, &r->side[0], st)
		       : mm_lookup(&r->side[0], name);
	if (!isfinite(base))
		return;
	add_left(out, stat, wl);
	sbuf_addch(out, ' ');
	add_left(out, mm_op(r), wo);
	for (v = 0; v < c->nvar; v++) {
		int sig = v && is_cmp && r->vs[v - 1].significant;

		if (st < 0 && v && r->vs[v - 1].method == CMP_SOURCE) {
			/* the source decided: its star stays where it was */
			const struct agg_stat *a = mm_stat(&r->side[v], name);

			sig = a && a->marker && !strcmp(a->marker, "*");
		}
		x = st >= 0 ? mm_value(r, &r->side[v], st)
			    : mm_lookup(&r->side[v], name);
		if (!isfinite(x)) {
			/* "%12s %10s" of "-" and "" */
			sbuf_addstr(out, "           -           ");
			continue;
		}
		d = v ? cmp_mmtests_pdiff(x, base, higher) : 0;
		if (v && st < 0)
			mm_printed(c, &r->side[v], name, &d);
		add_fixed_w(out, x, 12, dec, 0);
		if (no_pct)
			continue;
		sbuf_add(out, sig ? " *" : " (", 2);
		add_fixed_w(out, isfinite(d) ? d : 0, 7, 2, 0);
		sbuf_add(out, sig ? "%*" : "%)", 2);
	}
	sbuf_addch(out, '\n');
}

/*
 * Lines of a table's statistics taken from samples: every row's line of
 * the first statistic, then of the next, each a numbered item (the
 * statistic times the rows, plus the row) of the table's rows lo..hi
 * (write_blocks()'s rows).
 */
struct mm_tab {
	const struct comparison *c;
	size_t lo, hi, wl, wo;
	int all, tree;
};

/* Is row r a line of the statistics taken from samples? */
static int mm_sample_row(const struct mm_tab *t, const struct cmp_row *r)
{
	return (t->all || cmp_row_interesting(t->c, r)) &&
	       !(t->tree && r->summary) && !mm_from_summaries(r);
}

/* the items from..to into out */
static void mm_items(void *ctx, void *job, size_t from, size_t to,
		     struct sbuf *out)
{
	const struct mm_tab *t = ctx;
	size_t n = t->hi - t->lo, st = from / n, i = from % n, x;

	(void)job;
	for (x = from; x < to; x++) {
		const struct cmp_row *r = &t->c->rows[t->lo + i];

		if (mm_sample_row(t, r))
			mm_line(t->c, r, (int)st, NULL, t->wl, t->wo, out);
		if (++i == n) {
			i = 0;
			st++;
		}
	}
}

/* Items a block holds: lines of about 70 bytes */
#define MM_BLOCK 4096

/* The line that stands for the rows when none is significant. */
static void none_significant(const struct comparison *c, FILE *f)
{
	fprintf(f, "no significant change (%ld test%s over %zu row%s; --all "
		"for every row)\n", c->nr_tests, c->nr_tests == 1 ? "" : "s",
		c->nr, c->nr == 1 ? "" : "s");
}

/*
 * The two-line kernel header of compare-kernels: each label split where
 * MMTests splits it, the first column width0 wide, the others w (23:
 * 12-wide values and their percentages).
 */
static void mm_kernels(const struct comparison *c, int width0, int width,
		       FILE *f)
{
	struct sbuf top = SBUF_INIT, bot = SBUF_INIT;
	size_t v;

	for (v = 0; v < c->nvar; v++) {
		struct sbuf a = SBUF_INIT, b = SBUF_INIT;
		int w = v ? width : width0;

		mm_split(label(c, v), &a, &b);
		sbuf_addf(&top, "%*s", w, a.buf);
		sbuf_addf(&bot, "%*s", w, b.buf);
		sbuf_release(&a);
		sbuf_release(&b);
	}
	sbuf_rtrim(&top);
	if (top.len)
		fprintf(f, "%s\n", top.buf);
	fprintf(f, "%s\n", bot.buf);
	sbuf_release(&top);
	sbuf_release(&bot);
}

/*
 * Rows of metrics an importer said MMTests summarises (the MMTests tree
 * importer: metrics.summary): MMTests' own statistics over MMTests' pool
 * of samples (cmp_side.mm), in the layout and with the significance rule
 * of the MMTests version asked for (research/mmtests-2020-extractors.md
 * §0.4-§0.9, §9, §10 for 2020; research/mmtests.md §1 for the current
 * one).
 */
enum mm_kind { MMK_MULTI, MMK_SINGLE, MMK_SINGLE_MEAN, MMK_MONITOR };

struct mm_sum {
	enum mm_kind kind;
	char label[48];		/* Singleops/Monitor row label */
};

static void mm_parse_summary(const char *s, struct mm_sum *out)
{
	const char *colon = strchr(s, ':');

	out->label[0] = '\0';
	if (colon)
		snprintf(out->label, sizeof(out->label), "%s", colon + 1);
	if (starts_with(s, "Singleops-mean:"))
		out->kind = MMK_SINGLE_MEAN;
	else if (starts_with(s, "Singleops:"))
		out->kind = MMK_SINGLE;
	else if (starts_with(s, "Monitor:"))
		out->kind = MMK_MONITOR;
	else
		out->kind = MMK_MULTI;
}

/* The operation's name as MMTests prints it. */
static const char *mm_tree_op(const struct cmp_row *r, const struct mm_sum *m)
{
	const char *op = mm_op(r);
	size_t n = strlen(m->label);

	if (m->kind == MMK_MONITOR && !strncmp(op, m->label, n) &&
	    op[n] == '.')
		return op + n + 1;
	return op;
}

/* The statistics of Multiops, in order (2020: §0.4; current: §1.3). */
enum mm_tstat { MT_MIN, MT_MEAN, MT_STDDEV, MT_COEFFVAR, MT_MAX, MT_B50,
		MT_B95, MT_B99, MT_NR };

static const char *mm_tstat_label(enum mm_tstat st, int higher, int style)
{
	static const char *const l2020[2][MT_NR] = {
		{ "Min", "Amean", "Stddev", "CoeffVar", "Max", "BAmean-50",
		  "BAmean-95", "BAmean-99" },
		{ "Min", "Hmean", "Stddev", "CoeffVar", "Max", "BHmean-50",
		  "BHmean-95", "BHmean-99" },
	};
	static const char *const lnow[2][MT_NR] = {
		{ "Min", "Amean", "Stddev", "CoeffVar", "Max", NULL,
		  "BAmean.95", NULL },
		{ "Min", "Hmean", "HStddev", "HCoeffVar", "Max", NULL,
		  "BHmean.95", NULL },
	};

	return style == 2020 ? l2020[!!higher][st] : lnow[!!higher][st];
}

/* The mean MMTests compares for this direction. */
static double mm_tmean(const double *x, size_t n, int higher)
{
	return higher ? stats_hmean(x, n) : stats_mean(x, n);
}

/* The spread beside it: 2020 plain n-1; current HStddev for Hmean. */
static double mm_tsd(const double *x, size_t n, int higher, int style)
{
	if (style != 2020 && higher)
		return stats_mmtests_hstddev(x, n);
	return n > 1 ? stats_sd_sample(x, n) : NAN;
}

static double mm_tvalue(const double *x, size_t n, enum mm_tstat st,
			int higher, int style)
{
	double m, sd;
	size_t i;

	if (!n)
		return NAN;
	switch (st) {
	case MT_MIN:
	case MT_MAX: {
		double v = x[0];

		for (i = 1; i < n; i++)
			if (st == MT_MIN ? x[i] < v : x[i] > v)
				v = x[i];
		return v;
	}
	case MT_MEAN:
		return mm_tmean(x, n, higher);
	case MT_STDDEV:
		return mm_tsd(x, n, higher, style);
	case MT_COEFFVAR:
		sd = mm_tsd(x, n, higher, style);
		/* 2020: against the arithmetic mean, a NaN spread as 0 */
		m = style == 2020 ? stats_mean(x, n) : mm_tmean(x, n, higher);
		if (!isfinite(sd))
			sd = 0;
		return m == 0 || !isfinite(m) ? 0 : sd * 100 / m;
	case MT_B50:
		return stats_mmtests_best_mean(x, n, 50, higher, higher);
	case MT_B95:
		return stats_mmtests_best_mean(x, n, 95, higher, higher);
	case MT_B99:
		return stats_mmtests_best_mean(x, n, 99, higher, higher);
	case MT_NR:
		break;
	}
	return NAN;
}

/* Singleops' value: the best pooled sample, or their mean. */
static double mm_single(const double *x, size_t n, int higher, int mean)
{
	double v;
	size_t i;

	if (!n)
		return NAN;
	if (mean)
		return stats_mean(x, n);
	v = x[0];
	for (i = 1; i < n; i++)
		if (higher ? x[i] > v : x[i] < v)
			v = x[i];
	return v;
}

/*
 * MMTests' star on the mean row of side v against the base.  2020: the
 * two-sample t statistic with unpooled variances and n1 + n2 - 2 degrees
 * of freedom, significant at p < 0.10; equal zero spreads: significant
 * when the means differ; an operation the run lacks: significant (its
 * mean is undefined, so "differs").  Current: the +-1.96 sigma bands do
 * not overlap (cidiff), never with n <= 1.
 */
static int mm_star(const struct cmp_side *b, const struct cmp_side *x,
		   int higher, int style)
{
	const struct cmp_extra *be = cmp_extra(b), *xe = cmp_extra(x);
	double mb, mx, sb, sx, t, p;

	if (style == 2020) {
		if (!xe->nmm || !be->nmm)
			return 1;
		mb = mm_tmean(be->mm, be->nmm, higher);
		mx = mm_tmean(xe->mm, xe->nmm, higher);
		sb = be->nmm > 1 ? stats_sd_sample(be->mm, be->nmm) : 0;
		sx = xe->nmm > 1 ? stats_sd_sample(xe->mm, xe->nmm) : 0;
		t = sqrt(sb * sb / (double)be->nmm + sx * sx / (double)xe->nmm);
		if (t == 0 || !isfinite(t))
			return mb != mx;
		t = fabs(mb - mx) / t;
		if (be->nmm + xe->nmm <= 2)
			return mb != mx;
		p = 2 * stats_t_sf(t, (double)(be->nmm + xe->nmm - 2));
		return p < 0.10;
	}
	if (be->nmm <= 1 || xe->nmm <= 1)
		return 0;
	mb = mm_tmean(be->mm, be->nmm, higher);
	mx = mm_tmean(xe->mm, xe->nmm, higher);
	sb = 1.959963984540054 * mm_tsd(be->mm, be->nmm, higher, style);
	sx = 1.959963984540054 * mm_tsd(xe->mm, xe->nmm, higher, style);
	if (!isfinite(mb) || !isfinite(mx) || !isfinite(sb) || !isfinite(sx))
		return 0;
	t = sb + sx;
	p = t == 0 ? mb - mx : (mb - mx) / t;
	return fabs(p) > 1;
}

/* One row: label, op, then per variant value and (unless mon) its %. */
static void mm_tree_line(const struct comparison *c, const struct cmp_row *r,
			 const char *label, const char *op, size_t wl,
			 size_t wo, int fl, const double *val, int pndiff,
			 int star_row, int mon, int style, struct sbuf *out)
{
	int higher = mm_higher(r);
	size_t v;

	add_left(out, label, wl);
	sbuf_addch(out, ' ');
	add_left(out, op, wo);
	for (v = 0; v < c->nvar; v++) {
		/* NaN, an undefined mean, a missing run: 0.00 (0.00%) */
		double x = isfinite(val[v]) ? val[v] : 0, d = 0;
		int sig = 0;

		if (v && isfinite(val[v]) && isfinite(val[0]))
			d = cmp_mmtests_pdiff(val[v], val[0],
					      higher && !pndiff);
		if (v && star_row)
			sig = mm_star(&r->side[0], &r->side[v], higher, style);
		add_fixed_w(out, x, fl, 2, 0);
		if (mon)
			continue;
		sbuf_add(out, sig ? " *" : " (", 2);
		add_fixed_w(out, isfinite(d) ? d : 0, 7, 2, 0);
		sbuf_add(out, sig ? "%*" : "%)", 2);
	}
	sbuf_addch(out, '\n');
}

/* The rows of one table, ordered as the base's import reported them. */
static int cmp_pos(const void *a, const void *b)
{
	const struct cmp_row *x = *(const struct cmp_row *const *)a;
	const struct cmp_row *y = *(const struct cmp_row *const *)b;

	if ((x->position < 0) != (y->position < 0))
		return x->position < 0 ? 1 : -1;
	if (x->position != y->position)
		return x->position < y->position ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * One MMTests table of a group: the main one (Multiops or Singleops
 * rows) or a monitor table (label: Duration, Ops).  Returns 1 if it
 * has rows (f NULL: only says so).
 */
static int mm_tree_table(const struct comparison *c, size_t i, size_t k,
			 int monitor, const char *mon_label, int style,
			 FILE *f)
{
	const struct cmp_row **rows = NULL;
	size_t nr = 0, j, wl = 0, wo = 0, v;
	int fl = style == 2020 ? 12 : 18, st, any_multi = 0;
	double *val = xcalloc(c->nvar, sizeof(*val));
	struct sbuf out = SBUF_INIT;	/* the lines, written at once */

	rows = xcalloc(k - i, sizeof(*rows));
	for (j = i; j < k; j++) {
		const struct cmp_row *r = &c->rows[j];
		struct mm_sum m;

		if (!r->summary || r->side[0].source != SIDE_SAMPLES ||
		    !cmp_extra(&r->side[0])->nmm)
			continue;	/* MMTests prints the base's ops only */
		mm_parse_summary(r->summary, &m);
		if (monitor != (m.kind == MMK_MONITOR) ||
		    (monitor && strcmp(m.label, mon_label)))
			continue;
		rows[nr++] = r;
		if (strlen(mm_tree_op(r, &m)) > wo)
			wo = strlen(mm_tree_op(r, &m));
		if (m.kind == MMK_MULTI) {
			any_multi = 1;
			for (st = 0; st < MT_NR; st++) {
				const char *l = mm_tstat_label(st, mm_higher(r),
							       style);

				if (l && strlen(l) > wl)
					wl = strlen(l);
			}
		} else if (strlen(m.label) > wl) {
			wl = strlen(m.label);
		}
	}
	if (!nr || !f) {
		free(rows);
		free(val);
		return nr > 0;
	}
	QSORT(rows, nr, cmp_pos);
	if (monitor && !strcmp(mon_label, "Ops"))
		fl = style == 2020 ? 15 : 18;
	mm_kernels(c, (int)(wl + 1 + wo) + (monitor ? fl : fl + 11),
		   monitor ? fl : fl + 11, f);
	/* Multiops: the statistics outer, the operations inner */
	for (st = 0; any_multi && st < MT_NR; st++) {
		for (j = 0; j < nr; j++) {
			const struct cmp_row *r = rows[j];
			const char *l = mm_tstat_label(st, mm_higher(r), style);
			struct mm_sum m;

			mm_parse_summary(r->summary, &m);
			if (m.kind != MMK_MULTI || !l)
				continue;
			for (v = 0; v < c->nvar; v++) {
				const struct cmp_extra *e =
					cmp_extra(&r->side[v]);

				val[v] = mm_tvalue(e->mm, e->nmm, st,
						   mm_higher(r), style);
			}
			mm_tree_line(c, r, l, mm_tree_op(r, &m), wl, wo, fl,
				     val, st == MT_STDDEV ||
				     st == MT_COEFFVAR, st == MT_MEAN, 0,
				     style, &out);
		}
	}
	for (j = 0; j < nr; j++) {
		const struct cmp_row *r = rows[j];
		struct mm_sum m;

		mm_parse_summary(r->summary, &m);
		if (m.kind == MMK_MULTI)
			continue;
		for (v = 0; v < c->nvar; v++) {
			const struct cmp_extra *e = cmp_extra(&r->side[v]);

			val[v] = mm_single(e->mm, e->nmm, mm_higher(r),
					   m.kind == MMK_SINGLE_MEAN);
		}
		mm_tree_line(c, r, m.label, mm_tree_op(r, &m), wl, wo, fl,
			     val, 0, 0, monitor, style, &out);
	}
	fwrite_unlocked(out.buf, 1, out.len, f);
	sbuf_release(&out);
	free(rows);
	free(val);
	return 1;
}

/* The MMTests tables of a group with summarised rows. */
static void mm_tree_group(const struct comparison *c, size_t i, size_t k,
			  int printed, FILE *f)
{
	static const char *const monitors[] = { "Duration", "Ops" };
	int style = c->opts.mm_style ? c->opts.mm_style : 2020;
	struct sbuf title = SBUF_INIT;
	size_t t;

	group_title(&title, &c->rows[i]);
	fprintf(f, "%s%s\n\n", printed ? "\n" : "", title.buf);
	sbuf_release(&title);
	mm_tree_table(c, i, k, 0, NULL, style, f);
	for (t = 0; t < ARRAY_SIZE(monitors); t++)
		if (mm_tree_table(c, i, k, 1, monitors[t], style, NULL)) {
			fputc('\n', f);
			mm_tree_table(c, i, k, 1, monitors[t], style, f);
		}
}

static int write_mmtests(const struct comparison *c, int all, FILE *f)
{
	size_t i, k, j, s;
	int printed = 0;

	for (i = 0; i < c->nr; i = k) {
		const struct cmp_row *g = &c->rows[i];
		const char **names = NULL;
		size_t nn = 0, an = 0, wl = 0, wo = 0;
		int st, any = 0, any_samples = 0, tree = 0;

		for (k = i; k < c->nr && same_group(g, &c->rows[k]); k++)
			tree |= c->rows[k].summary &&
				cmp_extra(&c->rows[k].side[0])->nmm > 0;
		if (tree)
			/* MMTests' tables are printed whole */
			mm_tree_group(c, i, k, printed++, f);
		/* statistics are the outer loop: collect them first */
		for (k = i; k < c->nr && same_group(g, &c->rows[k]); k++) {
			const struct cmp_row *r = &c->rows[k];

			if ((!all && !cmp_row_interesting(c, r)) ||
			    (tree && r->summary))
				continue;
			any = 1;
			if (strlen(mm_op(r)) > wo)
				wo = strlen(mm_op(r));
			if (mm_from_summaries(r)) {
				const struct cmp_extra *e =
					cmp_extra(&r->side[0]);

				for (j = 0; j < e->nr_stats; j++)
					mm_add_label(&names, &nn, &an,
						     e->stats[j].stat);
				continue;
			}
			any_samples = 1;
			for (st = 0; st < MM_NR; st++)
				if (strlen(mm_stat_label(r, st)) > wl)
					wl = strlen(mm_stat_label(r, st));
		}
		if (!any) {
			free(names);
			continue;
		}
		for (j = 0; j < nn; j++)
			if (strlen(names[j]) > wl)
				wl = strlen(names[j]);
		if (printed++)
			fputc('\n', f);
		if (!tree) {
			struct sbuf t = SBUF_INIT;

			group_title(&t, g);
			fprintf(f, "%s\n\n", t.buf);
			sbuf_release(&t);
		}
		mm_kernels(c, (int)(wl + 1 + wo + 23), 23, f);
		if (any_samples) {
			/* the lines of each statistic in row order, in
			 * blocks on both cores */
			struct mm_tab tab = {
				.c = c, .lo = i, .hi = k, .wl = wl, .wo = wo,
				.all = all, .tree = tree,
			};
			struct blocks bl = {
				MM_NR * (k - i), MM_BLOCK, NULL, mm_items,
				&tab, { NULL },
			};

			write_blocks(&bl, f);
		}
		for (s = 0; s < nn; s++) {
			struct sbuf l = SBUF_INIT;

			for (j = i; j < k; j++)
				if ((all || cmp_row_interesting(c, &c->rows[j]))
				    && !(tree && c->rows[j].summary)
				    && mm_from_summaries(&c->rows[j]))
					mm_line(c, &c->rows[j], -1, names[s],
						wl, wo, &l);
			fwrite_unlocked(l.buf, 1, l.len, f);
			sbuf_release(&l);
		}
		free(names);
	}
	if (!printed) {
		/* the kernels' header, then what stands for the rows */
		mm_kernels(c, 41, 23, f);
		none_significant(c, f);
	}
	return 0;
}

/* ---- lkp ---- */

/* lkp ncompare value: %10.2f below 1000, %10.4g above 1e8, else %10d. */
static void fmt_lkp_value(char *buf, size_t len, double v)
{
	char num[NUMFMT_BUF];
	size_t n;

	if (!isfinite(v)) {
		snprintf(buf, len, "%10s", "-");
		return;
	}
	if (fabs(v) < 1000)
		n = fmt_fixed(num, v, 2, 0);
	else if (fabs(v) > 1e8)
		n = fmt_general(num, v, 4);
	else	/* %lld of the value truncated: %.0f of it */
		n = fmt_fixed(num, trunc(v), 0, 0);
	/* right-aligned in 10 columns, as "%10..." */
	if (len < 11 || n >= len)
		BUG("fmt_lkp_value: a buffer of %zu bytes", len);
	memset(buf, ' ', n < 10 ? 10 - n : 0);
	memcpy(buf + (n < 10 ? 10 - n : 0), num, n + 1);
}

/*
 * " ±%3d%%" when the relative population stddev is above 2%, as ncompare;
 * a spread imported from an lkp table as it was printed (none when it
 * was "at most 2 %").
 */
static void lkp_err(char *buf, size_t len, const struct cmp_side *s)
{
	const struct cmp_extra *e = cmp_extra(s);
	double sd = NAN, rel;

	if (s->source == SIDE_SAMPLES && s->nv > 1)
		sd = s->sum.sd_pop;	/* lkp: population stddev */
	else if (s->source == SIDE_AGGREGATE)
		sd = s->sd;
	rel = s->mean != 0 ? 100 * sd / fabs(s->mean) : NAN;
	/*
	 * An integer at or above 2 is what lkp printed: its true value lay
	 * in [N, N+1) (lkp truncates), above the threshold.
	 */
	if (s->source == SIDE_AGGREGATE && e->sd_kind &&
	    !strcmp(e->sd_kind, "relative") && isfinite(e->sd_source))
		rel = e->sd_source >= 2 && e->sd_source == floor(e->sd_source) ?
			      e->sd_source + 0.5 : e->sd_source;
	/* (a spread past 99999% is printed as that: no int overflow) */
	if (isfinite(rel) && rel > 2)
		snprintf(buf, len, " \u00b1%3d%%", rel < 99999 ? (int)rel : 99999);
	else
		snprintf(buf, len, "      ");
}

static int lkp_absolute(const char *metric)
{
	return starts_with(metric, "perf-profile") || ends_with(metric, "%");
}

/*
 * lkp's mean: a sum from left to right divided by n (a mean that falls
 * on a rounding tie prints as lkp prints it only if computed the same
 * way); an aggregate's as imported.
 */
static double lkp_mean(const struct cmp_side *s)
{
	if (s->source != SIDE_SAMPLES || !s->nv)
		return s->mean;
	return s->plain_mean;	/* taken from the samples (compare.c) */
}

/* A column title: the commit when the variant is one, else its label. */
static const char *lkp_title(const struct comparison *c, size_t v)
{
	const struct selector *s = &c->var[v];

	return s->dim == DIM_COMMIT && s->value ? s->value : label(c, v);
}

/*
 * The group's axes as lkp prints them: the names sorted and joined by
 * '/' (the params, tbox_group for the machine, testcase), then their
 * values in the same order.
 */
static void lkp_axes(const struct cmp_row *g, FILE *f)
{
	struct kv_ax { const char *k; size_t klen; const char *v;
		       size_t vlen; } ax[64];
	size_t n = 0, i, j;
	const char *p = g->params;

	while (*p && n < ARRAY_SIZE(ax) - 2) {
		const char *eq = strchr(p, '='), *comma;

		if (!eq)
			break;
		comma = strchr(eq, ',');
		ax[n].k = p;
		ax[n].klen = (size_t)(eq - p);
		ax[n].v = eq + 1;
		ax[n].vlen = comma ? (size_t)(comma - eq - 1) : strlen(eq + 1);
		n++;
		p = comma ? comma + 1 : eq + strlen(eq);
	}
	ax[n++] = (struct kv_ax){ "tbox_group", 10,
				  *g->machine ? g->machine : "-",
				  *g->machine ? strlen(g->machine) : 1 };
	ax[n++] = (struct kv_ax){ "testcase", 8,
				  *g->testcase ? g->testcase : "-",
				  *g->testcase ? strlen(g->testcase) : 1 };
	/* insertion sort by name: a few dozen at most */
	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			struct kv_ax t = ax[j];
			size_t m = ax[j - 1].klen < t.klen ? ax[j - 1].klen
							    : t.klen;
			int cmp = memcmp(ax[j - 1].k, t.k, m);

			if (cmp < 0 || (!cmp && ax[j - 1].klen <= t.klen))
				break;
			ax[j] = ax[j - 1];
			ax[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		fprintf(f, "%s%.*s", i ? "/" : "", (int)ax[i].klen, ax[i].k);
	fputs(":\n  ", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%.*s", i ? "/" : "", (int)ax[i].vlen, ax[i].v);
	fputs("\n\n", f);
}

/* The change an imported table printed for this side, against this base. */
static int printed_change(const struct comparison *c,
			  const struct cmp_side *s)
{
	const struct cmp_extra *e = cmp_extra(s);

	return s->source == SIDE_AGGREGATE && e->change_source &&
	       printed_against(c, e->change_base);
}

/* A side's imported fail:runs count (stat "fails"), or NULL. */
static const struct agg_stat *lkp_fails(const struct cmp_side *s)
{
	const struct cmp_extra *e = cmp_extra(s);
	size_t i;

	for (i = 0; i < e->nr_stats; i++)
		if (!strcmp(e->stats[i].stat, "fails") && e->stats[i].n > 0)
			return &e->stats[i];
	return NULL;
}

/*
 * A row of lkp's fail:runs block: imported "fails" counts (a failure or
 * functional stat seen in that many of n runs) on every side.
 */
static int lkp_fail_row(const struct comparison *c, const struct cmp_row *r)
{
	size_t v;

	for (v = 0; v < c->nvar; v++)
		if (!lkp_fails(&r->side[v]))
			return 0;
	return 1;
}

/*
 * The block as ncompare prints it (the 2020 robot report in samples/lkp):
 * "fails:runs" (the count blank when 0) in the value columns, the
 * %reproduction, 100 (f/runs - f0/runs0), between them.
 */
static void lkp_fail_block(const struct comparison *c, const size_t *order,
			   size_t nr, FILE *f)
{
	char cell[64];
	size_t j, v;
	int any = 0;

	for (j = 0; j < nr && !any; j++)
		any = lkp_fail_row(c, &c->rows[order[j]]);
	if (!any)
		return;
	fprintf(f, "       fail:runs");
	for (v = 1; v < c->nvar; v++)
		fprintf(f, "  %%reproduction    fail:runs");
	fprintf(f, "\n           |");
	for (v = 1; v < c->nvar; v++)
		fprintf(f, "             |             |");
	fputc('\n', f);
	for (j = 0; j < nr; j++) {
		const struct cmp_row *r = &c->rows[order[j]];
		const struct agg_stat *b;

		if (!lkp_fail_row(c, r))
			continue;
		b = lkp_fails(&r->side[0]);
		for (v = 0; v < c->nvar; v++) {
			const struct agg_stat *s = lkp_fails(&r->side[v]);

			if (v && s->change_source &&
			    printed_against(c, s->change_base))
				fprintf(f, "%11s ", s->change_source);
			else if (v)
				fprintf(f, "%10.0f%% ",
					100 * (s->value / (double)s->n -
					       b->value / (double)b->n));
			if (s->value > 0)
				snprintf(cell, sizeof(cell), "%.0f:%ld",
					 s->value, s->n);
			else
				snprintf(cell, sizeof(cell), ":%ld", s->n);
			fprintf(f, "%13s   ", cell);
		}
		fprintf(f, "  %s\n", r->metric);
	}
}

static const struct cmp_row *lkp_rows;	/* for the qsort callback */

/* lkp sorts a table's rows by the plain bytes of the metric name. */
static int cmp_lkp_order(const void *a, const void *b)
{
	return strcmp(lkp_rows[*(const size_t *)a].metric,
		      lkp_rows[*(const size_t *)b].metric);
}

/*
 * ncompare's layout (lib/compare.rb), checked byte for byte against the
 * 2025 robot email in samples/lkp: base value %10 + error 6 = 16
 * columns; per new variant the change "%+10.1f%%" (11), a space, value
 * %10 and error 6; then two spaces and the metric.  The ± uses the
 * population standard deviation, as lkp does.
 */
static void lkp_header(const struct comparison *c, FILE *f,
		       const size_t *order, size_t nr)
{
	size_t v;

	fprintf(f, "commit: \n");
	for (v = 0; v < c->nvar; v++)
		fprintf(f, "  %s\n", lkp_title(c, v));
	fputc('\n', f);
	fprintf(f, "%16.16s ", lkp_title(c, 0));
	for (v = 1; v < c->nvar; v++)
		fprintf(f, "%27.27s ", lkp_title(c, v));
	fprintf(f, "\n---------------- ");
	for (v = 1; v < c->nvar; v++)
		fprintf(f, "--------------------------- ");
	fputc('\n', f);
	lkp_fail_block(c, order, nr, f);
	fprintf(f, "         %%stddev");
	for (v = 1; v < c->nvar; v++)
		fprintf(f, "     %%change         %%stddev");
	fprintf(f, "\n             \\  ");
	for (v = 1; v < c->nvar; v++)
		fprintf(f, "        |                \\  ");
	fputc('\n', f);
}

/* One row of lkp's table: base, then each new variant's change and value. */
static void lkp_line(const struct comparison *c, const struct cmp_row *r,
		     struct sbuf *out)
{
	char vb[64], eb[32], num[NUMFMT_BUF];
	double base = lkp_mean(&r->side[0]);
	size_t v;

	fmt_lkp_value(vb, sizeof(vb), base);
	lkp_err(eb, sizeof(eb), &r->side[0]);
	sbuf_addstr(out, vb);
	sbuf_addstr(out, eb);
	for (v = 1; v < c->nvar; v++) {
		const struct cmp_side *s = &r->side[v];
		const char *printed = cmp_extra(s)->change_source;
		double ch, mean = lkp_mean(s);

		if (r->side[0].source == SIDE_NONE || s->source == SIDE_NONE)
			ch = NAN;
		else if (printed_change(c, s))
			ch = INFINITY;	/* as printed */
		else if (lkp_absolute(r->metric))
			ch = mean - base;
		else
			/* ncompare: avg0 of 0 is 1e-100 */
			ch = 100 * (mean - base) / (base != 0 ? base : 1e-100);
		if (isinf(ch) && ends_with(printed, "%")) {
			sbuf_addf(out, "%11s", printed);
		} else if (isinf(ch)) {
			sbuf_addf(out, "%10s ", printed);
		} else if (!isfinite(ch)) {
			sbuf_addf(out, "%11s", "");
		} else if (lkp_absolute(r->metric)) {
			add_fixed_w(out, ch, 10, 1, 1);
			sbuf_addch(out, ' ');
		} else if (fabs(ch) >= 1e5) {
			snprintf(num, sizeof(num), "%+10.2g%%", ch);
			sbuf_addstr(out, num);
		} else {
			add_fixed_w(out, ch, 10, 1, 1);
			sbuf_addch(out, '%');
		}
		fmt_lkp_value(vb, sizeof(vb), mean);
		lkp_err(eb, sizeof(eb), s);
		sbuf_addch(out, ' ');
		sbuf_addstr(out, vb);
		sbuf_addstr(out, eb);
	}
	sbuf_add(out, "  ", 2);
	sbuf_addstr(out, r->metric);
	sbuf_addch(out, '\n');
}

/* A table's rows in their order (write_blocks()'s rows) */
struct lkp_tab {
	const struct comparison *c;
	const size_t *order;
};

/* rows order[lo..hi) into out */
static void lkp_lines(void *ctx, void *job, size_t lo, size_t hi,
		     struct sbuf *out)
{
	const struct lkp_tab *t = ctx;
	size_t i;

	(void)job;
	for (i = lo; i < hi; i++) {
		const struct cmp_row *r = &t->c->rows[t->order[i]];

		if (!lkp_fail_row(t->c, r))	/* else in the fail:runs block */
			lkp_line(t->c, r, out);
	}
}

static int write_lkp(const struct comparison *c, int all, FILE *f)
{
	size_t i, k;
	int printed = 0;

	size_t *order = xmalloc((c->nr + 1) * sizeof(*order));

	lkp_rows = c->rows;
	for (i = 0; i < c->nr; i = k) {
		const struct cmp_row *g = &c->rows[i];
		size_t nr = 0;

		for (k = i; k < c->nr && same_group(g, &c->rows[k]); k++)
			if (all || cmp_row_interesting(c, &c->rows[k]))
				order[nr++] = k;
		if (!nr)
			continue;
		qsort(order, nr, sizeof(*order), cmp_lkp_order);
		if (printed++)
			fputc('\n', f);
		fprintf(f, "================================================="
			   "========================================\n");
		lkp_axes(g, f);
		lkp_header(c, f, order, nr);
		/* in blocks on both cores, written in order */
		{
			struct lkp_tab tab = { c, order };
			struct blocks bl = {
				nr, ROW_BLOCK, NULL, lkp_lines, &tab,
				{ NULL },
			};

			write_blocks(&bl, f);
		}
	}
	free(order);
	if (!printed) {
		lkp_header(c, f, NULL, 0);
		none_significant(c, f);
	}
	return 0;
}

/* ---- json ---- */

static void side_json(struct jsonw *w, const struct cmp_side *s)
{
	int samples = s->source == SIDE_SAMPLES;

	if (s->n >= 0 && s->source != SIDE_NONE)
		jw_int(w, "n", s->n);
	else
		jw_null(w, "n");
	jw_num(w, "mean", s->source ? s->mean : NAN);
	jw_num(w, "stddev", s->source ? s->sd : NAN);
	jw_num(w, "min", samples ? s->sum.min : NAN);
	jw_num(w, "max", samples ? s->sum.max : NAN);
	jw_str(w, "source", s->source == SIDE_NONE ? NULL :
			    samples ? "samples" : "aggregate");
	if (s->source == SIDE_AGGREGATE) {
		const struct cmp_extra *e = cmp_extra(s);

		jw_str(w, "stat", e->stat);
		jw_str(w, "stddev_kind", e->sd_kind);
		jw_str(w, "marker", e->marker);
	}
}

/*
 * The document of SPEC §5.2, written by the streaming writer: a compare
 * of thousands of metrics is mostly this (jansson's tree and dump took
 * three quarters of the time).
 */
/* One row of the JSON document: an object in "rows". */
static void json_row(struct jsonw *w, const struct comparison *c,
		     const struct cmp_row *row)
{
	size_t v;

	jw_object(w, NULL);
	jw_str(w, "testcase", row->testcase);
	jw_str(w, "params", row->params);
	jw_str(w, "machine", row->machine);
	jw_str(w, "metric", row->metric);
	jw_str(w, "unit", row->unit);
	jw_str(w, "direction", direction_name(row->direction));
	jw_object(w, "base");
	side_json(w, &row->side[0]);
	jw_end(w);
	jw_array(w, "vs");
	for (v = 1; v < c->nvar; v++) {
		const struct cmp_vs *x = &row->vs[v - 1];

		jw_object(w, NULL);
		side_json(w, &row->side[v]);
		jw_str(w, "label", label(c, v));
		jw_num(w, "change_pct", x->change_pct);
		jw_num(w, "ci_low_pct", x->ci_low_pct);
		jw_num(w, "ci_high_pct", x->ci_high_pct);
		jw_num(w, "p_value", x->p);
		jw_num(w, "q_value", x->q);
		jw_num(w, "p_family", x->p_family);
		jw_str(w, "test", cmp_method_name(x->method));
		jw_bool(w, "significant", x->significant);
		jw_str(w, "verdict", cmp_verdict_name(x->verdict));
		jw_num(w, "level", x->need_p > 0 ? x->need_p : NAN);
		jw_num(w, "runs_needed", x->runs_needed > 0 ?
			   (double)x->runs_needed : NAN);
		jw_str(w, "note", x->note);
		jw_end(w);
	}
	jw_end(w);
	jw_end(w);
}

/* write_blocks()'s state: the writer inside "rows", a row shown yet? */
struct json_scan {
	const struct comparison *c;
	int all;
	const struct jsonw *w;
	size_t pos;
	int any;
};

/* Is a row before lo shown?  (lo rises from call to call) */
static int json_shown_before(struct json_scan *s, size_t lo)
{
	for (; s->pos < lo && !s->any; s->pos++)
		s->any = s->all || cmp_row_interesting(s->c,
						       &s->c->rows[s->pos]);
	return s->any;
}

/* a block's writer: the document's, with a comma if a row came before */
static void json_start(void *ctx, void *job, size_t lo, size_t hi)
{
	struct json_scan *s = ctx;
	struct jsonw *w = job;

	(void)hi;
	*w = *s->w;
	w->has_items[w->depth] = (unsigned char)json_shown_before(s, lo);
}

static void json_rows(void *ctx, void *job, size_t lo, size_t hi,
		      struct sbuf *out)
{
	const struct json_scan *s = ctx;
	struct jsonw *w = job;
	size_t i;

	w->out = out;
	for (i = lo; i < hi; i++)
		if (s->all || cmp_row_interesting(s->c, &s->c->rows[i]))
			json_row(w, s->c, &s->c->rows[i]);
}

static int write_json(const struct comparison *c, int all, FILE *f)
{
	struct sbuf out = SBUF_INIT;
	struct jsonw w;
	struct json_job {
		_Alignas(PARALLEL_ALIGN) struct jsonw w;
	} job[BLOCK_SLOTS];
	struct json_scan scan = { c, all, &w, 0, 0 };
	struct blocks bl = {
		c->nr, ROW_BLOCK, json_start, json_rows, &scan, { NULL },
	};
	size_t v;
	int ret;

	for (v = 0; v < BLOCK_SLOTS; v++)
		bl.job[v] = &job[v].w;

	sbuf_init(&out, 80 << 10);
	jw_init(&w, &out);
	jw_object(&w, NULL);
	jw_str(&w, "base", label(c, 0));
	jw_array(&w, "compared");
	for (v = 1; v < c->nvar; v++)
		jw_str(&w, NULL, label(c, v));
	jw_end(&w);
	jw_str(&w, "by", dim_name(c->var[0].dim));
	jw_num(&w, "alpha", c->opts.alpha);
	jw_str(&w, "fdr", c->opts.fdr ? "bh" : "none");
	jw_str(&w, "stddev", "sample (n-1) for samples; as the source gave "
			     "it for aggregates");
	jw_array(&w, "rows");
	ret = fwrite(out.buf, 1, out.len, f) == out.len ? 0 : -1;
	sbuf_reset(&out);
	ret |= write_blocks(&bl, f);
	/* the closing bracket on a line of its own after a row */
	w.has_items[w.depth] = (unsigned char)json_shown_before(&scan, c->nr);
	jw_end(&w);
	jw_end(&w);
	sbuf_addch(&out, '\n');
	if (fwrite(out.buf, 1, out.len, f) != out.len || ferror(f))
		ret = -1;
	sbuf_release(&out);
	return ret;
}

/* ---- csv ---- */

/*
 * Rows formatted and written a block at a time (write_blocks()): csv and
 * markdown rows depend on their row alone (markdown's group headings on
 * the row shown before, and its count, carried in the job).
 */

struct rows_job {
	_Alignas(PARALLEL_ALIGN) const struct comparison *c;
	void (*line)(struct rows_job *j, const struct cmp_row *r);
	size_t v;
	int all;
	const struct cmp_row *prev;	/* the last row shown before */
	size_t shown;			/* rows shown before, and by this job */
	struct sbuf *out;		/* write_blocks()'s */
	struct sbuf cell;		/* scratch for a cell's text */
};

static void rows_run(void *ctx, void *job, size_t lo, size_t hi,
		     struct sbuf *out)
{
	struct rows_job *j = job;
	size_t i;

	(void)ctx;
	j->out = out;
	for (i = lo; i < hi; i++)
		j->line(j, &j->c->rows[i]);
}

/* write_blocks()'s state: the job that goes on, and the row it is at */
struct rows_scan {
	struct rows_job *st;
	size_t pos;
};

/* a block starts from the last row shown before it, and their count */
static void rows_start(void *ctx, void *job, size_t lo, size_t hi)
{
	struct rows_scan *s = ctx;
	struct rows_job *st = s->st, *j = job;

	(void)hi;
	for (; s->pos < lo; s->pos++)
		if (shown_vs(&st->c->rows[s->pos].vs[st->v - 1], st->all)) {
			st->prev = &st->c->rows[s->pos];
			st->shown++;
		}
	if (j != st) {
		struct sbuf cell = j->cell;

		*j = *st;
		j->cell = cell;
	}
}

/* The rows shown, from st's state on; st ends as the last row left it. */
static void write_rows(struct rows_job *st, FILE *f)
{
	struct rows_job job[BLOCK_SLOTS];
	struct rows_scan scan = { st, 0 };
	struct blocks bl = {
		st->c->nr, ROW_BLOCK, rows_start, rows_run, &scan, { NULL },
	};
	size_t k;

	for (k = 0; k < BLOCK_SLOTS; k++) {
		bl.job[k] = &job[k];
		sbuf_init(&job[k].cell, 0);
	}
	write_blocks(&bl, f);
	for (k = 0; k < BLOCK_SLOTS; k++)
		sbuf_release(&job[k].cell);
	rows_start(&scan, st, st->c->nr, st->c->nr);
}

/* ---- csv ---- */

static void csv_field(struct sbuf *sb, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n")) {
		sbuf_addstr(sb, s);
		return;
	}
	sbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			sbuf_addch(sb, '"');
		sbuf_addch(sb, *s);
	}
	sbuf_addch(sb, '"');
}

static void csv_num(struct sbuf *sb, double v)
{
	char buf[NUMFMT_BUF];

	sbuf_addch(sb, ',');
	if (isfinite(v))
		sbuf_add(sb, buf, fmt_general(buf, v, 15));
}

static void csv_n(struct sbuf *sb, const struct cmp_side *s)
{
	char buf[NUMFMT_BUF];

	if (s->source && s->n >= 0)
		sbuf_add(sb, buf, fmt_int(buf, s->n));
}

static void csv_row(struct rows_job *j, const struct cmp_row *r)
{
	const struct comparison *c = j->c;
	struct sbuf *sb = j->out;
	size_t v;

	if (!j->all && !cmp_row_interesting(c, r))
		return;
	for (v = 1; v < c->nvar; v++) {
		const struct cmp_vs *x = &r->vs[v - 1];
		const struct cmp_side *a = &r->side[0], *b = &r->side[v];

		csv_field(sb, r->testcase);
		sbuf_addch(sb, ',');
		csv_field(sb, r->params);
		sbuf_addch(sb, ',');
		csv_field(sb, r->machine);
		sbuf_addch(sb, ',');
		csv_field(sb, r->metric);
		sbuf_addch(sb, ',');
		csv_field(sb, r->unit);
		sbuf_addch(sb, ',');
		sbuf_addstr(sb, direction_name(r->direction));
		sbuf_addch(sb, ',');
		csv_field(sb, label(c, 0));
		sbuf_addch(sb, ',');
		csv_n(sb, a);
		csv_num(sb, a->source ? a->mean : NAN);
		csv_num(sb, a->source ? a->sd : NAN);
		sbuf_addch(sb, ',');
		csv_field(sb, label(c, v));
		sbuf_addch(sb, ',');
		csv_n(sb, b);
		csv_num(sb, b->source ? b->mean : NAN);
		csv_num(sb, b->source ? b->sd : NAN);
		csv_num(sb, x->change_pct);
		csv_num(sb, x->ci_low_pct);
		csv_num(sb, x->ci_high_pct);
		csv_num(sb, x->p);
		csv_num(sb, x->q);
		sbuf_addch(sb, ',');
		sbuf_addstr(sb, cmp_method_name(x->method));
		sbuf_addstr(sb, x->significant ? ",true," : ",false,");
		sbuf_addstr(sb, cmp_verdict_name(x->verdict));
		sbuf_addch(sb, '\n');
	}
}

static int write_csv(const struct comparison *c, int all, FILE *f)
{
	struct rows_job st = { .c = c, .line = csv_row, .v = 1, .all = all,
			       .cell = SBUF_INIT };

	fputs("testcase,params,machine,metric,unit,direction,base,base_n,"
	      "base_mean,base_stddev,label,n,mean,stddev,change_pct,"
	      "ci_low_pct,ci_high_pct,p_value,q_value,test,significant,"
	      "verdict\n", f);
	write_rows(&st, f);
	sbuf_release(&st.cell);
	return 0;
}

/* ---- markdown ---- */

static void md_cell(struct sbuf *out, const char *s)
{
	sbuf_add(out, "| ", 2);
	while (*s) {
		size_t n = strcspn(s, "|");

		sbuf_add(out, s, n);
		s += n;
		if (*s == '|') {
			sbuf_add(out, "\\|", 2);
			s++;
		}
	}
	sbuf_addch(out, ' ');
}

static void md_row(struct rows_job *j, const struct cmp_row *r)
{
	const struct comparison *c = j->c;
	const struct cmp_vs *x = &r->vs[j->v - 1];
	struct sbuf *out = j->out, *sb = &j->cell;

	if (!shown_vs(x, j->all))
		return;
	if (!j->prev || !same_group(j->prev, r)) {
		struct sbuf t = SBUF_INIT;
		int level = (int)lround(100 * (1 - c->opts.alpha));

		group_title(&t, r);
		sbuf_addf(out, "%s**%s** vs **%s** — %s\n\n",
			  j->shown ? "\n" : "", label(c, j->v), label(c, 0),
			  t.buf);
		sbuf_addf(out, "| metric | %s | %s | change | %d%% CI | p | "
			  "q | verdict |\n", label(c, 0), label(c, j->v),
			  level);
		sbuf_addstr(out, "|---|---:|---:|---:|---:|---:|---:|---|\n");
		sbuf_release(&t);
	}
	j->prev = r;
	md_cell(out, r->metric);
	sbuf_reset(sb);
	side_text(sb, &r->side[0]);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	side_text(sb, &r->side[j->v]);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	cmp_fmt_pct(sb, x->change_pct);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	add_ci(sb, x);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	cmp_fmt_pval(sb, x->p);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	cmp_fmt_pval(sb, x->q);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	sbuf_addstr(sb, cmp_verdict_name(x->verdict));
	if (x->note) {
		sbuf_add(sb, " (", 2);
		sbuf_addstr(sb, x->note);
		sbuf_addch(sb, ')');
	}
	md_cell(out, sb->buf);
	sbuf_add(out, "|\n", 2);
	j->shown++;
}

static int write_markdown(const struct comparison *c, int all, FILE *f)
{
	struct rows_job st = { .c = c, .line = md_row, .all = all,
			       .cell = SBUF_INIT };

	for (st.v = 1; st.v < c->nvar; st.v++) {
		st.prev = NULL;
		write_rows(&st, f);
	}
	sbuf_release(&st.cell);
	if (!st.shown)
		fputs("No significant changes.\n", f);
	return 0;
}

int cmp_write(const struct comparison *c, enum cmp_format fmt, int all,
	      FILE *f)
{
	switch (fmt) {
	case FMT_TEXT: return write_text(c, all, f);
	case FMT_MMTESTS: return write_mmtests(c, all, f);
	case FMT_LKP: return write_lkp(c, all, f);
	case FMT_JSON: return write_json(c, all, f);
	case FMT_CSV: return write_csv(c, all, f);
	case FMT_MARKDOWN: return write_markdown(c, all, f);
	}
	BUG("unknown format %d", (int)fmt);
}
