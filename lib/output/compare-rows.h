#ifndef COMPARE_ROWS_H
#define COMPARE_ROWS_H
/*
 * Inside compare-fmt.h: the row model its formats read, the cells and
 * helpers they share (compare-rows.c), and one writer per format
 * (compare-<format>.c).  A row's figures are taken from the comparison
 * once, here, and each format only lays them out.  The lkp and mmtests
 * formats print those tools' own figures (ncompare's sum-order mean and
 * population spread, MMTests' statistics over its pool of samples),
 * which they take from the sides themselves, and share the labels and
 * helpers below.
 */
#include <stdio.h>
#include "core/parallel.h"
#include "core/sbuf.h"
#include "output/compare-fmt.h"

/* One variant's side of a row as the formats show it. */
struct cfmt_side {
	int kind;		/* cmp_side.source: SIDE_NONE, ... */
	int exact;		/* the row's metric is exact (cmp_row.exact) */
	const char *source;	/* "samples" or "aggregate"; NULL: missing */
	long n;			/* values behind the mean; -1: not known,
				 * or missing */
	double mean;		/* NAN: missing */
	double sd;		/* cmp_side.sd; NAN: missing or none */
	double min, max;	/* NAN unless from samples */
	/*
	 * The imported statistic's name, spread kind and marker, as
	 * cmp_extra() gives them: an aggregate's (borrowed; NULL: none)
	 */
	const char *stat, *sd_kind, *marker;
};

/* What a row is whatever the variant: its names and its base. */
struct cfmt_row {
	const char *testcase, *params, *machine;	/* borrowed, as */
	const char *metric, *unit;			/* cmp_row's */
	const char *direction;	/* direction_name() */
	const char *base_label;	/* the base variant's label */
	struct cfmt_side base;
};

/* A row against one new variant. */
struct cfmt_vs {
	const char *label;	/* the variant's label */
	struct cfmt_side side;
	double change_pct;	/* NAN: cannot be computed */
	int change_na;		/* cmp_vs.change_na: printed "n/a" */
	double ci_low_pct, ci_high_pct;	/* NAN: no interval */
	double p, q;		/* NAN: none */
	/* each test's own p, where it was computed; NAN: not */
	double p_welch, p_mwu, p_moderated;
	const char *test;	/* cmp_method_name() */
	const char *verdict;	/* cmp_verdict_name() */
	int significant;
	/* significant as the source's marker said: the marker is shown */
	int source_marked;
	double level;		/* the p its family needs; NAN: none */
	double runs_needed;	/* runs that would decide it; NAN: none */
	const char *note;	/* borrowed; NULL: none */
};

/* Fill *out from row r of c. */
void cfmt_row_view(const struct comparison *c, const struct cmp_row *r,
		   struct cfmt_row *out);
/* Fill *out from row r of c against variant v (1 .. c->nvar - 1). */
void cfmt_vs_view(const struct comparison *c, const struct cmp_row *r,
		  size_t v, struct cfmt_vs *out);

/* ---- rows, groups and labels ---- */

/* Variant v's label (selector_label()); borrowed. */
const char *cfmt_label(const struct comparison *c, size_t v);
/* The level of the intervals of the change, in % (95). */
int cfmt_ci_level(const struct comparison *c);
/*
 * Which spreads the ± of c's sides are (bits): SPREAD_RUNS, perfsift's
 * sample sd of the runs; SPREAD_SOURCE_SAMPLE, _POP and _REL, figures
 * a source printed (an aggregate's sample sd, population sd, or ± in %
 * of the mean, as lkp's robot prints its population sd); SPREAD_NONE,
 * a source's figure printed without one.
 */
enum {
	SPREAD_RUNS = 1,
	SPREAD_SOURCE_SAMPLE = 2,
	SPREAD_SOURCE_POP = 4,
	SPREAD_SOURCE_REL = 8,
	SPREAD_NONE = 16,
};
unsigned cfmt_spreads(const struct comparison *c);
/*
 * "sample standard deviation (n-1)", or what the source printed, for
 * the spreads of cfmt_spreads() (one phrase, no period) to sb.
 */
void cfmt_spread_legend(struct sbuf *sb, unsigned spreads);
/* Do a and b share testcase, params and machine? */
int cfmt_same_group(const struct cmp_row *a, const struct cmp_row *b);
/* "testcase T  params P  machine M" (the parts that are set) to sb. */
void cfmt_group_title(struct sbuf *sb, const struct cmp_row *r);
/* Is row r shown: all, or worth showing (cmp_row_interesting())? */
int cfmt_row_shown(const struct comparison *c, const struct cmp_row *r,
		   int all);
/* Is the row against a variant shown: all, or a significant change? */
int cfmt_vs_shown(const struct cmp_vs *x, int all);
/*
 * Did an imported table print its changes against the base compared
 * with now?  change_base is the table's first column (a commit or a
 * label).  Then a reprint shows the change as printed.
 */
int cfmt_printed_against(const struct comparison *c,
			 const char *change_base);
/* The line that stands for the rows when none is shown (mmtests, lkp). */
void cfmt_none_significant(const struct comparison *c, FILE *f);

/* ---- cells ---- */

/* "%*.*f" of v (plus: "%+*.*f"), right-aligned in width (0: none). */
void cfmt_add_fixed_w(struct sbuf *sb, double v, int width, int prec,
		      int plus);
/* "%-*s": s left-aligned in width bytes. */
void cfmt_add_left(struct sbuf *sb, const char *s, size_t width);
/* The interval of the change, "[-1.37%, +2.34%]", or "-". */
void cfmt_add_ci(struct sbuf *sb, const struct cfmt_vs *x);
/* The change as cmp_fmt_pct() prints it, or "n/a" (change_na) */
void cmp_fmt_change(struct sbuf *sb, const struct cfmt_vs *x);
/* A side as text shows it: "12.5 ± 0.3 (n=5)", "missing", ... */
void cfmt_add_side(struct sbuf *sb, const struct cfmt_side *s);

/* ---- the rows of csv and markdown, in blocks (blocks.h) ---- */

/*
 * A writer that lays out one row at a time: line(j, r) appends row r to
 * j->out if it is shown.  Each block of rows starts from the state the
 * rows before it leave: the last row shown and their count.
 */
struct cfmt_rows {
	_Alignas(PARALLEL_ALIGN) const struct comparison *c;
	void (*line)(struct cfmt_rows *j, const struct cmp_row *r);
	size_t v;		/* the variant shown (markdown) */
	int all;
	const struct cmp_row *prev;	/* the last row shown before */
	size_t shown;			/* rows shown before, and by this job */
	struct sbuf *out;		/* the block's text */
	struct sbuf cell;		/* owned: scratch for a cell's text */
};
/*
 * The rows of st->c in order, laid out by st->line, to f (a failed
 * write shows in ferror(f)); st ends as the last row left it.
 */
void cfmt_write_rows(struct cfmt_rows *st, FILE *f);

/* ---- the formats: write c to f (all: every row); 0 or -1 ---- */

int cfmt_write_text(const struct comparison *c, int all, FILE *f);
int cfmt_write_mmtests(const struct comparison *c, int all, FILE *f);
int cfmt_write_lkp(const struct comparison *c, int all, FILE *f);
int cfmt_write_json(const struct comparison *c, int all, FILE *f);
int cfmt_write_csv(const struct comparison *c, int all, FILE *f);
int cfmt_write_markdown(const struct comparison *c, int all, FILE *f);

#endif
