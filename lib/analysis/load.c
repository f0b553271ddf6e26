/*
 * Loading a comparison (see load.h): the pool of its strings, its groups
 * and rows and the chunks their blocks are carved from, each variant's
 * runs, the aggregates and MMTests' pools, and the rows' order.
 *
 * Rows are keyed by (testcase, params, machine, metric).  When comparing
 * along param:NAME, NAME=value is taken out of params, so the variants'
 * runs line up.  Samples win over aggregates: a side has an aggregate
 * only where no run of the variant has the metric.
 */
#include "core/compat.h"
#include "analysis/load-internal.h"
#include "core/parallel.h"
#include "core/sbuf.h"
#include "store/series.h"

/* Bytes of a pool block; a longer string gets a block of its own. */
#define POOL_BLOCK 65536

/* In blocks of 64 KiB, not an allocation (and a free) a name. */
char *cmp_pool_addn(struct comparison *c, const char *s, size_t len)
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

const char *pool_add(struct comparison *c, const char *s)
{
	return s ? cmp_pool_addn(c, s, strlen(s)) : NULL;
}

/*
 * What a row costs besides itself and its block, for CMP_MEM_BUDGET:
 * 64 bytes while it is loaded (its index entry, the rows' slack), and
 * 112 after (the sort's keys, the tests' arrays, the writer's, which
 * come once the loading is done).
 */
#define ROW_MORE_BYTES (64 + 112)

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

/* The bytes of a row's block: side[nvar] then vs[nvar - 1]. */
static size_t block_size(const struct comparison *c)
{
	return c->nvar * sizeof(struct cmp_side) +
	       (c->nvar - 1) * sizeof(struct cmp_vs);
}

/* The bytes of a chunk's blocks: two huge pages (xcalloc_big()). */
#define CHUNK_BYTES ((size_t)4 << 20)

size_t chunk_size(const struct comparison *c)
{
	size_t bs = block_size(c);

	return CHUNK_BYTES / bs > 0 ? CHUNK_BYTES / bs * bs : bs;
}

/*
 * A new chunk (zeroed, or its blocks as they are taken): the one made
 * ahead, if any.  When the range's rows will fill this one too
 * (rows_sure), the next is made now and handed to the digest's helper
 * to fault in (digest_block()), so that the merge does not wait on
 * this core for fresh pages to be faulted in.
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

/*
 * The row of (group, metric id mid) if it was made, else NULL; *direct
 * says whether group's array indexes it (made here while the budget
 * allows), else the strmap.
 */
static struct cmp_row *row_find(struct loader *l, size_t group, int64_t mid,
				int *direct)
{
	int64_t key[2] = { (int64_t)group, mid }, idx;
	size_t ids = (size_t)l->max_metric_id + 1;

	*direct = l->row_of && mid >= 0 && mid <= l->max_metric_id;
	if (*direct && !l->row_of[group] &&
	    l->row_of_used + ids <= ROW_OF_BUDGET && !l->hashed_any) {
		l->row_of[group] = xcalloc(ids, sizeof(uint32_t));
		l->row_of_used += ids;
		l->mem_bytes += ids * sizeof(uint32_t);
	}
	*direct = *direct && l->row_of[group];
	if (*direct) {
		if (l->row_of[group][mid])
			return &l->c->rows[l->row_of[group][mid] - 1];
	} else if (strmap_get(&l->rows, (const char *)key, sizeof(key), &idx)) {
		return &l->c->rows[idx];
	}
	return NULL;
}

/*
 * A new row of (group, metric id mid), metric index m, indexed where
 * row_find() said (direct).
 */
static struct cmp_row *row_new(struct loader *l, size_t group, int64_t mid,
			       int64_t m, int direct)
{
	struct comparison *c = l->c;
	int64_t key[2] = { (int64_t)group, mid };
	struct cmp_row *r;

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
	 * DIR_UNRESOLVED until the catalog is looked up by digest_row(),
	 * on both cores, then kept per metric (resolve_directions()).
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

struct cmp_row *row_for(struct loader *l, size_t group, int64_t mid,
			int create)
{
	struct cmp_row *r;
	int64_t m;
	int direct;

	r = row_find(l, group, mid, &direct);
	if (r || !create)
		return r;
	m = metric_index(l, mid);
	return m < 0 ? NULL : row_new(l, group, mid, m, direct);
}

/*
 * Prepare "head WHERE TRUE" plus variant v's selection and the filters
 * (query.c's variant_where(), the same for runs and aggregates), and bind
 * them: the three queries of the loader.  NULL after error().
 */
struct stmt *variant_query(struct loader *l, size_t v, const char *head,
			   int aggregates)
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

void pool_value(struct loader *l, struct cmp_side *sd, double x)
{
	struct cmp_extra *e = extra_of(l->c, sd);

	ALLOC_GROW(e->mm, e->nmm + 1, e->alloc_mm);
	e->mm[e->nmm++] = x;
	l->mem_bytes += SAMPLE_BYTES;
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
int list_all_runs(struct loader *l)
{
	size_t v;

	for (v = 0; !l->listed && v < l->c->nvar; v++)
		if (list_runs(l, v))
			return -1;
	l->listed = 1;
	return 0;
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
	struct comparison *c = l->c;
	char *params;
	size_t g;

	params = key_params((const char *)stmt_column_text(st, 1), &c->var[v],
			    &c->opts.ignore_params);
	g = group_idx(l, (const char *)stmt_column_text(st, 0), params,
		      (const char *)stmt_column_text(st, 2));
	free(params);
	return row_for(l, g, stmt_column_int64(st, 3), 1);
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

void cmp_load_release(struct comparison *c)
{
	size_t i;

	/*
	 * Rows in chunks whose sides own nothing (the samples were in a
	 * slab): nothing to free a row, and a pass over them all would
	 * only touch every side for that.
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
	free(c->runs);
}
