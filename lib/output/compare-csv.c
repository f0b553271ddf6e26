/*
 * compare's csv format: a header line, then a line per row and new
 * variant (RFC 4180 quoting), every number with 15 significant digits.
 */
#include "core/compat.h"
#include "output/compare-rows.h"
#include "output/numfmt.h"

/* Digits of a csv number: DBL_DIG, those a double holds for sure. */
#define CSV_DIGITS 15

static void csv_field(struct sbuf *sb, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n")) {
		sbuf_addstr(sb, s);
		return;
	}
	sbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			sbuf_addch(sb, '"');
		sbuf_addch(sb, *s);
	}
	sbuf_addch(sb, '"');
}

/* ",number" (NAN: an empty field) */
static void csv_num(struct sbuf *sb, double v)
{
	char buf[NUMFMT_BUF];

	sbuf_addch(sb, ',');
	if (isfinite(v))
		sbuf_add(sb, buf, fmt_general(buf, v, CSV_DIGITS));
}

/* "label,n,mean,stddev" of a side (n empty when not known) */
static void csv_side(struct sbuf *sb, const char *label,
		     const struct cfmt_side *s)
{
	char buf[NUMFMT_BUF];

	csv_field(sb, label);
	sbuf_addch(sb, ',');
	if (s->n >= 0)
		sbuf_add(sb, buf, fmt_int(buf, s->n));
	csv_num(sb, s->mean);
	csv_num(sb, s->sd);
}

static void csv_row(struct cfmt_rows *j, const struct cmp_row *r)
{
	const struct comparison *c = j->c;
	struct sbuf *sb = j->out;
	struct cfmt_row row;
	struct cfmt_vs x;
	size_t v, k;

	if (!cfmt_row_shown(c, r, j->all))
		return;
	cfmt_row_view(c, r, &row);
	for (v = 1; v < c->nvar; v++) {
		const char *const names[] = {
			row.testcase, row.params, row.machine, row.metric,
			row.unit,
		};

		cfmt_vs_view(c, r, v, &x);
		for (k = 0; k < ARRAY_SIZE(names); k++) {
			csv_field(sb, names[k]);
			sbuf_addch(sb, ',');
		}
		sbuf_addstr(sb, row.direction);
		sbuf_addch(sb, ',');
		csv_side(sb, row.base_label, &row.base);
		sbuf_addch(sb, ',');
		csv_side(sb, x.label, &x.side);
		csv_num(sb, x.change_pct);
		csv_num(sb, x.ci_low_pct);
		csv_num(sb, x.ci_high_pct);
		csv_num(sb, x.p);
		csv_num(sb, x.q);
		sbuf_addch(sb, ',');
		sbuf_addstr(sb, x.test);
		sbuf_addstr(sb, x.significant ? ",true," : ",false,");
		sbuf_addstr(sb, x.verdict);
		sbuf_addch(sb, '\n');
	}
}

int cfmt_write_csv(const struct comparison *c, int all, FILE *f)
{
	struct cfmt_rows st = { .c = c, .line = csv_row, .v = 1, .all = all,
				.cell = SBUF_INIT };

	fputs("testcase,params,machine,metric,unit,direction,base,base_n,"
	      "base_mean,base_stddev,label,n,mean,stddev,change_pct,"
	      "ci_low_pct,ci_high_pct,p_value,q_value,test,significant,"
	      "verdict\n", f);
	cfmt_write_rows(&st, f);
	sbuf_release(&st.cell);
	return 0;
}
