/*
 * The lkp-table importer: lkp's comparison tables as people keep and
 * post them — the output of lkp's `ncompare` (the kernel test robot's
 * table) and of `sbin/compare`, alone or inside a robot report's body.
 * Each commit column becomes one aggregate per metric (stat "mean": lkp
 * prints averages over runs), with the testcase, params and machine of
 * the table's axis line and the commit of its column.
 *
 * How the format was worked out (research/lkp.md §1.4-1.6, §3, §7.1, and
 * the two robot reports in samples/lkp):
 *
 * - A table starts at a line of '=' and names its axes: a line of keys
 *   joined by '/' and ending in ':', then an indented line of values
 *   joined by '/' ("compiler/.../testcase:" then "gcc-12/.../will-it-
 *   scale").  testcase and tbox_group (the machine) are named; every
 *   other key is a param.
 * - "commit:" then one indented line per column, "<sha10> ("subject")".
 * - The column titles: one commit prefix (or tag) per column, then a line
 *   of dashes, then the header: "%stddev %change %stddev ..." (ncompare:
 *   the change always printed, %+.1f%%, or absolute %+.1f for perf-
 *   profile rows and metrics ending in '%'), "%stddev change %stddev"
 *   (sbin/compare: integer %, blank below 3 %), or "fail:runs
 *   %reproduction fail:runs" (counts: "3:9" is 3 failing runs of 9).
 *   Then a line of '\' and '|' glyphs, then the rows; a fail block may be
 *   followed directly by a %stddev header and its rows.
 * - A row is the base value [± N%], then per further column [change]
 *   value [± N%], then the metric name (names hold no blanks, but '%',
 *   ':', '(', ')', '/', '>=' and "[unknown]").  Rows are read by token,
 *   not by column, so a table whose runs of blanks an archive collapsed
 *   reads the same.  Which tokens are changes follows from their number:
 *   values are one per column, changes the rest.
 * - "± N%" is lkp's population standard deviation relative to the mean;
 *   lkp prints none when it is at most 2 % (ncompare; 3 % for
 *   sbin/compare): that is kept as "at most N %", not as zero.
 * - The rows are those lkp's change rule flagged (ncompare prints no
 *   other): each compared column's aggregate carries the marker "lkp",
 *   which compare shows as the source's verdict when it has no test of
 *   its own (n unknown).
 * - n is not printed.  A fail block says how many runs each column had,
 *   but lkp's perf rows use only the complete ones: the fail rows keep
 *   their runs as n, the perf rows' n stays unknown.
 * - The robot's body: "kernel test robot noticed a 2.6% regression of M
 *   on:" (2023-), "FYI, we noticed a -9.1% regression of M due to
 *   commit:" (2016-2022); "commit: <sha40> ("subject")"; "testcase:" or
 *   "in testcase:"; "test machine:" or "on test machine:"; "config:",
 *   "compiler:"; "parameters:" or "with following parameters:" and the
 *   indented "key: value" lines under it.  The headline metric and its
 *   percentage are checked against the table (a warning when they
 *   disagree).
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "importer.h"
#include "lkp-table.h"
#include <ctype.h>

#define MAX_TOKENS 64
#define MAX_AXES 64
#define MAX_COLS 16

enum layout { L_NCOMPARE, L_COMPARE, L_FAIL };
enum state {
	ST_TEXT,	/* prose, or between tables */
	ST_AXIS_KEYS,	/* after a line of '=' */
	ST_AXIS_VALUES,
	ST_COMMITS,	/* in or before the "commit:" block */
	ST_DASHES,	/* after the column titles */
	ST_HEADER,	/* after the dashes */
	ST_GLYPHS,	/* after the header */
	ST_ROWS,
	ST_PARAMS,	/* under "parameters:" */
};

struct column {
	char id[48];		/* the title: a commit prefix or a tag */
	char sha[41];		/* the longest hex id known for it */
};

struct lkp_table {
	struct import_ctx *ctx;
	enum state st;
	enum layout layout;
	/* the robot's body */
	char *testcase, *machine_desc, *head_sha, *config, *compiler;
	char *headline;		/* metric named in "noticed a ..." */
	double headline_pct;
	long headline_line;
	int headline_seen;	/* the metric's row was read */
	int headline_subject;	/* it came from the subject */
	int improvement;	/* the report says "improvement" */
	struct kv *params;	/* owned keys and values */
	size_t nr_params, alloc_params;
	/* the table */
	char *axis_key[MAX_AXES], *axis_val[MAX_AXES];
	size_t nr_axes;
	struct column col[MAX_COLS];
	size_t nr_cols;
	long rows;
	long last_line;		/* the last line read, for messages */
	int nr_commit_lines;	/* "commit:" entries read */
};

static void free_axes(struct lkp_table *t)
{
	size_t i;

	/*
	 * NULLed: the next table's keys may come without its values (then
	 * its values' slots must not hold this table's freed ones)
	 */
	for (i = 0; i < t->nr_axes; i++) {
		free(t->axis_key[i]);
		free(t->axis_val[i]);
		t->axis_key[i] = t->axis_val[i] = NULL;
	}
	t->nr_axes = 0;
	t->nr_cols = 0;
}

static void lkp_table_init(struct lkp_table **out, struct import_ctx *ctx)
{
	struct lkp_table *t = xcalloc(1, sizeof(*t));

	t->ctx = ctx;
	t->st = ST_TEXT;
	*out = t;
}

static void lkp_table_free(struct lkp_table *t)
{
	size_t i;

	if (!t)
		return;
	free_axes(t);
	for (i = 0; i < t->nr_params; i++) {
		free((char *)t->params[i].key);
		free((char *)t->params[i].value);
	}
	free(t->params);
	free(t->testcase);
	free(t->machine_desc);
	free(t->head_sha);
	free(t->config);
	free(t->compiler);
	free(t->headline);
	free(t);
}

/* Split s (modified) at blanks into tok; returns the count (capped). */
static size_t tokenize(char *s, char **tok, size_t max)
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

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static int all_of(const char *s, const char *set)
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

static int is_hex_id(const char *s, size_t min)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]))
			return 0;
	return n >= min && n <= 40;
}

/* "v6.1", "v5.10-rc3": a release tag as a column title. */
static int is_tag(const char *s)
{
	return s[0] == 'v' && isdigit((unsigned char)s[1]);
}

static char *xstrndup_trim(const char *s)
{
	size_t n;

	s = skip_blanks(s);
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

static void set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = xstrndup_trim(s);
}

static void add_param(struct lkp_table *t, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < t->nr_params; i++)
		if (!strcmp(t->params[i].key, key)) {
			free((char *)t->params[i].value);
			t->params[i].value = xstrndup_trim(val);
			return;
		}
	ALLOC_GROW(t->params, t->nr_params + 1, t->alloc_params);
	t->params[t->nr_params].key = xstrndup_trim(key);
	t->params[t->nr_params].value = xstrndup_trim(val);
	t->nr_params++;
}

/*
 * "kernel test robot noticed a 2.6% regression of M on:" and "FYI, we
 * noticed a -9.1% regression of M due to commit:".  1 if it was one.
 */
static int headline(struct lkp_table *t, const char *s, long lineno)
{
	const char *p = strstr(s, "noticed a ");
	double pct;
	const char *of, *end;

	if (!p)
		return 0;
	p += strlen("noticed a ");
	if (str_double(&p, &pct) || *p != '%')
		return 0;
	p++;
	if (!starts_with(p, " regression of ") &&
	    !starts_with(p, " improvement of "))
		return 0;
	of = strstr(p, " of ") + 4;
	end = of;
	while (*end && !isspace((unsigned char)*end))
		end++;
	if (end == of)
		return 0;
	if (t->headline && t->headline_subject &&
	    (strncmp(t->headline, of, (size_t)(end - of)) ||
	     t->headline[end - of] ||
	     fabs(fabs(t->headline_pct) - fabs(pct)) > 0.05))
		db_warn(t->ctx, lineno, "the subject says '%s %g%%', the body "
			"'%.*s %g%%'", t->headline, t->headline_pct,
			(int)(end - of), of, pct);
	free(t->headline);
	t->headline = xstrndup(of, (size_t)(end - of));
	t->headline_pct = pct;
	t->headline_line = lineno;
	t->headline_subject = 0;
	t->improvement = starts_with(p, " improvement");
	return 1;
}

/*
 * The robot's subject, of every era (a reply's "Re: " in front):
 *   [lkp-robot] [mm/cma] 2b0f904a5a: fio.read_bw_MBps -16.1% regression
 *   [genirq] cbe16f35be: will-it-scale.per_thread_ops -5.2% regression
 *   [linus:master] [llist]  375700bab5:  will-it-scale.per_thread_ops 2.6% regression
 *   [linux-next:master] [fork] 6e553c6bcb: aim7.jobs-per-min 94.7% improvement
 * The mail driver hands it over as a "Subject: ..." line.  Its headline
 * stands until the body names one.  1 if it was one.
 */
static int subject(struct lkp_table *t, const char *s, long lineno)
{
	char buf[1024], *tok[MAX_TOKENS];
	const char *pct_end;
	size_t n, i, len;
	double pct;

	if (!starts_with(s, "Subject:") || strlen(s) >= sizeof(buf))
		return 0;
	memcpy(buf, s, strlen(s) + 1);
	n = tokenize(buf, tok, MAX_TOKENS);
	if (n < 5 || n > MAX_TOKENS)
		return 0;
	/* it ends in "<sha>:" metric "<pct>%" regression|improvement */
	i = n - 4;
	len = strlen(tok[i]);
	if (len < 8 || tok[i][len - 1] != ':')
		return 0;
	tok[i][len - 1] = '\0';
	pct_end = tok[i + 2];
	if (!is_hex_id(tok[i], 7) || str_double(&pct_end, &pct) ||
	    strcmp(pct_end, "%") || (strcmp(tok[i + 3], "regression") &&
				     strcmp(tok[i + 3], "improvement")))
		return 0;
	if (t->headline)
		return 1;
	t->headline = xstrdup(tok[i + 1]);
	t->headline_pct = pct;
	t->headline_line = lineno;
	t->headline_subject = 1;
	t->improvement = !strcmp(tok[i + 3], "improvement");
	return 1;
}

/* A "key: value" line of the robot's body; 1 if it was one. */
static int body_fact(struct lkp_table *t, const char *s)
{
	static const struct {
		const char *prefix;
		size_t field;
	} facts[] = {
		{ "in testcase:", offsetof(struct lkp_table, testcase) },
		{ "testcase:", offsetof(struct lkp_table, testcase) },
		{ "on test machine:", offsetof(struct lkp_table, machine_desc) },
		{ "test machine:", offsetof(struct lkp_table, machine_desc) },
		{ "config:", offsetof(struct lkp_table, config) },
		{ "compiler:", offsetof(struct lkp_table, compiler) },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(facts); i++)
		if (starts_with(s, facts[i].prefix)) {
			set_str((char **)((char *)t + facts[i].field),
				s + strlen(facts[i].prefix));
			return 1;
		}
	return 0;
}

/* "commit: <sha40> ("subject")" in the body: the head commit. */
static int body_commit(struct lkp_table *t, const char *s)
{
	char sha[41];
	size_t n = 0;

	if (!starts_with(s, "commit:"))
		return 0;
	s = skip_blanks(s + 7);
	while (n < 40 && isxdigit((unsigned char)s[n])) {
		sha[n] = (char)tolower((unsigned char)s[n]);
		n++;
	}
	if (n != 40)
		return 0;
	sha[n] = '\0';
	set_str(&t->head_sha, sha);
	return 1;
}

static const char *axis(const struct lkp_table *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nr_axes; i++)
		if (!strcmp(t->axis_key[i], key))
			return t->axis_val[i];
	return NULL;
}

/* The column titles: every token a commit prefix or a tag.  0 or -1. */
static int column_titles(struct lkp_table *t, const char *line)
{
	char s[4096], *tok[MAX_TOKENS];
	size_t n, i, k;

	/* most lines are prose: no copy for a line that cannot be titles */
	if (!isxdigit((unsigned char)line[0]) && !is_tag(line))
		return -1;
	if (strlen(line) >= sizeof(s))
		return -1;
	memcpy(s, line, strlen(line) + 1);
	n = tokenize(s, tok, MAX_TOKENS);
	if (n < 2 || n > MAX_COLS)
		return -1;
	for (i = 0; i < n; i++)
		if (!is_hex_id(tok[i], 7) && !is_tag(tok[i]))
			return -1;
	t->nr_cols = n;
	for (i = 0; i < n; i++) {
		struct column *c = &t->col[i];

		snprintf(c->id, sizeof(c->id), "%s", tok[i]);
		c->sha[0] = '\0';
		if (!is_hex_id(tok[i], 7))
			continue;
		snprintf(c->sha, sizeof(c->sha), "%s", tok[i]);
		for (k = 0; c->sha[k]; k++)
			c->sha[k] = (char)tolower((unsigned char)c->sha[k]);
		/* the body's full sha, when it starts the same */
		if (t->head_sha && starts_with(t->head_sha, c->sha))
			snprintf(c->sha, sizeof(c->sha), "%s", t->head_sha);
	}
	return 0;
}

/* A header line: which layout the rows below it have; -1 if none. */
static int header_layout(const char *s)
{
	if (strstr(s, "fail:runs") && strstr(s, "%reproduction"))
		return L_FAIL;
	if (strstr(s, "%stddev") && strstr(s, "%change"))
		return L_NCOMPARE;
	if (strstr(s, "%stddev") && strstr(s, "change"))
		return L_COMPARE;
	return -1;
}

/* A number as lkp prints values: "3016", "0.33", "1.926e+08". */
static int number(const char *s, double *out)
{
	return str_to_double(s, out) == 0 && isfinite(*out);
}

/* "±" then "2%", or "±115%" as one token.  Returns tokens used (0: none). */
static int plus_minus(char **tok, size_t i, size_t n, double *pct)
{
	static const char pm[] = "\xc2\xb1";	/* U+00B1 in UTF-8 */
	char buf[32];
	const char *s;
	size_t len;
	int used = 1;

	if (i >= n || !starts_with(tok[i], pm))
		return 0;
	s = tok[i] + strlen(pm);
	if (!*s) {
		if (i + 1 >= n)
			return 0;
		s = tok[i + 1];
		used = 2;
	}
	len = strlen(s);
	if (len < 2 || s[len - 1] != '%' || len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	return number(buf, pct) ? used : 0;
}

struct cell {
	double value;
	double sd_pct;		/* NAN: not printed */
	int has_change;
	double change;		/* as printed */
	const char *change_text;	/* the token, borrowed */
	int change_abs;		/* printed without '%' */
};

/* A change token: "-6.0%", "+34.2%", "18%", "+0.0" or "-27.3". */
static int change_token(const char *s, double *out, int *abs)
{
	char buf[64];
	size_t len = strlen(s);

	if (!len || len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len + 1);
	*abs = buf[len - 1] != '%';
	if (!*abs)
		buf[len - 1] = '\0';
	return number(buf, out);
}

/*
 * Read the cells of a perf row: tok[0..n-1] without the metric name.
 * Values are one per column; the changes are the tokens beyond that.
 * 0, or -1 when the row does not fit the columns.
 */
static int perf_cells(struct lkp_table *t, char **tok, size_t n,
		      struct cell *cell)
{
	size_t i = 0, c, plain = 0, changes;
	double dummy;

	/* tokens that are not part of a "± N%" */
	for (i = 0; i < n; i++) {
		int pm = plus_minus(tok, i, n, &dummy);

		if (pm) {
			i += (size_t)pm - 1;
			continue;
		}
		plain++;
	}
	if (plain < t->nr_cols || plain > 2 * t->nr_cols - 1)
		return -1;
	changes = plain - t->nr_cols;
	if (t->layout == L_NCOMPARE && changes != t->nr_cols - 1)
		return -1;
	i = 0;
	for (c = 0; c < t->nr_cols; c++) {
		struct cell *x = &cell[c];
		int pm;

		x->has_change = 0;
		x->sd_pct = NAN;
		if (c > 0 && changes == t->nr_cols - 1) {
			if (i >= n || !change_token(tok[i], &x->change,
						    &x->change_abs))
				return -1;
			x->has_change = 1;
			x->change_text = tok[i];
			i++;
		} else if (c > 0 && changes) {
			/*
			 * sbin/compare with three or more columns, some
			 * changes blank: a change ends in '%' (or is
			 * signed) where a value never does.
			 */
			if (i < n && (ends_with(tok[i], "%") ||
				      tok[i][0] == '+') &&
			    change_token(tok[i], &x->change,
					 &x->change_abs)) {
				x->has_change = 1;
				x->change_text = tok[i];
				changes--;
				i++;
			}
		}
		if (i >= n || !number(tok[i], &x->value))
			return -1;
		i++;
		pm = plus_minus(tok, i, n, &x->sd_pct);
		i += (size_t)pm;
	}
	return i == n ? 0 : -1;
}

static void variant_of(const struct lkp_table *t, size_t c,
		       struct agg_desc *a, struct kv *kv, size_t *nkv)
{
	const char *tc = axis(t, "testcase");
	size_t i, k = 0;

	memset(a, 0, sizeof(*a));
	a->suite = "lkp";
	a->testcase = tc ? tc : t->testcase;
	a->machine = axis(t, "tbox_group");
	/* the label defaults to the commit's first 12 digits, or the tag */
	if (t->col[c].sha[0])
		a->commit = t->col[c].sha;
	else
		a->kernel = t->col[c].id;
	for (i = 0; i < t->nr_axes; i++) {
		if (!strcmp(t->axis_key[i], "testcase") ||
		    !strcmp(t->axis_key[i], "tbox_group"))
			continue;
		kv[k].key = t->axis_key[i];
		kv[k].value = t->axis_val[i];
		k++;
	}
	if (!t->nr_axes)
		for (i = 0; i < t->nr_params && k < MAX_AXES; i++)
			kv[k++] = t->params[i];
	a->params = kv;
	a->nr_params = k;
	*nkv = k;
}

/* The printed change, checked against the values (rounding aside). */
static void check_change(struct lkp_table *t, const char *metric,
			 const struct cell *base, const struct cell *x,
			 long lineno)
{
	double want, tol;

	if (!x->has_change)
		return;
	if (x->change_abs) {
		want = x->value - base->value;
		tol = 0.051 + 1e-6 * fabs(want);
	} else {
		if (base->value == 0)
			return;
		want = 100 * (x->value - base->value) / base->value;
		/* values are rounded to 4 digits (%.4g) or 2 decimals */
		tol = (t->layout == L_COMPARE ? 0.51 : 0.051) +
		      100 * (5e-4 * fabs(x->value) + 5e-3) /
			      fabs(base->value) +
		      5e-4 * fabs(want);
	}
	if (fabs(want - x->change) > tol)
		db_warn(t->ctx, lineno, "'%s': the printed change %g%s does "
			"not follow from the values (%g)", metric, x->change,
			x->change_abs ? "" : "%", want);
}

static int perf_row(struct lkp_table *t, char **tok, size_t n, long lineno)
{
	struct cell cell[MAX_COLS];
	struct kv kv[MAX_AXES];
	const char *metric = tok[n - 1];
	size_t c, nkv;
	double bound = t->layout == L_COMPARE ? 3 : 2;

	if (perf_cells(t, tok, n - 1, cell))
		return error("%s:%ld: expected %zu columns of values (and "
			     "changes) before the metric name", t->ctx->path,
			     lineno, t->nr_cols);
	for (c = 0; c < t->nr_cols; c++) {
		struct agg_desc a;

		variant_of(t, c, &a, kv, &nkv);
		a.metric = metric;
		a.stat = "mean";
		a.value = cell[c].value;
		/* a fail block's runs count incomplete runs too: not n */
		a.n = -1;
		/*
		 * ncompare prints only the rows its change rule flagged
		 * (research/lkp.md §1.7): that is the source's marker
		 */
		if (c)
			a.marker = "lkp";
		if (c && cell[c].has_change) {
			a.change_source = cell[c].change_text;
			a.change_base = t->col[0].sha[0] ? t->col[0].sha
							  : t->col[0].id;
		}
		if (isfinite(cell[c].sd_pct)) {
			a.stddev = cell[c].sd_pct;
			a.stddev_kind = "relative";
		} else {
			a.stddev = NAN;
			a.stddev_at_most_pct = bound;
		}
		if (db_emit_aggregate(t->ctx, &a, lineno))
			return -1;
		if (c)
			check_change(t, metric, &cell[0], &cell[c], lineno);
	}
	/* the report's own table: the first that has its metric */
	if (t->headline && !t->headline_seen && !strcmp(metric, t->headline) &&
	    t->nr_cols >= 2) {
		double got = cell[0].value ? 100 * (cell[1].value -
				cell[0].value) / cell[0].value : NAN;

		t->headline_seen = 1;
		/* 2025- prints the magnitude only: compare magnitudes */
		if (isfinite(got) &&
		    fabs(fabs(got) - fabs(t->headline_pct)) > 0.15)
			db_warn(t->ctx, lineno, "'%s': the report says %g%%, "
				"its table %+.1f%%", metric, t->headline_pct,
				got);
	}
	t->rows++;
	return 0;
}

/* "3:9", ":8": failing runs and runs of one column. */
static int fail_count(const char *s, long *fails, long *runs)
{
	const char *colon = strchr(s, ':');
	char buf[32];

	if (!colon || (size_t)(colon - s) >= sizeof(buf))
		return 0;
	memcpy(buf, s, (size_t)(colon - s));
	buf[colon - s] = '\0';
	if (!buf[0])
		*fails = 0;
	else if (str_to_long(buf, fails) || *fails < 0)
		return 0;
	return !str_to_long(colon + 1, runs) && *runs > 0 && *fails <= *runs;
}

static int fail_row(struct lkp_table *t, char **tok, size_t n, long lineno)
{
	struct kv kv[MAX_AXES];
	const char *metric = tok[n - 1];
	size_t c, i = 0, nkv;

	if (n != 2 * t->nr_cols)
		return error("%s:%ld: expected 'fails:runs' for %zu columns and "
			     "%%reproduction between them", t->ctx->path,
			     lineno, t->nr_cols);
	for (c = 0; c < t->nr_cols; c++) {
		struct agg_desc a;
		long fails, runs;
		double repro;
		int abs;

		if (c > 0 && !change_token(tok[i++], &repro, &abs))
			return error("%s:%ld: expected a %%reproduction, got "
				     "'%s'", t->ctx->path, lineno, tok[i - 1]);
		if (!fail_count(tok[i], &fails, &runs))
			return error("%s:%ld: expected 'fails:runs', got '%s'",
				     t->ctx->path, lineno, tok[i]);
		i++;
		variant_of(t, c, &a, kv, &nkv);
		if (c > 0) {
			/* %reproduction as printed, against column 0 */
			a.change_source = tok[i - 2];
			a.change_base = t->col[0].sha[0] ? t->col[0].sha
							  : t->col[0].id;
		}
		a.metric = metric;
		a.stat = "fails";
		a.value = (double)fails;
		a.stddev = NAN;
		a.n = runs;
		if (db_emit_aggregate(t->ctx, &a, lineno))
			return -1;
	}
	t->rows++;
	return 0;
}

/* A row of the table, or the end of it.  0, or -1 after error(). */
static int table_row(struct lkp_table *t, const char *line, long lineno)
{
	char buf[4096], *tok[MAX_TOKENS];
	size_t n;
	int lay = header_layout(line);

	if (lay >= 0) {
		t->layout = (enum layout)lay;
		t->st = ST_GLYPHS;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", line);
	n = tokenize(buf, tok, MAX_TOKENS);
	if (!n || n > MAX_TOKENS) {
		t->st = ST_TEXT;
		return 0;
	}
	/* the end of the rows: a line that starts with a word */
	if (n == 1 || (!isdigit((unsigned char)tok[0][0]) &&
		       tok[0][0] != '-' && tok[0][0] != '.' &&
		       !(t->layout == L_FAIL && tok[0][0] == ':'))) {
		t->st = ST_TEXT;
		return 0;
	}
	return t->layout == L_FAIL ? fail_row(t, tok, n, lineno) :
				     perf_row(t, tok, n, lineno);
}

static int lkp_table_line(struct lkp_table *t, const char *raw, long lineno)
{
	char line[4096], buf[4096];
	const char *s;
	size_t len = strlen(raw);

	/* trailing blanks mean nothing (lkp pads its header lines) */
	while (len && isspace((unsigned char)raw[len - 1]))
		len--;
	if (len >= sizeof(line)) {
		if (t->st == ST_ROWS)
			return error("%s:%ld: a table row of %zu bytes",
				     t->ctx->path, lineno, len);
		len = sizeof(line) - 1;		/* prose: only its start */
	}
	memcpy(line, raw, len);
	line[len] = '\0';
	str_ascii_minus(line);
	s = skip_blanks(line);
	t->last_line = lineno;

	if (strlen(s) > 20 && all_of(s, "=")) {
		free_axes(t);
		t->st = ST_AXIS_KEYS;
		return 0;
	}
	switch (t->st) {
	case ST_PARAMS:
		if (!*s) {
			if (t->nr_params)
				t->st = ST_TEXT;
			return 0;
		}
		if (line[0] == ' ' || line[0] == '\t') {
			const char *colon = strchr(s, ':');

			if (colon) {
				char *key = xstrndup(s, (size_t)(colon - s));

				add_param(t, key, colon + 1);
				free(key);
				return 0;
			}
		}
		t->st = ST_TEXT;
		break;
	case ST_AXIS_KEYS: {
		size_t klen = strlen(s), k = 0;
		char *p, *save = NULL;

		if (!klen)
			return 0;
		if (s[klen - 1] != ':' || klen >= sizeof(buf)) {
			t->st = ST_TEXT;
			break;
		}
		memcpy(buf, s, klen - 1);
		buf[klen - 1] = '\0';
		for (p = strtok_r(buf, "/", &save); p && k < MAX_AXES;
		     p = strtok_r(NULL, "/", &save))
			t->axis_key[k++] = xstrndup_trim(p);
		t->nr_axes = k;
		t->st = ST_AXIS_VALUES;
		return 0;
	}
	case ST_AXIS_VALUES: {
		size_t k = 0;
		const char *p = s;

		if (!*s)
			return 0;
		while (k < t->nr_axes) {
			const char *slash = strchr(p, '/');

			if (!slash && k + 1 < t->nr_axes)
				break;
			/* the last value takes the rest: it may hold '/' */
			if (k + 1 == t->nr_axes)
				t->axis_val[k] = xstrndup_trim(p);
			else
				t->axis_val[k] = xstrndup(p,
							  (size_t)(slash - p));
			k++;
			p = slash ? slash + 1 : p + strlen(p);
		}
		if (k != t->nr_axes) {
			size_t i;

			for (i = 0; i < k; i++) {
				free(t->axis_val[i]);
				t->axis_val[i] = NULL;
			}
			return error("%s:%ld: %zu axis names above, %zu values "
				     "here", t->ctx->path, lineno, t->nr_axes,
				     k);
		}
		t->st = ST_COMMITS;
		return 0;
	}
	case ST_COMMITS:
		if (!*s || !strcmp(s, "commit:"))
			return 0;
		if (line[0] == ' ' || line[0] == '\t') {
			size_t n = 0;

			while (isxdigit((unsigned char)s[n]))
				n++;
			/*
			 * "<sha10> ("subject")": the commits of the columns
			 * with their subjects, kept as import metadata
			 * column.1, column.2, ...
			 */
			if (n >= 7 && n <= 40 && (!s[n] || s[n] == ' ')) {
				char key[32];

				snprintf(key, sizeof(key), "column.%d",
					 ++t->nr_commit_lines);
				return db_import_meta(t->ctx, 0, key, s);
			}
		}
		if (!column_titles(t, s)) {
			t->st = ST_DASHES;
			return 0;
		}
		t->st = ST_TEXT;
		break;
	case ST_DASHES:
		t->st = all_of(s, "-") ? ST_HEADER : ST_TEXT;
		return 0;
	case ST_HEADER: {
		int lay = header_layout(s);

		if (lay < 0)
			return error("%s:%ld: expected the '%%stddev %%change "
				     "%%stddev' or 'fail:runs' header", t->ctx->path,
				     lineno);
		t->layout = (enum layout)lay;
		t->st = ST_GLYPHS;
		return 0;
	}
	case ST_GLYPHS:
		if (all_of(s, "\\|")) {
			t->st = ST_ROWS;
			return 0;
		}
		return error("%s:%ld: expected the '\\ | \\' line under the "
			     "header", t->ctx->path, lineno);
	case ST_ROWS:
		if (!*s) {
			t->st = ST_TEXT;
			return 0;
		}
		return table_row(t, s, lineno);
	case ST_TEXT:
		break;
	}
	/* prose: the robot's body */
	if (headline(t, s, lineno) || subject(t, s, lineno) ||
	    body_commit(t, s) || body_fact(t, s))
		return 0;
	/* sbin/compare prints the column titles without a '=' line */
	if (!column_titles(t, s))
		t->st = ST_DASHES;
	if (!strcmp(s, "parameters:") || !strcmp(s, "with following parameters:"))
		t->st = ST_PARAMS;
	return 0;
}

static int lkp_table_finish(struct lkp_table *t)
{
	if (t->st == ST_AXIS_VALUES || t->st == ST_DASHES ||
	    t->st == ST_HEADER || t->st == ST_GLYPHS)
		return error("%s:%ld: the table ends before its rows",
			     t->ctx->path, t->last_line);
	if (t->headline && !t->headline_seen && t->rows)
		db_warn(t->ctx, t->headline_line, "the report's metric '%s' "
			"is not in its table", t->headline);
	if (t->headline) {
		char text[512];

		snprintf(text, sizeof(text), "%s %g%% %s", t->headline,
			 t->headline_pct,
			 t->improvement ? "improvement" : "regression");
		if (db_import_meta(t->ctx, 0, "headline", text))
			return -1;
	}
	if (t->head_sha && db_import_meta(t->ctx, 0, "commit", t->head_sha))
		return -1;
	/* what the body says of the test, as it says it */
	if ((t->testcase && db_import_meta(t->ctx, 0, "testcase",
					   t->testcase)) ||
	    (t->machine_desc && db_import_meta(t->ctx, 0, "test_machine",
					       t->machine_desc)) ||
	    (t->config && db_import_meta(t->ctx, 0, "config", t->config)) ||
	    (t->compiler && db_import_meta(t->ctx, 0, "compiler",
					   t->compiler)))
		return -1;
	return 0;
}

void *lkp_table_text_new(struct import_ctx *ctx)
{
	struct lkp_table *t;

	lkp_table_init(&t, ctx);
	return t;
}

int lkp_table_text_line(void *p, const char *line, long lineno)
{
	return lkp_table_line(p, line, lineno);
}

int lkp_table_text_end(void *p, int finish)
{
	int ret = finish ? lkp_table_finish(p) : 0;

	lkp_table_free(p);
	return ret;
}

int lkp_table_detect(const char *path, const char *head, size_t len)
{
	struct sbuf sb = SBUF_INIT;
	int score = 0;

	(void)path;
	sbuf_add(&sb, head, len);
	if ((strstr(sb.buf, "%stddev") && strstr(sb.buf, "change")) ||
	    (strstr(sb.buf, "fail:runs") && strstr(sb.buf, "%reproduction")))
		score = 80;
	else if (strstr(sb.buf, "kernel test robot noticed a ") ||
		 strstr(sb.buf, "FYI, we noticed a "))
		score = 70;
	sbuf_release(&sb);
	return score;
}

int lkp_table_parse(struct import_ctx *ctx, struct input *in)
{
	return import_text_file(ctx, in, "lkp-table");
}
