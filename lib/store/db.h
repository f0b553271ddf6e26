#ifndef DB_H
#define DB_H
/*
 * The database layer: opening and migrating the SQLite file, and the
 * emit API through which importers write (they never see SQL).  Every
 * statement is prepared once and bound; nothing is built with %s.
 */
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sqlite3.h>
#include "core/strmap.h"
#include "store/stmt.h"

/*
 * Entries the metric and variant caches hold at most: past it they start
 * again empty (ids are then looked up in SQLite), so that 2 million
 * distinct metric names cost lookups, not hundreds of MB.
 */
#define DB_CACHE_MAX (1u << 16)

/* The statements of an import, prepared once per open database. */
enum db_stmt {
	ST_INS_RUN, ST_INS_PARAM, ST_INS_SAMPLE, ST_INS_SAMPLES4,
	ST_INS_SAMPLES8, ST_INS_SAMPLES, ST_INS_DERIVED,
	ST_INS_SERIES, ST_INS_AGG, ST_FIND_METRIC, ST_INS_METRIC,
	ST_SET_UNIT, ST_SET_KIND, ST_NEXT_ITER, ST_FIND_VARIANT,
	ST_INS_VARIANT, ST_INS_SOURCE, ST_METRIC_INFO, ST_HAS_SAMPLE,
	ST_SET_STATE, ST_INS_POSITION, ST_INS_HIST, ST_INS_IMPORT,
	ST_FIND_HASH, ST_SET_HASH, ST_FIND_PATH, ST_RESOLVE_COMMIT, ST_MAX_METRIC, ST_PACK_LIST,
	ST_PACK_INS, ST_PACK_ROWS, ST_PACK_DEL, ST_NR,
};

/*
 * What kind of quantity a metric is, as its importer states it; decides
 * how a series reduces to one value per run and whether compare tests.
 */
enum metric_kind {
	MK_UNKNOWN = 0,	/* not stated: reduced as a gauge */
	MK_COUNTER,	/* an event count: last - first over the run */
	MK_GAUGE,	/* a level: the mean over the run */
	MK_EXACT,	/* deterministic (code size): no test needed */
};
/* "counter", "gauge", "exact" or NULL for MK_UNKNOWN. */
const char *metric_kind_name(enum metric_kind k);

struct db {
	/*
	 * The backend: a SQLite file (sq) or a PostgreSQL server (pg, when
	 * the path is a postgresql:// URI); exactly one is set while open.
	 */
	sqlite3 *sq;		/* owned */
	struct pg_conn *pg;	/* owned */
	char *path;		/* owned; for a server, the URI without its
				 * password, for messages */
	struct stmt *st[ST_NR];	/* owned; NULL until first needed */
	/* owned: BEGIN IMMEDIATE and COMMIT, parsed once (one per file) */
	struct stmt *begin_st, *commit_st;
	/* results stored in one transaction (db_batch_start()) */
	struct db_batch {
		long window_ms;		/* > 0: batching */
		int open;		/* its transaction is open */
		int in_savepoint;	/* the result now has its savepoint */
		long results;		/* results it holds, uncommitted */
		struct timespec began;	/* CLOCK_MONOTONIC at its BEGIN */
		struct stmt *savepoint_st, *release_st;	/* owned */
	} batch;
	/*
	 * metric name -> metrics.id, across the files of one command.  Ids
	 * made in a transaction that rolls back are gone: db_rollback()
	 * clears the cache.
	 */
	struct strmap metric_ids;
	/* variant identity -> variants.id, the same way */
	struct strmap variant_ids;
	/*
	 * metric id and unit -> the factor (a double's bits) from that
	 * unit to the metric's own (units.c), the same way
	 */
	struct strmap metric_units;
	/* the last metric looked up in SQLite was not there (emit-ids.c) */
	int metric_miss_new;
	/*
	 * Set by db_fail()/db_exec() when SQLite said something about the
	 * database or the machine (read-only, full, I/O error, locked): the
	 * command stops and exits 4, instead of blaming the next input.
	 */
	int env_error;
	int readonly;	/* opened read-only: not ours to write here */
};

/* SQLite's application_id of a perfsift database: "PSFT". */
#define PERFSIFT_APP_ID 0x50534654

/*
 * Open (creating if needed) the database at path, in WAL mode with a
 * busy timeout, and apply pending schema migrations.  A database that is
 * not perfsift's (see db.c check_ours()) is refused before any write.
 * Returns 0 or error(); on error db->sq is closed.
 */
int db_open(struct db *db, const char *path);
/*
 * A second connection to db's SQLite file, read-only, for a thread of
 * its own to read beside the first (compare's metrics table): 0, or -1
 * (nothing said) when db is not a SQLite file or the file cannot be
 * opened again.  Close it with db_close(), in that thread or after it.
 * Each of its statements sees the file as committed when it starts,
 * which may be later than what the first connection's reads saw.
 */
int db_open_reader(const struct db *db, struct db *out);
/*
 * SQLite's settings for the process, which must come before the library
 * initialises: db_open() makes them; a program that initialises SQLite
 * first (a test registering its own VFS) calls this before.
 */
void db_configure(void);
/* Remove a (closed) database and its -wal, -shm and -journal files. */
void db_remove_files(const char *path);
/* Call fn with the name of the database and of each companion file. */
void db_for_each_file(const char *path, void (*fn)(const char *, void *),
		      void *data);
void db_close(struct db *db);
/* Fixed SQL only (no user data); returns 0 or error(). */
int db_exec(struct db *db, const char *sql);
/* Prepare a fixed statement, or error() and return NULL. */
struct stmt *db_prepare(struct db *db, const char *sql);
/*
 * An INSERT ending "RETURNING id", for db_step_id(): on SQLite prepared
 * without the clause, the id read from the connection (RETURNING goes
 * through a temporary table there: it doubled the cost of an insert).
 */
struct stmt *db_prepare_id(struct db *db, const char *sql);
/*
 * A statement that only adds rows to table(columns) (sql: its INSERT for
 * SQLite, whose parameters are the columns in order): on a server the
 * rows go through COPY, sent before the next other statement runs.
 */
struct stmt *db_prepare_copy(struct db *db, const char *table,
			     const char *columns, const char *sql);
/*
 * One of the import's statements (enum db_stmt), prepared on first use
 * and kept with the db (emit-import.c); reset it after use, never
 * finalize.
 * NULL after error().
 */
struct stmt *db_stmt(struct db *db, enum db_stmt which);
/*
 * A result's transaction (a file, a message, a directory): all of it or
 * nothing.  Inside a batch, below, the first result of the batch begins
 * its transaction and each later one a savepoint; db_commit() then ends
 * the result, its rows kept but not yet committed, and db_rollback()
 * undoes that result alone.
 */
int db_begin(struct db *db);
int db_commit(struct db *db);
void db_rollback(struct db *db);
/*
 * Batches: the results of one command stored in fewer transactions.  A
 * commit of a small file costs more than its rows (a dozen pages written
 * to the WAL, whatever the rows); one commit for the results of
 * window_ms stores fio's 2,000 small outputs in about half the time.
 * db_batch_start(db, window_ms) begins batching (<= 0, or a server: a
 * transaction per result, as without).  After each result the caller
 * asks db_batch_due() (open for window_ms or more) and commits with
 * db_batch_commit(), only then saying the results are imported: a
 * killed process loses the batch and leaves the database as it was.
 * When the database fails inside a batch or at its commit,
 * db_batch_abort() rolls it all back and returns how many results were
 * lost with it; the caller stores them again, a transaction each, so
 * that what is kept is what a transaction per result would have kept
 * (cli/cmd-import.c).  db_batch_start(db, 0) after a commit or an
 * abort ends batching.
 */
void db_batch_start(struct db *db, long window_ms);
/* the import's window when $PERFSIFT_COMMIT_MS does not say */
#define DB_BATCH_MS 100
/* the batch's transaction is open: results are held uncommitted */
int db_batch_open(const struct db *db);
int db_batch_due(const struct db *db);
/* 0; or -1 after error(), with the batch still to abort */
int db_batch_commit(struct db *db);
long db_batch_abort(struct db *db);
/*
 * Report a failed statement (rc its result code) met while reading path
 * at line (0: no line): an environment error names the database, once,
 * and sets db->env_error; anything else is "path:line: database: ...".
 * Returns -1.
 */
int db_fail(struct db *db, int rc, const char *path, long line);
/*
 * Step a reused statement of the import that returns no row, and reset
 * it; 0, or -1 after db_fail() naming ctx->path and line.
 */
struct import_ctx;
struct emit_log;
int db_step_done(struct import_ctx *ctx, struct stmt *st, long line);
/*
 * Step an INSERT ... RETURNING id of the import and reset it: *id the new
 * row's, or 0 when the insert did nothing (ON CONFLICT DO NOTHING); 0, or
 * -1 after db_fail().
 */
int db_step_id(struct import_ctx *ctx, struct stmt *st, long line,
	       int64_t *id);
/* Bind an id, or NULL for 0 (not known). */
void db_bind_id(struct stmt *st, int i, int64_t id);
/* Error text of the last failed call, for messages. */
const char *db_errmsg(struct db *db);
/* SQLite-style code of the last failed call. */
int db_errcode(struct db *db);
/* Rows changed by the last INSERT, UPDATE or DELETE. */
int64_t db_changes(struct db *db);
/* Is path a PostgreSQL server's URI (postgresql:// or postgres://)? */
int db_is_server(const char *path);

/*
 * A blob column of one row (key = row), read in pieces: SQLite's
 * incremental blob I/O, or a server's bytea fetched whole or by ranges.
 */
struct db_blob {
	sqlite3_blob *sq;	/* owned */
	struct pg_blob *pg;	/* owned */
};
/* SQLITE_OK, or a code (no such row: SQLITE_ERROR, db_errmsg()). */
int db_blob_open(struct db *db, const char *table, const char *column,
		 const char *key, int64_t row, struct db_blob *b);
int64_t db_blob_bytes(struct db_blob *b);
/* n bytes from offset into buf: SQLITE_OK or a code. */
int db_blob_read(struct db_blob *b, void *buf, int n, int64_t offset);
void db_blob_close(struct db_blob *b);

/* A key=value pair; both borrowed. */
struct kv {
	const char *key, *value;
};

/*
 * What a file says about one run.  NULL or "" = not known; iteration < 0
 * = the next free number for this variant.  Overrides given on the
 * command line (import --kernel etc.) win over these.
 */
struct run_desc {
	const char *suite, *testcase, *machine, *kernel, *commit, *label;
	const struct kv *params;
	size_t nr_params;
	long iteration;
	int64_t start_time;	/* unix seconds; 0 = not known */
};

/* A summary row as the source printed it (see schema aggregates). */
struct agg_desc {
	const char *suite, *testcase, *machine, *kernel, *commit, *label;
	const struct kv *params;
	size_t nr_params;
	const char *metric, *unit;
	const char *stat;		/* "mean", "Amean", ... */
	double value;
	double stddev;			/* NAN: not given */
	const char *stddev_kind;	/* "sample", "population", "relative" */
	long n;				/* < 0: not known */
	const char *marker;		/* NULL: none */
	/*
	 * > 0 with stddev NAN: the source printed no spread because it was
	 * at most this many percent of the value (lkp hides "± N%" up to
	 * 2 %): kept as stddev_kind "at-most-relative", stddev_source N.
	 */
	double stddev_at_most_pct;
	/*
	 * The change the source printed for this column against its first
	 * (change_base: that column's commit or label; NULL: none), kept to
	 * be reprinted as printed.
	 */
	const char *change_source;	/* as printed: "-6.0%", "-0.0" */
	const char *change_base;
};

/* Overrides from the command line; all borrowed, NULL = not given. */
struct import_overrides {
	const char *kernel, *commit, *label, *machine, *testcase;
	const struct kv *params;
	size_t nr_params;
};

struct series_buf;
struct values_held;

/* Samples inserted by one statement (struct import_ctx, emit.c). */
#define SAMPLE_BATCH 16

/*
 * One result being imported (a file, or a directory that an importer
 * claims whole): the statements, the current run, the series being
 * collected, the counters.  Created by the import driver inside a
 * transaction.
 */
struct import_ctx {
	struct db *db;				/* borrowed */
	const char *path;			/* borrowed, for messages: the
						 * member being parsed */
	const char *part;			/* borrowed: the part of a tree
						 * being imported (an MMTests
						 * test), or NULL */
	const struct import_overrides *ovr;	/* borrowed, may be NULL */
	int64_t import_id;
	int64_t run_id;				/* current run; 0 = none */
	int64_t source_id;			/* member row; 0 = the import */
	/*
	 * > 0 while a directory importer has handed a member to another
	 * importer (import_nested()): that importer's db_emit_run() then
	 * keeps the run the directory importer made.
	 */
	int nested;
	/*
	 * 1 (the default): at the end of each run, every series of it is
	 * reduced into a derived sample (counter: last - first; otherwise
	 * the mean), unless the run has a sample of that metric already.
	 * 0: series are kept, no samples derived (lkp's stats.json is the
	 * run's own reduction and wins).
	 */
	int derive_samples;
	struct series_buf *series;		/* owned; see db.c */
	/*
	 * On a server, whose samples go through COPY and meet their
	 * primary key only when sent: the metric ids the current run has a
	 * sample of, one bit each, so that a metric given twice is refused
	 * at its line as SQLite refuses it.  seen_run is the run they are
	 * of (0: none yet); seen_new says the current run was made by
	 * db_emit_run(), not resumed (then its rows are read back).
	 */
	unsigned char *seen;			/* owned */
	size_t seen_bytes;
	int64_t seen_run;
	int seen_new;
	/* owned: the values of the runs, for their run_values (values.h) */
	struct values_held *held;
	/*
	 * SQLite: samples not inserted yet, SAMPLE_BATCH to one statement
	 * (half the cost of one statement each); they go in before
	 * anything reads samples or the run changes (emit.c).
	 */
	struct pending_sample {
		int64_t run_id, metric_id, source_id;
		long line;
		double value;
	} pend[SAMPLE_BATCH];
	int nr_pend;
	/*
	 * The variants emitted under overrides, as their inputs name them,
	 * with the row (testcase, machine, params) each lands in; owned by
	 * the driver, across all results of one command, so that overrides
	 * that would put two of them in one row are refused (emit-ids.c,
	 * check_merge()).
	 */
	char **first_variant;
	void *driver;		/* the import driver's state; not for importers */
	/*
	 * Set: the import is recorded, not written (emitlog.h), by a
	 * parser on a thread of its own; the driver replays it.
	 */
	struct emit_log *log;
	long nr_runs, nr_samples, nr_aggregates, nr_series, nr_derived;
	long nr_skipped;			/* members no importer knew */
	long nr_warnings;
	/*
	 * 1: a row that cannot be read refuses the import (--strict);
	 * 0: it is skipped with a warning (db_skip_row()).
	 */
	int strict;
	/* the tables a text parser found (db_table_begin()), owned */
	struct text_table *tables;
	size_t nr_tables, alloc_tables;
	long nr_skips;				/* rows skipped, all tables */
	/*
	 * Set with error() when the command line, not the input, is wrong
	 * (overrides that would merge variants): the driver reports the
	 * result as a usage error, exit 2, whatever the parser returned.
	 */
	int usage_error;
};

/*
 * Set up ctx for a new import row (inserted now): path, format, bytes on
 * disk (< 0: not known), is_dir for a directory result.  0 or error().
 * Until db_import_set_hash() the row's sha256 is a unique text starting
 * PENDING_HASH_PREFIX: an import still running, or one that died.
 */
#define PENDING_HASH_PREFIX "pending-"
int db_import_begin(struct import_ctx *ctx, struct db *db, const char *path,
		    const char *format, int64_t file_size, int is_dir,
		    const struct import_overrides *ovr);
/*
 * Delete an earlier import and everything it produced (runs, samples,
 * series, aggregates, members, and variants left with nothing), inside
 * the caller's transaction.  0 or -1 after error().
 */
int db_import_delete(struct db *db, int64_t import_id);
/*
 * What a mail message said about itself, kept with its import: key
 * ("message_id", "subject", "from", "date", "in_reply_to",
 * "references") = value (skipped when empty); message > 0 also records
 * the message's number in its file.  0 or -1 after error().
 */
int db_import_meta(struct import_ctx *ctx, int message, const char *key,
		   const char *value);
/* Name the import's format once its parsers are done.  0 or -1. */
int db_import_set_format(struct import_ctx *ctx, const char *format);
/*
 * Was path imported before with this file_size (bytes on disk)?  Was
 * this content (sha256_hex) imported before?  1, 0, or -1 after error().
 */
int db_imported_path(struct db *db, const char *path, int64_t file_size);
int db_imported_hash(struct db *db, const char *sha256_hex);
/* Record the content hash and size; returns 1 if that content was imported
 * before (the caller rolls back), 0 if not, -1 on error. */
int db_import_set_hash(struct import_ctx *ctx, const char *sha256_hex,
		       uint64_t size);
void db_import_end(struct import_ctx *ctx);


/*
 * Start a new run; the following samples and series belong to it.  The
 * series of the previous run are reduced first.  In a nested parse
 * (ctx->nested) with a current run, nothing is created: the directory
 * importer's run is kept.  Returns 0, or -1 after error() (with
 * ctx->usage_error set when command-line overrides would merge this
 * variant with an earlier, different one).
 */
int db_emit_run(struct import_ctx *ctx, const struct run_desc *rd, long line);
/*
 * Make an earlier run of this import (an id that db_emit_run() set in
 * ctx->run_id) current again, for formats whose rows interleave runs.
 * Ends the current run first.  0 or -1.
 */
int db_resume_run(struct import_ctx *ctx, int64_t run_id);
/*
 * Does run run_id (of this import) have a sample of metric yet?  1, 0, or
 * -1 after error().
 */
int db_run_has_metric(struct import_ctx *ctx, int64_t run_id,
		      const char *metric);
/* One value of metric in the current run.  unit may be NULL. */
int db_emit_sample(struct import_ctx *ctx, const char *metric,
		   const char *unit, double value, long line);
/*
 * One time-stamped value of metric in the current run: t in seconds
 * (epoch seconds for monitors, fractional allowed; any origin for
 * relative logs), points in the order read.  Points are collected per
 * metric in bounded chunks and written as packed blobs; the run's end
 * reduces them by kind (see derive_samples).
 */
int db_emit_series(struct import_ctx *ctx, const char *metric,
		   const char *unit, enum metric_kind kind, double t,
		   double value, long line);
/*
 * The id of a metric (made if new; its unit and kind stated as for
 * db_emit_series), for db_emit_series_id(): a parser that emits many
 * points of the same metrics looks each name up once.  0 or -1.
 */
int db_metric(struct import_ctx *ctx, const char *metric, const char *unit,
	      enum metric_kind kind, long line, int64_t *id);
/* db_emit_series() by metric id (from db_metric()). */
int db_emit_series_id(struct import_ctx *ctx, int64_t metric_id, double t,
		      double value, long line);
/*
 * A parser that emits little but series points (a monitor's file) may
 * have them written by a second thread while it parses on
 * (series_buf_async()): then it calls db_series_sync() before any other
 * db_ call, and db_series_async_end() before it returns (a series takes
 * its source and path from ctx when the writer first meets it, and the
 * next member of the run has its own).  The run must exist.  Sync and
 * end: 0, or -1 when writing failed (said).
 */
void db_series_async(struct import_ctx *ctx);
int db_series_sync(struct import_ctx *ctx);
int db_series_async_end(struct import_ctx *ctx);
/* State the kind of a metric (the first statement wins). 0 or -1. */
int db_set_kind(struct import_ctx *ctx, const char *metric,
		enum metric_kind kind, long line);
/*
 * A histogram of metric in the current run (schema 0006): n bins, each a
 * value (ascending) and a count, kept whole.  One per run and metric.
 * 0 or -1.
 */
int db_emit_histogram(struct import_ctx *ctx, const char *metric,
		      const char *unit, const double *value,
		      const double *count, size_t n, long line);
/*
 * What an importer states about a metric beyond its unit and kind.
 */
struct metric_state {
	int direction;		/* DIR_HIGHER 1, DIR_LOWER -1; 0 not stated */
	const char *summary;	/* how MMTests summarises it (schema 0005);
				 * NULL not stated */
	long position;		/* its place in the order this import
				 * reports its metrics; < 0 none */
};
/*
 * State them (made if new, with unit): direction and summary once (the
 * first statement wins), the position per import.  0 or -1.
 */
int db_metric_state(struct import_ctx *ctx, const char *metric,
		    const char *unit, const struct metric_state *ms, long line);
/*
 * End the current run: write its pending series and reduce them.  The
 * driver calls it at the end of an import; importers need not.
 */
int db_end_run(struct import_ctx *ctx);
/*
 * Insert the samples db_emit_sample() has queued (SQLite: SAMPLE_BATCH
 * to a statement).  Done by db_end_run(), db_run_has_metric() and the
 * end of the import; a caller that reads samples itself calls it first.
 * 0 or -1 after error().
 */
int db_flush_samples(struct import_ctx *ctx);
/*
 * Record a member of a directory result (path relative to the import)
 * and make it the provenance of the rows that follow.  0 or -1.
 */
int db_emit_source(struct import_ctx *ctx, const char *member_path);
/* A warning about the input: "path:line: text"; counted. */
void db_warn(struct import_ctx *ctx, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Tables read from text (pasted in mail, kept as a file): a parser
 * names each table where it starts, counts the rows it read, and names
 * each row it could not read.  They are written with the import
 * (db_tables_flush(), by the driver) into import_tables and
 * import_skips, so that `perfsift show` can say what did not come in.
 */
struct text_table {
	long line;		/* its first line */
	char kind[16];		/* "lkp", "lkp-fail", "mmtests", ... */
	char *title;		/* owned: its benchmark or heading, or NULL */
	int columns;		/* the variants it compares */
	long rows_read, rows_skipped;
};
/*
 * A new table of kind at line (title may be NULL); the rows that follow
 * are its.
 */
void db_table_begin(struct import_ctx *ctx, long line, const char *kind,
		    const char *title, int columns);
/* A row of the current table was read. */
void db_table_row(struct import_ctx *ctx);
/*
 * A row (text, as read) of the current table (or of none) that cannot be
 * read, for the reason fmt says: with ctx->strict, error("path:line:
 * reason") and -1; else a warning, the row recorded as skipped, and 0.
 */
int db_skip_row(struct import_ctx *ctx, long line, const char *text,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Write the tables and skipped rows found so far; 0 or -1 after error(). */
int db_tables_flush(struct import_ctx *ctx);
int db_emit_aggregate(struct import_ctx *ctx, const struct agg_desc *a,
		      long line);

/*
 * Canonical params text: "k=v,k=v" sorted by key, later duplicates of a
 * key win.  Used for grouping runs; returns a new string (caller frees).
 */
char *params_canonical(const struct kv *params, size_t nr);

#endif
