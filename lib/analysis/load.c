/*
 * Loading a comparison (see load.h): the metrics begun, the samples
 * (load-samples.c), then each variant's aggregates and MMTests' pools,
 * the directions of the rows the samples did not make, and the rows'
 * order.  Samples win over aggregates: a side has an aggregate only
 * where no run of the variant has the metric.
 */
#include "core/compat.h"
#include "analysis/load-internal.h"
#include "store/series.h"

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

/* The row of variant v's aggregate that st is on; NULL: none (--metric). */
static struct cmp_row *aggregate_row(struct loader *l, size_t v,
				     struct stmt *st)
{
	return row_for(l, row_group(l, v, st, 0), stmt_column_int64(st, 3), 1);
}

/*
 * The statistic stat that st is on, kept among side sd's (the mmtests
 * layout prints every one).
 */
static const struct agg_stat *aggregate_stat(struct comparison *c,
					     struct cmp_side *sd,
					     struct stmt *st, const char *stat)
{
	struct cmp_extra *e = extra_of(c, sd);
	struct agg_stat *a;

	ALLOC_GROW(e->stats, e->nr_stats + 1, e->alloc_stats);
	a = &e->stats[e->nr_stats++];
	a->stat = pool_add(c, stat);
	a->value = stmt_column_double(st, 5);
	a->n = stmt_column_type(st, 8) == SQLITE_NULL ? -1 :
		stmt_column_int(st, 8);
	a->marker = pool_add(c, (const char *)stmt_column_text(st, 9));
	a->change_source = pool_add(c, (const char *)stmt_column_text(st, 11));
	a->change_base = pool_add(c, (const char *)stmt_column_text(st, 12));
	return a;
}

/* Statistic a, which st is on, as the one that stands for side sd. */
static void aggregate_stands(struct comparison *c, struct cmp_side *sd,
			     const struct agg_stat *a, struct stmt *st)
{
	struct cmp_extra *e = sd->extra;

	sd->source = SIDE_AGGREGATE;
	e->stat = a->stat;
	sd->mean = a->value;
	sd->sd = stmt_column_type(st, 6) == SQLITE_NULL ?
			 NAN : stmt_column_double(st, 6);
	e->sd_kind = pool_add(c, (const char *)stmt_column_text(st, 7));
	sd->n = a->n;
	e->marker = a->marker;
	e->sd_source = stmt_column_type(st, 10) == SQLITE_NULL ?
			NAN : stmt_column_double(st, 10);
	e->change_source = a->change_source;
	e->change_base = a->change_base;
}

static int load_aggregates(struct loader *l, size_t v)
{
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
		struct cmp_row *r = aggregate_row(l, v, st);
		const struct agg_stat *a;
		struct cmp_side *sd;

		if (!r)
			continue;
		sd = &r->side[v];
		if (sd->source == SIDE_SAMPLES)
			continue;
		a = aggregate_stat(l->c, sd, st, stat);
		/* the best mean-like one stands for the side */
		if (rank < 0 || (sd->source == SIDE_AGGREGATE &&
				 stat_rank(sd->extra->stat) <= rank))
			continue;
		aggregate_stands(l->c, sd, a, st);
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return 0;
}

static int cmp_rows(const void *x, const void *y)
{
	const struct cmp_row *a = x, *b = y;

	if (a->group_rank != b->group_rank)
		return a->group_rank < b->group_rank ? -1 : 1;
	return (a->metric_rank > b->metric_rank) -
	       (a->metric_rank < b->metric_rank);
}

static const struct group *rank_groups;	/* for the qsort callback */

static int cmp_group_idx(const void *x, const void *y)
{
	const struct group *a = &rank_groups[*(const size_t *)x];
	const struct group *b = &rank_groups[*(const size_t *)y];
	int d;

	if ((d = strcmp(a->testcase, b->testcase)) ||
	    (d = strcmp(a->params, b->params)))
		return d;
	return strcmp(a->machine, b->machine);
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

	rank_groups = l->group;
	for (i = 0; i < l->nr_groups; i++)
		idx[i] = i;
	QSORT(idx, l->nr_groups, cmp_group_idx);
	rank_groups = NULL;
	for (i = 0; i < l->nr_groups; i++)
		grank[idx[i]] = (unsigned)i;
	if (c->opts.metrics)
		memcpy(idx, c->opts.metrics->order, l->nr_m * sizeof(*idx));
	else
		sort_metrics(l, idx);
	for (i = 0; i < l->nr_m; i++)
		mrank[idx[i]] = (unsigned)i;
	for (i = 0; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];

		r->group_rank = grank[r->group_rank];
		r->metric_rank = mrank[r->metric_rank];
		/* the cache's kpi are by rank (digest_row() left them) */
		if (c->opts.metrics)
			r->kpi = c->opts.metrics->kpi[r->metric_rank];
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

static void loader_release(struct loader *l)
{
	size_t v;

	metrics_release(l);
	for (v = 0; l->row_of && v < l->nr_groups; v++)
		free(l->row_of[v]);
	free(l->row_of);
	free(l->group);
	strmap_clear(&l->groups);
	strmap_clear(&l->rows);
	direction_release(&l->dirs);
	for (v = 0; l->vrun && v < l->c->nvar; v++) {
		free(l->vrun[v].id);
		free(l->vrun[v].group);
	}
	free(l->vrun);
	free(l->gruns);
}

int cmp_load(struct db *db, struct comparison *c, cmp_digest_fn *digest)
{
	struct loader l;
	size_t v, first;
	int ret = -1;

	memset(&l, 0, sizeof(l));
	l.db = db;
	l.c = c;
	l.digest = digest;
	c->runs = xcalloc(c->nvar, sizeof(*c->runs));
	if (!db->pg && db_exec(db, LOAD_CACHE_PRAGMA))
		goto out;
	l.vrun = xcalloc(c->nvar, sizeof(*l.vrun));
	if (direction_load(db, &l.dirs) || metrics_begin(&l))
		goto out;
	/* metrics_ready() is called in there once the first reads are done */
	if (load_samples(&l) || metrics_ready(&l))
		goto out;
	first = c->nr;
	for (v = 0; v < c->nvar; v++)
		if (load_aggregates(&l, v) ||
		    (c->opts.mm_pool && load_pool(&l, v)))
			goto out;
	/* the aggregates' rows: load_samples() resolved its own */
	resolve_directions(&l, first);
	sort_rows(&l);
	ret = 0;
out:
	loader_release(&l);
	return ret;
}
