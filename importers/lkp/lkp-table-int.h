#ifndef LKP_TABLE_INT_H
#define LKP_TABLE_INT_H
/*
 * Inside the lkp-table importer: the state of one text and what its
 * files share.  lkp-table.c reads the text line by line and hands each
 * line to the tables (lkp-table-rows.c: their headers, titles, dashes
 * and rows, a row's cells, the aggregate of each column) or to the
 * report around them (lkp-table-report.c: the robot's body, the '='
 * axes, the "commit:" list, the parameters); those two never call each
 * other or lkp-table.c.  How the format was worked out is at the top of
 * lkp-table.c.
 */
#include "core/sbuf.h"
#include "core/strmap.h"
#include "import/importer.h"
#include <ctype.h>

#define LINE_CAP 4096
#define MAX_TOKENS 64
#define MAX_AXES 64
#define MAX_COLS 16

enum layout { L_NONE, L_NCOMPARE, L_COMPARE, L_FAIL };
enum state {
	ST_TEXT,	/* prose, or between tables */
	ST_AXIS_KEYS,	/* after a line of '=' */
	ST_AXIS_VALUES,
	ST_LIST,	/* under "commit:" */
	ST_PARAMS,	/* under "parameters:" */
};

struct column {
	char *name;		/* owned: the title, or the full name */
	char sha[41];		/* a commit: the longest hex id known */
};

struct lkp_table {
	struct import_ctx *ctx;
	enum state st;
	/* the robot's body */
	char *testcase, *machine_desc, *head_sha, *config, *compiler;
	char *headline;		/* metric named in "noticed a ..." */
	char *msgid;		/* the message's Message-ID, or NULL */
	char headline_sha[41];	/* the subject's commit, or "" */
	double headline_pct;
	long headline_line;
	int headline_seen;	/* the metric's row was read */
	int headline_subject;	/* it came from the subject */
	/*
	 * Only the tables of the report itself (unquoted) are checked
	 * against its headline; a reply quotes what it talks about
	 */
	int headline_depth;	/* 0, or -1: a reply's, unchecked */
	long headline_rows;	/* rows read at that depth */
	int improvement;	/* the report says "improvement" */
	struct kv *params;	/* owned keys and values */
	size_t nr_params, alloc_params;
	/* the axes of the '=' block */
	char *axis_key[MAX_AXES], *axis_val[MAX_AXES];
	size_t nr_axes;
	/* the "commit:" list, in order */
	char *list[MAX_COLS];
	size_t nr_list;
	int list_lines;		/* entries read, kept as column.N */
	/* the tokens of the last line, if it could be column titles */
	char *cand[MAX_COLS];
	size_t nr_cand;
	char *heading;		/* owned: a line underlined by dashes */
	long heading_line;
	char *last_text;	/* owned: the last non-blank other line */
	/* the current table */
	int active;		/* rows may come */
	int registered;		/* db_table_begin() was called */
	enum layout layout;
	struct column col[MAX_COLS];
	size_t nr_cols;
	int nr_untitled;	/* tables without titles so far */
	char *section;		/* owned: its heading, or NULL */
	/*
	 * The columns of every table so far (name or commit, and section):
	 * a later table that names one of them again (the same commit run
	 * again for another comparison) gets the param "table" = its
	 * ordinal among the column sets, so that its numbers do not land
	 * in the earlier table's variant.
	 */
	struct strmap seen_cols;
	int nr_sets;
	char set_tag[16];	/* "table" of the current columns, or "" */
	int depth;		/* quote depth of its last row */
	long last_row;		/* line of its last row */
	long prev_line;		/* the line read before this one */
	/* a row wrapped in two: its cells, waiting for the name */
	struct sbuf wrap;
	long wrap_line;
	long rows;
	long last_line;		/* the last line read, for messages */
};

/* ---- small helpers ---- */

static inline void free_strs(char **v, size_t *nr)
{
	size_t i;

	for (i = 0; i < *nr; i++) {
		free(v[i]);
		v[i] = NULL;
	}
	*nr = 0;
}

/* Split s (modified) at blanks into tok; returns the count (capped). */
static inline size_t tokenize(char *s, char **tok, size_t max)
{
	size_t n = 0;

	while (*s) {
		while (isspace((unsigned char)*s))
			*s++ = '\0';
		if (!*s)
			break;
		if (n == max)
			return max + 1;
		tok[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
	}
	return n;
}

static inline const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static inline int all_of(const char *s, const char *set)
{
	int any = 0;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t')
			continue;
		if (!strchr(set, *s))
			return 0;
		any = 1;
	}
	return any;
}

static inline int is_hex_id(const char *s, size_t min)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]))
			return 0;
	return n >= min && n <= 40;
}

/* Lower-case copy of a hex id into sha (41 bytes). */
static inline void copy_sha(char *sha, const char *s)
{
	size_t k;

	for (k = 0; k < 40 && s[k]; k++)
		sha[k] = (char)tolower((unsigned char)s[k]);
	sha[k] = '\0';
}

/* lkp-table-rows.c */

/* Free the current table's column names and its section. */
void lt_free_columns(struct lkp_table *t);
/* 1 if s starts a cell: a number, a change, or a fail count. */
int lt_cell_start(const char *s);
/* Keep the line's tokens as the titles of a table that may follow. */
void lt_remember_titles(struct lkp_table *t, char **tok, size_t n);
/*
 * The line after a row held in t->wrap (cut in two by a mailer): 1 if
 * its metric name joined the row, which was read; 0 if the held row was
 * skipped instead; -1 after error().
 */
int lt_join_wrapped(struct lkp_table *t, const char *s, size_t len,
		    int depth);
/*
 * A line that belongs to a table (a row, a header, the glyphs under it,
 * dashes, the cells of a row cut before its name): 1 if it was, 0 if
 * not, -1 after error().
 */
int lt_table_line(struct lkp_table *t, const char *s, char **tok,
		  size_t n, long lineno, int depth);

/* lkp-table-report.c */

/* Free the axes of the '=' block (their slots NULLed). */
void lt_free_axes(struct lkp_table *t);
/*
 * The line in the state a header left: the axes, the "commit:" list,
 * the parameters.  1 if it was taken, 0 if it is to be read as any
 * other, -1 after error().
 */
int lt_state_line(struct lkp_table *t, const char *line, const char *s,
		  long lineno);
/* The robot's prose: 1 if the line says something the tables need. */
int lt_prose_line(struct lkp_table *t, const char *s, long lineno,
		  int depth);

#endif
