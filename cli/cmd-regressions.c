/*
 * perfsift regressions: every significant regression in the database,
 * each variant against its predecessor or against --base; with
 * --exit-code, exit 1 when any is found (for CI pipelines).
 */
#include "core/compat.h"
#include "output/compare-fmt.h"
#include "store/direction.h"
#include "analysis/regressions.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "cmd.h"
#include "options.h"
#include "table.h"
#include <jansson.h>

struct regressions_args {
	struct compare_args cmp;
	const char *base;
	int order;		/* enum rg_order */
	int json, exit_code;
};

static const struct opt_word order_words[] = {
	{ "git", RG_ORDER_GIT },
	{ "import", RG_ORDER_IMPORT },
	{ NULL, 0 },
};

static const char *const regressions_usage[] = {
	"perfsift regressions [--base SEL] [--order git|import] [--alpha A]\n"
	"                     [--min-change PCT] [--test T] [--fdr F]\n"
	"                     [--json] [--exit-code]",
	NULL,
};

#define T struct regressions_args
static const struct opt regressions_opts[] = {
	OPT_STRING(0, "base", T, base, "SEL",
		   "compare every variant with SEL instead"),
	OPT_ENUM("order", T, order, "O",
		 "git: in recorded commit order (an error when a\n"
		 "variant's commit is not recorded); import: in\n"
		 "import order; default: git when every variant\n"
		 "has a recorded commit, else import", order_words),
	OPT_COMPARE_TESTS(T, cmp.o),
	OPT_JSON(T, json, "one JSON document on stdout"),
	OPT_BOOL(0, "exit-code", T, exit_code,
		 "exit 1 if any regression is found, else 0"),
	OPT_END(),
};
#undef T

const struct cmd_options regressions_options = {
	.name = "regressions",
	.usage = regressions_usage,
	.description =
	"List every significant regression in the database: each variant\n"
	"(label) against its predecessor -- in commit order when 'perfsift\n"
	"commits import' placed every variant, else in import order -- or\n"
	"every variant against --base.  The false discovery rate is held at\n"
	"alpha over all the pairs together (Benjamini-Hochberg).  The tests\n"
	"and the verdict are those of 'perfsift compare'.  Each regression\n"
	"names the commits of the pair: the last good (the base's) and the\n"
	"first bad (the variant's), with their subjects when recorded.\n",
	.options = regressions_opts,
};

static json_t *jcommit(const struct rg_commit *c)
{
	json_t *o;

	if (!c->sha)
		return json_null();
	o = json_object();
	json_object_set_new(o, "commit", json_string(c->sha));
	json_object_set_new(o, "subject", c->subject ? json_string(c->subject)
						     : json_null());
	return o;
}

struct each {
	const struct regressions *rg;
	void *data;
};

static void json_one(const struct comparison *c, const struct cmp_row *r,
		     size_t v, void *data)
{
	const struct each *e = data;
	const struct cmp_vs *x = &r->vs[v - 1];
	json_t *o = json_object();

	json_object_set_new(o, "label", json_string(selector_label(&c->var[v])));
	json_object_set_new(o, "base", json_string(selector_label(&c->var[0])));
	json_object_set_new(o, "testcase", json_string(r->testcase));
	json_object_set_new(o, "params", json_string(r->params));
	json_object_set_new(o, "machine", json_string(r->machine));
	json_object_set_new(o, "metric", json_string(r->metric));
	json_object_set_new(o, "unit", r->unit ? json_string(r->unit)
					       : json_null());
	json_object_set_new(o, "direction",
			    json_string(direction_name(r->direction)));
	json_object_set_new(o, "base_mean", json_finite(r->side[0].mean));
	json_object_set_new(o, "mean", json_finite(r->side[v].mean));
	json_object_set_new(o, "change_pct", json_finite(x->change_pct));
	json_object_set_new(o, "ci_low_pct", json_finite(x->ci_low_pct));
	json_object_set_new(o, "ci_high_pct", json_finite(x->ci_high_pct));
	json_object_set_new(o, "p_value", json_finite(x->p));
	json_object_set_new(o, "q_value", json_finite(x->q));
	json_object_set_new(o, "test", json_string(cmp_method_name(x->method)));
	json_object_set_new(o, "last_good",
			    jcommit(regressions_commit(e->rg, c, 0)));
	json_object_set_new(o, "first_bad",
			    jcommit(regressions_commit(e->rg, c, v)));
	json_array_append_new(e->data, o);
}

static void print_json(const struct regressions *rg, double alpha, int fdr)
{
	json_t *doc = json_object(), *a = json_array();
	struct each e = { rg, a };

	json_object_set_new(doc, "alpha", json_real(alpha));
	json_object_set_new(doc, "fdr", json_string(fdr ? "bh" : "none"));
	json_object_set_new(doc, "order", json_string(rg->by_commit ?
						      "commit" : "import"));
	json_object_set_new(doc, "tested", json_integer(rg->nr_tested));
	json_object_set_new(doc, "untested", json_integer(rg->nr_untested));
	regressions_each(rg, CMP_REGRESSION, json_one, &e);
	json_object_set_new(doc, "regressions", a);
	e.data = a = json_array();
	regressions_each(rg, CMP_CHANGED, json_one, &e);
	json_object_set_new(doc, "changed", a);
	print_json_steal(doc);
}

/*
 * The text table names each group (testcase and params, often a few
 * hundred characters of params) by a number, listed under the table:
 * the table stays within 100 columns.
 */
#define LIST_WIDTH 100
#define LIST_INDENT 6

struct groups {
	struct strmap index;	/* "testcase params" -> number - 1 */
	struct sbuf list;	/* "  [N] testcase params\n", in order */
	long nr;
};

static long group_number(struct groups *g, const struct cmp_row *r)
{
	struct sbuf key = SBUF_INIT;
	int64_t n = g->nr;

	sbuf_addf(&key, "%s%s%s", *r->testcase ? r->testcase : "-",
		  *r->params ? " " : "", r->params);
	if (!strmap_get_or_put(&g->index, key.buf, key.len, &n)) {
		size_t col = g->list.len, i;

		g->nr++;
		sbuf_addf(&g->list, "  [%ld] ", (long)n + 1);
		/* the params wrapped after a comma, within the 100 columns */
		for (i = 0; i < key.len; i++) {
			const char *next = strchr(key.buf + i, ',');
			size_t run = next ? (size_t)(next - key.buf - i) + 1 :
					    key.len - i;

			if (g->list.len - col + run > LIST_WIDTH &&
			    g->list.len - col > LIST_INDENT) {
				sbuf_addstr(&g->list, "\n");
				col = g->list.len;
				sbuf_addf(&g->list, "%*s", LIST_INDENT, "");
			}
			sbuf_add(&g->list, key.buf + i, run);
			i += run - 1;
		}
		sbuf_addch(&g->list, '\n');
	}
	sbuf_release(&key);
	return (long)n + 1;
}

struct text_rows {
	struct table *t;
	struct groups *g;
};

static void text_one(const struct comparison *c, const struct cmp_row *r,
		     size_t v, void *data)
{
	const struct each *e = data;
	const struct cmp_vs *x = &r->vs[v - 1];
	const struct text_rows *tr = e->data;
	struct table *t = tr->t;

	table_addf(t, "%s", selector_label(&c->var[v]));
	table_addf(t, "%s", selector_label(&c->var[0]));
	table_addf(t, "[%ld]", group_number(tr->g, r));
	table_addf(t, "%s", r->metric);
	table_addf(t, "%+.2f%%", x->change_pct);
	if (isfinite(x->ci_low_pct))
		table_addf(t, "[%+.2f%%, %+.2f%%]", x->ci_low_pct,
			   x->ci_high_pct);
	else
		table_addf(t, "-");
	if (isfinite(x->q))
		table_addf(t, "%.2g", x->q);
	else
		table_addf(t, "-");
	table_addf(t, "%s", cmp_method_name(x->method));
	if (t->ncols > 8) {
		const struct rg_commit *g = regressions_commit(e->rg, c, 0),
				       *b = regressions_commit(e->rg, c, v);

		table_addf(t, "%.12s", g->sha ? g->sha : "-");
		table_addf(t, "%.12s", b->sha ? b->sha : "-");
	}
}

/* Subjects of the commits named in the table, each once. */
static void subject_one(const struct comparison *c, const struct cmp_row *r,
			size_t v, void *data)
{
	const struct each *e = data;
	struct sbuf *seen = e->data;
	size_t i;

	(void)r;
	for (i = 0; i < 2; i++) {
		const struct rg_commit *k = regressions_commit(e->rg, c,
							       i ? v : 0);
		char key[16];

		if (!k->sha || !k->subject)
			continue;
		snprintf(key, sizeof(key), " %.12s ", k->sha);
		if (strstr(seen->buf, key))
			continue;
		sbuf_addstr(seen, key);
		printf("  %.12s  %s\n", k->sha, k->subject);
	}
}

/* The table of the pairs of verdict which, with its header. */
static void print_table(const struct regressions *rg, enum cmp_verdict which,
			int commits, struct groups *g)
{
	struct table t;
	struct text_rows tr = { &t, g };
	struct each e = { rg, &tr };

	table_init(&t, commits ? 10 : 8, 1UL << 4 | 1UL << 5 | 1UL << 6);
	table_addf(&t, "VARIANT");
	table_addf(&t, "BASE");
	table_addf(&t, "GROUP");
	table_addf(&t, "METRIC");
	table_addf(&t, "CHANGE");
	table_addf(&t, "CI");
	table_addf(&t, "Q");
	table_addf(&t, "TEST");
	if (commits) {
		table_addf(&t, "LAST GOOD");
		table_addf(&t, "FIRST BAD");
	}
	regressions_each(rg, which, text_one, &e);
	table_print(&t, stdout);
	table_release(&t);
}

static void print_text(const struct regressions *rg)
{
	struct sbuf seen = SBUF_INIT;
	struct each e = { rg, &seen };
	struct groups g = { STRMAP_INIT, SBUF_INIT, 0 };
	int commits = 0, commit_cols = 0;
	size_t i;

	/*
	 * The commits' columns only where a variant's name does not say
	 * its commit already (a kernel name, a label): a table of commits
	 * named by their shas fits in 100 columns without them.
	 */
	for (i = 0; i < rg->nvar; i++) {
		const char *sha = rg->commit[i].sha;
		const char *name = selector_label(&rg->var[i]);

		commits |= sha != NULL;
		commit_cols |= sha && strncmp(sha, name, strlen(name));
	}
	if (rg->nr_regressions)
		print_table(rg, CMP_REGRESSION, commit_cols, &g);
	if (rg->nr_changed) {
		printf("%schanged, direction unknown (`perfsift metrics "
		       "--set-direction GLOB=higher|lower` names it):\n",
		       rg->nr_regressions ? "\n" : "");
		print_table(rg, CMP_CHANGED, commit_cols, &g);
	}
	if (g.nr)
		printf("groups (testcase params):\n%s", g.list.buf);
	strmap_clear(&g.index);
	sbuf_release(&g.list);
	if (commits && rg->nr_regressions) {
		sbuf_addch(&seen, ' ');
		printf("commits:\n");
		regressions_each(rg, CMP_REGRESSION, subject_one, &e);
	}
	sbuf_release(&seen);
	printf("%ld regression%s", rg->nr_regressions,
	       rg->nr_regressions == 1 ? "" : "s");
	if (rg->nr_changed)
		printf(", %ld changed (direction unknown)", rg->nr_changed);
	printf(" among %zu variant%s (%s order)", rg->nvar,
	       rg->nvar == 1 ? "" : "s", rg->by_commit ? "commit" : "import");
	printf("; %ld metric comparison%s", rg->nr_tested + rg->nr_untested,
	       rg->nr_tested + rg->nr_untested == 1 ? "" : "s");
	if (rg->nr_untested)
		printf(", %ld not decidable (fewer than 2 runs a side, or "
		       "no spread)", rg->nr_untested);
	printf("\n");
}

int cmd_regressions(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct regressions_args a = { .order = RG_ORDER_AUTO };
	struct regressions rg;
	int r, status;

	compare_args_init(&a.cmp);
	argc = parse_options(argc, argv, &regressions_options, &a, 0,
			     &status);
	if (argc < 0)
		return status;
	if (argc)
		return usage_error(&regressions_options, "unexpected argument "
				   "'%s'", argv[0]);
	if (!cmd_db(ctx))
		return EXIT_ENV;
	xalloc_keep_freed();
	r = regressions_find(&ctx->db, a.base, a.order, &a.cmp.o, &rg);
	if (r) {
		regressions_release(&rg);
		return r == -2 ? EXIT_USAGE : r == -3 ? EXIT_BADINPUT :
		       EXIT_ENV;
	}
	if (a.json)
		print_json(&rg, a.cmp.o.alpha, a.cmp.o.fdr);
	else
		print_text(&rg);
	status = a.exit_code && rg.nr_regressions ? EXIT_FOUND : EXIT_OK;
	regressions_release(&rg);
	return status;
}
