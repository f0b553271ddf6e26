/*
 * The emit API (see db.h): what importers write through, the rows of a
 * run, and what an import says of its input (warnings, the tables read,
 * the rows skipped).  Runs, samples and aggregates go through prepared
 * statements that are reused (samples in batches), series are handed to
 * series.c, which packs and reduces them; the variants and metrics they
 * name come from emit-ids.c, the imports row from emit-import.c
 * (emit-int.h).
 */
#include "core/compat.h"
#include "store/emit-int.h"
#include "store/emitlog.h"
#include "store/series.h"
#include "store/values.h"
#include "core/sbuf.h"

/* ---- warnings ---- */

void db_warn(struct import_ctx *ctx, long line, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	if (line > 0)
		sbuf_addf(&sb, "%s:%ld: ", ctx->path, line);
	else
		sbuf_addf(&sb, "%s: ", ctx->path);
	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (ctx->log) {
		/* said, and counted, when it is replayed */
		emit_log_msg(ctx->log, EMIT_WARN_COUNTED, sb.buf);
	} else {
		warning("%s", sb.buf);
		ctx->nr_warnings++;
	}
	sbuf_release(&sb);
}

/* ---- tables read from text ---- */

void db_table_begin(struct import_ctx *ctx, long line, const char *kind,
		    const char *title, int columns)
{
	struct text_table *t;

	ALLOC_GROW(ctx->tables, ctx->nr_tables + 1, ctx->alloc_tables);
	t = &ctx->tables[ctx->nr_tables++];
	memset(t, 0, sizeof(*t));
	t->line = line;
	snprintf(t->kind, sizeof(t->kind), "%s", kind);
	t->title = title && *title ? xstrdup(title) : NULL;
	t->columns = columns;
}

void db_table_row(struct import_ctx *ctx)
{
	if (ctx->nr_tables)
		ctx->tables[ctx->nr_tables - 1].rows_read++;
}

/*
 * s as the database keeps text: a tab becomes a blank, other control
 * characters and bytes that are not UTF-8 a '?' (a skipped row is kept
 * to be shown, not to be parsed again).  Returns a new string.
 */
static char *printable(const char *s)
{
	struct sbuf sb = SBUF_INIT;
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	while (left) {
		size_t n = utf8_seq(p, left);

		if (*p == '\t')
			sbuf_addch(&sb, ' ');
		else if (!n || *p < 0x20 || *p == 0x7f)
			sbuf_addch(&sb, '?');
		else
			sbuf_add(&sb, p, n);
		if (!n)
			n = 1;
		p += n;
		left -= n;
	}
	return sbuf_detach(&sb, NULL);
}

/*
 * Row text at line of table tseq (1-based; 0: of none) skipped for the
 * reason why: as db_skip_row() says.
 */
static int skip_row(struct import_ctx *ctx, size_t tseq, long line,
		    const char *text, const char *why)
{
	struct stmt *st;
	char *row;
	int rc;

	if (ctx->strict)
		return error("%s:%ld: %s", ctx->path, line, why);
	db_warn(ctx, line, "%s: row skipped", why);
	if (tseq)
		ctx->tables[tseq - 1].rows_skipped++;
	ctx->nr_skips++;
	st = db_prepare(ctx->db, "INSERT INTO import_skips(import_id, seq, "
			"line, table_seq, reason, text) VALUES (?1, ?2, ?3, "
			"?4, ?5, ?6)");
	if (!st)
		return -1;
	row = printable(text);
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_int64(st, 2, ctx->nr_skips);
	stmt_bind_int64(st, 3, line);
	if (tseq)
		stmt_bind_int64(st, 4, (int64_t)tseq);
	else
		stmt_bind_null(st, 4);
	stmt_bind_text(st, 5, why, -1, SQLITE_TRANSIENT);
	stmt_bind_text(st, 6, row, -1, SQLITE_TRANSIENT);
	rc = stmt_step(st);
	stmt_finalize(st);
	free(row);
	return rc == SQLITE_DONE ? 0 : db_fail(ctx->db, rc, ctx->path, line);
}

int db_skip_row(struct import_ctx *ctx, long line, const char *text,
		const char *fmt, ...)
{
	struct sbuf why = SBUF_INIT;
	va_list ap;
	int rc;

	NOT_RECORDING(ctx);
	va_start(ap, fmt);
	sbuf_vaddf(&why, fmt, ap);
	va_end(ap);
	rc = skip_row(ctx, ctx->nr_tables, line, text, why.buf);
	sbuf_release(&why);
	return rc;
}

/* The table (1-based) of the tables read that line is in, or 0. */
static size_t table_of_line(const struct import_ctx *ctx, long line)
{
	size_t i;

	for (i = ctx->nr_tables; i > 0; i--)
		if (ctx->tables[i - 1].line > 0 &&
		    ctx->tables[i - 1].line <= line)
			return i;
	return 0;
}

/*
 * One metric's rows for one variant and statistic within one table,
 * when the table gives it more than once.
 */
struct repeat {
	int64_t mid;
	char *stat, *metric;
	size_t tseq;		/* the table, 1-based */
	struct sbuf lines;	/* "8, 11": the lines of its rows */
	int64_t *id;		/* its rows in aggregates, in input order */
	size_t nr, alloc;
	int differ;		/* the rows give different figures */
};

struct repeats {
	struct repeat *r;
	size_t nr, alloc;
};

static int same_rows(const struct repeat *a, const struct repeat *b)
{
	return a->mid == b->mid && a->tseq == b->tseq &&
	       !strcmp(a->stat, b->stat) && !strcmp(a->lines.buf, b->lines.buf);
}

/*
 * The rows of one variant's (metric, stat) of the import (st: their id,
 * line, value, stddev and n, in input order), by table: a repeat for each
 * table that has more than one of them.
 */
static int collect_repeats(struct import_ctx *ctx, struct stmt *st,
			   struct repeats *out, int64_t mid, const char *stat,
			   const char *metric)
{
	struct repeat *r;
	size_t first = out->nr, i;
	double v0 = 0, sd0 = 0;
	int64_t n0 = 0;
	int rc;

	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		long line = (long)stmt_column_int64(st, 1);
		size_t t = table_of_line(ctx, line);
		double v = stmt_column_double(st, 2);
		double sd = stmt_column_type(st, 3) == SQLITE_NULL ?
			    -1 : stmt_column_double(st, 3);
		int64_t n = stmt_column_type(st, 4) == SQLITE_NULL ?
			    -1 : stmt_column_int64(st, 4);

		for (i = first; i < out->nr && out->r[i].tseq != t; i++)
			;
		if (i == out->nr) {
			ALLOC_GROW(out->r, out->nr + 1, out->alloc);
			r = &out->r[out->nr++];
			memset(r, 0, sizeof(*r));
			sbuf_init(&r->lines, 0);
			r->mid = mid;
			r->stat = xstrdup(stat);
			r->metric = xstrdup(metric);
			r->tseq = t;
			v0 = v, sd0 = sd, n0 = n;
		}
		r = &out->r[i];
		if (r->nr && (v != v0 || sd != sd0 || n != n0))
			r->differ = 1;
		ALLOC_GROW(r->id, r->nr + 1, r->alloc);
		r->id[r->nr++] = stmt_column_int64(st, 0);
		sbuf_addf(&r->lines, "%s%ld", r->lines.len ? ", " : "", line);
	}
	stmt_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(ctx->db, rc, ctx->path, 0);
}

/*
 * The rows of repeat r (the same metric, statistic and lines for every
 * variant of its table) skipped, once: each line a skipped row with the
 * reason.  0 or -1.
 */
static int skip_repeat(struct import_ctx *ctx, const struct repeat *r)
{
	struct sbuf why = SBUF_INIT;
	const char *p = r->lines.buf;
	int ret = 0;

	sbuf_addf(&why, "metric '%s' (%s) given more than once with "
		  "different values (lines %s): none of them is used",
		  r->metric, r->stat, r->lines.buf);
	while (*p && !ret) {
		long line = strtol(p, (char **)&p, 10);

		if (r->tseq && ctx->tables[r->tseq - 1].rows_read > 0)
			ctx->tables[r->tseq - 1].rows_read--;
		ret = skip_row(ctx, r->tseq, line, r->metric, why.buf);
		p += strspn(p, ", ");
	}
	sbuf_release(&why);
	return ret;
}

/*
 * The repeats' rows deleted (del: by id): all of a row that differs,
 * once said, else all but the first.  0 or -1.
 */
static int drop_repeats(struct import_ctx *ctx, struct repeats *rep,
			struct stmt *del)
{
	size_t i, j, k;
	int rc;

	/* one variant's figures differing drops the row for all */
	for (i = 0; i < rep->nr; i++)
		for (j = 0; j < rep->nr; j++)
			if (rep->r[j].differ && rep->r[i].nr > 1 &&
			    same_rows(&rep->r[i], &rep->r[j]))
				rep->r[i].differ = 1;
	for (i = 0; i < rep->nr; i++) {
		struct repeat *r = &rep->r[i];

		if (r->nr < 2)
			continue;
		for (j = 0; j < i && !same_rows(r, &rep->r[j]); j++)
			;
		if (r->differ && j == i && skip_repeat(ctx, r))
			return -1;
		for (k = r->differ ? 0 : 1; k < r->nr; k++) {
			stmt_bind_int64(del, 1, r->id[k]);
			rc = stmt_step(del);
			stmt_reset(del);
			if (rc != SQLITE_DONE)
				return db_fail(ctx->db, rc, ctx->path, 0);
			ctx->nr_aggregates--;
		}
	}
	return 0;
}

/*
 * A table that gives one metric twice (a row repeated with other
 * figures, by a paste or an edit) leaves no way to tell which is right:
 * every variant's rows of it are dropped, each line a skipped row,
 * rather than one kept by the order of the rows.  The same row given
 * twice with the same figures is one row.  Another table may give the
 * same commit's figures again (a reply quoting the report it answers):
 * that is no repeat.  0 or -1.
 */
static int aggregates_repeated(struct import_ctx *ctx)
{
	static const char *const sql[] = {
		"SELECT a.variant_id, a.metric_id, a.stat, m.name "
		"FROM aggregates a JOIN metrics m ON m.id = a.metric_id "
		"WHERE a.import_id = ?1 "
		"GROUP BY a.variant_id, a.metric_id, a.stat, m.name "
		"HAVING count(*) > 1",
		"SELECT id, coalesce(line, 0), value, stddev, n FROM "
		"aggregates WHERE import_id = ?1 AND variant_id = ?2 AND "
		"metric_id = ?3 AND stat = ?4 ORDER BY id",
		"DELETE FROM aggregates WHERE id = ?1",
	};
	struct stmt *st[ARRAY_SIZE(sql)];
	struct repeats rep = { NULL, 0, 0 };
	size_t i;
	int rc = SQLITE_DONE, ret = -1;

	if (ctx->nr_aggregates < 2)
		return 0;
	for (i = 0; i < ARRAY_SIZE(sql); i++)
		st[i] = db_prepare(ctx->db, sql[i]);
	for (i = 0; i < ARRAY_SIZE(sql); i++)
		if (!st[i])
			goto out;
	/* collected before any is deleted */
	stmt_bind_int64(st[0], 1, ctx->import_id);
	while ((rc = stmt_step(st[0])) == SQLITE_ROW) {
		stmt_bind_int64(st[1], 1, ctx->import_id);
		stmt_bind_int64(st[1], 2, stmt_column_int64(st[0], 0));
		stmt_bind_int64(st[1], 3, stmt_column_int64(st[0], 1));
		stmt_bind_text(st[1], 4, (const char *)
			       stmt_column_text(st[0], 2), -1,
			       SQLITE_TRANSIENT);
		if (collect_repeats(ctx, st[1], &rep,
				    stmt_column_int64(st[0], 1),
				    (const char *)stmt_column_text(st[0], 2),
				    (const char *)stmt_column_text(st[0], 3)))
			goto out;
	}
	if (rc != SQLITE_DONE) {
		db_fail(ctx->db, rc, ctx->path, 0);
		goto out;
	}
	ret = drop_repeats(ctx, &rep, st[2]);
out:
	for (i = 0; i < rep.nr; i++) {
		free(rep.r[i].stat);
		free(rep.r[i].metric);
		free(rep.r[i].id);
		sbuf_release(&rep.r[i].lines);
	}
	free(rep.r);
	for (i = 0; i < ARRAY_SIZE(sql); i++)
		stmt_finalize(st[i]);
	return ret;
}

int db_tables_flush(struct import_ctx *ctx)
{
	struct stmt *st;
	size_t i;
	int rc = SQLITE_DONE;

	NOT_RECORDING(ctx);
	if (aggregates_repeated(ctx))
		return -1;
	if (!ctx->nr_tables)
		return 0;
	st = db_prepare(ctx->db, "INSERT INTO import_tables(import_id, seq, "
			"line, kind, title, columns, rows_read, rows_skipped) "
			"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
	if (!st)
		return -1;
	for (i = 0; i < ctx->nr_tables && rc == SQLITE_DONE; i++) {
		const struct text_table *t = &ctx->tables[i];
		char *title = t->title ? printable(t->title) : NULL;

		stmt_bind_int64(st, 1, ctx->import_id);
		stmt_bind_int64(st, 2, (int64_t)i + 1);
		if (t->line > 0)
			stmt_bind_int64(st, 3, t->line);
		else
			stmt_bind_null(st, 3);
		stmt_bind_text(st, 4, t->kind, -1, SQLITE_TRANSIENT);
		bind_text_or_null(st, 5, title);
		stmt_bind_int(st, 6, t->columns);
		stmt_bind_int64(st, 7, t->rows_read);
		stmt_bind_int64(st, 8, t->rows_skipped);
		rc = stmt_step(st);
		stmt_reset(st);
		free(title);
	}
	stmt_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(ctx->db, rc, ctx->path, 0);
}

static void tables_free(struct import_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nr_tables; i++)
		free(ctx->tables[i].title);
	free(ctx->tables);
	ctx->tables = NULL;
	ctx->nr_tables = ctx->alloc_tables = 0;
}

/* ---- runs ---- */

/*
 * The import's end frees what its runs held: pending samples, values,
 * seen bits, series, and the tables read.
 */
void db_import_end(struct import_ctx *ctx)
{
	ctx->nr_pend = 0;
	values_held_free(ctx);
	free(ctx->seen);
	ctx->seen = NULL;
	ctx->seen_bytes = 0;
	ctx->seen_run = 0;
	series_buf_free(ctx->series);
	ctx->series = NULL;
	ctx->run_id = 0;
	tables_free(ctx);
}

int db_emit_source(struct import_ctx *ctx, const char *member_path)
{
	struct stmt *st;

	NOT_RECORDING(ctx);
	st = ctx->db->st[ST_INS_SOURCE];
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_text(st, 2, member_path, -1, SQLITE_TRANSIENT);
	if (db_step_id(ctx, st, 0, &ctx->source_id))
		return -1;
	return 0;
}

int db_end_run(struct import_ctx *ctx)
{
	int ret = 0;

	NOT_RECORDING(ctx);
	/* the derived samples go in only where the run has none */
	if (db_flush_samples(ctx))
		return -1;
	if (ctx->run_id && ctx->series)
		ret = series_buf_finish(ctx->series, ctx);
	return ret;
}

int db_emit_run(struct import_ctx *ctx, const struct run_desc *rd, long line)
{
	struct stmt *st;
	long iteration = rd->iteration;
	int64_t vid;

	if (ctx->log)
		return emit_log_run(ctx->log, rd, line);
	if (ctx->nested && ctx->run_id)
		return 0;	/* the directory importer's run */
	if (db_end_run(ctx))
		return -1;
	if (emit_variant_id(ctx, rd->testcase, rd->machine, rd->kernel,
			    rd->commit, rd->label, rd->params, rd->nr_params,
			    line, &vid))
		return -1;
	if (iteration < 0) {
		st = ctx->db->st[ST_NEXT_ITER];
		stmt_bind_int64(st, 1, vid);
		if (stmt_step(st) == SQLITE_ROW)
			iteration = stmt_column_int(st, 0);
		stmt_reset(st);
		if (iteration < 0)
			iteration = 0;
	}
	st = ctx->db->st[ST_INS_RUN];
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_int64(st, 2, vid);
	stmt_bind_text(st, 3, or_empty(rd->suite), -1, SQLITE_TRANSIENT);
	stmt_bind_int64(st, 4, iteration);
	db_bind_id(st, 5, rd->start_time);
	db_bind_id(st, 6, ctx->source_id);
	db_bind_id(st, 7, line);
	if (db_step_id(ctx, st, line, &ctx->run_id))
		return -1;
	ctx->seen_new = 1;
	ctx->nr_runs++;
	return 0;
}

int db_resume_run(struct import_ctx *ctx, int64_t run_id)
{
	NOT_RECORDING(ctx);
	if (run_id == ctx->run_id)
		return 0;
	if (db_end_run(ctx))
		return -1;
	ctx->run_id = run_id;
	ctx->seen_new = 0;
	return 0;
}

int db_run_has_metric(struct import_ctx *ctx, int64_t run_id,
		      const char *metric)
{
	struct stmt *st;
	int rc;

	NOT_RECORDING(ctx);
	st = ctx->db->st[ST_HAS_SAMPLE];
	if (db_flush_samples(ctx))
		return -1;
	stmt_bind_int64(st, 1, run_id);
	stmt_bind_text(st, 2, metric, -1, SQLITE_TRANSIENT);
	rc = stmt_step(st);
	stmt_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return db_fail(ctx->db, rc, ctx->path, 0);
}

/* ---- samples ---- */

/* Set metric id's seen bit (growing the bits); 1 if it was set already. */
static int seen_mark(struct import_ctx *ctx, uint64_t id)
{
	unsigned char bit = (unsigned char)(1u << (id % 8));
	int was;

	if (id / 8 >= ctx->seen_bytes) {
		size_t n = (size_t)(id / 8 + 1) * 2;

		ctx->seen = xrealloc(ctx->seen, n);
		memset(ctx->seen + ctx->seen_bytes, 0, n - ctx->seen_bytes);
		ctx->seen_bytes = n;
	}
	was = !!(ctx->seen[id / 8] & bit);
	ctx->seen[id / 8] |= bit;
	return was;
}

/*
 * Make the server run's seen bits those of the current run: empty for a
 * run just made (seen_new), else its rows so far (a run resumed, which
 * costs a query and sends the pending COPY).  0 or -1.
 */
static int seen_load(struct import_ctx *ctx)
{
	struct stmt *st;
	int rc;

	if (ctx->seen)
		memset(ctx->seen, 0, ctx->seen_bytes);
	ctx->seen_run = ctx->run_id;
	if (ctx->seen_new)
		return 0;	/* made by this import just now: empty */
	st = db_prepare(ctx->db, "SELECT metric_id FROM samples WHERE "
				 "run_id = ?");
	if (!st)
		return -1;
	stmt_bind_int64(st, 1, ctx->run_id);
	while ((rc = stmt_step(st)) == SQLITE_ROW)
		seen_mark(ctx, (uint64_t)stmt_column_int64(st, 0));
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(ctx->db, rc, ctx->path, 0);
	return 0;
}

/* 1 if the current run has a sample of metric id already (a server's). */
static int seen_before(struct import_ctx *ctx, int64_t id)
{
	if (ctx->seen_run != ctx->run_id && seen_load(ctx))
		return -1;
	return seen_mark(ctx, (uint64_t)id);
}

/* The k samples at p as the parameters of a samples INSERT of k rows. */
static void bind_samples(struct stmt *st, const struct pending_sample *p,
			 int k)
{
	int i;

	for (i = 0; i < k; i++) {
		stmt_bind_int64(st, 5 * i + 1, p[i].run_id);
		stmt_bind_int64(st, 5 * i + 2, p[i].metric_id);
		stmt_bind_double(st, 5 * i + 3, p[i].value);
		db_bind_id(st, 5 * i + 4, p[i].line);
		db_bind_id(st, 5 * i + 5, p[i].source_id);
	}
}

/*
 * One pending sample by the one-row statement: the message of a metric
 * given twice names it and its line.
 */
static int insert_sample(struct import_ctx *ctx,
			 const struct pending_sample *p, const char *metric)
{
	struct stmt *st = ctx->db->st[ST_INS_SAMPLE];
	char *name = NULL;
	int rc;

	bind_samples(st, p, 1);
	rc = stmt_step(st);
	stmt_reset(st);
	if (rc == SQLITE_DONE) {
		if (!ctx->db->pg)
			values_held_add(ctx, p->run_id, p->metric_id, p->value,
					0);
		return 0;
	}
	if (rc != SQLITE_CONSTRAINT_PRIMARYKEY)
		return db_fail(ctx->db, rc, ctx->path, p->line);
	if (!metric) {
		/* from the batch: its name from the table */
		struct stmt *q = db_prepare(ctx->db, "SELECT name FROM metrics "
						     "WHERE id = ?");

		if (q) {
			stmt_bind_int64(q, 1, p->metric_id);
			if (stmt_step(q) == SQLITE_ROW)
				name = xstrdup((const char *)
					       stmt_column_text(q, 0));
			stmt_finalize(q);
		}
	}
	rc = error("%s:%ld: metric '%s' given twice for one run", ctx->path,
		   p->line, metric ? metric : name ? name : "?");
	free(name);
	return rc;
}

/*
 * The k pending samples at p by one statement of k rows: 0; 1 when a
 * constraint failed, which SQLite undoes by the statement (then one row
 * at a time finds the row, a metric twice in a run, and says where); or
 * -1 after error() for anything else (a full disk may have ended the
 * transaction: no row may go in after it).
 */
static int insert_samples(struct import_ctx *ctx,
			  const struct pending_sample *p, int k,
			  enum db_stmt which)
{
	struct stmt *st = db_stmt(ctx->db, which);
	int i, rc;

	if (!st)
		return -1;
	bind_samples(st, p, k);
	rc = stmt_step(st);
	stmt_reset(st);
	if ((rc & 0xff) == SQLITE_CONSTRAINT)
		return 1;
	if (rc != SQLITE_DONE)
		return db_fail(ctx->db, rc, ctx->path, p[0].line);
	for (i = 0; i < k; i++)
		values_held_add(ctx, p[i].run_id, p[i].metric_id, p[i].value,
				0);
	return 0;
}

int db_flush_samples(struct import_ctx *ctx)
{
	static const struct {
		int k;
		enum db_stmt st;
	} sizes[] = {
		{ SAMPLE_BATCH, ST_INS_SAMPLES }, { 8, ST_INS_SAMPLES8 },
		{ 4, ST_INS_SAMPLES4 },
	};
	const struct pending_sample *p = ctx->pend;
	int n = ctx->nr_pend, rc;
	size_t s;

	NOT_RECORDING(ctx);
	ctx->nr_pend = 0;
	/* the largest statements that fit, then a row at a time */
	for (s = 0; s < ARRAY_SIZE(sizes); s++)
		while (n >= sizes[s].k) {
			rc = insert_samples(ctx, p, sizes[s].k, sizes[s].st);
			if (rc < 0)
				return -1;
			if (rc > 0)
				goto one_by_one;
			p += sizes[s].k;
			n -= sizes[s].k;
		}
one_by_one:
	for (; n > 0; p++, n--)
		if (insert_sample(ctx, p, NULL))
			return -1;
	return 0;
}

int db_emit_sample(struct import_ctx *ctx, const char *metric,
		   const char *unit, double value, long line)
{
	struct pending_sample *p;
	double factor = 1;
	int64_t id;
	int rc;

	if (ctx->log)
		return emit_log_sample(ctx->log, metric, unit, value, line);
	if (!ctx->run_id)
		BUG("db_emit_sample() before db_emit_run()");
	if (!isfinite(value))
		return error("%s:%ld: value of '%s' is not a finite number",
			     ctx->path, line, metric);
	if (emit_metric_id(ctx, metric, unit, MK_UNKNOWN, line, &id) ||
	    (unit && emit_unit_factor(ctx, id, metric, unit, line, &factor)))
		return -1;
	value *= factor;
	if (!ctx->db->pg) {
		p = &ctx->pend[ctx->nr_pend++];
		*p = (struct pending_sample){ ctx->run_id, id, ctx->source_id,
					      line, value };
		ctx->nr_samples++;
		if (ctx->nr_pend == SAMPLE_BATCH)
			return db_flush_samples(ctx);
		return 0;
	}
	{
		rc = seen_before(ctx, id);
		if (rc < 0)
			return -1;
		if (rc)
			return error("%s:%ld: metric '%s' given twice for one "
				     "run", ctx->path, line, metric);
	}
	{
		struct pending_sample one = { ctx->run_id, id, ctx->source_id,
					      line, value };

		if (insert_sample(ctx, &one, metric))
			return -1;
	}
	ctx->nr_samples++;
	return 0;
}

/* ---- series ---- */

int db_emit_series_id(struct import_ctx *ctx, int64_t id, double t,
		      double value, long line)
{
	NOT_RECORDING(ctx);
	if (!ctx->run_id)
		BUG("db_emit_series() before db_emit_run()");
	if (!isfinite(value) || !isfinite(t))
		return error("%s:%ld: a series point that is not a finite "
			     "number", ctx->path, line);
	if (!ctx->series)
		ctx->series = series_buf_new();
	if (series_buf_add(ctx->series, ctx, id, t, value, line))
		return -1;
	ctx->nr_series++;
	return 0;
}

void db_series_async(struct import_ctx *ctx)
{
	NOT_RECORDING(ctx);
	if (!ctx->run_id)
		BUG("db_series_async() before db_emit_run()");
	if (!ctx->series)
		ctx->series = series_buf_new();
	series_buf_async(ctx->series, ctx);
}

int db_series_sync(struct import_ctx *ctx)
{
	NOT_RECORDING(ctx);
	return series_buf_sync(ctx->series);
}

int db_series_async_end(struct import_ctx *ctx)
{
	NOT_RECORDING(ctx);
	return series_buf_sync_end(ctx->series);
}

int db_emit_series(struct import_ctx *ctx, const char *metric,
		   const char *unit, enum metric_kind kind, double t,
		   double value, long line)
{
	double factor = 1;
	int64_t id;

	if (ctx->log)
		return emit_log_series(ctx->log, metric, unit, kind, t, value,
				       line);
	if (!isfinite(value) || !isfinite(t))
		return error("%s:%ld: value of '%s' is not a finite number",
			     ctx->path, line, metric);
	if (emit_metric_id(ctx, metric, unit, kind, line, &id) ||
	    (unit && emit_unit_factor(ctx, id, metric, unit, line, &factor)))
		return -1;
	return db_emit_series_id(ctx, id, t, value * factor, line);
}

/* ---- histograms ---- */

int db_emit_histogram(struct import_ctx *ctx, const char *metric,
		      const char *unit, const double *value,
		      const double *count, size_t n, long line)
{
	struct db *db = ctx->db;
	struct stmt *st;
	unsigned char *blob;
	double factor = 1;
	int64_t id;
	size_t i;
	int ret;

	if (ctx->log)
		return emit_log_histogram(ctx->log, metric, unit, value, count,
					  n, line);
	if (!ctx->run_id)
		BUG("db_emit_histogram() without a run");
	if (emit_metric_id(ctx, metric, unit, MK_UNKNOWN, line, &id) ||
	    (unit && emit_unit_factor(ctx, id, metric, unit, line, &factor)))
		return -1;
	st = db_stmt(db, ST_INS_HIST);
	if (!st)
		return -1;
	blob = xmalloc(n ? n * SERIES_RAW_POINT : 1);
	for (i = 0; i < n; i++)
		/* little-endian doubles, as the series' points */
		series_put_point(blob, i, value[i] * factor, count[i]);
	stmt_bind_int64(st, 1, ctx->run_id);
	stmt_bind_int64(st, 2, id);
	stmt_bind_int64(st, 3, (int64_t)n);
	stmt_bind_blob(st, 4, blob, (int)(n * SERIES_RAW_POINT),
		       SQLITE_TRANSIENT);
	db_bind_id(st, 5, ctx->source_id);
	stmt_bind_int64(st, 6, line);
	ret = db_step_done(ctx, st, line);
	free(blob);
	return ret;
}

/* ---- aggregates ---- */

/* Is a's standard deviation a percentage of its value? */
static int sd_relative(const struct agg_desc *a)
{
	return a->stddev_kind && !strcmp(a->stddev_kind, "relative");
}

/* Can a go in as it is?  0, or -1 after error() naming what cannot. */
static int check_aggregate(struct import_ctx *ctx, const struct agg_desc *a,
			   long line)
{
	double sd = a->stddev;

	if (!isfinite(a->value))
		return error("%s:%ld: value of '%s' is not a finite number",
			     ctx->path, line, a->metric);
	if (isfinite(sd) && sd < 0)
		return error("%s:%ld: a negative standard deviation (%g) for "
			     "'%s'", ctx->path, line, sd, a->metric);
	if (a->value < 0 && a->stat && !strcasecmp(a->stat, "Stddev"))
		return error("%s:%ld: a negative standard deviation (%g) for "
			     "'%s'", ctx->path, line, a->value, a->metric);
	if (isfinite(sd) && sd_relative(a) && a->value == 0 && sd != 0)
		return error("%s:%ld: a relative standard deviation (%g%%) of "
			     "a zero mean for '%s'", ctx->path, line, sd,
			     a->metric);
	if (a->n == 0)
		return error("%s:%ld: n = 0 for '%s': a summary of no runs",
			     ctx->path, line, a->metric);
	if (emit_check_text(ctx, line, "statistic name", a->stat) ||
	    emit_check_text(ctx, line, "marker", a->marker))
		return -1;
	return 0;
}

/*
 * a's standard deviation as ST_INS_AGG's parameters 7 to 9: stored
 * absolute (a relative one converted) in the metric's unit (times
 * factor), with its kind and the figure as the source gave it.
 */
static void bind_agg_stddev(struct stmt *st, const struct agg_desc *a,
			    double factor)
{
	double sd = a->stddev;

	if (isfinite(sd) && sd_relative(a))
		stmt_bind_double(st, 7, fabs(a->value * factor) * sd / 100.0);
	else if (isfinite(sd))
		stmt_bind_double(st, 7, sd * factor);
	else
		stmt_bind_null(st, 7);
	if (isfinite(sd)) {
		bind_text_or_null(st, 8, a->stddev_kind);
		stmt_bind_double(st, 9, sd);
	} else if (a->stddev_at_most_pct > 0) {
		stmt_bind_text(st, 8, "at-most-relative", -1, SQLITE_STATIC);
		stmt_bind_double(st, 9, a->stddev_at_most_pct);
	} else {
		stmt_bind_null(st, 8);
		stmt_bind_null(st, 9);
	}
}

int db_emit_aggregate(struct import_ctx *ctx, const struct agg_desc *a,
		      long line)
{
	struct stmt *st;
	double factor = 1;
	int64_t id, vid;

	NOT_RECORDING(ctx);
	st = ctx->db->st[ST_INS_AGG];
	if (check_aggregate(ctx, a, line) ||
	    emit_metric_id(ctx, a->metric, a->unit, MK_UNKNOWN, line, &id) ||
	    (a->unit && emit_unit_factor(ctx, id, a->metric, a->unit, line,
					 &factor)) ||
	    emit_variant_id(ctx, a->testcase, a->machine, a->kernel,
			    a->commit, a->label, a->params, a->nr_params, line,
			    &vid))
		return -1;
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_int64(st, 2, vid);
	stmt_bind_text(st, 3, or_empty(a->suite), -1, SQLITE_TRANSIENT);
	stmt_bind_int64(st, 4, id);
	stmt_bind_text(st, 5, a->stat, -1, SQLITE_TRANSIENT);
	stmt_bind_double(st, 6, a->value * factor);
	bind_agg_stddev(st, a, factor);
	if (a->n >= 0)
		stmt_bind_int64(st, 10, a->n);
	else
		stmt_bind_null(st, 10);
	bind_text_or_null(st, 11, a->marker);
	db_bind_id(st, 12, ctx->source_id);
	db_bind_id(st, 13, line);
	if (a->change_base && a->change_source) {
		stmt_bind_text(st, 14, a->change_source, -1,
			       SQLITE_TRANSIENT);
		stmt_bind_text(st, 15, a->change_base, -1, SQLITE_TRANSIENT);
	} else {
		stmt_bind_null(st, 14);
		stmt_bind_null(st, 15);
	}
	if (db_step_done(ctx, st, line))
		return -1;
	ctx->nr_aggregates++;
	return 0;
}
