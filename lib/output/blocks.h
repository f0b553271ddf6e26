#ifndef BLOCKS_H
#define BLOCKS_H
/*
 * A table's rows in blocks, formatted on two cores and written in order
 * while the next ones are formatted (parallel_ordered()): each of
 * BLOCK_SLOTS buffers holds a block at a time; the caller writes each
 * block as soon as it and those before it are formatted, and formats
 * the next ones meanwhile, so that the writes' time is shared between
 * the cores too.
 */
#include <stddef.h>
#include <stdio.h>
#include "core/sbuf.h"

#define BLOCK_SLOTS 4
/*
 * Rows a block of a table holds: its buffer stays a few hundred kB and
 * is used again for the next block instead of growing.
 */
#define ROW_BLOCK 256

/*
 * run(ctx, job, lo, hi, out) formats the rows lo..hi into out.  start(),
 * when there is one, readies job for them first, called in row order: a
 * block starts from the state the rows before it leave (JSON's comma,
 * markdown's heading), which start() keeps in ctx; job[k] is the state
 * of the k-th buffer's blocks (NULL without a start()).  A table below
 * PARALLEL_MIN / 2 rows: every block in turn in the caller's thread.
 */
struct blocks {
	size_t nr, block;	/* rows, rows a block */
	void (*start)(void *ctx, void *job, size_t lo, size_t hi);
	void (*run)(void *ctx, void *job, size_t lo, size_t hi,
		    struct sbuf *out);
	void *ctx;		/* borrowed */
	void *job[BLOCK_SLOTS];	/* borrowed */
};

/* The rows of bl to f; 0, or -1 when a write failed. */
int blocks_write(const struct blocks *bl, FILE *f);

#endif
