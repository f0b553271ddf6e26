/*
 * What a chart shows, read from the database into a struct plot: the
 * compare engine's rows and verdicts (compare), samples against a run
 * parameter or the metric's trailing number (sweep), and monitor series
 * as values or counter rates, with the zone watermarks (series).
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "analysis/compare.h"
#include "stats/bisect.h"
#include "stats/changepoint.h"
#include "stats/stats.h"
#include "store/commits.h"
#include "load.h"
#include <ctype.h>

/* Series panels: each with its own legend of runs. */
#define MAX_SERIES_PANELS 4

/* "'a', 'b'": the variants, for messages. */
static char *variant_list(const struct plot_request *rq)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;

	for (i = 0; i < rq->nr_var; i++)
		sbuf_addf(&sb, "%s'%s'", i ? ", " : "", rq->var[i].name);
	return sbuf_detach(&sb, NULL);
}

static const char *glob_text(const struct plot_request *rq)
{
	return rq->metric_glob ? rq->metric_glob : "*";
}

/* The filter selecting variant i's runs. */
static void variant_filter(const struct plot_request *rq, size_t i,
			   struct run_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->sel = rq->var[i].sel;
	f->run_id = rq->var[i].sel ? 0 : rq->var[i].run_id;
	f->testcase = rq->testcase_glob;
	f->machine = rq->machine;
}

static void set_variants(struct plot *p, const struct plot_request *rq)
{
	size_t i;

	p->variants = xcalloc(rq->nr_var, sizeof(*p->variants));
	p->nr_variants = rq->nr_var;
	for (i = 0; i < rq->nr_var; i++)
		p->variants[i] = xstrdup(rq->var[i].name);
}

/* "a vs b vs c" */
static void add_vs(struct sbuf *sb, const struct plot_request *rq)
{
	size_t i;

	for (i = 0; i < rq->nr_var; i++)
		sbuf_addf(sb, "%s%s", i ? " vs " : "", rq->var[i].name);
}

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

/* ---- sweep ---- */

/*
 * A number as run parameters and metric names write it: "16", "0.5",
 * or a size with a binary suffix as fio and lkp write them ("4k" =
 * 4096, "64m", "1g").  0 or -1.
 */
static int parse_x(const char *s, double *x)
{
	static const char suffixes[] = "kmgt";
	const char *sfx;
	size_t len = strlen(s);
	char *num;
	int r;

	if (!str_to_double(s, x))
		return 0;
	if (len < 2 || !(sfx = strchr(suffixes, s[len - 1] | 0x20)))
		return -1;
	num = xstrndup(s, len - 1);
	r = str_to_double(num, x);
	free(num);
	if (r)
		return -1;
	*x *= pow(1024, (double)(sfx - suffixes + 1));
	return 0;
}

/*
 * The trailing number of a metric name, after its last '-' or '_'
 * (kernbench.elsp-2, ebizzy.Mean-8): *prefix_len covers the name up to
 * and including the separator.  0 or -1.
 */
static int metric_suffix(const char *name, size_t *prefix_len, double *x)
{
	const char *sep = NULL, *p;

	for (p = name; *p; p++)
		if (*p == '-' || *p == '_')
			sep = p;
	if (!sep || !sep[1] || !isdigit((unsigned char)sep[1]))
		return -1;
	if (str_to_double(sep + 1, x))
		return -1;
	*prefix_len = (size_t)(sep - name) + 1;
	return 0;
}

/*
 * A latency percentile as lkp names it: "<family>_<P>%_<unit>"
 * (fio.read_clat_99.5%_ns).  *prefix_len covers "<family>_"; *x is the
 * percentile on a nines axis, -log10(1 - P/100) (90% at 1, 99% at 2,
 * 99.9% at 3), *xtext points at "<P>%".  0 or -1 (P of 100 or more
 * cannot be drawn there).
 */
static int metric_percentile(const char *name, size_t *prefix_len, double *x,
			     char *xtext, size_t xlen)
{
	const char *pct = strstr(name, "%_"), *start;
	char *num;
	double p;
	int r;

	if (!pct)
		return -1;
	for (start = pct; start > name && (isdigit((unsigned char)start[-1]) ||
					   start[-1] == '.'); start--)
		;
	if (start == pct || start == name || start[-1] != '_')
		return -1;
	num = xstrndup(start, (size_t)(pct - start));
	r = str_to_double(num, &p);
	free(num);
	if (r || !(p > 0) || !(p < 100))
		return -1;
	*prefix_len = (size_t)(start - name);
	*x = -log10((100 - p) / 100);	/* 99% at 2 exactly */
	snprintf(xtext, xlen, "%.*s", (int)(pct - start + 1), start);
	return 0;
}

/* One value at one x, on the line of one variant and group. */
struct sweep_val {
	size_t line;
	double x, y;
	const char *xtext;	/* borrowed: a sample's metric or param */
};

struct sweep_line {
	char *key;		/* owned: variant, group */
	char *group;		/* owned: testcase, machine, params */
	size_t var;
};

struct sweep {
	struct sweep_val *val;
	size_t nr, alloc;
	struct sweep_line *line;
	size_t nr_lines, alloc_lines;
	char *what;		/* owned: the metric, or the family "x.y-" */
	char *plain;		/* owned: a metric without a trailing number
				 * (sweep by the metric's number) */
	char *unit;		/* owned, may be NULL */
	char **xtext;		/* owned: texts the values point to */
	size_t nr_xtext, alloc_xtext;
};

static void sweep_release(struct sweep *s)
{
	size_t i;

	free(s->val);
	for (i = 0; i < s->nr_lines; i++) {
		free(s->line[i].key);
		free(s->line[i].group);
	}
	free(s->line);
	free(s->what);
	free(s->plain);
	free(s->unit);
	for (i = 0; i < s->nr_xtext; i++)
		free(s->xtext[i]);
	free(s->xtext);
}

static const char *keep_text(struct sweep *s, const char *text)
{
	ALLOC_GROW(s->xtext, s->nr_xtext + 1, s->alloc_xtext);
	s->xtext[s->nr_xtext] = xstrdup(text);
	return s->xtext[s->nr_xtext++];
}

/* The line of variant var and group, made on first use. */
static size_t sweep_line(struct sweep *s, size_t var, const char *group)
{
	char *key = xstrfmt("%zu\037%s", var, group);
	size_t i;

	for (i = 0; i < s->nr_lines; i++)
		if (!strcmp(s->line[i].key, key)) {
			free(key);
			return i;
		}
	ALLOC_GROW(s->line, s->nr_lines + 1, s->alloc_lines);
	s->line[i].key = key;
	s->line[i].group = xstrdup(group);
	s->line[i].var = var;
	s->nr_lines++;
	return i;
}

/*
 * The metric (or the family, with the trailing number) every value must
 * share: the first one seen sets it; another is an error.
 */
static int sweep_what(struct sweep *s, const char *what, size_t len,
		      const char *unit, const struct plot_request *rq)
{
	if (!s->what) {
		s->what = xstrndup(what, len);
		s->unit = unit ? xstrdup(unit) : NULL;
		return 0;
	}
	if (strlen(s->what) == len && !memcmp(s->what, what, len))
		return 0;
	if (rq->x_param)
		return error("'%s' matches several metrics ('%s', '%s', ...); "
			     "a sweep draws one: narrow it with --metric",
			     glob_text(rq), s->what, what);
	return error("'%s' matches several metric families ('%s', '%.*s', "
		     "...); a sweep draws one: narrow it with --metric",
		     glob_text(rq), s->what, (int)len, what);
}

/* The params of a run, without the swept one, as "k=v,k=v". */
static int run_params(struct db *db, int64_t run, const char *x_param,
		      char **rest, char **xval)
{
	char **k, **v;
	size_t n, i;
	struct sbuf sb = SBUF_INIT;

	*xval = NULL;
	if (query_run_params(db, run, &k, &v, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (x_param && !strcmp(k[i], x_param)) {
			*xval = v[i];
			v[i] = NULL;
		} else {
			sbuf_addf(&sb, "%s%s=%s", sb.len ? "," : "", k[i],
				  v[i]);
		}
		free(k[i]);
		free(v[i]);
	}
	free(k);
	free(v);
	*rest = sbuf_detach(&sb, NULL);
	return 0;
}

/* "testcase on machine (params)": a run's group, its params as rest. */
static char *run_group(const struct run_row *run, const char *rest)
{
	return xstrfmt("%s%s%s%s%s%s", run->testcase,
		       *run->machine ? " on " : "", run->machine,
		       *rest ? " (" : "", rest, *rest ? ")" : "");
}

/*
 * The samples of run at smp[*k..ns) (sorted by run, *k moved past
 * them) into s, on the line of variant i and group: at x, the swept
 * parameter's value xval (NULL: the run has none), or at the x their
 * metric's name gives.  0, or -1 after error().
 */
static int sweep_samples(struct sweep *s, const struct plot_request *rq,
			 size_t i, const struct sample_row *smp, size_t ns,
			 size_t *k, int64_t run, double x, const char *xval,
			 const char *group)
{
	for (; *k < ns && smp[*k].run_id < run; (*k)++)
		;
	for (; *k < ns && smp[*k].run_id == run; (*k)++) {
		const struct sample_row *sm = &smp[*k];
		struct sweep_val *sv;
		size_t plen = strlen(sm->metric);
		const char *xtext = xval;
		char pbuf[32];
		double mx;

		if (rq->kind == PLOT_LATENCY) {
			if (metric_percentile(sm->metric, &plen, &mx, pbuf,
					      sizeof(pbuf)))
				continue;	/* not a percentile */
			x = mx;
			xtext = pbuf;
		} else if (!rq->x_param) {
			if (metric_suffix(sm->metric, &plen, &mx)) {
				if (!s->plain)
					s->plain = xstrdup(sm->metric);
				continue;
			}
			x = mx;
			xtext = sm->metric + plen;
		}
		if (sweep_what(s, sm->metric, plen, sm->unit, rq))
			return -1;
		if (!xtext)
			continue;	/* a run the sweep is not over */
		ALLOC_GROW(s->val, s->nr + 1, s->alloc);
		sv = &s->val[s->nr++];
		sv->line = sweep_line(s, i, group);
		sv->x = x;
		sv->y = sm->value;
		sv->xtext = keep_text(s, xtext);
	}
	return 0;
}

/* The values of variant i into s. */
static int sweep_variant(struct db *db, const struct plot_request *rq,
			 size_t i, struct sweep *s)
{
	struct run_filter f;
	struct run_row *runs = NULL;
	struct sample_row *smp = NULL;
	size_t nr = 0, ns = 0, r, k = 0;
	int ret = -2;

	variant_filter(rq, i, &f);
	if (query_runs(db, &f, &runs, &nr) ||
	    query_samples(db, &f, rq->metric_glob, &smp, &ns))
		goto out;
	ret = -1;
	for (r = 0; r < nr; r++) {
		char *rest, *xval, *group;
		double x = NAN;
		int bad;

		if (run_params(db, runs[r].id, rq->x_param, &rest, &xval)) {
			ret = -2;
			goto out;
		}
		group = run_group(&runs[r], rest);
		free(rest);
		bad = rq->x_param && xval && parse_x(xval, &x);
		if (bad)
			error("no numeric parameter: run %" PRId64 " has "
			      "%s=%s, not a number", runs[r].id, rq->x_param,
			      xval);
		else
			bad = sweep_samples(s, rq, i, smp, ns, &k, runs[r].id,
					    x, xval, group);
		free(xval);
		free(group);
		if (bad)
			goto out;
	}
	ret = 0;
out:
	run_rows_free(runs, nr);
	sample_rows_free(smp, ns);
	return ret;
}

static int cmp_val(const void *a, const void *b)
{
	const struct sweep_val *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->x < y->x ? -1 : x->x > y->x;
}

static int is_pow2(double x)
{
	int e;

	return x > 0 && frexp(x, &e) == 0.5;
}

/* A sweep over powers of two wider than this factor gets a log2 x axis. */
#define LOGX_MIN_SPAN 8

/* The x tics: every distinct x, with the text the data gave it. */
static void sweep_tics(struct plot *p, const struct sweep *s)
{
	size_t i, t;
	int pow2 = 1;

	for (i = 0; i < s->nr; i++) {
		for (t = 0; t < p->nr_tics; t++)
			if (p->tics[t].x == s->val[i].x)
				break;
		if (t < p->nr_tics)
			continue;
		ALLOC_GROW(p->tics, p->nr_tics + 1, p->alloc_tics);
		for (t = p->nr_tics; t > 0 && p->tics[t - 1].x > s->val[i].x;
		     t--)
			p->tics[t] = p->tics[t - 1];
		p->tics[t].x = s->val[i].x;
		p->tics[t].text = xstrdup(s->val[i].xtext);
		p->nr_tics++;
	}
	for (t = 0; t < p->nr_tics; t++)
		pow2 &= is_pow2(p->tics[t].x);
	p->logx = pow2 && p->nr_tics > 1 &&
		  p->tics[p->nr_tics - 1].x > LOGX_MIN_SPAN * p->tics[0].x;
}

/*
 * On a nines axis fio's low percentiles (1%, 5%, ... 60%) crowd into the
 * first half unit: 1%, 50% and the nines keep their labels, the others
 * only where there is room (TIC_ROOM of a unit from every kept one).
 */
#define TIC_ROOM 0.2
static void latency_tics(struct plot *p)
{
	static const double keep[] = { 1, 50, 90, 99, 99.9, 99.99, 99.999 };
	char *shown = xcalloc(p->nr_tics + 1, 1);
	size_t t, u, k;

	for (t = 0; t < p->nr_tics; t++)
		for (k = 0; k < ARRAY_SIZE(keep); k++)
			if (fabs(p->tics[t].x + log10((100 - keep[k]) / 100)) <
			    1e-9)
				shown[t] = 1;
	for (t = 0; t < p->nr_tics; t++) {
		int room = 1;

		for (u = 0; u < p->nr_tics && !shown[t]; u++)
			room &= !shown[u] || fabs(p->tics[u].x -
						  p->tics[t].x) >= TIC_ROOM;
		if (!shown[t] && room)
			shown[t] = 1;
		if (!shown[t])
			p->tics[t].text[0] = '\0';
	}
	free(shown);
}

/* Can s be drawn?  0, or -1 after error() saying why not. */
static int sweep_check(const struct sweep *s, const struct plot_request *rq)
{
	char *vl;

	if ((!s->nr && rq->kind == PLOT_LATENCY) || (!s->what && !s->plain)) {
		vl = variant_list(rq);
		if (!s->nr && rq->kind == PLOT_LATENCY)
			error("no latency percentiles among the metrics "
			      "matching '%s' in %s (lkp's names: "
			      "fio.read_clat_99%%_ns)", glob_text(rq), vl);
		else
			error("no metric matching '%s' has values in %s",
			      glob_text(rq), vl);
		free(vl);
		return -1;
	}
	if (!s->nr && rq->x_param)
		return error("no numeric parameter: no run of '%s' has a "
			     "parameter '%s'", s->what, rq->x_param);
	if (!s->nr)
		return error("no numeric parameter: '%s' has no trailing "
			     "number (as in kernbench.elsp-2); name a run "
			     "parameter with --x NAME", s->plain);
	if (s->plain)
		return error("'%s' matches '%s', which has no trailing "
			     "number, besides the family '%sN': narrow it "
			     "with --metric",
			     glob_text(rq), s->plain, s->what);
	if (s->nr_lines > PLOT_MAX_LINES)
		return error("%zu lines (variant, testcase, machine and "
			     "params); a sweep draws at most %d: narrow it "
			     "with --testcase or --machine", s->nr_lines,
			     PLOT_MAX_LINES);
	return 0;
}

/*
 * The points of line l of s (sorted): at each x the mean of its values
 * and their sd (n-1).  Returns whether a point has a single value.
 */
static int sweep_points(struct plot_line *ln, const struct sweep *s, size_t l)
{
	size_t i, j, k, n;
	int single = 0;

	for (i = 0; i < s->nr; i = j) {
		double *y;

		if (s->val[i].line != l) {
			j = i + 1;
			continue;
		}
		for (j = i; j < s->nr && s->val[j].line == l &&
			    s->val[j].x == s->val[i].x; j++)
			;
		n = j - i;
		y = xmalloc(n * sizeof(*y));
		for (k = 0; k < n; k++)
			y[k] = s->val[i + k].y;
		plot_line_add(ln, s->val[i].x, stats_mean(y, n),
			      n > 1 ? stats_sd_sample(y, n) : NAN);
		ln->pt[ln->nr - 1].n = (long)n;
		single |= n == 1;
		free(y);
	}
	return single;
}

/*
 * A line a variant and group of s in panel pn, named by the variant
 * alone when it has one.  Returns whether a point has a single value.
 */
static int sweep_lines(struct plot *p, struct plot_panel *pn,
		       const struct sweep *s)
{
	size_t l, j;
	int single = 0;

	for (l = 0; l < s->nr_lines; l++) {
		const struct sweep_line *sl = &s->line[l];
		struct plot_line *ln;
		int several = 0;

		for (j = 0; j < s->nr_lines; j++)
			several |= j != l && s->line[j].var == sl->var;
		ln = plot_add_line_take(pn, several ?
					xstrfmt("%s: %s", p->variants[sl->var],
						sl->group) :
					xstrdup(p->variants[sl->var]),
					(int)sl->var);
		single |= sweep_points(ln, s, l);
	}
	return single;
}

/* The x axis' label and the title of the sweep s. */
static void sweep_titles(struct plot *p, const struct plot_request *rq,
			 const struct sweep *s, struct sbuf *title)
{
	size_t l;

	if (rq->kind == PLOT_LATENCY)
		p->xlabel = xstrdup("percentile (a nines axis: 90%, 99%, "
				    "99.9% equally apart)");
	else if (rq->x_param)
		p->xlabel = xstrdup(rq->x_param);
	else
		p->xlabel = xstrfmt("N in %sN", s->what);
	if (rq->kind == PLOT_LATENCY)
		sbuf_addf(title, "%sP%%: ", s->what);
	else
		sbuf_addf(title, "%s%s: ", s->what, rq->x_param ? "" : "N");
	add_vs(title, rq);
	/* the group, when every line is of the same one */
	for (l = 1; l < s->nr_lines; l++)
		if (strcmp(s->line[l].group, s->line[0].group))
			break;
	if (l == s->nr_lines && *s->line[0].group)
		sbuf_addf(title, ", %s", s->line[0].group);
}

static int load_sweep(struct db *db, const struct plot_request *rq,
		      struct plot *p)
{
	struct sweep s = { 0 };
	struct sbuf sb = SBUF_INIT;
	struct plot_panel *pn;
	size_t i;
	int r = 0, single;

	for (i = 0; i < rq->nr_var && !r; i++)
		r = sweep_variant(db, rq, i, &s);
	if (!r && sweep_check(&s, rq))
		r = -1;
	if (r) {
		sweep_release(&s);
		return r;
	}
	QSORT(s.val, s.nr, cmp_val);
	p->kind = PLOT_SWEEP;
	set_variants(p, rq);
	sweep_tics(p, &s);
	if (rq->kind == PLOT_LATENCY)
		latency_tics(p);
	sweep_titles(p, rq, &s, &sb);
	pn = plot_add_panel_take(p, NULL, plot_unit_label(s.unit));
	single = sweep_lines(p, pn, &s);
	p->title = sbuf_detach(&sb, NULL);
	pn->title = xstrdup(p->title);
	p->subtitle = xstrfmt("mean ± sample standard deviation (n-1) over "
			      "the runs at each point%s",
			      single ? "; a point of one run has no bar" : "");
	sweep_release(&s);
	return 0;
}

/* ---- series ---- */

static const char *const watermarks[] = { "min", "low", "high" };
#define FREE_SUFFIX ".pages.free"
/*
 * The dash types of reference lines (plot_line.dash): watermark w is
 * DASH_WATERMARK + w; a trend's segment means and its change points.
 */
#define DASH_WATERMARK 2
#define DASH_SEGMENT 2
#define DASH_CHANGE 3

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

static int load_series(struct db *db, const struct plot_request *rq,
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
