#ifndef GRID_H
#define GRID_H
/*
 * A grid of cells printed with aligned columns (compare's text tables).
 * The cells are one text, each from its start offset to the next one's:
 * a row is ten cells of a few bytes, and one allocation a cell would
 * outweigh their text.  grid_next() returns the text to append
 * the new cell to; only the newest cell may be appended to.  A table's
 * rows may be made in several grids (one per core): each measures its
 * columns as its cells are made (w), grid_widths() takes the widest of
 * them, and each lays its rows out (grid_layout()) into its own out,
 * which go to the stream in order (grid_write()).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "core/sbuf.h"

#define GRID_MAX_COLS 16

struct grid {
	struct sbuf text;	/* the cells' text */
	uint32_t *start;	/* owned: each cell's offset in text (a
				 * table's text stays far below 4 GiB) */
	uint32_t *cw;		/* owned: each cell's width, once measured */
	size_t ncols, nr, alloc;
	unsigned long right;	/* a bit per right-aligned column */
	size_t w[GRID_MAX_COLS];	/* widest cell of each column */
	struct sbuf out;		/* grid_layout()'s text */
};

#define GRID_INIT(ncols, right) \
	{ SBUF_INIT, NULL, NULL, (ncols), 0, 0, (right), { 0 }, SBUF_INIT }

/* Room for n more cells of about bytes each: no array doubled and copied. */
void grid_reserve(struct grid *g, size_t n, size_t bytes);
/* A new cell: the text to append it to (borrowed, until the next call). */
struct sbuf *grid_next(struct grid *g);
/* The widths of a table made in grids *g[0..n), into each of them. */
void grid_widths(struct grid **g, size_t n);
/*
 * The cells of g laid out into g->out with the table's widths (g->w,
 * grid_widths()), its text released: one allocation, no per-cell call.
 */
void grid_layout(struct grid *g);
/* g's laid-out text to f, and g emptied. */
void grid_write(struct grid *g, FILE *f);

#endif
