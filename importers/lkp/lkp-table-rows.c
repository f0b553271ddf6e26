/*
 * The tables of the lkp-table importer (see lkp-table-int.h; the format
 * is described at the top of lkp-table.c): a line that belongs to a
 * table (a header, the titles and dashes over it, a row, a row wrapped
 * in two), the cells of a row and their plus-minus signs, the columns'
 * variants, and the aggregate each column of a row becomes.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "lkp-table-int.h"

/* ---- small helpers ---- */

void lt_free_columns(struct lkp_table *t)
{
	size_t i;

	for (i = 0; i < t->nr_cols; i++) {
		free(t->col[i].name);
		t->col[i].name = NULL;
	}
	t->nr_cols = 0;
	free(t->section);
	t->section = NULL;
}

/* "v6.1", "5.10-rc3", "6.6.0-rc4-mm-eve": a kernel version's start. */
static int is_version(const char *s)
{
	if (*s == 'v')
		s++;
	return isdigit((unsigned char)s[0]) &&
	       (s[1] == '.' || (isdigit((unsigned char)s[1]) && s[2] == '.'));
}

/* A number as lkp prints values: "3016", "0.33", "1.926e+08". */
static int number(const char *s, double *out)
{
	return str_to_double(s, out) == 0 && isfinite(*out);
}

/*
 * A token that means to be a value and is not a finite number: "nan",
 * "inf", "-Infinity", "1e999", or digits with bytes of another script
 * in them ("23\xff0").  Named in the warning of the row it spoils,
 * which would otherwise be blamed on its columns.
 */
static int bad_number(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	double v;

	if (*p == '+' || *p == '-')
		p++;
	if (!strcasecmp((const char *)p, "nan") ||
	    !strcasecmp((const char *)p, "inf") ||
	    !strcasecmp((const char *)p, "infinity"))
		return 1;
	if (!isdigit(*p) || number(s, &v))
		return 0;
	/* a number with an exponent past the doubles' ("1e999") */
	if (strpbrk((const char *)p, "eE") &&
	    !p[strspn((const char *)p, "0123456789.eE+-")])
		return 1;
	for (; *p; p++)
		if (*p >= 0x80)
			return 1;
	return 0;
}

/* The first bad_number() of tok[0..n), or NULL. */
static const char *first_bad_number(char **tok, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (bad_number(tok[i]))
			return tok[i];
	return NULL;
}

/*
 * A row that cannot be read skipped, with why: a value that is not a
 * finite number when it holds one (at most 40 bytes of it quoted), else
 * what the row lacks (fmt).
 */
__attribute__((format(printf, 6, 7)))
static int skip_bad_row(struct lkp_table *t, long lineno, const char *text,
			char **tok, size_t n, const char *fmt, ...)
{
	const char *bad = first_bad_number(tok, n);
	struct sbuf why = SBUF_INIT;
	va_list ap;
	int rc;

	if (bad) {
		sbuf_addf(&why, "expected a finite number, got '%.40s'", bad);
	} else {
		va_start(ap, fmt);
		sbuf_vaddf(&why, fmt, ap);
		va_end(ap);
	}
	rc = db_skip_row(t->ctx, lineno, text, "%s", why.buf);
	sbuf_release(&why);
	return rc;
}

/*
 * How far the true value may lie from a number token as printed: half a
 * unit of its last digit ("0.33" 0.005, "1.926e+08" 0.0005e8, lkp's
 * %.4g), and a whole unit for an integer, which lkp's Ruby prints with
 * "%d" and so truncates ("3931" is 3931 to 3932).
 */
static double half_unit(const char *s)
{
	const char *dot = strchr(s, '.'), *e = strpbrk(s, "eE");
	double scale = e ? pow(10, strtod(e + 1, NULL)) : 1;
	size_t dec = 0;

	if (!dot && !e)
		return 1;
	if (dot && (!e || dot < e))
		while (isdigit((unsigned char)dot[1 + dec]))
			dec++;
	return 0.5 * pow(10, -(double)dec) * scale;
}

/* ---- the plus-minus sign, as mail delivers it ---- */

/*
 * "±" and what charset mix-ups make of it (research on samples/emails):
 * UTF-8 read as Latin-1 ("Â±", and "A+-" after transliteration), as
 * Latin-2 ("ą"), a lost byte ("ï¿½", U+FFFD), a 7-bit gateway ("__"),
 * or the ASCII "+-".  Any other short run of bytes that are not ASCII
 * (or are '_') standing between a value and "N%" is taken as one too;
 * a sign alone never is: "-6.0%" is a change.
 */
static int pm_glyph(const char *s, size_t len)
{
	static const char *const ascii[] = { "A+-", "+-", "+/-", "-+" };
	size_t i;

	if (!len || len > 8)
		return 0;
	for (i = 0; i < ARRAY_SIZE(ascii); i++)
		if (len == strlen(ascii[i]) && !memcmp(s, ascii[i], len))
			return 1;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x80 && c != '_')
			return 0;
	}
	return 1;
}

/* "2%", "115%", "-1%": a spread; *pct receives it.  1 or 0. */
static int spread_token(const char *s, size_t len, double *pct)
{
	char buf[32];

	if (len < 2 || s[len - 1] != '%' || len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	if (!isdigit((unsigned char)buf[0]) && buf[0] != '-')
		return 0;
	return number(buf, pct);
}

/*
 * "±" then "2%", or "±115%" as one token, at tok[i]: the tokens used
 * (0: none there), the spread in *pct.
 */
static int plus_minus(char **tok, size_t i, size_t n, double *pct)
{
	size_t len, k;

	if (i >= n)
		return 0;
	len = strlen(tok[i]);
	if (pm_glyph(tok[i], len))
		return i + 1 < n && spread_token(tok[i + 1], strlen(tok[i + 1]),
						 pct) ? 2 : 0;
	/* fused: the glyph, then the digits */
	for (k = 1; k < len && k <= 8; k++)
		if (isdigit((unsigned char)tok[i][k]) &&
		    pm_glyph(tok[i], k) &&
		    spread_token(tok[i] + k, len - k, pct))
			return 1;
	return 0;
}

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

/* Is s, in a row's cells, a change rather than a value? */
static int looks_like_change(const char *s)
{
	return s[0] == '+' || s[0] == '-' || ends_with(s, "%");
}

/* "3:9", ":8", "7632:13": count and runs of one column. */
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
	return !str_to_long(colon + 1, runs) && *runs > 0;
}

/* The start of a cell: a number, a change, or a fail count. */
int lt_cell_start(const char *s)
{
	double v;
	long a, b;

	return number(s, &v) || (s[0] == ':' && fail_count(s, &a, &b)) ||
	       (isdigit((unsigned char)s[0]) && strchr(s, ':') &&
		fail_count(s, &a, &b));
}

/*
 * The metric name that ends a row: no blanks, a letter in it, neither
 * a number nor a percentage ("vm-scalability.throughput",
 * "dmesg.RIP:process_srcu", "[unknown]").
 */
static int metric_name(const char *s)
{
	char buf[64];
	size_t len = strlen(s);
	double v;
	int letter = 0;

	/* "mpstat.cpu.all.usr%" is a name, "-6.0%" a change */
	if (len && len < sizeof(buf) && s[len - 1] == '%') {
		memcpy(buf, s, len - 1);
		buf[len - 1] = '\0';
		if (number(buf, &v))
			return 0;
	}
	if (number(s, &v) || ends_with(s, "%)") || ends_with(s, "%*"))
		return 0;
	for (; *s; s++)
		letter |= isalpha((unsigned char)*s);
	return letter;
}

/* ---- columns and variants ---- */

static const char *axis(const struct lkp_table *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nr_axes; i++)
		if (!strcmp(t->axis_key[i], key))
			return t->axis_val[i];
	return NULL;
}

/* The longest hex id known that starts with sha: extend sha in place. */
static void extend_sha(const struct lkp_table *t, char *sha)
{
	size_t i, n = strlen(sha);

	if (t->head_sha && !strncmp(t->head_sha, sha, n))
		snprintf(sha, 41, "%s", t->head_sha);
	for (i = 0; i < t->nr_list; i++) {
		size_t m = strlen(t->list[i]);

		if (m > strlen(sha) && m <= 40 && is_hex_id(t->list[i], 7) &&
		    !strncasecmp(t->list[i], sha, n))
			copy_sha(sha, t->list[i]);
	}
}

/* Give the columns a "table" param if an earlier table had one of them. */
static void mark_repeated(struct lkp_table *t)
{
	struct sbuf key = SBUF_INIT;
	int64_t v;
	size_t i;
	int again = 0;

	t->nr_sets++;
	t->set_tag[0] = '\0';
	for (i = 0; i < t->nr_cols; i++) {
		const struct column *c = &t->col[i];

		if (!c->sha[0] && !c->name)
			continue;	/* untitled: named apart already */
		sbuf_reset(&key);
		sbuf_addf(&key, "%s|%s", c->sha[0] ? c->sha : c->name,
			  t->section ? t->section : "");
		if (strmap_get(&t->seen_cols, key.buf, key.len, &v))
			again = 1;
		else
			strmap_put(&t->seen_cols, key.buf, key.len, 1);
	}
	if (again)
		snprintf(t->set_tag, sizeof(t->set_tag), "%d", t->nr_sets);
	sbuf_release(&key);
}

/*
 * Name the columns of a new table: titles (NULL: none printed), one per
 * column.  A title that starts the "commit:" entry of its position is
 * that entry (the titles are cut to the column's width).
 */
static void set_columns(struct lkp_table *t, char **titles, size_t n)
{
	size_t i;
	int full = titles && t->nr_list == n;

	lt_free_columns(t);
	if (!titles)
		t->nr_untitled++;
	for (i = 0; i < n; i++) {
		struct column *c = &t->col[i];
		const char *name = titles ? titles[i] : NULL;

		c->sha[0] = '\0';
		if (name && full && starts_with(t->list[i], name))
			name = t->list[i];
		if (name && is_hex_id(name, 7)) {
			copy_sha(c->sha, name);
			extend_sha(t, c->sha);
		}
		c->name = name ? xstrdup(name) : NULL;
	}
	t->nr_cols = n;
	if (t->heading) {
		t->section = t->heading;
		t->heading = NULL;
	}
	mark_repeated(t);
}

/* The tag of an untitled table's labels (see the top of lkp-table.c). */
static void untitled_tag(const struct lkp_table *t, struct sbuf *tag)
{
	const char *p = t->ctx->path, *slash;

	if (t->head_sha) {
		sbuf_add(tag, t->head_sha, 12);
	} else if (t->msgid && *t->msgid) {
		const char *at = strchr(t->msgid, '@');
		size_t n = at ? (size_t)(at - t->msgid) : strlen(t->msgid);

		sbuf_add(tag, t->msgid, n > 64 ? 64 : n);
	} else {
		slash = strrchr(p, '/');
		sbuf_addstr(tag, slash ? slash + 1 : p);
	}
	if (t->nr_untitled > 1)
		sbuf_addf(tag, "#%d", t->nr_untitled);
}

/*
 * The variant of column c.  label receives an untitled column's label
 * (the caller's buffer, it must outlive *a's use); kv the params.
 */
static void variant_of(const struct lkp_table *t, size_t c,
		       const char *row_label, struct agg_desc *a,
		       struct kv *kv, struct sbuf *label)
{
	const struct column *col = &t->col[c];
	const char *tc = axis(t, "testcase");
	size_t i, k = 0;

	memset(a, 0, sizeof(*a));
	a->suite = "lkp";
	a->testcase = tc ? tc : t->testcase;
	a->machine = axis(t, "tbox_group");
	sbuf_reset(label);
	if (col->sha[0]) {
		/* the label defaults to the commit's first 12 digits */
		a->commit = col->sha;
	} else if (col->name && is_version(col->name)) {
		a->kernel = col->name;
	} else if (col->name) {
		a->label = col->name;
	} else if (t->head_sha && c + 1 == t->nr_cols) {
		/* a robot report's table compares its commit last */
		a->commit = t->head_sha;
	} else {
		untitled_tag(t, label);
		if (!c)
			sbuf_addstr(label, "-base");
		else if (c == 1)
			sbuf_addstr(label, "-new");
		else
			sbuf_addf(label, "-new%zu", c);
		a->label = label->buf;
	}
	for (i = 0; i < t->nr_axes && k < MAX_AXES - 3; i++) {
		if (!strcmp(t->axis_key[i], "testcase") ||
		    !strcmp(t->axis_key[i], "tbox_group"))
			continue;
		kv[k].key = t->axis_key[i];
		kv[k].value = t->axis_val[i];
		k++;
	}
	if (!t->nr_axes)
		for (i = 0; i < t->nr_params && k < MAX_AXES - 3; i++)
			kv[k++] = t->params[i];
	if (t->section) {
		kv[k].key = "section";
		kv[k++].value = t->section;
	}
	if (t->set_tag[0]) {
		kv[k].key = "table";
		kv[k++].value = t->set_tag;
	}
	if (row_label) {
		kv[k].key = "row";
		kv[k++].value = row_label;
	}
	a->params = kv;
	a->nr_params = k;
}

/* The column a change is printed against: its commit or its name. */
static const char *change_base(const struct agg_desc *base)
{
	return base->commit ? base->commit : base->kernel ? base->kernel :
	       base->label;
}

/* ---- tables ---- */

/*
 * Start a table of n columns (titles may be NULL) at line: its rows may
 * follow; it is named to the database with its first row.
 */
static void table_start(struct lkp_table *t, char **titles, size_t n,
			enum layout lay, long lineno, int depth)
{
	set_columns(t, titles, n);
	t->layout = lay;
	t->active = 1;
	t->registered = 0;
	t->depth = depth;
	t->last_row = lineno;
}

static void table_register(struct lkp_table *t, long lineno)
{
	const char *title = t->section ? t->section : axis(t, "testcase");

	if (t->registered)
		return;
	if (!title)
		title = t->testcase;
	db_table_begin(t->ctx, lineno, t->layout == L_FAIL ? "lkp-fail" : "lkp",
		       title, (int)t->nr_cols);
	t->registered = 1;
}

/* A header line: which layout the rows below it have; L_NONE if none. */
static enum layout header_layout(char **tok, size_t n, size_t *cols)
{
	size_t i, sd = 0, ch = 0, fr = 0, rep = 0;

	for (i = 0; i < n; i++) {
		if (!strcmp(tok[i], "%stddev"))
			sd++;
		else if (!strcmp(tok[i], "%change") || !strcmp(tok[i], "change"))
			ch++;
		else if (!strcmp(tok[i], "fail:runs"))
			fr++;
		else if (!strcmp(tok[i], "%reproduction"))
			rep++;
		else
			return L_NONE;
	}
	if (fr >= 2 && rep == fr - 1 && !sd && !ch) {
		*cols = fr;
		return L_FAIL;
	}
	if (sd >= 2 && ch == sd - 1 && !fr && !rep) {
		*cols = sd;
		for (i = 0; i < n; i++)
			if (!strcmp(tok[i], "%change"))
				return L_NCOMPARE;
		return L_COMPARE;
	}
	return L_NONE;
}

/* ---- rows ---- */

struct cell {
	double value;
	double half;		/* the value's printed rounding */
	double sd_pct;		/* NAN: not printed */
	int has_change;
	double change;		/* as printed */
	double change_half;
	const char *change_text;	/* the token, borrowed */
	int change_abs;		/* printed without '%' */
};

/* Tokens tok[0..n) that are not part of a "± N%". */
static size_t plain_tokens(char **tok, size_t n)
{
	size_t i, plain = 0;
	double dummy;

	for (i = 0; i < n; i++) {
		int pm = plus_minus(tok, i, n, &dummy);

		if (pm)
			i += (size_t)pm - 1;
		else
			plain++;
	}
	return plain;
}

/*
 * Read the cells of a perf row of ncols columns from tok[0..n) (the
 * name left out).  changes: how many of the plain tokens are changes.
 * 0, or -1 when the row does not fit.
 */
static int perf_cells(char **tok, size_t n, size_t ncols, size_t changes,
		      struct cell *cell)
{
	size_t i = 0, c;

	for (c = 0; c < ncols; c++) {
		struct cell *x = &cell[c];
		int pm;

		memset(x, 0, sizeof(*x));
		x->sd_pct = NAN;
		if (c > 0 && changes == ncols - 1) {
			if (i >= n || !change_token(tok[i], &x->change,
						    &x->change_abs))
				return -1;
		} else if (c > 0 && changes && i < n &&
			   looks_like_change(tok[i]) &&
			   change_token(tok[i], &x->change, &x->change_abs)) {
			/*
			 * sbin/compare, some changes blank: a change ends in
			 * '%' or is signed where a value seldom is
			 */
			changes--;
		} else {
			goto value;
		}
		x->has_change = 1;
		x->change_text = tok[i];
		x->change_half = half_unit(tok[i]);
		i++;
value:
		if (i >= n || !number(tok[i], &x->value))
			return -1;
		x->half = half_unit(tok[i]);
		i++;
		pm = plus_minus(tok, i, n, &x->sd_pct);
		i += (size_t)pm;
	}
	return i == n ? 0 : -1;
}

/*
 * The columns of a row with no table around it: its cells alternate
 * value and change (ncompare's layout, the one people quote), so there
 * are (p + 1) / 2 of them.  0 if they do not.
 */
static size_t infer_columns(char **tok, size_t n)
{
	size_t p = plain_tokens(tok, n), i, k = 0;
	double dummy;

	if (p < 3 || !(p & 1) || (p + 1) / 2 > MAX_COLS)
		return 0;
	for (i = 0; i < n; i++) {
		int pm = plus_minus(tok, i, n, &dummy);

		if (pm) {
			i += (size_t)pm - 1;
			continue;
		}
		if ((k & 1) && !looks_like_change(tok[i]))
			return 0;
		k++;
	}
	return (p + 1) / 2;
}

/*
 * The change from b to x the printed values allow, within their
 * rounding: [*lo, *hi] in % (absolute: their difference).  0 if their
 * rounding allows any change (a base printed as 0).
 */
static int change_range(const struct cell *b, const struct cell *x, int abs,
			double *lo, double *hi)
{
	int i;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < 4; i++) {
		double vv = x->value + (i & 1 ? x->half : -x->half);
		double bb = b->value + (i & 2 ? b->half : -b->half);
		double d;

		if (abs)
			d = vv - bb;
		else if (bb != 0 && (bb > 0) == (b->value > 0))
			d = 100 * (vv - bb) / fabs(bb);
		else
			return 0;	/* rounded to nothing: anything goes */
		*lo = fmin(*lo, d);
		*hi = fmax(*hi, d);
	}
	return 1;
}

/* The printed change, checked against the values within their rounding. */
static void check_change(struct lkp_table *t, const char *metric,
			 const struct cell *b, const struct cell *x,
			 long lineno)
{
	double lo, hi, tol;

	if (!x->has_change || !change_range(b, x, x->change_abs, &lo, &hi))
		return;
	tol = x->change_half + 1e-9;
	/* ncompare prints %+.2g past 1e5 */
	if (fabs(x->change) >= 1e5)
		tol += 0.05 * fabs(x->change);
	if (x->change < lo - tol || x->change > hi + tol)
		db_warn(t->ctx, lineno, "'%s': the printed change %s does not "
			"follow from the values (%.4g to %.4g)", metric,
			x->change_text, lo, hi);
}

/* The report's own table is the first that has its metric. */
static void check_headline(struct lkp_table *t, const char *metric,
			   const struct cell *cell, long lineno)
{
	double lo, hi, pct;
	const char *sha;
	size_t c;

	if (t->headline && t->depth == t->headline_depth)
		t->headline_rows++;
	if (!t->headline || t->headline_seen || strcmp(metric, t->headline) ||
	    t->nr_cols < 2 || t->depth != t->headline_depth)
		return;
	t->headline_seen = 1;
	/* the report's commit: the body's, else the subject's, else last */
	sha = t->head_sha ? t->head_sha : t->headline_sha;
	for (c = 1; c + 1 < t->nr_cols; c++)
		if (*sha && t->col[c].sha[0] &&
		    (starts_with(sha, t->col[c].sha) ||
		     starts_with(t->col[c].sha, sha)))
			break;
	if (!change_range(&cell[0], &cell[c], 0, &lo, &hi))
		return;
	/* 2025- prints the magnitude only: either sign may be meant */
	pct = fabs(t->headline_pct);
	if ((pct < lo - 0.15 || pct > hi + 0.15) &&
	    (-pct < lo - 0.15 || -pct > hi + 0.15))
		db_warn(t->ctx, lineno, "'%s': the report says %g%%, its table "
			"%+.1f%%", metric, t->headline_pct, (lo + hi) / 2);
}

/*
 * The spread a cell printed (its "± P%"), into a: relative to the mean,
 * under 1 % ("± 0%": lkp cuts the percentage), at most bound times the
 * mean when it printed none, or unknown (a mean of 0: warned).
 */
static void cell_spread(struct lkp_table *t, const struct cell *cell,
			const char *metric, double bound, struct agg_desc *a,
			long lineno)
{
	a->stddev = NAN;
	if (cell->sd_pct == 0) {
		a->stddev_at_most_pct = 1;
	} else if (isfinite(cell->sd_pct) && cell->sd_pct > 0) {
		if (cell->value != 0) {
			a->stddev = cell->sd_pct;
			a->stddev_kind = "relative";
		} else {
			db_warn(t->ctx, lineno, "'%s': a spread of %g%% around "
				"a mean printed as 0: kept as unknown", metric,
				cell->sd_pct);
		}
	} else if (!isfinite(cell->sd_pct)) {
		a->stddev_at_most_pct = bound;
	}
}

static int perf_row(struct lkp_table *t, char **tok, size_t n,
		    const char *row_label, const char *text, long lineno)
{
	struct cell cell[MAX_COLS];
	struct kv kv[MAX_AXES];
	struct sbuf label = SBUF_INIT, base_label = SBUF_INIT;
	const char *metric = tok[n - 1];
	struct agg_desc base;
	size_t c, plain = plain_tokens(tok, n - 1), changes;
	double bound = t->layout == L_COMPARE ? 3 : 2;
	int ret = -1;

	changes = plain - t->nr_cols;
	if (plain < t->nr_cols || plain > 2 * t->nr_cols - 1 ||
	    (t->layout == L_NCOMPARE && changes != t->nr_cols - 1) ||
	    perf_cells(tok, n - 1, t->nr_cols, changes, cell)) {
		ret = skip_bad_row(t, lineno, text, tok, n - 1, "expected "
				   "%zu columns of values (and changes) before "
				   "the metric name", t->nr_cols);
		goto out;
	}
	table_register(t, lineno);
	for (c = 0; c < t->nr_cols; c++) {
		struct agg_desc a;

		variant_of(t, c, row_label, &a, kv, c ? &label : &base_label);
		if (!c)
			base = a;
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
			a.change_base = change_base(&base);
		}
		cell_spread(t, &cell[c], metric, bound, &a, lineno);
		if (db_emit_aggregate(t->ctx, &a, lineno))
			goto out;
		if (c)
			check_change(t, metric, &cell[0], &cell[c], lineno);
	}
	check_headline(t, metric, cell, lineno);
	db_table_row(t->ctx);
	t->rows++;
	ret = 0;
out:
	sbuf_release(&label);
	sbuf_release(&base_label);
	return ret;
}

static int fail_row(struct lkp_table *t, char **tok, size_t n,
		    const char *row_label, const char *text, long lineno)
{
	struct kv kv[MAX_AXES];
	struct sbuf label = SBUF_INIT, base_label = SBUF_INIT;
	const char *metric = tok[n - 1];
	struct agg_desc base;
	size_t c, i = 0;
	int ret = -1;

	if (n != 2 * t->nr_cols) {
		ret = db_skip_row(t->ctx, lineno, text, "expected 'fails:runs' "
				  "for %zu columns and %%reproduction between "
				  "them", t->nr_cols);
		goto out;
	}
	for (c = 0; c < t->nr_cols; c++) {
		long fails, runs;
		double repro;
		int abs;

		if ((c > 0 && !change_token(tok[2 * c - 1], &repro, &abs)) ||
		    !fail_count(tok[c ? 2 * c : 0], &fails, &runs)) {
			ret = db_skip_row(t->ctx, lineno, text, "expected "
					  "'fails:runs' for %zu columns and "
					  "%%reproduction between them",
					  t->nr_cols);
			goto out;
		}
	}
	table_register(t, lineno);
	for (c = 0; c < t->nr_cols; c++) {
		struct agg_desc a;
		long fails, runs;

		if (c > 0)
			i++;
		fail_count(tok[i++], &fails, &runs);
		variant_of(t, c, row_label, &a, kv, c ? &label : &base_label);
		if (!c)
			base = a;
		if (c > 0) {
			/* %reproduction as printed, against column 0 */
			a.change_source = tok[i - 2];
			a.change_base = change_base(&base);
		}
		a.metric = metric;
		a.stat = "fails";
		a.value = (double)fails;
		a.stddev = NAN;
		a.n = runs;
		if (db_emit_aggregate(t->ctx, &a, lineno))
			goto out;
	}
	db_table_row(t->ctx);
	t->rows++;
	ret = 0;
out:
	sbuf_release(&label);
	sbuf_release(&base_label);
	return ret;
}

/* A token of a row's cells: a value, a change, a spread or its sign. */
static int cellish(char **tok, size_t i, size_t n)
{
	double v;
	int abs;

	return lt_cell_start(tok[i]) || change_token(tok[i], &v, &abs) ||
	       plus_minus(tok, i, n, &v) ||
	       (i > 0 && plus_minus(tok, i - 1, n, &v) == 2);
}

/*
 * Does tok[0..n) read as a row: cells (after a row label), then a
 * metric name?  *first is where the cells start (1 past a label).
 */
static int row_shape(char **tok, size_t n, size_t *first)
{
	size_t i;

	*first = 0;
	if (n >= 3 && !lt_cell_start(tok[0]) && !bad_number(tok[0]) &&
	    lt_cell_start(tok[1]) && !strchr(tok[0], ':') &&
	    !ends_with(tok[0], ","))
		*first = 1;
	if (n - *first < 2 || !lt_cell_start(tok[*first]) ||
	    !metric_name(tok[n - 1]))
		return 0;
	for (i = *first; i < n - 1; i++)
		if (!cellish(tok, i, n - 1))
			return 0;
	return 1;
}

/*
 * Titles kept from the line above that may name cols columns of rows
 * under them with no dashes between: each a commit id or a version
 * ("v5.11-rc1", "v5.11-rc1+patch"), not prose or a URL.
 */
static int titles_for(const struct lkp_table *t, size_t cols)
{
	size_t i;

	if (!cols || t->nr_cand != cols)
		return 0;
	for (i = 0; i < cols; i++)
		if (!is_hex_id(t->cand[i], 7) && !is_version(t->cand[i]))
			return 0;
	return 1;
}

/* Do n plain tokens of a row fit the current table's columns? */
static int fits_columns(const struct lkp_table *t, size_t plain)
{
	if (t->layout == L_FAIL)
		return 0;
	if (plain < t->nr_cols || plain > 2 * t->nr_cols - 1)
		return 0;
	return t->layout != L_NCOMPARE || plain == 2 * t->nr_cols - 1;
}

/*
 * A row, with or without a table around it.  1 if the line was taken as
 * one (read or skipped), 0 if it is not a row, -1 after error().
 */
static int row(struct lkp_table *t, char **tok, size_t n, const char *text,
	       long lineno, int depth)
{
	size_t first, cols = 0;
	const char *row_label;
	int fail, contiguous, fits = 0, fresh, rc;

	if (!n || n > MAX_TOKENS)
		return 0;
	contiguous = t->active && t->last_row == t->prev_line;
	if (!row_shape(tok, n, &first)) {
		/*
		 * Inside a table, a line that starts like a row and ends in a
		 * metric's name is one that cannot be read
		 */
		if (!contiguous || n < 2 ||
		    !(lt_cell_start(tok[0]) || bad_number(tok[0])) ||
		    !metric_name(tok[n - 1]) || !strchr(tok[n - 1], '.'))
			return 0;
		rc = skip_bad_row(t, lineno, text, tok, n - 1, "expected "
				  "numbers, a change and '± N%%' before the "
				  "metric name");
		t->last_row = lineno;
		return rc ? -1 : 1;
	}
	row_label = first ? tok[0] : NULL;
	fail = strchr(tok[first], ':') != NULL;
	if (fail)
		cols = (n - first) & 1 ? 0 : (n - first) / 2;
	else
		cols = infer_columns(tok + first, n - first - 1);
	/* titles or a heading just above: the rows of a new table */
	fresh = !contiguous && (titles_for(t, cols) ||
				(t->heading && t->heading_line + 4 >= lineno));
	if (t->active && !fresh && (contiguous || depth == t->depth ||
				    !cols || !strchr(tok[n - 1], '.')))
		fits = fail ? t->layout == L_FAIL :
			      fits_columns(t, plain_tokens(tok + first,
							   n - first - 1));
	if (!fits && (cols < 2 || !strchr(tok[n - 1], '.') ||
		      (contiguous && !fresh))) {
		/* row-like, but no table it fits */
		if (!t->active)
			return 0;
		rc = skip_bad_row(t, lineno, text, tok + first,
				  n - first - 1, "expected %zu columns of %s "
				  "before the metric name", t->nr_cols,
				  t->layout == L_FAIL ? "'fails:runs' and "
				  "%reproduction" : "values (and changes)");
		t->last_row = lineno;
		return rc ? -1 : 1;
	}
	if (!fits)
		table_start(t, titles_for(t, cols) ? t->cand : NULL, cols,
			    fail ? L_FAIL : L_NCOMPARE, lineno, depth);
	free_strs(t->cand, &t->nr_cand);
	t->depth = depth;
	t->last_row = lineno;
	if (t->layout == L_FAIL)
		return fail_row(t, tok + first, n - first, row_label, text,
				lineno) ? -1 : 1;
	return perf_row(t, tok + first, n - first, row_label, text, lineno) ?
		-1 : 1;
}

/*
 * The cells of a row without its name (the name wrapped to the next
 * line): 1 if line reads so for the current table (or as a table of its
 * own).
 */
static int wrapped_cells(const struct lkp_table *t, char **tok, size_t n)
{
	size_t p;

	if (!n || n > MAX_TOKENS || !lt_cell_start(tok[0]) ||
	    strchr(tok[0], ':') || metric_name(tok[n - 1]))
		return 0;
	for (p = 0; p < n; p++)
		if (!cellish(tok, p, n))
			return 0;
	p = plain_tokens(tok, n);
	if (t->active && t->layout != L_FAIL)
		return p >= t->nr_cols && p <= 2 * t->nr_cols - 1;
	return infer_columns(tok, n) >= 2;
}

/* ---- lines ---- */

/* Keep the line's tokens as the titles of a table that may follow. */
void lt_remember_titles(struct lkp_table *t, char **tok, size_t n)
{
	size_t i;

	free_strs(t->cand, &t->nr_cand);
	if (n < 2 || n > MAX_COLS)
		return;
	for (i = 0; i < n; i++)
		if (strchr(tok[i], '%') || ends_with(tok[i], ":") ||
		    ends_with(tok[i], ",") || ends_with(tok[i], "."))
			return;
	for (i = 0; i < n; i++)
		t->cand[i] = xstrdup(tok[i]);
	t->nr_cand = n;
}

/* How many groups of dashes a line of them has (0: not such a line). */
static size_t dash_groups(const char *s)
{
	size_t groups = 0, len = 0;

	for (;; s++) {
		if (*s == '-') {
			len++;
			continue;
		}
		if (len) {
			if (len < 4)
				return 0;
			groups++;
			len = 0;
		}
		if (!*s)
			break;
		if (*s != ' ' && *s != '\t')
			return 0;
	}
	return groups;
}

/* A line of dashes: under titles, or under a heading.  1 if taken. */
static int dashes(struct lkp_table *t, const char *s, long lineno, int depth)
{
	size_t groups = dash_groups(s);

	if (!groups)
		return 0;
	if (groups == 1) {
		/* "will-it-scale/malloc1" over its own dashes: a heading */
		free(t->heading);
		t->heading = t->last_text ? xstrdup(t->last_text) : NULL;
		t->heading_line = lineno;
		free_strs(t->cand, &t->nr_cand);
		return 1;
	}
	if (groups > MAX_COLS)
		return 0;
	if (t->nr_cand == groups)
		table_start(t, t->cand, groups, L_NONE, lineno, depth);
	else if (t->nr_list == groups)
		table_start(t, t->list, groups, L_NONE, lineno, depth);
	else
		table_start(t, NULL, groups, L_NONE, lineno, depth);
	free_strs(t->cand, &t->nr_cand);
	t->last_row = lineno;
	return 1;
}

/* A header line; 1 if it was one. */
static int header(struct lkp_table *t, char **tok, size_t n, long lineno,
		  int depth)
{
	size_t cols = 0;
	enum layout lay;
	int contiguous;

	if (!n || n > MAX_TOKENS)
		return 0;
	lay = header_layout(tok, n, &cols);
	if (lay == L_NONE || cols > MAX_COLS)
		return 0;
	contiguous = t->active && t->last_row == t->prev_line &&
		     t->nr_cols == cols;
	if (contiguous && t->registered && t->layout == L_FAIL &&
	    lay != L_FAIL) {
		/* a %stddev block after a fail block: a table of its own */
		t->registered = 0;
	} else if (!contiguous || t->registered) {
		/* a new table: the titles above, if they fit; else none */
		table_start(t, t->nr_cand == cols ? t->cand : NULL, cols, lay,
			    lineno, depth);
	}
	t->layout = lay;
	t->last_row = lineno;
	t->depth = depth;
	free_strs(t->cand, &t->nr_cand);
	return 1;
}

/*
 * The line after a row held in wrap (cut in two by a mailer): its
 * metric name alone joins the row, which is read; 1 if so, 0 if the
 * held row is skipped instead (the line then read as any other), -1
 * after error().
 */
int lt_join_wrapped(struct lkp_table *t, const char *s, size_t len,
		    int depth)
{
	char line[LINE_CAP], buf[LINE_CAP], *tok[MAX_TOKENS + 1];
	size_t n;
	int rc;

	memcpy(buf, s, strlen(s) + 1);
	if (tokenize(buf, tok, 1) == 1 && metric_name(tok[0]) &&
	    t->wrap.len + len + 2 < sizeof(buf)) {
		long at = t->wrap_line;

		sbuf_addch(&t->wrap, ' ');
		sbuf_addstr(&t->wrap, s);
		memcpy(line, t->wrap.buf, t->wrap.len + 1);
		sbuf_reset(&t->wrap);
		memcpy(buf, line, strlen(line) + 1);
		n = tokenize(buf, tok, MAX_TOKENS);
		return row(t, tok, n, line, at, depth) < 0 ? -1 : 1;
	}
	rc = db_skip_row(t->ctx, t->wrap_line, t->wrap.buf, "a row "
			 "without its metric name");
	sbuf_reset(&t->wrap);
	return rc ? -1 : 0;
}

/*
 * A line that belongs to a table: a row, a header, the glyphs under
 * it, a heading's dashes, or the cells of a row cut before its name
 * (held in wrap).  1 if it was, 0 if not, -1 after error().
 */
int lt_table_line(struct lkp_table *t, const char *s, char **tok,
		  size_t n, long lineno, int depth)
{
	int rc = row(t, tok, n, s, lineno, depth);

	if (rc)
		return rc < 0 ? -1 : 1;
	if (header(t, tok, n, lineno, depth))
		return 1;
	if (all_of(s, "\\|")) {
		t->last_row = lineno;	/* the glyphs under the header */
		return 1;
	}
	if (dashes(t, s, lineno, depth))
		return 1;
	if (wrapped_cells(t, tok, n)) {
		sbuf_addstr(&t->wrap, s);
		t->wrap_line = lineno;
		return 1;
	}
	return 0;
}
