/*
 * stats.c - the statistics engine: summaries, MMTests best-N% figures,
 * Welch's t-test, Mann-Whitney U (exact with ties, or normal), the Fieller
 * interval of a % change, Benjamini-Hochberg q-values, and the incomplete
 * beta / Student t / normal functions they rest on.  No I/O, no globals.
 */
#include "stats/stats.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LN_SQRT_2PI	0.91893853320467274178	/* log(sqrt(2 pi)) */
#define LN_SQRT_PI	0.57236494292470008707	/* lgamma(1/2) */
#define SQRT_2PI	2.50662827463100050242
#define LN2		0.69314718055994530942
#define SQRT1_2		0.70710678118654752440

/* Work buffers: a stack array for small sizes, else malloc(). */
#define SCRATCH_STACK 1024	/* doubles for the MWU tables */

/* Insertion sort below this size, qsort() above. */
#define SORT_SMALL 24

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Sort finite doubles ascending, in place. */
static void sort_doubles(double *v, size_t n)
{
	size_t i, j;

	if (n > SORT_SMALL) {
		qsort(v, n, sizeof(*v), cmp_double);
		return;
	}
	for (i = 1; i < n; i++) {
		double x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

int stats_all_finite(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

/*
 * Copy x into buf (n <= STATS_STACK_N) or a new malloc() block, sorted.
 * Returns the copy (free it with put_sorted()), or NULL if out of memory.
 */
static double *get_sorted(const double *x, size_t n, double *buf)
{
	double *v = buf;

	if (n > STATS_STACK_N) {
		v = malloc(n * sizeof(*v));
		if (!v)
			return NULL;
	}
	memcpy(v, x, n * sizeof(*v));
	sort_doubles(v, n);
	return v;
}

static void put_sorted(double *v, const double *buf)
{
	if (v != buf)
		free(v);
}

/* ---- means and spread --------------------------------------------------- */

/*
 * Two-pass mean: the naive mean, then the mean of the residuals added
 * back, which removes most of the first pass's rounding error.
 */
double stats_mean(const double *x, size_t n)
{
	double s = 0, m, c = 0;
	size_t i;

	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++)
		s += x[i];
	m = s / (double)n;
	if (!isfinite(s)) {
		/* the sum overflowed: average scaled values instead */
		m = 0;
		for (i = 0; i < n; i++)
			m += x[i] / (double)n;
	}
	for (i = 0; i < n; i++)
		c += x[i] - m;
	return m + c / (double)n;
}

/*
 * Sum of squared deviations from m, with the correction term of the
 * "corrected two-pass algorithm" (Chan, Golub, LeVeque 1983), which
 * cancels the first-order effect of any error in m.
 */
/*
 * The power of two at or above |v| (1 for 0): dividing by it is exact,
 * so computing on scaled values changes no digit of a result, and keeps
 * squares of values near 1e200 (or 1e-200) from overflowing (or
 * vanishing).
 */
static double pow2_scale(double v)
{
	int e;

	v = fabs(v);
	if (!(v > 0) || !isfinite(v))
		return 1;
	frexp(v, &e);
	return ldexp(1, e);
}

/*
 * The sum of squared deviations from m, on deviations scaled by a power
 * of two (*f) so that no square overflows: the standard deviation of
 * 1e200, 2e200, 3e200 is 1e200, not 0.  sd_of() turns it into an sd.
 */
static double ss_from(const double *x, size_t n, double m, double *f_out)
{
	double ss = 0, c = 0, big = 0, f;
	size_t i;

	for (i = 0; i < n; i++)
		if (fabs(x[i] - m) > big)
			big = fabs(x[i] - m);
	if (!isfinite(big)) {
		/* the deviations themselves overflow: scale the values */
		double hi = 0;

		for (i = 0; i < n; i++)
			if (fabs(x[i]) > hi)
				hi = fabs(x[i]);
		f = pow2_scale(hi);
		for (i = 0; i < n; i++) {
			double d = x[i] / f - m / f;

			ss += d * d;
			c += d;
		}
	} else {
		f = pow2_scale(big);
		for (i = 0; i < n; i++) {
			double d = (x[i] - m) / f;

			ss += d * d;
			c += d;
		}
	}
	ss -= c * c / (double)n;
	*f_out = f;
	return ss;
}

/* sqrt(ss / div) of ss_from()'s scaled sum */
static double sd_of(double ss, double f, double div)
{
	return ss > 0 ? f * sqrt(ss / div) : 0;
}

/* sqrt(sum of squared deviations from m / div) */
static double sd_from(const double *x, size_t n, double m, double div)
{
	double f, ss = ss_from(x, n, m, &f);

	return sd_of(ss, f, div);
}

double stats_sd_sample(const double *x, size_t n)
{
	if (n < 2)
		return NAN;
	return sd_from(x, n, stats_mean(x, n), (double)(n - 1));
}

double stats_hmean(const double *x, size_t n)
{
	double inv_sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		inv_sum += 1 / x[i];
	}
	return (double)n / inv_sum;
}

double stats_quantile_sorted(const double *sorted, size_t n, double p)
{
	double h, g, lo_v, d;
	size_t lo;

	if (n == 0 || !(p >= 0 && p <= 1))
		return NAN;
	h = p * (double)(n - 1);
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	g = h - (double)lo;
	lo_v = sorted[lo];
	d = sorted[lo + 1] - lo_v;
	/*
	 * numpy interpolates from the nearer end (b - d * (1 - g) once
	 * g >= 0.5); doing the same keeps the results bit-identical.
	 */
	if (g >= 0.5)
		return sorted[lo + 1] - d * (1 - g);
	return lo_v + d * g;
}

int stats_moments(const double *x, size_t n, struct stats_moments *out)
{
	double mean, lo, hi, ss = 0, f = 1;
	int same;
	size_t i;

	if (n == 0 || !stats_all_finite(x, n))
		return -1;
	lo = hi = x[0];
	for (i = 1; i < n; i++) {
		if (x[i] < lo)
			lo = x[i];
		if (x[i] > hi)
			hi = x[i];
	}
	out->n = n;
	out->min = lo;
	out->max = hi;
	/* all equal: exact answers, no rounding noise in sd */
	same = lo == hi;
	mean = same ? lo : stats_mean(x, n);
	out->mean = mean;
	/* one sum of squares for both sds */
	if (!same)
		ss = ss_from(x, n, mean, &f);
	out->sd_pop = same ? 0 : sd_of(ss, f, (double)n);
	out->sd_sample = n < 2 ? NAN : same ? 0 : sd_of(ss, f,
							(double)(n - 1));
	out->hmean = same && lo > 0 ? lo : stats_hmean(x, n);
	return 0;
}

int stats_summarize(const double *x, size_t n, struct stats_summary *out)
{
	struct stats_moments m;
	double buf[STATS_STACK_N], *v, log_sum = 0;
	size_t i;

	if (stats_moments(x, n, &m))
		return -1;
	v = get_sorted(x, n, buf);
	if (!v)
		return -1;
	out->n = n;
	out->min = m.min;
	out->max = m.max;
	out->mean = m.mean;
	out->median = stats_quantile_sorted(v, n, 0.5);
	out->q1 = stats_quantile_sorted(v, n, 0.25);
	out->q3 = stats_quantile_sorted(v, n, 0.75);
	out->sd_pop = m.sd_pop;
	out->sd_sample = m.sd_sample;
	if (n >= 2) {
		out->sem = out->sd_sample / sqrt((double)n);
		out->cv_pct = m.mean != 0 ?
			100 * out->sd_sample / fabs(m.mean) : NAN;
	} else {
		out->sem = NAN;
		out->cv_pct = NAN;
	}
	out->hmean = m.hmean;
	if (m.min > 0) {
		for (i = 0; i < n; i++)
			log_sum += log(x[i]);
		out->gmean = m.min == m.max ? m.min
					    : exp(log_sum / (double)n);
	} else {
		out->gmean = NAN;
	}
	put_sorted(v, buf);
	return 0;
}

/* ---- MMTests ------------------------------------------------------------ */

/* Number of best values MMTests takes for N%: max(1, (int)(n*pct/100)). */
static size_t mmtests_count(size_t n, double pct)
{
	double k = (double)n * pct / 100;

	if (!(k >= 1))
		return 1;
	if (k >= (double)n)
		return n;
	return (size_t)k;
}

double stats_mmtests_best_mean(const double *x, size_t n, double pct,
			       int higher_is_better, int harmonic)
{
	double buf[STATS_STACK_N], *v, *best, r;
	size_t k;

	if (n == 0 || isnan(pct) || !stats_all_finite(x, n))
		return NAN;
	v = get_sorted(x, n, buf);
	if (!v)
		return NAN;
	k = mmtests_count(n, pct);
	best = higher_is_better ? v + (n - k) : v;
	r = harmonic ? stats_hmean(best, k) : stats_mean(best, k);
	put_sorted(v, buf);
	return r;
}

double stats_mmtests_pctile(const double *x, size_t n, double pct,
			    int higher_is_better)
{
	double buf[STATS_STACK_N], *v, r;
	size_t k;

	if (n == 0 || isnan(pct) || !stats_all_finite(x, n))
		return NAN;
	v = get_sorted(x, n, buf);
	if (!v)
		return NAN;
	k = mmtests_count(n, pct);
	r = higher_is_better ? v[n - k] : v[k - 1];
	put_sorted(v, buf);
	return r;
}

double stats_mmtests_hstddev(const double *x, size_t n)
{
	double inv_mean = 0, ss = 0;
	size_t i;

	if (n == 0 || !stats_all_finite(x, n))
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		inv_mean += 1 / x[i];
	}
	inv_mean /= (double)n;
	/* second pass, as in stats_mean() */
	for (i = 0; i < n; i++)
		ss += 1 / x[i] - inv_mean;
	inv_mean += ss / (double)n;	/* = 1/H */
	ss = 0;
	for (i = 0; i < n; i++) {
		double d = 1 / x[i] - inv_mean;

		ss += d * d;
	}
	/* sqrt(ss * H^4 / n) */
	return sqrt(ss / (double)n) / (inv_mean * inv_mean);
}

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

double stats_norm_ppf(double p)
{
	if (isnan(p) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	return p < 0.5 ? -norm_isf(p) : norm_isf(1 - p);
}

/* ---- Student t ---------------------------------------------------------- */

/* What every evaluation for one df shares. */
struct tdist {
	double df;
	double half_df;		/* a = df/2 of the beta form */
	double lb;		/* log B(df/2, 1/2) */
	double log_df;
};

static void tdist_init(struct tdist *td, double df)
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
static double t_tail2(const struct tdist *td, double t, double *pdf,
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
	tdist_init(&td, df);
	tail = t_tail2(&td, fabs(t), NULL, NULL);
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

	tdist_init(&td, df);
	pdf0 = exp(-0.5 * td.log_df - td.lb);
	lo = (0.5 - q) / pdf0;
	lhi = (LN2 + (0.5 * df - 1) * td.log_df - td.lb - ltarget) / df;
	if (lhi > 709) {
		hi = exp(709.0);
		if (t_tail2(&td, hi, NULL, NULL) > 2 * q)
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

		tail = t_tail2(&td, t, &pdf, &central);
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
	if (isnan(p) || isnan(df) || !(df > 0) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
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

/* ---- Welch -------------------------------------------------------------- */

/* Welch-Satterthwaite df from the squared standard errors sa, sb. */
static double welch_df(double sa, double na, double sb, double nb)
{
	double scale = sa > sb ? sa : sb, ra, rb;

	if (!(scale > 0))
		return NAN;
	ra = sa / scale;	/* scaled so that squaring cannot overflow */
	rb = sb / scale;
	return (ra + rb) * (ra + rb) /
		(ra * ra / (na - 1) + rb * rb / (nb - 1));
}

static void test_nan(struct stats_test *out)
{
	out->stat = NAN;
	out->df = NAN;
	out->p = NAN;
	out->exact = 0;
}

/* Welch from means, variances (n-1) and counts. */
static int welch_var(double ma, double va, double na, double mb, double vb,
		     double nb, struct stats_test *out)
{
	double sa = va / na, sb = vb / nb, t, df, p;
	struct tdist td;

	out->exact = 0;
	if (sa + sb == 0) {
		out->df = NAN;
		if (ma == mb) {
			out->stat = 0;
			out->p = 1;
		} else {
			out->stat = ma > mb ? INFINITY : -INFINITY;
			out->p = 0;
		}
		return 0;
	}
	t = (ma - mb) / sqrt(sa + sb);
	df = welch_df(sa, na, sb, nb);
	tdist_init(&td, df);
	p = t_tail2(&td, fabs(t), NULL, NULL);
	out->stat = t;
	out->df = df;
	out->p = p > 1 ? 1 : p;
	return 0;
}

/* The largest of four magnitudes, as a power of two (see pow2_scale()). */
static double scale4(double a, double b, double c, double d)
{
	double m = fabs(a);

	if (fabs(b) > m)
		m = fabs(b);
	if (fabs(c) > m)
		m = fabs(c);
	if (fabs(d) > m)
		m = fabs(d);
	return pow2_scale(m);
}

/*
 * Welch from means and sample sds, all divided by one power of two first:
 * t and df do not change, and no variance overflows.
 */
static int welch_sd(double ma, double sda, double na, double mb, double sdb,
		    double nb, struct stats_test *out)
{
	double f = scale4(ma, mb, sda, sdb);

	ma /= f;
	mb /= f;
	sda /= f;
	sdb /= f;
	return welch_var(ma, sda * sda, na, mb, sdb * sdb, nb, out);
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_test *out)
{
	double ma, mb;

	test_nan(out);
	if (na < 2 || nb < 2 || !stats_all_finite(a, na) || !stats_all_finite(b, nb))
		return -1;
	ma = stats_mean(a, na);
	mb = stats_mean(b, nb);
	return welch_sd(ma, sd_from(a, na, ma, (double)(na - 1)), (double)na,
			mb, sd_from(b, nb, mb, (double)(nb - 1)), (double)nb,
			out);
}

int stats_welch_summary(double mean_a, double sd_a, double na,
			double mean_b, double sd_b, double nb,
			struct stats_test *out)
{
	test_nan(out);
	if (!(na >= 2 && nb >= 2) || !isfinite(mean_a) || !isfinite(mean_b) ||
	    !isfinite(sd_a) || !isfinite(sd_b) || sd_a < 0 || sd_b < 0 ||
	    !isfinite(na) || !isfinite(nb))
		return -1;
	return welch_sd(mean_a, sd_a, na, mean_b, sd_b, nb, out);
}

/* ---- Mann-Whitney U ----------------------------------------------------- */

/* C(n, k) as a double; exact while the result is below 2^53. */
static double binom(size_t n, size_t k)
{
	double c = 1;
	size_t i;

	if (k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

/* One run of equal values in the merged samples: how many from a, from b. */
struct tie_group {
	unsigned char na, nb;
};

#define MWU_HALF (STATS_MWU_EXACT_MAX * STATS_MWU_EXACT_MAX / 2 + 1)

/*
 * The counts with U <= u for every u up to na*nb/2, of the last sizes
 * asked on this thread: a comparison's rows mostly share their sizes,
 * and at 20 + 20 runs the series took a fifth of compare's time, row
 * after row.  The coefficients below a cut do not depend on it, and
 * every sum is of integers below 2^53: the same numbers as one series
 * cut at each u.
 */
static __thread struct {
	size_t lo, hi;
	double le[MWU_HALF];
} mwu_cdf;

/*
 * Number of arrangements of na a's and nb b's (no ties) with U <= umax.
 * The counts of U are the coefficients of the Gaussian binomial
 *   [na+nb choose na]_q = prod_{i=1..na} (1 - q^(nb+i)) / (1 - q^i)
 * (partitions fitting in an na x nb box), built one factor at a time as a
 * power series cut at degree na*nb/2, then summed up into mwu_cdf
 * (the smaller tail never goes past it): multiplying by 1 - q^j is
 * c[k] -= c[k-j] (k falling), dividing by it c[k] += c[k-j] (k rising).
 * All values are integers below 2^53 for na + nb <= 2 *
 * STATS_MWU_EXACT_MAX, so this is exact.  umax <= na*nb/2.
 */
static double mwu_count_le(size_t na, size_t nb, size_t umax)
{
	double *c = mwu_cdf.le, r = 0;
	size_t i, k, lo = na < nb ? na : nb, hi = na < nb ? nb : na;
	size_t top = lo * hi / 2;

	if (mwu_cdf.lo == lo && mwu_cdf.hi == hi)
		return c[umax];
	mwu_cdf.lo = 0;
	c[0] = 1;
	for (k = 1; k <= top; k++)
		c[k] = 0;
	for (i = 1; i <= lo; i++) {
		size_t j = hi + i;

		for (k = top; k >= j && k <= top; k--)
			c[k] -= c[k - j];
		for (k = i; k <= top; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= top; k++) {
		r += c[k];
		c[k] = r;
	}
	mwu_cdf.lo = lo;
	mwu_cdf.hi = hi;
	return c[umax];
}

typedef double v2df __attribute__((vector_size(16)));

/*
 * row[i] += c * src[i], i < n, two at a time (the ties' table below is
 * most of an exact U test at 20 + 20 runs; GCC's -O2 does not vectorize
 * the plain loop).  The same products and sums as the plain loop: row
 * and src do not overlap.
 */
static void add_scaled(double *row, const double *src, double c, size_t n)
{
	v2df cc = { c, c };
	size_t i = 0;

	for (; i + 2 <= n; i += 2) {
		v2df r, x;

		memcpy(&r, row + i, sizeof(r));
		memcpy(&x, src + i, sizeof(x));
		r += cc * x;
		memcpy(row + i, &r, sizeof(r));
	}
	for (; i < n; i++)
		row[i] += c * src[i];
}

/*
 * Exact distribution of 2U given the tie pattern.  Walking the tie groups
 * in order, a group of t values of which k come from a, after A a's and
 * B b's below it, adds 2kB + k(t-k) to 2U, and the C(t, k) ways to pick
 * which of its members are a's are equally likely.  g[A][S] counts the
 * arrangements of the groups seen so far with A a's and 2U = S; S never
 * decreases, so the table is cut at smax.  Groups are walked from the top
 * when dir < 0 (that gives the distribution of na*nb - U).  Stores the
 * counts of 2U <= smax and of 2U == smax; -1 if out of memory.
 */
static int mwu_ties_count(const struct tie_group *grp, size_t ngrp, int dir,
			  size_t na, size_t nb, size_t smax, double *le,
			  double *eq)
{
	double buf[SCRATCH_STACK], *g = buf, cnk[2 * STATS_MWU_EXACT_MAX + 1];
	size_t w = smax + 1, pos = 0, gi, A, S, k, top;

	if ((na + 1) * w > SCRATCH_STACK) {
		g = malloc((na + 1) * w * sizeof(*g));
		if (!g)
			return -1;
	}
	memset(g, 0, (na + 1) * w * sizeof(*g));
	g[0] = 1;
	for (gi = 0; gi < ngrp; gi++) {
		const struct tie_group *tg = &grp[dir > 0 ? gi : ngrp - 1 - gi];
		size_t t = (size_t)tg->na + tg->nb;
		/* the A values possible before this group */
		size_t a_lo = pos > nb ? pos - nb : 0;
		size_t a_hi = pos < na ? pos : na;

		cnk[0] = 1;
		for (k = 1; k <= t; k++)
			cnk[k] = cnk[k - 1] * (double)(t - k + 1) / (double)k;
		/*
		 * A falling: rows below A still hold the counts before this
		 * group, and row A itself is its own k = 0 term.
		 */
		for (A = (a_hi + t < na ? a_hi + t : na) + 1; A-- > 0;) {
			double *row = g + A * w;

			if (pos + t - A > nb) {
				/* more b's than nb: impossible state */
				memset(row, 0, w * sizeof(*row));
				continue;
			}
			for (k = 1; k <= t && k <= A && A - k >= a_lo; k++) {
				size_t a0 = A - k;
				const double *src = g + a0 * w;
				size_t add = 2 * k * (pos - a0) + k * (t - k);
				double c = cnk[k];

				if (a0 > a_hi)
					continue;
				/* src: 2U of a0 a's and pos - a0 b's */
				top = add + 2 * a0 * (pos - a0);
				if (top > smax)
					top = smax;
				if (add <= top)
					add_scaled(row + add, src, c,
						   top - add + 1);
			}
		}
		pos += t;
	}
	*le = 0;
	for (S = 0; S <= smax; S++)
		*le += g[na * w + S];
	*eq = g[na * w + smax];
	if (g != buf)
		free(g);
	return 0;
}

double stats_mwu_p_untied(size_t na, size_t nb, double u)
{
	size_t nn = na * nb, u2 = (size_t)(2 * u), um, umin;
	double p;

	if (na == 0 || nb == 0 || na > STATS_MWU_EXACT_MAX ||
	    nb > STATS_MWU_EXACT_MAX || !(u >= 0) || u2 > 2 * nn ||
	    (double)u2 != 2 * u || (u2 & 1))
		return NAN;
	/* symmetric: the smaller tail is the one below nn/2 */
	um = u2 / 2;
	umin = um < nn - um ? um : nn - um;
	p = 2 * mwu_count_le(na, nb, umin) / binom(na + nb, na);
	return p > 1 ? 1 : p;
}

/*
 * Few values: 2U pair by pair, with no copy and no sort, when no two of
 * the pooled values are equal (1; else 0, for the sort and merge).
 */
#define MWU_PAIRWISE_MAX 16

static int untied_u2(const double *a, size_t na, const double *b,
		     size_t nb, size_t *u2)
{
	size_t i, j, n = 0;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			if (a[i] == b[j])
				return 0;
			n += a[i] > b[j];
		}
	for (i = 0; i < na; i++)
		for (j = i + 1; j < na; j++)
			if (a[i] == a[j])
				return 0;
	for (i = 0; i < nb; i++)
		for (j = i + 1; j < nb; j++)
			if (b[i] == b[j])
				return 0;
	*u2 = 2 * n;
	return 1;
}

/*
 * stats_mwu(); with defer, an exact test without ties returns 1 with
 * its p left NAN, for stats_mwu_p_untied(na, nb, out->stat) later.
 */
static int mwu(const double *a, size_t na, const double *b, size_t nb,
	       struct stats_test *out, int defer)
{
	struct tie_group grp[2 * STATS_MWU_EXACT_MAX];
	double abuf[STATS_STACK_N], bbuf[STATS_STACK_N], *sa, *sb;
	double ties = 0, total, le, eq, ge, lo_tail, p;
	size_t i = 0, j = 0, u2 = 0, ngrp = 0, nn = na * nb, smax;
	int exact, has_ties = 0, dir, ret = -1;

	test_nan(out);
	if (na == 0 || nb == 0 || !stats_all_finite(a, na) || !stats_all_finite(b, nb))
		return -1;
	exact = na <= STATS_MWU_EXACT_MAX && nb <= STATS_MWU_EXACT_MAX;
	if (defer && na + nb <= MWU_PAIRWISE_MAX &&
	    untied_u2(a, na, b, nb, &u2)) {
		out->stat = 0.5 * (double)u2;
		out->exact = 1;
		return 1;
	}
	sa = get_sorted(a, na, abuf);
	sb = sa ? get_sorted(b, nb, bbuf) : NULL;
	if (!sb)
		goto out;

	/* merge: 2U exactly, the tie term and the tie groups */
	while (i < na || j < nb) {
		double v;
		size_t ka = 0, kb = 0, t;

		if (j >= nb || (i < na && sa[i] <= sb[j]))
			v = sa[i];
		else
			v = sb[j];
		while (i < na && sa[i] == v) {
			i++;
			ka++;
		}
		while (j < nb && sb[j] == v) {
			j++;
			kb++;
		}
		/* b's below this group: j - kb */
		u2 += 2 * ka * (j - kb) + ka * kb;
		t = ka + kb;
		if (t > 1) {
			has_ties = 1;
			ties += (double)t * (double)t * (double)t - (double)t;
		}
		if (exact) {
			grp[ngrp].na = (unsigned char)ka;
			grp[ngrp].nb = (unsigned char)kb;
			ngrp++;
		}
	}
	out->stat = 0.5 * (double)u2;
	out->exact = exact;

	if ((sa[0] < sb[0] ? sa[0] : sb[0]) ==
	    (sa[na - 1] > sb[nb - 1] ? sa[na - 1] : sb[nb - 1])) {
		out->p = 1;	/* all values equal */
		ret = 0;
		goto out;
	}
	if (!exact) {
		double n = (double)(na + nb), mu = 0.5 * (double)nn;
		double um = out->stat > mu ? out->stat : (double)nn - out->stat;
		double s = sqrt((double)nn / 12 *
				((n + 1) - ties / (n * (n - 1))));

		p = s > 0 ? 2 * stats_norm_sf((um - mu - 0.5) / s) : 1;
		out->p = p > 1 ? 1 : p;
		ret = 0;
		goto out;
	}

	if (!has_ties) {
		ret = defer ? 1 : 0;
		if (!defer)
			out->p = stats_mwu_p_untied(na, nb, out->stat);
		goto out;
	}
	/*
	 * Ties: count the tail on the side of the observed U that lies
	 * below the mean (walking from the top mirrors U), then the other
	 * tail is total - (count below the observed value).
	 */
	total = binom(na + nb, na);
	dir = u2 <= nn ? 1 : -1;
	smax = u2 <= nn ? u2 : 2 * nn - u2;
	if (mwu_ties_count(grp, ngrp, dir, na, nb, smax, &le, &eq))
		goto out;
	ge = total - (le - eq);
	lo_tail = le < ge ? le : ge;
	p = 2 * lo_tail / total;
	out->p = p > 1 ? 1 : p;
	ret = 0;
out:
	if (sa)
		put_sorted(sa, abuf);
	if (sb)
		put_sorted(sb, bbuf);
	if (ret < 0)
		test_nan(out);
	return ret;
}

int stats_mwu(const double *a, size_t na, const double *b, size_t nb,
	      struct stats_test *out)
{
	return mwu(a, na, b, nb, out, 0);
}

int stats_mwu_deferred(const double *a, size_t na, const double *b,
		       size_t nb, struct stats_test *out)
{
	return mwu(a, na, b, nb, out, 1);
}

static double mwu_min_p(size_t na, size_t nb)
{
	double p;

	if (na == 0 || nb == 0)
		return 1;
	p = 2 / binom(na + nb, na);
	return p < 1 ? p : 1;
}

/*
 * The same for up to MIN_P_N runs a side, computed once: compare asks
 * for every row (a division loop a call, 1 % of its instructions).
 */
#define MIN_P_N 32
static double min_p[MIN_P_N + 1][MIN_P_N + 1];
static pthread_once_t min_p_once = PTHREAD_ONCE_INIT;

static void min_p_init(void)
{
	size_t a, b;

	for (a = 0; a <= MIN_P_N; a++)
		for (b = 0; b <= MIN_P_N; b++)
			min_p[a][b] = mwu_min_p(a, b);
}

double stats_mwu_min_p(size_t na, size_t nb)
{
	if (na > MIN_P_N || nb > MIN_P_N)
		return mwu_min_p(na, nb);
	pthread_once(&min_p_once, min_p_init);
	return min_p[na][nb];
}

size_t stats_mwu_min_n(double alpha)
{
	size_t n;

	if (!(alpha > 0))
		return 0;
	for (n = 1; n < 600; n++)
		if (stats_mwu_min_p(n, n) <= alpha)
			return n;
	return 0;
}

/* ---- % change interval -------------------------------------------------- */

/*
 * Fieller: the ratio R = mean_b / mean_a satisfies
 *   (mb - R ma)^2 <= t^2 (vb + R^2 va)     (va, vb: variances of the means)
 * i.e. den R^2 - 2 ma mb R + (mb^2 - t^2 vb) <= 0 with den = ma^2 - t^2 va.
 * For den > 0 the roots are (ma mb -+ sqrt(D)) / den with
 * D = t^2 (vb den + mb^2 va), a sum of non-negative terms, and
 * R - 1 = (ma (mb - ma) + t^2 va -+ sqrt(D)) / den avoids forming R.
 */
static int change_ci(double mean_a, double sd_a, double na,
		     double mean_b, double sd_b, double nb, double conf,
		     const struct stats_tq *tq, double *lo_pct,
		     double *hi_pct)
{
	double va, vb, df, t, t2, den, base, rd, f;

	*lo_pct = NAN;
	*hi_pct = NAN;
	if (!(na >= 2 && nb >= 2) || !isfinite(na) || !isfinite(nb) ||
	    !isfinite(mean_a) || !isfinite(mean_b) || !isfinite(sd_a) ||
	    !isfinite(sd_b) || sd_a < 0 || sd_b < 0 || mean_a == 0 ||
	    !(conf > 0 && conf < 1))
		return -1;
	/* a ratio: the same after one exact scaling, which keeps squares finite */
	f = scale4(mean_a, mean_b, sd_a, sd_b);
	mean_a /= f;
	mean_b /= f;
	sd_a /= f;
	sd_b /= f;
	va = sd_a * sd_a / na;
	vb = sd_b * sd_b / nb;
	if (va == 0 && vb == 0) {
		*lo_pct = *hi_pct = 100 * (mean_b - mean_a) / mean_a;
		return 0;
	}
	df = welch_df(va, na, vb, nb);
	t = tq ? stats_tq_ppf(tq, df) : stats_t_ppf((1 + conf) / 2, df);
	t2 = t * t;
	den = mean_a * mean_a - t2 * va;
	if (!(den > 0))
		return -1;
	base = mean_a * (mean_b - mean_a) + t2 * va;
	rd = t * sqrt(vb * den + mean_b * mean_b * va);
	*lo_pct = 100 * (base - rd) / den;
	*hi_pct = 100 * (base + rd) / den;
	return 0;
}

int stats_change_ci(double mean_a, double sd_a, double na,
		    double mean_b, double sd_b, double nb, double conf,
		    double *lo_pct, double *hi_pct)
{
	return change_ci(mean_a, sd_a, na, mean_b, sd_b, nb, conf, NULL,
			 lo_pct, hi_pct);
}

int stats_change_ci_tq(const struct stats_tq *tq, double mean_a,
		       double sd_a, double na, double mean_b, double sd_b,
		       double nb, double *lo_pct, double *hi_pct)
{
	/* conf back from p: only its range is checked */
	return change_ci(mean_a, sd_a, na, mean_b, sd_b, nb,
			 tq->ok ? 2 * tq->p - 1 : NAN, tq, lo_pct, hi_pct);
}

/* ---- Benjamini-Hochberg ------------------------------------------------- */

struct p_idx {
	double p;
	size_t idx;
};

static int cmp_p_idx(const void *pa, const void *pb)
{
	const struct p_idx *a = pa, *b = pb;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Below this many p-values qsort() is as quick as the radix sort. */
#define BH_RADIX_MIN 1024

/*
 * Sort v[0..k) (in idx order) as qsort() with cmp_p_idx() does, by an LSD
 * radix sort on the bits of p: with the sign bit clear, the bits of
 * doubles order as their values, -0 aside (which has it set), and the
 * stable passes keep equal p in idx order.  regressions ranks half a
 * million p-values, where qsort()'s calls cost more than the tests.
 * Returns 0, or -1 (v untouched) if a p has its sign bit set or out of
 * memory.
 */
static int radix_p_idx(struct p_idx *v, size_t k)
{
	struct p_idx *tmp, *from = v, *to, *t;
	size_t count[256], i, shift;

	for (i = 0; i < k; i++)
		if (signbit(v[i].p))
			return -1;
	tmp = malloc(k * sizeof(*tmp));
	if (!tmp)
		return -1;
	to = tmp;
	for (shift = 0; shift < 64; shift += 8) {
		size_t sum = 0, c;
		uint64_t b0;

		memset(count, 0, sizeof(count));
		for (i = 0; i < k; i++) {
			uint64_t b;

			memcpy(&b, &from[i].p, sizeof(b));
			count[(b >> shift) & 0xff]++;
		}
		memcpy(&b0, &from[0].p, sizeof(b0));
		if (count[(b0 >> shift) & 0xff] == k)
			continue;	/* one byte value: the order stands */
		for (i = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < k; i++) {
			uint64_t b;

			memcpy(&b, &from[i].p, sizeof(b));
			to[count[(b >> shift) & 0xff]++] = from[i];
		}
		t = from;
		from = to;
		to = t;
	}
	if (from != v)
		memcpy(v, from, k * sizeof(*v));
	free(tmp);
	return 0;
}

int stats_bh(const double *p, size_t m, double *q_out)
{
	struct p_idx buf[STATS_STACK_N], *v = buf;
	size_t i, k = 0;
	double run = 1;

	for (i = 0; i < m; i++)
		q_out[i] = NAN;
	if (m > STATS_STACK_N) {
		v = malloc(m * sizeof(*v));
		if (!v)
			return -1;
	}
	for (i = 0; i < m; i++) {
		if (isnan(p[i]))
			continue;
		v[k].p = p[i];
		v[k].idx = i;
		k++;
	}
	if (k < BH_RADIX_MIN || radix_p_idx(v, k))
		qsort(v, k, sizeof(*v), cmp_p_idx);
	for (i = k; i-- > 0;) {
		double q = (double)k * v[i].p / (double)(i + 1);

		if (q < run)
			run = q;
		q_out[v[i].idx] = run;
	}
	if (v != buf)
		free(v);
	return 0;
}

/* ---- Hodges-Lehmann ----------------------------------------------------- */

double stats_hodges_lehmann(const double *a, size_t na,
			    const double *b, size_t nb)
{
	double buf[STATS_STACK_N], *d = buf, r;
	size_t n = na * nb, i, j, k = 0;

	if (na == 0 || nb == 0 || !stats_all_finite(a, na) || !stats_all_finite(b, nb) ||
	    n / na != nb)
		return NAN;
	if (n > STATS_STACK_N) {
		d = malloc(n * sizeof(*d));
		if (!d)
			return NAN;
	}
	for (j = 0; j < nb; j++)
		for (i = 0; i < na; i++)
			d[k++] = b[j] - a[i];
	sort_doubles(d, n);
	/* (x + y) / 2 as numpy.median rounds it */
	r = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	if (d != buf)
		free(d);
	return r;
}

double stats_hist_percentile(const double *v, const double *c, size_t n,
			     double p)
{
	long double total = 0, sum = 0, need;
	size_t i;

	if (!(p > 0 && p <= 100))
		return NAN;
	for (i = 0; i < n; i++)
		total += c[i];
	if (!(total > 0))
		return NAN;
	/* fio: while (sum >= (long double)plist[j] / 100.0 * nr) */
	need = (long double)p / 100.0 * total;
	for (i = 0; i < n; i++) {
		sum += c[i];
		if (sum >= need)
			return v[i];
	}
	return v[n - 1];
}
