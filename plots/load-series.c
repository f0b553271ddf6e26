/*
 * A series chart (see load-int.h): the monitor series of each run as
 * values or counter rates, a panel per metric, with the watermarks of a
 * zone drawn beside its free pages.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "load-int.h"

/* Series panels: each with its own legend of runs. */
#define MAX_SERIES_PANELS 4

static const char *const watermarks[] = { "min", "low", "high" };
#define FREE_SUFFIX ".pages.free"

/* Is name a zone watermark of a zone whose free pages are drawn? */
static int is_watermark_of(const char *name, const char *free_name)
{
	size_t zl = strlen(free_name) - strlen("free"), w;

	if (strncmp(name, free_name, zl))
		return 0;
	for (w = 0; w < ARRAY_SIZE(watermarks); w++)
		if (!strcmp(name + zl, watermarks[w]))
			return 1;
	return 0;
}

/* The points of one (run, metric), borrowed from the query's rows. */
struct trace {
	size_t var;
	int64_t run;
	const struct series_row *pt;
	size_t n;
};

struct series_data {
	struct series_row **rows;	/* owned: per variant */
	size_t *nr_rows;
	struct metric_row **metrics;	/* owned: per variant */
	size_t *nr_metrics;
	struct run_row **runs;
	size_t *nr_runs;
	struct trace *tr;
	size_t nr_tr, alloc_tr;
	char **panel;			/* borrowed names: the panels */
	size_t nr_panels, alloc_panels;
};

static void series_data_release(struct series_data *d, size_t nvar)
{
	size_t v;

	for (v = 0; v < nvar; v++) {
		series_rows_free(d->rows[v], d->nr_rows[v]);
		metric_rows_free(d->metrics[v], d->nr_metrics[v]);
		run_rows_free(d->runs[v], d->nr_runs[v]);
	}
	free(d->rows);
	free(d->nr_rows);
	free(d->metrics);
	free(d->nr_metrics);
	free(d->runs);
	free(d->nr_runs);
	free(d->tr);
	free(d->panel);
}

/* Append the rows of glob for variant v to d->rows[v]. */
static int series_query(struct db *db, const struct plot_request *rq,
			size_t v, const char *glob, struct series_data *d)
{
	struct run_filter f;
	struct series_row *rows;
	size_t n;

	variant_filter(rq, v, &f);
	if (query_series(db, &f, glob, &rows, &n))
		return -2;
	if (!d->rows[v]) {
		d->rows[v] = rows;
		d->nr_rows[v] = n;
		return 0;
	}
	d->rows[v] = xrealloc(d->rows[v], (d->nr_rows[v] + n + 1) *
				      sizeof(*rows));
	memcpy(d->rows[v] + d->nr_rows[v], rows, n * sizeof(*rows));
	d->nr_rows[v] += n;
	free(rows);	/* the strings moved */
	return 0;
}

static const struct metric_row *metric_of(const struct series_data *d,
					  size_t v, const char *name)
{
	size_t i;

	for (i = 0; i < d->nr_metrics[v]; i++)
		if (!strcmp(d->metrics[v][i].name, name))
			return &d->metrics[v][i];
	return NULL;
}

static int has_panel(const struct series_data *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nr_panels; i++)
		if (!strcmp(d->panel[i], name))
			return 1;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return str_natcmp(*(char *const *)a, *(char *const *)b);
}

/* The legend of a run: the variant as typed, or a run's own label. */
static char *run_name(const struct plot_request *rq,
		      const struct series_data *d, size_t v, int64_t run)
{
	size_t i;

	if (rq->var[v].sel)
		return xstrfmt("%s run %" PRId64, rq->var[v].name, run);
	for (i = 0; i < d->nr_runs[v]; i++)
		if (d->runs[v][i].id == run)
			return xstrfmt("%s run %" PRId64,
				       d->runs[v][i].label ?
				       d->runs[v][i].label :
				       d->runs[v][i].kernel, run);
	return xstrfmt("run %" PRId64, run);
}

/* Points of a counter as rates per second, at each interval's middle. */
static void add_rates(struct plot_line *ln, const struct trace *t)
{
	size_t k;

	for (k = 1; k < t->n; k++) {
		double dt = t->pt[k].t - t->pt[k - 1].t;
		double dv = t->pt[k].value - t->pt[k - 1].value;

		/* a reset (reboot, wrap) is no rate */
		if (dt > 0 && dv >= 0)
			plot_line_add(ln, (t->pt[k].t + t->pt[k - 1].t) / 2 -
					  t->pt[0].t, dv / dt, NAN);
	}
}

/* Is t a constant level already drawn as line ln? */
static int same_level(const struct plot_line *ln, const struct trace *t)
{
	size_t k;

	for (k = 0; k < t->n; k++)
		if (t->pt[k].value != ln->pt[0].y)
			return 0;
	for (k = 0; k < ln->nr; k++)
		if (ln->pt[k].y != ln->pt[0].y)
			return 0;
	return 1;
}

/* The dashed watermarks of the zone of free_name, for run t. */
static void add_watermarks(struct plot_panel *pn, const struct series_data *d,
			   const struct trace *run_tr, const char *free_name,
			   const char *run_label, size_t first_wm)
{
	size_t i, w, l;

	for (w = 0; w < ARRAY_SIZE(watermarks); w++) {
		size_t zl = strlen(free_name) - strlen("free");
		int dash = DASH_WATERMARK + (int)w;

		for (i = 0; i < d->nr_tr; i++) {
			const struct trace *t = &d->tr[i];
			struct plot_line *ln;
			int dup = 0;

			if (t->run != run_tr->run || t->var != run_tr->var ||
			    strncmp(t->pt[0].metric, free_name, zl) ||
			    strcmp(t->pt[0].metric + zl, watermarks[w]))
				continue;
			for (l = first_wm; l < pn->nr_lines; l++)
				dup |= pn->lines[l].dash == dash &&
				       same_level(&pn->lines[l], t);
			if (dup)
				continue;
			ln = plot_add_line_take(pn, xstrfmt("%s watermark "
							    "(%s)",
							    watermarks[w],
							    run_label), -1);
			ln->dash = dash;
			ln->glyph = ".:'"[w % 3];
			for (size_t k = 0; k < t->n; k++)
				plot_line_add(ln, t->pt[k].t - run_tr->pt[0].t,
					      t->pt[k].value, NAN);
		}
	}
}

/* gnuplot's point types, filled ones first, told apart at a glance */
static const int run_marks[] = { 7, 5, 9, 11, 13, 6, 4, 8, 10, 12 };

/*
 * A new panel of metric name (as metric m says it, when known): a
 * counter's as its rate per second.  Sets *counter.
 */
static struct plot_panel *series_panel_new(struct plot *p,
					   const struct metric_row *m,
					   const char *name, int *counter)
{
	*counter = m && m->kind == MK_COUNTER;
	return plot_add_panel_take(p, *counter ? xstrfmt("%s, rate", name) :
						 xstrdup(name),
				   *counter ? xstrfmt("%s%sper second",
						      m->unit ? m->unit : "",
						      m->unit ? " " : "") :
					      plot_unit_label(m ? m->unit : NULL));
}

/*
 * Every run's trace of metric name as a line of pn (a counter's as
 * rates); a run of one point of a counter draws no line.
 */
static void series_runs(struct plot_panel *pn, const struct plot_request *rq,
			const struct series_data *d, const char *name,
			int counter)
{
	int run_in_var[PLOT_MAX_VARIANTS] = { 0 };
	size_t i, k;

	for (i = 0; i < d->nr_tr; i++) {
		const struct trace *t = &d->tr[i];
		struct plot_line *ln;

		if (strcmp(t->pt[0].metric, name))
			continue;
		ln = plot_add_line_take(pn, run_name(rq, d, t->var, t->run),
					(int)t->var);
		/* runs of one variant share its colour, not its marks */
		ln->point_type = t->var < PLOT_MAX_VARIANTS ?
				 run_marks[run_in_var[t->var]++ %
					   ARRAY_SIZE(run_marks)] : 0;
		if (counter)
			add_rates(ln, t);
		else
			for (k = 0; k < t->n; k++)
				plot_line_add(ln, t->pt[k].t - t->pt[0].t,
					      t->pt[k].value, NAN);
		if (!ln->nr) {
			/* one point of a counter: no interval, no rate */
			free(ln->name);
			free(ln->pt);
			pn->nr_lines--;
		}
	}
}

/*
 * The watermarks of the zone of free pages name, each run's, after the
 * lines of pn so far; a level drawn once is every run's, named for all.
 * Returns whether there is one.
 */
static int series_watermarks(struct plot_panel *pn,
			     const struct plot_request *rq,
			     const struct series_data *d, const char *name)
{
	size_t i, j, first_wm = pn->nr_lines;

	for (i = 0; i < d->nr_tr; i++)
		if (!strcmp(d->tr[i].pt[0].metric, name)) {
			char *label = run_name(rq, d, d->tr[i].var,
					       d->tr[i].run);

			add_watermarks(pn, d, &d->tr[i], name, label,
				       first_wm);
			free(label);
		}
	for (i = first_wm; i < pn->nr_lines; i++) {
		struct plot_line *ln = &pn->lines[i];
		int alone = 1;

		for (j = first_wm; j < pn->nr_lines; j++)
			alone &= j == i || pn->lines[j].dash != ln->dash;
		if (alone) {
			free(ln->name);
			ln->name = xstrfmt("%s watermark", watermarks[ln->dash -
							      DASH_WATERMARK]);
		}
	}
	return pn->nr_lines > first_wm;
}

/* One panel: metric name, every run's trace of it. */
static int series_panel(struct plot *p, const struct plot_request *rq,
			const struct series_data *d, const char *name,
			int *counters, int *marks)
{
	const struct metric_row *m = NULL;
	struct plot_panel *pn;
	size_t i, v, nruns = 0;
	int counter;

	for (v = 0; v < rq->nr_var && !m; v++)
		m = metric_of(d, v, name);
	pn = series_panel_new(p, m, name, &counter);
	*counters |= counter;
	for (i = 0; i < d->nr_tr; i++)
		nruns += !strcmp(d->tr[i].pt[0].metric, name);
	if (nruns > PLOT_MAX_LINES)
		return error("%zu runs have '%s'; a series plot draws at most "
			     "%d: name runs with run:ID, or narrow it with "
			     "--testcase or --machine", nruns, name,
			     PLOT_MAX_LINES);
	series_runs(pn, rq, d, name, counter);
	if (!pn->nr_lines)
		return error("'%s' has fewer than two points in every run: "
			     "no rate to draw", name);
	if (ends_with(name, FREE_SUFFIX))
		*marks |= series_watermarks(pn, rq, d, name);
	return 0;
}

/*
 * d->tr: the traces of the rows loaded, one per (run, metric); with
 * panels, each metric seen is also a panel (in d->panel).
 */
static void collect_traces(struct series_data *d, size_t nvar, int panels)
{
	size_t v, i, j;

	d->nr_tr = 0;
	for (v = 0; v < nvar; v++) {
		const struct series_row *r = d->rows[v];

		for (i = 0; i < d->nr_rows[v]; i = j) {
			struct trace *t;

			for (j = i; j < d->nr_rows[v] &&
				    r[j].run_id == r[i].run_id &&
				    !strcmp(r[j].metric, r[i].metric); j++)
				;
			ALLOC_GROW(d->tr, d->nr_tr + 1, d->alloc_tr);
			t = &d->tr[d->nr_tr++];
			t->var = v;
			t->run = r[i].run_id;
			t->pt = &r[i];
			t->n = j - i;
			if (panels && !has_panel(d, r[i].metric)) {
				ALLOC_GROW(d->panel, d->nr_panels + 1,
					   d->alloc_panels);
				d->panel[d->nr_panels++] = r[i].metric;
			}
		}
	}
}

/*
 * The rows, metrics and runs of each variant into d.  0, or -2 after
 * error().
 */
static int series_load(struct db *db, const struct plot_request *rq,
		       struct series_data *d)
{
	size_t v, nvar = rq->nr_var;

	d->rows = xcalloc(nvar, sizeof(*d->rows));
	d->nr_rows = xcalloc(nvar, sizeof(*d->nr_rows));
	d->metrics = xcalloc(nvar, sizeof(*d->metrics));
	d->nr_metrics = xcalloc(nvar, sizeof(*d->nr_metrics));
	d->runs = xcalloc(nvar, sizeof(*d->runs));
	d->nr_runs = xcalloc(nvar, sizeof(*d->nr_runs));
	for (v = 0; v < nvar; v++) {
		struct run_filter f;

		variant_filter(rq, v, &f);
		if (series_query(db, rq, v, rq->metric_glob, d) ||
		    query_metrics(db, &f, rq->metric_glob, &d->metrics[v],
				  &d->nr_metrics[v]) ||
		    query_runs(db, &f, &d->runs[v], &d->nr_runs[v]))
			return -2;
	}
	return 0;
}

/*
 * Free pages bring their zone's watermarks, drawn dashed: their rows
 * appended to d where the glob did not load them.  0, or -2 after
 * error().
 */
static int series_load_watermarks(struct db *db, const struct plot_request *rq,
				  struct series_data *d)
{
	size_t i, v, w;

	for (i = 0; i < d->nr_panels; i++) {
		char *prefix;
		int r = 0;

		if (!ends_with(d->panel[i], FREE_SUFFIX))
			continue;
		prefix = xstrndup(d->panel[i],
				  strlen(d->panel[i]) - strlen("free"));
		for (w = 0; w < ARRAY_SIZE(watermarks) && !r; w++) {
			char *name = xstrfmt("%s%s", prefix, watermarks[w]), *g;

			/* already loaded when the glob matches it */
			if (rq->metric_glob &&
			    glob_match(rq->metric_glob, name)) {
				free(name);
				continue;
			}
			g = glob_quote(name);
			free(name);
			for (v = 0; v < rq->nr_var && !r; v++)
				r = series_query(db, rq, v, g, d);
			free(g);
		}
		free(prefix);
		if (r)
			return r;
	}
	return 0;
}

/*
 * A panel of each metric of d (sorted), but the watermarks drawn with
 * their free pages.  0, or -1 after error().
 */
static int series_panels(struct plot *p, const struct plot_request *rq,
			 const struct series_data *d, int *counters,
			 int *marks)
{
	size_t i, k;

	for (i = 0; i < d->nr_panels; i++) {
		int wm = 0;

		for (k = 0; k < d->nr_panels; k++)
			wm |= ends_with(d->panel[k], FREE_SUFFIX) &&
			      is_watermark_of(d->panel[i], d->panel[k]);
		if (wm)
			continue;	/* drawn with its free pages */
		if (p->nr_panels == MAX_SERIES_PANELS)
			return error("'%s' matches more than %d series; a "
				     "series plot draws at most %d: narrow it "
				     "with --metric", glob_text(rq),
				     MAX_SERIES_PANELS, MAX_SERIES_PANELS);
		if (series_panel(p, rq, d, d->panel[i], counters, marks))
			return -1;
	}
	return 0;
}

/* The heading of a series plot, and the x axis' label. */
static void series_titles(struct plot *p, const struct plot_request *rq,
			  int counters, int marks)
{
	struct sbuf sb = SBUF_INIT;

	if (p->nr_panels == 1)
		sbuf_addstr(&sb, p->panels[0].title);
	else
		sbuf_addf(&sb, "monitor series");
	sbuf_addstr(&sb, ": ");
	add_vs(&sb, rq);
	p->title = sbuf_detach(&sb, NULL);
	if (p->nr_panels == 1) {
		free(p->panels[0].title);
		p->panels[0].title = xstrdup(p->title);
	}
	p->xlabel = xstrdup("seconds since the run's first sample");
	sbuf_addstr(&sb, "a line per run");
	if (counters)
		sbuf_addstr(&sb, "; counters as rates: the change over each "
			    "interval / its length, at its middle");
	if (marks)
		sbuf_addstr(&sb, "; dashed: the zone's watermarks");
	p->subtitle = sbuf_detach(&sb, NULL);
}

int load_series(struct db *db, const struct plot_request *rq,
		struct plot *p)
{
	struct series_data d = { 0 };
	size_t nvar = rq->nr_var;
	int ret, counters = 0, marks = 0;

	ret = series_load(db, rq, &d);
	if (ret)
		goto out;
	/* the traces, and the panels: every metric but watermarks */
	collect_traces(&d, nvar, 1);
	if (!d.nr_tr) {
		char *vl = variant_list(rq);

		ret = error("no series matches '%s' in %s", glob_text(rq), vl);
		free(vl);
		goto out;
	}
	ret = series_load_watermarks(db, rq, &d);
	if (ret)
		goto out;
	QSORT(d.panel, d.nr_panels, cmp_name);
	/* the traces again: rows may have moved */
	collect_traces(&d, nvar, 0);
	p->kind = PLOT_SERIES;
	set_variants(p, rq);
	ret = series_panels(p, rq, &d, &counters, &marks);
	if (!ret)
		series_titles(p, rq, counters, marks);
out:
	series_data_release(&d, nvar);
	return ret;
}
