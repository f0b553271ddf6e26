#ifndef MMTESTS_EXTRACT_H
#define MMTESTS_EXTRACT_H
/*
 * MMTests benchmark extractors: one file per benchmark family in
 * importers/mmtests/, one row each in the table of registry.c.  An
 * extractor reads the logs of one test of one iteration
 * (work/log/<run>/iter-N/<test>/logs/) and reports what the MMTests that
 * wrote them extracted: its operation names, in its order, and its
 * samples (research/mmtests-2020-extractors.md: rev 345f82be, 2020).
 *
 * It reports through struct mmx (mmtests-tree.c): the tree importer
 * stores the values, `perfsift debug mmtests-extract` prints them.
 *
 * Where a value lands:
 * - rep >= 1: the benchmark's own repetition number (blogbench-N.log,
 *   kernbench's time-T-N, unixbench's W-T-N.log): each repetition is a
 *   run of its variant, so perfsift's tests see them as runs;
 * - rep 0: the iteration as a whole (one run for the iteration);
 * - t NAN: the run's one value of op (a second one is an error);
 * - t finite: one observation among many in that run (pgbench's 4-second
 *   windows at t seconds, thpscale's faults, ebizzy's threads): kept as a
 *   series, reduced to its mean for perfsift's tests, and pooled as
 *   MMTests pools them for its statistics.
 */
#include <math.h>
#include <stdio.h>
#include "core/input.h"

struct mmx;

/* How MMTests summarises the operations (its Summarise*.pm). */
enum mmx_summary {
	MMX_MULTIOPS,		/* Min, mean, Stddev, CoeffVar, Max, B*mean-N */
	MMX_SINGLEOPS,		/* one row "LABEL op": the best pooled value */
	MMX_SINGLEOPS_MEAN,	/* one row: the mean of the pooled values
				 * (stream averages its runs into one) */
};

struct mmtests_extractor {
	/*
	 * MMTests' module name.  A test is matched by its whole name
	 * ("sembench-futex"), then with trailing "-word"s stripped one by
	 * one ("unixbench-pipe" -> "unixbench"), as ExtractFactory does.
	 */
	const char *name;
	const char *what;	/* one line for `perfsift help import` */
	enum mmx_summary summary;
	const char *label;	/* Singleops: the row label ("Lat") */
	/*
	 * DIR_HIGHER or DIR_LOWER, as MMTests' data type for the module
	 * says (research/mmtests-2020-extractors.md §0.3); mmx_op() may
	 * state another for one operation.
	 */
	int direction;
	const char *unit;	/* of the values: "usec", "Mbps", NULL */
	/* Read the test's logs; 0, or -1 after error("path:line: ...") */
	int (*extract)(struct mmx *x);
};

/* A file of the test's logs/ directory. */
struct mmx_file {
	const char *name;	/* relative to logs/, without ".gz" */
	const char *path;	/* the file to open: X.gz if it exists,
				 * else X (MMTests opens gz first) */
};

/* The test's name ("unixbench-pipe", "pgbench"). */
const char *mmx_test(const struct mmx *x);
/*
 * The files of logs/ whose name matches the fnmatch(3) glob, sorted by
 * name byte by byte (MMTests' lexical glob: -1, -10, -2); *out is valid
 * until the next call.  Returns how many.
 */
size_t mmx_glob(struct mmx *x, const char *glob,
		const struct mmx_file *const **out);
/* The file called name (without .gz), or NULL. */
const struct mmx_file *mmx_find(struct mmx *x, const char *name);
/*
 * Open a file to read it with input_getline() (gzip undone); it becomes
 * the provenance of the values that follow.  Close it with mmx_close().
 * Both 0 or -1 after error().
 */
int mmx_open(struct mmx *x, const struct mmx_file *f, struct input *in);
int mmx_close(struct mmx *x, const struct mmx_file *f, struct input *in);
/*
 * Declare an operation, in MMTests' order (it prints them in the order
 * they were first declared or added); direction 0 takes the
 * extractor's.  0 or -1.
 */
int mmx_op(struct mmx *x, const char *op, int direction);
/* One value of op (see the top of this file).  0 or -1 after error(). */
int mmx_add(struct mmx *x, const char *op, long rep, double t, double value,
	    long line);
/* A warning "path:line: text" about the file being read; counted. */
void mmx_warn(struct mmx *x, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- shared by extractors (common.c) ---- */

/* A string as Perl's <=> reads it: its leading decimal number, else 0. */
double mmx_perl_num(const char *s);
/*
 * A factor of the operations (thread count, size, group) as a file name
 * spells it: text owned (or NULL), f borrowed (or NULL), num its Perl
 * number, pos the order it was found in.
 */
struct mmx_factor {
	char *text;
	const struct mmx_file *f;
	double num;
	size_t pos;
};
/*
 * Sort as MMTests' sort { $a <=> $b } (ties keep pos); with uniq, drop
 * (and free) a later one whose text equals an earlier one's, as its
 * uniq().  Returns how many are kept.
 */
size_t mmx_sort_factors(struct mmx_factor *v, size_t n, int uniq);
void mmx_factors_free(struct mmx_factor *v, size_t n);
/*
 * The repetition N of a file name "...-N<suffix>" ("blogbench-3.log",
 * "tcp-14-max-10.stdout"), else fallback (the file's place in its glob).
 */
long mmx_rep_of(const char *name, const char *suffix, long fallback);
/*
 * The workloads of logs/workloads' first line, split on single spaces
 * as MMTests splits it (empty words left out); without the file (MMTests
 * dies) the test's name after prefix ("sembench-futex" -> futex), with
 * a warning.  *out and its strings owned by the caller.  0 or -1.
 */
int mmx_workloads(struct mmx *x, const char *prefix, char ***out, size_t *nr);

/*
 * perfsift debug mmtests-extract: run the extractor of test (NULL: the
 * directory's name) on dir (iter-N/<test> or its logs/) and print each
 * value as "op<TAB>rep<TAB>t<TAB>value<TAB>file:line" ('-' for no t),
 * then "# ops: " and the operations in order with their direction.
 * 0 or -1 after error().
 */
int mmtests_extract_print(const char *dir, const char *test, FILE *out);

/* The registry (registry.c). */
const struct mmtests_extractor *mmtests_extractors(size_t *nr);
/* The extractor for a test name, by MMTests' stripping rule; or NULL. */
const struct mmtests_extractor *mmtests_extractor_for(const char *test);

#endif
