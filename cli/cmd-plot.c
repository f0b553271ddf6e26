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
#include "options.h"

struct plot_args {
	struct plot_request rq;
	struct dim_arg by;
	const char *output;
	int script;
};

/* Every string option of a chart takes one value. */
static int refuse_twice(void *args, const struct opt *o,
			const char *arg UNUSED)
{
	if (o->kind != OPT_KIND_STRING ||
	    !*(const char **)((char *)args + o->offset))
		return 0;
	if (o->short_name)
		return error("-%c given twice: a chart takes one",
			     o->short_name);
	return error("--%s given twice: a chart takes one", o->long_name);
}

static const char *const plot_usage[] = {
	"perfsift plot KIND SELECTOR... [--metric GLOB] [--testcase GLOB]\n"
	"              [--machine M] [--by DIM] [--x NAME]\n"
	"              (-o FILE | --script [-o FILE])",
	NULL,
};

#define T struct plot_args
static const struct opt plot_opts[] = {
	OPT_STRING('o', "output", T, output, "FILE",
		   ".png (1200x800), .svg, or .txt (72 columns of\n"
		   "text, for email); written only when gnuplot\n"
		   "succeeded (gnuplot from Debian's gnuplot-nox)"),
	OPT_BOOL(0, "script", T, script,
		 "print the gnuplot script, data inline, instead;\n"
		 "with -o its terminal and output are FILE's"),
	OPT_METRIC(T, rq.metric_glob, "GLOB", "the metrics to draw"),
	OPT_TESTCASE(T, rq.testcase_glob),
	OPT_MACHINE(T, rq.machine),
	OPT_BY(T, by, "what the selectors are: label, kernel, commit,\n"
	       "machine or param:NAME"),
	OPT_STRING(0, "x", T, rq.x_param, "NAME",
		   "sweep: the run parameter on the x axis"),
	OPT_STRING(0, "good", T, rq.good, "G",
		   "trend: the good end of a bisection to mark"),
	OPT_STRING(0, "bad", T, rq.bad, "B", "trend: its bad end"),
	OPT_ALPHA(T, rq.alpha, "trend: the level of each single t-test of "
		  "the\nsequence (default " OPT_STR(ALPHA_EACH_TEST) ")"),
	OPT_END(),
};
#undef T

const struct cmd_options plot_options = {
	.name = "plot",
	.usage = plot_usage,
	.description =
	"Draw a chart with gnuplot.  KIND is one of:\n"
	"  compare BASE NEW...  a panel per metric (at most 12), a bar per\n"
	"                       variant: the mean with the sample standard\n"
	"                       deviation (n-1) as error bar and each run as a\n"
	"                       point; the % change against BASE above each bar,\n"
	"                       with * and red (regression) or green\n"
	"                       (improvement) where 'perfsift compare' finds it\n"
	"                       significant\n"
	"  sweep SELECTOR...    one metric against a numeric parameter, a line\n"
	"                       per variant, mean ± sample sd over the runs; x\n"
	"                       is the run parameter --x NAME (4k, 64m: sizes in\n"
	"                       bytes), else the number that ends the metric's\n"
	"                       name (--metric 'kernbench.elsp-*': elsp-2,\n"
	"                       elsp-4, ...); a log2 axis for powers of two\n"
	"                       spanning more than 8x\n"
	"  series SELECTOR...   monitor time series (at most 4 metrics), a line\n"
	"                       per run (16 at most), seconds from each run's\n"
	"                       first sample; counters as rates per second;\n"
	"                       a zone's free pages with its min/low/high\n"
	"                       watermarks dashed.  SELECTOR may be run:ID\n"
	"  latency SELECTOR...  latency percentiles (fio.read_clat_P%_ns, the\n"
	"                       default --metric; fio.write_clat_*_ns for\n"
	"                       writes), a line per variant, mean ± sample sd\n"
	"                       over the runs, on a nines axis (90%, 99%,\n"
	"                       99.9% equally apart)\n"
	"  trend --metric M     a metric per commit in the order 'perfsift\n"
	"                       commits import' recorded (no SELECTOR), mean\n"
	"                       ± sample sd per commit, the means between its\n"
	"                       change points (see 'perfsift changepoints') as\n"
	"                       dashed lines, each change point a vertical\n"
	"                       line with its change in the legend; a panel\n"
	"                       per testcase, params and machine; with --good\n"
	"                       G --bad B [--alpha A] each commit tested\n"
	"                       between them marked as 'perfsift bisect\n"
	"                       suggest' classifies it: good, bad, unknown\n"
	"\n"
	"A SELECTOR is a label, a kernel version or a commit sha prefix, or\n"
	"with --by param:NAME a value of a run parameter; 8 at most.\n",
	.options = plot_opts,
	.hook = refuse_twice,
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
				return usage_error(&plot_options, "'%s' is one "
						   "run: only series plots "
						   "take run:ID", argv[i]);
			if (str_to_long(argv[i] + 4, &id) || id <= 0)
				return usage_error(&plot_options, "run:ID wants "
						   "a run id, got '%s'",
						   argv[i]);
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

/*
 * The request's KIND (argv[0]) and its checks, the selectors
 * argv[1..*nsel]: EXIT_OK, or EXIT_USAGE after the usage error.
 */
static int plot_check(int argc, const char **argv, struct plot_args *a,
		      size_t *nsel, enum plot_format *format)
{
	struct plot_request *rq = &a->rq;
	size_t k;

	if (argc < 1)
		return usage_error(&plot_options, "which plot? compare, sweep, "
				   "series or latency");
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		if (!strcmp(argv[0], kinds[k].name))
			break;
	if (k == ARRAY_SIZE(kinds))
		return usage_error(&plot_options, "unknown plot kind '%s': the "
				   "kinds are compare, sweep, series, latency "
				   "and trend", argv[0]);
	rq->kind = kinds[k].kind;
	if (rq->kind == PLOT_LATENCY && !rq->metric_glob)
		rq->metric_glob = "fio.read_clat_*%_ns";
	*nsel = (size_t)(argc - 1);
	if (*nsel < kinds[k].min_selectors)
		return usage_error(&plot_options, "a %s plot needs %s",
				   kinds[k].name, kinds[k].min_selectors > 1 ?
				   "BASE and at least one NEW variant" :
				   "at least one SELECTOR");
	if (*nsel > PLOT_MAX_VARIANTS)
		return usage_error(&plot_options, "%zu selectors: a chart "
				   "tells at most %d variants apart", *nsel,
				   PLOT_MAX_VARIANTS);
	if (rq->x_param && rq->kind != PLOT_SWEEP)
		return usage_error(&plot_options, "--x is for sweep plots");
	if ((rq->good || rq->bad) && rq->kind != PLOT_TREND)
		return usage_error(&plot_options, "--good and --bad are for "
				   "trend plots");
	if (!rq->good != !rq->bad)
		return usage_error(&plot_options, "--good and --bad go "
				   "together");
	if (!a->output && !a->script)
		return usage_error(&plot_options, "where to? -o FILE (.png, "
				   ".svg or .txt), or --script");
	if (a->output && plot_format_from_path(a->output, format))
		return usage_error(&plot_options, "'%s': the output's name "
				   "must end in .png, .svg or .txt", a->output);
	return EXIT_OK;
}

/* The loaded chart: its script on stdout, or gnuplot's file. */
static int plot_write(const struct plot *p, const struct plot_args *a,
		      enum plot_format format)
{
	struct plot_opts o = {
		.format = format, .output = a->output,
		.terminal = a->output != NULL,
	};
	struct sbuf sb = SBUF_INIT;

	if (!a->script)
		return plot_render(p, format, a->output) ? EXIT_ENV : EXIT_OK;
	plot_script(p, &o, &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	sbuf_release(&sb);
	return EXIT_OK;
}

/* Draw the chart of the selectors argv[0..nsel); an exit status. */
static int plot_draw(struct db *db, const char **argv, size_t nsel,
		     struct plot_args *a, enum plot_format format)
{
	struct plot_variant *var = xcalloc(nsel, sizeof(*var));
	struct selector *sel = xcalloc(nsel, sizeof(*sel));
	struct plot p;
	size_t i;
	int status;

	status = resolve(db, argv, nsel, a->rq.kind, a->rq.dim, a->rq.param,
			 var, sel);
	if (status)
		goto out;
	a->rq.var = var;
	a->rq.nr_var = nsel;
	switch (plot_load(db, &a->rq, &p)) {
	case 0:
		status = plot_write(&p, a, format);
		plot_release(&p);
		break;
	case -1: status = EXIT_USAGE; break;
	default: status = EXIT_ENV; break;
	}
out:
	for (i = 0; i < nsel; i++)
		selector_release(&sel[i]);
	free(sel);
	free(var);
	return status;
}

int cmd_plot(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct plot_args a = {
		.rq = { .dim = DIM_AUTO, .alpha = ALPHA_EACH_TEST },
		.by = DIM_ARG_INIT,
	};
	enum plot_format format = PLOT_PNG;
	size_t nsel = 0;
	int status;

	argc = parse_options(argc, argv, &plot_options, &a, 0, &status);
	if (argc < 0)
		goto out;
	a.rq.dim = a.by.dim;
	a.rq.param = a.by.param;
	status = plot_check(argc, argv, &a, &nsel, &format);
	if (status)
		goto out;
	status = EXIT_ENV;
	if (cmd_db(ctx) && !(status = cmd_output_ok(ctx, a.output)))
		status = plot_draw(&ctx->db, argv + 1, nsel, &a, format);
out:
	free(a.by.param);
	return status;
}
