#ifndef COMPARE_FMT_H
#define COMPARE_FMT_H
/*
 * Writing a comparison (compare.h) in the formats of SPEC §8: text,
 * mmtests (compare-kernels), lkp (ncompare), json, csv, markdown.
 */
#include <stdio.h>
#include "analysis/compare.h"

enum cmp_format {
	FMT_TEXT, FMT_MMTESTS, FMT_LKP, FMT_JSON, FMT_CSV, FMT_MARKDOWN,
};

/*
 * The MMTests versions whose tables --format mmtests prints for metrics
 * MMTests summarises (cmp_opts.mm_style): 2020 (rev 345f82be, which
 * wrote the logs our extractors read; also what 0 means) and the
 * current one.
 */
enum mmtests_style {
	MMTESTS_STYLE_2020 = 2020,
	MMTESTS_STYLE_CURRENT = 2026,
};

/* "text" -> FMT_TEXT ...; -1 if unknown. */
int cmp_format_parse(const char *s);
/* Write c to f; all = every row, else only significant changes. 0/-1. */
int cmp_write(const struct comparison *c, enum cmp_format fmt, int all,
	      FILE *f);

struct sbuf;
/*
 * The numbers as the text format prints them, appended to sb, "-" for
 * one that cannot be computed: a value %.6g, a change %+.2f%%, a p- or
 * q-value %.4f (%.1e below 0.0001).
 */
void cmp_fmt_num(struct sbuf *sb, double v);
/*
 * A mean of an exact metric (a byte count) in full when it is a whole
 * number: %.6g would print 1427642 and 1427942 both as 1.42764e+06.
 */
void cmp_fmt_mean(struct sbuf *sb, double v, int exact);
void cmp_fmt_pct(struct sbuf *sb, double v);
void cmp_fmt_pval(struct sbuf *sb, double p);

#endif
