/*
 * The PostgreSQL backend over libpq (pg.h): statements with SQLite's
 * life (prepare, bind, step, reset, finalize) and its result codes, rows
 * appended through COPY, and blobs read in pieces.  Results are fetched
 * whole by each first step, so that several statements can be stepped in
 * turn on one connection, as SQLite allows.
 */
#include "core/compat.h"
#include "store/pg.h"
#include "core/sbuf.h"
#include "core/dl.h"

#include <ctype.h>
#include <libpq-fe.h>
#include <sqlite3.h>

/*
 * libpq is loaded when a server is first named, not linked: a perfsift
 * that only ever opens SQLite files does not map libpq and what it pulls
 * in (OpenSSL, Kerberos, LDAP: some MB of every process's memory and
 * a few ms of its start).  The functions used, each a pointer of the
 * prototype's type in struct libpq; the defines below make the calls
 * in this file go through them.
 */
#define LIBPQ_SONAME "libpq.so.5"
#define LIBPQ_FUNCS(X) \
	X(PQclear) \
	X(PQcmdStatus) \
	X(PQcmdTuples) \
	X(PQconnectdb) \
	X(PQdescribePrepared) \
	X(PQerrorMessage) \
	X(PQescapeIdentifier) \
	X(PQexec) \
	X(PQexecParams) \
	X(PQexecPrepared) \
	X(PQfinish) \
	X(PQfreemem) \
	X(PQftype) \
	X(PQgetResult) \
	X(PQgetisnull) \
	X(PQgetlength) \
	X(PQgetvalue) \
	X(PQnfields) \
	X(PQntuples) \
	X(PQprepare) \
	X(PQputCopyData) \
	X(PQputCopyEnd) \
	X(PQresultErrorField) \
	X(PQresultErrorMessage) \
	X(PQresultStatus) \
	X(PQsetNoticeProcessor) \
	X(PQstatus) \
	X(PQtransactionStatus) \
	X(PQunescapeBytea)

static struct libpq {
#define X(f) typeof(f) *f;
	LIBPQ_FUNCS(X)
#undef X
} libpq;

/* 0, or -1 with *why set (malloc'ed) when libpq cannot be loaded */
static int libpq_ready(char **why)
{
	static const struct dl_sym syms[] = {
#define X(f) { #f, offsetof(struct libpq, f) },
		LIBPQ_FUNCS(X)
#undef X
	};
	static int state;	/* 0: not tried, 1: ready */

	if (state > 0)
		return 0;
	if (dl_load(LIBPQ_SONAME, "libpq5", syms, ARRAY_SIZE(syms), &libpq,
		    why))
		return -1;
	state = 1;
	return 0;
}

#define PQclear (*libpq.PQclear)
#define PQcmdStatus (*libpq.PQcmdStatus)
#define PQcmdTuples (*libpq.PQcmdTuples)
#define PQconnectdb (*libpq.PQconnectdb)
#define PQdescribePrepared (*libpq.PQdescribePrepared)
#define PQerrorMessage (*libpq.PQerrorMessage)
#define PQescapeIdentifier (*libpq.PQescapeIdentifier)
#define PQexec (*libpq.PQexec)
#define PQexecParams (*libpq.PQexecParams)
#define PQexecPrepared (*libpq.PQexecPrepared)
#define PQfinish (*libpq.PQfinish)
#define PQfreemem (*libpq.PQfreemem)
#define PQftype (*libpq.PQftype)
#define PQgetResult (*libpq.PQgetResult)
#define PQgetisnull (*libpq.PQgetisnull)
#define PQgetlength (*libpq.PQgetlength)
#define PQgetvalue (*libpq.PQgetvalue)
#define PQnfields (*libpq.PQnfields)
#define PQntuples (*libpq.PQntuples)
#define PQprepare (*libpq.PQprepare)
#define PQputCopyData (*libpq.PQputCopyData)
#define PQputCopyEnd (*libpq.PQputCopyEnd)
#define PQresultErrorField (*libpq.PQresultErrorField)
#define PQresultErrorMessage (*libpq.PQresultErrorMessage)
#define PQresultStatus (*libpq.PQresultStatus)
#define PQsetNoticeProcessor (*libpq.PQsetNoticeProcessor)
#define PQstatus (*libpq.PQstatus)
#define PQtransactionStatus (*libpq.PQtransactionStatus)
#define PQunescapeBytea (*libpq.PQunescapeBytea)

/* COPY rows are sent once they pass this, and blobs up to it read whole */
#define PG_BIG (4 << 20)
/* PQputCopyData() takes an int: the buffer goes in pieces of this */
#define COPY_PIECE (1 << 20)

/* type OIDs of pg_type.h (server/catalog/pg_type_d.h is not in libpq-dev) */
#define BOOLOID 16
#define BYTEAOID 17
#define INT8OID 20
#define INT2OID 21
#define INT4OID 23
#define OIDOID 26
#define FLOAT4OID 700
#define FLOAT8OID 701
#define NUMERICOID 1700
#define TEXTOID 25

struct pg_conn {
	PGconn *pq;		/* owned */
	unsigned next_name;	/* prepared statements are "ps<n>" */
	int64_t changes;
	int errcode;		/* SQLITE_OK when the last call went well */
	char *errmsg;		/* owned, xstrdup(); NULL means "" */
	/*
	 * The rows of COPY statements not sent yet: only one target at a
	 * time.  copy_sql is a copy of the statement's, so that a COPY
	 * statement may be finalized before its rows are sent.
	 */
	char *copy_sql;		/* owned; NULL when nothing is pending */
	char *copy_table;	/* owned; the table copy_sql fills */
	struct sbuf copy_buf;	/* rows in COPY text format */
};

/* A decoded bytea value of the current row (column_blob, column_bytes). */
struct pg_cell {
	unsigned char *buf;	/* owned, xrealloc()ed, reused */
	size_t alloc;
	int len;
	int row;		/* the row it holds; -1: none */
};

struct pg_stmt {
	struct pg_conn *c;	/* borrowed: the connection outlives it */
	char *name;		/* owned; the server's name, NULL for COPY */
	char *copy_sql;		/* owned; "COPY t(c) FROM STDIN", else NULL */
	char *table;		/* owned; COPY: the table it fills */
	char *sql;		/* owned; a statement's text, else NULL */
	int nparams;
	/* parameters, as PQexecPrepared() takes them */
	char **values;		/* owned, each owned; NULL is SQL NULL */
	int *lengths;		/* owned */
	int *formats;		/* owned; 0 text, 1 binary (blobs) */
	PGresult *res;		/* owned; NULL before the first step */
	int row;		/* current row of res; -1 before the first */
	int ncols;		/* of the statement; -1 until known */
	struct pg_cell *cells;	/* owned; ncells of them */
	int ncells;
};

struct pg_blob {
	struct pg_conn *c;	/* borrowed */
	char *sql;		/* owned; $3 bytes of the value from $2 */
	char key[24];		/* the row, in decimal */
	int64_t bytes;
	unsigned char *data;	/* owned; the value when small, else NULL */
};

/*
 * Keep msg as the failure of c.  libpq's own messages end in a newline
 * and some run on over indented lines ("server closed the connection
 * unexpectedly\n\tThis probably means..."): one line, as SQLite's.
 */
static void set_err(struct pg_conn *c, int code, const char *msg)
{
	struct sbuf sb = SBUF_INIT;

	for (; *msg; msg++) {
		if (*msg != '\n') {
			sbuf_addch(&sb, *msg);
			continue;
		}
		while (msg[1] == '\t' || msg[1] == ' ')
			msg++;
		if (msg[1])
			sbuf_addch(&sb, ' ');
	}
	sbuf_rtrim(&sb);
	free(c->errmsg);
	c->errmsg = sbuf_detach(&sb, NULL);
	c->errcode = code;
}

static void clear_err(struct pg_conn *c)
{
	free(c->errmsg);
	c->errmsg = NULL;
	c->errcode = SQLITE_OK;
}

/*
 * SQLite's code for a failure: from the SQLSTATE, or from the state of
 * the connection when libpq itself failed (no SQLSTATE: it lost the
 * server).
 */
static int pg_code(PGconn *pq, const PGresult *res)
{
	const char *st = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	if (st && strlen(st) == 5) {
		if (!strncmp(st, "23", 2))
			return SQLITE_CONSTRAINT;
		if (!strcmp(st, "40001") || !strcmp(st, "40P01") ||
		    !strcmp(st, "55P03"))
			return SQLITE_BUSY;
		if (!strcmp(st, "25006"))
			return SQLITE_READONLY;
		if (!strcmp(st, "42501"))
			return SQLITE_PERM;
		if (!strncmp(st, "28", 2))
			return SQLITE_AUTH;
		if (!strncmp(st, "08", 2) || !strcmp(st, "57P01") ||
		    !strcmp(st, "57P02") || !strcmp(st, "57P03") ||
		    !strcmp(st, "58030"))
			return SQLITE_IOERR;
		if (!strncmp(st, "53", 2))
			return SQLITE_FULL;
	}
	if (PQstatus(pq) == CONNECTION_BAD)
		return SQLITE_IOERR;
	if (!st && (!res || PQresultStatus(res) == PGRES_FATAL_ERROR))
		return SQLITE_IOERR;
	return SQLITE_ERROR;
}

/*
 * Record the failure res (may be NULL: libpq returned no result) and
 * return its code.  The message is the server's primary one with its
 * detail, without libpq's "ERROR:  " and its LINE/context lines.
 */
static int fail_res(struct pg_conn *c, const PGresult *res)
{
	const char *prim = res ? PQresultErrorField(res,
				PG_DIAG_MESSAGE_PRIMARY) : NULL;
	const char *detail = res ? PQresultErrorField(res,
				PG_DIAG_MESSAGE_DETAIL) : NULL;
	int code = pg_code(c->pq, res);

	if (prim && detail) {
		char *msg = xstrfmt("%s (%s)", prim, detail);

		set_err(c, code, msg);
		free(msg);
	} else if (prim) {
		set_err(c, code, prim);
	} else if (res && *PQresultErrorMessage(res)) {
		set_err(c, code, PQresultErrorMessage(res));
	} else {
		set_err(c, code, PQerrorMessage(c->pq));
	}
	return code;
}

/* Rows changed: only INSERT, UPDATE, DELETE and MERGE count (SQLite's). */
static void count_changes(struct pg_conn *c, PGresult *res)
{
	const char *tag = PQcmdStatus(res);

	if (!strncmp(tag, "INSERT ", 7) || !strncmp(tag, "UPDATE ", 7) ||
	    !strncmp(tag, "DELETE ", 7) || !strncmp(tag, "MERGE ", 6))
		c->changes = strtoll(PQcmdTuples(res), NULL, 10);
}

static void discard_notice(void *arg UNUSED, const char *msg UNUSED)
{
}

/* Run fixed SQL whose rows nobody wants; SQLITE_OK or a code. */
static int run(struct pg_conn *c, const char *sql)
{
	PGresult *res = PQexec(c->pq, sql);
	ExecStatusType s = PQresultStatus(res);
	int rc = SQLITE_OK;

	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
		count_changes(c, res);
	else if (s == PGRES_COPY_IN || s == PGRES_COPY_OUT ||
		 s == PGRES_COPY_BOTH)
		/* not ours to feed: COPY goes through pg_prepare_copy() */
		BUG("pg_exec: COPY FROM STDIN/TO STDOUT in '%s'", sql);
	else
		rc = fail_res(c, res);
	PQclear(res);
	return rc;
}

struct pg_conn *pg_connect(const char *url, char **why)
{
	static const char *const setup =
		"SET extra_float_digits = 3; SET client_encoding = 'UTF8'; "
		"SET client_min_messages = warning; SET bytea_output = hex";
	struct pg_conn *c;
	PGconn *pq;

	*why = NULL;
	if (libpq_ready(why))
		return NULL;
	pq = PQconnectdb(url);
	if (!pq) {
		*why = xstrdup("out of memory");
		return NULL;
	}
	if (PQstatus(pq) != CONNECTION_OK) {
		struct pg_conn tmp = { .pq = pq };

		set_err(&tmp, SQLITE_IOERR, PQerrorMessage(pq));
		*why = tmp.errmsg;
		PQfinish(pq);
		return NULL;
	}
	/* CREATE ... IF NOT EXISTS would print its NOTICE on stderr */
	PQsetNoticeProcessor(pq, discard_notice, NULL);
	c = xcalloc(1, sizeof(*c));
	c->pq = pq;
	sbuf_init(&c->copy_buf, 0);
	if (run(c, setup) != SQLITE_OK) {
		*why = xstrdup(pg_errmsg(c));
		pg_close(c);
		return NULL;
	}
	clear_err(c);
	return c;
}

void pg_close(struct pg_conn *c)
{
	if (!c)
		return;
	/* what SQLite would have written already (autocommit) */
	if (c->copy_sql && PQstatus(c->pq) == CONNECTION_OK)
		pg_flush(c);
	free(c->copy_sql);
	free(c->copy_table);
	sbuf_release(&c->copy_buf);
	free(c->errmsg);
	PQfinish(c->pq);
	free(c);
}

const char *pg_errmsg(struct pg_conn *c)
{
	return c->errmsg ? c->errmsg : "";
}

int pg_errcode(struct pg_conn *c)
{
	return c->errcode;
}

int64_t pg_changes(struct pg_conn *c)
{
	return c->changes;
}

int pg_in_transaction(struct pg_conn *c)
{
	switch (PQtransactionStatus(c->pq)) {
	case PQTRANS_ACTIVE: case PQTRANS_INTRANS: case PQTRANS_INERROR:
		return 1;
	default:
		return 0;
	}
}

int pg_flush(struct pg_conn *c)
{
	PGresult *res;
	char *sql = c->copy_sql;
	size_t off;
	int rc = SQLITE_OK;

	if (!sql)
		return SQLITE_OK;
	/* the rows are gone whatever happens: a failed COPY wrote none */
	c->copy_sql = NULL;
	clear_err(c);
	res = PQexec(c->pq, sql);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		rc = fail_res(c, res);
		PQclear(res);
		goto out;
	}
	PQclear(res);
	for (off = 0; off < c->copy_buf.len; off += COPY_PIECE) {
		size_t n = c->copy_buf.len - off;

		if (n > COPY_PIECE)
			n = COPY_PIECE;
		if (PQputCopyData(c->pq, c->copy_buf.buf + off, (int)n) != 1)
			break;
	}
	/*
	 * On a broken connection the calls above and this one fail, and
	 * PQgetResult() says why; either way the results are read to the end
	 * so that the connection is ready for the next command.
	 */
	PQputCopyEnd(c->pq, NULL);
	while ((res = PQgetResult(c->pq))) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && rc == SQLITE_OK)
			rc = fail_res(c, res);
		PQclear(res);
	}
	if (rc == SQLITE_OK && PQstatus(c->pq) != CONNECTION_OK)
		rc = fail_res(c, NULL);
out:
	/* a blob of many MB made it big: keep it no longer */
	if (c->copy_buf.alloc > 2 * PG_BIG)
		sbuf_release(&c->copy_buf);
	sbuf_reset(&c->copy_buf);
	free(sql);
	return rc;
}

/* A plain ROLLBACK (not to a savepoint): pending COPY rows are moot. */
static int is_rollback(const char *sql)
{
	while (*sql == ' ' || *sql == '\t' || *sql == '\n')
		sql++;
	if (!strncasecmp(sql, "ABORT", 5))
		return 1;
	if (strncasecmp(sql, "ROLLBACK", 8))
		return 0;
	sql += 8;
	while (*sql == ' ' || *sql == '\t' || *sql == '\n')
		sql++;
	return strncasecmp(sql, "TO", 2) != 0;
}

int pg_exec(struct pg_conn *c, const char *sql)
{
	int rc;

	/*
	 * Rows pending for a transaction being rolled back are dropped: sent,
	 * they could fail, and the ROLLBACK would then not be sent, leaving
	 * the transaction open.  (Outside one, SQLite would have written
	 * them already: they go.)
	 */
	if (c->copy_sql && pg_in_transaction(c) && is_rollback(sql)) {
		free(c->copy_sql);
		c->copy_sql = NULL;
		sbuf_reset(&c->copy_buf);
	}
	rc = pg_flush(c);
	if (rc != SQLITE_OK)
		return rc;	/* a COMMIT after a failed COPY must fail */
	clear_err(c);
	return run(c, sql);
}

static int ident_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '$' || ch >= 0x80;
}

/*
 * The length of the dollar-quote tag at p ("$$", "$tag$"), 0 if p is not
 * one ("$1" is a parameter, and a tag cannot start with a digit).
 */
static size_t dollar_tag(const char *sql, const char *p)
{
	const char *q = p + 1;

	if (p > sql && ident_char((unsigned char)p[-1]))
		return 0;
	if (*q >= '0' && *q <= '9')
		return 0;
	while (*q && *q != '$' && ident_char((unsigned char)*q))
		q++;
	return *q == '$' ? (size_t)(q - p + 1) : 0;
}

/* SQLite's highest parameter number (SQLITE_MAX_VARIABLE_NUMBER) */
#define SQLITE_MAX_PARAM 32766

/*
 * The end of the string, quoted identifier, comment or dollar-quoted
 * string that starts at p, in which a "?" is no placeholder; NULL if p
 * starts none of them.
 */
static const char *skip_quoted(const char *sql, const char *p)
{
	size_t n;

	if (*p == '\'' || *p == '"') {
		char q = *p;
		/* E'...' strings escape with backslashes */
		int bs = q == '\'' && p > sql &&
			 (p[-1] == 'E' || p[-1] == 'e') &&
			 (p - 1 == sql || !ident_char((unsigned char)p[-2]));

		p++;
		while (*p && *p != q) {
			if (bs && *p == '\\' && p[1])
				p++;
			p++;
		}
		return *p ? p + 1 : p;	/* '' closes and reopens: the same */
	}
	if (p[0] == '-' && p[1] == '-')
		return p + strcspn(p, "\n");
	if (p[0] == '/' && p[1] == '*') {
		int depth = 0;	/* PostgreSQL's block comments nest */

		do {
			if (p[0] == '/' && p[1] == '*') {
				depth++;
				p += 2;
			} else if (p[0] == '*' && p[1] == '/') {
				depth--;
				p += 2;
			} else {
				p++;
			}
		} while (*p && depth);
		return p;
	}
	if (*p == '$' && (n = dollar_tag(sql, p))) {
		const char *end = p + n;

		while ((end = strchr(end, '$')) && strncmp(end, p, n))
			end++;
		return end ? end + n : p + strlen(p);
	}
	return NULL;
}

/* The parameter numbers in use (1..max), for number_placeholders(). */
struct param_use {
	char *used;	/* owned: used[k] set for $k */
	size_t alloc;
	int max;
};

/*
 * The placeholder after a "?" at p ("?" or "?NNN") as "$k" into out;
 * returns the end of it.
 */
static const char *placeholder(const char *p, struct sbuf *out,
			       struct param_use *u)
{
	long k;
	char *e;

	if (*p >= '0' && *p <= '9') {
		k = strtol(p, &e, 10);
		p = e;
	} else {
		k = u->max + 1;
	}
	sbuf_addf(out, "$%ld", k);
	if (k < 1 || k > SQLITE_MAX_PARAM)
		return p;	/* beyond SQLite's limit: the server says no */
	if (k > u->max) {
		ALLOC_GROW(u->used, (size_t)k + 1, u->alloc);
		memset(u->used + u->max + 1, 0, (size_t)(k - u->max));
		u->max = (int)k;
	}
	u->used[k] = 1;
	return p;
}

/*
 * SQLite's placeholders as PostgreSQL's: "?" is the next number after
 * the largest so far and "?NNN" is NNN, as in SQLite; a "?" in a string,
 * a quoted identifier or a comment is left alone.  Returns the new text
 * (caller frees), the number of parameters in *nparams and, in *types
 * (caller frees), text's OID for the numbers not used ("?1, ?3"): the
 * server cannot infer their types, and would refuse the statement.
 */
static char *number_placeholders(const char *sql, int *nparams, Oid **types)
{
	struct sbuf out = SBUF_INIT;
	struct param_use u = { NULL, 0, 0 };
	const char *p = sql, *end;
	int i;

	while (*p) {
		if (*p == '?') {
			p = placeholder(p + 1, &out, &u);
			continue;
		}
		end = skip_quoted(sql, p);
		if (!end)
			end = p + 1;
		sbuf_add(&out, p, (size_t)(end - p));
		p = end;
	}
	*nparams = u.max;
	*types = xcalloc((size_t)u.max + 1, sizeof(**types));
	for (i = 1; i <= u.max; i++)
		(*types)[i - 1] = u.used[i] ? 0 : TEXTOID;
	free(u.used);
	return sbuf_detach(&out, NULL);
}

static struct pg_stmt *stmt_new(struct pg_conn *c, int nparams)
{
	struct pg_stmt *st = xcalloc(1, sizeof(*st));

	st->c = c;
	st->nparams = nparams;
	st->values = xcalloc((size_t)nparams + 1, sizeof(*st->values));
	st->lengths = xcalloc((size_t)nparams + 1, sizeof(*st->lengths));
	st->formats = xcalloc((size_t)nparams + 1, sizeof(*st->formats));
	st->row = -1;
	st->ncols = -1;
	return st;
}

struct pg_stmt *pg_prepare(struct pg_conn *c, const char *sql)
{
	struct pg_stmt *st;
	PGresult *res;
	int nparams;
	Oid *types;
	char *text = number_placeholders(sql, &nparams, &types);
	char name[16];

	clear_err(c);
	snprintf(name, sizeof(name), "ps%u", c->next_name++);
	res = PQprepare(c->pq, name, text, nparams, types);
	free(text);
	free(types);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		fail_res(c, res);
		PQclear(res);
		return NULL;
	}
	PQclear(res);
	st = stmt_new(c, nparams);
	st->name = xstrdup(name);
	st->sql = xstrdup(sql);
	return st;
}

struct pg_stmt *pg_prepare_copy(struct pg_conn *c, const char *table,
				const char *columns)
{
	struct pg_stmt *st;
	const char *p;
	int n = 1;

	/* fixed lists from our own code: no quoted names with commas */
	for (p = columns; *p; p++)
		if (*p == ',')
			n++;
	st = stmt_new(c, n);
	st->copy_sql = xstrfmt("COPY %s(%s) FROM STDIN", table, columns);
	st->table = xstrdup(table);
	return st;
}

int pg_bind_parameter_count(struct pg_stmt *st)
{
	return st->nparams;
}

/* Replace parameter i (from 1) by v (taken over; NULL is SQL NULL). */
static void bind_take(struct pg_stmt *st, int i, char *v, int len, int fmt)
{
	if (i < 1 || i > st->nparams) {
		free(v);	/* SQLite's SQLITE_RANGE: callers ignore it */
		return;
	}
	free(st->values[i - 1]);
	st->values[i - 1] = v;
	st->lengths[i - 1] = len;
	st->formats[i - 1] = fmt;
}

void pg_bind_int64(struct pg_stmt *st, int i, int64_t v)
{
	char *s = xstrfmt("%" PRId64, v);

	bind_take(st, i, s, (int)strlen(s), 0);
}

void pg_bind_double(struct pg_stmt *st, int i, double v)
{
	char *s;

	if (isnan(v)) {
		bind_take(st, i, NULL, 0, 0);	/* SQLite stores NULL too */
		return;
	}
	if (isinf(v))
		s = xstrdup(v > 0 ? "Infinity" : "-Infinity");
	else
		s = xstrfmt("%.17g", v);	/* reads back bit for bit */
	bind_take(st, i, s, (int)strlen(s), 0);
}

void pg_bind_text(struct pg_stmt *st, int i, const char *s, int len)
{
	if (!s) {
		bind_take(st, i, NULL, 0, 0);
		return;
	}
	if (len < 0)
		len = (int)strlen(s);
	bind_take(st, i, xstrndup(s, (size_t)len), len, 0);
}

void pg_bind_blob(struct pg_stmt *st, int i, const void *p, int len)
{
	char *v;

	if (!p) {
		bind_take(st, i, NULL, 0, 0);
		return;
	}
	if (len < 0)
		len = 0;
	v = xmalloc((size_t)len + 1);	/* not NULL when empty */
	memcpy(v, p, (size_t)len);
	bind_take(st, i, v, len, 1);
}

void pg_bind_null(struct pg_stmt *st, int i)
{
	bind_take(st, i, NULL, 0, 0);
}

static void drop_result(struct pg_stmt *st)
{
	int i;

	PQclear(st->res);
	st->res = NULL;
	st->row = -1;
	for (i = 0; i < st->ncells; i++)
		st->cells[i].row = -1;
}

void pg_reset(struct pg_stmt *st)
{
	if (st)
		drop_result(st);
}

/* Append s to sb in COPY's text format: backslash, tab, LF, CR escaped. */
static void copy_escape(struct sbuf *sb, const char *s, int len)
{
	const char *end = s + len, *run = s;

	for (; s < end; s++) {
		const char *e;

		switch (*s) {
		case '\\': e = "\\\\"; break;
		case '\t': e = "\\t"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		default: continue;
		}
		sbuf_add(sb, run, (size_t)(s - run));
		sbuf_add(sb, e, 2);
		run = s + 1;
	}
	sbuf_add(sb, run, (size_t)(end - run));
}

static const char hexdig[] = "0123456789abcdef";

static int copy_step(struct pg_stmt *st)
{
	struct pg_conn *c = st->c;
	struct sbuf *sb = &c->copy_buf;
	int i, rc;

	if (c->copy_sql && strcmp(c->copy_sql, st->copy_sql)) {
		rc = pg_flush(c);	/* another table's rows */
		if (rc != SQLITE_OK)
			return rc;
	}
	if (!c->copy_sql) {
		c->copy_sql = xstrdup(st->copy_sql);
		free(c->copy_table);
		c->copy_table = xstrdup(st->table);
	}
	clear_err(c);
	for (i = 0; i < st->nparams; i++) {
		const unsigned char *v = (const unsigned char *)st->values[i];
		int j;

		if (i)
			sbuf_addch(sb, '\t');
		if (!v) {
			sbuf_add(sb, "\\N", 2);
		} else if (st->formats[i]) {
			/* bytea's hex input, its backslash escaped for COPY */
			sbuf_grow(sb, 3 + 2 * (size_t)st->lengths[i]);
			sbuf_add(sb, "\\\\x", 3);
			for (j = 0; j < st->lengths[i]; j++) {
				sb->buf[sb->len++] = hexdig[v[j] >> 4];
				sb->buf[sb->len++] = hexdig[v[j] & 15];
			}
			sb->buf[sb->len] = '\0';
		} else {
			copy_escape(sb, st->values[i], st->lengths[i]);
		}
	}
	sbuf_addch(sb, '\n');
	c->changes = 1;
	if (sb->len >= PG_BIG) {
		rc = pg_flush(c);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_DONE;
}

/* Does sql name table (as a whole word)? */
static int names_table(const char *sql, const char *table)
{
	size_t n = strlen(table);
	const char *p;

	for (p = sql; (p = strstr(p, table)); p += n)
		if ((p == sql || !(isalnum((unsigned char)p[-1]) ||
				   p[-1] == '_')) &&
		    !(isalnum((unsigned char)p[n]) || p[n] == '_'))
			return 1;
	return 0;
}

int pg_step(struct pg_stmt *st)
{
	struct pg_conn *c = st->c;
	int rc;

	if (st->copy_sql)
		return copy_step(st);
	if (st->res && st->row >= PQntuples(st->res))
		drop_result(st);	/* SQLite resets itself after DONE */
	if (!st->res) {
		ExecStatusType s;

		/*
		 * Pending rows go first to a statement that names their
		 * table: it may read them or clash with them.  Others (the
		 * metrics and runs an import makes between its samples) run
		 * with the rows still pending, so that COPY sends them in
		 * MBs, not one round trip each.
		 */
		if (c->copy_sql && names_table(st->sql, c->copy_table)) {
			rc = pg_flush(c);
			if (rc != SQLITE_OK)
				return rc;
		}
		clear_err(c);
		st->res = PQexecPrepared(c->pq, st->name, st->nparams,
					 (const char *const *)st->values,
					 st->lengths, st->formats, 0);
		s = PQresultStatus(st->res);
		if (s != PGRES_TUPLES_OK && s != PGRES_COMMAND_OK) {
			rc = fail_res(c, st->res);
			drop_result(st);
			return rc;
		}
		count_changes(c, st->res);
		st->ncols = PQnfields(st->res);
		st->row = -1;
	}
	if (++st->row < PQntuples(st->res))
		return SQLITE_ROW;
	st->row = PQntuples(st->res);
	return SQLITE_DONE;
}

void pg_finalize(struct pg_stmt *st)
{
	int i;

	if (!st)
		return;
	drop_result(st);
	/*
	 * Best effort: in a failed transaction the server refuses even this,
	 * and the statement stays until the connection closes.
	 */
	if (st->name && PQstatus(st->c->pq) == CONNECTION_OK &&
	    PQtransactionStatus(st->c->pq) != PQTRANS_INERROR) {
		char *sql = xstrfmt("DEALLOCATE %s", st->name);

		PQclear(PQexec(st->c->pq, sql));
		free(sql);
	}
	for (i = 0; i < st->nparams; i++)
		free(st->values[i]);
	for (i = 0; i < st->ncells; i++)
		free(st->cells[i].buf);
	free(st->cells);
	free(st->values);
	free(st->lengths);
	free(st->formats);
	free(st->name);
	free(st->copy_sql);
	free(st->table);
	free(st->sql);
	free(st);
}

int pg_column_count(struct pg_stmt *st)
{
	PGresult *res;

	if (st->ncols >= 0 || !st->name)
		return st->ncols > 0 ? st->ncols : 0;
	/* before the first step, as SQLite knows it after prepare */
	res = PQdescribePrepared(st->c->pq, st->name);
	if (PQresultStatus(res) == PGRES_COMMAND_OK)
		st->ncols = PQnfields(res);
	PQclear(res);
	return st->ncols > 0 ? st->ncols : 0;
}

/* The text of column i of the current row; NULL for SQL NULL or none. */
static const char *value(struct pg_stmt *st, int i)
{
	if (!st->res || st->row < 0 || st->row >= PQntuples(st->res) ||
	    i < 0 || i >= PQnfields(st->res) ||
	    PQgetisnull(st->res, st->row, i))
		return NULL;
	return PQgetvalue(st->res, st->row, i);
}

int pg_column_type(struct pg_stmt *st, int i)
{
	if (!value(st, i))
		return SQLITE_NULL;
	switch (PQftype(st->res, i)) {
	case BOOLOID: case INT8OID: case INT2OID: case INT4OID: case OIDOID:
		return SQLITE_INTEGER;
	case FLOAT4OID: case FLOAT8OID: case NUMERICOID:
		return SQLITE_FLOAT;
	case BYTEAOID:
		return SQLITE_BLOB;
	default:
		return SQLITE_TEXT;
	}
}

int64_t pg_column_int64(struct pg_stmt *st, int i)
{
	const char *v = value(st, i);
	char *end;
	int64_t n;
	double d;

	if (!v)
		return 0;
	if (!strcmp(v, "t"))
		return 1;
	if (!strcmp(v, "f"))
		return 0;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno != ERANGE && end != v && *end != '.' && *end != 'e' &&
	    *end != 'E')
		return n;
	/* a float (or numeric) truncated, clamped as SQLite does a REAL */
	d = strtod(v, NULL);
	if (isnan(d))
		return 0;
	if (d <= (double)INT64_MIN)
		return INT64_MIN;
	if (d >= (double)INT64_MAX)
		return INT64_MAX;
	return (int64_t)d;
}

double pg_column_double(struct pg_stmt *st, int i)
{
	const char *v = value(st, i);

	if (!v)
		return 0.0;
	if (!strcmp(v, "t"))
		return 1.0;
	if (!strcmp(v, "f"))
		return 0.0;
	/* glibc's strtod reads "NaN", "Infinity" and "-Infinity" */
	return strtod(v, NULL);
}

const unsigned char *pg_column_text(struct pg_stmt *st, int i)
{
	return (const unsigned char *)value(st, i);
}

/* Column i (a bytea, not NULL) of the current row, decoded, cached. */
static struct pg_cell *decoded(struct pg_stmt *st, int i, const char *v)
{
	struct pg_cell *cell;
	unsigned char *u;
	size_t len;

	if (st->ncells < PQnfields(st->res)) {
		int k = PQnfields(st->res);

		st->cells = xrealloc(st->cells, (size_t)k * sizeof(*cell));
		for (; st->ncells < k; st->ncells++) {
			st->cells[st->ncells].buf = NULL;
			st->cells[st->ncells].alloc = 0;
			st->cells[st->ncells].len = 0;
			st->cells[st->ncells].row = -1;
		}
	}
	cell = &st->cells[i];
	if (cell->row == st->row)
		return cell;
	/* libpq reads both of bytea's text forms, hex and escape */
	u = PQunescapeBytea((const unsigned char *)v, &len);
	if (!u)
		BUG("out of memory in PQunescapeBytea");
	ALLOC_GROW(cell->buf, len + 1, cell->alloc);
	memcpy(cell->buf, u, len);
	PQfreemem(u);
	cell->len = (int)len;
	cell->row = st->row;
	return cell;
}

const void *pg_column_blob(struct pg_stmt *st, int i)
{
	const char *v = value(st, i);

	if (!v)
		return NULL;
	if (PQftype(st->res, i) != BYTEAOID)
		return v;
	return decoded(st, i, v)->buf;
}

int pg_column_bytes(struct pg_stmt *st, int i)
{
	const char *v = value(st, i);

	if (!v)
		return 0;
	if (PQftype(st->res, i) != BYTEAOID)
		return PQgetlength(st->res, st->row, i);
	return decoded(st, i, v)->len;
}

static int blob_fail(struct pg_conn *c, const char *msg)
{
	set_err(c, SQLITE_ERROR, msg);
	return SQLITE_ERROR;
}

/* A big-endian integer of a binary result. */
static int64_t be_int(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	if (n < 8 && n > 0 && (p[0] & 0x80))
		v -= (uint64_t)1 << (8 * n);
	return (int64_t)v;
}

/*
 * The length of blob b's value, and the value itself when small, in
 * one round trip: col of table t where k is b->key (all three escaped
 * identifiers).  SQLITE_OK or a code.
 */
static int blob_probe(struct pg_blob *b, const char *t, const char *col,
		      const char *k)
{
	struct pg_conn *c = b->c;
	const char *params[1] = { b->key };
	char *sql = xstrfmt("SELECT octet_length(%s)::int8, CASE WHEN "
			    "octet_length(%s) <= %d THEN %s END FROM %s "
			    "WHERE %s = $1", col, col, PG_BIG, col, t, k);
	PGresult *res = PQexecParams(c->pq, sql, 1, NULL, params, NULL, NULL,
				     1);
	int rc = SQLITE_OK;

	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		rc = fail_res(c, res);
	} else if (PQntuples(res) < 1) {
		rc = blob_fail(c, "no such row");
	} else if (PQgetisnull(res, 0, 0)) {
		rc = blob_fail(c, "cannot open value of type null");
	} else {
		b->bytes = be_int((const unsigned char *)PQgetvalue(res, 0, 0),
				  PQgetlength(res, 0, 0));
		if (!PQgetisnull(res, 0, 1)) {
			b->data = xmalloc((size_t)b->bytes + 1);
			memcpy(b->data, PQgetvalue(res, 0, 1),
			       (size_t)b->bytes);
		}
	}
	PQclear(res);
	free(sql);
	return rc;
}

int pg_blob_open(struct pg_conn *c, const char *table, const char *column,
		 const char *key, int64_t row, struct pg_blob **out)
{
	char *t = NULL, *col = NULL, *k = NULL;
	struct pg_blob *b = NULL;
	int rc;

	*out = NULL;
	rc = pg_flush(c);	/* the row may be among them */
	if (rc != SQLITE_OK)
		return rc;
	clear_err(c);
	t = PQescapeIdentifier(c->pq, table, strlen(table));
	col = PQescapeIdentifier(c->pq, column, strlen(column));
	k = PQescapeIdentifier(c->pq, key, strlen(key));
	if (!t || !col || !k) {
		rc = fail_res(c, NULL);
		goto out;
	}
	b = xcalloc(1, sizeof(*b));
	b->c = c;
	snprintf(b->key, sizeof(b->key), "%" PRId64, row);
	rc = blob_probe(b, t, col, k);
	if (rc != SQLITE_OK)
		goto out;
	b->sql = xstrfmt("SELECT substring(%s FROM $2::int4 FOR "
			 "$3::int4) FROM %s WHERE %s = $1", col, t, k);
	*out = b;
	b = NULL;
out:
	PQfreemem(t);
	PQfreemem(col);
	PQfreemem(k);
	if (b) {
		free(b->data);
		free(b);
	}
	return rc;
}

int64_t pg_blob_bytes(struct pg_blob *b)
{
	return b->bytes;
}

int pg_blob_read(struct pg_blob *b, void *buf, int n, int64_t offset)
{
	struct pg_conn *c = b->c;
	const char *params[3];
	char from[24], len[16];
	PGresult *res;
	int rc = SQLITE_OK;

	if (n < 0 || offset < 0 || offset > b->bytes || n > b->bytes - offset)
		return blob_fail(c, "read past the end of the blob");
	clear_err(c);
	if (b->data) {
		memcpy(buf, b->data + offset, (size_t)n);
		return SQLITE_OK;
	}
	if (!n)
		return SQLITE_OK;
	snprintf(from, sizeof(from), "%" PRId64, offset + 1);
	snprintf(len, sizeof(len), "%d", n);
	params[0] = b->key;
	params[1] = from;
	params[2] = len;
	res = PQexecParams(c->pq, b->sql, 3, NULL, params, NULL, NULL, 1);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = fail_res(c, res);
	else if (PQntuples(res) < 1)
		rc = blob_fail(c, "no such row");
	else if (PQgetisnull(res, 0, 0) || PQgetlength(res, 0, 0) != n)
		rc = blob_fail(c, "the blob changed while it was read");
	else
		memcpy(buf, PQgetvalue(res, 0, 0), (size_t)n);
	PQclear(res);
	return rc;
}

void pg_blob_close(struct pg_blob *b)
{
	if (!b)
		return;
	free(b->sql);
	free(b->data);
	free(b);
}
