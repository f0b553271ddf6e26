/*
 * SQLite access: open + migrate, transactions, and the emit API that
 * importers write through (one prepared statement per table, reused).
 */
#include "core/compat.h"
#include "store/db.h"
#include "core/sbuf.h"
#include <time.h>
#include <unistd.h>

/* generated from schema/NNNN-*.sql by the Makefile (schema.c) */
extern const char *const schema_migrations[];
extern const size_t schema_nr_migrations;

#define BUSY_TIMEOUT_MS (10 * 60 * 1000)

const char *db_errmsg(struct db *db)
{
	return db->sq ? sqlite3_errmsg(db->sq) : "no database";
}

int db_exec(struct db *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db->sq, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int ret = error("%s: %s", db->path, msg ? msg : "?");

		sqlite3_free(msg);
		return ret;
	}
	return 0;
}

/*
 * db_exec() for the set-up statements of db_open(), retried while another
 * process holds a lock: switching to WAL needs an exclusive lock and
 * does not always go through the busy handler (a process that is
 * creating the same database, for one).
 */
static int db_exec_patient(struct db *db, const char *sql)
{
	long waited_ms = 0;

	for (;;) {
		int rc = sqlite3_exec(db->sq, sql, NULL, NULL, NULL);

		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			return db_exec(db, sql);	/* says why */
		if (waited_ms >= BUSY_TIMEOUT_MS)
			return error("%s: database is locked (waited %ld s)",
				     db->path, waited_ms / 1000);
		sqlite3_sleep(10);
		waited_ms += 10;
	}
}

sqlite3_stmt *db_prepare(struct db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v3(db->sq, sql, -1, SQLITE_PREPARE_PERSISTENT, &st,
			       NULL) != SQLITE_OK) {
		error("%s: cannot prepare statement: %s", db->path,
		      sqlite3_errmsg(db->sq));
		return NULL;
	}
	return st;
}

int db_begin(struct db *db)
{
	/* IMMEDIATE: take the write lock now, waiting up to the busy timeout */
	return db_exec(db, "BEGIN IMMEDIATE");
}

int db_commit(struct db *db)
{
	return db_exec(db, "COMMIT");
}

void db_rollback(struct db *db)
{
	if (!sqlite3_get_autocommit(db->sq))
		sqlite3_exec(db->sq, "ROLLBACK", NULL, NULL, NULL);
	/* metric ids made in the transaction are gone with it */
	strmap_clear(&db->metric_ids);
}

static int get_user_version(struct db *db, int *v)
{
	sqlite3_stmt *st = db_prepare(db, "PRAGMA user_version");

	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return error("%s: %s", db->path, sqlite3_errmsg(db->sq));
	}
	*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

static int migrate(struct db *db)
{
	int version;
	size_t i;

	if (get_user_version(db, &version))
		return -1;
	if (version > (int)schema_nr_migrations)
		return error("%s: database schema version %d is newer than this "
			     "perfsift understands (%zu)", db->path, version,
			     schema_nr_migrations);
	if (version == (int)schema_nr_migrations)
		return 0;
	if (db_begin(db))
		return -1;
	/* re-read under the write lock: another process may have migrated */
	if (get_user_version(db, &version))
		goto fail;
	for (i = (size_t)version; i < schema_nr_migrations; i++) {
		char pragma[64];

		if (db_exec(db, schema_migrations[i]))
			goto fail;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %zu",
			 i + 1);
		if (db_exec(db, pragma))
			goto fail;
	}
	return db_commit(db);
fail:
	db_rollback(db);
	return -1;
}

int db_open(struct db *db, const char *path)
{
	static int configured;

	/*
	 * perfsift is single-threaded: no mutexes, no memory statistics
	 * (they cost a few percent of every insert).  Must come before the
	 * library initialises.
	 */
	if (!configured) {
		sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		configured = 1;
	}
	memset(db, 0, sizeof(*db));
	db->path = xstrdup(path);
	if (sqlite3_open_v2(path, &db->sq,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				    SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		error("%s: cannot open database: %s", path,
		      db->sq ? sqlite3_errmsg(db->sq) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(db->sq, BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(db->sq, 1);
	if (db_exec_patient(db, "PRAGMA journal_mode = WAL") ||
	    db_exec(db, "PRAGMA synchronous = NORMAL") ||
	    /*
	     * Foreign keys are declared for the reader, not enforced: every
	     * row comes through db_emit_*(), which only refers to rows it
	     * made, and checking them costs ~7% of an import.  A command that
	     * deletes must delete the dependent rows itself.
	     */
	    db_exec(db, "PRAGMA temp_store = MEMORY") ||
	    db_exec(db, "PRAGMA cache_size = -32768"))
		goto fail;
	if (migrate(db))
		goto fail;
	return 0;
fail:
	db_close(db);
	return -1;
}

void db_close(struct db *db)
{
	size_t i;

	for (i = 0; i < ST_NR; i++)
		sqlite3_finalize(db->st[i]);
	strmap_clear(&db->metric_ids);
	if (db->sq)
		sqlite3_close_v2(db->sq);
	db->sq = NULL;
	free(db->path);
	db->path = NULL;
}

/* ---- params ---- */

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/*
 * Merge file params with override params (overrides win) into a sorted
 * array without duplicate keys; later duplicates win.  The array is new
 * (caller frees); strings stay borrowed.
 */
static struct kv *params_merge(const struct kv *a, size_t na,
			       const struct kv *b, size_t nb, size_t *nr_out)
{
	struct kv *all = xmalloc((na + nb + 1) * sizeof(*all));
	size_t i, n = 0, out = 0;

	for (i = 0; i < na; i++)
		all[n++] = a[i];
	for (i = 0; i < nb; i++)
		all[n++] = b[i];
	/* stable: mergesort-like via insertion, n is small */
	for (i = 1; i < n; i++) {
		struct kv t = all[i];
		size_t j = i;

		while (j > 0 && kv_cmp(&all[j - 1], &t) > 0) {
			all[j] = all[j - 1];
			j--;
		}
		all[j] = t;
	}
	for (i = 0; i < n; i++) {
		if (out && !strcmp(all[out - 1].key, all[i].key))
			all[out - 1] = all[i];	/* later wins */
		else
			all[out++] = all[i];
	}
	*nr_out = out;
	return all;
}

static void canonical_into(struct sbuf *sb, const struct kv *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sbuf_addf(sb, "%s%s=%s", i ? "," : "", p[i].key, p[i].value);
}

char *params_canonical(const struct kv *params, size_t nr)
{
	struct sbuf sb = SBUF_INIT;
	size_t n;
	struct kv *m = params_merge(params, nr, NULL, 0, &n);

	canonical_into(&sb, m, n);
	free(m);
	return sbuf_detach(&sb, NULL);
}

/* ---- import ---- */

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_text_or_empty(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

static int step_done(struct import_ctx *ctx, sqlite3_stmt *st, long line)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (line > 0)
		return error("%s:%ld: database: %s", ctx->path, line,
			     sqlite3_errmsg(ctx->db->sq));
	return error("%s: database: %s", ctx->path,
		     sqlite3_errmsg(ctx->db->sq));
}

/* The import statements, prepared on first use and kept with the db. */
static sqlite3_stmt *stmt(struct db *db, enum db_stmt which)
{
	static const char *const sql[ST_NR] = {
		[ST_INS_RUN] = "INSERT INTO runs(import_id, suite, testcase, "
			"params, machine, kernel, commit_sha, label, "
			"iteration, start_time, line) VALUES "
			"(?,?,?,?,?,?,?,?,?,?,?)",
		[ST_INS_PARAM] = "INSERT OR REPLACE INTO run_params(run_id, "
			"key, value) VALUES (?,?,?)",
		[ST_INS_SAMPLE] = "INSERT INTO samples(run_id, metric_id, "
			"value, line) VALUES (?,?,?,?)",
		[ST_INS_SERIES] = "INSERT INTO series(run_id, metric_id, t, "
			"value, line) VALUES (?,?,?,?,?)",
		[ST_INS_AGG] = "INSERT INTO aggregates(import_id, suite, "
			"testcase, params, machine, kernel, commit_sha, label, "
			"metric_id, stat, value, stddev, stddev_kind, "
			"stddev_source, n, marker, line) VALUES "
			"(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		[ST_FIND_METRIC] = "SELECT id, unit IS NULL FROM metrics "
			"WHERE name = ?",
		[ST_INS_METRIC] = "INSERT INTO metrics(name, unit) VALUES (?,?)",
		[ST_SET_UNIT] = "UPDATE metrics SET unit = ? WHERE id = ? AND "
			"unit IS NULL",
		[ST_NEXT_ITER] = "SELECT coalesce(max(iteration) + 1, 0) FROM "
			"runs WHERE label IS ? AND kernel = ? AND commit_sha "
			"IS ? AND testcase = ? AND params = ? AND machine = ?",
	};

	if (!db->st[which])
		db->st[which] = db_prepare(db, sql[which]);
	return db->st[which];
}

int db_import_begin(struct import_ctx *ctx, struct db *db, const char *path,
		    const char *format, int64_t file_size,
		    const struct import_overrides *ovr)
{
	sqlite3_stmt *st;
	char pending[64];
	size_t i;

	memset(ctx, 0, sizeof(*ctx));
	ctx->db = db;
	ctx->path = path;
	ctx->ovr = ovr;
	for (i = 0; i < ST_NR; i++)
		if (!stmt(db, i))
			return -1;

	st = db_prepare(db, "INSERT INTO imports(path, sha256, format, size, "
			    "file_size, imported_at) VALUES (?,?,?,0,?,?)");
	if (!st)
		return -1;
	/* the real hash is known only at the end; we hold the write lock */
	snprintf(pending, sizeof(pending), "pending-%ld", (long)getpid());
	sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, pending, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, format, -1, SQLITE_TRANSIENT);
	if (file_size >= 0)
		sqlite3_bind_int64(st, 4, file_size);
	else
		sqlite3_bind_null(st, 4);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)time(NULL));
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_finalize(st);
		return error("%s: database: %s", path, sqlite3_errmsg(db->sq));
	}
	sqlite3_finalize(st);
	ctx->import_id = sqlite3_last_insert_rowid(db->sq);
	return 0;
}

int db_import_set_hash(struct import_ctx *ctx, const char *sha256_hex,
		       uint64_t size)
{
	sqlite3_stmt *st;
	int found;

	st = db_prepare(ctx->db, "SELECT 1 FROM imports WHERE sha256 = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, sha256_hex, -1, SQLITE_TRANSIENT);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	if (found)
		return 1;
	st = db_prepare(ctx->db,
			"UPDATE imports SET sha256 = ?, size = ? WHERE id = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, sha256_hex, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)size);
	sqlite3_bind_int64(st, 3, ctx->import_id);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_finalize(st);
		return error("%s: database: %s", ctx->path,
			     sqlite3_errmsg(ctx->db->sq));
	}
	sqlite3_finalize(st);
	return 0;
}

void db_import_end(struct import_ctx *ctx)
{
	ctx->run_id = 0;
}

/* Pick the override if given, else what the file said. */
static const char *pick(const char *ovr, const char *file)
{
	return ovr ? ovr : file;
}

/*
 * The variant columns shared by runs and aggregates, with overrides and
 * the default label (kernel, else commit) applied.
 */
struct variant_cols {
	const char *testcase, *machine, *kernel, *commit, *label;
	char *params;		/* owned, canonical */
	char short_commit[13];	/* default label: the commit's first 12 */
	struct kv *kv;		/* owned array, borrowed strings */
	size_t nr_kv;
};

static void variant_cols_init(struct variant_cols *v, struct import_ctx *ctx,
			      const char *testcase, const char *machine,
			      const char *kernel, const char *commit,
			      const char *label, const struct kv *params,
			      size_t nr_params)
{
	const struct import_overrides *o = ctx->ovr;
	struct import_overrides none = { 0 };
	struct sbuf sb = SBUF_INIT;

	if (!o)
		o = &none;
	v->testcase = pick(o->testcase, testcase);
	v->machine = pick(o->machine, machine);
	v->kernel = pick(o->kernel, kernel);
	v->commit = pick(o->commit, commit);
	v->label = pick(o->label, label);
	if ((!v->label || !*v->label) && v->kernel && *v->kernel) {
		v->label = v->kernel;
	} else if ((!v->label || !*v->label) && v->commit && *v->commit) {
		snprintf(v->short_commit, sizeof(v->short_commit), "%s",
			 v->commit);
		v->label = v->short_commit;
	}
	v->kv = params_merge(params, nr_params, o->params, o->nr_params,
			     &v->nr_kv);
	canonical_into(&sb, v->kv, v->nr_kv);
	v->params = sbuf_detach(&sb, NULL);
}

static void variant_cols_release(struct variant_cols *v)
{
	free(v->params);
	free(v->kv);
}

static int metric_id(struct import_ctx *ctx, const char *name,
		     const char *unit, long line, int64_t *id)
{
	struct db *db = ctx->db;
	size_t len = strlen(name);
	sqlite3_stmt *st;
	int rc, unit_null = 0;

	if (strmap_get(&db->metric_ids, name, len, id))
		return 0;
	if (!len)
		return error("%s:%ld: empty metric name", ctx->path, line);
	st = db->st[ST_FIND_METRIC];
	sqlite3_bind_text(st, 1, name, (int)len, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		unit_null = sqlite3_column_int(st, 1);
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE) {
		st = db->st[ST_INS_METRIC];
		sqlite3_bind_text(st, 1, name, (int)len, SQLITE_TRANSIENT);
		bind_text_or_null(st, 2, unit);
		if (step_done(ctx, st, line))
			return -1;
		*id = sqlite3_last_insert_rowid(db->sq);
	} else if (rc != SQLITE_ROW) {
		return error("%s:%ld: database: %s", ctx->path, line,
			     sqlite3_errmsg(db->sq));
	} else if (unit_null && unit && *unit) {
		/* the first file that knows the unit gives it */
		st = db->st[ST_SET_UNIT];
		sqlite3_bind_text(st, 1, unit, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, *id);
		if (step_done(ctx, st, line))
			return -1;
	}
	strmap_put(&db->metric_ids, name, len, *id);
	return 0;
}

int db_emit_run(struct import_ctx *ctx, const struct run_desc *rd, long line)
{
	struct variant_cols v;
	sqlite3_stmt *st;
	long iteration = rd->iteration;
	size_t i;
	int ret = -1;

	variant_cols_init(&v, ctx, rd->testcase, rd->machine, rd->kernel,
			  rd->commit, rd->label, rd->params, rd->nr_params);
	if (iteration < 0) {
		st = ctx->db->st[ST_NEXT_ITER];
		bind_text_or_null(st, 1, v.label);
		bind_text_or_empty(st, 2, v.kernel);
		bind_text_or_null(st, 3, v.commit);
		bind_text_or_empty(st, 4, v.testcase);
		bind_text_or_empty(st, 5, v.params);
		bind_text_or_empty(st, 6, v.machine);
		if (sqlite3_step(st) == SQLITE_ROW)
			iteration = sqlite3_column_int(st, 0);
		sqlite3_reset(st);
		if (iteration < 0)
			iteration = 0;
	}
	st = ctx->db->st[ST_INS_RUN];
	sqlite3_bind_int64(st, 1, ctx->import_id);
	bind_text_or_empty(st, 2, rd->suite);
	bind_text_or_empty(st, 3, v.testcase);
	bind_text_or_empty(st, 4, v.params);
	bind_text_or_empty(st, 5, v.machine);
	bind_text_or_empty(st, 6, v.kernel);
	bind_text_or_null(st, 7, v.commit);
	bind_text_or_null(st, 8, v.label);
	sqlite3_bind_int64(st, 9, iteration);
	if (rd->start_time > 0)
		sqlite3_bind_int64(st, 10, rd->start_time);
	else
		sqlite3_bind_null(st, 10);
	if (line > 0)
		sqlite3_bind_int64(st, 11, line);
	else
		sqlite3_bind_null(st, 11);
	if (step_done(ctx, st, line))
		goto out;
	ctx->run_id = sqlite3_last_insert_rowid(ctx->db->sq);
	ctx->nr_runs++;
	st = ctx->db->st[ST_INS_PARAM];
	for (i = 0; i < v.nr_kv; i++) {
		sqlite3_bind_int64(st, 1, ctx->run_id);
		sqlite3_bind_text(st, 2, v.kv[i].key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, v.kv[i].value, -1, SQLITE_TRANSIENT);
		if (step_done(ctx, st, line))
			goto out;
	}
	ret = 0;
out:
	variant_cols_release(&v);
	return ret;
}

int db_emit_sample(struct import_ctx *ctx, const char *metric,
		   const char *unit, double value, long line)
{
	sqlite3_stmt *st = ctx->db->st[ST_INS_SAMPLE];
	int64_t id;
	int rc;

	if (!ctx->run_id)
		BUG("db_emit_sample() before db_emit_run()");
	if (!isfinite(value))
		return error("%s:%ld: value of '%s' is not a finite number",
			     ctx->path, line, metric);
	if (metric_id(ctx, metric, unit, line, &id))
		return -1;
	sqlite3_bind_int64(st, 1, ctx->run_id);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_double(st, 3, value);
	if (line > 0)
		sqlite3_bind_int64(st, 4, line);
	else
		sqlite3_bind_null(st, 4);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		return error("%s:%ld: metric '%s' given twice for one run",
			     ctx->path, line, metric);
	if (rc != SQLITE_DONE)
		return error("%s:%ld: database: %s", ctx->path, line,
			     sqlite3_errmsg(ctx->db->sq));
	ctx->nr_samples++;
	return 0;
}

int db_emit_series(struct import_ctx *ctx, const char *metric,
		   const char *unit, double t, double value, long line)
{
	sqlite3_stmt *st = ctx->db->st[ST_INS_SERIES];
	int64_t id;

	if (!ctx->run_id)
		BUG("db_emit_series() before db_emit_run()");
	if (!isfinite(value) || !isfinite(t))
		return error("%s:%ld: value of '%s' is not a finite number",
			     ctx->path, line, metric);
	if (metric_id(ctx, metric, unit, line, &id))
		return -1;
	sqlite3_bind_int64(st, 1, ctx->run_id);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_double(st, 3, t);
	sqlite3_bind_double(st, 4, value);
	if (line > 0)
		sqlite3_bind_int64(st, 5, line);
	else
		sqlite3_bind_null(st, 5);
	if (step_done(ctx, st, line))
		return -1;
	ctx->nr_series++;
	return 0;
}

int db_emit_aggregate(struct import_ctx *ctx, const struct agg_desc *a,
		      long line)
{
	sqlite3_stmt *st = ctx->db->st[ST_INS_AGG];
	struct variant_cols v;
	double sd = a->stddev;
	int64_t id;
	int ret = -1;

	if (!isfinite(a->value))
		return error("%s:%ld: value of '%s' is not a finite number",
			     ctx->path, line, a->metric);
	if (metric_id(ctx, a->metric, a->unit, line, &id))
		return -1;
	variant_cols_init(&v, ctx, a->testcase, a->machine, a->kernel,
			  a->commit, a->label, a->params, a->nr_params);
	sqlite3_bind_int64(st, 1, ctx->import_id);
	bind_text_or_empty(st, 2, a->suite);
	bind_text_or_empty(st, 3, v.testcase);
	bind_text_or_empty(st, 4, v.params);
	bind_text_or_empty(st, 5, v.machine);
	bind_text_or_empty(st, 6, v.kernel);
	bind_text_or_null(st, 7, v.commit);
	bind_text_or_null(st, 8, v.label);
	sqlite3_bind_int64(st, 9, id);
	sqlite3_bind_text(st, 10, a->stat, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 11, a->value);
	/* stddev is stored absolute; a relative one is converted */
	if (isfinite(sd) && a->stddev_kind &&
	    !strcmp(a->stddev_kind, "relative"))
		sqlite3_bind_double(st, 12, fabs(a->value) * sd / 100.0);
	else if (isfinite(sd))
		sqlite3_bind_double(st, 12, sd);
	else
		sqlite3_bind_null(st, 12);
	bind_text_or_null(st, 13, isfinite(sd) ? a->stddev_kind : NULL);
	if (isfinite(sd))
		sqlite3_bind_double(st, 14, sd);
	else
		sqlite3_bind_null(st, 14);
	if (a->n >= 0)
		sqlite3_bind_int64(st, 15, a->n);
	else
		sqlite3_bind_null(st, 15);
	bind_text_or_null(st, 16, a->marker);
	if (line > 0)
		sqlite3_bind_int64(st, 17, line);
	else
		sqlite3_bind_null(st, 17);
	if (step_done(ctx, st, line))
		goto out;
	ctx->nr_aggregates++;
	ret = 0;
out:
	variant_cols_release(&v);
	return ret;
}
