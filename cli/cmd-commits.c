/*
 * perfsift commits import: record the commit order of a git repository
 * (git log --topo-order, run as a subprocess) and link the variants
 * whose commit is a short sha; lib/store/commits.c does the work.
 */
#include "core/compat.h"
#include "store/commits.h"
#include "cmd.h"
#include <getopt.h>

const char *const commits_usage[] = {
	"usage: perfsift commits import --repo PATH [REVRANGE...]",
	"",
	"Record the commits of REVRANGE (default HEAD; any git log revision",
	"arguments, e.g. v6.1..v6.2) in topological order, oldest first:",
	"sha, parents, subject, author date.  Running it again extends the",
	"order: recorded commits keep their place; new ones go where git",
	"puts them (the order is renumbered only when they fall between",
	"recorded ones).  Then every variant whose commit is a short sha (4",
	"to 39 hex digits, as robot emails give 10) of exactly one recorded",
	"commit gets the full sha; a variant that then equals an existing",
	"one is merged into it.  'perfsift regressions' then follows this",
	"order.  Exit 2 when PATH is not a git repository or git refuses",
	"the range, 4 when git cannot be run.",
	"",
	"    --repo PATH     the git repository (a work tree or a bare one)",
	NULL,
};

static int commits_import_cmd(int argc, const char **argv,
			      struct perfsift_ctx *ctx)
{
	enum { O_REPO = 256 };
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, O_REPO },
		{ 0 },
	};
	struct commits_result res;
	const char *repo = NULL;
	struct db *db;
	int c, r;

	optind = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "", opts,
				NULL)) != -1) {
		switch (c) {
		case O_REPO: repo = optarg; break;
		default:
			return usage_error(commits_usage, "unknown option");
		}
	}
	if (!repo || !*repo)
		return usage_error(commits_usage, "--repo PATH is needed");
	db = cmd_db(ctx);
	if (!db)
		return EXIT_ENV;
	r = commits_import(db, repo, argv + optind, (size_t)(argc - optind),
			   &res);
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
	if (argc < 2)
		return usage_error(commits_usage, "a subcommand is needed: "
				   "import");
	if (!strcmp(argv[1], "import"))
		return commits_import_cmd(argc - 1, argv + 1, ctx);
	return usage_error(commits_usage, "unknown subcommand '%s'", argv[1]);
}
