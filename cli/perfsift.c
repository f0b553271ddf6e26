/*
 * perfsift: the hub.  Parses the global options (--db, --version,
 * --help), finds the command in the table, opens the database for the
 * commands that need it, and fails on a stdout write error (perf's
 * run_builtin).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "core/version.h"
#include "cmd.h"
#include <jansson.h>

/*
 * A command opens the database itself (cmd_db()), after its options are
 * parsed: a usage error creates no file.
 */
struct cmd_struct {
	const char *name;
	int (*fn)(int, const char **, struct perfsift_ctx *);
	const char *help;	/* one line for `perfsift help` */
	const char *const *usage;
	void (*more_help)(FILE *f);	/* printed after usage; may be NULL */
};


extern const char *const bisect_usage[], *const commits_usage[],
	*const compare_usage[], *const trend_usage[],
	*const debug_usage[],
	*const import_usage[], *const regressions_usage[],
	*const metrics_usage[], *const plot_usage[], *const push_usage[],
	*const report_usage[],
	*const runs_usage[], *const send_usage[], *const show_usage[];

static const struct cmd_struct commands[] = {
	{ "bisect", cmd_bisect,
	  "guide a bisection: the next commit to test, and verdicts for "
	  "git bisect run", bisect_usage, NULL },
	{ "changepoints", cmd_changepoints,
	  "the change points of a metric's history, in commit order",
	  trend_usage, NULL },
	{ "commits", cmd_commits,
	  "record commit order from a git repository", commits_usage, NULL },
	{ "compare", cmd_compare,
	  "compare variants, with significance", compare_usage, NULL },
	{ "debug", cmd_debug,
	  "dump the database as text (for tests)", debug_usage, NULL },
	{ "import", cmd_import,
	  "import benchmark output into the database", import_usage,
	  import_help_formats },
	{ "metrics", cmd_metrics,
	  "list metrics, with unit, direction and run counts",
	  metrics_usage, NULL },
	{ "plot", cmd_plot,
	  "draw a chart with gnuplot: compare, sweep, series, latency, trend",
	  plot_usage, NULL },
	{ "push", cmd_push,
	  "copy the database into a server (or a file), import by import",
	  push_usage, NULL },
	{ "regressions", cmd_regressions,
	  "every significant regression in the database",
	  regressions_usage, NULL },
	{ "report", cmd_report,
	  "the comparison as a post to the list: lkp or MMTests style, "
	  "an .eml, an mbox, SMTP, or an HTML page", report_usage, NULL },
	{ "runs", cmd_runs,
	  "list runs, with variant, testcase, machine, samples",
	  runs_usage, NULL },
	{ "send", cmd_send,
	  "send .eml files written before over SMTP", send_usage, NULL },
	{ "show", cmd_show,
	  "all values of one run or variant", show_usage, NULL },
	{ "trend", cmd_trend,
	  "a metric per commit, in commit order, change points marked",
	  trend_usage, NULL },
};

static const char *const main_usage[] = {
	"usage: perfsift [--db PATH|URL] COMMAND [OPTIONS] [ARGS]",
	"       perfsift help [COMMAND]",
	"       perfsift --version",
	"",
	"The database is --db PATH, else $PERFSIFT_DB, else ./perfsift.db;",
	"it is created on first use.  A postgresql:// URL (libpq's, without",
	"a password: ~/.pgpass or PGPASSWORD) names a team's server instead.",
	NULL,
};

void usage_print(FILE *f, const char *const *usage)
{
	for (; *usage; usage++)
		fprintf(f, "%s\n", *usage);
}

int usage_error(const char *const *usage, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("perfsift: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_print(stderr, usage);
	return EXIT_USAGE;
}

struct json_t *json_finite(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

int print_json_steal(struct json_t *v)
{
	int r = json_dumpf(v, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					      JSON_REAL_PRECISION(15));
	json_decref(v);
	putchar('\n');
	return r ? EXIT_ENV : EXIT_OK;
}

struct db *cmd_db(struct perfsift_ctx *ctx)
{
	if (!ctx->db.sq && !ctx->db.pg && db_open(&ctx->db, ctx->db_path))
		return NULL;
	return &ctx->db;
}

static const struct cmd_struct *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void list_commands(FILE *f)
{
	size_t i;

	usage_print(f, main_usage);
	fprintf(f, "\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "   %-12s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'perfsift help COMMAND' describes one command.\n");
}

static int cmd_help(int argc, const char **argv)
{
	const struct cmd_struct *c;

	if (argc < 2) {
		list_commands(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		usage_print(stdout, main_usage);
		return EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		error("'%s' is not a perfsift command; see 'perfsift help'",
		      argv[1]);
		return EXIT_USAGE;
	}
	usage_print(stdout, c->usage);
	if (c->more_help)
		c->more_help(stdout);
	return EXIT_OK;
}

static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "perfsift: error: write to stdout failed: %s\n",
			strerror(errno));
		/* "found" (1) said nothing if the finding was not written */
		return status == EXIT_OK || status == EXIT_FOUND ? EXIT_ENV :
								    status;
	}
	return status;
}

int main(int argc, const char **argv)
{
	struct perfsift_ctx ctx = { 0 };
	const struct cmd_struct *c;
	const char *help_argv[3];
	char *cmd_argv0;
	int i, status;

	ctx.db_path = getenv("PERFSIFT_DB");
	if (!ctx.db_path || !*ctx.db_path)
		ctx.db_path = "perfsift.db";
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--db")) {
			if (i + 1 >= argc)
				return usage_error(main_usage,
						   "--db needs a path");
			ctx.db_path = argv[++i];
			if (!*ctx.db_path)
				return usage_error(main_usage, "--db needs a "
						   "path, got an empty one");
		} else if (starts_with(argv[i], "--db=")) {
			ctx.db_path = argv[i] + 5;
			/*
			 * SQLite takes "" for a private temporary database:
			 * an import there would be lost at exit.
			 */
			if (!*ctx.db_path)
				return usage_error(main_usage, "--db needs a "
						   "path, got an empty one");
		} else if (!strcmp(argv[i], "--version")) {
			printf("perfsift %s\n", PERFSIFT_VERSION);
			return finish_stdout(EXIT_OK);
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			list_commands(stdout);
			return finish_stdout(EXIT_OK);
		} else {
			return usage_error(main_usage, "unknown option '%s'",
					   argv[i]);
		}
	}
	if (i >= argc) {
		list_commands(stderr);
		return EXIT_USAGE;
	}
	argc -= i;
	argv += i;
	if (!strcmp(argv[0], "help"))
		return finish_stdout(cmd_help(argc, argv));
	/* git: "perfsift X --help" is "perfsift help X" */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help_argv[0] = "help";
			help_argv[1] = argv[0];
			help_argv[2] = NULL;
			return finish_stdout(cmd_help(2, help_argv));
		}
	}
	c = find_cmd(argv[0]);
	if (!c) {
		error("'%s' is not a perfsift command; see 'perfsift help'",
		      argv[0]);
		return EXIT_USAGE;
	}
	/* getopt's own messages then read "perfsift import: ..." */
	cmd_argv0 = xstrfmt("perfsift %s", argv[0]);
	argv[0] = cmd_argv0;
	status = c->fn(argc, argv, &ctx);
	if (ctx.db.sq || ctx.db.pg)
		db_close(&ctx.db);
	free(cmd_argv0);
	return finish_stdout(status);
}
