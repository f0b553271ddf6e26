/*
 * compare's markdown format: per new variant and testcase/params/machine
 * group, a heading and a GitHub table of the rows shown.
 */
#include "core/compat.h"
#include "output/compare-rows.h"

/* "| s " with s's pipes escaped */
static void md_cell(struct sbuf *out, const char *s)
{
	sbuf_add(out, "| ", 2);
	while (*s) {
		size_t n = strcspn(s, "|");

		sbuf_add(out, s, n);
		s += n;
		if (*s == '|') {
			sbuf_add(out, "\\|", 2);
			s++;
		}
	}
	sbuf_addch(out, ' ');
}

/* The heading and the table's head of r's group against variant j->v. */
static void md_heading(struct cfmt_rows *j, const struct cmp_row *r)
{
	const struct comparison *c = j->c;
	struct sbuf *out = j->out, t = SBUF_INIT;

	cfmt_group_title(&t, r);
	sbuf_addf(out, "%s**%s** vs **%s** — %s\n\n", j->shown ? "\n" : "",
		  cfmt_label(c, j->v), cfmt_label(c, 0), t.buf);
	sbuf_addf(out, "| metric | %s | %s | change | %d%% CI | p | q | "
		  "verdict |\n", cfmt_label(c, 0), cfmt_label(c, j->v),
		  cfmt_ci_level(c));
	sbuf_addstr(out, "|---|---:|---:|---:|---:|---:|---:|---|\n");
	sbuf_release(&t);
}

static void md_row(struct cfmt_rows *j, const struct cmp_row *r)
{
	struct sbuf *out = j->out, *sb = &j->cell;
	struct cfmt_row row;
	struct cfmt_vs x;

	if (!cfmt_vs_shown(&r->vs[j->v - 1], j->all))
		return;
	if (!j->prev || !cfmt_same_group(j->prev, r))
		md_heading(j, r);
	j->prev = r;
	cfmt_row_view(j->c, r, &row);
	cfmt_vs_view(j->c, r, j->v, &x);
	md_cell(out, row.metric);
	sbuf_reset(sb);
	cfmt_add_side(sb, &row.base);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	cfmt_add_side(sb, &x.side);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	cmp_fmt_change(sb, &x);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	cfmt_add_ci(sb, &x);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	cmp_fmt_pval(sb, x.p);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	cmp_fmt_pval(sb, x.q);
	md_cell(out, sb->buf);
	sbuf_reset(sb);
	sbuf_addstr(sb, x.verdict);
	if (x.note) {
		sbuf_add(sb, " (", 2);
		sbuf_addstr(sb, x.note);
		sbuf_addch(sb, ')');
	}
	md_cell(out, sb->buf);
	sbuf_add(out, "|\n", 2);
	j->shown++;
}

int cfmt_write_markdown(const struct comparison *c, int all, FILE *f)
{
	struct cfmt_rows st = { .c = c, .line = md_row, .all = all,
				.cell = SBUF_INIT };

	for (st.v = 1; st.v < c->nvar; st.v++) {
		st.prev = NULL;
		cfmt_write_rows(&st, f);
	}
	sbuf_release(&st.cell);
	if (!st.shown)
		fputs("No significant changes.\n", f);
	return 0;
}
