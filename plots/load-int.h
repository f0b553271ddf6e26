#ifndef PLOTS_LOAD_INT_H
#define PLOTS_LOAD_INT_H
/*
 * Inside plot_load() (load.h): what its files share.  load.c picks the
 * loader of the chart's kind and holds the compare and trend loaders;
 * load-sweep.c draws samples against a run parameter, load-series.c a
 * run's monitor series.  The loaders call the helpers here, never
 * load.c.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "load.h"

/*
 * The dash types of reference lines (plot_line.dash): watermark w is
 * DASH_WATERMARK + w; a trend's segment means and its change points.
 */
#define DASH_WATERMARK 2
#define DASH_SEGMENT 2
#define DASH_CHANGE 3

/* "'a', 'b'": the variants, for messages. */
static inline char *variant_list(const struct plot_request *rq)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;

	for (i = 0; i < rq->nr_var; i++)
		sbuf_addf(&sb, "%s'%s'", i ? ", " : "", rq->var[i].name);
	return sbuf_detach(&sb, NULL);
}

static inline const char *glob_text(const struct plot_request *rq)
{
	return rq->metric_glob ? rq->metric_glob : "*";
}

/* The filter selecting variant i's runs. */
static inline void variant_filter(const struct plot_request *rq,
				  size_t i, struct run_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->sel = rq->var[i].sel;
	f->run_id = rq->var[i].sel ? 0 : rq->var[i].run_id;
	f->testcase = rq->testcase_glob;
	f->machine = rq->machine;
}

static inline void set_variants(struct plot *p,
				const struct plot_request *rq)
{
	size_t i;

	p->variants = xcalloc(rq->nr_var, sizeof(*p->variants));
	p->nr_variants = rq->nr_var;
	for (i = 0; i < rq->nr_var; i++)
		p->variants[i] = xstrdup(rq->var[i].name);
}

/* "a vs b vs c" */
static inline void add_vs(struct sbuf *sb, const struct plot_request *rq)
{
	size_t i;

	for (i = 0; i < rq->nr_var; i++)
		sbuf_addf(sb, "%s%s", i ? " vs " : "", rq->var[i].name);
}

/* load-sweep.c: samples against a parameter (sweep, latency) */
int load_sweep(struct db *db, const struct plot_request *rq,
	       struct plot *p);
/* load-series.c: monitor series, with the zone watermarks */
int load_series(struct db *db, const struct plot_request *rq,
		struct plot *p);

#endif
