/*
 * The rows of a comparison (see load-internal.h): the pool of its
 * strings, the groups (testcase, params, machine) and the rows, the
 * chunks the rows' blocks are carved from, each variant's runs, and what
 * frees them.
 *
 * Rows are keyed by (testcase, params, machine, metric).  When comparing
 * along param:NAME, NAME=value is taken out of params, so the variants'
 * runs line up.
 */
#include "core/compat.h"
#include "analysis/load-internal.h"
#include "core/parallel.h"
#include "core/sbuf.h"
#include "store/values.h"

/*
 * Bytes of the first pool block, and of the largest: each block twice
 * the one before.  Most comparisons hold a few groups' names, a few
 * hundred bytes; regressions keeps a thousand of them.  A string longer
 * than a quarter of the next block gets a block of its own.
 */
#define POOL_BLOCK_FIRST 1024
#define POOL_BLOCK 65536

/* In blocks, not an allocation (and a free) a name. */
char *cmp_pool_addn(struct comparison *c, const char *s, size_t len)
{
	size_t n = len + 1;
	char *p;

	if (n > c->pool_room - c->pool_used || !c->nr_pool) {
		size_t block = c->nr_pool >= 6 ? POOL_BLOCK :
			       (size_t)POOL_BLOCK_FIRST << c->nr_pool;
		size_t size = n > block / 4 ? n : block;

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

size_t row_group(struct loader *l, size_t v, struct stmt *st, int col)
{
	struct comparison *c = l->c;
	char *params;
	size_t g;

	params = key_params((const char *)stmt_column_text(st, col + 1),
			    &c->var[v], &c->opts.ignore_params);
	g = group_idx(l, (const char *)stmt_column_text(st, col), params,
		      (const char *)stmt_column_text(st, col + 2));
	free(params);
	return g;
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

int map_runs(struct loader *l, size_t v, struct strmap *run_group,
	     long *count, int64_t **ids)
{
	struct stmt *st;
	int rc;

	st = variant_query(l, v, "SELECT r.id, v.testcase, v.params, "
				 "v.machine FROM runs r JOIN variants v ON "
				 "v.id = r.variant_id", 0);
	if (!st)
		return -1;
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		int64_t id = stmt_column_int64(st, 0);
		size_t g = row_group(l, v, st, 1);

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

struct cmp_extra *extra_of(struct comparison *c, struct cmp_side *sd)
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

int64_t metric_index(const struct loader *l, int64_t id)
{
	int64_t m;

	if (l->mindex)
		return id >= 0 && id <= l->max_metric_id ? l->mindex[id] : -1;
	return strmap_get(&l->metrics, (const char *)&id, sizeof(id), &m) ?
		       m : -1;
}

long blob_piece(struct loader *l, struct db_blob *b, size_t n, size_t i,
		unsigned char *buf)
{
	size_t k = n - i < BLOB_PIECE ? n - i : BLOB_PIECE;

	if (i >= n)
		return 0;
	if (db_blob_read(b, buf, (int)(k * RUN_VALUE_SIZE),
			 (int64_t)i * RUN_VALUE_SIZE))
		return error("%s: %s", l->db->path, db_errmsg(l->db));
	return (long)k;
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
