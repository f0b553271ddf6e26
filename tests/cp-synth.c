/*
 * cp-synth: how well the change-point modes find planted steps
 * (make cp-synth; docs/changepoints.md).  Seeded series of 50 to 100,000
 * points with steps of 0.5 to 5 sd, four kinds of noise and 1, 3 or 5
 * runs per commit, and flat series; precision and recall of cp_detect()
 * and cp_detect_windowed(), and how many flat series get a change point.
 */
#include "core/compat.h"
#include "stats/changepoint.h"
#include <time.h>

#include "xorshift.h"

/*
 * Usage: cp-synth [--quick] [--seed N] | --bench
 *
 * --quick: sizes up to 1,000 and fewer series, for make check (about
 * 3 s).  Output: the tables, then "summary KEY VALUE" lines that
 * tests/t5030-cp-synth.sh reads.  --bench: the timings of make bench
 * instead (see bench() below).
 */

#define SEED 20261130ULL

/* xorshift64*: our own generator, the same sequence everywhere */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	return xorshift64s(&rng_state);
}

/* uniform in (0, 1): never 0, so that log() is finite */
static double unif(void)
{
	return ((double)(rng_next() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

enum noise { NORMAL, STUDENT3, LAPLACE, BIMODAL, NR_NOISE };

static const char *const noise_name[] = {
	"normal", "student-t3", "laplace", "bimodal",
};

/* One noise value of mean 0 and standard deviation 1. */
static double noise(enum noise k)
{
	double u, c;

	switch (k) {
	case STUDENT3:
		/* t with 3 df has variance 3: heavy tails, sd scaled to 1 */
		for (c = 0, u = 0; u < 3; u++) {
			double g = gauss();

			c += g * g;	/* chi-square, 3 df */
		}
		return gauss() / sqrt(c / 3) / sqrt(3);
	case LAPLACE:
		/* scale 1/sqrt(2): variance 2 b^2 = 1 */
		u = unif() - 0.5;
		return -(u < 0 ? -1 : 1) * log(1 - 2 * fabs(u)) / M_SQRT2;
	case BIMODAL:
		/* two modes at +-0.8, sd 0.6 each: 0.64 + 0.36 = 1 */
		return (rng_next() & 1 ? 0.8 : -0.8) + 0.6 * gauss();
	default:
		return gauss();
	}
}

/* A series: n points, runs per commit, steps planted at commits. */
struct series {
	double *x;
	size_t *group;
	size_t n;
	size_t *planted;	/* first point of each stepped commit */
	size_t nplanted;
};

/*
 * Fill s: commits of `runs` points, `steps` steps of +-step_sd at
 * commits spread evenly with jitter (never within 3 commits of an end
 * or of each other, so that every segment holds at least 3 commits).
 */
static void make_series(struct series *s, size_t n, size_t runs,
			enum noise k, double step_sd)
{
	size_t commits = n / runs, steps, j, i, c, at = 0;
	double level = 100;

	s->n = commits * runs;
	steps = step_sd == 0 ? 0 : commits / 100 + 1;
	s->nplanted = 0;
	for (j = 0; j < steps; j++) {
		double span = (double)commits / (double)(steps + 1);
		double pos = span * (double)(j + 1) +
			     span * 0.4 * (2 * unif() - 1);

		c = (size_t)pos;
		if (c < 3 || c + 3 > commits ||
		    (s->nplanted && c < s->planted[s->nplanted - 1] / runs + 3))
			continue;
		s->planted[s->nplanted++] = c * runs;
	}
	for (i = 0, c = 0; c < commits; c++) {
		size_t r;

		if (at < s->nplanted && s->planted[at] == c * runs) {
			level += (rng_next() & 1 ? 1 : -1) * step_sd;
			at++;
		}
		for (r = 0; r < runs; r++, i++) {
			s->x[i] = level + noise(k);
			s->group[i] = c;
		}
	}
}

/* Counts of one cell of the tables. */
struct tally {
	size_t series, planted, found, right;
	size_t with_cp;		/* series with any change point */
	double seconds;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

enum { MODE_DETECT, MODE_WINDOWED, MODE_OTAVA, NR_MODE };

static const char *const mode_name[] = {
	"cp_detect", "windowed(50)", "Otava plain",
};

static void run_mode(int mode, const struct series *s, struct tally *t)
{
	struct cp_options opt = CP_OPTIONS_INIT;
	struct cp_result res = CP_RESULT_INIT;
	size_t i, j = 0;
	double t0;
	int rc;

	/* Otava's merge as it is: no Bonferroni factor */
	opt.bonferroni = mode != MODE_OTAVA;
	t0 = now();
	if (mode == MODE_DETECT)
		rc = cp_detect(s->x, s->group, s->n, &opt, &res);
	else
		rc = cp_detect_windowed(s->x, s->group, s->n,
					CP_WINDOW_DEFAULT, &opt, &res);
	t->seconds += now() - t0;
	if (rc) {
		fprintf(stderr, "cp-synth: %s failed on %zu points\n",
			mode_name[mode], s->n);
		exit(1);
	}
	t->series++;
	t->planted += s->nplanted;
	t->found += res.nr;
	t->with_cp += res.nr > 0;
	/* both sorted: a detection is right only at the planted index */
	for (i = 0; i < res.nr; i++) {
		while (j < s->nplanted && s->planted[j] < res.points[i].index)
			j++;
		if (j < s->nplanted && s->planted[j] == res.points[i].index)
			t->right++;
	}
	cp_result_release(&res);
}

static double ratio(size_t a, size_t b)
{
	return b ? (double)a / (double)b : NAN;
}

/* ---- --bench: the timings of make bench ------------------------------ */

/*
 * n points of normal noise, commits of 1..5 runs (uniform), a step of
 * +-3 sd every `every` points (at the next commit); planted as above.
 */
static void bench_series(struct series *s, size_t n, size_t every)
{
	size_t i, commit = 0, left = 0, next = every;
	double level = 100;

	s->n = n;
	s->nplanted = 0;
	for (i = 0; i < n; i++) {
		if (!left) {
			commit++;
			left = 1 + rng_next() % 5;
			if (i >= next && n - i > every / 2) {
				level += rng_next() & 1 ? 3 : -3;
				s->planted[s->nplanted++] = i;
				next += every;
			}
		}
		left--;
		s->x[i] = level + gauss();
		s->group[i] = commit;
	}
}

static int cmp_double(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* Best of `reps` runs of one mode on s: milliseconds; quality to *t. */
static double bench_mode(int mode, const struct series *s, int reps,
			 struct tally *t)
{
	double best = INFINITY;
	int i;

	for (i = 0; i < reps; i++) {
		struct tally one = { 0 };

		run_mode(mode, s, &one);
		best = fmin(best, one.seconds * 1e3);
		*t = one;
	}
	return best;
}

/*
 * Output, "key value" lines for scripts/bench.sh: for the 10,000- and
 * the 1,000,000-point series, ms (best of several) and recall and
 * precision of each mode; then the stream: microseconds per append of
 * one point to the 1M series (median and 99th percentile of APPENDS).
 */
#define APPENDS 2000

static int bench(void)
{
	static const struct {
		const char *key;
		size_t n, every;
		int reps[NR_MODE];
	} cases[] = {
		{ "cp10k", 10000, 1000, { 5, 5, 5 } },
		{ "cp1m", 1000000, 20000, { 1, 3, 3 } },
	};
	struct series s;
	struct cp_stream *cs;
	double *us;
	size_t c, m, i, n0;

	s.x = malloc(1000000 * sizeof(*s.x));
	s.group = malloc(1000000 * sizeof(*s.group));
	s.planted = malloc(1000 * sizeof(*s.planted));
	us = malloc(APPENDS * sizeof(*us));
	if (!s.x || !s.group || !s.planted || !us)
		return 1;
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		rng_state = SEED + c;
		bench_series(&s, cases[c].n, cases[c].every);
		printf("%s_points %zu\n%s_steps %zu\n", cases[c].key, s.n,
		       cases[c].key, s.nplanted);
		for (m = 0; m < NR_MODE; m++) {
			static const char *const key[] = {
				"detect", "windowed", "otava",
			};
			struct tally t = { 0 };
			double ms = bench_mode((int)m, &s, cases[c].reps[m],
					       &t);

			printf("%s_%s_ms %.2f\n%s_%s_recall %.4f\n"
			       "%s_%s_precision %.4f\n", cases[c].key, key[m],
			       ms, cases[c].key, key[m],
			       ratio(t.right, t.planted), cases[c].key, key[m],
			       ratio(t.right, t.found));
			fflush(stdout);
		}
	}

	/* the 1M series but its last APPENDS points, then one at a time */
	cs = cp_stream_new(CP_WINDOW_DEFAULT, NULL);
	n0 = s.n - APPENDS;
	if (!cs || cp_stream_append(cs, s.x, s.group, n0))
		return 1;
	for (i = 0; i < APPENDS; i++) {
		double t0 = now();

		if (cp_stream_append(cs, s.x + n0 + i, s.group + n0 + i, 1))
			return 1;
		us[i] = (now() - t0) * 1e6;
	}
	qsort(us, APPENDS, sizeof(*us), cmp_double);
	printf("append_n %d\nappend_us_median %.2f\nappend_us_p99 %.2f\n"
	       "append_full_merges %zu\nappend_changepoints %zu\n", APPENDS,
	       us[APPENDS / 2], us[APPENDS * 99 / 100],
	       cp_stream_full_merges(cs), cp_stream_result(cs)->nr);
	cp_stream_free(cs);
	free(us);
	free(s.x);
	free(s.group);
	free(s.planted);
	return 0;
}

static const size_t full_sizes[] = { 50, 200, 1000, 10000, 100000 };
static const size_t quick_sizes[] = { 50, 200, 1000 };
static const size_t runs_list[] = { 1, 3, 5 };
static const double steps_list[] = { 0.5, 1, 2, 3, 5 };

#define NR_RUNS (sizeof(runs_list) / sizeof(runs_list[0]))
#define NR_STEPS (sizeof(steps_list) / sizeof(steps_list[0]))
#define NR_SIZES 5

/* [mode][noise][runs][step (NR_STEPS: flat)][size] */
static struct tally tab[NR_MODE][NR_NOISE][NR_RUNS][NR_STEPS + 1][NR_SIZES];

static void print_cell(const struct tally *t)
{
	printf("  %5.1f %5.1f", 100 * ratio(t->right, t->planted),
	       100 * ratio(t->right, t->found));
}

static void add(struct tally *sum, const struct tally *t)
{
	sum->series += t->series;
	sum->planted += t->planted;
	sum->found += t->found;
	sum->right += t->right;
	sum->with_cp += t->with_cp;
	sum->seconds += t->seconds;
}

/*
 * One (noise k, runs r, step st (NR_STEPS: flat), size z) cell: its own
 * stream of series, seeded from the cell, so that a cell's numbers do
 * not depend on which other cells run (--quick gives the same series as
 * the full run for the sizes it has); about `budget` points of series
 * (at least one series, at most 400; four times as many flat ones).
 */
static void run_cell(struct series *s, uint64_t seed, size_t budget,
		     size_t k, size_t r, size_t st, const size_t *sizes,
		     size_t z)
{
	size_t reps = budget / sizes[z], i, m;
	double step = st < NR_STEPS ? steps_list[st] : 0;

	if (st == NR_STEPS)
		reps *= 4;	/* flat: a rate, wants more series */
	reps = reps < 1 ? 1 : reps > 400 ? 400 : reps;
	rng_state = seed ^ (k << 8 | r << 16 | st << 24 |
			    (uint64_t)sizes[z] << 32);
	for (i = 0; i < 20; i++)
		rng_next();	/* away from the seed's few set bits */
	for (i = 0; i < reps; i++) {
		make_series(s, sizes[z], runs_list[r], (enum noise)k, step);
		for (m = 0; m < NR_MODE; m++)
			run_mode((int)m, s, &tab[m][k][r][st][z]);
	}
}

int main(int argc, char **argv)
{
	const size_t *sizes = full_sizes;
	size_t nsizes = NR_SIZES, budget = 20000, maxn = 0;
	uint64_t seed = SEED;
	struct series s;
	size_t m, k, r, st, z;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--quick")) {
			sizes = quick_sizes;
			nsizes = 3;
			budget = 10000;
		} else if (!strcmp(argv[a], "--bench")) {
			return bench();
		} else if (!strcmp(argv[a], "--seed") && a + 1 < argc) {
			seed = strtoull(argv[++a], NULL, 10);
		} else {
			fprintf(stderr, "usage: cp-synth [--quick] [--seed N] "
				"| --bench\n");
			return 2;
		}
	}
	for (z = 0; z < nsizes; z++)
		maxn = sizes[z] > maxn ? sizes[z] : maxn;
	s.x = malloc(maxn * sizeof(*s.x));
	s.group = malloc(maxn * sizeof(*s.group));
	s.planted = malloc((maxn / 100 + 2) * sizeof(*s.planted));
	if (!s.x || !s.group || !s.planted)
		return 1;

	for (k = 0; k < NR_NOISE; k++)
		for (r = 0; r < NR_RUNS; r++)
			for (st = 0; st <= NR_STEPS; st++)
				for (z = 0; z < nsizes; z++)
					run_cell(&s, seed, budget, k, r, st,
						 sizes, z);

	printf("cp-synth: planted steps, seed %llu%s\n",
	       (unsigned long long)seed, nsizes < NR_SIZES ? " (--quick)" : "");
	printf("A detection is right only at exactly the first run of the\n"
	       "planted commit; one a commit off, or among a commit's runs,\n"
	       "counts as a false one and the step as missed.  recall = right /\n"
	       "planted, precision = right / found (percent); the modes'\n"
	       "defaults (max p 0.001, min magnitude 0, min size 3, Student);\n"
	       "Otava plain: the windowed mode without the Bonferroni factor.\n"
	       "Noise sd 1; a step of k sd moves the level by k.  Sizes:");
	for (z = 0; z < nsizes; z++)
		printf(" %zu", sizes[z]);
	printf(" points, about %zu points of series per size and cell.\n\n",
	       budget);

	printf("Steps, all sizes together: recall and precision (%%)\n");
	printf("%-11s %4s %5s ", "noise", "runs", "step");
	for (m = 0; m < NR_MODE; m++)
		printf(" %-12s", mode_name[m]);
	printf("\n%-11s %4s %5s ", "", "", "(sd)");
	for (m = 0; m < NR_MODE; m++)
		printf("  %5s %5s", "rec", "prec");
	putchar('\n');
	for (k = 0; k < NR_NOISE; k++)
		for (r = 0; r < NR_RUNS; r++)
			for (st = 0; st < NR_STEPS; st++) {
				printf("%-11s %4zu %5.1f ", noise_name[k],
				       runs_list[r], steps_list[st]);
				for (m = 0; m < NR_MODE; m++) {
					struct tally t = { 0 };

					for (z = 0; z < nsizes; z++)
						add(&t, &tab[m][k][r][st][z]);
					print_cell(&t);
				}
				putchar('\n');
			}

	printf("\nSteps >= 3 sd, 3 or 5 runs per commit, by size and noise: "
	       "recall and precision (%%)\n");
	printf("%-11s %7s ", "noise", "points");
	for (m = 0; m < NR_MODE; m++)
		printf(" %-12s", mode_name[m]);
	putchar('\n');
	for (k = 0; k < NR_NOISE; k++)
		for (z = 0; z < nsizes; z++) {
			printf("%-11s %7zu ", noise_name[k], sizes[z]);
			for (m = 0; m < NR_MODE; m++) {
				struct tally t = { 0 };

				for (r = 1; r < NR_RUNS; r++)
					for (st = 3; st < NR_STEPS; st++)
						add(&t, &tab[m][k][r][st][z]);
				print_cell(&t);
			}
			putchar('\n');
		}

	printf("\nFlat series: %% with any change point (all runs per commit "
	       "together), false ones per 10,000 points\n");
	printf("%-11s %7s %6s", "noise", "points", "series");
	for (m = 0; m < NR_MODE; m++)
		printf(" %-13s", mode_name[m]);
	putchar('\n');
	for (k = 0; k < NR_NOISE; k++)
		for (z = 0; z < nsizes; z++) {
			struct tally t[NR_MODE] = { { 0 } };

			for (m = 0; m < NR_MODE; m++)
				for (r = 0; r < NR_RUNS; r++)
					add(&t[m], &tab[m][k][r][NR_STEPS][z]);
			printf("%-11s %7zu %6zu", noise_name[k], sizes[z],
			       t[0].series);
			for (m = 0; m < NR_MODE; m++)
				printf("  %5.1f %6.2f",
				       100 * ratio(t[m].with_cp, t[m].series),
				       1e4 * ratio(t[m].found,
						   t[m].series * sizes[z]));
			putchar('\n');
		}

	printf("\nSeconds spent in each mode, by size (all cells):\n");
	for (z = 0; z < nsizes; z++) {
		printf("%7zu points:", sizes[z]);
		for (m = 0; m < NR_MODE; m++) {
			struct tally t = { 0 };

			for (k = 0; k < NR_NOISE; k++)
				for (r = 0; r < NR_RUNS; r++)
					for (st = 0; st <= NR_STEPS; st++)
						add(&t, &tab[m][k][r][st][z]);
			printf("  %s %.2f s (%zu series)", mode_name[m],
			       t.seconds, t.series);
		}
		putchar('\n');
	}

	/* the figures the check asserts, as "summary KEY VALUE" */
	putchar('\n');
	for (m = 0; m < NR_MODE; m++) {
		struct tally t = { 0 }, f = { 0 };
		static const char *const key[] = {
			"detect", "windowed", "otava",
		};
		const char *mn = key[m];

		for (r = 1; r < NR_RUNS; r++)
			for (z = 0; z < nsizes; z++) {
				for (st = 3; st < NR_STEPS; st++)
					add(&t, &tab[m][NORMAL][r][st][z]);
			}
		double worst = 0;

		for (z = 0; z < nsizes; z++) {
			struct tally fz = { 0 };

			for (r = 0; r < NR_RUNS; r++)
				add(&fz, &tab[m][NORMAL][r][NR_STEPS][z]);
			add(&f, &fz);
			worst = fmax(worst, ratio(fz.with_cp, fz.series));
		}
		printf("summary %s_recall_normal_3sd_3runs %.4f\n", mn,
		       ratio(t.right, t.planted));
		printf("summary %s_precision_normal_3sd_3runs %.4f\n", mn,
		       ratio(t.right, t.found));
		printf("summary %s_flat_normal_any %.4f\n", mn,
		       ratio(f.with_cp, f.series));
		printf("summary %s_flat_normal_series %zu\n", mn, f.series);
		printf("summary %s_flat_normal_any_worst_size %.4f\n", mn,
		       worst);
	}
	free(s.x);
	free(s.group);
	free(s.planted);
	return 0;
}
