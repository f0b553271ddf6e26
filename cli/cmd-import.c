/*
 * perfsift import: files, directories (recursively), "-" for stdin; each
 * result (a file, or a directory an importer claims whole) all or
 * nothing, the results of DB_BATCH_MS committed together (db.h,
 * "Batches"); one summary line per result once it is committed, and a
 * total.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "import/import.h"
#include "import/importer.h"
#include "cmd.h"
#include <unistd.h>

/* The formats, from the importer registry: `perfsift help import`. */
void import_help_formats(FILE *f)
{
	size_t i, nr;
	const struct importer *const *imp = importer_list(&nr);

	for (i = 0; i < nr; i++) {
		unsigned fl = imp[i]->flags;

		fprintf(f, "    %-*s %s\n", IMP_HELP_WIDTH, imp[i]->name,
			imp[i]->what);
		fprintf(f, "    %-*s (%s%s%s%s%s)\n", IMP_HELP_WIDTH, "",
			fl & IMP_TREES ? "a tree of several results" :
			fl & IMP_DIRS ? "a directory is one result" : "files",
			fl & IMP_SAMPLES ? "; samples" : "",
			fl & IMP_AGGREGATES ? "; aggregates" : "",
			fl & IMP_SERIES ? "; time series" : "",
			fl & IMP_VARIANTS ? "; may hold several variants" : "");
		if (imp[i]->help)
			imp[i]->help(f);
	}
}

static int quiet, progress;

/* --param k=v, repeated */
struct param_list {
	struct kv *v;		/* keys owned (xstrndup), values argv's */
	size_t nr, alloc;
};

/* The options of an import (import_opts) and what they own. */
struct import_args {
	struct import_opts o;
	struct param_list params;
	char *commit;		/* owned: --commit, lowercased */
	int quiet;
};

/* A hex sha (4..64 digits), lowercased in place as git prints it. */
static int check_commit(char *s)
{
	size_t n = strlen(s), i;

	if (n < 4 || n > 64)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] >= 'A' && s[i] <= 'F')
			s[i] = (char)(s[i] - 'A' + 'a');
		if (!strchr("0123456789abcdef", s[i]))
			return -1;
	}
	return 0;
}

/* --format F: one of the registry's, else they are listed */
static int opt_format(const struct opt *o UNUSED, const char *arg,
		      void *format)
{
	size_t n, k;
	const struct importer *const *imp;

	if (importer_find(arg)) {
		*(const char **)format = arg;
		return 0;
	}
	imp = importer_list(&n);
	error("unknown format '%s'; formats:", arg);
	for (k = 0; k < n; k++)
		fprintf(stderr, "    %s\n", imp[k]->name);
	return OPT_ERR_SAID;
}

static int opt_commit(const struct opt *o UNUSED, const char *arg,
		      void *commit)
{
	char **sha = commit;

	free(*sha);
	*sha = xstrdup(arg);
	if (check_commit(*sha))
		return error("--commit wants a hex sha, got '%s'", arg);
	return 0;
}

static int opt_param(const struct opt *o UNUSED, const char *arg,
		     void *param_list)
{
	struct param_list *l = param_list;
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return error("--param wants k=v, got '%s'", arg);
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr].key = xstrndup(arg, (size_t)(eq - arg));
	l->v[l->nr].value = eq + 1;
	l->nr++;
	return 0;
}

static const char *const import_usage[] = {
	"perfsift import [OPTIONS] PATH...",
	NULL,
};

#define T struct import_args
static const struct opt import_opts[] = {
	OPT_CALLBACK(0, "format", T, o.format, "F",
		     "do not detect: read every file as format F",
		     opt_format, 0),
	OPT_STRING(0, "kernel", T, o.ovr.kernel, "K",
		   "kernel version of the runs (overrides the file)"),
	OPT_CALLBACK(0, "commit", T, commit, "SHA", "commit of the runs",
		     opt_commit, 0),
	OPT_STRING(0, "label", T, o.ovr.label, "L",
		   "the variant's name (default: kernel, else commit)"),
	OPT_STRING(0, "machine", T, o.ovr.machine, "M",
		   "machine the runs ran on"),
	OPT_STRING(0, "testcase", T, o.ovr.testcase, "T", "testcase name"),
	OPT_CALLBACK(0, "param", T, params, "k=v",
		     "a run parameter (repeatable)", opt_param, 0),
	OPT_BOOL(0, "dry-run", T, o.dry_run, "parse and report, write nothing"),
	OPT_BOOL(0, "strict", T, o.strict,
		 "refuse a result that has any warning (a row\n"
		 "skipped, a printed change that does not follow)"),
	OPT_BOOL(0, "replace", T, o.replace,
		 "let a changed directory replace its earlier import\n"
		 "even when it has fewer samples now"),
	OPT_BOOL('q', "quiet", T, quiet,
		 "no per-file lines and no progress line"),
	OPT_END(),
};
#undef T

const struct cmd_options import_options = {
	.name = "import",
	.usage = import_usage,
	.description =
	"Import benchmark output: files, directories (recursively), '-' for\n"
	"standard input; .gz is read transparently.  The format is detected\n"
	"from the first bytes of each file.  A directory that an importer\n"
	"knows as one result (an lkp run directory) is imported as one; files\n"
	"in walked directories that no importer knows are skipped and counted.\n"
	"Each result is imported whole or not at all; content imported before\n"
	"is skipped, and a changed directory replaces its earlier import,\n"
	"unless it has fewer samples now: then the earlier one is kept and\n"
	"the result fails (--replace replaces it all the same).\n"
	"Tables in text and mail are read row by row: a row that cannot be\n"
	"read is skipped with a warning naming its line (`perfsift show`\n"
	"lists what was skipped), and the rest of the table imports.\n"
	"--label, --kernel and --commit name one variant: on an input that\n"
	"holds several (two commits, say) they are refused, as they would\n"
	"merge them; --machine, --testcase and --param name what all the\n"
	"variants share and apply to all.\n",
	.options = import_opts,
	.epilogue = "Formats (--format):\n",
	.more_help = import_help_formats,
};

/* The throw-away database of a dry run, removed at exit. */
static char dry_path[64];

static void remove_dry_run_db(void)
{
	db_remove_files(dry_path);
}

/*
 * A dry run on a database that does not exist yet parses into a
 * temporary file, not into memory: a 1 GB input must not take 1 GB.
 */
static const char *dry_run_db(void)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(dry_path, sizeof(dry_path), "%s/perfsift-dry-XXXXXX",
		 tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
	fd = mkstemp(dry_path);
	if (fd < 0)
		return ":memory:";
	close(fd);
	atexit(remove_dry_run_db);
	return dry_path;
}

static void clear_progress(void)
{
	if (progress)
		fputs("\r\033[K", stderr);
}

/*
 * A path on stdout, control characters escaped as in the diagnostics:
 * a file name with a newline must not forge a summary line.
 */
static void put_path(const struct import_result *r)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_add_escaped(&sb, r->path);
	if (r->part) {
		sbuf_addstr(&sb, " test ");
		sbuf_add_escaped(&sb, r->part);
	}
	fputs(sb.buf, stdout);
	sbuf_release(&sb);
}

static void report(const struct import_result *r, int dry_run)
{
	if (quiet || r->status == IMPORT_FAILED || r->status == IMPORT_USAGE)
		return;
	clear_progress();
	if (r->status == IMPORT_ALREADY) {
		put_path(r);
		if (r->message > 0)
			printf(" message %d", r->message);
		printf(": already imported\n");
		return;
	}
	if (r->status == IMPORT_SKIPPED) {
		put_path(r);
		if (r->message > 0)
			printf(" message %d: skipped: no table in it\n",
			       r->message);
		else if (r->skip_kind)
			printf(": skipped: not a regular file: %s\n",
			       r->skip_kind);
		else
			printf(": skipped: %s\n", r->part ? "no extractor for "
			       "this test" : "no importer knows it");
		return;
	}
	put_path(r);
	if (r->message > 0)
		printf(" message %d", r->message);
	printf(": %s, %ld run%s, %ld sample%s", r->format, r->runs,
	       r->runs == 1 ? "" : "s", r->samples,
	       r->samples == 1 ? "" : "s");
	if (r->aggregates)
		printf(", %ld aggregate%s", r->aggregates,
		       r->aggregates == 1 ? "" : "s");
	if (r->series)
		printf(", %ld series point%s", r->series,
		       r->series == 1 ? "" : "s");
	if (r->derived)
		printf(", %ld derived", r->derived);
	if (r->skipped)
		printf(", %ld file%s skipped", r->skipped,
		       r->skipped == 1 ? "" : "s");
	if (r->warnings)
		printf(", %ld warning%s", r->warnings,
		       r->warnings == 1 ? "" : "s");
	if (r->tables)
		printf("; %ld table%s: %s", r->tables, r->tables == 1 ? "" : "s",
		       r->tables_text);
	if (r->replaced)
		printf(", replaces the earlier import");
	printf("%s\n", dry_run ? " (dry run)" : "");
}

/*
 * A result said when it is committed: its line and its counts wait while
 * its batch is open (db_batch_start()), so that a line on stdout means
 * the rows are in the file.  Its path and part are the item's.
 */
struct held {
	struct import_result r;
	int dir;		/* a claimed directory */
	int file_failed;	/* not a result: a mail file failed outside
				 * its messages, counted once */
};

/* What the results of one command add up to, and what is held back. */
struct tally {
	long runs, samples, aggregates, series;
	long ok, dirs, messages, already, skipped, failed, usage;
	int dry_run;
	struct held *held;	/* the open batch's results, in order */
	size_t nr_held, alloc_held;
	/*
	 * The batch began in item first; item is the one being imported.
	 * A mail file's messages are committed as they come (on_message()),
	 * so first may be an item whose first released messages were
	 * committed and said: imported again after a failed batch
	 * (import_again()), its first skip results are not said again.
	 */
	struct db *db;
	size_t first, item, released, skip;
	size_t item_results;	/* results of this item so far */
	int item_msg_failed;	/* one of this item's messages failed */
};

static void count(struct tally *t, const struct import_result *r, int dir)
{
	switch (r->status) {
	case IMPORT_FAILED: t->failed++; break;
	case IMPORT_USAGE: t->usage++; break;
	case IMPORT_ALREADY: t->already++; break;
	case IMPORT_SKIPPED: t->skipped++; break;
	case IMPORT_OK:
		if (r->message > 0)
			t->messages++;
		else if (dir)
			t->dirs++;
		else
			t->ok++;
		t->runs += r->runs;
		t->samples += r->samples + r->derived;
		t->aggregates += r->aggregates;
		t->series += r->series;
		break;
	}
}

static void hold(struct tally *t, const struct import_result *r, int dir,
		 int file_failed)
{
	struct held *h;

	ALLOC_GROW(t->held, t->nr_held + 1, t->alloc_held);
	h = &t->held[t->nr_held++];
	h->r = *r;
	h->r.message_id = NULL;	/* borrowed from a message gone by then */
	h->dir = dir;
	h->file_failed = file_failed;
}

/* The batch is committed (or there was none): say what it holds. */
static void release_held(struct tally *t)
{
	size_t i;

	for (i = 0; i < t->nr_held; i++) {
		const struct held *h = &t->held[i];

		if (h->file_failed) {
			t->failed++;
		} else {
			count(t, &h->r, h->dir);
			report(&h->r, t->dry_run);
		}
	}
	t->nr_held = 0;
}

/*
 * Commit the batch and say what it held: 0, or -1 (env_error set, the
 * batch still to abort).  The next result held will be result done of
 * item next (0: its first).
 */
static int commit_held(struct tally *t, size_t next, size_t done)
{
	if (db_batch_commit(t->db))
		return -1;
	release_held(t);
	t->first = next;
	t->released = done;
	return 0;
}

/*
 * A message of a mail file, as the driver finishes it (no result is
 * open then).  An mbox is one item of thousands of results: they are
 * committed when the batch is due, not held to the item's end, so that
 * memory stays bounded however many messages the file holds.
 */
static void on_message(const struct import_result *r, void *data)
{
	struct tally *t = data;

	t->item_results++;
	t->item_msg_failed |= r->status == IMPORT_FAILED ||
			      r->status == IMPORT_USAGE;
	if (t->skip) {
		t->skip--;	/* committed and said before the batch broke */
		return;
	}
	hold(t, r, 0, 0);
	/* a failed commit set env_error: the driver stops the file */
	if (db_batch_due(t->db))
		commit_held(t, t->item, t->item_results);
}

/* One item, its results held: 0, or -1 after a database error. */
static int import_held(struct db *db, const struct import_opts *o,
		       const struct import_item *item, struct tally *t)
{
	struct import_result r;

	t->item_results = 0;
	t->item_msg_failed = 0;
	if (import_item(db, o, item, &r) < 0 && r.status == IMPORT_OK)
		r.status = IMPORT_FAILED;
	if (!r.messages)
		hold(t, &r, item->dir_imp != NULL, 0);
	else if ((r.status == IMPORT_FAILED || r.status == IMPORT_USAGE) &&
		 !t->item_msg_failed)
		hold(t, &r, 0, 1);	/* the file, not one of its messages */
	return db->env_error ? -1 : 0;
}

/*
 * The database failed inside a batch (a full disk): every result it held
 * of files[t->first..last] was rolled back with it.  Import them again,
 * a transaction each, as without batches: what is kept, and what is
 * said on stdout, is then what a transaction per result keeps and says
 * (the results of the first item that were committed before are found
 * imported, and not said again).  Their messages on stderr were said
 * the first time, and the error once: quiet.  Returns the index of the
 * last item tried.
 */
static size_t import_again(struct db *db, struct import_opts *o,
			   const struct import_item *files, size_t last,
			   struct tally *t)
{
	struct import_pipe *pipe = o->pipe;
	size_t i;
	int failed = 0;

	t->nr_held = 0;
	t->skip = t->released;
	db_batch_start(db, 0);
	db->env_error = 0;
	o->pipe = NULL;		/* their parses were replayed: parse again */
	err_divert(err_discard, NULL);
	for (i = t->first; i <= last && !failed; i++) {
		t->item = i;
		failed = import_held(db, o, &files[i], t);
		release_held(t);
		t->skip = 0;
	}
	err_divert(NULL, NULL);
	o->pipe = pipe;
	db->env_error = 1;
	return i - 1;
}

/*
 * How long an import may hold results uncommitted (ms):
 * $PERFSIFT_COMMIT_MS, DB_BATCH_MS when unset; 0 commits each on its own.
 */
static long commit_window(void)
{
	const char *s = getenv("PERFSIFT_COMMIT_MS");
	long ms;

	if (!s || !*s)
		return DB_BATCH_MS;
	if (str_to_long(s, &ms) || ms < 0) {
		warning("PERFSIFT_COMMIT_MS=%s is not a number of "
			"milliseconds; using %d", s, DB_BATCH_MS);
		return DB_BATCH_MS;
	}
	return ms;
}

/*
 * Import files[0..nr) a batch of results at a time, t counting them:
 * the items not tried after a database error stopped it.
 */
static long import_all(struct db *db, struct import_opts *o,
		       const struct import_item *files, size_t nr,
		       struct tally *t)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (progress) {
			fprintf(stderr, "\r\033[Kimporting %zu/%zu %s", i + 1,
				nr, files[i].path);
			fflush(stderr);
		}
		t->item = i;
		if (!import_held(db, o, &files[i], t)) {
			if (db_batch_open(db) && i + 1 < nr &&
			    !db_batch_due(db))
				continue;	/* more results for the batch */
			if (!commit_held(t, i + 1, 0))
				continue;
		}
		/* the database, not the input: stop, say so once */
		if (db_batch_abort(db))
			i = import_again(db, o, files, i, t);
		else
			release_held(t);
		return (long)(nr - i - 1);
	}
	return 0;
}

/* "imported 2 files: 4 runs, 40 samples; 1 skipped" */
static void print_total(const struct tally *t, int env_error, long nr_env)
{
	printf("%s", t->dry_run ? "would import" : "imported");
	if (t->ok || (!t->dirs && !t->messages))
		printf(" %ld file%s%s", t->ok, t->ok == 1 ? "" : "s",
		       t->dirs || t->messages ? "," : "");
	if (t->dirs)
		printf(" %ld director%s%s", t->dirs,
		       t->dirs == 1 ? "y" : "ies", t->messages ? "," : "");
	if (t->messages)
		printf(" %ld message%s", t->messages,
		       t->messages == 1 ? "" : "s");
	printf(": %ld run%s, %ld sample%s", t->runs, t->runs == 1 ? "" : "s",
	       t->samples, t->samples == 1 ? "" : "s");
	if (t->aggregates)
		printf(", %ld aggregate%s", t->aggregates,
		       t->aggregates == 1 ? "" : "s");
	if (t->series)
		printf(", %ld series point%s", t->series,
		       t->series == 1 ? "" : "s");
	if (t->already)
		printf("; %ld already imported", t->already);
	if (t->skipped)
		printf("; %ld skipped", t->skipped);
	if (t->failed + t->usage)
		printf("; %ld failed", t->failed + t->usage);
	if (env_error)
		printf("; stopped on a database error, %ld not tried", nr_env);
	putchar('\n');
}

/* Import paths[0..n) as o says; an exit status. */
static int import_paths(struct perfsift_ctx *ctx, struct import_opts *o,
			const char **paths, size_t n)
{
	struct tally t = { 0 };
	struct import_item *files;
	char *first_variant = NULL;
	size_t nr_files, nr_bad;
	struct db *db;
	long nr_env;

	/* a dry run on a database that does not exist yet: in memory */
	if (o->dry_run && access(ctx->db_path, F_OK))
		ctx->db_path = dry_run_db();
	db = cmd_db(ctx);
	if (!db)
		return EXIT_ENV;
	o->first_variant = &first_variant;
	o->db_path = ctx->db_path;
	t.dry_run = o->dry_run;
	o->on_message = on_message;
	o->on_message_data = &t;
	t.db = db;
	files = import_expand(paths, n, o, &nr_files, &nr_bad);
	progress = !quiet && nr_files > 1 && isatty(2);
	t.failed = (long)nr_bad;
	/* parse ahead of storing where an importer allows it */
	o->pipe = import_pipe_start(db, o, files, nr_files);
	/* several results a commit; a dry run commits nothing */
	db_batch_start(db, o->dry_run ? 0 : commit_window());
	nr_env = import_all(db, o, files, nr_files, &t);
	clear_progress();
	import_pipe_stop(o->pipe);
	o->pipe = NULL;
	free(t.held);
	import_items_free(files, nr_files);
	free(first_variant);
	print_total(&t, db->env_error, nr_env);
	return db->env_error ? EXIT_ENV : t.usage ? EXIT_USAGE :
	       t.failed ? EXIT_BADINPUT : EXIT_OK;
}

int cmd_import(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct import_args a = { .quiet = 0 };
	size_t i;
	int status;

	argc = parse_options(argc, argv, &import_options, &a, 0, &status);
	if (argc < 0)
		goto out;
	quiet = a.quiet;
	a.o.ovr.commit = a.commit;
	a.o.ovr.params = a.params.v;
	a.o.ovr.nr_params = a.params.nr;
	if (argc)
		status = import_paths(ctx, &a.o, argv, (size_t)argc);
	else
		status = usage_error(&import_options, "no PATH to import");
out:
	for (i = 0; i < a.params.nr; i++)
		free((char *)a.params.v[i].key);
	free(a.params.v);
	free(a.commit);
	return status;
}
