/*
 * perfsift trend and perfsift changepoints: a metric's values in commit
 * order (the commits 'perfsift commits import' recorded), per commit the
 * mean, the sample standard deviation (n-1) and n, and the change points
 * of the series (lib/stats/changepoint.h: E-divisive means, each split
 * kept when a t-test between its sides is significant), each with its
 * commit, the last commit before it, the means before and after, the
 * change, the p-value and a verdict by the metric's direction.  One
 * series per testcase, params and machine.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "stats/changepoint.h"
#include "stats/stats.h"
#include "store/direction.h"
#include "store/query.h"
#include "cmd.h"
#include "table.h"
#include <getopt.h>
#include <jansson.h>

const char *const trend_usage[] = {
	"usage: perfsift trend --metric NAME [--testcase GLOB] [--machine M]",
	"                      [--max-pvalue P] [--min-change PCT]",
	"                      [--window N] [--json]",
	"   or: perfsift changepoints --metric NAME [same options]",
	"",
	"A metric's history in commit order (the order 'perfsift commits",
	"import' recorded; runs of variants without a recorded commit are",
	"left out), one series per testcase, params and machine.  trend:",
	"per commit its mean, sample standard deviation (n-1) and n, each",
	"change point marked where it starts.  changepoints: the change",
	"points, each with its commit (the first after the change) and the",
	"last before it, the means before and after (to the neighbouring",
	"change points), the change, the p-value, and a verdict by the",
	"metric's direction (regression, improvement, or change when the",
	"direction is not known).",
	"",
	"The change points: the E-divisive means statistic (Matteson &",
	"James; alpha 1) picks the best split of the series, kept when",
	"Student's t-test between its two sides gives p < P and the means",
	"differ by at least PCT %; both sides are split again (Otava's",
	"method).  Splits fall only between commits, never among the runs",
	"of one commit.",
	"",
	"With --window N (for long histories: thousands of commits) the",
	"splitting runs inside windows of N runs, half a window apart, at a",
	"relaxed p (10 P when P < 0.05, 2 P when P < 0.5), and a merge pass",
	"drops, one by one, the change point whose t-test against its",
	"neighbouring segments is weakest, until every one left gives p < P",
	"once multiplied by the number of splits its segments allow (Otava's",
	"windowed mode, with that correction against false change points on",
	"long flat stretches).  Linear in the history's length; finds the",
	"same steps of 2 sd or more, fewer of 1 sd (docs/changepoints.md).",
	"",
	"    --metric NAME     the metric (a glob: each match is its own)",
	"    --testcase GLOB   only runs whose testcase matches",
	"    --machine M       only runs on machine M",
	"    --max-pvalue P    a change point's t-test must give p < P",
	"                      (default 0.001, Otava's)",
	"    --min-change PCT  and a change of the means of at least PCT %",
	"                      (default 0)",
	"    --window N        windows of N runs (at least 6; Otava uses 50);",
	"                      0, the default: the whole series at once",
	"    --json            one JSON document on stdout",
	NULL,
};

/* One series: rows[first..first+nr) of the history, one row key. */
struct series {
	const struct history_row *r;
	size_t nr;
	int direction;
	size_t window;		/* --window: 0 = the whole series */
	struct cp_result cp;
};

static void short_sha(char *buf, const char *sha)
{
	snprintf(buf, 13, "%s", sha);
}

static void title(const struct series *s, FILE *f)
{
	const struct history_row *r = s->r;

	fprintf(f, "%s", r->metric);
	if (r->unit)
		fprintf(f, " (%s", r->unit);
	fprintf(f, "%s%s is better)", r->unit ? ", " : " (",
		direction_name(s->direction));
	fprintf(f, ", testcase %s", *r->testcase ? r->testcase : "-");
	if (*r->params)
		fprintf(f, ", params %s", r->params);
	if (*r->machine)
		fprintf(f, ", machine %s", r->machine);
	fputc('\n', f);
}

static json_t *point_json(const struct series *s, const struct cp_point *p)
{
	const struct history_row *a = &s->r[p->index - 1], *b = &s->r[p->index];
	json_t *o = json_object();

	json_object_set_new(o, "commit", json_string(b->sha));
	json_object_set_new(o, "subject", json_string(b->subject));
	json_object_set_new(o, "last_good", json_string(a->sha));
	json_object_set_new(o, "mean_before", json_finite(p->mean_before));
	json_object_set_new(o, "mean_after", json_finite(p->mean_after));
	json_object_set_new(o, "n_before", json_integer((json_int_t)p->n_before));
	json_object_set_new(o, "n_after", json_integer((json_int_t)p->n_after));
	json_object_set_new(o, "change_pct", json_finite(p->change_pct));
	json_object_set_new(o, "p", json_finite(p->pvalue));
	json_object_set_new(o, "verdict",
			    json_string(direction_verdict(s->direction, p->change_pct)));
	return o;
}

/* The commits of a series (its rows are in commit order). */
static size_t nr_commits(const struct series *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nr; i++)
		n += !i || s->r[i].position != s->r[i - 1].position;
	return n;
}

/* changepoints, text: one table per series */
static void changepoints_text(const struct series *s, FILE *f)
{
	struct table t;
	size_t i;

	title(s, f);
	fprintf(f, "%zu runs at %zu commits in commit order; %zu change "
		"point%s", s->nr, nr_commits(s), s->cp.nr,
		s->cp.nr == 1 ? "" : "s");
	if (s->window)
		fprintf(f, " (windows of %zu runs)", s->window);
	fputc('\n', f);
	if (!s->cp.nr) {
		fputc('\n', f);
		return;
	}
	table_init(&t, 8, 0x3cul);
	table_addf(&t, "COMMIT");
	table_addf(&t, "LAST BEFORE");
	table_addf(&t, "BEFORE");
	table_addf(&t, "AFTER");
	table_addf(&t, "CHANGE");
	table_addf(&t, "P");
	table_addf(&t, "VERDICT");
	table_addf(&t, "SUBJECT");
	for (i = 0; i < s->cp.nr; i++) {
		const struct cp_point *p = &s->cp.points[i];
		char a[13], b[13];

		short_sha(a, s->r[p->index].sha);
		short_sha(b, s->r[p->index - 1].sha);
		table_addf(&t, "%s", a);
		table_addf(&t, "%s", b);
		table_addf(&t, "%.6g (n=%zu)", p->mean_before, p->n_before);
		table_addf(&t, "%.6g (n=%zu)", p->mean_after, p->n_after);
		table_addf(&t, "%+.2f%%", p->change_pct);
		table_addf(&t, "%.2g", p->pvalue);
		table_addf(&t, "%s", direction_verdict(s->direction, p->change_pct));
		table_addf(&t, "%s", s->r[p->index].subject);
	}
	table_print(&t, f);
	table_release(&t);
	fputc('\n', f);
}

/* trend, text: a row per commit, change points marked */
static void trend_text(const struct series *s, FILE *f)
{
	struct table t;
	size_t i, j, k = 0;

	title(s, f);
	table_init(&t, 6, 0x1dul);
	table_addf(&t, "POS");
	table_addf(&t, "COMMIT");
	table_addf(&t, "MEAN");
	table_addf(&t, "SD(n-1)");
	table_addf(&t, "N");
	table_addf(&t, "CHANGE POINT");
	for (i = 0; i < s->nr; i = j) {
		double *v;
		char sha[13];
		size_t n;

		for (j = i; j < s->nr && s->r[j].position == s->r[i].position;
		     j++)
			;
		n = j - i;
		v = xmalloc(n * sizeof(*v));
		for (n = 0; n < j - i; n++)
			v[n] = s->r[i + n].value;
		short_sha(sha, s->r[i].sha);
		table_addf(&t, "%ld", s->r[i].position);
		table_addf(&t, "%s", sha);
		table_addf(&t, "%.6g", stats_mean(v, n));
		if (n > 1)
			table_addf(&t, "%.4g", stats_sd_sample(v, n));
		else
			table_addf(&t, "-");
		table_addf(&t, "%zu", n);
		while (k < s->cp.nr && s->cp.points[k].index < i)
			k++;
		if (k < s->cp.nr && s->cp.points[k].index == i)
			table_addf(&t, "<- %+.2f%% %s (p %.2g)",
				   s->cp.points[k].change_pct,
				   direction_verdict(s->direction,
					   s->cp.points[k].change_pct),
				   s->cp.points[k].pvalue);
		else
			table_addf(&t, "%s", "");
		free(v);
	}
	table_print(&t, f);
	table_release(&t);
	fputc('\n', f);
}

static json_t *series_json(const struct series *s, int trend)
{
	json_t *o = json_object(), *cps = json_array();
	size_t i, j;

	json_object_set_new(o, "metric", json_string(s->r->metric));
	json_object_set_new(o, "unit", s->r->unit ? json_string(s->r->unit) :
						  json_null());
	json_object_set_new(o, "direction",
			    json_string(direction_name(s->direction)));
	json_object_set_new(o, "testcase", json_string(s->r->testcase));
	json_object_set_new(o, "params", json_string(s->r->params));
	json_object_set_new(o, "machine", json_string(s->r->machine));
	json_object_set_new(o, "runs", json_integer((json_int_t)s->nr));
	json_object_set_new(o, "commits_tested",
			    json_integer((json_int_t)nr_commits(s)));
	for (i = 0; i < s->cp.nr; i++)
		json_array_append_new(cps, point_json(s, &s->cp.points[i]));
	json_object_set_new(o, "changepoints", cps);
	if (trend) {
		json_t *commits = json_array();

		for (i = 0; i < s->nr; i = j) {
			json_t *c = json_object(), *vals = json_array();
			double *v;
			size_t n;

			for (j = i; j < s->nr &&
			     s->r[j].position == s->r[i].position; j++)
				;
			v = xmalloc((j - i) * sizeof(*v));
			for (n = 0; n < j - i; n++) {
				v[n] = s->r[i + n].value;
				json_array_append_new(vals, json_real(v[n]));
			}
			json_object_set_new(c, "commit",
					    json_string(s->r[i].sha));
			json_object_set_new(c, "position",
					    json_integer(s->r[i].position));
			json_object_set_new(c, "subject",
					    json_string(s->r[i].subject));
			json_object_set_new(c, "n", json_integer((json_int_t)n));
			json_object_set_new(c, "mean", json_finite(stats_mean(v, n)));
			json_object_set_new(c, "sd", n > 1 ? json_finite(stats_sd_sample(
						    v, n)) : json_null());
			json_object_set_new(c, "values", vals);
			json_array_append_new(commits, c);
			free(v);
		}
		json_object_set_new(o, "commits", commits);
	}
	return o;
}

static int run_trend(int argc, const char **argv, struct perfsift_ctx *ctx,
		     int trend)
{
	enum {
		O_METRIC = 256, O_TESTCASE, O_MACHINE, O_PVAL, O_MIN, O_WINDOW,
		O_JSON
	};
	static const struct option opts[] = {
		{ "metric", required_argument, NULL, O_METRIC },
		{ "testcase", required_argument, NULL, O_TESTCASE },
		{ "machine", required_argument, NULL, O_MACHINE },
		{ "max-pvalue", required_argument, NULL, O_PVAL },
		{ "min-change", required_argument, NULL, O_MIN },
		{ "window", required_argument, NULL, O_WINDOW },
		{ "json", no_argument, NULL, O_JSON },
		{ 0 },
	};
	const char *const *usage = trend_usage;
	struct cp_options cpo = CP_OPTIONS_INIT;
	struct direction_overrides dirs = { 0 };
	struct run_filter f = { 0 };
	const char *metric = NULL;
	struct history_row *rows = NULL;
	size_t nr = 0, i, j, window = 0;
	long lv;
	double min_pct = 0;
	json_t *doc = NULL, *arr = NULL;
	struct db *db;
	int c, json = 0, status = EXIT_ENV;

	optind = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "", opts,
				NULL)) != -1) {
		switch (c) {
		case O_METRIC: metric = optarg; break;
		case O_TESTCASE: f.testcase = optarg; break;
		case O_MACHINE: f.machine = optarg; break;
		case O_PVAL:
			if (str_to_double(optarg, &cpo.max_pvalue) ||
			    !(cpo.max_pvalue > 0 && cpo.max_pvalue < 1))
				return usage_error(usage, "--max-pvalue wants a "
						   "number in (0, 1), got '%s'",
						   optarg);
			break;
		case O_MIN:
			if (str_to_double(optarg, &min_pct) || !(min_pct >= 0))
				return usage_error(usage, "--min-change wants a "
						   "percentage >= 0, got '%s'",
						   optarg);
			break;
		case O_WINDOW:
			if (str_to_long(optarg, &lv) || lv < 0 ||
			    (lv && (size_t)lv < 2 * cpo.min_size))
				return usage_error(usage, "--window wants 0 "
						   "or a number of runs >= "
						   "%zu, got '%s'",
						   2 * cpo.min_size, optarg);
			window = (size_t)lv;
			break;
		case O_JSON: json = 1; break;
		default:
			return usage_error(usage, "bad option");
		}
	}
	if (!metric)
		return usage_error(usage, "--metric NAME is needed");
	if (optind != argc)
		return usage_error(usage, "unexpected argument '%s'",
				   argv[optind]);
	cpo.min_magnitude = min_pct / 100;
	db = cmd_db(ctx);
	if (!db)
		return EXIT_ENV;
	if (direction_load(db, &dirs) ||
	    query_history(db, &f, metric, &rows, &nr))
		goto out;
	if (!nr) {
		error("no sample of '%s' in a run whose commit is recorded "
		      "(see 'perfsift metrics' and 'perfsift commits import')",
		      metric);
		status = EXIT_USAGE;
		goto out;
	}
	if (json) {
		doc = json_object();
		arr = json_array();
	}
	for (i = 0; i < nr; i = j) {
		struct series s = { &rows[i], 0, 0, window, CP_RESULT_INIT };
		double *x;
		size_t *g, k;

		for (j = i; j < nr && history_same_series(&rows[i], &rows[j]); j++)
			;
		s.nr = j - i;
		s.direction = direction_of(&dirs, rows[i].metric, rows[i].unit,
					   rows[i].stated);
		x = xmalloc(s.nr * sizeof(*x));
		g = xmalloc(s.nr * sizeof(*g));
		for (k = 0; k < s.nr; k++) {
			x[k] = rows[i + k].value;
			g[k] = (size_t)rows[i + k].position;
		}
		if (window ? cp_detect_windowed(x, g, s.nr, window, &cpo, &s.cp)
			   : cp_detect(x, g, s.nr, &cpo, &s.cp)) {
			error("%s: change points could not be computed (a "
			      "value that is not finite?)", rows[i].metric);
			free(x);
			free(g);
			goto out;
		}
		if (json)
			json_array_append_new(arr, series_json(&s, trend));
		else if (trend)
			trend_text(&s, stdout);
		else
			changepoints_text(&s, stdout);
		cp_result_release(&s.cp);
		free(x);
		free(g);
	}
	if (json) {
		json_object_set_new(doc, "series", arr);
		json_object_set_new(doc, "max_pvalue", json_real(cpo.max_pvalue));
		json_object_set_new(doc, "min_change_pct", json_real(min_pct));
		/* 0: the whole series at once (cp_detect) */
		json_object_set_new(doc, "window",
				    json_integer((json_int_t)window));
		json_dumpf(doc, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(doc);
	}
	status = EXIT_OK;
out:
	history_rows_free(rows, nr);
	direction_release(&dirs);
	return status;
}

int cmd_trend(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	return run_trend(argc, argv, ctx, 1);
}

int cmd_changepoints(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	return run_trend(argc, argv, ctx, 0);
}
