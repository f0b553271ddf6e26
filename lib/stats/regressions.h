#ifndef REGRESSIONS_H
#define REGRESSIONS_H
/*
 * Every significant regression in the database: each variant (label)
 * against its predecessor (commit order when the commits table places
 * every variant, else import order), or every variant against one base.
 * The false discovery rate is controlled over all the comparisons
 * together: Benjamini-Hochberg across every p-value of every pair.
 */
#include "stats/compare.h"

struct regressions {
	struct selector *var;		/* owned: the variants, in order */
	size_t nvar;
	int by_commit;			/* ordered by recorded commit order */
	struct comparison *cmp;		/* owned: one per pair (or one) */
	size_t ncmp;
	long nr_regressions;
};

/* base may be NULL.  Returns 0, -1 after error() (db), -2 bad selector. */
int regressions_find(struct db *db, const char *base,
		     const struct cmp_opts *opts, struct regressions *out);
void regressions_release(struct regressions *r);

/* Call fn for every regression found: row r of comparison c, variant v. */
void regressions_each(const struct regressions *rg,
		      void (*fn)(const struct comparison *c,
				 const struct cmp_row *r, size_t v,
				 void *data),
		      void *data);

#endif
