/*
 * perfsift compare: variants side by side, with % change and its
 * confidence interval, p and q values, and a verdict per metric.
 */
#include "core/compat.h"
#include "output/compare-fmt.h"
#include "stats/compare.h"
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
	"the mean with its Fieller confidence interval at level 1-alpha; the",
	"p-value of the Mann-Whitney U test when both sides have enough runs",
	"for it to reach alpha, else of Welch's t-test (--test to force one);",
	"Benjamini-Hochberg q-values over every p-value of the comparison;",
	"a verdict that knows which direction is better (see 'perfsift",
	"metrics').  Imported aggregates are compared with Welch from their",
	"summaries when n is known; otherwise the source's own marker stands.",
	"",
	"    --by DIM          label, kernel, commit, machine or param:NAME",
	"                      (default: whatever each selector matches)",
	"    --testcase GLOB   only these testcases",
	"    --metric GLOB     only these metrics",
	"    --machine M       only runs on machine M",
	"    --format F        text (default), mmtests, lkp, json, csv, markdown",
	"    --json            the same as --format json",
	"    --test T          auto (default), welch or mwu",
	"    --alpha A         significance level (default 0.05)",
	"    --fdr F           bh (default): q-values; none: raw p-values",
	"    --all             every row, not only significant changes",
	"    --min-change PCT  a significant change smaller than PCT % is",
	"                      reported as unchanged (default 0)",
	NULL,
};

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
	       O_ALL };
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
		{ 0 },
	};
	struct cmp_opts o = CMP_OPTS_INIT;
	struct comparison cmp;
	struct selector *var;
	struct db *db;
	char *param = NULL;
	int c, fmt = FMT_TEXT, all = 0, status = EXIT_OK, r;
	size_t nvar, i, j;

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
		case O_TESTCASE: o.testcase_glob = optarg; break;
		case O_METRIC: o.metric_glob = optarg; break;
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
	if (compare_variants(db, var, nvar, &o, &cmp)) {
		status = EXIT_ENV;
		goto out;
	}
	if (!cmp.nr) {
		warning("no metric is shared by these variants%s",
			o.metric_glob || o.testcase_glob || o.machine ?
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
				"along it with --by param:NAME");
	}
	if (cmp_write(&cmp, fmt, all, stdout))
		status = EXIT_ENV;
	comparison_release(&cmp);
out:
	for (i = 0; i < nvar; i++)
		selector_release(&var[i]);
	free(var);
	free(param);
	return status;
}
