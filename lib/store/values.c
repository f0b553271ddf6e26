/*
 * run_values: the packed copy of each run's samples (values.h).
 *
 * A run's blob is written in place through SQLite's incremental blob
 * I/O: a zeroblob of the run's size first, then its samples, read in
 * primary-key (metric id) order, in pieces of PACK_BUF bytes.  Memory
 * stays that piece whatever the size of the run.
 */
#include "core/compat.h"
#include "store/values.h"
#include "core/err.h"

#define PACK_BUF (RUN_VALUE_SIZE * 4096)

static int fail(struct db *db)
{
	return db_fail(db, db_errcode(db), db->path, 0);
}

/* The entry of the current row of rows (metric_id, value, derived) at p. */
static void put_entry(unsigned char *p, struct stmt *rows)
{
	uint32_t word = (uint32_t)stmt_column_int64(rows, 0);

	if (stmt_column_int(rows, 2))
		word |= RUN_VALUE_DERIVED;
	le_put_u32(p, word);
	le_put_double(p + 4, stmt_column_double(rows, 1));
}

/*
 * On a server: the run's blob made in memory and sent as one bytea
 * parameter (at most RUN_VALUES_MAX_SERVER samples, 48 MB).
 */
static int pack_run_server(struct db *db, int64_t run, int64_t n,
			   struct stmt *ins, struct stmt *rows)
{
	unsigned char *blob = xmalloc((size_t)n * RUN_VALUE_SIZE);
	int64_t i = 0;
	int rc;

	stmt_bind_int64(rows, 1, run);
	while ((rc = stmt_step(rows)) == SQLITE_ROW) {
		if (i >= n)
			BUG("run %" PRId64 " has more samples than counted", run);
		put_entry(blob + i++ * RUN_VALUE_SIZE, rows);
	}
	stmt_reset(rows);
	if (rc != SQLITE_DONE) {
		free(blob);
		return fail(db);
	}
	if (i != n)
		BUG("run %" PRId64 ": %" PRId64 " samples packed of %" PRId64,
		    run, i, n);
	stmt_bind_int64(ins, 1, run);
	stmt_bind_int64(ins, 2, n);
	stmt_bind_blob(ins, 3, blob, (int)(n * RUN_VALUE_SIZE),
		       SQLITE_STATIC);
	rc = stmt_step(ins);
	stmt_reset(ins);
	free(blob);
	return rc == SQLITE_DONE ? 0 : fail(db);
}

/*
 * Pack one run of n samples (n > 0) from rows, through buf (PACK_BUF
 * bytes, the caller's: one for every run of an import).
 */
static int pack_run(struct db *db, int64_t run, int64_t n,
		    struct stmt *ins, struct stmt *rows, unsigned char *buf)
{
	sqlite3_blob *blob = NULL;
	size_t used = 0;
	int64_t written = 0;
	int rc, ret = -1;

	stmt_bind_int64(ins, 1, run);
	stmt_bind_int64(ins, 2, n);
	sqlite3_bind_zeroblob64(ins->sq, 3, (sqlite3_uint64)n * RUN_VALUE_SIZE);
	rc = stmt_step(ins);
	stmt_reset(ins);
	if (rc != SQLITE_DONE)
		return fail(db);
	if (sqlite3_blob_open(db->sq, "main", "run_values", "data", run, 1,
			      &blob) != SQLITE_OK)
		return fail(db);
	stmt_bind_int64(rows, 1, run);
	while ((rc = stmt_step(rows)) == SQLITE_ROW) {
		if (written + (int64_t)(used / RUN_VALUE_SIZE) >= n)
			BUG("run %" PRId64 " has more samples than counted", run);
		put_entry(buf + used, rows);
		used += RUN_VALUE_SIZE;
		if (used == PACK_BUF) {
			if (sqlite3_blob_write(blob, buf, (int)used,
					       (int)(written * RUN_VALUE_SIZE)))
				goto fail_db;
			written += (int64_t)(used / RUN_VALUE_SIZE);
			used = 0;
		}
	}
	if (rc != SQLITE_DONE)
		goto fail_db;
	if (used && sqlite3_blob_write(blob, buf, (int)used,
				       (int)(written * RUN_VALUE_SIZE)))
		goto fail_db;
	written += (int64_t)(used / RUN_VALUE_SIZE);
	if (written != n)
		BUG("run %" PRId64 ": %" PRId64 " samples packed of %" PRId64,
		    run, written, n);
	ret = 0;
	goto out;
fail_db:
	ret = fail(db);
out:
	stmt_reset(rows);
	sqlite3_blob_close(blob);
	return ret;
}

int db_pack_runs(struct db *db, int64_t import_id)
{
	struct stmt *runs, *ins, *rows, *st;
	unsigned char *buf = NULL;
	int64_t max_id = 0;
	int rc, ret = -1;

	/* ids past 31 bits cannot be packed: every run reads its rows */
	st = db_stmt(db, ST_MAX_METRIC);
	if (!st)
		return -1;
	if (stmt_step(st) == SQLITE_ROW)
		max_id = stmt_column_int64(st, 0);
	stmt_reset(st);
	if (max_id >= (int64_t)RUN_VALUE_DERIVED)
		return 0;
	/* an import's: the statements kept with the db; every run: once */
	runs = import_id < 0 ? db_prepare(db, "SELECT r.id, (SELECT "
					  "count(*) FROM samples s WHERE "
					  "s.run_id = r.id) FROM runs r") :
			       db_stmt(db, ST_PACK_LIST);
	ins = db_stmt(db, ST_PACK_INS);
	rows = db_stmt(db, ST_PACK_ROWS);
	if (!runs || !ins || !rows)
		goto out;
	if (import_id >= 0)
		stmt_bind_int64(runs, 1, import_id);
	buf = xmalloc(PACK_BUF);
	while ((rc = stmt_step(runs)) == SQLITE_ROW) {
		int64_t n = stmt_column_int64(runs, 1);

		/*
		 * a blob past SQLite's 10^9 bytes, or one a server would
		 * get in one piece past 48 MB: the run keeps its rows
		 */
		if (n <= 0 || n > (db->pg ? RUN_VALUES_MAX_SERVER :
				   RUN_VALUES_MAX))
			continue;
		if (db->pg ? pack_run_server(db, stmt_column_int64(runs, 0),
					     n, ins, rows) :
			     pack_run(db, stmt_column_int64(runs, 0), n, ins,
				      rows, buf))
			goto out;
	}
	if (rc != SQLITE_DONE) {
		fail(db);
		goto out;
	}
	ret = 0;
out:
	free(buf);
	if (import_id < 0)
		stmt_finalize(runs);
	else if (runs)
		stmt_reset(runs);
	return ret;
}
