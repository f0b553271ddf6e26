#ifndef COMPARE_FMT_H
#define COMPARE_FMT_H
/*
 * Writing a comparison (compare.h) in the formats of SPEC §8: text,
 * mmtests (compare-kernels), lkp (ncompare), json, csv, markdown.
 */
#include <stdio.h>
#include "stats/compare.h"

enum cmp_format {
	FMT_TEXT, FMT_MMTESTS, FMT_LKP, FMT_JSON, FMT_CSV, FMT_MARKDOWN,
};

/* "text" -> FMT_TEXT ...; -1 if unknown. */
int cmp_format_parse(const char *s);
/* Write c to f; all = every row, else only significant changes. 0/-1. */
int cmp_write(const struct comparison *c, enum cmp_format fmt, int all,
	      FILE *f);

#endif
