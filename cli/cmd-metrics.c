/*
 * perfsift metrics: the metrics, with unit, direction and how many runs
 * have them; and the user's direction overrides.
 */
#include "core/compat.h"
#include "store/direction.h"
#include "store/query.h"
#include "cmd.h"
#include "filter.h"
#include "table.h"
#include <jansson.h>

const char *const metrics_usage[] = {
	"usage: perfsift metrics [FILTERS] [--metric GLOB] [--json]",
	"       perfsift metrics --set-direction GLOB=higher|lower|unknown",
	"       perfsift metrics --unset-direction GLOB",
	"",
	"List the metrics that the selected runs have, with their unit, the",
	"direction that counts as better, and how many runs (and aggregates)",
	"have them, and their kind as the importer stated it: counter (an",
	"event count, reduced over a run as last - first), gauge (a level,",
	"reduced as the mean), exact (deterministic, such as code size: one",
	"value per side decides), or - when not stated.",
	"Directions come from a built-in catalog (throughput, bw,",
	"iops, score: higher; latency, time, faults: lower); --set-direction",
	"stores an override for every metric matching GLOB, kept in the",
	"database and used by compare and regressions from then on.",
	"",
	FILTER_USAGE,
	"    --metric GLOB   only metrics matching GLOB",
	"    --json          one JSON array on stdout",
	NULL,
};

static int set_direction(struct db *db, const char *arg, int unset)
{
	const char *eq = unset ? NULL : strrchr(arg, '=');
	char *glob;
	int dir = INT_MIN, ret;

	if (!unset) {
		if (!eq || eq == arg)
			return usage_error(metrics_usage, "--set-direction "
					   "wants GLOB=higher|lower|unknown");
		dir = direction_parse(eq + 1);
		if (dir == -2)
			return usage_error(metrics_usage, "direction must be "
					   "higher, lower or unknown, not '%s'",
					   eq + 1);
		glob = xstrndup(arg, (size_t)(eq - arg));
	} else {
		glob = xstrdup(arg);
	}
	ret = direction_set(db, glob, dir);
	if (!ret)
		printf(unset ? "%s: override removed\n" : "%s: %s is better\n",
		       glob, direction_name(dir));
	free(glob);
	return ret ? EXIT_ENV : EXIT_OK;
}

int cmd_metrics(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	enum { O_METRIC = 1, O_SET, O_UNSET };
	static const struct option opts[] = {
		FILTER_OPTIONS,
		{ "metric", required_argument, NULL, O_METRIC },
		{ "set-direction", required_argument, NULL, O_SET },
		{ "unset-direction", required_argument, NULL, O_UNSET },
		{ 0 },
	};
	const char *metric_glob = NULL, *set = NULL, *unset = NULL;
	struct cli_filter cf;
	struct metric_row *rows;
	struct db *db;
	size_t nr, i;
	int c, status;

	cli_filter_init(&cf);
	optind = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "", opts,
				NULL)) != -1) {
		if (cli_filter_opt(&cf, c, optarg))
			continue;
		switch (c) {
		case O_METRIC: metric_glob = optarg; break;
		case O_SET: set = optarg; break;
		case O_UNSET: unset = optarg; break;
		default: return usage_error(metrics_usage, "bad option");
		}
	}
	if (optind < argc)
		return usage_error(metrics_usage, "unexpected argument '%s'",
				   argv[optind]);
	db = cmd_db(ctx);
	if (!db)
		return EXIT_ENV;
	if (set || unset)
		return set_direction(db, set ? set : unset, !set);
	if (cli_filter_resolve(&cf, db, &status))
		return status;
	if (query_metrics(db, &cf.f, metric_glob, &rows, &nr)) {
		cli_filter_release(&cf);
		return EXIT_ENV;
	}
	if (cf.json) {
		json_t *a = json_array();

		for (i = 0; i < nr; i++) {
			json_t *o = json_object();

			json_object_set_new(o, "name", json_string(rows[i].name));
			json_object_set_new(o, "unit", rows[i].unit ?
					    json_string(rows[i].unit) :
					    json_null());
			json_object_set_new(o, "direction", json_string(
				direction_name(rows[i].direction)));
			json_object_set_new(o, "kind", metric_kind_name(
				rows[i].kind) ? json_string(metric_kind_name(
				rows[i].kind)) : json_null());
			json_object_set_new(o, "runs",
					    json_integer(rows[i].nr_runs));
			json_object_set_new(o, "aggregates",
					    json_integer(rows[i].nr_aggregates));
			json_array_append_new(a, o);
		}
		status = print_json_steal(a);
	} else {
		struct table t;

		table_init(&t, 6, 1UL << 4 | 1UL << 5);
		table_addf(&t, "METRIC");
		table_addf(&t, "UNIT");
		table_addf(&t, "KIND");
		table_addf(&t, "BETTER");
		table_addf(&t, "RUNS");
		table_addf(&t, "AGGREGATES");
		for (i = 0; i < nr; i++) {
			table_addf(&t, "%s", rows[i].name);
			table_addf(&t, "%s", rows[i].unit ? rows[i].unit : "-");
			table_addf(&t, "%s", metric_kind_name(rows[i].kind) ?
				   metric_kind_name(rows[i].kind) : "-");
			table_addf(&t, "%s", direction_name(rows[i].direction));
			table_addf(&t, "%ld", rows[i].nr_runs);
			table_addf(&t, "%ld", rows[i].nr_aggregates);
		}
		if (nr)
			table_print(&t, stdout);
		else
			fprintf(stderr, "no metrics%s\n",
				cf.any || metric_glob ? " match" : "");
		table_release(&t);
		status = EXIT_OK;
	}
	metric_rows_free(rows, nr);
	cli_filter_release(&cf);
	return status;
}
