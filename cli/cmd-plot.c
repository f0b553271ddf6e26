/*
 * perfsift plot: a chart of variants drawn by gnuplot (plots/): bars of
 * a comparison, a sweep over a parameter, monitor series over time.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "output/plot.h"
#include "../plots/load.h"
#include "cmd.h"
#include <getopt.h>

const char *const plot_usage[] = {
	"usage: perfsift plot KIND SELECTOR... [--metric GLOB] [--testcase GLOB]",
	"                     [--machine M] [--by DIM] [--x NAME]",
	"                     (-o FILE | --script [-o FILE])",
	"",
	"Draw a chart with gnuplot.  KIND is one of:",
	"  compare BASE NEW...  a panel per metric (at most 12), a bar per",
	"                       variant: the mean with the sample standard",
	"                       deviation (n-1) as error bar and each run as a",
	"                       point; the % change against BASE above each bar,",
	"                       with * and red (regression) or green",
	"                       (improvement) where 'perfsift compare' finds it",
	"                       significant",
	"  sweep SELECTOR...    one metric against a numeric parameter, a line",
	"                       per variant, mean ± sample sd over the runs; x",
	"                       is the run parameter --x NAME (4k, 64m: sizes in",
	"                       bytes), else the number that ends the metric's",
	"                       name (--metric 'kernbench.elsp-*': elsp-2,",
	"                       elsp-4, ...); a log2 axis for powers of two",
	"                       spanning more than 8x",
	"  series SELECTOR...   monitor time series (at most 4 metrics), a line",
	"                       per run (16 at most), seconds from each run's",
	"                       first sample; counters as rates per second;",
	"                       a zone's free pages with its min/low/high",
	"                       watermarks dashed.  SELECTOR may be run:ID",
	"  latency SELECTOR...  latency percentiles (fio.read_clat_P%_ns, the",
	"                       default --metric; fio.write_clat_*_ns for",
	"                       writes), a line per variant, mean ± sample sd",
	"                       over the runs, on a nines axis (90%, 99%,",
	"                       99.9% equally apart)",
	"  trend --metric M     a metric per commit in the order 'perfsift",
	"                       commits import' recorded (no SELECTOR), mean",
	"                       ± sample sd per commit, the means between its",
	"                       change points (see 'perfsift changepoints') as",
	"                       dashed lines, each change point a vertical",
	"                       line with its change in the legend; a panel",
	"                       per testcase, params and machine; with --good",
	"                       G --bad B [--alpha A] each commit tested",
	"                       between them marked as 'perfsift bisect",
	"                       suggest' classifies it: good, bad, unknown",
	"",
	"A SELECTOR is a label, a kernel version or a commit sha prefix, or",
	"with --by param:NAME a value of a run parameter; 8 at most.",
	"",
	"    -o FILE         .png (1200x800), .svg, or .txt (80 columns of",
	"                    text, for email); written only when gnuplot",
	"                    succeeded (gnuplot from Debian's gnuplot-nox);",
	"                    also --output FILE",
	"    --script        print the gnuplot script, data inline, instead;",
	"                    with -o its terminal and output are FILE's",
	"    --metric GLOB   the metrics to draw",
	"    --testcase GLOB only runs whose testcase matches",
	"    --machine M     only runs on machine M",
	"    --by DIM        what the selectors are: label, kernel, commit,",
	"                    machine or param:NAME",
	"    --x NAME        sweep: the run parameter on the x axis",
	NULL,
};

static const struct {
	const char *name;
	enum plot_kind kind;
	size_t min_selectors;
} kinds[] = {
	{ "compare", PLOT_COMPARE, 2 },
	{ "sweep", PLOT_SWEEP, 1 },
	{ "series", PLOT_SERIES, 1 },
	{ "latency", PLOT_LATENCY, 1 },
	{ "trend", PLOT_TREND, 0 },
};

/* An option that takes one value: *v = optarg; name if it was set already. */
static const char *set_once(const char **v, const char *name)
{
	const char *dup = *v ? name : NULL;

	*v = optarg;
	return dup;
}

/* Resolve the selectors into var[]; returns an exit status. */
static int resolve(struct db *db, const char **argv, size_t n,
		   enum plot_kind kind, enum dim dim, const char *param,
		   struct plot_variant *var, struct selector *sel)
{
	size_t i;
	long id;
	int r;

	for (i = 0; i < n; i++) {
		var[i].name = argv[i];
		if (starts_with(argv[i], "run:")) {
			if (kind != PLOT_SERIES)
				return usage_error(plot_usage, "'%s' is one run: "
						   "only series plots take "
						   "run:ID", argv[i]);
			if (str_to_long(argv[i] + 4, &id) || id <= 0)
				return usage_error(plot_usage, "run:ID wants a "
						   "run id, got '%s'", argv[i]);
			var[i].run_id = id;
			continue;
		}
		r = selector_resolve(db, argv[i], dim, param, &sel[i]);
		if (r)
			return r == -1 ? EXIT_USAGE : EXIT_ENV;
		var[i].sel = &sel[i];
	}
	return EXIT_OK;
}

int cmd_plot(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	enum { O_METRIC = 256, O_TESTCASE, O_MACHINE, O_BY, O_X, O_SCRIPT,
	       O_GOOD, O_BAD, O_ALPHA };
	static const struct option opts[] = {
		{ "metric", required_argument, NULL, O_METRIC },
		{ "testcase", required_argument, NULL, O_TESTCASE },
		{ "machine", required_argument, NULL, O_MACHINE },
		{ "by", required_argument, NULL, O_BY },
		{ "x", required_argument, NULL, O_X },
		{ "script", no_argument, NULL, O_SCRIPT },
		{ "good", required_argument, NULL, O_GOOD },
		{ "bad", required_argument, NULL, O_BAD },
		{ "alpha", required_argument, NULL, O_ALPHA },
		{ "output", required_argument, NULL, 'o' },
		{ 0 },
	};
	struct plot_request rq = { .dim = DIM_AUTO, .alpha = 0.01 };
	struct plot_variant *var = NULL;
	struct selector *sel = NULL;
	struct plot p;
	enum plot_format format = PLOT_PNG;
	const char *output = NULL;
	char *param = NULL;
	const char *dup = NULL;
	int c, script = 0, status;
	size_t i, k, nsel = 0;

	optind = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "o:", opts,
				NULL)) != -1) {
		switch (c) {
		case O_METRIC: dup = set_once(&rq.metric_glob, "--metric"); break;
		case O_TESTCASE:
			dup = set_once(&rq.testcase_glob, "--testcase");
			break;
		case O_MACHINE: dup = set_once(&rq.machine, "--machine"); break;
		case O_X: dup = set_once(&rq.x_param, "--x"); break;
		case O_GOOD: dup = set_once(&rq.good, "--good"); break;
		case O_BAD: dup = set_once(&rq.bad, "--bad"); break;
		case O_ALPHA:
			if (str_to_double(optarg, &rq.alpha) ||
			    !(rq.alpha > 0 && rq.alpha < 1)) {
				free(param);
				return usage_error(plot_usage, "--alpha wants "
						   "a number in (0, 1), got "
						   "'%s'", optarg);
			}
			break;
		case 'o': dup = set_once(&output, "-o"); break;
		case O_SCRIPT: script = 1; break;
		case O_BY:
			free(param);
			if (dim_parse(optarg, &rq.dim, &param))
				return usage_error(plot_usage, "--by wants "
						   "label, kernel, commit, "
						   "machine or param:NAME, got "
						   "'%s'", optarg);
			break;
		default:
			free(param);
			return usage_error(plot_usage, "bad option");
		}
		if (dup) {
			free(param);
			return usage_error(plot_usage, "%s given twice: a chart "
					   "takes one", dup);
		}
	}
	rq.param = param;
	status = EXIT_USAGE;
	if (optind >= argc) {
		usage_error(plot_usage, "which plot? compare, sweep, series or "
			    "latency");
		goto out;
	}
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		if (!strcmp(argv[optind], kinds[k].name))
			break;
	if (k == ARRAY_SIZE(kinds)) {
		usage_error(plot_usage, "unknown plot kind '%s': the kinds are "
			    "compare, sweep, series, latency and trend",
			    argv[optind]);
		goto out;
	}
	rq.kind = kinds[k].kind;
	if (rq.kind == PLOT_LATENCY && !rq.metric_glob)
		rq.metric_glob = "fio.read_clat_*%_ns";
	nsel = (size_t)(argc - optind - 1);
	if (nsel < kinds[k].min_selectors) {
		usage_error(plot_usage, "a %s plot needs %s", kinds[k].name,
			    kinds[k].min_selectors > 1 ?
			    "BASE and at least one NEW variant" :
			    "at least one SELECTOR");
		goto out;
	}
	if (nsel > PLOT_MAX_VARIANTS) {
		usage_error(plot_usage, "%zu selectors: a chart tells at most "
			    "%d variants apart", nsel, PLOT_MAX_VARIANTS);
		goto out;
	}
	if (rq.x_param && rq.kind != PLOT_SWEEP) {
		usage_error(plot_usage, "--x is for sweep plots");
		goto out;
	}
	if ((rq.good || rq.bad) && rq.kind != PLOT_TREND) {
		usage_error(plot_usage, "--good and --bad are for trend plots");
		goto out;
	}
	if (!rq.good != !rq.bad) {
		usage_error(plot_usage, "--good and --bad go together");
		goto out;
	}
	if (!output && !script) {
		usage_error(plot_usage, "where to? -o FILE (.png, .svg or "
			    ".txt), or --script");
		goto out;
	}
	if (output && plot_format_from_path(output, &format)) {
		usage_error(plot_usage, "'%s': the output's name must end in "
			    ".png, .svg or .txt", output);
		goto out;
	}
	status = EXIT_ENV;
	if (!cmd_db(ctx))
		goto out;
	var = xcalloc(nsel, sizeof(*var));
	sel = xcalloc(nsel, sizeof(*sel));
	status = resolve(&ctx->db, argv + optind + 1, nsel, rq.kind, rq.dim,
			 param, var, sel);
	if (status)
		goto out;
	rq.var = var;
	rq.nr_var = nsel;
	switch (plot_load(&ctx->db, &rq, &p)) {
	case 0: break;
	case -1: status = EXIT_USAGE; goto out;
	default: status = EXIT_ENV; goto out;
	}
	if (script) {
		struct plot_opts o = {
			.format = format, .output = output,
			.terminal = output != NULL,
		};
		struct sbuf sb = SBUF_INIT;

		plot_script(&p, &o, &sb);
		fwrite(sb.buf, 1, sb.len, stdout);
		sbuf_release(&sb);
	} else if (plot_render(&p, format, output)) {
		status = EXIT_ENV;
	}
	plot_release(&p);
out:
	for (i = 0; sel && i < nsel; i++)
		selector_release(&sel[i]);
	free(sel);
	free(var);
	free(param);
	return status;
}
