/*
 * t-bisect.c - unit test of lib/stats/bisect.c: the pooled noise, the
 * t-test, each rule of the classification, the runs-needed answers
 * (expected values from scipy: stats.t.sf and stats.t.ppf, given in the
 * comments), and bisect_range()'s narrowing and errors.
 */
#include "stats/bisect.h"

#include <math.h>
#include <stddef.h>

#include "test-lib.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

TEST(noise)
{
	static const double x[] = { 1, 2, 3, 10, 5, 7 };
	static const size_t g[] = { 0, 0, 0, 1, 2, 2 };
	static const size_t lone[] = { 0, 1, 2, 3, 4, 5 };
	struct bisect_noise nz;

	/* (1 + 0 + 1) + (1 + 1) over (3 - 1) + (2 - 1) df; 10 alone adds 0 */
	check_int(0, bisect_noise(x, g, ARRAY_SIZE(x), &nz));
	check_double_near(sqrt(4.0 / 3), nz.sd, 1e-15);
	check_double_eq(3, nz.df);
	check_int(2, nz.commits);
	check_int(-1, bisect_noise(x, lone, ARRAY_SIZE(x), &nz));
}

TEST(pvalue)
{
	struct bisect_noise nz = { 1, 10, 2 }, flat = { 0, 10, 2 };

	/* t = 2 / sqrt(1/2 + 1/2) = 2, 10 df: 2 * t.sf(2, 10) */
	check_double_near(0.07338803477074039, bisect_p(&nz, 0, 2, 2, 2), 1e-12);
	check_double_eq(1, bisect_p(&nz, 3, 2, 3, 5));
	check_double_eq(1, bisect_p(&flat, 3, 2, 3, 5));
	check_double_eq(0, bisect_p(&flat, 3, 2, 3.5, 5));
}

static enum bisect_verdict judge(double sd, double c, size_t n,
				 struct bisect_class *out)
{
	struct bisect_noise nz = { sd, 20, 8 };
	struct bisect_side good = { 100, 5 }, bad = { 90, 5 }, x = { c, n };

	bisect_classify(&nz, 0.01, &good, &bad, &x, out);
	return out->verdict;
}

TEST(classify)
{
	struct bisect_class cl;

	check_int(BISECT_GOOD, judge(1, 100.2, 3, &cl));
	check_double_near(-0.02, cl.level, 1e-12);
	check_int(0, cl.more_runs);
	check_int(BISECT_BAD, judge(1, 89.9, 3, &cl));
	check_double_near(1.01, cl.level, 1e-12);
	/* unlike both: between, beyond bad, beyond good */
	check_int(BISECT_BETWEEN, judge(1, 95, 50, &cl));
	check_int(0, cl.more_runs);
	check_int(BISECT_BAD, judge(1, 85, 3, &cl));
	check_int(BISECT_GOOD, judge(1, 105, 3, &cl));
	/*
	 * like both: 2 * t.sf(5 / (5 sqrt(1 + 1/5)), 20) against each; 90%
	 * power at 0.01 wants 10 / (5 sqrt(1/n + 1/5)) >= t.ppf(0.995, 20)
	 * + t.ppf(0.9, 20): n = 34, so 33 more
	 */
	check_int(BISECT_UNKNOWN, judge(5, 95, 1, &cl));
	check_double_near(0.3721840428308234, cl.p_good, 1e-12);
	check_double_near(0.3721840428308234, cl.p_bad, 1e-12);
	check_int(33, cl.more_runs);
	/* no number of runs here is enough when good and bad have 5 */
	check_int(BISECT_UNKNOWN, judge(20, 95, 1, &cl));
	check_int(-1, cl.more_runs);
}

TEST(runs_each)
{
	struct bisect_noise nz = { 5, 20, 8 };

	/* 3 / (5 sqrt(2/n)) >= t.ppf(0.995, 20) + t.ppf(0.9, 20): n = 97 */
	check_int(97, bisect_runs_each(&nz, 0.01, 3));
	check_int(97, bisect_runs_each(&nz, 0.01, -3));
	check_int(-1, bisect_runs_each(&nz, 0.01, 0));
}

TEST(range)
{
	/* good at 10, bad at 20; 12 like good, 15 like bad, 18 like good */
	static const double x[] = {
		100, 101, 99,		/* 10 */
		100.5, 99.5,		/* 12 */
		90, 91,			/* 15 */
		100, 100.4,		/* 18 */
		90, 89, 90.5,		/* 20 */
		95, 95.2,		/* 30: outside, noise only */
	};
	static const size_t g[] = {
		10, 10, 10, 12, 12, 15, 15, 18, 18, 20, 20, 20, 30, 30,
	};
	struct bisect_result res;

	check_int(BISECT_OK, bisect_range(x, g, ARRAY_SIZE(x), 10, 20, 0.01,
					  &res));
	check_int(5, res.nr);
	check_int(12, res.points[res.last_good].group);
	check_int(15, res.points[res.first_bad].group);
	check_int(1, res.conflicts);	/* 18 */
	check_int(BISECT_GOOD, res.points[3].cls.verdict);
	check_double_near(-10.166666666666671, res.delta, 1e-12);
	check_int(6, res.noise.commits);
	check_double_eq(ARRAY_SIZE(x) - 6, res.noise.df);
	bisect_result_release(&res);
	check_int(BISECT_ENOGOOD, bisect_range(x, g, ARRAY_SIZE(x), 11, 20,
					       0.01, &res));
	check(res.points == NULL);
	check_int(BISECT_ENOBAD, bisect_range(x, g, ARRAY_SIZE(x), 10, 19,
					      0.01, &res));
	/* 12 and 18 are alike */
	check_int(BISECT_ESAME, bisect_range(x, g, ARRAY_SIZE(x), 12, 18,
					     0.01, &res));
	check(res.p > 0.01);
	check_int(BISECT_ENONOISE, bisect_range(x, g, 1, 10, 10, 0.01, &res));
}

int main(void)
{
	test_noise();
	test_pvalue();
	test_classify();
	test_runs_each();
	test_range();
	return test_done();
}
