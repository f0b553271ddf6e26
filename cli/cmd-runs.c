/*
 * perfsift runs: the runs, with their variant, testcase, machine and
 * sample count (SPEC §5.1 gives the JSON fields).
 */
#include "core/compat.h"
#include "store/query.h"
#include "cmd.h"
#include "filter.h"
#include "table.h"
#include <jansson.h>

struct runs_args {
	struct cli_filter cf;
	int json;
};

static const char *const runs_usage[] = {
	"perfsift runs [FILTERS] [--json]",
	NULL,
};

static const struct opt runs_opts[] = {
	OPT_FILTERS(struct runs_args, cf),
	OPT_JSON(struct runs_args, json, "one JSON array on stdout"),
	OPT_END(),
};

const struct cmd_options runs_options = {
	.name = "runs",
	.usage = runs_usage,
	.description = "List the runs in the database, oldest first.\n",
	.options = runs_opts,
};

json_t *run_to_json(struct db *db, const struct run_row *r)
{
	json_t *o = json_object(), *params = json_object();
	char **keys, **values;
	size_t n, i;

	json_object_set_new(o, "id", json_integer(r->id));
	json_object_set_new(o, "label", r->label ? json_string(r->label)
						 : json_null());
	json_object_set_new(o, "kernel", *r->kernel ? json_string(r->kernel)
						    : json_null());
	json_object_set_new(o, "commit", r->commit ? json_string(r->commit)
						   : json_null());
	json_object_set_new(o, "machine", *r->machine ?
				  json_string(r->machine) : json_null());
	json_object_set_new(o, "testcase", *r->testcase ?
				  json_string(r->testcase) : json_null());
	if (!query_run_params(db, r->id, &keys, &values, &n)) {
		for (i = 0; i < n; i++) {
			json_object_set_new(params, keys[i],
					    json_string(values[i]));
			free(keys[i]);
			free(values[i]);
		}
		free(keys);
		free(values);
	}
	json_object_set_new(o, "params", params);
	json_object_set_new(o, "iteration", r->iteration >= 0 ?
				  json_integer(r->iteration) : json_null());
	json_object_set_new(o, "suite", json_string(r->suite));
	json_object_set_new(o, "start_time", r->start_time ?
				  json_integer(r->start_time) : json_null());
	json_object_set_new(o, "samples", json_integer(r->nr_samples));
	return o;
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static int print_json(struct db *db, const struct run_row *rows, size_t nr)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < nr; i++)
		json_array_append_new(a, run_to_json(db, &rows[i]));
	return print_json_steal(a);
}

static void print_text(const struct run_row *rows, size_t nr, int filtered)
{
	struct table t;
	size_t i;

	table_init(&t, 9, 1UL << 0 | 1UL << 6 | 1UL << 7);
	table_addf(&t, "ID");
	table_addf(&t, "LABEL");
	table_addf(&t, "KERNEL");
	table_addf(&t, "COMMIT");
	table_addf(&t, "MACHINE");
	table_addf(&t, "TESTCASE");
	table_addf(&t, "ITER");
	table_addf(&t, "SAMPLES");
	table_addf(&t, "PARAMS");
	for (i = 0; i < nr; i++) {
		const struct run_row *r = &rows[i];

		table_addf(&t, "%" PRId64, r->id);
		table_addf(&t, "%s", or_dash(r->label));
		table_addf(&t, "%s", or_dash(r->kernel));
		table_addf(&t, "%.12s", or_dash(r->commit));
		table_addf(&t, "%s", or_dash(r->machine));
		table_addf(&t, "%s", or_dash(r->testcase));
		if (r->iteration >= 0)
			table_addf(&t, "%ld", r->iteration);
		else
			table_addf(&t, "-");
		table_addf(&t, "%ld", r->nr_samples);
		table_addf(&t, "%s", or_dash(r->params));
	}
	if (nr)
		table_print(&t, stdout);
	else
		fprintf(stderr, "no runs%s\n", filtered ? " match" : "");
	table_release(&t);
}

int cmd_runs(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct runs_args a = { .json = 0 };
	struct run_row *rows;
	struct db *db;
	size_t nr;
	int status;

	cli_filter_init(&a.cf);
	argc = parse_options(argc, argv, &runs_options, &a, 0, &status);
	if (argc < 0)
		return status;
	if (argc)
		return usage_error(&runs_options, "unexpected argument '%s'",
				   argv[0]);
	db = cmd_db(ctx);
	if (!db)
		return EXIT_ENV;
	if (cli_filter_resolve(&a.cf, db, &status))
		return status;
	if (query_runs(db, &a.cf.f, &rows, &nr)) {
		cli_filter_release(&a.cf);
		return EXIT_ENV;
	}
	status = EXIT_OK;
	if (a.json)
		status = print_json(db, rows, nr);
	else
		print_text(rows, nr, cli_filter_given(&a.cf));
	run_rows_free(rows, nr);
	cli_filter_release(&a.cf);
	return status;
}
