#ifndef REPORT_H
#define REPORT_H
/*
 * The report a regression hunt ends with (SPEC §9): a comparison written
 * as the kernel test robot writes its mails (lkp style) or as MMTests'
 * compare-kernels prints its tables (mmtests style), and that text as an
 * RFC 5322 message (message.c).  A report holds an ASCII chart and may
 * attach PNG ones, drawn through output/plot.h.
 */
#include <stddef.h>
#include "core/sbuf.h"
#include "analysis/compare.h"
#include "output/plot.h"

enum report_style { REPORT_LKP, REPORT_MMTESTS };

struct report_req {
	enum report_style style;
	struct db *db;
	const struct comparison *c;	/* compare_variants() of var */
	struct selector *var;		/* var[0] the base */
	size_t nvar;
	const char *tree;		/* "linus:master"; NULL: none */
	const char *subsys;		/* "mm"; NULL: none */
	int all;			/* every row in the table */
	/*
	 * The command line that rebuilds the comparison, after
	 * `perfsift compare`: the selectors and options, shell-quoted.
	 */
	const char *reproduce_args;
	/* the subject of the message answered (Re: it); NULL: none */
	const char *reply_subject;
	/* the metric the robot's report on NEW leads with; NULL: none */
	const char *headline_metric;
};

/* What report_build() chose, for the caller (attachments, messages). */
struct report_key {
	const struct cmp_row *row;	/* the lead row; NULL: nothing
					 * significant */
	size_t vs;			/* its new variant: var[vs + 1] */
};

/*
 * The subject (one line) and the body (lines ending in '\n', no trailing
 * spaces) of the report.  The ASCII chart is drawn with gnuplot; without
 * it (missing, failing) the report says so in place of the chart and a
 * warning is printed.  Returns 0, or -1 after error() (a database error).
 */
int report_build(const struct report_req *rq, struct sbuf *subject,
		 struct sbuf *body, struct report_key *key);

/*
 * The lead row of c: among the significant regressions and improvements,
 * the metric the source's own report led with (headline; NULL: none),
 * then a benchmark's headline metric (metric_kpi_rank(): its own result
 * before a total such as will-it-scale.workload) before any other, a
 * regression before an improvement, then the smallest q (p without
 * FDR), then the largest change.  key->row is NULL when nothing is
 * significant.
 */
void report_key_row(const struct comparison *c, const char *headline,
		    struct report_key *key);

/*
 * The compare chart of row r of rq->c across the variants in fmt, drawn
 * by gnuplot from the comparison itself (the table's values and marks)
 * and appended to sb.  0, or -1 after a warning.
 */
int report_chart(const struct report_req *rq, const struct cmp_row *r,
		 enum plot_format fmt, struct sbuf *sb);

#endif
