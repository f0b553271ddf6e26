/*
 * stats.h - summary statistics, two-sample tests, the % change confidence
 * interval and the special functions behind them.
 *
 * Conventions for every function below:
 * - Inputs are borrowed and never modified; nothing returned needs freeing.
 * - No global state: every function is reentrant and thread-safe.
 * - Functions that need a sorted copy or a work table use a stack buffer
 *   for small inputs (STATS_STACK_N values) and malloc() above that; if
 *   malloc() fails they return -1 (int functions) or NAN (double ones).
 * - Values must be finite; magnitudes whose squares overflow (|x| > ~1e150)
 *   are outside the supported range.
 * - "sd_sample" is the n-1 standard deviation, "sd_pop" the n one; the
 *   standard error of the mean is called sem, never stddev.
 * Validated against scipy 1.10 to 1e-9 relative: tests/unit/t-stats.c with
 * tests/ref/stats-ref.tsv (see tests/ref/README).
 */
#ifndef PERFSIFT_STATS_H
#define PERFSIFT_STATS_H

#include <stddef.h>

/* Inputs up to this many values are handled without malloc(). */
#define STATS_STACK_N 64

/*
 * Mann-Whitney U uses the exact null distribution (ties included) when both
 * samples have at most this many values, the normal approximation above.
 */
#define STATS_MWU_EXACT_MAX 25

/*
 * Summary of one set of samples.  Every standard deviation says which it
 * is.  Fields that cannot be computed are NAN.
 */
struct stats_summary {
	size_t n;
	double mean;		/* arithmetic mean */
	double hmean;		/* harmonic mean; NAN unless every x > 0 */
	double gmean;		/* geometric mean; NAN unless every x > 0 */
	/* linear interpolation, numpy's default ("type 7") */
	double median, q1, q3;
	double min, max;
	/* sample standard deviation (n-1 divisor); NAN if n < 2 */
	double sd_sample;
	/* population standard deviation (n divisor, as lkp uses) */
	double sd_pop;
	/* 100 * sd_sample / |mean|; NAN if n < 2 or mean == 0 */
	double cv_pct;
	/* standard error of the mean: sd_sample / sqrt(n); NAN if n < 2 */
	double sem;
};

/*
 * Fill *out from x[0..n).  x need not be sorted.  Returns 0, or -1 (and
 * *out untouched) if n == 0, a value is not finite, or malloc() failed
 * (n > STATS_STACK_N only).  Median and quartiles equal numpy.percentile()
 * with its default method, including its rounding.
 */
int stats_summarize(const double *x, size_t n, struct stats_summary *out);

/*
 * The part of a summary a comparison keeps for each side of each row:
 * no sort, no logarithm, a third of the size.  The same numbers as
 * stats_summarize()'s fields of these names, bit for bit.
 */
struct stats_moments {
	size_t n;
	double mean;		/* arithmetic mean */
	double hmean;		/* harmonic mean; NAN unless every x > 0 */
	double min, max;
	double sd_sample;	/* n-1 divisor; NAN if n < 2 */
	double sd_pop;		/* n divisor */
};
/* Fill *out from x[0..n); 0, or -1 (untouched) as stats_summarize(). */
int stats_moments(const double *x, size_t n, struct stats_moments *out);
/* 1 if every x[i] is finite (n = 0: 1), else 0. */
int stats_all_finite(const double *x, size_t n);

/* Arithmetic mean, two-pass with a correction term; NAN if n == 0. */
double stats_mean(const double *x, size_t n);

/* Sample standard deviation (n-1), corrected two-pass; NAN if n < 2. */
double stats_sd_sample(const double *x, size_t n);

/*
 * Harmonic mean, n / sum(1 / x[i]) summed in order; NAN if n == 0 or a
 * value is not above 0 (zero, negative or NaN: MMTests' -1 for an
 * undefined mean).  The hmean fields above are this, except that equal
 * values give that value exactly.
 */
double stats_hmean(const double *x, size_t n);

/*
 * Quantile of already sorted (ascending) data, p in [0,1], linear
 * interpolation between closest ranks (Hyndman-Fan type 7, numpy default).
 * NAN if n == 0 or p is outside [0,1].
 */
double stats_quantile_sorted(const double *sorted, size_t n, double p);

/*
 * MMTests conventions (research/mmtests.md §1.3): the data is ordered
 * best-first, i.e. descending if higher_is_better, else ascending, and the
 * first k = max(1, (int)(n * pct / 100)) values (at most n) are taken.
 * stats_mmtests_best_mean(): BAmean.N (harmonic = 0) or BHmean.N
 * (harmonic = 1) = the mean of those k values; the harmonic one is NAN
 * unless they are all > 0.
 * stats_mmtests_pctile(): Pctile.N = the k-th best value, no interpolation.
 * stats_mmtests_hstddev(): HStddev = sqrt(sum (1/x - 1/H)^2 * H^4 / n),
 * H the harmonic mean of all n values; NAN unless every x > 0 (0 for n=1).
 * All return NAN if n == 0 or pct is NAN.
 */
double stats_mmtests_best_mean(const double *x, size_t n, double pct,
			       int higher_is_better, int harmonic);
double stats_mmtests_pctile(const double *x, size_t n, double pct,
			    int higher_is_better);
double stats_mmtests_hstddev(const double *x, size_t n);

/*
 * The p-th percentile (0 < p <= 100) of a histogram as fio computes it
 * from its latency bins (stat.c calc_clat_percentiles): the value of the
 * first bin, in ascending order of value, where the running count
 * reaches p / 100 of the total.  v ascending, c their counts.  NAN if the
 * histogram is empty or p is out of range.
 */
double stats_hist_percentile(const double *v, const double *c, size_t n,
			     double p);

/*
 * Special functions.  All return NAN for NAN or out-of-domain arguments.
 * stats_betainc(): regularized incomplete beta I_x(a, b); a, b > 0,
 *   0 <= x <= 1.
 * stats_t_sf(): P(T > t) for Student's t with df > 0 degrees of freedom
 *   (df may be fractional; df = INFINITY gives the normal distribution).
 * stats_t_ppf(): its quantile: the t with P(T <= t) = p; -INFINITY at
 *   p = 0, INFINITY at p = 1.
 * stats_norm_sf(): P(Z > z) for the standard normal, via erfc().
 * stats_norm_ppf(): the z with P(Z <= z) = p.
 * Accuracy, measured against 50-digit mpmath: relative error below 5e-14
 * for df <= 1e4 (betainc: a, b <= 3e4), growing to ~4e-11 at df ~ 3e6;
 * quantiles keep relative accuracy near p = 1/2 and down to p = 1e-300.
 */
double stats_betainc(double a, double b, double x);
double stats_t_sf(double t, double df);
double stats_t_ppf(double p, double df);
double stats_norm_sf(double z);
double stats_norm_ppf(double p);

/* Result of a two-sample test. */
struct stats_test {
	/*
	 * Welch: t, positive when mean_a > mean_b (scipy's sign);
	 * Mann-Whitney: U of sample a.
	 */
	double stat;
	double df;	/* Welch-Satterthwaite df; NAN for MWU */
	double p;	/* two-sided p-value; NAN when it cannot be computed */
	int exact;	/* MWU: 1 if exact distribution used */
};

/*
 * Welch's unequal-variance t-test, two-sided; p from the t distribution
 * (stats_betainc), as scipy.stats.ttest_ind(equal_var=False).  Returns 0,
 * or -1 with stat, df and p NAN if na < 2, nb < 2 or a value is not
 * finite.  Both variances zero: df = NAN and, if the means are equal,
 * stat = 0 and p = 1, else stat = +-INFINITY and p = 0 (scipy would give
 * NAN there).
 */
int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_test *out);

/*
 * The same from summaries: sd_a, sd_b are sample standard deviations
 * (n-1), na, nb the sample counts (as doubles, >= 2).  As
 * scipy.stats.ttest_ind_from_stats(equal_var=False).
 */
int stats_welch_summary(double mean_a, double sd_a, double na,
			double mean_b, double sd_b, double nb,
			struct stats_test *out);

/*
 * Mann-Whitney U, two-sided.  stat = U of sample a = (number of pairs with
 * a_i > b_j) + (number of tied pairs) / 2, as scipy's statistic.
 * If na <= STATS_MWU_EXACT_MAX and nb <= STATS_MWU_EXACT_MAX: exact null
 * distribution given the observed tie pattern (exact = 1);
 * p = min(1, 2 * min(P(U <= u), P(U >= u))), a ratio of integers computed
 * exactly up to its final rounding.  Otherwise the normal approximation
 * with tie and continuity correction (exact = 0), as
 * scipy.stats.mannwhitneyu(method="asymptotic", use_continuity=True).
 * All values equal: p = 1.  Returns 0, or -1 with p NAN if na == 0,
 * nb == 0, a value is not finite or malloc() failed.
 */
int stats_mwu(const double *a, size_t na, const double *b, size_t nb,
	      struct stats_test *out);

/*
 * stats_mwu() in two steps, for a caller that may never need p: when
 * the test is exact and no value is tied, returns 1 with stat set and p
 * NAN; stats_mwu_p_untied(na, nb, stat) then gives the p stats_mwu()
 * would have, bit for bit.  Otherwise returns what stats_mwu() does,
 * with its p.
 */
int stats_mwu_deferred(const double *a, size_t na, const double *b,
		       size_t nb, struct stats_test *out);
/* The exact p of U = u for na x nb samples without ties; NAN if u is not
 * a possible U or the sizes are beyond STATS_MWU_EXACT_MAX. */
double stats_mwu_p_untied(size_t na, size_t nb, double u);

/* Smallest two-sided p attainable without ties: min(1, 2 / C(na+nb, na)). */
double stats_mwu_min_p(size_t na, size_t nb);

/*
 * Smallest n such that n-vs-n samples can reach p <= alpha (0.05 -> 4);
 * 0 if alpha is NAN, <= 0 or too small to ever be reached in a double.
 */
size_t stats_mwu_min_n(double alpha);

/*
 * Confidence interval of the % change of the mean, new (b) vs base (a):
 * 100 * (mean_b / mean_a - 1), by Fieller's theorem for the ratio of two
 * independent means, with the Welch-Satterthwaite df and the t quantile
 * at (1 + conf) / 2.  sd_* are sample standard deviations.  Returns 0, or
 * -1 with *lo_pct = *hi_pct = NAN when the interval is unbounded
 * (mean_a^2 <= t^2 * sd_a^2 / na: the base mean is not significantly
 * different from zero) or cannot be computed (n < 2, mean_a == 0, conf
 * outside (0,1), non-finite input).  Zero variance on both sides:
 * lo = hi = the point change.
 */
int stats_change_ci(double mean_a, double sd_a, double na,
		    double mean_b, double sd_b, double nb, double conf,
		    double *lo_pct, double *hi_pct);

/*
 * The t quantile at one level for any df, from a table: stats_tq_ppf()
 * interpolates log t over 1/df between the table's 8 nearest points
 * (Lagrange), with no evaluation of the t distribution.  The result is
 * stats_t_ppf()'s to 3e-13 (relative) for df up to 10,000 and 3e-11
 * beyond, at every level from 0.5 to 0.9999 (t-stats), far inside the
 * 1e-9 the statistics are checked to.  For a caller that needs the
 * quantile at one level for thousands of df (compare's intervals);
 * building the table costs 256 quantiles.
 */
#define STATS_TQ_N 256
#define STATS_TQ_ORDER 8
struct stats_tq {
	double p;			/* the quantile's level, (1 + conf) / 2 */
	int ok;				/* 0: conf outside (0, 1) */
	double y[STATS_TQ_N + 1];	/* log t_ppf(p, N / i); [0] normal */
};
void stats_tq_init(struct stats_tq *tq, double conf);
/* stats_t_ppf(tq->p, df); df below 1 or infinite: by stats_t_ppf() */
double stats_tq_ppf(const struct stats_tq *tq, double df);
/* stats_change_ci() at the table's conf, its quantiles from the table */
int stats_change_ci_tq(const struct stats_tq *tq, double mean_a,
		       double sd_a, double na, double mean_b, double sd_b,
		       double nb, double *lo_pct, double *hi_pct);

/*
 * Benjamini-Hochberg adjusted p-values (q-values), in input order:
 * q(k) = min_{j >= k} m p(j) / j over the sorted p-values, capped at 1.
 * NAN p-values are skipped (their q is NAN) and do not count in m.
 * q_out may not alias p.  Returns 0, or -1 (q_out all NAN) if malloc()
 * failed (m > STATS_STACK_N only).
 */
int stats_bh(const double *p, size_t m, double *q_out);
/*
 * The same q-values in place, for a caller that cannot afford a second
 * array of m (regressions, over every pair of a year of commits): p[]
 * is sorted ascending (no NAN) and becomes q in the same order, each
 * bit for bit what stats_bh() gives its p-value.  stats_sort() sorts it.
 * The q of a p-value x is p[stats_rank(p, m, x)] taken before the call:
 * the last position of x in the sorted p.
 */
void stats_bh_sorted(double *p, size_t m);
void stats_sort(double *v, size_t n);
size_t stats_rank(const double *sorted, size_t m, double x);

/*
 * Hodges-Lehmann shift estimate: median of the na * nb differences
 * b_j - a_i (mean of the middle two for an even count).  Positive when b
 * is larger.  NAN if a sample is empty, a value is not finite or malloc()
 * failed (na * nb > STATS_STACK_N; it needs na * nb doubles).
 */
double stats_hodges_lehmann(const double *a, size_t na,
			    const double *b, size_t nb);

#endif /* PERFSIFT_STATS_H */
