#ifndef PG_H
#define PG_H
/*
 * The PostgreSQL backend (libpq): a connection and statements with the
 * same life as SQLite's, so that stmt.h can put either behind one call.
 * Nothing here knows perfsift's schema; db.c and emit.c hold the SQL.
 *
 * Statements are written with SQLite's "?" placeholders; pg_prepare()
 * numbers them $1, $2, ... (outside quotes).  Parameters travel as text
 * (integers in decimal, doubles with 17 significant digits, so that the
 * server reads back the same double), blobs in binary.  Results come back
 * as text: floats are printed by the server as the shortest text that
 * reads back the same double (extra_float_digits = 3), so column_double
 * returns what was stored, bit for bit.
 *
 * Result codes are SQLite's (SQLITE_ROW, SQLITE_DONE, SQLITE_CONSTRAINT,
 * ...), mapped from the server's SQLSTATE (pg_code()), so that callers
 * test one set of codes whichever backend they run on.
 */
#include <stddef.h>
#include <stdint.h>

struct pg_conn;
struct pg_stmt;
struct pg_blob;

/*
 * Connect to url (a libpq connection URI: postgresql://user@host:port/db
 * ?sslmode=...; a password comes from libpq's own ~/.pgpass, PGPASSFILE
 * or PGPASSWORD, never from us).  NULL on failure, with *why set to a
 * malloc'ed message (the server's or libpq's).
 */
struct pg_conn *pg_connect(const char *url, char **why);
void pg_close(struct pg_conn *c);
/* The message of the last failure on c ("" if none). */
const char *pg_errmsg(struct pg_conn *c);
/* The SQLite-style code of the last failure on c (SQLITE_OK if none). */
int pg_errcode(struct pg_conn *c);
/*
 * Run fixed SQL (one or several statements, no parameters, rows
 * discarded).  SQLITE_OK or a code.
 */
int pg_exec(struct pg_conn *c, const char *sql);
/* Rows changed by the last INSERT/UPDATE/DELETE on c. */
int64_t pg_changes(struct pg_conn *c);
/* 1 inside a transaction block (also one that failed). */
int pg_in_transaction(struct pg_conn *c);

/* Prepare sql (with ? placeholders); NULL after a failure (pg_errmsg). */
struct pg_stmt *pg_prepare(struct pg_conn *c, const char *sql);
/*
 * A statement that adds rows to table(columns) through COPY: each step
 * appends its bound row to a buffer sent with COPY FROM STDIN, flushed
 * before any other statement runs on c, before a commit, and when it
 * grows past a few MB.  Its step returns SQLITE_DONE; an error of the
 * COPY surfaces at the flush (the call that flushed returns it).
 */
struct pg_stmt *pg_prepare_copy(struct pg_conn *c, const char *table,
				const char *columns);
/* Send pending COPY rows now: SQLITE_OK or a code. */
int pg_flush(struct pg_conn *c);
int pg_step(struct pg_stmt *st);
void pg_reset(struct pg_stmt *st);	/* the bindings stay */
void pg_finalize(struct pg_stmt *st);
int pg_bind_parameter_count(struct pg_stmt *st);
/* Bind parameter i (from 1); the value is copied. */
void pg_bind_int64(struct pg_stmt *st, int i, int64_t v);
void pg_bind_double(struct pg_stmt *st, int i, double v); /* NaN: NULL */
void pg_bind_text(struct pg_stmt *st, int i, const char *s, int len);
void pg_bind_blob(struct pg_stmt *st, int i, const void *p, int len);
void pg_bind_null(struct pg_stmt *st, int i);
/* Columns of the current row, from 0; types as SQLite's (SQLITE_NULL..). */
int pg_column_count(struct pg_stmt *st);
int pg_column_type(struct pg_stmt *st, int i);
int64_t pg_column_int64(struct pg_stmt *st, int i);
double pg_column_double(struct pg_stmt *st, int i);
const unsigned char *pg_column_text(struct pg_stmt *st, int i);
const void *pg_column_blob(struct pg_stmt *st, int i);
int pg_column_bytes(struct pg_stmt *st, int i);

/*
 * Read a bytea column of one row (by its integer key) in pieces, as
 * SQLite's incremental blob I/O reads it.  SQLITE_OK, or a code (no such
 * row: SQLITE_ERROR).
 */
int pg_blob_open(struct pg_conn *c, const char *table, const char *column,
		 const char *key, int64_t row, struct pg_blob **out);
int64_t pg_blob_bytes(struct pg_blob *b);
int pg_blob_read(struct pg_blob *b, void *buf, int n, int64_t offset);
void pg_blob_close(struct pg_blob *b);

#endif
