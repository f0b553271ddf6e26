#ifndef FILTER_H
#define FILTER_H
/*
 * The filter options shared by the listing commands: --label, --kernel,
 * --commit (one variant), --machine, --testcase GLOB, --suite.
 */
#include "store/query.h"
#include <getopt.h>

enum {
	F_LABEL = 1000, F_KERNEL, F_COMMIT, F_MACHINE, F_TESTCASE, F_SUITE,
	F_JSON,
};

#define FILTER_OPTIONS \
	{ "label", required_argument, NULL, F_LABEL }, \
	{ "kernel", required_argument, NULL, F_KERNEL }, \
	{ "commit", required_argument, NULL, F_COMMIT }, \
	{ "machine", required_argument, NULL, F_MACHINE }, \
	{ "testcase", required_argument, NULL, F_TESTCASE }, \
	{ "suite", required_argument, NULL, F_SUITE }, \
	{ "json", no_argument, NULL, F_JSON }

#define FILTER_USAGE \
	"Filters:", \
	"    --label L       runs of the variant labelled L", \
	"    --kernel K      runs of kernel K", \
	"    --commit SHA    runs of the commit (a unique prefix will do)", \
	"    --machine M     runs on machine M", \
	"    --testcase GLOB runs whose testcase matches GLOB", \
	"    --suite S       runs imported as suite S (fio, csv, ...)"

struct cli_filter {
	struct run_filter f;
	enum dim dim;		/* DIM_AUTO: no variant selected */
	const char *sel_text;
	struct selector sel;	/* resolved */
	int any;		/* some filter was given */
	int json;
};

void cli_filter_init(struct cli_filter *cf);
/* Handle option c; returns 1 if it was a filter option, else 0. */
int cli_filter_opt(struct cli_filter *cf, int c, const char *arg);
/* Resolve the variant; on failure sets *status and returns -1. */
int cli_filter_resolve(struct cli_filter *cf, struct db *db, int *status);
void cli_filter_release(struct cli_filter *cf);

#endif
