#ifndef MMTESTS_EXTRACT_H
#define MMTESTS_EXTRACT_H
/*
 * MMTests benchmark extractors: one file per benchmark family in
 * importers/mmtests/, each a row of importers/formats.c's table (an
 * IMP_PART of the family "mmtests", named as MMTests' module is, with
 * its struct mmtests_extractor as .part).  An
 * extractor reads the logs of one test of one iteration
 * (work/log/<run>/iter-N/<test>/logs/) and reports what the MMTests that
 * wrote them extracted: its operation names, in its order, and its
 * samples (research/mmtests-2020-extractors.md: rev 345f82be, 2020).
 *
 * It reports through struct mmx (mmtests-sink.c): the tree importer
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
#include "core/strmap.h"
#include "import/importer.h"

struct mmx;

/* How MMTests summarises the operations (its Summarise*.pm). */
enum mmx_summary {
	MMX_MULTIOPS,		/* Min, mean, Stddev, CoeffVar, Max, B*mean-N */
	MMX_SINGLEOPS,		/* one row "LABEL op": the best pooled value */
	MMX_SINGLEOPS_MEAN,	/* one row: the mean of the pooled values
				 * (stream averages its runs into one) */
};

/* An extractor: the .part of its row in the table of formats. */
struct mmtests_extractor {
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

/* One line of a file, as mmx_read() hands it to its reader. */
struct mmx_line {
	const struct mmx_file *f;	/* the file (f->path for messages) */
	long rep;		/* the repetition mmx_read() was given */
	const char *s;		/* the line, without its newline */
	long no;		/* its number, from 1 */
	long first;		/* the first line line() found a value in, or 0 */
};

/* How mmx_read() reads a file: one row per kind of log file. */
struct mmx_reader {
	/*
	 * Read one line: how many values it found (added with mmx_add(),
	 * or kept in data to add once the file is read), or -1 after
	 * error().
	 */
	long (*line)(struct mmx *x, const struct mmx_line *l, void *data);
	/* where line() found nothing: the warning "<name>: <none>", or NULL */
	const char *none;
	int first_only;		/* line 1 only, as MMTests' `$line = <INPUT>` */
};

/*
 * Read f line by line through rd->line(), each line with rep; the reader
 * opens and closes f and reports its read errors.  Returns the sum of
 * what rd->line() returned (the values found), or -1 after error().
 */
long mmx_read(struct mmx *x, const struct mmx_file *f, long rep,
	      const struct mmx_reader *rd, void *data);
/*
 * mmx_read() of each file of logs/ that matches glob, in MMTests'
 * lexical order, each one repetition: mmx_rep_of(its name, suffix, its
 * place from 1).  data is the same for every file: state kept in it
 * lasts from one file to the next.  0 or -1.
 */
int mmx_read_reps(struct mmx *x, const char *glob, const char *suffix,
		  const struct mmx_reader *rd, void *data);

/* A file named by numbers: PREFIX<n>SUFFIX, or PREFIX<n>-<rep>SUFFIX. */
struct mmx_numbered {
	const struct mmx_file *f;
	long n;			/* threads, groups, clients */
	long rep;		/* the repetition, or 0 without one */
	const char *digits;	/* n as the name spells it, len bytes, in f */
	size_t len;
	size_t pos;		/* in the glob: MMTests' lexical order */
};

/* What mmx_numbered() lists: how the files of a test are named. */
struct mmx_names {
	const char *glob;	/* the files MMTests looks at: "time-*" */
	const char *prefix;	/* before n: "time-" */
	const char *suffix;	/* after the last number: ".log" or "" */
	int flags;		/* MMX_NUM_* */
	/* warning "<name>: <other>" for a file of glob not so named */
	const char *other;
	/*
	 * MMTests takes the n from the PREFIX<n>-1 files: the others are
	 * left out with a warning that names them with this word
	 * ("threads"); NULL: every n is read.
	 */
	const char *needs_first;
};
#define MMX_NUM_REP 1		/* PREFIX<n>-<rep>SUFFIX */
#define MMX_NUM_LEXICAL 2	/* one n's reps in lexical order, not rep's */
#define MMX_NUM_GZ 4		/* only files read from X.gz */
#define MMX_NUM_PLAIN 8		/* only files not read from X.gz */

/*
 * The files of logs/ so named (1 to 9 digits a number), sorted by n,
 * then by rep (MMX_NUM_LEXICAL: in lexical order), then by name; *out
 * owned by the caller, free().  Returns how many.
 */
size_t mmx_numbered(struct mmx *x, const struct mmx_names *names,
		    struct mmx_numbered **out);
/* mmx_read() of each of v in order: rep its rep, data its entry.  0/-1. */
int mmx_read_numbered(struct mmx *x, struct mmx_numbered *v, size_t nr,
		      const struct mmx_reader *rd);
/* Declare "<name>-<n>" for each n of v, in v's order.  0 or -1. */
int mmx_op_per_n(struct mmx *x, const char *name,
		 const struct mmx_numbered *v, size_t nr);

/*
 * Values held until their file is read, for a file that may hold several
 * runs' output, which MMTests pools: when some op has more than one
 * value in the file, each goes at t = how many of its op came before it,
 * else at t NAN; rep 0.
 */
struct mmx_pool {
	struct mmx_pooled {
		char *op;	/* owned */
		double value;
		long line;
		long block;	/* values of op before this one */
	} *v;
	size_t nr, alloc;
	struct strmap seen;	/* op -> its values so far */
	long blocks;		/* the most values of one op, at least 1 */
};
#define MMX_POOL_INIT { NULL, 0, 0, STRMAP_INIT, 1 }
/* Hold a value of op; op is taken over (xstrdup'd or xstrfmt'd). */
void mmx_pool_take(struct mmx_pool *p, char *op, double value, long line);
/* mmx_add() of the values held, in their order.  0 or -1. */
int mmx_pool_add(struct mmx *x, const struct mmx_pool *p);
void mmx_pool_release(struct mmx_pool *p);

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
 * One more factor at the end of *v (grown by ALLOC_GROW with *alloc):
 * text taken over (or NULL), num its Perl number (0 without text), pos
 * its place.  Returns it, for the caller to fill in the rest.
 */
struct mmx_factor *mmx_factor_push(struct mmx_factor **v, size_t *nr,
				   size_t *alloc, char *text);
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
 * For the modules that read logs/workloads (sembench, unixbench): the
 * workloads W of its first line, split on single spaces as MMTests
 * splits it (empty words left out; without the file, where MMTests dies,
 * the test's name after prefix, "sembench-futex" -> futex, with a
 * warning); the factors T that the files of each W name, W<tail> the
 * glob, T the last '-' field of the name once strip is cut from its end,
 * sorted and uniq'd as MMTests does; then each(x, W, T, data) for each
 * W, for each T.  0, or -1 when that fails.
 */
int mmx_each_workload(struct mmx *x, const char *prefix, const char *tail,
		      const char *strip,
		      int (*each)(struct mmx *x, const char *w, const char *t,
				  void *data),
		      void *data);

/*
 * perfsift debug mmtests-extract: run the extractor of test (NULL: the
 * directory's name) on dir (iter-N/<test> or its logs/) and print each
 * value as "op<TAB>rep<TAB>t<TAB>value<TAB>file:line" ('-' for no t),
 * then "# ops: " and the operations in order with their direction.
 * 0 or -1 after error().
 */
int mmtests_extract_print(const char *dir, const char *test, FILE *out);

/*
 * The extractor's row for a test name, or NULL.  A test is matched by
 * its whole name ("sembench-futex"), then with trailing "-word"s
 * stripped one by one ("unixbench-pipe" -> "unixbench"), as MMTests'
 * ExtractFactory does.
 */
const struct importer *mmtests_extractor_for(const char *test);

#endif
