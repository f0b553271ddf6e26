/*
 * perfsift compare: variants side by side, with % change and its
 * confidence interval, p and q values, and a verdict per metric.
 */
#include "core/compat.h"
#include "output/compare-fmt.h"
#include "analysis/compare.h"
#include "cmd.h"
#include "options.h"

struct compare_cmd_args {
	struct compare_args cmp;
	int fmt;		/* enum cmp_format */
	int all;
};

/* --format F: value is an int, the enum cmp_format */
static int opt_format(const struct opt *o UNUSED, const char *arg,
		      void *fmt)
{
	*(int *)fmt = cmp_format_parse(arg);
	return *(int *)fmt < 0 ? error("unknown format '%s'", arg) : 0;
}

/* The MMTests versions of --mmtests-style (compare.h, cmp_opts.mm_style) */
static const struct opt_word mm_style_words[] = {
	{ "2020", MMTESTS_STYLE_2020 },
	{ "current", MMTESTS_STYLE_CURRENT },
	{ NULL, 0 },
};

static const char *const compare_usage[] = {
	"perfsift compare BASE NEW... [OPTIONS]",
	NULL,
};

#define T struct compare_cmd_args
static const struct opt compare_opts[] = {
	OPT_COMPARE_ROWS(T, cmp),
	OPT_CALLBACK(0, "format", T, fmt, "F",
		     "text (default), mmtests, lkp, json, csv, markdown",
		     opt_format, 0),
	OPT_ENUM("mmtests-style", T, cmp.o.mm_style, "V",
		 "2020 (default) or current: the MMTests version\n"
		 "whose statistics, labels, widths and star rule\n"
		 "--format mmtests uses for MMTests trees", mm_style_words),
	OPT_FLAG(0, "json", T, fmt, FMT_JSON, "the same as --format json"),
	OPT_BOOL(0, "all", T, all, "every row, not only significant changes"),
	OPT_COMPARE_TESTS(T, cmp.o),
	OPT_END(),
};
#undef T

const struct cmd_options compare_options = {
	.name = "compare",
	.usage = compare_usage,
	.description =
	"Compare each NEW variant with BASE, metric by metric.  A variant is\n"
	"a label, a kernel version or a commit sha prefix (or a value of the\n"
	"--by dimension).  Rows line up by testcase, params, machine and\n"
	"metric; with --by param:NAME, NAME is left out of the params.\n"
	"\n"
	"Statistics: mean ± sample standard deviation (n-1); the % change of\n"
	"the mean with its Fieller confidence interval at level 1-alpha.\n"
	"Rows fall into families: the metrics of one testcase/params/machine\n"
	"whose names share the first component (the benchmark's own fio.*;\n"
	"each monitor, proc-vmstat.*, meminfo.*, ... its own).  Within a\n"
	"family, rows that cannot be tested (one side missing, one constant\n"
	"on both sides) and twins (the same values as another row) do not\n"
	"count.  A row of positive samples in a family of 10 or more such\n"
	"rows is tested by the moderated t-test (its variance borrows from\n"
	"the family's, on the log scale); else by the Mann-Whitney U test\n"
	"when the run counts let it reach the level the family needs, else\n"
	"by Welch's t-test (--test to force one; docs/statistics.md has the\n"
	"rule).  Benjamini-Hochberg q-values are computed per family.\n"
	"Filters choose the rows printed, not the tests: a row's answer does\n"
	"not depend on which others were filtered away.  Verdicts know which\n"
	"direction is better (see 'perfsift metrics'): a significant change\n"
	"is a regression or an improvement, or 'changed' when the direction\n"
	"is not known (unchanged below --min-change);\n"
	"otherwise unchanged only when the interval lies within\n"
	"±min-change, else unknown, with the runs per side that would decide\n"
	"the observed change.  Imported aggregates are compared with Welch\n"
	"from their summaries when n is known; otherwise the source's marker.\n",
	.options = compare_opts,
};

/*
 * Resolve the selectors argv[0..nvar) into var[]: EXIT_OK, else the
 * exit status with *nvar the selectors to release.
 */
static int resolve_variants(struct db *db, const char **argv, size_t *nvar,
			    const struct cmp_opts *o, struct selector *var)
{
	size_t i, j;
	int r;

	for (i = 0; i < *nvar; i++) {
		r = selector_resolve(db, argv[i], o->dim, o->param, &var[i]);
		if (r) {
			*nvar = i + 1;
			return r == -1 ? EXIT_USAGE : EXIT_ENV;
		}
		for (j = 0; j < i; j++) {
			if (var[j].dim == var[i].dim &&
			    !strcmp(var[j].value, var[i].value)) {
				error("'%s' and '%s' are the same variant",
				      var[j].text, var[i].text);
				*nvar = i + 1;
				return EXIT_USAGE;
			}
		}
	}
	return EXIT_OK;
}

/* Say why a comparison has nothing to compare, if it has not. */
static void warn_unpaired(const struct comparison *cmp,
			  const struct cmp_opts *o, size_t nvar)
{
	size_t k, j;
	int paired = 0;

	if (!cmp->nr) {
		warning("no metric is shared by these variants%s",
			o->metric_globs.nr || o->testcase_globs.nr ||
			o->machine ? " with these filters" : "");
		return;
	}
	for (k = 0; k < cmp->nr && !paired; k++)
		for (j = 1; j < nvar; j++)
			paired |= cmp->rows[k].side[0].source &&
				  cmp->rows[k].side[j].source;
	if (!paired)
		warning("no row has values on both sides: the variants "
			"share no testcase, params and machine; if "
			"they differ by a run parameter, compare "
			"along it with --by param:NAME, or leave it "
			"out with --ignore-param NAME (or '*')");
}

/* Compare the variants argv[0..nvar) and write it; an exit status. */
static int compare_write(struct db *db, const char **argv, size_t nvar,
			 struct compare_cmd_args *a)
{
	struct selector *var = xcalloc(nvar, sizeof(*var));
	struct comparison cmp;
	int status;
	size_t i;

	status = resolve_variants(db, argv, &nvar, &a->cmp.o, var);
	if (status)
		goto out;
	a->cmp.o.mm_pool = a->fmt == FMT_MMTESTS;
	if (compare_variants(db, var, nvar, &a->cmp.o, &cmp)) {
		status = EXIT_ENV;
		goto out;
	}
	warn_unpaired(&cmp, &a->cmp.o, nvar);
	if (cmp_write(&cmp, a->fmt, a->all, stdout))
		status = EXIT_ENV;
	comparison_release(&cmp);
out:
	for (i = 0; i < nvar; i++)
		selector_release(&var[i]);
	free(var);
	return status;
}

int cmd_compare(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct compare_cmd_args a = { .fmt = FMT_TEXT };
	struct db *db;
	int status;

	xalloc_keep_freed();
	compare_args_init(&a.cmp);
	argc = parse_options(argc, argv, &compare_options, &a, 0, &status);
	if (argc < 0)
		goto out;
	compare_args_done(&a.cmp);
	status = EXIT_USAGE;
	if (argc < 2) {
		usage_error(&compare_options, "need BASE and at least one "
			    "NEW variant");
		goto out;
	}
	status = EXIT_ENV;
	db = cmd_db(ctx);
	if (db)
		status = compare_write(db, argv, (size_t)argc, &a);
out:
	compare_args_release(&a.cmp);
	return status;
}
