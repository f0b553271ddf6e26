#ifndef DB_H
#define DB_H
/*
 * The database layer: opening and migrating the SQLite file, and the
 * emit API through which importers write (they never see SQL).  Every
 * statement is prepared once and bound; nothing is built with %s.
 */
#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>
#include "core/strmap.h"

/* The statements of an import, prepared once per open database. */
enum db_stmt {
	ST_INS_RUN, ST_INS_PARAM, ST_INS_SAMPLE, ST_INS_SERIES, ST_INS_AGG,
	ST_FIND_METRIC, ST_INS_METRIC, ST_SET_UNIT, ST_NEXT_ITER, ST_NR,
};

struct db {
	sqlite3 *sq;		/* owned */
	char *path;		/* owned */
	sqlite3_stmt *st[ST_NR];	/* owned; NULL until first needed */
	/*
	 * metric name -> metrics.id, across the files of one command.  Ids
	 * made in a transaction that rolls back are gone: db_rollback()
	 * clears the cache.
	 */
	struct strmap metric_ids;
};

/*
 * Open (creating if needed) the database at path, in WAL mode with a
 * busy timeout, and apply pending schema migrations.  Returns 0 or
 * error(); on error db->sq is closed.
 */
int db_open(struct db *db, const char *path);
void db_close(struct db *db);
/* Fixed SQL only (no user data); returns 0 or error(). */
int db_exec(struct db *db, const char *sql);
/* Prepare a fixed statement, or error() and return NULL. */
sqlite3_stmt *db_prepare(struct db *db, const char *sql);
int db_begin(struct db *db);
int db_commit(struct db *db);
void db_rollback(struct db *db);
/* Error text of the last failed call, for messages. */
const char *db_errmsg(struct db *db);

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
};

/* Overrides from the command line; all borrowed, NULL = not given. */
struct import_overrides {
	const char *kernel, *commit, *label, *machine, *testcase;
	const struct kv *params;
	size_t nr_params;
};

/*
 * One file being imported: the statements, the current run, the
 * counters.  Created by the import driver inside a transaction.
 */
struct import_ctx {
	struct db *db;				/* borrowed */
	const char *path;			/* borrowed, for messages */
	const struct import_overrides *ovr;	/* borrowed, may be NULL */
	int64_t import_id;
	int64_t run_id;				/* current run; 0 = none */
	long nr_runs, nr_samples, nr_aggregates, nr_series;
};

/* Set up ctx for a new import row (inserted now); 0 or error(). */
int db_import_begin(struct import_ctx *ctx, struct db *db, const char *path,
		    const char *format, int64_t file_size,
		    const struct import_overrides *ovr);
/* Record the content hash and size; returns 1 if that content was imported
 * before (the caller rolls back), 0 if not, -1 on error. */
int db_import_set_hash(struct import_ctx *ctx, const char *sha256_hex,
		       uint64_t size);
void db_import_end(struct import_ctx *ctx);

/* Start a new run; the following samples and series belong to it. */
int db_emit_run(struct import_ctx *ctx, const struct run_desc *rd, long line);
/* One value of metric in the current run.  unit may be NULL. */
int db_emit_sample(struct import_ctx *ctx, const char *metric,
		   const char *unit, double value, long line);
/* One time-stamped value of metric in the current run. */
int db_emit_series(struct import_ctx *ctx, const char *metric,
		   const char *unit, double t, double value, long line);
int db_emit_aggregate(struct import_ctx *ctx, const struct agg_desc *a,
		      long line);

/*
 * Canonical params text: "k=v,k=v" sorted by key, later duplicates of a
 * key win.  Used for grouping runs; returns a new string (caller frees).
 */
char *params_canonical(const struct kv *params, size_t nr);

#endif
