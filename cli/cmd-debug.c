/*
 * perfsift debug dump: everything in the database as sorted,
 * path-independent text, for the importer golden tests
 * (tests/data/<importer>/<case>/expect).  perfsift debug mail: what the
 * mail decoder (core/mail.h) reads in a file, for the GMime comparison
 * (tests/t1400-mail-gmime.sh).
 */
#include "core/compat.h"
#include "mail/mail.h"
#include "import/importer.h"
#include "cmd.h"
#include "store/query.h"

struct debug_args {
	int lines;
	const char *test;
};

static const char *const debug_usage[] = {
	"perfsift debug dump",
	"perfsift debug mail [--lines] FILE",
	"perfsift debug mmtests-extract [--test NAME] DIR",
	NULL,
};

static const struct opt debug_opts[] = {
	OPT_BOOL(0, "lines", struct debug_args, lines,
		 "mail: each line with its number and quote depth"),
	OPT_STRING(0, "test", struct debug_args, test, "NAME",
		   "mmtests-extract: the test, not DIR's name"),
	OPT_END(),
};

const struct cmd_options debug_options = {
	.name = "debug",
	.usage = debug_usage,
	.description =
	"dump: print every import, run, parameter, sample, aggregate, text\n"
	"table and skipped row, series point and histogram bin as\n"
	"tab-separated text (paths left out), for tests.\n"
	"\n"
	"mail: print what the mail decoder reads in FILE: 'kind mbox', 'kind\n"
	"eml' or 'kind text', then per message 'message N', its headers,\n"
	"'text:', its decoded lines each after '|', and 'end' (or\n"
	"'broken').  With --lines each line is\n"
	"'LINE<TAB>QUOTE-DEPTH<TAB>|TEXT', the quote prefix stripped;\n"
	"without, the whole decoded line, as tests/mail-ref/gmime-dump\n"
	"prints it.  Exits 3 if a message is broken (the error names its\n"
	"line).\n"
	"\n"
	"mmtests-extract: run the MMTests extractor of a test on DIR\n"
	"(work/log/<run>/iter-N/<test>, or its logs/; the test is DIR's\n"
	"name unless --test) and print each value it finds as\n"
	"'OP<TAB>REP<TAB>T<TAB>VALUE<TAB>FILE:LINE' (REP 0: the iteration;\n"
	"T '-': the run's value, else an observation at T), then '# ops:'\n"
	"and the operations in MMTests' order with their direction.\n",
	.options = debug_opts,
};

/* perfsift debug mail: see debug_options. */
static int dump_mail(const char *path, int lines)
{
	struct input in;
	struct mail_reader r;
	struct mail_msg m;
	struct mail_line l;
	int rc, ret = EXIT_OK;

	if (input_open(&in, path, -1) < 0) {
		input_close(&in);
		return EXIT_BADINPUT;
	}
	mail_reader_init(&r, &in, MAIL_DETECT);
	printf("kind %s\n", r.kind == MAIL_MBOX ? "mbox" :
	       r.kind == MAIL_EML ? "eml" : "text");
	while ((rc = mail_next_message(&r, &m)) != 0) {
		printf("message %d\n", r.nr_msgs);
		if (rc < 0) {
			ret = EXIT_BADINPUT;
			puts("broken");
			continue;
		}
		if (lines)
			printf("line: %ld\n", m.first_line);
		printf("message-id: %s\nsubject: %s\nfrom: %s\ndate: %s\n"
		       "in-reply-to: %s\nreferences: %s\ntext:\n",
		       m.message_id, m.subject, m.from, m.date, m.in_reply_to,
		       m.references);
		while ((rc = mail_next_line(&r, &l)) > 0) {
			if (lines)
				printf("%ld\t%d\t|%s\n", l.lineno,
				       l.quote_depth, l.text);
			else
				printf("|%s\n", l.text - l.prefix_len);
		}
		if (rc < 0)
			ret = EXIT_BADINPUT;
		puts(rc < 0 ? "broken" : "end");
	}
	mail_reader_release(&r);
	input_close(&in);
	return ret;
}

static const char *txt(struct stmt *st, int i)
{
	const unsigned char *s = stmt_column_text(st, i);

	return s ? (const char *)s : "NULL";
}

static void num(struct stmt *st, int i)
{
	if (stmt_column_type(st, i) == SQLITE_NULL)
		fputs("NULL", stdout);
	else
		printf("%.15g", stmt_column_double(st, i));
}

/* Series points, runs numbered as above: "series k metric t value". */
static int dump_series(struct db *db)
{
	struct run_row *runs;
	struct series_row *pts;
	size_t nr_runs, nr, i, k = 0;

	if (query_runs(db, NULL, &runs, &nr_runs))
		return EXIT_ENV;
	if (query_series(db, NULL, NULL, &pts, &nr)) {
		run_rows_free(runs, nr_runs);
		return EXIT_ENV;
	}
	for (i = 0; i < nr; i++) {
		while (k < nr_runs && runs[k].id != pts[i].run_id)
			k++;
		printf("series\t%zu\t%s\t%.15g\t%.15g\n", k + 1,
		       pts[i].metric, pts[i].t, pts[i].value);
	}
	series_rows_free(pts, nr);
	/* histograms: "hist RUN METRIC VALUE COUNT" per bin */
	if (query_histograms(db, NULL, NULL, &pts, &nr)) {
		run_rows_free(runs, nr_runs);
		return EXIT_ENV;
	}
	for (i = 0; i < nr; i++) {
		for (k = 0; k < nr_runs && runs[k].id != pts[i].run_id; k++)
			;
		printf("hist\t%zu\t%s\t%.15g\t%.15g\n", k + 1,
		       pts[i].metric, pts[i].t, pts[i].value);
	}
	series_rows_free(pts, nr);
	run_rows_free(runs, nr_runs);
	return EXIT_OK;
}

/*
 * What dump prints, a query each.  Runs are numbered by order, not id,
 * so that goldens are stable; row_number() numbers them in one pass.
 */
static const char *const dump_queries[] = {
	"SELECT 'import', format, size FROM imports ORDER BY id",
	"SELECT 'run', row_number() OVER (ORDER BY r.id), r.suite,"
	" v.testcase, v.params, v.machine, v.kernel,"
	" nullif(v.commit_sha, ''), nullif(v.label, ''), r.iteration,"
	" r.start_time, r.line FROM runs r JOIN variants v ON v.id ="
	" r.variant_id ORDER BY r.id",
	"WITH n AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM"
	" runs) SELECT 'sample', n.k, m.name, m.unit, s.value,"
	" coalesce(CAST(s.line AS TEXT), 'NULL')"
	" || CASE WHEN s.derived <> 0 THEN ' derived' ELSE '' END"
	" || coalesce(' ' || src.path, '')"
	" FROM samples s JOIN n ON n.id = s.run_id JOIN metrics m ON"
	" m.id = s.metric_id LEFT JOIN sources src ON src.id ="
	" s.source_id ORDER BY s.run_id, m.name",
	"SELECT 'aggregate', nullif(v.label, ''), v.kernel,"
	" nullif(v.commit_sha, ''), v.testcase, v.params, v.machine,"
	" m.name, a.stat, a.value, a.stddev, a.stddev_kind,"
	" a.stddev_source, a.n, a.marker, a.line FROM aggregates a JOIN"
	" variants v ON v.id = a.variant_id JOIN metrics m ON m.id ="
	" a.metric_id ORDER BY a.id",
	"SELECT 'table', seq, line, kind, title, columns, rows_read,"
	" rows_skipped FROM import_tables ORDER BY import_id, seq",
	"SELECT 'skip', line, table_seq, reason, text FROM import_skips"
	" ORDER BY import_id, seq",
	"SELECT 'kind', name, CASE kind WHEN 1 THEN 'counter' WHEN 2"
	" THEN 'gauge' WHEN 3 THEN 'exact' END FROM metrics WHERE kind"
	" IS NOT NULL ORDER BY name",
};

static int dump(struct db *db)
{
	size_t q;

	for (q = 0; q < ARRAY_SIZE(dump_queries); q++) {
		struct stmt *st = db_prepare(db, dump_queries[q]);
		int i, n, rc;

		if (!st)
			return EXIT_ENV;
		n = stmt_column_count(st);
		while ((rc = stmt_step(st)) == SQLITE_ROW) {
			for (i = 0; i < n; i++) {
				if (i)
					putchar('\t');
				if (stmt_column_type(st, i) == SQLITE_FLOAT)
					num(st, i);
				else
					fputs(txt(st, i), stdout);
			}
			putchar('\n');
		}
		stmt_finalize(st);
		if (rc != SQLITE_DONE)
			return error("%s: %s", db->path, db_errmsg(db)),
			       EXIT_ENV;
	}
	return dump_series(db);
}

/* The importer that `debug FAMILY-extract` names, or NULL. */
static const struct importer *extractor(const char *cmd)
{
	const struct importer *const *imp;
	const char *dash = strrchr(cmd, '-');
	size_t i, nr, len;

	if (!dash || strcmp(dash, "-extract"))
		return NULL;
	len = (size_t)(dash - cmd);
	imp = importer_list(&nr);
	for (i = 0; i < nr; i++)
		if (imp[i]->extract && imp[i]->family &&
		    strlen(imp[i]->family) == len &&
		    !strncmp(imp[i]->family, cmd, len))
			return imp[i];
	return NULL;
}

/* debug mail and debug FAMILY-extract: argv[0] is the subcommand */
static int debug_file(int argc, const char **argv,
		      const struct importer *imp)
{
	struct debug_args a = { 0, NULL };
	const char *cmd = argv[0];
	int mail = !imp, status;

	argc = parse_options(argc, argv, &debug_options, &a, 0, &status);
	if (argc < 0)
		return status;
	if (mail && (argc != 1 || a.test))
		return usage_error(&debug_options, "expected 'debug mail "
				   "[--lines] FILE'");
	if (mail)
		return dump_mail(argv[0], a.lines);
	if (argc != 1 || a.lines)
		return usage_error(&debug_options, "expected 'debug %s "
				   "[--test NAME] DIR'", cmd);
	return imp->extract(argv[0], a.test, stdout) ? EXIT_BADINPUT :
	       EXIT_OK;
}

int cmd_debug(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	const struct importer *imp;
	struct db *db;

	if (argc >= 2 && !strcmp(argv[1], "mail"))
		return debug_file(argc - 1, argv + 1, NULL);
	if (argc >= 2 && (imp = extractor(argv[1])))
		return debug_file(argc - 1, argv + 1, imp);
	if (parse_options_help(argc, argv, &debug_options))
		return EXIT_OK;
	if (argc != 2 || strcmp(argv[1], "dump"))
		return usage_error(&debug_options, "expected 'debug dump' or "
				   "'debug mail FILE'");
	db = cmd_db(ctx);
	return db ? dump(db) : EXIT_ENV;
}
