/*
 * Queries behind runs, metrics, show and compare (see query.h).  The SQL
 * is assembled only from the fixed fragments below; every value the user
 * gave is bound.
 */
#include "core/compat.h"
#include "store/query.h"
#include "store/direction.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "store/series.h"

static char *col_dup(struct stmt *st, int i)
{
	const unsigned char *s = stmt_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

static char *col_dup_empty(struct stmt *st, int i)
{
	char *s = col_dup(st, i);

	return s ? s : xstrdup("");
}

int dim_parse(const char *text, enum dim *dim, char **param)
{
	*param = NULL;
	if (!strcmp(text, "label"))
		*dim = DIM_LABEL;
	else if (!strcmp(text, "kernel"))
		*dim = DIM_KERNEL;
	else if (!strcmp(text, "commit"))
		*dim = DIM_COMMIT;
	else if (!strcmp(text, "machine"))
		*dim = DIM_MACHINE;
	else if (starts_with(text, "param:") && text[6]) {
		*dim = DIM_PARAM;
		*param = xstrdup(text + 6);
	} else
		return -1;
	return 0;
}

const char *dim_name(enum dim dim)
{
	static const char *const names[] = {
		"auto", "label", "kernel", "commit", "machine", "param",
	};

	return names[dim];
}

/*
 * The WHERE fragment selecting variants (alias v) by one dimension; each
 * takes one bound value, param two (key, value).  Runs and aggregates
 * both point to a variant, so one fragment serves both.
 */
static const char *dim_where(enum dim dim)
{
	switch (dim) {
	case DIM_LABEL: return " AND v.label = ?";
	case DIM_KERNEL: return " AND v.kernel = ?";
	case DIM_COMMIT: return " AND v.commit_sha = ?";
	case DIM_MACHINE: return " AND v.machine = ?";
	case DIM_PARAM:
		return " AND EXISTS (SELECT 1 FROM variant_params p WHERE "
		       "p.variant_id = v.id AND p.key = ? AND p.value = ?)";
	case DIM_AUTO:
		break;
	}
	BUG("unresolved selector");
}

void variant_where(struct sbuf *sql, const struct run_filter *f,
		   int aggregates)
{
	if (!f)
		return;
	if (f->sel)
		sbuf_addstr(sql, dim_where(f->sel->dim));
	if (f->testcase)
		sbuf_addstr(sql, " AND glob(?, v.testcase)");
	if (f->testcases && f->testcases->nr) {
		size_t i;

		sbuf_addstr(sql, " AND (FALSE");
		for (i = 0; i < f->testcases->nr; i++)
			sbuf_addstr(sql, " OR glob(?, v.testcase)");
		sbuf_addch(sql, ')');
	}
	if (f->machine)
		sbuf_addstr(sql, " AND v.machine = ?");
	if (f->suite)
		sbuf_addstr(sql, " AND r.suite = ?");
	/* aggregates belong to no run */
	if (f->run_id > 0)
		sbuf_addstr(sql, aggregates ? " AND FALSE" : " AND r.id = ?");
}

int variant_bind(struct stmt *st, int i, const struct run_filter *f)
{
	if (!f)
		return i;
	if (f->sel) {
		if (f->sel->dim == DIM_PARAM)
			stmt_bind_text(st, i++, f->sel->param, -1,
					  SQLITE_TRANSIENT);
		stmt_bind_text(st, i++, f->sel->value, -1, SQLITE_TRANSIENT);
	}
	if (f->testcase)
		stmt_bind_text(st, i++, f->testcase, -1, SQLITE_TRANSIENT);
	if (f->testcases) {
		size_t k;

		for (k = 0; k < f->testcases->nr; k++)
			stmt_bind_text(st, i++, f->testcases->v[k], -1,
					  SQLITE_TRANSIENT);
	}
	if (f->machine)
		stmt_bind_text(st, i++, f->machine, -1, SQLITE_TRANSIENT);
	if (f->suite)
		stmt_bind_text(st, i++, f->suite, -1, SQLITE_TRANSIENT);
	if (f->run_id > 0)
		stmt_bind_int64(st, i++, f->run_id);
	return i;
}

/*
 * The loop every listing shares: "head WHERE glob(?, m.name)" (when glob
 * is not NO_GLOB) plus the filter plus tail, bound, each row handed to
 * fn.  Returns 0 or error().
 */
#define NO_GLOB ((const char *)1)
static int each_row(struct db *db, const char *head, const char *glob,
		    const struct run_filter *f, int aggregates,
		    const char *tail, void (*fn)(struct stmt *, void *),
		    void *data)
{
	struct sbuf sql = SBUF_INIT;
	struct stmt *st;
	int rc, i = 1;

	sbuf_addstr(&sql, head);
	sbuf_addstr(&sql, glob == NO_GLOB ? " WHERE TRUE" :
					    " WHERE glob(?, m.name)");
	variant_where(&sql, f, aggregates);
	sbuf_addstr(&sql, tail);
	st = db_prepare(db, sql.buf);
	sbuf_release(&sql);
	if (!st)
		return -1;
	if (glob != NO_GLOB)
		stmt_bind_text(st, i++, glob ? glob : "*", -1,
				  SQLITE_TRANSIENT);
	variant_bind(st, i, f);
	while ((rc = stmt_step(st)) == SQLITE_ROW)
		fn(st, data);
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", db->path, db_errmsg(db));
	return 0;
}

/* A growing array of rows of one type, for each_row() callbacks. */
struct rows {
	void *v;
	size_t nr, alloc, size;
};

/* each_row() into a new array of rows of size bytes each (*out, *nr). */
static int collect(struct db *db, const char *head, const char *glob,
		   const struct run_filter *f, int aggregates, const char *tail,
		   void (*fn)(struct stmt *, void *), size_t size, void *out,
		   size_t *nr)
{
	struct rows r = { NULL, 0, 0, size };
	int ret = each_row(db, head, glob, f, aggregates, tail, fn, &r);

	memcpy(out, &r.v, sizeof(r.v));
	*nr = r.nr;
	return ret;
}

static void *rows_next(struct rows *r)
{
	char *p;

	if (r->nr + 1 > r->alloc) {
		r->alloc = r->alloc * 2 + 16;
		r->v = xrealloc(r->v, r->alloc * r->size);
	}
	p = (char *)r->v + r->nr++ * r->size;
	memset(p, 0, r->size);
	return p;
}

/* ---- selectors ---- */

/* The most candidates a message about a selector lists, of each kind. */
#define MAX_CANDIDATES 50

/* Distinct values of one fixed query with one bound text, up to max. */
static int distinct(struct db *db, const char *sql, const char *bind,
		    const char *bind2, char ***out, size_t *nr, size_t max)
{
	struct stmt *st = db_prepare(db, sql);
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	if (!st)
		return -1;
	if (bind)
		stmt_bind_text(st, 1, bind, -1, SQLITE_TRANSIENT);
	if (bind2)
		stmt_bind_text(st, 2, bind2, -1, SQLITE_TRANSIENT);
	while ((rc = stmt_step(st)) == SQLITE_ROW && *nr < max) {
		ALLOC_GROW(*out, *nr + 1, alloc);
		(*out)[(*nr)++] = col_dup_empty(st, 0);
	}
	stmt_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return error("%s: %s", db->path, db_errmsg(db));
	return 0;
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int is_hex(const char *s)
{
	if (strlen(s) < 4)
		return 0;
	for (; *s; s++)
		if (!strchr("0123456789abcdef", *s))
			return 0;
	return 1;
}

static void list_candidates(struct db *db, enum dim dim, const char *param)
{
	static const struct {
		enum dim dim;
		const char *what, *sql;
	} q[] = {
		{ DIM_LABEL, "labels", "SELECT DISTINCT label FROM variants "
		  "WHERE label != '' ORDER BY 1" },
		{ DIM_KERNEL, "kernels", "SELECT DISTINCT kernel FROM variants "
		  "WHERE kernel != '' ORDER BY 1" },
		{ DIM_COMMIT, "commits", "SELECT DISTINCT commit_sha FROM "
		  "variants WHERE commit_sha != '' ORDER BY 1" },
		{ DIM_MACHINE, "machines", "SELECT DISTINCT machine FROM "
		  "variants WHERE machine != '' ORDER BY 1" },
	};
	size_t i, j, nr;
	char **v;
	int any = 0;

	if (dim == DIM_PARAM) {
		if (distinct(db, "SELECT DISTINCT value FROM variant_params "
				 "WHERE key = ? ORDER BY 1", param, NULL, &v, &nr,
			     MAX_CANDIDATES))
			return;
		fprintf(stderr, "  values of parameter '%s':%s\n", param,
			nr ? "" : " (none: no run has it)");
		for (j = 0; j < nr; j++)
			fprintf(stderr, "    %s\n", v[j]);
		free_strv(v, nr);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(q); i++) {
		if (dim != DIM_AUTO && dim != q[i].dim)
			continue;
		if (dim == DIM_AUTO && q[i].dim == DIM_MACHINE)
			continue;
		if (distinct(db, q[i].sql, NULL, NULL, &v, &nr,
			     MAX_CANDIDATES))
			return;
		if (nr) {
			any = 1;
			fprintf(stderr, "  %s:\n", q[i].what);
			for (j = 0; j < nr; j++)
				fprintf(stderr, "    %s\n", v[j]);
		}
		free_strv(v, nr);
	}
	if (!any)
		fprintf(stderr, "  (none: name variants with import --label, "
			"--kernel or --commit)\n");
}

static int exists(struct db *db, const char *sql, const char *a,
		  const char *b)
{
	char **v;
	size_t nr;
	int r;

	if (distinct(db, sql, a, b, &v, &nr, 1))
		return -2;
	r = nr > 0;
	free_strv(v, nr);
	return r;
}

/*
 * Is text a label?  1 or 0; -1 after error() when, with dim DIM_AUTO,
 * it is the kernel or commit of other runs too (ambiguous); -2 on a
 * database error.
 */
static int is_label(struct db *db, const char *text, enum dim dim)
{
	int r = exists(db, "SELECT 1 FROM variants WHERE label = ?1", text,
		       NULL), other;

	if (r <= 0 || dim != DIM_AUTO)
		return r < 0 ? -2 : r;
	/*
	 * The same text as the kernel (or commit) of runs that do not carry
	 * the label: ambiguous.  (The usual case, label defaulted from the
	 * kernel, is not.)
	 */
	other = exists(db, "SELECT 1 FROM variants WHERE (kernel = ?1 OR "
		       "(length(?1) >= 4 AND substr(commit_sha, 1, "
		       "length(?1)) = ?1)) AND label != ?1", text, NULL);
	if (other < 0)
		return -2;
	if (other) {
		error("'%s' is ambiguous: it is a label and the kernel or "
		      "commit of other runs; say which with --by "
		      "label|kernel|commit; candidates:", text);
		list_candidates(db, DIM_AUTO, NULL);
		return -1;
	}
	return 1;
}

/*
 * The commit text is a prefix of into out->value: 1, 0 if of none; -1
 * after error() when of several; -2 on a database error.
 */
static int commit_prefix(struct db *db, const char *text,
			 struct selector *out)
{
	char **shas;
	size_t nr, i;

	if (distinct(db, "SELECT DISTINCT commit_sha FROM variants WHERE "
			 "substr(commit_sha, 1, length(?1)) = ?1 ORDER BY 1",
		     text, NULL, &shas, &nr, MAX_CANDIDATES))
		return -2;
	if (nr == 1) {
		out->value = shas[0];
		free(shas);
		return 1;
	}
	if (nr > 1) {
		error("commit prefix '%s' is ambiguous; candidates:", text);
		for (i = 0; i < nr; i++)
			fprintf(stderr, "    %s\n", shas[i]);
		free_strv(shas, nr);
		return -1;
	}
	free_strv(shas, nr);
	return 0;
}

/*
 * text, not a variant, is the value of a run parameter: name the
 * parameters that hold it and the --by that selects by them.
 */
static void say_param_value(struct db *db, const char *text)
{
	struct stmt *st = db_prepare(db, "SELECT DISTINCT key FROM"
				     " variant_params WHERE value = ?"
				     " ORDER BY key LIMIT 4");

	if (!st)
		return;
	stmt_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
	while (stmt_step(st) == SQLITE_ROW) {
		const char *key = (const char *)stmt_column_text(st, 0);

		fprintf(stderr, "'%s' is a value of parameter %s: select "
			"along it with --by param:%s\n", text, key, key);
	}
	stmt_finalize(st);
}

/* text names nothing along dim: say so, with the candidates.  -1. */
static int no_variant(struct db *db, const char *text, enum dim dim,
		      const char *param)
{
	if (dim == DIM_PARAM)
		error("no run has parameter %s=%s; candidates:", param, text);
	else if (dim == DIM_AUTO)
		error("'%s' is not a label, kernel or commit in the database; "
		      "candidates:", text);
	else
		error("no %s '%s' in the database; candidates:", dim_name(dim),
		      text);
	list_candidates(db, dim, param);
	if (dim == DIM_AUTO)
		say_param_value(db, text);
	return -1;
}

int selector_resolve(struct db *db, const char *text, enum dim dim,
		     const char *param, struct selector *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	out->text = xstrdup(text);
	/* '' would match every variant whose kernel or label is not known */
	if (!*text)
		return error("an empty selector names no variant: give a "
			     "label, a kernel or a commit");
	if (dim == DIM_AUTO || dim == DIM_LABEL) {
		r = is_label(db, text, dim);
		if (r < 0)
			return r;
		if (r) {
			out->dim = DIM_LABEL;
			goto found;
		}
	}
	if (dim == DIM_AUTO || dim == DIM_KERNEL) {
		r = exists(db, "SELECT 1 FROM variants WHERE kernel = ?1",
			   text, NULL);
		if (r < 0)
			return -2;
		if (r) {
			out->dim = DIM_KERNEL;
			goto found;
		}
	}
	if ((dim == DIM_AUTO || dim == DIM_COMMIT) && is_hex(text)) {
		r = commit_prefix(db, text, out);
		if (r > 0)
			out->dim = DIM_COMMIT;
		if (r)
			return r > 0 ? 0 : r;
	}
	if (dim == DIM_MACHINE || dim == DIM_PARAM) {
		r = dim == DIM_MACHINE ?
			exists(db, "SELECT 1 FROM variants WHERE machine = ?1",
			       text, NULL) :
			exists(db, "SELECT 1 FROM variant_params WHERE "
			       "key = ?1 AND value = ?2", param, text);
		if (r < 0)
			return -2;
		if (r) {
			out->dim = dim;
			if (dim == DIM_PARAM)
				out->param = xstrdup(param);
			goto found;
		}
	}
	return no_variant(db, text, dim, param);
found:
	out->value = xstrdup(text);
	return 0;
}

void selector_release(struct selector *s)
{
	free(s->param);
	free(s->value);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

const char *selector_label(const struct selector *s)
{
	return s->text;
}

/* ---- runs ---- */

static void run_row_fn(struct stmt *st, void *data)
{
	struct run_row *r = rows_next(data);

	r->id = stmt_column_int64(st, 0);
	r->suite = col_dup_empty(st, 1);
	r->testcase = col_dup_empty(st, 2);
	r->params = col_dup_empty(st, 3);
	r->machine = col_dup_empty(st, 4);
	r->kernel = col_dup_empty(st, 5);
	r->commit = col_dup(st, 6);
	r->label = col_dup(st, 7);
	r->iteration = stmt_column_type(st, 8) == SQLITE_NULL ?
			       -1 : stmt_column_int(st, 8);
	r->start_time = stmt_column_int64(st, 9);
	r->nr_samples = stmt_column_int(st, 10);
}

int query_runs(struct db *db, const struct run_filter *f,
	       struct run_row **rows, size_t *nr)
{
	return collect(db, "SELECT r.id, r.suite, v.testcase, v.params, "
			   "v.machine, v.kernel, nullif(v.commit_sha, ''), "
			   "nullif(v.label, ''), r.iteration, r.start_time, "
			   "(SELECT count(*) FROM samples s WHERE s.run_id = "
			   "r.id) FROM runs r JOIN variants v ON v.id = "
			   "r.variant_id", NO_GLOB, f, 0, " ORDER BY r.id",
		       run_row_fn,
		       sizeof(**rows), rows, nr);
}

void run_rows_free(struct run_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(rows[i].suite);
		free(rows[i].testcase);
		free(rows[i].params);
		free(rows[i].machine);
		free(rows[i].kernel);
		free(rows[i].commit);
		free(rows[i].label);
	}
	free(rows);
}

int query_run_params(struct db *db, int64_t run_id, char ***keys,
		     char ***values, size_t *nr)
{
	struct stmt *st = db_prepare(db, "SELECT key, value FROM "
					  "variant_params WHERE variant_id = "
					  "(SELECT variant_id FROM runs WHERE "
					  "id = ?) ORDER BY key");
	size_t alloc = 0, alloc2 = 0;

	*keys = *values = NULL;
	*nr = 0;
	if (!st)
		return -1;
	stmt_bind_int64(st, 1, run_id);
	while (stmt_step(st) == SQLITE_ROW) {
		ALLOC_GROW(*keys, *nr + 1, alloc);
		ALLOC_GROW(*values, *nr + 1, alloc2);
		(*keys)[*nr] = col_dup_empty(st, 0);
		(*values)[*nr] = col_dup_empty(st, 1);
		(*nr)++;
	}
	stmt_finalize(st);
	return 0;
}

/* ---- metrics ---- */

static int cmp_metric_row(const void *a, const void *b)
{
	return str_natcmp(((const struct metric_row *)a)->name,
			  ((const struct metric_row *)b)->name);
}

/* Counts by metric id, indexed by id (ids are small and dense). */
struct id_counts {
	long *n;		/* owned */
	size_t alloc;
};

static void id_count_fn(struct stmt *st, void *data)
{
	struct id_counts *c = data;
	int64_t id = stmt_column_int64(st, 0);

	if (id < 0)
		return;
	if ((size_t)id >= c->alloc) {
		size_t n = (size_t)id * 2 + 1024;

		c->n = xrealloc(c->n, n * sizeof(*c->n));
		memset(c->n + c->alloc, 0, (n - c->alloc) * sizeof(*c->n));
		c->alloc = n;
	}
	c->n[id]++;
}

static long id_count(const struct id_counts *c, int64_t id)
{
	return id >= 0 && (size_t)id < c->alloc ? c->n[id] : 0;
}

/*
 * How many samples (sc) and aggregates (ac) of f each metric id has.
 * One pass over the samples in their stored order, counted in an array
 * by metric id: no GROUP BY sorting tens of millions of rows (seconds,
 * and memory that grew with them).  0 or -1 after error().
 */
static int count_metric_uses(struct db *db, const struct run_filter *f,
			     struct id_counts *sc, struct id_counts *ac)
{
	if (each_row(db, "SELECT s.metric_id FROM samples s JOIN runs r ON "
			 "r.id = s.run_id JOIN variants v ON v.id = "
			 "r.variant_id", NO_GLOB, f, 0, "", id_count_fn, sc) ||
	    each_row(db, "SELECT r.metric_id FROM aggregates r JOIN variants "
			 "v ON v.id = r.variant_id", NO_GLOB, f, 1, "",
		     id_count_fn, ac))
		return -1;
	return 0;
}

int query_metrics(struct db *db, const struct run_filter *f,
		  const char *metric_glob, struct metric_row **rows,
		  size_t *nr)
{
	struct direction_overrides dirs;
	struct id_counts sc = { NULL, 0 }, ac = { NULL, 0 };
	struct stmt *st;
	size_t alloc = 0;
	int rc, ret = -1;

	*rows = NULL;
	*nr = 0;
	if (direction_load(db, &dirs))
		return -1;
	if (count_metric_uses(db, f, &sc, &ac))
		goto out;
	st = db_prepare(db, "SELECT id, name, unit, kind, direction FROM "
			    "metrics WHERE glob(?, name)");
	if (!st)
		goto out;
	stmt_bind_text(st, 1, metric_glob ? metric_glob : "*", -1,
		       SQLITE_TRANSIENT);
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		struct metric_row *m;
		int64_t id = stmt_column_int64(st, 0);
		long nruns = id_count(&sc, id), naggs = id_count(&ac, id);

		if (!nruns && !naggs)
			continue;
		ALLOC_GROW(*rows, *nr + 1, alloc);
		m = &(*rows)[(*nr)++];
		m->id = id;
		m->name = col_dup_empty(st, 1);
		m->unit = col_dup(st, 2);
		m->nr_runs = nruns;
		m->nr_aggregates = naggs;
		m->kind = stmt_column_int(st, 3);
		m->direction = direction_of(&dirs, m->name, m->unit,
					    stmt_column_int(st, 4));
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE) {
		error("%s: %s", db->path, db_errmsg(db));
		goto out;
	}
	QSORT(*rows, *nr, cmp_metric_row);
	ret = 0;
out:
	direction_release(&dirs);
	free(sc.n);
	free(ac.n);
	return ret;
}

void metric_rows_free(struct metric_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(rows[i].name);
		free(rows[i].unit);
	}
	free(rows);
}

/* ---- aggregates ---- */

static void aggregate_row_fn(struct stmt *st, void *data)
{
	struct aggregate_row *a = rows_next(data);

	a->label = col_dup(st, 0);
	a->kernel = col_dup_empty(st, 1);
	a->commit = col_dup(st, 2);
	a->testcase = col_dup_empty(st, 3);
	a->params = col_dup_empty(st, 4);
	a->machine = col_dup_empty(st, 5);
	a->metric = col_dup_empty(st, 6);
	a->unit = col_dup(st, 7);
	a->stat = col_dup_empty(st, 8);
	a->value = stmt_column_double(st, 9);
	a->stddev = stmt_column_type(st, 10) == SQLITE_NULL ?
			    NAN : stmt_column_double(st, 10);
	a->stddev_kind = col_dup(st, 11);
	a->n = stmt_column_type(st, 12) == SQLITE_NULL ?
		       -1 : stmt_column_int(st, 12);
	a->marker = col_dup(st, 13);
	a->stddev_source = stmt_column_type(st, 14) == SQLITE_NULL ?
				   NAN : stmt_column_double(st, 14);
}

int query_aggregates(struct db *db, const struct run_filter *f,
		     const char *metric_glob, struct aggregate_row **rows,
		     size_t *nr)
{
	return collect(db, "SELECT nullif(v.label, ''), v.kernel, "
			   "nullif(v.commit_sha, ''), v.testcase, v.params, "
			   "v.machine, m.name, m.unit, r.stat, r.value, "
			   "r.stddev, r.stddev_kind, r.n, r.marker, "
			   "r.stddev_source FROM aggregates r JOIN variants v "
			   "ON v.id = r.variant_id JOIN metrics m ON m.id = "
			   "r.metric_id", metric_glob, f, 1, " ORDER BY r.id",
		       aggregate_row_fn,
		       sizeof(**rows), rows, nr);
}

void aggregate_rows_free(struct aggregate_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		struct aggregate_row *a = &rows[i];

		free(a->label);
		free(a->kernel);
		free(a->commit);
		free(a->testcase);
		free(a->params);
		free(a->machine);
		free(a->metric);
		free(a->unit);
		free(a->stat);
		free(a->stddev_kind);
		free(a->marker);
	}
	free(rows);
}

static void skip_row_fn(struct stmt *st, void *data)
{
	struct skip_row *k = rows_next(data);

	k->path = col_dup_empty(st, 0);
	k->message = stmt_column_int(st, 1);
	k->line = (long)stmt_column_int64(st, 2);
	k->reason = col_dup_empty(st, 3);
	k->text = col_dup_empty(st, 4);
}

int query_skips(struct db *db, const struct run_filter *f,
		struct skip_row **rows, size_t *nr)
{
	return collect(db, "SELECT i.path, coalesce(i.message, 0), s.line, "
			   "s.reason, s.text FROM import_skips s JOIN imports i "
			   "ON i.id = s.import_id WHERE s.import_id IN (SELECT "
			   "r.import_id FROM aggregates r JOIN variants v ON "
			   "v.id = r.variant_id", NO_GLOB, f, 1,
		       ") ORDER BY s.import_id, s.seq", skip_row_fn,
		       sizeof(**rows), rows, nr);
}

void skip_rows_free(struct skip_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(rows[i].path);
		free(rows[i].reason);
		free(rows[i].text);
	}
	free(rows);
}

/* ---- samples ---- */

static void sample_row_fn(struct stmt *st, void *data)
{
	struct sample_row *s = rows_next(data);

	s->run_id = stmt_column_int64(st, 0);
	s->metric = col_dup_empty(st, 1);
	s->unit = col_dup(st, 2);
	s->value = stmt_column_double(st, 3);
	s->derived = stmt_column_int(st, 4);
}

int query_samples(struct db *db, const struct run_filter *f,
		  const char *metric_glob, struct sample_row **rows,
		  size_t *nr)
{
	return collect(db, "SELECT s.run_id, m.name, m.unit, s.value, "
			   "coalesce(s.derived, 0) FROM samples s JOIN runs r "
			   "ON r.id = s.run_id JOIN variants v ON v.id = "
			   "r.variant_id JOIN metrics m ON m.id = s.metric_id",
		       metric_glob, f, 0, " ORDER BY s.run_id, m.name",
		       sample_row_fn,
		       sizeof(**rows), rows, nr);
}

void sample_rows_free(struct sample_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(rows[i].metric);
		free(rows[i].unit);
	}
	free(rows);
}

/* ---- series ---- */

/*
 * A chunk that is not what its row says (a damaged or foreign database)
 * gives no points.
 */
static void series_row_fn(struct stmt *st, void *data)
{
	struct rows *r = data;
	const void *blob = stmt_column_blob(st, 2);
	size_t len = (size_t)stmt_column_bytes(st, 2);
	int64_t n = stmt_column_int64(st, 3);
	int codec = stmt_column_int(st, 4);
	int64_t run_id = stmt_column_int64(st, 0);
	const char *name = (const char *)stmt_column_text(st, 1);
	double *tv;
	size_t i;

	if (n <= 0 || (uint64_t)n > series_max_points(codec, len))
		return;
	tv = xmalloc(2 * (size_t)n * sizeof(*tv));
	if (!series_unpack(codec, blob, len, (size_t)n, tv)) {
		for (i = 0; i < (size_t)n; i++) {
			struct series_row *p = rows_next(r);

			p->run_id = run_id;
			p->metric = xstrdup(name);
			p->t = tv[2 * i];
			p->value = tv[2 * i + 1];
		}
	}
	free(tv);
}

int query_series(struct db *db, const struct run_filter *f,
		 const char *metric_glob, struct series_row **rows,
		 size_t *nr)
{
	return collect(db, "SELECT s.run_id, m.name, s.points, s.n, s.codec FROM "
			   "series s JOIN runs r ON r.id = s.run_id JOIN "
			   "variants v ON v.id = r.variant_id JOIN metrics m "
			   "ON m.id = s.metric_id", metric_glob, f, 0,
		       " ORDER BY s.run_id, m.name, s.chunk", series_row_fn,
		       sizeof(**rows), rows, nr);
}

static void history_row_fn(struct stmt *st, void *data)
{
	struct history_row *h = rows_next(data);

	h->metric = col_dup_empty(st, 0);
	h->unit = col_dup(st, 1);
	h->stated = stmt_column_int(st, 2);
	h->testcase = col_dup_empty(st, 3);
	h->params = col_dup_empty(st, 4);
	h->machine = col_dup_empty(st, 5);
	h->sha = col_dup_empty(st, 6);
	h->subject = col_dup_empty(st, 7);
	h->position = stmt_column_int64(st, 8);
	h->run_id = stmt_column_int64(st, 9);
	h->value = stmt_column_double(st, 10);
}

int query_history(struct db *db, const struct run_filter *f,
		  const char *metric_glob, struct history_row **rows,
		  size_t *nr)
{
	return collect(db, "SELECT m.name, m.unit, coalesce(m.direction, 0), "
			   "v.testcase, v.params, v.machine, c.sha, "
			   "coalesce(c.subject, ''), c.position, r.id, s.value "
			   "FROM samples s JOIN runs r ON r.id = s.run_id JOIN "
			   "variants v ON v.id = r.variant_id JOIN metrics m "
			   "ON m.id = s.metric_id JOIN commits c ON c.sha = "
			   "v.commit_sha", metric_glob, f, 0,
		       " ORDER BY m.name, v.testcase, v.params, v.machine, "
		       "c.position, r.id", history_row_fn, sizeof(**rows),
		       rows, nr);
}

int history_same_series(const struct history_row *a,
			const struct history_row *b)
{
	return !strcmp(a->metric, b->metric) &&
	       !strcmp(a->testcase, b->testcase) &&
	       !strcmp(a->params, b->params) && !strcmp(a->machine, b->machine);
}

void history_rows_free(struct history_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(rows[i].metric);
		free(rows[i].unit);
		free(rows[i].testcase);
		free(rows[i].params);
		free(rows[i].machine);
		free(rows[i].sha);
		free(rows[i].subject);
	}
	free(rows);
}

int query_histograms(struct db *db, const struct run_filter *f,
		     const char *metric_glob, struct series_row **rows,
		     size_t *nr)
{
	return collect(db, "SELECT h.run_id, m.name, h.bins, h.n FROM "
			   "histograms h JOIN runs r ON r.id = h.run_id JOIN "
			   "variants v ON v.id = r.variant_id JOIN metrics m "
			   "ON m.id = h.metric_id", metric_glob, f, 0,
		       " ORDER BY m.name, h.run_id", series_row_fn,
		       sizeof(**rows), rows, nr);
}

/*
 * The first column of st's one row, owned in *out: 1; 0 when st gives no
 * row or several (*out NULL); -1 after error().  st is finalized.
 */
static int single_text(struct db *db, struct stmt *st, char **out)
{
	int rc, n = 0;

	*out = NULL;
	while ((rc = stmt_step(st)) == SQLITE_ROW)
		if (!n++)
			*out = xstrdup((const char *)stmt_column_text(st, 0));
	stmt_finalize(st);
	if (rc == SQLITE_DONE && n == 1)
		return 1;
	free(*out);
	*out = NULL;
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc, db->path, 0);
}

int query_variant_commit(struct db *db, const struct selector *sel,
			 char **sha)
{
	struct run_filter f = { .sel = sel };
	struct sbuf sql = SBUF_INIT;
	struct stmt *st;

	*sha = NULL;
	sbuf_addstr(&sql, "SELECT DISTINCT v.commit_sha FROM variants v WHERE"
		    " coalesce(v.commit_sha, '') != ''");
	variant_where(&sql, &f, 1);
	sbuf_addstr(&sql, " LIMIT 2");
	st = db_prepare(db, sql.buf);
	sbuf_release(&sql);
	if (!st)
		return -1;
	variant_bind(st, 1, &f);
	return single_text(db, st, sha) < 0 ? -1 : 0;
}

/*
 * sql, which ends in "... import_id IN ", completed with the imports that
 * hold f's runs or aggregates, prepared and bound; NULL after error().
 * sql is released.
 */
static struct stmt *prepare_in_imports(struct db *db, struct sbuf *sql,
				       const struct run_filter *f)
{
	struct stmt *st;

	sbuf_addstr(sql, "(SELECT r.import_id FROM runs r JOIN variants v"
		    " ON v.id = r.variant_id WHERE TRUE");
	variant_where(sql, f, 0);
	sbuf_addstr(sql, " UNION SELECT r.import_id FROM aggregates r JOIN"
		    " variants v ON v.id = r.variant_id WHERE TRUE");
	variant_where(sql, f, 1);
	sbuf_addstr(sql, ") LIMIT 2");
	st = db_prepare(db, sql->buf);
	sbuf_release(sql);
	if (st)
		variant_bind(st, variant_bind(st, 1, f), f);
	return st;
}

int query_variant_headline(struct db *db, const struct selector *sel,
			   char **metric)
{
	struct run_filter f = { .sel = sel };
	struct sbuf sql = SBUF_INIT;
	struct stmt *st;
	int rc;

	sbuf_addstr(&sql, "SELECT DISTINCT m.value FROM import_meta m WHERE"
		    " m.key = 'headline' AND m.import_id IN ");
	st = prepare_in_imports(db, &sql, &f);
	*metric = NULL;
	if (!st)
		return -1;
	rc = single_text(db, st, metric);
	/* "METRIC PCT% regression": the metric has no blank */
	if (rc == 1)
		(*metric)[strcspn(*metric, " ")] = '\0';
	return rc;
}

int query_variant_message(struct db *db, const struct selector *sel,
			  char **msgid, char **refs, char **subject,
			  int *n_messages)
{
	struct run_filter f = { .sel = sel };
	struct sbuf sql = SBUF_INIT;
	struct stmt *st;
	int rc, n = 0;

	*msgid = *refs = *subject = NULL;
	sbuf_addstr(&sql, "SELECT DISTINCT m.value, coalesce((SELECT x.value"
		    " FROM import_meta x WHERE x.import_id = m.import_id AND"
		    " x.key = 'references'), ''), coalesce((SELECT x.value FROM"
		    " import_meta x WHERE x.import_id = m.import_id AND x.key ="
		    " 'subject'), '') FROM import_meta m WHERE m.key ="
		    " 'message_id' AND m.import_id IN ");
	st = prepare_in_imports(db, &sql, &f);
	if (!st)
		return -1;
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		if (!n++) {
			*msgid = xstrdup((const char *)stmt_column_text(st, 0));
			*refs = xstrdup((const char *)stmt_column_text(st, 1));
			*subject = xstrdup((const char *)
					   stmt_column_text(st, 2));
		}
	}
	stmt_finalize(st);
	*n_messages = n;
	if (rc != SQLITE_DONE || n != 1) {
		free(*msgid);
		free(*refs);
		free(*subject);
		*msgid = *refs = *subject = NULL;
		if (rc != SQLITE_DONE)
			return db_fail(db, rc, db->path, 0);
		return 0;
	}
	return 1;
}

void series_rows_free(struct series_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(rows[i].metric);
	free(rows);
}
