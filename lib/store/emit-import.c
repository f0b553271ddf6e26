/*
 * The import's own rows (see emit-int.h): the statements every import
 * prepares, the imports row begun, hashed and deleted, the import's
 * format and meta; and the check that text going into the database is
 * valid.
 */
#include "core/compat.h"
#include "store/emit-int.h"
#include "core/sbuf.h"
#include <time.h>
#include <unistd.h>

/* ---- statements ---- */

/* SAMPLE_BATCH rows of a samples INSERT (struct import_ctx.pend) */
#define SAMPLE_ROW "(?,?,?,?,?)"
#define SAMPLE_ROWS4 SAMPLE_ROW "," SAMPLE_ROW "," SAMPLE_ROW "," SAMPLE_ROW
#define SAMPLE_ROWS8 SAMPLE_ROWS4 "," SAMPLE_ROWS4
#define SAMPLE_ROWS SAMPLE_ROWS8 "," SAMPLE_ROWS8
#if SAMPLE_BATCH != 16
#error "SAMPLE_ROWS has 16 rows"
#endif

/* The text of each import statement (enum db_stmt). */
static const char *const stmt_sql[ST_NR] = {
	[ST_INS_RUN] = "INSERT INTO runs(import_id, variant_id, suite, "
		"iteration, start_time, source_id, line) VALUES "
		"(?,?,?,?,?,?,?) RETURNING id",
	[ST_INS_PARAM] = "INSERT INTO variant_params(variant_id, key, "
		"value) VALUES (?,?,?) ON CONFLICT (variant_id, key) "
		"DO UPDATE SET value = excluded.value",
	[ST_INS_SAMPLE] = "INSERT INTO samples(run_id, metric_id, "
		"value, line, source_id) VALUES (?,?,?,?,?)",
	[ST_INS_SAMPLES4] = "INSERT INTO samples(run_id, metric_id, "
		"value, line, source_id) VALUES " SAMPLE_ROWS4,
	[ST_INS_SAMPLES8] = "INSERT INTO samples(run_id, metric_id, "
		"value, line, source_id) VALUES " SAMPLE_ROWS8,
	[ST_INS_SAMPLES] = "INSERT INTO samples(run_id, metric_id, "
		"value, line, source_id) VALUES " SAMPLE_ROWS,
	[ST_INS_DERIVED] = "INSERT INTO samples(run_id, metric_id, "
		"value, line, source_id, derived) VALUES (?,?,?,?,?,1) "
		"ON CONFLICT DO NOTHING",
	[ST_INS_SERIES] = "INSERT INTO series(run_id, metric_id, chunk, "
		"n, points, source_id, line, codec) VALUES "
		"(?,?,?,?,?,?,?,?)",
	[ST_INS_AGG] = "INSERT INTO aggregates(import_id, variant_id, "
		"suite, metric_id, stat, value, stddev, stddev_kind, "
		"stddev_source, n, marker, source_id, line, "
		"change_source, change_base) VALUES "
		"(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[ST_FIND_METRIC] = "SELECT id, unit IS NULL, kind FROM metrics "
		"WHERE name = ?",
	[ST_INS_METRIC] = "INSERT INTO metrics(name, unit, kind) "
		"VALUES (?,?,?) ON CONFLICT DO NOTHING RETURNING id",
	[ST_SET_UNIT] = "UPDATE metrics SET unit = ? WHERE id = ? AND "
		"unit IS NULL",
	[ST_SET_KIND] = "UPDATE metrics SET kind = ? WHERE id = ? AND "
		"kind IS NULL",
	[ST_NEXT_ITER] = "SELECT coalesce(max(iteration) + 1, 0) FROM "
		"runs WHERE variant_id = ?",
	[ST_FIND_VARIANT] = "SELECT id FROM variants WHERE label = ? "
		"AND kernel = ? AND commit_sha = ? AND machine = ? AND "
		"testcase = ? AND params = ?",
	[ST_INS_VARIANT] = "INSERT INTO variants(label, kernel, "
		"commit_sha, machine, testcase, params) VALUES "
		"(?,?,?,?,?,?) RETURNING id",
	[ST_INS_SOURCE] = "INSERT INTO sources(import_id, path) "
		"VALUES (?,?) RETURNING id",
	[ST_METRIC_INFO] = "SELECT name, coalesce(kind, 0) FROM "
		"metrics WHERE id = ?",
	/*
	 * The known shas a hex prefix abbreviates: a range of the
	 * indexes (every sha byte sorts below 'g'), not a scan
	 */
	[ST_RESOLVE_COMMIT] = "SELECT sha FROM commits WHERE sha >= ?1 "
		"AND sha < CAST(?1 AS TEXT) || 'g' UNION SELECT "
		"commit_sha FROM variants WHERE commit_sha >= ?1 AND "
		"commit_sha < CAST(?1 AS TEXT) || 'g' AND "
		"length(commit_sha) > length(CAST(?1 AS TEXT)) "
		"ORDER BY 1 LIMIT 20",
	/* run_values (store/values.c) */
	[ST_MAX_METRIC] = "SELECT coalesce(max(id), 0) FROM metrics",
	[ST_PACK_LIST] = "SELECT r.id, (SELECT count(*) FROM samples s "
		"WHERE s.run_id = r.id) FROM runs r WHERE r.import_id = ?",
	[ST_PACK_INS] = "INSERT INTO run_values(run_id, n, data) "
		"VALUES (?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET "
		"n = excluded.n, data = excluded.data",
	[ST_PACK_ROWS] = "SELECT metric_id, value, derived FROM samples "
		"WHERE run_id = ? ORDER BY metric_id",
	[ST_PACK_DEL] = "DELETE FROM run_values WHERE run_id = ?",
	[ST_HAS_SAMPLE] = "SELECT 1 FROM samples WHERE run_id = ? AND "
		"metric_id = (SELECT id FROM metrics WHERE name = ?)",
	[ST_SET_STATE] = "UPDATE metrics SET direction = "
		"coalesce(direction, ?1), summary = coalesce(summary, "
		"?2) WHERE id = ?3",
	[ST_INS_POSITION] = "INSERT INTO import_metrics(import_id, "
		"metric_id, position) VALUES (?,?,?) ON CONFLICT DO "
		"NOTHING",
	[ST_INS_HIST] = "INSERT INTO histograms(run_id, metric_id, n, "
		"bins, source_id, line) VALUES (?,?,?,?,?,?)",
	[ST_INS_IMPORT] = "INSERT INTO imports(path, sha256, format, "
		"size, file_size, imported_at, is_dir) VALUES "
		"(?,?,?,0,?,?,?) RETURNING id",
	[ST_FIND_HASH] = "SELECT 1 FROM imports WHERE sha256 = ?",
	[ST_SET_HASH] = "UPDATE imports SET sha256 = ?, size = ? WHERE "
		"id = ?",
	[ST_FIND_PATH] = "SELECT 1 FROM imports WHERE path = ? AND "
		"file_size = ?",
};

/* The import statements, prepared on first use and kept with the db. */
struct stmt *db_stmt(struct db *db, enum db_stmt which)
{
	if (!db->st[which])
		/* the one table of millions of rows: COPY on a server */
		db->st[which] = which == ST_INS_SAMPLE ?
			db_prepare_copy(db, "samples", "run_id, metric_id, "
					"value, line, source_id",
					stmt_sql[which]) :
			db_prepare_id(db, stmt_sql[which]);
	return db->st[which];
}

/* ---- the imports row ---- */

int db_import_begin(struct import_ctx *ctx, struct db *db, const char *path,
		    const char *format, int64_t file_size, int is_dir,
		    const struct import_overrides *ovr)
{
	struct stmt *st;
	struct timespec now;
	char pending[64];
	size_t i;

	memset(ctx, 0, sizeof(*ctx));
	ctx->db = db;
	ctx->path = path;
	ctx->ovr = ovr;
	ctx->derive_samples = 1;
	for (i = 0; i < ST_NR; i++)
		if (!db_stmt(db, i))
			return -1;

	st = db->st[ST_INS_IMPORT];
	/* the real hash is known only at the end; we hold the write lock */
	/*
	 * Unique among the importers of a server too, whose pids may be the
	 * same on two machines: the process and the time in ns.
	 */
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(pending, sizeof(pending),
		 PENDING_HASH_PREFIX "%ld-%lld.%09ld", (long)getpid(),
		 (long long)now.tv_sec, (long)now.tv_nsec);
	stmt_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
	stmt_bind_text(st, 2, pending, -1, SQLITE_TRANSIENT);
	stmt_bind_text(st, 3, format, -1, SQLITE_TRANSIENT);
	if (file_size >= 0)
		stmt_bind_int64(st, 4, file_size);
	else
		stmt_bind_null(st, 4);
	stmt_bind_int64(st, 5, (int64_t)time(NULL));
	stmt_bind_int(st, 6, !!is_dir);
	if (db_step_id(ctx, st, 0, &ctx->import_id))
		return -1;
	return 0;
}

/* Does the query st (bound) return a row?  1, 0, or -1 after error(). */
static int has_row(struct db *db, struct stmt *st, const char *path)
{
	int rc = stmt_step(st);

	stmt_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return db_fail(db, rc, path, 0);
}

int db_imported_path(struct db *db, const char *path, int64_t file_size)
{
	struct stmt *st = db_stmt(db, ST_FIND_PATH);

	if (!st)
		return -1;
	stmt_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
	stmt_bind_int64(st, 2, file_size);
	return has_row(db, st, path);
}

int db_imported_hash(struct db *db, const char *sha256_hex)
{
	struct stmt *st = db_stmt(db, ST_FIND_HASH);

	if (!st)
		return -1;
	stmt_bind_text(st, 1, sha256_hex, -1, SQLITE_TRANSIENT);
	return has_row(db, st, db->path);
}

int db_import_set_hash(struct import_ctx *ctx, const char *sha256_hex,
		       uint64_t size)
{
	struct stmt *st;
	int found, rc;

	NOT_RECORDING(ctx);
	found = db_imported_hash(ctx->db, sha256_hex);
	if (found)
		return found;
	st = ctx->db->st[ST_SET_HASH];
	stmt_bind_text(st, 1, sha256_hex, -1, SQLITE_TRANSIENT);
	stmt_bind_int64(st, 2, (int64_t)size);
	stmt_bind_int64(st, 3, ctx->import_id);
	rc = stmt_step(st);
	stmt_reset(st);
	/*
	 * The same content committed by another importer since the check
	 * (a server's writers hold one lock, so only if that lock was not
	 * taken): the unique hash says no, and the caller rolls back.
	 */
	if ((rc & 0xff) == SQLITE_CONSTRAINT)
		return 1;
	if (rc != SQLITE_DONE)
		return db_fail(ctx->db, rc, ctx->path, 0);
	return 0;
}

int db_import_delete(struct db *db, int64_t import_id)
{
	static const char *const sql[] = {
		"CREATE TEMP TABLE IF NOT EXISTS gone_variants(id INTEGER "
		"PRIMARY KEY)",
		"DELETE FROM gone_variants",
		"INSERT INTO gone_variants SELECT variant_id FROM "
		"runs WHERE import_id = ?1 UNION SELECT variant_id FROM "
		"aggregates WHERE import_id = ?1",
		"DELETE FROM samples WHERE run_id IN (SELECT id FROM runs "
		"WHERE import_id = ?1)",
		"DELETE FROM run_values WHERE run_id IN (SELECT id FROM runs "
		"WHERE import_id = ?1)",
		"DELETE FROM series WHERE run_id IN (SELECT id FROM runs "
		"WHERE import_id = ?1)",
		"DELETE FROM histograms WHERE run_id IN (SELECT id FROM runs "
		"WHERE import_id = ?1)",
		"DELETE FROM runs WHERE import_id = ?1",
		"DELETE FROM aggregates WHERE import_id = ?1",
		"DELETE FROM sources WHERE import_id = ?1",
		"DELETE FROM import_meta WHERE import_id = ?1",
		"DELETE FROM import_tables WHERE import_id = ?1",
		"DELETE FROM import_skips WHERE import_id = ?1",
		"DELETE FROM import_metrics WHERE import_id = ?1",
		"DELETE FROM imports WHERE id = ?1",
		"DELETE FROM gone_variants WHERE id IN (SELECT variant_id FROM "
		"runs) OR id IN (SELECT variant_id FROM aggregates)",
		"DELETE FROM variant_params WHERE variant_id IN (SELECT id "
		"FROM gone_variants)",
		"DELETE FROM variants WHERE id IN (SELECT id FROM "
		"gone_variants)",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sql); i++) {
		struct stmt *st = db_prepare(db, sql[i]);
		int rc;

		if (!st)
			return -1;
		if (stmt_bind_parameter_count(st))
			stmt_bind_int64(st, 1, import_id);
		rc = stmt_step(st);
		stmt_finalize(st);
		if (rc != SQLITE_DONE)
			return error("%s: %s", db->path,
				     db_errmsg(db));
	}
	/* ids cached for deleted variants are gone */
	strmap_clear(&db->variant_ids);
	return 0;
}

/* ---- text ---- */

/*
 * Text that goes into the database is valid UTF-8 without control
 * characters: every output (JSON, the text tables, stderr) can then show
 * it as it is, and a newline in a label cannot forge a line.  NULL
 * passes.  Returns 0, or -1 after error() naming what and where.
 */
int emit_check_text(struct import_ctx *ctx, long line, const char *what,
		    const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const char *why = NULL;

	if (!s)
		return 0;
	while (*p && !why) {
		unsigned c = *p;
		size_t n, i;
		uint32_t cp;

		if (c < 0x20 || c == 0x7f) {
			why = "a control character";
			break;
		}
		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			cp = c & 0x07;
		} else {
			why = "invalid UTF-8";
			break;
		}
		for (i = 1; i <= n; i++) {
			/* a NUL stops here too: never past the string */
			if ((p[i] & 0xc0) != 0x80) {
				why = "invalid UTF-8";
				break;
			}
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if (!why && ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)
			     || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)))
			why = "invalid UTF-8";
		if (why)
			break;	/* p stays on the offending byte */
		p += n + 1;
	}
	if (!why)
		return 0;
	if (line > 0)
		return error("%s:%ld: %s in the %s (byte %zu)", ctx->path, line,
			     why, what, (size_t)(p - (const unsigned char *)s) + 1);
	return error("%s: %s in the %s (byte %zu)", ctx->path, why, what,
		     (size_t)(p - (const unsigned char *)s) + 1);
}

/* ---- meta ---- */

int db_import_set_format(struct import_ctx *ctx, const char *format)
{
	struct stmt *st;
	int rc;

	NOT_RECORDING(ctx);
	st = db_prepare(ctx->db, "UPDATE imports SET format = ?1 WHERE id = ?2");
	if (!st)
		return -1;
	stmt_bind_text(st, 1, format, -1, SQLITE_TRANSIENT);
	stmt_bind_int64(st, 2, ctx->import_id);
	rc = stmt_step(st);
	stmt_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(ctx->db, rc, ctx->path, 0);
}

int db_import_meta(struct import_ctx *ctx, int message, const char *key,
		   const char *value)
{
	struct stmt *st;
	char *tabs, *p;
	int rc;

	NOT_RECORDING(ctx);
	if (!value || !*value)
		return 0;
	if (message > 0) {
		st = db_prepare(ctx->db, "UPDATE imports SET message = ?1 "
				"WHERE id = ?2");
		if (!st)
			return -1;
		stmt_bind_int(st, 1, message);
		stmt_bind_int64(st, 2, ctx->import_id);
		rc = stmt_step(st);
		stmt_finalize(st);
		if (rc != SQLITE_DONE)
			return db_fail(ctx->db, rc, ctx->path, 0);
	}
	/* an unfolded header keeps the tab it was folded with: a blank */
	tabs = xstrdup(value);
	for (p = tabs; *p; p++)
		if (*p == '\t')
			*p = ' ';
	if (emit_check_text(ctx, 0, key, tabs)) {
		free(tabs);
		return -1;
	}
	st = db_prepare(ctx->db, "INSERT INTO import_meta(import_id, key, value) "
			"VALUES (?1, ?2, ?3) ON CONFLICT (import_id, key) DO "
			"UPDATE SET value = excluded.value");
	if (!st) {
		free(tabs);
		return -1;
	}
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
	stmt_bind_text(st, 3, tabs, -1, SQLITE_TRANSIENT);
	rc = stmt_step(st);
	stmt_finalize(st);
	free(tabs);
	return rc == SQLITE_DONE ? 0 : db_fail(ctx->db, rc, ctx->path, 0);
}
