/*
 * The chart of a comparison's rows (plot.h): a panel per row, a bar per
 * variant with its runs, marked as the comparison decided.  Drawn from
 * the comparison itself, so that a chart shows what its table says.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "output/compare-rows.h"
#include "output/plot.h"

/*
 * Panels of rows from several groups (testcases, machines, params): each
 * says under its metric what tells its group from the others, and the
 * caption names every group in full, tagged in the order they come.
 */
static void group_panels(const struct comparison *c, const size_t *rows,
			 size_t nr, struct plot *out)
{
	struct plot_group *g = xcalloc(nr, sizeof(*g));
	size_t *first_of = xcalloc(nr, sizeof(*first_of));
	size_t i, j, nr_groups = 0;

	for (i = 0; i < nr; i++) {
		const struct cmp_row *r = &c->rows[rows[i]];

		for (j = 0; j < nr_groups; j++)
			if (cfmt_same_group(&c->rows[rows[first_of[j]]], r))
				break;
		out->panels[i].tag = j + 1;
		if (j < nr_groups)
			continue;
		first_of[nr_groups] = i;
		g[nr_groups].testcase = r->testcase;
		g[nr_groups].machine = r->machine;
		g[nr_groups].params = r->params;
		nr_groups++;
	}
	for (j = 0; j < nr_groups; j++) {
		char *name = plot_group_name(&g[j]);

		plot_caption_add(out, j + 1, name);
		free(name);
	}
	for (i = 0; i < nr; i++)
		out->panels[i].group = plot_group_diff(g, nr_groups,
						       out->panels[i].tag - 1);
	free(g);
	free(first_of);
}

static void compare_bar(const struct cmp_row *r, size_t v,
			struct plot_bar *b, int *aggregate)
{
	const struct cmp_side *s = &r->side[v];

	b->mean = b->err = b->change_pct = NAN;
	b->n = -1;
	if (s->source == SIDE_NONE)
		return;
	b->mean = s->mean;
	b->n = s->n;
	if (s->source == SIDE_SAMPLES) {
		b->err = s->nv > 1 ? s->sd : NAN;
		b->runs = xmalloc((s->nv ? s->nv : 1) * sizeof(*b->runs));
		memcpy(b->runs, s->v, s->nv * sizeof(*b->runs));
		b->nr_runs = s->nv;
	} else {
		b->err = s->sd;
		*aggregate = 1;
	}
	if (v) {
		const struct cmp_vs *vs = &r->vs[v - 1];

		b->change_pct = vs->change_pct;
		if (vs->significant && vs->verdict == CMP_REGRESSION)
			b->mark = MARK_REGRESSION;
		else if (vs->significant && vs->verdict == CMP_IMPROVEMENT)
			b->mark = MARK_IMPROVEMENT;
		else if (vs->significant && vs->verdict == CMP_CHANGED)
			b->mark = MARK_CHANGED;
	}
}

void plot_compare_rows(const struct comparison *c, const size_t *rows,
		       size_t nr, const char *const *names, struct plot *out)
{
	const struct cmp_row *first = &c->rows[rows[0]];
	struct sbuf sb = SBUF_INIT;
	size_t i, v;
	int one_group = 1, aggregate = 0;

	if (!nr || nr > PLOT_MAX_PANELS)
		BUG("a compare chart of %zu rows", nr);
	memset(out, 0, sizeof(*out));
	out->kind = PLOT_COMPARE;
	out->variants = xcalloc(c->nvar, sizeof(*out->variants));
	out->nr_variants = c->nvar;
	for (v = 0; v < c->nvar; v++)
		out->variants[v] = xstrdup(names ? names[v]
						 : selector_label(&c->var[v]));
	for (i = 1; i < nr; i++)
		one_group &= cfmt_same_group(first, &c->rows[rows[i]]);
	for (i = 0; i < nr; i++) {
		const struct cmp_row *r = &c->rows[rows[i]];
		struct plot_panel *pn;

		pn = plot_add_panel_take(out, xstrdup(r->metric),
					 plot_unit_label(r->unit));
		pn->bars = xcalloc(c->nvar, sizeof(*pn->bars));
		for (v = 0; v < c->nvar; v++)
			compare_bar(r, v, &pn->bars[v], &aggregate);
	}
	if (!one_group)
		group_panels(c, rows, nr, out);
	for (v = 0; v < c->nvar; v++)
		sbuf_addf(&sb, "%s%s", v ? " vs " : "", out->variants[v]);
	if (one_group) {
		struct plot_group g = { first->testcase, first->machine,
					first->params };
		char *name = plot_group_name(&g);

		/* ", T on M (P)", from the parts that are known */
		if (*name)
			sbuf_addf(&sb, "%s%s", *g.testcase ? ", " : " ", name);
		free(name);
	}
	out->title = sbuf_detach(&sb, NULL);
	sbuf_addf(&sb, "bars: mean ± sample standard deviation (n-1); "
		  "points: runs; change against %s, * significant "
		  "(%s < %g)", out->variants[0],
		  c->opts.fdr ? "Benjamini-Hochberg q" : "p", c->opts.alpha);
	if (aggregate)
		sbuf_addstr(&sb, "; imported summaries: the source's "
			    "standard deviation");
	out->subtitle = sbuf_detach(&sb, NULL);
}

