/*
 * The import driver (see import.h): one transaction per result (a file,
 * or a directory an importer claims whole), detection by score, the
 * content hash checked so a re-import changes nothing, and members handed
 * from directory importers to the others (import_nested()).
 */
#include "core/compat.h"
#include "core/mail.h"
#include "core/sbuf.h"
#include "core/sha256.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "store/emitlog.h"
#include "store/values.h"
#include "import.h"
#include "importer.h"
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- directory members ---- */

/* The regular files of one directory, as members (see importer.h). */
struct member_list {
	struct member *m;	/* owned; name and path owned too */
	size_t nr, alloc;
};

static void member_list_release(struct member_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free((char *)l->m[i].name);
		free((char *)l->m[i].path);
	}
	free(l->m);
	memset(l, 0, sizeof(*l));
}

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	/* X before X.gz under the same name: the plain one is kept */
	return c ? c : (int)(strlen(x->path) - strlen(y->path));
}

/*
 * List the regular files directly in dir (hidden ones skipped), sorted
 * by member name; "X.gz" is named "X", and where X and X.gz both exist
 * they are one member, read from X.  Returns 0 or -1 after error().
 */
static int list_members(const char *dir, struct member_list *l)
{
	struct dirent *de;
	size_t i, out = 0;
	DIR *d;

	memset(l, 0, sizeof(*l));
	d = opendir(dir);
	if (!d)
		return error("%s: cannot read directory: %s", dir,
			     strerror(errno));
	while ((de = readdir(d))) {
		char *path;
		struct stat st;
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		ALLOC_GROW(l->m, l->nr + 1, l->alloc);
		l->m[l->nr].path = path;
		l->m[l->nr].size = (int64_t)st.st_size;
		l->m[l->nr].name = n > 3 && ends_with(de->d_name, ".gz") ?
			xstrndup(de->d_name, n - 3) : xstrdup(de->d_name);
		l->nr++;
	}
	closedir(d);
	QSORT(l->m, l->nr, cmp_member);
	for (i = 0; i < l->nr; i++) {
		if (out && !strcmp(l->m[out - 1].name, l->m[i].name)) {
			free((char *)l->m[i].name);
			free((char *)l->m[i].path);
			continue;
		}
		l->m[out++] = l->m[i];
	}
	l->nr = out;
	return 0;
}

/* Does a directory importer claim dir (the forced one, if --format)? */
static const struct importer *claim_dir(const char *dir,
					const struct import_opts *o)
{
	const struct importer *imp = NULL, *forced;
	struct member_list l;

	forced = o && o->format ? importer_find(o->format) : NULL;
	if (forced && !(forced->flags & IMP_DIRS))
		return NULL;
	if (list_members(dir, &l))
		return NULL;
	if (forced)
		imp = forced->detect_dir(dir, l.m, l.nr) > 0 ? forced : NULL;
	else
		imp = importer_detect_dir(dir, l.m, l.nr);
	member_list_release(&l);
	return imp;
}

/* ---- expansion ---- */

struct item_list {
	struct import_item *v;
	size_t nr, alloc;
	struct strmap seen;	/* (st_dev, st_ino) of dirs and files */
};

static void add_item(struct item_list *l, const char *path, int walked,
		     const struct importer *dir_imp)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr].path = xstrdup(path);
	l->v[l->nr].walked = walked;
	l->v[l->nr].dir_imp = dir_imp;
	l->v[l->nr].part = NULL;
	l->nr++;
}

/* The parts of a tree, as its importer names them. */
struct part_list {
	char **v;
	size_t nr, alloc;
};

static void add_part(void *data, const char *part)
{
	struct part_list *p = data;

	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = xstrdup(part);
}

/*
 * Does a tree importer claim dir (the forced one, if --format)?  Then
 * each of its parts is an item.  Returns 1 if claimed, 0 if not, -1 after
 * error() (the tree could not be listed).
 */
static int claim_tree(struct item_list *l, const char *dir, int walked,
		      const struct import_opts *o)
{
	const struct importer *imp, *best = NULL, *forced;
	struct part_list best_parts = { 0 };
	size_t i, nr;
	int best_score = 0;

	forced = o && o->format ? importer_find(o->format) : NULL;
	if (forced && !(forced->flags & IMP_TREES))
		return 0;
	imp = importer_list(&nr);
	for (i = 0; i < nr; i++) {
		struct part_list p = { 0 };
		int s;

		if (!(imp[i].flags & IMP_TREES) || (forced && forced != &imp[i]))
			continue;
		s = imp[i].tree_parts(dir, add_part, &p);
		if (s > best_score && s > 0) {
			struct part_list t = p;

			p = best_parts;
			best_parts = t;
			best = &imp[i];
			best_score = s;
		}
		while (p.nr)
			free(p.v[--p.nr]);
		free(p.v);
		if (s < 0)
			return -1;
	}
	if (!best)
		return 0;
	for (i = 0; i < best_parts.nr; i++) {
		add_item(l, dir, walked, best);
		l->v[l->nr - 1].part = best_parts.v[i];
	}
	free(best_parts.v);
	if (!best_parts.nr)
		warning("%s: read as %s, but it holds no result to import",
			dir, best->name);
	return 1;
}

/* Has this inode been walked or listed already?  Marks it if not. */
static int seen_before(struct item_list *l, const struct stat *st)
{
	uint64_t key[2] = { (uint64_t)st->st_dev, (uint64_t)st->st_ino };
	int64_t v;

	if (strmap_get(&l->seen, (const char *)key, sizeof(key), &v))
		return 1;
	strmap_put(&l->seen, (const char *)key, sizeof(key), 1);
	return 0;
}

/*
 * Add the results under path, sorted, recursively; symlinks are
 * followed, but a directory or file reached twice (a link back up the
 * tree) is walked or listed once.  A claimed directory is one result and
 * is not descended into.  Returns the number of entries that could not
 * be read (each reported with error()).
 */
static size_t walk(struct item_list *l, const char *path, int depth,
		   const struct import_opts *o)
{
	char **names = NULL;
	size_t nr = 0, alloc = 0, i, bad = 0;
	const struct importer *imp;
	struct dirent *de;
	DIR *dir;

	if (depth > 64) {
		error("%s: directories nested too deep", path);
		return 1;
	}
	switch (claim_tree(l, path, depth > 0, o)) {
	case 1:
		return 0;
	case -1:
		return 1;
	}
	imp = claim_dir(path, o);
	if (imp) {
		add_item(l, path, depth > 0, imp);
		return 0;
	}
	dir = opendir(path);
	if (!dir) {
		error("%s: cannot read directory: %s", path, strerror(errno));
		return 1;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(dir);
	QSORT(names, nr, cmp_str);
	for (i = 0; i < nr; i++) {
		char *sub = xstrfmt("%s/%s", path, names[i]);
		struct stat st;

		if (stat(sub, &st)) {
			error("%s: cannot open: %s", sub, strerror(errno));
			bad++;
		} else if (S_ISDIR(st.st_mode)) {
			if (!seen_before(l, &st))
				bad += walk(l, sub, depth + 1, o);
		} else if (S_ISREG(st.st_mode)) {
			if (!seen_before(l, &st))
				add_item(l, sub, 1, NULL);
		}
		free(sub);
		free(names[i]);
	}
	free(names);
	return bad;
}

static void mark_seen(const char *path, void *data)
{
	struct stat st;

	if (!stat(path, &st))
		seen_before(data, &st);
}

struct import_item *import_expand(const char *const *paths, size_t nr,
				  const struct import_opts *o, size_t *nr_items,
				  size_t *nr_bad)
{
	struct item_list l = { 0 };
	size_t i;

	*nr_bad = 0;
	/* the database being written, and its companions: never inputs */
	if (o && o->db_path)
		db_for_each_file(o->db_path, mark_seen, &l);
	for (i = 0; i < nr; i++) {
		struct stat st;

		if (!strcmp(paths[i], "-")) {
			add_item(&l, "-", 0, NULL);
		} else if (stat(paths[i], &st)) {
			error("%s: cannot open: %s", paths[i], strerror(errno));
			(*nr_bad)++;
		} else if (S_ISDIR(st.st_mode)) {
			if (!seen_before(&l, &st))
				*nr_bad += walk(&l, paths[i], 0, o);
		} else {
			/* named on the command line: always imported */
			add_item(&l, paths[i], 0, NULL);
		}
	}
	strmap_clear(&l.seen);
	*nr_items = l.nr;
	return l.v;
}

void import_items_free(struct import_item *items, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(items[i].path);
		free(items[i].part);
	}
	free(items);
}

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
	const struct importer *imp = importer_list(&nr);

	for (i = 0; i < nr; i++)
		if (imp[i].flags & IMP_FILES)
			sbuf_addf(sb, "%s%s", sb->len ? ", " : "",
				  imp[i].name);
}

/* Copy the counters of a finished import into the result. */
static void fill_result(struct import_result *res,
			const struct import_ctx *ctx)
{
	res->runs = ctx->nr_runs;
	res->samples = ctx->nr_samples;
	res->aggregates = ctx->nr_aggregates;
	res->series = ctx->nr_series;
	res->derived = ctx->nr_derived;
	res->skipped = ctx->nr_skipped;
	res->warnings = ctx->nr_warnings;
}

/*
 * End the import in ctx: write the last run's series, check there was
 * something, commit (or roll back for a dry run).  On any failure the
 * transaction is rolled back.  Returns 0 or -1.
 */
static int finish(struct db *db, const struct import_opts *o,
		  struct import_ctx *ctx, const char *what,
		  struct import_result *res)
{
	if (db_end_run(ctx))
		goto fail;
	if (!ctx->nr_runs && !ctx->nr_aggregates) {
		error("%s: no data found in this %s", ctx->path, what);
		goto fail;
	}
	if (ctx->nr_runs && db_pack_import(ctx))
		goto fail;
	fill_result(res, ctx);
	db_import_end(ctx);
	if (o->dry_run) {
		db_rollback(db);
	} else if (db_commit(db)) {
		db_rollback(db);
		return -1;
	}
	res->status = IMPORT_OK;
	return 0;
fail:
	db_import_end(ctx);
	db_rollback(db);
	return -1;
}

/* ---- mail: each message of an mbox or .eml its own result ---------- */

#define MAIL_HEAD_LINES 400		/* lines a text importer detects on */
#define MAIL_HEAD_BYTES (64u << 10)

/* The first lines of a message's text, kept to detect and then replay. */
struct mail_head {
	struct sbuf text;	/* the lines, each ending in "\n" */
	long *lineno;		/* raw line of each */
	size_t nr, alloc;
	int end;		/* mail_next_line()'s last return when the
				 * text ended inside the head, else 1 */
};

static int read_head(struct mail_reader *r, struct mail_head *h)
{
	struct mail_line l;
	int rc = 1;

	while (h->nr < MAIL_HEAD_LINES && h->text.len < MAIL_HEAD_BYTES &&
	       (rc = mail_next_line(r, &l)) > 0) {
		ALLOC_GROW(h->lineno, h->nr + 1, h->alloc);
		h->lineno[h->nr++] = l.lineno;
		sbuf_add(&h->text, l.text, l.len);
		sbuf_addch(&h->text, '\n');
	}
	h->end = rc;
	return rc;
}

/* The text importer whose detect() likes this head best, or NULL. */
static const struct importer *detect_text(const char *path,
					  const struct mail_head *h)
{
	const struct importer *imp, *best = NULL;
	size_t nr, i;
	int score = 0;

	imp = importer_list(&nr);
	for (i = 0; i < nr; i++) {
		int sc;

		if (!imp[i].text_new || !imp[i].detect)
			continue;
		sc = imp[i].detect(path, h->text.buf, h->text.len);
		if (sc > score) {
			score = sc;
			best = &imp[i];
		}
	}
	return best;
}

/* Feed one line to the parser and the message's hash. */
static int feed(const struct importer *imp, void *p, struct sha256 *hash,
		uint64_t *size, const char *text, size_t len, long lineno)
{
	sha256_update(hash, text, len);
	sha256_update(hash, "\n", 1);
	*size += len + 1;
	return imp->text_line(p, text, lineno);
}

/*
 * One message, in its own transaction: detect the table importer on its
 * first lines (or take --format), feed it every line, keep the headers
 * as import metadata.  The message's hash covers its Message-ID and its
 * decoded text.  A message without any table is skipped, not failed.
 */
static int import_message(struct db *db, const struct import_opts *o,
			  const char *path, struct mail_reader *r,
			  const struct mail_msg *msg, char **first,
			  struct import_result *res)
{
	static const char *const keys[] = { "message_id", "subject", "from",
					    "date", "in_reply_to",
					    "references" };
	const char *vals[ARRAY_SIZE(keys)];
	const struct importer *imp;
	struct mail_head h = { SBUF_INIT, NULL, 0, 0, 0 };
	struct import_ctx ctx;
	struct sha256 hash;
	struct mail_line l;
	uint64_t size = 0;
	char hex[65];
	void *p = NULL;
	size_t i, off;
	int rc, ret = -1;

	memset(&ctx, 0, sizeof(ctx));
	vals[0] = msg->message_id;
	vals[1] = msg->subject;
	vals[2] = msg->from;
	vals[3] = msg->date;
	vals[4] = msg->in_reply_to;
	vals[5] = msg->references;
	if (read_head(r, &h) < 0)
		goto out;
	imp = o->format ? importer_find(o->format) : detect_text(path, &h);
	if (!imp) {
		res->status = IMPORT_SKIPPED;
		ret = 0;
		goto out;
	}
	res->format = imp->name;
	if (db_begin(db))
		goto out;
	if (db_import_begin(&ctx, db, path, imp->name, -1, 0, &o->ovr))
		goto fail;
	ctx.first_variant = o->first_variant ? o->first_variant : first;
	p = imp->text_new(&ctx);
	sha256_init(&hash);
	sha256_update(&hash, msg->message_id, strlen(msg->message_id) + 1);
	if (*msg->subject) {
		/* the subject is the parser's too (the robot's headline) */
		struct sbuf subj = SBUF_INIT;

		sbuf_addf(&subj, "Subject: %s", msg->subject);
		rc = feed(imp, p, &hash, &size, subj.buf, subj.len,
			  msg->first_line);
		sbuf_release(&subj);
		if (rc)
			goto fail;
	}
	for (i = 0, off = 0; i < h.nr; i++) {
		const char *nl = strchr(h.text.buf + off, '\n');
		size_t len = (size_t)(nl - (h.text.buf + off));

		h.text.buf[off + len] = '\0';
		if (feed(imp, p, &hash, &size, h.text.buf + off, len,
			 h.lineno[i]))
			goto fail;
		off += len + 1;
	}
	rc = h.end;
	if (rc > 0) {
		while ((rc = mail_next_line(r, &l)) > 0)
			if (feed(imp, p, &hash, &size, l.text, l.len,
				 l.lineno))
				goto fail;
	}
	if (rc < 0)
		goto fail;
	rc = imp->text_end(p, 1);
	p = NULL;
	if (rc)
		goto fail;
	if (!ctx.nr_runs && !ctx.nr_aggregates) {
		/* a reply that talks about a report without its table */
		res->status = IMPORT_SKIPPED;
		ret = 0;
		goto fail;	/* rolls back */
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (db_import_meta(&ctx, i ? 0 : msg->index, keys[i], vals[i]))
			goto fail;
	if (!*msg->message_id &&
	    db_import_meta(&ctx, msg->index, "message_id", "-"))
		goto fail;
	sha256_final_hex(&hash, hex);
	rc = db_import_set_hash(&ctx, hex, size);
	if (rc < 0)
		goto fail;
	if (rc) {
		res->status = IMPORT_ALREADY;
		ret = 0;
		goto fail;
	}
	ret = finish(db, o, &ctx, "message", res);
	goto out;
fail:
	if (p)
		imp->text_end(p, 0);
	if (ctx.usage_error)
		res->status = IMPORT_USAGE;
	db_import_end(&ctx);
	db_rollback(db);
out:
	sbuf_release(&h.text);
	free(h.lineno);
	return ret;
}

/*
 * A mail file: every message its own result, reported through
 * o->on_message; the file's result counts the messages.  Its status is
 * IMPORT_FAILED when a message failed (the others are kept), SKIPPED
 * when no message held a table.
 */
static int import_mail(struct db *db, const struct import_opts *o,
		       const char *path, struct input *in, int kind,
		       struct import_result *res)
{
	struct mail_reader r;
	struct mail_msg msg;
	char *first = NULL;
	long failed = 0, done = 0, usage = 0;
	int rc;

	mail_reader_init(&r, in, kind);
	while ((rc = mail_next_message(&r, &msg)) != 0) {
		struct import_result mr;

		memset(&mr, 0, sizeof(mr));
		mr.path = path;
		mr.status = IMPORT_FAILED;
		mr.message = rc > 0 ? msg.index : 0;
		mr.message_id = rc > 0 ? msg.message_id : "";
		res->messages++;
		if (rc > 0 && import_message(db, o, path, &r, &msg, &first,
					     &mr) < 0 &&
		    mr.status == IMPORT_OK)
			mr.status = IMPORT_FAILED;
		failed += mr.status == IMPORT_FAILED;
		usage += mr.status == IMPORT_USAGE;
		done += mr.status == IMPORT_OK || mr.status == IMPORT_ALREADY;
		if (o->on_message)
			o->on_message(&mr, o->on_message_data);
		if (db->env_error)
			break;
	}
	mail_reader_release(&r);
	free(first);
	res->status = usage ? IMPORT_USAGE : failed ? IMPORT_FAILED :
		      done ? IMPORT_OK : IMPORT_SKIPPED;
	return failed || usage ? -1 : 0;
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
		if (imp->parse(ctx, src->in))
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
	ret = finish(db, o, &ctx, "file", res);
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
	if (!imp) {
		struct sbuf sb = SBUF_INIT;

		if (o->format) {
			if (!importer_find(o->format))
				BUG("format '%s' not checked by the caller",
				    o->format);
			error("%s: format '%s' reads directories, not files",
			      path, o->format);
		} else if (walked) {
			res->status = IMPORT_SKIPPED;	/* empty or unknown */
			ret = 0;
		} else if (!in.head_len) {
			error("%s: empty file", path);
		} else {
			list_formats(&sb);
			error("%s: unknown format (tried %s); use --format",
			      path, sb.buf);
			sbuf_release(&sb);
		}
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

/* add() of tree_members(): one file of the part. */
static void add_tree_member(void *data, const char *name, const char *path)
{
	struct member_list *l = data;
	struct stat st;

	ALLOC_GROW(l->m, l->nr + 1, l->alloc);
	l->m[l->nr].name = xstrdup(name);
	l->m[l->nr].path = xstrdup(path);
	l->m[l->nr].size = stat(path, &st) ? 0 : (int64_t)st.st_size;
	l->nr++;
}

/* The members of a tree's part, sorted by name.  0 or -1 after error(). */
static int list_tree_members(const struct importer *imp, const char *dir,
			     const char *part, struct member_list *l)
{
	memset(l, 0, sizeof(*l));
	if (imp->tree_members(dir, part, add_tree_member, l)) {
		member_list_release(l);
		return -1;
	}
	QSORT(l->m, l->nr, cmp_member);
	return 0;
}

static int import_dir(struct db *db, const struct import_opts *o,
		      const char *dir, const char *part,
		      const struct importer *imp, struct import_result *res)
{
	struct member_list l;
	struct dir_state ds = { 0 };
	struct import_ctx ctx;
	char hex[65], old_hex[65], *real = NULL, *first = NULL;
	int64_t old_id = 0, total = 0;
	size_t i;
	int ret = -1, r;

	memset(&ctx, 0, sizeof(ctx));
	res->format = imp->name;
	if (part ? list_tree_members(imp, dir, part, &l) :
		   list_members(dir, &l))
		return -1;
	/*
	 * Stored by real path, so that a re-import from elsewhere finds it;
	 * a part of a tree as "<dir>#<part>"
	 */
	real = realpath(dir, NULL);
	if (!real) {
		error("%s: %s", dir, strerror(errno));
		goto out;
	}
	if (part) {
		char *t = xstrfmt("%s#%s", real, part);

		free(real);
		real = t;
	}
	ds.m = l.m;
	ds.nr = l.nr;
	ds.hex = xcalloc(l.nr ? l.nr : 1, sizeof(*ds.hex));
	ds.read = xcalloc(l.nr ? l.nr : 1, 1);
	for (i = 0; i < l.nr; i++)
		total += l.m[i].size;

	/*
	 * A directory imported before is hashed first: unchanged, it is
	 * decided without parsing; changed, it replaces its earlier import
	 * (its runs only).  A new one is hashed as its members are read
	 * (import_nested(), import_close_member()), the rest at the end:
	 * each file read once.
	 */
	r = earlier_dir_import(db, real, &old_id, old_hex);
	if (r < 0)
		goto out;
	if (r) {
		if (dir_hash(&ds, hex))
			goto out;
		if (!strcmp(hex, old_hex)) {
			res->status = IMPORT_ALREADY;
			ret = 0;
			goto out;
		}
	}
	if (db_begin(db))
		goto out;
	if (old_id) {
		if (db_import_delete(db, old_id))
			goto fail;
		res->replaced = 1;
	}
	if (db_import_begin(&ctx, db, real, imp->name, total, 1, &o->ovr))
		goto fail;
	ctx.path = dir;
	ctx.part = part;
	ctx.driver = &ds;
	ctx.first_variant = o->first_variant ? o->first_variant : &first;
	r = imp->parse_dir(&ctx, dir, l.m, l.nr);
	if (r > 0) {
		/* a part no extractor knows: skipped, said by the importer */
		res->status = IMPORT_SKIPPED;
		ret = 0;
		goto fail;
	}
	if (r)
		goto fail;
	for (i = 0; i < l.nr; i++)
		if (!ds.read[i])
			ctx.nr_skipped++;
	if (!old_id && dir_hash(&ds, hex))
		goto fail;
	r = db_import_set_hash(&ctx, hex, (uint64_t)total);
	if (r < 0)
		goto fail;
	if (r) {
		/* the same content under another path */
		res->status = IMPORT_ALREADY;
		res->replaced = 0;
		ret = 0;
		goto fail;
	}
	ctx.path = dir;
	ret = finish(db, o, &ctx, "directory", res);
	goto out;
fail:
	if (ctx.usage_error)
		res->status = IMPORT_USAGE;
	db_import_end(&ctx);
	db_rollback(db);
out:
	free(first);
	free(real);
	free(ds.hex);
	free(ds.read);
	member_list_release(&l);
	return ret;
}

int import_text_file(struct import_ctx *ctx, struct input *in,
		     const char *format)
{
	const struct importer *imp = importer_find(format);
	void *p;
	int r, ret = 0;

	if (!imp || !imp->text_new)
		BUG("'%s' is not a text importer", format);
	p = imp->text_new(ctx);
	while ((r = input_getline(in)) > 0)
		if (imp->text_line(p, in->sb.buf, in->line)) {
			ret = -1;
			break;
		}
	if (r < 0)
		ret = -1;
	return imp->text_end(p, !ret) || ret ? -1 : 0;
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
	ret = imp->parse(ctx, &in);
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
