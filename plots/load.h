#ifndef PLOTS_LOAD_H
#define PLOTS_LOAD_H
/*
 * What `perfsift plot` draws, read from the database into a struct plot
 * (output/plot.h) through lib/store queries and the compare engine.
 */
#include <stdint.h>
#include "output/plot.h"
#include "store/query.h"

/* A variant or a run, as the command line named it. */
struct plot_variant {
	const char *name;		/* borrowed: what the user typed */
	const struct selector *sel;	/* borrowed; NULL for a run: */
	int64_t run_id;			/* run:ID (series only) */
};

struct plot_request {
	enum plot_kind kind;
	const struct plot_variant *var;	/* borrowed */
	size_t nr_var;
	enum dim dim;			/* --by (compare lines rows up along
					 * it) */
	const char *param;		/* the NAME of --by param:NAME */
	const char *metric_glob;	/* NULL: every metric */
	const char *testcase_glob;	/* NULL: any */
	const char *machine;		/* NULL: any */
	const char *x_param;		/* sweep --x NAME; NULL: the metric's
					 * trailing number */
	const char *good, *bad;		/* trend: mark the bisection from
					 * good to bad; NULL: none */
	double alpha;			/* its significance level */
};

/*
 * Fill *out (zeroed first) with what rq asks to draw.  Returns 0; -1
 * after error() when the request cannot be drawn (no data matches, too
 * many metrics or runs, no numeric parameter: the user's to change,
 * exit 2); -2 after error() on a database error (exit 4).  *out is
 * released on failure.
 */
int plot_load(struct db *db, const struct plot_request *rq,
	      struct plot *out);

#endif
