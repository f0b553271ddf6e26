/* TEMPORARY STUB: replaced by the libpq driver */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <sqlite3.h>
#include <stdlib.h>
#include "store/pg.h"
struct pg_conn * pg_connect(const char *url, char **why) { return NULL; }
void pg_close(struct pg_conn *c) {  }
const char * pg_errmsg(struct pg_conn *c) { return NULL; }
int pg_errcode(struct pg_conn *c) { return 0; }
int pg_exec(struct pg_conn *c, const char *sql) { return 0; }
int64_t pg_changes(struct pg_conn *c) { return 0; }
int pg_in_transaction(struct pg_conn *c) { return 0; }
struct pg_stmt * pg_prepare(struct pg_conn *c, const char *sql) { return NULL; }
struct pg_stmt * pg_prepare_copy(struct pg_conn *c, const char *table,
				const char *columns) { return NULL; }
int pg_flush(struct pg_conn *c) { return 0; }
int pg_step(struct pg_stmt *st) { return 0; }
void pg_reset(struct pg_stmt *st) {  }
void pg_finalize(struct pg_stmt *st) {  }
int pg_bind_parameter_count(struct pg_stmt *st) { return 0; }
void pg_bind_int64(struct pg_stmt *st, int i, int64_t v) {  }
void pg_bind_double(struct pg_stmt *st, int i, double v) {  }
void pg_bind_text(struct pg_stmt *st, int i, const char *s, int len) {  }
void pg_bind_blob(struct pg_stmt *st, int i, const void *p, int len) {  }
void pg_bind_null(struct pg_stmt *st, int i) {  }
int pg_column_count(struct pg_stmt *st) { return 0; }
int pg_column_type(struct pg_stmt *st, int i) { return 0; }
int64_t pg_column_int64(struct pg_stmt *st, int i) { return 0; }
double pg_column_double(struct pg_stmt *st, int i) { return 0; }
const unsigned char * pg_column_text(struct pg_stmt *st, int i) { return NULL; }
const void * pg_column_blob(struct pg_stmt *st, int i) { return NULL; }
int pg_column_bytes(struct pg_stmt *st, int i) { return 0; }
int pg_blob_open(struct pg_conn *c, const char *table, const char *column,
		 const char *key, int64_t row, struct pg_blob **out) { return 0; }
int64_t pg_blob_bytes(struct pg_blob *b) { return 0; }
int pg_blob_read(struct pg_blob *b, void *buf, int n, int64_t offset) { return 0; }
void pg_blob_close(struct pg_blob *b) {  }
