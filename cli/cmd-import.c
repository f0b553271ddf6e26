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
#include <getopt.h>
#include <unistd.h>

const char *const import_usage[] = {
	"usage: perfsift import [OPTIONS] PATH...",
	"",
	"Import benchmark output: files, directories (recursively), '-' for",
	"standard input; .gz is read transparently.  The format is detected",
	"from the first bytes of each file.  A directory that an importer",
	"knows as one result (an lkp run directory) is imported as one; files",
	"in walked directories that no importer knows are skipped and counted.",
	"Each result is imported whole or not at all; content imported before",
	"is skipped, and a changed directory replaces its earlier import.",
	"Tables in text and mail are read row by row: a row that cannot be",
	"read is skipped with a warning naming its line (`perfsift show`",
	"lists what was skipped), and the rest of the table imports.",
	"--label, --kernel and --commit name one variant: on an input that",
	"holds several (two commits, say) they are refused, as they would",
	"merge them; --machine, --testcase and --param name what all the",
	"variants share and apply to all.",
	"",
	"    --format F      do not detect: read every file as format F",
	"    --kernel K      kernel version of the runs (overrides the file)",
	"    --commit SHA    commit of the runs",
	"    --label L       the variant's name (default: kernel, else commit)",
	"    --machine M     machine the runs ran on",
	"    --testcase T    testcase name",
	"    --param k=v     a run parameter (repeatable)",
	"    --dry-run       parse and report, write nothing",
	"    --strict        refuse a result that has any warning (a row",
	"                    skipped, a printed change that does not follow)",
	"-q, --quiet         no per-file lines and no progress line",
	"",
	"Formats (--format):",
	NULL,
};

/* The formats, from the importer registry: `perfsift help import`. */
void import_help_formats(FILE *f)
{
	size_t i, nr;
	const struct importer *const *imp = importer_list(&nr);

	for (i = 0; i < nr; i++) {
		unsigned fl = imp[i]->flags;

		fprintf(f, "    %-14s %s\n", imp[i]->name, imp[i]->what);
		fprintf(f, "    %-14s (%s%s%s%s%s)\n", "",
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
 * memory stays bounded (the 1 GB mbox took 78 MiB holding them).
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

int cmd_import(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	enum { O_FORMAT = 256, O_KERNEL, O_COMMIT, O_LABEL, O_MACHINE,
	       O_TESTCASE, O_PARAM, O_DRY_RUN, O_STRICT };
	static const struct option opts[] = {
		{ "format", required_argument, NULL, O_FORMAT },
		{ "kernel", required_argument, NULL, O_KERNEL },
		{ "commit", required_argument, NULL, O_COMMIT },
		{ "label", required_argument, NULL, O_LABEL },
		{ "machine", required_argument, NULL, O_MACHINE },
		{ "testcase", required_argument, NULL, O_TESTCASE },
		{ "param", required_argument, NULL, O_PARAM },
		{ "dry-run", no_argument, NULL, O_DRY_RUN },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct import_opts o = { 0 };
	struct kv *params = NULL;
	size_t nr_params = 0, alloc_params = 0, nr_files, nr_bad, i;
	struct tally t = { 0 };
	long nr_env = 0;
	struct import_item *files;
	char *first_variant = NULL;
	struct db *db;
	int c, status;

	optind = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "q", opts,
				NULL)) != -1) {
		switch (c) {
		case O_FORMAT:
			if (!importer_find(optarg)) {
				size_t n, k;
				const struct importer *const *imp =
					importer_list(&n);

				error("unknown format '%s'; formats:", optarg);
				for (k = 0; k < n; k++)
					fprintf(stderr, "    %s\n", imp[k]->name);
				status = EXIT_USAGE;
				goto out;
			}
			o.format = optarg;
			break;
		case O_KERNEL: o.ovr.kernel = optarg; break;
		case O_COMMIT:
			if (check_commit(optarg)) {
				status = usage_error(import_usage, "--commit "
						     "wants a hex sha, got '%s'",
						     optarg);
				goto out;
			}
			o.ovr.commit = optarg;
			break;
		case O_LABEL: o.ovr.label = optarg; break;
		case O_MACHINE: o.ovr.machine = optarg; break;
		case O_TESTCASE: o.ovr.testcase = optarg; break;
		case O_PARAM: {
			const char *eq = strchr(optarg, '=');

			if (!eq || eq == optarg) {
				status = usage_error(import_usage, "--param "
						     "wants k=v, got '%s'",
						     optarg);
				goto out;
			}
			ALLOC_GROW(params, nr_params + 1, alloc_params);
			params[nr_params].key = xstrndup(optarg,
						(size_t)(eq - optarg));
			params[nr_params].value = eq + 1;
			nr_params++;
			break;
		}
		case O_DRY_RUN: o.dry_run = 1; break;
		case O_STRICT: o.strict = 1; break;
		case 'q': quiet = 1; break;
		default:
			status = usage_error(import_usage, "bad option");
			goto out;
		}
	}
	o.ovr.params = params;
	o.ovr.nr_params = nr_params;
	if (optind >= argc) {
		status = usage_error(import_usage, "no PATH to import");
		goto out;
	}

	/* a dry run on a database that does not exist yet: in memory */
	if (o.dry_run && access(ctx->db_path, F_OK))
		ctx->db_path = dry_run_db();
	db = cmd_db(ctx);
	if (!db) {
		status = EXIT_ENV;
		goto out;
	}
	o.first_variant = &first_variant;
	o.db_path = ctx->db_path;
	t.dry_run = o.dry_run;
	o.on_message = on_message;
	o.on_message_data = &t;
	t.db = db;
	files = import_expand(argv + optind, (size_t)(argc - optind), &o,
			      &nr_files, &nr_bad);
	progress = !quiet && nr_files > 1 && isatty(2);
	t.failed = (long)nr_bad;
	/* parse ahead of storing where an importer allows it */
	o.pipe = import_pipe_start(db, &o, files, nr_files);
	/* several results a commit; a dry run commits nothing */
	db_batch_start(db, o.dry_run ? 0 : commit_window());
	for (i = 0; i < nr_files; i++) {
		if (progress) {
			fprintf(stderr, "\r\033[Kimporting %zu/%zu %s", i + 1,
				nr_files, files[i].path);
			fflush(stderr);
		}
		t.item = i;
		if (!import_held(db, &o, &files[i], &t)) {
			if (db_batch_open(db) && i + 1 < nr_files &&
			    !db_batch_due(db))
				continue;	/* more results for the batch */
			if (!commit_held(&t, i + 1, 0))
				continue;
		}
		/* the database, not the input: stop, say so once */
		if (db_batch_abort(db))
			i = import_again(db, &o, files, i, &t);
		else
			release_held(&t);
		nr_env = (long)(nr_files - i - 1);
		break;
	}
	clear_progress();
	import_pipe_stop(o.pipe);
	o.pipe = NULL;
	free(t.held);
	import_items_free(files, nr_files);
	free(first_variant);
	printf("%s", o.dry_run ? "would import" : "imported");
	if (t.ok || (!t.dirs && !t.messages))
		printf(" %ld file%s%s", t.ok, t.ok == 1 ? "" : "s",
		       t.dirs || t.messages ? "," : "");
	if (t.dirs)
		printf(" %ld director%s%s", t.dirs, t.dirs == 1 ? "y" : "ies",
		       t.messages ? "," : "");
	if (t.messages)
		printf(" %ld message%s", t.messages,
		       t.messages == 1 ? "" : "s");
	printf(": %ld run%s, %ld sample%s", t.runs, t.runs == 1 ? "" : "s",
	       t.samples, t.samples == 1 ? "" : "s");
	if (t.aggregates)
		printf(", %ld aggregate%s", t.aggregates,
		       t.aggregates == 1 ? "" : "s");
	if (t.series)
		printf(", %ld series point%s", t.series,
		       t.series == 1 ? "" : "s");
	if (t.already)
		printf("; %ld already imported", t.already);
	if (t.skipped)
		printf("; %ld skipped", t.skipped);
	if (t.failed + t.usage)
		printf("; %ld failed", t.failed + t.usage);
	if (db->env_error)
		printf("; stopped on a database error, %ld not tried", nr_env);
	putchar('\n');
	status = db->env_error ? EXIT_ENV : t.usage ? EXIT_USAGE :
		 t.failed ? EXIT_BADINPUT : EXIT_OK;
out:
	for (i = 0; i < nr_params; i++)
		free((char *)params[i].key);
	free(params);
	return status;
}
