#ifndef QUERY_H
#define QUERY_H
/*
 * Reading the database for the listing commands: runs, metrics, and the
 * resolution of selectors (a label, a kernel version, a commit prefix, a
 * machine, a parameter value) into sets of runs and aggregates.
 */
#include <stddef.h>
#include <stdint.h>
#include "store/db.h"

/* A dimension along which variants are told apart (compare --by). */
enum dim {
	DIM_AUTO,	/* label, kernel or commit: whichever matches */
	DIM_LABEL,
	DIM_KERNEL,
	DIM_COMMIT,
	DIM_MACHINE,
	DIM_PARAM,	/* param:NAME */
};

/* One variant: the runs and aggregates whose dim equals value. */
struct selector {
	enum dim dim;
	char *param;	/* owned; the NAME of param:NAME */
	char *value;	/* owned; for commits the full sha */
	char *text;	/* owned; what the user typed */
};

/*
 * Parse "--by" text: label, kernel, commit, machine, param:NAME.
 * Returns 0 or -1 (no message).
 */
int dim_parse(const char *text, enum dim *dim, char **param);
const char *dim_name(enum dim dim);

/*
 * Resolve text along dim (DIM_AUTO tries label, then kernel, then commit
 * prefix, and fails if more than one kind matches different runs).
 * Returns 0; -1 after error() listing the candidates when text is unknown
 * or ambiguous (a usage error: exit 2); -2 on a database error.
 */
int selector_resolve(struct db *db, const char *text, enum dim dim,
		     const char *param, struct selector *out);
void selector_release(struct selector *s);
/* A label for display: the text the user typed. */
const char *selector_label(const struct selector *s);

/* A list of strings given by a repeatable option; borrowed. */
struct strlist {
	const char **v;
	size_t nr, alloc;
};

/* Filters shared by runs/metrics/show/compare; NULL = any. */
struct run_filter {
	const struct selector *sel;	/* the variant */
	const char *testcase;		/* glob */
	const struct strlist *testcases;	/* any of these globs */
	const char *machine;		/* exact */
	const char *suite;		/* exact */
	int64_t run_id;			/* > 0: just this run */
};

struct run_row {
	int64_t id;
	char *suite, *testcase, *params, *machine, *kernel;	/* owned */
	char *commit, *label;		/* owned, may be NULL */
	long iteration;			/* -1: NULL */
	int64_t start_time;		/* 0: NULL */
	long nr_samples;
};

/* Runs in id order.  *rows is new (free with run_rows_free). 0 or -1. */
int query_runs(struct db *db, const struct run_filter *f,
	       struct run_row **rows, size_t *nr);
void run_rows_free(struct run_row *rows, size_t nr);

/* The params of a run as k/v pairs (new strings, caller frees). */
int query_run_params(struct db *db, int64_t run_id, char ***keys,
		     char ***values, size_t *nr);

struct metric_row {
	int64_t id;
	char *name, *unit;	/* owned; unit may be NULL */
	int direction;		/* 1 higher, -1 lower, 0 unknown */
	int kind;		/* enum metric_kind */
	long nr_runs, nr_aggregates;
};

/* Metrics by name, filtered by a metric glob and the run filter. */
int query_metrics(struct db *db, const struct run_filter *f,
		  const char *metric_glob, struct metric_row **rows,
		  size_t *nr);
void metric_rows_free(struct metric_row *rows, size_t nr);

/* One sample of a run (for show). */
struct sample_row {
	int64_t run_id;
	char *metric;		/* owned */
	char *unit;		/* owned, may be NULL */
	double value;
	int derived;		/* 1: reduced from the run's series */
};
/* Samples of the filtered runs, by run id then metric name. */
int query_samples(struct db *db, const struct run_filter *f,
		  const char *metric_glob, struct sample_row **rows,
		  size_t *nr);
void sample_rows_free(struct sample_row *rows, size_t nr);

/* One point of a series (show --series). */
struct series_row {
	int64_t run_id;
	char *metric;		/* owned */
	double t;		/* seconds, as the source gave them */
	double value;
};
/* Points of the filtered runs, by run id, metric name, then time order. */
int query_series(struct db *db, const struct run_filter *f,
		 const char *metric_glob, struct series_row **rows,
		 size_t *nr);
void series_rows_free(struct series_row *rows, size_t nr);
/*
 * A metric's history: each sample of the filtered runs whose variant's
 * commit is recorded (commits import), with that commit's position and
 * subject; by metric, testcase, params, machine, then commit order and
 * run.
 */
struct history_row {
	char *metric, *unit;		/* owned; unit may be NULL */
	int stated;			/* the importer's direction, 0 none */
	char *testcase, *params, *machine;	/* owned */
	char *sha, *subject;		/* owned */
	long position;			/* in the recorded order, 0 oldest */
	int64_t run_id;
	double value;
};
int query_history(struct db *db, const struct run_filter *f,
		  const char *metric_glob, struct history_row **rows,
		  size_t *nr);
void history_rows_free(struct history_row *rows, size_t nr);
/* Do a and b belong to one series (metric, testcase, params, machine)? */
int history_same_series(const struct history_row *a,
			const struct history_row *b);

/*
 * The one commit the variants of sel carry (full or short, as imported),
 * owned in *sha; NULL when they carry none or several.  0 or -1.
 */
int query_variant_commit(struct db *db, const struct selector *sel,
			 char **sha);
/*
 * The mail message the runs and aggregates of sel were imported from
 * (import_meta, schema 0004): its Message-ID, References and Subject
 * (owned; "" when absent).  Returns 1 when exactly one message holds
 * them, 0 when none does or several do (*n_messages says how many: 0,
 * or 2 for "several"), -1 after error().
 */
int query_variant_message(struct db *db, const struct selector *sel,
			  char **msgid, char **refs, char **subject,
			  int *n_messages);
/*
 * The metric a robot's report is about ("kernel test robot noticed a
 * 11.7% regression of M"), as the import of sel's results recorded it
 * (import_meta "headline"), owned in *metric.  1 when exactly one import
 * holds sel's results and names one, else 0 (*metric NULL); -1 after
 * error().
 */
int query_variant_headline(struct db *db, const struct selector *sel,
			   char **metric);

/*
 * The histograms of the filtered runs (schema 0006), as series rows: t
 * is a bin's value, value its count; by metric name, then run, each
 * run's bins ascending.
 */
int query_histograms(struct db *db, const struct run_filter *f,
		     const char *metric_glob, struct series_row **rows,
		     size_t *nr);

/*
 * The WHERE fragments selecting variants (alias v; r for the run's own
 * columns) by the filter, and their binding from index i (returns the
 * next index).  Shared by every query that selects variants, compare's
 * included.  aggregates: the rows are aggregates (no run id).
 */
struct sbuf;
void variant_where(struct sbuf *sql, const struct run_filter *f,
		   int aggregates);
int variant_bind(struct stmt *st, int i, const struct run_filter *f);

struct aggregate_row {
	char *label, *kernel, *commit, *testcase, *params, *machine;
	char *metric, *unit, *stat, *stddev_kind, *marker;
	double value, stddev;	/* stddev: absolute; NAN if not given */
	double stddev_source;	/* as the source printed it (4 for 4%) */
	long n;			/* -1: not known */
};
int query_aggregates(struct db *db, const struct run_filter *f,
		     const char *metric_glob, struct aggregate_row **rows,
		     size_t *nr);
void aggregate_rows_free(struct aggregate_row *rows, size_t nr);

/*
 * The rows skipped (schema 0009) by the imports that gave the filtered
 * variants their aggregates: where, why, and the row as read; in import
 * order.
 */
struct skip_row {
	char *path, *reason, *text;
	long line;
	int message;		/* the message's number in its file; 0 */
};
int query_skips(struct db *db, const struct run_filter *f,
		struct skip_row **rows, size_t *nr);
void skip_rows_free(struct skip_row *rows, size_t nr);

#endif
