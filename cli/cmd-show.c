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
#include "table.h"
#include <getopt.h>
#include <jansson.h>

const char *const show_usage[] = {
	"usage: perfsift show SELECTOR [--by DIM] [--metric GLOB]",
	"                     [--testcase GLOB] [--machine M] [--json]",
	"       perfsift show SELECTOR --series GLOB [...]",
	"       perfsift show SELECTOR --percentiles P[,P...] [...]",
	"",
	"Show every value of one variant or run.  SELECTOR is a label, a",
	"kernel version, a commit sha prefix, or run:ID for a single run.",
	"The text form prints one table per testcase/params/machine, a",
	"column per run, then n, the mean and the sample standard deviation",
	"(n-1 divisor).  Aggregates (summaries imported as printed) follow.",
	"",
	"    --by DIM        what SELECTOR is: label, kernel, commit, machine",
	"                    or param:NAME (default: a label, else a kernel,",
	"                    else a commit prefix)",
	"    --metric GLOB   only metrics matching GLOB",
	"    --testcase GLOB only runs whose testcase matches",
	"    --machine M     only runs on machine M",
	"    --series GLOB   the time series of the matching metrics instead:",
	"                    every point, t in seconds (epoch seconds for",
	"                    monitors) with the offset from the run's first",
	"                    point and the change from the previous point",
	"    --percentiles P,P,...  from the histograms (fio json+ bins) of",
	"                    the selected runs, merged exactly (bins summed):",
	"                    each metric's count and its P-th percentiles as",
	"                    fio computes them (the first bin whose running",
	"                    count reaches P%); --metric narrows the metrics",
	"    --json          one JSON document on stdout (SPEC §5.1; with",
	"                    --series: {\"series\": [{run, metric, points:",
	"                    [[t, value], ...]}]}; with --percentiles:",
	"                    {\"percentiles\": [{metric, runs, count,",
	"                    values: {P: v}}]})",
	NULL,
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

static int show_json(struct db *db, const struct run_row *runs, size_t nr,
		     const struct sample_row *s, size_t ns,
		     const struct aggregate_row *a, size_t na,
		     const struct skip_row *sk, size_t nsk)
{
	json_t *doc = json_object(), *ja = json_array(), *jr = json_array();
	json_t *jk = json_array();
	size_t i, k = 0;

	for (i = 0; i < nr; i++) {
		json_t *o = run_to_json(db, &runs[i]), *vals = json_object();

		for (; k < ns && s[k].run_id == runs[i].id; k++)
			json_object_set_new(vals, s[k].metric,
					    json_real(s[k].value));
		json_object_set_new(o, "values", vals);
		json_array_append_new(jr, o);
	}
	for (i = 0; i < na; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "label", a[i].label ?
				    json_string(a[i].label) : json_null());
		json_object_set_new(o, "kernel", *a[i].kernel ?
				    json_string(a[i].kernel) : json_null());
		json_object_set_new(o, "commit", a[i].commit ?
				    json_string(a[i].commit) : json_null());
		json_object_set_new(o, "testcase", *a[i].testcase ?
				    json_string(a[i].testcase) : json_null());
		json_object_set_new(o, "params", json_string(a[i].params));
		json_object_set_new(o, "machine", *a[i].machine ?
				    json_string(a[i].machine) : json_null());
		json_object_set_new(o, "metric", json_string(a[i].metric));
		json_object_set_new(o, "unit", a[i].unit ?
				    json_string(a[i].unit) : json_null());
		json_object_set_new(o, "stat", json_string(a[i].stat));
		json_object_set_new(o, "value", json_real(a[i].value));
		json_object_set_new(o, "stddev", json_finite(a[i].stddev));
		json_object_set_new(o, "stddev_kind", a[i].stddev_kind ?
				    json_string(a[i].stddev_kind) :
				    json_null());
		json_object_set_new(o, "n", a[i].n >= 0 ? json_integer(a[i].n)
							: json_null());
		json_object_set_new(o, "marker", a[i].marker ?
				    json_string(a[i].marker) : json_null());
		json_array_append_new(ja, o);
	}
	for (i = 0; i < nsk; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "path", json_string(sk[i].path));
		json_object_set_new(o, "message", sk[i].message ?
				    json_integer(sk[i].message) : json_null());
		json_object_set_new(o, "line", json_integer(sk[i].line));
		json_object_set_new(o, "reason", json_string(sk[i].reason));
		json_object_set_new(o, "text", json_string(sk[i].text));
		json_array_append_new(jk, o);
	}
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

static void show_text(const struct run_row *runs, size_t nr,
		      const struct sample_row *s, size_t ns,
		      const struct aggregate_row *a, size_t na,
		      const struct skip_row *sk, size_t nsk)
{
	const struct run_row **g = xmalloc((nr + 1) * sizeof(*g));
	char *done = xcalloc(nr + 1, 1);
	size_t i, j, n;

	for (i = 0; i < nr; i++) {
		const struct run_row *r = &runs[i];

		printf("run %" PRId64 ": label %s, kernel %s, commit %.12s, "
		       "iteration %ld, %ld sample%s\n", r->id,
		       r->label ? r->label : "-", *r->kernel ? r->kernel : "-",
		       r->commit ? r->commit : "-", r->iteration,
		       r->nr_samples, r->nr_samples == 1 ? "" : "s");
	}
	for (i = 0; i < nr; i++) {
		if (done[i])
			continue;
		for (n = 0, j = i; j < nr; j++)
			if (!done[j] && same_group(&runs[i], &runs[j])) {
				g[n++] = &runs[j];
				done[j] = 1;
			}
		putchar('\n');
		show_group(g, n, s, ns);
	}
	if (na) {
		struct table t;

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
		for (i = 0; i < na; i++) {
			table_addf(&t, "%s", a[i].label ? a[i].label : "-");
			table_addf(&t, "%s", *a[i].testcase ? a[i].testcase
							    : "-");
			table_addf(&t, "%s", a[i].metric);
			table_addf(&t, "%s", a[i].stat);
			fmt_num(&t, a[i].value);
			if (isfinite(a[i].stddev) && a[i].stddev_kind &&
			    !strcmp(a[i].stddev_kind, "relative"))
				table_addf(&t, "%.6g (%g%% relative)",
					   a[i].stddev, a[i].stddev_source);
			else if (isfinite(a[i].stddev))
				table_addf(&t, "%.6g (%s)", a[i].stddev,
					   a[i].stddev_kind ? a[i].stddev_kind
							    : "?");
			else
				table_addf(&t, "-");
			if (a[i].n >= 0)
				table_addf(&t, "%ld", a[i].n);
			else
				table_addf(&t, "?");
			table_addf(&t, "%s", a[i].marker ? a[i].marker : "");
		}
		table_print(&t, stdout);
		table_release(&t);
	}
	if (nsk)
		printf("\nrows skipped by the imports of these aggregates\n");
	for (i = 0; i < nsk; i++) {
		printf("%s", sk[i].path);
		if (sk[i].message)
			printf(" message %d", sk[i].message);
		printf(":%ld: %s\n    | %s\n", sk[i].line, sk[i].reason,
		       sk[i].text);
	}
	free(g);
	free(done);
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
			return usage_error(show_usage, "--percentiles wants "
					   "numbers in (0, 100] separated by "
					   "commas, got '%s'", list), -1;
		}
		ALLOC_GROW(*p, *n + 1, alloc);
		(*p)[(*n)++] = v;
		if (!*s)
			return 0;
		if (*s++ != ',') {
			free(*p);
			return usage_error(show_usage, "--percentiles wants "
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

/* perfsift show SELECTOR --percentiles LIST: see show_usage. */
static int show_percentiles(struct db *db, const struct run_filter *f,
			    const char *metric_glob, const char *list,
			    const char *text, int json)
{
	struct series_row *rows;
	double *pct;
	size_t nr, np, i, j, k;
	json_t *arr = NULL;
	struct table t;

	if (parse_pcts(list, &pct, &np))
		return EXIT_USAGE;
	if (query_histograms(db, f, metric_glob, &rows, &nr)) {
		free(pct);
		return EXIT_ENV;
	}
	if (!nr) {
		error("no histogram%s%s in '%s' (fio's json+ output keeps "
		      "them)", metric_glob ? " matches " : "",
		      metric_glob ? metric_glob : "", text);
		free(pct);
		series_rows_free(rows, nr);
		return EXIT_USAGE;
	}
	if (json) {
		arr = json_array();
	} else {
		/* every column but the metric's right-aligned */
		table_init(&t, 3 + np, ~1ul);
		table_addf(&t, "METRIC");
		table_addf(&t, "RUNS");
		table_addf(&t, "COUNT");
		for (k = 0; k < np; k++)
			table_addf(&t, "P%g", pct[k]);
	}
	for (i = 0; i < nr; i = j) {
		struct merged m = { rows[i].metric, NULL, NULL, 0, 0, 0, 0 };
		json_t *o = NULL, *vals = NULL;

		for (j = i; j < nr && !strcmp(rows[j].metric, rows[i].metric);
		     j++)
			;
		merge_bins(rows, i, j, &m);
		if (json) {
			o = json_object();
			vals = json_object();
			json_object_set_new(o, "metric", json_string(m.metric));
			json_object_set_new(o, "runs", json_integer(m.runs));
			json_object_set_new(o, "count", json_real(m.total));
		} else {
			table_addf(&t, "%s", m.metric);
			table_addf(&t, "%ld", m.runs);
			table_addf(&t, "%.0f", m.total);
		}
		for (k = 0; k < np; k++) {
			double v = stats_hist_percentile(m.v, m.c, m.nr, pct[k]);
			char key[32];

			if (json) {
				snprintf(key, sizeof(key), "%g", pct[k]);
				json_object_set_new(vals, key, json_finite(v));
			} else {
				fmt_num(&t, v);
			}
		}
		if (json) {
			json_object_set_new(o, "values", vals);
			json_array_append_new(arr, o);
		}
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
		table_release(&t);
	}
	free(pct);
	series_rows_free(rows, nr);
	return EXIT_OK;
}

int cmd_show(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	enum { O_METRIC = 1, O_TESTCASE, O_MACHINE, O_JSON, O_BY, O_SERIES,
	       O_PCT };
	static const struct option opts[] = {
		{ "by", required_argument, NULL, O_BY },
		{ "series", required_argument, NULL, O_SERIES },
		{ "percentiles", required_argument, NULL, O_PCT },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "testcase", required_argument, NULL, O_TESTCASE },
		{ "machine", required_argument, NULL, O_MACHINE },
		{ "json", no_argument, NULL, O_JSON },
		{ 0 },
	};
	const char *metric_glob = NULL, *series_glob = NULL, *text;
	const char *pct_list = NULL;
	struct run_filter f = { 0 };
	struct selector sel;
	struct run_row *runs = NULL;
	struct sample_row *s = NULL;
	struct aggregate_row *a = NULL;
	struct skip_row *sk = NULL;
	struct db *db;
	size_t nr = 0, ns = 0, na = 0, nsk = 0;
	int json = 0, c, status = EXIT_ENV, r;
	enum dim dim = DIM_AUTO;
	char *param = NULL;
	long run_id = -1;

	optind = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "", opts,
				NULL)) != -1) {
		switch (c) {
		case O_METRIC: metric_glob = optarg; break;
		case O_SERIES: series_glob = optarg; break;
		case O_PCT: pct_list = optarg; break;
		case O_TESTCASE: f.testcase = optarg; break;
		case O_MACHINE: f.machine = optarg; break;
		case O_JSON: json = 1; break;
		case O_BY:
			free(param);
			if (dim_parse(optarg, &dim, &param))
				return usage_error(show_usage, "--by wants "
						   "label, kernel, commit, "
						   "machine or param:NAME");
			break;
		default:
			free(param);
			return usage_error(show_usage, "bad option");
		}
	}
	if (optind + 1 != argc) {
		free(param);
		return usage_error(show_usage, "expected one SELECTOR");
	}
	text = argv[optind];
	db = cmd_db(ctx);
	if (!db) {
		free(param);
		return EXIT_ENV;
	}
	memset(&sel, 0, sizeof(sel));
	if (starts_with(text, "run:")) {
		if (str_to_long(text + 4, &run_id) || run_id <= 0) {
			free(param);
			return usage_error(show_usage, "run:ID wants a run id, "
					   "got '%s'", text);
		}
		f.run_id = run_id;
	} else {
		r = selector_resolve(db, text, dim, param, &sel);
		if (r) {
			selector_release(&sel);
			free(param);
			return r == -1 ? EXIT_USAGE : EXIT_ENV;
		}
		f.sel = &sel;
	}
	if (pct_list) {
		status = show_percentiles(db, &f, metric_glob, pct_list, text,
					  json);
		goto out;
	}
	if (series_glob) {
		struct series_row *p;
		size_t np;

		if (query_series(db, &f, series_glob, &p, &np))
			goto out;
		if (!np) {
			error("no series matches '%s' in '%s'", series_glob,
			      text);
			status = EXIT_USAGE;
		} else if (json) {
			status = show_series_json(p, np);
		} else {
			show_series_text(p, np);
			status = EXIT_OK;
		}
		series_rows_free(p, np);
		goto out;
	}
	if (query_runs(db, &f, &runs, &nr) ||
	    query_samples(db, &f, metric_glob, &s, &ns))
		goto out;
	if (query_aggregates(db, &f, metric_glob, &a, &na) ||
	    query_skips(db, &f, &sk, &nsk))
		goto out;
	if (run_id > 0 && !nr) {
		error("no run with id %ld; see 'perfsift runs'", run_id);
		status = EXIT_USAGE;
		goto out;
	}
	if (json)
		status = show_json(db, runs, nr, s, ns, a, na, sk, nsk);
	else {
		show_text(runs, nr, s, ns, a, na, sk, nsk);
		status = EXIT_OK;
	}
out:
	run_rows_free(runs, nr);
	sample_rows_free(s, ns);
	aggregate_rows_free(a, na);
	skip_rows_free(sk, nsk);
	if (f.sel)
		selector_release(&sel);
	free(param);
	return status;
}
