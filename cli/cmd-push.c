/*
 * perfsift push --to TARGET: copy the database (--db) into another, a
 * server or a SQLite file, import by import; lib/store/push.c does the
 * work.
 */
#include "core/compat.h"
#include "store/push.h"
#include "cmd.h"
#include <sys/stat.h>
#include <unistd.h>

struct push_args {
	const char *target;
};

static const char *const push_usage[] = {
	"perfsift push --to TARGET",
	NULL,
};

static const struct opt push_opts[] = {
	OPT_STRING(0, "to", struct push_args, target, "TARGET",
		   "where to copy: postgresql://... or a file"),
	OPT_END(),
};

const struct cmd_options push_options = {
	.name = "push",
	.usage = push_usage,
	.description =
	"Copy every import of the database (--db) that TARGET does not hold\n"
	"into TARGET, a postgresql:// URI or a perfsift SQLite file (made if\n"
	"absent): its runs, samples, series, histograms, aggregates, members\n"
	"and mail headers, with the variants and metrics they use (matched\n"
	"by identity and name: TARGET's ids are its own).  An import is\n"
	"recognised by its content hash, so a second push copies nothing;\n"
	"each import is one transaction, so a push cut short leaves whole\n"
	"imports only, and the next push copies the rest.  Imports still\n"
	"running (or killed) in the database are skipped.  The recorded\n"
	"commits and direction overrides TARGET lacks are copied too; a\n"
	"commit keeps its position, so after pushing commits into a TARGET\n"
	"that had some, run 'perfsift commits import' there again.\n"
	"\n"
	"Prints one line per import copied and a total.  Exit 2 when TARGET\n"
	"is missing or is the database itself, 4 when a database cannot be\n"
	"read or written.\n",
	.options = push_opts,
};

static void print_pushed(void *data UNUSED, const struct push_import *imp)
{
	printf("pushed %s", imp->path);
	if (imp->message > 0)
		printf(" message %d", imp->message);
	printf(" (%ld run%s, %ld sample%s", imp->runs,
	       imp->runs == 1 ? "" : "s", imp->samples,
	       imp->samples == 1 ? "" : "s");
	if (imp->aggregates)
		printf(", %ld aggregate%s", imp->aggregates,
		       imp->aggregates == 1 ? "" : "s");
	printf(")\n");
}

/* Do a and b name one file (b may not exist yet)? */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return 1;
	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cmd_push(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct push_result res = { .pushed = print_pushed };
	struct push_args a = { NULL };
	struct db to, *from;
	const char *target;
	int r;

	argc = parse_options(argc, argv, &push_options, &a, 0, &r);
	if (argc < 0)
		return r;
	if (argc)
		return usage_error(&push_options, "unexpected argument '%s'",
				   argv[0]);
	target = a.target;
	if (!target || !*target)
		return usage_error(&push_options, "--to TARGET is needed");
	if (same_file(ctx->db_path, target))
		return usage_error(&push_options, "'%s' is the database itself",
				   target);
	/* pushing from nothing is a mistake, not a new empty database */
	if (!db_is_server(ctx->db_path) && access(ctx->db_path, F_OK)) {
		error("%s: no such database", ctx->db_path);
		return EXIT_ENV;
	}
	from = cmd_db(ctx);
	if (!from)
		return EXIT_ENV;
	if (db_open(&to, target))
		return EXIT_ENV;
	r = db_push(from, &to, &res);
	db_close(&to);
	if (res.commits || res.directions)
		printf("pushed %ld commit%s, %ld direction override%s\n",
		       res.commits, res.commits == 1 ? "" : "s",
		       res.directions, res.directions == 1 ? "" : "s");
	if (res.commits_merged)
		warning("%s held recorded commits: the ones pushed keep this "
			"database's positions; run 'perfsift commits import' "
			"there to renumber", target);
	printf("pushed %ld import%s (%ld already there", res.imports,
	       res.imports == 1 ? "" : "s", res.already);
	if (res.pending)
		printf(", %ld unfinished skipped", res.pending);
	printf(")%s\n", r ? ", then stopped on an error" : "");
	return r ? EXIT_ENV : EXIT_OK;
}
