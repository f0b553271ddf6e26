/*
 * run_values: the packed copy of each run's samples (values.h).
 *
 * A run's blob is written in place through SQLite's incremental blob
 * I/O: a zeroblob of the run's size first, then its samples, read in
 * primary-key (metric id) order, in pieces of PACK_BUF bytes.  Memory
 * stays that piece whatever the size of the run.
 */
#include "core/compat.h"
#include "store/values.h"
#include "core/err.h"

#define PACK_BUF (RUN_VALUE_SIZE * 4096)

static int fail(struct db *db)
{
	return db_fail(db, db_errcode(db), db->path, 0);
}

/* The entry of the current row of rows (metric_id, value, derived) at p. */
static void put_entry(unsigned char *p, struct stmt *rows)
{
	uint32_t word = (uint32_t)stmt_column_int64(rows, 0);

	if (stmt_column_int(rows, 2))
		word |= RUN_VALUE_DERIVED;
	le_put_u32(p, word);
	le_put_double(p + 4, stmt_column_double(rows, 1));
}

/*
 * On a server: the run's blob made in memory and sent as one bytea
 * parameter (at most RUN_VALUES_MAX_SERVER samples, 48 MB).
 */
static int pack_run_server(struct db *db, int64_t run, int64_t n,
			   struct stmt *ins, struct stmt *rows)
{
	unsigned char *blob = xmalloc((size_t)n * RUN_VALUE_SIZE);
	int64_t i = 0;
	int rc;

	stmt_bind_int64(rows, 1, run);
	while ((rc = stmt_step(rows)) == SQLITE_ROW) {
		if (i >= n)
			BUG("run %" PRId64 " has more samples than counted", run);
		put_entry(blob + i++ * RUN_VALUE_SIZE, rows);
	}
	stmt_reset(rows);
	if (rc != SQLITE_DONE) {
		free(blob);
		return fail(db);
	}
	if (i != n)
		BUG("run %" PRId64 ": %" PRId64 " samples packed of %" PRId64,
		    run, i, n);
	stmt_bind_int64(ins, 1, run);
	stmt_bind_int64(ins, 2, n);
	stmt_bind_blob(ins, 3, blob, (int)(n * RUN_VALUE_SIZE),
		       SQLITE_STATIC);
	rc = stmt_step(ins);
	stmt_reset(ins);
	free(blob);
	return rc == SQLITE_DONE ? 0 : fail(db);
}

/*
 * Pack one run of n samples (n > 0) from rows, through buf (PACK_BUF
 * bytes, the caller's: one for every run of an import).
 */
static int pack_run(struct db *db, int64_t run, int64_t n,
		    struct stmt *ins, struct stmt *rows, unsigned char *buf)
{
	sqlite3_blob *blob = NULL;
	size_t used = 0;
	int64_t written = 0;
	int rc, ret = -1;

	stmt_bind_int64(ins, 1, run);
	stmt_bind_int64(ins, 2, n);
	sqlite3_bind_zeroblob64(ins->sq, 3, (sqlite3_uint64)n * RUN_VALUE_SIZE);
	rc = stmt_step(ins);
	stmt_reset(ins);
	if (rc != SQLITE_DONE)
		return fail(db);
	if (sqlite3_blob_open(db->sq, "main", "run_values", "data", run, 1,
			      &blob) != SQLITE_OK)
		return fail(db);
	stmt_bind_int64(rows, 1, run);
	while ((rc = stmt_step(rows)) == SQLITE_ROW) {
		if (written + (int64_t)(used / RUN_VALUE_SIZE) >= n)
			BUG("run %" PRId64 " has more samples than counted", run);
		put_entry(buf + used, rows);
		used += RUN_VALUE_SIZE;
		if (used == PACK_BUF) {
			if (sqlite3_blob_write(blob, buf, (int)used,
					       (int)(written * RUN_VALUE_SIZE)))
				goto fail_db;
			written += (int64_t)(used / RUN_VALUE_SIZE);
			used = 0;
		}
	}
	if (rc != SQLITE_DONE)
		goto fail_db;
	if (used && sqlite3_blob_write(blob, buf, (int)used,
				       (int)(written * RUN_VALUE_SIZE)))
		goto fail_db;
	written += (int64_t)(used / RUN_VALUE_SIZE);
	if (written != n)
		BUG("run %" PRId64 ": %" PRId64 " samples packed of %" PRId64,
		    run, written, n);
	ret = 0;
	goto out;
fail_db:
	ret = fail(db);
out:
	stmt_reset(rows);
	sqlite3_blob_close(blob);
	return ret;
}

int db_pack_runs(struct db *db, int64_t import_id)
{
	struct stmt *runs, *ins, *rows, *st;
	unsigned char *buf = NULL;
	int64_t max_id = 0;
	int rc, ret = -1;

	/* ids past 31 bits cannot be packed: every run reads its rows */
	st = db_stmt(db, ST_MAX_METRIC);
	if (!st)
		return -1;
	if (stmt_step(st) == SQLITE_ROW)
		max_id = stmt_column_int64(st, 0);
	stmt_reset(st);
	if (max_id >= (int64_t)RUN_VALUE_DERIVED)
		return 0;
	/* an import's: the statements kept with the db; every run: once */
	runs = import_id < 0 ? db_prepare(db, "SELECT r.id, (SELECT "
					  "count(*) FROM samples s WHERE "
					  "s.run_id = r.id) FROM runs r") :
			       db_stmt(db, ST_PACK_LIST);
	ins = db_stmt(db, ST_PACK_INS);
	rows = db_stmt(db, ST_PACK_ROWS);
	if (!runs || !ins || !rows)
		goto out;
	if (import_id >= 0)
		stmt_bind_int64(runs, 1, import_id);
	buf = xmalloc(PACK_BUF);
	while ((rc = stmt_step(runs)) == SQLITE_ROW) {
		int64_t n = stmt_column_int64(runs, 1);

		/*
		 * a blob past SQLite's 10^9 bytes, or one a server would
		 * get in one piece past 48 MB: the run keeps its rows
		 */
		if (n <= 0 || n > (db->pg ? RUN_VALUES_MAX_SERVER :
				   RUN_VALUES_MAX))
			continue;
		if (db->pg ? pack_run_server(db, stmt_column_int64(runs, 0),
					     n, ins, rows) :
			     pack_run(db, stmt_column_int64(runs, 0), n, ins,
				      rows, buf))
			goto out;
	}
	if (rc != SQLITE_DONE) {
		fail(db);
		goto out;
	}
	ret = 0;
out:
	free(buf);
	if (import_id < 0)
		stmt_finalize(runs);
	else if (runs)
		stmt_reset(runs);
	return ret;
}

/* ---- an import's values, held as they are emitted ---- */

struct held_value {
	uint32_t word;		/* the metric id, RUN_VALUE_DERIVED */
	double value;
};

struct held_run {
	int64_t run_id;
	struct held_value *v;	/* while held: in emit order */
	size_t n, alloc;
	int64_t total;		/* values the run has in samples */
	enum { HELD, WRITTEN, STALE } state;	/* STALE: a value came after
						 * its blob was written */
};

struct values_held {
	struct held_run *run;	/* in the order the runs got values */
	size_t nr, alloc;
	size_t *slot;		/* run_id -> index + 1 (0: empty), open
				 * addressing: a CSV of one value per run
				 * has as many runs as rows */
	size_t nslot;		/* a power of two, at least 2 * nr */
	size_t cur;		/* the run last added to */
	size_t bytes;		/* of values held */
	int wide;		/* a metric id past 31 bits: no run_values */
	int failed;		/* writing the held runs failed (said) */
};

static int cmp_held(const void *a, const void *b)
{
	uint32_t x = ((const struct held_value *)a)->word & ~RUN_VALUE_DERIVED;
	uint32_t y = ((const struct held_value *)b)->word & ~RUN_VALUE_DERIVED;

	return (x > y) - (x < y);
}

/* The run's blob from its held values, which it then frees. */
static int write_held(struct db *db, struct held_run *r, struct stmt *ins)
{
	unsigned char *blob;
	size_t i;
	int rc;

	r->state = WRITTEN;
	if (!r->n)
		return 0;
	/* usually emitted in id order already */
	for (i = 1; i < r->n && cmp_held(&r->v[i - 1], &r->v[i]) < 0; i++)
		;
	if (i < r->n)
		qsort(r->v, r->n, sizeof(*r->v), cmp_held);
	blob = xmalloc(r->n * RUN_VALUE_SIZE);
	for (i = 0; i < r->n; i++) {
		le_put_u32(blob + i * RUN_VALUE_SIZE, r->v[i].word);
		le_put_double(blob + i * RUN_VALUE_SIZE + 4, r->v[i].value);
	}
	stmt_bind_int64(ins, 1, r->run_id);
	stmt_bind_int64(ins, 2, (int64_t)r->n);
	stmt_bind_blob(ins, 3, blob, (int)(r->n * RUN_VALUE_SIZE),
		       SQLITE_STATIC);
	rc = stmt_step(ins);
	stmt_reset(ins);
	free(blob);
	free(r->v);
	r->v = NULL;
	r->n = r->alloc = 0;
	return rc == SQLITE_DONE ? 0 : fail(db);
}

/*
 * Write every run still held but run skip (or none: -1).  Nothing at
 * all when a metric id of the database passed 31 bits (db_pack_runs()
 * does the same).
 */
static int write_all_held(struct db *db, struct values_held *h,
			  size_t skip)
{
	struct stmt *st, *ins;
	size_t i;

	if (!h->wide) {
		st = db_stmt(db, ST_MAX_METRIC);
		if (!st)
			return -1;
		if (stmt_step(st) == SQLITE_ROW &&
		    stmt_column_int64(st, 0) >= (int64_t)RUN_VALUE_DERIVED)
			h->wide = 1;
		stmt_reset(st);
	}
	ins = db_stmt(db, ST_PACK_INS);
	if (!ins)
		return -1;
	for (i = 0; i < h->nr; i++) {
		struct held_run *r = &h->run[i];

		if (r->state != HELD || i == skip)
			continue;
		h->bytes -= r->alloc * sizeof(*r->v);
		if (h->wide) {
			r->state = WRITTEN;
			free(r->v);
			r->v = NULL;
			r->n = r->alloc = 0;
		} else if (write_held(db, r, ins)) {
			return -1;
		}
	}
	return 0;
}

static size_t held_hash(int64_t run_id)
{
	uint64_t x = (uint64_t)run_id * 0x9e3779b97f4a7c15ull;

	return (size_t)(x ^ (x >> 29));
}

/* The slot of run_id: its index + 1, or the empty slot it would take. */
static size_t *held_slot(struct values_held *h, int64_t run_id)
{
	size_t mask, i;

	if (!h->nslot) {
		h->nslot = 64;
		h->slot = xcalloc(h->nslot, sizeof(*h->slot));
	}
	mask = h->nslot - 1;
	for (i = held_hash(run_id) & mask; h->slot[i]; i = (i + 1) & mask)
		if (h->run[h->slot[i] - 1].run_id == run_id)
			break;
	return &h->slot[i];
}

/* Keep the table at most half full: rehash every run into twice the slots. */
static void held_slot_grow(struct values_held *h)
{
	size_t i;

	if (h->nr * 2 <= h->nslot)
		return;
	free(h->slot);
	h->nslot *= 2;
	h->slot = xcalloc(h->nslot, sizeof(*h->slot));
	for (i = 0; i < h->nr; i++)
		*held_slot(h, h->run[i].run_id) = i + 1;
}

void values_held_add(struct import_ctx *ctx, int64_t run_id,
		     int64_t metric_id, double value, int derived)
{
	struct values_held *h = ctx->held;
	struct held_run *r;
	size_t i;

	if (!h)
		h = ctx->held = xcalloc(1, sizeof(*h));
	if (h->failed)
		return;
	if (metric_id < 0 || metric_id >= (int64_t)RUN_VALUE_DERIVED)
		h->wide = 1;
	r = h->nr ? &h->run[h->cur] : NULL;
	if (!r || r->run_id != run_id) {
		/* a run resumed (CSV), or a new one */
		size_t *slot = held_slot(h, run_id);

		if (!*slot) {
			ALLOC_GROW(h->run, h->nr + 1, h->alloc);
			i = h->nr++;
			memset(&h->run[i], 0, sizeof(h->run[i]));
			h->run[i].run_id = run_id;
			*slot = i + 1;
			held_slot_grow(h);	/* slot is stale after it */
		} else {
			i = *slot - 1;
		}
		h->cur = i;
		r = &h->run[i];
	}
	r->total++;
	if (r->state != HELD) {
		r->state = STALE;
		return;
	}
	if (r->n == r->alloc) {
		/* bytes counts what is allocated: many small runs hold more
		 * than their values */
		h->bytes -= r->alloc * sizeof(*r->v);
		ALLOC_GROW(r->v, r->n + 1, r->alloc);
		h->bytes += r->alloc * sizeof(*r->v);
	}
	r->v[r->n].word = (uint32_t)metric_id |
			  (derived ? RUN_VALUE_DERIVED : 0);
	r->v[r->n].value = value;
	r->n++;
	/*
	 * Too much held: the other runs are written first (the current one
	 * usually goes on), then this one if it alone is too much.  An
	 * error here was said, and fails db_pack_import().
	 */
	if (h->bytes > VALUES_HELD_MAX &&
	    (write_all_held(ctx->db, h, h->cur) ||
	     (h->bytes > VALUES_HELD_MAX &&
	      write_all_held(ctx->db, h, (size_t)-1))))
		h->failed = 1;
}

int db_pack_import(struct import_ctx *ctx)
{
	struct values_held *h = ctx->held;
	struct db *db = ctx->db;
	struct stmt *ins, *rows, *del;
	unsigned char *buf = NULL;
	size_t i;
	int ret = -1;

	if (db->pg)
		return db_pack_runs(db, ctx->import_id);
	if (db_flush_samples(ctx))
		return -1;
	h = ctx->held;
	if (!h)
		return db_pack_runs(db, ctx->import_id);
	if (h->failed || write_all_held(db, h, (size_t)-1))
		return -1;
	if (h->wide)
		return 0;
	/* the runs that got values after their blob: from the table */
	ins = db_stmt(db, ST_PACK_INS);
	rows = db_stmt(db, ST_PACK_ROWS);
	del = db_stmt(db, ST_PACK_DEL);
	if (!ins || !rows || !del)
		return -1;
	for (i = 0; i < h->nr; i++) {
		struct held_run *r = &h->run[i];

		if (r->state != STALE)
			continue;
		if (r->total > RUN_VALUES_MAX) {
			stmt_bind_int64(del, 1, r->run_id);
			if (stmt_step(del) != SQLITE_DONE) {
				stmt_reset(del);
				fail(db);
				goto out;
			}
			stmt_reset(del);
			continue;
		}
		if (!buf)
			buf = xmalloc(PACK_BUF);
		if (pack_run(db, r->run_id, r->total, ins, rows, buf))
			goto out;
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

void values_held_free(struct import_ctx *ctx)
{
	struct values_held *h = ctx->held;
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nr; i++)
		free(h->run[i].v);
	free(h->run);
	free(h->slot);
	free(h);
	ctx->held = NULL;
}
