/*
 * perfsift changepoints: the change points of a metric's history in
 * commit order (the commits 'perfsift commits import' recorded), one
 * series per testcase, params and machine (lib/stats/changepoint.h:
 * E-divisive means, each split kept when a t-test between its sides is
 * significant), each with its commit, the last commit before it, the
 * means before and after, the change, the p-value and a verdict by the
 * metric's direction.  The walk over the series is trend's too
 * (changepoints.h).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "changepoints.h"
#include "options.h"
#include "table.h"
#include <jansson.h>

struct cp_args {
	const char *metric;
	struct run_filter f;
	struct cp_options cpo;
	double min_pct;		/* --min-change */
	size_t window;
	int json;
};

int cp_opt_window(const struct opt *o UNUSED, const char *arg,
		      void *window)
{
	static const struct cp_options init = CP_OPTIONS_INIT;
	long lv;

	if (str_to_long(arg, &lv) || lv < 0 ||
	    (lv && (size_t)lv < 2 * init.min_size))
		return error("--window wants 0 or a number of runs >= %zu, got "
			     "'%s'", 2 * init.min_size, arg);
	*(size_t *)window = (size_t)lv;
	return 0;
}

#define T struct cp_args
const struct opt changepoints_opts[] = {
	OPT_METRIC(T, metric, "NAME",
		   "the metric (a glob: each match is its own)"),
	OPT_TESTCASE(T, f.testcase),
	OPT_MACHINE(T, f.machine),
	OPT_CP_TESTS(T, cpo, min_pct),
	OPT_CALLBACK(0, "window", T, window, "N",
		     "windows of N runs (at least 6; Otava uses 50);\n"
		     "0, the default: the whole series at once",
		     cp_opt_window, 0),
	OPT_JSON(T, json, "one JSON document on stdout"),
	OPT_END(),
};
#undef T

const char changepoints_description[] =
	"A metric's history in commit order (the order 'perfsift commits\n"
	"import' recorded; runs of variants without a recorded commit are\n"
	"left out), one series per testcase, params and machine.  trend:\n"
	"per commit its mean, sample standard deviation (n-1) and n, each\n"
	"change point marked where it starts.  changepoints: the change\n"
	"points, each with its commit (the first after the change) and the\n"
	"last before it, the means before and after (to the neighbouring\n"
	"change points), the change, the p-value, and a verdict by the\n"
	"metric's direction (regression, improvement, or change when the\n"
	"direction is not known).\n"
	"\n"
	"The change points: the E-divisive means statistic (Matteson &\n"
	"James; alpha 1) picks the best split of the series, kept when\n"
	"Student's t-test between its two sides gives p < P and the means\n"
	"differ by at least PCT %; both sides are split again (Otava's\n"
	"method).  Splits fall only between commits, never among the runs\n"
	"of one commit.\n"
	"\n"
	"With --window N (for long histories: thousands of commits) the\n"
	"splitting runs inside windows of N runs, half a window apart, at a\n"
	"relaxed p (10 P when P < 0.05, 2 P when P < 0.5), and a merge pass\n"
	"drops, one by one, the change point whose t-test against its\n"
	"neighbouring segments is weakest, until every one left gives p < P\n"
	"once multiplied by the number of splits its segments allow (Otava's\n"
	"windowed mode, with that correction against false change points on\n"
	"long flat stretches).  Linear in the history's length; finds the\n"
	"same steps of 2 sd or more, fewer of 1 sd (docs/changepoints.md).\n";

void cp_short_sha(char *buf, const char *sha)
{
	snprintf(buf, 13, "%s", sha);
}

void cp_series_title(const struct cp_series *s, FILE *f)
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

json_t *cp_point_json(const struct cp_series *s, const struct cp_point *p)
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

size_t cp_nr_commits(const struct cp_series *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nr; i++)
		n += !i || s->r[i].position != s->r[i - 1].position;
	return n;
}

/* changepoints, text: one table per series */
static void changepoints_text(const struct cp_series *s, FILE *f)
{
	struct table t;
	size_t i;

	cp_series_title(s, f);
	fprintf(f, "%zu runs at %zu commits in commit order; %zu change "
		"point%s", s->nr, cp_nr_commits(s), s->cp.nr,
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

		cp_short_sha(a, s->r[p->index].sha);
		cp_short_sha(b, s->r[p->index - 1].sha);
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

json_t *history_series_json(const struct history_row *r, int direction)
{
	json_t *o = json_object();

	json_object_set_new(o, "metric", json_string(r->metric));
	json_object_set_new(o, "unit", r->unit ? json_string(r->unit) :
					       json_null());
	json_object_set_new(o, "direction",
			    json_string(direction_name(direction)));
	json_object_set_new(o, "testcase", json_string(r->testcase));
	json_object_set_new(o, "params", json_string(r->params));
	json_object_set_new(o, "machine", json_string(r->machine));
	return o;
}

static json_t *series_json(const struct cp_series *s,
			   const struct cp_output *out)
{
	json_t *o = history_series_json(s->r, s->direction);
	json_t *cps = json_array();
	size_t i;

	json_object_set_new(o, "runs", json_integer((json_int_t)s->nr));
	json_object_set_new(o, "commits_tested",
			    json_integer((json_int_t)cp_nr_commits(s)));
	for (i = 0; i < s->cp.nr; i++)
		json_array_append_new(cps, cp_point_json(s, &s->cp.points[i]));
	json_object_set_new(o, "changepoints", cps);
	if (out->json)
		out->json(s, o);
	return o;
}

int cp_series_detect(struct cp_series *s, const struct cp_options *cpo)
{
	double *x = xmalloc(s->nr * sizeof(*x));
	size_t *g = xmalloc(s->nr * sizeof(*g));
	size_t k;
	int r;

	for (k = 0; k < s->nr; k++) {
		x[k] = s->r[k].value;
		g[k] = (size_t)s->r[k].position;
	}
	r = s->window ? cp_detect_windowed(x, g, s->nr, s->window, cpo, &s->cp)
		      : cp_detect(x, g, s->nr, cpo, &s->cp);
	free(x);
	free(g);
	if (r)
		return error("%s: change points could not be computed (a "
			     "value that is not finite?)", s->r->metric);
	return 0;
}

/* Each series of rows[0..nr): printed, or appended to arr; 0 or -1 */
static int each_series(const struct history_row *rows, size_t nr,
		       const struct cp_args *a,
		       const struct direction_overrides *dirs,
		       const struct cp_output *out, json_t *arr)
{
	size_t i, j;

	for (i = 0; i < nr; i = j) {
		struct cp_series s = { &rows[i], 0, 0, a->window,
				       CP_RESULT_INIT };

		for (j = i; j < nr && history_same_series(&rows[i], &rows[j]); j++)
			;
		s.nr = j - i;
		s.direction = direction_of(dirs, rows[i].metric, rows[i].unit,
					   rows[i].stated);
		if (cp_series_detect(&s, &a->cpo))
			return -1;
		if (arr)
			json_array_append_new(arr, series_json(&s, out));
		else
			out->text(&s, stdout);
		cp_result_release(&s.cp);
	}
	return 0;
}

/* The JSON document around the series arr (stolen). */
static void print_doc(json_t *arr, const struct cp_args *a)
{
	json_t *doc = json_object();

	json_object_set_new(doc, "series", arr);
	json_object_set_new(doc, "max_pvalue", json_real(a->cpo.max_pvalue));
	json_object_set_new(doc, "min_change_pct", json_real(a->min_pct));
	/* 0: the whole series at once (cp_detect) */
	json_object_set_new(doc, "window", json_integer((json_int_t)a->window));
	json_dumpf(doc, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(doc);
}

/* The history of a->metric, its series printed; an exit status */
static int print_history(struct db *db, const struct cp_args *a,
			 const struct cp_output *out)
{
	struct direction_overrides dirs = { 0 };
	struct history_row *rows = NULL;
	json_t *arr = NULL;
	size_t nr = 0;
	int status = EXIT_ENV;

	if (direction_load(db, &dirs) ||
	    query_history(db, &a->f, a->metric, &rows, &nr))
		goto out;
	if (!nr) {
		error("no sample of '%s' in a run whose commit is recorded "
		      "(see 'perfsift metrics' and 'perfsift commits import')",
		      a->metric);
		status = EXIT_USAGE;
		goto out;
	}
	if (a->json)
		arr = json_array();
	if (each_series(rows, nr, a, &dirs, out, arr)) {
		json_decref(arr);
		goto out;
	}
	if (arr)
		print_doc(arr, a);
	status = EXIT_OK;
out:
	history_rows_free(rows, nr);
	direction_release(&dirs);
	return status;
}

int changepoints_main(int argc, const char **argv, struct perfsift_ctx *ctx,
		      const struct cmd_options *c, const struct cp_output *out)
{
	struct cp_args a = { .cpo = CP_OPTIONS_INIT };
	int status;

	argc = parse_options(argc, argv, c, &a, 0, &status);
	if (argc < 0)
		return status;
	if (!a.metric)
		return usage_error(c, "--metric NAME is needed");
	if (argc)
		return usage_error(c, "unexpected argument '%s'", argv[0]);
	a.cpo.min_magnitude = a.min_pct / 100;
	if (!cmd_db(ctx))
		return EXIT_ENV;
	return print_history(&ctx->db, &a, out);
}

static const char *const changepoints_usage[] = {
	"perfsift changepoints --metric NAME [--testcase GLOB] [--machine M]\n"
	"                      [--max-pvalue P] [--min-change PCT]\n"
	"                      [--window N] [--json]",
	"perfsift trend --metric NAME [same options]",
	NULL,
};

const struct cmd_options changepoints_options = {
	.name = "changepoints",
	.usage = changepoints_usage,
	.description = changepoints_description,
	.options = changepoints_opts,
};

int cmd_changepoints(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	static const struct cp_output out = { changepoints_text, NULL };

	return changepoints_main(argc, argv, ctx, &changepoints_options,
				 &out);
}
