/*
 * make bench helper: the storage floor under an import.  The imports,
 * runs and samples that `perfsift import` wrote into SRC are written
 * again into new databases through the same emit API (db_import_begin,
 * db_emit_run, db_emit_sample, db_import_set_hash), each import all or
 * nothing in batches of DB_BATCH_MS as `perfsift import` stores them
 * (db_batch_start()), with nothing read or parsed: what
 * SQLite and the emit layer alone cost for those rows.  The best of N
 * passes, each into a new database DST (removed after), is printed in
 * seconds, database set-up included, as in an import.
 *
 *   build/bench-store N SRC DST
 */
#include "core/compat.h"
#include "store/db.h"
#include <time.h>

struct row {
	char *metric, *unit;	/* owned; unit NULL when none */
	double value;
	long line;
};

struct one_run {
	char *suite, *testcase;	/* owned */
	struct kv *params;	/* owned, and their strings */
	size_t nr_params;
	int64_t start_time;
	long line;
	struct row *rows;	/* owned */
	size_t nr_rows;
};

struct one_import {
	char *path, *format, *sha256;	/* owned */
	int64_t size, file_size;
	struct one_run *runs;		/* owned */
	size_t nr_runs;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

static sqlite3_stmt *prep(sqlite3 *sq, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(sq, sql, -1, &st, NULL) != SQLITE_OK)
		die(4, "bench-store: %s", sqlite3_errmsg(sq));
	return st;
}

static void load_run(sqlite3 *sq, int64_t run_id, int64_t variant_id,
		     struct one_run *r)
{
	sqlite3_stmt *st;
	size_t alloc = 0;

	st = prep(sq, "SELECT key, value FROM variant_params WHERE "
		  "variant_id = ? ORDER BY key");
	sqlite3_bind_int64(st, 1, variant_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(r->params, r->nr_params + 1, alloc);
		r->params[r->nr_params].key = col_dup(st, 0);
		r->params[r->nr_params].value = col_dup(st, 1);
		r->nr_params++;
	}
	sqlite3_finalize(st);
	alloc = 0;
	st = prep(sq, "SELECT m.name, m.unit, s.value, s.line FROM samples s "
		  "JOIN metrics m ON m.id = s.metric_id WHERE s.run_id = ? "
		  "AND s.derived IS NULL ORDER BY s.metric_id");
	sqlite3_bind_int64(st, 1, run_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct row *w;

		ALLOC_GROW(r->rows, r->nr_rows + 1, alloc);
		w = &r->rows[r->nr_rows++];
		w->metric = col_dup(st, 0);
		w->unit = col_dup(st, 1);
		w->value = sqlite3_column_double(st, 2);
		w->line = (long)sqlite3_column_int64(st, 3);
	}
	sqlite3_finalize(st);
}

static struct one_import *load(const char *path, size_t *nr)
{
	struct one_import *imps = NULL;
	size_t alloc = 0, i;
	sqlite3_stmt *st, *rs;
	sqlite3 *sq;

	if (sqlite3_open_v2(path, &sq, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die(4, "bench-store: %s: cannot open", path);
	*nr = 0;
	st = prep(sq, "SELECT id, path, format, sha256, size, "
		  "coalesce(file_size, -1) FROM imports ORDER BY id");
	rs = prep(sq, "SELECT r.id, r.variant_id, r.suite, v.testcase, "
		  "coalesce(r.start_time, 0), coalesce(r.line, 0) FROM runs r "
		  "JOIN variants v ON v.id = r.variant_id "
		  "WHERE r.import_id = ? ORDER BY r.id");
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct one_import *m;
		size_t ralloc = 0;

		ALLOC_GROW(imps, *nr + 1, alloc);
		m = &imps[(*nr)++];
		memset(m, 0, sizeof(*m));
		m->path = col_dup(st, 1);
		m->format = col_dup(st, 2);
		m->sha256 = col_dup(st, 3);
		m->size = sqlite3_column_int64(st, 4);
		m->file_size = sqlite3_column_int64(st, 5);
		sqlite3_bind_int64(rs, 1, sqlite3_column_int64(st, 0));
		while (sqlite3_step(rs) == SQLITE_ROW) {
			struct one_run *r;

			ALLOC_GROW(m->runs, m->nr_runs + 1, ralloc);
			r = &m->runs[m->nr_runs++];
			memset(r, 0, sizeof(*r));
			r->suite = col_dup(rs, 2);
			r->testcase = col_dup(rs, 3);
			r->start_time = sqlite3_column_int64(rs, 4);
			r->line = (long)sqlite3_column_int64(rs, 5);
			load_run(sq, sqlite3_column_int64(rs, 0),
				 sqlite3_column_int64(rs, 1), r);
		}
		sqlite3_reset(rs);
	}
	sqlite3_finalize(rs);
	sqlite3_finalize(st);
	sqlite3_close(sq);
	for (i = 0; i < *nr; i++)
		if (!imps[i].nr_runs)
			die(1, "bench-store: %s: an import without runs",
			    imps[i].path);
	return imps;
}

/* One pass: every import written again into dst.  Returns seconds. */
static double write_all(const struct one_import *imps, size_t nr,
			const char *dst)
{
	double t0 = now(), dt;
	struct db db;
	size_t i, j, k;

	db_remove_files(dst);
	if (db_open(&db, dst))
		die(4, "bench-store: %s: cannot open", dst);
	db_batch_start(&db, DB_BATCH_MS);
	for (i = 0; i < nr; i++) {
		const struct one_import *m = &imps[i];
		struct import_ctx ctx;

		if (db_begin(&db) ||
		    db_import_begin(&ctx, &db, m->path, m->format,
				    m->file_size, 0, NULL))
			die(4, "bench-store: %s: cannot begin", m->path);
		for (j = 0; j < m->nr_runs; j++) {
			const struct one_run *r = &m->runs[j];
			struct run_desc rd;

			memset(&rd, 0, sizeof(rd));
			rd.suite = r->suite;
			rd.testcase = r->testcase;
			rd.params = r->params;
			rd.nr_params = r->nr_params;
			rd.iteration = -1;
			rd.start_time = r->start_time;
			if (db_emit_run(&ctx, &rd, r->line))
				die(4, "bench-store: %s: a run", m->path);
			for (k = 0; k < r->nr_rows; k++)
				if (db_emit_sample(&ctx, r->rows[k].metric,
						   r->rows[k].unit,
						   r->rows[k].value,
						   r->rows[k].line))
					die(4, "bench-store: %s: a sample",
					    m->path);
		}
		if (db_end_run(&ctx) ||
		    db_import_set_hash(&ctx, m->sha256, (uint64_t)m->size) ||
		    (db_import_end(&ctx), db_commit(&db)))
			die(4, "bench-store: %s: cannot commit", m->path);
		if ((db_batch_due(&db) || i + 1 == nr) &&
		    db_batch_commit(&db))
			die(4, "bench-store: %s: cannot commit", dst);
	}
	db_close(&db);
	dt = now() - t0;
	db_remove_files(dst);
	return dt;
}

static void free_all(struct one_import *imps, size_t nr)
{
	size_t i, j, k;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < imps[i].nr_runs; j++) {
			struct one_run *r = &imps[i].runs[j];

			for (k = 0; k < r->nr_params; k++) {
				free((char *)r->params[k].key);
				free((char *)r->params[k].value);
			}
			for (k = 0; k < r->nr_rows; k++) {
				free(r->rows[k].metric);
				free(r->rows[k].unit);
			}
			free(r->params);
			free(r->rows);
			free(r->suite);
			free(r->testcase);
		}
		free(imps[i].runs);
		free(imps[i].path);
		free(imps[i].format);
		free(imps[i].sha256);
	}
	free(imps);
}

int main(int argc, char **argv)
{
	struct one_import *imps;
	size_t nr;
	double best = -1;
	int passes, p;

	if (argc != 4) {
		fprintf(stderr, "usage: bench-store N SRC DST\n");
		return 2;
	}
	passes = (int)strtol(argv[1], NULL, 10);
	imps = load(argv[2], &nr);
	for (p = 0; p < passes; p++) {
		double dt = write_all(imps, nr, argv[3]);

		if (best < 0 || dt < best)
			best = dt;
	}
	printf("%.6f\n", best);
	free_all(imps, nr);
	return 0;
}
