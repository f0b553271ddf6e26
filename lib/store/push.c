/*
 * db_push() (push.h): a database copied into another, import by import,
 * through the statement interface only, so that the target may be a
 * SQLite file or a server.  Ids are the target's own: every id column is
 * mapped (import, sources, variants and metrics looked up by what they
 * are, runs as they are inserted); rows stream from one statement into
 * another, and memory holds the id maps, not the rows.
 */
#include "core/compat.h"
#include "core/err.h"
#include "store/push.h"
#include "store/values.h"

/* ---- int64 -> int64, open addressing; keys are ids, > 0 ---- */

struct idmap {
	int64_t *key, *val;	/* owned; key 0: empty slot */
	size_t nr, alloc;	/* alloc 0 or a power of two */
};
#define IDMAP_INIT { NULL, NULL, 0, 0 }

static size_t idmap_slot(const struct idmap *m, int64_t k)
{
	uint64_t h = (uint64_t)k * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 17) & (m->alloc - 1);

	while (m->key[i] && m->key[i] != k)
		i = (i + 1) & (m->alloc - 1);
	return i;
}

static int idmap_get(const struct idmap *m, int64_t k, int64_t *v)
{
	size_t i;

	if (!m->alloc)
		return 0;
	i = idmap_slot(m, k);
	if (!m->key[i])
		return 0;
	*v = m->val[i];
	return 1;
}

static void idmap_put(struct idmap *m, int64_t k, int64_t v)
{
	size_t i;

	if (k <= 0)
		BUG("idmap key %lld", (long long)k);
	if ((m->nr + 1) * 2 > m->alloc) {
		struct idmap old = *m;
		size_t j;

		m->alloc = old.alloc ? old.alloc * 2 : 64;
		m->key = xcalloc(m->alloc, sizeof(*m->key));
		m->val = xcalloc(m->alloc, sizeof(*m->val));
		m->nr = 0;
		for (j = 0; j < old.alloc; j++)
			if (old.key[j])
				idmap_put(m, old.key[j], old.val[j]);
		free(old.key);
		free(old.val);
	}
	i = idmap_slot(m, k);
	if (!m->key[i])
		m->nr++;
	m->key[i] = k;
	m->val[i] = v;
}

static void idmap_clear(struct idmap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

/* ---- the statements ---- */

/* Read from the source. */
enum {
	S_IMPORTS, S_SOURCES, S_META, S_VARIANT, S_VPARAMS, S_METRIC,
	S_IMETRICS, S_RUNS, S_SAMPLES, S_SERIES, S_HISTS, S_AGGS, S_COMMITS,
	S_DIRS, S_TABLES, S_SKIPS, S_NR,
};

static const char *const src_sql[S_NR] = {
	[S_IMPORTS] = "SELECT id, path, sha256, format, size, file_size, "
		"imported_at, is_dir, message FROM imports ORDER BY id",
	[S_SOURCES] = "SELECT id, path FROM sources WHERE import_id = ? "
		"ORDER BY id",
	[S_META] = "SELECT key, value FROM import_meta WHERE import_id = ? "
		"ORDER BY key",
	[S_VARIANT] = "SELECT label, kernel, commit_sha, machine, testcase, "
		"params FROM variants WHERE id = ?",
	[S_VPARAMS] = "SELECT key, value FROM variant_params WHERE "
		"variant_id = ? ORDER BY key",
	[S_METRIC] = "SELECT name, unit, kind, direction, summary FROM "
		"metrics WHERE id = ?",
	[S_IMETRICS] = "SELECT metric_id, position FROM import_metrics "
		"WHERE import_id = ? ORDER BY metric_id",
	[S_RUNS] = "SELECT id, variant_id, suite, iteration, start_time, "
		"source_id, line FROM runs WHERE import_id = ? ORDER BY id",
	[S_SAMPLES] = "SELECT metric_id, value, line, source_id, derived FROM "
		"samples WHERE run_id = ? ORDER BY metric_id",
	/* points and bins hold (t, value) and (value, count): no ids */
	[S_SERIES] = "SELECT metric_id, chunk, n, points, source_id, line, "
		"codec FROM series WHERE run_id = ? ORDER BY metric_id, chunk",
	[S_HISTS] = "SELECT metric_id, n, bins, source_id, line FROM "
		"histograms WHERE run_id = ? ORDER BY metric_id",
	[S_AGGS] = "SELECT variant_id, suite, metric_id, stat, value, stddev, "
		"stddev_kind, stddev_source, n, marker, source_id, line, "
		"change_source, change_base FROM aggregates WHERE "
		"import_id = ? ORDER BY id",
	[S_COMMITS] = "SELECT sha, position, parents, subject, date FROM "
		"commits ORDER BY position, sha",
	[S_DIRS] = "SELECT pattern, direction FROM metric_directions "
		"ORDER BY pattern",
	[S_TABLES] = "SELECT seq, line, kind, title, columns, rows_read, "
		"rows_skipped FROM import_tables WHERE import_id = ? ORDER BY seq",
	[S_SKIPS] = "SELECT seq, line, table_seq, reason, text FROM "
		"import_skips WHERE import_id = ? ORDER BY seq",
};

/* Written to the target. */
enum {
	T_HAS_HASH, T_IMPORT, T_SOURCE, T_META, T_FIND_VARIANT, T_VARIANT,
	T_VPARAM, T_METRIC, T_IMETRIC, T_RUN, T_SAMPLE, T_SERIES, T_HIST,
	T_AGG, T_COMMIT, T_DIR, T_NR_COMMITS, T_TABLE, T_SKIP, T_NR,
};

static const char *const dst_sql[T_NR] = {
	[T_HAS_HASH] = "SELECT 1 FROM imports WHERE sha256 = ?",
	/* DO NOTHING: a push running beside us copied it first */
	[T_IMPORT] = "INSERT INTO imports(path, sha256, format, size, "
		"file_size, imported_at, is_dir, message) VALUES "
		"(?,?,?,?,?,?,?,?) ON CONFLICT (sha256) DO NOTHING RETURNING id",
	[T_SOURCE] = "INSERT INTO sources(import_id, path) VALUES (?,?) "
		"RETURNING id",
	[T_META] = "INSERT INTO import_meta(import_id, key, value) VALUES "
		"(?,?,?)",
	[T_TABLE] = "INSERT INTO import_tables(import_id, seq, line, kind, "
		"title, columns, rows_read, rows_skipped) VALUES "
		"(?,?,?,?,?,?,?,?)",
	[T_SKIP] = "INSERT INTO import_skips(import_id, seq, line, table_seq, "
		"reason, text) VALUES (?,?,?,?,?,?)",
	[T_FIND_VARIANT] = "SELECT id FROM variants WHERE label = ? AND "
		"kernel = ? AND commit_sha = ? AND machine = ? AND "
		"testcase = ? AND params = ?",
	[T_VARIANT] = "INSERT INTO variants(label, kernel, commit_sha, "
		"machine, testcase, params) VALUES (?,?,?,?,?,?) RETURNING id",
	[T_VPARAM] = "INSERT INTO variant_params(variant_id, key, value) "
		"VALUES (?,?,?) ON CONFLICT (variant_id, key) DO NOTHING",
	/*
	 * A metric the target knows keeps what it says; what it does not
	 * say yet (NULL) comes from the source: the first statement wins,
	 * as in emit-ids.c (ST_SET_UNIT, ST_SET_KIND, ST_SET_STATE).
	 */
	[T_METRIC] = "INSERT INTO metrics(name, unit, kind, direction, "
		"summary) VALUES (?,?,?,?,?) ON CONFLICT (name) DO UPDATE SET "
		"unit = coalesce(metrics.unit, excluded.unit), "
		"kind = coalesce(metrics.kind, excluded.kind), "
		"direction = coalesce(metrics.direction, excluded.direction), "
		"summary = coalesce(metrics.summary, excluded.summary) "
		"RETURNING id",
	[T_IMETRIC] = "INSERT INTO import_metrics(import_id, metric_id, "
		"position) VALUES (?,?,?)",
	[T_RUN] = "INSERT INTO runs(import_id, variant_id, suite, iteration, "
		"start_time, source_id, line) VALUES (?,?,?,?,?,?,?) "
		"RETURNING id",
	[T_SAMPLE] = "INSERT INTO samples(run_id, metric_id, value, line, "
		"source_id, derived) VALUES (?,?,?,?,?,?)",
	[T_SERIES] = "INSERT INTO series(run_id, metric_id, chunk, n, points, "
		"source_id, line, codec) VALUES (?,?,?,?,?,?,?,?)",
	[T_HIST] = "INSERT INTO histograms(run_id, metric_id, n, bins, "
		"source_id, line) VALUES (?,?,?,?,?,?)",
	[T_AGG] = "INSERT INTO aggregates(import_id, variant_id, suite, "
		"metric_id, stat, value, stddev, stddev_kind, stddev_source, "
		"n, marker, source_id, line, change_source, change_base) "
		"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[T_COMMIT] = "INSERT INTO commits(sha, position, parents, subject, "
		"date) VALUES (?,?,?,?,?) ON CONFLICT (sha) DO NOTHING "
		"RETURNING 1",
	[T_DIR] = "INSERT INTO metric_directions(pattern, direction) VALUES "
		"(?,?) ON CONFLICT (pattern) DO NOTHING RETURNING 1",
	[T_NR_COMMITS] = "SELECT count(*) FROM commits",
};

struct pusher {
	struct db *from, *to;		/* borrowed */
	struct stmt *s[S_NR];		/* owned, on from */
	struct stmt *t[T_NR];		/* owned, on to */
	/* source id -> target id, for the import being copied */
	struct idmap sources, variants, metrics;
	struct push_import cur;		/* the import being copied */
};

/* A failed step on the source (reading) or on the target (writing). */
static int src_fail(struct pusher *p, int rc)
{
	return db_fail(p->from, rc, p->from->path, 0);
}

static int dst_fail(struct pusher *p, int rc)
{
	return db_fail(p->to, rc, p->cur.path ? p->cur.path : p->to->path, 0);
}

/* Bind column si of the source row to parameter di, as it is. */
static void copy_col(struct stmt *dst, int di, struct stmt *src, int si)
{
	switch (stmt_column_type(src, si)) {
	case SQLITE_NULL:
		stmt_bind_null(dst, di);
		break;
	case SQLITE_INTEGER:
		stmt_bind_int64(dst, di, stmt_column_int64(src, si));
		break;
	case SQLITE_FLOAT:
		stmt_bind_double(dst, di, stmt_column_double(src, si));
		break;
	case SQLITE_BLOB:
		stmt_bind_blob(dst, di, stmt_column_blob(src, si),
			       stmt_column_bytes(src, si), SQLITE_TRANSIENT);
		break;
	default:
		stmt_bind_text(dst, di, (const char *)stmt_column_text(src, si),
			       stmt_column_bytes(src, si), SQLITE_TRANSIENT);
		break;
	}
}

/* Columns from..to (inclusive) of src to parameters at..; */
static void copy_cols(struct stmt *dst, int at, struct stmt *src, int from,
		      int to)
{
	int i;

	for (i = from; i <= to; i++)
		copy_col(dst, at + i - from, src, i);
}

/* Step a target statement that returns no row, and reset it. */
static int dst_done(struct pusher *p, struct stmt *st)
{
	int rc = stmt_step(st);

	stmt_reset(st);
	return rc == SQLITE_DONE ? 0 : dst_fail(p, rc);
}

/*
 * Step a target statement that returns at most one row: *id its first
 * column (0: no row), and reset it.
 */
static int dst_id(struct pusher *p, struct stmt *st, int64_t *id)
{
	int rc = stmt_step(st);

	*id = rc == SQLITE_ROW ? stmt_column_int64(st, 0) : 0;
	stmt_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : dst_fail(p, rc);
}

/* The next row of a source statement: 1 a row, 0 done, -1 error(). */
static int src_row(struct pusher *p, struct stmt *st)
{
	int rc = stmt_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return src_fail(p, rc);
}

/* Column i of a source row, an id mapped through m; 0 for NULL. */
static int map_id(struct pusher *p, const struct idmap *m, struct stmt *st,
		  int i, int64_t *id)
{
	int64_t src;

	*id = 0;
	if (stmt_column_type(st, i) == SQLITE_NULL)
		return 0;
	src = stmt_column_int64(st, i);
	if (!idmap_get(m, src, id))
		return error("%s: %s: row refers to id %lld, which is not "
			     "the import's", p->from->path, p->cur.path,
			     (long long)src);
	return 0;
}

/* Remember a mapping; past DB_CACHE_MAX start again (looked up anew). */
static void remember(struct idmap *m, int64_t src, int64_t dst)
{
	if (m->nr >= DB_CACHE_MAX)
		idmap_clear(m);
	idmap_put(m, src, dst);
}

/*
 * Row `id` of a source statement that selects one by id, or an error if
 * there is none (what: its table, for the message).  1 with the row
 * (the caller resets s), or -1.
 */
static int src_get(struct pusher *p, struct stmt *s, int64_t id,
		   const char *what)
{
	int r;

	stmt_bind_int64(s, 1, id);
	r = src_row(p, s);
	if (!r)
		r = error("%s: %s: %s %lld is missing", p->from->path,
			  p->cur.path, what, (long long)id);
	if (r < 0)
		stmt_reset(s);
	return r;
}

/*
 * Every row s selects for from_id into t: parameter 1 to_id, then s's
 * columns 0..last.  0 or -1.
 */
static int copy_children(struct pusher *p, struct stmt *s, struct stmt *t,
			 int64_t from_id, int64_t to_id, int last)
{
	int r;

	stmt_bind_int64(s, 1, from_id);
	while ((r = src_row(p, s)) > 0) {
		stmt_bind_int64(t, 1, to_id);
		copy_cols(t, 2, s, 0, last);
		if (dst_done(p, t)) {
			r = -1;
			break;
		}
	}
	stmt_reset(s);
	return r;
}

/* The target's id of source metric src: found by name, else made. */
static int target_metric(struct pusher *p, int64_t src, int64_t *id)
{
	struct stmt *s = p->s[S_METRIC], *t = p->t[T_METRIC];

	if (idmap_get(&p->metrics, src, id))
		return 0;
	if (src_get(p, s, src, "metric") < 0)
		return -1;
	copy_cols(t, 1, s, 0, 4);
	stmt_reset(s);
	if (dst_id(p, t, id))
		return -1;
	remember(&p->metrics, src, *id);
	return 0;
}

/* Column i of a source row, a metric id, as the target's. */
static int map_metric(struct pusher *p, struct stmt *st, int i, int64_t *id)
{
	return target_metric(p, stmt_column_int64(st, i), id);
}

/*
 * The target's id of source variant src: the identical one (all six
 * columns), else made with its params.
 */
static int variant(struct pusher *p, int64_t src, int64_t *id)
{
	struct stmt *s = p->s[S_VARIANT], *t = p->t[T_FIND_VARIANT];
	int r, made = 0;

	if (idmap_get(&p->variants, src, id))
		return 0;
	if (src_get(p, s, src, "variant") < 0)
		return -1;
	copy_cols(t, 1, s, 0, 5);
	r = dst_id(p, t, id);
	if (!r && !*id) {
		copy_cols(p->t[T_VARIANT], 1, s, 0, 5);
		r = dst_id(p, p->t[T_VARIANT], id);
		made = 1;
	}
	stmt_reset(s);
	if (r || (made && copy_children(p, p->s[S_VPARAMS], p->t[T_VPARAM],
					src, *id, 1)))
		return -1;
	remember(&p->variants, src, *id);
	return 0;
}

/*
 * The import's members (sources), mail headers, and the tables it read
 * from text with the rows it skipped.
 */
static int copy_sources_meta(struct pusher *p, int64_t from_id, int64_t id)
{
	struct stmt *s = p->s[S_SOURCES], *t = p->t[T_SOURCE];
	int64_t new_id;
	int r;

	stmt_bind_int64(s, 1, from_id);
	while ((r = src_row(p, s)) > 0) {
		stmt_bind_int64(t, 1, id);
		copy_col(t, 2, s, 1);
		if (dst_id(p, t, &new_id)) {
			r = -1;
			break;
		}
		/* every source of the import is needed: never forgotten */
		idmap_put(&p->sources, stmt_column_int64(s, 0), new_id);
	}
	stmt_reset(s);
	if (r < 0)
		return -1;
	return copy_children(p, p->s[S_META], p->t[T_META], from_id, id, 1) ||
	       copy_children(p, p->s[S_TABLES], p->t[T_TABLE], from_id, id,
			     6) ||
	       copy_children(p, p->s[S_SKIPS], p->t[T_SKIP], from_id, id, 4) ?
		       -1 : 0;
}

/* The order the import reported its metrics in. */
static int copy_positions(struct pusher *p, int64_t from_id, int64_t id)
{
	struct stmt *s = p->s[S_IMETRICS], *t = p->t[T_IMETRIC];
	int64_t m;
	int r;

	stmt_bind_int64(s, 1, from_id);
	while ((r = src_row(p, s)) > 0) {
		if (map_metric(p, s, 0, &m)) {
			r = -1;
			break;
		}
		stmt_bind_int64(t, 1, id);
		stmt_bind_int64(t, 2, m);
		copy_col(t, 3, s, 1);
		if (dst_done(p, t)) {
			r = -1;
			break;
		}
	}
	stmt_reset(s);
	return r;
}

/*
 * The rows of one run: samples, series chunks, histograms.  s reads
 * them (metric_id first), t writes them (run_id, metric_id, then the
 * source's columns 1..last with source_id at src_col remapped).
 */
static int copy_run_rows(struct pusher *p, struct stmt *s, struct stmt *t,
			 int64_t from_run, int64_t run, int last, int src_col,
			 long *count)
{
	int64_t m, source;
	int r, i;

	stmt_bind_int64(s, 1, from_run);
	while ((r = src_row(p, s)) > 0) {
		if (map_metric(p, s, 0, &m) ||
		    map_id(p, &p->sources, s, src_col, &source)) {
			r = -1;
			break;
		}
		stmt_bind_int64(t, 1, run);
		stmt_bind_int64(t, 2, m);
		for (i = 1; i <= last; i++) {
			if (i == src_col)
				db_bind_id(t, i + 2, source);
			else
				copy_col(t, i + 2, s, i);
		}
		if (dst_done(p, t)) {
			r = -1;
			break;
		}
		(*count)++;
	}
	stmt_reset(s);
	return r;
}

static int copy_runs(struct pusher *p, int64_t from_id, int64_t id)
{
	struct stmt *s = p->s[S_RUNS], *t = p->t[T_RUN];
	int64_t v, source, run;
	long points = 0;
	int r;

	stmt_bind_int64(s, 1, from_id);
	while ((r = src_row(p, s)) > 0) {
		if (variant(p, stmt_column_int64(s, 1), &v) ||
		    map_id(p, &p->sources, s, 5, &source)) {
			r = -1;
			break;
		}
		stmt_bind_int64(t, 1, id);
		stmt_bind_int64(t, 2, v);
		copy_cols(t, 3, s, 2, 4);	/* suite, iteration, start */
		db_bind_id(t, 6, source);
		copy_col(t, 7, s, 6);
		if (dst_id(p, t, &run)) {
			r = -1;
			break;
		}
		if (!run) {
			r = error("%s: %s: a run was not inserted",
				  p->to->path, p->cur.path);
			break;
		}
		/* samples: run, metric, value, line, source_id, derived */
		if (copy_run_rows(p, p->s[S_SAMPLES], p->t[T_SAMPLE],
				  stmt_column_int64(s, 0), run, 4, 3,
				  &p->cur.samples) ||
		    /* series: run, metric, chunk, n, points, source, line,
		     * codec */
		    copy_run_rows(p, p->s[S_SERIES], p->t[T_SERIES],
				  stmt_column_int64(s, 0), run, 6, 4,
				  &points) ||
		    /* histograms: run, metric, n, bins, source, line */
		    copy_run_rows(p, p->s[S_HISTS], p->t[T_HIST],
				  stmt_column_int64(s, 0), run, 4, 3,
				  &points)) {
			r = -1;
			break;
		}
		p->cur.runs++;
	}
	stmt_reset(s);
	return r;
}

static int copy_aggregates(struct pusher *p, int64_t from_id, int64_t id)
{
	struct stmt *s = p->s[S_AGGS], *t = p->t[T_AGG];
	int64_t v, m, source;
	int r;

	stmt_bind_int64(s, 1, from_id);
	while ((r = src_row(p, s)) > 0) {
		if (variant(p, stmt_column_int64(s, 0), &v) ||
		    map_metric(p, s, 2, &m) ||
		    map_id(p, &p->sources, s, 10, &source)) {
			r = -1;
			break;
		}
		stmt_bind_int64(t, 1, id);
		stmt_bind_int64(t, 2, v);
		copy_col(t, 3, s, 1);		/* suite */
		stmt_bind_int64(t, 4, m);
		copy_cols(t, 5, s, 3, 9);	/* stat .. marker */
		db_bind_id(t, 12, source);
		copy_cols(t, 13, s, 11, 13);	/* line, change_* */
		if (dst_done(p, t)) {
			r = -1;
			break;
		}
		p->cur.aggregates++;
	}
	stmt_reset(s);
	return r;
}

/*
 * Copy the import at the source's current S_IMPORTS row, in one
 * transaction on the target.  1 copied, 0 the target had it already,
 * -1 after error() (rolled back).
 */
static int copy_import(struct pusher *p)
{
	struct stmt *s = p->s[S_IMPORTS], *t = p->t[T_IMPORT];
	int64_t from_id = stmt_column_int64(s, 0), id;

	p->cur.runs = p->cur.samples = p->cur.aggregates = 0;
	p->cur.message = stmt_column_int(s, 8);
	idmap_clear(&p->sources);
	idmap_clear(&p->variants);
	idmap_clear(&p->metrics);
	if (db_begin(p->to))
		return -1;
	copy_cols(t, 1, s, 1, 8);
	if (dst_id(p, t, &id))
		goto fail;
	if (!id) {
		/* another push got there first */
		db_rollback(p->to);
		return 0;
	}
	if (copy_sources_meta(p, from_id, id) ||
	    copy_positions(p, from_id, id) ||
	    copy_runs(p, from_id, id) ||
	    copy_aggregates(p, from_id, id) ||
	    /* the packed copy, with the target's metric ids */
	    db_pack_runs(p->to, id) ||
	    db_commit(p->to))
		goto fail;
	return 1;
fail:
	db_rollback(p->to);
	return -1;
}

/*
 * The recorded commits and the direction overrides the target lacks, in
 * one transaction.  A commit keeps its source position: right when the
 * target had none, and flagged (res->commits_merged) when it had some,
 * since two orders recorded apart need not agree.
 */
static int copy_commits_directions(struct pusher *p, struct push_result *res)
{
	int64_t had, got;
	int r;

	if (db_begin(p->to))
		return -1;
	if (dst_id(p, p->t[T_NR_COMMITS], &had))
		goto fail;
	while ((r = src_row(p, p->s[S_COMMITS])) > 0) {
		copy_cols(p->t[T_COMMIT], 1, p->s[S_COMMITS], 0, 4);
		if (dst_id(p, p->t[T_COMMIT], &got)) {
			r = -1;
			break;
		}
		res->commits += got;	/* 1: inserted, 0: there */
	}
	stmt_reset(p->s[S_COMMITS]);
	if (r < 0)
		goto fail;
	while ((r = src_row(p, p->s[S_DIRS])) > 0) {
		copy_cols(p->t[T_DIR], 1, p->s[S_DIRS], 0, 1);
		if (dst_id(p, p->t[T_DIR], &got)) {
			r = -1;
			break;
		}
		res->directions += got;
	}
	stmt_reset(p->s[S_DIRS]);
	if (r < 0 || db_commit(p->to))
		goto fail;
	res->commits_merged = had && res->commits;
	return 0;
fail:
	db_rollback(p->to);
	return -1;
}

/* The statements of p prepared, on both sides.  0 or -1 after error(). */
static int pusher_prepare(struct pusher *p)
{
	size_t i;

	for (i = 0; i < S_NR; i++)
		if (!(p->s[i] = db_prepare(p->from, src_sql[i])))
			return -1;
	for (i = 0; i < T_NR; i++) {
		p->t[i] = i == T_SAMPLE ?
			db_prepare_copy(p->to, "samples", "run_id, metric_id, "
					"value, line, source_id, derived",
					dst_sql[i]) :
			db_prepare(p->to, dst_sql[i]);
		if (!p->t[i])
			return -1;
	}
	return 0;
}

/*
 * Every import of the source the target lacks copied, counted in res.
 * One statement reads the imports from first to last: on SQLite it
 * holds one read snapshot of the source for the whole push.  0 or -1
 * after error().
 */
static int push_imports(struct pusher *p, struct push_result *res)
{
	struct stmt *s = p->s[S_IMPORTS];
	int r;

	while ((r = src_row(p, s)) > 0) {
		const char *sha = (const char *)stmt_column_text(s, 2);
		int64_t there;

		p->cur.path = (const char *)stmt_column_text(s, 1);
		if (!strncmp(sha, PENDING_HASH_PREFIX,
			     strlen(PENDING_HASH_PREFIX))) {
			res->pending++;	/* an import still running, or dead */
			continue;
		}
		stmt_bind_text(p->t[T_HAS_HASH], 1, sha, -1, SQLITE_TRANSIENT);
		if (dst_id(p, p->t[T_HAS_HASH], &there)) {
			r = -1;
			break;
		}
		if (!there)
			r = copy_import(p);
		if (r < 0)
			break;
		if (there || !r) {
			res->already++;
			continue;
		}
		res->imports++;
		res->runs += p->cur.runs;
		res->samples += p->cur.samples;
		if (res->pushed)
			res->pushed(res->data, &p->cur);
	}
	stmt_reset(s);
	return r < 0 ? -1 : 0;
}

int db_push(struct db *from, struct db *to, struct push_result *res)
{
	struct pusher p = { from, to, { NULL }, { NULL }, IDMAP_INIT,
			    IDMAP_INIT, IDMAP_INIT, { NULL, 0, 0, 0, 0 } };
	int ret = -1;
	size_t i;

	res->imports = res->already = res->pending = 0;
	res->runs = res->samples = res->commits = res->directions = 0;
	res->commits_merged = 0;
	if (pusher_prepare(&p) || copy_commits_directions(&p, res) ||
	    push_imports(&p, res))
		goto out;
	ret = 0;
out:
	for (i = 0; i < S_NR; i++)
		stmt_finalize(p.s[i]);
	for (i = 0; i < T_NR; i++)
		stmt_finalize(p.t[i]);
	idmap_clear(&p.sources);
	idmap_clear(&p.variants);
	idmap_clear(&p.metrics);
	return ret;
}
