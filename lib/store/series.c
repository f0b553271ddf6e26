/*
 * Series collection and reduction for the import (see series.h).
 */
#include "core/compat.h"
#include <inttypes.h>
#include "store/series.h"
#include "core/le.h"

struct series_state {
	int64_t metric_id;
	char *name;		/* owned, for messages */
	char *path;		/* owned: the file of the first point */
	enum metric_kind kind;
	int64_t source_id;	/* of the first point */
	long first_line;	/* of the chunk being filled */
	long chunk;		/* number of the chunk being filled */
	size_t n;		/* points in buf */
	unsigned char buf[SERIES_CHUNK * 16];
	/* the reduction, kept as points arrive */
	long count;
	double first, last, sum;
	long line0;		/* first point's line */
	long down_line;		/* > 0: where a counter went down */
	double down_from, down_to;
};

struct series_buf {
	/* metric id -> 1 + index in v (0: none); ids are small and dense */
	uint32_t *slot;			/* owned */
	size_t nr_slot;
	struct series_state **v;	/* owned */
	size_t nr, alloc;
};

/*
 * The rows series.c writes, through the statements emit.c prepared for
 * the import (ctx->db->st).
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
	if (db_changes(ctx->db) > 0)
		ctx->nr_derived++;
	return 0;
}

static int db_emit_series_chunk(struct import_ctx *ctx, int64_t mid,
			 long chunk, const void *points, size_t n,
			 int64_t source_id, long line)
{
	struct stmt *st = ctx->db->st[ST_INS_SERIES];

	stmt_bind_int64(st, 1, ctx->run_id);
	stmt_bind_int64(st, 2, mid);
	stmt_bind_int64(st, 3, chunk);
	stmt_bind_int64(st, 4, (int64_t)n);
	stmt_bind_blob(st, 5, points, (int)(n * 16), SQLITE_TRANSIENT);
	db_bind_id(st, 6, source_id);
	db_bind_id(st, 7, line);
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
		sb->slot[sb->v[i]->metric_id] = 0;
		free(sb->v[i]->name);
		free(sb->v[i]->path);
		free(sb->v[i]);
	}
	sb->nr = 0;
}

void series_buf_free(struct series_buf *sb)
{
	if (!sb)
		return;
	clear(sb);
	free(sb->v);
	free(sb->slot);
	free(sb);
}

void series_put_point(void *blob, size_t i, double t, double value)
{
	unsigned char *p = (unsigned char *)blob + i * 16;

	le_put_double(p, t);
	le_put_double(p + 8, value);
}

void series_point(const void *blob, size_t i, double *t, double *value)
{
	const unsigned char *p = (const unsigned char *)blob + i * 16;

	*t = le_get_double(p);
	*value = le_get_double(p + 8);
}

static int flush(struct series_state *s, struct import_ctx *ctx)
{
	if (!s->n)
		return 0;
	if (db_emit_series_chunk(ctx, s->metric_id, s->chunk, s->buf, s->n,
				 s->source_id, s->first_line))
		return -1;
	s->chunk++;
	s->n = 0;
	return 0;
}

int series_buf_add(struct series_buf *sb, struct import_ctx *ctx,
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
	if (sb->slot[metric_id]) {
		s = sb->v[sb->slot[metric_id] - 1];
	} else {
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
		sb->slot[metric_id] = (uint32_t)sb->nr;
	}
	if (!s->n)
		s->first_line = line;
	le_put_double(s->buf + s->n * 16, t);
	le_put_double(s->buf + s->n * 16 + 8, value);
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
		return flush(s, ctx);
	return 0;
}

int series_buf_finish(struct series_buf *sb, struct import_ctx *ctx)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < sb->nr && !ret; i++) {
		struct series_state *s = sb->v[i];
		double v;

		if (flush(s, ctx)) {
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
