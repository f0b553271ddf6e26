/*
 * perfsift trend: a metric's values in commit order (the commits
 * 'perfsift commits import' recorded), per commit the mean, the sample
 * standard deviation (n-1) and n, each change point marked where it
 * starts; one series per testcase, params and machine.  The change
 * points and the walk over the series are changepoints' (changepoints.h).
 */
#include "core/compat.h"
#include "stats/stats.h"
#include "store/direction.h"
#include "changepoints.h"
#include "table.h"
#include <jansson.h>

static const char *const trend_usage[] = {
	"perfsift trend --metric NAME [--testcase GLOB] [--machine M]\n"
	"               [--max-pvalue P] [--min-change PCT]\n"
	"               [--window N] [--json]",
	"perfsift changepoints --metric NAME [same options]",
	NULL,
};

const struct cmd_options trend_options = {
	.name = "trend",
	.usage = trend_usage,
	.description = changepoints_description,
	.options = changepoints_opts,
};

/* trend, text: a row per commit, change points marked */
static void trend_text(const struct cp_series *s, FILE *f)
{
	struct table t;
	size_t i, j, k = 0;

	cp_series_title(s, f);
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
		cp_short_sha(sha, s->r[i].sha);
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

/* trend, JSON: each commit's values, after the change points */
static void trend_json(const struct cp_series *s, json_t *o)
{
	json_t *commits = json_array();
	size_t i, j;

	for (i = 0; i < s->nr; i = j) {
		json_t *c = json_object(), *vals = json_array();
		double *v;
		size_t n;

		for (j = i; j < s->nr && s->r[j].position == s->r[i].position;
		     j++)
			;
		v = xmalloc((j - i) * sizeof(*v));
		for (n = 0; n < j - i; n++) {
			v[n] = s->r[i + n].value;
			json_array_append_new(vals, json_real(v[n]));
		}
		json_object_set_new(c, "commit", json_string(s->r[i].sha));
		json_object_set_new(c, "position",
				    json_integer(s->r[i].position));
		json_object_set_new(c, "subject", json_string(s->r[i].subject));
		json_object_set_new(c, "n", json_integer((json_int_t)n));
		json_object_set_new(c, "mean", json_finite(stats_mean(v, n)));
		json_object_set_new(c, "sd", n > 1 ?
				    json_finite(stats_sd_sample(v, n)) :
				    json_null());
		json_object_set_new(c, "values", vals);
		json_array_append_new(commits, c);
		free(v);
	}
	json_object_set_new(o, "commits", commits);
}

int cmd_trend(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	static const struct cp_output out = { trend_text, trend_json };

	return changepoints_main(argc, argv, ctx, &trend_options, &out);
}
