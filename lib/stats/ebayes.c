/*
 * Empirical Bayes moderation of a family's variances: see ebayes.h.
 *
 * The polygamma functions use the recurrences psi(x) = psi(x+1) - 1/x,
 * psi'(x) = psi'(x+1) + 1/x^2, psi''(x) = psi''(x+1) - 2/x^3 to reach
 * x >= 10, then their asymptotic series in the Bernoulli numbers
 * B2 = 1/6, B4 = -1/30, B6 = 1/42, B8 = -1/30, B10 = 5/66,
 * B12 = -691/2730, B14 = 7/6: at x >= 10 the first omitted term is below
 * 1e-18 of the sum.
 */
#include <math.h>
#include "stats/ebayes.h"
#include "stats/stats.h"

#define ASYMPTOTIC_FROM 10.0

/*
 * Move *x up to ASYMPTOTIC_FROM by the recurrence of the polygamma
 * function of this order (0, 1, 2); returns what the steps add.
 */
static double recur_up(double *x, int order)
{
	double acc = 0;

	for (; *x < ASYMPTOTIC_FROM; *x += 1) {
		double r = 1 / *x;

		acc += order == 0 ? -r : order == 1 ? r * r : -2 * r * r * r;
	}
	return acc;
}

double stats_digamma(double x)
{
	double acc, r, r2;

	if (!(x > 0) || isinf(x))
		return isinf(x) && x > 0 ? INFINITY : NAN;
	acc = recur_up(&x, 0);
	r = 1 / x;
	r2 = r * r;
	/* ln x - 1/(2x) - sum B2k / (2k x^2k) */
	return acc + log(x) - 0.5 * r -
	       r2 * (1.0 / 12 - r2 * (1.0 / 120 - r2 * (1.0 / 252 -
	       r2 * (1.0 / 240 - r2 * (1.0 / 132 - r2 * (691.0 / 32760 -
	       r2 * (1.0 / 12)))))));
}

double stats_trigamma(double x)
{
	double acc, r, r2;

	if (!(x > 0))
		return NAN;
	if (isinf(x))
		return 0;
	acc = recur_up(&x, 1);
	r = 1 / x;
	r2 = r * r;
	/* 1/x + 1/(2x^2) + sum B2k / x^(2k+1) */
	return acc + r + 0.5 * r2 +
	       r * r2 * (1.0 / 6 - r2 * (1.0 / 30 - r2 * (1.0 / 42 -
	       r2 * (1.0 / 30 - r2 * (5.0 / 66 - r2 * (691.0 / 2730 -
	       r2 * (7.0 / 6)))))));
}

double stats_tetragamma(double x)
{
	double acc, r, r2;

	if (!(x > 0))
		return NAN;
	if (isinf(x))
		return 0;
	acc = recur_up(&x, 2);
	r = 1 / x;
	r2 = r * r;
	/* -1/x^2 - 1/x^3 - sum (2k+1) B2k / x^(2k+2) */
	return acc - r2 - r * r2 -
	       r2 * r2 * (1.0 / 2 - r2 * (1.0 / 6 - r2 * (1.0 / 6 -
	       r2 * (3.0 / 10 - r2 * (5.0 / 6 - r2 * (691.0 / 210 -
	       r2 * (35.0 / 2)))))));
}

/*
 * Newton's method on 1/psi'(y) - 1/x, which is almost linear in y
 * (psi'(y) ~ 1/y + 1/(2y^2)), from y = 1/2 + 1/x, from where it moves
 * monotonically onto the root (Smyth 2004).
 */
double stats_trigamma_inv(double x)
{
	double y;
	int i;

	if (!(x > 0) || isinf(x))
		return NAN;
	y = 0.5 + 1 / x;
	for (i = 0; i < 100; i++) {
		double tri = stats_trigamma(y);
		double step = tri * (1 - tri / x) / stats_tetragamma(y);

		y += step;
		if (-step / y < 1e-14)
			break;
	}
	return y;
}

/*
 * The degrees of freedom repeat from row to row (every row of a family
 * with the same runs): their polygamma terms are computed once per
 * distinct d.
 */
struct d_terms {
	double d;		/* NAN: none yet */
	double neg_digamma;	/* -digamma(d/2) */
	double log_half;	/* log(d/2) */
	double tri;		/* trigamma(d/2) */
};

static void d_terms_for(struct d_terms *t, double d)
{
	if (d == t->d)
		return;
	t->d = d;
	t->neg_digamma = -stats_digamma(d / 2);
	t->log_half = log(d / 2);
	t->tri = stats_trigamma(d / 2);
}

/* log(s2) - digamma(d/2) + log(d/2), rounded in that order */
static double prior_term(double s2, const struct d_terms *t)
{
	return log(s2) + t->neg_digamma + t->log_half;
}

int stats_fit_prior(const double *s2, const double *d, size_t n,
		    struct stats_prior *out)
{
	double sum = 0, ss = 0, tri = 0, mean, var;
	struct d_terms t = { NAN, 0, 0, 0 };
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		if (!(s2[i] > 0) || !isfinite(s2[i]) || !(d[i] > 0))
			continue;
		d_terms_for(&t, d[i]);
		sum += prior_term(s2[i], &t);
		tri += t.tri;
		m++;
	}
	if (m < 2)
		return -1;
	mean = sum / (double)m;
	for (i = 0; i < n; i++) {
		double e;

		if (!(s2[i] > 0) || !isfinite(s2[i]) || !(d[i] > 0))
			continue;
		d_terms_for(&t, d[i]);
		e = prior_term(s2[i], &t) - mean;
		ss += e * e;
	}
	var = ss / (double)(m - 1) - tri / (double)m;
	if (var > 0) {
		out->d0 = 2 * stats_trigamma_inv(var);
		out->s02 = exp(mean + stats_digamma(out->d0 / 2) -
			       log(out->d0 / 2));
	} else {
		out->d0 = INFINITY;
		out->s02 = exp(mean);
	}
	return 0;
}

/* psi(d0/2) - log(d0/2): 0 at infinity */
static double scale_term(double d0)
{
	return isinf(d0) ? 0 : stats_digamma(d0 / 2) - log(d0 / 2);
}

void stats_prior_cap(struct stats_prior *prior, double d0_max)
{
	if (!(d0_max > 0) || !(prior->d0 > d0_max))
		return;
	prior->s02 *= exp(scale_term(d0_max) - scale_term(prior->d0));
	prior->d0 = d0_max;
}

double stats_moderated_t(double diff, double s2, double d, double scale,
			 const struct stats_prior *prior, double *t_out)
{
	double post, df, t;

	if (t_out)
		*t_out = NAN;
	if (!isfinite(diff) || !isfinite(s2) || s2 < 0 || !(d >= 0) ||
	    !(scale > 0) || !(prior->s02 > 0) || !(prior->d0 > 0))
		return NAN;
	if (isinf(prior->d0)) {
		post = prior->s02;
		df = INFINITY;
	} else {
		post = (prior->d0 * prior->s02 + d * s2) / (prior->d0 + d);
		df = prior->d0 + d;
	}
	t = diff / sqrt(post * scale);
	if (t_out)
		*t_out = t;
	return 2 * stats_t_sf(fabs(t), df);
}
