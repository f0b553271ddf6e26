/*
 * t-faults.c - fault injection: every write, sync and truncate of one
 * import is made to fail in turn, through a shim VFS in front of SQLite's
 * own (SQLite's test VFS approach), from the Nth call on (the disk is
 * gone for good).  After each run the database is opened again normally
 * and must be intact (integrity_check ok) with the file either fully in
 * or absent, the earlier import untouched, and the failure reported as
 * an environment error (the command's exit 4), never blamed on the input.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "test-lib.h"
#include "../../importers/formats.h"
#include "import/import.h"
#include <sqlite3.h>
#include <unistd.h>

/* ---- the shim VFS ---- */

static sqlite3_vfs *real_vfs;
static long nr_calls;		/* writes, syncs, truncates so far */
static long fail_from;		/* fail from this call on; 0 = never */

struct shim_file {
	sqlite3_file base;
	sqlite3_file *real;	/* follows this struct in the same block */
};

static int fault(void)
{
	nr_calls++;
	return fail_from && nr_calls >= fail_from;
}

#define REAL(f) (((struct shim_file *)(f))->real)

static int shim_close(sqlite3_file *f)
{
	return REAL(f)->pMethods->xClose(REAL(f));
}

static int shim_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xRead(REAL(f), buf, n, off);
}

static int shim_write(sqlite3_file *f, const void *buf, int n,
		      sqlite3_int64 off)
{
	if (fault())
		return SQLITE_IOERR_WRITE;
	return REAL(f)->pMethods->xWrite(REAL(f), buf, n, off);
}

static int shim_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	if (fault())
		return SQLITE_IOERR_TRUNCATE;
	return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int shim_sync(sqlite3_file *f, int flags)
{
	if (fault())
		return SQLITE_IOERR_FSYNC;
	return REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int shim_size(sqlite3_file *f, sqlite3_int64 *size)
{
	return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int shim_lock(sqlite3_file *f, int l)
{
	return REAL(f)->pMethods->xLock(REAL(f), l);
}

static int shim_unlock(sqlite3_file *f, int l)
{
	return REAL(f)->pMethods->xUnlock(REAL(f), l);
}

static int shim_check_lock(sqlite3_file *f, int *out)
{
	return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int shim_fcntl(sqlite3_file *f, int op, void *arg)
{
	return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int shim_sector(sqlite3_file *f)
{
	return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int shim_dev(sqlite3_file *f)
{
	return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int shim_shm_map(sqlite3_file *f, int pg, int sz, int extend,
			void volatile **p)
{
	return REAL(f)->pMethods->xShmMap(REAL(f), pg, sz, extend, p);
}

static int shim_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
	return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}

static void shim_shm_barrier(sqlite3_file *f)
{
	REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int shim_shm_unmap(sqlite3_file *f, int del)
{
	return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

static int shim_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **pp)
{
	return REAL(f)->pMethods->xFetch(REAL(f), off, n, pp);
}

static int shim_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static const sqlite3_io_methods shim_methods = {
	3, shim_close, shim_read, shim_write, shim_truncate, shim_sync,
	shim_size, shim_lock, shim_unlock, shim_check_lock, shim_fcntl,
	shim_sector, shim_dev, shim_shm_map, shim_shm_lock, shim_shm_barrier,
	shim_shm_unmap, shim_fetch, shim_unfetch,
};

static int shim_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f,
		     int flags, int *out_flags)
{
	struct shim_file *sf = (struct shim_file *)f;
	int rc;

	(void)vfs;
	sf->real = (sqlite3_file *)(sf + 1);
	rc = real_vfs->xOpen(real_vfs, name, sf->real, flags, out_flags);
	/* a file the real VFS did not open has no methods to call */
	f->pMethods = sf->real->pMethods ? &shim_methods : NULL;
	return rc;
}

static int shim_delete(sqlite3_vfs *vfs, const char *name, int sync)
{
	(void)vfs;
	return real_vfs->xDelete(real_vfs, name, sync);
}

static int shim_access(sqlite3_vfs *vfs, const char *name, int flags,
		       int *out)
{
	(void)vfs;
	return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int shim_full(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	(void)vfs;
	return real_vfs->xFullPathname(real_vfs, name, n, out);
}

static sqlite3_vfs shim_vfs;

static void shim_install(void)
{
	real_vfs = sqlite3_vfs_find(NULL);
	shim_vfs = *real_vfs;
	shim_vfs.zName = "perfsift-faults";
	shim_vfs.szOsFile = (int)sizeof(struct shim_file) + real_vfs->szOsFile;
	shim_vfs.xOpen = shim_open;
	shim_vfs.xDelete = shim_delete;
	shim_vfs.xAccess = shim_access;
	shim_vfs.xFullPathname = shim_full;
	sqlite3_vfs_register(&shim_vfs, 1);
}

/* ---- the test ---- */

static char dir[64];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		BUG("cannot write %s", path);
}

static void copy_file(const char *from, const char *to)
{
	struct sbuf sb = SBUF_INIT;
	FILE *f = fopen(from, "rb");
	char buf[65536];
	size_t n;

	if (!f)
		BUG("cannot read %s", from);
	while ((n = fread(buf, 1, sizeof(buf), f)))
		sbuf_add(&sb, buf, n);
	fclose(f);
	f = fopen(to, "wb");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len || fclose(f))
		BUG("cannot write %s", to);
	sbuf_release(&sb);
}

static long count(const char *db_path, const char *sql)
{
	sqlite3 *sq;
	sqlite3_stmt *st;
	long n = -1;

	if (sqlite3_open_v2(db_path, &sq, SQLITE_OPEN_READWRITE, "unix"))
		return -1;
	if (sqlite3_prepare_v2(sq, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(sq);
	return n;
}

static int integrity_ok(const char *db_path)
{
	sqlite3 *sq;
	sqlite3_stmt *st;
	int ok = 0;

	if (sqlite3_open_v2(db_path, &sq, SQLITE_OPEN_READWRITE, "unix"))
		return 0;
	if (sqlite3_prepare_v2(sq, "PRAGMA integrity_check", -1, &st,
			       NULL) == SQLITE_OK) {
		ok = sqlite3_step(st) == SQLITE_ROW &&
		     !strcmp((const char *)sqlite3_column_text(st, 0), "ok");
		sqlite3_finalize(st);
	}
	sqlite3_close(sq);
	return ok;
}

/*
 * Import big.csv into a copy of base.db with the disk failing from the
 * Nth call on; returns 1 when the import went through without meeting
 * the fault (the last N to try).
 */
static int one_run(long n, const char *base, const char *work,
		   const char *csv, long base_runs, long *faults)
{
	struct import_opts o = { 0 };
	struct import_result r;
	struct sbuf errs = SBUF_INIT;
	struct db db;
	long runs;
	int opened, rc = -1, done;

	db_remove_files(work);
	copy_file(base, work);
	nr_calls = 0;
	fail_from = n;
	err_capture(&errs);	/* the failures are expected */
	opened = !db_open(&db, work);
	if (opened) {
		rc = import_file(&db, &o, csv, &r);
		if (rc == 0 && r.status == IMPORT_OK)
			rc = 0;
		else
			rc = -1;
	}
	done = nr_calls < n;	/* the fault was never reached */
	fail_from = 0;
	if (opened) {
		/* a failure met here is the database's: exit 4, not 3 */
		if (rc)
			check_int(1, db.env_error);
		db_close(&db);
	}
	err_capture(NULL);
	if (!done)
		(*faults)++;
	if (!check(integrity_ok(work)))
		test_msg("fault at call %ld: %s", n, errs.buf);
	runs = count(work, "SELECT count(*) FROM runs");
	/* all of the file, or none of it; the earlier import intact */
	if (rc == 0)
		check_int(base_runs + 4, runs);
	else
		check_int(base_runs, runs);
	check_int(1, count(work, "SELECT count(*) FROM runs r JOIN variants "
				 "v ON v.id = r.variant_id WHERE v.label = "
				 "'base'"));
	if (rc == 0)
		check_int(4 * 500 + 1, count(work, "SELECT count(*) FROM "
						  "samples"));
	else
		check_int(1, count(work, "SELECT count(*) FROM samples"));
	sbuf_release(&errs);
	return done;
}

/*
 * The same, three files in one batch (db_batch_start()): two small ones
 * around big.csv, committed together.  Whatever call fails, the batch is
 * aborted whole: the database as it was, integrity ok, the abort's count
 * the results the batch held.  Returns 1 when no fault was met.
 */
static int one_batch_run(long n, const char *base, const char *work,
			 const char *const csv[3], long base_runs,
			 long *faults)
{
	struct import_opts o = { 0 };
	struct import_result r;
	struct sbuf errs = SBUF_INIT;
	struct db db;
	long held = 0, lost;
	int opened, i, failed = 0, done;

	db_remove_files(work);
	copy_file(base, work);
	nr_calls = 0;
	fail_from = n;
	err_capture(&errs);
	opened = !db_open(&db, work);
	if (opened) {
		db_batch_start(&db, 3600 * 1000);
		for (i = 0; i < 3 && !failed; i++) {
			if (import_file(&db, &o, csv[i], &r) ||
			    r.status != IMPORT_OK)
				failed = 1;
			else
				held++;
		}
		if (!failed && db_batch_commit(&db))
			failed = 1;
		if (failed) {
			check_int(1, db.env_error);
			lost = db_batch_abort(&db);
			if (!check_int(held, lost))
				test_msg("fault at call %ld", n);
		}
		db_batch_start(&db, 0);
		db_close(&db);
	}
	done = nr_calls < n;
	fail_from = 0;
	err_capture(NULL);
	if (!done)
		(*faults)++;
	if (!check(integrity_ok(work)))
		test_msg("fault at call %ld: %s", n, errs.buf);
	check_int(opened && !failed ? base_runs + 6 : base_runs,
		  count(work, "SELECT count(*) FROM runs"));
	check_int(opened && !failed ? 4 * 500 + 3 : 1,
		  count(work, "SELECT count(*) FROM samples"));
	sbuf_release(&errs);
	return done;
}

TEST(every_write_fails_in_turn)
{
	char base[96], work[96], csv[96], small[96];
	struct sbuf text = SBUF_INIT;
	struct import_opts o = { 0 };
	struct import_result r;
	struct db db;
	long n, faults = 0, base_runs;
	int i, m;

	snprintf(base, sizeof(base), "%s/base.db", dir);
	snprintf(work, sizeof(work), "%s/work.db", dir);
	snprintf(csv, sizeof(csv), "%s/big.csv", dir);
	snprintf(small, sizeof(small), "%s/small.csv", dir);
	write_file(small, "label,metric,value\nbase,x_ops,1\n");
	/* 4 runs x 500 metrics: more pages than one write */
	sbuf_addstr(&text, "label,iteration,metric,value\n");
	for (i = 0; i < 4; i++)
		for (m = 0; m < 500; m++)
			sbuf_addf(&text, "new,%d,metric_number_%d,%d.5\n", i, m,
				  i * m);
	write_file(csv, text.buf);
	sbuf_release(&text);

	db_remove_files(base);
	if (!check_int(0, db_open(&db, base)))
		return;
	check_int(0, import_file(&db, &o, small, &r));
	db_close(&db);
	base_runs = count(base, "SELECT count(*) FROM runs");
	check_int(1, base_runs);

	for (n = 1; n < 5000; n++)
		if (one_run(n, base, work, csv, base_runs, &faults))
			break;
	check(n < 5000);	/* the import ends by itself */
	check(faults > 10);	/* and met a fault at every call before */
	printf("# %ld faults injected, one at each write/sync/truncate of "
	       "the import; each left the database intact\n", faults);

	/* a batch: small, big, another small, one commit */
	{
		char s1[96], s2[96];
		const char *three[3] = { s1, csv, s2 };

		snprintf(s1, sizeof(s1), "%s/s1.csv", dir);
		snprintf(s2, sizeof(s2), "%s/s2.csv", dir);
		write_file(s1, "label,metric,value\nb1,x_ops,1\n");
		write_file(s2, "label,metric,value\nb2,x_ops,2\n");
		faults = 0;
		for (n = 1; n < 5000; n++)
			if (one_batch_run(n, base, work, three, base_runs,
					  &faults))
				break;
		check(n < 5000);
		check(faults > 10);
		printf("# %ld faults injected into a batch of three files; "
		       "each aborted it whole and left the database "
		       "intact\n", faults);
		unlink(s1);
		unlink(s2);
	}
	db_remove_files(base);
	db_remove_files(work);
	unlink(csv);
	unlink(small);
}

int main(void)
{
	importer_use(importer_table, importer_table_size);
	snprintf(dir, sizeof(dir), "%s/perfsift-faults-XXXXXX",
		 getenv("TMPDIR") && strlen(getenv("TMPDIR")) < 30 ?
			 getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		BUG("mkdtemp");
	db_configure();		/* as perfsift runs SQLite */
	shim_install();
	test_every_write_fails_in_turn();
	rmdir(dir);
	return test_done();
}
