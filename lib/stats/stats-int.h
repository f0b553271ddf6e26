#ifndef PERFSIFT_STATS_INT_H
#define PERFSIFT_STATS_INT_H
/*
 * Inside lib/stats (stats.c, distributions.c, mwu.c): the constants and
 * helpers the three files share.
 */
#include <stddef.h>

struct stats_test;

#define LN_SQRT_2PI	0.91893853320467274178	/* log(sqrt(2 pi)) */
#define LN_SQRT_PI	0.57236494292470008707	/* lgamma(1/2) */
#define SQRT_2PI	2.50662827463100050242
#define LN2		0.69314718055994530942
#define SQRT1_2		0.70710678118654752440

/* Work buffers: a stack array for small sizes, else malloc(). */
#define SCRATCH_STACK 1024	/* doubles for the MWU tables */

/*
 * Copy x into buf (n <= STATS_STACK_N) or a new malloc() block, sorted
 * (stats.c).  Returns the copy (free it with stats_put_sorted()), or
 * NULL if out of memory.
 */
double *stats_get_sorted(const double *x, size_t n, double *buf);
void stats_put_sorted(double *v, const double *buf);
/*
 * The Student t distribution of one df (distributions.c): what every
 * evaluation for that df shares.
 */
struct tdist {
	double df;
	double half_df;		/* a = df/2 of the beta form */
	double lb;		/* log B(df/2, 1/2) */
	double log_df;
};
void stats_tdist_init(struct tdist *td, double df);
/*
 * P(|T| > t) for t >= 0; the density at t into *pdf and P(|T| <= t)
 * into *comp where they are not NULL.
 */
double stats_t_tail2(const struct tdist *td, double t, double *pdf,
		     double *comp);

/* Every field of a test's result NAN (exact 0). */
void stats_test_nan(struct stats_test *out);

#endif
