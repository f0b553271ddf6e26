#ifndef MMTESTS_TABLE_INT_H
#define MMTESTS_TABLE_INT_H
/*
 * Inside the mmtests-table importer: the state of one text and what its
 * files share.  mmtests-table.c reads the text line by line, finds the
 * headers and titles above a table's first row, and hands the header to
 * mmtests-table-names.c (the run names of the columns) and each row to
 * mmtests-table-rows.c (its cells, and the aggregates they become);
 * those two call neither each other nor mmtests-table.c.  How the format
 * was worked out is at the top of mmtests-table.c.
 */
#include "core/sbuf.h"
#include "core/strmap.h"
#include "import/importer.h"

#define LINE_CAP 8192
#define MAX_TOKENS 1024
#define MAX_COLS 256
/* title, its underline, a sub-heading and two header lines */
#define HIST 5
/* steps of the fused-header search before it gives up */
#define SPLIT_BUDGET 100000

struct token {
	const char *s;
	size_t end;		/* column just past it, in the line */
};

/* A line since the last blank one: a header or title candidate. */
struct hline {
	char text[LINE_CAP];
	long lineno;
	int indented;
};

struct cell {
	double value;
	double half;		/* the value's rounding */
	int has_pct;
	double pct;
	int starred;
	size_t end;		/* where its last token ends, in the line */
};

struct mmtests_table {
	struct import_ctx *ctx;	/* NULL: detect only, nothing emitted */
	int in_table;
	int pct;		/* the table's rows print percentages */
	int labelless;		/* its rows have no statistic label */
	size_t vs;		/* where its first value starts; 0: unknown */
	char why[192];		/* set: its names did not read, rows skipped */
	struct hline hist[HIST];	/* a ring: lines since the last blank */
	size_t hist_first, nr_hist;
	char row[LINE_CAP];	/* the row being read, split */
	struct token tok[MAX_TOKENS];
	char hbuf[2][LINE_CAP];	/* the header lines, split */
	struct token htok[2][MAX_TOKENS];
	size_t hn[2];
	char *bench;		/* owned: the benchmark's name, or NULL */
	char *sub;		/* owned: the table's sub-heading, or NULL */
	/*
	 * owned, or NULL: the benchmark of the last table that had one, and
	 * that table's run names joined by '\n'
	 */
	char *owner, *owner_names;
	char *names[MAX_COLS];	/* owned: the run names of the table */
	char *kernels[MAX_COLS];	/* owned, or NULL: not a version */
	size_t nr_cols;
	/* owned, NULL when blank: the last two-line header's cells */
	char *upper[MAX_COLS], *lower[MAX_COLS];
	size_t nr_cells;
	struct strmap warned;	/* labels warned about */
};

/* tok[from..to) into sb, sep (or nothing, '\0') between. */
static inline void join_tokens(struct sbuf *sb, const struct token *tok,
			       size_t from, size_t to, char sep)
{
	size_t i;

	for (i = from; i < to; i++) {
		if (i > from && sep)
			sbuf_addch(sb, sep);
		sbuf_addstr(sb, tok[i].s);
	}
}

/* mmtests-table-names.c */

/* Free the n cells (NULLing them). */
void mtt_free_cells(char **cells, size_t n);
/* Free the columns' names and kernels: no columns. */
void mtt_free_columns(struct mmtests_table *t);

/* The kernel version a run name starts with, or NULL; the caller frees. */
char *mtt_kernel_of(const char *name);

/*
 * The run names of the columns from a two-line header (split in
 * t->htok; text the lower line as printed, cell the first row's), or
 * from a one-line header (in t->htok[0]).  0, or -1 with t->why saying
 * why not.
 */
int mtt_names_two(struct mmtests_table *t, const char *text,
		  const struct cell *cell, size_t ncols);
int mtt_names_one(struct mmtests_table *t, const char *text,
		  const struct cell *cell, size_t ncols);

/* mmtests-table-rows.c */

/* Split s (modified) at blanks; returns the count, MAX_TOKENS + 1 if more. */
size_t mtt_tokenize(char *s, struct token *tok);
/* A value as MMTests prints them: "%.2f" (or more decimals); finite. */
int mtt_number(const char *s, double *out);
/* A cell of a monitor table: a number, or "56%" (2013's efficiencies). */
int mtt_monitor_value(const char *s, double *out);
/* The end of a percentage cell: "...%)" or "...%*". */
int mtt_is_pct_token(const char *s);
/* A statistic label of any era (see the top of mmtests-table.c). */
int mtt_known_label(const char *s);

/*
 * Read ncols cells off the end of tok[0..n) into cell (pct: each has a
 * percentage; labelless: only the operation is before them), *rest the
 * count of tokens before them.  0, or -1 with why (cap bytes) saying
 * why the row does not read.
 */
int mtt_read_cells(const struct token *tok, size_t n, size_t ncols,
		   int pct, int labelless, struct cell *cell, size_t *rest,
		   char *why, size_t cap);

/*
 * Into dst (cap bytes): src with a blank put back where a value wider
 * than its field touches what is before it (vs: where the table's first
 * value starts, 0 if unknown).
 */
void mtt_unfuse(const char *src, char *dst, size_t cap, size_t vs);

/*
 * A row of the current table: one aggregate per column, or a skipped
 * row.  0, or -1 after error() (with --strict, a row that does not read).
 */
int mtt_table_row(struct mmtests_table *t, const char *line, long lineno);

#endif
