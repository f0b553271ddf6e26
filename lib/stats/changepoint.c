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
#include "core/parallel.h"
#include <pthread.h>
#include "stats/stats.h"
#include "core/err.h"

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

/*
 * What the split recursion needs, kept between calls so that the
 * windowed mode reuses its buffers from window to window.
 */
struct splitter {
	const double *x;	/* borrowed */
	const size_t *group;	/* borrowed; NULL: no groups */
	size_t min_size;
	int welch;
	struct ediv_ws w;	/* owned, capacity w.cap points */
	double *q;		/* owned, w.cap entries */
	struct seg *stack;	/* owned */
	size_t astack;
	struct split *found;	/* owned; nfound splits, in no order */
	size_t nfound, afound;
	size_t nstack_pool;	/* split_all(): segments on its stack */
};

static void splitter_release(struct splitter *sp)
{
	ws_release(&sp->w);
	free(sp->q);
	free(sp->stack);
	free(sp->found);
	memset(sp, 0, sizeof(*sp));
}

/* Room for a segment of len points. */
static int splitter_reserve(struct splitter *sp, size_t len)
{
	if (len <= sp->w.cap)
		return 0;
	ws_release(&sp->w);
	free(sp->q);
	sp->q = malloc(len * sizeof(*sp->q));
	if (!sp->q || ws_init(&sp->w, len)) {
		free(sp->q);
		sp->q = NULL;
		return -1;
	}
	return 0;
}

/*
 * Split x[s..e) as cp_detect() does: each segment at its best allowed
 * split if the t-test of its two sides gives p < max_p and the
 * magnitude is above min_mag, then both sides again.  The splits go to
 * sp->found, after those already there.  0, or -1 if malloc() failed.
 */
static int split_range(struct splitter *sp, size_t s, size_t e,
		       double max_p, double min_mag)
{
	size_t nstack = 0;
	void *tmp;

	if (splitter_reserve(sp, e - s) || GROW(sp->stack, 0, sp->astack))
		return -1;
	sp->stack[nstack].start = s;
	sp->stack[nstack++].end = e;
	while (nstack) {
		struct seg sg = sp->stack[--nstack];
		double qb = 0, ma, mb, p;
		size_t tau = best_split(&sp->w, sp->x, sp->group, sg.start,
					sg.end, sp->min_size, sp->q, &qb);

		if (!tau)
			continue;
		p = two_sample_p(sp->x + sg.start, tau - sg.start, sp->x + tau,
				 sg.end - tau, sp->welch, &ma, &mb);
		if (!(p < max_p) || !(magnitude(ma, mb) > min_mag))
			continue;
		if (GROW(sp->found, sp->nfound, sp->afound))
			return -1;
		sp->found[sp->nfound].index = tau;
		sp->found[sp->nfound++].q = qb;
		if (GROW(sp->stack, nstack + 1, sp->astack))
			return -1;
		sp->stack[nstack].start = sg.start;
		sp->stack[nstack++].end = tau;
		sp->stack[nstack].start = tau;
		sp->stack[nstack++].end = sg.end;
	}
	return 0;
}

/*
 * split_range() of a long series (CP_PARALLEL_MIN points and more) by
 * two workers, the caller's thread and a second one: each takes the next
 * segment from a shared stack, splits it with buffers of its own, and
 * pushes both sides back.  The segments are independent, and the splits
 * are sorted by index after, so the answer is the one of one thread.
 */
#define CP_PARALLEL_MIN 65536

struct split_pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct splitter *main;	/* its found and stack are the pool's */
	double max_p, min_mag;
	size_t busy;		/* workers splitting a segment now */
	int err;
};

struct split_worker {
	struct split_pool *pool;
	struct splitter sp;	/* own buffers; x, group, options shared */
};

static void *split_work(void *arg)
{
	struct split_worker *wk = arg;
	struct split_pool *pl = wk->pool;
	struct splitter *m = pl->main;
	size_t nstack;
	void *tmp;

	pthread_mutex_lock(&pl->mu);
	for (;;) {
		struct seg sg;
		double qb = 0, ma, mb, p;
		size_t tau;
		int take, oom;

		while (!(nstack = m->nstack_pool) && pl->busy && !pl->err)
			pthread_cond_wait(&pl->cv, &pl->mu);
		if (!nstack || pl->err)
			break;
		sg = m->stack[--m->nstack_pool];
		pl->busy++;
		pthread_mutex_unlock(&pl->mu);

		tau = 0;
		oom = splitter_reserve(&wk->sp, sg.end - sg.start);
		if (!oom)
			tau = best_split(&wk->sp.w, wk->sp.x, wk->sp.group,
					 sg.start, sg.end, wk->sp.min_size,
					 wk->sp.q, &qb);
		take = 0;
		if (tau) {
			p = two_sample_p(wk->sp.x + sg.start, tau - sg.start,
					 wk->sp.x + tau, sg.end - tau,
					 wk->sp.welch, &ma, &mb);
			take = p < pl->max_p && magnitude(ma, mb) > pl->min_mag;
		}

		pthread_mutex_lock(&pl->mu);
		pl->busy--;
		if (oom)
			pl->err = 1;
		if (take && (GROW(m->found, m->nfound, m->afound) ||
			     GROW(m->stack, m->nstack_pool + 1, m->astack)))
			pl->err = 1;
		else if (take) {
			m->found[m->nfound].index = tau;
			m->found[m->nfound++].q = qb;
			m->stack[m->nstack_pool].start = sg.start;
			m->stack[m->nstack_pool++].end = tau;
			m->stack[m->nstack_pool].start = tau;
			m->stack[m->nstack_pool++].end = sg.end;
		}
		pthread_cond_broadcast(&pl->cv);
	}
	pthread_cond_broadcast(&pl->cv);
	pthread_mutex_unlock(&pl->mu);
	return NULL;
}

static int split_all(struct splitter *sp, size_t n, double max_p,
		     double min_mag)
{
	struct split_pool pl = {
		PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, sp,
		max_p, min_mag, 0, 0,
	};
	struct split_worker a, b;
	pthread_t t;
	void *tmp;
	int two;

	if (n < CP_PARALLEL_MIN || !parallel_enabled())
		return split_range(sp, 0, n, max_p, min_mag);
	if (GROW(sp->stack, 0, sp->astack))
		return -1;
	sp->stack[0].start = 0;
	sp->stack[0].end = n;
	sp->nstack_pool = 1;
	a.pool = b.pool = &pl;
	a.sp = b.sp = *sp;
	/* each worker its own buffers; found and stack stay the pool's */
	memset(&a.sp.w, 0, sizeof(a.sp.w));
	memset(&b.sp.w, 0, sizeof(b.sp.w));
	a.sp.q = b.sp.q = NULL;
	two = !pthread_create(&t, NULL, split_work, &b);
	split_work(&a);
	if (two)
		pthread_join(t, NULL);
	ws_release(&a.sp.w);
	free(a.sp.q);
	ws_release(&b.sp.w);
	free(b.sp.q);
	sp->nstack_pool = 0;
	return pl.err ? -1 : 0;
}

/* opt checked and min_size clamped to 2; -1 if an option is NAN */
static int check_options(const struct cp_options *opt, size_t *min_size)
{
	if (isnan(opt->max_pvalue) || isnan(opt->min_magnitude))
		return -1;
	*min_size = opt->min_size < 2 ? 2 : opt->min_size;
	return 0;
}

static int groups_sorted(const size_t *group, size_t n)
{
	size_t i;

	for (i = 1; group && i < n; i++)
		if (group[i] < group[i - 1])
			return 0;
	return 1;
}

int cp_detect(const double *x, const size_t *group, size_t n,
	      const struct cp_options *opt, struct cp_result *out)
{
	static const struct cp_options defaults = CP_OPTIONS_INIT;
	struct splitter sp = { 0 };
	struct split *found;
	size_t nfound, min_size, i;
	int ret = -1;

	out->points = NULL;
	out->nr = 0;
	if (!opt)
		opt = &defaults;
	if (check_options(opt, &min_size) || !stats_all_finite(x, n) ||
	    !groups_sorted(group, n))
		return -1;
	if (n < 2 * min_size)
		return 0;
	sp.x = x;
	sp.group = group;
	sp.min_size = min_size;
	sp.welch = opt->welch;
	if (split_all(&sp, n, opt->max_pvalue, opt->min_magnitude))
		goto out;
	found = sp.found;
	nfound = sp.nfound;
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
	splitter_release(&sp);
	return ret;
}

void cp_result_release(struct cp_result *out)
{
	free(out->points);
	out->points = NULL;
	out->nr = 0;
}

/* ---- windowed detection, the merge pass, incremental update ---------- */

/*
 * Prefix sums up to a point of v = x - shift and of v * v, each with
 * Neumaier's compensation term: a segment's sum is the difference of two
 * prefixes, and without the terms a long series would lose the digits
 * of a short segment's variance to the rounding of the large prefixes.
 */
struct prefix {
	double s, sc, q, qc;
};

static void neumaier_add(double *sum, double *c, double v)
{
	double t = *sum + v;

	if (fabs(*sum) >= fabs(v))
		*c += (*sum - t) + v;
	else
		*c += (v - t) + *sum;
	*sum = t;
}

/* One window of the split pass: x[start..end), weak points before it. */
struct cp_window {
	size_t start, end, nweak;
};

/* A node of the merge pass: one weak change point and its neighbours. */
struct mnode {
	size_t pos;		/* index in the series */
	size_t prev, next;	/* nodes; NO_NODE: the boundary */
	double p, mag;
	unsigned ver;		/* heap entries of older ones are stale */
	int dead;
	size_t hist;		/* its left neighbours: head in cs->mh */
};

/* One left neighbour a node had, in a list, newest first. */
struct mhist {
	size_t pos, next;	/* next: NO_NODE ends the list */
};

/* A result point's left neighbours over its merges: cs->lpool[off..) */
struct lrange {
	size_t off, nr;
};

#define NO_NODE ((size_t)-1)

/* A heap entry: the larger key first, then the lower node. */
struct hent {
	double key;
	size_t node;
	unsigned ver;
};

struct heap {
	struct hent *e;		/* owned */
	size_t nr, alloc;
};

struct cp_stream {
	size_t window, step;
	struct cp_options opt;
	size_t min_size;
	double weak_pvalue;
	int broken;		/* malloc() failed mid-update */

	/* the series: n points, pre[0..n] */
	double *x;		/* owned */
	size_t *group;		/* owned */
	size_t *bounds;		/* owned; group boundaries in [1..i] */
	struct prefix *pre;	/* owned */
	size_t n, alloc;
	double shift;

	struct cp_window *win;	/* owned; the windows run, in order */
	size_t nwin, awin;
	struct split *weak;	/* owned; sorted, no duplicates */
	size_t nweak, aweak;

	struct cp_result res;	/* points owned */
	struct cp_point *next_res;	/* owned; the result being built */
	struct lrange *lr_res, *lr_next;	/* owned; per point of each */
	size_t ares;		/* entries of the four arrays above */
	size_t *lpool;		/* owned; lr_res and lr_next point here */
	size_t nlpool, alpool;

	struct splitter sp;
	struct mnode *node;	/* owned; merge scratch */
	size_t anode;
	struct heap hp, hm;	/* by p, by -magnitude */
	struct mhist *mh;	/* owned; the nodes' left neighbours */
	size_t nmh, amh;
	/* owned; the right neighbours the merge gave its left boundary */
	size_t *front;
	size_t nfront, afront;
	size_t full_merges;
};

static int heap_before(const struct hent *a, const struct hent *b)
{
	return a->key > b->key || (a->key == b->key && a->node < b->node);
}

static int heap_push(struct heap *h, double key, size_t node, unsigned ver)
{
	size_t i;
	void *tmp;

	if (GROW(h->e, h->nr, h->alloc))
		return -1;
	i = h->nr++;
	h->e[i].key = key;
	h->e[i].node = node;
	h->e[i].ver = ver;
	while (i && heap_before(&h->e[i], &h->e[(i - 1) / 2])) {
		struct hent t = h->e[i];

		h->e[i] = h->e[(i - 1) / 2];
		h->e[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
	return 0;
}

static void heap_pop(struct heap *h)
{
	size_t i = 0;

	h->e[0] = h->e[--h->nr];
	for (;;) {
		size_t l = 2 * i + 1, b = i;

		if (l < h->nr && heap_before(&h->e[l], &h->e[b]))
			b = l;
		if (l + 1 < h->nr && heap_before(&h->e[l + 1], &h->e[b]))
			b = l + 1;
		if (b == i)
			break;
		struct hent t = h->e[i];

		h->e[i] = h->e[b];
		h->e[b] = t;
		i = b;
	}
}

/* The top entry that is still current, or NULL; stale ones are dropped. */
static const struct hent *heap_top(struct heap *h, const struct mnode *node)
{
	while (h->nr) {
		const struct mnode *m = &node[h->e[0].node];

		if (!m->dead && m->ver == h->e[0].ver)
			return &h->e[0];
		heap_pop(h);
	}
	return NULL;
}

/* Sum of v and of v * v over x[a..b), from the prefix sums. */
static void seg_sums(const struct cp_stream *cs, size_t a, size_t b,
		     double *s, double *q)
{
	const struct prefix *pa = &cs->pre[a], *pb = &cs->pre[b];

	*s = (pb->s - pa->s) + (pb->sc - pa->sc);
	*q = (pb->q - pa->q) + (pb->qc - pa->qc);
}

/*
 * The test of x[l..m) against x[m..r) (both at least 2 points) from the
 * prefix sums: the same tests as two_sample_p(), the means to *ma, *mb.
 * A p that is not a number (Welch on two constant sides) counts as 1,
 * as cp_detect() counts it: not significant.
 */
static double seg_test(const struct cp_stream *cs, size_t l, size_t m,
		       size_t r, double *ma, double *mb)
{
	double sa, qa, sb, qb, na = (double)(m - l), nb = (double)(r - m);
	double va, vb, ssa, ssb, d, p;

	seg_sums(cs, l, m, &sa, &qa);
	seg_sums(cs, m, r, &sb, &qb);
	va = sa / na;
	vb = sb / nb;
	*ma = cs->shift + va;
	*mb = cs->shift + vb;
	ssa = fmax(0, qa - sa * va);
	ssb = fmax(0, qb - sb * vb);
	d = va - vb;
	if (cs->opt.welch) {
		struct stats_test t;

		if (stats_welch_summary(va, sqrt(ssa / (na - 1)), na, vb,
					sqrt(ssb / (nb - 1)), nb, &t))
			return 1;
		p = t.p;
	} else {
		double df = na + nb - 2, sp2 = (ssa + ssb) / df;

		if (sp2 == 0)
			return d == 0 ? 1 : 0;
		p = fmin(1, 2 * stats_t_sf(fabs(d) / sqrt(sp2 * (1 / na +
								  1 / nb)),
					   df));
	}
	return isnan(p) ? 1 : p;
}

/*
 * The p the merge pass decides on: the test of x[l..m) against x[m..r),
 * times the number of splits of x[l..r) that the windows could have
 * chosen (Bonferroni) unless opt.bonferroni is 0.  Why: each weak change
 * point is the best split of its window, so its plain p is the smallest
 * of many; a flat stretch of 1,000 points then keeps a pair of change
 * points around its most extreme few dozen points in a quarter of the
 * series (tests/cp-synth.c; Otava's plain rule).  The product bounds the
 * chance that any split of x[l..r) passes by chance.  Only group
 * boundaries count, from the prefix count cs->bounds.
 */
static double merge_p(const struct cp_stream *cs, size_t l, size_t m,
		      size_t r, double *ma, double *mb)
{
	double p = seg_test(cs, l, m, r, ma, mb);
	size_t ms = cs->min_size, splits;

	if (!cs->opt.bonferroni || r - l < 2 * ms)
		return p;
	splits = cs->bounds[r - ms] - cs->bounds[l + ms - 1];
	return splits > 1 ? fmin(1, p * (double)splits) : p;
}

/* A result point at m between the change points (or ends) l and r. */
static void fill_point(const struct cp_stream *cs, struct cp_point *p,
		       size_t l, size_t m, size_t r, double q)
{
	p->index = m;
	p->n_before = m - l;
	p->n_after = r - m;
	p->pvalue = seg_test(cs, l, m, r, &p->mean_before, &p->mean_after);
	p->change_pct = p->mean_before == 0 ? NAN :
		100 * (p->mean_after / p->mean_before - 1);
	p->magnitude = magnitude(p->mean_before, p->mean_after);
	p->q = q;
}

static size_t node_pos(const struct mnode *node, size_t k, size_t bound)
{
	return k == NO_NODE ? bound : node[k].pos;
}

/* Test node k again against its current neighbours; new heap entries. */
static int node_eval(struct cp_stream *cs, size_t k, size_t left,
		     size_t right)
{
	struct mnode *m = &cs->node[k];
	double ma, mb;

	m->p = merge_p(cs, node_pos(cs->node, m->prev, left), m->pos,
			node_pos(cs->node, m->next, right), &ma, &mb);
	m->mag = magnitude(ma, mb);
	m->ver++;
	if (heap_push(&cs->hp, m->p, k, m->ver))
		return -1;
	if (cs->opt.min_magnitude >= 0 &&
	    heap_push(&cs->hm, -m->mag, k, m->ver))
		return -1;
	return 0;
}

/* Note that node k (NO_NODE: the left end) got pos as left neighbour. */
static int hist_add(struct cp_stream *cs, size_t k, size_t pos)
{
	void *tmp;

	if (k == NO_NODE) {
		if (GROW(cs->front, cs->nfront, cs->afront))
			return -1;
		cs->front[cs->nfront++] = pos;
		return 0;
	}
	if (GROW(cs->mh, cs->nmh, cs->amh))
		return -1;
	cs->mh[cs->nmh].pos = pos;
	cs->mh[cs->nmh].next = cs->node[k].hist;
	cs->node[k].hist = cs->nmh++;
	return 0;
}

static int node_remove(struct cp_stream *cs, size_t k, size_t left,
		       size_t right)
{
	struct mnode *m = &cs->node[k];

	m->dead = 1;
	/*
	 * The neighbours of the merged segment each get a new neighbour
	 * on that side: recorded for the barrier proof of merge_tail()
	 */
	if (m->next != NO_NODE &&
	    hist_add(cs, m->next, node_pos(cs->node, m->prev, left)))
		return -1;
	if (m->prev == NO_NODE &&
	    hist_add(cs, NO_NODE, node_pos(cs->node, m->next, right)))
		return -1;
	if (m->prev != NO_NODE)
		cs->node[m->prev].next = m->next;
	if (m->next != NO_NODE)
		cs->node[m->next].prev = m->prev;
	if (m->prev != NO_NODE && node_eval(cs, m->prev, left, right))
		return -1;
	if (m->next != NO_NODE && node_eval(cs, m->next, left, right))
		return -1;
	return 0;
}

/*
 * The merge pass over the weak change points weak[ka..kb), the segment
 * before the first one starting at left and the one after the last one
 * ending at right (fixed boundaries).  Survivors: cs->node[0..kb-ka) not
 * dead.  0, or -1 if malloc() failed.
 */
static int merge(struct cp_stream *cs, size_t ka, size_t kb, size_t left,
		 size_t right)
{
	size_t nr = kb - ka, k;

	cs->hp.nr = cs->hm.nr = 0;
	cs->nmh = cs->nfront = 0;
	if (hist_add(cs, NO_NODE, nr ? cs->weak[ka].index : right))
		return -1;
	if (!nr)
		return 0;
	if (nr > cs->anode) {
		/* GROW() doubles once; the merge wants all nr at once */
		struct mnode *m = realloc(cs->node, nr * 2 * sizeof(*m));

		if (!m)
			return -1;
		cs->node = m;
		cs->anode = nr * 2;
	}
	for (k = 0; k < nr; k++) {
		struct mnode *m = &cs->node[k];

		m->pos = cs->weak[ka + k].index;
		m->prev = k ? k - 1 : NO_NODE;
		m->next = k + 1 < nr ? k + 1 : NO_NODE;
		m->ver = 0;
		m->dead = 0;
		m->hist = NO_NODE;
		if (hist_add(cs, k, k ? cs->weak[ka + k - 1].index : left))
			return -1;
	}
	for (k = 0; k < nr; k++)
		if (node_eval(cs, k, left, right))
			return -1;
	for (;;) {
		const struct hent *h = heap_top(&cs->hp, cs->node);

		if (!h)
			break;
		if (h->key >= cs->opt.max_pvalue) {
			k = h->node;
			heap_pop(&cs->hp);
			if (node_remove(cs, k, left, right))
				return -1;
			continue;
		}
		h = heap_top(&cs->hm, cs->node);
		if (h && -h->key <= cs->opt.min_magnitude) {
			k = h->node;
			heap_pop(&cs->hm);
			if (node_remove(cs, k, left, right))
				return -1;
			continue;
		}
		break;
	}
	return 0;
}

/* The weak change point at index pos: its place in cs->weak[0..nr). */
static size_t weak_find(const struct cp_stream *cs, size_t nr, size_t pos)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cs->weak[mid].index < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int res_reserve(struct cp_stream *cs, size_t nr)
{
	struct cp_point *a, *b;
	struct lrange *c, *d;

	if (nr <= cs->ares)
		return 0;
	nr = nr * 2 + 16;
	a = realloc(cs->res.points, nr * sizeof(*a));
	if (a)
		cs->res.points = a;
	b = realloc(cs->next_res, nr * sizeof(*b));
	if (b)
		cs->next_res = b;
	c = realloc(cs->lr_res, nr * sizeof(*c));
	if (c)
		cs->lr_res = c;
	d = realloc(cs->lr_next, nr * sizeof(*d));
	if (d)
		cs->lr_next = d;
	if (!a || !b || !c || !d)
		return -1;
	cs->ares = nr;
	return 0;
}

/* Copy node k's left neighbours to the pool: their range to *lr. */
static int hist_keep(struct cp_stream *cs, size_t k, struct lrange *lr)
{
	size_t h;
	void *tmp;

	lr->off = cs->nlpool;
	lr->nr = 0;
	for (h = cs->node[k].hist; h != NO_NODE; h = cs->mh[h].next) {
		if (GROW(cs->lpool, cs->nlpool, cs->alpool))
			return -1;
		cs->lpool[cs->nlpool++] = cs->mh[h].pos;
		lr->nr++;
	}
	return 0;
}

/*
 * The pool holds the histories of replaced results too: when they are
 * most of it, copy the current ones to a new pool (amortised O(1)).
 */
static int pool_compact(struct cp_stream *cs)
{
	size_t live = 0, i, off = 0, *np;

	for (i = 0; i < cs->res.nr; i++)
		live += cs->lr_res[i].nr;
	if (cs->nlpool <= 2 * live + 4096)
		return 0;
	np = malloc((live + 1) * sizeof(*np));
	if (!np)
		return -1;
	for (i = 0; i < cs->res.nr; i++) {
		struct lrange *lr = &cs->lr_res[i];

		memcpy(np + off, cs->lpool + lr->off, lr->nr * sizeof(*np));
		lr->off = off;
		off += lr->nr;
	}
	free(cs->lpool);
	cs->lpool = np;
	cs->nlpool = off;
	cs->alpool = live + 1;
	return 0;
}

/*
 * Append the merge survivors (weak[ka..) with boundaries left and right)
 * and their histories to next_res from entry *nr on.  0, or -1 if
 * malloc() failed.
 */
static int add_survivors(struct cp_stream *cs, size_t ka, size_t kb,
			 size_t left, size_t right, size_t *nr)
{
	size_t k, prev = left;

	for (k = 0; k < kb - ka; k++) {
		const struct mnode *m = &cs->node[k];

		if (m->dead)
			continue;
		if (hist_keep(cs, k, &cs->lr_next[*nr]))
			return -1;
		fill_point(cs, &cs->next_res[(*nr)++], prev, m->pos,
			   node_pos(cs->node, m->next, right),
			   cs->weak[ka + k].q);
		prev = m->pos;
	}
	return 0;
}

/* More (l, r) pairs than this: a full merge is about as cheap. */
#define MAX_PROOF_PAIRS 4096

/*
 * The merge pass after an append that kept the first `keep` weak change
 * points, using the old result (cs->res): find an old change point a
 * (weak[ka]) that survives the new merge whatever happens on either side
 * of it, keep the old result up to it, and merge only the weak change
 * points after it with a as a fixed left boundary.
 *
 * Why that is exact: while a stands, nothing left of it sees anything
 * right of it (each test uses only the segments next to a change point),
 * so the weak points left of a merge as they merged before (a stood
 * then too: it was in the old result), and those right of it as a merge
 * of their own with a fixed boundary.  So while a stands, its left
 * neighbours are those it had in the old merges (recorded: lr_res) and
 * its right neighbours those the tail merge gives it (recorded: front).
 * If a passes its test (p < max_pvalue, magnitude above the minimum)
 * against every such pair, it is never removed, by induction over the
 * steps of the merge, and the result is that of the full merge.  The
 * neighbours a point has over a merge are few (a new one only when the
 * one next to it is removed first: about log k of k weak points).
 * Returns 1 if the proof worked (next_res filled, *nr_out set), 0 if
 * not, -1 if malloc() failed.
 */
static int merge_tail(struct cp_stream *cs, size_t keep, size_t *nr_out)
{
	size_t j, tries = 0;

	for (j = cs->res.nr; j-- > 0 && tries < 3;) {
		const struct cp_point *old = &cs->res.points[j];
		const struct lrange *lr = &cs->lr_res[j];
		size_t a = old->index, ka, i, k, nr;
		double ma, mb;

		if (!keep || a > cs->weak[keep - 1].index)
			continue;
		tries++;
		ka = weak_find(cs, keep, a);
		if (ka == keep || cs->weak[ka].index != a)
			BUG("change point %zu is not a weak one", a);
		if (merge(cs, ka + 1, cs->nweak, a, cs->n))
			return -1;
		if (lr->nr * cs->nfront > MAX_PROOF_PAIRS)
			return 0;
		for (i = 0; i < lr->nr; i++)
			for (k = 0; k < cs->nfront; k++) {
				size_t l = cs->lpool[lr->off + i];
				double p = merge_p(cs, l, a, cs->front[k], &ma,
						   &mb);

				if (!(p < cs->opt.max_pvalue) ||
				    !(magnitude(ma, mb) >
				      cs->opt.min_magnitude))
					goto next;
			}
		if (res_reserve(cs, j + 1 + cs->nweak - ka))
			return -1;
		if (j) {
			memcpy(cs->next_res, cs->res.points, j * sizeof(*old));
			memcpy(cs->lr_next, cs->lr_res, j * sizeof(*lr));
		}
		/* a: its old left side, its new right neighbour */
		fill_point(cs, &cs->next_res[j],
			   j ? cs->res.points[j - 1].index : 0, a,
			   cs->front[cs->nfront - 1], cs->weak[ka].q);
		cs->lr_next[j] = cs->lr_res[j];
		nr = j + 1;
		if (add_survivors(cs, ka + 1, cs->nweak, a, cs->n, &nr))
			return -1;
		*nr_out = nr;
		return 1;
next:
		;
	}
	return 0;
}

/* The first group boundary at or after i (n at the end). */
static size_t align_up(const struct cp_stream *cs, size_t i)
{
	while (i < cs->n && i && cs->group[i] == cs->group[i - 1])
		i++;
	return i;
}

/* The last group boundary at or before i. */
static size_t align_down(const struct cp_stream *cs, size_t i)
{
	while (i > 0 && i < cs->n && cs->group[i] == cs->group[i - 1])
		i--;
	return i;
}

/* i, or i + len moved to a group boundary after s; n if past the end */
static size_t window_edge(const struct cp_stream *cs, size_t s, size_t len)
{
	size_t e = s + len, d;

	if (e >= cs->n)
		return cs->n;
	d = align_down(cs, e);
	return d > s ? d : align_up(cs, e);
}

/* The split pass from window start s to the end of the series. */
static int split_from(struct cp_stream *cs, size_t s)
{
	struct splitter *sp = &cs->sp;
	void *tmp;

	sp->x = cs->x;
	sp->group = cs->group;
	while (s < cs->n) {
		size_t e = window_edge(cs, s, cs->window), last = 0, i, next;

		if (GROW(cs->win, cs->nwin, cs->awin))
			return -1;
		cs->win[cs->nwin].start = s;
		cs->win[cs->nwin].end = e;
		cs->win[cs->nwin++].nweak = cs->nweak;
		sp->nfound = 0;
		if (e - s >= 2 * cs->min_size &&
		    split_range(sp, s, e, cs->weak_pvalue, -1))
			return -1;
		if (sp->nfound > 1)
			qsort(sp->found, sp->nfound, sizeof(*sp->found),
			      cmp_split);
		for (i = 0; i < sp->nfound; i++) {
			/* each window's points lie past the last window's */
			if (cs->nweak &&
			    sp->found[i].index <= cs->weak[cs->nweak - 1].index)
				BUG("weak change points out of order");
			if (GROW(cs->weak, cs->nweak, cs->aweak))
				return -1;
			cs->weak[cs->nweak++] = sp->found[i];
			last = sp->found[i].index;
		}
		next = window_edge(cs, s, cs->step);
		s = next > last ? next : last;
	}
	return 0;
}

static double weak_threshold(double p)
{
	if (p < 0.05)
		return 10 * p;
	if (p < 0.5)
		return 2 * p;
	return p;
}

struct cp_stream *cp_stream_new(size_t window, const struct cp_options *opt)
{
	static const struct cp_options defaults = CP_OPTIONS_INIT;
	struct cp_stream *cs;
	size_t min_size;

	if (!opt)
		opt = &defaults;
	if (check_options(opt, &min_size) || window < 2 * min_size)
		return NULL;
	cs = calloc(1, sizeof(*cs));
	if (!cs)
		return NULL;
	cs->window = window;
	cs->step = window / 2;
	cs->opt = *opt;
	cs->min_size = min_size;
	cs->weak_pvalue = weak_threshold(opt->max_pvalue);
	cs->sp.min_size = min_size;
	cs->sp.welch = opt->welch;
	cs->pre = calloc(1, sizeof(*cs->pre));
	if (!cs->pre) {
		free(cs);
		return NULL;
	}
	return cs;
}

void cp_stream_free(struct cp_stream *cs)
{
	if (!cs)
		return;
	free(cs->x);
	free(cs->group);
	free(cs->bounds);
	free(cs->pre);
	free(cs->win);
	free(cs->weak);
	free(cs->res.points);
	free(cs->next_res);
	free(cs->lr_res);
	free(cs->lr_next);
	free(cs->lpool);
	free(cs->mh);
	free(cs->front);
	splitter_release(&cs->sp);
	free(cs->node);
	free(cs->hp.e);
	free(cs->hm.e);
	free(cs);
}

const struct cp_result *cp_stream_result(const struct cp_stream *cs)
{
	return &cs->res;
}

size_t cp_stream_len(const struct cp_stream *cs)
{
	return cs->n;
}

size_t cp_stream_nr_weak(const struct cp_stream *cs)
{
	return cs->nweak;
}

size_t cp_stream_full_merges(const struct cp_stream *cs)
{
	return cs->full_merges;
}

/* Room for n points in x, group and pre (n + 1 prefixes). */
static int stream_reserve(struct cp_stream *cs, size_t n)
{
	size_t na;
	double *x;
	size_t *g, *b;
	struct prefix *pre;

	if (n <= cs->alloc)
		return 0;
	na = n > cs->alloc * 2 + 16 ? n : cs->alloc * 2 + 16;
	x = realloc(cs->x, na * sizeof(*x));
	if (x)
		cs->x = x;
	g = realloc(cs->group, na * sizeof(*g));
	if (g)
		cs->group = g;
	b = realloc(cs->bounds, na * sizeof(*b));
	if (b)
		cs->bounds = b;
	pre = realloc(cs->pre, (na + 1) * sizeof(*pre));
	if (pre)
		cs->pre = pre;
	if (!x || !g || !b || !pre)
		return -1;
	cs->alloc = na;
	return 0;
}

int cp_stream_append(struct cp_stream *cs, const double *x,
		     const size_t *group, size_t nr)
{
	size_t n_old = cs->n, nwin_old = cs->nwin, keep, i, nres = 0;
	struct cp_point *t;
	struct lrange *lr;
	int r;

	if (cs->broken || !stats_all_finite(x, nr) ||
	    !groups_sorted(group, nr) ||
	    (group && nr && n_old && group[0] < cs->group[n_old - 1]))
		return -1;
	if (!nr)
		return 0;
	if (stream_reserve(cs, n_old + nr))
		goto broken;
	if (!n_old)
		cs->shift = x[0];
	for (i = 0; i < nr; i++) {
		size_t k = n_old + i;
		struct prefix *p = &cs->pre[k + 1];
		double v = x[i] - cs->shift;

		*p = cs->pre[k];
		neumaier_add(&p->s, &p->sc, v);
		neumaier_add(&p->q, &p->qc, v * v);
		cs->x[k] = x[i];
		if (group)
			cs->group[k] = group[i];
		else
			cs->group[k] = k ? cs->group[k - 1] + 1 : 0;
		cs->bounds[k] = k ? cs->bounds[k - 1] +
			(cs->group[k] != cs->group[k - 1]) : 0;
	}
	cs->n = n_old + nr;

	/*
	 * Windows that ended before the old end saw only points that did
	 * not change, and chose their ends and the next start from those
	 * points alone (a boundary before n_old stays one): what they found
	 * stands.  Re-run from the first window that reached the old end;
	 * the windows' ends never decrease, so those are a tail.
	 */
	while (cs->nwin && cs->win[cs->nwin - 1].end >= n_old)
		cs->nwin--;
	if (cs->nwin < nwin_old) {
		keep = cs->win[cs->nwin].nweak;
		cs->nweak = keep;
		if (split_from(cs, cs->win[cs->nwin].start))
			goto broken;
	} else {
		keep = 0;
		cs->nweak = 0;
		cs->nwin = 0;
		if (split_from(cs, 0))
			goto broken;
	}

	r = merge_tail(cs, keep, &nres);
	if (r < 0)
		goto broken;
	if (!r) {
		cs->full_merges++;
		if (merge(cs, 0, cs->nweak, 0, cs->n) ||
		    res_reserve(cs, cs->nweak) ||
		    add_survivors(cs, 0, cs->nweak, 0, cs->n, &nres))
			goto broken;
	}
	t = cs->res.points;
	cs->res.points = cs->next_res;
	cs->next_res = t;
	lr = cs->lr_res;
	cs->lr_res = cs->lr_next;
	cs->lr_next = lr;
	cs->res.nr = nres;
	if (pool_compact(cs))
		goto broken;
	return 0;
broken:
	cs->broken = 1;
	return -1;
}

int cp_detect_windowed(const double *x, const size_t *group, size_t n,
		       size_t window, const struct cp_options *opt,
		       struct cp_result *out)
{
	struct cp_stream *cs;

	out->points = NULL;
	out->nr = 0;
	if (!groups_sorted(group, n))
		return -1;
	cs = cp_stream_new(window, opt);
	if (!cs || cp_stream_append(cs, x, group, n)) {
		cp_stream_free(cs);
		return -1;
	}
	if (cs->res.nr) {
		out->points = cs->res.points;
		out->nr = cs->res.nr;
		cs->res.points = NULL;
	}
	cp_stream_free(cs);
	return 0;
}
