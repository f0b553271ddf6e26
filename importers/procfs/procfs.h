#ifndef PROCFS_H
#define PROCFS_H
#include "store/db.h"
#include "core/sbuf.h"

/*
 * The procfs parser fed line by line (a file's /proc/vmstat sections as
 * another importer finds them): new (prefix, if not NULL, goes before
 * every metric name), a line (its text may be trimmed in place; it holds
 * no NUL byte, as input_getline() promises), end
 * (the end-of-input checks when finish is 1; frees).
 */
struct procfs;
struct procfs *procfs_feed_new(struct import_ctx *ctx, const char *path,
			       const char *prefix);
int procfs_feed_line(struct procfs *st, struct sbuf *line, long lineno);
int procfs_feed_end(struct procfs *st, int finish);

#endif
