/*
 * The samples of a comparison (see load-internal.h): every run's values
 * of a range of metric ids read from its run_values blob, merged metric
 * by metric into the rows, and each completed row digested (its moments,
 * a hash, then the analysis's part) on whichever core is free, before
 * the samples go and the next range is read.
 */
#include "core/compat.h"
#include "analysis/load-internal.h"
#include "core/parallel.h"
#include "store/values.h"

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
	l->mem_bytes += SAMPLE_BYTES;
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
 * The values of blob b (of run, n entries) from entry i on, the first
 * whose id is at least lo, up to the first at hi, appended to s.  0, or
 * -1 after error().
 */
static int blob_values(struct loader *l, struct slices *s, struct db_blob *b,
		       size_t n, size_t i, int64_t run, int64_t lo,
		       int64_t hi)
{
	unsigned char buf[RUN_VALUE_SIZE * BLOB_PIECE];
	int64_t last = lo - 1;
	size_t j;
	long k;

	for (; (k = blob_piece(l, b, n, i, buf)) > 0; i += (size_t)k) {
		for (j = 0; j < (size_t)k; j++) {
			int64_t mid;
			double x;
			int derived;

			run_value_at(buf, j, &mid, &x, &derived);
			if (mid >= hi)
				return 0;
			/*
			 * merge_slices() takes each metric once: the ids
			 * must rise (db_pack_runs())
			 */
			if (mid <= last)
				return error("%s: the values of run %" PRId64
					     " are out of order (a damaged "
					     "run_values blob)", l->db->path,
					     run);
			last = mid;
			slice_add(s, mid, x, derived);
		}
	}
	return k < 0 ? -1 : 0;
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
	struct db_blob b;
	int rc;

	if (db_blob_open(l->db, "run_values", "data", "run_id", run, &b) ==
	    SQLITE_OK) {
		size_t n = (size_t)db_blob_bytes(&b) / RUN_VALUE_SIZE;
		size_t a = 0, z = n;

		while (a < z) {
			size_t m = a + (z - a) / 2;
			unsigned char e[4];

			if (db_blob_read(&b, e, sizeof(e),
					 (int64_t)m * RUN_VALUE_SIZE))
				goto fail_blob;
			if ((int64_t)(le_get_u32(e) & ~RUN_VALUE_DERIVED) < lo)
				a = m + 1;
			else
				z = m;
		}
		rc = blob_values(l, s, &b, n, a, run, lo, hi);
		db_blob_close(&b);
		return rc;
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

/* The hashes' seeds: FNV-1a's offset basis, and pi's first digits */
static const uint64_t hash_seed[2] = {
	0xcbf29ce484222325ULL, 0x243f6a8885a308d3ULL,
};

/*
 * What is kept of side s's samples: their moments (with sum: whether the
 * side is constant), and their mean as lkp's ncompare computes it.
 */
static void digest_side(struct cmp_side *s)
{
	size_t i;

	if (stats_moments(s->v, s->nv, &s->sum))
		s->sum.n = 0;	/* finish_side() drops the side */
	s->plain_mean = 0;
	for (i = 0; i < s->nv; i++)
		s->plain_mean += s->v[i];
	s->plain_mean /= (double)s->nv;
}

/* Row r's samples gone, unless keep_samples; returns how many. */
static size_t drop_samples(const struct comparison *c, struct cmp_row *r)
{
	size_t v, freed = 0;

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
 * Row r's samples digested while they are loaded: its direction and
 * kpi from the catalog, each side's digest (digest_side()), a 128-bit
 * hash of every side's samples for twins, then the analysis's part
 * (l->digest).  Then, unless keep_samples, the samples go.  Returns how
 * many were freed.
 */
static size_t digest_row(struct loader *l, struct cmp_row *r)
{
	struct comparison *c = l->c;
	uint64_t h0 = hash_seed[0], h1 = hash_seed[1];
	size_t v;

	/* the row's own copy: l->mdir is written by one thread only */
	if (r->direction == DIR_UNRESOLVED)
		r->direction = direction_of(&l->dirs, r->metric, r->unit,
					    l->mstated[r->metric_rank]);
	if (!c->opts.metrics)
		r->kpi = (signed char)metric_is_kpi(r->metric);
	for (v = 0; v < c->nvar; v++) {
		struct cmp_side *s = &r->side[v];

		h0 = mix64(h0, &s->nv, sizeof(s->nv), 1);
		h1 = mix64(h1, &s->nv, sizeof(s->nv), 0);
		if (s->source != SIDE_SAMPLES || !s->nv)
			continue;
		h0 = mix64(h0, s->v, s->nv * sizeof(*s->v), 1);
		h1 = mix64(h1, s->v, s->nv * sizeof(*s->v), 0);
		digest_side(s);
	}
	r->hash[0] = h0;
	r->hash[1] = h1;
	l->digest(c, r);
	return drop_samples(c, r);
}

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

/*
 * Each variant's runs in each group (l->gruns); returns the runs of
 * every variant.
 */
static size_t count_runs(struct loader *l)
{
	struct comparison *c = l->c;
	size_t v, i, runs = 0;

	for (v = 0; v < c->nvar; v++)
		runs += l->vrun[v].nr;
	l->gruns = xcalloc(c->nvar * l->nr_groups + 1, sizeof(*l->gruns));
	for (v = 0; v < c->nvar; v++)
		for (i = 0; i < l->vrun[v].nr; i++)
			if (l->vrun[v].group[i] != (size_t)-1)
				l->gruns[v * l->nr_groups +
					 l->vrun[v].group[i]]++;
	return runs;
}

/*
 * The metric ids of a range, so that it holds about *chunk samples of
 * runs runs (CMP_CHUNK_SAMPLES, or $PERFSIFT_CMP_CHUNK); every id with
 * keep_samples.
 */
static int64_t range_width(const struct loader *l, size_t runs, size_t *chunk)
{
	const char *env = getenv("PERFSIFT_CMP_CHUNK");
	int64_t width;

	*chunk = CMP_CHUNK_SAMPLES;
	if (env && *env)
		*chunk = (size_t)strtoull(env, NULL, 10);
	width = l->c->opts.keep_samples || !runs ? l->max_metric_id + 1 :
		(int64_t)(*chunk / runs);
	return width < 1 ? 1 : width;
}

/*
 * A range's values: about width x runs, never doubled and copied.  Its
 * sides' room: at most width x runs (a row of a range, a metric in a
 * group, has room for the group's runs of each variant).
 */
static void range_buffers(struct loader *l, struct slices *sl, int64_t width,
			  size_t runs, size_t chunk)
{
	size_t values = (size_t)width * runs;

	ALLOC_GROW_BIG(sl->val, values < chunk ? values : chunk, sl->alloc);
	if (!l->c->opts.keep_samples) {
		l->slab_alloc = values;
		/* written before it is read (add_sample()) */
		l->slab = xmalloc_big((l->slab_alloc + 1) * sizeof(*l->slab),
				      NULL);
	}
}

/* Every run's values of ids lo <= id < hi, into sl; 0, or -1. */
static int read_range(struct loader *l, struct slices *sl, int64_t lo,
		      int64_t hi, struct stmt *rows)
{
	struct comparison *c = l->c;
	size_t v, i;

	sl->nr = sl->nr_run = 0;
	l->slab_used = 0;
	for (v = 0; v < c->nvar; v++)
		for (i = 0; i < l->vrun[v].nr; i++) {
			struct slice *run;

			if (l->vrun[v].group[i] == (size_t)-1)
				continue;
			ALLOC_GROW(sl->run, sl->nr_run + 1, sl->alloc_run);
			run = &sl->run[sl->nr_run++];
			run->v = v;
			run->g = l->vrun[v].group[i];
			run->pos = sl->nr;
			if (read_slice(l, sl, l->vrun[v].id[i], lo, hi, rows))
				return -1;
			run->end = sl->nr;
		}
	return 0;
}

/*
 * The range in sl merged into the rows (those from first on) and
 * digested, the digest's helper started with the first range.  0, or
 * -1 after error().
 */
static int merge_range(struct loader *l, struct slices *sl,
		       struct digest_pipe *pipe, size_t first)
{
	struct comparison *c = l->c;
	size_t freed;

	l->rows_sure = c->nr + rows_at_least(l, sl);
	if (!l->ready) {
		if (metrics_ready(l))
			return -1;
		/* a helper for the digest when there is enough */
		if (l->nr_m * l->nr_groups >= 2 * DIGEST_BLOCK)
			pipe->w = worker_start(digest_block, pipe);
		l->digester = pipe->w;
	}
	pipe->handed = first;
	if (merge_slices(l, sl, pipe))
		return -1;
	/* the rows of this range's metrics were made by it */
	pipe_hand(pipe, c->nr);
	if (pipe->w)
		worker_wait(pipe->w, 0);
	resolve_directions(l, first);
	freed = SAMPLE_BYTES * (pipe->freed_worker + pipe->freed_here);
	pipe->freed_worker = pipe->freed_here = 0;
	l->mem_bytes = freed < l->mem_bytes ? l->mem_bytes - freed : 0;
	return 0;
}

/*
 * The digest's helper stopped and the ranges' buffers freed; failed: the
 * range whose rows start at first was cut short.
 */
static void samples_done(struct loader *l, struct slices *sl,
			 struct digest_pipe *pipe, size_t first, int failed)
{
	struct comparison *c = l->c;
	size_t i, v;

	worker_stop(pipe->w);
	l->digester = NULL;
	l->populate = NULL;
	if (l->ahead)
		free_big(l->ahead, chunk_size(c));
	l->ahead = NULL;
	/* a range cut short: its rows point into the slab */
	for (i = first; failed && l->slab && i < c->nr; i++)
		for (v = 0; v < c->nvar; v++)
			c->rows[i].side[v].v = NULL;
	FREE_BIG(l->slab, l->slab_alloc + 1);
	l->slab = NULL;
	FREE_BIG(sl->val, sl->alloc);
	free(sl->run);
}

/*
 * A range of metric ids at a time: each range's rows are digested
 * (digest_row()) before the next is read, so that at most about
 * CMP_CHUNK_SAMPLES samples are held (with keep_samples: all of them, in
 * one range).
 */
int load_samples(struct loader *l)
{
	struct comparison *c = l->c;
	struct slices sl = { NULL, 0, 0, NULL, 0, 0 };
	struct digest_pipe pipe = { .l = l };
	size_t runs, chunk, first = c->nr;
	struct stmt *rows;
	int64_t lo, width;
	int ret = -1;

	if (list_all_runs(l))
		return -1;
	runs = count_runs(l);
	width = range_width(l, runs, &chunk);
	rows = db_prepare(l->db, "SELECT metric_id, value, derived FROM "
				 "samples WHERE run_id = ? AND metric_id >= ? "
				 "AND metric_id < ? ORDER BY metric_id");
	if (!rows)
		return -1;
	range_buffers(l, &sl, width, runs, chunk);
	for (lo = 0; lo <= l->max_metric_id; lo += width) {
		first = c->nr;
		if (read_range(l, &sl, lo, lo + width, rows) ||
		    merge_range(l, &sl, &pipe, first))
			goto out;
		if (lo > INT64_MAX - width)
			break;
	}
	ret = 0;
out:
	samples_done(l, &sl, &pipe, first, ret);
	stmt_finalize(rows);
	return ret;
}
