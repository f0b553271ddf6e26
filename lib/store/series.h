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
 * The blob (series.points) in one of two layouts, named by series.codec:
 * SERIES_RAW, n pairs of IEEE-754 doubles (t, value), little-endian (every
 * chunk before schema 8), or SERIES_PACKED, where integers (the common
 * case: epoch seconds, counters, pages) are stored as differences in a
 * few bytes (series.c says how).  Readers call series_unpack() for both.
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
/*
 * From now until series_buf_finish() (or _free()), points are added by
 * a writer thread (on SQLite, and unless PERFSIFT_THREADS=1): the caller
 * parses the next block while the last one is written.  The connection
 * is then the writer's: the caller calls series_buf_sync() before any
 * other use of the database, and before it returns to the driver.
 */
void series_buf_async(struct series_buf *sb, struct import_ctx *ctx);
/* Wait until everything added is written.  0, or -1 when it failed. */
int series_buf_sync(struct series_buf *sb);
/*
 * series_buf_sync(), and the writer thread ended: points are added
 * by the caller again.  The writer takes the source and the path of a
 * series from ctx when it first meets its metric, so a parser ends it
 * before another member of the same run is read.
 */
int series_buf_sync_end(struct series_buf *sb);

enum series_codec {
	SERIES_RAW = 0,
	SERIES_PACKED = 1,
};

/* The bytes series_pack() may write for n points. */
#define SERIES_PACK_MAX(n) (1 + (size_t)(n) * 20)

/*
 * n points, (t, value) pairs in tv (2n doubles: t0, v0, t1, v1, ...),
 * into out (SERIES_PACK_MAX(n) bytes): returns the length and sets *codec
 * to the smaller layout (SERIES_RAW when neither t nor the values are
 * integers).  Every double comes back bit for bit.
 */
size_t series_pack(const double *tv, size_t n, unsigned char *out,
		   int *codec);

/*
 * The most points a blob of len bytes can hold in codec: a bound for the
 * arrays of series_unpack() before n (read from a database) is trusted.
 */
size_t series_max_points(int codec, size_t len);

/*
 * The n points of a blob of len bytes in codec into tv, (t, value) pairs
 * (2n doubles).  0, or -1 when the blob is not exactly n points in that
 * layout (an unknown codec, a cut or overlong blob); tv is then
 * unspecified.
 */
int series_unpack(int codec, const void *blob, size_t len, size_t n,
		  double *tv);

/* The bytes of a SERIES_RAW point: two doubles, t and value. */
#define SERIES_RAW_POINT 16

/* Write point i of a SERIES_RAW blob (histograms' bins use it too). */
void series_put_point(void *blob, size_t i, double t, double value);

#endif
