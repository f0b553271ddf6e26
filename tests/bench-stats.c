/*
 * bench-stats: micro-benchmark of lib/stats for `make bench` (SPEC §11):
 * nanoseconds per 5-vs-5 A/B comparison, per Welch and MWU test, per
 * summary, and per Benjamini-Hochberg pass over 5,000 p-values.
 */
#include "core/compat.h"
#include "stats/stats.h"
#include <time.h>

#include "xorshift.h"

/*
 * Usage: bench-stats [N]   (N comparisons, default 1,000,000)
 *
 * Output, one "key value" pair per line, read by scripts/bench.sh:
 *   compare_ns, summarize_ns, welch_ns, mwu_ns, change_ci_ns,
 *   bh5000_ns (one stats_bh() call over 5,000 p-values), checksum.
 *
 * The random data is made outside the timed regions, a block of
 * BLOCK comparisons at a time, so that the RNG is not measured and every
 * comparison still sees new data.  Each figure is the best of ROUNDS
 * passes (the machine is shared: the minimum is the least disturbed).
 * The checksum of the results keeps the calls from being optimised away
 * and lets two builds be checked for computing the same thing.
 */

#define NA 5
#define NB 5
#define BLOCK 4096
#define ROUNDS 3
#define BH_M 5000
#define BH_REPS 200

/* xorshift64*: small, fast, and the same sequence on every machine */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng_next(void)
{
	return xorshift64s(&rng_state);
}

/* uniform in [0, 1) */
static double rng_unit(void)
{
	return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0);
}

/* roughly normal: the sum of 4 uniforms, centred, sd 1 */
static double rng_gauss(void)
{
	return (rng_unit() + rng_unit() + rng_unit() + rng_unit() - 2.0) *
	       1.7320508075688772;
}

/*
 * One A/B pair like a benchmark metric: a base level that differs per
 * comparison, 2% noise, a change of 0, +1% or -5%, and one pair in 8
 * rounded to a coarse grid so that MWU's tie handling is exercised.
 */
static void make_pair(double *a, double *b)
{
	double level = 100.0 + 1e4 * rng_unit();
	double shift = 1.0;
	int coarse;
	size_t i;

	switch (rng_next() % 3) {
	case 1:
		shift = 1.01;
		break;
	case 2:
		shift = 0.95;
		break;
	}
	coarse = rng_next() % 8 == 0;
	for (i = 0; i < NA; i++) {
		a[i] = level * (1.0 + 0.02 * rng_gauss());
		if (coarse)
			a[i] = level * 0.01 * nearbyint(a[i] / (level * 0.01));
	}
	for (i = 0; i < NB; i++) {
		b[i] = level * shift * (1.0 + 0.02 * rng_gauss());
		if (coarse)
			b[i] = level * 0.01 * nearbyint(b[i] / (level * 0.01));
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Add only finite values: NAN results (a legitimate outcome) stay out. */
static void sum_in(double *sum, double v)
{
	if (isfinite(v))
		*sum += v;
}

static double data_a[BLOCK][NA], data_b[BLOCK][NB];

static void fill_block(void)
{
	size_t k;

	for (k = 0; k < BLOCK; k++)
		make_pair(data_a[k], data_b[k]);
}

enum what { W_COMPARE, W_SUMMARIZE, W_WELCH, W_MWU, W_CHANGE_CI };

/* The timed body over the first cnt pairs of the block; nanoseconds. */
static double run_block(enum what w, size_t cnt, double *sum)
{
	struct stats_summary sa, sb;
	struct stats_test tw, tm;
	double t0, lo, hi;
	size_t k;

	/* the CI needs summaries; make them untimed when only it is timed */
	static struct stats_summary ca[BLOCK], cb[BLOCK];

	if (w == W_CHANGE_CI)
		for (k = 0; k < cnt; k++) {
			stats_summarize(data_a[k], NA, &ca[k]);
			stats_summarize(data_b[k], NB, &cb[k]);
		}
	t0 = now_ns();
	for (k = 0; k < cnt; k++) {
		const double *a = data_a[k], *b = data_b[k];

		switch (w) {
		case W_COMPARE:
			stats_summarize(a, NA, &sa);
			stats_summarize(b, NB, &sb);
			stats_welch(a, NA, b, NB, &tw);
			stats_mwu(a, NA, b, NB, &tm);
			stats_change_ci(sa.mean, sa.sd_sample, NA, sb.mean,
					sb.sd_sample, NB, 0.95, &lo, &hi);
			sum_in(sum, sa.median + sb.median + tw.p + tm.p);
			sum_in(sum, lo);
			sum_in(sum, hi);
			break;
		case W_SUMMARIZE:
			stats_summarize(a, NA, &sa);
			sum_in(sum, sa.median + sa.sd_sample);
			break;
		case W_WELCH:
			stats_welch(a, NA, b, NB, &tw);
			sum_in(sum, tw.p);
			break;
		case W_MWU:
			stats_mwu(a, NA, b, NB, &tm);
			sum_in(sum, tm.p);
			break;
		case W_CHANGE_CI:
			stats_change_ci(ca[k].mean, ca[k].sd_sample, NA,
					cb[k].mean, cb[k].sd_sample, NB, 0.95,
					&lo, &hi);
			sum_in(sum, lo);
			sum_in(sum, hi);
			break;
		}
	}
	return now_ns() - t0;
}

/* Best of ROUNDS passes over n calls: nanoseconds per call. */
static double bench(enum what w, size_t n, double *sum)
{
	double best = INFINITY;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		double ns = 0;
		size_t done, cnt;

		for (done = 0; done < n; done += cnt) {
			cnt = n - done < BLOCK ? n - done : BLOCK;
			fill_block();
			ns += run_block(w, cnt, sum);
		}
		if (ns / n < best)
			best = ns / n;
	}
	return best;
}

/* stats_bh() over BH_M p-values, new ones each call: ns per call. */
static double bench_bh(double *sum)
{
	static double p[BH_M], q[BH_M];
	double best = INFINITY;
	int r, rep;
	size_t i;

	for (r = 0; r < ROUNDS; r++) {
		double ns = 0, t0;

		for (rep = 0; rep < BH_REPS; rep++) {
			/* mostly null p-values, a few real effects, some ties */
			for (i = 0; i < BH_M; i++) {
				double u = rng_unit();

				p[i] = i % 50 == 0 ? u * 1e-4 : u;
				if (i % 97 == 0)
					p[i] = 1.0;
			}
			t0 = now_ns();
			if (stats_bh(p, BH_M, q))
				return NAN;
			ns += now_ns() - t0;
			sum_in(sum, q[rep % BH_M] + q[BH_M - 1]);
		}
		if (ns / BH_REPS < best)
			best = ns / BH_REPS;
	}
	return best;
}

int main(int argc, char **argv)
{
	size_t n = 1000000;
	double sum = 0;
	char *end;

	if (argc > 2 || (argc == 2 && !strcmp(argv[1], "-h"))) {
		fprintf(stderr, "usage: bench-stats [N]\n");
		return 2;
	}
	if (argc == 2) {
		errno = 0;
		n = strtoul(argv[1], &end, 10);
		if (errno || *end || !n) {
			fprintf(stderr, "bench-stats: bad count '%s'\n",
				argv[1]);
			return 2;
		}
	}
	printf("comparisons %zu\n", n);
	printf("compare_ns %.1f\n", bench(W_COMPARE, n, &sum));
	printf("summarize_ns %.1f\n", bench(W_SUMMARIZE, n, &sum));
	printf("welch_ns %.1f\n", bench(W_WELCH, n, &sum));
	printf("mwu_ns %.1f\n", bench(W_MWU, n, &sum));
	printf("change_ci_ns %.1f\n", bench(W_CHANGE_CI, n, &sum));
	printf("bh5000_ns %.1f\n", bench_bh(&sum));
	printf("checksum %.6e\n", sum);
	if (fflush(stdout) || ferror(stdout))
		return 4;
	return 0;
}
