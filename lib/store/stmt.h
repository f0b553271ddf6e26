#ifndef STMT_H
#define STMT_H
/*
 * A prepared statement on either backend: SQLite (the default, a file)
 * or PostgreSQL (a team server, pg.h).  The calls are SQLite's, with its
 * result codes and column types, so the SQL and the code that steps it
 * are written once; where the two dialects differ, the caller picks the
 * text by db->pg (db.h).  Statements are made by db_prepare() and
 * db_stmt() and freed by stmt_finalize().
 */
#include <stdint.h>
#include <stdlib.h>
#include <sqlite3.h>
#include "store/pg.h"

struct stmt {
	sqlite3_stmt *sq;	/* owned; NULL on PostgreSQL */
	struct pg_stmt *pg;	/* owned; NULL on SQLite */
	/*
	 * db_prepare_id() on SQLite: the statement's "RETURNING id" was
	 * taken off, and db_step_id() reads the rowid it inserted.
	 */
	int rowid;
};

static inline int stmt_step(struct stmt *st)
{
	return st->pg ? pg_step(st->pg) : sqlite3_step(st->sq);
}

static inline void stmt_reset(struct stmt *st)
{
	if (st->pg)
		pg_reset(st->pg);
	else
		sqlite3_reset(st->sq);
}

static inline void stmt_finalize(struct stmt *st)
{
	if (!st)
		return;
	if (st->pg)
		pg_finalize(st->pg);
	else
		sqlite3_finalize(st->sq);
	free(st);
}

static inline int stmt_bind_parameter_count(struct stmt *st)
{
	return st->pg ? pg_bind_parameter_count(st->pg) :
			sqlite3_bind_parameter_count(st->sq);
}

static inline void stmt_bind_int64(struct stmt *st, int i, int64_t v)
{
	if (st->pg)
		pg_bind_int64(st->pg, i, v);
	else
		sqlite3_bind_int64(st->sq, i, v);
}

static inline void stmt_bind_int(struct stmt *st, int i, int v)
{
	stmt_bind_int64(st, i, v);
}

static inline void stmt_bind_double(struct stmt *st, int i, double v)
{
	if (st->pg)
		pg_bind_double(st->pg, i, v);
	else
		sqlite3_bind_double(st->sq, i, v);
}

/* dtor: SQLITE_STATIC or SQLITE_TRANSIENT (PostgreSQL always copies) */
static inline void stmt_bind_text(struct stmt *st, int i, const char *s,
				  int len, void (*dtor)(void *))
{
	if (st->pg)
		pg_bind_text(st->pg, i, s, len);
	else
		sqlite3_bind_text(st->sq, i, s, len, dtor);
}

static inline void stmt_bind_blob(struct stmt *st, int i, const void *p,
				  int len, void (*dtor)(void *))
{
	if (st->pg)
		pg_bind_blob(st->pg, i, p, len);
	else
		sqlite3_bind_blob(st->sq, i, p, len, dtor);
}

static inline void stmt_bind_null(struct stmt *st, int i)
{
	if (st->pg)
		pg_bind_null(st->pg, i);
	else
		sqlite3_bind_null(st->sq, i);
}

static inline int stmt_column_count(struct stmt *st)
{
	return st->pg ? pg_column_count(st->pg) :
			sqlite3_column_count(st->sq);
}

static inline int stmt_column_type(struct stmt *st, int i)
{
	return st->pg ? pg_column_type(st->pg, i) :
			sqlite3_column_type(st->sq, i);
}

static inline int64_t stmt_column_int64(struct stmt *st, int i)
{
	return st->pg ? pg_column_int64(st->pg, i) :
			sqlite3_column_int64(st->sq, i);
}

static inline int stmt_column_int(struct stmt *st, int i)
{
	return (int)stmt_column_int64(st, i);
}

static inline double stmt_column_double(struct stmt *st, int i)
{
	return st->pg ? pg_column_double(st->pg, i) :
			sqlite3_column_double(st->sq, i);
}

static inline const unsigned char *stmt_column_text(struct stmt *st, int i)
{
	return st->pg ? pg_column_text(st->pg, i) :
			sqlite3_column_text(st->sq, i);
}

static inline const void *stmt_column_blob(struct stmt *st, int i)
{
	return st->pg ? pg_column_blob(st->pg, i) :
			sqlite3_column_blob(st->sq, i);
}

static inline int stmt_column_bytes(struct stmt *st, int i)
{
	return st->pg ? pg_column_bytes(st->pg, i) :
			sqlite3_column_bytes(st->sq, i);
}

#endif
