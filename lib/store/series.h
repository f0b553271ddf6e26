#ifndef SERIES_H
#define SERIES_H
/*
 * Series of one run being imported: points collected per metric in
 * chunks of SERIES_CHUNK (t, value) pairs, written as packed blobs when a
 * chunk fills, and reduced at the end of the run into one derived sample
 * per metric: a counter as last - first (not emitted, with a warning,
 * when it ever goes down: a reboot or a wrap), anything else as the mean.
 * Memory is bounded by the number of metrics, not the number of points.
 *
 * The blob: n pairs of IEEE-754 doubles (t, value), little-endian.
 */
#include <stddef.h>
#include <stdint.h>
#include "store/db.h"

#define SERIES_CHUNK 256

struct series_buf;

/* New, empty; free with series_buf_free() (NULL is fine). */
struct series_buf *series_buf_new(void);
void series_buf_free(struct series_buf *sb);
/* One point of metric id. 0 or -1 after error(). */
int series_buf_add(struct series_buf *sb, struct import_ctx *ctx,
		   int64_t metric_id, double t, double value, long line);
/* Write what is pending, reduce, and empty the buffer.  0 or -1. */
int series_buf_finish(struct series_buf *sb, struct import_ctx *ctx);

/* Decode point i of a blob. */
void series_point(const void *blob, size_t i, double *t, double *value);
/* Write point i of a blob in that layout (histograms use it too). */
void series_put_point(void *blob, size_t i, double t, double value);

#endif
