/*
 * changepoint.c - E-divisive means in O(n log n) and Otava-style
 * detection: see changepoint.h.
 *
 * The within-side sums of |x_i - x_j| for every prefix (and every suffix)
 * come from one pass each over the series, with a Fenwick tree indexed by
 * the rank of the value that holds the count and the sum of the values
 * inserted so far: for a new value y, with c, s the count and sum of the
 * inserted values <= y and C, S those of all inserted values,
 *   sum |y - v| = (c y - s) + ((S - s) - (C - c) y) = (2c - C) y - 2s + S.
 * Equal values cancel (y - y), so ties need no special case.  The cross
 * sum of a split is what the total leaves: T - L(tau) - R(tau).  Values
 * are shifted by their median first (|x - y| does not change) so that the
 * tree's sums stay small and lose little to rounding.
 */
#include "stats/changepoint.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct val_idx {
	double v;
	size_t i;
};

/* Fenwick node: count and sum of the values whose rank it covers. */
struct fen {
	double c, s;
};

/* Buffers for a segment of up to cap points; all owned, malloc(). */
struct ediv_ws {
	size_t cap;
	struct val_idx *sorted;
	size_t *rank;		/* 1-based rank of x[i] among distinct values */
	struct fen *fen;	/* cap + 1 nodes, 1-based */
	double *left;		/* left[t]: within sum of x[0..t) */
	double *right;		/* right[t]: within sum of x[t..n) */
};

static void ws_release(struct ediv_ws *w)
{
	free(w->sorted);
	free(w->rank);
	free(w->fen);
	free(w->left);
	free(w->right);
	memset(w, 0, sizeof(*w));
}

static int ws_init(struct ediv_ws *w, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->cap = n;
	w->sorted = malloc(n * sizeof(*w->sorted));
	w->rank = malloc(n * sizeof(*w->rank));
	w->fen = malloc((n + 1) * sizeof(*w->fen));
	w->left = malloc((n + 1) * sizeof(*w->left));
	w->right = malloc((n + 1) * sizeof(*w->right));
	if (!w->sorted || !w->rank || !w->fen || !w->left || !w->right) {
		ws_release(w);
		return -1;
	}
	return 0;
}

static int cmp_val_idx(const void *a, const void *b)
{
	const struct val_idx *x = a, *y = b;

	return (x->v > y->v) - (x->v < y->v);
}

/*
 * Add sum_{v inserted} |y - v| to *acc and then insert y at rank r
 * (1-based); *cnt and *sum are the count and sum of all inserted values.
 */
static void fen_visit(struct fen *fen, size_t d, size_t r, double y,
		      double *cnt, double *sum, double *acc)
{
	double c = 0, s = 0;
	size_t j;

	for (j = r; j; j &= j - 1) {
		c += fen[j].c;
		s += fen[j].s;
	}
	*acc += (2 * c - *cnt) * y - 2 * s + *sum;
	for (j = r; j <= d; j += j & -j) {
		fen[j].c += 1;
		fen[j].s += y;
	}
	*cnt += 1;
	*sum += y;
}

/* Q of every split of x[0..n), n >= 2, into q[1..n); w->cap >= n. */
static void ediv_segment(struct ediv_ws *w, const double *x, size_t n,
			 double *q)
{
	double shift, cnt, sum, acc, total, dn = (double)n;
	size_t i, d;

	for (i = 0; i < n; i++) {
		w->sorted[i].v = x[i];
		w->sorted[i].i = i;
	}
	qsort(w->sorted, n, sizeof(*w->sorted), cmp_val_idx);
	shift = w->sorted[n / 2].v;
	d = 0;
	for (i = 0; i < n; i++) {
		if (!i || w->sorted[i].v != w->sorted[i - 1].v)
			d++;
		w->rank[w->sorted[i].i] = d;
	}

	memset(w->fen, 0, (d + 1) * sizeof(*w->fen));
	cnt = sum = acc = 0;
	w->left[0] = 0;
	for (i = 0; i < n; i++) {
		fen_visit(w->fen, d, w->rank[i], x[i] - shift, &cnt, &sum,
			  &acc);
		w->left[i + 1] = acc;
	}
	memset(w->fen, 0, (d + 1) * sizeof(*w->fen));
	cnt = sum = acc = 0;
	w->right[n] = 0;
	for (i = n; i--;) {
		fen_visit(w->fen, d, w->rank[i], x[i] - shift, &cnt, &sum,
			  &acc);
		w->right[i] = acc;
	}

	/*
	 * Q = mk/n (2 cross/(mk) - 2 L/(m(m-1)) - 2 R/(k(k-1)))
	 *   = 2 cross/n - 2 k L/(n(m-1)) - 2 m R/(n(k-1))
	 */
	total = w->left[n];
	for (i = 1; i < n; i++) {
		double m = (double)i, k = dn - m;
		double l = w->left[i], r = w->right[i];
		double v = 2 * (total - l - r) / dn;

		if (i >= 2)
			v -= 2 * k * l / (dn * (m - 1));
		if (n - i >= 2)
			v -= 2 * m * r / (dn * (k - 1));
		q[i] = v;
	}
}

int cp_ediv(const double *x, size_t n, double *q_out)
{
	struct ediv_ws w;

	if (!stats_all_finite(x, n))
		return -1;
	if (n)
		q_out[0] = NAN;
	if (n < 2)
		return 0;
	if (ws_init(&w, n))
		return -1;
	ediv_segment(&w, x, n, q_out);
	ws_release(&w);
	return 0;
}

/* Otava's magnitude of a change of the mean from a to b. */
static double magnitude(double a, double b)
{
	if (a == b)
		return 0;
	if (a == 0 || b == 0)
		return INFINITY;
	return fmax(fabs(b / a - 1), fabs(a / b - 1));
}

/*
 * Two-sided p-value of a[0..na) against b[0..nb) (na, nb >= 2): Student's
 * pooled-variance t-test (Otava's, scipy.stats.ttest_ind) or Welch's.
 * Both variances zero: 1 if the means are equal, else 0.  The means go
 * to *ma, *mb.
 */
static double two_sample_p(const double *a, size_t na, const double *b,
			   size_t nb, int welch, double *ma, double *mb)
{
	struct stats_test t;
	double sa, sb, sp2, df, tv;

	*ma = stats_mean(a, na);
	*mb = stats_mean(b, nb);
	if (welch)
		return stats_welch(a, na, b, nb, &t) ? NAN : t.p;
	sa = stats_sd_sample(a, na);
	sb = stats_sd_sample(b, nb);
	df = (double)(na + nb - 2);
	sp2 = ((double)(na - 1) * sa * sa + (double)(nb - 1) * sb * sb) / df;
	if (sp2 == 0)
		return *ma == *mb ? 1 : 0;
	tv = (*ma - *mb) / sqrt(sp2 * (1.0 / (double)na + 1.0 / (double)nb));
	return fmin(1, 2 * stats_t_sf(fabs(tv), df));
}

struct seg {
	size_t start, end;
};

/* A split found: the index and its Q. */
struct split {
	size_t index;
	double q;
};

static int cmp_split(const void *a, const void *b)
{
	const struct split *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/*
 * p (of *alloc elements of size sz) grown to hold at least nr + 1: p
 * itself, or the realloc()ed array, or NULL (p still valid) on failure.
 */
static void *grow(void *p, size_t *alloc, size_t nr, size_t sz)
{
	void *np;
	size_t na;

	if (nr < *alloc)
		return p;
	na = *alloc * 2 + 16;
	np = realloc(p, na * sz);
	if (np)
		*alloc = na;
	return np;
}

#define GROW(p, nr, alloc) \
	(((p) = grow(tmp = (p), &(alloc), (nr), sizeof(*(p)))) ? 0 : \
	 ((p) = tmp, -1))

/*
 * The best allowed split of x[s..e) (absolute index, 0 if none), its Q in
 * *q_best; q is scratch of e - s entries.
 */
static size_t best_split(struct ediv_ws *w, const double *x,
			 const size_t *group, size_t s, size_t e,
			 size_t min_size, double *q, double *q_best)
{
	size_t len = e - s, t, best = 0;

	if (len < 2 * min_size)
		return 0;
	ediv_segment(w, x + s, len, q);
	for (t = min_size; t <= len - min_size; t++) {
		if (group && group[s + t - 1] == group[s + t])
			continue;
		if (!best || q[t] > *q_best) {
			best = s + t;
			*q_best = q[t];
		}
	}
	return best;
}

int cp_detect(const double *x, const size_t *group, size_t n,
	      const struct cp_options *opt, struct cp_result *out)
{
	static const struct cp_options defaults = CP_OPTIONS_INIT;
	struct ediv_ws w = { 0 };
	struct seg *stack = NULL;
	struct split *found = NULL;
	size_t nstack = 0, astack = 0, nfound = 0, afound = 0, min_size, i;
	double *q = NULL;
	void *tmp;
	int ret = -1;

	out->points = NULL;
	out->nr = 0;
	if (!opt)
		opt = &defaults;
	if (isnan(opt->max_pvalue) || isnan(opt->min_magnitude) ||
	    !stats_all_finite(x, n))
		return -1;
	for (i = 1; group && i < n; i++)
		if (group[i] < group[i - 1])
			return -1;
	min_size = opt->min_size < 2 ? 2 : opt->min_size;
	if (n < 2 * min_size)
		return 0;
	if (ws_init(&w, n))
		return -1;
	q = malloc(n * sizeof(*q));
	if (!q || GROW(stack, 0, astack))
		goto out;
	stack[nstack].start = 0;
	stack[nstack++].end = n;
	while (nstack) {
		struct seg sg = stack[--nstack];
		double qb = 0, ma, mb, p;
		size_t tau = best_split(&w, x, group, sg.start, sg.end,
					min_size, q, &qb);

		if (!tau)
			continue;
		p = two_sample_p(x + sg.start, tau - sg.start, x + tau,
				 sg.end - tau, opt->welch, &ma, &mb);
		if (!(p < opt->max_pvalue) ||
		    !(magnitude(ma, mb) > opt->min_magnitude))
			continue;
		if (GROW(found, nfound, afound))
			goto out;
		found[nfound].index = tau;
		found[nfound++].q = qb;
		if (GROW(stack, nstack + 1, astack))
			goto out;
		stack[nstack].start = sg.start;
		stack[nstack++].end = tau;
		stack[nstack].start = tau;
		stack[nstack++].end = sg.end;
	}
	if (!nfound) {
		ret = 0;
		goto out;
	}
	qsort(found, nfound, sizeof(*found), cmp_split);
	out->points = calloc(nfound, sizeof(*out->points));
	if (!out->points)
		goto out;
	for (i = 0; i < nfound; i++) {
		struct cp_point *p = &out->points[i];
		size_t prev = i ? found[i - 1].index : 0;
		size_t next = i + 1 < nfound ? found[i + 1].index : n;
		p->index = found[i].index;
		p->q = found[i].q;
		p->n_before = p->index - prev;
		p->n_after = next - p->index;
		p->pvalue = two_sample_p(x + prev, p->n_before, x + p->index,
					 p->n_after, opt->welch,
					 &p->mean_before, &p->mean_after);
		p->change_pct = p->mean_before == 0 ? NAN :
			100 * (p->mean_after / p->mean_before - 1);
		p->magnitude = magnitude(p->mean_before, p->mean_after);
	}
	out->nr = nfound;
	ret = 0;
out:
	ws_release(&w);
	free(q);
	free(stack);
	free(found);
	return ret;
}

void cp_result_release(struct cp_result *out)
{
	free(out->points);
	out->points = NULL;
	out->nr = 0;
}
