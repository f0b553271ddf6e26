/*
 * Unit tests of the importer registry and the import driver, in process
 * on an in-memory database: detection scores, --format, one transaction
 * per file (a bad file leaves nothing), re-import by content hash.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "import/import.h"
#include "import/importer.h"
#include <sys/stat.h>
#include <unistd.h>
#include "test-lib.h"
#include "../../importers/formats.h"

static const char *detect(const char *path, const char *head)
{
	const struct importer *imp = importer_detect(path, head, strlen(head));

	return imp ? imp->name : "none";
}

static char tmpdir[64];

static const char *write_file(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		BUG("cannot write %s", path);
	return path;
}

static long count(struct db *db, const char *sql)
{
	struct stmt *st = db_prepare(db, sql);
	long n = -1;

	if (st && stmt_step(st) == SQLITE_ROW)
		n = stmt_column_int(st, 0);
	stmt_finalize(st);
	return n;
}

TEST(detect)
{
	check_str("csv", detect("x", "metric,value\nx,1\n"));
	check_str("csv", detect("x", "label,metric,unit,value\n"));
	check_str("csv", detect("x", "\xef\xbb\xbf# c\n\nmetric,value\n"));
	check_str("csv", detect("x.csv", "a,b\n1,2\n"));	/* says why */
	check_str("none", detect("x", "a,b\n1,2\n"));
	check_str("fio",
		  detect("x", "{\n  \"fio version\" : \"fio-3.33\",\n"));
	check_str("fio",
		  detect("x", "fio: warn\n{\n\"fio version\": \"x\"\n"));
	check_str("none", detect("x", "\x01\x02\x03garbage"));
	check_str("none", detect("x", ""));
	check(importer_find("csv") && importer_find("fio"));
	check(!importer_find("nosuch"));
}

/* mmtests-table's score of head (a plain file's first bytes). */
static int mmtests_score(const char *head)
{
	const struct importer *imp = importer_find("mmtests-table");

	return imp->detect("x", head, strlen(head));
}

TEST(detect_mmtests_table)
{
	/* as compare-kernels prints it */
	check_int(75, mmtests_score(
		"ebizzy\n"
		"                       6.1            6.1\n"
		"                   vanilla        patched\n"
		"Hmean  rsec-4    80.00 (   0.00%)    77.00 *  -3.75%*\n"));
	/* quoted in a reply, its blanks collapsed by an archive */
	check_int(75, mmtests_score(
		"On Tue, A. Developer wrote:\n"
		"> > ebizzy\n"
		"> > 3.11.0-rc3 3.11.0-rc3\n"
		"> > vanilla fairzone-v2r5\n"
		"> > Mean 1 7353.60 ( 0.00%) 6782.00 ( -7.77%)\n"));
	/* a monitor of 2013: no label, no percentages */
	check_int(75, mmtests_score(
		">                mmotm       mmotm\n"
		">               unfair     fairpcp\n"
		"> Page Ins     1401120       42656\n"));
	/* prose and lkp's rows are not tables */
	check_int(0, mmtests_score(
		"The results are below\n"
		"     12345 \xc2\xb1  2%      +5.0%      12960        "
		"will-it-scale.per_process_ops\n"));
	check_int(0, mmtests_score(
		"Function                            old     new   delta\n"
		"foo                                 100     120     +20\n"));
	check_int(0, mmtests_score(""));
}

TEST(detect_mmtests_extract)
{
	const struct importer *imp = importer_find("mmtests-extract");
	const char *table = "                       6.1            6.1\n"
		"                   vanilla        patched\n"
		"Hmean  rsec-4    80.00 (   0.00%)    77.00 *  -3.75%*\n";
	const char *alone = "   Operation  Lat\n";
	const char *four = "   Operation  Lat\nElapsed-2 0 1 301.93\n";

	/* extract-mmtests.pl's printReport */
	check_str("mmtests-extract", detect("x",
		"   Operation         Lat\n"
		"50.0th-qrtle-1   0        11.00\n"
		"75.0th-qrtle-1   0        13.00\n"));
	/* a header alone, a row of four fields, a comparison table */
	check_int(0, imp->detect("x", alone, strlen(alone)));
	check_int(0, imp->detect("x", four, strlen(four)));
	check_int(0, imp->detect("x", table, strlen(table)));
}

TEST(driver)
{
	struct import_opts o = { 0 };
	struct import_result r;
	struct sbuf errs = SBUF_INIT;
	struct db db;
	const char *p;

	if (db_open(&db, ":memory:"))
		BUG("cannot open :memory:");
	/* a good file: one transaction, counted */
	p = write_file("good.csv", "label,metric,value\nA,x,1\nA,x,2\nA,y,3\n");
	check(import_file(&db, &o, p, &r) == 0 && r.status == IMPORT_OK);
	check(r.runs == 2 && r.samples == 3);
	check_str("csv", r.format);
	check_int(3, count(&db, "SELECT count(*) FROM samples"));
	/* the same content again: nothing changes */
	check(import_file(&db, &o, p, &r) == 0 && r.status == IMPORT_ALREADY);
	check_int(1, count(&db, "SELECT count(*) FROM imports"));
	/* the same content under another name: caught by the hash */
	p = write_file("copy.csv", "label,metric,value\nA,x,1\nA,x,2\nA,y,3\n");
	check(import_file(&db, &o, p, &r) == 0 && r.status == IMPORT_ALREADY);
	check_int(2, count(&db, "SELECT count(*) FROM runs"));
	/* a file that fails at line 4: nothing of it is kept */
	p = write_file("bad.csv", "label,metric,value\nB,x,1\nB,y,2\nB,z,oops\n");
	err_capture(&errs);
	check(import_file(&db, &o, p, &r) < 0 || r.status == IMPORT_FAILED);
	err_capture(NULL);
	check(strstr(errs.buf, "bad.csv:4: expected a number in column "
			       "'value', got 'oops'") != NULL);
	sbuf_reset(&errs);
	check_int(0, count(&db, "SELECT count(*) FROM run_variants "
				"WHERE label = 'B'"));
	check_int(0, count(&db, "SELECT count(*) FROM metrics "
				"WHERE name = 'z'"));
	check_int(1, count(&db, "SELECT count(*) FROM imports"));
	/* after the rollback the metric cache must not hand out dead ids */
	p = write_file("after.csv", "label,metric,value\nC,y,5\nC,w,6\n");
	check(import_file(&db, &o, p, &r) == 0 && r.status == IMPORT_OK);
	check_int(0, count(&db, "SELECT count(*) FROM samples s LEFT JOIN "
				"metrics m ON m.id = s.metric_id "
				"WHERE m.id IS NULL"));
	/* --dry-run parses and keeps nothing */
	o.dry_run = 1;
	p = write_file("dry.csv", "label,metric,value\nD,x,1\n");
	check(import_file(&db, &o, p, &r) == 0 && r.status == IMPORT_OK);
	check(r.samples == 1);
	check_int(0, count(&db, "SELECT count(*) FROM run_variants "
				"WHERE label = 'D'"));
	o.dry_run = 0;
	/* a forced format that does not fit: an error, nothing kept */
	o.format = "fio";
	p = write_file("notfio.csv", "label,metric,value\nE,x,1\n");
	err_capture(&errs);
	check(import_file(&db, &o, p, &r) < 0 || r.status == IMPORT_FAILED);
	err_capture(NULL);
	check(errs.len > 0);
	check_int(0, count(&db, "SELECT count(*) FROM run_variants "
				"WHERE label = 'E'"));
	sbuf_release(&errs);
	db_close(&db);
}

/* A copy of a file under the test's folder (the path is static). */
static const char *copy_file(const char *name, const char *from)
{
	struct sbuf sb = SBUF_INIT;
	FILE *f = fopen(from, "r");
	char buf[4096];
	size_t n;
	const char *p;

	if (!f)
		BUG("cannot read %s (run from the top of the tree)", from);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sbuf_add(&sb, buf, n);
	fclose(f);
	p = write_file(name, sb.buf);
	sbuf_release(&sb);
	return p;
}

/* Import items one by one, as `perfsift import` does; the messages. */
static void import_all(struct db *db, struct import_opts *o,
		       struct import_item *items, size_t nr, int pipe,
		       enum import_status *status, struct sbuf *errs)
{
	size_t i;

	err_capture(errs);
	o->pipe = pipe ? import_pipe_start(db, o, items, nr) : NULL;
	check(!pipe || o->pipe);
	for (i = 0; i < nr; i++) {
		struct import_result r;

		if (import_item(db, o, &items[i], &r) < 0 &&
		    r.status == IMPORT_OK)
			r.status = IMPORT_FAILED;
		status[i] = r.status;
	}
	/* the fio files were parsed ahead: all but the CSV */
	if (pipe)
		check_int(nr - 1, (long)import_pipe_recorded(o->pipe));
	import_pipe_stop(o->pipe);
	o->pipe = NULL;
	err_capture(NULL);
}

/*
 * The pipeline (pipe.c): fio files parsed ahead on a thread, their calls
 * replayed into each file's transaction.  The same results, rows and
 * messages, in the same order, as one file after another.
 */
TEST(pipeline)
{
	static const char *const sql[] = {
		"SELECT count(*) FROM imports",
		"SELECT count(*) FROM runs",
		"SELECT count(*) FROM samples",
		"SELECT count(*) FROM metrics",
		"SELECT count(*) FROM histograms",
		"SELECT sum(value) FROM samples",
		"SELECT group_concat(sha256 || format || size, ',') FROM "
		"(SELECT * FROM imports ORDER BY id)",
		"SELECT group_concat(metric_id || ':' || line, ',') FROM "
		"(SELECT * FROM samples ORDER BY run_id, metric_id)",
	};
	static const char *const from[6][2] = {
		{ "a.json", "tests/data/fio/psync-randread/input" },
		{ "c.csv", NULL },
		{ "b.json", "tests/data/fio/randrw/input" },
		{ "bad.json", "tests/data/fio/bad-bw-string/input" },
		{ "a-again.json", "tests/data/fio/psync-randread/input" },
		{ "t.json", "tests/data/fio/nj2-nogroup/input" },
	};
	struct import_item items[6] = { { 0 } };
	enum import_status st[2][6];
	struct sbuf errs[2] = { SBUF_INIT, SBUF_INIT };
	struct import_opts o = { 0 };
	struct db db[2];
	size_t i, k;

	for (i = 0; i < 6; i++)
		items[i].path = xstrdup(from[i][1] ?
			copy_file(from[i][0], from[i][1]) :
			write_file(from[i][0], "label,metric,value\nA,x,1\n"));
	for (k = 0; k < 2; k++) {
		if (db_open(&db[k], ":memory:"))
			BUG("cannot open :memory:");
		import_all(&db[k], &o, items, 6, (int)k, st[k], &errs[k]);
	}
	check_int(IMPORT_OK, st[1][0]);
	check_int(IMPORT_OK, st[1][1]);
	check_int(IMPORT_OK, st[1][2]);
	check_int(IMPORT_FAILED, st[1][3]);
	check_int(IMPORT_ALREADY, st[1][4]);
	check_int(IMPORT_OK, st[1][5]);
	for (i = 0; i < 6; i++)
		check_int(st[0][i], st[1][i]);
	check(strstr(errs[1].buf, "bad.json:") != NULL);
	check_str(errs[0].buf, errs[1].buf);
	check_int(4, count(&db[1], sql[0]));
	for (i = 0; i < ARRAY_SIZE(sql); i++) {
		struct stmt *a = db_prepare(&db[0], sql[i]);
		struct stmt *b = db_prepare(&db[1], sql[i]);

		check(a && b && stmt_step(a) == SQLITE_ROW &&
		      stmt_step(b) == SQLITE_ROW);
		check_str((const char *)stmt_column_text(a, 0),
			  (const char *)stmt_column_text(b, 0));
		stmt_finalize(a);
		stmt_finalize(b);
	}
	for (k = 0; k < 2; k++) {
		db_close(&db[k]);
		sbuf_release(&errs[k]);
	}
	for (i = 0; i < 6; i++)
		free(items[i].path);
}

/* Rows another process sees: committed ones only (WAL). */
static long seen(const char *path, const char *sql)
{
	sqlite3 *sq;
	sqlite3_stmt *st;
	long n = -1;

	if (sqlite3_open_v2(path, &sq, SQLITE_OPEN_READONLY, NULL) ||
	    sqlite3_prepare_v2(sq, sql, -1, &st, NULL))
		BUG("cannot read %s", path);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(sq);
	return n;
}

/*
 * Batches (db_batch_start()): several results in one transaction, each
 * result still all or nothing; nothing visible before the batch commits;
 * an abort undoes them all and says how many.
 */
TEST(batch)
{
	struct import_opts o = { 0 };
	struct import_result r;
	struct sbuf errs = SBUF_INIT;
	struct db db;
	char path[128], name[32];
	int i;

	snprintf(path, sizeof(path), "%s/batch.db", tmpdir);
	if (db_open(&db, path))
		BUG("cannot open %s", path);
	err_capture(&errs);
	db_batch_start(&db, 3600 * 1000);
	check(!db_batch_open(&db) && !db_batch_due(&db));
	/* the first result begins the batch; a bad one between good ones */
	check(!import_file(&db, &o, write_file("b1.csv", "label,metric,value\n"
					       "A,x,1\n"), &r));
	check(db_batch_open(&db) && !db_batch_due(&db));
	check(import_file(&db, &o, write_file("b2.csv", "label,metric,value\n"
					      "B,x,1\nB,x,oops\n"), &r));
	check_int(IMPORT_FAILED, r.status);
	check(db_batch_open(&db));
	check(!import_file(&db, &o, write_file("b3.csv", "label,metric,value\n"
					       "C,x,3\nC,y,4\n"), &r));
	/* the same content again, inside the batch: already imported */
	check(!import_file(&db, &o, write_file("b4.csv", "label,metric,value\n"
					       "C,x,3\nC,y,4\n"), &r));
	check_int(IMPORT_ALREADY, r.status);
	check_int(3, count(&db, "SELECT count(*) FROM samples"));
	check_int(0, seen(path, "SELECT count(*) FROM samples"));
	check(!db_batch_commit(&db) && !db_batch_open(&db));
	check_int(3, seen(path, "SELECT count(*) FROM samples"));
	check_int(2, seen(path, "SELECT count(*) FROM imports"));

	/* a failed first result ends the batch it began: nothing held */
	check(import_file(&db, &o, write_file("b5.csv", "label,metric,value\n"
					      "E,x,zz\n"), &r));
	check(!db_batch_open(&db));
	check_int(0, db_batch_abort(&db));

	/* an abort undoes every result of the batch, and counts them */
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "c%d.csv", i);
		check(!import_file(&db, &o, write_file(name, i == 1 ?
				   "label,metric,value\nF,x,1\n" :
				   i ? "label,metric,value\nF,x,2\n" :
				   "label,metric,value\nF,x,0\n"), &r));
	}
	check_int(6, count(&db, "SELECT count(*) FROM samples"));
	check_int(3, db_batch_abort(&db));
	check(!db_batch_open(&db));
	check_int(3, count(&db, "SELECT count(*) FROM samples"));
	check_int(3, seen(path, "SELECT count(*) FROM samples"));

	/* a window of 1 ms: due once it has passed */
	db_batch_start(&db, 1);
	check(!import_file(&db, &o, write_file("d.csv", "label,metric,value\n"
					       "G,x,1\n"), &r));
	usleep(3000);
	check(db_batch_open(&db) && db_batch_due(&db));
	check(!db_batch_commit(&db));
	/* no batch: each result committed on its own */
	db_batch_start(&db, 0);
	check(!import_file(&db, &o, write_file("e.csv", "label,metric,value\n"
					       "H,x,1\n"), &r));
	check(!db_batch_open(&db));
	check_int(5, seen(path, "SELECT count(*) FROM samples"));
	err_capture(NULL);
	check(strstr(errs.buf, "b2.csv:3:") != NULL);
	sbuf_release(&errs);
	db_close(&db);
}

int main(void)
{
	importer_use(importer_table, importer_table_size);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/t-importers.%ld",
		 (long)getpid());
	if (mkdir(tmpdir, 0700))
		BUG("cannot make %s", tmpdir);
	test_detect();
	test_detect_mmtests_table();
	test_detect_mmtests_extract();
	test_driver();
	test_pipeline();
	test_batch();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", tmpdir);
	}
	return test_done();
}
