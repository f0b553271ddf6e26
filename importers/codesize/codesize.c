/*
 * The codesize importer: what kernel threads put beside a speed-up to
 * say what it costs, the symbol table of scripts/bloat-o-meter and the
 * section sums of binutils' size(1).  Every value is a size in bytes,
 * deterministic (kind exact: compare decides it without a test) and
 * better lower.
 *
 * bloat-o-meter compares two builds: its table becomes two runs, labels
 * "old" and "new" (two variants: --label is refused as for any input of
 * several; tell tables apart with --param, e.g. --param patch=foo).  A
 * row "name old new delta" is a sample size.<name> in each build that
 * has the symbol ("-": absent, no sample); Data and RO Data sections
 * give size.data.<name> and size.rodata.<name>.  size.total is the
 * tables' Total line (Before=, After=) when printed, else the sum of the
 * rows; with several sections, size.total.function, size.total.data and
 * size.total.rodata are the same per section.
 *
 * How the format was worked out, from the script's history as the code
 * index holds it (read, not copied: it is GPL), checked against tables
 * made by our own generator (tests/fixtures/codesize/PROVENANCE):
 * - 2005 (Matt Mackall's rewrite, posted November 2005): a summary line
 *   "add/remove: A/B grow/shrink: C/D up/down: E/F (G)" (symbols only in
 *   new/only in old, grown/shrunk common ones, bytes up, bytes down as a
 *   negative number, net), a header "%-40s %7s %7s %+7s" of "function",
 *   "old", "new", "delta", then one row per symbol whose size changed,
 *   sorted by delta, largest first, "-" for a side that lacks it.  Names
 *   wider than 40 columns push the numbers right: we split on blanks
 *   (nm's names hold none).
 * - Later (not yet in a 4.4 tree, in a 4.9-based one): "Total:
 *   Before=N, After=M, chg +X.XX%" ends the table.  N and M sum every
 *   symbol of the kinds compared, unchanged ones too, so the rows never
 *   add up to them; what must hold is M - N = the sum of the deltas =
 *   G, and E, F the sums of the positive and of the negative deltas.
 *   chg is 0 when N is 0 (newer scripts; older ones divide by zero).
 * - Newer still: -c prints three such tables in a row, each with its
 *   own summary, header ("Function", "Data", "RO Data") and Total; -d
 *   one "Data" table (dDbBrR), -t one "Function" table; without an
 *   option one "Function" table over every kind (tTdDbBrR, plus weak
 *   vVwW since 2023).  The lower-case "function" went when -c came.
 * - busybox keeps a 2006 fork: header first ("function", %-48s), then
 *   rows, a line of dashes, and "(add/remove: A/B grow/shrink: C/D
 *   up/down: E/F)<blanks>Total: G bytes".  Also read.
 * - nm --size-sort lists no symbol of size 0, so the summary's counts
 *   are the rows' own: A rows with old "-", B with new "-", C and D the
 *   others by the sign of their delta.  A table that does not add up
 *   (a row cut from a mail) is imported with a warning naming the line.
 *
 * size(1), binutils' default Berkeley format ("   text\t   data\t
 * bss\t    dec\t    hex\tfilename", checked with binutils 2.40): one row
 * per file, a sample size.<file>.text, .data, .bss and .total (dec)
 * per file, <file> its base name, so that builds in two directories
 * compare (an archive member "a.o (ex dir/lib.a)" keeps its "(ex ...)"),
 * or the name as printed when two files of the input share a base name;
 * one run, labelled as usual (--label).  -x prints text, data and bss in
 * hex ("0x504"), -o in octal ("02404") with the fourth column "oct";
 * -t adds a "(TOTALS)" row, checked, not kept.  size -A (SysV): per file
 * a line "file  :", "section size addr", one row per section and "Total
 * N": size.<file>.section.<name> (one leading dot dropped: .text is
 * size.vmlinux.section.text) and size.<file>.sections.total, which
 * counts non-allocated sections (.comment) that Berkeley's dec does not.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "import/importer.h"
#include "../formats.h"
#include <ctype.h>
#include <inttypes.h>

#define MAX_FIELDS 8

/* One value of one build: a bloat-o-meter cell or a size(1) column. */
struct cs_value {
	char *metric;		/* owned; size(1): with the file as printed
				 * until name_files() */
	long file;		/* size(1): index into files, else -1 */
	int64_t bytes[2];	/* [0] old build, [1] new build */
	int has[2];		/* present in that build */
	long line;
};

enum sec_kind { SEC_FUNCTION, SEC_DATA, SEC_RODATA, SEC_NR };

static const struct {
	const char *header;	/* as the header line starts */
	const char *prefix;	/* of its symbols' metrics */
	const char *total;	/* its total's metric */
} sections[] = {
	[SEC_FUNCTION] = { "Function", "size.", "size.total.function" },
	[SEC_DATA] = { "Data", "size.data.", "size.total.data" },
	[SEC_RODATA] = { "RO Data", "size.rodata.", "size.total.rodata" },
};

/* The summary line's numbers: A/B C/D E/F (G). */
struct summary {
	long line;		/* 0: none */
	int64_t n[7];
};

/* One table of a bloat-o-meter output. */
struct section {
	enum sec_kind kind;
	long header_line;
	struct summary sum;
	long total_line;	/* 0: no Total line */
	int64_t before, after;
	double chg_pct;
	int64_t rows[2];	/* sums of the rows per build */
	int64_t delta, up, down;	/* sums of the deltas */
	int64_t add, remove, grow, shrink;
};

enum bom_state {
	BOM_NONE,	/* before a table, or after its Total line */
	BOM_SUMMARY,	/* an add/remove line, its header to come */
	BOM_ROWS,	/* in a table */
};

struct codesize {
	struct import_ctx *ctx;	/* borrowed */
	const char *path;	/* borrowed */
	struct cs_value *v;	/* owned, each metric owned */
	size_t nr, alloc;
	struct strmap names;	/* metric -> index into v */
	/* bloat-o-meter */
	enum bom_state state;
	struct section sec;	/* the table being read */
	struct summary pending;	/* an add/remove line before its table */
	int seen[SEC_NR];	/* the header line of each table read */
	int64_t total[SEC_NR][2];
	long total_line[SEC_NR];	/* where each total was read */
	int nr_sections;
	/* size */
	char **files;		/* owned, each owned: as printed */
	size_t nr_files, alloc_files;
	long sysv_file;		/* file of the size -A block, else -1 */
	long sysv_line;
	int64_t sysv_sum;
	int64_t berkeley_sum[4];	/* rows up to a (TOTALS) row */
};

/*
 * Split s in place on blanks into at most max fields; the last field
 * takes the rest of the line when rest is set.  Returns the count, or
 * max + 1 when there were more.
 */
static int split(char *s, char **f, int max, int rest)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		f[n++] = s;
		if (rest && n == max)
			return n;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* A whole token as a number >= 0 in base (0: C's prefixes). */
static int to_bytes(const char *s, int base, int64_t *out)
{
	char *end;
	long long v;

	/* size's hex column has no 0x: "d11ac" starts with a letter */
	if (!(base == 16 ? isxdigit((unsigned char)*s) :
	      isdigit((unsigned char)*s)))
		return -1;
	errno = 0;
	v = strtoll(s, &end, base);
	if (*end || errno || v < 0)
		return -1;
	*out = v;
	return 0;
}

/* "+12", "-12", "12" (a delta). */
static int to_delta(const char *s, int64_t *out)
{
	int neg = *s == '-';

	if (*s == '+' || *s == '-')
		s++;
	if (to_bytes(s, 10, out))
		return -1;
	if (neg)
		*out = -*out;
	return 0;
}

/*
 * A value of build b (0 old, 1 new) of metric: the metric's entry, made
 * if new.  A metric given twice for one build is refused (the name of a
 * symbol twice in a table, a file twice in size's output).
 */
static int add_value(struct codesize *cs, const char *metric, int b,
		     int64_t bytes, long line)
{
	struct cs_value *v;
	int64_t i;

	if (strmap_get(&cs->names, metric, strlen(metric), &i)) {
		v = &cs->v[i];
		if (v->has[b])
			return error("%s:%ld: '%s' again (line %ld): two "
				     "values for one metric", cs->path, line,
				     metric, v->line);
	} else {
		ALLOC_GROW(cs->v, cs->nr + 1, cs->alloc);
		v = &cs->v[cs->nr];
		memset(v, 0, sizeof(*v));
		v->metric = xstrdup(metric);
		v->file = -1;
		v->line = line;
		strmap_put(&cs->names, metric, strlen(metric),
			   (int64_t)cs->nr);
		cs->nr++;
	}
	v->bytes[b] = bytes;
	v->has[b] = 1;
	return 0;
}

/* ---- bloat-o-meter ---- */

/* "A/B" after the literal what; the cursor advances on success. */
static int pair(const char **p, const char *what, int64_t *a, int64_t *b)
{
	const char *s = *p;
	long x, y;

	str_skip_blanks(&s);
	if (str_expect_lit(&s, what))
		return -1;
	str_skip_blanks(&s);
	if (str_long(&s, &x) || str_expect(&s, '/') || str_long(&s, &y))
		return -1;
	*a = x;
	*b = y;
	*p = s;
	return 0;
}

/*
 * "add/remove: A/B grow/shrink: C/D up/down: E/F (G)", or busybox's
 * "(add/remove: ... up/down: E/F) Total: G bytes".
 */
static int parse_summary(const char *s, struct summary *sum, int busybox)
{
	long g;

	if (busybox && str_expect(&s, '('))
		return -1;
	if (pair(&s, "add/remove:", &sum->n[0], &sum->n[1]) ||
	    pair(&s, "grow/shrink:", &sum->n[2], &sum->n[3]) ||
	    pair(&s, "up/down:", &sum->n[4], &sum->n[5]))
		return -1;
	str_skip_blanks(&s);
	if (busybox) {
		if (str_expect(&s, ')'))
			return -1;
		str_skip_blanks(&s);
		if (str_expect_lit(&s, "Total:"))
			return -1;
		str_skip_blanks(&s);
		if (str_long(&s, &g))
			return -1;
		str_skip_blanks(&s);
		if (str_expect_lit(&s, "bytes"))
			return -1;
	} else if (str_expect(&s, '(') || str_long(&s, &g) ||
		   str_expect(&s, ')')) {
		return -1;
	}
	str_skip_blanks(&s);
	if (*s)
		return -1;
	sum->n[6] = g;
	return 0;
}

/* "Total: Before=N, After=M, chg +X.XX%" */
static int parse_total(const char *s, struct section *sec)
{
	long before, after;
	double pct;

	if (str_expect_lit(&s, "Total:"))
		return -1;
	str_skip_blanks(&s);
	if (str_expect_lit(&s, "Before=") || str_long(&s, &before) ||
	    str_expect(&s, ','))
		return -1;
	str_skip_blanks(&s);
	if (str_expect_lit(&s, "After=") || str_long(&s, &after) ||
	    str_expect(&s, ','))
		return -1;
	str_skip_blanks(&s);
	if (str_expect_lit(&s, "chg"))
		return -1;
	str_skip_blanks(&s);
	if (str_double(&s, &pct) || str_expect(&s, '%'))
		return -1;
	str_skip_blanks(&s);
	if (*s || before < 0 || after < 0)
		return -1;
	sec->before = before;
	sec->after = after;
	sec->chg_pct = pct;
	return 0;
}

/* header_kind() of a line that is no table header, or of an unknown table */
#define HEADER_NONE (-1)
#define HEADER_UNKNOWN (-2)

/*
 * The section a header line names ("Function", "RO Data"), HEADER_NONE
 * or HEADER_UNKNOWN; s is cut to the table's name.
 */
static int header_kind(char *s)
{
	size_t n = strlen(s);
	int k;

	/* the header ends "old new delta" */
	if (n < 14 || strcmp(s + n - 5, "delta"))
		return HEADER_NONE;
	n -= 5;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n < 3 || strncmp(s + n - 3, "new", 3))
		return HEADER_NONE;
	n -= 3;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n < 3 || strncmp(s + n - 3, "old", 3))
		return HEADER_NONE;
	n -= 3;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	s[n] = '\0';
	/* "function" of the scripts before -c */
	if (!strcmp(s, "function"))
		return SEC_FUNCTION;
	for (k = 0; k < SEC_NR; k++)
		if (!strcmp(s, sections[k].header))
			return k;
	return HEADER_UNKNOWN;
}

static void check_summary(struct codesize *cs, const struct section *sec)
{
	const int64_t *n = sec->sum.n;

	if (!sec->sum.line)
		return;
	if (sec->delta != n[6])
		db_warn(cs->ctx, sec->sum.line, "the %s table's deltas add up "
			"to %" PRId64 " bytes, not the %" PRId64
			" of this line", sections[sec->kind].header,
			sec->delta, n[6]);
	else if (sec->up != n[4] || -sec->down != n[5])
		db_warn(cs->ctx, sec->sum.line, "the %s table's deltas are "
			"up/down %" PRId64 "/%" PRId64 ", not the %" PRId64 "/%"
			PRId64 " of this line", sections[sec->kind].header,
			sec->up, -sec->down, n[4], n[5]);
	if (sec->add != n[0] || sec->remove != n[1] || sec->grow != n[2] ||
	    sec->shrink != n[3])
		db_warn(cs->ctx, sec->sum.line, "the %s table has rows "
			"add/remove %" PRId64 "/%" PRId64 " grow/shrink %"
			PRId64 "/%" PRId64 ", not the %" PRId64 "/%" PRId64
			" %" PRId64 "/%" PRId64 " of this line",
			sections[sec->kind].header, sec->add, sec->remove,
			sec->grow, sec->shrink, n[0], n[1], n[2], n[3]);
}

/* The table ends: check it against its summary and Total lines. */
static void end_section(struct codesize *cs)
{
	struct section *sec = &cs->sec;
	int64_t *t = cs->total[sec->kind];

	check_summary(cs, sec);
	if (sec->total_line) {
		double pct = sec->before ? (double)(sec->after - sec->before) *
			100.0 / (double)sec->before : 0;

		if (sec->after - sec->before != sec->delta)
			db_warn(cs->ctx, sec->total_line, "After - Before is %"
				PRId64 " bytes, but the %s table's deltas add "
				"up to %" PRId64, sec->after - sec->before,
				sections[sec->kind].header, sec->delta);
		else if (fabs(pct - sec->chg_pct) > 0.0051)
			db_warn(cs->ctx, sec->total_line, "chg %+.2f%% is not "
				"(After - Before) / Before (%+.2f%%)",
				sec->chg_pct, pct);
		t[0] = sec->before;
		t[1] = sec->after;
		cs->total_line[sec->kind] = sec->total_line;
	} else {
		t[0] = sec->rows[0];
		t[1] = sec->rows[1];
		cs->total_line[sec->kind] = sec->header_line;
	}
	cs->state = BOM_NONE;
}

static int bom_row(struct codesize *cs, char *s, long line)
{
	struct section *sec = &cs->sec;
	char *f[MAX_FIELDS], *copy = xstrdup(s), *metric = NULL;
	int64_t val[2] = { 0, 0 }, delta;
	int has[2], nf, b, ret = -1;

	nf = split(s, f, 4, 0);
	if (nf != 4)
		goto bad;
	for (b = 0; b < 2; b++) {
		has[b] = strcmp(f[1 + b], "-") != 0;
		if (has[b] && to_bytes(f[1 + b], 10, &val[b]))
			goto bad;
	}
	if ((!has[0] && !has[1]) || to_delta(f[3], &delta))
		goto bad;
	if (delta != val[1] - val[0])
		db_warn(cs->ctx, line, "'%s': the delta %+" PRId64 " is not "
			"new - old (%+" PRId64 ")", f[0], delta,
			val[1] - val[0]);
	/* the sums of the printed deltas, checked in end_section() */
	sec->delta += delta;
	if (delta > 0)
		sec->up += delta;
	else
		sec->down -= delta;
	if (!has[0])
		sec->add++;
	else if (!has[1])
		sec->remove++;
	else if (delta > 0)
		sec->grow++;
	else if (delta < 0)
		sec->shrink++;
	metric = xstrfmt("%s%s", sections[sec->kind].prefix, f[0]);
	if (!strcmp(metric, "size.total") || starts_with(metric,
							 "size.total.")) {
		db_warn(cs->ctx, line, "symbol '%s' is not kept: its name "
			"would be %s, a name of the totals", f[0], metric);
		for (b = 0; b < 2; b++)
			sec->rows[b] += val[b];
		ret = 0;
		goto out;
	}
	for (b = 0; b < 2; b++) {
		sec->rows[b] += val[b];
		if (has[b] && add_value(cs, metric, b, val[b], line))
			goto out;
	}
	ret = 0;
	goto out;
bad:
	error("%s:%ld: expected 'name old new delta', got '%.80s'", cs->path,
	      line, copy);
out:
	free(copy);
	free(metric);
	return ret;
}

/* "add/remove: A/B grow/shrink: C/D up/down: E/F (G)": a table follows */
static int bom_summary(struct codesize *cs, const char *s, long line)
{
	if (cs->state == BOM_SUMMARY)
		return error("%s:%ld: a second add/remove line, with no table "
			     "after the one of line %ld", cs->path, line,
			     cs->pending.line);
	if (cs->state == BOM_ROWS)
		end_section(cs);
	if (parse_summary(s, &cs->pending, 0))
		return error("%s:%ld: expected 'add/remove: A/B grow/shrink: "
			     "C/D up/down: E/F (G)', got '%.80s'", cs->path,
			     line, s);
	cs->pending.line = line;
	cs->state = BOM_SUMMARY;
	return 0;
}

/* "(add/remove: ...) Total: G bytes" after a table: it ends */
static int bom_summary_after(struct codesize *cs, const char *s, long line)
{
	if (cs->state != BOM_ROWS || cs->sec.sum.line)
		return error("%s:%ld: a summary line after no table",
			     cs->path, line);
	if (parse_summary(s, &cs->sec.sum, 1))
		return error("%s:%ld: expected '(add/remove: A/B grow/shrink: "
			     "C/D up/down: E/F) Total: G bytes', got '%.80s'",
			     cs->path, line, s);
	cs->sec.sum.line = line;
	end_section(cs);
	return 0;
}

/* "Total: Before=N, After=M, chg +X.XX%": the table ends */
static int bom_total(struct codesize *cs, const char *s, long line)
{
	if (cs->state != BOM_ROWS)
		return error("%s:%ld: a Total line after no table", cs->path,
			     line);
	if (parse_total(s, &cs->sec))
		return error("%s:%ld: expected 'Total: Before=N, After=M, chg "
			     "+X.XX%%', got '%.80s'", cs->path, line, s);
	cs->sec.total_line = line;
	end_section(cs);
	return 0;
}

/* The header of table k ("Function  old  new  delta"): its rows follow. */
static int bom_table(struct codesize *cs, int k, long line)
{
	if (cs->seen[k])
		return error("%s:%ld: a second %s table (the first at line "
			     "%d): one bloat-o-meter output per file",
			     cs->path, line, sections[k].header, cs->seen[k]);
	if (cs->state == BOM_ROWS)
		end_section(cs);
	memset(&cs->sec, 0, sizeof(cs->sec));
	cs->sec.kind = (enum sec_kind)k;
	cs->sec.header_line = line;
	if (cs->state == BOM_SUMMARY)
		cs->sec.sum = cs->pending;
	cs->seen[k] = (int)line;
	cs->nr_sections++;
	cs->state = BOM_ROWS;
	return 0;
}

static int bom_line(struct codesize *cs, struct sbuf *sb, long line)
{
	char *s = sb->buf, *copy;
	int k;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return 0;
	if (starts_with(s, "add/remove:"))
		return bom_summary(cs, s, line);
	if (starts_with(s, "(add/remove:"))
		return bom_summary_after(cs, s, line);
	if (starts_with(s, "Total:"))
		return bom_total(cs, s, line);
	if (strspn(s, "-") == strlen(s))
		return 0;	/* busybox: the rule over its summary */
	copy = xstrdup(s);
	k = header_kind(copy);
	free(copy);
	if (k == HEADER_UNKNOWN) {
		header_kind(s);		/* s cut to the table's name */
		return error("%s:%ld: unknown table '%s': expected Function, "
			     "Data or RO Data", cs->path, line, s);
	}
	if (k >= 0)
		return bom_table(cs, k, line);
	if (cs->state != BOM_ROWS)
		return error("%s:%ld: expected a header 'Function  old  new  "
			     "delta'%s, got '%.80s'", cs->path, line,
			     cs->state == BOM_NONE ? " or 'add/remove: ...'" :
			     "", s);
	return bom_row(cs, s, line);
}

static int bom_end(struct codesize *cs)
{
	long first = 0;
	int b, k;

	if (cs->state == BOM_SUMMARY)
		return error("%s:%ld: the add/remove line has no table after "
			     "it", cs->path, cs->pending.line);
	if (cs->state == BOM_ROWS)
		end_section(cs);
	if (!cs->nr_sections)
		return error("%s: no bloat-o-meter table", cs->path);
	for (k = 0; k < SEC_NR; k++)
		if (cs->seen[k] && (!first || cs->total_line[k] < first))
			first = cs->total_line[k];
	for (b = 0; b < 2; b++) {
		int64_t sum = 0;

		for (k = 0; k < SEC_NR; k++) {
			if (!cs->seen[k])
				continue;
			sum += cs->total[k][b];
			if (cs->nr_sections > 1 &&
			    add_value(cs, sections[k].total, b,
				      cs->total[k][b], cs->total_line[k]))
				return -1;
		}
		if (add_value(cs, "size.total", b, sum, first))
			return -1;
	}
	return 0;
}

/* ---- size(1) ---- */

/* The words of a Berkeley header; 8 when the fourth is "oct", else 10. */
static int berkeley_header(const char *s)
{
	char buf[128], *f[MAX_FIELDS];
	int n;

	if (strlen(s) >= sizeof(buf))
		return 0;
	memcpy(buf, s, strlen(s) + 1);
	n = split(buf, f, 6, 0);
	if (n != 6 || strcmp(f[0], "text") || strcmp(f[1], "data") ||
	    strcmp(f[2], "bss") || strcmp(f[4], "hex") ||
	    strcmp(f[5], "filename"))
		return 0;
	if (!strcmp(f[3], "dec"))
		return 10;
	return !strcmp(f[3], "oct") ? 8 : 0;
}

/* The index of file (as printed) in cs->files, added if new. */
static long add_file(struct codesize *cs, const char *file)
{
	size_t i;

	for (i = 0; i < cs->nr_files; i++)
		if (!strcmp(cs->files[i], file))
			return (long)i;
	ALLOC_GROW(cs->files, cs->nr_files + 1, cs->alloc_files);
	cs->files[cs->nr_files] = xstrdup(file);
	return (long)cs->nr_files++;
}

/*
 * A value of a file: "size.<file>.<what>" with the file's name as
 * printed, until emit() shortens it.  0 or -1.
 */
static int add_size_value(struct codesize *cs, long file, const char *what,
			  int64_t bytes, long line)
{
	char *metric = xstrfmt("size.%s.%s", cs->files[file], what);
	int ret = add_value(cs, metric, 0, bytes, line);

	if (!ret)
		cs->v[cs->nr - 1].file = file;
	free(metric);
	return ret;
}

/*
 * The file's name in metrics: its base name (an archive member's
 * " (ex ARCHIVE)" kept as printed).  Caller frees.
 */
static char *file_base(const char *name)
{
	const char *ex = strstr(name, " (ex "), *end = ex ? ex :
		name + strlen(name), *base = name, *p;

	for (p = name; p < end; p++)
		if (*p == '/' && p + 1 < end)
			base = p + 1;
	return xstrfmt("%.*s%s", (int)(end - base), base, ex ? ex : "");
}

/*
 * Base names in metrics when no two files share one (builds in two
 * directories then compare); else the names as printed.  Renames the
 * metrics of cs->v in place.
 */
static void name_files(struct codesize *cs)
{
	struct strmap seen = STRMAP_INIT;
	char **base = xcalloc(cs->nr_files + 1, sizeof(*base));
	size_t i;
	int unique = 1;

	for (i = 0; i < cs->nr_files; i++) {
		int64_t dummy;

		base[i] = file_base(cs->files[i]);
		if (strmap_get(&seen, base[i], strlen(base[i]), &dummy))
			unique = 0;
		strmap_put(&seen, base[i], strlen(base[i]), 0);
	}
	for (i = 0; unique && i < cs->nr; i++) {
		struct cs_value *v = &cs->v[i];
		const char *what;
		char *name;

		if (v->file < 0)
			continue;
		what = v->metric + strlen("size.") +
			strlen(cs->files[v->file]) + 1;
		name = xstrfmt("size.%s.%s", base[v->file], what);
		free(v->metric);
		v->metric = name;
	}
	for (i = 0; i < cs->nr_files; i++)
		free(base[i]);
	free(base);
	strmap_clear(&seen);
}

static int size_row(struct codesize *cs, char *s, int base, long line)
{
	static const char *const col[] = { "text", "data", "bss", "total" };
	char *f[MAX_FIELDS], *copy = xstrdup(s);
	int64_t v[5];
	long file;
	int i, ret = -1;

	if (split(s, f, 6, 1) != 6)
		goto bad;
	for (i = 0; i < 5; i++)
		if (to_bytes(f[i], i == 3 ? base : i == 4 ? 16 : 0, &v[i]))
			goto bad;
	if (v[0] + v[1] + v[2] != v[3] || v[3] != v[4])
		db_warn(cs->ctx, line, "'%s': text + data + bss is %" PRId64
			", dec %" PRId64 ", hex %" PRId64, f[5],
			v[0] + v[1] + v[2], v[3], v[4]);
	if (!strcmp(f[5], "(TOTALS)")) {
		/* size -t: the sum of the rows above, not a file */
		for (i = 0; i < 4; i++)
			if (v[i] != cs->berkeley_sum[i])
				break;
		if (i < 4)
			db_warn(cs->ctx, line, "the %s of the rows add up to %"
				PRId64 ", not %" PRId64, col[i],
				cs->berkeley_sum[i], v[i]);
		memset(cs->berkeley_sum, 0, sizeof(cs->berkeley_sum));
		ret = 0;
		goto out;
	}
	file = add_file(cs, f[5]);
	for (i = 0; i < 4; i++) {
		if (add_size_value(cs, file, col[i], v[i], line))
			goto out;
		cs->berkeley_sum[i] += v[i];
	}
	ret = 0;
	goto out;
bad:
	error("%s:%ld: expected 'text data bss dec hex filename', got "
	      "'%.80s'", cs->path, line, copy);
out:
	free(copy);
	return ret;
}

/* size -A: "file  :"; *file gets the name (caller frees). */
static int sysv_file_line(const char *s, char **file)
{
	size_t n = strlen(s);

	if (!n || s[n - 1] != ':')
		return 0;
	n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n)
		return 0;
	*file = xstrndup(s, n);
	return 1;
}

static int sysv_line(struct codesize *cs, char *s, long line)
{
	char *f[MAX_FIELDS], *copy = xstrdup(s), *what;
	const char *file = cs->files[cs->sysv_file];
	int64_t size, addr;
	int nf, ret = -1;

	nf = split(s, f, 3, 0);
	if (nf == 3 && !strcmp(f[0], "section") && !strcmp(f[1], "size") &&
	    !strcmp(f[2], "addr")) {
		ret = 0;
	} else if (nf == 2 && !strcmp(f[0], "Total") &&
		   !to_bytes(f[1], 0, &size)) {
		if (size != cs->sysv_sum)
			db_warn(cs->ctx, line, "the sections of '%s' add up "
				"to %" PRId64 ", not %" PRId64, file,
				cs->sysv_sum, size);
		ret = add_size_value(cs, cs->sysv_file, "sections.total",
				     size, line);
		cs->sysv_file = -1;
	} else if (nf == 3 && !to_bytes(f[1], 0, &size) &&
		   !to_bytes(f[2], 0, &addr)) {
		/* one leading dot dropped: .text is section.text */
		what = xstrfmt("section.%s", f[0][0] == '.' && f[0][1] ?
			       f[0] + 1 : f[0]);
		cs->sysv_sum += size;
		ret = add_size_value(cs, cs->sysv_file, what, size, line);
		free(what);
	} else {
		error("%s:%ld: expected 'section size addr' of '%s' or its "
		      "'Total', got '%.80s'", cs->path, line, file, copy);
	}
	free(copy);
	return ret;
}

static int size_line(struct codesize *cs, struct sbuf *sb, long line,
		     int *base)
{
	char *s = sb->buf, *file;
	int b;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return 0;
	if (cs->sysv_file >= 0)
		return sysv_line(cs, s, line);
	b = berkeley_header(s);
	if (b) {
		*base = b;
		return 0;
	}
	if (*base)
		return size_row(cs, s, *base, line);
	if (sysv_file_line(s, &file)) {
		cs->sysv_file = add_file(cs, file);
		cs->sysv_line = line;
		cs->sysv_sum = 0;
		free(file);
		return 0;
	}
	return error("%s:%ld: expected size's header 'text data bss dec hex "
		     "filename' or 'FILE  :' (size -A), got '%.80s'", cs->path,
		     line, s);
}

/* ---- detection and the runs ---- */

/* The first line that is not blank, copied into buf. */
static const char *first_line(const char *head, size_t len, char *buf,
			      size_t size, size_t *next)
{
	size_t i = 0, n;

	while (i < len && isspace((unsigned char)head[i]))
		i++;
	for (n = 0; i + n < len && head[i + n] != '\n'; n++)
		;
	*next = i + n + 1;
	if (n >= size)
		n = size - 1;
	memcpy(buf, head + i, n);
	buf[n] = '\0';
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return buf;
}

enum cs_format { CS_NONE, CS_BLOAT, CS_BERKELEY, CS_SYSV };

static enum cs_format sniff(const char *head, size_t len, int *score)
{
	char buf[256], buf2[256], *file = NULL;
	size_t next, next2;
	int k;

	first_line(head, len, buf, sizeof(buf), &next);
	*score = 0;
	if (starts_with(buf, "add/remove:") && strstr(buf, "grow/shrink:")) {
		*score = 95;
		return CS_BLOAT;
	}
	if (berkeley_header(buf)) {
		*score = 95;
		return CS_BERKELEY;
	}
	k = header_kind(buf);
	if (k >= 0) {
		/* a table without its summary line (busybox, or cut) */
		*score = 70;
		return CS_BLOAT;
	}
	if (next < len && sysv_file_line(buf, &file)) {
		free(file);
		first_line(head + next, len - next, buf2, sizeof(buf2),
			   &next2);
		if (!strcmp(buf2, "section              size    addr") ||
		    (starts_with(buf2, "section ") &&
		     ends_with(buf2, " addr") && strstr(buf2, " size "))) {
			*score = 90;
			return CS_SYSV;
		}
	}
	return CS_NONE;
}

/* A bloat-o-meter summary line anywhere in the first lines (mail). */
static int summary_inside(const char *head, size_t len)
{
	const char *p = head, *end = head + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *q = p;

		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(end - q) > 24 && !strncmp(q, "add/remove: ", 12) &&
		    memmem(q, (size_t)((nl ? nl : end) - q), "grow/shrink:", 12))
			return 1;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

static int codesize_detect(const char *path, const char *head, size_t len)
{
	int score;

	(void)path;
	sniff(head, len, &score);
	if (!score && summary_inside(head, len))
		score = 60;	/* a table among prose (mail) */
	return score;
}

static int emit_state(struct codesize *cs, const char *metric, long line)
{
	static const struct metric_state lower = { DIR_LOWER, NULL, -1 };

	return db_set_kind(cs->ctx, metric, MK_EXACT, line) ||
	       db_metric_state(cs->ctx, metric, "bytes", &lower, line);
}

/* The runs: the builds that have values, samples in the order read. */
static int emit(struct codesize *cs, enum cs_format fmt)
{
	static const char *const labels[] = { "old", "new" };
	int b, builds = fmt == CS_BLOAT ? 2 : 1;
	size_t i;

	for (b = 0; b < builds; b++) {
		struct run_desc rd = { .iteration = -1 };

		rd.suite = fmt == CS_BLOAT ? "bloat-o-meter" : "size";
		if (fmt == CS_BLOAT)
			rd.label = labels[b];
		if (db_emit_run(cs->ctx, &rd, 1))
			return -1;
		for (i = 0; i < cs->nr; i++) {
			const struct cs_value *v = &cs->v[i];

			if (!v->has[b])
				continue;
			if (db_emit_sample(cs->ctx, v->metric, "bytes",
					   (double)v->bytes[b], v->line) ||
			    emit_state(cs, v->metric, v->line))
				return -1;
		}
	}
	return 0;
}

static void cs_release(struct codesize *cs)
{
	size_t i;

	for (i = 0; i < cs->nr; i++)
		free(cs->v[i].metric);
	free(cs->v);
	for (i = 0; i < cs->nr_files; i++)
		free(cs->files[i]);
	free(cs->files);
	strmap_clear(&cs->names);
}

static int codesize_parse(struct import_ctx *ctx, struct input *in)
{
	struct codesize cs;
	enum cs_format fmt;
	int r, score, base = 0, ret = -1;

	memset(&cs, 0, sizeof(cs));
	cs.ctx = ctx;
	cs.path = in->path;
	cs.sysv_file = -1;
	fmt = sniff(in->head, in->head_len, &score);
	if (fmt == CS_NONE && summary_inside(in->head, in->head_len))
		/* a table among prose: a commit message saved as text */
		return import_text_file(ctx, in, &importer_codesize);
	if (fmt == CS_NONE)
		return error("%s:1: expected bloat-o-meter's 'add/remove: ...' "
			     "line or size's 'text data bss dec hex filename' "
			     "header", in->path);
	while ((r = input_getline(in)) > 0) {
		sbuf_rtrim(&in->sb);
		if (fmt == CS_BLOAT)
			r = bom_line(&cs, &in->sb, in->line);
		else
			r = size_line(&cs, &in->sb, in->line, &base);
		if (r)
			goto out;
	}
	if (r < 0)
		goto out;
	if (fmt == CS_BLOAT && bom_end(&cs))
		goto out;
	if (fmt != CS_BLOAT && cs.sysv_file >= 0) {
		error("%s:%ld: the sections of '%s' end without their 'Total' "
		      "line", in->path, cs.sysv_line, cs.files[cs.sysv_file]);
		goto out;
	}
	if (!cs.nr) {
		error("%s: no file in size's output", in->path);
		goto out;
	}
	name_files(&cs);
	ret = emit(&cs, fmt);
out:
	cs_release(&cs);
	return ret;
}

/*
 * ---- in mail: the bloat-o-meter table of a message ----
 *
 * A table pasted into a commit message or a mail sits among prose: it
 * starts at its "add/remove:" line (or its header, when the summary was
 * left out) and ends at the first line that is not one of its own
 * (blank, prose, a signature); what is around it is not read.  One
 * table a message; a message without one has no runs (skipped).
 */
struct cs_text {
	struct codesize cs;
	struct sbuf line;
	int in_table, done;
};

/* Is s (trimmed, not empty) a line of a table: a row, Total, summary? */
static int table_line(const char *s)
{
	char buf[512], *f[MAX_FIELDS + 1];
	int64_t x;
	int n;

	if (starts_with(s, "Total:") || starts_with(s, "add/remove:") ||
	    starts_with(s, "(add/remove:") || strspn(s, "-") == strlen(s))
		return 1;
	if (strlen(s) >= sizeof(buf))
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	if (header_kind(buf) >= 0)
		return 1;
	snprintf(buf, sizeof(buf), "%s", s);
	n = split(buf, f, MAX_FIELDS, 0);
	/*
	 * a row by its shape, "name old new delta" ending in a signed
	 * delta: a bad size in it is then the row's error, not the end of
	 * the table
	 */
	return n == 4 && (f[3][0] == '+' || f[3][0] == '-') &&
	       !to_delta(f[3], &x);
}

static void *codesize_text_new(struct import_ctx *ctx)
{
	struct cs_text *t = xcalloc(1, sizeof(*t));

	t->cs.ctx = ctx;
	t->cs.path = ctx->path;
	t->cs.sysv_file = -1;
	sbuf_init(&t->line, 0);
	return t;
}

static int codesize_text_line(void *p, const char *line, long lineno, int depth)
{
	struct cs_text *t = p;
	const char *s = line;
	char buf[256];
	int start;

	(void)depth;
	if (t->done)
		return 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!t->in_table) {
		snprintf(buf, sizeof(buf), "%s", s);
		start = (starts_with(s, "add/remove:") &&
			 strstr(s, "grow/shrink:")) || header_kind(buf) >= 0;
		if (!start)
			return 0;
		t->in_table = 1;
	} else if (!*s || !table_line(s)) {
		t->done = 1;	/* the prose after it */
		return 0;
	}
	sbuf_reset(&t->line);
	sbuf_addstr(&t->line, line);
	sbuf_rtrim(&t->line);
	return bom_line(&t->cs, &t->line, lineno);
}

static int codesize_text_end(void *p, int finish)
{
	struct cs_text *t = p;
	int ret = 0;

	if (finish && t->in_table)
		ret = bom_end(&t->cs) || emit(&t->cs, CS_BLOAT) ? -1 : 0;
	cs_release(&t->cs);
	sbuf_release(&t->line);
	free(t);
	return ret;
}

const struct importer importer_codesize = {
	.name = "codesize",
	.family = "codesize",
	.what = "code size: scripts/bloat-o-meter tables (runs old "
		"and new; also in mail) and size(1) output (Berkeley or -A)",
	.flags = IMP_FILES | IMP_VARIANTS | IMP_SAMPLES,
	.detect = codesize_detect,
	.parse = codesize_parse,
	.text_new = codesize_text_new,
	.text_line = codesize_text_line,
	.text_end = codesize_text_end,
};
