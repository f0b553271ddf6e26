#ifndef REGRESSIONS_H
#define REGRESSIONS_H
/*
 * Every significant regression in the database: each variant (label)
 * against its predecessor (commit order when the commits table places
 * every variant, else import order), or every variant against one base.
 * The false discovery rate is controlled over all the comparisons
 * together: Benjamini-Hochberg across every p-value of every pair.
 */
#include "analysis/compare.h"

/* The order of the variants (regressions --order). */
enum rg_order {
	RG_ORDER_AUTO,		/* commit order when it places every variant */
	RG_ORDER_GIT,		/* commit order, or an error */
	RG_ORDER_IMPORT,	/* import order */
};

/* The commit of a variant; sha NULL: none, or several. */
struct rg_commit {
	char *sha;			/* owned; as stored (full when linked) */
	char *subject;			/* owned; NULL: not recorded */
};

struct regressions {
	struct selector *var;		/* owned: the variants, in order */
	struct rg_commit *commit;	/* owned: one per variant */
	size_t nvar;
	int by_commit;			/* ordered by recorded commit order */
	/*
	 * owned: one per pair (or one), each holding only the rows that
	 * may be regressions (the others are dropped once their p-values
	 * are taken, to bound memory)
	 */
	struct comparison *cmp;
	size_t ncmp;
	struct cmp_metrics *metrics;	/* owned: the comparisons' metrics */
	struct stats_tq ci_tq;		/* their intervals' quantiles */
	long nr_regressions;
	long nr_changed;	/* significant changes of metrics whose
				 * direction is not known */
	/*
	 * The (metric, pair) comparisons with both sides present: tested
	 * (a p-value, an exact metric's values, the source's marker, or
	 * the same values on both sides), or not: the means differ and no
	 * test could run (fewer than two runs a side, no spread)
	 */
	long nr_tested, nr_untested;
};

/*
 * base may be NULL.  Returns 0, -1 after error() (db), -2 bad selector,
 * -3 after error() listing them when order is RG_ORDER_GIT and some
 * variants have no recorded commit.
 */
int regressions_find(struct db *db, const char *base, enum rg_order order,
		     const struct cmp_opts *opts, struct regressions *out);
void regressions_release(struct regressions *r);

/*
 * Call fn for every pair of verdict which (CMP_REGRESSION, or
 * CMP_CHANGED: a metric whose direction is not known) found: row r of
 * comparison c, variant v.
 */
void regressions_each(const struct regressions *rg, enum cmp_verdict which,
		      void (*fn)(const struct comparison *c,
				 const struct cmp_row *r, size_t v,
				 void *data),
		      void *data);

/*
 * The commit of variant v (0: the base) of comparison c of rg: for a
 * regression, v = 0 is the last good commit and v the first bad one
 * (in commit order; in import order, just the pair compared).
 */
const struct rg_commit *regressions_commit(const struct regressions *rg,
					   const struct comparison *c,
					   size_t v);

#endif
