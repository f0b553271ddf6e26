/*
 * SQLite access: open + migrate, transactions, and the emit API that
 * importers write through (one prepared statement per table, reused).
 */
#include "core/compat.h"
#include "store/db.h"
#include "store/values.h"
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
			      sqlite3_errmsg(db->sq));
		db->env_error = 1;
		return -1;
	}
	if (line > 0)
		return error("%s:%ld: database: %s", path, line,
			     sqlite3_errmsg(db->sq));
	return error("%s: database: %s", path, sqlite3_errmsg(db->sq));
}

int db_step_done(struct import_ctx *ctx, sqlite3_stmt *st, long line)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	return db_fail(ctx->db, rc, ctx->path, line);
}

void db_bind_id(sqlite3_stmt *st, int i, int64_t id)
{
	if (id > 0)
		sqlite3_bind_int64(st, i, id);
	else
		sqlite3_bind_null(st, i);
}

int db_exec(struct db *db, const char *sql)
{
	char *msg = NULL;
	int rc = sqlite3_exec(db->sq, sql, NULL, NULL, &msg);

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

/*
 * db_exec() of a statement kept prepared in *st: an import of many small
 * files begins and commits once per file, and parsing the SQL each time
 * cost as much as a dozen sample inserts.
 */
static int db_exec_kept(struct db *db, sqlite3_stmt **st, const char *sql)
{
	int rc;

	if (!*st && !(*st = db_prepare(db, sql)))
		return -1;
	rc = sqlite3_step(*st);
	if (rc != SQLITE_DONE) {
		int ret = -1;

		if (!(env_code(rc) && db->env_error))
			ret = error("%s: %s", db->path, sqlite3_errmsg(db->sq));
		db->env_error |= env_code(rc);
		sqlite3_reset(*st);
		return ret;
	}
	sqlite3_reset(*st);
	return 0;
}

int db_begin(struct db *db)
{
	/* IMMEDIATE: take the write lock now, waiting up to the busy timeout */
	return db_exec_kept(db, &db->begin_st, "BEGIN IMMEDIATE");
}

int db_commit(struct db *db)
{
	return db_exec_kept(db, &db->commit_st, "COMMIT");
}

void db_rollback(struct db *db)
{
	if (!sqlite3_get_autocommit(db->sq))
		sqlite3_exec(db->sq, "ROLLBACK", NULL, NULL, NULL);
	/* metric and variant ids made in the transaction are gone with it */
	strmap_clear(&db->metric_ids);
	strmap_clear(&db->variant_ids);
}

/* One integer from a fixed query (a PRAGMA, a count). 0 or error(). */
static int query_int(struct db *db, const char *sql, int *v)
{
	sqlite3_stmt *st = db_prepare(db, sql);

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

int db_open(struct db *db, const char *path)
{
	static int configured;
	int stamp, readonly, rc;
	char *uri;

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
	/*
	 * A database we may not write (a read-only file, or in a directory
	 * where SQLite cannot make its -wal and -shm) is opened read-only:
	 * listing and comparing work, writing says why it cannot.
	 */
	readonly = read_only_place(path);
	if (readonly) {
		/*
		 * WAL needs a -shm file that cannot be made here: read the
		 * file as immutable (nothing can change it from here).
		 */
		uri = immutable_uri(path);
		rc = sqlite3_open_v2(uri, &db->sq, SQLITE_OPEN_READONLY |
					   SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
				     NULL);
		free(uri);
	} else {
		rc = sqlite3_open_v2(path, &db->sq, SQLITE_OPEN_READWRITE |
					   SQLITE_OPEN_CREATE |
					   SQLITE_OPEN_NOMUTEX, NULL);
	}
	if (rc != SQLITE_OK) {
		error("%s: cannot open database: %s", path,
		      db->sq ? sqlite3_errmsg(db->sq) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(db->sq, BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(db->sq, 1);
	/* before anything that writes, the journal mode included */
	if (check_ours(db, &stamp))
		goto fail;
	if (readonly) {
		int version;

		if (get_user_version(db, &version))
			goto fail;
		if (stamp || version != (int)schema_nr_migrations) {
			error("%s: the database needs an upgrade (schema "
			      "version %d of %zu), and it cannot be written "
			      "here", path, version, schema_nr_migrations);
			goto fail;
		}
		db->readonly = 1;
		return 0;
	}
	if (db_exec_patient(db, "PRAGMA journal_mode = WAL") ||
	    db_exec(db, "PRAGMA synchronous = NORMAL") ||
	    /*
	     * Foreign keys are declared for the reader, not enforced: every
	     * row comes through db_emit_*(), which only refers to rows it
	     * made, and checking them costs ~7% of an import.  A command that
	     * deletes must delete the dependent rows itself.
	     */
	    /*
	     * Sorts and temporary tables (GROUP BY over millions of samples)
	     * spill to a file past the page cache: memory stays bounded.
	     */
	    db_exec(db, "PRAGMA temp_store = FILE") ||
	    db_exec(db, "PRAGMA cache_size = -32768"))
		goto fail;
	if (migrate(db, stamp))
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

void db_close(struct db *db)
{
	size_t i;

	for (i = 0; i < ST_NR; i++)
		sqlite3_finalize(db->st[i]);
	sqlite3_finalize(db->begin_st);
	sqlite3_finalize(db->commit_st);
	db->begin_st = db->commit_st = NULL;
	strmap_clear(&db->metric_ids);
	strmap_clear(&db->variant_ids);
	if (db->sq)
		sqlite3_close_v2(db->sq);
	db->sq = NULL;
	free(db->path);
	db->path = NULL;
}

