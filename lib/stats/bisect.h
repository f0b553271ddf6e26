/*
 * bisect.h - the verdict on one commit of a bisection: is it like the
 * good commit, like the bad one, or can the runs not tell yet?
 *
 * A commit's mean is tested against the good commit's and the bad
 * one's with Student's t, using one standard deviation for the whole
 * series: the pooled within-commit sample standard deviation (n-1 per
 * commit; see bisect_noise()).  A benchmark on one machine has about
 * the same noise at every commit, and pooling is what makes 3 runs per
 * commit enough: 3 runs alone give a t-test 4 degrees of freedom, the
 * pooled estimate of a bisection with 10 tested commits about 20.
 *
 * Conventions as in stats.h: inputs are borrowed, no global state.
 */
#ifndef PERFSIFT_BISECT_H
#define PERFSIFT_BISECT_H

#include <stddef.h>

/* The noise of a series, pooled over its commits. */
struct bisect_noise {
	/*
	 * sqrt(sum over commits of sum (x - commit mean)^2 / df): the
	 * pooled within-commit sample standard deviation.
	 */
	double sd;
	double df;		/* runs - commits, of commits with >= 2 runs */
	size_t commits;		/* commits with >= 2 runs */
};

/*
 * The noise of x[0..n), whose points are grouped by the non-decreasing
 * ids group[0..n) (one id per commit).  Commits with one run add
 * nothing.  Returns 0; -1 when no commit has 2 runs (df 0: no estimate)
 * or a value is not finite.
 */
int bisect_noise(const double *x, const size_t *group, size_t n,
		 struct bisect_noise *out);

/*
 * Two-sided p-value of Student's t for the means ma (na runs) and mb
 * (nb runs) with the pooled noise nz: t = (ma - mb) / (sd sqrt(1/na +
 * 1/nb)), nz->df degrees of freedom.  With sd 0 (every commit's runs
 * equal): 1 if the means are equal, else 0.
 */
double bisect_p(const struct bisect_noise *nz, double ma, size_t na,
		double mb, size_t nb);

/*
 * Runs at each of two commits that a t-test at alpha needs to tell means
 * delta apart with 90% power, with the noise nz (its df as they are):
 * the smallest n with |delta| / (sd sqrt(2/n)) >= t(1 - alpha/2) +
 * t(0.9).  -1 when delta is 0 or not finite.
 */
long bisect_runs_each(const struct bisect_noise *nz, double alpha,
		      double delta);

enum bisect_verdict {
	BISECT_GOOD,		/* like good */
	BISECT_BAD,		/* like bad */
	BISECT_UNKNOWN,		/* like neither yet: more runs needed */
	BISECT_BETWEEN,		/* unlike both: a level in between */
};

/* A commit's mean and runs (good's, bad's, or the one judged). */
struct bisect_side {
	double mean;
	size_t n;
};

struct bisect_class {
	enum bisect_verdict verdict;
	double p_good, p_bad;	/* bisect_p() against good and against bad */
	/* (mean - good) / (bad - good): 0 at good's level, 1 at bad's */
	double level;
	/*
	 * BISECT_UNKNOWN: how many more runs at this commit would let the
	 * t-test tell good's level from bad's at alpha with 90% power
	 * (at least 1); -1 when no number of runs here is enough without
	 * more runs at good and bad too.  0 otherwise.
	 */
	long more_runs;
};

/*
 * Classify a commit of mean c.mean (c.n >= 1 runs) against good and bad
 * (whose means differ) at significance alpha:
 *   - unlike good (p_good < alpha) and not unlike bad, on bad's side
 *     (level > 0.5): BAD; the mirror image: GOOD;
 *   - unlike both: BAD beyond bad (level >= 1), GOOD beyond good
 *     (level <= 0), else BETWEEN (a partial change: more runs do not
 *     help; two changes in the range, or a change that depends on
 *     something else);
 *   - like both (neither test significant): UNKNOWN, with more_runs;
 *   - unlike one but on the other's side (possible only with few runs
 *     at good or bad): UNKNOWN.
 * Good is classified GOOD and bad BAD when their means differ at alpha.
 */
void bisect_classify(const struct bisect_noise *nz, double alpha,
		     const struct bisect_side *good,
		     const struct bisect_side *bad,
		     const struct bisect_side *c, struct bisect_class *out);

/* "good", "bad", "unknown", "between" */
const char *bisect_verdict_name(enum bisect_verdict v);

/* A tested commit of a bisection's range. */
struct bisect_point {
	size_t group;		/* its id (the commit's position) */
	size_t first, n;	/* its runs: x[first..first+n) */
	double mean;
	double sd;		/* its own sample sd (n-1); NAN when n < 2 */
	struct bisect_class cls;
};

struct bisect_result {
	struct bisect_noise noise;
	double p;		/* good against bad: bisect_p() */
	double delta;		/* bad's mean - good's */
	struct bisect_point *points;	/* owned; groups good..bad tested */
	size_t nr;
	/*
	 * Indices into points: the last commit classified GOOD before
	 * first_bad, and the first classified BAD (bad itself at worst).
	 */
	size_t last_good, first_bad;
	/* commits classified GOOD after first_bad: a second change, or noise */
	size_t conflicts;
};

enum bisect_error {
	BISECT_OK = 0,
	BISECT_ENOMEM = -1,	/* malloc() failed, or a value not finite */
	BISECT_ENOGOOD = -2,	/* no run at good */
	BISECT_ENOBAD = -3,	/* no run at bad */
	BISECT_ENONOISE = -4,	/* no commit of the series has 2 runs */
	BISECT_ESAME = -5,	/* good and bad do not differ at alpha */
};

/*
 * Classify every tested commit between good_id and bad_id (group ids,
 * good_id < bad_id) of the series x[0..n), grouped by the non-decreasing
 * ids group[0..n): the noise is pooled over the whole series (commits
 * outside the range too), then each commit in the range is classified
 * against good and bad (bisect_classify()), and the first BAD and the
 * last GOOD before it found.  Returns BISECT_OK with out filled (release
 * with bisect_result_release()), or a bisect_error; out->noise and, for
 * BISECT_ESAME, out->p and out->delta are still set, and out->points is
 * NULL.
 */
int bisect_range(const double *x, const size_t *group, size_t n,
		 size_t good_id, size_t bad_id, double alpha,
		 struct bisect_result *out);
void bisect_result_release(struct bisect_result *out);

#endif /* PERFSIFT_BISECT_H */
