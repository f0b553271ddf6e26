/*
 * The analysis of a comparison (see compare.h): the loader's rows
 * (load.h) tested while their samples are loaded, then finished into
 * families, twins, p-values and q-values, changes with their intervals,
 * verdicts and the runs that would decide.
 *
 * Tests (--test auto): the Mann-Whitney U test when both sides have
 * enough runs for it to ever reach alpha (stats_mwu_min_p), else Welch's
 * t-test, which works from n = 2 but leans on normality.  Aggregates with
 * a known n and stddev get Welch from summaries; with n unknown, no
 * p-value: the source's own marker stands (method "source").
 */
#include "core/compat.h"
#include "analysis/compare.h"
#include "analysis/load.h"
#include "core/parallel.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "stats/ebayes.h"
#include "store/direction.h"

const char *cmp_method_name(enum cmp_method m)
{
	static const char *const names[] = {
		"none", "welch", "mwu", "source", "moderated",
	};

	return names[m];
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	static const char *const names[] = {
		"unchanged", "regression", "improvement", "unknown",
		"changed",
	};

	return names[v];
}

/*
 * new_v * 100 / base, in MMTests' order, unless new_v * 100 overflows
 * (1.1e308): then in the other, which only rounds differently
 */
static double pct_of(double new_v, double base)
{
	double r = new_v * 100;

	return isfinite(r) ? r / base : new_v / base * 100;
}

double cmp_mmtests_pdiff(double new_v, double base, int higher_better)
{
	if (!isfinite(new_v) || !isfinite(base))
		return NAN;
	if (higher_better) {
		if (new_v == base || new_v == 0)
			return 0;
		if (base == 0)
			return 100;
		return pct_of(new_v, base) - 100;
	}
	if (new_v == base)
		return 0;
	if (new_v == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100 - pct_of(new_v, base);
}

/* log_pooled() keeps the logs of this many runs a side */
#define LOG_BUF_N 32

/*
 * The moderated t-test's figures (docs/statistics.md, "Tests").  A row
 * of positive samples, n >= 2 a side, is seen on the log scale: the
 * difference of its mean logs and their pooled variance s2 on
 * d = n1 + n2 - 2 degrees of freedom (d and 1/n1 + 1/n2 are computed
 * where the figures are used).  0 if not such a row.
 */
static int log_pooled(const struct cmp_side *a, const struct cmp_side *b,
		      double *diff, double *s2)
{
	const struct cmp_side *s[2] = { a, b };
	double mean[2], ss = 0;
	size_t k, i;

	if (a->source != SIDE_SAMPLES || b->source != SIDE_SAMPLES ||
	    a->nv < 2 || b->nv < 2)
		return 0;
	for (k = 0; k < 2; k++) {
		/* each log once where the runs are few (the common case) */
		double sum = 0, buf[LOG_BUF_N];
		int keep = s[k]->nv <= LOG_BUF_N;

		for (i = 0; i < s[k]->nv; i++) {
			double lg;

			if (!(s[k]->v[i] > 0) || !isfinite(s[k]->v[i]))
				return 0;
			lg = log(s[k]->v[i]);
			if (keep)
				buf[i] = lg;
			sum += lg;
		}
		mean[k] = sum / (double)s[k]->nv;
		for (i = 0; i < s[k]->nv; i++) {
			double e = (keep ? buf[i] : log(s[k]->v[i])) - mean[k];

			ss += e * e;
		}
	}
	*diff = mean[1] - mean[0];
	*s2 = ss / (double)(a->nv + b->nv - 2);
	return 1;
}

/*
 * Welch's test of two sides of samples, from the moments the loader's
 * digest has just taken when neither side is constant: stats_welch() would
 * compute the same mean and sum of squares again, bit for bit
 * (stats_mean(), ss_from()).  A constant side, or one whose moments
 * failed (a value not finite), goes through stats_welch() itself.
 */
static int welch(const struct cmp_side *a, const struct cmp_side *b,
		 struct stats_test *t)
{
	if (a->sum.n && b->sum.n && a->sum.min != a->sum.max &&
	    b->sum.min != b->sum.max)
		return stats_welch_summary(a->sum.mean, a->sum.sd_sample,
					   (double)a->nv, b->sum.mean,
					   b->sum.sd_sample, (double)b->nv, t);
	return stats_welch(a->v, a->nv, b->v, b->nv, t);
}

/* MMTests' B*mean-95: the mean of the best 95 % of the runs */
#define MM_BEST_MEAN_PCT 95

/*
 * MMTests' figures of side s of row r (opts.mm_pool; NAN otherwise):
 * its Stddev, HStddev for a higher-is-better metric, and its B*mean-95.
 */
static void mmtests_figures(const struct comparison *c,
			    const struct cmp_row *r, struct cmp_side *s)
{
	int hi = r->direction == DIR_HIGHER, harm;

	s->mm_sd = s->mm_bmean = NAN;
	if (!c->opts.mm_pool || s->source != SIDE_SAMPLES || !s->nv ||
	    !s->sum.n)
		return;
	harm = hi && isfinite(s->sum.hmean);
	s->mm_sd = harm ? stats_mmtests_hstddev(s->v, s->nv) :
		   s->nv > 1 ? s->sum.sd_sample : NAN;
	s->mm_bmean = stats_mmtests_best_mean(s->v, s->nv, MM_BEST_MEAN_PCT,
					      hi, harm);
}

/*
 * The tests of sides a and b of samples, on vs: Welch's, the U test
 * where test_pair() could take it, the log-scale figures of the
 * moderated t-test.
 */
static void pair_tests(const struct comparison *c, const struct cmp_side *a,
		       const struct cmp_side *b, struct cmp_vs *vs)
{
	struct stats_test t;

	vs->welch_ok = vs->logs = 0;
	vs->mwu_ok = CMP_MWU_NONE;
	vs->welch_p = vs->mwu_p = NAN;
	if (a->source != SIDE_SAMPLES || b->source != SIDE_SAMPLES)
		return;
	vs->logs = (signed char)log_pooled(a, b, &vs->log_diff, &vs->log_s2);
	if (a->nv >= 2 && b->nv >= 2 && welch(a, b, &t) == 0) {
		vs->welch_ok = 1;
		vs->welch_p = t.p;
	}
	if (c->opts.test == CMP_TEST_MWU ||
	    (c->opts.test == CMP_TEST_AUTO && a->nv >= 2 && b->nv >= 2 &&
	     stats_mwu_min_p(a->nv, b->nv) * CMP_MWU_GRID <= c->opts.alpha)) {
		/*
		 * Its exact p is counted only if test_pair() takes it (a
		 * family of one at 5+5 runs): U is kept
		 */
		int rc = stats_mwu_deferred(a->v, a->nv, b->v, b->nv, &t);

		vs->mwu_ok = rc == 1 ? CMP_MWU_U :
			     rc == 0 ? CMP_MWU_P : CMP_MWU_NONE;
		vs->mwu_p = rc == 1 ? t.stat : t.p;
	}
}

/*
 * The analysis's part of row r's digest (cmp_digest_fn), while its
 * samples are loaded: each side's MMTests figures, each pair's tests.
 */
static void digest_tests(const struct comparison *c, struct cmp_row *r)
{
	size_t v;

	for (v = 0; v < c->nvar; v++)
		mmtests_figures(c, r, &r->side[v]);
	for (v = 1; v < c->nvar; v++)
		pair_tests(c, &r->side[0], &r->side[v], &r->vs[v - 1]);
}


static void finish_side(struct cmp_side *s)
{
	struct cmp_extra *e;

	if (s->source == SIDE_SAMPLES) {
		/* the moments were taken as the samples came (digest_row()) */
		if (!s->sum.n) {
			s->source = SIDE_NONE;
			return;
		}
		s->n = (long)s->nv;
		s->mean = s->sum.mean;
		s->sd = s->sum.sd_sample;
		s->sd_sample = s->sum.sd_sample;
		return;
	}
	if (s->source != SIDE_AGGREGATE) {
		s->n = 0;
		s->mean = s->sd = s->sd_sample = NAN;
		return;
	}
	/* an MMTests table gives the spread as its own row */
	e = s->extra;
	if (!isfinite(s->sd)) {
		const char *want = !strcmp(e->stat, "Hmean") ? "HStddev"
							     : "Stddev";
		size_t i;

		for (i = 0; i < e->nr_stats; i++)
			if (!strcmp(e->stats[i].stat, want)) {
				s->sd = e->stats[i].value;
				e->sd_kind = "sample";
			}
	}
	/* stddev as the source gave it, stored absolute; Welch wants n-1 */
	s->sd_sample = NAN;
	if (isfinite(s->sd) && s->n >= 2) {
		if (e->sd_kind && !strcmp(e->sd_kind, "population"))
			s->sd_sample = s->sd * sqrt((double)s->n /
						    (double)(s->n - 1));
		else
			s->sd_sample = s->sd;
	}
}

/* The longest note set_note() makes, with its NUL (one line of text) */
#define NOTE_MAX 160

/*
 * Notes repeat over thousands of rows: each distinct text is kept once
 * in the comparison, and the rows point at it.
 */
static int64_t set_note(struct comparison *c, struct cmp_vs *vs,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The note text[0..len) on vs, as a new one; returns its index. */
static int64_t add_note(struct comparison *c, struct cmp_vs *vs,
			const char *text, size_t len)
{
	ALLOC_GROW(c->notes, c->nr_notes + 1, c->alloc_notes);
	c->notes[c->nr_notes] = cmp_pool_addn(c, text, len);
	vs->note = c->notes[c->nr_notes];
	return (int64_t)c->nr_notes++;
}

/* The note text[0..len) on vs, interned; returns its index in c->notes. */
static int64_t intern_note(struct comparison *c, struct cmp_vs *vs,
			   const char *text, size_t len)
{
	int64_t i;

	/* a row in ten may have a note: look it up, do not scan them all */
	if (strmap_get(&c->note_index, text, len, &i)) {
		vs->note = c->notes[i];
		return i;
	}
	i = add_note(c, vs, text, len);
	strmap_put(&c->note_index, text, len, i);
	return i;
}

/* Returns the note's index in c->notes. */
static int64_t set_note(struct comparison *c, struct cmp_vs *vs,
			const char *fmt, ...)
{
	char buf[NOTE_MAX];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0)
		len = 0;
	else if ((size_t)len >= sizeof(buf))
		len = sizeof(buf) - 1;
	return intern_note(c, vs, buf, (size_t)len);
}

/* The note of a pair that cannot be tested for want of runs */
static const char note_one_run[] =
	"n=1 on a side: no test possible; need >= 2 runs per side";

/*
 * The U test's p of the samples a and b on vs (their digest ran it,
 * pair_tests()), with a note when it cannot reach alpha, or need (see
 * test_pair()); min_p: the smallest p it can give.
 */
static void take_mwu(struct comparison *c, const struct cmp_side *a,
		     const struct cmp_side *b, struct cmp_vs *vs, double need,
		     double min_p)
{
	if (vs->mwu_ok == CMP_MWU_U) {
		vs->mwu_p = stats_mwu_p_untied(a->nv, b->nv, vs->mwu_p);
		vs->mwu_ok = CMP_MWU_P;
	}
	if (vs->mwu_ok == CMP_MWU_P) {
		vs->p = vs->mwu_p;
		vs->method = CMP_MWU;
	}
	if (min_p > c->opts.alpha)
		set_note(c, vs, "%zu+%zu runs: the U test cannot reach alpha "
			 "%g; need >= %zu per side", a->nv, b->nv,
			 c->opts.alpha, c->mwu_need_n);
	else if (!(min_p <= need))
		set_note(c, vs, "%zu+%zu runs: the U test cannot reach %.2g, "
			 "the level its family needs", a->nv, b->nv, need);
}

/* test_pair() of two sides of samples. */
static void test_samples(struct comparison *c, const struct cmp_side *a,
			 const struct cmp_side *b, struct cmp_vs *vs,
			 double need)
{
	double min_p = stats_mwu_min_p(a->nv, b->nv);

	if (c->opts.test == CMP_TEST_MWU ||
	    (c->opts.test == CMP_TEST_AUTO && min_p * CMP_MWU_GRID <= need &&
	     a->nv >= 2 && b->nv >= 2)) {
		take_mwu(c, a, b, vs, need, min_p);
		return;
	}
	if (a->nv < 2 || b->nv < 2) {
		set_note(c, vs, "%s", note_one_run);
		return;
	}
	if (vs->welch_ok) {
		vs->p = vs->welch_p;
		vs->method = CMP_WELCH;
	}
}

/* test_pair() when one side or both are summaries. */
static void test_summaries(struct comparison *c, const struct cmp_side *a,
			   const struct cmp_side *b, struct cmp_vs *vs)
{
	struct stats_test t;

	if (a->n >= 2 && b->n >= 2 && isfinite(a->sd_sample) &&
	    isfinite(b->sd_sample)) {
		if (stats_welch_summary(a->mean, a->sd_sample, (double)a->n,
					b->mean, b->sd_sample, (double)b->n,
					&t) == 0) {
			vs->p = t.p;
			vs->method = CMP_WELCH;
		}
		return;
	}
	if (b->source == SIDE_AGGREGATE && (a->n < 0 || b->n < 0)) {
		vs->method = CMP_SOURCE;
		set_note(c, vs, "n not known: no p-value; the source's marker "
			 "stands");
		return;
	}
	if (a->n == 1 || b->n == 1)
		set_note(c, vs, "%s", note_one_run);
	else
		set_note(c, vs, "no standard deviation given: no test possible");
}

/*
 * The p-value of one pair of sides.  need: the level a p-value must
 * reach for the first discovery in the row's family (alpha / the
 * family's tests under FDR control, alpha without).  auto takes the U
 * test only when its attainable p-values are fine enough below that
 * level: the smallest at most need / CMP_MWU_GRID (at 4+4 it is 0.029,
 * a test of level 0.029 where 0.05 was allowed, and useless in a family
 * of 50), else Welch.
 */
static void test_pair(struct comparison *c, const struct cmp_side *a,
		      const struct cmp_side *b, struct cmp_vs *vs, double need)
{
	vs->p = vs->q = vs->p_moderated = NAN;
	vs->method = CMP_NONE;
	vs->need_p = need;
	if (a->source == SIDE_SAMPLES && b->source == SIDE_SAMPLES)
		test_samples(c, a, b, vs, need);
	else
		test_summaries(c, a, b, vs);
}

/* Every value of a side the same (an exact quantity measured again). */
static int constant_side(const struct cmp_side *s)
{
	return s->source == SIDE_SAMPLES && s->nv && s->sum.min == s->sum.max;
}

/*
 * A metric of kind exact (code size, a count that does not vary): one
 * value per side is enough, the change itself decides and there is no
 * p-value.  Returns 1 when that applies; 0 when a side varies after all
 * (then it is tested like any other metric, with a note).
 */
static int exact_pair(struct comparison *c, const struct cmp_side *a,
		      const struct cmp_side *b, struct cmp_vs *vs)
{
	vs->p = vs->q = vs->p_moderated = NAN;
	vs->method = CMP_NONE;
	vs->exact_decided = 0;
	if (!constant_side(a) || !constant_side(b)) {
		set_note(c, vs, "exact metric varies between runs: tested");
		return 0;
	}
	vs->exact_decided = 1;
	vs->exact_changed = a->sum.min != b->sum.min;	/* both constant */
	set_note(c, vs, "exact metric: the change decides, no test");
	return 1;
}

/*
 * Fieller's interval at 1 - alpha, its quantile from the table: one
 * evaluation of the t distribution a row instead of two or three (the
 * intervals are a large part of a compare's instructions)
 */
static void change_ci(const struct comparison *c, const struct cmp_side *a,
		      const struct cmp_side *b, struct cmp_vs *vs)
{
	const struct stats_tq *tq = c->opts.ci_tq ? c->opts.ci_tq :
						    &c->ci_tq_own;

	vs->ci_low_pct = vs->ci_high_pct = NAN;
	if (a->n >= 2 && b->n >= 2 && isfinite(a->sd_sample) &&
	    isfinite(b->sd_sample))
		stats_change_ci_tq(tq, a->mean, a->sd_sample, (double)a->n,
				   b->mean, b->sd_sample, (double)b->n,
				   &vs->ci_low_pct, &vs->ci_high_pct);
	if (!isfinite(vs->ci_low_pct) || !isfinite(vs->ci_high_pct))
		vs->ci_low_pct = vs->ci_high_pct = NAN;
}

static void change_and_ci(const struct comparison *c,
			  const struct cmp_side *a, const struct cmp_side *b,
			  struct cmp_vs *vs)
{
	if (a->mean == b->mean)
		vs->change_pct = 0;	/* also 0 -> 0 */
	else if (a->mean != 0 && isfinite(a->mean) && isfinite(b->mean))
		vs->change_pct = 100.0 * (b->mean / a->mean - 1.0);
	else
		vs->change_pct = NAN;
	/* a base near 0 (1e-310 against 2): no percentage to print */
	vs->change_na = isinf(vs->change_pct);
	if (vs->change_na)
		vs->change_pct = NAN;
	vs->ci_low_pct = vs->ci_high_pct = NAN;
	if (!c->opts.ci_later)
		change_ci(c, a, b, vs);
}

void compare_row_ci(const struct comparison *c, struct cmp_row *r)
{
	size_t v;

	for (v = 1; v < c->nvar; v++)
		change_ci(c, &r->side[0], &r->side[v], &r->vs[v - 1]);
}

/* Every value of both sides one and the same: nothing to test. */
static int identical(const struct cmp_side *a, const struct cmp_side *b)
{
	return constant_side(a) && constant_side(b) &&
	       a->sum.min == b->sum.min;
}

/* The z of the last level asked, per thread (decide_rows()'s halves). */
struct z_cache {
	double need, z;
};

/* The power runs_needed() asks of a test, and the most runs it says */
#define RUNS_POWER 0.8
#define RUNS_NEEDED_MAX 1000000

/*
 * Runs per side that a two-sample test at level need with power 0.8
 * would want to see the observed difference: 2 (z + z_0.8)^2 s^2 / d^2,
 * s the two sides' sample sds pooled; at least twice the runs there are
 * (when the estimate says the runs were enough, the observed spread was
 * luckier than the test could trust: Pinpoint doubles its repeats then).
 * 0 when it cannot be said.
 */
static long runs_needed(const struct cmp_side *a, const struct cmp_side *b,
			double need, struct z_cache *zc)
{
	double d = fabs(b->mean - a->mean), s2, r = NAN, z, n;

	if (!isfinite(a->sd_sample) || !isfinite(b->sd_sample) ||
	    !isfinite(a->mean) || !isfinite(b->mean) ||
	    !(need > 0 && need < 1))
		return 0;
	s2 = (a->sd_sample * a->sd_sample + b->sd_sample * b->sd_sample) / 2;
	if (!isfinite(s2) || !isfinite(d * d) || (d > 0 && !(d * d > 0))) {
		/*
		 * 1e308 squared overflows, 1e-300 squared vanishes: s^2 / d^2
		 * from the halved sds over the halved difference instead
		 */
		double hd = fabs(b->mean / 2 - a->mean / 2);
		double ha = a->sd_sample / 2 / hd, hb = b->sd_sample / 2 / hd;

		r = (ha * ha + hb * hb) / 2;
		s2 = r > 0 ? 1 : 0;	/* r stands for s^2 / d^2 */
	}
	if (!(d > 0) || !(s2 > 0))
		return 0;
	/* need is the same over a family: its quantile is computed once */
	if (need != zc->need) {
		zc->z = stats_norm_ppf(1 - need / 2) +
			stats_norm_ppf(RUNS_POWER);
		zc->need = need;
	}
	z = zc->z;
	n = ceil(isnan(r) ? 2 * z * z * s2 / (d * d) : 2 * z * z * r);
	if (n < 2.0 * (double)(a->nv > b->nv ? a->nv : b->nv))
		n = 2.0 * (double)(a->nv > b->nv ? a->nv : b->nv);
	return n < RUNS_NEEDED_MAX ? (long)n : RUNS_NEEDED_MAX;
}

/*
 * Whether the change of pair vs (b: its new side) is significant; 1
 * when that decides its verdict too (an exact metric that did not
 * change).
 */
static int significance(const struct comparison *c, const struct cmp_side *b,
			struct cmp_vs *vs)
{
	double level = c->opts.fdr ? vs->q : vs->p;

	if (vs->exact_decided) {
		vs->significant = vs->exact_changed;
		if (!vs->significant) {
			vs->verdict = CMP_UNCHANGED;
			return 1;
		}
	} else if (vs->method == CMP_SOURCE) {
		const char *mark = cmp_extra(b)->marker;

		vs->significant = mark && *mark;
	} else {
		vs->significant = isfinite(level) && level < c->opts.alpha;
	}
	return 0;
}

/*
 * The verdict of a pair without a significant change.  "unchanged" is a
 * claim: the interval of the change lies within ±min-change, or every
 * run of both sides gave the same value.  Otherwise the data could not
 * decide: unknown, with the runs that would.
 */
static void not_significant(const struct comparison *c,
			    const struct cmp_side *a, const struct cmp_side *b,
			    struct cmp_vs *vs, struct z_cache *zc)
{
	int samples = a->source == SIDE_SAMPLES && b->source == SIDE_SAMPLES;

	vs->runs_needed = 0;
	if (samples && identical(a, b)) {
		vs->verdict = CMP_UNCHANGED;
	} else if (isfinite(vs->ci_low_pct) && isfinite(vs->ci_high_pct) &&
		   vs->ci_low_pct >= -c->opts.min_change_pct &&
		   vs->ci_high_pct <= c->opts.min_change_pct) {
		vs->verdict = CMP_UNCHANGED;
	} else {
		vs->verdict = CMP_UNKNOWN;
		if (samples)
			vs->runs_needed = runs_needed(a, b, vs->need_p, zc);
	}
}

/* Significance and verdict of variant v (>= 1) on row r. */
static void verdict(const struct comparison *c, struct cmp_row *r, size_t v,
		    struct z_cache *zc)
{
	const struct cmp_side *a = &r->side[0], *b = &r->side[v];
	struct cmp_vs *vs = &r->vs[v - 1];

	if (significance(c, b, vs))
		return;
	if (!isfinite(a->mean) || !isfinite(b->mean)) {
		vs->verdict = CMP_UNKNOWN;
		return;
	}
	if (!vs->significant) {
		not_significant(c, a, b, vs, zc);
		return;
	}
	/*
	 * --min-change is a bound on noise; an exact metric has none: a
	 * 300-byte growth of a kernel's text is a change.
	 */
	if (!vs->exact_decided && isfinite(vs->change_pct) &&
	    fabs(vs->change_pct) < c->opts.min_change_pct) {
		vs->verdict = CMP_UNCHANGED;
		return;
	}
	/* the sign of the difference: the % change is NAN from a zero base */
	if (b->mean == a->mean)
		vs->verdict = CMP_UNKNOWN;
	else if (r->direction == DIR_UNKNOWN)
		vs->verdict = CMP_CHANGED;
	else if ((b->mean < a->mean) == (r->direction == DIR_HIGHER))
		vs->verdict = CMP_REGRESSION;
	else
		vs->verdict = CMP_IMPROVEMENT;
}

/*
 * Number the families: the rows of one group (testcase, params, machine)
 * whose names share the first component, the benchmark's headline
 * results (metric_is_kpi()) apart from its other rows: fio's bandwidth
 * and IOPS are one family, fio's other rows another, each monitor
 * (proc-vmstat.*, meminfo.*, zoneinfo.*) its own.  Returns the number of
 * families; each row's number is in r->family.
 */
static unsigned number_families(struct comparison *c)
{
	struct strmap ids = STRMAP_INIT;
	struct sbuf key = SBUF_INIT, last = SBUF_INIT;
	unsigned nr = 0;
	size_t i;

	for (i = 0; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];
		const char *dot = strchr(r->metric, '.');
		int64_t id;

		sbuf_reset(&key);
		sbuf_add(&key, &r->group_rank, sizeof(r->group_rank));
		sbuf_add(&key, r->metric, dot ? (size_t)(dot - r->metric) :
						 strlen(r->metric));
		/* the rows the loader did not digest (aggregates) */
		if (r->kpi < 0)
			r->kpi = (signed char)metric_is_kpi(r->metric);
		if (r->kpi)
			sbuf_addstr(&key, "\x1fkpi");
		/* sorted rows: a family's rows mostly follow each other */
		if (i && key.len == last.len &&
		    !memcmp(key.buf, last.buf, key.len)) {
			r->family = c->rows[i - 1].family;
			continue;
		}
		id = nr;
		if (!strmap_get_or_put(&ids, key.buf, key.len, &id))
			nr++;
		r->family = (unsigned)id;
		sbuf_reset(&last);
		sbuf_add(&last, key.buf, key.len);
	}
	strmap_clear(&ids);
	sbuf_release(&key);
	sbuf_release(&last);
	return nr;
}

/*
 * Rows of one family whose samples are the same on every side (the same
 * counter under two names, a sum beside its only term) share one test:
 * each later twin points at the first.  The samples are gone by now
 * (digest_row()): rows are the same
 * when their 128-bit hashes of every side's count and samples are (two
 * independent 64-bit hashes; a false match would take some 2^64 rows).
 * The table holds a hash and the row, 12 bytes a slot.
 */
static void find_twins(struct comparison *c)
{
	size_t cap = 64, mask, i, v;
	uint64_t *key;
	uint32_t *row;

	while (cap < 2 * c->nr)
		cap <<= 1;
	mask = cap - 1;
	key = xcalloc(cap, sizeof(*key));	/* 0: empty */
	row = xmalloc(cap * sizeof(*row));
	for (i = 0; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];
		uint64_t h = r->hash[0] | 1;
		size_t k;
		int samples = 1;

		r->dup_of = -1;
		for (v = 0; v < c->nvar; v++)
			if (r->side[v].source != SIDE_SAMPLES)
				samples = 0;
		if (!samples)
			continue;
		for (k = (size_t)h & mask; key[k]; k = (k + 1) & mask) {
			const struct cmp_row *t = &c->rows[row[k]];

			if (key[k] == h && t->hash[1] == r->hash[1] &&
			    t->family == r->family) {
				r->dup_of = (long)row[k];
				break;
			}
		}
		if (!key[k]) {
			key[k] = h;
			row[k] = (uint32_t)i;
		}
	}
	free(key);
	free(row);
}

/*
 * Could this pair be tested at all?  Not when a side is missing, when
 * both hold one and the same constant, when the row is a twin, or when
 * an exact metric decides by its values.  (A test may still give no
 * p-value: n = 1, no spread in a summary.)  Sets the note where it is
 * decided here; 1 when a test is to be run.
 */
static int testable(struct comparison *c, struct cmp_row *r, size_t v)
{
	struct cmp_side *a = &r->side[0], *b = &r->side[v];
	struct cmp_vs *vs = &r->vs[v - 1];

	vs->p = vs->q = vs->p_moderated = NAN;
	vs->method = CMP_NONE;
	if (a->source == SIDE_NONE || b->source == SIDE_NONE) {
		vs->note = "missing on one side";
		return 0;
	}
	if (r->dup_of >= 0)
		return 0;
	if (r->exact && exact_pair(c, a, b, vs))
		return 0;
	if (identical(a, b)) {
		set_note(c, vs, "the same value in every run of both sides: "
			 "not a test");
		return 0;
	}
	return 1;
}

/*
 * One row of the family being tested: whether it is a test, and its
 * log-scale figures (log_pooled), read once for the prior and the
 * moderated t-test.
 */
struct fam_row {
	int test;		/* testable() */
	int logs;		/* log_pooled() gave the figures below */
	size_t na, nb;		/* the sides' runs */
	double diff, s2, d, scale;
};

/*
 * The prior of a family's variances (stats_fit_prior) from its testable
 * rows of positive samples; 0 when it has fewer than
 * CMP_FAMILY_PRIOR_MIN such rows with some spread (then no moderated
 * test in this family).
 */
static int family_prior(const struct fam_row *fr, size_t nr,
			struct stats_prior *prior)
{
	double *s2 = xmalloc((nr + 1) * sizeof(*s2));
	double *d = xmalloc((nr + 1) * sizeof(*d));
	double sum_d = 0, max_d = 0;
	size_t j, m = 0, spread = 0;
	int ok;

	for (j = 0; j < nr; j++) {
		if (!fr[j].test || !fr[j].logs)
			continue;
		s2[m] = fr[j].s2;
		d[m] = fr[j].d;
		if (s2[m] > 0) {
			spread++;
			sum_d += d[m];
			max_d = d[m] > max_d ? d[m] : max_d;
		}
		m++;
	}
	/*
	 * The prior knows no more than the rows it was fitted to: its
	 * degrees of freedom are at most those of every row but one.  (A
	 * family whose variances all agree would have d0 = infinity, a
	 * variance known exactly; from a family of ten rows of 4 runs a
	 * side that makes the test a z-test on an estimated variance, and
	 * too many false discoveries.)
	 */
	ok = spread >= CMP_FAMILY_PRIOR_MIN &&
	     !stats_fit_prior(s2, d, m, sum_d - max_d, prior);
	free(s2);
	free(d);
	return ok;
}

/*
 * Why the row cannot take the moderated t-test (NULL: it can): the
 * family has no prior, a value is not positive (no log), or one side
 * has more than CMP_MODERATED_RUNS_RATIO times the other's runs.
 */
static const char *moderated_refusal(const struct fam_row *fr, int fitted)
{
	size_t lo = fr->na < fr->nb ? fr->na : fr->nb;
	size_t hi = fr->na < fr->nb ? fr->nb : fr->na;

	if (!fr->logs)
		return "a value <= 0 or a summary";
	if (!fitted)
		return "fewer than 10 rows of positive samples with spread "
		       "in the family";
	if (hi > CMP_MODERATED_RUNS_RATIO * lo)
		return "one side has more than twice the other's runs";
	return NULL;
}

/*
 * The test of one row of a family whose prior is fitted (fitted 1):
 * the moderated t-test for --test auto and moderated where the row can
 * take it, else test_pair()'s; with --test moderated, a note names the
 * test that was taken instead and why.  p_moderated is computed
 * wherever it can be (the JSON shows it beside the p reported).
 */
static void family_test(struct comparison *c, struct cmp_row *r, size_t v,
			const struct fam_row *fr, int fitted,
			const struct stats_prior *prior, double need)
{
	struct cmp_vs *vs = &r->vs[v - 1];
	const char *refusal = moderated_refusal(fr, fitted);
	double pm = refusal ? NAN :
		    stats_moderated_t(fr->diff, fr->s2, fr->d, fr->scale,
				      prior, NULL);
	int wanted = c->opts.test == CMP_TEST_AUTO ||
		     c->opts.test == CMP_TEST_MODERATED;

	if (wanted && isfinite(pm)) {
		vs->p = pm;
		vs->q = NAN;
		vs->method = CMP_MODERATED;
		vs->need_p = need;
	} else {
		test_pair(c, &r->side[0], &r->side[v], vs, need);
		if (c->opts.test == CMP_TEST_MODERATED && refusal &&
		    vs->method != CMP_NONE)
			set_note(c, vs, "no moderated t-test (%s): %s's",
				 refusal, cmp_method_name(vs->method));
	}
	vs->p_moderated = pm;
}

/* The changes and their intervals of rows lo..hi (parallel_beside()). */
static void change_rows(void *ctx, size_t lo, size_t hi)
{
	struct comparison *c = ctx;
	size_t i, v;

	for (i = lo; i < hi; i++) {
		struct cmp_row *r = &c->rows[i];

		for (v = 1; v < c->nvar; v++)
			change_and_ci(c, &r->side[0], &r->side[v],
				      &r->vs[v - 1]);
	}
}

/*
 * The family being tested (test_families()): its rows, what each is,
 * and the p-values of its tests.
 */
struct family {
	const size_t *row;	/* borrowed: its rows' indexes, in row order */
	size_t nr;
	struct fam_row *fr;	/* owned: by row */
	double *p, *q;		/* owned: the finite p-values, their q */
	size_t np, alloc_p;
};

/*
 * The rows of each family, in row order: (*order)[(*first)[f] ..
 * (*first)[f + 1]); both new arrays, the caller frees.
 */
static void family_rows(const struct comparison *c, unsigned nr_fam,
			size_t **first, size_t **order)
{
	size_t *fill, i, f;

	*first = xcalloc((size_t)nr_fam + 1, sizeof(**first));
	*order = xmalloc((c->nr + 1) * sizeof(**order));
	for (i = 0; i < c->nr; i++)
		(*first)[c->rows[i].family + 1]++;
	for (f = 0; f < nr_fam; f++)
		(*first)[f + 1] += (*first)[f];
	fill = xmalloc(((size_t)nr_fam + 1) * sizeof(*fill));
	memcpy(fill, *first, ((size_t)nr_fam + 1) * sizeof(*fill));
	for (i = 0; i < c->nr; i++)
		(*order)[fill[c->rows[i].family]++] = i;
	free(fill);
}

/*
 * Each row of the family looked at once for variant v: a test?  its
 * logs (fam->fr).  Returns how many tests.
 */
static size_t family_scan(struct comparison *c, struct family *fam, size_t v)
{
	size_t j, tests = 0;

	for (j = 0; j < fam->nr; j++) {
		struct cmp_row *r = &c->rows[fam->row[j]];
		struct fam_row *x = &fam->fr[j];

		x->test = testable(c, r, v);
		x->logs = x->test && r->vs[v - 1].logs;
		if (x->logs) {
			const struct cmp_vs *d = &r->vs[v - 1];
			size_t na = r->side[0].nv, nb = r->side[v].nv;

			x->diff = d->log_diff;
			x->s2 = d->log_s2;
			x->na = na;
			x->nb = nb;
			x->d = (double)(na + nb - 2);
			x->scale = 1 / (double)na + 1 / (double)nb;
		}
		tests += (size_t)x->test;
	}
	return tests;
}

/*
 * The tests of variant v on the family's rows at level need (the
 * moderated t-test where the family's prior is fitted: one pass over
 * the family for the prior, one for the tests); their finite p-values
 * into fam->p.
 */
static void family_tests(struct comparison *c, struct family *fam, size_t v,
			 double need)
{
	struct stats_prior prior;
	int fitted = family_prior(fam->fr, fam->nr, &prior);
	size_t j;

	fam->np = 0;
	for (j = 0; j < fam->nr; j++) {
		struct cmp_row *r = &c->rows[fam->row[j]];
		struct cmp_vs *vs = &r->vs[v - 1];

		vs->need_p = need;
		if (!fam->fr[j].test)
			continue;
		family_test(c, r, v, &fam->fr[j], fitted, &prior, need);
		if (isfinite(vs->p)) {
			ALLOC_GROW(fam->p, fam->np + 1, fam->alloc_p);
			fam->p[fam->np++] = vs->p;
		}
	}
}

/* The q-values of the family's tests of variant v; 0, or -1 after error(). */
static int family_q(struct comparison *c, struct family *fam, size_t v)
{
	size_t j, k = 0;

	fam->q = xrealloc(fam->q, (fam->np + 1) * sizeof(*fam->q));
	if (c->opts.fdr && stats_bh(fam->p, fam->np, fam->q))
		return error("out of memory computing q-values");
	for (j = 0; j < fam->nr; j++) {
		struct cmp_row *r = &c->rows[fam->row[j]];
		struct cmp_vs *vs = &r->vs[v - 1];

		if (r->dup_of < 0 && isfinite(vs->p))
			vs->q = c->opts.fdr ? fam->q[k++] : vs->p;
	}
	return 0;
}

/* Each twin of the family takes its first twin's test of variant v. */
static void family_twins(struct comparison *c, const struct family *fam,
			 size_t v)
{
	size_t j;

	for (j = 0; j < fam->nr; j++) {
		struct cmp_row *r = &c->rows[fam->row[j]];
		const struct cmp_vs *t;
		struct cmp_vs *vs;

		if (r->dup_of < 0)
			continue;
		t = &c->rows[r->dup_of].vs[v - 1];
		vs = &r->vs[v - 1];
		vs->p = t->p;
		vs->p_moderated = t->p_moderated;
		vs->q = t->q;
		vs->method = t->method;
		vs->note = t->note;
		vs->exact_decided = t->exact_decided;
		vs->exact_changed = t->exact_changed;
	}
}

/*
 * Families, twins, and each family's tests and q-values (its p-values
 * controlled together); needs each row's sides finished, not its
 * intervals.
 */
static int test_families(struct comparison *c)
{
	struct family fam = { 0 };
	size_t *first, *order, f, v;
	unsigned nr_fam;
	int ret = 0;

	nr_fam = number_families(c);
	find_twins(c);
	family_rows(c, nr_fam, &first, &order);
	/* one family at a time: its tests, and their FDR among themselves */
	for (f = 0; f < nr_fam && !ret; f++) {
		fam.row = order + first[f];
		fam.nr = first[f + 1] - first[f];
		fam.fr = xrealloc(fam.fr, (fam.nr + 1) * sizeof(*fam.fr));
		for (v = 1; v < c->nvar && !ret; v++) {
			size_t tests = family_scan(c, &fam, v);
			double need = c->opts.fdr && tests ?
					      c->opts.alpha / (double)tests :
					      c->opts.alpha;

			family_tests(c, &fam, v, need);
			if (!c->opts.defer)
				ret = family_q(c, &fam, v);
			if (!ret)
				family_twins(c, &fam, v);
		}
	}
	free(first);
	free(order);
	free(fam.fr);
	free(fam.p);
	free(fam.q);
	return ret;
}

/* test_families() for parallel_beside() */
struct families_job {
	struct comparison *c;
	int ret;
};

static void families_job(void *arg)
{
	struct families_job *j = arg;

	j->ret = test_families(j->c);
}

/* Rows of changes and intervals the second core takes at a time */
#define CHANGE_ROWS_GRAIN 256

/*
 * Every row's sides (finish_side()), then its tests by family while a
 * second core takes the changes and their intervals (the Fieller
 * interval's t quantile is the longest part): the two write different
 * fields of each row's comparisons.
 */
static int compute(struct comparison *c)
{
	struct families_job job = { c, 0 };
	size_t i, v;

	for (i = 0; i < c->nr; i++)
		for (v = 0; v < c->nvar; v++)
			finish_side(&c->rows[i].side[v]);
	parallel_beside(c->nr, CHANGE_ROWS_GRAIN, change_rows, c, families_job,
			&job);
	return job.ret;
}

static int any_glob(const struct strlist *l, const char *s)
{
	size_t i;

	if (!l->nr)
		return 1;
	for (i = 0; i < l->nr; i++)
		if (glob_match(l->v[i], s))
			return 1;
	return 0;
}

/*
 * Keep the rows the filters show (--testcase, --metric), after every
 * row was tested: the filters choose what is printed, not what counts.
 */
static void filter_rows(struct comparison *c)
{
	size_t i, out = 0;

	for (i = 0; i < c->nr; i++) {
		struct cmp_row *r = &c->rows[i];

		if (any_glob(&c->opts.metric_globs, r->metric))
			c->rows[out++] = *r;
		else
			cmp_row_release(c, r);
	}
	c->nr = out;
}

/*
 * The note of a row whose change more runs would decide: one of a few
 * hundred texts over thousands of rows, looked up by its number before
 * any text is formatted.
 */
static void note_runs_needed(struct comparison *c, struct cmp_vs *vs)
{
	static const char head[] = "not significant: about ";
	static const char tail[] = " runs per side would decide a change "
				   "of this size";
	char buf[sizeof(head) + 20 + sizeof(tail)], digits[20];
	unsigned long n = (unsigned long)vs->runs_needed, r;
	size_t nd = 0, len = sizeof(head) - 1;
	int64_t i;

	/* most counts are small: by index, not by a hash */
	if (n < NOTE_RUNS_DIRECT) {
		if (!c->note_of_runs)
			c->note_of_runs = xcalloc(NOTE_RUNS_DIRECT,
						  sizeof(*c->note_of_runs));
		if (c->note_of_runs[n]) {
			vs->note = c->notes[c->note_of_runs[n] - 1];
			return;
		}
	} else if (strmap_get(&c->note_by_runs,
			      (const char *)&vs->runs_needed,
			      sizeof(vs->runs_needed), &i)) {
		vs->note = c->notes[i];
		return;
	}
	/* thousands of distinct counts: no printf for each */
	for (r = n; nd == 0 || r; r /= 10)
		digits[nd++] = (char)('0' + r % 10);
	memcpy(buf, head, len);
	while (nd)
		buf[len++] = digits[--nd];
	memcpy(buf + len, tail, sizeof(tail) - 1);
	len += sizeof(tail) - 1;
	/* no other note reads so: its text needs no lookup */
	i = add_note(c, vs, buf, len);
	if (n < NOTE_RUNS_DIRECT)
		c->note_of_runs[n] = (uint32_t)i + 1;
	else
		strmap_put(&c->note_by_runs, (const char *)&vs->runs_needed,
			   sizeof(vs->runs_needed), i);
}

/* verdict() over rows [lo, hi), and their counts, for parallel_halves() */
struct decide_job {
	struct comparison *c;
	/* each half's counts on cache lines of its own (PARALLEL_ALIGN) */
	struct decide_half {
		_Alignas(PARALLEL_ALIGN) long tests;
		long regressions, improvements, changed, unknown;
		struct z_cache zc;
	} half[2];
};

static void decide_rows(void *ctx, size_t lo, size_t hi)
{
	struct decide_job *job = ctx;
	struct comparison *c = job->c;
	struct decide_half *h = &job->half[lo != 0];
	size_t i, v;

	h->zc.need = -1;
	for (i = lo; i < hi; i++) {
		for (v = 1; v < c->nvar; v++) {
			struct cmp_vs *vs = &c->rows[i].vs[v - 1];

			verdict(c, &c->rows[i], v, &h->zc);
			h->tests += isfinite(vs->p);
			h->regressions += vs->verdict == CMP_REGRESSION;
			h->improvements += vs->verdict == CMP_IMPROVEMENT;
			h->unknown += vs->verdict == CMP_UNKNOWN;
			h->changed += vs->verdict == CMP_CHANGED;
		}
	}
}

void compare_decide(struct comparison *c)
{
	struct decide_job job = { .c = c };
	size_t i, v, k;

	parallel_halves(c->nr, decide_rows, &job);
	c->nr_tests = c->nr_regressions = c->nr_improvements = 0;
	c->nr_changed = c->nr_unknown = 0;
	for (k = 0; k < 2; k++) {
		c->nr_tests += job.half[k].tests;
		c->nr_regressions += job.half[k].regressions;
		c->nr_improvements += job.half[k].improvements;
		c->nr_changed += job.half[k].changed;
		c->nr_unknown += job.half[k].unknown;
	}
	/* the notes are interned, in row order, by one thread */
	for (i = 0; i < c->nr; i++)
		for (v = 1; v < c->nvar; v++) {
			struct cmp_vs *vs = &c->rows[i].vs[v - 1];

			if (vs->change_na)
				set_note(c, vs, "change n/a: %s",
					 "the ratio of the means overflows "
					 "a double");
			else if (vs->runs_needed > 0 && !vs->note)
				note_runs_needed(c, vs);
		}
	/* the notes are interned: their maps go before the output */
	strmap_clear(&c->note_index);
	strmap_clear(&c->note_by_runs);
	free(c->note_of_runs);
	c->note_of_runs = NULL;
}

int compare_variants(struct db *db, struct selector *var, size_t nvar,
		     const struct cmp_opts *opts, struct comparison *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	out->var = var;
	out->nvar = nvar;
	out->opts = *opts;
	out->mwu_need_n = stats_mwu_min_n(opts->alpha);
	if (!opts->ci_tq)
		stats_tq_init(&out->ci_tq_own, 1.0 - opts->alpha);
	ret = cmp_load(db, out, digest_tests);
	if (!ret)
		ret = compute(out);
	if (!ret && !opts->defer) {
		filter_rows(out);
		compare_decide(out);
	}
	/* a comparison that failed holds nothing for its caller */
	if (ret)
		comparison_release(out);
	return ret;
}

int cmp_row_interesting(const struct comparison *c, const struct cmp_row *r)
{
	size_t v;

	for (v = 1; v < c->nvar; v++) {
		const struct cmp_vs *vs = &r->vs[v - 1];

		if (vs->significant && vs->verdict != CMP_UNCHANGED)
			return 1;
	}
	return 0;
}

void comparison_release(struct comparison *c)
{
	free(c->notes);		/* the texts are in the pool */
	strmap_clear(&c->note_index);
	strmap_clear(&c->note_by_runs);
	free(c->note_of_runs);
	cmp_load_release(c);
	memset(c, 0, sizeof(*c));
}
