/*
 * Empirical Bayes moderation of a family's variances: see ebayes.h.
 *
 * The digamma function uses the recurrence psi(x) = psi(x+1) - 1/x to
 * reach x >= 10, then its asymptotic series in the Bernoulli numbers
 * B2 = 1/6, B4 = -1/30, B6 = 1/42, B8 = -1/30, B10 = 5/66,
 * B12 = -691/2730, B14 = 7/6: at x >= 10 the first omitted term is below
 * 1e-18 of the sum.
 */
#include <math.h>
#include <stdlib.h>
#include "core/xalloc.h"
#include "stats/ebayes.h"
#include "stats/stats.h"

#define ASYMPTOTIC_FROM 10.0

double stats_digamma(double x)
{
	double acc = 0, r, r2;

	if (!(x > 0) || isinf(x))
		return isinf(x) && x > 0 ? INFINITY : NAN;
	for (; x < ASYMPTOTIC_FROM; x += 1)
		acc -= 1 / x;
	r = 1 / x;
	r2 = r * r;
	/* ln x - 1/(2x) - sum B2k / (2k x^2k) */
	return acc + log(x) - 0.5 * r -
	       r2 * (1.0 / 12 - r2 * (1.0 / 120 - r2 * (1.0 / 252 -
	       r2 * (1.0 / 240 - r2 * (1.0 / 132 - r2 * (691.0 / 32760 -
	       r2 * (1.0 / 12)))))));
}

/*
 * The degrees of freedom repeat from row to row (every row of a family
 * with the same runs): the digamma terms of the slope are computed once
 * per distinct d at each d0 the search tries.
 */
struct nu_terms {
	double d, nu;		/* NAN: none yet */
	double score;		/* psi((d+nu)/2)/2 - psi(nu/2)/2 - d/(2 nu) */
};

static double nu_score(struct nu_terms *t, double d, double nu)
{
	if (d != t->d || nu != t->nu) {
		t->d = d;
		t->nu = nu;
		t->score = 0.5 * (stats_digamma((d + nu) / 2) -
				  stats_digamma(nu / 2)) - d / (2 * nu);
	}
	return t->score;
}

/*
 * A family's usable rows: x[i] = d[i] s2[i] / ref, ref the scale the
 * likelihood has at d0 = infinity (sum d s2 / sum d), so that the x are
 * near 1 and the scale sought, exp(a) ref, has a near 0.
 */
struct fam_fit {
	double *x, *d;
	size_t m;
	double sum_d, ref;
};

/* w/(1 + w) for w = x k, the share the likelihood equations weigh */
static double share(double w)
{
	return isinf(w) ? 1 : w / (1 + w);
}

/*
 * The scale that maximizes the likelihood at prior degrees of freedom
 * nu: the a (s02 = exp(a) ref) where the sum over rows of
 *	(d + nu)/2 * w/(1 + w) - d/2,	w = x e^-a / nu,
 * is zero.  It falls strictly from sum nu/2 (a -> -inf) to -sum d/2
 * (a -> +inf): Newton's steps from a, kept inside the bracket of the
 * root found so far; where a step would leave it, a bisection of the
 * bracket, or while it is open on one side a step out that doubles.
 */
static double fit_scale(const struct fam_fit *f, double nu, double a)
{
	double lo = -INFINITY, hi = INFINITY, out = 1;
	int i;

	for (i = 0; i < 400; i++) {
		double k = exp(-a) / nu, h = -f->sum_d / 2, dh = 0, next;
		size_t j;

		for (j = 0; j < f->m; j++) {
			double s = share(f->x[j] * k), c = (f->d[j] + nu) / 2;

			h += c * s;
			dh += c * s * (1 - s);
		}
		if (h == 0)
			return a;
		if (h > 0)
			lo = a;
		else
			hi = a;
		next = a + h / dh;
		if (!(next > lo && next < hi)) {
			if (isinf(lo) || isinf(hi)) {
				next = isinf(lo) ? hi - out : lo + out;
				out *= 2;
			} else {
				next = lo + (hi - lo) / 2;
			}
		}
		if (fabs(next - a) <= 1e-15 * (1 + fabs(a)))
			return next;
		a = next;
	}
	return a;
}

/*
 * The slope in nu of the likelihood maximized over the scale (the
 * scale's own derivative is zero there): the sum over rows of
 *	psi((d+nu)/2)/2 - psi(nu/2)/2 - d/(2 nu) - log(1 + w)/2
 *	+ (d + nu)/(2 nu) * w/(1 + w).
 * *a: on entry where the scale's search starts, on return the fit.
 */
static double profile_slope(const struct fam_fit *f, double nu, double *a)
{
	struct nu_terms t = { NAN, NAN, 0 };
	double g = 0, k;
	size_t j;

	*a = fit_scale(f, nu, *a);
	k = exp(-*a) / nu;
	for (j = 0; j < f->m; j++) {
		double w = f->x[j] * k;
		double lw = isinf(w) ? log(f->x[j]) + log(k) : log1p(w);

		g += nu_score(&t, f->d[j], nu) - lw / 2 +
		     (f->d[j] + nu) / (2 * nu) * share(w);
	}
	return g;
}

/*
 * The root of profile_slope() in u = log nu between lo (slope > 0) and
 * hi (slope <= 0), by the secant kept in its bracket (the Illinois
 * variant of regula falsi), to the last bits of nu; *a the scale there.
 */
static double slope_root(const struct fam_fit *f, double lo, double glo,
			 double hi, double ghi, double *a)
{
	double u = lo, a_lo = *a;
	int side = 0, i;

	for (i = 0; i < 200 && hi - lo > 1e-15 * (1 + fabs(lo)); i++) {
		double g, at = a_lo;

		u = lo + (hi - lo) * glo / (glo - ghi);
		if (!(u > lo && u < hi))
			u = lo + (hi - lo) / 2;
		g = profile_slope(f, exp(u), &at);
		if (g == 0) {
			*a = at;
			return exp(u);
		}
		if (g > 0) {
			lo = u;
			glo = g;
			a_lo = at;
			if (side == 1)
				ghi /= 2;
			side = 1;
		} else {
			hi = u;
			ghi = g;
			if (side == -1)
				glo /= 2;
			side = -1;
		}
	}
	u = lo + (hi - lo) / 2;
	*a = a_lo;
	profile_slope(f, exp(u), a);
	return exp(u);
}

/* The smallest prior degrees of freedom the search tries, and its step */
#define NU_FIRST (1.0 / 1024)
#define NU_STEP 4.0

/*
 * The search comes down from d0_max: where the slope is positive there
 * the likelihood rises all the way (d0 = d0_max); otherwise it steps
 * down by NU_STEP to where the slope is positive, and the root between
 * is the fit.  (The likelihood of d0 has had one maximum in every
 * family tried, the simulation's and the reference table's: the
 * reference, tests/ref/prior_ml.py, searches the whole grid for every
 * maximum and takes the largest.)
 */
int stats_fit_prior(const double *s2, const double *d, size_t n,
		    double d0_max, struct stats_prior *out)
{
	struct fam_fit f = { NULL, NULL, 0, 0, 0 };
	double hi = d0_max, a = 0, g;
	size_t i;
	int rc = -1;

	if (!(d0_max > 0) || !isfinite(d0_max))
		return -1;
	f.x = xmalloc((n + 1) * sizeof(*f.x));
	f.d = xmalloc((n + 1) * sizeof(*f.d));
	for (i = 0; i < n; i++) {
		if (!(s2[i] > 0) || !isfinite(s2[i]) || !(d[i] > 0) ||
		    !isfinite(d[i]))
			continue;
		f.x[f.m] = d[i] * s2[i];
		f.d[f.m] = d[i];
		f.sum_d += d[i];
		f.ref += d[i] * s2[i];
		f.m++;
	}
	if (f.m < 2 || !isfinite(f.ref))
		goto out;
	f.ref /= f.sum_d;
	for (i = 0; i < f.m; i++)
		f.x[i] /= f.ref;
	g = profile_slope(&f, hi, &a);
	out->d0 = d0_max;
	if (g > 0)
		a = 0;	/* the likelihood rises on to d0 = infinity: its scale */
	while (!(g > 0) && hi > NU_FIRST) {
		double lo = hi / NU_STEP > NU_FIRST ? hi / NU_STEP : NU_FIRST;
		double g_hi = g;

		g = profile_slope(&f, lo, &a);
		if (g > 0) {
			out->d0 = slope_root(&f, log(lo), g, log(hi), g_hi,
					     &a);
			break;
		}
		hi = lo;
		out->d0 = lo;
	}
	out->s02 = exp(a) * f.ref;
	/* variances beyond what a double's logarithms can hold: no prior */
	rc = isfinite(out->d0) && out->s02 > 0 && isfinite(out->s02) ? 0 : -1;
out:
	free(f.x);
	free(f.d);
	return rc;
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
