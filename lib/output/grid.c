/*
 * Aligned columns of cells (grid.h): measured as they are made, laid
 * out in one pass once the widths of the whole table are known.
 */
#include "core/compat.h"
#include "output/grid.h"

/*
 * Display width of UTF-8 text: continuation bytes (10xxxxxx) take no
 * column.  Eight bytes at a time: bit 7 set and bit 6 clear.
 */
static size_t width(const char *s, size_t len)
{
	size_t cont = 0, i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, 8);
		x = (x & ~(x << 1) & 0x8080808080808080ULL) >> 7;
		/* the eight bytes' 0s and 1s summed into the top byte */
		cont += (size_t)(x * 0x0101010101010101ULL >> 56);
	}
	for (; i < len; i++)
		cont += ((unsigned char)s[i] & 0xc0) == 0x80;
	return len - cont;
}

/* the newest cell is complete: measure it */
static void grid_measure(struct grid *g)
{
	size_t i = g->nr - 1, col = i % g->ncols;
	size_t cw = width(g->text.buf + g->start[i],
			  g->text.len - g->start[i]);

	g->cw[i] = cw > UINT32_MAX ? UINT32_MAX : (uint32_t)cw;
	if (cw > g->w[col])
		g->w[col] = cw;
}

void grid_reserve(struct grid *g, size_t n, size_t bytes)
{
	size_t was = g->alloc;

	ALLOC_GROW(g->start, g->nr + n + 2, g->alloc);
	if (g->alloc != was)
		g->cw = xrealloc(g->cw, g->alloc * sizeof(*g->cw));
	sbuf_grow(&g->text, n * bytes);
}

struct sbuf *grid_next(struct grid *g)
{
	if (g->ncols > GRID_MAX_COLS)
		BUG("a grid of %zu columns", g->ncols);
	if (g->nr)
		grid_measure(g);
	if (g->nr + 2 > g->alloc)
		grid_reserve(g, 1, 0);
	if (g->text.len > UINT32_MAX)
		BUG("a text table of %zu bytes", g->text.len);
	g->start[g->nr++] = (uint32_t)g->text.len;
	return &g->text;
}

void grid_widths(struct grid **g, size_t n)
{
	size_t i, k, col;

	for (i = 0; i < n; i++)
		if (g[i]->nr) {
			grid_measure(g[i]);
			g[i]->start[g[i]->nr] = (uint32_t)g[i]->text.len;
		}
	for (col = 0; col < g[0]->ncols; col++)
		for (i = 0; i < n; i++)
			for (k = 0; k < n; k++)
				if (g[k]->w[col] > g[i]->w[col])
					g[i]->w[col] = g[k]->w[col];
}

void grid_layout(struct grid *g)
{
	size_t i, rowmax = 0, len, pad;
	char *p;

	if (!g->nr)
		goto out;
	for (i = 0; i < g->ncols; i++)
		rowmax += g->w[i] + 2;
	/* each cell's bytes, plus at most its column's width of padding */
	p = sbuf_room(&g->out, g->text.len + g->nr / g->ncols * rowmax);
	for (i = 0; i < g->nr; i++) {
		size_t col = i % g->ncols;
		const char *cell = g->text.buf + g->start[i];
		int last = col == g->ncols - 1;
		int right = !!(g->right & (1UL << col));

		len = g->start[i + 1] - g->start[i];
		pad = last && !right ? 0 : g->w[col] - g->cw[i];
		if (right) {
			memset(p, ' ', pad);
			p += pad;
		}
		memcpy(p, cell, len);
		p += len;
		if (!right) {
			memset(p, ' ', pad);
			p += pad;
		}
		if (last) {
			*p++ = '\n';
		} else {
			*p++ = ' ';
			*p++ = ' ';
		}
	}
	sbuf_setlen(&g->out, (size_t)(p - g->out.buf));
out:
	sbuf_release(&g->text);
	free(g->start);
	free(g->cw);
	g->start = NULL;
	g->cw = NULL;
	g->nr = g->alloc = 0;
}

void grid_write(struct grid *g, FILE *f)
{
	fwrite_unlocked(g->out.buf, 1, g->out.len, f);
	sbuf_release(&g->out);
	sbuf_release(&g->text);
	free(g->start);
	free(g->cw);
	memset(g, 0, sizeof(*g));
}
