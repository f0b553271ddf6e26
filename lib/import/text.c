/*
 * Texts and mail (import.h): every text parser (importer.h's text_new,
 * text_line, text_end) fed the decoded lines of a plain text or of each
 * message of an mbox or .eml, each message its own result.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/sha256.h"
#include "import/driver.h"

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

/* The text parsers of only (NULL: of every text importer) start. */
static void feed_start(struct text_feed *f, struct import_ctx *ctx,
		       const struct importer *only)
{
	const struct importer *const *imp;
	size_t nr, i;

	memset(f, 0, sizeof(*f));
	f->ctx = ctx;
	if (only) {
		if (!only->text_new)
			BUG("'%s' is not a text importer", only->name);
		f->imp[f->nr++] = only;
	} else {
		imp = importer_list(&nr);
		for (i = 0; i < nr; i++) {
			if (!imp[i]->text_new)
				continue;
			if (f->nr == TEXT_PARSERS_MAX)
				BUG("more than %d text importers",
				    TEXT_PARSERS_MAX);
			f->imp[f->nr++] = imp[i];
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
		/*
		 * A last line without its newline is most often a file cut
		 * short: a table row there may have lost cells or half its
		 * name ("perf-stat.p"), so it is not read, and said.
		 */
		if (l.cut && l.text[strspn(l.text, " \t")]) {
			db_warn(f->ctx, l.lineno, "the last line has no line "
				"end (the file cut short?): not read");
			continue;
		}
		if (feed_line(f, l.text, l.lineno, l.quote_depth))
			return -1;
	}
	return rc < 0 ? -1 : 1;
}

/*
 * The headers the parsers read before the body, the first line of the
 * text: the subject (the robot's headline; hashed) and the Message-ID
 * (not hashed again: it names the columns of a table that names none,
 * lkp-table.c).  0, or -1 after error().
 */
static int feed_headers(struct text_feed *f, const struct mail_msg *msg,
			struct sha256 *hash, uint64_t *size)
{
	struct sbuf sb = SBUF_INIT;
	int rc = 0;

	if (*msg->subject) {
		sbuf_addf(&sb, "Subject: %s", msg->subject);
		sha256_update(hash, sb.buf, sb.len);
		sha256_update(hash, "\n", 1);
		*size += sb.len + 1;
		rc = feed_line(f, sb.buf, msg->first_line, 0);
	}
	if (!rc && *msg->message_id) {
		sbuf_reset(&sb);
		sbuf_addf(&sb, "Message-ID: %s", msg->message_id);
		rc = feed_line(f, sb.buf, msg->first_line, 0);
	}
	sbuf_release(&sb);
	return rc;
}

/* A message's headers as its import's metadata: 0 or -1. */
static int message_meta(struct import_ctx *ctx, const struct mail_msg *msg)
{
	static const char *const keys[] = { "message_id", "subject", "from",
					    "date", "in_reply_to",
					    "references" };
	const char *vals[ARRAY_SIZE(keys)];
	size_t i;

	vals[0] = msg->message_id;
	vals[1] = msg->subject;
	vals[2] = msg->from;
	vals[3] = msg->date;
	vals[4] = msg->in_reply_to;
	vals[5] = msg->references;
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (db_import_meta(ctx, i ? 0 : msg->index, keys[i], vals[i]))
			return -1;
	if (!*msg->message_id &&
	    db_import_meta(ctx, msg->index, "message_id", "-"))
		return -1;
	return 0;
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
	struct text_feed f;
	struct import_ctx ctx;
	struct sha256 hash;
	uint64_t size = 0;
	char hex[65];
	int rc, ret = -1, started = 0;

	memset(&ctx, 0, sizeof(ctx));
	memset(&f, 0, sizeof(f));
	if (db_begin(db))
		goto out;
	/* the format is known at the end: what the parsers found */
	if (db_import_begin(&ctx, db, path, "mail", -1, 0, &o->ovr))
		goto fail;
	ctx.strict = o->strict;
	ctx.first_variant = o->first_variant ? o->first_variant : first;
	feed_start(&f, &ctx, o->format ? importer_find(o->format) : NULL);
	started = 1;
	sha256_init(&hash);
	sha256_update(&hash, msg->message_id, strlen(msg->message_id) + 1);
	if (r->kind == MAIL_NONE) {
		/* a file's content hash, as for every other file (no headers) */
		if (feed_text(&f, r, NULL, NULL) < 0 ||
		    input_finish(r->in, hex, &size))
			goto fail;
	} else if (feed_headers(&f, msg, &hash, &size) ||
		   feed_text(&f, r, &hash, &size) < 0) {
		goto fail;
	}
	started = 0;
	if (feed_end(&f, 1))
		goto fail;
	res->format = feed_format(&f);
	if (!ctx.nr_runs && !ctx.nr_aggregates && ctx.nr_skips) {
		/* a table, but not a row of it read: not "no table" */
		char *where = r->kind == MAIL_NONE ? xstrdup(path) :
			      xstrfmt("%s: message %d", path, msg->index);

		error("%s: no row of its %s could be read (%ld skipped: the "
		      "warnings above say why)", where,
		      ctx.nr_tables > 1 ? "tables" : "table", ctx.nr_skips);
		free(where);
		goto fail;
	}
	if (!ctx.nr_runs && !ctx.nr_aggregates) {
		/* a reply that talks about a report without its table */
		res->status = IMPORT_SKIPPED;
		ret = 0;
		goto fail;	/* rolls back */
	}
	if (db_import_set_format(&ctx, res->format) ||
	    (r->kind != MAIL_NONE && message_meta(&ctx, msg)))
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
	ret = import_finish(db, o, &ctx,
			    r->kind == MAIL_NONE ? "file" : "message", -1,
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

int import_text(struct db *db, const struct import_opts *o, const char *path,
		struct input *in, struct import_result *res)
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

int looks_like_text(const char *head, size_t len)
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

int import_mail(struct db *db, const struct import_opts *o, const char *path,
		struct input *in, int kind, struct import_result *res)
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

/* A file through imp: its parse(), or the engine's for a text parser. */

int import_text_file(struct import_ctx *ctx, struct input *in,
		     const struct importer *imp)
{
	struct mail_reader r;
	struct mail_msg msg;
	struct text_feed f;
	int ret = -1;

	feed_start(&f, ctx, imp);
	mail_reader_init(&r, in, MAIL_NONE);
	if (mail_next_message(&r, &msg) > 0 && feed_text(&f, &r, NULL, NULL) > 0)
		ret = 0;
	mail_reader_release(&r);
	return feed_end(&f, !ret) || ret ? -1 : 0;
}
