/*
 * stats.c - the statistics engine: summaries, MMTests best-N% figures,
 * Welch's t-test, the Fieller interval of a % change, Benjamini-Hochberg
 * q-values and Hodges-Lehmann's estimate; the distributions they rest on
 * are in distributions.c, the U test in mwu.c.  No I/O, no globals.
 */
#include "stats/stats.h"
#include "stats/stats-int.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


/* Insertion sort below this size, quicksort above. */
#define SORT_SMALL 24

static void insertion_sort(double *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		double x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void sift_down(double *v, size_t root, size_t n)
{
	double x = v[root];
	size_t child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (!(v[child] > x))
			break;
		v[root] = v[child];
		root = child;
	}
	v[root] = x;
}

static void heap_sort(double *v, size_t n)
{
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (i = n; i-- > 1;) {
		double t = v[0];

		v[0] = v[i];
		v[i] = t;
		sift_down(v, 0, i);
	}
}

/*
 * Sort finite doubles ascending, in place and without a second array
 * (glibc's qsort() allocates one as large as v, and regressions sorts
 * millions of p-values): quicksort on the median of three, the smaller
 * part first so the stack stays at log n, heapsort past 2 log2 n levels.
 */
static void sort_doubles(double *v, size_t n)
{
	int depth = 2 * (64 - __builtin_clzll((unsigned long long)n | 1));

	while (n > SORT_SMALL) {
		double a = v[0], b = v[n / 2], c = v[n - 1], pivot;
		size_t i = 0, j = n - 1;

		if (!depth--) {
			heap_sort(v, n);
			return;
		}
		pivot = a < b ? (b < c ? b : a < c ? c : a) :
				(a < c ? a : b < c ? c : b);
		/* Hoare's partition: v[0..j] <= pivot <= v[j+1..n) */
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			double t = v[i];

			v[i++] = v[j];
			v[j--] = t;
		}
		if (j + 1 < n - j - 1) {
			sort_doubles(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_doubles(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	insertion_sort(v, n);
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
 * Returns the copy (free it with stats_put_sorted()), or NULL if out of
 * memory.
 */
double *stats_get_sorted(const double *x, size_t n, double *buf)
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

void stats_put_sorted(double *v, const double *buf)
{
	if (v != buf)
		free(v);
}

/* ---- means and spread --------------------------------------------------- */

/*
 * Two-pass mean of x[i] / f (f a power of two: the division is exact),
 * times f: the naive mean, then the mean of the residuals added back,
 * which removes most of the first pass's rounding error.
 */
static double mean_scaled(const double *x, size_t n, double f)
{
	double s = 0, m, c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i] / f;
	m = s / (double)n;
	for (i = 0; i < n; i++)
		c += x[i] / f - m;
	return (m + c / (double)n) * f;
}

double stats_mean(const double *x, size_t n)
{
	double m;
	int e;

	if (n == 0)
		return NAN;
	m = mean_scaled(x, n, 1);
	if (isfinite(m) || !stats_all_finite(x, n))
		return m;
	/*
	 * The sum or a residual overflowed (1e308, 1.7e308, -1.7e308):
	 * again on the values divided by a power of two >= 2n, whose sum
	 * and residuals stay below DBL_MAX.
	 */
	frexp((double)n, &e);
	return mean_scaled(x, n, ldexp(1, e + 1));
}

/*
 * Sum of squared deviations from m, with the correction term of the
 * "corrected two-pass algorithm" (Chan, Golub, LeVeque 1983), which
 * cancels the first-order effect of any error in m.
 */
/*
 * A power of two within a factor 2 of |v| (1 for 0): dividing by it is
 * exact, so computing on scaled values changes no digit of a result,
 * and keeps squares of values near 1e200 (or 1e-200) from overflowing
 * (or vanishing).  It is at most 2^1023: the power of two at or above
 * 1.5e308 is not a double.
 */
static double pow2_scale(double v)
{
	int e;

	v = fabs(v);
	if (!(v > 0) || !isfinite(v))
		return 1;
	frexp(v, &e);
	return ldexp(1, e > DBL_MAX_EXP - 1 ? DBL_MAX_EXP - 1 : e);
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
	if (!isfinite(inv_sum)) {
		/*
		 * 1 / 1e-310 overflows: on the values times 2^600 (exact; a
		 * value past DBL_MAX then adds its 1 / inf = 0, about right)
		 */
		const double f = 0x1p600;

		inv_sum = 0;
		for (i = 0; i < n; i++)
			inv_sum += 1 / (x[i] * f);
		return (double)n / inv_sum / f;
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
	if (!isfinite(d))	/* -1.7e308 to 1.7e308: on halves */
		return 2 * (lo_v / 2 + (sorted[lo + 1] / 2 - lo_v / 2) * g);
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
	v = stats_get_sorted(x, n, buf);
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
			out->sd_sample / fabs(m.mean) * 100 : NAN;
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
	stats_put_sorted(v, buf);
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
	v = stats_get_sorted(x, n, buf);
	if (!v)
		return NAN;
	k = mmtests_count(n, pct);
	best = higher_is_better ? v + (n - k) : v;
	r = harmonic ? stats_hmean(best, k) : stats_mean(best, k);
	stats_put_sorted(v, buf);
	return r;
}

double stats_mmtests_pctile(const double *x, size_t n, double pct,
			    int higher_is_better)
{
	double buf[STATS_STACK_N], *v, r;
	size_t k;

	if (n == 0 || isnan(pct) || !stats_all_finite(x, n))
		return NAN;
	v = stats_get_sorted(x, n, buf);
	if (!v)
		return NAN;
	k = mmtests_count(n, pct);
	r = higher_is_better ? v[n - k] : v[k - 1];
	stats_put_sorted(v, buf);
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
		/* (1/x - 1/H) H: no square of 1e300 or of 1e-300 */
		double d = 1 / x[i] / inv_mean - 1;

		ss += d * d;
	}
	/* sqrt(sum (1/x - 1/H)^2 H^4 / n) = H sqrt(ss / n) */
	return sqrt(ss / (double)n) / inv_mean;
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

void stats_test_nan(struct stats_test *out)
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
	stats_tdist_init(&td, df);
	p = stats_t_tail2(&td, fabs(t), NULL, NULL);
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
	double ma, mb, fa, fb, sa, sb, f;

	stats_test_nan(out);
	if (na < 2 || nb < 2 || !stats_all_finite(a, na) || !stats_all_finite(b, nb))
		return -1;
	ma = stats_mean(a, na);
	mb = stats_mean(b, nb);
	/* the sds as their scaled sums give them: one past DBL_MAX is tested */
	sa = sd_of(ss_from(a, na, ma, &fa), 1, (double)(na - 1));
	sb = sd_of(ss_from(b, nb, mb, &fb), 1, (double)(nb - 1));
	f = fmax(fmax(fa, fb), fmax(pow2_scale(ma), pow2_scale(mb)));
	sa *= fa / f;
	sb *= fb / f;
	return welch_var(ma / f, sa * sa, (double)na, mb / f, sb * sb,
			 (double)nb, out);
}

int stats_welch_summary(double mean_a, double sd_a, double na,
			double mean_b, double sd_b, double nb,
			struct stats_test *out)
{
	stats_test_nan(out);
	if (!(na >= 2 && nb >= 2) || !isfinite(mean_a) || !isfinite(mean_b) ||
	    !isfinite(sd_a) || !isfinite(sd_b) || sd_a < 0 || sd_b < 0 ||
	    !isfinite(na) || !isfinite(nb))
		return -1;
	return welch_sd(mean_a, sd_a, na, mean_b, sd_b, nb, out);
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

void stats_bh_sorted(double *p, size_t m)
{
	double run = 1;
	size_t i;

	for (i = m; i-- > 0;) {
		double q = (double)m * p[i] / (double)(i + 1);

		if (q < run)
			run = q;
		p[i] = run;
	}
}

void stats_sort(double *v, size_t n)
{
	sort_doubles(v, n);
}

size_t stats_rank(const double *sorted, size_t m, double x)
{
	size_t lo = 0, hi = m;

	/* the first position past x, then the one before it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
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
