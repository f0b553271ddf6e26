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

/*
 * What the text tables of ctx held, for the summary line: "12 rows, 6
 * rows (1 skipped)", one entry a table in input order, cut with "..."
 * when it would not fit.
 */
static void table_summary(struct import_result *res,
			  const struct import_ctx *ctx)
{
	size_t i, len = 0, cap = sizeof(res->tables_text);

	res->tables = (long)ctx->nr_tables;
	res->tables_text[0] = '\0';
	for (i = 0; i < ctx->nr_tables; i++) {
		const struct text_table *t = &ctx->tables[i];
		char one[64];
		int n;

		n = snprintf(one, sizeof(one), "%s%ld row%s", i ? ", " : "",
			     t->rows_read, t->rows_read == 1 ? "" : "s");
		if (t->rows_skipped)
			n += snprintf(one + n, sizeof(one) - (size_t)n,
				      " (%ld skipped)", t->rows_skipped);
		if (len + (size_t)n + 5 >= cap) {
			snprintf(res->tables_text + len, cap - len, ", ...");
			break;
		}
		memcpy(res->tables_text + len, one, (size_t)n + 1);
		len += (size_t)n;
	}
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
	table_summary(res, ctx);
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
	if (db_end_run(ctx) || db_tables_flush(ctx))
		goto fail;
	if (ctx->strict && ctx->nr_warnings) {
		error("%s: %ld warning%s, and --strict: nothing imported",
		      ctx->path, ctx->nr_warnings,
		      ctx->nr_warnings == 1 ? "" : "s");
		goto fail;
	}
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

/* ---- text: tables read line by line -------------------------------- */

/*
 * The text parsers of one text (a mail message, a pasted file): every
 * text importer, or --format's alone, fed the same decoded lines, so
 * that a message holding an lkp table and an MMTests table reads both;
 * each says nothing of lines it does not know.  made[] counts what each
 * wrote, which names the import's format.
 */
#define TEXT_PARSERS_MAX 8
#define FORMAT_NAMES_MAX 16	/* combinations of them ever named */

struct text_feed {
	struct import_ctx *ctx;
	const struct importer *imp[TEXT_PARSERS_MAX];
	void *p[TEXT_PARSERS_MAX];	/* owned: each parser's state */
	long made[TEXT_PARSERS_MAX];
	size_t nr;
};

static long rows_made(const struct import_ctx *ctx)
{
	return ctx->nr_runs + ctx->nr_samples + ctx->nr_aggregates +
	       ctx->nr_series;
}

static void feed_start(struct text_feed *f, struct import_ctx *ctx,
		       const char *format)
{
	const struct importer *imp;
	size_t nr, i;

	memset(f, 0, sizeof(*f));
	f->ctx = ctx;
	if (format) {
		imp = importer_find(format);
		if (!imp || !imp->text_new)
			BUG("'%s' is not a text importer", format);
		f->imp[f->nr++] = imp;
	} else {
		imp = importer_list(&nr);
		for (i = 0; i < nr; i++) {
			if (!imp[i].text_new)
				continue;
			if (f->nr == TEXT_PARSERS_MAX)
				BUG("more than %d text importers",
				    TEXT_PARSERS_MAX);
			f->imp[f->nr++] = &imp[i];
		}
	}
	for (i = 0; i < f->nr; i++)
		f->p[i] = f->imp[i]->text_new(ctx);
}

/* One line to every parser: 0, or -1 after error(). */
static int feed_line(struct text_feed *f, const char *text, long lineno,
		     int depth)
{
	size_t i;

	for (i = 0; i < f->nr; i++) {
		long before = rows_made(f->ctx);

		if (f->imp[i]->text_line(f->p[i], text, lineno, depth))
			return -1;
		f->made[i] += rows_made(f->ctx) - before;
	}
	return 0;
}

/* The parsers' end-of-text checks (finish) and their state freed. */
static int feed_end(struct text_feed *f, int finish)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < f->nr; i++) {
		long before = rows_made(f->ctx);

		if (f->imp[i]->text_end(f->p[i], finish && !ret))
			ret = -1;
		f->made[i] += rows_made(f->ctx) - before;
		f->p[i] = NULL;
	}
	return ret;
}

/*
 * The format of what the parsers found: the names of those that wrote
 * rows, joined by '+' ("lkp-table+mmtests-table"), interned for the
 * process (there are few such names); NULL if none wrote any.
 */
static const char *feed_format(const struct text_feed *f)
{
	static char *interned[FORMAT_NAMES_MAX];
	static size_t nr_interned;
	struct sbuf sb = SBUF_INIT;
	const char *ret = NULL;
	size_t i, n = 0;

	for (i = 0; i < f->nr; i++) {
		if (!f->made[i])
			continue;
		if (n++)
			sbuf_addch(&sb, '+');
		sbuf_addstr(&sb, f->imp[i]->name);
	}
	if (n == 1) {
		for (i = 0; i < f->nr; i++)
			if (f->made[i])
				ret = f->imp[i]->name;
	} else if (n) {
		for (i = 0; i < nr_interned && !ret; i++)
			if (!strcmp(interned[i], sb.buf))
				ret = interned[i];
		if (!ret) {
			if (nr_interned == ARRAY_SIZE(interned))
				BUG("too many format names");
			ret = interned[nr_interned++] = sbuf_detach(&sb, NULL);
		}
	}
	sbuf_release(&sb);
	return ret;
}

/*
 * Every line of the text r reads (its format=flowed lines joined) to
 * the parsers, and into the hash when hash is not NULL.  1 at the end of
 * the text, -1 after error().
 */
static int feed_text(struct text_feed *f, struct mail_reader *r,
		     struct sha256 *hash, uint64_t *size)
{
	struct mail_line l;
	int rc;

	while ((rc = mail_next_unflowed(r, &l)) > 0) {
		if (hash) {
			sha256_update(hash, l.text - l.prefix_len,
				      l.prefix_len + l.len);
			sha256_update(hash, "\n", 1);
			*size += l.prefix_len + l.len + 1;
		}
		if (feed_line(f, l.text, l.lineno, l.quote_depth))
			return -1;
	}
	return rc < 0 ? -1 : 1;
}

/*
 * One message, in its own transaction: every text parser (or --format's)
 * reads its decoded text, its headers are kept as import metadata.  The
 * message's hash covers its Message-ID and its decoded text.  A message
 * without any table is skipped, not failed.  A text that is not mail
 * (r->kind MAIL_NONE) is read the same way as one message without
 * headers, its hash the file's.
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
	struct text_feed f;
	struct import_ctx ctx;
	struct sha256 hash;
	uint64_t size = 0;
	char hex[65];
	size_t i;
	int rc, ret = -1, started = 0;

	memset(&ctx, 0, sizeof(ctx));
	memset(&f, 0, sizeof(f));
	vals[0] = msg->message_id;
	vals[1] = msg->subject;
	vals[2] = msg->from;
	vals[3] = msg->date;
	vals[4] = msg->in_reply_to;
	vals[5] = msg->references;
	if (db_begin(db))
		goto out;
	/* the format is known at the end: what the parsers found */
	if (db_import_begin(&ctx, db, path, "mail", -1, 0, &o->ovr))
		goto fail;
	ctx.strict = o->strict;
	ctx.first_variant = o->first_variant ? o->first_variant : first;
	feed_start(&f, &ctx, o->format);
	started = 1;
	sha256_init(&hash);
	sha256_update(&hash, msg->message_id, strlen(msg->message_id) + 1);
	if (r->kind == MAIL_NONE) {
		/* a file's content hash, as for every other file */
		if (feed_text(&f, r, NULL, NULL) < 0 ||
		    input_finish(r->in, hex, &size))
			goto fail;
	} else if (*msg->subject) {
		/* the subject is the parsers' too (the robot's headline) */
		struct sbuf subj = SBUF_INIT;

		sbuf_addf(&subj, "Subject: %s", msg->subject);
		sha256_update(&hash, subj.buf, subj.len);
		sha256_update(&hash, "\n", 1);
		size += subj.len + 1;
		rc = feed_line(&f, subj.buf, msg->first_line, 0);
		sbuf_release(&subj);
		if (rc)
			goto fail;
	}
	if (*msg->message_id) {
		/*
		 * the parsers' too, not hashed again: it names the columns
		 * of a table that names none (lkp-table.c)
		 */
		struct sbuf id = SBUF_INIT;

		sbuf_addf(&id, "Message-ID: %s", msg->message_id);
		rc = feed_line(&f, id.buf, msg->first_line, 0);
		sbuf_release(&id);
		if (rc)
			goto fail;
	}
	if (r->kind != MAIL_NONE && feed_text(&f, r, &hash, &size) < 0)
		goto fail;
	started = 0;
	if (feed_end(&f, 1))
		goto fail;
	res->format = feed_format(&f);
	if (!ctx.nr_runs && !ctx.nr_aggregates) {
		/* a reply that talks about a report without its table */
		res->status = IMPORT_SKIPPED;
		ret = 0;
		goto fail;	/* rolls back */
	}
	if (db_import_set_format(&ctx, res->format))
		goto fail;
	for (i = 0; r->kind != MAIL_NONE && i < ARRAY_SIZE(keys); i++)
		if (db_import_meta(&ctx, i ? 0 : msg->index, keys[i], vals[i]))
			goto fail;
	if (r->kind != MAIL_NONE && !*msg->message_id &&
	    db_import_meta(&ctx, msg->index, "message_id", "-"))
		goto fail;
	if (r->kind != MAIL_NONE)
		sha256_final_hex(&hash, hex);
	rc = db_import_set_hash(&ctx, hex, size);
	if (rc < 0)
		goto fail;
	if (rc) {
		res->status = IMPORT_ALREADY;
		ret = 0;
		goto fail;
	}
	ret = finish(db, o, &ctx, r->kind == MAIL_NONE ? "file" : "message",
		     res);
	goto out;
fail:
	if (started)
		feed_end(&f, 0);
	if (ctx.usage_error)
		res->status = IMPORT_USAGE;
	db_import_end(&ctx);
	db_rollback(db);
out:
	return ret;
}

/*
 * A text that is not mail (a table pasted into a file), read as one
 * message without headers: its result is the file's.
 */
static int import_text(struct db *db, const struct import_opts *o,
		       const char *path, struct input *in,
		       struct import_result *res)
{
	struct mail_reader r;
	struct mail_msg msg;
	char *first = NULL;
	int ret = -1;

	mail_reader_init(&r, in, MAIL_NONE);
	res->status = IMPORT_FAILED;
	if (mail_next_message(&r, &msg) > 0)
		ret = import_message(db, o, path, &r, &msg, &first, res);
	if (ret < 0 && res->status == IMPORT_OK)
		res->status = IMPORT_FAILED;
	mail_reader_release(&r);
	free(first);
	return ret;
}

/*
 * Text worth handing to the text parsers when no importer knows it: no
 * NUL byte and few control characters in its first bytes.
 */
static int looks_like_text(const char *head, size_t len)
{
	size_t i, odd = 0;

	/* lines: a table is never the first 64 KiB of one line */
	if (!len || !memchr(head, '\n', len))
		return 0;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)head[i];

		if (!c)
			return 0;
		odd += c < 0x20 && c != '\n' && c != '\r' && c != '\t' &&
		       c != '\f';
	}
	return odd * 100 < len;
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
	if ((imp && (imp->flags & IMP_TEXT)) ||
	    (!imp && !o->format && looks_like_text(in.head, in.head_len))) {
		/* a text: every text parser (or --format's) reads it */
		ret = import_text(db, o, path, &in, res);
		if (res->status == IMPORT_SKIPPED && !walked) {
			struct sbuf sb = SBUF_INIT;

			if (o->format) {
				error("%s: no table in it that %s reads", path,
				      o->format);
			} else {
				list_formats(&sb);
				error("%s: %s (tried %s); use --format", path,
				      imp ? "no table perfsift reads in it" :
				      "unknown format", sb.buf);
				sbuf_release(&sb);
			}
			res->status = IMPORT_FAILED;
			ret = -1;
		}
		goto out_input;
	}
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
	ctx.strict = o->strict;
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
	struct mail_reader r;
	struct mail_msg msg;
	struct text_feed f;
	int ret = -1;

	feed_start(&f, ctx, format);
	mail_reader_init(&r, in, MAIL_NONE);
	if (mail_next_message(&r, &msg) > 0 && feed_text(&f, &r, NULL, NULL) > 0)
		ret = 0;
	mail_reader_release(&r);
	return feed_end(&f, !ret) || ret ? -1 : 0;
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
