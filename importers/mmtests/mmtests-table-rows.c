/*
 * The rows of an mmtests table (mmtests-table-int.h; the format is
 * described at the top of mmtests-table.c): the tokens of a line, its
 * values and percentages read from the right, values fused with what is
 * before them split off, the percentages checked against the values,
 * and each cell written as an aggregate.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "mmtests-table-int.h"
#include <ctype.h>

/* Split s (modified) at blanks; returns the count, MAX_TOKENS + 1 if more. */
size_t mtt_tokenize(char *s, struct token *tok)
{
	char *start = s;
	size_t n = 0;

	while (*s) {
		while (isspace((unsigned char)*s))
			*s++ = '\0';
		if (!*s)
			break;
		if (n == MAX_TOKENS)
			return MAX_TOKENS + 1;
		tok[n].s = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		tok[n++].end = (size_t)(s - start);
	}
	return n;
}

/* A value as MMTests prints them: "%.2f" (or more decimals); finite. */
int mtt_number(const char *s, double *out)
{
	return str_to_double(s, out) == 0 && isfinite(*out);
}

/* A cell of a monitor table: a number, or "56%" (2013's efficiencies). */
int mtt_monitor_value(const char *s, double *out)
{
	char buf[64];
	size_t len = strlen(s);

	if (mtt_number(s, out))
		return 1;
	if (len < 2 || len >= sizeof(buf) || s[len - 1] != '%')
		return 0;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	return mtt_number(buf, out);
}

static int integer(const char *s)
{
	if (!*s)
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

/* Half a unit of the last printed decimal of a number token. */
static double half_unit(const char *s)
{
	const char *dot = strchr(s, '.');
	size_t dec = 0;

	if (dot)
		while (isdigit((unsigned char)dot[1 + dec]))
			dec++;
	return 0.5 * pow(10, -(double)dec);
}

int mtt_is_pct_token(const char *s)
{
	return ends_with(s, "%)") || ends_with(s, "%*");
}

/*
 * Statistic labels of every era (see the top of mmtests-table.c); "Duration",
 * "Ops" and the single-value modules' labels of 2020 (Lat, MB/sec,
 * Percentage) too.
 */
int mtt_known_label(const char *s)
{
	static const char *const exact[] = {
		"Min", "Max", "Mean", "Amean", "Hmean", "Gmean", "Stddev",
		"HStddev", "GStddev", "CoeffVar", "HCoeffVar", "Coeff",
		"1st-qrtle", "2nd-qrtle", "3rd-qrtle", "SubAmean", "SubHmean",
		"Samples", "Duration", "Ops", "Lat", "MB/sec", "Percentage",
	};
	static const char *const prefixed[] = {
		/* then a number */
		"Max-", "BAmean-", "BHmean-", "BAmean.", "BHmean.", "Pct.",
		"Pctile.", "Best",
	};
	static const char *const ci[] = {
		"AmeanCI", "HmeanCI", "SubAmeanCI", "SubHmeanCI",
	};
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(s, exact[i]))
			return 1;
	for (i = 0; i < ARRAY_SIZE(ci); i++) {
		size_t len = strlen(ci[i]);

		if (!strncmp(s, ci[i], len) &&
		    (!s[len] || !strcmp(s + len, "-Low") ||
		     !strcmp(s + len, "-High")))
			return 1;
	}
	for (i = 0; i < ARRAY_SIZE(prefixed); i++) {
		const char *p = s + strlen(prefixed[i]);

		if (!starts_with(s, prefixed[i]) || !isdigit((unsigned char)*p))
			continue;
		k = 0;
		while (isdigit((unsigned char)p[k]) || p[k] == '.')
			k++;
		/* "Max-90%", "Best95%Amean", "Best95%Hmean" */
		if (!p[k] || (!strcmp(p + k, "%") && i == 0))
			return i != ARRAY_SIZE(prefixed) - 1;
		if (i == ARRAY_SIZE(prefixed) - 1 &&
		    (!strcmp(p + k, "%Amean") || !strcmp(p + k, "%Hmean")))
			return 1;
	}
	return 0;
}

/* The fields ExtractPft of 2013 printed in the label's place. */
static int pft_field(const char *s)
{
	static const char *const fields[] = {
		"User", "System", "Elapsed", "Faults/cpu", "Faults/sec",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (!strcmp(s, fields[i]))
			return 1;
	return 0;
}

/*
 * Take a "(pct%)" or "*pct%*" off the end of tok[0..*i): 1 and *i moved
 * before it, or 0.
 */
static int take_pct(const struct token *tok, size_t *i, struct cell *c)
{
	char buf[64];
	const char *s;
	size_t len, used = 1;
	char opener;

	if (!*i || !mtt_is_pct_token(tok[*i - 1].s))
		return 0;
	s = tok[*i - 1].s;
	len = strlen(s);
	opener = s[len - 1] == ')' ? '(' : '*';
	if (s[0] == opener) {
		s++;
		len--;
	} else if (*i >= 2 && tok[*i - 2].s[0] == opener &&
		   !tok[*i - 2].s[1]) {
		used = 2;
	} else {
		return 0;
	}
	if (len < 3 || len - 2 >= sizeof(buf))
		return 0;
	memcpy(buf, s, len - 2);
	buf[len - 2] = '\0';
	if (!mtt_number(buf, &c->pct))
		return 0;
	c->has_pct = 1;
	c->starred = opener == '*';
	*i -= used;
	return 1;
}

/* A token that was meant as a number: "12.5x", "-nan", ".5e". */
static int numberish(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return isdigit((unsigned char)*s) || *s == '.' ||
	       !strcasecmp(s, "nan") || !strcasecmp(s, "inf");
}

/*
 * Read ncols cells off the end of tok[0..n): pct says each has a
 * percentage, labelless that only the operation is before them (else a
 * label and the operation).  *rest receives the count of tokens before
 * them.  0, or -1 with why (cap bytes) saying why the row does not read.
 */
int mtt_read_cells(const struct token *tok, size_t n, size_t ncols,
		   int pct, int labelless, struct cell *cell, size_t *rest,
		   char *why, size_t cap)
{
	size_t i = n, c, need = labelless ? 1 : 2;
	double dummy;

	for (c = ncols; c-- > 0;) {
		struct cell *x = &cell[c];
		int ok;

		memset(x, 0, sizeof(*x));
		if (i)
			x->end = tok[i - 1].end;
		if (pct && !take_pct(tok, &i, x))
			goto misaligned;
		if (i < need + 1)
			goto misaligned;
		ok = pct ? mtt_number(tok[i - 1].s, &x->value) :
			   mtt_monitor_value(tok[i - 1].s, &x->value);
		if (!ok) {
			if (!pct && !numberish(tok[i - 1].s))
				goto misaligned;
			snprintf(why, cap, "'%s' is not a number",
				 tok[i - 1].s);
			return -1;
		}
		x->half = half_unit(tok[i - 1].s);
		i--;
	}
	if (i < need || (pct && mtt_is_pct_token(tok[i - 1].s)))
		goto misaligned;
	/* an operation of several words does not end in a number */
	if (!pct && i > need && mtt_monitor_value(tok[i - 1].s, &dummy))
		goto misaligned;
	*rest = i;
	return 0;
misaligned:
	snprintf(why, cap, "expected '%s' and %zu columns of values%s, as "
		"in the header", labelless ? "<operation>" :
		"<statistic> <operation>", ncols, pct ? " with '(N%)'" : "");
	return -1;
}

static double pdiff(double v, double b)
{
	return 100 * v / b - 100;
}

/*
 * Is the printed percentage MMTests' pdiff or pndiff of v against b,
 * given that both were rounded as printed (research/mmtests.md §1.4)?
 */
static int pct_fits(const struct cell *base, const struct cell *x)
{
	double b = base->value, v = x->value, p = x->pct;
	double lo = INFINITY, hi = -INFINITY;
	double tol = 0.005 + 1e-9;
	int i;

	if (v == b || v == 0 || b == 0) {
		/* the special cases of both: 0, 100 and -99 */
		if (fabs(p) <= tol || fabs(p - 100) <= tol ||
		    fabs(p + 99) <= tol)
			return 1;
	}
	if (fabs(b) <= base->half)
		return 1;	/* rounded to nothing: anything goes */
	for (i = 0; i < 4; i++) {
		double vv = v + (i & 1 ? x->half : -x->half);
		double bb = b + (i & 2 ? base->half : -base->half);
		double d = pdiff(vv, bb);

		lo = fmin(lo, d);
		hi = fmax(hi, d);
	}
	return (p >= lo - tol && p <= hi + tol) ||
	       (-p >= lo - tol && -p <= hi + tol);
}

/* The operations of the Duration monitor (2013 printed them alone). */
static int duration_op(const char *s)
{
	return !strcmp(s, "User") || !strcmp(s, "System") ||
	       !strcmp(s, "Elapsed");
}

/* Put a blank at dst[at] (dst a line, cap bytes); 0 if there is no room. */
static int insert_blank(char *dst, size_t at, size_t cap)
{
	size_t len = strlen(dst);

	if (len + 2 > cap)
		return 0;
	memmove(dst + at + 1, dst + at, len - at + 1);
	dst[at] = ' ';
	return 1;
}

/*
 * Where the value fused to the operation in dst[a..b) starts: at vs
 * (the first column's start, from the header; 0 if unknown) when a
 * number starts there, else where its digits start after a character
 * that ends no number ("meminfo.Active(anon)124223571.59").  0 if
 * neither: an operation ending in digits cannot be told from them.
 */
static size_t fused_value(const char *dst, size_t a, size_t b, size_t vs)
{
	char num[64];
	size_t p = b;
	double v;

	if (vs > a && vs < b && b - vs < sizeof(num)) {
		memcpy(num, dst + vs, b - vs);
		num[b - vs] = '\0';
		if (mtt_number(num, &v))
			return vs;
	}
	while (p > a && isdigit((unsigned char)dst[p - 1]))
		p--;
	if (p == b || p == a || dst[p - 1] != '.')
		return 0;
	p--;
	while (p > a && isdigit((unsigned char)dst[p - 1]))
		p--;
	if (p == a || isdigit((unsigned char)dst[p]) == 0 ||
	    strchr(".+-", dst[p - 1]))
		return 0;
	return p;
}

/*
 * MMTests prints a value wider than its field whole, touching what is
 * before it: the percentage of the column before ("(   0.00%)124572.41")
 * or, in the first column, the longest operation.  Into dst (cap bytes):
 * src with those blanks put back, after each percentage, and between the
 * operation and the first value when the row has nothing else between
 * its label and its first percentage (vs: see fused_value()).
 */
void mtt_unfuse(const char *src, char *dst, size_t cap, size_t vs)
{
	size_t i, a, b, words = 0;
	char *pct, *q;

	snprintf(dst, cap, "%s", src);
	for (i = 1; dst[i]; i++)
		if (dst[i - 1] == '%' && (dst[i] == ')' || dst[i] == '*') &&
		    dst[i + 1] && !isspace((unsigned char)dst[i + 1]) &&
		    !insert_blank(dst, i + 1, cap))
			return;
	pct = strstr(dst, "%)");
	q = strstr(dst, "%*");
	if (!pct || (q && q < pct))
		pct = q;
	if (!pct)
		return;
	for (b = (size_t)(pct - dst); b && !strchr("(*", dst[b - 1]); b--)
		;
	if (!b--)
		return;
	while (b && isspace((unsigned char)dst[b - 1]))
		b--;
	for (a = b; a && !isspace((unsigned char)dst[a - 1]); a--)
		;
	for (i = 0; i < a; i++)
		words += !isspace((unsigned char)dst[i]) &&
			 (!i || isspace((unsigned char)dst[i - 1]));
	if (words != 1 || a == b)
		return;
	i = fused_value(dst, a, b, vs);
	if (i)
		insert_blank(dst, i, cap);
}

/*
 * A row of the current table: one aggregate per column, or a skipped
 * row.  0, or -1 after error() (with --strict, a row that does not read).
 */
int mtt_table_row(struct mmtests_table *t, const char *line, long lineno)
{
	struct token *tok = t->tok;
	struct cell cell[MAX_COLS];
	struct sbuf op = SBUF_INIT, metric = SBUF_INIT, words = SBUF_INIT;
	size_t n, rest = 0, c, ncols = t->nr_cols;
	const char *label;
	char why[192];
	int known = 1, ret = -1;
	int64_t seen;

	if (t->why[0])
		return db_skip_row(t->ctx, lineno, line, "%s", t->why);
	mtt_unfuse(line, t->row, sizeof(t->row), t->pct ? t->vs : 0);
	n = mtt_tokenize(t->row, tok);
	if (n > MAX_TOKENS)
		return db_skip_row(t->ctx, lineno, line, "more than %d fields",
				   MAX_TOKENS);
	if (mtt_read_cells(tok, n, ncols, t->pct, t->labelless, cell, &rest,
			   why, sizeof(why)))
		return db_skip_row(t->ctx, lineno, line, "%s", why);
	if (t->sub)
		sbuf_addf(&op, "%s-", t->sub);
	if (t->labelless) {
		join_tokens(&words, tok, 0, rest, ' ');
		label = duration_op(words.buf) ? "Duration" : "Ops";
		sbuf_addstr(&op, words.buf);
	} else if (t->pct && rest == 2 && !mtt_known_label(tok[0].s) &&
		   pft_field(tok[0].s) && integer(tok[1].s)) {
		label = "Mean";
		sbuf_addf(&op, "%s-%s", tok[0].s, tok[1].s);
	} else {
		label = tok[0].s;
		join_tokens(&op, tok, 1, rest, ' ');
		known = mtt_known_label(label);
	}
	if (t->bench)
		sbuf_addf(&metric, "%s.", t->bench);
	sbuf_addstr(&metric, op.buf);
	/* a spread is never negative: the row is damaged, not the table */
	if (!strcasecmp(label, "Stddev"))
		for (c = 0; c < ncols; c++)
			if (cell[c].value < 0) {
				ret = db_skip_row(t->ctx, lineno, line,
						  "a negative standard "
						  "deviation (%g) in column %zu",
						  cell[c].value, c + 1);
				goto out;
			}
	if (!known && !strmap_get(&t->warned, label, strlen(label), &seen)) {
		strmap_put(&t->warned, label, strlen(label), 1);
		db_warn(t->ctx, lineno, "unknown statistic '%s': kept as "
			"printed", label);
	}
	for (c = 0; c < ncols; c++) {
		struct agg_desc a;
		char pct[64];

		memset(&a, 0, sizeof(a));
		/*
		 * the percentage as printed (two decimals), against run 0;
		 * "" when the table printed none (Duration, Ops, monitors)
		 */
		if (c) {
			snprintf(pct, sizeof(pct), "%.2f%%", cell[c].pct);
			a.change_source = cell[c].has_pct ? pct : "";
			a.change_base = t->names[0];
		}
		a.suite = "mmtests";
		a.testcase = t->bench;
		a.label = t->names[c];
		a.kernel = t->kernels[c];
		a.metric = metric.buf;
		a.stat = label;
		a.value = cell[c].value;
		a.stddev = NAN;
		a.n = -1;
		a.marker = cell[c].starred ? "*" : NULL;
		if (db_emit_aggregate(t->ctx, &a, lineno))
			goto out;
		if (!known || !cell[c].has_pct)
			continue;
		if (c == 0 ? fabs(cell[0].pct) > 0.005 :
			     !pct_fits(&cell[0], &cell[c]))
			db_warn(t->ctx, lineno, "'%s %s' of '%s': the printed "
				"%.2f%% does not follow from %g against %g",
				label, op.buf, t->names[c], cell[c].pct,
				cell[c].value, cell[0].value);
	}
	db_table_row(t->ctx);
	ret = 0;
out:
	sbuf_release(&op);
	sbuf_release(&metric);
	sbuf_release(&words);
	return ret;
}
