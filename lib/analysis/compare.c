/*
 * The comparison engine (see compare.h).
 *
 * Rows are keyed by (testcase, params, machine, metric).  When comparing
 * along param:NAME, NAME=value is taken out of params, so the variants'
 * runs line up.  Samples win over aggregates: a side has an aggregate
 * only where no run of the variant has the metric.
 *
 * Tests (--test auto): the Mann-Whitney U test when both sides have
 * enough runs for it to ever reach alpha (stats_mwu_min_p), else Welch's
 * t-test, which works from n = 2 but leans on normality.  Aggregates with
 * a known n and stddev get Welch from summaries; with n unknown, no
 * p-value: the source's own marker stands (method "source").
 */
#include "core/compat.h"
#include "analysis/compare.h"
#include "store/series.h"
#include "store/values.h"
#include "stats/ebayes.h"
#include "store/direction.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "core/parallel.h"
#include <pthread.h>

const char *cmp_method_name(enum cmp_method m)
{
	static const char *const names[] = { "none", "welch", "mwu", "source" };

	return names[m];
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	static const char *const names[] = {
		"unchanged", "regression", "improvement", "unknown",
	};

	return names[v];
}

double cmp_mmtests_pdiff(double new_v, double base, int higher_better)
{
	if (!isfinite(new_v) || !isfinite(base))
		return NAN;
	if (higher_better) {
		if (new_v == base || new_v == 0)
			return 0;
		if (base == 0)
			return 100;
		return new_v * 100 / base - 100;
	}
	if (new_v == base)
		return 0;
	if (new_v == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100 - new_v * 100 / base;
}

/* Bytes of a pool block; a longer string gets a block of its own. */
#define POOL_BLOCK 65536

/*
 * A copy of s that lives as long as the comparison (NULL for NULL): in
 * blocks of 64 KiB, not an allocation (and a free) a name.
 */
static char *pool_addn(struct comparison *c, const char *s, size_t len)
{
	size_t n = len + 1;
	char *p;

	if (n > c->pool_room - c->pool_used || !c->nr_pool) {
		size_t size = n > POOL_BLOCK / 4 ? n : POOL_BLOCK;

		ALLOC_GROW(c->pool, c->nr_pool + 1, c->alloc_pool);
		p = xmalloc(size);
		if (size == n && c->nr_pool) {
			/* a long one aside: the newest block stays newest */
			c->pool[c->nr_pool] = c->pool[c->nr_pool - 1];
			c->pool[c->nr_pool++ - 1] = p;
		} else {
			c->pool[c->nr_pool++] = p;
			c->pool_used = n;
			c->pool_room = size;
		}
	} else {
		p = c->pool[c->nr_pool - 1] + c->pool_used;
		c->pool_used += n;
	}
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

static const char *pool_add(struct comparison *c, const char *s)
{
	return s ? pool_addn(c, s, strlen(s)) : NULL;
}

/* ---- loading ---- */

/*
 * What a row costs besides itself and its block, for CMP_MEM_BUDGET:
 * 64 bytes while it is loaded (its index entry, the rows' slack), and
 * 112 after (the sort's keys, the tests' arrays, the writer's: at
 * 70,000 rows the process grew by 7.6 MB once the loading was done).
 */
#define ROW_MORE_BYTES (64 + 112)

/*
 * Past this many metric ids in the database, compare reads only the
 * metrics its variants have (metrics_used()): a database that keeps
 * months of lkp results holds hundreds of thousands of names (perf-
 * profile's call chains), and reading every one made the memory grow
 * with the archive (400,000 metrics: 64.5 MiB to compare 100).
 */
#define SPARSE_METRICS ((int64_t)1 << 16)
/*
 * ... up to this many ids (a bit each: 8 MiB).  Past it the ids are so
 * sparse that there are few metrics for them: all are read.
 */
#define SPARSE_MAX_ID ((int64_t)1 << 26)
/*
 * What a metric read costs, for CMP_MEM_BUDGET: its arrays, index and
 * strings (measured: 400,000 metrics of 23-byte names took 51 MB).
 */
#define METRIC_BYTES 128

/* Direct row arrays take at most this many entries (4 bytes each). */
#define ROW_OF_BUDGET (2u << 20)

/* testcase, params, machine of a set of rows; strings in the pool */
struct group {
	const char *testcase, *params, *machine;
};

struct loader {
	struct db *db;
	struct comparison *c;
	struct strmap groups;	/* "testcase\x1fparams\x1fmachine" -> idx */
	struct group *group;	/* owned array */
	size_t nr_groups, alloc_groups;
	struct strmap rows;	/* (group idx, metric id) -> row idx */
	/*
	 * The same as direct arrays, one per group, indexed by metric id
	 * (ids are dense): one array load per sample instead of a hash
	 * probe that misses the cache.  row + 1, 0 = none.  NULL when the
	 * arrays would be too large; then the strmap serves.
	 */
	uint32_t **row_of;	/* owned, by group; each owned or NULL */
	size_t row_of_used;	/* entries allocated, up to ROW_OF_BUDGET */
	int hashed_any;		/* a group went to the strmap: all later do */
	int64_t max_metric_id;
	/*
	 * With more than SPARSE_METRICS ids: a bit for each id up to
	 * used_max that the variants have (metrics_used()); ids past it
	 * came after and are read.  NULL: every metric is read.
	 */
	unsigned char *used;
	int64_t used_max;
	struct strmap metrics;	/* metric id (8 bytes) -> metric index */
	int32_t *mindex;	/* the same by id (ids are dense), -1 = none;
				 * NULL past ROW_OF_BUDGET ids: the strmap */
	const char **mname, **munit;	/* by metric index; pool strings */
	int64_t *mid;		/* by metric index: the metric id */
	signed char *mdir;	/* by metric index: direction, 2 = not yet */
	char *mexact;		/* by metric index: kind is exact */
	signed char *mstated;	/* by metric index: the importer's direction */
	const char **msummary;	/* by metric index: MMTests' summary (pool) */
	long *mpos;		/* by metric index: its position in the
				 * base's imports, -1 none */
	size_t nr_m, alloc_m;
	/* metrics_begin() .. metrics_end(); NULL: the arrays are complete */
	struct metric_split *split;
	int ready;			/* metrics_ready() was called */
	int listed;			/* list_all_runs() was called */
	struct direction_overrides dirs;
	size_t mem_bytes;	/* rows and samples so far: CMP_MEM_BUDGET */
	/*
	 * runs[v * nr_groups + g]: the runs of variant v in group g, the
	 * most samples a side of the group's rows gets (one a run)
	 */
	size_t *gruns;
	/*
	 * Without keep_samples, the samples of a range's sides, each side
	 * its runs' room (load_samples()): no allocation a side, and none
	 * to free when digest_row() is done with them.
	 */
	double *slab;
	size_t slab_used, slab_alloc;
	/* digesting rows while load_samples() reads (struct digest_pipe) */
	struct worker *digester;
	/*
	 * The rows' next chunk, made ahead (add_chunk()), and the same for
	 * the digest's helper to fault in (atomic: it takes it); the rows
	 * the range being merged makes at least.
	 */
	char *ahead, *populate;
	int ahead_zeroed;
	size_t rows_sure;
	/* by variant: its runs in load order, and each run's group */
	struct vruns {
		int64_t *id;
		size_t *group;
		size_t nr;
	} *vrun;
};

/*
 * The metrics of a loader as cmp_metrics_load() read them once, every
 * direction decided, for the loaders of many comparisons to copy.
 */
struct cmp_metrics {
	struct comparison owner;	/* owns the names (its pool) */
	struct loader l;		/* its metric arrays and mindex */
	size_t *order;			/* owned: metric indexes, natural order */
	char *kpi;			/* owned: by rank in that order,
					 * metric_is_kpi() */
};

/*
 * The params part of a row's key: the run's canonical "k=v,k=v" without
 * the --by param:NAME being compared along, and without the params the
 * user asked to ignore (--ignore-param NAME; "*" ignores them all).
 * Returns a new string.
 */
static char *key_params(const char *params, const struct selector *sel,
			const struct strlist *ignore)
{
	struct sbuf sb = SBUF_INIT;
	const char *p = params;
	size_t i;

	for (i = 0; i < ignore->nr; i++)
		if (!strcmp(ignore->v[i], "*"))
			return xstrdup("");
	while (*p) {
		const char *end = strchr(p, ','), *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p), klen;
		int drop = 0;

		eq = memchr(p, '=', len);
		klen = eq ? (size_t)(eq - p) : len;
		if (sel->dim == DIM_PARAM && strlen(sel->param) == klen &&
		    !memcmp(p, sel->param, klen))
			drop = 1;
		for (i = 0; i < ignore->nr && !drop; i++)
			if (strlen(ignore->v[i]) == klen &&
			    !memcmp(p, ignore->v[i], klen))
				drop = 1;
		if (!drop) {
			if (sb.len)
				sbuf_addch(&sb, ',');
			sbuf_add(&sb, p, len);
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return sbuf_detach(&sb, NULL);
}

static size_t group_idx(struct loader *l, const char *testcase,
			const char *params, const char *machine)
{
	struct sbuf key = SBUF_INIT;
	struct group *g;
	int64_t idx;

	sbuf_addstr(&key, testcase);
	sbuf_addch(&key, '\x1f');
	sbuf_addstr(&key, params);
	sbuf_addch(&key, '\x1f');
	sbuf_addstr(&key, machine);
	if (strmap_get(&l->groups, key.buf, key.len, &idx)) {
		sbuf_release(&key);
		return (size_t)idx;
	}
	if (l->row_of) {
		l->row_of = xrealloc(l->row_of, (l->nr_groups + 1) *
						    sizeof(*l->row_of));
		l->row_of[l->nr_groups] = NULL;
	}
	ALLOC_GROW(l->group, l->nr_groups + 1, l->alloc_groups);
	strmap_put(&l->groups, key.buf, key.len, (int64_t)l->nr_groups);
	sbuf_release(&key);
	g = &l->group[l->nr_groups];
	g->testcase = pool_add(l->c, testcase);
	g->params = pool_add(l->c, params);
	g->machine = pool_add(l->c, machine);
	return l->nr_groups++;
}

/* A copy of n elements of size bytes (one more allocated: n may be 0). */
static void *dup_array(const void *p, size_t n, size_t size)
{
	void *d = xmalloc((n + 1) * size);

	memcpy(d, p, n * size);
	return d;
}

/* The loader's metric arrays from cmp_opts.metrics; names borrowed. */
static void metrics_from_cache(struct loader *l, const struct cmp_metrics *m)
{
	const struct loader *s = &m->l;
	size_t n = s->nr_m;

	l->nr_m = l->alloc_m = n;
	l->max_metric_id = s->max_metric_id;
	l->mname = dup_array(s->mname, n, sizeof(*l->mname));
	l->munit = dup_array(s->munit, n, sizeof(*l->munit));
	l->mid = dup_array(s->mid, n, sizeof(*l->mid));
	l->mdir = dup_array(s->mdir, n, sizeof(*l->mdir));
	l->mexact = dup_array(s->mexact, n, sizeof(*l->mexact));
	l->mstated = dup_array(s->mstated, n, sizeof(*l->mstated));
	l->msummary = dup_array(s->msummary, n, sizeof(*l->msummary));
	l->mpos = dup_array(s->mpos, n, sizeof(*l->mpos));
}

/* The loader's metric arrays, room for n metrics. */
static void metric_arrays(struct loader *l, size_t n)
{
	l->mname = xrealloc(l->mname, n * sizeof(*l->mname));
	l->munit = xrealloc(l->munit, n * sizeof(*l->munit));
	l->mdir = xrealloc(l->mdir, n * sizeof(*l->mdir));
	l->mexact = xrealloc(l->mexact, n);
	l->mstated = xrealloc(l->mstated, n);
	l->msummary = xrealloc(l->msummary, n * sizeof(*l->msummary));
	l->mpos = xrealloc(l->mpos, n * sizeof(*l->mpos));
	l->mid = xrealloc(l->mid, n * sizeof(*l->mid));
	l->alloc_m = n;
}

/* kind as stored, compared here: SQLite's "kind = 3" cost more */
#define METRICS_SQL "SELECT id, name, unit, kind, direction, summary " \
		    "FROM metrics"

/*
 * The row st is on (METRICS_SQL's columns) into the loader's arrays at
 * index i, its strings into pool's blocks.
 */
static void metric_row(struct loader *l, struct comparison *pool,
		       struct stmt *st, size_t i)
{
	l->mid[i] = stmt_column_int64(st, 0);
	l->mdir[i] = 2;
	l->mexact[i] = stmt_column_type(st, 3) != SQLITE_NULL &&
		       stmt_column_int64(st, 3) == MK_EXACT;
	l->mstated[i] = (signed char)stmt_column_int(st, 4);
	l->msummary[i] = stmt_column_type(st, 5) == SQLITE_NULL ? NULL :
		pool_add(pool, (const char *)stmt_column_text(st, 5));
	l->mpos[i] = -1;
	l->mname[i] = pool_add(pool, (const char *)stmt_column_text(st, 1));
	l->munit[i] = pool_add(pool, (const char *)stmt_column_text(st, 2));
}

/*
 * The metrics table on two connections at once (compare's first 7 ms
 * were SQLite reading it on one core, the other idle): a helper thread
 * with a connection of its own (db_open_reader()) reads blocks of ids
 * from the lowest up, while the caller reads the runs and their
 * samples' first range, and then takes blocks from the highest down
 * until the two meet.  Each metric lands at its id in arrays sized for
 * every id, which are then packed in id order: the order the one
 * statement of the plain read gives, so the comparison is the same.
 * Each block is a statement of its own; the table only grows (metrics
 * are never deleted, and new ones get ids above every block), so the
 * blocks read at different moments make the same set as one read.
 */
#define METRIC_BLOCK 512

struct metric_split {
	struct loader *l;
	pthread_mutex_t lock;
	/* the ids no one has taken yet; the helper took [0, next_lo) */
	int64_t next_lo, next_hi;
	int failed;			/* the helper stopped short */
	struct comparison pool;		/* the helper's strings */
	pthread_t thread;
	int running;
};

/* The next block, from the bottom (helper) or the top; 0: none left. */
static int metric_claim(struct metric_split *s, int top, int64_t *lo,
			int64_t *hi)
{
	int got;

	pthread_mutex_lock(&s->lock);
	got = s->next_lo < s->next_hi;
	if (got && top) {
		*hi = s->next_hi;
		*lo = *hi - s->next_lo > METRIC_BLOCK ? *hi - METRIC_BLOCK :
							s->next_lo;
		s->next_hi = *lo;
	} else if (got) {
		*lo = s->next_lo;
		*hi = s->next_hi - *lo > METRIC_BLOCK ? *lo + METRIC_BLOCK :
							s->next_hi;
		s->next_lo = *hi;
	}
	pthread_mutex_unlock(&s->lock);
	return got;
}

/* The metrics of ids lo <= id < hi at their ids; 0, or -1. */
static int metric_range(struct loader *l, struct comparison *pool,
			struct stmt *st, int64_t lo, int64_t hi)
{
	int rc;

	stmt_bind_int64(st, 1, lo);
	stmt_bind_int64(st, 2, hi);
	while ((rc = stmt_step(st)) == SQLITE_ROW)
		metric_row(l, pool, st, (size_t)stmt_column_int64(st, 0));
	stmt_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void *metric_helper(void *arg)
{
	struct metric_split *s = arg;
	struct db reader;
	struct stmt *st = NULL;
	int64_t lo, hi;

	/* a failure here is the caller's to meet: it reads the part again */
	err_divert(err_discard, NULL);
	if (db_open_reader(s->l->db, &reader) ||
	    db_exec(&reader, "PRAGMA cache_size = -1024") ||
	    !(st = db_prepare(&reader, METRICS_SQL
			      " WHERE id >= ? AND id < ?"))) {
		s->failed = 1;
	} else {
		while (metric_claim(s, 0, &lo, &hi))
			if (metric_range(s->l, &s->pool, st, lo, hi)) {
				s->failed = 1;
				break;
			}
	}
	stmt_finalize(st);
	db_close(&reader);
	return NULL;
}

/* Direct row arrays (row_for()) when the metric ids allow them. */
static void index_rows(struct loader *l)
{
	if (l->max_metric_id < ROW_OF_BUDGET)
		l->row_of = xcalloc(l->nr_groups + 1, sizeof(*l->row_of));
}

/* The metric index by id: an array, or past ROW_OF_BUDGET a strmap. */
static void index_metrics(struct loader *l)
{
	size_t i;

	if (l->max_metric_id < ROW_OF_BUDGET) {
		size_t n = (size_t)l->max_metric_id + 1;

		l->mindex = xmalloc(n * sizeof(*l->mindex));
		memset(l->mindex, 0xff, n * sizeof(*l->mindex));
		for (i = 0; i < l->nr_m; i++)
			l->mindex[l->mid[i]] = (int32_t)i;
	} else {
		for (i = 0; i < l->nr_m; i++)
			strmap_put(&l->metrics, (const char *)&l->mid[i],
				   sizeof(l->mid[i]), (int64_t)i);
	}
}

/* The rows of st appended to the loader's arrays; 0, or -1. */
static int metrics_append(struct loader *l, struct stmt *st)
{
	int rc;

	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		int64_t id = stmt_column_int64(st, 0);

		if (id > l->max_metric_id)
			l->max_metric_id = id;
		if (l->nr_m == l->alloc_m)
			metric_arrays(l, l->alloc_m * 2 + 16);
		metric_row(l, l->c, st, l->nr_m++);
	}
	stmt_reset(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return 0;
}

static int is_used(const struct loader *l, int64_t id)
{
	return l->used[id >> 3] & (1u << (id & 7));
}

/*
 * The whole table in one statement, on this thread; or, with l->used,
 * the used ids' metrics a stretch of consecutive ids at a time, then
 * those that came after used_max.
 */
static int metrics_plain(struct loader *l)
{
	struct stmt *st, *range;
	int64_t lo = 0, hi;
	int ret = 0;

	if (l->used) {
		range = db_prepare(l->db, METRICS_SQL
				   " WHERE id >= ? AND id < ?");
		if (!range)
			return -1;
		for (;;) {
			while (lo <= l->used_max && !is_used(l, lo))
				lo++;
			if (lo > l->used_max)
				break;
			for (hi = lo; hi <= l->used_max && is_used(l, hi); hi++)
				;
			stmt_bind_int64(range, 1, lo);
			stmt_bind_int64(range, 2, hi);
			if ((ret = metrics_append(l, range)))
				break;
			lo = hi;
		}
		stmt_finalize(range);
		if (ret)
			return ret;
		st = db_prepare(l->db, METRICS_SQL " WHERE id > ?");
		if (st)
			stmt_bind_int64(st, 1, l->used_max);
	} else {
		st = db_prepare(l->db, METRICS_SQL);
	}
	if (!st)
		return -1;
	ret = metrics_append(l, st);
	stmt_finalize(st);
	return ret;
}

static int list_all_runs(struct loader *l);
static struct stmt *variant_query(struct loader *l, size_t v,
				   const char *head, int aggregates);

/* Mark id as one the variants have. */
static void mark_used(struct loader *l, int64_t id)
{
	if (id >= 0 && id <= l->used_max)
		l->used[id >> 3] |= (unsigned char)(1u << (id & 7));
}

/* The ids in column 0 of st's rows into l->used; 0, or -1. */
static int mark_rows(struct loader *l, struct stmt *st)
{
	int rc;

	while ((rc = stmt_step(st)) == SQLITE_ROW)
		mark_used(l, stmt_column_int64(st, 0));
	stmt_reset(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return 0;
}

/* Entries of a run_values blob read at a time (48 KiB on the stack). */
#define BLOB_PIECE 4096

/*
 * Entries i.. of the run_values blob b, of n entries, into buf (room
 * for BLOB_PIECE): how many, 0 past the end, or -1 after error().
 */
static long blob_piece(struct loader *l, struct db_blob *b, size_t n,
		       size_t i, unsigned char *buf)
{
	size_t k = n - i < BLOB_PIECE ? n - i : BLOB_PIECE;

	if (i >= n)
		return 0;
	if (db_blob_read(b, buf, (int)(k * RUN_VALUE_SIZE),
			 (int64_t)i * RUN_VALUE_SIZE))
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return (long)k;
}

/* The metric ids of run's values into l->used; 0, or -1 after error(). */
static int run_ids(struct loader *l, int64_t run, struct stmt *rows)
{
	unsigned char buf[RUN_VALUE_SIZE * BLOB_PIECE];
	struct db_blob b;

	if (db_blob_open(l->db, "run_values", "data", "run_id", run, &b) ==
	    SQLITE_OK) {
		size_t n = (size_t)db_blob_bytes(&b) / RUN_VALUE_SIZE, i, j;
		long k;

		for (i = 0; (k = blob_piece(l, &b, n, i, buf)) > 0;
		     i += (size_t)k)
			for (j = 0; j < (size_t)k; j++) {
				int64_t mid;
				double x;
				int derived;

				run_value_at(buf, j, &mid, &x, &derived);
				mark_used(l, mid);
			}
		db_blob_close(&b);
		return k < 0 ? -1 : 0;
	}
	/* no blob: a run without samples, or one too large to pack */
	stmt_bind_int64(rows, 1, run);
	return mark_rows(l, rows);
}

/*
 * The ids of every metric the variants have, samples or aggregates,
 * up to max (the largest id there was): l->used.  0, or -1.
 */
static int metrics_used(struct loader *l, int64_t max)
{
	struct comparison *c = l->c;
	struct stmt *st;
	size_t v, i;
	int rc;

	l->used = xcalloc((size_t)max / 8 + 1, 1);
	l->used_max = max;
	if (list_all_runs(l))
		return -1;
	st = db_prepare(l->db, "SELECT metric_id FROM samples "
			       "WHERE run_id = ?");
	if (!st)
		return -1;
	for (v = 0; v < c->nvar; v++)
		for (i = 0; i < l->vrun[v].nr; i++)
			if (l->vrun[v].group[i] != (size_t)-1 &&
			    run_ids(l, l->vrun[v].id[i], st)) {
				stmt_finalize(st);
				return -1;
			}
	stmt_finalize(st);
	for (v = 0; v < c->nvar; v++) {
		st = variant_query(l, v, "SELECT r.metric_id FROM aggregates r "
					 "JOIN variants v ON v.id = "
					 "r.variant_id", 1);
		if (!st)
			return -1;
		rc = mark_rows(l, st);
		stmt_finalize(st);
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * Start reading the metrics: from cmp_opts.metrics, in one statement,
 * only the variants' past SPARSE_METRICS ids (metrics_used()), or (a
 * SQLite file, enough metrics, two threads) split with a helper
 * (struct metric_split).  max_metric_id and the direct row arrays are
 * known when it returns; metrics_end() finishes the rest.
 */
static int metrics_begin(struct loader *l)
{
	struct metric_split *s;
	struct stmt *st;
	int64_t max = -1;

	if (l->c->opts.metrics) {
		metrics_from_cache(l, l->c->opts.metrics);
		goto plain;
	}
	st = db_prepare(l->db, "SELECT max(id) FROM metrics");
	if (!st)
		return -1;
	if (stmt_step(st) == SQLITE_ROW &&
	    stmt_column_type(st, 0) != SQLITE_NULL)
		max = stmt_column_int64(st, 0);
	stmt_finalize(st);
	/* (cmp_metrics_load()'s loader, of no variant, reads them all) */
	if (max >= SPARSE_METRICS && max < SPARSE_MAX_ID && l->c->nvar &&
	    metrics_used(l, max))
		return -1;
	if (l->used || l->db->pg || !parallel_enabled() ||
	    max + 1 < PARALLEL_MIN || max >= ROW_OF_BUDGET) {
		if (metrics_plain(l))
			return -1;
		goto plain;
	}
	l->max_metric_id = max;
	metric_arrays(l, (size_t)max + 1);
	memset(l->mname, 0, ((size_t)max + 1) * sizeof(*l->mname));
	s = l->split = xcalloc(1, sizeof(*s));
	s->l = l;
	pthread_mutex_init(&s->lock, NULL);
	s->next_hi = max + 1;
	s->running = !pthread_create(&s->thread, NULL, metric_helper, s);
	index_rows(l);
	return 0;
plain:
	index_rows(l);
	index_metrics(l);
	return 0;
}

/* Stop the helper (no block left to take) and wait for it. */
static void metrics_join(struct metric_split *s)
{
	if (!s->running)
		return;
	pthread_mutex_lock(&s->lock);
	s->next_hi = s->next_lo;
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->running = 0;
}

static void metrics_split_free(struct loader *l)
{
	struct metric_split *s = l->split;

	if (!s)
		return;
	metrics_join(s);
	pthread_mutex_destroy(&s->lock);
	comparison_release(&s->pool);
	free(s);
	l->split = NULL;
}

/*
 * The helper's pool blocks into the comparison's, before its newest
 * (the one pool_addn() goes on filling).
 */
static void pool_take(struct comparison *c, struct comparison *from)
{
	size_t n = from->nr_pool, keep = c->nr_pool ? 1 : 0;

	if (!n)
		return;
	ALLOC_GROW(c->pool, c->nr_pool + n, c->alloc_pool);
	if (keep)
		c->pool[c->nr_pool - 1 + n] = c->pool[c->nr_pool - 1];
	memcpy(c->pool + c->nr_pool - keep, from->pool, n * sizeof(*c->pool));
	if (!keep) {
		c->pool_used = from->pool_used;
		c->pool_room = from->pool_room;
	}
	c->nr_pool += n;
	from->nr_pool = 0;
}

/*
 * Finish what metrics_begin() started: the caller takes blocks from the
 * top until the helper and it meet, reads again whatever the helper
 * could not, and packs the arrays in id order.  0, or -1 after error().
 */
static int metrics_end(struct loader *l)
{
	struct metric_split *s = l->split;
	struct stmt *st;
	int64_t lo, hi, id;
	size_t n = 0;
	int ret = -1;

	if (!s)
		return 0;
	st = db_prepare(l->db, METRICS_SQL " WHERE id >= ? AND id < ?");
	if (!st)
		goto out;
	while (metric_claim(s, 1, &lo, &hi))
		if (metric_range(l, l->c, st, lo, hi))
			goto fail;
	metrics_join(s);
	if (s->failed && metric_range(l, l->c, st, 0, s->next_lo))
		goto fail;
	pool_take(l->c, &s->pool);
	for (id = 0; id <= l->max_metric_id; id++) {
		if (!l->mname[id])
			continue;
		l->mname[n] = l->mname[id];
		l->munit[n] = l->munit[id];
		l->mid[n] = l->mid[id];
		l->mdir[n] = l->mdir[id];
		l->mexact[n] = l->mexact[id];
		l->mstated[n] = l->mstated[id];
		l->msummary[n] = l->msummary[id];
		l->mpos[n++] = l->mpos[id];
	}
	l->nr_m = n;
	index_metrics(l);
	ret = 0;
	goto out;
fail:
	error("%s: %s", l->db->path, db_errmsg(l->db));
out:
	stmt_finalize(st);
	metrics_split_free(l);
	return ret;
}

static int load_metrics(struct loader *l)
{
	return metrics_begin(l) || metrics_end(l) ? -1 : 0;
}

/* The bytes of a row's block: side[nvar] then vs[nvar - 1]. */
static size_t block_size(const struct comparison *c)
{
	return c->nvar * sizeof(struct cmp_side) +
	       (c->nvar - 1) * sizeof(struct cmp_vs);
}

/* The bytes of a chunk's blocks: two huge pages (xcalloc_big()). */
#define CHUNK_BYTES ((size_t)4 << 20)

static size_t chunk_size(const struct comparison *c)
{
	size_t bs = block_size(c);

	return CHUNK_BYTES / bs > 0 ? CHUNK_BYTES / bs * bs : bs;
}

/*
 * A new chunk (zeroed, or its blocks as they are taken): the one made
 * ahead, if any.  When the range's rows will fill this one too
 * (rows_sure), the next is made now and handed to the digest's helper
 * to fault in (digest_block()), so that the merge does not wait for
 * fresh pages on this core: they took a third of its time.
 */
static void add_chunk(struct loader *l)
{
	struct comparison *c = l->c;
	struct cmp_chunk *k;
	size_t size = chunk_size(c);

	ALLOC_GROW(c->chunk, c->nr_chunk + 1, c->alloc_chunk);
	k = &c->chunk[c->nr_chunk++];
	k->size = size;
	if (l->ahead) {
		k->base = l->ahead;
		k->zeroed = l->ahead_zeroed;
	} else {
		k->base = xmalloc_big(size, &k->zeroed);
	}
	k->used = 0;
	l->ahead = NULL;
	if (l->digester && c->nr + size / block_size(c) < l->rows_sure) {
		l->ahead = xmalloc_big(size, &l->ahead_zeroed);
		__atomic_store_n(&l->populate, l->ahead, __ATOMIC_RELEASE);
	}
}

/*
 * A zeroed block for a new row, from the comparison's chunks: one large
 * allocation for thousands of rows instead of one each (and as many
 * frees).
 */
static struct cmp_side *block_alloc(struct loader *l)
{
	struct comparison *c = l->c;
	size_t bs = block_size(c);
	struct cmp_chunk *k = c->nr_chunk ? &c->chunk[c->nr_chunk - 1] : NULL;
	void *b;

	if (!k || k->size - k->used < bs) {
		add_chunk(l);
		k = &c->chunk[c->nr_chunk - 1];
	}
	b = k->base + k->used;
	k->used += bs;
	/* a kept mapping: only what is used is zeroed (regressions) */
	if (!k->zeroed)
		memset(b, 0, bs);
	return b;
}

static struct cmp_row *row_for(struct loader *l, size_t group, int64_t mid,
			       int create)
{
	struct comparison *c = l->c;
	int64_t key[2] = { (int64_t)group, mid }, idx, m;
	struct cmp_row *r;
	int direct;

	direct = l->row_of && mid >= 0 && mid <= l->max_metric_id;
	if (direct && !l->row_of[group] &&
	    l->row_of_used + (size_t)l->max_metric_id + 1 <= ROW_OF_BUDGET &&
	    !l->hashed_any) {
		l->row_of[group] = xcalloc((size_t)l->max_metric_id + 1,
					   sizeof(uint32_t));
		l->row_of_used += (size_t)l->max_metric_id + 1;
		l->mem_bytes += ((size_t)l->max_metric_id + 1) *
				sizeof(uint32_t);
	}
	direct = direct && l->row_of[group];
	if (direct) {
		if (l->row_of[group][mid])
			return &c->rows[l->row_of[group][mid] - 1];
	} else if (strmap_get(&l->rows, (const char *)key, sizeof(key), &idx)) {
		return &c->rows[idx];
	}
	if (!create)
		return NULL;
	if (l->mindex) {
		if (mid < 0 || mid > l->max_metric_id || l->mindex[mid] < 0)
			return NULL;
		m = l->mindex[mid];
	} else if (!strmap_get(&l->metrics, (const char *)&mid, sizeof(mid),
			       &m)) {
		return NULL;
	}
	/* the digester reads rows: they move only when it is idle */
	if (c->nr + 1 > c->alloc && l->digester)
		worker_wait(l->digester, 0);
	ALLOC_GROW_BIG(c->rows, c->nr + 1, c->alloc);
	r = &c->rows[c->nr];
	memset(r, 0, sizeof(*r));
	r->testcase = l->group[group].testcase;
	r->params = l->group[group].params;
	r->machine = l->group[group].machine;
	r->group_rank = (unsigned)group;	/* ranked later */
	r->metric_rank = (unsigned)m;
	r->metric = l->mname[m];
	r->unit = l->munit[m];
	/*
	 * 2: not known yet.  The catalog is looked up by digest_row(), on
	 * both cores, then kept per metric (resolve_directions()).
	 */
	r->direction = l->mdir[m];
	r->kpi = -1;	/* digest_row() or number_families() */
	r->exact = l->mexact[m];
	r->summary = l->msummary[m];
	r->position = l->mpos[m];
	/* one block for both: side[nvar] then vs[nvar - 1] */
	r->side = block_alloc(l);
	r->vs = (struct cmp_vs *)(r->side + c->nvar);
	if (direct) {
		l->row_of[group][mid] = (uint32_t)c->nr + 1;
	} else {
		/* past the budget: this and every later group hash */
		l->hashed_any = 1;
		strmap_put(&l->rows, (const char *)key, sizeof(key),
			   (int64_t)c->nr);
	}
	l->mem_bytes += sizeof(*r) + block_size(c) + ROW_MORE_BYTES;
	return &c->rows[c->nr++];
}

/*
 * Prepare "head WHERE TRUE" plus variant v's selection and the filters
 * (query.c's variant_where(), the same for runs and aggregates), and bind
 * them: the three queries of the loader.  NULL after error().
 */
static struct stmt *variant_query(struct loader *l, size_t v,
				   const char *head, int aggregates)
{
	struct run_filter f = {
		.sel = &l->c->var[v],
		.testcases = &l->c->opts.testcase_globs,
		.machine = l->c->opts.machine,
	};
	struct sbuf sql = SBUF_INIT;
	struct stmt *st;

	sbuf_addstr(&sql, head);
	sbuf_addstr(&sql, " WHERE TRUE");
	variant_where(&sql, &f, aggregates);
	st = db_prepare(l->db, sql.buf);
	sbuf_release(&sql);
	if (st)
		variant_bind(st, 1, &f);
	return st;
}

/*
 * The runs of variant v: run id -> its group, into run_group; *count
 * (if not NULL) counts them.  0 or -1 after error().
 */
static int map_runs(struct loader *l, size_t v, struct strmap *run_group,
		    long *count, int64_t **ids)
{
	struct comparison *c = l->c;
	struct stmt *st;
	int rc;

	st = variant_query(l, v, "SELECT r.id, v.testcase, v.params, "
				 "v.machine FROM runs r JOIN variants v ON "
				 "v.id = r.variant_id", 0);
	if (!st)
		return -1;
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		int64_t id = stmt_column_int64(st, 0);
		char *params = key_params(
			(const char *)stmt_column_text(st, 2), &c->var[v],
			&c->opts.ignore_params);
		size_t g = group_idx(l, (const char *)stmt_column_text(st, 1),
				     params,
				     (const char *)stmt_column_text(st, 3));

		free(params);
		strmap_put(run_group, (const char *)&id, sizeof(id),
			   (int64_t)g);
		if (ids) {
			*ids = xrealloc(*ids, ((size_t)*count + 1) *
						      sizeof(**ids));
			(*ids)[*count] = id;
		}
		if (count)
			(*count)++;
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return 0;
}

const struct cmp_extra cmp_no_extra = { .sd_source = NAN };

/* The side's extra figures, made when the side has none. */
static struct cmp_extra *extra_of(struct comparison *c, struct cmp_side *sd)
{
	if (!sd->extra) {
		sd->extra = xcalloc(1, sizeof(*sd->extra));
		sd->extra->sd_source = NAN;
		c->side_arrays++;
	}
	return sd->extra;
}

/* One value of MMTests' pool of a side (its statistics' samples). */
static void pool_value(struct loader *l, struct cmp_side *sd, double x)
{
	struct cmp_extra *e = extra_of(l->c, sd);

	ALLOC_GROW(e->mm, e->nmm + 1, e->alloc_mm);
	e->mm[e->nmm++] = x;
	l->mem_bytes += 12;
}

/*
 * The observations of the variant's runs (series of metrics MMTests
 * summarises: pgbench's windows, thpscale's faults) into MMTests' pool.
 */
static int load_pool(struct loader *l, size_t v)
{
	struct strmap run_group = STRMAP_INIT;
	double *pts = NULL;	/* a chunk's (t, value) pairs */
	size_t alloc = 0;
	struct stmt *st;
	int rc;

	if (map_runs(l, v, &run_group, NULL, NULL))
		goto fail;
	st = variant_query(l, v, "SELECT s.run_id, s.metric_id, s.n, "
				 "s.points, s.codec FROM runs r JOIN variants v ON "
				 "v.id = r.variant_id JOIN series s ON "
				 "s.run_id = r.id JOIN metrics m ON m.id = "
				 "s.metric_id AND m.summary IS NOT NULL", 0);
	if (!st)
		goto fail;
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		int64_t id = stmt_column_int64(st, 0), g;
		const unsigned char *p = stmt_column_blob(st, 3);
		size_t len = (size_t)stmt_column_bytes(st, 3), i;
		int64_t n = stmt_column_int64(st, 2);
		int codec = stmt_column_int(st, 4);
		struct cmp_row *r;

		/* a chunk that is not what its row says gives nothing */
		if (n <= 0 || (uint64_t)n > series_max_points(codec, len) ||
		    !strmap_get(&run_group, (const char *)&id, sizeof(id), &g))
			continue;
		r = row_for(l, (size_t)g, stmt_column_int64(st, 1), 0);
		if (!r || !r->summary)
			continue;
		ALLOC_GROW(pts, 2 * (size_t)n, alloc);
		if (series_unpack(codec, p, len, (size_t)n, pts))
			continue;
		for (i = 0; i < (size_t)n; i++)
			pool_value(l, &r->side[v], pts[2 * i + 1]);
		if (l->mem_bytes > CMP_MEM_BUDGET) {
			stmt_finalize(st);
			error("these variants hold more than one comparison "
			      "loads within 64 MiB of memory: narrow it with "
			      "--testcase or --machine");
			goto fail;
		}
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		goto fail_db;
	strmap_clear(&run_group);
	free(pts);
	return 0;
fail_db:
	error("%s: %s", l->db->path, db_errmsg(l->db));
fail:
	strmap_clear(&run_group);
	free(pts);
	return -1;
}

/*
 * Where each metric stands in the order the base's imports reported
 * them (MMTests' operation order): the smallest position over them.
 */
static int load_positions(struct loader *l)
{
	struct run_filter f = {
		.sel = &l->c->var[0],
		.testcases = &l->c->opts.testcase_globs,
		.machine = l->c->opts.machine,
	};
	struct sbuf sql = SBUF_INIT;
	struct stmt *st;
	int rc;

	sbuf_addstr(&sql, "SELECT im.metric_id, min(im.position) FROM "
			  "import_metrics im WHERE im.import_id IN (SELECT "
			  "r.import_id FROM runs r JOIN variants v ON v.id = "
			  "r.variant_id WHERE TRUE");
	variant_where(&sql, &f, 0);
	sbuf_addstr(&sql, ") GROUP BY im.metric_id");
	st = db_prepare(l->db, sql.buf);
	sbuf_release(&sql);
	if (!st)
		return -1;
	variant_bind(st, 1, &f);
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		int64_t id = stmt_column_int64(st, 0), m = -1;

		if (l->mindex) {
			if (id >= 0 && id <= l->max_metric_id)
				m = l->mindex[id];
		} else if (!strmap_get(&l->metrics, (const char *)&id,
				       sizeof(id), &m)) {
			m = -1;
		}
		if (m >= 0)
			l->mpos[m] = (long)stmt_column_int64(st, 1);
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return 0;
}

/*
 * The metrics complete (metrics_end()), their positions for MMTests, and
 * the rows' array: load_samples() calls it once it has read what needs
 * no metric (the runs, the first range of samples).  0, or -1.
 */
static int metrics_ready(struct loader *l)
{
	if (l->ready)
		return 0;
	l->ready = 1;
	if (metrics_end(l) ||
	    (l->c->opts.mm_pool && load_positions(l)))
		return -1;
	/* (the metrics regressions read once are not this comparison's) */
	if (!l->c->opts.metrics)
		l->mem_bytes += l->nr_m * METRIC_BYTES;
	/* usually a row a metric: no array doubled past it (and copied) */
	ALLOC_GROW_BIG(l->c->rows, l->nr_m, l->c->alloc);
	return 0;
}

/*
 * One value of variant v on row r: into its side, and into MMTests' pool
 * (the runs' own values; a value derived from a run's series is replaced
 * there by the series' points, load_pool()).  0, or -1 after error()
 * when the memory budget is spent.
 */
static int add_sample(struct loader *l, struct cmp_row *r, size_t v,
		      size_t g, double x, int derived)
{
	struct comparison *c = l->c;
	struct cmp_side *sd = &r->side[v];

	if (!sd->alloc) {
		sd->alloc = l->gruns[v * l->nr_groups + g];
		if (!sd->alloc)
			BUG("a sample of a group without runs");
		if (c->opts.keep_samples) {
			sd->v = xmalloc(sd->alloc * sizeof(*sd->v));
			c->side_arrays++;
		} else {
			if (l->slab_used + sd->alloc > l->slab_alloc)
				BUG("the samples' slab is full");
			sd->v = l->slab + l->slab_used;
			l->slab_used += sd->alloc;
		}
	}
	/* a sample costs its double and the array's slack */
	l->mem_bytes += 12;
	if (l->mem_bytes > CMP_MEM_BUDGET)
		return error("these variants hold more than one comparison "
			     "loads within 64 MiB of memory (%zu rows so far): "
			     "narrow it with --testcase or --machine", c->nr);
	/* one value a run: samples' primary key is (run, metric) */
	if (sd->nv == sd->alloc)
		return error("%s: a metric of '%s' has more values than its "
			     "runs (a damaged run_values blob?)", l->db->path,
			     c->var[v].text);
	sd->v[sd->nv++] = x;
	sd->source = SIDE_SAMPLES;
	if (c->opts.mm_pool && r->summary && !derived)
		pool_value(l, sd, x);
	return 0;
}

/*
 * The samples of a range of metric ids, every run's read first
 * (read_slice()) and then taken metric by metric (merge_slices()): a
 * row gets all its values at once, while it is in the cache, instead of
 * once per run over the whole range.  key: the metric id times 2, plus 1
 * when the value was reduced from a series.
 */
struct slice_value {
	int64_t key;
	double x;
};

struct slices {
	struct slice_value *val;
	size_t nr, alloc;
	struct slice {
		size_t v, g;
		size_t pos, end;	/* its values: val[pos..end) */
	} *run;
	size_t nr_run, alloc_run;
};

static void slice_add(struct slices *s, int64_t mid, double x, int derived)
{
	ALLOC_GROW_BIG(s->val, s->nr + 1, s->alloc);
	s->val[s->nr].key = mid * 2 + !!derived;
	s->val[s->nr++].x = x;
}

/*
 * The values of one run for the metrics of ids lo <= id < hi, appended
 * to s: from its run_values blob (ascending ids: a binary search for lo,
 * then a read in pieces up to hi), or, for a run without one, from its
 * rows of samples (ordered by metric id, as the blob is).
 */
static int read_slice(struct loader *l, struct slices *s, int64_t run,
		      int64_t lo, int64_t hi, struct stmt *rows)
{
	unsigned char buf[RUN_VALUE_SIZE * BLOB_PIECE];
	struct db_blob b;
	int rc;

	if (db_blob_open(l->db, "run_values", "data", "run_id", run, &b) ==
	    SQLITE_OK) {
		size_t n = (size_t)db_blob_bytes(&b) / RUN_VALUE_SIZE;
		size_t a = 0, z = n, i, j;
		int64_t last = lo - 1;
		long k;

		while (a < z) {
			size_t m = a + (z - a) / 2;
			unsigned char e[4];

			if (db_blob_read(&b, e, 4, (int64_t)m * RUN_VALUE_SIZE))
				goto fail_blob;
			if ((int64_t)(le_get_u32(e) & ~RUN_VALUE_DERIVED) < lo)
				a = m + 1;
			else
				z = m;
		}
		for (i = a; (k = blob_piece(l, &b, n, i, buf)) > 0;
		     i += (size_t)k) {
			for (j = 0; j < (size_t)k; j++) {
				int64_t mid;
				double x;
				int derived;

				run_value_at(buf, j, &mid, &x, &derived);
				if (mid >= hi) {
					db_blob_close(&b);
					return 0;
				}
				/*
				 * merge_slices() takes each metric once:
				 * the ids must rise (db_pack_runs())
				 */
				if (mid <= last) {
					db_blob_close(&b);
					return error("%s: the values of run "
						     "%" PRId64 " are out of "
						     "order (a damaged "
						     "run_values blob)",
						     l->db->path, run);
				}
				last = mid;
				slice_add(s, mid, x, derived);
			}
		}
		db_blob_close(&b);
		return k < 0 ? -1 : 0;
fail_blob:
		db_blob_close(&b);
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	}
	/* no blob (a run without samples, or one too large to pack) */
	stmt_bind_int64(rows, 1, run);
	stmt_bind_int64(rows, 2, lo);
	stmt_bind_int64(rows, 3, hi);
	while ((rc = stmt_step(rows)) == SQLITE_ROW)
		slice_add(s, stmt_column_int64(rows, 0),
			  stmt_column_double(rows, 1), stmt_column_int(rows, 2));
	stmt_reset(rows);
	if (rc != SQLITE_DONE)
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return 0;
}

static size_t digest_row(struct loader *l, struct cmp_row *r);

/*
 * A range's rows digested while the merge goes on: each block of rows
 * the merge has completed goes to the helper thread, or, when it has
 * two blocks already, is digested here; whichever core is free takes
 * the work.
 */
#define DIGEST_BLOCK 256
struct digest_pipe {
	struct loader *l;
	struct worker *w;	/* NULL: one thread */
	size_t handed;		/* rows before it are digested or queued */
	size_t block[3][2];	/* queued rows [lo, hi): at most two wait */
	int next;
	size_t freed_worker, freed_here;	/* samples, digest_row() */
};

/* digest_row() over rows b[0]..b[1]; the samples it freed */
static size_t digest_range(struct loader *l, const size_t *b)
{
	size_t i, freed = 0;

	for (i = b[0]; i < b[1]; i++)
		freed += digest_row(l, &l->c->rows[i]);
	return freed;
}

static void digest_block(void *ctx, void *job)
{
	struct digest_pipe *p = ctx;
	char *next = __atomic_exchange_n(&p->l->populate, NULL,
					 __ATOMIC_ACQ_REL);

	/* the merge's next chunk, while it fills the present one */
	if (next)
		populate_big(next, chunk_size(p->l->c));

	p->freed_worker += digest_range(p->l, job);
}

/* Rows p->handed..hi are complete: to the helper, or digested here. */
static void pipe_hand(struct digest_pipe *p, size_t hi)
{
	size_t *b = p->block[p->next];

	if (hi <= p->handed)
		return;
	b[0] = p->handed;
	b[1] = hi;
	p->handed = hi;
	if (p->w && !worker_try_queue(p->w, b))
		p->next = (p->next + 1) % 3;
	else
		p->freed_here += digest_range(p->l, b);
}

/*
 * The values the runs' slices hold, metric by metric: each row's side
 * gets its values in the runs' order, as one run after another would
 * give them.  A metric's rows are complete once it is done: they go to
 * the digest by blocks (pipe).  0, or -1 after error().
 */
static int merge_slices(struct loader *l, struct slices *s,
			struct digest_pipe *pipe)
{
	for (;;) {
		int64_t key = INT64_MAX, mid;
		struct cmp_row *r = NULL;
		size_t k, g = (size_t)-1;

		/* the smallest metric id left in any slice */
		for (k = 0; k < s->nr_run; k++) {
			struct slice *sl = &s->run[k];

			if (sl->pos < sl->end && s->val[sl->pos].key < key)
				key = s->val[sl->pos].key;
		}
		if (key == INT64_MAX)
			return 0;
		if (l->c->nr - pipe->handed >= DIGEST_BLOCK)
			pipe_hand(pipe, l->c->nr);
		mid = key >> 1;
		for (k = 0; k < s->nr_run; k++) {
			struct slice *sl = &s->run[k];

			while (sl->pos < sl->end &&
			       s->val[sl->pos].key >> 1 == mid) {
				const struct slice_value *sv =
					&s->val[sl->pos++];

				/* runs of one group follow each other */
				if (sl->g != g) {
					g = sl->g;
					r = row_for(l, g, mid, 1);
				}
				/* !r: a metric not selected by --metric */
				if (r && add_sample(l, r, sl->v, g, sv->x,
						    (int)(sv->key & 1)))
					return -1;
			}
		}
	}
}

/*
 * The rows a range's slices make at least: in each group, as many as
 * its run with the most values there (each makes a row of its own).
 */
static size_t rows_at_least(struct loader *l, const struct slices *s)
{
	size_t *most = xcalloc(l->nr_groups + 1, sizeof(*most)), k, n = 0;

	for (k = 0; k < s->nr_run; k++) {
		size_t g = s->run[k].g, vals = s->run[k].end - s->run[k].pos;

		if (vals > most[g])
			most[g] = vals;
	}
	for (k = 0; k < l->nr_groups; k++)
		n += most[k];
	free(most);
	return n;
}

/* The runs of variant v and their groups, into l->vrun[v]. */
static int list_runs(struct loader *l, size_t v)
{
	struct comparison *c = l->c;
	struct strmap run_group = STRMAP_INIT;
	struct vruns *vr = &l->vrun[v];
	long i;

	if (map_runs(l, v, &run_group, &c->runs[v], &vr->id)) {
		strmap_clear(&run_group);
		return -1;
	}
	vr->group = xmalloc(((size_t)c->runs[v] + 1) * sizeof(*vr->group));
	for (i = 0; i < c->runs[v]; i++) {
		int64_t g = -1;

		strmap_get(&run_group, (const char *)&vr->id[i],
			   sizeof(vr->id[i]), &g);
		vr->group[i] = (size_t)g;
	}
	vr->nr = (size_t)c->runs[v];
	strmap_clear(&run_group);
	return 0;
}

/* The runs of every variant (once: metrics_used() may have). */
static int list_all_runs(struct loader *l)
{
	size_t v;

	for (v = 0; !l->listed && v < l->c->nvar; v++)
		if (list_runs(l, v))
			return -1;
	l->listed = 1;
	return 0;
}

static int log_pooled(const struct cmp_side *a, const struct cmp_side *b,
		      double *diff, double *s2);

/*
 * A multiply-xorshift hash of n bytes by 64-bit words, from h, with one
 * of two sets of constants: twin rows are found by both (two
 * independent 64-bit hashes).
 */
static const uint64_t hash_k[2][3] = {
	{ 0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL, 0x94d049bb133111ebULL },
	{ 0xff51afd7ed558ccdULL, 0xc4ceb9fe1a85ec53ULL, 0x100000001b3ULL },
};

static uint64_t mix64(uint64_t h, const void *p, size_t n, int set)
{
	const uint64_t *k = hash_k[set];
	const unsigned char *b = p;
	unsigned r = set ? 31 : 27;

	while (n >= 8) {
		uint64_t w;

		memcpy(&w, b, 8);
		h ^= w * k[0];
		h = (h << r | h >> (64 - r)) * k[1];
		b += 8;
		n -= 8;
	}
	while (n--)
		h = (h ^ *b++) * k[2];
	return h ^ h >> 31;
}

/*
 * Welch's test of two sides of samples, from the moments digest_row()
 * has just taken when neither side is constant: stats_welch() would
 * compute the same mean and sum of squares again, bit for bit
 * (stats_mean(), ss_from()).  A constant side, or one whose moments
 * failed (a value not finite), goes through stats_welch() itself.
 */
static int welch(const struct cmp_side *a, const struct cmp_side *b,
		 struct stats_test *t)
{
	if (a->sum.n && b->sum.n && a->sum.min != a->sum.max &&
	    b->sum.min != b->sum.max)
		return stats_welch_summary(a->sum.mean, a->sum.sd_sample,
					   (double)a->nv, b->sum.mean,
					   b->sum.sd_sample, (double)b->nv, t);
	return stats_welch(a->v, a->nv, b->v, b->nv, t);
}

/*
 * What the tests and the tables need of row r's samples, taken while
 * they are loaded: each side's moments, whether it is constant, its
 * first value, MMTests' spread and best mean (--format mmtests); each
 * pair's Welch and U tests and log-scale figures; a 128-bit hash of
 * every side's samples for twins.  Then, unless keep_samples, the
 * samples go.  Returns how many were freed.
 */
static size_t digest_row(struct loader *l, struct cmp_row *r)
{
	struct comparison *c = l->c;
	uint64_t h0 = 0xcbf29ce484222325ULL, h1 = 0x243f6a8885a308d3ULL;
	size_t v, freed = 0;

	/* the row's own copy: l->mdir is written by one thread only */
	if (r->direction == 2)
		r->direction = direction_of(&l->dirs, r->metric, r->unit,
					    l->mstated[r->metric_rank]);
	if (!c->opts.metrics)
		r->kpi = (signed char)metric_is_kpi(r->metric);
	for (v = 0; v < c->nvar; v++) {
		struct cmp_side *s = &r->side[v];
		int hi = r->direction == DIR_HIGHER;
		size_t i;

		h0 = mix64(h0, &s->nv, sizeof(s->nv), 1);
		h1 = mix64(h1, &s->nv, sizeof(s->nv), 0);
		s->mm_sd = s->mm_bmean = NAN;
		if (s->source != SIDE_SAMPLES || !s->nv)
			continue;
		h0 = mix64(h0, s->v, s->nv * sizeof(*s->v), 1);
		h1 = mix64(h1, s->v, s->nv * sizeof(*s->v), 0);
		if (stats_moments(s->v, s->nv, &s->sum))
			s->sum.n = 0;	/* finish_side() drops the side */
		s->plain_mean = 0;
		for (i = 0; i < s->nv; i++)
			s->plain_mean += s->v[i];
		s->plain_mean /= (double)s->nv;
		if (c->opts.mm_pool && s->sum.n) {
			int harm = hi && isfinite(s->sum.hmean);

			s->mm_sd = harm ? stats_mmtests_hstddev(s->v, s->nv) :
				   s->nv > 1 ? s->sum.sd_sample : NAN;
			s->mm_bmean = stats_mmtests_best_mean(s->v, s->nv, 95,
							      hi, harm);
		}
	}
	r->hash[0] = h0;
	r->hash[1] = h1;
	for (v = 1; v < c->nvar; v++) {
		const struct cmp_side *a = &r->side[0], *b = &r->side[v];
		struct cmp_vs *vs = &r->vs[v - 1];
		struct stats_test t;

		vs->welch_ok = vs->mwu_ok = vs->logs = 0;
		vs->welch_p = vs->mwu_p = NAN;
		if (a->source != SIDE_SAMPLES || b->source != SIDE_SAMPLES)
			continue;
		vs->logs = (signed char)log_pooled(a, b, &vs->log_diff,
						   &vs->log_s2);
		if (a->nv >= 2 && b->nv >= 2 && welch(a, b, &t) == 0) {
			vs->welch_ok = 1;
			vs->welch_p = t.p;
		}
		/* the U test where test_pair() could take it */
		if ((c->opts.test == CMP_TEST_MWU ||
		     (c->opts.test == CMP_TEST_AUTO && a->nv >= 2 &&
		      b->nv >= 2 && stats_mwu_min_p(a->nv, b->nv) *
		      CMP_MWU_GRID <= c->opts.alpha))) {
			/*
			 * Its exact p is counted only if test_pair() takes
			 * it (a family of one at 5+5 runs): U is kept
			 */
			int rc = stats_mwu_deferred(a->v, a->nv, b->v, b->nv,
						    &t);

			vs->mwu_ok = rc == 1 ? 2 : rc == 0;
			vs->mwu_p = rc == 1 ? t.stat : t.p;
		}
	}
	if (c->opts.keep_samples)
		return 0;
	/* the samples lie in the range's slab (add_sample()) */
	for (v = 0; v < c->nvar; v++) {
		struct cmp_side *s = &r->side[v];

		if (s->v)
			freed += s->nv;
		s->v = NULL;
		s->alloc = 0;
	}
	return freed;
}

/*
 * Every row's direction, from the catalog once per metric: kept in
 * l->mdir from the rows digest_row() looked up, looked up here for the
 * rows it did not see (aggregates).  Before sort_rows(): metric_rank is
 * still the metric's index.
 */
static void resolve_directions(struct loader *l, size_t first)
{
	struct comparison *c = l->c;
	size_t i;

	for (i = first; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];
		size_t m = r->metric_rank;
		signed char *d = &l->mdir[m];

		if (r->direction == 2 && *d == 2)
			*d = (signed char)direction_of(&l->dirs, r->metric,
						       r->unit, l->mstated[m]);
		if (r->direction == 2)
			r->direction = *d;
		else if (*d == 2)
			*d = (signed char)r->direction;
	}
}

/*
 * The samples of every variant, a range of metric ids at a time: each
 * range's rows are digested (digest_row()) before the next is read, so
 * that at most about CMP_CHUNK_SAMPLES samples are held (with
 * keep_samples: all of them, in one range).
 */
static int load_samples(struct loader *l)
{
	struct comparison *c = l->c;
	struct stmt *rows;
	struct slices sl = { NULL, 0, 0, NULL, 0, 0 };
	size_t v, i, runs = 0, chunk = CMP_CHUNK_SAMPLES, first = c->nr;
	size_t freed;
	struct digest_pipe pipe = { .l = l };
	int64_t lo, width;
	const char *env = getenv("PERFSIFT_CMP_CHUNK");
	int ret = -1;

	if (list_all_runs(l))
		return -1;
	for (v = 0; v < c->nvar; v++)
		runs += l->vrun[v].nr;
	l->gruns = xcalloc(c->nvar * l->nr_groups + 1, sizeof(*l->gruns));
	for (v = 0; v < c->nvar; v++)
		for (i = 0; i < l->vrun[v].nr; i++)
			if (l->vrun[v].group[i] != (size_t)-1)
				l->gruns[v * l->nr_groups +
					 l->vrun[v].group[i]]++;
	if (env && *env)
		chunk = (size_t)strtoull(env, NULL, 10);
	width = c->opts.keep_samples || !runs ? l->max_metric_id + 1 :
		(int64_t)(chunk / runs);
	if (width < 1)
		width = 1;
	rows = db_prepare(l->db, "SELECT metric_id, value, derived FROM "
				 "samples WHERE run_id = ? AND metric_id >= ? "
				 "AND metric_id < ? ORDER BY metric_id");
	if (!rows)
		return -1;
	/*
	 * A range's values: about width x runs, never doubled and copied.
	 * Its sides' room: at most width x runs (a row of a range, a metric
	 * in a group, has room for the group's runs of each variant).
	 */
	ALLOC_GROW_BIG(sl.val, (size_t)width * runs < chunk ?
			   (size_t)width * runs : chunk, sl.alloc);
	if (!c->opts.keep_samples) {
		l->slab_alloc = (size_t)width * runs;
		/* written before it is read (add_sample()) */
		l->slab = xmalloc_big((l->slab_alloc + 1) *
				      sizeof(*l->slab), NULL);
	}
	for (lo = 0; lo <= l->max_metric_id; lo += width) {
		first = c->nr;
		sl.nr = sl.nr_run = 0;
		l->slab_used = 0;
		for (v = 0; v < c->nvar; v++)
			for (i = 0; i < l->vrun[v].nr; i++) {
				struct slice *run;

				if (l->vrun[v].group[i] == (size_t)-1)
					continue;
				ALLOC_GROW(sl.run, sl.nr_run + 1,
					   sl.alloc_run);
				run = &sl.run[sl.nr_run++];
				run->v = v;
				run->g = l->vrun[v].group[i];
				run->pos = sl.nr;
				if (read_slice(l, &sl, l->vrun[v].id[i], lo,
					       lo + width, rows))
					goto out;
				run->end = sl.nr;
			}
		l->rows_sure = c->nr + rows_at_least(l, &sl);
		if (!l->ready) {
			if (metrics_ready(l))
				goto out;
			/* a helper for the digest when there is enough */
			if (l->nr_m * l->nr_groups >= 2 * DIGEST_BLOCK)
				pipe.w = worker_start(digest_block, &pipe);
			l->digester = pipe.w;
		}
		pipe.handed = first;
		if (merge_slices(l, &sl, &pipe))
			goto out;
		/* the rows of this range's metrics were made by it */
		pipe_hand(&pipe, c->nr);
		if (pipe.w)
			worker_wait(pipe.w, 0);
		resolve_directions(l, first);
		/* 12 bytes a sample were counted: its double, slack */
		freed = 12 * (pipe.freed_worker + pipe.freed_here);
		pipe.freed_worker = pipe.freed_here = 0;
		l->mem_bytes = freed < l->mem_bytes ? l->mem_bytes - freed : 0;
		if (lo > INT64_MAX - width)
			break;
	}
	ret = 0;
out:
	worker_stop(pipe.w);
	l->digester = NULL;
	l->populate = NULL;
	if (l->ahead)
		free_big(l->ahead, chunk_size(c));
	l->ahead = NULL;
	/* a range cut short: its rows point into the slab */
	for (i = first; ret && l->slab && i < c->nr; i++)
		for (v = 0; v < c->nvar; v++)
			c->rows[i].side[v].v = NULL;
	FREE_BIG(l->slab, l->slab_alloc + 1);
	l->slab = NULL;
	FREE_BIG(sl.val, sl.alloc);
	free(sl.run);
	stmt_finalize(rows);
	return ret;
}

/*
 * Which aggregate statistic stands for the mean, best first: the
 * averages, then the one value a table prints of an operation that has
 * no average (MMTests' Duration and Ops monitors; the 2020 single-value
 * modules' Lat, MB/sec and Percentage).
 */
static int stat_rank(const char *stat)
{
	static const char *const order[] = {
		"mean", "Amean", "Hmean", "Gmean", "avg", "average",
		"Duration", "Ops", "Lat", "MB/sec", "Percentage",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (!strcasecmp(stat, order[i]))
			return (int)i;
	return -1;
}

static int load_aggregates(struct loader *l, size_t v)
{
	struct comparison *c = l->c;
	struct stmt *st;
	int rc;

	st = variant_query(l, v, "SELECT v.testcase, v.params, v.machine, "
				 "r.metric_id, r.stat, r.value, r.stddev, "
				 "r.stddev_kind, r.n, r.marker, "
				 "r.stddev_source, r.change_source, "
				 "r.change_base FROM "
				 "aggregates r JOIN variants v ON v.id = "
				 "r.variant_id", 1);
	if (!st)
		return -1;
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		const char *stat = (const char *)stmt_column_text(st, 4);
		int rank = stat_rank(stat);
		char *params;
		struct cmp_row *r;
		struct cmp_side *sd;
		struct cmp_extra *e;
		struct agg_stat *a;
		size_t g;

		params = key_params((const char *)stmt_column_text(st, 1),
				    &c->var[v], &c->opts.ignore_params);
		g = group_idx(l, (const char *)stmt_column_text(st, 0),
			      params, (const char *)stmt_column_text(st, 2));
		free(params);
		r = row_for(l, g, stmt_column_int64(st, 3), 1);
		if (!r)
			continue;
		sd = &r->side[v];
		if (sd->source == SIDE_SAMPLES)
			continue;
		/* every statistic is kept for the mmtests layout */
		e = extra_of(c, sd);
		ALLOC_GROW(e->stats, e->nr_stats + 1, e->alloc_stats);
		a = &e->stats[e->nr_stats++];
		a->stat = pool_add(c, stat);
		a->value = stmt_column_double(st, 5);
		a->n = stmt_column_type(st, 8) == SQLITE_NULL ? -1 :
			stmt_column_int(st, 8);
		a->marker = pool_add(c, (const char *)stmt_column_text(st, 9));
		a->change_source = pool_add(c,
				(const char *)stmt_column_text(st, 11));
		a->change_base = pool_add(c,
				(const char *)stmt_column_text(st, 12));
		/* the best mean-like one stands for the side */
		if (rank < 0 || (sd->source == SIDE_AGGREGATE &&
				 stat_rank(e->stat) <= rank))
			continue;
		sd->source = SIDE_AGGREGATE;
		e->stat = a->stat;
		sd->mean = a->value;
		sd->sd = stmt_column_type(st, 6) == SQLITE_NULL ?
				 NAN : stmt_column_double(st, 6);
		e->sd_kind = pool_add(c,
				(const char *)stmt_column_text(st, 7));
		sd->n = a->n;
		e->marker = a->marker;
		e->sd_source = stmt_column_type(st, 10) == SQLITE_NULL ?
				NAN : stmt_column_double(st, 10);
		e->change_source = a->change_source;
		e->change_base = a->change_base;
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return 0;
}

/* ---- statistics per row ---- */

static void finish_side(struct cmp_side *s)
{
	struct cmp_extra *e;

	if (s->source == SIDE_SAMPLES) {
		/* the moments were taken as the samples came (digest_row) */
		if (!s->sum.n) {
			s->source = SIDE_NONE;
			return;
		}
		s->n = (long)s->nv;
		s->mean = s->sum.mean;
		s->sd = s->sum.sd_sample;
		s->sd_sample = s->sum.sd_sample;
		return;
	}
	if (s->source != SIDE_AGGREGATE) {
		s->n = 0;
		s->mean = s->sd = s->sd_sample = NAN;
		return;
	}
	/* an MMTests table gives the spread as its own row */
	e = s->extra;
	if (!isfinite(s->sd)) {
		const char *want = !strcmp(e->stat, "Hmean") ? "HStddev"
							     : "Stddev";
		size_t i;

		for (i = 0; i < e->nr_stats; i++)
			if (!strcmp(e->stats[i].stat, want)) {
				s->sd = e->stats[i].value;
				e->sd_kind = "sample";
			}
	}
	/* stddev as the source gave it, stored absolute; Welch wants n-1 */
	s->sd_sample = NAN;
	if (isfinite(s->sd) && s->n >= 2) {
		if (e->sd_kind && !strcmp(e->sd_kind, "population"))
			s->sd_sample = s->sd * sqrt((double)s->n /
						    (double)(s->n - 1));
		else
			s->sd_sample = s->sd;
	}
}

/*
 * Notes repeat over thousands of rows: each distinct text is kept once
 * in the comparison, and the rows point at it.
 */
static int64_t set_note(struct comparison *c, struct cmp_vs *vs,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The note text[0..len) on vs, as a new one; returns its index. */
static int64_t add_note(struct comparison *c, struct cmp_vs *vs,
			const char *text, size_t len)
{
	ALLOC_GROW(c->notes, c->nr_notes + 1, c->alloc_notes);
	c->notes[c->nr_notes] = pool_addn(c, text, len);
	vs->note = c->notes[c->nr_notes];
	return (int64_t)c->nr_notes++;
}

/* The note text[0..len) on vs, interned; returns its index in c->notes. */
static int64_t intern_note(struct comparison *c, struct cmp_vs *vs,
			   const char *text, size_t len)
{
	int64_t i;

	/* a row in ten may have a note: look it up, do not scan them all */
	if (strmap_get(&c->note_index, text, len, &i)) {
		vs->note = c->notes[i];
		return i;
	}
	i = add_note(c, vs, text, len);
	strmap_put(&c->note_index, text, len, i);
	return i;
}

/* Returns the note's index in c->notes. */
static int64_t set_note(struct comparison *c, struct cmp_vs *vs,
			const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0)
		len = 0;
	else if ((size_t)len >= sizeof(buf))
		len = sizeof(buf) - 1;
	return intern_note(c, vs, buf, (size_t)len);
}

/*
 * The p-value of one pair of sides.  need: the level a p-value must
 * reach for the first discovery in the row's family (alpha / the
 * family's tests under FDR control, alpha without).  auto takes the U
 * test only when its attainable p-values are fine enough below that
 * level: the smallest at most need / CMP_MWU_GRID (at 4+4 it is 0.029,
 * a test of level 0.029 where 0.05 was allowed, and useless in a family
 * of 50), else Welch.
 */
static void test_pair(struct comparison *c, const struct cmp_side *a,
		      const struct cmp_side *b, struct cmp_vs *vs, double need)
{
	struct stats_test t;
	int use_mwu;

	vs->p = vs->q = vs->p_family = NAN;
	vs->method = CMP_NONE;
	vs->need_p = need;
	if (a->source == SIDE_SAMPLES && b->source == SIDE_SAMPLES) {
		double min_p = stats_mwu_min_p(a->nv, b->nv);
		int mwu_reaches = min_p <= need;

		use_mwu = c->opts.test == CMP_TEST_MWU ||
			  (c->opts.test == CMP_TEST_AUTO &&
			   min_p * CMP_MWU_GRID <= need &&
			   a->nv >= 2 && b->nv >= 2);
		if (use_mwu) {
			/* the tests ran on the samples (digest_row()) */
			if (vs->mwu_ok == 2) {
				vs->mwu_p = stats_mwu_p_untied(a->nv, b->nv,
							       vs->mwu_p);
				vs->mwu_ok = 1;
			}
			if (vs->mwu_ok) {
				vs->p = vs->mwu_p;
				vs->method = CMP_MWU;
			}
			if (min_p > c->opts.alpha)
				set_note(c, vs, "%zu+%zu runs: the U test cannot "
					 "reach alpha %g; need >= %zu per side",
					 a->nv, b->nv, c->opts.alpha,
					 c->mwu_need_n);
			else if (!mwu_reaches)
				set_note(c, vs, "%zu+%zu runs: the U test cannot "
					 "reach %.2g, the level its family "
					 "needs", a->nv, b->nv, need);
			return;
		}
		if (a->nv < 2 || b->nv < 2) {
			set_note(c, vs, "n=1 on a side: no test possible; "
				 "need >= 2 runs per side");
			return;
		}
		if (vs->welch_ok) {
			vs->p = vs->welch_p;
			vs->method = CMP_WELCH;
		}
		return;
	}
	/* one side or both are summaries */
	if (a->n >= 2 && b->n >= 2 && isfinite(a->sd_sample) &&
	    isfinite(b->sd_sample)) {
		if (stats_welch_summary(a->mean, a->sd_sample, (double)a->n,
					b->mean, b->sd_sample, (double)b->n,
					&t) == 0) {
			vs->p = t.p;
			vs->method = CMP_WELCH;
		}
		return;
	}
	if (b->source == SIDE_AGGREGATE && (a->n < 0 || b->n < 0)) {
		vs->method = CMP_SOURCE;
		set_note(c, vs, "n not known: no p-value; the source's marker "
			 "stands");
		return;
	}
	if (a->n == 1 || b->n == 1)
		set_note(c, vs, "n=1 on a side: no test possible; need >= 2 runs "
			 "per side");
	else
		set_note(c, vs, "no standard deviation given: no test possible");
}

/* Every value of a side the same (an exact quantity measured again). */
static int constant_side(const struct cmp_side *s)
{
	return s->source == SIDE_SAMPLES && s->nv && s->sum.min == s->sum.max;
}

/*
 * A metric of kind exact (code size, a count that does not vary): one
 * value per side is enough, the change itself decides and there is no
 * p-value.  Returns 1 when that applies; 0 when a side varies after all
 * (then it is tested like any other metric, with a note).
 */
static int exact_pair(struct comparison *c, const struct cmp_side *a,
		      const struct cmp_side *b, struct cmp_vs *vs)
{
	vs->p = vs->q = vs->p_family = NAN;
	vs->method = CMP_NONE;
	vs->exact_decided = 0;
	if (!constant_side(a) || !constant_side(b)) {
		set_note(c, vs, "exact metric varies between runs: tested");
		return 0;
	}
	vs->exact_decided = 1;
	vs->exact_changed = a->sum.min != b->sum.min;	/* both constant */
	set_note(c, vs, "exact metric: the change decides, no test");
	return 1;
}

/*
 * Fieller's interval at 1 - alpha, its quantile from the table: one
 * evaluation of the t distribution a row instead of two or three (the
 * intervals were a sixth of a compare's instructions)
 */
static void change_ci(const struct comparison *c, const struct cmp_side *a,
		      const struct cmp_side *b, struct cmp_vs *vs)
{
	const struct stats_tq *tq = c->opts.ci_tq ? c->opts.ci_tq :
						    &c->ci_tq_own;

	vs->ci_low_pct = vs->ci_high_pct = NAN;
	if (a->n >= 2 && b->n >= 2 && isfinite(a->sd_sample) &&
	    isfinite(b->sd_sample))
		stats_change_ci_tq(tq, a->mean, a->sd_sample, (double)a->n,
				   b->mean, b->sd_sample, (double)b->n,
				   &vs->ci_low_pct, &vs->ci_high_pct);
}

static void change_and_ci(const struct comparison *c,
			  const struct cmp_side *a, const struct cmp_side *b,
			  struct cmp_vs *vs)
{
	if (a->mean == b->mean)
		vs->change_pct = 0;	/* also 0 -> 0 */
	else if (a->mean != 0 && isfinite(a->mean) && isfinite(b->mean))
		vs->change_pct = 100.0 * (b->mean / a->mean - 1.0);
	else
		vs->change_pct = NAN;
	vs->ci_low_pct = vs->ci_high_pct = NAN;
	if (!c->opts.ci_later)
		change_ci(c, a, b, vs);
}

void compare_row_ci(const struct comparison *c, struct cmp_row *r)
{
	size_t v;

	for (v = 1; v < c->nvar; v++)
		change_ci(c, &r->side[0], &r->side[v], &r->vs[v - 1]);
}

/* Every value of both sides one and the same: nothing to test. */
static int identical(const struct cmp_side *a, const struct cmp_side *b)
{
	return constant_side(a) && constant_side(b) &&
	       a->sum.min == b->sum.min;
}

/* The z of the last level asked, per thread (decide_rows()'s halves). */
struct z_cache {
	double need, z;
};

/*
 * Runs per side that a two-sample test at level need with power 0.8
 * would want to see the observed difference: 2 (z + z_0.8)^2 s^2 / d^2,
 * s the two sides' sample sds pooled; at least twice the runs there are
 * (when the estimate says the runs were enough, the observed spread was
 * luckier than the test could trust: Pinpoint doubles its repeats then).
 * 0 when it cannot be said.
 */
static long runs_needed(const struct cmp_side *a, const struct cmp_side *b,
			double need, struct z_cache *zc)
{
	double d = fabs(b->mean - a->mean), s2, z, n;

	if (!(d > 0) || !isfinite(a->sd_sample) || !isfinite(b->sd_sample) ||
	    !(need > 0 && need < 1))
		return 0;
	s2 = (a->sd_sample * a->sd_sample + b->sd_sample * b->sd_sample) / 2;
	if (!(s2 > 0))
		return 0;
	/* need is the same over a family: its quantile is computed once */
	if (need != zc->need) {
		zc->z = stats_norm_ppf(1 - need / 2) + stats_norm_ppf(0.8);
		zc->need = need;
	}
	z = zc->z;
	n = ceil(2 * z * z * s2 / (d * d));
	if (n < 2.0 * (double)(a->nv > b->nv ? a->nv : b->nv))
		n = 2.0 * (double)(a->nv > b->nv ? a->nv : b->nv);
	return n < 1e6 ? (long)n : 1000000;
}

/* Significance and verdict of variant v (>= 1) on row r. */
static void verdict(const struct comparison *c, struct cmp_row *r, size_t v,
		    struct z_cache *zc)
{
	const struct cmp_side *a = &r->side[0], *b = &r->side[v];
	struct cmp_vs *vs = &r->vs[v - 1];

	double level = c->opts.fdr ? vs->q : vs->p;

	if (vs->exact_decided) {
		vs->significant = vs->exact_changed;
		if (!vs->significant) {
			vs->verdict = CMP_UNCHANGED;
			return;
		}
	} else if (vs->method == CMP_SOURCE) {
		const char *mark = cmp_extra(b)->marker;

		vs->significant = mark && *mark;
	} else {
		vs->significant = isfinite(level) && level < c->opts.alpha;
	}
	if (!isfinite(a->mean) || !isfinite(b->mean)) {
		vs->verdict = CMP_UNKNOWN;
		return;
	}
	if (!vs->significant) {
		vs->runs_needed = 0;
		/*
		 * "unchanged" is a claim: the interval of the change lies
		 * within ±min-change, or every run of both sides gave the
		 * same value.  Otherwise the data could not decide: unknown,
		 * with the runs that would.
		 */
		if (a->source == SIDE_SAMPLES && b->source == SIDE_SAMPLES &&
		    identical(a, b)) {
			vs->verdict = CMP_UNCHANGED;
		} else if (isfinite(vs->ci_low_pct) &&
			   isfinite(vs->ci_high_pct) &&
			   vs->ci_low_pct >= -c->opts.min_change_pct &&
			   vs->ci_high_pct <= c->opts.min_change_pct) {
			vs->verdict = CMP_UNCHANGED;
		} else {
			vs->verdict = CMP_UNKNOWN;
			if (a->source == SIDE_SAMPLES &&
			    b->source == SIDE_SAMPLES)
				vs->runs_needed = runs_needed(a, b,
							      vs->need_p, zc);
		}
		return;
	}
	if (isfinite(vs->change_pct) &&
	    fabs(vs->change_pct) < c->opts.min_change_pct) {
		vs->verdict = CMP_UNCHANGED;
		return;
	}
	/* the sign of the difference: the % change is NAN from a zero base */
	if (r->direction == DIR_UNKNOWN || b->mean == a->mean)
		vs->verdict = CMP_UNKNOWN;
	else if ((b->mean < a->mean) == (r->direction == DIR_HIGHER))
		vs->verdict = CMP_REGRESSION;
	else
		vs->verdict = CMP_IMPROVEMENT;
}

static int cmp_rows(const void *x, const void *y)
{
	const struct cmp_row *a = x, *b = y;

	if (a->group_rank != b->group_rank)
		return a->group_rank < b->group_rank ? -1 : 1;
	return (a->metric_rank > b->metric_rank) -
	       (a->metric_rank < b->metric_rank);
}

static const struct loader *rank_loader;	/* for the qsort callbacks */

static int cmp_group_idx(const void *x, const void *y)
{
	const struct group *a = &rank_loader->group[*(const size_t *)x];
	const struct group *b = &rank_loader->group[*(const size_t *)y];
	int d;

	if ((d = strcmp(a->testcase, b->testcase)) ||
	    (d = strcmp(a->params, b->params)))
		return d;
	return strcmp(a->machine, b->machine);
}

static int cmp_metric_idx(const void *x, const void *y)
{
	return str_natcmp(rank_loader->mname[*(const size_t *)x],
			  rank_loader->mname[*(const size_t *)y]);
}

/* the same order through str_natkey()'s keys: one strcmp each */
static const char *const *rank_keys;

static int cmp_metric_key(const void *x, const void *y)
{
	return strcmp(rank_keys[*(const size_t *)x],
		      rank_keys[*(const size_t *)y]);
}

/*
 * The metrics' indexes in natural order of their names: by keys when
 * every name has one (glibc's qsort is a merge sort: equal names keep
 * their order either way).
 */
static void sort_metrics(struct loader *l, size_t *idx)
{
	struct sbuf keys = SBUF_INIT;
	size_t *off = xmalloc((l->nr_m + 1) * sizeof(*off)), i;
	const char **key = NULL;

	for (i = 0; i < l->nr_m; i++) {
		idx[i] = i;
		off[i] = keys.len;
		if (str_natkey(l->mname[i], &keys))
			break;
		sbuf_addch(&keys, '\0');
	}
	if (i == l->nr_m) {
		key = xmalloc((l->nr_m + 1) * sizeof(*key));
		for (i = 0; i < l->nr_m; i++)
			key[i] = keys.buf + off[i];
		/* the metrics table is usually filled in name order */
		for (i = 1; i < l->nr_m && strcmp(key[i - 1], key[i]) <= 0;
		     i++)
			;
		rank_keys = key;
		if (i < l->nr_m)
			QSORT(idx, l->nr_m, cmp_metric_key);
		rank_keys = NULL;
	} else {
		for (i = 0; i < l->nr_m; i++)
			idx[i] = i;
		QSORT(idx, l->nr_m, cmp_metric_idx);
	}
	free(key);
	free(off);
	sbuf_release(&keys);
}

/*
 * Sort the rows by testcase/params/machine, then metric in natural
 * order: rank the groups and metrics once, then sort on the integers
 * (a string comparison per row comparison cost more than the stats).
 */
static void sort_rows(struct loader *l)
{
	struct comparison *c = l->c;
	size_t n = l->nr_groups > l->nr_m ? l->nr_groups : l->nr_m, i;
	size_t *idx = xmalloc((n + 1) * sizeof(*idx));
	unsigned *grank = xmalloc((l->nr_groups + 1) * sizeof(*grank));
	unsigned *mrank = xmalloc((l->nr_m + 1) * sizeof(*mrank));

	rank_loader = l;
	for (i = 0; i < l->nr_groups; i++)
		idx[i] = i;
	QSORT(idx, l->nr_groups, cmp_group_idx);
	for (i = 0; i < l->nr_groups; i++)
		grank[idx[i]] = (unsigned)i;
	if (c->opts.metrics)
		memcpy(idx, c->opts.metrics->order, l->nr_m * sizeof(*idx));
	else
		sort_metrics(l, idx);
	for (i = 0; i < l->nr_m; i++)
		mrank[idx[i]] = (unsigned)i;
	rank_loader = NULL;
	for (i = 0; i < c->nr; i++) {
		c->rows[i].group_rank = grank[c->rows[i].group_rank];
		c->rows[i].metric_rank = mrank[c->rows[i].metric_rank];
	}
	/* rows are made in metric id order: often already sorted */
	for (i = 1; i < c->nr && cmp_rows(&c->rows[i - 1], &c->rows[i]) <= 0;
	     i++)
		;
	if (i < c->nr)
		QSORT(c->rows, c->nr, cmp_rows);
	free(idx);
	free(grank);
	free(mrank);
}

/* ---- the metrics shared by the comparisons of one command ---- */

struct cmp_metrics *cmp_metrics_load(struct db *db)
{
	struct cmp_metrics *m = xcalloc(1, sizeof(*m));
	struct loader *l = &m->l;
	size_t i;

	l->db = db;
	l->c = &m->owner;
	if (direction_load(db, &l->dirs) || load_metrics(l)) {
		cmp_metrics_free(m);
		return NULL;
	}
	/* every direction now: the comparisons only copy them */
	for (i = 0; i < l->nr_m; i++)
		l->mdir[i] = (signed char)direction_of(&l->dirs, l->mname[i],
						       l->munit[i],
						       l->mstated[i]);
	m->order = xmalloc((l->nr_m + 1) * sizeof(*m->order));
	rank_loader = l;
	sort_metrics(l, m->order);
	rank_loader = NULL;
	m->kpi = xmalloc(l->nr_m + 1);
	for (i = 0; i < l->nr_m; i++)
		m->kpi[i] = (char)metric_is_kpi(l->mname[m->order[i]]);
	return m;
}

void cmp_metrics_free(struct cmp_metrics *m)
{
	struct loader *l;

	if (!m)
		return;
	l = &m->l;
	free(l->row_of);	/* no group yet: just the array */
	free(l->mindex);
	free(l->mid);
	free(l->mname);
	free(l->munit);
	free(l->mdir);
	free(l->mexact);
	free(l->mstated);
	free(l->msummary);
	free(l->mpos);
	strmap_clear(&l->metrics);
	direction_release(&l->dirs);
	comparison_release(&m->owner);
	free(m->order);
	free(m->kpi);
	free(m);
}

/*
 * Number the families: the rows of one group (testcase, params, machine)
 * whose names share the first component, the benchmark's headline
 * results (metric_is_kpi()) apart from its other rows: fio's bandwidth
 * and IOPS are one family, fio's other rows another, each monitor
 * (proc-vmstat.*, meminfo.*, zoneinfo.*) its own.  Returns the number of
 * families; each row's number is in r->family.
 */
static unsigned number_families(struct comparison *c)
{
	struct strmap ids = STRMAP_INIT;
	struct sbuf key = SBUF_INIT, last = SBUF_INIT;
	unsigned nr = 0;
	size_t i;

	for (i = 0; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];
		const char *dot = strchr(r->metric, '.');
		int64_t id;

		sbuf_reset(&key);
		sbuf_add(&key, &r->group_rank, sizeof(r->group_rank));
		sbuf_add(&key, r->metric, dot ? (size_t)(dot - r->metric) :
						 strlen(r->metric));
		/* sort_rows() ranked the metrics in the cache's order */
		if (c->opts.metrics)
			r->kpi = c->opts.metrics->kpi[r->metric_rank];
		else if (r->kpi < 0)
			r->kpi = (signed char)metric_is_kpi(r->metric);
		if (r->kpi)
			sbuf_addstr(&key, "\x1fkpi");
		/* sorted rows: a family's rows mostly follow each other */
		if (i && key.len == last.len &&
		    !memcmp(key.buf, last.buf, key.len)) {
			r->family = c->rows[i - 1].family;
			continue;
		}
		id = nr;
		if (!strmap_get_or_put(&ids, key.buf, key.len, &id))
			nr++;
		r->family = (unsigned)id;
		sbuf_reset(&last);
		sbuf_add(&last, key.buf, key.len);
	}
	strmap_clear(&ids);
	sbuf_release(&key);
	sbuf_release(&last);
	return nr;
}

/*
 * Rows of one family whose samples are the same on every side (the same
 * counter under two names, a sum beside its only term) share one test:
 * each later twin points at the first.  The samples are gone by now
 * (digest_row()): rows are the same
 * when their 128-bit hashes of every side's count and samples are (two
 * independent 64-bit hashes; a false match would take some 2^64 rows).
 * The table holds a hash and the row, 12 bytes a slot.
 */
static void find_twins(struct comparison *c)
{
	size_t cap = 64, mask, i, v;
	uint64_t *key;
	uint32_t *row;

	while (cap < 2 * c->nr)
		cap <<= 1;
	mask = cap - 1;
	key = xcalloc(cap, sizeof(*key));	/* 0: empty */
	row = xmalloc(cap * sizeof(*row));
	for (i = 0; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];
		uint64_t h = r->hash[0] | 1;
		size_t k;
		int samples = 1;

		r->dup_of = -1;
		for (v = 0; v < c->nvar; v++)
			if (r->side[v].source != SIDE_SAMPLES)
				samples = 0;
		if (!samples)
			continue;
		for (k = (size_t)h & mask; key[k]; k = (k + 1) & mask) {
			const struct cmp_row *t = &c->rows[row[k]];

			if (key[k] == h && t->hash[1] == r->hash[1] &&
			    t->family == r->family) {
				r->dup_of = (long)row[k];
				break;
			}
		}
		if (!key[k]) {
			key[k] = h;
			row[k] = (uint32_t)i;
		}
	}
	free(key);
	free(row);
}

/*
 * Could this pair be tested at all?  Not when a side is missing, when
 * both hold one and the same constant, when the row is a twin, or when
 * an exact metric decides by its values.  (A test may still give no
 * p-value: n = 1, no spread in a summary.)  Sets the note where it is
 * decided here; 1 when a test is to be run.
 */
static int testable(struct comparison *c, struct cmp_row *r, size_t v)
{
	struct cmp_side *a = &r->side[0], *b = &r->side[v];
	struct cmp_vs *vs = &r->vs[v - 1];

	vs->p = vs->q = vs->p_family = NAN;
	vs->method = CMP_NONE;
	if (a->source == SIDE_NONE || b->source == SIDE_NONE) {
		vs->note = "missing on one side";
		return 0;
	}
	if (r->dup_of >= 0)
		return 0;
	if (r->exact && exact_pair(c, a, b, vs))
		return 0;
	if (identical(a, b)) {
		set_note(c, vs, "the same value in every run of both sides: "
			 "not a test");
		return 0;
	}
	return 1;
}

/* log_pooled() keeps the logs of this many runs a side */
#define LOG_BUF_N 32

/*
 * The family guard (docs/statistics.md, "The family's spread").  A row
 * of positive samples, n >= 2 a side, is seen on the log scale: the
 * difference of its mean logs and their pooled variance s2 on
 * d = n1 + n2 - 2 degrees of freedom (d and 1/n1 + 1/n2 are computed
 * where the figures are used).  0 if not such a row.
 */
static int log_pooled(const struct cmp_side *a, const struct cmp_side *b,
		      double *diff, double *s2)
{
	const struct cmp_side *s[2] = { a, b };
	double mean[2], ss = 0;
	size_t k, i;

	if (a->source != SIDE_SAMPLES || b->source != SIDE_SAMPLES ||
	    a->nv < 2 || b->nv < 2)
		return 0;
	for (k = 0; k < 2; k++) {
		/* each log once where the runs are few (the common case) */
		double sum = 0, buf[LOG_BUF_N];
		int keep = s[k]->nv <= LOG_BUF_N;

		for (i = 0; i < s[k]->nv; i++) {
			double lg;

			if (!(s[k]->v[i] > 0) || !isfinite(s[k]->v[i]))
				return 0;
			lg = log(s[k]->v[i]);
			if (keep)
				buf[i] = lg;
			sum += lg;
		}
		mean[k] = sum / (double)s[k]->nv;
		for (i = 0; i < s[k]->nv; i++) {
			double e = (keep ? buf[i] : log(s[k]->v[i])) - mean[k];

			ss += e * e;
		}
	}
	*diff = mean[1] - mean[0];
	*s2 = ss / (double)(a->nv + b->nv - 2);
	return 1;
}

/*
 * One row of the family being tested: whether it is a test, and its
 * log-scale figures (log_pooled), read once for the prior and the guard.
 */
struct fam_row {
	int test;		/* testable() */
	int logs;		/* log_pooled() gave the figures below */
	double diff, s2, d, scale;
};

/*
 * The prior of a family's variances (stats_fit_prior) from its testable
 * rows of positive samples; 0 when it has fewer than
 * CMP_FAMILY_PRIOR_MIN such rows with some spread (then no guard).
 */
static int family_prior(const struct fam_row *fr, size_t nr,
			struct stats_prior *prior)
{
	double *s2 = xmalloc((nr + 1) * sizeof(*s2));
	double *d = xmalloc((nr + 1) * sizeof(*d));
	size_t j, m = 0, spread = 0;
	int ok;

	for (j = 0; j < nr; j++) {
		if (!fr[j].test || !fr[j].logs)
			continue;
		s2[m] = fr[j].s2;
		d[m] = fr[j].d;
		spread += s2[m] > 0;
		m++;
	}
	ok = spread >= CMP_FAMILY_PRIOR_MIN &&
	     !stats_fit_prior(s2, d, m, prior);
	free(s2);
	free(d);
	return ok;
}

/*
 * A Welch p-value held to the family's spread: the larger of Welch's p
 * and the moderated t-test's.  Either test alone can be fooled (Welch by
 * a bimodal metric whose few runs fell into one mode per side, the
 * moderated test by a metric noisier than its family); the larger p is
 * valid when either test is.
 */
static void family_guard(const struct fam_row *fr, struct cmp_vs *vs,
			 const struct stats_prior *prior)
{
	vs->p_family = NAN;
	if (vs->method != CMP_WELCH || !isfinite(vs->p) || !fr->logs)
		return;
	vs->p_family = stats_moderated_t(fr->diff, fr->s2, fr->d, fr->scale,
					 prior, NULL);
	if (isfinite(vs->p_family) && vs->p_family > vs->p)
		vs->p = vs->p_family;
}

/* The changes and their intervals of rows lo..hi (parallel_beside()). */
static void change_rows(void *ctx, size_t lo, size_t hi)
{
	struct comparison *c = ctx;
	size_t i, v;

	for (i = lo; i < hi; i++) {
		struct cmp_row *r = &c->rows[i];

		for (v = 1; v < c->nvar; v++)
			change_and_ci(c, &r->side[0], &r->side[v],
				      &r->vs[v - 1]);
	}
}

/*
 * Families, twins, and each family's tests and q-values (its p-values
 * controlled together); needs each row's sides finished, not its
 * intervals.
 */
static int test_families(struct comparison *c)
{
	size_t i, v, k, m, f, *first, *order, j;
	unsigned nr_fam;
	struct fam_row *fr = NULL;
	double *p = NULL, *q = NULL;
	size_t alloc_p = 0;
	int ret = 0;

	nr_fam = number_families(c);
	find_twins(c);
	/* the rows of each family, in row order: order[first[f]..first[f+1]) */
	first = xcalloc((size_t)nr_fam + 1, sizeof(*first));
	order = xmalloc((c->nr + 1) * sizeof(*order));
	for (i = 0; i < c->nr; i++)
		first[c->rows[i].family + 1]++;
	for (f = 0; f < nr_fam; f++)
		first[f + 1] += first[f];
	{
		size_t *fill = xmalloc(((size_t)nr_fam + 1) * sizeof(*fill));

		memcpy(fill, first, ((size_t)nr_fam + 1) * sizeof(*fill));
		for (i = 0; i < c->nr; i++)
			order[fill[c->rows[i].family]++] = i;
		free(fill);
	}
	/* one family at a time: its tests, and their FDR among themselves */
	for (f = 0; f < nr_fam; f++) {
		size_t start = first[f], end = first[f + 1];

		fr = xrealloc(fr, (end - start + 1) * sizeof(*fr));
		for (v = 1; v < c->nvar; v++) {
			size_t tests = 0;
			struct stats_prior prior;
			double need;
			int guard;

			/* each row looked at once: a test?  its logs */
			for (j = start; j < end; j++) {
				struct cmp_row *r = &c->rows[order[j]];
				struct fam_row *x = &fr[j - start];

				x->test = testable(c, r, v);
				x->logs = x->test && r->vs[v - 1].logs;
				if (x->logs) {
					const struct cmp_vs *d = &r->vs[v - 1];

					size_t na = r->side[0].nv;
					size_t nb = r->side[v].nv;

					x->diff = d->log_diff;
					x->s2 = d->log_s2;
					x->d = (double)(na + nb - 2);
					x->scale = 1 / (double)na +
						   1 / (double)nb;
				}
				tests += (size_t)x->test;
			}
			need = c->opts.fdr && tests ?
				       c->opts.alpha / (double)tests :
				       c->opts.alpha;
			guard = family_prior(fr, end - start, &prior);
			m = 0;
			for (j = start; j < end; j++) {
				struct cmp_row *r = &c->rows[order[j]];
				struct cmp_vs *vs = &r->vs[v - 1];

				vs->need_p = need;
				if (!fr[j - start].test)
					continue;
				test_pair(c, &r->side[0], &r->side[v], vs,
					  need);
				if (guard)
					family_guard(&fr[j - start], vs,
						     &prior);
				if (isfinite(vs->p)) {
					ALLOC_GROW(p, m + 1, alloc_p);
					p[m++] = vs->p;
				}
			}
			if (c->opts.defer)
				goto twins;
			q = xrealloc(q, (m + 1) * sizeof(*q));
			if (c->opts.fdr && stats_bh(p, m, q)) {
				ret = error("out of memory computing q-values");
				goto out;
			}
			for (j = start, k = 0; j < end; j++) {
				struct cmp_row *r = &c->rows[order[j]];
				struct cmp_vs *vs = &r->vs[v - 1];

				if (r->dup_of < 0 && isfinite(vs->p))
					vs->q = c->opts.fdr ? q[k++] : vs->p;
			}
twins:
			for (j = start; j < end; j++) {
				struct cmp_row *r = &c->rows[order[j]];

				if (r->dup_of >= 0) {
					const struct cmp_vs *t =
						&c->rows[r->dup_of].vs[v - 1];
					struct cmp_vs *vs = &r->vs[v - 1];

					vs->p = t->p;
					vs->p_family = t->p_family;
					vs->q = t->q;
					vs->method = t->method;
					vs->note = t->note;
					vs->exact_decided = t->exact_decided;
					vs->exact_changed = t->exact_changed;
				}
			}
		}
	}
out:
	free(first);
	free(order);
	free(fr);
	free(p);
	free(q);
	return ret;
}

/* test_families() for parallel_beside() */
struct families_job {
	struct comparison *c;
	int ret;
};

static void families_job(void *arg)
{
	struct families_job *j = arg;

	j->ret = test_families(j->c);
}

/*
 * Every row's sides (finish_side()), then its tests by family while a
 * second core takes the changes and their intervals (the Fieller
 * interval's t quantile is the longest part): the two write different
 * fields of each row's comparisons.
 */
static int compute(struct comparison *c)
{
	struct families_job job = { c, 0 };
	size_t i, v;

	for (i = 0; i < c->nr; i++)
		for (v = 0; v < c->nvar; v++)
			finish_side(&c->rows[i].side[v]);
	parallel_beside(c->nr, 256, change_rows, c, families_job, &job);
	return job.ret;
}

static int any_glob(const struct strlist *l, const char *s)
{
	size_t i;

	if (!l->nr)
		return 1;
	for (i = 0; i < l->nr; i++)
		if (glob_match(l->v[i], s))
			return 1;
	return 0;
}

/*
 * Keep the rows the filters show (--testcase, --metric), after every
 * row was tested: the filters choose what is printed, not what counts.
 */
static void filter_rows(struct comparison *c)
{
	size_t i, out = 0;

	for (i = 0; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];

		if (any_glob(&c->opts.metric_globs, r->metric))
			c->rows[out++] = *r;
		else
			cmp_row_release(c, r);
	}
	c->nr = out;
}

/*
 * The note of a row whose change more runs would decide: one of a few
 * hundred texts over thousands of rows, looked up by its number before
 * any text is formatted.
 */
static void note_runs_needed(struct comparison *c, struct cmp_vs *vs)
{
	static const char head[] = "not significant: about ";
	static const char tail[] = " runs per side would decide a change "
				   "of this size";
	char buf[sizeof(head) + 20 + sizeof(tail)], digits[20];
	unsigned long n = (unsigned long)vs->runs_needed, r;
	size_t nd = 0, len = sizeof(head) - 1;
	int64_t i;

	/* most counts are small: by index, not by a hash */
	if (n < NOTE_RUNS_DIRECT) {
		if (!c->note_of_runs)
			c->note_of_runs = xcalloc(NOTE_RUNS_DIRECT,
						  sizeof(*c->note_of_runs));
		if (c->note_of_runs[n]) {
			vs->note = c->notes[c->note_of_runs[n] - 1];
			return;
		}
	} else if (strmap_get(&c->note_by_runs,
			      (const char *)&vs->runs_needed,
			      sizeof(vs->runs_needed), &i)) {
		vs->note = c->notes[i];
		return;
	}
	/* thousands of distinct counts: no printf for each */
	for (r = n; nd == 0 || r; r /= 10)
		digits[nd++] = (char)('0' + r % 10);
	memcpy(buf, head, len);
	while (nd)
		buf[len++] = digits[--nd];
	memcpy(buf + len, tail, sizeof(tail) - 1);
	len += sizeof(tail) - 1;
	/* no other note reads so: its text needs no lookup */
	i = add_note(c, vs, buf, len);
	if (n < NOTE_RUNS_DIRECT)
		c->note_of_runs[n] = (uint32_t)i + 1;
	else
		strmap_put(&c->note_by_runs, (const char *)&vs->runs_needed,
			   sizeof(vs->runs_needed), i);
}

/* verdict() over rows [lo, hi), and their counts, for parallel_halves() */
struct decide_job {
	struct comparison *c;
	/* each half's counts on cache lines of its own (PARALLEL_ALIGN) */
	struct decide_half {
		_Alignas(PARALLEL_ALIGN) long tests;
		long regressions, improvements, unknown;
		struct z_cache zc;
	} half[2];
};

static void decide_rows(void *ctx, size_t lo, size_t hi)
{
	struct decide_job *job = ctx;
	struct comparison *c = job->c;
	struct decide_half *h = &job->half[lo != 0];
	size_t i, v;

	h->zc.need = -1;
	for (i = lo; i < hi; i++) {
		for (v = 1; v < c->nvar; v++) {
			struct cmp_vs *vs = &c->rows[i].vs[v - 1];

			verdict(c, &c->rows[i], v, &h->zc);
			h->tests += isfinite(vs->p);
			h->regressions += vs->verdict == CMP_REGRESSION;
			h->improvements += vs->verdict == CMP_IMPROVEMENT;
			h->unknown += vs->verdict == CMP_UNKNOWN;
		}
	}
}

void compare_decide(struct comparison *c)
{
	struct decide_job job = { .c = c };
	size_t i, v, k;

	parallel_halves(c->nr, decide_rows, &job);
	c->nr_tests = c->nr_regressions = c->nr_improvements = 0;
	c->nr_unknown = 0;
	for (k = 0; k < 2; k++) {
		c->nr_tests += job.half[k].tests;
		c->nr_regressions += job.half[k].regressions;
		c->nr_improvements += job.half[k].improvements;
		c->nr_unknown += job.half[k].unknown;
	}
	/* the notes are interned, in row order, by one thread */
	for (i = 0; i < c->nr; i++)
		for (v = 1; v < c->nvar; v++) {
			struct cmp_vs *vs = &c->rows[i].vs[v - 1];

			if (vs->runs_needed > 0 && !vs->note)
				note_runs_needed(c, vs);
		}
	/* the notes are interned: their maps go before the output */
	strmap_clear(&c->note_index);
	strmap_clear(&c->note_by_runs);
	free(c->note_of_runs);
	c->note_of_runs = NULL;
}

int compare_variants(struct db *db, struct selector *var, size_t nvar,
		     const struct cmp_opts *opts, struct comparison *out)
{
	struct loader l;
	size_t v, first;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	memset(&l, 0, sizeof(l));
	out->var = var;
	out->nvar = nvar;
	out->opts = *opts;
	out->runs = xcalloc(nvar, sizeof(*out->runs));
	out->mwu_need_n = stats_mwu_min_n(opts->alpha);
	if (!opts->ci_tq)
		stats_tq_init(&out->ci_tq_own, 1.0 - opts->alpha);
	l.db = db;
	l.c = out;
	/*
	 * Everything is read once: SQLite's page cache (24 MiB for an
	 * import) would only hold pages already used.  1 MiB keeps the
	 * comparison's memory to its rows.
	 */
	if (!db->pg && db_exec(db, "PRAGMA cache_size = -1024"))
		goto out;
	l.vrun = xcalloc(nvar, sizeof(*l.vrun));
	if (direction_load(db, &l.dirs) || metrics_begin(&l))
		goto out;
	/* metrics_ready() is called in there once the first reads are done */
	if (load_samples(&l) || metrics_ready(&l))
		goto out;
	first = out->nr;
	for (v = 0; v < nvar; v++)
		if (load_aggregates(&l, v) ||
		    (opts->mm_pool && load_pool(&l, v)))
			goto out;
	/* the aggregates' rows: load_samples() resolved its own */
	resolve_directions(&l, first);
	sort_rows(&l);
	ret = compute(out);
	if (!ret && !opts->defer) {
		filter_rows(out);
		compare_decide(out);
	}
out:
	metrics_split_free(&l);
	for (v = 0; l.row_of && v < l.nr_groups; v++)
		free(l.row_of[v]);
	free(l.row_of);
	free(l.used);
	free(l.group);
	free(l.mindex);
	free(l.mid);
	free(l.mname);
	free(l.munit);
	free(l.mdir);
	free(l.mexact);
	free(l.mstated);
	free(l.msummary);
	free(l.mpos);
	strmap_clear(&l.groups);
	strmap_clear(&l.rows);
	strmap_clear(&l.metrics);
	direction_release(&l.dirs);
	for (v = 0; l.vrun && v < nvar; v++) {
		free(l.vrun[v].id);
		free(l.vrun[v].group);
	}
	free(l.vrun);
	free(l.gruns);
	/* a comparison that failed holds nothing for its caller */
	if (ret)
		comparison_release(out);
	return ret;
}

int cmp_row_interesting(const struct comparison *c, const struct cmp_row *r)
{
	size_t v;

	for (v = 1; v < c->nvar; v++) {
		const struct cmp_vs *vs = &r->vs[v - 1];

		if (vs->significant && vs->verdict != CMP_UNCHANGED)
			return 1;
	}
	return 0;
}

void cmp_row_release(const struct comparison *c, struct cmp_row *r)
{
	size_t v;

	for (v = 0; v < c->nvar; v++) {
		struct cmp_extra *e = r->side[v].extra;

		free(r->side[v].v);
		if (e) {
			free(e->mm);
			free(e->stats);
			free(e);
		}
	}
	/* the block, and vs with it: the row's own once compacted */
	if (!c->nr_chunk)
		free(r->side);
	r->side = NULL;
	r->vs = NULL;
}

void comparison_compact(struct comparison *c)
{
	size_t i, bs = block_size(c);

	if (!c->nr_chunk)
		return;
	for (i = 0; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];
		struct cmp_side *b = xmalloc(bs);

		memcpy(b, r->side, bs);
		r->side = b;
		r->vs = (struct cmp_vs *)(b + c->nvar);
	}
	for (i = 0; i < c->nr_chunk; i++)
		free_big(c->chunk[i].base, c->chunk[i].size);
	free(c->chunk);
	c->chunk = NULL;
	c->nr_chunk = c->alloc_chunk = 0;
}

void comparison_release(struct comparison *c)
{
	size_t i;

	/*
	 * Rows in chunks whose sides own nothing (the samples were in a
	 * slab): nothing to free a row, and a pass over them all touched
	 * 12 MB of sides at 20,000 metrics for that.
	 */
	for (i = 0; (c->side_arrays || !c->nr_chunk) && i < c->nr; i++)
		cmp_row_release(c, &c->rows[i]);
	for (i = 0; i < c->nr_chunk; i++)
		free_big(c->chunk[i].base, c->chunk[i].size);
	free(c->chunk);
	FREE_BIG(c->rows, c->alloc);
	for (i = 0; i < c->nr_pool; i++)
		free(c->pool[i]);
	free(c->pool);
	free(c->notes);		/* the texts are in the pool */
	strmap_clear(&c->note_index);
	strmap_clear(&c->note_by_runs);
	free(c->note_of_runs);
	c->note_of_runs = NULL;
	free(c->runs);
	memset(c, 0, sizeof(*c));
}
