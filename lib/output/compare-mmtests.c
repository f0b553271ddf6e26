/*
 * compare's mmtests format: MMTests' compare-kernels tables.  Rows from
 * samples and imported summaries in the layout of the current MMTests;
 * metrics MMTests summarises (the MMTests tree importer) in MMTests' own
 * tables and statistics, of the version asked for.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "output/blocks.h"
#include "output/compare-rows.h"
#include "store/direction.h"

/*
 * compare-kernels layout (Compare.pm/PrintGeneric.pm): a two-line
 * header split at the first '-' of each name (past "-rcN"), right
 * aligned to FieldLength + CompareLength + 4 = 12 + 7 + 4 = 23 columns;
 * rows "%-Ns %-Ms" (statistic, operation) then per variant "%12.2f" and
 * " (%7.2f%%)", or " *%7.2f%%*" where significant; the percentage is
 * positive when better (pdiff/pndiff); statistics outer, operations
 * inner.  Checked against the 5.3.0-rc3 mail table in research/mmtests.md.
 */
#define MM_FIELD_LEN 12		/* FieldLength: a value */
#define MM_COMPARE_LEN 7	/* CompareLength: its percentage */
/* a percentage's cell: " (", the number, "%)" */
#define MM_PCT_CELL (MM_COMPARE_LEN + 4)
#define MM_COLUMN (MM_FIELD_LEN + MM_PCT_CELL)	/* a variant's column */
/* the label columns of the header that stands for an empty table */
#define MM_EMPTY_LABELS 18
/* MMTests' decimals, and the most a value imported with more takes */
#define MM_DECIMALS 2
#define MM_DECIMALS_MAX 6
/* from here on "%.*f" has no decimals of a double's left to show */
#define MM_DECIMALS_EXACT_MAX 1e15
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

/* sd * 100 / m as MMTests orders it, unless sd * 100 overflows */
static double mm_cv(double sd, double m)
{
	return isfinite(sd * 100) ? sd * 100 / m : sd / m * 100;
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

		return m == 0 ? 0 : mm_cv(sd, m);
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
	int d = MM_DECIMALS;
	size_t v;

	for (v = 0; v < c->nvar; v++) {
		double x = mm_lookup(&r->side[v], name);
		char buf[64];

		if (!isfinite(x) || fabs(x) >= MM_DECIMALS_EXACT_MAX)
			continue;
		while (d < MM_DECIMALS_MAX) {
			snprintf(buf, sizeof(buf), "%.*f", d, x);
			if (strtod(buf, NULL) == x)
				break;
			d++;
		}
	}
	return d;
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
		    !cfmt_printed_against(c, a->change_base))
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
		    cfmt_printed_against(c, e->stats[i].change_base))
			*d = strtod(e->stats[i].change_source, NULL);
}

/* The line's statistic and operation, left-aligned in wl and wo. */
static void mm_labels(struct sbuf *out, const char *stat, size_t wl,
		      const char *op, size_t wo)
{
	cfmt_add_left(out, stat, wl);
	sbuf_addch(out, ' ');
	cfmt_add_left(out, op, wo);
}

/*
 * A variant's cell: its value x, width wide with dec decimals, then
 * (pct) its percentage d, between stars where significant.
 */
static void mm_cell(struct sbuf *out, double x, int width, int dec, double d,
		    int pct, int sig)
{
	cfmt_add_fixed_w(out, x, width, dec, 0);
	if (!pct)
		return;
	sbuf_add(out, sig ? " *" : " (", 2);
	if (isfinite(d)) {
		cfmt_add_fixed_w(out, d, MM_COMPARE_LEN, 2, 0);
		sbuf_add(out, sig ? "%*" : "%)", 2);
	} else {
		/* past the doubles (a base near 0): no percentage */
		sbuf_addf(out, "%*s", MM_COMPARE_LEN + 1, "n/a");
		sbuf_addch(out, sig ? '*' : ')');
	}
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
	int dec = st >= 0 ? MM_DECIMALS : mm_decimals(c, r, name);
	int no_pct = st < 0 && mm_no_pct(c, r, name);
	/* the comparison statistic carries the significance star */
	const char *cmp_stat = st >= 0 ? mm_stat_label(r, MM_MEAN)
				       : cmp_extra(&r->side[0])->stat;
	/*
	 * Without an aggregate base, a statistic of samples and the star's
	 * have mm_stat_label()'s own names, one for each st: the spread and
	 * the star are known from st, without looking the names up
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
	mm_labels(out, stat, wl, mm_op(r), wo);
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
		mm_cell(out, x, MM_FIELD_LEN, dec, d, !no_pct, sig);
	}
	sbuf_addch(out, '\n');
}

/*
 * Lines of a table's statistics taken from samples: every row's line of
 * the first statistic, then of the next, each a numbered item (the
 * statistic times the rows, plus the row) of the table's rows lo..hi
 * (blocks_write()'s rows).
 */
struct mm_tab {
	const struct comparison *c;
	size_t lo, hi, wl, wo;
	int all, tree;
};

/* Is row r in a group's table (and not in MMTests' own tables above)? */
static int mm_in_table(const struct comparison *c, const struct cmp_row *r,
		       int all, int tree)
{
	return cfmt_row_shown(c, r, all) && !(tree && r->summary);
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

		if (mm_in_table(t->c, r, t->all, t->tree) &&
		    !mm_from_summaries(r))
			mm_line(t->c, r, (int)st, NULL, t->wl, t->wo, out);
		if (++i == n) {
			i = 0;
			st++;
		}
	}
}

/* Items a block holds: lines of about 70 bytes */
#define MM_BLOCK 4096

/*
 * The two-line kernel header of compare-kernels: each label split where
 * MMTests splits it, the first column width0 wide, the others width
 * (MM_COLUMN: values and their percentages).
 */
static void mm_kernels(const struct comparison *c, int width0, int width,
		       FILE *f)
{
	struct sbuf top = SBUF_INIT, bot = SBUF_INIT;
	size_t v;

	for (v = 0; v < c->nvar; v++) {
		struct sbuf a = SBUF_INIT, b = SBUF_INIT;
		int w = v ? width : width0;

		mm_split(cfmt_label(c, v), &a, &b);
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

	return style == MMTESTS_STYLE_2020 ? l2020[!!higher][st]
					   : lnow[!!higher][st];
}

/* The mean MMTests compares for this direction. */
static double mm_tmean(const double *x, size_t n, int higher)
{
	return higher ? stats_hmean(x, n) : stats_mean(x, n);
}

/* The spread beside it: 2020 plain n-1; current HStddev for Hmean. */
static double mm_tsd(const double *x, size_t n, int higher, int style)
{
	if (style != MMTESTS_STYLE_2020 && higher)
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
		m = style == MMTESTS_STYLE_2020 ? stats_mean(x, n)
						: mm_tmean(x, n, higher);
		if (!isfinite(sd))
			sd = 0;
		return m == 0 || !isfinite(m) ? 0 : mm_cv(sd, m);
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

/* MMTests 2020's level for the t-test behind its star */
#define MM_2020_ALPHA 0.10
/* the current star's bands: the normal quantile at 97.5% (1.96 sigma) */
#define MM_BAND_Z 1.959963984540054

/*
 * MMTests' star on the mean row of side v against the base.  2020: the
 * two-sample t statistic with unpooled variances and n1 + n2 - 2 degrees
 * of freedom, significant at p < MM_2020_ALPHA; equal zero spreads:
 * significant when the means differ; an operation the run lacks:
 * significant (its mean is undefined, so "differs").  Current: the
 * +-MM_BAND_Z sigma bands do not overlap (cidiff), never with n <= 1.
 */
static int mm_star(const struct cmp_side *b, const struct cmp_side *x,
		   int higher, int style)
{
	const struct cmp_extra *be = cmp_extra(b), *xe = cmp_extra(x);
	double mb, mx, sb, sx, t, p;

	if (style == MMTESTS_STYLE_2020) {
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
		return p < MM_2020_ALPHA;
	}
	if (be->nmm <= 1 || xe->nmm <= 1)
		return 0;
	mb = mm_tmean(be->mm, be->nmm, higher);
	mx = mm_tmean(xe->mm, xe->nmm, higher);
	sb = MM_BAND_Z * mm_tsd(be->mm, be->nmm, higher, style);
	sx = MM_BAND_Z * mm_tsd(xe->mm, xe->nmm, higher, style);
	if (!isfinite(mb) || !isfinite(mx) || !isfinite(sb) || !isfinite(sx))
		return 0;
	t = sb + sx;
	p = t == 0 ? mb - mx : (mb - mx) / t;
	return fabs(p) > 1;
}

/* A value's width in the current MMTests' tables, and in 2020's Ops */
#define MM_FIELD_LEN_CURRENT 18
#define MM_OPS_LEN_2020 15

/*
 * One MMTests table of a group being written: the main one (Multiops or
 * Singleops rows) or a monitor table (mon_label: Duration, Ops).
 */
struct mm_tree {
	const struct comparison *c;
	int style;			/* enum mmtests_style */
	const char *mon_label;		/* NULL: the main table */
	const struct cmp_row **rows;	/* owned: its rows */
	size_t nr;
	size_t wl, wo;			/* the labels' and operations' width */
	int fl;				/* a value's width */
	int any_multi;			/* a Multiops row among them */
	double *val;			/* owned: a line's value per variant */
	struct sbuf out;		/* the lines, written at once */
};

/*
 * A line of t: label, op, then per variant val[] and (but in a monitor
 * table) its %; pndiff: lower is better; star_row: the line that
 * carries MMTests' star.
 */
static void mm_tree_line(struct mm_tree *t, const struct cmp_row *r,
			 const char *label, const char *op, int pndiff,
			 int star_row)
{
	const double *val = t->val;
	int higher = mm_higher(r);
	size_t v;

	mm_labels(&t->out, label, t->wl, op, t->wo);
	for (v = 0; v < t->c->nvar; v++) {
		/* NaN, an undefined mean, a missing run: 0.00 (0.00%) */
		double x = isfinite(val[v]) ? val[v] : 0, d = 0;
		int sig = 0;

		if (v && isfinite(val[v]) && isfinite(val[0]))
			d = cmp_mmtests_pdiff(val[v], val[0],
					      higher && !pndiff);
		if (v && star_row)
			sig = mm_star(&r->side[0], &r->side[v], higher,
				      t->style);
		mm_cell(&t->out, x, t->fl, MM_DECIMALS, d, !t->mon_label, sig);
	}
	sbuf_addch(&t->out, '\n');
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

/* The rows i..k of c that are t's, and its columns' widths. */
static void mm_tree_rows(struct mm_tree *t, size_t i, size_t k)
{
	size_t j;
	int st;

	for (j = i; j < k; j++) {
		const struct cmp_row *r = &t->c->rows[j];
		struct mm_sum m;

		if (!r->summary || r->side[0].source != SIDE_SAMPLES ||
		    !cmp_extra(&r->side[0])->nmm)
			continue;	/* MMTests prints the base's ops only */
		mm_parse_summary(r->summary, &m);
		if (!!t->mon_label != (m.kind == MMK_MONITOR) ||
		    (t->mon_label && strcmp(m.label, t->mon_label)))
			continue;
		t->rows[t->nr++] = r;
		if (strlen(mm_tree_op(r, &m)) > t->wo)
			t->wo = strlen(mm_tree_op(r, &m));
		if (m.kind != MMK_MULTI) {
			if (strlen(m.label) > t->wl)
				t->wl = strlen(m.label);
			continue;
		}
		t->any_multi = 1;
		for (st = 0; st < MT_NR; st++) {
			const char *l = mm_tstat_label(st, mm_higher(r),
						       t->style);

			if (l && strlen(l) > t->wl)
				t->wl = strlen(l);
		}
	}
}

/* Multiops: the statistics outer, the operations inner */
static void mm_tree_multi(struct mm_tree *t)
{
	size_t j, v;
	int st;

	for (st = 0; t->any_multi && st < MT_NR; st++) {
		for (j = 0; j < t->nr; j++) {
			const struct cmp_row *r = t->rows[j];
			int higher = mm_higher(r);
			const char *l = mm_tstat_label(st, higher, t->style);
			struct mm_sum m;

			mm_parse_summary(r->summary, &m);
			if (m.kind != MMK_MULTI || !l)
				continue;
			for (v = 0; v < t->c->nvar; v++) {
				const struct cmp_extra *e =
					cmp_extra(&r->side[v]);

				t->val[v] = mm_tvalue(e->mm, e->nmm, st, higher,
						      t->style);
			}
			mm_tree_line(t, r, l, mm_tree_op(r, &m),
				     st == MT_STDDEV || st == MT_COEFFVAR,
				     st == MT_MEAN);
		}
	}
}

/* Singleops and monitor rows: a line each, after the Multiops ones */
static void mm_tree_single(struct mm_tree *t)
{
	size_t j, v;

	for (j = 0; j < t->nr; j++) {
		const struct cmp_row *r = t->rows[j];
		struct mm_sum m;

		mm_parse_summary(r->summary, &m);
		if (m.kind == MMK_MULTI)
			continue;
		for (v = 0; v < t->c->nvar; v++) {
			const struct cmp_extra *e = cmp_extra(&r->side[v]);

			t->val[v] = mm_single(e->mm, e->nmm, mm_higher(r),
					      m.kind == MMK_SINGLE_MEAN);
		}
		mm_tree_line(t, r, m.label, mm_tree_op(r, &m), 0, 0);
	}
}

/*
 * One MMTests table of the group of rows i..k: the main one (mon_label
 * NULL) or a monitor table.  Returns 1 if it has rows (f NULL: only
 * says so).
 */
static int mm_tree_table(const struct comparison *c, size_t i, size_t k,
			 const char *mon_label, int style, FILE *f)
{
	struct mm_tree t = {
		.c = c, .style = style, .mon_label = mon_label,
		.fl = style == MMTESTS_STYLE_2020 ? MM_FIELD_LEN
						  : MM_FIELD_LEN_CURRENT,
		.out = SBUF_INIT,
	};
	int col;

	t.rows = xcalloc(k - i, sizeof(*t.rows));
	mm_tree_rows(&t, i, k);
	if (t.nr && f) {
		QSORT(t.rows, t.nr, cmp_pos);
		if (mon_label && !strcmp(mon_label, "Ops"))
			t.fl = style == MMTESTS_STYLE_2020 ?
			       MM_OPS_LEN_2020 : MM_FIELD_LEN_CURRENT;
		col = mon_label ? t.fl : t.fl + MM_PCT_CELL;
		mm_kernels(c, (int)(t.wl + 1 + t.wo) + col, col, f);
		t.val = xcalloc(c->nvar, sizeof(*t.val));
		mm_tree_multi(&t);
		mm_tree_single(&t);
		fwrite_unlocked(t.out.buf, 1, t.out.len, f);
	}
	sbuf_release(&t.out);
	free(t.rows);
	free(t.val);
	return t.nr > 0;
}

/* The MMTests tables of a group with summarised rows. */
static void mm_tree_group(const struct comparison *c, size_t i, size_t k,
			  int printed, FILE *f)
{
	static const char *const monitors[] = { "Duration", "Ops" };
	int style = c->opts.mm_style ? c->opts.mm_style : MMTESTS_STYLE_2020;
	struct sbuf title = SBUF_INIT;
	size_t t;

	cfmt_group_title(&title, &c->rows[i]);
	fprintf(f, "%s%s\n\n", printed ? "\n" : "", title.buf);
	sbuf_release(&title);
	mm_tree_table(c, i, k, NULL, style, f);
	for (t = 0; t < ARRAY_SIZE(monitors); t++)
		if (mm_tree_table(c, i, k, monitors[t], style, NULL)) {
			fputc('\n', f);
			mm_tree_table(c, i, k, monitors[t], style, f);
		}
}

/*
 * The table of a group's rows from samples and imported summaries (but
 * those in MMTests' own tables above it, when tree).
 */
struct mm_group {
	const struct comparison *c;
	size_t i, k;		/* its rows */
	int all, tree;
	const char **names;	/* owned array: the imported statistics */
	size_t nn, an;
	size_t wl, wo;		/* the labels' and operations' width */
	int any;		/* a row in the table */
	int any_samples;	/* a row from samples */
};

/* The statistics are the outer loop: collect them first. */
static void mm_group_scan(struct mm_group *g)
{
	size_t j;
	int st;

	for (j = g->i; j < g->k; j++) {
		const struct cmp_row *r = &g->c->rows[j];

		if (!mm_in_table(g->c, r, g->all, g->tree))
			continue;
		g->any = 1;
		if (strlen(mm_op(r)) > g->wo)
			g->wo = strlen(mm_op(r));
		if (mm_from_summaries(r)) {
			const struct cmp_extra *e = cmp_extra(&r->side[0]);
			size_t s;

			for (s = 0; s < e->nr_stats; s++)
				mm_add_label(&g->names, &g->nn, &g->an,
					     e->stats[s].stat);
			continue;
		}
		g->any_samples = 1;
		for (st = 0; st < MM_NR; st++)
			if (strlen(mm_stat_label(r, st)) > g->wl)
				g->wl = strlen(mm_stat_label(r, st));
	}
	for (j = 0; j < g->nn; j++)
		if (strlen(g->names[j]) > g->wl)
			g->wl = strlen(g->names[j]);
}

static void mm_group_lines(const struct mm_group *g, FILE *f)
{
	const struct comparison *c = g->c;
	size_t s, j;

	mm_kernels(c, (int)(g->wl + 1 + g->wo) + MM_COLUMN, MM_COLUMN, f);
	if (g->any_samples) {
		/* each statistic's lines in row order, in blocks */
		struct mm_tab tab = {
			.c = c, .lo = g->i, .hi = g->k, .wl = g->wl,
			.wo = g->wo, .all = g->all, .tree = g->tree,
		};
		struct blocks bl = {
			MM_NR * (g->k - g->i), MM_BLOCK, NULL, mm_items, &tab,
			{ NULL },
		};

		blocks_write(&bl, f);
	}
	for (s = 0; s < g->nn; s++) {
		struct sbuf l = SBUF_INIT;

		for (j = g->i; j < g->k; j++)
			if (mm_in_table(c, &c->rows[j], g->all, g->tree) &&
			    mm_from_summaries(&c->rows[j]))
				mm_line(c, &c->rows[j], -1, g->names[s], g->wl,
					g->wo, &l);
		fwrite_unlocked(l.buf, 1, l.len, f);
		sbuf_release(&l);
	}
}

int cfmt_write_mmtests(const struct comparison *c, int all, FILE *f)
{
	size_t i, k;
	int printed = 0;

	for (i = 0; i < c->nr; i = k) {
		struct mm_group g = { .c = c, .i = i, .all = all };
		struct sbuf t = SBUF_INIT;

		for (k = i; k < c->nr &&
			    cfmt_same_group(&c->rows[i], &c->rows[k]); k++)
			g.tree |= c->rows[k].summary &&
				  cmp_extra(&c->rows[k].side[0])->nmm > 0;
		g.k = k;
		if (g.tree)
			/* MMTests' tables are printed whole */
			mm_tree_group(c, i, k, printed++, f);
		mm_group_scan(&g);
		if (g.any) {
			if (printed++)
				fputc('\n', f);
			if (!g.tree) {
				cfmt_group_title(&t, &c->rows[i]);
				fprintf(f, "%s\n\n", t.buf);
				sbuf_release(&t);
			}
			mm_group_lines(&g, f);
		}
		free(g.names);
	}
	if (!printed) {
		/* the kernels' header, then what stands for the rows */
		mm_kernels(c, MM_EMPTY_LABELS + MM_COLUMN, MM_COLUMN, f);
		cfmt_none_significant(c, f);
	}
	return 0;
}
