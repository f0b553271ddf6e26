/*
 * t-pg.c - lib/store/pg.c against a real server: the connection URI is
 * $PERFSIFT_TEST_PG (tests/t7010-pg-driver.sh starts a throwaway server
 * and sets it); without it the test is skipped.  Values go in through
 * prepared INSERTs and through COPY and come back bit for bit: doubles
 * (specials and 10,000 seeded bit patterns), int64 extremes, text with
 * every character COPY escapes, blobs of all 256 bytes, small and past
 * the 4 MiB line of pg_blob_open(); then the error codes, transactions,
 * interleaved statements and a connection the server kills.
 */
#include "store/pg.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "test-lib.h"
#include "../xorshift.h"

#define NRANDOM 10000
#define BIG_BLOB ((5 << 20) + 3)	/* past pg.c's 4 MiB */
#define BIG_BLOB_TEXT "5242883"

static const char *url;
static struct pg_conn *c;

#define check_ok(call) check_int(SQLITE_OK, (call))

/* Prepare sql, which must work. */
static struct pg_stmt *prep(const char *sql)
{
	struct pg_stmt *st = pg_prepare(c, sql);

	if (!check(st != NULL))
		test_msg("prepare '%s': %s", sql, pg_errmsg(c));
	return st;
}

/* The one integer sql returns; -999 (and a failure) if none. */
static int64_t query_int(const char *sql)
{
	struct pg_stmt *st = prep(sql);
	int64_t v = -999;

	if (!st)
		return v;
	if (check_int(SQLITE_ROW, pg_step(st)))
		v = pg_column_int64(st, 0);
	else
		test_msg("'%s': %s", sql, pg_errmsg(c));
	pg_finalize(st);
	return v;
}

static uint64_t bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

/*
 * The doubles: specials, then seeded bit patterns (any sign, exponent,
 * denormals, infinities; NaNs, which go in as NULL).
 */
static double *make_doubles(int *n)
{
	static const double special[] = {
		0.1, 0.2, 0.3, 1e308, -1e308, 5e-324, -5e-324, 0.0, -0.0,
		DBL_MAX, -DBL_MAX, DBL_MIN, DBL_MIN / 3, DBL_EPSILON,
		1.0 / 3, 2.0 / 3, 9007199254740993.0, 123456789.123456789,
		1e-300, 1e22, 1e23, INFINITY, -INFINITY, NAN,
	};
	int ns = (int)(sizeof(special) / sizeof(special[0]));
	double *v = malloc((size_t)(ns + NRANDOM) * sizeof(*v));
	uint64_t state = 20261201;
	int i;

	memcpy(v, special, sizeof(special));
	for (i = 0; i < NRANDOM; i++) {
		uint64_t b = xorshift64s(&state);

		memcpy(&v[ns + i], &b, sizeof(double));
	}
	*n = ns + NRANDOM;
	return v;
}

/* Read back table(id, d) and compare with v, bit for bit. */
static void check_doubles(const char *sql, const double *v, int n)
{
	struct pg_stmt *st = prep(sql);
	int i = 0, bad = 0, rc;

	if (!st)
		return;
	while ((rc = pg_step(st)) == SQLITE_ROW) {
		int64_t id = pg_column_int64(st, 0);
		int isnull = pg_column_type(st, 1) == SQLITE_NULL;
		double got = pg_column_double(st, 1);

		if (id != i || (isnan(v[i]) ? !isnull :
		    isnull || bits(got) != bits(v[i]))) {
			if (bad++ < 5)
				test_fail("row %d (id %" PRId64 "): expected "
					  "%.17g, got %.17g%s", i, id, v[i],
					  got, isnull ? " (NULL)" : "");
		}
		if (!isnull && pg_column_type(st, 1) != SQLITE_FLOAT &&
		    bad++ < 5)
			test_fail("row %d: type %d", i, pg_column_type(st, 1));
		i++;
	}
	check_int(SQLITE_DONE, rc);
	check_int(n, i);
	check_int(0, bad);
	pg_finalize(st);
}

TEST(connect_failures)
{
	char *why = NULL;
	struct pg_conn *bad;
	PQconninfoOption *opts, *o;
	const char *host = NULL, *port = NULL;
	char info[1024];

	bad = pg_connect("postgresql:///postgres?"
			 "host=/nonexistent-perfsift-dir&port=1", &why);
	check(bad == NULL);
	if (check(why != NULL)) {
		check(strstr(why, "nonexistent-perfsift-dir") != NULL);
		check(why[strlen(why) - 1] != '\n');
	}
	free(why);

	/* a role the server does not know, on the test's own server */
	opts = PQconninfoParse(url, NULL);
	if (!check(opts != NULL))
		return;
	for (o = opts; o->keyword; o++) {
		if (!strcmp(o->keyword, "host") && o->val)
			host = o->val;
		if (!strcmp(o->keyword, "port") && o->val)
			port = o->val;
	}
	snprintf(info, sizeof(info), "host='%s' port='%s' dbname=postgres "
		 "user=no_such_role_t_pg", host ? host : "",
		 port ? port : "5432");
	why = NULL;
	bad = pg_connect(info, &why);
	check(bad == NULL);
	if (check(why != NULL) &&
	    !check(strstr(why, "role \"no_such_role_t_pg\" does not exist")))
		test_msg("why: %s", why);
	free(why);
	PQconninfoFree(opts);
}

TEST(schema)
{
	check_ok(pg_exec(c, "DROP TABLE IF EXISTS tpg_vals, tpg_copy, "
			 "tpg_nn, tpg_other, tpg_blobs"));
	check_ok(pg_exec(c,
		"CREATE TABLE tpg_vals (id bigint PRIMARY KEY, i bigint, "
		"d double precision, t text, b bytea, f boolean);"
		"CREATE TABLE tpg_copy (id bigint PRIMARY KEY, i bigint, "
		"d double precision, t text, b bytea, f boolean);"
		"CREATE TABLE tpg_nn (a bigint NOT NULL, b text);"
		"CREATE TABLE tpg_other (x bigint);"
		"CREATE TABLE tpg_blobs (run_id bigint PRIMARY KEY, "
		"data bytea)"));
	/* IF NOT EXISTS says NOTICE, which must stay off stderr */
	check_ok(pg_exec(c, "CREATE TABLE IF NOT EXISTS tpg_other (x bigint)"));
	check_int(SQLITE_OK, pg_errcode(c));
	check_str("", pg_errmsg(c));
}

TEST(doubles)
{
	struct pg_stmt *ins, *cp;
	double *v;
	int n, i;

	v = make_doubles(&n);
	check_ok(pg_exec(c, "BEGIN"));
	ins = prep("INSERT INTO tpg_vals(id, d) VALUES (?, ?)");
	cp = pg_prepare_copy(c, "tpg_copy", "id, d");
	if (!ins || !cp)
		goto out;
	check_int(2, pg_bind_parameter_count(ins));
	check_int(2, pg_bind_parameter_count(cp));
	for (i = 0; i < n; i++) {
		int rc;

		pg_bind_int64(ins, 1, i);
		pg_bind_double(ins, 2, v[i]);
		rc = pg_step(ins);
		pg_reset(ins);
		if (rc != SQLITE_DONE) {
			check_int(SQLITE_DONE, rc);
			test_msg("insert %d (%.17g): %s", i, v[i],
				 pg_errmsg(c));
			break;
		}
		pg_bind_int64(cp, 1, i);
		pg_bind_double(cp, 2, v[i]);
		rc = pg_step(cp);
		pg_reset(cp);
		if (rc != SQLITE_DONE) {
			check_int(SQLITE_DONE, rc);
			test_msg("copy %d: %s", i, pg_errmsg(c));
			break;
		}
	}
	check_int(1, pg_changes(c));
	check_ok(pg_exec(c, "COMMIT"));
	check_doubles("SELECT id, d FROM tpg_vals ORDER BY id", v, n);
	check_doubles("SELECT id, d FROM tpg_copy ORDER BY id", v, n);
	/* the NaN went in as NULL, the infinities as themselves */
	check_int(1, query_int("SELECT count(*) FROM tpg_copy "
			       "WHERE d IS NULL AND id = 23"));
	check_int(1, query_int("SELECT count(*) FROM tpg_vals "
			       "WHERE d = 'Infinity'::float8 AND id = 21"));
	check_int(1, query_int("SELECT count(*) FROM tpg_copy "
			       "WHERE d = '-Infinity'::float8 AND id = 22"));
	check_int(1, query_int("SELECT count(*) FROM tpg_vals "
			       "WHERE d = 0.1::float8 AND id = 0"));
out:
	pg_finalize(ins);
	pg_finalize(cp);
	free(v);
}

TEST(integers)
{
	static const int64_t v[] = {
		INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX,
		4294967296LL, -2147483649LL,
	};
	struct pg_stmt *up, *sel;
	size_t i;

	up = prep("UPDATE tpg_vals SET i = ? WHERE id = ?");
	sel = prep("SELECT i, i::float8, d FROM tpg_vals WHERE id = ?");
	if (!up || !sel)
		goto out;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		pg_bind_int64(up, 1, v[i]);
		pg_bind_int64(up, 2, (int64_t)i);
		check_int(SQLITE_DONE, pg_step(up));
		pg_reset(up);
		check_int(1, pg_changes(c));
		pg_bind_int64(sel, 1, (int64_t)i);
		if (check_int(SQLITE_ROW, pg_step(sel))) {
			check_int(SQLITE_INTEGER, pg_column_type(sel, 0));
			check_int(v[i], pg_column_int64(sel, 0));
			check_double_eq((double)v[i], pg_column_double(sel, 0));
			/* a float read as an integer: truncated, clamped */
			check_int(v[i] >= INT64_MAX - 1 ? INT64_MAX :
				  v[i] == INT64_MIN + 1 ? INT64_MIN : v[i],
				  pg_column_int64(sel, 1));
		}
		check_int(SQLITE_DONE, pg_step(sel));
		pg_reset(sel);
	}
	/* doubles truncated toward zero, as SQLite's column_int64 of a REAL */
	pg_finalize(sel);
	sel = prep("SELECT 3.9::float8, -3.9::float8, 1e300::float8, "
		   "'-Infinity'::float8, 'NaN'::float8, 12.75::numeric, "
		   "true, false, '42abc'::text");
	if (sel && check_int(SQLITE_ROW, pg_step(sel))) {
		check_int(3, pg_column_int64(sel, 0));
		check_int(-3, pg_column_int64(sel, 1));
		check_int(INT64_MAX, pg_column_int64(sel, 2));
		check_int(INT64_MIN, pg_column_int64(sel, 3));
		check_int(0, pg_column_int64(sel, 4));
		check(isnan(pg_column_double(sel, 4)));
		check(isinf(pg_column_double(sel, 3)) &&
		      pg_column_double(sel, 3) < 0);
		check_int(12, pg_column_int64(sel, 5));
		check_double_eq(12.75, pg_column_double(sel, 5));
		check_int(1, pg_column_int64(sel, 6));
		check_int(0, pg_column_int64(sel, 7));
		check_double_eq(1.0, pg_column_double(sel, 6));
		check_int(42, pg_column_int64(sel, 8));
	}
out:
	pg_finalize(up);
	pg_finalize(sel);
}

static const char *const texts[] = {
	"plain", "", "tab\there", "new\nline", "cr\rlf\r\n", "back\\slash",
	"\\N", "\\.", "'single' \"double\"",
	"h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9f\x98\x80", "?", "$1", "\\x41",
	"trailing\\",
	"\t\n\\\r mixed \\t \\n",
};

TEST(text)
{
	struct pg_stmt *ins, *cp, *sel;
	size_t i, n = sizeof(texts) / sizeof(texts[0]);
	int rc;

	ins = prep("UPDATE tpg_vals SET t = ? WHERE id = ?");
	cp = pg_prepare_copy(c, "tpg_copy", "id, t");
	sel = NULL;
	if (!ins)
		goto out;
	for (i = 0; i < n; i++) {
		pg_bind_text(ins, 1, texts[i], -1);
		pg_bind_int64(ins, 2, (int64_t)i);
		check_int(SQLITE_DONE, pg_step(ins));
		pg_reset(ins);
		check_int(1, pg_changes(c));
		pg_bind_int64(cp, 1, 100000 + (int64_t)i);
		/* len counts: only its first bytes go in */
		pg_bind_text(cp, 2, texts[i], (int)strlen(texts[i]));
		check_int(SQLITE_DONE, pg_step(cp));
		pg_reset(cp);
	}
	/* a NULL text next to the empty one */
	pg_bind_int64(cp, 1, 100000 + (int64_t)n);
	pg_bind_text(cp, 2, NULL, 0);
	check_int(SQLITE_DONE, pg_step(cp));
	pg_bind_int64(cp, 1, 100000 + (int64_t)n + 1);
	pg_bind_text(cp, 2, "abcdef", 3);
	check_int(SQLITE_DONE, pg_step(cp));
	check_ok(pg_flush(c));
	/* the copied rows beside the inserted ones */
	sel = prep("SELECT v.t, c.t, octet_length(c.t) FROM tpg_vals v "
		   "JOIN tpg_copy c ON c.id = v.id + 100000 WHERE v.id = ?");
	if (!sel)
		goto out;
	for (i = 0; i < n; i++) {
		pg_bind_int64(sel, 1, (int64_t)i);
		rc = pg_step(sel);
		if (!check_int(SQLITE_ROW, rc)) {
			test_msg("text %zu: %s", i, pg_errmsg(c));
			continue;
		}
		check_int(SQLITE_TEXT, pg_column_type(sel, 0));
		check_str(texts[i], (const char *)pg_column_text(sel, 0));
		check_str(texts[i], (const char *)pg_column_text(sel, 1));
		check_int(strlen(texts[i]), pg_column_bytes(sel, 1));
		check_int(strlen(texts[i]), pg_column_int64(sel, 2));
		check_int(SQLITE_DONE, pg_step(sel));
		pg_reset(sel);
	}
	pg_finalize(sel);
	sel = prep("SELECT t FROM tpg_copy WHERE id = ?");
	if (!sel)
		goto out;
	pg_bind_int64(sel, 1, 100000 + (int64_t)n);
	if (check_int(SQLITE_ROW, pg_step(sel))) {
		check_int(SQLITE_NULL, pg_column_type(sel, 0));
		check(pg_column_text(sel, 0) == NULL);
		check_int(0, pg_column_bytes(sel, 0));
	}
	pg_reset(sel);
	pg_bind_int64(sel, 1, 100000 + (int64_t)n + 1);
	if (check_int(SQLITE_ROW, pg_step(sel)))
		check_str("abc", (const char *)pg_column_text(sel, 0));
out:
	pg_finalize(ins);
	pg_finalize(cp);
	pg_finalize(sel);
}

/* The test blob of n bytes: every byte value, then a pattern. */
static unsigned char *blob_of(size_t n, unsigned seed)
{
	unsigned char *b = malloc(n ? n : 1);
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = i < 256 ? (unsigned char)(i + seed) :
			(unsigned char)((i * 2654435761u) >> 13 ^ seed);
	return b;
}

/* pg_blob_open/read of run_id key in tpg_blobs against want. */
static void check_blob_io(int64_t key, const unsigned char *want, size_t n,
			  int piece)
{
	struct pg_blob *b = NULL;
	unsigned char *got = malloc(n + 1);
	size_t off;
	int rc = pg_blob_open(c, "tpg_blobs", "data", "run_id", key, &b);

	if (!check_int(SQLITE_OK, rc)) {
		test_msg("blob_open %" PRId64 ": %s", key, pg_errmsg(c));
		free(got);
		return;
	}
	check_int(n, pg_blob_bytes(b));
	for (off = 0; off < n; off += (size_t)piece) {
		int k = n - off < (size_t)piece ? (int)(n - off) : piece;

		rc = pg_blob_read(b, got + off, k, (int64_t)off);
		if (!check_int(SQLITE_OK, rc)) {
			test_msg("read %d at %zu: %s", k, off, pg_errmsg(c));
			break;
		}
	}
	check(memcmp(want, got, n) == 0);
	/* an odd piece from the middle, and reads past the end */
	if (n > 10) {
		check_ok(pg_blob_read(b, got, 5, (int64_t)n / 2 - 1));
		check(memcmp(want + n / 2 - 1, got, 5) == 0);
	}
	check_int(SQLITE_ERROR, pg_blob_read(b, got, 2, (int64_t)n - 1));
	check_int(SQLITE_ERROR, pg_blob_read(b, got, 1, (int64_t)n));
	check_int(SQLITE_ERROR, pg_blob_read(b, got, 1, -1));
	check_ok(pg_blob_read(b, got, 0, (int64_t)n));
	pg_blob_close(b);
	free(got);
}

TEST(blobs)
{
	unsigned char *small = blob_of(256, 0), *rev = blob_of(256, 128);
	unsigned char *big = blob_of(BIG_BLOB, 7);
	unsigned char *big2 = blob_of(BIG_BLOB, 99);
	struct pg_stmt *ins, *cp, *sel;
	struct pg_blob *b;
	int i;

	ins = prep("INSERT INTO tpg_blobs(run_id, data) VALUES (?, ?)");
	cp = pg_prepare_copy(c, "tpg_blobs", "run_id, data");
	if (!ins)
		goto out;
	pg_bind_int64(ins, 1, 1);
	pg_bind_blob(ins, 2, small, 256);
	check_int(SQLITE_DONE, pg_step(ins));
	pg_reset(ins);
	pg_bind_int64(ins, 1, 2);
	pg_bind_blob(ins, 2, big, BIG_BLOB);
	check_int(SQLITE_DONE, pg_step(ins));
	pg_reset(ins);
	pg_bind_int64(ins, 1, 3);
	pg_bind_blob(ins, 2, "", 0);	/* empty, not NULL */
	check_int(SQLITE_DONE, pg_step(ins));
	pg_reset(ins);
	pg_bind_int64(ins, 1, 4);
	pg_bind_blob(ins, 2, NULL, 0);
	check_int(SQLITE_DONE, pg_step(ins));

	pg_bind_int64(cp, 1, 11);
	pg_bind_blob(cp, 2, rev, 256);
	check_int(SQLITE_DONE, pg_step(cp));
	/* past 4 MiB of COPY text: sent by this step itself */
	pg_bind_int64(cp, 1, 12);
	pg_bind_blob(cp, 2, big2, BIG_BLOB);
	check_int(SQLITE_DONE, pg_step(cp));
	check_int(2, query_int("SELECT count(*) FROM tpg_blobs "
			       "WHERE run_id > 10"));
	pg_bind_int64(cp, 1, 13);
	pg_bind_blob(cp, 2, "", 0);
	check_int(SQLITE_DONE, pg_step(cp));
	check_ok(pg_flush(c));

	sel = prep("SELECT data, octet_length(data) FROM tpg_blobs "
		   "WHERE run_id = ?");
	if (!sel)
		goto out;
	{
		static const struct { int64_t id; int n; int which; } rows[] = {
			{ 1, 256, 0 }, { 2, BIG_BLOB, 1 }, { 3, 0, 0 },
			{ 11, 256, 2 }, { 12, BIG_BLOB, 3 }, { 13, 0, 0 },
		};
		const unsigned char *want[] = { small, big, rev, big2 };

		for (i = 0; i < (int)(sizeof(rows) / sizeof(rows[0])); i++) {
			pg_bind_int64(sel, 1, rows[i].id);
			if (!check_int(SQLITE_ROW, pg_step(sel)))
				continue;
			check_int(SQLITE_BLOB, pg_column_type(sel, 0));
			check_int(rows[i].n, pg_column_bytes(sel, 0));
			check(pg_column_blob(sel, 0) != NULL);
			if (rows[i].n)
				check(!memcmp(want[rows[i].which],
					      pg_column_blob(sel, 0),
					      (size_t)rows[i].n));
			check_int(rows[i].n, pg_column_int64(sel, 1));
			/* not a bytea: its text */
			check_int(snprintf(NULL, 0, "%d", rows[i].n),
				  pg_column_bytes(sel, 1));
			pg_reset(sel);
		}
		pg_bind_int64(sel, 1, 4);
		if (check_int(SQLITE_ROW, pg_step(sel))) {
			check_int(SQLITE_NULL, pg_column_type(sel, 0));
			check(pg_column_blob(sel, 0) == NULL);
			check_int(0, pg_column_bytes(sel, 0));
		}
	}
	pg_finalize(sel);

	check_blob_io(1, small, 256, 7);
	check_blob_io(11, rev, 256, 256);
	check_blob_io(3, (const unsigned char *)"", 0, 1);
	check_blob_io(2, big, BIG_BLOB, 1 << 20);
	check_blob_io(12, big2, BIG_BLOB, 3000001);
	b = NULL;
	check_int(SQLITE_ERROR, pg_blob_open(c, "tpg_blobs", "data", "run_id",
					     99, &b));
	check_str("no such row", pg_errmsg(c));
	check(b == NULL);
	check_int(SQLITE_ERROR, pg_blob_open(c, "tpg_blobs", "data", "run_id",
					     4, &b));
	check_int(SQLITE_ERROR, pg_blob_open(c, "tpg_blobs", "nodata", "run_id",
					     1, &b));
	check(strstr(pg_errmsg(c), "nodata") != NULL);
out:
	pg_finalize(ins);
	pg_finalize(cp);
	free(small);
	free(rev);
	free(big);
	free(big2);
}

TEST(placeholders)
{
	struct pg_stmt *st;

	st = prep("SELECT '?' || ?::text AS \"a?b\", E'\\'?' -- what? \n"
		  ", $$ ? $$, $x$ '? $x$, /* ? /* ? */ ? */ ?::int8");
	if (st) {
		check_int(2, pg_bind_parameter_count(st));
		check_int(5, pg_column_count(st));
		pg_bind_text(st, 1, "x", 1);
		pg_bind_int64(st, 2, 7);
		if (check_int(SQLITE_ROW, pg_step(st))) {
			check_str("?x", (const char *)pg_column_text(st, 0));
			check_str("'?", (const char *)pg_column_text(st, 1));
			check_str(" ? ", (const char *)pg_column_text(st, 2));
			check_str(" '? ", (const char *)pg_column_text(st, 3));
			check_int(7, pg_column_int64(st, 4));
		}
		pg_finalize(st);
	}
	/* SQLite's numbered ones, and a parameter left unbound is NULL */
	st = prep("SELECT ?2::int8, ?1::int8, ?::int8, ?5::int8 IS NULL");
	if (st) {
		check_int(5, pg_bind_parameter_count(st));
		pg_bind_int64(st, 1, 10);
		pg_bind_int64(st, 2, 20);
		pg_bind_int64(st, 3, 30);
		pg_bind_int64(st, 9, 90);	/* out of range: ignored */
		if (check_int(SQLITE_ROW, pg_step(st))) {
			check_int(20, pg_column_int64(st, 0));
			check_int(10, pg_column_int64(st, 1));
			check_int(30, pg_column_int64(st, 2));
			check_int(1, pg_column_int64(st, 3));
		}
		/* the bindings stay after a reset */
		pg_reset(st);
		if (check_int(SQLITE_ROW, pg_step(st)))
			check_int(20, pg_column_int64(st, 0));
		pg_bind_null(st, 2);
		pg_reset(st);
		if (check_int(SQLITE_ROW, pg_step(st)))
			check_int(SQLITE_NULL, pg_column_type(st, 0));
		pg_finalize(st);
	}
	st = prep("SELECT 1");
	if (st) {
		check_int(0, pg_bind_parameter_count(st));
		pg_finalize(st);
	}
}

TEST(column_types)
{
	struct pg_stmt *st = prep("SELECT 1::int8, 2::int2, 3::int4, 4::oid, "
		"true, 1.5::float4, 2.5::float8, 3.5::numeric, 'x'::text, "
		"'\\x00ff'::bytea, NULL::int8, '2026-12-01'::date, "
		"'{1,2}'::int[], NULL::text");
	static const int want[] = {
		SQLITE_INTEGER, SQLITE_INTEGER, SQLITE_INTEGER, SQLITE_INTEGER,
		SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_FLOAT, SQLITE_FLOAT,
		SQLITE_TEXT, SQLITE_BLOB, SQLITE_NULL, SQLITE_TEXT,
		SQLITE_TEXT, SQLITE_NULL,
	};
	int i;

	if (!st)
		return;
	check_int(14, pg_column_count(st));	/* before the first step */
	if (check_int(SQLITE_ROW, pg_step(st))) {
		for (i = 0; i < 14; i++)
			if (!check_int(want[i], pg_column_type(st, i)))
				test_msg("column %d", i);
		check_int(2, pg_column_bytes(st, 9));
		check_str("2026-12-01", (const char *)pg_column_text(st, 11));
		check_str("{1,2}", (const char *)pg_column_text(st, 12));
		check_double_eq(1.5, pg_column_double(st, 5));
		check_double_eq(3.5, pg_column_double(st, 7));
		/* out of range: as SQLite, NULL */
		check_int(SQLITE_NULL, pg_column_type(st, 14));
		check(pg_column_text(st, -1) == NULL);
	}
	check_int(SQLITE_DONE, pg_step(st));
	/* no row: nothing to read */
	check_int(SQLITE_NULL, pg_column_type(st, 0));
	pg_finalize(st);
}

TEST(changes)
{
	struct pg_stmt *st;

	check_ok(pg_exec(c, "UPDATE tpg_vals SET f = id % 2 = 0 "
			 "WHERE id < 10"));
	check_int(10, pg_changes(c));
	st = prep("UPDATE tpg_vals SET f = NOT f WHERE id < ?");
	if (st) {
		pg_bind_int64(st, 1, 4);
		check_int(SQLITE_DONE, pg_step(st));
		check_int(4, pg_changes(c));
		pg_finalize(st);
	}
	/* a SELECT changes nothing */
	check_int(1, query_int("SELECT count(*) FROM tpg_vals "
			       "WHERE id = 1 AND f"));
	check_int(4, pg_changes(c));
	check_ok(pg_exec(c, "DELETE FROM tpg_other"));
	check_int(0, pg_changes(c));
	st = prep("SELECT f FROM tpg_vals WHERE id = 2");
	if (st && check_int(SQLITE_ROW, pg_step(st))) {
		check_int(SQLITE_INTEGER, pg_column_type(st, 0));
		check_int(0, pg_column_int64(st, 0));
		check_str("f", (const char *)pg_column_text(st, 0));
	}
	pg_finalize(st);
}

TEST(errors)
{
	struct pg_stmt *st;

	st = prep("INSERT INTO tpg_vals(id) VALUES (?)");
	if (st) {
		pg_bind_int64(st, 1, 1);
		check_int(SQLITE_CONSTRAINT, pg_step(st));
		check_int(SQLITE_CONSTRAINT, pg_errcode(c));
		check_str("duplicate key value violates unique constraint "
			  "\"tpg_vals_pkey\" (Key (id)=(1) already exists.)",
			  pg_errmsg(c));
		pg_reset(st);
		pg_bind_int64(st, 1, 777777);
		check_int(SQLITE_DONE, pg_step(st));
		check_int(SQLITE_OK, pg_errcode(c));
		check_str("", pg_errmsg(c));
		pg_finalize(st);
	}
	check_int(SQLITE_CONSTRAINT,
		  pg_exec(c, "INSERT INTO tpg_vals(id) VALUES (1)"));
	check_int(SQLITE_CONSTRAINT,
		  pg_exec(c, "INSERT INTO tpg_nn VALUES (NULL, 'x')"));
	check(strstr(pg_errmsg(c), "null value in column \"a\"") != NULL);

	st = pg_prepare(c, "SELEC 1");
	check(st == NULL);
	check_int(SQLITE_ERROR, pg_errcode(c));
	check_str("syntax error at or near \"SELEC\"", pg_errmsg(c));
	check(pg_prepare(c, "SELECT nope FROM tpg_vals") == NULL);
	check_str("column \"nope\" does not exist", pg_errmsg(c));
	check_int(SQLITE_ERROR, pg_exec(c, "SELEC 1"));
	check_int(SQLITE_ERROR, pg_exec(c, "SELECT 1/0"));
	check_str("division by zero", pg_errmsg(c));
	check_ok(pg_exec(c, "SELECT 1"));
	check_int(SQLITE_OK, pg_errcode(c));
}

TEST(copy_failures)
{
	struct pg_stmt *cp = pg_prepare_copy(c, "tpg_nn", "a, b");
	struct pg_stmt *other = pg_prepare_copy(c, "tpg_other", "x");
	struct pg_stmt *sel = prep("SELECT count(*) FROM tpg_nn");
	char *big;

	if (!sel)
		goto out;
	check_int(2, pg_bind_parameter_count(cp));
	check_int(0, pg_column_count(cp));
	check_ok(pg_flush(c));	/* nothing pending */

	/* the failure surfaces at the next statement's step */
	pg_bind_int64(cp, 1, 1);
	pg_bind_text(cp, 2, "ok", -1);
	check_int(SQLITE_DONE, pg_step(cp));
	pg_bind_null(cp, 1);
	check_int(SQLITE_DONE, pg_step(cp));
	check_int(SQLITE_CONSTRAINT, pg_step(sel));
	check(strstr(pg_errmsg(c), "null value in column \"a\"") != NULL);
	/* the rows are gone: the same step now runs */
	if (check_int(SQLITE_ROW, pg_step(sel)))
		check_int(0, pg_column_int64(sel, 0));
	pg_reset(sel);

	/* ... or at pg_flush */
	check_int(SQLITE_DONE, pg_step(cp));
	check_int(SQLITE_CONSTRAINT, pg_flush(c));
	check_int(SQLITE_CONSTRAINT, pg_errcode(c));
	check_ok(pg_flush(c));

	/* ... or at the COMMIT, which must then not commit */
	check_ok(pg_exec(c, "BEGIN"));
	check_int(1, pg_in_transaction(c));
	pg_bind_int64(cp, 1, 5);
	check_int(SQLITE_DONE, pg_step(cp));
	pg_bind_null(cp, 1);
	check_int(SQLITE_DONE, pg_step(cp));
	check_int(SQLITE_CONSTRAINT, pg_exec(c, "COMMIT"));
	check_int(1, pg_in_transaction(c));
	check_ok(pg_exec(c, "ROLLBACK"));
	check_int(0, pg_in_transaction(c));

	/* a ROLLBACK drops pending rows instead of sending them */
	check_ok(pg_exec(c, "BEGIN"));
	check_int(SQLITE_DONE, pg_step(cp));	/* a NULL a still */
	check_ok(pg_exec(c, "ROLLBACK"));
	check_int(0, pg_in_transaction(c));

	/* a step on another COPY target sends the first one's rows */
	pg_bind_int64(cp, 1, 6);
	check_int(SQLITE_DONE, pg_step(cp));
	pg_bind_int64(other, 1, 60);
	check_int(SQLITE_DONE, pg_step(other));
	pg_bind_int64(cp, 1, 7);
	check_int(SQLITE_DONE, pg_step(cp));
	check_int(SQLITE_DONE, pg_step(cp));
	check_ok(pg_flush(c));
	if (check_int(SQLITE_ROW, pg_step(sel)))
		check_int(3, pg_column_int64(sel, 0));
	pg_reset(sel);
	check_int(1, query_int("SELECT count(*) FROM tpg_other WHERE x = 60"));
	/* ... and its failure comes back from that step */
	pg_bind_null(cp, 1);
	check_int(SQLITE_DONE, pg_step(cp));
	check_int(SQLITE_CONSTRAINT, pg_step(other));
	check_int(SQLITE_DONE, pg_step(other));
	check_ok(pg_flush(c));
	check_int(2, query_int("SELECT count(*) FROM tpg_other WHERE x = 60"));

	/* a step that takes the rows past 4 MiB sends them, and says how */
	big = malloc(BIG_BLOB + 1);
	memset(big, 'x', BIG_BLOB);
	big[BIG_BLOB] = '\0';
	pg_bind_null(cp, 1);
	pg_bind_text(cp, 2, big, -1);
	check_int(SQLITE_CONSTRAINT, pg_step(cp));
	check_int(3, query_int("SELECT count(*) FROM tpg_nn"));
	pg_bind_int64(cp, 1, 9);
	check_int(SQLITE_DONE, pg_step(cp));
	check_int(1, query_int("SELECT count(*) FROM tpg_nn WHERE a = 9 AND "
			       "length(b) = " BIG_BLOB_TEXT));
	free(big);

	/* rows of a finalized COPY statement are still sent */
	pg_bind_int64(cp, 1, 8);
	pg_bind_text(cp, 2, "small", -1);
	check_int(SQLITE_DONE, pg_step(cp));
	pg_finalize(cp);
	cp = NULL;
	check_int(5, query_int("SELECT count(*) FROM tpg_nn"));
out:
	pg_finalize(cp);
	pg_finalize(other);
	pg_finalize(sel);
}

TEST(transactions)
{
	check_int(0, pg_in_transaction(c));
	check_ok(pg_exec(c, "BEGIN"));
	check_int(1, pg_in_transaction(c));
	check_ok(pg_exec(c, "INSERT INTO tpg_other VALUES (1), (2), (3)"));
	check_int(3, pg_changes(c));
	check_int(3, query_int("SELECT count(*) FROM tpg_other WHERE x < 10"));
	check_ok(pg_exec(c, "ROLLBACK"));
	check_int(0, pg_in_transaction(c));
	check_int(0, query_int("SELECT count(*) FROM tpg_other WHERE x < 10"));

	check_ok(pg_exec(c, "BEGIN; INSERT INTO tpg_other VALUES (4); COMMIT"));
	check_int(0, pg_in_transaction(c));
	check_int(1, query_int("SELECT count(*) FROM tpg_other WHERE x < 10"));

	/* a failed transaction is still one, until the ROLLBACK */
	check_ok(pg_exec(c, "BEGIN"));
	check_int(SQLITE_ERROR, pg_exec(c, "SELECT 1/0"));
	check_int(1, pg_in_transaction(c));
	check_int(SQLITE_ERROR, pg_exec(c, "SELECT 1"));
	check(strstr(pg_errmsg(c), "current transaction is aborted") != NULL);
	check_ok(pg_exec(c, "ROLLBACK"));
	check_int(0, pg_in_transaction(c));
}

TEST(interleaved)
{
	struct pg_stmt *a = prep("SELECT generate_series(1, 5)");
	struct pg_stmt *b = prep("SELECT generate_series(10, 12)");
	int64_t sum = 0;
	int rc;

	if (!a || !b)
		goto out;
	check_int(SQLITE_ROW, pg_step(a));
	check_int(1, pg_column_int64(a, 0));
	check_int(SQLITE_ROW, pg_step(a));
	while ((rc = pg_step(b)) == SQLITE_ROW)
		sum += pg_column_int64(b, 0);
	check_int(SQLITE_DONE, rc);
	check_int(33, sum);
	check_int(2, pg_column_int64(a, 0));
	sum = 0;
	while ((rc = pg_step(a)) == SQLITE_ROW)
		sum += pg_column_int64(a, 0);
	check_int(SQLITE_DONE, rc);
	check_int(12, sum);
	/* after DONE, a step starts over, as SQLite's does */
	check_int(SQLITE_ROW, pg_step(a));
	check_int(1, pg_column_int64(a, 0));
out:
	pg_finalize(a);
	pg_finalize(b);
}

TEST(terminated)
{
	char *why = NULL;
	struct pg_conn *victim = pg_connect(url, &why);
	struct pg_stmt *st, *kill;
	int64_t pid;

	if (!check(victim != NULL)) {
		test_msg("connect: %s", why);
		free(why);
		return;
	}
	st = pg_prepare(victim, "SELECT pg_backend_pid()");
	if (!check(st != NULL))
		goto out;
	check_int(SQLITE_ROW, pg_step(st));
	pid = pg_column_int64(st, 0);
	pg_reset(st);
	kill = prep("SELECT pg_terminate_backend(?::int4, 10000)");
	if (kill) {
		pg_bind_int64(kill, 1, pid);
		if (check_int(SQLITE_ROW, pg_step(kill)))
			check_int(1, pg_column_int64(kill, 0));
		pg_finalize(kill);
	}
	check_int(SQLITE_IOERR, pg_step(st));
	check_int(SQLITE_IOERR, pg_errcode(victim));
	check(*pg_errmsg(victim) != '\0');
	check(strchr(pg_errmsg(victim), '\n') == NULL);
	printf("# the killed connection said: %s\n", pg_errmsg(victim));
	check_int(SQLITE_IOERR, pg_exec(victim, "SELECT 1"));
	check(pg_prepare(victim, "SELECT 1") == NULL);
	check_int(SQLITE_IOERR, pg_errcode(victim));
out:
	pg_finalize(st);
	pg_close(victim);
}

int main(void)
{
	char *why = NULL;

	url = getenv("PERFSIFT_TEST_PG");
	if (!url || !*url) {
		printf("# SKIP PERFSIFT_TEST_PG is not set "
		       "(tests/t7010-pg-driver.sh sets it)\n");
		return test_done();
	}
	test_connect_failures();
	c = pg_connect(url, &why);
	if (!check(c != NULL)) {
		test_msg("connect %s: %s", url, why);
		free(why);
		return test_done();
	}
	test_schema();
	test_doubles();
	test_integers();
	test_text();
	test_blobs();
	test_placeholders();
	test_column_types();
	test_changes();
	test_errors();
	test_copy_failures();
	test_transactions();
	test_interleaved();
	test_terminated();
	check_ok(pg_exec(c, "DROP TABLE tpg_vals, tpg_copy, tpg_nn, "
			 "tpg_other, tpg_blobs"));
	pg_close(c);
	return test_done();
}
