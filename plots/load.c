/*
 * What a chart shows, read from the database into a struct plot:
 * plot_load() picks the loader of the chart's kind (load-int.h).  Here
 * the compare engine's rows and verdicts (compare) and a metric's
 * history over the recorded commits, with its change points and the
 * bisection's marks (trend); samples against a run parameter or the
 * metric's trailing number in load-sweep.c (sweep), monitor series as
 * values or counter rates, with the zone watermarks, in load-series.c
 * (series).
 */
#include "core/compat.h"
#include "analysis/compare.h"
#include "stats/bisect.h"
#include "stats/changepoint.h"
#include "stats/stats.h"
#include "store/commits.h"
#include "load-int.h"

/* ---- compare ---- */

static int load_compare(struct db *db, const struct plot_request *rq,
			struct plot *p)
{
	struct cmp_opts o = CMP_OPTS_INIT;
	struct selector *var = xcalloc(rq->nr_var, sizeof(*var));
	const char *mglob[1] = { rq->metric_glob };
	const char *tglob[1] = { rq->testcase_glob };
	const char **names = xcalloc(rq->nr_var, sizeof(*names));
	struct comparison cmp;
	size_t *rows = NULL, i;
	int ret = -1;

	for (i = 0; i < rq->nr_var; i++) {
		if (!rq->var[i].sel)
			BUG("a compare plot of a single run");
		var[i] = *rq->var[i].sel;	/* borrowed copies */
		names[i] = rq->var[i].name;
	}
	o.dim = rq->dim;
	o.param = rq->param;
	o.machine = rq->machine;
	if (rq->metric_glob) {
		o.metric_globs.v = mglob;
		o.metric_globs.nr = 1;
	}
	if (rq->testcase_glob) {
		o.testcase_globs.v = tglob;
		o.testcase_globs.nr = 1;
	}
	o.keep_samples = 1;	/* the chart draws each run */
	if (compare_variants(db, var, rq->nr_var, &o, &cmp)) {
		free(var);
		free(names);
		return -2;
	}
	if (!cmp.nr) {
		char *vl = variant_list(rq);

		error("no metric matching '%s' has values in %s",
		      glob_text(rq), vl);
		free(vl);
		goto out;
	}
	if (cmp.nr > PLOT_MAX_PANELS) {
		error("'%s' matches %zu metrics in these variants; a compare "
		      "plot draws at most %d: narrow it with --metric, "
		      "--testcase or --machine", glob_text(rq), cmp.nr,
		      PLOT_MAX_PANELS);
		goto out;
	}
	rows = xcalloc(cmp.nr, sizeof(*rows));
	for (i = 0; i < cmp.nr; i++)
		rows[i] = i;
	plot_compare_rows(&cmp, rows, cmp.nr, names, p);
	ret = 0;
out:
	comparison_release(&cmp);
	free(rows);
	free(names);
	free(var);
	return ret;
}

/* ---- trend ---- */

/* The digits of a sha in a trend's tics, legends and heading. */
#define SHA_DIGITS 7
/* How far a segment's mean reaches past its first and last commit. */
#define SEGMENT_OVERHANG 0.4

/* A tic at x (sorted, each once). */
static void trend_tic(struct plot *p, double x, const char *sha)
{
	size_t t;

	for (t = 0; t < p->nr_tics; t++)
		if (p->tics[t].x == x)
			return;
	ALLOC_GROW(p->tics, p->nr_tics + 1, p->alloc_tics);
	for (t = p->nr_tics; t > 0 && p->tics[t - 1].x > x; t--)
		p->tics[t] = p->tics[t - 1];
	p->tics[t].x = x;
	p->tics[t].text = xstrndup(sha, SHA_DIGITS);
	p->nr_tics++;
}

/*
 * The bisection's marks on a trend panel: for each verdict a line of
 * points at the means of the commits bisect_range() gives it.  0, or -1
 * after error() (no run at good or bad, no noise, good like bad).
 */
static int trend_bisect(struct plot_panel *pn, const double *x,
			const size_t *g, size_t n, const struct commit_row *good,
			const struct commit_row *bad, double alpha,
			const char *metric)
{
	static const char *const names[] = {
		"bisect good", "bisect bad", "bisect unknown",
		"bisect between",
	};
	struct bisect_result res;
	size_t v, i;
	int r = bisect_range(x, g, n, (size_t)good->position,
			     (size_t)bad->position, alpha, &res);

	if (r == BISECT_ESAME)
		return error("%s: good %.12s and bad %.12s do not differ at "
			     "alpha %g (p %.2g): nothing to mark", metric,
			     good->sha, bad->sha, alpha, res.p);
	if (r)
		return error("%s: no bisection to mark: %s", metric,
			     r == BISECT_ENOGOOD ? "no run at --good" :
			     r == BISECT_ENOBAD ? "no run at --bad" :
			     r == BISECT_ENONOISE ? "no commit has 2 runs" :
			     "a value that is not finite");
	for (v = 0; v < ARRAY_SIZE(names); v++) {
		struct plot_line *ln = NULL;
		size_t cnt = 0;

		for (i = 0; i < res.nr; i++)
			cnt += res.points[i].cls.verdict == v;
		if (!cnt)
			continue;
		ln = plot_add_line_take(pn, xstrfmt("%s (%zu)", names[v], cnt),
					-1);
		ln->bisect = (int)v + 1;
		for (i = 0; i < res.nr; i++)
			if (res.points[i].cls.verdict == v)
				plot_line_add(ln, (double)res.points[i].group,
					      res.points[i].mean, NAN);
	}
	bisect_result_release(&res);
	return 0;
}

/* --good and --bad as recorded commits, good the older.  0, -1 or -2. */
static int trend_range(struct db *db, const struct plot_request *rq,
		       struct commit_row *good, struct commit_row *bad)
{
	int r = commits_resolve(db, rq->good, good);

	if (!r)
		r = commits_resolve(db, rq->bad, bad);
	if (r)
		return r == -2 ? -2 : -1;
	if (good->position >= bad->position)
		return error("--good %.12s must come before --bad %.12s in the "
			     "recorded order", good->sha, bad->sha);
	return 0;
}

/* The end of the series (history_same_series()) starting at rows[i]. */
static size_t series_end(const struct history_row *rows, size_t nr,
			 size_t i)
{
	size_t j;

	for (j = i; j < nr && history_same_series(&rows[i], &rows[j]); j++)
		;
	return j;
}

/* A new panel for the series of r, titled by what it is of. */
static struct plot_panel *trend_panel_new(struct plot *p,
					  const struct history_row *r)
{
	struct sbuf t = SBUF_INIT;

	sbuf_addstr(&t, r->metric);
	if (*r->testcase)
		sbuf_addf(&t, "  %s", r->testcase);
	if (*r->params)
		sbuf_addf(&t, "  %s", r->params);
	if (*r->machine)
		sbuf_addf(&t, "  %s", r->machine);
	return plot_add_panel_take(p, sbuf_detach(&t, NULL),
				   plot_unit_label(r->unit));
}

/*
 * A point of ln per commit, at its position g: the mean of its values
 * in x, their sd (n-1) as the error bar; and a tic with its sha.
 */
static void trend_points(struct plot *p, struct plot_line *ln,
			 const double *x, const size_t *g, size_t n,
			 const struct history_row *rows)
{
	size_t k, c;

	for (k = 0; k < n; k = c) {
		double m, sd = NAN;

		for (c = k; c < n && g[c] == g[k]; c++)
			;
		m = stats_mean(x + k, c - k);
		if (c - k > 1)
			sd = stats_sd_sample(x + k, c - k);
		plot_line_add(ln, (double)g[k], m, sd);
		trend_tic(p, (double)g[k], rows[k].sha);
	}
}

/* The segments between the change points cp, dashed at their means. */
static void trend_segments(struct plot_panel *pn, const double *x,
			   const size_t *g, size_t n,
			   const struct cp_result *cp)
{
	size_t seg, k, end;

	for (seg = 0, k = 0; seg <= cp->nr; seg++, k = end) {
		struct plot_line *sl;

		end = seg < cp->nr ? cp->points[seg].index : n;
		sl = plot_add_line_take(pn, xstrdup(seg ? "" :
					"mean between change points"), -1);
		sl->dash = DASH_SEGMENT;
		sl->glyph = '-';
		plot_line_add(sl, (double)g[k] - SEGMENT_OVERHANG,
			      stats_mean(x + k, end - k), NAN);
		plot_line_add(sl, (double)g[end - 1] + SEGMENT_OVERHANG,
			      stats_mean(x + k, end - k), NAN);
	}
}

/*
 * Each change point of cp: a dashed vertical line before its commit,
 * across the points of pn's first line with their error bars, its
 * change and p in the legend.
 */
static void trend_changes(struct plot_panel *pn, const size_t *g,
			  const struct history_row *rows,
			  const struct cp_result *cp)
{
	const struct plot_line *ln = &pn->lines[0];
	double lo = INFINITY, hi = -INFINITY;
	size_t c, m;

	for (m = 0; m < ln->nr; m++) {
		double e = isfinite(ln->pt[m].err) ? ln->pt[m].err : 0;

		lo = fmin(lo, ln->pt[m].y - e);
		hi = fmax(hi, ln->pt[m].y + e);
	}
	for (c = 0; c < cp->nr; c++) {
		const struct cp_point *q = &cp->points[c];
		double at = ((double)g[q->index - 1] + (double)g[q->index]) / 2;
		struct plot_line *vl;

		vl = plot_add_line_take(pn, xstrfmt("change at %.*s: %+.2f%% "
						    "(p %.2g)", SHA_DIGITS,
						    rows[q->index].sha,
						    q->change_pct, q->pvalue),
					(int)(c % (PLOT_MAX_VARIANTS - 1)) + 1);
		vl->dash = DASH_CHANGE;
		vl->glyph = "|!I"[c % 3];
		plot_line_add(vl, at, lo, NAN);
		plot_line_add(vl, at, hi, NAN);
	}
}

/*
 * The panel of the series rows[0..n): a point per commit (mean, sd n-1
 * as its error bar), the means of the segments between the change
 * points (changepoint.h, Otava's defaults) as dashed grey lines, each
 * change point as a dashed vertical line between its commit and the one
 * before, and the bisection's marks when rq asks.  Adds the change
 * points to *nr_cp.  0, or -1 after error().
 */
static int trend_series(struct plot *p, const struct plot_request *rq,
			const struct history_row *rows, size_t n,
			const struct cp_options *cpo,
			const struct commit_row *good,
			const struct commit_row *bad, size_t *nr_cp)
{
	struct cp_result cp = CP_RESULT_INIT;
	struct plot_panel *pn;
	double *x = xmalloc(n * sizeof(*x));
	size_t *g = xmalloc(n * sizeof(*g)), k;
	int ret = -1;

	for (k = 0; k < n; k++) {
		x[k] = rows[k].value;
		g[k] = (size_t)rows[k].position;
	}
	if (cp_detect(x, g, n, cpo, &cp)) {
		error("%s: change points could not be computed",
		      rows[0].metric);
		goto out;
	}
	pn = trend_panel_new(p, &rows[0]);
	trend_points(p, plot_add_line_take(pn, xstrdup("mean +- sd per "
						       "commit"), 0),
		     x, g, n, rows);
	trend_segments(pn, x, g, n, &cp);
	trend_changes(pn, g, rows, &cp);
	*nr_cp += cp.nr;
	if (rq->good && trend_bisect(pn, x, g, n, good, bad, rq->alpha,
				     rows[0].metric))
		goto out;
	ret = 0;
out:
	cp_result_release(&cp);
	free(x);
	free(g);
	return ret;
}

/* The heading of a trend of nr_cp change points, and of its bisection. */
static void trend_titles(struct plot *p, const struct plot_request *rq,
			 size_t nr_cp, const struct cp_options *cpo,
			 const struct commit_row *good,
			 const struct commit_row *bad)
{
	p->title = xstrfmt("trend of %s", glob_text(rq));
	p->subtitle = xstrfmt("%zu change point%s (E-divisive, t-test p < "
			      "%g); bars: sd (n-1)", nr_cp,
			      nr_cp == 1 ? "" : "s", cpo->max_pvalue);
	if (rq->good) {
		char *t = xstrfmt("%s; bisect %.*s..%.*s, t-tests at %g",
				  p->subtitle, SHA_DIGITS, good->sha,
				  SHA_DIGITS, bad->sha, rq->alpha);

		free(p->subtitle);
		p->subtitle = t;
	}
}

/* One panel per series (metric, testcase, params, machine), in order. */
static int load_trend(struct db *db, const struct plot_request *rq,
		      struct plot *p)
{
	struct commit_row good = { 0 }, bad = { 0 };
	struct run_filter f = { 0 };
	struct history_row *rows = NULL;
	struct cp_options cpo = CP_OPTIONS_INIT;
	size_t nr = 0, i, j, nr_series = 0, nr_cp = 0;
	int ret = -1;

	f.testcase = rq->testcase_glob;
	f.machine = rq->machine;
	if (rq->good) {
		ret = trend_range(db, rq, &good, &bad);
		if (ret)
			goto out;
		ret = -1;
	}
	if (query_history(db, &f, glob_text(rq), &rows, &nr)) {
		ret = -2;
		goto out;
	}
	if (!nr) {
		error("no sample of '%s' in a run whose commit is recorded "
		      "(see 'perfsift commits import')", glob_text(rq));
		goto out;
	}
	for (i = 0; i < nr; i = series_end(rows, nr, i))
		nr_series++;
	if (nr_series > PLOT_MAX_PANELS) {
		error("%zu series (metric, testcase, params, machine); a trend "
		      "draws at most %d: narrow it with --metric, --testcase or "
		      "--machine", nr_series, PLOT_MAX_PANELS);
		goto out;
	}
	p->kind = PLOT_TREND;
	p->xlabel = xstrdup("commit, in the recorded order (oldest left)");
	for (i = 0; i < nr; i = j) {
		j = series_end(rows, nr, i);
		if (trend_series(p, rq, rows + i, j - i, &cpo, &good, &bad,
				 &nr_cp))
			goto out;
	}
	trend_titles(p, rq, nr_cp, &cpo, &good, &bad);
	ret = 0;
out:
	commit_row_release(&good);
	commit_row_release(&bad);
	history_rows_free(rows, nr);
	return ret;
}

int plot_load(struct db *db, const struct plot_request *rq, struct plot *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	switch (rq->kind) {
	case PLOT_COMPARE:
		r = load_compare(db, rq, out);
		break;
	case PLOT_SWEEP:
	case PLOT_LATENCY:
		r = load_sweep(db, rq, out);
		break;
	case PLOT_SERIES:
		r = load_series(db, rq, out);
		break;
	case PLOT_TREND:
		r = load_trend(db, rq, out);
		break;
	default:
		BUG("plot kind %d", (int)rq->kind);
	}
	if (r)
		plot_release(out);
	return r;
}
