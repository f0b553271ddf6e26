/*
 * Finding every significant regression (see regressions.h).
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "analysis/regressions.h"
#include "store/direction.h"

/*
 * Insertion sort of r's variants by pos, their commits' positions (the
 * import order breaks ties).
 */
static void sort_by_commit(struct regressions *r, int64_t *pos)
{
	size_t i, j;

	for (i = 1; i < r->nvar; i++) {
		struct selector t = r->var[i];
		int64_t tp = pos[i];

		for (j = i; j > 0 && pos[j - 1] > tp; j--) {
			r->var[j] = r->var[j - 1];
			pos[j] = pos[j - 1];
		}
		r->var[j] = t;
		pos[j] = tp;
	}
}

/*
 * Labels in import order; within one import (a table of several
 * columns), in the order their variants first appeared.
 */
static int list_variants(struct db *db, enum rg_order order,
			 struct regressions *r)
{
	struct stmt *st = db_prepare(db,
		"SELECT v.label, min(x.imp), min(c.position),"
		" count(c.position) = count(*) FROM variants v JOIN ("
		" SELECT variant_id AS vid, import_id AS imp FROM runs UNION ALL"
		" SELECT variant_id, import_id FROM aggregates) x ON"
		" x.vid = v.id LEFT JOIN commits c ON c.sha = v.commit_sha"
		" WHERE v.label != '' GROUP BY v.label"
		" ORDER BY min(x.imp), min(v.id), v.label");
	int64_t *pos = NULL;
	size_t alloc = 0, alloc_pos = 0;
	int all_placed = 1, rc;
	struct sbuf unplaced = SBUF_INIT;

	if (!st)
		return -1;
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		struct selector *s;

		ALLOC_GROW(r->var, r->nvar + 1, alloc);
		ALLOC_GROW(pos, r->nvar + 1, alloc_pos);
		s = &r->var[r->nvar];
		memset(s, 0, sizeof(*s));
		s->dim = DIM_LABEL;
		s->value = xstrdup((const char *)stmt_column_text(st, 0));
		s->text = xstrdup(s->value);
		pos[r->nvar] = stmt_column_int64(st, 2);
		if (!stmt_column_int(st, 3)) {
			all_placed = 0;
			sbuf_addf(&unplaced, "%s    %s", unplaced.len ? "\n" : "",
				  s->value);
		}
		r->nvar++;
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE) {
		free(pos);
		sbuf_release(&unplaced);
		return error("%s: %s", db->path, db_errmsg(db));
	}
	if (order == RG_ORDER_GIT && !all_placed) {
		error("--order git: no recorded commit for these variants "
		      "(run 'perfsift commits import'):");
		fprintf(stderr, "%s\n", unplaced.buf);
		free(pos);
		sbuf_release(&unplaced);
		return -3;
	}
	sbuf_release(&unplaced);
	r->by_commit = order == RG_ORDER_GIT ||
		       (order == RG_ORDER_AUTO && all_placed && r->nvar > 1);
	if (r->by_commit)
		sort_by_commit(r, pos);
	free(pos);
	return 0;
}

/*
 * The one commit of a variant (a label, or a commit selector) and its
 * recorded subject.  0 or -1 after error().
 */
static int variant_commit(struct db *db, const struct selector *s,
			  struct rg_commit *out)
{
	struct stmt *st;
	int rc, nr = 0;

	memset(out, 0, sizeof(*out));
	if (s->dim != DIM_LABEL && s->dim != DIM_COMMIT)
		return 0;
	st = db_prepare(db, s->dim == DIM_LABEL ?
		"SELECT v.commit_sha, min(c.subject) FROM variants v LEFT JOIN"
		" commits c ON c.sha = v.commit_sha WHERE v.label = ?1 AND"
		" v.commit_sha != '' GROUP BY v.commit_sha ORDER BY"
		" v.commit_sha LIMIT 2" :
		"SELECT ?1, (SELECT subject FROM commits WHERE sha = ?1)");
	if (!st)
		return -1;
	stmt_bind_text(st, 1, s->value, -1, SQLITE_TRANSIENT);
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		const char *sub = (const char *)stmt_column_text(st, 1);

		if (nr++)
			break;
		out->sha = xstrdup((const char *)stmt_column_text(st, 0));
		out->subject = sub ? xstrdup(sub) : NULL;
	}
	stmt_finalize(st);
	if (nr > 1) {	/* several commits: none to name */
		free(out->sha);
		free(out->subject);
		memset(out, 0, sizeof(*out));
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return error("%s: %s", db->path, db_errmsg(db));
	return 0;
}

const struct rg_commit *regressions_commit(const struct regressions *rg,
					   const struct comparison *c,
					   size_t v)
{
	size_t k = (size_t)(c - rg->cmp);

	/* with --base, one comparison of every variant; else pairs */
	return &rg->commit[rg->ncmp == 1 && c->nvar == rg->nvar ? v : k + v];
}

/* The relative rounding of Benjamini-Hochberg's product and quotient */
#define BH_MARGIN 1e-9

/*
 * Could variant v on row r turn out a regression (or a change of a
 * metric whose direction is not known) once its q-value is known?  Not
 * when its mean moved the better way (compare.c's verdict()), nor when
 * its p-value is past alpha
 * already: Benjamini-Hochberg only raises a p-value (by m / rank >= 1;
 * BH_MARGIN covers the rounding of that product and quotient), and
 * compare_decide() holds q, or p without FDR control, to alpha.  Exact
 * metrics and source markers decide without either.
 */
static int may_regress(const struct comparison *c, const struct cmp_row *r,
		       size_t v)
{
	double a = r->side[0].mean, b = r->side[v].mean;
	const struct cmp_vs *vs = &r->vs[v - 1];

	if (!isfinite(a) || !isfinite(b) || a == b ||
	    (r->direction != DIR_UNKNOWN &&
	     (b < a) != (r->direction == DIR_HIGHER)))
		return 0;
	if (vs->exact_decided)
		return vs->exact_changed;
	if (vs->method == CMP_SOURCE)
		return 1;
	return isfinite(vs->p) && vs->p < c->opts.alpha * (1 + BH_MARGIN);
}

/*
 * Append the finite p-values of comparison c to p (every row, as the
 * one false discovery rate takes them), count the comparisons tested
 * and not into out, then drop the rows that cannot
 * be regressions; the kept rows get their intervals, which
 * compare_decide() reads.
 */
static void take_p_values(struct regressions *out, struct comparison *c,
			  double **p, size_t *np, size_t *alloc_p)
{
	size_t nvs = c->nvar - 1, i, v, kept = 0;

	for (i = 0; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];
		int keep = 0;

		for (v = 0; v < nvs; v++) {
			const struct cmp_vs *vs = &r->vs[v];

			if (isfinite(vs->p)) {
				ALLOC_GROW(*p, *np + 1, *alloc_p);
				(*p)[(*np)++] = vs->p;
			}
			if (isfinite(r->side[0].mean) &&
			    isfinite(r->side[v + 1].mean)) {
				/* equal means without a p: the same values */
				if (isfinite(vs->p) || vs->exact_decided ||
				    vs->method == CMP_SOURCE ||
				    r->side[0].mean == r->side[v + 1].mean)
					out->nr_tested++;
				else
					out->nr_untested++;
			}
			keep |= may_regress(c, r, v + 1);
		}
		if (!keep) {
			cmp_row_release(c, r);
			continue;
		}
		compare_row_ci(c, r);
		c->rows[kept++] = *r;
	}
	/* what stays of the comparison until the output: its kept rows */
	c->rows = xrealloc_big(c->rows, c->alloc * sizeof(*c->rows),
			       (kept + 1) * sizeof(*c->rows));
	c->nr = kept;
	c->alloc = kept + 1;
	comparison_compact(c);
}

/*
 * The variant base (a selector) first in out->var, the labels after it
 * (without base's own).  0, -1 after error(), -2 bad selector.
 */
static int base_first(struct db *db, const char *base, struct regressions *out)
{
	struct selector bsel;
	size_t i;
	int r;

	r = selector_resolve(db, base, DIM_AUTO, NULL, &bsel);
	if (r) {
		selector_release(&bsel);
		return r == -1 ? -2 : -1;
	}
	for (i = 0; i < out->nvar; i++)
		if (bsel.dim == DIM_LABEL &&
		    !strcmp(out->var[i].value, bsel.value))
			break;
	if (i < out->nvar) {
		selector_release(&out->var[i]);
		memmove(&out->var[i], &out->var[i + 1],
			(out->nvar - i - 1) * sizeof(*out->var));
		out->nvar--;
	}
	out->var = xrealloc(out->var, (out->nvar + 1) * sizeof(*out->var));
	memmove(&out->var[1], &out->var[0], out->nvar * sizeof(*out->var));
	out->var[0] = bsel;
	out->nvar++;
	return 0;
}

/*
 * The comparisons' verdicts from one false discovery rate over the
 * p-values p[0..np) of all of them, which it takes (sorted, then their
 * q-values in place: a year of commits has millions).
 */
static void decide_all(struct regressions *out, const struct cmp_opts *opts,
		       double *p, size_t np)
{
	size_t i, k, v;

	if (opts->fdr)
		stats_sort(p, np);
	for (k = 0; k < out->ncmp; k++) {
		struct comparison *c = &out->cmp[k];

		for (i = 0; i < c->nr; i++)
			for (v = 0; v + 1 < c->nvar; v++) {
				struct cmp_vs *vs = &c->rows[i].vs[v];

				/*
				 * q holds the pair's rank in the sorted p
				 * until the p-values there become q-values
				 */
				if (isfinite(vs->p))
					vs->q = opts->fdr ? (double)stats_rank(
						p, np, vs->p) : vs->p;
			}
	}
	if (opts->fdr)
		stats_bh_sorted(p, np);
	for (k = 0; k < out->ncmp; k++) {
		struct comparison *c = &out->cmp[k];

		if (opts->fdr)
			for (i = 0; i < c->nr; i++)
				for (v = 0; v + 1 < c->nvar; v++) {
					struct cmp_vs *vs = &c->rows[i].vs[v];

					if (isfinite(vs->p))
						vs->q = p[(size_t)vs->q];
				}
		c->opts.defer = 0;
		compare_decide(c);
		out->nr_regressions += c->nr_regressions;
		out->nr_changed += c->nr_changed;
	}
}

/*
 * Each pair (or the one comparison against base) compared with o, the
 * p-values taken and the verdicts decided over all of them.  0, or -1
 * after error().
 */
static int compare_all(struct db *db, const char *base, struct cmp_opts *o,
		       struct regressions *out)
{
	double *p = NULL;
	size_t np = 0, alloc_p = 0, k;

	out->ncmp = base ? 1 : out->nvar - 1;
	out->cmp = xcalloc(out->ncmp, sizeof(*out->cmp));
	for (k = 0; k < out->ncmp; k++) {
		struct selector *pair = base ? out->var : &out->var[k];
		size_t n = base ? out->nvar : 2;

		if (compare_variants(db, pair, n, o, &out->cmp[k])) {
			free(p);
			return -1;
		}
		take_p_values(out, &out->cmp[k], &p, &np, &alloc_p);
		/* the pairs to come are alike: room for them at once */
		if (k == 0 && out->ncmp > 1) {
			alloc_p = np * out->ncmp + np / 8 + 16;
			p = xrealloc(p, alloc_p * sizeof(*p));
		}
	}
	/* one false discovery rate over every p-value of every pair */
	decide_all(out, o, p, np);
	free(p);
	return 0;
}

int regressions_find(struct db *db, const char *base, enum rg_order order,
		     const struct cmp_opts *opts, struct regressions *out)
{
	struct cmp_opts o = *opts;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	r = list_variants(db, order, out);
	if (r)
		return r == -3 ? -3 : -1;
	if (base && (r = base_first(db, base, out)))
		return r;
	out->commit = xcalloc(out->nvar + 1, sizeof(*out->commit));
	for (i = 0; i < out->nvar; i++)
		if (variant_commit(db, &out->var[i], &out->commit[i]))
			return -1;
	if (out->nvar < 2)
		return 0;
	/* the metrics read once for every pair */
	out->metrics = cmp_metrics_load(db);
	if (!out->metrics)
		return -1;
	o.metrics = out->metrics;
	stats_tq_init(&out->ci_tq, 1.0 - o.alpha);
	o.ci_tq = &out->ci_tq;
	o.defer = 1;
	o.ci_later = 1;
	return compare_all(db, base, &o, out);
}

void regressions_release(struct regressions *r)
{
	size_t i;

	for (i = 0; i < r->ncmp; i++)
		comparison_release(&r->cmp[i]);
	free(r->cmp);
	for (i = 0; i < r->nvar; i++) {
		selector_release(&r->var[i]);
		if (r->commit) {
			free(r->commit[i].sha);
			free(r->commit[i].subject);
		}
	}
	free(r->var);
	free(r->commit);
	cmp_metrics_free(r->metrics);	/* after the rows borrowing it */
	memset(r, 0, sizeof(*r));
}

void regressions_each(const struct regressions *rg, enum cmp_verdict which,
		      void (*fn)(const struct comparison *c,
				 const struct cmp_row *r, size_t v,
				 void *data),
		      void *data)
{
	size_t k, i, v;

	for (k = 0; k < rg->ncmp; k++) {
		const struct comparison *c = &rg->cmp[k];

		for (i = 0; i < c->nr; i++)
			for (v = 1; v < c->nvar; v++)
				if (c->rows[i].vs[v - 1].verdict == which)
					fn(c, &c->rows[i], v, data);
	}
}
