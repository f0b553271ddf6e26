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
 * degrees of freedom and scale s02, the prior is fitted by moments of
 * log s2, and each row's variance is moderated towards it:
 *
 *	s2_post = (d0 s02 + d s2) / (d0 + d)	on d0 + d degrees of freedom
 *
 * d0 is large when the family's variances agree (then a row's own noisy
 * variance counts for little) and small when they scatter.  compare's
 * default test for a row of a family with a prior: docs/statistics.md.
 *
 * Checked against scipy (special.digamma, special.polygamma,
 * optimize.brentq) on tests/ref/stats-ref.tsv to 1e-9 relative.
 */
#include <stddef.h>

/* psi(x), psi'(x), psi''(x) for x > 0; NAN otherwise. */
double stats_digamma(double x);
double stats_trigamma(double x);
double stats_tetragamma(double x);
/* The y > 0 with stats_trigamma(y) = x, for x > 0; NAN otherwise. */
double stats_trigamma_inv(double x);

struct stats_prior {
	double d0;	/* prior degrees of freedom; INFINITY: all equal */
	double s02;	/* prior scale (a variance) */
};

/*
 * Fit the prior to the n variances s2[i] > 0 on d[i] > 0 degrees of
 * freedom (entries with s2 <= 0 or not finite are skipped).  Returns 0,
 * or -1 when fewer than 2 entries are usable.
 */
int stats_fit_prior(const double *s2, const double *d, size_t n,
		    struct stats_prior *out);

/*
 * Hold the prior to at most d0_max degrees of freedom (> 0), its scale
 * refitted as stats_fit_prior() would give it for that d0: s02 scales by
 * exp(psi(d0_max/2) - log(d0_max/2)) over the same of the fitted d0 (1
 * for an infinite one).  compare holds a family's prior to the degrees
 * of freedom of its rows but one.
 */
void stats_prior_cap(struct stats_prior *prior, double d0_max);

/*
 * The moderated t-test of one row, two-sided: diff the difference of the
 * means, s2 the row's pooled variance on d degrees of freedom (s2 may be
 * 0), scale = 1/n1 + 1/n2.  Returns the p-value; NAN if an input is not
 * finite or d < 0.  *t_out (if not NULL) gets the statistic.
 */
double stats_moderated_t(double diff, double s2, double d, double scale,
			 const struct stats_prior *prior, double *t_out);

#endif
