/*
 * The import driver (see import.h): one transaction per result (a file,
 * or a directory an importer claims whole), detection by score, the
 * content hash checked so a re-import changes nothing, and members handed
 * from directory importers to the others (import_nested()).  The walk
 * is walk.c's, texts and mail text.c's, a result's end result.c's.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/sha256.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "store/emitlog.h"
#include "store/values.h"
#include "import/driver.h"
#include <sys/stat.h>

/* ---- one result ---- */

static int already_imported(struct db *db, const char *path, int64_t size)
{
	char hex[65];
	int found;

	/*
	 * Hash ahead only when this path was imported before with this
	 * size (the usual re-import); any other duplicate is caught by the
	 * hash at the end of the import, which then rolls back.
	 */
	found = db_imported_path(db, path, size);
	if (found <= 0)
		return found;
	if (input_hash_file(path, hex))
		return -1;
	return db_imported_hash(db, hex);
}

static void list_formats(struct sbuf *sb)
{
	size_t i, nr;
	const struct importer *const *imp = importer_list(&nr);

	for (i = 0; i < nr; i++)
		if (imp[i]->flags & IMP_FILES)
			sbuf_addf(sb, "%s%s", sb->len ? ", " : "",
				  imp[i]->name);
}

static int parse_file(struct import_ctx *ctx, const struct importer *imp,
		      struct input *in)
{
	return imp->parse ? imp->parse(ctx, in) : import_text_file(ctx, in, imp);
}

/* How a file's calls reach the database: parsed now, or replayed. */
struct file_source {
	struct input *in;		/* parsed now: the open file */
	struct import_pipe *pipe;	/* or replayed from this entry */
	struct pipe_entry *entry;
};

/* Parse or replay into ctx, then the content's hash: 0 or -1. */
static int file_calls(struct import_ctx *ctx, const struct importer *imp,
		      const struct file_source *src, char hex[65],
		      uint64_t *size)
{
	char *buf;
	size_t len;
	int ret = 0;

	if (src->in) {
		if (parse_file(ctx, imp, src->in))
			return -1;
		return input_finish(src->in, hex, size);
	}
	/* each chunk as it comes; after a failed call, only read */
	while (import_pipe_next(src->pipe, src->entry, &buf, &len)) {
		if (!ret && db_replay(ctx, buf, len))
			ret = -1;
		free(buf);
	}
	if (ret)
		return -1;
	return import_pipe_result(src->entry, hex, size);
}

/*
 * A file's own transaction: the import row, the importer's calls, the
 * hash (a duplicate of an earlier import is rolled back), the commit.
 */
static int store_file(struct db *db, const struct import_opts *o,
		      const char *path, const struct importer *imp,
		      int64_t file_size, const struct file_source *src,
		      struct import_result *res)
{
	struct import_ctx ctx;
	uint64_t size;
	char hex[65], *first = NULL;
	int ret = -1, r;

	memset(&ctx, 0, sizeof(ctx));
	res->format = imp->name;
	if (db_begin(db))
		return -1;
	if (db_import_begin(&ctx, db, path, imp->name, file_size, 0, &o->ovr))
		goto fail;
	ctx.first_variant = o->first_variant ? o->first_variant : &first;
	ctx.strict = o->strict;
	if (file_calls(&ctx, imp, src, hex, &size))
		goto fail;
	r = db_import_set_hash(&ctx, hex, size);
	if (r < 0)
		goto fail;
	if (r) {
		res->status = IMPORT_ALREADY;
		ret = 0;
		goto fail;	/* rolls back */
	}
	ret = import_finish(db, o, &ctx, "file", -1, res);
	free(first);
	return ret;
fail:
	if (ctx.usage_error)
		res->status = IMPORT_USAGE;
	db_import_end(&ctx);
	db_rollback(db);
	free(first);
	return ret;
}

/* A file the pipeline recorded: replayed, and then let go of. */
static int import_recorded(struct db *db, const struct import_opts *o,
			   const char *path, struct pipe_entry *e,
			   struct import_result *res)
{
	struct file_source src = { NULL, o->pipe, e };
	int64_t file_size;
	const struct importer *imp = import_pipe_importer(e, &file_size);
	char *buf;
	size_t len;
	/*
	 * Not imported before by path and size, nor named before in this
	 * command (import_pipe_start() left those to import_one_file()):
	 * import_one_file()'s first check would find nothing
	 */
	int ret = store_file(db, o, path, imp, file_size, &src, res);

	/* what was not replayed (the transaction did not begin) */
	while (import_pipe_next(o->pipe, e, &buf, &len))
		free(buf);
	return ret;
}

/*
 * A text named on the command line that no parser found a table in
 * (imp: the importer detection chose, or NULL): said, failed; -1.
 */
static int no_table(const struct import_opts *o, const char *path,
		    const struct importer *imp, struct import_result *res)
{
	struct sbuf sb = SBUF_INIT;

	if (o->format) {
		error("%s: no table in it that %s reads", path, o->format);
	} else {
		list_formats(&sb);
		error("%s: %s (tried %s); use --format", path,
		      imp ? "no table perfsift reads in it" : "unknown format",
		      sb.buf);
		sbuf_release(&sb);
	}
	res->status = IMPORT_FAILED;
	return -1;
}

/*
 * A file no importer takes: skipped if a walk found it (0), else said
 * (-1): --format reads directories, the file is empty, or unknown.
 */
static int no_importer(const struct import_opts *o, const char *path,
		       int walked, size_t head_len, struct import_result *res)
{
	struct sbuf sb = SBUF_INIT;

	if (o->format) {
		if (!importer_find(o->format))
			BUG("format '%s' not checked by the caller", o->format);
		error("%s: format '%s' reads directories, not files", path,
		      o->format);
	} else if (walked) {
		res->status = IMPORT_SKIPPED;	/* empty or unknown */
		return 0;
	} else if (!head_len) {
		error("%s: empty file", path);
	} else {
		list_formats(&sb);
		error("%s: unknown format (tried %s); use --format", path,
		      sb.buf);
		sbuf_release(&sb);
	}
	return -1;
}

static int import_one_file(struct db *db, const struct import_opts *o,
			   const char *path, int walked,
			   struct import_result *res)
{
	const struct importer *imp;
	struct file_source src = { NULL, NULL, NULL };
	struct input in;
	struct stat st;
	int64_t file_size = -1;
	int ret = -1, r;

	/* what a walk found that is no file: never opened (a FIFO blocks) */
	if (walked && !stat(path, &st) && !S_ISREG(st.st_mode)) {
		res->status = IMPORT_SKIPPED;
		res->skip_kind = member_kind(st.st_mode);
		return 0;
	}
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
	if (!o->format || importer_find(o->format)->text_new) {
		int kind = mail_detect(in.head, in.head_len);

		if (kind != MAIL_NONE) {
			ret = import_mail(db, o, path, &in, kind, res);
			if (res->status == IMPORT_SKIPPED && !walked) {
				error("%s: no message holds a table perfsift "
				      "reads", path);
				res->status = IMPORT_FAILED;
				ret = -1;
			}
			goto out_input;
		}
	}
	/* mail went its way above: NULL says why next */
	imp = importer_pick(o->format, path, in.head, in.head_len);
	if ((imp && (imp->flags & IMP_TEXT)) ||
	    (!imp && !o->format && looks_like_text(in.head, in.head_len))) {
		/* a text: every text parser (or --format's) reads it */
		ret = import_text(db, o, path, &in, res);
		if (res->status == IMPORT_SKIPPED && !walked)
			ret = no_table(o, path, imp, res);
		goto out_input;
	}
	if (!imp) {
		ret = no_importer(o, path, walked, in.head_len, res);
		goto out_input;
	}
	src.in = &in;
	ret = store_file(db, o, path, imp, file_size, &src, res);
out_input:
	input_close(&in);
	return ret;
}

/* The driver's state of a directory result, behind ctx->driver. */
struct dir_state {
	const struct member *m;	/* borrowed: the member list */
	size_t nr;
	char (*hex)[65];	/* owned: content hash per member, "" = not yet */
	unsigned char *read;	/* owned: 1 = a parser read the member */
};

/* The hash of a directory result: of its members' names and contents. */
static int dir_hash(struct dir_state *ds, char out[65])
{
	struct sha256 h;
	size_t i;

	sha256_init(&h);
	for (i = 0; i < ds->nr; i++) {
		if (!ds->hex[i][0] &&
		    input_hash_file(ds->m[i].path, ds->hex[i]))
			return -1;
		sha256_update(&h, ds->m[i].name, strlen(ds->m[i].name) + 1);
		sha256_update(&h, ds->hex[i], 64);
	}
	sha256_final_hex(&h, out);
	return 0;
}

/*
 * The latest earlier import of this directory: 1 with *id and its hash
 * in old_hex, 0 if none, -1 on error.
 */
static int earlier_dir_import(struct db *db, const char *path, int64_t *id,
			      char old_hex[65])
{
	struct stmt *st = db_prepare(db, "SELECT id, sha256 FROM imports "
					  "WHERE path = ? AND is_dir <> 0 ORDER BY "
					  "id DESC LIMIT 1");
	int rc;

	if (!st)
		return -1;
	stmt_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
	rc = stmt_step(st);
	if (rc == SQLITE_ROW) {
		*id = stmt_column_int64(st, 0);
		snprintf(old_hex, 65, "%s", stmt_column_text(st, 1));
	}
	stmt_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return error("%s: %s", db->path, db_errmsg(db));
	return rc == SQLITE_ROW;
}

/* The samples of an import's runs, derived ones too: >= 0, or -1. */
static long import_samples(struct db *db, int64_t id)
{
	struct stmt *st = db_prepare(db, "SELECT count(*) FROM samples "
					  "WHERE run_id IN (SELECT id FROM "
					  "runs WHERE import_id = ?)");
	long n = -1;
	int rc;

	if (!st)
		return -1;
	stmt_bind_int64(st, 1, id);
	rc = stmt_step(st);
	if (rc == SQLITE_ROW)
		n = (long)stmt_column_int64(st, 0);
	stmt_finalize(st);
	if (rc != SQLITE_ROW)
		error("%s: %s", db->path, db_errmsg(db));
	return n;
}

/*
 * The path a directory result is stored under, so that a re-import from
 * elsewhere finds it: its real path, a part of a tree's as
 * "<dir>#<part>".  NULL after error().
 */
static char *dir_key(const char *dir, const char *part)
{
	char *real = realpath(dir, NULL), *t;

	if (!real) {
		error("%s: %s", dir, strerror(errno));
		return NULL;
	}
	if (!part)
		return real;
	t = xstrfmt("%s#%s", real, part);
	free(real);
	return t;
}

/* ds over the members of l; returns their bytes on disk. */
static int64_t dir_state_init(struct dir_state *ds,
			      const struct member_list *l)
{
	int64_t total = 0;
	size_t i;

	ds->m = l->m;
	ds->nr = l->nr;
	ds->hex = xcalloc(l->nr ? l->nr : 1, sizeof(*ds->hex));
	ds->read = xcalloc(l->nr ? l->nr : 1, 1);
	for (i = 0; i < l->nr; i++)
		total += l->m[i].size;
	return total;
}

/*
 * A directory imported before is hashed first: unchanged, it is decided
 * without parsing (1); changed, it replaces its earlier import, whose id
 * *old_id gets (its runs only).  A new one is hashed as its members are
 * read (import_nested(), import_close_member()), the rest at the end:
 * each file read once.  0, 1, or -1 after error().
 */
static int dir_unchanged(struct db *db, const char *key, struct dir_state *ds,
			 int64_t *old_id, char hex[65])
{
	char old_hex[65];
	int r = earlier_dir_import(db, key, old_id, old_hex);

	if (r <= 0)
		return r;
	if (dir_hash(ds, hex))
		return -1;
	return !strcmp(hex, old_hex);
}

/*
 * Parse the members into ctx (its import begun) and set the result's
 * hash: 0, 1 when there is nothing to keep (res->status says why), or
 * -1 after error().
 */
static int dir_parse(struct import_ctx *ctx, const struct importer *imp,
		     const struct member_list *l, struct dir_state *ds,
		     int hashed, char hex[65], int64_t total,
		     struct import_result *res)
{
	size_t i;
	int r = imp->parse_dir(ctx, ctx->path, l->m, l->nr);

	if (r > 0) {
		/* a part no extractor knows: skipped, said by the importer */
		res->status = IMPORT_SKIPPED;
		return 1;
	}
	if (r)
		return -1;
	for (i = 0; i < l->nr; i++)
		if (!ds->read[i])
			ctx->nr_skipped++;
	if (!hashed && dir_hash(ds, hex))
		return -1;
	r = db_import_set_hash(ctx, hex, (uint64_t)total);
	if (r > 0) {
		/* the same content under another path */
		res->status = IMPORT_ALREADY;
		res->replaced = 0;
	}
	return r;
}

static int import_dir(struct db *db, const struct import_opts *o,
		      const char *dir, const char *part,
		      const struct importer *imp, struct import_result *res)
{
	struct member_list l;
	struct dir_state ds = { 0 };
	struct import_ctx ctx;
	char hex[65], *key = NULL, *first = NULL;
	int64_t old_id = 0, total;
	long old_samples = -1;
	int ret = -1, r;

	memset(&ctx, 0, sizeof(ctx));
	res->format = imp->name;
	if (part ? member_list_of_part(imp, dir, part, &l) :
		   member_list_read(dir, &l))
		return -1;
	key = dir_key(dir, part);
	if (!key)
		goto out;
	total = dir_state_init(&ds, &l);
	r = dir_unchanged(db, key, &ds, &old_id, hex);
	if (r) {
		if (r > 0) {
			res->status = IMPORT_ALREADY;
			ret = 0;
		}
		goto out;
	}
	if (db_begin(db))
		goto out;
	if (old_id) {
		old_samples = import_samples(db, old_id);
		if (old_samples < 0 || db_import_delete(db, old_id))
			goto fail;
		res->replaced = 1;
	}
	if (db_import_begin(&ctx, db, key, imp->name, total, 1, &o->ovr))
		goto fail;
	ctx.path = dir;
	ctx.part = part;
	ctx.driver = &ds;
	ctx.first_variant = o->first_variant ? o->first_variant : &first;
	ctx.strict = o->strict;
	r = dir_parse(&ctx, imp, &l, &ds, old_id != 0, hex, total, res);
	if (r) {
		ret = r > 0 ? 0 : -1;
		goto fail;
	}
	ctx.path = dir;
	ret = import_finish(db, o, &ctx, "directory", old_samples, res);
	goto out;
fail:
	if (ctx.usage_error)
		res->status = IMPORT_USAGE;
	db_import_end(&ctx);
	db_rollback(db);
out:
	free(first);
	free(key);
	free(ds.hex);
	free(ds.read);
	member_list_release(&l);
	return ret;
}

int import_nested(struct import_ctx *ctx, const char *format,
		  const struct member *m)
{
	struct dir_state *ds = ctx->driver;
	const struct importer *imp;
	const char *keep_path = ctx->path;
	int64_t keep_source = ctx->source_id;
	struct input in;
	uint64_t size;
	size_t idx;
	int ret = -1;

	if (!ds || m < ds->m || m >= ds->m + ds->nr)
		BUG("import_nested() outside a directory import");
	idx = (size_t)(m - ds->m);
	if (input_open(&in, m->path, -1))
		return -1;
	if (format) {
		imp = importer_find(format);
		if (!imp || !(imp->flags & IMP_FILES))
			BUG("no file importer '%s'", format);
	} else {
		imp = in.head_len ? importer_detect(m->path, in.head,
						    in.head_len) : NULL;
		if (!imp) {
			input_close(&in);
			return 1;	/* counted as skipped */
		}
	}
	ds->read[idx] = 1;
	ctx->path = m->path;
	if (db_emit_source(ctx, m->name))
		goto out;
	ctx->nested++;
	ret = parse_file(ctx, imp, &in);
	ctx->nested--;
	if (!ret && input_finish(&in, ds->hex[idx], &size))
		ret = -1;
out:
	ctx->path = keep_path;
	ctx->source_id = keep_source;
	input_close(&in);
	return ret;
}

int import_open_member(struct import_ctx *ctx, const struct member *m,
		       struct input *in)
{
	struct dir_state *ds = ctx->driver;

	if (!ds || m < ds->m || m >= ds->m + ds->nr)
		BUG("import_open_member() outside a directory import");
	if (input_open(in, m->path, -1))
		return -1;
	ds->read[m - ds->m] = 1;
	if (db_emit_source(ctx, m->name)) {
		input_close(in);
		return -1;
	}
	return 0;
}

int import_close_member(struct import_ctx *ctx, const struct member *m,
			struct input *in)
{
	struct dir_state *ds = ctx->driver;
	uint64_t size;
	int ret;

	if (!ds || m < ds->m || m >= ds->m + ds->nr)
		BUG("import_close_member() outside a directory import");
	/* the rest of the member, hashed: it counts for the directory */
	ret = input_finish(in, ds->hex[m - ds->m], &size);
	if (ret)
		ds->hex[m - ds->m][0] = '\0';
	input_close(in);
	return ret;
}

int import_item(struct db *db, const struct import_opts *o,
		const struct import_item *item, struct import_result *res)
{
	memset(res, 0, sizeof(*res));
	res->path = item->path;
	res->part = item->part;
	res->status = IMPORT_FAILED;
	if (o->pipe) {
		struct pipe_entry *e = import_pipe_take(o->pipe, item);

		if (e)
			return import_recorded(db, o, item->path, e, res);
	}
	if (item->dir_imp)
		return import_dir(db, o, item->path, item->part,
				  item->dir_imp, res);
	return import_one_file(db, o, item->path, item->walked, res);
}

int import_file(struct db *db, const struct import_opts *o, const char *path,
		struct import_result *res)
{
	struct import_item item = { (char *)path, 0, NULL, NULL };

	return import_item(db, o, &item, res);
}
