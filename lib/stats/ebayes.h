#ifndef PERFSIFT_EBAYES_H
#define PERFSIFT_EBAYES_H
/*
 * Empirical Bayes for the variances of a family of rows (Smyth 2004,
 * "Linear models and empirical Bayes methods for assessing differential
 * expression", the method of R's limma; written here from the paper's
 * formulas).
 *
 * The rows of a family (the fio results of one job, the proc-vmstat
 * counters of one run set) have variances s2[i] on d[i] degrees of
 * freedom.  Taken as draws of a scaled inverse chi-square prior with d0
 * degrees of freedom and scale s02, each row's variance is moderated
 * towards it:
 *
 *	s2_post = (d0 s02 + d s2) / (d0 + d)	on d0 + d degrees of freedom
 *
 * d0 is large when the family's variances agree (then a row's own noisy
 * variance counts for little) and small when they scatter.  The prior
 * is fitted by maximum likelihood: under it s2[i] / s02 follows an F
 * distribution on d[i] and d0 degrees of freedom (the random variance
 * model of Wright and Simon 2003, "A random variance model for
 * detection of differential gene expression in small microarray
 * experiments"), which at 3 to 5 runs a side finds d0 from a family of
 * 50 far more surely than Smyth's moments of log s2.  compare's default
 * test for a row of a family with a prior: docs/statistics.md.
 *
 * Checked against scipy (special.digamma, stats.f, optimize.brentq) on
 * tests/ref/stats-ref.tsv to 1e-9 relative.
 */
#include <stddef.h>

/* psi(x) for x > 0; NAN otherwise. */
double stats_digamma(double x);

struct stats_prior {
	double d0;	/* prior degrees of freedom (INFINITY: s02 exact) */
	double s02;	/* prior scale (a variance) */
};

/*
 * Fit the prior to the n variances s2[i] > 0 on d[i] > 0 degrees of
 * freedom (entries with s2 <= 0 or not finite are skipped), d0 at most
 * d0_max: the (d0, s02) of the largest likelihood, s02 the best scale
 * for that d0.  A family whose variances agree more than chi-square
 * draws would has its likelihood rising still at d0_max, and gets it.
 * Returns 0, or -1 when fewer than 2 entries are usable or d0_max is
 * not finite and > 0.
 */
int stats_fit_prior(const double *s2, const double *d, size_t n,
		    double d0_max, struct stats_prior *out);

/*
 * The moderated t-test of one row, two-sided: diff the difference of the
 * means, s2 the row's pooled variance on d degrees of freedom (s2 may be
 * 0), scale = 1/n1 + 1/n2.  Returns the p-value; NAN if an input is not
 * finite or d < 0.  *t_out (if not NULL) gets the statistic.
 */
double stats_moderated_t(double diff, double s2, double d, double scale,
			 const struct stats_prior *prior, double *t_out);

#endif
