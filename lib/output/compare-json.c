/*
 * compare's JSON format: the document of SPEC §5.2, written by the
 * streaming writer (jsonw.h) in blocks of rows on two cores: a compare
 * of thousands of metrics is mostly this document.
 */
#include "core/compat.h"
#include "core/parallel.h"
#include "output/blocks.h"
#include "output/compare-rows.h"
#include "output/jsonw.h"

static void side_json(struct jsonw *w, const struct cfmt_side *s)
{
	if (s->n >= 0)
		jw_int(w, "n", s->n);
	else
		jw_null(w, "n");
	jw_num(w, "mean", s->mean);
	jw_num(w, "stddev", s->sd);
	jw_num(w, "min", s->min);
	jw_num(w, "max", s->max);
	jw_str(w, "source", s->source);
	if (s->kind == SIDE_AGGREGATE) {
		jw_str(w, "stat", s->stat);
		jw_str(w, "stddev_kind", s->sd_kind);
		jw_str(w, "marker", s->marker);
	}
}

/* Row r against variant v: an object in "vs". */
static void vs_json(struct jsonw *w, const struct comparison *c,
		    const struct cmp_row *r, size_t v)
{
	struct cfmt_vs x;

	cfmt_vs_view(c, r, v, &x);
	jw_object(w, NULL);
	side_json(w, &x.side);
	jw_str(w, "label", x.label);
	jw_num(w, "change_pct", x.change_pct);
	jw_num(w, "ci_low_pct", x.ci_low_pct);
	jw_num(w, "ci_high_pct", x.ci_high_pct);
	jw_num(w, "p_value", x.p);
	jw_num(w, "q_value", x.q);
	jw_str(w, "test", x.test);
	jw_num(w, "p_welch", x.p_welch);
	jw_num(w, "p_mwu", x.p_mwu);
	jw_num(w, "p_moderated", x.p_moderated);
	jw_bool(w, "significant", x.significant);
	jw_str(w, "verdict", x.verdict);
	jw_num(w, "level", x.level);
	jw_num(w, "runs_needed", x.runs_needed);
	jw_str(w, "note", x.note);
	jw_end(w);
}

/* One row of the document: an object in "rows". */
static void json_row(struct jsonw *w, const struct comparison *c,
		     const struct cmp_row *r)
{
	struct cfmt_row row;
	size_t v;

	cfmt_row_view(c, r, &row);
	jw_object(w, NULL);
	jw_str(w, "testcase", row.testcase);
	jw_str(w, "params", row.params);
	jw_str(w, "machine", row.machine);
	jw_str(w, "metric", row.metric);
	jw_str(w, "unit", row.unit);
	jw_str(w, "direction", row.direction);
	jw_object(w, "base");
	side_json(w, &row.base);
	jw_end(w);
	jw_array(w, "vs");
	for (v = 1; v < c->nvar; v++)
		vs_json(w, c, r, v);
	jw_end(w);
	jw_end(w);
}

/* blocks_write()'s state: the writer inside "rows", a row shown yet? */
struct json_scan {
	const struct comparison *c;
	int all;
	const struct jsonw *w;
	size_t pos;
	int any;
};

/* Is a row before lo shown?  (lo rises from call to call) */
static int json_shown_before(struct json_scan *s, size_t lo)
{
	for (; s->pos < lo && !s->any; s->pos++)
		s->any = cfmt_row_shown(s->c, &s->c->rows[s->pos], s->all);
	return s->any;
}

/* a block's writer: the document's, with a comma if a row came before */
static void json_start(void *ctx, void *job, size_t lo, size_t hi)
{
	struct json_scan *s = ctx;
	struct jsonw *w = job;

	(void)hi;
	*w = *s->w;
	w->has_items[w->depth] = (unsigned char)json_shown_before(s, lo);
}

static void json_rows(void *ctx, void *job, size_t lo, size_t hi,
		      struct sbuf *out)
{
	const struct json_scan *s = ctx;
	struct jsonw *w = job;
	size_t i;

	w->out = out;
	for (i = lo; i < hi; i++)
		if (cfmt_row_shown(s->c, &s->c->rows[i], s->all))
			json_row(w, s->c, &s->c->rows[i]);
}

/* The document's head, up to the opening of "rows", into w. */
static void json_head(struct jsonw *w, const struct comparison *c)
{
	size_t v;

	jw_object(w, NULL);
	jw_str(w, "base", cfmt_label(c, 0));
	jw_array(w, "compared");
	for (v = 1; v < c->nvar; v++)
		jw_str(w, NULL, cfmt_label(c, v));
	jw_end(w);
	jw_str(w, "by", dim_name(c->var[0].dim));
	jw_num(w, "alpha", c->opts.alpha);
	jw_str(w, "fdr", c->opts.fdr ? "bh" : "none");
	jw_str(w, "stddev", "sample (n-1) for samples; as the source gave "
			    "it for aggregates");
	jw_array(w, "rows");
}

/* The size hint of the buffer of the head and the closing brackets. */
#define JSON_HEAD_HINT (80 << 10)

int cfmt_write_json(const struct comparison *c, int all, FILE *f)
{
	struct sbuf out = SBUF_INIT;
	struct jsonw w;
	struct json_job {
		_Alignas(PARALLEL_ALIGN) struct jsonw w;
	} job[BLOCK_SLOTS];
	struct json_scan scan = { c, all, &w, 0, 0 };
	struct blocks bl = {
		c->nr, ROW_BLOCK, json_start, json_rows, &scan, { NULL },
	};
	size_t k;
	int ret;

	for (k = 0; k < BLOCK_SLOTS; k++)
		bl.job[k] = &job[k].w;
	sbuf_init(&out, JSON_HEAD_HINT);
	jw_init(&w, &out);
	json_head(&w, c);
	ret = fwrite(out.buf, 1, out.len, f) == out.len ? 0 : -1;
	sbuf_reset(&out);
	ret |= blocks_write(&bl, f);
	/* the closing bracket on a line of its own after a row */
	w.has_items[w.depth] = (unsigned char)json_shown_before(&scan, c->nr);
	jw_end(&w);
	jw_end(&w);
	sbuf_addch(&out, '\n');
	if (fwrite(out.buf, 1, out.len, f) != out.len || ferror(f))
		ret = -1;
	sbuf_release(&out);
	return ret;
}
