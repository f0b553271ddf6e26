#ifndef ANALYSIS_LOAD_H
#define ANALYSIS_LOAD_H
/*
 * The loader of a comparison (load.c, load-metrics.c, load-samples.c):
 * the variants' runs, samples and aggregates read from the database into
 * rows, each row's samples digested (their moments, a hash for twins) as
 * they come and then dropped unless keep_samples.  It knows nothing of
 * tests: what the analysis needs of the samples themselves it takes in
 * the digest callback, while they are there.
 */
#include "analysis/compare.h"

/*
 * The analysis's part of a row's digest: called once for every row that
 * had samples, after the loader's part (each side's moments and
 * plain_mean, the row's hash, direction and kpi) and before its samples
 * go.  It runs on the loading thread and on the digest's helper at once:
 * it may write row r only, and read c's options.
 */
typedef void cmp_digest_fn(const struct comparison *c, struct cmp_row *r);

/*
 * Load comparison c: c->var, c->nvar and c->opts are set, the rest as
 * the analysis left it (zero but for its own fields).  Fills c->rows
 * (sorted by group, then metric in natural order; directions resolved),
 * c->runs and the pool; the filters of what is shown are not applied.
 * Returns 0, or -1 after error() (a database error, a damaged blob, the
 * memory budget): then c holds what was loaded, for
 * comparison_release().
 */
int cmp_load(struct db *db, struct comparison *c, cmp_digest_fn *digest);

/*
 * Free what cmp_load() made in c: its rows and what they own, their
 * chunks, the pool, the runs (the fields stay as they are).
 */
void cmp_load_release(struct comparison *c);

/*
 * A copy of s[0..len) and a NUL that lives as long as c (its pool);
 * c's own, never freed alone.
 */
char *cmp_pool_addn(struct comparison *c, const char *s, size_t len);

#endif
