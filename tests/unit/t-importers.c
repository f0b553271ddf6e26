/*
 * Unit tests of the importer registry and the import driver, in process
 * on an in-memory database: detection scores, --format, one transaction
 * per file (a bad file leaves nothing), re-import by content hash.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "../../importers/import.h"
#include "../../importers/importer.h"
#include <sys/stat.h>
#include <unistd.h>
#include "test-lib.h"

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

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/t-importers.%ld",
		 (long)getpid());
	if (mkdir(tmpdir, 0700))
		BUG("cannot make %s", tmpdir);
	test_detect();
	test_driver();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", tmpdir);
	}
	return test_done();
}
