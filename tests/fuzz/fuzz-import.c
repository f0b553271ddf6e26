/*
 * libFuzzer target for the importers: every input is imported as a file
 * with each format forced (and once detected), then cut into the members
 * of an lkp run directory that the lkp-tree importer imports, all in
 * dry-run mode into an in-memory database; then both again for real
 * into a database file (the commit path, and for the directory the
 * replacement of its earlier import), started afresh every 256 inputs.
 * Any crash, leak or undefined behaviour is a bug; errors are expected.
 *
 *   make fuzz            builds build-fuzz/fuzz-import (clang)
 *   build-fuzz/fuzz-import -max_total_time=60 CORPUS_DIR
 *
 * The run directory.  The input is cut at its first four "\n---\n" into
 * up to five parts, which become, in this order, the members
 *
 *	job.yaml  stats.json  fio.output  proc-vmstat  zoneinfo
 *
 * of <tmp>/lkp/fio-basic/p/host/rootfs/kconfig/gcc/<40 hex>/0/, where
 * <tmp> is /tmp/perfsift-fuzz-<pid>.  An empty part is a member left
 * out; a part that starts with gzip's magic is written as NAME.gz, as lkp
 * stores its monitors.  So a seed without a separator is a job.yaml,
 * "\n---\n{...}" a stats.json alone, and "\n---\n\n---\n<fio json>" the
 * fio.output of a run without stats.json, which is when lkp-tree hands it
 * to the fio importer.  The members are removed after each input and
 * <tmp> at exit; a crash leaves <tmp> behind with the files of the
 * crashing input (remove it with rm -r).
 */
#include "core/compat.h"
#include "mutate.h"
#include "core/sbuf.h"
#include "import/import.h"
#include "import/importer.h"
#include "../../importers/formats.h"
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEP "\n---\n"
#define RUN_DIR "lkp/fio-basic/p/host/rootfs/kconfig/gcc/" \
	"0123456789abcdef0123456789abcdef01234567/0"

static const char *const member_names[] = {
	"job.yaml", "stats.json", "fio.output", "proc-vmstat", "zoneinfo",
};

static struct db db;
static struct db cdb;		/* the commit path: a real file */
static char *cdb_path;		/* owned: <tmp_dir>/commit.db */
static long nr_inputs;
static char *tmp_dir;		/* owned: /tmp/perfsift-fuzz-<pid> */
static char *file_path;		/* owned: <tmp_dir>/input */
static char *run_dir;		/* owned: <tmp_dir>/RUN_DIR */

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "fuzz-import: cannot write %s: %s\n", path,
			strerror(errno));
		abort();
	}
}

/* Remove the members an input left in run_dir. */
static void remove_members(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(member_names); i++) {
		char *p = xstrfmt("%s/%s", run_dir, member_names[i]);
		char *gz = xstrfmt("%s.gz", p);

		unlink(p);
		unlink(gz);
		free(p);
		free(gz);
	}
}

static void cleanup(void)
{
	char *p, *slash;

	remove_members();
	unlink(file_path);
	if (cdb.sq)
		db_close(&cdb);
	db_remove_files(cdb_path);
	free(cdb_path);
	/* rmdir RUN_DIR level by level, deepest first, then tmp_dir */
	p = xstrdup(run_dir);
	while (strlen(p) > strlen(tmp_dir)) {
		rmdir(p);
		slash = strrchr(p, '/');
		*slash = '\0';
	}
	rmdir(tmp_dir);
	free(p);
	free(tmp_dir);
	free(file_path);
	free(run_dir);
	db_close(&db);
}

/* mkdir -p of run_dir below tmp_dir. */
static void make_run_dir(void)
{
	char *p = xstrdup(run_dir), *s = p + strlen(tmp_dir);

	while (s) {
		s = strchr(s + 1, '/');
		if (s)
			*s = '\0';
		if (mkdir(p, 0700) && errno != EEXIST) {
			fprintf(stderr, "fuzz-import: cannot make %s: %s\n",
				p, strerror(errno));
			abort();
		}
		if (s)
			*s = '/';
	}
	free(p);
}

static void setup(void)
{
	if (db_open(&db, ":memory:"))
		abort();
	tmp_dir = xstrfmt("/tmp/perfsift-fuzz-%ld", (long)getpid());
	file_path = xstrfmt("%s/input", tmp_dir);
	run_dir = xstrfmt("%s/%s", tmp_dir, RUN_DIR);
	if (mkdir(tmp_dir, 0700) && errno != EEXIST)
		abort();
	make_run_dir();
	cdb_path = xstrfmt("%s/commit.db", tmp_dir);
	atexit(cleanup);
}

/* The database of the commit path, new every 256 inputs. */
static struct db *commit_db(void)
{
	if (cdb.sq && nr_inputs % 256)
		return &cdb;
	if (cdb.sq)
		db_close(&cdb);
	db_remove_files(cdb_path);
	if (db_open(&cdb, cdb_path))
		abort();
	return &cdb;
}

/* The input as a file, with each format forced and once detected. */
static void import_as_file(const uint8_t *data, size_t size)
{
	const struct importer *const *imp;
	size_t nr, i;

	write_file(file_path, data, size);
	imp = importer_list(&nr);
	for (i = 0; i <= nr; i++) {
		struct import_opts o = { 0 };
		struct import_result r;

		o.format = i < nr ? imp[i]->name : NULL;
		o.dry_run = 1;
		import_file(&db, &o, file_path, &r);
	}
	{
		struct import_opts o = { 0 };
		struct import_result r;

		import_file(commit_db(), &o, file_path, &r);
	}
}

static const void *find_sep(const uint8_t *p, size_t n)
{
	return memmem(p, n, SEP, strlen(SEP));
}

/* The input cut into the members of an lkp run directory (see above). */
static void import_as_run_dir(const uint8_t *data, size_t size)
{
	struct import_item item = { run_dir, 0, NULL }, *items;
	struct import_opts o = { 0 };
	struct import_result r;
	const char *dir = run_dir;
	const uint8_t *p = data, *end = data + size;
	size_t i, nr_items, nr_bad;

	for (i = 0; i < ARRAY_SIZE(member_names); i++) {
		const uint8_t *sep = NULL;
		size_t n;

		if (i + 1 < ARRAY_SIZE(member_names))
			sep = find_sep(p, (size_t)(end - p));
		n = sep ? (size_t)(sep - p) : (size_t)(end - p);
		if (n) {
			int gz = n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
			char *path = xstrfmt("%s/%s%s", run_dir,
					     member_names[i], gz ? ".gz" : "");

			write_file(path, p, n);
			free(path);
		}
		if (!sep)
			break;
		p = sep + strlen(SEP);
	}
	/* detection (lkp_tree_detect_dir), which the forced import skips */
	items = import_expand(&dir, 1, &o, &nr_items, &nr_bad);
	import_items_free(items, nr_items);
	item.dir_imp = importer_find("lkp-tree");
	if (!item.dir_imp)
		abort();
	o.dry_run = 1;
	import_item(&db, &o, &item, &r);
	o.dry_run = 0;
	import_item(commit_db(), &o, &item, &r);
	remove_members();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf errors = SBUF_INIT;

	if (!db.sq) {
		importer_use(importer_table, importer_table_size);
		setup();
	}
	nr_inputs++;
	err_capture(&errors);	/* errors are expected: keep them quiet */
	err_set_quiet_warnings(1);
	import_as_file(data, size);
	import_as_run_dir(data, size);
	err_capture(NULL);
	sbuf_release(&errors);
	return 0;
}
