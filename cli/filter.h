#ifndef FILTER_H
#define FILTER_H
/*
 * The filter options of the listing commands runs and metrics: --label,
 * --kernel, --commit (one variant), --machine, --testcase GLOB, --suite.
 */
#include "store/query.h"
#include "options.h"

struct cli_filter {
	struct run_filter f;
	enum dim dim;		/* DIM_AUTO: no variant selected */
	const char *sel_text;
	struct selector sel;	/* resolved */
};

/* --label, --kernel, --commit: value is the struct cli_filter */
int opt_filter_variant(const struct opt *o, const char *arg, void *value);

/* The filters, under their heading: T's m is a struct cli_filter. */
#define OPT_FILTERS(T, m) \
	OPT_GROUP("Filters:"), \
	OPT_CALLBACK(0, "label", T, m, "L", "runs of the variant labelled L", \
		     opt_filter_variant, DIM_LABEL), \
	OPT_CALLBACK(0, "kernel", T, m, "K", "runs of kernel K", \
		     opt_filter_variant, DIM_KERNEL), \
	OPT_CALLBACK(0, "commit", T, m, "SHA", \
		     "runs of the commit (a unique prefix will do)", \
		     opt_filter_variant, DIM_COMMIT), \
	OPT_MACHINE(T, m.f.machine), \
	OPT_TESTCASE(T, m.f.testcase), \
	OPT_STRING(0, "suite", T, m.f.suite, "S", \
		   "runs imported as suite S (fio, csv, ...)")

void cli_filter_init(struct cli_filter *cf);
/* Was any filter given? */
int cli_filter_given(const struct cli_filter *cf);
/* Resolve the variant; on failure sets *status and returns -1. */
int cli_filter_resolve(struct cli_filter *cf, struct db *db, int *status);
void cli_filter_release(struct cli_filter *cf);

#endif
