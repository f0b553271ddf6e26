/*
 * The emit API (see db.h): what importers write through.  Variants are
 * looked up or made once per identity (cached), runs and samples go
 * through prepared statements that are reused, and series are handed to
 * series.c, which packs and reduces them.
 */
#include "core/compat.h"
#include "store/db.h"
#include "store/emitlog.h"
#include "store/series.h"
#include "store/values.h"
#include "core/sbuf.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

/*
 * An import being recorded (emitlog.h) may not call this: checked before
 * anything reads ctx->db, which a recording has not
 */
#define NOT_RECORDING(ctx) do { \
	if ((ctx)->log) \
		BUG("%s() while an import records", __func__); \
} while (0)

/* ---- params ---- */

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/*
 * Merge file params with override params (overrides win) into a sorted
 * array without duplicate keys; later duplicates win.  The array is new
 * (caller frees); strings stay borrowed.
 */
static struct kv *params_merge(const struct kv *a, size_t na,
			       const struct kv *b, size_t nb, size_t *nr_out)
{
	struct kv *all = xmalloc((na + nb + 1) * sizeof(*all));
	size_t i, n = 0, out = 0;

	for (i = 0; i < na; i++)
		all[n++] = a[i];
	for (i = 0; i < nb; i++)
		all[n++] = b[i];
	/* stable: mergesort-like via insertion, n is small */
	for (i = 1; i < n; i++) {
		struct kv t = all[i];
		size_t j = i;

		while (j > 0 && kv_cmp(&all[j - 1], &t) > 0) {
			all[j] = all[j - 1];
			j--;
		}
		all[j] = t;
	}
	for (i = 0; i < n; i++) {
		if (out && !strcmp(all[out - 1].key, all[i].key))
			all[out - 1] = all[i];	/* later wins */
		else
			all[out++] = all[i];
	}
	*nr_out = out;
	return all;
}

static void canonical_into(struct sbuf *sb, const struct kv *p, size_t n)
{
	size_t i;

	/* "k=v,k=v": no printf, once per run of every import */
	for (i = 0; i < n; i++) {
		if (i)
			sbuf_addch(sb, ',');
		sbuf_addstr(sb, p[i].key);
		sbuf_addch(sb, '=');
		sbuf_addstr(sb, p[i].value);
	}
}

/* strings, each followed by the byte sep */
static void add_fields(struct sbuf *sb, char sep, const char *const *s,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sbuf_addstr(sb, s[i] ? s[i] : "");
		sbuf_addch(sb, sep);
	}
}

char *params_canonical(const struct kv *params, size_t nr)
{
	struct sbuf sb = SBUF_INIT;
	size_t n;
	struct kv *m = params_merge(params, nr, NULL, 0, &n);

	canonical_into(&sb, m, n);
	free(m);
	return sbuf_detach(&sb, NULL);
}

/* ---- import ---- */

static void bind_text_or_null(struct stmt *st, int i, const char *s)
{
	if (s && *s)
		stmt_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		stmt_bind_null(st, i);
}

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

const char *metric_kind_name(enum metric_kind k)
{
	switch (k) {
	case MK_COUNTER: return "counter";
	case MK_GAUGE: return "gauge";
	case MK_EXACT: return "exact";
	case MK_UNKNOWN: break;
	}
	return NULL;
}

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

static void tables_free(struct import_ctx *ctx);

void db_import_end(struct import_ctx *ctx)
{
	ctx->nr_pend = 0;
	values_held_free(ctx);
	free(ctx->seen);
	ctx->seen = NULL;
	ctx->seen_bytes = 0;
	ctx->seen_run = 0;
	series_buf_free(ctx->series);
	ctx->series = NULL;
	ctx->run_id = 0;
	tables_free(ctx);
}

void db_warn(struct import_ctx *ctx, long line, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	if (line > 0)
		sbuf_addf(&sb, "%s:%ld: ", ctx->path, line);
	else
		sbuf_addf(&sb, "%s: ", ctx->path);
	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (ctx->log) {
		/* said, and counted, when it is replayed */
		emit_log_msg(ctx->log, EMIT_WARN_COUNTED, sb.buf);
	} else {
		warning("%s", sb.buf);
		ctx->nr_warnings++;
	}
	sbuf_release(&sb);
}

/* ---- tables read from text ---- */

void db_table_begin(struct import_ctx *ctx, long line, const char *kind,
		    const char *title, int columns)
{
	struct text_table *t;

	ALLOC_GROW(ctx->tables, ctx->nr_tables + 1, ctx->alloc_tables);
	t = &ctx->tables[ctx->nr_tables++];
	memset(t, 0, sizeof(*t));
	t->line = line;
	snprintf(t->kind, sizeof(t->kind), "%s", kind);
	t->title = title && *title ? xstrdup(title) : NULL;
	t->columns = columns;
}

void db_table_row(struct import_ctx *ctx)
{
	if (ctx->nr_tables)
		ctx->tables[ctx->nr_tables - 1].rows_read++;
}

/*
 * s as the database keeps text: a tab becomes a blank, other control
 * characters and bytes that are not UTF-8 a '?' (a skipped row is kept
 * to be shown, not to be parsed again).  Returns a new string.
 */
static char *printable(const char *s)
{
	struct sbuf sb = SBUF_INIT;
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	while (left) {
		size_t n = utf8_seq(p, left);

		if (*p == '\t')
			sbuf_addch(&sb, ' ');
		else if (!n || *p < 0x20 || *p == 0x7f)
			sbuf_addch(&sb, '?');
		else
			sbuf_add(&sb, p, n);
		if (!n)
			n = 1;
		p += n;
		left -= n;
	}
	return sbuf_detach(&sb, NULL);
}

int db_skip_row(struct import_ctx *ctx, long line, const char *text,
		const char *fmt, ...)
{
	struct sbuf why = SBUF_INIT;
	struct stmt *st;
	char *row;
	va_list ap;
	int rc;

	NOT_RECORDING(ctx);
	va_start(ap, fmt);
	sbuf_vaddf(&why, fmt, ap);
	va_end(ap);
	if (ctx->strict) {
		rc = error("%s:%ld: %s", ctx->path, line, why.buf);
		sbuf_release(&why);
		return rc;
	}
	db_warn(ctx, line, "%s: row skipped", why.buf);
	if (ctx->nr_tables)
		ctx->tables[ctx->nr_tables - 1].rows_skipped++;
	ctx->nr_skips++;
	st = db_prepare(ctx->db, "INSERT INTO import_skips(import_id, seq, "
			"line, table_seq, reason, text) VALUES (?1, ?2, ?3, "
			"?4, ?5, ?6)");
	if (!st) {
		sbuf_release(&why);
		return -1;
	}
	row = printable(text);
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_int64(st, 2, ctx->nr_skips);
	stmt_bind_int64(st, 3, line);
	if (ctx->nr_tables)
		stmt_bind_int64(st, 4, (int64_t)ctx->nr_tables);
	else
		stmt_bind_null(st, 4);
	stmt_bind_text(st, 5, why.buf, -1, SQLITE_TRANSIENT);
	stmt_bind_text(st, 6, row, -1, SQLITE_TRANSIENT);
	rc = stmt_step(st);
	stmt_finalize(st);
	free(row);
	sbuf_release(&why);
	return rc == SQLITE_DONE ? 0 : db_fail(ctx->db, rc, ctx->path, line);
}

int db_tables_flush(struct import_ctx *ctx)
{
	struct stmt *st;
	size_t i;
	int rc = SQLITE_DONE;

	NOT_RECORDING(ctx);
	if (!ctx->nr_tables)
		return 0;
	st = db_prepare(ctx->db, "INSERT INTO import_tables(import_id, seq, "
			"line, kind, title, columns, rows_read, rows_skipped) "
			"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
	if (!st)
		return -1;
	for (i = 0; i < ctx->nr_tables && rc == SQLITE_DONE; i++) {
		const struct text_table *t = &ctx->tables[i];
		char *title = t->title ? printable(t->title) : NULL;

		stmt_bind_int64(st, 1, ctx->import_id);
		stmt_bind_int64(st, 2, (int64_t)i + 1);
		if (t->line > 0)
			stmt_bind_int64(st, 3, t->line);
		else
			stmt_bind_null(st, 3);
		stmt_bind_text(st, 4, t->kind, -1, SQLITE_TRANSIENT);
		bind_text_or_null(st, 5, title);
		stmt_bind_int(st, 6, t->columns);
		stmt_bind_int64(st, 7, t->rows_read);
		stmt_bind_int64(st, 8, t->rows_skipped);
		rc = stmt_step(st);
		stmt_reset(st);
		free(title);
	}
	stmt_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(ctx->db, rc, ctx->path, 0);
}

static void tables_free(struct import_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nr_tables; i++)
		free(ctx->tables[i].title);
	free(ctx->tables);
	ctx->tables = NULL;
	ctx->nr_tables = ctx->alloc_tables = 0;
}

/*
 * Text that goes into the database is valid UTF-8 without control
 * characters: every output (JSON, the text tables, stderr) can then show
 * it as it is, and a newline in a label cannot forge a line.  NULL
 * passes.  Returns 0, or -1 after error() naming what and where.
 */
static int check_text(struct import_ctx *ctx, long line, const char *what,
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

/* Pick the override if given, else what the file said. */
static const char *pick(const char *ovr, const char *file)
{
	return ovr ? ovr : file;
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static int is_hex_n(const char *s, size_t min, size_t max)
{
	size_t n = strlen(s), i;

	if (n < min || n > max)
		return 0;
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* The hex digits of a full SHA-1, and the fewest a prefix of one has. */
#define SHA1_HEX 40
#define COMMIT_PREFIX_MIN 7

/*
 * A commit given as a prefix of 7..39 hex digits (robot emails give 10)
 * becomes the one full sha the database knows (recorded commits first,
 * then the commits of variants), stays as given when none is known, and
 * is an error naming the candidates when several are.  *full is new or
 * NULL (keep the text).  Returns 0 or -1 after error().
 */
static int resolve_commit(struct import_ctx *ctx, const char *commit,
			  long line, char **full)
{
	struct stmt *st;
	char **cand = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0;

	*full = NULL;
	if (!is_hex_n(commit, COMMIT_PREFIX_MIN, SHA1_HEX - 1))
		return 0;
	st = db_stmt(ctx->db, ST_RESOLVE_COMMIT);
	if (!st)
		return -1;
	stmt_bind_text(st, 1, commit, -1, SQLITE_TRANSIENT);
	while (stmt_step(st) == SQLITE_ROW) {
		ALLOC_GROW(cand, nr + 1, alloc);
		cand[nr++] = xstrdup((const char *)stmt_column_text(st, 0));
	}
	stmt_reset(st);
	if (nr == 1) {
		*full = cand[0];
		free(cand);
		return 0;
	}
	if (nr > 1) {
		if (line > 0)
			ret = error("%s:%ld: commit '%s' is ambiguous; "
				    "candidates:", ctx->path, line, commit);
		else
			ret = error("%s: commit '%s' is ambiguous; candidates:",
				    ctx->path, commit);
		for (i = 0; i < nr; i++)
			fprintf(stderr, "    %s\n", cand[i]);
	}
	for (i = 0; i < nr; i++)
		free(cand[i]);
	free(cand);
	return ret;
}

/*
 * The input's own params: valid text, and a key given twice must give
 * one value (two `threads` columns saying 1 and 2 would otherwise keep
 * one of them in silence).  0, or -1 after error().
 */
static int check_params(struct import_ctx *ctx, long line,
			const struct kv *params, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		if (check_text(ctx, line, "parameter name", params[i].key) ||
		    check_text(ctx, line, "parameter value", params[i].value))
			return -1;
		for (j = 0; j < i; j++)
			if (!strcmp(params[i].key, params[j].key) &&
			    strcmp(params[i].value, params[j].value)) {
				if (line > 0)
					return error("%s:%ld: parameter '%s' "
						     "given twice: '%s' and "
						     "'%s'", ctx->path, line,
						     params[i].key,
						     params[j].value,
						     params[i].value);
				return error("%s: parameter '%s' given twice: "
					     "'%s' and '%s'", ctx->path,
					     params[i].key, params[j].value,
					     params[i].value);
			}
	}
	return 0;
}

/*
 * Overrides must not merge two variants the inputs tell apart (two
 * commits in a CSV, two runs of a work/log, the columns of a table).
 * --label, --kernel and --commit name one variant: two that would end in
 * the same row of a comparison (the same testcase, machine and params)
 * under them are merged by them.  --machine and --testcase name what the
 * variants share: they merge two only when those become one variant
 * altogether.  row is where this variant ends under the overrides, as
 * the rule for the flags given says; ctx->first_variant keeps, across
 * the results of one command, "row\x1enatural\x1d" per natural variant
 * seen.  0, or -1 after error() (a usage error).
 */
static int check_merge(struct import_ctx *ctx, const struct sbuf *natural,
		       const struct sbuf *row, const char *flags)
{
	struct sbuf entry = SBUF_INIT;
	const char *p;
	int ret = 0;

	if (!ctx->first_variant)
		BUG("overrides without a first_variant slot");
	sbuf_addf(&entry, "%s\x1e%s\x1d", row->buf, natural->buf);
	p = *ctx->first_variant ? *ctx->first_variant : "";
	if (strstr(p, entry.buf))
		goto out;	/* seen: this variant again */
	while (*p) {
		const char *rs = strchr(p, '\x1e'), *gs = strchr(p, '\x1d');

		if (!rs || !gs)
			BUG("first_variant '%s'", p);
		if ((size_t)(rs - p) == row->len &&
		    !memcmp(p, row->buf, row->len)) {
			error("%s: the input holds several variants (%.*s and "
			      "%s); %s would merge them: import it without "
			      "them", ctx->path, (int)(gs - rs - 1), rs + 1,
			      natural->buf, flags);
			ctx->usage_error = 1;
			ret = -1;
			goto out;
		}
		p = gs + 1;
	}
	{
		char *joined = xstrfmt("%s%s", *ctx->first_variant ?
				       *ctx->first_variant : "", entry.buf);

		free(*ctx->first_variant);
		*ctx->first_variant = joined;
	}
out:
	sbuf_release(&entry);
	return ret;
}

/*
 * A variant's columns, in the order of its key and of the parameters of
 * ST_FIND_VARIANT and ST_INS_VARIANT; a comparison's row is keyed by the
 * columns from VC_MACHINE on.
 */
enum variant_col {
	VC_LABEL, VC_KERNEL, VC_COMMIT, VC_MACHINE, VC_TESTCASE, VC_NR
};

/* The digits of a commit that make the label of a variant without one. */
#define LABEL_COMMIT_DIGITS 12

/*
 * The variant's text as the input (in) and the overrides give it: valid
 * text, each param once.  0 or -1 after error().
 */
static int check_variant(struct import_ctx *ctx, long line,
			 const char *const *in, const struct kv *params,
			 size_t nr_params, const struct import_overrides *o)
{
	return check_text(ctx, line, "label", in[VC_LABEL]) ||
	       check_text(ctx, line, "kernel", in[VC_KERNEL]) ||
	       check_text(ctx, line, "commit", in[VC_COMMIT]) ||
	       check_text(ctx, line, "machine", in[VC_MACHINE]) ||
	       check_text(ctx, line, "testcase", in[VC_TESTCASE]) ||
	       check_params(ctx, line, params, nr_params) ||
	       check_text(ctx, 0, "--label", o->label) ||
	       check_text(ctx, 0, "--kernel", o->kernel) ||
	       check_text(ctx, 0, "--machine", o->machine) ||
	       check_text(ctx, 0, "--testcase", o->testcase) ||
	       check_params(ctx, 0, o->params, o->nr_params) ? -1 : 0;
}

/* The variant as the input names it, before any override, into sb. */
static void variant_natural(struct sbuf *sb, const char *const *in,
			    const struct kv *params, size_t nr_params)
{
	char *canon = params_canonical(params, nr_params);

	add_fields(sb, '|', in, VC_NR);
	sbuf_addstr(sb, canon);
	free(canon);
}

/*
 * The columns col of the variant under the overrides: the commit as
 * resolve_commit() makes it (*full, new or NULL), the label defaulted
 * to the kernel, else to the commit's first digits (in short_commit, of
 * LABEL_COMMIT_DIGITS + 1 bytes).  0 or -1 after error().
 */
static int variant_columns(struct import_ctx *ctx,
			   const struct import_overrides *o,
			   const char *const *in, long line, const char **col,
			   char *short_commit, char **full)
{
	const char *commit = pick(o->commit, in[VC_COMMIT]), *kernel, *label;

	if (commit && *commit && resolve_commit(ctx, commit, line, full))
		return -1;
	if (*full)
		commit = *full;
	kernel = pick(o->kernel, in[VC_KERNEL]);
	label = pick(o->label, in[VC_LABEL]);
	if ((!label || !*label) && kernel && *kernel) {
		label = kernel;
	} else if ((!label || !*label) && commit && *commit) {
		snprintf(short_commit, LABEL_COMMIT_DIGITS + 1, "%s", commit);
		label = short_commit;
	}
	col[VC_LABEL] = label;
	col[VC_KERNEL] = kernel;
	col[VC_COMMIT] = commit;
	col[VC_MACHINE] = pick(o->machine, in[VC_MACHINE]);
	col[VC_TESTCASE] = pick(o->testcase, in[VC_TESTCASE]);
	return 0;
}

/* The columns and the params' text as the parameters of st. */
static void bind_variant(struct stmt *st, const char *const *col,
			 const char *canon)
{
	int i;

	for (i = 0; i < VC_NR; i++)
		stmt_bind_text(st, i + 1, or_empty(col[i]), -1,
			       SQLITE_TRANSIENT);
	stmt_bind_text(st, VC_NR + 1, canon, -1, SQLITE_TRANSIENT);
}

/*
 * The variant's row in the database, made with its params kv when it is
 * not there: *id.  0 or -1 after error().
 */
static int variant_row(struct import_ctx *ctx, const char *const *col,
		       const char *canon, const struct kv *kv, size_t nr_kv,
		       long line, int64_t *id)
{
	struct stmt *st = ctx->db->st[ST_FIND_VARIANT];
	size_t i;
	int rc;

	bind_variant(st, col, canon);
	rc = stmt_step(st);
	*id = rc == SQLITE_ROW ? stmt_column_int64(st, 0) : 0;
	stmt_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(ctx->db, rc, ctx->path, line);
	if (*id)
		return 0;
	st = ctx->db->st[ST_INS_VARIANT];
	bind_variant(st, col, canon);
	if (db_step_id(ctx, st, line, id))
		return -1;
	st = ctx->db->st[ST_INS_PARAM];
	for (i = 0; i < nr_kv; i++) {
		stmt_bind_int64(st, 1, *id);
		stmt_bind_text(st, 2, kv[i].key, -1, SQLITE_TRANSIENT);
		stmt_bind_text(st, 3, kv[i].value, -1, SQLITE_TRANSIENT);
		if (db_step_done(ctx, st, line))
			return -1;
	}
	return 0;
}

/*
 * The variant's key, its columns col and its params' text canon, into
 * key; with merging, what two variants must not share into row: the
 * row a comparison puts it in (selecting), or the variant itself.
 */
static void variant_key(struct sbuf *key, struct sbuf *row,
			const char *const *col, const char *canon, int merging,
			int selecting)
{
	add_fields(key, '\0', col, VC_NR);
	sbuf_addstr(key, canon);
	if (!merging)
		return;
	add_fields(row, '|', selecting ? col + VC_MACHINE : col,
		   selecting ? VC_NR - VC_MACHINE : VC_NR);
	sbuf_addstr(row, canon);
}

/*
 * Find or make the variant of these columns (overrides applied, default
 * label: the kernel, else the commit's first LABEL_COMMIT_DIGITS digits),
 * and check that overrides merge nothing.  Sets *id; 0 or -1 after
 * error().
 */
static int variant_id(struct import_ctx *ctx, const char *testcase,
		      const char *machine, const char *kernel,
		      const char *commit, const char *label,
		      const struct kv *params, size_t nr_params, long line,
		      int64_t *id)
{
	static const struct import_overrides none = { 0 };
	const struct import_overrides *o = ctx->ovr ? ctx->ovr : &none;
	const char *in[VC_NR] = { label, kernel, commit, machine, testcase };
	const char *col[VC_NR];
	struct sbuf key = SBUF_INIT, natural = SBUF_INIT, row = SBUF_INIT;
	struct sbuf canon = SBUF_INIT;
	char short_commit[LABEL_COMMIT_DIGITS + 1], *full = NULL;
	struct kv *kv = NULL;
	size_t nr_kv = 0;
	int64_t v;
	int ret = -1, merging, selecting;

	if (check_variant(ctx, line, in, params, nr_params, o))
		return -1;
	/* only overrides can merge two variants (check_merge()) */
	selecting = o->label || o->kernel || o->commit;
	merging = selecting || o->machine || o->testcase;
	if (merging)
		variant_natural(&natural, in, params, nr_params);
	if (variant_columns(ctx, o, in, line, col, short_commit, &full))
		goto out;
	kv = params_merge(params, nr_params, o->params, o->nr_params, &nr_kv);
	canonical_into(&canon, kv, nr_kv);
	variant_key(&key, &row, col, canon.buf, merging, selecting);
	if (merging && check_merge(ctx, &natural, &row, selecting ?
				   "--label, --kernel and --commit name one "
				   "variant and" : "--machine and --testcase"))
		goto out;
	if (strmap_get(&ctx->db->variant_ids, key.buf, key.len, id)) {
		ret = 0;
		goto out;
	}
	if (variant_row(ctx, col, canon.buf, kv, nr_kv, line, &v))
		goto out;
	if (ctx->db->variant_ids.nr >= DB_CACHE_MAX)
		strmap_clear(&ctx->db->variant_ids);	/* bounded memory */
	strmap_put(&ctx->db->variant_ids, key.buf, key.len, v);
	*id = v;
	ret = 0;
out:
	free(full);
	free(kv);
	sbuf_release(&canon);
	sbuf_release(&key);
	sbuf_release(&natural);
	sbuf_release(&row);
	return ret;
}

/* Insert the metric unless it is there: *id 0 if it was. */
static int insert_metric(struct import_ctx *ctx, const char *name, size_t len,
			 const char *unit, enum metric_kind kind, long line,
			 int64_t *id)
{
	struct stmt *st = ctx->db->st[ST_INS_METRIC];

	stmt_bind_text(st, 1, name, (int)len, SQLITE_TRANSIENT);
	bind_text_or_null(st, 2, unit);
	if (kind)
		stmt_bind_int(st, 3, (int)kind);
	else
		stmt_bind_null(st, 3);
	return db_step_id(ctx, st, line, id);
}

/*
 * The metric id cache holds id << KIND_BITS | kind: a kind stated once
 * is not looked up again (the first statement wins in the database too).
 */
#define KIND_BITS 2
#define KIND_MASK ((1 << KIND_BITS) - 1)
/* the kind cached for a metric whose kind the database has already */
#define KIND_RECORDED ((enum metric_kind)1)

/*
 * Give the recorded metric id the unit and the kind the database lacks
 * (the first file that knows one gives it); *kind becomes KIND_RECORDED
 * when the database has one.  0 or -1 after error().
 */
static int metric_fill(struct import_ctx *ctx, int64_t id, const char *unit,
		       int unit_null, int kind_null, enum metric_kind *kind,
		       long line)
{
	struct stmt *st;

	if (unit_null && unit && *unit) {
		st = ctx->db->st[ST_SET_UNIT];
		stmt_bind_text(st, 1, unit, -1, SQLITE_TRANSIENT);
		stmt_bind_int64(st, 2, id);
		if (db_step_done(ctx, st, line))
			return -1;
	}
	if (!kind_null)
		*kind = KIND_RECORDED;	/* known: cache it */
	if (kind_null && *kind) {
		st = ctx->db->st[ST_SET_KIND];
		stmt_bind_int(st, 1, (int)*kind);
		stmt_bind_int64(st, 2, id);
		if (db_step_done(ctx, st, line))
			return -1;
	}
	return 0;
}

/*
 * The id of a metric the cache does not know, found or made; *kind as
 * the cache is to keep it.  0 or -1 after error().
 */
static int metric_lookup(struct import_ctx *ctx, const char *name, size_t len,
			 const char *unit, enum metric_kind *kind, long line,
			 int64_t *id)
{
	struct db *db = ctx->db;
	struct stmt *st;
	int rc, unit_null = 0, kind_null = 0;

	/*
	 * After a new name the next miss is likely new too (the first import
	 * of a file's metrics): insert it first, and look it up only if the
	 * insert found the name there.  One statement instead of two.
	 */
	if (db->metric_miss_new) {
		if (insert_metric(ctx, name, len, unit, *kind, line, id))
			return -1;
		if (*id)
			return 0;
	}
	st = db->st[ST_FIND_METRIC];
	stmt_bind_text(st, 1, name, (int)len, SQLITE_TRANSIENT);
	rc = stmt_step(st);
	if (rc == SQLITE_ROW) {
		*id = stmt_column_int64(st, 0);
		unit_null = stmt_column_int(st, 1);
		kind_null = stmt_column_type(st, 2) == SQLITE_NULL;
	}
	stmt_reset(st);
	db->metric_miss_new = rc == SQLITE_DONE;
	if (rc == SQLITE_ROW)
		return metric_fill(ctx, *id, unit, unit_null, kind_null, kind,
				   line);
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, ctx->path, line);
	if (insert_metric(ctx, name, len, unit, *kind, line, id))
		return -1;
	/* not there, yet not inserted: a constraint said no */
	if (!*id)
		return error("%s:%ld: database: metric '%s' refused",
			     ctx->path, line, name);
	return 0;
}

static int metric_id(struct import_ctx *ctx, const char *name,
		     const char *unit, enum metric_kind kind, long line,
		     int64_t *id)
{
	struct db *db = ctx->db;
	size_t len = strlen(name);
	int64_t cached;

	if (strmap_get(&db->metric_ids, name, len, &cached) &&
	    (!kind || (cached & KIND_MASK))) {
		*id = cached >> KIND_BITS;
		return 0;
	}
	if (!len || strspn(name, " \t") == len)
		return error("%s:%ld: %s metric name", ctx->path, line,
			     len ? "blank" : "empty");
	if (check_text(ctx, line, "metric name", name) ||
	    check_text(ctx, line, "unit", unit) ||
	    metric_lookup(ctx, name, len, unit, &kind, line, id))
		return -1;
	if (db->metric_ids.nr >= DB_CACHE_MAX)
		strmap_clear(&db->metric_ids);	/* bounded memory */
	strmap_put(&db->metric_ids, name, len, *id << KIND_BITS |
		   (int64_t)kind);
	return 0;
}

int db_set_kind(struct import_ctx *ctx, const char *metric,
		enum metric_kind kind, long line)
{
	int64_t id;

	NOT_RECORDING(ctx);
	return metric_id(ctx, metric, NULL, kind, line, &id);
}

int db_emit_histogram(struct import_ctx *ctx, const char *metric,
		      const char *unit, const double *value,
		      const double *count, size_t n, long line)
{
	struct db *db = ctx->db;
	struct stmt *st;
	unsigned char *blob;
	int64_t id;
	size_t i;
	int ret;

	if (ctx->log)
		return emit_log_histogram(ctx->log, metric, unit, value, count,
					  n, line);
	if (!ctx->run_id)
		BUG("db_emit_histogram() without a run");
	if (metric_id(ctx, metric, unit, MK_UNKNOWN, line, &id))
		return -1;
	st = db_stmt(db, ST_INS_HIST);
	if (!st)
		return -1;
	blob = xmalloc(n ? n * SERIES_RAW_POINT : 1);
	for (i = 0; i < n; i++)
		/* little-endian doubles, as the series' points */
		series_put_point(blob, i, value[i], count[i]);
	stmt_bind_int64(st, 1, ctx->run_id);
	stmt_bind_int64(st, 2, id);
	stmt_bind_int64(st, 3, (int64_t)n);
	stmt_bind_blob(st, 4, blob, (int)(n * SERIES_RAW_POINT),
		       SQLITE_TRANSIENT);
	db_bind_id(st, 5, ctx->source_id);
	stmt_bind_int64(st, 6, line);
	ret = db_step_done(ctx, st, line);
	free(blob);
	return ret;
}

int db_metric_state(struct import_ctx *ctx, const char *metric,
		    const char *unit, const struct metric_state *ms, long line)
{
	struct db *db = ctx->db;
	struct stmt *st;
	int64_t id;

	NOT_RECORDING(ctx);
	if (metric_id(ctx, metric, unit, MK_UNKNOWN, line, &id))
		return -1;
	if (ms->direction || ms->summary) {
		/* the first statement wins, as for the unit and the kind */
		st = db_stmt(db, ST_SET_STATE);
		if (!st)
			return -1;
		if (ms->direction)
			stmt_bind_int(st, 1, ms->direction);
		else
			stmt_bind_null(st, 1);
		bind_text_or_null(st, 2, ms->summary);
		stmt_bind_int64(st, 3, id);
		if (db_step_done(ctx, st, line))
			return -1;
	}
	if (ms->position < 0)
		return 0;
	st = db_stmt(db, ST_INS_POSITION);
	if (!st)
		return -1;
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_int64(st, 2, id);
	stmt_bind_int64(st, 3, ms->position);
	return db_step_done(ctx, st, line);
}

int db_emit_source(struct import_ctx *ctx, const char *member_path)
{
	struct stmt *st;

	NOT_RECORDING(ctx);
	st = ctx->db->st[ST_INS_SOURCE];
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_text(st, 2, member_path, -1, SQLITE_TRANSIENT);
	if (db_step_id(ctx, st, 0, &ctx->source_id))
		return -1;
	return 0;
}

int db_end_run(struct import_ctx *ctx)
{
	int ret = 0;

	NOT_RECORDING(ctx);
	/* the derived samples go in only where the run has none */
	if (db_flush_samples(ctx))
		return -1;
	if (ctx->run_id && ctx->series)
		ret = series_buf_finish(ctx->series, ctx);
	return ret;
}

int db_emit_run(struct import_ctx *ctx, const struct run_desc *rd, long line)
{
	struct stmt *st;
	long iteration = rd->iteration;
	int64_t vid;

	if (ctx->log)
		return emit_log_run(ctx->log, rd, line);
	if (ctx->nested && ctx->run_id)
		return 0;	/* the directory importer's run */
	if (db_end_run(ctx))
		return -1;
	if (variant_id(ctx, rd->testcase, rd->machine, rd->kernel, rd->commit,
		       rd->label, rd->params, rd->nr_params, line, &vid))
		return -1;
	if (iteration < 0) {
		st = ctx->db->st[ST_NEXT_ITER];
		stmt_bind_int64(st, 1, vid);
		if (stmt_step(st) == SQLITE_ROW)
			iteration = stmt_column_int(st, 0);
		stmt_reset(st);
		if (iteration < 0)
			iteration = 0;
	}
	st = ctx->db->st[ST_INS_RUN];
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_int64(st, 2, vid);
	stmt_bind_text(st, 3, or_empty(rd->suite), -1, SQLITE_TRANSIENT);
	stmt_bind_int64(st, 4, iteration);
	db_bind_id(st, 5, rd->start_time);
	db_bind_id(st, 6, ctx->source_id);
	db_bind_id(st, 7, line);
	if (db_step_id(ctx, st, line, &ctx->run_id))
		return -1;
	ctx->seen_new = 1;
	ctx->nr_runs++;
	return 0;
}

int db_resume_run(struct import_ctx *ctx, int64_t run_id)
{
	NOT_RECORDING(ctx);
	if (run_id == ctx->run_id)
		return 0;
	if (db_end_run(ctx))
		return -1;
	ctx->run_id = run_id;
	ctx->seen_new = 0;
	return 0;
}

int db_run_has_metric(struct import_ctx *ctx, int64_t run_id,
		      const char *metric)
{
	struct stmt *st;
	int rc;

	NOT_RECORDING(ctx);
	st = ctx->db->st[ST_HAS_SAMPLE];
	if (db_flush_samples(ctx))
		return -1;
	stmt_bind_int64(st, 1, run_id);
	stmt_bind_text(st, 2, metric, -1, SQLITE_TRANSIENT);
	rc = stmt_step(st);
	stmt_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return db_fail(ctx->db, rc, ctx->path, 0);
}

/* Set metric id's seen bit (growing the bits); 1 if it was set already. */
static int seen_mark(struct import_ctx *ctx, uint64_t id)
{
	unsigned char bit = (unsigned char)(1u << (id % 8));
	int was;

	if (id / 8 >= ctx->seen_bytes) {
		size_t n = (size_t)(id / 8 + 1) * 2;

		ctx->seen = xrealloc(ctx->seen, n);
		memset(ctx->seen + ctx->seen_bytes, 0, n - ctx->seen_bytes);
		ctx->seen_bytes = n;
	}
	was = !!(ctx->seen[id / 8] & bit);
	ctx->seen[id / 8] |= bit;
	return was;
}

/*
 * Make the server run's seen bits those of the current run: empty for a
 * run just made (seen_new), else its rows so far (a run resumed, which
 * costs a query and sends the pending COPY).  0 or -1.
 */
static int seen_load(struct import_ctx *ctx)
{
	struct stmt *st;
	int rc;

	if (ctx->seen)
		memset(ctx->seen, 0, ctx->seen_bytes);
	ctx->seen_run = ctx->run_id;
	if (ctx->seen_new)
		return 0;	/* made by this import just now: empty */
	st = db_prepare(ctx->db, "SELECT metric_id FROM samples WHERE "
				 "run_id = ?");
	if (!st)
		return -1;
	stmt_bind_int64(st, 1, ctx->run_id);
	while ((rc = stmt_step(st)) == SQLITE_ROW)
		seen_mark(ctx, (uint64_t)stmt_column_int64(st, 0));
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(ctx->db, rc, ctx->path, 0);
	return 0;
}

/* 1 if the current run has a sample of metric id already (a server's). */
static int seen_before(struct import_ctx *ctx, int64_t id)
{
	if (ctx->seen_run != ctx->run_id && seen_load(ctx))
		return -1;
	return seen_mark(ctx, (uint64_t)id);
}

/* The k samples at p as the parameters of a samples INSERT of k rows. */
static void bind_samples(struct stmt *st, const struct pending_sample *p,
			 int k)
{
	int i;

	for (i = 0; i < k; i++) {
		stmt_bind_int64(st, 5 * i + 1, p[i].run_id);
		stmt_bind_int64(st, 5 * i + 2, p[i].metric_id);
		stmt_bind_double(st, 5 * i + 3, p[i].value);
		db_bind_id(st, 5 * i + 4, p[i].line);
		db_bind_id(st, 5 * i + 5, p[i].source_id);
	}
}

/*
 * One pending sample by the one-row statement: the message of a metric
 * given twice names it and its line.
 */
static int insert_sample(struct import_ctx *ctx,
			 const struct pending_sample *p, const char *metric)
{
	struct stmt *st = ctx->db->st[ST_INS_SAMPLE];
	char *name = NULL;
	int rc;

	bind_samples(st, p, 1);
	rc = stmt_step(st);
	stmt_reset(st);
	if (rc == SQLITE_DONE) {
		if (!ctx->db->pg)
			values_held_add(ctx, p->run_id, p->metric_id, p->value,
					0);
		return 0;
	}
	if (rc != SQLITE_CONSTRAINT_PRIMARYKEY)
		return db_fail(ctx->db, rc, ctx->path, p->line);
	if (!metric) {
		/* from the batch: its name from the table */
		struct stmt *q = db_prepare(ctx->db, "SELECT name FROM metrics "
						     "WHERE id = ?");

		if (q) {
			stmt_bind_int64(q, 1, p->metric_id);
			if (stmt_step(q) == SQLITE_ROW)
				name = xstrdup((const char *)
					       stmt_column_text(q, 0));
			stmt_finalize(q);
		}
	}
	rc = error("%s:%ld: metric '%s' given twice for one run", ctx->path,
		   p->line, metric ? metric : name ? name : "?");
	free(name);
	return rc;
}

/*
 * The k pending samples at p by one statement of k rows: 0; 1 when a
 * constraint failed, which SQLite undoes by the statement (then one row
 * at a time finds the row, a metric twice in a run, and says where); or
 * -1 after error() for anything else (a full disk may have ended the
 * transaction: no row may go in after it).
 */
static int insert_samples(struct import_ctx *ctx,
			  const struct pending_sample *p, int k,
			  enum db_stmt which)
{
	struct stmt *st = db_stmt(ctx->db, which);
	int i, rc;

	if (!st)
		return -1;
	bind_samples(st, p, k);
	rc = stmt_step(st);
	stmt_reset(st);
	if ((rc & 0xff) == SQLITE_CONSTRAINT)
		return 1;
	if (rc != SQLITE_DONE)
		return db_fail(ctx->db, rc, ctx->path, p[0].line);
	for (i = 0; i < k; i++)
		values_held_add(ctx, p[i].run_id, p[i].metric_id, p[i].value,
				0);
	return 0;
}

int db_flush_samples(struct import_ctx *ctx)
{
	static const struct {
		int k;
		enum db_stmt st;
	} sizes[] = {
		{ SAMPLE_BATCH, ST_INS_SAMPLES }, { 8, ST_INS_SAMPLES8 },
		{ 4, ST_INS_SAMPLES4 },
	};
	const struct pending_sample *p = ctx->pend;
	int n = ctx->nr_pend, rc;
	size_t s;

	NOT_RECORDING(ctx);
	ctx->nr_pend = 0;
	/* the largest statements that fit, then a row at a time */
	for (s = 0; s < ARRAY_SIZE(sizes); s++)
		while (n >= sizes[s].k) {
			rc = insert_samples(ctx, p, sizes[s].k, sizes[s].st);
			if (rc < 0)
				return -1;
			if (rc > 0)
				goto one_by_one;
			p += sizes[s].k;
			n -= sizes[s].k;
		}
one_by_one:
	for (; n > 0; p++, n--)
		if (insert_sample(ctx, p, NULL))
			return -1;
	return 0;
}

int db_emit_sample(struct import_ctx *ctx, const char *metric,
		   const char *unit, double value, long line)
{
	struct pending_sample *p;
	int64_t id;
	int rc;

	if (ctx->log)
		return emit_log_sample(ctx->log, metric, unit, value, line);
	if (!ctx->run_id)
		BUG("db_emit_sample() before db_emit_run()");
	if (!isfinite(value))
		return error("%s:%ld: value of '%s' is not a finite number",
			     ctx->path, line, metric);
	if (metric_id(ctx, metric, unit, MK_UNKNOWN, line, &id))
		return -1;
	if (!ctx->db->pg) {
		p = &ctx->pend[ctx->nr_pend++];
		*p = (struct pending_sample){ ctx->run_id, id, ctx->source_id,
					      line, value };
		ctx->nr_samples++;
		if (ctx->nr_pend == SAMPLE_BATCH)
			return db_flush_samples(ctx);
		return 0;
	}
	{
		rc = seen_before(ctx, id);
		if (rc < 0)
			return -1;
		if (rc)
			return error("%s:%ld: metric '%s' given twice for one "
				     "run", ctx->path, line, metric);
	}
	{
		struct pending_sample one = { ctx->run_id, id, ctx->source_id,
					      line, value };

		if (insert_sample(ctx, &one, metric))
			return -1;
	}
	ctx->nr_samples++;
	return 0;
}

int db_metric(struct import_ctx *ctx, const char *metric, const char *unit,
	      enum metric_kind kind, long line, int64_t *id)
{
	NOT_RECORDING(ctx);
	return metric_id(ctx, metric, unit, kind, line, id);
}

int db_emit_series_id(struct import_ctx *ctx, int64_t id, double t,
		      double value, long line)
{
	NOT_RECORDING(ctx);
	if (!ctx->run_id)
		BUG("db_emit_series() before db_emit_run()");
	if (!isfinite(value) || !isfinite(t))
		return error("%s:%ld: a series point that is not a finite "
			     "number", ctx->path, line);
	if (!ctx->series)
		ctx->series = series_buf_new();
	if (series_buf_add(ctx->series, ctx, id, t, value, line))
		return -1;
	ctx->nr_series++;
	return 0;
}

void db_series_async(struct import_ctx *ctx)
{
	NOT_RECORDING(ctx);
	if (!ctx->run_id)
		BUG("db_series_async() before db_emit_run()");
	if (!ctx->series)
		ctx->series = series_buf_new();
	series_buf_async(ctx->series, ctx);
}

int db_series_sync(struct import_ctx *ctx)
{
	NOT_RECORDING(ctx);
	return series_buf_sync(ctx->series);
}

int db_series_async_end(struct import_ctx *ctx)
{
	NOT_RECORDING(ctx);
	return series_buf_sync_end(ctx->series);
}

int db_emit_series(struct import_ctx *ctx, const char *metric,
		   const char *unit, enum metric_kind kind, double t,
		   double value, long line)
{
	int64_t id;

	if (ctx->log)
		return emit_log_series(ctx->log, metric, unit, kind, t, value,
				       line);
	if (!isfinite(value) || !isfinite(t))
		return error("%s:%ld: value of '%s' is not a finite number",
			     ctx->path, line, metric);
	if (metric_id(ctx, metric, unit, kind, line, &id))
		return -1;
	return db_emit_series_id(ctx, id, t, value, line);
}

/* Is a's standard deviation a percentage of its value? */
static int sd_relative(const struct agg_desc *a)
{
	return a->stddev_kind && !strcmp(a->stddev_kind, "relative");
}

/* Can a go in as it is?  0, or -1 after error() naming what cannot. */
static int check_aggregate(struct import_ctx *ctx, const struct agg_desc *a,
			   long line)
{
	double sd = a->stddev;

	if (!isfinite(a->value))
		return error("%s:%ld: value of '%s' is not a finite number",
			     ctx->path, line, a->metric);
	if (isfinite(sd) && sd < 0)
		return error("%s:%ld: a negative standard deviation (%g) for "
			     "'%s'", ctx->path, line, sd, a->metric);
	if (isfinite(sd) && sd_relative(a) && a->value == 0 && sd != 0)
		return error("%s:%ld: a relative standard deviation (%g%%) of "
			     "a zero mean for '%s'", ctx->path, line, sd,
			     a->metric);
	if (a->n == 0)
		return error("%s:%ld: n = 0 for '%s': a summary of no runs",
			     ctx->path, line, a->metric);
	if (check_text(ctx, line, "statistic name", a->stat) ||
	    check_text(ctx, line, "marker", a->marker))
		return -1;
	return 0;
}

/*
 * a's standard deviation as ST_INS_AGG's parameters 7 to 9: stored
 * absolute (a relative one converted), with its kind and the figure as
 * the source gave it.
 */
static void bind_agg_stddev(struct stmt *st, const struct agg_desc *a)
{
	double sd = a->stddev;

	if (isfinite(sd) && sd_relative(a))
		stmt_bind_double(st, 7, fabs(a->value) * sd / 100.0);
	else if (isfinite(sd))
		stmt_bind_double(st, 7, sd);
	else
		stmt_bind_null(st, 7);
	if (isfinite(sd)) {
		bind_text_or_null(st, 8, a->stddev_kind);
		stmt_bind_double(st, 9, sd);
	} else if (a->stddev_at_most_pct > 0) {
		stmt_bind_text(st, 8, "at-most-relative", -1, SQLITE_STATIC);
		stmt_bind_double(st, 9, a->stddev_at_most_pct);
	} else {
		stmt_bind_null(st, 8);
		stmt_bind_null(st, 9);
	}
}

int db_emit_aggregate(struct import_ctx *ctx, const struct agg_desc *a,
		      long line)
{
	struct stmt *st;
	int64_t id, vid;

	NOT_RECORDING(ctx);
	st = ctx->db->st[ST_INS_AGG];
	if (check_aggregate(ctx, a, line) ||
	    metric_id(ctx, a->metric, a->unit, MK_UNKNOWN, line, &id) ||
	    variant_id(ctx, a->testcase, a->machine, a->kernel, a->commit,
		       a->label, a->params, a->nr_params, line, &vid))
		return -1;
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_int64(st, 2, vid);
	stmt_bind_text(st, 3, or_empty(a->suite), -1, SQLITE_TRANSIENT);
	stmt_bind_int64(st, 4, id);
	stmt_bind_text(st, 5, a->stat, -1, SQLITE_TRANSIENT);
	stmt_bind_double(st, 6, a->value);
	bind_agg_stddev(st, a);
	if (a->n >= 0)
		stmt_bind_int64(st, 10, a->n);
	else
		stmt_bind_null(st, 10);
	bind_text_or_null(st, 11, a->marker);
	db_bind_id(st, 12, ctx->source_id);
	db_bind_id(st, 13, line);
	if (a->change_base && a->change_source) {
		stmt_bind_text(st, 14, a->change_source, -1,
			       SQLITE_TRANSIENT);
		stmt_bind_text(st, 15, a->change_base, -1, SQLITE_TRANSIENT);
	} else {
		stmt_bind_null(st, 14);
		stmt_bind_null(st, 15);
	}
	if (db_step_done(ctx, st, line))
		return -1;
	ctx->nr_aggregates++;
	return 0;
}

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
	if (check_text(ctx, 0, key, tabs)) {
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
