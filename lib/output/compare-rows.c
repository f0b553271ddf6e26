/*
 * What every format of compare-fmt.h reads of a comparison (the row
 * model of compare-rows.h), the cells text and markdown share, the
 * driver of the formats that lay out a row at a time, and the table of
 * formats.
 */
#include "core/compat.h"
#include "output/compare-rows.h"
#include "output/blocks.h"
#include "output/numfmt.h"
#include "store/direction.h"

static const struct cmp_format_entry {
	const char *name;	/* --format */
	int (*write)(const struct comparison *c, int all, FILE *f);
} formats[] = {
	[FMT_TEXT] = { "text", cfmt_write_text },
	[FMT_MMTESTS] = { "mmtests", cfmt_write_mmtests },
	[FMT_LKP] = { "lkp", cfmt_write_lkp },
	[FMT_JSON] = { "json", cfmt_write_json },
	[FMT_CSV] = { "csv", cfmt_write_csv },
	[FMT_MARKDOWN] = { "markdown", cfmt_write_markdown },
};

int cmp_format_parse(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(s, formats[i].name))
			return (int)i;
	return -1;
}

int cmp_write(const struct comparison *c, enum cmp_format fmt, int all,
	      FILE *f)
{
	if ((size_t)fmt >= ARRAY_SIZE(formats))
		BUG("unknown format %d", (int)fmt);
	return formats[fmt].write(c, all, f);
}

/* ---- the row model ---- */

static void side_view(const struct cmp_side *s, int exact,
		      struct cfmt_side *out)
{
	const struct cmp_extra *e = cmp_extra(s);
	int present = s->source != SIDE_NONE;
	int samples = s->source == SIDE_SAMPLES;

	out->kind = s->source;
	out->exact = exact;
	out->source = !present ? NULL : samples ? "samples" : "aggregate";
	out->n = present && s->n >= 0 ? s->n : -1;
	out->mean = present ? s->mean : NAN;
	out->sd = present ? s->sd : NAN;
	out->min = samples ? s->sum.min : NAN;
	out->max = samples ? s->sum.max : NAN;
	out->stat = e->stat;
	out->sd_kind = e->sd_kind;
	out->marker = e->marker;
}

void cfmt_row_view(const struct comparison *c, const struct cmp_row *r,
		   struct cfmt_row *out)
{
	out->testcase = r->testcase;
	out->params = r->params;
	out->machine = r->machine;
	out->metric = r->metric;
	out->unit = r->unit;
	out->direction = direction_name(r->direction);
	out->base_label = cfmt_label(c, 0);
	side_view(&r->side[0], r->exact, &out->base);
}

void cfmt_vs_view(const struct comparison *c, const struct cmp_row *r,
		  size_t v, struct cfmt_vs *out)
{
	const struct cmp_vs *x = &r->vs[v - 1];

	out->label = cfmt_label(c, v);
	side_view(&r->side[v], r->exact, &out->side);
	out->change_pct = x->change_pct;
	out->change_na = x->change_na;
	out->ci_low_pct = x->ci_low_pct;
	out->ci_high_pct = x->ci_high_pct;
	out->p = x->p;
	out->q = x->q;
	out->p_welch = x->welch_ok ? x->welch_p : NAN;
	out->p_mwu = x->mwu_ok == CMP_MWU_P ? x->mwu_p : NAN;
	out->p_moderated = x->p_moderated;
	out->test = cmp_method_name(x->method);
	out->verdict = cmp_verdict_name(x->verdict);
	out->significant = x->significant;
	out->source_marked = x->significant && x->method == CMP_SOURCE;
	out->level = x->need_p > 0 ? x->need_p : NAN;
	out->runs_needed = x->runs_needed > 0 ? (double)x->runs_needed : NAN;
	out->note = x->note;
}

/* ---- rows, groups and labels ---- */

const char *cfmt_label(const struct comparison *c, size_t v)
{
	return selector_label(&c->var[v]);
}

int cfmt_ci_level(const struct comparison *c)
{
	return (int)lround(100 * (1 - c->opts.alpha));
}

unsigned cfmt_spreads(const struct comparison *c)
{
	unsigned bits = 0;
	size_t i, v;

	for (i = 0; i < c->nr; i++)
		for (v = 0; v < c->nvar; v++) {
			const struct cmp_side *s = &c->rows[i].side[v];
			const char *k = cmp_extra(s)->sd_kind;

			if (s->source == SIDE_SAMPLES)
				bits |= SPREAD_RUNS;
			else if (s->source != SIDE_AGGREGATE)
				continue;
			else if (!k || !isfinite(s->sd))
				bits |= SPREAD_NONE;
			else if (!strcmp(k, "population"))
				bits |= SPREAD_SOURCE_POP;
			else if (!strcmp(k, "relative"))
				bits |= SPREAD_SOURCE_REL;
			else
				bits |= SPREAD_SOURCE_SAMPLE;
		}
	return bits;
}

void cfmt_spread_legend(struct sbuf *sb, unsigned spreads)
{
	static const struct {
		unsigned bit;
		const char *text;
	} kinds[] = {
		{ SPREAD_SOURCE_SAMPLE, "a sample sd" },
		{ SPREAD_SOURCE_POP, "'pop': a population sd (n)" },
		{ SPREAD_SOURCE_REL, "'rel': printed in % of the mean, "
				     "lkp's the population sd" },
	};
	unsigned source = spreads & ~(unsigned)(SPREAD_RUNS | SPREAD_NONE);
	size_t i, nr = 0;

	if (!source && spreads == SPREAD_NONE) {
		sbuf_addstr(sb, "none: the source printed no spread");
		return;
	}
	if (!source) {
		sbuf_addstr(sb, "sample standard deviation (n-1)");
		return;
	}
	if (spreads & SPREAD_RUNS)
		sbuf_addstr(sb, "of runs, the sample standard deviation "
			    "(n-1); of a source's figures, ");
	sbuf_addstr(sb, "as the source printed it, over runs not imported (");
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (source & kinds[i].bit)
			sbuf_addf(sb, "%s%s", nr++ ? ", " : "", kinds[i].text);
	sbuf_addch(sb, ')');
}

int cfmt_same_group(const struct cmp_row *a, const struct cmp_row *b)
{
	return !strcmp(a->testcase, b->testcase) &&
	       !strcmp(a->params, b->params) && !strcmp(a->machine, b->machine);
}

void cfmt_group_title(struct sbuf *sb, const struct cmp_row *r)
{
	sbuf_addf(sb, "testcase %s", *r->testcase ? r->testcase : "-");
	if (*r->params)
		sbuf_addf(sb, "  params %s", r->params);
	if (*r->machine)
		sbuf_addf(sb, "  machine %s", r->machine);
}

int cfmt_row_shown(const struct comparison *c, const struct cmp_row *r,
		   int all)
{
	return all || cmp_row_interesting(c, r);
}

int cfmt_vs_shown(const struct cmp_vs *x, int all)
{
	return all || (x->significant && x->verdict != CMP_UNCHANGED);
}

/* A commit's prefix that names it in a table: git's shortest default. */
#define COMMIT_PREFIX_MIN 7

/*
 * The same base when the one name is a prefix of the other (commits:
 * at least COMMIT_PREFIX_MIN digits).
 */
int cfmt_printed_against(const struct comparison *c,
			 const char *change_base)
{
	const struct selector *b = &c->var[0];
	const char *base = b->value ? b->value : cfmt_label(c, 0);
	size_t n, m;

	if (!change_base || !base)
		return 0;
	n = strlen(change_base);
	m = strlen(base);
	if (n == m)
		return !strcmp(change_base, base);
	return n >= COMMIT_PREFIX_MIN && m >= COMMIT_PREFIX_MIN &&
	       !strncmp(change_base, base, n < m ? n : m);
}

void cfmt_none_significant(const struct comparison *c, FILE *f)
{
	fprintf(f, "no significant change (%ld test%s over %zu row%s; --all "
		"for every row)\n", c->nr_tests, c->nr_tests == 1 ? "" : "s",
		c->nr, c->nr == 1 ? "" : "s");
}

/* ---- cells ---- */

/* Padding a column's number takes at most, and its longest digits. */
#define CELL_PAD_MAX 16
#define CELL_NUM_MAX 24

/* Numbers as printf prints them, through output/numfmt.h. */
void cfmt_add_fixed_w(struct sbuf *sb, double v, int width, int prec,
		      int plus)
{
	char num[NUMFMT_BUF];
	size_t n = fmt_fixed(num, v, prec, plus), pad;
	char *p;

	pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
	if (pad <= CELL_PAD_MAX && n <= CELL_NUM_MAX) {
		/* a column's number: copies of a constant size, no calls */
		p = sbuf_room(sb, CELL_PAD_MAX + CELL_NUM_MAX);
		memset(p, ' ', CELL_PAD_MAX);
		memcpy(p + pad, num, CELL_NUM_MAX);
		sbuf_setlen(sb, sb->len + pad + n);
		return;
	}
	sbuf_addpad(sb, pad);
	sbuf_add(sb, num, n);
}

static void add_fixed(struct sbuf *sb, double v, int prec, int plus)
{
	cfmt_add_fixed_w(sb, v, 0, prec, plus);
}

void cfmt_add_left(struct sbuf *sb, const char *s, size_t width)
{
	size_t n = strlen(s);

	sbuf_add(sb, s, n);
	if (width > n)
		sbuf_addpad(sb, width - n);
}

void cfmt_add_ci(struct sbuf *sb, const struct cfmt_vs *x)
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

/* Whole numbers below 2^53 print exactly as integers. */
#define EXACT_INT_MAX 9007199254740992.0

void cmp_fmt_mean(struct sbuf *sb, double v, int exact)
{
	char buf[NUMFMT_BUF];

	if (exact && isfinite(v) && v == floor(v) && fabs(v) < EXACT_INT_MAX)
		sbuf_add(sb, buf, fmt_int(buf, (long long)v));
	else
		cmp_fmt_num(sb, v);
}

void cmp_fmt_change(struct sbuf *sb, const struct cfmt_vs *x)
{
	if (x->change_na)
		sbuf_addstr(sb, "n/a");
	else
		cmp_fmt_pct(sb, x->change_pct);
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

/* Below it a p-value is printed in exponent form. */
#define PVAL_FIXED_MIN 0.0001

void cmp_fmt_pval(struct sbuf *sb, double p)
{
	if (!isfinite(p))
		sbuf_addstr(sb, "-");
	else if (p < PVAL_FIXED_MIN)
		sbuf_addf(sb, "%.1e", p);
	else
		add_fixed(sb, p, 4, 0);
}

void cfmt_add_side(struct sbuf *sb, const struct cfmt_side *s)
{
	char num[NUMFMT_BUF];

	if (s->kind == SIDE_NONE) {
		sbuf_addstr(sb, "missing");
		return;
	}
	cmp_fmt_mean(sb, s->mean, s->exact);
	if (isfinite(s->sd)) {
		sbuf_addstr(sb, " ± ");
		cmp_fmt_num(sb, s->sd);
		if (s->kind == SIDE_AGGREGATE && s->sd_kind &&
		    strcmp(s->sd_kind, "sample"))
			sbuf_addstr(sb, !strcmp(s->sd_kind, "population") ?
					       " pop" : " rel");
	}
	if (s->n >= 0) {
		sbuf_add(sb, " (n=", 4);
		sbuf_add(sb, num, fmt_int(num, s->n));
		sbuf_addch(sb, ')');
	} else
		sbuf_addstr(sb, " (n=?)");
	if (s->kind == SIDE_AGGREGATE)
		sbuf_addf(sb, " %s", s->stat);
}

/* ---- the rows of csv and markdown ---- */

static void rows_run(void *ctx, void *job, size_t lo, size_t hi,
		     struct sbuf *out)
{
	struct cfmt_rows *j = job;
	size_t i;

	(void)ctx;
	j->out = out;
	for (i = lo; i < hi; i++)
		j->line(j, &j->c->rows[i]);
}

/* blocks_write()'s state: the job that goes on, and the row it is at */
struct rows_scan {
	struct cfmt_rows *st;
	size_t pos;
};

/* a block starts from the last row shown before it, and their count */
static void rows_start(void *ctx, void *job, size_t lo, size_t hi)
{
	struct rows_scan *s = ctx;
	struct cfmt_rows *st = s->st, *j = job;

	(void)hi;
	for (; s->pos < lo; s->pos++)
		if (cfmt_vs_shown(&st->c->rows[s->pos].vs[st->v - 1],
				  st->all)) {
			st->prev = &st->c->rows[s->pos];
			st->shown++;
		}
	if (j != st) {
		struct sbuf cell = j->cell;

		*j = *st;
		j->cell = cell;
	}
}

void cfmt_write_rows(struct cfmt_rows *st, FILE *f)
{
	struct cfmt_rows job[BLOCK_SLOTS];
	struct rows_scan scan = { st, 0 };
	struct blocks bl = {
		st->c->nr, ROW_BLOCK, rows_start, rows_run, &scan, { NULL },
	};
	size_t k;

	for (k = 0; k < BLOCK_SLOTS; k++) {
		bl.job[k] = &job[k];
		sbuf_init(&job[k].cell, 0);
	}
	blocks_write(&bl, f);
	for (k = 0; k < BLOCK_SLOTS; k++)
		sbuf_release(&job[k].cell);
	rows_start(&scan, st, st->c->nr, st->c->nr);
}
