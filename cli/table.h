#ifndef TABLE_H
#define TABLE_H
/*
 * A plain text table for listing commands: cells are added row by row,
 * widths are computed at print time; right-aligned columns are marked.
 */
#include <stdio.h>
#include <stddef.h>

struct table {
	size_t ncols;
	char **cells;		/* owned, ncols per row */
	size_t nr, alloc;	/* cells used / allocated */
	unsigned long right;	/* bit i: column i right-aligned */
};

void table_init(struct table *t, size_t ncols, unsigned long right);
void table_addf(struct table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print with two spaces between columns; trailing blanks trimmed. */
void table_print(const struct table *t, FILE *f);
void table_release(struct table *t);

#endif
