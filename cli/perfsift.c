/*
 * perfsift: the hub.  Parses the global options (--db, --version,
 * --help), finds the command in the table, opens the database for the
 * commands that need it, and fails on a stdout write error (perf's
 * run_builtin).
 */
#include "core/compat.h"
#include "core/version.h"
#include "cmd.h"
#include "../importers/formats.h"
#include <ctype.h>
#include <jansson.h>
#include <sys/stat.h>

/*
 * A command opens the database itself (cmd_db()), after its options are
 * parsed: a usage error creates no file.
 */
struct cmd_struct {
	const char *name;
	int (*fn)(int, const char **, struct perfsift_ctx *);
	const char *help;	/* one line for `perfsift help` */
	const struct cmd_options *options;	/* its usage and help */
};

static const struct cmd_struct commands[] = {
	{ "bisect", cmd_bisect,
	  "guide a bisection: the next commit to test, and verdicts for "
	  "git bisect run", &bisect_options },
	{ "changepoints", cmd_changepoints,
	  "the change points of a metric's history, in commit order",
	  &changepoints_options },
	{ "commits", cmd_commits,
	  "record commit order from a git repository", &commits_options },
	{ "compare", cmd_compare,
	  "compare variants, with significance", &compare_options },
	{ "debug", cmd_debug,
	  "dump the database as text (for tests)", &debug_options },
	{ "import", cmd_import,
	  "import benchmark output into the database", &import_options },
	{ "metrics", cmd_metrics,
	  "list metrics, with unit, direction and run counts",
	  &metrics_options },
	{ "plot", cmd_plot,
	  "draw a chart with gnuplot: compare, sweep, series, latency, trend",
	  &plot_options },
	{ "push", cmd_push,
	  "copy the database into a server (or a file), import by import",
	  &push_options },
	{ "regressions", cmd_regressions,
	  "every significant regression in the database",
	  &regressions_options },
	{ "report", cmd_report,
	  "the comparison as a post to the list: lkp or MMTests style, "
	  "an .eml, an mbox, SMTP, or an HTML page", &report_options },
	{ "runs", cmd_runs,
	  "list runs, with variant, testcase, machine, samples",
	  &runs_options },
	{ "send", cmd_send,
	  "send .eml files written before over SMTP", &send_options },
	{ "show", cmd_show,
	  "all values of one run or variant", &show_options },
	{ "trend", cmd_trend,
	  "a metric per commit, in commit order, change points marked",
	  &trend_options },
	{ "watch", cmd_watch,
	  "change points that the runs imported since the last watch "
	  "created or moved", &watch_options },
};

/* The hub's own options, before the command's name. */
struct main_args {
	const char *db_path;
	int version;
};

static int opt_db(const struct opt *o UNUSED, const char *arg, void *db_path)
{
	/*
	 * SQLite takes "" for a private temporary database: an import there
	 * would be lost at exit.
	 */
	if (!*arg)
		return error("--db needs a path, got an empty one");
	*(const char **)db_path = arg;
	return 0;
}

static const char *const main_usage[] = {
	"perfsift [--db PATH|URL] COMMAND [OPTIONS] [ARGS]\n"
	"perfsift help [COMMAND]\n"
	"perfsift --version",
	NULL,
};

static const struct opt main_opts[] = {
	OPT_CALLBACK(0, "db", struct main_args, db_path, "PATH|URL",
		     "the database (see above)", opt_db, 0),
	OPT_BOOL(0, "version", struct main_args, version,
		 "print perfsift's version"),
	OPT_END(),
};

static void list_commands(FILE *f);

static const struct cmd_options main_options = {
	.usage = main_usage,
	.description =
	"The database is --db PATH, else $PERFSIFT_DB, else ./perfsift.db;\n"
	"it is created on first use.  A postgresql:// URL (libpq's, without\n"
	"a password: ~/.pgpass or PGPASSWORD) names a team's server instead.\n",
	.options = main_opts,
	.more_help = list_commands,
};

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

int cmd_output_ok(const struct perfsift_ctx *ctx, const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	struct stat out, st;
	size_t i;

	if (!path || db_is_server(ctx->db_path) || stat(path, &out))
		return 0;
	for (i = 0; i < ARRAY_SIZE(suffix); i++) {
		char *p = xstrfmt("%s%s", ctx->db_path, suffix[i]);
		int same = !stat(p, &st) && st.st_dev == out.st_dev &&
			   st.st_ino == out.st_ino;

		free(p);
		if (same)
			return error("%s: that is the database%s (%s): write "
				     "the output elsewhere", path,
				     *suffix[i] ? "'s journal" : "",
				     ctx->db_path), EXIT_USAGE;
	}
	return 0;
}

static const struct cmd_struct *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* After the hub's help: the commands, a line each. */
static void list_commands(FILE *f)
{
	size_t i;

	fprintf(f, "\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "   %-12s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'perfsift help COMMAND' describes one command.\n");
}

/*
 * The commands whose summary names word (a plural as its singular, as
 * in "variants"): their indexes in near[], how many.
 */
static size_t commands_about(const char *word, size_t *near)
{
	size_t i, nr = 0, len = strlen(word);
	char *stem;

	if (len > 3 && word[len - 1] == 's')
		len--;
	if (len < 3)
		return 0;
	stem = xstrndup(word, len);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		const char *h = commands[i].help, *at;

		for (at = h; (at = strcasestr(at, stem)); at++)
			if (at == h || !isalpha((unsigned char)at[-1]))
				break;
		if (at)
			near[nr++] = i;
	}
	free(stem);
	return nr;
}

/*
 * name is no command: the commands spelt like it ("did you mean
 * 'compare'?", with its usage), else those whose summary names it,
 * else the pointer to the list.  Returns EXIT_USAGE.
 */
static int unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];
	size_t near[ARRAY_SIZE(commands)], i, nr;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	nr = similar_names(name, names, ARRAY_SIZE(commands), near);
	if (nr) {
		error("'%s' is not a perfsift command", name);
		say_did_you_mean("", names, near, nr);
		if (nr == 1)
			usage_hint(commands[near[0]].options);
		else
			fputs("see 'perfsift help'\n", stderr);
		return EXIT_USAGE;
	}
	nr = commands_about(name, near);
	if (!nr) {
		error("'%s' is not a perfsift command; see 'perfsift help'",
		      name);
		return EXIT_USAGE;
	}
	error("'%s' is not a perfsift command", name);
	fprintf(stderr, "the commands about %s:", name);
	for (i = 0; i < nr; i++)
		fprintf(stderr, "%s%s", i ? ", " : " ", names[near[i]]);
	fputs("\nsee 'perfsift help COMMAND'\n", stderr);
	return EXIT_USAGE;
}

static int cmd_help(int argc, const char **argv)
{
	const struct cmd_struct *c;

	if (argc < 2) {
		options_help(&main_options, stdout, 1);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		options_help(&main_options, stdout, 0);
		return EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	options_help(c->options, stdout, 1);
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

static const char *default_db_path(void)
{
	const char *path = getenv("PERFSIFT_DB");

	return path && *path ? path : "perfsift.db";
}

int main(int argc, const char **argv)
{
	struct perfsift_ctx ctx = { 0 };
	struct main_args a = { default_db_path(), 0 };
	const struct cmd_struct *c;
	int n, status;

	importer_use(importer_table, importer_table_size);
	n = parse_options(argc, argv, &main_options, &a,
			  PARSE_OPT_STOP_AT_NON_OPTION, &status);
	if (n < 0)
		return finish_stdout(status);
	if (a.version) {
		printf("perfsift %s\n", PERFSIFT_VERSION);
		return finish_stdout(EXIT_OK);
	}
	if (!n) {
		options_help(&main_options, stderr, 1);
		return EXIT_USAGE;
	}
	if (argv[0][0] == '-') {
		error("unknown option '%s'", argv[0]);
		suggest_option(&main_options, argv[0]);
		usage_hint(&main_options);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "help"))
		return finish_stdout(cmd_help(n, argv));
	c = find_cmd(argv[0]);
	if (!c)
		return unknown_command(argv[0]);
	ctx.db_path = a.db_path;
	status = c->fn(n, argv, &ctx);
	if (ctx.db.sq || ctx.db.pg)
		db_close(&ctx.db);
	return finish_stdout(status);
}
