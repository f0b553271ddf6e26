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

struct metrics_args {
	struct cli_filter cf;
	const char *metric_glob, *set, *unset;
	int json;
};

static const char *const metrics_usage[] = {
	"perfsift metrics [FILTERS] [--metric GLOB] [--json]\n"
	"perfsift metrics --set-direction GLOB=higher|lower|unknown\n"
	"perfsift metrics --unset-direction GLOB",
	NULL,
};

static const struct opt metrics_opts[] = {
	OPT_FILTERS(struct metrics_args, cf),
	OPT_METRIC_GLOB(struct metrics_args, metric_glob),
	OPT_JSON(struct metrics_args, json, "one JSON array on stdout"),
	OPT_STRING(0, "set-direction", struct metrics_args, set,
		   "GLOB=DIR", "store DIR (higher, lower or unknown) as the\n"
		   "direction of every metric matching GLOB"),
	OPT_STRING(0, "unset-direction", struct metrics_args, unset, "GLOB",
		   "remove the override stored for GLOB"),
	OPT_END(),
};

const struct cmd_options metrics_options = {
	.name = "metrics",
	.usage = metrics_usage,
	.description =
	"List the metrics that the selected runs have, with their unit, the\n"
	"direction that counts as better, and how many runs (and aggregates)\n"
	"have them, and their kind as the importer stated it: counter (an\n"
	"event count, reduced over a run as last - first), gauge (a level,\n"
	"reduced as the mean), exact (deterministic, such as code size: one\n"
	"value per side decides), or - when not stated.\n"
	"Directions come from a built-in catalog (throughput, bw,\n"
	"iops, score: higher; latency, time, faults: lower); --set-direction\n"
	"stores an override for every metric matching GLOB, kept in the\n"
	"database and used by compare and regressions from then on.\n",
	.options = metrics_opts,
};

static int set_direction(struct db *db, const char *arg, int unset)
{
	const char *eq = unset ? NULL : strrchr(arg, '=');
	char *glob;
	int dir = INT_MIN, ret;

	if (!unset) {
		if (!eq || eq == arg)
			return usage_error(&metrics_options, "--set-direction "
					   "wants GLOB=higher|lower|unknown");
		dir = direction_parse(eq + 1);
		if (dir == -2)
			return usage_error(&metrics_options, "direction must "
					   "be higher, lower or unknown, not "
					   "'%s'", eq + 1);
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

static int print_json(const struct metric_row *rows, size_t nr)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < nr; i++) {
		json_t *o = json_object();
		const char *kind = metric_kind_name(rows[i].kind);

		json_object_set_new(o, "name", json_string(rows[i].name));
		json_object_set_new(o, "unit", rows[i].unit ?
				    json_string(rows[i].unit) : json_null());
		json_object_set_new(o, "direction", json_string(
			direction_name(rows[i].direction)));
		json_object_set_new(o, "kind", kind ? json_string(kind) :
						      json_null());
		json_object_set_new(o, "runs", json_integer(rows[i].nr_runs));
		json_object_set_new(o, "aggregates",
				    json_integer(rows[i].nr_aggregates));
		json_array_append_new(a, o);
	}
	return print_json_steal(a);
}

static void print_text(const struct metric_row *rows, size_t nr,
		       int filtered)
{
	struct table t;
	size_t i;

	table_init(&t, 6, 1UL << 4 | 1UL << 5);
	table_addf(&t, "METRIC");
	table_addf(&t, "UNIT");
	table_addf(&t, "KIND");
	table_addf(&t, "BETTER");
	table_addf(&t, "RUNS");
	table_addf(&t, "AGGREGATES");
	for (i = 0; i < nr; i++) {
		const char *kind = metric_kind_name(rows[i].kind);

		table_addf(&t, "%s", rows[i].name);
		table_addf(&t, "%s", rows[i].unit ? rows[i].unit : "-");
		table_addf(&t, "%s", kind ? kind : "-");
		table_addf(&t, "%s", direction_name(rows[i].direction));
		table_addf(&t, "%ld", rows[i].nr_runs);
		table_addf(&t, "%ld", rows[i].nr_aggregates);
	}
	if (nr)
		table_print(&t, stdout);
	else
		fprintf(stderr, "no metrics%s\n", filtered ? " match" : "");
	table_release(&t);
}

int cmd_metrics(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct metrics_args a = { .json = 0 };
	struct metric_row *rows;
	struct db *db;
	size_t nr;
	int status;

	cli_filter_init(&a.cf);
	argc = parse_options(argc, argv, &metrics_options, &a, 0, &status);
	if (argc < 0)
		return status;
	if (argc)
		return usage_error(&metrics_options, "unexpected argument "
				   "'%s'", argv[0]);
	db = cmd_db(ctx);
	if (!db)
		return EXIT_ENV;
	if (a.set || a.unset)
		return set_direction(db, a.set ? a.set : a.unset, !a.set);
	if (cli_filter_resolve(&a.cf, db, &status))
		return status;
	if (query_metrics(db, &a.cf.f, a.metric_glob, &rows, &nr)) {
		cli_filter_release(&a.cf);
		return EXIT_ENV;
	}
	status = EXIT_OK;
	if (a.json)
		status = print_json(rows, nr);
	else
		print_text(rows, nr, cli_filter_given(&a.cf) || a.metric_glob);
	metric_rows_free(rows, nr);
	cli_filter_release(&a.cf);
	return status;
}
