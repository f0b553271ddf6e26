/*
 * The emit log (emitlog.h): an import's calls recorded as ops, and
 * replayed.  An op is a tag byte and its fields: integers and doubles as
 * 8 bytes in the machine's order, strings as a 4-byte length (all ones:
 * NULL) and the bytes with their NUL, read back in place.
 */
#include "core/compat.h"
#include "store/emitlog.h"

enum {
	OP_SAMPLE = 'S',
	OP_SERIES = 'T',
	OP_RUN = 'R',
	OP_HISTOGRAM = 'H',
	OP_MSG = 'M',
};

#define NO_STRING UINT32_MAX

static void put_i64(struct sbuf *sb, int64_t v)
{
	sbuf_add(sb, &v, sizeof(v));
}

static void put_f64(struct sbuf *sb, double v)
{
	sbuf_add(sb, &v, sizeof(v));
}

static void put_str(struct sbuf *sb, const char *s)
{
	uint32_t n = NO_STRING;

	if (s) {
		size_t len = strlen(s);

		if (len >= NO_STRING)
			BUG("a string of %zu bytes in an emit log", len);
		n = (uint32_t)len;
	}
	sbuf_add(sb, &n, sizeof(n));
	if (s)
		sbuf_add(sb, s, (size_t)n + 1);
}

/* The op is complete: hand the buffer over when it is big enough. */
static int op_done(struct emit_log *log)
{
	if (log->buf.len >= EMIT_LOG_CHUNK)
		log->full(log, log->data);
	return 0;
}

void emit_log_msg(struct emit_log *log, enum emit_msg kind, const char *msg)
{
	sbuf_addch(&log->buf, OP_MSG);
	put_i64(&log->buf, kind);
	put_str(&log->buf, msg);
	op_done(log);
}

int emit_log_sample(struct emit_log *log, const char *metric,
		    const char *unit, double value, long line)
{
	sbuf_addch(&log->buf, OP_SAMPLE);
	put_i64(&log->buf, line);
	put_f64(&log->buf, value);
	put_str(&log->buf, metric);
	put_str(&log->buf, unit);
	return op_done(log);
}

int emit_log_series(struct emit_log *log, const char *metric,
		    const char *unit, enum metric_kind kind, double t,
		    double value, long line)
{
	sbuf_addch(&log->buf, OP_SERIES);
	put_i64(&log->buf, line);
	put_i64(&log->buf, kind);
	put_f64(&log->buf, t);
	put_f64(&log->buf, value);
	put_str(&log->buf, metric);
	put_str(&log->buf, unit);
	return op_done(log);
}

int emit_log_run(struct emit_log *log, const struct run_desc *rd, long line)
{
	size_t i;

	sbuf_addch(&log->buf, OP_RUN);
	put_i64(&log->buf, line);
	put_i64(&log->buf, rd->iteration);
	put_i64(&log->buf, rd->start_time);
	put_i64(&log->buf, (int64_t)rd->nr_params);
	put_str(&log->buf, rd->suite);
	put_str(&log->buf, rd->testcase);
	put_str(&log->buf, rd->machine);
	put_str(&log->buf, rd->kernel);
	put_str(&log->buf, rd->commit);
	put_str(&log->buf, rd->label);
	for (i = 0; i < rd->nr_params; i++) {
		put_str(&log->buf, rd->params[i].key);
		put_str(&log->buf, rd->params[i].value);
	}
	return op_done(log);
}

int emit_log_histogram(struct emit_log *log, const char *metric,
		       const char *unit, const double *value,
		       const double *count, size_t n, long line)
{
	sbuf_addch(&log->buf, OP_HISTOGRAM);
	put_i64(&log->buf, line);
	put_i64(&log->buf, (int64_t)n);
	sbuf_add(&log->buf, value, n * sizeof(*value));
	sbuf_add(&log->buf, count, n * sizeof(*count));
	put_str(&log->buf, metric);
	put_str(&log->buf, unit);
	return op_done(log);
}

/* ---- replay ---- */

struct reader {
	const char *p, *end;
};

static void need(const struct reader *r, size_t n)
{
	if ((size_t)(r->end - r->p) < n)
		BUG("an emit log cut short");
}

/* n bytes out of the log: it keeps no alignment */
static void get(struct reader *r, void *v, size_t n)
{
	need(r, n);
	memcpy(v, r->p, n);
	r->p += n;
}

static int64_t get_i64(struct reader *r)
{
	int64_t v;

	get(r, &v, sizeof(v));
	return v;
}

static double get_f64(struct reader *r)
{
	double v;

	get(r, &v, sizeof(v));
	return v;
}

static const char *get_str(struct reader *r)
{
	const char *s;
	uint32_t n;

	get(r, &n, sizeof(n));
	if (n == NO_STRING)
		return NULL;
	need(r, (size_t)n + 1);
	s = r->p;
	r->p += (size_t)n + 1;
	return s;
}

/* n doubles, copied out */
static double *get_doubles(struct reader *r, size_t n)
{
	double *v = xmalloc(n ? n * sizeof(*v) : 1);

	get(r, v, n * sizeof(*v));
	return v;
}

static int replay_run(struct import_ctx *ctx, struct reader *r)
{
	struct run_desc rd = { 0 };
	struct kv *params;
	long line = (long)get_i64(r);
	size_t i;
	int ret;

	rd.iteration = (long)get_i64(r);
	rd.start_time = get_i64(r);
	rd.nr_params = (size_t)get_i64(r);
	rd.suite = get_str(r);
	rd.testcase = get_str(r);
	rd.machine = get_str(r);
	rd.kernel = get_str(r);
	rd.commit = get_str(r);
	rd.label = get_str(r);
	params = xcalloc(rd.nr_params ? rd.nr_params : 1, sizeof(*params));
	for (i = 0; i < rd.nr_params; i++) {
		params[i].key = get_str(r);
		params[i].value = get_str(r);
	}
	rd.params = params;
	ret = db_emit_run(ctx, &rd, line);
	free(params);
	return ret;
}

static int replay_histogram(struct import_ctx *ctx, struct reader *r)
{
	long line = (long)get_i64(r);
	size_t n = (size_t)get_i64(r);
	double *value = get_doubles(r, n), *count = get_doubles(r, n);
	const char *metric = get_str(r), *unit = get_str(r);
	int ret = db_emit_histogram(ctx, metric, unit, value, count, n, line);

	free(value);
	free(count);
	return ret;
}

static void replay_msg(struct import_ctx *ctx, struct reader *r)
{
	enum emit_msg kind = (enum emit_msg)get_i64(r);
	const char *msg = get_str(r);

	if (!msg)
		BUG("a message without text in an emit log");
	if (kind == EMIT_ERROR) {
		error("%s", msg);
		return;
	}
	if (kind == EMIT_WARN_COUNTED)
		ctx->nr_warnings++;
	warning("%s", msg);
}

int db_replay(struct import_ctx *ctx, const char *p, size_t len)
{
	struct reader r = { p, p + len };

	if (ctx->log)
		BUG("db_replay() into a recording import");
	while (r.p < r.end) {
		int op = *r.p++, ret = 0;

		switch (op) {
		case OP_SAMPLE: {
			long line = (long)get_i64(&r);
			double value = get_f64(&r);
			const char *metric = get_str(&r), *unit = get_str(&r);

			ret = db_emit_sample(ctx, metric, unit, value, line);
			break;
		}
		case OP_SERIES: {
			long line = (long)get_i64(&r);
			enum metric_kind kind = (enum metric_kind)get_i64(&r);
			double t = get_f64(&r), value = get_f64(&r);
			const char *metric = get_str(&r), *unit = get_str(&r);

			ret = db_emit_series(ctx, metric, unit, kind, t, value,
					     line);
			break;
		}
		case OP_RUN:
			ret = replay_run(ctx, &r);
			break;
		case OP_HISTOGRAM:
			ret = replay_histogram(ctx, &r);
			break;
		case OP_MSG:
			replay_msg(ctx, &r);
			break;
		default:
			BUG("op %d in an emit log", op);
		}
		if (ret)
			return -1;
	}
	return 0;
}
