/*
 * The metrics table of a comparison (see load-internal.h): read in one
 * statement, only the variants' ids in a large table, or on two
 * connections at once; the metrics' positions for MMTests, their
 * directions, their natural order, and the cache of them that the
 * comparisons of one command share (cmp_metrics_load()).
 */
#include "core/compat.h"
#include "analysis/load-internal.h"
#include "core/parallel.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "store/values.h"
#include <pthread.h>

/*
 * Past this many metric ids in the database, compare reads only the
 * metrics its variants have (metrics_used()): a database that keeps
 * months of lkp results holds hundreds of thousands of names (perf-
 * profile's call chains), and reading every one would make the memory
 * grow with the archive.
 */
#define SPARSE_METRICS ((int64_t)1 << 16)

/*
 * ... up to this many ids (a bit each: 8 MiB).  Past it the ids are so
 * sparse that there are few metrics for them: all are read.
 */
#define SPARSE_MAX_ID ((int64_t)1 << 26)

/*
 * What a metric read costs, for CMP_MEM_BUDGET: its arrays, index and
 * strings (as measured, docs/performance.md).
 */
#define METRIC_BYTES 128

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
	l->mdir[i] = DIR_UNRESOLVED;
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
 * The metrics table on two connections at once (one connection's
 * SQLite keeps one core busy while the other is idle): a helper thread
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
	    db_exec(&reader, LOAD_CACHE_PRAGMA) ||
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
int metrics_begin(struct loader *l)
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
	cmp_load_release(&s->pool);
	free(s);
	l->split = NULL;
}

/*
 * The helper's pool blocks into the comparison's, before its newest
 * (the one cmp_pool_addn() goes on filling).
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

void metrics_release(struct loader *l)
{
	metrics_split_free(l);
	free(l->used);
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

/* The whole table, at once (cmp_metrics_load()). */
static int load_metrics(struct loader *l)
{
	return metrics_begin(l) || metrics_end(l) ? -1 : 0;
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
		int64_t m = metric_index(l, stmt_column_int64(st, 0));

		if (m >= 0)
			l->mpos[m] = (long)stmt_column_int64(st, 1);
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return 0;
}

/*
 * load_samples() calls it once it has read what needs no metric (the
 * runs, the first range of samples).
 */
int metrics_ready(struct loader *l)
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
 * Kept in l->mdir from the rows digest_row() looked up, looked up here
 * for the rows it did not see (aggregates).
 */
void resolve_directions(struct loader *l, size_t first)
{
	struct comparison *c = l->c;
	size_t i;

	for (i = first; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];
		size_t m = r->metric_rank;
		signed char *d = &l->mdir[m];

		if (r->direction == DIR_UNRESOLVED && *d == DIR_UNRESOLVED)
			*d = (signed char)direction_of(&l->dirs, r->metric,
						       r->unit, l->mstated[m]);
		if (r->direction == DIR_UNRESOLVED)
			r->direction = *d;
		else if (*d == DIR_UNRESOLVED)
			*d = (signed char)r->direction;
	}
}

static const char *const *rank_names;	/* for the qsort callbacks */

static int cmp_metric_idx(const void *x, const void *y)
{
	return str_natcmp(rank_names[*(const size_t *)x],
			  rank_names[*(const size_t *)y]);
}

/* the same order through str_natkey()'s keys: one strcmp each */
static const char *const *rank_keys;

static int cmp_metric_key(const void *x, const void *y)
{
	return strcmp(rank_keys[*(const size_t *)x],
		      rank_keys[*(const size_t *)y]);
}

/*
 * By keys when every name has one (glibc's qsort is a merge sort: equal
 * names keep their order either way).
 */
void sort_metrics(const struct loader *l, size_t *idx)
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
		rank_names = l->mname;
		QSORT(idx, l->nr_m, cmp_metric_idx);
		rank_names = NULL;
	}
	free(key);
	free(off);
	sbuf_release(&keys);
}

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
	sort_metrics(l, m->order);
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
	metrics_release(l);
	direction_release(&l->dirs);
	cmp_load_release(&m->owner);
	free(m->order);
	free(m->kpi);
	free(m);
}
