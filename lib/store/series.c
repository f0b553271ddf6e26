/*
 * Series collection and reduction for the import (see series.h).
 */
#include "core/compat.h"
#include <inttypes.h>
#include "store/series.h"
#include "store/values.h"
#include "core/le.h"
#include "core/parallel.h"

struct series_state {
	int64_t metric_id;
	char *name;		/* owned, for messages */
	char *path;		/* owned: the file of the first point */
	enum metric_kind kind;
	int64_t source_id;	/* of the first point */
	long first_line;	/* of the chunk being filled */
	long chunk;		/* number of the chunk being filled */
	size_t n;		/* points in tv */
	/* the reduction, kept as points arrive */
	long count;
	double first, last, sum;
	long line0;		/* first point's line */
	long down_line;		/* > 0: where a counter went down */
	double down_from, down_to;
	/* the chunk being filled: (t, value) pairs, a point in one line */
	double tv[2 * SERIES_CHUNK];
};

/* A point on its way to the writer thread. */
struct queued_point {
	int64_t metric_id;
	double t, value;
	long line;
};

#define ASYNC_BLOCK 65536	/* points handed over at a time: 2 MiB */

/*
 * The writer of series_buf_async(), a worker thread: it adds the points
 * of one block (chunks, packing, SQLite) while the parser fills the
 * other.
 */
struct series_async {
	struct worker *w;
	struct series_buf *sb;
	struct import_ctx *ctx;
	struct queued_point *fill, *work;	/* owned: ASYNC_BLOCK points each */
	size_t nr_fill, nr_work;
	int failed;		/* a point failed: the rest are dropped */
};

struct series_buf {
	/* metric id -> its state (NULL: none); ids are small and dense */
	struct series_state **slot;	/* owned */
	size_t nr_slot;
	struct series_state **v;	/* owned */
	size_t nr, alloc;
	struct series_async *async;	/* owned, or NULL: added here */
	unsigned char packed[SERIES_PACK_MAX(SERIES_CHUNK)];
};

/*
 * The rows series.c writes, through the statements emit-import.c
 * prepared for the import (ctx->db->st).
 */
static int db_metric_info(struct import_ctx *ctx, int64_t metric_id, char **name,
		   enum metric_kind *kind)
{
	struct stmt *st = ctx->db->st[ST_METRIC_INFO];
	int rc;

	stmt_bind_int64(st, 1, metric_id);
	rc = stmt_step(st);
	if (rc == SQLITE_ROW) {
		*name = xstrdup((const char *)stmt_column_text(st, 0));
		*kind = (enum metric_kind)stmt_column_int(st, 1);
	}
	stmt_reset(st);
	if (rc != SQLITE_ROW)
		return error("%s: database: metric %" PRId64 ": %s", ctx->path,
			     metric_id, db_errmsg(ctx->db));
	return 0;
}

static int db_emit_derived(struct import_ctx *ctx, int64_t mid,
		    double value, long line, int64_t source_id)
{
	struct stmt *st = ctx->db->st[ST_INS_DERIVED];

	stmt_bind_int64(st, 1, ctx->run_id);
	stmt_bind_int64(st, 2, mid);
	stmt_bind_double(st, 3, value);
	db_bind_id(st, 4, line);
	db_bind_id(st, 5, source_id);
	if (db_step_done(ctx, st, line))
		return -1;
	if (db_changes(ctx->db) > 0) {
		if (!ctx->db->pg)
			values_held_add(ctx, ctx->run_id, mid, value, 1);
		ctx->nr_derived++;
	}
	return 0;
}

static int db_emit_series_chunk(struct import_ctx *ctx, int64_t mid,
			 long chunk, const void *points, size_t len,
			 int codec, size_t n, int64_t source_id, long line)
{
	struct stmt *st = ctx->db->st[ST_INS_SERIES];

	stmt_bind_int64(st, 1, ctx->run_id);
	stmt_bind_int64(st, 2, mid);
	stmt_bind_int64(st, 3, chunk);
	stmt_bind_int64(st, 4, (int64_t)n);
	stmt_bind_blob(st, 5, points, (int)len, SQLITE_STATIC);
	db_bind_id(st, 6, source_id);
	db_bind_id(st, 7, line);
	stmt_bind_int(st, 8, codec);
	return db_step_done(ctx, st, line);
}

struct series_buf *series_buf_new(void)
{
	return xcalloc(1, sizeof(struct series_buf));
}

static void clear(struct series_buf *sb)
{
	size_t i;

	for (i = 0; i < sb->nr; i++) {
		sb->slot[sb->v[i]->metric_id] = NULL;
		free(sb->v[i]->name);
		free(sb->v[i]->path);
		free(sb->v[i]);
	}
	sb->nr = 0;
}

static void async_stop(struct series_buf *sb);

void series_buf_free(struct series_buf *sb)
{
	if (!sb)
		return;
	async_stop(sb);
	clear(sb);
	free(sb->v);
	free(sb->slot);
	free(sb);
}

void series_put_point(void *blob, size_t i, double t, double value)
{
	unsigned char *p = (unsigned char *)blob + i * SERIES_RAW_POINT;

	le_put_double(p, t);
	le_put_double(p + 8, value);
}

/*
 * SERIES_PACKED: one byte of flags, then each point in turn, its t then
 * its value.  Flag 1: every t of the chunk is an integer, stored as the
 * varint of its zigzagged second difference (t0, t1 - t0, then
 * (ti - ti-1) - (ti-1 - ti-2): 0 for a monitor's steady period); else
 * each t is 8 bytes, as in SERIES_RAW.  Flag 2: every value is an
 * integer, stored as the varint of its zigzagged difference from the
 * previous one (v0 first); else 8 bytes.  Varints are LEB128: 7 bits a
 * byte, low first, the top bit set on every byte but the last.  An
 * integer here is a double d with |d| <= 2^53 and (double)(int64_t)d ==
 * d, -0 excluded, so that every difference fits in 64 bits and every
 * value comes back exactly.  A vmstat point takes 2-4 bytes, not 16.
 */
#define PACK_T_INT 1
#define PACK_V_INT 2
#define INT_LIMIT 9007199254740992.0	/* 2^53 */

static int is_int(double d)
{
	return d >= -INT_LIMIT && d <= INT_LIMIT && d == (double)(int64_t)d &&
	       !(d == 0 && signbit(d));
}

static unsigned char *put_varint(unsigned char *p, int64_t d)
{
	uint64_t u = ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);

	while (u >= 0x80) {
		*p++ = (unsigned char)(u | 0x80);
		u >>= 7;
	}
	*p++ = (unsigned char)u;
	return p;
}

/* NULL when the varint is cut or longer than 10 bytes */
static const unsigned char *get_varint(const unsigned char *p,
				       const unsigned char *end, uint64_t *d)
{
	uint64_t u = 0;
	int shift;

	for (shift = 0; shift < 70 && p < end; shift += 7) {
		unsigned char b = *p++;

		u |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*d = (u >> 1) ^ (0 - (u & 1));
			return p;
		}
	}
	return NULL;
}

/*
 * The packed layout with flags; 0, or the flag of the first stream found
 * not to be integers (the caller packs again without it).
 */
static int pack_as(const double *tv, size_t n, int flags, unsigned char *out,
		   size_t *len)
{
	int64_t pt = 0, pdt = 0, pv = 0;
	unsigned char *p = out;
	size_t i;

	*p++ = (unsigned char)flags;
	for (i = 0; i < n; i++) {
		double t = tv[2 * i], v = tv[2 * i + 1];

		if (flags & PACK_T_INT) {
			int64_t x, dt;

			if (!is_int(t))
				return PACK_T_INT;
			x = (int64_t)t;
			dt = x - pt;
			p = put_varint(p, i ? dt - pdt : x);
			pdt = i ? dt : 0;
			pt = x;
		} else {
			le_put_double(p, t);
			p += 8;
		}
		if (flags & PACK_V_INT) {
			int64_t x;

			if (!is_int(v))
				return PACK_V_INT;
			x = (int64_t)v;
			p = put_varint(p, x - pv);
			pv = x;
		} else {
			le_put_double(p, v);
			p += 8;
		}
	}
	*len = (size_t)(p - out);
	return 0;
}

size_t series_pack(const double *tv, size_t n, unsigned char *out,
		   int *codec)
{
	int flags = PACK_T_INT | PACK_V_INT, not_int;
	size_t len = 0, i;

	/* both streams integers first (a monitor's case): one pass */
	while (flags && (not_int = pack_as(tv, n, flags, out, &len)))
		flags &= ~not_int;
	if (flags && len <= n * SERIES_RAW_POINT) {
		*codec = SERIES_PACKED;
		return len;
	}
	/* nothing to gain: integers too far apart, or none */
	for (i = 0; i < n; i++)
		series_put_point(out, i, tv[2 * i], tv[2 * i + 1]);
	*codec = SERIES_RAW;
	return n * SERIES_RAW_POINT;
}

size_t series_max_points(int codec, size_t len)
{
	if (codec == SERIES_RAW)
		return len / SERIES_RAW_POINT;
	/* a point is at least one byte of t and one of value */
	return len ? (len - 1) / 2 : 0;
}

int series_unpack(int codec, const void *blob, size_t len, size_t n,
		  double *tv)
{
	const unsigned char *p = blob, *end = p + len;
	uint64_t pt = 0, pdt = 0, pv = 0, d;
	int flags;
	size_t i;

	if (codec == SERIES_RAW) {
		if (len != n * SERIES_RAW_POINT)
			return -1;
		for (i = 0; i < 2 * n; i++)
			tv[i] = le_get_double(p + i * 8);
		return 0;
	}
	if (codec != SERIES_PACKED || !len || (*p & ~3) || !(*p & 3))
		return -1;
	flags = *p++;
	/* unsigned arithmetic: a corrupt blob wraps, never overflows */
	for (i = 0; i < n; i++) {
		if (flags & PACK_T_INT) {
			if (!(p = get_varint(p, end, &d)))
				return -1;
			pdt = i ? pdt + d : 0;
			pt = i ? pt + pdt : d;
			tv[2 * i] = (double)(int64_t)pt;
		} else {
			if (end - p < 8)
				return -1;
			tv[2 * i] = le_get_double(p);
			p += 8;
		}
		if (flags & PACK_V_INT) {
			if (!(p = get_varint(p, end, &d)))
				return -1;
			pv += d;
			tv[2 * i + 1] = (double)(int64_t)pv;
		} else {
			if (end - p < 8)
				return -1;
			tv[2 * i + 1] = le_get_double(p);
			p += 8;
		}
	}
	return p == end ? 0 : -1;
}

static int flush(struct series_buf *sb, struct series_state *s,
		 struct import_ctx *ctx)
{
	size_t len;
	int codec;

	if (!s->n)
		return 0;
	len = series_pack(s->tv, s->n, sb->packed, &codec);
	if (db_emit_series_chunk(ctx, s->metric_id, s->chunk, sb->packed, len,
				 codec, s->n, s->source_id, s->first_line))
		return -1;
	s->chunk++;
	s->n = 0;
	return 0;
}

static int add_now(struct series_buf *sb, struct import_ctx *ctx,
		   int64_t metric_id, double t, double value, long line)
{
	struct series_state *s;

	if (metric_id <= 0 || metric_id > UINT32_MAX)
		BUG("series of metric id %" PRId64, metric_id);
	if ((size_t)metric_id >= sb->nr_slot) {
		size_t n = (size_t)metric_id * 2 + 64;

		sb->slot = xrealloc(sb->slot, n * sizeof(*sb->slot));
		memset(sb->slot + sb->nr_slot, 0,
		       (n - sb->nr_slot) * sizeof(*sb->slot));
		sb->nr_slot = n;
	}
	s = sb->slot[metric_id];
	if (!s) {
		s = xcalloc(1, sizeof(*s));
		s->metric_id = metric_id;
		if (db_metric_info(ctx, metric_id, &s->name, &s->kind)) {
			free(s);
			return -1;
		}
		s->path = xstrdup(ctx->path);
		s->source_id = ctx->source_id;
		s->line0 = line;
		ALLOC_GROW(sb->v, sb->nr + 1, sb->alloc);
		sb->v[sb->nr++] = s;
		sb->slot[metric_id] = s;
	}
	if (!s->n)
		s->first_line = line;
	s->tv[2 * s->n] = t;
	s->tv[2 * s->n + 1] = value;
	s->n++;
	if (!s->count)
		s->first = value;
	else if (value < s->last && !s->down_line) {
		s->down_line = line;
		s->down_from = s->last;
		s->down_to = value;
	}
	s->last = value;
	s->sum += value;
	s->count++;
	if (s->n == SERIES_CHUNK)
		return flush(sb, s, ctx);
	return 0;
}

/* The worker's job: the block handed over (a->work). */
static void write_block(void *ctx, void *job)
{
	struct series_async *a = ctx;
	size_t i;

	(void)job;
	for (i = 0; i < a->nr_work && !a->failed; i++) {
		const struct queued_point *p = &a->work[i];

		a->failed = add_now(a->sb, a->ctx, p->metric_id, p->t,
				    p->value, p->line);
	}
}

void series_buf_async(struct series_buf *sb, struct import_ctx *ctx)
{
	struct series_async *a;

	if (sb->async || ctx->db->pg)
		return;
	a = xcalloc(1, sizeof(*a));
	a->sb = sb;
	a->ctx = ctx;
	a->fill = xmalloc(ASYNC_BLOCK * sizeof(*a->fill));
	a->work = xmalloc(ASYNC_BLOCK * sizeof(*a->work));
	a->w = worker_start(write_block, a);
	if (!a->w) {
		free(a->fill);
		free(a->work);
		free(a);
		return;
	}
	sb->async = a;
}

/*
 * Wait for the writer to be idle; then, with more, give it the points
 * filled so far.  0, or -1 when a point it added failed (it said why).
 */
static int async_handoff(struct series_async *a, int more)
{
	struct queued_point *p;

	worker_wait(a->w, 0);
	if (a->failed)
		return -1;
	if (more && a->nr_fill) {
		p = a->work;
		a->work = a->fill;
		a->fill = p;
		a->nr_work = a->nr_fill;
		a->nr_fill = 0;
		worker_queue(a->w, a);
	}
	return 0;
}

int series_buf_sync(struct series_buf *sb)
{
	if (!sb || !sb->async)
		return 0;
	if (async_handoff(sb->async, 1))
		return -1;
	return async_handoff(sb->async, 0);
}

static void async_stop(struct series_buf *sb);

int series_buf_sync_end(struct series_buf *sb)
{
	int ret = series_buf_sync(sb);

	if (sb)
		async_stop(sb);
	return ret;
}

/* End the writer thread; what it was not given is dropped. */
static void async_stop(struct series_buf *sb)
{
	struct series_async *a = sb->async;

	if (!a)
		return;
	worker_stop(a->w);
	free(a->fill);
	free(a->work);
	free(a);
	sb->async = NULL;
}

int series_buf_add(struct series_buf *sb, struct import_ctx *ctx,
		   int64_t metric_id, double t, double value, long line)
{
	struct series_async *a = sb->async;
	struct queued_point *p;

	if (!a)
		return add_now(sb, ctx, metric_id, t, value, line);
	if (a->nr_fill == ASYNC_BLOCK && async_handoff(a, 1))
		return -1;
	p = &a->fill[a->nr_fill++];
	p->metric_id = metric_id;
	p->t = t;
	p->value = value;
	p->line = line;
	return 0;
}

int series_buf_finish(struct series_buf *sb, struct import_ctx *ctx)
{
	size_t i;
	int ret = series_buf_sync(sb);

	async_stop(sb);
	if (ret) {
		clear(sb);
		return -1;
	}

	for (i = 0; i < sb->nr && !ret; i++) {
		struct series_state *s = sb->v[i];
		double v;

		if (flush(sb, s, ctx)) {
			ret = -1;
			break;
		}
		if (!ctx->derive_samples)
			continue;
		if (s->kind == MK_COUNTER) {
			if (s->down_line) {
				warning("%s:%ld: counter '%s' went down (%.15g "
					"to %.15g): a reboot or a wrap; no "
					"value derived for this run", s->path,
					s->down_line, s->name, s->down_from,
					s->down_to);
				ctx->nr_warnings++;
				continue;
			}
			/* one point: its value, as lkp does */
			v = s->count > 1 ? s->last - s->first : s->last;
		} else {
			v = s->sum / (double)s->count;
		}
		ret = db_emit_derived(ctx, s->metric_id, v, s->line0,
				      s->source_id);
	}
	clear(sb);
	return ret;
}
