/*
 * compare's lkp format: the kernel test robot's ncompare table, with
 * lkp's own figures (a mean summed in order, the population spread)
 * and, for lkp tables imported, the changes and spreads as printed.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "output/blocks.h"
#include "output/compare-rows.h"
#include "output/numfmt.h"

/* ncompare's value column: its width, and where its form changes */
#define LKP_VALUE_W 10
#define LKP_FIXED_BELOW 1000
#define LKP_GENERAL_ABOVE 1e8

/* lkp ncompare value: %10.2f below 1000, %10.4g above 1e8, else %10d. */
static void fmt_lkp_value(char *buf, size_t len, double v)
{
	char num[NUMFMT_BUF];
	size_t n;

	if (!isfinite(v)) {
		snprintf(buf, len, "%10s", "-");
		return;
	}
	if (fabs(v) < LKP_FIXED_BELOW)
		n = fmt_fixed(num, v, 2, 0);
	else if (fabs(v) > LKP_GENERAL_ABOVE)
		n = fmt_general(num, v, 4);
	else	/* %lld of the value truncated: %.0f of it */
		n = fmt_fixed(num, trunc(v), 0, 0);
	/* right-aligned in 10 columns, as "%10..." */
	if (len < LKP_VALUE_W + 1 || n >= len)
		BUG("fmt_lkp_value: a buffer of %zu bytes", len);
	memset(buf, ' ', n < LKP_VALUE_W ? LKP_VALUE_W - n : 0);
	memcpy(buf + (n < LKP_VALUE_W ? LKP_VALUE_W - n : 0), num, n + 1);
}

/* ncompare shows a spread above this, in %; past the cap as the cap */
#define LKP_SPREAD_MIN_PCT 2
#define LKP_SPREAD_CAP_PCT 99999

/*
 * " ±%3d%%" when the relative population stddev is above 2%, as ncompare;
 * a spread imported from an lkp table as it was printed (none when it
 * was "at most 2 %").
 */
static void lkp_err(char *buf, size_t len, const struct cmp_side *s)
{
	const struct cmp_extra *e = cmp_extra(s);
	double sd = NAN, rel;

	if (s->source == SIDE_SAMPLES && s->nv > 1)
		sd = s->sum.sd_pop;	/* lkp: population stddev */
	else if (s->source == SIDE_AGGREGATE)
		sd = s->sd;
	rel = s->mean != 0 ? 100 * sd / fabs(s->mean) : NAN;
	/*
	 * An integer at or above 2 is what lkp printed: its true value lay
	 * in [N, N+1) (lkp truncates), above the threshold.
	 */
	if (s->source == SIDE_AGGREGATE && e->sd_kind &&
	    !strcmp(e->sd_kind, "relative") && isfinite(e->sd_source))
		rel = e->sd_source >= LKP_SPREAD_MIN_PCT &&
		      e->sd_source == floor(e->sd_source) ?
			      e->sd_source + 0.5 : e->sd_source;
	/* (a spread past the cap is printed as that: no int overflow) */
	if (isfinite(rel) && rel > LKP_SPREAD_MIN_PCT)
		snprintf(buf, len, " \u00b1%3d%%", rel < LKP_SPREAD_CAP_PCT ?
			 (int)rel : LKP_SPREAD_CAP_PCT);
	else
		snprintf(buf, len, "      ");
}

static int lkp_absolute(const char *metric)
{
	return starts_with(metric, "perf-profile") || ends_with(metric, "%");
}

/*
 * lkp's mean: a sum from left to right divided by n (a mean that falls
 * on a rounding tie prints as lkp prints it only if computed the same
 * way); an aggregate's as imported.
 */
static double lkp_mean(const struct cmp_side *s)
{
	if (s->source != SIDE_SAMPLES || !s->nv)
		return s->mean;
	return s->plain_mean;	/* taken from the samples (compare.c) */
}

/* A column title: the commit when the variant is one, else its label. */
static const char *lkp_title(const struct comparison *c, size_t v)
{
	const struct selector *s = &c->var[v];

	return s->dim == DIM_COMMIT && s->value ? s->value : cfmt_label(c, v);
}

/*
 * The group's axes as lkp prints them: the names sorted and joined by
 * '/' (the params, tbox_group for the machine, testcase), then their
 * values in the same order.
 */
static void lkp_axes(const struct cmp_row *g, FILE *f)
{
	struct kv_ax { const char *k; size_t klen; const char *v;
		       size_t vlen; } ax[64];
	size_t n = 0, i, j;
	const char *p = g->params;

	while (*p && n < ARRAY_SIZE(ax) - 2) {
		const char *eq = strchr(p, '='), *comma;

		if (!eq)
			break;
		comma = strchr(eq, ',');
		ax[n].k = p;
		ax[n].klen = (size_t)(eq - p);
		ax[n].v = eq + 1;
		ax[n].vlen = comma ? (size_t)(comma - eq - 1) : strlen(eq + 1);
		n++;
		p = comma ? comma + 1 : eq + strlen(eq);
	}
	ax[n++] = (struct kv_ax){ "tbox_group", strlen("tbox_group"),
				  *g->machine ? g->machine : "-",
				  *g->machine ? strlen(g->machine) : 1 };
	ax[n++] = (struct kv_ax){ "testcase", strlen("testcase"),
				  *g->testcase ? g->testcase : "-",
				  *g->testcase ? strlen(g->testcase) : 1 };
	/* insertion sort by name: a few dozen at most */
	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			struct kv_ax t = ax[j];
			size_t m = ax[j - 1].klen < t.klen ? ax[j - 1].klen
							    : t.klen;
			int cmp = memcmp(ax[j - 1].k, t.k, m);

			if (cmp < 0 || (!cmp && ax[j - 1].klen <= t.klen))
				break;
			ax[j] = ax[j - 1];
			ax[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		fprintf(f, "%s%.*s", i ? "/" : "", (int)ax[i].klen, ax[i].k);
	fputs(":\n  ", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%.*s", i ? "/" : "", (int)ax[i].vlen, ax[i].v);
	fputs("\n\n", f);
}

/* The change an imported table printed for this side, against this base. */
static int printed_change(const struct comparison *c,
			  const struct cmp_side *s)
{
	const struct cmp_extra *e = cmp_extra(s);

	return s->source == SIDE_AGGREGATE && e->change_source &&
	       cfmt_printed_against(c, e->change_base);
}

/* A side's imported fail:runs count (stat "fails"), or NULL. */
static const struct agg_stat *lkp_fails(const struct cmp_side *s)
{
	const struct cmp_extra *e = cmp_extra(s);
	size_t i;

	for (i = 0; i < e->nr_stats; i++)
		if (!strcmp(e->stats[i].stat, "fails") && e->stats[i].n > 0)
			return &e->stats[i];
	return NULL;
}

/*
 * A row of lkp's fail:runs block: imported "fails" counts (a failure or
 * functional stat seen in that many of n runs) on every side.
 */
static int lkp_fail_row(const struct comparison *c, const struct cmp_row *r)
{
	size_t v;

	for (v = 0; v < c->nvar; v++)
		if (!lkp_fails(&r->side[v]))
			return 0;
	return 1;
}

/* A line of a table's head: base's part, then each new variant's. */
static void lkp_head(const struct comparison *c, const char *base,
		     const char *each, FILE *f)
{
	size_t v;

	fputs(base, f);
	for (v = 1; v < c->nvar; v++)
		fputs(each, f);
	fputc('\n', f);
}

/*
 * The block as ncompare prints it (the 2020 robot report in samples/lkp):
 * "fails:runs" (the count blank when 0) in the value columns, the
 * %reproduction, 100 (f/runs - f0/runs0), between them.
 */
static void lkp_fail_block(const struct comparison *c, const size_t *order,
			   size_t nr, FILE *f)
{
	char cell[64];
	size_t j, v;
	int any = 0;

	for (j = 0; j < nr && !any; j++)
		any = lkp_fail_row(c, &c->rows[order[j]]);
	if (!any)
		return;
	lkp_head(c, "       fail:runs", "  %reproduction    fail:runs", f);
	lkp_head(c, "           |", "             |             |", f);
	for (j = 0; j < nr; j++) {
		const struct cmp_row *r = &c->rows[order[j]];
		const struct agg_stat *b;

		if (!lkp_fail_row(c, r))
			continue;
		b = lkp_fails(&r->side[0]);
		for (v = 0; v < c->nvar; v++) {
			const struct agg_stat *s = lkp_fails(&r->side[v]);

			if (v && s->change_source &&
			    cfmt_printed_against(c, s->change_base))
				fprintf(f, "%11s ", s->change_source);
			else if (v)
				fprintf(f, "%10.0f%% ",
					100 * (s->value / (double)s->n -
					       b->value / (double)b->n));
			if (s->value > 0)
				snprintf(cell, sizeof(cell), "%.0f:%ld",
					 s->value, s->n);
			else
				snprintf(cell, sizeof(cell), ":%ld", s->n);
			fprintf(f, "%13s   ", cell);
		}
		fprintf(f, "  %s\n", r->metric);
	}
}

static const struct cmp_row *lkp_rows;	/* for the qsort callback */

/* lkp sorts a table's rows by the plain bytes of the metric name. */
static int cmp_lkp_order(const void *a, const void *b)
{
	return strcmp(lkp_rows[*(const size_t *)a].metric,
		      lkp_rows[*(const size_t *)b].metric);
}

/*
 * ncompare's layout (lib/compare.rb), checked byte for byte against the
 * 2025 robot email in samples/lkp: base value %10 + error 6 = 16
 * columns; per new variant the change "%+10.1f%%" (11), a space, value
 * %10 and error 6; then two spaces and the metric.  The ± uses the
 * population standard deviation, as lkp does.
 */
static void lkp_header(const struct comparison *c, FILE *f,
		       const size_t *order, size_t nr)
{
	size_t v;

	fprintf(f, "commit: \n");
	for (v = 0; v < c->nvar; v++)
		fprintf(f, "  %s\n", lkp_title(c, v));
	fputc('\n', f);
	fprintf(f, "%16.16s ", lkp_title(c, 0));
	for (v = 1; v < c->nvar; v++)
		fprintf(f, "%27.27s ", lkp_title(c, v));
	fputc('\n', f);
	lkp_head(c, "---------------- ", "--------------------------- ", f);
	lkp_fail_block(c, order, nr, f);
	lkp_head(c, "         %stddev", "     %change         %stddev", f);
	lkp_head(c, "             \\  ", "        |                \\  ", f);
}

/* ncompare's avg0 when the base's mean is 0 */
#define LKP_ZERO_BASE 1e-100
/* a change from here on is printed "%+10.2g%%" */
#define LKP_CHANGE_GENERAL_MIN 1e5

/* One row of lkp's table: base, then each new variant's change and value. */
static void lkp_line(const struct comparison *c, const struct cmp_row *r,
		     struct sbuf *out)
{
	char vb[64], eb[32], num[NUMFMT_BUF];
	double base = lkp_mean(&r->side[0]);
	size_t v;

	fmt_lkp_value(vb, sizeof(vb), base);
	lkp_err(eb, sizeof(eb), &r->side[0]);
	sbuf_addstr(out, vb);
	sbuf_addstr(out, eb);
	for (v = 1; v < c->nvar; v++) {
		const struct cmp_side *s = &r->side[v];
		const char *printed = NULL;
		double ch = NAN, mean = lkp_mean(s);

		if (r->side[0].source == SIDE_NONE || s->source == SIDE_NONE)
			ch = NAN;
		else if (printed_change(c, s))
			printed = cmp_extra(s)->change_source;
		else if (lkp_absolute(r->metric))
			ch = mean - base;
		else
			ch = 100 * (mean - base) /
			     (base != 0 ? base : LKP_ZERO_BASE);
		if (printed && ends_with(printed, "%")) {
			sbuf_addf(out, "%11s", printed);
		} else if (printed) {
			sbuf_addf(out, "%10s ", printed);
		} else if (isnan(ch) && (r->side[0].source == SIDE_NONE ||
					 s->source == SIDE_NONE)) {
			sbuf_addf(out, "%11s", "");
		} else if (!isfinite(ch)) {
			/* the change overflows a double (a base near 0) */
			sbuf_addf(out, "%10s ", "n/a");
		} else if (lkp_absolute(r->metric)) {
			cfmt_add_fixed_w(out, ch, LKP_VALUE_W, 1, 1);
			sbuf_addch(out, ' ');
		} else if (fabs(ch) >= LKP_CHANGE_GENERAL_MIN) {
			snprintf(num, sizeof(num), "%+10.2g%%", ch);
			sbuf_addstr(out, num);
		} else {
			cfmt_add_fixed_w(out, ch, LKP_VALUE_W, 1, 1);
			sbuf_addch(out, '%');
		}
		fmt_lkp_value(vb, sizeof(vb), mean);
		lkp_err(eb, sizeof(eb), s);
		sbuf_addch(out, ' ');
		sbuf_addstr(out, vb);
		sbuf_addstr(out, eb);
	}
	sbuf_add(out, "  ", 2);
	sbuf_addstr(out, r->metric);
	sbuf_addch(out, '\n');
}

/* A table's rows in their order (blocks_write()'s rows) */
struct lkp_tab {
	const struct comparison *c;
	const size_t *order;
};

/* rows order[lo..hi) into out */
static void lkp_lines(void *ctx, void *job, size_t lo, size_t hi,
		     struct sbuf *out)
{
	const struct lkp_tab *t = ctx;
	size_t i;

	(void)job;
	for (i = lo; i < hi; i++) {
		const struct cmp_row *r = &t->c->rows[t->order[i]];

		/* a fail:runs row is in its block, above the table */
		if (!lkp_fail_row(t->c, r))
			lkp_line(t->c, r, out);
	}
}

int cfmt_write_lkp(const struct comparison *c, int all, FILE *f)
{
	size_t i, k;
	int printed = 0;

	size_t *order = xmalloc((c->nr + 1) * sizeof(*order));

	lkp_rows = c->rows;
	for (i = 0; i < c->nr; i = k) {
		const struct cmp_row *g = &c->rows[i];
		size_t nr = 0;

		for (k = i; k < c->nr && cfmt_same_group(g, &c->rows[k]); k++)
			if (cfmt_row_shown(c, &c->rows[k], all))
				order[nr++] = k;
		if (!nr)
			continue;
		qsort(order, nr, sizeof(*order), cmp_lkp_order);
		if (printed++)
			fputc('\n', f);
		fprintf(f, "================================================="
			   "========================================\n");
		lkp_axes(g, f);
		lkp_header(c, f, order, nr);
		/* in blocks on both cores, written in order */
		{
			struct lkp_tab tab = { c, order };
			struct blocks bl = {
				nr, ROW_BLOCK, NULL, lkp_lines, &tab,
				{ NULL },
			};

			blocks_write(&bl, f);
		}
	}
	free(order);
	if (!printed) {
		lkp_header(c, f, NULL, 0);
		cfmt_none_significant(c, f);
	}
	return 0;
}

