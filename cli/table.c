/*
 * Text tables for the listing commands (see table.h).
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "table.h"

void table_init(struct table *t, size_t ncols, unsigned long right)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->right = right;
}

void table_addf(struct table *t, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(t->cells, t->nr + 1, t->alloc);
	t->cells[t->nr++] = sbuf_detach(&sb, NULL);
}

void table_print(const struct table *t, FILE *f)
{
	size_t *w = xcalloc(t->ncols, sizeof(*w));
	size_t i, c;

	for (i = 0; i < t->nr; i++) {
		size_t n = strlen(t->cells[i]);

		if (n > w[i % t->ncols])
			w[i % t->ncols] = n;
	}
	for (i = 0; i < t->nr; i += t->ncols) {
		struct sbuf line = SBUF_INIT;

		for (c = 0; c < t->ncols && i + c < t->nr; c++) {
			const char *s = t->cells[i + c];
			size_t pad = w[c] - strlen(s);

			if (c)
				sbuf_addstr(&line, "  ");
			if (t->right & (1UL << c))
				sbuf_addpad(&line, pad);
			sbuf_addstr(&line, s);
			if (!(t->right & (1UL << c)))
				sbuf_addpad(&line, pad);
		}
		sbuf_rtrim(&line);
		fprintf(f, "%s\n", line.buf);
		sbuf_release(&line);
	}
	free(w);
}

void table_release(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
