/*
 * changepoint.h - change points in a metric's history: the E-divisive
 * means statistic (Matteson & James 2014, univariate, alpha = 1) over
 * every split point in O(n log n), and Otava/Hunter-style detection:
 * the best split of a segment is kept if a t-test between its two sides
 * is significant, then both sides are split again.
 *
 * Conventions as in stats.h: inputs are borrowed and never modified, no
 * global state, values must be finite, and functions that allocate
 * return -1 if malloc() fails.  Validated against a brute-force O(n^2)
 * numpy/scipy implementation: tests/unit/t-changepoint.c with
 * tests/ref/changepoint-ref.tsv (see tests/ref/README).
 */
#ifndef PERFSIFT_CHANGEPOINT_H
#define PERFSIFT_CHANGEPOINT_H

#include <stddef.h>

/*
 * The E-divisive statistic of every split of x[0..n).  For a split tau
 * (1 <= tau < n) the left side is x[0..tau) (m = tau points) and the
 * right side x[tau..n) (k = n - tau points):
 *
 *   Q(tau) = m k / (m + k) * ( 2 / (m k) * sum_{i < tau <= j} |x_i - x_j|
 *            - sum_{i < i' < tau} |x_i - x_i'| / C(m, 2)
 *            - sum_{tau <= j < j'} |x_j - x_j'| / C(k, 2) )
 *
 * (U-statistic denominators, as Matteson & James and Otava).  A within
 * term is defined as 0 when its side has fewer than 2 points (m < 2 or
 * k < 2), so Q(1) and Q(n-1) are finite.  Ties are exact: equal values
 * contribute nothing to any sum.
 *
 * q_out has n entries: q_out[tau] = Q(tau) for 1 <= tau < n and
 * q_out[0] = NAN.  Returns 0 (n = 0 or 1: nothing to compute), or -1 if a
 * value is not finite or malloc() failed; q_out is then undefined.
 * O(n log n) time (one sort, two Fenwick-tree passes), O(n) memory.
 */
int cp_ediv(const double *x, size_t n, double *q_out);

/* Options of cp_detect(); CP_OPTIONS_INIT gives Otava's defaults. */
struct cp_options {
	/*
	 * A split is kept only if the two-sided p-value of its two sides
	 * (within the segment being split) is below this.  Otava's
	 * default, 0.001.
	 */
	double max_pvalue;
	/*
	 * ... and its magnitude max(|b/a - 1|, |a/b - 1|) (a, b the two
	 * means; Otava's definition) is above this.  0 (Otava's default
	 * since 2024): any change of the mean that is significant.
	 */
	double min_magnitude;
	/*
	 * Fewest points on each side of a split, counted in points (not
	 * groups); values below 2 are taken as 2, since the t-test needs a
	 * variance on each side.  Default 3.
	 */
	size_t min_size;
	/*
	 * 0 (default): Student's pooled-variance t-test, as Otava
	 * (scipy.stats.ttest_ind); 1: Welch's (stats_welch()).  Welch
	 * estimates the variance of a short side from its own few points:
	 * on flat noise the best split often cuts 3 points off an end,
	 * and 3 points that happen to lie close together give a tiny
	 * variance and p < 1e-9 (a false change point in about one flat
	 * series of 200 points in ten); the pooled variance does not.
	 */
	int welch;
};
#define CP_OPTIONS_INIT { 0.001, 0.0, 3, 0 }

/* One change point, between the segments adjacent to it. */
struct cp_point {
	size_t index;		/* first point after the change */
	size_t n_before;	/* points of the segment before it */
	size_t n_after;		/* points of the segment after it */
	double mean_before, mean_after;
	/* 100 * (mean_after / mean_before - 1); NAN if mean_before == 0 */
	double change_pct;
	/* max(|b/a - 1|, |a/b - 1|); INFINITY if one mean is 0 */
	double magnitude;
	/*
	 * Two-sided p-value (opt's test) of the segment before against
	 * the segment after, as finally split (the same adjacent segments as the
	 * means).  The decision to split was taken on the wider segment
	 * then being split, so this may exceed max_pvalue in rare cases.
	 */
	double pvalue;
	double q;		/* Q of the split in the segment it came from */
};

struct cp_result {
	struct cp_point *points;	/* owned, malloc(); sorted by index */
	size_t nr;
};
#define CP_RESULT_INIT { NULL, 0 }

/*
 * Find the change points of x[0..n).  Each segment (at first the whole
 * series) is split at the allowed tau with the largest Q (the first one
 * on ties), Q computed over the segment alone, if the split passes the
 * t-test and magnitude of opt; then both sides are split in turn.
 *
 * group: NULL, or n non-decreasing ids (e.g. the commit's position, one
 * id for several runs at one commit); splits are then allowed only
 * between two different ids, never inside a group.  Q is still computed
 * over all points.
 *
 * opt: NULL for CP_OPTIONS_INIT.  On success out is filled (release it
 * with cp_result_release(); out->points is NULL when nothing is found)
 * and 0 is returned; -1 if a value is not finite, group is not
 * non-decreasing, an option is NAN, or malloc() failed (out then empty).
 */
int cp_detect(const double *x, const size_t *group, size_t n,
	      const struct cp_options *opt, struct cp_result *out);

/* Free out->points and empty *out. */
void cp_result_release(struct cp_result *out);

#endif /* PERFSIFT_CHANGEPOINT_H */
