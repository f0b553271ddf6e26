#ifndef VALUES_H
#define VALUES_H
/*
 * run_values: each run's samples packed in one blob (schema 0007), the
 * copy compare reads, since one row per sample costs more to read than a
 * whole comparison may take.  The samples table stays the reference;
 * run_values is written from it by the same import, in the same
 * transaction (db_pack_runs()).  A run without a row (no samples, more
 * than RUN_VALUES_MAX, or a database whose metric ids passed 31 bits) is
 * read from samples.
 *
 * The blob: n entries of RUN_VALUE_SIZE bytes, ascending metric id: the
 * id as unsigned 32-bit little-endian with RUN_VALUE_DERIVED set when
 * the value was reduced from a series, then the value as an IEEE double,
 * little-endian.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "store/db.h"
#include "core/le.h"

#define RUN_VALUE_SIZE 12
#define RUN_VALUE_DERIVED 0x80000000u
/* Samples a run may have and be packed: SQLite's blobs stop at 10^9 B. */
#define RUN_VALUES_MAX ((int64_t)80000000)
/* On a server, whose blob is sent whole: 48 MB. */
#define RUN_VALUES_MAX_SERVER ((int64_t)4000000)
/* Entry i of a run_values blob. */
static inline void run_value_at(const unsigned char *blob, size_t i,
				int64_t *metric_id, double *value,
				int *derived)
{
	const unsigned char *p = blob + i * RUN_VALUE_SIZE;
	uint32_t id = le_get_u32(p);

	*metric_id = (int64_t)(id & ~RUN_VALUE_DERIVED);
	*derived = !!(id & RUN_VALUE_DERIVED);
	*value = le_get_double(p + 4);
}

/*
 * Write the run_values of every run of import_id (-1: of every run, the
 * migration to schema 0007), in the open transaction, from the samples
 * table.  0 or -1 after error().
 */
int db_pack_runs(struct db *db, int64_t import_id);

/*
 * An import's values as they go into samples (SQLite): the run_values of
 * its runs are then written from memory at its end (db_pack_import())
 * instead of read back from the table, which cost a tenth of a CSV
 * import.  At most VALUES_HELD_MAX bytes are held: past them the runs
 * held so far are written, and a run that gets a value after its blob
 * was written is packed from the table at the end, as before.
 */
#define VALUES_HELD_MAX ((size_t)4 << 20)
void values_held_add(struct import_ctx *ctx, int64_t run_id,
		     int64_t metric_id, double value, int derived);
/* Write the run_values of ctx's import (db_pack_runs() on a server). */
int db_pack_import(struct import_ctx *ctx);
/* Forget what ctx holds (the import ends, committed or not). */
void values_held_free(struct import_ctx *ctx);

#endif
