#ifndef OPTIONS_H
#define OPTIONS_H
/*
 * The options several commands share, each defined here once: --alpha
 * and its two defaults, --by, --metric, --testcase, --machine, --json,
 * and compare's options (its rows: compare, report; its tests: compare,
 * regressions, report).  The filters of runs and metrics are filter.h's.
 */
#include "analysis/compare.h"
#include "parse-options.h"

/*
 * --alpha's two defaults.  compare, regressions and report test a
 * family of rows at once and hold the family's false discovery rate
 * (Benjamini-Hochberg) at alpha: ALPHA_FAMILY, the usual 0.05.  bisect
 * and plot trend test the commits of a sequence one by one, each
 * t-test deciding a step of the bisection with no correction over the
 * sequence: ALPHA_EACH_TEST, the stricter 0.01 of each single test
 * (Pinpoint's threshold for "different"; docs/bisect.md).
 */
#define ALPHA_FAMILY 0.05
#define ALPHA_EACH_TEST 0.01
/* A number as help text: OPT_STR(ALPHA_FAMILY) is "0.05". */
#define OPT_STR_(x) #x
#define OPT_STR(x) OPT_STR_(x)

#define OPT_ALPHA(T, m, h) OPT_DOUBLE_OPEN("alpha", T, m, "A", h, 0, 1, \
	"a number between 0 and 1")
/* --metric: h says what the metrics are for */
#define OPT_METRIC(T, m, a, h) OPT_STRING(0, "metric", T, m, a, h)
#define OPT_METRIC_GLOB(T, m) \
	OPT_METRIC(T, m, "GLOB", "only metrics matching GLOB")
/* --metric GLOB, repeatable: T's m is a struct strlist */
#define OPT_METRIC_LIST(T, m) OPT_LIST("metric", T, m, "GLOB", \
	"only these metrics (repeatable)")
#define OPT_TESTCASE(T, m) OPT_STRING(0, "testcase", T, m, "GLOB", \
	"only runs whose testcase matches")
#define OPT_MACHINE(T, m) OPT_STRING(0, "machine", T, m, "M", \
	"only runs on machine M")
/* --json: h says what the JSON document is */
#define OPT_JSON(T, m, h) OPT_BOOL(0, "json", T, m, h)
#define OPT_MIN_CHANGE(T, m, h) OPT_DOUBLE("min-change", T, m, "PCT", h, \
	0, INFINITY, "a percentage >= 0")

/* --by DIM: what a selector is */
struct dim_arg {
	enum dim dim;		/* DIM_AUTO unless --by */
	char *param;		/* owned; the NAME of param:NAME */
};
#define DIM_ARG_INIT { DIM_AUTO, NULL }
int opt_by(const struct opt *o, const char *arg, void *dim_arg);
#define OPT_BY(T, m, h) OPT_CALLBACK(0, "by", T, m, "DIM", h, opt_by, 0)

/* What compare's options fill (compare, regressions, report). */
struct compare_args {
	struct cmp_opts o;	/* .dim and .param: by's, once parsed */
	struct dim_arg by;
};
/* CMP_OPTS_INIT with --alpha's ALPHA_FAMILY */
void compare_args_init(struct compare_args *a);
/* Point a->o at what --by said, once the options are parsed. */
void compare_args_done(struct compare_args *a);
void compare_args_release(struct compare_args *a);

/* Is o one of compare's options stored in T's member m? (report) */
#define OPT_IS_IN(o, T, m) \
	((o)->offset - offsetof(T, m) < sizeof(((T *)0)->m))

extern const struct opt_word cmp_test_words[], cmp_fdr_words[];

/* the rows compare lines up: T's m is a struct compare_args */
#define OPT_COMPARE_ROWS(T, m) \
	OPT_BY(T, m.by, "label, kernel, commit, machine or param:NAME\n" \
	       "(default: whatever each selector matches)"), \
	OPT_LIST("testcase", T, m.o.testcase_globs, "GLOB", \
		 "only these testcases (repeatable)"), \
	OPT_METRIC_LIST(T, m.o.metric_globs), \
	OPT_MACHINE(T, m.o.machine), \
	OPT_LIST("ignore-param", T, m.o.ignore_params, "N", \
		 "leave param N out when lining rows up\n" \
		 "(repeatable; '*': every param)")

/* the tests of compare's rows: T's m is a struct cmp_opts */
#define OPT_COMPARE_TESTS(T, m) \
	OPT_ENUM("test", T, m.test, "T", \
		 "auto (default), welch, mwu or moderated", cmp_test_words), \
	OPT_ALPHA(T, m.alpha, "the false discovery level of each family " \
		  "of tests\n(default " OPT_STR(ALPHA_FAMILY) ")"), \
	OPT_ENUM("fdr", T, m.fdr, "F", \
		 "bh (default): q-values; none: raw p-values", \
		 cmp_fdr_words), \
	OPT_MIN_CHANGE(T, m.min_change_pct, \
		       "the smallest change that matters (default 1):\n" \
		       "smaller significant changes are unchanged")

#endif
