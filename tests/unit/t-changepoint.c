/*
 * t-changepoint.c - unit test of lib/stats/changepoint.c.  Recomputes
 * every case (cp_ediv, cp_detect, cp_detect_windowed) of the numpy/scipy
 * reference table (argv[1] is the source tree, or the table itself;
 * tests/ref/changepoint-ref.tsv), then checks planted steps, groups,
 * edge cases, an in-test brute force, and the incremental stream
 * against the windowed full recompute.
 */
#include "stats/changepoint.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test-lib.h"

#define TABLE "tests/ref/changepoint-ref.tsv"

/*
 * Q: 1e-9 relative, or 1e-9 absolute near 0 (the table's series are of
 * order 1..100, so 1e-9 absolute is far below any Q that matters).
 */
#define REL_TOL 1e-9
#define ABS_TOL 1e-9

static int near(double expect, double got)
{
	double d = fabs(got - expect);

	if (isnan(expect))
		return isnan(got);
	return d <= REL_TOL * fabs(expect) || d <= ABS_TOL;
}

static void check_near_loc(const char *file, int line, const char *what,
			   double expect, double got)
{
	if (!check_bool_loc(file, line, what, near(expect, got)))
		test_msg("expected %.17g, got %.17g", expect, got);
}

#define check_near(expect, got) \
	check_near_loc(__FILE__, __LINE__, #got, (expect), (got))

/* ---- the reference table --------------------------------------------- */

#define MAX_FIELDS 16

struct rec {
	const char *path;
	int line;
	const char *kind, *name;
	const char *key[MAX_FIELDS], *val[MAX_FIELDS];
	int nf;
};

static const char *get(const struct rec *r, const char *key)
{
	int i;

	for (i = 0; i < r->nf; i++)
		if (!strcmp(r->key[i], key))
			return r->val[i];
	test_fail_loc(r->path, r->line, "missing '%s'", key);
	return NULL;
}

/* "v,v,v" or "-" (empty) into a new malloc() array of at least 1. */
static double *parse_list(const char *s, size_t *n)
{
	size_t cap = 2, k = 0;
	const char *p;
	double *v;

	*n = 0;
	if (!s)
		return NULL;
	for (p = s; *p; p++)
		cap += *p == ',';
	v = malloc(cap * sizeof(*v));
	if (!v || !strcmp(s, "-"))
		return v;
	p = s;
	while (*p) {
		char *end;

		v[k++] = strtod(p, &end);
		if (end == p || (*end && *end != ',')) {
			free(v);
			return NULL;
		}
		p = *end ? end + 1 : end;
	}
	*n = k;
	return v;
}

/* The current series (a "series" line comes before its q and detect). */
static char cur_name[64];
static double *cur_x;
static size_t cur_n;
static size_t *cur_group;	/* NULL if the series has none */

static void do_series(const struct rec *r)
{
	const char *g = NULL;
	int i;

	free(cur_x);
	free(cur_group);
	cur_group = NULL;
	snprintf(cur_name, sizeof(cur_name), "%s", r->name);
	cur_x = parse_list(get(r, "x"), &cur_n);
	if (!cur_x)
		test_fail_loc(r->path, r->line, "bad x");
	for (i = 0; i < r->nf; i++)
		if (!strcmp(r->key[i], "group"))
			g = r->val[i];
	if (g) {
		size_t ng, j;
		double *gv = parse_list(g, &ng);

		if (!gv || ng != cur_n) {
			test_fail_loc(r->path, r->line, "bad group");
			free(gv);
			return;
		}
		cur_group = malloc(ng * sizeof(*cur_group));
		for (j = 0; j < ng; j++)
			cur_group[j] = (size_t)gv[j];
		free(gv);
	}
}

static int same_series(const struct rec *r)
{
	if (cur_x && !strcmp(cur_name, r->name))
		return 1;
	test_fail_loc(r->path, r->line, "no series '%s' before", r->name);
	return 0;
}

static void do_q(const struct rec *r)
{
	size_t n, i;
	double *q = parse_list(get(r, "q"), &n), *got;
	char what[96];

	if (!q || !same_series(r) || n != cur_n) {
		test_fail_loc(r->path, r->line, "bad q line");
		free(q);
		return;
	}
	got = malloc((n + 1) * sizeof(*got));
	check_int_loc(r->path, r->line, "cp_ediv", 0, cp_ediv(cur_x, n, got));
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s Q(%zu)", r->name, i);
		if (!check_bool_loc(r->path, r->line, what,
				    near(q[i], got[i])))
			test_msg("expected %.17g, got %.17g", q[i], got[i]);
	}
	free(got);
	free(q);
}

/* A "detect" line (cp_detect()) or a "windowed" one (cp_detect_windowed()) */
static void do_detect(const struct rec *r, int windowed)
{
	struct cp_options opt = CP_OPTIONS_INIT;
	size_t window = 0;
	struct cp_result res = CP_RESULT_INIT;
	double *idx, *q, *mb, *ma, *p;
	size_t ni, nq, nmb, nma, np, i;
	char what[96];

	if (!same_series(r))
		return;
	if (windowed) {
		window = strtoul(get(r, "window"), NULL, 10);
		opt.bonferroni = (int)strtol(get(r, "bonferroni"), NULL, 10);
	}
	opt.max_pvalue = strtod(get(r, "max_pvalue"), NULL);
	opt.min_magnitude = strtod(get(r, "min_magnitude"), NULL);
	opt.min_size = strtoul(get(r, "min_size"), NULL, 10);
	opt.welch = (int)strtol(get(r, "welch"), NULL, 10);
	idx = parse_list(get(r, "index"), &ni);
	q = parse_list(get(r, "q"), &nq);
	mb = parse_list(get(r, "mean_before"), &nmb);
	ma = parse_list(get(r, "mean_after"), &nma);
	p = parse_list(get(r, "p"), &np);
	if (!idx || !q || !mb || !ma || !p || nq != ni || nmb != ni ||
	    nma != ni || np != ni) {
		test_fail_loc(r->path, r->line, "bad detect line");
		goto out;
	}
	snprintf(what, sizeof(what), "%s %s", r->name, r->kind);
	check_int_loc(r->path, r->line, what, 0, windowed ?
		      cp_detect_windowed(cur_x, cur_group, cur_n, window, &opt,
					 &res) :
		      cp_detect(cur_x, cur_group, cur_n, &opt, &res));
	snprintf(what, sizeof(what), "%s change points", r->name);
	if (!check_int_loc(r->path, r->line, what, ni, res.nr))
		goto out;
	for (i = 0; i < ni; i++) {
		const struct cp_point *c = &res.points[i];

		snprintf(what, sizeof(what), "%s index", r->name);
		check_int_loc(r->path, r->line, what, (size_t)idx[i], c->index);
		snprintf(what, sizeof(what), "%s q/means/p", r->name);
		if (!check_bool_loc(r->path, r->line, what,
				    near(q[i], c->q) &&
				    near(mb[i], c->mean_before) &&
				    near(ma[i], c->mean_after) &&
				    near(p[i], c->pvalue)))
			test_msg("q %.17g/%.17g mean %.17g/%.17g "
				 "%.17g/%.17g p %.17g/%.17g", q[i], c->q,
				 mb[i], c->mean_before, ma[i], c->mean_after,
				 p[i], c->pvalue);
	}
out:
	cp_result_release(&res);
	free(idx);
	free(q);
	free(mb);
	free(ma);
	free(p);
}

/* Run the table; returns the number of q and detect lines, -1 if none. */
static int run_table(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[1 << 20];
	int line = 0, cases = 0;

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		struct rec r = { path, ++line, NULL, NULL, { 0 }, { 0 }, 0 };
		char *p = buf, *tab;

		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] == '#' || !buf[0])
			continue;
		r.kind = strsep(&p, "\t");
		r.name = p ? strsep(&p, "\t") : "";
		while (p && r.nf < MAX_FIELDS) {
			tab = strsep(&p, "\t");
			r.key[r.nf] = tab;
			tab = strchr(tab, '=');
			if (!tab)
				break;
			*tab = '\0';
			r.val[r.nf++] = tab + 1;
		}
		if (!strcmp(r.kind, "series")) {
			do_series(&r);
		} else if (!strcmp(r.kind, "q")) {
			do_q(&r);
			cases++;
		} else if (!strcmp(r.kind, "detect")) {
			do_detect(&r, 0);
			cases++;
		} else if (!strcmp(r.kind, "windowed")) {
			do_detect(&r, 1);
			cases++;
		} else {
			test_fail_loc(path, line, "unknown kind '%s'", r.kind);
		}
	}
	fclose(f);
	free(cur_x);
	free(cur_group);
	cur_x = NULL;
	cur_group = NULL;
	return cases;
}

/* ---- pinned cases ---------------------------------------------------- */

/* A deterministic normal(0, 1) source: xorshift64* and Box-Muller. */
static uint64_t rng_state = 88172645463325252ULL;

static double unif(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ULL) >> 11) * 0x1.0p-53 +
	       0x1.0p-54;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

/* O(n^2) Q of one split: the definition, in plain loops. */
static double q_brute(const double *x, size_t n, size_t tau)
{
	double cross = 0, l = 0, r = 0, m = (double)tau, k = (double)(n - tau);
	double e;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double d = fabs(x[i] - x[j]);

			if (j < tau)
				l += d;
			else if (i >= tau)
				r += d;
			else
				cross += d;
		}
	e = 2 * cross / (m * k);
	if (tau >= 2)
		e -= l / (m * (m - 1) / 2);
	if (n - tau >= 2)
		e -= r / (k * (k - 1) / 2);
	return m * k / (m + k) * e;
}

TEST(ediv_bruteforce)
{
	static const size_t sizes[] = { 2, 3, 4, 7, 16, 64, 301 };
	size_t s, i, n;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		double *x, *q;
		int ties;

		n = sizes[s];
		x = malloc(n * sizeof(*x));
		q = malloc(n * sizeof(*q));
		for (ties = 0; ties < 2; ties++) {
			for (i = 0; i < n; i++)
				x[i] = ties ? floor(unif() * 4) - 1 :
				       1e3 + 10 * gauss();
			check_int(0, cp_ediv(x, n, q));
			check(isnan(q[0]));
			for (i = 1; i < n; i++)
				check_near(q_brute(x, n, i), q[i]);
		}
		free(x);
		free(q);
	}
}

TEST(edge_cases)
{
	double x[8] = { 5, 5, 5, 5, 5, 5, 5, 5 }, q[8];
	struct cp_result res = CP_RESULT_INIT;
	size_t g[4] = { 0, 1, 1, 0 }, i;

	check_int(0, cp_ediv(x, 0, q));
	q[0] = 1;
	check_int(0, cp_ediv(x, 1, q));
	check(isnan(q[0]));
	x[1] = 8;
	check_int(0, cp_ediv(x, 2, q));
	check_near(3, q[1]);	/* |x0 - x1|: both within terms are 0 */
	x[1] = 5;
	check_int(0, cp_ediv(x, 8, q));
	for (i = 1; i < 8; i++)
		check_double_eq(0, q[i]);

	check_int(0, cp_detect(x, NULL, 0, NULL, &res));
	check_int(0, res.nr);
	check_int(0, cp_detect(x, NULL, 1, NULL, &res));
	check_int(0, res.nr);
	check_int(0, cp_detect(x, NULL, 2, NULL, &res));
	check_int(0, res.nr);
	check_int(0, cp_detect(x, NULL, 8, NULL, &res));
	check_int(0, res.nr);
	check(res.points == NULL);

	x[2] = NAN;
	check_int(-1, cp_ediv(x, 8, q));
	check_int(-1, cp_detect(x, NULL, 8, NULL, &res));
	x[2] = INFINITY;
	check_int(-1, cp_ediv(x, 8, q));
	x[2] = 5;
	check_int(-1, cp_detect(x, g, 4, NULL, &res));	/* decreasing */
	check_int(0, res.nr);
}

/* n points, sd 1, +step from index at; the change points found. */
static void planted(double *x, size_t n, size_t at, double step)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = 100 + gauss() + (i >= at ? step : 0);
}

/*
 * Flat series: the best split of pure noise is tested at p < 0.001, but
 * it is the best of n candidates, so a flat series sometimes gets one
 * (Otava's behaviour too); the bar is <= 5% of flat series.
 */
static size_t flat_series, flat_found;

TEST(planted_steps)
{
	static const size_t sizes[] = { 20, 50, 200, 1000, 10000 };
	struct cp_result res = CP_RESULT_INIT;
	size_t s, rep;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		double *x = malloc(n * sizeof(*x));

		for (rep = 0; rep < 5; rep++) {
			size_t at = n / 4 + rep * n / 10;

			planted(x, n, at, 5);
			check_int(0, cp_detect(x, NULL, n, NULL, &res));
			if (check_int(1, res.nr)) {
				check_int(at, res.points[0].index);
				check_int(at, res.points[0].n_before);
				check_int(n - at, res.points[0].n_after);
				check(res.points[0].pvalue < 1e-3);
				check(fabs(res.points[0].change_pct - 5) < 1);
			}
			cp_result_release(&res);

			planted(x, n, 0, 0);	/* flat */
			check_int(0, cp_detect(x, NULL, n, NULL, &res));
			flat_series++;
			flat_found += res.nr > 0;
			cp_result_release(&res);
		}
		free(x);
	}
}

TEST(two_steps_and_magnitude)
{
	struct cp_options opt = CP_OPTIONS_INIT;
	struct cp_result res = CP_RESULT_INIT;
	double x[300];
	size_t i;

	for (i = 0; i < 300; i++)
		x[i] = 100 + gauss() + (i >= 100 ? 6 : 0) - (i >= 220 ? 12 : 0);
	check_int(0, cp_detect(x, NULL, 300, &opt, &res));
	if (check_int(2, res.nr)) {
		check_int(100, res.points[0].index);
		check_int(220, res.points[1].index);
		check_int(120, res.points[1].n_before);
		check_int(80, res.points[1].n_after);
		check(res.points[0].change_pct > 0);
		check(res.points[1].change_pct < 0);
	}
	cp_result_release(&res);
	/* the 6% step, but not the -11% one, is below a 7% minimum */
	opt.min_magnitude = 0.07;
	check_int(0, cp_detect(x, NULL, 300, &opt, &res));
	if (check_int(1, res.nr))
		check_int(220, res.points[0].index);
	cp_result_release(&res);
}

TEST(groups)
{
	struct cp_result res = CP_RESULT_INIT;
	size_t n = 120, g[120], i, rep, extra = 0;
	double x[120];

	for (rep = 0; rep < 20; rep++) {
		/* 1..5 runs per commit; the step mid-commit at point 50 */
		size_t commit = 0, left = 0;

		for (i = 0; i < n; i++) {
			if (!left) {
				commit++;
				left = 1 + (size_t)(unif() * 5);
			}
			left--;
			g[i] = commit;
			x[i] = gauss() + (i >= 50 ? 5 : 0);
		}
		check_int(0, cp_detect(x, g, n, NULL, &res));
		check(res.nr >= 1);
		extra += res.nr > 1;
		for (i = 0; i < res.nr; i++) {
			size_t at = res.points[i].index;

			check(g[at - 1] != g[at]);
			/* the change next to point 50: its commit's boundary */
			if (at < 40 || at > 60)
				continue;
			if (g[49] != g[50])
				check_int(50, at);
			else
				check(g[at] == g[50] + 1 || g[at - 1] ==
				      g[50] - 1);
		}
		cp_result_release(&res);
	}
	check(extra <= 2);	/* false positives, as on flat series */
	/* a single group: no split is allowed */
	for (i = 0; i < n; i++)
		g[i] = 7;
	check_int(0, cp_detect(x, g, n, NULL, &res));
	check_int(0, res.nr);
}

/* ---- windowed mode and the incremental stream ------------------------ */

/*
 * n points of commits of 1..max_runs runs (max_runs 1: no groups), sd 1,
 * a step of +-step at `steps` commits spread evenly; the first point of
 * each stepped commit to at[] (room for steps entries).  Returns the
 * number of steps planted.
 */
static size_t grouped(double *x, size_t *g, size_t n, size_t max_runs,
		      size_t steps, double step, size_t *at)
{
	size_t i, commit = 0, left = 0, k = 0;
	double level = 100;

	for (i = 0; i < n; i++) {
		if (!left) {
			commit++;
			left = 1 + (size_t)(unif() * (double)max_runs);
			if (k < steps && i >= (k + 1) * n / (steps + 1)) {
				level += unif() < 0.5 ? step : -step;
				at[k++] = i;
			}
		}
		left--;
		g[i] = commit;
		x[i] = level + gauss();
	}
	return k;
}

TEST(windowed_steps)
{
	struct cp_result res = CP_RESULT_INIT;
	size_t n = 3000, at[10], i, k, rep, right = 0, planted = 0, found = 0;
	size_t flat_any = 0;
	double *x = malloc(n * sizeof(*x));
	size_t *g = malloc(n * sizeof(*g));

	for (rep = 0; rep < 10; rep++) {
		planted += k = grouped(x, g, n, 5, 9, 4, at);
		check_int(0, cp_detect_windowed(x, g, n, 50, NULL, &res));
		found += res.nr;
		for (i = 0; i < res.nr; i++) {
			size_t j, idx = res.points[i].index;

			/* between commits */
			check(g[idx - 1] != g[idx]);
			for (j = 0; j < k; j++)
				right += at[j] == idx;
		}
		cp_result_release(&res);
		grouped(x, g, n, 5, 0, 0, at);
		check_int(0, cp_detect_windowed(x, g, n, 50, NULL, &res));
		flat_any += res.nr > 0;
		cp_result_release(&res);
	}
	/*
	 * 4 sd steps among 1..5 runs a commit: all but one or two at their
	 * commit (a step at a commit of one run can lose it to the noise
	 * of the next commit, and be found there)
	 */
	check(right * 100 >= planted * 97);
	check(found >= right && found <= planted + 2);
	check(flat_any <= 1);

	/* a 6% and a -11% step: min_magnitude drops the first one */
	for (i = 0; i < 300; i++)
		x[i] = 100 + gauss() + (i >= 100 ? 6 : 0) - (i >= 220 ? 12 : 0);
	check_int(0, cp_detect_windowed(x, NULL, 300, 50, NULL, &res));
	if (check_int(2, res.nr)) {
		struct cp_result d = CP_RESULT_INIT;

		check_int(100, res.points[0].index);
		check_int(220, res.points[1].index);
		check_int(120, res.points[1].n_before);
		check_int(80, res.points[1].n_after);
		/* the same segments as cp_detect(): the same numbers */
		check_int(0, cp_detect(x, NULL, 300, NULL, &d));
		if (check_int(2, d.nr))
			for (i = 0; i < 2; i++) {
				const struct cp_point *a = &res.points[i];
				const struct cp_point *b = &d.points[i];

				check_near(b->mean_before, a->mean_before);
				check_near(b->mean_after, a->mean_after);
				check_near(b->change_pct, a->change_pct);
				check_near(b->magnitude, a->magnitude);
				check_double_near(b->pvalue, a->pvalue, 1e-6);
			}
		cp_result_release(&d);
	}
	cp_result_release(&res);
	{
		struct cp_options opt = CP_OPTIONS_INIT;

		opt.min_magnitude = 0.07;
		check_int(0, cp_detect_windowed(x, NULL, 300, 50, &opt, &res));
		if (check_int(1, res.nr))
			check_int(220, res.points[0].index);
		cp_result_release(&res);
	}

	/* bad input */
	check_int(-1, cp_detect_windowed(x, NULL, 300, 5, NULL, &res));
	check(cp_stream_new(5, NULL) == NULL);
	x[7] = NAN;
	check_int(-1, cp_detect_windowed(x, NULL, 300, 50, NULL, &res));
	check_int(0, res.nr);
	free(x);
	free(g);
}

/* Every field the same, to the bit (NAN equal to NAN). */
static int same_bits(double a, double b)
{
	return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof(a));
}

static int same_result(const struct cp_result *a, const struct cp_result *b)
{
	size_t i;

	if (a->nr != b->nr)
		return 0;
	for (i = 0; i < a->nr; i++) {
		const struct cp_point *p = &a->points[i], *q = &b->points[i];

		if (p->index != q->index || p->n_before != q->n_before ||
		    p->n_after != q->n_after ||
		    !same_bits(p->mean_before, q->mean_before) ||
		    !same_bits(p->mean_after, q->mean_after) ||
		    !same_bits(p->change_pct, q->change_pct) ||
		    !same_bits(p->magnitude, q->magnitude) ||
		    !same_bits(p->pvalue, q->pvalue) || !same_bits(p->q, q->q))
			return 0;
	}
	return 1;
}

/*
 * Feed x[0..n) to a stream in batches (batch 0: random sizes 1..40),
 * and after each compare with the windowed full recompute of the prefix
 * (every `every` points, and at the end).  Returns the number of
 * mismatches; *full gets the stream's full merges.
 */
static size_t feed(const double *x, const size_t *g, size_t n,
		   size_t window, const struct cp_options *opt, size_t batch,
		   size_t every, size_t *full, size_t *cps)
{
	struct cp_stream *cs = cp_stream_new(window, opt);
	size_t i = 0, bad = 0, last = 0;

	while (i < n) {
		size_t b = batch ? batch : 1 + (size_t)(unif() * 40);

		if (b > n - i)
			b = n - i;
		if (!check_int(0, cp_stream_append(cs, x + i, g ? g + i : NULL,
						   b)))
			break;
		i += b;
		if (i - last >= every || i == n) {
			struct cp_result r = CP_RESULT_INIT;

			last = i;
			check_int(0, cp_detect_windowed(x, g, i, window, opt,
							&r));
			if (!same_result(&r, cp_stream_result(cs))) {
				if (!bad)
					test_msg("first mismatch at %zu "
						 "points: %zu vs %zu change "
						 "points", i, r.nr,
						 cp_stream_result(cs)->nr);
				bad++;
			}
			cp_result_release(&r);
		}
	}
	check_int(n, cp_stream_len(cs));
	*full = cp_stream_full_merges(cs);
	*cps = cp_stream_result(cs)->nr;
	cp_stream_free(cs);
	return bad;
}

/*
 * A series long enough (CP_PARALLEL_MIN) that cp_detect() splits the
 * two sides of its first split on two threads: the same points, bit for
 * bit, as on one (PERFSIFT_THREADS=1).
 */
TEST(threads_equal_one)
{
	size_t n = 200000, i, k;
	double *x = malloc(n * sizeof(*x));
	struct cp_result two = CP_RESULT_INIT, one = CP_RESULT_INIT;

	rng_state = 20261201;
	for (i = 0; i < n; i++)
		x[i] = 100 + 3 * (double)((i * 31 / n) % 4) + gauss();
	unsetenv("PERFSIFT_THREADS");
	check_int(0, cp_detect(x, NULL, n, NULL, &two));
	setenv("PERFSIFT_THREADS", "1", 1);
	check_int(0, cp_detect(x, NULL, n, NULL, &one));
	unsetenv("PERFSIFT_THREADS");
	check(two.nr >= 20);
	if (check_int(one.nr, two.nr))
		for (k = 0; k < one.nr; k++)
			check(!memcmp(&one.points[k], &two.points[k],
				      sizeof(one.points[k])));
	cp_result_release(&one);
	cp_result_release(&two);
	free(x);
}

TEST(stream_equals_full)
{
	static const size_t runs[] = { 1, 3, 5 };
	struct cp_options opt = CP_OPTIONS_INIT;
	size_t n = 700, at[20], s, v, full, cps, appends = 0, fulls = 0;
	double *x = malloc(n * sizeof(*x));
	size_t *g = malloc(n * sizeof(*g));

	for (s = 0; s < 4; s++) {
		grouped(x, g, n, runs[s % 3], 6, s < 2 ? 3 : 1.2, at);
		for (v = 0; v < 5; v++) {
			/* plain, Otava's, Welch, a magnitude, window 30 */
			size_t w = v == 4 ? 30 : 50;

			opt.bonferroni = v != 1;
			opt.welch = v == 2;
			opt.min_magnitude = v == 3 ? 0.012 : 0;
			/* point by point, every 4th point compared */
			check_int(0, feed(x, g, n, w, &opt, 1, 4, &full, &cps));
			appends += n;
			fulls += full;
			/* random batches; a batch may end inside a commit */
			check_int(0, feed(x, g, n, w, &opt, 0, 40, &full,
					  &cps));
		}
		/* no groups at all */
		opt = (struct cp_options)CP_OPTIONS_INIT;
		check_int(0, feed(x, NULL, n, 50, &opt, 1, 4, &full, &cps));
	}
	/* most appends proved a barrier and merged only the tail */
	printf("# %zu of %zu point-by-point appends merged everything\n",
	       fulls, appends);
	check(fulls * 4 < appends);

	/* groups must not decrease, values be finite: nothing changes */
	{
		struct cp_stream *cs = cp_stream_new(50, NULL);
		size_t gg[3] = { 5, 4, 6 }, g2[2] = { 6, 5 };
		double xx[2] = { 1, 2 };

		check_int(0, cp_stream_append(cs, xx, gg, 1));
		check_int(-1, cp_stream_append(cs, xx + 1, gg + 1, 1));
		check_int(-1, cp_stream_append(cs, xx, g2, 2));
		xx[1] = INFINITY;
		check_int(-1, cp_stream_append(cs, xx + 1, gg, 1));
		check_int(1, cp_stream_len(cs));
		check_int(0, cp_stream_append(cs, xx, NULL, 0));
		cp_stream_free(cs);
		cp_stream_free(NULL);
	}
	free(x);
	free(g);
}

/* A long series: the tail appended point by point, few comparisons. */
TEST(stream_long)
{
	size_t n = 60000, at[200], full, cps;
	double *x = malloc(n * sizeof(*x));
	size_t *g = malloc(n * sizeof(*g));
	size_t planted = grouped(x, g, n, 5, 150, 3, at);

	check_int(0, feed(x, g, n, 50, NULL, 0, 7001, &full, &cps));
	check(full < 40);	/* while no change point is found yet */
	check(cps >= planted * 9 / 10 && cps <= planted * 11 / 10);
	free(x);
	free(g);
}

int main(int argc, char **argv)
{
	char path[4096];
	struct stat st;
	int cases;

	snprintf(path, sizeof(path), "%s", argc > 1 ? argv[1] : TABLE);
	if (argc > 1 && !stat(argv[1], &st) && S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "%s/%s", argv[1], TABLE);
	cases = run_table(path);
	if (cases < 0)
		test_fail("%s: cannot read the table", path);
	else if (cases < 30)
		test_fail("%s: only %d cases", path, cases);
	test_ediv_bruteforce();
	test_edge_cases();
	test_planted_steps();
	for (cases = 0; cases < 75; cases++) {
		double x[200];
		struct cp_result res = CP_RESULT_INIT;

		planted(x, 200, 0, 0);
		check_int(0, cp_detect(x, NULL, 200, NULL, &res));
		flat_series++;
		flat_found += res.nr > 0;
		cp_result_release(&res);
	}
	printf("# %zu of %zu flat series with a change point\n", flat_found,
	       flat_series);
	check(flat_found * 20 <= flat_series);
	test_two_steps_and_magnitude();
	test_groups();
	test_windowed_steps();
	test_stream_equals_full();
	test_stream_long();
	test_threads_equal_one();
	return test_done();
}
