/*
 * The report's text (report.h): the kernel test robot's layout (lkp
 * research notes §3.3) or MMTests' compare-kernels tables, from one
 * comparison.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "core/version.h"
#include "output/compare-fmt.h"
#include "output/compare-rows.h"
#include "output/plot.h"
#include "store/commits.h"
#include "store/direction.h"
#include "report.h"

static double key_p(const struct cmp_vs *v)
{
	return isfinite(v->q) ? v->q : v->p;
}

/* A lead's verdict, by rank: a regression before an improvement before a
 * change of a metric whose direction is not known. */
static int verdict_rank(const struct cmp_vs *v)
{
	return v->verdict == CMP_REGRESSION ? 2 :
	       v->verdict == CMP_IMPROVEMENT ? 1 : 0;
}

/* Is a (row, vs) a better lead than b?  See report_key_row(). */
static int better(const struct cmp_row *ra, const struct cmp_vs *a,
		  const struct cmp_row *rb, const struct cmp_vs *b,
		  const char *headline)
{
	int ka = metric_kpi_rank(ra->metric), kb = metric_kpi_rank(rb->metric);
	double pa = key_p(a), pb = key_p(b);

	if (headline) {
		int ha = !strcmp(ra->metric, headline);
		int hb = !strcmp(rb->metric, headline);

		if (ha != hb)
			return ha;
	}
	if (ka != kb)
		return ka > kb;
	/* the same change seen twice: the row that says more about itself */
	if (!*ra->testcase != !*rb->testcase)
		return *ra->testcase != '\0';
	if (verdict_rank(a) != verdict_rank(b))
		return verdict_rank(a) > verdict_rank(b);
	if (pa != pb && isfinite(pa) && isfinite(pb))
		return pa < pb;
	return fabs(a->change_pct) > fabs(b->change_pct);
}

void report_key_row(const struct comparison *c, const char *headline,
		    struct report_key *key)
{
	const struct cmp_vs *best = NULL;
	size_t i, j;

	key->row = NULL;
	key->vs = 0;
	for (i = 0; i < c->nr; i++)
		for (j = 0; j + 1 < c->nvar; j++) {
			const struct cmp_vs *v = &c->rows[i].vs[j];

			if (!cmp_vs_changed(v))
				continue;
			if (best && !better(&c->rows[i], v, key->row, best,
					    headline))
				continue;
			best = v;
			key->row = &c->rows[i];
			key->vs = j;
		}
}

/* The first 10 digits of a sha, or the variant's name when it has none. */
static void short_name(struct sbuf *sb, const struct selector *s,
		       const struct commit_row *c)
{
	if (c->sha)
		sbuf_add(sb, c->sha, strlen(c->sha) < 10 ? strlen(c->sha) : 10);
	else
		sbuf_addstr(sb, selector_label(s));
}

/*
 * "commit: SHA ("subject")" (the base: "base: ..."), or for a variant
 * without a commit what it is: "new: bs=64k", "base: label june03"
 */
static void describe(struct sbuf *sb, int base, const struct selector *s,
		     const struct commit_row *c)
{
	const char *what = base ? "base" : c->sha ? "commit" : "new";

	if (c->sha && *c->subject)
		sbuf_addf(sb, "%s: %s (\"%s\")\n", what, c->sha, c->subject);
	else if (c->sha)
		sbuf_addf(sb, "%s: %s\n", what, c->sha);
	else if (s->dim == DIM_PARAM)
		sbuf_addf(sb, "%s: %s=%s\n", what, s->param, s->value);
	else
		sbuf_addf(sb, "%s: %s %s\n", what, dim_name(s->dim),
			  s->value);
}

/*
 * The commit of a variant: the recorded one (with its subject), else the
 * sha its variants carry (c->subject then ""); c->sha NULL when none.
 */
static int variant_commit(struct db *db, const struct selector *s,
			  struct commit_row *c)
{
	int r = commits_lookup(db, s->dim == DIM_COMMIT ? s->value : s->text,
			       c);

	if (r <= 0)
		return r;
	memset(c, 0, sizeof(*c));
	if (query_variant_commit(db, s, &c->sha))
		return -1;
	c->subject = xstrdup("");
	return 0;
}

/* One param's value out of "k=v,k=v" (owned), or NULL. */
static char *param_of(const char *params, const char *key)
{
	size_t klen = strlen(key);
	const char *p = params;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return xstrndup(p + klen + 1, len - klen - 1);
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

/* Every param but kconfig and compiler, one per line, tab-indented. */
static void params_block(struct sbuf *sb, const char *params)
{
	const char *p = params;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', len);

		if (eq && !(eq - p == 7 && !strncmp(p, "kconfig", 7)) &&
		    !(eq - p == 8 && !strncmp(p, "compiler", 8)))
			sbuf_addf(sb, "\t%.*s: %.*s\n", (int)(eq - p), p,
				  (int)(len - (size_t)(eq - p) - 1), eq + 1);
		p = end ? end + 1 : NULL;
	}
}

int report_chart(const struct report_req *rq, const struct cmp_row *r,
		 enum plot_format fmt, struct sbuf *sb)
{
	const struct comparison *c = rq->c;
	struct plot_opts o = { .format = fmt, .terminal = 1 };
	char **names = xcalloc(c->nvar, sizeof(*names));
	size_t i, row = (size_t)(r - c->rows);
	struct plot p;
	int ret;

	for (i = 0; i < c->nvar; i++) {
		const char *name = selector_label(&c->var[i]);

		/* a full sha is too wide for a bar's label: 10 digits */
		names[i] = strlen(name) > 12 && !name[strspn(name,
			"0123456789abcdef")] ? xstrndup(name, 10) :
			xstrdup(name);
	}
	/* drawn from the comparison itself: the table's rows and verdicts */
	plot_compare_rows(c, &row, 1, (const char *const *)names, &p);
	ret = plot_render_mem(&p, &o, sb);
	if (ret)
		warning("no chart of %s", r->metric);
	plot_release(&p);
	for (i = 0; i < c->nvar; i++)
		free(names[i]);
	free(names);
	return ret;
}

/* Remove trailing blanks from every line; end with one newline. */
static void tidy(struct sbuf *sb)
{
	size_t i, o = 0, line_end = 0;

	for (i = 0; i < sb->len; i++) {
		char ch = sb->buf[i];

		if (ch == '\n') {
			o = line_end;
			sb->buf[o++] = '\n';
			line_end = o;
			continue;
		}
		sb->buf[o++] = ch;
		if (ch != ' ' && ch != '\t')
			line_end = o;
	}
	sbuf_setlen(sb, line_end);
	while (sb->len >= 2 && sb->buf[sb->len - 1] == '\n' &&
	       sb->buf[sb->len - 2] == '\n')
		sbuf_setlen(sb, sb->len - 1);
	if (sb->len && sb->buf[sb->len - 1] != '\n')
		sbuf_addch(sb, '\n');
}

/* The comparison's table in fmt into sb; 0 or -1. */
static int table_text(const struct report_req *rq, enum cmp_format fmt, int all,
		 struct sbuf *sb)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f)
		return error("out of memory");
	r = cmp_write(rq->c, fmt, all, f);
	if (fclose(f))
		r = -1;
	if (!r)
		sbuf_add(sb, buf, len);
	free(buf);
	return r ? error("the table could not be written") : 0;
}

/*
 * "12.3% regression", "4.0% improvement", or for a metric whose
 * direction is not known the change with its sign: "+12.3% change".
 */
static void add_change(struct sbuf *sb, const struct cmp_vs *v)
{
	if (v->verdict == CMP_CHANGED)
		sbuf_addf(sb, "%+.1f%% change", v->change_pct);
	else
		sbuf_addf(sb, "%.1f%% %s", fabs(v->change_pct),
			  v->verdict == CMP_REGRESSION ? "regression" :
			  "improvement");
}

static void subject_line(const struct report_req *rq,
			 const struct report_key *key,
			 const struct commit_row *cnew, struct sbuf *subject)
{
	const struct selector *snew = &rq->var[key->row ? key->vs + 1 : 1];

	if (rq->reply_subject) {
		if (strncasecmp(rq->reply_subject, "Re:", 3))
			sbuf_addstr(subject, "Re: ");
		sbuf_addstr(subject, rq->reply_subject);
		return;
	}
	if (rq->tree)
		sbuf_addf(subject, "[%s] ", rq->tree);
	if (rq->subsys)
		sbuf_addf(subject, "[%s] ", rq->subsys);
	if (rq->style == REPORT_MMTESTS) {
		const char *tc = rq->c->nr ? rq->c->rows[0].testcase : "";

		if (*tc)
			sbuf_addf(subject, "%s: ", tc);
		sbuf_addf(subject, "%s vs %s: ", selector_label(&rq->var[0]),
			  selector_label(snew));
	} else {
		short_name(subject, snew, cnew);
		sbuf_addstr(subject, ": ");
	}
	if (!key->row) {
		sbuf_addstr(subject, "no significant change");
		return;
	}
	sbuf_addf(subject, "%s ", key->row->metric);
	add_change(subject, &key->row->vs[key->vs]);
}

static void lead(const struct report_req *rq, const struct report_key *key,
		 struct sbuf *body)
{
	const struct cmp_vs *v;

	if (!key->row) {
		sbuf_addf(body, "perfsift found no significant change among the "
			  "%zu metric%s compared (%s).\n\n", rq->c->nr,
			  rq->c->nr == 1 ? "" : "s",
			  rq->c->opts.fdr ? "Benjamini-Hochberg q < alpha" :
			  "p < alpha");
		return;
	}
	v = &key->row->vs[key->vs];
	sbuf_addstr(body, "perfsift noticed a ");
	add_change(body, v);
	sbuf_addf(body, " of %s on:\n\n", key->row->metric);
}

/*
 * A shell command, tab-indented, broken at blanks with backslashes so
 * that no line is longer than 80 columns (a tab counts 8).  Quoted
 * words hold no blanks that matter here: selectors and globs.
 */
static void command_line(struct sbuf *body, const char *cmd)
{
	size_t col = 8;
	const char *p = cmd;

	sbuf_addch(body, '\t');
	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t len = sp ? (size_t)(sp - p) : strlen(p);

		if (p != cmd && col + 1 + len > 78) {
			sbuf_addstr(body, " \\\n\t    ");
			col = 12;
		} else if (p != cmd) {
			sbuf_addch(body, ' ');
			col++;
		}
		sbuf_add(body, p, len);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	sbuf_addch(body, '\n');
}

static void reproduce(const struct report_req *rq,
		      const struct report_key *key, struct sbuf *body)
{
	char *cmd;

	sbuf_addstr(body, "To reproduce with perfsift:\n\n");
	cmd = xstrfmt("perfsift compare %s --format %s%s", rq->reproduce_args,
		      rq->style == REPORT_LKP ? "lkp" : "mmtests",
		      rq->all ? " --all" : "");
	command_line(body, cmd);
	free(cmd);
	if (key->row) {
		char *glob = glob_quote(key->row->metric);

		cmd = xstrfmt("perfsift plot compare %s --metric '%s' -o "
			      "chart.txt", rq->reproduce_args, glob);
		command_line(body, cmd);
		free(cmd);
		free(glob);
	}
	sbuf_addch(body, '\n');
}

static int lkp_body(const struct report_req *rq, const struct report_key *key,
		    const struct commit_row *cbase,
		    const struct commit_row *cnew, struct sbuf *body)
{
	const struct cmp_row *r = key->row ? key->row :
				  rq->c->nr ? &rq->c->rows[0] : NULL;
	char *kconfig = r ? param_of(r->params, "kconfig") : NULL;
	char *compiler = r ? param_of(r->params, "compiler") : NULL;

	sbuf_addstr(body, "Hello,\n\n");
	lead(rq, key, body);
	describe(body, 0, &rq->var[key->row ? key->vs + 1 : 1], cnew);
	describe(body, 1, &rq->var[0], cbase);
	sbuf_addch(body, '\n');
	if (r) {
		sbuf_addf(body, "testcase: %s\n", *r->testcase ? r->testcase :
			  "-");
		if (kconfig)
			sbuf_addf(body, "config: %s\n", kconfig);
		if (compiler)
			sbuf_addf(body, "compiler: %s\n", compiler);
		if (*r->machine)
			sbuf_addf(body, "test machine: %s\n", r->machine);
		if (*r->params) {
			sbuf_addstr(body, "parameters:\n\n");
			params_block(body, r->params);
		}
		sbuf_addch(body, '\n');
	}
	free(kconfig);
	free(compiler);
	sbuf_addstr(body, "Details are as below:\n");
	sbuf_addstr(body, "---------------------------------------------------"
		    "----------------------------------------------->\n\n");
	if (key->row || rq->all) {
		/*
		 * The lkp table's spread is lkp's (compare-lkp.c, lkp_err()):
		 * of perfsift's runs, or a source's figure as printed.
		 */
		unsigned sp = cfmt_spreads(rq->c);

		sbuf_addf(body, "%s; %%stddev is lkp's: the population "
			  "stddev (n) in %% of the mean%s:\n\n", rq->all ?
			  "Every metric compared" : "The significant changes",
			  !(sp & ~(unsigned)SPREAD_RUNS) ? "" :
			  sp & SPREAD_RUNS ? ", of the runs or as the source "
			  "printed it" : ", as the source printed it over "
			  "runs not imported");
		if (table_text(rq, FMT_LKP, rq->all, body))
			return -1;
		sbuf_addch(body, '\n');
	}
	if (key->row) {
		struct sbuf chart = SBUF_INIT;

		if (report_chart(rq, key->row, PLOT_TXT, &chart)) {
			sbuf_addf(body, "(no chart of %s: gnuplot could not "
				  "draw it)\n\n", key->row->metric);
		} else {
			/* the dumb terminal starts with a form feed and
			 * blank lines */
			const char *t = chart.buf, *q;

			for (q = t; *q == '\f' || *q == ' ' || *q == '\r' ||
			     *q == '\n'; q++)
				if (*q == '\n')
					t = q + 1;
			sbuf_addf(body, "%s\n", t);
		}
		sbuf_release(&chart);
	}
	reproduce(rq, key, body);
	return 0;
}

static int mmtests_body(const struct report_req *rq,
			const struct report_key *key, struct sbuf *body)
{
	sbuf_addstr(body, "Hello,\n\n");
	lead(rq, key, body);
	if (key->row)
		sbuf_addf(body, "%s against %s, testcase %s.\n\n",
			  selector_label(&rq->var[key->vs + 1]),
			  selector_label(&rq->var[0]),
			  *key->row->testcase ? key->row->testcase : "-");
	sbuf_addstr(body, "The tables in MMTests' compare-kernels layout "
		    "(every operation):\n\n");
	if (table_text(rq, FMT_MMTESTS, 1, body))
		return -1;
	sbuf_addch(body, '\n');
	reproduce(rq, key, body);
	return 0;
}

int report_build(const struct report_req *rq, struct sbuf *subject,
		 struct sbuf *body, struct report_key *key)
{
	struct commit_row cbase = { 0 }, cnew = { 0 };
	const struct selector *snew;
	int r;

	report_key_row(rq->c, rq->headline_metric, key);
	snew = &rq->var[key->row ? key->vs + 1 : 1];
	if (variant_commit(rq->db, &rq->var[0], &cbase) ||
	    variant_commit(rq->db, snew, &cnew)) {
		r = -1;
		goto out;
	}
	subject_line(rq, key, &cnew, subject);
	if (rq->style == REPORT_LKP)
		r = lkp_body(rq, key, &cbase, &cnew, body);
	else
		r = mmtests_body(rq, key, body);
	if (r)
		goto out;
	tidy(body);
	/* the signature separator keeps its space (RFC 3676 4.3) */
	sbuf_addf(body, "\n-- \nperfsift %s\n", PERFSIFT_VERSION);
out:
	commit_row_release(&cbase);
	commit_row_release(&cnew);
	return r;
}
