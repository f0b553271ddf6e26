/*
 * The run names of an mmtests table's columns (mmtests-table-int.h; the
 * format is described at the top of mmtests-table.c): from one or two
 * header lines, right-aligned printf fields, names fused when wider
 * than their field, cells paired by where they end, or names people
 * wrote; and the kernel each name starts with.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "mmtests-table-int.h"
#include <ctype.h>

void mtt_free_cells(char **cells, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(cells[i]);
		cells[i] = NULL;
	}
}

void mtt_free_columns(struct mmtests_table *t)
{
	mtt_free_cells(t->names, t->nr_cols);
	mtt_free_cells(t->kernels, t->nr_cols);
	t->nr_cols = 0;
}

/* Where a token starts in its line. */
static size_t tok_start(const struct token *tok)
{
	return tok->end - strlen(tok->s);
}

/*
 * A run name's kernel part (up to its first '-', or past "-rcN") when
 * it looks like a kernel version: "5.3.0-rc3", "6.1", "v6.8".  NULL if
 * not ("june03", "TEST_RUN"); the caller frees.
 */
char *mtt_kernel_of(const char *name)
{
	const char *p = name, *dash = strchr(name, '-');
	size_t len = dash ? (size_t)(dash - name) : strlen(name);
	size_t i = 0, dots = 0;

	if (dash && starts_with(dash, "-rc") && isdigit((unsigned char)dash[3])) {
		len += 3;
		while (isdigit((unsigned char)name[len]))
			len++;
	}
	if (*p == 'v')
		i++;
	if (!isdigit((unsigned char)p[i]))
		return NULL;
	for (; i < len; i++) {
		if (p[i] == '-')
			break;
		if (p[i] == '.')
			dots++;
		else if (!isdigit((unsigned char)p[i]))
			return NULL;
	}
	if (!dots)
		return NULL;
	return xstrndup(name, len);
}

/* The run name of a column from its two header cells (NULL: blank). */
static char *run_name(const char *upper, const char *lower)
{
	size_t ul, ll;

	if (!lower)
		return xstrdup(upper);
	if (!upper)
		return xstrdup(lower);
	ul = strlen(upper);
	ll = strlen(lower);
	/* a name without '-': itself minus its last character over itself */
	if (ll == ul + 1 && starts_with(lower, upper) && !strchr(lower, '-'))
		return xstrdup(lower);
	return xstrfmt("%s-%s", upper, lower);
}

/* The columns, named from the cells of one or two header lines. */
static void set_columns(struct mmtests_table *t, const char *const *upper,
			const char *const *lower, size_t ncols)
{
	size_t i;

	mtt_free_columns(t);
	for (i = 0; i < ncols; i++) {
		t->names[i] = run_name(upper ? upper[i] : NULL, lower[i]);
		t->kernels[i] = mtt_kernel_of(t->names[i]);
	}
	t->nr_cols = ncols;
}

/* Keep the two-line header's cells for the tables that follow. */
static void keep_cells(struct mmtests_table *t, const char *const *upper,
		       const char *const *lower, size_t ncols)
{
	size_t i;

	mtt_free_cells(t->upper, t->nr_cells);
	mtt_free_cells(t->lower, t->nr_cells);
	for (i = 0; i < ncols; i++) {
		t->upper[i] = upper[i] ? xstrdup(upper[i]) : NULL;
		t->lower[i] = lower[i] ? xstrdup(lower[i]) : NULL;
	}
	t->nr_cells = ncols;
}

/*
 * The shorter header line's cells paired with the longer one's where
 * they end (right alignment), each in its own field: it starts after the
 * cell before its partner ends, or it is two names fused.  1 if all pair.
 */
static int pair_by_ends(struct mmtests_table *t, const char **cell[2])
{
	size_t more = t->hn[0] >= t->hn[1] ? 0 : 1, i, k = 0;
	struct token *lng = t->htok[more], *sht = t->htok[!more];

	for (i = 0; i < t->hn[more]; i++) {
		cell[more][i] = lng[i].s;
		cell[!more][i] = NULL;
		if (k < t->hn[!more] && sht[k].end == lng[i].end &&
		    (!i || tok_start(&sht[k]) >= lng[i - 1].end))
			cell[!more][i] = sht[k++].s;
	}
	return k == t->hn[!more];
}

/*
 * Cutting a fused lower header line into MMTests' printf fields: each
 * field is w wide, a name right-aligned in it (blanks, then the name),
 * or a name longer than w printed whole up to the next blank.  cut[i]
 * is where field i starts; a solution is one that ends at the line's end.
 */
struct fields {
	const char *s;
	size_t len, w, ncols;
	size_t cut[MAX_COLS + 1], best[MAX_COLS + 1];
	int found;		/* solutions, counted up to 2 */
	long budget;
};

static void fields_from(struct fields *f, size_t i, size_t p)
{
	size_t q;

	if (f->found > 1 || f->budget-- <= 0)
		return;
	f->cut[i] = p;
	if (i == f->ncols) {
		if (p == f->len && !f->found++)
			memcpy(f->best, f->cut, sizeof(f->cut));
		return;
	}
	/*
	 * a name of exactly w touching the next one could end anywhere in
	 * what they print: only a padded name ends at a known place
	 */
	if (p + f->w <= f->len && (isspace((unsigned char)f->s[p]) ||
				   p + f->w == f->len ||
				   isspace((unsigned char)f->s[p + f->w]))) {
		for (q = p; q < p + f->w && isspace((unsigned char)f->s[q]); q++)
			;
		while (q < p + f->w && !isspace((unsigned char)f->s[q]))
			q++;
		if (q == p + f->w)
			fields_from(f, i + 1, p + f->w);
	}
	for (q = p; q < f->len && !isspace((unsigned char)f->s[q]); q++)
		;
	if (q - p > f->w)
		fields_from(f, i + 1, q);
}

/*
 * The lower header line text (its cells fused) cut into ncols names at
 * the fields the upper line's evenly spaced cell ends give, into
 * lower[] (xstrndup, NULL where blank).  The first row's cells must end
 * where the upper line's do, as MMTests prints them: when an archive
 * collapsed the blanks, the positions cut names anywhere.  1 if exactly
 * one cut fits.
 */
static int split_fused(struct mmtests_table *t, const char *text,
		       const struct cell *cell, char **lower, size_t ncols)
{
	struct token *up = t->htok[0];
	struct fields *f;
	size_t i, w, start;
	int ok = 0;

	if (ncols < 2 || t->hn[0] != ncols || up[1].end <= up[0].end)
		return 0;
	w = up[1].end - up[0].end;
	for (i = 0; i < ncols; i++)
		if ((i && up[i].end - up[i - 1].end != w) ||
		    cell[i].end != up[i].end)
			return 0;
	if (up[0].end < w)
		return 0;
	start = up[0].end - w;
	for (i = 0; i < start && text[i]; i++)
		if (!isspace((unsigned char)text[i]))
			return 0;
	f = xcalloc(1, sizeof(*f));
	f->s = text;
	f->len = strlen(text);
	f->w = w;
	f->ncols = ncols;
	f->budget = SPLIT_BUDGET;
	if (start <= f->len)
		fields_from(f, 0, start);
	if (f->found == 1) {
		for (i = 0; i < ncols; i++) {
			size_t a = f->best[i], b = f->best[i + 1];

			while (a < b && isspace((unsigned char)text[a]))
				a++;
			lower[i] = a < b ? xstrndup(text + a, b - a) : NULL;
		}
		ok = 1;
	}
	free(f);
	return ok;
}

/*
 * The previous two-line header of the text, when this one has its upper
 * cells and the same letters in its lower line (blanks collapsed, two
 * names fused).  1 if it is.
 */
static int same_as_before(struct mmtests_table *t, size_t ncols)
{
	struct sbuf now = SBUF_INIT, then = SBUF_INIT;
	size_t i;
	int ok;

	if (t->nr_cells != ncols || t->hn[0] != ncols)
		return 0;
	for (i = 0; i < ncols; i++)
		if (!t->upper[i] || strcmp(t->upper[i], t->htok[0][i].s))
			return 0;
	join_tokens(&now, t->htok[1], 0, t->hn[1], '\0');
	for (i = 0; i < ncols; i++)
		if (t->lower[i])
			sbuf_addstr(&then, t->lower[i]);
	ok = !strcmp(now.buf, then.buf);
	sbuf_release(&now);
	sbuf_release(&then);
	return ok;
}

/*
 * The run names from a two-line header (split in htok), text the lower
 * line as printed, cell the first row's.  0, or -1 with t->why saying
 * why not.
 */
int mtt_names_two(struct mmtests_table *t, const char *text,
		  const struct cell *cell, size_t ncols)
{
	const char *cells[2][MAX_COLS], **pair[2] = { cells[0], cells[1] };
	char *fused[MAX_COLS];
	size_t nu = t->hn[0], nl = t->hn[1], i;

	if (nu == ncols && nl == ncols) {
		for (i = 0; i < ncols; i++) {
			cells[0][i] = t->htok[0][i].s;
			cells[1][i] = t->htok[1][i].s;
		}
	} else if ((nu > nl ? nu : nl) == ncols && pair_by_ends(t, pair)) {
		;
	} else if (nu == ncols && nl < ncols &&
		   split_fused(t, text, cell, fused, ncols)) {
		for (i = 0; i < ncols; i++)
			cells[0][i] = t->htok[0][i].s;
		set_columns(t, cells[0], (const char *const *)fused, ncols);
		keep_cells(t, cells[0], (const char *const *)fused, ncols);
		mtt_free_cells(fused, ncols);
		return 0;
	} else if (same_as_before(t, ncols)) {
		set_columns(t, (const char *const *)t->upper,
			    (const char *const *)t->lower, ncols);
		return 0;
	} else if (nu == ncols && nl < ncols) {
		snprintf(t->why, sizeof(t->why), "the lower header line has "
			 "%zu name%s for %zu columns, and which is whose "
			 "cannot be told (blanks collapsed or names touching, "
			 "no earlier table of these runs)", nl,
			 nl == 1 ? "" : "s", ncols);
		return -1;
	} else {
		snprintf(t->why, sizeof(t->why), "the two header lines do not "
			 "line up (%zu and %zu names, and their cells end in "
			 "different places, for %zu columns)", nu, nl, ncols);
		return -1;
	}
	set_columns(t, cells[0], cells[1], ncols);
	keep_cells(t, cells[0], cells[1], ncols);
	return 0;
}

/*
 * Cut text (a header line) into pieces at runs of two or more blanks,
 * into buf (modified copy), at most MAX_COLS.  Returns the count.
 */
static size_t split_wide(const char *text, char *buf, char **piece)
{
	size_t n = 0;
	char *p = buf;

	memcpy(buf, text, strlen(text) + 1);
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (n == MAX_COLS)
			return MAX_COLS + 1;
		piece[n++] = p;
		/* a tab, or two blanks: the gap between two cells */
		while (*p && *p != '\t' &&
		       !(*p == ' ' && isspace((unsigned char)p[1])))
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/*
 * The header tokens grouped into names: a group ends at a token that
 * ends where a cell of the first row does (bycell), or where its
 * parentheses and quotes are closed (!bycell).  Each group is its text
 * as printed, into piece[] (xstrndup).  Returns the count of groups.
 */
static size_t group_tokens(const struct token *tok, size_t n,
			   const char *text, const struct cell *cell,
			   size_t ncols, int bycell, char **piece)
{
	size_t i, first = 0, g = 0, c = 0;
	int depth = 0, quote = 0;

	for (i = 0; i < n; i++) {
		const char *s;
		int close;

		for (s = tok[i].s; *s; s++) {
			if (*s == '"')
				quote = !quote;
			else if (!quote && (*s == '(' || *s == '['))
				depth++;
			else if (!quote && (*s == ')' || *s == ']') && depth)
				depth--;
		}
		if (bycell)
			close = c < ncols && tok[i].end == cell[c].end;
		else
			close = !depth && !quote;
		if (!close && i + 1 < n)
			continue;
		if (g == ncols || (!close && bycell)) {
			mtt_free_cells(piece, g);
			return ncols + 1;
		}
		piece[g++] = xstrndup(text + tok_start(&tok[first]),
				      tok[i].end - tok_start(&tok[first]));
		first = i + 1;
		c++;
	}
	return g;
}

/*
 * The run names from a one-line header (split in htok[0]; text as
 * printed), the first row's cells giving where columns end.  0, or -1
 * with t->why saying why not.
 */
int mtt_names_one(struct mmtests_table *t, const char *text,
		  const struct cell *cell, size_t ncols)
{
	char buf[LINE_CAP], *piece[MAX_COLS + 1];
	const char *name[MAX_COLS];
	size_t n = t->hn[0], i, k;
	int how;

	if (n == ncols) {
		for (i = 0; i < ncols; i++)
			name[i] = t->htok[0][i].s;
		set_columns(t, NULL, name, ncols);
		return 0;
	}
	if (n > ncols && split_wide(text, buf, piece) == ncols) {
		set_columns(t, NULL, (const char *const *)piece, ncols);
		return 0;
	}
	for (how = 1; n > ncols && how >= 0; how--) {
		k = group_tokens(t->htok[0], n, text, cell, ncols, how, piece);
		if (k > ncols)
			continue;
		if (k == ncols)
			set_columns(t, NULL, (const char *const *)piece, ncols);
		mtt_free_cells(piece, k);
		if (k == ncols)
			return 0;
	}
	snprintf(t->why, sizeof(t->why), "the header names %zu runs, the "
		"rows have %zu columns", n, ncols);
	return -1;
}
