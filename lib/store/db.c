/*
 * The database: open + migrate (a SQLite file, or a PostgreSQL server
 * named by a postgresql:// URI), transactions, statements on either
 * backend (stmt.h), and blobs read in pieces.
 */
#include "core/compat.h"
#include "store/db.h"
#include "store/values.h"
#include "core/sbuf.h"
#include "store/schema.h"
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#define BUSY_TIMEOUT_MS (10 * 60 * 1000)
/* how often db_exec_patient() tries again */
#define BUSY_POLL_MS 10
/*
 * The lock every writer of a server takes for its transaction, as SQLite's
 * BEGIN IMMEDIATE takes the file's write lock: imports and migrations
 * follow one another, readers never wait (PERFSIFT_APP_ID as the key).
 */
#define SERVER_WRITE_LOCK "SELECT pg_advisory_xact_lock(1347634772)"

const char *db_errmsg(struct db *db)
{
	if (db->pg)
		return pg_errmsg(db->pg);
	return db->sq ? sqlite3_errmsg(db->sq) : "no database";
}

int db_errcode(struct db *db)
{
	if (db->pg)
		return pg_errcode(db->pg);
	return db->sq ? sqlite3_errcode(db->sq) : SQLITE_MISUSE;
}

int64_t db_changes(struct db *db)
{
	return db->pg ? pg_changes(db->pg) : sqlite3_changes(db->sq);
}

int db_is_server(const char *path)
{
	return !strncmp(path, "postgresql://", 13) ||
	       !strncmp(path, "postgres://", 11);
}

int db_blob_open(struct db *db, const char *table, const char *column,
		 const char *key, int64_t row, struct db_blob *b)
{
	memset(b, 0, sizeof(*b));
	if (db->pg)
		return pg_blob_open(db->pg, table, column, key, row, &b->pg);
	/* SQLite finds a blob by rowid: key is the INTEGER PRIMARY KEY */
	return sqlite3_blob_open(db->sq, "main", table, column, row, 0, &b->sq);
}

int64_t db_blob_bytes(struct db_blob *b)
{
	return b->pg ? pg_blob_bytes(b->pg) : sqlite3_blob_bytes(b->sq);
}

int db_blob_read(struct db_blob *b, void *buf, int n, int64_t offset)
{
	if (b->pg)
		return pg_blob_read(b->pg, buf, n, offset);
	return sqlite3_blob_read(b->sq, buf, n, (int)offset);
}

void db_blob_close(struct db_blob *b)
{
	if (b->pg)
		pg_blob_close(b->pg);
	else if (b->sq)
		sqlite3_blob_close(b->sq);
	b->pg = NULL;
	b->sq = NULL;
}

/*
 * The result codes that say something about the database or the machine
 * (a read-only file, a full disk, an I/O error, a lock held too long),
 * not about the input being imported.
 */
static int env_code(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_READONLY: case SQLITE_IOERR: case SQLITE_FULL:
	case SQLITE_CANTOPEN: case SQLITE_CORRUPT: case SQLITE_NOTADB:
	case SQLITE_PERM: case SQLITE_NOLFS: case SQLITE_BUSY:
	case SQLITE_LOCKED: case SQLITE_NOMEM: case SQLITE_AUTH:
	case SQLITE_PROTOCOL:
		return 1;
	}
	return 0;
}

int db_fail(struct db *db, int rc, const char *path, long line)
{
	if (env_code(rc)) {
		/* said once, naming the database: the command stops */
		if (!db->env_error)
			error("%s: database: %s", db->path,
			      db_errmsg(db));
		db->env_error = 1;
		return -1;
	}
	if (line > 0)
		return error("%s:%ld: database: %s", path, line,
			     db_errmsg(db));
	return error("%s: database: %s", path, db_errmsg(db));
}

int db_step_done(struct import_ctx *ctx, struct stmt *st, long line)
{
	int rc = stmt_step(st);

	stmt_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	return db_fail(ctx->db, rc, ctx->path, line);
}

int db_step_id(struct import_ctx *ctx, struct stmt *st, long line,
	       int64_t *id)
{
	int rc = stmt_step(st);

	if (st->rowid)
		/* nothing inserted (ON CONFLICT DO NOTHING): no row, as
		 * RETURNING would have said */
		*id = rc == SQLITE_DONE && sqlite3_changes(ctx->db->sq) ?
		      sqlite3_last_insert_rowid(ctx->db->sq) : 0;
	else
		*id = rc == SQLITE_ROW ? stmt_column_int64(st, 0) : 0;
	stmt_reset(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return 0;
	return db_fail(ctx->db, rc, ctx->path, line);
}

void db_bind_id(struct stmt *st, int i, int64_t id)
{
	if (id > 0)
		stmt_bind_int64(st, i, id);
	else
		stmt_bind_null(st, i);
}

int db_exec(struct db *db, const char *sql)
{
	char *msg = NULL;
	int rc;

	if (db->pg) {
		rc = pg_exec(db->pg, sql);
		if (rc == SQLITE_OK)
			return 0;
		if (!(env_code(rc) && db->env_error))
			error("%s: %s", db->path, pg_errmsg(db->pg));
		db->env_error |= env_code(rc);
		return -1;
	}
	rc = sqlite3_exec(db->sq, sql, NULL, NULL, &msg);

	if (rc != SQLITE_OK) {
		int ret;

		if (env_code(rc) && db->env_error)
			ret = -1;
		else
			ret = error("%s: %s", db->path, msg ? msg : "?");
		db->env_error |= env_code(rc);
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
		sqlite3_sleep(BUSY_POLL_MS);
		waited_ms += BUSY_POLL_MS;
	}
}

struct stmt *db_prepare(struct db *db, const char *sql)
{
	struct stmt *st = xcalloc(1, sizeof(*st));
	int ok;

	if (db->pg)
		ok = !!(st->pg = pg_prepare(db->pg, sql));
	else
		ok = sqlite3_prepare_v3(db->sq, sql, -1,
					SQLITE_PREPARE_PERSISTENT, &st->sq,
					NULL) == SQLITE_OK;
	if (!ok) {
		int rc = db_errcode(db);

		free(st);
		if (env_code(rc)) {
			/* a lost connection, not a wrong statement */
			db_fail(db, rc, db->path, 0);
			return NULL;
		}
		error("%s: cannot prepare statement: %s", db->path,
		      db_errmsg(db));
		return NULL;
	}
	return st;
}

struct stmt *db_prepare_id(struct db *db, const char *sql)
{
	static const char tail[] = " RETURNING id";
	size_t n = strlen(sql), k = sizeof(tail) - 1;
	struct stmt *st;
	char *plain;

	if (db->pg || n < k || strcmp(sql + n - k, tail))
		return db_prepare(db, sql);
	plain = xstrndup(sql, n - k);
	st = db_prepare(db, plain);
	free(plain);
	if (st)
		st->rowid = 1;
	return st;
}

struct stmt *db_prepare_copy(struct db *db, const char *table,
			     const char *columns, const char *sql)
{
	struct stmt *st;

	if (!db->pg)
		return db_prepare(db, sql);
	st = xcalloc(1, sizeof(*st));
	if (!(st->pg = pg_prepare_copy(db->pg, table, columns))) {
		free(st);
		error("%s: cannot prepare COPY: %s", db->path, db_errmsg(db));
		return NULL;
	}
	return st;
}

/*
 * db_exec() of a statement kept prepared in *st: an import of many small
 * files begins and commits once per file, and parsing the SQL each time
 * cost as much as a dozen sample inserts.
 */
static int db_exec_kept(struct db *db, struct stmt **st, const char *sql)
{
	int rc;

	if (!*st && !(*st = db_prepare(db, sql)))
		return -1;
	rc = stmt_step(*st);
	if (rc != SQLITE_DONE) {
		int ret = -1;

		if (!(env_code(rc) && db->env_error))
			ret = error("%s: %s", db->path, db_errmsg(db));
		db->env_error |= env_code(rc);
		stmt_reset(*st);
		return ret;
	}
	stmt_reset(*st);
	return 0;
}

int db_begin(struct db *db)
{
	struct db_batch *b = &db->batch;

	if (db->pg) {
		/* the write lock of every writer; see SERVER_WRITE_LOCK */
		if (db_exec(db, "BEGIN") || db_exec(db, SERVER_WRITE_LOCK))
			return -1;
		return 0;
	}
	if (b->open) {
		/* a later result of the batch: undone alone by ROLLBACK TO */
		if (db_exec_kept(db, &b->savepoint_st, "SAVEPOINT result"))
			return -1;
		b->in_savepoint = 1;
		return 0;
	}
	/* IMMEDIATE: take the write lock now, waiting up to the busy timeout */
	if (db_exec_kept(db, &db->begin_st, "BEGIN IMMEDIATE"))
		return -1;
	if (b->window_ms > 0) {
		/*
		 * The batch's first result needs no savepoint: its failure
		 * rolls back the whole, which holds nothing else.  (A large
		 * file, alone in its batch, pays no savepoint journal.)
		 */
		b->open = 1;	/* results and in_savepoint are 0 */
		clock_gettime(CLOCK_MONOTONIC, &b->began);
	}
	return 0;
}

int db_commit(struct db *db)
{
	struct db_batch *b = &db->batch;

	if (db->pg)
		return db_exec(db, "COMMIT");
	if (!b->open)
		return db_exec_kept(db, &db->commit_st, "COMMIT");
	if (sqlite3_get_autocommit(db->sq)) {
		/* SQLite rolled the whole back on an error met on the way */
		db->env_error = 1;
		return error("%s: the transaction was rolled back", db->path);
	}
	if (b->in_savepoint) {
		if (db_exec_kept(db, &b->release_st, "RELEASE result"))
			return -1;
		b->in_savepoint = 0;
	}
	b->results++;
	return 0;
}

/* Ids made in a transaction or savepoint rolled back are gone with it. */
static void forget_ids(struct db *db)
{
	strmap_clear(&db->metric_ids);
	strmap_clear(&db->variant_ids);
	strmap_clear(&db->metric_units);
}

void db_rollback(struct db *db)
{
	struct db_batch *b = &db->batch;

	if (db->pg) {
		if (pg_in_transaction(db->pg))
			pg_exec(db->pg, "ROLLBACK");
	} else if (!b->open) {
		if (!sqlite3_get_autocommit(db->sq))
			sqlite3_exec(db->sq, "ROLLBACK", NULL, NULL, NULL);
	} else if (sqlite3_get_autocommit(db->sq)) {
		/*
		 * SQLite rolled the whole batch back on an error (a full
		 * disk, say): the database's failure, whoever met it; the
		 * results it held are for db_batch_abort()
		 */
		if (b->results)
			db->env_error = 1;
		else
			b->open = 0;
	} else if (b->in_savepoint) {
		/* this result alone; the batch's earlier ones stay */
		sqlite3_exec(db->sq, "ROLLBACK TO result; RELEASE result",
			     NULL, NULL, NULL);
	} else if (!b->results) {
		/* the batch's first result: the batch holds nothing else */
		sqlite3_exec(db->sq, "ROLLBACK", NULL, NULL, NULL);
		b->open = 0;
	}
	/* else no result is open in the batch: nothing to undo */
	b->in_savepoint = 0;
	forget_ids(db);
}

void db_batch_start(struct db *db, long window_ms)
{
	if (db->batch.open)
		BUG("a batch started over an open one");
	db->batch.window_ms = db->pg ? 0 : window_ms;
}

int db_batch_open(const struct db *db)
{
	return db->batch.open;
}

int db_batch_due(const struct db *db)
{
	const struct db_batch *b = &db->batch;
	struct timespec now;

	if (!b->open)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - b->began.tv_sec) * 1000 +
	       (now.tv_nsec - b->began.tv_nsec) / 1000000 >= b->window_ms;
}

int db_batch_commit(struct db *db)
{
	struct db_batch *b = &db->batch;

	if (!b->open)
		return 0;
	if (b->in_savepoint)
		BUG("a batch committed inside a result");
	if (db_exec_kept(db, &db->commit_st, "COMMIT"))
		return -1;
	b->open = 0;
	b->results = 0;
	return 0;
}

long db_batch_abort(struct db *db)
{
	struct db_batch *b = &db->batch;
	long lost = b->results;	/* 0 outside a batch */

	if (db->sq && !sqlite3_get_autocommit(db->sq))
		sqlite3_exec(db->sq, "ROLLBACK", NULL, NULL, NULL);
	b->open = b->in_savepoint = 0;
	b->results = 0;
	forget_ids(db);
	return lost;
}

/* One integer from a fixed query (a PRAGMA, a count). 0 or error(). */
static int query_int(struct db *db, const char *sql, int *v)
{
	struct stmt *st = db_prepare(db, sql);

	if (!st)
		return -1;
	if (stmt_step(st) != SQLITE_ROW) {
		stmt_finalize(st);
		return error("%s: %s", db->path, db_errmsg(db));
	}
	*v = stmt_column_int(st, 0);
	stmt_finalize(st);
	return 0;
}

static int get_user_version(struct db *db, int *v)
{
	return query_int(db, "PRAGMA user_version", v);
}

/*
 * Is this database perfsift's?  Only if it says so: SQLite's
 * application_id in the header is PERFSIFT_APP_ID.  Two more cases are
 * ours too: an empty database (a new file: we create it), and one that a
 * perfsift from before the id wrote (id 0, a schema version we know, our
 * tables) — both get the id stamped by migrate().  Anything else belongs
 * to another program and is refused before a single write: no tables
 * added, no journal mode changed.  Sets *stamp when the id must be
 * written.  0, or -1 after error().
 */
static int check_ours(struct db *db, int *stamp)
{
	int app, version, objects, tables;

	*stamp = 0;
	if (query_int(db, "PRAGMA application_id", &app) ||
	    query_int(db, "PRAGMA user_version", &version) ||
	    query_int(db, "SELECT count(*) FROM sqlite_master", &objects) ||
	    query_int(db, "SELECT count(*) FROM sqlite_master WHERE type = "
			  "'table' AND name IN ('imports', 'runs', 'metrics', "
			  "'samples')", &tables))
		return -1;
	if (app == PERFSIFT_APP_ID)
		return 0;
	if (app == 0 && version == 0 && objects == 0) {
		*stamp = 1;
		return 0;
	}
	if (app == 0 && version >= 1 &&
	    version <= (int)schema_nr_migrations && tables == 4) {
		*stamp = 1;
		return 0;
	}
	return error("%s: not a perfsift database (application_id %#x, "
		     "user_version %d, %d schema objects): refusing to touch "
		     "it; name another file with --db", db->path,
		     (unsigned)app, version, objects);
}

static int migrate(struct db *db, int stamp)
{
	int version;
	size_t i;

	if (get_user_version(db, &version))
		return -1;
	if (version > (int)schema_nr_migrations)
		return error("%s: database schema version %d is newer than this "
			     "perfsift understands (%zu)", db->path, version,
			     schema_nr_migrations);
	if (version == (int)schema_nr_migrations && !stamp)
		return 0;
	if (db_begin(db))
		return -1;
	if (stamp) {
		char pragma[64];

		snprintf(pragma, sizeof(pragma), "PRAGMA application_id = %d",
			 PERFSIFT_APP_ID);
		if (db_exec(db, pragma))
			goto fail;
	}
	/* re-read under the write lock: another process may have migrated */
	if (get_user_version(db, &version))
		goto fail;
	for (i = (size_t)version; i < schema_nr_migrations; i++) {
		char pragma[64];

		if (db_exec(db, schema_migrations[i]))
			goto fail;
		/* 0007 made run_values: fill it as an import would */
		if (i + 1 == 7 && db_pack_runs(db, -1))
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

/* ---- a PostgreSQL server (schema/README.md) ---- */

/*
 * One integer from a query that returns at most one row: *v, or *v = -1
 * when it returns none.  0 or error().
 */
static int query_int_or_none(struct db *db, const char *sql, int *v)
{
	struct stmt *st = db_prepare(db, sql);
	int rc;

	if (!st)
		return -1;
	rc = stmt_step(st);
	*v = rc == SQLITE_ROW ? stmt_column_int(st, 0) : -1;
	stmt_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, rc, db->path, 0);
	return 0;
}

/*
 * The server's version of the schema: *version 0 for an empty database
 * (no tables: ours to create), else perfsift_meta's; a database with
 * tables and no perfsift_meta, or another application_id, is refused
 * before any write.  0 or -1 after error().
 */
static int server_version(struct db *db, int *version)
{
	int tables, meta, app;

	if (query_int_or_none(db, "SELECT count(*) FROM pg_catalog.pg_tables "
			      "WHERE schemaname = current_schema()", &tables) ||
	    query_int_or_none(db, "SELECT count(*) FROM pg_catalog.pg_tables "
			      "WHERE schemaname = current_schema() AND "
			      "tablename = 'perfsift_meta'", &meta))
		return -1;
	*version = 0;
	if (!meta) {
		if (!tables)
			return 0;
		return error("%s: not a perfsift database (%d tables, no "
			     "perfsift_meta): refusing to touch it; name "
			     "another database", db->path, tables);
	}
	if (query_int_or_none(db, "SELECT application_id FROM perfsift_meta",
			      &app) ||
	    query_int_or_none(db, "SELECT schema_version FROM perfsift_meta",
			      version))
		return -1;
	if (app != PERFSIFT_APP_ID)
		return error("%s: not a perfsift database (application_id "
			     "%#x): refusing to touch it; name another "
			     "database", db->path, (unsigned)app);
	return 0;
}

static int migrate_server(struct db *db)
{
	int version, last = schema_pg_steps[schema_pg_nr_steps - 1].version;
	size_t i;

	if (server_version(db, &version))
		return -1;
	if (version > last)
		return error("%s: database schema version %d is newer than this "
			     "perfsift understands (%d)", db->path, version,
			     last);
	if (version == last)
		return 0;
	if (db_begin(db))
		return -1;
	/* re-read under the lock: another process may have migrated */
	if (server_version(db, &version))
		goto fail;
	for (i = 0; i < schema_pg_nr_steps; i++) {
		int to = schema_pg_steps[i].version;

		if (to <= version)
			continue;
		if (db_exec(db, schema_pg_steps[i].sql))
			goto fail;
		/* 0007 made run_values: fill it from an older database's rows */
		if (to == 7 && version && db_pack_runs(db, -1))
			goto fail;
	}
	return db_commit(db);
fail:
	db_rollback(db);
	return -1;
}

/*
 * A URI that carries a password is refused (it would be on the command
 * line, in `ps` and in shell histories): libpq reads it from ~/.pgpass,
 * PGPASSFILE or PGPASSWORD.
 */
static int check_uri(const char *uri)
{
	const char *at = strchr(uri, '@'), *rest = strstr(uri, "://") + 3;
	const char *q = strchr(uri, '?');

	if ((at && (!q || at < q) && memchr(rest, ':', (size_t)(at - rest))) ||
	    (q && (strstr(q, "password=") == q + 1 ||
		   strstr(q, "&password="))))
		return error("postgresql://...: a password in the URI is "
			     "refused: put it in ~/.pgpass (or PGPASSFILE), or "
			     "PGPASSWORD");
	return 0;
}

static int open_server(struct db *db, const char *uri)
{
	char *why = NULL;

	memset(db, 0, sizeof(*db));
	if (check_uri(uri))
		return -1;
	db->path = xstrdup(uri);
	db->pg = pg_connect(uri, &why);
	if (!db->pg) {
		error("%s: cannot connect: %s", uri, why ? why : "?");
		free(why);
		db->env_error = 1;
		goto fail;
	}
	if (migrate_server(db))
		goto fail;
	return 0;
fail:
	db_close(db);
	return -1;
}

/*
 * Can this process not write the database at path, or not create files
 * beside it?  Only for a file that exists: a new one is created as usual
 * (and fails as usual where it cannot be).
 */
static int read_only_place(const char *path)
{
	char *dir, *slash;
	int ro;

	if (access(path, F_OK))
		return 0;
	if (access(path, W_OK))
		return 1;
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	ro = access(slash ? dir : ".", W_OK) != 0;
	free(dir);
	return ro;
}

/* "file:PATH?immutable=1", PATH %-escaped where a URI needs it. */
static char *immutable_uri(const char *path)
{
	struct sbuf sb = SBUF_INIT;
	const unsigned char *p;

	sbuf_addstr(&sb, "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p < 0x20 ||
		    *p >= 0x7f)
			sbuf_addf(&sb, "%%%02X", *p);
		else
			sbuf_addch(&sb, (char)*p);
	}
	sbuf_addstr(&sb, "?immutable=1");
	return sbuf_detach(&sb, NULL);
}

/*
 * A savepoint's journal (a result inside a batch, db_begin()) stays in
 * memory up to this many bytes before it spills to a file: at SQLite's
 * 64 KiB every small fio output of a batch wrote pages to a temporary
 * file.  Not more: SQLite keeps that journal in one piece of this size
 * and, when it spills, writes the piece in one call, which its unix VFS
 * cuts to 17 bits (os_unix.c's seekAndWriteFd(): nBuf &= 0x1ffff): a
 * piece of 128 KiB or more is cut short, and the import fails with
 * "database or disk is full" (t1330: a result whose savepoint journals
 * more than 64 pages).
 */
#define STMT_JOURNAL_SPILL (120 << 10)

/*
 * Each connection belongs to one thread at a time (SQLITE_OPEN_NOMUTEX:
 * no mutex a call), but a reader thread may have a connection of its
 * own (db_open_reader()), so SQLite's own shared state (the files'
 * locks, the WAL index) keeps its mutexes: SQLITE_CONFIG_MULTITHREAD,
 * which costs an import nothing measurable against SINGLETHREAD
 * (docs/performance.md).  No memory statistics: they cost a few percent
 * of every insert.
 */
void db_configure(void)
{
	static int configured;

	if (configured)
		return;
	sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, STMT_JOURNAL_SPILL);
	configured = 1;
}

/*
 * The connection *sq to the file at path, with flags, one thread's at a
 * time (NOMUTEX), a busy timeout and extended result codes; immutable:
 * a place we may not write, where WAL cannot make its -shm file, so the
 * file is read as immutable (nothing can change it from here).  SQLite's
 * code; *sq may be set on failure (its message), or NULL (no memory).
 */
static int open_file(sqlite3 **sq, const char *path, int immutable,
		     int flags)
{
	char *uri = immutable ? immutable_uri(path) : NULL;
	int rc;

	rc = sqlite3_open_v2(uri ? uri : path, sq, flags | SQLITE_OPEN_NOMUTEX |
			     (uri ? SQLITE_OPEN_URI : 0), NULL);
	free(uri);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(*sq, BUSY_TIMEOUT_MS);
		sqlite3_extended_result_codes(*sq, 1);
	}
	return rc;
}

/*
 * A database opened read-only is used as it is: one that needs a
 * migration (stamp, or an older schema) cannot be.  0 or -1 after
 * error().
 */
static int check_current(struct db *db, int stamp)
{
	int version;

	if (get_user_version(db, &version))
		return -1;
	if (stamp || version != (int)schema_nr_migrations)
		return error("%s: the database needs an upgrade (schema "
			     "version %d of %zu), and it cannot be written "
			     "here", db->path, version, schema_nr_migrations);
	return 0;
}

/*
 * The page cache of a connection that writes, as cache_size takes it
 * (-N: N KiB, so 24 MiB): an import of 1 GB stays under 64 MiB of
 * memory with it, and a larger cache buys an import no time
 * (docs/performance.md).
 */
#define WRITE_CACHE_SIZE "-24576"

/* The settings of a connection that writes.  0 or -1 after error(). */
static int set_pragmas(struct db *db)
{
	/*
	 * Foreign keys are declared for the reader, not enforced: every row
	 * comes through db_emit_*(), which only refers to rows it made, and
	 * checking them costs two index lookups a sample.  A command that
	 * deletes must delete the dependent rows itself.
	 *
	 * Sorts and temporary tables (GROUP BY over millions of samples)
	 * spill to a file past the page cache: memory stays bounded.
	 */
	if (db_exec_patient(db, "PRAGMA journal_mode = WAL") ||
	    db_exec(db, "PRAGMA synchronous = NORMAL") ||
	    db_exec(db, "PRAGMA temp_store = FILE") ||
	    db_exec(db, "PRAGMA cache_size = " WRITE_CACHE_SIZE))
		return -1;
	return 0;
}

int db_open(struct db *db, const char *path)
{
	struct stat st;
	int stamp, readonly, rc;

	if (db_is_server(path))
		return open_server(db, path);
	db_configure();
	memset(db, 0, sizeof(*db));
	db->path = xstrdup(path);
	/*
	 * A device, FIFO or directory is no database: SQLite would make
	 * /dev/null-journal beside /dev/null (as root), or block on a FIFO.
	 */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		error("%s: not a database file: a %s", path,
		      S_ISDIR(st.st_mode) ? "directory" :
		      S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device" :
		      S_ISFIFO(st.st_mode) ? "FIFO" : "special file");
		goto fail;
	}
	/*
	 * A database we may not write (a read-only file, or in a directory
	 * where SQLite cannot make its -wal and -shm) is opened read-only:
	 * listing and comparing work, writing says why it cannot.
	 */
	readonly = read_only_place(path);
	rc = open_file(&db->sq, path, readonly, readonly ? SQLITE_OPEN_READONLY :
		       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
	if (rc != SQLITE_OK) {
		error("%s: cannot open database: %s", path,
		      db->sq ? db_errmsg(db) : "out of memory");
		goto fail;
	}
	/* before anything that writes, the journal mode included */
	if (check_ours(db, &stamp))
		goto fail;
	if (readonly) {
		if (check_current(db, stamp))
			goto fail;
		db->readonly = 1;
		return 0;
	}
	if (set_pragmas(db) || migrate(db, stamp))
		goto fail;
	return 0;
fail:
	db_close(db);
	return -1;
}

/* The files of a database: itself and SQLite's companions. */
static const char *const db_file_suffix[] = { "", "-wal", "-shm", "-journal" };

void db_for_each_file(const char *path, void (*fn)(const char *, void *),
		      void *data)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(db_file_suffix); i++) {
		char *p = xstrfmt("%s%s", path, db_file_suffix[i]);

		fn(p, data);
		free(p);
	}
}

static void unlink_fn(const char *path, void *data UNUSED)
{
	unlink(path);
}

void db_remove_files(const char *path)
{
	db_for_each_file(path, unlink_fn, NULL);
}

int db_open_reader(const struct db *db, struct db *out)
{
	memset(out, 0, sizeof(*out));
	if (!db->sq)
		return -1;
	/* as db_open() opened it: a file we may not write, immutable */
	if (open_file(&out->sq, db->path, db->readonly,
		      SQLITE_OPEN_READONLY) != SQLITE_OK) {
		sqlite3_close_v2(out->sq);
		out->sq = NULL;
		return -1;
	}
	out->path = xstrdup(db->path);
	out->readonly = 1;
	return 0;
}

void db_close(struct db *db)
{
	size_t i;

	for (i = 0; i < ST_NR; i++)
		stmt_finalize(db->st[i]);
	stmt_finalize(db->begin_st);
	stmt_finalize(db->commit_st);
	db->begin_st = db->commit_st = NULL;
	stmt_finalize(db->batch.savepoint_st);
	stmt_finalize(db->batch.release_st);
	memset(&db->batch, 0, sizeof(db->batch));
	strmap_clear(&db->metric_ids);
	strmap_clear(&db->variant_ids);
	strmap_clear(&db->metric_units);
	if (db->sq)
		sqlite3_close_v2(db->sq);
	db->sq = NULL;
	if (db->pg)
		pg_close(db->pg);
	db->pg = NULL;
	free(db->path);
	db->path = NULL;
}

