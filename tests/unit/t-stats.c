/*
 * t-stats.c - unit test of lib/stats.c.  Recomputes every case of the
 * scipy reference table given as argv[1] (tests/ref/stats-ref.tsv), then
 * checks pinned data sets with known answers and a brute-force oracle for
 * exact Mann-Whitney p-values.  Prints "N passed, N failed".
 */
#include "stats/ebayes.h"
#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TABLE "tests/ref/stats-ref.tsv"

/*
 * Tolerances.  Relative 1e-9 everywhere (SPEC §7).  Where the expected
 * value is exactly 0, relative error is meaningless and |got| <= ZERO_ABS
 * is accepted instead; nowhere else is there an absolute floor.  Exact
 * Mann-Whitney p-values are ratios of integers: 1e-12 against scipy's
 * float sums, and bit-equal to the table's exact fraction p_num/p_den.
 */
#define REL_TOL		1e-9
#define REL_EXACT	1e-12
#define ZERO_ABS	1e-15

/* check_double_near() and check_double_eq() take the floor above */
#define TEST_ZERO_ABS	ZERO_ABS
#include "test-lib.h"

/* ---- the reference table --------------------------------------------- */

#define MAX_FIELDS 32

struct field {
	const char *key;
	const char *val;
};

/* One table line, split in place; all pointers point into the line. */
struct rec {
	const char *path;
	int line;
	const char *kind;
	struct field f[MAX_FIELDS];
	int nf;
};

struct vec {
	char name[16];
	double *v;	/* owned, malloc() */
	size_t n;
};

static struct vec *vecs;	/* owned; the data lines */
static size_t nvecs, allocvecs;

static void bad_table(const struct rec *r, const char *why, const char *key)
{
	test_fail_loc(r->path, r->line, "bad table line: %s '%s'", why, key);
}

static const char *get(const struct rec *r, const char *key)
{
	int i;

	for (i = 0; i < r->nf; i++)
		if (!strcmp(r->f[i].key, key))
			return r->f[i].val;
	return NULL;
}

static double get_num(const struct rec *r, const char *key)
{
	const char *s = get(r, key);
	char *end;
	double v;

	if (!s) {
		bad_table(r, "missing", key);
		return NAN;
	}
	v = strtod(s, &end);
	if (end == s || *end) {
		bad_table(r, "not a number", key);
		return NAN;
	}
	return v;
}

/* Parse "v,v,v" into a new malloc() array; NULL on error. */
static double *parse_list(const char *s, size_t *n)
{
	size_t cap = 1, k = 0;
	const char *p;
	double *v;

	for (p = s; *p; p++)
		cap += *p == ',';
	v = malloc(cap * sizeof(*v));
	if (!v)
		return NULL;
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

/* Vector for key: "@name" (a data line) or an inline list.  Caller frees. */
static double *get_vec(const struct rec *r, const char *key, size_t *n)
{
	const char *s = get(r, key);
	size_t i;

	if (!s) {
		bad_table(r, "missing", key);
		return NULL;
	}
	if (*s != '@') {
		double *v = parse_list(s, n);

		if (!v)
			bad_table(r, "bad list", key);
		return v;
	}
	for (i = 0; i < nvecs; i++) {
		if (!strcmp(vecs[i].name, s + 1)) {
			double *v = malloc((vecs[i].n + 1) * sizeof(*v));

			if (!v)
				return NULL;
			memcpy(v, vecs[i].v, vecs[i].n * sizeof(*v));
			*n = vecs[i].n;
			return v;
		}
	}
	bad_table(r, "unknown data", s);
	return NULL;
}

/* Compare a computed value with the table's key, reporting table:line. */
static void tcheck(const struct rec *r, const char *key, double got,
		   double rel)
{
	char what[64];

	snprintf(what, sizeof(what), "%s %s", r->kind, key);
	check_double_loc(r->path, r->line, what, get_num(r, key), got, rel,
			 ZERO_ABS);
}

static void tcheck_ret(const struct rec *r, int got)
{
	char what[64];

	snprintf(what, sizeof(what), "%s return", r->kind);
	check_int_loc(r->path, r->line, what, (long)get_num(r, "ret"), got);
}

static int add_data(char *line)
{
	char *name = line + 5, *vals = strchr(name, '\t');
	struct vec *d;

	if (!vals)
		return -1;
	*vals++ = '\0';
	if (nvecs == allocvecs) {
		allocvecs = allocvecs * 2 + 16;
		vecs = realloc(vecs, allocvecs * sizeof(*vecs));
		if (!vecs)
			return -1;
	}
	d = &vecs[nvecs];
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->v = parse_list(vals, &d->n);
	if (!d->v)
		return -1;
	nvecs++;
	return 0;
}

static void do_summary(const struct rec *r)
{
	struct stats_summary s;
	size_t n;
	double *x = get_vec(r, "x", &n);

	if (!x)
		return;
	check_int_loc(r->path, r->line, "summary return", 0,
		      stats_summarize(x, n, &s));
	check_int_loc(r->path, r->line, "summary n", (long)get_num(r, "n"),
		      (long)s.n);
	tcheck(r, "mean", s.mean, REL_TOL);
	tcheck(r, "hmean", s.hmean, REL_TOL);
	tcheck(r, "gmean", s.gmean, REL_TOL);
	tcheck(r, "median", s.median, REL_TOL);
	tcheck(r, "q1", s.q1, REL_TOL);
	tcheck(r, "q3", s.q3, REL_TOL);
	tcheck(r, "min", s.min, 0);
	tcheck(r, "max", s.max, 0);
	tcheck(r, "sd_sample", s.sd_sample, REL_TOL);
	tcheck(r, "sd_pop", s.sd_pop, REL_TOL);
	tcheck(r, "cv_pct", s.cv_pct, REL_TOL);
	tcheck(r, "sem", s.sem, REL_TOL);
	/* the standalone helpers agree with the summary */
	tcheck(r, "mean", stats_mean(x, n), REL_TOL);
	tcheck(r, "sd_sample", stats_sd_sample(x, n), REL_TOL);
	free(x);
}

static void do_quantile(const struct rec *r)
{
	size_t n;
	double *x = get_vec(r, "x", &n);

	if (!x)
		return;
	tcheck(r, "expect", stats_quantile_sorted(x, n, get_num(r, "p")),
	       REL_TOL);
	free(x);
}

static void do_welch(const struct rec *r)
{
	struct stats_test t;
	size_t na, nb;
	double *a = get_vec(r, "a", &na), *b = get_vec(r, "b", &nb);

	if (a && b) {
		tcheck_ret(r, stats_welch(a, na, b, nb, &t));
		tcheck(r, "t", t.stat, REL_TOL);
		tcheck(r, "df", t.df, REL_TOL);
		tcheck(r, "p", t.p, REL_TOL);
	}
	free(a);
	free(b);
}

static void do_welch_summary(const struct rec *r)
{
	struct stats_test t;

	check_int_loc(r->path, r->line, "welch_summary return", 0,
		      stats_welch_summary(get_num(r, "ma"), get_num(r, "sa"),
					  get_num(r, "na"), get_num(r, "mb"),
					  get_num(r, "sb"), get_num(r, "nb"),
					  &t));
	tcheck(r, "t", t.stat, REL_TOL);
	tcheck(r, "df", t.df, REL_TOL);
	tcheck(r, "p", t.p, REL_TOL);
}

/*
 * The same test in two steps (compare's digest): the same U, and the p
 * counted later is stats_mwu()'s bit for bit.
 */
static void check_mwu_deferred(const struct rec *r, const double *a,
			       size_t na, const double *b, size_t nb,
			       const struct stats_test *whole)
{
	struct stats_test t;
	int rc = stats_mwu_deferred(a, na, b, nb, &t);
	double p = rc == 1 ? stats_mwu_p_untied(na, nb, t.stat) : t.p;

	check_int_loc(r->path, r->line, "mwu deferred return",
		      rc == 1 ? 1 : 0, rc);
	check_double_loc(r->path, r->line, "mwu deferred u", whole->stat,
			 t.stat, 0, 0);
	check_double_loc(r->path, r->line, "mwu deferred p", whole->p, p, 0,
			 0);
	if (rc == 1)
		check_int_loc(r->path, r->line, "mwu deferred: exact", 1,
			      whole->exact);
}

static void do_mwu(const struct rec *r)
{
	struct stats_test t;
	size_t na, nb;
	double *a = get_vec(r, "a", &na), *b = get_vec(r, "b", &nb);
	const char *method = get(r, "method");
	int exact = method && !strcmp(method, "exact");

	if (a && b) {
		check_int_loc(r->path, r->line, "mwu return", 0,
			      stats_mwu(a, na, b, nb, &t));
		check_int_loc(r->path, r->line, "mwu exact", exact, t.exact);
		tcheck(r, "u", t.stat, 0);
		tcheck(r, "p", t.p, exact ? REL_EXACT : REL_TOL);
		if (get(r, "p_num")) {
			double q = get_num(r, "p_num") / get_num(r, "p_den");

			check_double_loc(r->path, r->line,
					 "mwu p == p_num/p_den", q, t.p, 0,
					 ZERO_ABS);
		}
		check_mwu_deferred(r, a, na, b, nb, &t);
	}
	free(a);
	free(b);
}

static void do_hl(const struct rec *r)
{
	size_t na, nb;
	double *a = get_vec(r, "a", &na), *b = get_vec(r, "b", &nb);

	if (a && b)
		tcheck(r, "expect", stats_hodges_lehmann(a, na, b, nb),
		       REL_TOL);
	free(a);
	free(b);
}

static void do_ci(const struct rec *r)
{
	struct stats_tq tq;
	double lo, hi;
	int ret = stats_change_ci(get_num(r, "ma"), get_num(r, "sa"),
				  get_num(r, "na"), get_num(r, "mb"),
				  get_num(r, "sb"), get_num(r, "nb"),
				  get_num(r, "conf"), &lo, &hi);

	tcheck_ret(r, ret);
	tcheck(r, "lo", lo, REL_TOL);
	tcheck(r, "hi", hi, REL_TOL);

	/* the same through a table of the quantile (compare's way) */
	stats_tq_init(&tq, get_num(r, "conf"));
	ret = stats_change_ci_tq(&tq, get_num(r, "ma"), get_num(r, "sa"),
				 get_num(r, "na"), get_num(r, "mb"),
				 get_num(r, "sb"), get_num(r, "nb"), &lo, &hi);
	tcheck_ret(r, ret);
	tcheck(r, "lo", lo, REL_TOL);
	tcheck(r, "hi", hi, REL_TOL);
}

static void do_mmtests(const struct rec *r)
{
	size_t n;
	double *x = get_vec(r, "x", &n);
	double pct = get_num(r, "pct");
	int hib = (int)get_num(r, "hib");

	if (!x)
		return;
	tcheck(r, "bamean", stats_mmtests_best_mean(x, n, pct, hib, 0),
	       REL_TOL);
	tcheck(r, "bhmean", stats_mmtests_best_mean(x, n, pct, hib, 1),
	       REL_TOL);
	tcheck(r, "pctile", stats_mmtests_pctile(x, n, pct, hib), 0);
	free(x);
}

static void do_hstddev(const struct rec *r)
{
	size_t n;
	double *x = get_vec(r, "x", &n);

	if (!x)
		return;
	tcheck(r, "expect", stats_mmtests_hstddev(x, n), REL_TOL);
	free(x);
}

static void do_bh(const struct rec *r)
{
	size_t n, nq, i;
	double *p = get_vec(r, "p", &n), *q = get_vec(r, "q", &nq), *got;

	if (!p || !q || n != nq) {
		bad_table(r, "p/q", "bh");
		goto out;
	}
	got = malloc((n + 1) * sizeof(*got));
	if (!got)
		goto out;
	check_int_loc(r->path, r->line, "bh return", 0, stats_bh(p, n, got));
	for (i = 0; i < n; i++)
		check_double_loc(r->path, r->line, "bh q", q[i], got[i],
				 REL_TOL, ZERO_ABS);
	free(got);
out:
	free(p);
	free(q);
}

static void do_special(const struct rec *r)
{
	const char *k = r->kind;
	double got;

	if (!strcmp(k, "betainc"))
		got = stats_betainc(get_num(r, "a"), get_num(r, "b"),
				    get_num(r, "x"));
	else if (!strcmp(k, "t_sf"))
		got = stats_t_sf(get_num(r, "t"), get_num(r, "df"));
	else if (!strcmp(k, "t_ppf"))
		got = stats_t_ppf(get_num(r, "p"), get_num(r, "df"));
	else if (!strcmp(k, "norm_sf"))
		got = stats_norm_sf(get_num(r, "z"));
	else if (!strcmp(k, "norm_ppf"))
		got = stats_norm_ppf(get_num(r, "p"));
	else
		got = stats_mwu_min_p((size_t)get_num(r, "na"),
				      (size_t)get_num(r, "nb"));
	tcheck(r, "expect", got, REL_TOL);
}

static void do_digamma(const struct rec *r)
{
	tcheck(r, "psi", stats_digamma(get_num(r, "x")), REL_TOL);
}

/* The prior fitted to the record's s2 and d, d0 at most its cap. */
static void do_prior(const struct rec *r)
{
	size_t n, nd;
	double *s2 = get_vec(r, "s2", &n), *d = get_vec(r, "d", &nd);
	struct stats_prior pr;

	if (!s2 || !d || n != nd) {
		bad_table(r, "bad lists", "s2/d");
	} else if (stats_fit_prior(s2, d, n, get_num(r, "cap"), &pr)) {
		test_fail_loc(r->path, r->line, "stats_fit_prior failed");
	} else {
		tcheck(r, "d0", pr.d0, REL_TOL);
		tcheck(r, "s02", pr.s02, REL_TOL);
	}
	free(s2);
	free(d);
}

static void do_moderated_t(const struct rec *r)
{
	struct stats_prior pr = { get_num(r, "d0"), get_num(r, "s02") };

	tcheck(r, "p", stats_moderated_t(get_num(r, "diff"), get_num(r, "s2"),
					 get_num(r, "d"), get_num(r, "scale"),
					 &pr, NULL), REL_TOL);
}

static const struct {
	const char *kind;
	void (*fn)(const struct rec *r);
} handlers[] = {
	{ "digamma", do_digamma },
	{ "prior", do_prior },
	{ "moderated_t", do_moderated_t },
	{ "summary", do_summary },
	{ "quantile", do_quantile },
	{ "welch", do_welch },
	{ "welch_summary", do_welch_summary },
	{ "mwu", do_mwu },
	{ "hl", do_hl },
	{ "ci", do_ci },
	{ "mmtests", do_mmtests },
	{ "hstddev", do_hstddev },
	{ "bh", do_bh },
	{ "betainc", do_special },
	{ "t_sf", do_special },
	{ "t_ppf", do_special },
	{ "norm_sf", do_special },
	{ "norm_ppf", do_special },
	{ "mwu_min_p", do_special },
};

/* Split line at tabs into r; fields after the kind are key=value. */
static int split(char *line, struct rec *r)
{
	char *tab = strchr(line, '\t');

	r->nf = 0;
	r->kind = line;
	if (tab)
		*tab = '\0';
	while (tab) {
		char *field = tab + 1, *eq;

		tab = strchr(field, '\t');
		if (tab)
			*tab = '\0';
		eq = strchr(field, '=');
		if (!eq || r->nf == MAX_FIELDS)
			return -1;
		*eq = '\0';
		r->f[r->nf].key = field;
		r->f[r->nf].val = eq + 1;
		r->nf++;
	}
	return 0;
}

static int run_table(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, cases = 0;

	if (!fp) {
		perror(path);
		return -1;
	}
	while ((len = getline(&line, &cap, fp)) >= 0) {
		struct rec r;
		size_t i;

		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		if (!strncmp(line, "data\t", 5)) {
			if (add_data(line))
				test_fail_loc(path, lineno, "bad data line");
			continue;
		}
		r.path = path;
		r.line = lineno;
		if (split(line, &r)) {
			test_fail_loc(path, lineno, "bad line");
			continue;
		}
		for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
			if (!strcmp(handlers[i].kind, r.kind))
				break;
		if (i == sizeof(handlers) / sizeof(handlers[0])) {
			test_fail_loc(path, lineno, "unknown kind '%s'",
				      r.kind);
			continue;
		}
		handlers[i].fn(&r);
		cases++;
	}
	free(line);
	fclose(fp);
	return cases;
}

/* ---- pinned data sets with known answers -------------------------------- */

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

TEST(summary_pinned)
{
	/* the textbook set: mean 5, population sd exactly 2 */
	static const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	static const double one[] = { 42 };
	struct stats_summary s;
	double nan_in[] = { 1, NAN, 3 };

	check_int(0, stats_summarize(x, ARRAY_SIZE(x), &s));
	check_int(8, s.n);
	check_double_eq(5, s.mean);
	check_double_eq(2, s.sd_pop);
	/* sqrt(32/7) */
	check_double_near(2.138089935299395, s.sd_sample, 1e-15);
	check_double_near(2.138089935299395 / sqrt(8), s.sem, 1e-15);
	check_double_near(100 * 2.138089935299395 / 5, s.cv_pct, 1e-15);
	check_double_eq(4.5, s.median);
	check_double_eq(4, s.q1);	/* h = 1.75 between 4 and 4 */
	check_double_eq(5.5, s.q3);	/* h = 5.25: 5 + 0.25 * 2 */
	/* 8 / sum(1/x) */
	check_double_near(4.2017507294706125, s.hmean, 1e-15);
	check_double_near(4.603215596046737, s.gmean, 1e-15);
	check_double_eq(2, s.min);
	check_double_eq(9, s.max);

	check_int(0, stats_summarize(one, 1, &s));
	check_double_eq(42, s.mean);
	check_double_eq(0, s.sd_pop);
	check_double_near(NAN, s.sd_sample, 0);
	check_double_near(NAN, s.sem, 0);
	check_double_near(NAN, s.cv_pct, 0);
	check_double_eq(42, s.median);

	check_int(-1, stats_summarize(x, 0, &s));
	check_int(-1, stats_summarize(nan_in, 3, &s));
	check_double_near(NAN, stats_mean(x, 0), 0);
	check_double_near(NAN, stats_sd_sample(x, 1), 0);

	/* two-pass accuracy: a naive sum of squares loses everything here */
	{
		static const double big[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13,
					      1e9 + 16 };

		check_double_eq(1e9 + 10, stats_mean(big, 4));
		check_double_eq(sqrt(30), stats_sd_sample(big, 4));
	}
}

TEST(quantile_pinned)
{
	static const double x[] = { 1, 2, 3, 4 };

	check_double_eq(2.5, stats_quantile_sorted(x, 4, 0.5));
	check_double_eq(1.75, stats_quantile_sorted(x, 4, 0.25));
	check_double_eq(1, stats_quantile_sorted(x, 4, 0));
	check_double_eq(4, stats_quantile_sorted(x, 4, 1));
	check_double_near(2, stats_quantile_sorted(x, 4, 1.0 / 3), 1e-15);
	check_double_near(NAN, stats_quantile_sorted(x, 4, 1.5), 0);
	check_double_near(NAN, stats_quantile_sorted(x, 0, 0.5), 0);
}

TEST(mmtests_pinned)
{
	static const double x[] = { 50, 10, 100, 30, 70, 20, 90, 40, 80, 60 };
	static const double h[] = { 1, 2, 4 };
	static const double neg[] = { 1, -2, 4 };

	/* BAmean.50, higher is better: mean of 100 90 80 70 60 */
	check_double_eq(80, stats_mmtests_best_mean(x, 10, 50, 1, 0));
	check_double_eq(30, stats_mmtests_best_mean(x, 10, 50, 0, 0));
	check_double_near(77.44314689612784,
			  stats_mmtests_best_mean(x, 10, 50, 1, 1), 1e-15);
	/* Pctile.95: k = int(9.5) = 9, the 9th best */
	check_double_eq(20, stats_mmtests_pctile(x, 10, 95, 1));
	check_double_eq(90, stats_mmtests_pctile(x, 10, 95, 0));
	/* at least one value; never more than n */
	check_double_eq(100, stats_mmtests_best_mean(x, 10, 1, 1, 0));
	check_double_eq(55, stats_mmtests_best_mean(x, 10, 150, 1, 0));
	check_double_eq(10, stats_mmtests_pctile(x, 10, 100, 1));
	/* HStddev of {1,2,4}: sqrt(288/343) */
	check_double_near(0.916324257985455, stats_mmtests_hstddev(h, 3),
			  1e-15);
	check_double_near(NAN, stats_mmtests_hstddev(neg, 3), 0);
	check_double_eq(0, stats_mmtests_hstddev(h, 1));
	check_double_near(NAN, stats_mmtests_best_mean(neg, 3, 100, 1, 1), 0);
}

TEST(special_pinned)
{
	double x;
	int i;

	/* closed forms of Student t: df = 1 (Cauchy) and df = 2 */
	check_double_near(0.25, stats_t_sf(1, 1), 1e-15);
	check_double_near(0.5 - atan(7.5) / M_PI, stats_t_sf(7.5, 1), 1e-13);
	check_double_near(0.5 - 2 / (2 * sqrt(6)), stats_t_sf(2, 2), 1e-14);
	check_double_near(tan(M_PI * 0.475), stats_t_ppf(0.975, 1), 1e-13);
	check_double_near(0.95 / sqrt(2 * 0.975 * 0.025),
			  stats_t_ppf(0.975, 2), 1e-14);
	check_double_near(-0.95 / sqrt(2 * 0.975 * 0.025),
			  stats_t_ppf(0.025, 2), 1e-14);
	/* t(0.975, 4) and 2 P(T8 > 2) to 30 digits (mpmath) */
	check_double_near(2.7764451051977944, stats_t_ppf(0.975, 4), 1e-15);
	check_double_near(0.08051623795726267, 2 * stats_t_sf(2, 8), 1e-14);
	check_double_eq(0, stats_t_ppf(0.5, 7));
	check_double_eq(0.5, stats_t_sf(0, 3));
	check_double_near(-INFINITY, stats_t_ppf(0, 3), 0);
	check_double_near(INFINITY, stats_t_ppf(1, 3), 0);
	check_double_near(NAN, stats_t_ppf(1.5, 3), 0);
	check_double_near(NAN, stats_t_sf(1, -1), 0);
	check_double_near(NAN, stats_t_sf(NAN, 3), 0);
	check_double_near(stats_norm_sf(1.5), stats_t_sf(1.5, INFINITY), 0);
	/* ppf and sf are inverses, across the range */
	for (i = 1; i < 40; i++) {
		double df = 0.3 * i * i, p = pow(10, -i / 2.0);

		x = stats_t_ppf(p, df);
		/* P(T <= x) = P(T > -x); the sf is ~df times more sensitive */
		check_double_near(p, stats_t_sf(-x, df), 1e-13 * (1 + df));
	}

	/* incomplete beta closed forms */
	check_double_near(0.3, stats_betainc(1, 1, 0.3), 1e-15);
	check_double_near(pow(0.3, 4.5), stats_betainc(4.5, 1, 0.3), 1e-14);
	check_double_near(1 - pow(0.7, 3.25), stats_betainc(1, 3.25, 0.3),
			  1e-14);
	check_double_near(2 / M_PI * asin(sqrt(0.2)),
			  stats_betainc(0.5, 0.5, 0.2), 1e-14);
	check_double_eq(0, stats_betainc(2, 3, 0));
	check_double_eq(1, stats_betainc(2, 3, 1));
	check_double_near(NAN, stats_betainc(0, 3, 0.5), 0);
	check_double_near(NAN, stats_betainc(2, 3, 1.5), 0);

	/*
	 * Near p = 1/2 the quantile is (p - 1/2) / pdf(0) to double
	 * precision: pdf(0) = 2 / (pi sqrt 3) for df = 3, 1/sqrt(2 pi) for
	 * the normal.  Relative accuracy must hold there too.
	 */
	x = ldexp(1, -40);
	check_double_near(x * M_PI * sqrt(3) / 2, stats_t_ppf(0.5 + x, 3),
			  1e-14);
	check_double_near(-x * M_PI * sqrt(3) / 2, stats_t_ppf(0.5 - x, 3),
			  1e-14);
	check_double_near(x * sqrt(2 * M_PI), stats_norm_ppf(0.5 + x), 1e-14);
	check_double_near(-x * sqrt(2 * M_PI), stats_norm_ppf(0.5 - x),
			  1e-14);
	/* one ulp above 1/2 (ulp(0.5) = 2^-53) */
	x = ldexp(1, -53);
	check_double_near(x * sqrt(2 * M_PI), stats_norm_ppf(0.5 + x), 1e-14);

	check_double_near(0.024997895148220435, stats_norm_sf(1.96), 1e-15);
	check_double_near(1.959963984540054, stats_norm_ppf(0.975), 1e-15);
	check_double_near(-1.959963984540054, stats_norm_ppf(0.025), 1e-15);
}

TEST(welch_pinned)
{
	static const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	static const double c3[] = { 3, 3, 3 }, c4[] = { 4, 4 };
	struct stats_test t, u;

	/* means 3, 5; variances 2.5: t = -2, df = 8 exactly */
	check_int(0, stats_welch(a, 5, b, 5, &t));
	check_double_near(-2, t.stat, 1e-15);
	check_double_near(8, t.df, 1e-15);
	check_double_near(0.08051623795726267, t.p, 1e-14);
	check_int(0, stats_welch_summary(3, sqrt(2.5), 5, 5, sqrt(2.5), 5,
					 &u));
	check_double_near(t.p, u.p, 1e-14);

	/* zero variance on both sides */
	check_int(0, stats_welch(c3, 3, c3, 3, &t));
	check_double_eq(1, t.p);
	check_double_eq(0, t.stat);
	check_double_near(NAN, t.df, 0);
	check_int(0, stats_welch(c3, 3, c4, 2, &t));
	check_double_eq(0, t.p);
	check_double_near(-INFINITY, t.stat, 0);

	/* too few samples */
	check_int(-1, stats_welch(a, 1, b, 5, &t));
	check_double_near(NAN, t.p, 0);
	check_int(-1, stats_welch_summary(1, 1, 1, 2, 1, 5, &t));
	check_double_near(NAN, t.p, 0);
}

TEST(mwu_pinned)
{
	static const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	static const double e[] = { 7, 7, 7, 7 };
	/* tie example: pooled 1 1 2 2 3 3 */
	static const double ta[] = { 1, 1, 2 }, tb[] = { 2, 3, 3 };
	struct stats_test t;

	check_int(0, stats_mwu(a, 3, b, 3, &t));
	check_double_eq(0, t.stat);
	check_double_eq(0.1, t.p);	/* 2 / C(6,3) */
	check_int(1, t.exact);
	check_int(0, stats_mwu(a, 5, b, 5, &t));
	check_double_eq(2.0 / 252, t.p);
	check_int(0, stats_mwu(b, 5, a, 5, &t));
	check_double_eq(25, t.stat);
	check_double_eq(2.0 / 252, t.p);
	check_double_near(NAN, t.df, 0);

	/*
	 * U(a) = 0.5.  Enumerating the 20 ways to pick 3 of the 6 positions,
	 * 2U takes the values 1 1 5 5 5 5 9 (x8) 13 (x4) 17 17, so
	 * P(U <= 0.5) = 2/20 and p = 0.2.
	 */
	check_int(0, stats_mwu(ta, 3, tb, 3, &t));
	check_double_eq(0.5, t.stat);
	check_double_eq(0.2, t.p);

	check_int(0, stats_mwu(e, 4, e, 3, &t));
	check_double_eq(1, t.p);
	check_double_eq(6, t.stat);

	check_int(-1, stats_mwu(a, 0, b, 5, &t));
	check_double_near(NAN, t.p, 0);

	/* in two steps: only an exact test without ties waits for its p */
	check_int(1, stats_mwu_deferred(b, 5, a, 5, &t));
	check_double_eq(25, t.stat);
	check_double_near(NAN, t.p, 0);
	check_double_eq(2.0 / 252, stats_mwu_p_untied(5, 5, 25));
	check_double_eq(2.0 / 252, stats_mwu_p_untied(5, 5, 0));
	check_double_eq(1, stats_mwu_p_untied(5, 5, 12.5 - 0.5));
	check_double_near(NAN, stats_mwu_p_untied(5, 5, 26), 0);
	check_double_near(NAN, stats_mwu_p_untied(5, 5, 2.5), 0);
	check_double_near(NAN, stats_mwu_p_untied(0, 5, 0), 0);
	check_double_near(NAN, stats_mwu_p_untied(26, 5, 0), 0);
	check_int(0, stats_mwu_deferred(ta, 3, tb, 3, &t));
	check_double_eq(0.2, t.p);
	check_int(0, stats_mwu_deferred(e, 4, e, 3, &t));
	check_double_eq(1, t.p);
	check_int(-1, stats_mwu_deferred(a, 0, b, 5, &t));
	check_double_near(NAN, t.p, 0);

	/* smallest attainable p (research/stats.md §1.2) */
	check_double_eq(1.0 / 3, stats_mwu_min_p(2, 2));
	check_double_eq(0.1, stats_mwu_min_p(3, 3));
	check_double_eq(2.0 / 70, stats_mwu_min_p(4, 4));
	check_double_eq(2.0 / 56, stats_mwu_min_p(3, 5));
	check_double_eq(1, stats_mwu_min_p(1, 1));
	check_int(4, stats_mwu_min_n(0.05));
	check_int(3, stats_mwu_min_n(0.1));
	check_int(5, stats_mwu_min_n(0.01));
	check_int(7, stats_mwu_min_n(0.001));
	check_int(1, stats_mwu_min_n(1));
	check_int(0, stats_mwu_min_n(0));
	check_int(0, stats_mwu_min_n(NAN));
}

/*
 * Brute force oracle for the exact Mann-Whitney p: enumerate every way
 * to label na of the pooled values as "a", count U <= u and U >= u.
 * Random small samples with many ties; the library must agree exactly.
 */
static unsigned long long lcg_state = 0x9e3779b97f4a7c15ULL;

static unsigned lcg(unsigned mod)
{
	lcg_state = lcg_state * 6364136223846793005ULL +
		1442695040888963407ULL;
	return (unsigned)(lcg_state >> 33) % mod;
}

static long u2_of(const double *pool, unsigned mask, int n)
{
	long u2 = 0;
	int i, j;

	for (i = 0; i < n; i++) {
		if (!(mask >> i & 1))
			continue;
		for (j = 0; j < n; j++) {
			if (mask >> j & 1)
				continue;
			u2 += pool[i] > pool[j] ? 2 : pool[i] == pool[j];
		}
	}
	return u2;
}

TEST(mwu_bruteforce)
{
	int iter, untied = 0;

	for (iter = 0; iter < 400; iter++) {
		int na = 1 + (int)lcg(8), nb = 1 + (int)lcg(8), n = na + nb;
		unsigned levels = 2 + lcg(iter % 3 ? 4 : 40), mask;
		double pool[16], le = 0, ge = 0, total = 0, p;
		long u2;
		struct stats_test t;
		int i;

		for (i = 0; i < n; i++)
			pool[i] = (double)lcg(levels) * 0.5;
		u2 = u2_of(pool, (1u << na) - 1, n);
		for (mask = 0; mask < 1u << n; mask++) {
			long v;

			if (__builtin_popcount(mask) != na)
				continue;
			v = u2_of(pool, mask, n);
			total++;
			le += v <= u2;
			ge += v >= u2;
		}
		p = 2 * (le < ge ? le : ge) / total;
		if (p > 1)
			p = 1;
		check_int(0, stats_mwu(pool, (size_t)na, pool + na,
				       (size_t)nb, &t));
		check_double_eq(0.5 * (double)u2, t.stat);
		check_double_eq(p, t.p);
		/* in two steps (pair by pair when untied): the same */
		if (stats_mwu_deferred(pool, (size_t)na, pool + na,
				       (size_t)nb, &t) == 1) {
			t.p = stats_mwu_p_untied((size_t)na, (size_t)nb,
						 t.stat);
			untied++;
		}
		check_double_eq(0.5 * (double)u2, t.stat);
		check_double_eq(p, t.p);
	}
	/* the pair-by-pair path was taken */
	check(untied >= 20);
}

TEST(ci_pinned)
{
	double lo, hi, half;

	/* no variance in the base: the interval is mb - 100 +- t sb/sqrt(nb) */
	check_int(0, stats_change_ci(100, 0, 5, 103, 2, 5, 0.95, &lo, &hi));
	half = 2.7764451051977944 * 2 / sqrt(5);
	check_double_near(3 - half, lo, 1e-13);
	check_double_near(3 + half, hi, 1e-13);
	/* no variance at all: the point change */
	check_int(0, stats_change_ci(100, 0, 5, 103, 0, 5, 0.95, &lo, &hi));
	check_double_near(3, lo, 1e-15);
	check_double_near(3, hi, 1e-15);
	/* base mean not distinguishable from 0: unbounded */
	check_int(-1, stats_change_ci(1, 5, 3, 2, 1, 3, 0.95, &lo, &hi));
	check_double_near(NAN, lo, 0);
	check_double_near(NAN, hi, 0);
	check_int(-1, stats_change_ci(0, 1, 5, 2, 1, 5, 0.95, &lo, &hi));
	check_int(-1, stats_change_ci(10, 1, 1, 12, 1, 5, 0.95, &lo, &hi));
	check_int(-1, stats_change_ci(10, 1, 5, 12, 1, 5, 1.0, &lo, &hi));
	/* the interval is ordered and contains the point change */
	check_int(0, stats_change_ci(100, 3, 5, 95, 4, 6, 0.9, &lo, &hi));
	check_int(1, lo < -5 && -5 < hi);
}

/*
 * The table's quantile is the searched one: interpolated between 8
 * points, within 1e-12 for df up to 10,000 (2.6e-13 seen: the search's
 * own last-place noise), 1e-10 beyond (2.2e-11 near df = 1e6, where both
 * are 1e-11 from scipy's).
 */
TEST(tq_as_t_ppf)
{
	static const double conf[] = { 0.5, 0.8, 0.9, 0.95, 0.99, 0.999,
				       0.9999 };
	struct stats_tq tq;
	double worst = 0, worst_big = 0, lo, hi, lo2, hi2;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(conf); i++) {
		stats_tq_init(&tq, conf[i]);
		check_int(1, tq.ok);
		for (k = 0; k < 4000; k++) {
			/* df from 1 to 1e6, denser where Welch's df lie */
			double df = 1 + pow(1e6, (double)k / 4000) - 1 +
				    (double)(k % 7) / 7;
			double a = stats_t_ppf(tq.p, df);
			double b = stats_tq_ppf(&tq, df);
			double d = fabs(b / a - 1);

			if (df <= 1e4 && d > worst)
				worst = d;
			if (d > worst_big)
				worst_big = d;
		}
		/* outside the table: the search of stats_t_ppf() itself */
		check_double_eq(stats_t_ppf(tq.p, 0.5), stats_tq_ppf(&tq, 0.5));
		check_double_eq(stats_norm_ppf(tq.p),
				stats_tq_ppf(&tq, INFINITY));
		check_double_near(NAN, stats_tq_ppf(&tq, NAN), 0);
		check_double_near(NAN, stats_tq_ppf(&tq, -1), 0);
	}
	check_int(1, worst <= 1e-12);
	check_int(1, worst_big <= 1e-10);
	stats_tq_init(&tq, 0.95);
	check_int(0, stats_change_ci_tq(&tq, 100, 3, 5, 95, 4, 6, &lo, &hi));
	check_int(0, stats_change_ci(100, 3, 5, 95, 4, 6, 0.95, &lo2, &hi2));
	check_double_near(lo2, lo, 1e-12);
	check_double_near(hi2, hi, 1e-12);
	/* conf outside (0, 1): no table, no interval */
	stats_tq_init(&tq, 1);
	check_int(0, tq.ok);
	check_int(-1, stats_change_ci_tq(&tq, 100, 3, 5, 95, 4, 6, &lo, &hi));
	check_double_near(NAN, lo, 0);
	stats_tq_init(&tq, 0);
	check_int(0, tq.ok);
}

TEST(bh_pinned)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	static const double pn[] = { NAN, 0.02, 0.5, NAN };
	double q[4];

	check_int(0, stats_bh(p, 4, q));
	check_double_near(0.02, q[0], 1e-15);
	check_double_near(0.04, q[1], 1e-15);
	check_double_near(0.04, q[2], 1e-15);
	check_double_near(0.02, q[3], 1e-15);
	/* NAN skipped: m = 2 */
	check_int(0, stats_bh(pn, 4, q));
	check_double_near(NAN, q[0], 0);
	check_double_near(0.04, q[1], 1e-15);
	check_double_near(0.5, q[2], 1e-15);
	check_double_near(NAN, q[3], 0);
	check_int(0, stats_bh(p, 0, q));
}

TEST(hl_pinned)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 2, 4, 6 };

	/* b - a: -1 0 1 1 2 3 3 4 5 */
	check_double_eq(2, stats_hodges_lehmann(a, 3, b, 3));
	/* b - a over 2 x 3: 1 0 3 2 5 4 -> (2 + 3) / 2 */
	check_double_eq(2.5, stats_hodges_lehmann(a, 2, b, 3));
	check_double_near(NAN, stats_hodges_lehmann(a, 0, b, 3), 0);
}

/* a fixed stream of uniforms in [0, 1) for the tests below */
static double unit_rand(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*x >> 11) / 9007199254740992.0;
}

static const double *ref_p;	/* for cmp_ref() */

static int cmp_ref(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	if (ref_p[a] != ref_p[b])
		return ref_p[a] < ref_p[b] ? -1 : 1;
	return (a > b) - (a < b);
}

/* Benjamini-Hochberg the plain way: sort by (p, index), step down. */
static void bh_reference(const double *p, size_t m, double *q)
{
	size_t *ord = malloc((m + 1) * sizeof(*ord)), i, k = 0;
	double run = 1;

	for (i = 0; i < m; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			ord[k++] = i;
	}
	ref_p = p;
	qsort(ord, k, sizeof(*ord), cmp_ref);
	for (i = k; i-- > 0;) {
		double v = (double)k * p[ord[i]] / (double)(i + 1);

		if (v < run)
			run = v;
		q[ord[i]] = run;
	}
	free(ord);
}

/*
 * Past BH_RADIX_MIN p-values stats_bh() ranks them by a radix sort (its
 * fallback for a negative zero is the qsort): the q-values must be
 * those of the plain sort exactly, ties, zeros and NANs included.
 */
TEST(bh_radix_as_sort)
{
	enum { M = 3000 };
	double *p = malloc(M * sizeof(*p)), *q = malloc(M * sizeof(*q));
	double *want = malloc(M * sizeof(*want));
	uint64_t x = 15;
	size_t i, bad = 0;
	int pass;

	for (i = 0; i < M; i++) {
		double u = unit_rand(&x);

		switch (i % 6) {
		case 0: p[i] = round(u * 50) / 50; break;	/* ties */
		case 1: p[i] = u * 1e-300; break;
		case 2: p[i] = i % 12 == 2 ? NAN : u; break;
		case 3: p[i] = i % 18 == 3 ? 0 : u * u; break;
		case 4: p[i] = i % 24 == 4 ? 1 : 4.9e-324 * (double)(i % 7); break;
		default: p[i] = u;
		}
	}
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			p[10] = -0.0;	/* the qsort */
		bh_reference(p, M, want);
		check_int(0, stats_bh(p, M, q));
		for (i = 0; i < M; i++)
			bad += !(q[i] == want[i] || (isnan(q[i]) && isnan(want[i])));
		check_int(0, (int)bad);
	}
	free(p);
	free(q);
	free(want);
}

/*
 * regressions sorts its millions of p-values in place (stats_sort())
 * and turns them into q-values there (stats_bh_sorted()): each pair's
 * q, found by its rank, must be stats_bh()'s to the last bit.  The sort
 * must hold on the inputs that break a naive quicksort.
 */
TEST(bh_sorted_in_place)
{
	enum { M = 20000 };
	double *p = malloc(M * sizeof(*p)), *q = malloc(M * sizeof(*q));
	double *v = malloc(M * sizeof(*v));
	size_t *rank = malloc(M * sizeof(*rank));
	uint64_t x = 77;
	size_t i, bad = 0;
	int shape;

	for (i = 0; i < M; i++) {
		double u = unit_rand(&x);

		p[i] = i % 3 == 0 ? round(u * 40) / 40 : i % 3 == 1 ? u * u : u;
	}
	check_int(0, stats_bh(p, M, q));
	memcpy(v, p, M * sizeof(*v));
	stats_sort(v, M);
	for (i = 0; i < M; i++)
		rank[i] = stats_rank(v, M, p[i]);
	for (i = 0; i < M; i++)
		bad += v[rank[i]] != p[i] || (rank[i] + 1 < M &&
					      v[rank[i] + 1] == p[i]);
	check_int(0, (int)bad);
	stats_bh_sorted(v, M);
	for (i = 0; i < M; i++)
		bad += v[rank[i]] != q[i];
	check_int(0, (int)bad);
	/* sorted, reversed, all equal, organ pipe, few values, random */
	for (shape = 0; shape < 6; shape++) {
		double sum = 0, sum_sorted = 0;

		for (i = 0; i < M; i++) {
			v[i] = shape == 0 ? (double)i : shape == 1 ? (double)(M - i) :
			       shape == 2 ? 0.5 : shape == 3 ?
			       (double)(i < M / 2 ? i : M - i) :
			       shape == 4 ? (double)(i % 3) : unit_rand(&x);
			sum += v[i];
		}
		stats_sort(v, M);
		for (i = 0; i < M; i++) {
			sum_sorted += v[i];
			bad += i && v[i - 1] > v[i];
		}
		check_int(0, (int)bad);
		check(sum == sum_sorted || fabs(sum - sum_sorted) < 1e-9 * sum);
	}
	free(p);
	free(q);
	free(v);
	free(rank);
}

/*
 * compare tests Welch from the sides' summaries (their mean and sample
 * sd) unless a side is constant: the same statistic and p-value, to the
 * last bit, as from the samples.
 */
TEST(welch_from_summary)
{
	double a[9], b[9];
	uint64_t x = 45;
	size_t t, i, bad = 0;

	for (t = 0; t < 500; t++) {
		size_t na = 2 + t % 7, nb = 2 + (t / 7) % 7;
		double scale = pow(10, (double)(t % 13) - 4);
		struct stats_summary sa, sb;
		struct stats_test w, s;

		for (i = 0; i < na; i++)
			a[i] = scale * (1 + 0.05 * unit_rand(&x));
		for (i = 0; i < nb; i++)
			b[i] = scale * (1.02 + 0.05 * unit_rand(&x));
		stats_summarize(a, na, &sa);
		stats_summarize(b, nb, &sb);
		stats_welch(a, na, b, nb, &w);
		stats_welch_summary(sa.mean, sa.sd_sample, (double)na, sb.mean,
				    sb.sd_sample, (double)nb, &s);
		bad += memcmp(&w.p, &s.p, sizeof(w.p)) ||
		       memcmp(&w.stat, &s.stat, sizeof(w.stat)) ||
		       memcmp(&w.df, &s.df, sizeof(w.df));
	}
	check_int(0, (int)bad);
}

/*
 * usage: t-stats [TABLE | SRCDIR]
 * The table path, or the source tree's top directory (what
 * tests/run-all.sh passes), or nothing: TABLE from the current directory.
 */
/*
 * Values near the ends of the double range (1e200, 1e-200): the results
 * must be those of the same data scaled back by a power of two, exactly
 * (scaling by 2^k is exact), where computing squares naively overflows
 * (sd 0, p 1, "unchanged" for +150%) or underflows.  The unscaled
 * results are checked against scipy by the table above.
 */
TEST(extreme_scale_exact)
{
	static const double a0[] = { 1, 2, 3 }, b0[] = { 4, 5, 6 };
	static const double c0[] = { 10.5, 11.25, 9.75, 10, 11 };
	static const int ks[] = { 600, 900, -600, -900 };
	double a[5], b[5], c[5], lo0, hi0, lo, hi;
	struct stats_summary s0, s;
	struct stats_test t0, t;
	size_t i, j;

	check_int(0, stats_summarize(c0, 5, &s0));
	check_int(0, stats_welch(a0, 3, b0, 3, &t0));
	check_int(0, stats_change_ci(2, 1, 3, 5, 1, 3, 0.95, &lo0, &hi0));
	for (j = 0; j < ARRAY_SIZE(ks); j++) {
		for (i = 0; i < 3; i++) {
			a[i] = ldexp(a0[i], ks[j]);
			b[i] = ldexp(b0[i], ks[j]);
		}
		for (i = 0; i < 5; i++)
			c[i] = ldexp(c0[i], ks[j]);
		check_int(0, stats_summarize(c, 5, &s));
		check_double_eq(ldexp(s0.sd_sample, ks[j]), s.sd_sample);
		check_double_eq(ldexp(s0.sd_pop, ks[j]), s.sd_pop);
		check_double_eq(ldexp(s0.mean, ks[j]), s.mean);
		check_double_eq(s0.cv_pct, s.cv_pct);
		check_double_eq(ldexp(s0.sd_sample, ks[j]), stats_sd_sample(c, 5));
		check_int(0, stats_welch(a, 3, b, 3, &t));
		check_double_eq(t0.stat, t.stat);
		check_double_eq(t0.df, t.df);
		check_double_eq(t0.p, t.p);
		check_int(0, stats_welch_summary(ldexp(2, ks[j]), ldexp(1, ks[j]), 3,
						 ldexp(5, ks[j]), ldexp(1, ks[j]), 3,
						 &t));
		check_double_eq(t0.p, t.p);
		check_int(0, stats_change_ci(ldexp(2, ks[j]), ldexp(1, ks[j]), 3,
					     ldexp(5, ks[j]), ldexp(1, ks[j]), 3,
					     0.95, &lo, &hi));
		check_double_eq(lo0, lo);
		check_double_eq(hi0, hi);
	}
	/* the numbers: 1e200.. against 4e200..: +150%, sd 1e200 */
	for (i = 0; i < 3; i++) {
		a[i] = a0[i] * 1e200;
		b[i] = b0[i] * 1e200;
	}
	check_int(0, stats_summarize(b, 3, &s));
	check_double_near(1e200, s.sd_sample, 1e-12);
	check_int(0, stats_welch(a, 3, b, 3, &t));
	check_double_near(t0.p, t.p, 1e-9);
	/* near the largest double: both sds finite and right */
	a[0] = 1.6e308;
	a[1] = 1.7e308;
	a[2] = 1.5e308;
	check_int(0, stats_summarize(a, 3, &s));
	check_double_near(1e307, s.sd_sample, 1e-12);
	check_double_near(1.6e308, s.mean, 1e-12);
}

/*
 * The prior's defined answers where the table's families cannot go:
 * fewer than 2 usable rows, a bound that is no bound, variances all
 * equal (the likelihood rises to the bound; the scale is the variance),
 * rows without spread or not finite left out.
 */
TEST(prior_edges)
{
	static const double one[] = { 0.01, 0, -1 }, d6[] = { 6, 6, 6, 6 };
	static const double same[] = { 0.25, 0.25, 0.25, 0.25 };
	static const double mixed[] = { 0.25, 0, 0.25, INFINITY };
	struct stats_prior pr = { 0, 0 };

	check_int(-1, stats_fit_prior(one, d6, 3, 12, &pr));
	check_int(-1, stats_fit_prior(same, d6, 4, 0, &pr));
	check_int(-1, stats_fit_prior(same, d6, 4, INFINITY, &pr));
	check_int(-1, stats_fit_prior(same, d6, 4, NAN, &pr));
	check_int(0, stats_fit_prior(same, d6, 4, 18, &pr));
	check_double_eq(18, pr.d0);
	check_double_near(0.25, pr.s02, 1e-15);
	/* two usable rows of the four: bounded by what they know */
	check_int(0, stats_fit_prior(mixed, d6, 4, 6, &pr));
	check_double_eq(6, pr.d0);
	check_double_near(0.25, pr.s02, 1e-15);
	/* variances from 1e-300 to 1e300: a fit or none, never a NAN */
	{
		static const double wild[] = { 1e-300, 1e300, 1, 2, 1e-200,
					       1e200, 3, 4, 5, 6 };
		static const double d4[] = { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 };
		int rc = stats_fit_prior(wild, d4, 10, 36, &pr);

		check_int(1, rc == -1 || (pr.d0 > 0 && pr.d0 <= 36 &&
					  pr.s02 > 0 && isfinite(pr.s02)));
	}
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
	else if (cases < 200)
		test_fail("%s: only %d cases", path, cases);
	test_summary_pinned();
	test_quantile_pinned();
	test_mmtests_pinned();
	test_special_pinned();
	test_welch_pinned();
	test_mwu_pinned();
	test_mwu_bruteforce();
	test_ci_pinned();
	test_tq_as_t_ppf();
	test_bh_pinned();
	test_hl_pinned();
	test_extreme_scale_exact();
	test_bh_radix_as_sort();
	test_bh_sorted_in_place();
	test_welch_from_summary();
	test_prior_edges();

	while (nvecs--)
		free(vecs[nvecs].v);
	free(vecs);
	return test_done();
}
