/*
 * The variants and the metrics that the rows of a run name (see
 * emit-int.h): a variant's identity from the input and the overrides,
 * its commit prefix resolved, merges the overrides would make refused;
 * a metric's id with its unit, kind and state.  Both are cached per
 * database, within DB_CACHE_MAX.
 */
#include "core/compat.h"
#include "store/emit-int.h"
#include "core/sbuf.h"
#include <ctype.h>

/* ---- params ---- */

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/*
 * Merge file params with override params (overrides win) into a sorted
 * array without duplicate keys; later duplicates win.  The array is new
 * (caller frees); strings stay borrowed.
 */
static struct kv *params_merge(const struct kv *a, size_t na,
			       const struct kv *b, size_t nb, size_t *nr_out)
{
	struct kv *all = xmalloc((na + nb + 1) * sizeof(*all));
	size_t i, n = 0, out = 0;

	for (i = 0; i < na; i++)
		all[n++] = a[i];
	for (i = 0; i < nb; i++)
		all[n++] = b[i];
	/* stable: mergesort-like via insertion, n is small */
	for (i = 1; i < n; i++) {
		struct kv t = all[i];
		size_t j = i;

		while (j > 0 && kv_cmp(&all[j - 1], &t) > 0) {
			all[j] = all[j - 1];
			j--;
		}
		all[j] = t;
	}
	for (i = 0; i < n; i++) {
		if (out && !strcmp(all[out - 1].key, all[i].key))
			all[out - 1] = all[i];	/* later wins */
		else
			all[out++] = all[i];
	}
	*nr_out = out;
	return all;
}

static void canonical_into(struct sbuf *sb, const struct kv *p, size_t n)
{
	size_t i;

	/* "k=v,k=v": no printf, once per run of every import */
	for (i = 0; i < n; i++) {
		if (i)
			sbuf_addch(sb, ',');
		sbuf_addstr(sb, p[i].key);
		sbuf_addch(sb, '=');
		sbuf_addstr(sb, p[i].value);
	}
}

/* strings, each followed by the byte sep */
static void add_fields(struct sbuf *sb, char sep, const char *const *s,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sbuf_addstr(sb, s[i] ? s[i] : "");
		sbuf_addch(sb, sep);
	}
}

char *params_canonical(const struct kv *params, size_t nr)
{
	struct sbuf sb = SBUF_INIT;
	size_t n;
	struct kv *m = params_merge(params, nr, NULL, 0, &n);

	canonical_into(&sb, m, n);
	free(m);
	return sbuf_detach(&sb, NULL);
}

/* ---- variants ---- */

/* Pick the override if given, else what the file said. */
static const char *pick(const char *ovr, const char *file)
{
	return ovr ? ovr : file;
}

static int is_hex_n(const char *s, size_t min, size_t max)
{
	size_t n = strlen(s), i;

	if (n < min || n > max)
		return 0;
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* The hex digits of a full SHA-1, and the fewest a prefix of one has. */
#define SHA1_HEX 40
#define COMMIT_PREFIX_MIN 7

/*
 * A commit given as a prefix of 7..39 hex digits (robot emails give 10)
 * becomes the one full sha the database knows (recorded commits first,
 * then the commits of variants), stays as given when none is known, and
 * is an error naming the candidates when several are.  *full is new or
 * NULL (keep the text).  Returns 0 or -1 after error().
 */
static int resolve_commit(struct import_ctx *ctx, const char *commit,
			  long line, char **full)
{
	struct stmt *st;
	char **cand = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0;

	*full = NULL;
	if (!is_hex_n(commit, COMMIT_PREFIX_MIN, SHA1_HEX - 1))
		return 0;
	st = db_stmt(ctx->db, ST_RESOLVE_COMMIT);
	if (!st)
		return -1;
	stmt_bind_text(st, 1, commit, -1, SQLITE_TRANSIENT);
	while (stmt_step(st) == SQLITE_ROW) {
		ALLOC_GROW(cand, nr + 1, alloc);
		cand[nr++] = xstrdup((const char *)stmt_column_text(st, 0));
	}
	stmt_reset(st);
	if (nr == 1) {
		*full = cand[0];
		free(cand);
		return 0;
	}
	if (nr > 1) {
		if (line > 0)
			ret = error("%s:%ld: commit '%s' is ambiguous; "
				    "candidates:", ctx->path, line, commit);
		else
			ret = error("%s: commit '%s' is ambiguous; candidates:",
				    ctx->path, commit);
		for (i = 0; i < nr; i++)
			fprintf(stderr, "    %s\n", cand[i]);
	}
	for (i = 0; i < nr; i++)
		free(cand[i]);
	free(cand);
	return ret;
}

/*
 * The input's own params: valid text, and a key given twice must give
 * one value (two `threads` columns saying 1 and 2 would otherwise keep
 * one of them in silence).  0, or -1 after error().
 */
static int check_params(struct import_ctx *ctx, long line,
			const struct kv *params, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		if (emit_check_text(ctx, line, "parameter name",
				    params[i].key) ||
		    emit_check_text(ctx, line, "parameter value",
				    params[i].value))
			return -1;
		for (j = 0; j < i; j++)
			if (!strcmp(params[i].key, params[j].key) &&
			    strcmp(params[i].value, params[j].value)) {
				if (line > 0)
					return error("%s:%ld: parameter '%s' "
						     "given twice: '%s' and "
						     "'%s'", ctx->path, line,
						     params[i].key,
						     params[j].value,
						     params[i].value);
				return error("%s: parameter '%s' given twice: "
					     "'%s' and '%s'", ctx->path,
					     params[i].key, params[j].value,
					     params[i].value);
			}
	}
	return 0;
}

/*
 * Overrides must not merge two variants the inputs tell apart (two
 * commits in a CSV, two runs of a work/log, the columns of a table).
 * --label, --kernel and --commit name one variant: two that would end in
 * the same row of a comparison (the same testcase, machine and params)
 * under them are merged by them.  --machine and --testcase name what the
 * variants share: they merge two only when those become one variant
 * altogether.  row is where this variant ends under the overrides, as
 * the rule for the flags given says; ctx->first_variant keeps, across
 * the results of one command, "row\x1enatural\x1d" per natural variant
 * seen.  0, or -1 after error() (a usage error).
 */
static int check_merge(struct import_ctx *ctx, const struct sbuf *natural,
		       const struct sbuf *row, const char *flags)
{
	struct sbuf entry = SBUF_INIT;
	const char *p;
	int ret = 0;

	if (!ctx->first_variant)
		BUG("overrides without a first_variant slot");
	sbuf_addf(&entry, "%s\x1e%s\x1d", row->buf, natural->buf);
	p = *ctx->first_variant ? *ctx->first_variant : "";
	if (strstr(p, entry.buf))
		goto out;	/* seen: this variant again */
	while (*p) {
		const char *rs = strchr(p, '\x1e'), *gs = strchr(p, '\x1d');

		if (!rs || !gs)
			BUG("first_variant '%s'", p);
		if ((size_t)(rs - p) == row->len &&
		    !memcmp(p, row->buf, row->len)) {
			error("%s: the input holds several variants (%.*s and "
			      "%s); %s would merge them: import it without "
			      "them", ctx->path, (int)(gs - rs - 1), rs + 1,
			      natural->buf, flags);
			ctx->usage_error = 1;
			ret = -1;
			goto out;
		}
		p = gs + 1;
	}
	{
		char *joined = xstrfmt("%s%s", *ctx->first_variant ?
				       *ctx->first_variant : "", entry.buf);

		free(*ctx->first_variant);
		*ctx->first_variant = joined;
	}
out:
	sbuf_release(&entry);
	return ret;
}

/*
 * A variant's columns, in the order of its key and of the parameters of
 * ST_FIND_VARIANT and ST_INS_VARIANT; a comparison's row is keyed by the
 * columns from VC_MACHINE on.
 */
enum variant_col {
	VC_LABEL, VC_KERNEL, VC_COMMIT, VC_MACHINE, VC_TESTCASE, VC_NR
};

/* The digits of a commit that make the label of a variant without one. */
#define LABEL_COMMIT_DIGITS 12

/*
 * The variant's text as the input (in) and the overrides give it: valid
 * text, each param once.  0 or -1 after error().
 */
static int check_variant(struct import_ctx *ctx, long line,
			 const char *const *in, const struct kv *params,
			 size_t nr_params, const struct import_overrides *o)
{
	return emit_check_text(ctx, line, "label", in[VC_LABEL]) ||
	       emit_check_text(ctx, line, "kernel", in[VC_KERNEL]) ||
	       emit_check_text(ctx, line, "commit", in[VC_COMMIT]) ||
	       emit_check_text(ctx, line, "machine", in[VC_MACHINE]) ||
	       emit_check_text(ctx, line, "testcase", in[VC_TESTCASE]) ||
	       check_params(ctx, line, params, nr_params) ||
	       emit_check_text(ctx, 0, "--label", o->label) ||
	       emit_check_text(ctx, 0, "--kernel", o->kernel) ||
	       emit_check_text(ctx, 0, "--machine", o->machine) ||
	       emit_check_text(ctx, 0, "--testcase", o->testcase) ||
	       check_params(ctx, 0, o->params, o->nr_params) ? -1 : 0;
}

/* The variant as the input names it, before any override, into sb. */
static void variant_natural(struct sbuf *sb, const char *const *in,
			    const struct kv *params, size_t nr_params)
{
	char *canon = params_canonical(params, nr_params);

	add_fields(sb, '|', in, VC_NR);
	sbuf_addstr(sb, canon);
	free(canon);
}

/*
 * The columns col of the variant under the overrides: the commit as
 * resolve_commit() makes it (*full, new or NULL), the label defaulted
 * to the kernel, else to the commit's first digits (in short_commit, of
 * LABEL_COMMIT_DIGITS + 1 bytes).  0 or -1 after error().
 */
static int variant_columns(struct import_ctx *ctx,
			   const struct import_overrides *o,
			   const char *const *in, long line, const char **col,
			   char *short_commit, char **full)
{
	const char *commit = pick(o->commit, in[VC_COMMIT]), *kernel, *label;

	if (commit && *commit && resolve_commit(ctx, commit, line, full))
		return -1;
	if (*full)
		commit = *full;
	kernel = pick(o->kernel, in[VC_KERNEL]);
	label = pick(o->label, in[VC_LABEL]);
	if ((!label || !*label) && kernel && *kernel) {
		label = kernel;
	} else if ((!label || !*label) && commit && *commit) {
		snprintf(short_commit, LABEL_COMMIT_DIGITS + 1, "%s", commit);
		label = short_commit;
	}
	col[VC_LABEL] = label;
	col[VC_KERNEL] = kernel;
	col[VC_COMMIT] = commit;
	col[VC_MACHINE] = pick(o->machine, in[VC_MACHINE]);
	col[VC_TESTCASE] = pick(o->testcase, in[VC_TESTCASE]);
	return 0;
}

/* The columns and the params' text as the parameters of st. */
static void bind_variant(struct stmt *st, const char *const *col,
			 const char *canon)
{
	int i;

	for (i = 0; i < VC_NR; i++)
		stmt_bind_text(st, i + 1, or_empty(col[i]), -1,
			       SQLITE_TRANSIENT);
	stmt_bind_text(st, VC_NR + 1, canon, -1, SQLITE_TRANSIENT);
}

/*
 * The variant's row in the database, made with its params kv when it is
 * not there: *id.  0 or -1 after error().
 */
static int variant_row(struct import_ctx *ctx, const char *const *col,
		       const char *canon, const struct kv *kv, size_t nr_kv,
		       long line, int64_t *id)
{
	struct stmt *st = ctx->db->st[ST_FIND_VARIANT];
	size_t i;
	int rc;

	bind_variant(st, col, canon);
	rc = stmt_step(st);
	*id = rc == SQLITE_ROW ? stmt_column_int64(st, 0) : 0;
	stmt_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(ctx->db, rc, ctx->path, line);
	if (*id)
		return 0;
	st = ctx->db->st[ST_INS_VARIANT];
	bind_variant(st, col, canon);
	if (db_step_id(ctx, st, line, id))
		return -1;
	st = ctx->db->st[ST_INS_PARAM];
	for (i = 0; i < nr_kv; i++) {
		stmt_bind_int64(st, 1, *id);
		stmt_bind_text(st, 2, kv[i].key, -1, SQLITE_TRANSIENT);
		stmt_bind_text(st, 3, kv[i].value, -1, SQLITE_TRANSIENT);
		if (db_step_done(ctx, st, line))
			return -1;
	}
	return 0;
}

/*
 * The variant's key, its columns col and its params' text canon, into
 * key; with merging, what two variants must not share into row: the
 * row a comparison puts it in (selecting), or the variant itself.
 */
static void variant_key(struct sbuf *key, struct sbuf *row,
			const char *const *col, const char *canon, int merging,
			int selecting)
{
	add_fields(key, '\0', col, VC_NR);
	sbuf_addstr(key, canon);
	if (!merging)
		return;
	add_fields(row, '|', selecting ? col + VC_MACHINE : col,
		   selecting ? VC_NR - VC_MACHINE : VC_NR);
	sbuf_addstr(row, canon);
}

/*
 * Find or make the variant of these columns (overrides applied, default
 * label: the kernel, else the commit's first LABEL_COMMIT_DIGITS digits),
 * and check that overrides merge nothing.  Sets *id; 0 or -1 after
 * error().
 */
int emit_variant_id(struct import_ctx *ctx, const char *testcase,
		    const char *machine, const char *kernel,
		    const char *commit, const char *label,
		    const struct kv *params, size_t nr_params, long line,
		    int64_t *id)
{
	static const struct import_overrides none = { 0 };
	const struct import_overrides *o = ctx->ovr ? ctx->ovr : &none;
	const char *in[VC_NR] = { label, kernel, commit, machine, testcase };
	const char *col[VC_NR];
	struct sbuf key = SBUF_INIT, natural = SBUF_INIT, row = SBUF_INIT;
	struct sbuf canon = SBUF_INIT;
	char short_commit[LABEL_COMMIT_DIGITS + 1], *full = NULL;
	struct kv *kv = NULL;
	size_t nr_kv = 0;
	int64_t v;
	int ret = -1, merging, selecting;

	if (check_variant(ctx, line, in, params, nr_params, o))
		return -1;
	/* only overrides can merge two variants (check_merge()) */
	selecting = o->label || o->kernel || o->commit;
	merging = selecting || o->machine || o->testcase;
	if (merging)
		variant_natural(&natural, in, params, nr_params);
	if (variant_columns(ctx, o, in, line, col, short_commit, &full))
		goto out;
	kv = params_merge(params, nr_params, o->params, o->nr_params, &nr_kv);
	canonical_into(&canon, kv, nr_kv);
	variant_key(&key, &row, col, canon.buf, merging, selecting);
	if (merging && check_merge(ctx, &natural, &row, selecting ?
				   "--label, --kernel and --commit name one "
				   "variant and" : "--machine and --testcase"))
		goto out;
	if (strmap_get(&ctx->db->variant_ids, key.buf, key.len, id)) {
		ret = 0;
		goto out;
	}
	if (variant_row(ctx, col, canon.buf, kv, nr_kv, line, &v))
		goto out;
	if (ctx->db->variant_ids.nr >= DB_CACHE_MAX)
		strmap_clear(&ctx->db->variant_ids);	/* bounded memory */
	strmap_put(&ctx->db->variant_ids, key.buf, key.len, v);
	*id = v;
	ret = 0;
out:
	free(full);
	free(kv);
	sbuf_release(&canon);
	sbuf_release(&key);
	sbuf_release(&natural);
	sbuf_release(&row);
	return ret;
}

/* ---- metrics ---- */

const char *metric_kind_name(enum metric_kind k)
{
	switch (k) {
	case MK_COUNTER: return "counter";
	case MK_GAUGE: return "gauge";
	case MK_EXACT: return "exact";
	case MK_UNKNOWN: break;
	}
	return NULL;
}

/* Insert the metric unless it is there: *id 0 if it was. */
static int insert_metric(struct import_ctx *ctx, const char *name, size_t len,
			 const char *unit, enum metric_kind kind, long line,
			 int64_t *id)
{
	struct stmt *st = ctx->db->st[ST_INS_METRIC];

	stmt_bind_text(st, 1, name, (int)len, SQLITE_TRANSIENT);
	bind_text_or_null(st, 2, unit);
	if (kind)
		stmt_bind_int(st, 3, (int)kind);
	else
		stmt_bind_null(st, 3);
	return db_step_id(ctx, st, line, id);
}

/*
 * The metric id cache holds id << KIND_BITS | kind: a kind stated once
 * is not looked up again (the first statement wins in the database too).
 */
#define KIND_BITS 2
#define KIND_MASK ((1 << KIND_BITS) - 1)
/* the kind cached for a metric whose kind the database has already */
#define KIND_RECORDED ((enum metric_kind)1)

/*
 * Give the recorded metric id the unit and the kind the database lacks
 * (the first file that knows one gives it); *kind becomes KIND_RECORDED
 * when the database has one.  0 or -1 after error().
 */
static int metric_fill(struct import_ctx *ctx, int64_t id, const char *unit,
		       int unit_null, int kind_null, enum metric_kind *kind,
		       long line)
{
	struct stmt *st;

	if (unit_null && unit && *unit) {
		st = ctx->db->st[ST_SET_UNIT];
		stmt_bind_text(st, 1, unit, -1, SQLITE_TRANSIENT);
		stmt_bind_int64(st, 2, id);
		if (db_step_done(ctx, st, line))
			return -1;
	}
	if (!kind_null)
		*kind = KIND_RECORDED;	/* known: cache it */
	if (kind_null && *kind) {
		st = ctx->db->st[ST_SET_KIND];
		stmt_bind_int(st, 1, (int)*kind);
		stmt_bind_int64(st, 2, id);
		if (db_step_done(ctx, st, line))
			return -1;
	}
	return 0;
}

/*
 * The id of a metric the cache does not know, found or made; *kind as
 * the cache is to keep it.  0 or -1 after error().
 */
static int metric_lookup(struct import_ctx *ctx, const char *name, size_t len,
			 const char *unit, enum metric_kind *kind, long line,
			 int64_t *id)
{
	struct db *db = ctx->db;
	struct stmt *st;
	int rc, unit_null = 0, kind_null = 0;

	/*
	 * After a new name the next miss is likely new too (the first import
	 * of a file's metrics): insert it first, and look it up only if the
	 * insert found the name there.  One statement instead of two.
	 */
	if (db->metric_miss_new) {
		if (insert_metric(ctx, name, len, unit, *kind, line, id))
			return -1;
		if (*id)
			return 0;
	}
	st = db->st[ST_FIND_METRIC];
	stmt_bind_text(st, 1, name, (int)len, SQLITE_TRANSIENT);
	rc = stmt_step(st);
	if (rc == SQLITE_ROW) {
		*id = stmt_column_int64(st, 0);
		unit_null = stmt_column_int(st, 1);
		kind_null = stmt_column_type(st, 2) == SQLITE_NULL;
	}
	stmt_reset(st);
	db->metric_miss_new = rc == SQLITE_DONE;
	if (rc == SQLITE_ROW)
		return metric_fill(ctx, *id, unit, unit_null, kind_null, kind,
				   line);
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, ctx->path, line);
	if (insert_metric(ctx, name, len, unit, *kind, line, id))
		return -1;
	/* not there, yet not inserted: a constraint said no */
	if (!*id)
		return error("%s:%ld: database: metric '%s' refused",
			     ctx->path, line, name);
	return 0;
}

int emit_metric_id(struct import_ctx *ctx, const char *name,
		   const char *unit, enum metric_kind kind, long line,
		   int64_t *id)
{
	struct db *db = ctx->db;
	size_t len = strlen(name);
	int64_t cached;

	if (strmap_get(&db->metric_ids, name, len, &cached) &&
	    (!kind || (cached & KIND_MASK))) {
		*id = cached >> KIND_BITS;
		return 0;
	}
	if (!len || strspn(name, " \t") == len)
		return error("%s:%ld: %s metric name", ctx->path, line,
			     len ? "blank" : "empty");
	if (emit_check_text(ctx, line, "metric name", name) ||
	    emit_check_text(ctx, line, "unit", unit) ||
	    metric_lookup(ctx, name, len, unit, &kind, line, id))
		return -1;
	if (db->metric_ids.nr >= DB_CACHE_MAX)
		strmap_clear(&db->metric_ids);	/* bounded memory */
	strmap_put(&db->metric_ids, name, len, *id << KIND_BITS |
		   (int64_t)kind);
	return 0;
}

int db_set_kind(struct import_ctx *ctx, const char *metric,
		enum metric_kind kind, long line)
{
	int64_t id;

	NOT_RECORDING(ctx);
	return emit_metric_id(ctx, metric, NULL, kind, line, &id);
}

int db_metric_state(struct import_ctx *ctx, const char *metric,
		    const char *unit, const struct metric_state *ms, long line)
{
	struct db *db = ctx->db;
	struct stmt *st;
	int64_t id;

	NOT_RECORDING(ctx);
	if (emit_metric_id(ctx, metric, unit, MK_UNKNOWN, line, &id))
		return -1;
	if (ms->direction || ms->summary) {
		/* the first statement wins, as for the unit and the kind */
		st = db_stmt(db, ST_SET_STATE);
		if (!st)
			return -1;
		if (ms->direction)
			stmt_bind_int(st, 1, ms->direction);
		else
			stmt_bind_null(st, 1);
		bind_text_or_null(st, 2, ms->summary);
		stmt_bind_int64(st, 3, id);
		if (db_step_done(ctx, st, line))
			return -1;
	}
	if (ms->position < 0)
		return 0;
	st = db_stmt(db, ST_INS_POSITION);
	if (!st)
		return -1;
	stmt_bind_int64(st, 1, ctx->import_id);
	stmt_bind_int64(st, 2, id);
	stmt_bind_int64(st, 3, ms->position);
	return db_step_done(ctx, st, line);
}

int db_metric(struct import_ctx *ctx, const char *metric, const char *unit,
	      enum metric_kind kind, long line, int64_t *id)
{
	NOT_RECORDING(ctx);
	return emit_metric_id(ctx, metric, unit, kind, line, id);
}
