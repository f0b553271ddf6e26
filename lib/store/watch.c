/*
 * watch.c - the state of `perfsift watch` (watch.h): tables watch_series
 * and watch_points, read and replaced a series at a time.
 */
#include "core/compat.h"
#include "core/xalloc.h"
#include "store/stmt.h"
#include "store/watch.h"

#include <math.h>

#define KEY_WHERE " WHERE metric = ?1 AND testcase = ?2 AND params = ?3" \
		  " AND machine = ?4"

static void bind_key(struct stmt *st, const struct watch_key *k)
{
	stmt_bind_text(st, 1, k->metric, -1, SQLITE_STATIC);
	stmt_bind_text(st, 2, k->testcase, -1, SQLITE_STATIC);
	stmt_bind_text(st, 3, k->params, -1, SQLITE_STATIC);
	stmt_bind_text(st, 4, k->machine, -1, SQLITE_STATIC);
}

void watch_state_release(struct watch_state *st)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		free(st->pts[i].sha);
	free(st->pts);
	memset(st, 0, sizeof(*st));
}

int watch_load(struct db *db, const struct watch_key *k,
	       struct watch_state *st)
{
	struct stmt *s = db_prepare(db, "SELECT runs FROM watch_series"
				    KEY_WHERE);
	struct stmt *p = db_prepare(db, "SELECT commit_sha, idx, p FROM "
				    "watch_points" KEY_WHERE " ORDER BY seq");
	size_t alloc = 0;
	int rc, ret = -1;

	memset(st, 0, sizeof(*st));
	if (!s || !p)
		goto out;
	bind_key(s, k);
	rc = stmt_step(s);
	if (rc == SQLITE_ROW) {
		st->known = 1;
		st->runs = (long)stmt_column_int64(s, 0);
	} else if (rc != SQLITE_DONE) {
		ret = db_fail(db, rc, db->path, 0);
		goto out;
	}
	bind_key(p, k);
	while ((rc = stmt_step(p)) == SQLITE_ROW) {
		struct watch_point *w;

		ALLOC_GROW(st->pts, st->nr + 1, alloc);
		w = &st->pts[st->nr++];
		w->sha = xstrdup((const char *)stmt_column_text(p, 0));
		w->index = (long)stmt_column_int64(p, 1);
		w->p = stmt_column_type(p, 2) == SQLITE_NULL ? NAN :
		       stmt_column_double(p, 2);
	}
	if (rc != SQLITE_DONE) {
		ret = db_fail(db, rc, db->path, 0);
		goto out;
	}
	ret = 0;
out:
	stmt_finalize(s);
	stmt_finalize(p);
	if (ret)
		watch_state_release(st);
	return ret;
}

static int step_done(struct db *db, struct stmt *st)
{
	int rc = stmt_step(st);

	stmt_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc, db->path, 0);
}

int watch_store(struct db *db, const struct watch_key *k, long runs,
		const struct watch_point *pts, size_t nr)
{
	struct stmt *del_s = db_prepare(db, "DELETE FROM watch_series"
					KEY_WHERE);
	struct stmt *del_p = db_prepare(db, "DELETE FROM watch_points"
					KEY_WHERE);
	struct stmt *ins_s = db_prepare(db, "INSERT INTO watch_series(metric,"
					" testcase, params, machine, runs) "
					"VALUES (?1, ?2, ?3, ?4, ?5)");
	struct stmt *ins_p = db_prepare(db, "INSERT INTO watch_points(metric,"
					" testcase, params, machine, seq, "
					"commit_sha, idx, p) VALUES (?1, ?2, "
					"?3, ?4, ?5, ?6, ?7, ?8)");
	size_t i;
	int ret = -1;

	if (!del_s || !del_p || !ins_s || !ins_p)
		goto out;
	bind_key(del_s, k);
	bind_key(del_p, k);
	bind_key(ins_s, k);
	stmt_bind_int64(ins_s, 5, runs);
	if (step_done(db, del_s) || step_done(db, del_p) ||
	    step_done(db, ins_s))
		goto out;
	bind_key(ins_p, k);
	for (i = 0; i < nr; i++) {
		stmt_bind_int64(ins_p, 5, (int64_t)i + 1);
		stmt_bind_text(ins_p, 6, pts[i].sha, -1, SQLITE_STATIC);
		stmt_bind_int64(ins_p, 7, pts[i].index);
		if (isfinite(pts[i].p))
			stmt_bind_double(ins_p, 8, pts[i].p);
		else
			stmt_bind_null(ins_p, 8);
		if (step_done(db, ins_p))
			goto out;
	}
	ret = 0;
out:
	stmt_finalize(del_s);
	stmt_finalize(del_p);
	stmt_finalize(ins_s);
	stmt_finalize(ins_p);
	return ret;
}
