/*
 * The import driver (see import.h): one transaction per file, detection
 * by score, the content hash checked so a re-import changes nothing.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "import.h"
#include "importer.h"
#include <dirent.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct file_list {
	char **v;
	size_t nr, alloc;
	struct strmap seen;	/* (st_dev, st_ino) of dirs and files */
};

static void add_file(struct file_list *l, const char *path)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = xstrdup(path);
}

/* Has this inode been walked or listed already?  Marks it if not. */
static int seen_before(struct file_list *l, const struct stat *st)
{
	uint64_t key[2] = { (uint64_t)st->st_dev, (uint64_t)st->st_ino };
	int64_t v;

	if (strmap_get(&l->seen, (const char *)key, sizeof(key), &v))
		return 1;
	strmap_put(&l->seen, (const char *)key, sizeof(key), 1);
	return 0;
}

/*
 * Add the regular files under path, sorted, recursively; symlinks are
 * followed, but a directory or file reached twice (a link back up the
 * tree) is walked or listed once.  Returns the number of entries that
 * could not be read (each reported with error()).
 */
static size_t walk(struct file_list *l, const char *path, int depth)
{
	struct file_list entries = { 0 };
	struct dirent *de;
	size_t i, bad = 0;
	DIR *dir;

	if (depth > 64) {
		error("%s: directories nested too deep", path);
		return 1;
	}
	dir = opendir(path);
	if (!dir) {
		error("%s: cannot read directory: %s", path, strerror(errno));
		return 1;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		add_file(&entries, de->d_name);
	}
	closedir(dir);
	QSORT(entries.v, entries.nr, cmp_str);
	for (i = 0; i < entries.nr; i++) {
		char *sub = xstrfmt("%s/%s", path, entries.v[i]);
		struct stat st;

		if (stat(sub, &st)) {
			error("%s: cannot open: %s", sub, strerror(errno));
			bad++;
		} else if (S_ISDIR(st.st_mode)) {
			if (!seen_before(l, &st))
				bad += walk(l, sub, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			if (!seen_before(l, &st))
				add_file(l, sub);
		}
		free(sub);
		free(entries.v[i]);
	}
	free(entries.v);
	return bad;
}

char **import_expand(const char *const *paths, size_t nr, size_t *nr_files,
		     size_t *nr_bad)
{
	struct file_list l = { 0 };
	size_t i;

	*nr_bad = 0;
	for (i = 0; i < nr; i++) {
		struct stat st;

		if (!strcmp(paths[i], "-")) {
			add_file(&l, "-");
		} else if (stat(paths[i], &st)) {
			error("%s: cannot open: %s", paths[i], strerror(errno));
			(*nr_bad)++;
		} else if (S_ISDIR(st.st_mode)) {
			if (!seen_before(&l, &st))
				*nr_bad += walk(&l, paths[i], 0);
		} else {
			/* named on the command line: always imported */
			add_file(&l, paths[i]);
		}
	}
	strmap_clear(&l.seen);
	*nr_files = l.nr;
	return l.v;
}

static int already_imported(struct db *db, const char *path, int64_t size)
{
	sqlite3_stmt *st;
	char hex[65];
	int found;

	/*
	 * Hash ahead only when this path was imported before with this
	 * size (the usual re-import); any other duplicate is caught by the
	 * hash at the end of the import, which then rolls back.
	 */
	st = db_prepare(db, "SELECT 1 FROM imports WHERE path = ? AND "
			    "file_size = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, size);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	if (!found)
		return 0;
	if (input_hash_file(path, hex))
		return -1;
	st = db_prepare(db, "SELECT 1 FROM imports WHERE sha256 = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, hex, -1, SQLITE_TRANSIENT);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static void list_formats(struct sbuf *sb)
{
	size_t i, nr;
	const struct importer *imp = importer_list(&nr);

	for (i = 0; i < nr; i++)
		sbuf_addf(sb, "%s%s", i ? ", " : "", imp[i].name);
}

int import_file(struct db *db, const struct import_opts *o, const char *path,
		struct import_result *res)
{
	const struct importer *imp;
	struct import_ctx ctx;
	struct input in;
	struct stat st;
	int64_t file_size = -1;
	uint64_t size;
	char hex[65];
	int ret = -1, in_tx = 0, r;

	memset(res, 0, sizeof(*res));
	res->path = path;
	res->status = IMPORT_FAILED;
	memset(&ctx, 0, sizeof(ctx));

	if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode)) {
		file_size = (int64_t)st.st_size;
		r = already_imported(db, path, file_size);
		if (r < 0)
			return -1;
		if (r) {
			res->status = IMPORT_ALREADY;
			return 0;
		}
	}
	if (input_open(&in, path, -1))
		goto out_input;
	if (o->format) {
		imp = importer_find(o->format);
		if (!imp)
			BUG("format '%s' not checked by the caller", o->format);
	} else {
		struct sbuf sb = SBUF_INIT;

		if (!in.head_len) {
			error("%s: empty file", path);
			goto out_input;
		}
		imp = importer_detect(path, in.head, in.head_len);
		if (!imp) {
			list_formats(&sb);
			error("%s: unknown format (tried %s); use --format",
			      path, sb.buf);
			sbuf_release(&sb);
			goto out_input;
		}
	}
	res->format = imp->name;

	if (db_begin(db))
		goto out_input;
	in_tx = 1;
	if (db_import_begin(&ctx, db, path, imp->name, file_size, &o->ovr))
		goto out;
	if (imp->parse(&ctx, &in))
		goto out;
	if (input_finish(&in, hex, &size))
		goto out;
	r = db_import_set_hash(&ctx, hex, size);
	if (r < 0)
		goto out;
	if (r) {
		res->status = IMPORT_ALREADY;
		ret = 0;
		goto out;	/* rolls back */
	}
	if (!ctx.nr_runs && !ctx.nr_aggregates) {
		error("%s: no data found in this %s file", path, imp->name);
		goto out;
	}
	res->runs = ctx.nr_runs;
	res->samples = ctx.nr_samples;
	res->aggregates = ctx.nr_aggregates;
	res->series = ctx.nr_series;
	db_import_end(&ctx);
	if (o->dry_run) {
		db_rollback(db);
	} else if (db_commit(db)) {
		db_rollback(db);
		in_tx = 0;
		goto out_input;
	}
	in_tx = 0;
	res->status = IMPORT_OK;
	ret = 0;
out:
	if (in_tx) {
		db_import_end(&ctx);
		db_rollback(db);
	}
out_input:
	input_close(&in);
	return ret;
}
