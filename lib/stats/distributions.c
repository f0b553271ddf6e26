/*
 * The distributions under perfsift's tests (stats.h): log-gamma, the
 * regularized incomplete beta function, the normal and Student t
 * distributions and their quantiles, and the table of t quantiles of a
 * comparison's intervals.  Pure functions of numbers, checked against
 * scipy on tests/ref/stats-ref.tsv.
 */
#include "stats/stats.h"
#include "stats/stats-int.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- log-gamma helpers -------------------------------------------------- */

/*
 * lgamma(z) - ((z - 1/2) log z - z + log sqrt(2 pi)): the Stirling series
 * with Bernoulli numbers B2..B14.  For z >= 10 the first omitted term is
 * below 3e-17.
 */
static double stirling_corr(double z)
{
	double r = 1 / z, r2 = r * r;

	return r * (1.0 / 12 + r2 * (-1.0 / 360 + r2 * (1.0 / 1260 +
		r2 * (-1.0 / 1680 + r2 * (1.0 / 1188 +
		r2 * (-691.0 / 360360 + r2 * (1.0 / 156)))))));
}

static double lgam(double z)
{
	int sign;

	return lgamma_r(z, &sign);
}

/*
 * log(Gamma(a) / Gamma(a + b)) for a >= 10, b > 0, written so that no
 * two large terms cancel: from the Stirling form of both gammas,
 * = -b log a - (a + b - 1/2) log1p(b / a) + b + corr(a) - corr(a + b).
 */
static double lgamma_ratio(double a, double b)
{
	return -b * log(a) - (a + b - 0.5) * log1p(b / a) + b +
		stirling_corr(a) - stirling_corr(a + b);
}

/*
 * log B(a, b) for min(a, b) < 10, accurate in absolute terms (ibeta()
 * never needs it when both are large: beta_prefix_large() does that).
 */
static double lbeta(double a, double b)
{
	double lo = a < b ? a : b, hi = a < b ? b : a;

	if (hi < 10)
		return lgam(a) + lgam(b) - lgam(a + b);
	return lgam(lo) + lgamma_ratio(hi, lo);
}

/* ---- incomplete beta ---------------------------------------------------- */

#define CF_EPS		1e-16
#define CF_MAXIT	100000
#define CF_BIG		1e100

/*
 * Continued fraction for I_x(a, b) (Abramowitz & Stegun 26.5.8):
 * I_x(a,b) = prefix / a * f, f = 1/(1+ d1/(1+ d2/(1+ ...))) with
 *   d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),
 *   d(2m)   =  m(b-m) x / ((a+2m-1)(a+2m)).
 * Converges fast for x < (a+1)/(a+b+2).  Evaluated by the forward
 * (Wallis) recurrence A(k) = A(k-1) + d(k-1) A(k-2), same for B, rescaled
 * now and then; f = A/B.  That costs two divisions per m where Lentz's
 * method needs six.  The convergence test needs no cancellation either:
 * A(k)B(k-1) - A(k-1)B(k) = -d(k-1) times its previous value, and
 * |f(k) - f(k-1)| / |f(k)| is that over |A(k) B(k-1)|.
 */
/* The Wallis recurrence's state: A(k-1), A(k), B(k-1), B(k), det. */
struct wallis {
	double a0, a1, b0, b1, det;
};

/* One step with partial numerator d: A(k+1) = A(k) + d A(k-1), same for B. */
static inline void wallis_step(struct wallis *w, double d)
{
	double an = w->a1 + d * w->a0, bn = w->b1 + d * w->b0;

	w->a0 = w->a1;
	w->b0 = w->b1;
	w->a1 = an;
	w->b1 = bn;
	w->det = -d * w->det;
}

static double beta_cf(double a, double b, double x)
{
	struct wallis w = { 1, 1, 1, 1, 1 };
	double d;
	int m;

	/* k = 2: A = 1, B = 1 + d1 */
	d = -(a + b) * x / (a + 1);
	w.b1 = 1 + d;
	w.det = -d;
	for (m = 1; m <= CF_MAXIT; m++) {
		double m2 = 2.0 * m;

		wallis_step(&w, m * (b - m) * x / ((a + m2 - 1) * (a + m2)));
		wallis_step(&w, -(a + m) * (a + b + m) * x /
				  ((a + m2) * (a + m2 + 1)));
		if (fabs(w.det) <= CF_EPS * fabs(w.a1 * w.b0))
			break;
		if (fabs(w.b1) > CF_BIG) {
			w.a0 /= CF_BIG;
			w.b0 /= CF_BIG;
			w.a1 /= CF_BIG;
			w.b1 /= CF_BIG;
			w.det /= CF_BIG * CF_BIG;
		} else if (fabs(w.b1) < 1 / CF_BIG) {
			w.a0 *= CF_BIG;
			w.b0 *= CF_BIG;
			w.a1 *= CF_BIG;
			w.b1 *= CF_BIG;
			w.det *= CF_BIG * CF_BIG;
		}
	}
	return w.a1 / w.b1;
}

/*
 * x^a y^b / B(a, b) with y = 1 - x, for a, b >= 10.  With c = a + b and
 * the Stirling forms of the three gammas this is
 *   sqrt(a b / (2 pi c)) (x c / a)^a (y c / b)^b exp(corr(c)-corr(a)-corr(b)),
 * and x c / a = 1 + e / a, y c / b = 1 - e / b with e = b x - a y, so the
 * huge powers never appear: only their small ratio to the peak does.
 */
static double beta_prefix_large(double a, double b, double x, double y)
{
	double c = a + b, e = b * x - a * y;
	double u = a * log1p(e / a) + b * log1p(-e / b);

	u += stirling_corr(c) - stirling_corr(a) - stirling_corr(b);
	return sqrt(a * b / c) / SQRT_2PI * exp(u);
}

/* log x, accurate also when x is near 1 (y = 1 - x known exactly). */
static double log_of(double x, double y)
{
	return x < 0.5 ? log(x) : log1p(-y);
}

/*
 * I_x(a, b) given x, y = 1 - x, and, when both log x and log y are known
 * more precisely than x and y themselves (the t distribution), lx and ly;
 * lb = log B(a, b), or NAN to have it computed here.  If comp is not
 * NULL, 1 - I_x(a, b) is stored there, with full relative accuracy when
 * it is the small one.
 */
static double ibeta(double a, double b, double x, double y, double lx,
		    double ly, double lb, double *comp)
{
	double pre, r, j;
	int flip = !(x < (a + 1) / (a + b + 2));

	if (a >= 10 && b >= 10 && isnan(lb)) {
		pre = beta_prefix_large(a, b, x, y);
	} else {
		if (isnan(lb))
			lb = lbeta(a, b);
		pre = exp(a * lx + b * ly - lb);
	}
	if (!flip) {
		r = pre * beta_cf(a, b, x) / a;
		r = r > 1 ? 1 : r;
		j = 1 - r;
	} else {
		j = pre * beta_cf(b, a, y) / b;
		j = j > 1 ? 1 : j;
		r = 1 - j;
	}
	if (comp)
		*comp = j;
	return r;
}

double stats_betainc(double a, double b, double x)
{
	double y;

	if (isnan(a) || isnan(b) || isnan(x) || !(a > 0) || !(b > 0) ||
	    x < 0 || x > 1 || isinf(a) || isinf(b))
		return NAN;
	if (x == 0)
		return 0;
	if (x == 1)
		return 1;
	y = 1 - x;
	return ibeta(a, b, x, y, log_of(x, y), log_of(y, x), NAN, NULL);
}

/* ---- normal distribution ------------------------------------------------ */

double stats_norm_sf(double z)
{
	return 0.5 * erfc(z * SQRT1_2);
}

static double norm_pdf(double z)
{
	return exp(-0.5 * z * z) / SQRT_2PI;
}

/*
 * Starting value for the upper-tail normal quantile, q in (0, 0.5]:
 * Abramowitz & Stegun 26.2.23, absolute error < 4.5e-4.
 */
static double norm_isf_guess(double q)
{
	double t = sqrt(-2 * log(q));

	return t - (2.515517 + t * (0.802853 + t * 0.010328)) /
		(1 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
}

/*
 * z > 0 with P(Z > z) = q, q in (0, 0.5): Newton on log sf from the
 * guess.  For q > 1/4 it solves P(0 < Z <= z) = erf(z/sqrt 2)/2 = 1/2 - q
 * instead (1/2 - q is exact there, and erf keeps relative accuracy as z
 * goes to 0); that function is concave, so Newton from z = c sqrt(2 pi),
 * which is below the root, climbs to it monotonically.
 */
static double norm_isf(double q)
{
	double z, lq, c;
	int i;

	if (q > 0.25) {
		c = 0.5 - q;
		z = c * SQRT_2PI;
		for (i = 0; i < 50; i++) {
			double step = (c - 0.5 * erf(z * SQRT1_2)) /
				norm_pdf(z);

			z += step;
			if (!(fabs(step) > 1e-15 * z))
				break;
		}
		return z;
	}
	z = norm_isf_guess(q);
	lq = log(q);

	for (i = 0; i < 50; i++) {
		double sf = stats_norm_sf(z), step;

		if (!(sf > 0))
			break;
		/* d/dz log sf = -pdf / sf */
		step = (log(sf) - lq) * sf / norm_pdf(z);
		z += step;
		if (fabs(step) <= 1e-14 * fabs(z))
			break;
	}
	return z;
}

/*
 * The quantiles every symmetric distribution fixes whatever its shape:
 * the ends of the line and the median.
 */
static int ppf_fixed(double p, double *x)
{
	if (p == 0)
		*x = -INFINITY;
	else if (p == 1)
		*x = INFINITY;
	else if (p == 0.5)
		*x = 0;
	else
		return 0;
	return 1;
}

double stats_norm_ppf(double p)
{
	double x;

	if (isnan(p) || p < 0 || p > 1)
		return NAN;
	if (ppf_fixed(p, &x))
		return x;
	return p < 0.5 ? -norm_isf(p) : norm_isf(1 - p);
}

/* ---- Student t ---------------------------------------------------------- */

void stats_tdist_init(struct tdist *td, double df)
{
	td->df = df;
	td->half_df = 0.5 * df;
	td->log_df = log(df);
	if (td->half_df >= 10)
		td->lb = LN_SQRT_PI + lgamma_ratio(td->half_df, 0.5);
	else
		td->lb = lgam(td->half_df) + LN_SQRT_PI -
			lgam(td->half_df + 0.5);
}

/*
 * P(|T| > t) for t >= 0 = I_x(df/2, 1/2) with x = df / (df + t^2).
 * Everything is computed from r = t^2 / df, so that log x = -log1p(r)
 * and log y = log r - log1p(r) keep full relative accuracy even when
 * df/2 is huge.  If pdf is not NULL the density at t is stored there;
 * if comp is not NULL, P(|T| <= t), accurate also for t near 0.
 */
double stats_t_tail2(const struct tdist *td, double t, double *pdf,
		     double *comp)
{
	double s = t / sqrt(td->df), r, l1p, lr, x, y;

	if (t == 0) {
		if (pdf)
			*pdf = exp(-0.5 * td->log_df - td->lb);
		if (comp)
			*comp = 0;
		return 1;
	}
	if (s < 1e150) {
		r = s * s;
		l1p = log1p(r);
		lr = log(r);
		x = 1 / (1 + r);
		y = r / (1 + r);
	} else {
		lr = 2 * log(s);
		l1p = lr;
		x = exp(-lr);
		y = 1;
	}
	if (pdf)
		*pdf = exp(-(td->df + 1) * 0.5 * l1p - 0.5 * td->log_df -
			   td->lb);
	return ibeta(td->half_df, 0.5, x, y, -l1p, lr - l1p, td->lb, comp);
}

double stats_t_sf(double t, double df)
{
	struct tdist td;
	double tail;

	if (isnan(t) || isnan(df) || !(df > 0))
		return NAN;
	if (isinf(df))
		return stats_norm_sf(t);
	if (isinf(t))
		return t > 0 ? 0 : 1;
	if (t == 0)
		return 0.5;
	stats_tdist_init(&td, df);
	tail = stats_t_tail2(&td, fabs(t), NULL, NULL);
	return t > 0 ? 0.5 * tail : 1 - 0.5 * tail;
}

/*
 * t > 0 with P(T > t) = q, q in (0, 0.5).  Halley's method on
 * G(u) = log P(|T| > e^u) - log 2q in u = log t, which is almost linear
 * in the tails, kept inside a bracket [lo, hi] known in closed form:
 * - pdf <= pdf(0) gives P(|T| > t) >= 1 - 2 pdf(0) t, so
 *   lo = (1/2 - q) / pdf(0) is below the root;
 * - (1 + t^2/df) > t^2/df gives P(|T| > t) < 2 df^(df/2-1) t^-df / B, so
 *   the t solving that bound for 2q is above the root.
 * A Cornish-Fisher expansion around the normal quantile starts it; two
 * evaluations of the tail usually suffice.  For q > 1/4 the equation is
 * solved for the central mass P(|T| <= t) = 1 - 2q instead (sgn = +1),
 * which keeps t's relative accuracy as q approaches 1/2 and t 0.
 * INFINITY if the quantile is beyond DBL_MAX (df well below 1).
 */
static double t_isf(double q, double df)
{
	struct tdist td;
	int sgn = q > 0.25 ? 1 : -1;
	/* 1 - 2q = 2 (1/2 - q) is exact for q > 1/4 */
	double ltarget = sgn > 0 ? log(2 * (0.5 - q)) : log(2 * q);
	double pdf0, lo, hi, lhi, t, z, z2, step;
	int i;

	stats_tdist_init(&td, df);
	pdf0 = exp(-0.5 * td.log_df - td.lb);
	lo = (0.5 - q) / pdf0;
	lhi = (LN2 + (0.5 * df - 1) * td.log_df - td.lb - ltarget) / df;
	if (lhi > 709) {
		hi = exp(709.0);
		if (stats_t_tail2(&td, hi, NULL, NULL) > 2 * q)
			return INFINITY;
	} else {
		hi = exp(lhi);
	}
	if (!(lo > 0))
		lo = DBL_MIN;
	if (hi < lo)
		hi = lo;

	z = norm_isf_guess(q);
	z2 = z * z;
	t = z + z * (z2 + 1) / (4 * df) +
		z * ((5 * z2 + 16) * z2 + 3) / (96 * df * df) +
		z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) /
		(384 * df * df * df);
	if (!(t > lo && t < hi))
		t = sqrt(lo * hi);

	for (i = 0; i < 200; i++) {
		double pdf, central, tail, v, g, dg, n, c, t_new;
		double s = t / sqrt(df), r = s * s;
		int halley;

		tail = stats_t_tail2(&td, t, &pdf, &central);
		v = sgn > 0 ? central : tail;
		g = log(v) - ltarget;
		if (g == 0)
			return t;
		if (g * sgn < 0)
			lo = t;		/* tail too big: t too small */
		else
			hi = t;
		/*
		 * Halley in u = log t.  G' = -+2 t pdf / v, and since
		 * t pdf'/pdf = -(df+1) r/(1+r),
		 * G''/G' = 1 - (df+1) r/(1+r) - G'.
		 */
		dg = 2 * sgn * t * pdf / v;
		n = g / dg;			/* Newton step is -n */
		c = 1 - 0.5 * n * (1 - (df + 1) * r / (1 + r) - dg);
		halley = c > 0.5 && c < 2;	/* else plain Newton */
		step = halley ? -n / c : -n;
		if (isfinite(step) && fabs(step) < 50) {
			t_new = t + t * expm1(step);
			/*
			 * Converged: Halley's error after the step is of
			 * order step^3, below 1e-18 here.
			 */
			if (halley && fabs(step) <= 1e-6)
				return t_new;
			if (fabs(t_new - t) <= 1e-12 * t)
				return t_new;
		} else {
			t_new = NAN;
		}
		if (!(t_new > lo && t_new < hi))
			t_new = hi / lo > 4 ? sqrt(lo * hi) : 0.5 * (lo + hi);
		t = t_new;
		if (hi - lo <= 4 * DBL_EPSILON * hi)
			break;
	}
	return t;
}

double stats_t_ppf(double p, double df)
{
	double x;

	if (isnan(p) || isnan(df) || !(df > 0) || p < 0 || p > 1)
		return NAN;
	if (ppf_fixed(p, &x))
		return x;
	if (isinf(df))
		return stats_norm_ppf(p);
	return p < 0.5 ? -t_isf(p, df) : t_isf(1 - p, df);
}

/*
 * The table: log t at x = 1/df = i/N, x = 0 being the normal quantile.
 * log t is smooth in x on [0, 1] (from log z to log tan(pi (p - 1/2))),
 * so that stats_tq_ppf()'s polynomial through the 8 nearest of these
 * N + 1 points is the quantile to the accuracy stats.h states.
 */
void stats_tq_init(struct stats_tq *tq, double conf)
{
	size_t i;

	tq->p = (1 + conf) / 2;
	tq->ok = conf > 0 && conf < 1;
	for (i = 0; tq->ok && i <= STATS_TQ_N; i++) {
		/* i = 0: df infinite, the normal quantile */
		tq->y[i] = log(stats_t_ppf(tq->p, i ? (double)STATS_TQ_N /
						      (double)i : INFINITY));
		tq->ok = isfinite(tq->y[i]);
	}
}

/* 1 / prod_{b != a} (a - b) over the nodes 0..7: Lagrange's denominators */
static const double tq_den[STATS_TQ_ORDER] = {
	-1.0 / 5040, 1.0 / 720, -1.0 / 240, 1.0 / 144, -1.0 / 144, 1.0 / 240,
	-1.0 / 720, 1.0 / 5040,
};

double stats_tq_ppf(const struct stats_tq *tq, double df)
{
	double x, u, pre[STATS_TQ_ORDER], suf, y = 0;
	long i;
	int a;

	if (!tq->ok || !(df >= 1) || isinf(df))
		return stats_t_ppf(tq->p, df);
	x = 1 / df * STATS_TQ_N;
	/* the 8 points around x: i - 3 .. i + 4, inside the table */
	i = (long)x - (STATS_TQ_ORDER / 2 - 1);
	i = i < 0 ? 0 : i > STATS_TQ_N - STATS_TQ_ORDER + 1 ?
			STATS_TQ_N - STATS_TQ_ORDER + 1 : i;
	u = x - (double)i;
	/* Lagrange's weights by the products before and after each node */
	pre[0] = 1;
	for (a = 0; a + 1 < STATS_TQ_ORDER; a++)
		pre[a + 1] = pre[a] * (u - a);
	suf = 1;
	for (a = STATS_TQ_ORDER - 1; a >= 0; a--) {
		y += tq->y[i + a] * pre[a] * suf * tq_den[a];
		suf *= u - a;
	}
	return exp(y);
}
