/*
 * perfsift show: every value of one run (run:ID) or of one variant (a
 * label, kernel or commit), grouped by testcase/params/machine, with
 * n, mean and sample standard deviation per metric.
 */
#include "core/compat.h"
#include "store/query.h"
#include "core/sbuf.h"
#include "stats/stats.h"
#include "core/strparse.h"
#include "cmd.h"
#include "options.h"
#include "strlist.h"
#include "table.h"
#include <jansson.h>

struct show_args {
	struct dim_arg by;
	struct run_filter f;
	struct strlist metrics;		/* --metric: any of these globs */
	const char *series_glob, *pct_list;
	int json;
};

static const char *const show_usage[] = {
	"perfsift show SELECTOR [--by DIM] [--metric GLOB]...\n"
	"              [--testcase GLOB] [--machine M] [--json]\n"
	"perfsift show SELECTOR --series GLOB [...]\n"
	"perfsift show SELECTOR --percentiles P[,P...] [...]",
	NULL,
};

#define T struct show_args
static const struct opt show_opts[] = {
	OPT_BY(T, by, "what SELECTOR is: label, kernel, commit, machine\n"
	       "or param:NAME (default: a label, else a kernel,\n"
	       "else a commit prefix)"),
	OPT_METRIC_LIST(T, metrics),
	OPT_TESTCASE(T, f.testcase),
	OPT_MACHINE(T, f.machine),
	OPT_STRING(0, "series", T, series_glob, "GLOB",
		   "the time series of the matching metrics instead:\n"
		   "every point, t in seconds (epoch seconds for\n"
		   "monitors) with the offset from the run's first\n"
		   "point and the change from the previous point"),
	OPT_STRING(0, "percentiles", T, pct_list, "P,P,...",
		   "from the histograms (fio json+ bins) of\n"
		   "the selected runs, merged exactly (bins summed):\n"
		   "each metric's count and its P-th percentiles as\n"
		   "fio computes them (the first bin whose running\n"
		   "count reaches P%); --metric narrows the metrics"),
	OPT_JSON(T, json, "one JSON document on stdout (SPEC §5.1; with\n"
		 "--series: {\"series\": [{run, metric, points:\n"
		 "[[t, value], ...]}]}; with --percentiles:\n"
		 "{\"percentiles\": [{metric, runs, count,\n"
		 "values: {P: v}}]})"),
	OPT_END(),
};
#undef T

const struct cmd_options show_options = {
	.name = "show",
	.usage = show_usage,
	.description =
	"Show every value of one variant or run.  SELECTOR is a label, a\n"
	"kernel version, a commit sha prefix, or run:ID for a single run.\n"
	"The text form prints one table per testcase/params/machine, a\n"
	"column per run, then n, the mean and the sample standard deviation\n"
	"(n-1 divisor).  Aggregates (summaries imported as printed) follow.\n",
	.options = show_opts,
};

/*
 * What show prints of a variant or a run: the queries' rows (ns and na
 * of them shown, ns_all and na_all to free).
 */
struct show_rows {
	struct run_row *runs;
	size_t nr;
	struct sample_row *s;
	size_t ns, ns_all;
	struct aggregate_row *a;
	size_t na, na_all;
	struct skip_row *sk;
	size_t nsk;
};

#define MAX_RUN_COLUMNS 8

static void fmt_num(struct table *t, double v)
{
	if (!isfinite(v))
		table_addf(t, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		table_addf(t, "%.0f", v);
	else
		table_addf(t, "%.6g", v);
}

static json_t *aggregate_json(const struct aggregate_row *a)
{
	json_t *o = json_object();

	json_object_set_new(o, "label", a->label ? json_string(a->label) :
						 json_null());
	json_object_set_new(o, "kernel", *a->kernel ? json_string(a->kernel) :
						    json_null());
	json_object_set_new(o, "commit", a->commit ? json_string(a->commit) :
						   json_null());
	json_object_set_new(o, "testcase", *a->testcase ?
			    json_string(a->testcase) : json_null());
	json_object_set_new(o, "params", json_string(a->params));
	json_object_set_new(o, "machine", *a->machine ?
			    json_string(a->machine) : json_null());
	json_object_set_new(o, "metric", json_string(a->metric));
	json_object_set_new(o, "unit", a->unit ? json_string(a->unit) :
					       json_null());
	json_object_set_new(o, "stat", json_string(a->stat));
	json_object_set_new(o, "value", json_real(a->value));
	json_object_set_new(o, "stddev", json_finite(a->stddev));
	json_object_set_new(o, "stddev_kind", a->stddev_kind ?
			    json_string(a->stddev_kind) : json_null());
	json_object_set_new(o, "n", a->n >= 0 ? json_integer(a->n) :
						json_null());
	json_object_set_new(o, "marker", a->marker ? json_string(a->marker) :
						   json_null());
	return o;
}

static json_t *skip_json(const struct skip_row *sk)
{
	json_t *o = json_object();

	json_object_set_new(o, "path", json_string(sk->path));
	json_object_set_new(o, "message", sk->message ?
			    json_integer(sk->message) : json_null());
	json_object_set_new(o, "line", json_integer(sk->line));
	json_object_set_new(o, "reason", json_string(sk->reason));
	json_object_set_new(o, "text", json_string(sk->text));
	return o;
}

static int show_json(struct db *db, const struct show_rows *sr)
{
	json_t *doc = json_object(), *ja = json_array(), *jr = json_array();
	json_t *jk = json_array();
	size_t i, k = 0;

	for (i = 0; i < sr->nr; i++) {
		json_t *o = run_to_json(db, &sr->runs[i]);
		json_t *vals = json_object();

		for (; k < sr->ns && sr->s[k].run_id == sr->runs[i].id; k++)
			json_object_set_new(vals, sr->s[k].metric,
					    json_real(sr->s[k].value));
		json_object_set_new(o, "values", vals);
		json_array_append_new(jr, o);
	}
	for (i = 0; i < sr->na; i++)
		json_array_append_new(ja, aggregate_json(&sr->a[i]));
	for (i = 0; i < sr->nsk; i++)
		json_array_append_new(jk, skip_json(&sr->sk[i]));
	json_object_set_new(doc, "runs", jr);
	json_object_set_new(doc, "aggregates", ja);
	json_object_set_new(doc, "skipped", jk);
	return print_json_steal(doc);
}

static int same_group(const struct run_row *a, const struct run_row *b)
{
	return !strcmp(a->testcase, b->testcase) &&
	       !strcmp(a->params, b->params) && !strcmp(a->machine, b->machine);
}

static int cmp_metric(const void *x, const void *y)
{
	const struct sample_row *a = *(const struct sample_row *const *)x;
	const struct sample_row *b = *(const struct sample_row *const *)y;
	int c = str_natcmp(a->metric, b->metric);

	if (c)
		return c;
	return a->run_id < b->run_id ? -1 : a->run_id > b->run_id;
}

/* One table for the runs in[0..n) that share testcase/params/machine. */
static void show_group(const struct run_row *const *g, size_t n,
		       const struct sample_row *s, size_t ns)
{
	const struct sample_row **sel = NULL;
	size_t nsel = 0, alloc = 0, i, j, cols = n <= MAX_RUN_COLUMNS ? n : 0;
	double *vals = xmalloc(n * sizeof(*vals));
	struct table t;

	printf("testcase %s", *g[0]->testcase ? g[0]->testcase : "-");
	if (*g[0]->params)
		printf("  params %s", g[0]->params);
	if (*g[0]->machine)
		printf("  machine %s", g[0]->machine);
	printf("\n");
	for (i = 0; i < ns; i++)
		for (j = 0; j < n; j++)
			if (s[i].run_id == g[j]->id) {
				ALLOC_GROW(sel, nsel + 1, alloc);
				sel[nsel++] = &s[i];
			}
	QSORT(sel, nsel, cmp_metric);

	table_init(&t, 5 + cols, ~1UL & ~(1UL << 1));
	table_addf(&t, "METRIC");
	table_addf(&t, "UNIT");
	for (j = 0; j < cols; j++)
		table_addf(&t, "run %" PRId64, g[j]->id);
	table_addf(&t, "N");
	table_addf(&t, "MEAN");
	table_addf(&t, "SD(n-1)");
	for (i = 0; i < nsel;) {
		size_t k = i, nv = 0;

		table_addf(&t, "%s", sel[i]->metric);
		table_addf(&t, "%s", sel[i]->unit ? sel[i]->unit : "-");
		for (j = 0; j < cols; j++) {
			if (k < nsel && !strcmp(sel[k]->metric, sel[i]->metric)
			    && sel[k]->run_id == g[j]->id) {
				fmt_num(&t, sel[k]->value);
				k++;
			} else {
				table_addf(&t, "-");
			}
		}
		for (k = i; k < nsel && !strcmp(sel[k]->metric, sel[i]->metric);
		     k++)
			vals[nv++] = sel[k]->value;
		table_addf(&t, "%zu", nv);
		fmt_num(&t, stats_mean(vals, nv));
		fmt_num(&t, nv > 1 ? stats_sd_sample(vals, nv) : NAN);
		i = k;
	}
	table_print(&t, stdout);
	table_release(&t);
	free(sel);
	free(vals);
}

/* The runs' lines, then a table per testcase/params/machine. */
static void show_runs_text(const struct show_rows *sr)
{
	const struct run_row **g = xmalloc((sr->nr + 1) * sizeof(*g));
	char *done = xcalloc(sr->nr + 1, 1);
	size_t i, j, n;

	for (i = 0; i < sr->nr; i++) {
		const struct run_row *r = &sr->runs[i];

		printf("run %" PRId64 ": label %s, kernel %s, commit %.12s, "
		       "iteration %ld, %ld sample%s\n", r->id,
		       r->label ? r->label : "-", *r->kernel ? r->kernel : "-",
		       r->commit ? r->commit : "-", r->iteration,
		       r->nr_samples, r->nr_samples == 1 ? "" : "s");
	}
	for (i = 0; i < sr->nr; i++) {
		if (done[i])
			continue;
		for (n = 0, j = i; j < sr->nr; j++)
			if (!done[j] &&
			    same_group(&sr->runs[i], &sr->runs[j])) {
				g[n++] = &sr->runs[j];
				done[j] = 1;
			}
		putchar('\n');
		show_group(g, n, sr->s, sr->ns);
	}
	free(g);
	free(done);
}

static void aggregate_text(struct table *t, const struct aggregate_row *a)
{
	table_addf(t, "%s", a->label ? a->label : "-");
	table_addf(t, "%s", *a->testcase ? a->testcase : "-");
	table_addf(t, "%s", a->metric);
	table_addf(t, "%s", a->stat);
	fmt_num(t, a->value);
	if (isfinite(a->stddev) && a->stddev_kind &&
	    !strcmp(a->stddev_kind, "relative"))
		table_addf(t, "%.6g (%g%% relative)", a->stddev,
			   a->stddev_source);
	else if (isfinite(a->stddev))
		table_addf(t, "%.6g (%s)", a->stddev,
			   a->stddev_kind ? a->stddev_kind : "?");
	else
		table_addf(t, "-");
	if (a->n >= 0)
		table_addf(t, "%ld", a->n);
	else
		table_addf(t, "?");
	table_addf(t, "%s", a->marker ? a->marker : "");
}

/* The aggregates' table, then the rows their imports skipped. */
static void show_aggregates_text(const struct show_rows *sr)
{
	struct table t;
	size_t i;

	if (sr->na) {
		printf("\naggregates (as the source printed them)\n");
		table_init(&t, 8, 1UL << 4 | 1UL << 5 | 1UL << 6);
		table_addf(&t, "LABEL");
		table_addf(&t, "TESTCASE");
		table_addf(&t, "METRIC");
		table_addf(&t, "STAT");
		table_addf(&t, "VALUE");
		table_addf(&t, "STDDEV");
		table_addf(&t, "N");
		table_addf(&t, "MARKER");
		for (i = 0; i < sr->na; i++)
			aggregate_text(&t, &sr->a[i]);
		table_print(&t, stdout);
		table_release(&t);
	}
	if (sr->nsk)
		printf("\nrows skipped by the imports of these aggregates\n");
	for (i = 0; i < sr->nsk; i++) {
		printf("%s", sr->sk[i].path);
		if (sr->sk[i].message)
			printf(" message %d", sr->sk[i].message);
		printf(":%ld: %s\n    | %s\n", sr->sk[i].line,
		       sr->sk[i].reason, sr->sk[i].text);
	}
}

static int show_series_json(const struct series_row *p, size_t n)
{
	json_t *doc = json_object(), *arr = json_array(), *cur = NULL;
	json_t *pts = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *pt;

		if (!i || p[i].run_id != p[i - 1].run_id ||
		    strcmp(p[i].metric, p[i - 1].metric)) {
			cur = json_object();
			pts = json_array();
			json_object_set_new(cur, "run", json_integer(p[i].run_id));
			json_object_set_new(cur, "metric",
					    json_string(p[i].metric));
			json_object_set_new(cur, "points", pts);
			json_array_append_new(arr, cur);
		}
		pt = json_array();
		json_array_append_new(pt, json_real(p[i].t));
		json_array_append_new(pt, json_real(p[i].value));
		json_array_append_new(pts, pt);
	}
	json_object_set_new(doc, "series", arr);
	return print_json_steal(doc);
}

static void show_series_text(const struct series_row *p, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i = j) {
		struct table t;

		for (j = i; j < n && p[j].run_id == p[i].run_id &&
			    !strcmp(p[j].metric, p[i].metric); j++)
			;
		printf("%srun %" PRId64 ": %s, %zu point%s from t = %.15g s\n",
		       i ? "\n" : "", p[i].run_id, p[i].metric, j - i,
		       j - i == 1 ? "" : "s", p[i].t);
		table_init(&t, 4, ~0UL);
		table_addf(&t, "T");
		table_addf(&t, "+S");
		table_addf(&t, "VALUE");
		table_addf(&t, "CHANGE");
		for (size_t k = i; k < j; k++) {
			table_addf(&t, "%.15g", p[k].t);
			table_addf(&t, "%.6g", p[k].t - p[i].t);
			fmt_num(&t, p[k].value);
			if (k > i)
				table_addf(&t, "%+.6g", p[k].value -
						       p[k - 1].value);
			else
				table_addf(&t, "-");
		}
		table_print(&t, stdout);
		table_release(&t);
	}
}

/* "50,99,99.9" -> p[]; 0 or -1 (a usage error said). */
static int parse_pcts(const char *list, double **p, size_t *n)
{
	const char *s = list;
	size_t alloc = 0;

	*p = NULL;
	*n = 0;
	for (;;) {
		double v;

		if (str_double(&s, &v) || !(v > 0 && v <= 100)) {
			free(*p);
			return usage_error(&show_options, "--percentiles wants "
					   "numbers in (0, 100] separated by "
					   "commas, got '%s'", list), -1;
		}
		ALLOC_GROW(*p, *n + 1, alloc);
		(*p)[(*n)++] = v;
		if (!*s)
			return 0;
		if (*s++ != ',') {
			free(*p);
			return usage_error(&show_options, "--percentiles wants "
					   "numbers separated by commas, got "
					   "'%s'", list), -1;
		}
	}
}

/* One metric's histograms merged: bins summed by value, ascending. */
struct merged {
	const char *metric;
	double *v, *c;
	size_t nr, alloc;
	long runs;
	double total;
};

static int cmp_pair(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Merge rows[i..j) (one metric): their bins summed by value. */
static void merge_bins(const struct series_row *rows, size_t i, size_t j,
		       struct merged *m)
{
	double *pairs = xmalloc(2 * (j - i) * sizeof(*pairs));
	size_t k, n = 0;
	int64_t last = -1;

	for (k = i; k < j; k++) {
		pairs[2 * (k - i)] = rows[k].t;
		pairs[2 * (k - i) + 1] = rows[k].value;
		if (rows[k].run_id != last)
			m->runs++;
		last = rows[k].run_id;
		m->total += rows[k].value;
	}
	qsort(pairs, j - i, 2 * sizeof(*pairs), cmp_pair);
	for (k = 0; k < j - i; k++) {
		if (n && m->v[n - 1] == pairs[2 * k]) {
			m->c[n - 1] += pairs[2 * k + 1];
			continue;
		}
		ALLOC_GROW(m->v, n + 1, m->alloc);
		m->c = xrealloc(m->c, m->alloc * sizeof(*m->c));
		m->v[n] = pairs[2 * k];
		m->c[n++] = pairs[2 * k + 1];
	}
	m->nr = n;
	free(pairs);
}

/* One metric's row of show --percentiles: into t, else into arr. */
static void pct_row(const struct merged *m, const double *pct, size_t np,
		    struct table *t, json_t *arr)
{
	json_t *o = NULL, *vals = NULL;
	size_t k;

	if (arr) {
		o = json_object();
		vals = json_object();
		json_object_set_new(o, "metric", json_string(m->metric));
		json_object_set_new(o, "runs", json_integer(m->runs));
		json_object_set_new(o, "count", json_real(m->total));
	} else {
		table_addf(t, "%s", m->metric);
		table_addf(t, "%ld", m->runs);
		table_addf(t, "%.0f", m->total);
	}
	for (k = 0; k < np; k++) {
		double v = stats_hist_percentile(m->v, m->c, m->nr, pct[k]);
		char key[32];

		if (arr) {
			snprintf(key, sizeof(key), "%g", pct[k]);
			json_object_set_new(vals, key, json_finite(v));
		} else {
			fmt_num(t, v);
		}
	}
	if (arr) {
		json_object_set_new(o, "values", vals);
		json_array_append_new(arr, o);
	}
}

/* The percentiles of rows[0..nr) (by metric): a table, else JSON. */
static void pct_print(const struct series_row *rows, size_t nr,
		      const double *pct, size_t np, int json)
{
	json_t *arr = json ? json_array() : NULL;
	struct table t;
	size_t i, j, k;

	/* every column but the metric's right-aligned */
	table_init(&t, 3 + np, ~1ul);
	table_addf(&t, "METRIC");
	table_addf(&t, "RUNS");
	table_addf(&t, "COUNT");
	for (k = 0; k < np; k++)
		table_addf(&t, "P%g", pct[k]);
	for (i = 0; i < nr; i = j) {
		struct merged m = { rows[i].metric, NULL, NULL, 0, 0, 0, 0 };

		for (j = i; j < nr && !strcmp(rows[j].metric, rows[i].metric);
		     j++)
			;
		merge_bins(rows, i, j, &m);
		pct_row(&m, pct, np, &t, arr);
		free(m.v);
		free(m.c);
	}
	if (json) {
		json_t *doc = json_object();

		json_object_set_new(doc, "percentiles", arr);
		json_dumpf(doc, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(doc);
	} else {
		table_print(&t, stdout);
	}
	table_release(&t);
}

/*
 * The glob a query narrows by: the one --metric; with several, every
 * metric, narrowed after by keep_metrics().
 */
static const char *query_glob(const struct show_args *a)
{
	return a->metrics.nr == 1 ? a->metrics.v[0] : NULL;
}

/* Does one of --metric's globs match metric (any metric, without one)? */
static int metric_wanted(const struct show_args *a, const char *metric)
{
	size_t i;

	for (i = 0; i < a->metrics.nr; i++)
		if (glob_match(a->metrics.v[i], metric))
			return 1;
	return !a->metrics.nr;
}

/*
 * Move the rows of base[0..nr) (each size bytes, the metric's name at
 * offset at) that --metric wants to the front, in their order; returns
 * how many.  The others stay behind them, for the caller to free.
 */
static size_t keep_metrics(const struct show_args *a, void *base, size_t nr,
			   size_t size, size_t at)
{
	char *rows = base, *tmp;
	size_t i, kept = 0;

	if (a->metrics.nr < 2)
		return nr;	/* the query did it */
	tmp = xmalloc(size);
	for (i = 0; i < nr; i++) {
		char *row = rows + i * size;

		if (!metric_wanted(a, *(const char **)(row + at)))
			continue;
		if (i != kept) {
			memcpy(tmp, rows + kept * size, size);
			memcpy(rows + kept * size, row, size);
			memcpy(row, tmp, size);
		}
		kept++;
	}
	free(tmp);
	return kept;
}
#define KEEP_METRICS(a, rows, nr) keep_metrics((a), (rows), (nr), \
	sizeof(*(rows)), offsetof(__typeof__(*(rows)), metric))

/* perfsift show SELECTOR --percentiles LIST: see show_options. */
static int show_percentiles(struct db *db, const struct show_args *a,
			    const char *text)
{
	struct series_row *rows;
	struct sbuf globs = SBUF_INIT;
	double *pct;
	size_t nr, nr_all, np, i;

	if (parse_pcts(a->pct_list, &pct, &np))
		return EXIT_USAGE;
	if (query_histograms(db, &a->f, query_glob(a), &rows, &nr_all)) {
		free(pct);
		return EXIT_ENV;
	}
	nr = KEEP_METRICS(a, rows, nr_all);
	if (nr) {
		pct_print(rows, nr, pct, np, a->json);
	} else {
		for (i = 0; i < a->metrics.nr; i++)
			sbuf_addf(&globs, "%s'%s'", i ? " or " : " matches ",
				  a->metrics.v[i]);
		error("no histogram%s in '%s' (fio's json+ output keeps "
		      "them)", globs.len ? globs.buf : "", text);
	}
	sbuf_release(&globs);
	free(pct);
	series_rows_free(rows, nr_all);
	return nr ? EXIT_OK : EXIT_USAGE;
}

/* perfsift show SELECTOR --series GLOB */
static int show_series(struct db *db, const struct show_args *a,
		       const char *text)
{
	struct series_row *p;
	size_t np;
	int status = EXIT_OK;

	if (query_series(db, &a->f, a->series_glob, &p, &np))
		return EXIT_ENV;
	if (!np) {
		error("no series matches '%s' in '%s'", a->series_glob, text);
		status = EXIT_USAGE;
	} else if (a->json) {
		status = show_series_json(p, np);
	} else {
		show_series_text(p, np);
	}
	series_rows_free(p, np);
	return status;
}

/* perfsift show SELECTOR: the values, the aggregates, the skipped rows */
static int show_values(struct db *db, const struct show_args *a)
{
	struct show_rows sr = { 0 };
	int status = EXIT_ENV;

	if (query_runs(db, &a->f, &sr.runs, &sr.nr) ||
	    query_samples(db, &a->f, query_glob(a), &sr.s, &sr.ns_all) ||
	    query_aggregates(db, &a->f, query_glob(a), &sr.a, &sr.na_all) ||
	    query_skips(db, &a->f, &sr.sk, &sr.nsk))
		goto out;
	sr.ns = KEEP_METRICS(a, sr.s, sr.ns_all);
	sr.na = KEEP_METRICS(a, sr.a, sr.na_all);
	if (a->f.run_id > 0 && !sr.nr) {
		error("no run with id %" PRId64 "; see 'perfsift runs'",
		      a->f.run_id);
		status = EXIT_USAGE;
	} else if (a->json) {
		status = show_json(db, &sr);
	} else {
		show_runs_text(&sr);
		show_aggregates_text(&sr);
		status = EXIT_OK;
	}
out:
	run_rows_free(sr.runs, sr.nr);
	sample_rows_free(sr.s, sr.ns_all);
	aggregate_rows_free(sr.a, sr.na_all);
	skip_rows_free(sr.sk, sr.nsk);
	return status;
}

/* SELECTOR as a run (run:ID) or a variant (sel) in f; an exit status */
static int select_runs(struct db *db, const char *text,
		       const struct dim_arg *by, struct run_filter *f,
		       struct selector *sel)
{
	long run_id;
	int r;

	if (starts_with(text, "run:")) {
		if (str_to_long(text + 4, &run_id) || run_id <= 0)
			return usage_error(&show_options, "run:ID wants a run "
					   "id, got '%s'", text);
		f->run_id = run_id;
		return EXIT_OK;
	}
	r = selector_resolve(db, text, by->dim, by->param, sel);
	if (r) {
		selector_release(sel);
		return r == -1 ? EXIT_USAGE : EXIT_ENV;
	}
	f->sel = sel;
	return EXIT_OK;
}

int cmd_show(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct show_args a = { .by = DIM_ARG_INIT };
	struct selector sel;
	struct db *db;
	int status;

	memset(&sel, 0, sizeof(sel));
	argc = parse_options(argc, argv, &show_options, &a, 0, &status);
	if (argc < 0)
		goto out;
	status = EXIT_USAGE;
	if (argc != 1) {
		usage_error(&show_options, "expected one SELECTOR");
		goto out;
	}
	status = EXIT_ENV;
	db = cmd_db(ctx);
	if (!db)
		goto out;
	status = select_runs(db, argv[0], &a.by, &a.f, &sel);
	if (status)
		goto out;
	if (a.pct_list)
		status = show_percentiles(db, &a, argv[0]);
	else if (a.series_glob)
		status = show_series(db, &a, argv[0]);
	else
		status = show_values(db, &a);
out:
	if (a.f.sel)
		selector_release(&sel);
	strlist_release(&a.metrics);
	free(a.by.param);
	return status;
}
