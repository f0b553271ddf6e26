/*
 * perfsift compare: variants side by side, with % change and its
 * confidence interval, p and q values, and a verdict per metric.
 */
#include "core/compat.h"
#include "output/compare-fmt.h"
#include "analysis/compare.h"
#include "core/strparse.h"
#include "cmd.h"
#include <getopt.h>

const char *const compare_usage[] = {
	"usage: perfsift compare BASE NEW... [OPTIONS]",
	"",
	"Compare each NEW variant with BASE, metric by metric.  A variant is",
	"a label, a kernel version or a commit sha prefix (or a value of the",
	"--by dimension).  Rows line up by testcase, params, machine and",
	"metric; with --by param:NAME, NAME is left out of the params.",
	"",
	"Statistics: mean ± sample standard deviation (n-1); the % change of",
	"the mean with its Fieller confidence interval at level 1-alpha.",
	"Rows fall into families: the metrics of one testcase/params/machine",
	"whose names share the first component (the benchmark's own fio.*;",
	"each monitor, proc-vmstat.*, meminfo.*, ... its own).  Within a",
	"family, rows that cannot be tested (one side missing, one constant",
	"on both sides) and twins (the same values as another row) do not",
	"count; each test is the Mann-Whitney U test when the run counts let",
	"it reach the level the family needs, else Welch's t-test (--test to",
	"force one); Benjamini-Hochberg q-values are computed per family.",
	"Filters choose the rows printed, not the tests: a row's answer does",
	"not depend on which others were filtered away.  Verdicts know which",
	"direction is better (see 'perfsift metrics'): a significant change",
	"is a regression or an improvement (unchanged below --min-change);",
	"otherwise unchanged only when the interval lies within",
	"±min-change, else unknown, with the runs per side that would decide",
	"the observed change.  Imported aggregates are compared with Welch",
	"from their summaries when n is known; otherwise the source's marker.",
	"",
	"    --by DIM          label, kernel, commit, machine or param:NAME",
	"                      (default: whatever each selector matches)",
	"    --testcase GLOB   only these testcases (repeatable)",
	"    --metric GLOB     only these metrics (repeatable)",
	"    --machine M       only runs on machine M",
	"    --ignore-param N  leave param N out when lining rows up",
	"                      (repeatable; '*': every param)",
	"    --format F        text (default), mmtests, lkp, json, csv, markdown",
	"    --mmtests-style V 2020 (default) or current: the MMTests version",
	"                      whose statistics, labels, widths and star rule",
	"                      --format mmtests uses for MMTests trees",
	"    --json            the same as --format json",
	"    --test T          auto (default), welch or mwu",
	"    --alpha A         significance level (default 0.05)",
	"    --fdr F           bh (default): q-values; none: raw p-values",
	"    --all             every row, not only significant changes",
	"    --min-change PCT  the smallest change that matters (default 1):",
	"                      smaller significant changes are unchanged",
	NULL,
};

void strlist_add(struct strlist *l, const char *s)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = s;
}

void strlist_release(struct strlist *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int parse_cmp_common(int c, const char *arg, struct cmp_opts *o,
		     const char *const *usage)
{
	switch (c) {
	case 'a':
		if (str_to_double(arg, &o->alpha) || !(o->alpha > 0) ||
		    !(o->alpha < 1))
			return usage_error(usage, "--alpha wants a number "
					   "between 0 and 1, got '%s'", arg);
		return 0;
	case 'm':
		if (str_to_double(arg, &o->min_change_pct) ||
		    o->min_change_pct < 0)
			return usage_error(usage, "--min-change wants a "
					   "percentage >= 0, got '%s'", arg);
		return 0;
	case 't':
		if (!strcmp(arg, "auto"))
			o->test = CMP_TEST_AUTO;
		else if (!strcmp(arg, "welch"))
			o->test = CMP_TEST_WELCH;
		else if (!strcmp(arg, "mwu"))
			o->test = CMP_TEST_MWU;
		else
			return usage_error(usage, "--test wants auto, welch or "
					   "mwu, got '%s'", arg);
		return 0;
	case 'f':
		if (!strcmp(arg, "bh"))
			o->fdr = 1;
		else if (!strcmp(arg, "none"))
			o->fdr = 0;
		else
			return usage_error(usage, "--fdr wants bh or none, got "
					   "'%s'", arg);
		return 0;
	}
	return usage_error(usage, "bad option");
}

int cmd_compare(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	enum { O_BY = 256, O_TESTCASE, O_METRIC, O_MACHINE, O_FORMAT, O_JSON,
	       O_ALL, O_IGNORE, O_MM_STYLE };
	static const struct option opts[] = {
		{ "by", required_argument, NULL, O_BY },
		{ "testcase", required_argument, NULL, O_TESTCASE },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "machine", required_argument, NULL, O_MACHINE },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "json", no_argument, NULL, O_JSON },
		{ "test", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "fdr", required_argument, NULL, 'f' },
		{ "all", no_argument, NULL, O_ALL },
		{ "min-change", required_argument, NULL, 'm' },
		{ "ignore-param", required_argument, NULL, O_IGNORE },
		{ "mmtests-style", required_argument, NULL, O_MM_STYLE },
		{ 0 },
	};
	struct cmp_opts o = CMP_OPTS_INIT;
	struct comparison cmp;
	struct selector *var;
	struct db *db;
	char *param = NULL;
	int c, fmt = FMT_TEXT, all = 0, status = EXIT_OK, r;
	size_t nvar, i, j;

	xalloc_keep_freed();
	optind = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "", opts,
				NULL)) != -1) {
		switch (c) {
		case O_BY:
			free(param);
			if (dim_parse(optarg, &o.dim, &param))
				return usage_error(compare_usage, "--by wants "
						   "label, kernel, commit, "
						   "machine or param:NAME, got "
						   "'%s'", optarg);
			break;
		case O_TESTCASE: strlist_add(&o.testcase_globs, optarg); break;
		case O_METRIC: strlist_add(&o.metric_globs, optarg); break;
		case O_IGNORE: strlist_add(&o.ignore_params, optarg); break;
		case O_MACHINE: o.machine = optarg; break;
		case O_FORMAT:
			fmt = cmp_format_parse(optarg);
			if (fmt < 0) {
				free(param);
				return usage_error(compare_usage, "unknown "
						   "format '%s'", optarg);
			}
			break;
		case O_JSON: fmt = FMT_JSON; break;
		case O_ALL: all = 1; break;
		case O_MM_STYLE:
			if (!strcmp(optarg, "2020")) {
				o.mm_style = 2020;
			} else if (!strcmp(optarg, "current")) {
				o.mm_style = 2026;
			} else {
				free(param);
				return usage_error(compare_usage, "--mmtests-"
						   "style wants 2020 or current, "
						   "got '%s'", optarg);
			}
			break;
		default:
			if (parse_cmp_common(c, optarg, &o, compare_usage)) {
				free(param);
				return EXIT_USAGE;
			}
		}
	}
	o.param = param;
	if (argc - optind < 2) {
		free(param);
		return usage_error(compare_usage, "need BASE and at least one "
				   "NEW variant");
	}
	nvar = (size_t)(argc - optind);
	db = cmd_db(ctx);
	if (!db) {
		free(param);
		return EXIT_ENV;
	}
	var = xcalloc(nvar, sizeof(*var));
	for (i = 0; i < nvar; i++) {
		r = selector_resolve(db, argv[optind + i], o.dim, param,
				     &var[i]);
		if (r) {
			status = r == -1 ? EXIT_USAGE : EXIT_ENV;
			nvar = i + 1;
			goto out;
		}
		for (j = 0; j < i; j++)
			if (var[j].dim == var[i].dim &&
			    !strcmp(var[j].value, var[i].value)) {
				error("'%s' and '%s' are the same variant",
				      var[j].text, var[i].text);
				status = EXIT_USAGE;
				nvar = i + 1;
				goto out;
			}
	}
	o.mm_pool = fmt == FMT_MMTESTS;
	if (compare_variants(db, var, nvar, &o, &cmp)) {
		status = EXIT_ENV;
		goto out;
	}
	if (!cmp.nr) {
		warning("no metric is shared by these variants%s",
			o.metric_globs.nr || o.testcase_globs.nr || o.machine ?
			" with these filters" : "");
	} else {
		size_t k, paired = 0;

		for (k = 0; k < cmp.nr && !paired; k++)
			for (j = 1; j < nvar; j++)
				paired |= cmp.rows[k].side[0].source &&
					  cmp.rows[k].side[j].source;
		if (!paired)
			warning("no row has values on both sides: the variants "
				"share no testcase, params and machine; if "
				"they differ by a run parameter, compare "
				"along it with --by param:NAME, or leave it "
				"out with --ignore-param NAME (or '*')");
	}
	if (cmp_write(&cmp, fmt, all, stdout))
		status = EXIT_ENV;
	comparison_release(&cmp);
out:
	for (i = 0; i < nvar; i++)
		selector_release(&var[i]);
	free(var);
	free(param);
	strlist_release(&o.testcase_globs);
	strlist_release(&o.metric_globs);
	strlist_release(&o.ignore_params);
	return status;
}
