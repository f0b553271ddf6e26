/*
 * The verdict on one commit of a bisection (see bisect.h).
 */
#include "stats/bisect.h"
#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int bisect_noise(const double *x, const size_t *group, size_t n,
		 struct bisect_noise *out)
{
	double ss = 0;
	size_t i, j, runs = 0;

	out->sd = NAN;
	out->df = 0;
	out->commits = 0;
	if (!stats_all_finite(x, n))
		return -1;
	for (i = 0; i < n; i = j) {
		double mean;
		size_t k;

		for (j = i; j < n && group[j] == group[i]; j++)
			;
		if (j - i < 2)
			continue;
		/* two passes per commit: no cancellation in the squares */
		mean = stats_mean(x + i, j - i);
		for (k = i; k < j; k++)
			ss += (x[k] - mean) * (x[k] - mean);
		runs += j - i;
		out->commits++;
	}
	if (!out->commits)
		return -1;
	out->df = (double)(runs - out->commits);
	out->sd = sqrt(ss / out->df);
	return 0;
}

double bisect_p(const struct bisect_noise *nz, double ma, size_t na,
		double mb, size_t nb)
{
	double se, t;

	if (ma == mb)
		return 1;
	if (nz->sd == 0)
		return 0;
	se = nz->sd * sqrt(1.0 / (double)na + 1.0 / (double)nb);
	t = fabs(ma - mb) / se;
	return fmin(1, 2 * stats_t_sf(t, nz->df));
}

/*
 * Runs at a commit of n runs that a t-test at alpha needs to tell levels
 * delta apart with 90% power against a reference of nref runs: n' with
 * delta / (sd sqrt(1/n' + 1/nref)) >= t(1 - alpha/2) + t(0.9), the
 * quantiles at the pooled df (which more runs would raise: the answer
 * errs on the side of more).
 */
static double power_q(const struct bisect_noise *nz, double alpha)
{
	return stats_t_ppf(1 - alpha / 2, nz->df) + stats_t_ppf(0.9, nz->df);
}

long bisect_runs_each(const struct bisect_noise *nz, double alpha,
		      double delta)
{
	double r = fabs(delta) / (nz->sd * power_q(nz, alpha));
	double need = ceil(2 / (r * r));

	if (!(need >= 1) || need > 1e9)
		return -1;
	return need < 2 ? 2 : (long)need;
}

static long runs_needed(const struct bisect_noise *nz, double alpha,
			double delta, size_t n, size_t nref)
{
	double r = delta / (nz->sd * power_q(nz, alpha));
	double inv = r * r - 1.0 / (double)nref;
	double need;

	if (!(inv > 0))
		return -1;
	need = ceil(1 / inv);
	if (need > 1e9)
		return -1;
	return need > (double)n ? (long)need - (long)n : 1;
}

void bisect_classify(const struct bisect_noise *nz, double alpha,
		     const struct bisect_side *good,
		     const struct bisect_side *bad,
		     const struct bisect_side *c, struct bisect_class *out)
{
	double delta = bad->mean - good->mean;
	int unlike_good, unlike_bad;

	out->p_good = bisect_p(nz, c->mean, c->n, good->mean, good->n);
	out->p_bad = bisect_p(nz, c->mean, c->n, bad->mean, bad->n);
	out->level = delta ? (c->mean - good->mean) / delta : NAN;
	out->more_runs = 0;
	unlike_good = out->p_good < alpha;
	unlike_bad = out->p_bad < alpha;
	if (unlike_good && unlike_bad) {
		if (out->level >= 1)
			out->verdict = BISECT_BAD;
		else if (out->level <= 0)
			out->verdict = BISECT_GOOD;
		else
			out->verdict = BISECT_BETWEEN;
		return;
	}
	if (unlike_good && out->level > 0.5) {
		out->verdict = BISECT_BAD;
		return;
	}
	if (unlike_bad && out->level < 0.5) {
		out->verdict = BISECT_GOOD;
		return;
	}
	out->verdict = BISECT_UNKNOWN;
	out->more_runs = runs_needed(nz, alpha, fabs(delta), c->n,
				     good->n < bad->n ? good->n : bad->n);
}

const char *bisect_verdict_name(enum bisect_verdict v)
{
	static const char *const names[] = {
		"good", "bad", "unknown", "between",
	};

	return names[v];
}

/*
 * The commits of groups good_id..bad_id into out->points, their means
 * and sds; *g, *b: the indexes of good and bad (SIZE_MAX: no run).
 * BISECT_OK, or BISECT_ENOMEM with out released.
 */
static int range_points(const double *x, const size_t *group, size_t n,
			size_t good_id, size_t bad_id,
			struct bisect_result *out, size_t *g, size_t *b)
{
	struct bisect_point *p;
	size_t i, j, alloc = 0;

	*g = *b = SIZE_MAX;
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && group[j] == group[i]; j++)
			;
		if (group[i] < good_id || group[i] > bad_id)
			continue;
		if (out->nr == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			p = realloc(out->points, alloc * sizeof(*p));
			if (!p) {
				bisect_result_release(out);
				return BISECT_ENOMEM;
			}
			out->points = p;
		}
		p = &out->points[out->nr];
		p->group = group[i];
		p->first = i;
		p->n = j - i;
		p->mean = stats_mean(x + i, p->n);
		p->sd = p->n > 1 ? stats_sd_sample(x + i, p->n) : NAN;
		if (group[i] == good_id)
			*g = out->nr;
		if (group[i] == bad_id)
			*b = out->nr;
		out->nr++;
	}
	return BISECT_OK;
}

/*
 * Every point of out classified against good (index g) and bad (b), and
 * the last good, first bad and conflicts that follow.
 */
static void classify_points(struct bisect_result *out, double alpha,
			    const struct bisect_side *good,
			    const struct bisect_side *bad, size_t g, size_t b)
{
	size_t i;

	out->first_bad = b;
	for (i = 0; i < out->nr; i++) {
		struct bisect_side c = { out->points[i].mean, out->points[i].n };

		bisect_classify(&out->noise, alpha, good, bad, &c,
				&out->points[i].cls);
		if (i == g)	/* as they differ, these are exact */
			out->points[i].cls.verdict = BISECT_GOOD;
		if (i == b)
			out->points[i].cls.verdict = BISECT_BAD;
		if (out->points[i].cls.verdict == BISECT_BAD &&
		    i < out->first_bad)
			out->first_bad = i;
	}
	out->last_good = g;
	for (i = 0; i < out->nr; i++) {
		if (out->points[i].cls.verdict != BISECT_GOOD)
			continue;
		if (i < out->first_bad)
			out->last_good = i;
		else
			out->conflicts++;
	}
}

int bisect_range(const double *x, const size_t *group, size_t n,
		 size_t good_id, size_t bad_id, double alpha,
		 struct bisect_result *out)
{
	struct bisect_side good, bad;
	size_t g, b;

	memset(out, 0, sizeof(*out));
	out->p = NAN;
	if (range_points(x, group, n, good_id, bad_id, out, &g, &b))
		return BISECT_ENOMEM;
	if (g == SIZE_MAX || b == SIZE_MAX) {
		bisect_result_release(out);
		return g == SIZE_MAX ? BISECT_ENOGOOD : BISECT_ENOBAD;
	}
	if (bisect_noise(x, group, n, &out->noise)) {
		bisect_result_release(out);
		return stats_all_finite(x, n) ? BISECT_ENONOISE : BISECT_ENOMEM;
	}
	good.mean = out->points[g].mean;
	good.n = out->points[g].n;
	bad.mean = out->points[b].mean;
	bad.n = out->points[b].n;
	out->p = bisect_p(&out->noise, good.mean, good.n, bad.mean, bad.n);
	out->delta = bad.mean - good.mean;
	if (!(out->p < alpha)) {
		bisect_result_release(out);
		return BISECT_ESAME;
	}
	classify_points(out, alpha, &good, &bad, g, b);
	return BISECT_OK;
}

void bisect_result_release(struct bisect_result *out)
{
	free(out->points);
	out->points = NULL;
	out->nr = 0;
}
