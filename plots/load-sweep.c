/*
 * A sweep chart (see load-int.h): the samples of each variant against a
 * run parameter or the metric's trailing number, a line per group of the
 * other parameters, with a mean and a bar at each point; latency charts
 * are sweeps over percentiles.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "stats/stats.h"
#include "load-int.h"
#include <ctype.h>


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
		bad = rq->x_param && xval && parse_x(xval, &x);
		if (bad)
			error("no numeric parameter: run %" PRId64 " has "
			      "%s=%s, not a number", runs[r].id, rq->x_param,
			      xval);
		else
			bad = sweep_samples(s, rq, i, smp, ns, &k, runs[r].id,
					    x, xval, group);
		free(rest);
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
 * alone when it has one; when a variant has lines of several groups,
 * each is "variant [tag]", marked by its group (pt), and the caption
 * names the groups in full.  Returns whether a point has a single value.
 */
static int sweep_lines(struct plot *p, struct plot_panel *pn,
		       const struct sweep *s)
{
	static const int group_marks[] = { 7, 5, 9, 11, 13, 3, 1, 2 };
	size_t *tag = xcalloc(s->nr_lines, sizeof(*tag));
	size_t l, j, nr_tags = 0;
	int single = 0, several = 0;

	for (l = 0; l < s->nr_lines; l++)
		for (j = 0; j < s->nr_lines; j++)
			several |= j != l && s->line[j].var == s->line[l].var;
	for (l = 0; l < s->nr_lines && several; l++) {
		for (j = 0; j < l; j++)
			if (!strcmp(s->line[j].group, s->line[l].group))
				break;
		tag[l] = j < l ? tag[j] : ++nr_tags;
		if (j == l)
			plot_caption_add(p, tag[l], s->line[l].group);
	}
	for (l = 0; l < s->nr_lines; l++) {
		const struct sweep_line *sl = &s->line[l];
		struct plot_line *ln;

		ln = plot_add_line_take(pn, several ?
					xstrfmt("%s [%zu]", p->variants[sl->var],
						tag[l]) :
					xstrdup(p->variants[sl->var]),
					(int)sl->var);
		if (several)
			ln->point_type = group_marks[(tag[l] - 1) %
						     ARRAY_SIZE(group_marks)];
		single |= sweep_points(ln, s, l);
	}
	free(tag);
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

int load_sweep(struct db *db, const struct plot_request *rq,
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
