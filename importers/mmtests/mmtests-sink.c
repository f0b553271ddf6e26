/*
 * The extraction sink (extract.h, mmtests-tree-int.h): the struct mmx an
 * extractor reports through.  It lists the test's logs, keeps the
 * operations in MMTests' order, and either keeps the values for the
 * tree importer to write or, for `perfsift debug mmtests-extract`,
 * prints them as they come.
 */
#include "core/compat.h"
#include "mmtests-tree-int.h"
#include <fnmatch.h>

const char *mmx_test(const struct mmx *x)
{
	return x->test;
}

size_t mmx_glob(struct mmx *x, const char *glob,
		const struct mmx_file *const **out)
{
	size_t i;

	x->nr_sel = 0;
	for (i = 0; i < x->nr_files; i++)
		if (!fnmatch(glob, x->files[i].name, 0)) {
			ALLOC_GROW(x->sel, x->nr_sel + 1, x->alloc_sel);
			x->sel[x->nr_sel++] = &x->files[i];
		}
	*out = x->sel;
	return x->nr_sel;
}

const struct mmx_file *mmx_find(struct mmx *x, const char *name)
{
	size_t i;

	for (i = 0; i < x->nr_files; i++)
		if (!strcmp(x->files[i].name, name))
			return &x->files[i];
	return NULL;
}

int mmx_open(struct mmx *x, const struct mmx_file *f, struct input *in)
{
	size_t i = (size_t)(f - x->files);

	if (i >= x->nr_files)
		BUG("mmx_open() of a file not listed");
	x->cur = f->path;
	if (x->ctx)
		return import_open_member(x->ctx, x->mem[i], in);
	if (input_open(in, f->path, -1)) {
		input_close(in);
		return -1;
	}
	return 0;
}

int mmx_close(struct mmx *x, const struct mmx_file *f, struct input *in)
{
	size_t i = (size_t)(f - x->files);

	if (i >= x->nr_files)
		BUG("mmx_close() of a file not listed");
	if (x->ctx)
		return import_close_member(x->ctx, x->mem[i], in);
	input_close(in);
	return 0;
}

static size_t op_index(struct mmx *x, const char *op, int direction)
{
	int64_t idx;

	if (strmap_get(&x->op_idx, op, strlen(op), &idx))
		return (size_t)idx;
	ALLOC_GROW(x->ops, x->nr_ops + 1, x->alloc_ops);
	x->ops[x->nr_ops].name = xstrdup(op);
	x->ops[x->nr_ops].direction = direction ? direction : x->ex->direction;
	strmap_put(&x->op_idx, op, strlen(op), (int64_t)x->nr_ops);
	return x->nr_ops++;
}

int mmx_op(struct mmx *x, const char *op, int direction)
{
	if (!*op)
		return error("%s: an operation with no name", x->cur ?
			     x->cur : x->test);
	op_index(x, op, direction);
	return 0;
}

int mmx_add(struct mmx *x, const char *op, long rep, double t, double value,
	    long line)
{
	struct mmx_val *v;

	if (!*op || rep < 0)
		BUG("mmx_add(\"%s\", %ld)", op, rep);
	if (!isfinite(value))
		return error("%s:%ld: expected a number for %s, got %g",
			     x->cur ? x->cur : x->test, line, op, value);
	if (!x->ctx) {
		/* the import's check (mt_check_twice()), here as values come */
		size_t idx = op_index(x, op, 0);

		if (isnan(t)) {
			struct { size_t op; long rep; } key;
			int64_t prev;

			memset(&key, 0, sizeof(key));
			key.op = idx;
			key.rep = rep;
			if (strmap_get(&x->seen, (const char *)&key, sizeof(key),
				       &prev))
				return error("%s:%ld: a second value of %s for "
					     "repetition %ld (the first at line "
					     "%ld)", x->cur ? x->cur : x->test,
					     line, op, rep, (long)prev);
			strmap_put(&x->seen, (const char *)&key, sizeof(key),
				   line);
		}
		fprintf(x->out, "%s\t%ld\t", op, rep);
		if (isnan(t))
			fputs("-", x->out);
		else
			fprintf(x->out, "%.15g", t);
		fprintf(x->out, "\t%.15g\t%s:%ld\n", value, x->cur ?
			base_name(x->cur) : "", line);
		return 0;
	}
	ALLOC_GROW(x->val, x->nr_val + 1, x->alloc_val);
	v = &x->val[x->nr_val++];
	v->op = op_index(x, op, 0);
	v->rep = rep;
	v->t = t;
	v->v = value;
	v->line = line;
	v->source = x->ctx->source_id;
	v->file = x->cur ? x->cur : x->test;
	return 0;
}

void mmx_warn(struct mmx *x, long line, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (x->ctx) {
		const char *keep = x->ctx->path;

		x->ctx->path = x->cur ? x->cur : keep;
		db_warn(x->ctx, line, "%s", sb.buf);
		x->ctx->path = keep;
	} else {
		warning("%s:%ld: %s", x->cur ? x->cur : x->test, line, sb.buf);
	}
	sbuf_release(&sb);
}

void mmx_release(struct mmx *x)
{
	size_t i;

	for (i = 0; i < x->nr_ops; i++)
		free(x->ops[i].name);
	free(x->ops);
	strmap_clear(&x->op_idx);
	strmap_clear(&x->seen);
	free(x->val);
	free(x->sel);
}
