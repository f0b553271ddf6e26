/*
 * perfsift debug dump: everything in the database as sorted,
 * path-independent text, for the importer golden tests
 * (tests/data/<importer>/<case>/expect).
 */
#include "core/compat.h"
#include "cmd.h"

const char *const debug_usage[] = {
	"usage: perfsift debug dump",
	"",
	"Print every import, run, parameter, sample, aggregate and series",
	"point as tab-separated text (paths left out), for tests.",
	NULL,
};

static const char *txt(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? (const char *)s : "NULL";
}

static void num(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		fputs("NULL", stdout);
	else
		printf("%.15g", sqlite3_column_double(st, i));
}

static int dump(struct db *db)
{
	/*
	 * Runs are numbered by order, not id, so that goldens are stable;
	 * row_number() numbers them in one pass.
	 */
	static const char *const queries[] = {
		"SELECT 'import', format, size FROM imports ORDER BY id",
		"SELECT 'run', row_number() OVER (ORDER BY id), suite, testcase,"
		" params, machine, kernel, commit_sha, label, iteration,"
		" start_time, line FROM runs r ORDER BY id",
		"WITH n AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM"
		" runs) SELECT 'sample', n.k, m.name, m.unit, s.value, s.line"
		" FROM samples s JOIN n ON n.id = s.run_id JOIN metrics m ON"
		" m.id = s.metric_id ORDER BY s.run_id, m.name",
		"SELECT 'aggregate', a.label, a.kernel, a.commit_sha, a.testcase,"
		" a.params, a.machine, m.name, a.stat, a.value, a.stddev,"
		" a.stddev_kind, a.stddev_source, a.n, a.marker, a.line FROM"
		" aggregates a JOIN metrics m ON m.id = a.metric_id ORDER BY"
		" a.id",
		"WITH n AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM"
		" runs) SELECT 'series', n.k, m.name, s.t, s.value FROM series"
		" s JOIN n ON n.id = s.run_id JOIN metrics m ON m.id ="
		" s.metric_id ORDER BY s.run_id, m.name, s.t",
	};
	size_t q;

	for (q = 0; q < ARRAY_SIZE(queries); q++) {
		sqlite3_stmt *st = db_prepare(db, queries[q]);
		int i, n, rc;

		if (!st)
			return EXIT_ENV;
		n = sqlite3_column_count(st);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			for (i = 0; i < n; i++) {
				if (i)
					putchar('\t');
				if (sqlite3_column_type(st, i) == SQLITE_FLOAT)
					num(st, i);
				else
					fputs(txt(st, i), stdout);
			}
			putchar('\n');
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return error("%s: %s", db->path, db_errmsg(db)),
			       EXIT_ENV;
	}
	return EXIT_OK;
}

int cmd_debug(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct db *db;

	if (argc != 2 || strcmp(argv[1], "dump"))
		return usage_error(debug_usage, "expected 'debug dump'");
	db = cmd_db(ctx);
	return db ? dump(db) : EXIT_ENV;
}
