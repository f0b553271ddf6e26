/*
 * perfsift commits import: record the commit order of a git repository
 * (git log --topo-order, run as a subprocess) and link the variants
 * whose commit is a short sha; lib/store/commits.c does the work.
 */
#include "core/compat.h"
#include "store/commits.h"
#include "cmd.h"

struct commits_args {
	const char *repo;
};

static const char *const commits_usage[] = {
	"perfsift commits import --repo PATH [REVRANGE...]",
	NULL,
};

static const struct opt commits_opts[] = {
	OPT_STRING(0, "repo", struct commits_args, repo, "PATH",
		   "the git repository (a work tree or a bare one)"),
	OPT_END(),
};

const struct cmd_options commits_options = {
	.name = "commits",
	.usage = commits_usage,
	.description =
	"Record the commits of REVRANGE (default HEAD; any git log revision\n"
	"arguments, e.g. v6.1..v6.2) in topological order, oldest first:\n"
	"sha, parents, subject, author date.  Running it again extends the\n"
	"order: recorded commits keep their place; new ones go where git\n"
	"puts them (the order is renumbered only when they fall between\n"
	"recorded ones).  Then every variant whose commit is a short sha (4\n"
	"to 39 hex digits, as robot emails give 10) of exactly one recorded\n"
	"commit gets the full sha; a variant that then equals an existing\n"
	"one is merged into it.  'perfsift regressions' then follows this\n"
	"order.  Exit 2 when PATH is not a git repository or git refuses\n"
	"the range, 4 when git cannot be run.\n",
	.options = commits_opts,
};

static int commits_import_cmd(int argc, const char **argv,
			      struct perfsift_ctx *ctx)
{
	struct commits_args a = { NULL };
	struct commits_result res;
	struct db *db;
	int r;

	argc = parse_options(argc, argv, &commits_options, &a, 0, &r);
	if (argc < 0)
		return r;
	if (!a.repo || !*a.repo)
		return usage_error(&commits_options, "--repo PATH is needed");
	db = cmd_db(ctx);
	if (!db)
		return EXIT_ENV;
	r = commits_import(db, a.repo, argv, (size_t)argc, &res);
	if (r)
		return r == -2 ? EXIT_USAGE : EXIT_ENV;
	printf("recorded %ld commit%s (%ld new%s), linked %ld variant%s",
	       res.listed, res.listed == 1 ? "" : "s", res.added,
	       res.renumbered ? ", order renumbered" : "", res.linked,
	       res.linked == 1 ? "" : "s");
	if (res.merged)
		printf(" (%ld merged into existing ones)", res.merged);
	printf("\n");
	return EXIT_OK;
}

int cmd_commits(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	if (argc >= 2 && !strcmp(argv[1], "import"))
		return commits_import_cmd(argc - 1, argv + 1, ctx);
	if (parse_options_help(argc, argv, &commits_options))
		return EXIT_OK;
	if (argc < 2)
		return usage_error(&commits_options, "a subcommand is needed: "
				   "import");
	return usage_error(&commits_options, "unknown subcommand '%s'",
			   argv[1]);
}
