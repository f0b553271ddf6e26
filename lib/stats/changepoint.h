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
	/*
	 * Windowed mode only (cp_detect() ignores it): 1 (default): the
	 * merge pass keeps a change point when its p times the number of
	 * splits its two segments allow (group boundaries at least
	 * min_size from their ends) is below max_pvalue, a Bonferroni
	 * bound for having picked the best split; 0: Otava's plain p,
	 * which on flat noise keeps false change points around the most
	 * extreme stretch of a long series (a quarter of flat series of
	 * 1,000 points; docs/changepoints.md).
	 */
	int bonferroni;
};
#define CP_OPTIONS_INIT { 0.001, 0.0, 3, 0, 1 }

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

/*
 * Windowed detection with Otava's merge pass, for long histories.
 *
 * The split pass: the recursion of cp_detect() runs inside a window of
 * the series, x[start..start+window), with a relaxed p threshold (10 x
 * max_pvalue if max_pvalue < 0.05, 2 x if < 0.5, else max_pvalue itself)
 * and no magnitude test; the next window starts at the last change point
 * it found or half a window further, whichever is later, until the end
 * of the series.  The union of what the windows found are the "weak"
 * change points.  Window edges are moved to group boundaries: an end in
 * the middle of a group moves back to the group's start, or forward to
 * its end when moving back would leave nothing, and starts likewise.
 *
 * The merge pass: each weak change point is tested (opt's t-test) between
 * its two neighbouring segments, the neighbours being the adjacent weak
 * change points or the ends of the series; with opt->bonferroni (the
 * default) the p it is judged by is that p times the number of splits
 * the two segments allow (see struct cp_options).  Repeatedly, the one
 * with the largest p is removed if p >= max_pvalue; when none is, the one
 * with the smallest magnitude is removed if its magnitude <=
 * min_magnitude; after each removal its two neighbours are tested again
 * on the merged segment.  Ties go to the lower index.  What is left has
 * p < max_pvalue and magnitude > min_magnitude.  The p reported in
 * struct cp_point is the plain one, as cp_detect() reports it.
 *
 * The segment statistics of the merge pass and of the result come from
 * prefix sums (compensated, of x - x[0]), so each test costs O(1) plus
 * the p-value; they agree with the direct two-pass computation of
 * cp_detect() to about 1e-12 relative.  struct cp_point is filled as
 * cp_detect() fills it; q is the change point's Q in the split (within
 * its window) that found it.
 *
 * cp_detect() itself has no merge pass: its splits are already tested at
 * max_pvalue (not a relaxed threshold) on the segment being split, so the
 * merge would only drop the rare point whose final p, on the narrower
 * segments after later splits, went above max_pvalue; that would change
 * results validated against tests/ref/changepoint-ref.tsv for no gain
 * the planted-step benchmark (tests/cp-synth.c) can show.
 */
#define CP_WINDOW_DEFAULT 50	/* Otava's window_len */

/*
 * The change points of x[0..n) (group and opt as for cp_detect()) by the
 * windowed split and merge passes above.  window: points per window, at
 * least 2 * min_size (min_size as cp_detect() takes it).  Returns 0 with
 * out filled (release it with cp_result_release()), or -1 as cp_detect()
 * does, and also for a window too small.  O(n w log w) for the split
 * pass, O(k log k) for the merge of k weak change points.
 */
int cp_detect_windowed(const double *x, const size_t *group, size_t n,
		       size_t window, const struct cp_options *opt,
		       struct cp_result *out);

/*
 * Incremental windowed detection: a series that grows at its end, its
 * change points kept up to date as cp_detect_windowed() would compute
 * them on the whole series so far (the unit test proves they are equal).
 *
 * State kept: the points, their groups and prefix sums, the windows run
 * and the weak change points each found, and the result.  An append
 * re-runs only the windows that reached the old end of the series (the
 * earlier ones saw no point that changed, so they find what they found;
 * Otava re-splits from max(last old weak change point, n - (new/W + 4)
 * W), which can differ from a full run; this is the exact version), then
 * the merge pass on the tail only: from the last old change point whose
 * survival it can prove (its test passes against every pair of the left
 * neighbours it had in earlier merges, which are recorded, and the right
 * neighbours the tail's merge gives it: then everything before it merges
 * as before), or over all weak change points when no such proof is
 * found (a history with no change point yet).  About W/2 to 2 W points
 * are re-split per append, and the weak change points since the last
 * change point merged again: about 50 microseconds per point appended
 * to a million-point series at W = 50 (docs/bench.md).
 */
struct cp_stream;

/*
 * A new empty stream (free it with cp_stream_free()), or NULL if an
 * option is NAN, window < 2 * min_size, or malloc() failed.  opt: NULL
 * for CP_OPTIONS_INIT; copied.
 */
struct cp_stream *cp_stream_new(size_t window, const struct cp_options *opt);

/*
 * Append x[0..nr) with their group ids (NULL: each point a group of its
 * own), then update the change points.  Groups must not decrease, also
 * against the last point already in; a first id equal to the last one
 * adds runs to the last group.  Returns 0, or -1 if a value is not
 * finite or a group id decreases (the stream is then unchanged), or if
 * malloc() failed (the stream can then only be freed).
 */
int cp_stream_append(struct cp_stream *cs, const double *x,
		     const size_t *group, size_t nr);

/* The change points so far: owned by cs, valid until its next append. */
const struct cp_result *cp_stream_result(const struct cp_stream *cs);

/* Points in the stream, and weak change points (after the split pass). */
size_t cp_stream_len(const struct cp_stream *cs);
size_t cp_stream_nr_weak(const struct cp_stream *cs);

/*
 * Appends whose merge pass ran over all weak change points because no
 * barrier could be proved (for the tests and the benchmark).
 */
size_t cp_stream_full_merges(const struct cp_stream *cs);

/* Free everything of cs; NULL is allowed. */
void cp_stream_free(struct cp_stream *cs);

#endif /* PERFSIFT_CHANGEPOINT_H */
