/*
 * The mmtests-extract importer: what MMTests' extract-mmtests.pl prints
 * of one run (its printReport, research/mmtests.md §3, the sample
 * samples/mmtests/schbench-extract-mmtests-output.txt): an indented
 * header "Operation <label>", then one line per value,
 * "<operation> <iteration> <value>" ("50.0th-qrtle-1   0   11.00").
 *
 * Each iteration is a run (iteration as printed), each line a sample of
 * metric "<benchmark>.<operation>", as the mmtests-tree importer names
 * them.  The file does not name its benchmark: --testcase does, else the
 * file name's first word (up to '-' or '.': "schbench.out",
 * "schbench-extract-...") when it is an MMTests benchmark perfsift
 * knows (an IMP_PART of the family).  A known benchmark also gives the
 * direction, unit and summary of its extractor; another one is taken as
 * named, with none stated.  A run has one value of an operation: a
 * second one for the same iteration is an error.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include "mmtests-tree-int.h"
#include <ctype.h>

struct xrow {
	size_t op;		/* index into ops */
	long iter;
	double v;
	long line;
};

struct xfile {
	const char *path;
	char **ops;		/* in the order first seen */
	size_t nr_ops, alloc_ops;
	struct strmap op_idx;
	struct xrow *rows;
	size_t nr_rows, alloc_rows;
	struct strmap seen;	/* (op, iteration) -> line */
};

static void xfile_release(struct xfile *f)
{
	size_t i;

	for (i = 0; i < f->nr_ops; i++)
		free(f->ops[i]);
	free(f->ops);
	strmap_clear(&f->op_idx);
	strmap_clear(&f->seen);
	free(f->rows);
}

/* The next blank-separated token of *p into tok (cap bytes); 0 or -1. */
static int next_token(const char **p, char *tok, size_t cap)
{
	const char *s = *p;
	size_t n;

	str_skip_blanks(&s);
	n = strcspn(s, " \t");
	if (!n || n >= cap)
		return -1;
	memcpy(tok, s, n);
	tok[n] = '\0';
	*p = s + n;
	return 0;
}

/* "<operation> <iteration> <value>": 0, or -1 (nothing said). */
static int split_row(const char *s, char *op, size_t cap, long *iter,
		     double *v)
{
	char it[32], val[64];

	if (next_token(&s, op, cap) || next_token(&s, it, sizeof(it)) ||
	    next_token(&s, val, sizeof(val)))
		return -1;
	str_skip_blanks(&s);
	if (*s || str_to_long(it, iter) || *iter < 0 ||
	    str_to_double(val, v))
		return -1;
	return 0;
}

/* The header: blanks, "Operation", blanks, a label. */
static int header_line(const char *s)
{
	if (*s != ' ' && *s != '\t')
		return 0;
	str_skip_blanks(&s);
	if (!starts_with(s, "Operation") ||
	    (s[9] != ' ' && s[9] != '\t'))
		return 0;
	s += 9;
	str_skip_blanks(&s);
	return *s != '\0';
}

static int take_row(struct xfile *f, const char *s, long line)
{
	char op[256];
	struct { size_t op; long iter; } key;
	struct xrow *r;
	int64_t idx, prev;
	long iter;
	double v;

	if (split_row(s, op, sizeof(op), &iter, &v))
		return error("%s:%ld: expected '<operation> <iteration> "
			     "<value>', got '%.80s'", f->path, line, s);
	if (!strmap_get(&f->op_idx, op, strlen(op), &idx)) {
		ALLOC_GROW(f->ops, f->nr_ops + 1, f->alloc_ops);
		f->ops[f->nr_ops] = xstrdup(op);
		idx = (int64_t)f->nr_ops++;
		strmap_put(&f->op_idx, op, strlen(op), idx);
	}
	memset(&key, 0, sizeof(key));
	key.op = (size_t)idx;
	key.iter = iter;
	if (strmap_get(&f->seen, (const char *)&key, sizeof(key), &prev))
		return error("%s:%ld: a second value of %s for iteration %ld "
			     "(the first at line %ld)", f->path, line, op, iter,
			     (long)prev);
	strmap_put(&f->seen, (const char *)&key, sizeof(key), line);
	ALLOC_GROW(f->rows, f->nr_rows + 1, f->alloc_rows);
	r = &f->rows[f->nr_rows++];
	r->op = (size_t)idx;
	r->iter = iter;
	r->v = v;
	r->line = line;
	return 0;
}

static int cmp_row_iter(const void *a, const void *b)
{
	const struct xrow *x = a, *y = b;

	if (x->iter != y->iter)
		return x->iter < y->iter ? -1 : 1;
	/* stable: the file's order */
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * The benchmark: --testcase, else the file name's first word when it
 * is a benchmark perfsift knows.  Into bench (cap bytes); *ex its
 * extractor or NULL.  0 or -1 after error().
 */
static int benchmark(struct import_ctx *ctx, const char *path, char *bench,
		     size_t cap, const struct mmtests_extractor **ex)
{
	const char *base = base_name(path);
	size_t n = strcspn(base, "-.");
	const struct importer *part;

	*ex = NULL;
	if (ctx->ovr && ctx->ovr->testcase && *ctx->ovr->testcase) {
		snprintf(bench, cap, "%s", ctx->ovr->testcase);
		part = importer_part("mmtests", bench);
		*ex = part ? part->part : NULL;
		return 0;
	}
	if (n && n < cap) {
		memcpy(bench, base, n);
		bench[n] = '\0';
		part = importer_part("mmtests", bench);
		if (part) {
			*ex = part->part;
			return 0;
		}
	}
	return error("%s: cannot tell the benchmark: the file name does not "
		     "start with one perfsift knows (schbench-..., "
		     "schbench.out); give --testcase", path);
}

static int emit(struct import_ctx *ctx, struct xfile *f, const char *bench,
		const struct mmtests_extractor *ex)
{
	struct sbuf name = SBUF_INIT;
	const char *unit = ex ? ex->unit : NULL;
	struct metric_state ms = {
		ex ? ex->direction : 0, ex ? mt_summary_of(ex) : NULL, -1,
	};
	size_t i;
	long iter = -1;
	int ret = -1;

	qsort(f->rows, f->nr_rows, sizeof(*f->rows), cmp_row_iter);
	for (i = 0; i < f->nr_rows; i++) {
		const struct xrow *r = &f->rows[i];

		if (r->iter != iter) {
			struct run_desc rd = {
				.suite = "mmtests", .testcase = bench,
				.iteration = r->iter,
			};

			iter = r->iter;
			if (db_emit_run(ctx, &rd, r->line))
				goto out;
		}
		sbuf_reset(&name);
		sbuf_addf(&name, "%s.%s", bench, f->ops[r->op]);
		ms.position = (long)r->op;
		if (db_metric_state(ctx, name.buf, unit, &ms, r->line) ||
		    db_emit_sample(ctx, name.buf, unit, r->v, r->line))
			goto out;
	}
	ret = 0;
out:
	sbuf_release(&name);
	return ret;
}

static int mmtests_extract_parse(struct import_ctx *ctx, struct input *in)
{
	struct xfile f;
	const struct mmtests_extractor *ex;
	char bench[128];
	int r, header = 0, ret = -1;

	memset(&f, 0, sizeof(f));
	f.path = in->path;
	if (benchmark(ctx, in->path, bench, sizeof(bench), &ex))
		goto out;
	while ((r = input_getline(in)) > 0) {
		const char *s = in->sb.buf;

		sbuf_rtrim(&in->sb);
		if (!*s)
			continue;
		if (!header) {
			if (!header_line(s)) {
				error("%s:%ld: expected the header '   Operation "
				      "<label>', got '%.80s'", in->path,
				      in->line, s);
				goto out;
			}
			header = 1;
			continue;
		}
		if (take_row(&f, s, in->line))
			goto out;
	}
	if (r < 0)
		goto out;
	if (!f.nr_rows) {
		error("%s: no '<operation> <iteration> <value>' line",
		      in->path);
		goto out;
	}
	ret = emit(ctx, &f, bench, ex);
out:
	xfile_release(&f);
	return ret;
}

/*
 * Scores 80 when the first line that is not blank is the indented
 * "Operation <label>" header and the next one a row.
 */
static int mmtests_extract_detect(const char *path, const char *head,
				  size_t len)
{
	char line[512], op[256];
	size_t pos = 0;
	int seen_header = 0;
	long iter;
	double v;

	(void)path;
	while (pos < len) {
		const char *nl = memchr(head + pos, '\n', len - pos);
		size_t full = nl ? (size_t)(nl - head - pos) : len - pos;
		size_t l = full;

		if (!nl || full >= sizeof(line))
			return 0;
		while (l && isspace((unsigned char)head[pos + l - 1]))
			l--;
		memcpy(line, head + pos, l);
		line[l] = '\0';
		pos += full + 1;
		if (!l)
			continue;
		if (!seen_header) {
			if (!header_line(line))
				return 0;
			seen_header = 1;
			continue;
		}
		return split_row(line, op, sizeof(op), &iter, &v) ? 0 : 80;
	}
	return 0;
}

const struct importer importer_mmtests_extract = {
	.name = "mmtests-extract",
	.family = "mmtests",
	.what = "MMTests extract-mmtests.pl output: '<operation> <iteration> "
		"<value>' under an 'Operation <label>' header",
	.flags = IMP_FILES | IMP_SAMPLES,
	.detect = mmtests_extract_detect,
	.parse = mmtests_extract_parse,
};
