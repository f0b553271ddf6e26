/*
 * The Mann-Whitney U test (stats.h): exact null distribution given the
 * ties for up to 25 values a side, the normal approximation with tie
 * and continuity corrections above, and the smallest p-value a run
 * count can reach.  Checked against scipy on tests/ref/stats-ref.tsv.
 */
#include "stats/stats.h"
#include "stats/stats-int.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

	stats_test_nan(out);
	if (na == 0 || nb == 0 || !stats_all_finite(a, na) || !stats_all_finite(b, nb))
		return -1;
	exact = na <= STATS_MWU_EXACT_MAX && nb <= STATS_MWU_EXACT_MAX;
	if (defer && na + nb <= MWU_PAIRWISE_MAX &&
	    untied_u2(a, na, b, nb, &u2)) {
		out->stat = 0.5 * (double)u2;
		out->exact = 1;
		return 1;
	}
	sa = stats_get_sorted(a, na, abuf);
	sb = sa ? stats_get_sorted(b, nb, bbuf) : NULL;
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
		stats_put_sorted(sa, abuf);
	if (sb)
		stats_put_sorted(sb, bbuf);
	if (ret < 0)
		stats_test_nan(out);
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
