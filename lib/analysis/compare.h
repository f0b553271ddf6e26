#ifndef COMPARE_H
#define COMPARE_H
/*
 * The comparison engine: loads the values of two or more variants from
 * the database, lines them up row by row (testcase, params, machine,
 * metric), and for every new variant against the base computes the %
 * change with its confidence interval, a p-value (Welch or Mann-Whitney
 * U; Welch from summaries for aggregates), Benjamini-Hochberg q-values
 * across the whole comparison, and a direction-aware verdict.
 *
 * The loader (load.h: load.c, load-metrics.c, load-samples.c) reads
 * the rows; the analysis (compare.c) tests and decides.  Formatting
 * lives in output/compare-fmt.c.
 */
#include <stddef.h>
#include <stdint.h>
#include "store/db.h"
#include "store/query.h"
#include "stats/stats.h"

enum cmp_test {
	CMP_TEST_AUTO, CMP_TEST_WELCH, CMP_TEST_MWU, CMP_TEST_MODERATED,
};
/* What gave the p-value reported (the JSON "test" field). */
enum cmp_method { CMP_NONE, CMP_WELCH, CMP_MWU, CMP_SOURCE, CMP_MODERATED };
/*
 * CMP_CHANGED: a significant change of a metric whose direction is not
 * known (its sign is the change's); CMP_UNKNOWN: these runs cannot
 * decide (runs_needed says how many would).
 */
enum cmp_verdict {
	CMP_UNCHANGED, CMP_REGRESSION, CMP_IMPROVEMENT, CMP_UNKNOWN,
	CMP_CHANGED,
};

struct cmp_metrics;

struct cmp_opts {
	enum dim dim;			/* --by; DIM_AUTO: per selector */
	const char *param;		/* the NAME of param:NAME */
	/*
	 * Which rows are shown (any glob of each list; empty: all).
	 * --metric chooses rows, not tests: every row of the variants is
	 * tested and counted in its family's FDR, so a row's answer does
	 * not depend on which others were filtered away.  --testcase
	 * chooses what is loaded: families never span testcases, so that
	 * changes no answer either.
	 */
	struct strlist testcase_globs, metric_globs;
	const char *machine;
	/* params left out when rows are lined up ("*": all of them) */
	struct strlist ignore_params;
	enum cmp_test test;
	double alpha;			/* default 0.05 */
	int fdr;			/* 1: Benjamini-Hochberg, 0: none */
	/*
	 * The smallest change that matters, in %: a significant change
	 * below it is "unchanged", and a row without a significant change
	 * is "unchanged" only when its interval lies within ±this (else
	 * "unknown").  Default CMP_MIN_CHANGE_PCT.
	 */
	double min_change_pct;
	int defer;			/* stop after p-values: the caller
					 * sets q and calls compare_decide() */
	/*
	 * Load what MMTests' statistics need (--format mmtests): each
	 * side's pool of MMTests samples (cmp_side.mm) and the metrics'
	 * order in the base's imports (cmp_row.position).
	 */
	int mm_pool;
	/*
	 * The MMTests version whose tables --format mmtests prints for
	 * metrics MMTests summarises: 2020 (rev 345f82be, which wrote the
	 * logs our extractors read) or 2026 (current); 0: 2020.
	 */
	int mm_style;
	/*
	 * Keep every row's samples (cmp_side.v) after the tests: the
	 * charts draw each run.  Without it compare reads the samples a
	 * range of metrics at a time and keeps of them only what the tests
	 * and the tables use (the digest in cmp_side and cmp_vs), so that
	 * its memory is its rows' whatever the number of samples.
	 */
	int keep_samples;
	/*
	 * Shared per command (regressions runs one comparison per pair):
	 * the metrics table, its directions and natural order as
	 * cmp_metrics_load() read them once; NULL: each comparison reads
	 * its own.  Borrowed; must outlive the comparisons, whose rows
	 * borrow its names.
	 */
	const struct cmp_metrics *metrics;
	/*
	 * The t quantiles of the intervals (stats_tq_init() at 1 - alpha),
	 * for many comparisons at one alpha; NULL: each comparison builds
	 * its own (about 130 quantiles).  Borrowed.
	 */
	const struct stats_tq *ci_tq;
	/*
	 * Leave the confidence intervals of the change to compare_row_ci()
	 * (NAN until then): a caller that shows a few rows of many
	 * comparisons computes them for those rows only.  The verdicts of
	 * rows without their interval are not to be trusted.
	 */
	int ci_later;
};
#define CMP_MIN_CHANGE_PCT 1.0
/*
 * Samples compare holds at once without keep_samples: the metrics of
 * one range times every run (2 MiB of values).  $PERFSIFT_CMP_CHUNK
 * sets it (tests: the answers must not depend on it).
 */
#define CMP_CHUNK_SAMPLES ((size_t)1 << 18)
/*
 * --test auto takes the U test when its smallest p-value is this many
 * times below the level its family needs (finer steps than that lose
 * little power to Welch's t; coarser ones a lot).
 */
#define CMP_MWU_GRID 4.0
/* runs_needed counts whose note is found by index (struct comparison) */
#define NOTE_RUNS_DIRECT 4096
/*
 * Rows of a family with positive samples and some spread needed to fit
 * the prior of its variances (the moderated t-test).
 */
#define CMP_FAMILY_PRIOR_MIN 10
/*
 * The moderated t-test pools a row's two sides into one variance: it is
 * taken only when neither side has more than this many times the other's
 * runs (else the pooled variance is one side's, and Welch's t, which
 * keeps them apart, is the test).
 */
#define CMP_MODERATED_RUNS_RATIO 2
/*
 * The memory one comparison's rows and samples may take (estimated as
 * they are loaded): past it compare stops with a clear error rather than
 * grow past 64 MiB (the estimate counts what a row costs after the
 * loading too, and the metrics read, and leaves out the process,
 * SQLite's 1 MiB cache and the output's buffers).  The peaks it allows
 * and those of the comparisons it refuses: docs/performance.md.
 */
#define CMP_MEM_BUDGET ((size_t)44 << 20)
#define CMP_OPTS_INIT { .dim = DIM_AUTO, .test = CMP_TEST_AUTO, \
			.alpha = 0.05, .fdr = 1, \
			.min_change_pct = CMP_MIN_CHANGE_PCT }

/* One statistic as an imported summary gave it ("Min", 5181.70). */
struct agg_stat {
	const char *stat;	/* borrowed: comparison pool */
	double value;
	long n;			/* -1: not known */
	const char *marker;	/* as printed ("*"); NULL if none */
	/* the change its table printed against the column change_base
	 * (borrowed, NULL if none): what a reprint shows */
	const char *change_source, *change_base;
};

/*
 * What only some sides have (cmp_side.extra): the figures an imported
 * aggregate printed, and MMTests' pool of samples.  Kept out of the
 * side itself: 20,000 rows' sides are written while they are loaded,
 * and each byte of them is memory the kernel must zero first.
 */
struct cmp_extra {
	const char *stat;	/* aggregate: "Amean", ...; borrowed pool */
	const char *sd_kind;	/* aggregate: sample|population|relative|
				 * at-most-relative */
	double sd_source;	/* aggregate: the spread as printed (18 for
				 * "± 18%"); NAN if none */
	const char *change_source;	/* aggregate: the change its table
					 * printed ("-6.0%", "-0.0") against
					 * the column change_base (a commit or
					 * label); both borrowed, NULL if none */
	const char *change_base;
	const char *marker;	/* aggregate: the source's marker */
	/*
	 * With opts.mm_pool, for a metric MMTests summarises: the samples
	 * MMTests pools (the runs' own values and every observation of
	 * their series), owned; else empty.
	 */
	double *mm;
	size_t nmm, alloc_mm;
	struct agg_stat *stats;	/* owned: every imported statistic of
				 * this side, in import order (Min, Amean,
				 * Stddev, ... of an MMTests table) */
	size_t nr_stats, alloc_stats;
};

/* One variant's values on one row. */
struct cmp_side {
	enum { SIDE_NONE, SIDE_SAMPLES, SIDE_AGGREGATE } source;
	double *v;		/* owned: the samples; NULL once digested
				 * unless opts.keep_samples */
	size_t nv, alloc;	/* nv stays: the number of samples */
	/*
	 * The digest of the samples, taken while they were loaded (with
	 * sum: the moments; constant when sum.min == sum.max)
	 */
	double mm_sd, mm_bmean;	/* MMTests' Stddev (HStddev for a higher-
				 * is-better metric) and B*mean-95, with
				 * the row's direction (opts.mm_pool) */
	double plain_mean;	/* the sum in order over n, as lkp's
				 * ncompare computes a mean */
	/* from samples: stats_moments(); from an aggregate: mean, sd */
	struct stats_moments sum;
	long n;			/* -1: not known (aggregate) */
	double mean;
	double sd;		/* sample sd (n-1) for samples; for an
				 * aggregate what the source gave, absolute */
	double sd_sample;	/* n-1 sd usable for Welch; NAN if none */
	struct cmp_extra *extra;	/* owned; NULL: none (cmp_extra()) */
};

/* The side's extra figures, or an empty set (every field 0 or NULL). */
extern const struct cmp_extra cmp_no_extra;
static inline const struct cmp_extra *cmp_extra(const struct cmp_side *s)
{
	return s->extra ? s->extra : &cmp_no_extra;
}

/* What cmp_vs.mwu_ok says of mwu_p */
enum cmp_mwu_state {
	CMP_MWU_NONE,		/* no U test */
	CMP_MWU_P,		/* the U test's p */
	CMP_MWU_U,		/* U itself: the exact p is not counted yet
				 * (stats_mwu_deferred()) */
};

/* One new variant against the base, on one row. */
struct cmp_vs {
	double change_pct;	/* NAN: cannot be computed */
	int change_na;		/* NAN because the ratio of the means
				 * overflows a double: printed "n/a" */
	double ci_low_pct, ci_high_pct;	/* Fieller, level 1 - alpha */
	double p, q;		/* NAN: none; p is the p-value of the test
				 * named by method, the one BH and the
				 * verdict use */
	double p_moderated;	/* the moderated t-test's p, where the
				 * family has a prior; NAN: none */
	enum cmp_method method;
	int significant;	/* q (or p with fdr none) < alpha; for an
				 * exact metric: the values differ */
	int exact_decided;	/* an exact metric constant on both sides:
				 * its values decide, no test */
	int exact_changed;	/* then: the two values differ */
	double need_p;		/* the level a p-value must reach in its
				 * family for the first discovery */
	long runs_needed;	/* > 0: runs per side that would decide the
				 * observed change (when not significant) */
	enum cmp_verdict verdict;
	/*
	 * The digest of both sides' samples (when both are samples),
	 * taken while they were loaded: the tests' results on them, and
	 * the log-scale figures of the moderated t-test.
	 */
	signed char welch_ok;	/* that test gave its p */
	signed char mwu_ok;	/* enum cmp_mwu_state */
	signed char logs;		/* log figures below (log_pooled) */
	const char *note;	/* borrowed: interned in the comparison */
	double welch_p, mwu_p;
	double log_diff, log_s2;	/* d and scale follow from the n's */
};

/*
 * A significant change that counts: a regression, an improvement, or a
 * change of a metric whose direction is not known.
 */
static inline int cmp_vs_changed(const struct cmp_vs *vs)
{
	return vs->significant && (vs->verdict == CMP_REGRESSION ||
				   vs->verdict == CMP_IMPROVEMENT ||
				   vs->verdict == CMP_CHANGED);
}

struct cmp_row {
	const char *testcase, *params, *machine;	/* borrowed: pool */
	const char *metric, *unit;		/* borrowed: metric pool */
	int direction;
	int exact;		/* the metric's kind is exact (code size) */
	const char *summary;	/* how MMTests summarises the metric, as its
				 * importer stated (schema 0005), or NULL */
	long position;		/* with opts.mm_pool: its place in the base's
				 * imports' order; -1 none */
	unsigned family;	/* rows of one family share a number: same
				 * group, same first component of the name */
	signed char kpi;	/* metric_is_kpi(metric); -1 not known yet
				 * (private) */
	long dup_of;		/* >= 0: the row with the same values, whose
				 * test this row shares (not counted twice) */
	unsigned group_rank, metric_rank;	/* sort keys (private) */
	uint64_t hash[2];	/* of every side's samples: twins */
	/*
	 * One block: side[nvar] then vs[nvar - 1], owned by the
	 * comparison's chunks (cmp_chunk), or by the row itself after
	 * comparison_compact()
	 */
	struct cmp_side *side;
	struct cmp_vs *vs;
};

/* Rows' blocks carved from large allocations (load.c row_for()). */
struct cmp_chunk {
	char *base;
	size_t used, size;
	int zeroed;	/* all zero; else each block is zeroed when taken */
};

struct comparison {
	struct selector *var;	/* borrowed: var[0] is the base */
	size_t nvar;
	struct cmp_opts opts;
	struct cmp_row *rows;	/* owned, sorted */
	size_t nr, alloc;
	/* where the rows' side blocks lie; none after comparison_compact() */
	struct cmp_chunk *chunk;
	size_t nr_chunk, alloc_chunk;
	/*
	 * The names, units and aggregate strings rows borrow: copied into
	 * blocks (cmp_pool_addn()), each block owned
	 */
	char **pool;
	size_t nr_pool, alloc_pool;
	size_t pool_used, pool_room;	/* in the newest block */
	char **notes;		/* owned array: the distinct notes, interned
				 * (their texts in the pool) */
	size_t nr_notes, alloc_notes;
	struct strmap note_index;	/* note text -> index in notes */
	struct strmap note_by_runs;	/* runs_needed -> index in notes */
	uint32_t *note_of_runs;	/* owned: for runs_needed below
				 * NOTE_RUNS_DIRECT, its index in notes + 1
				 * (0: none yet) */
	/* counts over all (row, vs) pairs */
	long nr_regressions, nr_improvements, nr_changed, nr_unknown;
	long nr_tests;
	long *runs;		/* owned: runs per variant */
	struct stats_tq ci_tq_own;	/* unless opts.ci_tq */
	size_t mwu_need_n;	/* stats_mwu_min_n(alpha) */
	/*
	 * Sides that were given an array of their own (samples kept, an
	 * MMTests pool, aggregate statistics): while 0, releasing the rows
	 * in chunks frees nothing a row (cmp_load_release())
	 */
	size_t side_arrays;
};

/*
 * Compare var[1..nvar) against var[0].  Returns 0, or -1 after error()
 * (a database error, a damaged blob, the memory budget), with *out
 * released (comparison_release() of it again does nothing).
 */
int compare_variants(struct db *db, struct selector *var, size_t nvar,
		     const struct cmp_opts *opts, struct comparison *out);
void comparison_release(struct comparison *c);
/*
 * Give each row its own side block and free the chunks: for a caller
 * that keeps a few rows of many comparisons (regressions), the rows it
 * dropped no longer hold memory.
 */
void comparison_compact(struct comparison *c);
/* Free what row r owns (its samples and statistics; its block if its own). */
void cmp_row_release(const struct comparison *c, struct cmp_row *r);
/*
 * Turn q-values into significance and verdicts, and count them.  Called
 * by compare_variants() unless opts.defer; a caller that controls the
 * false discovery rate over several comparisons (regressions) sets each
 * vs->q itself first.
 */
void compare_decide(struct comparison *c);

/*
 * Read the metrics table once for many comparisons (cmp_opts.metrics).
 * Returns a new cache to free with cmp_metrics_free(), or NULL after
 * error() (a database error).
 */
struct cmp_metrics *cmp_metrics_load(struct db *db);
void cmp_metrics_free(struct cmp_metrics *m);
/* The interval of the change of every variant on row r (ci_later). */
void compare_row_ci(const struct comparison *c, struct cmp_row *r);

/* Is the row worth showing without --all? */
int cmp_row_interesting(const struct comparison *c, const struct cmp_row *r);

const char *cmp_method_name(enum cmp_method m);
const char *cmp_verdict_name(enum cmp_verdict v);

/*
 * MMTests' percentage (research/mmtests.md §1.4): positive = better.
 * pdiff for higher-is-better, pndiff otherwise (also for spread rows).
 */
double cmp_mmtests_pdiff(double new_v, double base, int higher_better);

#endif
